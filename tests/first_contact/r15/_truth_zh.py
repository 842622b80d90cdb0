"""Independent true values for the Chinese (zh_) first-contact documents of round 15.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is read
as an exact decimal.  Every listed number is located in its document programmatically (an
anchor string on its line + the index of the numeric token on that line), the literal is
asserted to stand at that line/column (1-based, counted in characters), its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and its
status is re-derived.

Status rule (the project's rule, used by rounds r1-r14): a printed result is "ok" iff it is
the truth rounded to its printed precision, |literal - truth| <= half a unit of the last
printed digit; a truncation (within one unit, not half) is wrong, kind "rounding".  A number
written with trailing zeros as a rough magnitude ('2000π ≈ 6280') is compared at its
significant figures (an explicit `unit`); float32 printouts get an explicit tolerance.
Wrong numbers carry a kind: "slip" (fresh error), "carried" (correct arithmetic from, or a
repetition of, an earlier wrong printed number; "carried_from" gives its line), "rounding"
(rounded wrongly), "rounding-carried" (right only by the document's own rounded
intermediates), "convention" (right under a different convention than the document's).

Entries made with A(...) are judged by this script: ok if the literal is the rounded truth;
otherwise, if the literal agrees with `docval` (what the document's own printed operands give;
a list holds alternatives, e.g. the exact product of the printed operands and the sum of the
document's rounded partial results), "carried" when `cf` names the line of the earlier wrong
number, else "rounding-carried"; failing that, a truncation of the truth is "rounding" and
anything else a "slip".

    python _truth_zh.py --write      # (re)write the zh_*.expect.json files
    python _truth_zh.py --check      # recompute and compare with the files (default)
    python _truth_zh.py --uncovered  # review aid: numeric tokens not listed
    python _truth_zh.py --tokens DOC # review aid: numeric tokens of DOC with their indices
"""
import json
import os
import re
import sys
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))

# numbers as printed: optional sign (ASCII '-' or U+2212, only when not a binary minus),
# thousands groups, decimals, NumPy-style trailing dot ("2.", "3."), optional exponent.
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:,\d{3})*(?:\.\d*)?(?:[eE][-+]?\d+)?')

KINDS = ('slip', 'carried', 'rounding', 'rounding-carried', 'convention')


def is_exact(v):
    return isinstance(v, (int, Fraction))


def M(v):
    """exact Fraction -> mpf"""
    v = Fraction(v)
    return mpf(v.numerator) / v.denominator


def D(s):
    """exact decimal"""
    return Fraction(s)


def truth_str(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return mp.nstr(M(v), 20)
    return mp.nstr(v, 20)


def literal_value(claimed):
    """(value as Fraction, default unit of the last printed digit as Fraction)"""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    exp = 0
    m = re.match(r'^(.*?)[eE]([-+]?\d+)$', lit)
    if m:
        lit, exp = m.group(1), int(m.group(2))
    if lit.endswith('.'):
        lit = lit[:-1]
    places = len(lit.split('.')[1]) if '.' in lit else 0
    val = Fraction(lit) * Fraction(10) ** exp
    unit = Fraction(1, 10 ** places) * Fraction(10) ** exp
    return val, unit


def close(claimed, v, unit=None):
    """True iff the literal is the truth v rounded at its printed precision, i.e.
    |literal - v| <= half a unit of the last printed digit.  `unit` overrides the unit (significant figures of a number
    written with trailing zeros such as '~562,500', or a float32 tolerance)."""
    val, u = literal_value(claimed)
    if unit is not None:
        u = Fraction(unit)
    if unit is None or u > Fraction(1, 10**6):  # the project's rule: rounded to the printed places
        u = u / 2                               # (a truncation is wrong, kind "rounding"); f32: as given
    if is_exact(v):
        return abs(val - Fraction(v)) <= u
    return abs(M(val) - mpf(v)) <= M(u)


def close_within_unit(claimed, v, unit=None):
    """True iff the literal is within one unit of its last printed digit of v (a truncation)."""
    val, u = literal_value(claimed)
    if unit is not None:
        u = Fraction(unit)
    if is_exact(v):
        return abs(val - Fraction(v)) < u
    return abs(M(val) - mpf(v)) < M(u)


def ok_any(claimed, truths, unit=None):
    return any(close(claimed, t, unit) for t in truths)


class Spec:
    def __init__(self, label, anchor, ntok, entries):
        self.label, self.anchor, self.ntok, self.entries = label, anchor, ntok, entries


def S(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what, unit=None, alts=()):
    """a correct printed result; `alts` are further readings (e.g. binary vs decimal units)
    any of which the literal may match"""
    return dict(idx=idx, truth=truth, what=what, status='ok', kind=None, cf=None, unit=unit, alts=alts)


def W(idx, truth, what, kind, cf=None, unit=None, alts=()):
    """a wrong printed result: it matches neither the truth nor any of `alts`"""
    return dict(idx=idx, truth=truth, what=what, status='wrong', kind=kind, cf=cf, unit=unit, alts=alts)


def A(idx, truth, what, docval=None, cf=None, unit=None):
    """a printed result judged automatically (see the module docstring)"""
    return dict(idx=idx, truth=truth, what=what, status='auto', kind=None, cf=cf, unit=unit, alts=(),
                docval=docval)


def locate(lines, specs, docname):
    pos = 0
    out = []
    for sp in specs:
        found = None
        for i in range(pos, len(lines)):
            if (lines[i] == sp.anchor[1:]) if sp.anchor.startswith('^') else (sp.anchor in lines[i]):
                found = i
                break
        assert found is not None, (docname, sp.label, sp.anchor)
        pos = found + 1
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(lines[found])]
        assert len(toks) == sp.ntok, (docname, sp.label, len(toks), [t for t, _ in toks])
        out.append((sp, found, toks))
    return out


def build(docname, specs):
    path = os.path.join(HERE, docname)
    lines = open(path, encoding='utf-8').read().split('\n')
    where = {}
    pending = []
    for sp, found, toks in locate(lines, specs, docname):
        assert sp.label not in where, (docname, sp.label)
        where[sp.label] = found + 1
        for e in sp.entries:
            text, col = toks[e['idx']]
            pending.append((found + 1, col, text, e, sp.label))
    numbers = []
    seen = set()
    for line, col, text, e, label in pending:
        assert (line, col) not in seen, (docname, label, line, col)
        seen.add((line, col))
        # column is 1-based and counts characters (str indices), not bytes
        assert lines[line - 1][col - 1:col - 1 + len(text)] == text
        good = ok_any(text, [e['truth'], *e['alts']], e['unit'])
        if e['status'] == 'auto':
            if good:
                e = dict(e, status='ok', cf=None)
            elif e.get('docval') is not None and any(
                    close(text, dv, e['unit']) for dv in (e['docval'] if isinstance(e['docval'], (list, tuple)) else [e['docval']])):
                e = dict(e, status='wrong', kind='carried' if e['cf'] else 'rounding-carried')
            elif close_within_unit(text, e['truth'], e['unit']):
                e = dict(e, status='wrong', kind='rounding', cf=None)
            else:
                e = dict(e, status='wrong', kind='slip', cf=None)
        if e['status'] == 'ok' and not good and any(
            close_within_unit(text, t, e['unit']) for t in [e['truth'], *e['alts']]
        ):  # the truth truncated, not rounded: wrong, kind "rounding" (the rule of rounds r1-r13)
            e = dict(e, status='wrong', kind='rounding')
        if e['status'] == 'ok':
            assert good, (docname, label, line, col, text, truth_str(e['truth']), e['what'])
        else:
            assert not good, (docname, label, line, col, text, truth_str(e['truth']), e['what'])
            assert e['kind'] in KINDS, e['kind']
            assert (e['cf'] is not None) == (e['kind'] == 'carried'), (docname, label, e['what'])
        rec = {"line": line, "column": col, "claimed": text, "status": e['status']}
        if e['status'] == 'wrong':
            rec["kind"] = e['kind']
            if e['kind'] == 'carried':
                assert where[e['cf']] <= line, (docname, label, e['cf'])
                rec["carried_from"] = where[e['cf']]
        rec["truth"] = truth_str(e['truth'])
        rec["what"] = e['what']
        numbers.append(rec)
    numbers.sort(key=lambda r: (r['line'], r['column']))
    return numbers


