"""Independent true values for the English (en_) first-contact documents of round 16.

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

    python _truth_en.py --write      # (re)write the en_*.expect.json files
    python _truth_en.py --check      # recompute and compare with the files (default)
    python _truth_en.py --uncovered  # review aid: numeric tokens not listed
    python _truth_en.py --tokens DOC # review aid: numeric tokens of DOC with their indices
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
# Document E1: Flash Attention study notes (online softmax, tiling, memory)
# ---------------------------------------------------------------------------
def doc_e1():
    name = "en_flash_attention_online_softmax_tiling.md"
    MiB = Fraction(2 ** 20)
    r2 = R2
    # online softmax on x = [5, 9, 3, 7]
    ex = {k: mexp(k) for k in (5, 9, 3, 7)}
    tot = sum(ex.values())
    e4, e6, e2 = mexp(-4), mexp(-6), mexp(-2)
    d1 = 1 + e4
    d2 = 1 + e4 + e6 + e2
    # worked example, query block Q1, exact scores /sqrt(2)
    s = lambda v: v / r2
    t0_l1 = 1 + mexp(s(-5))
    t0_p = [mexp(s(-5)) / t0_l1, 1 / t0_l1]
    t0_o1 = 5 * t0_p[0] + 7 * t0_p[1]
    t0_l2 = t0_l1 + mexp(s(-7)) + mexp(s(-6))
    t0_q = [mexp(s(-7)) / t0_l2, mexp(s(-6)) / t0_l2]
    t0_o2 = t0_o1 + 9 * t0_q[0] + 11 * t0_q[1]
    t1_l2 = 2 + mexp(s(-6)) + mexp(s(-8))
    t1_q = [mexp(s(-6)) / t1_l2, mexp(s(-8)) / t1_l2]
    t1_o2 = 6 + 9 * t1_q[0] + 11 * t1_q[1]
    real_att0 = sum(w * v for w, v in zip(softmax([s(5), s(10), s(3), s(4)]), (5, 7, 9, 11)))
    real_att1 = sum(w * v for w, v in zip(softmax([s(10), s(10), s(4), s(2)]), (5, 7, 9, 11)))
    d027, d1027 = mexp(D('-3.6')), 1 + mexp(D('-3.6'))
    specs = [
        S('s1', 'Q, K in HBM (each 4096 × 512 = 8 MB)', 3,
          E(2, Fraction(4096 * 512 * 4) / MiB, "4096*512 float32 = 8,388,608 B = 8 MiB (8.39 MB decimal also rounds to 8)")),
        S('s2', 'Compute S = Q K^T (4096 × 4096 = 64 MB!)', 3,
          E(2, Fraction(4096 * 4096 * 4) / MiB, "4096^2 float32 = 67,108,864 B = 64 MiB (binary megabytes, as in the 8 MB line)")),
        S('t1', '- Read Q, K: 16 MB', 1, E(0, 16, "8 + 8 MiB")),
        S('t2', '- Write S: 64 MB', 1, E(0, 64, "S restated, 64 MiB")),
        S('t3', '- Read S: 64 MB', 1, E(0, 64, "S restated")),
        S('t4', '- Write P: 64 MB', 1, E(0, 64, "P, same size as S")),
        S('t5', '- Read P: 64 MB', 1, E(0, 64, "P restated")),
        S('t6', '- Read V: 8 MB', 1, E(0, 8, "V, 4096*512 float32 = 8 MiB")),
        S('t7', '- Write O: 8 MB', 1, E(0, 8, "O, 4096*512 float32 = 8 MiB")),
        S('t8', '**Total HBM traffic: 288 MB**', 1, E(0, 288, "16+64+64+64+64+8+8")),
        S('x1', '    = 148 + 8103 + 20 + 1097', 4, *[E(j, ex[k], "exp(%d) = %s" % (k, nstr(ex[k]))) for j, k in enumerate((5, 9, 3, 7))]),
        S('x2', '    = 9368', 1, E(0, tot, "exp(5)+exp(9)+exp(3)+exp(7) = %s" % nstr(tot))),
        S('x3', 'softmax = [148/9368', 8, *[E(2 * j, ex[k], "exp(%d) restated" % k) for j, k in enumerate((5, 9, 3, 7))],
          *[E(2 * j + 1, tot, "sum restated") for j in range(4)]),
        S('x4', '        = [0.016, 0.865, 0.002, 0.117]', 4, *[E(j, ex[k] / tot, "softmax weight of %d = %s" % (k, nstr(ex[k] / tot))) for j, k in enumerate((5, 9, 3, 7))]),
        S('c1', 'm_new = max(-∞, 5, 9) = 9', 3, E(2, 9, "max")),
        S('c2', 'd_old_scaled = 0 × exp(-∞ - 9) = 0', 3, E(1, 9, "m_new restated"), E(2, 0, "0 times anything")),
        S('c3', '      = 0 + exp(-4) + exp(0)', 3, E(0, 0, "d_old_scaled restated"), E(1, -4, "5 - 9"), E(2, 0, "9 - 9")),
        S('c4', '      = 0 + 0.018 + 1', 3, E(0, 0, "d_old_scaled restated"), E(1, e4, "exp(-4) = %s" % nstr(e4)), E(2, 1, "exp(0)")),
        S('c5', '      = 1.018', 1, E(0, d1, "1 + exp(-4) = %s" % nstr(d1))),
        S('c6', 'softmax_chunk1 = [exp(5-9)/1.018', 7, E(3, d1, "running sum restated"), E(6, d1, "running sum restated")),
        S('c7', '               = [0.018/1.018, 1/1.018]', 4, E(0, e4, "exp(-4) restated"), E(1, d1, "running sum restated"),
          E(2, 1, "exp(0)"), E(3, d1, "running sum restated")),
        S('c8', '               = [0.018, 0.983]', 2, E(0, e4 / d1, "exp(-4)/(1+exp(-4)) = %s" % nstr(e4 / d1)),
          A(1, 1 / d1, "1/(1+exp(-4)) = %s; 1/1.018 = 0.98232 gives 0.982 as well" % nstr(1 / d1), docval=[1 / D('1.018')])),
        S('c9', 'State after chunk 1: `m = 9`, `d = 1.018`.', 3, E(1, 9, "running max"), E(2, d1, "running sum")),
        S('c10', 'm_old = 9', 1, E(0, 9, "running max restated")),
        S('c11', 'm_new = max(9, 3, 7) = 9', 4, E(3, 9, "max")),
        S('c12', 'd_old_scaled = 1.018 × exp(9 - 9) = 1.018', 4, E(0, d1, "running sum restated"), E(3, d1, "1.018 * exp(0)")),
        S('c13', 'd_new = 1.018 + exp(3 - 9) + exp(7 - 9)', 5, E(0, d1, "running sum restated")),
        S('c14', '      = 1.018 + exp(-6) + exp(-2)', 3, E(0, d1, "running sum restated"), E(1, -6, "3 - 9"), E(2, -2, "7 - 9")),
        S('c15', '      = 1.018 + 0.0025 + 0.135', 3, E(0, d1, "running sum restated"), E(1, e6, "exp(-6) = %s" % nstr(e6)), E(2, e2, "exp(-2) = %s" % nstr(e2))),
        S('c16', '      = 1.156', 1, E(0, d2, "1+exp(-4)+exp(-6)+exp(-2) = %s" % nstr(d2))),
        S('c17', 'softmax([5,9,3,7]) = [exp(5-9)', 13, E(12, d2, "denominator restated")),
        S('c18', '= [0.018, 1.000, 0.0025, 0.135] / 1.156', 5, E(0, e4, "exp(-4)"), E(1, 1, "exp(0)"), E(2, e6, "exp(-6)"), E(3, e2, "exp(-2)"), E(4, d2, "denominator restated")),
        S('c19', '                   = [0.016, 0.865, 0.002, 0.117]', 4, *[E(j, ex[k] / tot, "softmax weight of %d (online result)" % k) for j, k in enumerate((5, 9, 3, 7))]),
        S('b1', '- 512 × 64 × 4 bytes = 128 KB', 4, E(3, Fraction(512 * 64 * 4, 1024), "512*64*4 = 131,072 B = 128 KiB")),
        # worked example
        S('w1', 'Token 0: [1,2] · [3,1] = 5,  [1,2] · [2,4] = 10', 11, E(5, 5, "1*3+2*1"), E(10, 10, "1*2+2*4")),
        S('w2', 'Token 1: [3,1] · [3,1] = 10, [3,1] · [2,4] = 10', 11, E(5, 10, "3*3+1*1"), E(10, 10, "3*2+1*4")),
        S('w3', 'S₁₁ = [[5, 10],    / √2 = [[3.5, 7.1],', 5, E(0, 5, "score restated"), E(1, 10, "score restated"),
          E(3, s(5), "5/sqrt2 = %s" % nstr(s(5))), E(4, s(10), "10/sqrt2 = %s" % nstr(s(10)))),
        S('w4', '       [10, 10]]            [7.1, 7.1]]', 4, E(0, 10, "score restated"), E(1, 10, "score restated"),
          E(2, s(10), "10/sqrt2"), E(3, s(10), "10/sqrt2")),
        S('w5', 'm_old = -∞,  m_new = max(-∞, 3.5, 7.1) = 7.1', 3, E(0, s(5), "scaled score restated"), E(1, s(10), "scaled score restated"),
          E(2, s(10), "row max 10/sqrt2")),
        S('w6', 'correction = exp(-∞ - 7.1) = 0', 2, E(0, s(10), "m_new restated"), E(1, 0, "exp(-inf)")),
        S('w7', '      = exp(-3.6) + exp(0)', 2, A(0, s(-5), "(5-10)/sqrt2 = %s; the printed -3.6 is 3.5 - 7.1 from the rounded scores" % nstr(s(-5)),
                                                    docval=D('-3.6')), E(1, 0, "7.1 - 7.1")),
        S('w8', '      = 0.027 + 1.0', 2, A(0, mexp(s(-5)), "exp(-5/sqrt2) = %s; exp(-3.6) = 0.02732" % nstr(mexp(s(-5))), docval=d027),
          E(1, 1, "exp(0)")),
        S('w9', '      = 1.027', 1, A(0, t0_l1, "l after block 1, token 0: 1 + exp(-5/sqrt2) = %s" % nstr(t0_l1), docval=d1027)),
        S('w10', 'P₁₁[0] = [exp(3.5-7.1), exp(7.1-7.1)] / 1.027', 6, A(5, t0_l1, "l restated", docval=D('1.027'), cf='w9')),
        S('w11', '       = [0.027, 1.0] / 1.027', 3, A(0, mexp(s(-5)), "exp restated", docval=D('0.027'), cf='w8'), E(1, 1, "exp(0)"),
          A(2, t0_l1, "l restated", docval=D('1.027'), cf='w9')),
        S('w12', '       = [0.026, 0.974]', 2, A(0, t0_p[0], "P11[0][0] = %s" % nstr(t0_p[0]), docval=D('0.027') / D('1.027'), cf='w11'),
          A(1, t0_p[1], "P11[0][1] = %s" % nstr(t0_p[1]), docval=1 / D('1.027'), cf='w11')),
        S('w13', 'O₁[0] = 0 × 0 + [0.026, 0.974] @ [[5], [7]]', 7, A(3, t0_p[0], "weight restated", docval=D('0.026'), cf='w12'),
          A(4, t0_p[1], "weight restated", docval=D('0.974'), cf='w12')),
        S('w14', '      = 0.026×5 + 0.974×7', 4, A(0, t0_p[0], "weight restated", docval=D('0.026'), cf='w12'),
          A(2, t0_p[1], "weight restated", docval=D('0.974'), cf='w12')),
        S('w15', '      = 6.95', 1, A(0, t0_o1, "O1[0] after block 1 = 5*P0 + 7*P1 = %s" % nstr(t0_o1),
                                       docval=D('0.026') * 5 + D('0.974') * 7, cf='w12')),
        S('w16', 'm_old = -∞,  m_new = max(-∞, 7.1, 7.1) = 7.1', 3, E(0, s(10), "score restated"), E(1, s(10), "score restated"), E(2, s(10), "row max")),
        S('w17', '      = 1.0 + 1.0', 2, E(0, 1, "exp(0)"), E(1, 1, "exp(0)")),
        S('w18', '      = 2.0', 1, E(0, 2, "l for token 1 after block 1")),
        S('w19', 'P₁₁[1] = [exp(7.1-7.1), exp(7.1-7.1)] / 2.0', 6, E(5, 2, "l restated")),
        S('w20', '       = [1.0, 1.0] / 2.0', 3, E(0, 1, "exp(0)"), E(1, 1, "exp(0)"), E(2, 2, "l restated")),
        S('w21', '       = [0.5, 0.5]', 2, E(0, Fraction(1, 2), "1/2"), E(1, Fraction(1, 2), "1/2")),
        S('w22', 'O₁[1] = 0 + [0.5, 0.5] @ [[5], [7]]', 6, E(2, Fraction(1, 2), "weight restated"), E(3, Fraction(1, 2), "weight restated")),
        S('w23', '      = 0.5×5 + 0.5×7', 4, E(0, Fraction(1, 2), "weight restated"), E(2, Fraction(1, 2), "weight restated")),
        S('w24', '      = 6.0', 1, E(0, 6, "0.5*5 + 0.5*7")),
        S('w25', 'O₁ = [[6.95],', 1, A(0, t0_o1, "O1[0] restated", docval=D('6.95'), cf='w15')),
        S('w26', '      [6.0]]', 1, E(0, 6, "O1[1] restated")),
        S('w27', 'm₁ = [7.1, 7.1]', 2, E(0, s(10), "running max"), E(1, s(10), "running max")),
        S('w28', 'ℓ₁ = [1.027, 2.0]', 2, A(0, t0_l1, "l restated", docval=D('1.027'), cf='w9'), E(1, 2, "l token 1")),
        S('w29', 'Token 0: [1,2] · [1,1] = 3,  [1,2] · [0,2] = 4', 11, E(5, 3, "1*1+2*1"), E(10, 4, "1*0+2*2")),
        S('w30', 'Token 1: [3,1] · [1,1] = 4,  [3,1] · [0,2] = 2', 11, E(5, 4, "3*1+1*1"), E(10, 2, "3*0+1*2")),
        S('w31', 'S₁₂ = [[3, 4],    / √2 = [[2.1, 2.8],', 5, E(0, 3, "score restated"), E(1, 4, "score restated"),
          E(3, s(3), "3/sqrt2 = %s" % nstr(s(3))), E(4, s(4), "4/sqrt2 = %s" % nstr(s(4)))),
        S('w32', '       [4, 2]]            [2.8, 1.4]]', 4, E(0, 4, "score restated"), E(1, 2, "score restated"),
          E(2, s(4), "4/sqrt2"), E(3, s(2), "2/sqrt2 = %s" % nstr(s(2)))),
        S('w33', 'm_old = 7.1,  m_new = max(7.1, 2.1, 2.8) = 7.1', 5, E(0, s(10), "running max restated"), E(1, s(10), "running max restated"),
          E(2, s(3), "score restated"), E(3, s(4), "score restated"), E(4, s(10), "max unchanged")),
        S('w34', 'correction = exp(7.1 - 7.1) = 1.0', 3, E(2, 1, "exp(0)")),
        S('w35', 'ℓ_new = 1.0 × 1.027 + exp(2.1-7.1)', 6, E(0, 1, "correction restated"), A(1, t0_l1, "l restated", docval=D('1.027'), cf='w9')),
        S('w36', '      = 1.027 + exp(-5.0) + exp(-4.3)', 3, A(0, t0_l1, "l restated", docval=D('1.027'), cf='w9'),
          A(1, s(-7), "(3-10)/sqrt2 = %s; the printed -5.0 is 2.1 - 7.1" % nstr(s(-7)), docval=D('-5.0')),
          A(2, s(-6), "(4-10)/sqrt2 = %s; the printed -4.3 is 2.8 - 7.1" % nstr(s(-6)), docval=D('-4.3'))),
        S('w37', '      = 1.027 + 0.007 + 0.014', 3, A(0, t0_l1, "l restated", docval=D('1.027'), cf='w9'),
          E(1, mexp(s(-7)), "exp(-7/sqrt2) = %s" % nstr(mexp(s(-7)))), E(2, mexp(s(-6)), "exp(-6/sqrt2) = %s" % nstr(mexp(s(-6))))),
        S('w38', '      = 1.048', 1, A(0, t0_l2, "l after block 2, token 0 = %s" % nstr(t0_l2), docval=D('1.048'), cf='w9')),
        S('w39', 'P₁₂[0] = [exp(2.1-7.1), exp(2.8-7.1)] / 1.048', 6, A(5, t0_l2, "l restated", docval=D('1.048'), cf='w38')),
        S('w40', '       = [0.007, 0.014] / 1.048', 3, E(0, mexp(s(-7)), "exp restated"), E(1, mexp(s(-6)), "exp restated"),
          A(2, t0_l2, "l restated", docval=D('1.048'), cf='w38')),
        S('w41', '       = [0.007, 0.013]', 2, E(0, t0_q[0], "P12[0][0] = %s" % nstr(t0_q[0])),
          A(1, t0_q[1], "P12[0][1] = exp(-6/sqrt2)/l = %s" % nstr(t0_q[1]), docval=D('0.014') / D('1.048'))),
        S('w42', 'O₁[0] = 1.0 × 6.95 + [0.007, 0.013] @ [[9], [11]]', 7, E(1, 1, "correction restated"),
          A(2, t0_o1, "O1[0] restated", docval=D('6.95'), cf='w15'), E(3, t0_q[0], "weight restated"),
          A(4, t0_q[1], "weight restated", docval=D('0.013'), cf='w41')),
        S('w43', '      = 6.95 + 0.007×9 + 0.013×11', 5, A(0, t0_o1, "O1[0] restated", docval=D('6.95'), cf='w15'),
          E(1, t0_q[0], "weight restated"), A(3, t0_q[1], "weight restated", docval=D('0.013'), cf='w41')),
        S('w44', '      = 6.95 + 0.063 + 0.143', 3, A(0, t0_o1, "O1[0] restated", docval=D('6.95'), cf='w15'),
          A(1, 9 * t0_q[0], "9*P12[0][0] = %s; 0.007*9 from the rounded weight" % nstr(9 * t0_q[0]), docval=D('0.063')),
          A(2, 11 * t0_q[1], "11*P12[0][1] = %s" % nstr(11 * t0_q[1]), docval=D('0.143'), cf='w41')),
        S('w45', '      = 7.16', 1, A(0, t0_o2, "O1[0] after block 2 by the notes' update rule = %s (true attention output for this query: %s)"
                                       % (nstr(t0_o2), nstr(real_att0)), docval=D('6.95') + D('0.063') + D('0.143'), cf='w15')),
        S('w46', 'm_old = 7.1,  m_new = max(7.1, 2.8, 1.4) = 7.1', 5, E(0, s(10), "running max restated"), E(1, s(10), "running max restated"),
          E(2, s(4), "score restated"), E(3, s(2), "score restated"), E(4, s(10), "max unchanged")),
        S('w47', 'ℓ_new = 1.0 × 2.0 + exp(2.8-7.1)', 6, E(0, 1, "correction"), E(1, 2, "l restated")),
        S('w48', '      = 2.0 + 0.014 + 0.003', 3, E(0, 2, "l restated"), E(1, mexp(s(-6)), "exp(-6/sqrt2)"),
          E(2, mexp(s(-8)), "exp(-8/sqrt2) = %s" % nstr(mexp(s(-8))))),
        S('w49', '      = 2.017', 1, A(0, t1_l2, "l after block 2, token 1 = %s" % nstr(t1_l2), docval=D('2.017'))),
        S('w50', 'P₁₂[1] = [exp(2.8-7.1), exp(1.4-7.1)] / 2.017', 6, A(5, t1_l2, "l restated", docval=D('2.017'), cf='w49')),
        S('w51', '       = [0.014, 0.003] / 2.017', 3, E(0, mexp(s(-6)), "exp restated"), E(1, mexp(s(-8)), "exp restated"),
          A(2, t1_l2, "l restated", docval=D('2.017'), cf='w49')),
        S('w52', '       = [0.007, 0.001]', 2, E(0, t1_q[0], "P12[1][0] = %s" % nstr(t1_q[0])),
          A(1, t1_q[1], "P12[1][1] = exp(-8/sqrt2)/l = %s" % nstr(t1_q[1]), docval=D('0.003') / D('2.017'))),
        S('w53', 'O₁[1] = 1.0 × 6.0 + [0.007, 0.001] @ [[9], [11]]', 7, E(1, 1, "correction"), E(2, 6, "O1[1] restated"),
          E(3, t1_q[0], "weight restated"), A(4, t1_q[1], "weight restated", docval=D('0.001'), cf='w52')),
        S('w54', '      = 6.0 + 0.063 + 0.011', 3, E(0, 6, "O1[1] restated"),
          A(1, 9 * t1_q[0], "9*P12[1][0] = %s" % nstr(9 * t1_q[0]), docval=D('0.063')),
          A(2, 11 * t1_q[1], "11*P12[1][1] = %s" % nstr(11 * t1_q[1]), docval=D('0.011'), cf='w52')),
        S('w55', '      = 6.07', 1, A(0, t1_o2, "O1[1] after block 2 by the notes' update rule = %s (true attention output: %s)"
                                       % (nstr(t1_o2), nstr(real_att1)), docval=D('6.074'), cf='w52')),
        S('w56', 'O₁ = [[7.16],', 1, A(0, t0_o2, "final O1[0] restated", docval=D('7.16'), cf='w45')),
        S('w57', '      [6.07]]', 1, A(0, t1_o2, "final O1[1] restated", docval=D('6.07'), cf='w55')),
        S('w58', 'm₁ = [7.1, 7.1]', 2, E(0, s(10), "running max"), E(1, s(10), "running max")),
        S('w59', 'ℓ₁ = [1.048, 2.017]', 2, A(0, t0_l2, "l restated", docval=D('1.048'), cf='w38'),
          A(1, t1_l2, "l restated", docval=D('2.017'), cf='w49')),
    ]
    # Step 6 memory (float32, decimal MB as in '33.6 MB')
    def std(n, d=512):
        return 4 * n * d + 2 * n * n

    def fl(n, d=512):
        return 4 * n * d + 2 * n
    specs += [
        S('m1', '       = 8.4 million + 33.5 million', 2, E(0, Fraction(4 * 4096 * 512, 10 ** 6), "4*4096*512 = 8,388,608"),
          A(1, Fraction(2 * 4096 ** 2, 10 ** 6), "2*4096^2 = 33,554,432 (33.6 million)")),
        S('m2', '       = 41.9 million float32 values', 2, E(0, Fraction(std(4096), 10 ** 6), "4Nd + 2N^2 = 41,943,040")),
        S('m3', '       = 167 MB', 1, A(0, Fraction(std(4096) * 4, 10 ** 6), "41,943,040 float32 = 167,772,160 B = 167.8 MB (160 MiB)")),
        S('m4', '       = 8.4 million + 8 thousand', 2, E(0, Fraction(4 * 4096 * 512, 10 ** 6), "4*4096*512 = 8,388,608"),
          E(1, Fraction(2 * 4096, 1000), "2*4096 = 8,192")),
        S('m5', '       = 8.4 million float32 values', 2, E(0, Fraction(fl(4096), 10 ** 6), "4Nd + 2N = 8,396,800")),
        S('m6', '       = 33.6 MB', 1, E(0, Fraction(fl(4096) * 4, 10 ** 6), "8,396,800 float32 = 33,587,200 B")),
    ]
    rows = [(1024, 'MB', '10', '8.4'), (2048, 'MB', '25', '16.8'), (4096, 'MB', '84', '33.6'), (8192, 'MB', '302', '67.2'),
            (16384, 'GB', '1.1', '134.4'), (32768, 'GB', '4.2', '268.8')]
    for n, su, sv, fv in rows:
        sc = Fraction(10 ** 6 if su == 'MB' else 10 ** 9)
        st = Fraction(std(n) * 4) / sc
        st16 = Fraction(std(n) * 2) / sc
        ft = Fraction(fl(n) * 4, 10 ** 6)
        sav = (1 - Fraction(fl(n), std(n))) * 100
        docsav = (1 - D(fv) / (D(sv) * (1 if su == 'MB' else 1000))) * 100
        lab = 'r%d' % n
        if close(sv, st16):
            st_e = W(1, st, "4Nd+2N^2 = %d values x 4 bytes = %s %s; the printed %s is the 2-byte (fp16) size %s %s"
                     % (std(n), nstr(st, 6), su, sv, nstr(st16, 6), su), 'convention')
        else:
            st_e = W(1, st, "4Nd+2N^2 = %d values x 4 bytes = %s %s (2 bytes would give %s %s)"
                     % (std(n), nstr(st, 6), su, nstr(st16, 6), su), 'slip')
        if n in (16384, 32768):
            prev = {16384: D('67.2'), 32768: D('134.4')}[n]
            f_e = A(2, ft, "4Nd+2N = %d values x 4 bytes = %s MB; the printed value doubles the previous rounded row" % (fl(n), nstr(ft, 7)),
                    docval=prev * 2)
        else:
            f_e = E(2, ft, "4Nd+2N = %d values x 4 bytes = %s MB" % (fl(n), nstr(ft, 7)))
        specs.append(S(lab, '| %d | %s %s |' % (n, sv, su), 4, st_e, f_e,
                       A(3, sav, "1 - flash/standard = %s %% (both float32); the printed value is 1 - %s/%s" % (nstr(sav, 6), fv, sv),
                         docval=docsav, cf=lab)))
    specs += [
        S('k1', '- Standard: ~40 GB', 1, W(0, Fraction(std(100000) * 4, 10 ** 9), "N = 100,000: (4Nd+2N^2) x 4 bytes = 80.8 GB; ~40 GB is the 2-byte size", 'convention')),
        S('k2', '- Flash: ~820 MB', 1, E(0, Fraction(fl(100000) * 4, 10 ** 6), "N = 100,000: (4Nd+2N) x 4 bytes = 820,000,000 B")),
        S('k3', 'Total:                       123 units', 1, E(0, 123, "20+1+30+10+1+30+20+1+10")),
        S('k4', '× 8 blocks = 8 × 4.6', 4, E(2, D('4.6'), "4+0.2+0.2+0.2"), E(3, D('36.8'), "8*4.6")),
        S('k5', 'Total per query block:', 1, E(0, D('46.8'), "2+4+36.8+4")),
        S('k6', 'Total for all 8 query blocks:', 2, E(1, D('374.4'), "8*46.8 = 374.4")),
        S('k7', 'Standard: 3 + 120 = 123 units', 3, E(0, 3, "compute 1+1+1"), E(1, 120, "memory 20+30+10+30+20+10"), E(2, 123, "3+120")),
        S('k8', 'Flash:    10 + 25 = 35 units', 3, E(2, 35, "10+25")),
        S('k9', '**Compute increased 3× but memory decreased 5×!**', 2, E(0, Fraction(10, 3), "10/3 = 3.33"), E(1, Fraction(120, 25), "120/25 = 4.8")),
        S('k10', 'On FLOPs: standard attention needs', 4, E(0, 2, "N^2d + N^2d"), E(2, 3, "N^2d + 2N^2d"), E(3, 50, "(3-2)/2 = 50 %")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub aditya699/Neural-Memory-for-Long-Context-LMs: 'Attention Mechanisms/flash_attention.md' (commit 2ca4206c, '# Understanding Flash Attention', Steps 1-12, Summary, Key Formulas; stored file id 27891977221). Kept: the Step 1 size block and transfer list, the whole online-softmax example of Step 3, the block size of Step 4 (the loop pseudo-code condensed into one sentence), the whole worked example of Step 5, Step 6 (both memory calculations, the comparison table, the N=100K line), the two timelines and the wall-clock sums of Step 7 and the FLOPs totals of Step 8; all code blocks and numbers verbatim, prose reworded and shortened. Dropped: the GPU-hierarchy diagram, the mental-model and key-observation lists, the backward-pass code, FlashAttention-2 speedup table, applications, limitations, implementation notes and references",
        "source_kind": "study notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "fenced plain-text arithmetic with Unicode subscripts (Q₁, K₂, ℓ_new, P₁₁[0], O₁[0]), '-∞', '× / √2' and matrix literals like [[5, 10], [10, 10]]; one-decimal scores (3.5, 7.1) and three-decimal exponentials; MB/GB sizes; a Markdown comparison table with percentages",
        "conventions": "Sizes in Step 1 and Step 4 are binary (8 MB = 4096*512 float32 = 8 MiB, 64 MB, 128 KB = 131,072 B); Step 6 says float32 and its 33.6 MB / 167 MB figures are decimal, so the table is judged with 4 bytes and 10^6 B per MB. Online softmax on [5, 9, 3, 7]: all values right except 1/1.018 printed 0.983 (1/(1+e^-4) = 0.982014; 1/1.018 = 0.98232 too; one unit off, auto-classified 'rounding'). Step 5 is judged by the notes' own update rule (P normalised by the running l, O = correction*O + P@V) from the exact scores s/√2: 5/√2 = 3.5355 and 10/√2 = 7.0711 round to 3.5 and 7.1, but the notes then subtract the rounded scores, so 3.5-7.1 = -3.6 (true -5/√2 = -3.5355), exp(-3.6) = 0.027 (true e^-3.5355 = 0.029143), 1.027 (true 1.029143), the weights 0.026/0.974 (true 0.028318/0.971682) and O₁[0] = 6.95 (true 6.943364) are wrong (rounding-carried, then carried); likewise -5.0/-4.3 (true -4.9497/-4.2426), 1.048 (1.050596), 0.013 (0.013678), 0.063 (0.060679 and 0.064091), 0.143 (0.150458), 0.001 (0.001731), 0.011 (0.019042), 2.017 (2.017863), 7.16 (7.154501) and 6.07 (6.083133). The true attention outputs for the two queries over all four keys would be 7.0128 and 6.0300. Step 6: 2*4096^2 = 33,554,432 printed 33.5 million (truncated, rounding); 41,943,040 float32 = 167.77 MB printed 167 (truncated). Table: the standard column uses 4Nd+2N^2 float32 values (16.8, 50.3, 167.8, 604.0 MB, 2.28, 8.86 GB): 25, 84, 302 and 1.1 are the 2-byte sizes (convention), 10 and 4.2 fit neither (slip); the flash column 8.4/16.8/33.6/67.2 is right, 134.4 and 268.8 double the previous rounded row (true 134.3 and 268.7 MB, rounding-carried); every savings percentage is carried from the wrong standard cell (true 50, 67, 80, 89, 94, 97 %). N = 100K: ~40 GB is the fp16 figure (float32 80.8 GB, convention); ~820 MB right. Step 7 sums of the given unit costs are right (123, 4.6, 36.8, 46.8, 374, 3+120, 10/3 → 3×, 120/25 → 5×). Not listed: the given inputs (x, Q, K, V, N, d, B, unit costs), the '-∞' states, list numbers, restatements of exponent arguments such as exp(5-9), the per-item costs of the timelines (the 'Write O 10 units' line disagrees with the stated 30-unit write cost but is an input row, not a computation) and the '4×4 matrix'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E2: TensorFlow notebook computing y_2 of self-attention (float32 printouts)
# ---------------------------------------------------------------------------
def f32_tol(t):
    """8 float32 ulps at the magnitude of t (the printed 8-significant-digit values come from
    float32 dot products of printed float32 inputs; their last digit is a float32 artifact)"""
    t = abs(M(t) if is_exact(t) else t)
    e = int(mpmath.floor(mpmath.log(t, 2)))
    return Fraction(2) ** (e - 20)


def doc_e2():
    name = "en_tf_self_attention_y2_walkthrough_notebook.md"
    xs = [['-0.5901138', '0.10746985', '-0.68417746', '-1.087325'],
          ['0.06799816', '0.26192757', '2.078989', '-0.15885977'],
          ['-0.4177143', '-0.6695858', '-0.05910626', '1.4612687'],
          ['-0.27432463', '-0.44688827', '-0.7900979', '-0.03789218']]
    Wq = [['-1.3717711', '-0.98146987', '0.8260041', '-1.2923543'], ['0.30707964', '0.786002', '-2.103323', '-1.7300906'],
          ['-0.5035843', '-0.4742107', '-0.2712986', '-0.63562334'], ['1.2032156', '0.18251911', '-1.4129548', '1.0945445']]
    Wk = [['-1.6024884', '-1.1137156', '-0.04244602', '0.34064332'], ['-1.2472221', '0.23090297', '-0.01369113', '0.97045213'],
          ['0.4897503', '0.4532431', '-0.56273043', '0.02543709'], ['-1.9602743', '-1.1043301', '-0.9142158', '0.13891058']]
    Wv = [['4.4455358e-01', '-7.1996415e-01', '9.7427595e-01', '-7.3896867e-01'], ['2.7865940e-01', '-1.2198892e+00', '-4.6462238e-01', '1.2124052e+00'],
          ['1.2106689e+00', '1.3768704e+00', '-2.1070539e-04', '4.4651002e-01'], ['9.5693940e-01', '1.3449348e+00', '1.0805776e+00', '-5.2276546e-01']]

    def mv(W, x):
        return [sum(D(W[i][j]) * D(x[j]) for j in range(4)) for i in range(4)]
    q2 = mv(Wq, xs[1])
    ks = [mv(Wk, x) for x in xs]
    vs = [mv(Wv, x) for x in xs]
    w = [sum(a * b for a, b in zip(q2, k)) / 2 for k in ks]
    p = softmax(w)
    y2 = [sum(p[j] * M(vs[j][i]) for j in range(4)) for i in range(4)]

    def ent(t, claimed, what):
        if close(claimed, t):
            return E(0, t, what)
        val = literal_value(claimed)[0]
        diff = abs(M(val) - (M(t) if is_exact(t) else t))
        tol = f32_tol(t)
        return E(0, t, what + "; float32 artifact: the value from the printed decimal inputs is %s, the printout differs by %s (%.1f half-units of its last digit), within 8 float32 ulps"
                 % (nstr(t, 10), mp.nstr(diff, 3), float(diff / (M(literal_value(claimed)[1]) / 2))), tol=tol)

    printed = [('q', 'q_2', q2, ['[[ 1.5722046]', ' [-3.8711874]', ' [-0.6215035]', ' [-2.9817736]]']),
               ('k1', 'k_1', ks[0], ['[[ 0.48461038]', ' [-0.28501165]', ' [ 0.11705065]', ' [ 1.5125477 ]]']),
               ('k2', 'k_2', ks[1], ['[[-0.5430384 ]', ' [-0.20695846]', ' [-1.0219324 ]', ' [-2.3452613 ]]']),
               ('k3', 'k_3', ks[2], ['[[ 1.9153907 ]', ' [ 1.7852738 ]', ' [-0.43762955]', ' [ 1.8153    ]]']),
               ('k4', 'k_4', ks[3], ['[[0.95793724]', ' [0.21300066]', ' [0.10674866]', ' [1.7483201 ]]']),
               ('w', "w'", w, ['[[-1.3587911]]', '[[3.78779]]', '[[-4.5202847]]', '[[-2.2989657]]']),
               ('p', 'w', p, ['[[0.00577114]]', '[[0.99173045]]', '[[0.00024448]]', '[[0.00225398]]']),
               ('v1', 'v_1', vs[0], ['[[-0.2027902 ]', ' [-1.2959363 ]', ' [-1.0518178 ]', ' [-0.59105414]]']),
               ('v2', 'v_2', vs[1], ['[[ 1.9845519 ]', ' [-1.4591215 ]', ' [ 0.37159303]', ' [ 2.746901  ]]']),
               ('v3', 'v_3', vs[2], ['[[-0.84103614]', ' [ 2.4995322 ]', ' [-0.775163  ]', ' [-2.1280463 ]]']),
               ('v4', 'v_4', vs[3], ['[[-0.54198074]', ' [ 0.7898675 ]', ' [-0.9641763 ]', ' [-1.697501  ]]']),
               ('y', 'y_2', y2, ['[[ 1.965543  ]', ' [-1.4521428 ]', ' [ 0.36008716]', ' [ 2.716428  ]]'])]
    what = {'q': "q_2[%d] = (W_q x_2)[%d]", 'k1': "k_1[%d] = (W_k x_1)[%d]", 'k2': "k_2[%d] = (W_k x_2)[%d]",
            'k3': "k_3[%d] = (W_k x_3)[%d]", 'k4': "k_4[%d] = (W_k x_4)[%d]", 'w': "w'_2%d = q_2.k_%d / sqrt(4)",
            'p': "softmax weight w_2%d (%d)", 'v1': "v_1[%d] = (W_v x_1)[%d]", 'v2': "v_2[%d] = (W_v x_2)[%d]",
            'v3': "v_3[%d] = (W_v x_3)[%d]", 'v4': "v_4[%d] = (W_v x_4)[%d]", 'y': "y_2[%d] = sum_j w_2j v_j[%d]"}
    specs = []
    for lab, _, vals, lines in printed:
        for i, ln in enumerate(lines):
            lit = NUM_RE.search(ln).group()
            idx = i + 1 if lab in ('w', 'p') else i
            specs.append(S('%s%d' % (lab, i), '^' + ln, 1, dict(ent(vals[i], lit, what[lab] % (idx, idx)))))
    meta = {
        "doc": name,
        "source": "GitHub anasashb/transformers_math_walkthrough: transformer_attn_walkthrough.ipynb ('# Transformers: Walking Through the Math Behind Self Attention', commit 6e722e78; last commit of the repository a298411). Transcribed: every code cell that prints, with its stream output verbatim, the Step 0-6 headings and their LaTeX (the y_2 formula block of the intro shortened, the four w_2j softmax lines of Step 4 reduced to the first), the step-2, 3, 4 and 5 print statements dropped from the listings (their outputs kept); the Markdown prose paraphrased. Dropped: the long intro on the barebones case (kept as two sentences) and the empty trailing cell",
        "source_kind": "Jupyter notebook with TensorFlow printouts (GitHub)",
        "language": "en",
        "errors_as_published": False,
        "notation": "LaTeX $$ aligned blocks with primes (w'_{21}, q'_2 for the transpose), TensorFlow/NumPy float32 column-vector printouts such as '[[ 1.5722046]' with 8 significant digits, W_v printed in scientific notation ('4.4455358e-01'), f-string print code",
        "conventions": "Column-vector convention: q_2 = W_q x_2, k_j = W_k x_j, v_j = W_v x_j, scores q_2^T k_j / sqrt(4), softmax over j, y_2 = sum_j w_2j v_j. Truths are computed exactly from the printed decimal inputs (x_1..x_4, W_q, W_k, W_v as printed). The printouts are float32 results printed to 8 significant digits; 27 of the 48 differ from the exact value by more than half a unit of their last digit (up to about 23 half-units, e.g. w'_23 printed -4.5202847 vs -4.5202836 from the printed inputs) because the inputs are themselves rounded float32 values and the dot products are accumulated in float32. These carry a 'tolerance' of 8 float32 ulps at their magnitude and are ok; no printed result is wrong. Not listed: the inputs, shapes such as (4, 1), d = 4, the seed 66, step numbers and the '4x4'/'4x1' comments. The label 'Our key vectors are:' above the value vectors and the typo 'v_4 + W_{v}x_4' are kept but carry no numbers to judge",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E3: LayerNorm vs BatchNorm notebook (Transformer-From-Scratch)
# ---------------------------------------------------------------------------
def doc_e3():
    name = "en_layernorm_vs_batchnorm_padding_notebook.md"
    col = [1, 2, 3, 4, 5, 6, 7, 0]
    mu = Fraction(sum(col), len(col))
    var = sum((Fraction(c) - mu) ** 2 for c in col) / len(col)
    sd = mpmath.sqrt(M(var))
    ln_sd = mpmath.sqrt(M(Fraction(2, 3)))
    specs = [
        S('bm', '$$mean=(1+2+3+4+5+6+7+0) / 8 = 3.5$$', 10, E(8, 8, "number of collected values (2 sequences x 4 positions)"),
          E(9, mu, "28/8")),
        S('bs', '$$std=2.29$$', 1, E(0, sd, "population std of the 8 values = sqrt(5.25) = %s (sample std would be 2.449)" % nstr(sd))),
        S('b1', '$$(1 - 3.5) / 2.29 = -1.09$$', 4, E(1, mu, "mean restated"), E(2, sd, "std restated"),
          E(3, M(1 - mu) / sd, "(1-3.5)/sqrt(5.25) = %s" % nstr(M(1 - mu) / sd))),
        S('b2', '$$(7 - 3.5) / 2.29=1.52$$', 4, E(1, mu, "mean restated"), E(2, sd, "std restated"),
          A(3, M(7 - mu) / sd, "(7-3.5)/sqrt(5.25) = %s; 3.5/2.29 = 1.5284 also rounds to 1.53 (truncated)" % nstr(M(7 - mu) / sd),
            docval=D('3.5') / D('2.29'))),
        S('lm', '$$mean=(1+2+3)/3=2$$', 5, E(4, 2, "(1+2+3)/3")),
        S('ls', '$$std=0.81$$', 1, A(0, ln_sd, "population std of [1,2,3] = sqrt(2/3) = %s (truncated to 0.81)" % nstr(ln_sd))),
        S('lf', '$$[(1-2)/0.81,(2-2)/0.81,(3-2)/0.81]$$', 9,
          *[x for j in range(3) for x in (E(3 * j + 1, 2, "mean restated"),
                                         A(3 * j + 2, ln_sd, "std restated", docval=D('0.81'), cf='ls'))]),
        S('lo', '$$[-1.23,0,1.23]', 3, A(0, -1 / ln_sd, "(1-2)/sqrt(2/3) = %s" % nstr(-1 / ln_sd), docval=-1 / D('0.81'), cf='ls'),
          E(1, 0, "(2-2)/std"), A(2, 1 / ln_sd, "(3-2)/sqrt(2/3) = %s" % nstr(1 / ln_sd), docval=1 / D('0.81'), cf='ls')),
        S('pm', '$$mean=0$$', 1, E(0, 0, "mean of the padding row [0,0,0]")),
        S('pv', '$$var=0$$', 1, E(0, 0, "variance of the padding row")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Rkiitb/Transformer-From-Scratch: 'Layer Normalization/layer_normalization.ipynb' (commit b3142aae; Markdown cells 'What is layer normalization', 'Why Not Use Batch Normalization?', the BatchNorm example, 'Issue with BatchNorm in Transformers', 'Layer Normalization' and the padding remark). Kept: the two worked examples with every formula verbatim (including the unclosed '$$[-1.23,0,1.23]' display); prose paraphrased; the image cell and empty code cells dropped",
        "source_kind": "Jupyter notebook, Markdown cells only (GitHub)",
        "language": "en",
        "errors_as_published": True,
        "notation": "$$ display lines with spaces inside variable names ('$$Batch size = 2$$'), bracketed vectors, one ```py block with the padded batch tensor, two-decimal rounding of std and normalized values",
        "conventions": "BatchNorm example: first features 1,2,...,7 and the padding 0; mean 28/8 = 3.5, population std sqrt(5.25) = 2.291288 (printed 2.29, right; the sample std would be 2.449), (1-3.5)/2.2913 = -1.091089 → -1.09 right, (7-3.5)/2.2913 = 1.527525 → 1.53, so the printed 1.52 is truncated (rounding; 3.5/2.29 = 1.5284 would also give 1.53). LayerNorm example on [1,2,3]: mean 2, population std sqrt(2/3) = 0.816497 → 0.82, printed 0.81 (truncated, rounding); the normalized values ±1/0.8165 = ±1.224745 → ±1.22, the printed ±1.23 are ±1/0.81 (carried from 0.81, as are the three restated 0.81 divisors). Padding row: mean 0, var 0, right. Not listed: the embeddings and batch sizes (given), the list of collected first features and the '3' divisor in (1+2+3)/3",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E4: deriving Q/K/V attention, 3-token walkthrough
# ---------------------------------------------------------------------------
def doc_e4():
    name = "en_qkv_derivation_three_token_walkthrough.md"
    h = Fraction(1, 2)
    S_ = [[1, 0, h], [0, 1, h], [h, h, h]]
    sc = [[M(v) / R2 for v in row] for row in S_]
    a, c = 1 / R2, M(h) / R2
    ea, ec = mpmath.exp(a), mpmath.exp(c)
    Z = ea + 1 + ec
    w = [ea / Z, 1 / Z, ec / Z]
    o1 = [w[0] + w[2] / 2, w[1] + w[2] / 2]
    o2 = [w[1] + w[2] / 2, w[0] + w[2] / 2]
    e1, eh = mpmath.e, mpmath.exp(M(h))
    Zu = e1 + 1 + eh
    wu = [e1 / Zu, 1 / Zu, eh / Zu]
    third = Fraction(1, 3)
    specs = [
        S('v1', 'v_1 = [1,0]W_V = [1,0]', 5, E(3, 1, "[1,0] W_V first entry"), E(4, 0, "[1,0] W_V second entry")),
        S('v2', 'v_2 = [0,1]W_V = [1,1]', 5, E(3, 1, "[0,1] W_V first entry"), E(4, 1, "[0,1] W_V second entry")),
        S('v3', 'v_3 = [0.5,0.5]W_V = [1,0.5]', 5, E(3, 1, "0.5+0.5"), E(4, h, "0.5*1")),
        S('k1', '\\sqrt{d_k} = \\sqrt{2} \\approx 1.4142', 2, E(1, R2, "sqrt 2")),
        S('k2', '\\frac{1}{1.4142} \\approx 0.7071', 3, E(1, R2, "sqrt 2 restated"), E(2, a, "1/sqrt2 = %s" % nstr(a))),
        S('k3', '\\frac{0.5}{1.4142} \\approx 0.3536', 3, E(1, R2, "sqrt 2 restated"), E(2, c, "0.5/sqrt2 = %s" % nstr(c))),
    ]
    res = {5: 1, 10: 0, 15: h, 21: 0, 26: 1, 31: h, 37: h, 42: h, 47: Fraction(1, 4), 48: Fraction(1, 4), 49: h}
    specs.append(S('dp', 'Each entry is a row-column dot product.', 50,
                   *[E(k, v, "dot-product step") for k, v in sorted(res.items())]))
    for i, anc in enumerate(['1 & 0 & 0.5 \\\\', '0 & 1 & 0.5 \\\\', '0.5 & 0.5 & 0.5']):
        pass
    specs += [
        S('m1', '^1 & 0 & 0.5 \\\\', 3, *[E(j, S_[0][j], "QK^T[0][%d]" % j) for j in range(3)]),
        S('m2', '^0 & 1 & 0.5 \\\\', 3, *[E(j, S_[1][j], "QK^T[1][%d]" % j) for j in range(3)]),
        S('m3', '^0.5 & 0.5 & 0.5', 3, *[E(j, S_[2][j], "QK^T[2][%d]" % j) for j in range(3)]),
    ]
    # the first two exact-line anchors above would also match X^T (lines 103-104); X^T has no trailing '\\'
    specs += [
        S('s1', '^0.7071 & 0 & 0.3536 \\\\', 3, *[E(j, sc[0][j], "scaled score [0][%d]" % j) for j in range(3)]),
        S('s2', '^0 & 0.7071 & 0.3536 \\\\', 3, *[E(j, sc[1][j], "scaled score [1][%d]" % j) for j in range(3)]),
        S('s3', '^0.3536 & 0.3536 & 0.3536', 3, *[E(j, sc[2][j], "scaled score [2][%d]" % j) for j in range(3)]),
        S('r1', '^[0.7071,\\ 0,\\ 0.3536]', 3, *[E(j, sc[0][j], "row 1 restated") for j in range(3)]),
        S('e1', 'e^{0.7071} \\approx 2.0281', 2, E(0, a, "scaled score restated"), E(1, ea, "e^(1/sqrt2) = %s" % nstr(ea))),
        S('e2', '^e^0 = 1,\\qquad', 2, E(1, 1, "e^0")),
        S('e3', 'e^{0.3536} \\approx 1.4240', 2, E(0, c, "scaled score restated"),
          A(1, ec, "e^(0.5/sqrt2) = %s (e^0.3536 = 1.424186)" % nstr(ec), docval=mpmath.exp(M(D('0.3536'))))),
        S('z1', 'Z_1 = 2.0281 + 1 + 1.4240 = 4.4521', 5, E(1, ea, "exp restated"), E(2, 1, "e^0"),
          A(3, ec, "exp restated", docval=D('1.4240'), cf='e3'),
          A(4, Z, "Z_1 = %s" % nstr(Z), docval=D('2.0281') + 1 + D('1.4240'), cf='e3')),
        S('f1', '\\frac{2.0281}{4.4521},', 2, E(0, ea, "exp restated"), A(1, Z, "Z_1 restated", docval=D('4.4521'), cf='z1')),
        S('f2', '\\frac{1}{4.4521},', 2, E(0, 1, "e^0"), A(1, Z, "Z_1 restated", docval=D('4.4521'), cf='z1')),
        S('f3', '\\frac{1.4240}{4.4521}', 2, A(0, ec, "exp restated", docval=D('1.4240'), cf='e3'), A(1, Z, "Z_1 restated", docval=D('4.4521'), cf='z1')),
        S('w1', '^[0.4556,\\ 0.2247,\\ 0.3199]', 3,
          A(0, w[0], "e^0.7071/Z = %s; 2.0281/4.4521 = 0.455533" % nstr(w[0]), docval=D('2.0281') / D('4.4521')),
          A(1, w[1], "1/Z = %s; 1/4.4521 = 0.224613" % nstr(w[1]), docval=1 / D('4.4521')),
          A(2, w[2], "e^0.3536/Z = %s" % nstr(w[2]), docval=D('1.4240') / D('4.4521'))),
        S('r2', '^[0,\\ 0.7071,\\ 0.3536]', 3, *[E(j, sc[1][j], "row 2 restated") for j in range(3)]),
        S('w2', 'A_{2,\\cdot} \\approx [0.2247,\\ 0.4556,\\ 0.3199]', 4,
          A(1, w[1], "row 2 = permuted row 1", docval=D('0.2247'), cf='w1'), A(2, w[0], "row 2 = permuted row 1", docval=D('0.4556'), cf='w1'),
          E(3, w[2], "row 2 third weight")),
        S('r3', '^[0.3536,\\ 0.3536,\\ 0.3536]', 3, *[E(j, c, "row 3 restated") for j in range(3)]),
        S('w3', '^[0.333,\\ 0.333,\\ 0.333]', 3, *[E(j, third, "1/3") for j in range(3)]),
        S('a1', '^0.456 & 0.225 & 0.320 \\\\', 3, E(0, w[0], "A[0][0]"), E(1, w[1], "A[0][1]"), E(2, w[2], "A[0][2]")),
        S('a2', '^0.225 & 0.456 & 0.320 \\\\', 3, E(0, w[1], "A[1][0]"), E(1, w[0], "A[1][1]"), E(2, w[2], "A[1][2]")),
        S('a3', '^0.333 & 0.333 & 0.333', 3, *[E(j, third, "A[2][%d] = 1/3" % j) for j in range(3)]),
        S('o11', 'o_1^{(1)} = 0.456', 12, E(2, w[0], "weight restated"), E(4, w[1], "weight restated"), E(6, w[2], "weight restated"),
          E(8, w[0], "0.456*1"), E(9, 0, "0.225*0"), E(10, w[2] / 2, "0.320*0.5 = %s" % nstr(w[2] / 2)),
          A(11, o1[0], "o_1[0] = w11 + w13/2 = %s" % nstr(o1[0]), docval=D('0.456') + D('0.160'))),
        S('o12', 'o_1^{(2)} = 0.456', 12, E(2, w[0], "weight restated"), E(4, w[1], "weight restated"), E(6, w[2], "weight restated"),
          E(8, 0, "0.456*0"), E(9, w[1], "0.225*1"), E(10, w[2] / 2, "0.320*0.5"),
          E(11, o1[1], "o_1[1] = w12 + w13/2 = %s" % nstr(o1[1]))),
        S('b1', '\\boxed{o_1 \\approx [0.616,\\ 0.385]}', 3, A(1, o1[0], "o_1[0] restated", docval=D('0.616'), cf='o11'), E(2, o1[1], "o_1[1] restated")),
        S('b2', '\\boxed{o_2 \\approx [0.385,\\ 0.616]}', 3, E(1, o2[0], "o_2[0] = w21 + w23/2 = %s" % nstr(o2[0])),
          A(2, o2[1], "o_2[1] = w22 + w23/2 = %s, taken 'by symmetry' from o_1" % nstr(o2[1]), docval=D('0.616'), cf='o11')),
        S('o31', 'o_3^{(1)} = 0.333', 12, E(2, third, "1/3"), E(4, third, "1/3"), E(6, third, "1/3"), E(8, third, "(1/3)*1"),
          E(9, 0, "(1/3)*0"), E(10, Fraction(1, 6), "(1/3)*0.5"), E(11, h, "1/3 + 1/6")),
        S('o32', 'o_3^{(2)} = 0.333', 12, E(2, third, "1/3"), E(4, third, "1/3"), E(6, third, "1/3"), E(8, 0, "(1/3)*0"),
          E(9, third, "(1/3)*1"), E(10, Fraction(1, 6), "(1/3)*0.5"), E(11, h, "1/3 + 1/6")),
        S('b3', '\\boxed{o_3 = [0.500,\\ 0.500]}', 3, E(1, h, "o_3[0]"), E(2, h, "o_3[1]")),
        S('t1', 'Token 1 started as the pure noun', 5, A(3, o1[0], "o_1[0] restated", docval=D('0.616'), cf='o11'), E(4, o1[1], "o_1[1] restated")),
        S('u0', '^[1,\\ 0,\\ 0.5]', 3, E(0, 1, "unscaled score"), E(1, 0, "unscaled score"), E(2, h, "unscaled score")),
        S('u1', 'e^1 \\approx 2.7183', 6, E(1, e1, "e"), E(3, 1, "e^0"), E(5, eh, "e^0.5 = %s" % nstr(eh))),
        S('u2', 'Z = 2.7183 + 1 + 1.6487 = 5.3670', 4, E(0, e1, "e restated"), E(1, 1, "e^0"), E(2, eh, "e^0.5 restated"), E(3, Zu, "e + 1 + e^0.5 = %s" % nstr(Zu))),
        S('u3', '\\text{softmax}([1,0,0.5]) \\approx', 6, E(0, 1, "score"), E(1, 0, "score"), E(2, h, "score"),
          *[E(3 + j, wu[j], "unscaled softmax weight %d = %s" % (j, nstr(wu[j]))) for j in range(3)]),
        S('u4', '\\text{softmax}([0.7071,0,0.3536]) \\approx', 6, E(0, a, "scaled score"), E(1, 0, "scaled score"), E(2, c, "scaled score"),
          A(3, w[0], "scaled weight restated", docval=D('0.4556'), cf='w1'), A(4, w[1], "scaled weight restated", docval=D('0.2247'), cf='w1'),
          E(5, w[2], "scaled weight restated")),
        S('u5', 'the largest weight dropped from about', 5, A(0, wu[0], "largest unscaled weight e/Z = %s; 0.5065 rounded again" % nstr(wu[0]), docval=D('0.5065')),
          E(1, w[0], "largest scaled weight")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown blog post 'From Soft Alignment to Queries, Keys, and Values: Deriving the Transformer's Attention' (front matter date 2026-03-31, order 3, tags deep-learning/attention/transformers/q-k-v/self-attention; third post of a series that starts from Bahdanau attention); the search index did not expose the repository name (stored file id 53914309132, 22,171 characters). Kept: front matter (description shortened), section 1, 3.6, 5.3, the whole of section 6, section 7 and the parameter-count sentence of 8.2, every LaTeX display verbatim; prose paraphrased. Dropped: sections 2, 3.1-3.5, 4, 5.1-5.2 (derivations without numbers), 8.1/8.3, section 9 and the rest",
        "source_kind": "blog post (GitHub Markdown with LaTeX)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown with $$ displays: bmatrix matrices, inline $1 \\cdot 1 + 0 \\cdot 0 = 1$ dot products, \\approx, \\frac{2.0281}{4.4521}, \\boxed{o_1 \\approx [0.616,\\ 0.385]}, '1{,}048{,}576'; four-decimal exponentials and weights, three-decimal attention matrix and outputs",
        "conventions": "Row-vector convention, Q = K = V = X with x_3 = [0.5, 0.5]; scores QK^T = [[1,0,0.5],[0,1,0.5],[0.5,0.5,0.5]] (right) divided by √2: 0.7071 and 0.3536 right. e^(0.5/√2) = e^0.3535534 = 1.424119 → 1.4241, so the printed 1.4240 is wrong (slip; e^0.3536 would be 1.4242); Z_1 = 4.452234 → 4.4522, the printed 4.4521 is 2.0281+1+1.4240 (carried) and so are its three restatements. Exact weights [0.455528, 0.224607, 0.319866]: the printed 0.4556 and 0.2247 are one unit high (rounding; the document's own 2.0281/4.4521 = 0.455533 and 1/4.4521 = 0.224613 would round to 0.4555 and 0.2246), 0.3199 is right; their restatements in row 2 and in section 7.2 are carried. The 3-decimal matrix (0.456, 0.225, 0.320, 0.333) is right. o_1 = [0.615461, 0.384540]: 0.616 = 0.456 + 0.160 is rounding-carried (true 0.615), 0.385 right; o_2 = [0.384540, 0.615461], so its 0.616 (and the 0.616 in 6.6 and the boxed o_1) is carried. o_3 = [0.5, 0.5] right. Unscaled row: e = 2.7183, e^0.5 = 1.6487, Z = 5.3670 and [0.5065, 0.1863, 0.3072] right, but 'about 0.507' is 0.5065 rounded again (true 0.506480 → 0.506, rounding-carried). Not listed: x_1..x_3, W_V and the identity projections (given), d_k = 2, the operands of the dot products, section numbers, front matter numbers, head sizes 64/128, and 4·512² = 1{,}048{,}576 (right, but written with LaTeX group separators that split the literal into three tokens)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E5: positional-encoding topic article (sinusoidal worked example)
# ---------------------------------------------------------------------------
def doc_e5():
    name = "en_positional_encoding_topic_article.md"
    two_pi = 2 * mpmath.pi

    def pe(p):
        return [sin(Fraction(p)), cos(Fraction(p)), sin(Fraction(p, 100)), cos(Fraction(p, 100))]

    def dot(a, b):
        return cos(Fraction(b - a)) + cos(Fraction(b - a, 100))
    specs = [
        S('per', 'Sinusoidal encoding writes each position as sines', 18,
          E(12, two_pi, "period of dimension 0 = 2*pi = %s" % nstr(two_pi)),
          E(15, 10000 * two_pi, "10000 * 2*pi = %s, compared at its three significant figures" % nstr(10000 * two_pi), unit=100)),
        S('div', 'Compute sinusoidal PE for 4 positions with d = 4.', 13, E(7, 1, "10000^(0/4)"), E(12, 100, "10000^(2/4) = sqrt(10000)")),
        S('p0', 'Position 0: [sin(0/1)', 13, *[E(9 + j, v, "PE(0)[%d]" % j) for j, v in enumerate([0, 1, 0, 1])]),
        S('p1', 'Position 1: [sin(1), cos(1), sin(0.01)', 13, E(3, Fraction(1, 100), "1/100"), E(4, Fraction(1, 100), "1/100"),
          *[E(5 + j, v, "PE(1)[%d] = %s" % (j, nstr(v))) for j, v in enumerate(pe(1))]),
        S('p2', 'Position 2: [sin(2)', 9, E(3, Fraction(2, 100), "2/100"), E(4, Fraction(2, 100), "2/100"),
          *[E(5 + j, v, "PE(2)[%d] = %s" % (j, nstr(v))) for j, v in enumerate(pe(2))]),
        S('p3', 'Position 3: [sin(3)', 10, E(3, Fraction(3, 100), "3/100"), E(4, Fraction(3, 100), "3/100"),
          *[E(5 + j, v, "PE(3)[%d] = %s" % (j, nstr(v))) for j, v in enumerate(pe(3))],
          E(9, Fraction(3, 100), "slow-pair angle after 3 positions, 3/100")),
    ]
    rows = [['0.000', '1.000', '0.000', '1.000'], ['0.841', '0.540', '0.010', '1.000'],
            ['0.909', '-0.416', '0.020', '1.000'], ['0.141', '-0.990', '0.030', '1.000']]
    rows = [[D(x) for x in r] for r in rows]
    pairs = [(0, 1, 2), (0, 2, 5), (0, 3, 8), (1, 2, 11), (1, 3, 14), (2, 3, 17)]
    specs.append(S('dp', 'Dot product similarity matrix', 26,
                   *[W(k, dot(a, b), "PE(%d).PE(%d) = cos(%d) + cos(%d/100) = %s (from the printed 3-decimal rows: %s)"
                       % (a, b, b - a, b - a, nstr(dot(a, b), 8),
                          nstr(sum(M(x) * M(y) for x, y in zip(rows[a], rows[b])), 6)), 'slip')
                     for (a, b, k) in pairs]))
    meta = {
        "doc": name,
        "source": "GitHub JavaScript topic module of an interactive algorithms site ('export const topic = { id: 'positional-encoding', title: 'Positional Encoding', category: 'AI & ML', ... }' with a generator run() that yields matrix states and an 'export const article = { sections: [...] }' text); the search index did not expose the repository name (stored file id 54496818346, 17,818 characters). Kept: the constants and pe() function verbatim, and from the article the 'How it works' paragraph on clock periods (RoPE/ALiBi sentences condensed), one sentence of 'Why it works' and the whole 'Worked example' section with every number verbatim; prose paraphrased. Dropped: the run() generator, 'How to read the animation', 'The obvious approach', 'The wall', 'Cost and complexity', 'Where it wins/fails', sources",
        "source_kind": "interactive tutorial page source (GitHub JavaScript), transcribed as Markdown",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text formulas inside prose ('PE(pos, 2i) = sin(pos / 10000^(2i/d))', '2*pi', 'PE(3) . PE(5)'), bracketed three-decimal vectors, sentences ending in a number ('= 100.'), a thousands separator in '62,800'",
        "conventions": "d = 4, base 10000: divisors 1 and 100; the rows PE(0..3) = [sin p, cos p, sin(p/100), cos(p/100)] are right to 3 decimals (cos 0.02 = 0.9998 and cos 0.03 = 0.99955 round to 1.000). The clock periods 2*pi = 6.28 → 6.3 and 10000*2*pi = 62,832 → 'about 62,800' (judged at 3 significant figures) are right as arithmetic. The dot-product 'similarity matrix' is defined by the text as PE(a) . PE(b), which equals cos(b-a) + cos((b-a)/100): 1.540252 for distance 1, 0.583653 for distance 2, 0.009558 for distance 3; all six printed values (0.46, -0.41, -0.85, 0.99, 0.65, 0.27) are wrong (slip) — they also contradict the text's own claim that the product depends only on distance (0-1, 1-2 and 2-3 should be equal), and they are not cosine similarities either (those are half the dot products). Not listed: pos/dimension labels, D = 8, the year 2017, 'dims 0-1' and the 100/101 and 3/5 position examples",
    }
    return meta, specs


DOCS = [doc_e1, doc_e2, doc_e3, doc_e4, doc_e5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
