"""symattn's certified path on a benchmark case, and the numpy cross-check."""

from __future__ import annotations

import math
from dataclasses import dataclass

import flint
import numpy as np
import sympy

from benchmarks.inputs import Case
from symattn.numeric import attention_balls, exact_products

PREC = 128  # bits; the runner checks that every ball is narrower than 10**-30


def fmpq_inputs(case: Case) -> tuple[flint.fmpq_mat, ...]:
    """X, W_Q, W_K, W_V as exact python-flint matrices."""

    def convert(matrix):
        return flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in row] for row in matrix])

    return tuple(convert(m) for m in (case.X, case.W_Q, case.W_K, case.W_V))


def certified_attention(X, W_Q, W_K, W_V, prec: int = PREC):
    """Exact products (integer matrices over common denominators), then symattn's
    enclosures of the weights and the output.

    Args:
        X, W_Q, W_K, W_V: fmpq_mat inputs.
        prec: working precision in bits.

    Returns:
        (weights, output): output an arb_mat; weights an arb_mat or, from the fixed-point
        dense method, a FixedWeights (read like one; its arb_mat is built on first read).
    """
    scores, V = exact_products(X, W_Q, W_K, W_V)
    factor = 1 / sympy.sqrt(W_Q.ncols())  # exact: 1/8 for d_k = 64, sqrt(3)/6 for d_k = 12
    return attention_balls(scores, factor, None, V, prec)


@dataclass(frozen=True)
class Check:
    """numpy float64 against symattn's enclosures.

    Attributes:
        checked: entries compared (numpy did not underflow).
        underflows: weights numpy rounded to 0 although they are positive.
        outside: entries farther from the ball than the float64 tolerance.
        max_error: the largest |numpy - ball midpoint| over checked entries.
        digits: correct decimal digits guaranteed by the widest ball.
    """

    checked: int
    underflows: int
    outside: int
    max_error: float
    digits: int


def _mid_rad(matrix: flint.arb_mat) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = matrix.nrows(), matrix.ncols()
    mids = np.empty((rows, cols))
    rads = np.empty((rows, cols))
    for i in range(rows):
        for j in range(cols):
            ball = matrix[i, j]
            mids[i, j] = float(ball.mid())
            rads[i, j] = float(ball.rad())
    return mids, rads


def check_numpy(weights: flint.arb_mat, output: flint.arb_mat, np_weights, np_output, V_abs_max) -> Check:
    """Whether numpy's float64 values lie in symattn's balls, up to float64 rounding.

    The tolerance is a forward error bound for float64 softmax attention:
    4·(n + 64)·2⁻⁵³ relative to 1 for weights and to max|V| for outputs, plus
    the error of float64 scores, 2⁻⁴⁰ (the balls themselves are < 10⁻³⁰ wide).

    Args:
        weights, output: symattn's enclosures.
        np_weights, np_output: numpy float64 results.
        V_abs_max: per output column, max_j |V_jk|.

    Returns:
        A :class:`Check`.
    """
    w_mid, w_rad = _mid_rad(weights)
    o_mid, o_rad = _mid_rad(output)
    n = w_mid.shape[1]
    tol = 4 * (n + 64) * 2.0**-53 + 2.0**-40
    underflow = (np_weights == 0) & (w_mid > 0)
    w_err = np.abs(np_weights - w_mid)
    o_err = np.abs(np_output - o_mid)
    o_tol = tol * np.maximum(1, V_abs_max)[None, :]
    outside = int(np.sum((w_err > w_rad + tol) & ~underflow) + np.sum(o_err > o_rad + o_tol))
    widest = max(float(w_rad.max()), float(o_rad.max()))
    digits = math.floor(-math.log10(widest)) if widest > 0 else 999
    return Check(
        checked=int(w_mid.size - underflow.sum() + o_mid.size),
        underflows=int(underflow.sum()),
        outside=outside,
        max_error=float(max(w_err[~underflow].max(initial=0), o_err.max(initial=0))),
        digits=digits,
    )
