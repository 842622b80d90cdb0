#!/usr/bin/env python3
"""Independent truth for the Chinese first-contact documents (zh_*).

Standard library + mpmath only (mp.dps = 50).  Decimal text in a document is
read as an exact decimal (0.1 == Fraction(1, 10)).

    python _truth_zh.py          # (re)write the NAME.expect.json files
    python _truth_zh.py --check  # recompute and compare with the files on disk

For every listed number the script asserts that the literal really stands at
(line, column) of the document, that "ok" numbers equal the true value rounded
half away from zero at their printed places (integers: exactly equal), and
that "wrong" numbers do not.
"""
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP, getcontext
from fractions import Fraction as F

import mpmath as mp

mp.mp.dps = 50
getcontext().prec = 100
HERE = os.path.dirname(os.path.abspath(__file__))
NUM_RE = re.compile(r'-?[0-9]+(?:\.[0-9]*)?')


# ----------------------------------------------------------------- helpers
def mpm(x):
    return mp.mpf(x.numerator) / x.denominator if isinstance(x, F) else mp.mpf(x)


def D(s):
    """exact decimal text -> Fraction"""
    return F(Decimal(s))


def to_dec(x):
    if isinstance(x, F):
        return Decimal(x.numerator) / Decimal(x.denominator)
    if isinstance(x, int):
        return Decimal(x)
    return Decimal(mp.nstr(x, 45))


def truth_str(x):
    if isinstance(x, int):
        return str(x)
    if isinstance(x, F):
        d = x.denominator
        while d % 2 == 0:
            d //= 2
        while d % 5 == 0:
            d //= 5
        if d == 1:  # terminating decimal: print exactly
            s = format(to_dec(x), 'f')
            return s.rstrip('0').rstrip('.') if '.' in s else s
        return mp.nstr(mp.mpf(x.numerator) / x.denominator, 22)
    return mp.nstr(x, 22)


def matches(claimed, truth):
    """claimed literal == truth rounded half away from zero at printed places"""
    if '.' not in claimed:
        if isinstance(truth, (int, F)):
            return F(truth) == F(int(claimed))
        return False  # transcendental value is never an integer
    places = len(claimed.split('.', 1)[1])
    q = Decimal(1).scaleb(-places)
    return to_dec(truth).quantize(q, rounding=ROUND_HALF_UP) == Decimal(claimed)


def softmax(row):
    r = [mpm(v) for v in row]
    m = max(r)
    e = [mp.e ** (v - m) for v in r]
    s = mp.fsum(e)
    return [x / s for x in e]


def matmul(a, b):
    return [[sum((a[i][k] * b[k][j] for k in range(len(b))), F(0) if isinstance(a[0][0], F) else 0)
             for j in range(len(b[0]))] for i in range(len(a))]


def T(m):
    return [list(r) for r in zip(*m)]


def E(claimed, truth, what, status='ok', kind=None, cf=None):
    return dict(claimed=claimed, truth=truth, what=what, status=status, kind=kind, cf=cf)


def S(claimed):
    """a literal that is present but not listed (input, index, dimension, ambiguous)"""
    return dict(claimed=claimed, skip=True)


