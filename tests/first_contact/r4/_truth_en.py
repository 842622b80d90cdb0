"""Independent true values for the English (en_) first-contact documents of round 4.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is
read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed, and its status is re-derived: "ok" iff the truth rounded half away from zero
at the printed number of places equals the literal (integers: exact equality).
Wrong numbers carry kind "slip" (a fresh error) or "carried" (wrong only because it was
computed from, or repeats, an earlier wrong number; "carried_from" gives that line).

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
            assert e['kind'] in ('slip', 'carried')
        rec = {"line": line, "column": col, "claimed": text, "status": e['status']}
        if e['status'] == 'wrong':
            rec["kind"] = e['kind']
            if e['kind'] == 'carried':
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



def M(v):
    """exact Fraction -> mpf"""
    v = Fraction(v)
    return mpf(v.numerator) / v.denominator


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def T(A):
    return [list(r) for r in zip(*A)]


def ln_norm(x, eps):
    """population mean/variance layer norm, gamma = 1, beta = 0"""
    n = len(x)
    mu = sum(x) / n
    var = sum((t - mu) ** 2 for t in x) / n
    s = mpmath.sqrt(M(var + eps))
    return mu, var, [M(t - mu) / s for t in x]


# ---------------------------------------------------------------------------
# Document A: "Transformers from Scratch - Part 4" (layer norm, Add & Norm, FFN)
# ---------------------------------------------------------------------------
def doc_a():
    eps = D('1e-6')
    x1 = [D('2.0'), D('4.0'), D('6.0'), D('8.0')]
    mu1, var1, n1 = ln_norm(x1, eps)
    dev1 = [t - mu1 for t in x1]
    s1 = mpmath.sqrt(M(var1 + eps))
    x2 = [D('0.1'), D('0.2'), D('100.0'), D('0.3')]
    _, _, n2 = ln_norm(x2, eps)
    xa = [D('1.0'), D('2.0'), D('3.0'), D('4.0')]
    sub = [D('0.5'), D('-0.3'), D('0.2'), D('0.1')]
    res = [a + b for a, b in zip(xa, sub)]
    mu3, var3, n3 = ln_norm(res, eps)
    x = [D('0.5'), D('1.0'), D('-0.5'), D('0.3')]
    W1 = [[D(a) for a in r] for r in (('0.2', '0.3', '0.1'), ('0.4', '-0.1', '0.5'),
                                       ('0.1', '0.2', '-0.3'), ('-0.2', '0.4', '0.2'))]
    b1 = [D('0.1'), D('-0.1'), D('0.2')]
    W2 = [[D(a) for a in r] for r in (('0.5', '0.2', '-0.1', '0.3'), ('0.1', '0.4', '0.2', '-0.2'),
                                       ('-0.3', '0.1', '0.5', '0.4'))]
    h = [sum(x[i] * W1[i][j] for i in range(4)) + b1[j] for j in range(3)]
    r = [max(Fraction(0), t) for t in h]
    out = [sum(r[i] * W2[i][j] for i in range(3)) for j in range(4)]
    relu_in = [D('0.3'), D('-0.1'), D('0.5'), D('-0.2')]
    names = ['x1', 'x2', 'x3', 'x4']
    specs = [
        S('mean', '$$\\mu = \\frac{2.0 + 4.0 + 6.0 + 8.0}{4} = 5.0$$', 6, E(5, mu1, "mean of [2, 4, 6, 8]")),
        S('var', '$$\\sigma^2 = \\frac{(2-5)^2', 20,
          *[E(2 + 3 * k, mu1, "mean repeated in (x_%d - mean)" % (k + 1)) for k in range(4)],
          *[E(14 + k, dev1[k] ** 2, "squared deviation (x_%d - mean)^2" % (k + 1)) for k in range(4)],
          E(19, var1, "variance (population, /4)")),
        S('norm', '$$\\hat{x} = \\frac{[2, 4, 6, 8] - 5}', 17,
          E(4, mu1, "mean repeated"), E(5, var1, "variance repeated under the root"),
          *[E(8 + k, dev1[k], "deviation x_%d - mean" % (k + 1)) for k in range(4)],
          E(12, s1, "sqrt(5 + 1e-6)"),
          *[E(13 + k, n1[k], "normalized x_%d" % (k + 1)) for k in range(4)]),
        S('scale', '$$\\text{Output} = 1 \\times [-1.34', 10,
          *[E(1 + k, n1[k], "normalized x_%d repeated" % (k + 1)) for k in range(4)],
          *[E(6 + k, n1[k], "gamma*xhat+beta, element %d" % (k + 1)) for k in range(4)]),
        S('big', 'Layer 1 output: [-0.58, -0.57, 1.73, -0.57]', 5,
          E(1, n2[0], "LN of [0.1, 0.2, 100.0, 0.3], element 1"),
          W(2, n2[1], "LN of [0.1, 0.2, 100.0, 0.3], element 2 (-0.5773)", 'slip'),
          E(3, n2[2], "LN of [0.1, 0.2, 100.0, 0.3], element 3"),
          W(4, n2[3], "LN of [0.1, 0.2, 100.0, 0.3], element 4 (-0.5750)", 'slip')),
        S('add', '$$x + \\text{Sublayer}(x) = [1.5, 1.7, 3.2, 4.1]$$', 4,
          *[E(k, res[k], "residual x + Sublayer(x), element %d" % (k + 1)) for k in range(4)]),
        S('mu3', '- Mean: $\\mu = 2.625$', 1, E(0, mu3, "mean of [1.5, 1.7, 3.2, 4.1]")),
        S('var3', '- Variance: $\\sigma^2 = 1.359$', 2,
          W(1, var3, "variance of [1.5, 1.7, 3.2, 4.1] = 1.156875", 'slip')),
        S('n3', '- Normalized: $[-0.97, -0.79, 0.49, 1.27]$', 4,
          *[W(k, n3[k], "Add & Norm normalized element %d (consistent with the printed variance 1.359)" % (k + 1),
              'carried', 'var3') for k in range(4)]),
        S('f3', '**Final Output**: $[-0.97, -0.79, 0.49, 1.27]$', 4,
          *[W(k, n3[k], "Add & Norm final output element %d (repeats the normalized vector)" % (k + 1),
              'carried', 'var3') for k in range(4)]),
        S('x4', 'a 4× expansion', 3, E(2, Fraction(2048, 512), "expansion d_ff / d_model")),
        S('relu', 'After:  [0.3,  0.0, 0.5,  0.0]', 4,
          *[E(k, max(Fraction(0), relu_in[k]), "ReLU of [0.3, -0.1, 0.5, -0.2], element %d" % (k + 1))
            for k in range(4)]),
        S('h', '         = [0.47, 0.47, -0.09]', 3,
          *[W(k, h[k], "xW1 + b1, element %d (true %s)" % (k + 1, ['0.49', '-0.03', '0.96'][k]), 'slip')
            for k in range(3)]),
        S('r', 'max(0, [0.47, 0.47, -0.09]) = [0.47, 0.47, 0.0]', 7,
          *[W(1 + k, h[k], "xW1 + b1 element %d repeated" % (k + 1), 'carried', 'h') for k in range(3)],
          *[W(4 + k, r[k], "ReLU(xW1 + b1), element %d" % (k + 1), 'carried', 'h') for k in range(3)]),
        S('o', '[0.47, 0.47, 0.0] × W2 + b2 = [0.28, 0.28, 0.05, 0.05]', 9,
          *[W(k, r[k], "ReLU output element %d repeated" % (k + 1), 'carried', 'h') for k in range(3)],
          *[W(5 + k, out[k], "FFN output element %d" % (k + 1), 'carried', 'h') for k in range(4)]),
        S('oo', '**Output**: $[0.28, 0.28, 0.05, 0.05]$', 4,
          *[W(k, out[k], "FFN output element %d repeated" % (k + 1), 'carried', 'h') for k in range(4)]),
    ]
    meta = {
        "doc": "en_layernorm_ffn_encoder_post.md",
        "source": "GitHub Jekyll blog post 'Transformers from Scratch - Part 4: Layer Norm and Feed-Forward Networks' (2025-04-21, part 4 of a 6-part series); the code index did not expose the repository name (index file id 38859192204). Shortened: figures, the LayerNorm-vs-BatchNorm table and batch example, the residual-connection and position-wise discussions, the 512->2048->512 illustrative vectors and the encoder-stack diagram dropped; the 'mean = 0, variance = 1, std = 1' property list and the '2-3x faster' remark paraphrased without digits",
        "source_kind": "blog post",
        "language": "en",
        "errors_as_published": True,
        "notation": "Jekyll Markdown post with front matter, $$ display LaTeX (\\frac, \\sqrt, \\hat), inline $...$ vectors, fenced plain-text blocks with bracket vectors and nested-list weight matrices",
        "conventions": "LayerNorm(x) = gamma * (x - mu) / sqrt(sigma^2 + eps) + beta with population variance (divide by d), eps = 1e-6, gamma = 1, beta = 0; Add & Norm = LayerNorm(x + Sublayer(x)); FFN(x) = max(0, x W1 + b1) W2 + b2 with row vector x. Not listed: step numbers, exponents, shapes '(4 x 3 matrix)' of the given weights, and the inputs repeated in 'xW1 + b1 = [0.5, 1.0, -0.5, 0.3] x W1 + b1'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: RoPE guide (aditya699/Neural-Memory-for-Long-Context-LMs)
# ---------------------------------------------------------------------------
def doc_b():
    deg = mpmath.pi / 180

    def rot34(a_deg):
        a = a_deg * deg
        return 3 * mpmath.cos(a) - 4 * mpmath.sin(a), 3 * mpmath.sin(a) + 4 * mpmath.cos(a)

    def theta(i, d, base=10000):
        return mpf(base) ** (-mpf(2 * i) / d)

    th1, th2, th63, th127 = theta(1, 256), theta(2, 256), theta(63, 256), theta(127, 256)
    p1, p2, p5 = rot34(10), rot34(20), rot34(50)
    c1, s1 = mpmath.cos(1), mpmath.sin(1)
    c01, s01 = mpmath.cos(mpf('0.01')), mpmath.sin(mpf('0.01'))
    q10 = (c1 - 2 * s1, s1 + 2 * c1)              # (1+2j)(cos 1 + i sin 1)
    q11 = (2 * c01 - s01, 2 * s01 + c01)          # (2+1j)(cos .01 + i sin .01)
    specs = [
        S('p0', 'Position 0: rotate by 0 × 10° = 0°', 6,
          E(3, 0, "angle 0 x 10 deg"), E(4, D('3.0'), "[3,4] rotated by 0 deg, x"), E(5, D('4.0'), "[3,4] rotated by 0 deg, y")),
        S('p1', 'Position 1: rotate by 1 × 10° = 10°', 6, E(3, 10, "angle 1 x 10 deg"),
          W(4, p1[0], "[3,4] rotated by 10 deg, x = 3cos10 - 4sin10", 'slip'),
          W(5, p1[1], "[3,4] rotated by 10 deg, y = 3sin10 + 4cos10", 'slip')),
        S('p2', 'Position 2: rotate by 2 × 10° = 20°', 6, E(3, 20, "angle 2 x 10 deg"),
          W(4, p2[0], "[3,4] rotated by 20 deg, x", 'slip'), W(5, p2[1], "[3,4] rotated by 20 deg, y", 'slip')),
        S('p5', 'Position 5: rotate by 5 × 10° = 50°', 6, E(3, 50, "angle 5 x 10 deg"),
          W(4, p5[0], "[3,4] rotated by 50 deg, x (negative)", 'slip'), W(5, p5[1], "[3,4] rotated by 50 deg, y", 'slip')),
        S('rel', 'product only depends on 7θ - 3θ = 4θ', 3, E(2, 4, "relative distance 7 - 3")),
        S('np', 'With `d_model = 256` there are 128 pairs:', 2, E(1, 128, "pairs 256/2")),
        S('t0', 'Pair 0:   θ₀ = 1.0', 2, E(1, theta(0, 256), "theta_0 = 10000^0")),
        S('t1', 'Pair 1:   θ₁ = 0.982', 2, W(1, th1, "theta_1 = 10000^(-2/256) = 0.93057", 'slip')),
        S('t2', 'Pair 2:   θ₂ = 0.965', 2, W(1, th2, "theta_2 = 10000^(-4/256) = 0.86598", 'slip')),
        S('t63', 'Pair 63:  θ₆₃ = 0.5', 2, W(1, th63, "theta_63 = 10000^(-126/256) = 0.010746", 'slip')),
        S('t127', 'Pair 127: θ₁₂₇ = 0.0001', 2, E(1, th127, "theta_127 = 10000^(-254/256) = 0.000107")),
        S('np2', 'num_pairs = d // 2  # 128 pairs', 2, E(1, 128, "256 // 2")),
        S('e0', 'θ₀ = 10000^(-2×0/256) = 10000^(0) = 1.0', 8, E(5, 0, "exponent -2*0/256"), E(6, 1, "theta_0")),
        S('e1', 'θ₁ = 10000^(-2×1/256) = 10000^(-0.0078) ≈ 0.982', 8, E(5, Fraction(-2, 256), "exponent -2/256 = -0.0078125"),
          W(6, th1, "theta_1 = 10000^(-0.0078125) = 0.93057", 'slip')),
        S('e64', 'θ₆₄ = 10000^(-2×64/256) = 10000^(-0.5) = 0.01', 8, E(5, Fraction(-1, 2), "exponent -128/256"),
          E(6, Fraction(1, 100), "theta_64 = 10000^-0.5")),
        S('e127', 'θ₁₂₇ = 10000^(-2×127/256) = 10000^(-0.992) ≈ 0.0001', 8, E(5, Fraction(-254, 256), "exponent -254/256"),
          E(6, th127, "theta_127")),
        S('rng', 'So the frequencies are spaced logarithmically from 1.0 down to 0.0001', 2,
          E(0, 1, "theta_0 repeated"), E(1, th127, "theta_127 repeated")),
        S('bse', 'with base = 10000 the minimum is θ₁₂₇ ≈ 0.0001', 4, E(1, th127, "theta_127, base 10000"),
          E(3, theta(127, 256, 1000), "theta_127 with base 1000 = 0.00106")),
        S('dnp', 'num_pairs = 2  # 4 // 2 = 2 pairs', 4, E(0, 2, "num_pairs = 4 // 2"), E(3, 2, "4 // 2")),
        S('d0', 'Pair 0: θ₀ = 10000^(-2×0/4) = 1.0', 6, E(5, 1, "theta_0, d = 4")),
        S('d1', 'Pair 1: θ₁ = 10000^(-2×1/4) = 0.01', 6, E(5, theta(1, 4), "theta_1, d = 4")),
        S('df', 'freqs = [1.0, 0.01]', 2, E(0, 1, "theta_0 repeated"), E(1, theta(1, 4), "theta_1 repeated")),
        S('ang', 'angles = [[0×1.0, 0×0.01], [1×1.0, 1×0.01]]', 12,
          E(1, 1, "theta_0 repeated"), E(3, theta(1, 4), "theta_1 repeated"), E(5, 1, "theta_0 repeated"),
          E(7, theta(1, 4), "theta_1 repeated"), E(8, 0, "angle pos 0 pair 0"), E(9, 0, "angle pos 0 pair 1"),
          E(10, 1, "angle pos 1 pair 0"), E(11, theta(1, 4), "angle pos 1 pair 1")),
        S('rc0', 'rotation_complex ≈ [[1.0+0j, 1.0+0j],', 4, E(0, 1, "cos 0"), E(1, 0, "sin 0"), E(2, 1, "cos 0"), E(3, 0, "sin 0")),
        S('rc1', '[0.540+0.841j, 0.999+0.010j]]', 4, E(0, c1, "cos 1"), E(1, s1, "sin 1"),
          W(2, c01, "cos 0.01 = 0.99995 (truncated; rounds to 1.000)", 'slip'), E(3, s01, "sin 0.01")),
        S('m10', 'Position 1, Pair 0: (1.0+2.0j) × (0.540+0.841j)', 6, E(4, c1, "cos 1 repeated"), E(5, s1, "sin 1 repeated")),
        S('m10b', '= (1.0×0.540 - 2.0×0.841) + i(1.0×0.841 + 2.0×0.540)', 8,
          E(1, c1, "cos 1 repeated"), E(3, s1, "sin 1 repeated"), E(5, s1, "sin 1 repeated"), E(7, c1, "cos 1 repeated")),
        S('m10c', '= -1.142 + 1.921j', 2,
          W(0, q10[0], "Re (1+2i)e^{i} = cos1 - 2 sin1 = -1.14263 (0.540 - 1.682 from the rounded factors)", 'slip'),
          W(1, q10[1], "Im (1+2i)e^{i} = sin1 + 2 cos1 = 1.92208 (0.841 + 1.080 from the rounded factors)", 'slip')),
        S('m11', 'Position 1, Pair 1: (2.0+1.0j) × (0.999+0.010j)', 6,
          W(4, c01, "cos 0.01 repeated", 'carried', 'rc1'), E(5, s01, "sin 0.01 repeated")),
        S('m11c', '= 1.988 + 1.019j', 2,
          W(0, q11[0], "Re (2+i)e^{0.01i} = 2cos.01 - sin.01 = 1.98990", 'carried', 'rc1'),
          W(1, q11[1], "Im (2+i)e^{0.01i} = 2sin.01 + cos.01 = 1.01995", 'carried', 'rc1')),
        S('qr0', 'Q_rotated = [[2.0, 1.0, 3.0, 1.5],', 4,
          *[E(k, [2, 1, 3, D('1.5')][k], "Q_rotated position 0 [%d]" % k) for k in range(4)]),
        S('qr1', '[-1.142, 1.921, 1.988, 1.019]]', 4,
          W(0, q10[0], "Q_rotated position 1 [0] repeated", 'carried', 'm10c'),
          W(1, q10[1], "Q_rotated position 1 [1] repeated", 'carried', 'm10c'),
          W(2, q11[0], "Q_rotated position 1 [2] repeated", 'carried', 'rc1'),
          W(3, q11[1], "Q_rotated position 1 [3] repeated", 'carried', 'rc1')),
        S('hd', '`head_dim = d_model // num_heads = 128`', 5, E(4, 128, "4096 // 32")),
        S('l0', 'θ₀ = 10000^(0) = 1.0           # Fastest', 3, E(1, 0, "exponent"), E(2, 1, "theta_0")),
        S('l63', 'θ₆₃ = 10000^(-126/128) ≈ 0.0001', 5, E(3, theta(63, 128), "theta_63 for head_dim 128 = 0.000115")),
        S('l64', 'we get 64 frequency pairs', 3, E(2, 64, "128 / 2 pairs")),
        S('h0', 'Pair 0:  θ = 1.0000', 2, E(1, 1, "theta_0, head_dim 128")),
        S('h16', 'Pair 16: θ = 0.3162', 2, W(1, theta(16, 128), "theta_16 = 10000^(-32/128) = 0.1", 'slip')),
        S('h32', 'Pair 32: θ = 0.1000', 2, W(1, theta(32, 128), "theta_32 = 10000^(-64/128) = 0.01", 'slip')),
        S('h48', 'Pair 48: θ = 0.0316', 2, W(1, theta(48, 128), "theta_48 = 10000^(-96/128) = 0.001", 'slip')),
        S('h63', 'Pair 63: θ = 0.0100', 2, W(1, theta(63, 128), "theta_63 = 10000^(-126/128) = 0.000115", 'slip')),
    ]
    meta = {
        "doc": "en_rope_rotation_frequencies_guide.md",
        "source": "github aditya699/Neural-Memory-for-Long-Context-LMs:Positional_encoding/ROPE.md (excerpt: the rotation example of step 2, the frequency spectrum and formula of steps 3-4, the 'dry run' of step 8 and the frequency list of step 10; the fast/slow rotation lists and the nearby/distant comparisons paraphrased without numbers; the complex-number example, relative-position derivation, code listings, comparison tables, period comments and extensions dropped; shape comments removed, code blocks condensed)",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with fenced plain-text and python blocks: degree angles with the ° sign, bracket vectors, Unicode-subscript θ₀..θ₁₂₇, caret powers 10000^(-2×1/256), complex numbers written 0.540+0.841j and -1.142 + 1.921j, nested-list matrices",
        "conventions": "2-D rotation [x', y'] = [x cos a - y sin a, x sin a + y cos a]; in the [3, 4] illustration the per-position angle is theta = 10 degrees; frequencies theta_i = 10000^(-2i/d) with d = 256 (spectrum), d = 4 (dry run), d = 128 (LLaMA head); RoPE applied as (q_2i + i q_2i+1) * e^(i m theta_i). Not listed: positions, pair indices, exponents' operands and the given Q",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: KV cache memory calculator (dev.to)
# ---------------------------------------------------------------------------
def doc_c():
    GiB = 2 ** 30

    def kv(L, H, d, T):
        return Fraction(2 * L * H * d * T * 2, GiB)

    ctx = [4 * 1024, 32 * 1024, 128 * 1024]
    small = [kv(32, 8, 128, t) for t in ctx]
    big = [kv(80, 8, 128, t) for t in ctx]
    labels = ['4K', '32K', '128K']
    specs = []
    for model in ('Llama-3-8B', 'Mistral-7B'):
        for k in range(3):
            specs.append(S('%s%d' % (model, k), '| %s tokens | ' % labels[k], 2,
                           E(1, small[k], "%s KV cache at %s tokens (GiB)" % (model, labels[k]))))
    for k in range(3):
        specs.append(S('big%d' % k, '| %s tokens | ' % labels[k], 2,
                       W(1, big[k], "Llama-3-70B KV cache at %s tokens = %s GiB (factor 4 too large)"
                         % (labels[k], truth_str(big[k])), 'slip')))
    for k in range(3):
        specs.append(S('mix%d' % k, '| %s tokens | ' % labels[k], 2,
                       E(1, small[k], "Mixtral-8x7B KV cache at %s tokens (GiB)" % labels[k])))
    comp = [10, 17, 33]
    names = ['high', 'balanced', 'max']
    specs += [
        S('b8', '**Llama-3-8B at 128K context** (baseline: 16 GB)', 4, E(3, small[2], "baseline repeated")),
        *[S('c8%d' % k, '| %s | %dx |' % (names[k], comp[k]), 3,
            E(1, small[2] / comp[k], "Llama-3-8B 128K cache after %dx compression" % comp[k])) for k in range(3)],
        S('b70', '**Llama-3-70B at 128K context** (baseline: 160 GB', 5,
          W(3, big[2], "baseline repeated from the 70B table (true 40 GiB)", 'carried', 'big2')),
        *[S('c70%d' % k, '| %s | %dx |' % (names[k], comp[k]), 3,
            W(1, big[2] / comp[k], "Llama-3-70B 128K cache after %dx compression (160 / %d; true 40 / %d GiB)"
              % (comp[k], comp[k], comp[k]), 'carried', 'big2')) for k in range(3)],
    ]
    meta = {
        "doc": "en_kv_cache_memory_calculator.md",
        "source": "https://dev.to/jagmarques/kv-cache-memory-calculator-how-much-does-your-llm-actually-use-85n (\"KV cache memory calculator: how much does your LLM actually use?\"; the stored copy ends before the closing Python one-liner, which is dropped; prose shortened, '(baseline: 160 GB — needs 2× A100)' paraphrased without the GPU count)",
        "source_kind": "blog post",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown pipe tables (context | KV cache, preset | compression | size), bold model headings with parameters in parentheses, a fenced formula with × signs",
        "conventions": "bytes = 2 x L x H x d x T x 2 (K and V, FP16) for batch 1; 4K/32K/128K tokens = 4096/32768/131072; GB read as GiB (2^30 bytes), the only reading under which the 8B rows 0.5/4/16 are exact; 'KV cache after' = baseline / compression ratio. Inputs not listed: L, H, d, contexts, ratios, PPL deltas, 80 GB",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: softmax and cross-entropy pipeline (portfolio-neural.pages.dev)
# ---------------------------------------------------------------------------
def doc_d():
    z = [D('2.0'), D('1.0'), D('0.1')]
    ex = [mpmath.exp(M(t)) for t in z]
    tot = sum(ex)
    p = [e / tot for e in ex]
    loss = -mpmath.log(p[0])
    cls = ['Cat', 'Dog', 'Bird']
    specs = [
        S('pipe', '[2.0, 1.0, 0.1] → [0.659, 0.242, 0.099] → 0.42', 7,
          *[E(3 + k, p[k], "softmax p(%s)" % cls[k]) for k in range(3)], E(6, loss, "cross-entropy -ln p(cat)")),
        S('e2', 'e^2.0 = 7.389', 2, E(1, ex[0], "e^2")),
        S('e1', 'e^1.0 = 2.718', 2, E(1, ex[1], "e^1")),
        S('e01', 'e^0.1 = 1.105', 2, E(1, ex[2], "e^0.1")),
        S('sum', '7.389 + 2.718 + 1.105 = 11.212', 4,
          *[E(k, ex[k], "exponential %d repeated" % k) for k in range(3)],
          W(3, tot, "sum of exponentials 11.2125 (sum of the rounded terms gives 11.212)", 'slip')),
        *[S('d%d' % k, '%s / 11.212 = ' % ['7.389', '2.718', '1.105'][k], 4,
            E(0, ex[k], "e^z repeated"), W(1, tot, "sum repeated", 'carried', 'sum'),
            E(2, p[k], "p(%s)" % cls[k]), E(3, 100 * p[k], "p(%s) in %%" % cls[k])) for k in range(3)],
        S('ver', 'Verify: 0.659 + 0.242 + 0.099 = 1.000', 4,
          *[E(k, p[k], "p repeated") for k in range(3)], E(3, sum(p), "sum of probabilities")),
    ]
    meta = {
        "doc": "en_softmax_cross_entropy_pipeline.txt",
        "source": "https://portfolio-neural.pages.dev/topics/c6-softmax-cross-entropy.html (\"C6 Neural Network Operations: Softmax and Cross-Entropy\"; the stored copy breaks off at 'Why Exponentials?', so only the pipeline, logits and softmax step-by-step parts are kept; prose shortened)",
        "source_kind": "tutorial page",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain text page: arrow pipeline with bracket vectors, indented label lists, caret exponentials e^2.0 = 7.389, divisions with percentages in parentheses, check mark",
        "conventions": "softmax over logits [2.0, 1.0, 0.1] for [cat, dog, bird]; natural-log cross-entropy with cat as the true class; exponentials, sum and probabilities to 3 places, percentages to 1 place",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: ALiBi article (ashiffxd/LLM-Internals)
# ---------------------------------------------------------------------------
def doc_e():
    h = D('0.5')
    specs = [
        *[S('w%d' % k, 'Word 1 looks at Word %d: Distance' % (k + 1), 4,
            E(2, k, "distance word 1 -> word %d" % (k + 1)), E(3, -k, "penalty -1 x distance")) for k in range(4)],
        S('b4', 'Word #4 (right before)', 2, E(1, 1, "distance 5 - 4")),
        S('b3', 'Word #3 (two words back)', 2, E(1, 2, "distance 5 - 3")),
        S('b1', 'Word #1 (first word)', 2, E(1, 4, "distance 5 - 1")),
        *[S('m%d' % k, '(position %d): Distance' % (4 - k), 3,
            E(1, k + 1, "distance mat(5) -> position %d" % (4 - k)), E(2, -(k + 1), "penalty -1 x distance"))
          for k in range(4)],
        S('pen', 'Penalty: 3 × 0.5 = 1.5', 3, E(2, 3 * h, "penalty 3 x 0.5")),
        S('new', 'New score: 10 - 1.5 = 8.5', 3, E(1, 3 * h, "penalty repeated"), E(2, 10 - 3 * h, "score 10 - 1.5")),
        *[S('g%d' % k, 'W%d["Word %d<br/>Penalty:' % (k + 1, k + 1), 3,
            E(2, -k, "penalty of word %d seen from word 1" % (k + 1))) for k in range(5)],
        *[S('r%d' % k, a, 2, E(0, k + 1, "distance from 'ball'"), E(1, -(k + 1) * h, "penalty -0.5 x distance"))
          for k, a in enumerate(['"his" (1 away):', '"with" (2 away):', '"playing" (3):', '"loves" (4):',
                                 '"dog" (5):', '"My" (6):'])],
        S('lin1', 'Distance 1: -1', 2, E(1, -1, "penalty at distance 1")),
        *[S('lin%d' % d, 'Distance %d: -%d  (added -1)' % (d, d), 3, E(1, -d, "penalty at distance %d" % d),
            E(2, -1, "step between consecutive penalties")) for d in (2, 3, 4)],
    ]
    meta = {
        "doc": "en_alibi_distance_penalty_article.md",
        "source": "github ashiffxd/LLM-Internals:lib/content/alibi.ts (article text of the TypeScript content string, backslash-escaped fences unescaped; analogies, the 'compare to other methods', 'no extra memory', 'advantages', 'attention strength' and summary sections condensed or dropped, the mermaid style lines dropped; the lead-in 'With the gentle slope of Head 1' added before the 'ball' example, whose penalties are 0.5 per word)",
        "source_kind": "course article",
        "language": "en",
        "errors_as_published": False,
        "notation": "Markdown article with fenced plain-text blocks (arrows, check and warning emoji), a mermaid graph with <br/> labels, a pipe table, '#' word numbers",
        "conventions": "penalty = -(slope x distance) added to the attention score before the softmax; slope 1 in the word-count examples ('just subtract the distance'), slope 0.5 in 'The Actual Math' and in the 'ball' example (head 1); distance = difference of word positions. Not listed: positions, the input score 10 and distance 3, slopes, head numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document F: NumPy attention Colab (UnfoldDataScience/YouTube-Videos-files)
# ---------------------------------------------------------------------------
def doc_f():
    X = [[D(a) for a in r] for r in (('1.0', '0.0', '0.5'), ('0.0', '1.0', '0.3'), ('1.0', '1.0', '0.2'))]
    WQ = [[D(a) for a in r] for r in (('1.0', '0.0', '0.5'), ('0.0', '1.0', '0.5'), ('0.0', '1.0', '0.5'))]
    WV = [[D(a) for a in r] for r in (('0.5', '1.0', '0.2'), ('1.0', '0.5', '0.3'), ('1.0', '0.5', '0.1'))]
    Q = matmul(X, WQ)
    V = matmul(X, WV)
    Sc = matmul(Q, T(Q))
    r3 = mpmath.sqrt(3)
    Ss = [[M(v) / r3 for v in row] for row in Sc]
    A = [softmax(row) for row in Ss]
    O = [[sum(A[i][k] * M(V[k][j]) for k in range(3)) for j in range(3)] for i in range(3)]
    X2 = [[1, 0, 1], [0, 1, 1], [1, 1, 0]]
    S2 = matmul(X2, T(X2))
    S2s = [[mpf(v) / r3 for v in row] for row in S2]
    A2 = [softmax(S2s[i][:i + 1]) + [0] * (2 - i) for i in range(3)]
    O2 = [[sum(A2[i][k] * X2[k][j] for k in range(3)) for j in range(3)] for i in range(3)]

    def mrow(label, anchor, vals, what, n=3, first=0):
        return S(label, anchor, n, *[E(first + j, vals[j], what % j) for j in range(len(vals))])

    shape = lambda label, anchor, ntok, first, what: S(label, anchor, ntok, E(first, 3, what + " rows"),
                                                       E(first + 1, 3, what + " columns"))
    specs = [
        S('xs', '(shape: 3 x 2)', 2, E(0, 3, "rows of X (3 tokens)"),
          W(1, 3, "columns of X: the embeddings are 3-dimensional, X is 3 x 3", 'slip')),
        shape('qs', 'Q = X @ W_Q  # (3 x 3)', 2, 0, "shape of Q"),
        shape('ks', 'K = X @ W_K  # (3 x 3)', 2, 0, "shape of K"),
        shape('vs', 'V = X @ W_V  # (3 x 3)', 2, 0, "shape of V"),
        mrow('v0', 'array([[1.  , 1.25, 0.25],', V[0], "V[0][%d]"),
        mrow('v1', '[1.3 , 0.65, 0.33],', V[1], "V[1][%d]"),
        mrow('v2', '[1.7 , 1.6 , 0.52]])', V[2], "V[2][%d]"),
        mrow('q0', 'array([[1.  , 0.5 , 0.75],', Q[0], "Q[0][%d]"),
        mrow('q1', '[0.  , 1.3 , 0.65],', Q[1], "Q[1][%d]"),
        mrow('q2', '[1.  , 1.2 , 1.1 ]])', Q[2], "Q[2][%d]"),
        shape('ss', 'scores = Q @ K.T  # (3 x 3)', 2, 0, "shape of scores"),
        mrow('s0', ' [[1.8125 1.1375 2.425 ]', Sc[0], "scores[0][%d]"),
        mrow('s1', ' [1.1375 2.1125 2.275 ]', Sc[1], "scores[1][%d]"),
        mrow('s2', ' [2.425  2.275  3.65  ]]', Sc[2], "scores[2][%d]"),
        mrow('c0', 'array([[1.04644736, 0.65673593, 1.4000744 ],', Ss[0], "scaled[0][%d]"),
        mrow('c1', '[0.65673593, 1.21965244, 1.31347186],', Ss[1], "scaled[1][%d]"),
        mrow('c2', '[1.4000744 , 1.31347186, 2.10732848]])', Ss[2], "scaled[2][%d]"),
        mrow('a0', ' [[0.32242711 0.21836449 0.4592084 ]', A[0], "weights[0][%d]"),
        mrow('a1', ' [0.21348029 0.37482567 0.41169404]', A[1], "weights[1][%d]"),
        mrow('a2', ' [0.25345618 0.23242983 0.51411399]]', A[2], "weights[2][%d]"),
        mrow('o0', ' [[1.38695523 1.27970424 0.39145543]', O[0], "output[0][%d]"),
        mrow('o1', ' [1.40063353 1.16919751 0.39114344]', O[1], "output[1][%d]"),
        mrow('o2', ' [1.42960874 1.290482   0.40740516]]', O[2], "output[2][%d]"),
        shape('x2s', '# Shape: (3 tokens x 3 dim)', 2, 0, "shape of the new X"),
        shape('eye', 'Wq = np.eye(3)  # (3 x 3)', 3, 1, "shape of np.eye(3)"),
        shape('q2s', 'Q = X @ Wq  # (3 x 3)', 2, 0, "shape of Q"),
        shape('k2s', 'K = X @ Wk  # (3 x 3)', 2, 0, "shape of K"),
        shape('v2s', 'V = X @ Wv  # (3 x 3)', 2, 0, "shape of V"),
        shape('s2s', 'scores = Q @ K.T  # (3 x 3)', 2, 0, "shape of scores"),
        S('dk', '# Optional: scale by sqrt(d_k), d_k = 3', 1, E(0, 3, "d_k = Q.shape[-1]")),
        S('m0', 'array([[1.15470054,       -inf,       -inf],', 1, E(0, S2s[0][0], "masked[0][0]")),
        S('m1', '[0.57735027, 1.15470054,       -inf],', 2, E(0, S2s[1][0], "masked[1][0]"), E(1, S2s[1][1], "masked[1][1]")),
        mrow('m2', '[0.57735027, 0.57735027, 1.15470054]])', S2s[2], "masked[2][%d]"),
        shape('o2s', 'output = attn_weights @ V  # (3 x 3)', 2, 0, "shape of output"),
        mrow('w0', ' [[1.         0.         0.        ]', A2[0], "masked weights[0][%d]"),
        mrow('w1', ' [0.35954252 0.64045748 0.        ]', A2[1], "masked weights[1][%d]"),
        mrow('w2', ' [0.26445846 0.26445846 0.47108308]]', A2[2], "masked weights[2][%d]"),
        mrow('y0', ' [[1.         0.         1.        ]', O2[0], "masked output[0][%d]"),
        mrow('y1', ' [0.35954252 0.64045748 1.        ]', O2[1], "masked output[1][%d]"),
        mrow('y2', ' [0.73554154 0.73554154 0.52891692]]', O2[2], "masked output[2][%d]"),
    ]
    meta = {
        "doc": "en_attention_numpy_colab.md",
        "source": "github UnfoldDataScience/YouTube-Videos-files:LLM for application development/Attention (1).ipynb (Colab notebook; cells and outputs transcribed as Markdown code blocks with short prose added, the echo of X and the Q, K, V printouts of the masked run (equal to X) dropped)",
        "source_kind": "notebook",
        "language": "en",
        "errors_as_published": True,
        "notation": "NumPy notebook: python cells with shape comments '# (3 x 3)', array([[...]]) reprs with aligned columns and trailing-dot floats '1.  ', print() outputs with space-separated rows, -inf entries",
        "conventions": "single-head attention: Q = X W_Q, K = X W_K, V = X W_V (row vectors), scores = Q K^T / sqrt(d_k) with d_k = 3, row-wise softmax, output = weights V; second run: W = I, causal mask with -inf above the diagonal. NumPy prints 8 decimals and trims trailing zeros; each printed literal is checked at its own number of places. Shape comments are listed as results; the given weight matrices, embeddings and np.eye(3) argument are not",
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

