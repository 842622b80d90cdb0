"""symattn.oracle against an independent mpmath computation, planted kernel bugs, and bad input.

The true values come from mpmath at 300 bits (softmax and A·V written out
here), with binary inputs read as the exact rationals they are, never from
symattn.  The planted bugs are float16 attention implementations written in
this file.
"""

from __future__ import annotations

import importlib.util
import inspect
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn import oracle
from symattn.errors import SymattnError

MP_PREC = 300
DOCS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "oracle.md"


# --- an independent reference: mpmath ---------------------------------------------------


def mp_attention(Q, K, V, *, scale=None, keep=None):
    """softmax(scale · Q·Kᵀ) · V in mpmath, every array element read exactly (mpf(float) is exact)."""
    with mpmath.workprec(MP_PREC):
        n_q, d_k = Q.shape
        n_k, d_v = V.shape
        c = (
            1 / mpmath.sqrt(d_k)
            if scale is None
            else mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
        )
        out = []
        for i in range(n_q):
            kept = [j for j in range(n_k) if keep is None or keep[i][j]]
            s = {
                j: c
                * mpmath.fsum(mpmath.mpf(float(Q[i, t])) * mpmath.mpf(float(K[j, t])) for t in range(d_k))
                for j in kept
            }
            top = max(s.values())
            e = {j: mpmath.exp(s[j] - top) for j in kept}
            total = mpmath.fsum(e.values())
            out.append(
                [mpmath.fsum(e[j] * mpmath.mpf(float(V[j, k])) for j in kept) / total for k in range(d_v)]
            )
        return out


def nearest(value, dtype):
    """``value`` (an mpf) rounded to nearest, ties to even, in ``dtype`` (found among neighbours)."""
    with mpmath.workprec(MP_PREC):
        guess = np.array(float(value), dtype=np.float64).astype(dtype)
        candidates = [guess, np.nextafter(guess, dtype(np.inf)), np.nextafter(guess, dtype(-np.inf))]
        distances = [abs(mpmath.mpf(float(x)) - value) for x in candidates]
        best = min(distances)
        ties = [x for x, dist in zip(candidates, distances, strict=True) if dist == best]
        bits = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[dtype]
        even = [x for x in ties if int(np.array(x).view(bits)) % 2 == 0]
        return (even or ties)[0]


def mp_rounded(Q, K, V, dtype, **options):
    return np.array(
        [[nearest(y, dtype) for y in row] for row in mp_attention(Q, K, V, **options)], dtype=dtype
    )


def small_arrays(draw, dtype, shape):
    width = {np.float16: 16, np.float32: 32, np.float64: 64}[dtype]
    # a few repeated values make equal scores (shared exponentials, exact rational outputs)
    pool = draw(st.lists(st.floats(-6, 6, width=width), min_size=1, max_size=6))
    values = draw(st.lists(st.sampled_from(pool), min_size=math.prod(shape), max_size=math.prod(shape)))
    return np.array(values, dtype=dtype).reshape(shape)


@st.composite
def problems(draw, dtype=np.float32):
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 4)) for _ in range(4))
    Q = small_arrays(draw, dtype, (n_q, d_k))
    K = small_arrays(draw, dtype, (n_k, d_k))
    V = small_arrays(draw, dtype, (n_k, d_v))
    scale = draw(st.sampled_from([None, None, 1.0, 0.125, 0.1]))
    causal = draw(st.booleans())
    return Q, K, V, scale, causal, draw(st.booleans())  # the last: the float64 pass first, or arb only


def causal_keep(n_q, n_k):
    return [[j <= i for j in range(n_k)] for i in range(n_q)]