class Doc:
    def __init__(self, name):
        self.name = name
        with open(os.path.join(HERE, name), encoding='utf-8') as fh:
            self.lines = fh.read().split('\n')
        self.cur = 0
        self.labels = {}
        self.numbers = []

    def seek(self, sub, skip=0):
        for i in range(self.cur, len(self.lines)):
            if sub in self.lines[i]:
                self.cur = i + skip
                return
        raise AssertionError('%s: %r not found after line %d' % (self.name, sub, self.cur + 1))

    def take(self, specs, after=None, label=None):
        line = self.lines[self.cur]
        off = 0
        if after is not None:
            off = line.index(after) + len(after)
        found = [(m.start(), m.group()) for m in NUM_RE.finditer(line, off)]
        got = [c for _, c in found]
        want = [s['claimed'] for s in specs]
        assert got == want, '%s line %d: found %r, expected %r' % (self.name, self.cur + 1, got, want)
        lineno = self.cur + 1
        if label:
            self.labels[label] = lineno
        for (pos, lit), s in zip(found, specs):
            if s.get('skip'):
                continue
            ok = matches(lit, s['truth'])
            assert ok == (s['status'] == 'ok'), '%s line %d col %d: %s vs truth %s, status %s' % (
                self.name, lineno, pos + 1, lit, truth_str(s['truth']), s['status'])
            ent = {'line': lineno, 'column': pos + 1, 'claimed': lit, 'status': s['status']}
            if s['status'] == 'wrong':
                assert s['kind'] in ('slip', 'carried', 'rounding', 'rounding-carried', 'convention')
                ent['kind'] = s['kind']
                if s['kind'] in ('carried', 'rounding-carried'):
                    cf = s['cf']
                    ent['carried_from'] = self.labels[cf] if isinstance(cf, str) else (lineno if cf is None else cf)
            ent['truth'] = truth_str(s['truth'])
            ent['what'] = s['what']
            self.numbers.append(ent)
        self.cur += 1
        return lineno


# ================================================================ doc 1
def doc_flashgene():
    d = Doc('zh_selfattn_flashgene.md')
    X = [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]]
    Wk = [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]]
    Wq = [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]]
    Wv = [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]]
    K = matmul(X, Wk)
    Q = matmul(X, Wq)
    V = matmul(X, Wv)
    S_ = matmul(Q, T(K))  # no 1/sqrt(d_k) in this source
    A = [softmax([F(v) for v in row]) for row in S_]
    O = [[mp.fsum(A[i][j] * V[j][c] for j in range(3)) for c in range(3)] for i in range(3)]

    def mat(name, M, claimed, wrong=()):
        out = []
        flat = [(i, j) for i in range(3) for j in range(3)]
        for (i, j), c in zip(flat, claimed):
            if (i, j) in wrong:
                out.append(E(c, M[i][j], '%s row %d col %d' % (name, i + 1, j + 1), 'wrong', 'slip'))
            else:
                out.append(E(c, M[i][j], '%s row %d col %d' % (name, i + 1, j + 1)))
        return out

    d.seek('keys = np.dot')
    d.take(mat('keys = input @ w_key', K, '0 1 1 4 0 0 2 3 1'.split(), wrong={(1, 1)}), after='#', label='keys')
    d.take(mat('querys = input @ w_query', Q, '1 0 2 2 2 2 2 1 3'.split()), after='#')
    d.take(mat('values = input @ w_value', V, '1 2 3 2 8 0 2 6 3'.split()), after='#')
    d.seek('attn_scores_softmax = tf.nn.softmax')
    sm = []
    for (i, j), c in zip([(i, j) for i in range(3) for j in range(3)],
                         '0 0.5 0.5 0 1 0 0 0.9 0.1'.split()):
        if '.' in c:
            sm.append(E(c, A[i][j], 'softmax weights (unscaled scores), row %d col %d' % (i + 1, j + 1)))
        else:
            sm.append(S(c))  # integer-literal approximation of a softmax weight: ambiguous, not listed
    d.take(sm, after='#', label='softmax')
    d.seek('attn_scores_softmax.T[:,:,None] =', skip=1)
    for j in range(3):
        for i in range(3):
            d.take([E(['0.', '0.5', '0.5', '0.', '1.', '0.', '0.', '0.9', '0.1'][i * 3 + j], A[i][j],
                      'attn_scores_softmax.T printout = softmax weight row %d col %d (repeated)' % (i + 1, j + 1))],
                   after='#')
    d.seek('values[:, None] =', skip=1)
    for i in range(3):
        d.take([E(str(V[i][c]), V[i][c], 'values[:, None] printout, value row %d col %d (repeated)' % (i + 1, c + 1))
                for c in range(3)], after='#')
    d.seek('outputs = weighted_values.sum')
    outs = []
    for (i, j), c in zip([(i, j) for i in range(3) for j in range(3)],
                         '2 7 1.5 2 8 0 2 7.8 0.3'.split()):
        if '.' not in c:
            outs.append(S(c))  # integer-literal approximations: ambiguous, not listed
        elif c == '7.8':
            outs.append(E(c, O[i][j], 'output row %d col %d' % (i + 1, j + 1)))
        else:
            outs.append(E(c, O[i][j], 'output row %d col %d (computed from the 1-decimal softmax approximation)'
                          % (i + 1, j + 1), 'wrong', 'rounding-carried', 'softmax'))
    d.take(outs, after='#')
    meta = dict(
        source='https://flashgene.com/archives/228689.html (Chinese repost, section "图解实现一个self-attention", '
               'after towardsdatascience "Illustrated Self-Attention")',
        source_kind='blog',
        notation='Markdown with Python/NumPy code blocks; results given as inline comments (#[[..],[..]]) and as a '
                 'NumPy-style printout in comments; input @ W layout (rows are tokens)',
        conventions='K = input @ w_key etc. (4x3 weights); scores = querys @ keys.T with NO 1/sqrt(d_k) scaling; '
                    'row-wise softmax (tf.nn.softmax, last axis); outputs = softmax @ values; the softmax values are '
                    'shown rounded to 1 decimal and the outputs are computed from those rounded weights',
    )
    return d, meta


