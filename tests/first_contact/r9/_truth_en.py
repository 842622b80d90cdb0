"""Independent true values for the English (en_) first-contact documents of round 9.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is
read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and
its status is re-derived: "ok" iff the truth rounded half away from zero at the printed
number of places equals the literal.  An integer literal is compared exactly with an
exact (rational) truth and rounded to 0 places against an irrational one (approximate
integer claims such as '~2M' are given an mpf truth so that they are rounded).  Wrong
numbers carry kind "slip" (a fresh error) or "carried" (a correct computation from, or
a repetition of, an earlier wrong or rounded printed number; "carried_from" gives that
line).

    python _truth_en.py --write      # (re)write the en_*.expect.json files
    python _truth_en.py --check      # recompute and compare with the files (default)
    python _truth_en.py --uncovered  # review aid: numeric tokens not listed
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
# thousands groups, decimals, NumPy-style trailing dot ("2.", "0."), optional exponent.
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:,\d{3})*(?:\.\d*)?(?:[eE][-+]?\d+)?')


def is_exact(v):
    return isinstance(v, (int, Fraction))


def truth_str(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return mp.nstr(mpf(v.numerator) / v.denominator, 20)
    return mp.nstr(v, 20)


def rounds_to(claimed, v):
    """True iff the literal `claimed` is v rounded half away from zero at its places."""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    exp = 0
    m = re.match(r'^(.*?)[eE]([-+]?\d+)$', lit)
    if m:
        lit, exp = m.group(1), int(m.group(2))
    if lit.endswith('.'):
        lit = lit[:-1]
    places = len(lit.split('.')[1]) if '.' in lit else 0
    digits = int(lit.replace('.', ''))          # literal = digits * 10^(exp - places)
    shift = places - exp                        # compare v * 10^shift with digits
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


def E(idx, truth, what, status='ok', kind=None, cf=None):
    return dict(idx=idx, truth=truth, what=what, status=status, kind=kind, cf=cf)


def W(idx, truth, what, kind, cf=None):
    return E(idx, truth, what, 'wrong', kind, cf)


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
    numbers = []
    pending = []
    for sp, found, toks in locate(lines, specs, docname):
        where[sp.label] = found + 1
        for e in sp.entries:
            text, col = toks[e['idx']]
            pending.append((found + 1, col, text, e, sp.label))
    seen = set()
    for line, col, text, e, label in pending:
        assert (line, col) not in seen, (docname, label, line, col)
        seen.add((line, col))
        assert lines[line - 1][col - 1:col - 1 + len(text)] == text
        good = rounds_to(text, e['truth'])
        if e['status'] == 'ok':
            assert good, (docname, label, line, col, text, truth_str(e['truth']), e['what'])
        else:
            assert not good, (docname, label, line, col, text, truth_str(e['truth']), e['what'])
            assert e['kind'] in ('slip', 'carried')
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


def M(v):
    """exact Fraction -> mpf"""
    v = Fraction(v)
    return mpf(v.numerator) / v.denominator


def D(s):
    """exact decimal"""
    return Fraction(s)


def softmax(xs):
    ex = [mpmath.exp(x) for x in xs]
    t = sum(ex)
    return [x / t for x in ex]


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def T(A):
    return [list(r) for r in zip(*A)]


def MX(A):
    return [[Fraction(x) for x in r] for r in A]



# ---------------------------------------------------------------------------
# Document A: "Cat ate mouse" attention scores -> percentages (hand calculation)
# ---------------------------------------------------------------------------
def doc_a():
    q = [D('0.3'), D('0.6')]
    keys = {'Cat': [D('0.8'), D('0.2')], 'ate': [D('0.4'), D('0.7')], 'mouse': [D('0.9'), D('0.1')]}
    names = ['Cat', 'ate', 'mouse']
    prods = {n: [q[0] * keys[n][0], q[1] * keys[n][1]] for n in names}
    sc = {n: sum(prods[n]) for n in names}
    r2 = mpmath.sqrt(2)
    ss = {n: M(sc[n]) / r2 for n in names}
    ex = {n: mpmath.exp(ss[n]) for n in names}
    tot = sum(ex.values())
    w = {n: ex[n] / tot for n in names}
    pct = {n: 100 * w[n] for n in names}
    specs = [
        S('p_cat', '^                     = 0.24 + 0.12', 2,
          E(0, prods['Cat'][0], "0.3 x 0.8"), E(1, prods['Cat'][1], "0.6 x 0.2")),
        S('s_cat', '^                     = 0.36', 1, E(0, sc['Cat'], "score ate->Cat = q . k_Cat")),
        S('p_ate', '^                     = 0.12 + 0.42', 2,
          E(0, prods['ate'][0], "0.3 x 0.4"), E(1, prods['ate'][1], "0.6 x 0.7")),
        S('s_ate', '^                     = 0.54', 1, E(0, sc['ate'], "score ate->ate = q . k_ate")),
        S('p_mouse', '^                       = 0.27 + 0.06', 2,
          E(0, prods['mouse'][0], "0.3 x 0.9"), E(1, prods['mouse'][1], "0.6 x 0.1")),
        S('s_mouse', '^                       = 0.33', 1, E(0, sc['mouse'], "score ate->mouse = q . k_mouse")),
        S('r_cat', '^"Cat":   0.36', 1, E(0, sc['Cat'], "raw score Cat restated")),
        S('r_ate', '^"ate":   0.54', 1, E(0, sc['ate'], "raw score ate restated")),
        S('r_mouse', '^"mouse": 0.33', 1, E(0, sc['mouse'], "raw score mouse restated")),
        S('sqrt2', '√d_k = √2 ≈ 1.414', 2, E(1, r2, "sqrt(2)")),
        S('sc_cat', '"Cat":   0.36 / 1.414 = 0.255', 3,
          E(0, sc['Cat'], "raw score restated"), E(1, r2, "sqrt(2) restated"), E(2, ss['Cat'], "0.36 / sqrt(2) = 0.254558")),
        S('sc_ate', '"ate":   0.54 / 1.414 = 0.382', 3,
          E(0, sc['ate'], "raw score restated"), E(1, r2, "sqrt(2) restated"), E(2, ss['ate'], "0.54 / sqrt(2) = 0.381838")),
        S('sc_mouse', '"mouse": 0.33 / 1.414 = 0.233', 3,
          E(0, sc['mouse'], "raw score restated"), E(1, r2, "sqrt(2) restated"), E(2, ss['mouse'], "0.33 / sqrt(2) = 0.233345")),
        S('e_cat', '^e^0.255 = 1.29', 2, E(0, ss['Cat'], "scaled score restated"), E(1, ex['Cat'], "exp(0.254558) = 1.28989")),
        S('e_ate', '^e^0.382 = 1.47', 2, E(0, ss['ate'], "scaled score restated"),
          W(1, ex['ate'], "exp(0.54/sqrt 2) = exp(0.381838) = 1.46497 (exp of the rounded 0.382 is 1.46521 -> 1.47)", 'carried', 'sc_ate')),
        S('e_mouse', '^e^0.233 = 1.26', 2, E(0, ss['mouse'], "scaled score restated"), E(1, ex['mouse'], "exp(0.233345) = 1.26282")),
        S('sum', '^Sum = 1.29 + 1.47 + 1.26 = 4.02', 4,
          E(0, ex['Cat'], "exp term restated"),
          W(1, ex['ate'], "exp term restated (true 1.46)", 'carried', 'e_ate'),
          E(2, ex['mouse'], "exp term restated"), E(3, tot, "sum of exponentials = 4.01768")),
        S('w_cat', '"Cat":   1.29 / 4.02 = 0.32 = 32%', 4,
          E(0, ex['Cat'], "exp term restated"), E(1, tot, "sum restated"),
          E(2, w['Cat'], "attention weight Cat = 0.32105"), E(3, pct['Cat'], "weight in percent = 32.1")),
        S('w_ate', '"ate":   1.47 / 4.02 = 0.37 = 37%', 4,
          W(0, ex['ate'], "exp term restated (true 1.46)", 'carried', 'e_ate'), E(1, tot, "sum restated"),
          W(2, w['ate'], "attention weight ate = 0.36463 (1.47 / 4.02 = 0.3657)", 'carried', 'e_ate'),
          W(3, pct['ate'], "weight in percent = 36.46", 'carried', 'e_ate')),
        S('w_mouse', '"mouse": 1.26 / 4.02 = 0.31 = 31%', 4,
          E(0, ex['mouse'], "exp term restated"), E(1, tot, "sum restated"),
          E(2, w['mouse'], "attention weight mouse = 0.31431"), E(3, pct['mouse'], "weight in percent = 31.4")),
        S('ab', '^A · B = 1  (very similar!)', 1, E(0, 1, "[1, 0] . [1, 0]")),
        S('ac', '^A · C = 0  (orthogonal, not similar)', 1, E(0, 0, "[1, 0] . [0, 1]")),
        S('ad', '^A · D = -1  (opposite directions!)', 1, E(0, -1, "[1, 0] . [-1, 0]")),
    ]
    meta = {
        "doc": "en_attention_cat_ate_mouse_percentages.md",
        "source": "GitHub Markdown note '# The Process: From Raw Scores to Percentages' (a chat-style answer: steps 1-4 on 'Cat ate mouse', 'Why Dot Product Measures Similarity?', the learning process, 'Complete Example with Actual Numbers', 'The Key Insight'); the search index did not expose the repository name (stored file id 44606517989). Kept: steps 1-4 with every numeric block verbatim (including the leading blank line and the note about an earlier 40/20/40 simplification), the dot-product similarity block, the learning-process list and the key insight (prose reworded and condensed). Dropped: the 'Complete Example with Actual Numbers' NumPy listing (it defines W_Q = [[0.1,0.2],[0.3,0.4],[0.5,0.6]], W_K, W_V that do not reproduce the step-1 vectors, e.g. 'ate' x W_Q = [0.62, 0.80], and it shows no output)",
        "source_kind": "study note / chat-style explanation (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text fenced blocks with Unicode operators (× · √ ≈ → Σ), quoted word labels '\"Cat\":   0.36', caret exponents 'e^0.255 = 1.29', chained equalities 'a / b = 0.32 = 32%', a ```py block with the softmax formula, two-decimal hand arithmetic",
        "conventions": "single query 'ate' = [0.3, 0.6] against keys Cat [0.8, 0.2], ate [0.4, 0.7], mouse [0.9, 0.1] (the step-1 projections are given, W_Q/W_K are not shown in the kept text); scaled score = q.k / sqrt(d_k) with d_k = 2; softmax over the three scaled scores; percentages = 100 x weight. Truths are computed from the exact scores (0.36/sqrt 2 etc.), not from the printed 3-decimal scaled scores: e^0.382 = 1.47 is the exp of the rounded 0.382 (true exp(0.381838) = 1.46497 -> 1.46), and 1.47 / 4.02 = 0.37 = 37% carries it (true 0.3646, 36.5%). Not listed: the embeddings and the step-1 Q/K vectors and their factors restated in the products (inputs), d_k = 2 and the 2 under the root, step and list numbers, the illustrative 40%, 20%, 40% of an earlier simplified example (not in this text), the normative 'sum to 100%', the example vectors A, B, C, D",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: RMSNorm step-by-step with a second token
# ---------------------------------------------------------------------------
def doc_b():
    eps = D('1e-5')
    x1 = [1, 2, 3, 4]
    x2 = [5, 6, 7, 8]
    ss1 = sum(Fraction(v) ** 2 for v in x1)
    ms1 = ss1 / 4
    rms1 = mpmath.sqrt(M(ms1 + eps))
    n1 = [v / rms1 for v in x1]
    ss2 = sum(Fraction(v) ** 2 for v in x2)
    rms2 = mpmath.sqrt(M(ss2 / 4 + eps))
    n2 = [v / rms2 for v in x2]
    sq = [v ** 2 for v in n1]
    sumsq = sum(sq)
    rms_out = mpmath.sqrt(sumsq / 4)
    s1 = sum(n1)
    mean1 = s1 / 4
    lab = ['0', '1', '2', '3']

    def out_row(label, anchor, what, idx0=0, ntok=4):
        return S(label, anchor, ntok, *[E(idx0 + j, n1[j], "%s normalized[%d] = x/rms" % (what, j)) for j in range(4)])

    specs = [
        S('sq', '^            = 1.0 + 4.0 + 9.0 + 16.0', 4,
          *[E(j, Fraction(x1[j]) ** 2, "%d^2" % x1[j]) for j in range(4)]),
        S('ss', '^            = 30.0', 1, E(0, ss1, "sum of squares")),
        S('ss_r', '^    = sqrt(30.0 / 4 + 1e-5)', 3, E(0, ss1, "sum of squares restated")),
        S('ms', '^    = sqrt(7.5 + 1e-5)', 2, E(0, ms1, "30 / 4")),
        S('rms', '^    ≈ 2.739', 1, E(0, rms1, "sqrt(7.5 + 1e-5) = 2.738614")),
        *[S('n%d' % j, 'normalized[%d] = %d.0 / 2.739' % (j, j + 1), 4,
            E(2, rms1, "rms restated"), E(3, n1[j], "%d / sqrt(7.50001)" % (j + 1))) for j in range(4)],
        out_row('out', '^output = [0.365, 0.730, 1.095, 1.461]', 'output ='),
        S('v1', '^rms = sqrt((0.365² + 0.730² + 1.095² + 1.461²) / 4)', 5,
          *[E(j, n1[j], "normalized[%d] restated" % j) for j in range(4)]),
        S('v2', '^    = sqrt((0.133 + 0.533 + 1.199 + 2.135) / 4)', 5,
          E(0, sq[0], "normalized[0]^2 = 1/7.50001 = 0.133333"),
          E(1, sq[1], "normalized[1]^2 = 4/7.50001 = 0.533332"),
          W(2, sq[2], "normalized[2]^2 = 9/7.50001 = 1.199998 (1.095^2 = 1.199025)", 'carried', 'n2'),
          W(3, sq[3], "normalized[3]^2 = 16/7.50001 = 2.133331 (1.461^2 = 2.134521)", 'carried', 'n3')),
        S('v3', '^    = sqrt(4.0 / 4)', 2, E(0, sumsq, "sum of squared outputs = 30/7.50001 = 3.999995")),
        S('v4', '^    = sqrt(1.0)', 1, E(0, sumsq / 4, "mean of squared outputs = 0.9999987")),
        S('v5', '^    = 1.0 ✓', 1, E(0, rms_out, "RMS of the output = 0.9999993")),
        S('m1', '^mean = (0.365 + 0.730 + 1.095 + 1.461) / 4', 5,
          *[E(j, n1[j], "normalized[%d] restated" % j) for j in range(4)]),
        S('m2', '^     = 3.651 / 4', 2, E(0, s1, "sum of outputs = 10/2.738614 = 3.651484")),
        S('m3', '^     ≈ 0.913  (NOT zero!)', 1, E(0, mean1, "mean of outputs = 0.912871")),
        S('t1rms', '^- RMS = 2.739', 1, E(0, rms1, "token 1 RMS restated")),
        out_row('t1out', '^- output: `[0.365, 0.730, 1.095, 1.461]`', 'token 1'),
        S('t2rms', '^- RMS = 7.071', 1,
          W(0, rms2, "token 2 RMS = sqrt((25+36+49+64)/4 + 1e-5) = sqrt(43.50001) = 6.595454 (7.071 = sqrt(50))", 'slip')),
        S('t2out', '^- output: `[0.707, 0.849, 0.990, 1.131]`', 4,
          *[W(j, n2[j], "token 2 normalized[%d] = %d / 6.595454 = %s" % (j, x2[j], mp.nstr(n2[j], 6)), 'carried', 't2rms')
            for j in range(4)]),
    ]
    meta = {
        "doc": "en_rmsnorm_step_by_step_two_tokens.md",
        "source": "GitHub Markdown fragment '## Step-by-Step Example' (RMSNorm on the token [1.0, 2.0, 3.0, 4.0], verification, differences from LayerNorm, multiple-tokens example); the search index did not expose the repository name (stored file id 44742161718). Whole file kept; every code block verbatim, the short prose lines between the blocks and the five-item LayerNorm list reworded",
        "source_kind": "documentation fragment (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "fenced plain-text blocks with aligned '=' continuation lines, Unicode superscript squares '1.0²', 'sqrt(...)', '≈', 'normalized[0] = 1.0 / 2.739 ≈ 0.365', e-notation epsilon '1e-5', a check mark '= 1.0 ✓', inline code vectors in bullets '- output: `[0.365, ...]`'",
        "conventions": "RMSNorm with eps inside the root: rms = sqrt(mean(x^2) + 1e-5), output = x / rms * weight with weight = 1. Truths use eps = 1e-5 exactly (token 1: sqrt(7.50001) = 2.738614; token 2: sqrt(43.50001) = 6.595454). The verification recomputes from the exact normalized values (normalized[i]^2 = x_i^2 / 7.50001), so 1.199 and 2.135 (squares of the rounded 1.095 and 1.461) are carried; the token-2 RMS 7.071 is sqrt(50), not sqrt(174/4), and its four outputs (x / 7.071) carry it. Not listed: the input vectors (also restated as bases of the squares), emb_dim 4 and the divisor 4, eps, weights [1, 1, 1, 1], indices in normalized[i], step/list/token numbers, the qualitative 'mean is not 0' and 'about 1'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: sinusoidal positional encoding, 4 positions x 8 dimensions
# ---------------------------------------------------------------------------
def doc_c():
    div = [1, 10, 100, 1000]                      # 10000^(2i/8), exact
    ang = [[Fraction(p, div[i]) for i in range(4)] for p in range(4)]

    def pe(p, d):
        a = M(ang[p][d // 2])
        if p == 0:
            return 0 if d % 2 == 0 else 1
        return mpmath.sin(a) if d % 2 == 0 else mpmath.cos(a)

    PE = [[pe(p, d) for d in range(8)] for p in range(4)]
    specs = [
        S('d0', '| 0   | 0        | 1          | $10000^0 = 1$', 6, E(4, 0, "2i/8 for i = 0"), E(5, 1, "10000^0")),
        S('d1', '| 1   | 2        | 3          | $10000^{0.25} = 10$', 6,
          E(4, Fraction(2, 8), "2i/8 for i = 1"), E(5, 10, "10000^0.25")),
        S('d2', '| 2   | 4        | 5          | $10000^{0.5} = 100$', 6,
          E(4, Fraction(4, 8), "2i/8 for i = 2"), E(5, 100, "10000^0.5")),
        S('d3', '| 3   | 6        | 7          | $10000^{0.75} = 1000$', 6,
          E(4, Fraction(6, 8), "2i/8 for i = 3"), E(5, 1000, "10000^0.75")),
        S('hdr', '| Position | dim 0,1 (÷1) | dim 2,3 (÷10)', 12,
          E(2, 1, "divisor restated"), E(5, 10, "divisor restated"), E(8, 100, "divisor restated"), E(11, 1000, "divisor restated")),
        *[S('a%d' % p, '| pos=%d    |' % p, 5, *[E(1 + i, ang[p][i], "angle pos %d / %d" % (p, div[i])) for i in range(4)])
          for p in range(4)],
    ]
    names = ['sin(θ₀)', 'cos(θ₀)', 'sin(θ₁)', 'cos(θ₁)', 'sin(θ₂)', 'cos(θ₂)', 'sin(θ₃)', 'cos(θ₃)']
    for p in range(4):
        specs.append(S('t%d' % p, '| %d        | ' % p, 9,
                       *[E(1 + d, PE[p][d], "PE[%d][%d] = %s at angle %s" % (p, d, names[d], ang[p][d // 2])) for d in range(8)]))
    for p in range(4):
        specs.append(S('m%d' % p, '  # pos %d: [' % p, 9,
                       *[E(1 + d, PE[p][d], "PE[%d][%d] restated (matrix)" % (p, d)) for d in range(8)]))
    emb = [[D(v) for v in r] for r in (['0.5', '0.3', '0.8', '0.1'], ['0.2', '0.7', '0.4', '0.9'], ['0.9', '0.1', '0.6', '0.3'])]
    fin = [[emb[p][d] + PE[p][d] for d in range(4)] for p in range(3)]
    specs += [
        S('add0', '[0.5+0.000, 0.3+1.000, 0.8+0.000, 0.1+1.000, ...],', 8,
          *[E(2 * d + 1, PE[0][d], "PE[0][%d] restated" % d) for d in range(4)]),
        S('f0', '# = [0.500, 1.300, 0.800, 1.100, ...]', 4, *[E(d, fin[0][d], "dog + PE[0][%d]" % d) for d in range(4)]),
        S('add1', '[0.2+0.841, 0.7+0.540, 0.4+0.100, 0.9+0.995, ...],', 8,
          *[E(2 * d + 1, PE[1][d], "PE[1][%d] restated" % d) for d in range(4)]),
        S('f1', '# = [1.041, 1.240, 0.500, 1.895, ...]', 4, *[E(d, fin[1][d], "bites + PE[1][%d]" % d) for d in range(4)]),
        S('add2', '[0.9+0.909, 0.1-0.416, 0.6+0.199, 0.3+0.980, ...],', 8,
          E(1, PE[2][0], "PE[2][0] restated"), E(3, -PE[2][1], "magnitude of PE[2][1] = -cos(2), written as '0.1-0.416'"),
          E(5, PE[2][2], "PE[2][2] restated"), E(7, PE[2][3], "PE[2][3] restated")),
        S('f2', '# = [1.809, -0.316, 0.799, 1.280, ...]', 4, *[E(d, fin[2][d], "man + PE[2][%d]" % d) for d in range(4)]),
        S('fp0', '^Position 0: [0.00, 1.00, 0.00, 1.00, 0.00, 1.00, ...]  All cosines = 1', 8,
          *[E(1 + d, PE[0][d], "PE[0][%d] to 2 places" % d) for d in range(6)], E(7, 1, "cos(0)")),
        S('fp1', '^Position 1: [0.84, 0.54, 0.10, 0.99, 0.01, 1.00, ...]  Distinct pattern', 7,
          E(1, PE[1][0], "sin(1) to 2 places"), E(2, PE[1][1], "cos(1) to 2 places"), E(3, PE[1][2], "sin(0.1) to 2 places"),
          W(4, PE[1][3], "cos(0.1) = 0.995004 to 2 places is 1.00 (0.99 truncates; the 3-place 0.995 also rounds to 1.00)", 'slip'),
          E(5, PE[1][4], "sin(0.01) to 2 places"), E(6, PE[1][5], "cos(0.01) to 2 places")),
        S('fp2', '^Position 2: [0.91, -0.42, 0.20, 0.98, 0.02, 1.00, ...] Distinct pattern', 7,
          *[E(1 + d, PE[2][d], "PE[2][%d] to 2 places" % d) for d in range(6)]),
    ]
    meta = {
        "doc": "en_positional_encoding_dog_bites_man.md",
        "source": "GitHub Markdown tutorial chapter '# Positional Encoding: Teaching the Model Word Order' (table of contents 1-9, code from src/layers.py); the search index did not expose the repository name (stored file id 34160817519). Kept: the problem section, the formula, the whole 'Step-by-Step Numeric Example' (tables, matrix and the Step-5 Python block verbatim) and 'Why Sines and Cosines?' items 1-3 (fingerprint block verbatim). Dropped: table of contents, item 4 (generalisation), the PositionalEncoding class and usage listing, the visualisation section (ASCII plot, heatmap, the 8x8 position-similarity matrix whose basis is not stated), alternative approaches and the rest; prose condensed",
        "source_kind": "tutorial chapter (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "LaTeX display formulas $$PE_{(pos, 2i)} = \\sin(...)$$, Markdown pipe tables with inline LaTeX '$10000^{0.25} = 10$' and '÷10' headers, Unicode subscripts 'sin(θ₀)', a commented Python-list matrix '# pos 1: [0.841,  0.540, ...]', a Python block with in-line sums '0.2+0.841' and result comments '# = [1.041, ...]', a binary minus written '0.1-0.416', a two-decimal fingerprint block with trailing '...'",
        "conventions": "sinusoidal PE with d_model = 8: PE(pos, 2i) = sin(pos / 10000^(2i/8)), PE(pos, 2i+1) = cos(pos / 10000^(2i/8)), divisors 1, 10, 100, 1000 exactly; angles pos / divisor exact; sin/cos with mpmath at 50 digits; final embedding = made-up token embedding + PE (first four dimensions shown). In '0.1-0.416' the 0.416 is judged as the magnitude of PE[2][1] = cos(2) = -0.416147. The fingerprint rows are 2-place roundings of PE; cos(0.1) = 0.995004 printed 0.99 is a slip. Not listed: sentence/position labels, the formula constants (2, 10000, 2i+1), the dimension indices in the tables (i, 2i, 2i+1, dim 0,1 ...), sequence length 4 and dimension 8, the token embeddings (also as first summands), the '2pi to 10000*2pi' wavelength range, '[-1, 1]', step and item numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: softmax_cross_entropy_with_logits, hand steps + TF/NumPy printouts
# ---------------------------------------------------------------------------
def doc_d():
    p1 = softmax([4, 2, 1])
    p2 = softmax([0, 5, 1])
    lab2 = [0, D('0.8'), D('0.2')]
    ce1 = -mpmath.log(p1[0])
    ce2 = -sum(M(lab2[j]) * mpmath.log(p2[j]) for j in range(3) if lab2[j])

    def pv(j, row, first):
        """status of a restated softmax value: the float32 ones 0.11419519 and 0.9755587 are wrong"""
        p = (p1, p2)[row][j]
        what = "softmax(%s)[%d]" % (['[4, 2, 1]', '[0, 5, 1]'][row], j)
        bad = {(0, 1): 'f2', (1, 1): 'f5'}
        if (row, j) in bad:
            if first:
                return lambda idx: W(idx, p, what + " (float32 print; true value rounds to the next digit)", 'slip')
            return lambda idx: W(idx, p, what + " restated", 'carried', bad[(row, j)])
        return lambda idx: E(idx, p, what + ("" if first else " restated"))

    specs = [
        S('f4', '^f(4.0) = e^4.0 / (e^4.0 + e^2.0 + e^1.0) = 0.8437947', 6, pv(0, 0, True)(5)),
        S('f0', '^f(0) = e^4.0 / (e^0 + e^5.0 + e^1.0) = 0.00657326', 6, pv(0, 1, True)(5)),
        S('f2', '^f(2.0) = e^4.0 / (e^4.0 + e^2.0 + e^1.0) = 0.11419519', 6, pv(1, 0, True)(5)),
        S('f5', '^f(5.0) = e^4.0 / (e^4.0 + e^2.0 + e^1.0) = 0.9755587', 6, pv(1, 1, True)(5)),
        S('f1a', '^f(1.0) = e^4.0 / (e^4.0 + e^2.0 + e^1.0) = 0.04201007', 6, pv(2, 0, True)(5)),
        S('f1b', '^f(1.0) = e^4.0 / (e^4.0 + e^2.0 + e^1.0) = 0.01786798', 6, pv(2, 1, True)(5)),
        S('cef', '= - (1 * log(0.8437947) + 0 * log(0.11419519)', 12,
          pv(0, 0, False)(1), pv(1, 0, False)(3), pv(2, 0, False)(5),
          pv(0, 1, False)(7), pv(1, 1, False)(9), pv(2, 1, False)(11)),
        S('ce', '^= 0.16984606, 0.82474496', 2,
          W(0, ce1, "CE row 1 = -ln p(4.0) = 0.16984602 (-ln of the printed 0.8437947 = 0.16984606)", 'carried', 'f4'),
          W(1, ce2, "CE row 2 = -(0.8 ln p(5.0) + 0.2 ln p(1.0)) = 0.82474489 (from the printed 0.9755587 and 0.01786798: 0.82474496)", 'carried', 'f5')),
        S('o1', '^array([[0.8437947 , 0.11419519, 0.04201007],', 3,
          pv(0, 0, False)(0), pv(1, 0, False)(1), pv(2, 0, False)(2)),
        S('o2', '^[0.00657326, 0.9755587 , 0.01786798]], dtype=float32)>', 4,
          pv(0, 1, False)(0), pv(1, 1, False)(1), pv(2, 1, False)(2)),
        S('np', '^array([0.16984606, 0.82474496])', 2,
          W(0, ce1, "CE row 1 restated (np.log of the float32 softmax)", 'carried', 'f4'),
          W(1, ce2, "CE row 2 restated (np.log of the float32 softmax)", 'carried', 'f5')),
        S('tf', '^numpy=array([0.16984604, 0.82474494], dtype=float32)>', 3,
          W(0, ce1, "fused float32 CE row 1 (true 0.16984602)", 'slip'),
          W(1, ce2, "fused float32 CE row 2 (true 0.82474489)", 'slip')),
    ]
    meta = {
        "doc": "en_softmax_cross_entropy_tf_printout.md",
        "source": "github samanta-scratch/softmax-cross-entropy:README.md (the stored version with content, index file id 42753052601; the version at commit 36da7237 holds only the title). Whole file kept: every formula line, code block and printed output verbatim (including the copy-pasted 'e^4.0 / (e^4.0 + e^2.0 + e^1.0)' right-hand sides and the '5 * log' / '1 * log' label typos); only the two explanatory sentences of 'Maths behind' reworded",
        "source_kind": "project README (GitHub) with TensorFlow/NumPy printouts",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain Markdown lines 'f(4.0) = e^4.0 / (e^4.0 + e^2.0 + e^1.0) = 0.8437947' with caret exponents, H4 formula headings '#### f(s) = e^s/∑e^s', a two-part CE line separated by ' , ', TensorFlow tensor reprs '<tf.Tensor: shape=(2, 3), dtype=float32, numpy=' split over blank-separated lines, float32 digits padded with a space '0.8437947 ,', a NumPy float64 array repr",
        "conventions": "softmax per row of logits [[4, 2, 1], [0, 5, 1]]; f(s) is the softmax value of logit s within its own row (the written right-hand sides all repeat row 1's e^4.0 numerator, and f(0) uses row 2's denominator with e^4.0 on top; the printed values are judged as the labelled f(s)). CE per row = -sum t log f with labels [[1, 0, 0], [0, 0.8, 0.2]] from the code (the hand line writes the row-2 weights as '5' and '1'); natural log. Float32 printouts are judged at their printed digits: 0.11419519 (true 0.114195199) and 0.9755587 (true 0.97555875) are slips, repeated values carried. The hand/NumPy CE 0.16984606, 0.82474496 equal -sum t ln of the printed (float32) probabilities, so they are carried; the fused TF values 0.16984604, 0.82474494 are fresh float32 slips (true 0.16984602, 0.82474489). Not listed: logits and labels (also inside the formula lines and the CE line), step numbers 01/02, tensor shapes and the 32 of float32, axis=1",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: parameter count of one multi-head attention block (homework solution)
# ---------------------------------------------------------------------------
def doc_e():
    d, h, dk = 512, 8, 64
    w1 = d * d
    p1 = w1 + d
    tot_w = 4 * w1
    tot_b = 4 * d
    tot = 4 * p1
    ffn = 2 * d * 2048 + 2048 + d
    specs = [
        S('pp2', '^                          = 262,144 + 512', 2, E(0, w1, "512 x 512")),
        S('pp3', '^                          = 262,656 parameters', 1, E(0, p1, "512^2 + 512")),
        S('qkv1', '^Total Q,K,V parameters = 3 × 262,656', 2, E(1, p1, "per-projection count restated")),
        S('qkv2', '^                       = 787,968 parameters', 1, E(0, 3 * p1, "3 x 262,656")),
        S('split', 'Each projection maps d_model = 512 features to 512 features', 7, E(4, h * dk, "8 x 64")),
        S('concat', 'concatenating the h heads gives', 3, E(1, h * dk, "h x d_k = 8 x 64")),
        S('wo1', '^                  = 262,144 parameters', 1, E(0, w1, "512 x 512 (W_O)")),
        S('wo2', '^Total W_O parameters = 262,144 + 512', 2, E(0, w1, "W_O weight count restated")),
        S('wo3', '^                     = 262,656 parameters', 1, E(0, p1, "262,144 + 512")),
    ]
    for name in ('Q projection (W_Q)', 'K projection (W_K)', 'V projection (W_V)', 'Output projection (W_O)'):
        specs.append(S('t_' + name[0], '| %s | 512 × 512 = 262,144 | 512 | 262,656 |' % name, 5,
                       E(2, w1, "512 x 512"), E(4, p1, "weights + bias")))
    specs += [
        S('ttot', '| **TOTAL** | **1,048,576** | **2,048** | **1,050,624** |', 3,
          E(0, tot_w, "4 x 262,144"), E(1, tot_b, "4 x 512"), E(2, tot, "4 x 262,656")),
        *[S('m1' + c, '^%s projection:     262,656' % c, 1, E(0, p1, "%s projection count restated" % c)) for c in 'QKVO'],
        S('m1t', '^TOTAL:          1,050,624 parameters', 1, E(0, tot, "sum of the four projections")),
        S('m2a', '^      = 4 × (262,144 + 512)', 3, E(1, w1, "512^2")),
        S('m2b', '^      = 4 × 262,656', 2, E(1, p1, "512^2 + 512")),
        S('m2c', '^      = 1,050,624 parameters', 1, E(0, tot, "4 x 262,656")),
        S('vw', '^Weight parameters: 4 × 512² = 4 × 262,144 = 1,048,576 ✓', 5, E(3, w1, "512^2"), E(4, tot_w, "4 x 262,144")),
        S('vb', '^Bias parameters:   4 × 512  = 2,048 ✓', 3, E(2, tot_b, "4 x 512")),
        S('vt', '^Total:             1,048,576 + 2,048 = 1,050,624 ✓', 3,
          E(0, tot_w, "weights restated"), E(1, tot_b, "biases restated"), E(2, tot, "1,048,576 + 2,048")),
        S('sym', '1. **Symmetry:** Q, K, V and O each hold 262,656 parameters', 2, E(1, p1, "per-projection count restated")),
        S('dw', '^   - Weights: 1,048,576 (99.8%)', 2, E(0, tot_w, "weights restated"), E(1, Fraction(100 * tot_w, tot), "weight share in % = 99.805")),
        S('db', '^   - Biases: 2,048 (0.2%)', 2, E(0, tot_b, "biases restated"), E(1, Fraction(100 * tot_b, tot), "bias share in % = 0.195")),
        S('dbl', 'If d_model doubles → parameters increase by 4×', 1,
          E(0, M(Fraction(4 * 1024 * 1025, tot)), "ratio of totals 4*1024*1025 / 4*512*513 = 3.996 (weights alone: exactly 4); approximate claim")),
        S('dbl2', 'Example: d_model=1024 would have 4× as many parameters', 2,
          E(1, M(Fraction(4 * 1024 * 1025, tot)), "4,198,400 / 1,050,624 = 3.996 (approximate '4x')")),
        S('fin', '^# **1,050,624 parameters**', 1, E(0, tot, "final answer restated")),
        S('bq', '- **Q, K, V projections:** 787,968 parameters', 1, E(0, 3 * p1, "Q,K,V total restated")),
        S('bo', '- **Output projection (W_O):** 262,656 parameters', 1, E(0, p1, "W_O total restated")),
        S('bt', '- **Total:** 1,050,624 parameters', 1, E(0, tot, "total restated")),
        S('alt', '^      = 4 × 512 × 513', 3, E(2, d + 1, "d_model + 1")),
        S('alt2', '^      = 1,050,624 parameters', 1, E(0, tot, "4 x 512 x 513")),
        S('ffn', '- **Feed-forward network:** ~2M parameters (with d_ff = 2048)', 2,
          E(0, M(Fraction(ffn, 10 ** 6)), "FFN 512x2048 + 2048 + 2048x512 + 512 = 2,099,712 in millions ('~2M')")),
        S('ln', '- **Layer normalization:** ~1K parameters', 1,
          E(0, M(Fraction(2 * d, 1000)), "gamma + beta = 1,024 in thousands ('~1K')")),
        S('mha', '- The MHA block (~1M params)', 1, E(0, M(Fraction(tot, 10 ** 6)), "1,050,624 in millions ('~1M')")),
    ]
    meta = {
        "doc": "en_mha_parameter_count_homework.md",
        "source": "github HEEHWANWANG/nlp-teaching-system:homework/solutions/week3_problem_1.1b_solution.md (commit 0c40ad7d). Kept: problem statement, steps 1-5, the final answer with breakdown and alternative expression, and the comparison bullets; every calculation block and the summary table verbatim. Dropped: the 'why do we need W_O' list (condensed into one sentence), 'Educational Notes' (why it matters, common mistakes), the appendix with the general formula; prose reworded",
        "source_kind": "course homework solution (GitHub Markdown)",
        "language": "en",
        "errors_as_published": False,
        "notation": "fenced plain-text derivations with aligned '=' continuation lines, thousands separators (262,144; 1,050,624), Unicode × and superscript '512²', set notation 'W_Q ∈ ℝ^(d_model × d_model)', a pipe table with bold totals '**1,048,576**', box-drawing rules '─────', check marks '✓', percentage shares '(99.8%)', approximate magnitudes '~2M', '~1K', '~1M', ratio '4×'",
        "conventions": "one MHA block with bias in all four d_model x d_model projections: 4 (d^2 + d) with d = 512. Shares: 1,048,576 / 1,050,624 = 99.805 %, 2,048 / 1,050,624 = 0.195 %. The approximate claims are rounded to their printed digits: '4×' against the ratio of totals for d_model 1024 vs 512 (3.996; the weight ratio is exactly 4), '~2M' against the FFN count 2,099,712 (512x2048 + 2048 + 2048x512 + 512), '~1K' against LayerNorm gamma + beta = 1,024, '~1M' against 1,050,624. Not listed: the givens d_model = 512, h = 8, d_k = d_v = 64, d_ff = 2048, d_model = 1024, and their restatements (512 x 512 factors, the bias count 512 = d_model, '512 features', 'd_k=64', the final '= 512.' of d_model), the factor 3 and 4 (number of projections), algebraic coefficients in '4d_model² + 4d_model', problem/step/list numbers, head indices",
    }
    return meta, specs


DOCS = [doc_a, doc_b, doc_c, doc_d, doc_e]
def expectation(fn):
    meta, specs = fn()
    out = dict(meta)
    out["numbers"] = build(meta["doc"], specs)
    return out


def uncovered():
    for fn in DOCS:
        meta, specs = fn()
        exp = expectation(fn)
        have = {(r['line'], r['column']) for r in exp['numbers']}
        lines = open(os.path.join(HERE, meta['doc']), encoding='utf-8').read().split('\n')
        print("==", meta['doc'])
        for i, l in enumerate(lines, 1):
            miss = [m.group() for m in NUM_RE.finditer(l) if (i, m.start() + 1) not in have]
            if miss:
                print("%4d %s   | %s" % (i, miss, l[:60]))


def main(argv):
    mode = argv[1] if len(argv) > 1 else '--check'
    assert mode in ('--check', '--write', '--uncovered'), mode
    if mode == '--uncovered':
        uncovered()
        return 0
    bad = 0
    for fn in DOCS:
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
        print("%-45s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
