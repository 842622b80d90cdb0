"""Independent true values for the Chinese (zh_) first-contact documents of round 16.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is read
as an exact decimal.  Every listed number is located in its document programmatically (an
anchor string on its line + the index of the numeric token on that line), the literal is
asserted to stand at that line/column (1-based, counted in characters), its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and its
status is re-derived.

Status rule (the project's rule, used by rounds r1-r14): a printed result is "ok" iff it is
the truth rounded to its printed precision, |literal - truth| <= half a unit of the last
printed digit; a truncation (within one unit, not half) is wrong, kind "rounding".  A number
written with trailing zeros as a rough magnitude ('2000π ≈ 6280') is compared at its
significant figures (an explicit `unit`); float32 printouts get an explicit tolerance.
Wrong numbers carry a kind: "slip" (fresh error), "carried" (correct arithmetic from, or a
repetition of, an earlier wrong printed number; "carried_from" gives its line), "rounding"
(rounded wrongly), "rounding-carried" (right only by the document's own rounded
intermediates), "convention" (right under a different convention than the document's).

Entries made with A(...) are judged by this script: ok if the literal is the rounded truth;
otherwise, if the literal agrees with `docval` (what the document's own printed operands give;
a list holds alternatives, e.g. the exact product of the printed operands and the sum of the
document's rounded partial results), "carried" when `cf` names the line of the earlier wrong
number, else "rounding-carried"; failing that, a truncation of the truth is "rounding" and
anything else a "slip".

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


def E(idx, truth, what, unit=None, alts=(), tol=None):
    """a correct printed result; `alts` are further readings (e.g. binary vs decimal units)
    any of which the literal may match; `tol` is an explicit absolute tolerance (float32
    printouts whose last digit is a float32 artifact), written to the record as 'tolerance'"""
    return dict(idx=idx, truth=truth, what=what, status='ok', kind=None, cf=None, unit=unit, alts=alts, tol=tol)


def W(idx, truth, what, kind, cf=None, unit=None, alts=()):
    """a wrong printed result: it matches neither the truth nor any of `alts`"""
    return dict(idx=idx, truth=truth, what=what, status='wrong', kind=kind, cf=cf, unit=unit, alts=alts, tol=None)


def A(idx, truth, what, docval=None, cf=None, unit=None):
    """a printed result judged automatically (see the module docstring)"""
    return dict(idx=idx, truth=truth, what=what, status='auto', kind=None, cf=cf, unit=unit, alts=(),
                docval=docval, tol=None)


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
        if e.get('tol') is not None:
            assert not good, (docname, label, line, col, text, "tolerance given but not needed")
            val = literal_value(text)[0]
            tv = e['truth']
            good = abs(M(val) - (M(tv) if is_exact(tv) else tv)) <= M(Fraction(e['tol']))
        if e['status'] == 'auto':
            if good:
                e = dict(e, status='ok', cf=None)
            elif e.get('docval') is not None and any(
                    close(text, dv, e['unit']) for dv in (e['docval'] if isinstance(e['docval'], (list, tuple)) else [e['docval']])):
                e = dict(e, status='wrong', kind='carried' if e['cf'] else 'rounding-carried')
            elif close_within_unit(text, e['truth'], e['unit']):
                e = dict(e, status='wrong', kind='rounding', cf=None)
            else:
                e = dict(e, status='wrong', kind='slip', cf=None)
        if e['status'] == 'ok' and not good and e.get('tol') is None and any(
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
        if e.get('tol') is not None:
            rec["tolerance"] = mp.nstr(M(Fraction(e['tol'])), 6)
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


def nstr(v, n=8):
    return mp.nstr(M(v) if is_exact(v) else v, n)


R2 = mpmath.sqrt(2)


def sin(x):
    return mpmath.sin(M(x) if is_exact(x) else x)


def cos(x):
    return mpmath.cos(M(x) if is_exact(x) else x)


def mexp(x):
    return mpmath.exp(M(x) if is_exact(x) else x)


def mlog(x):
    return mpmath.log(M(x) if is_exact(x) else x)




# ---------------------------------------------------------------------------
# Document Z1: Ch34 Decoder block and masked attention, 3x3 example
# ---------------------------------------------------------------------------
def doc_z1():
    name = "zh_decoder_masked_attention_ch34_3x3.md"
    e = {k: mexp(D(k)) for k in ('1.0', '0.4', '0.8', '0.6', '0.3', '0.9')}
    s2 = e['0.4'] + e['0.8']
    s3 = e['0.6'] + e['0.3'] + e['0.9']
    w2 = [e['0.4'] / s2, e['0.8'] / s2]
    w3 = [e['0.6'] / s3, e['0.3'] / s3, e['0.9'] / s3]
    W = [[1, 0, 0], [w2[0], w2[1], 0], w3]
    specs = [
        S('r1a', '- e^1.0 ≈ 2.7183', 2, E(1, e['1.0'], "e^1 = %s" % nstr(e['1.0']))),
        S('r1b', '- e^(-inf) = 0', 1, E(0, 0, "e^-inf")),
        S('r1c', '- e^(-inf) = 0', 1, E(0, 0, "e^-inf")),
        S('r1d', '- 和 = 2.7183', 1, E(0, e['1.0'], "row-1 sum")),
        S('r1e', '- 结果 = `[2.7183/2.7183, 0, 0] = [1.0, 0, 0]`', 7, E(0, e['1.0'], "exp restated"), E(1, e['1.0'], "sum restated"),
          E(2, 0, "masked"), E(3, 0, "masked"), E(4, 1, "row-1 weight"), E(5, 0, "masked weight"), E(6, 0, "masked weight")),
        S('r2a', '- e^0.4 ≈ 1.4918', 2, E(1, e['0.4'], "e^0.4 = %s" % nstr(e['0.4']))),
        S('r2b', '- e^0.8 ≈ 2.2255', 2, E(1, e['0.8'], "e^0.8 = %s" % nstr(e['0.8']))),
        S('r2c', '- e^(-inf) = 0', 1, E(0, 0, "e^-inf")),
        S('r2d', '- 和 = 3.7173', 1, A(0, s2, "e^0.4 + e^0.8 = %s; 1.4918 + 2.2255 = 3.7173" % nstr(s2), docval=D('1.4918') + D('2.2255'))),
        S('r2e', '- 结果 = `[1.4918/3.7173', 8, E(0, e['0.4'], "exp restated"), A(1, s2, "sum restated", docval=D('3.7173'), cf='r2d'),
          E(2, e['0.8'], "exp restated"), A(3, s2, "sum restated", docval=D('3.7173'), cf='r2d'), E(4, 0, "masked"),
          E(5, w2[0], "row-2 weight 1 = %s" % nstr(w2[0])), E(6, w2[1], "row-2 weight 2 = %s" % nstr(w2[1])), E(7, 0, "masked weight")),
        S('r2f', '第 2 个位置把 40.1% 的注意力', 6, E(1, 100 * w2[0], "row-2 weight 1 in percent"), E(3, 100 * w2[1], "row-2 weight 2 in percent"),
          E(5, 0, "masked weight")),
        S('r3a', '- e^0.6 ≈ 1.8221', 2, E(1, e['0.6'], "e^0.6 = %s" % nstr(e['0.6']))),
        S('r3b', '- e^0.3 ≈ 1.3499', 2, E(1, e['0.3'], "e^0.3 = %s" % nstr(e['0.3']))),
        S('r3c', '- e^0.9 ≈ 2.4596', 2, E(1, e['0.9'], "e^0.9 = %s" % nstr(e['0.9']))),
        S('r3d', '- 和 = 5.6316', 1, E(0, s3, "e^0.6 + e^0.3 + e^0.9 = %s" % nstr(s3))),
        S('r3e', '- 结果 = `[1.8221/5.6316', 9, E(0, e['0.6'], "exp restated"), E(1, s3, "sum restated"), E(2, e['0.3'], "exp restated"),
          E(3, s3, "sum restated"), E(4, e['0.9'], "exp restated"), E(5, s3, "sum restated"),
          *[E(6 + j, w3[j], "row-3 weight %d = %s" % (j + 1, nstr(w3[j]))) for j in range(3)]),
        S('m1', '^[[1.000, 0.000, 0.000],', 3, *[E(j, W[0][j], "weights[0][%d]" % j) for j in range(3)]),
        S('m2', '^ [0.401, 0.599, 0.000],', 3, *[E(j, W[1][j], "weights[1][%d]" % j) for j in range(3)]),
        S('m3', '^ [0.324, 0.240, 0.437]]', 3, *[E(j, W[2][j], "weights[2][%d]" % j) for j in range(3)]),
        S('p1', 'attn weights  = [[1.000, 0.000, 0.000],', 3, *[E(j, W[0][j], "printed weights[0][%d]" % j) for j in range(3)]),
        S('p2', '                 [0.401, 0.599, 0.000],', 3, *[E(j, W[1][j], "printed weights[1][%d]" % j) for j in range(3)]),
        S('p3', '                 [0.324, 0.240, 0.437]]', 3, *[E(j, W[2][j], "printed weights[2][%d]" % j) for j in range(3)]),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown chapter 「# Ch34 · Decoder 块与 Masked Attention」 (所属篇：第五篇, of a Chinese tutorial series 「深度学习从0到Transformer教程」 whose code lives in 深度学习从0到Transformer教程/code/ch34_decoder_block_mask.py; sibling chapters Ch27 Seq2Seq, Ch32 Layer Normalization, Ch35 完整 Transformer 拼装与训练); the search index did not expose the repository name (stored file id 67164103769, 7,708 characters). Kept: the chapter header, 1. 核心公式 block, the whole 2. 数值小例子 (every code block and bullet verbatim), the 3. Q/K/V source table, the mask snippet and the 3×3 part of the expected output; prose (Why/Goal/What, the three readings of each row, 想多一点) paraphrased and shortened. Dropped: the ASCII block diagram, the DecoderBlock class, the mask printout of the expected output, the misconception list and the chapter summary table",
        "source_kind": "tutorial chapter (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "fenced code blocks with Python-style nested lists and -inf, bullet lists '- e^0.4 ≈ 1.4918', '- 和 = 3.7173', inline code results '`[1.4918/3.7173, 2.2255/3.7173, 0] = [0.401, 0.599, 0]`', percentages in prose, four-decimal exponentials and three-decimal weights",
        "conventions": "Scores are given already divided by √d_k; the causal mask adds -inf above the diagonal and the softmax is taken row by row. Row 1: e^1 = 2.718282 → 2.7183, weights [1, 0, 0]. Row 2: e^0.4 = 1.491825 → 1.4918 and e^0.8 = 2.225541 → 2.2255 are right, but their sum is 3.717366 → 3.7174; the printed 3.7173 adds the rounded exponentials (rounding-carried) and is carried into the two divisions; the weights 0.401312/0.598688 → 0.401/0.599 and 40.1 %/59.9 % are right. Row 3: 1.8221, 1.3499, 2.4596, sum 5.631582 → 5.6316, weights [0.323552, 0.239693, 0.436754] → [0.324, 0.240, 0.437], all right, as are the full matrix and the expected-output printout. Not listed: the given scores and their restatements in the masked matrix, the mask entries, exponent arguments, T = 5, chapter numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z2: CUDA multi-head attention source with Chinese Q&A examples
# ---------------------------------------------------------------------------
def doc_z2():
    name = "zh_cuda_multihead_attention_kernel_qa.md"
    X = [3, 1, 5, 2]
    ex = [mexp(x - 5) for x in X]
    Ssum = sum(ex)
    p = [v / Ssum for v in ex]
    specs = [
        S('q1a', 'B  索引 = 0 * 4 + 0 = 0', 4, E(3, 0, "0*4+0")),
        S('q1b', 'A 行坐标 = row + row_off = 0 + 2 = 2', 3, E(2, 2, "0+2")),
        S('q1c', 'A 列坐标 = col + col_off = 0 + 4 = 4', 3, E(2, 4, "0+4")),
        S('q1d', 'A  索引 = 2 * N_A + 4 = 2 * 8 + 4 = 16 + 4 = 20', 8, E(5, 16, "2*8"), E(7, 20, "16+4")),
        S('q2a', '| **(0, 1)** | 0 * 3 + 1 = 1 | 1 * 2 + 0 = 2 |', 12, E(5, 1, "0*3+1"), E(9, 2, "1*2+0")),
        S('q2b', '| **(1, 0)** | 1 * 3 + 0 = 3 | 0 * 2 + 1 = 1 |', 12, E(5, 3, "1*3+0"), E(9, 1, "0*2+1")),
        S('q2c', '| **(1, 2)** | 1 * 3 + 2 = 5 | 2 * 2 + 1 = 5 |', 12, E(5, 5, "1*3+2"), E(9, 5, "2*2+1")),
        S('q4a', 'i 从 0 到 N-1=2', 17, E(16, 2, "N-1 with N = 3")),
        S('q4b', '| **0** | A[3] (A_(1, 0) | B[2]', 11, E(1, 3, "1*3+0"), E(4, 2, "0*4+2")),
        S('q4c', '| **1** | A[4] (A_(1, 1) | B[6]', 11, E(1, 4, "1*3+1"), E(4, 6, "1*4+2")),
        S('q4d', '| **2** | A[5] (A_(1, 2) | B[10]', 11, E(1, 5, "1*3+2"), E(4, 10, "2*4+2")),
        S('q5a', '**计算 d_k：** d_k = 12 / 3 = 4。', 4, E(3, 4, "12/3")),
        S('q5b', '所以 len = 4 * 4 = 16。', 4, E(3, 16, "4*4")),
        S('q5c', 'scale = 1 / sqrt(d_k) = 1 /sqrt(4) = 0.5', 4, E(2, 4, "d_k restated"), E(3, Fraction(1, 2), "1/sqrt(4)")),
        S('q5d', '线程 i=0 到 i=15 各自把 A[i] 乘以 0.5', 4, E(2, 15, "last index len-1"), E(3, Fraction(1, 2), "scale restated")),
        S('t0', '| 0 | X[0]=3.0 |', 11, E(6, 5, "row max restated in 3-5"), E(7, ex[0], "e^(3-5) = %s" % nstr(ex[0])), E(8, ex[0], "exp restated"),
          W(9, Ssum, "row sum e^-2 + e^-4 + e^0 + e^-3 = %s (0.135+0.018+1.0+0.050 = 1.203)" % nstr(Ssum), 'slip'),
          A(10, p[0], "softmax weight of 3.0 = %s" % nstr(p[0]), docval=D('0.135') / D('1.15'), cf='t0')),
        S('t1', '| 1 | X[1]=1.0 |', 11, E(6, 5, "row max restated"), E(7, ex[1], "e^(1-5) = %s" % nstr(ex[1])), E(8, ex[1], "exp restated"),
          A(9, Ssum, "row sum restated", docval=D('1.15'), cf='t0'),
          A(10, p[1], "softmax weight of 1.0 = %s" % nstr(p[1]), docval=D('0.018') / D('1.15'), cf='t0')),
        S('t2', '| 2 | X[2]=5.0 |', 22, E(6, 5, "row max restated"), E(7, ex[2], "e^(5-5)"), E(8, ex[2], "exp restated"),
          A(9, Ssum, "row sum restated", docval=D('1.15'), cf='t0'),
          A(10, p[2], "softmax weight of 5.0 = %s" % nstr(p[2]), docval=1 / D('1.15'), cf='t0'),
          E(17, 5, "row max restated"), E(18, ex[3], "e^(2-5) = %s" % nstr(ex[3])), E(19, ex[3], "exp restated"),
          A(20, Ssum, "row sum restated", docval=D('1.15'), cf='t0'),
          A(21, p[3], "softmax weight of 2.0 = %s" % nstr(p[3]), docval=D('0.050') / D('1.15'), cf='t0')),
        S('t3', '| **归约结果** |', 2, E(0, 5, "max of [3, 1, 5, 2]"), A(1, Ssum, "row sum restated", docval=D('1.15'), cf='t0')),
        S('q7a', '大矩阵 A 是 4 * 12', 21, E(10, 0, "col_off for head 0 = 0*d_k"), E(12, 4, "col_off for head 1 = 1*d_k = 4"),
          E(20, 4, "col_off restated")),
        S('q7b', 'B  索引 = 0 * 4 + 0 = 0', 4, E(3, 0, "0*4+0")),
        S('q7c', 'A 行坐标 = row + row_off = 0 + 0 = 0', 3, E(2, 0, "0+0")),
        S('q7d', 'A 列坐标 = col + col_off = 0 + 4 = 4', 3, E(2, 4, "0+4")),
        S('q7e', 'A  索引 = 0 * N_A + 4 = 0 * 12 + 4 = 4', 6, E(5, 4, "0*12+4")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub CUDA source file (.cu) implementing multi-head attention for a LeetGPU-style `extern \"C\" void solve(const float *Q, const float *K, const float *V, float *output, int N, int d_model, int h)`, followed by comment blocks 'question0' ... 'question20' holding Chinese AI answers to 「不理解，请解释，用例子」; the search index did not expose the repository name (stored file id 45177059492, 37,808 characters). Kept: the softmax host function and solve() verbatim (the five helper kernels, softmax_kernel and the cudaFree lines summarised), and from the answers the worked traces of question1 (extract), question2 (transpose table), question4 (matmul table), question5 (scale), question6 (softmax formula and trace table, including its broken LaTeX and the merged table row) and question7 (concat), every number and table verbatim; the explanatory Chinese prose paraphrased. Dropped: question0's overview, the step-by-step code walkthroughs, question3 and 8-20 (empty or without numbers)",
        "source_kind": "CUDA source with Chinese Q&A comment blocks (GitHub)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "```c++ code, fenced index arithmetic ('A  索引 = 2 * N_A + 4 = 2 * 8 + 4 = 16 + 4 = 20'), Markdown tables with bold cells, half-broken LaTeX in table cells ('e^{3-5 \\approx 0.135', '0.135 / 1.15 \\approx 0.12'), a table row that swallowed the next row",
        "conventions": "Index arithmetic (row-major offsets, transposition, matmul indices, concat offsets, d_k = 12/3 = 4, len = 16, scale = 1/sqrt(4) = 0.5) is all right. Softmax trace on X = [3, 1, 5, 2] with max 5: e^-2 = 0.135335, e^-4 = 0.018316, e^0 = 1, e^-3 = 0.049787 (printed 0.135, 0.018, 1.0, 0.050: right), but their sum is 1.203507, not 1.15 (slip; 0.135+0.018+1.0+0.050 = 1.203), so every normalised weight is wrong: true [0.112449, 0.015219, 0.830903, 0.041369] → [0.11, 0.015, 0.83, 0.041], printed 0.12, 0.016, 0.87, 0.043 (= 0.135/1.15, 0.018/1.15, 1/1.15, 0.050/1.15; carried), and the later 1.15 entries (including exp_sum in the result row) are carried from the first. The formula 'Softmax(x_i) = e^(x_i / sum_j e^(x_j)' is mis-parenthesised but carries no computed number. Not listed: matrix sizes, offsets and coordinates that are given, thread ids, X and its sdata echoes, 256 threads, 16×16 blocks",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z3: standard attention theory, memory printout and table
# ---------------------------------------------------------------------------
def doc_z3():
    name = "zh_standard_attention_memory_analysis.md"
    MiB = Fraction(2 ** 20)

    def mem(B, H, N, d, b=2):
        i = Fraction(3 * B * H * N * d * b) / MiB
        s = Fraction(B * H * N * N * b) / MiB
        o = Fraction(B * H * N * d * b) / MiB
        return [i, s, s, o, i + 2 * s + o]
    labels = ["输入 Q/K/V", "中间矩阵 S", "中间矩阵 P", "输出 O", "总计"]
    specs = []
    for tag, cfg in (('a', (1, 32, 2048, 64)), ('b', (1, 32, 8192, 128)), ('c', (1, 32, 32768, 128))):
        vals = mem(*cfg)
        specs.append(S('h' + tag, '配置: B=1, H=32, N=%d, d=%d' % (cfg[2], cfg[3]), 4))
        for j, lab in enumerate(labels):
            specs.append(S(tag + str(j), '  %s:' % lab, 1,
                           E(0, vals[j], "%s for B=%d,H=%d,N=%d,d=%d in fp16, bytes/1024^2" % (lab, *cfg))))
    rows = [(2048, '2,048'), (8192, '8,192'), (32768, '32,768'), (131072, '131,072')]
    for n, txt in rows:
        s = Fraction(n * n * 2) / MiB
        specs.append(S('t%d' % n, '| %s |' % txt, 8, E(5, s, "%d^2 x 2 bytes / 1024^2" % n), E(6, s, "P same as S"),
                       E(7, 2 * s, "S + P for one head")))
    specs += [
        S('n1', '$256 \\times 32 = 8,192$ MB', 6, E(2, 256, "single-head S+P at N=8192 restated"), E(4, 256 * 32, "256*32"),
          E(5, Fraction(8192, 1024), "8192 MB / 1024 = 8 GB")),
        S('n2', '312 TFLOPS / 2 TB/s', 6, E(5, 156, "312/2")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown page with Hugo front matter 'title: \"标准 Attention 机制 - 理论基础\" / weight: 1' (first page of a FlashAttention study site: sections 1 Self-Attention 数学公式推导, 2 多头注意力变体, 3 标准实现的复杂度分析, 4 标准实现的 PyTorch 代码, 5 瓶颈分析; navigation to ../00-overview/03-quick-start.md and 02-io-awareness.md); the search index did not expose the repository name (stored file id 51844748505, 13,650 characters). Kept: front matter, the three formulas of section 1 (condensed), the FLOPs table of 3.1 with 3.2-3.4 condensed into one paragraph, the memory_analysis script of 4.3 and its printed result verbatim, the table and note of 5.1 and the A100 sentence of 5.2; prose paraphrased. Dropped: table of contents, the MHA/GQA/MQA section and its mermaid diagrams, the plain and causal PyTorch implementations, 5.3-5.5 and references",
        "source_kind": "documentation page (GitHub Markdown, Hugo)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Hugo front matter, $$ display formulas, a Python script with f-string prints ('{input_mem / 1024**2:.1f} MB') and its printed output, a Markdown table with inline LaTeX ('$2048^2 \\times 2 = 8$ MB'), thousands separators ('2,048 MB', '65,536 MB'), ≈ as $\\approx$",
        "conventions": "FP16 (2 bytes per element), sizes in binary megabytes as the script divides by 1024**2. Q/K/V = 3·B·H·N·d·2 bytes, S = P = B·H·N²·2 bytes, O = B·H·N·d·2 bytes: 24/256/256/8/544, 192/4096/4096/64/8448 and 768/65536/65536/256/132096 MB are all right; the single-head table (N²·2 bytes: 8, 128, 2,048, 32,768 MB and the S+P totals) is right, 256 × 32 = 8,192 MB = 8 GB and 312/2 = 156 are right. No printed result is wrong. Not listed: the configuration echoes, N and d in the tables, the code constants, 'A100', d = 64 ~ 128",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z4: sinusoidal positional encoding exercise answer (d_model = 4)
# ---------------------------------------------------------------------------
def doc_z4():
    name = "zh_sinusoidal_pe_exercise_answer.md"

    def pe(p):
        return [sin(Fraction(p)), cos(Fraction(p)), sin(Fraction(p, 100)), cos(Fraction(p, 100))]
    specs = [
        S('d0', '- i=0: 10000^(0/4) = 10000^0 = 1', 7, E(5, 0, "0/4"), E(6, 1, "10000^0")),
        S('d1', '- i=1: 10000^(2/4) = 10000^0.5 = 100', 7, E(5, Fraction(1, 2), "2/4"), E(6, 100, "10000^0.5")),
        S('a0', '- PE(0,0) = sin(0/1) = sin(0) = 0', 6, E(4, 0, "0/1"), E(5, 0, "sin 0")),
        S('a1', '- PE(0,1) = cos(0/1) = cos(0) = 1', 6, E(4, 0, "0/1"), E(5, 1, "cos 0")),
        S('a2', '- PE(0,2) = sin(0/100) = sin(0) = 0', 6, E(4, 0, "0/100"), E(5, 0, "sin 0")),
        S('a3', '- PE(0,3) = cos(0/100) = cos(0) = 1', 6, E(4, 0, "0/100"), E(5, 1, "cos 0")),
        S('a4', '→ PE[0] = [0, 1, 0, 1]', 5, *[E(1 + j, v, "PE(0)[%d]" % j) for j, v in enumerate([0, 1, 0, 1])]),
    ]
    for p in (1, 2):
        v = pe(p)
        specs += [
            S('b%d0' % p, '- PE(%d,0) = sin(%d/1) = sin(%d)' % (p, p, p), 6, E(4, p, "%d/1" % p), E(5, v[0], "sin(%d) = %s" % (p, nstr(v[0])))),
            S('b%d1' % p, '- PE(%d,1) = cos(%d/1) = cos(%d)' % (p, p, p), 6, E(4, p, "%d/1" % p), E(5, v[1], "cos(%d) = %s" % (p, nstr(v[1])))),
            S('b%d2' % p, '- PE(%d,2) = sin(%d/100)' % (p, p), 6, E(4, Fraction(p, 100), "%d/100" % p),
              E(5, v[2], "sin(%d/100) = %s" % (p, nstr(v[2])))),
            S('b%d3' % p, '- PE(%d,3) = cos(%d/100)' % (p, p), 6, E(4, Fraction(p, 100), "%d/100" % p),
              E(5, v[3], "cos(%d/100) = %s" % (p, nstr(v[3])))),
            S('b%d4' % p, '→ PE[%d] ≈ [' % p, 5, *[E(1 + j, v[j], "PE(%d)[%d] restated" % (p, j)) for j in range(4)]),
        ]
    meta = {
        "doc": name,
        "source": "GitHub Python teaching script with Chinese docstring 「位置编码 (Positional Encoding)」 (学习目标 1-4, 前置知识 01-self-attention.py; functions introduction(), basic_implementation(), advanced_examples(), exercises(), main(); next lesson 04-transformer-encoder.py); the search index did not expose the repository name (stored file id 27408836125, 11,803 characters). Kept: the PositionalEncoding class (comments shortened), the formula block of introduction(), and from the exercises() string the whole answer to 练习 1 verbatim and a paraphrase of 思考题 1-2; the rest of the Chinese text paraphrased. Dropped: the demo functions with their prints, LearnedPositionalEncoding, exercises 2-3 and 思考题 3",
        "source_kind": "teaching script (GitHub Python), transcribed as Markdown",
        "language": "zh",
        "errors_as_published": False,
        "notation": "indented plain-text answer block: '- PE(1,2) = sin(1/100) = sin(0.01) ≈ 0.010', '→ PE[1] ≈ [0.841, 0.540, 0.010, 1.000]', caret powers '10000^(2/4) = 10000^0.5 = 100', three-decimal rounding",
        "conventions": "d_model = 4: i = 0, 1 with divisors 10000^0 = 1 and 10000^0.5 = 100; PE(pos) = [sin(pos), cos(pos), sin(pos/100), cos(pos/100)]. All values are right to three decimals (cos(0.01) = 0.99995 and cos(0.02) = 0.99980 round to 1.000). Not listed: d_model, pos and i (given), the formula exponents 2i/d_model, code constants (5000, 0.1, 0::2) and the identity sin(a+b)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z5: RoPE RotaryEmbedding source with Chinese comments
# ---------------------------------------------------------------------------
def doc_z5():
    name = "zh_rope_rotary_embedding_commented_source.md"
    th = [Fraction(1), Fraction(1, 10)]           # base 100, d = 4: 100^0, 100^(-1/2)
    x1, x2 = [1, 2], [3, 4]
    c = [cos(t) for t in th]
    s = [sin(t) for t in th]
    out = [x1[0] * c[0] - x2[0] * s[0], x1[1] * c[1] - x2[1] * s[1], x1[0] * s[0] + x2[0] * c[0], x1[1] * s[1] + x2[1] * c[1]]
    rot = [E(j, out[j], "RoPE output at position 1, entry %d = %s" % (j, nstr(out[j]))) for j in range(4)]
    mult = Fraction(1, 3) + Fraction(2, 3) / 32
    specs = [
        S('a1', '两对的角度为 [1,0.1] 弧度', 6, E(0, 1, "1 * 100^0"), E(1, Fraction(1, 10), "1 * 100^(-2/4)")),
        S('a2', '拼回后约为 [-1.9841,1.5907,2.4624,4.1797]', 5, *rot),
        S('b1', '两个维度对 j=0/1 的角频率为 [1,0.1]', 6, E(2, 1, "100^0"), E(3, Fraction(1, 10), "1/100^(1/2)")),
        S('b2', '角度表：p=0 -> [0,0]', 9, E(1, 0, "0*1"), E(2, 0, "0*0.1"), E(4, 1, "1*1"), E(5, Fraction(1, 10), "1*0.1"),
          E(7, 2, "2*1"), E(8, Fraction(1, 5), "2*0.1")),
        S('b3', '对 [1,2,3,4]，位置 0 的输出仍为 [1,2,3,4]', 10, *[E(5 + j, j + 1, "identity rotation at position 0") for j in range(4)]),
        S('b4', '        [-1.9841,1.5907,2.4624,4.1797]。', 4, *[dict(e) for e in rot]),
        S('c1', '[0,2]/4=[0,0.5] -> base 幂 [1,10] -> inv_freq=[1,0.1]', 11, E(5, 0, "0/4"), E(6, Fraction(1, 2), "2/4"),
          E(7, 1, "100^0"), E(8, 10, "100^0.5"), E(9, 1, "1/1"), E(10, Fraction(1, 10), "1/10")),
        S('c2', '位置每加 1，第一对转 1 弧度，第二对转 0.1 弧度', 3, E(1, 1, "omega_0"), E(2, Fraction(1, 10), "omega_1")),
        S('c3', '默认 L0=8192、high=4、low=1，短波长阈值 2048、长波长阈值 8192', 6, E(4, 2048, "8192/4"), E(5, 8192, "8192/1")),
        S('c4', '乘数=1/3+(2/3)/32=17/48≈0.354167', 9, E(7, mult, "1/3 + (2/3)/32 = 17/48 = %s" % nstr(mult)), E(8, mult, "multiplier restated")),
        S('c5', '本例前三行为 [[0,0],[1,0.1],[2,0.2]]', 6, E(0, 0, "0*1"), E(1, 0, "0*0.1"), E(2, 1, "1*1"), E(3, Fraction(1, 10), "1*0.1"),
          E(4, 2, "2*1"), E(5, Fraction(1, 5), "2*0.1")),
        S('c6', '位置 1 这一行约为 [0.540302,0.995004,0.841471,0.099833]', 6, E(2, c[0], "cos 1 = %s" % nstr(c[0])), E(3, c[1], "cos 0.1 = %s" % nstr(c[1])),
          E(4, s[0], "sin 1 = %s" % nstr(s[0])), E(5, s[1], "sin 0.1 = %s" % nstr(s[1]))),
        S('c7', '两条长度为 [3,7] 的请求在 decode 时查的是位置 [2,6]', 7, E(3, 2, "last position of a length-3 request"), E(4, 6, "last position of a length-7 request")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Python source of a nano-vllm-style inference project: apply_rotary_pos_emb() and class RotaryEmbedding(nn.Module) with Llama 3 frequency scaling, heavily commented in Chinese (docstrings 「将查表得到的 cos/sin 应用到一个 Q 或 K 张量」 and 「RoPE（旋转位置编码）：根据 token 的位置旋转 Q/K 向量中的二维特征对」); the search index did not expose the repository name (stored file id 70490580739, 9,735 characters). Kept: every code line of apply_rotary_pos_emb's 3-D path, __init__ and forward (the 4-D branch replaced by '...', some per-argument comments dropped) and the comments carrying numbers; the Chinese comments and docstrings reworded and shortened with every number unchanged. Dropped: the explanation of the 4-D branch, the Qwen3Attention shape example and the __main__ demo",
        "source_kind": "library source with Chinese comments (GitHub Python)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Python code with Chinese comments and docstrings; bracketed lists without spaces ('[-1.9841,1.5907,2.4624,4.1797]', '[[0,0],[1,0.1],[2,0.2]]'), arrows '->', fractions written inline ('1/3+(2/3)/32=17/48≈0.354167'), identifiers containing digits (llama3_rope_factor)",
        "conventions": "Rotate-half pairing: x = [a,b,c,d] rotates (a,c) and (b,d); out1 = x1*cos - x2*sin, out2 = x1*sin + x2*cos. With base 100 and d = 4 the angular frequencies are 100^0 = 1 and 100^(-1/2) = 0.1; for [1,2,3,4] at position 1 the output is [cos1 - 3 sin1, 2 cos0.1 - 4 sin0.1, sin1 + 3 cos1, 2 sin0.1 + 4 cos0.1] = [-1.984111, 1.590674, 2.462378, 4.179684] → right; the cache row [0.540302, 0.995004, 0.841471, 0.099833] is right; Llama 3 scaling: thresholds 8192/4 = 2048 and 8192/1 = 8192, smooth at wavelength 4096 = (2-1)/3 = 1/3, multiplier 1/3 + (2/3)/32 = 17/48 = 0.3541667 → 0.354167, right. No printed result is wrong. Not listed: '1/3' and '17/48' (fractions that the tokenizer splits), the arange enumeration [0.,1.,...,5.], default arguments, and the digits inside identifiers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z6: translate.py study guide, gradients / cross-entropy / QKV example
# ---------------------------------------------------------------------------
def doc_z6():
    name = "zh_translate_guide_cross_entropy_backprop.md"
    z = [D('-0.1'), D('1.0'), D('-1.1')]
    ez = [mexp(v) for v in z]
    Sz = sum(ez)
    p = [v / Sz for v in ez]
    L = -mlog(p[2])
    g = [p[0], p[1], p[2] - 1]
    h = [2, -1]
    Wm = [[D('0.1'), D('0.3')], [D('0.4'), D('-0.2')], [D('-0.3'), D('0.5')]]
    gW = [[g[i] * h[j] for j in range(2)] for i in range(3)]
    gh = [sum(M(Wm[i][j]) * g[i] for i in range(3)) for j in range(2)]
    wl_new = [M(D('0.4')) - D('0.1') * gW[1][0], M(D('-0.2')) - D('0.1') * gW[1][1]]
    after = wl_new[0] * 2 - wl_new[1]
    r52 = mpmath.sqrt(52)
    u = [-4 / r52, -6 / r52]
    att = softmax([D('1.2'), D('0.2'), D('2.0')])
    specs = [
        S('g1', '当前 `w=5`，导数为 `+4`', 3, E(1, 4, "2(5-3)")),
        S('g2', 'ΔL ≈ 4 × 0.01 = 0.04', 3, E(0, 4, "derivative restated"), E(2, D('0.04'), "4*0.01")),
        S('g3', '      = 5 - 0.1 × 4', 3, E(2, 4, "derivative restated")),
        S('g4', '      = 4.6', 1, E(0, D('4.6'), "5 - 0.4")),
        S('g5', '若当前 `w=1`，导数是 `-4`', 2, E(1, -4, "2(1-3)")),
        S('g6', 'w_new = 1 - 0.1 × (-4) = 1.4', 4, E(3, D('1.4'), "1 + 0.4")),
        S('g7', '∇L = [4, 6]', 2, E(0, 4, "2(5-3)"), E(1, 6, "2(2+1)")),
        S('g8', '   = -0.1 × [4, 6]', 3, E(1, 4, "gradient restated"), E(2, 6, "gradient restated")),
        S('g9', '   = [-0.4, -0.6]', 2, E(0, D('-0.4'), "-0.1*4"), E(1, D('-0.6'), "-0.1*6")),
        S('g10', 'w₁: 5 → 4.6    # 移动 0.4', 3, E(1, D('4.6'), "5 - 0.4"), E(2, D('0.4'), "step length")),
        S('g11', 'w₂: 2 → 1.4    # 移动 0.6', 3, E(1, D('1.4'), "2 - 0.6"), E(2, D('0.6'), "step length")),
        S('g12', 'ΔL ≈ [4, 6] · [0, -0.1]', 4, E(0, 4, "gradient restated"), E(1, 6, "gradient restated")),
        S('g13', '   = -0.6', 1, E(0, D('-0.6'), "6*(-0.1)")),
        S('g14', '梯度长度 = √(4² + 6²) = √52 ≈ 7.21', 4, E(2, 52, "16+36"), E(3, r52, "sqrt 52 = %s" % nstr(r52))),
        S('g15', '= [-4/7.21, -6/7.21]', 4, E(1, r52, "norm restated"), E(3, r52, "norm restated")),
        S('g16', '≈ [-0.555, -0.832]', 2, E(0, u[0], "-4/sqrt52 = %s" % nstr(u[0])), E(1, u[1], "-6/sqrt52 = %s" % nstr(u[1]))),
        S('g17', 'Δw ≈ [-0.0555, -0.0832]', 2, E(0, u[0] / 10, "0.1 * unit direction"), E(1, u[1] / 10, "0.1 * unit direction")),
        S('g18', 'ΔL ≈ [4, 6] · [-0.0555, -0.0832]', 4, E(0, 4, "gradient restated"), E(1, 6, "gradient restated"),
          E(2, u[0] / 10, "step restated"), E(3, u[1] / 10, "step restated")),
        S('g19', '   ≈ -0.721', 1, E(0, -r52 / 10, "-0.1*sqrt52 = %s" % nstr(-r52 / 10))),
        S('g20', '只移动 w₂：    loss 约下降 0.600', 1, E(0, D('0.6'), "decrease along w2 only")),
        S('g21', '沿负梯度移动： loss 约下降 0.721', 1, E(0, r52 / 10, "decrease along the negative gradient")),
        S('g22', '= [5, 2] - [0.4, -0.6]', 4, E(2, D('0.4'), "0.1*4"), E(3, D('-0.6'), "0.1*(-6)")),
        S('g23', '= [4.6, 2.6]', 2, E(0, D('4.6'), "5-0.4"), E(1, D('2.6'), "2+0.6")),
        S('g24', '∂L/∂w₁ = 2(5 - 3)  = 4', 4, E(3, 4, "2*2")),
        S('g25', '∂L/∂w₂ = 2(-4 + 1) = -6', 4, E(3, -6, "2*(-3)")),
        S('g26', '∇L = [4, -6]', 2, E(0, 4, "gradient"), E(1, -6, "gradient")),
        S('c1', 'z = wx = 6', 1, E(0, 6, "2*3")),
        S('c2', '∂loss/∂z = 2z = 12', 2, E(1, 12, "2*6")),
        S('c3', '∂z/∂w = x = 3', 1, E(0, 3, "x")),
        S('c4', '∂loss/∂w = 12 × 3 = 36', 3, E(0, 12, "restated"), E(1, 3, "restated"), E(2, 36, "12*3")),
        S('x1', '       ≈ [0.905, 2.718, 0.333]', 3, *[E(j, ez[j], "exp(%s) = %s" % (z[j], nstr(ez[j]))) for j in range(3)]),
        S('x2', '总和 ≈ 3.956', 1, E(0, Sz, "sum = %s" % nstr(Sz))),
        S('x3', '  ≈ [0.229, 0.687, 0.084]', 3, *[E(j, p[j], "softmax p_%d = %s" % (j, nstr(p[j]))) for j in range(3)]),
        S('x4', '  = -log(0.084)', 1, E(0, p[2], "p_you restated")),
        S('x5', '  ≈ 2.477', 1, A(0, L, "-ln p_you = 1.1 + ln(sum) = %s; -ln(0.084) = 2.476938 from the rounded probability" % nstr(L),
                                  docval=-mlog(D('0.084')))),
        S('x6', '笔记强调：这个 `2.477`', 1, A(0, L, "loss restated", docval=D('2.477'), cf='x5')),
        S('x7', '= [0.229, 0.687, 0.084] - [0, 0, 1]', 6, *[E(j, p[j], "p restated") for j in range(3)]),
        S('x8', '= [0.229, 0.687, -0.916]', 3, *[E(j, g[j], "dL/dz_%d = %s" % (j, nstr(g[j]))) for j in range(3)]),
        S('x9', '若 `∂L/∂z_i = 0.687`', 2, E(0, g[1], "gradient of 'love' restated")),
        S('x10', '   = 0.687 × 0.001', 2, E(0, g[1], "gradient restated")),
        S('x11', '   = 0.000687', 1, E(0, D('0.687') * D('0.001'), "0.687*0.001 (the text's 'if' value)", alts=(g[1] / 1000,))),
        S('u1', '隐藏向量 `h = [2, -1]`，`g = ∂L/∂z = [0.229, 0.687, -0.916]`', 5, *[E(2 + j, g[j], "g restated") for j in range(3)]),
        S('u2', '∂L/∂W_love = 0.687 × [2, -1]', 3, E(0, g[1], "g_love restated")),
        S('u3', '            = [1.374, -0.687]', 2, E(0, gW[1][0], "g_love*2 = %s" % nstr(gW[1][0])), E(1, gW[1][1], "g_love*(-1)")),
        S('u4', '      = [0.4, -0.2] - 0.1 × [1.374, -0.687]', 5, E(3, gW[1][0], "gradient restated"), E(4, gW[1][1], "gradient restated")),
        S('u5', '      = [0.2626, -0.1313]', 2, E(0, wl_new[0], "0.4 - 0.1*2*g_love = %s" % nstr(wl_new[0])),
          E(1, wl_new[1], "-0.2 + 0.1*g_love = %s" % nstr(wl_new[1]))),
        S('u6', '更新前：0.4×2 + (-0.2)×(-1)       = 1.0000', 5, E(4, 1, "0.8 + 0.2")),
        S('u7', '更新后：0.2626×2 + (-0.1313)×(-1) = 0.6565', 5, E(0, wl_new[0], "updated weight restated"), E(2, wl_new[1], "updated weight restated"),
          A(4, after, "2*w21_new - w22_new = %s; 0.2626*2 + 0.1313 = 0.6565 from the rounded weights" % nstr(after),
            docval=D('0.2626') * 2 + D('0.1313'))),
        S('u8', '也就是降到约 `0.6565`', 1, A(0, after, "new logit restated", docval=D('0.6565'), cf='u7')),
        S('m1', 'I 的分数    = 0.1×2 + 0.3×(-1)  = -0.1', 5, E(4, D('-0.1'), "0.2 - 0.3")),
        S('m2', 'love 的分数 = 0.4×2 - 0.2×(-1)  =  1.0', 5, E(4, 1, "0.8 + 0.2")),
        S('m3', 'you 的分数  = -0.3×2 + 0.5×(-1) = -1.1', 5, E(4, D('-1.1'), "-0.6 - 0.5")),
        S('m4', 'logits = W h = [-0.1, 1.0, -1.1]', 3, E(0, D('-0.1'), "logit I"), E(1, 1, "logit love"), E(2, D('-1.1'), "logit you")),
        S('m5', 'I:                0.229 - 0        =  0.229', 3, E(0, p[0], "p_I restated"), E(2, g[0], "gradient I")),
        S('m6', 'love:             0.687 - 0        =  0.687', 3, E(0, p[1], "p_love restated"), E(2, g[1], "gradient love")),
        S('m7', 'you:              0.084 - 1        = -0.916', 3, E(0, p[2], "p_you restated"), E(2, g[2], "gradient you")),
        S('m8', '= 0.687 × 2', 2, E(0, g[1], "gradient love restated")),
        S('m9', '= 1.374', 1, E(0, gW[1][0], "dloss/dw21")),
        S('m10', '∂loss/∂w₂₂ = 0.687 × (-1) = -0.687', 3, E(0, g[1], "gradient love restated"), E(2, gW[1][1], "dloss/dw22")),
        S('m11', 'I:      0.229 × [2, -1] = [ 0.458, -0.229]', 5, E(0, g[0], "gradient restated"),
          A(3, gW[0][0], "2*g_I = %s; 0.229*2 from the rounded gradient" % nstr(gW[0][0]), docval=D('0.458')), E(4, gW[0][1], "-g_I")),
        S('m12', 'love:   0.687 × [2, -1] = [ 1.374, -0.687]', 5, E(0, g[1], "gradient restated"), E(3, gW[1][0], "2*g_love"), E(4, gW[1][1], "-g_love")),
        S('m13', 'you:   -0.916 × [2, -1] = [-1.832,  0.916]', 5, E(0, g[2], "gradient restated"), E(3, gW[2][0], "2*g_you = %s" % nstr(gW[2][0])),
          E(4, gW[2][1], "-g_you")),
        S('m14', '∂loss/∂W = [[ 0.458, -0.229],', 2, A(0, gW[0][0], "dW[0][0] restated", docval=D('0.458'), cf='m11'), E(1, gW[0][1], "dW[0][1]")),
        S('m15', '             [ 1.374, -0.687],', 2, E(0, gW[1][0], "dW[1][0]"), E(1, gW[1][1], "dW[1][1]")),
        S('m16', '             [-1.832,  0.916]]', 2, E(0, gW[2][0], "dW[2][0]"), E(1, gW[2][1], "dW[2][1]")),
        S('m17', '∂loss/∂h = [0.573, -0.527]', 2,
          A(0, gh[0], "(W^T g)[0] = 0.1 g_I + 0.4 g_love - 0.3 g_you = %s; from the rounded g: 0.5725" % nstr(gh[0]),
            docval=D('0.1') * D('0.229') + D('0.4') * D('0.687') + D('0.3') * D('0.916')),
          E(1, gh[1], "(W^T g)[1] = %s" % nstr(gh[1]))),
        S('q1', '注意力权重：[0.28, 0.10, 0.62]', 3, *[E(j, att[j], "softmax([1.2, 0.2, 2.0])[%d] = %s" % (j, nstr(att[j]))) for j in range(3)]),
        S('q2', 'context = 0.28v₁ + 0.10v₂ + 0.62v₃', 3, *[E(j, att[j], "weight restated") for j in range(3)]),
        S('h1', 'd_head = D / H = 256 / 4 = 64', 3, E(2, 64, "256/4")),
        S('h2', 'dim_feedforward = 2D = 512', 2, E(1, 512, "2*256")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown study guide 「# `translate.py` 学习指南：从 PyTorch 基础到 Transformer 翻译」 (sections 1-14 on a Chinese-English translation Transformer trained with SentencePiece, AdamW and GradScaler; 45,690 characters); the search index did not expose the repository name (stored file id 70419109115). Kept: from 2.6 the one-dimensional example, the two-dimensional [4, 6] example with the unit-direction comparison, the [4, -6] update and the (5, -4) point, the chain-rule example; from 2.7 the cross-entropy training call, the z = [-0.1, 1.0, -1.1] loss example, the p - one_hot gradient, the 0.687 × 0.001 example, the W_love SGD update; the 'matrix as many small functions' example with the gradient matrix and ∂loss/∂h; the QKV example of 4.3; d_head of 4.5 and dim_feedforward of 4.6 — every code block verbatim, Chinese prose paraphrased and shortened. Dropped: sections 1-2.5, the derivation of p_i - 1(i=y), the memory/autograd discussion, sections 3, 4.1-4.2, 4.4, 4.7-14",
        "source_kind": "study notes (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "```text blocks with Unicode sub/superscripts (w₁, ∂L/∂w₂₁, √52, Wᵀg), '×' and '·' for products, arrows 'w₁: 5 → 4.6', one-hot vectors, three- and four-decimal rounding",
        "conventions": "Gradient examples (L = (w-3)², L = (w₁-3)² + (w₂+1)²) are exact and right, including √52 = 7.2111 → 7.21, the unit direction [-0.5547, -0.8321] → [-0.555, -0.832] and the decrease 0.1·√52 = 0.7211 → 0.721. Cross-entropy on z = [-0.1, 1.0, -1.1] with the correct token 'you': exp = [0.904837, 2.718282, 0.332871], sum 3.955990, p = [0.228726, 0.687131, 0.084144] (all right at 3 decimals); L = -ln p_you = 1.1 + ln 3.955990 = 2.475229 → 2.475, the printed 2.477 is -ln(0.084) of the rounded probability (rounding-carried) and is carried into its restatement. Gradient p - one_hot = [0.228726, 0.687131, -0.915856] → [0.229, 0.687, -0.916] right. Output row of 'love': 2·0.687131 = 1.374262 → 1.374 right; SGD gives [0.2625738, -0.1312869] → [0.2626, -0.1313] right, but the new logit 2·0.2625738 + 0.1312869 = 0.6564345 → 0.6564, so the printed 0.6565 (from the rounded weights) is rounding-carried and its restatement carried. Gradient matrix: 2·g_I = 0.457452 → 0.457, the printed 0.458 (= 0.229 × 2) is rounding-carried and carried into the matrix; the rest (−0.229, 1.374, −0.687, −1.832, 0.916) is right. ∂loss/∂h = Wᵀg = [0.5724818, −0.5267364]: 0.573 is rounding-carried (0.5725 from the rounded g), −0.527 right. QKV example: softmax([1.2, 0.2, 2.0]) = [0.278257, 0.102365, 0.619378] → [0.28, 0.10, 0.62] right; 256/4 = 64 and 2·256 = 512 right. Not listed: given inputs (w, x, z, h, W, W_love, learning rate, step 0.1), exponent arguments, formula constants, one-hot entries and the −1 in reshape(-1)",
    }
    return meta, specs


DOCS = [doc_z1, doc_z2, doc_z3, doc_z4, doc_z5, doc_z6]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
