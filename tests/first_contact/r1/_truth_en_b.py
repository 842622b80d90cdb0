#!/usr/bin/env python3
"""Independent true values for the second set of English first-contact documents (r1).

Two English helpers wrote into r1; the other set is checked by _truth_en.py.  This script
covers only: en_flash_attention_blog.txt, en_layernorm_pytorch_notes.md,
en_attention_scores_course.md, en_sdpa_exercise_page.md, en_jax_temperature_snippet.md.

Only fractions, decimal and mpmath (mp.dps = 50) are used.  Decimal text in
the documents is read as an exact decimal (0.1 is Fraction(1, 10)).

Usage (from /work/main):
    .venv/bin/python tests/first_contact/r1/_truth_en_b.py          # (re)write *.expect.json
    .venv/bin/python tests/first_contact/r1/_truth_en_b.py --check  # verify, exit 0 if all good
    .venv/bin/python tests/first_contact/r1/_truth_en_b.py --table  # print every listed number
"""
import json
import os
import sys
from decimal import Decimal, ROUND_HALF_UP, getcontext
from fractions import Fraction as Fr

import mpmath
from mpmath import mp

mp.dps = 50
getcontext().prec = 90
HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------- numbers
def M(x):
    """to mpf (exact Fractions go through their numerator/denominator)"""
    if isinstance(x, Fr):
        return mp.mpf(x.numerator) / x.denominator
    if isinstance(x, int):
        return mp.mpf(x)
    return mp.mpf(x)


def Dec(x):
    """to Decimal: exact for Fractions with terminating expansions, 50 digits otherwise"""
    if isinstance(x, int):
        return Decimal(x)
    if isinstance(x, Fr):
        return Decimal(x.numerator) / Decimal(x.denominator)
    return Decimal(mpmath.nstr(x, 50, strip_zeros=False))


def truth_str(x):
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fr):
        if x.denominator == 1:
            return str(x.numerator)
        d = Dec(x)
        s = format(d.normalize(), 'f')
        if len(s.replace('-', '').replace('.', '').lstrip('0')) <= 22:
            return s
        return mpmath.nstr(M(x), 22)
    return mpmath.nstr(x, 22)


def parse_claim(c):
    pct = c.endswith('%')
    t = c[:-1] if pct else c
    t = t.replace(',', '')
    return Decimal(t), pct


def is_int_literal(c):
    t = c.rstrip('%').replace(',', '')
    return all(ch.isdigit() or ch == '-' for ch in t)


def rounds_to(c, truth):
    """True iff claimed literal c equals truth rounded half away from zero at c's places."""
    val, pct = parse_claim(c)
    t = Dec(truth)
    if pct:
        t = t * 100
    if is_int_literal(c) and not pct:
        # integer literal: exact equality (only exact integers are listed as such);
        # whole percentages such as 39% are rounded displays and are compared after rounding
        return t == val
    q = Decimal(1).scaleb(val.as_tuple().exponent)
    return t.quantize(q, rounding=ROUND_HALF_UP) == val


def ulps_off(c, truth):
    val, pct = parse_claim(c)
    t = Dec(truth)
    if pct:
        t = t * 100
    exp = val.as_tuple().exponent
    q = Decimal(1).scaleb(exp)
    r = t.quantize(q, rounding=ROUND_HALF_UP)
    return abs((val - r).scaleb(-exp))


def softmax(xs):
    es = [mp.e ** M(x) for x in xs]
    s = mp.fsum(es)
    return [e / s for e in es]


def matmul(A, B):
    return [[sum((A[i][k] * B[k][j] for k in range(len(B))), Fr(0)) if isinstance(A[i][0], (Fr, int)) and isinstance(B[0][j], (Fr, int))
             else mp.fsum(M(A[i][k]) * M(B[k][j]) for k in range(len(B)))
             for j in range(len(B[0]))] for i in range(len(A))]


def fr(s):
    return Fr(s)


# ----------------------------------------------------------------- spec DSL
class Item:
    def __init__(self, claimed, truth, what, kind=None, cf=None, label=None):
        self.claimed, self.truth, self.what = claimed, truth, what
        self.kind, self.cf, self.label = kind, cf, label


def I(*a, **k):
    return Item(*a, **k)


class Row:
    def __init__(self, anchor, items, occ=None, after=None, offset=0):
        self.anchor, self.items, self.occ, self.after, self.offset = anchor, items, occ, after, offset


