"""Independent true values for the English (en_) first-contact documents of round 5.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is
read as an exact decimal.  Every listed number is located in its document
programmatically (an anchor string on its line + the index of the numeric token on that
line), the literal is asserted to stand at that line/column, its true value is
recomputed, and its status is re-derived: "ok" iff the truth rounded half away from zero
at the printed number of places equals the literal.  An integer literal is compared
exactly with an exact (rational) truth and rounded to 0 places against an irrational one
(percentages such as "43%", "std ~ 1").
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


def trunc(v):
    """C-style truncation toward zero of a real number (NumPy float -> int assignment)"""
    v = mpf(v)
    return int(mpmath.floor(v)) if v >= 0 else -int(mpmath.floor(-v))


# ---------------------------------------------------------------------------
# Document A: temperature + top-k notes (Parry-97/llm-from-scratch)
# ---------------------------------------------------------------------------
def doc_a():
    z = [2, 1, 0]

    def sm(T):
        return softmax([mpf(t) / M(T) for t in z])

    p1, p05, p2 = sm(1), sm(D('0.5')), sm(2)
    kept = [D('0.4'), D('0.3'), D('0.15')]
    ren = [k / sum(kept) for k in kept]
    specs = [
        S('t1', '- $T = 1$: $[0.67, 0.24, 0.09]$', 4,
          *[E(1 + k, p1[k], "softmax([2, 1, 0]) at T = 1, element %d" % (k + 1)) for k in range(3)]),
        S('t05', '- $T = 0.5$: $[0.87, 0.12, 0.02]$', 4,
          *[E(1 + k, p05[k], "softmax([2, 1, 0] / 0.5), element %d" % (k + 1)) for k in range(3)]),
        S('t2', '- $T = 2$: $[0.49, 0.30, 0.20]$', 4,
          W(1, p2[0], "softmax([2, 1, 0] / 2), element 1 = 0.5065", 'slip'),
          W(2, p2[1], "softmax([2, 1, 0] / 2), element 2 = 0.3072", 'slip'),
          W(3, p2[2], "softmax([2, 1, 0] / 2), element 3 = 0.1863", 'slip')),
        S('rn', '- Renormalize: [0.47, 0.35, 0.18]', 3,
          *[E(k, ren[k], "top-3 renormalized probability %d = p / 0.85" % (k + 1)) for k in range(3)]),
    ]
    meta = {
        "doc": "en_temperature_topk_sampling_notes.md",
        "source": "github Parry-97/llm-from-scratch:docs/temperature_use.md (the stored version with the top-k half, index file id 46331405026; the other stored version, commit 5a0d057f, ends after section 6). Kept sections 1-12 and the code of section 14 (renumbered 13); dropped the methods comparison table (13) and the practical tips (15); prose shortened, sections 9, 10 and 12 condensed; the glitch '--- ### 2.' kept as published",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown notes with $$ display LaTeX (\\frac, cases environment, \\tilde), inline $T = 1$ conditions followed by inline bracket vectors $[0.67, 0.24, 0.09]$, plain bracket lists of vocabulary and probabilities, a python code block",
        "conventions": "temperature softmax p_i(T) = exp(z_i/T) / sum_j exp(z_j/T) on logits [2, 1, 0], probabilities to 2 places; top-k renormalization p_i / sum of the kept p_j with k = 3. Not listed: section numbers, the logits, T and k values, the given probabilities and their copy in 'Keep: ... [0.4, 0.3, 0.15]', code arguments",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: "Attention: The Heart of Transformers" (numeric example, causal mask, MHA)
# ---------------------------------------------------------------------------
def doc_b():
    X = [[D(a) for a in r] for r in (('1.0', '0.5', '0.2', '0.8'), ('0.3', '0.9', '0.1', '0.4'),
                                      ('0.6', '0.2', '0.7', '0.3'))]
    Sc = matmul(X, T(X))
    Ss = [[v / 2 for v in row] for row in Sc]
    A = [softmax([M(v) for v in row]) for row in Ss]
    O = [[sum(A[i][k] * M(X[k][j]) for k in range(3)) for j in range(4)] for i in range(3)]
    ex0 = [mpmath.exp(M(v)) for v in Ss[0]]
    tot0 = sum(ex0)
    big = softmax([mpf(100), mpf(1), mpf(1), mpf(1)])
    mid = softmax([mpf(2), mpf('0.5'), mpf('0.5'), mpf('0.5')])
    cm = softmax([mpf('0.5'), mpf('0.8'), mpf('0.3')])
    tok = ['cat', 'sat', 'mat']
    specs = [
        S('v64', 'd_k = 64:  dot product variance', 2, E(1, 64, "variance of a 64-term dot product of unit-variance entries")),
        S('v512', 'd_k = 512: dot product variance', 2, E(1, 512, "variance of a 512-term dot product of unit-variance entries")),
        S('big', 'softmax([100, 1, 1, 1])', 9, E(4, big[0], "softmax([100,1,1,1])[0]"),
          *[E(5 + k, big[1 + k], "softmax([100,1,1,1])[%d] (about 1e-43)" % (k + 1)) for k in range(3)]),
        S('mid', 'softmax([2, 0.5, 0.5, 0.5])', 8,
          W(4, mid[0], "softmax([2,0.5,0.5,0.5])[0] = 0.5990", 'slip'),
          *[W(5 + k, mid[1 + k], "softmax([2,0.5,0.5,0.5])[%d] = 0.1337" % (k + 1), 'slip') for k in range(3)]),
        *[S('s0%d' % j, '# scores[0][%d] = Q[0]' % j, 13, E(12, Sc[0][j], "scores[0][%d] = Q[0].K[%d]" % (j, j)))
          for j in range(3)],
        S('sr0', '[1.93, 1.09, 1.08],  # "cat" attending', 3, *[E(j, Sc[0][j], "scores[0][%d]" % j) for j in range(3)]),
        S('sr1', '[1.09, 1.07, 0.65],  # "sat" attending', 3, E(0, Sc[1][0], "scores[1][0]"),
          E(1, Sc[1][1], "scores[1][1]"), W(2, Sc[1][2], "scores[1][2] = 0.18+0.18+0.07+0.12 = 0.55", 'slip')),
        S('sr2', '[1.08, 0.65, 0.98],  # "mat" attending', 3, E(0, Sc[2][0], "scores[2][0]"),
          W(1, Sc[2][1], "scores[2][1] (= scores[1][2], symmetric) repeats the wrong 0.65", 'carried', 'sr1'),
          E(2, Sc[2][2], "scores[2][2]")),
        S('sq', 'sqrt_d_k = 2.0', 1, E(0, 2, "sqrt(4)")),
        S('c0', '    [0.965, 0.545, 0.540],', 3, *[E(j, Ss[0][j], "scaled[0][%d]" % j) for j in range(3)]),
        S('c1', '    [0.545, 0.535, 0.325],', 3, E(0, Ss[1][0], "scaled[1][0]"), E(1, Ss[1][1], "scaled[1][1]"),
          W(2, Ss[1][2], "scaled[1][2] = 0.55 / 2 = 0.275 (0.65 / 2 from the wrong score)", 'carried', 'sr1')),
        S('c2', '    [0.540, 0.325, 0.490],', 3, E(0, Ss[2][0], "scaled[2][0]"),
          W(1, Ss[2][1], "scaled[2][1] = 0.275 (0.65 / 2 from the wrong score)", 'carried', 'sr1'),
          E(2, Ss[2][2], "scaled[2][2]")),
        S('r0', '# For row 0: [0.965, 0.545, 0.540]', 4, *[E(1 + j, Ss[0][j], "scaled[0][%d] repeated" % j) for j in range(3)]),
        S('ex', '# exp([0.965, 0.545, 0.540]) = [2.625, 1.725, 1.716]', 6,
          *[E(j, Ss[0][j], "scaled[0][%d] repeated" % j) for j in range(3)],
          *[E(3 + j, ex0[j], "exp(scaled[0][%d])" % j) for j in range(3)]),
        S('sum', '# sum = 6.066', 1, W(0, tot0, "sum of exponentials = 6.065403 (adding the rounded terms gives 6.066)", 'slip')),
        S('div', '# [2.625/6.066, 1.725/6.066, 1.716/6.066]', 9,
          *[E(2 * j, ex0[j], "exp(scaled[0][%d]) repeated" % j) for j in range(3)],
          *[W(2 * j + 1, tot0, "sum repeated", 'carried', 'sum') for j in range(3)],
          *[E(6 + j, A[0][j], "weights[0][%d]" % j) for j in range(3)]),
        S('w0', '[0.433, 0.284, 0.283],  # "cat": 43% self', 6, *[E(j, A[0][j], "weights[0][%d]" % j) for j in range(3)],
          *[E(3 + j, 100 * A[0][j], "weights[0][%d] in %% (%s)" % (j, tok[j])) for j in range(3)]),
        S('w1', '[0.384, 0.377, 0.239],  # "sat": 38%', 6,
          *[W(j, A[1][j], "weights[1][%d] (true row [0.363, 0.360, 0.277]; not even softmax of the printed scaled row)" % j, 'slip')
            for j in range(3)],
          *[W(3 + j, 100 * A[1][j], "weights[1][%d] in %% (%s), from the printed 0.384/0.377/0.239" % (j, tok[j]), 'carried', 'w1')
            for j in range(3)]),
        S('w2', '[0.389, 0.269, 0.342],  # "mat": 39%', 6,
          *[W(j, A[2][j], "weights[2][%d] (true row [0.368, 0.282, 0.350]; not even softmax of the printed scaled row)" % j, 'slip')
            for j in range(3)],
          *[W(3 + j, 100 * A[2][j], "weights[2][%d] in %% (%s), from the printed 0.389/0.269/0.342" % (j, tok[j]), 'carried', 'w2')
            for j in range(3)]),
        S('o0', 'output[0] = 0.433 * V[0] + 0.284 * V[1] + 0.283 * V[2]', 7,
          *[E(1 + 2 * j, A[0][j], "weights[0][%d] repeated" % j) for j in range(3)]),
        *[S('o0%d' % j, '%s %s * [' % ('=' if j == 0 else '+', ['0.433', '0.284', '0.283'][j]), 5,
            E(0, A[0][j], "weights[0][%d] repeated" % j)) for j in range(3)],
        S('p0', '          = [0.433, 0.217, 0.087, 0.347]', 4,
          E(0, A[0][0] * M(X[0][0]), "weights[0][0] * V[0][0]"),
          W(1, A[0][0] * M(X[0][1]), "weights[0][0] * V[0][1] = 0.21637 (0.433 x 0.5 = 0.2165 rounded up)", 'slip'),
          E(2, A[0][0] * M(X[0][2]), "weights[0][0] * V[0][2]"),
          W(3, A[0][0] * M(X[0][3]), "weights[0][0] * V[0][3] = 0.34620 (0.433 x 0.8 = 0.3464)", 'slip')),
        S('p1', '          + [0.085, 0.256, 0.028, 0.114]', 4,
          *[E(k, A[0][1] * M(X[1][k]), "weights[0][1] * V[1][%d]" % k) for k in range(4)]),
        S('p2', '          + [0.170, 0.057, 0.198, 0.085]', 4,
          *[E(k, A[0][2] * M(X[2][k]), "weights[0][2] * V[2][%d]" % k) for k in range(4)]),
        S('q0', '          = [0.688, 0.530, 0.313, 0.546]', 4, E(0, O[0][0], "output[0][0]"),
          W(1, O[0][1], "output[0][1] = 0.52886 (sum of the printed terms with 0.217)", 'carried', 'p0'),
          E(2, O[0][2], "output[0][2]"),
          W(3, O[0][3], "output[0][3] = 0.54481 (sum of the printed terms with 0.347)", 'carried', 'p0')),
        S('f0', '[0.688, 0.530, 0.313, 0.546],  # "cat" with context', 4, E(0, O[0][0], "output[0][0] repeated"),
          W(1, O[0][1], "output[0][1] repeated", 'carried', 'p0'), E(2, O[0][2], "output[0][2] repeated"),
          W(3, O[0][3], "output[0][3] repeated", 'carried', 'p0')),
        S('f1', '[0.644, 0.529, 0.279, 0.538],  # "sat" with context', 4,
          *[W(k, O[1][k], "output[1][%d] (true row [0.637, 0.561, 0.303, 0.518]; the printed weights give [0.641, 0.579, 0.282, 0.530])" % k, 'slip')
            for k in range(4)]),
        S('f2', '[0.666, 0.477, 0.330, 0.543],  # "mat" with context', 4,
          *[W(k, O[2][k], "output[2][%d] (true row [0.662, 0.508, 0.347, 0.512]; the printed weights give [0.675, 0.505, 0.344, 0.521])" % k, 'slip')
            for k in range(4)]),
        S('cm', '# After softmax:                  [0.28, 0.41, 0.31, 0.00]', 4,
          W(0, cm[0], "softmax([0.5, 0.8, 0.3])[0] = 0.3156", 'slip'),
          W(1, cm[1], "softmax([0.5, 0.8, 0.3])[1] = 0.4260", 'slip'),
          W(2, cm[2], "softmax([0.5, 0.8, 0.3])[2] = 0.2584", 'slip'),
          E(3, 0, "masked future position gets weight exp(-inf) = 0")),
        S('hd', 'head_dim = embed_dim // num_heads  # 32', 1, E(0, 32, "128 // 4")),
        S('rs', '# Reshape: (batch, seq_len, 128) → (batch, seq_len, 4, 32)', 3, E(2, 32, "head_dim in the reshaped shape")),
        S('ho', 'head_outputs.append(head_out)  # Each: (batch, seq_len, 32)', 1, E(0, 32, "per-head output width")),
        S('cc', 'concat = concatenate(head_outputs, dim=-1)  # (batch, seq_len, 128)', 2, E(1, 128, "4 heads x 32")),
    ]
    meta = {
        "doc": "en_attention_cat_sat_mat_walkthrough.md",
        "source": "GitHub Markdown course chapter '# Attention: The Heart of Transformers' (chapter 04 of a numbered NumPy 'transformer from scratch' series with code in src/attention.py, next chapter '05 - FeedForwardNetwork.md'); the search index did not expose the repository name (stored file id 34348002471). Excerpt: the formula, 'Why scale', the step-by-step numeric example (the Q = K = V echo and projection comments dropped), the causal-mask example and the multi-head numeric example (K/V reshapes, transposes and the W_O projection lines dropped); intro, Q/K/V analogy tables, code implementation, visualisations (incl. an illustrative score/softmax box diagram) and references dropped; prose shortened",
        "source_kind": "course notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX formula, fenced python blocks holding nested-list matrices with trailing '# \"cat\"' comments, '#' comment lines with dot-product arithmetic 1.0*1.0 + 0.5*0.5 ..., percentages in comments, an exp([...]) = [...] line, -inf / -infinity for the mask, shape comments (batch, seq_len, 32)",
        "conventions": "single head with W_Q = W_K = W_V = I, so Q = K = V = X (3 x 4); scores = Q K^T, scaled by sqrt(d_k) = 2, row-wise softmax, output = weights V; causal example: softmax over the unmasked [0.5, 0.8, 0.3]; multi-head: head_dim = embed_dim // num_heads. Rounded values judged against the exact values (not against products of earlier rounded numbers): e.g. 0.433 x 0.5 printed 0.217 is wrong because weights[0][0] x 0.5 = 0.2164. 'variance ~ d_k' assumes unit-variance independent entries. Not listed: X, W_Q, shapes of given data, the masked-score copy [0.5, 0.8, 0.3, -inf], loop/axis arguments, mask indices",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: "Transformer Block" (Pre-LN, layer norm, residuals) - same series
# ---------------------------------------------------------------------------
def doc_c():
    eps = D('1e-5')
    xe = [D('2.0'), D('4.0'), D('6.0'), D('8.0')]
    mue, vare, ne = ln_norm(xe, eps)
    se = mpmath.sqrt(M(vare + eps))
    X = [[D(a) for a in r] for r in (('1.0', '2.0', '0.5', '1.5'), ('0.5', '1.0', '1.5', '2.0'),
                                      ('2.0', '0.5', '1.0', '1.5'))]
    At = [[D(a) for a in r] for r in (('-0.30', '0.85', '-0.70', '0.55'), ('-0.50', '0.30', '0.10', '0.90'),
                                       ('0.20', '-0.40', '0.60', '0.70'))]
    F = [[D(a) for a in r] for r in (('0.15', '0.40', '-0.30', '0.20'), ('0.10', '0.25', '0.35', '0.45'),
                                      ('0.30', '-0.15', '0.20', '0.25'))]
    N1 = [ln_norm(r, eps) for r in X]
    X1 = [[X[i][j] + At[i][j] for j in range(4)] for i in range(3)]
    N2 = [ln_norm(r, eps) for r in X1]
    Y = [[X1[i][j] + F[i][j] for j in range(4)] for i in range(3)]
    mu0, var0, n0 = N1[0]
    s0 = mpmath.sqrt(M(var0 + eps))
    mu1, var1, n1 = N2[0]
    s1 = mpmath.sqrt(M(var1 + eps))
    specs = [
        S('res', 'the gradient is still $\\approx 1$!', 2, E(1, 1, "1 + d f/d x with d f/d x ~ 0")),
        S('mue', 'mu = (2 + 4 + 6 + 8) / 4 = 5.0', 6, E(5, mue, "mean of [2, 4, 6, 8]")),
        S('vare', 'var = ((2-5)²', 9, *[E(1 + 2 * k, mue, "mean repeated in (x_%d - mean)" % (k + 1)) for k in range(4)]),
        S('sqe', '    = (9 + 1 + 1 + 9) / 4', 5, *[E(k, (xe[k] - mue) ** 2, "squared deviation %d" % (k + 1)) for k in range(4)]),
        S('vre', '^    = 5.0', 1, E(0, vare, "population variance of [2, 4, 6, 8]")),
        S('sde', 'std = sqrt(5.0 + 1e-5) ≈ 2.236', 4, E(0, vare, "variance repeated"), E(3, se, "sqrt(5 + 1e-5)")),
        S('dve', '= [(2-5)/2.236', 12, *[E(1 + 3 * k, mue, "mean repeated") for k in range(4)],
          *[E(2 + 3 * k, se, "std repeated") for k in range(4)]),
        S('nme', '= [-1.34, -0.45, 0.45, 1.34]', 4, *[E(k, ne[k], "normalized x_%d" % (k + 1)) for k in range(4)]),
        S('oute', '= [-1.34, -0.45, 0.45, 1.34]', 4, *[E(k, ne[k], "output x_%d (gamma = 1, beta = 0)" % (k + 1)) for k in range(4)]),
        S('ver', '# Verify: mean ≈ 0, std ≈ 1', 2, E(0, Fraction(0), "mean of the normalized vector (exactly 0)"),
          E(1, mpmath.sqrt(sum(t * t for t in ne) / 4), "std of the normalized vector = sqrt(5 / (5 + 1e-5))")),
        S('mu0', 'mu = (1.0 + 2.0 + 0.5 + 1.5) / 4 = 1.25', 6, E(5, mu0, "mean of position 0")),
        S('va0', 'var = ((1-1.25)²', 9, *[E(1 + 2 * k, mu0, "mean repeated") for k in range(4)]),
        S('sq0', '= (0.0625 + 0.5625 + 0.5625 + 0.0625) / 4 = 0.3125', 6,
          *[E(k, (X[0][k] - mu0) ** 2, "squared deviation %d" % (k + 1)) for k in range(4)],
          E(5, var0, "variance of position 0")),
        S('sd0', 'std = sqrt(0.3125) ≈ 0.559', 2, E(0, var0, "variance repeated"), E(1, s0, "sqrt(0.3125 + 1e-5) (0.559017 without eps)")),
        S('dv0', 'norm_0 = [(1-1.25)/0.559', 13, *[E(2 + 3 * k, mu0, "mean repeated") for k in range(4)],
          *[E(3 + 3 * k, s0, "std repeated") for k in range(4)]),
        S('n0', '       = [-0.45, 1.34, -1.34, 0.45]', 4, *[E(k, n0[k], "LayerNorm(x)[0][%d]" % k) for k in range(4)]),
        S('n1', 'norm_1 = [-0.84, -0.17, 0.50, 1.51]', 5,
          *[W(1 + k, N1[1][2][k], "LayerNorm(x)[1][%d] (true row [-1.34, -0.45, 0.45, 1.34]; marked '# Simplified')" % k, 'slip')
            for k in range(4)]),
        S('n2', 'norm_2 = [1.17, -0.84, -0.50, 0.17]', 5,
          *[W(1 + k, N1[2][2][k], "LayerNorm(x)[2][%d] (true row [1.34, -1.34, -0.45, 0.45]; marked '# Simplified')" % k, 'slip')
            for k in range(4)]),
        S('x10', '       = [0.70, 2.85, -0.20, 2.05]', 4, *[E(k, X1[0][k], "x_1[0][%d] = x + attn" % k) for k in range(4)]),
        *[S('x1r%d' % i, '    [%s],' % ['0.70, 2.85, -0.20, 2.05', '0.00, 1.30, 1.60, 2.90', '2.20, 0.10, 1.60, 2.20'][i], 4,
            *[E(k, X1[i][k], "x_1[%d][%d] = x + attn" % (i, k)) for k in range(4)]) for i in range(3)],
        S('mu1', 'mu = (0.70 + 2.85 - 0.20 + 2.05) / 4 = 1.35', 6, E(0, X1[0][0], "x_1[0][0] repeated"),
          E(1, X1[0][1], "x_1[0][1] repeated"), E(3, X1[0][3], "x_1[0][3] repeated"), E(5, mu1, "mean of x_1[0]")),
        S('var1', 'var = ... ≈ 1.35', 1, W(0, var1, "variance of x_1[0] = 5.565 / 4 = 1.39125", 'slip')),
        S('sd1', 'std ≈ 1.16', 1, W(0, s1, "sqrt(1.39125 + 1e-5) = 1.17951 (sqrt(1.35) = 1.1619 from the wrong variance)", 'carried', 'var1')),
        S('m0', '    [-0.56, 1.29, -1.34, 0.60],', 4,
          *[W(k, N2[0][2][k], "LayerNorm(x_1)[0][%d] (true [-0.55, 1.27, -1.31, 0.59]; (x - 1.35) / 1.16 gives the printed row)" % k, 'carried', 'var1')
            for k in range(4)]),
        S('m1', '    [-0.84, 0.10, 0.35, 1.39],', 4,
          *[W(k, N2[1][2][k], "LayerNorm(x_1)[1][%d] (true row [-1.41, -0.15, 0.15, 1.41])" % k, 'slip') for k in range(4)]),
        S('m2', '    [0.42, -1.18, 0.07, 0.69],', 4,
          *[W(k, N2[2][2][k], "LayerNorm(x_1)[2][%d] (true row [0.79, -1.66, 0.09, 0.79])" % k, 'slip') for k in range(4)]),
        *[S('a%d' % i, ['[0.70+0.15,', '[0.00+0.10,', '[2.20+0.30,'][i], 8,
            *[E(2 * k, X1[i][k], "x_1[%d][%d] repeated in the sum" % (i, k)) for k in range(4)]) for i in range(3)],
        *[S('y%d' % i, '    [%s],' % ['0.85, 3.25, -0.50, 2.25', '0.10, 1.55, 1.95, 3.35', '2.50, -0.05, 1.80, 2.45'][i], 4,
            *[E(k, Y[i][k], "output[%d][%d] = x_1 + ffn" % (i, k)) for k in range(4)]) for i in range(3)],
        S('sn1', 'After Norm 1:   [-0.45, 1.34, -1.34, 0.45]', 5, *[E(1 + k, n0[k], "LayerNorm(x)[0][%d] repeated" % k) for k in range(4)]),
        S('sr1', '+ Residual:     [0.70, 2.85, -0.20, 2.05]', 4, *[E(k, X1[0][k], "x_1[0][%d] repeated" % k) for k in range(4)]),
        S('sn2', 'After Norm 2:   [-0.56, 1.29, -1.34, 0.60]', 5,
          *[W(1 + k, N2[0][2][k], "LayerNorm(x_1)[0][%d] repeated" % k, 'carried', 'var1') for k in range(4)]),
        S('sr2', '+ Residual:     [0.85, 3.25, -0.50, 2.25]', 4, *[E(k, Y[0][k], "output[0][%d] repeated" % k) for k in range(4)]),
    ]
    meta = {
        "doc": "en_transformer_block_prenorm_trace.md",
        "source": "GitHub Markdown course chapter '# Transformer Block: The Fundamental Building Unit' (chapter 06 of the same series as en_attention_cat_sat_mat_walkthrough, code in src/transformer.py, next chapter '07 - GPTModel.md'); the search index did not expose the repository name (stored file id 34460223339). Kept: the Pre-LN formulas, the residual-gradient remark (condensed into two lines), the LayerNorm formula and [2, 4, 6, 8] example, the full step-by-step numeric example and the position-0 summary; dropped: table of contents, block and gradient-flow diagrams, the Pre-LN vs Post-LN section, code, visualisations, try-it and references; '(Using simplified attention for illustration)' and the FFN comments '# Expand to 8 dims, GELU, compress back to 4 / # (Simplified values)' rendered as prose",
        "source_kind": "course notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX (\\gamma \\odot, \\frac, \\sqrt), python blocks with hand arithmetic 'mu = (...) / 4 = 1.25', squared terms written (1-1.25)², '≈' results, nested-list matrices, 'var = ... ≈ 1.35', sums written 0.70+0.15, and a box-drawing summary with │ connectors",
        "conventions": "LayerNorm(x) = gamma * (x - mu) / sqrt(sigma^2 + eps) + beta with population variance (divide by d = 4), eps = 1e-5 as the document states, gamma = 1, beta = 0; x_1 = x + attn_output, output = x_1 + ffn_output (attn_output and ffn_output are given placeholder values, not listed). norm_1/norm_2 are presented as 'Similarly for other positions' although commented '# Simplified'; they are judged as LayerNorm outputs. 'std ~ 1' is compared at 0 places. Not listed: inputs x, the placeholder attention/FFN values, their copies inside x_1[0] = ... + [...] and the sums, the -0.20 written as '- 0.20' in the mean of x_1[0], step numbers and setup sizes",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: RoPE with integer truncation (TharunSivamani/Gen-AI)
# ---------------------------------------------------------------------------
def doc_d():
    x = [1, 2, 4, 1]

    def rot(th):
        c, s = mpmath.cos(th), mpmath.sin(th)
        out = []
        for i in (0, 2):
            out += [x[i] * c - x[i + 1] * s, x[i] * s + x[i + 1] * c]
        return out

    th = [Fraction(0), Fraction(1, 10), Fraction(2, 10)]
    R = [rot(M(t)) for t in th]
    Rt = [[trunc(v) for v in r] for r in R]
    c1, s1 = mpmath.cos(mpf('0.1')), mpmath.sin(mpf('0.1'))
    c2, s2 = mpmath.cos(mpf('0.2')), mpmath.sin(mpf('0.2'))
    specs = []
    for p in range(3):
        specs += [
            S('th%d' % p, 'Theta:  %s' % ['0.0', '0.1', '0.2'][p], 1, E(0, th[p], "theta = 0.1 * %d" % p)),
            S('z%d' % p, 'Rotated X:  [0 0 0 0]', 4, *[E(k, 0, "np.zeros_like(x)[%d]" % k) for k in range(4)]),
            S('arr%d' % p, 'array([%s])' % ', '.join(str(v) for v in Rt[p]), 4,
              *[E(k, Rt[p][k], "int-truncated rotation at position %d, element %d" % (p, k)) for k in range(4)]),
        ]
    specs += [
        *[S('tb%d' % p, '| %d        | %s' % (p, ['0.0', '0.1', '0.2'][p]), 2, E(1, th[p], "theta for position %d" % p))
          for p in range(3)],
        S('h0', '## 6. Position 0 (θ = 0)', 3, E(2, 0, "theta at position 0")),
        S('c0', '* cos(0) = 1', 2, E(1, 1, "cos 0")),
        S('s0', '* sin(0) = 0', 2, E(1, 0, "sin 0")),
        S('x0a', "x' = 1*1 - 2*0 = 1", 5, E(1, 1, "cos 0 repeated"), E(3, 0, "sin 0 repeated"), E(4, R[0][0], "x' of pair (1, 2)")),
        S('y0a', "y' = 1*0 + 2*1 = 2", 5, E(1, 0, "sin 0 repeated"), E(3, 1, "cos 0 repeated"), E(4, R[0][1], "y' of pair (1, 2)")),
        S('x0b', "x' = 4*1 - 1*0 = 4", 5, E(1, 1, "cos 0 repeated"), E(3, 0, "sin 0 repeated"), E(4, R[0][2], "x' of pair (4, 1)")),
        S('y0b', "y' = 4*0 + 1*1 = 1", 5, E(1, 0, "sin 0 repeated"), E(3, 1, "cos 0 repeated"), E(4, R[0][3], "y' of pair (4, 1)")),
        S('r0', '^[1, 2, 4, 1]', 4, *[E(k, Rt[0][k], "result at position 0, element %d" % k) for k in range(4)]),
        S('h1', '## 7. Position 1 (θ = 0.1)', 3, E(2, th[1], "theta at position 1")),
        S('c1', '* cos(0.1) ≈ 0.995', 2, E(1, c1, "cos 0.1")),
        S('s1', '* sin(0.1) ≈ 0.0998', 2, E(1, s1, "sin 0.1")),
        S('x1a', "x' ≈ 1*0.995 - 2*0.0998 = 0.795", 5, E(1, c1, "cos 0.1 repeated"), E(3, s1, "sin 0.1 repeated"),
          E(4, R[1][0], "x' = cos 0.1 - 2 sin 0.1")),
        S('y1a', "y' ≈ 1*0.0998 + 2*0.995 = 2.0898", 5, E(1, s1, "sin 0.1 repeated"), E(3, c1, "cos 0.1 repeated"),
          E(4, R[1][1], "y' = sin 0.1 + 2 cos 0.1")),
        S('t1a', "x' → 0", 1, E(0, Rt[1][0], "int(0.795...)")),
        S('t1b', "y' → 2", 1, E(0, Rt[1][1], "int(2.0898...)")),
        S('x1b', "x' ≈ 4*0.995 - 1*0.0998 = 3.88", 5, E(1, c1, "cos 0.1 repeated"), E(3, s1, "sin 0.1 repeated"),
          E(4, R[1][2], "x' = 4 cos 0.1 - sin 0.1")),
        S('y1b', "y' ≈ 4*0.0998 + 1*0.995 = 1.39", 5, E(1, s1, "sin 0.1 repeated"), E(3, c1, "cos 0.1 repeated"),
          E(4, R[1][3], "y' = 4 sin 0.1 + cos 0.1")),
        S('t1c', "x' → 3", 1, E(0, Rt[1][2], "int(3.88...)")),
        S('t1d', "y' → 1", 1, E(0, Rt[1][3], "int(1.39...)")),
        S('r1', '^[0, 2, 3, 1]', 4, *[E(k, Rt[1][k], "result at position 1, element %d" % k) for k in range(4)]),
        S('h2', '## 8. Position 2 (θ = 0.2)', 3, E(2, th[2], "theta at position 2")),
        S('c2', '* cos(0.2) ≈ 0.980', 2, E(1, c2, "cos 0.2")),
        S('s2', '* sin(0.2) ≈ 0.199', 2, E(1, s2, "sin 0.2")),
        S('r2', '^[0, 2, 3, 1]', 4, *[E(k, Rt[2][k], "result at position 2 (truncated), element %d" % k) for k in range(4)]),
    ]
    meta = {
        "doc": "en_rope_simple_rotary_int_truncation.md",
        "source": "github TharunSivamani/Gen-AI:RoPE/README.md (the stored version with the integer-truncation walkthrough, index file id 26043200615) together with the notebook it cites, RoPE/rope.ipynb (cells 2-5 with their stream and execute_result outputs; cell 1, an unrelated embedding lookup, dropped; comments and docstring of simple_rotary_embedding removed). README: paper header and overview trimmed, sections renumbered (the loop description and the 'why / conceptual takeaway' sections condensed into one sentence each)",
        "source_kind": "GitHub notes + notebook",
        "language": "en",
        "errors_as_published": False,
        "notation": "Markdown README with fenced python and plain blocks, Jupyter stdout ('Theta:  0.1', 'Rotated X:  [0 0 0 0]') and execute_result reprs array([0, 2, 3, 1]), a pipe table of angles, bullet lists 'cos(0.1) ≈ 0.995', star-multiplication x' ≈ 1*0.995 - 2*0.0998 = 0.795, arrows x' → 0, θ and prime characters",
        "conventions": "toy rotary embedding: both pairs (x0, x1), (x2, x3) rotated by the same angle theta = 0.1 * position (radians), x' = x cos - y sin, y' = x sin + y cos; results written into np.zeros_like of an int array, i.e. truncated toward zero. Truths are exact cos/sin values (the float math lines are judged against the exact rotation, which agrees at the printed places). Not listed: the input vector and its pairs, positions, section numbers, range() arguments, the arXiv id",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: perplexity section (bits)
# ---------------------------------------------------------------------------
def doc_e():
    l2 = lambda p: mpmath.log(M(p), 2)
    lg = [l2(D('0.2')), l2(D('0.1')), l2(D('0.3'))]
    H = -sum(lg) / 3
    ppl = mpf(2) ** H
    specs = [
        S('l1', '- log₂(0.2) = -2.32', 2, E(1, lg[0], "log2 0.2")),
        S('l2', '- log₂(0.1) = -3.32', 2, E(1, lg[1], "log2 0.1")),
        S('l3', '- log₂(0.3) = -1.74', 2, E(1, lg[2], "log2 0.3")),
        S('H', '$$H = -\\frac{1}{3}(-2.32 - 3.32 - 1.74)', 8, E(2, lg[0], "log2 0.2 repeated"),
          E(3, -lg[1], "|log2 0.1| repeated after a minus sign"), E(4, -lg[2], "|log2 0.3| repeated after a minus sign"),
          E(5, -sum(lg), "sum of the negative log-probabilities"), E(7, H, "cross-entropy in bits")),
        S('P', '$$\\text{PPL} = $2^{2.46}$ = 5.5$$', 3, E(1, H, "cross-entropy repeated"), E(2, ppl, "perplexity 2^H = (1/0.006)^(1/3)")),
        S('I', 'choose among 5.5 equally likely tokens', 1, E(0, ppl, "perplexity repeated")),
        S('A', '- Model A contribution: -log₂(0.51) = 0.97 bits', 2, E(1, -l2(D('0.51')), "-log2 0.51")),
        S('B', '- Model B contribution: -log₂(0.99) = 0.01 bits', 2, E(1, -l2(D('0.99')), "-log2 0.99")),
        S('sh', 'about 1.0-1.3 bits per character', 4, E(2, mpf(2) ** 1, "2^1.0"), E(3, mpf(2) ** mpf('1.3'), "2^1.3 = 2.462")),
    ]
    meta = {
        "doc": "en_perplexity_bits_section.md",
        "source": "GitHub Markdown book section '# Section 1.5: Perplexity — The Standard Evaluation Metric' (part of a language-modelling course that goes from Markov chains to LLMs); the search index did not expose the repository name (stored file id 7779013579; the same text also sits in a longer combined file, id 8784411127). Dropped: 'Perplexity on Train vs. Test', the real-world perplexity tables, the overfitting table and the 'Connection to Modern LLMs' box; prose shortened; the malformed LaTeX '$2^{H(P,Q)}$' inside $$ kept as published",
        "source_kind": "course book",
        "language": "en",
        "errors_as_published": False,
        "notation": "MkDocs Markdown: $$ LaTeX with stray inner $...$ pairs, Unicode log₂, bullet lists '- log₂(0.2) = -2.32', pipe tables, '!!! note' admonitions, a plain-text arrow hierarchy",
        "conventions": "cross-entropy in bits H = -(1/N) sum log2 Q(x_i), perplexity = 2^H (the document also states the equivalent exp of the natural-log version); N = 3 for the bigram example; per-token contributions -log2 p in bits. Not listed: the given probabilities, table values (interpretations, typical perplexities) and the illustrative PPL=5 / PPL=100",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document F: "Attention is all you need guys" blog (positional embeddings, softmax)
# ---------------------------------------------------------------------------
def doc_f():
    d = 512
    div = mpf(10000) ** (mpf(2) / d)          # 10000^(2/512) = 1.036633
    a1, a2 = 1 / div, 2 / div
    pe = {(1, 0): mpmath.sin(1), (1, 1): mpmath.cos(1), (1, 2): mpmath.sin(a1), (1, 3): mpmath.cos(a1),
          (2, 0): mpmath.sin(2), (2, 1): mpmath.cos(2), (2, 2): mpmath.sin(a2), (2, 3): mpmath.cos(a2)}
    sm = softmax([mpf('1.2'), mpf('0.5'), mpf('1.1')])
    specs = [
        S('van', '0.9^100 ≈ 0.000027', 5, E(4, Fraction(9, 10) ** 100, "0.9^100 = 2.656e-5")),
        S('irange', 'then i only needs to go from 0 to 255:', 12, E(11, Fraction(d, 2) - 1, "largest pair index d/2 - 1")),
        S('i0', '• i=0 gives dimensions 0 and 1', 3, E(1, 0, "2i for i = 0"), E(2, 1, "2i+1 for i = 0")),
        S('i1', '• i=1 gives dimensions 2 and 3', 3, E(1, 2, "2i for i = 1"), E(2, 3, "2i+1 for i = 1")),
        S('i255', '• i=255 gives dimensions 510 and 511', 3, E(1, 510, "2i for i = 255"), E(2, 511, "2i+1 for i = 255")),
        S('pe10', '• PE(1, 0) = sin(1/10000^(0/512))', 10, E(7, 1, "10000^(0/512)"), E(8, 1, "angle 1/1"), E(9, pe[1, 0], "sin 1")),
        S('pe11', '• PE(1, 1) = cos(1/10000^(0/512))', 10, E(7, 1, "10000^(0/512)"), E(8, 1, "angle 1/1"), E(9, pe[1, 1], "cos 1")),
        S('pe12', '• PE(1, 2) = sin(1/10000^(2/512))', 10,
          W(7, div, "10000^(2/512) = e^(2 ln 10000 / 512) = 1.036633", 'slip'),
          W(8, a1, "angle 1 / 1.036633 = 0.964662 (1 / 1.0027 = 0.9973 from the wrong divisor)", 'carried', 'pe12'),
          W(9, pe[1, 2], "PE(1, 2) = sin(0.964662) = 0.8218 (sin 0.997 = 0.8397)", 'carried', 'pe12')),
        S('pe13', '• PE(1, 3) = cos(1/10000^(2/512))', 10,
          W(7, div, "divisor repeated", 'carried', 'pe12'),
          W(8, a1, "angle repeated", 'carried', 'pe12'),
          W(9, pe[1, 3], "PE(1, 3) = cos(0.964662) = 0.5698 (and cos 0.997 = 0.5428, so 0.55 fits neither)", 'slip')),
        S('pe20', '• PE(2, 0) = sin(2/10000^(0/512))', 10, E(7, 1, "10000^(0/512)"), E(8, 2, "angle 2/1"), E(9, pe[2, 0], "sin 2")),
        S('pe21', '• PE(2, 1) = cos(2/10000^(0/512))', 10, E(7, 1, "10000^(0/512)"), E(8, 2, "angle 2/1"), E(9, pe[2, 1], "cos 2")),
        S('pe22', '• PE(2, 2) = sin(2/10000^(2/512))', 10,
          W(7, div, "divisor repeated", 'carried', 'pe12'),
          W(8, a2, "angle 2 / 1.036633 = 1.929324 (2 x 0.997 = 1.994 from the wrong angle)", 'carried', 'pe12'),
          W(9, pe[2, 2], "PE(2, 2) = sin(1.929324) = 0.9365 (sin 1.994 = 0.9116)", 'carried', 'pe12')),
        S('pe23', '• PE(2, 3) = cos(2/10000^(2/512))', 10,
          W(7, div, "divisor repeated", 'carried', 'pe12'),
          W(8, a2, "angle repeated", 'carried', 'pe12'),
          W(9, pe[2, 3], "PE(2, 3) = cos(1.929324) = -0.3507 (cos 1.994 = -0.4111)", 'carried', 'pe12')),
        S('vec', "position 1's vector starts with", 11, E(2, pe[1, 0], "PE(1, 0) repeated"), E(3, pe[1, 1], "PE(1, 1) repeated"),
          W(4, pe[1, 2], "PE(1, 2) repeated", 'carried', 'pe12'), W(5, pe[1, 3], "PE(1, 3) repeated", 'carried', 'pe13'),
          E(7, pe[2, 0], "PE(2, 0) repeated"), E(8, pe[2, 1], "PE(2, 1) repeated"),
          W(9, pe[2, 2], "PE(2, 2) repeated", 'carried', 'pe22'), W(10, pe[2, 3], "PE(2, 3) repeated", 'carried', 'pe23')),
        S('hs', 'there are 8 heads with each head size being 64.', 3, E(2, Fraction(512, 8), "head size 512 / 8")),
        S('wq', 'W_Q, W_K, W_V (each of size 512 × 64)', 2, E(1, Fraction(512, 8), "per-head projection width")),
        S('dk', 'each head gets 512/8 = 64 dimensions', 6, E(4, Fraction(512, 8), "512 / 8")),
        S('s64', 'because sums of 64 products', 1, E(0, 64, "d_k repeated")),
        S('sc1', '- score₁ = (q₂ · k₁) / √64 = (q₂ · k₁) / 8', 2, E(0, 64, "d_k repeated"), E(1, 8, "sqrt(64)")),
        S('sc2', '- score₂ = (q₂ · k₂) / 8', 1, E(0, 8, "sqrt(64)")),
        S('sc3', '- score₃ = (q₂ · k₃) / 8', 1, E(0, 8, "sqrt(64)")),
        S('sm', 'then softmax might give us [0.42, 0.16, 0.42]', 11,
          E(5, sm[0], "softmax([1.2, 0.5, 1.1])[0] = 0.4164"),
          W(6, sm[1], "softmax([1.2, 0.5, 1.1])[1] = 0.2068", 'slip'),
          W(7, sm[2], "softmax([1.2, 0.5, 1.1])[2] = 0.3768", 'slip'),
          E(8, 100 * sm[0], "weight on 'cat' in %"),
          W(9, 100 * sm[1], "weight on 'sat' (itself) in %", 'carried', 'sm'),
          W(10, 100 * sm[2], "weight on 'mat' in %", 'carried', 'sm')),
        S('out', 'output₂ = 0.42 × v₁ + 0.16 × v₂ + 0.42 × v₃', 3, E(0, sm[0], "weight on v1 repeated"),
          W(1, sm[1], "weight on v2 repeated", 'carried', 'sm'), W(2, sm[2], "weight on v3 repeated", 'carried', 'sm')),
        S('pct', 'so "sat" takes 42% of its new representation', 3, E(0, 100 * sm[0], "share from 'cat' in %"),
          W(1, 100 * sm[2], "share from 'mat' in %", 'carried', 'sm'), W(2, 100 * sm[1], "share from itself in %", 'carried', 'sm')),
        S('mh', 'if you have 8 heads, each one gets 64 dimensions (512/8)', 10, E(1, Fraction(512, 8), "512 / 8"),
          E(5, 0, "first dimension of head 1"), E(6, 63, "last dimension of head 1"), E(8, 64, "first dimension of head 2"),
          E(9, 127, "last dimension of head 2")),
        S('ffn', '(expands to 4x larger)', 3, E(2, Fraction(2048, 512), "2048 / 512")),
    ]
    meta = {
        "doc": "en_attention_guys_blog_posenc.md",
        "source": "GitHub Jekyll blog post 'Attention is all you need guys' (front matter release 22-01-2026; the author links his x.com posts as viplismism); the search index did not expose the repository name (stored file id 1330776971). Excerpt: front matter (description shortened), the 0.9^100 vanishing-gradient example, the positional-embeddings section, steps 1-4 and the one-line formula of 'how it actually works', the multi-head slicing and the FFN dimensions; the reading-time header, rnn and encoder/decoder narrative, GIF images, x.com links, residual-connection and layer-norm prose, causal masking and kv-cache sections dropped; lowercase style kept, prose shortened",
        "source_kind": "blog post",
        "language": "en",
        "errors_as_published": True,
        "notation": "lowercase Jekyll post: bullet lines '• PE(1, 2) = sin(1/10000^(2/512)) = sin(1/1.0027) = sin(0.997) = 0.84' with caret powers, Unicode subscripts q₂ · k₁, √64, × products, percentages in running text, a code block with output₂ = 0.42 × v₁ + ...",
        "conventions": "sinusoidal PE with PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)), d = 512, angles in radians; pair i = 1 uses the divisor 10000^(2/512); softmax over the stated scaled scores [1.2, 0.5, 1.1]; 512/8 = 64 per head; FFN 512 -> 2048 -> 512. Not listed: formula exponents and arguments (pos, 2i, 0/512, 2/512), positions, head counts, the given dimensions 512/2048, the front-matter date",
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
