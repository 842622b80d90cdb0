"""True values behind every number in the block corpus (tests/block_corpus, issue 11).

Independent of symattn and SymPy: exact rationals (``fractions``) where the value is
rational, ``mpmath`` at 50 digits where it is not (sines, cosines, square roots, erf,
tanh).  Rounding is half away from zero; a value whose rounding would need more than
40 digits to decide (a near tie that is not an exact rational) stops the script.

One function per stage: ``positional_encoding``, ``add``, ``layer_norm``, ``rms_norm``,
``feed_forward`` (ReLU, GELU in its erf form, GELU's tanh approximation).  A case is a
list of steps over named inputs; every intermediate quantity a document prints (the
angles pos/10000^{2i/d}, μ, x − μ, σ², σ² + ε, √(σ² + ε), x̂, the hidden
pre-activations, the activations, the sublayer output, X + Sublayer(X)) is a stage
with its own name, so nothing is typed from memory.

"World (a)" variants are cases too (``truth_of`` names the true case): the same
document computed under another convention (``fits`` says which: concatenated layout,
positions from 1, sample variance, eps = 0) or from a wrong number the author printed
(``sets`` replaces a stage's cell; everything after it is recomputed from it).

Run ``python tests/block_corpus/_truth.py [CASE ...]`` to print every stage of every
case, exactly or at 12 digits, with its 2, 3, 4 and 6 place roundings.
"""

from __future__ import annotations

import copy
import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

mp.dps = 50

Value = Fraction | mpf


# --- exact helpers -------------------------------------------------------------------


def F(x: int | str | Fraction) -> Fraction:
    """An exact rational from an int, a decimal string ("1e-5" too) or a Fraction."""
    return Fraction(x)


def mat(rows: list[list]) -> list[list[Fraction]]:
    return [[Fraction(v) for v in row] for row in rows]


def to_mpf(v: Value) -> mpf:
    if isinstance(v, Fraction):
        return mpf(v.numerator) / mpf(v.denominator)
    return mpf(v)


def add(*vs: Value) -> Value:
    if all(isinstance(v, Fraction) for v in vs):
        return sum(vs, Fraction(0))
    return mpmath.fsum([to_mpf(v) for v in vs])


def mul(a: Value, b: Value) -> Value:
    if (isinstance(a, Fraction) and a == 0) or (isinstance(b, Fraction) and b == 0):
        return Fraction(0)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    return to_mpf(a) * to_mpf(b)


def div(a: Value, b: Value) -> Value:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    if isinstance(a, Fraction) and a == 0:
        return Fraction(0)
    return to_mpf(a) / to_mpf(b)


def sqrt(v: Value) -> Value:
    """The square root, exact when ``v`` is the square of a rational."""
    if isinstance(v, Fraction) and v >= 0:
        n, d = math.isqrt(v.numerator), math.isqrt(v.denominator)
        if n * n == v.numerator and d * d == v.denominator:
            return Fraction(n, d)
    return mpmath.sqrt(to_mpf(v))


def rpow(base: Fraction, e: Fraction) -> Value:
    """base^e, exact when it is rational (10000^(1/2) = 100), else at 50 digits."""
    if e.denominator == 1:
        return base ** int(e)
    root = round(float(base) ** (1 / e.denominator))
    for r in (root - 1, root, root + 1):
        if r > 0 and Fraction(r) ** e.denominator == base:
            return Fraction(r) ** e.numerator
    return mpmath.power(to_mpf(base), to_mpf(e))


def sin(v: Value) -> Value:
    return Fraction(0) if isinstance(v, Fraction) and v == 0 else mpmath.sin(to_mpf(v))


def cos(v: Value) -> Value:
    return Fraction(1) if isinstance(v, Fraction) and v == 0 else mpmath.cos(to_mpf(v))