def R(*a, **k):
    return Row(*a, **k)


NUMCH = set('0123456789')


def find_literal(line, lit, start):
    pos = start
    while True:
        i = line.find(lit, pos)
        if i < 0:
            return -1
        j = i + len(lit)
        before = line[i - 1] if i > 0 else ' '
        after = line[j:j + 2]
        ok = True
        if before in NUMCH or before == '.' or before.isalpha() or before == '_':
            ok = False
        if before == '-' and not lit.startswith('-'):
            ok = False
        if after[:1] in NUMCH:
            ok = False
        if after[:1] == '.' and after[1:2] in NUMCH:
            ok = False
        if after[:1] in ('e', 'E') and (after[1:2] in NUMCH or after[1:2] in '+-') and after[1:2] != '':
            ok = False
        if after[:1] == '%' and not lit.endswith('%'):
            ok = False
        if after[:1] == ',' and after[1:2] in NUMCH and not (',' in lit):
            ok = False
        if ok:
            return i
        pos = i + 1


def locate(lines, row):
    idx = [k for k, l in enumerate(lines) if row.anchor in l]
    if row.occ is None:
        assert len(idx) == 1, ('anchor not unique / missing', row.anchor, len(idx))
        li = idx[0]
    else:
        li = idx[row.occ]
    li += row.offset
    line = lines[li]
    start = 0
    if row.after is not None:
        sub, n = row.after if isinstance(row.after, tuple) else (row.after, 0)
        p = -1
        for _ in range(n + 1):
            p = line.find(sub, p + 1)
            assert p >= 0, ('after marker missing', sub, line)
        start = p + len(sub)
    out = []
    for it in row.items:
        i = find_literal(line, it.claimed, start)
        assert i >= 0, ('literal not found', it.claimed, 'in line', li + 1, line)
        out.append((li + 1, i + 1, it))
        start = i + len(it.claimed)
    return out


KINDS = {'slip', 'carried', 'rounding', 'rounding-carried', 'convention'}


def build(doc):
    path = os.path.join(HERE, doc['doc'])
    with open(path, encoding='utf-8') as f:
        text = f.read()
    lines = text.split('\n')
    placed = []
    for row in doc['rows']:
        placed.extend(locate(lines, row))
    labels = {}
    for ln, col, it in placed:
        if it.label:
            assert it.label not in labels, it.label
            labels[it.label] = ln
    seen = set()
    nums = []
    for ln, col, it in placed:
        assert (ln, col) not in seen, ('listed twice', ln, col)
        seen.add((ln, col))
        # the literal really stands there
        assert lines[ln - 1][col - 1:col - 1 + len(it.claimed)] == it.claimed
        ok = rounds_to(it.claimed, it.truth)
        e = {'line': ln, 'column': col, 'claimed': it.claimed,
             'status': 'ok' if ok else 'wrong'}
        if ok:
            assert it.kind is None, ('declared a kind for a correct number', ln, col, it.claimed, truth_str(it.truth))
        else:
            assert it.kind in KINDS, ('wrong number without kind', ln, col, it.claimed, truth_str(it.truth))
            e['kind'] = it.kind
            if it.kind == 'rounding':
                assert ulps_off(it.claimed, it.truth) == 1, ('not a last-digit error', ln, col, it.claimed)
            if it.kind in ('carried', 'rounding-carried'):
                assert it.cf in labels, ('carried_from label missing', it.cf, ln, col)
                e['carried_from'] = labels[it.cf]
        e['truth'] = truth_str(it.truth)
        e['what'] = it.what
        nums.append(e)
    nums.sort(key=lambda e: (e['line'], e['column']))
    out = {k: doc[k] for k in ('doc', 'source', 'source_kind', 'language', 'errors_as_published',
                               'notation', 'conventions')}
    assert out['errors_as_published'] == any(n['status'] == 'wrong' for n in nums), doc['doc']
    out['numbers'] = nums
    return out


DOCS = []



# ======================================================================
# 1. en_flash_attention_blog.txt  (mylearningnoteforai.blogspot.com)
# ======================================================================
def lit_join(xs):
    return ', '.join(xs)


