"""Independent true values for the Chinese (zh_) first-contact documents of round 3.

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

# numbers as printed: optional sign (only when not a binary minus), thousands groups,
# decimals, NumPy/TF style trailing dot ("2.", "0.").
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])-)?\d+(?:,\d{3})*(?:\.\d*)?')


def F(x):
    return Fraction(x)


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
    lit = claimed.replace(',', '')
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


def build(docname, specs):
    path = os.path.join(HERE, docname)
    lines = open(path, encoding='utf-8').read().split('\n')
    pos = 0
    where = {}
    numbers = []
    pending = []
    for sp in specs:
        # anchors are searched in document order, starting after the previous spec's line
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
    for line, col, text, e, label in pending:
        # the literal really stands there
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


def dec(s):
    """exact decimal text -> mpf (via Fraction)"""
    f = Fraction(s)
    return mpf(f.numerator) / f.denominator


def softmax(xs):
    ex = [mpmath.exp(x) for x in xs]
    tot = sum(ex)
    return [e / tot for e in ex]


# ---------------------------------------------------------------------------
# Document A: rohitg00/ai-engineering-from-scratch, phase 7 lesson 2 (Chinese docs)
# ---------------------------------------------------------------------------
def doc_a():
    raw = [dec(x) for x in ('2.1', '0.3', '0.1', '0.8', '0.2')]
    w = softmax(raw)
    names = ['k1', 'k2', 'k3', 'k4', 'k5']
    specs = [
        S('w', '注意力权重：   [0.52', 6,
          *[E(j, w[j], "softmax weight of q1 on %s (softmax of the raw q1 scores)" % names[j], 'wrong', 'slip')
            for j in range(5)],
          E(5, Fraction(1), "sum of the softmax weights")),
        S('out', 'output_1 = 0.52', 11,
          *[E(2 * j + 1, w[j], "weight on v%d repeated in output_1" % (j + 1), 'wrong', 'carried', 'w')
            for j in range(5)]),
    ]
    meta = {
        "doc": "zh_selfattn_lookup_lesson.md",
        "source": "github rohitg00/ai-engineering-from-scratch:phases/07-transformers-deep-dive/02-self-attention-from-scratch/docs/zh.md (Chinese version of the lesson; shortened: learning goals, Q/K/V diagram, full pipeline diagram, steps 4-5, PyTorch section and deliverables dropped)",
        "source_kind": "course notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown lesson with ASCII-art score table, plain-text code blocks (vector lists, weighted-sum formula) and Python code",
        "conventions": "the worked softmax is applied to the raw q1 score row [2.1, 0.3, 0.1, 0.8, 0.2] as printed (no scaling shown in that block); weights rounded to 2 places",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: harleyszhang/llm_note, attention and causal mask notes
# ---------------------------------------------------------------------------
def doc_b():
    n = 4
    tril = [[1 if j <= i else 0 for j in range(n)] for i in range(n)]
    triu1 = [[1 if j > i else 0 for j in range(n)] for i in range(n)]
    scores = [
        [['0.5530', '0.6123', '0.3896', '-0.0834'],
         ['0.0271', '0.2272', '0.1394', '-0.1029'],
         ['0.4198', '0.2406', '0.1581', '0.0425'],
         ['0.4801', '0.2925', '0.1978', '0.0919']],
        [['-0.4385', '-0.1696', '-0.2063', '-0.5110'],
         ['-0.3161', '-0.0823', '-0.0555', '-0.2165'],
         ['-0.1579', '0.0111', '0.0187', '-0.1701'],
         ['0.0276', '0.0543', '0.0457', '-0.0404']],
    ]
    P = []
    for h in range(2):
        rows = []
        for i in range(n):
            w = softmax([dec(x) for x in scores[h][i][:i + 1]])
            rows.append([w[j] if j <= i else Fraction(0) for j in range(n)])
        P.append(rows)

    def maskrows(tag, M, anchors, what):
        out = []
        for i in range(n):
            out.append(S('%s%d' % (tag, i), anchors[i], 4,
                         *[E(j, Fraction(M[i][j]), "%s[%d][%d]" % (what, i, j)) for j in range(n)]))
        return out

    tril_anchors = ['tensor([[1., 0., 0., 0.],', '[1., 1., 0., 0.],', '[1., 1., 1., 0.],', '[1., 1., 1., 1.]])']
    triu_anchors = ['tensor([[0., 1., 1., 1.],', '[0., 0., 1., 1.],', '[0., 0., 0., 1.],', '[0., 0., 0., 0.]])']
    sm_rows = [['[[[1.0000, 0.0000', '[0.4501, 0.5499', '[0.3838, 0.3208', '[0.3066, 0.2542'],
               ['[[1.0000, 0.0000', '[0.4418, 0.5582', '[0.2961, 0.3506', '[0.2513, 0.2581']]
    specs = [
        S('div8', '然后除以 `8`', 1, E(0, Fraction(8), "scale divisor sqrt(d_k) = sqrt(64)")),
        S('sqrt', '8 是 K 向量维度 64 的平方根', 3,
          E(0, Fraction(8), "scale divisor sqrt(64)"), E(1, Fraction(8), "sqrt(64)")),
        S('trilcall', '>>> masked = torch.tril', 0),
        *maskrows('tril', tril, tril_anchors, "torch.tril(ones(4,4))"),
        S('triucall', '>>> mask = torch.triu', 1),
        *maskrows('triu', triu1, triu_anchors, "torch.triu(ones(4,4), diagonal=1)"),
        S('progmask', 'mask 矩阵:', 0),
        *maskrows('pm', tril, tril_anchors, "generate_causal_mask(4)"),
        S('smhdr', '使用 softmax 归一化后的掩码注意力分数矩阵', 0),
    ]
    for h in range(2):
        for i in range(n):
            ntok = 5 if (h == 1 and i == 3) else 4
            specs.append(S('sm%d%d' % (h, i), sm_rows[h][i], ntok,
                           *[E(j, P[h][i][j], "head %d masked softmax weight [%d][%d]" % (h + 1, i, j))
                             for j in range(n)]))
    meta = {
        "doc": "zh_causal_mask_repl_notes.md",
        "source": "github harleyszhang/llm_note:1-transformer_model/attention及mask机制详解.md (shortened: table of contents, figures, Q/K/V discussion, MultiHeadAttention class and test code and the final random multi-head output tensor dropped)",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Markdown with Python >>> REPL session (torch.tensor printouts) and a bash block of program output (4-decimal tensors, -inf entries, grad_fn suffixes)",
        "conventions": "torch.randn scores and the printed raw attention scores of the program run are inputs (taken as exact 4-decimal values); causal mask keeps j <= i; softmax over the last dim of the masked scores, masked entries exactly 0",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: dtcms.com mirror of the CSDN post on temperature softmax
# ---------------------------------------------------------------------------
def doc_c():
    z = [1, 2, 3]

    def sm(T):
        return softmax([mpf(x) / dec(T) for x in z])
    specs = [(T, 'T = %s$ |' % T, sm(T)) for T in ('0.5', '1.0', '2.0', '10.0')]
    claimed = {'0.5': ['0.02', '0.14', '0.84'], '1.0': ['0.09', '0.24', '0.67'],
               '2.0': ['0.21', '0.29', '0.50'], '10.0': ['0.31', '0.33', '0.36']}
    out = []
    for T, anchor, p in specs:
        ents = []
        for j in range(3):
            # the printed literal decides only which status is declared; build() re-asserts it
            if rounds_to(claimed[T][j], p[j]):
                ents.append(E(j + 1, p[j], "softmax_T(z)[%d] at T=%s" % (j + 1, T)))
            else:
                ents.append(E(j + 1, p[j], "softmax_T(z)[%d] at T=%s" % (j + 1, T), 'wrong', 'slip'))
        out.append(S('T' + T, anchor, 4, *ents))
    meta = {
        "doc": "zh_temperature_softmax_table_blog.md",
        "source": "http://www.dtcms.com/a/434905.html (blog mirror of the CSDN post 「神经网络之理解温度对Softmax的影响」; the stored copy breaks off inside the analogy list, whose end is written in own words)",
        "source_kind": "blog",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with inline/display LaTeX and a Markdown table whose cells hold LaTeX vectors (\\mathbf on the largest entry), emoji headings",
        "conventions": "softmax_T(z_i) = exp(z_i/T) / sum_j exp(z_j/T) with z = [1, 2, 3]; values rounded to 2 places",
    }
    return meta, out


# ---------------------------------------------------------------------------
# Document D: cnblogs tokepson, cross-entropy Q&A
# ---------------------------------------------------------------------------
def doc_d():
    p = softmax([mpf(3), mpf(1), mpf(-1)])
    L = -mpmath.log(p[0])

    def trio(label, anchor, ntok, i0, kind, cf=None):
        return S(label, anchor, ntok,
                 E(i0, p[0], "softmax(z)[1]", 'wrong', kind, cf),
                 E(i0 + 1, p[1], "softmax(z)[2]"),
                 E(i0 + 2, p[2], "softmax(z)[3]", 'wrong', kind, cf))
    specs = [
        trio('user', 'softmax(P_i) = [0.88, 0.12, 0.00]', 3, 0, 'slip'),
        trio('ans', '\\[p = \\text{softmax}(z) = [0.88', 3, 0, 'carried', 'user'),
        S('sub', '\\[L = -(1 \\cdot \\log(0.88)', 6,
          E(1, p[0], "p_1 repeated inside the log", 'wrong', 'carried', 'user'),
          E(3, p[1], "p_2 repeated inside the log"),
          E(5, p[2], "p_3 repeated inside the log", 'wrong', 'carried', 'user')),
        S('L', '\\[L = -\\log(0.88) \\approx 0.13', 2,
          E(0, p[0], "p_1 repeated", 'wrong', 'carried', 'user'),
          E(1, L, "cross-entropy loss -ln p_1 (-ln 0.88 = 0.128)", 'wrong', 'carried', 'user')),
        trio('code', 'p = softmax(z)  # [0.88', 3, 0, 'carried', 'user'),
        S('codeL', 'print(L)  # 大约 0.13', 1,
          E(0, L, "cross-entropy loss in the code comment", 'wrong', 'carried', 'user')),
    ]
    meta = {
        "doc": "zh_cross_entropy_cnblogs_qa.md",
        "source": "https://www.cnblogs.com/tokepson/p/19363849 (「交叉熵损失函数 | 数学和代码实现」, a question followed by an answer; the stored copy breaks off at the closing summary, which is dropped)",
        "source_kind": "Q&A",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with \\[ \\] display LaTeX, inline code, a plain-text question block (Unicode minus in the input) and NumPy code with results in # comments",
        "conventions": "natural logarithm; softmax over logits z = [3.0, 1.0, -1.0]; one-hot label y = [1, 0, 0]; values rounded to 2 places",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: Chinese translation of osanseviero's "The Random Transformer"
# ---------------------------------------------------------------------------
def doc_e():
    s1, c1 = mpmath.sin(1), mpmath.cos(1)
    s01, c01 = mpmath.sin(mpf(1) / 100), mpmath.cos(mpf(1) / 100)
    pe1 = [s1, c1, s01, c01]                  # paper formula, d_model = 4
    hello = [1, 3, 3, 5]
    world = [2 + s1, 3 + c1, 4 + s01, 5 + c01]
    Emat = [hello, world]
    WK1 = [[1, 0, 1], [0, 1, 0], [1, 0, 1], [0, 1, 0]]
    WV1 = [[0, 1, 1], [1, 0, 0], [1, 0, 1], [0, 1, 0]]
    WQ1 = [[0, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0]]   # as in the NumPy code

    def mm(A, B):
        return [[sum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))]
                for i in range(len(A))]
    K, V, Q = mm(Emat, WK1), mm(Emat, WV1), mm(Emat, WQ1)
    Sc = [[sum(Q[i][t] * K[j][t] for t in range(3)) for j in range(2)] for i in range(2)]
    r3 = mpmath.sqrt(3)
    Ss = [[Sc[i][j] / r3 for j in range(2)] for i in range(2)]
    C, RC = 'carried', 'rounding-carried'
    # which earlier wrong number each derived entry follows
    # row-2 entries: K = [e0+e2, e1+e3, e0+e2]; V = [e1+e2, e0+e3, e0+e2]; Q = [e1+e3, e1, e2]
    Kk = [RC, C, RC]
    Vk = [C, None, RC]
    Qk = [C, C, RC]

    def row2(label, anchor, ntok, vals, kinds, name, cf, first=0):
        ents = []
        for j, (v, k) in enumerate(zip(vals, kinds)):
            if k is None:
                ents.append(E(first + j, v, "%s[2][%d]" % (name, j + 1)))
            else:
                ents.append(E(first + j, v, "%s[2][%d]" % (name, j + 1), 'wrong', k, cf))
        return S(label, anchor, ntok, *ents)

    def row1(label, anchor, ntok, vals, name, first=0):
        return S(label, anchor, ntok, *[E(first + j, v, "%s[1][%d]" % (name, j + 1)) for j, v in enumerate(vals)])

    Ekinds = [None, C, RC, RC]
    specs = [
        S('p00', 'PE(0,0) = sin(0', 9, E(7, Fraction(0), "argument 0/10000^0"), E(8, Fraction(0), "PE(0,0) = sin 0")),
        S('p01', 'PE(0,1) = cos(0', 10, E(8, Fraction(0), "argument 0/10000^x"), E(9, Fraction(1), "PE(0,1) = cos 0")),
        S('p02', 'PE(0,2) = sin(0', 10, E(8, Fraction(0), "argument 0/10000^x"), E(9, Fraction(0), "PE(0,2) = sin 0")),
        S('p03', 'PE(0,3) = cos(0', 10, E(8, Fraction(0), "argument 0/10000^x"), E(9, Fraction(1), "PE(0,3) = cos 0")),
        S('p10', 'PE(1,0) = sin(1', 12,
          E(5, Fraction(0), "exponent 2i/d_model = 0/4"), E(10, Fraction(1), "argument 1/10000^0"),
          E(11, s1, "PE(1,0) = sin 1")),
        S('p11', 'PE(1,1) = cos(1', 13,
          E(10, Fraction(0), "exponent of 10000 for PE(1,1): paper formula 2i/d_model with i=0 gives 0; 0.5 = 2*1/4 uses the dimension index 1 as i", 'wrong', 'convention'),
          E(11, Fraction(1), "argument of cos for PE(1,1): 1/10000^0 = 1 (0.01 only with the dimension index used as i)", 'wrong', 'convention'),
          E(12, c1, "PE(1,1) = cos 1 = 0.5403 (even cos(0.01) would print 1.00)", 'wrong', 'slip')),
        S('p12', 'PE(1,2) = sin(1', 12,
          E(10, Fraction(1, 2), "exponent of 10000 for PE(1,2): 2i/d_model = 2/4 (1 = 2*2/4 uses the dimension index as i)", 'wrong', 'convention'),
          E(11, s01, "PE(1,2) = sin(1/100) = 0.0099998, printed as the integer 0", 'wrong', 'rounding')),
        S('p13', 'PE(1,3) = cos(1', 12,
          E(10, Fraction(1, 2), "exponent of 10000 for PE(1,3): 2i/d_model = 2/4 (1.5 = 2*3/4 uses the dimension index as i)", 'wrong', 'convention'),
          E(11, c01, "PE(1,3) = cos(1/100) = 0.99995, printed as the integer 1", 'wrong', 'rounding')),
        S('hello', '* "Hello" -> [0, 1, 0, 1]', 4, *[E(j, Fraction([0, 1, 0, 1][j]), "PE(0)[%d]" % j) for j in range(4)]),
        S('world', '* "World" -> [0.84', 4,
          E(0, s1, "PE(1)[0] repeated"),
          E(1, c1, "PE(1)[1] repeated", 'wrong', C, 'p11'),
          E(2, s01, "PE(1)[2] repeated", 'wrong', RC, 'p12'),
          E(3, c01, "PE(1)[3] repeated", 'wrong', RC, 'p13')),
        S('hsum', '"Hello" = [1,2,3,4] + [0, 1, 0, 1]', 12,
          *[E(4 + j, Fraction([0, 1, 0, 1][j]), "PE(0)[%d] repeated" % j) for j in range(4)],
          *[E(8 + j, Fraction(hello[j]), "Hello embedding + PE [%d]" % j) for j in range(4)]),
        S('sum', '"World" = [2,3,4,5] + [0.84', 12,
          E(4, s1, "PE(1)[0] repeated"),
          E(5, c1, "PE(1)[1] repeated", 'wrong', C, 'p11'),
          E(6, s01, "PE(1)[2] repeated", 'wrong', RC, 'p12'),
          E(7, c01, "PE(1)[3] repeated", 'wrong', RC, 'p13'),
          E(8, world[0], "World embedding + PE [0]"),
          E(9, world[1], "World embedding + PE [1] (3 + 0.99)", 'wrong', C, 'p11'),
          E(10, world[2], "World embedding + PE [2] (4 + 0)", 'wrong', RC, 'p12'),
          E(11, world[3], "World embedding + PE [3] (5 + 1)", 'wrong', RC, 'p13')),
        row1('E1', '^1 & 3 & 3 & 5 \\\\', 4, [Fraction(x) for x in hello], "E"),
        row2('E2', '^2.84 & 3.99 & 4 & 6', 4, world, Ekinds, "E", 'sum'),
        row1('EK1', '^1 & 3 & 3 & 5 \\\\', 4, [Fraction(x) for x in hello], "E (restated in E x WK1)"),
        row2('EK2', '^2.84 & 3.99 & 4 & 6', 4, world, Ekinds, "E (restated in E x WK1)", 'sum'),
        row1('K1', '^4 & 8 & 4 \\\\', 3, K[0], "K1 = E WK1"),
        row2('K2', '^6.84 & 9.99 & 6.84', 3, K[1], Kk, "K1 = E WK1", 'sum'),
        S('emb', 'embedding = np.array([[1, 3, 3, 5]', 8,
          *row1('x', '', 8, [Fraction(x) for x in hello], "embedding (code)").entries,
          *row2('x', '', 8, world, Ekinds, "embedding (code)", 'sum', first=4).entries),
        row1('K1p', 'array([[4.  , 8.  , 4.  ],', 3, K[0], "K1 printout"),
        row2('K2p', '[6.84, 9.99, 6.84]])', 3, K[1], Kk, "K1 printout", 'sum'),
        row1('V1p', 'array([[6.  , 6.  , 4.  ],', 3, V[0], "V1 printout"),
        row2('V2p', '[7.99, 8.84, 6.84]])', 3, V[1], Vk, "V1 printout", 'sum'),
        row1('Q1p', 'array([[8.  , 3.  , 3.  ],', 3, Q[0], "Q1 printout"),
        row2('Q2p', '[9.99, 3.99, 4.  ]])', 3, Q[1], Qk, "Q1 printout", 'sum'),
        S('qk', 'q1 \\cdot k1 &= \\begin{bmatrix} 8', 8,
          *[E(2 + j, Q[0][j], "q1[%d] repeated" % (j + 1)) for j in range(3)],
          *[E(5 + j, K[0][j], "k1[%d] repeated" % (j + 1)) for j in range(3)]),
        S('qk68', '&= 68', 1, E(0, Sc[0][0], "q1 . k1")),
        S('QKt', 'Q1 \\times K1^\\top &=', 14,
          *[E(2 + j, Q[0][j], "Q1[1][%d] repeated" % (j + 1)) for j in range(3)],
          E(5, Q[1][0], "Q1[2][1] repeated", 'wrong', C, 'sum'),
          E(6, Q[1][1], "Q1[2][2] repeated", 'wrong', C, 'sum'),
          E(7, Q[1][2], "Q1[2][3] repeated", 'wrong', RC, 'sum'),
          E(8, K[0][0], "K1^T[1][1] repeated"),
          E(9, K[1][0], "K1^T[1][2] repeated", 'wrong', RC, 'sum'),
          E(10, K[0][1], "K1^T[2][1] repeated"),
          E(11, K[1][1], "K1^T[2][2] repeated", 'wrong', C, 'sum'),
          E(12, K[0][2], "K1^T[3][1] repeated"),
          E(13, K[1][2], "K1^T[3][2] repeated", 'wrong', RC, 'sum')),
        S('S1', '^    68 & 105.21 \\\\', 2,
          E(0, Sc[0][0], "scores[1][1]"),
          E(1, Sc[0][1], "scores[1][2] = q1 . k2", 'wrong', C, 'sum')),
        S('S2', '^    87.88 & 135.5517', 2,
          E(0, Sc[1][0], "scores[2][1] = q2 . k1", 'wrong', C, 'sum'),
          E(1, Sc[1][1], "scores[2][2] = q2 . k2", 'wrong', C, 'sum')),
        S('S1p', 'array([[ 68.    , 105.21  ],', 2,
          E(0, Sc[0][0], "scores printout [1][1]"),
          E(1, Sc[0][1], "scores printout [1][2]", 'wrong', C, 'sum')),
        S('S2p', '[ 87.88  , 135.5517]])', 2,
          E(0, Sc[1][0], "scores printout [2][1]", 'wrong', C, 'sum'),
          E(1, Sc[1][1], "scores printout [2][2]", 'wrong', C, 'sum')),
        S('Ss1', 'array([[39.2598183 , 60.74302182],', 2,
          E(0, Ss[0][0], "scaled score [1][1] = 68/sqrt(3)"),
          E(1, Ss[0][1], "scaled score [1][2]", 'wrong', C, 'sum')),
        S('Ss2', '[50.73754166, 78.26081048]])', 2,
          E(0, Ss[1][0], "scaled score [2][1]", 'wrong', C, 'sum'),
          E(1, Ss[1][1], "scaled score [2][2]", 'wrong', C, 'sum')),
    ]
    meta = {
        "doc": "zh_random_transformer_translation.md",
        "source": "GitHub Markdown Chinese translation of Omar Sanseviero's blog post 'The Random Transformer' (hackerllama, front matter names repo osanseviero/hackerllama); the code index did not expose the translating repository (index file id 26416241669). Shortened to sections 1-4.3.2: introduction condensed, the first embedding matrix, the LaTeX weight matrices of section 4.1 and everything from the softmax step on dropped",
        "source_kind": "blog",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX bmatrix/align*, plain-text bullet computations with ≈, NumPy code blocks and array printouts (trailing-dot floats)",
        "conventions": "sinusoidal PE as stated in the document's formula: PE(pos,2i)=sin(pos/10000^(2i/d_model)), PE(pos,2i+1)=cos(pos/10000^(2i/d_model)), d_model=4 (so dims 2,3 use 1/100); input = word embedding + PE; truth propagates the true PE through E, K1=E WK1, V1=E WV1, Q1=E WQ1 (WQ1 as in the NumPy code, which the printouts use), scores Q1 K1^T and scores/sqrt(3); restated operands inside the written products are not listed except the restated Q1 and K1^T matrices",
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
