"""Independent true values for the English (en_) first-contact documents of round 15.

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

    python _truth_en.py --write      # (re)write the en_*.expect.json files
    python _truth_en.py --check      # recompute and compare with the files (default)
    python _truth_en.py --uncovered  # review aid: numeric tokens not listed
    python _truth_en.py --tokens DOC # review aid: numeric tokens of DOC with their indices
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



# ---------------------------------------------------------------------------
# Document E1: "She loves cats" attention math walkthrough
# ---------------------------------------------------------------------------
def doc_e1():
    name = "en_she_loves_cats_attention_math_walkthrough.md"
    r3 = mpmath.sqrt(3)
    sc = [1 / r3, 1 / r3, 2 / r3]
    ex = [mpmath.exp(x) for x in sc]
    w = [x / sum(ex) for x in ex]
    V = [[1, 2, 0], [0, 1, 1], [2, 0, 1]]
    ctx = [sum(w[j] * V[j][c] for j in range(3)) for c in range(3)]
    d179, d316 = mpmath.exp(D('0.58')), mpmath.exp(D('1.15'))
    wd = [D('1.79') / D('6.74'), D('1.79') / D('6.74'), D('3.16') / D('6.74')]
    specs = [
        S('s1', 'score(She, She)   =', 13, E(12, 1, "Q_She . K_She")),
        S('s2', 'score(She, loves) =', 13, E(12, 1, "Q_She . K_loves")),
        S('s3', 'score(She, cats)  =', 13, E(12, 2, "Q_She . K_cats")),
        S('r3', 'd_k = 3 (the key dimension). √3 ≈ 1.73.', 3, E(2, r3, "sqrt(3) = %s" % nstr(r3))),
        S('sc', 'scaled scores = [1/1.73', 9, E(0, 1, "score restated"), E(1, r3, "sqrt 3 restated"), E(2, 1, "score restated"),
          E(3, r3, "sqrt 3 restated"), E(4, 2, "score restated"), E(5, r3, "sqrt 3 restated"),
          *[E(6 + j, sc[j], "score/sqrt(3) = %s" % nstr(sc[j])) for j in range(3)]),
        S('sm', 'softmax([0.58, 0.58, 1.15])', 3, *[E(j, sc[j], "scaled score restated") for j in range(3)]),
        S('e1', 'exp(0.58) ≈ 1.79', 2, E(0, sc[0], "scaled score restated"),
          A(1, ex[0], "exp(1/sqrt 3) = %s" % nstr(ex[0]), docval=d179)),
        S('e2', 'exp(0.58) ≈ 1.79', 2, E(0, sc[1], "scaled score restated"),
          A(1, ex[1], "exp(1/sqrt 3) = %s" % nstr(ex[1]), docval=d179)),
        S('e3', 'exp(1.15) ≈ 3.16', 2, E(0, sc[2], "scaled score restated"),
          A(1, ex[2], "exp(2/sqrt 3) = %s" % nstr(ex[2]), docval=d316)),
        S('sum', 'sum = 1.79 + 1.79 + 3.16 = 6.74', 4, A(0, ex[0], "exp restated", docval=D('1.79'), cf='e1'),
          A(1, ex[1], "exp restated", docval=D('1.79'), cf='e2'), A(2, ex[2], "exp restated", docval=D('3.16'), cf='e3'),
          A(3, sum(ex), "sum of exponentials = %s" % nstr(sum(ex)), docval=D('6.74'), cf='e1')),
        S('wq', 'attention weights = [1.79/6.74', 6, *[x for j in range(3) for x in (
            A(2 * j, ex[j], "exp restated", docval=(D('1.79'), D('1.79'), D('3.16'))[j], cf=('e1', 'e2', 'e3')[j]),
            A(2 * j + 1, sum(ex), "sum restated", docval=D('6.74'), cf='e1'))]),
        S('w', '                  = [0.27, 0.27, 0.47]', 3, *[A(j, w[j], "softmax weight %d = %s" % (j, nstr(w[j])), docval=wd[j], cf='e1') for j in range(3)]),
        S('t1', '| She (herself) | 0.27 |', 1, A(0, w[0], "weight restated", docval=wd[0], cf='e1')),
        S('t2', '| loves | 0.27 |', 1, A(0, w[1], "weight restated", docval=wd[1], cf='e1')),
        S('t3', '| **cats** | **0.47** |', 1, A(0, w[2], "weight restated", docval=wd[2], cf='e1')),
        S('c0', 'context_She = 0.27', 3, *[A(j, w[j], "weight restated", docval=wd[j], cf='e1') for j in range(3)]),
        S('c1', '= 0.27 × [1, 2, 0]', 4, A(0, w[0], "weight restated", docval=wd[0], cf='e1')),
        S('c2', '+ 0.27 × [0, 1, 1]', 4, A(0, w[1], "weight restated", docval=wd[1], cf='e1')),
        S('c3', '+ 0.47 × [2, 0, 1]', 4, A(0, w[2], "weight restated", docval=wd[2], cf='e1')),
    ]
    wp = [D('0.27'), D('0.27'), D('0.47')]
    for lab, anchor, j in (('p1', '= [0.27, 0.54, 0.00]', 0), ('p2', '+ [0.00, 0.27, 0.27]', 1), ('p3', '+ [0.94, 0.00, 0.47]', 2)):
        specs.append(S(lab, anchor, 3, *[A(c, w[j] * V[j][c], "w_%d * V[%d][%d] = %s" % (j, j, c, nstr(w[j] * V[j][c])),
                                           docval=wp[j] * V[j][c], cf='w') for c in range(3)]))
    dctx = [sum(wp[j] * V[j][c] for j in range(3)) for c in range(3)]
    specs += [
        S('ctx', '= [1.21, 0.81, 0.74]', 3, *[A(c, ctx[c], "context_She[%d] = %s" % (c, nstr(ctx[c])), docval=dctx[c], cf='w') for c in range(3)]),
        S('3x3', 'first row of the 3×3 attention matrix', 2, E(0, 3, "rows (3 tokens)"), E(1, 3, "columns (3 tokens)")),
        S('row', '| **She** | 0.27 | 0.27 | 0.47 |', 3, *[A(j, w[j], "weight restated", docval=wd[j], cf='e1') for j in range(3)]),
        S('v1', 'Keys:  She  [1,0,0] → score 1.0', 5, E(3, 1, "score restated"), A(4, w[0], "weight restated", docval=wd[0], cf='e1')),
        S('v2', 'loves[0,1,1] → score 1.0', 5, E(3, 1, "score restated"), A(4, w[1], "weight restated", docval=wd[1], cf='e1')),
        S('v3', 'cats [1,0,1] → score 2.0', 5, E(3, 2, "score restated"), A(4, w[2], "weight restated", docval=wd[2], cf='e1')),
        S('vs', 'Values weighted sum:  [1.21, 0.81, 0.74]', 3, *[A(c, ctx[c], "context restated", docval=dctx[c], cf='w') for c in range(3)]),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown 'Math_Walkthrough.md' ('# Attention Mechanism — Math Walkthrough', '## A tiny 3-word example'; one of Theory.md / Cheatsheet.md / Interview_QA.md / Math_Walkthrough.md in a numbered course folder whose navigation links '01 Sequence Models Before Transformers' and '03 Self Attention'); the search index did not expose the repository name (stored file id 54198798068, 4,363 characters). Kept: steps 1-6 with every table and code block verbatim, the attention-matrix table, the summary formula and the 'visual intuition' block; dropped: the step list under the summary formula and the navigation table; prose reworded",
        "source_kind": "study notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown tables of vectors, fenced plain-text arithmetic ('scaled scores = [1/1.73, 1/1.73, 2/1.73] = [0.58, 0.58, 1.15]', 'exp(0.58) ≈ 1.79', 'sum = 1.79 + 1.79 + 3.16 = 6.74', 'attention weights = [1.79/6.74, ...]'), a vector sum written over several lines beginning with '=' and '+', an arrow diagram '→ score 1.0 → weight 0.27', 2-decimal rounding",
        "conventions": 'Q, K, V of the table are given (the learned matrices are not shown). Scores 1, 1, 2; d_k = 3, scaled scores 1/√3 = 0.57735 and 2/√3 = 1.1547 (printed 0.58, 0.58, 1.15: right). The true exponentials are e^0.57735 = 1.78131 and e^1.1547 = 3.17307 (1.78 and 3.17); the printed 1.79 and 3.16 are e^0.58 and e^1.15, right only from the rounded exponents (kind rounding-carried). The sum 6.7357 → 6.74 is right by compensation. True weights [0.264458, 0.264458, 0.471085]: the printed 0.27 (twice, and in every restatement) is wrong, carried from the exponentials; 0.47 is right. Context vector w·V = [1.206628, 0.793375, 0.735543]: 1.21 and 0.74 right, 0.81 wrong (carried: 0.54 + 0.27). The partial products are judged against w_She·V_She = [0.2645, 0.5289, 0], w_loves·V_loves = [0, 0.2645, 0.2645] (0.27 and 0.54 wrong, carried) and w_cats·V_cats = [0.9422, 0, 0.4711] (right). Not listed: the embeddings and the Q/K/V table (given), the operands of the dot products, d_k = 3, the dimension words, step numbers',
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E2: DL Lecture 06 numerical workbook
# ---------------------------------------------------------------------------
def doc_e2():
    name = "en_dl_lecture06_attention_numerical_workbook.md"
    e = [D('2.0'), D('0.5'), D('-1.0'), D('3.0')]
    ex = [mexp(x) for x in e]
    al = [x / sum(ex) for x in ex]
    H = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
    c = [sum(al[i] * H[i][k] for i in range(4)) for k in range(3)]
    alp = [D('0.2506'), D('0.0559'), D('0.0125'), D('0.6811')]
    cp = [sum(alp[i] * H[i][k] for i in range(4)) for k in range(3)]
    ed = [D('7.389'), D('1.649'), D('0.368'), D('20.086')]
    s2 = 1 / R2
    e2 = mpmath.exp(s2)
    a11, a12 = e2 / (e2 + 1), 1 / (e2 + 1)
    specs = [
        *[S('x%d' % i, ['exp(2.0) = 7.389', 'exp(0.5) = 1.649', 'exp(-1.0) = 0.368', 'exp(3.0) = 20.086'][i], 2,
            E(1, ex[i], "exp(%s) = %s" % (e[i], nstr(ex[i])))) for i in range(4)],
        S('sum', 'sum = 7.389 + 1.649', 5, *[E(i, ex[i], "exp restated") for i in range(4)],
          A(4, sum(ex), "sum of exps = %s" % nstr(sum(ex)), docval=sum(ed))),
    ]
    for i in range(4):
        specs.append(S('a%d' % (i + 1), 'alpha_%d = %s / 29.492' % (i + 1, ['7.389', '1.649', '0.368', '20.086'][i]), 4, E(1, ex[i], "exp restated"),
                       A(2, sum(ex), "sum restated", docval=D('29.492'), cf='sum'),
                       A(3, al[i], "softmax weight %d = %s" % (i + 1, nstr(al[i])), docval=ed[i] / D('29.492'))))
    specs += [
        S('chk', '0.2506 + 0.0559 + 0.0125 + 0.6811 = 1.0001', 6, *[A(i, al[i], "weight restated", docval=alp[i], cf=None) for i in range(4)],
          A(4, 1, "sum of softmax weights = 1", docval=sum(alp), cf=None), E(5, 1, "sum of weights")),
        S('res', '**Result: attention weights ≈ [0.2506', 8, *[A(i, al[i], "weight restated", docval=alp[i], cf=None) for i in range(4)],
          E(5, 100 * al[3], "alpha_4 in percent = %s" % nstr(100 * al[3])), E(7, 100 * al[2], "alpha_3 in percent = %s" % nstr(100 * al[2]))),
    ]
    for i, anchor in enumerate(['alpha_1 * h_1 = 0.2506', 'alpha_2 * h_2 = 0.0559', 'alpha_3 * h_3 = 0.0125', 'alpha_4 * h_4 = 0.6811']):
        specs.append(S('m%d' % i, anchor, 9, A(2, al[i], "weight restated", docval=alp[i], cf=None),
                       *[A(6 + k, al[i] * H[i][k], "alpha_%d * h_%d[%d] = %s" % (i + 1, i + 1, k, nstr(al[i] * H[i][k])),
                           docval=alp[i] * H[i][k], cf=None) for k in range(3)]))
    comp = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2), (3, 2)]
    specs += [
        S('csum', 'c_t = [0.2506+0+0.0125+0', 12, *[A(n, al[i] * H[i][k], "alpha_%d * h_%d[%d] restated" % (i + 1, i + 1, k),
                                                       docval=alp[i] * H[i][k], cf=None) for n, (i, k) in enumerate(comp)]),
        S('c', '    = [0.2631, 0.0684, 0.9317]', 3, *[A(k, c[k], "c_t[%d] = %s" % (k, nstr(c[k])), docval=cp[k], cf=None) for k in range(3)]),
        S('cres', '**Result: c_t ≈ [0.2631', 8, *[A(k, c[k], "c_t[%d] restated" % k, docval=cp[k], cf='c') for k in range(3)],
          A(3, c[2], "c_t[2] restated", docval=cp[2], cf='c'), A(7, al[3], "alpha_4 restated", docval=alp[3], cf=None)),
        S('avs', '        = [2,2,2] / 4', 4, *[E(k, 2, "sum of the four h vectors, entry %d" % k) for k in range(3)]),
        S('av', '        = [0.5, 0.5, 0.5]', 3, *[E(k, Fraction(1, 2), "plain average entry %d" % k) for k in range(3)]),
        S('cmp', 'attention context vector from Example 2: [0.2631', 5, *[A(2 + k, c[k], "c_t[%d] restated" % k, docval=cp[k], cf='c') for k in range(3)]),
        S('q', 'Q1 = x1 . W_Q = [1,0],  Q2', 8, E(2, 1, "Q1[0]"), E(3, 0, "Q1[1]"), E(6, 0, "Q2[0]"), E(7, 1, "Q2[1]")),
        S('k', 'K1 = x1 . W_K = [1,0],  K2', 8, E(2, 1, "K1[0]"), E(3, 0, "K1[1]"), E(6, 0, "K2[0]"), E(7, 1, "K2[1]")),
        S('v', 'V1 = x1 . W_V = [2,0],  V2', 8, E(2, 2, "V1[0]"), E(3, 0, "V1[1]"), E(6, 0, "V2[0]"), E(7, 2, "V2[1]")),
        S('sc1', 'score(Q1,K1) = [1,0] . [1,0] = 1x1 + 0x0 = 1', 11, E(10, 1, "Q1 . K1")),
        S('sc2', 'score(Q1,K2) = [1,0] . [0,1] = 1x0 + 0x1 = 0', 11, E(10, 0, "Q1 . K2")),
        S('r2', 'so sqrt(2)≈1.414', 4, E(3, R2, "sqrt 2 = %s" % nstr(R2))),
        S('ss1', 'scaled_score(Q1,K1) = 1 / 1.414', 5, E(2, 1, "score restated"), E(3, R2, "sqrt 2 restated"), E(4, s2, "1/sqrt 2 = %s" % nstr(s2))),
        S('ss2', 'scaled_score(Q1,K2) = 0 / 1.414', 5, E(2, 0, "score restated"), E(3, R2, "sqrt 2 restated"), E(4, 0, "0/sqrt 2")),
        S('ex', 'exp(0.7071) ≈ 2.0281, exp(0) = 1.0', 4, E(0, s2, "scaled score restated"), E(1, e2, "exp(1/sqrt 2) = %s" % nstr(e2)),
          E(2, 0, "scaled score restated"), E(3, 1, "exp(0)")),
        S('s', 'sum = 2.0281 + 1.0 = 3.0281', 3, E(0, e2, "exp restated"), E(1, 1, "exp(0) restated"), E(2, e2 + 1, "sum = %s" % nstr(e2 + 1))),
        S('a11', 'alpha(1,1) = 2.0281/3.0281', 5, E(2, e2, "exp restated"), E(3, e2 + 1, "sum restated"),
          A(4, a11, "alpha(1,1) = e^(1/sqrt2)/(e^(1/sqrt2)+1) = %s" % nstr(a11), docval=D('2.0281') / D('3.0281'))),
        S('a12', 'alpha(1,2) = 1.0/3.0281', 5, E(2, 1, "exp(0) restated"), E(3, e2 + 1, "sum restated"),
          A(4, a12, "alpha(1,2) = 1/(e^(1/sqrt2)+1) = %s" % nstr(a12), docval=D('1.0') / D('3.0281'))),
        S('o0', 'output_1 = 0.6697 x V1', 5, A(1, a11, "alpha(1,1) restated", docval=D('0.6697'), cf='a11'),
          A(3, a12, "alpha(1,2) restated", docval=D('0.3303'), cf='a12')),
        S('o1', '         = 0.6697 x [2,0]', 6, A(0, a11, "alpha(1,1) restated", docval=D('0.6697'), cf='a11'),
          A(3, a12, "alpha(1,2) restated", docval=D('0.3303'), cf='a12')),
        S('o2', '         = [1.3394, 0] + [0, 0.6606]', 4, A(0, 2 * a11, "2 alpha(1,1) = %s" % nstr(2 * a11), docval=2 * D('0.6697'), cf='a11'),
          E(1, 0, "0 x alpha(1,1)"), E(2, 0, "0 x alpha(1,2)"), A(3, 2 * a12, "2 alpha(1,2) = %s" % nstr(2 * a12), docval=2 * D('0.3303'), cf='a12')),
        S('o3', '         = [1.3394, 0.6606]', 2, A(0, 2 * a11, "output_1[0]", docval=2 * D('0.6697'), cf='a11'),
          A(1, 2 * a12, "output_1[1]", docval=2 * D('0.3303'), cf='a12')),
        S('o4', "**Result: word 1's self-attention output is", 5, A(1, 2 * a11, "output_1[0] restated", docval=2 * D('0.6697'), cf='a11'),
          A(2, 2 * a12, "output_1[1] restated", docval=2 * D('0.3303'), cf='a12'), E(3, 1, "score(Q1,K1) restated"), E(4, 0, "score(Q1,K2) restated")),
        S('sumr', 'Starting from scores `[2.0, 0.5, -1.0, 3.0]`', 18,
          *[A(4 + i, al[i], "weight restated", docval=alp[i], cf=None) for i in range(4)],
          *[A(8 + k, c[k], "c_t[%d] restated" % k, docval=cp[k], cf='c') for k in range(3)],
          *[E(11 + k, Fraction(1, 2), "plain average restated") for k in range(3)],
          E(14, a11, "alpha(1,1) to 2 places"), E(15, a12, "alpha(1,2) to 2 places"),
          A(16, 2 * a11, "output_1[0] restated", docval=2 * D('0.6697'), cf='a11'), A(17, 2 * a12, "output_1[1] restated", docval=2 * D('0.3303'), cf='a12')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown 'DL Lecture 06 — Attention (Numerical)' (folder Deep-Learning/Lecture-06-Attention/numerical/, paired with theory/practice/exercises files of the same lecture); the search index did not expose the repository name (stored file id 58846321844, 10,175 characters). Kept: worked examples 1-4 with every code block verbatim and the numbers of the summary; dropped: table of contents, notation table, 'top' links, the formula cheatsheet and the exam-hack list; the prose around the blocks reworded and shortened",
        "source_kind": "exam-preparation notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "fenced plain-text steps ('exp(2.0) = 7.389', 'alpha_1 = 7.389 / 29.492 ≈ 0.2506', 'alpha_1 * h_1 = 0.2506 x [1,0,1] = [0.2506, 0, 0.2506]', 'c_t = [0.2506+0+0.0125+0, ...]'), 'x' as the multiplication sign, bracketed vectors, bold result sentences with percentages (68%, 1.25%), 4-decimal rounding",
        "conventions": "Example 1: e^2, e^0.5, e^-1, e^3 = 7.389056, 1.648721, 0.367879, 20.085537 (printed right); their sum 29.491194 → 29.491, so the printed 29.492 (the sum of the rounded terms) is wrong, kind rounding-carried, and its four restatements are carried. The weights [0.250551, 0.055905, 0.012474, 0.681060] are printed right; the check '= 1.0001' is wrong (the weights sum to 1; 1.0001 is the sum of the rounded weights, rounding-carried), '≈ 1.0' right; 68% and 1.25% right. Example 2: c_t = [α1+α3, α2+α3, α1+α4] = [0.263025, 0.068379, 0.931611] → 0.2630, 0.0684, 0.9316: the printed 0.2631 and 0.9317 are sums of the rounded weights (rounding-carried; their later restatements carried), 0.0684 right. Example 3: the plain average is right. Example 4: 1/√2 = 0.7071, e^(1/√2) = 2.028115, sum 3.028115 (right); α(1,1) = 0.669762 → 0.6698 and α(1,2) = 0.330238 → 0.3302, so the printed 0.6697 and 0.3303 are mis-rounded (kind rounding; 2.0281/3.0281 itself is 0.66976) and the output 2α = [1.339523, 0.660477] → [1.3395, 0.6605] is printed as [1.3394, 0.6606] (carried); '≈0.67' and '≈0.33' in the summary are right. Not listed: the given scores, hidden states, embeddings and weight matrices, word, step and example numbers, subscripts, d_k = 2, the heading 'Verify they sum to 1.0'",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document E3: dot-product attention README with an expected printout
# ---------------------------------------------------------------------------
def doc_e3():
    name = "en_dot_product_attention_readme_expected_output.md"
    enc = [[D('0.2'), D('0.8')], [D('0.9'), D('0.1')]]
    dec = [D('0.7'), D('0.4')]
    sc = [enc[i][0] * dec[0] + enc[i][1] * dec[1] for i in range(2)]
    w = softmax(sc)
    ctx = [w[0] * M(enc[0][k]) + w[1] * M(enc[1][k]) for k in range(2)]
    f64 = Fraction(1, 10 ** 12)
    specs = [
        S('s1', '        = 0.46', 1, E(0, sc[0], "0.2*0.7 + 0.8*0.4")),
        S('s2', '        = 0.67', 1, E(0, sc[1], "0.9*0.7 + 0.1*0.4")),
        S('s', 'Alignment Scores = [0.46, 0.67]', 2, E(0, sc[0], "score restated"), E(1, sc[1], "score restated")),
        S('w', 'Attention Weights ≈ [0.448, 0.552]', 2, E(0, w[0], "softmax([0.46, 0.67])[0] = %s" % nstr(w[0], 10)),
          E(1, w[1], "softmax([0.46, 0.67])[1] = %s" % nstr(w[1], 10))),
        S('c', 'Context Vector ≈ [0.586, 0.414]', 2,
          W(0, ctx[0], "w0*0.2 + w1*0.9 = %s; the README's 0.586 matches its own wrong expected printout further down (0.58638387), not the arithmetic" % nstr(ctx[0], 10), 'slip'),
          W(1, ctx[1], "w0*0.8 + w1*0.1 = %s (= 1 - context[0]); 0.414 = 1 - 0.586" % nstr(ctx[1], 10), 'carried', 'c')),
        S('n', 'Encoder Output (4 words, 2 features each)', 2,
          W(0, 2, "encoder_outputs has 2 rows (words), not 4", 'slip'), E(1, 2, "2 columns (features)")),
        S('ps', '^[0.46 0.67]', 2, E(0, sc[0], "printed score 0.46 (float64)", unit=f64), E(1, sc[1], "printed score 0.67 (float64)", unit=f64)),
        S('pw', '^[0.44769209 0.55230791]', 2, E(0, w[0], "float64 printout of w0 = %s" % nstr(w[0], 12)),
          E(1, w[1], "float64 printout of w1 = %s" % nstr(w[1], 12))),
        S('pc', '^[0.58638387 0.41361613]', 2,
          W(0, ctx[0], "context[0] = 0.447692*0.2 + 0.552308*0.9 = %s" % nstr(ctx[0], 12), 'slip'),
          W(1, ctx[1], "context[1] = 0.447692*0.8 + 0.552308*0.1 = %s; the printed value is 1 minus the wrong context[0]" % nstr(ctx[1], 12), 'carried', 'pc')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub project README '# Attention Mechanism using Dot-Product Attention' (a NumPy demo for Google Colab with sections Overview, Concept, Input, Methodology 1-5, Technologies Used, Code, Expected Output, Key Learning, How to Run); the search index did not expose the repository name (stored file id 70748311622, 4,316 characters). Kept: the input arrays, methodology steps 3-5 with their values, the whole code block and the expected-output block verbatim; dropped: overview, concept flow chart, steps 1-2, technologies, key learning and how-to-run lists; prose reworded",
        "source_kind": "project README with code and expected output (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "fenced text '(0.2 × 0.7) + (0.8 × 0.4)' / '= 0.46', 'Attention Weights ≈ [0.448, 0.552]', a NumPy script with f-string prints and an 'Expected Output' block in NumPy print style ('[[0.2 0.8]', '[0.44769209 0.55230791]' without commas)",
        "conventions": "Scores 0.2·0.7 + 0.8·0.4 = 0.46 and 0.9·0.7 + 0.1·0.4 = 0.67; softmax = [0.447692, 0.552308] (the float64 printout 0.44769209 / 0.55230791 is right to its 8 decimals). The context vector w0·[0.2, 0.8] + w1·[0.9, 0.1] = [0.5866155, 0.4133845]: the expected printout [0.58638387 0.41361613] is wrong (slip; the second entry is 1 minus the first, carried; the true entries also sum to 1 because both encoder rows sum to 1), and the prose 'Context Vector ≈ [0.586, 0.414]' repeats that wrong printout (0.587 and 0.413 would be right); it is listed as slip + carried on its own line because the printout it comes from stands further down. The label '(4 words, 2 features each)' in the first print is wrong for the 2 × 2 array (2 words, slip); '2 features' is right. Not listed: the echoes of the input arrays in the expected output, axis=0",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E4: Deep Learning for Generative AI, Part 4, small-number decoder attention
# ---------------------------------------------------------------------------
def doc_e4():
    name = "en_genai_part4_decoder_attention_small_numbers.md"
    r3 = mpmath.sqrt(3)
    sc = [2 / r3, mpmath.mpf(0), 1 / r3]
    ex = [mpmath.exp(x) for x in sc]
    w = [x / sum(ex) for x in ex]
    dex = [D('3.174'), D('1.000'), D('1.781')]
    specs = [
        S('k1', 'Q · K1 = 2×1', 8, E(7, 2, "Q . K1")),
        S('k2', 'Q · K2 = 2×0', 8, E(7, 0, "Q . K2")),
        S('k3', 'Q · K3 = 2×0', 8, E(7, 1, "Q . K3")),
        S('sc', 'scores = [2, 0, 1]', 3, E(0, 2, "score restated"), E(1, 0, "score restated"), E(2, 1, "score restated")),
        S('r3', 'so the scores are divided by `√d ≈ 1.732`', 2, E(1, r3, "sqrt 3 = %s" % nstr(r3))),
        S('sd', 'scaled scores = [2/1.732', 6, E(0, 2, "score restated"), E(1, r3, "sqrt 3 restated"), E(2, 0, "score restated"),
          E(3, r3, "sqrt 3 restated"), E(4, 1, "score restated"), E(5, r3, "sqrt 3 restated")),
        S('ss', '              = [1.155, 0.000, 0.577]', 3, *[E(j, sc[j], "score/sqrt 3 = %s" % nstr(sc[j])) for j in range(3)]),
        S('e1', 'e^1.155 ≈ 3.174', 2, E(0, sc[0], "scaled score restated"), A(1, ex[0], "e^(2/sqrt 3) = %s" % nstr(ex[0]), docval=mexp(D('1.155')))),
        S('e0', ' e^0    = 1.000', 2, E(0, 0, "scaled score restated"), E(1, 1, "e^0")),
        S('e2', 'e^0.577 ≈ 1.781', 2, E(0, sc[2], "scaled score restated"), E(1, ex[2], "e^(1/sqrt 3) = %s" % nstr(ex[2]))),
        S('sum', 'sum = 3.174 + 1.000 + 1.781 = 5.955', 4, A(0, ex[0], "e^(2/sqrt3) restated", docval=dex[0], cf='e1'), E(1, 1, "e^0 restated"),
          E(2, ex[2], "e^(1/sqrt3) restated"), A(3, sum(ex), "sum of exponentials = %s" % nstr(sum(ex)), docval=sum(dex), cf='e1')),
        S('wq', 'weights = [3.174/5.955', 6, A(0, ex[0], "restated", docval=dex[0], cf='e1'), A(1, sum(ex), "sum restated", docval=D('5.955'), cf='sum'),
          E(2, 1, "e^0 restated"), A(3, sum(ex), "sum restated", docval=D('5.955'), cf='sum'), E(4, ex[2], "restated"),
          A(5, sum(ex), "sum restated", docval=D('5.955'), cf='sum')),
        S('w', '        = [0.533, 0.168, 0.299]', 3, *[E(j, w[j], "softmax weight %d = %s" % (j, nstr(w[j]))) for j in range(3)]),
        S('chk', 'Check: `0.533 + 0.168 + 0.299 = 1.000`', 4, *[E(j, w[j], "weight restated") for j in range(3)], E(3, 1, "weights sum to 1")),
        S('c1', 'c = 0.533 × V1', 6, E(0, w[0], "weight restated"), E(2, w[1], "weight restated"), E(4, w[2], "weight restated")),
        S('c2', '  = 0.533 × [1, 0, 0]', 12, E(0, w[0], "weight restated"), E(4, w[1], "weight restated"), E(8, w[2], "weight restated")),
        S('c3', '  = [0.533, 0.168, 0.299]', 3, *[E(j, w[j], "context[%d] = weight %d" % (j, j)) for j in range(3)]),
        S('c4', 'The context vector `[0.533, 0.168, 0.299]`', 3, *[E(j, w[j], "context restated") for j in range(3)]),
        S('t1', 'print("weights:", weights)', 3, *[E(j, w[j], "expected torch weights (3 places)") for j in range(3)]),
        S('t2', 'print("context:", context)', 3, *[E(j, w[j], "expected torch context (3 places)") for j in range(3)]),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Jekyll post 'Deep Learning for Generative AI — Part 4: Math Behind Attention Mechanism' (front matter layout topic, category Generative AI, order 104, permalink /topics/dl-genai-attention-math/, links to Parts 2, 3, 5 and 9); the search index did not expose the repository name (stored file id 70889540657, 14,044 characters). Kept: title, the three-step recipe of section 3, section 4 complete and the code of section 10 with its comments verbatim; dropped: permalink, tags and summary of the front matter, sections 1-2 (library analogy and the I/love/cats walk-through with assumed weights), 5-9 and the summary table; prose reworded",
        "source_kind": "blog post in a tutorial series (GitHub Jekyll Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "fenced text blocks ('Q · K1 = 2×1 + 0×0 + 1×0 = 2', 'scaled scores = [2/1.732, 0/1.732, 1/1.732]', 'e^1.155 ≈ 3.174', 'weights = [3.174/5.955, ...]'), 3-decimal values, a PyTorch script whose expected values are written in trailing comments '# tensor([[0.533, 0.168, 0.299]])'",
        "conventions": "d = 3: scaled scores 2/√3 = 1.154701, 0, 1/√3 = 0.577350 (printed 1.155, 0.000, 0.577: right). e^(2/√3) = 3.173073 → 3.173, so the printed 3.174 (= e^1.155 from the rounded exponent) is wrong, kind rounding-carried; e^(1/√3) = 1.781312 → 1.781 right; the sum 5.954385 → 5.954, so 5.955 is wrong (carried from 3.174), as are its three restatements in the division line. The weights [0.532899, 0.167943, 0.299158] → [0.533, 0.168, 0.299], the check 1.000 and the context vector (equal to the weights, since V1-V3 are unit vectors) are right. The PyTorch comments are judged as the 3-place values they print (a real torch printout would show 4 places). Not listed: h, K, V and Q (given), d = 3, the operands of the dot products, list and section numbers, 'order: 104' and 'Part 4'",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document E5: Rust fundamentals module, interview comments
# ---------------------------------------------------------------------------
def doc_e5():
    name = "en_rust_fundamentals_interview_comments.md"
    lg = [D('2.0'), D('1.0'), D('0.1')]
    ex = [mexp(x) for x in lg]
    sm = [x / sum(ex) for x in ex]
    dsum = D('7.39') + D('2.72') + D('1.11')
    x = [1, 2, 3, 4]
    eps = D('1e-5')
    mu = Fraction(sum(x), 4)
    var = sum((Fraction(v) - mu) ** 2 for v in x) / 4
    ln = [M(v - mu) / mpmath.sqrt(M(var + eps)) for v in x]
    hidden = 256 * -(-(Fraction(2, 3) * 4 * 4096) // 256)
    specs = [
        S('ex', '//     exp([2.0, 1.0, 0.1]) = [7.39, 2.72, 1.11]', 6, *[E(3 + j, ex[j], "exp(%s) = %s" % (lg[j], nstr(ex[j]))) for j in range(3)]),
        S('sum', '//     sum = 11.22', 1, A(0, sum(ex), "e^2 + e^1 + e^0.1 = %s" % nstr(sum(ex)), docval=dsum)),
        S('sm', '//     softmax = [7.39/11.22', 9,
          E(0, ex[0], "exp restated"), A(1, sum(ex), "sum restated", docval=dsum, cf='sum'),
          E(2, ex[1], "exp restated"), A(3, sum(ex), "sum restated", docval=dsum, cf='sum'),
          E(4, ex[2], "exp restated"), A(5, sum(ex), "sum restated", docval=dsum, cf='sum'),
          *[E(6 + j, sm[j], "softmax([2.0, 1.0, 0.1])[%d] = %s" % (j, nstr(sm[j]))) for j in range(3)]),
        S('one', '//     → Sum = 1.0', 1, E(0, 1, "softmax outputs sum to 1")),
        S('e0', 'exp(x - max) ≤ exp(0) = 1', 2, E(1, 1, "exp(0)")),
        S('e100', '→ exp(100) = 2.7e43', 3, E(1, mexp(100), "e^100 = %s" % nstr(mexp(100)))),
        S('l09', 'loss = -log(0.9) = 0.105', 3, E(1, -mlog(D('0.9')), "-ln 0.9 = %s" % nstr(-mlog(D('0.9'))))),
        S('l001', 'loss = -log(0.01) = 4.6', 2, E(1, -mlog(D('0.01')), "-ln 0.01 = %s" % nstr(-mlog(D('0.01'))))),
        S('sm2', '//   softmax = [0.659, 0.242, 0.099]', 3, *[E(j, sm[j], "softmax restated") for j in range(3)]),
        S('ce', '//   loss = -log(0.659) = 0.417', 2, E(0, sm[0], "softmax[0] restated"), E(1, -mpmath.log(sm[0]), "-ln softmax[0] = %s" % nstr(-mpmath.log(sm[0])))),
        S('mu', '//     μ = 2.5', 1, E(0, mu, "mean of [1, 2, 3, 4]")),
        S('var', '//     σ² = 1.25', 1, E(0, var, "population variance of [1, 2, 3, 4]")),
        S('ln', '//     normalized = [-1.34', 4, *[E(j, ln[j], "(x_%d - 2.5)/sqrt(1.25 + 1e-5) = %s" % (j, nstr(ln[j]))) for j in range(4)]),
        S('h', '//   Why 11008?', 5, E(0, hidden, "2/3 * 4 * 4096 = 10922.67, rounded up to a multiple of 256 = 11008")),
        S('dm', '//     Mask:   [1,   0,   1,   0]', 5, E(4, 50, "2 of the 4 mask entries zero (p = 0.5)")),
        S('do', '//     Output: [2.0, 0.0, 6.0, 0.0]', 5, E(0, 2, "1.0 / (1 - 0.5)"), E(1, 0, "dropped"), E(2, 6, "3.0 / (1 - 0.5)"),
          E(3, 0, "dropped"), E(4, 2, "scale 1/(1-p) at p = 0.5")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Rust source file of from-scratch fundamentals for interview practice ('use crate::tensor::Tensor;', banner 'Fundamentals — implement from scratch, no framework', numbered items #1 ReLU, #19 GELU, #2 Softmax, #16 Cross-Entropy Loss, #3 Linear Layer, #20 Kaiming Init, #4 LayerNorm, #7 BatchNorm, #8 RMSNorm, #15 SwiGLU MLP, #17 Dropout, #18 Embedding, #21 Gradient Clipping and a demo()); the search index did not expose the repository name (stored file id 60958688469, 21,539 characters). Kept verbatim: items #2, #16 (comment without the last interview remark), #4 (comment without the 'why normalize' and LayerNorm-vs-BatchNorm paragraphs), #8 (comment without the 'why LLaMA uses RMSNorm' list), #15 (the comment only; struct, impl and sigmoid dropped) and #17 (comment shortened to the scaling rule and the example); the title and the introductory paragraph are mine. Dropped: ReLU, GELU, Linear/Kaiming, BatchNorm, Embedding, gradient clipping and demo()",
        "source_kind": "source file with worked comments (GitHub Rust)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Rust '//' block comments with hand arithmetic ('exp([2.0, 1.0, 0.1]) = [7.39, 2.72, 1.11]', 'sum = 11.22', 'softmax = [7.39/11.22, ...] = [0.659, 0.242, 0.099]', 'loss = -log(0.659) = 0.417', 'μ = 2.5', 'σ² = 1.25', 'normalized = [-1.34, -0.45, 0.45, 1.34]'), scientific notation '2.7e43', shape tuples '(4096, 11008)', a percentage '50%', '× 2.0'",
        "conventions": "softmax([2.0, 1.0, 0.1]): exps 7.389056, 2.718282, 1.105171 (printed 7.39, 2.72, 1.11: right), sum 11.212509 → 11.21, so the printed 11.22 (the sum of the rounded exps) is wrong, rounding-carried, and carried into the three divisions; the probabilities [0.659001, 0.242433, 0.098566] → [0.659, 0.242, 0.099] are right and -ln 0.659001 = 0.417030 → 0.417 is right. -ln 0.9 = 0.105361, -ln 0.01 = 4.60517, e^100 = 2.688e43 (2.7e43) and exp(0) = 1 are right. LayerNorm of [1, 2, 3, 4] with the ε = 1e-5 the comment states: mean 2.5, population variance 1.25, (x - 2.5)/sqrt(1.25001) = [-1.341635, -0.447212, 0.447212, 1.341635], printed right to 2 places. 11008 = 256 × ceil((2/3 × 4 × 4096)/256) = 256 × 43, right. Inverted dropout at p = 0.5 scales survivors by 2: [2.0, 0.0, 6.0, 0.0] and '50%' right. Not listed: the logits, the given probabilities 0.9 and 0.01, the input vectors, ε, the LLaMA shapes 4096 / 11008 of the shape lines (model configuration), the operation counts '(4 operations ...)' and '(2 operations ...)', '3 weight matrices instead of 2', item numbers (#2, #16, ...) and f32 type names",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E6: GELU layer of a small Rust crate, doc example and test comments
# ---------------------------------------------------------------------------
def doc_e6():
    name = "en_rust_gelu_module_doc_and_test_comments.md"

    def gelu(v):
        v = M(v) if is_exact(v) else v
        return v * mpmath.ncdf(v)

    g1, gm1, g0 = gelu(1), gelu(-1), gelu(0)
    gx = gelu(D('0.56484'))
    dg = mpmath.ncdf(1) + mpmath.npdf(1)
    specs = [
        S('doc', '/// // y ≈ [0.8413, -0.1588, 0.0]', 3, E(0, g1, "gelu(1) = Phi(1) = %s" % nstr(g1, 10)),
          W(1, gm1, "gelu(-1) = -1 * Phi(-1) = %s with the erf formula the crate states; -0.1588 is the tanh approximation (-0.158808)" % nstr(gm1, 10), 'convention'),
          E(2, g0, "gelu(0) = 0")),
        S('t0', '// Test gelu(0) = 0', 2, E(1, g0, "gelu(0)")),
        S('t0a', '            0.0,', 1, E(0, g0, "expected gelu(0)")),
        S('t1', '// Test gelu(1) ≈ 0.8413', 2, E(1, g1, "gelu(1) = %s" % nstr(g1, 10))),
        S('t1a', '            0.8413,', 1, E(0, g1, "expected gelu(1)")),
        S('tm1', '// Test gelu(-1) ≈ -0.1588', 2,
          W(1, gm1, "gelu(-1) = %s (exact erf form); the comment repeats the tanh-approximation value" % nstr(gm1, 10), 'carried', 'doc')),
        S('tm1a', '            -0.1587,', 1, E(0, gm1, "expected gelu(-1) = %s" % nstr(gm1, 10))),
        S('tx', '// Test gelu(0.56484) ≈ 0.4032', 2, E(1, gx, "gelu(0.56484) = %s" % nstr(gx, 10))),
        S('txa', '            0.4032,', 1, E(0, gx, "expected gelu(0.56484)")),
        S('g', 'The gradient of GELU at x=1 is approximately 1.08', 2, E(1, dg, "gelu'(1) = Phi(1) + phi(1) = %s" % nstr(dg, 10))),
        S('ga', 'assert_relative_eq!(grad_val, 1.08', 2, E(0, dg, "expected gelu'(1)")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Rust source of the GELU layer of a small autograd crate (doc test 'use volta::GELU', structs RawTensor/Tensor, trait Module with state_dict/train), as stored in the code index; the search index did not expose the repository name (stored file id 53555064573, 7,167 characters). Kept: the doc comment (its 'Properties' list and the hidden '# use volta::...' doc-test lines dropped), forward(), test_gelu_forward verbatim and test_gelu_gradient with its comments and two assertions (the non-empty-gradient assertion dropped, the grad_val line moved before the comments); the title, the introduction and the closing sentence are mine. Dropped: the use lines, new/default, parameters/state_dict/train, and the tests for creation, default, shapes, negative inputs, state dict, parameters and train/eval (they check shapes and signs only)",
        "source_kind": "library source with doc comment and unit tests (GitHub Rust)",
        "language": "en",
        "errors_as_published": True,
        "notation": "a Rust doc comment '/// // y ≈ [0.8413, -0.1588, 0.0]', test comments '// Test gelu(-1) ≈ -0.1588' each followed by an assert_relative_eq! whose expected literal stands on its own line ('            -0.1587,'), 'approximately 1.08'",
        "conventions": "The crate defines gelu(x) = 0.5·x·(1 + erf(x/√2)) = x·Φ(x): gelu(1) = 0.841345 → 0.8413, gelu(-1) = -0.158655 → -0.1587, gelu(0) = 0, gelu(0.56484) = 0.403244 → 0.4032, gelu'(1) = Φ(1) + φ(1) = 1.083315 → 1.08; all the assertion literals are right. The doc example's '-0.1588' and the test comment '≈ -0.1588' are the value of the tanh approximation (-0.158808), right only under that other convention (kind convention; the comment repeats it, carried); the assertion below the comment expects -0.1587. The comment that the tanh approximation 'would fail' at 0.56484 is not borne out at epsilon 1e-4 (tanh-GELU(0.56484) = 0.403218), but it is a sentence, not a listed number. Not listed: inputs, epsilons, shapes and the constants 0.5, 1, 2 of the formula",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E7: PyTorch forum thread on LayerNorm and the two variance estimators
# ---------------------------------------------------------------------------
def doc_e7():
    name = "en_pytorch_forum_layernorm_std_per_data_point.md"
    rows = [[4, 3, 1], [0, 2, 0]]

    def norm(r, unbiased):
        m = Fraction(sum(r), 3)
        ss = sum((Fraction(v) - m) ** 2 for v in r)
        var = ss / (2 if unbiased else 3)
        return [M(Fraction(v) - m) / mpmath.sqrt(M(var)) for v in r]

    ln = [norm(r, False) for r in rows]
    man = norm(rows[0], True)
    std_row = mpmath.sqrt(mpmath.mpf(3) / 2)      # unbiased std of any biased-standardised 3-vector
    std_all = mpmath.sqrt(mpmath.mpf(6) / 5)      # unbiased std of all six LayerNorm outputs
    specs = [
        S('q1', 'tensor([[ 1.0690,  0.2673, -1.3363],', 3, *[E(j, ln[0][j], "LayerNorm row [4,3,1], biased var, eps 0: %s" % nstr(ln[0][j])) for j in range(3)]),
        S('q2', '[-0.7071,  1.4142, -0.7071]])', 3, *[E(j, ln[1][j], "LayerNorm row [0,2,0]: %s" % nstr(ln[1][j])) for j in range(3)]),
        S('q3', 'std: tensor(1.2247)', 1, E(0, std_row, "torch.std (unbiased) of one LayerNorm output row = sqrt(3/2) = %s" % nstr(std_row))),
        S('q4', 'tensor([ 0.8729,  0.2182, -1.0911])', 3, *[E(j, man[j], "[4,3,1] standardised with the unbiased variance: %s" % nstr(man[j])) for j in range(3)]),
        S('q5', 'std: tensor(1.)', 1, E(0, 1, "unbiased std of the unbiased-standardised row")),
        S('a1', '# tensor([[ 1.0690,  0.2673, -1.3363],', 3, *[E(j, ln[0][j], "out row 0") for j in range(3)]),
        S('a2', '#        [-0.7071,  1.4142, -0.7071]], dtype=torch.float32)', 4, *[E(j, ln[1][j], "out row 1") for j in range(3)]),
        S('a3', '# tensor([[ 1.0690,  0.2673, -1.3363],', 3, *[E(j, ln[0][j], "result row 0 (biased, per row)") for j in range(3)]),
        S('a4', '#         [-0.7071,  1.4142, -0.7071]], dtype=torch.float32)', 4, *[E(j, ln[1][j], "result row 1") for j in range(3)]),
        S('a5', '# tensor(1.0954, dtype=torch.float32)', 2, E(0, std_all, "out.std(): unbiased std of all six outputs = sqrt(6/5) = %s" % nstr(std_all))),
        S('a6', '# tensor(1.2247, dtype=torch.float32)', 2,
          W(0, std_all, "the same expression out.std() printed a second time: sqrt(6/5) = %s; 1.2247 = sqrt(3/2) is the std of a single row" % nstr(std_all), 'slip')),
        S('a7', '# tensor([ 1.0690,  0.2673, -1.3363], dtype=torch.float32)', 4,
          *[E(j, ln[0][j], "single sample [4,3,1] with its own mean and biased variance") for j in range(3)]),
        S('a8', '#tensor(1.2247, dtype=torch.float32)', 2, E(0, std_row, "result.std() of the single standardised sample = sqrt(3/2)")),
    ]
    meta = {
        "doc": name,
        "source": "PyTorch Forums thread 'Layernorm doesn't result in std=0 per data point' (https://discuss.pytorch.org/t/layernorm-doesnt-result-in-std-0-per-data-point/153024), as stored in the pages corpus: the question and one reply, without user names or dates. Kept: both code blocks with every printout verbatim (including the reply's two identical out.std() calls); the question and answer prose reworded",
        "source_kind": "forum Q&A thread with PyTorch printouts (discuss.pytorch.org)",
        "language": "en",
        "errors_as_published": True,
        "notation": "forum post with Python code blocks and PyTorch printouts ('tensor([[ 1.0690,  0.2673, -1.3363],' with the second row wrapped onto a new line, 'std: tensor(1.)', '# tensor(1.0954, dtype=torch.float32)', '#tensor(1.2247, ...)') pasted as comments under print() calls",
        "conventions": "nn.LayerNorm(3, eps=0, no affine) standardises each row with its own mean and biased variance: [4,3,1] → [1.069045, 0.267261, -1.336306], [0,2,0] → [-0.707107, 1.414214, -0.707107] (all printouts right). Any row standardised that way has unbiased std sqrt(3/2) = 1.224745, and all six outputs together have unbiased std sqrt(6/5) = 1.095445 (torch.std defaults to the unbiased estimator). The question's 'std: tensor(1.2247)' is read as the std of one output row (right). Its manual printout has three values, so it was produced for the single data point [4,3,1] standardised with its own mean and the unbiased variance: [0.872872, 0.218218, -1.091089] with std 1, right under that reading (with the batch-wide mean0/var0 of the code shown, the output would be a 2 × 3 tensor). In the reply, the first out.std() → 1.0954 is right and the second, identical print → 1.2247 is wrong (slip; 1.2247 is the std of a single row). The '# single sample' block is judged as its comment says (batch = the row [4,3,1]): [1.0690, 0.2673, -1.3363] and std 1.2247 right. Not listed: the input tensor, eps=0, normalized_shape=3, dims, dtype=torch.float32, the '0' of 'std=0' in the thread title",
    }
    return meta, specs


DOCS = [doc_e1, doc_e2, doc_e3, doc_e4, doc_e5, doc_e6, doc_e7]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