def mm(a: list[list[Value]], b: list[list[Value]]) -> list[list[Value]]:
    assert len(a[0]) == len(b), (len(a[0]), len(b))
    return [
        [add(*(mul(a[i][k], b[k][j]) for k in range(len(b)))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def madd(a: list[list[Value]], b: list[list[Value]]) -> list[list[Value]]:
    """a + b, b broadcast over the rows when it has one row (a bias)."""
    rows = b if len(b) == len(a) else [b[0]] * len(a)
    return [[add(x, y) for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, rows, strict=True)]


# --- rounding -------------------------------------------------------------------------

TIE_GUARD = mpf(10) ** -40


def _scaled_int(v: Value, places: int, mode: str) -> int:
    """round(|v| * 10^places) half away from zero ("round") or toward zero ("trunc"), signed."""
    scale = 10**places
    if isinstance(v, Fraction):
        x = abs(v) * scale
        whole, rest = divmod(x.numerator, x.denominator)
        if mode == "round" and 2 * rest >= x.denominator:
            whole += 1
        return -whole if v < 0 else whole
    x = abs(to_mpf(v)) * scale
    whole = int(mpmath.floor(x))
    frac = x - whole
    if mode == "round":
        if abs(frac - mpf("0.5")) < TIE_GUARD:
            raise ValueError(f"rounding of {mpmath.nstr(v, 45)} at {places} places is a near tie")
        if frac > mpf("0.5"):
            whole += 1
    elif abs(frac) < TIE_GUARD or abs(frac - 1) < TIE_GUARD:
        raise ValueError(f"truncation of {mpmath.nstr(v, 45)} at {places} places is undecided")
    return -whole if v < 0 else whole


def _text(k: int, places: int, negative: bool) -> str:
    sign = "-" if negative else ""
    k = abs(k)
    if places == 0:
        return f"{sign}{k}"
    s = str(k).rjust(places + 1, "0")
    return f"{sign}{s[:-places]}.{s[-places:]}"


def _negative(v: Value) -> bool:
    return v < 0


def rnd(v: Value, places: int) -> str:
    """``v`` rounded half away from zero at ``places`` decimals ("0.40"; "-0.0000" for a tiny negative)."""
    return _text(_scaled_int(v, places, "round"), places, _negative(v))


def trunc(v: Value, places: int) -> str:
    """``v`` truncated toward zero at ``places`` decimals ("0.99" for 0.99995)."""
    return _text(_scaled_int(v, places, "trunc"), places, _negative(v))


def integer(v: Value) -> str:
    assert isinstance(v, Fraction) and v.denominator == 1, v
    return str(v.numerator)


def exact_decimal(v: Value) -> str:
    """A terminating rational written in full ("0.5", "-1.25", "2")."""
    assert isinstance(v, Fraction), v
    for places in range(0, 12):
        if (v * 10**places).denominator == 1:
            return _text(int(v * 10**places), places, v < 0)
    raise AssertionError(f"{v} does not terminate")


def f64_text(v: Value, max_frac: int = 8) -> str:
    """NumPy's text of the float64 nearest ``v`` at ``max_frac`` places at most, trailing zeros dropped."""
    x = Fraction(float(mpmath.nstr(to_mpf(v), 40)))
    if x.denominator == 1:
        return f"{x.numerator}."
    for places in range(1, 18):
        text = rnd(x, places)
        if float(text) == float(x) or places == max_frac:
            return text.rstrip("0")
    raise AssertionError(v)


# --- the stages -----------------------------------------------------------------------


def positional_encoding(n: int, d: int, base: Value, start: int, layout: str) -> dict:
    """PE(pos, 2i) = sin(pos / base^{2i/d}), PE(pos, 2i+1) = cos(…), pos = start … start+n−1.

    Returns the stages ``PE`` (n × d), ``PE_div`` (1 × d/2: base^{2i/d}) and ``PE_ang``
    (n × d/2: pos / base^{2i/d}).  ``layout="concatenated"``: all the sines, then all the cosines.
    """
    assert d % 2 == 0 and layout in ("interleaved", "concatenated")
    divs = [rpow(F(base), Fraction(2 * i, d)) for i in range(d // 2)]
    angles = [[div(F(pos), w) for w in divs] for pos in range(start, start + n)]
    rows = []
    for row in angles:
        sines, cosines = [sin(a) for a in row], [cos(a) for a in row]
        if layout == "interleaved":
            rows.append([v for pair in zip(sines, cosines, strict=True) for v in pair])
        else:
            rows.append(sines + cosines)
    return {"PE": rows, "PE_div": [divs], "PE_ang": angles}


def layer_norm(X, gamma, beta, *, eps: Value, variance: str, apply) -> dict:
    """LayerNorm per row: μ, x − μ, (x − μ)², σ² (÷d, or ÷(d−1) for "sample"), σ² + ε, √(σ² + ε), x̂, γ x̂ + β.

    ``apply(stage, matrix)`` replaces the cells a variant sets, before the next stage uses them.
    """
    d = len(X[0])
    out: dict = {}
    out["sum"] = apply("sum", [[add(*row)] for row in X])
    out["mu"] = apply("mu", [[div(s[0], F(d))] for s in out["sum"]])
    out["dev"] = apply("dev", [[add(x, -m[0]) for x in row] for row, m in zip(X, out["mu"], strict=True)])
    out["sq"] = apply("sq", [[mul(v, v) for v in row] for row in out["dev"]])
    out["ssq"] = apply("ssq", [[add(*row)] for row in out["sq"]])
    n = F(d - 1) if variance == "sample" else F(d)
    out["var"] = apply("var", [[div(s[0], n)] for s in out["ssq"]])
    out["ve"] = apply("ve", [[add(v[0], eps)] for v in out["var"]])
    out["std"] = apply("std", [[sqrt(v[0])] for v in out["ve"]])
    out["hat"] = apply(
        "hat", [[div(x, s[0]) for x in row] for row, s in zip(out["dev"], out["std"], strict=True)]
    )
    g = gamma[0] if gamma else [F(1)] * d
    b = beta[0] if beta else [F(0)] * d
    out[""] = apply(
        "", [[add(mul(gj, h), bj) for h, gj, bj in zip(row, g, b, strict=True)] for row in out["hat"]]
    )
    return out


def rms_norm(X, gamma, *, eps: Value, apply) -> dict:
    """RMSNorm per row: squares, their sum, their mean, √(mean + ε), x / √(mean + ε) · γ."""
    d = len(X[0])
    out: dict = {}
    out["sq"] = apply("sq", [[mul(x, x) for x in row] for row in X])
    out["ssq"] = apply("ssq", [[add(*row)] for row in out["sq"]])
    out["ms"] = apply("ms", [[div(t[0], F(d))] for t in out["ssq"]])
    out["rms"] = apply("rms", [[sqrt(add(m[0], eps))] for m in out["ms"]])
    g = gamma[0] if gamma else [F(1)] * d
    out[""] = apply(
        "",
        [
            [mul(div(x, r[0]), gj) for x, gj in zip(row, g, strict=True)]
            for row, r in zip(X, out["rms"], strict=True)
        ],
    )
    return out


GELU_C = F("0.044715")


def relu(h: Value) -> Value:
    return h if h > 0 else Fraction(0)


def gelu(h: Value) -> Value:
    """x Φ(x) = x/2 · (1 + erf(x/√2))."""
    if isinstance(h, Fraction) and h == 0:
        return Fraction(0)
    x = to_mpf(h)
    return x / 2 * (1 + mpmath.erf(x / mpmath.sqrt(2)))


def gelu_tanh(h: Value) -> Value:
    """The tanh approximation: x/2 · (1 + tanh(√(2/π) (x + 0.044715 x³)))."""
    if isinstance(h, Fraction) and h == 0:
        return Fraction(0)
    x = to_mpf(h)
    return x / 2 * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (x + to_mpf(GELU_C) * x**3)))


def silu(h: Value) -> Value:
    """SiLU (swish): x · σ(x) = x / (1 + e^(−x))."""
    if isinstance(h, Fraction) and h == 0:
        return Fraction(0)
    x = to_mpf(h)
    return x / (1 + mpmath.exp(-x))


ACTS = {"relu": relu, "gelu": gelu, "gelu_tanh": gelu_tanh, "silu": silu}


def feed_forward(X, W1, b1, W2, b2, *, act: str, apply) -> dict:
    """FFN(x) = act(x W_1 + b_1) W_2 + b_2: stages H (pre-activations), A (activations), P (A W_2), the output."""
    out: dict = {}
    out["H"] = apply("H", madd(mm(X, W1), b1) if b1 else mm(X, W1))
    out["A"] = apply("A", [[ACTS[act](h) for h in row] for row in out["H"]])
    out["P"] = apply("P", mm(out["A"], W2))
    out[""] = apply("", madd(out["P"], b2) if b2 else [row[:] for row in out["P"]])
    return out


# --- cases ----------------------------------------------------------------------------


@dataclass
class Case:
    """A worked example: inputs by name and steps ``(NAME, op, params)`` computed in order.

    ops: ``pe`` (n, d, base, start, layout), ``add`` (a, b), ``ln`` (src, gamma, beta, eps,
    variance), ``rms`` (src, gamma, eps), ``ffn`` (src, W1, b1, W2, b2, act), ``act`` (src, act:
    an activation applied entrywise).  A step's
    sub-stages are named ``NAME_sub`` (``LN_mu``, ``F_H``); its result is ``NAME``.
    """

    name: str
    note: str
    inputs: dict
    steps: list
    truth_of: str | None = None
    fits: str | None = None  # the convention this variant computes under
    sets: dict = field(default_factory=dict)  # stage -> {(r, c): value}
    stages: dict = field(default_factory=dict)


def compute(case: Case) -> dict:
    s: dict = {}
    for k, v in case.inputs.items():
        s[k] = mat(v) if isinstance(v, list) else F(v)

    def get(name):
        return s[name] if name else None

    for name, op, p in case.steps:

        def apply(sub: str, m, name=name):
            stage = f"{name}_{sub}" if sub else name
            for (r, c), v in case.sets.get(stage, {}).items():
                m[r - 1][c - 1] = Fraction(v) if isinstance(v, (int, str)) else v
            return m

        if op == "pe":
            parts = positional_encoding(
                p["n"], p["d"], F(p.get("base", 10000)), p.get("start", 0), p.get("layout", "interleaved")
            )
            for sub, m in parts.items():
                s[sub.replace("PE", name, 1)] = apply(sub[3:], m)
            continue
        if op == "add":
            parts = {"": apply("", madd(s[p["a"]], s[p["b"]]))}
        elif op == "ln":
            parts = layer_norm(
                s[p["src"]],
                get(p.get("gamma")),
                get(p.get("beta")),
                eps=F(p.get("eps", "1e-5")),
                variance=p.get("variance", "population"),
                apply=apply,
            )
        elif op == "act":
            parts = {"": apply("", [[ACTS[p["act"]](h) for h in row] for row in s[p["src"]]])}
        elif op == "rms":
            parts = rms_norm(s[p["src"]], get(p.get("gamma")), eps=F(p.get("eps", "1e-5")), apply=apply)
        elif op == "ffn":
            parts = feed_forward(
                s[p["src"]],
                s[p["W1"]],
                get(p.get("b1")),
                s[p["W2"]],
                get(p.get("b2")),
                act=p["act"],
                apply=apply,
            )
        else:
            raise AssertionError(op)
        for sub, m in parts.items():
            s[f"{name}_{sub}" if sub else name] = m
    case.stages = s
    return s


def vary(
    base: Case,
    name: str,
    note: str,
    *,
    fits: str | None = None,
    sets: dict | None = None,
    change: dict | None = None,
) -> Case:
    """A world (a) of ``base``: the same steps with changed parameters or set cells."""
    steps = copy.deepcopy(base.steps)
    for step_name, params in (change or {}).items():
        for _, _, p in (st for st in steps if st[0] == step_name):
            p.update(params)
    return Case(name, note, copy.deepcopy(base.inputs), steps, truth_of=base.name, fits=fits, sets=sets or {})


CASES: dict[str, Case] = {}


def _add(case: Case) -> Case:
    assert case.name not in CASES, case.name
    compute(case)
    CASES[case.name] = case
    return case


# pe4: 3 positions, d_model 4, base 10000, X given; X + PE; LayerNorm of X + PE (eps 1e-5)
pe4 = _add(
    Case(
        "pe4",
        "3 positions (0, 1, 2), d_model 4: PE, X + PE, LayerNorm(X + PE)",
        {"X": [["0.5", "-0.5", "0", "1"], ["0", "0.5", "1", "0.5"], ["1", "0", "-0.5", "0"]]},
        [
            ("PE", "pe", {"n": 3, "d": 4}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "eps": "1e-5"}),
        ],
    )
)
_add(
    vary(
        pe4,
        "pe4_cat",
        "pe4 with PE in the concatenated layout",
        fits="concatenated layout",
        change={"PE": {"layout": "concatenated"}},
    )
)

# pe6: 4 positions, d_model 6 (10000^{1/3} is irrational), X + PE
pe6 = _add(
    Case(
        "pe6",
        "4 positions (0..3), d_model 6: PE, X + PE",
        {
            "X": [
                ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6"],
                ["1", "0", "1", "0", "1", "0"],
                ["0", "0", "0", "0", "0", "0"],
                ["-1", "1", "-1", "1", "-1", "1"],
            ]
        },
        [("PE", "pe", {"n": 4, "d": 6}), ("XP", "add", {"a": "X", "b": "PE"})],
    )
)
_add(
    vary(
        pe6,
        "pe6_from1",
        "pe6 with positions counted from 1",
        fits="positions from 1",
        change={"PE": {"start": 1}},
    )
)

# ln4: LayerNorm of two rows of d_model 4 with gamma and beta; RMSNorm of the same rows
ln4 = _add(
    Case(
        "ln4",
        "LayerNorm of [1, 2, 3, 4] and [2, 0, 1, 5], gamma, beta, eps 1e-5; RMSNorm of them",
        {
            "X": [[1, 2, 3, 4], [2, 0, 1, 5]],
            "g": [["1", "1", "0.5", "2"]],
            "b": [["0", "0.1", "0", "-0.5"]],
        },
        [
            ("LN", "ln", {"src": "X", "gamma": "g", "beta": "b", "eps": "1e-5"}),
            ("RMS", "rms", {"src": "X", "eps": "1e-5"}),
        ],
    )
)

# lnv: LayerNorm of [1, 2, 3, 4] and [0.5, 1.5, 1, 3] (sample variance variant)
lnv = _add(
    Case(
        "lnv",
        "LayerNorm of [1, 2, 3, 4] and [0.5, 1.5, 1, 3], eps 1e-5, no gamma/beta",
        {"X": [[1, 2, 3, 4], ["0.5", "1.5", "1", "3"]]},
        [("LN", "ln", {"src": "X", "eps": "1e-5"})],
    )
)
_add(
    vary(
        lnv,
        "lnv_sample",
        "lnv with the sample variance (÷ (d − 1))",
        fits="sample variance",
        change={"LN": {"variance": "sample"}},
    )
)

# lne: small variance and a large eps = 0.01 (eps changes the digits)
lne = _add(
    Case(
        "lne",
        "LayerNorm with eps = 0.01 of [1, 1.2, 0.8, 1] and [0.9, 1.1, 1.3, 0.7], gamma 2, beta 0.5",
        {
            "X": [["1", "1.2", "0.8", "1"], ["0.9", "1.1", "1.3", "0.7"]],
            "g": [[2, 2, 2, 2]],
            "b": [["0.5", "0.5", "0.5", "0.5"]],
        },
        [("LN", "ln", {"src": "X", "gamma": "g", "beta": "b", "eps": "0.01"})],
    )
)
_add(vary(lne, "lne_eps0", "lne computed without eps", fits="eps = 0", change={"LN": {"eps": "0"}}))

# lnb: the second example of the eps handout: [3, 1, 4, 1, 5, 2] (d 6), eps 1e-5; the author's sigma^2 slip
lnb = _add(
    Case(
        "lnb",
        "LayerNorm of [3, 1, 4, 1, 5, 2] (d 6), eps 1e-5",
        {"X": [[3, 1, 4, 1, 5, 2]]},
        [("LN", "ln", {"src": "X", "eps": "1e-5"})],
    )
)
# true sigma^2 = 20/9 = 2.2222; printed 2.2722 (one digit); sqrt, x-hat computed from it
_add(
    vary(lnb, "lnb_var", "lnb with sigma^2 printed 2.2722 (true 2.2222)", sets={"LN_var": {(1, 1): "2.2722"}})
)

# ffn: 3 tokens, d_model 3, d_ff 4, ReLU; residual X + FFN(X) and LayerNorm (Add & Norm)
_FFN_IN = {
    "X": [["1", "0.5", "-1"], ["0", "2", "1"], ["-0.5", "1", "0.5"]],
    "W1": [["1", "-1", "0.5", "2"], ["0.5", "1", "-1", "0"], ["0", "1", "1", "-0.5"]],
    "b1": [["0", "0.5", "0.25", "-1"]],
    "W2": [["1", "0", "0.5"], ["-0.5", "1", "0"], ["2", "0.5", "-1"], ["0", "-1", "1"]],
    "b2": [["0.1", "-0.2", "0"]],
}
ffn = _add(
    Case(
        "ffn",
        "FFN with ReLU (d_model 3, d_ff 4), Add & Norm (eps 1e-5)",
        _FFN_IN,
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "ln", {"src": "R", "eps": "1e-5"}),
        ],
    )
)
# hidden unit h[2,2] = 0*(-1) + 2*1 + 1*1 + 0.5 = 3.5 printed 2.5 (one wrong digit); ReLU, output, Add & Norm from it
_add(vary(ffn, "ffn_h22", "ffn with F_H[2,2] = 2.5 (true 3.5)", sets={"F_H": {(2, 2): "2.5"}}))