# ================================================================ doc 2
def doc_sinpe():
    d = Doc('zh_sinpe_github.md')
    # div_term_i = 10000^(2i/8) = 10^i exactly
    rows = [('0', F(0), '1', 1), ('0.25', F(1, 4), '10', 10), ('0.5', F(1, 2), '100', 100),
            ('0.75', F(3, 4), '1000', 1000)]
    d.seek('| 0 | 0 / 1')
    for i, (ec, ev, dc, dv) in enumerate(rows):
        d.take([S(str(i)), S(str(2 * i)), S(str(2 * i + 1)), S('10000'),
                E(ec, ev, 'exponent 2i/d_model for i=%d' % i),
                E(dc, dv, 'div_term_%d = 10000^(2i/d_model)' % i)])
    d.seek(r'\text{PE}(2, 0)')
    pe = []
    divs = [1, 10, 100, 1000]
    arg_lits = ['2.0', '0.2', '0.02', '0.002']
    pe_lits = ['0.9093', '-0.4161', '0.1987', '0.9801', '0.0200', '0.9998', '0.0020', '0.9999']
    for k in range(8):
        i = k // 2
        arg = F(2, divs[i])
        val = (mp.sin if k % 2 == 0 else mp.cos)(mpm(arg))
        pe.append(val)
        lit = pe_lits[k]
        if lit == '0.9999':
            last = E(lit, val, 'PE(2,7) = cos(0.002) (truncated, not rounded)', 'wrong', 'rounding')
        else:
            last = E(lit, val, 'PE(2,%d) = %s(%s)' % (k, 'sin' if k % 2 == 0 else 'cos', arg_lits[i]))
        d.take([S('2'), S(str(k)), S('2'),
                E(str(divs[i]), divs[i], 'div_term_%d repeated in 2/%d' % (i, divs[i])),
                E(arg_lits[i], arg, 'argument pos/div_term = 2/%d' % divs[i]),
                last])
    d.seek('[0.9093, -0.4161')
    vec = []
    for k, lit in enumerate(pe_lits):
        if lit == '0.9999':
            vec.append(E(lit, pe[k], 'PE vector pos=2, dim 7 (repeated; truncated, not rounded)', 'wrong', 'rounding'))
        else:
            vec.append(E(lit, pe[k], 'PE vector pos=2, dim %d (repeated)' % k))
    d.take(vec)
    d.seek(r'\Delta = \sin(0.1001)')
    s1, s0 = mp.sin(mp.mpf(1001) / 10000), mp.sin(mp.mpf(1) / 10)
    d.take([E('0.1001', F(1001, 10000), 'argument 10^-4 * 1001'),
            E('0.1000', F(1, 10), 'argument 10^-4 * 1000'),
            E('0.0998337', s1, 'sin(0.1001)', 'wrong', 'slip'),
            E('0.0998334', s0, 'sin(0.1000)'),
            E('0.0000003', s1 - s0, 'Delta = sin(0.1001) - sin(0.1000) (difference of the two printed values)',
              'wrong', 'carried', None)])
    meta = dict(
        source='GitHub Chinese study notes (Markdown, "# 一、Sinusoidal PE是什么？ ... 二、Sinusoidal PE的远程衰减特性 ... '
               '三、Sinusoidal PE的缺陷"); repository name not exposed by the search index (stored file id 41643851248; '
               'a second copy is id 52953773180)',
        source_kind='GitHub notes',
        notation='Markdown + $$ aligned block, Markdown table with inline $..$, a plain bracketed vector, NumPy code',
        conventions='PE(pos,2i)=sin(pos/10000^(2i/d_model)), PE(pos,2i+1)=cos(...); pos from 0; d_model=8, pos=2; '
                    'interleaved sin/cos; radians. Not listed: the exponent and 10^{-4} of the "i = 256, d_model = 512" '
                    'remark (written as powers)',
    )
    return d, meta