def doc_flash_blog():
    Q = [[1, 0, 2, 0], [0, 1, 1, 0], [1, 1, 0, 1], [0, 2, 1, 1]]
    K = [[2, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1], [0, 0, 2, 1]]
    V = [[1, 0], [0, 1], [1, 1], [2, 1]]
    S = [[Fr(sum(Q[i][k] * K[j][k] for k in range(4)), 2) for j in range(4)] for i in range(4)]
    P = [softmax(r) for r in S]
    O = [[mp.fsum(P[i][j] * V[j][c] for j in range(4)) for c in range(2)] for i in range(4)]

    def lit1(x):
        return format(Dec(x).quantize(Decimal('0.1')), 'f')

    rows = []
    s_anchor = ['[ [1.0, 1.0, 1.5, 2.0],', '  [0.5, 1.0, 0.5, 1.0],', '  [1.5, 0.5, 1.0, 0.5],', '  [1.0, 1.5, 1.0, 1.5] ]']
    for i in range(4):
        rows.append(R(s_anchor[i], [I(lit1(S[i][j]), S[i][j], 'S = QK^T/2, row %d col %d' % (i + 1, j + 1)) for j in range(4)]))
    p_lit = [['0.1570', '0.1570', '0.2588', '0.4269'], ['0.1887', '0.3113', '0.1887', '0.3113'],
             ['0.4271', '0.1571', '0.2589', '0.1571'], ['0.1888', '0.3112', '0.1888', '0.3112']]
    for i in range(4):
        items = []
        for j in range(4):
            c = p_lit[i][j]
            k = None if rounds_to(c, P[i][j]) else ('rounding' if ulps_off(c, P[i][j]) == 1 else 'slip')
            items.append(I(c, P[i][j], 'P = softmax_row(S), row %d col %d' % (i + 1, j + 1), kind=k,
                           label=('P%d' % (i + 1) if j == 0 else None)))
        rows.append(R(p_lit[i][0] + ', ' + p_lit[i][1] + ', ' + p_lit[i][2], items))
    o_lit = [['1.2696', '0.8427'], ['1.0000', '0.8113'], ['1.0000', '0.5731'], ['1.0000', '0.8112']]
    for i in range(4):
        items = []
        for c in range(2):
            lit = o_lit[i][c]
            ok = rounds_to(lit, O[i][c])
            items.append(I(lit, O[i][c], 'O = P V, row %d col %d' % (i + 1, c + 1),
                           kind=None if ok else 'carried', cf=None if ok else 'P%d' % (i + 1)))
        rows.append(R(lit_join(o_lit[i]), items))
    tiles = {'S_{A1,B1} =': (0, 0), 'S_{A1,B2} =': (0, 2), 'S_{A2,B1} =': (2, 0), 'S_{A2,B2} =': (2, 2)}
    for anchor, (r0, c0) in tiles.items():
        for dr in range(2):
            rows.append(R(anchor, [I(lit1(S[r0 + dr][c0 + dc]), S[r0 + dr][c0 + dc],
                                     'tile %s row %d col %d (= S[%d][%d])' % (anchor[:-2], dr + 1, dc + 1, r0 + dr + 1, c0 + dc + 1))
                                   for dc in range(2)], offset=dr + 1))
    return {
        'doc': 'en_flash_attention_blog.txt',
        'source': 'https://mylearningnoteforai.blogspot.com/2025/09/flash-attension.html ("flash attension")',
        'source_kind': 'blog',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'plain text, nested-list matrices [ [a, b], ... ], "P ≈" blocks with 4 decimals, ===== section banners; tiles named S_{A1,B1}',
        'conventions': 'scale 1/sqrt(d) = 1/2 with d = 4; S = QK^T/2 (rows = queries), row-wise softmax, O = P V; the "1/2" in the header and the Q/K/V tiles (slices of the inputs) are not listed',
        'rows': rows,
    }


DOCS.append(doc_flash_blog)


