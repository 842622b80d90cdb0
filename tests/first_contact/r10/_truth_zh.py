"""Independent true values for the Chinese (zh_) first-contact documents of round 10.

Standard library (fractions) + mpmath (50 digits) only.  Decimal text in a document is read
as an exact decimal.  Every listed number is located in its document programmatically (an
anchor string on its line + the index of the numeric token on that line), the literal is
asserted to stand at that line/column (1-based, counted in characters, not bytes), its true
value is recomputed from the exact inputs (never from the document's rounded intermediates),
and its status is re-derived: "ok" iff the truth rounded half away from zero at the printed
number of places equals the literal.  An integer literal is compared exactly with an exact
(rational) truth; approximate integer claims ("≈ 2%") get an mpf truth so that they are
rounded.  Wrong numbers carry a kind: "slip" (fresh error), "carried" (correct arithmetic
from, or a repetition of, an earlier wrong printed number; "carried_from" gives its line),
"rounding", "rounding-carried", "convention".

    python _truth_zh.py --write      # (re)write the zh_*.expect.json files
    python _truth_zh.py --check      # recompute and compare with the files (default)
    python _truth_zh.py --uncovered  # review aid: numeric tokens not listed
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
# Document A: reproducing nn.CrossEntropyLoss by hand (PyTorch printouts)
# ---------------------------------------------------------------------------
def doc_a():
    z = [D('0.2'), D('0.1'), D('-0.1')]
    p = softmax(z)
    lse = mpmath.log(sum(mpmath.exp(M(v)) for v in z))
    ls = [M(v) - lse for v in z]
    ce = -ls[0]
    lit = D('0.3780')
    specs = [
        S('ce', '^# tensor(0.9729)', 1, E(0, ce, "CrossEntropyLoss([0.2, 0.1, -0.1], target 0) = %s" % mp.nstr(ce, 7))),
        S('sm', '^# tensor([[0.3780, 0.3420, 0.2800]])', 3, *[E(j, p[j], "softmax[%d] = %s" % (j, mp.nstr(p[j], 6))) for j in range(3)]),
        S('lk', '2.1 似然其实上一步已经有了', 2, E(1, p[0], "likelihood of the target restated")),
        S('lg_in', '^print(torch.log(torch.Tensor([0.3780])))', 1, E(0, p[0], "likelihood typed back into the code (restated)")),
        S('lg', '^# tensor([-0.9729])', 1, E(0, mpmath.log(M(lit)), "log of the typed 0.3780 = -0.972861 (log softmax[0] = -0.972919)")),
        S('nl_in', '^print(-torch.log(torch.Tensor([0.3780])))', 1, E(0, p[0], "likelihood typed back (restated)")),
        S('nl', '^# tensor([0.9729])', 1, E(0, -mpmath.log(M(lit)), "-log 0.3780 = 0.972861")),
        S('ls', '# output: log softmax tensor([[-0.9729, -1.0729, -1.2729]])', 3,
          *[E(j, ls[j], "log_softmax[%d] = z_%d - logsumexp(z) = %s" % (j, j, mp.nstr(ls[j], 7))) for j in range(3)]),
        S('nll', '^# tensor([0.9729])', 1, E(0, ce, "NLLLoss(log_softmax, 0) = CE")),
        S('again', '得到的损失还是 tensor([0.9729])', 1, E(0, ce, "CE restated")),
        S('sm2', '^# tensor([[0.3780, 0.3420, 0.2800]])', 3, *[E(j, p[j], "softmax[%d] (second run)" % j) for j in range(3)]),
        S('n1', '^# tensor(-0.3780)', 1, E(0, -p[0], "NLLLoss on probabilities = -softmax[0]")),
        S('n2', '^# tensor(-0.3780)', 1, E(0, -p[0], "nll_loss on probabilities = -softmax[0]")),
    ]
    meta = {
        "doc": "zh_cross_entropy_torch_manual_repro.md",
        "source": "github Haochen-Luo/Algorithm:DeepLearning/TORCH里的损失函数.md (commit 0cf37aba). Whole note kept: every code block with its '# tensor(...)' comment printouts verbatim, the image link and the numbered steps; the Chinese prose sentences reworded (wording changed, meaning kept, including the author's 'likelihood0.2' slip of the pen)",
        "source_kind": "personal study note with PyTorch printouts (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Python code blocks whose output is pasted as comments '# tensor(0.9729)', '# tensor([[0.3780, 0.3420, 0.2800]])', '# output: log softmax tensor([[...]])', inline 'tensor([0.3780])' in the prose, numbered steps 2.1/2.2, Chinese prose",
        "conventions": "logits z = [0.2, 0.1, -0.1], target class 0: softmax = [0.377978, 0.342009, 0.280013], log_softmax = z - logsumexp(z) = [-0.972919, -1.072919, -1.272919], CrossEntropyLoss = NLLLoss(log_softmax) = 0.972919; NLLLoss applied to probabilities just negates the target entry: -0.377978. The two lines that take log of the typed literal 0.3780 are judged as that literal computation (ln 0.378 = -0.972861, both round to -0.9729). The 0.3780 typed into torch.Tensor([...]) is listed as a restated result. Printed tensors are judged at their printed 4 decimals (PyTorch's default print precision). Not listed: the logits and target (inputs, also in the second code block), dim=1, step numbers 1-3 / 2.1 / 2.2, the digits of the image URL, and the '0.2' of 'likelihood0.2' (the author calls the target's logit 0.2 its likelihood; it is an input, not a computed value)",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document B: LayerNorm hand calculation [2, 4, 4, 6] (chapter 7 notes)
# ---------------------------------------------------------------------------
def doc_b():
    x = [2, 4, 4, 6]
    mu = Fraction(sum(x), 4)
    dev = [v - mu for v in x]
    var = sum(d_ * d_ for d_ in dev) / 4
    sig = mpmath.sqrt(M(var))
    z = [M(d_) / sig if d_ != 0 else 0 for d_ in dev]
    g, b = 2, 1
    y = [g * v + b for v in z]
    specs = [
        S('mu', '$$\\mu = \\frac{2+4+4+6}{4} = \\frac{16}{4} = 4$$', 8,
          E(5, sum(x), "2 + 4 + 4 + 6"), E(7, mu, "mean = 16/4")),
        S('var', '$$\\sigma^2 = \\frac{(2-4)^2', 20,
          E(2, mu, "mean restated"), E(5, mu, "mean restated"), E(8, mu, "mean restated"), E(11, mu, "mean restated"),
          *[E(14 + j, dev[j] ** 2, "squared deviation %d" % j) for j in range(4)],
          E(19, var, "variance = 8/4")),
        S('sig', '$$\\sigma = \\sqrt{2} \\approx 1.4142$$', 2, E(0, var, "variance restated under the root"), E(1, sig, "sqrt(2)")),
        S('std', '$$\\frac{x - \\mu}{\\sigma} = \\frac{[2-4,', 18,
          E(1, mu, "mean restated"), E(3, mu, "mean restated"), E(5, mu, "mean restated"), E(7, mu, "mean restated"),
          E(8, sig, "sigma restated"),
          *[E(9 + j, dev[j], "x - mu [%d]" % j) for j in range(4)],
          E(13, sig, "sigma restated"),
          *[E(14 + j, z[j], "(x - mu)/sigma [%d] (eps ignored)" % j) for j in range(4)]),
        S('aff', '$$[2,2,2,2] \\odot [-1.4142,', 16,
          *[E(4 + j, z[j], "normalized [%d] restated" % j) for j in range(4)],
          *[E(12 + j, y[j], "2 z + 1 [%d]" % j) for j in range(4)]),
        S('chk', '**验证**：标准化这一步的输出，均值为 0、方差为 1 ✓', 2,
          E(0, 0, "mean of the standardized vector"), E(1, 1, "variance of the standardized vector (eps ignored)")),
        S('p1', 'print(x.mean())            # 4.0', 1, E(0, mu, "x.mean()")),
        S('p2', 'print(x.var())             # 2.0', 1, E(0, var, "x.var() (population variance)")),
        S('p3', 'print((x - x.mean()) / np.sqrt(x.var()))   # [-1.4142, 0, 0, 1.4142]', 4,
          *[E(j, z[j], "standardized [%d]" % j) for j in range(4)]),
        S('bn_mu', '^    均值 μ = 2', 1, E(0, 2, "mean of the single value 2")),
        S('bn_var', '^    方差 σ² = 0', 1, E(0, 0, "variance of a single value")),
        S('bn', '^    归一化：(2 - 2) / sqrt(0 + ε) = 0', 4,
          E(1, 2, "mean restated"), E(2, 0, "variance restated"), E(3, 0, "(2 - 2)/sqrt(eps)")),
        S('bn0', '结果：所有特征都变成 0', 1, E(0, 0, "normalized feature restated")),
    ]
    meta = {
        "doc": "zh_layernorm_add_norm_chapter_handcalc.md",
        "source": "GitHub Markdown study note 「第 7 章 残差连接与 LayerNorm（Add & Norm）」 (front matter title ch07-残差连接与LayerNorm, folder transorformer/note_transfermor; sections 7.1-7.9); the search index did not expose the repository name (stored file id 66818636151). Kept: front matter, 7.3 (formula, the hand calculation, the NumPy check, the 'why Layer' block) and the batch-size-1 block of 7.4, all formulas and code blocks verbatim; prose reworded and shortened. Dropped: 7.1-7.2 (residual connection), the rest of 7.4, 7.5-7.9 (incl. the 1.1^96 ≈ 9400 illustration)",
        "source_kind": "study notes on the Transformer (GitHub Markdown, Obsidian-style front matter)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "display LaTeX '$$\\mu = \\frac{2+4+4+6}{4} = \\frac{16}{4} = 4$$', bracketed vectors with LaTeX spaces '[-1.4142,\\ 0,\\ 0,\\ 1.4142]', '\\odot', '\\approx', a NumPy block with '# 4.0' comment outputs, a plain-text table of token rows, a fenced plain-text derivation with Greek letters 'μ = 2', 'σ² = 0', 'sqrt(0 + ε)'",
        "conventions": "LayerNorm over the 4 features of x = [2, 4, 4, 6] with population variance: mu = 4, var = 2, sigma = sqrt 2; step 3 explicitly ignores eps, so the standardized values are exactly (x - mu)/sqrt 2 = [-1.41421, 0, 0, 1.41421]; step 4 uses gamma = 2, beta = 1: [1 - 2 sqrt 2, 1, 1, 1 + 2 sqrt 2] = [-1.828427, 1, 1, 3.828427]. The check 'mean 0, variance 1' is exact without eps. The batch-size-1 BatchNorm block: mean of the single value 2 is 2, variance 0, (2 - 2)/sqrt(0 + eps) = 0. Restated means inside (x_i - mu) and sigma in denominators are listed. Not listed: the input vector (also as the x_i inside the deviations and in the token table), the count 4 in the denominators, gamma/beta, the exponents 2, eps 10^{-5}, front-matter dates, section/step numbers, the generic '均值为 0、方差为 1' of the definition paragraph, d0..d3 and tok1..tok3 labels",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document C: multi-head + causal-mask hand calculation and LoRA count (study plan)
# ---------------------------------------------------------------------------
def doc_c():
    x = [[D('1.0'), D('0.5'), D('0.2'), D('0.1')],
         [D('0.8'), D('0.3'), D('0.9'), D('0.4')],
         [D('0.2'), D('0.7'), D('0.1'), D('0.6')]]
    h0 = [r[:2] for r in x]
    sc = [[h0[i][0] * h0[j][0] + h0[i][1] * h0[j][1] for j in range(3)] for i in range(3)]
    r2 = mpmath.sqrt(2)
    ss = [[M(sc[i][j]) / r2 for j in range(3)] for i in range(3)]
    w = [softmax(ss[i][:i + 1]) + [0] * (2 - i) for i in range(3)]
    # softmax of the printed (wrong) scaled scores of row 1, to document the carried weights
    w1p = softmax([D('0.71'), D('0.59')])
    w2p = softmax([D('0.39'), D('0.26'), D('0.37')])
    n = lambda v, k=6: mp.nstr(v, k)
    specs = [
        S('s0', '^       = [[1.25, 1.01, 0.55],', 3,
          E(0, sc[0][0], "q0.q0 = 1.0^2 + 0.5^2"),
          W(1, sc[0][1], "q0.q1 = 1.0 x 0.8 + 0.5 x 0.3 = 0.95", 'slip'),
          E(2, sc[0][2], "q0.q2 = 0.2 + 0.35")),
        S('s1', '^          [1.01, 0.84, 0.37],', 3,
          W(0, sc[1][0], "q1.q0 = 0.95 (the symmetric entry, repeated)", 'carried', 's0'),
          W(1, sc[1][1], "q1.q1 = 0.8^2 + 0.3^2 = 0.73", 'slip'),
          E(2, sc[1][2], "q1.q2 = 0.16 + 0.21")),
        S('s2', '^          [0.55, 0.37, 0.53]] / 1.414', 4,
          E(0, sc[2][0], "q2.q0"), E(1, sc[2][1], "q2.q1"), E(2, sc[2][2], "q2.q2 = 0.04 + 0.49"), E(3, r2, "sqrt(2)")),
        S('t0', '^       = [[0.88, 0.71, 0.39],', 3,
          E(0, ss[0][0], "1.25/sqrt2 = %s" % n(ss[0][0])),
          W(1, ss[0][1], "0.95/sqrt2 = %s (1.01/1.414 = 0.714)" % n(ss[0][1]), 'carried', 's0'),
          E(2, ss[0][2], "0.55/sqrt2 = %s" % n(ss[0][2]))),
        S('t1', '^          [0.71, 0.59, 0.26],', 3,
          W(0, ss[1][0], "0.95/sqrt2 = %s" % n(ss[1][0]), 'carried', 's1'),
          W(1, ss[1][1], "0.73/sqrt2 = %s (0.84/1.414 = 0.594)" % n(ss[1][1]), 'carried', 's1'),
          E(2, ss[1][2], "0.37/sqrt2 = %s" % n(ss[1][2]))),
        S('t2', '^          [0.39, 0.26, 0.37]]', 3,
          E(0, ss[2][0], "0.55/sqrt2"), E(1, ss[2][1], "0.37/sqrt2"), E(2, ss[2][2], "0.53/sqrt2 = %s" % n(ss[2][2]))),
        S('m0', '^[[0.88, -inf, -inf],     # token 0 只看自己', 2, E(0, ss[0][0], "scaled score restated")),
        S('m1', '^ [0.71, 0.59, -inf],     # token 1 看 0,1', 5,
          W(0, ss[1][0], "scaled score restated (true 0.6718)", 'carried', 't1'),
          W(1, ss[1][1], "scaled score restated (true 0.5162)", 'carried', 't1')),
        S('m2', '^ [0.39, 0.26, 0.37]]     # token 2 看全部', 4,
          E(0, ss[2][0], "scaled score restated"), E(1, ss[2][1], "scaled score restated"), E(2, ss[2][2], "scaled score restated")),
        S('w0', '^[[1.00, 0.00, 0.00],     # exp(0.88)/sum', 4,
          E(0, 1, "row 0: only position 0 visible"), E(1, 0, "masked"), E(2, 0, "masked"), E(3, ss[0][0], "scaled score restated")),
        S('w1', '^ [0.53, 0.47, 0.00],', 3,
          W(0, w[1][0], "softmax([0.6718, 0.5162])[0] = %s (softmax of the printed 0.71, 0.59 = %s)" % (n(w[1][0]), n(w1p[0], 4)), 'carried', 'm1'),
          W(1, w[1][1], "softmax([0.6718, 0.5162])[1] = %s" % n(w[1][1]), 'carried', 'm1'),
          E(2, 0, "masked")),
        S('w2', '^ [0.34, 0.29, 0.37]]', 3,
          *[W(j, w[2][j], "softmax of row 2 [%d] = %s (even from the printed 0.39, 0.26, 0.37: %s)"
              % (j, n(w[2][j]), n(w2p[j], 4)), 'slip') for j in range(3)]),
        S('o0', '^output[0] = 1.00*v0 + 0.00*v1 + 0.00*v2 = v0', 8,
          E(1, 1, "weight restated"), E(3, 0, "weight restated"), E(5, 0, "weight restated")),
        S('o1', '^output[1] = 0.53*v0 + 0.47*v1', 5,
          W(1, w[1][0], "weight restated (true 0.5388)", 'carried', 'w1'),
          W(3, w[1][1], "weight restated (true 0.4612)", 'carried', 'w1')),
        S('o2', '^output[2] = 0.34*v0 + 0.29*v1 + 0.37*v2', 7,
          W(1, w[2][0], "weight restated (true 0.3489)", 'carried', 'w2'),
          W(3, w[2][1], "weight restated (true 0.3072)", 'carried', 'w2'),
          W(5, w[2][2], "weight restated (true 0.3440)", 'carried', 'w2')),
        # LoRA parameter counting
        S('l1', '全量微调要学 ΔW（4×4=16个参数）', 3, E(2, 16, "4 x 4")),
        S('l2', '[g, h]]     ← 8 个参数', 1, E(0, 8, "B: 4 x 2")),
        S('l3', '[m, n, o, p]]  ← 8 个参数', 1, E(0, 8, "A: 2 x 4")),
        S('l4', '总共 8+8=16 个参数？不对——因为 4×2 + 2×4 = 8+8=16', 10,
          E(0, 8, "B count restated"), E(1, 8, "A count restated"), E(2, 16, "8 + 8"),
          E(7, 8, "4 x 2"), E(8, 8, "2 x 4"), E(9, 16, "8 + 8")),
        S('l5', '但 W 是 4×4=16 个参数', 3, E(2, 16, "4 x 4")),
        S('l6', 'W 是 768×768 = 589,824 个参数', 3, E(2, 768 * 768, "768 x 768")),
        S('l7', 'B 是 768×8 = 6,144', 3, E(2, 768 * 8, "768 x 8")),
        S('l8', 'A 是 8×768 = 6,144', 3, E(2, 8 * 768, "8 x 768")),
        S('l9', '总共 = 12,288 参数 ≈ 2% of 589,824', 3,
          E(0, 2 * 768 * 8, "6,144 + 6,144"),
          E(1, M(Fraction(100 * 2 * 768 * 8, 768 * 768)), "12,288 / 589,824 in percent = 2.083 (approximate '≈ 2%')"),
          E(2, 768 * 768, "W count restated")),
    ]
    meta = {
        "doc": "zh_study_plan_multihead_causal_handcalc.md",
        "source": "GitHub Markdown 26-week self-study plan for LLM engineers (「大模型工程师自学计划」, 79k characters: weekly plans, stage 7 interview material, appendices such as 「🔬 Attention 数学直觉——手工计算一遍（理解再也不忘）」 and 「🔬 LoRA 矩阵分解——手算一个例子」); the search index did not expose the repository name (stored file id 57784674558). Kept: the two adjacent hand-calculation appendices, both fenced blocks verbatim; the surrounding prose (intro line, the 'core insight' bullets) reworded. Everything else dropped",
        "source_kind": "self-study plan / interview-prep notes (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "fenced plain-text block with Python-like lists 'x = [[1.0, 0.5, 0.2, 0.1], ...]', slicing 'x[:, :2]', matrices written as nested lists continued over lines with '= [[...],' and '/ 1.414', '-inf' masks, '#' comments, 'output[1] = 0.53*v0 + 0.47*v1', Unicode '×', '≈ 2% of 589,824', thousands separators",
        "conventions": "d_model = 4, 2 heads of d_k = 2, identity projections (q = k = v = x); head 0 uses the first two columns: rows [1.0, 0.5], [0.8, 0.3], [0.2, 0.7]. Scores q_i.q_j, scaled by 1/sqrt 2, causal mask (upper triangle -inf), row softmax. Exact scores: [[1.25, 0.95, 0.55], [0.95, 0.73, 0.37], [0.55, 0.37, 0.53]]; the printed 1.01 (twice, the second is the symmetric repetition) and 0.84 are slips, the scaled 0.71 and 0.59 and their restatements are carried (true 0.6718, 0.5162), and the row-1 weights 0.53/0.47 are the correct softmax of the printed 0.71/0.59, hence carried (true 0.5388, 0.4612). Row 2 scores and scaled scores are right, but its printed weights [0.34, 0.29, 0.37] are slips (true softmax [0.3489, 0.3072, 0.3440]; also from the printed 0.39/0.26/0.37 one gets 0.35/0.31/0.34), restated as carried in output[2]. LoRA part: plain products of the stated shapes; '≈ 2%' is 12,288/589,824 = 2.083 % (approximate claim, rounded). Not listed: d_model/n_heads/d_k/seq_len, the input matrix and the head slices (restated inputs), token/output/v indices, the 'exp(0.88)/sum' label is listed only for 0.88, the W matrix, r = 2 / r = 8, the 4×4, 4×2, 2×4, 768×768, 768×8 factors, '有效秩 ≤ 8' and '8 维', '768 维'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document D: lesson note, 猫 / 追 / 老鼠 causal attention example
# ---------------------------------------------------------------------------
def doc_d():
    s = 1 / mpmath.sqrt(2)
    e = mpmath.exp(s)
    tot = 1 + e
    w = [1 / tot, e / tot]
    out = [w[0] * 10, w[1] * 10]
    specs = [
        S('d1', '对"猫"：[0,1]·[1,0] = 0', 5, E(4, 0, "[0,1].[1,0]")),
        S('d2', '对"追"：[0,1]·[0,1] = 1', 5, E(4, 1, "[0,1].[0,1]")),
        S('sc', '**缩放**（÷√2 ≈ 1.414）：0 → 0；1 → 0.707；−∞ → −∞', 7,
          E(2, mpmath.sqrt(2), "sqrt(2)"), E(3, 0, "raw score restated"), E(4, 0, "0/sqrt2"),
          E(5, 1, "raw score restated"), E(6, s, "1/sqrt2")),
        S('smx', '**softmax**（[0, 0.707, −∞]）', 3, E(1, 0, "scaled score restated"), E(2, s, "scaled score restated")),
        S('ex', '- e^0=1，e^0.707≈2.03，e^{−∞}=0；总和≈3.03', 6,
          E(0, 0, "scaled score restated"), E(1, 1, "e^0"), E(2, s, "scaled score restated"),
          E(3, e, "exp(1/sqrt2) = %s" % mp.nstr(e, 6)), E(4, 0, "e^-inf"), E(5, tot, "1 + e^(1/sqrt2) = %s" % mp.nstr(tot, 6))),
        S('w', '- 权重 A_追 ≈ [0.33, 0.67, 0]', 3,
          E(0, w[0], "weight on 猫 = %s" % mp.nstr(w[0], 6)), E(1, w[1], "weight on 追 = %s" % mp.nstr(w[1], 6)),
          E(2, 0, "weight on the masked 老鼠")),
        S('o', '- 0.33·[10,0] + 0.67·[0,10] + 0·[5,5] = [3.3, 6.7]', 11,
          E(0, w[0], "weight restated"), E(3, w[1], "weight restated"), E(6, 0, "masked weight restated"),
          E(9, out[0], "output[0] = 10 w_猫 = %s" % mp.nstr(out[0], 6)), E(10, out[1], "output[1] = 10 w_追 = %s" % mp.nstr(out[1], 6))),
        S('r', '解读："追"这个位置最后得到的新表示 ≈ [3.3, 6.7]', 4,
          E(0, out[0], "output restated"), E(1, out[1], "output restated"),
          E(2, 100 * w[1], "share of attention on itself in percent"), E(3, 100 * w[0], "share on 猫 in percent")),
    ]
    meta = {
        "doc": "zh_attention_lesson_cat_chases_mouse.md",
        "source": "GitHub Markdown daily lesson note 「📅 2026-07-06（第 2 讲）· 轨道B · 注意力机制与 Transformer 架构 · 深度 L2」 (front matter lesson-0002, slug attention-transformer-architecture; sections 一-四); the search index did not expose the repository name (stored file id 55636594471). Kept: the heading (date dropped), TL;DR, the mechanism subsections 1-5 and 7 condensed (their code blocks verbatim), and the worked example 「一个\"完整走一遍\"的最小例子」 with its table and all four steps verbatim; prose reworded. Dropped: front matter, the L1 intuition layer, multi-head section, misconceptions list, the paper digest and reading list",
        "source_kind": "lesson notes (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Chinese numbered steps with inline arithmetic '[0,1]·[1,0] = 0', '÷√2 ≈ 1.414', arrows '0 → 0；1 → 0.707；−∞ → −∞', full-width punctuation between numbers '2.03，', 'e^0.707≈2.03', percentages '67%'",
        "conventions": "Q_追 = [0, 1] against keys 猫 [1, 0], 追 [0, 1], 老鼠 [1, 1] (masked), scores scaled by 1/sqrt 2, softmax over [0, 0.7071, -inf] = [0.330238, 0.669762, 0], output = 0.330238 [10, 0] + 0.669762 [0, 10] = [3.30238, 6.69762]; 67% / 33% are the two weights in percent. All truths from the exact 1/sqrt 2, not from the printed 0.707. Not listed: Q/K/V table and vectors inside the dot products and the weighted sum (inputs), d_k = d_v = 2 and the 2 of √2, step numbers 1-4, section numbers, the qualitative '梯度趋近 0' / '拉回 1 附近'",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document E: d2l softmax-regression Q&A notes (partition sums, CE, accuracy)
# ---------------------------------------------------------------------------
def doc_e():
    r0 = [D('2.718'), D('7.389'), D('20.086')]
    r1 = [D('54.598'), D('148.413'), D('403.429')]
    s0, s1 = sum(r0), sum(r1)
    l1, l5 = mpmath.log(M(D('0.1'))), mpmath.log(M(D('0.5')))
    specs = [
        S('p0', '→ 第0行：2.718 + 7.389 + 20.086 = 30.193', 5, E(4, s0, "row-0 sum of the given X_exp")),
        S('p1', '→ 第1行：54.598 + 148.413 + 403.429 = 606.440', 5, E(4, s1, "row-1 sum of the given X_exp")),
        S('pa', '^partition = [[30.193],', 1, E(0, s0, "row sum restated")),
        S('pb', '^             [606.440]]', 1, E(0, s1, "row sum restated")),
        S('kt', 'partition = [[30.193], [606.440]]', 2, E(0, s0, "row sum restated"), E(1, s1, "row sum restated")),
        S('kf', 'result = [30.193, 606.440]', 2, E(0, s0, "row sum restated"), E(1, s1, "row sum restated")),
        S('lg', '步骤3：torch.log([0.1, 0.5]) = [-2.3026, -0.6931]', 5,
          E(3, l1, "ln 0.1"), E(4, l5, "ln 0.5")),
        S('ng', '→ [2.3026, 0.6931]', 2, E(0, -l1, "-ln 0.1"), E(1, -l5, "-ln 0.5")),
        S('res', '结果：tensor([2.3026, 0.6931])', 2, E(0, -l1, "-ln 0.1 restated"), E(1, -l5, "-ln 0.5 restated")),
        S('s0', '→ 样本0损失：2.3026', 3, E(1, -l1, "loss of sample 0 restated")),
        S('s1', '→ 样本1损失：0.6931', 3, E(1, -l5, "loss of sample 1 restated")),
        S('m0', '→ metric.data = [25, 256]', 2, E(0, 25, "0 + 25"), E(1, 256, "0 + 256")),
        S('m1', '→ metric.data = [55, 512]', 2, E(0, 25 + 30, "25 + 30"), E(1, 256 + 256, "256 + 256")),
        S('m2', '→ metric.data = [65, 640]', 2, E(0, 55 + 10, "55 + 10"), E(1, 512 + 128, "512 + 128")),
        S('acc', 'metric[0] / metric[1] = 65 / 640 = 0.1016', 5,
          E(2, 65, "correct count restated"), E(3, 640, "sample count restated"), E(4, Fraction(65, 640), "65/640 = 0.1015625")),
        S('a1', '→ metric.data = [50.0, 25.0, 256.0]', 3, E(0, 50, "0.0 + 50"), E(1, 25, "0.0 + 25"), E(2, 256, "0.0 + 256")),
        S('a2', '→ metric.data = [95.0, 55.0, 512.0]', 3, E(0, 95, "50 + 45"), E(1, 55, "25 + 30"), E(2, 512, "256 + 256")),
        S('g0', 'metric[0] = 95.0（总损失）', 2, E(1, 95, "total loss restated")),
        S('g1', 'metric[1] = 55.0（总正确数）', 2, E(1, 55, "total correct restated")),
        S('g2', 'metric[2] = 512.0（总样本数）', 2, E(1, 512, "total samples restated")),
        S('ov', 'exp(100) ≈ 2.69 × 10^43', 5, E(1, mpmath.exp(100) / mpf(10) ** 43, "mantissa of e^100 = 2.6881171e43")),
    ]
    meta = {
        "doc": "zh_d2l_softmax_regression_qa_notes.md",
        "source": "GitHub Markdown Q&A study notes on the d2l book 「动手学深度学习」 (chapters 2-4, 'xxx.ipynb 问答整理' and '练习解答' sections, generated 2026-05-07); the search index did not expose the repository name (stored file id 57760377320). Kept: 「第3章 线性网络 - softmax回归从零开始实现」 Q1-Q4 and Q7 and exercises 1-3 (all code and plain-text blocks verbatim; the broadcasting explanation of Q1 and the 'purpose' lines condensed into prose); dropped: Q5-Q6, exercises 4-5, the concise-implementation part (incl. its batch-size/accuracy tables) and all other chapters; prose reworded",
        "source_kind": "Q&A study notes on a textbook's notebooks (GitHub Markdown)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "fenced plain-text traces with arrows '→ 第0行：2.718 + 7.389 + 20.086 = 30.193', nested-list tensors '[[30.193], [606.440]]', 'tensor([2.3026, 0.6931])', full-width colons and parentheses, Python blocks, scientific notation written as '2.69 × 10^43'",
        "conventions": "X_exp is given as a 2 x 3 matrix of three-decimal numbers (they are e^1..e^6 rounded); the row sums are judged from those given decimals (30.193 and 606.440 exactly). Cross-entropy of the picked probabilities 0.1 and 0.5: ln 0.1 = -2.302585, ln 0.5 = -0.693147. Accumulator traces are exact integer/decimal sums; accuracy 65/640 = 0.1015625. For 'exp(100) ≈ 2.69 × 10^43' only the mantissa 2.69 is listed, judged against e^100 / 10^43 = 2.688117. Not listed: the X_exp entries, shapes (2, 3)/(2, 1)/(2,), axis numbers, indices and the picked values 0.1/0.5 of y_hat (inputs, also in 'tensor([0.1, 0.5])'), batch sizes and per-batch counts (inputs), Accumulator(2)/(3), the 10 and 43 of the power, 'exp(-1000) ≈ 0' and '0 / 0' (qualitative underflow remarks), section/step/question numbers, float32",
    }
    return meta, specs


DOCS = [doc_a, doc_b, doc_c, doc_d, doc_e]


if __name__ == "__main__":
    sys.exit(main(sys.argv, DOCS))