# ================================================================ doc 3
def doc_attn():
    d = Doc('zh_attn_example_github.md')
    X = [[1, 2, 3, 4], [4, 3, 2, 1]]
    Wq = [[1, 0], [0, 1], [1, 0], [0, 1]]
    Wk = [[0, 1], [1, 0], [0, 1], [1, 0]]
    Wv = [[1, 0], [0, 1], [1, 0], [0, 1]]
    Q, K, V = matmul(X, Wq), matmul(X, Wk), matmul(X, Wv)
    KT = T(K)
    QK = matmul(Q, KT)
    Sc = [[mpm(F(v)) / mp.sqrt(2) for v in r] for r in QK]
    A = [softmax(r) for r in Sc]
    O = [[mp.fsum(A[i][j] * V[j][c] for j in range(2)) for c in range(2)] for i in range(2)]

    def rows(M, lits, name, kind, cf=None, label=None, extra=''):
        for i in range(2):
            specs = []
            for j in range(2):
                lit = lits[i][j]
                what = '%s row %d col %d%s' % (name, i + 1, j + 1, extra)
                k = kind[i] if isinstance(kind, list) else kind
                c = cf[i] if isinstance(cf, list) else cf
                if k is None:
                    specs.append(E(lit, M[i][j], what))
                else:
                    specs.append(E(lit, M[i][j], what, 'wrong', k, c))
            d.take(specs, label=(label + str(i + 1)) if label else None)

    d.seek(r'Q = XW_Q = \begin{bmatrix}', skip=1)
    rows(Q, [['1', '2'], ['4', '3']], 'Q = X W_Q', 'slip', label='Q')
    d.seek(r'K = XW_K = \begin{bmatrix}', skip=1)
    rows(K, [['2', '1'], ['3', '4']], 'K = X W_K', 'slip', label='K')
    d.seek(r'V = XW_V = \begin{bmatrix}', skip=1)
    rows(V, [['1', '2'], ['4', '3']], 'V = X W_V', 'slip', label='V')
    d.seek(r'QK^T = \begin{bmatrix}', skip=1)
    rows(Q, [['1', '2'], ['4', '3']], 'Q', 'slip', extra=' (Q repeated in the product)')
    d.seek(r'\begin{bmatrix}', skip=1)
    rows(KT, [['2', '3'], ['1', '4']], 'K^T', 'carried', cf=['K1', 'K2'], extra=' (transpose of the printed K)')
    d.seek(r'= \begin{bmatrix}', skip=1)
    rows(QK, [['4', '11'], ['11', '24']], 'QK^T', 'carried', cf=['Q1', 'Q2'], label='QK')
    d.seek(r'\frac{QK^T}{\sqrt{2}} = \begin{bmatrix}', skip=1)
    rows(Sc, [['2.828', '7.778'], ['7.778', '16.971']], 'QK^T/sqrt(2)', 'carried', cf=['QK1', 'QK2'], label='S')
    d.seek(r'\text{Attention Weights} = \begin{bmatrix}', skip=1)
    rows(A, [['0.016', '0.984'], ['0.000', '1.000']], 'softmax weights', ['slip', 'carried'], cf=[None, 'S2'],
         label='A', extra='')
    d.seek(r'\text{Output} = \text{Attention Weights} \cdot V = \begin{bmatrix}', skip=1)
    rows(A, [['0.016', '0.984'], ['0.000', '1.000']], 'softmax weights', ['slip', 'carried'], cf=[None, 'S2'],
         extra=' (repeated in the product)')
    d.seek(r'\begin{bmatrix}', skip=1)
    rows(V, [['1', '2'], ['4', '3']], 'V', 'slip', extra=' (V repeated in the product)')
    d.seek(r'= \begin{bmatrix}', skip=1)
    rows(O, [['3.952', '2.984'], ['4.000', '3.000']], 'output = weights @ V', 'carried', cf=['A1', 'A2'])
    meta = dict(
        source='GitHub Chinese study notes (Markdown "# Transformer" with sections "## Attention", "### 6. 详细例子", '
               '"## Multi-Head Attention"); repository name not exposed by the search index (stored file id '
               '48413597167). Kept: the single-head worked example (the source repeats it for head 1 of a 2-head '
               'example, omitted here)',
        source_kind='GitHub notes',
        notation='Markdown + $$ bmatrix (one matrix row per line), tokens as rows, Q = X W_Q',
        conventions='Q = X W_Q, K = X W_K, V = X W_V (4x2 weights), scores = Q K^T / sqrt(d_k) with d_k = 2, '
                    'row-wise softmax, output = weights @ V, 3 decimals. (The printed Q, K, V equal X[:, :2] @ W[:2], '
                    'i.e. rows 3-4 of each W are ignored; the later steps are computed from those printed values.)',
    )
    return d, meta


