#!/usr/bin/env python3
"""Independent true values for the English first-contact documents (round 1).

Only the standard library and mpmath are used.  Decimal text in the documents is read as
exact decimal (Fraction); transcendental stages are evaluated with mpmath at 50 digits.

Usage (from /work/main):
    .venv/bin/python tests/first_contact/r1/_truth_en.py          # (re)write the *.expect.json files
    .venv/bin/python tests/first_contact/r1/_truth_en.py --check  # verify files and all assertions
"""
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP, getcontext
from fractions import Fraction as Fr

import mpmath as mp

mp.mp.dps = 50
getcontext().prec = 100
HERE = os.path.dirname(os.path.abspath(__file__))

# numeric literal: optional minus, digits (with optional thousands commas), fraction, exponent, %
_NUM = r'-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?%?'
NUM_RE = re.compile(r'(?<![\w.])' + _NUM)
# variant for torch printouts: "2." (integer float with trailing dot) is one literal
NUM_RE_DOT = re.compile(r'(?<![\w.])(?:-?\d+\.(?=[,\]\s])|' + _NUM + ')')


def D(x):
    """exact decimal/fraction text -> Fraction"""
    return Fr(x)


def mpf(x):
    if isinstance(x, Fr):
        return mp.mpf(x.numerator) / x.denominator
    if isinstance(x, int):
        return mp.mpf(x)
    return mp.mpf(x)


def softmax(row):
    r = [mpf(v) for v in row]
    m = max(r)
    e = [mp.exp(v - m) for v in r]
    s = mp.fsum(e)
    return [v / s for v in e]


def matmul(A, B):
    return [[sum((A[i][k] * B[k][j] for k in range(len(B))), Fr(0) if isinstance(A[0][0], Fr) else 0)
             for j in range(len(B[0]))] for i in range(len(A))]


def T(A):
    return [list(r) for r in zip(*A)]


def to_dec(x):
    if isinstance(x, Fr):
        return Decimal(x.numerator) / Decimal(x.denominator)
    if isinstance(x, int):
        return Decimal(x)
    return Decimal(mp.nstr(mpf(x), 60, min_fixed=-100, max_fixed=100))


def lit_value(lit):
    """(Decimal value, decimal places, is_integer_literal) of a printed literal"""
    s = lit
    pct = s.endswith('%')
    if pct:
        s = s[:-1]
    s = s.replace(',', '')
    intlit = '.' not in s and 'e' not in s
    if s.endswith('.'):
        s = s[:-1]
        intlit = True
    mant, _, exp = s.partition('e')
    places = len(mant.split('.')[1]) if '.' in mant else 0
    if exp:
        places -= int(exp)
    v = Decimal(s)
    if pct:
        v = v / 100
        places += 2
    return v, places, intlit and not pct


def rounds_to(lit, truth, pct=False):
    v, p, intlit = lit_value(lit)
    t = to_dec(truth)
    if pct and not lit.endswith('%'):
        v = v / 100
        p += 2
        intlit = False
    if intlit:
        return abs(t - v) < Decimal('1e-40')
    q = t.quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_UP)
    return q == v


def truth_str(x):
    if isinstance(x, (Fr, int)):
        d = to_dec(x)
        s = format(d.normalize(), 'f') if d == d.to_integral_value() or len(str(d)) < 40 else str(d)
        if isinstance(x, Fr) and x.denominator != 1 and len(format(d, 'f')) > 30:
            return mp.nstr(mpf(x), 20)
        return s
    return mp.nstr(mpf(x), 20)


class Doc:
    def __init__(self, name, meta, dot=False):
        self.name = name
        self.meta = meta
        with open(os.path.join(HERE, name), encoding='utf-8') as f:
            self.text = f.read()
        self.lines = self.text.split('\n')
        self.rx = NUM_RE_DOT if dot else NUM_RE
        self.cursor = 0
        self.labels = {}
        self.entries = []
        self.problems = []

    def seek(self, marker, exact=False):
        for i in range(self.cursor, len(self.lines)):
            ln = self.lines[i]
            if (ln == marker) if exact else (marker in ln):
                self.cursor = i + 1
                return i + 1
        raise AssertionError(f'{self.name}: seek marker not found: {marker!r}')

    def line(self, marker, picks, label=None):
        """picks: list of (token_index, claimed, truth, kind_or_None, what[, carried_label[, pct]])"""
        for i in range(self.cursor, len(self.lines)):
            if marker in self.lines[i]:
                break
        else:
            raise AssertionError(f'{self.name}: line marker not found after line {self.cursor}: {marker!r}')
        self.cursor = i + 1
        lineno = i + 1
        if label:
            self.labels[label] = lineno
        text = self.lines[i]
        toks = [(m.start(), m.group()) for m in self.rx.finditer(text)]
        for pk in picks:
            idx, claimed, truth, kind, what = pk[:5]
            cf = pk[5] if len(pk) > 5 else None
            pct = pk[6] if len(pk) > 6 else False
            assert idx < len(toks), f'{self.name}:{lineno}: token {idx} missing in {text!r} ({toks})'
            col0, lit = toks[idx]
            assert lit == claimed, f'{self.name}:{lineno}: token {idx} is {lit!r}, expected {claimed!r}'
            # literal really stands at (line, column)
            assert text[col0:col0 + len(lit)] == claimed
            col = col0 + 1
            ok = rounds_to(claimed, truth, pct)
            if kind is None and not ok:
                self.problems.append(f'{self.name}:{lineno}:{col} {claimed} expected ok, truth {truth_str(truth)} ({what})')
            if kind is not None and ok:
                self.problems.append(f'{self.name}:{lineno}:{col} {claimed} expected wrong ({kind}), '
                                     f'but rounds correctly from {truth_str(truth)} ({what})')
            e = {'line': lineno, 'column': col, 'claimed': claimed,
                 'status': 'ok' if ok else 'wrong'}
            if not ok:
                e['kind'] = kind
                if kind in ('carried', 'rounding-carried'):
                    assert cf, f'{self.name}:{lineno}: carried entry needs carried_from'
                    e['carried_from'] = cf  # resolved later
            e['truth'] = truth_str(truth)
            e['what'] = what + (' (percent)' if pct else '')
            self.entries.append(e)

    def result(self):
        for e in self.entries:
            if 'carried_from' in e and isinstance(e['carried_from'], str):
                e['carried_from'] = self.labels[e['carried_from']]
        # the same (line, column) must not be listed twice
        seen = set()
        for e in self.entries:
            k = (e['line'], e['column'])
            assert k not in seen, f'{self.name}: duplicate position {k}'
            seen.add(k)
        out = {'doc': self.name}
        out.update(self.meta)
        out['numbers'] = self.entries
        return out


