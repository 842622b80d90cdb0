"""Independent true values for the English (en_) first-contact documents of round 12.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is read
as an exact decimal.  Every listed number is located in its document programmatically (an
anchor string on its line + the index of the numeric token on that line), the literal is
asserted to stand at that line/column (1-based, counted in characters), its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and its
status is re-derived: "ok" iff the truth rounded half away from zero at the printed number of
places equals the literal.  An integer literal is compared exactly with an exact (rational)
truth; approximate integer claims ("~10M", "10x") get an mpf truth so that they are rounded.
Wrong numbers carry a kind: "slip" (fresh error), "carried" (correct arithmetic from, or a
repetition of, an earlier wrong printed number; "carried_from" gives its line), "rounding"
(truncated instead of rounded), "rounding-carried" (right only by the document's own rounded
intermediates), "convention" (right under a different convention than the document's).

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


def rounds_to(claimed, v):
    """True iff the literal `claimed` is v rounded half away from zero at its printed places.
    An integer literal is compared exactly with an exact (rational) truth."""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    exp = 0
    m = re.match(r'^(.*?)[eE]([-+]?\d+)$', lit)
    if m:
        lit, exp = m.group(1), int(m.group(2))
    if lit.endswith('.'):
        lit = lit[:-1]
    places = len(lit.split('.')[1]) if '.' in lit else 0
    digits = int(lit.replace('.', ''))          # literal = digits * 10^(exp - places)
    shift = places - exp
    if places == 0 and exp == 0 and is_exact(v):
        return Fraction(v) == Fraction(digits)
    if is_exact(v):
        q = Fraction(v) * Fraction(10) ** shift
        n = (abs(q) + Fraction(1, 2)).__floor__()
        n = n if q >= 0 else -n
        return n == digits
    q = mpf(v) * mpf(10) ** shift
    n = int(mpmath.floor(abs(q) + mpf('0.5')))
    n = n if q >= 0 else -n
    return n == digits


class Spec:
    def __init__(self, label, anchor, ntok, entries):
        self.label, self.anchor, self.ntok, self.entries = label, anchor, ntok, entries


def S(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what):
    return dict(idx=idx, truth=truth, what=what, status='ok', kind=None, cf=None)


def W(idx, truth, what, kind, cf=None):
    return dict(idx=idx, truth=truth, what=what, status='wrong', kind=kind, cf=cf)


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
        good = rounds_to(text, e['truth'])
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
        print("%-52s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0





def auto(idx, truth, what, kind='slip', cf=None):
    """entry whose status is decided by the literal (resolved by resolve())"""
    return dict(idx=idx, truth=truth, what=what, status='auto', kind=kind, cf=cf)


def resolve(lines_doc, specs):
    for sp, found, toks in locate(lines_doc, specs, '?'):
        new = []
        for e in sp.entries:
            if e['status'] == 'auto':
                e = dict(e)
                if rounds_to(toks[e['idx']][0], e['truth']):
                    e['status'], e['kind'], e['cf'] = 'ok', None, None
                else:
                    e['status'] = 'wrong'
            new.append(e)
        sp.entries = tuple(new)
    return specs


def doclines(name):
    return open(os.path.join(HERE, name), encoding='utf-8').read().split('\n')


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


# ---------------------------------------------------------------------------
# Document E1: Hashnode post "Building LLM's From Scratch": PE, Q, masked attention, FFN
# ---------------------------------------------------------------------------
def doc_e1():
    name = "en_building_llms_from_scratch_cat_sat_walkthrough.md"
    ln = mpmath.log(10000)
    c = -ln / 4
    f1 = mpmath.exp(2 * c)
    pe = [[mpmath.sin(p), mpmath.cos(p), mpmath.sin(p * f1), mpmath.cos(p * f1)] for p in range(5)]
    specs = [
        S('c', '# -(math.log(10000.0) / 4) = -2.302', 3,
          W(2, c, "-ln(10000)/4 = %s (rounds to -2.303; -2.302 is the truncation)" % mp.nstr(c, 8), 'rounding')),
        S('c2', '# torch.exp([0, 2] * -2.302)', 7,
          W(2, c, "-ln(10000)/4 restated", 'carried', 'c'), E(4, 2 * c, "2 x (-ln(10000)/4) = %s" % mp.nstr(2 * c, 8)),
          E(5, 1, "exp(0)"), E(6, f1, "exp(-ln(10000)/2) = 0.01")),
        S('dt', '^div_term = [1.0, 0.01]', 2, E(0, 1, "div_term[0]"), E(1, f1, "div_term[1]")),
        S('p00', 'pe[0, 0] = sin(0 * 1.0)', 6, E(3, 1, "div_term restated"), E(5, 0, "sin 0")),
        S('p02', 'pe[0, 2] = sin(0 * 0.01)', 6, E(3, f1, "div_term restated"), E(5, 0, "sin 0")),
        S('p01', 'pe[0, 1] = cos(0 * 1.0)', 6, E(3, 1, "div_term restated"), E(5, 1, "cos 0")),
        S('p03', 'pe[0, 3] = cos(0 * 0.01)', 6, E(3, f1, "div_term restated"), E(5, 1, "cos 0")),
        S('pe0', '# Position 0 encoding: [0.0, 1.0, 0.0, 1.0]', 5, E(1, 0, "PE(0)"), E(2, 1, "PE(0)"), E(3, 0, "PE(0)"), E(4, 1, "PE(0)")),
        S('p10', 'pe[1, 0] = sin(1 * 1.0)', 6, E(3, 1, "div_term restated"), E(5, pe[1][0], "sin 1 = %s" % mp.nstr(pe[1][0], 6))),
        S('p12', 'pe[1, 2] = sin(1 * 0.01)', 6, E(3, f1, "div_term restated"), E(4, f1, "1 x 0.01"), E(5, pe[1][2], "sin 0.01 = %s" % mp.nstr(pe[1][2], 6))),
        S('p11', 'pe[1, 1] = cos(1 * 1.0)', 6, E(3, 1, "div_term restated"), E(5, pe[1][1], "cos 1 = %s" % mp.nstr(pe[1][1], 6))),
        S('p13', 'pe[1, 3] = cos(1 * 0.01)', 6, E(3, f1, "div_term restated"), E(4, f1, "1 x 0.01"),
          W(5, pe[1][3], "cos 0.01 = %s (rounds to 1.0000; 0.9999 is the truncation)" % mp.nstr(pe[1][3], 10), 'rounding')),
        S('pe1', '# Position 1 encoding: [0.841, 0.540, 0.01, 0.9999]', 5,
          E(1, pe[1][0], "sin 1"), E(2, pe[1][1], "cos 1"), E(3, pe[1][2], "sin 0.01"), W(4, pe[1][3], "cos 0.01 restated", 'carried', 'p13')),
    ]
    # PE matrix rows (5D): statuses decided against the truth; 0.999 / -0.989 / -0.756 are truncations
    def pe_row(label, anchor, ntok, p, off=0, cf=None):
        ents = []
        for k in range(4):
            t = pe[p][k]
            what = "PE(%d)[%d] = %s" % (p, k, mp.nstr(t, 8))
            ents.append(auto(off + k, t, what, 'carried' if cf else 'rounding', cf[k] if cf else None))
        return S(label, anchor, ntok, *ents)
    specs += [
        pe_row('m0', '[0.000, 1.000, 0.000, 1.000],  # Position 0', 5, 0),
        pe_row('m1', '[0.841, 0.540, 0.010, 0.999],  # Position 1  ', 5, 1),
        pe_row('m2', '[0.909, -0.416, 0.020, 0.999], # Position 2', 5, 2),
        pe_row('m3', '[0.141, -0.989, 0.030, 0.999], # Position 3', 5, 3),
        pe_row('m4', '[-0.756, -0.654, 0.040, 0.999] # Position 4', 5, 4),
        pe_row('a0', '[0.000, 1.000, 0.000, 1.000],  # Position 0', 5, 0, cf=['m0'] * 4),
        pe_row('a1', '[0.841, 0.540, 0.010, 0.999],  # Position 1', 5, 1, cf=['m1'] * 4),
        pe_row('a2', '[0.909, -0.416, 0.020, 0.999]  # Position 2', 5, 2, cf=['m2'] * 4),
    ]
    emb = [[D('0.1'), D('0.2'), D('0.3'), D('0.4')], [D('0.5'), D('0.6'), D('0.7'), D('0.8')], [D('0.9'), D('1.0'), D('1.1'), D('1.2')]]
    cfm = {0: 'm0', 1: 'm1', 2: 'm2'}
    for p, a in enumerate(['[0.1+0.000, 0.2+1.000', '[0.5+0.841, 0.6+0.540', '[0.9+0.909, 1.0-0.416']):
        ents = []
        for k in range(4):
            t = abs(pe[p][k]) if (p == 2 and k == 1) else pe[p][k]
            ents.append(auto(2 * k + 1, t, "PE(%d)[%d] restated (magnitude after a binary minus)" % (p, k) if (p == 2 and k == 1) else "PE(%d)[%d] restated" % (p, k), 'carried', cfm[p]))
            s = M(emb[p][k]) + pe[p][k]
            ents.append(auto(8 + k, s, "embedding + PE = %s" % mp.nstr(s, 8), 'carried', cfm[p]))
        specs.append(S('f%d' % p, a, 12, *ents))
    for p, a in enumerate(['Position 0: ||||', 'Position 1: ||||', 'Position 2: ||||', 'Position 3: |||', 'Position 4:  ||']):
        specs.append(S('b%d' % p, a, 5, *[auto(1 + k, pe[p][k], "PE(%d)[%d] restated" % (p, k), 'carried', 'm%d' % p) for k in range(4)]))
    specs.append(S('dk', 'self.d_k = d_model // num_heads # 16', 4, E(0, Fraction(128, 8), "128 // 8"), E(3, Fraction(128, 8), "128/8")))
    Wq = [[D('0.1'), D('0.2'), D('0.3'), D('0.4')], [D('0.2'), D('0.3'), D('0.4'), D('0.5')], [D('0.3'), D('0.4'), D('0.5'), D('0.6')], [D('0.4'), D('0.5'), D('0.6'), D('0.7')]]
    Q = matmul(emb, Wq)
    for i, a in enumerate(['Q = [[0.3, 0.4, 0.5, 0.6],   # Query', '[0.7, 0.8, 0.9, 1.0],   # Query for "cat"', '[1.1, 1.2, 1.3, 1.4]]   # Query for "sat"']):
        specs.append(S('q%d' % i, a, 4, *[auto(k, Q[i][k], "(input_embeddings @ W_q)[%d][%d] = %s" % (i, k, Q[i][k]) ) for k in range(4)]))
    q2 = [[D('0.1'), D('0.2')], [D('0.3'), D('0.4')], [D('0.5'), D('0.6')]]
    k2 = [[D('0.2'), D('0.1')], [D('0.4'), D('0.3')], [D('0.6'), D('0.5')]]
    SC = [[q2[i][0] * k2[j][0] + q2[i][1] * k2[j][1] for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    ss = [[M(SC[i][j]) / r2 for j in range(3)] for i in range(3)]
    for i, a in enumerate(['scores = [[0.04, 0.10, 0.16]', '[0.10, 0.21, 0.38],   # How much "cat"', '[0.16, 0.38, 0.60]]   # How much "sat"']):
        specs.append(S('s%d' % i, a, 3, *[auto(j, SC[i][j], "q_%d . k_%d = %s" % (i, j, SC[i][j])) for j in range(3)]))
    specs.append(S('r2', 'scores = scores / math.sqrt(2) = scores / 1.414', 2, E(1, r2, "sqrt(2)")))
    for i, a in enumerate(['scores = [[0.028, 0.071, 0.113]', '[0.071, 0.148, 0.269], ', '[0.113, 0.269, 0.424]]']):
        specs.append(S('t%d' % i, a, 3, *[auto(j, ss[i][j], "score / sqrt2 = %s" % mp.nstr(ss[i][j], 6), 'carried', 's1') for j in range(3)]))
    for i, (a, n) in enumerate([('masked_scores = [[0.028,', 1), ('[0.071, 0.148,  -∞  ],', 2), ('[0.113, 0.269, 0.424]]', 3)]):
        specs.append(S('u%d' % i, a, n, *[auto(j, ss[i][j], "scaled score restated", 'carried', 's1') for j in range(n)]))
    w1 = softmax(ss[1][:2])
    w2 = softmax(ss[2])
    specs += [
        S('w0', 'attention_weights = [[1.0,   0.0,   0.0 ]', 4, E(0, 1, "only visible key"), E(1, 0, "masked"), E(2, 0, "masked"), E(3, 100, "100 %")),
        S('w1', '[0.481, 0.519, 0.0 ],   # "cat" pays 48%', 5,
          W(0, w1[0], "softmax([0.070711, 0.169706])[0] = %s; 0.481 is the softmax of the wrong 0.071/0.148" % mp.nstr(w1[0], 6), 'carried', 's1'),
          W(1, w1[1], "softmax(...)[1] = %s" % mp.nstr(w1[1], 6), 'carried', 's1'),
          E(2, 0, "masked"),
          auto(3, 100 * w1[0], "percent on 'the' = %s" % mp.nstr(100 * w1[0], 5), 'carried', 's1'),
          auto(4, 100 * w1[1], "percent on 'cat' = %s" % mp.nstr(100 * w1[1], 5), 'carried', 's1')),
        S('w2', '[0.307, 0.340, 0.353]]  # "sat" pays', 3,
          *[W(j, w2[j], "softmax([0.113137, 0.268701, 0.424264])[%d] = %s" % (j, mp.nstr(w2[j], 6)), 'slip') for j in range(3)]),
    ]
    V = [[D('0.1'), D('0.3')], [D('0.2'), D('0.4')], [D('0.5'), D('0.7')]]
    o1 = [w1[0] * M(V[0][c]) + w1[1] * M(V[1][c]) for c in range(2)]
    o2 = [sum(w2[j] * M(V[j][c]) for j in range(3)) for c in range(2)]
    specs += [
        S('o0', '# For "the": 1.0*[0.1,0.3]', 11, E(0, 1, "weight restated"), E(3, 0, "weight restated"), E(6, 0, "weight restated"),
          E(9, V[0][0], "output 'the'[0]"), E(10, V[0][1], "output 'the'[1]")),
        S('o1', '# For "cat": 0.481*[0.1,0.3]', 11,
          W(0, w1[0], "weight restated (true 0.4753)", 'carried', 's1'), W(3, w1[1], "weight restated (true 0.5247)", 'carried', 's1'),
          E(6, 0, "masked weight"),
          auto(9, o1[0], "output 'cat'[0] = %s (the printed weights give 0.1519)" % mp.nstr(o1[0], 6)),
          auto(10, o1[1], "output 'cat'[1] = %s; the printed weights give 0.3519, so 0.351 is wrong on its own numbers too" % mp.nstr(o1[1], 6))),
        S('o2', '# For "sat": 0.307*[0.1,0.3]', 11,
          *[W(3 * j, w2[j], "weight restated (true %s)" % mp.nstr(w2[j], 4), 'carried', 'w2') for j in range(3)],
          W(9, o2[0], "output 'sat'[0] = %s (the printed weights give 0.2752)" % mp.nstr(o2[0], 6), 'slip'),
          W(10, o2[1], "output 'sat'[1] = %s (the printed weights give 0.4752)" % mp.nstr(o2[1], 6), 'slip')),
        S('oo0', 'output = [[0.1,   0.3  ],', 2, E(0, V[0][0], "output restated"), E(1, V[0][1], "output restated")),
        S('oo1', '[0.152, 0.351],    # Updated', 2, auto(0, o1[0], "output restated"), auto(1, o1[1], "output restated (true 0.3525)", 'carried', 'o1')),
        S('oo2', '[0.276, 0.565]]    # Updated', 2, W(0, o2[0], "output restated (true 0.2876)", 'carried', 'o2'), W(1, o2[1], "output restated (true 0.4876)", 'carried', 'o2')),
        S('x4h', '### **Step 7C: Why 4x Expansion?**', 2, E(1, Fraction(512, 128), "d_ff / d_model")),
        S('x4', 'd_ff = 512       # Hidden dimension (4x larger)', 2, E(1, Fraction(512, 128), "512 / 128")),
    ]
    x = [D('0.3'), D('0.5'), D('-0.2'), D('0.8')]
    W1 = [[D(s) for s in r.split()] for r in ['0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8', '0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9', '0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0', '0.4 0.5 0.6 0.7 0.8 0.9 1.0 1.1']]
    h = matmul([x], W1)[0]
    drop = [D(s) for s in '0.5 0.0 1.1 1.4 0.0 2.0 2.3 0.0'.split()]
    W2 = [[D(s) for s in r.split()] for r in ['0.1 0.2 0.3 0.4', '0.2 0.3 0.4 0.5', '0.3 0.4 0.5 0.6', '0.4 0.5 0.6 0.7', '0.5 0.6 0.7 0.8', '0.6 0.7 0.8 0.9', '0.7 0.8 0.9 1.0', '0.8 0.9 1.0 1.1']]
    fo = matmul([drop], W2)[0]
    vals = [D(s) for s in '-1.0 -0.5 0.0 0.5 1.0 1.5'.split()]
    specs += [
        S('h', 'expanded = input_sat @ W1 = [0.5', 9, *[W(1 + k, h[k], "([0.3, 0.5, -0.2, 0.8] @ W1)[%d] = %s" % (k, h[k]), 'slip') for k in range(8)]),
        S('hr', 'activated = relu(expanded) = [0.5', 8, *[W(k, max(h[k], 0), "ReLU(expanded)[%d] = %s (repeats the wrong expansion)" % (k, h[k]), 'carried', 'h') for k in range(8)]),
        S('fo', 'final_output = after_dropout @ W2 = [1.2', 5, *[W(1 + k, fo[k], "(after_dropout @ W2)[%d] = %s" % (k, fo[k]), 'slip') for k in range(4)]),
        S('relu', '# Result: [0.0, 0.0, 0.0, 0.5, 1.0, 1.5]', 6, *[E(k, max(vals[k], 0), "max(0, %s)" % vals[k]) for k in range(6)]),
        S('pa1', 'linear1_params = d_model * d_ff = 128 * 512 = 65,536', 4, E(3, 128 * 512, "128 x 512")),
        S('pa2', 'linear2_params = d_ff * d_model = 512 * 128 = 65,536', 4, E(3, 512 * 128, "512 x 128")),
        S('pa3', 'total_ff_params = 131,072', 1, E(0, 2 * 128 * 512, "sum")),
        S('pa4', '# Much bigger than attention: ~131K vs ~65K parameters', 2,
          E(0, mpf(131072) / 1000, "FFN weights in thousands"),
          W(1, mpf(4 * 128 * 128) / 1000, "attention weights 4 d_model^2 = 65,536 = 65.5K, which rounds to 66K (65K is the truncation)", 'rounding')),
    ]
    specs = resolve(doclines(name), specs)
    meta = {
        "doc": name,
        "source": "GitHub Markdown export of a Hashnode blog post 'Building LLM's From Scratch' (front matter datePublished Tue Jul 01 2025, slug building-llms-from-scratch--deleted; steps 1-10 of a word-level GPT trained on Alice in Wonderland); the search index did not expose the repository name (stored file id 29619233599, 84,802 characters). Kept: from Step 5 the sub-steps 5C, 5D, 5E and 5G; from Step 6 the class header with its d_k comment, 6D (Q = input @ W_q) and 6G (scores, scaling, causal mask, softmax, output); from Step 7 the sizes of 7C, 7D, the relu_example of 7F and the parameter count of 7I; all code blocks verbatim, connecting prose reworded. Dropped: steps 1-4 (setup, download, tokenizer, dataset), 5A/5B/5F/5H-5J, 6A-6C, 6E/6F, 6H-6K, 7A/7B/7E/7G/7H/7J and everything after step 7",
        "source_kind": "blog post (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Python code blocks with comment-arithmetic ('# -(math.log(10000.0) / 4) = -2.302', 'pe[1, 3] = cos(1 * 0.01) = cos(0.01) = 0.9999'), nested lists as matrices, inline sums '[0.5+0.841, 0.6+0.540, ...] = [1.341, ...]', '-∞' in masked score lists, percentages in comments ('pays 48% to \"the\"'), an ASCII barcode figure with tuples, thousands separators '65,536' and '~131K vs ~65K'",
        "conventions": "PE(pos, 2i) = sin(pos·10000^(-2i/4)), PE(pos, 2i+1) = cos(...), so the frequencies are 1 and exactly 0.01. -ln(10000)/4 = -2.302585 (the printed -2.302 is a truncation; -4.605 is right). Truncations instead of rounding in the PE tables: cos(0.01) = 0.99995000 (→ 1.0000, printed 0.9999; at 3 places → 1.000, printed 0.999), cos(0.02) = 0.999800 and cos(0.03) = 0.999550 (→ 1.000, printed 0.999), cos 3 = -0.989992 (→ -0.990, printed -0.989), sin 4 = -0.756802 (→ -0.757, printed -0.756); their restatements and the sums 1.799 (true 1.79995) and 2.199 (true 2.19980) are carried. Q = input_embeddings @ W_q is [[0.30, 0.40, 0.50, 0.60], [0.70, 0.96, 1.22, 1.48], [1.10, 1.52, 1.94, 2.36]]: six printed entries are slips. The one-head example: QK^T has 0.24 (not 0.21) at (cat, cat); the scaled 0.148 and its restatement are carried (true 0.169706), as are the softmax weights 0.481/0.519 (true 0.475271/0.524729; 48% and 52% still round right). The 'sat' row softmax is [0.283023, 0.330661, 0.386316]: all printed weights are slips. Outputs: cat [0.152473, 0.352473] (0.351 is wrong even from the printed weights), sat [0.287593, 0.487593] (slips). FFN: [0.3, 0.5, -0.2, 0.8] @ W1 = [0.39, 0.53, 0.67, 0.81, 0.95, 1.09, 1.23, 1.37] and after_dropout @ W2 = [3.75, 4.48, 5.21, 5.94]: every printed value is a slip, and the ReLU line repeats the wrong expansion. The attention block has 4·128² = 65,536 weights (65.5K → 66K; '~65K' is a truncation). Not listed: the word embeddings, W_q, the one-head Q/K/V, the causal mask, W1, W2, the dropout example, shapes, d_model = 128, d_ff = 512, num_heads 8, step numbers and the tensor printout [[0.], [1.], ...]",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E2: "Tutorial 02: Attention Mechanism", three tokens, identity-like Q/K
# ---------------------------------------------------------------------------
def doc_e2():
    name = "en_tutorial02_attention_three_token_example.md"
    Q = [[1, 0], [0, 1], [1, 1]]
    K = [[1, 0], [0, 1], [1, 1]]
    V = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    SC = [[Q[i][0] * K[j][0] + Q[i][1] * K[j][1] for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    ss = [[M(SC[i][j]) / r2 for j in range(3)] for i in range(3)]
    w = [softmax(ss[i]) for i in range(3)]
    out = [[sum(w[i][j] * V[j][c] for j in range(3)) for c in range(3)] for i in range(3)]
    out[0] = [Fraction(4), Fraction(5), Fraction(6)]   # exact: the row weights are (a, b, a) with 2a + b = 1
    specs = []
    for i, a in enumerate(['= [[1, 0, 1],', '[0, 1, 1],', '[1, 1, 2]]']):
        specs.append(S('s%d' % i, '^     ' + a if i == 0 else '^        ' + a, 3, *[E(j, SC[i][j], "q_%d . k_%d" % (i, j)) for j in range(3)]))
    specs.append(S('r2', '### Step 2: Scale by √d_k = √2 ≈ 1.414', 3, E(2, r2, "sqrt(2)")))
    for i, a in enumerate(['Scaled = [[0.71, 0.00, 0.71],', '[0.00, 0.71, 0.71],', '[0.71, 0.71, 1.41]]']):
        specs.append(S('t%d' % i, a, 3, *[E(j, ss[i][j], "score / sqrt2 = %s" % mp.nstr(ss[i][j], 6)) for j in range(3)]))
    for i, a in enumerate(['Weights ≈ [[0.38, 0.24, 0.38],', '[0.21, 0.39, 0.39],', '[0.26, 0.26, 0.48]]']):
        specs.append(S('w%d' % i, a, 3, *[auto(j, w[i][j], "softmax row %d entry %d = %s" % (i, j, mp.nstr(w[i][j], 6))) for j in range(3)]))
    specs.append(S('one', 'Every row adds up to 1.0.', 1, E(0, 1, "row sum of softmax weights")))
    pw = [[D('0.38'), D('0.24'), D('0.38')], [D('0.21'), D('0.39'), D('0.39')], [D('0.26'), D('0.26'), D('0.48')]]
    for i, a in enumerate(['≈ [[4.3, 5.3, 6.3],', '[5.5, 6.5, 7.5],', '[5.7, 6.7, 7.7]]']):
        pout = [sum(pw[i][j] * V[j][c] for j in range(3)) for c in range(3)]
        specs.append(S('o%d' % i, a, 3, *[W(c, out[i][c], "(weights @ V)[%d][%d] = %s; even the printed weights give %s" % (i, c, truth_str(out[i][c]) if is_exact(out[i][c]) else mp.nstr(out[i][c], 6), pout[c]), 'slip') for c in range(3)]))
    specs = resolve(doclines(name), specs)
    meta = {
        "doc": name,
        "source": "GitHub Markdown tutorial '# Tutorial 02: Attention Mechanism' of a numbered Transformer tutorial series (links '../01_introduction/' and '../03_multi_head_attention/', refers to implementation.py and example.py); the search index did not expose the repository name (stored file id 210612614). Kept: overview, intuition, formula, components, the four steps (condensed into one code block), the whole 'Mathematical Example' with its five code blocks verbatim, the masking snippet and three of the practice questions; prose reworded. Dropped: batch-processing shapes, the ASCII heat map, key properties, common pitfalls, question 3 of the practice list, code pointers and navigation",
        "source_kind": "tutorial (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text matrices in code blocks with nested brackets, products written '1×1 + 0×0', '√d_k = √2 ≈ 1.414' in a heading, 'Weights ≈ [[...]]' and 'Output = Weights @ V ≈ [[...]]', complexity 'O(n²d)'",
        "conventions": "Scaled scores use the exact √2 (0.707107 and 1.414214; the printed 2-decimal values are right). Row-wise softmax: row 1 = [0.401112, 0.197776, 0.401112], row 2 = [0.197776, 0.401112, 0.401112], row 3 = [0.248255, 0.248255, 0.503490]; all nine printed weights are slips (row 1 sums to 1.00 but is not the softmax). Output = Weights @ V: row 1 is exactly [4, 5, 6] (its weights have the form (a, b, a) with 2a + b = 1), row 2 = [4.610009, 5.610009, 6.610009], row 3 = [4.765704, 5.765704, 6.765704]; all printed outputs are slips, and none of them follows even from the printed weights (those give [4.0, 5.0, 6.0], [4.5, 5.49, 6.48], [4.66, 5.66, 6.66]). Not listed: Q, K, V, d_k = 2, d_v = 3, the products inside the QK^T expansion, question numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E3: manim lesson scene, "Numerical Example" 2x2 attention in MathTex strings
# ---------------------------------------------------------------------------
def doc_e3():
    name = "en_manim_attention_scene_numerical_example.md"
    Q = [[D('1.0'), D('0.5')], [D('0.2'), D('1.5')]]
    K = [[D('0.8'), D('0.3')], [D('1.2'), D('0.7')]]
    V = [[D('2.0'), D('1.0')], [D('0.5'), D('3.0')]]
    S_ = [[Q[i][0] * K[j][0] + Q[i][1] * K[j][1] for j in range(2)] for i in range(2)]
    r2 = mpmath.sqrt(2)
    sc = [[M(S_[i][j]) / r2 for j in range(2)] for i in range(2)]
    A = [softmax(sc[i]) for i in range(2)]
    out = [[A[i][0] * M(V[0][c]) + A[i][1] * M(V[1][c]) for c in range(2)] for i in range(2)]
    flat = [S_[0][0], S_[0][1], S_[1][0], S_[1][1]]
    fsc = [sc[0][0], sc[0][1], sc[1][0], sc[1][1]]
    fA = [A[0][0], A[0][1], A[1][0], A[1][1]]
    fo = [out[0][0], out[0][1], out[1][0], out[1][1]]
    specs = [
        S('qk', r'r"QK^T = \begin{pmatrix} 1.0 & 0.5', 12, *[E(8 + k, flat[k], "QK^T entry %d = %s" % (k, flat[k])) for k in range(4)]),
        S('r2', 'Text("Step 2: Scale by √d_k = √2 ≈ 1.41"', 3, E(2, r2, "sqrt(2)")),
        S('sc', r"\frac{1}{1.41}", 10, E(1, r2, "sqrt(2)"), *[E(2 + k, flat[k], "QK^T restated") for k in range(4)],
          *[E(6 + k, fsc[k], "QK^T / sqrt2 = %s" % mp.nstr(fsc[k], 6)) for k in range(4)]),
        S('sm', r"A = \text{softmax}(S')", 4, *[auto(k, fA[k], "softmax row %d entry %d = %s" % (k // 2, k % 2, mp.nstr(fA[k], 6))) for k in range(4)]),
        S('out', r'r"\text{Output} = AV', 12,
          *[auto(k, fA[k], "A restated (true %s)" % mp.nstr(fA[k], 4), 'carried', 'sm') for k in range(4)],
          *[auto(8 + k, fo[k], "(AV) entry %d = %s" % (k, mp.nstr(fo[k], 6)), 'carried', 'sm') for k in range(4)]),
    ]
    specs = resolve(doclines(name), specs)
    meta = {
        "doc": name,
        "source": "GitHub Python file of manim scenes for a lesson on attention (Scene classes with title_block helpers, e.g. Scene_AttentionVisualization; the self-attention scene ends with 'Part 6: Numerical example with concrete values'); the search index did not expose the repository name (stored file id 65812584605, 78,879 characters). Kept: the code of Part 6 verbatim (title, input matrices and the four steps with their MathTex strings) except the layout/animation lines after the step definitions and two positioning lines; the two sentences around the code are mine. Dropped: all other parts and scenes (the later scenes only hold illustrative weight lists such as [0.05, 0.1, 0.2, ...] that are not computed)",
        "source_kind": "animation source code (GitHub Python, manim)",
        "language": "en",
        "errors_as_published": True,
        "notation": "LaTeX inside Python raw strings: \\begin{pmatrix} ... \\end{pmatrix} with & and \\\\, \\frac{1}{1.41}, \\text{softmax}(S'); manim Matrix([[\"1.0\", \"0.5\"], ...]) with the numbers as strings; Text(\"Step 2: Scale by √d_k = √2 ≈ 1.41\")",
        "conventions": "QK^T multiplies Q by the transpose of k_vals (the MathTex shows K^T = [[0.8, 1.2], [0.3, 0.7]]): [[0.95, 1.55], [0.61, 1.29]] exactly. Scaling uses the exact √2 (the printed 1/1.41 gives the same 2-decimal results): [[0.671751, 1.096016], [0.431335, 0.912168]]. softmax row 1 = [0.395497, 0.604503]: the printed 0.35/0.65 are slips; row 2 = [0.382056, 0.617944] is printed correctly. AV with the true A = [[1.093245, 2.209006], [1.073083, 2.235889]]: 1.03 and 2.30 are carried (they are right for the printed 0.35/0.65), 1.07 and 2.24 are right. Not listed: the Q, K, V strings and their restatement as K^T, scale factors (0.6, 0.7, 0.8, 0.9) and buff values of the manim calls, step numbers, '2×2'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E4: exam cheat sheet, Transformer worked examples and quick numerical examples
# ---------------------------------------------------------------------------
def doc_e4():
    name = "en_exam_cheatsheet_attention_numeric_examples.md"
    X = [[1, 0], [0, 1], [1, 1]]
    SC = [[X[i][0] * X[j][0] + X[i][1] * X[j][1] for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    ss = [[M(SC[i][j]) / r2 for j in range(3)] for i in range(3)]
    w = [softmax(ss[i]) for i in range(3)]
    out = [[sum(w[i][j] * X[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    f = lambda A: [x for r in A for x in r]
    ex = [mpmath.exp(k) for k in (1, 2, 3)]
    tot = sum(ex)
    p = [e / tot for e in ex]
    blk = mpf(12 * 768 ** 2) / 10 ** 6
    emb = mpf(30000 * 768) / 10 ** 6
    specs = [
        S('s', '`[[1,0,1], [0,1,1], [1,1,2]]`', 9, *[E(k, f(SC)[k], "X X^T entry %d" % k) for k in range(9)]),
        S('r2', '**Step 2 — scale by `√d_k = √2 ≈ 1.414`:**', 3, E(2, r2, "sqrt(2)")),
        S('t', '`[[0.71, 0, 0.71], [0, 0.71, 0.71], [0.71, 0.71, 1.41]]`', 9, *[E(k, f(ss)[k], "score / sqrt2 = %s" % mp.nstr(f(ss)[k], 6)) for k in range(9)]),
        S('w', '`[[0.40, 0.20, 0.40], [0.20, 0.40, 0.40]', 9, *[E(k, f(w)[k], "softmax weight = %s" % mp.nstr(f(w)[k], 6)) for k in range(9)]),
        S('o', '`[[0.80, 0.60], [0.60, 0.80], [0.75, 0.75]]`', 6, *[E(k, f(out)[k], "(weights V) entry = %s" % mp.nstr(f(out)[k], 6)) for k in range(6)]),
        S('rd', 'MHA total = 1,048,576', 5, E(3, Fraction(1048576, 4), "1,048,576 / 4"), E(4, 512, "sqrt(262,144)")),
        S('bert', 'BERT-base block: `12·768² ≈ 7.08M`', 9,
          E(2, blk, "12 x 768^2 = 7,077,888 in millions"), E(4, 12 * blk, "12 blocks = %s M" % mp.nstr(12 * blk, 6)),
          E(7, emb, "30,000 x 768 = 23,040,000 in millions"), E(8, 12 * blk + emb, "total = %s M" % mp.nstr(12 * blk + emb, 6))),
        S('ce', '- `L = -log(p_true) = -log(0.7) ≈ 0.357`', 4,
          E(1, -mpmath.log(mpf('0.7')), "-ln 0.7"), E(3, -mpmath.log(mpf('0.1')), "-ln 0.1")),
        S('ex', '- `e^1=2.72, e^2=7.39, e^3=20.09`. Sum = 30.20.', 7,
          E(1, ex[0], "e"), E(3, ex[1], "e^2"), E(5, ex[2], "e^3"),
          W(6, tot, "e + e^2 + e^3 = %s (30.20 is the sum of the rounded 2.72 + 7.39 + 20.09)" % mp.nstr(tot, 8), 'rounding-carried')),
        S('sm', '- Output = `[2.72/30.20', 10,
          E(0, ex[0], "e restated"), W(1, tot, "sum restated (true 30.1929)", 'carried', 'ex'),
          E(2, ex[1], "e^2 restated"), W(3, tot, "sum restated (true 30.1929)", 'carried', 'ex'),
          E(4, ex[2], "e^3 restated"), W(5, tot, "sum restated (true 30.1929)", 'carried', 'ex'),
          *[E(6 + k, p[k], "softmax([1,2,3])[%d] = %s" % (k, mp.nstr(p[k], 6))) for k in range(3)],
          E(9, 1, "sum of the probabilities")),
        S('emb', '**Embedding params:**', 5, E(4, mpf(30000 * 512) / 10 ** 6, "30,000 x 512 = 15,360,000 in millions")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown exam reference for a deep-learning course (topic pages on RNN/LSTM, CNN, U-Net, GAN and Transformers, then 'QUICK NUMERICAL EXAMPLES', a 'QUICK-REFERENCE FORMULA BANK' and a 'DECISION TABLE'; 35,959 characters); the search index did not expose the repository name (stored file id 56727690229). Kept: from the Transformer page 'How multi-head attention works' (reworded), the FFN block, the parameter-count table, the 3-token worked example and the reverse-derivation example verbatim; from the quick examples the cross-entropy, softmax-by-hand and embedding-parameter items verbatim. Dropped: all non-Transformer topics (including the LSTM and Conv2d quick examples), the √d_k variance argument, encoder/decoder wiring, PE/training/code blocks without worked numbers, the concept-term list, the formula bank and decision table, and the table line 'BERT-base: d=768, h=12, N=12, V≈30k → ~110M' (it quotes the published BERT size, not a computation)",
        "source_kind": "exam cheat sheet (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "inline code spans with nested lists '`[[0.40, 0.20, 0.40], ...]`', bold step headers with em dashes, '√d_k = √2 ≈ 1.414', arrows '→' for derivation chains, thousands separators and M suffixes ('1,048,576', '7.08M', '85M', '15.36M'), middle dots '4·d²', 'e^1=2.72'",
        "conventions": "X X^T with W = I; scaled scores with the exact √2; row softmax [0.401112, 0.197776, 0.401112], [0.197776, 0.401112, 0.401112], [0.248255, 0.248255, 0.503490]; output [[0.802224, 0.598888], [0.598888, 0.802224], [0.751745, 0.751745]], all printed correctly to 2 decimals. BERT-base: 12·768² = 7,077,888 ≈ 7.08M, ×12 = 84.93M ≈ 85M, 30,000·768 = 23.04M, total 107.97M ≈ 108M. Cross-entropy uses the natural log (-ln 0.7 = 0.356675, -ln 0.1 = 2.302585). Softmax by hand: e + e² + e³ = 30.192875, so 'Sum = 30.20' is right only as the sum of the rounded exponentials (rounding-carried) and its three restatements are carried; the probabilities [0.090031, 0.244728, 0.665241] are right. Not listed: formula coefficients (3·d², 4·d², 8·d², 12·d², 4·d_model), X, d_model = 2, d_k = 2, the given 1,048,576, 768, 12 blocks, 30k, p = [0.1, 0.7, 0.2], z = [1, 2, 3], V = 30,000, d = 512, shape labels 3×3",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E5: course lesson M4-L09, sinusoidal table and RoPE dot products by hand + lab output
# ---------------------------------------------------------------------------
def doc_e5():
    name = "en_positional_lesson_sinusoidal_rope_by_hand.md"
    f = Fraction(1, 100)
    sin, cos = mpmath.sin, mpmath.cos
    def pe(p):
        return [sin(p), cos(p), sin(M(p * f)), cos(M(p * f))]
    def rot(p):
        return [cos(p), sin(p), cos(M(p * f)), sin(M(p * f))]
    q2, k5, q12, k15 = rot(2), rot(5), rot(12), rot(15)
    t0 = cos(3)
    t1 = cos(mpf(3) / 100)
    tot = t0 + t1
    specs = [
        S('fr', 'Frequencies: `1/10000^(0/4) = 1.0`', 12, E(4, 1, "10000^0 = 1"), E(10, 100, "10000^(2/4)"), E(11, f, "1/100")),
        S('hdr', '| Position | `sin(pos×1)`', 4, E(2, f, "frequency restated"), E(3, f, "frequency restated")),
    ]
    for p, n in [(0, 5), (1, 5), (2, 5), (3, 5)]:
        specs.append(S('t%d' % p, '| %d | ' % p, n, *[E(1 + k, pe(p)[k], "PE(%d)[%d] = %s" % (p, k, mp.nstr(pe(p)[k], 8))) for k in range(4)]))
    specs += [
        S('pr', 'Pair 0 is rotated by `m × 1.0`, pair 1 by `m × 0.01`.', 4, E(3, f, "frequency restated")),
        S('a0', 'pair 0: [1,0] rotated by 2.00 rad', 8, E(3, 2, "m x 1.0"), E(4, 2, "angle restated"), E(5, 2, "angle restated"),
          E(6, q2[0], "cos 2"), E(7, q2[1], "sin 2")),
        S('a1', 'pair 1: [1,0] rotated by 0.02 rad', 8, E(3, 2 * f, "m x 0.01"), E(4, 2 * f, "angle restated"), E(5, 2 * f, "angle restated"),
          E(6, q2[2], "cos 0.02"), E(7, q2[3], "sin 0.02")),
        S('qr', 'q_rot = [−0.4161, 0.9093, 0.9998, 0.0200]', 4, *[E(k, q2[k], "q_rot restated") for k in range(4)]),
        S('b0', 'pair 0: [1,0] rotated by 5.00 rad', 6, E(3, 5, "n x 1.0"), E(4, k5[0], "cos 5 = %s" % mp.nstr(k5[0], 8)), E(5, k5[1], "sin 5 = %s" % mp.nstr(k5[1], 8))),
        S('b1', 'pair 1: [1,0] rotated by 0.05 rad', 6, E(3, 5 * f, "n x 0.01"), E(4, k5[2], "cos 0.05 = %s" % mp.nstr(k5[2], 8)), E(5, k5[3], "sin 0.05")),
        S('kr', 'k_rot = [ 0.2837, −0.9589, 0.9988, 0.0500]', 4, *[E(k, k5[k], "k_rot restated") for k in range(4)]),
        S('d0', 'pair 0: (−0.4161)(0.2837) + (0.9093)(−0.9589)', 8,
          E(1, q2[0], "restated"), E(2, k5[0], "restated"), E(3, q2[1], "restated"), E(4, k5[1], "restated"),
          W(5, q2[0] * k5[0], "cos2 cos5 = %s; even from the printed factors (-0.4161)(0.2837) = -0.11804757, which rounds to -0.1180" % mp.nstr(q2[0] * k5[0], 8), 'slip'),
          E(6, -(q2[1] * k5[1]), "|sin2 sin5| = %s (written after a minus sign)" % mp.nstr(-(q2[1] * k5[1]), 8)),
          E(7, t0, "cos(2 - 5) = cos 3 = %s" % mp.nstr(t0, 8))),
        S('d1', 'pair 1: ( 0.9998)(0.9988) + (0.0200)( 0.0500)', 8,
          E(1, q2[2], "restated"), E(2, k5[2], "restated"), E(3, q2[3], "restated"), E(4, k5[3], "restated"),
          E(5, q2[2] * k5[2], "cos0.02 cos0.05 = %s" % mp.nstr(q2[2] * k5[2], 8)), E(6, q2[3] * k5[3], "sin0.02 sin0.05 = %s" % mp.nstr(q2[3] * k5[3], 6)),
          E(7, t1, "cos 0.03 = %s" % mp.nstr(t1, 8))),
        S('dt', 'total  =  0.0096', 1, E(0, tot, "cos 3 + cos 0.03 = %s" % mp.nstr(tot, 8))),
        S('c0', '−0.9900 = cos(−3.00) = cos((m − n) × 1.0)', 3, E(0, t0, "pair-0 total restated"), E(1, -3, "(m - n) x 1.0")),
        S('c1', ' 0.9996 = cos(−0.03) = cos((m − n) × 0.01)', 3, E(0, t1, "pair-1 total restated"), E(1, -3 * f, "(m - n) x 0.01")),
        S('mn', 'only `m − n = −3` is left', 3, E(2, -3, "2 - 5")),
        S('ds', 'same distance of 3**', 3, E(2, 3, "|12 - 15|")),
        S('e0', 'pair 0: cos((12 − 15) × 1.0)', 6, E(4, -3, "(12 - 15) x 1.0"), E(5, t0, "cos(-3)")),
        S('e1', 'pair 1: cos((12 − 15) × 0.01)', 6, E(4, -3 * f, "(12 - 15) x 0.01"), E(5, t1, "cos(-0.03)")),
        S('et', 'total =  0.0096', 1, E(0, tot, "cos 3 + cos 0.03")),
        S('e5', 'at `m = 500`, `n = 503` it is 0.0096 once more', 3, E(2, tot, "distance -3 again")),
        S('ofr', "d_model = 4, frequencies = ['1.0000', '0.0100']", 3, E(1, 1, "frequency 0"), E(2, f, "frequency 1")),
        S('ohd', '    pos    sin(p*1)    cos(p*1)   sin(p*0.01)', 4, E(2, f, "frequency restated"), E(3, f, "frequency restated")),
    ]
    for p in range(4):
        specs.append(S('o%d' % p, '      %d      %s' % (p, ['0.0000', '0.8415', '0.9093', '0.1411'][p]), 5, *[E(1 + k, pe(p)[k], "PE(%d)[%d] printed by the lab" % (p, k)) for k in range(4)]))
    specs += [
        S('om', '  m =   2, n =   5   (distance -3)', 3, E(2, -3, "m - n")),
        S('oq', '    q_rot = [-0.4161  0.9093  0.9998  0.02  ]', 4, *[E(k, q2[k], "q_rot(m=2)[%d]" % k) for k in range(4)]),
        S('ok', '    k_rot = [ 0.2837 -0.9589  0.9988  0.05  ]', 4, *[E(k, k5[k], "k_rot(n=5)[%d]" % k) for k in range(4)]),
        S('op0', '    pair 0 contribution:   -0.9900', 4, E(1, t0, "q2 . k5 over pair 0"), E(2, -3, "m - n"), E(3, t0, "cos(-3)")),
        S('op1', '    pair 1 contribution:    0.9996', 4, E(1, t1, "pair 1"), E(2, -3 * f, "(m - n) x 0.01"), E(3, t1, "cos(-0.03)")),
        S('ot', '    total              :    0.0096', 1, E(0, tot, "total")),
        S('om2', '  m =  12, n =  15   (distance -3)', 3, E(2, -3, "m - n")),
        S('oq2', '    q_rot = [ 0.8439 -0.5366  0.9928  0.1197]', 4, *[E(k, q12[k], "q_rot(m=12)[%d] = %s" % (k, mp.nstr(q12[k], 8))) for k in range(4)]),
        S('ok2', '    k_rot = [-0.7597  0.6503  0.9888  0.1494]', 4, *[E(k, k15[k], "k_rot(n=15)[%d] = %s" % (k, mp.nstr(k15[k], 8))) for k in range(4)]),
        S('op02', '    pair 0 contribution:   -0.9900', 4, E(1, q12[0] * k15[0] + q12[1] * k15[1], "pair 0 at m=12, n=15"), E(2, -3, "m - n"), E(3, t0, "cos(-3)")),
        S('op12', '    pair 1 contribution:    0.9996', 4, E(1, q12[2] * k15[2] + q12[3] * k15[3], "pair 1 at m=12, n=15"), E(2, -3 * f, "(m - n) x 0.01"), E(3, t1, "cos(-0.03)")),
        S('ot2', '    total              :    0.0096', 1, E(0, tot, "total")),
        S('pc', '  learned absolute               8.4M', 3,
          E(0, mpf(2048 * 4096) / 10 ** 6, "2048 x 4096 in millions"), E(1, mpf(32768 * 4096) / 10 ** 6, "32768 x 4096 in millions"),
          E(2, mpf(131072 * 4096) / 10 ** 6, "131072 x 4096 in millions")),
        S('pz1', '  sinusoidal                        0', 3, *[E(k, 0, "no parameters") for k in range(3)]),
        S('pz2', '  RoPE                              0', 3, *[E(k, 0, "no parameters") for k in range(3)]),
        S('pz3', '  ALiBi                             0', 3, *[E(k, 0, "no parameters") for k in range(3)]),
        S('p537', '  537M parameters -- about 8% of a 7B model,', 3,
          E(0, mpf(131072 * 4096) / 10 ** 6, "131072 x 4096 in millions"), E(1, mpf(131072 * 4096) / (7 * 10 ** 9) * 100, "share of 7e9 in percent = 7.67")),
        S('rd', 'Section 1 re-derives §6.1 to four decimals.', 10, E(7, t0, "pair 0 restated"), E(8, t1, "pair 1 restated"), E(9, tot, "total restated")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown course lesson on positional encodings (lesson M4-L09 of an LLM course; it cites M4-L06 and its lab labs/m4/l09_positional.py, and its section 7.2 pastes the lab's '[EXECUTED]' output); the search index did not expose the repository name (stored file id 68512051675). Kept: section 6 (6.1 table and 6.2 RoPE dot products) with every code block and table verbatim, the lab output sections 1 (the table part), 2 (the two m/n blocks) and 6 (parameter cost) verbatim, and the first sentences of 7.3; prose reworded. Dropped: sections 1-5 of the lesson, the similarity-decay table of lab section 1 and the exhaustive 40-pair check with its max-deviation column in section 2 (floating-point noise that has no exact value), the 'RoPE applied to V' check, lab sections 3-5 (ALiBi table with an 'effective range' column whose definition is not given, extrapolation and interpolation tables that depend on an unstated d_model), the rest of 7.3 and later sections",
        "source_kind": "course lesson with pasted program output (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown table with Unicode minus signs '−0.4161', plain-text blocks 'pair 0: (−0.4161)(0.2837) + (0.9093)(−0.9589) = −0.1181 − 0.8719 = −0.9900', radians 'rotated by 2.00 rad', cos((m − n) × 1.0); the lab output uses ASCII '-', NumPy array printing without commas '[-0.4161  0.9093  0.9998  0.02  ]', quoted frequency strings ['1.0000', '0.0100'], M suffixes and percentages",
        "conventions": "Frequencies 1 and exactly 1/100; RoPE rotates each pair [1, 0] by position × frequency, so a rotated pair is [cos θ, sin θ]. The per-pair products: cos2·cos5 = -0.118045 (printed -0.1181, a slip: even the printed 4-decimal factors give -0.11805 → -0.1180), sin2·sin5 = -0.871947, their sum cos 3 = -0.989992; cos0.02·cos0.05 = 0.998551, sin0.02·sin0.05 = 0.000999, sum cos 0.03 = 0.999550; total 0.009558. At m = 12, n = 15: q_rot = [0.843854, -0.536573, 0.992809, 0.119712], k_rot = [-0.759688, 0.650288, 0.988771, 0.149438]. Parameter cost: 2k/32k/128k context means 2048/32768/131072 positions (× d_model 4096 = 8.39M, 134.22M, 536.87M); 536.87M is 7.67% of 7B (≈8%). Distances m − n are listed as exact -3 (and 3 as a distance). Not listed: q, k, positions 2, 5, 12, 15, 500, 503, d_model = 4 and 4096, lesson/section numbers, Python/NumPy versions and the date, '2k ctx' headers",
    }
    return meta, specs

DOCS = [doc_e1, doc_e2, doc_e3, doc_e4, doc_e5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