# ================================================================ doc 4
def doc_simple():
    d = Doc('zh_simple_selfattn_blog.md')
    X = [[D(v) for v in r.split()] for r in
         ['0.43 0.15 0.89', '0.55 0.87 0.66', '0.57 0.85 0.64', '0.22 0.58 0.33', '0.77 0.25 0.10',
          '0.05 0.80 0.55']]
    q = X[1]
    sc = [sum(a * b for a, b in zip(x, q)) for x in X]
    tot = sum(sc)
    nrm = [s / tot for s in sc]
    A = softmax(sc)
    ctx = [mp.fsum(A[i] * mpm(X[i][c]) for i in range(6)) for c in range(3)]
    d.seek('0.43*0.55+0.15*0.87+0.89*0.66=0.9544')
    d.take([S('0.43'), S('0.55'), S('0.15'), S('0.87'), S('0.89'), S('0.66'),
            E('0.9544', sc[0], 'dot(x1, x2) worked by hand')])
    d.seek('tensor([0.9544')
    lits = ['0.9544', '1.4950', '1.4754', '0.8434', '0.7070', '1.0865']
    d.take([E(l, sc[i], 'attn_scores_2[%d] = x%d . x2' % (i, i + 1)) for i, l in enumerate(lits)])
    d.seek('`1.4950`')
    d.take([E('1.4950', sc[1], 'attn_scores_2[1] quoted again')], after='`')
    d.seek('权重就是 6/(6+4)')
    d.take([S('6'), S('6'), S('4'), E('0.6', F(3, 5), 'apple example 6/(6+4)'),
            S('4'), S('6'), S('4'), E('0.4', F(2, 5), 'apple example 4/(6+4)')], after='权重就是')
    d.seek('如 1.4950, 1.4574, 1.0865')
    d.take([E('1.4950', sc[1], 'score above 1 quoted: attn_scores_2[1]'),
            E('1.4574', sc[2], 'score above 1 quoted: attn_scores_2[2] (digits transposed)', 'wrong', 'slip'),
            E('1.0865', sc[5], 'score above 1 quoted: attn_scores_2[5]')], after='如 ')
    d.seek('Attention weights: tensor([0.1455')
    lits = ['0.1455', '0.2278', '0.2249', '0.1285', '0.1077', '0.1656']
    d.take([E(l, nrm[i], 'sum-normalised weight %d' % i) for i, l in enumerate(lits)], after='tensor(')
    d.seek('Sum: tensor(1.0000)')
    d.take([E('1.0000', sum(nrm), 'sum of sum-normalised weights')], after='tensor(')
    d.seek('Attention weights: tensor([0.1385')
    lits = ['0.1385', '0.2379', '0.2333', '0.1240', '0.1082', '0.1581']
    d.take([E(l, A[i], 'softmax weight %d' % i) for i, l in enumerate(lits)], after='tensor(')
    d.seek('Sum: tensor(1.)')
    d.take([E('1.', mp.fsum(A), 'sum of softmax weights')], after='tensor(')
    d.seek('tensor([0.4419')
    lits = ['0.4419', '0.6515', '0.5683']
    d.take([E(l, ctx[c], 'context vector z2[%d]' % c) for c, l in enumerate(lits)], after='tensor(')
    meta = dict(
        source='Chinese Hugo blog post on GitHub, "《从零构建大模型》阅读笔记(二)" (url slug '
               '/build-a-large-language-model-from-scratch-reading-notes-2/), notes on ch. 3 of Raschka, Build a LLM '
               'from Scratch; repository name not exposed by the search index (stored file id 59217896650). Kept: the '
               'simplified self-attention part (without trainable weights)',
        source_kind='blog',
        notation='Markdown with PyTorch code blocks and text blocks of tensor printouts (4 decimals), inline '
                 'backticked arithmetic, tokens from x^(1)',
        conventions='no projection weights: scores = inputs @ query (dot products, no scaling), sum-normalisation '
                    'and torch.softmax(dim=0); context z2 = sum_i softmax_i * x_i; printouts are float32 values '
                    'printed to 4 decimals',
    )
    return d, meta


