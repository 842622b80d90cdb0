"""Independent true values for the English (en_) first-contact documents of round 13.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is read
as an exact decimal.  Every listed number is located in its document programmatically (an
anchor string on its line + the index of the numeric token on that line), the literal is
asserted to stand at that line/column (1-based, counted in characters), its true value is
recomputed from the exact inputs (never from the document's rounded intermediates), and its
status is re-derived: "ok" iff the truth rounded half away from zero at the printed number of
places equals the literal.  An integer literal is compared exactly with an exact (rational)
truth; approximate integer claims ("~10M", "10x") get an mpf truth so that they are rounded.
Wrong numbers carry a kind: "slip" (fresh error), "carried" (correct arithmetic from, or a
repetition of, an earlier wrong printed number; "carried_from" gives its line), "rounding"
(truncated instead of rounded), "rounding-carried" (right only by the document's own rounded
intermediates), "convention" (right under a different convention than the document's).

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


def rounds_to(claimed, v):
    """True iff the literal `claimed` is v rounded half away from zero at its printed places.
    An integer literal is compared exactly with an exact (rational) truth."""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    exp = 0
    m = re.match(r'^(.*?)[eE]([-+]?\d+)$', lit)
    if m:
        lit, exp = m.group(1), int(m.group(2))
    if lit.endswith('.'):
        lit = lit[:-1]
    places = len(lit.split('.')[1]) if '.' in lit else 0
    digits = int(lit.replace('.', ''))          # literal = digits * 10^(exp - places)
    shift = places - exp
    if places == 0 and exp == 0 and is_exact(v):
        return Fraction(v) == Fraction(digits)
    if is_exact(v):
        q = Fraction(v) * Fraction(10) ** shift
        n = (abs(q) + Fraction(1, 2)).__floor__()
        n = n if q >= 0 else -n
        return n == digits
    q = mpf(v) * mpf(10) ** shift
    n = int(mpmath.floor(abs(q) + mpf('0.5')))
    n = n if q >= 0 else -n
    return n == digits


class Spec:
    def __init__(self, label, anchor, ntok, entries):
        self.label, self.anchor, self.ntok, self.entries = label, anchor, ntok, entries


def S(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what):
    return dict(idx=idx, truth=truth, what=what, status='ok', kind=None, cf=None)


def W(idx, truth, what, kind, cf=None):
    return dict(idx=idx, truth=truth, what=what, status='wrong', kind=kind, cf=cf)


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
        good = rounds_to(text, e['truth'])
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
        print("%-52s %3d numbers, %2d wrong" % (exp["doc"], len(exp["numbers"]), nw))
    return 1 if bad else 0





def auto(idx, truth, what, kind='slip', cf=None):
    """entry whose status is decided by the literal (resolved by resolve())"""
    return dict(idx=idx, truth=truth, what=what, status='auto', kind=kind, cf=cf)


def resolve(lines_doc, specs):
    for sp, found, toks in locate(lines_doc, specs, '?'):
        new = []
        for e in sp.entries:
            if e['status'] == 'auto':
                e = dict(e)
                if rounds_to(toks[e['idx']][0], e['truth']):
                    e['status'], e['kind'], e['cf'] = 'ok', None, None
                else:
                    e['status'] = 'wrong'
            new.append(e)
        sp.entries = tuple(new)
    return specs


def doclines(name):
    return open(os.path.join(HERE, name), encoding='utf-8').read().split('\n')


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]



def truncates_to(claimed, v):
    """True iff the literal equals v truncated (toward zero) at the printed places."""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    places = len(lit.split('.')[1]) if '.' in lit else 0
    digits = int(lit.replace('.', ''))
    q = (M(v) if is_exact(v) else mpf(v)) * mpf(10) ** places
    n = int(mpmath.floor(abs(q)))
    n = n if q >= 0 else -n
    return n == digits


def resolve_kinds(lines_doc, specs):
    """like resolve(); an 'auto' entry whose kind is 'auto' becomes 'rounding' when the literal is
    the truncation of the truth, else 'slip'"""
    for sp, found, toks in locate(lines_doc, specs, '?'):
        new = []
        for e in sp.entries:
            if e['status'] == 'auto':
                e = dict(e)
                lit = toks[e['idx']][0]
                if rounds_to(lit, e['truth']):
                    e['status'], e['kind'], e['cf'] = 'ok', None, None
                else:
                    e['status'] = 'wrong'
                    if e['kind'] == 'auto':
                        e['kind'] = 'rounding' if truncates_to(lit, e['truth']) else 'slip'
            new.append(e)
        sp.entries = tuple(new)
    return specs


R2 = mpmath.sqrt(2)


# ---------------------------------------------------------------------------
# Document E1: C test of a paged-attention kernel, softmax worked out in comments
# ---------------------------------------------------------------------------
def doc_e1():
    name = "en_paged_attention_c_test_softmax_comment.md"
    s0 = 1 / R2
    w0 = mpmath.exp(s0) / (mpmath.exp(s0) + 1)
    w1 = 1 / (mpmath.exp(s0) + 1)
    specs = [
        S('bs', 'size_t block_stride = block_size * n_kv_heads * head_dim; /* 8 */', 1, E(0, 4 * 1 * 2, "block_size x n_kv_heads x head_dim = 4 x 1 x 2")),
        S('kv', 'float kv[32]; /* 2 blocks', 7, E(0, 2 * 2 * 4 * 1 * 2, "array length 2 x 2 x 4 x 1 x 2"), E(6, 2 * 2 * 4 * 1 * 2, "2 x 2 x 4 x 1 x 2")),
        S('ss0', 'kv[8] = 0.0f; /* wait, slot stride', 3, E(2, 1 * 2, "n_kv_heads x head_dim = 1 x 2")),
        S('bs2', '* block_stride = 4 * 1 * 2 = 8', 4, E(3, 8, "4 x 1 x 2")),
        S('ss', '* slot_stride = 1 * 2 = 2', 3, E(2, 2, "1 x 2")),
        S('off', 'at offset 16 (after K for 2 blocks)', 11, E(9, 2 * 8, "V starts after n_blocks x block_stride = 2 x 8 K floats")),
        S('tk', 'size_t total_k = n_blocks * block_stride; /* 16 */', 1, E(0, 2 * 8, "n_blocks x block_stride = 2 x 8")),
        S('qk0', 'Q·K[0] = 1*1 + 0*0 = 1', 8, E(5, 1, "[1,0].[1,0]")),
        S('qk1', 'Q·K[1] = 1*0 + 0*1 = 0', 8, E(5, 0, "[1,0].[0,1]")),
        S('w0', 'softmax: weight[0] = e^0.707/(e^0.707+1)', 5,
          E(1, s0, "scaled score 1/sqrt(2) = 0.7071068"), E(2, s0, "1/sqrt(2) restated"),
          W(4, w0, "e^(1/sqrt2)/(e^(1/sqrt2)+1) = %s, which rounds to 0.670 (0.669 is the truncation)" % mp.nstr(w0, 8), 'rounding')),
        S('w1', 'weight[1] = 1/(e^0.707+1)', 5,
          E(2, s0, "1/sqrt(2) restated"),
          W(4, w1, "1/(e^(1/sqrt2)+1) = %s -> 0.330; the printed 0.331 is 1 - 0.669" % mp.nstr(w1, 8), 'carried', 'w0')),
        S('out', '* out = 0.669 * [10, 0] + 0.331 * [0, 20] = [6.69, 6.62]', 8,
          W(0, w0, "weight[0] restated (true 0.669762)", 'carried', 'w0'),
          W(3, w1, "weight[1] restated (true 0.330238)", 'carried', 'w1'),
          W(6, 10 * w0, "10 x weight[0] = %s -> 6.70 (6.69 follows from the printed 0.669)" % mp.nstr(10 * w0, 8), 'carried', 'w0'),
          W(7, 20 * w1, "20 x weight[1] = %s -> 6.60 (6.62 follows from the printed 0.331)" % mp.nstr(20 * w1, 8), 'carried', 'w1')),
        S('a0', 'cr_assert_float_eq(out[0], 10.0f * 0.669f', 6,
          W(2, w0, "expected weight[0] in the assertion (true 0.669762)", 'carried', 'w0'),
          W(5, 10 * w0, "out[0] restated in the message (true 6.69762)", 'carried', 'out')),
        S('a1', 'cr_assert_float_eq(out[1], 20.0f * 0.331f', 6,
          W(2, w1, "expected weight[1] in the assertion (true 0.330238)", 'carried', 'w1'),
          W(5, 20 * w1, "out[1] restated in the message (true 6.60476)", 'carried', 'out')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub C test file 'test_paged_attention.c — paged KV cache management + scheduling tests.' of a small C inference runtime (includes \"oxidize/paged_attention.h\", Criterion-style Test(paged, ...) cases for OcBlockPool, OcBlockTable, OcScheduler and the kernel oc_paged_attention_head); the search index did not expose the repository name (stored file id 57451247192, 20,539 characters). Kept: the file header comment and the last test, Test(paged, attention_kernel_basic), verbatim. Dropped: the block-pool, block-table, sequence, scheduler and block-hash tests (they assert counters and ids, no attention arithmetic) and the #include lines for stdint.h/string.h; the two paragraphs around the code are mine",
        "source_kind": "unit test source with hand-worked comments (GitHub C)",
        "language": "en",
        "errors_as_published": True,
        "notation": "C block comments with '×' products ('2 blocks × 2 (K+V) × 4 slots × 1 head × 2 dim = 32'), trailing '/* 8 */' value comments, 'e^0.707/(e^0.707+1) ≈ 0.669', exp(1/sqrt(2)), float literals with f suffix in assertions ('10.0f * 0.669f'), expected values inside assertion messages ('\"out[0] approx 6.69\"')",
        "conventions": "Scores are divided by sqrt(head_dim) = sqrt(2); the softmax runs over the two cached tokens only (Q·K = [1, 0] -> [0.7071068, 0]). weight[0] = 0.669762 (printed 0.669, a truncation), weight[1] = 0.330238 (printed 0.331 = 1 - 0.669, carried); out = [6.697615, 6.604769] (printed [6.69, 6.62], carried from the printed weights) and the same values restated in the assertions. Layout arithmetic (block_stride 8, slot_stride 2, kv length 32, V offset 16) is exact and correct. Not listed: the cache contents, the query, index expressions such as kv[0 * 8 + 1 * 2 + 0 * 2 + 1], call arguments, the tolerance 0.1f, and the header's '→ output should be V[0] = [10, 0]' (a restatement of the value row V[0]; as an expected output it is superseded by the later comment, whose softmax gives [6.70, 6.60])",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E2: PyTorch unit test of a single-query attention module, comment arithmetic
# ---------------------------------------------------------------------------
def doc_e2():
    name = "en_attention_unittest_forward_context_comment.md"
    s0 = 1 / R2
    e0 = mpmath.exp(s0)
    p0 = e0 / (e0 + 1)
    p1 = 1 / (e0 + 1)
    specs = [
        S('d0', '# [1, 0] * [1, 0] = 1.0', 5, E(4, 1, "[1,0].[1,0]")),
        S('d1', '# [1, 0] * [0, 1] = 0.0', 5, E(4, 0, "[1,0].[0,1]")),
        S('r2', 'sqrt(2) = 1.414', 2, E(1, R2, "sqrt(2)")),
        S('sc', '# -> [1.0 / 1.414, 0.0] = [0.7071, 0.0]', 5,
          E(0, 1, "score 1 restated"), E(1, R2, "sqrt(2) restated"), E(2, 0, "score 0 restated"),
          E(3, s0, "1/sqrt(2) = 0.70710678"), E(4, 0, "0/sqrt(2)")),
        S('sd', '# Softmax di [0.7071, 0.0]:', 2, E(0, s0, "scaled score restated"), E(1, 0, "scaled score restated")),
        S('sm0', '# e^0.7071 / (e^0.7071 + e^0) = 2.028 / (2.028 + 1) = 0.6697', 7,
          E(0, s0, "restated"), E(1, s0, "restated"), E(2, 0, "scaled score 0 restated"),
          E(3, e0, "e^(1/sqrt2) = %s" % mp.nstr(e0, 8)), E(4, e0, "restated"), E(5, 1, "e^0"),
          W(6, p0, "e^(1/sqrt2)/(e^(1/sqrt2)+1) = %s -> 0.6698; 0.6697 is 2.028/3.028 = 0.669749 from the rounded exponential" % mp.nstr(p0, 8), 'rounding-carried')),
        S('sm1', '# e^0      / (e^0.7071 + e^0) = 1 / 3.028 = 0.3303', 6,
          E(0, 0, "restated"), E(1, s0, "restated"), E(2, 0, "restated"), E(3, 1, "e^0"),
          E(4, e0 + 1, "e^(1/sqrt2) + 1 = %s" % mp.nstr(e0 + 1, 8)),
          W(5, p1, "1/(e^(1/sqrt2)+1) = %s -> 0.3302; 0.3303 is 1/3.028 = 0.330251" % mp.nstr(p1, 8), 'rounding-carried')),
        S('ctx', '# 0.6697 * [1, 0] + 0.3303 * [0, 1] = [0.6697, 0.3303]', 8,
          W(0, p0, "weight restated (true 0.669762)", 'carried', 'sm0'), W(3, p1, "weight restated (true 0.330238)", 'carried', 'sm1'),
          W(6, p0, "context[0] = weight[0] (V = I)", 'carried', 'sm0'), W(7, p1, "context[1] = weight[1]", 'carried', 'sm1')),
        S('exp', 'expected_context = torch.tensor([[[0.6697, 0.3303]]])', 2,
          W(0, p0, "expected context[0] (true 0.669762)", 'carried', 'ctx'), W(1, p1, "expected context[1] (true 0.330238)", 'carried', 'ctx')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Python test file 'import unittest ... from attention import Attention ... class AttentionTest(unittest.TestCase)' for a single-query attention module with init_state(inputs) and forward(query, mask=None); the search index did not expose the repository name (stored file id 58634606527, 7,907 characters). Kept verbatim: the imports, setUp (only its first three lines; the six lines that copy W_Q/W_K/W_V weights and biases into attributes are dropped) and test_forward with its comment. Dropped: test_init_state, the wrong-input-dimension tests, test_forward_q_value, test_forward_scores_value, the mask tests and the unittest.main() guard (they compare tensors computed by torch, with no printed arithmetic). The two paragraphs around the code are mine",
        "source_kind": "unit test source with hand-worked comments (GitHub Python/PyTorch)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Python '#' comments with vector products '[1, 0] * [1, 0] = 1.0', '-> [1.0 / 1.414, 0.0] = [0.7071, 0.0]', exponentials written 'e^0.7071', chained equalities 'e^0.7071 / (e^0.7071 + e^0) = 2.028 / (2.028 + 1) = 0.6697', an Italian word in an English comment ('Softmax di'), and the expectation as a nested torch.tensor literal",
        "conventions": "Identity projections and zero biases, so Q = K = V = the inputs; scores divided by sqrt(d_model) = sqrt(2) (equal to sqrt(d_k) here). softmax([1/sqrt2, 0]) = [0.669762, 0.330238]; the comment's 0.6697 and 0.3303 are the quotients of its own rounded 2.028 and 3.028 (rounding-carried) and are repeated in the context line and in expected_context (carried). The exact 0.70710678 and e^(1/sqrt2) = 2.028115 are printed correctly. Not listed: the inputs and query tensors, the seed 21, Attention(2, 2), the V rows [1, 0] and [0, 1] inside the context line, and the tolerances 1e-3",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E3: "Positional Encoding in Transformers: A Complete Guide" (video notes)
# ---------------------------------------------------------------------------
def doc_e3():
    name = "en_positional_encoding_guide_pairs_frequencies.md"
    sin, cos = mpmath.sin, mpmath.cos
    r1 = mpf(10000) ** (mpf(2) / 512)
    r2 = mpf(10000) ** (mpf(4) / 512)
    r255 = mpf(10000) ** (mpf(510) / 512)

    def pe(p):
        return [sin(p), cos(p), sin(p / r1), cos(p / r1), sin(p / r2), cos(p / r2)]
    P1, P2, P20, P21, P80 = pe(mpf(1)), pe(mpf(2)), pe(mpf(20)), pe(mpf(21)), pe(mpf(80))
    n = lambda v: mp.nstr(v, 6)
    emb = [D('2.3'), D('-1.7'), D('0.9'), D('-3.2'), D('1.5')]
    specs = [
        S('s1', 'Position 1: sin(1) = 0.841', 3, E(2, sin(1), "sin 1")),
        S('s2', 'Position 2: sin(2) = 0.909', 3, E(2, sin(2), "sin 2")),
        S('s3', 'Position 3: sin(3) = 0.141', 3, E(2, sin(3), "sin 3")),
        S('c1', 'Position 1: [sin(1), cos(1)] = [0.841, 0.540]', 5, E(3, sin(1), "sin 1"), E(4, cos(1), "cos 1")),
        S('c2', 'Position 2: [sin(2), cos(2)] = [0.909, -0.416]', 5, E(3, sin(2), "sin 2"), E(4, cos(2), "cos 2")),
        S('c3', 'Position 3: [sin(3), cos(3)] = [0.141, -0.990]', 5, E(3, sin(3), "sin 3"), E(4, cos(3), "cos 3")),
        S('np', 'Position encoding = 512 dimensions from 256 pairs:', 2, E(1, 256, "512 / 2 sin-cos pairs")),
        S('d25', ' sin(pos/2.5), cos(pos/2.5),', 3,
          W(0, r1, "divisor of pair 2 (i = 1): 10000^(2/512) = %s" % n(r1), 'slip'),
          W(1, r1, "same divisor repeated", 'carried', 'd25')),
        S('d63', ' sin(pos/6.3), cos(pos/6.3),', 3,
          W(0, r2, "divisor of pair 3 (i = 2): 10000^(4/512) = %s" % n(r2), 'slip'),
          W(1, r2, "same divisor repeated", 'carried', 'd63')),
        S('d256', ' sin(pos/10000), cos(pos/10000)]', 3,
          W(0, r255, "divisor of pair 256 (i = 255): 10000^(510/512) = %s; 10000 would be the divisor of i = 256 under the document's own 'i = 0 to d_model/2'" % n(r255), 'convention'),
          W(1, r255, "same divisor repeated", 'convention')),
        S('e10', 'i=0: PE(1,0) = sin(1/10000^0) = sin(1) = 0.841', 8, E(7, P1[0], "PE(1,0) = sin 1")),
        S('e11', '     PE(1,1) = cos(1/10000^0) = cos(1) = 0.540', 7, E(6, P1[1], "PE(1,1) = cos 1")),
        S('e12', 'i=1: PE(1,2) = sin(1/10000^(2/512)) = sin(1/2.5) = 0.389', 10,
          W(8, r1, "10000^(2/512) = %s restated as 2.5" % n(r1), 'carried', 'd25'),
          W(9, P1[2], "PE(1,2) = sin(1/1.036633) = %s; 0.389 is sin(0.4) from the wrong divisor" % n(P1[2]), 'carried', 'd25')),
        S('e13', '     PE(1,3) = cos(1/10000^(2/512)) = cos(1/2.5) = 0.921', 9,
          W(7, r1, "divisor restated", 'carried', 'd25'),
          W(8, P1[3], "PE(1,3) = cos(0.964662) = %s; 0.921 is cos(0.4)" % n(P1[3]), 'carried', 'd25')),
        S('e14', 'i=2: PE(1,4) = sin(1/10000^(4/512)) = sin(1/6.3) = 0.158', 10,
          W(8, r2, "10000^(4/512) = %s restated as 6.3" % n(r2), 'carried', 'd63'),
          W(9, P1[4], "PE(1,4) = sin(1/1.074608) = %s; 0.158 is sin(1/6.3)" % n(P1[4]), 'carried', 'd63')),
        S('e15', '     PE(1,5) = cos(1/10000^(4/512)) = cos(1/6.3) = 0.987', 9,
          W(7, r2, "divisor restated", 'carried', 'd63'),
          W(8, P1[5], "PE(1,5) = cos(0.930569) = %s; 0.987 is cos(1/6.3)" % n(P1[5]), 'carried', 'd63')),
        S('e20', 'i=0: PE(2,0) = sin(2) = 0.909', 5, E(4, P2[0], "sin 2")),
        S('e21', '     PE(2,1) = cos(2) = -0.416', 4, E(3, P2[1], "cos 2")),
        S('e22', 'i=1: PE(2,2) = sin(2/2.5) = 0.717', 6,
          W(4, r1, "divisor restated", 'carried', 'd25'),
          W(5, P2[2], "PE(2,2) = sin(2/1.036633) = %s; 0.717 is sin(0.8)" % n(P2[2]), 'carried', 'd25')),
        S('e23', '     PE(2,3) = cos(2/2.5) = 0.696', 5,
          W(3, r1, "divisor restated", 'carried', 'd25'),
          W(4, P2[3], "PE(2,3) = cos(1.929324) = %s; even cos(0.8) = 0.696707 would round to 0.697" % n(P2[3]), 'carried', 'd25')),
        S('p20', 'Position 20: [0.91, 0.41, 0.83, 0.55, ...]', 5,
          E(1, P20[0], "sin 20"), E(2, P20[1], "cos 20"),
          W(3, P20[2], "PE(20,2) = sin(20/1.036633) = %s" % n(P20[2]), 'slip'),
          W(4, P20[3], "PE(20,3) = cos(20/1.036633) = %s" % n(P20[3]), 'slip')),
        S('p21', 'Position 21: [0.89, 0.45, 0.83, 0.56, ...]', 5,
          W(1, P21[0], "sin 21 = %s" % n(P21[0]), 'slip'), W(2, P21[1], "cos 21 = %s" % n(P21[1]), 'slip'),
          W(3, P21[2], "PE(21,2) = %s" % n(P21[2]), 'slip'), W(4, P21[3], "PE(21,3) = %s" % n(P21[3]), 'slip')),
        S('p20b', 'Position 20: [0.91, 0.41, 0.83, 0.55, 0.72, ...]', 6,
          E(1, P20[0], "sin 20"), E(2, P20[1], "cos 20"),
          W(3, P20[2], "PE(20,2) restated (true %s)" % n(P20[2]), 'carried', 'p20'),
          W(4, P20[3], "PE(20,3) restated (true %s)" % n(P20[3]), 'carried', 'p20'),
          W(5, P20[4], "PE(20,4) = sin(20/1.074608) = %s" % n(P20[4]), 'slip')),
        S('p80', 'Position 80: [-0.99, 0.14, 0.15, -0.98, -0.66, ...]', 6,
          E(1, P80[0], "sin 80 = %s" % n(P80[0])),
          W(2, P80[1], "cos 80 = %s" % n(P80[1]), 'slip'),
          W(3, P80[2], "PE(80,2) = %s" % n(P80[2]), 'slip'),
          W(4, P80[3], "PE(80,3) = %s" % n(P80[3]), 'slip'),
          W(5, P80[4], "PE(80,4) = %s" % n(P80[4]), 'slip')),
        S('cat', 'Concatenated: [1024 dims]', 1, E(0, 512 + 512, "512 + 512")),
        S('wq', '- W_Q: [1024 × 64] instead of [512 × 64]', 4, E(0, 1024, "input width after concatenation")),
        S('x2', '- 2× parameters per attention head!', 1, E(0, Fraction(1024 * 64, 512 * 64), "(1024 x 64) / (512 x 64)")),
        S('pat', '[~0.84, ~0.54, ~0.39, ~0.92, ~0.16, ...]', 5,
          E(0, P1[0], "PE(1,0) restated"), E(1, P1[1], "PE(1,1) restated"),
          W(2, P1[2], "PE(1,2) restated (true %s)" % n(P1[2]), 'carried', 'e12'),
          W(3, P1[3], "PE(1,3) restated (true %s)" % n(P1[3]), 'carried', 'e13'),
          W(4, P1[4], "PE(1,4) restated (true %s)" % n(P1[4]), 'carried', 'e14')),
        S('sum', '[3.14, -1.16, 1.29, -2.28, 1.66, ...]', 5,
          *[(E if k < 2 else (lambda i, t, w: W(i, t, w, 'carried', 'pat')))(k, M(emb[k]) + P1[k], "%s + PE(1,%d) = %s" % (emb[k], k, n(M(emb[k]) + P1[k]))) for k in range(5)]),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown notes '# Positional Encoding in Transformers: A Complete Guide' written from a YouTube lecture (first line 'Source: https://youtu.be/LBsyiaEki_8'; sections Introduction, The Problem, Designing Positional Encoding, The Sinusoidal Solution, Why It Works, Addition vs Concatenation, Mathematical Formulation, Summary); the search index did not expose the repository name (stored file id 31251370817, 9,212 characters). Kept verbatim: the Step 1-3 code blocks, the official-formula block, the Example Calculation for positions 1 and 2, the 'nearby/distant positions' vectors, the concatenation figures and the sinusoid + embedding addition block; section order rearranged slightly (the formula section follows the step blocks as in the source) and all prose reworded. Dropped: the table of contents, the order-agnostic and RNN diagrams, the naive-approach lists, three embedded images, the heat-map sketch, the 'PE(pos + K) = T(K) × PE(pos)' remark, the semantic-cluster paragraph, the summary and resources",
        "source_kind": "lecture notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text code blocks with chained equalities 'PE(1,2) = sin(1/10000^(2/512)) = sin(1/2.5) = 0.389', caret exponents '10000^(2i/d_model)', bracketed vectors with ellipses, tilde-prefixed approximations '[~0.84, ~0.54, ...]', arrows '←' and check marks, dimension lists '[1024 × 64]', '2×'",
        "conventions": "The stated formula with d_model = 512: pair i (0-based) uses divisor 10000^(2i/512), so pair 2 divides by 1.036633 and pair 3 by 1.074608, not 2.5 and 6.3 (slips; 2.5 and 6.3 would be the divisors for d_model ≈ 20). Every value computed with those divisors (PE(1,2..5), PE(2,2..3), the 0.39/0.92/0.16 of the pattern line and the sums 1.29/-2.28/1.66) is carried; PE(2,3) = 0.696 is off even against its own cos(0.8) = 0.696707. The divisor of pair 256 is 10000^(510/512) = 9646.62; the printed 10000 fits the document's own 'i = 0 to d_model/2' upper bound (convention). The illustrative vectors at positions 20, 21 and 80 are checked against the same formula: sin 20 = 0.912945, cos 20 = 0.408082 and sin 80 = -0.993889 are right, every other entry is wrong (none of them follows from the 2.5 divisor either). sin/cos of 1, 2, 3 and the concatenation figures 1024 and 2× are right. Not listed: position and index labels, d_model = 512, the word-embedding vector [2.3, -1.7, 0.9, -3.2, 1.5], the formula exponents, '64' head widths",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E4: Transformer Deep Dive Part 0, 3-token example, scaling, parameters, PE table
# ---------------------------------------------------------------------------
def doc_e4():
    name = "en_transformer_deep_dive_part0_small_matrices.md"
    X = [[1, 0], [0, 1], [1, 1]]
    WQ, WK, WV = [[1, 0], [0, 1]], [[0, 1], [1, 0]], [[1, 1], [0, 1]]
    Q, K, V = matmul(X, WQ), matmul(X, WK), matmul(X, WV)
    SC = [[sum(Q[i][c] * K[j][c] for c in range(2)) for j in range(3)] for i in range(3)]
    ss = [[M(SC[i][j]) / R2 for j in range(3)] for i in range(3)]
    w = [softmax(ss[i]) for i in range(3)]
    out = [[sum(w[i][j] * V[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    pw = [[D('0.27'), D('0.37'), D('0.37')], [D('0.37'), D('0.27'), D('0.37')], [D('0.22'), D('0.22'), D('0.56')]]
    pout = [[sum(pw[i][j] * V[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    n = lambda v: mp.nstr(v, 6)
    sm123 = softmax([1, 2, 3])
    sm8 = softmax([8, 16, 24])
    sin, cos = mpmath.sin, mpmath.cos
    specs = [
        S('qkv0', 'Q = X · W_Q = [[1, 0],    K = X · W_K = [[0, 1],    V = X · W_V = [[1, 1],', 6,
          *[E(k, [Q, K, V][k // 2][0][k % 2], "%s[0][%d]" % ("QKV"[k // 2], k % 2)) for k in range(6)]),
        S('qkv1', '[0, 1],                   [1, 0],                   [0, 1],', 6,
          *[E(k, [Q, K, V][k // 2][1][k % 2], "%s[1][%d]" % ("QKV"[k // 2], k % 2)) for k in range(6)]),
        S('qkv2', '[1, 1]]                   [1, 1]]                   [1, 2]]', 6,
          *[E(k, [Q, K, V][k // 2][2][k % 2], "%s[2][%d]" % ("QKV"[k // 2], k % 2)) for k in range(6)]),
    ]
    for i, a in enumerate(['Q · K^T = [[1·0+0·1', '[0·0+1·1, 0·1+1·0', '[1·0+1·1, 1·1+1·0']):
        specs.append(S('s%d' % i, a, 15, *[E(12 + j, SC[i][j], "q_%d . k_%d" % (i, j)) for j in range(3)]))
    specs.append(S('r2', '**Step 3: Scale by sqrt(d_k) = sqrt(2) ≈ 1.414.**', 3, E(2, R2, "sqrt(2)")))
    for i, a in enumerate(['scaled = [[0.00, 0.71, 0.71],', '[0.71, 0.00, 0.71],', '[0.71, 0.71, 1.41]]']):
        specs.append(S('t%d' % i, a, 3, *[E(j, ss[i][j], "score / sqrt2 = %s" % n(ss[i][j])) for j in range(3)]))
    for i, (a, nt) in enumerate([('weights = [[0.27, 0.37, 0.37],', 6), ('[0.37, 0.27, 0.37],     # token 1', 6), ('[0.22, 0.22, 0.56]]', 4)]):
        specs.append(S('w%d' % i, a, nt, *[W(j, w[i][j], "softmax row %d entry %d = %s" % (i, j, n(w[i][j])), 'slip') if not rounds_to(['0.27 0.37 0.37', '0.37 0.27 0.37', '0.22 0.22 0.56'][i].split()[j], w[i][j]) else E(j, w[i][j], "softmax") for j in range(3)]))
    for i in range(3):
        ents = [W(1 + 3 * j, w[i][j], "weight restated (true %s)" % n(w[i][j]), 'carried', 'w%d' % i) for j in range(3)]
        for c in range(2):
            lit = ['0.64 1.37', '0.74 1.37', '0.78 1.56'][i].split()[c]
            from_printed = rounds_to(lit, pout[i][c])
            ents.append(W(10 + c, out[i][c], "output[%d][%d] = %s (the printed weights give %s)" % (i, c, n(out[i][c]), pout[i][c]),
                          'carried' if from_printed else 'slip', ('w%d' % i) if from_printed else None))
        specs.append(S('o%d' % i, 'output[%d] = ' % i, 12, *ents))
    specs += [
        S('s141', '(score 1.41 before softmax)', 2, E(1, 2 / R2, "2 / sqrt(2)")),
        S('sd', 'so the standard deviation of the dot products is sqrt(64) = 8', 7,
          E(4, 8, "sqrt(64)"), E(5, -16, "-2 standard deviations"), E(6, 16, "+2 standard deviations")),
        S('sm1', 'softmax([1.0, 2.0, 3.0])     = [0.09, 0.24, 0.67]', 6, *[E(3 + k, sm123[k], "softmax([1,2,3])[%d] = %s" % (k, n(sm123[k]))) for k in range(3)]),
        S('sm2', 'softmax([8.0, 16.0, 24.0])   = [0.00, 0.00, 1.00]', 6, *[E(3 + k, sm8[k], "softmax([8,16,24])[%d] = %s" % (k, mp.nstr(sm8[k], 6))) for k in range(3)]),
        S('v1', 'brings the variance back to d_k / d_k = 1', 1, E(0, 1, "d_k / d_k")),
        S('b1', 'Before scaling (d_k=64): values in [-16, +16]', 3, E(1, -16, "-2 x 8"), E(2, 16, "+2 x 8")),
        S('b2', 'After scaling (d_k=64):  values in [-2, +2]', 3, E(1, -2, "-16 / 8"), E(2, 2, "16 / 8")),
        S('bil', '100,000 × 100,000 attention matrix means 10 billion entries', 5, E(4, Fraction(100000 * 100000, 10 ** 9), "100,000^2 in billions")),
        S('mh', 'With d_model = 512 and h = 8 heads', 9,
          E(4, Fraction(512, 8), "512 / 8"), E(5, 64, "head width restated"), E(6, 8 * 64, "8 x 64 after concatenation"), E(7, 8 * 64, "h x d_v")),
        S('ph', 'Per head: 3 × (512 × 64) = 98,304', 4, E(3, 3 * 512 * 64, "3 x 512 x 64")),
        S('ah', 'All heads: 8 × 98,304 = 786,432', 3, E(2, 8 * 98304, "8 x 98,304")),
        S('op', 'Output projection: 512 × 512 = 262,144', 3, E(2, 512 * 512, "512 x 512")),
        S('tot', 'Total: 1,048,576 parameters ≈ 1M', 2, E(0, 8 * 98304 + 512 * 512, "786,432 + 262,144"), E(1, mpf(1048576) / 10 ** 6, "in millions")),
        S('sh', '(3 × 512 × 512 + 512 × 512 = 1,048,576 parameters)', 7, E(6, 3 * 512 * 512 + 512 * 512, "3 x 512^2 + 512^2")),
    ]
    F = Fraction
    for p in range(3):
        div = [1, 1, 100, 100]
        for d in range(4):
            arg = F(p, div[d])
            val = sin(M(arg)) if d % 2 == 0 else cos(M(arg))
            ents = [E(7, div[d], "10000^(%d/4)" % (2 * (d // 2))), E(8, arg, "%d / %d" % (p, div[d])), E(9, val, "PE(%d,%d) = %s" % (p, d, n(val)))]
            specs.append(S('pe%d%d' % (p, d), '  PE(%d,%d) = ' % (p, d), 10, *ents))
        vec = [sin(M(F(p))), cos(M(F(p))), sin(M(F(p, 100))), cos(M(F(p, 100)))]
        specs.append(S('pv%d' % p, '  → PE(%d) = [' % p, 5, *[E(1 + d, vec[d], "PE(%d)[%d]" % (p, d)) for d in range(4)]))
    meta = {
        "doc": name,
        "source": "GitHub Markdown chapter 'transformer-deep-dive-part-0' of a Transformer series (sections 1-8: why the Transformer exists, self-attention from first principles, scaled dot-product attention, multi-head attention, positional encoding, what's next; it links '[Part 1 — The Architecture: Inside the Transformer](transformer-deep-dive-part-1.md)'); the search index did not expose the repository name (stored file id 53658506856, 45,384 characters). Kept: section 4.4 (all code blocks verbatim), the two softmax lines and the before/after-scaling lines of 5.2, the n = 100,000 cost sentence of 5.4, the head-splitting numbers of 6.2, the parameter block of 6.4 and the d_model = 4 table of 7.3 verbatim; prose reworded and shortened. Dropped: sections 1-3 (history, RNN limits), the library analogy and Q/K/V motivation of 4.1-4.3, 4.5, 5.1, 5.3, 6.1, 6.3, 6.5, 7.1-7.2, 7.4-7.6 and section 8 (no computed numbers)",
        "source_kind": "tutorial chapter (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text matrices in code blocks with '·' products ('1·0+0·1'), side-by-side Q/K/V matrices on shared lines, row comments after '#', scaled scores to 2 decimals, 'output[0] = 0.27·[1,1] + 0.37·[0,1] + 0.37·[1,2] = [0.64, 1.37]', thousands separators ('98,304', '1,048,576', '100,000'), '≈ 1M', a LaTeX display formula for PE, and a PE table written as chained equalities 'sin(1 / 10000^(2/4)) = sin(1/100) = sin(0.01) = 0.010'",
        "conventions": "Q = X W_Q, K = X W_K, V = X W_V as printed (all correct); scores divided by the exact sqrt(2). The row softmaxes are [0.197776, 0.401112, 0.401112], [0.401112, 0.197776, 0.401112] and [0.248255, 0.248255, 0.503490]: all nine printed weights (0.27/0.37, 0.22/0.56) are slips. Outputs with the true weights: [0.598888, 1.401112], [0.802224, 1.401112], [0.751745, 1.503490]; the first components and output[2] follow from the printed weights (carried), but the second components of output[0] and output[1] are printed 1.37 where even the printed weights give 1.38 (slips). softmax([1,2,3]) and softmax([8,16,24]) (e^-16 and e^-8 terms 1.1e-7 and 3.4e-4) are right to 2 decimals; 100,000^2 = 10 billion, the head split and all parameter counts are right; the d_model = 4 positional-encoding table is right (cos 0.01 = 0.99995 -> 1.000). Not listed: X, W_Q, W_K, W_V, the products inside the Q·K^T expansion, token/section numbers, d_model, h, n = 512, the 2π wavelengths",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E5: "Advanced Sampling" lesson: temperature table, top-p, min-p, interview exercise
# ---------------------------------------------------------------------------
def doc_e5():
    name = "en_advanced_sampling_lesson_temperature_topp_minp.md"
    L = [D('4.2'), D('3.8'), D('1.5'), D('0.8')]
    n = lambda v: mp.nstr(v, 6)
    specs = []
    for T, anchor in [('0.1', 'probs_0.1 = ['), ('0.7', 'probs_0.7 = ['), ('1.0', 'probs_1.0 = ['), ('2.0', 'probs_2.0 = [')]:
        p = softmax([x / D(T) for x in L])
        specs.append(S('t' + T, anchor, 5, *[auto(1 + k, p[k], "softmax(logits / %s)[%d] = %s" % (T, k, n(p[k])), 'auto') for k in range(4)]))
    cum = [D('0.45'), D('0.35'), D('0.08'), D('0.04'), D('0.02')]
    run = [sum(cum[:k + 1]) for k in range(5)]
    for k, a in enumerate(['1. "the" (0.45)  → 0.45', '2. "a" (0.35)    → 0.80', '3. "an" (0.08)   → 0.88', '4. "some" (0.04) → 0.92', '5. "many" (0.02) → 0.94']):
        specs.append(S('c%d' % k, a, 4 if k == 3 else 3, E(2, run[k], "cumulative sum = %s" % run[k])))
    specs += [
        S('p9', 'p=0.9: Consider tokens 1-4', 3, E(2, 4, "first cumulative >= 0.9 is token 4 (0.92)")),
        S('mx1', 'max_prob = 0.90', 1, E(0, D('0.90'), "max of [0.90, 0.05, 0.03, 0.02]")),
        S('th1', 'threshold = 0.05 * 0.90 = 0.045', 3, E(2, D('0.05') * D('0.90'), "0.05 x 0.90")),
        S('kp1', 'Keeps: [0.90, 0.05]  ✅ Top 2', 3, E(0, D('0.90'), "kept (>= 0.045)"), E(1, D('0.05'), "kept (>= 0.045)"), E(2, 2, "two probabilities >= 0.045")),
        S('mx2', 'max_prob = 0.15', 1, E(0, D('0.15'), "max of the flat list")),
        S('th2', 'threshold = 0.05 * 0.15 = 0.0075', 3, E(2, D('0.05') * D('0.15'), "0.05 x 0.15")),
        S('kp2', 'Keeps: All 8 tokens', 1, E(0, 8, "all eight probabilities >= 0.0075")),
    ]
    for T, a, lg in [('1.0', 'temp = 1.0: softmax([2, 1, 0])', ['2', '1', '0']), ('0.5', 'temp = 0.5: softmax([4, 2, 0])', ['4', '2', '0']), ('2.0', 'temp = 2.0: softmax([1, 0.5, 0])', ['1', '0.5', '0'])]:
        sc = [x / D(T) for x in [D('2.0'), D('1.0'), D('0.0')]]
        p = softmax(sc)
        specs.append(S('q' + T, a, 7, *[E(1 + k, sc[k], "logit / %s" % T) for k in range(3)],
                       *[auto(4 + k, p[k], "softmax([2,1,0] / %s)[%d] = %s" % (T, k, n(p[k])), 'auto') for k in range(3)]))
    specs = resolve_kinds(doclines(name), specs)
    meta = {
        "doc": name,
        "source": "GitHub Markdown lesson '# Advanced Sampling: Beyond Temperature and Top-K' (Module 5, Lesson 5 of a llama.cpp course; learning objectives, sampling fundamentals, temperature, top-k, top-p, min-p, Mirostat v1/v2, locally typical sampling, repetition penalties, llama.cpp pipeline, benchmarks, production configs, interview questions; next module '../../06-server-production/docs/'); the search index did not expose the repository name (stored file id 49307974261, 19,510 characters). Kept verbatim: temperature_sample, the 'Effect of Temperature' block, the top-p cumulative example (without its last line 'p=0.95: Consider tokens 1-5', which is wrong as published since the five listed tokens only reach 0.94 < 0.95, but whose true cutoff depends on an unlisted sixth probability, so it has no exact truth), both min-p examples and interview question 5; connecting prose reworded. Dropped: the opening logits dict with '32,000 more tokens' and its probability dict (computed over a vocabulary that is not given), greedy and top-k sections, Mirostat, typical sampling, penalties, pipelines, benchmark and config tables, questions 1-4",
        "source_kind": "course lesson (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Python code blocks with list literals and trailing comments ('probs_0.7 = [0.48, 0.38, 0.10, 0.04]  # Good diversity'), arrow lists for cumulative sums ('\"a\" (0.35)    → 0.80'), check-mark annotations, 'threshold = 0.05 * 0.90 = 0.045', inline 'softmax([2, 1, 0]) = [0.66, 0.24, 0.09]'",
        "conventions": "The temperature table is taken as the softmax of the four listed logits [4.2, 3.8, 1.5, 0.8] divided by T (the list is all the code defines): " + "; ".join("T = %s -> [%s]" % (T, ", ".join(mp.nstr(x, 4) for x in softmax([v / D(T) for v in L]))) for T in ('0.1', '0.7', '1.0', '2.0')) + "; printed values that are neither the rounding nor the truncation of these are slips. Cumulative sums and min-p thresholds are exact and right. Interview question: softmax([2,1,0]) = [0.665241, 0.244728, 0.090031] (0.66 is a truncation), softmax([4,2,0]) = [0.866813, 0.117310, 0.015876] (0.84 and 0.14 are slips), softmax([1,0.5,0]) = [0.506480, 0.307196, 0.186324] (0.49 is a slip, 0.30 and 0.18 are truncations). Not listed: the logits and temperatures, the given probabilities 0.45/0.35/0.08/0.04/0.02 and the min-p lists, p and min_p settings, the 'tokens 1-4' lower bound '1'",
    }
    return meta, specs

DOCS = [doc_e1, doc_e2, doc_e3, doc_e4, doc_e5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
