"""Independent true values for the Chinese (zh_) first-contact documents of round 11.

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
# Document Z1: LayerNorm vs RMSNorm toy example on x = [2, 5, -1]
# ---------------------------------------------------------------------------
def doc_z1():
    x = [Fraction(2), Fraction(5), Fraction(-1)]
    mu = sum(x) / 3
    dev = [v - mu for v in x]
    var = sum(d * d for d in dev) / 3
    sd = mpmath.sqrt(M(var))
    xh = [M(d) / sd for d in dev]
    aff = [2 * h + mpf('0.5') for h in xh]
    ss = sum(v * v for v in x)
    ms = ss / 3
    rms = mpmath.sqrt(M(ms))
    yr = [M(v) / rms for v in x]
    eps = D('1e-5')
    rms_out = mpmath.sqrt(sum(M(v * v) / (M(ms) + M(eps)) for v in x) / 3)
    specs = [
        S('mu', '\\mu = \\frac{2+5+(-1)}{3}=2', 5, E(4, mu, "mean of [2, 5, -1]")),
        S('v1', '\\sigma^2=\\frac{(2-2)^2+(5-2)^2+(-1-2)^2}{3}', 11,
          E(1, mu, "mean restated"), E(5, mu, "mean restated"), E(8, mu, "mean restated")),
        S('v2', '=\\frac{0+9+9}{3}=6', 5, *[E(j, dev[j] ** 2, "squared deviation %d" % j) for j in range(3)],
          E(4, var, "population variance")),
        S('sd', '\\sigma=\\sqrt{6}\\approx 2.449', 2, E(0, var, "variance restated"), E(1, sd, "sqrt(6) = 2.4494897")),
        S('h1', '\\hat{x} = \\left[0,\\frac{3}{2.449},\\frac{-3}{2.449}\\right]', 5,
          E(0, xh[0], "x_hat[0] = 0"), E(1, dev[1], "x[1] - mu"), E(2, sd, "sigma restated"),
          E(3, dev[2], "x[2] - mu"), E(4, sd, "sigma restated")),
        S('h2', '\\approx [0,1.225,-1.225]', 3, *[E(j, xh[j], "x_hat[%d] = %s" % (j, mp.nstr(xh[j], 7))) for j in range(3)]),
        S('h3', '^[0,1.225,-1.225]', 3, *[E(j, xh[j], "output with gamma 1, beta 0 [%d]" % j) for j in range(3)]),
        S('af', '[0.5, 2.95, -1.95]', 3, *[E(j, aff[j], "2 x_hat[%d] + 0.5 = %s" % (j, mp.nstr(aff[j], 7))) for j in range(3)]),
        S('r1', '=\\sqrt{\\frac{30}{3}}=\\sqrt{10}\\approx 3.162', 4,
          E(0, ss, "sum of squares 4 + 25 + 1"), E(2, ms, "mean square"), E(3, rms, "sqrt(10) = 3.1622777")),
        S('r2', 'y \\approx [0.632,1.581,-0.316]', 3, *[E(j, yr[j], "x[%d]/sqrt(10) = %s" % (j, mp.nstr(yr[j], 7))) for j in range(3)]),
        S('c1', '# LayerNorm 输出均值应接近 0', 1, E(0, 0, "mean of the LayerNorm output (exactly 0)")),
        S('c2', 'assert abs(rms - 1.0) < 1e-3', 2, E(0, rms_out, "RMS of the RMSNorm output with eps = 1e-5 = %s" % mp.nstr(rms_out, 9))),
    ]
    meta = {
        "doc": "zh_layernorm_rmsnorm_toy_2_5_minus1.md",
        "source": "GitHub Markdown explainer on LayerNorm in the Transformer (sections 核心结论, 问题定义与边界, 核心机制与推导 with 「玩具例子：手算 LayerNorm 与 RMSNorm」, 代码实现, 工程权衡与常见坑, 替代方案与适用边界, 参考资料 citing Ba et al., Xiong et al. and several blogs); the search index did not expose the repository name (stored file id 54144555794). Kept: 核心结论 (first paragraph and formulas), the toy-token part of 问题定义与边界, all of 核心机制与推导 up to the comparison table, and the whole Python block of 代码实现 verbatim; every formula and number unchanged, the Chinese prose reworded. Dropped: the BatchNorm and Pre-LN/Post-LN tables, 为什么 Pre-LN 更稳, the Transformer pseudo-code, 工程权衡, 替代方案 and 参考资料",
        "source_kind": "technical explainer (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "display LaTeX ($$ ... $$) with \\frac, \\sqrt, \\approx and \\left[ \\right], vectors written without spaces '[0,1.225,-1.225]', chained equalities '=\\frac{0+9+9}{3}=6', a Markdown table, a Python block with asserts and round(v, 4) prints (no printed output)",
        "conventions": "LayerNorm of x = [2, 5, -1] with population variance: mean 2, variance 6, sigma sqrt(6) = 2.449490, x_hat = [0, 1.224745, -1.224745]; with gamma = 2, beta = 0.5: [0.5, 2.949490, -1.949490]. RMSNorm: RMS = sqrt(10) = 3.162278, y = [0.632456, 1.581139, -0.316228]. The formulas carry epsilon but the hand example leaves it out; the truths follow the hand example (eps = 0), and with eps = 1e-5 no printed digit would change. The two code comments/asserts are judged as claims about the code's own outputs (eps = 1e-5): mean of ln_y is exactly 0, RMS of rms_y = 0.9999995 ('1.0'). Not listed: x and token B (inputs), gamma/beta, the exponents 2 and the divisors 3 (= D), summation limits, list numbers 1.-3., eps 1e-5 and tolerances 1e-3, round(v, 4), 'len(ln_y2) == 3'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z2: full Pre-LN Transformer block by hand (Traditional Chinese course notes)
# ---------------------------------------------------------------------------
def doc_z2():
    X = [[1, 0, 0, 1], [0, 1, 1, 0]]

    def ln(row):
        m = sum(row) / len(row)
        v = sum((a - m) ** 2 for a in row) / len(row)
        return [(a - m) / mpmath.sqrt(v) for a in row], m, v
    Xt = [[M(Fraction(a) - Fraction(1, 2)) / mpf('0.5') for a in r] for r in X]          # exact [1,-1,-1,1]
    r2 = mpmath.sqrt(2)
    e2, em2 = mpmath.exp(2), mpmath.exp(-2)
    es, ems = mpmath.exp(r2), mpmath.exp(-r2)
    a = es / (es + ems)                    # A[0][0]
    b = ems / (es + ems)
    c = a - b                              # 0.888386
    Zp = [[1, 0, c, 1 - c], [0, 1, 1 - c, c]]
    rows = [ln([mpf(v) for v in r]) for r in Zp]
    Zt = [r[0] for r in rows]
    mu, var = rows[0][1], rows[0][2]
    sd = mpmath.sqrt(var)
    half = mpf('0.5')
    W1 = [[1, -1, 0, 1, 1, 0, -1, 0], [0, 1, 1, -1, 0, 1, 0, -1], [1, 0, -1, 0, 1, -1, 0, 1], [-1, 1, 0, 1, 0, 0, 1, -1]]
    W2 = [[1, 0, 1, -1], [0, 1, -1, 0], [1, -1, 0, 1], [-1, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, -1, 0, 1], [-1, 0, 1, 0]]
    H = [[sum(Zt[i][k] * half * W1[k][j] for k in range(4)) for j in range(8)] for i in range(2)]
    R = [[max(h, 0) for h in r] for r in H]
    F = [[sum(R[i][k] * half * W2[k][j] for k in range(8)) for j in range(4)] for i in range(2)]
    Y = [[Zp[i][j] + F[i][j] for j in range(4)] for i in range(2)]
    MAG = " (the minus sign follows a brace or parenthesis and is not part of the printed token, which is the magnitude)"
    specs = [
        S('mu1', '\\mu_1=\\frac{1+0+0+1}{4}=0.5', 7, E(6, Fraction(1, 2), "mean of x1 = [1,0,0,1]")),
        S('var1', '\\sigma_1^2=\\frac{(0.5)^2', 12, *[E(k, Fraction(1, 2), "|x1_j - mean| = 0.5") for k in (2, 4, 6, 8)],
          E(11, Fraction(1, 4), "variance of x1")),
        S('sd1', '^\\sigma_1=0.5', 2, E(1, Fraction(1, 2), "sigma1 = sqrt(0.25)")),
        S('xh1', '\\hat x_1=\\frac{x_1-\\mu_1}{\\sigma_1}', 13,
          *[E(4 + j, Fraction(X[0][j]) - Fraction(1, 2), "x1_%d - mean" % j) for j in range(4)],
          E(8, Fraction(1, 2), "sigma1 restated"),
          *[E(9 + j, (Fraction(X[0][j]) - Fraction(1, 2)) / Fraction(1, 2), "x_hat1[%d]" % j) for j in range(4)]),
        S('mu2', '\\mu_2=0.5,\\sigma_2=0.5', 10, E(7, Fraction(1, 2), "mean of row 2"), E(9, Fraction(1, 2), "sigma of row 2")),
        S('Xt', '\\tilde X = \\text{LayerNorm}(X)=\\begin{bmatrix} 1 & -1', 8,
          *[E(4 * i + j, Xt[i][j], "LayerNorm(X)[%d][%d]" % (i, j)) for i in range(2) for j in range(4)]),
        S('Q1', 'Q^{(1)}=K^{(1)}=V^{(1)}=\\tilde X\\,W_Q^{(1)}', 8,
          E(4, 1, "Q1[0][0]"), E(5, -1, "Q1[0][1]"), E(6, -1, "Q1[1][0]"), E(7, 1, "Q1[1][1]")),
        S('s11', 'S^{(1)}_{11}=[1,-1]\\cdot[1,-1]=1+1=2', 9,
          E(2, 1, "Q1 row 1 restated"), E(3, -1, "Q1 row 1 restated"), E(4, 1, "K1 row 1 restated"), E(5, -1, "K1 row 1 restated"),
          E(6, 1, "1x1"), E(7, 1, "(-1)x(-1)"), E(8, 2, "S11")),
        S('s12', 'S^{(1)}_{12}=[1,-1]\\cdot[-1,1]=-1-1=-2', 9,
          E(2, 1, "Q1 row 1 restated"), E(3, -1, "Q1 row 1 restated"), E(4, -1, "K1 row 2 restated"), E(5, 1, "K1 row 2 restated"),
          E(6, -1, "1x(-1)"), E(7, 1, "(-1)x1 = -1; the token is its magnitude (the minus follows a digit)"), E(8, -2, "S12")),
        S('S1', 'S^{(1)}=\\begin{bmatrix}2&-2\\\\-2&2', 5, E(1, 2, "S11"), E(2, -2, "S12"), E(3, -2, "S21"), E(4, 2, "S22")),
        S('row', '拿第 1 列的分數 $[2,-2]$', 3, E(1, 2, "score restated"), E(2, -2, "score restated")),
        S('tn', '**不縮放** $S$', 9, E(0, 2, "score restated"), E(1, -2, "score restated"), E(2, 2, "exponent (score) restated"),
          E(3, 2, "exponent restated"), E(4, -2, "exponent restated"), E(5, e2, "e^2 = 7.389056"),
          E(6, e2 + em2, "e^2 + e^-2 = 7.524391"), E(7, e2 / (e2 + em2), "unscaled softmax weight = 0.982014"),
          E(8, em2 / (e2 + em2), "unscaled softmax weight = 0.017986")),
        S('ts', '**縮放** $E=S/\\sqrt2$', 10, E(1, r2, "2/sqrt2 = sqrt2"), E(2, -r2, "-2/sqrt2"), E(3, r2, "exponent restated"),
          E(4, r2, "exponent restated"), E(5, -r2, "exponent restated"), E(6, es, "e^sqrt2 = 4.113250"),
          E(7, es + ems, "e^sqrt2 + e^-sqrt2 = 4.356367"), E(8, a, "scaled softmax weight = 0.944193"), E(9, b, "scaled softmax weight = 0.055807")),
        S('cmp', '不縮放時權重 $0.982$', 4, E(0, e2 / (e2 + em2), "unscaled weight restated"), E(2, a, "scaled weight restated")),
        S('E1', 'E^{(1)}=\\frac{S^{(1)}}{\\sqrt2}', 7, E(3, r2, "E11"), E(4, -r2, "E12"), E(5, -r2, "E21"), E(6, r2, "E22")),
        S('A1', 'A^{(1)}=\\text{softmax}_\\text{row}', 8, E(2, a, "A11"), E(3, b, "A12"), E(4, b, "A21"), E(5, a, "A22"),
          E(7, 1, "row sum of A")),
        S('C1r', '第 1 列：$C^{(1)}_1=0.9442', 15, E(3, a, "A11 restated"), E(4, 1, "V1 row 1 restated"), E(5, -1, "V1 row 1 restated"),
          E(6, b, "A12 restated"), E(7, -1, "V1 row 2 restated"), E(8, 1, "V1 row 2 restated"),
          E(9, a, "A11 restated"), E(10, b, "A12 restated (subtracted)"), E(11, -a, "-A11"), E(12, b, "A12 restated"),
          E(13, c, "C1[0][0] = A11 - A12 = 0.888386"), E(14, -c, "C1[0][1]")),
        S('C1', 'C^{(1)}=\\begin{bmatrix}0.8884&-0.8884', 7, E(1, c, "C1[0][0]"), E(2, -c, "C1[0][1]"), E(3, -c, "C1[1][0]"), E(4, c, "C1[1][1]")),
        S('Q2', 'Q^{(2)}=K^{(2)}=V^{(2)}=\\tilde X\\,W_Q^{(2)}', 8,
          E(4, 1, "Q2[0][0] = -1" + MAG), E(5, 1, "Q2[0][1]"), E(6, 1, "Q2[1][0]"), E(7, -1, "Q2[1][1]")),
        S('S2', '分數 $S^{(2)}=Q^{(2)}(K^{(2)})^\\top', 10, E(3, 2, "S2_11"), E(4, -2, "S2_12"), E(5, -2, "S2_21"), E(6, 2, "S2_22")),
        S('C2', 'C^{(2)}=A^{(2)}V^{(2)}=', 15, E(3, a, "A restated"), E(4, b, "A restated"), E(5, b, "A restated"), E(6, a, "A restated"),
          E(7, 1, "V2[0][0] = -1" + MAG), E(8, 1, "V2[0][1]"), E(9, 1, "V2[1][0]"), E(10, -1, "V2[1][1]"),
          E(11, c, "C2[0][0] = -0.888386" + MAG), E(12, c, "C2[0][1]"), E(13, c, "C2[1][0]"), E(14, -c, "C2[1][1]")),
        S('cat', '\\text{Concat}\\big(C^{(1)},C^{(2)}\\big)', 12,
          *[E(2 + k, v, "Concat entry %d" % k) for k, v in enumerate([c, -c, -c, c, -c, c, c, -c])]),
        S('sub', '第 1 列代入（$C^{(1)}_1=[0.8884,-0.8884]$', 9, E(3, c, "C1 row 1 restated"), E(4, -c, "C1 row 1 restated"),
          E(7, -c, "C2 row 1 restated"), E(8, c, "C2 row 1 restated")),
        S('sum', '前兩維（兩頭之**和**）', 8, E(1, c, "C1[0][0] restated"), E(2, -c, "C2[0][0] restated"), E(3, 0, "O[0][0] = (c - c)/2"),
          E(5, -c, "C1[0][1] restated"), E(6, c, "C2[0][1] restated"), E(7, 0, "O[0][1]")),
        S('dif', '後兩維（兩頭之**差**）', 8, E(1, c, "C1[0][0] restated"), E(2, -c, "C2[0][0] restated"), E(3, c, "O[0][2] = (c + c)/2"),
          E(5, -c, "C1[0][1] restated"), E(6, c, "C2[0][1] restated (subtracted)"), E(7, -c, "O[0][3]")),
        S('O', 'O=\\begin{bmatrix}0&0&0.8884', 10, *[E(k, v, "O entry %d" % k) for k, v in enumerate([0, 0, c, -c, 0, 0, -c, c])]),
        S('Zp1', "Z'=X+O=\\begin{bmatrix}1&0&0&1", 16, *[E(8 + k, v, "O entry %d restated" % k) for k, v in enumerate([0, 0, c, -c, 0, 0, -c, c])]),
        S('Zp2', '=\\begin{bmatrix}1&0&0.8884&0.1116\\\\0&1&0.1116&0.8884\\end{bmatrix}', 8,
          *[E(4 * i + j, Zp[i][j], "Z'[%d][%d] = %s" % (i, j, mp.nstr(Zp[i][j], 6))) for i in range(2) for j in range(4)]),
        S('z1', "對第 1 列 $z'_1=[1,0,0.8884,0.1116]$", 6, *[E(2 + j, Zp[0][j], "Z' row 1 restated") for j in range(4)]),
        S('mu', '\\mu=\\frac{1+0+0.8884+0.1116}{4}=0.5', 6, *[E(j, Zp[0][j], "Z' row 1 restated") for j in range(4)],
          E(5, mu, "mean of Z' row 1 (exactly 0.5)")),
        S('var', '\\sigma^2=\\frac{0.5^2+0.5^2+0.3884^2+0.3884^2}{4}=0.2004', 12,
          E(1, Fraction(1, 2), "|deviation|"), E(3, Fraction(1, 2), "|deviation|"), E(5, c - half, "|deviation| = c - 0.5 = 0.388386"),
          E(7, c - half, "|deviation|"), E(10, var, "variance = %s" % mp.nstr(var, 7)), E(11, sd, "sigma = %s" % mp.nstr(sd, 7))),
        S('zt1', '\\tilde z_1=\\frac{[0.5,\\,-0.5,\\,0.3884,\\,-0.3884]}{0.4477}', 10,
          E(1, half, "deviation"), E(2, -half, "deviation"), E(3, c - half, "deviation"), E(4, half - c, "deviation"),
          E(5, sd, "sigma restated"), *[E(6 + j, Zt[0][j], "Z~[0][%d] = %s" % (j, mp.nstr(Zt[0][j], 7))) for j in range(4)]),
        S('Zt', '\\tilde Z=\\begin{bmatrix}1.1169', 8, *[E(4 * i + j, Zt[i][j], "Z~[%d][%d]" % (i, j)) for i in range(2) for j in range(4)]),
        S('w1c', '示範第 1 列、第 1 個輸出', 15, *[E(11 + k, half * W1[k][0], "column 0 of W1 = W1[%d][0]/2" % k) for k in range(4)]),
        S('h00', '(\\tilde Z W_1)_{1,0}=1.1169(0.5)', 15,
          E(3, Zt[0][0], "Z~ restated"), E(4, half, "W1 entry restated"), E(5, Zt[0][1], "Z~ restated"), E(6, 0, "W1 entry restated"),
          E(7, Zt[0][2], "Z~ restated"), E(8, half, "W1 entry restated"), E(9, Zt[0][3], "Z~ restated"), E(10, -half, "W1 entry restated"),
          W(11, Zt[0][0] * half, "1.116857 x 0.5 = %s; 0.5585 is 1.1169 x 0.5 = 0.55845 (from the rounded Z~)" % mp.nstr(Zt[0][0] * half, 7), 'rounding-carried'),
          E(12, Zt[0][2] * half, "0.867542 x 0.5 = %s" % mp.nstr(Zt[0][2] * half, 7)),
          E(13, Zt[0][3] * (-half), "(-0.867542) x (-0.5)"), E(14, H[0][0], "(Z~ W1)[0][0] = %s" % mp.nstr(H[0][0], 7))),
        S('H0', '1.4260&-1.5506&-0.9922&0.6831&0.9922', 8, *[E(j, H[0][j], "(Z~ W1)[0][%d] = %s" % (j, mp.nstr(H[0][j], 7))) for j in range(8)]),
        S('H1', '-1.4260&1.5506&0.9922&-0.6831', 8, *[E(j, H[1][j], "(Z~ W1)[1][%d]" % j) for j in range(8)]),
        S('R0', '1.4260&0&0&0.6831&0.9922&0&0&1.4260', 8, *[E(j, R[0][j], "ReLU[0][%d]" % j) for j in range(8)]),
        S('R1', '0&1.5506&0.9922&0&0&0.9922&0.9922&0', 8, *[E(j, R[1][j], "ReLU[1][%d]" % j) for j in range(8)]),
        S('F', 'F=\\begin{bmatrix}-0.3415', 8, E(0, -F[0][0], "F[0][0] = %s" % mp.nstr(F[0][0], 7) + MAG),
          *[E(j, F[j // 4][j % 4], "F[%d][%d] = %s" % (j // 4, j % 4, mp.nstr(F[j // 4][j % 4], 7))) for j in range(1, 8)]),
        S('Yp', "Y=Z'+F=\\begin{bmatrix}1&0&0.8884", 16, *[E(k, Zp[k // 4][k % 4], "Z' restated") for k in range(8)],
          E(8, -F[0][0], "F[0][0] restated" + MAG), *[E(8 + k, F[k // 4][k % 4], "F restated") for k in range(1, 8)]),
        S('Y', '\\boxed{\\,Y=\\begin{bmatrix}0.6585', 10, *[E(k, Y[k // 4][k % 4], "Y[%d][%d] = %s" % (k // 4, k % 4, mp.nstr(Y[k // 4][k % 4], 7))) for k in range(8)]),
        S('om', '維度索引 $m\\in\\{0,1\\}$', 12, E(6, 1, "omega_0 = 1/10000^0"), E(10, half, "exponent 2m/d for m = 1"),
          E(11, mpf(1) / 100, "omega_1 = 1/10000^0.5")),
        S('hdr', '| 位置 $i$ | $p_{i,0}=\\sin(i)$', 6, E(3, mpf(1) / 100, "omega_1 restated"), E(5, mpf(1) / 100, "omega_1 restated")),
    ]
    for i in range(4):
        vals = [mpmath.sin(i), mpmath.cos(i), mpmath.sin(mpf(i) / 100), mpmath.cos(mpf(i) / 100)]
        specs.append(S('pe%d' % i, '| %d | ' % i, 5, *[E(1 + j, vals[j], "p_{%d,%d} = %s" % (i, j, mp.nstr(vals[j], 8))) for j in range(4)]))
    c2, s2 = mpmath.cos(2), mpmath.sin(2)
    specs += [
        S('del', '取 $m=0$（$\\omega_0=1$）', 5, E(2, 1, "omega_0 restated")),
        S('ang', '=\\begin{bmatrix}\\cos2&\\sin2\\\\-\\sin2&\\cos2\\end{bmatrix}', 4, *[E(j, 2, "angle omega_0 delta = 2") for j in range(4)]),
        S('R', '=\\begin{bmatrix}-0.4161&0.9093\\\\-0.9093&-0.4161\\end{bmatrix}', 4,
          E(0, -c2, "cos 2 = -0.416147" + MAG), E(1, s2, "sin 2"), E(2, -s2, "-sin 2"), E(3, c2, "cos 2")),
        S('p1', 'R\\begin{bmatrix}0.8415\\\\0.5403\\end{bmatrix}', 2, E(0, mpmath.sin(1), "p_{1,0} restated"), E(1, mpmath.cos(1), "p_{1,1} restated")),
        S('rp', '=\\begin{bmatrix}-0.4161(0.8415)+0.9093(0.5403)', 8,
          E(0, -c2, "cos 2 restated" + MAG), E(1, mpmath.sin(1), "sin 1 restated"), E(2, s2, "sin 2 restated"), E(3, mpmath.cos(1), "cos 1 restated"),
          E(4, -s2, "-sin 2 restated"), E(5, mpmath.sin(1), "sin 1 restated"), E(6, -c2, "cos 2 restated" + MAG), E(7, mpmath.cos(1), "cos 1 restated")),
        S('res', '=\\begin{bmatrix}0.1411\\\\-0.9900\\end{bmatrix}', 2,
          E(0, mpmath.sin(3), "cos2 sin1 + sin2 cos1 = sin 3 = 0.141120"), E(1, mpmath.cos(3), "-sin2 sin1 + cos2 cos1 = cos 3 = -0.989992")),
        S('chk', '和表中 $i=3$ 的', 7, E(5, mpmath.sin(3), "p_{3,0} restated"), E(6, mpmath.cos(3), "p_{3,1} restated")),
    ]
    meta = {
        "doc": "zh_transformer_block_pre_ln_full_handcalc_tw.md",
        "source": "GitHub Markdown course note 「03b｜Transformer Block 計算案例（完整版）：一條前向流程從頭算到尾」 (Traditional Chinese; third of a three-stage worked example 03b1/03b2/03b, reproduced by notebook NB1-simple-llm-vanilla.ipynb §13, symbols from 03a-transformer-architecture.md); the search index did not expose the repository name (stored file id 56303856988; sibling versions with the same numbers are ids 67156976532 and 56260345225). Kept: title, the rounding note, sections 0-6 with every matrix, table and equation verbatim (including the LaTeX layout); the Traditional-Chinese prose reworded and shortened. Dropped: the reading-path blockquotes, table of contents, the 03a cross-references, the verification line under 2.1, the W_O formula of 3.3, the prose after 5.2 step 3, section 7 (NB1 reproduction) and 下一步",
        "source_kind": "course notes (GitHub Markdown, Traditional Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "display LaTeX with bmatrix matrices ('1&-1&0&1\\\\'), \\tfrac12, \\dfrac fractions inside a Markdown table, superscript head indices Q^{(1)}, primes Z', tilde/hat accents, a four-decimal PE table with Unicode minus '−0.4161', juxtaposition products '1.1169(0.5)+(-1.1169)(0)', a boxed result",
        "conventions": "Pre-LN block: LayerNorm without epsilon (x - mu)/sigma with population variance, gamma = 1, beta = 0; two heads (first/last two dims), W_Q = W_K = W_V, scores / sqrt(2), row softmax, W_O = sum/difference mixer, residual on X, second LayerNorm, FFN ReLU(Z~ W1) W2 with the given 1/2-scaled matrices, residual. Exact values: A = [0.944193, 0.055807], C = 0.888386, sigma of Z' row = 0.447685, Z~ = [1.116857, -1.116857, 0.867542, -0.867542], Y as printed (all four-decimal results round correctly from the exact chain). The only wrong number: the partial product 0.5585 = 1.1169 x 0.5 (true 1.116857 x 0.5 = 0.558428 -> 0.5584; rounding-carried); the sum 1.4260 is right. Sinusoidal PE with d = 4: omega = 1, 0.01; the table and the rotation check R p_1 = p_3 (sin 3, cos 3) are right. Where a minus sign directly follows '}' or ')' (e.g. '\\begin{bmatrix}-0.3415', '-0.4161(0.8415)...-0.4161(0.5403)', '-1-1'), the printed token is taken without that sign and its truth is the magnitude (noted in 'what'). Not listed: X, W_Q/W_K/W_V, W_O, W1, W2, gamma/beta and the hyper-parameters (inputs), matrix sizes '\\in\\mathbb{R}^{2\\times4}', superscripts (1)/(2), subscripts 11/12/1,0/i,2m, \\frac12 / \\tfrac12 coefficients (tokens '12'), section numbers, the rounding note '4' and '0.0001', table row labels 0-3, m/i/delta values",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z3: RMSNorm vs LayerNorm hand calculations, Qwen2-VL parameter counts
# ---------------------------------------------------------------------------
def doc_z3():
    eps = D('1e-6')

    def case(x):
        sq = [v * v for v in x]
        ms = sum(sq) / 4
        rms = mpmath.sqrt(M(ms + eps))
        yr = [M(v) / rms for v in x]
        mu = sum(x) / 4
        dev = [v - mu for v in x]
        var = sum(d * d for d in dev) / 4
        sd = mpmath.sqrt(M(var + eps))
        yl = [M(d) / sd for d in dev]
        return sq, ms, rms, yr, mu, dev, var, sd, yl
    x1 = [D('1.0'), D('2.0'), D('3.0'), D('4.0')]
    x2 = [D('-2.0'), D('-1.0'), D('3.0'), D('4.0')]
    sq, ms, rms, yr, mu, dev, var, sd, yl = case(x1)
    sq2, ms2, rms2, yr2, mu2, dev2, var2, sd2, yl2 = case(x2)
    specs = [
        S('ln', '**LayerNorm**: 计算 $\\mu$ ($d+1$ ops)', 6, E(4, 7, "coefficient of d: 1+1+1+1+1+1+1 (seven d-sized steps)"),
          E(5, 4, "constant: 1 + 1 + 2")),
        S('rn', '**RMSNorm**: $x^2$ ($d$)', 5, E(3, 4, "coefficient of d: four d-sized steps"), E(4, 3, "constant: 1 + 2")),
        S('sv', '**节省比例**', 13, E(6, 3, "7d - 4d"), E(7, 1, "4 - 3"),
          E(12, 100 * mpf(3) / 7, "3/7 in percent = 42.857 (at d = 1536: (3d+1)/(7d+4) = 42.851%)")),
        S('sq', '**平方: ** $x^2 = [1.0, \\ 4.0, \\ 9.0, \\ 16.0]$', 5, *[E(1 + j, sq[j], "x_%d^2" % (j + 1)) for j in range(4)]),
        S('ms', '**均方值: ** $E[x^2] = (1+4+9+16)/4 = 7.5$', 7, *[E(1 + j, sq[j], "square restated") for j in range(4)],
          E(6, ms, "mean square")),
        S('rms', '**RMS: ** $\\sqrt{7.5 + 10^{-6}} \\approx 2.73861$', 4, E(0, ms, "mean square restated"),
          E(3, rms, "sqrt(7.5 + 1e-6) = %s" % mp.nstr(rms, 9))),
        S('y12', '$y_1 = 1.0/2.73861 \\approx 0.3651$', 8, E(2, rms, "RMS restated"), E(3, yr[0], "y1 = %s" % mp.nstr(yr[0], 7)),
          E(6, rms, "RMS restated"), E(7, yr[1], "y2 = %s" % mp.nstr(yr[1], 7))),
        S('y34', '$y_3 = 3.0/2.73861 \\approx 1.0954$', 8, E(2, rms, "RMS restated"), E(3, yr[2], "y3 = %s" % mp.nstr(yr[2], 7)),
          E(6, rms, "RMS restated"), E(7, yr[3], "y4 = %s" % mp.nstr(yr[3], 7))),
        S('mu', '**均值: ** $\\mu = (1+2+3+4)/4 = 2.5$', 6, E(5, mu, "mean")),
        S('dev', '**中心化: ** $x - \\mu = [-1.5', 4, *[E(j, dev[j], "x - mu [%d]" % j) for j in range(4)]),
        S('var', '**方差: ** $\\sigma^2 = (2.25+0.25+0.25+2.25)/4 = 1.25$', 7, *[E(1 + j, dev[j] ** 2, "squared deviation %d" % j) for j in range(4)],
          E(6, var, "variance")),
        S('sd', '**标准差: ** $\\sqrt{1.25 + 10^{-6}} \\approx 1.11803$', 4, E(0, var, "variance restated"),
          E(3, sd, "sqrt(1.25 + 1e-6) = %s" % mp.nstr(sd, 9))),
        S('yl', '**归一化 ($\\gamma=1, \\beta=0$): ** $y \\approx [-1.3416', 6, *[E(2 + j, yl[j], "LayerNorm y[%d] = %s" % (j, mp.nstr(yl[j], 7))) for j in range(4)]),
    ]
    for j in range(4):
        specs.append(S('t%d' % j, '|  %d   | %d.0 |' % (j + 1, j + 1), 4, E(2, yr[j], "RMSNorm y%d restated" % (j + 1)),
                       E(3, yl[j], "LayerNorm y%d restated" % (j + 1))))
    specs += [
        S('c1', '原因是原始均值 $\\mu = 2.5$', 2, E(0, mu, "mean restated"), E(1, 0, "mean of the LayerNorm output")),
        S('sq2', '$x^2 = [4, 1, 9, 16]$, $E[x^2] = 30/4 = 7.5$', 10, *[E(1 + j, sq2[j], "x_%d^2" % (j + 1)) for j in range(4)],
          E(6, sum(sq2), "sum of squares"), E(8, ms2, "mean square"), E(9, rms2, "sqrt(7.5 + 1e-6)")),
        S('yr2', 'y_{\\text{RMS}} \\approx [-0.7303', 4, *[E(j, yr2[j], "RMSNorm y[%d] = %s" % (j, mp.nstr(yr2[j], 7))) for j in range(4)]),
        S('mu2', '$\\mu = (-2-1+3+4)/4 = 1.0$', 10, E(5, mu2, "mean"), *[E(6 + j, dev2[j], "x - mu [%d]" % j) for j in range(4)]),
        S('var2', '$\\sigma^2 = (9+4+4+9)/4 = 6.5$', 9, *[E(1 + j, dev2[j] ** 2, "squared deviation %d" % j) for j in range(4)],
          E(6, var2, "variance"), E(7, var2, "variance restated"), E(8, sd2, "sqrt(6.5 + 1e-6) = %s" % mp.nstr(sd2, 9))),
        S('yl2', 'y_{\\text{LN}} \\approx [-1.1767', 4, *[E(j, yl2[j], "LayerNorm y[%d] = %s" % (j, mp.nstr(yl2[j], 7))) for j in range(4)]),
        S('pct', '省下的参数只占 ~0.004%', 4, E(3, 100 * mpf(3) / 7, "computation saving 3/7 restated in percent")),
        S('tok', '对 $1 \\times 3602 = 3602$ 个 token', 3, E(2, 3602, "1 x 3602")),
        S('n56', 'Text Decoder (28 层 × 2 = 56 个 RMSNorm)', 3, E(2, 56, "28 x 2")),
        S('tot', '| 参数总量     | 86,016', 1, E(0, 28 * 2 * 1536, "28 x 2 x 1536")),
    ]
    meta = {
        "doc": "zh_rmsnorm_vs_layernorm_qwen2vl_handcalc.md",
        "source": "GitHub Markdown study note on RMSNorm (numbered sections 1-13 with references to Ba et al., Zhang & Sennrich, Vaswani et al., Touvron et al., Dosovitskiy et al.; it ends with the RMSNorm of Qwen2-VL-2B-Instruct and a NumPy walk-through); the search index did not expose the repository name (stored file id 56225016295); its style and the Qwen2-VL focus suggest the same note series as round 6's zh_attention_qwen2vl_causal_gqa_notes (a different file, id 56244387124), so it is not counted as a new author. Kept: 6.2 (operation counts) and 6.3, 手算示例 1 and 2 (sections 7-8) with the comparison table, 10.3-10.4 and the summary table of 13; formulas, tables and numbers verbatim, prose reworded and shortened. Dropped: sections 1-6.1 (motivation, formulas, the LayerNorm/RMSNorm property table), 9 (model timeline, Pre-Norm vs Post-Norm), 10.1-10.2, 11 (NumPy line-by-line), 12 (misconceptions) and the reference list; the title and the one-line introduction are mine",
        "source_kind": "study notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "inline LaTeX with '\\ ' spacers '[1.0, \\ 2.0, \\ 3.0, \\ 4.0]', powers '10^{-6}', '\\approx', bold run-in labels '**RMS: **', LaTeX thousands groups '86{,}016', a Markdown table with Unicode minus '−1.3416', operation counts '\\mathbf{7d + 4}'",
        "conventions": "RMSNorm y = x / sqrt(mean(x^2) + eps) and LayerNorm (x - mu)/sqrt(var + eps) with population variance, eps = 1e-6 inside the root, gamma = 1 (as stated). Example 1 (x = [1, 2, 3, 4]): RMS 2.738613, y_RMS = [0.365148, 0.730296, 1.095445, 1.460593]; LN sd 1.118034, y_LN = [-1.341640, -0.447213, 0.447213, 1.341640]. Example 2 (x = [-2, -1, 3, 4]): y_RMS = [-0.730296, -0.365148, 1.095445, 1.460593], LN mean 1, var 6.5, sd 2.549510, y_LN = [-1.176697, -0.784465, 0.784465, 1.176697]. Operation counts: LayerNorm (d+1)+d+d+(d+1)+2+d+d+d = 7d+4, RMSNorm d+(d+1)+2+d+d = 4d+3, saving (3d+1)/(7d+4) -> 3/7 = 42.9% ('43%'). Parameter counts 28 x 2 x 1536 = 86,016 and x 2 = 172,032 are right, but the LaTeX forms '86{,}016' and '172{,}032' split into the tokens 86/016 and 172/032 and are not listed; only the table's '86,016' is. Not listed: the inputs x, gamma, eps 10^{-6}, d = 1536, the per-step op counts (d, d+1, 2), '~0.004%' (depends on the exact parameter total of a '2B' model), layer indices 0-27, shapes (1, 3602, 1536) and (1536,), '2 次', '2d', section numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z4: NCAT (RL question selection) forward pass and TD update by hand
# ---------------------------------------------------------------------------
def doc_z4():
    r2 = mpmath.sqrt(2)
    s = 1 / r2
    w = mpmath.exp(s) / (mpmath.exp(s) + 1)                  # 0.669762
    Watt = [[w, 1 - w], [1 - w, w]]
    e2 = [D('0.8'), D('0.2')]
    A = [M(e2[0]) / r2, M(e2[1]) / r2]
    ea = [mpmath.exp(x) for x in A]
    At = [x / sum(ea) for x in ea]
    F10 = [At[0] * Watt[0][c] + At[1] * Watt[1][c] for c in range(2)]
    half = Fraction(1, 2)
    L = D('0.25')
    r = -L
    td = (D('0.70') - r) ** 2
    y = r + D('0.8') * D('-0.10')
    RC = "; from the printed 0.605, 0.395, 0.67, 0.33 it is %s"
    specs = [
        S('sc0', '^0.707&0\\\\', 2, E(0, s, "1/sqrt2"), E(1, 0, "0/sqrt2")),
        S('sc1', '^0&0.707', 2, E(0, 0, "0/sqrt2"), E(1, s, "1/sqrt2")),
        S('wa0', '^0.67&0.33\\\\', 2, E(0, w, "softmax weight = %s" % mp.nstr(w, 7)), E(1, 1 - w, "softmax weight")),
        S('wa1', '^0.33&0.67', 2, E(0, 1 - w, "softmax weight"), E(1, w, "softmax weight")),
        S('f0', '^0.67&0.33\\\\', 2, E(0, w, "F^1 = W_att x identity values"), E(1, 1 - w, "F^1")),
        S('f1', '^0.33&0.67', 2, E(0, 1 - w, "F^1"), E(1, w, "F^1")),
        S('F0', '\\mathbf F_t^0=[0.8,0.2].', 3, E(1, e2[0], "single-item attention output = the value"), E(2, e2[1], "single-item attention output")),
        S('A', '^0.566&0.141', 2, E(0, A[0], "0.8/sqrt2 = %s" % mp.nstr(A[0], 7)), E(1, A[1], "0.2/sqrt2 = %s" % mp.nstr(A[1], 7))),
        S('At', '^[0.605,0.395].', 2, E(0, At[0], "softmax weight = %s" % mp.nstr(At[0], 7)), E(1, At[1], "softmax weight = %s" % mp.nstr(At[1], 7))),
        S('At2', '^[0.605,0.395]', 2, E(0, At[0], "weight restated"), E(1, At[1], "weight restated")),
        S('w20', '^0.67&0.33\\\\', 2, E(0, w, "F^1 restated"), E(1, 1 - w, "F^1 restated")),
        S('w21', '^0.33&0.67', 2, E(0, 1 - w, "F^1 restated"), E(1, w, "F^1 restated")),
        S('F10', '^[0.536,0.464].', 2,
          W(0, F10[0], "F^{1->0}[0] = %s" % mp.nstr(F10[0], 7) + RC % "0.5357", 'rounding-carried'),
          W(1, F10[1], "F^{1->0}[1] = %s" % mp.nstr(F10[1], 7) + RC % "0.4643", 'rounding-carried')),
        S('F01a', '^0.8&0.2\\\\', 2, E(0, e2[0], "F^{0->1} row 1"), E(1, e2[1], "F^{0->1} row 1")),
        S('F01b', '^0.8&0.2', 2, E(0, e2[0], "F^{0->1} row 2"), E(1, e2[1], "F^{0->1} row 2")),
        S('p01', '^=[0.8,0.2].', 2, E(0, e2[0], "mean pooling"), E(1, e2[1], "mean pooling")),
        S('p0', '\\overline{\\mathbf f}_t^0=[0.8,0.2],', 3, E(1, e2[0], "pooled f^0"), E(2, e2[1], "pooled f^0")),
        S('p1a', '^[0.67,0.33]+[0.33,0.67]', 4, E(0, w, "F^1 row restated"), E(1, 1 - w, "F^1 row restated"),
          E(2, 1 - w, "F^1 row restated"), E(3, w, "F^1 row restated")),
        S('p1b', '^=[0.5,0.5],', 2, E(0, half, "(w + (1 - w))/2"), E(1, half, "((1 - w) + w)/2")),
        S('p10', '^=[0.536,0.464],', 2, W(0, F10[0], "F^{1->0} restated (true 0.5355)", 'carried', 'F10'),
          W(1, F10[1], "F^{1->0} restated (true 0.4645)", 'carried', 'F10')),
        S('p01b', '^=[0.8,0.2].', 2, E(0, e2[0], "pooled f^{0->1} restated"), E(1, e2[1], "pooled f^{0->1} restated")),
        S('u1', '^[0.8,0.2,\\,', 2, E(0, e2[0], "u_t"), E(1, e2[1], "u_t")),
        S('u2', '^0.5,0.5,\\,', 2, E(0, half, "u_t"), E(1, half, "u_t")),
        S('u3', '^0.536,0.464,\\,', 2, W(0, F10[0], "u_t entry = F^{1->0} (true 0.5355)", 'carried', 'F10'),
          W(1, F10[1], "u_t entry = F^{1->0} (true 0.4645)", 'carried', 'F10')),
        S('u4', '^0.8,0.2]', 2, E(0, e2[0], "u_t"), E(1, e2[1], "u_t")),
        S('r', '^r_t=-0.25.', 1, E(0, r, "reward = -BCE")),
        S('y', '^y_t=r_t=-0.25.', 1, E(0, r, "terminal target y = r")),
        S('tdi', '^0.70-(-0.25)', 2, E(1, r, "target restated")),
        S('td', '^0.9025.', 1, E(0, td, "(0.70 + 0.25)^2")),
        S('pull', '的预测往 \\(-0.25\\) 拉', 2, E(1, r, "target restated")),
        S('ynt', '^-0.25+0.8(-0.10)', 3, E(0, r, "reward restated")),
        S('ynt2', '^-0.33.', 1, E(0, y, "-0.25 + 0.8 x (-0.10)")),
    ]
    meta = {
        "doc": "zh_ncat_attention_td_update_handcalc.md",
        "source": "GitHub Markdown page 「完整手算示例」 of a Chinese paper-reading series on NCAT (attention-based question selection for computerized adaptive testing with Q-learning; the next page is 07-experiments.md 「实验设计、完整结果与结果分析」); the search index did not expose the repository name (stored file id 60270412165). Kept: sections 1-10 with every LaTeX display verbatim; prose reworded. Dropped: the closing comparison '-0.20>-0.70' and its sentence at the end of 10, section 11 (reward variants) and the link to the next page",
        "source_kind": "paper-reading notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "LaTeX displays in \\[ ... \\] with one matrix row per line ('0.67&0.33\\\\'), vectors without spaces '[0.605,0.395]', arrows in superscripts F_t^{1\\rightarrow0}, \\dfrac inside a bmatrix, bold vectors \\mathbf e_{q_1}^1, -\\infty masks",
        "conventions": "self-attention with identity projections and scaling 1/sqrt(2): correct channel E = I gives scores [[0.7071, 0], [0, 0.7071]] and weights [[0.669762, 0.330238], [0.330238, 0.669762]]; since V = I, F^1 equals the weights. Cross-channel scores for q2 = [0.8, 0.2]: [0.565685, 0.141421], softmax [0.604503, 0.395497]; F^{1->0} = [0.604503, 0.395497] F^1 = [0.535481, 0.464519], which round to 0.535 and 0.465: the printed [0.536, 0.464] are what the rounded 0.605/0.395/0.67/0.33 give (rounding-carried), and their restatements in the pooled vector and in u_t are carried. Pooled f^1 = [0.5, 0.5] exactly. TD: r = -0.25, (0.70 + 0.25)^2 = 0.9025, y = -0.25 + 0.8 (-0.10) = -0.33. Not listed: question indices, d = 2, the embeddings [1,0], [0,1], [0.8,0.2] where they are inputs (also inside the \\dfrac numerators), h = [0.9, 0.4] and Q = [0.30, 0.10, 0.45, 0.70] (given), the masked 0.70 and Q(s_t, q_4) = 0.70 (restatements of a given value), answers 0/1, BCE 0.25, gamma 0.8, the target -0.10, \\frac12, R^8, d_t = 1, section numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z5: blog post, word + sinusoidal position embedding for "I love NLP models."
# ---------------------------------------------------------------------------
def doc_z5():
    emb = {'I': ['0.1', '0.3', '0.5', '0.7'], 'love': ['0.2', '0.4', '0.6', '0.8'],
           'NLP': ['0.3', '0.5', '0.7', '0.9'], 'models': ['0.4', '0.6', '0.8', '1.0']}
    words = ['I', 'love', 'NLP', 'models']

    def pe(pos):
        w = mpf(1) / 100
        return [mpmath.sin(pos), mpmath.cos(pos), mpmath.sin(pos * w), mpmath.cos(pos * w)]
    kinds = {1: 'rounding', 2: 'slip', 3: 'slip'}
    specs = []
    for pos in range(4):
        v = pe(pos)
        ents = []
        for d in range(4):
            if d == 3 and pos > 0:
                ents.append(W(11 + d, v[d], "PE(%d)[3] = cos(%d/100) = %s, which rounds to 1.00" % (pos, pos, mp.nstr(v[d], 8))
                              + ("; 0.99 is truncated" if pos == 1 else ""), kinds[pos]))
            else:
                ents.append(E(11 + d, v[d], "PE(%d)[%d] = %s" % (pos, d, mp.nstr(v[d], 8))))
        specs.append(S('pe%d' % pos, '- `PE(%d) = [sin(%d)' % (pos, pos), 15, *ents))
    for pos, wd in enumerate(words):
        v = pe(pos)
        x = [M(D(a)) + v[d] for d, a in enumerate(emb[wd])]
        ents = []
        for d in range(4):
            if d == 3 and pos > 0:
                ents.append(W(4 + d, v[d], "PE(%d)[3] restated (true %s)" % (pos, mp.nstr(v[d], 5)), 'carried', 'pe%d' % pos))
                ents.append(W(8 + d, x[d], "X(%s)[3] = %s + cos(%d/100) = %s" % (wd, emb[wd][3], pos, mp.nstr(x[d], 7)), 'carried', 'pe%d' % pos))
            else:
                ents.append(E(4 + d, v[d], "PE(%d)[%d] restated" % (pos, d)))
                ents.append(E(8 + d, x[d], "X(%s)[%d] = %s + PE = %s" % (wd, d, emb[wd][d], mp.nstr(x[d], 7))))
        specs.append(S('x%d' % pos, '- `X("%s") = ' % wd, 12, *ents))
    meta = {
        "doc": "zh_position_embedding_i_love_nlp_models.md",
        "source": "GitHub Hugo/Stack-style blog post (front matter title AI_Model_Transformer, description 「NLP领域Transformer模型学习」, date 2025-03-26, sections 「词的Embedding怎么表示的？」「位置Embedding怎么表示？」「Encode是怎么工作的？」 ... 「Attention 机制是什么」 and a reference list); the search index did not expose the repository name (stored file id 37841273531). Kept: front matter, the opening motto and foreword, the whole 「位置Embedding怎么表示？」 section (embeddings, the four PE lines and the four X lines verbatim) and the one-line 「Masked怎么实现？」 answer; the Chinese prose reworded. Dropped: the Word2Vec/GloVe/BERT embedding examples, the Encoder/Decoder Q&A, the Attention paragraph and the references",
        "source_kind": "personal blog post (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "front matter, Markdown bullets with inline code 'PE(1) = [sin(1), cos(1), sin(1/10000^(2/4)), cos(1/10000^(2/4))] = [0.84, 0.54, 0.01, 0.99]', caret powers, two-decimal vectors added elementwise 'X(\"love\") = [...] + [...] = [...]'",
        "conventions": "sinusoidal PE with d = 4: PE(pos) = [sin(pos), cos(pos), sin(pos/100), cos(pos/100)] as the post's own formulas write it; X = Embedding + PE elementwise; truths from the exact sines and cosines. The fourth components cos(0.01) = 0.99995, cos(0.02) = 0.99980 and cos(0.03) = 0.99955 all round to 1.00, so the printed 0.99 (truncated: kind rounding), 0.98 and 0.97 (slips) are wrong, and so are their restatements and the sums 1.79, 1.88, 1.97 (true 1.79995 -> 1.80, 1.89980 -> 1.90, 1.99955 -> 2.00; carried). All sines, the other cosines and the other sums round correctly. Not listed: the word embeddings (inputs, also as the first vector of each X line), pos values, the arguments inside sin()/cos() and the exponent 2/4, front-matter date, section numbers, '4 维'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z6: GPT-2 study jottings (loss meaning, temperature, top-k)
# ---------------------------------------------------------------------------
def doc_z6():
    pc = mpmath.exp(-mpf('1.5'))
    logits = [D('2.0'), D('1.0'), D('0.1')]
    specs = [
        S('pc', '正确 token 概率：~0.25', 1, W(0, pc, "probability of the correct token at loss 1.5 = e^-1.5 = %s ('~0.25' rounds to 0.22 at its places)" % mp.nstr(pc, 6), 'slip')),
        S('pw', '错误 token 概率：~0.75', 2, W(0, 1 - pc, "1 - e^-1.5 = %s (1 - 0.25 = 0.75)" % mp.nstr(1 - pc, 6), 'carried', 'pc')),
    ]
    for T, a1, a2, lab, nz in [(D('1'), None, 'logits_softmax = [0.66, 0.24, 0.10]', 't1', 4),
                               (D('0.5'), 'logits / 0.5 = [4.0, 2.0, 0.2]', 'logits_softmax =  [0.88, 0.12, 0.00]', 't05', 4),
                               (D('2'), 'logits / 2 = [1.0, 0.5, 0.05]', 'logits_softmax =   [0.58, 0.35, 0.07]', 't2', 4)]:
        z = [l / T for l in logits]
        p = softmax(z)
        if a1:
            specs.append(S(lab + 'z', a1, 5, *[E(1 + j, z[j], "logit[%d] / %s" % (j, T)) for j in range(3)]))
        lits = a2.split('[')[1].split(']')[0].split(', ')
        ents = []
        for j in range(3):
            what = "softmax(logits / %s)[%d] = %s" % (T, j, mp.nstr(p[j], 6))
            ents.append(E(j, p[j], what) if rounds_to(lits[j], p[j]) else W(j, p[j], what, 'slip'))
        specs.append(S(lab + 'p', a2, nz, *ents))
    specs += [
        S('k', 'k = min(top_k, next_logit.size(-1))', 6, E(3, min(50, 4400), "min(50, 4400)"), E(5, min(50000, 4400), "min(50000, 4400)")),
        S('hd', '| head_dim | 64 |', 1, E(0, Fraction(256, 4), "n_embd / n_head = 256 / 4")),
    ]
    meta = {
        "doc": "zh_gpt2_study_jottings_temperature_topk.md",
        "source": "GitHub Markdown jottings 「# 随录」 from a GPT-2 question-answering fine-tuning project (GPT2 structure tree, MLP, 百科数据 plans, ReLU/GeLU, SFT, LoRA, Causal LM, temperature, top-k/top-p, x/y of the dataset, followed by 「GPT 训练矩阵速查表」); the search index did not expose the repository name (stored file id 56905549002). Kept verbatim (code blocks, headings and the terse bullet lines): the GeLU section (sentences lightly reworded), 「4440个词表 Loss = 1.5 意味什么」, 「ASK 时 temperature 的作用」, 「ASK 时 Top‑K 作用」 and the 全局配置 table of the cheat sheet. Dropped: the GPT2 module trees, data-plan sections, ReLU, SFT/LoRA/Causal LM notes, top-p, the x/y walk-through and the rest of the cheat sheet",
        "source_kind": "personal study jottings (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "```bash blocks used for plain notes with '#' comments in full-width parentheses '#（T = 0.5）', two-decimal probability lists, approximate values with a tilde '~0.25', Unicode arrows '→', a Python GeLU snippet, a Markdown configuration table",
        "conventions": "probabilities are softmax(logits / T) for logits [2.0, 1.0, 0.1]: T = 1 gives [0.659, 0.242, 0.099] (printed correctly at two places); T = 0.5 gives [0.863777, 0.116900, 0.019323], so 0.88 and 0.00 are slips; T = 2 gives [0.501688, 0.304289, 0.194023], so all of [0.58, 0.35, 0.07] are slips. A cross-entropy loss of 1.5 means the correct token gets e^-1.5 = 0.2231 (the note's '~0.25' is judged at its two places, slip) and the rest 0.7769 ('~0.75', carried). k = min(top_k, V) with V = 4400 gives 50 and 4400; head_dim = 256/4 = 64. Not listed: '4399 个词' (V - 1, but the heading says 4440 while the vocabulary is 4400 everywhere else, so it is ambiguous), the heading's 4440 and loss 1.5 (given), the GeLU constants, the logits and temperatures, top_k values 50/50000 and -1 indices, the other configuration values",
    }
    return meta, specs


DOCS = [doc_z1, doc_z2, doc_z3, doc_z4, doc_z5, doc_z6]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