# ================================================================ doc 5
def doc_gpt():
    d = Doc('zh_gptblock_notes.txt')

    def ln(v):
        n = len(v)
        mu = sum(v) / n
        var = sum((a - mu) ** 2 for a in v) / n  # population variance, no eps (np.std)
        sd = mp.sqrt(mpm(var))
        return mu, sd, [mpm(a - mu) / sd for a in v]

    x = [D('0.5'), D('-0.2'), D('0.1')]
    mu, sd, xn = ln(x)
    att = [D('0.6'), D('-0.15'), D('0.08')]
    r1 = [a + b for a, b in zip(att, x)]
    _, _, n2 = ln(r1)
    ffn = [D('0.55'), D('-0.25'), D('0.12')]
    r2 = [a + b for a, b in zip(ffn, r1)]
    d.seek('均值 = 0.13')
    d.take([E('0.13', mu, 'LayerNorm 1 mean of x'),
            E('0.25', sd, 'LayerNorm 1 std of x (population; sample std would be 0.3512)', 'wrong', 'slip')],
           label='stats')
    d.seek('归一化后：[1.48')
    d.take([E('1.48', xn[0], 'LayerNorm 1 output dim 1 (= (0.5-0.13)/0.25)', 'wrong', 'carried', 'stats'),
            E('-1.32', xn[1], 'LayerNorm 1 output dim 2 (= (-0.2-0.13)/0.25)', 'wrong', 'carried', 'stats'),
            E('0.32', xn[2], 'LayerNorm 1 output dim 3 (its own mean/std give -0.12)', 'wrong', 'slip')],
           after='：')
    d.seek('输出 + 输入 = [1.1')
    d.take([E(c, r1[i], 'residual 1: attention output + x, dim %d' % (i + 1))
            for i, c in enumerate(['1.1', '-0.35', '0.18'])], after='=')
    d.seek('输出：[1.20')
    d.take([E(c, n2[i], 'LayerNorm 2 of [1.1, -0.35, 0.18], dim %d' % (i + 1), 'wrong', 'slip')
            for i, c in enumerate(['1.20', '-1.40', '0.35'])], after='：')
    d.seek('输出 + 步骤3的输出 = [1.65')
    d.take([E(c, r2[i], 'residual 2: FFN output + step-3 output, dim %d' % (i + 1))
            for i, c in enumerate(['1.65', '-0.60', '0.30'])], after='=')
    d.seek('y = [1.65')
    d.take([E(c, r2[i], 'block output y, dim %d (repeated)' % (i + 1))
            for i, c in enumerate(['1.65', '-0.60', '0.30'])], after='=')
    meta = dict(
        source='GitHub Chinese tutorial chapter "# 10.7 GPT 架构详解" (section "数值演示：一个 GPT Block 的处理"); '
               'repository name not exposed by the search index (stored file id 54730444738). Kept: the GPT-block '
               'numeric demo and its LayerNorm code; the made-up next-token probability demos are omitted',
        source_kind='course notes',
        notation='plain text (Chinese tutorial / WeChat style), bracketed vectors, "均值 = ..., 标准差 = ..." lines, '
                 'a short NumPy snippet',
        conventions='Pre-LN block; LayerNorm = (x - mean)/std with population std (np.std), no eps, no gamma/beta; '
                    'the attention output [0.6, -0.15, 0.08] and FFN output [0.55, -0.25, 0.12] are given, not '
                    'computed (not listed); residual = sublayer output + block input',
    )
    return d, meta


