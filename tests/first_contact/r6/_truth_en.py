"""Independent true values for the English (en_) first-contact documents of round 6.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is
read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed, and its status is re-derived: "ok" iff the truth rounded half away from zero
at the printed number of places equals the literal.  An integer literal is compared
exactly with an exact (rational) truth and rounded to 0 places against an irrational one
(percentages such as "47%").  A NumPy/PyTorch trailing-dot literal ("0.") counts as 0 places.
Wrong numbers carry kind "slip" (a fresh error) or "carried" (a correct computation from,
or a repetition of, an earlier wrong printed number; "carried_from" gives that line).

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


def ln_norm(x, eps):
    """population mean/variance layer norm, gamma = 1, beta = 0"""
    n = len(x)
    mu = sum(x) / n
    var = sum((t - mu) ** 2 for t in x) / n
    s = mpmath.sqrt(M(var + eps))
    return mu, var, [M(t - mu) / s for t in x]



def sgn_abs(v):
    """|v| (for a magnitude printed after a binary minus sign)"""
    return -v if v < 0 else v


def pe(pos, dim, d):
    """sinusoidal PE(pos, dim): sin for even dim, cos for odd dim, divisor 10000^(2i/d)"""
    i = dim // 2
    ang = mpf(pos) / mpmath.power(10000, mpf(2 * i) / d)
    return mpmath.sin(ang) if dim % 2 == 0 else mpmath.cos(ang)


# ---------------------------------------------------------------------------
# Document A: "Attention Mechanism in Transformer" ("I am Fine.") - skiitg.co.in
# ---------------------------------------------------------------------------
def doc_a():
    X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]]
    Sc = [[dot(X[i], X[j]) for j in range(3)] for i in range(3)]
    Ss = [[Fraction(v, 2) for v in row] for row in Sc]
    A = [softmax([M(v) for v in row]) for row in Ss]
    O = [[sum(A[i][k] * X[k][j] for k in range(3)) for j in range(4)] for i in range(3)]
    specs = [
        *[S('sc%d' % i, ' [%s]' % ', '.join(str(v) for v in Sc[i]), 3,
            *[E(j, Sc[i][j], "scores[%d][%d] = X[%d].X[%d] (Q = K = X)" % (i, j, i, j)) for j in range(3)])
          for i in range(3)],
        S('sq', 'Divide by √dₖ = √4 = 2:', 2, E(1, 2, "sqrt(4)")),
        *[S('ss%d' % i, ' [%s]' % ', '.join('%.1f' % float(v) for v in Ss[i]), 3,
            *[E(j, Ss[i][j], "scaled[%d][%d] = scores / 2" % (i, j)) for j in range(3)])
          for i in range(3)],
        S('w0', ' [0.422, 0.155, 0.422],', 3, *[E(j, A[0][j], "weights[0][%d] = softmax([1, 0, 1])" % j) for j in range(3)]),
        S('w1', ' [0.155, 0.422, 0.422],', 3, *[E(j, A[1][j], "weights[1][%d] = softmax([0, 1, 1])" % j) for j in range(3)]),
        S('w2', ' [0.211, 0.211, 0.577]', 3,
          W(0, A[2][0], "weights[2][0] = 1/(2+e) = 0.21194", 'slip'),
          W(1, A[2][1], "weights[2][1] = 1/(2+e) = 0.21194", 'slip'),
          W(2, A[2][2], "weights[2][2] = e/(2+e) = 0.57612", 'slip')),
        S('o0', ' [0.844, 0.577, 0.844, 0.577],  # "I"', 4,
          *[W(j, O[0][j], "output[0][%d] = %s (adding the rounded weights gives %s)" %
              (j, mp.nstr(O[0][j], 6), ['0.422+0.422', '0.155+0.422'][j % 2]), 'slip') for j in range(4)]),
        S('o1', ' [0.577, 0.844, 0.577, 0.844],  # "am"', 4,
          *[W(j, O[1][j], "output[1][%d] = %s (adding the rounded weights gives %s)" %
              (j, mp.nstr(O[1][j], 6), ['0.155+0.422', '0.422+0.422'][j % 2]), 'slip') for j in range(4)]),
        S('o2', ' [0.788, 0.788, 0.788, 0.788]   # "Fine."', 4,
          *[E(j, O[2][j], "output[2][%d] = 1/(2+e) + e/(2+e)" % j) for j in range(4)]),
    ]
    meta = {
        "doc": "en_sdpa_i_am_fine_walkthrough.md",
        "source": "https://skiitg.co.in/transformers/attention.html (\"Attention Mechanism in Transformer\", input sentence \"I am Fine.\"; stored page copy; all steps, matrices and the summary table kept, the one-line prose of step 2 reworded, layout of the flattened stored text restored into code blocks and pipe tables)",
        "source_kind": "tutorial web page",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown page: step headings, a parameter table, bracketed nested-list matrices in code blocks with '# \"I\"' row comments, arrows I → [...], √dₖ = √4 = 2, ×/÷ in a shape summary table",
        "conventions": "single head, W_Q = W_K = W_V = I so Q = K = V = X (3 x 4); scores = Q K^T; scaled by sqrt(d_k) = sqrt(4) = 2; row-wise softmax; output = weights V. Rounded values judged against the exact values, so outputs obtained by adding the 3-place rounded weights (0.422 + 0.422 = 0.844) are wrong where the exact sum rounds differently (0.84464 -> 0.845). Not listed: the given embeddings, X, the identity Q = K = V copy, table sizes and shapes",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: "Tokenization, Positional Encoding, and Embeddings" guide (PE, ALiBi slopes)
# ---------------------------------------------------------------------------
def doc_b():
    d = 512
    xc = [D('0.1'), D('0.5'), D('-0.2'), D('0.3')]
    p2 = [D('0.05'), D('-0.1'), D('0.15'), D('0.0')]
    e0 = [D('0.23'), D('-0.51')]
    e1 = [D('-0.11'), D('0.64')]
    a1 = mpf(1) / mpmath.power(10000, mpf(2) / d)
    specs = [
        S('lpe', 'Final: $\\mathbf{x}_2 = [0.15, 0.4, -0.05, 0.3]$', 5,
          *[E(1 + k, xc[k] + p2[k], "x_cat + P[2], element %d" % k) for k in range(4)]),
        S('p00', '$$\\text{PE}(0, 0) = \\sin', 8, E(6, 0, "angle 0/10000^(0/512) = 0"), E(7, 0, "sin 0")),
        S('p01', '$$\\text{PE}(0, 1) = \\cos', 8, E(6, 0, "angle 0"), E(7, 1, "cos 0")),
        S('p02', '$$\\text{PE}(0, 2) = \\sin', 7, E(6, 0, "sin(0/10000^(2/512))")),
        S('p03', '$$\\text{PE}(0, 3) = \\cos', 7, E(6, 1, "cos(0/10000^(2/512))")),
        S('p10', '$$\\text{PE}(1, 0) = \\sin', 8, E(6, 1, "angle 1/10000^(0/512) = 1"), E(7, pe(1, 0, d), "sin 1")),
        S('p11', '$$\\text{PE}(1, 1) = \\cos', 8, E(6, 1, "angle 1"), E(7, pe(1, 1, d), "cos 1")),
        S('v0', 'Position 0: [0.000,  1.000,  0.000,  1.000, ...]', 5,
          *[E(1 + k, pe(0, k, d), "PE(0, %d)" % k) for k in range(4)]),
        S('v1', 'Position 1: [0.841,  0.540,  0.010,  1.000, ...]', 5,
          E(1, pe(1, 0, d), "PE(1, 0) = sin 1"), E(2, pe(1, 1, d), "PE(1, 1) = cos 1"),
          W(3, pe(1, 2, d), "PE(1, 2) with d = 512: sin(1/10000^(2/512)) = sin(0.964662) = 0.8219 (0.010 = sin(1/100) is the d = 4 value)", 'slip'),
          W(4, pe(1, 3, d), "PE(1, 3) with d = 512: cos(0.964662) = 0.5697 (1.000 is the d = 4 value)", 'slip')),
        S('v2', 'Position 2: [0.909, -0.416,  0.020,  1.000, ...]', 5,
          E(1, pe(2, 0, d), "PE(2, 0) = sin 2"), E(2, pe(2, 1, d), "PE(2, 1) = cos 2"),
          W(3, pe(2, 2, d), "PE(2, 2) with d = 512: sin(1.929323) = %s (0.020 is the d = 4 value)" % mp.nstr(pe(2, 2, d), 4), 'slip'),
          W(4, pe(2, 3, d), "PE(2, 3) with d = 512: cos(1.929323) = %s (1.000 is the d = 4 value)" % mp.nstr(pe(2, 3, d), 4), 'slip')),
        S('v3', 'Position 3: [0.141, -0.990,  0.030,  0.999, ...]', 5,
          E(1, pe(3, 0, d), "PE(3, 0) = sin 3"), E(2, pe(3, 1, d), "PE(3, 1) = cos 3"),
          W(3, pe(3, 2, d), "PE(3, 2) with d = 512: sin(2.893985) = %s (0.030 is the d = 4 value)" % mp.nstr(pe(3, 2, d), 4), 'slip'),
          W(4, pe(3, 3, d), "PE(3, 3) with d = 512: cos(2.893985) = %s (even with d = 4, cos 0.03 = 0.99955 prints 1.000)" % mp.nstr(pe(3, 3, d), 4), 'slip')),
        S('h1', 'Head 1: m = 2^(-8/8) = 0.5', 5, E(4, Fraction(1, 2), "2^(-1)")),
        S('h2', 'Head 2: m = 2^(-16/8) = 0.25', 5, E(4, Fraction(1, 4), "2^(-2)")),
        S('h3', 'Head 3: m = 2^(-24/8) = 0.125', 5, E(4, Fraction(1, 8), "2^(-3)")),
        S('h8', 'Head 8: m = 2^(-64/8) = 0.0039', 5, E(4, Fraction(1, 256), "2^(-8) = 0.00390625")),
        S('pp0', '         = [0.000, 1.000, 0.000, 1.000, ...]', 4,
          *[E(k, pe(0, k, d), "PE(0, %d) with d = 512" % k) for k in range(4)]),
        S('pp1', '         = [0.841, 0.540, 0.010, 1.000, ...]', 4,
          E(0, pe(1, 0, d), "PE(1, 0) = sin 1"), E(1, pe(1, 1, d), "PE(1, 1) = cos 1"),
          W(2, pe(1, 2, d), "sin(1/10000^(2/512)) = sin(0.964662) = 0.8219, same wrong value as in the visual table", 'carried', 'v1'),
          W(3, pe(1, 3, d), "cos(1/10000^(2/512)) = 0.5697, same wrong value as in the visual table", 'carried', 'v1')),
        S('x0a', 'x_0 = e_15496 + PE(0) = [0.23, -0.51, ...] + [0.00, 1.00, ...]', 7,
          E(5, pe(0, 0, d), "PE(0, 0) repeated"), E(6, pe(0, 1, d), "PE(0, 1) repeated")),
        S('x0b', '                      = [0.23, 0.49, ...]', 2,
          E(0, e0[0] + 0, "0.23 + 0"), E(1, M(e0[1]) + pe(0, 1, d), "-0.51 + 1")),
        S('x1a', 'x_1 = e_995 + PE(1) = [-0.11, 0.64, ...] + [0.84, 0.54, ...]', 7,
          E(5, pe(1, 0, d), "PE(1, 0) = sin 1 repeated"), E(6, pe(1, 1, d), "PE(1, 1) = cos 1 repeated")),
        S('x1b', '                    = [0.73, 1.18, ...]', 2,
          E(0, M(e1[0]) + pe(1, 0, d), "-0.11 + sin 1"), E(1, M(e1[1]) + pe(1, 1, d), "0.64 + cos 1")),
        S('rt', 'For $|V| = 50000$: $d \\approx 4 \\times 15 = 60$', 4,
          E(2, mpmath.root(50000, 4), "fourth root of 50000 = 14.95"),
          E(3, 4 * mpmath.root(50000, 4), "4 x 50000^(1/4) = 59.81")),
    ]
    meta = {
        "doc": "en_tokenization_posenc_pipeline_guide.md",
        "source": "GitHub Markdown guide '# Tokenization, Positional Encoding, and Embeddings: A Complete Mathematical Guide' (sections introduction, tokenization 1.1-1.8, embeddings 2.1-2.7, positional encoding 3.1-3.6, complete pipeline 4.1-4.2, advanced topics 5.1-5.4); repository name not exposed by the search index (stored file id 37932367330). Kept: the pipeline sketch, 3.2 learned-PE example, 3.3 sinusoidal PE example computation and 'visual representation', the ALiBi slope list of 3.5, the end-to-end example 4.1 and the rule of thumb of 5.1; dropped: tokenization (BPE pair counts, WordPiece score example), embeddings (word2vec, GloVe, FastText), the wavelength remarks of 3.3, RoPE (no numbers), comparison tables, 4.2, 5.2-5.4, key takeaways and references; prose shortened",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX (\\frac, \\mathbf, \\sqrt[4]), inline $...$ vectors, plain code blocks 'Position 1: [0.841,  0.540,  0.010,  1.000, ...]' with trailing ellipses, caret powers 2^(-16/8) and 10000^(2/512), e_15496 = E[15496, :] lookups, ∈ ℝ^512",
        "conventions": "sinusoidal PE(pos, 2i) = sin(pos/10000^(2i/d)), PE(pos, 2i+1) = cos(...), radians, judged with the d = 512 the section states ('Dimension: d = 512', and the explicit sin(1/10000^(2/512)) of 4.1); the 0.010/0.020/0.030 and 1.000 entries of dimensions 2-3 are only right for d = 4 (divisor 100) and are marked wrong (slip); ALiBi slopes m_h = 2^(-8h/H) with H = 8; learned PE is plain addition; rule of thumb d = 4 |V|^(1/4). Not listed: token IDs, embedding values, formula exponents and indices (0/512, 2/512, -8/8, -16/8 ...), head numbers, shapes",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: sample_layer_normalization.ipynb (Mystic3003/Transformers) - PyTorch session
# ---------------------------------------------------------------------------
def doc_c():
    eps = D('1e-5')
    xs = [[Fraction(4 * r + k + 1) for k in range(4)] for r in range(6)]
    mean = [sum(r) / 4 for r in xs]
    sstd = mpmath.sqrt(M(Fraction(5, 3)))  # unbiased std of 4 consecutive integers
    pstd = mpmath.sqrt(M(Fraction(5, 4)))
    dev = [Fraction(-3, 2), Fraction(-1, 2), Fraction(1, 2), Fraction(3, 2)]
    npn = [M(t) / sstd + M(eps) for t in dev]          # (x - mean)/std_ddof1 + eps (as coded)
    nrm = [M(t) / (sstd + M(eps)) for t in dev]        # (x - mean)/(std + eps)
    out_std = mpmath.sqrt(sum(v * v for v in nrm) / 3)  # unbiased std of a normalized row
    row = '-1.1619, -0.3873,  0.3873,  1.1619'
    specs = [
        S('pstd', '^1.118033988749895', 1, E(0, pstd, "np.std([1,2,3,4]) = sqrt(1.25)")),
        S('sstd', '^1.2909944487358056', 1, E(0, sstd, "np.std([1,2,3,4], ddof=1) = sqrt(5/3)")),
        S('np1', '[-1.161885   -0.38728833  0.38730833  1.161905  ]', 4,
          *[E(k, npn[k], "(x - 2.5)/sqrt(5/3) + 1e-5, element %d (eps added after the division, as coded)" % k) for k in range(4)]),
        S('np2', '[-1.161885   -0.38728833  0.38730833  1.161905  ]', 4,
          *[E(k, npn[k], "output = 1.0 * normalized + 0.0, element %d" % k) for k in range(4)]),
        *[S('m%d' % r, '%.4f]' % float(mean[r]), 1, E(0, mean[r], "mean of row %d" % r)) for r in range(6)],
        *[S('s%d' % r, '1.2910]', 1, E(0, sstd, "x.std() (unbiased) of row %d = sqrt(5/3)" % r)) for r in range(6)],
        *[S('n%d' % r, row, 4, *[E(k, nrm[k], "(x - mean)/(std + eps) row %d element %d" % (r, k)) for k in range(4)])
          for r in range(6)],
        *[S('o%d' % r, row, 5 if r == 5 else 4, *[E(k, nrm[k], "alpha * normalized + bias (alpha = 1, bias = 0) row %d element %d" % (r, k)) for k in range(4)])
          for r in range(6)],
        S('mr1', 'Means per row: tensor([[0., 0., 0.],', 3, *[E(k, 0, "mean of a normalized row (exactly 0)") for k in range(3)]),
        S('mr2', '        [0., 0., 0.]], grad_fn=<MeanBackward1>)', 4, *[E(k, 0, "mean of a normalized row (exactly 0)") for k in range(3)]),
        S('sr1', 'Stds per row: tensor([[1.0000, 1.0000, 1.0000],', 3,
          *[E(k, out_std, "unbiased std of a normalized row = sqrt(5/3)/(sqrt(5/3) + 1e-5) = 0.9999923") for k in range(3)]),
        S('sr2', '        [1.0000, 1.0000, 1.0000]], grad_fn=<StdBackward0>)', 4,
          *[E(k, out_std, "unbiased std of a normalized row = 0.9999923") for k in range(3)]),
    ]
    meta = {
        "doc": "en_layernorm_sample_std_torch_notebook.md",
        "source": "github Mystic3003/Transformers:sample_layer_normalization.ipynb (cells In [27]-In [35] with their stream outputs; blank print() calls and the 'output shape' line of In [34] removed, In [36] (module call, 'result == output? True') summarised in one sentence, markdown prose added around the cells)",
        "source_kind": "Jupyter notebook",
        "language": "en",
        "errors_as_published": False,
        "notation": "notebook transcribed as fenced 'In [n]:' code cells followed by plain output blocks; PyTorch tensor printouts with 4 decimals and grad_fn suffixes, NumPy array printout without commas ([-1.161885   -0.38728833 ...]), full float64 reprs (1.2909944487358056), trailing-dot zeros '0.'",
        "conventions": "the author's own LayerNorm: mean over the last dim, x.std() with PyTorch's default unbiased (n-1) estimator, eps = 1e-5 added to the std (not to the variance): (x - mean)/(std + eps), alpha = 1, bias = 0; the NumPy check uses ddof=1 and adds eps AFTER the division ((x-mean)/std + eps), judged as coded; the verification cell uses unbiased std again. Not listed: inputs, shapes, initial alpha/bias, eps, cell numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: "please study man" self-attention worked example (GitHub notes)
# ---------------------------------------------------------------------------
def doc_d():
    X = [[1, 0], [0, 2], [1, 1]]
    WQ = [[1, 0], [0, 1]]
    WK = [[1, 1], [0, 1]]
    WV = [[1, 0], [1, 1]]
    Q, K, V = matmul(X, WQ), matmul(X, WK), matmul(X, WV)
    Sc = matmul(Q, T(K))
    A = [softmax([mpf(v) for v in row]) for row in Sc]
    ctx = [sum(A[1][j] * V[j][c] for j in range(3)) for c in range(2)]
    words = ['please', 'study', 'man']
    specs = [
        *[S('qkv%d' % i, '  %-9s [' % words[i], 6,
            E(0, Q[i][0], "Q[%s][0]" % words[i]), E(1, Q[i][1], "Q[%s][1]" % words[i]),
            E(2, K[i][0], "K[%s][0]" % words[i]), E(3, K[i][1], "K[%s][1]" % words[i]),
            E(4, V[i][0], "V[%s][0]" % words[i]), E(5, V[i][1], "V[%s][1]" % words[i])) for i in range(3)],
        *[S('sc%d' % i, '  %-7s →  [' % words[i], 3, *[E(j, Sc[i][j], "score(%s, %s)" % (words[i], words[j])) for j in range(3)])
          for i in range(3)],
        S('txt', 'Row "study" scores [2, 4, 4]', 5, *[E(j, Sc[1][j], "score(study, %s) repeated" % words[j]) for j in range(3)],
          E(3, Sc[1][1], "shared score 4 repeated"), E(4, Sc[1][0], "score(study, please) repeated")),
        S('a0', 'Row "please"  [1, 0, 1]', 6, *[E(j, Sc[0][j], "score row please repeated") for j in range(3)],
          *[E(3 + j, A[0][j], "softmax([1, 0, 1])[%d]" % j) for j in range(3)]),
        S('a1', 'Row "study"   [2, 4, 4]', 6, *[E(j, Sc[1][j], "score row study repeated") for j in range(3)],
          *[E(3 + j, A[1][j], "softmax([2, 4, 4])[%d]" % j) for j in range(3)]),
        S('a2', 'Row "man"     [2, 2, 3]', 6, *[E(j, Sc[2][j], "score row man repeated") for j in range(3)],
          W(3, A[2][0], "softmax([2, 2, 3])[0] = 1/(2+e) = 0.2119", 'slip'),
          W(4, A[2][1], "softmax([2, 2, 3])[1] = 1/(2+e) = 0.2119", 'slip'),
          W(5, A[2][2], "softmax([2, 2, 3])[2] = e/(2+e) = 0.5761", 'slip')),
        S('pct', 'So "study" puts **6%**', 3, *[E(j, 100 * A[1][j], "weight of study on %s in %%" % words[j]) for j in range(3)]),
        S('c0', '  context(study) =  0.06 × [1, 0]', 3, E(0, A[1][0], "weight study->please repeated"),
          E(1, V[0][0], "V[please][0] repeated"), E(2, V[0][1], "V[please][1] repeated")),
        S('c1', '                  + 0.47 × [2, 2]', 3, E(0, A[1][1], "weight study->study repeated"),
          E(1, V[1][0], "V[study][0] repeated"), E(2, V[1][1], "V[study][1] repeated")),
        S('c2', '                  + 0.47 × [2, 1]', 3, E(0, A[1][2], "weight study->man repeated"),
          E(1, V[2][0], "V[man][0] repeated"), E(2, V[2][1], "V[man][1] repeated")),
        S('t0', '                 =  [0.06, 0.00]', 2, E(0, A[1][0] * V[0][0], "0.0634 x 1"), E(1, A[1][0] * V[0][1], "0.0634 x 0")),
        S('t1', '                  + [0.94, 0.94]', 2, E(0, A[1][1] * V[1][0], "0.4683 x 2"), E(1, A[1][1] * V[1][1], "0.4683 x 2")),
        S('t2', '                  + [0.94, 0.47]', 2, E(0, A[1][2] * V[2][0], "0.4683 x 2"), E(1, A[1][2] * V[2][1], "0.4683 x 1")),
        S('ctx', '                 =  [1.94, 1.41]', 2, E(0, ctx[0], "context(study)[0] = 1.9366"),
          W(1, ctx[1], "context(study)[1] = 0.9366 + 0.4683 = 1.4049 (adding the rounded 0.94 + 0.47 gives 1.41)", 'slip')),
        S('ctx2', '"study" entered as `[0, 2]` and leaves as `[1.94, 1.41]`', 4, E(2, ctx[0], "context(study)[0] repeated"),
          W(3, ctx[1], "context(study)[1] repeated", 'carried', 'ctx')),
        S('ctx3', 'S2["study\'\\n[1.94, 1.41] ✓"]', 3, E(1, ctx[0], "context(study)[0] repeated"),
          W(2, ctx[1], "context(study)[1] repeated", 'carried', 'ctx')),
        S('sq2', 'so scores would be divided by $\\sqrt{2} \\approx 1.41$', 3, E(2, mpmath.sqrt(2), "sqrt(2)")),
        S('hd', 'Each head works on: 512 ÷ 8 = 64 dimensions', 3, E(2, Fraction(512, 8), "512 / 8")),
        S('h1', '  Head 1 output   [64 values]', 2, E(1, Fraction(512, 8), "head width")),
        S('h2', '  Head 2 output   [64 values]', 2, E(1, Fraction(512, 8), "head width")),
        S('h8', '  Head 8 output   [64 values]', 2, E(1, Fraction(512, 8), "head width")),
        S('cat', '  Concatenated    [512 values]', 1, E(0, 8 * 64, "8 heads x 64")),
    ]
    meta = {
        "doc": "en_selfattn_please_study_man_notes.md",
        "source": "GitHub Markdown study notes on the Transformer (a long file of ANN/RNN/Transformer notes with mermaid diagrams; section '## Self-Attention — A Worked Example with Real Numbers' and the following multi-head part); repository name not exposed by the search index (stored file id 52227605184). Kept: the worked example (steps 1-4, the study mermaid diagram with its styling lines dropped, the scaling note), the multi-head dimension block, formula and concatenation block; dropped: the '4 steps' summary diagram, the analogies, multi-head head-role list and diagrams, add & norm, positional encoding, FFN, decoder and training sections; prose shortened",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with box-drawn plain-text tables (Word / Query (Q) / Key (K) / Value (V)), a score matrix drawn as '[  1   ]  [  0  ]' cells with ← comments, $$ bmatrix weight matrices, arrow rows 'Row \"man\" [2, 2, 3] → [0.24, 0.24, 0.52]', bold percentages **47%**, a stacked sum with a ───── rule, a mermaid flowchart containing a vector, '512 ÷ 8 = 64'",
        "conventions": "row-vector convention Q = X W_Q, K = X W_K, V = X W_V; scores = Q K^T WITHOUT scaling (the document says so and mentions sqrt(d_k) only as a side note), row-wise softmax, context = sum_j alpha_j V_j. Rounded values judged against exact values: 0.4683 x 2 = 0.9366 prints 0.94 (ok) but the exact sum 0.9366 + 0.4683 = 1.4049 prints 1.40, so 1.41 is wrong. Not listed: the given embeddings and weight matrices, d_k = 2, embedding size 512 and head count 8 (given), step numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: perplexity post ("jack and jill") - timturing/timturing.github.io
# ---------------------------------------------------------------------------
def doc_e():
    ps = [('<start>', 15), ('jack', 5), ('and', 12), ('jill', 18), ('went', 25), ('up', 40), ('the', 33), ('hill', 50)]
    lns = [mpmath.log(mpf(p) / 100) for _, p in ps]
    tot = sum(lns)
    avg = tot / 8
    ppl = mpmath.exp(-avg)
    specs = [
        *[S('ln%d' % k, '| %s | %d%% | ' % (w, p), 2, E(1, lns[k], "ln(%s)" % mp.nstr(mpf(p) / 100, 3)))
          for k, (w, p) in enumerate(ps)],
        S('sum', 'The logs add up to -12.832.', 5, E(0, tot, "sum of the 8 natural logs"), E(2, tot, "sum repeated"),
          E(4, avg, "mean log-probability = sum / 8")),
        S('ppl', '$$ perplexity = e^{1.604} = 4.973 $$', 2, E(0, -avg, "negated mean = cross-entropy in nats"),
          E(1, ppl, "perplexity exp(-mean ln P) = exp(%s) = %s (e^1.604 = %s also rounds to 4.973)" % (mp.nstr(-avg, 7), mp.nstr(ppl, 6), mp.nstr(mpmath.exp(mpf('1.604')), 6)))),
        S('ppl2', 'So the perplexity of this sequence is about 4.973.', 1, E(0, ppl, "perplexity repeated")),
    ]
    meta = {
        "doc": "en_perplexity_jack_and_jill_post.md",
        "source": "github timturing/timturing.github.io:_posts/2023-09-28-What-is-perplexity-in-NLP.md (a repost of lukesalamone.github.io/posts/perplexity/, link line with its typo 'Oirginal' kept; a '# What is perplexity in NLP' heading taken from the post's file name added; prose reworded and shortened, formulas and tables kept as published)",
        "source_kind": "blog post",
        "language": "en",
        "errors_as_published": False,
        "notation": "Jekyll Markdown post: $$ LaTeX with \\Sigma_{i=0}^{N}ln(P_n) (index mismatch as published), pipe tables of token / probability in % / ln(P) with 3 decimals, running-text arithmetic '-12.832 / 8 gives -1.604', e^{1.604} = 4.973",
        "conventions": "natural logarithms; perplexity = exp(-(1/N) sum ln P), N = 8 tokens; the percentages are the given probabilities. Not listed: the given percentages (both tables), N = 8",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document F: "Worked example — one full encoder layer on 'The chai is hot'" (ainiketan.in)
# ---------------------------------------------------------------------------
def doc_f():
    d = 4
    emb = [[D('1.0'), D('0.0'), D('0.5'), D('0.2')], [D('0.2'), D('1.0'), D('0.8'), D('0.1')],
           [D('0.5'), D('0.3'), D('1.0'), D('0.0')], [D('0.1'), D('0.5'), D('0.3'), D('1.0')]]
    P = [[pe(p, k, d) for k in range(4)] for p in range(4)]
    X = [[M(emb[p][k]) + P[p][k] for k in range(4)] for p in range(4)]
    names = ['The', 'chai', 'is', 'hot']
    pe_anch = ['PE(0) = [0.000,  1.000', 'PE(1) = [0.841,  0.540', 'PE(2) = [0.909, −0.416', 'PE(3) = [0.141, −0.990']
    sum_anch = ['X = [ 1.000+0.000', '    [ 0.200+0.841', '    [ 0.500+0.909', '    [ 0.100+0.141']
    x_anch = ['  = [ 1.000,  1.000, 0.500, 1.200 ]', '    [ 1.041,  1.540, 0.810, 1.100 ]',
              '    [ 1.409, −0.116, 1.020, 1.000 ]', '    [ 0.241, −0.490, 0.330, 2.000 ]']
    neg = {(2, 1), (3, 1)}  # printed as a binary minus 'a−b' in the sum lines
    specs = [
        *[S('pe%d' % p, pe_anch[p], 6, *[E(1 + k, P[p][k], "PE(%d, %d) with d_model = 4" % (p, k)) for k in range(4)])
          for p in range(4)],
        *[S('sum%d' % p, sum_anch[p], 8,
            *[E(2 * k + 1, sgn_abs(P[p][k]) if (p, k) in neg else P[p][k],
                "PE(%d, %d) repeated as the second addend%s" % (p, k, " (magnitude after a minus sign)" if (p, k) in neg else ""))
              for k in range(4)])
          for p in range(4)],
        *[S('x%d' % p, x_anch[p], 4, *[E(k, X[p][k], "X[%s][%d] = e + PE" % (names[p], k)) for k in range(4)])
          for p in range(4)],
        S('q1a', 'q₁ = X[1] · W^Q = [', 17, *[E(1 + 2 * j, X[0][j % 4], "X[The][%d] repeated in the dot product" % (j % 4)) for j in range(8)]),
        S('q1b', '   = [1.000, 1.000]', 2, E(0, X[0][0], "q1[0] = X[The][0]"), E(1, X[0][1], "q1[1] = X[The][1]")),
        *[S('q%d' % (p + 1), ['q₂ = [', 'q₃ = [', 'q₄ = ['][p - 1], 2,
            E(0, X[p][0], "q%d[0] = X[%s][0]" % (p + 1, names[p])), E(1, X[p][1], "q%d[1] = X[%s][1]" % (p + 1, names[p])))
          for p in range(1, 4)],
        *[S('Q%d' % p, ['Q = [[1.000,  1.000],', '     [1.041,  1.540],', '     [1.409, −0.116],', '     [0.241, −0.490]]'][p], 2,
            E(0, X[p][0], "Q[%d][0]" % p), E(1, X[p][1], "Q[%d][1]" % p)) for p in range(4)],
    ]
    meta = {
        "doc": "en_encoder_layer_chai_posenc_page.md",
        "source": "https://ainiketan.in/papers/08-transformer-2017/sections/05-worked-example/ (\"5. Worked example — one full encoder layer on “The chai is hot”\", part of a paper walkthrough of the 2017 Transformer paper; stored page copy, which breaks off after 'K = X · W^K (columns 2,1 of X swapped): k₁ = [1.0'; the broken-off key line dropped and an end note added). Kept: intro, step 0 and step 1 up to Q verbatim in numbers; intro prose reworded; the flattened stored text laid out again in code blocks",
        "source_kind": "tutorial web page",
        "language": "en",
        "errors_as_published": False,
        "notation": "plain code blocks with Unicode subscripts e₁, q₁, dₖ, U+2212 minus signs both as signs (−0.416) and as binary minus (0.300−0.416), element-wise sums 'a+b' laid out as matrices, ← row labels, W^Q caret names, × products inside a dot-product expansion",
        "conventions": "sinusoidal PE with d_model = 4: PE(pos, 2i) = sin(pos/10000^(2i/4)), PE(pos, 2i+1) = cos(...), i.e. divisors 1 and 100, radians; X = embedding + PE; Q = X W^Q with W^Q selecting the first two columns. A magnitude printed after a binary minus (0.300−0.416) is judged as |PE|. Not listed: the given embeddings (also as first addends), weight matrices, the 1/0 weights inside the q₁ expansion, d_model, d_k, h, position labels",
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
