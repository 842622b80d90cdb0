"""Independent true values for the Chinese (zh_) first-contact documents of round 4.

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


# ---------------------------------------------------------------------------
# Document A: "Transformer 架构深度解析" (movie-night attention, 3x3 example, softmax/temperature)
# ---------------------------------------------------------------------------
def doc_a():
    # section 1: stated vectors (label:value pairs)
    q = [1, 1, 1, 0]
    k1, k2, k3 = [1, 1, 1, 0], [1, 1, 0, 0], [1, 1, 0, 1]
    dots = [sum(a * b for a, b in zip(q, k)) for k in (k1, k2, k3)]        # [3, 2, 2]
    sqrt_dk = 2                                                              # d_k = 4 as stated
    scaled = [Fraction(d, sqrt_dk) for d in dots]                            # [3/2, 1, 1]
    w = softmax([mpf(s.numerator) / s.denominator for s in scaled])
    V = [[10, 10, 8, 9], [8, 7, 2, 6], [9, 8, 10, 1]]
    out1 = [sum(w[i] * V[i][j] for i in range(3)) for j in range(4)]
    names = ['小明', '小红', '小刚']

    # section 2: given QK^T, d_k = 4
    S2 = [[8, 3, 5], [3, 10, 4], [5, 4, 9]]
    Sc = [[Fraction(x, 2) for x in row] for row in S2]
    P = [softmax([mpf(x.numerator) / x.denominator for x in row]) for row in Sc]
    V2 = [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]
    O2 = [[sum(P[i][t] * V2[t][j] for t in range(3)) for j in range(4)] for i in range(3)]

    # section 3: ratings [9, 7, 8, 3]; order example [5, 3, 8, 1]; temperatures
    z = [9, 7, 8, 3]
    p1 = softmax([mpf(x) for x in z])
    pord = softmax([mpf(x) for x in [5, 3, 8, 1]])

    def pt(T):
        return softmax([mpf(x) / mpf(T) for x in z])
    pT05, pT1, pT2 = pt('0.5'), pt(1), pt(2)

    specs = [
        S('d1', 'Q · K₁(小明)', 9, E(8, dots[0], "Q . K1 (小明) = 1+1+1+0")),
        S('d2', 'Q · K₂(小红)', 9,
          W(3, 1, "second factor of Q . K2: K2 is stated as [周末加班:1, 爱看书:1, 文艺:0, 不爱电影:0], so its 2nd component is 1, written 1×0"),
          W(8, dots[1], "Q . K2 (小红) = 1+1+0+0 = 2", 'd2')),
        S('d3', 'Q · K₃(小刚)', 9,
          W(3, 1, "second factor of Q . K3: K3 is stated as [周末:1, 运动狂:1, 不爱电影:0, 健身:1], so its 2nd component is 1, written 1×0"),
          W(8, dots[2], "Q . K3 (小刚) = 1+1+0+0 = 2", 'd3')),
        S('qk', 'QK^T = [3, 1, 1]', 3,
          E(0, dots[0], "QK^T[1] (小明)"),
          W(1, dots[1], "QK^T[2] (小红)", 'd2'),
          W(2, dots[2], "QK^T[3] (小刚)", 'd3')),
        S('sq', '维度按 4 算，√4=2', 4, E(2, Fraction(2), "sqrt(d_k) = sqrt(4)")),
        S('sc', '缩放后 = [3/2, 1/2, 1/2]', 9,
          W(2, dots[1], "numerator of 1/2: restated score QK^T[2]", 'd2'),
          W(4, dots[2], "numerator of 1/2: restated score QK^T[3]", 'd3'),
          E(6, scaled[0], "scaled score 3/2"),
          W(7, scaled[1], "scaled score for 小红 (2/2)", 'd2'),
          W(8, scaled[2], "scaled score for 小刚 (2/2)", 'd3')),
        S('sm', 'Softmax([1.5, 0.5, 0.5])', 6,
          W(1, scaled[1], "restated scaled score (小红) inside Softmax(...)", 'd2'),
          W(2, scaled[2], "restated scaled score (小刚) inside Softmax(...)", 'd3'),
          W(3, w[0], "softmax weight 小明 (softmax([1.5,1,1]); even softmax([1.5,0.5,0.5]) gives 0.576)"),
          W(4, w[1], "softmax weight 小红 (even softmax([1.5,0.5,0.5]) gives 0.212)"),
          W(5, w[2], "softmax weight 小刚 (even softmax([1.5,0.5,0.5]) gives 0.212)")),
        S('pc1', '小明: 70%', 1, W(0, 100 * w[0], "weight 小明 in percent", 'sm')),
        S('pc2', '小红: 15%', 1, W(0, 100 * w[1], "weight 小红 in percent", 'sm')),
        S('pc3', '小刚: 15%', 1, W(0, 100 * w[2], "weight 小刚 in percent", 'sm')),
        S('ws1', '最终输出 = 0.70 ×', 5, W(0, w[0], "restated weight 小明 in the weighted sum", 'sm')),
        S('ws2', '0.15 × [8, 7, 2, 6]', 5, W(0, w[1], "restated weight 小红 in the weighted sum", 'sm')),
        S('ws3', '0.15 × [9, 8, 10, 1]', 5, W(0, w[2], "restated weight 小刚 in the weighted sum", 'sm')),
        S('out1', '= [9.55, 9.25, 7.40, 7.65]', 4,
          W(0, out1[0], "output[1] = sum_i w_i V_i[1] (0.70/0.15/0.15 give 9.55)", 'sm'),
          W(1, out1[1], "output[2] (0.70/0.15/0.15 give 9.25)", 'sm'),
          W(2, out1[2], "output[3] (0.70/0.15/0.15 give 7.40)", 'sm'),
          W(3, out1[3], "output[4]; even 0.70*9 + 0.15*6 + 0.15*1 = 7.35")),
        S('sq2', '**缩放**：d_k = 4，√4 = 2', 3, E(2, Fraction(2), "sqrt(d_k) = sqrt(4)")),
        S('sc1', 'Scaled = [[4,', 3, *[E(j, Sc[0][j], "QK^T/2 [1][%d]" % (j + 1)) for j in range(3)]),
        S('sc2', '          [1.5, 5,   2],', 3, *[E(j, Sc[1][j], "QK^T/2 [2][%d]" % (j + 1)) for j in range(3)]),
        S('sc3', '          [2.5, 2,   4.5]]', 3, *[E(j, Sc[2][j], "QK^T/2 [3][%d]" % (j + 1)) for j in range(3)]),
    ]
    wa = ['Attention Weights = [[0.45', '                     [0.10, 0.70', '                     [0.35, 0.20']
    for i in range(3):
        specs.append(S('aw%d' % i, wa[i], 3,
                       *[W(j, P[i][j], "softmax of scaled row %d, entry %d" % (i + 1, j + 1)) for j in range(3)]))
    specs.append(S('row2', '第二行 [0.10, 0.70, 0.20]', 4,
                   *[W(j, P[1][j], "restated weight row 2 entry %d" % (j + 1), 'aw1') for j in range(3)],
                   W(3, 100 * P[1][1], "row 2 self-attention share in percent", 'aw1')))
    oa = ['       = [[2.15', '          [2.20, 3.20', '          [2.10, 3.10']
    for i in range(3):
        ents = []
        for j in range(4):
            if i == 2:
                ents.append(W(j, O2[i][j], "Output[3][%d] (printed row-3 weights give exactly this)" % (j + 1), 'aw2'))
            else:
                ents.append(W(j, O2[i][j], "Output[%d][%d]; even the printed weights give %.2f" % (
                    i + 1, j + 1, [1.95, 2.10][i] + j)))
        specs.append(S('o%d' % i, oa[i], 4, *ents))
    specs += [
        S('n1', '《沙丘2》：8103 / 12201 = 0.66', 5, E(3, p1[0], "softmax([9,7,8,3])[1]")),
        S('n2', '《星际穿越》：1097 / 12201 = 0.09', 4, E(2, p1[1], "softmax([9,7,8,3])[2]")),
        S('n3', '《盗梦空间》：2981 / 12201 = 0.24', 4, E(2, p1[2], "softmax([9,7,8,3])[3]")),
        S('n4', '《泰坦尼克号》：20 / 12201 = 0.01', 4,
          W(2, p1[3], "softmax([9,7,8,3])[4] = 20.09/12200.8 = 0.0016"),
          W(3, 100 * p1[3], "the same in percent (0.16%)", 'n4')),
        S('ord', 'probs = [0.14, 0.02, 0.77, 0.01]', 4,
          *[W(j, pord[j], "softmax([5,3,8,1])[%d]" % (j + 1)) for j in range(4)]),
        S('ord8', '# 8最大 → 0.77最大', 2, W(1, pord[2], "restated probability of 8", 'ord')),
        S('ord5', '# 5第二 → 0.14第二', 2, W(1, pord[0], "restated probability of 5", 'ord')),
        S('t05', '# [0.85, 0.04, 0.11, 0.00]', 4,
          W(0, pT05[0], "softmax([9,7,8,3]/0.5)[1]"),
          W(1, pT05[1], "softmax([9,7,8,3]/0.5)[2]"),
          W(2, pT05[2], "softmax([9,7,8,3]/0.5)[3]"),
          E(3, pT05[3], "softmax([9,7,8,3]/0.5)[4] (5e-6)")),
        S('t1', '# [0.66, 0.09, 0.24, 0.01]', 4,
          E(0, pT1[0], "T=1.0 [1]"), E(1, pT1[1], "T=1.0 [2]"), E(2, pT1[2], "T=1.0 [3]"),
          W(3, pT1[3], "T=1.0 [4] (0.0016), same value as 《泰坦尼克号》 above", 'n4')),
        S('t2', '# [0.46, 0.19, 0.30, 0.05]', 4,
          W(0, pT2[0], "softmax([9,7,8,3]/2)[1]"),
          W(1, pT2[1], "softmax([9,7,8,3]/2)[2]"),
          E(2, pT2[2], "softmax([9,7,8,3]/2)[3]"),
          W(3, pT2[3], "softmax([9,7,8,3]/2)[4]")),
    ]
    meta = {
        "doc": "zh_transformer_deepdive_softmax_notes.md",
        "source": "GitHub Chinese study note 「# Transformer 架构深度解析」 (sections 3.2 朋友圈求助看电影, 3.4 数学形式化, 5.4.6 Softmax 函数 incl. 温度参数); repository name not exposed by the search index (stored file id 19057616534). Kept: the movie-night steps 3-5 and 7, the 3x3 matrix example, the softmax walk-through, the order-preservation example and the temperature printouts; dropped: the Positional Encoding/Multi-Head analogies, the 'largest value stands out' example, the first softmax code printout and the movie narratives (T=0.5/1.0/2.0 percentages)",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with labelled vectors ([周末:1, ...]), plain-text code blocks with ×, √ and ⭐, nested-list matrices, Python code with results in # comments, Chinese book-title marks 《沙丘2》 (digit inside a title)",
        "conventions": "section 1: dot products of the stated labelled vectors Q=[1,1,1,0], K1=[1,1,1,0], K2=[1,1,0,0], K3=[1,1,0,1] (so QK^T = [3,2,2]), divided by sqrt(4)=2, softmax, then weights times the stated V vectors; section 2: the given QK^T divided by 2, row softmax, times the given V; section 3: softmax of [9,7,8,3] with natural exp, temperature T divides the logits. Truth always propagates the true values. Integer literals that are correct only as roundings (exp(9) = 8103, the sum 12201, 66%, 9%, 24%) are not listed; integer percentages wrong under any rounding are. Restated copies of earlier results are listed only where wrong; correctly restated inputs are not listed, the two mis-restated key components (written 1×0) are",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: course module 03 「注意力机制：一次可微分的检索」 (HTML/MathJax lesson)
# ---------------------------------------------------------------------------
def doc_b():
    r2 = mpmath.sqrt(2)
    e1 = mpmath.exp(1 / r2)
    w1 = e1 / (e1 + 1)                          # row 1 of example 1: softmax([1/sqrt2, 0])
    em = mpmath.exp(-1 / r2)
    s2 = e1 / (e1 + em)                         # row 2 of example 2: softmax([1/sqrt2, -1/sqrt2])
    specs = [
        S('var', '\\mathrm{Var}\\left(\\frac{S}{\\sqrt{d_{k}}}\\right)', 2, E(1, Fraction(1), "Var(S/sqrt(d_k)) = d_k/d_k")),
        S('kt', '\\[ K^T = \\begin{bmatrix} 1 & 0', 16,
          *[E(j, Fraction([1, 0, 1, 1][j]), "K^T entry %d (transpose of K)" % (j + 1)) for j in range(4)],
          *[E(12 + j, Fraction([1, 0, 2, 2][j]), "QK^T entry %d" % (j + 1)) for j in range(4)]),
        S('r2a', '**第 2 步：除以缩放系数', 3, E(2, r2, "sqrt(2)")),
        S('sca', '\\[ \\frac{QK^T}{\\sqrt{2}} \\approx', 5,
          E(1, 1 / r2, "QK^T/sqrt2 [1][1] = 1/sqrt2"), E(2, Fraction(0), "QK^T/sqrt2 [1][2]"),
          E(3, r2, "QK^T/sqrt2 [2][1] = 2/sqrt2"), E(4, r2, "QK^T/sqrt2 [2][2]")),
        S('row1', '第一行：\\(e^{0.707}', 7,
          E(1, e1, "e^(1/sqrt2)"), E(3, Fraction(1), "e^0"), E(4, e1 + 1, "row-1 sum e^(1/sqrt2)+1"),
          E(5, w1, "row-1 weight 1"), E(6, 1 - w1, "row-1 weight 2")),
        S('row2', '第二行：两数相等，得到权重', 2, E(0, Fraction(1, 2), "row-2 weight 1"), E(1, Fraction(1, 2), "row-2 weight 2")),
        S('out', '\\[ \\mathrm{Out} = AV', 12,
          E(8, 10 * w1, "Out[1][1] = 10 w"), E(9, 20 * (1 - w1), "Out[1][2] = 20 (1-w)"),
          E(10, Fraction(5), "Out[2][1]"), E(11, Fraction(10), "Out[2][2]")),
        S('qk2', '\\[ QK^{T} = \\begin{bmatrix} 2 & 2', 4,
          *[E(j, Fraction([2, 2, 1, -1][j]), "QK^T entry %d (example 2)" % (j + 1)) for j in range(4)]),
        S('chk', '逐项验算：第一行', 20,
          E(4, Fraction(2), "2*1 + 0*1"), E(9, Fraction(2), "2*1 + 0*(-1)"),
          E(14, Fraction(1), "0*1 + 1*1"), E(19, Fraction(-1), "0*1 + 1*(-1)")),
        S('r2b', '**草稿第 2 步：除以', 3, E(2, r2, "sqrt(2)")),
        S('scb', '\\[ \\frac{QK^{T}}{\\sqrt{2}} \\approx', 5,
          E(1, r2, "2/sqrt2"), E(2, r2, "2/sqrt2"), E(3, 1 / r2, "1/sqrt2"), E(4, -1 / r2, "-1/sqrt2")),
        S('sm2', '第一行两数相等，权重为', 11,
          E(0, Fraction(1, 2), "row-1 weight 1"), E(1, Fraction(1, 2), "row-1 weight 2"),
          E(3, e1, "e^(1/sqrt2)"), E(5, em, "e^(-1/sqrt2)"), E(6, e1 + em, "row-2 sum"),
          E(7, s2, "row-2 weight 1"), E(8, 1 - s2, "row-2 weight 2")),
        S('av', '\\[ AV \\approx', 12,
          E(8, Fraction(2), "AV[1][1] = 4/2"), E(9, Fraction(3), "AV[1][2] = 6/2"),
          W(10, 4 * s2, "AV[2][1] = 4 * 0.8044; 3.20 comes from the 2-place weight 0.80"),
          W(11, 6 * (1 - s2), "AV[2][2] = 6 * 0.1956; 1.20 comes from the 2-place weight 0.20")),
        S('avt', '第一行平均混合两个值向量', 5,
          W(2, 4 * s2, "AV[2][1] repeated in the text", 'av'),
          W(3, 6 * (1 - s2), "AV[2][2] repeated in the text", 'av')),
        S('rot', '取频率 \\(\\theta = \\pi / 2\\)', 4,
          E(1, Fraction(90), "pi/2 in degrees"), E(2, Fraction(0), "cos(pi/2)"), E(3, Fraction(1), "sin(pi/2)")),
        S('R1', '\\[ R_{1} = \\begin{bmatrix} 0 & -1', 7,
          E(1, Fraction(0), "R_1[1][1] = cos"), E(2, Fraction(-1), "R_1[1][2] = -sin"),
          E(3, Fraction(1), "R_1[2][1] = sin"), E(4, Fraction(0), "R_1[2][2] = cos")),
        S('R1x', '\\[ R_{1} x = ', 9, E(7, Fraction(0), "R_1 x [1]"), E(8, Fraction(1), "R_1 x [2]")),
        S('rel', '查询在位置 \\(m = 1\\)', 18,
          E(2, Fraction(1), "n - m = 2 - 1"), E(9, Fraction(0), "R_1 k [1]"), E(10, Fraction(1), "R_1 k [2]"),
          E(15, Fraction(0), "inner product 1*0 + 0*1"), E(16, Fraction(0), "relative angle at equal positions"),
          E(17, Fraction(1), "inner product at equal positions")),
        S('q1', '**自测 1**', 12,
          E(3, Fraction(16), "compute ratio (8k/2k)^2"), E(4, Fraction(4), "length ratio 8k/2k"),
          E(7, Fraction(4), "8k/2k"), E(11, Fraction(16), "4^2")),
        S('q4', '**自测 4**', 14,
          E(5, Fraction(2), "score shape B"), E(6, Fraction(3), "score shape h"),
          E(7, Fraction(5), "score shape T"), E(8, Fraction(5), "score shape T"),
          E(9, Fraction(4), "d_h = C/h = 12/3")),
    ]
    meta = {
        "doc": "zh_attention_course_module_handcalc.md",
        "source": "GitHub JavaScript course content file content/03-attention.js (COURSE.register id \"m3\", 「注意力机制：一次可微分的检索」, an HTML/MathJax lesson in a String.raw template); repository name not exposed by the search index (stored file id 70910526331). Kept: analogy (condensed), the scaling conclusion, the 2x2 worked example, 草稿纸演算区 B, RoPE 草稿纸演算区 C, quizzes 1 and 4 (answers and explanations only); dropped: the step-by-step variance proof, the PyTorch MHA code, shape tables, geometry sections and the other quizzes",
        "source_kind": "course notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown carrying the lesson's MathJax: \\( \\) inline and \\[ \\] display LaTeX with bmatrix, e^{...} \\approx, an HTML <br/>, Chinese prose with 全角 punctuation",
        "conventions": "scaled dot-product attention with d_k = 2: scores QK^T / sqrt(2) taken exactly (0.707 and 1.414 are displays of 1/sqrt2 and sqrt2), row softmax with natural exp, output = A V with the exact weights; the weights themselves printed to 2 places. RoPE example with theta = pi/2. Restated copies of earlier results (A inside A V, the exponents inside e^{...}) are listed only where wrong; restated inputs are not listed",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: chapter 6 "Transformer" notes (hand-computed self-attention, MHA/FFN parameter counts)
# ---------------------------------------------------------------------------
def doc_c():
    X = [[1, 0], [0, 1], [1, 1], [0, 0]]
    Sm = [[sum(X[i][t] * X[j][t] for t in range(2)) for j in range(4)] for i in range(4)]
    r2 = mpmath.sqrt(2)
    Sp = [[mpf(x) / r2 for x in row] for row in Sm]
    A = [softmax(row) for row in Sp]
    e1 = mpmath.exp(1 / r2)
    e2 = mpmath.exp(r2)
    Z = [[sum(A[i][t] * X[t][j] for t in range(4)) for j in range(2)] for i in range(4)]
    d, h, df = 512, 8, 2048
    dk = d // h
    specs = [
        S('var', '当 $d_k = 64$ 时', 8,
          E(4, Fraction(64), "Var(q.k) = d_k"), E(5, Fraction(8), "std = sqrt(64)"), E(7, Fraction(1), "variance after dividing by sqrt(d_k)")),
        S('dk', '投影矩阵取单位阵', 3, E(2, Fraction(2), "d_k = d_v = 2 (identity 2x2 projections)")),
        S('S', '$$\\boldsymbol{S} = \\boldsymbol{Q}\\boldsymbol{K}^T', 32,
          *[E(16 + 4 * i + j, Fraction(Sm[i][j]), "S = X X^T [%d][%d]" % (i + 1, j + 1)) for i in range(4) for j in range(4)]),
        S('b1', '- 位置 1（向量 $[1,0]$）', 7, E(6, Fraction(Sm[0][2]), "x1 . x3")),
        S('b2', '- 位置 3 和自己的点积为 2', 2, E(1, Fraction(Sm[2][2]), "x3 . x3")),
        S('b3', '- 位置 4（零向量）', 2, E(1, Fraction(0), "x4 . anything")),
        S('Sp', "$$\\boldsymbol{S}' = ", 17,
          *[E(1 + 4 * i + j, Sp[i][j] if Sm[i][j] else Fraction(0), "S' = S/sqrt2 [%d][%d]" % (i + 1, j + 1)) for i in range(4) for j in range(4)]),
        S('D1', '分母 $D = e^{0.707}', 9,
          E(4, e1, "e^(1/sqrt2)"), E(5, Fraction(1), "e^0"), E(6, e1, "e^(1/sqrt2)"), E(7, Fraction(1), "e^0"),
          E(8, 2 * e1 + 2, "row-1 denominator")),
        S('a1', '$$\\alpha = [2.028/6.056', 12, *[E(8 + j, A[0][j], "row-1 softmax weight %d" % (j + 1)) for j in range(4)]),
        S('a4', '**第 4 行**', 9, *[E(5 + j, Fraction(1, 4), "row-4 softmax weight %d (uniform)" % (j + 1)) for j in range(4)]),
        S('e3', '$e^{0.707} \\approx 2.028$，$e^{1.414}', 6,
          E(1, e1, "e^(1/sqrt2)"),
          E(3, e2, "e^(sqrt2) = 4.11325 (the exponent 1.414 is the 3-place display of sqrt2; e^1.414 itself is 4.11238)"),
          E(5, Fraction(1), "e^0")),
        S('D3', '分母 $= 2.028 + 2.028 + 4.113 + 1 = 9.169$', 5, E(4, 2 * e1 + e2 + 1, "row-3 denominator")),
        S('a3', '$$\\alpha_3 \\approx', 5, *[E(1 + j, A[2][j], "row-3 softmax weight %d" % (j + 1)) for j in range(4)]),
        S('z4', '$$\\boldsymbol{z}_4 =', 15, E(13, Z[3][0], "z4[1]"), E(14, Z[3][1], "z4[2]")),
        S('z3', '$$\\boldsymbol{z}_3 \\approx', 15, E(13, Z[2][0], "z3[1]"), E(14, Z[2][1], "z3[2]")),
        S('cfg', '**标准配置**', 5, E(4, Fraction(dk), "d_k = 512/8")),
        S('wq', '- $\\boldsymbol{W}_Q^{(i)}', 5, E(4, Fraction(d * dk), "W_Q per head 512 x 64")),
        S('wk', '- $\\boldsymbol{W}_K^{(i)}', 3, E(2, Fraction(d * dk), "W_K per head")),
        S('wv', '- $\\boldsymbol{W}_V^{(i)}', 3, E(2, Fraction(d * dk), "W_V per head")),
        S('qkv', '- 每头 QKV 小计', 3, E(2, Fraction(3 * d * dk), "3 x 32768")),
        S('h8', '**8 个头的 QKV 总参数**', 4, E(3, Fraction(h * 3 * d * dk), "8 x 98304")),
        S('wo', '**输出投影**', 3, E(2, Fraction(d * d), "W_O 512 x 512")),
        S('tot', '**多头注意力层总参数**', 8,
          E(2, Fraction(h * 3 * d * dk + d * d), "786432 + 262144"), E(3, Fraction(4), "coefficient of d^2")),
        S('hind', '头数不影响总参数量', 10,
          E(1, Fraction(3), "h*3*d*(d/h) = 3 d^2"), E(4, Fraction(4), "3d^2 + d^2 = 4 d^2"),
          E(7, Fraction(512 // 8), "d_k for h=8"), E(9, Fraction(512 // 16), "d_k for h=16")),
        S('f1', '- $\\boldsymbol{W}_1 \\in', 4, E(3, Fraction(d * df), "W_1 512 x 2048")),
        S('f2', '- $\\boldsymbol{b}_1 \\in', 3, E(2, Fraction(df), "b_1")),
        S('f3', '- $\\boldsymbol{W}_2 \\in', 4, E(3, Fraction(df * d), "W_2 2048 x 512")),
        S('f4', '- $\\boldsymbol{b}_2 \\in', 3, E(2, Fraction(d), "b_2")),
        S('ft', '- **总计**', 2,
          E(0, Fraction(2 * d * df + df + d), "FFN total"), E(1, Fraction(2 * d * df + df + d, 10 ** 6), "FFN total in millions")),
        S('tm', '| 多头注意力参数量 |', 2, E(0, Fraction(4), "MHA parameters 4 d^2")),
        S('tf', '| FFN 参数量 |', 5,
          E(1, Fraction(8), "2 d d_f with d_f = 4d: 8 d^2"),
          W(3, Fraction(5), "linear term d_f + d with d_f = 4d: 5d, written 3d")),
        S('tl', '| 单层编码器参数 |', 6, E(4, Fraction(12), "4 d^2 + 8 d^2")),
        S('t6', '| 6 层编码器总参数 |', 7, E(1, Fraction(72), "6 x 12 d^2")),
    ]
    meta = {
        "doc": "zh_transformer_chapter6_selfattn_params.md",
        "source": "GitHub Markdown course notes with front matter title \"Transformer\", chapter 6 (本章导读, 手算自注意力完整示例, 多头注意力参数量计算, FFN 参数量, 本章计算要点速查); repository name not exposed by the search index (stored file id 58559927774). Kept: intro condensed, the scaling argument, the full hand-computed example (Step 1 folded into one sentence), MHA and FFN parameter counts and the first rows of the quick-reference table; dropped: LSTM, encoder/decoder/masking/BPE sections, complexity and comparison tables",
        "source_kind": "course notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with YAML front matter, $$ display and $ inline LaTeX (pmatrix, \\boldsymbol, \\approx, \\;), LaTeX thousands separators 32{,}768, a Markdown table with formulas, 'M' suffix for millions",
        "conventions": "X = [[1,0],[0,1],[1,1],[0,0]], W_Q = W_K = W_V = I, so S = X X^T and S' = S/sqrt2 exactly; 0.707 and 1.414 are 3-place displays of 1/sqrt2 and sqrt2, and every e^{...} is taken at the exact exponent (e^sqrt2 = 4.11325, so 4.113 is correct); softmax with natural exp; d = 512, h = 8, d_f = 2048 for the parameter counts; the speed table's FFN line assumes d_f = 4d. 19M (18.87M) is correct only as a rounding and is not listed. Restated copies of earlier results are not listed (none is wrong)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: Jupyter notebook self-attention with NumPy printouts (Furi5/DL_study)
# ---------------------------------------------------------------------------
def doc_d():
    rows = [[F('0.1'), F('0.2'), F('0.3'), F('0.4')], [F('0.5'), F('0.6'), F('0.7'), F('0.8')],
            [F('0.9'), F('1.0'), F('1.1'), F('1.2')], [F('1.3'), F('1.4'), F('1.5'), F('1.6')],
            [F('1.7'), F('1.8'), F('1.9'), F('2.0')], [F('2.1'), F('2.2'), F('2.3'), F('2.4')]]
    q = rows[1]
    sc = [sum(a * b for a, b in zip(q, r)) for r in rows]
    ss = [x / 2 for x in sc]
    w = softmax([mpf(x.numerator) / x.denominator for x in ss])
    out = [sum(w[i] * (mpf(rows[i][j].numerator) / rows[i][j].denominator) for i in range(6)) for j in range(4)]
    specs = [
        S('sc', 'scores [0.7', 6, *[E(j, sc[j], "Q[1] . K[%d]" % j) for j in range(6)]),
        S('dk', 'sqrt_dk 2.0', 1, E(0, Fraction(2), "sqrt(4)")),
        S('ss', 'scale_scores [', 6, *[E(j, ss[j], "scores[%d]/2" % j) for j in range(6)]),
        S('w', 'weights [', 6, *[E(j, w[j], "softmax(scale_scores)[%d]" % j) for j in range(6)]),
        S('o', 'output [', 4, *[E(j, out[j], "weights . V[:, %d]" % j) for j in range(4)]),
    ]
    meta = {
        "doc": "zh_selfattn_numpy_cat_notebook.md",
        "source": "github Furi5/DL_study:self_attention.ipynb (markdown and code cells with the stream output of In [45]; prose of the bullet list and of section 2 reworded, empty trailing cell dropped)",
        "source_kind": "notebook",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Markdown rendering of a Jupyter notebook: $$ LaTeX, Python code, NumPy array printouts without commas (padded '0.7 ', 7- and 8-decimal floats)",
        "conventions": "Q = K = V = the six given 4-d rows; scores = Q[1] . K^T, divided by sqrt(4) = 2, softmax with natural exp over the 6 scores, output = weights . V; NumPy prints up to 8 decimals and drops trailing zeros",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: Rust position-encoding module, Chinese //! doc comments
# ---------------------------------------------------------------------------
def doc_e():
    d = 512
    c = mpf(10000) ** (mpf(-2) / d)             # 1/10000^(2/512), angle of PE(1,2) and PE(1,3)
    specs = [
        S('w01', '//! 维度 0-1:   波长 = 2π', 3, E(2, Fraction(2), "wavelength of dims 0-1 in units of pi: 2*10000^0")),
        S('w23', '//! 维度 2-3:   波长 = 4π', 3,
          W(2, 2 * mpf(10000) ** (mpf(2) / d), "wavelength of dims 2-3 in units of pi: 2*10000^(2/512) = 2.07 (4 pi would need 10000^(2i/d) = 2)")),
        S('w510', '//! 维度 510-511: 波长 = 10000×2π', 4,
          W(2, mpf(10000) ** (mpf(510) / d), "wavelength of dims 510-511 in units of 2pi: 10000^(510/512) = 9646.6")),
        S('p00', '//!   PE(0,0) = sin(0) = 0.0', 4, E(3, Fraction(0), "PE(0,0)")),
        S('p01', '//!   PE(0,1) = cos(0) = 1.0', 4, E(3, Fraction(1), "PE(0,1)")),
        S('p02', '//!   PE(0,2) = sin(0) = 0.0', 4, E(3, Fraction(0), "PE(0,2)")),
        S('p03', '//!   PE(0,3) = cos(0) = 1.0', 4, E(3, Fraction(1), "PE(0,3)")),
        S('p10', '//!   PE(1,0) = sin(1/10000^0)', 6, E(5, mpmath.sin(1), "PE(1,0) = sin 1")),
        S('p11', '//!   PE(1,1) = cos(1/10000^0)', 6, E(5, mpmath.cos(1), "PE(1,1) = cos 1")),
        S('p12', '//!   PE(1,2) = sin(1/10000^(2/512))', 7,
          W(6, mpmath.sin(c), "PE(1,2) = sin(10000^(-2/512)) = sin(0.96466) (the code's (i/2)/d exponent would give 0.832)")),
        S('p13', '//!   PE(1,3) = cos(1/10000^(2/512))', 7,
          W(6, mpmath.cos(c), "PE(1,3) = cos(10000^(-2/512)) = cos(0.96466) (the code's (i/2)/d exponent would give 0.555)")),
    ]
    meta = {
        "doc": "zh_rust_position_encoding_doccomments.md",
        "source": "GitHub Rust source file with Chinese doc comments, module 「位置编码模块（Position Encoding）」 (struct PositionEncoding over ndarray::Array2<f32>, constants EMBEDDING_DIM/MAX_SEQ_LEN); repository name not exposed by the search index (stored file id 8945736796). Kept: module doc comment (prose reworded and shortened), struct and new(); dropped: get_encoding, apply_to_input and the experimental RelativePositionEncoding",
        "source_kind": "GitHub source code comments",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown wrapper around a ~~~rust block: //! and /// doc comments containing ```text blocks, π, ×, ^ for powers, ≈; Rust code",
        "conventions": "the doc comment's own formula PE(pos,2i) = sin(pos/10000^(2i/d)), PE(pos,2i+1) = cos(pos/10000^(2i/d)) with d = 512; the wavelength of dims 2i, 2i+1 is 2 pi 10000^(2i/d), literals before pi (2, 4) are read as multiples of pi and the one before ×2π (10000) as a multiple of 2 pi; the example's PE(1,2)/PE(1,3) use the printed angle 1/10000^(2/512). O(131k) (131072) and 524 KB (524288 bytes) are correct only as roundings and are not listed",
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