# ======================================================================
# 2. en_layernorm_pytorch_notes.md  (micwill755/transformer)
# ======================================================================
def doc_layernorm():
    E = [[Fr(s) for s in r.split()] for r in ('0.1 0.3 -0.2 0.8', '0.0 0.1 0.4 -0.1', '0.5 -0.3 0.2 0.6',
                                             '0.2 0.7 -0.4 0.3', '-0.1 0.4 0.8 -0.2', '0.3 -0.1 0.1 0.5')]
    eps = Fr(1, 10 ** 5)
    mean = [sum(r) / 4 for r in E]
    ss = [sum((x - m) ** 2 for x in r) for r, m in zip(E, mean)]
    popvar = [s / 4 for s in ss]
    unb_std = [mp.sqrt(M(s / 3)) for s in ss]
    pop_std = [mp.sqrt(M(v)) for v in popvar]
    normed = [[M(x - m) / mp.sqrt(M(v + eps)) for x in r] for r, m, v in zip(E, mean, popvar)]
    new_mean = [Fr(0)] * 6          # exactly zero (sum of deviations is 0)
    new_std_unb = [mp.sqrt(M(Fr(4, 3) * v / (v + eps))) for v in popvar]   # torch .std() is unbiased
    names = ['"Hello"', '","', '" how"', '" are"', '" you"', '"?"']
    rows = []
    m_lit = ['0.2500', '0.1000', '0.2500', '0.2000', '0.2250', '0.2000']
    rows.append(R('Original means per token: tensor(', [I(m_lit[i], mean[i], 'mean of token %s' % names[i]) for i in range(6)]))
    s_lit = ['0.3640', '0.2082', '0.3742', '0.4243', '0.4240', '0.2449']
    items = []
    for i in range(6):
        k = None if rounds_to(s_lit[i], unb_std[i]) else ('convention' if rounds_to(s_lit[i], pop_std[i]) else 'slip')
        w = 'embeddings.std(dim=-1) of token %s (torch default: unbiased, n-1); population std = %s' % (names[i], mpmath.nstr(pop_std[i], 8))
        items.append(I(s_lit[i], unb_std[i], w, kind=k, label='stds' if i == 0 else None))
    rows.append(R('Original stds per token: tensor(', items))
    n_lit = [['-0.4124', '0.1375', '-1.2371', '1.5120'], ['-0.4804', '0.0000', '1.4414', '-0.9610'],
             ['0.6682', '-1.4706', '-0.1336', '0.9360'], ['0.0000', '1.1785', '-1.4142', '0.2357'],
             ['-0.7660', '0.4123', '1.3540', '-1.0003'], ['0.4082', '-1.2247', '-0.4082', '1.2247']]
    anchors = ['tensor([[-0.4124,  0.1375', '        [-0.4804,  0.0000', '        [ 0.6682, -1.4706',
               '        [ 0.0000,  1.1785', '        [-0.7660,  0.4123', '        [ 0.4082, -1.2247']
    for i in range(6):
        items = []
        for j in range(4):
            c = n_lit[i][j]
            if rounds_to(c, normed[i][j]):
                k, cf = None, None
            elif i == 0:
                k, cf = ('rounding' if ulps_off(c, normed[i][j]) == 1 else 'slip'), None
            else:
                k, cf = 'carried', 'stds'
            items.append(I(c, normed[i][j], 'manual_layer_norm (eps = 1e-5), token %s feature %d' % (names[i], j + 1), kind=k, cf=cf))
        rows.append(R(anchors[i], items))
    rows.append(R('New means per token: tensor(', [I(c, new_mean[i], 'mean of normalized token %s (exactly 0)' % names[i])
                                                   for i, c in enumerate(['-0.0000', '0.0000', '0.0000', '-0.0000', '0.0000', '0.0000'])]))
    items = []
    for i in range(6):
        w = ('normalized_manual.std(dim=-1) of token %s: torch default is unbiased (n-1), giving sqrt(4/3)*sqrt(var/(var+eps)); '
             '1.0000 is the population-std reading' % names[i])
        if i in (1, 5):
            w += ' (with eps = 1e-5 even the population std is %s)' % mpmath.nstr(mp.sqrt(M(popvar[i] / (popvar[i] + eps))), 8)
        items.append(I('1.0000', new_std_unb[i], w, kind='convention'))
    rows.append(R('New stds per token: tensor(', items))
    h = E[0]
    rows += [
        R('Mean: 0.250', [I('0.250', mean[0], '"Hello" mean')]),
        R('Variance: 0.132', [I('0.132', popvar[0], '"Hello" population variance, exactly 0.1325 (float32 prints 0.132; rounded half away from zero it is 0.133)', kind='rounding')]),
        R('Standard deviation: 0.364', [I('0.364', pop_std[0], '"Hello" population std')]),
    ]
    nh = [M(x - mean[0]) / pop_std[0] for x in h]
    items = []
    for j, c in enumerate(['-0.4124', '0.1375', '-1.2371', '1.5120']):
        k = None if rounds_to(c, nh[j]) else ('rounding' if ulps_off(c, nh[j]) == 1 else 'slip')
        items.append(I(c, nh[j], "normalized 'Hello' (no eps), feature %d" % (j + 1), kind=k))
    rows.append(R("Normalized 'Hello': tensor(", items, after='tensor('))
    rows += [
        R('Normalized mean: 0.000000', [I('0.000000', Fr(0), "mean of normalized 'Hello'")]),
        R('Normalized std: 1.000000', [I('1.000000', mp.sqrt(mp.mpf(4) / 3),
                                          "normalized_hello.std(): torch default unbiased (n-1) gives sqrt(4/3); 1.000000 is the population std", kind='convention')]),
    ]
    return {
        'doc': 'en_layernorm_pytorch_notes.md',
        'source': 'github micwill755/transformer:lesson/docs/Layer_Normalization_Explained.md (sections "Complete Code Example" and "Expected Output"; the other English set uses the "Hello" walkthrough of the same file)',
        'source_kind': 'GitHub notes',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'Markdown, Python code block and an "Expected Output" block of PyTorch tensor printouts (4 decimals, -0.0000) and f-string prints (.3f, .6f)',
        'conventions': 'layer norm over the 4 features of each token; manual_layer_norm uses the population variance (unbiased=False) and eps = 1e-5 inside the square root; the Hello breakdown divides by sqrt(population variance) without eps; tensor.std() in the printouts is the PyTorch default (unbiased, n-1); echoed input tensors are not listed',
        'rows': rows,
    }