def P(idx, claimed, truth, kind=None, what='', cf=None, pct=False):
    return (idx, claimed, truth, kind, what, cf, pct)


def row_picks(start, claimed, truths, kind=None, what='', cf=None, idxs=None, pct=False):
    """claimed: space separated literals; kind: None/str/list"""
    cl = claimed.split()
    assert len(cl) == len(truths), (claimed, len(truths))
    kinds = kind if isinstance(kind, list) else [kind] * len(cl)
    idxs = idxs or list(range(start, start + len(cl)))
    cfs = cf if isinstance(cf, list) else [cf] * len(cl)
    return [P(idxs[k], cl[k], truths[k], kinds[k], f'{what} [{k + 1}]', cfs[k], pct) for k in range(len(cl))]


# ---------------------------------------------------------------------------------------------
# 1. Illustrated self-attention notebook (PyTorch printouts)
# ---------------------------------------------------------------------------------------------
def doc_illustrated():
    d = Doc('en_selfattn_illustrated_notebook.md', {
        'source': 'github MJMortensonWarwick/ADA:3_1_illustrated_self_attention_.ipynb '
                  '(Colab by Manuel Romero of R. Karim, "Illustrated: Self-Attention", towardsdatascience)',
        'source_kind': 'notebook',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'Markdown notebook export; ASCII matrix products in code fences, PyTorch tensor(...) '
                    'printouts (e-notation and 4-decimal), commented copies of outputs, row layout x @ W, '
                    'inputs numbered from 1',
        'conventions': 'unscaled dot-product scores (no division by sqrt(d_k), stated in the text); row-wise '
                       'softmax; softmax then "approximated for readability" to one decimal and those '
                       'approximations are used for the weighted values and Output 1',
    }, dot=True)
    X = [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]]
    Wk = [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]]
    Wq = [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]]
    Wv = [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]]
    K, Q, V = matmul(X, Wk), matmul(X, Wq), matmul(X, Wv)
    S = matmul(Q, T(K))
    A = [softmax(r) for r in S]
    O = [[mp.fsum(A[i][j] * V[j][c] for j in range(3)) for c in range(3)] for i in range(3)]

    def fmt(r, style):
        if style == 'int':
            return ' '.join(str(v) for v in r)
        if style == 'dot':
            return ' '.join(f'{v}.' for v in r)

    for name, M in (('Keys:', K), ('Values:', V), ('Queries:', Q)):
        d.seek(name)
        rows = [('[1, 0, 1, 0]', 0), ('[0, 2, 0, 2]', 1), ('[1, 1, 1, 1]', 2)]
        for mk, i in rows:
            d.line(mk, row_picks(7, fmt(M[i], 'int'), M[i], what=f'{name[:-1].lower()} row {i + 1}'))
    d.seek('### Step 4')
    KT = T(K)
    d.line('            [0, 4, 2]', row_picks(0, '0 4 2', KT[0], what='K^T row 1 (keys column 1)'))
    d.line('[1, 0, 2] x [1, 4, 3] = [2, 4, 4]',
           row_picks(0, '1 0 2', Q[0], what='query of input 1') +
           row_picks(3, '1 4 3', KT[1], what='K^T row 2') +
           row_picks(6, '2 4 4', S[0], what='scores of query 1'))
    d.line('            [1, 0, 1]', row_picks(0, '1 0 1', KT[2], what='K^T row 3'))
    for src in ('# tensor([[ 2.', 'tensor([[ 2.'):
        tag = 'commented output' if src.startswith('#') else 'printout'
        d.line(src, row_picks(0, fmt(S[0], 'dot'), S[0], what=f'scores {tag} row 1'))
        d.line('[ 4., 16., 12.]', row_picks(0, fmt(S[1], 'dot'), S[1], what=f'scores {tag} row 2'))
        d.line('[ 4., 12., 10.]', row_picks(0, fmt(S[2], 'dot'), S[2], what=f'scores {tag} row 3'))
    d.seek('### Step 5')
    d.line('softmax([2, 4, 4]) = [0.0, 0.5, 0.5]',
           row_picks(0, '2 4 4', S[0], what='scores row 1 (repeated)') +
           [P(3, '0.0', A[0][0], 'rounding', 'softmax row 1 col 1, one decimal'),
            P(4, '0.5', A[0][1], None, 'softmax row 1 col 2'),
            P(5, '0.5', A[0][2], None, 'softmax row 1 col 3')], label='sm_md')
    sm_e = [['6.3379e-02', '4.6831e-01', '4.6831e-01'],
            ['6.0337e-06', '9.8201e-01', '1.7986e-02'],
            ['2.9539e-04', '8.8054e-01', '1.1917e-01']]
    for tag in ('commented output', 'x'):
        for i in range(3):
            d.line(sm_e[i][0], row_picks(0, ' '.join(sm_e[i]), A[i],
                                         what=f'softmax {"commented output" if tag != "x" else "xx"} row {i + 1}'))
        if tag == 'commented output':
            appr = [['0.0', '0.5', '0.5'], ['0.0', '1.0', '0.0'], ['0.0', '0.9', '0.1']]
            kinds = [['rounding', None, None], [None] * 3, [None] * 3]
            for i in range(3):
                d.line('  [' + ', '.join(appr[i]) + '],' if i < 2 else '  [' + ', '.join(appr[i]) + ']',
                       row_picks(0, ' '.join(appr[i]), A[i], kind=kinds[i],
                                 what=f'readability approximation of softmax row {i + 1}'),
                       label='appr' if i == 0 else None)
    # fix the 'xx' labels: first printout of the exact softmax
    for e in d.entries:
        if e['what'].startswith('softmax xx'):
            e['what'] = e['what'].replace('softmax xx', 'softmax printout')
    ap4 = [['0.0000', '0.5000', '0.5000'], ['0.0000', '1.0000', '0.0000'], ['0.0000', '0.9000', '0.1000']]
    k4 = [['carried', 'rounding-carried', 'rounding-carried'],
          [None, 'rounding-carried', 'rounding-carried'],
          ['rounding-carried'] * 3]
    for i in range(3):
        d.line('[' + ', '.join(ap4[i]) + ']',
               row_picks(0, ' '.join(ap4[i]), A[i], kind=k4[i], cf='appr',
                         what=f'printout of approximated softmax row {i + 1} (4 decimals)'))
    d.seek('### Step 6')
    wv = [[A[0][j] * V[j][c] for c in range(3)] for j in range(3)]
    d.line('1: 0.0 * [1, 2, 3] = [0.0, 0.0, 0.0]',
           [P(1, '0.0', A[0][0], 'rounding', 'weight of input 1 for query 1')] +
           row_picks(2, '1 2 3', V[0], what='value of input 1') +
           row_picks(5, '0.0 0.0 0.0', wv[0], kind='carried', cf='sm_md', what='weighted value 1'),
           label='wv1')
    d.line('2: 0.5 * [2, 8, 0] = [1.0, 4.0, 0.0]',
           [P(1, '0.5', A[0][1], None, 'weight of input 2 for query 1')] +
           row_picks(2, '2 8 0', V[1], what='value of input 2') +
           row_picks(5, '1.0 4.0 0.0', wv[1], kind=['rounding-carried', 'rounding-carried', None],
                     cf='sm_md', what='weighted value 2'))
    d.line('3: 0.5 * [2, 6, 3] = [1.0, 3.0, 1.5]',
           [P(1, '0.5', A[0][2], None, 'weight of input 3 for query 1')] +
           row_picks(2, '2 6 3', V[2], what='value of input 3') +
           row_picks(5, '1.0 3.0 1.5', wv[2], kind='rounding-carried', cf='sm_md', what='weighted value 3'))
    d.seek('### Step 7')
    d.line('  [0.0, 0.0, 0.0]', row_picks(0, '0.0 0.0 0.0', wv[0], kind='carried', cf='sm_md',
                                          what='weighted value 1 (repeated in the sum)'))
    d.line('+ [1.0, 4.0, 0.0]', row_picks(0, '1.0 4.0 0.0', wv[1], kind=['rounding-carried', 'rounding-carried', None],
                                          cf='sm_md', what='weighted value 2 (repeated in the sum)'))
    d.line('+ [1.0, 3.0, 1.5]', row_picks(0, '1.0 3.0 1.5', wv[2], kind='rounding-carried', cf='sm_md',
                                          what='weighted value 3 (repeated in the sum)'))
    d.line('= [2.0, 7.0, 1.5]', row_picks(0, '2.0 7.0 1.5', O[0], kind='carried', cf='sm_md',
                                          what='Output 1 = sum of weighted values'), label='out1')
    d.line('The vector ```[2.0, 7.0, 1.5]```', row_picks(0, '2.0 7.0 1.5', O[0], kind='carried', cf='sm_md',
                                                           what='Output 1 (repeated in prose)'))
    return d


