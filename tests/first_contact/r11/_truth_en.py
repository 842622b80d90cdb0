"""Independent true values for the English (en_) first-contact documents of round 11.

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



# ---------------------------------------------------------------------------
# Document E1: multimodal textbook chapter 6, "cat sat mat" attention by hand
# ---------------------------------------------------------------------------
def doc_e1():
    Q = [[D('1.0'), D('0.5')], [D('0.5'), D('1.0')], [D('0.3'), D('0.7')]]
    V = [[2, 1], [1, 2], [D('1.5'), D('1.5')]]
    SC = [[Q[i][0] * Q[j][0] + Q[i][1] * Q[j][1] for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    E_ = [[M(SC[i][j]) / r2 for j in range(3)] for i in range(3)]
    ex = [[mpmath.exp(E_[i][j]) for j in range(3)] for i in range(3)]
    tot = [sum(ex[i]) for i in range(3)]
    w = [[ex[i][j] / tot[i] for j in range(3)] for i in range(3)]
    prod = [[[w[i][j] * M(V[j][c]) for c in range(2)] for j in range(3)] for i in range(3)]
    out = [[sum(prod[i][j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    names = ['cat', 'sat', 'mat']
    specs = []
    # Step 1: products and scores
    prods = {0: ['1.0 + 0.25', (0, 0), (0, 1), (0, 2)], 1: ['0.5 + 0.5,            0.25 + 1.0', (1, 0), (1, 1), (1, 2)],
             2: ['0.3 + 0.35,           0.15 + 0.7', (2, 0), (2, 1), (2, 2)]}
    for i in range(3):
        ents = []
        for j in range(3):
            ents.append(E(2 * j, Q[i][0] * Q[j][0], "Q[%d][0]*K[%d][0]" % (i, j)))
            ents.append(E(2 * j + 1, Q[i][1] * Q[j][1], "Q[%d][1]*K[%d][1]" % (i, j)))
        specs.append(S('p%d' % i, '= [' + prods[i][0], 6, *ents))
        anchor = {0: '= [1.25,                 1.0,', 1: '= [1.0,                  1.25,', 2: '= [0.65,                 0.85,'}[i]
        specs.append(S('s%d' % i, anchor, 3, *[E(j, SC[i][j], "score %s.%s = q_%d . k_%d" % (names[i], names[j], i, j)) for j in range(3)]))
    mat = ['[1.25, 1.0,  0.65],', '[1.0,  1.25, 0.85],', '[0.65, 0.85, 0.58]']
    for i in range(3):
        specs.append(S('sm%d' % i, mat[i], 3, *[E(j, SC[i][j], "similarity matrix entry (%d,%d) restated" % (i, j)) for j in range(3)]))
    for i in range(3):
        specs.append(S('it%d' % i, 'Position %d most similar to: itself' % i, 2,
                       E(1, SC[i][i], "self-score of position %d restated" % i)))
    specs.append(S('sq', 'd_k = 2, so √d_k = √2 ≈ 1.414', 3, E(2, r2, "sqrt(2)")))
    div = ['[1.25/1.414,  1.0/1.414,  0.65/1.414],', '[1.0/1.414,   1.25/1.414, 0.85/1.414],', '[0.65/1.414,  0.85/1.414, 0.58/1.414]']
    for i in range(3):
        ents = []
        for j in range(3):
            ents.append(E(2 * j, SC[i][j], "score (%d,%d) restated" % (i, j)))
            ents.append(E(2 * j + 1, r2, "sqrt(2) restated"))
        specs.append(S('dv%d' % i, div[i], 6, *ents))
    sc = ['[0.884,  0.707, 0.460],', '[0.707,  0.884, 0.601],', '[0.460,  0.601, 0.410]']
    for i in range(3):
        specs.append(S('sc%d' % i, sc[i], 3, *[E(j, E_[i][j], "scaled score (%d,%d) = %s" % (i, j, mp.nstr(E_[i][j], 6))) for j in range(3)]))
    # Step 3, row 0
    specs.append(S('r0', 'For position 0: [0.884, 0.707, 0.460]', 4, *[E(1 + j, E_[0][j], "scaled score restated") for j in range(3)]))
    for j, a in enumerate(['e^0.884 ≈ 2.42', 'e^0.707 ≈ 2.03', 'e^0.460 ≈ 1.58']):
        specs.append(S('e0%d' % j, a, 2, E(0, E_[0][j], "scaled score restated"), E(1, ex[0][j], "exp(scaled score) = %s" % mp.nstr(ex[0][j], 6))))
    specs.append(S('t0', 'Sum = 6.03', 1, E(0, tot[0], "row-0 sum of exponentials = %s" % mp.nstr(tot[0], 6))))
    specs.append(S('q0', '[2.42/6.03,  2.03/6.03,  1.58/6.03]', 6,
                   *[E(2 * j, ex[0][j], "exponential restated") for j in range(3)],
                   *[E(2 * j + 1, tot[0], "row sum restated") for j in range(3)]))
    specs.append(S('w0', '= [0.401,      0.337,      0.262]', 3,
                   E(0, w[0][0], "weight cat->cat = %s" % mp.nstr(w[0][0], 6)),
                   W(1, w[0][1], "weight cat->sat = %s (2.03/6.03 = 0.33665 rounds to the printed 0.337)" % mp.nstr(w[0][1], 6), 'rounding-carried'),
                   W(2, w[0][2], "weight cat->mat = %s (1.58/6.03 = 0.26202 rounds to the printed 0.262)" % mp.nstr(w[0][2], 6), 'rounding-carried')))
    for j, a in enumerate(['"cat" attends 40% to itself', '"cat" attends 34% to "sat"', '"cat" attends 26% to "mat"']):
        specs.append(S('pc%d' % j, a, 1, E(0, 100 * w[0][j], "weight cat->%s in percent" % names[j])))
    # row 1
    specs.append(S('r1', 'For position 1: [0.707, 0.884, 0.601]', 4, *[E(1 + j, E_[1][j], "scaled score restated") for j in range(3)]))
    for j, a in enumerate(['e^0.707 ≈ 2.03', 'e^0.884 ≈ 2.42', 'e^0.601 ≈ 1.82']):
        specs.append(S('e1%d' % j, a, 2, E(0, E_[1][j], "scaled score restated"), E(1, ex[1][j], "exp(scaled score) = %s" % mp.nstr(ex[1][j], 6))))
    specs.append(S('t1', 'Sum = 6.27', 1, E(0, tot[1], "row-1 sum of exponentials = %s" % mp.nstr(tot[1], 6))))
    specs.append(S('w1', 'Softmax: [0.324, 0.386, 0.290]', 3,
                   W(0, w[1][0], "weight sat->cat = %s (2.03/6.27 = 0.32376 rounds to the printed 0.324)" % mp.nstr(w[1][0], 6), 'rounding-carried'),
                   E(1, w[1][1], "weight sat->sat = %s" % mp.nstr(w[1][1], 6)),
                   W(2, w[1][2], "weight sat->mat = %s (1.82/6.27 = 0.29027 rounds to the printed 0.290)" % mp.nstr(w[1][2], 6), 'rounding-carried')))
    # row 2
    specs.append(S('r2', 'For position 2: [0.460, 0.601, 0.410]', 4, *[E(1 + j, E_[2][j], "scaled score restated") for j in range(3)]))
    for j, a in enumerate(['e^0.460 ≈ 1.58', 'e^0.601 ≈ 1.82', 'e^0.410 ≈ 1.51']):
        specs.append(S('e2%d' % j, a, 2, E(0, E_[2][j], "scaled score restated"), E(1, ex[2][j], "exp(scaled score) = %s" % mp.nstr(ex[2][j], 6))))
    specs.append(S('t2', 'Sum = 4.91', 1, E(0, tot[2], "row-2 sum of exponentials = %s" % mp.nstr(tot[2], 6))))
    specs.append(S('w2', 'Softmax: [0.322, 0.371, 0.307]', 3, *[E(j, w[2][j], "weight mat->%s = %s" % (names[j], mp.nstr(w[2][j], 6))) for j in range(3)]))
    # attention matrix restated
    wl = {(0, 1): 'w0', (0, 2): 'w0', (1, 0): 'w1', (1, 2): 'w1'}
    am = ['[0.401, 0.337, 0.262],', '[0.324, 0.386, 0.290],', '[0.322, 0.371, 0.307]']
    for i in range(3):
        ents = []
        for j in range(3):
            if (i, j) in wl:
                ents.append(W(j, w[i][j], "weight (%d,%d) restated (true %s)" % (i, j, mp.nstr(w[i][j], 4)), 'carried', wl[(i, j)]))
            else:
                ents.append(E(j, w[i][j], "weight (%d,%d) restated" % (i, j)))
        specs.append(S('am%d' % i, am[i], 3, *ents))
    specs.append(S('one', 'Each row sums to 1', 1, E(0, 1, "row sum of softmax weights")))
    # Step 4
    specs.append(S('o0a', 'attention_output[0] = 0.401 * V[0]', 7,
                   E(1, w[0][0], "weight restated"), W(3, w[0][1], "weight restated (true 0.3362)", 'carried', 'w0'),
                   W(5, w[0][2], "weight restated (true 0.2625)", 'carried', 'w0')))
    specs.append(S('o0b', '= 0.401 * [2, 1] + 0.337 * [1, 2] + 0.262 * [1.5, 1.5]', 9,
                   E(0, w[0][0], "weight restated"), W(3, w[0][1], "weight restated (true 0.3362)", 'carried', 'w0'),
                   W(6, w[0][2], "weight restated (true 0.2625)", 'carried', 'w0')))
    specs.append(S('o0c', '= [0.802, 0.401] + [0.337, 0.674] + [0.393, 0.393]', 6,
                   E(0, prod[0][0][0], "w00*2 = %s" % mp.nstr(prod[0][0][0], 6)),
                   E(1, prod[0][0][1], "w00*1"),
                   W(2, prod[0][1][0], "w01*1 = %s (repeats the printed 0.337)" % mp.nstr(prod[0][1][0], 6), 'carried', 'w0'),
                   W(3, prod[0][1][1], "w01*2 = %s (2 x 0.337)" % mp.nstr(prod[0][1][1], 6), 'carried', 'w0'),
                   W(4, prod[0][2][0], "w02*1.5 = %s (1.5 x 0.262)" % mp.nstr(prod[0][2][0], 6), 'carried', 'w0'),
                   W(5, prod[0][2][1], "w02*1.5 = %s (1.5 x 0.262)" % mp.nstr(prod[0][2][1], 6), 'carried', 'w0')))
    specs.append(S('o0d', '= [1.532, 1.468]', 2,
                   W(0, out[0][0], "output[0][0] = %s" % mp.nstr(out[0][0], 6), 'carried', 'w0'),
                   W(1, out[0][1], "output[0][1] = %s" % mp.nstr(out[0][1], 6), 'carried', 'w0')))
    specs.append(S('o1a', 'attention_output[1] = 0.324 * [2, 1]', 10,
                   W(1, w[1][0], "weight restated (true 0.3233)", 'carried', 'w1'), E(4, w[1][1], "weight restated"),
                   W(7, w[1][2], "weight restated (true 0.2908)", 'carried', 'w1')))
    specs.append(S('o1b', '= [0.648, 0.324] + [0.386, 0.772] + [0.435, 0.435]', 6,
                   W(0, prod[1][0][0], "w10*2 = %s (2 x 0.324)" % mp.nstr(prod[1][0][0], 6), 'carried', 'w1'),
                   W(1, prod[1][0][1], "w10*1 = %s (repeats 0.324)" % mp.nstr(prod[1][0][1], 6), 'carried', 'w1'),
                   E(2, prod[1][1][0], "w11*1"), E(3, prod[1][1][1], "w11*2 = %s" % mp.nstr(prod[1][1][1], 6)),
                   W(4, prod[1][2][0], "w12*1.5 = %s (1.5 x 0.290)" % mp.nstr(prod[1][2][0], 6), 'carried', 'w1'),
                   W(5, prod[1][2][1], "w12*1.5 = %s (1.5 x 0.290)" % mp.nstr(prod[1][2][1], 6), 'carried', 'w1')))
    specs.append(S('o1c', '= [1.469, 1.531]', 2,
                   E(0, out[1][0], "output[1][0] = %s" % mp.nstr(out[1][0], 6)),
                   E(1, out[1][1], "output[1][1] = %s" % mp.nstr(out[1][1], 6))))
    specs.append(S('o2a', 'attention_output[2] = 0.322 * [2, 1]', 10,
                   E(1, w[2][0], "weight restated"), E(4, w[2][1], "weight restated"), E(7, w[2][2], "weight restated")))
    specs.append(S('o2b', '= [0.644, 0.322] + [0.371, 0.742] + [0.461, 0.461]', 6,
                   E(0, prod[2][0][0], "w20*2 = %s" % mp.nstr(prod[2][0][0], 6)), E(1, prod[2][0][1], "w20*1"),
                   E(2, prod[2][1][0], "w21*1"), E(3, prod[2][1][1], "w21*2 = %s" % mp.nstr(prod[2][1][1], 6)),
                   W(4, prod[2][2][0], "w22*1.5 = %s (1.5 x the rounded 0.307 = 0.4605)" % mp.nstr(prod[2][2][0], 6), 'rounding-carried'),
                   W(5, prod[2][2][1], "w22*1.5 = %s (1.5 x the rounded 0.307 = 0.4605)" % mp.nstr(prod[2][2][1], 6), 'rounding-carried')))
    specs.append(S('o2c', '= [1.476, 1.525]', 2,
                   E(0, out[2][0], "output[2][0] = %s" % mp.nstr(out[2][0], 6)),
                   W(1, out[2][1], "output[2][1] = %s (0.322 + 0.742 + 0.461 = 1.525 from the rounded products)" % mp.nstr(out[2][1], 6), 'rounding-carried')))
    specs.append(S('f0', '[1.532, 1.468],', 2,
                   W(0, out[0][0], "output restated (true 1.5325)", 'carried', 'o0d'),
                   W(1, out[0][1], "output restated (true 1.4675)", 'carried', 'o0d')))
    specs.append(S('f1', '[1.469, 1.531],', 2, E(0, out[1][0], "output restated"), E(1, out[1][1], "output restated")))
    specs.append(S('f2', '[1.476, 1.525]', 2, E(0, out[2][0], "output restated"),
                   W(1, out[2][1], "output restated (true 1.5245)", 'carried', 'o2c')))
    meta = {
        "doc": "en_multimodal_chapter6_cat_sat_mat_attention.md",
        "source": "GitHub Markdown textbook chapter '# Chapter 6: Attention Mechanisms in Multimodal Systems' (a numbered multimodal-AI book: chapter-05.md 'Fusion Strategies', chapter-07.md 'Contrastive Learning', index.md table of contents); the search index did not expose the repository name (stored file id 35683166631). Kept: title, navigation line, section 6.2 'Mathematical Deep Dive' (core formula block) and 'Step-by-Step Computation' with the complete 'cat/sat/mat' code block verbatim (every matrix, exponent, weight, product and the wrong 'itself (0.58)' remark). Dropped: learning objectives, 6.1 (RNN vs attention, waiter/reading analogies), the PyTorch implementation, gradients, 6.3 multi-head and later sections. The two connecting sentences are mine",
        "source_kind": "textbook chapter (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "one long plain-text code block with ruled separators; nested-list matrices '[[1.0, 0.5, 0.3], ...]', star products '1.0*1.0 + 0.5*0.5', quotient lists '[1.25/1.414, ...]', 'e^0.884 ≈ 2.42', percentages '40%', weighted sums '0.401 * [2, 1] + ...', names Q, K = Q, V, '√d_k = √2 ≈ 1.414'",
        "conventions": "self-attention with K = Q (rows cat [1.0, 0.5], sat [0.5, 1.0], mat [0.3, 0.7]), V rows [2, 1], [1, 2], [1.5, 1.5]; scores Q K^T / sqrt(2), row softmax, output = weights V. Truths from the exact scores and exact softmax (never from the printed 3-decimal weights): row 0 weights [0.401249, 0.336233, 0.262518], row 1 [0.323339, 0.385861, 0.290800], row 2 [0.322205, 0.371151, 0.306645]; outputs [1.532508, 1.467492], [1.468739, 1.531261], [1.475527, 1.524473]. Four of the nine weights are right only from the 2-3 digit exponentials and sums (rounding-carried); the products and output components built on those printed weights are carried; 0.461 (1.5 x 0.307) and 1.525 are right only through rounded intermediates (rounding-carried); 1.469 and 1.531 happen to be right although built on two wrong printed weights. The remark 'Position 2 most similar to: itself (0.58)' is wrong in words (mat's largest score is 0.85, with sat) but the number 0.58 is the correct score and is listed ok. Not listed: Q/K/V inputs and their restatements inside the products, the factors of the star products, d_k = 64, d_v = 64, seq_len 196/77, query dimension 2, d_k = 2, the value vectors inside the weighted sums, indices Q[0], V[1], position/step numbers, chapter numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E2: curriculum concept page, one query against three keys
# ---------------------------------------------------------------------------
def doc_e2():
    r2 = mpmath.sqrt(2)
    dots = [Fraction(1), Fraction(0), D('0.5')]
    sc = [M(d) / r2 for d in dots]
    ex = [mpmath.exp(x) for x in sc]
    tot = sum(ex)
    w = [x / tot for x in ex]
    V = [(10, 0), (0, 10), (5, 5)]
    prod = [[w[j] * V[j][c] for c in range(2)] for j in range(3)]
    out = [sum(prod[j][c] for j in range(3)) for c in range(2)]
    specs = [
        S('sq', 'with `d = 2` so `√d ≈ 1.414`', 10, E(9, r2, "sqrt(d) = sqrt(2)")),
    ]
    for j, a in enumerate(['q·k₁ = 1(1) + 0(0) = 1.0', 'q·k₂ = 1(0) + 0(1) = 0.0', 'q·k₃ = 1(0.5) + 0(0.5) = 0.5']):
        specs.append(S('d%d' % j, a, 8, E(4, dots[j], "q.k%d" % (j + 1)), E(5, dots[j], "q.k%d restated" % (j + 1)),
                       E(6, r2, "sqrt(2) restated"), E(7, sc[j], "scaled score q.k%d/sqrt2 = %s" % (j + 1, mp.nstr(sc[j], 6)))))
    specs += [
        S('sm', 'softmax(0.707, 0.000, 0.354):', 3, *[E(j, sc[j], "scaled score restated") for j in range(3)]),
        S('ex', 'e^0.707 ≈ 2.028,  e^0.000 = 1.000,  e^0.354 ≈ 1.425', 6,
          E(0, sc[0], "scaled score restated"), E(1, ex[0], "exp(1/sqrt2) = %s" % mp.nstr(ex[0], 7)),
          E(2, sc[1], "scaled score restated"), E(3, ex[1], "e^0"),
          E(4, sc[2], "scaled score restated"),
          W(5, ex[2], "exp(0.5/sqrt2) = exp(0.353553) = %s; 1.425 is e^0.354 (exp of the rounded score)" % mp.nstr(ex[2], 7), 'rounding-carried')),
        S('tot', 'sum ≈ 4.453', 1, W(0, tot, "sum of exponentials = %s (2.028 + 1 + 1.425 = 4.453)" % mp.nstr(tot, 7), 'rounding-carried')),
        S('w', 'weights ≈ (0.455, 0.225, 0.320)', 3,
          W(0, w[0], "weight of k1 = %s (2.028/4.453 = 0.45542)" % mp.nstr(w[0], 7), 'rounding-carried'),
          E(1, w[1], "weight of k2 = %s" % mp.nstr(w[1], 7)), E(2, w[2], "weight of k3 = %s" % mp.nstr(w[2], 7))),
        S('pc', 'gets the largest share (≈45.5%)', 2,
          W(0, 100 * w[0], "weight of k1 in percent (true 45.55%)", 'carried', 'w'), E(1, 100 * w[1], "weight of k2 in percent")),
        S('re', 'using the weights `(0.455, 0.225, 0.320)` from Example 1', 11,
          W(7, w[0], "weight restated (true 0.4555)", 'carried', 'w'), E(8, w[1], "weight restated"), E(9, w[2], "weight restated")),
        S('o1', 'output = 0.455·(10, 0) + 0.225·(0, 10) + 0.320·(5, 5)', 9,
          W(0, w[0], "weight restated (true 0.4555)", 'carried', 'w'), E(3, w[1], "weight restated"), E(6, w[2], "weight restated")),
        S('o2', '= (4.55, 0) + (0, 2.25) + (1.60, 1.60)', 6,
          W(0, prod[0][0], "10 w1 = %s (10 x the printed 0.455)" % mp.nstr(prod[0][0], 6), 'carried', 'w'),
          E(1, 0, "0 w1"), E(2, 0, "0 w2"), E(3, prod[1][1], "10 w2 = %s" % mp.nstr(prod[1][1], 6)),
          E(4, prod[2][0], "5 w3 = %s" % mp.nstr(prod[2][0], 6)), E(5, prod[2][1], "5 w3")),
        S('o3', '= (6.15, 3.85)', 2, E(0, out[0], "output[0] = 10 w1 + 5 w3 = %s" % mp.nstr(out[0], 6)),
          E(1, out[1], "output[1] = 10 w2 + 5 w3 = %s" % mp.nstr(out[1], 6))),
    ]
    meta = {
        "doc": "en_attention_concept_query_three_keys.md",
        "source": "GitHub Markdown concept page of a curriculum (front matter 'version: 1.0 / updatedAt: 2026-09-07'; sections Learning Objectives, Context & Motivation, Core Theory, Worked Examples, Common Misconceptions & Pitfalls, Summary, Documentation Links; it refers back to 'foundations/mathematics-for-computing' and to an LSTM/GRU concept); the search index did not expose the repository name (stored file id 65815099669; a Portuguese translation of the same page is stored as id 70081422901). Kept: front matter, learning objectives, core theory, both worked examples verbatim (code blocks, inline vectors and percentages), the misconception bullets shortened; prose reworded. Dropped: Context & Motivation, Summary, Documentation Links",
        "source_kind": "curriculum concept page (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "text code blocks with aligned columns 'q·k₁ = 1(1) + 0(0) = 1.0        scaled: 1.0 / 1.414 ≈ 0.707', Unicode subscripts k₁ v₂, middle-dot products '0.455·(10, 0)', tuples for vectors, 'e^0.354 ≈ 1.425', percentages in prose '(≈45.5%)'",
        "conventions": "one query q = (1, 0) against keys (1, 0), (0, 1), (0.5, 0.5), scores q.k / sqrt(2), softmax, output = sum_j w_j v_j with values (10, 0), (0, 10), (5, 5). Truths from the exact scaled scores: exponentials 2.028115, 1, 1.424119 (sum 4.452234), weights [0.455527, 0.224606, 0.319866], output (6.154606, 3.845394). The page exponentiates the rounded 0.354 (e^0.354 = 1.42476), so 1.425, the sum 4.453 and the first weight 0.455 are right only by those rounded intermediates (rounding-carried); 45.5%, the restated 0.455 and 4.55 are carried; 6.15 and 3.85 still round correctly. Not listed: q, keys, values and d = 2 (inputs, also inside '1(0.5) + 0(0.5)' and the weighted sum), front-matter version/date, example and list numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E3: quiz-bank upgrade script, week 6 attention items
# ---------------------------------------------------------------------------
def doc_e3():
    r2 = mpmath.sqrt(2)
    s1 = 1 / r2
    e1 = mpmath.exp(s1)
    a1, a2 = e1 / (e1 + 1), 1 / (e1 + 1)
    out = [10 * a1, 10 * a2]
    u1 = mpmath.e / (mpmath.e + 1)           # weights without the 1/sqrt(2) scaling
    sm50 = softmax([50, 1, 2])
    specs = [
        S('ans', '"answer": "Output ≈ [7.31, 2.69]"', 2,
          W(0, out[0], "final output[0] = 10 alpha1 = %s; 7.31 = 10 softmax([1, 0])[0] = %s is the unscaled result" % (mp.nstr(out[0], 6), mp.nstr(10 * u1, 6)), 'convention'),
          W(1, out[1], "final output[1] = 10 alpha2 = %s; 2.69 is the unscaled 10 softmax([1, 0])[1] = %s" % (mp.nstr(out[1], 6), mp.nstr(10 * (1 - u1), 6)), 'convention')),
        S('ex', '"explanation": "<strong>(a) Raw scores:</strong>', 44,
          E(4, 1, "Q.K1 = 1x1 + 0x0"), E(9, 0, "Q.K2 = 1x0 + 0x1"), E(11, r2, "sqrt(2)"),
          E(12, 1, "raw score 1 restated"), E(13, r2, "sqrt(2) restated"), E(14, s1, "score1 = 1/sqrt2"),
          E(15, 0, "raw score 2 restated"), E(16, r2, "sqrt(2) restated"), E(17, 0, "score2 = 0/sqrt2"),
          E(18, s1, "score1 restated"), E(19, e1, "exp(1/sqrt2) = %s" % mp.nstr(e1, 7)), E(20, 0, "score2 restated"), E(21, 1, "e^0"),
          E(22, e1, "exp restated"), E(23, e1, "exp restated"), E(24, 1, "e^0 restated"),
          W(25, a1, "alpha1 = e^(1/sqrt2)/(e^(1/sqrt2) + 1) = %s (2.028/3.028 = 0.66975); 0.669 is truncated" % mp.nstr(a1, 7), 'rounding'),
          E(26, 1, "e^0 restated"), E(27, e1, "exp restated"), E(28, 1, "e^0 restated"),
          W(29, a2, "alpha2 = 1/(e^(1/sqrt2) + 1) = %s (1/3.028 = 0.33025); 0.331 is 1 - 0.669" % mp.nstr(a2, 7), 'carried', 'ex'),
          W(30, a1, "alpha1 restated (true 0.6698)", 'carried', 'ex'), W(33, a2, "alpha2 restated (true 0.3302)", 'carried', 'ex'),
          W(36, out[0], "alpha1 x 10 = %s (10 x the printed 0.669)" % mp.nstr(out[0], 6), 'carried', 'ex'),
          E(37, 0, "alpha1 x 0"), E(38, 0, "alpha2 x 0"),
          W(39, out[1], "alpha2 x 10 = %s (10 x the printed 0.331)" % mp.nstr(out[1], 6), 'carried', 'ex'),
          W(40, out[0], "output[0] restated (true 6.698)", 'carried', 'ex'),
          W(41, out[1], "output[1] restated (true 3.302)", 'carried', 'ex'),
          E(42, 100 * a1, "alpha1 in percent (~67%)"), E(43, 100 * a2, "alpha2 in percent (~33%)")),
        S('mcq', 'softmax([50,1,2]) ≈ [1.0, 0.0, 0.0]', 8,
          E(4, sm50[0], "softmax([50,1,2])[0] = 1 - 7.0e-22"), E(5, sm50[1], "softmax([50,1,2])[1] = 5.2e-22"),
          E(6, sm50[2], "softmax([50,1,2])[2] = 1.4e-21")),
    ]
    meta = {
        "doc": "en_quiz_bank_upgrade_attention_by_hand.md",
        "source": "GitHub Python script 'Quiz Bank Upgrade Script' (a course quiz generator that holds NEW_QUESTIONS per week as dicts with HTML explanations in English plus Chinese summaries, then regenerates all_quizzes.html); the search index did not expose the repository name (stored file id 62070023604). Kept verbatim in a ```python block: the module docstring, imports, DIR and the whole 'week06_quiz.json' list (the short calculation question and the MCQ on dropping the sqrt(d_k) scaling), with every formula, HTML tag and number unchanged; the English and Chinese sentences inside the strings were reworded. Dropped: the weeks 3, 4, 5, 10, 12, 13 and 1 items and the rest of the script. Title and introduction are mine",
        "source_kind": "quiz data embedded in a Python script (GitHub)",
        "language": "en",
        "errors_as_published": True,
        "notation": "JSON-like Python dict literals with very long one-line HTML strings ('<br>•', '<strong>'), Unicode subscripts and transposes 'Q·K₁ᵀ', '×' products '1×1 + 0×0', Greek 'α₁ = 2.028/(2.028+1) ≈ 0.669', bracketed vectors without spaces '[10,0]', percentages '(~67%)', a Chinese sentence inside the explanation",
        "conventions": "Q = [1, 0], K1 = [1, 0], K2 = [0, 1], V1 = [10, 0], V2 = [0, 10], d_k = 2: scores 1 and 0, scaled by 1/sqrt(2), softmax [0.669762, 0.330238], output [6.697615, 3.302385]. The explanation truncates alpha1 to 0.669 (kind rounding); alpha2 is printed as 1 - 0.669 = 0.331 although 1/3.028 = 0.330 (carried); the products and the boxed output [6.69, 3.31] are carried. The 'answer' field [7.31, 2.69] is 10 softmax([1, 0]), i.e. the output without the 1/sqrt(d_k) scaling that the question asks for (kind convention). softmax([50,1,2]) ≈ [1.0, 0.0, 0.0] is right. Not listed: the given vectors and d_k (also as '1×1', '0×1' factors and inside '[10,0]'), point counts '(1 pt)', option letters, the answer index 2, '~d_k=512' and 'd_k = 512' (a given size, restated), the numbered docstring items and 'utf-8', week numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E4: Hinglish implementation guide, softmax basics, PE (d_model = 8), LayerNorm
# ---------------------------------------------------------------------------
def doc_e4():
    ex = [mpmath.exp(2), mpmath.e, mpmath.exp(mpf('0.5'))]
    tot = sum(ex)
    p = [x / tot for x in ex]
    king, queen, car = [D('0.9'), D('0.1'), D('0.8')], [D('0.85'), D('0.15'), D('0.75')], [D('0.1'), D('0.9'), D('0.2')]
    kq = sum(a * b for a, b in zip(king, queen))
    kc = sum(a * b for a, b in zip(king, car))
    freq = [mpf(1) / mpf(10000) ** (mpf(2 * i) / 8) for i in range(4)]     # 1, 0.1, 0.01, 0.001

    def pe(pos, d):
        a = pos * freq[d // 2]
        return mpmath.sin(a) if d % 2 == 0 else mpmath.cos(a)
    x = [D('1.0'), D('2.0'), D('3.0'), D('4.0')]
    mu = sum(x) / 4
    var = sum((v - mu) ** 2 for v in x) / 4
    eps = D('1e-6')
    sd = mpmath.sqrt(M(var + eps))
    xn = [M(v - mu) / sd for v in x]
    xr = [D('0.2'), D('0.5'), D('-0.3'), D('0.1')]
    sub = [D('0.1'), D('-0.2'), D('0.4'), D('0.3')]
    res = [a + b for a, b in zip(xr, sub)]
    specs = [
        S('e0', 'exp(2.0) = 7.39', 2, E(1, ex[0], "e^2")),
        S('e1', 'exp(1.0) = 2.72', 2, E(1, ex[1], "e^1")),
        S('e2', 'exp(0.5) = 1.65', 2, E(1, ex[2], "e^0.5")),
        S('sum', 'Step 2: sum = 7.39 + 2.72 + 1.65 = 11.76', 5, *[E(1 + j, ex[j], "exponential restated") for j in range(3)],
          E(4, tot, "e^2 + e + e^0.5 = %s" % mp.nstr(tot, 7))),
    ]
    for j, a in enumerate(['7.39/11.76 = 0.63', '2.72/11.76 = 0.23', '1.65/11.76 = 0.14']):
        specs.append(S('p%d' % j, a, 3, E(0, ex[j], "exponential restated"), E(1, tot, "sum restated"),
                       E(2, p[j], "softmax([2.0, 1.0, 0.5])[%d] = %s" % (j, mp.nstr(p[j], 6)))))
    specs.append(S('out', 'Output: [0.63, 0.23, 0.14] → Sum = 1.0!', 4, *[E(j, p[j], "probability restated") for j in range(3)],
                   E(3, 1, "sum of the softmax outputs")))
    for j, a in enumerate(['Position 1 ko 63% attention', 'Position 2 ko 23% attention', 'Position 3 ko 14% attention']):
        specs.append(S('pc%d' % j, a, 2, E(1, 100 * p[j], "probability %d in percent" % j)))
    specs += [
        S('ab', 'a · b = 1×4 + 2×5 + 3×6 = 4 + 10 + 18 = 32', 10,
          E(6, 4, "1x4"), E(7, 10, "2x5"), E(8, 18, "3x6"), E(9, 32, "a.b")),
        S('kq', 'king · queen = 0.9×0.85', 7, E(6, kq, "king.queen = 0.765 + 0.015 + 0.6")),
        S('kc', 'king · car   = 0.9×0.1', 7, E(6, kc, "king.car = 0.09 + 0.09 + 0.16")),
    ]
    for d in range(8):
        fn = 'sin' if d % 2 == 0 else 'cos'
        specs.append(S('z%d' % d, 'PE(0, %d) = %s(0 / 10000^(%d/8)) = %s(0) = ' % (d, fn, 2 * (d // 2), fn), 8,
                       E(6, 0, "argument 0/10000^(%d/8)" % (2 * (d // 2))), E(7, pe(0, d), "PE(0,%d) = %s(0)" % (d, fn))))
    specs.append(S('z', 'PE(pos=0) = [0, 1, 0, 1, 0, 1, 0, 1]', 9, *[E(1 + d, pe(0, d), "PE(0,%d) restated" % d) for d in range(8)]))
    specs += [
        S('a0', 'PE(1, 0) = sin(1 / 10000^0) = sin(1) = 0.841', 7, E(5, 1, "argument 1/10000^0"), E(6, pe(1, 0), "sin(1)")),
        S('a1', 'PE(1, 1) = cos(1 / 10000^0) = cos(1) = 0.540', 7, E(5, 1, "argument 1/10000^0"), E(6, pe(1, 1), "cos(1)")),
        S('a2', 'PE(1, 2) = sin(1 / 10000^0.25) = sin(1/17.78)', 9,
          W(6, 10, "10000^0.25 = 10 (17.78 is 10000^(5/16), or 10^1.25)", 'slip'),
          W(7, freq[1], "argument 1/10000^0.25 = 0.1", 'carried', 'a2'),
          W(8, pe(1, 2), "PE(1,2) = sin(0.1) = %s" % mp.nstr(pe(1, 2), 6), 'carried', 'a2')),
        S('a3', 'PE(1, 3) = cos(1 / 10000^0.25) = cos(0.056) = 0.998', 7,
          W(5, freq[1], "argument restated (true 0.1)", 'carried', 'a2'),
          W(6, pe(1, 3), "PE(1,3) = cos(0.1) = %s" % mp.nstr(pe(1, 3), 6), 'carried', 'a2')),
        S('a4', 'PE(1, 4) = sin(1 / 10000^0.5) = sin(1/100) = sin(0.01) = 0.01', 9,
          E(6, 100, "10000^0.5"), E(7, freq[2], "argument 1/100"), E(8, pe(1, 4), "sin(0.01) = 0.0099998")),
        S('a5', 'PE(1, 5) = cos(1 / 10000^0.5) = cos(0.01) = 0.9999', 7,
          E(5, freq[2], "argument restated"),
          W(6, pe(1, 5), "cos(0.01) = 0.99995000004, which rounds to 1.0000 at four places; 0.9999 is truncated", 'rounding')),
        S('a6', 'PE(1, 6) = sin(1 / 10000^0.75) = sin(0.00056) = 0.00056', 7,
          W(5, freq[3], "argument 1/10000^0.75 = 1/1000 = 0.001", 'slip'),
          W(6, pe(1, 6), "PE(1,6) = sin(0.001) = 0.00099999983", 'carried', 'a6')),
        S('a7', 'PE(1, 7) = cos(1 / 10000^0.75) = cos(0.00056) = 0.9999', 7,
          W(5, freq[3], "argument restated (true 0.001)", 'carried', 'a6'),
          W(6, pe(1, 7), "cos(0.001) = 0.9999995 -> 1.0000 at four places (cos(0.00056) would round to 1.0000 too); 0.9999 is truncated", 'rounding')),
        S('a', 'PE(pos=1) = [0.841, 0.540, 0.056, 0.998, 0.01, 0.9999, 0.00056, 0.9999]', 9,
          E(1, pe(1, 0), "PE(1,0) restated"), E(2, pe(1, 1), "PE(1,1) restated"),
          W(3, pe(1, 2), "PE(1,2) restated (true 0.0998)", 'carried', 'a2'),
          W(4, pe(1, 3), "PE(1,3) restated (true 0.9950)", 'carried', 'a3'),
          E(5, pe(1, 4), "PE(1,4) restated"),
          W(6, pe(1, 5), "PE(1,5) restated (true 0.99995)", 'carried', 'a5'),
          W(7, pe(1, 6), "PE(1,6) restated (true 0.001)", 'carried', 'a6'),
          W(8, pe(1, 7), "PE(1,7) restated (true 0.9999995)", 'carried', 'a7')),
    ]
    for pos, anchor in enumerate(['Position 0  [0.0, 1.0,', 'Position 1  [0.8, 0.5,', 'Position 2  [0.9, -0.4,', 'Position 3  [0.1, -1.0,']):
        ents = []
        for d in range(8):
            v = pe(pos, d)
            if d == 2 and pos >= 2:
                ents.append(W(1 + d, v, "PE(%d,2) = sin(%d x 0.1) = %s (matches sin(%d/17.78), the wrong frequency)" % (pos, pos, mp.nstr(v, 5), pos), 'carried', 'a2'))
            else:
                ents.append(E(1 + d, v, "PE(%d,%d) = %s" % (pos, d, mp.nstr(v, 5))))
        specs.append(S('h%d' % pos, anchor, 9, *ents))
    specs += [
        S('r1', '= [0.3, 0.3, 0.1, 0.4]', 4, *[E(j, res[j], "residual output[%d]" % j) for j in range(4)]),
        S('mu', 'μ = (1 + 2 + 3 + 4) / 4 = 2.5', 6, E(5, mu, "mean")),
        S('v1', 'σ² = [(1-2.5)² + (2-2.5)²', 9, *[E(1 + 2 * j, mu, "mean restated") for j in range(4)]),
        S('v2', '= [2.25 + 0.25 + 0.25 + 2.25] / 4', 5, *[E(j, (x[j] - mu) ** 2, "squared deviation %d" % j) for j in range(4)]),
        S('v3', '= 5.0 / 4', 2, E(0, 4 * var, "sum of squared deviations")),
        S('v4', '^   = 1.25', 1, E(0, var, "variance")),
        S('n1', '= (x - 2.5) / √1.25', 2, E(0, mu, "mean restated"), E(1, var, "variance restated")),
        S('n2', '= (x - 2.5) / 1.118', 2, E(0, mu, "mean restated"), E(1, sd, "sqrt(1.25 + 1e-6) = %s" % mp.nstr(sd, 7))),
    ]
    for j in range(4):
        specs.append(S('xn%d' % j, 'x_norm[%d] = (' % j, 5, E(2, mu, "mean restated"), E(3, sd, "std restated"),
                       E(4, xn[j], "x_norm[%d] = %s" % (j, mp.nstr(xn[j], 6)))))
    specs += [
        S('xn', 'x_norm = [-1.34, -0.45, 0.45, 1.34]', 4, *[E(j, xn[j], "x_norm[%d] restated" % j) for j in range(4)]),
        S('ver', 'Verify: mean ≈ 0, variance ≈ 1', 2, E(0, 0, "mean of x_norm (exactly 0)"),
          E(1, M(var / (var + eps)), "variance of x_norm = 1.25/1.250001 = 0.9999992 (approximate claim '≈ 1', rounded)")),
        S('g1', 'output = 2 * [-1.34, -0.45, 0.45, 1.34] + 1', 6, *[E(1 + j, xn[j], "x_norm restated") for j in range(4)]),
        S('g2', '= [-1.68, 0.1, 1.9, 3.68]', 4, *[E(j, 2 * xn[j] + 1, "2 x_norm[%d] + 1 = %s" % (j, mp.nstr(2 * xn[j] + 1, 6))) for j in range(4)]),
        S('r2', 'residual = x + sublayer_out = [0.3, 0.3, 0.1, 0.4]', 4, *[E(j, res[j], "x + sublayer_out [%d]" % j) for j in range(4)]),
    ]
    meta = {
        "doc": "en_hinglish_transformer_guide_posenc_layernorm.md",
        "source": "GitHub Markdown '# Transformer Implementation Guide - Complete Hinglish Explanation' (KYA/KYU/KAISE sections, phases 0-4, steps 1-9; 79k characters); the search index did not expose the repository name (stored file id 59326389217). Kept: title, Phase 0 items 3 (softmax example) and 4 (dot-product example), Step 3 Positional Encoding (formula, the d_model = 8 step-by-step calculation and the heatmap table verbatim), Step 5 residual and LayerNorm examples and the combined Add & Norm flow, all code blocks verbatim; the Hinglish prose around them reworded. Dropped: the flow diagrams, tables of contents, steps 1-2, 4, 6-9, the 'How to Add to Embeddings' block (its 512-dimensional PE rows), implementation pseudocode and training/inference phases",
        "source_kind": "study guide in Hinglish (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Hinglish headings 'KYA Hai Yeh?', plain-text code blocks with box-drawing rules, caret powers '10000^(2/8)', '10000^0.25', chained equalities 'sin(1/17.78) = sin(0.056) = 0.056', bracket vectors, a heatmap table with row labels, Unicode σ² μ ε γ β, '×' products, percentages",
        "conventions": "softmax([2.0, 1.0, 0.5]) = [0.628532, 0.231224, 0.140244] (sum of exponentials 11.756059). Sinusoidal PE with d_model = 8: frequencies 10000^(-2i/8) = 1, 0.1, 0.01, 0.001, so PE(1) = [0.841471, 0.540302, 0.099833, 0.995004, 0.0099998, 0.99995, 0.00099999983, 0.9999995]. The guide evaluates 10000^0.25 as 17.78 (true 10; slip) and 1/10000^0.75 as 0.00056 (true 0.001; slip); the values built on them are carried; the two 0.9999 (cos 0.01, cos 0.001) are truncations of numbers that round to 1.0000 (kind rounding). In the heatmap, dimension 2 of positions 2 and 3 (0.1, 0.2) follows the wrong 1/17.78 frequency (true sin 0.2 = 0.1987, sin 0.3 = 0.2955; carried); all other heatmap cells round correctly at one decimal. LayerNorm of [1, 2, 3, 4] with eps = 1e-6 inside the root as the formula states (sd 1.1180344; the hand lines drop eps, which changes no printed digit); 'variance ≈ 1' is judged as an approximate claim (0.9999992). Listed arguments: the computed arguments of sin/cos (the 0 in 'sin(0)' of the position-0 lines, the 1 in 'sin(1)', 100, 17.78, 0.056, 0.01, 0.00056). Not listed: inputs (scores, vectors a and b, king/queen/car, x, Sublayer(x), gamma/beta), the factors of the '×' products, the numerators 'pos' and the 1 of '1/17.78', PE(pos, i) indices, d_model = 512 and 8, exponents 0/8, 2/8, 0.25, 0.5, 0.75, eps 1e-6, step/section numbers, 'Sentence 1/2', the prose '1' of 'total = 1'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E5: microgpt walkthrough, temperature and sampling
# ---------------------------------------------------------------------------
def doc_e5():
    logits = [D('2.0'), D('1.0'), D('0.1')]
    specs = []
    for T, a1, a2, lab in [(D('1.0'), 'logits / 1.0 = [2.0, 1.0, 0.1]', 'probs = [0.659, 0.242, 0.099]', 't1'),
                           (D('0.5'), 'logits / 0.5 = [4.0, 2.0, 0.2]', 'probs = [0.869, 0.117, 0.014]', 't05'),
                           (D('2.0'), 'logits / 2.0 = [1.0, 0.5, 0.05]', 'probs = [0.424, 0.257, 0.319]', 't2')]:
        z = [l / T for l in logits]
        p = softmax(z)
        specs.append(S(lab + 'z', a1, 4, *[E(1 + j, z[j], "logit[%d] / T with T = %s" % (j, T)) for j in range(3)]))
        ents = []
        for j in range(3):
            what = "softmax(logits / %s)[%d] = %s" % (T, j, mp.nstr(p[j], 6))
            lit = a2.split('[')[1].rstrip(']').split(', ')[j]
            ents.append(E(j, p[j], what) if rounds_to(lit, p[j]) else W(j, p[j], what, 'slip'))
        specs.append(S(lab + 'p', a2, 3, *ents))
    meta = {
        "doc": "en_microgpt_temperature_sampling_notes.md",
        "source": "GitHub Markdown chapter '# Temperature and Sampling' of a line-by-line walkthrough of Karpathy's microgpt.py ('Line 195 of microgpt.py'; next chapter './02-the-complete-picture.md'); the search index did not expose the repository name (stored file id 40887952064; an MkDocs variant of the same page with '=== \"Temperature = 1.0 (Normal)\"' tabs is stored as id 40782232126). Kept: every section up to and including the 'Alternatives to Random Sampling' table, all code blocks and the ASCII bar chart verbatim; prose reworded. Dropped: 'Why \"Temperature\"?', the terminology table and the link to the next chapter",
        "source_kind": "code walkthrough notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text blocks 'logits / 0.5 = [4.0, 2.0, 0.2]     ← differences AMPLIFIED', bracketed probability lists with three decimals, Python snippets with line-number comments, an ASCII bar chart whose axis labels (0.9, 0.7, ...) are not results",
        "conventions": "probs = softmax(logits / T) for logits [2.0, 1.0, 0.1]: T = 1 gives [0.659001, 0.242433, 0.098566] (printed correctly); T = 0.5 gives [0.863777, 0.116900, 0.019323], so 0.869 and 0.014 are slips (they do not even sum to 1 with 0.117); T = 2 gives [0.501688, 0.304289, 0.194023], and all three printed values [0.424, 0.257, 0.319] are slips (the printed order even makes the smallest logit more likely than the middle one). The divided logits are exact. Not listed: the logits and temperatures (inputs, also in headings), the chart's axis labels and bar heights, microgpt.py line numbers 195/187/196, the population 0..26 and the illustrative weights [0.01, 0.003, ...]",
    }
    return meta, specs


DOCS = [doc_e1, doc_e2, doc_e3, doc_e4, doc_e5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