DOCS.append(doc_layernorm)


# ======================================================================
# 3. en_attention_scores_course.md  (vukrosic/universe-lm course, lessons 3-4)
# ======================================================================
def doc_course():
    s = [1, 1, 0]
    r3 = mp.sqrt(3)
    sc = [M(x) / r3 for x in s]
    ex = [mp.e ** x for x in sc]
    tot = mp.fsum(ex)
    w = [x / tot for x in ex]
    z = [w[1] + w[2], w[0] + w[2], w[0] + w[1]]
    rows = [
        R('**Score for "The" on "The":**', [I('1', 1, 'score q1.k1')], after='0*0 = '),
        R('**Score for "The" on "cat":**', [I('1', 1, 'score q1.k2')], after='0*0 = '),
        R('**Score for "The" on "sat":**', [I('0', 0, 'score q1.k3')], after='0*1 = '),
        R('so the divisor is `sqrt(3)', [I('1.732', r3, 'sqrt(d_k), d_k = 3')], after='≈ '),
        R('- `1 / 1.732 = 0.577`', [I('1', 1, 'score 1 (again)'), I('1.732', r3, 'sqrt(3) (again)'), I('0.577', sc[0], 'scaled score 1')], occ=0),
        R('- `1 / 1.732 = 0.577`', [I('1', 1, 'score 2 (again)'), I('1.732', r3, 'sqrt(3) (again)'), I('0.577', sc[1], 'scaled score 2')], occ=1),
        R('- `0 / 1.732 = 0`', [I('0', 0, 'score 3 (again)'), I('1.732', r3, 'sqrt(3) (again)'), I('0', 0, 'scaled score 3')]),
        R('`softmax([0.577, 0.577, 0])`', [I('0.577', sc[0], 'scaled score 1 (again)'), I('0.577', sc[1], 'scaled score 2 (again)'), I('0', 0, 'scaled score 3 (again)')]),
        R('- `e^0.577 = 1.78`', [I('1.78', ex[0], 'exp(1/sqrt(3))')], occ=0, after='= '),
        R('- `e^0.577 = 1.78`', [I('1.78', ex[1], 'exp(1/sqrt(3))')], occ=1, after='= '),
        R('- `e^0 = 1`', [I('1', 1, 'exp(0)')], after='= '),
        R('Sum = `1.78 + 1.78 + 1 = 4.56`', [I('1.78', ex[0], 'exp term 1 (again)'), I('1.78', ex[1], 'exp term 2 (again)'),
                                             I('1', 1, 'exp term 3 (again)'), I('4.56', tot, 'sum of exponentials')]),
        R('**Attention weight for "The":**', [I('1.78', ex[0], 'numerator'), I('4.56', tot, 'denominator'), I('0.39', w[0], 'attention weight "The"')], after='`'),
        R('**Attention weight for "cat":**', [I('1.78', ex[1], 'numerator'), I('4.56', tot, 'denominator'), I('0.39', w[1], 'attention weight "cat"')], after='`'),
        R('**Attention weight for "sat":**', [I('1', 1, 'numerator exp(0)'), I('4.56', tot, 'denominator'), I('0.22', w[2], 'attention weight "sat"')], after='`'),
        R('the model spends roughly 39%', [I('39%', w[0], 'weight "The" in percent'), I('39%', w[1], 'weight "cat" in percent'), I('22%', w[2], 'weight "sat" in percent')]),
        R('- Weight for `v1`', [I('0.39', w[0], 'weight for v1 (again)')], after='): '),
        R('- Weight for `v2`', [I('0.39', w[1], 'weight for v2 (again)')], after='): '),
        R('- Weight for `v3`', [I('0.22', w[2], 'weight for v3 (again)')], after='): '),
    ]
    V = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    for j, (anc, lit) in enumerate((('- `0.39 * v1 = ', '0.39'), ('- `0.39 * v2 = ', '0.39'), ('- `0.22 * v3 = ', '0.22'))):
        rows.append(R(anc, [I(lit, w[j], 'weight %d (again)' % (j + 1)), I(lit, w[j], 'weight %d (again)' % (j + 1))]))
        vals = [w[j] * V[j][c] for c in range(3)]
        lits = [('0' if V[j][c] == 0 else lit) for c in range(3)]
        rows.append(R(anc, [I(lits[c], vals[c], 'weighted value %d, component %d' % (j + 1, c + 1)) for c in range(3)], after='] = ['))
    wv = [[w[j] * V[j][c] for c in range(3)] for j in range(3)]
    flat = [(wv[j][c], ('0' if V[j][c] == 0 else ['0.39', '0.39', '0.22'][j]), j, c) for j in range(3) for c in range(3)]
    rows.append(R('`z1 = [0, 0.39, 0.39] + ', [I(l, v, 'z1 sum, weighted value %d component %d' % (j + 1, c + 1)) for v, l, j, c in flat], after='= ['))
    by_comp = [(wv[j][c], ('0' if V[j][c] == 0 else ['0.39', '0.39', '0.22'][j]), j, c) for c in range(3) for j in range(3)]
    rows.append(R('`z1 = [0 + 0.39 + 0.22, ', [I(l, v, 'z1 component %d, term %d' % (c + 1, j + 1)) for v, l, j, c in by_comp], after='= ['))
    rows.append(R('`z1 = [0.61, 0.61, 0.78]`', [I(l, z[c], 'z1 component %d' % (c + 1)) for c, l in enumerate(('0.61', '0.61', '0.78'))]))
    for anc, j in (('of it comes from "The"', 0), ('of it comes from "cat"', 1), ('of it comes from "sat"', 2)):
        rows.append(R(anc, [I(['39%', '39%', '22%'][j], w[j], 'share of z1 from word %d (weight in percent)' % (j + 1))]))
    return {
        'doc': 'en_attention_scores_course.md',
        'source': 'github vukrosic/universe-lm:_course/07_attention_mechanism/03_calculating_attention_scores.md and 04_applying_attention_weights.md (also in vukrosic/blueberry-llm-kimi-deepseek)',
        'source_kind': 'course notes',
        'language': 'en',
        'errors_as_published': False,
        'notation': 'Markdown lessons, inline code spans with plain-ASCII arithmetic (1*1 + 0*1, e^0.577, sqrt(3) ≈ 1.732), bullet lists, percentages',
        'conventions': 'scaled dot-product attention for the first token only; scores / sqrt(d_k) with d_k = 3; 2-3 decimals; whole percentages (39%) are compared after rounding; the products such as 1*1 inside the dot products and the exponents in e^x are not listed',
        'rows': rows,
    }


