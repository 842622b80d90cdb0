"""Independent true values for the English (en_) first-contact documents of round 10.

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


def main(argv, docs):
    mode = argv[1] if len(argv) > 1 else '--check'
    assert mode in ('--check', '--write', '--uncovered'), mode
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


# ---------------------------------------------------------------------------
# Document A: "The cat sat" context vectors (chat-style answer, no scaling)
# ---------------------------------------------------------------------------
def doc_a():
    emb = {'The': [D('0.2'), D('0.5')], 'cat': [D('0.8'), D('0.1')], 'sat': [D('0.3'), D('0.9')]}
    names = ['The', 'cat', 'sat']
    sc = {(a, b): emb[a][0] * emb[b][0] + emb[a][1] * emb[b][1] for a in names for b in names}
    w = {a: softmax([sc[(a, b)] for b in names]) for a in names}
    ctx = {a: [sum(w[a][j] * M(emb[names[j]][c]) for j in range(3)) for c in range(2)] for a in names}
    # printed weights, to check that the printed context vectors are fresh slips
    pw = {'The': ['0.28', '0.23', '0.49'], 'cat': ['0.18', '0.59', '0.23'], 'sat': ['0.23', '0.15', '0.62']}
    from_printed = {a: [sum(D(pw[a][j]) * emb[names[j]][c] for j in range(3)) for c in range(2)] for a in names}
    specs = []
    for a in names:
        for b in names:
            specs.append(S('s_%s_%s' % (a, b), '"%s" (Q) • "%s" (K):' % (a, b), 5,
                           E(4, sc[(a, b)], "dot product %s . %s" % (a, b))))
    specs.append(S('sqrt2', 'that divisor would be sqrt(2) ≈ 1.414', 3, E(2, mpmath.sqrt(2), "sqrt(2)")))
    sm_anchor = {'The': 'Softmax(0.29, 0.21, 0.51)', 'cat': 'Softmax(0.21, 0.65, 0.33)', 'sat': 'Softmax(0.51, 0.33, 0.90)'}
    for a in names:
        ents = [E(j, sc[(a, names[j])], "score %s.%s restated" % (a, names[j])) for j in range(3)]
        ents += [W(3 + j, w[a][j], "softmax weight %s->%s = %s" % (a, names[j], mp.nstr(w[a][j], 6)), 'slip')
                 for j in range(3)]
        specs.append(S('w_' + a, sm_anchor[a], 6, *ents))
    for a in names:
        fp = from_printed[a]
        ents = [W(3 * j, w[a][j], "weight %s->%s restated (true %s)" % (a, names[j], mp.nstr(w[a][j], 4)),
                  'carried', 'w_' + a) for j in range(3)]
        ents += [W(9 + c, ctx[a][c],
                   "context[%s][%d] = sum_j w_j v_j = %s (from the printed weights: %s, so a fresh slip)"
                   % (a, c, mp.nstr(ctx[a][c], 6), str(float(fp[c]))), 'slip') for c in range(2)]
        specs.append(S('c_' + a, '(%s * \\[0.2, 0.5])' % pw[a][0], 11, *ents))
    specs.append(S('res', 'The vector for "cat" (\\[0.57, 0.35])', 2,
                   W(0, ctx['cat'][0], "context vector of cat restated (true 0.4838)", 'carried', 'c_cat'),
                   W(1, ctx['cat'][1], "context vector of cat restated (true 0.4538)", 'carried', 'c_cat')))
    meta = {
        "doc": "en_context_vector_the_cat_sat_chat_answer.md",
        "source": "GitHub Markdown note holding a chat-assistant answer 'Let's break down the calculation of a context vector step by step' (sentence \"The cat sat\", sections 1-5, Result, Key Points); the search index did not expose the repository name (stored file id 13136154698; a second stored copy without the Markdown escapes is id 12997066283). Whole answer kept with every list item, vector and calculation line verbatim (including the converter's escaped brackets '\\[0.2, 0.5]' and the leading blank line); the prose sentences around them reworded",
        "source_kind": "chat-assistant answer saved as study notes (GitHub Markdown)",
        "language": "en",
        "errors_as_published": True,
        "notation": "nested Markdown bullet lists with bold headings, escaped brackets '\\[0.28, 0.23, 0.49]' for vectors, bullet '•' for the dot product, '*' for multiplication, 'Softmax(0.29, 0.21, 0.51) ≈ \\[...]', 'sqrt(2) ≈ 1.414', two-decimal hand arithmetic",
        "conventions": "Q = K = V = the embeddings The [0.2, 0.5], cat [0.8, 0.1], sat [0.3, 0.9]; scores are plain dot products (the text explicitly skips the 1/sqrt(2) scaling, so the truths are unscaled); weights = row softmax of the three scores; context vector = sum_j w_j v_j. Truths use the exact scores and exact softmax weights, not the printed two-decimal weights. All nine printed weights are fresh slips (e.g. softmax(0.29, 0.21, 0.51) = [0.3155, 0.2913, 0.3932]); the weights restated in the context lines are carried; the six context components are slips even relative to the printed weights (0.28*0.2 + 0.23*0.8 + 0.49*0.3 = 0.387, printed 0.36), and the cat vector restated in 'Result' is carried. Not listed: the embeddings and their Q/K/V restatements, the factors inside '(0.2 * 0.2)' and the value vectors inside the weighted sums (inputs), the 2 of '2-dimensional' and under sqrt(2), section numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: Burn multi-head attention test, hand-checked comments
# ---------------------------------------------------------------------------
def doc_b():
    s = 1 / mpmath.sqrt(2)                 # scaled score
    e = mpmath.exp(s)
    tot = e + 1
    p1, p2 = e / tot, 1 / tot
    v1, v2 = [10, 5], [2, 20]
    o = [p1 * v1[c] + p2 * v2[c] for c in range(2)]
    specs = [
        S('sq', '// d_k = 2.0. sqrt(d_k) = 1.41421356', 2, E(1, mpmath.sqrt(2), "sqrt(d_k) = sqrt(2)")),
        S('qk', '// Q @ K^T = [[1, 0], [0, 1]]', 4, *[E(j, [1, 0, 0, 1][j], "Q K^T entry (identity times identity)") for j in range(4)]),
        S('scaled', '// Scaled = [[0.7071, 0.0], [0.0, 0.7071]]', 4,
          E(0, s, "1/sqrt(2)"), E(1, 0, "0/sqrt(2)"), E(2, 0, "0/sqrt(2)"), E(3, s, "1/sqrt(2)")),
        S('sm', '// Softmax([0.7071, 0.0]):', 2, E(0, s, "scaled score restated"), E(1, 0, "scaled score restated")),
        S('e1', '// e^0.7071 = 2.0281', 2, E(0, s, "scaled score restated"), E(1, e, "exp(1/sqrt 2) = 2.028115")),
        S('e0', '// e^0 = 1.0', 2, E(0, 0, "scaled score restated"), E(1, 1, "e^0")),
        S('sum', '// Sum = 3.0281', 1, E(0, tot, "e^(1/sqrt 2) + 1 = 3.028115")),
        S('p1', '// p1 = 2.0281 / 3.0281 = 0.6697', 4,
          E(1, e, "exp term restated"), E(2, tot, "sum restated"),
          W(3, p1, "p1 = 2.028115/3.028115 = 0.669762 (also 2.0281/3.0281 = 0.66976): 0.6697 is truncated, not rounded", 'rounding')),
        S('p2', '// p2 = 1.0 / 3.0281 = 0.3302', 4,
          E(1, 1, "e^0 restated"), E(2, tot, "sum restated"), E(3, p2, "p2 = 1/3.028115 = 0.330238")),
        S('rw', '// Row 1 Weights: [0.6697, 0.3302]', 3,
          W(1, p1, "p1 restated (true 0.6698)", 'carried', 'p1'), E(2, p2, "p2 restated")),
        S('d0', '// Dim 0: 0.6697*10 + 0.3302*2 = 6.697 + 0.6604 = 7.3574', 8,
          W(1, p1, "p1 restated (true 0.6698)", 'carried', 'p1'), E(3, p2, "p2 restated"),
          W(5, p1 * 10, "p1 * 10 = 6.697615 (6.697 = 0.6697 * 10)", 'carried', 'p1'),
          W(6, p2 * 2, "p2 * 2 = 0.660477 (0.6604 = 2 x the rounded 0.3302)", 'rounding-carried'),
          W(7, o[0], "output[0] = 10 p1 + 2 p2 = %s" % mp.nstr(o[0], 7), 'carried', 'p1')),
        S('d1', '// Dim 1: 0.6697*5 + 0.3302*20 = 3.3485 + 6.604 = 9.9525', 8,
          W(1, p1, "p1 restated (true 0.6698)", 'carried', 'p1'), E(3, p2, "p2 restated"),
          W(5, p1 * 5, "p1 * 5 = 3.348808 (3.3485 = 0.6697 * 5)", 'carried', 'p1'),
          W(6, p2 * 20, "p2 * 20 = 6.604769 (6.604 = 20 x the rounded 0.3302)", 'rounding-carried'),
          W(7, o[1], "output[1] = 5 p1 + 20 p2 = %s" % mp.nstr(o[1], 7), 'carried', 'p1')),
        S('a0', 'assert!((output_data[0] - 7.357).abs() < tolerance, "Expected ~7.357', 4,
          W(1, o[0], "expected output[0] (true 7.358)", 'carried', 'd0'),
          W(2, o[0], "expected output[0] in the message (true 7.358)", 'carried', 'd0')),
        S('a1', 'assert!((output_data[1] - 9.952).abs() < tolerance, "Expected ~9.952', 4,
          W(1, o[1], "expected output[1] (true 9.954); from the printed 9.9525", 'carried', 'd1'),
          W(2, o[1], "expected output[1] in the message (true 9.954)", 'carried', 'd1')),
    ]
    meta = {
        "doc": "en_burn_mha_rust_test_hand_check.md",
        "source": "GitHub Rust test module of a Burn (burn + burn_ndarray) multi-head attention implementation ('use super::*; ... fn test_scaled_dot_product_attention_math'); the search index did not expose the repository name (stored file id 2211971679). The whole file is kept verbatim inside a ```rust block; only the title and the two introductory sentences are mine",
        "source_kind": "unit-test source code with hand-calculation comments (GitHub, Rust)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Rust line comments '// e^0.7071 = 2.0281', '// p1 = 2.0281 / 3.0281 = 0.6697', nested-list matrices '[[0.7071, 0.0], [0.0, 0.7071]]', star products '0.6697*10', f32 literals and assert! tolerances '2e-3', expected values repeated in a format string 'Expected ~7.357'",
        "conventions": "one head, Q = K = identity (2 x 2), V rows [10, 5] and [2, 20], scaled dot-product attention softmax(Q K^T / sqrt(2)) V; only row 1 is worked: weights softmax([1/sqrt 2, 0]) = [0.669762, 0.330238], output [7.358092, 9.953577]. The comment's p1 = 0.6697 truncates 0.66976 (kind rounding); everything built on it (the restated weight, 6.697, 3.3485, 7.3574, 9.9525 and the asserted 7.357, 9.952) is carried; 0.6604 and 6.604 are 2 x and 20 x the correctly rounded 0.3302, right only by that rounded intermediate (rounding-carried). 9.952 is 9.9525 rounded half to even/truncated (half away from zero would give 9.953) and is listed as carried from the Dim 1 line. Not listed: shapes and sizes (batch, seq_len, d_model, n_heads, the [1, 1, 2, 2] reshapes, f32), the input data, V1/V2, d_k = 2.0, the dropout 0.0, the tolerance 2e-3, row/dim/step labels and the 1 of 'p1'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: HLX Transformer CPU reference tests (Rust)
# ---------------------------------------------------------------------------
def doc_c():
    c = mpmath.sqrt(2 / mpmath.pi)
    k3 = D('0.044715')

    def gelu_tanh(x):
        x = mpf(x)
        return x / 2 * (1 + mpmath.tanh(c * (x + M(k3) * x ** 3)))

    def gelu_erf(x):
        x = mpf(x)
        return x / 2 * (1 + mpmath.erf(x / mpmath.sqrt(2)))

    sm = softmax([1, 2, 3])
    ce = -mpmath.log(sm[2])
    # LayerNorm([1, 2, 3]), eps = 1e-5 inside the root
    var = Fraction(2, 3)
    eps = D('1e-5')
    norm_var = var / (var + eps)                     # exact
    norm_std = mpmath.sqrt(M(norm_var))
    # parameter count of the tiny config
    V, d, L, F, T = 256, 256, 4, 1024, 128
    ln = 2 * d
    layer = 2 * ln + 4 * d * d + (d * F + F + F * d + d)
    total = V * d + T * d + L * layer + ln + d * V
    specs = [
        S('str', '// Shape [2, 3, 4] should have strides [12, 4, 1]', 6,
          E(3, 12, "stride of dim 0 = 3 x 4"), E(4, 4, "stride of dim 1 = 4"), E(5, 1, "stride of dim 2")),
        S('str2', 'assert_eq!(strides, vec![12, 4, 1]);', 3,
          E(0, 12, "stride restated"), E(1, 4, "stride restated"), E(2, 1, "stride restated")),
        S('c', 'let sqrt_2_over_pi = 0.7978845608028654f32;', 3, E(1, c, "sqrt(2/pi)")),
        S('g0', 'assert!((gelu(0.0) - 0.0).abs() < 1e-6);', 3, E(1, 0, "GELU(0) = 0")),
        S('g1', 'assert!((gelu(1.0) - 0.8413).abs() < 1e-3);', 3,
          W(1, gelu_tanh(1), "tanh-approximation GELU(1) = 0.841192 (the closure under test); 0.8413 is the exact erf GELU(1) = 0.841345", 'convention')),
        S('gm1', 'assert!((gelu(-1.0) - (-0.1587)).abs() < 1e-3);', 3,
          W(1, gelu_tanh(-1), "tanh-approximation GELU(-1) = -0.158808; -0.1587 is the exact erf GELU(-1) = -0.158655", 'convention')),
        S('sm', '// softmax([1, 2, 3]) ≈ [0.0900, 0.2447, 0.6652]', 6,
          *[E(3 + j, sm[j], "softmax([1,2,3])[%d]" % j) for j in range(3)]),
        *[S('sma%d' % j, 'assert!((softmax[%d] - ' % j, 3, E(1, sm[j], "softmax[%d] restated" % j)) for j in range(3)],
        S('sum1', '// Sum should be 1', 1, E(0, 1, "sum of softmax outputs")),
        S('sum2', 'assert!((sum - 1.0).abs() < 1e-6);', 2, E(0, 1, "sum of softmax outputs")),
        S('ce', '// CE(softmax([1,2,3]), target=2) = -log(0.6652) ≈ 0.4076', 6,
          E(4, sm[2], "softmax[2] restated"),
          E(5, ce, "CE = -ln softmax([1,2,3])[2] = 0.407606 (from the printed 0.6652 it would be 0.407668 -> 0.4077)")),
        S('ce2', 'assert!((loss - 0.4076).abs() < 0.001);', 2, E(0, ce, "CE restated")),
        S('ln1', '// Mean should be ~0, std should be ~1', 2,
          E(0, 0, "mean of the normalized vector (exactly 0)"),
          E(1, norm_std, "std of the normalized vector = sqrt((2/3)/(2/3 + 1e-5)) = 0.9999925")),
        S('ln2', 'assert!((norm_var - 1.0).abs() < 0.1);', 2,
          E(0, norm_var, "variance of the normalized vector = (2/3)/(2/3 + 1e-5) = 0.999985")),
        S('pc', '// Tiny config should have ~10M params', 1,
          W(0, M(Fraction(total, 10 ** 6)), "parameter count of the stated config in millions: %d = %s M (approximate claim '~10M')"
            % (total, mp.nstr(M(Fraction(total, 10 ** 6)), 7)), 'slip')),
    ]
    meta = {
        "doc": "en_hlx_transformer_reference_tests.md",
        "source": "GitHub Rust integration-test file '//! Integration tests for HLX Transformer' (test utilities plus CPU-only unit tests and ignored Vulkan GPU tests); the search index did not expose the repository name (stored file id 3672317193). Kept verbatim in a ```rust block: the header, the utilities and the strides, matmul-shape, GELU, softmax, cross-entropy, LayerNorm and parameter-count tests; dropped: the Adam single-step test and the three #[ignore] GPU stubs. Title and the two introductory sentences are mine",
        "source_kind": "integration-test source code with reference values (GitHub, Rust)",
        "language": "en",
        "errors_as_published": True,
        "notation": "Rust comments and assert! lines with literal expected values and tolerances ('assert!((gelu(1.0) - 0.8413).abs() < 1e-3)'), f32 literal suffixes '0.7978845608028654f32', vec! literals, a Unicode comment formula 'sqrt(2/π) * (x + 0.044715 * x³)', underscore-grouped integers '5_000_000', approximate magnitudes '~10M'",
        "conventions": "Each expected value is judged against the quantity the test computes. GELU: the closure is the tanh approximation 0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))), giving 0.841192 and -0.158808; the asserted 0.8413 and -0.1587 are the exact erf-GELU values (0.841345, -0.158655), i.e. right under the other convention (they pass only because of the 1e-3 tolerance). Softmax of [1, 2, 3] = [0.090031, 0.244728, 0.665241]. Cross-entropy = -ln softmax[2] = 0.407606, judged from the exact logits; the comment writes it as -log(0.6652), whose literal value would be 0.407668 (-> 0.4077). LayerNorm([1, 2, 3]) with eps = 1e-5 inside the root: normalized mean 0, variance 0.999985, std 0.9999925 ('~0', '~1', '1.0' are all fine). Parameter count of the stated config (vocab 256, d_model 256, 4 layers, ffn 1024, seq 128, two LayerNorms per layer plus a final one, attention without biases, untied output layer), following the formula in the test itself: 3,319,296 = 3.32M, so '~10M' is a slip (and the test's own assert total > 5_000_000 would fail). Approximate integer claims are rounded (mpf truth). Not listed: all configuration values, shapes [2, 3, 4], [512, 256], the 512 x 512 output shape, the GELU coefficient 0.044715, logits and targets, tolerances (1e-6, 1e-3, 0.001, 0.1), eps 1e-5, the f32/u32/f64 suffix digits, the bounds 5_000_000 / 20_000_000 and their '>5M', '<20M' comments, the format string",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: RMSNorm C header with a worked comment
# ---------------------------------------------------------------------------
def doc_d():
    x = [D('0.3'), D('0.6'), D('0.9')]
    eps = D('1e-5')
    ss = sum(v * v for v in x)
    ms = ss / 3
    r = mpmath.sqrt(M(ms + eps))
    n = [M(v) / r for v in x]
    sq = [v * v / (ms + eps) for v in x]            # exact squares of the normalized values
    sumsq = sum(sq)
    meansq = sumsq / 3
    specs = [
        S('sq', '[ 0.3^2, 0.6^2, 0.9^2 ] => 0.09 + 0.36 + 0.81 => 1.26', 10,
          E(6, x[0] ** 2, "0.3^2"), E(7, x[1] ** 2, "0.6^2"), E(8, x[2] ** 2, "0.9^2"), E(9, ss, "sum of squares")),
        S('ms', '^    1.26 / 3 => 0.42', 3, E(0, ss, "sum of squares restated"), E(2, ms, "1.26 / 3")),
        S('eps', '^    0.42 + 1e-5f', 2, E(0, ms, "mean square restated")),
        S('l1', '0.3 / sqrt(0.42 + 1e-5f),', 3, E(1, ms, "mean square restated")),
        S('l2', '0.6 / sqrt(0.42 + 1e-5f),', 3, E(1, ms, "mean square restated")),
        S('l3', '0.9 / sqrt(0.42 + 1e-5f)', 3, E(1, ms, "mean square restated")),
        S('rms', 'sqrt(0.42 + 1e-5f) = 0.6481', 3, E(0, ms, "mean square restated"), E(2, r, "sqrt(0.42001) = 0.648082")),
        S('div', '[ 0.3 / 0.6481, 0.6 / 0.6481, 0.9 / 0.6481 ] =>', 6,
          E(1, r, "rms restated"), E(3, r, "rms restated"), E(5, r, "rms restated")),
        S('out', '[ 0.4629, 0.9258, 1.3887 ]', 3, *[E(j, n[j], "normalized[%d] = x/0.648082" % j) for j in range(3)]),
        S('will', 'of the sum of the squares, it will be 1.', 1,
          W(0, meansq, "mean of the squared outputs = 0.42/0.42001 = 0.9999762 (exactly 1 only with eps = 0)", 'convention')),
        S('chk', '[ 0.4629^2, 0.9258^2, 1.3887^2 ] => 0.2143 + 0.8571 + 1.9285 => 3', 10,
          E(0, n[0], "normalized[0] restated"), E(2, n[1], "normalized[1] restated"), E(4, n[2], "normalized[2] restated"),
          E(6, sq[0], "normalized[0]^2 = 0.09/0.42001"), E(7, sq[1], "normalized[1]^2 = 0.36/0.42001"),
          E(8, sq[2], "normalized[2]^2 = 0.81/0.42001"),
          W(9, sumsq, "sum of the squared outputs = 1.26/0.42001 = 2.999929 (exactly 3 only with eps = 0)", 'convention')),
        S('mean', '^    3 / 3 => 1', 3,
          W(0, sumsq, "sum of squared outputs restated (true 2.999929)", 'convention'),
          W(2, meansq, "mean of the squared outputs = 0.9999762 (exactly 1 only with eps = 0)", 'convention')),
    ]
    meta = {
        "doc": "en_rmsnorm_c_header_worked_comment.md",
        "source": "GitHub C header 'ak_rmsnorm.h' (#ifndef ak_rmsnorm_H: ak_calculate_sum_of_squares, ak_rmsnorm and a block comment working RMSNorm on [0.3, 0.6, 0.9]) from a llama2.c-style project; the search index did not expose the repository name (stored file id 30473566939). The whole header is kept verbatim in a ```c block; title and introductory sentences are mine",
        "source_kind": "source-code comment with a worked example (GitHub, C header)",
        "language": "en",
        "errors_as_published": True,
        "notation": "C block comment with '=>' chains '[ 0.3^2, 0.6^2, 0.9^2 ] => 0.09 + 0.36 + 0.81 => 1.26', caret powers, C float literals '1e-5f', bracketed lists of quotients '[ 0.3 / 0.6481, ... ]', a bare integer conclusion '=> 3' and '3 / 3 => 1'",
        "conventions": "RMSNorm as implemented below the comment: ss = mean(x^2) + 1e-5, y = x / sqrt(ss) (weight 1), for x = [0.3, 0.6, 0.9]: mean square 0.42, rms sqrt(0.42001) = 0.648082, outputs [0.462904, 0.925808, 1.388713]. The check squares the exact outputs: x_i^2/0.42001 = 0.214281, 0.857122, 1.928525 (all fine at four places), whose sum is 1.26/0.42001 = 2.999929 and mean 0.999976. The bare integers '3' (twice) and '1' (twice, incl. 'it will be 1.') are compared exactly, as integer literals are, and are therefore wrong; they are exact only when eps is left out (kind convention). Not listed: the inputs 0.3, 0.6, 0.9 and the exponent 2, the count 3 (also as the divisor in '3 / 3'), eps 1e-5f, the loop constants and 1.0f of the code, the introductory '1.0' ('RMS redistributes ... such that the mean of the sum of the squares is 1.0', a description of the method rather than a computed value) and the '2.' of 'llama2.c' in my introduction",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: study guide to "Attention Is All You Need" (hand computations)
# ---------------------------------------------------------------------------
def doc_e():
    d = 512
    s = 1 / mpmath.sqrt(2)
    e = mpmath.exp(s)
    tot = 2 * e + 1
    w1 = [e / tot, 1 / tot, e / tot]
    V = [(10, 0), (0, 10), (5, 5)]
    out1 = [sum(w1[j] * V[j][c] for j in range(3)) for c in range(2)]
    attn = 4 * d * d
    attn_b = 4 * (d * d + d)
    ffn = 2 * d * 2048 + 2048 + d
    lnp = 2 * 2 * d
    lr = lambda dm, step: 1 / mpmath.sqrt(mpf(dm) * step)
    eps_ls = D('0.1')
    K = 12
    q_hi = (1 - eps_ls) + eps_ls / K
    q_lo = eps_ls / K
    H = -(M(q_hi) * mpmath.log(M(q_hi)) + (K - 1) * M(q_lo) * mpmath.log(M(q_lo)))
    specs = [
        S('n50', '- at n = 50: 1.28M (attention) vs 13.1M (RNN);', 3,
          E(1, Fraction(50 * 50 * d, 10 ** 6), "n^2 d = 50^2 x 512 = 1,280,000 in millions"),
          E(2, Fraction(50 * d * d, 10 ** 6), "n d^2 = 50 x 512^2 = 13,107,200 in millions")),
        S('n5000', '- at n = 5000 attention is 10× *more* expensive.', 2,
          E(1, M(Fraction(5000, d)), "cost ratio n^2 d / (n d^2) = n/d = 9.7656 (approximate '10x')")),
        S('sc', '**Step 1, scores:** Q Kᵀ/√2 = [[0.707, 0, 0.707], [0, 0.707, 0.707]].', 8,
          E(2, s, "q1.k1/sqrt2"), E(3, 0, "q1.k2/sqrt2"), E(4, s, "q1.k3/sqrt2"),
          E(5, 0, "q2.k1/sqrt2"), E(6, s, "q2.k2/sqrt2"), E(7, s, "q2.k3/sqrt2")),
        S('smx', '**Step 2, softmax of each row:** e^0.707 = 2.028 and e^0 = 1', 13,
          E(1, s, "scaled score restated"), E(2, e, "exp(1/sqrt 2) = 2.028115"), E(3, 0, "scaled score restated"),
          E(4, 1, "e^0"), E(6, e, "exp term restated"), E(7, 1, "e^0 restated"), E(8, e, "exp term restated"),
          E(9, tot, "row-1 sum 2e^(1/sqrt2) + 1 = 5.056230"),
          E(10, w1[0], "weight q1->k1 = %s" % mp.nstr(w1[0], 6)), E(11, w1[1], "weight q1->k2 = %s" % mp.nstr(w1[1], 6)), E(12, w1[2], "weight q1->k3")),
        S('o1', '0.401·(10, 0) + 0.198·(0, 10) + 0.401·(5, 5) = (6.02, 3.98)', 11,
          E(0, w1[0], "weight restated"), E(3, w1[1], "weight restated"), E(6, w1[2], "weight restated"),
          E(9, out1[0], "output[0] = 15 w1 = %s" % mp.nstr(out1[0], 7)), E(10, out1[1], "output[1] = 10 w2 + 5 w1 = %s" % mp.nstr(out1[1], 7))),
        S('std', 'at d_k = 512 the scores spread with std ≈ 23', 3, E(1, mpmath.sqrt(512), "sqrt(512) = 22.627")),
        S('one', 'dividing by √d_k puts the variance back at **1**', 1, E(0, 1, "Var(q.k / sqrt(d_k)) = d_k / d_k")),
        S('mha', 'at d_model = 512 this comes to 1.05M', 3,
          E(2, Fraction(attn, 10 ** 6), "4 d_model^2 = 1,048,576 in millions (with biases 1,050,624)")),
        S('ffn', '- **Parameters:** 2·512·2048 + 2048 + 512 ≈ **2.1M**', 6,
          E(5, Fraction(ffn, 10 ** 6), "2 x 512 x 2048 + 2048 + 512 = 2,099,712 in millions")),
        S('emb', 'multiplied by √d_model** (≈ 22.6)', 2, E(0, mpmath.sqrt(512), "sqrt(512) = 22.627")),
        S('peak', '- **The peak**, at step 4000: 512^(−0.5)·4000^(−0.5)', 8,
          E(5, lr(512, 4000), "512^-0.5 x 4000^-0.5 = 0.00069877"),
          E(7, lr(512, 16000), "512^-0.5 x 16000^-0.5 = 0.00034939")),
        S('ls', 'For K = 12: q = (0.908, 0.008, …), so H(q) = **0.526**', 5,
          E(2, q_hi, "0.9 + 0.1/12 = 0.908333"), E(3, q_lo, "0.1/12 = 0.008333"),
          E(4, H, "entropy of the smoothed target = 0.526184 nats")),
        S('toy', '(peak ≈ 0.009 with warm-up 200)', 4, E(1, lr(64, 200), "64^-0.5 x 200^-0.5 = 0.0088388")),
        S('chk1', '1. Compute Attention for one query q = (1, 1)', 12,
          E(10, s, "score (1,1).(1,0)/sqrt 2 = 1/sqrt 2"), E(11, 3, "output = (2 + 4)/2")),
        S('chk4', '4. Count the parameters of one encoder layer', 6,
          E(3, Fraction(attn_b, 10 ** 6), "attention 4(512^2 + 512) = 1,050,624 in millions"),
          E(4, Fraction(ffn, 10 ** 6), "FFN 2,099,712 in millions"),
          E(5, Fraction(attn_b + ffn + lnp, 10 ** 6), "layer total 1,050,624 + 2,099,712 + 2 x 1,024 = 3,152,384 in millions")),
    ]
    meta = {
        "doc": "en_attention_paper_guide_by_hand.md",
        "source": "GitHub Markdown study guide '# Vaswani et al. (2017), explained from scratch' (part of a numbered paper-reading series with its own demo code; sections 0-9); the search index did not expose the repository name (stored file id 70814051636). Kept: header, section 1 (Table 1, the cost bullets and the n = 50/500/5000 demo), 2.1-2.5 (the by-hand demo verbatim), 3.1 and 3.4 (one bullet each), 4.2-4.3, 5.3-5.4, one sentence of 8 and items 1, 2, 4, 7 of 'Check yourself'; all formulas, code blocks, tables and numbers verbatim, bullet prose reworded and shortened. Dropped: section 0, the RNN/CNN discussion, the random-experiment table of 2.3, 2.6, 3.2-3.3, the weight-tying paragraph, 4.1, 5.1-5.2, 5.4's dropout and toy-loss bullets, 6 (BLEU/parsing tables quoted from the paper), 7 and most of 8 (experimental results)",
        "source_kind": "paper study guide (GitHub Markdown)",
        "language": "en",
        "errors_as_published": False,
        "notation": "Markdown bullets with bold lead-ins, Unicode math (Kᵀ, √d_k, ·, −∞, 10⁻⁹, β₂, W₁), inline matrices '[[0.707, 0, 0.707], [0, 0.707, 0.707]]', tuples '(0.401, 0.198, 0.401)', magnitudes with M suffix '1.28M', '2.1M', fenced formula blocks, caret powers with Unicode minus '512^(−0.5)', a pipe table of O(.) costs",
        "conventions": "Demo attention: Q = [[1,0],[0,1]], K = [[1,0],[0,1],[1,1]], V = [[10,0],[0,10],[5,5]], scores Q K^T / sqrt 2, row-1 softmax of [1/sqrt2, 0, 1/sqrt2] = [0.401112, 0.197776, 0.401112], output (6.016681, 3.983319). Costs with d = 512: n^2 d and n d^2 in millions; '10x' is the approximate ratio n/d = 9.77 (rounded, mpf truth). Parameter counts: attention 4 d^2 = 1,048,576 (4(d^2 + d) = 1,050,624 with biases; both give 1.05M), FFN 2 d d_ff + d_ff + d = 2,099,712, encoder layer incl. two LayerNorms (2 x 2 x 512) = 3,152,384. Noam schedule lr = d^-0.5 min(step^-0.5, step warmup^-1.5): peak 0.00069877 at step 4000, 0.00034939 at 16,000; toy peak 64^-0.5 200^-0.5 = 0.0088388. Label smoothing K = 12, eps = 0.1: q = (0.908333, 0.008333 x 11), H(q) = 0.526184 nats. Not listed: the demo value PE(p).PE(p+5) = 23.504, because the text does not say for which d_model it was computed (it equals sum_i cos(5 w_i) = 23.50397 for d_model = 64, the toy model, but 189.60 for the d = 512 used elsewhere in the guide), the ½ of item 1 (not a digit literal), 'around n = 500' (a rough crossover statement), all given sizes (512, 2048, 64, 8, 12, 4000, 16,000, 200, 1000), Adam/label-smoothing hyper-parameters, section, equation, table and year numbers, the arXiv id, and the '1' of O(1)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document F: RoPE summary with 30/60 degree rotations
# ---------------------------------------------------------------------------
def doc_f():
    c30 = mpmath.sqrt(3) / 2
    half = Fraction(1, 2)
    specs = [
        S('p0', '\\text{Rotated} = [1.0, 0.0, 0.0, 1.0] \\quad \\text{(no change)}', 4,
          E(0, 1, "rotation by 0: q[0]"), E(1, 0, "q[1]"), E(2, 0, "q[2]"), E(3, 1, "q[3]")),
        S('a1', '(1, 0) \\to (\\cos 30^\\circ, \\sin 30^\\circ) \\approx (0.866, 0.5)', 6,
          E(4, c30, "cos 30 deg"), E(5, half, "sin 30 deg")),
        S('b1', '(0, 1) \\to (-\\sin 30^\\circ, \\cos 30^\\circ) \\approx (-0.5, 0.866)', 6,
          E(4, -half, "-sin 30 deg"), E(5, c30, "cos 30 deg")),
        S('q1', "^q' = [0.866, 0.5, -0.5, 0.866]", 4,
          E(0, c30, "rotated q[0]"), E(1, half, "rotated q[1]"), E(2, -half, "rotated q[2]"), E(3, c30, "rotated q[3]")),
        S('a2', '(1, 0) → (\\cos 60^\\circ, \\sin 60^\\circ) ≈ (0.5, 0.866)', 6,
          E(4, half, "cos 60 deg"), E(5, c30, "sin 60 deg")),
        S('b2', '(0, 1) → (-0.866, 0.5)', 4, E(2, -c30, "-sin 60 deg"), E(3, half, "cos 60 deg")),
        S('q2', "^q' = [0.5, 0.866, -0.866, 0.5]", 4,
          E(0, half, "rotated q[0]"), E(1, c30, "rotated q[1]"), E(2, -c30, "rotated q[2]"), E(3, half, "rotated q[3]")),
    ]
    meta = {
        "doc": "en_rope_rotation_30_degree_summary.md",
        "source": "github sreekanth9999/Interview_Prep:simple_ROPE.md (commit 81f6be09; a chat-assistant summary of RoPE prepared for pasting into a blog). Whole file kept: every formula, table and the worked example verbatim (incl. the four-backslash LaTeX row breaks '\\\\\\\\' and the mixed '\\to' / '→' arrows); the prose sentences reworded",
        "source_kind": "interview-prep notes holding a chat-assistant answer (GitHub Markdown)",
        "language": "en",
        "errors_as_published": False,
        "notation": "LaTeX display blocks with bmatrix rotation matrices, degree angles '30^\\circ', pair mappings '(1, 0) \\to (\\cos 30^\\circ, \\sin 30^\\circ) \\approx (0.866, 0.5)', primed result vectors \"q' = [0.866, 0.5, -0.5, 0.866]\", emoji headings, pipe tables",
        "conventions": "q = [1, 0, 0, 1] split into the pairs (1, 0) and (0, 1); both pairs are rotated counter-clockwise by the same illustrative angle (0, 30 and 60 degrees for p = 0, 1, 2; the text picks the angles, it does not derive them from a frequency schedule) with R = [[cos, -sin], [sin, cos]]. Truths: cos 30 = sin 60 = sqrt(3)/2 = 0.8660254, sin 30 = cos 60 = 1/2 exactly. The table's 'Keeps rotating clockwise' contradicts the counter-clockwise matrix but carries no number. Not listed: q, the angles 0/30/60 degrees and positions, the 4D/2-pair sizes, subscripts x_1..x_4",
    }
    return meta, specs


DOCS = [doc_a, doc_b, doc_c, doc_d, doc_e, doc_f]


if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