def softmax(xs):
    ex = [mpmath.exp(M(x) if is_exact(x) else x) for x in xs]
    t = sum(ex)
    return [x / t for x in ex]


def expectation(fn):
    meta, specs = fn()
    out = dict(meta)
    out["numbers"] = build(meta["doc"], specs)
    return out


def uncovered(docs):
    for fn in docs:
        meta, specs = fn()
        exp = expectation(fn)
        have = {(r['line'], r['column']) for r in exp['numbers']}
        lines = open(os.path.join(HERE, meta['doc']), encoding='utf-8').read().split('\n')
        print("==", meta['doc'])
        for i, l in enumerate(lines, 1):
            miss = [m.group() for m in NUM_RE.finditer(l) if (i, m.start() + 1) not in have]
            if miss:
                print("%4d %s   | %s" % (i, miss, l[:60]))


def tokens(docname):
    lines = open(os.path.join(HERE, docname), encoding='utf-8').read().split('\n')
    for i, l in enumerate(lines, 1):
        toks = [m.group() for m in NUM_RE.finditer(l)]
        if toks:
            print("%4d %s   | %s" % (i, ' '.join('%d:%s' % (j, t) for j, t in enumerate(toks)), l[:70]))


def main(argv, docs):
    mode = argv[1] if len(argv) > 1 else '--check'
    assert mode in ('--check', '--write', '--uncovered', '--tokens'), mode
    if mode == '--tokens':          # review aid: numeric tokens of a document, with their indices
        tokens(argv[2])
        return 0
    if len(argv) > 2:               # restrict to the documents whose name contains argv[2]
        docs = [fn for fn in docs if argv[2] in fn()[0]['doc']]
    if mode == '--uncovered':
        uncovered(docs)
        return 0
    bad = 0
    for fn in docs:
        exp = expectation(fn)
        name = os.path.join(HERE, exp["doc"].rsplit('.', 1)[0] + '.expect.json')
        if mode == '--write':
            with open(name, 'w', encoding='utf-8') as f:
                json.dump(exp, f, ensure_ascii=False, indent=1)
                f.write('\n')
        else:
            try:
                with open(name, encoding='utf-8') as f:
                    have = json.load(f)
            except FileNotFoundError:
                have = None
            if have != exp:
                print("expectation file out of date: %s" % name)
                bad += 1
        nw = sum(1 for r in exp["numbers"] if r["status"] == "wrong")
        print("%-56s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0


def nstr(v, n=8):
    return mp.nstr(M(v) if is_exact(v) else v, n)


R2 = mpmath.sqrt(2)


def sin(x):
    return mpmath.sin(M(x) if is_exact(x) else x)


def cos(x):
    return mpmath.cos(M(x) if is_exact(x) else x)


def mexp(x):
    return mpmath.exp(M(x) if is_exact(x) else x)


def mlog(x):
    return mpmath.log(M(x) if is_exact(x) else x)



def Dm(rows):
    """matrix of exact decimals"""
    return [[D(v) for v in r.split()] for r in rows]


def rnd(v, places):
    """exact decimal rounding half away from zero (the hand-calculation habit)"""
    q = Fraction(1, 10 ** places)
    n = abs(Fraction(v)) / q
    r = int(n) + (1 if n - int(n) >= Fraction(1, 2) else 0)
    return (r * q) if v >= 0 else -(r * q)


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


# ---------------------------------------------------------------------------
# Document Z1: Transformer 深度学习 part 2, complete self-attention hand calculation
# ---------------------------------------------------------------------------
def doc_z1():
    name = "zh_transformer_series_self_attention_full_handcalc.md"
    X = Dm(["1.0 0.0 0.5 0.3", "0.2 0.8 0.1 0.5", "0.4 0.3 0.9 0.2", "0.6 0.1 0.3 0.7"])
    WQ = Dm(["0.1 0.3 0.5", "0.2 0.1 0.4", "0.3 0.5 0.2", "0.4 0.2 0.3"])
    WK = Dm(["0.5 0.1 0.3", "0.2 0.4 0.1", "0.3 0.2 0.5", "0.1 0.3 0.4"])
    WV = Dm(["0.3 0.2 0.5", "0.1 0.4 0.3", "0.5 0.1 0.2", "0.2 0.3 0.4"])
    Q, K, V = matmul(X, WQ), matmul(X, WK), matmul(X, WV)
    # the document's printed matrices
    Qp = Dm(["0.37 0.61 0.69", "0.38 0.30 0.49", "0.49 0.56 0.41", "0.38 0.37 0.62"])
    Kp = Dm(["0.70 0.33 0.62", "0.31 0.48 0.33", "0.56 0.28 0.55", "0.47 0.32 0.51"])
    Vp = Dm(["0.58 0.17 0.71", "0.25 0.49 0.37", "0.59 0.23 0.32", "0.41 0.29 0.63"])
    Sp = Dm(["0.888 0.636 0.757 0.721", "0.672 0.418 0.586 0.549", "0.743 0.524 0.649 0.611", "0.739 0.468 0.639 0.603"])
    Scp = Dm(["0.513 0.367 0.437 0.416", "0.388 0.241 0.338 0.317", "0.429 0.302 0.375 0.353", "0.427 0.270 0.369 0.348"])
    Ap = Dm(["0.270 0.234 0.251 0.245", "0.278 0.246 0.269 0.262", "0.271 0.248 0.266 0.259", "0.275 0.243 0.267 0.260"])
    Sm = [[sum(Q[i][k] * K[j][k] for k in range(3)) for j in range(4)] for i in range(4)]
    r3 = mpmath.sqrt(3)
    Sc = [[M(Sm[i][j]) / r3 for j in range(4)] for i in range(4)]
    Aw = [softmax(r) for r in Sc]
    O = [[sum(Aw[i][j] * M(V[j][c]) for j in range(4)) for c in range(3)] for i in range(4)]
    Vm = [[M(v) for v in r] for r in V]
    tok = ['猫', '坐', '在', '垫子']

    def flat(rows):
        return [v for r in rows for v in r]

    specs = [
        S('dk', '$d_k = d_v = d_{model} / h = 64$', 3, E(0, Fraction(512, 8), "d_model / h = 512 / 8")),
        S('q1', '$$q_1 = \\begin{bmatrix} 1.0 \\times 0.1', 28,
          *[E(25 + c, Q[0][c], "q_1[%d] = (X W_Q)[0][%d]" % (c, c)) for c in range(3)]),
        S('QK', '$$Q = \\begin{bmatrix} 0.37 & 0.61', 24,
          *[A(3 * i + c, Q[i][c], "Q[%d][%d] (%s) = %s" % (i, c, tok[i], nstr(Q[i][c]))) for i in range(4) for c in range(3)],
          *[A(12 + 3 * i + c, K[i][c], "K[%d][%d] (%s) = %s" % (i, c, tok[i], nstr(K[i][c]))) for i in range(4) for c in range(3)]),
        S('V', '$$V = \\begin{bmatrix} 0.58', 12,
          *[A(3 * i + c, V[i][c], "V[%d][%d] (%s) = %s" % (i, c, tok[i], nstr(V[i][c]))) for i in range(4) for c in range(3)]),
    ]
    for j in range(4):
        ents = []
        for c in range(3):
            ents.append(A(1 + 2 * c, Q[0][c], "q_1[%d] restated" % c, docval=Qp[0][c], cf='QK'))
            ents.append(A(2 + 2 * c, K[j][c], "k_%d[%d] restated (true %s)" % (j + 1, c, nstr(K[j][c])), docval=Kp[j][c], cf='QK'))
        prods_doc = [rnd(Qp[0][c] * Kp[j][c], 3) for c in range(3)]
        for c in range(3):
            ents.append(A(7 + c, Q[0][c] * K[j][c], "q_1[%d] * k_%d[%d] = %s" % (c, j + 1, c, nstr(Q[0][c] * K[j][c])),
                          docval=Qp[0][c] * Kp[j][c], cf='QK'))
        ents.append(A(10, Sm[0][j], "s_1%d = q_1 . k_%d = %s" % (j + 1, j + 1, nstr(Sm[0][j])), docval=[sum(prods_doc), sum(Qp[0][c] * Kp[j][c] for c in range(3))], cf='QK'))
        specs.append(S('s1%d' % (j + 1), '$$s_{1%d} = ' % (j + 1), 11, *ents))
    specs += [
        S('S', '$$S = \\begin{bmatrix} 0.888', 16,
          *[A(4 * i + j, Sm[i][j], "S[%d][%d] = q_%d . k_%d = %s" % (i, j, i + 1, j + 1, nstr(Sm[i][j])),
              docval=[sum(Qp[i][c] * Kp[j][c] for c in range(3)), sum(rnd(Qp[i][c] * Kp[j][c], 3) for c in range(3))], cf='QK')
            for i in range(4) for j in range(4)]),
        S('4x4', '因此 $S$ 是 $4 \\times 4$ 的', 2, E(0, 4, "rows of S (4 tokens)"), E(1, 4, "columns of S (4 tokens)")),
        S('r3', '\\approx 1.732$', 3, E(2, r3, "sqrt(3) = %s" % nstr(r3))),
        S('Ssc', '$$S_{scaled} = \\frac{S}{1.732}', 17, E(0, r3, "sqrt(3) restated"),
          *[A(1 + 4 * i + j, Sc[i][j], "S[%d][%d]/sqrt(3) = %s" % (i, j, nstr(Sc[i][j])),
              docval=Sp[i][j] / D('1.732'), cf='S') for i in range(4) for j in range(4)]),
    ]
    ex_true = [mpmath.exp(x) for x in Sc[0]]
    ex_doc = [mpmath.exp(M(x)) for x in Scp[0]]
    exp_p = [D('1.670'), D('1.443'), D('1.548'), D('1.516')]
    specs.append(S('ex', '分母 $= e^{0.513}', 9,
                   *[A(j, Sc[0][j], "scaled s_1%d restated = %s" % (j + 1, nstr(Sc[0][j])), docval=Scp[0][j], cf='Ssc') for j in range(4)],
                   *[A(4 + j, ex_true[j], "exp(s_1%d / sqrt 3) = %s" % (j + 1, nstr(ex_true[j])), docval=ex_doc[j], cf='Ssc') for j in range(4)],
                   A(8, sum(ex_true), "softmax denominator of row 1 = %s" % nstr(sum(ex_true)), docval=sum(exp_p), cf='ex')))
    for lab, anchor, js in (('al1', '$$\\alpha_{11} = ', (0, 1)), ('al2', '$$\\alpha_{13} = ', (2, 3))):
        ents = []
        for n, j in enumerate(js):
            ents += [A(4 * n + 1, ex_true[j], "exp(s_1%d) restated" % (j + 1), docval=exp_p[j], cf='ex'),
                     A(4 * n + 2, sum(ex_true), "denominator restated", docval=D('6.177'), cf='ex'),
                     A(4 * n + 3, Aw[0][j], "alpha_1%d = %s" % (j + 1, nstr(Aw[0][j])), docval=exp_p[j] / D('6.177'), cf='ex')]
        specs.append(S(lab, anchor, 8, *ents))
    specs += [
        S('chk', '验证：$0.270', 5, *[A(j, Aw[0][j], "alpha_1%d restated" % (j + 1), docval=Ap[0][j], cf='al1') for j in range(4)],
          E(4, 1, "sum of a softmax row = 1")),
    ]
    A_doc = [softmax([Scp[i][j] for j in range(4)]) for i in range(4)]
    specs.append(S('A', '$$A = \\begin{bmatrix} 0.270', 16,
                   *[A(4 * i + j, Aw[i][j], "A[%d][%d] = softmax row %d = %s" % (i, j, i + 1, nstr(Aw[i][j])),
                       docval=(Ap[0][j] if i == 0 else A_doc[i][j]), cf=('al1' if i == 0 else 'Ssc')) for i in range(4) for j in range(4)]))
    specs.append(S('one', '每一行都是一个和为 1 的概率分布', 2, E(0, 1, "row sum of A"),
                   A(1, Aw[0][0], "alpha_11 restated (the row's largest weight)", docval=Ap[0][0], cf='al1')))
    ents = []
    for j in range(4):
        ents.append(A(1 + 4 * j, Aw[0][j], "alpha_1%d restated" % (j + 1), docval=Ap[0][j], cf='al1'))
        for c in range(3):
            ents.append(A(2 + 4 * j + c, V[j][c], "V[%d][%d] restated (true %s)" % (j, c, nstr(V[j][c])), docval=Vp[j][c], cf='V'))
    specs.append(S('o1', '$$\\text{output}_1 = 0.270', 17, *ents))
    prods_doc = [[rnd(Ap[0][j] * Vp[j][c], 3) for c in range(3)] for j in range(4)]
    ents = []
    for j in range(4):
        for c in range(3):
            ents.append(A(3 * j + c, Aw[0][j] * Vm[j][c], "alpha_1%d * V[%d][%d] = %s" % (j + 1, j, c, nstr(Aw[0][j] * Vm[j][c])),
                          docval=Ap[0][j] * Vp[j][c], cf='al1'))
    for c in range(3):
        ents.append(A(12 + c, O[0][c], "output_1[%d] = %s" % (c, nstr(O[0][c])), docval=[sum(prods_doc[j][c] for j in range(4)), sum(Ap[0][j] * Vp[j][c] for j in range(4))], cf='al1'))
    specs.append(S('o1b', '$$= \\begin{bmatrix} 0.157', 15, *ents))
    specs.append(S('O', '$$\\text{Output} = \\begin{bmatrix} 0.464', 12,
                   *[A(3 * i + c, O[i][c], "Output[%d][%d] = %s" % (i, c, nstr(O[i][c])),
                       docval=[sum(Ap[i][j] * Vp[j][c] for j in range(4)), sum(rnd(Ap[i][j] * Vp[j][c], 3) for j in range(4))], cf='A')
                   for i in range(4) for c in range(3)]))
    sm1 = softmax([1, 2, 3])
    sm2 = softmax([10, 20, 30])
    specs += [
        S('var', '时点积的标准差为 8', 6, E(3, 8, "sqrt(64)"), E(5, mpmath.sqrt(512), "sqrt(512) = %s" % nstr(mpmath.sqrt(512)))),
        S('sm1', '$$\\text{softmax}([1, 2, 3])', 6, *[E(3 + j, sm1[j], "softmax([1,2,3])[%d] = %s" % (j, nstr(sm1[j]))) for j in range(3)]),
        S('sm2', '$$\\text{softmax}([10, 20, 30])', 6, *[E(3 + j, sm2[j], "softmax([10,20,30])[%d] = %s" % (j, nstr(sm2[j]))) for j in range(3)]),
        S('v1', '\\frac{d_k}{d_k} = 1$$', 2, E(1, 1, "Var(q.k/sqrt(d_k)) = d_k/d_k = 1")),
    ]
    meta = {
        "doc": name,
        "source": 'GitHub Markdown lesson 「Self-Attention：序列自我审视的核心引擎」 (front matter type lesson, series 「Transformer 深度学习」 part 2, created 2026-04-09; sibling parts stored as ids 56663465850 (part 3), 56573869044 (part 4), 56250747041 (part 5)); the search index did not expose the repository name (stored file id 56414249286, 15,338 characters). Kept: front matter (tags, dates, prerequisites and status dropped), the d_k = d_v = 64 sentence of 2.3, section 三 3.0-3.6 with every matrix, expansion and result verbatim, and from section 四 the two standard deviations, the two softmax examples and the variance line. Dropped: the two analogies, sections 一 and 二 (except the 64 sentence), the S = QK^T display of the two factor matrices and the A·V display of the restated factor matrices (their results are kept), the 4.2 bullets, sections 五-八 (additive vs dot-product table, PyTorch code, complexity table), misconceptions, questions and reading list; prose reworded and shortened',
        "source_kind": "study notes (GitHub Markdown lesson, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with LaTeX displays: bmatrix matrices written on one line with '&' and '\\\\' (Q, K, V, S, S_scaled, A, Output) next to a \\begin{matrix} column of Chinese token labels, expansions '$$s_{11} = 0.37 \\times 0.70 + 0.61 \\times 0.33 + 0.69 \\times 0.62 = 0.259 + 0.201 + 0.428 = 0.888$$', an inline denominator '分母 $= e^{0.513} + e^{0.367} + ... = 6.177$', fractions '\\frac{1.670}{6.177} = 0.270', a weighted sum of column vectors, 3-decimal rounding, '\\approx' and '≈'",
        "conventions": "Q = X W_Q, K = X W_K, V = X W_V from the given X and weights (exact decimals): Q = [[0.37,0.61,0.69],[0.41,0.29,0.59],[0.45,0.64,0.56],[0.45,0.48,0.61]], K = [[0.68,0.29,0.67],[0.34,0.51,0.39],[0.55,0.40,0.68],[0.48,0.37,0.62]], V = [[0.61,0.34,0.72],[0.29,0.52,0.56],[0.64,0.35,0.55],[0.48,0.40,0.67]]. Only q_1 (the worked row of Q) is right; the other nine Q entries and all twelve K and twelve V entries are wrong (slips). Everything after that is judged against the true chain: S = QK^T (row 1 [0.8908, 0.7060, 0.9167, 0.8311]), S/sqrt(3), row softmax A (row 1 [0.257733, 0.231650, 0.261616, 0.249001]) and Output = AV (row 1 [0.511350, 0.399253, 0.626011]). Kinds are assigned by the script: a number that follows from the document's own printed operands (exactly, or through its rounded partial products) is 'carried' from the line of the wrong operand, otherwise 'slip'; rows 2-4 of S, A and Output do not follow from the printed Q, K, scaled S or A (the printed rows 2-4 of A do not even sum to 1) and are slips, as is the scaled entry 0.302 (0.524/1.732 = 0.3025). Restated operands (q_1 and k_j entries in the s_1j expansions, α and V entries in the output_1 expansion, α_11 in the remark) are listed with the truth of the quantity they restate. Right: q_1, 64 = 512/8, √3 ≈ 1.732, the 4 × 4 shape, the check sum 1.000 and the row sum 1, 0.157 (0.2577 × 0.61 = 0.1572, right by coincidence), and section 四 (sqrt 64 = 8, sqrt 512 = 22.6, softmax([1,2,3]) = [0.09, 0.24, 0.67], softmax([10,20,30]) ≈ [0.00, 0.00, 1.00], variance 1). Not listed: X and the W matrices, the products inside the q_1 expansion (given inputs), subscripts such as s_{11} and α_{11}, section numbers, d_k = 3, d_model = 4, h = 8, d_model = 512 and the assumptions mean 0 / variance 1",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document Z2: Transformer 深度学习 part 4, sinusoidal positional encoding by hand
# ---------------------------------------------------------------------------
def doc_z2():
    name = "zh_transformer_series_sinusoidal_pe_handcalc.md"
    w1 = mpmath.power(10000, mpmath.mpf(1) / 256)
    fn = (sin, cos)

    def ang(p, i, d):
        """pos / 10000^(2i/d) for d = 8 (i -> 10^-i) and d = 4 (i -> 100^-i)"""
        return Fraction(p, (10 ** i) if d == 8 else (100 ** i))

    def pe_specs(p, d, lab_def, anchor_def, lab_vec, anchor_vec, bullets):
        out = []
        n = d  # entries
        ents = [E(1 + k, ang(p, k // 2, d), "angle pos/10000^(2i/%d) for pos %d, entry %d" % (d, p, k)) for k in range(n)]
        out.append(S(lab_def, anchor_def, 1 + n, *ents))
        for k, anchor in enumerate(bullets):
            t = fn[k % 2](ang(p, k // 2, d))
            out.append(S('%s_b%d' % (lab_vec, k), anchor, 2,
                         E(0, ang(p, k // 2, d), "angle restated"),
                         A(1, t, "%s(%s) = %s" % (('sin', 'cos')[k % 2], ang(p, k // 2, d), nstr(t, 10)))))
        ents = []
        for k in range(n):
            t = fn[k % 2](ang(p, k // 2, d))
            ents.append(A(1 + k, t, "PE_%d[%d] = %s(%s) = %s" % (p, k, ('sin', 'cos')[k % 2], ang(p, k // 2, d), nstr(t, 10))))
        out.append(S(lab_vec, anchor_vec, 1 + n, *ents))
        return out

    specs = [
        S('w0', '$$\\omega_0 = \\frac{1}{10000^0} = 1$$', 5, E(4, 1, "omega_0 = 1/10000^0")),
        S('w1', '\\approx \\frac{1}{1.018}', 8,
          A(6, w1, "10000^(1/256) = e^(ln 10000 / 256) = %s" % nstr(w1)),
          A(7, 1 / w1, "omega_1 = 10000^(-2/512) = %s" % nstr(1 / w1), docval=Fraction(1000, 1018), cf='w1')),
        S('w1r', '从 1 一路递减到', 3, E(0, 1, "omega_0 restated (largest frequency)")),
        S('pairs8', '共 4 个频率对', 7, E(6, 4, "d_model / 2 = 8 / 2 frequency pairs")),
        S('w8', '$$\\omega_0 = 1, \\quad', 26, E(1, 1, "omega_0 = 1"),
          E(8, 10, "10000^(1/4) = 10"), E(9, Fraction(1, 10), "omega_1 = 1/10"),
          E(16, 100, "10000^(2/4) = 100"), E(17, Fraction(1, 100), "omega_2 = 1/100"),
          E(24, 1000, "10000^(3/4) = 1000"), E(25, Fraction(1, 1000), "omega_3 = 1/1000")),
        S('pe0', '$$PE_0 = [', 17, *[E(1 + k, 0, "angle 0 * omega_%d" % (k // 2)) for k in range(8)],
          *[E(9 + k, (0, 1)[k % 2], "PE_0[%d] = %s(0)" % (k, ('sin', 'cos')[k % 2])) for k in range(8)]),
    ]
    b1 = ['- $\\sin(1) \\approx', '- $\\cos(1) \\approx', '- $\\sin(0.1) \\approx', '- $\\cos(0.1) \\approx',
          '- $\\sin(0.01) \\approx', '- $\\cos(0.01) \\approx', '- $\\sin(0.001) \\approx', '- $\\cos(0.001) \\approx']
    b2 = ['- $\\sin(2) \\approx', '- $\\cos(2) \\approx', '- $\\sin(0.2) \\approx', '- $\\cos(0.2) \\approx',
          '- $\\sin(0.02) \\approx', '- $\\cos(0.02) \\approx', '- $\\sin(0.002) \\approx', '- $\\cos(0.002) \\approx']
    specs += pe_specs(1, 8, 'pe1d', '$$PE_1 = [', 'pe1', '$$PE_1 \\approx [', b1)
    specs += pe_specs(2, 8, 'pe2d', '$$PE_2 = [', 'pe2', '$$PE_2 \\approx [', b2)
    for i, (lab, anchor) in enumerate((('t0', '| 0 | 1.0000 |'), ('t1', '| 1 | 0.1000 |'), ('t2', '| 2 | 0.0100 |'), ('t3', '| 3 | 0.0010 |'))):
        om = Fraction(1, 10 ** i)
        per = 2 * mpmath.pi / M(om)
        specs.append(S(lab, anchor, 4 if i == 0 else 5, E(1, om, "omega_%d = 10^-%d" % (i, i)),
                       E(2, 2 * 10 ** i, "period 2*pi/omega_%d written as a multiple of pi" % i),
                       E(3, per, "period 2*pi/omega_%d = %s" % (i, nstr(per)), unit=(10 if i == 3 else None))))
    specs += [
        S('ext', '$\\omega_3 = 0.001$', 7, E(4, Fraction(1, 1000), "omega_3 restated"), E(6, Fraction(1200, 1000), "0.001 * 1200")),
        S('pairs4', '（2个频率对）', 4, E(3, 2, "d / 2 = 4 / 2 frequency pairs")),
        S('w4', '$\\omega_0 = 1/10000^0 = 1$', 13, E(4, 1, "omega_0 = 1"), E(11, 100, "10000^(1/2) = 100"),
          E(12, Fraction(1, 100), "omega_1 = 1/100")),
        S('q0', '$PE_0 = [\\sin(0), \\cos(0), \\sin(0), \\cos(0)] = [0, 1, 0, 1]$', 9,
          *[E(1 + k, 0, "angle 0") for k in range(4)], *[E(5 + k, (0, 1)[k % 2], "PE_0[%d] (d = 4)" % k) for k in range(4)]),
    ]
    for p in (1, 2):
        ents = [E(1 + k, ang(p, k // 2, 4), "angle for pos %d, entry %d (d = 4)" % (p, k)) for k in range(4)]
        ents += [A(5 + k, fn[k % 2](ang(p, k // 2, 4)), "PE_%d[%d] (d = 4) = %s" % (p, k, nstr(fn[k % 2](ang(p, k // 2, 4)))))
                 for k in range(4)]
        specs.append(S('q%d' % p, '$PE_%d = [\\sin(%d)' % (p, p), 9, *ents))
    for p, lab in ((1, 'd1'), (2, 'd2')):
        pe = [fn[k % 2](ang(p, k // 2, 4)) for k in range(4)]
        dot = cos(0) * pe[1] + cos(0) * pe[3]
        ents = []
        for k in range(4):
            ents.append(E(2 + 2 * k, (0, 1)[k % 2], "PE_0[%d] restated" % k))
            ents.append(A(3 + 2 * k, pe[k], "PE_%d[%d] restated" % (p, k)))
        ents.append(A(10, dot, "PE_0 . PE_%d = cos(%s) + cos(%s) = %s" % (p, p, ang(p, 1, 4), nstr(dot))))
        specs.append(S(lab, '$PE_0 \\cdot PE_%d \\approx' % p, 11, *ents))
    meta = {
        "doc": name,
        "source": 'GitHub Markdown lesson 「位置编码：让 Attention 知道"在哪里"」 (front matter type lesson, series 「Transformer 深度学习」 part 4, created 2026-04-09; same series as this round\'s zh_transformer_series_self_attention_full_handcalc, so the two documents count as one source); the search index did not expose the repository name (stored file id 56573869044, 15,203 characters). Kept: the PE formulas of 2.3, section 3.1 (ω_0, ω_1 and the d_model = 512 example), section 3.3 (d_model = 8, positions 0-2, every bullet and vector verbatim), the 3.4 table, the ω_3·pos = 1.2 sentence of 4.3 and the reference answer of 思考题 Q3; prose reworded and shortened. Dropped: analogies, section 一 (permutation equivariance), 2.1-2.2, 3.2, the rest of 4.1-4.3 (rotation derivation), sections 五-八 (learned PE, RoPE/ALiBi, PyTorch code), misconceptions, Q1-Q2, summary and reading list',
        "source_kind": "study notes (GitHub Markdown lesson, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "LaTeX displays for ω_i ('$$\\omega_1 = \\frac{1}{10000^{1/256}} \\approx \\frac{1}{1.018} \\approx 0.982$$') and PE vectors ('$$PE_1 \\approx [0.8415, 0.5403, ...]$$'), bullet lists '- $\\sin(1) \\approx 0.8415$' with 4 decimals, a Markdown table with periods '$20\\pi \\approx 62.8$', inline Q3 answer lines with dot products written with '\\times'",
        "conventions": "PE(pos, 2i) = sin(pos/10000^(2i/d)), PE(pos, 2i+1) = cos(pos/10000^(2i/d)). With d_model = 512, ω_1 = 10000^(-2/512) = 10000^(-1/256) = 1/1.036633 = 0.964662: the printed 1.018 is a slip and 0.982 = 1/1.018 is carried. With d_model = 8, ω_i = 10^-i exactly; the listed angles pos·ω_i, the sin/cos values to 4 places, the ω column and the periods 2π/ω_i = 2π, 20π, 200π, 2000π (6.28, 62.8, 628, 6280; the last compared at 3 significant figures, unit 10, as the column's pattern shows) are right, except cos(0.01) = 0.99995000004 and cos(0.002) = 0.999998, whose printed 0.9999 (in the bullet and again in the vector) are truncations of 1.0000: wrong, kind rounding (for cos(0.01) the excess over half a unit is only 4e-11). Q3 (d = 4, ω_1 = 1/100): PE_1 ≈ [0.84, 0.54, 0.01, 1.00], PE_2 ≈ [0.91, -0.42, 0.02, 1.00], PE_0·PE_1 = cos 1 + cos 0.01 = 1.540252 → 1.54 and PE_0·PE_2 = cos 2 + cos 0.02 = 0.583653 → 0.58, all right; the restated PE entries in the dot-product lines are listed. 0.001 × 1200 = 1.2 and the 4 and 2 frequency pairs are right. Not listed: the exponent fractions written in 10000^{1/256}, 10000^{1/4}, 10000^{2/4}, 10000^{3/4}, 10000^{1/2} and the numerators '1' of 1/10, 1/100, 1/1000 (they restate the formula), the index lists i = 0, 1, 2, 3 and 维度 0-1 / 6-7, the 'N 个 token 内' ranges in the table, the positions 0/1000/1200, 2017, section numbers",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document Z3: Week 7 attention course, Prompt A/B numbers
# ---------------------------------------------------------------------------
def doc_z3():
    name = "zh_week07_attention_prompt_ab_handcalc.md"
    r2 = R2
    kA0 = Fraction(8, 10) * r2          # k_我 = [0.8 sqrt2, 0]
    kL = Fraction(2, 10) * r2           # k_喜欢 = [0.2 sqrt2, 0.2 sqrt2]
    kC = Fraction(1, 10) * r2           # k_猫 = [0, 0.1 sqrt2]
    sA = [Fraction(8, 10), Fraction(4, 10)]   # final row of Prompt A divided by sqrt 2 (exact)
    sB = [Fraction(1, 10), Fraction(4, 10)]
    wA, wB = softmax(sA), softmax(sB)
    eA = [mexp(x) for x in sA]
    eB = [mexp(x) for x in sB]
    hA = wA
    hB = [-wB[0], wB[1]]
    Wv = [[0, 1, 2, -1, 0], [0, 0, 0, 1, 0]]

    def logits(h):
        return [h[0] * Wv[0][j] + h[1] * Wv[1][j] for j in range(5)]

    lA, lB = logits(hA), logits(hB)
    pA, pB = softmax(lA)[2], softmax(lB)[0]
    LA, LB = -mpmath.log(pA), -mpmath.log(pB)

    def mean_loss(q):
        a = softmax([Fraction(8, 10) * q, Fraction(2, 10) * q + Fraction(2, 10)])
        b = softmax([mpmath.mpf(1) / 10, Fraction(2, 10) * q + Fraction(2, 10)])
        la = logits(a)
        lb = logits([-b[0], b[1]])
        return (-mpmath.log(softmax(la)[2]) - mpmath.log(softmax(lb)[0])) / 2

    g = mpmath.diff(mean_loss, 1)
    qn = 1 - Fraction(1, 100) * g
    specs = [
        S('u0', '读取比例固定为 [0.5,0.5]', 3, E(1, Fraction(1, 2), "uniform weight over 2 visible positions"),
          E(2, Fraction(1, 2), "uniform weight")),
        S('uA', '$$\\bar{x}_{A,1}=', 14, *[E(10 + k, [Fraction(1, 2), Fraction(1, 2), 0, 0][k], "mean of x_我 and x_喜欢, entry %d" % k) for k in range(4)]),
        S('uB', '$$\\bar{x}_{B,1}=', 14, *[E(10 + k, [0, Fraction(1, 2), Fraction(1, 2), 0][k], "mean of x_猫 and x_喜欢, entry %d" % k) for k in range(4)]),
        S('tu', '| Causal Uniform Mean |', 2, E(0, Fraction(1, 2), "uniform weight"), E(1, Fraction(1, 2), "uniform weight")),
        S('tA', '| Prompt A 的教学 Attention Head |', 2, E(0, wA[0], "Prompt A final-row weight on 我 = %s" % nstr(wA[0])), E(1, wA[1], "Prompt A weight on 喜欢")),
        S('tB', '| Prompt B 的教学 Attention Head |', 2, E(0, wB[0], "Prompt B final-row weight on 猫 = %s" % nstr(wB[0])), E(1, wB[1], "Prompt B weight on 喜欢")),
        S('xl', 'x_喜欢=[0,1,0,0]', 14, E(4, 1, "q_喜欢 = second row of W_Q"), E(5, 1, "q_喜欢[1]"),
          E(10, kL, "0.2 sqrt 2 = %s" % nstr(kL)), E(11, kL, "0.2 sqrt 2"), E(12, 0, "v_喜欢[0]"), E(13, 1, "v_喜欢[1]")),
        S('QKA', '$$Q_A=', 12, E(0, Fraction(1, 2), "q_我 = W_Q row 1"), E(1, Fraction(1, 2), "q_我[1]"), E(2, 1, "q_喜欢[0]"), E(3, 1, "q_喜欢[1]"),
          E(4, kA0, "0.8 sqrt 2 = %s" % nstr(kA0)), E(5, 0, "k_我[1]"), E(6, kL, "0.2 sqrt 2"), E(7, kL, "0.2 sqrt 2"),
          E(8, 1, "v_我[0]"), E(9, 0, "v_我[1]"), E(10, 0, "v_喜欢[0]"), E(11, 1, "v_喜欢[1]")),
        S('QKB', '$$Q_B=', 12, E(1, Fraction(1, 2), "q_猫[1]"), E(2, 1, "q_喜欢[0]"), E(3, 1, "q_喜欢[1]"),
          E(4, 0, "k_猫[0]"), E(5, kC, "0.1 sqrt 2 = %s" % nstr(kC)), E(6, kL, "0.2 sqrt 2"), E(7, kL, "0.2 sqrt 2"),
          E(9, 0, "v_猫[1]"), E(10, 0, "v_喜欢[0]"), E(11, 1, "v_喜欢[1]")),
    ]
    specs += [
        S('dA', '最终"喜欢"的 Query 是 [1,1]', 12, E(0, 1, "q_喜欢[0]"), E(1, 1, "q_喜欢[1]"), E(3, kA0, "k_我[0] restated"),
          E(5, 0, "k_我[1] restated"), E(6, kA0, "q_喜欢 . k_我 = 0.8 sqrt 2"), E(8, kL, "k_喜欢[0] restated"), E(10, kL, "k_喜欢[1] restated"),
          E(11, 2 * kL, "q_喜欢 . k_喜欢 = 0.4 sqrt 2 = %s" % nstr(2 * kL))),
        S('dB', '在 Prompt B 中，与"猫"的 Key', 6, E(1, 0, "k_猫[0] restated"), E(3, kC, "k_猫[1] restated"), E(4, kC, "q_喜欢 . k_猫 = 0.1 sqrt 2"),
          E(5, 2 * kL, "q_喜欢 . k_喜欢 restated")),
        S('S', '$$S_A=Q_AK_A^\\top=', 8, E(0, Fraction(1, 2) * kA0, "q_我 . k_我 = 0.4 sqrt 2 = %s" % nstr(Fraction(1, 2) * kA0)),
          E(1, kL, "q_我 . k_喜欢 = 0.2 sqrt 2"), E(2, kA0, "q_喜欢 . k_我"), E(3, 2 * kL, "q_喜欢 . k_喜欢"),
          E(4, Fraction(1, 2) * kC, "q_猫 . k_猫 = 0.05 sqrt 2 = %s" % nstr(Fraction(1, 2) * kC)), E(5, 0, "q_猫 . k_喜欢 = -0.1 sqrt 2 + 0.1 sqrt 2"),
          E(6, kC, "q_喜欢 . k_猫"), E(7, 2 * kL, "q_喜欢 . k_喜欢")),
        S('sc', '本例 d_k=2，Prompt A 从', 9, E(1, kA0, "raw score restated"), E(2, 2 * kL, "raw score restated"),
          E(3, sA[0], "0.8 sqrt 2 / sqrt 2"), E(4, sA[1], "0.4 sqrt 2 / sqrt 2"), E(5, kC, "raw score restated"), E(6, 2 * kL, "raw score restated"),
          E(7, sB[0], "0.1 sqrt 2 / sqrt 2"), E(8, sB[1], "0.4 sqrt 2 / sqrt 2")),
        S('A_s', 'scaled scores = [0.8, 0.4]', 2, E(0, sA[0], "scaled score restated"), E(1, sA[1], "scaled score restated")),
        S('A_e', 'exp values    = [2.226, 1.492]', 2, E(0, eA[0], "exp(0.8) = %s" % nstr(eA[0])), E(1, eA[1], "exp(0.4) = %s" % nstr(eA[1]))),
        S('A_sum', 'sum           = 3.718', 1, A(0, sum(eA), "exp(0.8) + exp(0.4) = %s" % nstr(sum(eA)), docval=D('2.226') + D('1.492'))),
        S('A_w', 'weights       = [0.599, 0.401]', 2, E(0, wA[0], "softmax([0.8, 0.4])[0] = %s" % nstr(wA[0])), E(1, wA[1], "softmax([0.8, 0.4])[1] = %s" % nstr(wA[1]))),
        S('B_s', 'scaled scores = [0.1, 0.4]', 2, E(0, sB[0], "scaled score restated"), E(1, sB[1], "scaled score restated")),
        S('B_e', 'exp values    = [1.105, 1.492]', 2, E(0, eB[0], "exp(0.1) = %s" % nstr(eB[0])), E(1, eB[1], "exp(0.4)")),
        S('B_sum', 'sum           = 2.597', 1, E(0, sum(eB), "exp(0.1) + exp(0.4) = %s" % nstr(sum(eB)))),
        S('B_w', 'weights       = [0.426, 0.574]', 2, E(0, wB[0], "softmax([0.1, 0.4])[0] = %s" % nstr(wB[0])), E(1, wB[1], "softmax([0.1, 0.4])[1] = %s" % nstr(wB[1]))),
        S('oAw', 'weights = [0.599, 0.401]', 2, E(0, wA[0], "weight restated"), E(1, wA[1], "weight restated")),
        S('oA1', 'o_A = 0.599 * [1,0] + 0.401 * [0,1]', 6, E(0, wA[0], "weight restated"), E(3, wA[1], "weight restated")),
        S('oA2', '    = [0.599, 0.401]', 2, E(0, hA[0], "o_A[0] = w_我"), E(1, hA[1], "o_A[1] = w_喜欢")),
        S('oBw', 'weights = [0.426, 0.574]', 2, E(0, wB[0], "weight restated"), E(1, wB[1], "weight restated")),
        S('oB1', 'o_B = 0.426 * [-1,0] + 0.574 * [0,1]', 6, E(0, wB[0], "weight restated"), E(3, wB[1], "weight restated")),
        S('oB2', '    = [-0.426, 0.574]', 2, E(0, hB[0], "o_B[0] = -w_猫"), E(1, hB[1], "o_B[1] = w_喜欢")),
        S('r8A', 'raw scores       = [1.131, 0.566]', 2, E(0, kA0, "raw score restated"), E(1, 2 * kL, "raw score restated")),
        S('r8s', 'sqrt(d_k)        = sqrt(2) ≈ 1.414', 2, E(1, r2, "sqrt 2 = %s" % nstr(r2))),
        S('r8As', 'scaled scores    = [0.800, 0.400]', 2, E(0, sA[0], "0.8 sqrt2 / sqrt2"), E(1, sA[1], "0.4 sqrt2 / sqrt2")),
        S('r8B', 'raw scores       = [0.141, 0.566]', 2, E(0, kC, "raw score restated"), E(1, 2 * kL, "raw score restated")),
        S('r8Bs', 'scaled scores    = [0.100, 0.400]', 2, E(0, sB[0], "0.1 sqrt2 / sqrt2"), E(1, sB[1], "0.4 sqrt2 / sqrt2")),
        S('m0', '| 错误：Future 改为 0 |', 5, E(3, softmax([Fraction(2, 10), 0])[0], "softmax([0.2, 0])[0] = %s" % nstr(softmax([Fraction(2, 10), 0])[0])),
          E(4, softmax([Fraction(2, 10), 0])[1], "softmax([0.2, 0])[1]")),
        S('mi', '| 正确：Future 改为 −∞ |', 3, E(1, 1, "softmax([0.2, -inf])[0]"), E(2, 0, "softmax([0.2, -inf])[1] (e^-inf = 0)")),
        S('Sh', '$$\\widehat{S}_A=', 6, E(0, Fraction(4, 10), "0.4 sqrt2 / sqrt2"), E(1, sA[0], "scaled score"), E(2, sA[1], "scaled score"),
          E(3, Fraction(5, 100), "0.05 sqrt2 / sqrt2"), E(4, sB[0], "scaled score"), E(5, sB[1], "scaled score")),
        S('P', '$$P_A=', 8, E(0, 1, "row 0 of P_A (only itself visible)"), E(1, 0, "masked weight"), E(2, wA[0], "P_A[1][0]"), E(3, wA[1], "P_A[1][1]"),
          E(4, 1, "row 0 of P_B"), E(5, 0, "masked weight"), E(6, wB[0], "P_B[1][0]"), E(7, wB[1], "P_B[1][1]")),
        S('eA', 'Prompt A weights: [0.5987, 0.4013]', 2, E(0, wA[0], "weight to 4 places"), E(1, wA[1], "weight to 4 places")),
        S('eB', 'Prompt B weights: [0.4256, 0.5744]', 2, E(0, wB[0], "weight to 4 places"), E(1, wB[1], "weight to 4 places")),
        S('eoA', 'Prompt A output:  [ 0.5987, 0.4013]', 2, E(0, hA[0], "o_A[0]"), E(1, hA[1], "o_A[1]")),
        S('eoB', 'Prompt B output:  [-0.4256, 0.5744]', 2, E(0, hB[0], "o_B[0]"), E(1, hB[1], "o_B[1]")),
        S('h', 'A 的末位置输出 h=[0.598688', 4, E(0, hA[0], "h_A[0] = %s" % nstr(hA[0], 10)), E(1, hA[1], "h_A[1] = %s" % nstr(hA[1], 10)),
          E(2, hB[0], "h_B[0] = %s" % nstr(hB[0], 10)), E(3, hB[1], "h_B[1] = %s" % nstr(hB[1], 10))),
        S('LA', '| 我 喜欢 | [0,', 7, *[E(k, lA[k], "logit_A[%d] = %s" % (k, nstr(lA[k], 10))) for k in range(5)],
          E(5, pA, "p(AI) = softmax(logits_A)[2] = %s" % nstr(pA, 10)), E(6, LA, "-ln p(AI) = %s" % nstr(LA, 10))),
        S('LB', '| 猫 喜欢 | [0,', 7, *[E(k, lB[k], "logit_B[%d] = %s" % (k, nstr(lB[k], 10))) for k in range(5)],
          E(5, pB, "p(我) = softmax(logits_B)[0] = %s" % nstr(pB, 10)), E(6, LB, "-ln p(我) = %s" % nstr(LB, 10))),
        S('Lm', '两题平均损失约 1.316836', 4, E(0, (LA + LB) / 2, "mean loss = %s" % nstr((LA + LB) / 2, 10))),
        S('qA', 'A 的末行 scaled scores：[0.8q, 0.2q+0.2]', 3, E(0, Fraction(8, 10), "q * 0.8 sqrt2 / sqrt2"),
          E(1, Fraction(2, 10), "q * 0.2 sqrt2 / sqrt2"), E(2, Fraction(2, 10), "1 * 0.2 sqrt2 / sqrt2")),
        S('qB', 'B 的末行 scaled scores：[0.1, 0.2q+0.2]', 3, E(0, Fraction(1, 10), "0.1 sqrt2 / sqrt2 (does not depend on q)"),
          E(1, Fraction(2, 10), "q coefficient"), E(2, Fraction(2, 10), "constant term")),
        S('g', 'd(mean loss)/dq≈', 3, E(0, g, "d(mean loss)/dq at q = 1 = %s" % nstr(g, 10)), E(2, qn, "1 - 0.01 * gradient = %s" % nstr(qn, 10))),
        S('c2', '| T=2 | 2 × 2 × 2² = 16 | 1 倍 |', 6, E(4, 2 * 2 * 4, "2 x 2 x 2^2"), E(5, 1, "16 / 16")),
        S('c1000', '| T=1000 | 2 × 2 × 1000² = 4,000,000 | 250,000 倍 |', 6, E(4, 4 * 10 ** 6, "2 x 2 x 1000^2"), E(5, 250000, "4,000,000 / 16")),
        S('c4', '(2T)²=4T²', 2, E(1, 4, "(2T)^2 = 4 T^2")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub TypeScript course content file exporting `week07Revision: CuratedWeekRevision` (weekSlug 'week-07', title 'Week 7 - Attention：让当前位置按需读取左侧上下文', sections o0255-o0284 built with helper functions paragraph/formula/code/table/chain/callout/section); the search index did not expose the repository name (stored file id 66064121060, 41,383 characters). Transcribed as Markdown: String.raw LaTeX as $$ displays, code values as fenced text blocks, tables as Markdown tables, section numbers as in the source. Kept: the week goal (condensed), 1 (X_A/X_B, the uniform means and the comparison table), 4 (W matrices, Q/K/V, the dot products, S_A/S_B), 5 (scaling sentence and the softmax block), 6 (value block), 8 (scaling block), 11 (mask table, masked scores, P_A/P_B), 12 (the PyTorch script summarised in one sentence with its print options; the expected rows verbatim), 16 (the single-head logit experiment: h, W_vocab, the logits/probability/loss table, mean loss, gradient and update) and the 17 cost table with its closing remark; all numbers verbatim, prose reworded. Dropped: objectives, concept chains, sections 2, 3, 7, 9, 10, 13-15, 18, 19, every pitfall list and knowledge check, the 'Attention 不是什么' list",
        "source_kind": "course content file (GitHub TypeScript, Chinese lesson text)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "LaTeX bmatrix displays with '\\sqrt2' entries ('0.8\\sqrt2'), inline arrays '[0.599, 0.401]' and 'k_喜欢=[0.2√2,0.2√2]≈[0.283,0.283]', fenced text blocks ('exp values    = [2.226, 1.492]', 'sum           = 3.718', 'o_B = 0.426 * [-1,0] + 0.574 * [0,1]'), −∞ in masked scores, a table with 6-decimal logits written with U+2212 minus signs and '≈' results ('p(AI)≈0.416424；L≈0.876051'), '2 × 2 × 1000² = 4,000,000' with superscripts and thousands separators",
        "conventions": "Teaching parameters as given: W_K holds multiples of √2, so k_我 = [0.8√2, 0], k_喜欢 = [0.2√2, 0.2√2], k_猫 = [0, 0.1√2]; every raw score is a multiple of √2 and every scaled score (÷√2, d_k = 2) an exact decimal (0.8, 0.4, 0.1, 0.05). exp(0.8) = 2.225541, exp(0.4) = 1.491825, exp(0.1) = 1.105171; softmax rows [0.598688, 0.401312] and [0.425557, 0.574443]. The only wrong number is 'sum = 3.718': e^0.8 + e^0.4 = 3.717366 → 3.717; 3.718 is the sum of the rounded 2.226 + 1.492 (kind rounding-carried). The logit experiment uses W_vocab = [[0,1,2,-1,0],[0,0,0,1,0]] on the head outputs h_A, h_B; the target columns are those the stated probabilities select (AI = column 2, logit 1.197375; 我 = a column with logit 0): p(AI) = 0.416424, L = 0.876051, p(我) = 0.172455, L = 1.757621, mean 1.316836; the derivative of the mean loss with respect to q = Wq[1,0] (final scaled rows [0.8q, 0.2q+0.2] and [0.1, 0.2q+0.2]) at q = 1 is -0.0761588 (mpmath numerical differentiation) and q_new = 1 + 0.01 × 0.0761588 = 1.000762: all right. The rows of Q_A, Q_B, K_A, K_B, V_A, V_B (rows of the W matrices picked by one-hot inputs) are listed; two entries written with a minus straight after a LaTeX brace ('{bmatrix}-0.5' and the '-1' of V_B) are not, because the tokenizer used here does not take that minus as a sign. Not listed: X_A, X_B, W_Q, W_K, W_V, W_vocab, the hypothetical row [0.2, 0.9], d_k = 2, B, T, C, n_head, the learning rate 0.01, q = 1, precision=4, the index in Wq[1,0], section numbers",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document Z4: SFT <tool_call> analysis, loss / perplexity table
# ---------------------------------------------------------------------------
def doc_z4():
    name = "zh_sft_tool_call_loss_perplexity_table.md"
    ln150k = mlog(150000)
    specs = [
        S('ext1', '| 完全不懂 | 1/150000 |', 5, E(2, ln150k, "-ln(1/150000) = %s" % nstr(ln150k)),
          E(3, 150000, "e^(ln 150000) = 1 / p"), E(4, 15, "150000 = 15 万")),
        S('ext2', '| 完全确定 | 1.0 |', 4, E(1, 0, "-ln(1.0)"), E(2, 1, "e^0"), E(3, 1, "perplexity 1 = one choice")),
        S('p04', '- perplexity = e^0.4', 2, E(1, mexp(Fraction(4, 10)), "e^0.4 = %s" % nstr(mexp(Fraction(4, 10))))),
        S('p04b', '个等概率候选 token', 1, E(0, mexp(Fraction(4, 10)), "e^0.4 restated")),
    ]
    for lab, loss, n in (('r1', '0.1', 3), ('r2', '**0.4**', 5), ('r3', '0.7', 3), ('r4', '1.0', 3), ('r5', '2.0', 3)):
        L = D(loss.strip('*'))
        specs.append(S(lab, '| %s | ' % loss, n, E(1, 100 * mexp(-L), "e^-%s in percent = %s" % (loss.strip('*'), nstr(100 * mexp(-L)))),
                       E(2, mexp(L), "e^%s = %s" % (loss.strip('*'), nstr(mexp(L))))))
    before = (296 * D('0.4') + 4 * D('5.0')) / 300
    after = (296 * D('0.4') + 4 * D('0.1')) / 300
    specs += [
        S('b', '修复前：(296', 6, E(0, 300 - 4, "300 - 4 ordinary tokens"), E(5, before, "(296*0.4 + 4*5.0)/300 = %s" % nstr(before))),
        S('a', '修复后：(296', 6, E(0, 300 - 4, "300 - 4 ordinary tokens"), E(5, after, "(296*0.4 + 4*0.1)/300 = %s" % nstr(after))),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown debugging note 「SFT 模型不生成 `<tool_call>` 标签问题分析」 (SFT of Qwen2.5-Coder-7B-Instruct with verl, LoRA on q_proj/k_proj/v_proj/o_proj; it ends with a section on GRPO's HermesToolParser); the search index did not expose the repository name (stored file id 53307897537, 5,853 characters). Kept: the problem statement and root cause condensed into one paragraph, the training-metrics table, the whole loss-and-perplexity section (both tables and the loss = 0.4 bullets), the fix prediction with its two estimate lines; prose reworded. Dropped: the model outputs, investigation steps 1-5 with token dumps, the YAML fix, the GRPO section",
        "source_kind": "debugging notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Markdown tables with losses, percentages ('90%') and 1-decimal perplexities, a row of bold cells ('**0.4** | **67%** | **1.5**'), '1/150000', inline 'perplexity = e^0.4 ≈ **1.5**', a fenced block '修复前：(296 × 0.4 + 4 × 5.0) / 300 ≈ 0.46', Chinese '15 万'",
        "conventions": "perplexity = e^loss with natural logarithms: -ln(1/150000) = 11.918 → 11.9, e^11.918 = 150000 (15 万); e^0.4 = 1.4918 → 1.5; in the reference table p = e^-loss as a percentage (90.5, 67.0, 49.7, 36.8, 13.5 → 90, 67, 50, 37, 14) and e^loss (1.105, 1.492, 2.014, 2.718, 7.389 → 1.1, 1.5, 2.0, 2.7, 7.4) are right; (296 × 0.4 + 4 × 5.0)/300 = 0.4613 → 0.46 and (296 × 0.4 + 4 × 0.1)/300 = 0.396 → 0.40 are right, 296 = 300 - 4. No number is wrong. Not listed: the measured losses of the epoch table and val_loss 0.433, epoch numbers, pass@1 0%, the given per-token losses 0.4 / 5.0 / 0.1 and token counts 300 and 4, the predicted range 0.38~0.42, the '1~2' range, and the mnemonic '1 = 毫不犹豫，2 = 抛硬币，10 = 掷骰子' (an analogy, not a computation; a fair die would have perplexity 6)",
    }
    return meta, specs


DOCS = [doc_z1, doc_z2, doc_z3, doc_z4]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