# gelu: the same FFN with GELU (erf form) and with the tanh approximation
_add(
    Case(
        "gelu",
        "FFN of ffn's inputs with GELU, erf form",
        _FFN_IN,
        [("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "gelu"})],
    )
)
_add(
    Case(
        "gelut",
        "FFN of ffn's inputs with GELU's tanh approximation",
        _FFN_IN,
        [("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "gelu_tanh"})],
    )
)

# blk: a tiny block, 2 tokens, d_model 4: X + PE, LayerNorm (gamma, beta), FFN ReLU (d_ff 2), Add & Norm
blk = _add(
    Case(
        "blk",
        "2 tokens, d_model 4: X + PE, LN, FFN (ReLU, d_ff 2), Add & Norm",
        {
            "X": [["0.2", "0.4", "-0.2", "0.6"], ["1", "-0.5", "0.5", "0"]],
            "g": [["1", "1", "1", "1"]],
            "b": [["0", "0", "0", "0"]],
            "W1": [["1", "0"], ["0", "1"], ["-1", "1"], ["0.5", "-0.5"]],
            "b1": [["0.1", "0"]],
            "W2": [["1", "0", "-1", "0.5"], ["0", "1", "0.5", "-1"]],
            "b2": [["0", "0", "0", "0"]],
        },
        [
            ("PE", "pe", {"n": 2, "d": 4}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "gamma": "g", "beta": "b", "eps": "1e-5"}),
            ("F", "ffn", {"src": "LN", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "LN", "b": "F"}),
            ("N", "ln", {"src": "R", "eps": "1e-5"}),
        ],
    )
)

# the FFN output F[2,4] = 1.1059 printed 1.1559 (one digit); Z + FFN(Z) and its LayerNorm computed from it
_add(vary(blk, "blk_F24", "blk with FFN(Z)[2,4] = 1.1559 (true 1.1059)", sets={"F": {(2, 4): "1.1559"}}))


# --- the held-out set (h_* documents): inputs no earlier document uses --------------------

# hpe: 3 positions, d_model 4, X + PE, LayerNorm with eps 1e-6 (a NumPy walkthrough)
_add(
    Case(
        "hpe",
        "3 positions (0, 1, 2), d_model 4: PE, X + PE, LayerNorm(X + PE) with eps 1e-6",
        {"X": [["0.3", "-0.1", "0.5", "0.2"], ["-0.4", "0.6", "0.1", "-0.2"], ["0.2", "0.2", "-0.3", "0.7"]]},
        [
            ("PE", "pe", {"n": 3, "d": 4}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "eps": "1e-6"}),
        ],
    )
)

# hgelu: 2 tokens, d_model 4, d_ff 3, GELU (erf form); X + FFN(X), LayerNorm with gamma, beta (eps 1e-5)
_add(
    Case(
        "hgelu",
        "FFN with GELU (erf), d_model 4, d_ff 3; Add & Norm with gamma, beta",
        {
            "X": [["0.5", "-1", "1.5", "0"], ["2", "0.5", "-0.5", "1"]],
            "W1": [["0.5", "-1", "1"], ["1", "0.5", "0"], ["0", "1", "-0.5"], ["-1", "0", "0.5"]],
            "b1": [["0.1", "0", "-0.2"]],
            "W2": [["1", "0", "-0.5", "0.5"], ["0", "-1", "1", "0"], ["0.5", "0.5", "0", "-1"]],
            "b2": [["0", "0.1", "0", "-0.1"]],
            "g": [["1", "0.5", "1", "2"]],
            "b": [["0", "0", "0.2", "0"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "gelu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "ln", {"src": "R", "gamma": "g", "beta": "b", "eps": "1e-5"}),
        ],
    )
)

# hrms: pre-norm: RMSNorm (gamma, eps 1e-6), FFN with ReLU and no biases (d_ff 3), X + FFN(RMSNorm(X)),
# then a LayerNorm of the result (eps 1e-5)
_add(
    Case(
        "hrms",
        "3 tokens, d_model 4: RMSNorm, FFN (ReLU, no biases), residual, LayerNorm",
        {
            "X": [["1", "-2", "0.5", "1.5"], ["0", "1", "-1", "2"], ["2", "2", "0", "-1"]],
            "g": [["1.5", "1", "1", "0.5"]],
            "W1": [["1", "0", "-1"], ["0.5", "1", "0"], ["0", "-1", "1"], ["1", "0.5", "0.5"]],
            "W2": [["0.5", "-1", "0", "1"], ["1", "0", "0.5", "-0.5"], ["0", "1", "-1", "0.5"]],
        },
        [
            ("RMS", "rms", {"src": "X", "gamma": "g", "eps": "1e-6"}),
            ("F", "ffn", {"src": "RMS", "W1": "W1", "W2": "W2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "ln", {"src": "R", "eps": "1e-5"}),
        ],
    )
)

# hpe1: 4 positions, d_model 4, X + PE; the blog's table counts positions from 1
hpe1 = _add(
    Case(
        "hpe1",
        "4 positions (0..3), d_model 4: PE, X + PE",
        {
            "X": [
                ["0.1", "0.1", "0.1", "0.1"],
                ["0", "0.5", "0", "0.5"],
                ["-0.2", "0", "0.2", "0"],
                ["1", "0", "0", "-1"],
            ]
        },
        [("PE", "pe", {"n": 4, "d": 4}), ("XP", "add", {"a": "X", "b": "PE"})],
    )
)
_add(
    vary(
        hpe1,
        "hpe1_from1",
        "hpe1 with positions counted from 1",
        fits="positions from 1",
        change={"PE": {"start": 1}},
    )
)

# hln5: LayerNorm of 3 rows of d_model 5 with gamma and beta, eps 1e-5; the study note's sample variance
hln5 = _add(
    Case(
        "hln5",
        "LayerNorm of 3 rows, d_model 5, gamma, beta, eps 1e-5",
        {
            "X": [["1.2", "0.4", "2", "0.8", "1.6"], [3, 1, 2, 6, 4], ["0.5", "-0.5", "1", "2", "0.3"]],
            "g": [["1", "2", "1", "0.5", "1"]],
            "b": [["0", "0", "0.1", "0", "-0.1"]],
        },
        [("LN", "ln", {"src": "X", "gamma": "g", "beta": "b", "eps": "1e-5"})],
    )
)
_add(
    vary(
        hln5,
        "hln5_sample",
        "hln5 with the sample variance (÷ (d − 1))",
        fits="sample variance",
        change={"LN": {"variance": "sample"}},
    )
)

# hffn: 2 tokens, d_model 4, d_ff 3, ReLU, Add & Norm (eps 1e-5)
hffn = _add(
    Case(
        "hffn",
        "FFN with ReLU (d_model 4, d_ff 3), Add & Norm (eps 1e-5)",
        {
            "X": [["1", "0", "-1", "0.5"], ["0.5", "1.5", "0", "-1"]],
            "W1": [["0.5", "1", "-0.5"], ["-1", "0.5", "1"], ["0", "-1", "0.5"], ["1", "0.5", "1"]],
            "b1": [["0.2", "-0.1", "0.1"]],
            "W2": [["1", "-0.5", "0", "0.5"], ["0.5", "0", "1", "-1"], ["0", "1", "-0.5", "0.5"]],
            "b2": [["0.1", "0", "-0.1", "0"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "ln", {"src": "R", "eps": "1e-5"}),
        ],
    )
)

# the hidden pre-activation h[1,2] = 1*1 + 0*0.5 + (-1)(-1) + 0.5*0.5 - 0.1 = 2.15 printed 2.45 (one digit);
# ReLU, the FFN output row 1, X + FFN(X) row 1 and its LayerNorm computed from it
_add(vary(hffn, "hffn_h12", "hffn with F_H[1,2] = 2.45 (true 2.15)", sets={"F_H": {(1, 2): "2.45"}}))


# --- the second held-out set (h_2_* documents): inputs no earlier document uses -------------

# h2pe: 3 positions (0, 1, 2), d_model 4: PE, X + PE, LayerNorm (eps 1e-5); a blog walkthrough
h2pe = _add(
    Case(
        "h2pe",
        "3 positions (0, 1, 2), d_model 4: PE, X + PE, LayerNorm(X + PE) with eps 1e-5",
        {"X": [["0.1", "0.3", "-0.2", "0.4"], ["0.5", "-0.1", "0.2", "0"], ["-0.5", "0.8", "0.3", "-0.4"]]},
        [
            ("PE", "pe", {"n": 3, "d": 4}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "eps": "1e-5"}),
        ],
    )
)
# X + PE [2,2] = -0.1 + cos(1) = 0.4403 printed 0.6403 (one digit: +0.1 for -0.1); row 2's LayerNorm from it
_add(vary(h2pe, "h2pe_xp22", "h2pe with XP[2,2] = 0.6403 (true 0.4403)", sets={"XP": {(2, 2): "0.6403"}}))
# row 3 (sigma^2 = 0.0109) normalised without eps
_add(vary(h2pe, "h2pe_eps0", "h2pe computed without eps", fits="eps = 0", change={"LN": {"eps": "0"}}))

# h2ffn: 2 tokens, d_model 3, d_ff 4, ReLU; x + FFN(x) and a post-norm LayerNorm (eps 1e-5); a .tex handout
h2ffn = _add(
    Case(
        "h2ffn",
        "FFN with ReLU (d_model 3, d_ff 4), Add & Norm (eps 1e-5)",
        {
            "X": [["0.5", "-1", "1.5"], ["1", "0.5", "-0.5"]],
            "W1": [
                ["0.2", "-0.5", "1", "0.3"],
                ["0.4", "0.1", "-0.3", "0.5"],
                ["-0.1", "0.6", "0.2", "-0.2"],
            ],
            "b1": [["0.1", "0", "-0.1", "0.05"]],
            "W2": [
                ["0.5", "-0.3", "0.2"],
                ["0.1", "0.4", "-0.6"],
                ["-0.2", "0.3", "0.5"],
                ["0.6", "-0.1", "0.2"],
            ],
            "b2": [["0.05", "0", "-0.1"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "ln", {"src": "R", "eps": "1e-5"}),
        ],
    )
)
# h[1,2] = 0.5(-0.5) + (-1)(0.1) + 1.5(0.6) + 0 = 0.55 printed -0.55 (the sign lost); ReLU zeroes it, and
# FFN(x_1), x_1 + FFN(x_1) and its LayerNorm are computed from it
_add(vary(h2ffn, "h2ffn_h12", "h2ffn with F_H[1,2] = -0.55 (true 0.55)", sets={"F_H": {(1, 2): "-0.55"}}))

# h2rms: RMSNorm of 2 tokens, d_model 4, gamma, eps 1e-6; the mean and variance of the same rows (the note
# compares with LayerNorm); GELU's tanh approximation of a small vector v, and its erf form for comparison
h2rms = _add(
    Case(
        "h2rms",
        "RMSNorm (gamma, eps 1e-6) of 2 tokens, d_model 4; GELU (tanh approximation) of v",
        {
            "X": [["1.2", "-0.8", "0.5", "-0.82"], ["0.3", "1.1", "-0.6", "0.9"]],
            "g": [["1", "0.5", "2", "1.5"]],
            "v": [["1", "-0.5", "2", "0.3"]],
        },
        [
            ("RMS", "rms", {"src": "X", "gamma": "g", "eps": "1e-6"}),
            ("M", "ln", {"src": "X", "eps": "1e-6"}),
            ("G", "act", {"src": "v", "act": "gelu_tanh"}),
            ("G_erf", "act", {"src": "v", "act": "gelu"}),
        ],
    )
)
# token 1's mean of squares 0.7506 printed 0.7502: the mean subtracted first (0.7506 - 0.02^2, its variance);
# its RMS and RMSNorm row computed from it
_add(
    vary(
        h2rms,
        "h2rms_ms",
        "h2rms with RMS_ms[1] = 0.7502 (true 0.7506: the variance, mean subtracted)",
        sets={"RMS_ms": {(1, 1): "0.7502"}},
    )
)

# h2pe1: 3 positions counted from 1 (stated), d_model 4: PE, X + PE, LayerNorm (eps 1e-5, PyTorch's default)
_add(
    Case(
        "h2pe1",
        "3 positions (1, 2, 3: the document counts from 1), d_model 4: PE, X + PE, LayerNorm with eps 1e-5",
        {"X": [["0.2", "-0.4", "0.1", "0.3"], ["-0.5", "0.1", "0.4", "-0.2"], ["0.3", "0.6", "-0.1", "0"]]},
        [
            ("PE", "pe", {"n": 3, "d": 4, "start": 1}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "eps": "1e-5"}),
        ],
    )
)


# --- the third held-out set (h_3_* documents): inputs no earlier document uses --------------

# h3pe: 2 tokens, d_model 2, positions counted from 1 (stated in words): PE, X + PE, LayerNorm with gamma,
# beta and eps 1e-5 (population variance); a forum answer
h3pe = _add(
    Case(
        "h3pe",
        "2 tokens (positions 1, 2: the document counts from 1), d_model 2: PE, X + PE, LayerNorm (gamma, beta)",
        {
            "X": [["-0.3", "0.2"], ["-0.6", "0.5"]],
            "g": [["1.5", "0.8"]],
            "b": [["0.1", "-0.2"]],
        },
        [
            ("PE", "pe", {"n": 2, "d": 2, "start": 1}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "gamma": "g", "beta": "b", "eps": "1e-5"}),
        ],
    )
)
# token 2 (position 2) normalised with the sample variance (÷ (d − 1) = ÷ 1)
_add(
    vary(
        h3pe,
        "h3pe_sample",
        "h3pe with the sample variance (÷ (d − 1))",
        fits="sample variance",
        change={"LN": {"variance": "sample"}},
    )
)

# h3ffn: 3 tokens, d_model 2, d_ff 3, ReLU, x + FFN(x); Markdown course notes with tables
h3ffn = _add(
    Case(
        "h3ffn",
        "FFN with ReLU (d_model 2, d_ff 3) of 3 tokens, residual x + FFN(x)",
        {
            "X": [["0.4", "-0.2"], ["0.1", "0.7"], ["-0.5", "0.3"]],
            "W1": [["0.6", "-0.3", "0.2"], ["0.1", "0.5", "-0.4"]],
            "b1": [["0.07", "0.1", "-0.02"]],
            "W2": [["0.3", "-0.7"], ["0.8", "0.2"], ["-0.5", "0.4"]],
            "b2": [["0.1", "-0.05"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
        ],
    )
)

# the hidden pre-activation h[2,2] = 0.1*(-0.3) + 0.7*0.5 + 0.1 = 0.42 printed 0.62 (one digit); its ReLU
# value, FFN(x_2) and x_2 + FFN(x_2) computed from it
_add(vary(h3ffn, "h3ffn_h22", "h3ffn with F_H[2,2] = 0.62 (true 0.42)", sets={"F_H": {(2, 2): "0.62"}}))

# h3pec: 3 positions (0, 1, 2), d_model 4, PE in the concatenated layout (stated: all sines, then all
# cosines), X + PE; a Chinese control
_add(
    Case(
        "h3pec",
        "3 positions (0, 1, 2), d_model 4: PE in the concatenated layout (stated), X + PE",
        {"X": [["0.2", "-0.1", "0.4", "0.3"], ["-0.3", "0.5", "0.1", "-0.2"], ["0.6", "0.2", "-0.4", "0.1"]]},
        [("PE", "pe", {"n": 3, "d": 4, "layout": "concatenated"}), ("XP", "add", {"a": "X", "b": "PE"})],
    )
)


# --- the fourth held-out set (h_4_* documents): inputs no earlier document uses -------------

# h4ln: pre-norm H = X + FFN(LN(X)): 2 tokens, d_model 3, d_ff 2, ReLU, LayerNorm with eps 1e-5 (population
# variance, gamma = 1, beta = 0); LaTeX lecture notes
h4ln = _add(
    Case(
        "h4ln",
        "pre-norm X + FFN(LN(X)): 2 tokens, d_model 3, d_ff 2, ReLU, eps 1e-5",
        {
            "X": [["0.6", "-0.2", "1.1"], ["-0.5", "0.9", "0.3"]],
            "W1": [["0.8", "-0.4"], ["-0.3", "0.9"], ["0.5", "0.2"]],
            "b1": [["0.1", "-0.3"]],
            "W2": [["0.4", "-0.6", "0.2"], ["0.7", "0.3", "-0.5"]],
            "b2": [["0.05", "0", "-0.1"]],
        },
        [
            ("LN", "ln", {"src": "X", "eps": "1e-5"}),
            ("F", "ffn", {"src": "LN", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("H", "add", {"a": "X", "b": "F"}),
        ],
    )
)
# the hidden unit h[1,1] = LN(x_1) . W_1[:,1] + b_1[1] = 1.2019 printed 1.1019: the bias 0.1 left out (one
# digit); its ReLU value, FFN(x_1) and the residual row 1 computed from it
_add(
    vary(
        h4ln,
        "h4ln_h11",
        "h4ln with F_H[1,1] = 1.1019 (true 1.2019: b_1 left out)",
        sets={"F_H": {(1, 1): "1.1019"}},
    )
)

# h4pe: sinusoidal PE, d_model 6, positions 0, 1, 2, base 10000, interleaved; a README with a NumPy printout
h4pe = _add(
    Case("h4pe", "3 positions (0, 1, 2), d_model 6: PE (interleaved)", {}, [("PE", "pe", {"n": 3, "d": 6})])
)
# PE[3,4] = cos(2 / 10000^(2/6)) = 0.9957 printed 0.9947 (one digit); the prose quotes the printed number
_add(vary(h4pe, "h4pe_34", "h4pe with PE[3,4] = 0.9947 (true 0.9957)", sets={"PE": {(3, 4): "0.9947"}}))

# h4zh: LayerNorm of 3 tokens, d_model 4, eps 1e-5, no gamma/beta; a Chinese calculator-style control
_add(
    Case(
        "h4zh",
        "LayerNorm of 3 tokens, d_model 4, eps 1e-5 (no gamma, beta)",
        {"X": [["1.5", "-0.5", "2", "0.4"], ["0.3", "0.9", "-1.2", "0.6"], ["2.4", "1.8", "3", "0.2"]]},
        [("LN", "ln", {"src": "X", "eps": "1e-5"})],
    )
)


# --- the fifth held-out set (h_5_* documents): inputs no earlier document uses --------------

# h5enc: a post-norm encoder sub-layer pair on 2 tokens, d = 2: X + PE (positions 0, 1), then
# LayerNorm(H + FFN(H)) with ReLU, d_ff 2, gamma = [1, 1], beta = [0, 0] given, eps 1e-5; a blog control
_H5_FFN = {
    "W1": [["0.5", "-1"], ["1", "0.5"]],
    "b1": [["0.1", "-0.2"]],
    "W2": [["1", "-0.5"], ["0.5", "1"]],
    "b2": [["0", "0.1"]],
    "g": [["1", "1"]],
    "b": [["0", "0"]],
}
_H5_STEPS = [
    ("PE", "pe", {"n": 2, "d": 2}),
    ("H", "add", {"a": "X", "b": "PE"}),
    ("F", "ffn", {"src": "H", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
    ("R", "add", {"a": "H", "b": "F"}),
    ("N", "ln", {"src": "R", "gamma": "g", "beta": "b", "eps": "1e-5"}),
]
_add(
    Case(
        "h5enc",
        "post-norm encoder sub-layer: X + PE, LayerNorm(H + FFN(H)), ReLU, d 2, d_ff 2, eps 1e-5",
        {"X": [["0.3", "-0.4"], ["-0.2", "0.6"]], **_H5_FFN},
        copy.deepcopy(_H5_STEPS),
    )
)
# its "Another example": new X (and so new H), the same weights
_add(
    Case(
        "h5enc2",
        "the same sub-layer pair on a second X",
        {"X": [["-0.5", "0.2"], ["0.4", "-0.3"]], **_H5_FFN},
        copy.deepcopy(_H5_STEPS),
    )
)

# h5zh: a PyTorch session: F.layer_norm over the last dimension (eps 1e-5) and F.gelu (erf form) of x
_add(
    Case(
        "h5zh",
        "F.layer_norm(x, (3,)) (eps 1e-5) and F.gelu(x) (erf) of 2 rows, d 3",
        {"x": [["0.5", "-1.2", "0.3"], ["2", "0.1", "-0.4"]]},
        [
            ("LN", "ln", {"src": "x", "eps": "1e-5"}),
            ("G", "act", {"src": "x", "act": "gelu"}),
        ],
    )
)

# h5rms: RMSNorm with gamma and eps 0.01 of 3 tokens, d 2; SiLU of a vector v; lecture scribe notes
h5rms = _add(
    Case(
        "h5rms",
        "RMSNorm (gamma, eps 0.01) of 3 tokens, d 2; SiLU of v",
        {
            "X": [["1.2", "-0.8"], ["0.3", "-0.1"], ["-0.5", "0.9"]],
            "g": [["1.5", "0.5"]],
            "v": [["1", "-0.5", "2", "0.25"]],
        },
        [
            ("RMS", "rms", {"src": "X", "gamma": "g", "eps": "0.01"}),
            ("S", "act", {"src": "v", "act": "silu"}),
        ],
    )
)
# token 2's RMS (mean of squares 0.05) taken without eps: sqrt(0.05) for sqrt(0.06); its outputs from it
_add(vary(h5rms, "h5rms_eps0", "h5rms computed without eps", fits="eps = 0", change={"RMS": {"eps": "0"}}))

# h5pe: sinusoidal PE with base 100 (stated), d_model 4, positions 0..2, interleaved; X + PE; an exam solution
h5pe = _add(
    Case(
        "h5pe",
        "3 positions (0, 1, 2), d_model 4, base 100: PE (interleaved), X + PE",
        {"X": [["0.3", "-0.2", "0.1", "0.5"], ["-0.4", "0.6", "0.2", "-0.1"], ["0.1", "0", "-0.3", "0.7"]]},
        [("PE", "pe", {"n": 3, "d": 4, "base": 100}), ("XP", "add", {"a": "X", "b": "PE"})],
    )
)
# one entry, PE(2, 2) = sin(2 / 100^(2/4)), computed with the paper's base 10000 instead
_add(vary(h5pe, "h5pe_b10000", "h5pe with base 10000", fits="base 10000", change={"PE": {"base": 10000}}))


# --- the sixth held-out set (h_6_* documents): inputs no earlier document uses --------------

# h6nb: a NumPy notebook: LayerNorm (eps 1e-5, no gamma/beta) of 2 tokens, d 3, then an FFN with GELU in the
# tanh approximation, d_ff 2, back to d 3
_add(
    Case(
        "h6nb",
        "LayerNorm (eps 1e-5) of 2 tokens, d 3, then FFN with GELU (tanh), d_ff 2",
        {
            "X": [["0.8", "-0.6", "1.3"], ["0.2", "1.1", "-0.4"]],
            "W1": [["0.5", "-0.3"], ["0.2", "0.7"], ["-0.4", "0.6"]],
            "b1": [["0.1", "-0.1"]],
            "W2": [["1", "-0.5", "0.3"], ["0.4", "0.8", "-0.6"]],
            "b2": [["0", "0.05", "-0.1"]],
        },
        [
            ("N", "ln", {"src": "X", "eps": "1e-5"}),
            ("F", "ffn", {"src": "N", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "gelu_tanh"}),
        ],
    )
)

# h6zh: PE with positions from 1 (stated), d_model 4, 2 positions; X + PE; LayerNorm (eps 1e-5) of its rows
_add(
    Case(
        "h6zh",
        "2 positions (1, 2), d_model 4: PE (interleaved), H = X + PE, LayerNorm (eps 1e-5)",
        {"X": [["0.2", "-0.5", "0.4", "0.1"], ["-0.3", "0.6", "0.1", "-0.2"]]},
        [
            ("PE", "pe", {"n": 2, "d": 4, "start": 1}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("LN", "ln", {"src": "XP", "eps": "1e-5"}),
        ],
    )
)

# h6rms: residual then RMSNorm (gamma, eps 1e-6) of 2 tokens, d 2; a plain-text homework answer
_add(
    Case(
        "h6rms",
        "r = x + s, RMSNorm(r) (gamma, eps 1e-6), 2 tokens, d 2",
        {
            "X": [["0.6", "-1.1"], ["1.4", "0.3"]],
            "S": [["0.3", "0.5"], ["-0.2", "0.9"]],
            "g": [["0.8", "1.2"]],
        },
        [
            ("R", "add", {"a": "X", "b": "S"}),
            ("RMS", "rms", {"src": "R", "gamma": "g", "eps": "1e-6"}),
        ],
    )
)


# --- the seventh held-out set (h_7_* documents): inputs no earlier document uses -------------

# h7rms: RMSNorm (gamma, eps 1e-6) of 2 tokens, d 3, then the residual add x + RMSNorm(x); a Q&A-site answer
_add(
    Case(
        "h7rms",
        "RMSNorm (gamma, eps 1e-6) of 2 tokens, d 3, then y = x + RMSNorm(x)",
        {
            "X": [["0.5", "-1.2", "0.9"], ["1.1", "0.4", "-0.7"]],
            "g": [["1.1", "0.9", "1.3"]],
        },
        [
            ("N", "rms", {"src": "X", "gamma": "g", "eps": "1e-6"}),
            ("Y", "add", {"a": "X", "b": "N"}),
        ],
    )
)

# h7ffn: an FFN with SiLU, 2 tokens, d 2, d_ff 2; Chinese plain-text notes
_add(
    Case(
        "h7ffn",
        "FFN with SiLU, 2 tokens, d 2, d_ff 2",
        {
            "X": [["0.6", "-0.4"], ["-0.9", "1.3"]],
            "W1": [["0.7", "-0.5"], ["0.3", "0.8"]],
            "b1": [["0.1", "0.2"]],
            "W2": [["1.2", "-0.4"], ["0.5", "0.9"]],
            "b2": [["-0.1", "0.05"]],
        },
        [("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "silu"})],
    )
)

# h7ln: LayerNorm (eps 1e-5, population variance) of 2 tokens, d 2; a beamer slide deck
h7ln = _add(
    Case(
        "h7ln",
        "LayerNorm (eps 1e-5) of 2 tokens, d 2",
        {"X": [["0.7", "-0.3"], ["1.5", "0.4"]]},
        [("LN", "ln", {"src": "X", "eps": "1e-5"})],
    )
)
# token 2's sigma^2 = 0.3025 printed 0.3125 (one digit); its sqrt and x-hat computed from that
_add(
    vary(
        h7ln,
        "h7ln_var",
        "h7ln with sigma^2 printed 0.3125 (true 0.3025)",
        sets={"LN_var": {(2, 1): "0.3125"}},
    )
)


# --- the eighth held-out set (h_8_* documents): inputs no earlier document uses --------------

# h8pe: PE (3 positions from 0, d_model 4, base 10000, interleaved), H = X + PE, then post-norm Add & Norm
# LayerNorm(H + S) with a given sublayer output S, gamma, beta, eps 1e-5; a GitHub study-notes README
h8pe = _add(
    Case(
        "h8pe",
        "PE (pos 0..2, d_model 4), H = X + PE, R = H + S, LayerNorm(R) (gamma, beta, eps 1e-5)",
        {
            "X": [
                ["0.2", "-0.4", "0.1", "0.3"],
                ["-0.1", "0.5", "0.3", "-0.2"],
                ["0.4", "0.1", "-0.3", "0.6"],
            ],
            "S": [
                ["0.05", "0.1", "-0.2", "0.15"],
                ["0.3", "-0.25", "0.1", "0.05"],
                ["-0.1", "0.2", "0.25", "-0.3"],
            ],
            "g": [["1.2", "0.8", "1", "0.5"]],
            "b": [["0.1", "0", "-0.1", "0.2"]],
        },
        [
            ("PE", "pe", {"n": 3, "d": 4}),
            ("H", "add", {"a": "X", "b": "PE"}),
            ("R", "add", {"a": "H", "b": "S"}),
            ("LN", "ln", {"src": "R", "gamma": "g", "beta": "b", "eps": "1e-5"}),
        ],
    )
)
# PE(1, 0) = sin 1 = 0.8415 printed 0.8475 (one digit); H, R and row 2's LayerNorm computed from it
_add(vary(h8pe, "h8pe_pe21", "h8pe with PE[2,1] = 0.8475 (true 0.8415)", sets={"PE": {(2, 1): "0.8475"}}))

# h8zh: FFN with GELU (erf form), d_model 2, d_ff 3, biases; residual r = x + FFN(x); RMSNorm(r) (gamma,
# eps 1e-6); Chinese plain-text notes
_add(
    Case(
        "h8zh",
        "FFN with GELU (erf), 2 tokens, d 2, d_ff 3; r = x + FFN(x); RMSNorm(r) (gamma, eps 1e-6)",
        {
            "X": [["0.8", "-0.3"], ["-0.5", "1.1"]],
            "W1": [["0.6", "-0.2", "0.9"], ["0.4", "0.7", "-0.5"]],
            "b1": [["0.1", "-0.1", "0.05"]],
            "W2": [["0.5", "-0.3"], ["-0.6", "0.8"], ["0.2", "0.4"]],
            "b2": [["0.02", "-0.04"]],
            "g": [["1.5", "0.7"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "gelu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "rms", {"src": "R", "gamma": "g", "eps": "1e-6"}),
        ],
    )
)

# h8ln: LayerNorm (gamma, beta, eps 1e-5, population variance) of 3 tokens, d 3, then a ReLU FFN (d_ff 3) on
# the normalised rows; a LaTeX lecture-notes solution
h8ln = _add(
    Case(
        "h8ln",
        "LayerNorm (gamma, beta, eps 1e-5) of 3 tokens, d 3; FFN with ReLU, d_ff 3, on LN(X)",
        {
            "X": [["1.2", "0.3", "-0.6"], ["0.5", "2.1", "1.1"], ["-0.4", "0.2", "1.4"]],
            "g": [["1.5", "1", "0.5"]],
            "b": [["0.1", "0", "-0.2"]],
            "W1": [["0.4", "-0.6", "0.3"], ["0.2", "0.5", "-0.7"], ["-0.3", "0.1", "0.8"]],
            "b1": [["0.1", "0", "-0.1"]],
            "W2": [["0.6", "-0.2", "0.1"], ["0.3", "0.4", "-0.5"], ["-0.2", "0.3", "0.7"]],
            "b2": [["0", "0.05", "-0.05"]],
        },
        [
            ("LN", "ln", {"src": "X", "gamma": "g", "beta": "b", "eps": "1e-5"}),
            ("F", "ffn", {"src": "LN", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
        ],
    )
)
_add(
    vary(
        h8ln,
        "h8ln_sample",
        "h8ln with sigma^2 divided by d - 1 (sample variance)",
        fits="sample variance",
        change={"LN": {"variance": "sample"}},
    )
)

# h8t: RMSNorm (gamma, eps 1e-6) of 2 tokens, d 3, then an FFN with SiLU (d_ff 3, biases); h8t2: a new x
# (1 token) through the same weights; a PyTorch REPL session
_H8T_W = {
    "g": [["1", "0.8", "1.2"]],
    "W1": [["0.5", "-0.3", "0.2"], ["0.1", "0.6", "-0.4"], ["-0.7", "0.2", "0.9"]],
    "b1": [["0", "0.1", "-0.1"]],
    "W2": [["0.4", "-0.2", "0.1"], ["0.3", "0.5", "-0.6"], ["-0.1", "0.7", "0.2"]],
    "b2": [["0.05", "0", "-0.05"]],
}
_H8T_STEPS = [
    ("N", "rms", {"src": "X", "gamma": "g", "eps": "1e-6"}),
    ("F", "ffn", {"src": "N", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "silu"}),
]
_add(
    Case(
        "h8t",
        "RMSNorm (gamma, eps 1e-6) of 2 tokens, d 3; FFN with SiLU, d_ff 3",
        {"X": [["0.6", "-1", "0.5"], ["1.3", "0.2", "-0.5"]], **_H8T_W},
        copy.deepcopy(_H8T_STEPS),
    )
)
_add(
    Case(
        "h8t2",
        "h8t's RMSNorm and SiLU FFN on a new x (1 token)",
        {"X": [["-0.3", "0.9", "1.5"]], **_H8T_W},
        copy.deepcopy(_H8T_STEPS),
    )
)


# --- the ninth held-out set (h_9_* documents): inputs no earlier document uses ---------------

# h9nb: one post-norm encoder step in a NumPy notebook, 2 tokens, d_model 4: H = X + PE (positions 0, 1,
# interleaved), N = LayerNorm(H) (gamma, beta, eps 1e-5), F = FFN(N) with GELU in the tanh approximation
# (d_ff 2, biases), R = N + F (the FFN sub-layer's residual)
h9nb = _add(
    Case(
        "h9nb",
        "X + PE (pos 0, 1, d_model 4), LayerNorm (gamma, beta, eps 1e-5), FFN with GELU (tanh), d_ff 2, N + FFN(N)",
        {
            "X": [["0.3", "-0.2", "0.5", "0.1"], ["-0.4", "0.6", "0.2", "-0.3"]],
            "g": [["1.1", "0.9", "1", "1.2"]],
            "b": [["0.1", "-0.1", "0", "0.05"]],
            "W1": [["0.4", "-0.3"], ["-0.2", "0.5"], ["0.6", "0.1"], ["0.3", "-0.4"]],
            "b1": [["0.05", "-0.1"]],
            "W2": [["0.7", "-0.2", "0.3", "0.1"], ["-0.4", "0.6", "0.2", "0.5"]],
            "b2": [["0", "0.1", "-0.05", "0"]],
        },
        [
            ("PE", "pe", {"n": 2, "d": 4}),
            ("H", "add", {"a": "X", "b": "PE"}),
            ("N", "ln", {"src": "H", "gamma": "g", "beta": "b", "eps": "1e-5"}),
            ("F", "ffn", {"src": "N", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "gelu_tanh"}),
            ("R", "add", {"a": "N", "b": "F"}),
        ],
    )
)

# token 2's FFN output FFN(n_2)[4] = 0.1238 copied by hand as 0.1298 (one digit) in the markdown cell below the
# code; the hand-computed residual n_2 + FFN(n_2) uses the copied number
_add(vary(h9nb, "h9nb_f24", "h9nb with F[2,4] = 0.1298 (true 0.1238)", sets={"F": {(2, 4): "0.1298"}}))

# h9pe: PE for 4 positions (0..3), d_model 6, base 10000, interleaved; X + PE (X's rows 1 and 3 are the ones the
# document states and adds; rows 0 and 2 are zeros no document prints); a Chinese LaTeX homework solution
h9pe = _add(
    Case(
        "h9pe",
        "4 positions (0..3), d_model 6: PE (interleaved), X + PE",
        {
            "X": [
                ["0", "0", "0", "0", "0", "0"],
                ["0.2", "-0.3", "0.1", "0.4", "-0.2", "0.5"],
                ["0", "0", "0", "0", "0", "0"],
                ["-0.1", "0.3", "0.4", "-0.5", "0.2", "0.1"],
            ]
        },
        [("PE", "pe", {"n": 4, "d": 6}), ("XP", "add", {"a": "X", "b": "PE"})],
    )
)
# the homework's table (and so X + PE) computed for positions 1..4 while the text counts from 0
_add(
    vary(
        h9pe,
        "h9pe_from1",
        "h9pe with positions counted from 1",
        fits="positions from 1",
        change={"PE": {"start": 1}},
    )
)

# h9rms: pre-norm y = x + FFN(RMSNorm(x)), RMSNorm (gamma, eps 1e-6), ReLU FFN (d_ff 2, biases), 2 tokens,
# d_model 3; a Stack Exchange-style plain-text answer
h9rms = _add(
    Case(
        "h9rms",
        "pre-norm y = x + FFN(RMSNorm(x)): RMSNorm (gamma, eps 1e-6), ReLU FFN d_ff 2, 2 tokens, d 3",
        {
            "X": [["0.7", "-1.1", "0.4"], ["-0.3", "0.8", "1.2"]],
            "g": [["0.9", "1.2", "1.05"]],
            "W1": [["0.5", "-0.6"], ["-0.3", "0.4"], ["0.8", "0.2"]],
            "b1": [["0.1", "-0.05"]],
            "W2": [["0.6", "-0.2", "0.3"], ["-0.5", "0.7", "0.4"]],
            "b2": [["0.02", "0", "-0.03"]],
        },
        [
            ("N", "rms", {"src": "X", "gamma": "g", "eps": "1e-6"}),
            ("F", "ffn", {"src": "N", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("Y", "add", {"a": "X", "b": "F"}),
        ],
    )
)

# h9b1, h9b2: a blog's two worked examples of LayerNorm (eps 1e-5, no gamma/beta) then a ReLU FFN (d_ff 2, biases),
# 2 tokens each, d_model 3, the same weights; Example 2 re-binds x, mu, sigma^2, h, y to new values
_H9B_W = {
    "W1": [["0.6", "-0.4"], ["-0.5", "0.3"], ["0.2", "0.7"]],
    "b1": [["0.1", "0"]],
    "W2": [["0.8", "-0.3", "0.5"], ["0.4", "0.6", "-0.2"]],
    "b2": [["0", "-0.1", "0.05"]],
}
_H9B_STEPS = [
    ("LN", "ln", {"src": "X", "eps": "1e-5"}),
    ("F", "ffn", {"src": "LN", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
]
_add(
    Case(
        "h9b1",
        "Example 1: LayerNorm (eps 1e-5) of 2 tokens, d 3, then a ReLU FFN, d_ff 2",
        {"X": [["1.2", "-0.3", "0.6"], ["0.4", "0.9", "-0.8"]], **_H9B_W},
        copy.deepcopy(_H9B_STEPS),
    )
)
_add(
    Case(
        "h9b2",
        "Example 2: the same LayerNorm and FFN on a new x",
        {"X": [["-0.5", "1.5", "0.2"], ["2.1", "1.3", "0.7"]], **_H9B_W},
        copy.deepcopy(_H9B_STEPS),
    )
)


# --- the tenth held-out set (h_10_* documents): inputs no earlier document uses --------------

# h10ln: a cheat sheet's LayerNorm of one token, d 5, gamma, beta, eps 1e-5, every step printed
h10ln = _add(
    Case(
        "h10ln",
        "LayerNorm of one token, d 5 (gamma, beta, eps 1e-5), step by step",
        {
            "X": [["0.8", "-0.4", "1.3", "0.1", "-0.6"]],
            "g": [["1.2", "0.8", "1", "1.5", "0.9"]],
            "b": [["0.1", "0", "-0.2", "0.05", "0.3"]],
        },
        [("LN", "ln", {"src": "X", "gamma": "g", "beta": "b", "eps": "1e-5"})],
    )
)
# the fourth deviation x_4 - mu = -0.14 written 0.14 (the sign lost); its square is the same, its x-hat and
# output are computed from 0.14
_add(
    vary(h10ln, "h10ln_dev4", "h10ln with LN_dev[1,4] = 0.14 (true -0.14)", sets={"LN_dev": {(1, 4): "0.14"}})
)

# h10pe: a WeChat article's PE for positions 0..2, d_model 4, base 10000 (interleaved); one token at position 2
# (P2 is PE computed for that position alone), X + PE(2), then RMSNorm (gamma, eps 1e-6) of that token
_add(
    Case(
        "h10pe",
        "PE (pos 0..2, d_model 4), x + PE(2) for one token, RMSNorm (gamma, eps 1e-6) of it",
        {"X": [["0.3", "-0.5", "0.2", "0.6"]], "g": [["1", "0.9", "1.1", "0.8"]]},
        [
            ("PE", "pe", {"n": 3, "d": 4}),
            ("P2", "pe", {"n": 1, "d": 4, "start": 2}),
            ("XP", "add", {"a": "X", "b": "P2"}),
            ("RMS", "rms", {"src": "XP", "gamma": "g", "eps": "1e-6"}),
        ],
    )
)

# h10pn: post-norm y = LN(x + FFN(x)), ReLU FFN (d_model 2, d_ff 3, biases), LN with gamma, beta, eps 1e-5, 2 tokens;
# token 1's residual has a small variance (0.0049), so leaving eps out shows at 4 places
h10pn = _add(
    Case(
        "h10pn",
        "post-norm y = LN(x + FFN(x)), ReLU FFN d_ff 3, d_model 2, gamma, beta, eps 1e-5, 2 tokens",
        {
            "X": [["0.35", "0.3"], ["-0.3", "0.9"]],
            "W1": [["0.4", "-0.6", "0.3"], ["0.2", "0.5", "-0.7"]],
            "b1": [["0.1", "0", "-0.05"]],
            "W2": [["0.5", "-0.3"], ["0.6", "0.4"], ["-0.2", "0.8"]],
            "b2": [["-0.05", "0.1"]],
            "g": [["1.2", "0.8"]],
            "b": [["0.1", "-0.1"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
            ("N", "ln", {"src": "R", "gamma": "g", "beta": "b", "eps": "1e-5"}),
        ],
    )
)
# the slides state eps = 1e-5 and compute the LayerNorm without it
_add(vary(h10pn, "h10pn_eps0", "h10pn computed without eps", fits="eps = 0", change={"N": {"eps": "0"}}))


# --- the eleventh held-out set (h_11_* documents): inputs no earlier document uses -----------

# h11an: a blog post's post-norm "Add & Norm" LayerNorm(x + Sublayer(x)), 2 tokens, d_model 3, the sublayer
# output given as numbers, eps 1e-5, gamma = 1 and beta = 0 (no affine step)
_add(
    Case(
        "h11an",
        "post-norm Add & Norm LN(x + Sublayer(x)), sublayer output given, 2 tokens, d 3, eps 1e-5, no gamma/beta",
        {
            "X": [["0.5", "-0.2", "0.9"], ["1.1", "0.4", "-0.3"]],
            "S": [["0.12", "0.35", "-0.25"], ["-0.4", "0.15", "0.6"]],
        },
        [("R", "add", {"a": "X", "b": "S"}), ("N", "ln", {"src": "R", "eps": "1e-5"})],
    )
)

# h11pe: a course-forum post's PE for positions 0..3, d_model 2 (base 10000: the angle is pos itself), then
# X + PE for 4 tokens
h11pe = _add(
    Case(
        "h11pe",
        "PE (pos 0..3, d_model 2), X + PE for 4 tokens",
        {"X": [["0.2", "0.5"], ["-0.3", "0.1"], ["0.4", "-0.6"], ["0.6", "-0.2"]]},
        [("PE", "pe", {"n": 4, "d": 2}), ("XP", "add", {"a": "X", "b": "PE"})],
    )
)
# PE(3, 0) = sin 3 = 0.1411 printed 0.1441 (one digit); X + PE at that cell computed from it
_add(vary(h11pe, "h11pe_pe41", "h11pe with PE[4,1] = 0.1441 (true 0.1411)", sets={"PE": {(4, 1): "0.1441"}}))


# --- the twelfth held-out set (h_12_* documents): inputs no earlier document uses ----------

# h12gh: a GitHub issue's LayerNorm of 2 tokens, d 3, with a non-trivial gamma and beta, eps 1e-5 (PyTorch's
# default); the issue prints nn.LayerNorm's output before the weights are copied in (gamma 1, beta 0: the x-hat
# stage) and after (the output)
_add(
    Case(
        "h12gh",
        "LayerNorm (gamma [1.5, 0.5, 2], beta [0.1, 0, -0.2], eps 1e-5) of 2 tokens, d 3",
        {
            "X": [["0.8", "-0.3", "1.6"], ["-0.6", "1.1", "0.2"]],
            "g": [["1.5", "0.5", "2"]],
            "b": [["0.1", "0", "-0.2"]],
        },
        [("N", "ln", {"src": "X", "gamma": "g", "beta": "b", "eps": "1e-5"})],
    )
)

# h12zh: a Zhihu answer's encoder input X + PE (positions 0..2, d_model 4, base 10000, interleaved) for 3
# tokens, then LayerNorm per token (eps 1e-5, no gamma/beta)
h12zh = _add(
    Case(
        "h12zh",
        "PE (pos 0..2, d_model 4), X + PE, LayerNorm (eps 1e-5) per token, 3 tokens",
        {"X": [["0.1", "0.4", "-0.2", "0.3"], ["0.5", "-0.3", "0.2", "-0.1"], ["-0.4", "0.2", "0.6", "0.1"]]},
        [
            ("PE", "pe", {"n": 3, "d": 4}),
            ("XP", "add", {"a": "X", "b": "PE"}),
            ("N", "ln", {"src": "XP", "eps": "1e-5"}),
        ],
    )
)
# token 3's variance 0.8871 / 4 = 0.2218 printed 0.2213 (one digit); its sigma^2 + eps, root and LayerNorm row
# computed from it
_add(
    vary(
        h12zh, "h12zh_var3", "h12zh with N_var[3] = 0.2213 (true 0.2218)", sets={"N_var": {(3, 1): "0.2213"}}
    )
)


def _columns(rows: list[list[str]]) -> list[list[str]]:
    """The transpose: a document's W (d_out x d_in, h = W x + b) as the row-vector x W of feed_forward."""
    return [list(col) for col in zip(*rows, strict=True)]


# h12ffn: lecture notes in the column-vector convention h = W_1 x + b_1, FFN(x) = W_2 ReLU(h) + b_2, d_model 3,
# d_ff 4, 2 tokens, then the residual x + FFN(x); W1 and W2 are the notes' matrices transposed
h12ffn = _add(
    Case(
        "h12ffn",
        "FFN (column vectors: W_1 4x3, W_2 3x4, biases, ReLU), d_model 3, d_ff 4, x + FFN(x), 2 tokens",
        {
            "X": [["0.35", "-0.6", "0.8"], ["-0.25", "0.9", "0.45"]],
            "W1": _columns(
                [
                    ["-0.15", "0.2", "0.1"],
                    ["0.55", "0.35", "-0.2"],
                    ["0.3", "-0.25", "0.45"],
                    ["-0.3", "0.1", "0.1"],
                ]
            ),
            "b1": [["0.2", "0.05", "-0.05", "0.2"]],
            "W2": _columns(
                [
                    ["-0.19", "0.21", "0.45", "-0.2"],
                    ["-0.27", "0.06", "-0.17", "0.26"],
                    ["0.44", "0.24", "0.24", "0.14"],
                ]
            ),
            "b2": [["0.06", "0.11", "-0.07"]],
        },
        [
            ("F", "ffn", {"src": "X", "W1": "W1", "b1": "b1", "W2": "W2", "b2": "b2", "act": "relu"}),
            ("R", "add", {"a": "X", "b": "F"}),
        ],
    )
)
# token 1's second hidden unit 0.1925 - 0.21 - 0.16 + 0.05 = -0.1275 written 0.1275 (the sign lost); ReLU keeps
# it, and FFN(x1) and x1 + FFN(x1) are computed from it
_add(
    vary(
        h12ffn, "h12ffn_h12", "h12ffn with F_H[1,2] = 0.1275 (true -0.1275)", sets={"F_H": {(1, 2): "0.1275"}}
    )
)

# h12ta: a TA's e-mail: example 1, LayerNorm (eps 1e-5, no gamma/beta) of one token, d 4; example 2, a new x
# (d 3) under RMSNorm (eps 1e-6, no gamma), with its mean and variance for comparison
_add(
    Case(
        "h12ta",
        "LayerNorm (eps 1e-5) of x1 (d 4); RMSNorm (eps 1e-6) of x2 (d 3) and its mean and variance",
        {"X1": [["1.2", "-0.7", "0.4", "2.1"]], "X2": [["0.6", "-1.5", "1.3"]]},
        [
            ("L", "ln", {"src": "X1", "eps": "1e-5"}),
            ("RMS", "rms", {"src": "X2", "eps": "1e-6"}),
            ("M", "ln", {"src": "X2", "eps": "1e-6"}),
        ],
    )
)


def S(case: str) -> dict:
    return CASES[case].stages


# --- scalars: other numbers documents print (x.NAME) ---------------------------------


def _scalars() -> dict[str, Value]:
    x: dict[str, Value] = {}
    x["one"] = F(1)
    x["zero"] = F(0)
    x["sqrt_2_pi"] = mpmath.sqrt(2 / mpmath.pi)
    x["inv_sqrt_2"] = 1 / mpmath.sqrt(2)
    return x


SCALARS = _scalars()


def value(ref: str) -> Value:
    """A value by reference: ``case.STAGE[r,c]`` (1-based), ``case.STAGE[r]`` (a column or a row), ``x.NAME``."""
    head, _, idx = ref.partition("[")
    owner, _, stage = head.partition(".")
    base = SCALARS[stage] if owner == "x" else S(owner)[stage]
    if not idx:
        return base
    parts = [int(p) for p in idx.rstrip("]").split(",")]
    if len(parts) == 1:
        r = parts[0]
        if isinstance(base[0], list) and len(base[0]) == 1:
            return base[r - 1][0]
        return base[0][r - 1] if len(base) == 1 else base[r - 1]
    return base[parts[0] - 1][parts[1] - 1]


# --- printing -------------------------------------------------------------------------


def _show(v: Value) -> str:
    if isinstance(v, Fraction):
        exact = str(v)
        return exact if v.denominator == 1 else f"{exact} = {mpmath.nstr(to_mpf(v), 12)}"
    return mpmath.nstr(v, 12)


def _rounded(v: Value) -> str:
    out = []
    for places in (2, 3, 4, 6):
        try:
            out.append(rnd(v, places))
        except ValueError as err:
            out.append(f"<{err}>")
    return " ".join(out)


def print_case(case: Case) -> None:
    extra = (
        f" (variant of {case.truth_of}" + (f", fits {case.fits}" if case.fits else "") + ")"
        if case.truth_of
        else ""
    )
    print(f"== case {case.name}: {case.note}{extra}")
    for name, m in case.stages.items():
        if not isinstance(m, list):
            print(f"   {name} = {_show(m)}")
            continue
        print(f"   {name}:")
        for r, row in enumerate(m, 1):
            for c, v in enumerate(row, 1):
                print(f"     [{r},{c}] {_show(v):>32}   {_rounded(v)}")


def main(argv: list[str]) -> int:
    for name in argv or list(CASES):
        if name != "x":
            print_case(CASES[name])
    if not argv or "x" in argv:
        print("== scalars")
        for name, v in SCALARS.items():
            print(f"   x.{name} {_show(v):>32}   {_rounded(v)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