DOCS.append(doc_course)


# ======================================================================
# 4. en_sdpa_exercise_page.md  (amanailab.com code-lab exercise)
# ======================================================================
def doc_exercise():
    s = mp.mpf(1) / mp.sqrt(2)
    p = softmax([s, 0])
    # case 1: Q = K = I, V = [[1,2],[3,4]]
    o1 = [[p[0] * 1 + p[1] * 3, p[0] * 2 + p[1] * 4], [p[1] * 1 + p[0] * 3, p[1] * 2 + p[0] * 4]]
    # case 2: Q = [[1,0]], K = I, V = [[10,20],[30,40]]
    o2 = [p[0] * 10 + p[1] * 30, p[0] * 20 + p[1] * 40]
    lits = ['1.66082', '2.66082', '2.33918', '3.33918']
    flat = [o1[0][0], o1[0][1], o1[1][0], o1[1][1]]
    names = ['row 1 col 1', 'row 1 col 2', 'row 2 col 1', 'row 2 col 2']
    rows = [
        R('d_k = 2 → Output ≈', [I(lits[i], flat[i], 'case 1 output %s' % names[i], kind='slip', label='c1' if i == 0 else None)
                                 for i in range(4)], after='≈ '),
        R('Expected: `[[1.66082', [I(lits[i], flat[i], 'case 1 expected output %s (same values again)' % names[i], kind='carried', cf='c1')
                                   for i in range(4)]),
        R('Expected: `[[16.60882', [I('16.60882', o2[0], 'case 2 expected output col 1', kind='slip'),
                                    I('26.60882', o2[1], 'case 2 expected output col 2', kind='slip')]),
    ]
    return {
        'doc': 'en_sdpa_exercise_page.md',
        'source': 'https://amanailab.com/code-lab/scaled-dot-product-attention (Code Lab exercise "Scaled Dot-Product Attention")',
        'source_kind': 'course notes',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'exercise page: Unicode formula (Q × Kᵀ / √d_k), Python nested lists inline and in code spans, expected outputs to 5 decimals',
        'conventions': 'softmax(Q K^T / sqrt(d_k)) V with d_k = 2, rows are queries; outputs rounded to 5 decimals as the page says',
        'rows': rows,
    }


