"""Independent true values for the Chinese (zh_) first-contact documents of round 7.

Standard library + mpmath only.  Every listed number is located in its document
programmatically (line anchor + index of the numeric token on that line), its true
value is recomputed exactly (fractions) or to 50 digits (mpmath), and its status is
asserted: "ok" numbers must equal the truth rounded half away from zero at the printed
places, "wrong" numbers must not.  Integer literals are exact claims unless the entry is
marked intround=True (an integer printed as a rounded value, e.g. "exp(8) = 2981"); then
they are judged like any rounded value, at 0 decimal places.

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


def M(x):
    """Fraction / int -> mpf"""
    x = Fraction(x)
    return mpf(x.numerator) / x.denominator


def truth_str(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return mp.nstr(M(v), 20)
    return mp.nstr(v, 20)


def rounds_to(claimed, v, intround=False):
    """True iff the literal `claimed` is v rounded half away from zero at its places.
    Integer literals are exact claims unless intround."""
    lit = claimed.replace('{,}', '').replace(',', '').replace('\u2212', '-')
    if lit.endswith('.'):
        lit = lit[:-1]
    if '.' not in lit and not intround:
        target = Fraction(int(lit))
        if is_exact(v):
            return Fraction(v) == target
        return abs(v - mpf(int(lit))) < mpf(10) ** -40
    places = len(lit.split('.')[1]) if '.' in lit else 0
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


def E(idx, truth, what, status='ok', kind=None, cf=None, lit=None, intround=False):
    """lit: the literal expected at that token (checked)"""
    return dict(idx=idx, truth=truth, what=what, status=status, kind=kind, cf=cf, lit=lit, intround=intround)


def W(idx, truth, what, cf=None, lit=None, intround=False):
    """a wrong number: 'carried' when cf (label of the earlier number it follows from) is given, else 'slip'"""
    return E(idx, truth, what, 'wrong', 'carried' if cf else 'slip', cf, lit, intround)


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
        assert sp.label not in where, (docname, sp.label)
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
        good = rounds_to(text, e['truth'], e['intround'])
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


def F(x, d=1):
    return Fraction(x) / d


def matmul(A, B):
    return [[sum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def T(A):
    return [list(r) for r in zip(*A)]


def ok_or_wrong(idx, truth, lit, what, cf=None, intround=False):
    """status decided by the arithmetic itself (used for long restated blocks); cf names the
    label a wrong value is carried from (None: slip)"""
    if rounds_to(lit, truth, intround):
        return E(idx, truth, what, lit=lit, intround=intround)
    return W(idx, truth, what, cf=cf, lit=lit, intround=intround)


# ---------------------------------------------------------------------------
# Document A: 「Phase 2 直观指南：用例子讲透五个算子」 (softmax, LayerNorm, GELU, attention)
# ---------------------------------------------------------------------------
def doc_a():
    sm = softmax([mpf(2), mpf(1), mpf('0.5')])
    e1, e15 = mpmath.exp(-1), mpmath.exp(mpf('-1.5'))
    tot = 1 + e1 + e15
    sm2 = softmax([mpf(1), mpf(3), mpf(2)])
    sm3 = softmax([mpf('0.5'), mpf(1), mpf(1)])
    # LayerNorm of [1, 3, 2, 6], population variance, no eps (the worked example uses sigma = sqrt(var))
    x = [F(1), F(3), F(2), F(6)]
    mu = sum(x) / 4
    cen = [v - mu for v in x]
    var = sum(c * c for c in cen) / 4
    sd = mpmath.sqrt(M(var))
    xh = [M(c) / sd for c in cen]
    sq = [F(c * c) / var for c in cen]            # squares of the normalised values, exact
    # GELU (exact, erf form)
    gelu = lambda t: M(t) * (1 + mpmath.erf(M(t) / mpmath.sqrt(2))) / 2
    gx = ['-3.0', '-2.0', '-1.0', '-0.5', '0.0', '0.5', '1.0', '2.0', '3.0']
    # attention
    Q = [[F('1.0'), F('0.5'), F('0.2'), F('0.0')], [F('0.3'), F('1.0'), F('0.5'), F('0.1')], [F('0.1'), F('0.2'), F('1.0'), F('0.5')]]
    K = [[F('0.8'), F('0.3'), F('0.1'), F('0.0')], [F('0.2'), F('0.9'), F('0.4'), F('0.1')], [F('0.0'), F('0.1'), F('0.8'), F('0.4')]]
    V = [[F('2.0'), F('1.0'), F('0.0'), F('0.5')], [F('1.0'), F('3.0'), F('0.5'), F('0.0')], [F('0.0'), F('1.0'), F('2.0'), F('1.0')]]
    S = matmul(Q, T(K))                            # [[0.97,0.73,0.21],[0.59,1.17,0.54],[0.24,0.65,1.02]]
    Sc = [[v / 2 for v in r] for r in S]
    mx = [max(r) for r in Sc]
    dd = [[v - mx[i] for v in Sc[i]] for i in range(3)]
    ex = [[mpmath.exp(M(v)) for v in r] for r in dd]
    sums = [sum(r) for r in ex]
    Wt = [[v / sums[i] for v in ex[i]] for i in range(3)]
    terms = [[[Wt[i][t] * M(V[t][j]) for j in range(4)] for t in range(3)] for i in range(3)]
    O = [[sum(terms[i][t][j] for t in range(3)) for j in range(4)] for i in range(3)]
    assert S[0] == [F('0.97'), F('0.73'), F('0.21')] and S[1] == [F('0.59'), F('1.17'), F('0.54')] and S[2] == [F('0.24'), F('0.65'), F('1.02')]

    pS = [['0.97', '0.67', '0.25'], ['0.69', '1.02', '0.54'], ['0.22', '0.54', '0.99']]
    pSc = [['0.485', '0.335', '0.125'], ['0.345', '0.510', '0.270'], ['0.110', '0.270', '0.495']]
    pW = [['0.391', '0.336', '0.273'], ['0.322', '0.379', '0.299'], ['0.274', '0.322', '0.404']]
    pT = [['0.782', '0.391', '0', '0.196', '0.336', '1.008', '0.168', '0', '0', '0.273', '0.546', '0.273'],
          ['0.644', '0.322', '0', '0.161', '0.379', '1.137', '0.190', '0', '0', '0.299', '0.598', '0.299'],
          ['0.548', '0.274', '0', '0.137', '0.322', '0.966', '0.161', '0', '0', '0.404', '0.808', '0.404']]
    pO = [['1.118', '1.672', '0.714', '0.469'], ['1.023', '1.758', '0.788', '0.460'], ['0.870', '1.644', '0.969', '0.541']]
    nm = ['我', '爱', '北京']

    def qk_row(i, anchor):
        return S_('qk%d' % i, anchor, 3, *[ok_or_wrong(j, S[i][j], pS[i][j], "Q K^T [%d][%d] = q_%s . k_%d = %s" % (i, j, nm[i], j, truth_str(S[i][j]))) for j in range(3)])

    def sc_row(i, anchor, ntok, off):
        return S_('sc%d' % i, anchor, ntok, *[ok_or_wrong(off + j, Sc[i][j], pSc[i][j], "S = Q K^T / 2 [%d][%d] = %s; the printed Q K^T entry halved gives the printed value" % (i, j, truth_str(Sc[i][j])), cf='qk%d' % i) for j in range(3)])

    specs = [
        # softmax walk-through
        S_('max', 'max = 2.0', 1, E(0, F(2), "max of [2.0, 1.0, 0.5]", lit='2.0')),
        S_('sub', '减后: [0.0, -1.0, -1.5]', 3, E(0, F(0), "2.0 - max"), E(1, F(-1), "1.0 - max"), E(2, F('-1.5'), "0.5 - max")),
        S_('e0', 'exp(0.0)  = 1.00', 2, E(1, F(1), "exp(0)")),
        S_('e1', 'exp(-1.0) = 0.368', 2, E(1, e1, "exp(-1)")),
        S_('e2', 'exp(-1.5) = 0.223', 2, E(1, e15, "exp(-1.5)")),
        S_('ev', '变成: [1.00, 0.368, 0.223]', 3, E(0, F(1), "restated exp(0)"), E(1, e1, "restated exp(-1)"), E(2, e15, "restated exp(-1.5)")),
        S_('sum', 'sum = 1.00 + 0.368 + 0.223 = 1.591', 4, E(0, F(1), "restated exp(0)"), E(1, e1, "restated exp(-1)"), E(2, e15, "restated exp(-1.5)"),
           E(3, tot, "1 + e^-1 + e^-1.5 = %s" % mp.nstr(tot, 8))),
        S_('div', '[1.00/1.591, 0.368/1.591, 0.223/1.591]', 6, E(0, F(1), "restated exp(0)"), E(1, tot, "restated sum"), E(2, e1, "restated exp(-1)"),
           E(3, tot, "restated sum"), E(4, e15, "restated exp(-1.5)"), E(5, tot, "restated sum")),
        S_('p', '= [0.629, 0.231, 0.140]', 4, *[E(k, sm[k], "softmax([2, 1, 0.5]) entry %d = %s" % (k + 1, mp.nstr(sm[k], 6))) for k in range(3)]),
        S_('chk', '检查：0.629 + 0.231 + 0.140 = 1.000', 4, *[E(k, sm[k], "restated softmax entry %d" % (k + 1)) for k in range(3)],
           E(3, F(1), "sum of the softmax entries (the printed three also add to 1.000)")),
        S_('m1', '[ 2.0  1.0  0.5]         [0.629 0.231 0.140]', 7, *[E(3 + k, sm[k], "row softmax of [2, 1, 0.5] entry %d" % (k + 1)) for k in range(3)]),
        S_('m2', '[ 1.0  3.0  2.0]  →      [0.090 0.665 0.245]', 7, *[E(3 + k, sm2[k], "row softmax of [1, 3, 2] entry %d = %s" % (k + 1, mp.nstr(sm2[k], 6))) for k in range(3)]),
        S_('m3', '[ 0.5  1.0  1.0]         [0.220 0.362 0.418]', 7,
           *[W(3 + k, sm3[k], "row softmax of [0.5, 1, 1] entry %d = %s (the two equal inputs must get equal weights; printed row is wrong)" % (k + 1, mp.nstr(sm3[k], 6))) for k in range(3)]),
        # LayerNorm
        S_('mu', 'μ = (1.0+3.0+2.0+6.0) / 4 = 12.0/4 = 3.0', 8, E(5, sum(x), "1 + 3 + 2 + 6"), E(7, mu, "mean")),
        S_('cen0', '[1.0-3.0, 3.0-3.0, 2.0-3.0, 6.0-3.0]', 8, *[E(2 * k + 1, mu, "restated mean") for k in range(4)]),
        S_('cen', '= [-2.0, 0.0, -1.0, 3.0]', 5, *[E(k, cen[k], "x_%d - mean" % (k + 1)) for k in range(4)]),
        S_('var', 'σ² = ((-2)²+0²+(-1)²+3²) / 4', 13, E(0, cen[0], "restated centred x_1"), E(1, cen[1], "restated centred x_2"),
           E(2, cen[2], "restated centred x_3"), E(3, cen[3], "restated centred x_4"),
           *[E(5 + k, cen[k] ** 2, "square of centred x_%d" % (k + 1)) for k in range(4)],
           E(10, sum(c * c for c in cen), "sum of squares"), E(12, var, "population variance 14/4")),
        S_('sd', '标准差 σ = √3.5 ≈ 1.871', 2, E(0, var, "restated variance"), E(1, sd, "sqrt(3.5)")),
        S_('nd', '[-2.0/1.871, 0.0, -1.0/1.871, 3.0/1.871]', 7, E(0, cen[0], "restated centred x_1"), E(1, sd, "restated sigma"),
           E(2, cen[1], "restated centred x_2"), E(3, cen[2], "restated centred x_3"), E(4, sd, "restated sigma"), E(5, cen[3], "restated centred x_4"),
           E(6, sd, "restated sigma")),
        S_('xh', '= [-1.069, 0.0, -0.535, 1.604]', 6, *[E(k, xh[k], "normalised x_%d = %s" % (k + 1, mp.nstr(xh[k], 8))) for k in range(4)],
           E(4, F(0), "mean of the normalised vector"), E(5, F(1), "std of the normalised vector (eps = 0)")),
        S_('chkm', '均值 = (-1.069+0.0-0.535+1.604)/4 ≈ 0', 6, E(0, xh[0], "restated normalised x_1"), E(1, F(0), "restated normalised x_2"),
           E(2, -xh[2], "restated |normalised x_3| (after a binary minus)"), E(3, xh[3], "restated normalised x_4"), E(5, F(0), "mean of the normalised values")),
        S_('chkv', '方差 = (1.143+0.0+0.286+2.573)/4 ≈ 1', 6, E(0, sq[0], "square of normalised x_1 = 8/7 (also 1.069^2 = 1.1428)"), E(1, F(0), "square of normalised x_2"),
           E(2, sq[2], "square of normalised x_3 = 2/7"),
           W(3, sq[3], "square of normalised x_4 = 18/7 = 2.5714; 2.573 is 1.604^2 = 2.5728, i.e. the square of the rounded 1.604 (rounded intermediate carried)", cf='xh'),
           E(5, F(1), "variance of the normalised values (eps = 0); the printed squares give 1.0005, also about 1")),
        # GELU
        S_('gelu', 'GELU:  -0.004 -0.045 -0.159', 10,
           *[(W(k, gelu(gx[k]), "GELU(%s) = x Phi(x) = %s (exact erf form); the printed value is the tanh approximation %s, the exact value lies just past the rounding boundary" % (gx[k], mp.nstr(gelu(gx[k]), 10), '-0.0454023' if k == 1 else '1.9545977'))
              if k in (1, 7) else E(k, gelu(gx[k]), "GELU(%s) = x Phi(x) = %s" % (gx[k], mp.nstr(gelu(gx[k]), 8)))) for k in range(9)]),
        S_('c1', '两条实现路径：精确版用 erf', 8, E(4, mpmath.sqrt(2 / mpmath.pi), "c1 = sqrt(2/pi) as commented")),
        # attention
        qk_row(0, '         = | 0.97  0.67  0.25 |'),
        qk_row(1, '           | 0.69  1.02  0.54 |'),
        qk_row(2, '           | 0.22  0.54  0.99 |'),
        S_('r4', '然后除以 √4 = 2：', 2, E(1, F(2), "sqrt(4)")),
        sc_row(0, 'S = scores/2 = | 0.485  0.335  0.125 |', 4, 1),
        sc_row(1, '               | 0.345  0.510  0.270 |', 3, 0),
        sc_row(2, '               | 0.110  0.270  0.495 |', 3, 0),
        S_('s12', '`S[1][2] = 0.270`', 4, E(2, Sc[1][2], "restated S[1][2]"), E(3, Sc[1][2], "restated S[1][2]")),
    ]
    # row-by-row softmax
    rowlines = [
        ('第 0 行 [0.485, 0.335, 0.125]：', 4, 1, '  max=0.485, 减后 [0, -0.15, -0.36]', ['0', '-0.15', '-0.36'], [1, 2, 3],
         '  exp: [1.0, 0.861, 0.698]', ['1.0', '0.861', '0.698'], '  sum=2.559', '2.559', '→ [0.391, 0.336, 0.273]', 4),
        ('第 1 行 [0.345, 0.510, 0.270]：', 4, 1, '  max=0.510, 减后 [-0.165, 0, -0.240]', ['-0.165', '0', '-0.240'], [1, 2, 3],
         '  exp: [0.848, 1.0, 0.787]', ['0.848', '1.0', '0.787'], '  sum=2.635', '2.635', '→ [0.322, 0.379, 0.299]', 3),
        ('第 2 行 [0.110, 0.270, 0.495]：', 4, 1, '  max=0.495, 减后 [-0.385, -0.225, 0]', ['-0.385', '-0.225', '0'], [1, 2, 3],
         '  exp: [0.681, 0.799, 1.0]', ['0.681', '0.799', '1.0'], '  sum=2.480', '2.480', '→ [0.274, 0.322, 0.404]', 3),
    ]
    for i, (ha, hn, ho, la, dl, di, ea, el, sa, sl, wa, wn) in enumerate(rowlines):
        specs.append(S_('h%d' % i, ha, hn, *[ok_or_wrong(ho + j, Sc[i][j], pSc[i][j], "restated S[%d][%d] = %s" % (i, j, truth_str(Sc[i][j])), cf='sc%d' % i) for j in range(3)]))
        specs.append(S_('d%d' % i, la, 4, ok_or_wrong(0, mx[i], la.split('=')[1].split(',')[0], "row %d max = %s" % (i, truth_str(mx[i])), cf='sc%d' % i),
                        *[ok_or_wrong(di[j], dd[i][j], dl[j], "row %d: S[%d][%d] - max = %s" % (i, i, j, truth_str(dd[i][j])), cf='sc%d' % i) for j in range(3)]))
        ents = []
        for j in range(3):
            if i == 2 and j == 0:
                ents.append(W(0, ex[i][j], "exp(S[2][0] - max) = exp(-0.39) = %s; even at the printed -0.385, exp(-0.385) = 0.68045 rounds to 0.680" % mp.nstr(ex[i][j], 6), lit='0.681'))
            else:
                ents.append(ok_or_wrong(j, ex[i][j], el[j], "row %d: exp(%s) = %s" % (i, truth_str(dd[i][j]), mp.nstr(ex[i][j], 6)), cf='d%d' % i))
        specs.append(S_('x%d' % i, ea, 3, *ents))
        specs.append(S_('s%d' % i, sa, 1, ok_or_wrong(0, sums[i], sl, "row %d: sum of exps = %s; the printed exps add to the printed sum" % (i, mp.nstr(sums[i], 6)), cf='x%d' % i)))
        ents = [ok_or_wrong(j, Wt[i][j], pW[i][j], "attention weight [%d][%d] = %s" % (i, j, mp.nstr(Wt[i][j], 6)), cf='s%d' % i) for j in range(3)]
        if i == 0:
            ents.append(W(3, 100 * Wt[0][0], "restated weight [0][0] in percent (38.90%)", cf='w0', lit='39.1'))
        specs.append(S_('w%d' % i, wa, wn, *ents))
    wlines = ['W = | 0.391  0.336  0.273 |', '    | 0.322  0.379  0.299 |', '    | 0.274  0.322  0.404 |']
    for i in range(3):
        specs.append(S_('W%d' % i, wlines[i], 3, *[W(j, Wt[i][j], "restated weight [%d][%d] = %s" % (i, j, mp.nstr(Wt[i][j], 6)), cf='w%d' % i, lit=pW[i][j]) for j in range(3)]))
    olines = [('O[0] = 0.391·V[0] + 0.336·V[1] + 0.273·V[2]', '     = 0.391·[2.0,1.0,0.0,0.5]', '     = [0.782,0.391,0,0.196]', '     = [1.118, 1.672, 0.714, 0.469]'),
              ('O[1] = 0.322·V[0] + 0.379·V[1] + 0.299·V[2]', None, '     = [0.644,0.322,0,0.161]', '     = [1.023, 1.758, 0.788, 0.460]'),
              ('O[2] = 0.274·V[0] + 0.322·V[1] + 0.404·V[2]', None, '     = [0.548,0.274,0,0.137]', '     = [0.870, 1.644, 0.969, 0.541]')]
    for i, (a1, a2, a3, a4) in enumerate(olines):
        specs.append(S_('oa%d' % i, a1, 7, *[W(2 * t + 1, Wt[i][t], "restated weight [%d][%d]" % (i, t), cf='w%d' % i, lit=pW[i][t]) for t in range(3)]))
        if a2:
            a2 = '     = 0.391·[2.0,1.0,0.0,0.5] + 0.336·[1.0,3.0,0.5,0.0] + 0.273·[0.0,1.0,2.0,1.0]'
            specs.append(S_('ob%d' % i, a2, 15, *[W(5 * t, Wt[i][t], "restated weight [%d][%d]" % (i, t), cf='w%d' % i, lit=pW[i][t]) for t in range(3)]))
        full3 = {0: '     = [0.782,0.391,0,0.196] + [0.336,1.008,0.168,0] + [0,0.273,0.546,0.273]',
                 1: '     = [0.644,0.322,0,0.161] + [0.379,1.137,0.190,0] + [0,0.299,0.598,0.299]',
                 2: '     = [0.548,0.274,0,0.137] + [0.322,0.966,0.161,0] + [0,0.404,0.808,0.404]'}[i]
        specs.append(S_('ot%d' % i, full3, 12, *[ok_or_wrong(4 * t + j, terms[i][t][j], pT[i][4 * t + j],
                                                             "w[%d][%d] * V[%d][%d] = %s" % (i, t, t, j, mp.nstr(terms[i][t][j], 6)), cf='w%d' % i) for t in range(3) for j in range(4)]))
        specs.append(S_('os%d' % i, a4, 4, *[ok_or_wrong(j, O[i][j], pO[i][j], "O[%d][%d] = %s; the printed terms add to the printed value" % (i, j, mp.nstr(O[i][j], 6)), cf='ot%d' % i) for j in range(4)]))
    ofin = ['O = | 1.118  1.672  0.714  0.469 |', '    | 1.023  1.758  0.788  0.460 |', '    | 0.870  1.644  0.969  0.541 |']
    for i in range(3):
        specs.append(S_('of%d' % i, ofin[i], 4, *[W(j, O[i][j], "restated O[%d][%d] = %s" % (i, j, mp.nstr(O[i][j], 6)), cf='os%d' % i, lit=pO[i][j]) for j in range(4)]))
    specs.append(S_('pt', '# tensor([0.6285, 0.2312, 0.1402])', 3, *[E(k, sm[k], "torch.softmax([2, 1, 0.5]) entry %d" % (k + 1)) for k in range(3)]))
    meta = {
        "doc": "zh_phase2_operators_softmax_layernorm_attention.md",
        "source": "GitHub Markdown study guide 「Phase 2 直观指南：用例子讲透五个算子」 (C++ operator course: MatMul recap, Softmax, LayerNorm, GELU, Scaled Dot-Product Attention, verification against PyTorch); repository name not exposed by the search index (stored file id 55696324034). Kept: the softmax walk-through, the 3x3 row-softmax, the LayerNorm walk-through, the GELU table (implementations summarised in one sentence with their constants), the whole attention walk-through and the Softmax part of the PyTorch check; dropped or reduced to one sentence: the token-flow sketch and MatMul recap, the shift-invariance derivation, the [1000, 1000, 1000] stability test, all C++ listings, the gamma/beta example, the LayerNorm/GELU/attention parts of the PyTorch script, the tolerance list, the .npy export and the closing remarks; prose reworded and shortened",
        "source_kind": "GitHub notes (course guide)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "plain-text code blocks with arrows and box-drawing, bracketed vectors, matrices as '| a b c |' rows, products written 0.391·[2.0,1.0,0.0,0.5], a C++ one-liner and a Python block whose result is a trailing comment",
        "conventions": "Softmax with natural exp (max subtraction does not change it). LayerNorm example: mean, population variance (divide by N), sigma = sqrt(var) with no epsilon as the worked example does, no gamma/beta; the check line squares the normalised values, whose exact squares are 8/7, 0, 2/7, 18/7. GELU judged in its exact form x*Phi(x) = 0.5 x (1 + erf(x/sqrt2)), which the text calls the exact version used for training: -0.045 and 1.955 are the tanh-approximation values and miss the exact rounding (-0.0455003 -> -0.046, 1.9544997 -> 1.954) by less than 3e-7 past the boundary; the other seven entries agree with both forms. Attention: Q, K, V as given, scores Q K^T / sqrt(4) = /2, row softmax, O = W V. Q K^T is wrong in 7 of 9 entries (true [[0.97,0.73,0.21],[0.59,1.17,0.54],[0.24,0.65,1.02]]); everything after follows the printed numbers (so it is carried), except exp(-0.385) printed 0.681 (0.680), a fresh slip. Truth everywhere is the exact chain from the inputs. Restatements (the W matrix, the weights inside the O products, the final O matrix, the percent 39.1) are listed. Not listed: inputs, dimensions, the ReLU row and the C++ constant 0.044715",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document B: vLLM 教程「第1章：Self-Attention — vLLM 的计算核心」 (hand check, sqrt(d_k), GQA)
# ---------------------------------------------------------------------------
def doc_b():
    q2 = [F('0.5'), F('0.1'), F('0.3'), F('0.2')]
    ks = [[F('0.2'), F('0.8'), F('0.1'), F('0.4')], [F('0.7'), F('0.3'), F('0.5'), F('0.1')], [F('0.4'), F('0.2'), F('0.9'), F('0.3')]]
    dots = [sum(a * b for a, b in zip(q2, k)) for k in ks]          # 0.29, 0.55, 0.55
    sc = [d / 2 for d in dots]                                       # 0.145, 0.275, 0.275
    ex = [mpmath.exp(M(v)) for v in sc]
    tot = sum(ex)
    w = [e / tot for e in ex]
    assert dots == [F('0.29'), F('0.55'), F('0.55')]
    pd = ['0.29', '0.72', '0.73']

    def dot_entries(offs, cf, what):
        out = []
        for j in range(3):
            if j == 0:
                out.append(E(offs[j], dots[0], "%s q_2 . k_0 = 0.1 + 0.08 + 0.03 + 0.08" % what, lit='0.29'))
            elif cf is None:
                out.append(W(offs[j], dots[j], "%s q_2 . k_%d = %s = %s" % (what, j, ['', '0.35 + 0.03 + 0.15 + 0.02', '0.20 + 0.02 + 0.27 + 0.06'][j], truth_str(dots[j])), lit=pd[j]))
            else:
                c = cf if isinstance(cf, str) else cf[j]
                out.append(W(offs[j], dots[j], "%s q_2 . k_%d = %s" % (what, j, truth_str(dots[j])), cf=c, lit=pd[j]))
        return out

    def scaled_line(label, anchor, cf):
        return S_(label, anchor, 8, *dot_entries([0, 1, 2], cf, "restated"),
                  E(4, F(2), "sqrt(4)"), E(5, sc[0], "0.29 / 2", lit='0.145'),
                  W(6, sc[1], "q_2 . k_1 / 2 = 0.275; the printed 0.72 halved gives 0.36", cf=cf if isinstance(cf, str) else cf[1], lit='0.36'),
                  W(7, sc[2], "q_2 . k_2 / 2 = 0.275; the printed 0.73 halved gives 0.365", cf=cf if isinstance(cf, str) else cf[2], lit='0.365'))

    def sm_entries(offs, cf, pct=False):
        f = 100 if pct else 1
        lits = ['29', '36', '36'] if pct else ['0.29', '0.36', '0.36']
        return [W(offs[j], f * w[j], "%ssoftmax weight %d = %s%s; the printed exps give %s" % ("restated " if pct else "", j, mp.nstr(f * w[j], 6), "%" if pct else "",
                                                                                          (['28.7%', '35.6%', '35.7%'] if pct else ['0.287', '0.356', '0.357'])[j]), cf=cf, lit=lits[j], intround=pct) for j in range(3)]

    specs = [
        S_('c3', 'q_2·k_0 = 0.29,  q_2·k_1 = 0.72,  q_2·k_2 = 0.73', 9, *dot_entries([2, 5, 8], None, "")),
        scaled_line('c3s', '原始分数: [0.29, 0.72, 0.73] → ÷√4=2 →', 'c3'),
        S_('c3w', 'softmax: [0.29, 0.36, 0.36]   ←', 3, *sm_entries([0, 1, 2], 'c3s')),
        S_('e8', '未缩放点积值大约在 `±√64 = ±8`', 9, E(3, F(8), "sqrt(64)"), E(4, F(8), "restated 8"),
           E(5, mpmath.exp(8), "exp(8) = 2980.96, printed as an integer", intround=True), E(7, F(1), "exp(0)")),
        S_('e11', 'd_k=128 时更惨：exp(11) = 59874。', 3, E(2, mpmath.exp(11), "exp(11) = 59874.14, printed as an integer", intround=True)),
        S_('k0', 'k_0 = [0.2, 0.8, 0.1, 0.4]  →  q_2·k_0 = 0.29', 8, E(7, dots[0], "q_2 . k_0", lit='0.29')),
        S_('k1', 'k_1 = [0.7, 0.3, 0.5, 0.1]  →  q_2·k_1 = 0.72', 8, W(7, dots[1], "q_2 . k_1 = 0.35 + 0.03 + 0.15 + 0.02 = 0.55 (same wrong value as in Cell 3)", cf='c3', lit='0.72')),
        S_('k2', 'k_2 = [0.4, 0.2, 0.9, 0.3]  →  q_2·k_2 = 0.73', 8, W(7, dots[2], "q_2 . k_2 = 0.20 + 0.02 + 0.27 + 0.06 = 0.55 (same wrong value as in Cell 3)", cf='c3', lit='0.73')),
        scaled_line('s44', '原始分数: [0.29, 0.72, 0.73] → 除以 √4 = 2 →', (None, 'k1', 'k2')),
        S_('x1', 'e^{0.145} &= 1.156', 2, E(0, sc[0], "restated scaled score 0", lit='0.145'), E(1, ex[0], "e^0.145", lit='1.156')),
        S_('x2', 'e^{0.36}  &= 1.433', 2, W(0, sc[1], "restated scaled score 1 (true 0.275)", cf='s44', lit='0.36'),
           W(1, ex[1], "e^{0.275} = %s; e^0.36 = 1.4333 is right for the printed exponent" % mp.nstr(ex[1], 6), cf='s44', lit='1.433')),
        S_('x3', 'e^{0.365} &= 1.440', 2, W(0, sc[2], "restated scaled score 2 (true 0.275)", cf='s44', lit='0.365'),
           W(1, ex[2], "e^{0.275} = %s; also wrong for the printed exponent: e^0.365 = 1.44054 -> 1.441" % mp.nstr(ex[2], 6), lit='1.440')),
        S_('xs', '\\mathrm{sum} &= 4.029', 1, W(0, tot, "sum of the three exps = %s; the printed exps add to 4.029" % mp.nstr(tot, 6), cf='x2', lit='4.029')),
        S_('xw', '\\mathrm{softmax} = [0.29, 0.36, 0.36]', 3, *sm_entries([0, 1, 2], 'xs')),
        S_('pct', 'token 2 的注意力分布：29% 给 token 0', 6, *sm_entries([1, 3, 5], 'xw', pct=True)),
        S_('var1', '设 q、k 每一维独立、均值 0、方差 1。', 9, E(8, F(1), "Var(q_i k_i) = 1*1 + 1*0 + 1*0")),
        S_('t4', '^| 4 | 2 | 分布均匀，梯度正常 |', 2, E(1, F(2), "sqrt(4)")),
        S_('t16', '^| 16 | 4 | 开始出现 dominant token |', 2, E(1, F(4), "sqrt(16)")),
        S_('t64', '^| 64 | 8 | 高度集中，梯度减弱 |', 2, E(1, F(8), "sqrt(64)")),
        S_('t128', '^| 128 | ~11 | 接近 one-hot，梯度 ≈ 0 |', 3, E(1, mpmath.sqrt(128), "sqrt(128) = 11.31, written ~11", intround=True)),
        S_('t256', '^| 256 | 16 | 完全 one-hot，模型学不动 |', 2, E(1, F(16), "sqrt(256)")),
        S_('nv', '**数值验证：** d_k=128 时', 7, E(2, mpmath.sqrt(128), "sqrt(128)"),
           E(4, mpmath.exp(11), "exp(11) = 59874.14, printed as an integer", intround=True), E(6, F(1), "exp(0)")),
        S_('tl', '**推论：** d_k=4 时 σ=2', 4, E(1, F(2), "sigma = sqrt(4)"), E(3, mpmath.sqrt(128), "sigma = sqrt(128) = 11.31, written ≈11", intround=True)),
        S_('mha', 'MHA:  cache ∝ num_heads × head_dim   = 32 × 128 = 4096', 3, E(2, F(32 * 128), "32 x 128")),
        S_('gqa', 'GQA:  cache ∝ num_kv_heads × head_dim = 8 × 128  = 1024', 4, E(2, F(8 * 128), "8 x 128"), E(3, 100 * (1 - F(1024, 4096)), "saving 1 - 1024/4096 in percent")),
        S_('mqa', 'MQA:  cache ∝ 1 × head_dim            = 128', 3, E(1, F(128), "1 x 128"),
           E(2, 100 * (1 - F(128, 4096)), "saving 1 - 128/4096 = 96.875 %, printed as an integer", intround=True)),
        S_('tm', '| MHA | num_kv_heads = 32 | 100% (baseline)', 2, E(1, F(100), "32/32 in percent")),
        S_('tg', '| GQA | num_kv_heads = 8 | 25%', 3, E(1, F(25), "8/32 in percent")),
        S_('tq', '| MQA | num_kv_heads = 1 | 3.1%', 2, E(1, 100 * F(1, 32), "1/32 in percent = 3.125")),
    ]
    meta = {
        "doc": "zh_vllm_attention_chapter_hand_check.md",
        "source": "GitHub Markdown course chapter 「第1章：Self-Attention — vLLM 的计算核心」 (Cell 2-5: hook, problem demo, theory with source trail, walkthrough of reference_attention.py, masks, Triton kernel); repository name not exposed by the search index (stored file id 56494300051). Kept: the Cell 3 hand numbers (the random-experiment variance/entropy table and its bullets replaced by one sentence without numbers, the closing 99.998% sentence dropped), 4.3 condensed into one paragraph and the matrix formula, 4.4 verbatim, 4.5 condensed (derivation steps 1-3 into one sentence, table and numeric check kept; the 99.998% share paraphrased without the number), 4.6 condensed, 4.7 numbers and table kept (prose shortened); dropped: Cell 2, 4.1-4.2, the source-trail code, Cell 5 (code walkthroughs, masks table, Triton kernel)",
        "source_kind": "GitHub notes (course chapter)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with plain-text code blocks (q_2·k_0 = 0.29, arrows →, ÷√4=2), aligned LaTeX (e^{0.145} &= 1.156 \\\\), a Markdown table of sigma values, percentages",
        "conventions": "Dot products of the given q_2 and k_j, scaled by 1/sqrt(d_k) = 1/2, softmax with natural exp. q_2·k_1 and q_2·k_2 are both 0.55, not 0.72 / 0.73 (slip at their first print, in Cell 3; the 4.4 lines copy them); everything after follows the printed values and is carried, except e^{0.365} printed 1.440, which is wrong even for its printed exponent (1.4405 -> 1.441) and is marked as a slip. True weights: softmax([0.145, 0.275, 0.275]) = [0.3051, 0.3474, 0.3474]. sigma of q·k = sqrt(d_k). Integers printed as rounded values (exp(8) = 2981, exp(11) = 59874, ~11, ≈11, 97%) are judged at 0 decimal places; 100% / 25% / 3.1% are 32/32, 8/32, 1/32 of the MHA cache. Not listed: '>99.9%' (an inequality), source line numbers, d_k and head counts as inputs, the exponent 11 of exp(11) (a chosen round score)",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document C: 「Transformer 原理与实现（01）」 blog post (positions, six-step attention, parameter counts)
# ---------------------------------------------------------------------------
def doc_c():
    x = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
    WQ = [[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]]
    WK = [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0], [0, 0, 0, 1]]

    def attn(xx, causal):
        Q, K = matmul(xx, WQ), matmul(xx, WK)
        S = matmul(Q, T(K))
        out, P = [], []
        for i in range(len(xx)):
            row = [mpf(S[i][j]) / 2 for j in range(len(xx)) if (j <= i or not causal)]
            p = softmax(row) + [mpf(0)] * (len(xx) - len(row))
            P.append(p)
            out.append([sum(p[t] * xx[t][c] for t in range(len(xx))) for c in range(4)])
        return Q, K, S, P, out

    Q, K, S, Pc, Oc = attn(x, True)
    _, _, _, _, Ou = attn(x, False)
    perm = [2, 0, 1]
    _, _, _, _, Op = attn([x[i] for i in perm], False)
    # positions, method one
    tok = {'猫': (2, 0), '追': (0, 2), '狗': (2, 1)}
    pe = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    add = lambda w, p: [tok[w][0] + pe[p][0], tok[w][1] + pe[p][1]]
    m1 = [('猫', 0), ('追', 1), ('狗', 2), ('狗', 0), ('追', 1), ('猫', 2), ('猫', 1), ('追', 2), ('狗', 3)]
    # method two: q = cat, k = dog, k rotated by (n - m) * 30 degrees relative to q
    def rot_score(pm, pn):
        a = mpmath.radians(30 * (pn - pm))
        q, k = tok['猫'], tok['狗']
        kr = (k[0] * mpmath.cos(a) - k[1] * mpmath.sin(a), k[0] * mpmath.sin(a) + k[1] * mpmath.cos(a))
        return q[0] * kr[0] + q[1] * kr[1]
    r_cd, r_dc, r_shift = rot_score(0, 2), rot_score(2, 0), rot_score(1, 3)
    d = 768
    L = 50257

    ent20 = []
    for r in range(3):
        for c in range(4):
            ent20.append(E(3 + 4 * r + c, Ou[r][c], "unmasked attention output of t%d [%d] = %s" % (r, c, mp.nstr(Ou[r][c], 6))))
    ent21 = []
    for r in range(3):
        for c in range(4):
            ent21.append(E(3 + 4 * r + c, Op[r][c], "unmasked output of position %d (t%d) after the shuffle [%d]" % (r, perm[r], c)))
    ent35 = []
    for k, (wd, p) in enumerate(m1):
        v = add(wd, p)
        ent35.append(E(3 * k + 1, F(v[0]), "%s@%d = %s + PE_%d, component 1" % (wd, p, tok[wd], p)))
        ent35.append(E(3 * k + 2, F(v[1]), "%s@%d = %s + PE_%d, component 2" % (wd, p, tok[wd], p)))

    specs = [
        S_('perm0', '| 原顺序 | t0, t1, t2 |', 15, *ent20),
        S_('perm1', '| 打乱后 | t2, t0, t1 |', 15, *ent21),
        S_('m1', '| 方法一：token 向量 + 位置表那一行 |', 27, *ent35),
        S_('m2', '| 方法二：猫 看 狗 的分数', 8, E(0, F(2), "dog@2 is 2 places right of cat@0"), E(1, F(60), "relative rotation 2 x 30 degrees"),
           E(2, r_cd, "cat . R(+60) dog = 2 (2 cos60 - sin60)"), E(3, F(2), "dog@0 is 2 places left of cat@2"),
           E(4, F(-60), "relative rotation -2 x 30 degrees"), E(5, r_dc, "cat . R(-60) dog = 2 (2 cos60 + sin60)"),
           E(6, F(2), "position difference 3 - 1"), E(7, r_shift, "cat@1 . R(+60) dog@3")),
        S_('m0', '不加位置时猫·狗 = 4', 1, E(0, F(4), "(2,0).(2,1)")),
        S_('m2r', '所以猫看"右边两格的狗"永远是 0.27', 2, E(0, r_cd, "restated +60 score"), E(1, r_dc, "restated -60 score")),
        S_('h144', '$$12 \\times 12 = 144$$', 6, E(5, F(144), "12 x 12")),
        S_('q0', '的第一行就是 t0 那行', 11, *[E(7 + c, F(Q[0][c]), "Q row t0 [%d]" % c) for c in range(4)]),
        S_('QK1', 'Q = xW_Q = \\begin{pmatrix}', 12, *[E(4 * r + c, F(Q[r][c]), "Q = x W_Q [%d][%d]" % (r, c)) for r in range(3) for c in range(4)]),
        S_('QK2', 'K = xW_K = \\begin{pmatrix}', 12, *[E(4 * r + c, F(K[r][c]), "K = x W_K [%d][%d]" % (r, c)) for r in range(3) for c in range(4)]),
        S_('alt', '![一个 attention 头的六步手算', 18, E(5, F(2), "sqrt(4)"), E(7, Pc[2][0], "causal weight t2 -> t0"), E(9, Pc[2][1], "causal weight t2 -> t1"),
           E(11, Pc[2][2], "causal weight t2 -> t2"), *[E(13 + c, Oc[2][c], "causal output t2 [%d] = %s" % (c, mp.nstr(Oc[2][c], 6))) for c in range(4)]),
        S_('s2', '2. **打分** $$S = QK^T$$', 11, *[E(3 + c, F(S[0][c]), "S = Q K^T [0][%d]" % c) for c in range(3)],
           E(8, F(S[0][0]), "restated S[0][0]"), E(10, F(S[0][1]), "restated S[0][1]")),
        S_('s3', '3. **缩放**：除以', 5, E(1, F(2), "sqrt(4)"), *[E(2 + c, F(S[0][c], 2), "S[0][%d] / 2" % c) for c in range(3)]),
        S_('s5', '5. **softmax** 逐行', 18, E(1, F(0), "e^{-inf}"), E(2, F(0), "weight of a masked position"),
           *[E(4 + c, F(S[2][c], 2), "t2 scaled score %d" % c) for c in range(3)],
           *[E(7 + c, Pc[2][c], "causal softmax of t2 row, entry %d = %s" % (c, mp.nstr(Pc[2][c], 6))) for c in range(3)],
           E(10, F(S[2][2], 2), "restated exponent 1.0"), E(11, F(S[2][0], 2), "restated exponent 0.5"), E(12, F(S[2][1], 2), "restated exponent 0.5"),
           E(13, F(S[2][2], 2), "restated exponent 1.0"), E(14, mpmath.e, "e^1"), E(15, 2 * mpmath.exp(mpf('0.5')) + mpmath.e, "2 e^0.5 + e"),
           E(16, Pc[2][2], "e / (2 e^0.5 + e)")),
        S_('s6', '6. **加权求和**', 14, E(2, Pc[2][0], "restated weight"), E(4, Pc[2][1], "restated weight"), E(6, Pc[2][2], "restated weight"),
           *[E(8 + c, Oc[2][c], "causal output t2 [%d]" % c) for c in range(4)]),
        *[S_('sq%d' % dd, '| %d | %s |' % (dd, sd), 4, E(2, mpmath.sqrt(dd), "sqrt(%d)" % dd)) for dd, sd in ((4, '1.99'), (64, '8.01'), (128, '11.33'), (1024, '32.01'))],
        S_('gap', '不除会怎样：$$d = 128$$', 6, E(1, mpmath.sqrt(128), "sqrt(128) = 11.31, written as the integer 11", intround=True),
           E(3, 1 / (1 + mpmath.exp(-10)), "two scores 10 apart: 1/(1+e^-10)"), E(4, mpmath.exp(-10) / (1 + mpmath.exp(-10)), "e^-10/(1+e^-10)")),
        S_('h64', 'GPT-2 small 的 768 维切成 12 个头', 6, E(3, F(d, 12), "768 / 12")),
        S_('wo', '- **参数：$$W_O$$。**', 10, E(3, F(d * d, 10 ** 6), "768^2 = 589,824 in millions"), E(9, F(2 * d * d, 10 ** 6), "2 x 768^2 = 1,179,648 in millions")),
        S_('pp', '- **中间结果：权重表多了', 8, E(5, F(12 * 1024 ** 2, 10 ** 6), "12 x 1024^2 = 12,582,912 in millions"),
           E(7, F(12 * 1024 ** 2 * 2, 10 ** 6), "bf16: 2 bytes each = 25,165,824 bytes = 25.2 MB (decimal MB), printed as an integer", intround=True)),
        *[S_('p%s' % nmx, '| $$%s$$ |' % nmx, 4, E(3, F(d * d + d), "768 x 768 + 768")) for nmx in ('W_Q', 'W_K', 'W_V', 'W_O')],
        S_('ptot', '| **合计** |', 2, E(0, F(4 * (d * d + d)), "4 x 590,592"), E(1, F(4 * (d * d + d), 10 ** 6), "in millions")),
        S_('cattn', 'nanoGPT 里前三个拼成一个', 2, E(1, F(3 * d), "3 x 768")),
        S_('ffn', '$$\\text{FFN}(x) = \\text{GELU}', 14, E(5, F(4 * d), "4 x 768"), E(12, F(8 * d * d, 10 ** 6), "8 d^2 = 4,718,592 in millions (weights only)"),
           E(13, F(4 * d * d, 10 ** 6), "4 d^2 = 2,359,296 in millions (weights only)")),
        S_('ln', 'x = (2, 4, 4, 6) \\;\\to\\;', 12, E(4, F(4), "mean of (2,4,4,6)"), E(6, F(2), "population variance (4+0+0+4)/4"),
           E(8, -2 / mpmath.sqrt(2), "(2-4)/sqrt(2) (eps -> 0; eps = 1e-5 gives the same digits)"), E(9, F(0), "(4-4)/sqrt2"), E(10, F(0), "(4-4)/sqrt2"),
           E(11, 2 / mpmath.sqrt(2), "(6-4)/sqrt(2)")),
        S_('tie', 'GPT-2 的 lm_head', 4, E(3, F(L * d, 10 ** 4), "50257 x 768 = 38,597,376 parameters in units of 万 (10^4), printed as an integer", intround=True)),
    ]
    meta = {
        "doc": "zh_transformer_static_view_by_hand.md",
        "source": "GitHub Jekyll blog post 「Transformer 原理与实现（01）：Transformer 长什么样——从一句话到下一个 token」 (series transformer-and-llm, 2026-03-30, chapters 一-十一); repository name not exposed by the search index (stored file id 70141928746). Kept: front matter (catalog line dropped), chapter 三.1 table and 三.2 worked comparison (prose condensed), 四.1 one sentence with 12 x 12 = 144, 四.3 matrices, image alt text (shortened: step 1 and the row-sum remark dropped), the six steps and the last lines of the script with its printout, 四.4 table and remark, 四.6 the two cost bullets (condensed), 四.7 table (column texts shortened), one sentence each of 五.2, 六.2 (with the LayerNorm example verbatim) and 七.2; dropped: chapters 一, 二, 四.2, 四.5, 五.1/五.3, 六.1/六.3, 八-十一, figures and links; prose reworded and shortened",
        "source_kind": "blog post (GitHub Pages)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Jekyll Markdown with $$...$$ for both inline and display math, pmatrix matrices written on one line each, vectors in parentheses, U+2212 minus signs in the position table, pipe tables with Table: captions, thousands separators (590,592)",
        "conventions": "Attention: Q = x W_Q, K = x W_K, V = x, scores / sqrt(4), causal mask for the six steps, no mask for the shuffle table, row softmax with natural exp. Position method one: token vector + position-table row; method two: q = cat, k = dog, k rotated relative to q by (n - m) x 30 degrees counter-clockwise, score = q . R k (+60: 0.2679, -60: 3.7321). sqrt(d) column of the table and the '标准差是 11' are sqrt(d) (the measured columns 1.99 / 8.01 / ... and 1.00 are random-experiment results and are not listed). 0.99995 : 0.00005 read as softmax of two scores 10 apart. Parameter counts with 768-wide bias for the attention matrices, FFN 8d^2 vs 4d^2 weights only; 25 MB = 12 x 1024^2 x 2 bytes in decimal MB; 3860万 = 50257 x 768 / 10^4. LayerNorm example with population variance and eps -> 0. Integers printed as rounded values (11, 25, 3860) judged at 0 places. Not listed: inputs and token ids, the float noise 5.9605e-08 / 6 x 10^-8 (not determined by the printed numbers), the '1/4' share, the sentence-level 'sum to 1' remarks",
    }
    return meta, specs



# ---------------------------------------------------------------------------
# Document D: AI-written article 「从零开始大模型开发与微调：Softmax激活函数」 (worked example + printout)
# ---------------------------------------------------------------------------
def doc_d():
    xs = [mpf(2), mpf(1), mpf(-1)]
    z = [mpmath.exp(v) for v in xs]
    tot = sum(z)
    p = [v / tot for v in z]
    z2 = [mpmath.exp(v + 10) for v in xs]
    tot2 = sum(z2)
    p2 = [v / tot2 for v in z2]
    specs = [
        S_('z1', 'z_1 &= e^{2.0} = 7.389', 3, E(2, z[0], "e^2")),
        S_('z2', 'z_2 &= e^{1.0} = 2.718', 3, E(2, z[1], "e^1")),
        S_('z3', 'z_3 &= e^{-1.0} = 0.368', 3, E(2, z[2], "e^-1")),
        S_('sz', '\\sum z &= 7.389 + 2.718 + 0.368 = 10.475', 4, *[E(k, z[k], "restated z_%d" % (k + 1)) for k in range(3)],
           E(3, tot, "e^2 + e + e^-1 = %s" % mp.nstr(tot, 10))),
        *[S_('p%d' % (k + 1), 'p_%d &= \\frac{' % (k + 1), 4, E(1, z[k], "restated z_%d" % (k + 1)), E(2, tot, "restated sum"),
             (W(3, p[k], "softmax((2, 1, -1)) entry 2 = %s -> 0.259; the printed 2.718 / 10.475 = 0.25947 also rounds to 0.259" % mp.nstr(p[k], 8), lit='0.260')
              if k == 1 else E(3, p[k], "softmax((2, 1, -1)) entry %d = %s" % (k + 1, mp.nstr(p[k], 8))))) for k in range(3)],
        S_('mono', '最大的输入$ 2.0 $对应最大的概率', 4, E(1, p[0], "restated p_1"), E(3, p[2], "restated p_3")),
        S_('shift', '得到$ \\boldsymbol{x}\' = (12.0, 11.0, 9.0) $', 4, *[E(1 + k, xs[k] + 10, "x_%d + 10" % (k + 1)) for k in range(3)]),
        S_('z1b', "z_1' &= e^{12.0} = 162754.791", 3, E(1, xs[0] + 10, "restated x'_1"), E(2, z2[0], "e^12")),
        S_('z2b', "z_2' &= e^{11.0} = 59874.142", 3, E(1, xs[1] + 10, "restated x'_2"), E(2, z2[1], "e^11")),
        S_('z3b', "z_3' &= e^{9.0} = 8103.084", 3, E(1, xs[2] + 10, "restated x'_3"), E(2, z2[2], "e^9")),
        S_('szb', "\\sum z' &= 162754.791 + 59874.142 + 8103.084 = 230732.017", 4, *[E(k, z2[k], "restated z'_%d" % (k + 1)) for k in range(3)],
           E(3, tot2, "e^12 + e^11 + e^9 = %s" % mp.nstr(tot2, 12))),
        *[S_('pb%d' % (k + 1), "p_%d' &= \\frac{" % (k + 1), 4, E(1, z2[k], "restated z'_%d" % (k + 1)), E(2, tot2, "restated sum'"),
             (W(3, p2[k], "softmax((12, 11, 9)) entry 2 = %s -> 0.259; 59874.142 / 230732.017 = 0.25950 also rounds to 0.259 (same wrong digit as p_2)" % mp.nstr(p2[k], 8), lit='0.260')
              if k == 1 else E(3, p2[k], "softmax((12, 11, 9)) entry %d (= softmax((2, 1, -1)))" % (k + 1)))) for k in range(3)],
        S_('out', 'tensor([[0.7051, 0.2595, 0.0354]])', 3,
           W(0, p[0], "softmax([2, 1, -1]) entry 1 = %s -> 0.7054 (the fabricated printout disagrees with the hand result 0.705 it claims to match)" % mp.nstr(p[0], 8)),
           E(1, p[1], "softmax([2, 1, -1]) entry 2 = %s" % mp.nstr(p[1], 8)),
           W(2, p[2], "softmax([2, 1, -1]) entry 3 = %s -> 0.0351" % mp.nstr(p[2], 8))),
    ]
    meta = {
        "doc": "zh_softmax_activation_ai_article_printout.md",
        "source": "GitHub Markdown article 「从零开始大模型开发与微调：Softmax激活函数」 (AI-written CSDN 「禅与计算机程序设计艺术」-style series; sections 1-5, the stored copy ends at '5.2 在神经网络中应用'); repository name not exposed by the search index (stored file id 31124548015). Kept: 1 (condensed), 2.1, 2.3 (formula), 3.1 steps, 3.3 gradient formula, 4.2 list (item 4 dropped), 4.3 verbatim (the two prose sentences reworded with their numbers kept), 5.1 code (docstring shortened) and its printed output; dropped: 1.1-1.2, 2.2, 3.2, 3.4, the maximum-entropy derivation of 4.1 and the unfinished 5.2",
        "source_kind": "blog post (AI-generated, on GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown with $$ aligned LaTeX (z_1 &= e^{2.0} = 7.389 \\\\, \\frac, \\approx, primes z_1'), inline $ ... $ with spaces and ASCII commas after Chinese text, a Python block and a separate output block",
        "conventions": "Softmax with natural exp; x' = x + 10 (shift invariance, so the p' equal the p). The hand values are right to their printed decimals (sum 10.4752 -> 10.475, 230732.01706 -> 230732.017) except p_2 and p_2' printed 0.260: e / (e^2 + e + e^-1) = 0.259496, and the printed fractions 2.718 / 10.475 = 0.25947 and 59874.142 / 230732.017 = 0.25950 round to 0.259 as well, so both are slips (the restatements 0.705 / 0.035 in the monotonicity sentence are right). The printed tensor is wrong too: softmax([2, 1, -1]) = [0.705385, 0.259496, 0.035119], so 0.7051 and 0.0354 are wrong (slips) and 0.2595 is right. Restatements of z, the sums and the probabilities are listed. Not listed: inputs, c = 10, section numbers, dim=1",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: Rust LLM tutorial 「第 6 章：采样策略」 (temperature, top-k, top-p, CDF sampling)
# ---------------------------------------------------------------------------
def doc_e():
    lg = [F(3), F(1), F('0.5')]
    res = {}
    for Tm in (F('0.5'), F(1), F(2)):
        sc = [v / Tm for v in lg]
        res[Tm] = (sc, softmax([M(v) for v in sc]))
    tk = [F('1.2'), F('3.4'), F('0.5'), F('2.8'), F('0.1'), F('1.9')]
    top = sorted(tk, reverse=True)[:3]
    ptop = softmax([M(v) for v in top])          # for 3.4, 2.8, 1.9
    tp = [F('0.50'), F('0.25'), F('0.15'), F('0.05'), F('0.03'), F('0.02')]
    cum = [sum(tp[:k + 1]) for k in range(3)]
    ren = [v / cum[2] for v in tp[:3]]
    pr = [F('0.55'), F('0.30'), F('0.15')]

    def trow(label, anchor, Tm, lits):
        sc, sm = res[Tm]
        ents = []
        for k in range(3):
            wh = "softmax(logits / %s) entry %d = %s" % (float(Tm), k + 1, mp.nstr(sm[k], 6))
            ents.append(E(k, sm[k], wh, lit=lits[k]) if rounds_to(lits[k], sm[k]) else W(k, sm[k], wh, lit=lits[k]))
        return S_(label, anchor, 3, *ents)

    specs = [
        S_('t05', '  logits/T = [6.0, 2.0, 1.0]', 3, *[E(k, res[F('0.5')][0][k], "logit %d / 0.5" % (k + 1)) for k in range(3)]),
        trow('p05', '  softmax  = [0.94, 0.02, 0.01]', F('0.5'), ['0.94', '0.02', '0.01']),
        S_('t1', '  logits/T = [3.0, 1.0, 0.5]', 3, *[E(k, res[F(1)][0][k], "logit %d / 1" % (k + 1)) for k in range(3)]),
        trow('p1', '  softmax  = [0.84, 0.11, 0.07]', F(1), ['0.84', '0.11', '0.07']),
        S_('t2', '  logits/T = [1.5, 0.5, 0.25]', 3, *[E(k, res[F(2)][0][k], "logit %d / 2" % (k + 1)) for k in range(3)]),
        trow('p2', '  softmax  = [0.51, 0.19, 0.15]', F(2), ['0.51', '0.19', '0.15']),
        S_('srt', '排序后前 3: [3.4, 2.8, 1.9]', 4, *[E(1 + k, top[k], "k-th largest logit (k = %d)" % (k + 1)) for k in range(3)]),
        S_('thr', 'threshold = 1.9', 1, E(0, top[2], "3rd largest logit")),
        S_('flt', '过滤后: [-∞, 3.4, -∞, 2.8, -∞, 1.9]', 3, *[E(k, top[k], "kept logit") for k in range(3)]),
        S_('tks', 'softmax: [0.0, 0.55, 0.0, 0.30, 0.0, 0.15]', 6, E(0, F(0), "filtered logit -> probability 0"),
           W(1, ptop[0], "softmax([3.4, 2.8, 1.9]) entry 1 = %s" % mp.nstr(ptop[0], 6)), E(2, F(0), "filtered"),
           W(3, ptop[1], "softmax([3.4, 2.8, 1.9]) entry 2 = %s" % mp.nstr(ptop[1], 6)), E(4, F(0), "filtered"),
           W(5, ptop[2], "softmax([3.4, 2.8, 1.9]) entry 3 = %s" % mp.nstr(ptop[2], 6))),
        S_('cum', '累积:         [0.50, 0.75, 0.90, ...]', 3, *[E(k, cum[k], "cumulative probability %d" % (k + 1)) for k in range(3)]),
        S_('ren', '[0.556, 0.278, 0.167, 0.0, 0.0, 0.0]', 6, *[E(k, ren[k], "renormalised p_%d / 0.90" % (k + 1)) for k in range(3)],
           *[E(3 + k, F(0), "truncated candidate") for k in range(3)]),
        S_('cdf', '0            0.55        0.85    1.0', 4, E(1, pr[0], "CDF boundary after token 0"), E(2, pr[0] + pr[1], "CDF boundary 0.55 + 0.30"),
           E(3, sum(pr), "CDF end 0.55 + 0.30 + 0.15")),
    ]
    meta = {
        "doc": "zh_rust_sampler_temperature_topk_topp.md",
        "source": "GitHub Markdown tutorial chapter 「第 6 章：采样策略」 of a Rust LLM-inference course (source file src/sampler.rs, sections 6.1-6.9); repository name not exposed by the search index (stored file id 32360694053). Kept: header, 6.1 (prose condensed) with its flow sketch, the sample() listing of 6.2 (config struct dropped), 6.3 verbatim, 6.4 and 6.5 with their examples (the Rust bodies of apply_top_k / apply_top_p summarised in one sentence each), 6.6 example, a three-line 6.9; dropped: sample_from_probs code, 6.7 (Xorshift64), 6.8 (argmax), the design-decision list and the link to chapter 7",
        "source_kind": "GitHub notes (tutorial chapter)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "plain-text blocks with bracketed lists, logits/T, softmax  = [...], -∞ for filtered logits, arrows and a box-drawing CDF bar",
        "conventions": "Temperature softmax: softmax(logits / T) with natural exp; top-k keeps the 3 largest logits (3.4, 2.8, 1.9) and softmaxes them (0.5644, 0.3097, 0.1259); top-p keeps the shortest prefix reaching 0.9 and renormalises by 0.90. True temperature rows: T = 0.5 [0.9756, 0.0179, 0.0066], T = 1 [0.8214, 0.1112, 0.0674], T = 2 [0.6045, 0.2224, 0.1732] (the printed T = 2 row sums to 0.85). The 6.6 probabilities [0.55, 0.30, 0.15] are taken as the given input of that example (its text presents them as a fresh distribution), so only the CDF boundaries computed from them are listed. Wrong values do not follow from any printed number (slips). Not listed: input logits and probabilities, T, k, p, r values, token indices, section numbers",
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
        print("%-56s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
