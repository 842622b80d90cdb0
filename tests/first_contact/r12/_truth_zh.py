"""Independent true values for the Chinese (zh_) first-contact documents of round 12.

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





def layernorm(xs):
    """population variance, gamma = 1, beta = 0, eps = 0 (exact inputs -> mpf outputs)"""
    xs = [Fraction(x) for x in xs]
    n = len(xs)
    mu = sum(xs) / n
    var = sum((x - mu) ** 2 for x in xs) / n
    sd = mpmath.sqrt(M(var))
    return [M(x - mu) / sd for x in xs]


# ---------------------------------------------------------------------------
# Document Z1: "I love cats" forward pass (notes that tie the Transformer to category theory)
# ---------------------------------------------------------------------------
def doc_z1():
    r2 = mpmath.sqrt(2)
    E_ = [[D('0.1'), D('0.3'), D('-0.2'), D('0.5')], [D('-0.4'), D('0.2'), D('0.7'), D('-0.1')], [D('0.6'), D('-0.3'), D('0.1'), D('0.4')]]
    PE = [[D('0.0'), D('1.0'), D('0.0'), D('1.0')], [D('0.8'), D('0.5'), D('0.8'), D('0.5')], [D('0.1'), D('0.0'), D('0.1'), D('0.0')]]
    X = [[E_[i][c] + PE[i][c] for c in range(4)] for i in range(3)]
    q = [D('-0.5'), D('1.2')]
    K = [[D('0.3'), D('-0.8')], [D('1.1'), D('0.2')], [D('-0.7'), D('0.5')]]
    V = [[D('-0.4'), D('1.0')], [D('0.6'), D('-0.5')], [D('1.2'), D('0.3')]]
    prods = [[q[0] * K[j][0], q[1] * K[j][1]] for j in range(3)]
    dots = [prods[j][0] + prods[j][1] for j in range(3)]
    sc = [M(d) / r2 for d in dots]
    w = softmax(sc)
    pv = [[w[j] * M(V[j][c]) for c in range(2)] for j in range(3)]
    a1 = [sum(pv[j][c] for j in range(3)) for c in range(2)]
    attn = [D('0.42'), D('-0.18'), D('0.63'), D('0.25')]
    res1 = [X[1][c] + attn[c] for c in range(4)]
    mid = layernorm(res1)
    ffn = [D('0.33'), D('0.15'), D('-0.42'), D('0.61')]
    pre = [D('0.8'), D('-0.5'), D('0.0'), D('1.3'), D('-0.2'), D('0.6'), D('-0.9'), D('1.1')]
    relu = [max(Fraction(0), p) for p in pre]
    res2 = [mid[c] + M(ffn[c]) for c in range(4)]
    mu2 = sum(res2) / 4
    sd2 = mpmath.sqrt(sum((v - mu2) ** 2 for v in res2) / 4)
    out = [(v - mu2) / sd2 for v in res2]
    cross = softmax([D('2.3'), D('1.8'), D('0.5')])
    nm = ['I', 'love', 'cats']
    specs = []
    for i in range(3):
        specs.append(S('x%d' % i, '|x_%d^(0)⟩ = 嵌入' % (i + 1), 15,
                       *[E(11 + c, X[i][c], "x_%d^(0)[%d] = embedding + PE" % (i + 1, c)) for c in range(4)]))
    specs.append(S('q', 'Q₂ = x₂^(0) · Wᵟ₁ = [-0.5, 1.2]', 7, *[E(3 + c, X[1][c], "x_2^(0) restated") for c in range(4)]))
    for j, a in enumerate(['j=1 ("I"):', 'j=2 ("love"):', 'j=3 ("cats"):']):
        specs.append(S('s%d' % j, a, 10,
                       E(5, r2, "sqrt(2)"), E(6, prods[j][0], "q[0]*k_%d[0]" % (j + 1)),
                       E(7, abs(prods[j][1]), "|q[1]*k_%d[1]| (written with its sign as an operator)" % (j + 1)),
                       E(8, r2, "sqrt(2)"),
                       E(9, sc[j], "score = %s / sqrt2 = %s" % (dots[j], mp.nstr(sc[j], 6)))))
    WT = "softmax weight on %s = %s (from scores %s)"
    specs.append(S('A', 'A₂ⱼ = softmax([-0.78, -0.22, 0.67])', 6,
                   *[E(j, sc[j], "score restated") for j in range(3)],
                   *[W(3 + j, w[j], WT % (nm[j], mp.nstr(w[j], 6), "[-0.7849, -0.2192, 0.6718]"), 'slip') for j in range(3)]))
    specs.append(S('Ar', '← token "love" 最关注', 3,
                   W(0, w[2], "weight on cats restated (true 0.609)", 'carried', 'A'),
                   W(1, w[1], "weight on love restated (true 0.250)", 'carried', 'A'),
                   W(2, w[0], "weight on I restated (true 0.142)", 'carried', 'A')))
    specs.append(S('wv', '= 0.12×[-0.4, 1.0]', 9,
                   W(0, w[0], "weight restated", 'carried', 'A'), W(3, w[1], "weight restated", 'carried', 'A'),
                   W(6, w[2], "weight restated", 'carried', 'A')))
    ents = []
    for j in range(3):
        for c in range(2):
            ents.append(W(2 * j + c, pv[j][c], "A_2%d * V_%d[%d] = %s (printed weight times V)" % (j + 1, j + 1, c, mp.nstr(pv[j][c], 6)), 'carried', 'A'))
    specs.append(S('pv', '= [-0.048, 0.12] + [0.132, -0.11]', 6, *ents))
    specs.append(S('a1', '^           = [0.88, 0.21]', 2,
                   W(0, a1[0], "a_2^(1)[0] = %s" % mp.nstr(a1[0], 6), 'carried', 'A'),
                   W(1, a1[1], "a_2^(1)[1] = %s" % mp.nstr(a1[1], 6), 'carried', 'A')))
    specs.append(S('m1', 'S1["score₂₁ = -0.78"]', 5, E(4, sc[0], "score restated")))
    specs.append(S('m2', 'S2["score₂₂ = -0.22"]', 3, E(2, sc[1], "score restated")))
    specs.append(S('m3', 'S3["score₂₃ = 0.67"]', 3, E(2, sc[2], "score restated")))
    for j, a in enumerate(['A1["A₂₁ = 0.12 ← I"]', 'A2["A₂₂ = 0.22 ← love"]', 'A3["A₂₃ = 0.66 ← cats"]']):
        specs.append(S('ma%d' % j, a, 3, W(2, w[j], "weight restated (true %s)" % mp.nstr(w[j], 4), 'carried', 'A')))
    specs.append(S('mo', 'OUT["❘a₂⁽¹⁾❘ = [0.88, 0.21]"]', 3,
                   W(1, a1[0], "a_2^(1) restated (true %s)" % mp.nstr(a1[0], 4), 'carried', 'a1'),
                   W(2, a1[1], "a_2^(1) restated (true %s)" % mp.nstr(a1[1], 4), 'carried', 'a1')))
    specs.append(S('cc', 'Concat(|a₂^(1)⟩, |a₂^(2)⟩) = [0.88', 6,
                   W(2, a1[0], "concat entry = head-1 output (true %s)" % mp.nstr(a1[0], 4), 'carried', 'a1'),
                   W(3, a1[1], "concat entry = head-1 output (true %s)" % mp.nstr(a1[1], 4), 'carried', 'a1')))
    specs.append(S('r1', '=x₂^(ℓ,mid) = LayerNorm( [0.4, 0.7, 1.5, 0.4]', 8, *[E(c, X[1][c], "x_2^(0) restated") for c in range(4)]))
    specs.append(S('r1s', '= LayerNorm( [0.82, 0.52, 2.13, 0.65] )', 4, *[E(c, res1[c], "x_2^(0) + attn_2 [%d]" % c) for c in range(4)]))
    specs.append(S('mid', '= [0.15, -0.22, 1.08, -0.31]', 4,
                   *[W(c, mid[c], "LayerNorm([0.82, 0.52, 2.13, 0.65])[%d] = %s (mean 1.03, population sd 0.643933)" % (c, mp.nstr(mid[c], 6)), 'slip') for c in range(4)]))
    specs.append(S('midr', '= ReLU( [0.15, -0.22, 1.08, -0.31] · W₁', 4,
                   *[W(c, mid[c], "x_mid restated (true %s)" % mp.nstr(mid[c], 4), 'carried', 'mid') for c in range(4)]))
    specs.append(S('relu', '= [0.8, 0.0, 0.0, 1.3, 0.0, 0.6, 0.0, 1.1] · W₂', 8,
                   *[E(c, relu[c], "ReLU(%s)" % pre[c]) for c in range(8)]))
    specs.append(S('r2a', '|x₂^(1)⟩ = LayerNorm( [0.15, -0.22, 1.08, -0.31] +', 9,
                   *[W(1 + c, mid[c], "x_mid restated (true %s)" % mp.nstr(mid[c], 4), 'carried', 'mid') for c in range(4)]))
    specs.append(S('r2s', '= LayerNorm( [0.48, -0.07, 0.66, 0.30] )', 4,
                   *[W(c, res2[c], "x_mid + ffn [%d] = %s (printed x_mid + ffn is right arithmetic)" % (c, mp.nstr(res2[c], 6)), 'carried', 'mid') for c in range(4)]))
    specs.append(S('out', '= [-0.10, -0.35, 0.22, -0.18]', 4,
                   *[W(c, out[c], "LayerNorm(true x_mid + ffn)[%d] = %s; even LayerNorm of the printed [0.48, -0.07, 0.66, 0.30] is [0.509, -1.528, 1.176, -0.157]" % (c, mp.nstr(out[c], 6)), 'slip') for c in range(4)]))
    specs.append(S('mask', '因果掩码：A₂₃ 被强制为 0', 1, E(0, 0, "masked weight")))
    specs.append(S('cr', 'A₂ⱼ^cross = softmax([2.3, 1.8, 0.5])', 6,
                   *[W(3 + j, cross[j], "softmax([2.3, 1.8, 0.5])[%d] = %s" % (j, mp.nstr(cross[j], 6)), 'slip') for j in range(3)]))
    specs.append(S('crr', '最关注源句的主语 "I"（权重 0.58）', 2,
                   W(0, cross[0], "cross weight restated (true 0.5644)", 'carried', 'cr'),
                   W(1, cross[1], "cross weight restated (true 0.3423)", 'carried', 'cr')))
    meta = {
        "doc": "zh_i_love_cats_forward_pass_category_notes.md",
        "source": "GitHub Markdown note 「# Transformer 架构示意」 (based on Vaswani et al. 2017; mermaid diagrams of the architecture, then 「完整前向传播：从 |x_i⟩ 到输出」 with the 'I love cats' → 'j'aime les chats' example, a summary table and a section linking the Transformer to category theory: comonad counit, Yoneda, Day convolution); the search index did not expose the repository name (stored file id 55940621045). Kept: the whole worked forward pass (示例设定, 第 0 步, 3a with its code block and the head-1 mermaid diagram, head 2, 拼接 + 投影, 3b, 3c, 3d, 编码器输出, 解码器侧 masked and cross attention) with every number and the ket notation verbatim; prose reworded. Dropped: the architecture mermaid diagrams, formula and parameter tables before the example, the other mermaid diagrams of the example, the 更新/不变 tables, the 第 2…N 层 sketch, the line '|a₂^cross⟩ = 0.58·V₁ + 0.35·V₂ + 0.07·V₃ = [0.21, -0.56, 0.84, -0.12]' (V^cross is never given, so the result cannot be checked), the 末层输出 block (partial logits '[..., 3.2, ..., 0.8, ...]' and probabilities '[..., 0.003, ...]' that cannot be checked), the summary table and the category-theory sections",
        "source_kind": "study notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "ket notation |x_1^(0)⟩, |a₂^(1)⟩, |attn₂⟩ in plain-text code blocks; Unicode subscripts/superscripts (Q₂, Wᵟ₁, Wᴷ₁, A₂ⱼ, score₂₁); products written '0.12×[-0.4, 1.0]'; '/ 1.414' for the √2 scaling; a mermaid graph whose node labels repeat the numbers ('A₂₁ = 0.12 ← I'); LayerNorm(...) applied to bracketed vectors; Chinese comments with arrows",
        "conventions": "Scores are q·k/√2 with the exact √2 (the printed '/1.414' gives the same 2-decimal scores): -1.11/√2 = -0.784889, -0.31/√2 = -0.219203, 0.95/√2 = 0.671751. softmax of those is [0.141800, 0.249661, 0.608538], so the printed [0.12, 0.22, 0.66] are slips (they are not even the softmax of the rounded scores, which is [0.1426, 0.2496, 0.6078]); everything built on them (the ×V products, [0.88, 0.21], the mermaid labels, the Concat entries) is carried: the true head-1 output is [0.823323, 0.199531]. LayerNorm is taken with γ = 1, β = 0, ε = 0 and the population variance (the formula table of the source writes γ·(x−μ)/σ+β and no γ, β values are ever given): LayerNorm([0.82, 0.52, 2.13, 0.65]) = [-0.326121, -0.792008, 1.708250, -0.590123], so [0.15, -0.22, 1.08, -0.31] are slips (they do not even have zero mean); their restatements and the sum [0.48, -0.07, 0.66, 0.30] (correct addition of the printed numbers) are carried; the final LayerNorm output [-0.10, -0.35, 0.22, -0.18] is wrong for the true input and also for the printed input, so it is a slip. Cross-attention softmax([2.3, 1.8, 0.5]) = [0.564388, 0.342319, 0.093293]: all three printed values are slips. Given (not listed): token ids, embeddings, the PE vectors (they are stated values, not sin/cos), Q₂, K, V, the head-2 output [-0.35, 0.92], |attn₂⟩ (W^O is not given), the FFN pre-activation [0.8, -0.5, ...] and output [0.33, 0.15, -0.42, 0.61] (W₁, W₂ not given), the frozen encoder outputs, the cross-attention scores [2.3, 1.8, 0.5]; also positions/indices, d_model = 4, h = 2, d_k = 2, ×128, matrix shapes 4×2, 4×8, 8×4. The ReLU outputs and the masked weight 0 are listed (exact)",
    }
    return meta, specs


def auto(idx, truth, what, kind='slip', cf=None):
    """entry whose status is decided by the literal at build time (set later by fix_auto)"""
    return dict(idx=idx, truth=truth, what=what, status='auto', kind=kind, cf=cf)


def resolve(lines_doc, specs):
    """turn 'auto' entries into ok / wrong entries by comparing with the literal"""
    for sp, found, toks in locate(lines_doc, specs, '?'):
        new = []
        for e in sp.entries:
            if e['status'] == 'auto':
                lit = toks[e['idx']][0]
                e = dict(e)
                if rounds_to(lit, e['truth']):
                    e['status'], e['kind'], e['cf'] = 'ok', None, None
                else:
                    e['status'] = 'wrong'
            new.append(e)
        sp.entries = tuple(new)
    return specs


def doclines(name):
    return open(os.path.join(HERE, name), encoding='utf-8').read().split('\n')


# ---------------------------------------------------------------------------
# Document Z2: course chapter "6. Transformer模型": scaling demo, PE wavelengths, causal-mask softmax
# ---------------------------------------------------------------------------
def doc_z2():
    name = "zh_transformer_chapter6_scaling_mask_softmax.md"
    raw = [80, 70, 60, 50]
    p_raw = softmax(raw)
    scaled = [Fraction(x, 8) for x in raw]
    p_sc = softmax(scaled)
    rows = {2: [D('3.2'), D('7.8')], 3: [D('2.0'), D('3.5'), D('6.5')], 4: [D('1.5'), D('2.0'), D('3.0'), D('5.5')]}
    specs = [
        S('dk', '| $d_k = d_v$ | 64 |', 3, E(0, Fraction(512, 8), "d_model / h = 512/8")),
        S('sq1', 'd_k=64, √d_k=8', 2, E(1, 8, "sqrt(64)")),
        S('sq2', 'd_k = 64, √d_k = 8', 2, E(1, 8, "sqrt(64)")),
        S('raw', '原始分数: [80, 70, 60, 50]', 8,
          W(4, p_raw[0], "softmax([80,70,60,50])[0] = %s (rounds to 1.000; 0.999 is the truncation)" % mp.nstr(p_raw[0], 8), 'rounding'),
          W(5, p_raw[1], "softmax([80,70,60,50])[1] = %s = e^-10 / (1 + e^-10 + e^-20 + e^-30)" % mp.nstr(p_raw[1], 6), 'slip'),
          E(6, p_raw[2], "softmax weight 3 = %s, printed '~0'" % mp.nstr(p_raw[2], 4)),
          E(7, p_raw[3], "softmax weight 4 = %s, printed '~0'" % mp.nstr(p_raw[3], 4))),
        S('sc', '缩放后:   [10, 8.75, 7.5, 6.25]', 8,
          *[E(j, scaled[j], "%d / 8" % raw[j]) for j in range(4)],
          *[auto(4 + j, p_sc[j], "softmax([10, 8.75, 7.5, 6.25])[%d] = %s" % (j, mp.nstr(p_sc[j], 6))) for j in range(4)]),
        S('wl', '- i=2:   wavelength = 2π·10000^(2/512) ≈ 2π·1.04', 7,
          E(6, mpmath.power(10000, mpf(2) / 512), "10000^(2/512) = %s" % mp.nstr(mpmath.power(10000, mpf(2) / 512), 6))),
        S('wl2', '- i=512: wavelength', 7, E(6, 10000, "10000^(512/512) = 10000")),
        S('f1', '  1   sin(1)    cos(1)    sin(0.01) cos(0.01)', 5,
          E(3, Fraction(1, 100), "pos 1 times 1/10000^(2/4)"), E(4, Fraction(1, 100), "pos 1 times 1/10000^(2/4)")),
        S('f2', '  2   sin(2)    cos(2)    sin(0.02) cos(0.02)', 5,
          E(3, Fraction(2, 100), "pos 2 times 1/10000^(2/4)"), E(4, Fraction(2, 100), "pos 2 times 1/10000^(2/4)")),
        S('m1', 'pos1   [1.0    0      0      0    ]  <- pos1只看自己', 6,
          E(1, 1, "single visible score"), E(2, 0, "masked"), E(3, 0, "masked"), E(4, 0, "masked")),
    ]
    for r, a, n in [(2, 'pos2   [0.01   0.99   0      0    ]', 7), (3, 'pos3   [0.02   0.08   0.90   0    ]', 6),
                    (4, 'pos4   [0.03   0.05   0.12   0.80 ]', 6)]:
        p = softmax(rows[r])
        ents = [auto(1 + j, p[j], "row %d softmax of %s, entry %d = %s" % (r, [str(x) for x in rows[r]], j + 1, mp.nstr(p[j], 6))) for j in range(r)]
        ents += [E(1 + j, 0, "masked") for j in range(r, 4)]
        specs.append(S('r%d' % r, a, n, *ents))
    specs = resolve(doclines(name), specs)
    meta = {
        "doc": name,
        "source": "GitHub Markdown course chapter 「# 6. Transformer模型」 (6.1 概述, 6.2 模型结构详解 with 6.2.3 编码器 and 6.2.4 解码器, many mermaid diagrams; code placeholders point to translation_transformer/src/model.py); the search index did not expose the repository name (stored file id 43736253781, 85,585 characters). Kept: the 架构参数 table, the 矩阵计算步骤详解 and 为什么要除以√d_k blocks of 6.2.3.2, the position-encoding formula with 位置编码计算步骤详解 and 直观理解 blocks of 6.2.3.5, the 掩码矩阵详解 block of 6.2.4.2 and the first rows of its comparison table, all verbatim; the short connecting prose is reworded. Dropped: everything else (history, mermaid diagrams, Q/K/V analogies, FFN, residual/LayerNorm text, cross-attention, code placeholders)",
        "source_kind": "course notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "plain-text code blocks with arrows '-> softmax ->', '~0' for tiny weights, bracketed score rows with column headers pos1..pos4, '-∞' for masked entries, LaTeX display for the PE formula, '2π·10000^(2/512) ≈ 2π·1.04' style wavelengths, a Markdown parameter table",
        "conventions": "The masked softmax example applies softmax directly to the printed (unscaled) scores, as the block says ('Softmax后'): row 2 softmax([3.2, 7.8]) = [0.009952, 0.990048] (printed correctly), row 3 softmax([2.0, 3.5, 6.5]) = [0.010471, 0.046929, 0.942599], row 4 softmax([1.5, 2.0, 3.0, 5.5]) = [0.016200, 0.026709, 0.072603, 0.884488]; the printed rows 3 and 4 are slips. The scaling demo: softmax([80,70,60,50]) = [0.9999546, 4.54e-5, 2.06e-9, 9.4e-14], so 0.999 is a truncation (rounding) and 0.001 a slip; softmax([10, 8.75, 7.5, 6.25]) = [0.718335, 0.205807, 0.058965, 0.016894], so 0.6, 0.25 and 0.05 are slips while 0.1 (one decimal) is right. The wavelength line writes 10000^(2/512) for i=2 (the source treats i as the dimension index here, unlike its own formula with 2i); the expression as written is 1.036633 and the printed ≈1.04 is listed as right for that expression. Not listed: the paper's hyperparameters (512, 2048, 8, 6, 0.1), matrix shapes [4, 64] etc., the raw scores and mask entries, section numbers, ranges [-1, 1]",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z3: "AI 学习本" browser notebook, src/transformer.js, 我 爱 你 by hand
# ---------------------------------------------------------------------------
def doc_z3():
    name = "zh_ai_notebook_transformer_tab_wo_ai_ni.md"
    r2 = mpmath.sqrt(2)
    q = [D('1.0'), D('0.2')]
    K = [[D('0.5'), D('0.8')], [D('1.0'), D('0.3')], [D('0.2'), D('0.9')]]
    dots = [q[0] * k[0] + q[1] * k[1] for k in K]
    sc = [M(d) / r2 for d in dots]
    w = softmax(sc)
    nm = ['我', '爱', '你']
    specs = [
        S('dot', '我·我: 1.0×0.5 + 0.2×0.8 = 0.66', 15, *[E(4 + 5 * j, dots[j], "q_我 · k_%s" % nm[j]) for j in range(3)]),
        S('sc', '√d_k = √2 ≈ 1.41　→　[0.47, 0.75, 0.27]', 8,
          E(1, r2, "sqrt(2)"), *[E(2 + j, sc[j], "%s / sqrt2 = %s" % (dots[j], mp.nstr(sc[j], 6))) for j in range(3)],
          *[W(5 + j, w[j], "softmax weight on %s = %s" % (nm[j], mp.nstr(w[j], 6)), 'slip') for j in range(3)]),
        S('v', '0.31×V(我) + 0.46×V(爱) + 0.23×V(你)', 3,
          *[W(j, w[j], "weight restated (true %s)" % mp.nstr(w[j], 4), 'carried', 'sc') for j in range(3)]),
        S('pc', '掺进了 46% 的「爱」、23% 的「你」', 2,
          W(0, 100 * w[1], "weight on 爱 in percent (true %s)" % mp.nstr(100 * w[1], 4), 'carried', 'sc'),
          W(1, 100 * w[2], "weight on 你 in percent (true %s)" % mp.nstr(100 * w[2], 4), 'carried', 'sc')),
        S('s2', "'第 2 步：「我」的 Q 点所有 K：0.66、1.06、0.38", 4, *[E(1 + j, dots[j], "score restated") for j in range(3)]),
        S('s3', "'第 3 步：除以 √2 ≈ 1.41", 9,
          E(2, r2, "sqrt(2)"), *[E(3 + j, sc[j], "scaled score restated") for j in range(3)],
          *[W(6 + j, w[j], "weight restated (true %s)" % mp.nstr(w[j], 4), 'carried', 'sc') for j in range(3)]),
        S('s4', "'第 4 步：加权 V 求和", 2, W(1, 100 * w[1], "percent restated (true 42.16)", 'carried', 'sc')),
    ]
    meta = {
        "doc": name,
        "source": "GitHub JavaScript file src/transformer.js of a browser study notebook 「AI 学习本」 (its 「Transformer 深度解析板块」: teaching HTML in the template string TRANS_CONTENT, canvas drawings of positional-encoding waves and of CNN vs attention, and a button that shows one random step of the hand calculation); the search index did not expose the repository name (stored file id 63001870799). Kept, as one JS code block: the header comment, the part of TRANS_CONTENT with 零件 ① (embedding table) and 零件 ④ (the 我/爱/你 hand calculation with its HTML table and ms-step blocks), and the function bindCalc with its four step strings, numbers and markup verbatim; the Chinese sentences inside the HTML are reworded. Dropped: sections 壹-叁, 零件 ②③⑤-⑧, sections 伍-捌 (including the paper's BLEU table, which quotes published results), drawPosEncoding, drawCompare and the module entry points",
        "source_kind": "interactive lesson source code (GitHub JavaScript with embedded HTML, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "HTML inside a JS template literal: <p class=\"mono\"> lines with ×, full-width spaces and '→', <br> separated dot products '我·我: 1.0×0.5 + 0.2×0.8 = 0.66', an HTML table of Q/K rows, percentages in prose, the same numbers repeated in JS string literals inside an array",
        "conventions": "Scores q_我·k_j = [0.66, 1.06, 0.38] (exact), scaled by the exact √2: [0.466690, 0.749533, 0.268701] (the printed 2-decimal values are right). softmax of the scaled scores is [0.317735, 0.421602, 0.260663] (the rounded [0.47, 0.75, 0.27] give the same to 3 decimals), so the printed [0.31, 0.46, 0.23] are slips, and every restatement of them, including 46% and 23%, is carried. Not listed: the embedding rows and the Q/K table (given), the factors inside the dot products, step numbers, section numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z4: LLM study chapter "2.7 损失函数": softmax, temperature, cross-entropy, NLL, PPL
# ---------------------------------------------------------------------------
def doc_z4():
    name = "zh_loss_chapter_softmax_temperature_cross_entropy.md"
    z = [D('2.0'), D('1.0'), D('-1.0')]
    ex = [mpmath.exp(M(v)) for v in z]
    p1 = softmax(z)
    p05 = softmax([v / D('0.5') for v in z])
    p2 = softmax([v / D('2.0') for v in z])
    L = lambda p: -mpmath.log(M(D(p)))
    specs = [
        S('ex', 'exp:     [7.39, 2.72, 0.37]', 3, *[E(j, ex[j], "exp(%s) = %s" % (z[j], mp.nstr(ex[j], 6))) for j in range(3)]),
        S('sm', 'softmax: [0.71, 0.26, 0.03]', 4,
          E(0, p1[0], "softmax([2,1,-1])[0] = %s" % mp.nstr(p1[0], 6)), E(1, p1[1], "softmax([2,1,-1])[1] = %s" % mp.nstr(p1[1], 6)),
          W(2, p1[2], "softmax([2,1,-1])[2] = %s (rounds to 0.04; 0.03 is the truncation)" % mp.nstr(p1[2], 6), 'rounding'),
          E(3, 1, "sum of the probabilities")),
        S('t1', 'T=1.0:  [0.71, 0.26, 0.03]', 4,
          E(1, p1[0], "T = 1 row restated"), E(2, p1[1], "T = 1 row restated"),
          W(3, p1[2], "T = 1 row restated (true 0.0351)", 'carried', 'sm')),
        S('t05', 'T=0.5:  [0.91, 0.09, 0.00]', 4,
          W(1, p05[0], "softmax([4, 2, -2])[0] = %s" % mp.nstr(p05[0], 6), 'slip'),
          W(2, p05[1], "softmax([4, 2, -2])[1] = %s" % mp.nstr(p05[1], 6), 'slip'),
          E(3, p05[2], "softmax([4, 2, -2])[2] = %s" % mp.nstr(p05[2], 6))),
        S('t2', 'T=2.0:  [0.54, 0.33, 0.13]', 4,
          W(1, p2[0], "softmax([1, 0.5, -0.5])[0] = %s (rounds to 0.55; 0.54 is the truncation)" % mp.nstr(p2[0], 6), 'rounding'),
          E(2, p2[1], "softmax([1, 0.5, -0.5])[1] = %s" % mp.nstr(p2[1], 6)),
          W(3, p2[2], "softmax([1, 0.5, -0.5])[2] = %s" % mp.nstr(p2[2], 6), 'slip')),
        S('t0', 'T→0:    [1.0,  0.0,  0.0]', 4, E(1, 1, "limit T -> 0 (argmax)"), E(2, 0, "limit T -> 0"), E(3, 0, "limit T -> 0")),
        S('tinf', 'T→∞:    [0.33, 0.33, 0.33]', 3, *[E(j, Fraction(1, 3), "limit T -> infinity: 1/3") for j in range(3)]),
        S('ce1', '^       = 0.357', 1, E(0, L('0.7'), "-ln 0.7 = %s" % mp.nstr(L('0.7'), 6))),
        S('ce2', '交叉熵 = -log(0.99) = 0.01', 2, E(1, L('0.99'), "-ln 0.99 = %s" % mp.nstr(L('0.99'), 6))),
        S('ce3', '交叉熵 = -log(0.01) = 4.6', 2, E(1, L('0.01'), "-ln 0.01 = %s" % mp.nstr(L('0.01'), 6))),
        S('nll', 'Loss = -log(0.6) = 0.51', 2, E(1, L('0.6'), "-ln 0.6 = %s" % mp.nstr(L('0.6'), 6))),
        S('nll2', '如果 P("真") = 0.99 → Loss = 0.01', 2, E(1, L('0.99'), "-ln 0.99")),
        S('nll3', '如果 P("真") = 0.01 → Loss = 4.6', 2, E(1, L('0.01'), "-ln 0.01")),
        S('pp2', 'Loss = 2.0 → PPL = exp(2.0) = 7.4', 4, E(2, mpmath.exp(2), "e^2"), E(3, mpmath.exp(2), "e^2 to the nearest whole number of words")),
        S('pp1', 'Loss = 1.0 → PPL = exp(1.0) = 2.7', 4, E(2, mpmath.e, "e"), E(3, mpmath.e, "e to the nearest whole number of words")),
        S('pp05', 'Loss = 0.5 → PPL = exp(0.5) = 1.6', 3, E(2, mpmath.exp(mpf('0.5')), "e^0.5")),
    ]
    meta = {
        "doc": name,
        "source": "GitHub Markdown chapter 「# 2.7 损失函数 ⭐⭐⭐」 of a Chinese LLM-engineer study path (deep-learning part; links to ./01-neural-network-basics.md, ../03-nlp-embedding-retrieval/04-language-model-decoding.md, ../04-transformer-foundations/); the search index did not expose the repository name (stored file id 53254963825). Kept: 工程师导读 (shortened to its number-bearing block), sections 1.1-1.4, 2.1 (shortened), 2.2, 3.1-3.3 and items 3-5 of section 5, every code block with its numbers verbatim; prose reworded. Dropped: table of contents, the 阶段 0 recap lines of 2.1, 2.3 (restated in one sentence), section 4 (table of other losses), items 1, 2, 6 of section 5, section 6 (interview answers without numbers), reading path and navigation links",
        "source_kind": "study notes (GitHub Markdown, Chinese)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "plain-text code blocks: vectors in brackets with '↓ exp' arrows, a temperature table 'T=0.5:  [0.91, 0.09, 0.00]  ← 更尖锐', limits 'T→0', 'T→∞', '-log(0.7)' with natural log, 'PPL = exp(2.0) = 7.4（在 7 个词之间犹豫）', Unicode subscripts zᵢ, Σⱼ",
        "conventions": "log is the natural logarithm (PyTorch convention; -log 0.7 = 0.357 confirms it). softmax([2, 1, -1]) = [0.705385, 0.259496, 0.035119]: 0.03 is a truncation (rounding) and its repetition in the T=1.0 row is carried. T = 0.5 means softmax([4, 2, -2]) = [0.878878, 0.118943, 0.002179]: 0.91 and 0.09 are slips; T = 2 means softmax([1, 0.5, -0.5]) = [0.546549, 0.331499, 0.121952]: 0.54 is a truncation (rounding), 0.13 a slip. The T→0 and T→∞ rows are the exact limits [1, 0, 0] and [1/3, 1/3, 1/3]. The 'number of words' 7 and 3 are e^2 and e rounded to whole numbers. Not listed: 5 万 / 50000 (vocabulary size), the one-hot and predicted distributions (given), exp(1000), 1/T and 1/3 in the sequence-loss formula, section numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document Z5: Nova decoder-only model, hand calculations in the source comments
# ---------------------------------------------------------------------------
def doc_z5():
    name = "zh_nova_decoder_model_commented_source.md"
    silu_in = [D(s) for s in ['1.2', '-0.3', '0.8', '0.5', '-2.0', '0.1', '0.3', '-0.7']]
    silu = [M(x) / (1 + mpmath.exp(-M(x))) for x in silu_in]
    q = [D('0.3'), D('0.1'), D('-0.2'), D('0.4')]
    Ks = [[D('0.1'), D('-0.1'), D('0.0'), D('0.0')], [D('0.4'), D('0.2'), D('-0.3'), D('0.3')],
          [D('0.3'), D('0.1'), D('-0.2'), D('0.4')], [D('0.2'), D('0.0'), D('-0.1'), D('0.2')]]
    dots = [sum(q[c] * k[c] for c in range(4)) for k in Ks]
    raw = [D('8.0'), D('3.0'), D('1.0'), D('2.0')]
    p_raw = softmax(raw)
    sc = [x / 8 for x in raw]
    p_sc = softmax(sc)
    p34 = softmax([D('3.1'), D('0.4'), D('0.5')])
    wts = [D('0.21'), D('0.50'), D('0.29')]
    Vs = [[D('1.0'), D('0.0'), D('0.5'), D('0.2')], [D('0.3'), D('0.8'), D('0.1'), D('0.6')], [D('0.5'), D('0.4'), D('0.7'), D('0.3')]]
    newv = [sum(wts[j] * Vs[j][c] for j in range(3)) for c in range(4)]
    tok = [D('0.12'), D('-0.34'), D('0.56')]
    pos = [D('0.04'), D('-0.01'), D('0.05')]
    d, dff, V = 128, 512, 1000
    block = 4 * d * d + 3 * d * dff + 2 * d
    total = V * d + 128 * d + 4 * block + d + d * V
    names = ['<s>', '你', '好', '吗']
    specs = [
        S('nrm', 'RMSNorm 一共被调用 9 次', 4, E(0, 2 * 4 + 1, "2 per block x 4 blocks + 1 final")),
        S('silu', '# SiLU    = [ 0.92', 8, *[auto(j, silu[j], "silu(%s) = %s" % (silu_in[j], mp.nstr(silu[j], 6))) for j in range(8)]),
        S('hd', '每个头负责 384 / 6 = 64', 5, E(4, Fraction(384, 6), "384 / 6")),
    ]
    for j, a in enumerate(['"好"对"<s>"的分数', '"好"对"你"的分数', '"好"对"好"的分数', '"好"对"吗"的分数']):
        specs.append(S('d%d' % j, a, 9, E(8, dots[j], "Q_好 · K_%s" % names[j])))
    specs += [
        S('praw', '#   softmax → [0.99, 0.01, 0.00, 0.00]', 4, *[auto(j, p_raw[j], "softmax([8,3,1,2])[%d] = %s" % (j, mp.nstr(p_raw[j], 6))) for j in range(4)]),
        S('div', '÷√64=÷8 → [1.0, 0.375, 0.125, 0.25]', 6, E(1, 8, "sqrt(64)"), *[E(2 + j, sc[j], "%s / 8" % raw[j]) for j in range(4)]),
        S('psc', '#   softmax → [0.41, 0.22, 0.17, 0.19]', 4, *[auto(j, p_sc[j], "softmax([1, 0.375, 0.125, 0.25])[%d] = %s" % (j, mp.nstr(p_sc[j], 6))) for j in range(4)]),
        S('p34', '# [3.1, 0.4, 0.5, -inf] → [0.88, 0.06, 0.07, 0.00]', 7,
          *[auto(3 + j, p34[j], "softmax([3.1, 0.4, 0.5])[%d] = %s" % (j, mp.nstr(p34[j], 6))) for j in range(3)], E(6, 0, "masked (-inf)")),
        S('w0', '"好"的注意力权重：[0.21, 0.50, 0.29, 0.00]', 4, E(3, 0, "weight on the masked 吗")),
        S('nv', '"好"的新向量 = 0.21×V_<s>', 7, *[E(3 + c, newv[c], "0.21 V_<s> + 0.50 V_你 + 0.29 V_好 [%d] = %s (exact)" % (c, newv[c] if newv[c].denominator != 1 else newv[c])) for c in range(4)]),
        S('emb', '相加得到: [0.16, -0.35, 0.61, ...]', 4, *[E(c, tok[c] + pos[c], "token + position [%d]" % c) for c in range(3)]),
        S('p1', 'Token Embedding:    1000 × 128', 3, E(2, V * d, "1000 x 128")),
        S('p2', 'Position Embedding: 128 × 128', 3, E(2, 128 * d, "128 x 128")),
        S('p3', 'TransformerBlock × 4: 4 × 262,400', 4,
          E(2, block, "per block: 4 d^2 (Q,K,V,O) + 3 d d_ff (SwiGLU W1,W2,W3) + 2 d (two RMSNorm) with d = 128, d_ff = 512"),
          E(3, 4 * block, "4 x 262,400")),
        S('p4', 'Final RMSNorm:      128', 2, E(1, d, "gamma of the final RMSNorm")),
        S('p5', 'Output Linear:      128 × 1000', 3, E(2, d * V, "128 x 1000")),
        S('pt', '总计:               ~1,322,112', 2, E(0, total, "sum of the five lines"), E(1, mpf(total) / 10 ** 6, "total in millions")),
        S('n1', '√128 ≈ 11，太大', 7, E(6, mpmath.sqrt(128), "sqrt(128) = %s" % mp.nstr(mpmath.sqrt(128), 6))),
        S('n2', '0.02 使范数约 0.02×√128 ≈ 0.23', 4, E(3, mpf('0.02') * mpmath.sqrt(128), "0.02 sqrt(128) = %s" % mp.nstr(mpf('0.02') * mpmath.sqrt(128), 6))),
        S('x1', '例如 W_Q [128, 128]：范围约 ±0.153', 3, E(2, mpmath.sqrt(mpf(6) / 256), "sqrt(6/(128+128)) = %s" % mp.nstr(mpmath.sqrt(mpf(6) / 256), 6))),
        S('x2', '例如 FFN W1 [128, 512]：范围约 ±0.097', 4, E(3, mpmath.sqrt(mpf(6) / 640), "sqrt(6/(128+512)) = %s" % mp.nstr(mpmath.sqrt(mpf(6) / 640), 6))),
    ]
    specs = resolve(doclines(name), specs)
    meta = {
        "doc": name,
        "source": "GitHub Python source model.py of a from-scratch decoder-only model 「Nova Decoder-Only Transformer 模型」 (RMSNorm ①, SwiGLUFFN ②, MultiHeadAttention ③, TransformerBlock ④, NovaModel ⑤ with _init_weights ⑤a; imports NovaConfig from config) whose Chinese comments work small examples by hand; the search index did not expose the repository name (stored file id 53349119806; two other stored versions, ids 58277322390 and 53103924969, carry the same attention comments). Kept, in one python block: RMSNorm (call count and formula), the SiLU example of SwiGLUFFN.forward, the head_dim comment, the attention comments 3.1-3.4 and 3.6 with all their numbers, and the NovaModel docstring parts 两个嵌入相加 and 参数量总览 plus the first two items of the _init_weights docstring; code lines verbatim, comments reworded with every number unchanged. Dropped: the module docstring and reading-order boxes, long comments without numbers, the dropout and head-split illustrations (restatements of made-up inputs), the data-flow box of NovaModel, TransformerBlock, the rest of the file",
        "source_kind": "commented source code (GitHub Python, Chinese comments)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Python comments with arrows '→', '÷√64=÷8', products written '0.3×0.1 + 0.1×(-0.1)', -inf masks, a two-panel score table before/after masking, ASCII rules '────' in a docstring, thousands separators '1,049,600', '≈' approximations, ± ranges",
        "conventions": "silu(x) = x·sigmoid(x): silu(-2.0) = -0.238406 and silu(-0.7) = -0.232269, so the printed -0.04 and -0.16 are slips (the other six values are right). The attention weights [0.21, 0.50, 0.29] for 好 are stated as an illustration (they are not the softmax of the masked row [0.2, 0.9, 0.5] shown above them, nor of the dot products 0.02/0.32/0.30) and are treated as given; the new vector is then exact: [0.505, 0.516, 0.358, 0.429], and 0.505 rounds half away from zero to the printed 0.51. softmax([8,3,1,2]) = [0.989973, 0.006670, 0.000903, 0.002454], softmax([1, 0.375, 0.125, 0.25]) = [0.412458, 0.220773, 0.171938, 0.194831], softmax([3.1, 0.4, 0.5]) = [0.876056, 0.058876, 0.065068]: all printed to 2 decimals correctly. The per-block count 262,400 is not derived in the text; it equals 4·128² + 3·128·512 + 2·128 with d_ff = 512 (the W1 [128, 512] of the init docstring). Not listed: eps, dropout 0.1, the SiLU inputs, Q/K/V vectors, the score table, the weights [0.21, 0.50, 0.29], embedding and position vectors, vocab_size 1000, d = 128, N(0, 0.02), shapes [128, 128], section numbers 3.1-3.6",
    }
    return meta, specs

DOCS = [doc_z1, doc_z2, doc_z3, doc_z4, doc_z5]

if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
