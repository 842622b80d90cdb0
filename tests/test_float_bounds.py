"""symattn.float_bounds: the float64 bounds enclose the true values (mpmath at 300 bits).

The bounds rest on IEEE 754 arithmetic and a priori error bounds; these tests
check the constants, the exponential and the enclosures against mpmath on
inputs chosen to stress each error term (large scores, wide exponent ranges,
underflowing exponentials, masks, cancelling values).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symattn import float_bounds as fb

MP_PREC = 300


def test_the_split_of_ln2_is_exact_enough():
    with mpmath.workprec(MP_PREC):
        ln2 = mpmath.log(2)
        assert abs(mpmath.mpf(fb.LN2_HI) + mpmath.mpf(fb.LN2_LO) - ln2) <= fb.U * fb.LN2_LO
    assert math.frexp(fb.LN2_HI)[0] * 2**32 == int(
        math.frexp(fb.LN2_HI)[0] * 2**32
    )  # 32 bits: k·LN2_HI is exact


@pytest.mark.parametrize("seed", range(3))
def test_exp_is_within_its_bound(seed):
    rng = np.random.default_rng(seed)
    edges = np.array(
        [0.0, -0.0, -1e-300, -0.3465, -0.3466, -708.39, -709.0, -744.4, -745.2, -759.9, -760.0, -800.0]
    )
    ys = np.concatenate(
        [edges, -rng.exponential(50, 3000), -rng.uniform(0, 1, 500), -rng.uniform(700, 760, 500)]
    )
    got = fb._exp(ys)
    with mpmath.workprec(MP_PREC):
        for y, e in zip(ys.tolist(), got.tolist(), strict=True):
            true = mpmath.exp(max(y, fb.EXP_MIN)) if y >= fb.EXP_MIN else mpmath.mpf(0)
            assert abs(mpmath.mpf(e) - true) <= fb.EXP_REL * true + fb.TINY + (
                mpmath.exp(fb.EXP_MIN) if y < fb.EXP_MIN else 0
            )
    # measured: the real error is far below the bound used (which doubles the a priori one)
    with mpmath.workprec(MP_PREC):
        worst = max(
            abs(mpmath.mpf(e) / mpmath.exp(y) - 1)
            for y, e in zip(ys[:3000].tolist(), got[:3000].tolist(), strict=True)
            if y > -700
        )
    assert worst < fb.EXP_REL / 4


def mp_output(Q, K, V, scale, keep):
    with mpmath.workprec(MP_PREC):
        n_q, d_k = Q.shape
        c = 1 / mpmath.sqrt(d_k) if scale is None else mpmath.mpf(scale.numerator) / scale.denominator
        out = []
        for i in range(n_q):
            kept = [j for j in range(K.shape[0]) if keep is None or keep[i, j]]
            s = {
                j: c
                * mpmath.fsum(
                    mpmath.mpf(float(a)) * mpmath.mpf(float(b)) for a, b in zip(Q[i], K[j], strict=True)
                )
                for j in kept
            }
            top = max(s.values())
            e = {j: mpmath.exp(s[j] - top) for j in kept}
            z = mpmath.fsum(e.values())
            out.append(
                [mpmath.fsum(e[j] * mpmath.mpf(float(V[j, k])) for j in kept) / z for k in range(V.shape[1])]
            )
        return out


@st.composite
def stressed(draw):
    n_q, n_k, d = draw(st.integers(1, 5)), draw(st.integers(1, 6)), draw(st.integers(1, 4))
    magnitude = draw(st.sampled_from([1e-3, 1.0, 8.0, 30.0, 1e3]))
    kind = draw(st.sampled_from(["float32", "float64", "wide"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(shape) * magnitude for shape in ((n_q, d), (n_k, d), (n_k, 2))]
    if kind == "wide":  # exponents from 2**-60 to 2**20 in one array
        arrays = [a * np.exp2(rng.integers(-60, 20, a.shape)) for a in arrays]
    if kind == "float32":
        arrays = [a.astype(np.float32).astype(np.float64) for a in arrays]
    if draw(st.booleans()):  # cancellation: V's rows sum to about zero
        arrays[2][-1] = -arrays[2][:-1].sum(axis=0)
    keep = None
    if draw(st.booleans()):
        keep = rng.random((n_q, n_k)) < 0.5
        keep[np.arange(n_q), rng.integers(0, n_k, n_q)] = True
    scale = draw(st.sampled_from([None, fb.Fraction(1, 3), fb.Fraction(5, 1)]))
    return *arrays, scale, keep


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stressed(), st.sampled_from([fb.CHUNK, 2, 3]))
def test_bounds_enclose_the_true_output(case, chunk):
    Q, K, V, scale, keep = case
    with pytest.MonkeyPatch.context() as patch:  # small chunks: the chunked sums on small inputs
        patch.setattr(fb, "CHUNK", chunk)
        bounds = fb.attention_bounds(Q, K, V, scale=scale, keep=keep)
    if bounds is None:  # the caller falls back to arb; only allowed when the exponents are imprecise
        P = np.abs(Q) @ np.abs(K).T
        assert (
            P * fb.U * Q.shape[1] * (1 if scale is None else float(scale))
        ).max() > fb.MAX_EXPONENT_ERROR / 100
        return
    lower, upper = bounds
    true = mp_output(Q, K, V, scale, keep)
    with mpmath.workprec(MP_PREC):
        for i, row in enumerate(true):
            for k, y in enumerate(row):
                assert mpmath.mpf(float(lower[i, k])) <= y <= mpmath.mpf(float(upper[i, k])), (i, k)


def test_bounds_are_tight_on_a_typical_kernel_test():
    rng = np.random.default_rng(0)
    Q, K, V = (rng.standard_normal((64, 32)).astype(np.float32).astype(np.float64) for _ in range(3))
    lower, upper = fb.attention_bounds(Q, K, V, scale=None, keep=None)
    width = (upper - lower) / np.maximum(np.abs(upper), np.abs(lower)).max()
    assert width.max() < 2.0**-38  # float32 roundings need 2**-24


@pytest.mark.parametrize("magnitude", [0.3, 1.0, 4.0])
@pytest.mark.parametrize("seed", range(2))
def test_bounds_enclose_the_true_output_of_long_sums(seed, magnitude):
    # n_k = 70 keys and d_k = 70: both products are summed in several chunks of CHUNK terms
    rng = np.random.default_rng(seed)
    Q = (rng.standard_normal((3, 70)) * magnitude).astype(np.float32).astype(np.float64)
    K = (rng.standard_normal((70, 70)) * magnitude).astype(np.float32).astype(np.float64)
    V = rng.standard_normal((70, 2)).astype(np.float32).astype(np.float64)
    lower, upper = fb.attention_bounds(Q, K, V, scale=None, keep=None)
    true = mp_output(Q, K, V, None, None)
    with mpmath.workprec(MP_PREC):
        for i, row in enumerate(true):
            for k, y in enumerate(row):
                assert mpmath.mpf(float(lower[i, k])) <= y <= mpmath.mpf(float(upper[i, k]))
                assert (upper[i, k] - lower[i, k]) < 2.0**-36  # and useful
