"""Rigorous float64 bounds of attention outputs: the oracle's cheap first pass.

The arb path evaluates every exponential from Python, about a microsecond
each, so n = 2048 costs seconds.  This module computes the same outputs with
whole-array numpy float64 operations and a priori error bounds, so that
``lower <= true <= upper`` holds for every entry; the oracle rounds from these
bounds where they decide, and recomputes only the undecided rows with arb.

What the bounds rely on (and nothing else):

* IEEE 754 binary64 arithmetic with rounding to nearest for numpy's
  elementwise +, -, ×, /, whose results are correctly rounded:
  ``|fl(x op y) - x op y| <= u·|x op y|`` with ``u = 2**-53``, plus an absolute
  2**-1074 where a result is subnormal; ``rint``, ``ldexp`` (apart from
  underflow), ``abs``, ``max``, ``where`` and comparisons are exact, and
  ``float(str)`` and ``math.sqrt`` are correctly rounded.
* The classical bound for a sum or a dot product of n terms computed in any
  order, with or without fused multiply-adds, as BLAS matrix products and
  numpy's ``sum`` do: ``|fl(Σ x_i y_i) - Σ x_i y_i| <= γ_n Σ |x_i y_i|`` with
  ``γ_n = n·u / (1 - n·u)`` (Higham, *Accuracy and Stability of Numerical
  Algorithms*, 2nd ed., §3.1), plus n·2**-1074 for underflow.  Products are
  taken in chunks of ``CHUNK`` terms, and the chunks summed, so that the bound
  is ``γ_CHUNK Σ|x_i y_i| + γ_chunks Σ_c |chunk sum c|``, much tighter than
  ``γ_n`` for long sums.
* Horner's rule: ``|fl(p(r)) - p(r)| <= γ_2N Σ |c_i|·|r|^i`` for degree N
  (Higham §5.1).

The exponential is computed here (numpy.exp's accuracy is not specified)
from those operations: ``exp(y) = 2**q · 2**(m/8) · exp(r)`` with
``k = 8q + m = rint(8y/ln 2)``, ``r = y - k·ln2/8`` in two parts (Cody and
Waite), ``|r| <= 0.0434``, a table of the eight ``2**(m/8)`` and the
degree-9 Taylor polynomial, whose truncation error is below 1e-20.

Every bound is computed in float64 too, from positive terms, and then
multiplied by ``1 + 2**-30``; that covers the roundings of the few operations
that compute it (each at most ``u``) many times over.  The result is widened
outward by one float with ``nextafter``.  Inputs that make any quantity
overflow, or that leave the exponents too imprecise to be of use, give None:
the caller then uses the arb path.  The tests check the constants and the
enclosures against mpmath.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["attention_bounds"]

U = 2.0**-53  # unit roundoff of binary64
TINY = 2.0**-1074  # the smallest subnormal
SAFETY = 1 + 2.0**-30  # inflation of every computed bound (covers its own roundings)
CHUNK = 32  # terms per chunk of a dot product
LN2_HI = float.fromhex("0x1.62e42fee00000p-1")  # ln 2 to 32 bits: k·LN2_HI/8 is exact for |k| < 2**21
LN2_LO = float.fromhex("0x1.a39ef35793c76p-33")  # ln 2 - LN2_HI, to within u·LN2_LO (checked in the tests)
EIGHT_OVER_LN2 = 8 / math.log(2)  # only chooses k; its error does not matter
# 2**(m/8) to 30 digits: float() rounds each correctly, to within u/2 relative
TABLE = np.array(
    [
        float(text)
        for text in (
            "1.0",
            "1.09050773266525765920701065576",
            "1.18920711500272106671749997056",
            "1.29683955465100966593375411779",
            "1.41421356237309504880168872421",
            "1.54221082540794082361229186209",
            "1.68179283050742908606225095247",
            "1.83400808640934246348708318959",
        )
    ]
)
DEGREE = 9
COEFFICIENTS = [1 / math.factorial(i) for i in range(DEGREE + 1)]  # each within u/i! of 1/i!
R_MAX = 0.0434  # |r| <= ln2/16 + 2**-40
# relative error of _exp for y in [EXP_MIN, 0] with a normal result: Horner γ_18·e^{2·R_MAX},
# coefficients u·e^{2·R_MAX}, r's error (below 0.75u, times e^{R_MAX}), the table entry u/2, the
# product by it u, truncation < 1e-18; doubled for margin
EXP_REL = 2 * (
    (18 * U / (1 - 18 * U)) * math.exp(2 * R_MAX)
    + U * math.exp(2 * R_MAX)
    + 0.75 * U * math.exp(R_MAX)
    + 1.5 * U
    + 1e-18
)
EXP_MIN = -760.0  # below this, exp(y) < 2**-1096: the entry is 0 with absolute error TINY
MAX_EXPONENT_ERROR = 2.0**-10  # wider exponent errors make the bounds useless: give up


def gamma(n: int) -> float:
    """γ_n / (1 - γ_n) (>= γ_n), rounded up: the factor for a sum of n terms bounded by a computed sum."""
    g = n * U / (1 - n * U)
    return g / (1 - g) * SAFETY


def _exp(y: Any) -> Any:
    """exp(y) for y <= 0 (float64 array) within relative EXP_REL, or absolute TINY when the result is subnormal."""
    y = np.maximum(y, EXP_MIN)
    k = np.rint(y * EIGHT_OVER_LN2)
    r = y - k * (LN2_HI / 8)  # k·LN2_HI/8 exact; then the low part
    r -= k * (LN2_LO / 8)
    p = np.full_like(r, COEFFICIENTS[DEGREE])
    for c in reversed(COEFFICIENTS[:DEGREE]):
        p *= r
        p += c
    ki = k.astype(np.int64)
    p *= TABLE[ki & 7]
    return np.ldexp(p, ki >> 3)


def _product(A: Any, B: Any) -> tuple[Any, Any]:
    """(C, E): C = fl(A·B) summed chunk by chunk, and E >= |C - A·B| entrywise.

    A·B is taken in chunks of CHUNK inner terms (BLAS), the chunk results added
    in order: |C - A·B| <= γ_CHUNK·(|A|·|B|) + γ_chunks·Σ_c |C_c| (+ underflow).
    """
    n = A.shape[1]
    absolute = np.abs(A) @ np.abs(B)  # >= (1 - γ_n)·Σ|a||b|
    if n <= CHUNK:
        C = A @ B
        E = absolute * (gamma(n) * (1 + 2 * gamma(n))) + n * TINY * 4
        return C, E
    C = A[:, :CHUNK] @ B[:CHUNK]
    total = np.abs(C)
    chunks = 1
    for start in range(CHUNK, n, CHUNK):
        part = A[:, start : start + CHUNK] @ B[start : start + CHUNK]
        C += part
        total += np.abs(part, out=part)
        chunks += 1
    E = absolute * (gamma(CHUNK) * (1 + 2 * gamma(n)))
    E += total * gamma(chunks)
    E += n * TINY * 4
    return C, E


def _exponentials(Q: Any, K: Any, scale: Fraction | None, keep: Any | None) -> tuple[Any, Any] | None:
    """(e, R): e_ij = exp(c·(S_ij - m_i)) (0 where masked) and R_ij with |e_true - e| <= R + 2·TINY."""
    d_k = Q.shape[1]
    S, E_S = _product(Q, K.T)  # E_S >= |S - Q·Kᵀ|
    if not (np.isfinite(S).all() and np.isfinite(E_S).all()):
        return None
    if keep is not None:
        S[~keep] = -np.inf
    m = S.max(axis=1, keepdims=True)  # a float per row: the shift c·m cancels exactly
    # within 2u of 1/sqrt(d_k) (sqrt and / are correctly rounded), or within u of the scale
    c_f = 1 / math.sqrt(d_k) if scale is None else float(scale)
    y = S
    y -= m  # <= 0, within u|y| of the difference of the floats
    y *= c_f
    if keep is not None:
        y[~keep] = 0.0  # masked: their weight is set to 0 below
    if not (np.isfinite(y).all() and np.isfinite(m).all()):
        return None
    # |y - c·(QKᵀ - m)| <= u|y| + 4.05u|y|(1 + u) + 1.01·c_f·E_S <= 6u|y| + 1.02·c_f·E_S
    B = E_S
    B *= 1.02 * c_f * SAFETY
    B += np.abs(y) * (6 * U * SAFETY)
    B += 2.0**-1000
    if keep is not None:
        B[~keep] = 0.0
    if B.max() > MAX_EXPONENT_ERROR:
        return None
    e = _exp(y)
    if keep is not None:
        e[~keep] = 0.0  # exactly 0
    # |e_true - e| <= R·e + 2·TINY with R = 1.01·(B(1 + B) + EXP_REL) (B <= 2**-10)
    R = B
    R *= 1 + B
    R += EXP_REL
    R *= 1.01 * SAFETY
    R *= e  # now R·e: the absolute error of each weight, less 2·TINY
    return e, R


def attention_bounds(
    Q: Any, K: Any, V: Any, *, scale: Fraction | None, keep: Any | None
) -> tuple[Any, Any] | None:
    """float64 arrays (lower, upper) with lower <= softmax(c·Q·Kᵀ)·V <= upper entrywise, or None.

    Args:
        Q, K, V: float64 arrays (n_q × d_k, n_k × d_k, n_k × d_v) holding the
            inputs exactly.
        scale: the exact scale c, or None for 1/sqrt(d_k).
        keep: a boolean n_q × n_k array (True keeps a key; every row keeps
            one), or None.

    Returns:
        (lower, upper), or None when the bounds cannot be had in float64.
    """
    n_k = K.shape[0]
    with np.errstate(all="ignore"):
        weights = _exponentials(Q, K, scale, keep)
        if weights is None:
            return None
        e, R = weights
        g = gamma(n_k)
        Z = e.sum(axis=1, keepdims=True)  # >= 1: the row's largest kept entry is exp(0) = 1 exactly
        RZ = R.sum(axis=1, keepdims=True) * (1 + 2 * g)  # >= Σ_j R_j·e_j
        # Z_true = Z(1 + ζ), |ζ| <= g + RZ/Z + 2·n_k·TINY/Z
        zeta = (g + RZ / Z + n_k * TINY * 4 / Z) * SAFETY
        N, E_N = _product(e, V)  # E_N >= |N - Σ_j e_j v_j|
        absV = np.abs(V)
        RA = (R @ absV) * (1 + 2 * g) + n_k * TINY * 4  # >= Σ_j R_j e_j |v_jk| (with underflow)
        col = absV.sum(axis=0, keepdims=True) * (1 + 2 * g)  # >= Σ_j |v_jk|
        # |N_true - N| <= E_N + RA + 2·TINY·col
        E_N += RA
        E_N += col * (TINY * 2)
        E_N *= SAFETY
        out = N / Z
        # |out_true - out| <= (E_N/Z + |out|(1+u)ζ) / (1 - ζ) + u|out|
        size = np.abs(out)
        W = E_N / Z
        W += size * ((1 + U) * zeta)
        W /= 1 - zeta
        W += size * U
        W *= SAFETY
        W += 2.0**-1000
        if not (np.isfinite(W).all() and np.isfinite(out).all() and (zeta < 0.5).all()):
            return None
        lower = np.nextafter(out - W, -np.inf)
        upper = np.nextafter(out + W, np.inf)
    return lower, upper
