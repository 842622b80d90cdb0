"""Independent true values for the English (en_) first-contact documents of round 8.

Standard library (fractions, random) + mpmath (50 digits) only.  Decimal text in a
document is read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and
its status is re-derived: "ok" iff the truth rounded half away from zero at the printed
number of places equals the literal.  An integer literal is compared exactly with an
exact (rational) truth and rounded to 0 places against an irrational one.  A literal in
e-notation (104e12) is rounded at the quantum of its last mantissa digit (10^12 here).
Wrong numbers carry kind "slip" (a fresh error) or "carried" (a correct computation from,
or a repetition of, an earlier wrong or rounded printed number; "carried_from" gives that
line).

    python _truth_en.py --write      # (re)write the en_*.expect.json files
    python _truth_en.py --check      # recompute and compare with the files (default)
    python _truth_en.py --uncovered  # review aid: numeric tokens not listed
"""
import json
import os
import random
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
# Document A: GELU dry-run, FFN parameter count, vanishing-gradient ratios
# ---------------------------------------------------------------------------
def doc_a():
    c = mpmath.sqrt(2 / mpmath.pi)

    def gelu(x):
        x = M(x) if not isinstance(x, mpf) else x
        return x / 2 * (1 + mpmath.tanh(c * (x + mpf('0.044715') * x ** 3)))

    inner = D('1.044715')
    sc = c * M(inner)                       # 0.833562
    th = mpmath.tanh(sc)                    # 0.682384
    g1 = gelu(1)                            # 0.841192
    gm1 = gelu(-1)                          # -0.158808
    # location of the minimum of the tanh-approximated GELU
    xmin = mpmath.findroot(lambda x: mpmath.diff(gelu, x), mpf('-0.75'))
    relu = lambda x: max(Fraction(x), Fraction(0))
    tab = [('-3.0', 'tn3'), ('-2.0', 'tn2'), ('-1.0', 'tn1'), ('-0.5', 'tnh'), ('0.0', 't0'),
           ('0.5', 'th'), ('1.0', 't1'), ('2.0', 't2'), ('3.0', 't3')]
    tab_specs = []
    for x, lab in tab:
        anchor = '^' + {'-3.0': '-3.0      0.000     -0.004    ← nearly zero but not exactly',
                        '-2.0': '-2.0      0.000     -0.045',
                        '-1.0': '-1.0      0.000     -0.159',
                        '-0.5': '-0.5      0.000     -0.154',
                        '0.0': ' 0.0      0.000      0.000    ← both are zero at the origin',
                        '0.5': ' 0.5      0.500      0.346',
                        '1.0': ' 1.0      1.000      0.841',
                        '2.0': ' 2.0      2.000      1.955    ← converging toward identity',
                        '3.0': ' 3.0      3.000      2.996'}[x]
        tab_specs.append(S(lab, anchor, 3, E(1, relu(D(x)), "ReLU(%s)" % x),
                           E(2, gelu(D(x)), "GELU(%s), tanh approximation" % x)))
    G = {k: D(v) for k, v in (('0', '0.00020173191'), ('1', '0.00012952960'), ('2', '0.00072653913'),
                              ('3', '0.00139491090'), ('4', '0.00504139643'))}
    r = lambda k: G['4'] / G[k]
    specs = [
        S('const', 'The constants $\\sqrt{2/\\pi} \\approx 0.7979$', 3, E(1, c, "sqrt(2/pi)")),
        S('x3', '^x^3   = 1.0', 2, E(1, 1, "x^3 for x = 1")),
        S('inner', '^          = 1.044715', 1, E(0, inner, "x + 0.044715 x^3 for x = 1")),
        S('sq', 'sqrt(2/π):  sqrt(2 / 3.14159) ≈ 0.7979', 4, E(3, c, "sqrt(2/pi) (also sqrt(2/3.14159) = 0.797885)")),
        S('scaled', '^scaled:     0.7979 * 1.044715 ≈ 0.8335', 3, E(0, c, "sqrt(2/pi) restated"), E(1, inner, "inner sum restated"),
          W(2, sc, "sqrt(2/pi) * 1.044715 = 0.833562 (0.7979 * 1.044715 = 0.833578 also rounds to 0.8336)", 'slip')),
        S('tanh', '^tanh:       tanh(0.8335) ≈ 0.6827', 2,
          W(0, sc, "scaled argument restated (true 0.8336)", 'carried', 'scaled'),
          W(1, th, "tanh(0.833562) = 0.682384 (tanh(0.8335) = 0.682351, also 0.6824)", 'slip')),
        S('br', '^bracket:    1 + 0.6827 = 1.6827', 3,
          W(1, th, "tanh value restated", 'carried', 'tanh'),
          W(2, 1 + th, "1 + tanh = 1.682384", 'carried', 'tanh')),
        S('out', '^output:     0.5 * 1.0 * 1.6827 = 0.8413', 4,
          W(2, 1 + th, "bracket restated", 'carried', 'tanh'),
          W(3, g1, "GELU(1) = 0.5 * 1.682384 = 0.841192 (0.5 * 1.6827 = 0.84135)", 'carried', 'br')),
        S('g1', '^GELU(1.0) ≈ 0.8413', 2, W(1, g1, "GELU(1.0) restated (true 0.8412)", 'carried', 'out')),
        S('r1', '^ReLU(1.0)  = 1.0', 2, E(1, 1, "ReLU(1.0)")),
        S('prose1', 'So GELU gives 0.8413 where ReLU would give 1.0', 5,
          W(0, g1, "GELU(1.0) restated (true 0.8412)", 'carried', 'out'), E(1, 1, "ReLU(1.0) restated")),
        S('x3m', '^x^3   = -1.0', 2, E(1, -1, "x^3 for x = -1")),
        S('innerm', '^          = -1.044715', 1, E(0, -inner, "x + 0.044715 x^3 for x = -1")),
        S('scm', '^scaled:     0.7979 * (-1.044715) ≈ -0.8335', 3, E(0, c, "sqrt(2/pi) restated"), E(1, -inner, "inner sum restated"),
          W(2, -sc, "sqrt(2/pi) * (-1.044715) = -0.833562 (the x = 1 value with a minus sign)", 'carried', 'scaled')),
        S('tanhm', '^tanh:       tanh(-0.8335) ≈ -0.6827', 2,
          W(0, -sc, "scaled argument restated (true -0.8336)", 'carried', 'scaled'),
          W(1, -th, "tanh(-0.833562) = -0.682384 (the x = 1 value with a minus sign)", 'carried', 'tanh')),
        S('brm', '^bracket:    1 + (-0.6827) = 0.3173', 3,
          W(1, -th, "tanh value restated", 'carried', 'tanh'),
          W(2, 1 - th, "1 - 0.682384 = 0.317616", 'carried', 'tanhm')),
        S('outm', '^output:     0.5 * (-1.0) * 0.3173 = -0.1587', 4,
          W(2, 1 - th, "bracket restated", 'carried', 'brm'),
          W(3, gm1, "GELU(-1) = -0.5 * 0.317616 = -0.158808 (the exact erf GELU(-1) = -0.158655 would be -0.1587)", 'carried', 'brm')),
        S('gm1', '^GELU(-1.0) ≈ -0.1587', 2, W(1, gm1, "GELU(-1.0) restated (true -0.1588)", 'carried', 'outm')),
        S('rm1', '^ReLU(-1.0)  = 0.0000', 2, E(1, 0, "ReLU(-1.0)")),
        S('prosem', 'ReLU zeroes the negative input, while GELU returns $-0.1587$', 1,
          W(0, gm1, "GELU(-1.0) restated (true -0.1588)", 'carried', 'outm')),
        *tab_specs,
        S('noparam', '**Why no parameters.**', 2, E(0, c, "sqrt(2/pi) restated")),
        S('min', 'Around $x \\approx -0.17$ it dips to its minimum', 4,
          W(3, xmin, "argmin of GELU (tanh approximation) = -0.7525 (exact GELU: -0.7518); -0.17 is the minimum VALUE", 'slip')),
        S('k1', '^x = -1.0:  ReLU → 0.000,   GELU → -0.159    ← GELU is below zero here', 3,
          E(1, 0, "ReLU(-1)"), E(2, gm1, "GELU(-1)")),
        S('k0', '^x =  0.0:  ReLU → 0.000,   GELU →  0.000    ← both zero at origin', 3,
          E(1, 0, "ReLU(0)"), E(2, 0, "GELU(0)")),
        S('k1p', '^x =  1.0:  ReLU → 1.000,   GELU →  0.841    ← GELU slightly below ReLU', 3,
          E(1, 1, "ReLU(1)"), E(2, g1, "GELU(1)")),
        S('k3', '^x =  3.0:  ReLU → 3.000,   GELU →  2.996    ← nearly identical for large positive x', 3,
          E(1, 3, "ReLU(3)"), E(2, gelu(3), "GELU(3)")),
        S('small', 'With ReLU a feature at $-0.001$ and one at $-100$', 6,
          E(3, gelu(D('-0.001')), "GELU(-0.001) = -0.00049960"), E(5, gelu(-2), "GELU(-2.0) = -0.045402")),
        S('up', 'In the GPT block the up-projection goes from', 5,
          E(2, 4 * 768, "4 * 768"), E(3, 3072 // 2, "half of 3072 features")),
        S('w1', 'First Linear  weight: 768  × 3072 = 2,359,296', 3, E(2, 768 * 3072, "768 x 3072")),
        S('b1', '^              bias:          3072 =     3,072', 2, E(1, 3072, "bias count of the first Linear")),
        S('s1', '^              subtotal:            2,362,368', 1, E(0, 768 * 3072 + 3072, "first Linear subtotal")),
        S('w2', 'Second Linear weight: 3072 ×  768 = 2,359,296', 3, E(2, 3072 * 768, "3072 x 768")),
        S('b2', '^              bias:            768 =       768', 2, E(1, 768, "bias count of the second Linear")),
        S('s2', '^              subtotal:            2,360,064', 1, E(0, 3072 * 768 + 768, "second Linear subtotal")),
        S('tot', 'Total per FFN block:             ≈ 4,722,432', 2,
          E(0, 4722432, "2,362,368 + 2,360,064"), E(1, Fraction(4722432, 10 ** 6), "4,722,432 in millions")),
        S('x12', '× 12 transformer blocks:         ≈ 56,669,184', 3,
          E(1, 12 * 4722432, "12 x 4,722,432"), E(2, M(Fraction(12 * 4722432, 10 ** 6)), "56,669,184 in millions ('~57 million', approximate)")),
        S('x12b', 'The twelve FFN blocks hold roughly 57 million', 3,
          E(0, M(Fraction(12 * 4722432, 10 ** 6)), "56,669,184 in millions restated ('roughly 57 million')")),
        S('a4', '^Layer 4 gradient computed    → 0.00504', 2, E(1, G['4'], "0.00504139643 to 5 places")),
        S('a3', '^Layer 3 gradient computed    → 0.00139', 2, E(1, G['3'], "0.00139491090 to 5 places")),
        S('a2', '^Layer 2 gradient computed    → 0.00072', 2,
          W(1, G['2'], "0.00072653913 to 5 places is 0.00073 (0.00072 is truncated)", 'slip')),
        S('a1', '^Layer 1 gradient computed    → 0.00013', 2, E(1, G['1'], "0.00012952960 to 5 places")),
        S('a0', '^Layer 0 gradient computed    → 0.00020', 2, E(1, G['0'], "0.00020173191 to 5 places")),
        S('r25', 'By the time the signal reaches Layer 0 it is roughly 25 times', 3,
          E(1, M(r('0')), "ratio 0.00504139643 / 0.00020173191 = 24.99 ('roughly 25 times')")),
        S('t4', '  4       0.00504             1.0×', 3, E(1, G['4'], "layer 4 mean restated"), E(2, r('4'), "ratio layer 4 / layer 4")),
        S('t3', '^  3       0.00139             3.6×', 3, E(1, G['3'], "layer 3 mean restated"), E(2, r('3'), "ratio 0.00504139643 / 0.00139491090 = 3.614")),
        S('t2', '^  2       0.00072             7.0×', 3,
          W(1, G['2'], "layer 2 mean restated (0.00073)", 'carried', 'a2'),
          W(2, r('2'), "ratio 0.00504139643 / 0.00072653913 = 6.939 (7.0 = 0.00504 / 0.00072)", 'carried', 'a2')),
        S('t1', '^  1       0.00013            38.8×', 3, E(1, G['1'], "layer 1 mean restated"),
          W(2, r('1'), "ratio 0.00504139643 / 0.00012952960 = 38.92 (38.8 = 0.00504 / 0.00013)", 'carried', 'a1')),
        S('t0', '  0       0.00020            25.2×', 3, E(1, G['0'], "layer 0 mean restated"),
          W(2, r('0'), "ratio 0.00504139643 / 0.00020173191 = 24.99 (25.2 = 0.00504 / 0.00020)", 'carried', 'a0')),
        S('th25', 'Layer 0 gets about 1/25th of the learning signal', 8,
          E(2, M(r('0')), "ratio restated as 'about 1/25th' (24.99)"), E(6, 12 * 2, "12 blocks x 2 sublayers")),
        S('p5', 'After  5 sublayers:  0.7^5  ≈ 0.168', 5, E(3, D('0.7') ** 5, "0.7^5 = 0.16807"),
          E(4, M(D('0.7') ** 5 * 100), "0.7^5 in percent (16.807, '17%' is a rounding)")),
        S('p12', 'After 12 sublayers:  0.7^12 ≈ 0.014', 5, E(3, D('0.7') ** 12, "0.7^12 = 0.013841"),
          E(4, D('0.7') ** 12 * 100, "0.7^12 in percent")),
        S('p24', 'After 24 sublayers:  0.7^24 ≈ 0.0002', 5, E(3, D('0.7') ** 24, "0.7^24 = 0.00019158"),
          E(4, D('0.7') ** 24 * 100, "0.7^24 in percent")),
    ]
    meta = {
        "doc": "en_gelu_ffn_dryrun_notes.md",
        "source": "GitHub Markdown study notes '# Chapter 4 Code Explanation — Implementing a GPT Model From Scratch' (cell-by-cell notes on ch04.ipynb of Raschka's Build a Large Language Model From Scratch, sections 0-25); the search index did not expose the repository name (stored file id 66901286768). Kept: section 9 (GELU: code, formulas, both dry-runs, ReLU/GELU table, 'why no parameters'), section 10 condensed (the -0.17 minimum sentence, the key-values block, the -0.001/-2.0 sentence, the 1536-of-3072 remark), section 11 (FeedForward code and the parameter-count block, prose condensed) and section 13 (gradient printout, backprop arrow diagram, ratio table, 0.7^n block; prose condensed). Dropped: sections 0-8 (config, dummy model, tokenizer, LayerNorm cells), 12 and 14-25, the shape stories and the Geva et al. discussion",
        "source_kind": "study notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX (\\text{GELU}, \\tanh\\!\\left[...\\right], \\sqrt{\\frac{2}{\\pi}}), plain fenced dry-run blocks 'scaled:     0.7979 * 1.044715 ≈ 0.8335', a box-drawing ReLU/GELU table, arrow lines 'x = -1.0:  ReLU → 0.000,   GELU → -0.159', thousands-separated parameter counts with '≈' and '← ~4.7 million' tails, PyTorch '# layers.0.0.weight has gradient mean of ...' comments, a ratio table with '×' suffixes, '0.7^5  ≈ 0.168' lines with percentages",
        "conventions": "GELU judged with the tanh approximation the section implements, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), with the exact sqrt(2/pi) (sqrt(2/3.14159) gives the same 4 places); with it GELU(1) = 0.841192 and GELU(-1) = -0.158808, so the dry-run values 0.8335 / 0.6827 / 1.6827 / 0.8413 and their x = -1 mirrors are wrong (the x = -1 block repeats the x = 1 digits with a minus sign and is marked carried). The table and the key-values block (3 places) agree with the same approximation. ReLU(x) = max(x, 0). The '-0.17' minimum is judged as the location of the GELU minimum (x = -0.7525). The parameter counts are weights + biases of Linear(768, 3072) and Linear(3072, 768). In section 13 the printed gradient means (11 decimals) are the inputs; the 5-place values and the ratios vs layer 4 are judged against them, so 0.00072 (0.000727) and the ratios 7.0 / 38.8 / 25.2 (true 6.9 / 38.9 / 25.0, obtained from the rounded 0.00072 / 0.00013 / 0.00020) are wrong. Not listed: formula constants (0.5, 0.044715, exponents), the inputs x, the literal 3.14159, dimensions 768/3072 as given or in code comments ('expand: 768 → 3072'), 124 million (quoted total), the gradient printouts themselves, layer indices, 0.7 and sublayer counts 5/12 as given, the limit 2 of the bracket and 0.5·x·2 = x, section numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: cross-entropy chapter (tables, softmax, MLE coin, NLL)
# ---------------------------------------------------------------------------
def doc_b():
    ln = lambda s: mpmath.log(M(D(s)))
    p = softmax([M(D('2.0')), M(D('1.0')), M(D('0.1'))])
    specs = [
        S('t99', '| 0.99 | 0.01 | Nearly perfect |', 2, E(1, -ln('0.99'), "-ln 0.99 = 0.01005")),
        S('t9', '| 0.9 | 0.10 | Very good |', 2, W(1, -ln('0.9'), "-ln 0.9 = 0.10536 (2 places: 0.11)", 'slip')),
        S('t5', '| 0.5 | 0.69 | Random-guess level |', 2, E(1, -ln('0.5'), "-ln 0.5 = 0.69315")),
        S('t1', '| 0.1 | 2.30 | Very poor |', 2, E(1, -ln('0.1'), "-ln 0.1 = 2.30259")),
        S('t01', '| 0.01 | 4.60 | Completely wrong |', 2, W(1, -ln('0.01'), "-ln 0.01 = 4.60517 (2 places: 4.61)", 'slip')),
        S('ent0', 'Rain tomorrow with 100% probability: **Entropy = 0**', 2, E(1, 0, "entropy of a certain event")),
        S('h06', '^&\\approx 0.51', 1, E(0, -ln('0.6'), "-ln 0.6 = 0.51083")),
        S('b09', 'loss = -log(0.9) ≈ 0.105', 2, E(1, -ln('0.9'), "-ln 0.9")),
        S('b01', 'loss = -log(0.1) ≈ 2.303', 2, E(1, -ln('0.1'), "-ln 0.1")),
        S('sm', 'The result is p₁ ≈ 0.659, p₂ ≈ 0.242, p₃ ≈ 0.099.', 3,
          *[E(k, p[k], "softmax([2.0, 1.0, 0.1])[%d]" % k) for k in range(3)]),
        S('ce', '-\\log(0.242) \\approx 1.418', 2, E(0, p[1], "p2 restated"),
          W(1, -mpmath.log(p[1]), "-ln p2 = 1.41703 (-ln 0.242 = 1.41882 would print 1.419)", 'slip')),
        S('c5', '| θ = 0.5 | 0.5⁴ × 0.5¹ = 0.03125 |', 4, E(3, D('0.5') ** 5, "0.5^4 x 0.5")),
        S('c8', '| θ = 0.8 | 0.8⁴ × 0.2¹ ≈ 0.0819 |', 4, E(3, D('0.8') ** 4 * D('0.2'), "0.8^4 x 0.2 = 0.08192")),
        S('c9', '| θ = 0.9 | 0.9⁴ × 0.1¹ ≈ 0.0656 |', 4, E(3, D('0.9') ** 4 * D('0.1'), "0.9^4 x 0.1 = 0.06561")),
        S('concl', '**Conclusion**: θ = 0.8 best explains', 1, E(0, Fraction(4, 5), "argmax of theta^4 (1 - theta) = 4/5")),
        S('sol', 'The solution is **θ = 0.8**.', 1, E(0, Fraction(4, 5), "root of 4/theta - 1/(1 - theta) = 0")),
        S('L', 'L(θ) = 0.7 × 0.8 × 0.5 = 0.28', 4, E(3, D('0.7') * D('0.8') * D('0.5'), "0.7 x 0.8 x 0.5")),
        S('logL', 'log L(θ) = log(0.7) + log(0.8) + log(0.5) = -1.273', 4,
          E(3, ln('0.7') + ln('0.8') + ln('0.5'), "ln 0.28 = -1.27297")),
        S('nll', 'NLL = -log L(θ) = 1.273', 1, E(0, -(ln('0.7') + ln('0.8') + ln('0.5')), "-ln 0.28")),
        S('l1', 'L₁ = -log(0.7) ≈ 0.357', 2, E(1, -ln('0.7'), "-ln 0.7 = 0.35667")),
        S('l2', 'L₂ = -log(0.8) ≈ 0.223', 2, E(1, -ln('0.8'), "-ln 0.8 = 0.22314")),
        S('l3', 'L₃ = -log(0.5) ≈ 0.693', 2, E(1, -ln('0.5'), "-ln 0.5 = 0.69315")),
        S('sum', '^sum = 1.273', 1, E(0, -(ln('0.7') + ln('0.8') + ln('0.5')), "sum of the three losses = 1.27297")),
    ]
    meta = {
        "doc": "en_cross_entropy_mle_chapter.md",
        "source": "GitHub Markdown book chapter '# Cross-Entropy: How to Measure Prediction Error' (English edition of a deep-learning book, diagrams under ../../../../assets/en/diagrams/cross-entropy/); the search index did not expose the repository name (stored file id 71576450406). Kept with prose reworded and condensed: the prediction tables, the -log(p) table, entropy examples, cross-entropy definition and the one-hot example with its aligned derivation, binary and categorical cross-entropy examples, the coin MLE table and derivative, the three-methods numerical example, the gradient and KL formulas. Dropped: the probability-vs-likelihood passage, the general MLE three-step list, the two SVG diagrams, the 'names' table, the statistics/consistency remarks and most of the summary",
        "source_kind": "book chapter (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with pipe tables ('| 0.9 | 0.10 | Very good |'), $$ LaTeX with an aligned environment and \\times products, ~~~text blocks 'loss = -log(0.9) ≈ 0.105', Unicode subscripts and superscripts (p₁ ≈ 0.659, 0.5⁴ × 0.5¹ = 0.03125, L₁, P_θ(0|x₁)), bold conclusions '**θ = 0.8**'",
        "conventions": "natural logarithms throughout ('this book usually uses natural logarithms'); softmax of z = [2.0, 1.0, 0.1]; the 1.418 is judged as -ln p2 with the exact p2 = 0.242433 (1.41703) and is also wrong for the printed 0.242 (1.41882); likelihood of H,H,T,H,H is theta^4 (1 - theta), maximised at 4/5. Table values are judged at their 2 places, so -ln 0.9 = 0.105 -> 0.11 and -ln 0.01 = 4.605 -> 4.61 are wrong (truncated in the table). Not listed: the given probabilities (first table, Q, the 0.7/0.8/0.5 predictions), one-hot labels and class indices, the 100%/50% inputs, the 'more than twenty times' phrase (no digits), exponents, the '= 0' of the derivative equation",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: sampling pipeline README (temperature, softmax, top-k, top-p, seeds)
# ---------------------------------------------------------------------------
def doc_c():
    names = ['sleeping', 'eating', 'playing', 'sitting', 'jumping']
    logits = [D('2.8'), D('2.3'), D('1.9'), D('1.5'), D('1.2')]
    ex = [mpmath.exp(M(z)) for z in logits]
    Z = sum(ex)
    p = [e / Z for e in ex]
    pct = [x * 100 for x in p]
    cum = [sum(pct[:k + 1]) for k in range(5)]
    s3 = p[0] + p[1] + p[2]
    q = [x / s3 for x in p[:3]]
    chg = (1 / s3 - 1) * 100
    pT = softmax([M(z) / mpf('0.5') for z in logits])

    def rnd(seed):
        random.seed(seed)
        return Fraction(random.random())

    r1, r42, r100 = rnd(1), rnd(42), rnd(100)
    b1, b2 = q[0], q[0] + q[1]

    def ranges(lab, anchor, ntok, i0):
        # i0: index of the first bound on the line; rows sleeping/eating/playing
        return anchor

    specs = [
        S('mer', 'F --> G["🎲 Initial Probabilities', 5, *[E(k, pct[k], "%s probability in percent" % names[k]) for k in range(5)]),
        S('res', "# Result: {'sleeping': 2.8, 'eating': 2.3}", 2,
          E(0, D('2.8'), "2.8 / 1.0"), E(1, D('2.3'), "2.3 / 1.0")),
        S('ex0', '| sleeping | 2.8            | 16.44      |', 2, E(1, ex[0], "exp(2.8)")),
        S('ex1', '| eating   | 2.3            | 9.97       |', 2, E(1, ex[1], "exp(2.3)")),
        S('ex2', '| playing  | 1.9            | 6.69       |', 2, E(1, ex[2], "exp(1.9)")),
        S('ex3', '| sitting  | 1.5            | 4.48       |', 2, E(1, ex[3], "exp(1.5)")),
        S('ex4', '| jumping  | 1.2            | 3.32       |', 2, E(1, ex[4], "exp(1.2)")),
        S('Z', 'Z = 16.44 + 9.97 + 6.69 + 4.48 + 3.32 = 40.91', 6,
          *[E(k, ex[k], "exp value restated") for k in range(5)],
          E(5, Z, "sum of the exponentials = 40.9065 (the printed addends sum to 40.90)")),
        *[S('p%d' % k, '| %-8s | %s       |' % (names[k], ['0.402', '0.244', '0.163', '0.110', '0.081'][k]), 1,
            E(0, p[k], "softmax probability of %s" % names[k])) for k in range(5)],
        S('sum1', '✅ Sum = 1.0', 1, E(0, 1, "sum of the probabilities")),
        S('tp0', 'sleeping: 40.2% (cumulative: 40.2%)', 2, E(0, pct[0], "sleeping %"), E(1, cum[0], "cumulative %")),
        S('tp1', 'eating:   24.4% (cumulative: 64.6%)', 2, E(0, pct[1], "eating %"), E(1, cum[1], "cumulative % = 64.58")),
        S('tp2', 'playing:  16.3% (cumulative: 80.9%)', 2, E(0, pct[2], "playing %"), E(1, cum[2], "cumulative % = 80.93")),
        S('tp3', 'sitting:  11.0% (cumulative: 91.9%)', 3, E(0, pct[3], "sitting %"), E(1, cum[3], "cumulative % = 91.88")),
        S('tp4', 'jumping:   8.1% ❌ Filtered out', 1, E(0, pct[4], "jumping %")),
        *[S('rn%d' % k, '| %-8s | %s         | %s        | +23.6%%  |' % (names[k], ['0.402', '0.244', '0.163'][k], ['0.497', '0.301', '0.202'][k]), 3,
            E(0, p[k], "probability restated"), E(1, q[k], "top-3 renormalised probability"), E(2, chg, "relative increase 1/0.80927 - 1 = 23.57 %")) for k in range(3)],
        S('rnsum', '| **Sum**  | **0.809**     | **1.000**    | ✅      |', 2,
          E(0, s3, "sum of the top-3 probabilities = 0.80927"), E(1, 1, "sum after renormalisation")),
        S('seed42', '**Example with seed=42 (r=0.639):**', 2, E(1, r42, "random.seed(42); random.random() = 0.63943")),
        S('rg0', '| sleeping | 0.497       | [0.000 – 0.497)  ❌ |', 3,
          E(0, q[0], "renormalised probability"), E(1, 0, "range start"), E(2, b1, "cumulative 0.49674")),
        S('rg1', '| eating   | 0.301       | [0.497 – 0.798)  ✅ |', 3,
          E(0, q[1], "renormalised probability"), E(1, b1, "range start"), E(2, b2, "cumulative 0.79804")),
        S('rg2', '| playing  | 0.202       | [0.798 – 1.000)  ❌ |', 3,
          E(0, q[2], "renormalised probability"), E(1, b2, "range start"), E(2, 1, "cumulative total")),
        S('since', 'Since **r = 0.639** falls in the **eating** range', 1, E(0, r42, "r for seed 42 restated")),
        S('c1a', 'sleeping: 40.2% → After T=0.5 → 60.7%', 3, E(0, pct[0], "sleeping % at T = 1"), E(2, pT[0] * 100, "softmax(logits / 0.5) for sleeping")),
        S('c1b', 'eating:   24.4% → After T=0.5 → 22.3%', 3, E(0, pct[1], "eating % at T = 1"), E(2, pT[1] * 100, "softmax(logits / 0.5) for eating")),
        S('c2a', 'sleeping: 40.2% → 49.7% ⬆️', 2, E(0, pct[0], "sleeping %"), E(1, q[0] * 100, "top-3 renormalised %")),
        S('c2b', 'eating:   24.4% → 30.1% ⬆️', 2, E(0, pct[1], "eating %"), E(1, q[1] * 100, "top-3 renormalised %")),
        S('c2c', 'playing:  16.3% → 20.2% ⬆️', 2, E(0, pct[2], "playing %"), E(1, q[2] * 100, "top-3 renormalised %")),
        S('c3', 'sleeping + eating + playing + sitting = 91.9% ≥ 90%', 2, E(0, cum[3], "cumulative % of the top 4")),
        S('c3k', '→ Keeps 4 tokens', 1, E(0, 4, "smallest prefix with cumulative >= 90 %")),
        *[S('o%d' % k, '%-15s|' % names[k], 3,
            E(0, ex[k], "exp weight of %s" % names[k]), E(1, p[k], "probability"), E(2, pct[k], "percentage")) for k in range(5)],
        S('osum', '| Sum =    |       1.000 |  100.0%', 2, E(0, 1, "sum of probabilities"), E(1, 100, "sum of percentages")),
        *[S('so%d' % k, '  %d. %-12s' % (k + 1, names[k]), 3,
            E(1, p[k], "probability"), E(2, pct[k], "percentage")) for k in range(5)],
        *[S('fo%d' % k, '%-15s|      %s |' % (names[k], ['0.402', '0.244', '0.163'][k]), 3,
            E(0, p[k], "original probability"), E(1, q[k], "filtered probability"), E(2, chg, "relative increase %")) for k in range(3)],
        S('notice', "**Notice:** Each kept token's probability increases by the same percentage (23.6%)", 1,
          E(0, chg, "relative increase 1/0.80927 - 1")),
        S('cr0', 'sleeping       |       0.497 | [0.000 – 0.497)', 3,
          E(0, q[0], "renormalised probability"), E(1, 0, "range start"), E(2, b1, "cumulative")),
        S('cr1', 'eating         |       0.301 | [0.497 – 0.798)', 3,
          E(0, q[1], "renormalised probability"), E(1, b1, "range start"), E(2, b2, "cumulative")),
        S('cr2', 'playing        |       0.202 | [0.798 – 1.000)', 3,
          E(0, q[2], "renormalised probability"), E(1, b2, "range start"), E(2, 1, "cumulative total")),
        S('rng', '🎯 Random number generated: 0.639', 1, E(0, r42, "random.seed(42); random.random()")),
        S('f0', '  ❌ sleeping     [0.000 – 0.497)', 2, E(0, 0, "range start"), E(1, b1, "cumulative")),
        S('f1', '  ✅ eating       [0.497 – 0.798) ← 0.639 FALLS HERE!', 3,
          E(0, b1, "range start"), E(1, b2, "cumulative"), E(2, r42, "r restated")),
        S('f2', '  ❌ playing      [0.798 – 1.000)', 2, E(0, b2, "range start"), E(1, 1, "cumulative total")),
        S('s1', '- **seed=1**: random=0.134', 4, E(1, r1, "random.seed(1); random.random() = 0.134364"),
          E(2, 0, "range start"), E(3, b1, "cumulative")),
        S('s42', '- **seed=42**: random=0.639', 4, E(1, r42, "random.seed(42); random.random() = 0.639427"),
          E(2, b1, "range start"), E(3, b2, "cumulative")),
        S('s100', '- **seed=100**: random=0.826', 4,
          W(1, r100, "random.seed(100); random.random() = 0.145669 (which falls in the sleeping range)", 'slip'),
          E(2, b2, "range start"), E(3, 1, "cumulative total")),
        S('run4', '| **4** | Sampling (r=0.639)', 2, E(1, r42, "r for seed 42 restated")),
    ]
    meta = {
        "doc": "en_sampling_pipeline_readme_tables.md",
        "source": "github akaiserg/inference-parameters-example:README.md (commit 9fb5a53f). Kept: overview, example scenario, the mermaid pipeline (style lines dropped), steps 0-4 with their tables, the three example configurations, the softmax / top-k / sampling function listings (comments shortened, the temperature function and the 'what it does' lists dropped) with their example outputs, the seeds list and the complete example run table. Dropped: the 'key concepts' table, usage commands, the CSV version sections and examples, the '-k 4 -p 0.7' filter example, real-world configurations, project structure, references, status and license; prose condensed",
        "source_kind": "project README (GitHub)",
        "language": "en",
        "errors_as_published": True,
        "notation": "table-heavy Markdown: pipe tables (logits, exp values, probabilities, renormalisation with '+23.6%' change column, cumulative ranges '[0.497 – 0.798)'), a mermaid flowchart with <br/> labels ('sleeping: 40.2%'), plain-text program output tables with '|' columns and emoji markers (✅ ❌ 🎯 ⬆️), percentages with 'cumulative:' annotations, arrow lines '40.2% → After T=0.5 → 60.7%', bold seed list 'random=0.826 → **playing**'",
        "conventions": "softmax over the logits [2.8, 2.3, 1.9, 1.5, 1.2] at T = 1 (T = 0.5 divides the logits by 0.5 before the softmax); top-k renormalisation p_i / (p_1 + p_2 + p_3) of the exact probabilities; cumulative percentages and range bounds are running sums of the exact (not the printed) values; 'increases by 23.6%' is 1/(p1+p2+p3) - 1. The random numbers are Python's random.random() right after random.seed(seed), as in the listed sample_token code: seed 1 -> 0.134364, seed 42 -> 0.639427, seed 100 -> 0.145669 (not 0.826, which would also change the selected token). Not listed: the logits (also in the 'Adjusted Logit' column at T = 1 and the mermaid/step-0 tables), T, k, p, seeds, token counts given as settings (5 tokens, top 3), thresholds 90% / 0.9, normative 'sum = 1.0' statements (mermaid, overview, run table), step and list numbers, cumulative_sum = 0.0 in code",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: "I am Batman" NumPy notebook printout
# ---------------------------------------------------------------------------
def doc_d():
    X = MX([[1, 0], [0, 0], [0, 1]])
    Wq = MX([[1, 2], [3, 4]])
    Wk = MX([[D('0.5'), 1], [D('1.5'), 1]])
    Wv = MX([[1, D('0.5')], [D('0.5'), 1]])
    Q, K, V = matmul(X, T(Wq)), matmul(X, T(Wk)), matmul(X, T(Wv))
    Sc = matmul(Q, T(K))
    r2 = mpmath.sqrt(2)
    Ss = [[M(v) / r2 for v in row] for row in Sc]
    A = [softmax(row) for row in Ss]
    O = [[sum(A[i][k] * M(V[k][j]) for k in range(3)) for j in range(2)] for i in range(3)]

    def rows(prefix, name, mat, anchors, what):
        out = []
        for i, a in enumerate(anchors):
            n = len(mat[i])
            out.append(S('%s%d' % (prefix, i), a, n,
                         *[E(j, mat[i][j], "%s[%d][%d]" % (what, i, j)) for j in range(n)]))
        return out

    specs = []
    specs += rows('q', 'Q', Q, ['^array([[1., 3.],', '^       [0., 0.],', '^       [2., 4.]])'], "Q = X W_q^T")
    specs += rows('k', 'K', K, ['^array([[0.5, 1.5],', '^       [0. , 0. ],', '^       [1. , 1. ]])'], "K = X W_k^T")
    specs += rows('s', 'S', Sc, ['^array([[5., 0., 4.],', '^       [0., 0., 0.],', '^       [7., 0., 6.]])'], "scores Q K^T")
    specs += rows('ss', 'Ss', Ss, ['^array([[3.53553391, 0.        , 2.82842712],', '^       [0.        , 0.        , 0.        ],',
                                   '^       [4.94974747, 0.        , 4.24264069]])'], "scaled score Q K^T / sqrt(2)")
    specs += rows('a', 'A', A, ['^array([[0.65693877, 0.01914529, 0.32391594],', '^       [0.33333333, 0.33333333, 0.33333333],',
                                '^       [0.66659828, 0.00472298, 0.32867874]])'], "attention weight (row softmax)")
    specs += rows('v', 'V', V, ['^array([[1. , 0.5],', '^       [0. , 0. ],', '^       [0.5, 1. ]])'], "V = X W_v^T")
    specs += rows('o', 'O', O, ['^array([[0.81889674, 0.65238532],', '^       [0.5       , 0.5       ],',
                                '^       [0.83093765, 0.66197788]])'], "output = weights V")
    specs += rows('pq', 'Q', Q, ['^ [[1. 3.]', '^ [0. 0.]', '^ [2. 4.]]'], "Q restated (print)")
    specs += rows('pk', 'K', K, ['^ [[0.5 1.5]', '^ [0.  0. ]', '^ [1.  1. ]]'], "K restated (print)")
    specs += rows('pv', 'V', V, ['^ [[1.  0.5]', '^ [0.  0. ]', '^ [0.5 1. ]]'], "V restated (print)")
    specs += rows('ps', 'Ss', Ss, ['^ [[3.53553391 0.         2.82842712]', '^ [0.         0.         0.        ]',
                                   '^ [4.94974747 0.         4.24264069]]'], "scaled score restated (print, labelled 'Attention scores')")
    specs += rows('pa', 'A', A, ['^ [[0.65693877 0.01914529 0.32391594]', '^ [0.33333333 0.33333333 0.33333333]',
                                 '^ [0.66659828 0.00472298 0.32867874]]'], "attention weight restated (print)")
    specs += rows('po', 'O', O, ['^ [[0.81889674 0.65238532]', '^ [0.5        0.5       ]',
                                 '^ [0.83093765 0.66197788]]'], "output restated (print)")
    meta = {
        "doc": "en_selfattn_batman_notebook.md",
        "source": "github VikramTaviti/tuts:Transformers/self attention.ipynb (commit a5cc7164). Transcribed: every code cell with its execute_result ('Out[...]') and the final stream output, in file order (including the out-of-order execution counts In [34] and In [36]); the two empty cells dropped; the short notes between cells are the transcriber's",
        "source_kind": "Jupyter notebook (printout)",
        "language": "en",
        "errors_as_published": False,
        "notation": "Jupyter transcript in fenced blocks: 'In [41]:' code, 'Out[41]:' NumPy reprs 'array([[1., 3.], ...])' with trailing-dot floats and 8-decimal padding ('0.        '), and a print() stream with bracketed rows ' [[3.53553391 0.         2.82842712]'",
        "conventions": "row-vector tokens with transposed weights: Q = X W_q^T, K = X W_k^T, V = X W_v^T; scores Q K^T scaled by sqrt(d_k) = sqrt(2); softmax per row (np.apply_along_axis, max subtracted, which does not change the result); output = weights V. NumPy prints 8 decimals and trims trailing zeros; every literal is judged at its own places ('0.' and '1.' as integers, 0.33333333 against 1/3). The print cell labels scaled_scores as 'Attention scores' and is judged as the scaled scores. Not listed: X and the weight matrices (inputs), execution counts, step numbers in comments, 768, Python version",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: KV-cache arithmetic notes (plain-text style)
# ---------------------------------------------------------------------------
def doc_e():
    flops = 2 * 2 * 64 * 8192 * 8192
    t_mem = Fraction(flops, 1500000000000)
    t_cmp = Fraction(flops, 312000000000000)
    ratio = t_mem / t_cmp
    per_tok = 2 * 2 * 64 * 8192
    specs = [
        S('fl', '- 2 * 2 * 64 * 8192 * 8192 = 17,179,869,184', 6, E(5, flops, "2*2*64*8192*8192")),
        S('mem', '- for_memory : 17,179,869,184 / 1,500,000,000,000 =  0.0114532 seconds', 3,
          E(0, flops, "flop count restated"), E(2, t_mem, "17,179,869,184 / 1.5e12 = 0.01145325 s")),
        S('cmp', '- for_compute : 17,179,869,184 / 312,000,000,000,000. = 0.000055 seconds', 3,
          E(0, flops, "flop count restated"), E(2, t_cmp, "17,179,869,184 / 312e12 = 5.506e-5 s")),
        S('r208', 'dividing these (memory/compute) would give us the number 208', 1, E(0, ratio, "312e12 / 1.5e12")),
        S('r208b', '* for above hardware the ratio is 208', 5,
          E(0, ratio, "ratio restated"), E(2, ratio, "ratio restated (token count at the crossover)"),
          E(3, ratio, "ratio restated (threshold)"), E(4, ratio, "ratio restated (threshold)")),
        S('r208c', 'intersection of this diagram is 208', 1, E(0, ratio, "ratio restated")),
        S('six', '" 6 * for_compute ~= 0.69 seconds"', 5,
          W(2, 6 * t_cmp, "6 * for_compute = 6 * 5.506e-5 = 3.30e-4 s", 'slip'), E(4, ratio, "ratio restated")),
        S('w', '52 billion * 2 = 104e12 =~ 104 gb', 5,
          W(3, 52 * 10 ** 9 * 2, "52e9 * 2 = 104e9 bytes", 'slip'), E(4, 104, "104e9 bytes in GB (1 GB = 1e9 bytes)")),
        S('cap', '- so if we had 3 gpus, 120gb of vram , we have 16 gb left', 13,
          E(1, 3 * 40, "3 x 40 GB"), E(2, 3 * 40 - 104, "120 - 104 GB"), E(8, per_tok, "2*2*64*8192 bytes per token"),
          E(9, Fraction(per_tok, 10 ** 9), "2,097,152 bytes in GB = 0.0021"), E(11, Fraction(per_tok, 10 ** 9), "GB per token restated")),
    ]
    meta = {
        "doc": "en_kv_cache_arithmetic_notes.md",
        "source": "github SanskarX10/SanskarX10.github.io:posts/notes-on-kv-cache/README.md (commit 0a2c45c9; personal notes following kipply's 'Transformer inference arithmetic'). Whole file kept; the lines without numbers were reworded in the notes' terse style, every numeric line is verbatim (including its typos), trailing blank lines dropped",
        "source_kind": "personal study notes (GitHub Markdown, plain-text style)",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text notes in Markdown bullets with tab-indented '-' sub-items, '* ' and '=>' arrows, '- [1]' equation tags, e-notation (312e12, 1.5e12, 104e12), thousands commas (17,179,869,184; 1,500,000,000,000), a trailing-dot literal '312,000,000,000,000.', '~=' and '=~' for approximately, an ASCII time-vs-tokens plot, lowercase units '104 gb', '0.002GB'",
        "conventions": "fp16 (2 bytes), KV bytes per token = 2*2*n_layers*d_model with n_layers = 64, d_model = 8192; flops for k,v = 2*2*n_layers*d_model^2; A100 312e12 FLOP/s and 1.5e12 B/s; GB = 1e9 bytes (104e9 bytes = 104 GB; 2,097,152 bytes = 0.0021 GB, 0.00195 GiB, both 0.002). '6 * for_compute' is judged literally (6 x 5.506e-5 s = 0.00033 s); '104e12' as the product 52e9 x 2 (= 104e9). Not listed: the '6 / 0.002 -= 8000' step (ambiguous: 6/0.002 = 3000, 16/0.002 = 8000, and 16e9/2,097,152 = 7629), the factor 6 and '1/6th' (assumed, not computed), inputs (52b, 8192, 64, 312e12, 1.5e12, 40gb, 3 gpus, the divisors restated in full), token labels t1..t6, the factor-2 explanations",
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
