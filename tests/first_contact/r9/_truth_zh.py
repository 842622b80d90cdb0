"""Independent true values for the Chinese (zh_) first-contact documents of round 9.

Standard library + mpmath only (mp.dps = 50).  Every listed number is located in its
document programmatically (an anchor string on its line + the index of the numeric token
on that line); the script asserts that the literal really stands at that line/column,
recomputes the true value from the document's exact inputs (decimal text read exactly as
fractions, transcendental values with mpmath) and checks the status:

  * "ok"    : the truth rounded half away from zero to the printed number of places
              (mantissa places for scientific notation such as 1.97e-11) equals the literal;
  * "wrong" : it does not; kind "slip" (fresh error) or "carried" (follows from, or repeats,
              an earlier wrong or rounded printed number; carried_from = that line).

Integer literals are exact claims (compared with a rational truth; against an irrational
truth only an exact hit counts) unless the entry is marked intround=True, used for integers
printed as rounded values ("57°", "7倍多"); these are judged at 0 places.

    python3 _truth_zh.py --write      # (re)write the zh_*.expect.json files
    python3 _truth_zh.py --check      # recompute and compare with the files (default)
    python3 _truth_zh.py --uncovered  # list numeric tokens that are not listed (review aid)
"""
import json
import os
import re
import sys
from decimal import Decimal
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))

# numbers as printed: optional unary sign '-' or U+2212 (not when it follows a digit, letter,
# closing bracket or dot, i.e. not a binary minus written without space), thousands groups
# "6,283,185", decimals, a trailing dot ("5."), and an optional exponent ("1.97e-11").
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:(?:,|\{,\})\d{3})*(?:\.\d*)?(?:e[-+]?\d+)?')


def F(x, d=1):
    return Fraction(x) / d


def M(x):
    """Fraction / int -> mpf"""
    x = Fraction(x)
    return mpf(x.numerator) / x.denominator


def is_exact(v):
    return isinstance(v, (int, Fraction))


def truth_str(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return mp.nstr(M(v), 20)
    return mp.nstr(v, 20)


def parse_literal(claimed):
    """-> (Decimal value, exponent of the last printed digit, is_integer_literal)"""
    lit = claimed.replace('{,}', '').replace(',', '').replace('\u2212', '-')
    if lit.endswith('.'):
        lit = lit[:-1]
    d = Decimal(lit)
    is_int = ('.' not in lit) and ('e' not in lit)
    return d, d.as_tuple().exponent, is_int


def rounds_to(claimed, v, intround=False):
    d, e, is_int = parse_literal(claimed)
    target_int = int(d.scaleb(-e))          # the printed digits as an integer at quantum 10^e
    if is_int and not intround:
        if is_exact(v):
            return Fraction(v) == Fraction(int(d))
        return abs(v - mpf(int(d))) < mpf(10) ** -40
    if is_exact(v):
        q = Fraction(v) / (Fraction(10) ** e)
        n = (abs(q) + Fraction(1, 2)).__floor__()
        n = n if q >= 0 else -n
        return n == target_int
    q = mpf(v) / mpf(10) ** e
    n = int(mpmath.floor(abs(q) + mpf('0.5')))
    n = n if q >= 0 else -n
    return n == target_int


class Spec:
    def __init__(self, label, anchor, ntok, entries):
        self.label, self.anchor, self.ntok, self.entries = label, anchor, ntok, entries


def S_(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what, lit=None, intround=False, cf=None, status=None):
    """an entry whose status is decided by the arithmetic itself: ok if the literal rounds
    from the truth, else wrong ('carried' from label cf, or 'slip' when cf is None).
    status, when given, is asserted."""
    return dict(idx=idx, truth=truth, what=what, lit=lit, intround=intround, cf=cf, expect=status)


def load(docname):
    return open(os.path.join(HERE, docname), encoding='utf-8').read().split('\n')


def find_line(lines, anchor, start):
    for i in range(start, len(lines)):
        if anchor in lines[i]:
            return i
    return None


def build(docname, specs):
    lines = load(docname)
    pos = 0
    where = {}
    pending = []
    for sp in specs:
        found = find_line(lines, sp.anchor, pos)
        assert found is not None, (docname, sp.label, sp.anchor)
        pos = found + 1
        assert sp.label not in where, (docname, sp.label)
        where[sp.label] = found + 1
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(lines[found])]
        assert len(toks) == sp.ntok, (docname, sp.label, len(toks), [t for t, _ in toks])
        for e in sp.entries:
            text, col = toks[e['idx']]
            pending.append((found + 1, col, text, e, sp.label))
    numbers = []
    seen = set()
    for line, col, text, e, label in pending:
        assert (line, col) not in seen, (docname, label, line, col)
        seen.add((line, col))
        assert lines[line - 1][col - 1:col - 1 + len(text)] == text
        if e['lit'] is not None:
            assert text == e['lit'], (docname, label, line, text, e['lit'])
        good = rounds_to(text, e['truth'], e['intround'])
        status = 'ok' if good else 'wrong'
        if e['expect'] is not None:
            assert status == e['expect'], (docname, label, line, col, text, truth_str(e['truth']), e['what'])
        rec = {"line": line, "column": col, "claimed": text, "status": status}
        if status == 'wrong':
            if e['cf'] is not None:
                rec["kind"] = "carried"
                rec["carried_from"] = where[e['cf']]
            else:
                rec["kind"] = "slip"
        else:
            assert e['cf'] is None, (docname, label, line, text, "ok entry with carried_from")
        rec["truth"] = truth_str(e['truth'])
        rec["what"] = e['what']
        numbers.append(rec)
    numbers.sort(key=lambda r: (r['line'], r['column']))
    return numbers


