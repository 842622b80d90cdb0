"""Independent true values for the Chinese (zh_) first-contact documents of round 8.

Standard library + mpmath only (mp.dps = 50).  Every listed number is located in its
document programmatically (an anchor string on its line + the index of the numeric token
on that line); the script asserts that the literal really stands at that line/column,
recomputes the true value from the document's exact inputs (decimal text read exactly as
fractions, transcendental values with mpmath) and checks the status:

  * "ok"    : the truth rounded half away from zero to the printed number of places
              (mantissa places for scientific notation such as 4.5398e-05) equals the literal;
  * "wrong" : it does not; kind "slip" (fresh error) or "carried" (follows from an earlier
              wrong or rounded printed number; carried_from = that line).

Integer literals are exact claims (compared with a rational truth; against an irrational
truth only an exact hit counts) unless the entry is marked intround=True, used for integers
printed as rounded approximations ("~208 tokens/s"); these are judged at 0 places.

    python3 _truth_zh.py --write      # (re)write the zh_*.expect.json files
    python3 _truth_zh.py --check      # recompute and compare with the files (default)
    python3 _truth_zh.py --uncovered  # list numeric tokens that are not listed (review aid)
"""
import json
import os
import re
import sys
from decimal import Decimal
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))

# numbers as printed: optional unary sign '-' or U+2212 (not when it follows a digit, letter,
# closing bracket or dot, i.e. not a binary minus written without space), thousands groups
# "131,072", decimals, a trailing dot ("4."), and an optional exponent ("4.5398e-05").
NUM_RE = re.compile(r'(?:(?<![0-9A-Za-z)\]}.])[-\u2212])?\d+(?:(?:,|\{,\})\d{3})*(?:\.\d*)?(?:e[-+]?\d+)?')


def F(x, d=1):
    return Fraction(x) / d


def M(x):
    """Fraction / int -> mpf"""
    x = Fraction(x)
    return mpf(x.numerator) / x.denominator


def is_exact(v):
    return isinstance(v, (int, Fraction))


def truth_str(v):
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return mp.nstr(M(v), 20)
    return mp.nstr(v, 20)


def parse_literal(claimed):
    """-> (Decimal value, exponent of the last printed digit, is_integer_literal)"""
    lit = claimed.replace('{,}', '').replace(',', '').replace('\u2212', '-')
    if lit.endswith('.'):
        lit = lit[:-1]
    d = Decimal(lit)
    is_int = ('.' not in lit) and ('e' not in lit)
    return d, d.as_tuple().exponent, is_int


def rounds_to(claimed, v, intround=False):
    d, e, is_int = parse_literal(claimed)
    target_int = int(d.scaleb(-e))          # the printed digits as an integer at quantum 10^e
    if is_int and not intround:
        if is_exact(v):
            return Fraction(v) == Fraction(int(d))
        return abs(v - mpf(int(d))) < mpf(10) ** -40
    if is_exact(v):
        q = Fraction(v) / (Fraction(10) ** e)
        n = (abs(q) + Fraction(1, 2)).__floor__()
        n = n if q >= 0 else -n
        return n == target_int
    q = mpf(v) / mpf(10) ** e
    n = int(mpmath.floor(abs(q) + mpf('0.5')))
    n = n if q >= 0 else -n
    return n == target_int


class Spec:
    def __init__(self, label, anchor, ntok, entries):
        self.label, self.anchor, self.ntok, self.entries = label, anchor, ntok, entries


def S_(label, anchor, ntok, *entries):
    return Spec(label, anchor, ntok, entries)


def E(idx, truth, what, lit=None, intround=False, cf=None, status=None):
    """an entry whose status is decided by the arithmetic itself: ok if the literal rounds
    from the truth, else wrong ('carried' from label cf, or 'slip' when cf is None).
    status, when given, is asserted."""
    return dict(idx=idx, truth=truth, what=what, lit=lit, intround=intround, cf=cf, expect=status)


def load(docname):
    return open(os.path.join(HERE, docname), encoding='utf-8').read().split('\n')


def find_line(lines, anchor, start):
    for i in range(start, len(lines)):
        if anchor in lines[i]:
            return i
    return None


