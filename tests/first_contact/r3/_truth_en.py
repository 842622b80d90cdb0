"""Independent true values for the English (en_) first-contact documents of round 3.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is
read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed, and its status is re-derived: "ok" iff the truth rounded half away from zero
at the printed number of places equals the literal (integers: exact equality).

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
# thousands groups, decimals, NumPy/PyTorch style trailing dot ("2.", "0.").
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:,\d{3})*(?:\.\d*)?')


def D(s):
    """exact decimal"""
    return Fraction(s)


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
    if lit.endswith('.'):
        lit = lit[:-1]
    if '.' not in lit:
        target = Fraction(int(lit))
        if is_exact(v):
            return Fraction(v) == target
        return abs(v - mpf(int(lit))) < mpf(10) ** -40
    places = len(lit.split('.')[1])
    target = int(lit.replace('.', ''))
    if is_exact(v):
        q = Fraction(v) * 10 ** places
        n = (abs(q) + Fraction(1, 2)).__floor__()
        n = n if q >= 0 else -n
        return n == target
    q = mpf(v) * mpf(10) ** places
    n = int(mpmath.floor(abs(q) + mpf('0.5')))
    n = n if q >= 0 else -n
    return n == target


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
            assert e['kind'] in ('slip', 'carried', 'rounding', 'rounding-carried', 'convention')
        rec = {"line": line, "column": col, "claimed": text, "status": e['status']}
        if e['status'] == 'wrong':
            rec["kind"] = e['kind']
            if e['kind'] in ('carried', 'rounding-carried'):
                rec["carried_from"] = where[e['cf']]
        rec["truth"] = truth_str(e['truth'])
        rec["what"] = e['what']
        numbers.append(rec)
    numbers.sort(key=lambda r: (r['line'], r['column']))
    return numbers


def softmax(xs):
    ex = [mpmath.exp(x) for x in xs]
    t = sum(ex)
    return [x / t for x in ex]


# ---------------------------------------------------------------------------
# Document A: "the cat sat" self-attention notebook (anuragtiwari890/ml-dl-gen-ai)
# ---------------------------------------------------------------------------
def doc_a():
    Eth, Eca, Esa = [1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]
    X = [Eth, Eca, Esa]          # identity W_Q = W_K = W_V
    Sc = [[sum(a * b for a, b in zip(X[i], X[j])) for j in range(3)] for i in range(3)]
    dk = 4
    Ss = [[Fraction(Sc[i][j], 2) for j in range(3)] for i in range(3)]   # / sqrt(4)
    A = [softmax([mpf(x.numerator) / x.denominator for x in row]) for row in Ss]
    Z = [sum(A[0][j] * X[j][c] for j in range(3)) for c in range(4)]
    p64 = softmax([6, 4])
    p32 = softmax([3, 2])
    a, b = A[0][0], A[0][1]      # e/(2e+1), 1/(2e+1)
    names = ['the', 'cat', 'sat']
    specs = [
        S('s1', 'Score}(Q_{the}, K_{the}) =', 17, E(16, Sc[0][0], "score(the,the)")),
        S('s2', 'Score}(Q_{the}, K_{cat}) =', 17, E(16, Sc[0][1], "score(the,cat)")),
        S('s3', 'Score}(Q_{the}, K_{sat}) =', 17, E(16, Sc[0][2], "score(the,sat)")),
        S('srow', 'Example scores for "the": [2, 0, 2]', 3,
          *[E(j, Sc[0][j], "scores row 'the' [%d]" % j) for j in range(3)]),
        *[S('sm%d' % i, 'Q_{%s} & ' % names[i], 3,
            *[E(j, Sc[i][j], "score matrix [%s][%s]" % (names[i], names[j])) for j in range(3)])
          for i in range(3)],
        S('dk', 'Our example with $d_k = 4$: divide by 2.', 2,
          E(1, mpmath.sqrt(dk), "sqrt(d_k) = sqrt(4)")),
        *[S('ss%d' % i, '* Scaled scores for "%s": [' % names[i], 3,
            *[E(j, Ss[i][j], "scaled score [%s][%s]" % (names[i], names[j])) for j in range(3)])
          for i in range(3)],
        S('p64', '* Softmax(`[6, 4]`)', 12, E(6, p64[0], "softmax([6,4])[0]"), E(11, p64[1], "softmax([6,4])[1]")),
        S('p32', '* Softmax(`[3, 2]`)', 12, E(6, p32[0], "softmax([3,2])[0]"), E(11, p32[1], "softmax([3,2])[1]")),
        S('w1', '$P_{the,the}', 5, E(4, A[0][0], "weight the->the")),
        S('w2', '$P_{the,cat}', 5, E(4, A[0][1], "weight the->cat")),
        S('w3', '$P_{the,sat}', 5, E(4, A[0][2], "weight the->sat")),
        S('wr0', 'Resulting attention weights for "the"', 4,
          *[E(j, A[0][j], "weights row 'the' [%d]" % j) for j in range(3)],
          E(3, sum(A[0]), "sum of row 'the' weights")),
        S('wr1', 'Resulting attention weights for "cat"', 3,
          *[E(j, A[1][j], "weights row 'cat' [%d]" % j) for j in range(3)]),
        S('wr2', 'Resulting attention weights for "sat"', 3,
          E(0, A[2][0], "weights row 'sat' [0]"), E(1, A[2][1], "weights row 'sat' [1]"),
          W(2, A[2][2], "weights row 'sat' [2] = e/(2+e) (0.5761; printed value makes the row sum 1)", 'rounding')),
        S('zw', 'From Step 5, its attention weights are', 4,
          E(1, a, "weight the->the repeated"), E(2, b, "weight the->cat repeated"), E(3, a, "weight the->sat repeated")),
        S('zf', '$Z_{the} = (0.4223 \\cdot V_{the})', 3,
          E(0, a, "weight repeated"), E(1, b, "weight repeated"), E(2, a, "weight repeated")),
        S('zc', '$Z_{the} = (0.4223 \\cdot [1, 0, 1, 0])', 15,
          E(0, a, "weight repeated"), E(5, b, "weight repeated"), E(10, a, "weight repeated")),
        S('c1', '$Z_{the} = [0.4223, 0, 0.4223, 0]', 4,
          *[E(c, a * Eth[c], "contribution of V_the [%d]" % c) for c in range(4)]),
        S('c2', '$+ [0, 0.1554, 0, 0.1554]', 4,
          *[E(c, b * Eca[c], "contribution of V_cat [%d]" % c) for c in range(4)]),
        S('c3', '$+ [0.4223, 0.4223, 0.4223, 0.4223]', 4,
          *[E(c, a * Esa[c], "contribution of V_sat [%d]" % c) for c in range(4)]),
        S('z0', '$Z_{the}[0] =', 5, E(1, a, "term"), E(2, 0, "term"), E(3, a, "term"), E(4, Z[0], "Z_the[0]")),
        S('z1', '$Z_{the}[1] =', 5, E(1, 0, "term"), E(2, b, "term"), E(3, a, "term"), E(4, Z[1], "Z_the[1]")),
        S('z2', '$Z_{the}[2] =', 5, E(1, a, "term"), E(2, 0, "term"), E(3, a, "term"), E(4, Z[2], "Z_the[2]")),
        S('z3', '$Z_{the}[3] =', 5, E(1, 0, "term"), E(2, b, "term"), E(3, a, "term"), E(4, Z[3], "Z_the[3]")),
        S('zz', 'Thus, $Z_{the} = [', 4, *[E(c, Z[c], "Z_the[%d]" % c) for c in range(4)]),
    ]
    meta = {
        "doc": "en_selfattn_the_cat_sat_notebook.md",
        "source": "github anuragtiwari890/ml-dl-gen-ai:10-transformer/3-self-attention.ipynb (markdown cell; long definition/intuition passages condensed, all worked numbers kept)",
        "source_kind": "notebook notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with inline $...$ LaTeX, bullet lists, a $$ bmatrix score table with row/column labels, inline-code vectors",
        "conventions": "W_Q = W_K = W_V = identity, so Q = K = V = embeddings; scores / sqrt(d_k) with d_k = 4; row-wise softmax; weights and outputs printed to 4 places",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: cross-entropy blog post (SDcodehub/SDcodehub.github.io)
# ---------------------------------------------------------------------------
def doc_b():
    o = [D('3.2'), D('1.0'), D('-0.5'), D('2.5')]
    ex = [mpmath.exp(mpf(x.numerator) / x.denominator) for x in o]
    tot = sum(ex)
    p = [x / tot for x in ex]
    loss = -mpmath.log(p[0])
    specs = [
        S('e1', '(for "mat") \\(\\approx', 2, E(1, ex[0], "e^3.2")),
        S('e2', '(for "hat") \\(\\approx', 2, E(1, ex[1], "e^1.0")),
        S('e3', '(for "sat") \\(\\approx', 2, E(1, ex[2], "e^-0.5")),
        S('e4', '(for "rug") \\(\\approx', 2, E(1, ex[3], "e^2.5")),
        S('sum', '**Total Sum:**', 5,
          E(0, ex[0], "e^3.2 repeated"), E(1, ex[1], "e^1.0 repeated"), E(2, ex[2], "e^-0.5 repeated"),
          E(3, ex[3], "e^2.5 repeated"), E(4, tot, "sum of exponentials")),
        S('pm', '\\(p(\\text{"mat"})\\):', 4, E(0, ex[0], "numerator e^3.2"), E(1, tot, "denominator"),
          E(2, p[0], "p(mat)")),
        S('ph', '\\(p(\\text{"hat"})\\):', 4, E(0, ex[1], "numerator e^1.0"), E(1, tot, "denominator"),
          E(2, p[1], "p(hat)")),
        S('ps', '\\(p(\\text{"sat"})\\):', 4, E(0, ex[2], "numerator e^-0.5"), E(1, tot, "denominator"),
          W(2, p[2], "p(sat) (0.015148..., truncated; 0.61/40.04 also gives 0.02)", 'rounding'),
          W(3, 100 * p[2], "p(sat) in % (1.5148...)", 'rounding')),
        S('pr', '\\(p(\\text{"rug"})\\):', 4, E(0, ex[3], "numerator e^2.5"), E(1, tot, "denominator"),
          W(2, p[3], "p(rug) (0.3043; 12.18/40.04 = 0.3042)", 'slip'),
          W(3, 100 * p[3], "p(rug) in % (30.43)", 'slip')),
        S('l1', '* **Loss:** \\(-\\log(0.61)', 2, E(0, p[0], "p(mat) repeated"), E(1, loss, "loss -ln p(mat)")),
        S('l2', 'So 0.49 is the cross-entropy loss', 1, E(0, loss, "loss repeated")),
        S('l3', 'the loss for one word, as computed above', 5,
          E(3, p[0], "p(mat) repeated"), E(4, loss, "loss repeated")),
    ]
    meta = {
        "doc": "en_cross_entropy_next_token_blog.md",
        "source": "github SDcodehub/SDcodehub.github.io:_posts/2025-11-12-cross-entropy-loss-llm.md (header image dropped, prose shortened)",
        "source_kind": "blog post",
        "language": "en",
        "errors_as_published": True,
        "notation": "Jekyll blog post in Markdown with \\( \\) inline and \\[ \\] display LaTeX, nested bullet lists, probabilities with percentages in parentheses",
        "conventions": "softmax over logits o = [3.2, 1.0, -0.5, 2.5] for [mat, hat, sat, rug]; loss = natural log -ln p(mat); exponentials and probabilities to 2 places. Integer percentages are listed only where they are wrong under any reading (1% for 1.51%, 31% for 30.43%); 61% and 7% (61.27%, 6.79%) are left out because they are correct only when rounded to 0 places. The 60%/20%/15%/5% and 0.1% in the introduction are illustrative, not results",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: softmax temperature notes (SunilCapgemini/pythontrial001)
# ---------------------------------------------------------------------------
def doc_c():
    z = [D('2.0'), D('1.0'), D('0.1')]

    def sm(T):
        return softmax([mpf((x / T).numerator) / (x / T).denominator for x in z])
    p1, p2, p05 = sm(1), sm(2), sm(D('0.5'))
    specs = [
        S('t1', 'P = [0.71, 0.23, 0.06]', 3,
          W(0, p1[0], "softmax T=1, class 1", 'slip'), W(1, p1[1], "softmax T=1, class 2", 'slip'),
          W(2, p1[2], "softmax T=1, class 3", 'slip')),
        S('zt2', 'z / T = [2/2, 1/2, 0.1/2]', 9,
          *[E(6 + k, z[k] / 2, "z/T for T=2 [%d]" % k) for k in range(3)]),
        S('rt2', 'P = [\\frac{e^{1.0}}', 3, *[E(k, z[k] / 2, "exponent z/T repeated [%d]" % k) for k in range(3)]),
        S('t2', 'P = [0.54, 0.33, 0.13]', 3,
          W(0, p2[0], "softmax T=2, class 1", 'slip'), W(1, p2[1], "softmax T=2, class 2", 'slip'),
          W(2, p2[2], "softmax T=2, class 3", 'slip')),
        S('zt05', 'z / T = [2/0.5, 1/0.5, 0.1/0.5]', 9,
          *[E(6 + k, z[k] / D('0.5'), "z/T for T=0.5 [%d]" % k) for k in range(3)]),
        S('t05', 'P = [0.88, 0.11, 0.01]', 3,
          W(0, p05[0], "softmax T=0.5, class 1", 'slip'),
          W(1, p05[1], "softmax T=0.5, class 2 (0.1169 truncated)", 'rounding'),
          W(2, p05[2], "softmax T=0.5, class 3 (0.0193 truncated)", 'rounding')),
    ]
    meta = {
        "doc": "en_softmax_temperature_notes.md",
        "source": "github SunilCapgemini/pythontrial001:softmax_temperature.md (closing offer of code dropped, prose shortened)",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ display LaTeX vectors P = [...] and \\frac expressions, bold headings",
        "conventions": "P_i = exp(z_i/T) / sum_j exp(z_j/T) over logits z = [2.0, 1.0, 0.1]; T in {1, 2, 0.5}; probabilities to 2 places",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: sinusoidal positional encoding, d_model = 4 (sansin5982/GenAI-Fundamentals)
# ---------------------------------------------------------------------------
def doc_d():
    def pe(pos):
        out = []
        for i in range(2):
            ang = mpf(pos) / mpf(10000) ** (mpf(2 * i) / 4)
            out += [mpmath.sin(ang), mpmath.cos(ang)]
        return out
    P0, P1, P2 = pe(0), pe(1), pe(2)
    e_india = [D('0.45'), D('-0.32'), D('0.12'), D('0.99')]
    emb = {'India': [D('0.1'), D('0.3'), D('0.4'), D('0.5')],
           'is': [D('0.2'), D('0.1'), D('0.6'), D('0.3')],
           'great': [D('0.4'), D('0.3'), D('0.9'), D('0.1')]}
    F_ind = [e_india[k] + int(P0[k]) for k in range(4)]
    r1 = lambda k: emb['is'][k] + P1[k]
    r2 = lambda k: emb['great'][k] + P2[k]

    def pe_entries(first, P, pos, bad=None):
        bad = bad or {}
        out = []
        for k in range(4):
            w = "PE(%d,%d)" % (pos, k)
            if k in bad:
                kind, note = bad[k][0], bad[k][1]
                cf = bad[k][2] if len(bad[k]) > 2 else None
                out.append(W(first + k, P[k], w + note, kind, cf))
            else:
                out.append(E(first + k, P[k], w))
        return out
    sin001 = " (sin(0.01) = 0.0099998..., rounds to 0.01000)"
    cos001 = " (cos(0.01) = 0.99995000042, rounds to 1.0000)"
    specs = [
        S('pe0', 'PE(0)=[sin(0),cos(0),sin(0),cos(0)]=[0,1,0,1]', 9,
          *[E(5 + k, int(P0[k]), "PE(0,%d)" % k) for k in range(4)]),
        S('a10', '$$PE(1,0)=sin(1/10000^{0/4})', 8, E(6, 1, "angle 1/10000^0"), E(7, P1[0], "PE(1,0) = sin 1")),
        S('a11', '$$PE(1,1)=cos(1/10000^{0/4})', 8, E(6, 1, "angle 1/10000^0"), E(7, P1[1], "PE(1,1) = cos 1")),
        S('a12', '$$PE(1,2)=sin(1/10000^{0.5})', 9, E(4, Fraction(1, 2), "exponent 2i/d = 2/4"),
          E(6, 100, "10000^0.5")),
        S('a13', '$$PE(1,3)=cos(1/10000^{0.5})', 9, E(4, Fraction(1, 2), "exponent 2i/d = 2/4"),
          E(6, 100, "10000^0.5")),
        S('pe1', 'PE(1)=[0.841,0.540,0.00999,0.9999]', 5,
          *pe_entries(1, P1, 1, {2: ('rounding', sin001), 3: ('rounding', cos001)})),
        S('a2a', '$$sin(2) ≈ 0.909, cos(2) ≈ -0.416$$', 4, E(1, P2[0], "sin 2"), E(3, P2[1], "cos 2")),
        S('a2b', '$$sin(\\frac{2}{100}) ≈ 0.02, cos(\\frac{2}{100}) ≈ -0.9988$$', 6,
          E(2, P2[2], "sin(0.02)"), W(5, P2[3], "cos(0.02) (true 0.9998, sign and digit wrong)", 'slip')),
        S('pe2', 'PE(2)=[0.909,', 5, *pe_entries(1, P2, 2)),
        S('t0', '| 0        | \\[0.0, 1.0, 0.0, 1.0]', 5, *pe_entries(1, P0, 0)),
        S('t1', '| 1        | \\[0.84, 0.54, 0.00999, 0.9999]', 5,
          *pe_entries(1, P1, 1, {2: ('rounding', sin001), 3: ('rounding', cos001)})),
        S('t2', '| 2        | \\[0.909, -0.4016, 0.02, 0.9908]', 5,
          *pe_entries(1, P2, 2, {1: ('slip', " (cos 2 = -0.4161)"), 3: ('slip', " (cos 0.02 = 0.9998)")})),
        S('pei', '**PositionalEncoding** = [0.0, 1.0, 0.0, 1.0]', 4, *pe_entries(0, P0, 0)),
        S('fi', '**FinalInput** = [0.45, 0.68, 0.12, 1.99]', 4,
          *[E(k, F_ind[k], "India embedding + PE(0) [%d]" % k) for k in range(4)]),
        S('s0', '| 0        | `[0.00, 1.00, 0.00, 1.00]`', 5, *pe_entries(1, P0, 0)),
        S('s1', '| 1        | `[0.84, 0.54, 0.009, 1.00]`', 5,
          *pe_entries(1, P1, 1, {2: ('rounding', " (sin(0.01) = 0.0099998, rounds to 0.010)")})),
        S('s2', '| 2        | `[1.82, -0.42, 0.018, 0.99]`', 5,
          *pe_entries(1, P2, 2, {0: ('slip', " (sin 2 = 0.9093; 1.82 is twice that)"),
                                 2: ('slip', " (sin 0.02 = 0.019999)"),
                                 3: ('rounding', " (cos 0.02 = 0.9998, truncated; rounds to 1.00)")})),
        S('fi2', '**[0.45,−0.32,0.12,0.99]+[0.00,1.00,0.00,1.00] = [0.45,0.68,0.12,1.99]**', 12,
          *pe_entries(4, P0, 0), *[E(8 + k, F_ind[k], "India embedding + PE(0) [%d]" % k) for k in range(4)]),
        S('is', '* "is" at position 1 →', 5, E(2, P1[0], "PE(1,0) repeated"), E(4, P1[1], "PE(1,1) repeated")),
        S('gr', '* "great" at position 2 →', 5,
          W(2, P2[0], "PE(2,0) repeated from the sample table (true sin 2 = 0.909)", 'carried', 's2'),
          E(4, P2[1], "PE(2,1) repeated")),
        S('fIn', '| India | \\[0.1, 0.3, 0.4, 0.5]', 12,
          *[E(4 + k, int(P0[k]), "PE(0,%d)" % k) for k in range(4)],
          *[E(8 + k, emb['India'][k] + int(P0[k]), "final vector India [%d]" % k) for k in range(4)]),
        S('fIs', '| is    | \\[0.2, 0.1, 0.6, 0.3]', 12,
          *pe_entries(4, P1, 1, {2: ('rounding', sin001), 3: ('rounding', cos001)}),
          E(8, r1(0), "final vector is [0]"), E(9, r1(1), "final vector is [1]"),
          W(10, r1(2), "final vector is [2] = 0.6 + sin(0.01) = 0.6099998 (0.6 + printed 0.00999)", 'rounding-carried', 'pe1'),
          W(11, r1(3), "final vector is [3] = 0.3 + cos(0.01) = 1.29995000042 (0.3 + printed 0.9999)", 'rounding-carried', 'pe1')),
        S('fGr', '| great | \\[0.4, 0.3, 0.9, 0.1]', 12,
          *pe_entries(4, P2, 2), *[E(8 + k, r2(k), "final vector great [%d]" % k) for k in range(4)]),
    ]
    meta = {
        "doc": "en_positional_encoding_india_is_great.md",
        "source": "github sansin5982/GenAI-Fundamentals:chapters/Transformer/Positional_Encoding.md (empty trailing code cell and the layman summary table dropped, prose shortened)",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ display math in bullets (sin/cos with ≈), Markdown pipe tables with escaped \\[ vectors and inline-code vectors, bold inline vector sums, one U+2212 minus sign",
        "conventions": "PE(pos,2i) = sin(pos/10000^(2i/d)), PE(pos,2i+1) = cos(pos/10000^(2i/d)), d_model = 4, i.e. [sin(pos), cos(pos), sin(pos/100), cos(pos/100)]; final input = embedding + PE. Not listed: the malformed literals '0.0.00999' and '0.0.9999' (typos in the source, lines 47-48) and the inputs 0.22/0.11/0.91/-0.44 in the 'is'/'great' sum lines, which do not match the embedding table",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: "LLM Fundamentals" chapter 6, softmax and causal attention by hand
# ---------------------------------------------------------------------------
def doc_e():
    ez = [mpmath.exp(k) for k in (1, 2, 3)]
    sz = sum(ez)
    pz = [x / sz for x in ez]
    X = [[1, 0], [0, 1], [1, 1]]
    Sc = [[sum(a * b for a, b in zip(X[i], X[j])) for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    Ss = [[Sc[i][j] / r2 for j in range(3)] for i in range(3)]
    A = [softmax(Ss[i][:i + 1]) + [0] * (2 - i) for i in range(3)]
    O = [[sum(A[i][j] * X[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    ea, eb = mpmath.exp(1 / r2), mpmath.exp(r2)
    den2 = 2 * ea + eb

    def row(label, anchor, ntok, first, vals, what):
        return S(label, anchor, ntok, *[E(first + k, v, what % k) for k, v in enumerate(vals)])
    specs = [
        S('ez', 'e^1 \\approx 2.7183', 7, E(1, ez[0], "e^1"), E(3, ez[1], "e^2"), E(5, ez[2], "e^3"),
          E(6, sz, "e^1 + e^2 + e^3")),
        row('pz', '\\text{softmax}(\\mathbf{z}) \\approx (0.0900', 3, 0, pz, "softmax(1,2,3)[%d]"),
        S('ratio', 'Notice that even though $z_2 = 3$ is only $1.5\\times$', 9,
          W(3, Fraction(3, 1), "ratio z_2 / z_0 = 3 / 1", 'slip')),
        row('pexp', 'exp(z) = tensor([ 2.7183', 3, 0, ez, "printout exp(z)[%d]"),
        S('psum', 'sum of exp(z) = 30.1929', 1, E(0, sz, "printout sum of exp(z)")),
        row('ph', 'softmax(z) by hand = tensor(', 3, 0, pz, "printout softmax by hand [%d]"),
        row('pt', 'softmax(z) by torch = tensor(', 3, 0, pz, "printout softmax by torch [%d]"),
        S('pts', 'sum by torch = 1.0000', 1, E(0, sum(pz), "printout sum of softmax")),
        *[S('xx%d' % i, 'XX^\\top = \\begin{pmatrix}', 9,
            *[E(3 * i + j, Sc[i][j], "X X^T [%d][%d]" % (i, j)) for i in range(3) for j in range(3)])
          for i in [0]],
        S('read', '(Read it: $X_0 \\cdot X_2', 12, E(6, Sc[0][2], "X_0 . X_2"), E(11, Sc[2][2], "X_2 . X_2")),
        S('sq', '\\sqrt{2} \\approx 1.4142', 3, E(2, r2, "sqrt(2)")),
        S('sc', '\\text{scaled} \\approx \\begin{pmatrix}', 9,
          *[E(3 * i + j, Ss[i][j], "scaled [%d][%d]" % (i, j)) for i in range(3) for j in range(3)]),
        S('ms', '\\text{masked} = \\begin{pmatrix}', 6,
          E(0, Ss[0][0], "masked [0][0]"), E(1, Ss[1][0], "masked [1][0]"), E(2, Ss[1][1], "masked [1][1]"),
          E(3, Ss[2][0], "masked [2][0]"), E(4, Ss[2][1], "masked [2][1]"), E(5, Ss[2][2], "masked [2][2]")),
        S('st4', '**Step 4 — softmax row-wise.**', 29,
          E(3, A[0][0], "row 0 weight 0"), E(4, A[0][1], "row 0 weight 1"), E(5, A[0][2], "row 0 weight 2"),
          E(8, Ss[1][1], "scaled [1][1] repeated"), E(15, A[1][0], "row 1 weight 0"), E(16, A[1][1], "row 1 weight 1"),
          E(18, Ss[2][0], "scaled [2][0] repeated"), E(19, Ss[2][1], "scaled [2][1] repeated"),
          E(20, Ss[2][2], "scaled [2][2] repeated"), E(21, Ss[2][2], "exponent sqrt 2 repeated"),
          E(22, eb, "e^{sqrt 2}"), E(23, Ss[2][0], "exponent 1/sqrt 2 repeated"), E(24, ea, "e^{1/sqrt 2}"),
          E(25, den2, "row 2 denominator 2 e^{1/sqrt2} + e^{sqrt2}"),
          E(26, A[2][0], "row 2 weight 0"), E(27, A[2][1], "row 2 weight 1"),
          W(28, A[2][2], "row 2 weight 2 (0.50349, printed 0.5035 everywhere else)", 'rounding')),
        S('wm', '\\text{weights} \\approx \\begin{pmatrix}', 9,
          *[E(3 * i + j, A[i][j], "weights [%d][%d]" % (i, j)) for i in range(3) for j in range(3)]),
        S('o0', '\\text{out}_0 = 1 \\cdot X_0 = (1, 0).', 5, E(3, O[0][0], "out_0[0]"), E(4, O[0][1], "out_0[1]")),
        S('o1', '\\text{out}_1 = 0.3302', 7, E(1, A[1][0], "weight repeated"), E(3, A[1][1], "weight repeated"),
          E(5, O[1][0], "out_1[0]"), E(6, O[1][1], "out_1[1]")),
        S('o2', '\\text{out}_2 = 0.2483', 9, E(1, A[2][0], "weight repeated"), E(3, A[2][1], "weight repeated"),
          E(5, A[2][2], "weight repeated"), E(7, O[2][0], "out_2[0]"), E(8, O[2][1], "out_2[1]")),
        S('om', '\\text{out} \\approx \\begin{pmatrix}', 6,
          *[E(2 * i + c, O[i][c], "out [%d][%d]" % (i, c)) for i in range(3) for c in range(2)]),
        *[S('psc%d' % i, a, 3, *[E(j, Sc[i][j], "printout scores [%d][%d]" % (i, j)) for j in range(3)])
          for i, a in enumerate(['tensor([[1., 0., 1.],', '        [0., 1., 1.],', '        [1., 1., 2.]])'])],
        S('ph2', 'scaled by 1/sqrt(2) = 1/1.4142:', 4, E(3, r2, "printout sqrt(2)")),
        *[S('pss%d' % i, a, 3, *[E(j, Ss[i][j], "printout scaled [%d][%d]" % (i, j)) for j in range(3)])
          for i, a in enumerate(['tensor([[0.7071, 0.0000, 0.7071],', '        [0.0000, 0.7071, 0.7071],',
                                 '        [0.7071, 0.7071, 1.4142]])'])],
        S('pm0', 'tensor([[0.7071,   -inf,   -inf],', 1, E(0, Ss[0][0], "printout masked [0][0]")),
        S('pm1', '        [0.0000, 0.7071,   -inf],', 2, E(0, Ss[1][0], "printout masked [1][0]"),
          E(1, Ss[1][1], "printout masked [1][1]")),
        S('pm2', '        [0.7071, 0.7071, 1.4142]])', 3,
          *[E(j, Ss[2][j], "printout masked [2][%d]" % j) for j in range(3)]),
        *[S('pw%d' % i, a, 3, *[E(j, A[i][j], "printout weights [%d][%d]" % (i, j)) for j in range(3)])
          for i, a in enumerate(['tensor([[1.0000, 0.0000, 0.0000],', '        [0.3302, 0.6698, 0.0000],',
                                 '        [0.2483, 0.2483, 0.5035]])'])],
        S('prs', 'row sums: tensor([1., 1., 1.])', 3, *[E(j, sum(A[j]), "printout row sum %d" % j) for j in range(3)]),
        *[S('po%d' % i, a, 2, *[E(c, O[i][c], "printout out [%d][%d]" % (i, c)) for c in range(2)])
          for i, a in enumerate(['tensor([[1.0000, 0.0000],', '        [0.3302, 0.6698],', '        [0.7517, 0.7517]])'])],
    ]
    meta = {
        "doc": "en_causal_attention_by_hand_chapter.md",
        "source": "GitHub Markdown tutorial 'Part I — LLM Fundamentals', chapter 6 'Single-head self-attention from scratch' (file docs/06_self_attention.md of the 'mygpt' tutorial); the code index did not expose the repository name (index file id 55815528291). Excerpt: sections 6.3 and 6.8 only; the experiment scripts shortened (docstrings, blank prints and the __main__ guard removed), their expected outputs kept",
        "source_kind": "tutorial",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown chapter with $$ pmatrix LaTeX, inline LaTeX in prose, Python code blocks and PyTorch tensor printouts (4 places, trailing-dot integers, -inf)",
        "conventions": "softmax over z = (1, 2, 3); causal self-attention with Q = K = V = X = [[1,0],[0,1],[1,1]], scores / sqrt(d_h) with d_h = 2, -inf above the diagonal, row-wise softmax. Not listed: 'over 7x' (a lower bound; the true ratio e^2 = 7.389), chapter/section numbers and code arguments",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document F: perplexity chat answer (GitHub Markdown, repository not exposed)
# ---------------------------------------------------------------------------
def doc_f():
    ps = [D('0.20'), D('0.10'), D('0.25')]
    lg = [mpmath.log(mpf(p.numerator) / p.denominator) for p in ps]
    nll_sum = -sum(lg)
    nll = nll_sum / 3
    ppl = mpmath.exp(nll)
    specs = [
        S('l1', '\\log P(I) = \\log(0.20) =', 2, E(1, lg[0], "ln 0.20")),
        S('l2', '\\log P(like) = \\log(0.10) =', 2, W(1, lg[1], "ln 0.10 = -2.302585 (truncated)", 'rounding')),
        S('l3', '\\log P(apples) = \\log(0.25) =', 2, E(1, lg[2], "ln 0.25")),
        S('n1', '-\\frac{1}{3}(-1.609 -2.302 -1.386)', 5, E(2, lg[0], "ln 0.20 repeated"),
          W(3, lg[1], "ln 0.10 repeated (truncated)", 'rounding'), E(4, lg[2], "ln 0.25 repeated")),
        S('n2', '= \\frac{1}{3}(1.609 + 2.302 + 1.386)', 5, E(2, -lg[0], "-ln 0.20"),
          W(3, -lg[1], "-ln 0.10 (truncated)", 'rounding'), E(4, -lg[2], "-ln 0.25")),
        S('n3', '= \\frac{5.297}{3} = 1.7657', 3,
          W(0, nll_sum, "sum of negative log probabilities = -ln 0.005 = 5.2983", 'rounding-carried', 'l2'),
          W(2, nll, "average negative log-likelihood = 1.76611", 'rounding-carried', 'l2')),
        S('pp', '\\text{PPL} = e^{1.7657} \\approx 5.85', 2,
          W(0, nll, "average NLL repeated as exponent", 'rounding-carried', 'l2'), E(1, ppl, "perplexity 0.005^(-1/3)")),
        S('fa', '**Perplexity = 5.85**', 1, E(0, ppl, "perplexity repeated")),
    ]
    meta = {
        "doc": "en_perplexity_chat_answer.md",
        "source": "GitHub Markdown note 'Perplexity (PPL) is a common metric in NLP ...' (a chat-style answer with the 'I like apples' example); the code index did not expose the repository name (index file id 40109918451). Closing '~6 equally likely options' remark paraphrased without the number, final offer of a Python example dropped",
        "source_kind": "Q&A",
        "language": "en",
        "errors_as_published": True,
        "notation": "chat answer in Markdown: $$ display LaTeX blocks one step per block, a pipe table of token probabilities, bold final answer",
        "conventions": "natural log; PPL = exp(-(1/N) sum ln P(w_i)) with N = 3 and P = 0.20, 0.10, 0.25; logs to 3 places, average to 4, perplexity to 2",
    }
    return meta, specs


DOCS = [doc_a, doc_b, doc_c, doc_d, doc_e, doc_f]


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