# ---------------------------------------------------------------------------------------------
# 2. Softmax by hand + scaling (GitHub Markdown notes, $$)
# ---------------------------------------------------------------------------------------------
def doc_softmax_scaling():
    d = Doc('en_softmax_scaling_notes.md', {
        'source': 'github Roni6291/genai_learning_path:1.3-Transformer_Attention/q2_softmax_calculation.md',
        'source_kind': 'GitHub notes',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'Markdown with $...$ and $$...$$ (\\frac, \\text{softmax}), percentages written 99.995\\%, '
                    'thousands separators (22,026), bracketed vectors in prose',
        'conventions': 'plain softmax of [10, 0, -5]; scaling example divides the same scores by sqrt(d_k) '
                       'with d_k = 4 and d_k = 64; exponentials and sum rounded before dividing',
    })
    e10, e0, em5 = mp.exp(10), mp.mpf(1), mp.exp(-5)
    s = e10 + e0 + em5
    p = [e10 / s, e0 / s, em5 / s]
    d.line('- $e^{10} = 22026.4658$', [P(1, '22026.4658', e10, None, 'e^10')])
    d.line('- $e^{0} = 1.0000$', [P(1, '1.0000', e0, None, 'e^0')])
    d.line('- $e^{-5} = 0.0067$', [P(1, '0.0067', em5, None, 'e^-5')])
    d.line('\\text{Sum} = 22026.4658', row_picks(0, '22026.4658 1.0000 0.0067 22027.4725', [e10, e0, em5, s],
                                                 what='sum of exponentials (terms then total)'))
    d.line('\\text{softmax}(10) = ', [P(1, '22026.4658', e10, None, 'e^10 (repeated)'),
                                      P(2, '22027.4725', s, None, 'sum (repeated)'),
                                      P(3, '0.9999545', p[0], 'slip', 'softmax(10)'),
                                      P(4, '99.995', p[0], None, 'softmax(10) as percent, printed 99.995\\%', None, True)],
           label='p10')
    d.line('\\text{softmax}(0) = ', [P(1, '1.0000', e0, None, 'e^0 (repeated)'),
                                     P(2, '22027.4725', s, None, 'sum (repeated)'),
                                     P(3, '0.0000454', p[1], None, 'softmax(0)'),
                                     P(4, '0.005', p[1], None, 'softmax(0) as percent, printed 0.005\\%', None, True)])
    d.line('\\text{softmax}(-5) = ', [P(1, '0.0067', em5, None, 'e^-5 (repeated)'),
                                      P(2, '22027.4725', s, None, 'sum (repeated)'),
                                      P(3, '0.0000003', p[2], None, 'softmax(-5)'),
                                      P(4, '0.0003', p[2], 'slip', 'softmax(-5) as percent, printed 0.0003\\%', None, True)])
    d.line('\\text{softmax}([10, 0, -5]) = [', row_picks(3, '0.9999545 0.0000454 0.0000003', p,
                                                         kind=['carried', None, None], cf='p10',
                                                         what='softmax result vector'), label='res')
    d.line('**Check:**', row_picks(0, '0.9999545 0.0000454 0.0000003 1.0000002 1', p + [mp.fsum(p), 1],
                                   kind=['carried', None, None, 'carried', None], cf='p10',
                                   what='check: terms, their sum, approx 1'))
    d.line('takes almost everything', [P(1, '99.995%', p[0], None, 'share of the top score')])
    # the two integer literals 22,026 (e^10 = 22026.47...) are left out: integer literal, ambiguous
    d.line('- $e^{10} = 22,026$', [P(4, '1', e0, None, 'e^0')])
    d.line('- Against $e^{-5} = 0.0067$', [P(1, '0.0067', em5, None, 'e^-5'),
                                           P(3, '3.3', e10 / em5 / 10**6, None, 'ratio e^10 / e^-5 in millions')])
    d.line('- Softmax outputs: [0.9999, 0.0000, 0.0000]',
           row_picks(0, '0.9999 0.0000 0.0000', p, kind=['rounding', None, None], what='softmax([10,0,-5]) 4 d.p.'))
    sc = [Fr(10, 2), Fr(0), Fr(-5, 2)]
    d.line('the divisor is $= \\sqrt{4} = 2$', [P(2, '2', 2, None, 'sqrt(d_k), d_k = 4')])
    d.line('Scaled scores: $\\frac{[10, 0, -5]}{2}', [P(3, '2', 2, None, 'sqrt(4) (repeated)')] +
           row_picks(4, '5 0 -2.5', sc, what='scores / 2'))
    q = softmax(sc)
    es = [mp.exp(mpf(v)) for v in sc]
    d.line('- $e^5 = 148.41$', [P(0, '5', sc[0], None, 'scaled score 1 (repeated)'), P(1, '148.41', es[0], None, 'e^5')],
           label='e5')
    d.line('- $e^0 = 1.00$', [P(0, '0', sc[1], None, 'scaled score 2 (repeated)'), P(1, '1.00', es[1], None, 'e^0')])
    d.line('- $e^{-2.5} = 0.082$', [P(0, '-2.5', sc[2], None, 'scaled score 3 (repeated)'),
                                     P(1, '0.082', es[2], None, 'e^-2.5')])
    d.line('Sum = 149.492', [P(0, '149.492', mp.fsum(es), 'rounding-carried', 'sum of scaled exponentials',
                               'e5')])
    d.line('Softmax output: [0.9929, 0.0067, 0.0005]',
           row_picks(0, '0.9929 0.0067 0.0005', q, kind=['rounding', None, None], what='softmax of [5, 0, -2.5]'))
    d.line('- Divisor $= \\sqrt{64} = 8$', [P(1, '8', 8, None, 'sqrt(64)')])
    sc2 = [Fr(10, 8), Fr(0), Fr(-5, 8)]
    d.line('- Scaled scores: [1.25, 0, -0.625]', row_picks(0, '1.25 0 -0.625', sc2, what='scores / 8'))
    d.line('- Softmax: [0.6011, 0.1711, 0.2278]',
           row_picks(0, '0.6011 0.1711 0.2278', softmax(sc2), kind='slip', what='softmax of [1.25, 0, -0.625]'))
    return d