# ================================================================ main
DOCS = [doc_flashgene, doc_sinpe, doc_attn, doc_simple, doc_gpt]


def build():
    out = {}
    for fn in DOCS:
        d, meta = fn()
        exp = {
            'doc': d.name,
            'source': meta['source'],
            'source_kind': meta['source_kind'],
            'language': 'zh',
            'errors_as_published': any(n['status'] == 'wrong' for n in d.numbers),
            'notation': meta['notation'],
            'conventions': meta['conventions'],
            'numbers': d.numbers,
        }
        out[d.name.rsplit('.', 1)[0] + '.expect.json'] = exp
    return out


def main():
    check = '--check' in sys.argv[1:]
    out = build()
    bad = 0
    for fname, exp in out.items():
        path = os.path.join(HERE, fname)
        text = json.dumps(exp, ensure_ascii=False, indent=2) + '\n'
        if check:
            if not os.path.exists(path):
                print('MISSING', fname)
                bad += 1
                continue
            with open(path, encoding='utf-8') as fh:
                disk = json.load(fh)
            if disk != exp:
                print('DIFFERS', fname)
                bad += 1
        else:
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(text)
        n_ok = sum(1 for n in exp['numbers'] if n['status'] == 'ok')
        n_wrong = len(exp['numbers']) - n_ok
        print('%-40s ok=%3d wrong=%3d' % (exp['doc'], n_ok, n_wrong))
    if bad:
        sys.exit(1)


if __name__ == '__main__':
    main()