# --- to_numpy: correctly rounded, against mpmath ------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_to_numpy_float32_is_the_correctly_rounded_mpmath_value(problem):
    Q, K, V, scale, causal, float_pass = problem
    ref = oracle.reference(Q, K, V, scale=scale, causal=causal, float_pass=float_pass)
    keep = causal_keep(Q.shape[0], K.shape[0]) if causal else None
    expected = mp_rounded(Q, K, V, np.float32, scale=scale, keep=keep)
    np.testing.assert_array_equal(ref.to_numpy(np.float32), expected)
    assert ref.to_numpy(np.float32).dtype == np.float32


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(np.float16), st.sampled_from([np.float16, np.float64]))
def test_to_numpy_float16_and_float64_are_correctly_rounded(problem, dtype):
    Q, K, V, scale, causal, float_pass = problem
    ref = oracle.reference(Q, K, V, scale=scale, causal=causal, float_pass=float_pass)
    keep = causal_keep(Q.shape[0], K.shape[0]) if causal else None
    np.testing.assert_array_equal(ref.to_numpy(dtype), mp_rounded(Q, K, V, dtype, scale=scale, keep=keep))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(0, 2**32 - 1), st.sampled_from([np.float16, np.float32, np.float64]))
def test_reported_errors_never_exceed_the_true_errors(problem, seed, dtype):
    Q, K, V, scale, causal, float_pass = problem
    keep = causal_keep(Q.shape[0], K.shape[0]) if causal else None
    true = mp_attention(Q, K, V, scale=scale, keep=keep)
    rng = np.random.default_rng(seed)
    noise = rng.choice([0.0, 1e-15, 1e-7, 1e-3])  # float64 kernels err by about 1e-16
    out = (
        np.array([[float(y) for y in row] for row in true])
        * (1 + rng.normal(0, noise, (len(true), V.shape[1])))
    ).astype(dtype)
    report = oracle.compare(out, Q, K, V, scale=scale, causal=causal, float_pass=float_pass)
    with mpmath.workprec(MP_PREC):
        errors = [
            [abs(mpmath.mpf(float(out[i, k])) - y) for k, y in enumerate(row)] for i, row in enumerate(true)
        ]
        worst = max(max(row) for row in errors)
        assert report.max_abs_error <= worst
        # and tight: the float64 pass's bounds are within about 1e-13 of the values
        slack = mpmath.mpf(2) ** -40 * max(max(abs(y) for y in row) for row in true) + mpmath.mpf(2) ** -1000
        assert report.max_abs_error >= worst - slack
        i, k = report.worst_index
        assert errors[i][k] >= worst - 2 * slack
        ratios = [errors[i][k] / abs(y) for i, row in enumerate(true) for k, y in enumerate(row) if y != 0]
        if ratios:
            assert report.max_rel_error <= max(ratios)
    # the ball's midpoint and radius enclose the mpmath value
    mid, rad = report.ref.mid, report.ref.rad
    for i, row in enumerate(true):
        for k, y in enumerate(row):
            with mpmath.workprec(MP_PREC):
                assert abs(y - mpmath.mpf(float(mid[i, k]))) <= mpmath.mpf(float(rad[i, k]))
            ball = report.ref.ball((i, k))
            with mpmath.workprec(MP_PREC):
                low, high = (
                    mpmath.mpf(tuple(int(x) for x in end.man_exp())) for end in (ball.lower(), ball.upper())
                )
                assert low - mpmath.mpf(2) ** -280 <= y <= high + mpmath.mpf(2) ** -280


# --- exact ties ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values, expected",
    [
        pytest.param([1.0, 1.0 + 2.0**-23], 1.0, id="tie-rounds-down-to-even"),
        pytest.param([1.0 + 2.0**-23, 1.0 + 2.0**-22], 1.0 + 2.0**-22, id="tie-rounds-up-to-even"),
        pytest.param([-1.0 - 2.0**-23, -1.0 - 2.0**-22], -1.0 - 2.0**-22, id="negative-tie"),
        pytest.param([0.5, -0.5], 0.0, id="exact-zero"),
    ],
)
def test_exact_rational_outputs_are_rounded_exactly(values, expected):
    # equal scores: the output is the mean of V exactly, here halfway between two float32 (or 0)
    mean = (Fraction(values[0]) + Fraction(values[1])) / 2
    assert mean == 0 or Fraction(float(np.float32(float(mean)))) != mean
    Q = np.zeros((1, 2), dtype=np.float32)
    K = np.ones((2, 2), dtype=np.float32)
    V = np.array(values, dtype=np.float32).reshape(2, 1)
    got = oracle.reference(Q, K, V).to_numpy(np.float32)
    assert got.tolist() == [[expected]]
    assert not np.signbit(got[0, 0]) or expected < 0


