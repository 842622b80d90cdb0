"""True values behind every number in the verifier corpus (tests/corpus).

Independent of symattn and SymPy: exact rationals (``fractions``) where the
value is rational, ``mpmath`` at 50 digits where it is not (square roots,
exponentials).  Rounding is half away from zero; a value whose rounding would
need more than 40 digits to decide (a near tie that is not exactly rational)
stops the script instead of guessing.

Run ``python tests/corpus/_truth.py [CASE ...]`` to print, per case, every stage
(Q, K, V, QK^T, scaled, exp, row sums, weights, output) exactly or at 10
places, with its correctly rounded 2, 3, 4 and 6 place decimals, and every
scalar of ``SCALARS``.  ``_build.py`` imports this module to fill the
documents; nothing is parsed from the documents and nothing is typed from
memory.

float32 printouts: ``f32_text`` is the float32 nearest the true value, written
the way NumPy writes a float32 (shortest text that reads back as the same
float32, at most 8 fractional digits).  ``f64_text`` is NumPy's default text
of a float64 (at most 8 fractional digits, trailing zeros dropped).
"""

from __future__ import annotations

import math
import struct
import sys
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

mp.dps = 50

Value = Fraction | mpf


# --- exact helpers -------------------------------------------------------------------


def F(x: int | str | Fraction) -> Fraction:
    """An exact rational from an int, a decimal string or a Fraction."""
    return Fraction(x)


def mat(rows: list[list]) -> list[list[Fraction]]:
    """A matrix of exact rationals (decimal strings allowed: "0.5")."""
    return [[Fraction(str(v)) if isinstance(v, float) else Fraction(v) for v in row] for row in rows]


