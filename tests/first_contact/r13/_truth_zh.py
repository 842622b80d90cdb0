"""Independent true values for the Chinese (zh_) first-contact documents of round 13.

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



R2 = mpmath.sqrt(2)


# ---------------------------------------------------------------------------
# Document Z1: Chinese Transformer notes, multi-head dims, 2x2 pmatrix example, loss/PPL remarks
# ---------------------------------------------------------------------------
def doc_z1():
    name = "zh_transformer_notes_multihead_pmatrix_ppl.md"
    s = 1 / R2
    a = softmax([s, 0])
    e = mpmath.e
    specs = [
        S('h1', '每个头只分到 d_model / h 维（e.g., 512/8=64 维）', 3, E(2, Fraction(512, 8), "512 / 8")),
        S('h2', '每个头的维度：d_k = d_model / h (e.g., 512/8=64)', 3, E(2, Fraction(512, 8), "512 / 8")),
        S('q', 'Q = $\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}$，K 同，V 同。', 4,
          *[E(k, [1, 0, 0, 1][k], "X W^Q entry %d (X W^Q = I_2)" % k) for k in range(4)]),
        S('sc', 'Scores = $\\begin{pmatrix} 1 & 0', 4, *[E(k, [1, 0, 0, 1][k], "Q K^T entry %d" % k) for k in range(4)]),
        S('ss', 'Scaled = Scores / √2 ≈', 5, E(1, s, "1/sqrt(2) = 0.7071068"), E(2, 0, "0/sqrt(2)"), E(3, 0, "0/sqrt(2)"), E(4, s, "1/sqrt(2)")),
        S('al', 'α ≈ softmax ≈', 4, *[W(k, a[[0, 1, 1, 0][k]], "softmax([1/sqrt2, 0]) entry = %s (0.622/0.378 would be softmax([0.5, 0]), i.e. scores / d_k)" % mp.nstr(a[[0, 1, 1, 0][k]], 6), 'slip') for k in range(4)]),
        S('ou', 'Output = α V ≈', 4, *[W(k, a[[0, 1, 1, 0][k]], "alpha V with V = I_2 equals alpha (true %s)" % mp.nstr(a[[0, 1, 1, 0][k]], 6), 'carried', 'al') for k in range(4)]),
        S('l1', '相当于在 2.7 个词（约等于 3 个词）里做单选题', 4,
          E(1, e, "e^Loss with Loss = 1: e = 2.718282"), E(2, e, "e rounded to an integer"), E(3, 100 / e, "1/e in percent = 36.7879")),
        S('ppl', 'PPL e ^ Loss = 2.78', 1, W(0, e, "e^1 = 2.718282 -> 2.72", 'slip')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown study notes '# Transformer' (outline embedding / position encoding / dropout / encode-decode layers / norm / output, then Chinese sections 'core architecture', BertTokenizer/WordPiece, 'multi head', 解释, RoPE, FF ×4, residual, Softmax, pre/post-LN, GLU, RMSNorm, 'Loss after LLM pretraining done', dropout and weight decay, linear attention); the search index did not expose the repository name (stored file ids 59836804697 and 59919559056 hold two versions with the same example). Kept: the 'multi head' section with its Q/K/V derivation (steps 1-5) and the '示例数值计算' block verbatim, the 解释 paragraph, the 'Loss after LLM pretraining done' paragraph and the FF-ratio remark; prose reworded and shortened. Dropped: the English outline, the embedding and core-architecture paragraphs, the WordPiece training description, RoPE/FFN/residual/Softmax/Pre-LN/GLU/RMSNorm/parallel-model/position-embedding notes, the dropout/weight-decay guide and the linear-attention stub",
        "source_kind": "study notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "LaTeX pmatrix inline '$\\begin{pmatrix} 0.707 & 0 \\\\ 0 & 0.707 \\end{pmatrix}$', display formulas with \\mathbb{R}^{n \\times d_k}, 'Scaled = Scores / √2 ≈', 'α ≈ softmax ≈', inline '512/8=64', plain-text 'PPL e ^ Loss = 2.78', percentages '36.8%', Chinese full-width punctuation",
        "conventions": "X W^Q = I_2 (W^Q = W^K = W^V), so Q = K = V = Scores = I_2; scaled by sqrt(d_k) = sqrt(2) -> [[0.707107, 0], [0, 0.707107]] (printed correctly). The row softmax of [0.707107, 0] is [0.669762, 0.330238]: the printed 0.622/0.378 are slips (they equal softmax([0.5, 0]), i.e. dividing by d_k = 2 instead of sqrt(2), which contradicts the document's own scaled matrix), and Output = α V with V = I_2 repeats them (carried). With Loss = 1 (natural log): e = 2.718282 ≈ 2.7 ≈ 3 and 1/e = 36.79% are right; 'PPL e ^ Loss = 2.78' is a slip (e^1 = 2.72). Not listed: X, W^Q, n = 2, d_model = 4, d_k = 2, the example sizes 512, the N(0,1) remark, '3 d_model²', the loss ranges 1.8-2.2 / 1.4-1.8 / 1.0-1.3 (empirical statements) and the FF ratios 8/3 and 4",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z2: MiniMind notes, temperature visualisation, top-p example, multinomial example
# ---------------------------------------------------------------------------
def doc_z2():
    name = "zh_minimind_sampling_temperature_topp_notes.md"
    L = [D('2.0'), D('1.0'), D('0.5')]
    n = lambda v: mp.nstr(v, 6)
    specs = []
    for T, anchor in [('0.1', 'P = softmax([20, 10, 5])'), ('1.0', 'P = softmax([2, 1, 0.5])'), ('2.0', 'P = softmax([1, 0.5, 0.25])')]:
        sc = [x / D(T) for x in L]
        p = softmax(sc)
        specs.append(S('t' + T, anchor, 6, *[E(k, sc[k], "logit / %s" % T) for k in range(3)],
                       *[auto(3 + k, p[k], "softmax(logits / %s)[%d] = %s" % (T, k, n(p[k])), 'auto') for k in range(3)]))
    P = [D('0.50'), D('0.25'), D('0.15'), D('0.08'), D('0.02')]
    for k, a in enumerate(['P(token_A) = 0.50 → 累积', 'P(token_B) = 0.25 → 累积', 'P(token_C) = 0.15 → 累积', 'P(token_D) = 0.08 → 累积', 'P(token_E) = 0.02 → 累积']):
        specs.append(S('c%d' % k, a, 3 if k == 3 else 2, E(1, sum(P[:k + 1]), "cumulative = %s" % sum(P[:k + 1]))))
    kept = sum(P[:3])
    for k, a in enumerate(['P(A|selected) = 0.50/0.90', 'P(B|selected) = 0.25/0.90', 'P(C|selected) = 0.15/0.90']):
        specs.append(S('r%d' % k, a, 3, E(1, kept, "mass of the kept set A+B+C"), E(2, P[k] / kept, "renormalised = %s" % n(M(P[k] / kept)))))
    q = softmax([D('2.0'), D('1.5'), D('0.5')])
    specs.append(S('mn', 'P = softmax(logits) = [0.659, 0.242, 0.099]', 3,
                   *[W(k, q[k], "softmax([2.0, 1.5, 0.5])[%d] = %s; the printed list is softmax([2, 1, 0.1])" % (k, n(q[k])), 'slip') for k in range(3)]))
    for k, a in enumerate(['- 65.9% 概率选token_0', '- 24.2% 概率选token_1', '- 9.9% 概率选token_2']):
        specs.append(S('pc%d' % k, a, 2, W(0, 100 * q[k], "%s %%" % n(100 * q[k]), 'carried', 'mn')))
    specs += [
        S('m32', '32,000 × 4,096 × 4bytes = 0.52 GB', 5, E(3, mpf(32000 * 4096 * 4) / 10 ** 9, "32,000 x 4,096 x 4 bytes in GB (10^9)")),
        S('m16', '32,000 × 4,096 × 2bytes = 0.26 GB', 5, E(3, mpf(32000 * 4096 * 2) / 10 ** 9, "32,000 x 4,096 x 2 bytes in GB (10^9)")),
    ]
    specs = resolve_kinds(doclines(name), specs)
    sm = lambda T: ", ".join(mp.nstr(x, 6) for x in softmax([v / D(T) for v in L]))
    meta = {
        "doc": name,
        "source": "GitHub Markdown notes '# MiniMind 模型架构创新技术详解' (一、核心架构差异: RMSNorm, RoPE, GQA, Flash Attention, KV Cache; 二、前馈网络差异: SwiGLU, MoE; then parameter sharing and '2. 生成采样策略' with model.py line references, a comparison with GPT and '优化技术的实际效果'); the search index did not expose the repository name (stored file id 26543576138, 36,101 characters). Kept: from '2. 生成采样策略' the code location, four key lines of _stream, the temperature visualisation and table (its 2.0+ row dropped), the top-p example and the multinomial probability example verbatim; from '优化技术的实际效果' the parameter-sharing memory block verbatim (its 7B remark dropped); prose reworded. Dropped: everything else (architecture sections, the rest of _stream, repetition-penalty tables, Top-k/Top-p comparison, greedy-vs-sampling prose, configuration and quality tables)",
        "source_kind": "study notes on a code base (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "plain-text code blocks with 'P = softmax([20, 10, 5]) ≈ [0.999, 0.001, 0.0]', arrows '→ 累积: 0.75 ✅ 保留', conditional probabilities 'P(A|selected) = 0.50/0.90 = 0.556', percentages '65.9%', thousands separators '32,000 × 4,096 × 4bytes = 0.52 GB', Python excerpt with '⭐' comments, Markdown table",
        "conventions": "Logits [2.0, 1.0, 0.5] divided by T: T = 0.1 -> [%s], T = 1 -> [%s], T = 2 -> [%s]. At T = 0.1 the printed 0.999 is a truncation of 0.999955 and 0.001 is a slip (true 4.5e-5); both lists at T = 1 and T = 2 are slips (the T = 1 list is the well-known softmax([2, 1, 0.1])). Top-p: cumulative sums and the renormalisation over A+B+C (0.90) are right. The multinomial example's logits [2.0, 1.5, 0.5] give [%s]; the printed [0.659, 0.242, 0.099] and the percentages 65.9/24.2/9.9 are wrong. Memory: 32,000 × 4,096 × 4 bytes = 524,288,000 bytes = 0.524 GB (decimal GB; 0.488 GiB) and half of it 0.262 GB, printed correctly as 0.52/0.26 GB. Not listed: the logits and temperatures, the code-line numbers, rp/top_p settings, table ranges, the given probabilities 0.50/0.25/0.15/0.08/0.02, vocabulary size and model width" % (sm('0.1'), sm('1.0'), sm('2.0'), ", ".join(mp.nstr(x, 6) for x in q)),
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z3: Typst notes on scaled dot-product attention (3-token example, sqrt(d_k) example)
# ---------------------------------------------------------------------------
def doc_z3():
    name = "zh_typst_attention_notes_matrix_example_scaling.md"
    Q = [[1, 0], [0, 1], [1, 1]]
    SC = [[sum(Q[i][c] * Q[j][c] for c in range(2)) for j in range(3)] for i in range(3)]
    w = softmax([1 / R2, mpf(0), 1 / R2])
    V = [[10, 0], [0, 10], [10, 10]]
    o = [sum(w[j] * V[j][c] for j in range(3)) for c in range(2)]
    s840 = softmax([8, 4, 0])
    s1 = softmax([1, D('0.5'), 0])
    n = lambda v: mp.nstr(v, 6)
    specs = [
        S('dk', '每个 head 通常使用 $d_k = d_v = 64$', 5, E(2, Fraction(512, 8), "d_model / h = 512 / 8"), E(4, Fraction(512, 8), "head width in the 512 x 64 shape")),
        S('qk', '$ Q K^T = mat(1, 0, 1; 0, 1, 1; 1, 1, 2) $', 9, *[E(k, SC[k // 3][k % 3], "q_%d . k_%d" % (k // 3, k % 3)) for k in range(9)]),
        S('r1', '第一行 $[1, 0, 1]$ 说明', 7, *[E(k, SC[0][k], "first row restated") for k in range(3)]),
        S('sm', '$ softmax([frac(1, sqrt(2)), 0, frac(1, sqrt(2))]) approx [0.40, 0.20, 0.40] $', 8,
          *[E(5 + k, w[k], "softmax([1/sqrt2, 0, 1/sqrt2])[%d] = %s" % (k, n(w[k]))) for k in range(3)]),
        S('ws', '$ 0.40 [10, 0] + 0.20 [0, 10] + 0.40 [10, 10] = [8, 6] $', 11,
          E(0, w[0], "weight restated"), E(3, w[1], "weight restated"), E(6, w[2], "weight restated"),
          E(9, o[0], "output[0] = %s" % n(o[0])), E(10, o[1], "output[1] = %s" % n(o[1]))),
        S('o1', '于是第 1 个 token 的输出大约是 $[8, 6]$', 5, E(1, o[0], "output restated"), E(2, o[1], "output restated")),
        S('o2', '注意 $[8, 6]$ 只是中间表示', 7, E(0, o[0], "restated"), E(1, o[1], "restated"), E(5, o[0], "restated"), E(6, o[1], "restated")),
        S('a', '$ softmax([8, 4, 0]) approx [0.982, 0.018, 0.000] $', 6, *[E(3 + k, s840[k], "softmax([8,4,0])[%d] = %s" % (k, n(s840[k]))) for k in range(3)]),
        S('sq', '$ sqrt(d_k) = 8 $', 1, E(0, 8, "sqrt(64)")),
        S('fr', '$ frac([8, 4, 0], 8) = [1, 0.5, 0] $', 7, E(4, 1, "8/8"), E(5, Fraction(1, 2), "4/8"), E(6, 0, "0/8")),
        S('b', '$ softmax([1, 0.5, 0]) approx [0.506, 0.307, 0.186] $', 6, *[E(3 + k, s1[k], "softmax([1,0.5,0])[%d] = %s" % (k, n(s1[k]))) for k in range(3)]),
        S('x1', '那么点积会放大 100 倍', 3, E(2, 10 * 10, "10 x 10")),
        S('x2', '$ (10 q)^T (10 k) = 100 q^T k $', 3, E(2, 10 * 10, "10 x 10")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Typst notes on the Transformer written alongside nano-vllm (sections on 'Attention is all you need', Q/K/V intuition, Scaled Dot-Product Attention with '一个具体矩阵例子' and '为什么要除以 sqrt(d_k)？', QK Norm with the nano-vllm Qwen3Attention code, softmax, per-layer weights, Multi-Head Attention and more; 100,472 characters); the search index did not expose the repository name (stored file id 70291073037). Kept: the d_k = d_v = 64 shape sentence, the whole '一个具体矩阵例子' and the numeric example of '为什么要除以 sqrt(d_k)？' verbatim in Typst math, and the 10 × 10 = 100 remark of the QK Norm section; prose reworded and shortened. Dropped: the history and intuition sections, the variance derivation, the two-position sigmoid derivation, the rest of QK Norm (tables, code, parameter discussion), softmax/weight-sharing/multi-head prose and everything after",
        "source_kind": "study notes (GitHub Typst, Chinese)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Typst math: '$ Q = mat(1, 0; 0, 1; 1, 1) quad ... $' matrices with ';' row separators, 'frac(1, sqrt(2))', 'approx', 'd_\"model\"', 'times', '== ' headings, a quoted Chinese display string, inline vectors '$[8, 6]$'",
        "conventions": "Q = K, so Q K^T = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]; row 1 scaled by sqrt(2) gives softmax [0.401112, 0.197776, 0.401112] ≈ [0.40, 0.20, 0.40] and the weighted Value sum [8.022244, 5.988876] ≈ [8, 6] (also exactly [8, 6] from the printed weights); all its restatements are right. softmax([8, 4, 0]) = [0.981684, 0.017983, 0.000329]; sqrt(64) = 8; softmax([1, 0.5, 0]) = [0.506480, 0.307196, 0.186324]. Every listed number is right. Not listed: Q, K, V, d_k = 2, the token ordinals in prose (第 1、3 个), d_model = 512, h = 8, the unscaled scores [8, 4, 0] and d_k = 64 (given), the Value [10, 0] restated as input",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z4: python-pptx script of a Chinese Transformer deck: cross-entropy values, KV-cache size
# ---------------------------------------------------------------------------
def doc_z4():
    name = "zh_pptx_script_training_loss_kv_cache.md"
    ln = mpmath.log
    kv = 12 * 100 * 2 * 64 * 128 * 2
    specs = [
        S('ce', '如果模型对正确词的预测概率为0.99，损失约等于0.01', 7,
          E(1, -ln(mpf('0.99')), "-ln 0.99 = 0.0100503"), E(3, -ln(mpf('0.01')), "-ln 0.01 = 4.60517"),
          E(4, ln(mpf(37000)), "uniform guess over the 37000-word output layer: ln 37000 = 10.5187")),
        S('dr', 'dropout率0.3（训练时随机丢弃30%的神经元）', 16, E(10, Fraction(3, 10) * 100, "0.3 as a percentage")),
        S('t2', '生成长度翻倍计算量增加4倍', 1, E(0, 2 ** 2, "O(T^2) with T doubled")),
        S('kv', '12层×100词×2(K+V)×64头×128维×2字节≈375MB', 11,
          W(10, mpf(kv) / 10 ** 6, "12 x 100 x 2 x 64 x 128 x 2 = 39,321,600 bytes = 39.32 MB (37.5 MiB); 375 is ten times too large", 'slip')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Python script 'Transformer PPT v6 Part2 - Pages 8-13 (全中文版)' that builds a Chinese slide deck with python-pptx (helpers add_rect/add_line/add_tb/add_title/add_points, slides 8-12: training details, inference and KV cache, decoding strategies, training vs inference, applications); the search index did not expose the repository name (stored file id 52639878062, 19,303 characters). Kept: the slide-8 title, the loss-flow list with '线性变换\\n512×37000', the cross-entropy box, bullets ③ and ④ of slide 8, the slide-9 title and bullets ③ and ④ of slide 9, with the code structure (lists of (title, body) tuples) and every number verbatim; the Chinese bullet bodies are shortened and reworded around the numbers; the one-line header paragraph is mine. Dropped: imports, constants, colour table and helper functions, the mask-matrix drawing loop, bullets ①-② of both slides, the step boxes with example probabilities (0.85/0.78/0.91/0.96, given values), slides 10-12 and the rest of the script",
        "source_kind": "slide-generation script (GitHub Python, Chinese strings)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Python tuples of Chinese strings, numbers glued to Chinese text ('概率为0.99，损失约等于0.01'), a shape label '512×37000' inside a string with '\\n', a product chain '12层×100词×2(K+V)×64头×128维×2字节≈375MB', big-O notation 'O(T²)', 'O(d×T)', Greek letters β₁, ε",
        "conventions": "Cross-entropy uses the natural log: -ln 0.99 = 0.01005 ≈ 0.01, -ln 0.01 = 4.605 ≈ 4.6; the 'random guess' loss is ln V with V = 37000 from the output layer on the same slide, 10.519 ≈ 10.5. Doubling T in O(T²) multiplies the work by 4. KV cache: 12 × 100 × 2 × 64 × 128 × 2 bytes = 39,321,600 bytes = 39.3 MB (decimal) or 37.5 MiB; the printed ≈375MB is a slip (a factor of 10). Not listed: the model configuration (12 layers, 64 heads, 128 dims, 100 words, fp16 2 bytes), WMT 2014, 450万句对, 25000 tokens, Adam betas, learning rate, 4000 warm-up steps, -0.5 exponent, ε = 0.1, dropout 0.3, 8 GPUs, 12 hours, 30万步, BLEU 28.4, the 1.5-3.0 loss range, slide numbers and layout arguments (Inches/Pt values)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z5: sampler note (temperature softmax examples, exponential-noise sampling)
# ---------------------------------------------------------------------------
def doc_z5():
    name = "zh_myvllm_sampler_note_temperature_gumbel.md"
    L = [D('2.0'), D('1.0'), D('0.0')]
    n = lambda v: mp.nstr(v, 6)
    specs = []
    for T, anchor in [('1', 'softmax([2, 1, 0]) ≈'), ('0.5', 'softmax([4, 2, 0]) ≈'), ('2', 'softmax([1, 0.5, 0]) ≈')]:
        sc = [x / D(T) for x in L]
        p = softmax(sc)
        specs.append(S('t' + T, anchor, 6, *[E(k, sc[k], "logit / %s" % T) for k in range(3)],
                       *[E(3 + k, p[k], "softmax(logits / %s)[%d] = %s" % (T, k, n(p[k]))) for k in range(3)]))
    pr, nz = [D('0.7'), D('0.2'), D('0.1')], [D('1.4'), D('0.1'), D('0.5')]
    specs.append(S('pn', 'probs / noise = [0.5, 2.0, 0.2]', 3, *[E(k, pr[k] / nz[k], "%s / %s" % (pr[k], nz[k])) for k in range(3)]))
    meta = {
        "doc": name,
        "source": "GitHub Markdown file note '# src/myvllm/layers/sampler.py' (sections 文件作用, 核心公式, 温度示例, 指数噪声采样示例, 注意事项) from a from-scratch vLLM-style inference project; the search index did not expose the repository name (stored file id 67268144328, 1,033 characters). Whole note kept: every code block and number verbatim, prose reworded",
        "source_kind": "source-file note (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "text code blocks 'softmax([4, 2, 0]) ≈ [0.867, 0.117, 0.016]', 'probs / noise = [0.5, 2.0, 0.2]', formulas 'scaled_logits = logits / temperature', 'argmax(probs / Exp(1))', inline code for PyTorch calls",
        "conventions": "Logits [2.0, 1.0, 0.0] divided by the temperature (1, 0.5, 2): softmax([2,1,0]) = [0.665241, 0.244728, 0.090031], softmax([4,2,0]) = [0.866813, 0.117310, 0.015876], softmax([1,0.5,0]) = [0.506480, 0.307196, 0.186324], all printed correctly to 3 places; probs / noise = [0.5, 2, 0.2] exactly. Not listed: the logits, temperatures, probs and noise, 'Exp(1)', the -1 of unsqueeze(-1)",
    }
    return meta, specs


def truncates_to(claimed, v):
    """True iff the literal equals v truncated (toward zero) at the printed places."""
    lit = claimed.replace(',', '').replace('\u2212', '-')
    places = len(lit.split('.')[1]) if '.' in lit else 0
    digits = int(lit.replace('.', ''))
    q = (M(v) if is_exact(v) else mpf(v)) * mpf(10) ** places
    k = int(mpmath.floor(abs(q)))
    k = k if q >= 0 else -k
    return k == digits


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

DOCS = [doc_z1, doc_z2, doc_z3, doc_z4, doc_z5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