def softmax(xs):
    ex = [mpmath.exp(x) for x in xs]
    tot = sum(ex)
    return [v / tot for v in ex]


# ---------------------------------------------------------------------------


def R(s):
    return Fraction(s)


def angle_deg(rad):
    return rad * 180 / mpmath.pi


# ---------------------------------------------------------------------------
# Document 1: 「Transformer 深度拆解（二）」 hand-computed QK^T on a 4 x 3 example
# ---------------------------------------------------------------------------
def doc_selfattn():
    Q = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]
    K = [[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]]
    S = [[sum(q[t] * k[t] for t in range(3)) for k in K] for q in Q]
    r3 = mpmath.sqrt(3)
    SS = [[mpf(v) / r3 for v in row] for row in S]
    specs = []
    for i in range(4):
        lit = [['1', '1', '1', '1'], ['0', '1', '1', '0'], ['1', '1', '1', '0'], ['0', '1', '0', '1']][i]
        ents = []
        for j in range(4):
            st = 'wrong' if (i, j) == (2, 2) else 'ok'
            what = "(Q K^T)[%d][%d] = Q%d . K%d" % (i + 1, j + 1, i + 1, j + 1)
            if st == 'wrong':
                what += " = [1,1,0].[1,1,0] = 2"
            ents.append(E(1 + j, S[i][j], what, lit[j], status=st))
        specs.append(S_('s%d' % i, 'Q%d →   [' % (i + 1), 6, *ents))
    for j in range(4):
        specs.append(S_('d%d' % j, '- Q1·K%d = ' % (j + 1), 9, E(8, S[0][j], "Q1 . K%d" % (j + 1), '1', status='ok')))
    specs.append(S_('rt', '这里 d_k = 3，所以 √d_k ≈ 1.73', 3,
                    E(1, r3, "sqrt(3) = 1.7320508", '1.73', status='ok'),
                    E(2, r3, "sqrt(3) restated as the divisor", '1.73', status='ok')))
    anchors = ['scaled_scores ≈ [[0.58, 0.58, 0.58, 0.58],', '[0,    0.58, 0.58, 0   ],',
               '[0.58, 0.58, 0.58, 0   ],', '[0,    0.58, 0,    0.58]]']
    for i in range(4):
        ents = []
        for j in range(4):
            lit = '0' if S[i][j] == 0 else '0.58'
            if (i, j) == (2, 2):
                ents.append(E(j, SS[i][j], "scaled score [3][3] = 2/sqrt(3) = 1.1547 (0.58 = 1/1.73 follows the wrong score 1)",
                              lit, cf='s2', status='wrong'))
            else:
                ents.append(E(j, SS[i][j] if S[i][j] else 0, "scaled score [%d][%d] = %d/sqrt(3)" % (i + 1, j + 1, S[i][j]),
                              lit, status='ok'))
        specs.append(S_('ss%d' % i, anchors[i], 4, *ents))
    specs += [
        S_('e', '- 每一项的期望 E[qᵢkᵢ]', 3, E(2, 0, "0 x 0", '0', status='ok')),
        S_('v', '- 每一项的方差 Var(qᵢkᵢ)', 3, E(2, 1, "1 x 1", '1', status='ok')),
        S_('sd', '当 d_k = 64 时，点积的标准差是 8', 5,
           E(1, 8, "sqrt(64)", '8', status='ok'),
           E(3, mpmath.sqrt(512), "sqrt(512) = 22.627", '22.6', status='ok'),
           E(4, 1, "d_k / d_k", '1', status='ok')),
        S_('n2', '序列长度 n 翻倍，计算量翻 4 倍', 1, E(0, 4, "(2n)^2 / n^2", '4', status='ok')),
    ]
    meta = {
        "doc": "zh_selfattn_qk_scores_four_words.md",
        "source": "GitHub Markdown article 「Transformer 深度拆解（二）：Self-Attention——每行代码都在干嘛」 (part 2 of a 6-part Chinese series 「Transformer 深度拆解」, front matter 难度/分类/标签); repository name not exposed by the search index (stored file id 52124035788). Kept: the Q/K/V intuition (condensed), section 三 (Q and K matrices, the scores matrix, the Q1 dot-product lines, the scaled-score matrix, the Softmax/×V steps), section 四 (variance argument with the d_k = 64 / 512 numbers), the Softmax/weighted-sum paragraph and two interview answers. Dropped: the three analogies, causal/padding-mask sections, the long PyTorch implementation and the misconception list; prose reworded",
        "source_kind": "tutorial article (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "plain code blocks with row-labelled matrices ('Q3 →   [ 1    1    1    0  ]', ← comments), bold dot-product results 'Q1·K1 = 1×1 + 0×0 + 1×0 = **1**', '≈' matrix of scaled scores, Unicode subscripts (qᵢkᵢ, √d_k), '~22.6'",
        "conventions": "row-vector convention scores = Q K^T with the printed Q and K (4 tokens, d_k = 3), scaled by sqrt(3). Q3 = [1,1,0] and K3 = [1,1,0] give Q3.K3 = 2, so the printed 1 is wrong (slip) and the scaled 0.58 at [3][3] (true 2/sqrt(3) = 1.155) is carried from it; all other entries match. Var/std statements judged as sqrt(d_k) for d_k = 64 and 512; 'd_k/d_k = 1' and 'n 翻倍, 计算量翻 4 倍' ((2n)^2/n^2) listed. Not listed: the Q and K entries and row/column labels (inputs), the factors inside the dot-product expansions (1×1, 0×0 ...), d_k = 3, 4 tokens, the illustrative 60%/30%/10% split, 'sum to 1' normative statements, the digits of E[qᵢkᵢ]/E[qᵢ] expressions that are inputs (mean 0, variance 1)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 2: MiniMind knowledge base (RMSNorm count, RoPE frequencies, softmax weights)
# ---------------------------------------------------------------------------
def doc_minimind():
    base = mpf(10) ** 6
    freq = lambda i: base ** (mpf(-2 * i) / 64)
    period = lambda i: 2 * mpmath.pi / freq(i)
    r96 = mpmath.sqrt(96)
    sc = [['1.1', '0.6', '0.4'], ['0.6', '1.0', '0.8'], ['0.4', '0.8', '1.2']]
    W1 = [softmax([M(R(v)) / r96 for v in row]) for row in sc]
    lit1 = [['0.35', '0.32', '0.33'], ['0.25', '0.15', '0.60'], ['0.20', '0.30', '0.50']]
    sc2 = [['5.2', '3.1', '2.8'], ['3.0', '4.5', '6.2'], ['2.1', '5.8', '7.3']]
    W2 = [softmax([M(R(v)) for v in row]) for row in sc2]
    lit2 = [['0.59', '0.24', '0.17'], ['0.12', '0.24', '0.64'], ['0.05', '0.27', '0.68']]
    ang = 2 * mpmath.pi / base
    names = ['我', '爱', '编程']

    def wrow(label, anchor, ntok, i0, W, lits, row, what, cf_label=None):
        ents = []
        for j in range(3):
            good = rounds_to(lits[row][j], W[row][j])
            cf = None
            if not good and cf_label is not None:
                cf = cf_label
            ents.append(E(i0 + j, W[row][j], "%s[%d][%d] = %s" % (what, row, j, mp.nstr(W[row][j], 6)),
                          lits[row][j], cf=cf, status='ok' if good else 'wrong'))
        return ents

    specs = [
        S_('rms16', '- 总共有 **16 个 RMSNorm**', 1, E(0, 2 * 8, "2 RMSNorm per block x 8 blocks", '16', status='ok')),
        S_('rel', 'cos((8-5)θ) = A · B · cos(3θ)', 3, E(2, 8 - 5, "relative distance 8 - 5", '3', status='ok')),
        S_('rel2', '- **只依赖相对距离3！**', 1, E(0, 3, "relative distance restated", '3', status='ok')),
        S_('f0', '频率0（高频）：每 6.3 个token转一圈', 2,
           E(1, period(0), "period of pair 0: 2*pi / 1 = 6.2832 tokens", '6.3', status='ok')),
        S_('f15', '频率15（中频）：每 1,000 个token转一圈', 2,
           E(1, period(15), "period of pair 15: 2*pi * 1e6^(30/64) = 4080.2 tokens", '1,000', status='wrong')),
        S_('f31', '频率31（低频）：每 6,283,185 个token转一圈', 2,
           E(1, period(31), "period of pair 31: 2*pi * 1e6^(62/64) = 4,080,185 tokens (6,283,185 = 2*pi*1e6 would need exponent 64/64)",
             '6,283,185', status='wrong')),
        S_('hd96', 'scaled_scores = scores / sqrt(head_dim)  # head_dim = 96', 1,
           E(0, 96, "head_dim = 768 / 8 restated", '96', status='ok')),
        S_('w0', '# 我   [0.35, 0.32, 0.33]', 3, *wrow('w0', None, 3, 0, W1, lit1, 0, "softmax(scores/sqrt(96))")),
        S_('w1', '# 爱   [0.25, 0.15, 0.60]', 3, *wrow('w1', None, 3, 0, W1, lit1, 1, "softmax(scores/sqrt(96))")),
        S_('w2', '# 编程 [0.20, 0.30, 0.50]', 3, *wrow('w2', None, 3, 0, W1, lit1, 2, "softmax(scores/sqrt(96))")),
    ]
    for r in range(3):
        specs.append(S_('o%d' % r, '# output[%d] = ' % r, 4,
                        *wrow(None, None, 4, 1, W1, lit1, r, "weight restated in output[%d]" % r, cf_label='w%d' % r)))
    specs += [
        S_('hd', 'head_dim = hidden_size / num_heads = 96', 1, E(0, 96, "768 / 8", '96', status='ok')),
        S_('hd2', '- 每个头的维度：`head_dim = hidden_size / num_heads = 768 / 8 = 96`', 3,
           E(2, 96, "768 / 8", '96', status='ok')),
        S_('cat', '- 合并后的维度：`8 × 96 = 768`', 3, E(2, 768, "8 x 96", '768', status='ok')),
    ]
    anchors2 = ['  [0.59, 0.24, 0.17],  # 和 = 1.0 ✅', '  [0.12, 0.24, 0.64],  # 和 = 1.0 ✅', '  [0.05, 0.27, 0.68],  # 和 = 1.0 ✅']
    for r in range(3):
        ents = wrow(None, None, 4, 0, W2, lit2, r, "softmax(%s)" % str(sc2[r]))
        ents.append(E(3, 1, "sum of the softmax row", '1.0', status='ok'))
        specs.append(S_('x%d' % r, anchors2[r], 4, *ents))
    specs += [
        S_('q8a', '- 高频率（频率0）：每 6.3 个token转一圈', 2, E(1, period(0), "period of pair 0 restated", '6.3', status='ok')),
        S_('q8b', '- 低频率（频率31）：每 6,283,185 个token转一圈', 2,
           E(1, period(31), "period of pair 31 restated (true 4,080,185)", '6,283,185', cf='f31', status='wrong')),
        S_('a0', '位置0的角度: 0.000000000000...', 2, E(1, 0, "angle at position 0", '0.000000000000', status='ok')),
        S_('a1', '位置1的角度: 0.000006283185...', 2, E(1, ang, "angle at position 1 = 2*pi/1e6 = 6.2831853e-6", '0.000006283185', status='ok')),
        S_('da', '角度差: 6.28e-6', 1, E(0, ang, "angle difference 2*pi/1e6", '6.28e-6', status='ok')),
        S_('c0', 'cos(位置0) = 1.000000000000000', 2, E(1, 1, "cos(0)", '1.000000000000000', status='ok')),
        S_('c1', 'cos(位置1) = 0.999999999980261', 2, E(1, mpmath.cos(ang), "cos(2*pi/1e6) = 0.99999999998026079", '0.999999999980261', status='ok')),
        S_('dc', '差值 = 1.97e-11', 2, E(0, 1 - mpmath.cos(ang), "1 - cos(2*pi/1e6) = 1.9739e-11", '1.97e-11', status='ok')),
        S_('f0c', 'cos(位置0) = 1.0', 2, E(1, 1, "cos(0) in float32", '1.0', status='ok')),
        S_('f1c', 'cos(位置1) = 1.0  ← 完全相同！', 2, E(1, mpmath.cos(ang), "cos(2*pi/1e6) rounded (float32 gives 1.0)", '1.0', status='ok')),
        S_('hf', '- **高频率**（频率0）：每 6.3 个 token 转一圈', 2, E(1, period(0), "period of pair 0 restated", '6.3', status='ok')),
        S_('d57', '  - 相邻位置角度差：57.3°', 1, E(0, angle_deg(freq(0)), "1 rad in degrees = 57.2958", '57.3', status='ok')),
        S_('lf', '- **低频率**（频率31）：每 6,283,185 个 token 转一圈', 2,
           E(1, period(31), "period of pair 31 restated (true 4,080,185)", '6,283,185', cf='f31', status='wrong')),
        S_('p0', '位置0: (0°,  0°,  0°,  ..., 0°)', 6,
           *[E(k, 0, "rotation angle of pair %s at position 0" % ['0', '1', '2', '31'][k - 1], '0', status='ok') for k in (1, 2, 3, 4)]),
        S_('p1', '位置1: (57°, 37°, 24°, ..., 0°)', 5,
           E(1, angle_deg(freq(0)), "angle of pair 0 at position 1 = 57.30 deg", '57', intround=True, status='ok'),
           E(2, angle_deg(freq(1)), "angle of pair 1 at position 1 = 37.21 deg", '37', intround=True, status='ok'),
           E(3, angle_deg(freq(2)), "angle of pair 2 at position 1 = 24.16 deg", '24', intround=True, status='ok'),
           E(4, angle_deg(freq(31)), "angle of pair 31 at position 1 = 8.8e-5 deg", '0', intround=True, status='ok')),
        S_('p10', '位置10: (213°, 12°, 242°, ..., 0°)', 5,
           E(1, mpmath.fmod(angle_deg(10 * freq(0)), 360), "10 rad mod 360 deg = 212.96", '213', intround=True, status='ok'),
           E(2, mpmath.fmod(angle_deg(10 * freq(1)), 360), "6.4938 rad mod 360 deg = 12.07", '12', intround=True, status='ok'),
           E(3, mpmath.fmod(angle_deg(10 * freq(2)), 360), "4.2170 rad mod 360 deg = 241.61", '242', intround=True, status='ok'),
           E(4, angle_deg(10 * freq(31)), "angle of pair 31 at position 10 = 8.8e-4 deg", '0', intround=True, status='ok')),
        S_('q13', 'MiniMind 有 8 个 Block，所以总共有 16 个 RMSNorm', 3, E(2, 16, "2 x 8 restated", '16', status='ok')),
    ]
    meta = {
        "doc": "zh_minimind_notes_softmax_rope_frequencies.md",
        "source": "github joyehuang/minimind-notes:knowledge_base.md (commit 0117e0b0, 「MiniMind 知识库」, last updated 2025-11-07). Kept: 1.4 RMSNorm count, 2.3 RoPE relative-position sketch, 2.4 multi-frequency block and formula, 3.5 attention flow code block, 3.7 multi-head dimension lines, 3.10 softmax example, Q8, Q11 (float32 precision block and the angle table) and Q13; code blocks and numeric lines verbatim. Dropped: 1.1-1.3 (the measured '1.04 → 0.016' and '快 7.7 倍' claims), 2.1-2.2, 2.5, 3.1-3.4, 3.6, 3.8-3.9, section 4 (FeedForward), 5, the other Q&A items and the formula summary; prose condensed and reworded",
        "source_kind": "personal study notes (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with Python-style code blocks holding commented matrices ('# 我   [0.35, 0.32, 0.33]'), list literals 'weights = [[0.59, 0.24, 0.17], ...]  # 和 = 1.0 ✅', thousands-separated token counts ('每 6,283,185 个token转一圈'), degree tuples '(57°, 37°, 24°, ..., 0°)', 15-decimal cosines, e-notation (6.28e-6, 1.97e-11)",
        "conventions": "RoPE pair frequencies freqs[i] = rope_base^(-2i/dim) with rope_base = 1e6 and dim = 64 (the formula and values printed in the notes); the period of pair i is 2*pi/freqs[i]: pair 0 -> 6.283 (6.3 ok), pair 15 -> 4080.2 (not 1,000), pair 31 -> 4,080,185 (not 6,283,185; repeats are carried). Angles in the degree tuples are pos * freqs[i] in degrees reduced mod 360 and judged at 0 places. The 3.5 weights are judged as row softmax of the printed scores divided by sqrt(head_dim) = sqrt(96) (true rows [0.347, 0.330, 0.323], [0.327, 0.340, 0.333], [0.320, 0.333, 0.347]); the output[i] comment lines restate them (wrong restatements carried). The 3.10 weights are softmax of the printed 'scores' rows (already labelled as scaled), e.g. softmax([5.2, 3.1, 2.8]) = [0.824, 0.101, 0.075]; '和 = 1.0' is the row sum. Q11 uses theta = 2*pi/1e6 as given. Not listed: section/step/question numbers, the score matrices, hidden_size 768, num_heads 8, head_dim = 64 and rope_base (inputs), '2 个 RMSNorm' and '8 个 Block' (inputs), 32 frequencies and i = 0..31, '100 万', float32 '6-7 位', the argument sqrt(96), 'dim=-1', the normative '每一行加起来 = 1'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 3: activation-function notes, softmax section
# ---------------------------------------------------------------------------
def doc_softmax_notes():
    e = mpmath.e
    p = softmax([mpf(1), mpf(2), mpf(3)])
    e3, e5 = mpmath.exp(3), mpmath.exp(5)
    specs = [
        S_('ex', '$e^1 ≈ 2.72, e^2 ≈ 7.39, e^3 ≈ 20.09$', 6,
           E(1, e, "e^1 = 2.71828", '2.72', status='ok'),
           E(3, mpmath.exp(2), "e^2 = 7.38906", '7.39', status='ok'),
           E(5, e3, "e^3 = 20.0855", '20.09', status='ok')),
        S_('sum', '    - 总和 ≈ 30.2', 1, E(0, e + mpmath.exp(2) + e3, "e + e^2 + e^3 = 30.1929", '30.2', status='ok')),
        S_('out', '    - 输出 ≈ [0.09, 0.24, 0.67]', 3,
           *[E(k, p[k], "softmax([1,2,3])[%d] = %s" % (k, mp.nstr(p[k], 6)), ['0.09', '0.24', '0.67'][k], status='ok') for k in range(3)]),
        S_('num', '1. 分子 $e^{a_j}$', 9,
           E(3, e3, "e^3 = 20.0855 (2 places: 20.09; 20.08 is truncated)", '20.08', status='wrong'),
           E(6, e5, "e^5 = 148.4132", '148.41', status='ok'),
           E(7, 2, "5 - 3", '2', status='ok'),
           E(8, e5 / e3, "e^5 / e^3 = e^2 = 7.39 ('差了7倍多')", '7', intround=True, status='ok')),
        S_('den', '2. 分母 $\\sum_{k=1}^n e^{a_k}$', 9,
           E(4, e5, "e^5 restated", '148.41', status='ok'),
           E(5, e3, "e^3 restated (true 20.09)", '20.08', cf='num', status='wrong'),
           E(6, e5 + e3, "e^5 + e^3 = 168.4987 (168.49 = 148.41 + 20.08)", '168.49', cf='num', status='wrong'),
           E(7, e5 / (e5 + e3), "softmax([5,3])[0] = 0.8808", '0.88', status='ok'),
           E(8, e3 / (e5 + e3), "softmax([5,3])[1] = 0.1192", '0.12', status='ok')),
    ]
    meta = {
        "doc": "zh_softmax_exp_amplify_activation_notes.md",
        "source": "GitHub Python file holding Chinese Markdown lecture notes in string-returning functions (basic(), progress(), activation(), cls_forward_code(), reg_forward_code(); docstring 「页面1用到的所有知识点」, apparently the text pages of a small visual learning app); repository name not exposed by the search index (stored file id 49073171964). Kept: the softmax part of activation() (definition, steps, properties, the x = [1, 2, 3] example, the 'softmax例子' explanation with e^3/e^5) and a shortened version of its summary table. Dropped: the sigmoid/tanh/ReLU sections, the training-code strings and most table columns; prose reworded, numbers verbatim",
        "source_kind": "study notes embedded in Python source (GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown list with inline LaTeX ($e^1 ≈ 2.72, e^2 ≈ 7.39, e^3 ≈ 20.09$, $e^3≈20.08$), '≈' approximations, bracketed probability vectors '[0.09, 0.24, 0.67]', Chinese phrasing '差了7倍多', a pipe table of activation ranges",
        "conventions": "natural exponential; softmax over x = [1, 2, 3] and over the two values a = [5, 3]. e^3 = 20.0855 is printed 20.09 in the first example but 20.08 (truncated) in the second, and the denominator 168.49 = 148.41 + 20.08 (true 168.4987 -> 168.50) is carried from it; the probabilities 0.88/0.12 are right. '差了7倍多' is judged as e^5/e^3 = 7.39 at 0 places, '差 2' as 5 - 3. Not listed: the input vectors, list/section numbers, ranges (0,1), (-1,1), [0,+∞), normative 'sum is 1' statements, a_j = 3 / 5 (inputs)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 4: LeetGPU RMS Normalization solution (CUDA), N = 4 example and sizing
# ---------------------------------------------------------------------------
def doc_rmsnorm():
    x = [1, 2, 3, 4]
    sq = [v * v for v in x]
    ms = Fraction(sum(sq), 4)
    rms = mpmath.sqrt(M(ms + R('1e-5')))
    y = [v / rms for v in x]
    inv = 1 / rms
    nbytes = 100000 * 4
    bw = Fraction(3 * nbytes, 10 ** 9) / (R('0.04') / 1000)

    def ylist(start):
        return [E(start + k, y[k], "x_%d / rms = %s" % (k + 1, mp.nstr(y[k], 7)), ['0.365', '0.730', '1.095', '1.461'][k], status='ok')
                for k in range(4)]

    specs = [
        S_('ulp', '> ⚠️ **坑二：必须 double 累加**', 6,
           E(1, 100 ** 2, "100^2 (largest x^2)", '1e4', status='ok'),
           E(3, 10 ** 4 * 10 ** 5, "1e4 x 1e5 summands", '1e9', status='ok'),
           E(4, 2 ** (29 - 23), "float32 spacing in [2^29, 2^30) = 2^6", '64', status='ok')),
        S_('sq', 'Σx² = 1+4+9+16 = 30', 5,
           *[E(k, sq[k], "%d^2" % x[k], str(sq[k]), status='ok') for k in range(4)],
           E(4, sum(sq), "1 + 4 + 9 + 16", '30', status='ok')),
        S_('rms', 'rms = √(30/4 + 1e-5) = √7.5 ≈ 2.7386', 5,
           E(0, sum(sq), "sum of squares restated", '30', status='ok'),
           E(3, ms + R('1e-5'), "30/4 (+ 1e-5) = 7.50001", '7.5', status='ok'),
           E(4, rms, "sqrt(7.5 + 1e-5) = 2.738615", '2.7386', status='ok')),
        S_('y', 'y = [1/2.7386, 2/2.7386, 3/2.7386, 4/2.7386]', 12,
           *[E(2 * k + 1, rms, "rms restated", '2.7386', status='ok') for k in range(4)], *ylist(8)),
        S_('nw', '#define NUM_WARPS (BLOCK_SIZE / WARP_SIZE)  // 8', 1, E(0, 256 // 32, "256 / 32", '8', status='ok')),
        S_('bw25', '> 💡 **与 LayerNorm 对比**', 5, E(4, Fraction(1, 4) * 100, "1 - 3/4 of the memory traffic (3 input reads + 1 write -> 2 + 1)", '25', status='ok')),
        S_('tab', '| global 读 input | 3 遍 | 2 遍（省 1 遍） |', 3, E(2, 3 - 2, "3 - 2 passes", '1', status='ok')),
        S_('wr', '| **warp 归约** |', 8,
           E(1, 32 // 2, "WARP_SIZE / 2", '16', status='ok'), E(2, 8, "16 / 2", '8', status='ok'),
           E(3, 4, "8 / 2", '4', status='ok'), E(4, 2, "4 / 2", '2', status='ok'), E(5, 1, "2 / 2", '1', status='ok'),
           E(6, 5, "number of halvings 16→1 (log2 32)", '5', status='ok')),
        S_('wr2', '| **warp 间汇总** |', 4, E(1, 256 // 32, "warps per block", '8', status='ok')),
        S_('t1', '| grid-stride 平方累加 |', 8, *[E(4 + k, sq[k], "%d^2" % x[k], str(sq[k]), status='ok') for k in range(4)]),
        S_('t2', '| block_reduce_sum | `1+4+9+16` | `total_sq=30` |', 5,
           *[E(k, sq[k], "%d^2 restated" % x[k], str(sq[k]), status='ok') for k in range(4)],
           E(4, sum(sq), "total_sq", '30', status='ok')),
        S_('t3', '| rms | `sqrt(30/4 + 1e-5) = sqrt(7.5)` |', 5,
           E(0, sum(sq), "total_sq restated", '30', status='ok'),
           E(3, ms + R('1e-5'), "30/4 + 1e-5", '7.5', status='ok'),
           E(4, rms, "rms", '2.7386', status='ok')),
        S_('t4', '| inv_rms | `1/2.7386` | `≈0.3651` |', 3,
           E(1, rms, "rms restated", '2.7386', status='ok'), E(2, inv, "1/rms = 0.365148", '0.3651', status='ok')),
        S_('t5', '| 写回 | `1·0.3651', 12, *[E(2 * k + 1, inv, "inv_rms restated", '0.3651', status='ok') for k in range(4)], *ylist(8)),
        S_('mb', '参考输出（RTX 5090，`N=100000`，约 0.4 MB）', 3, E(2, Fraction(nbytes, 10 ** 6), "100000 x 4 bytes in MB", '0.4', status='ok')),
        S_('kb', 'N=100000  (390.6 KB)', 2, E(1, Fraction(nbytes, 1024), "400000 / 1024 = 390.625", '390.6', status='ok')),
        S_('bw', 'effective bandwidth: 28.6 GB/s', 1,
           E(0, bw, "3 x 400000 bytes / 1e9 / (0.04 ms / 1e3) = 30.0 GB/s with the printed kernel time", '28.6', status='wrong')),
        S_('mb2', '数据量只有 0.4 MB 左右', 1, E(0, Fraction(nbytes, 10 ** 6), "data size restated", '0.4', status='ok')),
        S_('ai', '| **算术强度** |', 6,
           E(1, 3 * 4, "(2 reads + 1 write) x 4 bytes", '12', status='ok'),
           E(2, Fraction(3, 12), "3 FLOP / 12 B", '0.25', status='ok')),
        S_('ws', '| **warp shuffle 步数** |', 3, E(1, 5, "log2 32", '5', status='ok'), E(2, 2 * 5, "2 stages x 5", '10', status='ok')),
        S_('gr', '| **global 读 input** |', 3, E(2, 3 - 2, "3 - 2 passes", '1', status='ok')),
    ]
    meta = {
        "doc": "zh_rmsnorm_leetgpu_cuda_solution.md",
        "source": "GitHub Markdown solution write-up 「LeetGPU RMS Normalization 题解」 (LeetGPU #50, CUDA interview-prep series that refers to '#4 Reduction' and images under ../../../images/cuda_rms_normalization_*.svg); repository name not exposed by the search index (stored file id 63218703671). Kept: header, problem statement and constraints (condensed), the two pitfalls, the N = 4 example, the two-stage design table, the #define block, the LayerNorm comparison, the main() printf lines (shortened), the code-detail rows for warp reduction, the worked-example table, the reference output block and part of the complexity table. Dropped: the full CUDA kernels and submit version, ncu section, optimisation list, interview Q&A and the exercise list; prose reworded",
        "source_kind": "coding-problem solution (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with display LaTeX for rms, text blocks 'Σx² = 1+4+9+16 = 30', 'rms = √(30/4 + 1e-5) = √7.5 ≈ 2.7386', pipe tables with inline code ('`local_sq=[1,4,9,16]`', '`≈0.3651`'), C/CUDA snippets with '// 8' comments, a printf reference output block, e-notation magnitudes (1e4, 1e9, 1e-5), '~3 FLOP / 12B ≈ 0.25 FLOP/Byte'",
        "conventions": "rms = sqrt(mean(x^2) + eps) over the whole array with eps = 1e-5 (the problem's formula); for x = [1,2,3,4] rms = sqrt(7.50001) = 2.738615 and y = x/rms = [0.365148, 0.730296, 1.095444, 1.460593] (1.461 is right; 4 x 0.3651 = 1.4604 would not be). Sizes: 100000 float32 = 400000 bytes = 0.4 MB = 390.625 KB. The effective bandwidth is judged with the code's formula (3.0 * bytes)/1e9/(ms/1e3) and the printed 'kernel time: 0.04 ms' -> 30.0 GB/s, so 28.6 is wrong (the printed time is itself a rounded measurement; 28.6 GB/s would need 0.042 ms, which does not print as 0.04 at the printf's %.3f either); 'max diff 1.42e-07' is a measurement and not listed. '省约 25% 带宽' is judged as the traffic saving 1 - 3/4 (input read 3 -> 2 times plus one write). float32 ulp at ~1e9 is 2^6 = 64. Not listed: N, gamma, beta, eps, tolerances, block/grid sizes 256/4096, LeetGPU #50, RTX 5090, 1e5 summands, -100..100, pass counts given in the tables (3 遍/2 遍, 2 次/1 次), the kernel time 0.04 ms, exponents in 1², the fraction '1/4' in '省 1/4 带宽' (restated as 25% later), 'shared[0..7]' indices",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 5: PyTorch primer of a MiniMind course (tensor ops, autograd, cross-entropy)
# ---------------------------------------------------------------------------
def doc_pytorch():
    xs, ys = [1, 2, 3], [4, 5, 6]
    logits = [R('2.0'), R('1.0'), R('0.5'), R('0.1')]
    ce = mpmath.log(sum(mpmath.exp(M(z)) for z in logits)) - M(logits[0])
    grad = 2 * 3 + 2
    specs = [
        S_('add', 'print(x + y)       # tensor([5., 7., 9.])', 3,
           *[E(k, xs[k] + ys[k], "x + y [%d]" % k, ['5.', '7.', '9.'][k], status='ok') for k in range(3)]),
        S_('mul', 'print(x * y)       # tensor([4., 10., 18.])', 3,
           *[E(k, xs[k] * ys[k], "x * y [%d]" % k, ['4.', '10.', '18.'][k], status='ok') for k in range(3)]),
        S_('pow', 'print(x ** 2)      # tensor([1., 4., 9.])', 4,
           *[E(1 + k, xs[k] ** 2, "x**2 [%d]" % k, ['1.', '4.', '9.'][k], status='ok') for k in range(3)]),
        S_('sum', 'print(x.sum())     # tensor(6.)', 1, E(0, 6, "1 + 2 + 3", '6.', status='ok')),
        S_('mean', 'print(x.mean())    # tensor(2.)', 1, E(0, 2, "mean of [1, 2, 3]", '2.', status='ok')),
        S_('max', 'print(x.max())     # tensor(3.)', 1, E(0, 3, "max of [1, 2, 3]", '3.', status='ok')),
        S_('inf', 'z = x.view(2, -1, 4)         # -1 的位置自动推算为 3', 5, E(4, Fraction(2 * 12, 2 * 4), "24 elements / (2 x 4)", '3', status='ok')),
        S_('g', '# dy/dw = 2w + 2 = 2×3 + 2 = 8', 6, E(5, grad, "2 x 3 + 2", '8', status='ok')),
        S_('gp', 'print(w.grad)   # tensor(8.)', 1, E(0, grad, "w.grad", '8.', status='ok')),
        S_('gr', '梯度: dL/dw = 8.0', 1, E(0, grad, "gradient restated", '8.0', status='ok')),
        S_('upd', '     w_new = 3.0 - 0.01 × 8.0 = 2.92', 4,
           E(2, grad, "gradient restated", '8.0', status='ok'),
           E(3, 3 - R('0.01') * grad, "3.0 - 0.01 x 8.0", '2.92', status='ok')),
        S_('ce', 'print(loss)   # tensor(0.4402)', 1,
           E(0, ce, "CrossEntropyLoss(logits [2.0, 1.0, 0.5, 0.1], target 0) = logsumexp - 2.0 = 0.55422", '0.4402', status='wrong')),
        S_('l09', '- 预测概率 = 0.9 → 损失 = -log(0.9) ≈ 0.11', 3, E(2, -mpmath.log(M(R('0.9'))), "-ln 0.9 = 0.10536", '0.11', status='ok')),
        S_('l01', '- 预测概率 = 0.1 → 损失 = -log(0.1) ≈ 2.30', 3, E(2, -mpmath.log(M(R('0.1'))), "-ln 0.1 = 2.30259", '2.30', status='ok')),
        S_('id', '输入 token ID（0~6399）', 5, E(3, 6400 - 1, "largest token ID = vocab_size - 1", '6399', status='ok')),
    ]
    meta = {
        "doc": "zh_pytorch_primer_cross_entropy_minimind.md",
        "source": "GitHub Markdown lesson 「L03 - PyTorch 快速上手」 of a Chinese MiniMind course (lessons L01-L04, next lesson 「L04 - MiniMind 项目导览」); repository name not exposed by the search index (stored file id 52402774485). Kept: the tensor-operation code block, the view/reshape block (prints dropped), the autograd block and the w_new update, the nn.Embedding block, the CrossEntropyLoss block with its printed loss and the two -log examples, a shortened training loop and one self-test answer. Dropped: goals/prerequisites, the tensor-rank table, matrix-multiplication shapes, nn.Module and nn.Linear sections, optimiser sections, the character-level demo, GPU table and interview answers; prose reworded",
        "source_kind": "course lesson (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Python code blocks with PyTorch print comments ('# tensor([4., 10., 18.])', '# tensor(8.)', '# tensor(0.4402)') using trailing-dot floats, a plain-text update block 'w_new = 3.0 - 0.01 × 8.0 = 2.92', display LaTeX for the cross-entropy formula, arrow bullets '预测概率 = 0.9 → 损失 = -log(0.9) ≈ 0.11'",
        "conventions": "PyTorch semantics: element-wise ops on x = [1, 2, 3], y = [4, 5, 6]; view(2, -1, 4) of 24 elements infers 3; d/dw (w^2 + 2w) at w = 3 is 8; one SGD step with lr = 0.01. nn.CrossEntropyLoss on logits [2.0, 1.0, 0.5, 0.1] with target 0 is -log softmax(logits)[0] = ln(e^2 + e^1 + e^0.5 + e^0.1) - 2 = 0.55422, so the printed tensor(0.4402) is wrong (slip). log is the natural logarithm (PyTorch). Not listed: tensor inputs, view/randn shape arguments (2, 12, 3, 4), w = 3.0, lr = 0.01, the polynomial exponents and coefficients, 6400/768/234 (inputs), probabilities 0.9/0.1 (inputs), the lesson number 03, dim arguments -1, the index range start 0",
    }
    return meta, specs


DOCS = [doc_selfattn, doc_minimind, doc_softmax_notes, doc_rmsnorm, doc_pytorch]


def expectation(fn):
    meta, specs = fn()
    out = dict(meta)
    out["numbers"] = build(meta["doc"], specs)
    return out


def uncovered(exp):
    lines = load(exp["doc"])
    listed = {(r["line"], r["column"]) for r in exp["numbers"]}
    print("== %s" % exp["doc"])
    for i, l in enumerate(lines, 1):
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(l)]
        rest = [t for t, c in toks if (i, c) not in listed]
        if rest:
            print("  %4d: %s    | %s" % (i, ' '.join(rest), l.strip()[:70]))


def main(argv):
    mode = argv[1] if len(argv) > 1 else '--check'
    assert mode in ('--check', '--write', '--uncovered'), mode
    bad = 0
    for fn in DOCS:
        exp = expectation(fn)
        name = os.path.join(HERE, exp["doc"].rsplit('.', 1)[0] + '.expect.json')
        if mode == '--uncovered':
            uncovered(exp)
            continue
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
        print("%-48s %3d numbers, %2d ok, %2d wrong" % (exp["doc"], len(exp["numbers"]), len(exp["numbers"]) - nw, nw))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
