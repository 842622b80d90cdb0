"""Independent true values for the English (en_) first-contact documents of round 7.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is
read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and
its status is re-derived: "ok" iff the truth rounded half away from zero at the printed
number of places equals the literal.  An integer literal is compared exactly with an
exact (rational) truth and rounded to 0 places against an irrational one.
Wrong numbers carry kind "slip" (a fresh error) or "carried" (a correct computation from,
or a repetition of, an earlier wrong or rounded printed number; "carried_from" gives that
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
        n = int(mpmath.floor(abs(mpf(v)) + mpf('0.5')))
        n = n if v >= 0 else -n
        return n == int(lit)
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



def MX(A):
    return [[Fraction(x) for x in r] for r in A]


# ---------------------------------------------------------------------------
# Document A: marimo lecture "Module 3A: Attention & Transformers"
# ---------------------------------------------------------------------------
def doc_a():
    X = MX([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]])
    WQ = MX([[1, 0], [0, 1], [1, 0], [0, 1]])
    WK = MX([[0, 1], [1, 0], [0, 1], [1, 0]])
    WV = MX([[1, 1], [1, 0], [0, 1], [0, 1]])
    Q, K, V = matmul(X, WQ), matmul(X, WK), matmul(X, WV)
    Sm = matmul(Q, T(K))
    r2 = mpmath.sqrt(2)
    Ss = [[M(v) / r2 for v in row] for row in Sm]
    A = [softmax(row) for row in Ss]
    flat = lambda mat: [mat[i][j] for i in range(len(mat)) for j in range(len(mat[0]))]
    qkv = flat(Q) + flat(K) + flat(V)
    names = ['Q'] * 6 + ['K'] * 6 + ['V'] * 6
    pos = [(i, j) for i in range(3) for j in range(2)] * 3
    al = flat(A)
    wrong_a = {0, 1, 2, 3, 4, 5}
    a_specs = []
    for n in range(9):
        i, j = divmod(n, 3)
        what = "alpha[%d][%d] = softmax row %d of the scaled scores" % (i, j, i)
        if n in wrong_a:
            a_specs.append(W(n, al[n], what + " (true row %s)" % (
                "[0.0454, 0.7679, 0.1867]" if i == 0 else "[0.7679, 0.0454, 0.1867]"), 'slip'))
        else:
            a_specs.append(E(n, al[n], what + " = 1/3"))
    specs = [
        S('rowsum', 'each row sums to 1', 2, E(1, 1, "row sum of a softmax")),
        S('mean0', 'Their dot product has mean 0', 3, E(2, 0, "mean of a dot product of independent zero-mean entries")),
        S('var1', 'rescales the variance back to 1', 1, E(0, 1, "Var(q.k / sqrt(d_k)) = d_k / d_k")),
        S('qkv', '$$Q = XW_Q = ', 18,
          *[E(n, qkv[n], "%s = X W_%s, entry [%d][%d]" % (names[n], names[n], pos[n][0], pos[n][1])) for n in range(18)]),
        S('sc', 'Scores: $QK^\\top', 9, *[E(n, flat(Sm)[n], "Q K^T entry [%d][%d]" % divmod(n, 3)) for n in range(9)]),
        S('ss', 'Scaled scores (dividing by', 11, E(1, r2, "sqrt(2)"),
          *[E(2 + n, flat(Ss)[n], "scaled score [%d][%d] = (Q K^T)/sqrt(2)" % divmod(n, 3)) for n in range(9)]),
        S('alpha', '$$\\alpha \\approx', 9, *a_specs),
        S('tok', 'Token 1 attends mostly to token 2', 7,
          W(2, al[1], "alpha[0][1] restated (true 0.7679)", 'carried', 'alpha'),
          W(5, al[3], "alpha[1][0] restated (true 0.7679)", 'carried', 'alpha')),
        S('dh', 'If the model dimension is $d = 512$', 3, E(2, Fraction(512, 8), "d / h = 512 / 8")),
    ]
    meta = {
        "doc": "en_selfattn_marimo_module3a.md",
        "source": "GitHub marimo notebook (Python file with mo.md cells) '# Module 3A: Attention & Transformers' of an ML course whose cells cite local textbook PDFs (Murphy PML1/PML2, Goodfellow DLBook); the search index did not expose the repository name (stored file id 51998337725). Kept: the Markdown cells of section 2 (shortened: the 'core idea' paragraph dropped, the scaling-factor paragraph condensed), 'A Concrete Numerical Example' verbatim, section 3 (formulas and 'Dimension Arithmetic'; the 'what different heads learn' paragraph dropped) and two formulas of section 4; sections 1 and 5-10 and the PyTorch code cells (no stored outputs) dropped",
        "source_kind": "course notebook (marimo)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown cells with $$ LaTeX: bmatrix matrices written on one line with & and \\\\, X W_Q products, $\\sqrt{2} \\approx 1.414$, $\\alpha \\approx$ weight matrix, inline 'weight 0.70' restatements, dimension arithmetic d / h = 64",
        "conventions": "row-vector convention Q = X W_Q, K = X W_K, V = X W_V (X 3x4, weights 4x2), scores Q K^T, scaled by sqrt(d_k) = sqrt(2) (exact, not 1.414), softmax per row. The printed alpha rows 1-2 ([0.06, 0.70, 0.24]) are wrong: softmax([0, 2.828, 1.414]) = [0.0454, 0.7679, 0.1867]. Not listed: X, W_Q, W_K, W_V, d = 4, d_k = 2, d = 512, h = 8, token/section numbers, N(0, 1), formula subscripts, d_ff = 4d",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: "Sinusoidal Positional Encoding" doc with PyTorch '# Output:' comments
# ---------------------------------------------------------------------------
def doc_b():
    d = 512
    th = lambda i: mpf(10000) ** (-mpf(2 * i) / d)
    inv255 = mpf(10000) ** (mpf(510) / d)          # 1/theta_255 = 9646.6
    lam255 = 2 * mpmath.pi * inv255               # 60611.5
    two_pi = 2 * mpmath.pi
    cs = lambda f, x: f(M(x))
    specs = [
        S('th0', '- **High frequency** (small i): `θ_0 = 1`', 3, E(1, 1, "theta_0 = 1 / base^0")),
        S('low', '- **Low frequency** (large i):', 5,
          W(3, inv255, "1/theta_(d/2-1) = 10000^(510/512) = 9646.6 for d = 512 (printed as 10000)", 'slip'),
          W(4, lam255, "longest wavelength 2*pi*10000^(510/512) = 60,611 (62,832 = 2*pi*10000 uses the rounded 1/10000)", 'carried', 'low')),
        S('d0', '(0, 1): sin/cos with θ_0 = 1.0', 4, E(3, 1, "theta_0")),
        S('d1', '(2, 3): sin/cos with θ_1', 4, W(3, th(1), "theta_1 = 10000^(-2/512) = 0.9647", 'slip')),
        S('d2', '(4, 5): sin/cos with θ_2', 4, W(3, th(2), "theta_2 = 10000^(-4/512) = 0.9306", 'slip')),
        S('d255', '(510, 511): sin/cos with θ_255', 4, E(3, th(255), "theta_255 = 10000^(-510/512) = 1.0366e-4")),
        S('hi', '# Highest frequency (i=0): 1.000000', 2, E(1, 1, "frequencies[0] printed with :.6f")),
        S('lo', '# Lowest frequency (i=255): 0.00010000', 2,
          W(1, th(255), "frequencies[-1] printed with :.8f = 0.00010366 (float32 gives 1.0366e-4 too)", 'slip')),
        S('l0', '- Shortest: `λ_0 = 2π ≈ 6.28`', 4, E(2, two_pi, "2*pi"), E(3, two_pi, "'every ~6 positions' = 2*pi")),
        S('l255', '- Longest: `λ_255 = 2π · 10000', 5,
          W(2, inv255, "base^(510/512) = 9646.6 written as 10000 again", 'carried', 'low'),
          W(3, lam255, "lambda_255 = 2*pi*10000^(510/512) = 60,611", 'carried', 'low'),
          W(4, lam255 / 1000, "'~63K positions' (true ~61K)", 'carried', 'low')),
        S('hf', 'High freq (λ=6.28):', 1, E(0, two_pi, "2*pi restated")),
        S('p0', '= [0.0, 1.0, 0.0, 1.0, ...]', 4,
          E(0, 0, "sin 0"), E(1, 1, "cos 0"), E(2, 0, "sin 0"), E(3, 1, "cos 0")),
        S('p10', '= [0.0, 1.0, 0.67, 0.74, ...]', 4,
          W(0, mpmath.sin(10), "sin(10*theta_0) = sin 10 = -0.5440", 'slip'),
          W(1, mpmath.cos(10), "cos(10*theta_0) = cos 10 = -0.8391", 'slip'),
          W(2, mpmath.sin(10 * th(1)), "sin(10*theta_1), d = 512: sin 9.6466 = -0.2200", 'slip'),
          W(3, mpmath.cos(10 * th(1)), "cos(10*theta_1), d = 512: cos 9.6466 = -0.9755", 'slip')),
        S('di', '# dim_indices = [0, 2]', 2, E(0, 0, "arange(0, 4, 2)[0]"), E(1, 2, "arange(0, 4, 2)[1]")),
        S('fr', '#             = [1.0, 0.01]', 2, E(0, 1, "1/10000^(0/4)"), E(1, Fraction(1, 100), "1/10000^(2/4)")),
        S('di2', 'dim_indices = torch.arange(0, dim, 2).float()  # [0., 2.]', 4, E(2, 0, "arange value 0"), E(3, 2, "arange value 2")),
        S('fro', '# Output: Frequencies: tensor([1.0000, 0.0100])', 2, E(0, 1, "frequency 0"), E(1, Fraction(1, 100), "frequency 1")),
        S('pos', 'positions = torch.arange(seq_len).unsqueeze(1)  # [[0], [1], [2]]', 4,
          E(1, 0, "position 0"), E(2, 1, "position 1"), E(3, 2, "position 2")),
        S('ash', 'angles = positions * frequencies  # (3, 2)', 2, E(0, 3, "angles rows"), E(1, 2, "angles columns")),
        S('a0', '# tensor([[0.0000, 0.0000],', 2, E(0, 0, "angle 0*1"), E(1, 0, "angle 0*0.01")),
        S('a1', '#         [1.0000, 0.0100],', 2, E(0, 1, "angle 1*1"), E(1, Fraction(1, 100), "angle 1*0.01")),
        S('a2', '#         [2.0000, 0.0200]])', 2, E(0, 2, "angle 2*1"), E(1, Fraction(2, 100), "angle 2*0.01")),
        S('pe0', '# tensor([[ 0.0000,  1.0000,  0.0000,  1.0000],  # pos=0', 5,
          E(0, 0, "sin 0"), E(1, 1, "cos 0"), E(2, 0, "sin 0"), E(3, 1, "cos 0")),
        S('pe1', '#         [ 0.8415,  0.5403,  0.0100,  1.0000],  # pos=1', 5,
          E(0, mpmath.sin(1), "sin 1"), E(1, mpmath.cos(1), "cos 1"),
          E(2, cs(mpmath.sin, Fraction(1, 100)), "sin 0.01 = 0.0099998"),
          E(3, cs(mpmath.cos, Fraction(1, 100)), "cos 0.01 = 0.99995000042 (rounds up to 1.0000)")),
        S('pe2', '#         [ 0.9093, -0.4161,  0.0200,  1.0000]]) # pos=2', 5,
          E(0, mpmath.sin(2), "sin 2"), E(1, mpmath.cos(2), "cos 2"),
          E(2, cs(mpmath.sin, Fraction(2, 100)), "sin 0.02 = 0.019999"),
          W(3, cs(mpmath.cos, Fraction(2, 100)), "cos 0.02 = 0.99980 (prints 0.9998)", 'slip')),
        S('mem', '**Memory savings**: 50% reduction', 1, E(0, 50, "fp16 (2 bytes) vs fp32 (4 bytes): 50 %")),
        S('sp', '# Scaled positions: [0, 0.5, 1.0, 1.5, ...]', 4,
          *[E(k, k * Fraction(2048, 4096), "position %d * 2048/4096" % k) for k in range(4)]),
        S('b512', 'base_512 = choose_base(512)  # ~814', 3,
          W(2, 5120 / two_pi, "10*512/(2*pi) = 814.87 (rounds to 815)", 'slip')),
        S('b4096', 'base_4096 = choose_base(4096)  # ~6511', 3,
          W(2, 40960 / two_pi, "10*4096/(2*pi) = 6518.99", 'slip')),
    ]
    meta = {
        "doc": "en_sinusoidal_pe_torch_walkthrough.md",
        "source": "GitHub Markdown reference page '# Sinusoidal Positional Encoding' of a model-components library ('from nexus.components.embeddings import SinusoidalPositionalEncoding', links '../../nexus/components/embeddings/sinusoidal.py', next: learned_pe.md | rope.md); the search index did not expose the repository name (stored file id 7629724358). Kept: motivation (condensed), formula, frequency spectrum, dimension indices, the frequency-calculation code with its '# Output:' comments, wavelengths, clock intuition (condensed) and ASCII waves, 'Why multiple frequencies', the full code walkthrough with its '# Output:' comments, half precision, the interpolation comment and choose_base. Dropped: relative-position proof, the module class and usage code (one-sentence summary instead), memory-efficient code, dimension dropout, experiment tables, pitfalls, references",
        "source_kind": "library documentation page",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with fenced python blocks whose printouts are written by hand as '# Output:' comments (tensor([[ 0.8415,  0.5403, ...]]) with '# pos=1' tails), plain code blocks with θ_1 ≈ 0.681 lists, (0, 1) pair labels, λ_i = 2π / θ_i, 2π · 10000 ≈ 62,832 with thousands comma, '~63K', '# ~814' comments",
        "conventions": "PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(...), base = 10000, angles in radians, theta_i = base^(-2i/d), lambda_i = 2*pi/theta_i; the frequency spectrum, dimension-index list, wavelengths and the 'Position 10' vector are judged with d = 512 (the dimension the page uses there; theta_1 enters 'Position 10'); the code walkthrough uses dim = 4, seq_len = 3. The '# Output:' comments are judged against the true values (PyTorch float32 would print cos 0.02 as 0.9998 and the lowest frequency as 0.00010366). 62,832 is 2*pi*10000 and is judged as the wavelength of pair 255 (= 60,611). choose_base = 10*L/(2*pi). Not listed: formula exponents, pair labels, positions/dims given as inputs, code arguments, illustrative wavelengths 40/200/10, the 2048/4096 lengths, the [-1, 1] range",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: chat-style transformer notes ("I love you" attention, PE tables)
# ---------------------------------------------------------------------------
def doc_c():
    r2 = mpmath.sqrt(2)
    s2 = [D('0.22'), D('0.20'), D('0.39')]
    w2 = softmax([M(x) / r2 for x in s2])
    V2 = MX([['0.3', '0.6'], ['0.4', '0.1'], ['0.5', '0.9']])
    t2 = [[w2[k] * M(V2[k][j]) for k in range(3)] for j in range(2)]
    o2 = [sum(t2[j]) for j in range(2)]
    Q = MX([['0.2', '0.5', '0.1', '0.3'], ['0.7', '0.1', '0.4', '0.2'], ['0.3', '0.8', '0.2', '0.5']])
    K = MX([['0.1', '0.4', '0.2', '0.6'], ['0.5', '0.2', '0.6', '0.1'], ['0.2', '0.7', '0.3', '0.4']])
    V = MX([['0.3', '0.6', '0.2', '0.5'], ['0.4', '0.1', '0.7', '0.3'], ['0.5', '0.9', '0.1', '0.6']])
    Sc = matmul(Q, T(K))
    Wt = [softmax([M(v) / 2 for v in row]) for row in Sc]
    ex = [mpmath.exp(M(v) / 2) for v in Sc[0]]
    w = Wt[0]
    t4 = [[w[k] * M(V[k][j]) for k in range(3)] for j in range(4)]
    o4 = [sum(t4[j]) for j in range(4)]
    # positional encoding
    fr = lambda i, d: mpf(10000) ** (-mpf(2 * i) / d)
    p = lambda v: mpf(10000) ** M(v)
    f1, f2 = fr(1, 100), fr(2, 100)
    g1, g2 = mpf(10000) ** (mpf(2) / 6), mpf(10000) ** (mpf(4) / 6)
    sn, cs = mpmath.sin, mpmath.cos

    tw = ["w(I,I)", "w(I,love)", "w(I,you)"]
    specs = [
        # --- 2-d version
        S('s21', 'Score(I, I)   = Q₁·K₁ = 0.2×0.1 + 0.5×0.4 = 0.02', 7,
          E(4, D('0.02'), "0.2*0.1"), E(5, D('0.20'), "0.5*0.4"), E(6, s2[0], "Q1.K1 (2-d)")),
        S('s22', 'Score(I, love) = Q₁·K₂ = 0.2×0.5 + 0.5×0.2 =', 7,
          E(4, D('0.10'), "0.2*0.5"), E(5, D('0.10'), "0.5*0.2"), E(6, s2[1], "Q1.K2 (2-d)")),
        S('s23', 'Score(I, you)  = Q₁·K₃ = 0.2×0.2 + 0.5×0.7 =', 7,
          E(4, D('0.04'), "0.2*0.2"), E(5, D('0.35'), "0.5*0.7"), E(6, s2[2], "Q1.K3 (2-d)")),
        S('s2r', '**Scores:** [0.22, 0.20, 0.39]', 3, *[E(k, s2[k], "score restated") for k in range(3)]),
        S('r2', 'Scale: Divide by √d_k (√2 ≈ 1.41)', 2, E(1, r2, "sqrt(2)")),
        S('sc2', '[0.22/1.41=0.16', 9,
          *[e for k in range(3) for e in (E(3 * k, s2[k], "score restated"), E(3 * k + 1, r2, "sqrt(2) restated"),
                                          E(3 * k + 2, M(s2[k]) / r2, "score / sqrt(2)"))]),
        S('w2', 'Attention weights = [0.33, 0.30, 0.37]', 3,
          W(0, w2[0], "softmax([0.22, 0.20, 0.39]/sqrt 2)[0] = 0.3212", 'slip'),
          W(1, w2[1], "softmax(...)[1] = 0.3167", 'slip'),
          W(2, w2[2], "softmax(...)[2] = 0.3622", 'slip')),
        S('pct2', 'pays 33% attention to itself, 30% to', 3,
          *[W(k, 100 * w2[k], "weight in %% (%s)" % tw[k], 'carried', 'w2') for k in range(3)]),
        S('o2a', 'Output for "I" = 0.33×V₁ + 0.30×V₂ + 0.37×V₃', 3,
          *[W(k, w2[k], "weight restated", 'carried', 'w2') for k in range(3)]),
        S('o2b', '= 0.33×[0.3,0.6] + 0.30×[0.4,0.1] + 0.37×[0.5,0.9]', 9,
          *[W(3 * k, w2[k], "weight restated", 'carried', 'w2') for k in range(3)]),
        S('o2c', '= [0.099+0.12+0.185, 0.198+0.03+0.333]', 6,
          W(0, t2[0][0], "w0*0.3 = 0.0963 (0.33*0.3 from the wrong weight)", 'carried', 'w2'),
          W(1, t2[0][1], "w1*0.4 = 0.1267 (0.30*0.4)", 'carried', 'w2'),
          W(2, t2[0][2], "w2*0.5 = 0.1811 (0.37*0.5)", 'carried', 'w2'),
          W(3, t2[1][0], "w0*0.6 = 0.1927 (0.33*0.6)", 'carried', 'w2'),
          E(4, t2[1][1], "w1*0.1 = 0.0317"),
          W(5, t2[1][2], "w2*0.9 = 0.3260 (0.37*0.9)", 'carried', 'w2')),
        S('o2d', '= [0.404, 0.561]', 2, E(0, o2[0], "output[0] = 0.40410 (the wrong terms happen to add up right)"),
          W(1, o2[1], "output[1] = 0.5503 (sum of the printed terms)", 'carried', 'o2c')),
        # --- 4-d version
        S('s41', '= 0.02 + 0.20 + 0.02 + 0.18 = 0.42', 5,
          *[E(k, Q[0][k] * K[0][k], "Q1[%d]*K1[%d]" % (k, k)) for k in range(4)], E(4, Sc[0][0], "Q1.K1")),
        S('s42', '= 0.10 + 0.10 + 0.06 + 0.03 = 0.29', 5,
          *[E(k, Q[0][k] * K[1][k], "Q1[%d]*K2[%d]" % (k, k)) for k in range(4)], E(4, Sc[0][1], "Q1.K2")),
        S('s43', '= 0.04 + 0.35 + 0.03 + 0.12 = 0.54', 5,
          *[E(k, Q[0][k] * K[2][k], "Q1[%d]*K3[%d]" % (k, k)) for k in range(4)], E(4, Sc[0][2], "Q1.K3")),
        S('s4r', '^I      0.42  0.29  0.54', 3, *[E(k, Sc[0][k], "score row I restated") for k in range(3)]),
        S('sq4', '√d_k = √4 = 2', 2, E(1, 2, "sqrt(4)")),
        S('sc4', '[0.42/2=0.21, 0.29/2=0.145, 0.54/2=0.27]', 9,
          *[e for k in range(3) for e in (E(3 * k, Sc[0][k], "score restated"), E(3 * k + 1, 2, "sqrt(d_k) restated"),
                                          E(3 * k + 2, Sc[0][k] / 2, "score / 2"))]),
        S('sc4r', 'scores = [0.21, 0.145, 0.27]', 3, *[E(k, Sc[0][k] / 2, "scaled score restated") for k in range(3)]),
        S('ex4', 'exp(scores) = [1.23, 1.16, 1.31]', 3, *[E(k, ex[k], "exp(scaled score %d)" % k) for k in range(3)]),
        S('sum4', 'sum = 3.70', 1, E(0, sum(ex), "sum of exponentials = 3.6997")),
        S('w4', 'Attention weights = [1.23/3.70=0.33', 9,
          E(0, ex[0], "exp restated"), E(1, sum(ex), "sum restated"), E(2, w[0], "w(I,I) = 0.3335"),
          E(3, ex[1], "exp restated"), E(4, sum(ex), "sum restated"), E(5, w[1], "w(I,love) = 0.3125"),
          E(6, ex[2], "exp restated"), E(7, sum(ex), "sum restated"),
          W(8, w[2], "w(I,you) = 1.30996/3.69968 = 0.3541 (1.31/3.70 = 0.354 too)", 'slip')),
        S('pct4', '"I" pays 33% attention to itself, 31% to', 3,
          E(0, 100 * w[0], "w(I,I) in %"), E(1, 100 * w[1], "w(I,love) in %"),
          W(2, 100 * w[2], "w(I,you) in % (35.4)", 'carried', 'w4')),
        S('m0', '^I      0.33  0.31  0.36', 3, E(0, w[0], "matrix row I"), E(1, w[1], "matrix row I"),
          W(2, w[2], "matrix row I, restated 0.36", 'carried', 'w4')),
        S('m1', '^love   0.25  0.40  0.35', 3,
          *[W(k, Wt[1][k], "row love = softmax([0.31, 0.63, 0.41]/2) = [0.3101, 0.3639, 0.3260] (never computed in the text)", 'slip')
            for k in range(3)]),
        S('m2', '^you    0.28  0.32  0.40', 3,
          *[W(k, Wt[2][k], "row you = softmax([0.69, 0.48, 0.88]/2) = [0.3333, 0.3001, 0.3666] (never computed in the text)", 'slip')
            for k in range(3)]),
        S('o4a', 'Output_I = 0.33×V₁ + 0.31×V₂ + 0.36×V₃', 3,
          E(0, w[0], "weight restated"), E(1, w[1], "weight restated"), W(2, w[2], "weight restated", 'carried', 'w4')),
        S('o4b', '= 0.33×[0.3,0.6,0.2,0.5] + 0.31×', 15,
          E(0, w[0], "weight restated"), E(5, w[1], "weight restated"), W(10, w[2], "weight restated", 'carried', 'w4')),
        S('o4c', '= [0.099+0.124+0.180, 0.198+0.031+0.324,', 12,
          W(0, t4[0][0], "w0*0.3 = 0.10004 (0.33*0.3 from the rounded weight)", 'carried', 'w4'),
          W(1, t4[0][1], "w1*0.4 = 0.12499 (0.31*0.4 from the rounded weight)", 'carried', 'w4'),
          W(2, t4[0][2], "w2*0.5 = 0.17704 (0.36*0.5)", 'carried', 'w4'),
          W(3, t4[1][0], "w0*0.6 = 0.20007 (0.33*0.6)", 'carried', 'w4'),
          E(4, t4[1][1], "w1*0.1 = 0.031247"),
          W(5, t4[1][2], "w2*0.9 = 0.31867 (0.36*0.9)", 'carried', 'w4'),
          W(6, t4[2][0], "w0*0.2 = 0.06669 (0.33*0.2)", 'carried', 'w4'),
          W(7, t4[2][1], "w1*0.7 = 0.21873 (0.31*0.7)", 'carried', 'w4'),
          W(8, t4[2][2], "w2*0.1 = 0.035407 (0.36*0.1)", 'carried', 'w4'),
          W(9, t4[3][0], "w0*0.5 = 0.16673 (0.33*0.5)", 'carried', 'w4'),
          W(10, t4[3][1], "w1*0.3 = 0.093741 (0.31*0.3)", 'carried', 'w4'),
          W(11, t4[3][2], "w2*0.6 = 0.21244 (0.36*0.6)", 'carried', 'w4')),
        S('o4d', '= [0.403, 0.553, 0.319, 0.474]', 4,
          *[W(k, o4[k], "Output_I[%d] (true [0.4021, 0.5500, 0.3208, 0.4729]; sum of the printed terms)" % k, 'carried', 'o4c')
            for k in range(4)]),
        # --- positional encoding, frequency terms (d_model = 512)
        S('f0', 'For i=0:  frequency = 1 / 10000^0 = 1', 5, E(4, 1, "1/10000^0")),
        S('f1', 'For i=1:  frequency = 1 / 10000^(2/512)', 11,
          E(7, Fraction(2, 512), "2/512 = 0.00390625"),
          W(9, p(Fraction(2, 512)), "10000^(2/512) = 1.03663", 'slip'),
          W(10, fr(1, 512), "1/10000^(2/512) = 0.96466 (1/1.035 = 0.9662)", 'carried', 'f1')),
        S('f2', 'For i=2:  frequency = 1 / 10000^(4/512)', 11,
          E(7, Fraction(4, 512), "4/512 = 0.0078125"),
          W(9, p(Fraction(4, 512)), "10000^(4/512) = 1.07461", 'slip'),
          W(10, fr(2, 512), "1/10000^(4/512) = 0.93057 (1/1.072 = 0.9328)", 'carried', 'f2')),
        S('f255', 'For i=255: frequency = 1 / 10000^(510/512)', 11,
          E(7, Fraction(510, 512), "510/512 = 0.99609"),
          W(9, p(Fraction(510, 512)), "10000^(510/512) = 9646.6", 'slip'),
          E(10, fr(255, 512), "1/10000^(510/512) = 1.0366e-4")),
        # --- d_model = 100 table
        S('v0a', '^Position 0:  sin(0)  cos(0)  sin(0)   cos(0)   sin(0)   ...', 6,
          *[E(k, 0, "angle 0 * frequency") for k in range(1, 6)]),
        S('v0b', '=0      =1      =0       =1       =0', 5,
          *[E(k, [0, 1, 0, 1, 0][k], "sin/cos of 0") for k in range(5)]),
        S('v1a', 'Position 1:  sin(1)  cos(1)  sin(0.01)', 6,
          E(1, 1, "angle 1*1"), E(2, 1, "angle 1*1"),
          W(3, f1, "angle 1*10000^(-2/100) = 0.8318 for d_model = 100", 'slip'),
          W(4, f1, "same angle for the cos", 'carried', 'v1a'),
          W(5, f2, "angle 1*10000^(-4/100) = 0.6918", 'slip')),
        S('v1b', '≈0.84   ≈0.54   ≈0.01    ≈0.999    ≈0.0001', 5,
          E(0, sn(1), "sin 1"), E(1, cs(1), "cos 1"),
          W(2, sn(f1), "PE(1,2) = sin 0.8318 = 0.7391 (sin 0.01 = 0.0100)", 'carried', 'v1a'),
          W(3, cs(f1), "PE(1,3) = cos 0.8318 = 0.6736; even cos 0.01 = 0.99995 is 1.000, not 0.999", 'slip'),
          W(4, sn(f2), "PE(1,4) = sin 0.6918 = 0.6379 (sin 0.0001 = 0.0001)", 'carried', 'v1a')),
        S('v2a', 'Position 2:  sin(2)  cos(2)  sin(0.02)', 6,
          E(1, 2, "angle 2*1"), E(2, 2, "angle 2*1"),
          W(3, 2 * f1, "angle 2*0.8318 = 1.6635 (2*0.01 from the wrong frequency)", 'carried', 'v1a'),
          W(4, 2 * f1, "same angle for the cos", 'carried', 'v1a'),
          W(5, 2 * f2, "angle 2*0.6918 = 1.3837", 'carried', 'v1a')),
        S('v2b', '≈0.91   ≈-0.42  ≈0.02    ≈0.999    ≈0.0002', 5,
          E(0, sn(2), "sin 2"), E(1, cs(2), "cos 2"),
          W(2, sn(2 * f1), "PE(2,2) = sin 1.6635 = 0.9957", 'carried', 'v1a'),
          W(3, cs(2 * f1), "PE(2,3) = cos 1.6635 = -0.0926; even cos 0.02 = 0.9998 is 1.000", 'slip'),
          W(4, sn(2 * f2), "PE(2,4) = sin 1.3837 = 0.9825", 'carried', 'v1a')),
        S('v3a', 'Position 3:  sin(3)  cos(3)  sin(0.03)', 6,
          E(1, 3, "angle 3*1"), E(2, 3, "angle 3*1"),
          W(3, 3 * f1, "angle 3*0.8318 = 2.4953", 'carried', 'v1a'),
          W(4, 3 * f1, "same angle for the cos", 'carried', 'v1a'),
          W(5, 3 * f2, "angle 3*0.6918 = 2.0755", 'carried', 'v1a')),
        S('v3b', '≈0.14   ≈-0.99  ≈0.03    ≈0.999    ≈0.0003', 5,
          E(0, sn(3), "sin 3"), E(1, cs(3), "cos 3 = -0.98999"),
          W(2, sn(3 * f1), "PE(3,2) = sin 2.4953 = 0.6022", 'carried', 'v1a'),
          W(3, cs(3 * f1), "PE(3,3) = cos 2.4953 = -0.7983; even cos 0.03 = 0.99955 is 1.000", 'slip'),
          W(4, sn(3 * f2), "PE(3,4) = sin 2.0755 = 0.8753", 'carried', 'v1a')),
        S('note', '**Notice:** Early dimensions change RAPIDLY', 8,
          E(0, 0, "sin 0"), E(1, sn(1), "sin 1"), E(2, sn(2), "sin 2"), E(3, sn(3), "sin 3"),
          E(4, 0, "PE(0,4) = 0"),
          W(5, sn(f2), "PE(1,4) restated (0.6379)", 'carried', 'v1a'),
          W(6, sn(2 * f2), "PE(2,4) restated (0.9825)", 'carried', 'v1a'),
          W(7, sn(3 * f2), "PE(3,4) restated (0.8753)", 'carried', 'v1a')),
        # --- d_model = 6 table
        S('q00s', 'i=0 (sin): sin(0/1) = sin(0) = 0', 5, E(2, 1, "10000^(0/6)"), E(3, 0, "angle 0"), E(4, 0, "sin 0")),
        S('q00c', 'i=0 (cos): cos(0/1) = cos(0) = 1', 5, E(2, 1, "10000^(0/6)"), E(3, 0, "angle 0"), E(4, 1, "cos 0")),
        S('q01s', 'i=1 (sin): sin(0/1.07) = sin(0) = 0', 5,
          W(2, g1, "10000^(2/6) = 21.544", 'slip'), E(3, 0, "angle 0"), E(4, 0, "sin 0")),
        S('q01c', 'i=1 (cos): cos(0/1.07) = cos(0) = 1', 5,
          W(2, g1, "divisor restated", 'carried', 'q01s'), E(3, 0, "angle 0"), E(4, 1, "cos 0")),
        S('q02s', 'i=2 (sin): sin(0/1.14) = sin(0) = 0', 5,
          W(2, g2, "10000^(4/6) = 464.16", 'slip'), E(3, 0, "angle 0"), E(4, 0, "sin 0")),
        S('q02c', 'i=2 (cos): cos(0/1.14) = cos(0) = 1', 5,
          W(2, g2, "divisor restated", 'carried', 'q02s'), E(3, 0, "angle 0"), E(4, 1, "cos 0")),
        S('pe0', 'PE(0) = [0, 1, 0, 1, 0, 1]', 7, *[E(k, [0, 1, 0, 1, 0, 1][k - 1], "PE(0) entry") for k in range(1, 7)]),
        S('q10s', 'i=0 (sin): sin(1/1) = sin(1) = 0.84', 5, E(2, 1, "divisor 1"), E(3, 1, "angle 1"), E(4, sn(1), "sin 1")),
        S('q10c', 'i=0 (cos): cos(1/1) = cos(1) = 0.54', 5, E(2, 1, "divisor 1"), E(3, 1, "angle 1"), E(4, cs(1), "cos 1")),
        S('q11s', 'i=1 (sin): sin(1/1.07) = sin(0.93) = 0.80', 5,
          W(2, g1, "divisor restated", 'carried', 'q01s'),
          W(3, 1 / g1, "angle 1/21.544 = 0.0464 (1/1.07 = 0.9346)", 'carried', 'q01s'),
          W(4, sn(1 / g1), "PE(1,2) = sin 0.0464 = 0.0464 (sin 0.93 = 0.8016)", 'carried', 'q01s')),
        S('q11c', 'i=1 (cos): cos(1/1.07) = cos(0.93) = 0.60', 5,
          W(2, g1, "divisor restated", 'carried', 'q01s'),
          W(3, 1 / g1, "angle restated", 'carried', 'q01s'),
          W(4, cs(1 / g1), "PE(1,3) = cos 0.0464 = 0.9989 (cos 0.93 = 0.5978)", 'carried', 'q01s')),
        S('q12s', 'i=2 (sin): sin(1/1.14) = sin(0.88) = 0.77', 5,
          W(2, g2, "divisor restated", 'carried', 'q02s'),
          W(3, 1 / g2, "angle 1/464.16 = 0.00215 (1/1.14 = 0.877)", 'carried', 'q02s'),
          W(4, sn(1 / g2), "PE(1,4) = sin 0.00215 = 0.0022 (sin 0.88 = 0.7707)", 'carried', 'q02s')),
        S('q12c', 'i=2 (cos): cos(1/1.14) = cos(0.88) = 0.64', 5,
          W(2, g2, "divisor restated", 'carried', 'q02s'),
          W(3, 1 / g2, "angle restated", 'carried', 'q02s'),
          W(4, cs(1 / g2), "PE(1,5) = cos 0.00215 = 1.0000 (cos 0.88 = 0.6372)", 'carried', 'q02s')),
        S('pe1', 'PE(1) = [0.84, 0.54, 0.80, 0.60, 0.77, 0.64]', 7,
          E(1, sn(1), "PE(1,0)"), E(2, cs(1), "PE(1,1)"),
          W(3, sn(1 / g1), "PE(1,2) restated", 'carried', 'q11s'), W(4, cs(1 / g1), "PE(1,3) restated", 'carried', 'q11c'),
          W(5, sn(1 / g2), "PE(1,4) restated", 'carried', 'q12s'), W(6, cs(1 / g2), "PE(1,5) restated", 'carried', 'q12c')),
        S('q20s', 'i=0 (sin): sin(2/1) = sin(2) = 0.91', 5, E(2, 1, "divisor 1"), E(3, 2, "angle 2"), E(4, sn(2), "sin 2")),
        S('q20c', 'i=0 (cos): cos(2/1) = cos(2) = -0.42', 5, E(2, 1, "divisor 1"), E(3, 2, "angle 2"), E(4, cs(2), "cos 2")),
        S('q21s', 'i=1 (sin): sin(2/1.07) = sin(1.87) = 0.96', 5,
          W(2, g1, "divisor restated", 'carried', 'q01s'),
          W(3, 2 / g1, "angle 2/21.544 = 0.0928 (2/1.07 = 1.869)", 'carried', 'q01s'),
          W(4, sn(2 / g1), "PE(2,2) = sin 0.0928 = 0.0927 (sin 1.87 = 0.9556)", 'carried', 'q01s')),
        S('q21c', 'i=1 (cos): cos(2/1.07) = cos(1.87) = -0.29', 5,
          W(2, g1, "divisor restated", 'carried', 'q01s'),
          W(3, 2 / g1, "angle restated", 'carried', 'q01s'),
          W(4, cs(2 / g1), "PE(2,3) = cos 0.0928 = 0.9957 (cos 1.87 = -0.2948)", 'carried', 'q01s')),
        S('q22s', 'i=2 (sin): sin(2/1.14) = sin(1.75) = 0.98', 5,
          W(2, g2, "divisor restated", 'carried', 'q02s'),
          W(3, 2 / g2, "angle 2/464.16 = 0.00431 (2/1.14 = 1.754)", 'carried', 'q02s'),
          W(4, sn(2 / g2), "PE(2,4) = sin 0.00431 = 0.0043 (sin 1.75 = 0.9840)", 'carried', 'q02s')),
        S('q22c', 'i=2 (cos): cos(2/1.14) = cos(1.75) = -0.17', 5,
          W(2, g2, "divisor restated", 'carried', 'q02s'),
          W(3, 2 / g2, "angle restated", 'carried', 'q02s'),
          W(4, cs(2 / g2), "PE(2,5) = cos 0.00431 = 1.0000; even cos 1.75 = -0.178 rounds to -0.18", 'slip')),
        S('pe2', 'PE(2) = [0.91, -0.42, 0.96, -0.29, 0.98, -0.17]', 7,
          E(1, sn(2), "PE(2,0)"), E(2, cs(2), "PE(2,1)"),
          W(3, sn(2 / g1), "PE(2,2) restated", 'carried', 'q21s'), W(4, cs(2 / g1), "PE(2,3) restated", 'carried', 'q21c'),
          W(5, sn(2 / g2), "PE(2,4) restated", 'carried', 'q22s'), W(6, cs(2 / g2), "PE(2,5) restated", 'carried', 'q22c')),
    ]
    meta = {
        "doc": "en_transformer_chat_notes_i_love_you.md",
        "source": "GitHub Markdown study notes made of several chat-style answers ('Excellent! Now we're moving to ... the Transformer!' - Transformers, Self-Attention & Multi-Head, Positional Encoding & FFN, BERT & GPT); the search index did not expose the repository name (stored file id 62791847761). Excerpts: 'The Self-Attention Formula (Step by Step)' of the first answer (2-d vectors), Steps 1-5 of 'Part 1: Self-Attention' of the second answer (4-d vectors; the box diagram, analogies and the multi-head part dropped), and from the third answer the frequency-term list, the d_model = 100 pattern and the d_model = 6 example (formula block, heatmap and FFN parts dropped). Some blank lines inside code blocks removed to stay within 200 lines; prose shortened",
        "source_kind": "study notes (chat answers)",
        "language": "en",
        "errors_as_published": True,
        "notation": "fenced plain-text blocks with Unicode subscripts Q₁·K₁, × products, 'Score(I, love) =' lines, inline divisions [0.22/1.41=0.16, ...], percentages, pipe-free aligned score/weight matrices with ? placeholders, caret powers 10000^(2/512), ≈ chains, sin(1/1.07) = sin(0.93) = 0.80 lines, PE(1) = [...] vectors",
        "conventions": "single-head attention with the given Q, K, V rows (no projections), scores Q.K / sqrt(d_k) (d_k = 2 in the first excerpt, 4 in the second), row softmax, output = sum of weights times V; every later value judged from exact weights (the 4-d terms 0.33*0.3 = 0.099 etc. are 'carried' because they are right only for the rounded weights). The love/you rows of the 4-d weight matrix are judged against softmax of their (uncomputed) scores [0.31, 0.63, 0.41] and [0.69, 0.48, 0.88]. Positional encoding PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(...), radians, judged with the d_model each block states (512 for the frequency list, 100 for the pattern, 6 for the small example; the divisors 1.07/1.14 and arguments 0.01/0.0001 belong to none of them). Not listed: the given Q, K, V, d_k, the inputs of the products, formula exponents (2/512 etc. as written), i and position labels, d_model values",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: "Layer Normalization" lesson (TypeScript Article content string)
# ---------------------------------------------------------------------------
def doc_d():
    x = [Fraction(v) for v in (10, 20, 30, 40)]
    mu = sum(x) / 4
    var = sum((v - mu) ** 2 for v in x) / 4
    sd = mpmath.sqrt(M(var))
    nrm = [M(v - mu) / sd for v in x]
    nrm_eps = [M(v - mu) / (sd + mpf('1e-5')) for v in x]
    small = [Fraction(v) for v in (2, 5, 8)]
    m2 = sum(small) / 3
    s2 = mpmath.sqrt(M(sum((v - m2) ** 2 for v in small) / 3))
    n2 = [M(v - m2) / s2 for v in small]
    specs = [
        S('mean', 'Mean = (10 + 20 + 30 + 40) / 4 = 25', 6, E(5, mu, "mean of [10, 20, 30, 40]")),
        S('std', 'Standard deviation ≈ 11.2', 1, E(0, sd, "population std sqrt(125)")),
        *[S('n%d' % k, '%d → (%d - 25) / 11.2 = ' % (10 * (k + 1), 10 * (k + 1)), 5,
            E(2, mu, "mean restated"), E(3, sd, "std restated"), E(4, nrm[k], "(x - mean)/std for x = %d" % (10 * (k + 1))))
          for k in range(4)],
        S('mm', 'Mean["Calculate Mean<br/>mean = 25"]', 1, E(0, mu, "mean restated")),
        S('ms', 'Std["Calculate Std Dev<br/>std = 11.2"]', 1, E(0, sd, "std restated")),
        S('mo', 'Output["Output<br/>[-1.34, -0.45, 0.45, 1.34]"]', 4,
          *[E(k, nrm[k], "normalized value %d restated" % k) for k in range(4)]),
        *[S('w%d' % s, 'After Step %d: Numbers = %s → Normalized to -1, 0, 1' % (s, ['2, 5, 8', '20, 50, 80', '200, 500, 800', '2000, 5000, 8000'][s - 1]), 7,
            *[E(4 + k, n2[k], "standardized %s (scale-free: (x-mean)/std = -1.2247, 0, 1.2247)" % ['low', 'middle', 'high'][k]) for k in range(3)])
          for s in range(1, 5)],
        S('py', '# Result: [-1.34, -0.45, 0.45, 1.34]', 4,
          *[E(k, nrm_eps[k], "(x - mean)/(std + 1e-5), element %d (python)" % k) for k in range(4)]),
        S('js', '// Result: [-1.34, -0.45, 0.45, 1.34]', 4,
          *[E(k, nrm_eps[k], "(x - mean)/(std + 1e-5), element %d (javascript)" % k) for k in range(4)]),
        S('sum', '3. Normalizes values to have mean=0 and std=1', 3,
          E(1, 0, "mean of a normalized vector"), E(2, 1, "std of a normalized vector (no eps in the prose formula)")),
    ]
    meta = {
        "doc": "en_layernorm_lesson7_article.md",
        "source": "GitHub TypeScript content file 'export const layerNormalization: Article = { module: 2, slug: 'layer-normalization', ... }' of a transformer course site (lesson 7 of module 2, previous 'Feed-Forward Networks', next 'Residual Connections'); the search index did not expose the repository name (stored file id 20123846085; an older stored version, id 30384559251, has a different mean-only example and was not used). Transcribed: the Markdown of the content template string with its escaped fences unescaped; the mermaid style lines, the two 'where is it used' / 'putting it together' flowcharts and the 'connection to previous topics' table dropped, the intro and problem sections condensed",
        "source_kind": "course lesson (site content file)",
        "language": "en",
        "errors_as_published": False,
        "notation": "Markdown with plain fenced blocks 'Mean = (10 + 20 + 30 + 40) / 4 = 25', arrow lines '10 → (10 - 25) / 11.2 = -1.34', a mermaid flowchart with <br/> labels, a combined ```python|javascript block with ||| separator and '# Result:' / '// Result:' comments, 'Normalized to -1, 0, 1' lines",
        "conventions": "layer normalization (x - mean)/std with the population standard deviation (divide by n), no epsilon in the prose (the code adds 1e-5 to the std, which does not change 2-decimal results); gamma = 1, beta = 0. 'Normalized to -1, 0, 1' is judged as the standardized [2, 5, 8]-type vectors (-1.2247, 0, 1.2247) rounded to integers. Not listed: the input values and their illustrative x10 growth, the count 4, lesson numbers, 512, code arguments",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: "Encoder-Decoder (Cross) Attention" chapter ("Le chat")
# ---------------------------------------------------------------------------
def doc_e():
    enc = MX([['0.8', '0.1', '0.5', '0.3'], ['0.2', '0.9', '0.4', '0.7'], ['0.6', '0.3', '0.8', '0.1']])
    dec = MX([['0.5', '0.7', '0.2', '0.6'], ['0.3', '0.8', '0.5', '0.9']])
    S_ = matmul(dec, T(enc))
    Ss = [[v / 2 for v in row] for row in S_]
    ex = [[mpmath.exp(M(v)) for v in row] for row in Ss]
    tot = [sum(r) for r in ex]
    A = [[e / t for e in r] for r, t in zip(ex, tot)]
    terms = [[[A[i][k] * M(enc[k][j]) for k in range(3)] for j in range(4)] for i in range(2)]
    out = [[sum(terms[i][j]) for j in range(4)] for i in range(2)]

    def qk(label, i, j):
        anc = 'QKᵀ[%d,%d] = ' % (i, j)
        return S(label, anc, 11, E(10, S_[i][j], "dec[%d].enc[%d]" % (i, j)))

    row0_terms = []
    for j in range(4):
        for k in range(3):
            n = 3 * j + k
            what = "weight[0][%d] * enc[%d][%d]" % (k, k, j)
            v = terms[0][j][k]
            if n in (0, 6):
                row0_terms.append(W(n, v, what + " = %s (0.307 x %s from the rounded weight)" % (
                    mp.nstr(v, 6), ['0.8', '0.5'][n // 6]), 'carried', 'w0'))
            elif n == 8:
                row0_terms.append(W(n, v, what + " = %s (0.303 x 0.8 = 0.2424 from the wrong weight)" % mp.nstr(v, 6),
                                    'carried', 'w0'))
            else:
                row0_terms.append(E(n, v, what))
    specs = [
        S('shape', '### Step 2: Compute QKᵀ (2×4 · 4×3 = 2×3)', 7, E(5, 2, "rows of Q K^T"), E(6, 3, "columns of Q K^T")),
        qk('s00', 0, 0), qk('s01', 0, 1), qk('s02', 0, 2), qk('s10', 1, 0), qk('s11', 1, 1), qk('s12', 1, 2),
        S('m0', 'QKᵀ = [[0.75, 1.23, 0.73],', 3, *[E(k, S_[0][k], "Q K^T[0][%d] restated" % k) for k in range(3)]),
        S('m1', '        [0.84, 1.61, 0.91]]', 3, *[E(k, S_[1][k], "Q K^T[1][%d] restated" % k) for k in range(3)]),
        S('sq', '### Step 3: Scale by √d_k = √4 = 2', 3, E(2, 2, "sqrt(4)")),
        S('c0', 'Scaled = [[0.375, 0.615, 0.365],', 3, *[E(k, Ss[0][k], "scaled[0][%d]" % k) for k in range(3)]),
        S('c1', '          [0.420, 0.805, 0.455]]', 3, *[E(k, Ss[1][k], "scaled[1][%d]" % k) for k in range(3)]),
        S('r0', 'Row 0: exp([0.375, 0.615, 0.365])', 8,
          *[E(1 + k, Ss[0][k], "scaled[0][%d] restated" % k) for k in range(3)],
          *[E(4 + k, ex[0][k], "exp(scaled[0][%d])" % k) for k in range(3)],
          W(7, tot[0], "sum of the three exponentials = 4.74516; right only for the rounded terms 1.455 + 1.850 + 1.441 = 4.746", 'carried', 'r0')),
        S('w0', 'weights = [0.307, 0.390, 0.303]', 3, E(0, A[0][0], "weight[0][0]"), E(1, A[0][1], "weight[0][1]"),
          W(2, A[0][2], "weight[0][2] = 1.44051/4.74516 = 0.30358 (1.441/4.746 = 0.3036 too)", 'slip')),
        S('r1', 'Row 1: exp([0.420, 0.805, 0.455])', 8,
          *[E(1 + k, Ss[1][k], "scaled[1][%d] restated" % k) for k in range(3)],
          *[E(4 + k, ex[1][k], "exp(scaled[1][%d])" % k) for k in range(3)],
          E(7, tot[1], "sum of the three exponentials = 5.33490")),
        S('w1', 'weights = [0.285, 0.419, 0.295]', 3, *[E(k, A[1][k], "weight[1][%d]" % k) for k in range(3)]),
        S('o0a', 'Out[0] = 0.307·[0.8,0.1,0.5,0.3]', 16,
          E(1, A[0][0], "weight restated"), E(6, A[0][1], "weight restated"),
          W(11, A[0][2], "weight restated", 'carried', 'w0')),
        S('o0b', '= [0.246+0.078+0.182, 0.031+0.351+0.091,', 12, *row0_terms),
        S('o0c', '= [0.506, 0.473, 0.552, 0.395]', 4,
          W(0, out[0][0], "Out[0][0] = 0.50540 (sum of the printed terms 0.246+0.078+0.182)", 'carried', 'o0b'),
          *[E(j, out[0][j], "Out[0][%d]" % j) for j in range(1, 4)]),
        S('o1a', 'Out[1] = 0.285·[0.8,0.1,0.5,0.3]', 16,
          E(1, A[1][0], "weight restated"), E(6, A[1][1], "weight restated"), E(11, A[1][2], "weight restated")),
        S('o1b', '= [0.228+0.084+0.177, 0.029+0.377+0.089,', 12,
          *[E(3 * j + k, terms[1][j][k], "weight[1][%d] * enc[%d][%d]" % (k, k, j)) for j in range(4) for k in range(3)]),
        S('o1c', '= [0.489, 0.495, 0.547, 0.409]', 4, *[E(j, out[1][j], "Out[1][%d]" % j) for j in range(4)]),
        S('t0', '"Le"    →         0.307   0.390   0.303', 3, E(0, A[0][0], "weight restated"), E(1, A[0][1], "weight restated"),
          W(2, A[0][2], "weight restated", 'carried', 'w0')),
        S('t1', '"chat"  →         0.285   0.419   0.295', 3, *[E(k, A[1][k], "weight restated") for k in range(3)]),
        S('shp', 'print(f"Cross-attention output shape: {output.shape}")', 3,
          E(0, 1, "batch"), E(1, 4, "tgt_len"), E(2, 64, "d_model")),
    ]
    meta = {
        "doc": "en_cross_attention_le_chat_chapter.md",
        "source": "GitHub Markdown chapter '# Encoder-Decoder (Cross) Attention' (chapter 04 of a numbered Transformer series: '[← Decoder Architecture](03-decoder-architecture.md) | [Layer Normalization →](05-layer-normalization.md)'); the search index did not expose the repository name (stored file id 54132073989). Kept: overview (condensed), section 2 formulas, the whole worked example of section 4 and the demo part of the PyTorch code of section 7 (the CrossAttention class summarized in one sentence, the weight-inspection loop dropped). Dropped: ASCII data-flow diagrams, the attention-shape sketch, comparison table, 'why cross-attention works', the full-picture diagram, section 8 architectures table and the rest",
        "source_kind": "tutorial chapter",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX, fenced plain-text blocks: QKᵀ[0,0] = 0.5·0.8 + ... = 0.75 (middle-dot products), nested-list matrices, 'Row 0: exp([...]) = [...] → sum = 4.746', weighted sums 0.307·[0.8,0.1,0.5,0.3] + ..., term lists [0.246+0.078+0.182, ...], an arrow table of weights, a python demo with a '# → (1, 4, 64)' shape comment",
        "conventions": "single head, identity projections: Q = dec_state (2x4), K = V = enc_out (3x4); scores Q K^T / sqrt(4) = /2, row softmax, Out = weights V. Values judged from the exact weights: 0.307*0.8 = 0.2456 printed 0.246 is wrong (weight[0][0]*0.8 = 0.24530) and carried from the rounded weight. Not listed: enc_out, dec_state, the inputs of the products, d_k = 4, the shapes of Q/K/V, 512 x 512, the demo hyper-parameters",
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