def build(docname, specs):
    lines = load(docname)
    pos = 0
    where = {}
    pending = []
    for sp in specs:
        found = find_line(lines, sp.anchor, pos)
        assert found is not None, (docname, sp.label, sp.anchor)
        pos = found + 1
        assert sp.label not in where, (docname, sp.label)
        where[sp.label] = found + 1
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(lines[found])]
        assert len(toks) == sp.ntok, (docname, sp.label, len(toks), [t for t, _ in toks])
        for e in sp.entries:
            text, col = toks[e['idx']]
            pending.append((found + 1, col, text, e, sp.label))
    numbers = []
    seen = set()
    for line, col, text, e, label in pending:
        assert (line, col) not in seen, (docname, label, line, col)
        seen.add((line, col))
        assert lines[line - 1][col - 1:col - 1 + len(text)] == text
        if e['lit'] is not None:
            assert text == e['lit'], (docname, label, line, text, e['lit'])
        good = rounds_to(text, e['truth'], e['intround'])
        status = 'ok' if good else 'wrong'
        if e['expect'] is not None:
            assert status == e['expect'], (docname, label, line, col, text, truth_str(e['truth']), e['what'])
        rec = {"line": line, "column": col, "claimed": text, "status": status}
        if status == 'wrong':
            if e['cf'] is not None:
                rec["kind"] = "carried"
                rec["carried_from"] = where[e['cf']]
            else:
                rec["kind"] = "slip"
        else:
            assert e['cf'] is None, (docname, label, line, text, "ok entry with carried_from")
        rec["truth"] = truth_str(e['truth'])
        rec["what"] = e['what']
        numbers.append(rec)
    numbers.sort(key=lambda r: (r['line'], r['column']))
    return numbers


def softmax(xs):
    ex = [mpmath.exp(x) for x in xs]
    tot = sum(ex)
    return [v / tot for v in ex]


