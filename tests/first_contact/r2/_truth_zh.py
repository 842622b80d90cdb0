"""Independent true values for the Chinese (zh_) first-contact documents of round 2.

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


# ---------------------------------------------------------------------------
# Document A: SUSTech STA-5007 notes, appendix "手算一遍自注意力"
# ---------------------------------------------------------------------------
def doc_a():
    X = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
    Wq = [[1, 0], [0, 1], [1, 0], [0, 1]]
    Wk = [[0, 1], [1, 0], [0, 1], [1, 0]]
    Wv = [[2, 0], [0, 2], [0, 1], [1, 0]]

    def mm(A, B):
        return [[sum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))]
                for i in range(len(A))]
    Q, K, V = mm(X, Wq), mm(X, Wk), mm(X, Wv)
    Sm = [[sum(Q[i][t] * K[j][t] for t in range(2)) for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    Ss = [[Sm[i][j] / r2 for j in range(3)] for i in range(3)]
    Aw = []
    for i in range(3):
        ex = [mpmath.exp(Ss[i][j]) for j in range(3)]
        tot = sum(ex)
        Aw.append([x / tot for x in ex])
    Out = [[sum(Aw[i][j] * V[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    e1, e2 = mpmath.exp(2 * r2), mpmath.exp(r2)
    tot1 = 1 + e1 + e2
    a0, a1, a2 = Aw[0]
    specs = [
        S('q1', 'x_1=[1,0,1,0]', 22,
          E(9, 1, "x1*WQ col1 term 1 (1*1)"), E(10, 0, "x1*WQ col1 term 2 (0*0)"),
          E(11, 1, "x1*WQ col1 term 3 (1*1)"), E(12, 0, "x1*WQ col1 term 4 (0*0)"),
          E(13, Q[0][0], "q1[1] = x1 . WQ col1"), E(18, Q[0][1], "q1[2] = x1 . WQ col2"),
          E(20, Q[0][0], "q1 = [2,0], first"), E(21, Q[0][1], "q1 = [2,0], second")),
        S('QKV', 'Q=\\begin{bmatrix}2&0', 18,
          *[E(2 * i + j, Q[i][j], "Q[%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(2)],
          *[E(6 + 2 * i + j, K[i][j], "K[%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(2)],
          *[E(12 + 2 * i + j, V[i][j], "V[%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(2)]),
        S('S', 'S=QK^\\top=', 21,
          *[E(2 * i + j, Q[i][j], "Q[%d][%d] repeated in S=QK^T" % (i + 1, j + 1)) for i in range(3) for j in range(2)],
          *[E(6 + 3 * j + i, K[i][j], "K^T[%d][%d] repeated" % (j + 1, i + 1)) for j in range(2) for i in range(3)],
          *[E(12 + 3 * i + j, Sm[i][j], "S[%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(3)]),
        S('Srows', '第一行 [0, 4, 2]', 10,
          E(0, Sm[0][0], "S row 1 col 1"), E(1, Sm[0][1], "S row 1 col 2"), E(2, Sm[0][2], "S row 1 col 3"),
          E(6, Sm[2][0], "S row 3 col 1"), E(7, Sm[2][1], "S row 3 col 2"), E(8, Sm[2][2], "S row 3 col 3")),
        S('sqrt2', '\\sqrt{d_k}=\\sqrt2\\approx', 2, E(1, r2, "sqrt(d_k) = sqrt(2)")),
        S('Ss', '\\frac{S}{\\sqrt{2}}=', 10,
          *[E(1 + 3 * i + j, Ss[i][j], "S/sqrt2 [%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(3)]),
        S('exp', '第一行：$e^0=1$', 7,
          E(0, Ss[0][0], "S/sqrt2 [1][1] repeated as exponent"),
          E(1, mpmath.exp(Ss[0][0]), "e^0"),
          E(2, Ss[0][1], "S/sqrt2 [1][2] repeated as exponent"),
          E(3, e1, "e^{2 sqrt 2} (exp of the rounded 2.8284 gives 16.9184)", 'wrong', 'rounding-carried', 'Ss'),
          E(4, Ss[0][2], "S/sqrt2 [1][3] repeated as exponent"),
          E(5, e2, "e^{sqrt 2}"),
          E(6, tot1, "softmax row 1 denominator 1+e^{2sqrt2}+e^{sqrt2} (printed = 1+16.918+4.1133)",
            'wrong', 'carried', 'exp')),
        S('A', 'A=\\begin{bmatrix}0.0454', 9,
          *[E(3 * i + j, Aw[i][j], "attention weights A[%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(3)]),
        S('row1terms', '第一行：$0.0454\\times[2,1]', 9,
          E(0, a0, "A[1][1] repeated"), E(1, V[0][0], "v1[1] repeated"), E(2, V[0][1], "v1[2] repeated"),
          E(3, a1, "A[1][2] repeated"), E(4, V[1][0], "v2[1] repeated"), E(5, V[1][1], "v2[2] repeated"),
          E(6, a2, "A[1][3] repeated"), E(7, V[2][0], "v3[1] repeated"), E(8, V[2][1], "v3[2] repeated")),
        S('row1sum', '=[0.0908,0.0454]', 8,
          E(0, 2 * a0, "A11*v1[1]"), E(1, a0, "A11*v1[2]"), E(2, a1, "A12*v2[1]"), E(3, 2 * a1, "A12*v2[2]"),
          E(4, 2 * a2, "A13*v3[1]"), E(5, 2 * a2, "A13*v3[2]"),
          E(6, Out[0][0], "Out[1][1]"), E(7, Out[0][1], "Out[1][2]")),
        S('Out', '\\mathrm{Out}=\\begin{bmatrix}', 6,
          *[E(2 * i + j, Out[i][j], "Out[%d][%d]" % (i + 1, j + 1)) for i in range(3) for j in range(2)]),
    ]
    meta = {
        "doc": "zh_selfattn_sta5007_notes.md",
        "source": "GitHub Markdown course notes 「Transformer 基础逐页精讲」 (SUSTech STA-5007 Advanced NLP, Lecture 2 by 陈冠华, series sta5007), appendix A 「手算一遍自注意力」 (A.1-A.6 kept, S_1j check line and the three-observations list dropped; A.7 no-scale and A.8 causal comparisons, A.9 code and appendices B/C dropped); the code index did not expose the repository name (index file id 69166265812)",
        "source_kind": "course notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with $$ LaTeX bmatrix; row-vector convention X W; softmax over rows",
        "conventions": "scores divided by sqrt(d_k)=sqrt(2); row-wise softmax; intermediate values printed to 4 places",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: luweiagi/machine-learning-notes, TF2 demo, scaled dot-product attention
# ---------------------------------------------------------------------------
def doc_b():
    q = [[0, 1, 0], [0, 0, 1]]
    k = [[1, 2, 0], [0, 1, 1]]
    v = [[1, 0], [2, 0]]   # the tensor actually passed to the code
    qk = [[sum(q[i][t] * k[j][t] for t in range(3)) for j in range(2)] for i in range(2)]
    r3 = mpmath.sqrt(3)
    lg = [[qk[i][j] / r3 for j in range(2)] for i in range(2)]
    W = []
    for i in range(2):
        ex = [mpmath.exp(x) for x in lg[i]]
        W.append([x / sum(ex) for x in ex])
    O = [[sum(W[i][j] * v[j][c] for j in range(2)) for c in range(2)] for i in range(2)]
    f32 = "float32 printout, last digit off"

    def pr2(label, anchor, ntok, M, name, kinds=None):
        out = []
        for j in range(2):
            st = kinds.get(j) if kinds else None
            if st:
                out.append(E(j, M[j], name % (j + 1), 'wrong', 'rounding'))
            else:
                out.append(E(j, M[j], name % (j + 1)))
        return S(label, anchor, ntok, *out)

    specs = []
    # matmul_qk printout (two identical batches)
    for b in range(2):
        specs.append(S('qk%da' % b, '[[2. 1.]', 2, E(0, Fraction(qk[0][0]), "qk^T[1][1] batch %d" % (b + 1)),
                       E(1, Fraction(qk[0][1]), "qk^T[1][2] batch %d" % (b + 1))))
        specs.append(S('qk%db' % b, '[0. 1.]', 2 if b == 0 else 6,
                       E(0, Fraction(qk[1][0]), "qk^T[2][1] batch %d" % (b + 1)),
                       E(1, Fraction(qk[1][1]), "qk^T[2][2] batch %d" % (b + 1))))
    specs += [
        S('qkL1', '^=\\begin{bmatrix}', 0),  # the '=\begin{bmatrix}' line of the hand check (marker)
        S('qkL2', '2 & 1\\\\', 2, E(0, Fraction(2), "hand check qk^T[1][1]"), E(1, Fraction(1), "hand check qk^T[1][2]")),
        S('qkL3', '0 & 1', 2, E(0, Fraction(0), "hand check qk^T[2][1]"), E(1, Fraction(1), "hand check qk^T[2][2]")),
    ]
    for b in range(2):
        specs.append(S('lg%da' % b, '[[1.1547005  0.57735026]', 2,
                       E(0, lg[0][0], "scaled logits[1][1] batch %d" % (b + 1)),
                       E(1, lg[0][1], "scaled logits[1][2] batch %d (%s)" % (b + 1, f32), 'wrong', 'rounding')))
        specs.append(S('lg%db' % b, '[0.         0.57735026]', 2 if b == 0 else 6,
                       E(0, lg[1][0], "scaled logits[2][1] batch %d" % (b + 1)),
                       E(1, lg[1][1], "scaled logits[2][2] batch %d (%s)" % (b + 1, f32), 'wrong', 'rounding')))
    specs += [
        S('lgL1', '2 & 1\\\\', 2, E(0, Fraction(2), "qk^T[1][1] repeated in hand check"), E(1, Fraction(1), "qk^T[1][2] repeated")),
        S('lgL2', '0 & 1', 2, E(0, Fraction(0), "qk^T[2][1] repeated"), E(1, Fraction(1), "qk^T[2][2] repeated")),
        S('lgL3', '1.1547005 & 0.57735026', 2, E(0, lg[0][0], "hand check scaled [1][1]"),
          E(1, lg[0][1], "hand check scaled [1][2] (%s)" % f32, 'wrong', 'rounding')),
        S('lgL4', '0 & 0.57735026', 2, E(0, lg[1][0], "hand check scaled [2][1]"),
          E(1, lg[1][1], "hand check scaled [2][2] (%s)" % f32, 'wrong', 'rounding')),
    ]
    for b in range(2):
        specs.append(S('w%da' % b, '[[0.64045745 0.35954252]', 2,
                       E(0, W[0][0], "attention_weights[1][1] batch %d (%s)" % (b + 1, f32), 'wrong', 'rounding'),
                       E(1, W[0][1], "attention_weights[1][2] batch %d" % (b + 1))))
        specs.append(S('w%db' % b, '[0.35954252 0.64045745]', 2 if b == 0 else 6,
                       E(0, W[1][0], "attention_weights[2][1] batch %d" % (b + 1)),
                       E(1, W[1][1], "attention_weights[2][2] batch %d (%s)" % (b + 1, f32), 'wrong', 'rounding')))
    specs += [
        S('wL1', '1.1547005 & 0.57735026', 2, E(0, lg[0][0], "scaled [1][1] repeated in softmax check"),
          E(1, lg[0][1], "scaled [1][2] repeated (%s)" % f32, 'wrong', 'rounding')),
        S('wL2', '0 & 0.57735026', 2, E(0, lg[1][0], "scaled [2][1] repeated"),
          E(1, lg[1][1], "scaled [2][2] repeated (%s)" % f32, 'wrong', 'rounding')),
        S('wL3', '\\frac{\\text{exp}(1.1547005)}', 6,
          E(0, lg[0][0], "exponent 2/sqrt3 (numerator)"), E(1, lg[0][0], "exponent 2/sqrt3 (denominator)"),
          E(2, lg[0][1], "exponent 1/sqrt3 printed with 7 places", 'wrong', 'rounding'),
          E(3, lg[0][1], "exponent 1/sqrt3 (numerator, 7 places)", 'wrong', 'rounding'),
          E(4, lg[0][0], "exponent 2/sqrt3 (denominator)"),
          E(5, lg[0][1], "exponent 1/sqrt3 (denominator, 7 places)", 'wrong', 'rounding')),
        S('wL4', '\\frac{\\text{exp}(0)}', 6,
          E(0, lg[1][0], "exponent 0 (numerator)"), E(1, lg[1][0], "exponent 0 (denominator)"),
          E(2, lg[1][1], "exponent 1/sqrt3 (denominator, 7 places)", 'wrong', 'rounding'),
          E(3, lg[1][1], "exponent 1/sqrt3 (numerator, 7 places)", 'wrong', 'rounding'),
          E(4, lg[1][0], "exponent 0 (denominator)"),
          E(5, lg[1][1], "exponent 1/sqrt3 (denominator, 7 places)", 'wrong', 'rounding')),
        S('wL5', '0.64045745 & 0.35954252', 2,
          E(0, W[0][0], "hand check weight [1][1] (%s)" % f32, 'wrong', 'rounding'),
          E(1, W[0][1], "hand check weight [1][2]")),
        S('wL6', '0.35954252 & 0.64045745', 2,
          E(0, W[1][0], "hand check weight [2][1]"),
          E(1, W[1][1], "hand check weight [2][2] (%s)" % f32, 'wrong', 'rounding')),
    ]
    for b in range(2):
        specs.append(S('o%da' % b, '[[1.3595425 0.       ]', 2,
                       E(0, O[0][0], "output[1][1] batch %d" % (b + 1)),
                       E(1, O[0][1], "output[1][2] batch %d" % (b + 1))))
        specs.append(S('o%db' % b, '[1.6404574 0.       ]', 2 if b == 0 else 6,
                       E(0, O[1][0], "output[2][1] batch %d (%s)" % (b + 1, f32), 'wrong', 'rounding'),
                       E(1, O[1][1], "output[2][2] batch %d" % (b + 1))))
    specs += [
        S('z1', '1.3595425 & 0', 2, E(0, O[0][0], "z1[1]"), E(1, O[0][1], "z1[2]")),
        S('z2', '1.6404574 & 0', 2, E(0, O[1][0], "z2[1] (%s)" % f32, 'wrong', 'rounding'), E(1, O[1][1], "z2[2]")),
    ]
    meta = {
        "doc": "zh_sdpa_tf2_printout_notes.md",
        "source": "github luweiagi/machine-learning-notes:docs/natural-language-processing/self-attention-and-transformer/transformer-tf2-demo-code-explain/transformer-tf2-demo-code-explain.md",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with TensorFlow code blocks, tf.Tensor float32 printouts (batch of 2 identical copies) and $$ LaTeX hand checks",
        "conventions": "scaled dot-product attention, scores q k^T / sqrt(d_k) with d_k=3, softmax over last axis, no mask; printed values are float32 results (8 significant digits); the LaTeX restatement of v after '去掉batch' differs from the v tensor the code uses (the printed outputs use the code's v=[[1,0],[2,0]])",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: pinktalk.online "Self-Attention Detail Example" (Time Machine)
# ---------------------------------------------------------------------------
def doc_c():
    Q = [[2, 0, 1], [1, 2, 1]]   # given ("假设的计算结果")
    K = [[1, 0, 1], [0, 1, 0]]   # given
    V = [[10, 2, 0], [2, 5, 8]]  # given
    sc = [[sum(Q[i][t] * K[j][t] for t in range(3)) for j in range(2)] for i in range(2)]
    d = Fraction(17, 10)         # the text divides by 1.7
    ss = [[Fraction(sc[i][j]) / d for j in range(2)] for i in range(2)]
    W = []
    ex = []
    for i in range(2):
        e = [mpmath.exp(mpf(x.numerator) / x.denominator) for x in ss[i]]
        ex.append(e)
        W.append([x / sum(e) for x in e])
    O = [[sum(W[i][j] * V[j][c] for j in range(2)) for c in range(3)] for i in range(2)]
    w11, w12 = W[0]
    specs = [
        S('qtime', 'q_{\\text{Time}} &= [1, 0, 1, 0]', 31,
          E(28, Fraction(2), "q_Time[1] = x_Time . WQ col1"), E(29, Fraction(0), "q_Time[2]"),
          E(30, Fraction(1), "q_Time[3]")),
        S('s11', '**Time vs Time:**', 7, E(6, Fraction(sc[0][0]), "score Time-Time")),
        S('s12', 'Time vs Machine:', 7, E(6, Fraction(sc[0][1]), "score Time-Machine")),
        S('s21', '**Machine vs Time:**', 7, E(6, Fraction(sc[1][0]), "score Machine-Time")),
        S('s22', '**Machine vs Machine:**', 7, E(6, Fraction(sc[1][1]), "score Machine-Machine")),
        S('Smat', '\\text{Scores} = ', 4,
          *[E(2 * i + j, Fraction(sc[i][j]), "Scores[%d][%d]" % (i + 1, j + 1)) for i in range(2) for j in range(2)]),
        S('sqrt3', '\\sqrt{d_k} \\approx 1.73', 2, E(1, mpmath.sqrt(3), "sqrt(d_k)")),
        S('scaled', '\\text{Scaled} = ', 12,
          E(0, Fraction(sc[0][0]), "score 3 repeated"), E(2, Fraction(sc[0][1]), "score 0 repeated"),
          E(4, Fraction(sc[1][0]), "score 2 repeated"), E(6, Fraction(sc[1][1]), "score 2 repeated"),
          E(8, ss[0][0], "3/1.7"), E(9, ss[0][1], "0/1.7"),
          E(10, ss[1][0], "2/1.7 (printed truncated)", 'wrong', 'rounding'),
          E(11, ss[1][1], "2/1.7 (printed truncated)", 'wrong', 'rounding')),
        S('in1', '输入 $[1.76, 0]$', 2, E(0, ss[0][0], "3/1.7 repeated"), E(1, ss[0][1], "0 repeated")),
        S('exp1', '$e^{1.76} \\approx 5.8$', 5,
          E(0, ss[0][0], "exponent 3/1.7 repeated"), E(1, ex[0][0], "e^{3/1.7}"),
          E(2, ss[0][1], "exponent 0"), E(3, Fraction(1), "e^0"), E(4, ex[0][0] + 1, "softmax row 1 denominator")),
        S('w1', '权重 $\\approx [\\mathbf{0.85}', 2, E(0, w11, "weight Time->Time"), E(1, w12, "weight Time->Machine")),
        S('in2', '输入 $[1.17, 1.17]$', 2,
          E(0, ss[1][0], "2/1.7 repeated (truncated)", 'wrong', 'rounding'),
          E(1, ss[1][1], "2/1.7 repeated (truncated)", 'wrong', 'rounding')),
        S('w2', '权重 $= [\\mathbf{0.5}', 2, E(0, W[1][0], "weight Machine->Time"), E(1, W[1][1], "weight Machine->Machine")),
        S('pct', 'Machine 50% 看 Time', 2, E(0, W[1][0] * 100, "percent Machine->Time"), E(1, W[1][1] * 100, "percent Machine->Machine")),
        S('Wmat', '\\text{Weights} = ', 4,
          *[E(2 * i + j, W[i][j], "Weights[%d][%d]" % (i + 1, j + 1)) for i in range(2) for j in range(2)]),
        S('mix', '等于 $0.85 \\times', 2, E(0, w11, "weight 0.85 repeated"), E(1, w12, "weight 0.15 repeated")),
        S('d1', '第一维: $0.85 \\times 10', 7,
          E(0, w11, "w11 repeated"), E(2, w12, "w12 repeated"),
          E(4, w11 * 10, "w11*10"), E(5, w12 * 2, "w12*2"), E(6, O[0][0], "Output Time dim 1")),
        S('d2', '第二维: $0.85 \\times 2', 7,
          E(0, w11, "w11 repeated"), E(2, w12, "w12 repeated"),
          E(4, w11 * 2, "w11*2"),
          E(5, w12 * 5, "w12*5 (0.15*5 from the rounded weight)", 'wrong', 'rounding-carried', 'w1'),
          E(6, O[0][1], "Output Time dim 2 (from rounded weights)", 'wrong', 'rounding-carried', 'w1')),
        S('d3', '第三维: $0.85 \\times 0', 7,
          E(0, w11, "w11 repeated"), E(2, w12, "w12 repeated"),
          E(4, w11 * 0, "w11*0"), E(5, w12 * 8, "w12*8"), E(6, O[0][2], "Output Time dim 3")),
        S('otime', '"Time" 的新向量 = ', 3,
          E(0, O[0][0], "Output Time dim 1"),
          E(1, O[0][1], "Output Time dim 2 (from rounded weights)", 'wrong', 'rounding-carried', 'w1'),
          E(2, O[0][2], "Output Time dim 3")),
        S('absorb', '第三维从 0 变成了 1.2', 5, E(4, O[0][2], "Output Time dim 3 repeated")),
        S('mixm', '等于 $0.5 \\times', 2, E(0, W[1][0], "weight 0.5 repeated"), E(1, W[1][1], "weight 0.5 repeated")),
        S('avg', '直接求平均', 12, E(9, O[1][0], "Output Machine dim 1"), E(10, O[1][1], "Output Machine dim 2"),
          E(11, O[1][2], "Output Machine dim 3")),
        S('om', '"Machine" 的新向量 = ', 3, E(0, O[1][0], "Output Machine dim 1"), E(1, O[1][1], "Output Machine dim 2"),
          E(2, O[1][2], "Output Machine dim 3")),
    ]
    meta = {
        "doc": "zh_time_machine_blog.md",
        "source": "https://pinktalk.online/computer_sci/llm/architecture/self_attention_example (same text as a GitHub Markdown note 'Self-Attention Detail Example', code index file id 66642560920)",
        "source_kind": "blog",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with inline/display LaTeX, bmatrix, bullet lists; two tokens Time/Machine",
        "conventions": "Q, K, V after the q_Time line are stated as assumed values (not listed); the text itself replaces sqrt(3) by 1.7 for scaling (truth uses 1.7 as stated); row-wise softmax; output = weights x V",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: liu-gong-zi.com Obsidian note on RMSNorm
# ---------------------------------------------------------------------------
def doc_d():
    x = [2, 4, 6, 8]
    g = [Fraction(12, 10), Fraction(8, 10), Fraction(1), Fraction(15, 10)]
    sq = [Fraction(t * t) for t in x]
    ms = sum(sq) / 4
    rms = mpmath.sqrt(mpf(30))
    xn = [mpf(t) / rms for t in x]
    y = [xn[i] * mpf(g[i].numerator) / g[i].denominator for i in range(4)]
    mu = Fraction(sum(x), 4)
    var = sum((Fraction(t) - mu) ** 2 for t in x) / 4
    specs = [
        S('sq', '(4 + 16 + 36 + 64)} \\\\', 6, *[E(2 + i, sq[i], "x_%d^2" % (i + 1)) for i in range(4)]),
        S('sum', '\\times 120}', 3, E(2, sum(sq), "sum of squares")),
        S('r30', '&= \\sqrt{30}', 1, E(0, ms, "mean of squares under the root")),
        S('rms', '&\\approx 5.477', 1, E(0, rms, "RMS = sqrt(30)")),
        *[S('n%d' % i, "$x_%d' = %d / 5.477" % (i + 1, x[i]), 4,
            E(2, rms, "RMS repeated"), E(3, xn[i], "x'_%d = x_%d / RMS" % (i + 1, i + 1))) for i in range(4)],
        S('xn', "归一化结果：", 4, *[E(i, xn[i], "normalised x'_%d" % (i + 1)) for i in range(4)]),
        S('y1', '$y_1 = 0.365', 4, E(1, xn[0], "x'_1 repeated"), E(3, y[0], "y_1 = x'_1 * 1.2")),
        S('y2', '$y_2 = 0.730', 4, E(1, xn[1], "x'_2 repeated"), E(3, y[1], "y_2 = x'_2 * 0.8")),
        S('y3', '$y_3 = 1.095', 4, E(1, xn[2], "x'_3 repeated"), E(3, y[2], "y_3 = x'_3 * 1.0")),
        S('y4', '$y_4 = 1.461', 4, E(1, xn[3], "x'_4 repeated"),
          E(3, y[3], "y_4 = x'_4 * 1.5 (1.461*1.5=2.1915 rounded up from the rounded x'_4)", 'wrong', 'rounding-carried', 'n3')),
        S('y', '最终：', 4, E(0, y[0], "y_1"), E(1, y[1], "y_2"), E(2, y[2], "y_3"),
          E(3, y[3], "y_4 repeated", 'wrong', 'rounding-carried', 'n3')),
        S('mu', '先求均值', 7, E(6, mu, "LayerNorm mean")),
        S('var', '再求方差', 16, E(3, mu, "mean repeated"), E(6, mu, "mean repeated"), E(9, mu, "mean repeated"),
          E(12, mu, "mean repeated"), E(15, var, "LayerNorm population variance")),
        S('xsq', '$x_{sq} =[2^2', 12, *[E(8 + i, sq[i], "x_sq[%d]" % (i + 1)) for i in range(4)]),
        S('msq', '$mean_{sq} = (4 + 16', 8, *[E(i, sq[i], "x_sq[%d] repeated" % (i + 1)) for i in range(4)],
          E(5, sum(sq), "sum of squares"), E(7, ms, "mean of squares")),
    ]
    meta = {
        "doc": "zh_rmsnorm_obsidian_notes.md",
        "source": "https://liu-gong-zi.com/ (Obsidian Publish notes, 2 第二大脑/1 概念/4 信息与模式/CS/人工智能/机器学习/核心技术/4 正则化方法/RMSNorm)",
        "source_kind": "blog",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Obsidian Markdown with $...$ LaTeX (aligned) and bullet lists",
        "conventions": "RMS = sqrt(mean(x^2)) with eps ignored in the worked numbers; gamma applied elementwise; LayerNorm comparison uses population variance (divide by n)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: GitHub study note "LLMs从零实现 - 第四章" (LayerNorm example, parameter counts)
# ---------------------------------------------------------------------------
def doc_e():
    x = [Fraction(2), Fraction(-1), Fraction(3), Fraction(1, 2)]
    mu = sum(x) / 4
    var = sum((t - mu) ** 2 for t in x) / 4
    sd = mpmath.sqrt(mpf(var.numerator) / var.denominator)
    xh = [(mpf(t.numerator) / t.denominator - mpf(mu.numerator) / mu.denominator) / sd for t in x]
    xh_mean = Fraction(0)   # exactly zero for any input (eps does not matter)
    xh_var = Fraction(1)    # exactly one with eps = 0 as in the worked example
    V, C, D, L = 50257, 1024, 768, 12
    tok = V * D
    pos = C * D
    att = 3 * D * D + D * D + D          # W_query/W_key/W_value without bias + out_proj with bias
    ff = D * 4 * D + 4 * D + 4 * D * D + D
    ln = 2 * D
    block = att + ff + 2 * ln
    head = D * V
    total = tok + pos + L * block + ln + head
    M = Fraction(1, 10 ** 6)
    pct = lambda n: Fraction(n * 100, total)
    specs = [
        S('hd', 'head_dim = emb_dim / n_heads', 3, E(2, Fraction(D, L), "head_dim = 768/12")),
        S('mu', '均值 μ = 1.125', 1, E(0, mu, "mean of [2.0,-1.0,3.0,0.5]")),
        S('var', '方差 σ² = 2.1875', 1, E(0, var, "population variance (true 2.296875)", 'wrong', 'slip')),
        S('xh', '归一化后:   [', 4,
          E(0, xh[0], "normalised x1 (0.5916 with the printed variance)", 'wrong', 'carried', 'var'),
          E(1, xh[1], "normalised x2 (-1.4368 with the printed variance)", 'wrong', 'carried', 'var'),
          E(2, xh[2], "normalised x3 (1.2677 with the printed variance)", 'wrong', 'carried', 'var'),
          E(3, xh[3], "normalised x4 (-0.4226 with the printed variance)", 'wrong', 'carried', 'var')),
        S('mv', '均值 ≈ 0, 方差 ≈ 1', 2, E(0, xh_mean, "mean of normalised vector"),
          E(1, xh_var, "variance of normalised vector (eps = 0)")),
        S('aff', '缩放平移后:', 2,
          E(0, xh[0], "normalised x1 repeated", 'wrong', 'carried', 'var'),
          E(1, xh[1], "normalised x2 repeated", 'wrong', 'carried', 'var')),
        S('tot', '# 输出: Total parameters:', 1, E(0, Fraction(total), "total parameter count")),
        S('tok', '# 50257 × 768 = ', 3, E(2, Fraction(tok), "token embedding parameters")),
        S('pos', '# 1024 × 768 = ', 3, E(2, Fraction(pos), "position embedding parameters")),
        S('blk', '# 约 10,000,000', 1, E(0, Fraction(block), "parameters of one TransformerBlock (true 7,085,568)", 'wrong', 'slip')),
        S('head', '# 768 × 50257 = ', 3, E(2, Fraction(head), "output head parameters")),
        S('t1', '| Token Embedding | ', 2, E(0, Fraction(tok) * M, "token embedding, millions"), E(1, pct(tok), "token embedding share %")),
        S('t2', '| Position Embedding | ', 2, E(0, Fraction(pos) * M, "position embedding, millions"), E(1, pct(pos), "position embedding share %")),
        S('t3', '| 12× Transformer Blocks | ', 3, E(1, Fraction(L * block) * M, "12 blocks, millions"),
          E(2, pct(L * block), "12 blocks share % (52.16)", 'wrong', 'rounding')),
        S('t4', '| Output Head | ', 2, E(0, Fraction(head) * M, "output head, millions"), E(1, pct(head), "output head share %")),
        S('t5', '| **总计** | ', 2, E(0, Fraction(total) * M, "total, millions"), E(1, Fraction(100), "total share %")),
    ]
    meta = {
        "doc": "zh_gpt_layernorm_params_notes.md",
        "source": "GitHub Markdown study note '# LLMs从零实现 - 第四章：构建完整的GPT模型架构' (notes on Raschka's Build a LLM from Scratch ch. 4); the code index did not expose the repository name (index file id 57783616656). Shortened: class bodies reduced to the parameter-defining parts",
        "source_kind": "GitHub notes",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with Python code blocks, plain-text formula blocks (Unicode μ σ² γ β) and Markdown tables; thousands separators and M / % suffixes",
        "conventions": "LayerNorm with population variance (unbiased=False), eps ignored in the worked 4-element example; parameter counts from the stated GPTModel (qkv_bias False, out_proj and FFN with bias, LayerNorm scale+shift, untied output head, final LayerNorm included in the total); M = 10^6",
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
    for fn in DOCS:
        exp = expectation(fn)
        name = os.path.join(HERE, exp["doc"].rsplit('.', 1)[0] + '.expect.json')
        if mode == '--write':
            with open(name, 'w', encoding='utf-8') as f:
                json.dump(exp, f, ensure_ascii=False, indent=1)
                f.write('\n')
        else:
            with open(name, encoding='utf-8') as f:
                have = json.load(f)
            assert have == exp, "expectation file out of date: %s" % name
        nw = sum(1 for r in exp["numbers"] if r["status"] == "wrong")
        print("%-40s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
