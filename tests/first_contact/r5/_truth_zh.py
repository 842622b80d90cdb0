"""Independent true values for the Chinese (zh_) first-contact documents of round 5.

Standard library + mpmath only.  Every listed number is located in its document
programmatically (line anchor + index of the numeric token on that line), its true
value is recomputed exactly (fractions) or to 50 digits (mpmath), and its status is
asserted: "ok" numbers must equal the truth rounded half away from zero at the printed
places (integers: exactly), "wrong" numbers must not.

    python _truth_zh.py --write   # (re)write the zh_*.expect.json files
    python _truth_zh.py --check   # recompute and compare with the files (default)
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

# numbers as printed: optional sign (only when not a binary minus), thousands groups
# written "1,234" or LaTeX-style "1{,}234", decimals, NumPy style trailing dot ("2.").
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])-)?\d+(?:(?:,|\{,\})\d{3})*(?:\.\d*)?')


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
    lit = claimed.replace('{,}', '').replace(',', '')
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


def W(idx, truth, what, cf=None):
    """a wrong number: 'carried' when cf (label of the earlier wrong number) is given, else 'slip'"""
    return E(idx, truth, what, 'wrong', 'carried' if cf else 'slip', cf)


def build(docname, specs):
    path = os.path.join(HERE, docname)
    lines = open(path, encoding='utf-8').read().split('\n')
    pos = 0
    where = {}
    numbers = []
    pending = []
    for sp in specs:
        # anchors are searched in document order, starting at or after the previous spec's line
        found = None
        for i in range(pos, len(lines)):
            if (lines[i] == sp.anchor[1:]) if sp.anchor.startswith('^') else (sp.anchor in lines[i]):
                found = i
                break
        assert found is not None, (docname, sp.label, sp.anchor)
        pos = found + 1
        where[sp.label] = found + 1
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(lines[found])]
        assert len(toks) == sp.ntok, (docname, sp.label, len(toks), [t for t, _ in toks])
        for e in sp.entries:
            text, col = toks[e['idx']]
            pending.append((found + 1, col, text, e, sp.label))
    seen = set()
    for line, col, text, e, label in pending:
        assert (line, col) not in seen, (docname, label, line, col)
        seen.add((line, col))
        # the literal really stands there (columns count Unicode characters, 1-based)
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
    tot = sum(ex)
    return [e / tot for e in ex]


def F(x):
    return Fraction(x)



def M(x):
    """Fraction / int -> mpf"""
    x = Fraction(x)
    return mpf(x.numerator) / x.denominator


# ---------------------------------------------------------------------------
# Document A: 「Transformer：从思想到公式，再到代码实现」 (hand-computed examples)
# ---------------------------------------------------------------------------
def doc_a():
    eI, el, eA = [F('0.2'), F('0.0'), F('0.1'), F('0.4')], [F('0.0'), F('0.3'), F('0.2'), F('0.1')], \
        [F('0.5'), F('0.1'), F('0.0'), F('0.2')]
    P0, P1, P2 = [0, 1, 0, 1], [1, 0, 1, 0], [F('0.5')] * 4
    z = [[a + b for a, b in zip(e, p)] for e, p in ((eI, P0), (el, P1), (eA, P2))]
    X = [[1, 0], [0, 1], [1, 1]]
    WK = [[1, 1], [0, 1]]
    K = [[sum(X[i][t] * WK[t][j] for t in range(2)) for j in range(2)] for i in range(3)]
    q1 = X[0]
    dots = [sum(a * b for a, b in zip(q1, k)) for k in K]                 # [1, 0, 1]
    r2 = mpmath.sqrt(2)
    sc = [mpf(d) / r2 for d in dots]
    w = softmax(sc)
    V = X
    o1 = [sum(w[t] * V[t][j] for t in range(3)) for j in range(2)]
    # section 10: Q = K = V = X
    XX = [[sum(X[i][t] * X[j][t] for t in range(2)) for j in range(3)] for i in range(3)]
    S2 = [[mpf(x) / r2 for x in row] for row in XX]
    w10 = softmax(S2[0])
    o10 = [sum(w10[t] * X[t][j] for t in range(3)) for j in range(2)]
    # 7.5
    x = [1, 2]
    res = [2 * v for v in x]                                                # x + FFN(x), FFN = identity
    mu = Fraction(sum(res), 2)
    var = sum((Fraction(v) - mu) ** 2 for v in res) / 2
    ln = [(Fraction(v) - mu) / 1 for v in res]                              # sqrt(var) = 1, eps -> 0
    # 8.4
    H = [[F('0.9'), F('0.1')], [F('0.2'), F('0.8')], [F('0.6'), F('0.4')]]
    qd = [1, 0]
    d84 = [sum(a * b for a, b in zip(qd, h)) for h in H]
    w84 = softmax([M(v) for v in d84])
    c84 = [sum(w84[t] * M(H[t][j]) for t in range(3)) for j in range(2)]
    # 9.5
    m95 = softmax([mpf(2), mpf(1)])
    ce = -mpmath.log(mpf('0.2'))

    specs = [
        S('z0', 'z_0^{(0)} = e_I + PE_0', 7, *[E(3 + j, z[0][j], "z_0 = e_I + PE_0 [%d]" % (j + 1)) for j in range(4)]),
        S('z1', 'z_1^{(0)} = e_{love} + PE_1', 7, *[E(3 + j, z[1][j], "z_1 = e_love + PE_1 [%d]" % (j + 1)) for j in range(4)]),
        S('z2', 'z_2^{(0)} = e_{AI} + PE_2', 7, *[E(3 + j, z[2][j], "z_2 = e_AI + PE_2 [%d]" % (j + 1)) for j in range(4)]),
        S('K0', 'K = XW^K', 0),
        S('K1', '^1 & 1 \\\\', 2, E(0, Fraction(K[0][0]), "K = X W^K [1][1]"), E(1, Fraction(K[0][1]), "K = X W^K [1][2]")),
        S('K2', '^0 & 1 \\\\', 2, E(0, Fraction(K[1][0]), "K = X W^K [2][1]"), E(1, Fraction(K[1][1]), "K = X W^K [2][2]")),
        S('K3', '^1 & 2', 2, E(0, Fraction(K[2][0]), "K = X W^K [3][1]"), E(1, Fraction(K[2][1]), "K = X W^K [3][2]")),
        S('dots', '[1,0]\\cdot[1,1]=1', 15,
          E(4, Fraction(dots[0]), "q1 . k1"), E(9, Fraction(dots[1]), "q1 . k2"), E(14, Fraction(dots[2]), "q1 . k3")),
        S('sc', '^[0.707, 0, 0.707]', 3,
          E(0, sc[0], "q1 . k1 / sqrt(2)"), E(1, Fraction(0), "q1 . k2 / sqrt(2)"), E(2, sc[2], "q1 . k3 / sqrt(2)")),
        S('w', '^[0.401, 0.198, 0.401]', 3, *[E(j, w[j], "softmax weight of token 1 on key %d" % (j + 1)) for j in range(3)]),
        S('o1', 'o_1 = 0.401\\cdot[1,0]', 12, E(10, o1[0], "o_1[1] = w1 + w3"), E(11, o1[1], "o_1[2] = w2 + w3")),
        S('r75', 'x + \\mathrm{FFN}(x) = [2, 4]', 2, E(0, Fraction(res[0]), "x + FFN(x) [1]"), E(1, Fraction(res[1]), "x + FFN(x) [2]")),
        S('mu', '均值 $\\mu = \\frac{2+4}{2} = 3$', 4, E(3, mu, "mean of [2, 4]")),
        S('var', '\\sigma^2 = \\frac{(2-3)^2 + (4-3)^2}{2} = 1', 9, E(8, var, "population variance of [2, 4]")),
        S('ln', '\\frac{[2,4]-3}{\\sqrt{1+\\epsilon}} \\approx [-1, 1]', 6,
          E(4, ln[0], "LayerNorm([2,4])[1] (eps -> 0)"), E(5, ln[1], "LayerNorm([2,4])[2] (eps -> 0)")),
        S('lnf', '^[-1, 1]', 2, E(0, ln[0], "output with gamma=1, beta=0 [1]"), E(1, ln[1], "output with gamma=1, beta=0 [2]")),
        S('d84', 'q\\cdot h_1 = 0.9', 6, E(1, d84[0], "q . h1"), E(3, d84[1], "q . h2"), E(5, d84[2], "q . h3")),
        S('w84', '^[0.412, 0.227, 0.361]', 3,
          W(0, w84[0], "softmax([0.9, 0.2, 0.6])[1] = 0.4470"),
          W(1, w84[1], "softmax([0.9, 0.2, 0.6])[2] = 0.2220"),
          W(2, w84[2], "softmax([0.9, 0.2, 0.6])[3] = 0.3311")),
        S('c84a', 'c = 0.412\\cdot[0.9,0.1]', 9,
          W(0, w84[0], "restated cross-attention weight 1", 'w84'),
          W(3, w84[1], "restated cross-attention weight 2", 'w84'),
          W(6, w84[2], "restated cross-attention weight 3", 'w84')),
        S('c84', '^= [0.633, 0.367]', 2,
          W(0, c84[0], "context c[1] = sum w_i h_i[1]; the printed weights give 0.6328", 'w84'),
          W(1, c84[1], "context c[2] = sum w_i h_i[2]; the printed weights give 0.3672", 'w84')),
        S('m95', '^[0.731, 0.269, 0]', 3,
          E(0, m95[0], "softmax([2, 1, -inf])[1]"), E(1, m95[1], "softmax([2, 1, -inf])[2]"),
          E(2, Fraction(0), "masked position weight")),
        S('ce', '\\mathcal{L} = -\\log(0.2) \\approx 1.609', 2, E(1, ce, "-ln 0.2")),
        S('S1', '^1 & 0 & 1 \\\\', 3, *[E(j, Fraction(XX[0][j]), "X X^T [1][%d]" % (j + 1)) for j in range(3)]),
        S('S2', '^0 & 1 & 1 \\\\', 3, *[E(j, Fraction(XX[1][j]), "X X^T [2][%d]" % (j + 1)) for j in range(3)]),
        S('S3', '^1 & 1 & 2', 3, *[E(j, Fraction(XX[2][j]), "X X^T [3][%d]" % (j + 1)) for j in range(3)]),
        S('T1', '^0.707 & 0 & 0.707 \\\\', 3, *[E(j, S2[0][j] if XX[0][j] else Fraction(0), "X X^T / sqrt2 [1][%d]" % (j + 1)) for j in range(3)]),
        S('T2', '^0 & 0.707 & 0.707 \\\\', 3, *[E(j, S2[1][j] if XX[1][j] else Fraction(0), "X X^T / sqrt2 [2][%d]" % (j + 1)) for j in range(3)]),
        S('T3', '^0.707 & 0.707 & 1.414', 3, *[E(j, S2[2][j], "X X^T / sqrt2 [3][%d]" % (j + 1)) for j in range(3)]),
        S('ex', 'e^{0.707} \\approx 2.028', 4,
          E(1, mpmath.exp(1 / r2), "e^(1/sqrt2) (e^0.707 itself is 2.02797, also 2.028)"), E(3, Fraction(1), "e^0")),
        S('w10', '所以第一行权重约为', 3, *[E(j, w10[j], "row-1 softmax weight %d" % (j + 1)) for j in range(3)]),
        S('o10', '^= [0.802, 0.599]', 2, E(0, o10[0], "o_1[1]"), E(1, o10[1], "o_1[2]")),
    ]
    meta = {
        "doc": "zh_transformer_formula_to_code_notes.md",
        "source": "GitHub Markdown note 「Transformer：从思想到公式，再到代码实现」 (14 sections incl. 「一个可手算的注意力示例」); repository name not exposed by the search index (stored file id 57917957160). Kept: sections 4.3, 5.6, 7.5, 8.4, 9.5 and 10 with their numbers (the Q = XW^Q and V = XW^V matrices of 5.6 folded into a sentence); the PE, FFN, LayerNorm and attention formulas condensed into prose; dropped: sections 1-3, the multi-head section 6 (d_k = 512/8 and the two-head concatenation), 11-14 (NumPy/PyTorch code, complexity, summary)",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with $$ display LaTeX (bmatrix, \\cdot, \\approx, \\frac, -\\infty), inline $...$, vectors in brackets without spaces ([1,0]\\cdot[1,1]=1), Chinese full-width punctuation",
        "conventions": "4.3: element-wise sums of the given embeddings and the given simplified position vectors; 5.6 and 10: X = [[1,0],[0,1],[1,1]], scores divided by sqrt(d_k) = sqrt(2) exactly (0.707 and 1.414 are displays of 1/sqrt2 and sqrt2), row softmax with natural exp, output = weights times V (V = X); 7.5: FFN taken as the identity as stated, population variance, epsilon treated as 0 as the text's ≈ does, gamma = 1, beta = 0; 8.4: softmax of the dot products q . h_i with natural exp, context = weighted sum of the h_i; 9.5: masked entry contributes exp(-inf) = 0, cross entropy in nats. Truth propagates exact values. Restated inputs are not listed; restated copies of results are listed only where wrong (the weights inside c = ...), except that the two separately displayed outputs o_1 of 5.6 and 10 are both listed",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: 「Gemini大模型的未来发展」 (AI-written blog article, self-attention "举例说明")
# ---------------------------------------------------------------------------
def doc_b_values():
    Q = [[F('0.1'), F('0.2'), F('0.3')], [F('0.4'), F('0.5'), F('0.6')], [F('0.7'), F('0.8'), F('0.9')]]
    r3 = mpmath.sqrt(3)
    S = [[M(sum(a * b for a, b in zip(Q[i], Q[j]))) / r3 for j in range(3)] for i in range(3)]
    A = [softmax(row) for row in S]
    O = [[sum(A[i][t] * M(Q[t][j]) for t in range(3)) for j in range(3)] for i in range(3)]
    Fo = [softmax([v / r3 for v in row]) for row in O]
    return Q, A, O, Fo


def doc_b():
    Q, A, O, Fo = doc_b_values()
    pA = [['0.2', '0.6', '0.2'], ['0.4', '0.4', '0.2'], ['0.4', '0.2', '0.4']]
    pO = [['0.24', '0.72', '0.24'], ['0.32', '0.32', '0.32'], ['0.32', '0.16', '0.32']]
    anchorsA = ['^0.2 & 0.6 & 0.2 \\\\', '^0.4 & 0.4 & 0.2 \\\\', '^0.4 & 0.2 & 0.4 \\\\']
    anchorsO = ['^0.24 & 0.72 & 0.24 \\\\', '^0.32 & 0.32 & 0.32 \\\\', '^0.32 & 0.16 & 0.32 \\\\']
    # A times V with the printed weights (for the notes)
    AV = [[sum(F(pA[i][t]) * Q[t][j] for t in range(3)) for j in range(3)] for i in range(3)]

    # printed status of every entry (True = ok): all weights and outputs are off except the
    # last entry of the final-output matrix (0.35275 -> 0.4)
    okA = [[False] * 3 for _ in range(3)]
    okO = [[False] * 3 for _ in range(3)]
    okF = [[False, False, False], [False, False, False], [False, False, True]]
    specs = []
    for i in range(3):
        specs.append(S('A%d' % i, anchorsA[i], 3, *[
            (E if okA[i][j] else W)(j, A[i][j], "softmax(Q Q^T / sqrt3) row %d entry %d = %s" % (i + 1, j + 1, mp.nstr(A[i][j], 4)))
            for j in range(3)]))
    for i in range(3):
        specs.append(S('O%d' % i, anchorsO[i], 3, *[
            (E if okO[i][j] else W)(j, O[i][j], "Output = A V row %d entry %d = %s with the true weights; the printed weights times V give %s"
                                    % (i + 1, j + 1, mp.nstr(O[i][j], 4), str(float(AV[i][j]))))
            for j in range(3)]))
    specs.append(S('fin', '\\text{Final Output} = ', 1))
    for i in range(3):
        specs.append(S('F%d' % i, anchorsA[i], 3, *[
            (E if okF[i][j] else W)(j, Fo[i][j], "softmax(Output / sqrt3) row %d entry %d = %s" % (i + 1, j + 1, mp.nstr(Fo[i][j], 4)))
            for j in range(3)]))
    meta = {
        "doc": "zh_gemini_model_article_attention_example.md",
        "source": "GitHub Markdown blog article 「Gemini大模型的未来发展」 (CSDN-style AI-written post, keywords/abstract header, sections 1-10); repository name not exposed by the search index (stored file id 8917883660). Kept: title, keywords, abstract (condensed), the self-attention steps of section 3 and the self-attention 「举例说明」 of section 4 verbatim; dropped: background, architecture image, training process, the Transformer-model 「举例说明」 (its encoder output is not computable from anything given), TensorFlow/PyTorch code, applications, tools, outlook, FAQ, references",
        "source_kind": "blog post (AI-generated, on GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with $$ display LaTeX, bmatrix rows ending in \\\\ (including the last row), \\text{...} labels, numbered steps",
        "conventions": "Q = K = V = the given 3x3 matrix, d_k = 3, scores Q Q^T / sqrt(3), row softmax with natural exp. Step 2 is judged as the attention WEIGHT matrix softmax(QK^T/sqrt3), as its heading 「计算注意力权重」 and the use in step 3 (Output = Attention V) say, although the displayed formula appends a factor V (under that reading the values would be A V, ≈0.42/0.52/0.62 in row 1, even further off). Step 3 is judged as A V with the true A; step 4 as the row softmax of (true) Output / sqrt(3). All values printed to 1 or 2 decimals are compared with the true values rounded to those places. Because no printed value follows from an earlier printed one (the printed weights times V give 0.40/0.50/0.60 in row 1, not 0.24/0.72/0.24), wrong values are marked as slips",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: 「LLM 采样器 (Sampler) 完全解析」 (softmax, temperature, top-k, top-p, n-gram, CDF)
# ---------------------------------------------------------------------------
def doc_c():
    z = [1, 2, 3]
    ex = [mpmath.exp(v) for v in z]
    p1 = softmax([mpf(v) for v in z])

    def pt(T):
        return softmax([mpf(v) / mpf(T) for v in z])
    p05, p2 = pt('0.5'), pt(2)
    sc05 = [Fraction(v) / F('0.5') for v in z]
    sc2 = [Fraction(v) / 2 for v in z]
    probs = [F('0.05'), F('0.30'), F('0.10'), F('0.40'), F('0.15')]
    # top-k, K = 3
    order = sorted(range(5), key=lambda i: -probs[i])
    topk = sorted(order[:3])
    thr = probs[order[2]]
    filt_k = [p if p >= thr else Fraction(0) for p in probs]
    nk = [p / sum(filt_k) for p in filt_k]
    # top-p, P = 0.9
    cum, keep = [], []
    acc = Fraction(0)
    for i in order:
        acc += probs[i]
        cum.append(acc)
        keep.append(i)
        if acc >= F('0.9'):
            break
    filt_p = [probs[i] if i in keep else Fraction(0) for i in range(5)]
    npp = [p / sum(filt_p) for p in filt_p]
    # n-gram
    hist = [5, 6, 7, 6, 7]
    N = 3
    prefix = hist[-(N - 1):]
    matches = [i for i in range(len(hist) - N + 1) if hist[i:i + N - 1] == prefix]
    banned = [hist[i + N - 1] for i in matches]
    # CDF
    pr = [F('0.1'), F('0.3'), F('0.4'), F('0.2')]
    cdf = [sum(pr[:i + 1]) for i in range(4)]

    def pick(r):
        return next(i for i in range(4) if r < cdf[i])

    specs = [
        S('e1', '^e^1 ≈ 2.72', 2, E(1, ex[0], "e^1")),
        S('e2', '^e^2 ≈ 7.39', 2, E(1, ex[1], "e^2")),
        S('e3', '^e^3 ≈ 20.09', 2, E(1, ex[2], "e^3")),
        S('sum', '^sum ≈ 30.20', 1, W(0, sum(ex), "e + e^2 + e^3 = 30.1929; 30.20 is the sum of the 2-place roundings 2.72 + 7.39 + 20.09")),
        S('p1', '^P = [0.09, 0.24, 0.67]', 3, *[E(j, p1[j], "softmax([1,2,3])[%d]" % (j + 1)) for j in range(3)]),
        S('rat', 'logit 差 1，概率差约 2.7 倍', 4,
          E(1, mpmath.e, "probability ratio for a logit gap of 1 = e"), E(3, mpmath.e, "e^1")),
        S('s05', 'T = 0.5 时: logits/T = [2, 4, 6]', 4, *[E(1 + j, sc05[j], "[1,2,3]/0.5 [%d]" % (j + 1)) for j in range(3)]),
        S('p05', 'P ≈ [0.02, 0.12, 0.86]', 3,
          E(0, p05[0], "softmax([2,4,6])[1]"), E(1, p05[1], "softmax([2,4,6])[2]"),
          W(2, p05[2], "softmax([2,4,6])[3] = 0.8668 (rounds to 0.87)")),
        S('s1', 'T = 1.0 时: logits/T = [1, 2, 3]', 4, *[E(1 + j, Fraction(z[j]), "[1,2,3]/1 [%d]" % (j + 1)) for j in range(3)]),
        S('p1b', 'P ≈ [0.09, 0.24, 0.67]', 3, *[E(j, p1[j], "T=1 softmax([1,2,3])[%d]" % (j + 1)) for j in range(3)]),
        S('s2', 'T = 2.0 时: logits/T = [0.5, 1, 1.5]', 4, *[E(1 + j, sc2[j], "[1,2,3]/2 [%d]" % (j + 1)) for j in range(3)]),
        S('p2', 'P ≈ [0.19, 0.31, 0.50]', 3,
          E(0, p2[0], "softmax([0.5,1,1.5])[1]"), E(1, p2[1], "softmax([0.5,1,1.5])[2]"),
          W(2, p2[2], "softmax([0.5,1,1.5])[3] = 0.5065 (rounds to 0.51)")),
        S('tk', 'Top-3 是索引 1, 3, 4', 7, *[E(1 + j, Fraction(topk[j]), "index of a top-3 probability (0-based)") for j in range(3)]),
        S('thr', '^阈值 = 0.15', 1, E(0, thr, "3rd largest probability")),
        S('fk', '^过滤后: [0, 0.30, 0, 0.40, 0.15]', 5, *[E(j, filt_k[j], "top-3 filtered [%d]" % j) for j in range(5)]),
        S('nk', '^归一化: [0, 0.35, 0, 0.47, 0.18]', 5, *[E(j, nk[j], "top-3 renormalised [%d] (divide by 0.85)" % j) for j in range(5)]),
        S('srt', '排序后: [(3, 0.40)', 10, *[E(2 * j, Fraction(order[j]), "index at sorted position %d" % j) for j in range(5)]),
        S('c1', '^  0.40 (< 0.9, 继续)', 2, E(0, cum[0], "cumulative probability after 1 token")),
        S('c2', '  0.40 + 0.30 = 0.70', 4, E(2, cum[1], "cumulative after 2 tokens")),
        S('c3', '  0.70 + 0.15 = 0.85', 4, E(2, cum[2], "cumulative after 3 tokens")),
        S('c4', '  0.85 + 0.10 = 0.95', 4, E(2, cum[3], "cumulative after 4 tokens (>= 0.9, stop)")),
        S('kp', '^保留索引: 3, 1, 4, 2', 4, *[E(j, Fraction(keep[j]), "kept index %d" % (j + 1)) for j in range(4)]),
        S('fp', '^过滤后: [0, 0.30, 0.10, 0.40, 0.15]', 5, *[E(j, filt_p[j], "top-p filtered [%d]" % j) for j in range(5)]),
        S('np', '^归一化: [0, 0.316, 0.105, 0.421, 0.158]', 5, *[E(j, npp[j], "top-p renormalised [%d] (divide by 0.95)" % j) for j in range(5)]),
        S('pre', '最后 2 个 token（前缀）: [6, 7]', 3, E(1, Fraction(prefix[0]), "prefix token 1"), E(2, Fraction(prefix[1]), "prefix token 2")),
        S('pos', '位置 1-2: history[1]=6, history[2]=7', 6,
          E(0, Fraction(matches[0]), "start of the matching 2-gram"), E(1, Fraction(matches[0] + 1), "end of the matching 2-gram"),
          E(3, Fraction(hist[1]), "history[1]"), E(5, Fraction(hist[2]), "history[2]")),
        S('fol', '这个 2-gram 后面跟着 history[3]=6', 3,
          E(1, Fraction(matches[0] + N - 1), "index following the match"), E(2, Fraction(hist[3]), "history[3]")),
        S('ban', '所以 token 6 被禁止', 7, E(0, Fraction(banned[0]), "banned token")),
        S('e0', '设成 0 不行，因为 $e^0 = 1$', 6, E(2, Fraction(1), "e^0")),
        S('cdf', '^CDF:     0.1   0.4   0.8   1.0', 4, *[E(j, cdf[j], "CDF[%d]" % j) for j in range(4)]),
        S('r1', '如果 r = 0.35，落在 [0.1, 0.4)，选 token 1', 4, E(3, Fraction(pick(F('0.35'))), "token picked for r = 0.35")),
        S('r2', '如果 r = 0.75，落在 [0.4, 0.8)，选 token 2', 4, E(3, Fraction(pick(F('0.75'))), "token picked for r = 0.75")),
    ]
    meta = {
        "doc": "zh_llm_sampler_temperature_topk_topp.md",
        "source": "GitHub Markdown tutorial 「LLM 采样器 (Sampler) 完全解析」 (explains a C++ sampler: penalties, temperature, softmax, top-k, top-p, n-gram ban, categorical sampling); repository name not exposed by the search index (stored file id 6325018599). Kept: sections 一-四 (condensed; the box-drawing flow chart of 二 flattened to two arrow lines), the examples 5.5, 6.5, 8.3 and 9.5 verbatim, the top-k/top-p table and the parameter presets 11.1-11.3; dropped: all C++ implementations, the penalty formulas (summarised in one sentence), the full code review (十), 11.4 and the optimisation notes (十二, 十三)",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with plain-text code blocks holding calculations (≈, ←, ✓, tuple lists (3, 0.40)), $$ LaTeX formulas, Markdown tables, 0-based token indices",
        "conventions": "softmax with natural exp; temperature divides the logits before softmax; top-k keeps the K largest probabilities and divides by their sum; top-p keeps the smallest prefix of the descending order whose cumulative probability reaches 0.9 and renormalises; indices are 0-based as in the source; the CDF picks the first i with r < CDF[i]. Values are compared with the exact results rounded at their printed places (sum ≈ 30.20 is judged against e + e^2 + e^3 = 30.193). Given inputs (the logits, the example probability vector, K, P, the history) and restated inputs are not listed; -1e9 and the parameter presets are inputs",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: course lesson 「旋转位置编码 RoPE」 (worked example d=4 and exercise d=8)
# ---------------------------------------------------------------------------
def doc_d():
    base = mpf(10000)
    th4 = [base ** (mpf(-2 * i) / 4) for i in range(2)]          # d = 4
    c1, s1 = mpmath.cos(1), mpmath.sin(1)
    a2 = 1 * th4[1]
    c2, s2 = mpmath.cos(a2), mpmath.sin(a2)
    qr = [c1, s1, c2, s2]                                        # q = [1,0,1,0] rotated at m = 1
    ex8 = [Fraction(-2 * i, 8) for i in range(4)]
    th8 = [base ** M(e) for e in ex8]
    specs = [
        S('f4', '**频率**：$\\theta_0 = 10000^0 = 1$', 9,
          E(3, Fraction(0), "exponent -2*0/4"), E(4, Fraction(1), "theta_0 = 10000^0"),
          E(7, Fraction(-1, 2), "exponent -2*1/4"), E(8, th4[1], "theta_1 = 10000^(-0.5)")),
        S('a1', '**维度对 (0,1)**：旋转角', 6, E(5, Fraction(1), "angle m*theta_0 = 1*1")),
        S('r1', "\\begin{pmatrix} q_0' \\\\ q_1' \\end{pmatrix}", 10, E(8, c1, "cos 1"), E(9, s1, "sin 1")),
        S('a2', '**维度对 (2,3)**：旋转角', 6, E(5, a2, "angle m*theta_1 = 1*0.01")),
        S('r2', "\\begin{pmatrix} q_2' \\\\ q_3' \\end{pmatrix}", 10, E(8, c2, "cos 0.01 = 0.99995"), E(9, s2, "sin 0.01")),
        S('res', "**结果**：$q' = [0.5403, 0.8415, 1.0000, 0.0100]^T$", 5,
          *[E(1 + j, qr[j], "rotated q'[%d]" % j) for j in range(4)]),
        S('t0', '- $\\theta_0 = 10000^0 = 1$', 4, E(2, ex8[0], "exponent -2*0/8"), E(3, th8[0], "theta_0 (d=8)")),
        S('t1', '- $\\theta_1 = 10000^{-0.25} \\approx 0.1778$', 4,
          E(2, ex8[1], "exponent -2*1/8"),
          W(3, th8[1], "theta_1 = 10000^(-1/4) = 1/10 exactly; 0.1778 is 10^(-0.75)")),
        S('t2', '- $\\theta_2 = 10000^{-0.5} = 0.01$', 4, E(2, ex8[2], "exponent -2*2/8"), E(3, th8[2], "theta_2 (d=8)")),
        S('t3', '- $\\theta_3 = 10000^{-0.75} \\approx 0.00178$', 4,
          E(2, ex8[3], "exponent -2*3/8"),
          W(3, th8[3], "theta_3 = 10000^(-3/4) = 1/1000 exactly; 0.00178 is 10^(-2.75)")),
        S('span', '频率从 1 到 0.00178，跨越 3 个数量级', 3,
          W(1, th8[3], "restated smallest frequency theta_3", 't3'),
          E(2, mpmath.log10(th8[0] / th8[3]), "orders of magnitude between theta_0 and theta_3 (log10(1/0.001))")),
    ]
    meta = {
        "doc": "zh_rope_lesson_rotation_frequencies.md",
        "source": "GitHub Markdown course lesson 「旋转位置编码 RoPE」 (front matter lesson_id transformer/rope-math, volume 5, layer L10; sections 1-8 with viz/exercise/quiz blocks); repository name not exposed by the search index (stored file id 70933225513). Kept: front matter (trimmed), sections 1-4 (prose condensed), both experiments (the plotting code of experiment 2 cut to its setup lines), two of the three misconceptions, exercise 1 with its answer, exercise 2 (code paraphrased), the first quiz; dropped: the sines viz block, the second quiz, the Lie-group reading (section 7) and the link to the next lesson (paraphrased)",
        "source_kind": "course notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with YAML front matter, inline $...$ and $$ pmatrix LaTeX, ^T transposes, Python blocks with title attributes, :::warning admonition, <details> answer, ```quiz block",
        "conventions": "theta_i = 10000^(-2i/d) as stated (d = 4 in the worked example, d = 8 in exercise 1), rotation of each pair (q_2i, q_2i+1) by m*theta_i with the stated matrix, angles in radians. Exponents written as decimals (-0.5, -0.25, -0.75) are listed as results of -2i/d. The assembled result vector q' is listed; the restated theta_0 = 1 in the closing sentence is not, the restated 0.00178 is (carried). Code (experiments, exercise 2) prints nothing in the source, so there are no printouts to check",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: 「KVQuant 论文复现指南」 (KV-cache size, quantisation levels, perplexity example)
# ---------------------------------------------------------------------------
def doc_e():
    per_tok = 2 * 32 * 32 * 128 * 2                           # bytes
    tot = per_tok * 100000
    lvl = [Fraction(-1) + Fraction(2, 15) * k for k in range(16)]
    ps = [F('0.05'), F('0.30'), F('0.40'), F('0.60'), F('0.80'), F('0.20')]
    lns = [mpmath.log(M(p)) for p in ps]
    tot_ln = sum(lns)
    mean = -tot_ln / 6
    ppl = mpmath.exp(mean)
    specs = [
        S('kv', '每个 token 需要 2 × 32层', 7, E(6, Fraction(per_tok, 2 ** 20), "2*32*32*128*2 bytes = 524288 B = 0.5 MiB (0.524 MB)")),
        S('kv2', '10万个 token 的上下文', 3,
          W(1, Fraction(tot, 10 ** 9), "1e5 tokens x 524288 B = 52.43 GB (48.83 GiB); 50 only from 0.5 MB x 1e5 mixing binary MB with decimal GB")),
        S('lv', '怎么把 65536 种', 8, E(5, Fraction(2 ** 16), "number of fp16 bit patterns 2^16"), E(7, Fraction(2 ** 4), "4-bit levels 2^4")),
        S('fs', '输出张量的形状为', 9, E(3, Fraction(16 * 2048), "16 samples x 2048 tokens")),
        S('lv2', '以 4-bit 为例，只有', 6,
          E(1, Fraction(16), "4-bit levels 2^4"), E(3, Fraction(15), "largest unsigned 4-bit level 2^4 - 1"),
          W(4, Fraction(-8), "smallest signed 4-bit level: 16 levels run from -8 to 7; -7 ~ 7 is only 15 levels"),
          E(5, Fraction(7), "largest signed 4-bit level")),
        S('lvv', '级别：-1.0  -0.87  -0.73', 5,
          E(1, lvl[1], "uniform level 2 = -1 + 2/15"), E(2, lvl[2], "uniform level 3 = -1 + 4/15"),
          E(3, lvl[14], "uniform level 15 = 1 - 2/15")),
        S('sp', '间距：固定 = 2.0 / 15 ≈ 0.133', 3, E(2, Fraction(2, 15), "step 2/15")),
        S('fw', '| **Fisher 加权** |', 8, E(2, F('1000') * F('0.001'), "1000 x 0.001"), E(5, Fraction(10 * 500), "10 x 500")),
        S('lut', 'NUQ 只要一张 16 个质心的查找表', 4, E(3, Fraction(16 * 2), "16 fp16 values x 2 bytes")),
        S('ab', '| `--abits 4`', 5, E(4, Fraction(2 ** 4), "2^4")),
        S('s0', 'P → 1.0（极其自信）：-log(1.0) = 0', 3, E(2, Fraction(0), "-ln 1")),
        S('s1', 'P → 0.5（有些把握）：-log(0.5) ≈ 0.69', 3, E(2, -mpmath.log(mpf('0.5')), "-ln 0.5")),
        S('s2', 'P → 0.1（比较迷茫）：-log(0.1) ≈ 2.30', 3, E(2, -mpmath.log(mpf('0.1')), "-ln 0.1")),
        S('s3', 'P → 0.01（极其迷茫）：-log(0.01) ≈ 4.61', 3, E(2, -mpmath.log(mpf('0.01')), "-ln 0.01")),
        S('lns', '= `-1/6 × (-3.00 + (-1.20)', 8, *[E(2 + j, lns[j], "ln %s" % str(float(ps[j]))) for j in range(6)]),
        S('avg', '= `-1/6 × (-7.46) ≈ 1.24`', 4, E(2, tot_ln, "sum of the six natural logs"), E(3, mean, "mean cross entropy (nats)")),
        S('ppl', 'PPL = `exp(1.24) ≈ 3.46`', 2,
          W(1, ppl, "PPL = exp(1.24322) = 3.4668; 3.46 is exp of the already rounded 1.24 (3.4556)")),
        S('d16', 'nuq4-1% PPL ≈ 5.84', 5, E(4, F('5.84') - F('5.68'), "5.84 - 5.68")),
        S('scl', 'scaling_factor = ceil(32768 / 4096) = 8', 3, E(2, Fraction(-(-32768 // 4096)), "ceil(32768/4096)")),
    ]
    meta = {
        "doc": "zh_kvquant_reproduction_perplexity_guide.md",
        "source": "GitHub Markdown 「KVQuant 论文复现指南 (AE Instructions)」 (artifact-evaluation guide for reproducing KVQuant on LLaMA-7B; sections 1-10); repository name not exposed by the search index (stored file id 67264076173). Kept: 1.1-1.2, a condensed 4 (Fisher tensor shape), 5.1.1 and the numeric example of 5.1.4 with its table, three rows of the 5.2 parameter table and the timing line, 6.1 almost verbatim, the RoPE scaling bullet of 8.2; dropped: table of contents, directory tree, conda environments, all shell commands, 5.1.2-5.1.3/5.1.5-5.1.6, evaluation commands, latency tables, passkey details, expected results and troubleshooting",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with bold **...** results, inline code spans holding arithmetic (`-1/6 × (...) ≈ 1.24`), plain-text code blocks with arrows and Chinese comments, Markdown tables with × and ² (距离²), superscript 2⁴",
        "conventions": "KV cache per token = 2 (K,V) x 32 layers x 32 heads x 128 dims x 2 bytes = 524288 B; 0.5 MB read as MiB (it is also 0.524 MB rounded); the 1e5-token total judged in decimal GB (52.43; 48.83 GiB in binary units, neither rounds to 50). 4-bit: 16 levels, unsigned 0..15, signed -8..7; uniform grid on [-1, 1] with step 2/15. Logs are natural logs (as the values show); mean cross entropy = -(1/6) sum ln p; PPL = exp(mean cross entropy) taken at the exact mean. Observed experiment numbers (PPL 5.68, 5.84, 7.29, timings) are measurements, not listed, except the difference 0.16. Given probabilities and restated inputs are not listed; the ranges '5-6', '3-4', '7-8', '1-2' and the ratio 1/4 are not listed",
    }
    return meta, specs


DOCS = [doc_a, doc_b, doc_c, doc_d, doc_e]


def expectation(fn):
    meta, specs = fn()
    out = dict(meta)
    out["numbers"] = build(meta["doc"], specs)
    return out
def main(argv):
    mode = '--check'
    if len(argv) > 1:
        mode = argv[1]
    assert mode in ('--check', '--write'), mode
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
            except (OSError, ValueError) as e:
                print("cannot read %s: %s" % (name, e))
                bad += 1
                continue
            if have != exp:
                print("expectation file out of date: %s" % name)
                bad += 1
        nw = sum(1 for r in exp["numbers"] if r["status"] == "wrong")
        print("%-44s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