# ---------------------------------------------------------------------------------------------
# 3. Positional encoding with d = 5 (notebook markdown, table)
# ---------------------------------------------------------------------------------------------
def pe(pos, k, dm=5):
    i2 = k if k % 2 == 0 else k - 1
    ang = mpf(pos) / mp.power(10000, mp.mpf(i2) / dm)
    return mp.sin(ang) if k % 2 == 0 else mp.cos(ang)


def doc_posenc():
    d = Doc('en_posenc_d5_notebook.md', {
        'source': 'github esmaeil-rezaei/transformers-math:02 Positional Encodings/02 positional-encoding-in-practice.ipynb',
        'source_kind': 'notebook',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'Markdown notebook cells, $$ with \\sin\\Big(\\frac{pos}{10000^{2i/d}}\\Big), Markdown tables '
                    'of vectors, positions counted from 0, 3-decimal values',
        'conventions': 'sinusoidal PE, base 10000, d = 5 (odd), even index k -> sin(pos/10000^{k/5}), odd index '
                       'k -> cos(pos/10000^{(k-1)/5}) (pairs share a frequency, as the document writes for '
                       'dimensions 0-4); X = E + P element-wise',
    })
    E = [[D('0.1'), D('0.2'), D('0.3'), D('0.4'), D('0.5')],
         [D('0.5'), D('0.4'), D('0.3'), D('0.2'), D('0.1')],
         [D('0.0'), D('0.1'), D('0.0'), D('0.1'), D('0.0')],
         [D('0.2'), D('0.2'), D('0.2'), D('0.2'), D('0.2')]]
    Pm = [[pe(p, k) for k in range(5)] for p in range(4)]
    fn = ['sin', 'cos', 'sin', 'cos', 'sin']
    for k in range(5):
        d.line(f'P_{{0,{k}}} = ', [P(6, '0', 0, None, f'angle 0/10000^... for dimension {k}'),
                                   P(7, '0' if k % 2 == 0 else '1', Pm[0][k], None, f'P(0,{k}) = {fn[k]}(0)')])
    tab = {0: ('0.0 1.0 0.0 1.0 0.0', [None] * 5),
           1: ('0.841 0.540 0.841 0.540 0.841', [None, None, 'slip', 'slip', 'slip']),
           2: ('0.909 0.141 0.909 0.141 0.909', [None, 'slip', 'slip', 'slip', 'slip']),
           3: ('0.141 0.990 0.141 0.990 0.141', [None, 'slip', 'slip', 'slip', 'slip'])}
    for p in range(4):
        d.line(f'| {p}        | [', row_picks(1, tab[p][0], Pm[p], kind=tab[p][1],
                                             what=f'PE position {p}, dims 0..4'), label=f'pe{p}')
    names = ['The', 'cat', 'is', 'black']
    for p in range(4):
        cl = tab[p][0].split()
        xs = [E[p][k] + 0 for k in range(5)]
        X = [mpf(E[p][k]) + Pm[p][k] for k in range(5)]
        # printed results after the second '='
        res_lit = {0: '0.1 1.2 0.3 1.4 0.5', 1: '1.341 0.94 1.141 0.74 0.941',
                   2: '0.909 0.241 0.909 0.241 0.909', 3: '0.341 1.19 0.341 1.19 0.341'}[p].split()
        picks = []
        for k in range(5):
            picks.append(P(2 * k + 1, cl[k], Pm[p][k], tab[p][1][k], f'PE({p},{k}) repeated inside X_{names[p]}',
                           None))
        for k in range(5):
            kk = 'carried' if tab[p][1][k] else None
            picks.append(P(10 + k, res_lit[k], X[k], kk, f'X_{names[p]} dim {k}', f'pe{p}' if kk else None))
        # repeated PE values that are wrong are carried copies of the table entries
        picks = [(pk if pk[3] is None or 'repeated' not in pk[4] else
                  (pk[0], pk[1], pk[2], 'carried', pk[4], f'pe{p}', pk[6])) for pk in picks]
        d.line(f'X_\\text{{{names[p]}}} = [', picks)
    return d