DOCS.append(doc_exercise)


# ======================================================================
# 5. en_jax_temperature_snippet.md  (crackedaicode.com problem page)
# ======================================================================
def doc_jax_temperature():
    rows = []
    for T, lits in ((Fr(1), ('0.090', '0.245', '0.665')), (Fr(1, 2), ('0.016', '0.117', '0.867')), (Fr(2), ('0.186', '0.307', '0.506'))):
        p = softmax([Fr(x) / T for x in (1, 2, 3)])
        anchor = 'jax.nn.softmax(logits / %s) #' % {Fr(1): '1.0', Fr(1, 2): '0.5', Fr(2): '2.0'}[T]
        rows.append(R(anchor, [I(lits[j], p[j], 'softmax(logits / T), T = %s, entry %d' % (T, j + 1)) for j in range(3)], after='# ['))
    return {
        'doc': 'en_jax_temperature_snippet.md',
        'source': 'https://crackedaicode.com/problems/jax-temperature-scaling (section "Worked mini-example")',
        'source_kind': 'course notes',
        'language': 'en',
        'errors_as_published': False,
        'notation': 'Markdown with a JAX code block; results given as trailing # [a, b, c] comments with 3 decimals',
        'conventions': 'temperature applied as softmax(logits / T) over logits [1, 2, 3] for T = 1, 0.5, 2',
        'rows': rows,
    }


DOCS.append(doc_jax_temperature)


# ======================================================================
def main(argv):
    check = '--check' in argv
    table = '--table' in argv
    bad = 0
    for fn in DOCS:
        out = build(fn())
        path = os.path.join(HERE, out['doc'].rsplit('.', 1)[0] + '.expect.json')
        text = json.dumps(out, indent=2, ensure_ascii=False) + '\n'
        if table:
            print('==', out['doc'])
            for n in out['numbers']:
                print('%4d:%-4d %-12s %-5s %-16s %-26s %s' % (n['line'], n['column'], n['claimed'], n['status'],
                                                          n.get('kind', ''), n['truth'][:26], n['what'][:55]))
        ok = sum(n['status'] == 'ok' for n in out['numbers'])
        kinds = {}
        for n in out['numbers']:
            if n['status'] == 'wrong':
                kinds[n['kind']] = kinds.get(n['kind'], 0) + 1
        print('%-36s ok=%3d wrong=%3d %s' % (out['doc'], ok, len(out['numbers']) - ok, kinds))
        if check:
            try:
                with open(path, encoding='utf-8') as f:
                    on_disk = f.read()
            except OSError:
                on_disk = None
            if on_disk != text:
                print('MISMATCH', path)
                bad += 1
        elif not table:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
    if check:
        print('checked %d documents, %d mismatches' % (len(DOCS), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