# ---------------------------------------------------------------------------
# Document 1: 「RoPE 旋转位置编码详解与计算示例」 (theta_i with i = dimension index, m = 2)
# ---------------------------------------------------------------------------
def doc_rope_dim_index():
    d, m = 4, 2
    # the document's own formula theta_i = 1 / 10000^(2i/d), i = 0..3 (dimension index)
    th = [Fraction(1, 10000 ** (2 * i // d)) if (2 * i) % d == 0 else None for i in range(4)]
    th[1] = Fraction(1, 100)                      # 10000^(1/2) = 100
    th[3] = Fraction(1, 1000000)                  # 10000^(3/2) = 10^6
    ang = [m * t for t in th]                     # 2, 0.02, 0.0002, 0.000002
    c0, s0 = mpmath.cos(M(ang[0])), mpmath.sin(M(ang[0]))
    c2, s2 = mpmath.cos(M(ang[2])), mpmath.sin(M(ang[2]))   # pair (2,3) rotated with theta_2 as the document does
    q = [1, 2, 3, 4]
    r0 = q[0] * c0 - q[1] * s0
    r1 = q[0] * s0 + q[1] * c0
    r2 = q[2] * c2 - q[3] * s2
    r3 = q[2] * s2 + q[3] * c2
    specs = [
        S_('th', r'\theta_0 = \frac{1}{10000^{0/2}} = 1', 24,
           E(5, th[0], "theta_0 = 1/10000^(0/2)", '1', status='ok'),
           E(11, th[1], "theta_1 = 1/10000^(1/2)", '0.01', status='ok'),
           E(17, th[2], "theta_2 = 1/10000^(2/2)", '0.0001', status='ok'),
           E(23, th[3], "theta_3 = 1/10000^(3/2) = 0.000001", '0.00001', status='wrong')),
        S_('a0', r'm\theta_0 &= 2 \times 1 = 2', 4,
           E(2, th[0], "theta_0 restated", '1', status='ok'),
           E(3, ang[0], "m*theta_0 = 2*1", '2', status='ok')),
        S_('a1', r'm\theta_1 &= 2 \times 0.01 = 0.02', 4,
           E(2, th[1], "theta_1 restated", '0.01', status='ok'),
           E(3, ang[1], "m*theta_1 = 2*0.01", '0.02', status='ok')),
        S_('a2', r'm\theta_2 &= 2 \times 0.0001 = 0.0002', 4,
           E(2, th[2], "theta_2 restated", '0.0001', status='ok'),
           E(3, ang[2], "m*theta_2 = 2*0.0001", '0.0002', status='ok')),
        S_('a3', r'm\theta_3 &= 2 \times 0.00001 = 0.00002', 4,
           E(2, th[3], "theta_3 restated (true 0.000001)", '0.00001', cf='th', status='wrong'),
           E(3, ang[3], "m*theta_3 = 2*0.000001 = 0.000002 (follows from the printed 0.00001)", '0.00002', cf='th', status='wrong')),
        S_('R0', r'R^{(0)} = \begin{bmatrix} \cos(2)', 9,
           *[E(k, ang[0], "angle m*theta_0 restated inside cos/sin", '2', status='ok') for k in (1, 2, 3, 4)],
           E(5, c0, "cos(2) = -0.416147", '-0.4161', status='ok'),
           E(6, -s0, "-sin(2) = -0.909297", '-0.9093', status='ok'),
           E(7, s0, "sin(2) = 0.909297", '0.9093', status='ok'),
           E(8, c0, "cos(2)", '-0.4161', status='ok')),
        S_('q0', r"q'_m[0] &= 1 \cdot (-0.4161) - 2 \cdot 0.9093 = -2.2347", 6,
           E(2, c0, "cos(2) restated", '-0.4161', status='ok'),
           E(4, s0, "sin(2) restated", '0.9093', status='ok'),
           E(5, r0, "1*cos(2) - 2*sin(2) = -2.234741", '-2.2347', status='ok')),
        S_('q1', r"q'_m[1] &= 1 \cdot 0.9093 + 2 \cdot (-0.4161) = 0.0771", 6,
           E(2, s0, "sin(2) restated", '0.9093', status='ok'),
           E(4, c0, "cos(2) restated", '-0.4161', status='ok'),
           E(5, r1, "1*sin(2) + 2*cos(2) = 0.077004 (0.0771 only from the rounded -0.4161, 0.9093)", '0.0771', cf='R0', status='wrong')),
        S_('R2', r'R^{(2)} = \begin{bmatrix} \cos(0.0002)', 9,
           *[E(k, ang[2], "angle m*theta_2 restated inside cos/sin", '0.0002', status='ok') for k in (1, 2, 3, 4)],
           E(5, c2, "cos(0.0002) = 0.99999998000000007", '0.99999998', status='ok'),
           E(6, -s2, "-sin(0.0002) = -0.000199999998667", '-0.0002', status='ok'),
           E(7, s2, "sin(0.0002)", '0.0002', status='ok'),
           E(8, c2, "cos(0.0002)", '0.99999998', status='ok')),
        S_('q2', r"q'_m[2] &= 3 \cdot 0.99999998 - 4 \cdot 0.0002 = 2.99999194", 6,
           E(2, c2, "cos(0.0002) restated", '0.99999998', status='ok'),
           E(4, s2, "sin(0.0002) restated", '0.0002', status='ok'),
           E(5, r2, "3*cos(0.0002) - 4*sin(0.0002) = 2.99919994", '2.99999194', status='wrong')),
        S_('q3', r"q'_m[3] &= 3 \cdot 0.0002 + 4 \cdot 0.99999998 = 4.00000594", 6,
           E(2, s2, "sin(0.0002) restated", '0.0002', status='ok'),
           E(4, c2, "cos(0.0002) restated", '0.99999998', status='ok'),
           E(5, r3, "3*sin(0.0002) + 4*cos(0.0002) = 4.00059992", '4.00000594', status='wrong')),
        S_('fin', r"q'_m = [-2.2347,\ 0.0771,\ 2.99999194,\ 4.00000594]", 4,
           E(0, r0, "final q'[0] restated", '-2.2347', status='ok'),
           E(1, r1, "final q'[1] restated (true 0.0770)", '0.0771', cf='q1', status='wrong'),
           E(2, r2, "final q'[2] restated (true 2.99919994)", '2.99999194', cf='q2', status='wrong'),
           E(3, r3, "final q'[3] restated (true 4.00059992)", '4.00000594', cf='q3', status='wrong')),
    ]
    meta = {
        "doc": "zh_rope_dim_index_theta_blog.md",
        "source": "https://dong-blog.fun/post/2104 (「🌀 RoPE 旋转位置编码详解与计算示例」, stored page copy whose KaTeX was flattened; the formulas were restored as LaTeX, the bmatrix entries read column by column as the flattened text lists them). Kept: sections 一 (formula bullets reworded, the author's half-finished remark on d = 128 paraphrased), 二 steps 1-3 and the final vector verbatim in numbers, 三 summary condensed into two bullets",
        "source_kind": "blog post (Chinese personal tech blog)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown + LaTeX display math: \\frac, aligned environments, bmatrix rotation matrices with ≈, q'_m[i] indexing, \\cdot and \\times",
        "conventions": "Judged by the document's own stated convention: theta_i = 1/10000^(2i/d) with i the dimension index (i = 0..3), and the pair (q[2], q[3]) rotated by m*theta_2 as the document does (standard RoPE would use the pair index, i.e. 10000^(-1/2) = 0.01 and angle 0.02 for the second pair; the document's 2.99999194 and 4.00000594 are wrong under either reading, since even with its own angle 3*0.99999998 - 4*0.0002 = 2.99919994 and 3*0.0002 + 4*0.99999998 = 4.00059992). theta_3 = 1/10000^(3/2) is 0.000001, not 0.00001; m*theta_3 = 0.00002 follows from it. q'[1] = sin2 + 2cos2 = 0.077004, so 0.0771 is right only for the rounded -0.4161 and 0.9093 (carried). The angles printed again inside cos(...)/sin(...) and the rounded matrix entries printed again in the products are listed as restated results. Not listed: d, m, the vector [1, 2, 3, 4], dimension indices, exponent pieces 0/2 ... 3/2 and the numerators 1",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 2: 「Day 1: 推理系统全景和 Transformer 推理路径」 (weights, KV cache, decode bound)
# ---------------------------------------------------------------------------
def doc_kv_cache():
    GB, TB = 10 ** 9, 10 ** 12          # decimal units, as the note states for weights/bandwidth
    KiB, MiB, GiB, TiB = 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40   # units of the KV-cache part (131,072 bytes = 128 KB)
    w8 = 8 * 2 * GB                     # Llama-3-8B FP16 weights, bytes
    bw = F('3.35') * TB                 # bytes/s
    t_ms = Fraction(w8) / bw * 1000     # ms per token
    tok_s = bw / w8                     # tokens/s
    per8 = 2 * 32 * 8 * 128 * 2         # bytes per token, Llama-3-8B
    per70 = 2 * 80 * 8 * 128 * 2

    def kv(per, seq, batch, unit):
        return Fraction(per * seq * batch, unit)

    def wrow(label, anchor, ntok, params, idxs):
        p = F(params)
        ents = [E(idxs[0], p * 2, "%s B params x 2 bytes (FP16/BF16), GB" % params, status='ok'),
                E(idxs[1], p * 1, "%s B params x 1 byte (8-bit), GB" % params, status='ok'),
                E(idxs[2], p * F('0.5'), "%s B params x 0.5 byte (4-bit), GB" % params, status='ok')]
        return S_(label, anchor, ntok, *ents)

    batches = [1, 8, 32, 128]

    def krow(label, anchor, seq, units, ntok=5, per=per8, bl=batches, model='8B'):
        ents = []
        for k, (b, u) in enumerate(zip(bl, units)):
            uname = {MiB: 'MiB', GiB: 'GiB', TiB: 'TiB'}[u]
            ents.append(E(1 + k, kv(per, seq, b, u), "Llama-3-%s KV cache, seq %d, batch %d, in %s" % (model, seq, b, uname), status='ok'))
        return S_(label, anchor, ntok, *ents)

    specs = [
        S_('w8', '- Llama-3-8B FP16 权重：~16 GB', 4, E(3, Fraction(w8, GB), "8 B params x 2 bytes = 16 GB", status='ok')),
        S_('tms', '16 GB / 3.35 TB/s ≈ 4.8 ms/token', 3,
           E(0, Fraction(w8, GB), "16 GB restated", status='ok'),
           E(2, t_ms, "16e9 / 3.35e12 s = 4.776 ms", status='ok')),
        S_('tps', '理想吞吐上界约 ~208 tokens/s', 1,
           E(0, tok_s, "3.35e12 / 16e9 = 209.375 tokens/s (208 = 1000/4.8 from the rounded 4.8 ms)", intround=True, cf='tms', status='wrong')),
        S_('gib', '1 GiB ≈ 1.074 GB', 6, E(5, Fraction(GiB, GB), "2^30 / 10^9 = 1.073741824", status='ok')),
        wrow('q38', '| Qwen3.8-27B |', 6, '27', (3, 4, 5)),
        wrow('q36', '| Qwen3.6-27B |', 6, '27', (3, 4, 5)),
        wrow('q35', '| Qwen3.6-35B-A3B |', 8, '35', (5, 6, 7)),
        wrow('g120', '| gpt-oss-120b |', 6, '117', (3, 4, 5)),
        wrow('g20', '| gpt-oss-20b |', 6, '21', (3, 4, 5)),
        wrow('e2b', '| Gemma 4 E2B |', 7, '5.1', (4, 5, 6)),
        wrow('e4b', '| Gemma 4 E4B |', 7, '8', (4, 5, 6)),
        wrow('g12', '| Gemma 4 12B |', 6, '11.95', (3, 4, 5)),
        wrow('g26', '| Gemma 4 26B-A4B |', 8, '25.2', (5, 6, 7)),
        wrow('g31', '| Gemma 4 31B |', 6, '30.7', (3, 4, 5)),
        wrow('l8', '| Llama 3.1 8B |', 6, '8', (3, 4, 5)),
        wrow('l70', '| Llama 3.1 70B |', 6, '70', (3, 4, 5)),
        S_('qwex', '- 例如 Qwen3.6-35B-A3B：BF16 语言权重约 **70 GB**', 7,
           E(4, 35 * 2, "35 B x 2 bytes = 70 GB", status='ok'),
           E(6, 3 * 2, "active 3 B x 2 bytes = 6 GB", status='ok')),
        S_('gqa', '(GQA, 4 个 Q head 共享 1 个 KV head)', 4, E(2, Fraction(32, 8), "32 Q heads / 8 KV heads", status='ok')),
        krow('k1k', '| 1,024 | 128 MB |', 1024, [MiB, GiB, GiB, GiB]),
        krow('k4k', '| 4,096 | 512 MB |', 4096, [MiB, GiB, GiB, GiB]),
        krow('k8k', '| 8,192 | 1.0 GB |', 8192, [GiB, GiB, GiB, GiB]),
        krow('k32k', '| 32,768 | 4.0 GB |', 32768, [GiB, GiB, GiB, GiB]),
        krow('k128k', '| 131,072 | 16.0 GB |', 131072, [GiB, GiB, GiB, TiB]),
        S_('per8', '单位换算：2 × 32 × 8 × 128 × 2 = 131,072 bytes', 7,
           E(5, per8, "2*32*8*128*2 bytes per token", status='ok'),
           E(6, Fraction(per8, KiB), "131072 bytes in KB (1024 B)", status='ok')),
        S_('per70', '- Per token: 2 × 80 × 8 × 128 × 2 = 327,680 bytes', 7,
           E(5, per70, "2*80*8*128*2 bytes per token", status='ok'),
           E(6, Fraction(per70, KiB), "327680 bytes in KB (1024 B)", status='ok')),
        krow('s4k', '| 4,096 | 1.25 GB | 10.0 GB | 40.0 GB |', 4096, [GiB, GiB, GiB], ntok=4, per=per70, bl=[1, 8, 32], model='70B'),
        krow('s8k', '| 8,192 | 2.5 GB | 20.0 GB | 80.0 GB |', 8192, [GiB, GiB, GiB], ntok=4, per=per70, bl=[1, 8, 32], model='70B'),
        S_('c8', '| Llama-3-8B | ~16 GB | 0.5 GB |', 4,
           E(2, 16, "8 B x 2 bytes = 16 GB", status='ok'),
           E(3, kv(per8, 4096, 1, GiB), "KV cache 8B, seq 4096, batch 1, GiB", status='ok')),
        S_('c70', '| Llama-3-70B | ~140 GB | 1.25 GB |', 4,
           E(2, 140, "70 B x 2 bytes = 140 GB", status='ok'),
           E(3, kv(per70, 4096, 1, GiB), "KV cache 70B, seq 4096, batch 1, GiB", status='ok')),
        S_('x8', '- 8B: 64 × 0.5 GB = 32 GB', 5,
           E(2, kv(per8, 4096, 1, GiB), "0.5 GB restated", status='ok'),
           E(3, kv(per8, 4096, 64, GiB), "64 x 0.5 GiB", status='ok'),
           E(4, Fraction(per8 * 4096 * 64, w8), "KV bytes / weight bytes = 34.36e9 / 16e9 = 2.147", intround=True, status='ok')),
        S_('x70', '- 70B: 64 × 1.25 GB = 80 GB', 4,
           E(2, kv(per70, 4096, 1, GiB), "1.25 GB restated", status='ok'),
           E(3, kv(per70, 4096, 64, GiB), "64 x 1.25 GiB", status='ok')),
        S_('q4', '4. Llama-3-8B 在 seq_len=8192、batch=32', 6, E(5, kv(per8, 8192, 32, GiB), "KV cache 8B, seq 8192, batch 32, GiB", status='ok')),
        S_('q5', '5. GQA 把 kv_heads 从 32 降到 8', 4, E(3, (1 - Fraction(8, 32)) * 100, "saving 1 - 8/32, percent", status='ok')),
    ]
    meta = {
        "doc": "zh_kv_cache_inference_day1_notes.md",
        "source": "GitHub Markdown study note 「Day 1: 推理系统全景和 Transformer 推理路径」 (part of a 30-day AI-infra reading plan, front matter type concept, tags day1/inference-pipeline/kv-cache; sources field 2026-09-27_mainstream-llm-weight-references.md); repository name not exposed by the search index (stored file id 71047137809). Kept: front matter (sources/created/updated dropped), the quantitative bullets of Part 1 (surrounding prose condensed), the 计算口径 bullets (reworded, numbers kept), the table 开放权重：中小规模与单机常见模型 without its links, the Qwen3.6-35B-A3B example bullet, the Llama-3-8B parameter list of Part 3, Part 4 complete (conclusion bullets reworded), self-check questions 4 and 5. Dropped: the lifecycle flow chart, prefill/decode prose, the large-MoE and closed-model tables with their footnotes, Part 2 (attention pseudo-code), Part 5 (forward chain), deliverable templates, other self-check questions",
        "source_kind": "GitHub notes (study plan)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown pipe tables with GB/TB units, inline 'a × b = c' products with thousands separators (131,072), ≈ and ~ approximations, a plain-text code block with the KV-cache formula",
        "conventions": "Weights and bandwidth in decimal units, as the note itself declares (1 GB = 10^9 bytes, 1 TB = 1000 GB): weight volume = params x bytes per parameter (2 / 1 / 0.5). The KV-cache part is judged in binary units, the only reading under which the note's own statement '131,072 bytes ... = 128 KB/token' (and '327,680 bytes = 320 KB') holds: KB = 2^10, MB = 2^20, GB = 2^30, TB = 2^40 bytes; all its table entries are exact under that reading (e.g. 131072 x 1024 bytes = 128 MiB). Decode time = 16e9 B / 3.35e12 B/s = 4.776 ms; the ideal throughput is 3.35e12 / 16e9 = 209.375 tokens/s, so '~208' (= 1000/4.8 from the rounded 4.8 ms) is listed wrong, carried, judged at 0 places. '已经是权重的 2 倍' is judged as the ratio of exact KV bytes (64 x 2^29) to 16e9 weight bytes = 2.147, at 0 places. Not listed: model sizes, parameter counts, head counts, layer counts, seq_len/batch values, byte widths, bandwidth 3.35, the 1 GB = 10^9 definition, question numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 3: 困惑度 repost ("the cat sat on the mat", ln probabilities)
# ---------------------------------------------------------------------------
def doc_perplexity():
    ps = [F('0.1'), F('0.05'), F('0.02'), F('0.07'), F('0.1'), F('0.08')]
    logs = [mpmath.log(M(p)) for p in ps]
    tot = sum(logs)
    avg = tot / 6
    ppl = mpmath.exp(-avg)
    words = ['the', 'cat', 'sat', 'on', 'the', 'mat']
    lits = ['-2.30', '-3.00', '-3.91', '-2.66', '-2.30', '-2.53']
    specs = []
    for k in range(6):
        specs.append(S_('t%d' % k, '| %s | %s | %s |' % (words[k], str(ps[k].numerator / ps[k].denominator), lits[k]), 2,
                        E(1, logs[k], "ln(%s) = %s" % (float(ps[k]), mp.nstr(logs[k], 8)), lits[k], status='ok')))
    specs += [
        S_('avg', r'\frac{-2.30 -3.00 -3.91 -2.66 -2.30 -2.53}{6} = \frac{-16.7}{6} = -2.783', 12,
           *[E(2 + k, logs[k], "ln(%s) restated" % float(ps[k]), lits[k], status='ok') for k in range(6)],
           E(9, tot, "sum of ln P = ln(5.6e-8) = -16.697914", '-16.7', status='ok'),
           E(11, avg, "average ln P = -2.782985", '-2.783', status='ok')),
        S_('ppl', r'\exp(2.783) \approx 16.16', 2,
           E(0, -avg, "-avg_log_prob = 2.782985", '2.783', status='ok'),
           E(1, ppl, "exp(2.782985) = (5.6e-8)^(-1/6) = 16.1672 (exp(2.783) = 16.1675)", '16.16', status='wrong')),
    ]
    meta = {
        "doc": "zh_perplexity_cat_sat_mat_repost.md",
        "source": "http://hk.pswp.cn/diannao/83217.shtml (traditional-Chinese mirror of a Chinese blog post on 困惑度 / perplexity; the stored copy breaks off right after the step-3 formula). Kept: the definition, the list of symbols (reworded), steps 1-3 with their table and formulas; the MathML/ASCII duplicates of each formula in the flattened copy and the '?' characters standing for lost minus signs were resolved by keeping the LaTeX source of each formula; prose paraphrased",
        "source_kind": "blog repost (CSDN-style article on a mirror site)",
        "language": "zh",
        "errors_as_published": True,
        "notation": "Markdown pipe table with P(w_i) and log P(w_i) columns, LaTeX display formulas (\\frac, \\sum, \\exp, \\text{avg\\_log\\_prob}), traditional Chinese characters",
        "conventions": "log is the natural logarithm (the document says so). Each table entry is judged as ln P(w_i) at 2 places; the sum -16.7 and the mean -2.783 from the exact ln values (-16.697914, -2.782986). Perplexity = exp(-mean ln P) = (5.6e-8)^(-1/6) = 16.1672, so 16.16 is wrong; it does not follow from the printed 2.783 either (exp(2.783) = 16.1675), hence slip. Not listed: the probabilities (inputs), N = 6, indices in the formulas, the step numbers",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 4: temperature demo with PyTorch printout (juejin post)
# ---------------------------------------------------------------------------
def doc_temperature():
    s = [F(5), F(4), F(3), F(2), F(1)]
    base = softmax([M(v) for v in s])
    low = softmax([M(v / F('0.1')) for v in s])
    high = softmax([M(v / 2) for v in s])

    def row(label, anchor, vals, lits, tag):
        return S_(label, anchor, 5, *[E(k, vals[k], "softmax(%s) entry %d = %s" % (tag, k + 1, mp.nstr(vals[k], 8)), lits[k], status='ok') for k in range(5)])

    specs = [
        row('p1', 'tensor([[0.6364, 0.2341, 0.0861, 0.0317, 0.0117]])', base, ['0.6364', '0.2341', '0.0861', '0.0317', '0.0117'], '[5,4,3,2,1]'),
        row('p01', 'tensor([[9.9995e-01, 4.5398e-05, 2.0611e-09, 9.3572e-14, 4.2482e-18]])', low,
            ['9.9995e-01', '4.5398e-05', '2.0611e-09', '9.3572e-14', '4.2482e-18'], '[5,4,3,2,1]/0.1'),
        row('p2', 'tensor([[0.4287, 0.2600, 0.1577, 0.0956, 0.0580]])', high, ['0.4287', '0.2600', '0.1577', '0.0956', '0.0580'], '[5,4,3,2,1]/2'),
    ]
    meta = {
        "doc": "zh_temperature_softmax_torch_printout.md",
        "source": "https://juejin.cn/post/7493497607865401344 (stored excerpt of a 掘金 post on temperature in LLM decoding: the PyTorch snippet, its printed output and the one-sentence remark on softmax). Code and output verbatim; the heading and the prose before and after the code written in own words (the original remark on small/large numbers paraphrased)",
        "source_kind": "blog post (掘金 juejin.cn)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Python/PyTorch code block and the printed tensor rows, fixed 4-place and scientific notation (9.9995e-01 ... 4.2482e-18)",
        "conventions": "softmax with natural exp over the 5 scores, dim=-1; temperatures 0.1 and 2 divide the scores before softmax. Printed float32 values judged against the exact softmax at the printed mantissa places (scientific notation: the last printed mantissa digit). Not listed: the scores, temperatures and dim arguments in the code",
    }
    return meta, specs


# ---------------------------------------------------------------------------
# Document 5: 「RoPE (Rotary Positional Embeddings) 计算实例」 (pair-index frequencies, t = 3)
# ---------------------------------------------------------------------------
def doc_rope_pairs():
    t = 3
    om = [Fraction(1), Fraction(1, 100)]             # 10000^(-2i/4), i = 0, 1
    phi = [t * w for w in om]                        # 3, 0.03
    c = [mpmath.cos(M(p)) for p in phi]
    s = [mpmath.sin(M(p)) for p in phi]
    x = [1, 2, 3, 4]
    r = [x[0] * c[0] - x[1] * s[0], x[0] * s[0] + x[1] * c[0],
         x[2] * c[1] - x[3] * s[1], x[2] * s[1] + x[3] * c[1]]
    specs = [
        S_('c3', r'- $\phi=3$：$\cos(3) \approx -0.9900$', 5,
           E(0, phi[0], "phi = t*omega_0 = 3*1", '3', status='ok'),
           E(1, phi[0], "angle restated in cos(3)", '3', status='ok'),
           E(2, c[0], "cos(3) = -0.989992", '-0.9900', status='ok'),
           E(3, phi[0], "angle restated in sin(3)", '3', status='ok'),
           E(4, s[0], "sin(3) = 0.141120", '0.1411', status='ok')),
        S_('c03', r'- $\phi=0.03$：$\cos(0.03) \approx 0.9996$', 5,
           E(0, phi[1], "phi = t*omega_1 = 3*0.01", '0.03', status='ok'),
           E(1, phi[1], "angle restated in cos(0.03)", '0.03', status='ok'),
           E(2, c[1], "cos(0.03) = 0.9995500", '0.9996', status='ok'),
           E(3, phi[1], "angle restated in sin(0.03)", '0.03', status='ok'),
           E(4, s[1], "sin(0.03) = 0.0299955", '0.0300', status='ok')),
        S_('p0', r"x'_0 &= 1 \cdot (-0.9900) - 2 \cdot (0.1411) = -1.2722", 12,
           E(2, c[0], "cos(3) restated", '-0.9900', status='ok'),
           E(4, s[0], "sin(3) restated", '0.1411', status='ok'),
           E(5, r[0], "cos3 - 2 sin3 = -1.272232", '-1.2722', status='ok'),
           E(8, s[0], "sin(3) restated", '0.1411', status='ok'),
           E(10, c[0], "cos(3) restated", '-0.9900', status='ok'),
           E(11, r[1], "sin3 + 2 cos3 = -1.838865", '-1.8389', status='ok')),
        S_('p1', r"x'_2 &= 3 \cdot (0.9996) - 4 \cdot (0.0300) = 2.8787", 12,
           E(2, c[1], "cos(0.03) restated", '0.9996', status='ok'),
           E(4, s[1], "sin(0.03) restated", '0.0300', status='ok'),
           E(5, r[2], "3 cos0.03 - 4 sin0.03 = 2.878668", '2.8787', status='ok'),
           E(8, s[1], "sin(0.03) restated", '0.0300', status='ok'),
           E(10, c[1], "cos(0.03) restated", '0.9996', status='ok'),
           E(11, r[3], "3 sin0.03 + 4 cos0.03 = 4.088187", '4.0882', status='ok')),
        S_('fin', r"\mathbf{x}' \approx [-1.2722,\ -1.8389,\ 2.8787,\ 4.0882]", 4,
           *[E(k, r[k], "final x'[%d] restated" % k, lit, status='ok') for k, lit in enumerate(['-1.2722', '-1.8389', '2.8787', '4.0882'])]),
    ]
    meta = {
        "doc": "zh_rope_pairwise_t3_example.md",
        "source": "https://jibinghu.github.io/post/RoPE%20-shi-xian.html (「RoPE (Rotary Positional Embeddings) 计算实例」, GitHub Pages blog; stored page copy). Kept: sections 1-2 with all numbers and formulas, 3.1 (bullets reworded); 3.2 dropped (the stored copy breaks off there). The stored copy has lost the display equations after 'RoPE 将向量按相邻元素两两分组:' and after 'Pair 0 ($i=0$):' (per-pair frequency and angle lines); the two lead-ins are kept with a bracketed note, nothing was reconstructed. The pmatrix rows were restored with \\\\ separators lost in the copy; prose paraphrased",
        "source_kind": "blog post (GitHub Pages)",
        "language": "zh",
        "errors_as_published": False,
        "notation": "Markdown + LaTeX: \\mathbf{x}, \\omega_i = \\theta^{-2i/d}, \\phi_{t,i}, pmatrix rotation, aligned blocks with \\cdot and parenthesised rounded cos/sin values, ≈",
        "conventions": "Pair-index frequencies omega_i = 10000^(-2i/d), d = 4, i = 0, 1 (omega = 1, 0.01), angles phi = t*omega with t = 3 (3 and 0.03); each pair (x_2i, x_2i+1) rotated counter-clockwise. The rotated components are judged against the exact cos/sin (the document's 2.8787 and 4.0882 are the exact values; from the rounded 0.9996 and 0.0300 one would get 2.8788 and 4.0884). Angles restated inside cos()/sin() and the rounded cos/sin values restated in the products are listed. Not listed: d, base 10000, t, the input vector, indices",
    }
    return meta, specs


DOCS = [doc_rope_dim_index, doc_kv_cache, doc_perplexity, doc_temperature, doc_rope_pairs]


def expectation(fn):
    meta, specs = fn()
    out = dict(meta)
    out["numbers"] = build(meta["doc"], specs)
    return out


def uncovered(exp):
    lines = load(exp["doc"])
    listed = {(r["line"], r["column"]) for r in exp["numbers"]}
    print("== %s" % exp["doc"])
    for i, l in enumerate(lines, 1):
        toks = [(m.group(), m.start() + 1) for m in NUM_RE.finditer(l)]
        rest = [t for t, c in toks if (i, c) not in listed]
        if rest:
            print("  %4d: %s    | %s" % (i, ' '.join(rest), l.strip()[:70]))


def main(argv):
    mode = argv[1] if len(argv) > 1 else '--check'
    assert mode in ('--check', '--write', '--uncovered'), mode
    bad = 0
    for fn in DOCS:
        exp = expectation(fn)
        name = os.path.join(HERE, exp["doc"].rsplit('.', 1)[0] + '.expect.json')
        if mode == '--uncovered':
            uncovered(exp)
            continue
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
        print("%-48s %3d numbers, %2d ok, %2d wrong" % (exp["doc"], len(exp["numbers"]), len(exp["numbers"]) - nw, nw))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
