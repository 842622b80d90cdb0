"""Independent true values for the Chinese (zh_) first-contact documents of round 6.

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

# numbers as printed: optional sign '-' or U+2212 (only when not a binary minus), thousands groups
# written "1,234" or LaTeX-style "1{,}234", decimals, NumPy style trailing dot ("2.").
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:(?:,|\{,\})\d{3})*(?:\.\d*)?')


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
    lit = claimed.replace('{,}', '').replace(',', '').replace('\u2212', '-')
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


def S_(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what, status='ok', kind=None, cf=None, lit=None, lenient=None):
    """lit: the literal expected at that token (checked); lenient: absolute tolerance for a
    float32 printout that is accepted as 'ok' although it is not the exact value rounded"""
    return dict(idx=idx, truth=truth, what=what, status=status, kind=kind, cf=cf, lit=lit, lenient=lenient)


def W(idx, truth, what, cf=None, lit=None):
    """a wrong number: 'carried' when cf (label of the earlier wrong number) is given, else 'slip'"""
    return E(idx, truth, what, 'wrong', 'carried' if cf else 'slip', cf, lit)


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
        if e['lit'] is not None:
            assert text == e['lit'], (docname, label, line, text, e['lit'])
        good = rounds_to(text, e['truth'])
        if not good and e['lenient'] is not None and e['status'] == 'ok':
            lit = text.replace('\u2212', '-')
            good = abs(mpf(lit) - (M(e['truth']) if is_exact(e['truth']) else e['truth'])) <= e['lenient']
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


def matmul(A, B):
    return [[sum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def T(A):
    return [list(r) for r in zip(*A)]


# ---------------------------------------------------------------------------
# Document A: AI-written article 「Transformer 架构原理与实践」, 2x2 SDPA example
# ---------------------------------------------------------------------------
def doc_a():
    Q = [[1, 0], [0, 1]]
    K = [[1, 1], [0, 1]]
    V = [[2, 3], [4, 5]]
    KT = T(K)
    S = matmul(Q, KT)                                         # [[1,0],[1,1]]
    r2 = mpmath.sqrt(2)
    Sc = [[mpf(x) / r2 for x in row] for row in S]
    A = [softmax(row) for row in Sc]
    O = [[sum(A[i][t] * V[t][j] for t in range(2)) for j in range(2)] for i in range(2)]
    pA = [[F('0.5'), 0], [F('0.5'), F('0.5')]]
    pO = matmul(pA, V)                                        # printed weights times V
    specs = [
        S_('step1', '1. 计算查询矩阵和键矩阵的点积：', 1),
        S_('q1', '^1 & 0 \\\\', 2), S_('q2', '^0 & 1', 2),
        S_('kt1', '^1 & 0 \\\\', 2, E(0, F(KT[0][0]), "K^T [1][1]"), E(1, F(KT[0][1]), "K^T [1][2]")),
        S_('kt2', '^1 & 1', 2, E(0, F(KT[1][0]), "K^T [2][1]"), E(1, F(KT[1][1]), "K^T [2][2]")),
        S_('s1', '^1 & 0 \\\\', 2, E(0, F(S[0][0]), "QK^T [1][1]"), E(1, F(S[0][1]), "QK^T [1][2]")),
        S_('s2', '^1 & 1', 2, E(0, F(S[1][0]), "QK^T [2][1]"), E(1, F(S[1][1]), "QK^T [2][2]")),
        S_('step2', '2. 缩放点积结果：', 1),
        S_('e1', '^1 & 0 \\\\', 2), S_('e2', '^1 & 1', 2),
        S_('sc1', '^0.707 & 0 \\\\', 2, E(0, Sc[0][0], "QK^T/sqrt2 [1][1] = 1/sqrt2"), E(1, F(0), "QK^T/sqrt2 [1][2]")),
        S_('sc2', '^0.707 & 0.707', 2, E(0, Sc[1][0], "QK^T/sqrt2 [2][1]"), E(1, Sc[1][1], "QK^T/sqrt2 [2][2]")),
        S_('a1', '^0.5 & 0 \\\\', 2,
           W(0, A[0][0], "softmax row 1 entry 1 = softmax([1/sqrt2, 0])[1] = %s (0.5 would need equal scores)" % mp.nstr(A[0][0], 6)),
           W(1, A[0][1], "softmax row 1 entry 2 = %s (a softmax weight is never 0)" % mp.nstr(A[0][1], 6))),
        S_('a2', '^0.5 & 0.5', 2, E(0, A[1][0], "softmax row 2 entry 1 (equal scores)"), E(1, A[1][1], "softmax row 2 entry 2")),
        S_('step4', '4. 将 softmax 函数的输出与值矩阵相乘', 1),
        S_('pa1', '^0.5 & 0 \\\\', 2), S_('pa2', '^0.5 & 0.5', 2),
        S_('v1', '^2 & 3 \\\\', 2), S_('v2', '^4 & 5', 2),
        S_('o1', '^1 & 1.5 \\\\', 2,
           W(0, O[0][0], "attention output [1][1] = 0.6698*2 + 0.3302*4 = %s; the printed weights give %s" % (mp.nstr(O[0][0], 6), pO[0][0]), cf='a1'),
           W(1, O[0][1], "attention output [1][2] = 0.6698*3 + 0.3302*5 = %s; the printed weights give %s" % (mp.nstr(O[0][1], 6), pO[0][1]), cf='a1')),
        S_('o2', '^3 & 4', 2, E(0, O[1][0], "attention output [2][1] = (2+4)/2"), E(1, O[1][1], "attention output [2][2] = (3+5)/2")),
    ]
    meta = {
        "doc": "zh_sdpa_ai_article_2x2_example.md",
        "source": "GitHub Markdown article in the CSDN 「禅与计算机程序设计艺术」 AI-written style (Transformer 背景介绍 / 核心概念与联系 / 核心算法原理 / 数学模型和公式详细讲解举例说明 / 项目实践 ...); repository name not exposed by the search index (stored file id 30324266396). Kept: the Scaled Dot-Product Attention formula of 2.1.1 (bullet list condensed), section 4.1 verbatim and the symbolic PE matrix of 4.2 (a remark that it is not evaluated added); dropped: sections 1, 2.1.2-2.3, 3, 5 and later (TensorFlow code)",
        "source_kind": "blog post (AI-generated, on GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with $$ display LaTeX, one bmatrix per line-block (rows ending in \\\\ except the last), numbered steps 1.-4., the intermediate K^T written out as the second factor of QK^T",
        "conventions": "Q, K, V as given, d_k = 2, scores Q K^T / sqrt(2), row-wise softmax with natural exp, output = softmax(...) V. The second factor of the step-1 product is K^T and its entries are listed as derived values. In step 4 the re-printed weight and V matrices are echoes and are not listed. Row 1 of the softmax is wrong (softmax([0.707, 0]) = [0.6698, 0.3302], the printed [0.5, 0] is not even a distribution); row 1 of the output equals the printed weights times V ([1, 1.5]) and is therefore marked carried from the weight row; row 2 is right throughout",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: 「注意力机制 — — 从直觉到 Qwen2-VL 的工程实现」 (SDPA, causal mask, GQA example)
# ---------------------------------------------------------------------------
def doc_b():
    r2 = mpmath.sqrt(2)
    Q = [[1, 0], [0, 1], [1, 1]]
    K = [[1, 0], [0, 1], [F('0.5'), F('0.5')]]
    V = [[10, 0], [0, 10], [5, 5]]
    S = matmul(Q, T(K))
    Sc = [[M(x) / r2 for x in row] for row in S]
    A = [softmax(row) for row in Sc]
    O = [[sum(A[i][t] * V[t][j] for t in range(3)) for j in range(2)] for i in range(3)]
    e707, e354 = mpmath.exp(mpf('0.707')), mpmath.exp(mpf('0.354'))
    # causal
    Am = [softmax(Sc[0][:1]) + [0, 0], softmax(Sc[1][:2]) + [0], softmax(Sc[2])]
    Om = [[sum(Am[i][t] * V[t][j] for t in range(3)) for j in range(2)] for i in range(3)]
    # section 13
    X = [[1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], [1, 1, 0, 0, 1, 1], [0, 0, 1, 1, 0, 0]]
    WK = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    WV = [[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]]
    Kx = matmul(X, WK)            # [[1,1,1],[1,1,1],[1,2,1],[1,0,1]]
    Vx = matmul(X, WV)            # [[1,1,1],[1,1,1],[2,1,1],[0,1,1]]
    Q0 = [r[:3] for r in X]
    Q1 = [r[3:] for r in X]
    S0 = matmul(Q0, T(Kx))        # true Q_0 K^T
    r3 = mpmath.sqrt(3)
    S0c = [[mpf(x) / r3 for x in row] for row in S0]
    A0 = [softmax(S0c[i][:i + 1]) + [0] * (3 - i) for i in range(4)]
    O0 = [[sum(A0[i][t] * Vx[t][j] for t in range(4)) for j in range(3)] for i in range(4)]
    assert Kx[2] == [1, 2, 1] and Kx[3] == [1, 0, 1] and Vx == [[1, 1, 1], [1, 1, 1], [2, 1, 1], [0, 1, 1]]
    assert S0[1] == [1, 1, 2, 0] and S0[2] == [2, 2, 3, 1] and S0[0] == [2, 2, 2, 2] and S0[3] == [1, 1, 1, 1]

    specs = [
        S_('qk', 'QK^T = \\begin{bmatrix} 1 & 0 & 0.5', 9, *[E(k, F(S[k // 3][k % 3]), "QK^T [%d][%d]" % (k // 3 + 1, k % 3 + 1)) for k in range(9)]),
        S_('sc', '\\approx \\begin{bmatrix} 0.707 & 0 & 0.354', 9, *[E(k, Sc[k // 3][k % 3], "QK^T/sqrt2 [%d][%d]" % (k // 3 + 1, k % 3 + 1)) for k in range(9)]),
        S_('exp1', 'e^{0.707} \\approx 2.028, \\quad e^{0} = 1.000', 6,
           E(1, e707, "e^{0.707} (at the printed argument)", lit='2.028'), E(3, F(1), "e^0", lit='1.000'),
           E(5, e354, "e^{0.354} (at the printed argument; exp(0.5/sqrt2) = 1.4241)", lit='1.425')),
        S_('sum1', '\\text{sum} = 2.028 + 1.000 + 1.425 = 4.453', 4, E(3, e707 + 1 + e354, "sum of the three exponentials at the printed arguments", lit='4.453')),
        S_('al1', '\\alpha_1 = [0.456, 0.225, 0.320]', 4, *[E(k + 1, A[0][k], "softmax row 1 entry %d = %s" % (k + 1, mp.nstr(A[0][k], 6))) for k in range(3)]),
        S_('al2', '\\alpha_2 = [0.225, 0.456, 0.320]', 4, *[E(k + 1, A[1][k], "softmax row 2 entry %d" % (k + 1)) for k in range(3)]),
        S_('exp3', '\\text{ (三个相同) }, \\quad \\text{sum} = 6.084', 3,
           E(1, e707, "e^{0.707}", lit='2.028'), E(2, 3 * e707, "sum of three equal exponentials 3 e^{0.707}", lit='6.084')),
        S_('al3', '\\alpha_3 = [0.333, 0.333, 0.333]', 4, *[E(k + 1, A[2][k], "softmax row 3 entry %d = 1/3" % (k + 1)) for k in range(3)]),
        S_('o1', '第一行: $0.456 \\times [10, 0]', 11,
           W(9, O[0][0], "output row 1 [1] = 10 a11 + 5 a13 = %s; the rounded weights give 6.16 (rounding carried into the second decimal)" % mp.nstr(O[0][0], 6), lit='6.16'),
           E(10, O[0][1], "output row 1 [2] = 10 a12 + 5 a13 = %s" % mp.nstr(O[0][1], 6), lit='3.85')),
        S_('o2', '第二行: $0.225 \\times [10, 0]', 11,
           E(9, O[1][0], "output row 2 [1]", lit='3.85'),
           W(10, O[1][1], "output row 2 [2] = %s; the rounded weights give 6.16" % mp.nstr(O[1][1], 6), lit='6.16')),
        S_('o3', '第三行: $0.333 \\times [10, 0]', 11, E(9, O[2][0], "output row 3 [1] = 5", lit='5.00'), E(10, O[2][1], "output row 3 [2] = 5", lit='5.00')),
        # 8.4 causal
        S_('m1', '^0.707 & -\\infty & -\\infty \\\\', 1, E(0, Sc[0][0], "masked score [1][1]")),
        S_('m2', '^0 & 0.707 & -\\infty \\\\', 2, E(0, F(0), "masked score [2][1]"), E(1, Sc[1][1], "masked score [2][2]")),
        S_('m3', '^0.707 & 0.707 & 0.707', 3, *[E(k, Sc[2][k], "masked score [3][%d]" % (k + 1)) for k in range(3)]),
        S_('ma1', '- 第一行 $[0.707, -\\infty, -\\infty]$', 5, *[E(k + 2, F(Am[0][k]) if k else mpf(1), "causal softmax row 1 entry %d" % (k + 1)) for k in range(3)]),
        S_('ma2', '- 第二行 $[0, 0.707, -\\infty]$', 11,
           E(3, F(1), "e^0", lit='1.0'), E(5, e707, "e^{0.707}", lit='2.028'), E(6, 1 + mpmath.exp(1 / r2), "1 + e^{1/sqrt2}", lit='3.028'),
           E(8, Am[1][0], "causal softmax row 2 entry 1 = %s" % mp.nstr(Am[1][0], 6), lit='0.330'),
           E(9, Am[1][1], "causal softmax row 2 entry 2", lit='0.670'), E(10, F(0), "causal softmax row 2 entry 3 (masked)", lit='0.0')),
        S_('ma3', '- 第三行 $[0.707, 0.707, 0.707]$: 同前', 7, *[E(k + 4, Am[2][k], "causal softmax row 3 entry %d" % (k + 1)) for k in range(3)]),
        S_('mo1', '- 第一行: $1.0 \\times [10, 0] = [10.0, 0.0]$', 5, E(3, Om[0][0], "causal output row 1 [1]"), E(4, Om[0][1], "causal output row 1 [2]")),
        S_('mo2', '- 第二行: $0.330 \\times [10, 0]', 8, E(6, Om[1][0], "causal output row 2 [1] = %s" % mp.nstr(Om[1][0], 6)), E(7, Om[1][1], "causal output row 2 [2]")),
        S_('mo3', '- 第三行: 同前 $= [5.00, 5.00]$', 2, E(0, Om[2][0], "causal output row 3 [1]"), E(1, Om[2][1], "causal output row 3 [2]")),
        # 13.3 K and V
        S_('K', 'K = X W^K = \\begin{bmatrix}', 0),
        S_('K1', '^1 & 1 & 1 \\\\', 3, *[E(k, F(Kx[0][k]), "K = X W^K [1][%d]" % (k + 1)) for k in range(3)]),
        S_('K2', '^1 & 1 & 1 \\\\', 3, *[E(k, F(Kx[1][k]), "K = X W^K [2][%d]" % (k + 1)) for k in range(3)]),
        S_('K3', '^1 & 1 & 1 \\\\', 3, E(0, F(Kx[2][0]), "K [3][1]"),
           W(1, F(Kx[2][1]), "K [3][2]: row 3 of X = [1,1,0,0,1,1] picks W^K rows 1,2,5,6 = [1,0,0]+[0,1,0]+[0,1,0]+[0,0,1] = [1,2,1]"),
           E(2, F(Kx[2][2]), "K [3][3]")),
        S_('K4', '^1 & 1 & 1', 3, E(0, F(Kx[3][0]), "K [4][1]"),
           W(1, F(Kx[3][1]), "K [4][2]: row 4 of X = [0,0,1,1,0,0] picks W^K rows 3,4 = [0,0,1]+[1,0,0] = [1,0,1]"),
           E(2, F(Kx[3][2]), "K [4][3]")),
        S_('Kchk', '(验算第一行: $1 \\cdot 1 + 0 \\cdot 0', 39, *[E(12 + 13 * k, F(Kx[0][k]), "check of K [1][%d]" % (k + 1), lit='1') for k in range(3)]),
        S_('V', 'V = X W^V = \\begin{bmatrix}', 0),
        *[S_('V%d' % (i + 1), '^' + ' & '.join(str(v) for v in Vx[i]) + (' \\\\' if i < 3 else ''), 3,
             *[E(k, F(Vx[i][k]), "V = X W^V [%d][%d]" % (i + 1, k + 1)) for k in range(3)]) for i in range(4)],
        S_('Vchk', '(验算第三行: $1 \\cdot 0 + 1 \\cdot 1', 39, *[E(12 + 13 * k, F(Vx[2][k]), "check of V [3][%d]" % (k + 1)) for k in range(3)]),
        # 13.6 head 0
        S_('QK0', '= \\begin{bmatrix} 2 & 2 & 2 & 2 \\\\ 1 & 1 & 1 & 1', 16,
           *[(E(k, F(S0[k // 4][k % 4]), "Q_0 K^T [%d][%d]" % (k // 4 + 1, k % 4 + 1)) if k not in (6, 7, 10, 11) else
              W(k, F(S0[k // 4][k % 4]), "Q_0 K^T [%d][%d] with the true K (the printed all-ones K gives the printed value)" % (k // 4 + 1, k % 4 + 1),
                cf='K3' if k in (6, 10) else 'K4')) for k in range(16)]),
        S_('r3', '缩放: 除以 $\\sqrt{3} \\approx 1.732$:', 2, E(1, r3, "sqrt(3)")),
        S_('S0c', '\\text{Scaled} = \\begin{bmatrix} 1.155', 16,
           *[(E(k, S0c[k // 4][k % 4], "Q_0 K^T / sqrt3 [%d][%d]" % (k // 4 + 1, k % 4 + 1)) if k not in (6, 7, 10, 11) else
              W(k, S0c[k // 4][k % 4], "Q_0 K^T / sqrt3 [%d][%d] = %s with the true K" % (k // 4 + 1, k % 4 + 1, mp.nstr(S0c[k // 4][k % 4], 6)), cf='QK0'))
             for k in range(16)]),
        S_('cm1', '^1.155 & -\\infty & -\\infty & -\\infty \\\\', 1, E(0, S0c[0][0], "masked head-0 score [1][1]")),
        S_('cm2', '^0.577 & 0.577 & -\\infty & -\\infty \\\\', 2, E(0, S0c[1][0], "masked head-0 score [2][1]"), E(1, S0c[1][1], "masked head-0 score [2][2]")),
        S_('cm3', '^1.155 & 1.155 & 1.155 & -\\infty \\\\', 3, E(0, S0c[2][0], "masked head-0 score [3][1]"), E(1, S0c[2][1], "masked head-0 score [3][2]"),
           W(2, S0c[2][2], "masked head-0 score [3][3] = 3/sqrt3 = sqrt3 with the true K", cf='S0c')),
        S_('cm4', '^0.577 & 0.577 & 0.577 & 0.577', 4, *[E(k, S0c[3][k], "masked head-0 score [4][%d]" % (k + 1)) for k in range(4)]),
        S_('w0', '- 第 0 行: $[1.0, 0, 0, 0]$', 5, E(1, mpf(A0[0][0]), "head-0 weight [1][1]"), *[E(k, F(0), "head-0 weight [1][%d] (masked)" % k) for k in (2, 3, 4)]),
        S_('w1', '- 第 1 行: $[0.5, 0.5, 0, 0]$', 5, E(1, A0[1][0], "head-0 weight [2][1]"), E(2, A0[1][1], "head-0 weight [2][2]"),
           E(3, F(0), "head-0 weight [2][3] (masked)"), E(4, F(0), "head-0 weight [2][4] (masked)")),
        S_('w2', '- 第 2 行: $[0.333, 0.333, 0.333, 0]$', 5,
           *[W(k + 1, A0[2][k], "head-0 weight [3][%d] = softmax([2,2,3]/sqrt3) = %s" % (k + 1, mp.nstr(A0[2][k], 6)), cf='cm3') for k in range(3)],
           E(4, F(0), "head-0 weight [3][4] (masked)")),
        S_('w3', '- 第 3 行: $[0.25, 0.25, 0.25, 0.25]$', 5, *[E(k + 1, A0[3][k], "head-0 weight [4][%d]" % (k + 1)) for k in range(4)]),
        S_('O0', '\\text{Out}_0 = \\begin{bmatrix}', 1),
        S_('O01', '^1.0 & 1.0 & 1.0 \\\\', 3, *[E(k, O0[0][k], "Out_0 [1][%d]" % (k + 1)) for k in range(3)]),
        S_('O02', '^1.0 & 1.0 & 1.0 \\\\', 3, *[E(k, O0[1][k], "Out_0 [2][%d]" % (k + 1)) for k in range(3)]),
        S_('O03', '^1.333 & 1.0 & 1.0 \\\\', 3,
           W(0, O0[2][0], "Out_0 [3][1] = 0.2645*1 + 0.2645*1 + 0.4711*2 = %s with the true weights" % mp.nstr(O0[2][0], 6), cf='w2'),
           E(1, O0[2][1], "Out_0 [3][2]"), E(2, O0[2][2], "Out_0 [3][3]")),
        S_('O04', '^1.0 & 1.0 & 1.0', 3, *[E(k, O0[3][k], "Out_0 [4][%d] = mean of the four V rows" % (k + 1)) for k in range(3)]),
        S_('O0chk', '(第 2 行: $0.333 \\times 1 + 0.333 \\times 1 + 0.333 \\times 2 = 1.333$', 9,
           W(7, O0[2][0], "check line for Out_0 [3][1] (0.333+0.333+0.666 would even give 1.332); true %s" % mp.nstr(O0[2][0], 6), cf='w2', lit='1.333'),
           E(8, O0[2][1], "Out_0 [3][2..3] = 1.0", lit='1.0')),
        # 13.7 head 1 (row sums as the document states them)
        *[S_('h1r%d' % i, '- 行 %d: $' % i, 6, E(4, F(sum(Q1[i])), "sum of the entries of Q_1 row %d" % (i + 1)),
             E(5, M(sum(Q1[i])) / r3, "row sum / sqrt3 for Q_1 row %d" % (i + 1))) for i in range(4)],
    ]
    meta = {
        "doc": "zh_attention_qwen2vl_causal_gqa_notes.md",
        "source": "GitHub Markdown study note 「注意力机制 — — 从直觉到 Qwen2-VL 的工程实现」 (15+ sections from human attention to Qwen2-VL's vision/text attention); repository name not exposed by the search index (stored file id 56244387124). Kept: the hand calculations of section 7 (the element-wise expansion of QK^T in 7.2 dropped), 8.4 (the 3x3 mask display replaced by a sentence) and 13 (13.1 bullets joined into one sentence, the Q-head matrices of 13.4 replaced by a sentence, 13.5 folded into it, 13.8 summarised); dropped: sections 1-6, 8.1-8.3, 9-12 (MHA/GQA theory, parameter counts, KV-cache sizes) and 14-15; the blank line between 「缩放后的 score 加掩码:」 and its display removed",
        "source_kind": "study notes (GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with inline $...$ and $$ display LaTeX, bmatrix written on one line or one row per line, e^{x} \\approx values, bullet lists of softmax rows, verification lines with \\cdot products",
        "conventions": "Scores Q K^T / sqrt(d_k) (d_k = 2 in sections 7/8.4, d_k = 3 per head in section 13), row-wise softmax with natural exp, masked entries get weight 0, output = weights V. Values written as e^{0.707}, e^{0.354} and their sums are judged at the printed arguments (exp(0.707), exp(0.354)); softmax weights and outputs are judged against the exact values (scores 1/sqrt2 etc.). Section 7: the weights are right, but 10*0.4555+5*0.3199 = 6.1546, so the printed 6.16 (obtained from the rounded weights) is wrong at its second decimal (slip). Section 13: X W^K is [[1,1,1],[1,1,1],[1,2,1],[1,0,1]], not all ones (the 「巧合」 remark is not listed as a number); everything computed from the printed K is marked carried: Q_0 K^T entries [2][3],[2][4],[3][3],[3][4] and their scaled values, the masked score [3][3], the softmax row 3 (true [0.2645, 0.2645, 0.4711]) and Out_0[3][1] (true 1.4711); entries that happen to be right with the true K are ok. The printed K^T factor in 13.6 is an echo of the printed K and is not listed. In 13.7 the author states each dot product equals the row sum of Q_1 (true only for the printed K); the row sums and their /sqrt3 values are listed as ok as stated",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: notebook normalization.ipynb (LayerNorm vs BatchNorm1d printouts)
# ---------------------------------------------------------------------------
def doc_c():
    eps = F('1e-5')
    X = [[[F('0.1'), F('0.2'), F('0.3'), F('0.4')], [F('0.5'), F('0.6'), F('0.7'), F('0.8')], [F('0.9'), F('1.0'), F('1.1'), F('1.2')]],
         [[10, 11, 12, 13], [14, 15, 16, 17], [18, 19, 20, 21]]]
    X = [[[F(v) for v in row] for row in s] for s in X]

    def ln(row):
        mu = sum(row) / len(row)
        var = sum((v - mu) ** 2 for v in row) / len(row)
        d = mpmath.sqrt(M(var + eps))
        return [M(v - mu) / d for v in row], mu, var

    LN = [[ln(r)[0] for r in s] for s in X]
    lnvar = [[sum(y ** 2 for y in ln(r)[0]) / 4 for r in s] for s in X]     # mean of LN output is 0 exactly
    rows = [r for s in X for r in s]
    BN = [[None] * 4 for _ in range(6)]
    for c in range(4):
        col = [r[c] for r in rows]
        mu = sum(col) / 6
        var = sum((v - mu) ** 2 for v in col) / 6
        d = mpmath.sqrt(M(var + eps))
        for i in range(6):
            BN[i][c] = M(col[i] - mu) / d
    _, mu0, var0 = ln(X[0][0])
    specs = []
    for s in range(2):
        for t in range(3):
            specs.append(S_('ln%d%d' % (s, t), ('-1.3411, -0.4470,  0.4470,  1.3411' if s == 0 else '-1.3416, -0.4472,  0.4472,  1.3416'), 4,
                            *[E(k, LN[s][t][k], "LayerNorm output sentence %d word %d dim %d" % (s + 1, t + 1, k + 1)) for k in range(4)]))
    specs.append(S_('lnv1', '^tensor([[0.9992, 0.9992, 0.9992],', 3, *[E(k, lnvar[0][k], "variance of the LayerNorm output, sentence 1 word %d = 0.0125/(0.0125+1e-5)" % (k + 1)) for k in range(3)]))
    specs.append(S_('lnv2', '        [1.0000, 1.0000, 1.0000]], grad_fn=<VarBackward0>)', 4, *[E(k, lnvar[1][k], "variance of the LayerNorm output, sentence 2 word %d = 1.25/1.25001" % (k + 1)) for k in range(3)]))
    specs.append(S_('hand', '均值: 0.25, 方差: 0.012500000186264515', 6,
                    E(0, mu0, "mean of [0.1, 0.2, 0.3, 0.4]"),
                    E(1, var0, "biased variance 0.0125 (printed as the float32 value of the computation; accepted within 1e-9)", lit='0.012500000186264515', lenient=mpf('1e-9')),
                    *[E(k + 2, LN[0][0][k], "hand-normalised vector dim %d" % (k + 1)) for k in range(4)]))
    anchors = ['-1.0017, -1.0046, -1.0070, -1.0088', '-0.9457, -0.9518, -0.9569, -0.9613', '-0.8896, -0.8989, -0.9069, -0.9138',
               '0.3853,  0.4230,  0.4566,  0.4866', '0.9457,  0.9518,  0.9569,  0.9613', '1.5061,  1.4805,  1.4573,  1.4360']
    for rep in range(2):
        for i in range(6):
            nt = 5 if (rep == 1 and i == 5) else 4
            specs.append(S_('bn%d%d' % (rep, i), anchors[i], nt,
                            *[E(k, BN[i][k], "BatchNorm1d output (%s) row %d feature %d" % ('flat' if rep == 0 else 'refolded', i + 1, k + 1)) for k in range(4)]))
    specs.append(S_('f1', 'tensor([-1.0017, -0.9457, -0.8896,  0.3853,  0.9457,  1.5061])', 6,
                    *[E(k, BN[k][0], "hand-normalised feature 1, word %d" % (k + 1)) for k in range(6)]))
    meta = {
        "doc": "zh_layernorm_batchnorm_notebook.md",
        "source": "github longwarriors/cumulativeAi:notebooks/normalization.ipynb (cells In [14], In [16], In [18] with their stream outputs, code verbatim incl. the undefined `N` in nn.LayerNorm(N); the empty last cell dropped; short prose added by the transcriber)",
        "source_kind": "notebook (GitHub)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Jupyter cells rendered as Markdown: Python code blocks with Chinese comments, PyTorch tensor printouts (4 decimals, grad_fn tags), f-string prints of a float32 scalar with full repr digits",
        "conventions": "nn.LayerNorm over the last dim (4) and nn.BatchNorm1d in training mode over the 6 flattened words, both with biased variance, eps = 1e-5, gamma = 1, beta = 0. Inputs taken as the exact decimals written in the code. The variance of the LayerNorm output is var/(var+eps) (0.99920 for sentence 1, 0.999992 for sentence 2). The printed 方差 0.012500000186264515 is the float32 result for the exact 0.0125 and is accepted as ok within 1e-9 (float32 printout). Not listed: the means of the LayerNorm output printed as 2.9802e-08 / -2.9802e-07 / 5.3644e-07 / 0.0000e+00 (float32 noise of an exact 0, in e-notation), and echoes of the input (tensor([0.1000, ...]) and the X_reshape printout)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: chapter 4 「Token Embedding 与位置编码」 (d = 4 sinusoidal table, RoPE check)
# ---------------------------------------------------------------------------
def doc_d():
    def pe(pos, j):
        i = j // 2
        ang = mpf(pos) / mpf(10000) ** (mpf(2 * i) / 4)
        return mpmath.sin(ang) if j % 2 == 0 else mpmath.cos(ang)
    tab = [[pe(p, j) for j in range(4)] for p in range(3)]
    specs = [
        S_('div', '那两个频率除数分别是 $10000^{0/4} = 1$ 和 $10000^{2/4} = 100$', 16,
           E(7, F(1), "10000^{0/4}", lit='1'), E(11, F(100), "10000^{2/4}", lit='100')),
    ]
    for p in range(3):
        specs.append(S_('t%d' % p, '| %d | ' % p, 5, *[E(j + 1, tab[p][j] if not (p == 0) else F([0, 1, 0, 1][j]), "PE(pos=%d, dim %d)" % (p, j)) for j in range(4)]))
    specs.append(S_('prose', '从表里能看出两点', 29,
                    E(4, F(0), "dim 0 at pos 0", lit='0'), E(5, tab[1][0], "dim 0 at pos 1", lit='0.841'), E(6, tab[2][0], "dim 0 at pos 2", lit='0.909'),
                    E(8, F(1), "dim 1 at pos 0", lit='1'), E(9, tab[1][1], "dim 1 at pos 1", lit='0.540'), E(10, tab[2][1], "dim 1 at pos 2", lit='\u22120.416'),
                    E(15, F(0), "dim 2 at pos 0", lit='0'), E(16, tab[2][2], "dim 2 at pos 2", lit='0.020'),
                    *[E(20 + j, F([0, 1, 0, 1][j]), "PE(pos=0) vector entry %d" % (j + 1)) for j in range(4)],
                    *[E(25 + j, tab[1][j], "PE(pos=1) vector entry %d" % (j + 1)) for j in range(4)]))
    specs.append(S_('rope', '用一个最小数值例子验证一下', 19,
                    E(8, mpmath.cos(1), "q^T R(theta) k = cos(1) for (m,n) = (0,1)", lit='0.540'),
                    E(13, mpmath.cos(1), "cos(1) for (m,n) = (5,6)", lit='0.540'),
                    E(18, mpmath.cos(2), "cos(2) for (m,n) = (0,2)", lit='-0.416')))
    meta = {
        "doc": "zh_position_encoding_chapter_sin_table_rope.md",
        "source": "GitHub Markdown course chapter 「Token Embedding 与位置编码」 (chapter 04 of a Chinese LLM tutorial with Colab cells 0-11, images under ../assets/04/); repository name not exposed by the search index (stored file id 54516873058). Kept: section 4.1 (formula, the d = 4 hand table and the two paragraphs reading it; prose condensed, heat-map image dropped) and from 6.2 the rotation matrix, the relative-position identity and the numeric RoPE check verbatim; dropped: sections 1-3 (embedding, word2vec, why position), 4.2, 5 (learned PE), 6.1/6.3, 7-11 (ALiBi, comparison table, all code cells, summary)",
        "source_kind": "course notes (GitHub)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Markdown table with $...$ headers, values to 3 decimals with the Unicode minus sign U+2212 (−0.416), prose with arrows 0 → 0.841 → 0.909, $[\\thinspace ... \\thinspace]$ vectors, RoPE check in a blockquote with \\approx and {-0.416}",
        "conventions": "Sinusoidal PE with base 10000, d = 4, PE(pos, 2i) = sin(pos/10000^{2i/d}), PE(pos, 2i+1) = cos(...), angles in radians, dims 0..3 ordered sin, cos, sin, cos (the layout the document states). Values rounded half away from zero at 3 decimals (cos(0.01) = 0.99995 and cos(0.02) = 0.9998 both print 1.000). The remark that dim 3 「一直约等于 1」 is not listed. RoPE check: q = k = [1, 0], theta = 1, score = cos((n - m) theta)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: 「算法面试题库 · AI / 机器学习基础」 Q103 (cross-entropy) and Q114 (temperature)
# ---------------------------------------------------------------------------
def doc_e():
    p = F('0.01')
    logits = [mpf(2), mpf(1), mpf('0.1')]
    s1 = softmax(logits)
    s2 = softmax([x / 2 for x in logits])
    s05 = softmax([x / mpf('0.5') for x in logits])
    specs = [
        S_('mse', 'mse_loss = (1 - p) ** 2', 6, E(2, (1 - p) ** 2, "(1 - 0.01)^2 = 0.9801", lit='0.98'), E(5, 2 * (p - 1), "2 (p - 1)", lit='-1.98')),
        S_('ce', 'ce_loss  = -np.log(p)', 3, E(0, -mpmath.log(mpf('0.01')), "-ln(0.01)", lit='4.6'), E(2, -1 / p, "-1/p", lit='-100')),
        S_('ans', 'MSE 的梯度约为 -2', 4, E(2, 2 * (p - 1), "MSE gradient -1.98 quoted as 约为 -2 (integer rounding; accepted within 0.5)", lit='-2', lenient=mpf('0.5')), E(3, -1 / p, "CE gradient -1/p", lit='-100')),
        S_('t1', '# tensor([0.6590, 0.2424, 0.0986])', 3, *[E(k, s1[k], "softmax([2, 1, 0.1]) entry %d" % (k + 1)) for k in range(3)]),
        S_('t2', '# tensor([0.5060, 0.3122, 0.1818])', 3,
           *[W(k, s2[k], "softmax([2, 1, 0.1] / 2) entry %d = %s" % (k + 1, mp.nstr(s2[k], 6))) for k in range(3)]),
        S_('t05', '# tensor([0.8756, 0.1185, 0.0059])', 3,
           *[W(k, s05[k], "softmax([2, 1, 0.1] / 0.5) entry %d = %s" % (k + 1, mp.nstr(s05[k], 6))) for k in range(3)]),
    ]
    meta = {
        "doc": "zh_ml_interview_cross_entropy_temperature.md",
        "source": "GitHub Markdown interview question bank 「算法面试题库 · AI / 机器学习基础」 (Q101-Q114 with 高频公司/难度/考察点/示例答案 blocks); repository name not exposed by the search index (stored file id 54703604363). Kept: Q103 (code blocks verbatim; the 示例答案 shortened to the sentences with numbers and the GPT-3/WikiText remark dropped) and Q114 (Softmax-temperature code verbatim, calibration prose condensed, the 校准前后对比 block, RAG/Agent list and 示例答案 dropped); all other questions dropped",
        "source_kind": "interview notes (GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown Q&A with emoji headers, Python code blocks whose results are given as trailing comments (# = 0.98, # tensor([...]))",
        "conventions": "Natural log; softmax(logits / T) with natural exp. MSE loss (1-p)^2 and its derivative 2(p-1) with respect to p, CE loss -ln p and derivative -1/p, at p = 0.01, y = 1; 「约为 -2」 is read as -1.98 rounded to an integer. The T = 1 printout is right; the T = 2 printout (true 0.5017, 0.3043, 0.1940) and the T = 0.5 printout (true 0.8638, 0.1169, 0.0193) are wrong in every entry and do not follow from anything printed earlier, so they are slips",
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
        print("%-48s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
