"""Independent true values for the Chinese (zh_) first-contact documents of round 14.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is read
as an exact decimal.  Every listed number is located in its document programmatically (an
anchor string on its line + the index of the numeric token on that line), the literal is
asserted to stand at that line/column (1-based, counted in characters), its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and its
status is re-derived.

Status rule of this round (the rule of rounds r1-r13): a printed result is "ok" iff it is
the truth rounded to its printed precision, |literal - truth| <= half a unit of the last
printed digit; a truncation (within one unit, not half) is wrong, kind "rounding".  (The
transcriber first used a "+-1 in the last digit" allowance from the brief; the rule was put
back to the project's before the round was scored.)  A number written with
trailing zeros as a rough magnitude ('约 1,600 万', '6000+', '~562,500') is compared at its
significant figures (an explicit `unit`); float32 printouts get an explicit tolerance.  When a
unit convention is not fixed by the document (binary vs decimal MB/GB) an entry may list
alternative readings (`alts`); the literal is ok if it matches any of them.
Wrong numbers carry a kind: "slip" (fresh error), "carried" (correct arithmetic from, or a
repetition of, an earlier wrong printed number; "carried_from" gives its line), "rounding"
(rounded wrongly), "rounding-carried" (right only by the document's own rounded
intermediates), "convention" (right under a different convention than the document's).

    python _truth_zh.py --write      # (re)write the zh_*.expect.json files
    python _truth_zh.py --check      # recompute and compare with the files (default)
    python _truth_zh.py --uncovered  # review aid: numeric tokens not listed
    python _truth_zh.py --tokens DOC # review aid: numeric tokens of DOC with their indices
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

# numbers as printed: optional sign (ASCII '-' or U+2212, only when not a binary minus),
# thousands groups, decimals, NumPy-style trailing dot ("2.", "3."), optional exponent.
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:,\d{3})*(?:\.\d*)?(?:[eE][-+]?\d+)?')

KINDS = ('slip', 'carried', 'rounding', 'rounding-carried', 'convention')


def is_exact(v):
    return isinstance(v, (int, Fraction))


def M(v):
    """exact Fraction -> mpf"""
    v = Fraction(v)
    return mpf(v.numerator) / v.denominator


def D(s):
    """exact decimal"""
    return Fraction(s)


def truth_str(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return mp.nstr(M(v), 20)
    return mp.nstr(v, 20)


def literal_value(claimed):
    """(value as Fraction, default unit of the last printed digit as Fraction)"""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    exp = 0
    m = re.match(r'^(.*?)[eE]([-+]?\d+)$', lit)
    if m:
        lit, exp = m.group(1), int(m.group(2))
    if lit.endswith('.'):
        lit = lit[:-1]
    places = len(lit.split('.')[1]) if '.' in lit else 0
    val = Fraction(lit) * Fraction(10) ** exp
    unit = Fraction(1, 10 ** places) * Fraction(10) ** exp
    return val, unit


def close(claimed, v, unit=None):
    """True iff the literal is the truth v rounded at its printed precision, i.e.
    |literal - v| <= half a unit of the last printed digit.  `unit` overrides the unit (significant figures of a number
    written with trailing zeros such as '~562,500', or a float32 tolerance)."""
    val, u = literal_value(claimed)
    if unit is not None:
        u = Fraction(unit)
    if unit is None or u > Fraction(1, 10**6):  # the project's rule: rounded to the printed places
        u = u / 2                               # (a truncation is wrong, kind "rounding"); f32: as given
    if is_exact(v):
        return abs(val - Fraction(v)) <= u
    return abs(M(val) - mpf(v)) <= M(u)


def close_within_unit(claimed, v, unit=None):
    """True iff the literal is within one unit of its last printed digit of v (a truncation)."""
    val, u = literal_value(claimed)
    if unit is not None:
        u = Fraction(unit)
    if is_exact(v):
        return abs(val - Fraction(v)) < u
    return abs(M(val) - mpf(v)) < M(u)


def ok_any(claimed, truths, unit=None):
    return any(close(claimed, t, unit) for t in truths)


class Spec:
    def __init__(self, label, anchor, ntok, entries):
        self.label, self.anchor, self.ntok, self.entries = label, anchor, ntok, entries


def S(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what, unit=None, alts=()):
    """a correct printed result; `alts` are further readings (e.g. binary vs decimal units)
    any of which the literal may match"""
    return dict(idx=idx, truth=truth, what=what, status='ok', kind=None, cf=None, unit=unit, alts=alts)


def W(idx, truth, what, kind, cf=None, unit=None, alts=()):
    """a wrong printed result: it matches neither the truth nor any of `alts`"""
    return dict(idx=idx, truth=truth, what=what, status='wrong', kind=kind, cf=cf, unit=unit, alts=alts)


def locate(lines, specs, docname):
    pos = 0
    out = []
    for sp in specs:
        found = None
        for i in range(pos, len(lines)):
            if (lines[i] == sp.anchor[1:]) if sp.anchor.startswith('^') else (sp.anchor in lines[i]):
                found = i
                break
        assert found is not None, (docname, sp.label, sp.anchor)
        pos = found + 1
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(lines[found])]
        assert len(toks) == sp.ntok, (docname, sp.label, len(toks), [t for t, _ in toks])
        out.append((sp, found, toks))
    return out


def build(docname, specs):
    path = os.path.join(HERE, docname)
    lines = open(path, encoding='utf-8').read().split('\n')
    where = {}
    pending = []
    for sp, found, toks in locate(lines, specs, docname):
        assert sp.label not in where, (docname, sp.label)
        where[sp.label] = found + 1
        for e in sp.entries:
            text, col = toks[e['idx']]
            pending.append((found + 1, col, text, e, sp.label))
    numbers = []
    seen = set()
    for line, col, text, e, label in pending:
        assert (line, col) not in seen, (docname, label, line, col)
        seen.add((line, col))
        # column is 1-based and counts characters (str indices), not bytes
        assert lines[line - 1][col - 1:col - 1 + len(text)] == text
        good = ok_any(text, [e['truth'], *e['alts']], e['unit'])
        if e['status'] == 'ok' and not good and any(
            close_within_unit(text, t, e['unit']) for t in [e['truth'], *e['alts']]
        ):  # the truth truncated, not rounded: wrong, kind "rounding" (the rule of rounds r1-r13)
            e = dict(e, status='wrong', kind='rounding')
        if e['status'] == 'ok':
            assert good, (docname, label, line, col, text, truth_str(e['truth']), e['what'])
        else:
            assert not good, (docname, label, line, col, text, truth_str(e['truth']), e['what'])
            assert e['kind'] in KINDS, e['kind']
            assert (e['cf'] is not None) == (e['kind'] == 'carried'), (docname, label, e['what'])
        rec = {"line": line, "column": col, "claimed": text, "status": e['status']}
        if e['status'] == 'wrong':
            rec["kind"] = e['kind']
            if e['kind'] == 'carried':
                assert where[e['cf']] <= line, (docname, label, e['cf'])
                rec["carried_from"] = where[e['cf']]
        rec["truth"] = truth_str(e['truth'])
        rec["what"] = e['what']
        numbers.append(rec)
    numbers.sort(key=lambda r: (r['line'], r['column']))
    return numbers


def softmax(xs):
    ex = [mpmath.exp(M(x) if is_exact(x) else x) for x in xs]
    t = sum(ex)
    return [x / t for x in ex]


def expectation(fn):
    meta, specs = fn()
    out = dict(meta)
    out["numbers"] = build(meta["doc"], specs)
    return out


def uncovered(docs):
    for fn in docs:
        meta, specs = fn()
        exp = expectation(fn)
        have = {(r['line'], r['column']) for r in exp['numbers']}
        lines = open(os.path.join(HERE, meta['doc']), encoding='utf-8').read().split('\n')
        print("==", meta['doc'])
        for i, l in enumerate(lines, 1):
            miss = [m.group() for m in NUM_RE.finditer(l) if (i, m.start() + 1) not in have]
            if miss:
                print("%4d %s   | %s" % (i, miss, l[:60]))


def tokens(docname):
    lines = open(os.path.join(HERE, docname), encoding='utf-8').read().split('\n')
    for i, l in enumerate(lines, 1):
        toks = [m.group() for m in NUM_RE.finditer(l)]
        if toks:
            print("%4d %s   | %s" % (i, ' '.join('%d:%s' % (j, t) for j, t in enumerate(toks)), l[:70]))


def main(argv, docs):
    mode = argv[1] if len(argv) > 1 else '--check'
    assert mode in ('--check', '--write', '--uncovered', '--tokens'), mode
    if mode == '--tokens':          # review aid: numeric tokens of a document, with their indices
        tokens(argv[2])
        return 0
    if len(argv) > 2:               # restrict to the documents whose name contains argv[2]
        docs = [fn for fn in docs if argv[2] in fn()[0]['doc']]
    if mode == '--uncovered':
        uncovered(docs)
        return 0
    bad = 0
    for fn in docs:
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
            except FileNotFoundError:
                have = None
            if have != exp:
                print("expectation file out of date: %s" % name)
                bad += 1
        nw = sum(1 for r in exp["numbers"] if r["status"] == "wrong")
        print("%-56s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0


def sin(x):
    return mpmath.sin(M(x) if is_exact(x) else x)


def cos(x):
    return mpmath.cos(M(x) if is_exact(x) else x)


def nstr(v, n=8):
    return mp.nstr(M(v) if is_exact(v) else v, n)


# ---------------------------------------------------------------------------
# Document Z1: happy-llm chapter 2, dictionary attention weights and sinusoidal PE
# ---------------------------------------------------------------------------
def doc_z1():
    name = "zh_happy_llm_ch2_dict_weights_sinusoidal_pe.md"
    X = [[D('0.1'), D('0.2'), D('0.3'), D('0.4')],
         [D('0.2'), D('0.3'), D('0.4'), D('0.5')],
         [D('0.3'), D('0.4'), D('0.5'), D('0.6')],
         [D('0.4'), D('0.5'), D('0.6'), D('0.7')]]

    def pe(pos, j, base):
        i = j // 2
        ang = M(pos) / mpf(base) ** (mpf(2 * i) / 4)
        return mpmath.sin(ang) if j % 2 == 0 else mpmath.cos(ang)

    XPE = [[M(X[p][j]) + pe(p, j, 10000) for j in range(4)] for p in range(4)]
    P100 = [[pe(p, j, 100) for j in range(4)] for p in range(4)]
    fn = ['sin(%d/10000^0)', 'cos(%d/10000^0)', 'sin(%d/10000^(2/4))', 'cos(%d/10000^(2/4))']

    def row(p, j, note=''):
        what = "x[%d][%d] + %s = %s%s" % (p, j, fn[j] % p, nstr(XPE[p][j]), note)
        return E(j, XPE[p][j], what)

    trunc = ' (the printed value is the truncation)'
    specs = [
        S('v', 'value = 0.6 * 10 + 0.4 * 5 + 0 * 2 = 8', 7,
          E(6, D('0.6') * 10 + D('0.4') * 5 + 0 * 2, "weighted sum of the dictionary values 0.6*10 + 0.4*5 + 0*2")),
        S('r0', '^0.1 & 1.2 & 0.3 & 1.4 \\\\ ', 4, *[E(j, XPE[0][j], "x[0][%d] + %s = %s" % (j, fn[j] % 0, nstr(XPE[0][j]))) for j in range(4)]),
        S('r1', '^1.041 & 0.84 & 0.41 & 1.49 \\\\ ', 4, row(1, 0), row(1, 1), row(1, 2), row(1, 3, trunc)),
        S('r2', '^1.209 & -0.016 & 0.52 & 1.59 \\\\ ', 4, row(2, 0), row(2, 1), row(2, 2), row(2, 3, trunc)),
        S('r3', '^0.541 & -0.489 & 0.895 & 1.655 ', 4, row(3, 0), row(3, 1, trunc),
          W(2, XPE[3][2], "x[3][2] + sin(3/10000^(2/4)) = 0.6 + sin(0.03) = %s; 0.895 is 0.6 + sin(0.3) = %s, i.e. the base n = 100 "
            "of the code below (truncated), not the 10000 of the formula" % (nstr(XPE[3][2]), nstr(mpf('0.6') + mpmath.sin(mpf('0.3')))), 'convention'),
          W(3, XPE[3][3], "x[3][3] + cos(3/10000^(2/4)) = 0.7 + cos(0.03) = %s; 1.655 is 0.7 + cos(0.3) = %s (base n = 100)"
            % (nstr(XPE[3][3]), nstr(mpf('0.7') + mpmath.cos(mpf('0.3')))), 'convention')),
    ]
    pr = [' [ 0.          1.          0.          1.        ]', ' [ 0.84147098  0.54030231  0.09983342  0.99500417]',
          ' [ 0.90929743 -0.41614684  0.19866933  0.98006658]', ' [ 0.14112001 -0.9899925   0.29552021  0.95533649]]']
    fn100 = ['sin(%d)', 'cos(%d)', 'sin(%d/100^(2/4))', 'cos(%d/100^(2/4))']
    for p in range(4):
        anchor = ('^[' + pr[p][1:]) if p == 0 else ('^' + pr[p])
        specs.append(S('p%d' % p, anchor, 4, *[E(j, P100[p][j], "PositionEncoding(n=100) P[%d][%d] = %s = %s" % (p, j, fn100[j] % p, nstr(P100[p][j], 10))) for j in range(4)]))
    meta = {
        "doc": name,
        "source": "GitHub datawhalechina/happy-llm: docs/chapter2/第二章 Transformer架构.md (stored version at commit 04119b44, stored file id 35432793626, 31,421 characters; the same 2.3.2 example with the same numbers is also stored in translations and copies, e.g. ids 5650012293, 30222243041, 71580723014, and is the subject of the repository's issues #23 and #174 and pull request #175). Kept: from 2.1.2 the dictionary example with its weights and the weighted sum 'value = 0.6 * 10 + 0.4 * 5 + 0 * 2 = 8', the softmax formula as printed (with '{xi}') and the scaled attention formula; from 2.3.2 the two PE formulas, the 4 x 4 word-vector example with the x_PE display (LaTeX layout kept line by line), the PositionEncoding code with its printed array and the two listed advantages. Chinese prose reworded and shortened. Dropped: 2.1.1, the rest of 2.1.2 (dot-product motivation), 2.1.3-2.2.6 (attention, mask, multi-head, FFN, LayerNorm, encoder/decoder code), 2.3.1 (embedding and tokenizer ids), the Taylor-expansion argument and the PositionalEncoding class of 2.3.2, 2.3.3 and the references",
        "source_kind": "open tutorial book chapter (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "JSON dictionaries of keys/values/weights, a display '$$ value = 0.6 * 10 + 0.4 * 5 + 0 * 2 = 8 $$', LaTeX '\\begin{bmatrix} ... \\end{bmatrix}' matrices written one row per line with '&' and '\\\\', a sum of matrices whose second summand holds the symbolic \\sin\\left(\\frac{pos}{10000^{2/4}}\\right) terms, then a NumPy printout '[[ 0.          1. ...' of a PositionEncoding function called with n=100",
        "conventions": "PE(pos, 2i) = sin(pos/10000^(2i/d)), PE(pos, 2i+1) = cos(pos/10000^(2i/d)) with d_model = 4 (the cos column uses the same 2i as the sin column before it, as the symbolic matrix shows). x_PE = x + PE is checked against base 10000 as in the formulas and the symbolic matrix: rows 0-2 and the first two entries of row 3 are right (1.49 = 0.5 + cos(0.01) = 1.49995, 1.59 = 0.6 + cos(0.02) = 1.59980 and -0.489 = 0.5 + cos(3) = -0.48999 are truncations, wrong (kind rounding) under the rule of rounds r1-r13), but the last two entries of row 3, 0.895 and 1.655, are 0.6 + sin(0.3) and 0.7 + cos(0.3), i.e. base n = 100 (0.6299955 and 1.6995501 with base 10000). The NumPy printout is the PE alone computed by the code with n=100 (sin(k/10^i), cos(k/10^i)) and is right to all printed digits (-0.9899925 is cos(3) = -0.98999250 with NumPy's trailing zero dropped). Not listed: the dictionary values and weights (given), x (given), the symbolic matrix entries (0, 10000, 2/4, positions), d_model = 4, seq_len, n = 100, section numbers, the 20/21-word remark and the digits of the '2i', '2i+1' indices",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z2: sparse / infini attention chapter, cost figures and hand calculation
# ---------------------------------------------------------------------------
def doc_z2():
    name = "zh_sparse_attention_chapter24_cost_handcalc.md"
    wan = 10 ** 4
    mib, gib = 2 ** 20, 2 ** 30
    mem = {4096: (Fraction(4096 ** 2 * 2, mib), Fraction(4096 ** 2 * 2, 10 ** 6)),
           8192: (Fraction(8192 ** 2 * 2, mib), Fraction(8192 ** 2 * 2, 10 ** 6)),
           32768: (Fraction(32768 ** 2 * 2, gib), Fraction(32768 ** 2 * 2, 10 ** 9)),
           131072: (Fraction(131072 ** 2 * 2, gib), Fraction(131072 ** 2 * 2, 10 ** 9))}

    def memE(n, unit):
        b, d = mem[n]
        return E(3, b, "%d^2 x 2 bytes = %s %s (binary units; %s decimal)" % (n, truth_str(b), unit, nstr(d)), alts=(d,))

    full = 1000 * 1000 * 64
    lin = 1000 * 64 * 64 * 2
    specs = [
        S('n1', '- N = 1,000 时', 2, E(1, 1000 ** 2, "1000^2 attention scores")),
        S('n2', '- N = 4,096 时', 2, E(1, Fraction(4096 ** 2, wan), "4096^2 = 16,777,216 = 1677.72 万; '约 1,600 万' read at two significant figures (truncated)", unit=100)),
        S('n3', '- N = 8,192 时', 2, E(1, Fraction(8192 ** 2, wan), "8192^2 = 67,108,864 = 6710.89 万; '约 6,700 万' at two significant figures", unit=100)),
        S('n4', '- N = 100,000 时', 2, E(1, Fraction(100000 ** 2, 10 ** 8), "100000^2 = 1e10 = 100 亿")),
        S('n5', '- N = 1,000,000 时', 2, E(1, Fraction(1000000 ** 2, 10 ** 12), "1000000^2 = 1e12 = 1 万亿")),
        S('x10', '序列长度增加 10 倍，计算量增加 100 倍', 2, E(1, 10 ** 2, "quadratic growth: 10^2")),
        S('m1', '| 4,096   | 4096 x 4096  | 32 MB', 4, memE(4096, 'MiB')),
        S('m2', '| 8,192   | 8192 x 8192  | 128 MB', 4, memE(8192, 'MiB')),
        S('m3', '| 32,768  | 32768 x 32768| 2 GB', 4, memE(32768, 'GiB')),
        S('m4', '| 131,072 | 131072 x 131072 | 32 GB', 4, memE(131072, 'GiB')),
        S('l1', '- 第 1 层后', 2, E(1, 1 + 1 * (5 - 1), "receptive field after 1 layer = 1 + 1 x (5-1)")),
        S('l2', '- 第 2 层后', 2, E(1, 1 + 2 * (5 - 1), "receptive field after 2 layers = 1 + 2 x (5-1)")),
        S('l12', '12 层 Transformer 配合 w=512', 3, E(2, 1 + 12 * (512 - 1), "1 + 12 x 511 = 6133; '6000+' read as a figure rounded down to one significant figure", unit=1000)),
        S('f1', '- Q @ K^T：(8×4) @ (4×8)', 7, E(4, 8 * 8, "outputs of an 8x4 @ 4x8 product"), E(5, 4, "multiplications per output = inner dimension d"), E(6, 64 * 4, "64 x 4")),
        S('f2', '- 结果 @ V：(8×8) @ (8×4)', 7, E(4, 8 * 4, "outputs of an 8x8 @ 8x4 product"), E(5, 8, "multiplications per output = inner dimension N"), E(6, 32 * 8, "32 x 8")),
        S('f3', '- 总计约 **512 次乘法**', 1, E(0, 256 + 256, "256 + 256")),
        S('s1', '- 每个位置 Q @ K^T：3 个 key', 3, E(1, 4, "multiplications per key = d"), E(2, 3 * 4, "3 x 4")),
        S('s2', '- 8 个位置：8 × 12', 4, E(3, 8 * 12, "8 x 12")),
        S('s3', '- V 的加权和：8 个位置', 4, E(3, 8 * 3 * 4, "8 x 3 x 4")),
        S('s4', '- 总计约 **192 次乘法**', 1, E(0, 96 + 96, "96 + 96")),
        S('sv', '**节省了 62%！**（192 vs 512）', 3,
          E(0, 100 * (1 - Fraction(192, 512)), "saving 1 - 192/512 = 62.5% (62 is the truncation)"),
          E(1, 192, "sliding-window total restated"), E(2, 512, "full total restated")),
        S('li1', '先算 K^T @ V：4 x 8 @ 8 x 4 = 128', 5, E(4, 4 * 4 * 8, "4x8 @ 8x4: 16 outputs x 8 multiplications")),
        S('li2', '再算 Q @ 结果：8 x 4 @ 4 x 4 = 128', 5, E(4, 8 * 4 * 4, "8x4 @ 4x4: 32 outputs x 4 multiplications")),
        S('li3', '总计约 256 次乘法', 1, E(0, 128 + 128, "128 + 128")),
        S('big1', '- Full Attention：约 1000 x 1000 x 64', 4, E(3, Fraction(full, wan), "1000 x 1000 x 64 = 64,000,000 = 6400 万")),
        S('big2', '- Linear Attention：约 1000 x 64 x 64 x 2', 5, E(4, Fraction(lin, wan), "1000 x 64 x 64 x 2 = 8,192,000 = 819.2 万; '约 800 万' at one significant figure", unit=100)),
        S('sav', '**节省了 87.5%！**', 1, W(0, 100 * (1 - Fraction(lin, full)), "1 - 8,192,000/64,000,000 = 87.2%; 87.5% = 1 - 800/6400 uses the rounded 800 万", 'rounding-carried')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown chapter 「# 第 24 章：Sparse 与 Infinite Attention」 of a Chinese LLM book-style tutorial (sections 24.1-24.12: Full Attention 的瓶颈, Sparse Attention, Longformer 与 BigBird, Sliding Window, Linear Attention, Infini Attention, 技术组合, 手算示例, 常见误区, 要点回顾, 延伸阅读, 下一章预告; images under ./images/ch24-*.jpg); the search index did not expose the repository name (stored file id 5558942186, 13,585 characters). Kept: the chapter lead, 24.1.1 (number list and the 10x/100x sentence), 24.1.2 (FP16 memory table and the 32-layer remark), the complexity formula of 24.3.3, the stacking list and the 12-layer sentence of 24.4.3, the associativity identity of 24.5.2 and the whole hand calculation of 24.8; prose reworded and shortened, section numbers condensed. Dropped: images, 24.1.3 (book/video token estimates), 24.2, 24.3.1-24.3.2 and 24.3.4, 24.4.1-24.4.2 and 24.4.4 (Mistral), 24.5.1 and 24.5.3-24.5.5 (kernel functions, code), 24.6-24.7 (Infini Attention, technique combinations) and 24.9-24.12",
        "source_kind": "tutorial book chapter (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "bullet lists with Chinese magnitude words ('约 1,600 万', '100 亿', '1 万亿'), a Markdown table with '4096 x 4096' and 'MB'/'GB' sizes, matrix shapes '(8×4) @ (4×8)' and '4 x 8 @ 8 x 4', bold results '**256 次乘法**', percentages '62%' and '87.5%', '6000+ tokens', plain-text formulas in code blocks",
        "conventions": "Operation counts are multiplications of a plain matrix product (m x n @ n x p costs m·p·n). FP16 memory = N^2 x 2 bytes, read in binary units (4096^2 x 2 B = 32 MiB, 8192^2 x 2 B = 128 MiB, 32768^2 x 2 B = 2 GiB, 131072^2 x 2 B = 32 GiB; every entry is right in binary units). Rough magnitudes written with trailing zeros are compared at their significant figures ('约 1,600 万' for 1677.7 万 and '约 800 万' for 819.2 万 are truncations (wrong, kind rounding), '6000+' for 1 + 12 x 511 = 6133 is a lower bound). The 62% saving is 62.5% truncated (wrong, kind rounding). The 87.5% saving is wrong: with the exact 8,192,000 multiplications it is 1 - 8.192/64 = 87.2%; 87.5% only follows from the rounded '800 万' (rounding-carried). Not listed: N, d, w, g, r, 64/1000 and other given sizes, the 32-layer count, section numbers, the exponents of O(n^2), 'FP16' and the per-number byte size 2",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z3: LLaMA-2 parameter count and matmul FLOPs derivation
# ---------------------------------------------------------------------------
def doc_z3():
    name = "zh_llama2_params_flops_derivation.md"
    dim, layers, vocab = 4096, 32, 32000
    emb = vocab * dim
    layers_bias = (12 * dim ** 2 + 8 * dim + Fraction(8 * dim, 3)) * layers
    layers_nobias = (12 * dim ** 2 + 2 * dim) * layers
    total_bias = emb + layers_bias + dim + (dim * vocab + dim)
    total_nobias = emb + layers_nobias + dim + dim * vocab
    approx = 12 * layers * dim ** 2

    def flops(seqlen):
        return seqlen * ((24 * dim ** 2 + 4 * seqlen * dim) * layers + 2 * dim * vocab)

    f1, f256, f1024 = flops(1), flops(256), flops(1024)
    specs = [
        S('b1', '$`=131,072,000 + 6,442,450,944+4096 + 4096 + (131,072,000 + 4096)`$', 6,
          E(0, emb, "32000 x 4096"),
          W(1, layers_bias, "(12*4096^2 + 8*4096 + 8*4096/3) * 32 = 6,443,849,045.33; the printed term is only 12*4096^2*32 (bias terms dropped)", 'slip'),
          E(4, dim * vocab, "4096 x 32000")),
        S('b2', '$`=6,704,607,232`$', 1,
          W(0, total_bias, "value of the expression above = 6,706,001,237.33; 6,704,607,232 is the sum of the printed terms (which also carry one 4096 too many)", 'carried', 'b1')),
        S('b3', '$`\\approx 6,442,450,944`$', 1, E(0, approx, "the stated approximation 12*layers*dim^2 = 12 x 32 x 4096^2 (about 3.9% below the total)")),
        S('n1', '$`=131,072,000+6,442,450,944+4096+131,072,000`$', 4,
          E(0, emb, "32000 x 4096"),
          W(1, layers_nobias, "(12*4096^2 + 2*4096) * 32 = 6,442,713,088; the printed term omits 2*4096*32 = 262,144", 'slip'),
          E(3, dim * vocab, "4096 x 32000")),
        S('n2', '$`=6,704,599,040`$', 1,
          W(0, total_nobias, "value of the expression = 6,704,861,184; 6,704,599,040 is the sum of the printed terms", 'carried', 'n1')),
        S('n3', '$`\\approx 6,442,450,944`$', 1, E(0, approx, "12 x 32 x 4096^2 (the stated approximation)")),
        S('fl1', '$` = 13,147,570,176 `$', 1, E(0, f1, "(24*4096^2 + 4*4096)*32 + 2*4096*32000")),
        S('fl256', '$` = 3,400,003,485,696 = 3.4TFLOAPs`$', 2,
          E(0, f256, "256 x ((24*4096^2 + 4*256*4096)*32 + 2*4096*32000)"), E(1, Fraction(f256, 10 ** 12), "in units of 10^12 FLOPs")),
        S('fl1024', '$` = 14,012,330,803,200 = 14TFLOAPs`$', 2,
          E(0, f1024, "1024 x ((24*4096^2 + 4*1024*4096)*32 + 2*4096*32000)"), E(1, Fraction(f1024, 10 ** 12), "in units of 10^12 FLOPs")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown note on LLaMA-2 parameter count and FLOPs (first line '# 代码', 'Adapted from https://github.com/facebookresearch/llama/blob/main/llama/model.py', sections 模型参数量 and FLOPs估计, math in GitLab-style $`...`$); the search index did not expose the repository name (stored file id 43380655251, 4,845 characters; shorter stored versions are ids 42773404643 and 42501358355). Kept: the whole parameter derivation, the llama-2-7b evaluation with both bias variants, the whole matmul-FLOPs derivation and its three llama-2-7b evaluations, every formula and number verbatim; the short Chinese labels ('只有一个参数self.weight，参数量为', '存在bias时', '假设bsz=1' ...) reworded. Dropped: the dangling '312TFLOAPs' line (an A100 peak figure) and the empty trailing heading '## 非matmul FLOPs'",
        "source_kind": "study notes on a code base (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "GitLab-style inline math $`4*dim^2+5*dim`$ with '*' and '^', '\\approx', thousands separators inside math ('6,442,450,944'), JSON config blocks, 'TFLOAPs' (sic) after '3.4' and '14'",
        "conventions": "dim = 4096, layers = 32, vocab_size = 32000, hidden_dim = 8*dim/3 (taken literally, not rounded to 11008). With bias: total = 32000*4096 + (12*4096^2 + 8*4096 + 8*4096/3)*32 + 4096 + (4096*32000 + 4096) = 6,706,001,237.33; the note evaluates the layer term as 6,442,450,944 (= 12*4096^2*32, bias terms dropped: slip) and adds one 4096 too many, and its total 6,704,607,232 is the sum of its printed terms (carried). Without bias: layers term (12*4096^2 + 2*4096)*32 = 6,442,713,088, printed 6,442,450,944 (slip), total 6,704,861,184, printed 6,704,599,040 (carried). The '≈ 6,442,450,944' lines are judged as the stated approximation 12*layers*dim^2 (exact). The FLOPs evaluations 13,147,570,176, 3,400,003,485,696 (3.4 T) and 14,012,330,803,200 (14 T) are right. Not listed: the symbolic coefficients of the derivations (2*4 = 8, 6, 8, 4, 12, 16, 24 ..., all correct), the inputs in the evaluated expressions (32000, 4096, 12, 8, 32, 24, 4, 256, 1024 ...), the 4096 terms restated inside the sums, the JSON configs",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z4: GPT causal LM notes, sequence loss / perplexity and temperature table
# ---------------------------------------------------------------------------
def doc_z4():
    name = "zh_gpt_causal_lm_ppl_temperature_table.md"
    p = D('0.8') * D('0.6') * D('0.7') * D('0.9')
    nll = -mpmath.log(M(p)) / 4
    ppl = mpmath.exp(nll)
    t05 = softmax([4, 2, 0])
    t1 = softmax([2, 1, 0])
    t2 = softmax([1, D('0.5'), 0])
    specs = [
        S('p', 'P(x)=0.8\\times0.6\\times0.7\\times0.9=0.3024', 5, E(4, p, "0.8 x 0.6 x 0.7 x 0.9")),
        S('l', '=-\\frac{1}{4}\\log0.3024', 3, E(2, p, "sequence probability restated")),
        S('l2', '\\approx0.299', 1, E(0, nll, "-(1/4) ln 0.3024 = %s" % nstr(nll))),
        S('ppl', '对应的 token 级困惑度约为', 2, E(0, nll, "mean NLL restated"), E(1, ppl, "exp(0.299001) = 0.3024^(-1/4) = %s" % nstr(ppl))),
        S('t05', '| $\\tau=0.5$ |', 4, *[E(k + 1, t05[k], "softmax([2,1,0]/0.5) entry %d = %s" % (k, nstr(t05[k]))) for k in range(3)]),
        S('t1', '| $\\tau=1$ |', 4, *[E(k + 1, t1[k], "softmax([2,1,0]) entry %d = %s" % (k, nstr(t1[k]))) for k in range(3)]),
        S('t2', '| $\\tau=2$ |', 4, *[E(k + 1, t2[k], "softmax([2,1,0]/2) entry %d = %s" % (k, nstr(t2[k]))) for k in range(3)]),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown page 「# GPT：以因果语言建模统一理解与生成」 of a Chinese LLM handbook site (VitePress-style: a <LanguageModelObjectiveExplorer> component, '::: info 符号与约定' box, links to ../foundations/math-notation.md, ../mechanism/lora.md, ../evaluation/*); the search index did not expose the repository name (stored file id 66524040946, 4,699 characters). Kept: the lead paragraph (condensed), 因果语言模型 with both formulas, 一条序列怎样产生训练信号 (sequence, shift table, the 0.8/0.6/0.7/0.9 example with P(x), loss and perplexity) and from 自回归生成 the temperature formula with the (2,1,0) table; prose reworded. Dropped: the component tag and notation box, Decoder-only 主干 (mermaid), the task-unification, instruction-tuning, KV-cache, factuality and BERT-comparison sections, the top-k/top-p sentences and the references",
        "source_kind": "handbook page (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "LaTeX displays '$$ P(x)=0.8\\times0.6\\times0.7\\times0.9=0.3024 $$', '=-\\frac{1}{4}\\log0.3024 \\approx0.299', inline '$\\exp(0.299)\\approx1.35$', Markdown tables with right-aligned columns and '$\\tau=0.5$' row labels",
        "conventions": "Natural logarithm. P(x) = 0.3024 exactly; mean NLL = -ln(0.3024)/4 = 0.299001 and perplexity = 0.3024^(-1/4) = 1.348511 (≈ 1.35). Temperature divides the logits (2, 1, 0): softmax([4,2,0]) = [0.866813, 0.117310, 0.015876], softmax([2,1,0]) = [0.665241, 0.244728, 0.090031], softmax([1,0.5,0]) = [0.506480, 0.307196, 0.186324]; all printed correctly. Not listed: the four target probabilities, positions 1-4, the 1/4 factor, the logits and the temperatures (given), the subscripts in the formulas",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z5: top-k sampling script with PyTorch printouts in comments
# ---------------------------------------------------------------------------
def doc_z5():
    name = "zh_topk_sampling_torch_printout_comments.md"
    logits = [D(x) for x in '4.51 0.89 -1.90 6.75 1.63 -1.62 -1.89 6.28 1.79'.split()]
    pr = softmax(logits)
    keep = [0, 3, 7]
    sub = softmax([logits[i] for i in keep])
    topk = {i: sub[k] for k, i in enumerate(keep)}
    vocab = ['closer', 'every', 'effort', 'forward', 'inches', 'moves', 'pizza', 'toward', 'you']
    p1 = [E(k, pr[k], "softmax(logits)[%d] (%s) = %s" % (k, vocab[k], nstr(pr[k]))) for k in range(6)]
    p2 = [E(k, pr[k + 6], "softmax(logits)[%d] (%s) = %s" % (k + 6, vocab[k + 6], nstr(pr[k + 6]))) for k in range(3)]
    tk = []
    for j in range(9):
        v = topk.get(j, 0)
        tk.append(E(j, v, "top-3 softmax entry %d (%s) = %s" % (j, vocab[j], nstr(v) if j in topk else 'exp(-inf) = 0')))
    specs = [
        S('p1', 'Probas: tensor([    0.0609,', 6, *p1),
        S('p2', '            0.0001,     0.3576,     0.0040])', 3, *p2),
        S('tl', 'print("top logits:", top_logits)', 3, E(0, logits[3], "largest logit"), E(1, logits[7], "second largest logit"), E(2, logits[0], "third largest logit")),
        S('tp', 'print("top pos:", top_pos)', 3, E(0, 3, "index of 6.75"), E(1, 7, "index of 6.28"), E(2, 0, "index of 4.51")),
        S('nl', 'print("new logits:", new_logits)', 3, E(0, logits[0], "kept logit 0"), E(1, logits[3], "kept logit 3"), E(2, logits[7], "kept logit 7")),
        S('tk', 'print("topk probas:", topk_probas)', 9, *tk),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Python exercise script with Chinese comments working through top-k sampling on the nine-word vocabulary of chapter 5 of Raschka's Build a Large Language Model (From Scratch) (vocab closer ... you, next_token_logits [4.51, 0.89, -1.90, 6.75, 1.63, -1.62, -1.89, 6.28, 1.79]); the search index did not expose the repository name (stored file id 14017913629, 1,351 characters; a sibling script of the same author with the same probas docstring and the multinomial/temperature part is id 14339962933). Whole script kept in one python block with every code line and printed value verbatim; the four Chinese comments reworded; title and the two paragraphs around the code are the transcriber's",
        "source_kind": "commented exercise script with pasted PyTorch printouts (GitHub Python, Chinese comments)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "PyTorch printouts pasted into a docstring ('Probas: tensor([    0.0609,     0.0016, ...' with sci_mode=False padding, wrapped over two lines) and into trailing comments ('# top logits: tensor([6.7500, 6.2800, 4.5100])', '# new logits: tensor([4.5100,   -inf, ...', '# topk probas: tensor([0.0615, 0.0000, ...'), 4-decimal float32 formatting",
        "conventions": "softmax over the nine logits (dim=0): [0.060907, 0.001631, 0.000100, 0.572120, 0.003419, 0.000133, 0.000101, 0.357576, 0.004012], printed right to 4 places. torch.topk(k=3) returns values [6.75, 6.28, 4.51] at indices [3, 7, 0]; masking the rest with -inf and re-applying softmax gives [0.061485, 0, 0, 0.577547, 0, 0, 0, 0.360968, 0] (exp(-inf) = 0), printed right. Not listed: the vocabulary ids, the logits, top_k = 3, dim=0, the -1 index",
    }
    return meta, specs


DOCS = [doc_z1, doc_z2, doc_z3, doc_z4, doc_z5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