def matmul(a: list[list[Value]], b: list[list[Value]]) -> list[list[Value]]:
    assert len(a[0]) == len(b), (len(a[0]), len(b))
    return [
        [sum((a[i][k] * b[k][j] for k in range(len(b))), Fraction(0)) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def transpose(a: list[list[Value]]) -> list[list[Value]]:
    return [list(col) for col in zip(*a, strict=True)]


def to_mpf(v: Value) -> mpf:
    if isinstance(v, Fraction):
        return mpf(v.numerator) / mpf(v.denominator)
    return mpf(v)


def exp(v: Value) -> Value:
    if isinstance(v, Fraction) and v == 0:
        return Fraction(1)
    return mpmath.exp(to_mpf(v))


def sqrt(v: Value) -> Value:
    """The square root, exact when ``v`` is the square of a rational."""
    if isinstance(v, Fraction) and v >= 0:
        n, d = math.isqrt(v.numerator), math.isqrt(v.denominator)
        if n * n == v.numerator and d * d == v.denominator:
            return Fraction(int(n), int(d))
    return mpmath.sqrt(to_mpf(v))


def div(a: Value, b: Value) -> Value:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    return to_mpf(a) / to_mpf(b)


def mul(a: Value, b: Value) -> Value:
    if (isinstance(a, Fraction) and a == 0) or (isinstance(b, Fraction) and b == 0):
        return Fraction(0)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    return to_mpf(a) * to_mpf(b)


def add(*vs: Value) -> Value:
    if all(isinstance(v, Fraction) for v in vs):
        return sum(vs, Fraction(0))
    return mpmath.fsum([to_mpf(v) for v in vs])


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


def _text(k: int, places: int) -> str:
    sign = "-" if k < 0 else ""
    k = abs(k)
    if places == 0:
        return f"{sign}{k}"
    s = str(k).rjust(places + 1, "0")
    return f"{sign}{s[:-places]}.{s[-places:]}"


def rnd(v: Value, places: int) -> str:
    """``v`` rounded half away from zero at ``places`` decimals ("0.40")."""
    return _text(_scaled_int(v, places, "round"), places)


def trunc(v: Value, places: int) -> str:
    """``v`` truncated toward zero at ``places`` decimals ("0.39")."""
    return _text(_scaled_int(v, places, "trunc"), places)


def integer(v: Value) -> str:
    """The exact integer ``v`` (stops when ``v`` is not an integer)."""
    assert isinstance(v, Fraction) and v.denominator == 1, v
    return str(v.numerator)


def exact_decimal(v: Value) -> str:
    """A terminating rational written in full ("0.5", "-1.25", "2")."""
    assert isinstance(v, Fraction), v
    for places in range(0, 12):
        if (v * 10**places).denominator == 1:
            return _text(int(v * 10**places), places)
    raise AssertionError(f"{v} does not terminate")


# --- float printouts (NumPy's and PyTorch's default text) ----------------------------


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_from_bits(bits: int) -> Fraction:
    return Fraction(struct.unpack("<f", struct.pack("<I", bits))[0])


def f32(v: Value) -> Fraction:
    """The float32 nearest ``v``, exactly (positive and negative values, no ties)."""
    t = to_mpf(v)
    y = struct.unpack("<f", struct.pack("<f", float(mpmath.nstr(t, 40))))[0]
    if y == 0:
        return Fraction(0)
    bits = _f32_bits(y)
    candidates = [_f32_from_bits(b) for b in (bits - 1, bits, bits + 1)]
    dist = [abs(to_mpf(cand) - t) for cand in candidates]
    best = min(range(3), key=lambda k: dist[k])
    assert sorted(dist)[1] - dist[best] > TIE_GUARD, "float32 tie"
    return candidates[best]


def _f32_roundtrips(text: str, target: Fraction) -> bool:
    y = struct.unpack("<f", struct.pack("<f", float(text)))[0]
    return Fraction(y) == target


def f32_text(v: Value, max_frac: int = 8) -> str:
    """NumPy's text of the float32 nearest ``v``: the shortest that reads back, <= 8 places.

    Integral values print as "2." (NumPy style).
    """
    target = f32(v)
    if target.denominator == 1:
        return f"{target.numerator}."
    for places in range(1, 12):
        text = rnd(target, places)
        if _f32_roundtrips(text, target) or places == max_frac:
            return text.rstrip("0") if "." in text else text
    raise AssertionError(v)


def f64_text(v: Value, max_frac: int = 8) -> str:
    """NumPy's text of the float64 nearest ``v`` (8 places at most, trailing zeros dropped)."""
    x = Fraction(float(mpmath.nstr(to_mpf(v), 40)))
    if x.denominator == 1:
        return f"{x.numerator}."
    for places in range(1, 18):
        text = rnd(x, places)
        if float(text) == float(x) or places == max_frac:
            return text.rstrip("0")
    raise AssertionError(v)


# --- cases ----------------------------------------------------------------------------


@dataclass
class Case:
    """One worked example: X and projections, or Q, K, V given directly."""

    name: str
    note: str
    d_k: int
    X: list | None = None
    W_Q: list | None = None
    W_K: list | None = None
    W_V: list | None = None
    Q: list | None = None
    K: list | None = None
    V: list | None = None
    scale: Value | None = None  # default 1/sqrt(d_k); Fraction(1) for an unscaled variant
    causal: bool = False
    truth_of: str | None = None  # a variant (world (a) of a planted document) of this case
    sets: dict = field(default_factory=dict)  # stage -> {(r, c): value} the author printed instead
    stages: dict = field(default_factory=dict)


def compute(case: Case) -> dict:
    """Every stage of ``case``: matrices as lists of rows, scalars as values."""
    s: dict = {}
    if case.X is not None:
        X = mat(case.X)
        s["X"] = X
        for w in ("W_Q", "W_K", "W_V"):
            s[w] = mat(getattr(case, w))
        s["Q"] = matmul(X, s["W_Q"])
        s["K"] = matmul(X, s["W_K"])
        s["V"] = matmul(X, s["W_V"])
    for name in ("Q", "K", "V"):
        given = getattr(case, name)
        if given is not None:
            s[name] = mat(given)

    def apply(stage: str) -> None:
        for (r, c), v in case.sets.get(stage, {}).items():
            s[stage][r - 1][c - 1] = Fraction(v) if isinstance(v, (int, str)) else v

    for name in ("Q", "K", "V"):
        apply(name)
    s["KT"] = transpose(s["K"])
    s["S"] = matmul(s["Q"], s["KT"])
    apply("S")
    s["d_k"] = Fraction(case.d_k)
    s["sqrt_dk"] = sqrt(Fraction(case.d_k))
    scale = case.scale if case.scale is not None else div(Fraction(1), s["sqrt_dk"])
    s["scale"] = scale
    s["Z"] = [[mul(v, scale) for v in row] for row in s["S"]]
    apply("Z")
    n_q, n_k = len(s["Z"]), len(s["Z"][0])
    masks = [[(not case.causal) or j <= i for j in range(n_k)] for i in range(n_q)]
    s["E"] = [
        [exp(z) if m else Fraction(0) for z, m in zip(row, mask, strict=True)]
        for row, mask in zip(s["Z"], masks, strict=True)
    ]
    apply("E")
    s["R"] = [[add(*row)] for row in s["E"]]
    apply("R")
    s["A"] = []
    touched = {r for stage in ("E", "R") for (r, _) in case.sets.get(stage, {})}
    for r, (row, mask, zrow, total) in enumerate(zip(s["E"], masks, s["Z"], s["R"], strict=True), 1):
        kept = [z for z, m in zip(zrow, mask, strict=True) if m]
        exact_row = len(kept) == 1 or (all(isinstance(z, Fraction) for z in kept) and len(set(kept)) == 1)
        if r not in touched and exact_row:
            s["A"].append([Fraction(1, len(kept)) if m else Fraction(0) for m in mask])
        else:
            s["A"].append([div(e, total[0]) if m else Fraction(0) for e, m in zip(row, mask, strict=True)])
    apply("A")
    s["O"] = matmul(s["A"], s["V"])
    apply("O")
    case.stages = s
    return s


def _case(name: str, note: str, d_k: int, **kw) -> Case:
    return Case(name=name, note=note, d_k=d_k, **kw)


I2 = [[1, 0], [0, 1]]
CASE_LIST = [
    # 3 tokens, d_model 2, d_k 2
    _case(
        "a",
        "3 tokens, d_k 2, integer X and projections",
        2,
        X=[[1, 0], [0, 1], [1, 1]],
        W_Q=[[1, 0], [1, 1]],
        W_K=[[1, 1], [0, 1]],
        W_V=[[1, 2], [0, 1]],
    ),
    # 3 tokens, d_model 4, d_k 3 (the 'illustrated self-attention' style inputs)
    _case(
        "b",
        "3 tokens, d_model 4, d_k 3",
        3,
        X=[[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]],
        W_Q=[[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]],
        W_K=[[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]],
        W_V=[[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]],
    ),
    # 4 tokens, d_k 2, Q K V given directly
    _case(
        "c",
        "4 tokens, d_k 2, Q K V given",
        2,
        Q=[[1, 0], [0, 1], [1, 1], [2, 0]],
        K=[[1, 0], [0, 1], [1, 1], [0, 2]],
        V=[[1, 0], [0, 1], [2, 1], [1, 3]],
    ),
    # 3 tokens, d_k 4 (scale 1/2, rational scaled scores)
    _case(
        "d",
        "3 tokens, d_k 4, scale 1/2",
        4,
        Q=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
        K=[[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0]],
        V=[[1, 0, 0, 2], [0, 2, 1, 0], [1, 1, 1, 1]],
    ),
    # 3 tokens, decimals, d_k 2
    _case(
        "e",
        "3 tokens, decimal inputs, d_k 2",
        2,
        Q=[["0.5", "1"], ["1", "0"], ["1.5", "0.5"]],
        K=[["1", "0.5"], ["0", "1"], ["1", "1"]],
        V=[["1", "0"], ["0", "2"], ["0.5", "0.5"]],
    ),
    # 4 tokens, d_k 4, X with identity-ish projections
    _case(
        "f",
        "4 tokens, d_model 4, d_k 4, W_Q = W_K = I, W_V a permutation",
        4,
        X=[[1, 0, 1, 0], [0, 2, 0, 0], [1, 1, 0, 1], [0, 0, 2, 2]],
        W_Q=[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        W_K=[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        W_V=[[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]],
    ),
    # 3 tokens, d_k 2, a second example for restarts (same shapes as a)
    _case(
        "g",
        "3 tokens, d_k 2, second example of the same shape as a",
        2,
        X=[[2, 0], [0, 1], [1, 2]],
        W_Q=[[1, 0], [1, 1]],
        W_K=[[1, 1], [0, 1]],
        W_V=[[1, 2], [0, 1]],
    ),
    # 2 tokens, d_k 2: the 'now take two other tokens' example
    _case(
        "h",
        "2 tokens, d_k 2, Q = I, K = [[2,1],[0,3]], V = [[1,1],[4,0]]",
        2,
        Q=[[1, 0], [0, 1]],
        K=[[2, 1], [0, 3]],
        V=[[1, 1], [4, 0]],
    ),
    # 3 tokens, d_k 3, Q K V given, larger V (rounded weights carried into outputs)
    _case(
        "i",
        "3 tokens, d_k 3, large V entries",
        3,
        Q=[[1, 1, 0], [0, 1, 1], [1, 0, 1]],
        K=[[2, 0, 0], [0, 0, 1], [1, 1, 1]],
        V=[[10, 0], [4, 8], [0, 12]],
    ),
    # 4 tokens, d_k 2, causal mask
    _case(
        "j",
        "4 tokens, d_k 2, causal mask",
        2,
        causal=True,
        Q=[[1, 0], [0, 1], [1, 1], [1, 2]],
        K=[[1, 0], [0, 1], [1, 1], [2, 1]],
        V=[[1, 0], [0, 1], [1, 1], [2, 2]],
    ),
    # 2 tokens, d_k 2, the softmax([1.5, 0.5]) pair
    _case(
        "k",
        "3 tokens, d_k 2, Q K V given (code-span example)",
        2,
        Q=[[1, 2], [0, 1], [2, 1]],
        K=[[0, 1], [1, 0], [1, 1]],
        V=[[1, 0], [0, 1], [3, 3]],
    ),
    # 3 tokens, d_k 2, X with decimals and projections
    _case(
        "m",
        "3 tokens, d_model 3, d_k 2, decimal X",
        2,
        X=[["1", "0.5", "0"], ["0", "1", "1"], ["0.5", "0", "2"]],
        W_Q=[[1, 0], [0, 1], [1, 1]],
        W_K=[[0, 1], [1, 0], [1, 1]],
        W_V=[[1, 1], [0, 2], [2, 0]],
    ),
    # ---- variants: world (a) of planted documents --------------------------------------
    # a with K computed wrongly: K[2,1] = 1 instead of 0 (X W_K row 2 = [0, 1])
    _case(
        "a_badK",
        "a with K row 2 copied as [1, 1] (true [0, 1])",
        2,
        truth_of="a",
        Q=[[1, 0], [1, 1], [2, 1]],
        K=[[1, 1], [1, 1], [1, 2]],
        V=[[1, 2], [0, 1], [1, 3]],
    ),
    # c with V row 3 written [2, 2] (true [2, 1])
    _case(
        "c_badV",
        "c with V row 3 = [2, 2] (true [2, 1])",
        2,
        truth_of="c",
        Q=[[1, 0], [0, 1], [1, 1], [2, 0]],
        K=[[1, 0], [0, 1], [1, 1], [0, 2]],
        V=[[1, 0], [0, 1], [2, 2], [1, 3]],
    ),
    # b without the scale (softmax of raw scores)
    _case(
        "b_noscale",
        "b with softmax of the unscaled scores",
        3,
        truth_of="b",
        scale=Fraction(1),
        X=[[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]],
        W_Q=[[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]],
        W_K=[[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]],
        W_V=[[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]],
    ),
    # d divided by d_k instead of sqrt(d_k)
    _case(
        "d_bydk",
        "d with the scores divided by d_k = 4 instead of 2",
        4,
        truth_of="d",
        scale=Fraction(1, 4),
        Q=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
        K=[[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0]],
        V=[[1, 0, 0, 2], [0, 2, 1, 0], [1, 1, 1, 1]],
    ),
    # g with K row 3 wrong: [2, 3] instead of [1, 3]
    _case(
        "g_badK",
        "g with K row 3 = [2, 3] (true [1, 3])",
        2,
        truth_of="g",
        Q=[[2, 0], [1, 1], [3, 2]],
        K=[[2, 2], [0, 1], [2, 3]],
        V=[[2, 4], [0, 1], [1, 4]],
    ),
    # e with V row 2 wrong: [0, 1] instead of [0, 2]
    _case(
        "e_badV",
        "e with V row 2 = [0, 1] (true [0, 2])",
        2,
        truth_of="e",
        Q=[["0.5", "1"], ["1", "0"], ["1.5", "0.5"]],
        K=[["1", "0.5"], ["0", "1"], ["1", "1"]],
        V=[["1", "0"], ["0", "1"], ["0.5", "0.5"]],
    ),
    # m with the unscaled scores
    _case(
        "m_noscale",
        "m with softmax of the unscaled scores",
        2,
        truth_of="m",
        scale=Fraction(1),
        X=[["1", "0.5", "0"], ["0", "1", "1"], ["0.5", "0", "2"]],
        W_Q=[[1, 0], [0, 1], [1, 1]],
        W_K=[[0, 1], [1, 0], [1, 1]],
        W_V=[[1, 1], [0, 2], [2, 0]],
    ),
    # f with K = X (true) but Q row 4 copied wrong: [0, 0, 2, 1]
    _case(
        "f_badQ",
        "f with Q row 4 = [0, 0, 2, 1] (true [0, 0, 2, 2])",
        4,
        truth_of="f",
        Q=[[1, 0, 1, 0], [0, 2, 0, 0], [1, 1, 0, 1], [0, 0, 2, 1]],
        K=[[1, 0, 1, 0], [0, 2, 0, 0], [1, 1, 0, 1], [0, 0, 2, 2]],
        V=[[0, 1, 0, 1], [2, 0, 0, 0], [1, 1, 1, 0], [0, 0, 2, 2]],
    ),
    # k with the score q1.k3 worked out as 1*1 + 2*2 = 5 (k3 = [1, 1] copied as [1, 2]); true 3
    _case(
        "k_s13",
        "k with S[1,3] = 5 (true 3)",
        2,
        truth_of="k",
        sets={"S": {(1, 3): 5}},
        Q=[[1, 2], [0, 1], [2, 1]],
        K=[[0, 1], [1, 0], [1, 1]],
        V=[[1, 0], [0, 1], [3, 3]],
    ),
    # c with weights row 2 pasted with its first and last entries swapped
    _case(
        "c_swapA2",
        "c with A row 2 entries 1 and 4 swapped",
        2,
        truth_of="c",
        Q=[[1, 0], [0, 1], [1, 1], [2, 0]],
        K=[[1, 0], [0, 1], [1, 1], [0, 2]],
        V=[[1, 0], [0, 1], [2, 1], [1, 3]],
    ),
    # e with the scaled score 1/sqrt(2) = 0.7071 written 0.7017
    _case(
        "e_z11",
        "e with Z[1,1] = 0.7017 (true 0.7071)",
        2,
        truth_of="e",
        sets={"Z": {(1, 1): "0.7017"}},
        Q=[["0.5", "1"], ["1", "0"], ["1.5", "0.5"]],
        K=[["1", "0.5"], ["0", "1"], ["1", "1"]],
        V=[["1", "0"], ["0", "2"], ["0.5", "0.5"]],
    ),
    # a with the row-2 sum of exponentials added up as 14.3835 (true 14.4835)
    _case(
        "a_r2",
        "a with R[2] = 14.3835 (true 14.4835)",
        2,
        truth_of="a",
        sets={"E": {(2, 1): "4.1133", (2, 2): "2.0281", (2, 3): "8.3421"}, "R": {(2, 1): "14.3835"}},
        Q=[[1, 0], [1, 1], [2, 1]],
        K=[[1, 1], [0, 1], [1, 2]],
        V=[[1, 2], [0, 1], [1, 3]],
    ),
    # i with e^0.5774 written as 1 + 0.5774 = 1.5774 (true 1.7813)
    _case(
        "i_e22",
        "i with E[2,2] = 1.5774 (true 1.7813)",
        3,
        truth_of="i",
        sets={"E": {(2, 2): "1.5774"}},
        Q=[[1, 1, 0], [0, 1, 1], [1, 0, 1]],
        K=[[2, 0, 0], [0, 0, 1], [1, 1, 1]],
        V=[[10, 0], [4, 8], [0, 12]],
    ),
    # i with the scaled score 1/sqrt(3) = 0.5774 written 0.5477
    _case(
        "i_z22",
        "i with Z[2,2] = 0.5477 (true 0.5774)",
        3,
        truth_of="i",
        sets={"Z": {(2, 2): "0.5477"}},
        Q=[[1, 1, 0], [0, 1, 1], [1, 0, 1]],
        K=[[2, 0, 0], [0, 0, 1], [1, 1, 1]],
        V=[[10, 0], [4, 8], [0, 12]],
    ),
    # k with weights row 3 copied from row 1 (set below)
    _case(
        "k_A3",
        "k with A row 3 copied from row 1",
        2,
        truth_of="k",
        Q=[[1, 2], [0, 1], [2, 1]],
        K=[[0, 1], [1, 0], [1, 1]],
        V=[[1, 0], [0, 1], [3, 3]],
    ),
    # d with the row-1 sum of exponentials 1.6487 + 1.6487 + 2.7183 (6.0157) written 6.1057
    _case(
        "d_r1",
        "d with R[1] = 6.1057 (true 6.0157)",
        4,
        truth_of="d",
        sets={"E": {(1, 1): "1.6487", (1, 2): "1.6487", (1, 3): "2.7183"}, "R": {(1, 1): "6.1057"}},
        Q=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
        K=[[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0]],
        V=[[1, 0, 0, 2], [0, 2, 1, 0], [1, 1, 1, 1]],
    ),
    # a with weights row 2 = softmax of the unscaled scores (set below)
    _case(
        "a_A2raw",
        "a with A row 2 = softmax of the raw scores [2, 1, 3]",
        2,
        truth_of="a",
        Q=[[1, 0], [1, 1], [2, 1]],
        K=[[1, 1], [0, 1], [1, 2]],
        V=[[1, 2], [0, 1], [1, 3]],
    ),
    # scaled scores given directly (Q times I, scale 1): rows [2.5, 0], [1.5, 0.5], [1, 0]
    _case(
        "n",
        "3 queries, 2 keys, scaled scores given: [2.5, 0], [1.5, 0.5], [1, 0]",
        2,
        scale=Fraction(1),
        Q=[["2.5", "0"], ["1.5", "0.5"], ["1", "0"]],
        K=[[1, 0], [0, 1]],
        V=[[2, 0], [0, 4]],
    ),
    _case(
        "n_A3",
        "n with row 3 weights written 0.71, 0.29 (true 0.7311, 0.2689)",
        2,
        scale=Fraction(1),
        truth_of="n",
        sets={"A": {(3, 1): "0.71", (3, 2): "0.29"}},
        Q=[["2.5", "0"], ["1.5", "0.5"], ["1", "0"]],
        K=[[1, 0], [0, 1]],
        V=[[2, 0], [0, 4]],
    ),
    # j with row 2 weights computed without the causal mask (set below)
    _case(
        "j_row2",
        "j with A row 2 = softmax of the whole scaled row (mask ignored)",
        2,
        causal=True,
        truth_of="j",
        Q=[[1, 0], [0, 1], [1, 1], [1, 2]],
        K=[[1, 0], [0, 1], [1, 1], [2, 1]],
        V=[[1, 0], [0, 1], [1, 1], [2, 2]],
    ),
    # c with the weighted sum for row 1 using 0.1561 for 0.1651 and row 4 using v3 = [2, 2]: see SCALARS
    # m with weights row 3 = softmax of the unscaled scores (set below)
    _case(
        "m_A3raw",
        "m with A row 3 = softmax of the raw scores [3.25, 7, 10]",
        2,
        truth_of="m",
        X=[["1", "0.5", "0"], ["0", "1", "1"], ["0.5", "0", "2"]],
        W_Q=[[1, 0], [0, 1], [1, 1]],
        W_K=[[0, 1], [1, 0], [1, 1]],
        W_V=[[1, 1], [0, 2], [2, 0]],
    ),
    # m with V = X W_V computed with row 1 = [1, 1.5] (true [1, 2])
    _case(
        "m_badV",
        "m with V row 1 = [1, 1.5] (true [1, 2])",
        2,
        truth_of="m",
        Q=[["1", "0.5"], ["1", "2"], ["2.5", "2"]],
        K=[["0.5", "1"], ["2", "1"], ["2", "2.5"]],
        V=[["1", "1.5"], ["2", "2"], ["4.5", "0.5"]],
    ),
    # a after a training step: the same X, W_K, W_V; W_Q = [[1, 1], [0, 1]]
    _case(
        "a2",
        "a with W_Q = [[1, 1], [0, 1]]",
        2,
        X=[[1, 0], [0, 1], [1, 1]],
        W_Q=[[1, 1], [0, 1]],
        W_K=[[1, 1], [0, 1]],
        W_V=[[1, 2], [0, 1]],
    ),
]
CASES: dict[str, Case] = {c.name: c for c in CASE_LIST}
for _c in CASE_LIST:
    compute(_c)
# c_swapA2: the pasted row (entries 1 and 4 of row 2 swapped)
_sw = CASES["c_swapA2"]
_sw.sets = {"A": {(2, 1): CASES["c"].stages["A"][1][3], (2, 4): CASES["c"].stages["A"][1][0]}}
compute(_sw)


def _softmax_plain(row: list[Value]) -> list[Value]:
    es = [exp(z) for z in row]
    total = add(*es)
    return [div(e, total) for e in es]


CASES["k_A3"].sets = {"A": {(3, c): CASES["k"].stages["A"][0][c - 1] for c in (1, 2, 3)}}
compute(CASES["k_A3"])
_raw = _softmax_plain(CASES["a"].stages["S"][1])
CASES["a_A2raw"].sets = {"A": {(2, c): _raw[c - 1] for c in (1, 2, 3)}}
compute(CASES["a_A2raw"])
_raw3 = _softmax_plain(CASES["m"].stages["S"][2])
CASES["m_A3raw"].sets = {"A": {(3, c): _raw3[c - 1] for c in (1, 2, 3)}}
compute(CASES["m_A3raw"])
_full = _softmax_plain(CASES["j"].stages["Z"][1])
CASES["j_row2"].sets = {"A": {(2, c): _full[c - 1] for c in (1, 2, 3, 4)}}
compute(CASES["j_row2"])


def S(case: str) -> dict:
    """The stages of one case."""
    return CASES[case].stages


# --- scalars: every other number a document prints ---------------------------------
# (name -> value).  Names are referred to as ``x.NAME`` by the documents.


def _scalars() -> dict[str, Value]:
    a, b, c, d, e, i = S("a"), S("b"), S("c"), S("d"), S("e"), S("i")
    x: dict[str, Value] = {}
    x["one"] = F(1)
    x["sqrt2"] = sqrt(F(2))
    x["sqrt3"] = sqrt(F(3))
    x["inv_sqrt2"] = div(F(1), sqrt(F(2)))
    x["inv_sqrt3"] = div(F(1), sqrt(F(3)))
    x["e"] = exp(F(1))
    x["e_half"] = exp(F("0.5"))
    x["e_1_5"] = exp(F("1.5"))
    x["e_2"] = exp(F(2))
    # softmax([1.5, 0.5]) and softmax([2.5, 0]) (continuation example)
    x["sm15_1"] = div(exp(F("1.5")), add(exp(F("1.5")), exp(F("0.5"))))
    x["sm15_2"] = div(exp(F("0.5")), add(exp(F("1.5")), exp(F("0.5"))))
    x["sm25_1"] = div(exp(F("2.5")), add(exp(F("2.5")), F(1)))
    x["sm25_2"] = div(F(1), add(exp(F("2.5")), F(1)))
    x["e_2_5"] = exp(F("2.5"))
    # sigmoid(1) = e/(e+1) and its calculator text
    x["sig1"] = div(exp(F(1)), add(exp(F(1)), F(1)))
    x["sig1_c"] = 1 - x["sig1"]
    # parameter counts (unit suffixes)
    x["params_768"] = F(4 * 768 * 768)
    x["params_512"] = F(4 * 512 * 512)
    x["wq_512"] = F(512 * 512)
    x["attn_292"] = F(292 * 292)
    x["head_64"] = F(768 // 12)
    # scalar re-binding (issue 9): S = 1 + 1 = 2, S = 2*3 = 6, T = S + 1 = 7
    x["S1"] = F(1) + F(1)
    x["S2"] = F(2) * F(3)
    x["T"] = x["S2"] + 1
    x["T_old"] = x["S1"] + 1
    # weights of case i rounded to 2 places, then carried into outputs
    i_a2 = [[F(rnd(v, 2)) for v in row] for row in i["A"]]
    x["i_O_from2"] = matmul(i_a2, i["V"])  # matrix: world (a) from 2-place weights
    a_a2 = [[F(rnd(v, 2)) for v in row] for row in a["A"]]
    x["a_O_from2"] = matmul(a_a2, a["V"])
    c_a2 = [[F(rnd(v, 2)) for v in row] for row in c["A"]]
    x["c_O_from2"] = matmul(c_a2, c["V"])
    k2 = [[F(rnd(v, 2)) for v in row] for row in S("k")["A"]]
    x["k_O_from2"] = matmul(k2, S("k")["V"])
    d_a2 = [[F(rnd(v, 2)) for v in row] for row in d["A"]]
    x["d_O_from2"] = matmul(d_a2, d["V"])
    # row sums of exp (case b, d)
    x["b_R1"] = b["R"][0][0]
    # a few exponentials of 2-place and 4-place printed scores
    x["e_0_71"] = exp(F("0.71"))
    x["e_1_41"] = exp(F("1.41"))
    x["e_0_7071"] = exp(F("0.7071"))
    x["e_1_4142"] = exp(F("1.4142"))
    x["e_2_1213"] = exp(F("2.1213"))
    # mean of a row (mu chain) : (2.10 + 0.40 + 1.70) / 3
    x["mu_sum"] = F("2.10") + F("0.40") + F("1.70")
    x["mu"] = x["mu_sum"] / 3
    # case e dot products with decimals
    x["e_q1k1"] = e["S"][0][0]
    # softmax with temperature 0.5 of [1, 0] etc.
    x["sm_1_0_1"] = div(exp(F(1)), add(exp(F(1)), F(1)))
    # scaled scores rounded then exponentiated (world (a) == truth up to rounding)
    x["c_Z_2"] = [[F(rnd(v, 2)) for v in row] for row in c["Z"]]
    x["d_half"] = Fraction(1, 2)
    x["third"] = Fraction(1, 3)
    # c, weighted sums from the printed 4-place weights with one operand copied wrong
    c4 = [[F(rnd(v, 4)) for v in row] for row in c["A"]]
    v = c["V"]
    x["c_o1_bad"] = [
        [
            sum((w * v[k][j] for k, w in enumerate([c4[0][0], F("0.1561"), c4[0][2], c4[0][3]])), Fraction(0))
            for j in range(2)
        ]
    ]
    v_bad = [v[0], v[1], [F(2), F(2)], v[3]]
    x["c_o4_bad"] = [[sum((c4[3][k] * v_bad[k][j] for k in range(4)), Fraction(0)) for j in range(2)]]
    x["c_o4_4"] = [[sum((c4[3][k] * v[k][j] for k in range(4)), Fraction(0)) for j in range(2)]]
    # products a_1j * v_j of case i: from the 2-place weights (world (a)) and true
    x["i_prod2"] = [[i_a2[0][j] * i["V"][j][col] for col in range(2)] for j in range(3)]
    x["i_prod"] = [[mul(i["A"][0][j], i["V"][j][col]) for col in range(2)] for j in range(3)]
    x["d_prod2"] = [[d_a2[2][j] * d["V"][j][col] for col in range(4)] for j in range(3)]
    # calculator digits, case n (zh_calculator_planted): weight 2 of row 2 truncated at 10 places, then times 4
    n = S("n")
    x["n_a22_t10"] = F(trunc(n["A"][1][1], 10))
    x["n_o22_bad"] = 4 * x["n_a22_t10"]
    x["n_o22"] = mul(n["A"][1][1], F(4))
    x["n_o21"] = mul(n["A"][1][0], F(2))
    x["e_minus1"] = exp(F(-1))
    x["e_0_5"] = exp(F("0.5"))
    x["n_R1"] = n["R"][0][0]
    # parameter counts (en_units_planted): d_model 1024, 16 heads
    x["p1024"] = F(1024 * 1024)
    x["p1024x4"] = F(4 * 1024 * 1024)
    x["head_1024"] = F(1024 // 16)
    x["qkv_head"] = F(3 * 1024 * 64)
    x["attn_512"] = F(512 * 512)
    x["attn_512x16"] = F(16 * 512 * 512)
    # scalar chain (en_scalar_rebind_planted)
    x["dk_8_2"] = F(8) / 2
    x["sqrt_dk_4"] = sqrt(F(4))
    x["dk_8_4"] = F(8) / 4
    x["per_head"] = F(3 * 8 * 2)
    x["per_head_bad"] = F(56)
    x["total_bad"] = 4 * x["per_head_bad"]
    x["total"] = 4 * x["per_head"]
    x["U"] = x["T"] * 2
    # calculator digits
    x["e_0_70710678"] = exp(F(1) / 1)
    x["quarter"] = Fraction(1, 4)
    return x


SCALARS = _scalars()


def value(ref: str) -> Value:
    """A value by reference: ``case.STAGE[r,c]`` (1-based) or ``x.NAME`` (``x.NAME[r,c]``)."""
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

STAGES = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "S", "Z", "E", "R", "A", "O")


def _show(v: Value) -> str:
    if isinstance(v, Fraction):
        exact = str(v)
        return exact if v.denominator == 1 else f"{exact} = {mpmath.nstr(to_mpf(v), 10)}"
    return mpmath.nstr(v, 12)


def _rounded(v: Value) -> str:
    out = []
    for places in (2, 3, 4, 6):
        try:
            out.append(rnd(v, places))
        except ValueError as err:  # near ties are reported, never guessed
            out.append(f"<{err}>")
    return " ".join(out) + f" | f32 {f32_text(v)} | f64 {f64_text(v)}"


def print_case(case: Case) -> None:
    print(f"== case {case.name}: {case.note}" + (f" (variant of {case.truth_of})" if case.truth_of else ""))
    s = case.stages
    print(f"   d_k = {case.d_k}, sqrt(d_k) = {_show(s['sqrt_dk'])}, scale = {_show(s['scale'])}")
    for name in STAGES:
        if name not in s:
            continue
        print(f"   {name}:")
        for r, row in enumerate(s[name], 1):
            for c, v in enumerate(row, 1):
                print(f"     [{r},{c}] {_show(v):>28}   {_rounded(v)}")


def main(argv: list[str]) -> int:
    names = argv or list(CASES)
    for name in names:
        if name == "x":
            continue
        print_case(CASES[name])
    if not argv or "x" in argv:
        print("== scalars")
        for name, v in SCALARS.items():
            if isinstance(v, list):
                for r, row in enumerate(v, 1):
                    for c, cell in enumerate(row, 1):
                        print(f"   x.{name}[{r},{c}] {_show(cell):>28}   {_rounded(cell)}")
            else:
                print(f"   x.{name} {_show(v):>28}   {_rounded(v)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