def test_within_is_decided_exactly_on_a_rational_output():
    Q, K = np.zeros((1, 2)), np.ones((2, 2))
    V = np.array([[1.0], [2.0]])
    assert oracle.compare(np.array([[1.5]]), Q, K, V).within()  # 3/2 exactly, atol = rtol = 0
    assert not oracle.compare(np.array([[np.nextafter(1.5, 2)]]), Q, K, V).within()
    irrational = oracle.reference(np.eye(2), np.eye(2), np.eye(2))
    best = irrational.to_numpy(np.float64)
    assert not oracle.compare(best, irrational).within()
    assert oracle.compare(best, irrational).within(rtol=2.0**-53)
    assert oracle.compare(best, irrational).max_ulps <= 0.5


# --- planted bugs in float16 reference implementations ----------------------------------


def attention_f16_no_max_shift(Q, K, V):
    """A float16 kernel whose softmax skips the max-shift: exp overflows 65504 for scores above ~11.1."""
    Q, K, V = (np.asarray(a, dtype=np.float16) for a in (Q, K, V))
    scores = (Q @ K.T) * np.float16(1 / math.sqrt(Q.shape[1]))
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(scores)
        weights = e / e.sum(axis=1, keepdims=True)
    return (weights @ V).astype(np.float16)


def attention_f16_accumulate(Q, K, V):
    """A float16 kernel with a correct softmax that accumulates A·V in float16, one key at a time."""
    s = (Q.astype(np.float32) @ K.astype(np.float32).T) / np.float32(math.sqrt(Q.shape[1]))
    e = np.exp(s - s.max(axis=1, keepdims=True))
    weights = (e / e.sum(axis=1, keepdims=True)).astype(np.float16)
    out = np.zeros((Q.shape[0], V.shape[1]), dtype=np.float16)
    for i in range(Q.shape[0]):
        for k in range(V.shape[1]):
            acc = np.float16(0)
            for j in range(K.shape[0]):
                acc = np.float16(acc + np.float16(weights[i, j] * V[j, k]))
            out[i, k] = acc
    return out