# ---------------------------------------------------------------------------------------------
# 4. Lecture notes, scaled dot-product attention (Markdown + bmatrix)
# ---------------------------------------------------------------------------------------------
def doc_lecture():
    d = Doc('en_sdpa_lecture_notes.md', {
        'source': 'github wangywUST/wangywust.github.io:Course/lecture_3.md (Lecture 3: Transformer Architecture, '
                  'Scaled Dot-Product Attention examples 1-3)',
        'source_kind': 'course notes',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'Markdown course notes, $$ \\begin{bmatrix} matrices, bullet lists of e^{x} values, '
                    '\\frac{a}{b} \\approx c, \\(V\\) inline math, rows of Q are tokens, QK^T layout',
        'conventions': 'softmax(QK^T / sqrt(d_k)) V with d_k = 2 (examples 1-2) and d_k = 4 (example 3); scaled '
                       'scores rounded to 2 decimals (0.71, 1.41) before exponentiating; weights rounded to 2 '
                       'decimals before multiplying by V',
    })
    Q = [[1, 0], [0, 1], [1, 1]]
    K = [[1, 1], [0, 1], [1, 0]]
    V = [[0, 2], [1, 1], [2, 0]]
    S = matmul(Q, T(K))
    r2 = mp.sqrt(2)
    Sc = [[mpf(v) / r2 for v in r] for r in S]
    A = [softmax(r) for r in Sc]
    O = [[mp.fsum(A[i][j] * V[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    ex = [[mp.exp(v) for v in r] for r in Sc]
    sums = [mp.fsum(r) for r in ex]
    d.seek('QK^T = \\begin{bmatrix}')
    for i, mk in enumerate(['   1 & 0 & 1 \\\\', '   1 & 1 & 0 \\\\', '   2 & 1 & 1']):
        d.line(mk, row_picks(0, ' '.join(str(v) for v in S[i]), S[i], what=f'QK^T row {i + 1}'))
    d.line('so $\\sqrt{2} \\approx 1.41$', [P(2, '1.41', r2, None, 'sqrt(2)')])
    lit = [['0.71', '0', '0.71'], ['0.71', '0.71', '0'], ['1.41', '0.71', '0.71']]
    for i in range(3):
        d.line('   ' + lit[i][0] + ' &', row_picks(0, ' '.join(lit[i]), Sc[i], what=f'scaled scores row {i + 1}'))
    E71, E141 = mp.exp(1 / r2), mp.exp(r2)
    # Row 1
    d.line('- Row 1: $[0.71, 0, 0.71]$', row_picks(1, '0.71 0 0.71', Sc[0], what='row 1 scaled scores (repeated)'), label='r1s')
    d.line('$e^{0.71} \\approx 2.034$', [P(0, '0.71', 1 / r2, None, '1/sqrt(2) in exponent'),
                                         P(1, '2.034', E71, 'rounding-carried', 'e^(1/sqrt 2) computed from 0.71',
                                           'r1s')])
    d.line('$e^{0} = 1$', [P(0, '0', 0, None, 'score 0 in exponent'), P(1, '1', 1, None, 'e^0')])
    d.line('$2.034 + 1 + 2.034 \\approx 5.068$',
           row_picks(0, '2.034 1 2.034 5.068', [E71, 1, E71, sums[0]],
                     kind=['rounding-carried', None, 'rounding-carried', 'rounding-carried'], cf='r1s',
                     what='row 1 exponentials and their sum'))
    n1 = [('$\\frac{2.034}{5.068} \\approx 0.401$', 0), ('$\\frac{1}{5.068} \\approx 0.197$', 1),
          ('$\\frac{2.034}{5.068} \\approx 0.401$', 2)]
    for mk, j in n1:
        top = '1' if j == 1 else '2.034'
        d.line(mk, [P(0, top, ex[0][j], None if j == 1 else 'rounding-carried', f'row 1 exp {j + 1} (repeated)', 'r1s'),
                    P(1, '5.068', sums[0], 'rounding-carried', 'row 1 sum (repeated)', 'r1s'),
                    P(2, mk.split('approx ')[1][:-1], A[0][j], None if j != 1 else 'rounding-carried',
                      f'softmax row 1 col {j + 1}', 'r1s')])
    d.line('* Row result: $[0.401, 0.197, 0.401]$',
           row_picks(0, '0.401 0.197 0.401 0.40 0.20 0.40', A[0] + A[0],
                     kind=[None, 'rounding-carried', None, None, None, None], cf='r1s',
                     what='softmax row 1 (3 then 2 decimals)'))
    # Row 2
    d.line('- Row 2: $[0.71, 0.71, 0]$', row_picks(1, '0.71 0.71 0', Sc[1], what='row 2 scaled scores (repeated)'), label='r2s')
    d.line('$e^{0.71} \\approx 2.034$', [P(0, '0.71', 1 / r2, None, '1/sqrt(2) in exponent'),
                                         P(1, '2.034', E71, 'rounding-carried', 'e^(1/sqrt 2) from 0.71', 'r2s')])
    d.line('$e^{0} = 1$', [P(0, '0', 0, None, 'score 0 in exponent'), P(1, '1', 1, None, 'e^0')])
    d.line('$2.034 + 2.034 + 1 \\approx 5.068$',
           row_picks(0, '2.034 2.034 1 5.068', [E71, E71, 1, sums[1]],
                     kind=['rounding-carried', 'rounding-carried', None, 'rounding-carried'], cf='r2s',
                     what='row 2 exponentials and their sum'))
    for mk, j in [('$\\frac{2.034}{5.068} \\approx 0.401$', 0), ('$\\frac{2.034}{5.068} \\approx 0.401$', 1),
                  ('$\\frac{1}{5.068} \\approx 0.197$', 2)]:
        top = '1' if j == 2 else '2.034'
        d.line(mk, [P(0, top, ex[1][j], None if j == 2 else 'rounding-carried', f'row 2 exp {j + 1} (repeated)', 'r2s'),
                    P(1, '5.068', sums[1], 'rounding-carried', 'row 2 sum (repeated)', 'r2s'),
                    P(2, mk.split('approx ')[1][:-1], A[1][j], None if j != 2 else 'rounding-carried',
                      f'softmax row 2 col {j + 1}', 'r2s')])
    d.line('* Row result: $[0.401, 0.401, 0.197]$',
           row_picks(0, '0.401 0.401 0.197 0.40 0.40 0.20', A[1] + A[1],
                     kind=[None, None, 'rounding-carried', None, None, None], cf='r2s',
                     what='softmax row 2 (3 then 2 decimals)'))
    # Row 3
    d.line('- Row 3: $[1.41, 0.71, 0.71]$', row_picks(1, '1.41 0.71 0.71', Sc[2], what='row 3 scaled scores (repeated)'), label='r3s')
    d.line('$e^{1.41} \\approx 4.096$', [P(0, '1.41', r2, None, 'sqrt(2) in exponent'),
                                         P(1, '4.096', E141, 'rounding-carried', 'e^(sqrt 2) computed from 1.41',
                                           'r3s')], label='r3s')
    d.line('$e^{0.71} \\approx 2.034$', [P(0, '0.71', 1 / r2, None, '1/sqrt(2) in exponent'),
                                         P(1, '2.034', E71, 'rounding-carried', 'e^(1/sqrt 2) from 0.71', 'r3s')])
    d.line('$4.096 + 2.034 + 2.034 \\approx 8.164$',
           row_picks(0, '4.096 2.034 2.034 8.164', [E141, E71, E71, sums[2]], kind='rounding-carried', cf='r3s',
                     what='row 3 exponentials and their sum'))
    d.line('$\\frac{4.096}{8.164} \\approx 0.501$',
           [P(0, '4.096', E141, 'rounding-carried', 'row 3 exp 1 (repeated)', 'r3s'),
            P(1, '8.164', sums[2], 'rounding-carried', 'row 3 sum (repeated)', 'r3s'),
            P(2, '0.501', A[2][0], 'slip', 'softmax row 3 col 1 (4.096/8.164 = 0.5017)')], label='r3a')
    for j in (1, 2):
        d.line('$\\frac{2.034}{8.164} \\approx 0.249$',
               [P(0, '2.034', E71, 'rounding-carried', f'row 3 exp {j + 1} (repeated)', 'r3s'),
                P(1, '8.164', sums[2], 'rounding-carried', 'row 3 sum (repeated)', 'r3s'),
                P(2, '0.249', A[2][j], 'rounding-carried', f'softmax row 3 col {j + 1}', 'r3s')])
    d.line('* Row result: $[0.501, 0.249, 0.249]$',
           row_picks(0, '0.501 0.249 0.249 0.50 0.25 0.25', A[2] + A[2],
                     kind=['carried', 'rounding-carried', 'rounding-carried', None, None, None],
                     cf=['r3a', 'r3s', 'r3s', None, None, None], what='softmax row 3 (3 then 2 decimals)'))
    d.seek('\\alpha = \\begin{bmatrix}')
    al = ['0.40 0.20 0.40', '0.40 0.40 0.20', '0.50 0.25 0.25']
    for i in range(3):
        d.line('   ' + al[i].replace(' ', ' & '), row_picks(0, al[i], A[i], what=f'alpha row {i + 1}'))
    d.seek('4. **Multiply by \\(V\\)**')
    # Row 1
    d.line('- Row 1 weights \\([0.40, 0.20, 0.40]\\)', row_picks(1, '0.40 0.20 0.40', A[0], what='row 1 weights'))
    d.line('0.40 \\times [0,2] + 0.20 \\times [1,1] + 0.40 \\times [2,0]',
           row_picks(0, '0.40 0.20 0.40', A[0], idxs=[0, 3, 6], what='row 1 weights (repeated)'))
    d.line('= [0 + 0.20 + 0.80,\\; 0.80 + 0.20 + 0]',
           row_picks(0, '0 0.20 0.80 0.80 0.20 0', [A[0][0] * 0, A[0][1] * 1, A[0][2] * 2,
                                                    A[0][0] * 2, A[0][1] * 1, A[0][2] * 0],
                     what='row 1 products w_j * V_j,c'))
    d.line('= [1.00,\\; 1.00].', row_picks(0, '1.00 1.00', O[0], what='output row 1'))
    # Row 2
    d.line('- Row 2 weights \\([0.40, 0.40, 0.20]\\)', row_picks(1, '0.40 0.40 0.20', A[1], what='row 2 weights'))
    d.line('0.40 \\times [0,2] + 0.40 \\times [1,1] + 0.20 \\times [2,0]',
           row_picks(0, '0.40 0.40 0.20', A[1], idxs=[0, 3, 6], what='row 2 weights (repeated)'))
    d.line('= [0,\\;0.80] + [0.40,\\;0.40] + [0.40,\\;0]',
           row_picks(0, '0 0.80 0.40 0.40 0.40 0', [A[1][0] * 0, A[1][0] * 2, A[1][1] * 1, A[1][1] * 1,
                                                    A[1][2] * 2, A[1][2] * 0], what='row 2 weighted value vectors'))
    d.line('= [0.80,\\;1.20].', row_picks(0, '0.80 1.20', O[1], what='output row 2'))
    # Row 3
    d.line('- Row 3 weights \\([0.50, 0.25, 0.25]\\)', row_picks(1, '0.50 0.25 0.25', A[2], what='row 3 weights'))
    d.line('0.50 \\times [0,2] + 0.25 \\times [1,1] + 0.25 \\times [2,0]',
           row_picks(0, '0.50 0.25 0.25', A[2], idxs=[0, 3, 6], what='row 3 weights (repeated)'), label='r3w')
    d.line('= [0,\\;1.0] + [0.25,\\;0.25] + [0.50,\\;0]',
           row_picks(0, '0 1.0 0.25 0.25 0.50 0', [A[2][0] * 0, A[2][0] * 2, A[2][1] * 1, A[2][1] * 1,
                                                   A[2][2] * 2, A[2][2] * 0], what='row 3 weighted value vectors'))
    d.line('= [0.75,\\;1.25].', row_picks(0, '0.75 1.25', O[2], kind='rounding-carried', cf='r3w',
                                           what='output row 3'), label='o3')
    d.seek('**Final Output**:')
    fo = ['1.00 1.00', '0.80 1.20', '0.75 1.25']
    for i in range(3):
        d.line('   ' + fo[i].replace(' ', ' & '),
               row_picks(0, fo[i], O[i], kind='rounding-carried' if i == 2 else None, cf='r3w',
                         what=f'final output row {i + 1}'))
    return d


# ---------------------------------------------------------------------------------------------
# 5. Layer norm guide ("Hello"), code blocks
# ---------------------------------------------------------------------------------------------
def doc_layernorm():
    d = Doc('en_layernorm_hello_guide.md', {
        'source': 'github micwill755/transformer:lesson/docs/Layer_Normalization_Explained.md '
                  '(sections "Step-by-Step Example" and "Complete Example: Full Prompt")',
        'source_kind': 'GitHub notes',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'Markdown with ```python blocks holding hand arithmetic (= chains, √, ²), per-token '
                    'statistics "mean=..., std=...", nested lists of normalized vectors',
        'conventions': 'layer norm over the 4 features of each token, population variance (divide by 4, stated), '
                       'no epsilon in the hand computation, no gamma/beta',
    })
    X = [[D('0.1'), D('0.3'), D('-0.2'), D('0.8')], [D('0.0'), D('0.1'), D('0.4'), D('-0.1')],
         [D('0.5'), D('-0.3'), D('0.2'), D('0.6')], [D('0.2'), D('0.7'), D('-0.4'), D('0.3')],
         [D('-0.1'), D('0.4'), D('0.8'), D('-0.2')], [D('0.3'), D('-0.1'), D('0.1'), D('0.5')]]
    mu = [sum(r) / 4 for r in X]
    dev = [[v - mu[i] for v in r] for i, r in enumerate(X)]
    var = [sum(v * v for v in r) / 4 for r in dev]
    sd = [mp.sqrt(mpf(v)) for v in var]
    N = [[mpf(v) / sd[i] for v in dev[i]] for i in range(6)]
    h = 0
    d.line('     = 1.0 / 4', [P(0, '1.0', sum(X[0]), None, 'sum of Hello features')])
    d.line('     = 0.25', [P(0, '0.25', mu[0], None, 'mean of Hello')])
    d.line('differences = [0.1 - 0.25', row_picks(0, '0.25 0.25 0.25 0.25', [mu[0]] * 4, idxs=[1, 3, 5, 7],
                                                   what='mean (repeated)'))
    d.line('            = [-0.15, 0.05, -0.45, 0.55]', row_picks(0, '-0.15 0.05 -0.45 0.55', dev[0],
                                                                 what='deviations from mean'))
    d.line('squared_differences = [(-0.15)²', row_picks(0, '-0.15 0.05 -0.45 0.55', dev[0],
                                                        what='deviations (repeated)'))
    sq = [v * v for v in dev[0]]
    d.line('                    = [0.0225, 0.0025, 0.2025, 0.3025]',
           row_picks(0, '0.0225 0.0025 0.2025 0.3025', sq, what='squared deviations'))
    d.line('variance = (0.0225 + 0.0025', row_picks(0, '0.0225 0.0025 0.2025 0.3025', sq,
                                                     what='squared deviations (repeated)'))
    d.line('         = 0.5300 / 4', [P(0, '0.5300', sum(sq), None, 'sum of squared deviations')])
    d.line('         = 0.1325', [P(0, '0.1325', var[0], None, 'population variance of Hello')])
    d.line('std_dev = √0.1325 = 0.364', [P(0, '0.1325', var[0], None, 'variance (repeated)'),
                                         P(1, '0.364', sd[0], None, 'std of Hello')])
    step5 = [('(0.1 - 0.25) / 0.364', '-0.15', '-0.412'), ('(0.3 - 0.25) / 0.364', '0.05', '0.137'),
             ('(-0.2 - 0.25) / 0.364', '-0.45', '-1.236'), ('(0.8 - 0.25) / 0.364', '0.55', '1.511')]
    for j, (mk, dv, nv) in enumerate(step5):
        d.line(mk, [P(1, '0.25', mu[0], None, 'mean (repeated)'), P(2, '0.364', sd[0], None, 'std (repeated)'),
                    P(3, dv, dev[0][j], None, f'deviation {j + 1}'), P(4, '0.364', sd[0], None, 'std (repeated)'),
                    P(5, nv, N[0][j], None, f'normalized Hello feature {j + 1}')])
    d.line('new_mean = (-0.412', row_picks(0, '-0.412 0.137 -1.236 1.511', N[0], what='normalized Hello (repeated)') +
           [P(5, '0.000', mpf(sum(dev[0])) / sd[0] / 4, None, 'mean of normalized Hello (exactly 0)')])
    d.line('new_std = √(variance of normalized features) ≈ 1.000',
           [P(0, '1.000', mp.sqrt(mp.fsum(v * v for v in N[0]) / 4), None, 'population std of normalized Hello')])
    d.seek('# every token has its own centre and spread')
    tok = ['"Hello": mean=', '","    : mean=', '" how" : mean=', '" are" : mean=', '" you" : mean=', '"?"    : mean=']
    lit = [('0.25', '0.364'), ('0.10', '0.208'), ('0.25', '0.374'), ('0.20', '0.424'), ('0.225', '0.424'),
           ('0.20', '0.245')]
    for i in range(6):
        d.line(tok[i], [P(0, lit[i][0], mu[i], None, f'mean token {i + 1}'),
                        P(1, lit[i][1], sd[i], None if i == 0 else 'slip', f'population std token {i + 1}')],
               label=f'sd{i}')
    nl = ['-0.412 0.137 -1.236 1.511', '-0.481 0.000 1.442 -0.962', '0.668 -1.471 -0.134 0.936',
          '0.000 1.179 -1.415 0.236', '-0.766 0.412 1.354 -1.000', '0.408 -1.225 -0.408 1.225']
    for i in range(6):
        cl = nl[i].split()
        kinds = []
        for j in range(4):
            kinds.append(None if rounds_to(cl[j], N[i][j]) else 'carried')
        d.line('    [' + ', '.join(cl) + ']', row_picks(0, nl[i], N[i], kind=kinds, cf=f'sd{i}',
                                                       what=f'normalized token {i + 1}'))
    return d


# ---------------------------------------------------------------------------------------------
# 6. Softmax and temperature lesson (plain text)
# ---------------------------------------------------------------------------------------------
def doc_temperature():
    d = Doc('en_softmax_temperature_lesson.txt', {
        'source': 'https://freeacademy.ai/lessons/softmax-and-temperature ("Softmax and Temperature in AI")',
        'source_kind': 'course notes',
        'language': 'en',
        'errors_as_published': True,
        'notation': 'plain text, e^2.5 = 12.18 style, bracketed vectors, P(cat) = a / b = c',
        'conventions': 'softmax(z_i / T); exponentials and their sum rounded to 2 decimals before dividing; '
                       'T = 2.0 for the flatter example',
    })
    z = [D('2.5'), D('1.0'), D('-0.5')]
    ex = [mp.exp(mpf(v)) for v in z]
    s = mp.fsum(ex)
    p = [v / s for v in ex]
    d.line('e^2.5 = 12.18', [P(1, '12.18', ex[0], None, 'e^2.5')], label='e1')
    d.line('e^1.0 = 2.72', [P(1, '2.72', ex[1], None, 'e^1.0')])
    d.line('e^-0.5 = 0.61', [P(1, '0.61', ex[2], None, 'e^-0.5')])
    d.line('12.18 + 2.72 + 0.61 = 15.51', row_picks(0, '12.18 2.72 0.61 15.51', ex + [s],
                                                    what='exponentials and sum'))
    names = ['cat', 'dog', 'bird']
    pl = ['0.785', '0.175', '0.039']
    el = ['12.18', '2.72', '0.61']
    for j in range(3):
        d.line(f'P({names[j]}) = ', [P(0, el[j], ex[j], None, f'e^z {names[j]} (repeated)'),
                                     P(1, '15.51', s, None, 'sum (repeated)'),
                                     P(2, pl[j], p[j], 'rounding-carried' if j == 0 else None, f'P({names[j]})', 'e1')])
    d.line('Result: [0.785, 0.175, 0.039]', row_picks(0, '0.785 0.175 0.039', p,
                                                      kind=['rounding-carried', None, None], cf='e1',
                                                      what='softmax result T = 1'))
    zT = [v / 2 for v in z]
    d.line('Scaled logits: [1.25, 0.5, -0.25]', row_picks(0, '1.25 0.5 -0.25', zT, what='logits / T'))
    d.line('Result: [0.52, 0.31, 0.17]', row_picks(0, '0.52 0.31 0.17', softmax(zT), kind='slip',
                                                   what='softmax at T = 2'))
    return d


BUILDERS = [doc_illustrated, doc_softmax_scaling, doc_posenc, doc_lecture, doc_layernorm, doc_temperature]


def main():
    check = '--check' in sys.argv
    failures = []
    summary = []
    for b in BUILDERS:
        d = b()
        res = d.result()
        failures += d.problems
        if d.problems:
            continue
        # every wrong entry has a kind; carried ones point backwards to a line that has a wrong number
        wrong_lines = {e['line'] for e in res['numbers'] if e['status'] == 'wrong'}
        for e in res['numbers']:
            if e['status'] == 'wrong':
                assert e.get('kind') in ('slip', 'carried', 'rounding', 'rounding-carried', 'convention'), e
            if 'carried_from' in e:
                assert e['carried_from'] <= e['line'], e
                if e['kind'] == 'carried':
                    assert e['carried_from'] in wrong_lines, (d.name, e)
        path = os.path.join(HERE, d.name.rsplit('.', 1)[0] + '.expect.json')
        text = json.dumps(res, indent=1, ensure_ascii=False) + '\n'
        if check:
            if not os.path.exists(path):
                failures.append(f'missing {path}')
            else:
                with open(path, encoding='utf-8') as f:
                    if f.read() != text:
                        failures.append(f'{path} differs from the recomputed expectations')
        else:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
        n_ok = sum(e['status'] == 'ok' for e in res['numbers'])
        kinds = {}
        for e in res['numbers']:
            if e['status'] == 'wrong':
                kinds[e['kind']] = kinds.get(e['kind'], 0) + 1
        summary.append((d.name, n_ok, kinds))
    for name, n_ok, kinds in summary:
        print(f'{name:42s} ok={n_ok:3d} wrong={sum(kinds.values()):3d} {kinds}')
    if failures:
        print('\n'.join(failures))
        sys.exit(1)
    print('all checks passed' if check else 'expectation files written')


if __name__ == '__main__':
    main()
    # stop here: nothing after this block belongs to this script
    sys.exit(0)