def attention_f16_good(Q, K, V):
    """The same kernel done right: max-shift, float32 accumulation, one rounding to float16."""
    s = (Q.astype(np.float32) @ K.astype(np.float32).T) / np.float32(math.sqrt(Q.shape[1]))
    e = np.exp(s - s.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return (weights @ V.astype(np.float32)).astype(np.float16)


def test_oracle_names_the_overflow_of_a_softmax_without_max_shift():
    rng = np.random.default_rng(3)
    Q, K, V = (rng.uniform(-1, 1, (8, 4)).astype(np.float16) for _ in range(3))
    K[2] = 2.0
    Q[5] = 4.0  # score 4·4·2 / sqrt(4) = 16 > 11.1: exp(16) is inf in float16
    ref = oracle.reference(Q, K, V)
    report = oracle.compare(attention_f16_no_max_shift(Q, K, V), ref)
    assert report.worst_index[0] == 5
    assert report.max_abs_error == math.inf
    assert report.nonfinite == 4  # exactly the row with the large score
    assert not report.within(atol=1e-2)
    assert "4 NaN or inf" in str(report)
    good = oracle.compare(attention_f16_good(Q, K, V), ref)
    assert good.nonfinite == 0 and good.max_ulps <= 1 and good.within(atol=1e-3)


def test_oracle_names_the_digits_a_float16_accumulation_loses():
    n = 64
    K = (16 * np.eye(n)).astype(np.float16)
    Q = K.copy()  # every query but one picks its own key (weight 1 in float16)
    Q[5] = 0  # query 5 averages all 64 keys: a long float16 sum
    V = np.random.default_rng(1).uniform(-1, 1, (n, 4)).astype(np.float16)
    V[:, 2] = 1000 + np.arange(n) % 4  # large values: float16's ulp is 0.5 there
    ref = oracle.reference(Q, K, V)
    report = oracle.compare(attention_f16_accumulate(Q, K, V), ref)
    assert report.worst_index == (5, 2)
    assert report.worst_ulps_index == (5, 2)
    assert report.max_abs_error >= 2  # 1001.5 exactly; the float16 sum is at least 2 away
    assert report.max_ulps >= 4
    assert not report.within(atol=1.0)
    assert ref.to_numpy(np.float16)[5, 2] == 1001.5  # exact: the mean of the column
    good = oracle.compare(attention_f16_good(Q, K, V), ref)
    assert good.max_ulps <= 1 and good.max_abs_error < 0.5


# --- the docs page's example (docs/oracle.md copies this function) ----------------------


def my_attention_float32(Q, K, V):
    """The kernel under test: attention in float32 with numpy."""
    scores = (Q @ K.T) / np.float32(np.sqrt(Q.shape[-1]))
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ V


def test_docs_example():
    rng = np.random.default_rng(0)
    Q, K, V = (rng.standard_normal((64, 32)).astype(np.float32) for _ in range(3))
    out = my_attention_float32(Q, K, V)

    report = symattn.oracle.compare(out, Q, K, V)

    assert report.within(atol=1e-6, rtol=1e-5), str(report)  # on failure: the errors and the worst element
    assert report.max_abs_error < 1e-6


def test_docs_page_shows_the_docs_example():
    text = DOCS_PAGE.read_text(encoding="utf-8")
    block = text.split("<!-- oracle-docs-example: begin -->")[1].split("<!-- oracle-docs-example: end -->")[0]
    shown = block.strip().removeprefix("```python").removesuffix("```").strip()
    assert (
        shown
        == (inspect.getsource(my_attention_float32) + "\n\n" + inspect.getsource(test_docs_example)).strip()
    )


# --- masks, batches, scales ------------------------------------------------------------------


def test_masks_batches_and_scales_agree_with_mpmath():
    rng = np.random.default_rng(5)
    Q = rng.standard_normal((2, 3, 4, 2)).astype(np.float32)
    K = rng.standard_normal((2, 3, 5, 2)).astype(np.float32)
    V = rng.standard_normal((2, 3, 5, 3)).astype(np.float32)
    keep = rng.random((4, 5)) < 0.6
    keep[:, 0] = True
    additive = np.where(keep, 0.0, -np.inf)
    by_bool = oracle.reference(Q, K, V, mask=keep, scale=0.5).to_numpy(np.float32)
    by_add = oracle.reference(Q, K, V, mask=additive, scale=0.5).to_numpy(np.float32)
    np.testing.assert_array_equal(by_bool, by_add)
    both = oracle.reference(Q, K, V, mask=keep, causal=True).to_numpy(np.float32)
    tri = np.tril(np.ones((4, 5), dtype=bool))
    for b in range(2):
        for h in range(3):
            np.testing.assert_array_equal(
                by_bool[b, h],
                mp_rounded(Q[b, h], K[b, h], V[b, h], np.float32, scale=0.5, keep=keep.tolist()),
            )
            np.testing.assert_array_equal(
                both[b, h], mp_rounded(Q[b, h], K[b, h], V[b, h], np.float32, keep=(keep & tri).tolist())
            )


def test_integer_inputs_and_float_scale_are_exact():
    Q = np.array([[1, 2], [3, -1]], dtype=np.int8)
    V = np.array([[2**40, 1], [-7, 0]], dtype=np.int64)
    ref = oracle.reference(Q, Q, V, scale=0.1)  # the float 0.1, read as 3602879701896397/2**55
    expected = mp_rounded(Q, Q, V, np.float64, scale=Fraction(0.1))
    np.testing.assert_array_equal(ref.to_numpy(), expected)
    assert Fraction(0.1) != Fraction(1, 10)


def test_blocks_of_rows_bound_the_work_per_call(monkeypatch):
    calls = []
    real = oracle.attention_balls

    def counting(scores, *args, **kwargs):
        calls.append(scores.nrows() * scores.ncols())
        return real(scores, *args, **kwargs)

    monkeypatch.setattr(oracle, "attention_balls", counting)
    monkeypatch.setattr(oracle, "BLOCK_ENTRIES", 64)
    Q = np.arange(40, dtype=np.float32).reshape(20, 2) / 8
    ref = oracle.reference(Q, Q, Q, float_pass=False)
    assert max(calls) <= 64 and sum(calls) == 20 * 20
    np.testing.assert_array_equal(ref.to_numpy(np.float32), mp_rounded(Q, Q, Q, np.float32))


# --- bad input: one line naming the array and its shape -------------------------------------


Q3 = np.ones((3, 2), dtype=np.float32)


@pytest.mark.parametrize(
    "call, message",
    [
        pytest.param(
            lambda: oracle.reference(np.array([[1.0, np.nan]]), Q3, Q3),
            "Q[0, 1] is nan; the oracle needs finite inputs (Q is 1×2 float64)",
            id="nan-in-Q",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, np.array([[1, 1], [np.inf, 0], [0, 0]], dtype=np.float16), Q3),
            "K[1, 0] is inf; the oracle needs finite inputs (K is 3×2 float16)",
            id="inf-in-K",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, np.full((3, 1), -np.inf)),
            "V[0, 0] is -inf; the oracle needs finite inputs (V is 3×1 float64)",
            id="minus-inf-in-V",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, np.ones((3, 4)), Q3),
            "K has 4 columns but Q has 2; queries and keys need the same d_k (Q is 3×2, K is 3×4, V is 3×2)",
            id="d_k-mismatch",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, np.ones((2, 2))),
            "V has 2 rows but K has 3; every key needs one value (Q is 3×2, K is 3×2, V is 2×2)",
            id="V-rows",
        ),
        pytest.param(
            lambda: oracle.reference(np.ones((2, 3, 2)), np.ones((1, 3, 2)), np.ones((1, 3, 2))),
            "the leading (batch) dimensions of Q, K and V differ (Q is 2×3×2, K is 1×3×2, V is 1×3×2)",
            id="batch-mismatch",
        ),
        pytest.param(
            lambda: oracle.reference(np.ones(3), Q3, Q3),
            "Q needs rows and columns, but it is 3 (Q is 3 float64)",
            id="vector-Q",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, np.ones((3, 2), dtype=np.complex128)),
            "V has dtype complex128, which the oracle does not read (V is 3×2); "
            "expected float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2 or an integer dtype",
            id="complex-V",
        ),
        pytest.param(
            lambda: oracle.reference(np.ones((3, 2), dtype=bool), Q3, Q3),
            "Q has dtype bool, which the oracle does not read (Q is 3×2); "
            "expected float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2 or an integer dtype",
            id="bool-Q",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, np.array([[1, "a"], [2, 3], [4, 5]], dtype=object), Q3),
            "K has dtype object, which the oracle does not read (K is 3×2); "
            "expected float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2 or an integer dtype",
            id="object-K",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, Q3, mask=np.ones((3, 2), dtype=bool)),
            "mask is 3×2 but the scores are 3×3",
            id="mask-shape",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, Q3, mask=np.full((3, 3), np.nan)),
            "mask[0, 0] is nan (mask is 3×3 float64)",
            id="nan-in-mask",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, Q3, mask=np.full((3, 3), 0.5)),
            "mask[0, 0] is 0.5; the oracle reads a boolean mask (True keeps a key) or an additive mask "
            "of 0 and -inf (mask is 3×3 float64)",
            id="mask-values",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, Q3, mask=np.eye(3, dtype=bool)[::-1] & False),
            "row [0] of the mask keeps no key, so its softmax is undefined (the scores are 3×3)",
            id="fully-masked",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, Q3, scale=-1.0),
            "scale must be positive, not -1",
            id="negative-scale",
        ),
        pytest.param(
            lambda: oracle.compare(np.ones((3, 3), dtype=np.float32), Q3, Q3, Q3),
            "out is 3×3 but the reference output is 3×2",
            id="out-shape",
        ),
        pytest.param(
            lambda: oracle.compare(np.ones((3, 2), dtype=np.int32), Q3, Q3, Q3),
            "out has dtype int32, which the oracle does not read (out is 3×2); expected float16, float32, float64, bfloat16, float8_e4m3fn or float8_e5m2",
            id="out-dtype",
        ),
        pytest.param(
            lambda: oracle.reference(Q3, Q3, Q3).to_numpy(np.int16),
            "to_numpy rounds to float16, float32, float64, bfloat16, float8_e4m3fn or float8_e5m2, not int16",
            id="to_numpy-dtype",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_array(call, message):
    with pytest.raises(SymattnError) as err:
        call()
    assert str(err.value) == message
    assert "\n" not in str(err.value)


def test_without_numpy_the_oracle_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(oracle, "np", None)
    with pytest.raises(
        SymattnError, match=r"needs numpy, which is not installed: pip install 'symattn\[oracle\]'"
    ):
        oracle.reference([[1.0]], [[1.0]], [[1.0]])


def test_oracle_is_exported_lazily():
    assert symattn.oracle.reference is oracle.reference
    assert "oracle" in dir(symattn)


def test_the_float_pass_leaves_few_rows_to_arb():
    rng = np.random.default_rng(2)
    Q, K, V = (rng.standard_normal((64, 32)).astype(np.float32) for _ in range(3))
    ref = oracle.reference(Q, K, V)
    expected = oracle.reference(Q, K, V, float_pass=False).to_numpy(np.float32)
    np.testing.assert_array_equal(ref.to_numpy(np.float32), expected)
    arb_rows = sum(p > 0 for head in ref._heads for p in head.prec)
    assert arb_rows <= 4  # of 64: the float64 bounds decide the float32 rounding almost everywhere
    ref.to_numpy(np.float64)  # float64 roundings need arb balls: every row gets one
    assert all(p > 0 for p in ref._heads[0].prec)


def test_a_float64_kernel_is_measured_with_arb_balls():
    rng = np.random.default_rng(4)
    Q, K, V = (rng.standard_normal((6, 4)) for _ in range(3))
    scores = Q @ K.T / np.sqrt(4)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    out = (weights / weights.sum(axis=1, keepdims=True)) @ V
    report = oracle.compare(out, Q, K, V)
    true = mp_attention(Q, K, V)
    with mpmath.workprec(MP_PREC):
        worst = max(
            abs(mpmath.mpf(float(out[i, k])) - y) for i, row in enumerate(true) for k, y in enumerate(row)
        )
        assert worst - mpmath.mpf(2) ** -100 <= report.max_abs_error <= worst
    assert 0 < report.max_ulps < 64


# --- bfloat16 and float8 (ml_dtypes), and a real kernel: jax ------------------------------


def _bits_nearest(value, dtype, width):
    """``value`` (an mpf) rounded to nearest, ties to even, in ``dtype``: the neighbours of a
    float64 guess, found by stepping the bit pattern (no nextafter for ml_dtypes formats)."""
    guess = np.array([float(value)], dtype=np.float64).astype(dtype)
    code = {8: np.uint8, 16: np.uint16}[width]
    base = int(guess.view(code)[0])
    candidates = [np.array([base + d], dtype=code).view(dtype)[0] for d in (-1, 0, 1)]
    candidates = [c for c in candidates if np.isfinite(np.float64(c))]
    with mpmath.workprec(MP_PREC):
        distances = [abs(mpmath.mpf(float(np.float64(c))) - value) for c in candidates]
    best = min(distances)
    ties = [c for c, dist in zip(candidates, distances, strict=True) if dist == best]
    even = [c for c in ties if int(np.array([c], dtype=dtype).view(code)[0]) % 2 == 0]
    return (even or ties)[0]


@pytest.mark.parametrize(("name", "width"), [("bfloat16", 16), ("float8_e4m3fn", 8), ("float8_e5m2", 8)])
def test_ml_dtypes_are_read_exactly_rounded_to_and_measured_in_their_own_ulps(name, width):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    dtype = getattr(ml_dtypes, name)
    rng = np.random.default_rng(7)
    Q, K, V = (rng.standard_normal((5, 4)).astype(dtype) for _ in range(3))
    wide = [a.astype(np.float64) for a in (Q, K, V)]  # exact: every such value is a float64
    truth = mp_attention(*wide)
    expected = np.array([[_bits_nearest(y, dtype, width) for y in row] for row in truth], dtype=dtype)
    ref = oracle.reference(Q, K, V)
    rounded = ref.to_numpy(dtype)
    assert rounded.dtype == np.dtype(dtype)
    assert (
        rounded.view({8: np.uint8, 16: np.uint16}[width])
        == expected.view({8: np.uint8, 16: np.uint16}[width])
    ).all()
    clean = oracle.compare(rounded, ref)
    assert clean.dtype == name and clean.max_ulps <= 0.5
    planted = rounded.copy()
    planted.view({8: np.uint8, 16: np.uint16}[width])[2, 1] += 1  # one ulp up
    report = oracle.compare(planted, ref)
    assert report.worst_ulps_index == (2, 1) and 0.5 < report.max_ulps <= 1.5
    assert f"ulps ({name})" in str(report)


def test_max_error_is_the_allclose_factor():
    Q = np.eye(2)
    with mpmath.workprec(MP_PREC):
        true = mp_attention(Q, Q, Q)[0][0]  # e^{1/√2} / (1 + e^{1/√2}) = 0.669761…
        expected = float((mpmath.mpf("0.67") - true) / mpmath.mpf("0.001"))
    report = oracle.compare(np.array([[0.67, 0.33], [0.33, 0.67]]), Q, Q, Q)
    assert report.max_error(atol=1e-3) == pytest.approx(expected, rel=1e-12)
    assert report.max_error(atol=1e-3) <= expected  # a lower bound of the true factor
    assert report.within(atol=1e-3) and not report.within(atol=1e-4)
    assert report.max_error() == math.inf  # no tolerance: any error misses it


#: Runs the kernel in its own process: jax starts threads, and a process that has them must not
#: fork (the verifier's worker is forked by later tests in this one).
JAX_KERNEL = """
import sys
import numpy as np
import jax
import jax.numpy as jnp

name, causal, path = sys.argv[1], sys.argv[2] == "causal", sys.argv[3]
rng = np.random.default_rng(11)
q, k, v = (jnp.asarray(rng.standard_normal((1, 12, 1, 8)), dtype=getattr(jnp, name)) for _ in range(3))
out = jax.nn.dot_product_attention(q, k, v, is_causal=causal)
arrays = [np.asarray(a)[0, :, 0, :] for a in (q, k, v, out)]
np.savez(path, *[a.view(np.uint16) if a.dtype.itemsize == 2 else a for a in arrays])
"""


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32"])
def test_a_real_kernel_jax_dot_product_attention(tmp_path, name, causal):
    """jax.nn.dot_product_attention on CPU, in the kernel's own dtype: its ulps are reported in
    that dtype, it is within a tolerance fit for the dtype, and the oracle agrees with mpmath."""
    import subprocess
    import sys

    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed (it is in the test extra)")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    path = tmp_path / "kernel.npz"
    mode = "causal" if causal else "full"
    run = subprocess.run(
        [sys.executable, "-c", JAX_KERNEL, name, mode, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    dtype = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16, "float32": np.float32}[name]
    with np.load(path) as saved:
        Q, K, V, kernel = (saved[f"arr_{i}"] for i in range(4))
    if name != "float32":  # 16-bit formats travel as their bits
        Q, K, V, kernel = (a.view(dtype) for a in (Q, K, V, kernel))
    report = oracle.compare(kernel, Q, K, V, causal=causal)
    assert report.dtype == name and report.nonfinite == 0
    tolerance = {"float32": (1e-6, 1e-5), "float16": (2e-3, 2e-3), "bfloat16": (2e-2, 2e-2)}[name]
    assert report.max_error(*tolerance) <= 1
    keep = np.tril(np.ones((12, 12), dtype=bool)) if causal else None
    truth = mp_attention(*(a.astype(np.float64) for a in (Q, K, V)), keep=keep)
    worst = max(abs(float(kernel[i, j]) - float(truth[i][j])) for i in range(12) for j in range(8))
    assert report.max_abs_error <= worst <= report.max_abs_error + 1e-12  # a certified lower bound, tight
