"""The arb fast path (symattn.numeric) against the exact symbolic path.

The exact path builds SymPy closed forms (symattn.stages via attention()) and
rounds them with exact.certified_decimal; the fast path must print the same
digits on every entry, for random small inputs with masks, cross-attention,
scales and temperatures.
"""

from __future__ import annotations

import io
import random
import sys
from contextlib import contextmanager
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from symattn import numeric, stages
from symattn.errors import FullyMaskedRowError, InputError, ShapeError
from symattn.exact import certified_decimal, enclose, round_ball
from symattn.numeric import (
    attention_balls,
    attention_decimals,
    exact_products,
    format_units,
    round_units,
)
from symattn.pipeline import attention


def fast_inputs(att):
    """(scores, factor, keep, V) for the fast path, from an exact Attention."""
    keep = None
    if att.mask is not None:
        keep = [[att.mask[i, j] == 0 for j in range(att.mask.cols)] for i in range(att.mask.rows)]
    return stages.to_fmpq_mat(att.scores), att.factor, keep, stages.to_fmpq_mat(att.V)


def exact_decimals(matrix, places):
    return [[certified_decimal(matrix[i, j], places) for j in range(matrix.cols)] for i in range(matrix.rows)]


@contextmanager
def fixed_dense(paired=False):
    """The fixed-point dense method at every size (it serves only large unmasked scores by default)."""
    saved = numeric.FIXED_MIN_ENTRIES, numeric.PAIRED_ENTRIES
    numeric.FIXED_MIN_ENTRIES = 0
    numeric.PAIRED_ENTRIES = 0 if paired else saved[1]
    try:
        yield
    finally:
        numeric.FIXED_MIN_ENTRIES, numeric.PAIRED_ENTRIES = saved


@contextmanager
def arb_dense():
    """The dense method without numpy: every exponential an arb ball (the fixed-point path is off)."""
    saved = numeric._numpy
    numeric._numpy = lambda: None
    try:
        yield
    finally:
        numeric._numpy = saved


def assert_agrees(att, places):
    """The fast methods (sparse, fixed-point dense, arb dense) print exactly the exact path's digits."""
    scores, factor, keep, V = fast_inputs(att)
    expected = {"weights": exact_decimals(att.weights, places), "output": exact_decimals(att.output, places)}
    assert attention_decimals(scores, factor, keep, V, places, method="sparse") == expected, "sparse"
    for paired in (False, True):
        with fixed_dense(paired):
            assert attention_decimals(scores, factor, keep, V, places, method="dense") == expected, paired
    with arb_dense():
        assert attention_decimals(scores, factor, keep, V, places, method="dense") == expected, "arb dense"
    source = None if att.X_kv is None else stages.to_fmpq_mat(att.X_kv)
    int_scores, int_V = exact_products(
        *(stages.to_fmpq_mat(m) for m in (att.X, att.W_Q, att.W_K, att.W_V)), X_kv=source
    )
    assert attention_decimals(int_scores, factor, keep, int_V, places) == expected, "IntegerScores"
    with fixed_dense(paired=True):
        assert attention_decimals(int_scores, factor, keep, int_V, places, method="dense") == expected


# --- a table of hand-picked cases -------------------------------------------------

REFERENCE_X = [[1, 0], [0, 1], [1, 1]]

CASES = [
    pytest.param(dict(X=REFERENCE_X), 4, id="reference-example"),
    pytest.param(dict(X=REFERENCE_X, mask="causal"), 3, id="reference-causal"),
    pytest.param(dict(X=[[0, 0], [0, 0]]), 0, id="uniform-row-tie-half-rounds-up"),
    pytest.param(dict(X=[[0], [0], [0], [0]]), 1, id="quarter-tie-0.25-to-0.3"),
    pytest.param(dict(X=[[1, 2], [3, 4]], W_V=[[sympy.Rational(1, 4), 0], [0, 0]]), 1, id="rational-V"),
    pytest.param(dict(X=[[40, 0], [0, 40]], scale="none"), 6, id="one-hot-skipped-exps"),
    pytest.param(dict(X=[[1, 0], [0, 1]], X_kv=[[1, 1], [2, 0], [0, 3]]), 5, id="cross-attention"),
    pytest.param(dict(X=[["1/2", "-1/3"], ["2/7", 1]], scale="1/3", temperature=2), 7, id="rational-scale"),
    pytest.param(dict(X=[[1, 2, 0], [0, 1, 1]], scale="sqrt(3)"), 5, id="surd-scale"),
    pytest.param(dict(X=[[1, 0], [0, 1], [1, 1]], mask=[[True, False, True]] * 3), 4, id="boolean-mask"),
]


@pytest.mark.parametrize(("kwargs", "places"), CASES)
def test_table_agrees_with_exact_path(kwargs, places):
    assert_agrees(attention(**kwargs), places)


def test_reference_example_digits():
    att = attention(REFERENCE_X)
    fast = attention_decimals(*fast_inputs(att), 4)
    assert fast["weights"][2] == ["0.2483", "0.2483", "0.5035"]
    assert fast["output"][2] == ["0.7517", "0.7517"]


@pytest.mark.parametrize("method", ["sparse", "dense"])
def test_masked_weights_are_exactly_zero(method):
    att = attention(REFERENCE_X, mask="causal")
    weights, _ = attention_balls(*fast_inputs(att), 64, method=method)
    assert weights[0, 1].is_exact() and weights[0, 1].is_zero()
    assert weights[0, 0].contains(1)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param([[-10_000 * k for k in range(16)]], "sparse", id="one-hot"),
        pytest.param([list(range(16))], "dense", id="spread-out"),
    ],
)
def test_auto_method_guess(scores, expected):
    from symattn.numeric import _row_balls

    S = flint.fmpq_mat(scores)
    V = flint.fmpq_mat([[1]] * S.ncols())
    balls = _row_balls(S, sympy.Rational(1, 8), None, V, 128)
    assert (balls.dense is None) == (expected == "sparse")
    assert balls.evaluated == (1 if expected == "sparse" else 16)


def test_unknown_method():
    with pytest.raises(InputError) as err:
        attention_balls(flint.fmpq_mat([[1]]), 1, None, flint.fmpq_mat([[1]]), 64, method="fast")
    assert str(err.value) == "unknown method 'fast' (expected one of auto, sparse, dense)"


# --- random small cases: at least 100 of them -------------------------------------


def entries(rational):
    small_int = st.integers(-3, 3)
    if not rational:
        return small_int
    return st.builds(lambda p, q: f"{p}/{q}", st.integers(-9, 9), st.integers(1, 9))


@st.composite
def attention_cases(draw):
    rational = draw(st.booleans())
    n_q = draw(st.integers(1, 4))
    d_model = draw(st.integers(1, 3))
    d_k = draw(st.integers(1, 3))
    cross = draw(st.booleans())
    n_k = draw(st.integers(1, 4)) if cross else n_q

    def matrix(rows, cols):
        return draw(
            st.lists(st.lists(entries(rational), min_size=cols, max_size=cols), min_size=rows, max_size=rows)
        )

    kwargs = dict(
        X=matrix(n_q, d_model),
        W_Q=matrix(d_model, d_k),
        W_K=matrix(d_model, d_k),
        W_V=matrix(d_model, draw(st.integers(1, 3))),
        scale=draw(st.sampled_from(["sqrt_dk", "none", "1/2", "sqrt(3)"])),
        temperature=draw(st.sampled_from([1, 2, "1/3"])),
    )
    if cross:
        kwargs["X_kv"] = matrix(n_k, d_model)
    mask_kind = draw(st.sampled_from(["none", "causal", "boolean"]))
    if mask_kind == "causal":
        kwargs["mask"] = "causal"
    elif mask_kind == "boolean":
        rows = []
        for _ in range(n_q):
            keep = draw(st.lists(st.booleans(), min_size=n_k, max_size=n_k))
            keep[draw(st.integers(0, n_k - 1))] = True  # every row keeps a key
            rows.append(keep)
        kwargs["mask"] = rows
    return kwargs, draw(st.integers(0, 8))


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(attention_cases())
def test_random_cases_agree_with_exact_path(case):
    kwargs, places = case
    event(f"mask={kwargs.get('mask') and ('causal' if kwargs['mask'] == 'causal' else 'boolean')}")
    event(f"cross={'X_kv' in kwargs}")
    assert_agrees(attention(**kwargs), places)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(attention_cases())
def test_balls_contain_the_exact_values(case):
    kwargs, _ = case
    att = attention(**kwargs)
    for method in ("sparse", "fixed dense", "arb dense"):
        if method == "arb dense":
            with arb_dense():
                weights, output = attention_balls(*fast_inputs(att), 80, method="dense")
        elif method == "fixed dense":
            with fixed_dense(paired=True):
                weights, output = attention_balls(*fast_inputs(att), 80, method="dense")
        else:
            weights, output = attention_balls(*fast_inputs(att), 80, method=method)
        for ball_matrix, exact in ((weights, att.weights), (output, att.output)):
            for i in range(exact.rows):
                for j in range(exact.cols):
                    assert ball_matrix[i, j].contains(enclose(exact[i, j], 400)), (method, i, j)


# --- rounding ---------------------------------------------------------------------


@settings(max_examples=300, derandomize=True)
@given(
    st.fractions(min_value=-50, max_value=50, max_denominator=10**6),
    st.integers(0, 40),
    st.integers(0, 6),
)
def test_round_units_matches_exact_round_ball(mid, rad_exponent, places):
    ball = flint.arb(flint.fmpq(mid.numerator, mid.denominator), flint.arb(2) ** -rad_exponent)
    units = round_units(ball, places)
    assert (None if units is None else format_units(units, places)) == round_ball(ball, places)


@pytest.mark.parametrize(
    ("units", "places", "text"),
    [
        pytest.param(3, 1, "0.3", id="small"),
        pytest.param(-3, 1, "-0.3", id="negative"),
        pytest.param(0, 3, "0.000", id="zero"),
        pytest.param(12345, 2, "123.45", id="wide"),
        pytest.param(7, 0, "7", id="no-places"),
    ],
)
def test_format_units(units, places, text):
    assert format_units(units, places) == text


def test_exact_tie_is_rounded_exactly():
    # one query, four equal scores: every weight is exactly 1/4
    scores = flint.fmpq_mat([[5, 5, 5, 5]])
    V = flint.fmpq_mat([[1], [0], [0], [0]])
    result = attention_decimals(scores, sympy.sqrt(2), None, V, 1)
    assert result == {"weights": [["0.3"] * 4], "output": [["0.3"]]}


# --- errors -----------------------------------------------------------------------


def test_shape_error_names_both_matrices():
    with pytest.raises(ShapeError) as err:
        attention_decimals(flint.fmpq_mat([[1, 2]]), 1, None, flint.fmpq_mat([[1]]), 2)
    assert str(err.value) == "the scores have 2 columns but V has 1 row (scores are 1×2, V is 1×1)"


def test_mask_shape_error():
    with pytest.raises(ShapeError) as err:
        attention_balls(flint.fmpq_mat([[1, 2]]), 1, [[True]], flint.fmpq_mat([[1], [2]]), 64)
    assert str(err.value) == "the mask is 1×1 but the scores are 1×2"


def test_fully_masked_row():
    with pytest.raises(FullyMaskedRowError) as err:
        attention_balls(flint.fmpq_mat([[1, 2]]), 1, [[False, False]], flint.fmpq_mat([[1], [2]]), 64)
    assert str(err.value) == "row 1 of the mask keeps no key, so its softmax is undefined"


# --- progress ---------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    ("stream", "shown"),
    [pytest.param(FakeTerminal(), True, id="terminal"), pytest.param(io.StringIO(), False, id="pipe")],
)
@pytest.mark.parametrize("method", ["sparse", "dense"])
def test_progress_bar_only_on_a_terminal(monkeypatch, stream, shown, method):
    n = 256
    scores = flint.fmpq_mat(n, n, [(i * j) % 7 for i in range(n) for j in range(n)])
    V = flint.fmpq_mat(n, 1, list(range(n)))
    monkeypatch.setattr(sys, "stderr", stream)
    stream.seek(0)
    stream.truncate()
    attention_decimals(scores, sympy.Rational(1, 2), None, V, 3, progress=True, method=method)
    text = stream.getvalue()
    assert ("100%" in text) is shown
    assert (text == "") is not shown


@pytest.mark.parametrize("method", ["auto", "sparse", "dense"])
def test_huge_score_gaps(method):
    scores = flint.fmpq_mat([[0, 10**15, 3], [7, 7, 7]])
    V = flint.fmpq_mat([[1], [2], [4]])
    result = attention_decimals(scores, sympy.sqrt(2), None, V, 3, method=method)
    assert result == {
        "weights": [["0.000", "1.000", "0.000"], ["0.333", "0.333", "0.333"]],
        "output": [["2.000"], ["2.333"]],
    }


def test_scale_must_be_positive():
    with pytest.raises(InputError) as err:
        attention_balls(flint.fmpq_mat([[1]]), -sympy.sqrt(2), None, flint.fmpq_mat([[1]]), 64)
    assert str(err.value) == "the attention scale must be positive, not -sqrt(2)"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_methods_agree_at_scale_with_skipped_exponentials(seed):
    # 48 tokens of integer inputs: nearly one-hot rows, so the sparse method skips
    # most exponentials while the dense one evaluates them all; the digits must match
    rng = random.Random(seed)
    n, d = 48, 16
    X = flint.fmpq_mat(n, d, [rng.randint(-3, 3) for _ in range(n * d)])
    W = [flint.fmpq_mat(d, d, [rng.randint(-3, 3) for _ in range(d * d)]) for _ in range(3)]
    scores, V = (X * W[0]) * (X * W[1]).transpose(), X * W[2]
    keep = [[j <= i or (i + j) % 3 == 0 for j in range(n)] for i in range(n)]
    for mask in (None, keep):
        sparse = attention_decimals(scores, sympy.Rational(1, 4), mask, V, 30, method="sparse")
        dense = attention_decimals(scores, sympy.Rational(1, 4), mask, V, 30, method="dense")
        assert sparse == dense
    from symattn.numeric import _row_balls

    assert _row_balls(scores, sympy.Rational(1, 4), None, V, 128, method="sparse").evaluated < n * n // 4


ONE = flint.fmpq_mat([[1]])
ROW = flint.fmpq_mat([[1, 2]])


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        pytest.param(
            (ROW, ONE, ONE, ONE), {}, "W_Q has 1 row but X has 2 columns (X is 1×2, W_Q is 1×1)", id="W_Q"
        ),
        pytest.param(
            (ONE, ONE, ONE, ONE),
            {"X_kv": ROW},
            "W_K has 1 row but X_kv has 2 columns (X_kv is 1×2, W_K is 1×1)",
            id="cross-W_K",
        ),
        pytest.param(
            (ONE, ONE, ROW, ONE),
            {},
            "W_Q has 1 column but W_K has 2; queries and keys need the same d_k",
            id="d_k",
        ),
    ],
)
def test_exact_products_shape_errors(args, kwargs, message):
    with pytest.raises(ShapeError) as err:
        exact_products(*args, **kwargs)
    assert str(err.value) == message


# --- the fixed-point dense method -------------------------------------------------


@settings(max_examples=200, derandomize=True)
@given(st.integers(2, 5), st.data())
def test_limb_product_is_within_its_truncation(limbs, data):
    # random fixed-point numbers in [0, 1] (top limb up to 2^30 only for 1 itself), and 1·1
    count = 8
    values = [data.draw(st.integers(0, 1 << (30 * limbs))) for _ in range(2 * count)]
    A = numeric._to_limbs(np, values[:count], limbs)
    B = numeric._to_limbs(np, values[count:], limbs)
    Z = numeric._fixed_mul(np, A, B)
    for i in range(count):
        z = sum(int(Z[k, i]) << (30 * k) for k in range(limbs))
        exact = values[i] * values[count + i]
        shortfall = Fraction(exact, 1 << (30 * limbs)) - z
        assert 0 <= shortfall < numeric.TRUNCATION
    one = numeric._to_limbs(np, [1 << (30 * limbs)], limbs)
    assert (numeric._fixed_mul(np, one, one) == one).all()


@settings(max_examples=60, derandomize=True)
@given(st.integers(1, 64), st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32))
def test_integer_scores_from_factors_are_exact(d, bits_left, bits_right, seed):
    rng = random.Random(seed)
    left = flint.fmpz_mat(5, d, [rng.randint(-(2**bits_left), 2**bits_left) for _ in range(5 * d)])
    right = flint.fmpz_mat(7, d, [rng.randint(-(2**bits_right), 2**bits_right) for _ in range(7 * d)])
    numer = left * right.transpose()
    v = numeric._integer_scores(np, numeric.IntegerScores(numer, 1, left, right), (4, 0, 2))
    exact = [[int(numer[i, j]) for j in range(7)] for i in (4, 0, 2)]
    if v is None:  # only when the scores do not fit below 2^61
        assert max(abs(int(x)) for x in numer.entries()) >= 2**61
    else:
        assert v.tolist() == exact


def test_fixed_point_path_serves_unmasked_integer_scores():
    rng = random.Random(7)
    n, d = 40, 8
    X, W_Q, W_K, W_V = (
        flint.fmpq_mat(rows, d, [flint.fmpq(rng.randint(-5, 5), rng.randint(1, 6)) for _ in range(rows * d)])
        for rows in (n, d, d, d)
    )
    scores, V = exact_products(X, W_Q, W_K, W_V)
    from symattn.numeric import _row_balls

    with fixed_dense():
        fixed = _row_balls(scores, sympy.sqrt(2) / 4, None, V, 128, method="dense")
    assert fixed.output_matrix is not None  # the fixed-point method ran
    with arb_dense():
        balls = _row_balls(scores, sympy.sqrt(2) / 4, None, V, 128, method="dense")
    assert balls.output_matrix is None
    for name in ("weights", "output"):
        args = (scores, sympy.sqrt(2) / 4, None, V, 30)
        with arb_dense():
            expected = attention_decimals(*args, want=(name,), method="dense")
        for paired in (False, True):
            with fixed_dense(paired):
                assert attention_decimals(*args, want=(name,), method="dense") == expected


def test_dense_method_falls_back_to_arb_for_huge_scores():
    scores = flint.fmpq_mat([[0, 10**20, 3], [7, 7, 7]])
    V = flint.fmpq_mat([[1], [2], [4]])
    from symattn.numeric import _row_balls

    with fixed_dense():
        assert _row_balls(scores, sympy.sqrt(2), None, V, 128, method="dense").output_matrix is None
        result = attention_decimals(scores, sympy.sqrt(2), None, V, 3, method="dense")
    assert result == {
        "weights": [["0.000", "1.000", "0.000"], ["0.333", "0.333", "0.333"]],
        "output": [["2.000"], ["2.333"]],
    }


def test_fixed_point_method_serves_large_unmasked_scores_only():
    from symattn.numeric import _row_balls

    n = 192  # 36,864 weights: over FIXED_MIN_ENTRIES
    scores = flint.fmpq_mat(n, n, [(i * j) % 11 for i in range(n) for j in range(n)])
    V = flint.fmpq_mat(n, 1, list(range(n)))
    assert n * n >= numeric.FIXED_MIN_ENTRIES
    assert _row_balls(scores, sympy.Rational(1, 3), None, V, 128, method="dense").output_matrix is not None
    keep = [[j <= i for j in range(n)] for i in range(n)]
    assert _row_balls(scores, sympy.Rational(1, 3), keep, V, 128, method="dense").output_matrix is None
    small = flint.fmpq_mat([[1, 2], [3, 4]])
    balls = _row_balls(small, sympy.Rational(1, 3), None, flint.fmpq_mat([[1], [2]]), 128, method="dense")
    assert balls.output_matrix is None


@settings(max_examples=40, derandomize=True)
@given(st.integers(0, 6), st.integers(0, 5), st.integers(1, 63), st.integers(0, 2**32))
def test_small_ints_reads_every_entry_or_declines(rows, cols, bits, seed):
    rng = random.Random(seed)
    values = [rng.randint(-(2**bits), 2**bits) for _ in range(rows * cols)]
    M = flint.fmpz_mat(rows, cols, values)
    read = numeric._small_ints(np, M)
    if read is None:  # only when an entry may reach 2^62
        assert bits >= 56
    else:
        assert read.shape == (rows, cols) and read.ravel().tolist() == values


def test_fixed_point_method_at_its_default_sizes_prints_the_arb_digits():
    # 384 tokens of small rationals: a spread-out softmax, 147,456 weights (paired table levels)
    rng = random.Random(11)
    n, d = 384, 16

    def matrix(rows):
        return flint.fmpq_mat(
            rows, d, [flint.fmpq(rng.randint(-4, 4), rng.randint(1, 4)) for _ in range(rows * d)]
        )

    scores, V = exact_products(matrix(n), matrix(d), matrix(d), matrix(d))
    from symattn.numeric import _row_balls

    assert n * n >= numeric.PAIRED_ENTRIES
    assert _row_balls(scores, sympy.Rational(1, 4), None, V, 128, method="dense").output_matrix is not None
    fixed = attention_decimals(scores, sympy.Rational(1, 4), None, V, 30, method="dense")
    with arb_dense():
        assert attention_decimals(scores, sympy.Rational(1, 4), None, V, 30, method="dense") == fixed


# --- exact float64 products and the float pieces of the fixed-point method ------------


def _limbs_of(values, limbs):
    return numeric._to_limbs(np, values, limbs)


def _value(W, index):
    return sum(int(W[k, index]) << (30 * k) for k in range(W.shape[0]))


@settings(max_examples=60, derandomize=True)
@given(st.integers(1, 70), st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32), st.booleans())
def test_exact_product_matches_integer_arithmetic(d, bits_left, bits_right, seed, extreme):
    # the caller guarantees |L·Rᵀ| < 2^60; extreme: every entry at its largest magnitude, one sign
    # per row, so that every partial sum is as large as it can be
    rng = random.Random(seed)
    while d * 2 ** (bits_left + bits_right) >= 2**60:
        bits_left, bits_right = max(1, bits_left - 1), max(1, bits_right - 1)
        if bits_left == bits_right == 1:
            break
    if d * 2 ** (bits_left + bits_right) >= 2**60:
        return
    top_left, top_right = 2**bits_left - 1, 2**bits_right - 1

    def entry(top):
        return rng.choice([-top, top]) if extreme else rng.randint(-top, top)

    L = [[entry(top_left) for _ in range(d)] for _ in range(5)]
    R = [[entry(top_right) for _ in range(d)] for _ in range(6)]
    v = numeric._exact_product(np, np.array(L, dtype=np.int64), np.array(R, dtype=np.int64))
    assert v.tolist() == [[sum(a * b for a, b in zip(row, col, strict=True)) for col in R] for row in L]


def test_pieces_recombine_and_stay_in_range():
    values = np.array([[0, 1, -1, 2**40 - 1, -(2**40)], [2**61, -(2**61), 12345, -54321, 7]], dtype=np.int64)
    for width in (8, 14, 23):
        pieces = numeric._pieces(np, values, width)
        total = sum(piece.astype(object) * 2 ** (width * t) for t, piece in enumerate(pieces))
        assert total.tolist() == values.astype(object).tolist()
        for piece in pieces[:-1]:
            assert piece.min() >= 0 and piece.max() < 2**width
        assert -(2 ** (width - 1)) <= pieces[-1].min() and pieces[-1].max() < 2 ** (width - 1)


def _blas_case(*, n_r, n_k, d_v, limbs, v_bits, seed, adversarial):
    """Fixed-point weights Z (rows sum to at most 2^P, as the method guarantees) and V."""
    rng = random.Random(seed)
    P = 30 * limbs
    rows = []
    for i in range(n_r):
        if adversarial and i == 0:  # every limb but the top one at 2^30 - 1: the largest partial sums
            rows.append([2 ** (30 * (limbs - 1)) - 1] * n_k)
        elif adversarial and i == 1:  # one weight 1 (top limb exactly 2^30)
            rows.append([2**P] + [0] * (n_k - 1))
        else:
            cuts = sorted(rng.randint(0, 2**P) for _ in range(n_k - 1))
            rows.append([b - a for a, b in zip([0, *cuts], [*cuts, 2**P], strict=True)])
    top = 2**v_bits - 1
    if adversarial:  # the largest magnitudes, both signs, so every V piece is at its limit
        V = [[rng.choice([-top, top]) for _ in range(d_v)] for _ in range(n_k)]
    else:
        V = [[rng.randint(-top, top) for _ in range(d_v)] for _ in range(n_k)]
    W = _limbs_of([z for row in rows for z in row], limbs)
    return rows, V, W


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            dict(n_r=3, n_k=512, d_v=4, limbs=4, v_bits=27, adversarial=True), id="n_k-512-adversarial"
        ),
        pytest.param(
            dict(n_r=3, n_k=513, d_v=3, limbs=4, v_bits=27, adversarial=True), id="n_k-513-narrower"
        ),
        pytest.param(dict(n_r=4, n_k=40, d_v=5, limbs=4, v_bits=61, adversarial=False), id="61-bit-V"),
        pytest.param(dict(n_r=3, n_k=64, d_v=2, limbs=2, v_bits=10, adversarial=True), id="two-limbs"),
        pytest.param(dict(n_r=3, n_k=100, d_v=3, limbs=9, v_bits=30, adversarial=True), id="nine-limbs"),
        pytest.param(dict(n_r=5, n_k=7, d_v=1, limbs=4, v_bits=1, adversarial=False), id="tiny-V"),
    ],
)
def test_blas_numerators_are_exact(case):
    # against exact integer arithmetic; adversarial: partial sums at the limit of the piece widths
    n_r, n_k, d_v = case["n_r"], case["n_k"], case["d_v"]
    rows, V, W = _blas_case(**case, seed=n_k + case["v_bits"])
    result = numeric._blas_numerators(np, W, np.array(V, dtype=np.int64), n_r=n_r, n_k=n_k)
    assert result is not None
    for piece in result[:-1]:
        assert piece.min() >= 0 and piece.max() < 2**52
    assert np.abs(result[-1]).max() <= 2**52  # every piece is a float64 exactly
    for i in range(n_r):
        for k in range(d_v):
            exact = sum(rows[i][j] * V[j][k] for j in range(n_k))
            assert sum(int(piece[i, k]) << (52 * t) for t, piece in enumerate(result)) == exact


def test_blas_numerators_decline_what_they_cannot_do_exactly():
    # 4 keys: pieces of 21 bits, a 61-bit V in 3 of them
    W = _limbs_of([2**120] * 4, 4)
    assert numeric._blas_numerators(np, W, np.full((4, 1), 2**61, dtype=np.int64), n_r=1, n_k=4) is not None
    # 2^14 keys: pieces of 9 bits, so a 61-bit V needs 7 (over MAX_PIECES), a 45-bit one 6
    many = _limbs_of([0] * (1 << 14), 4)
    for bits, declined in ((61, True), (45, False)):
        V = np.full((1 << 14, 1), 2**bits, dtype=np.int64)
        assert (numeric._blas_numerators(np, many, V, n_r=1, n_k=1 << 14) is None) is declined
    # 2^16 keys: pieces of 7 bits, too narrow
    wide = _limbs_of([0] * (1 << 16), 4)
    assert (
        numeric._blas_numerators(np, wide, np.ones((1 << 16, 1), dtype=np.int64), n_r=1, n_k=1 << 16) is None
    )


@pytest.mark.parametrize("limbs", [2, 4, 5, 9, 15])
def test_float_weights_enclose_the_fixed_point_interval(limbs):
    # Z·2^-P ± largest·2^-P must lie in every ball, which is at most twice as wide as needed
    P = 30 * limbs
    rng = random.Random(limbs)
    values = [0, 1, 2**P, 2**P - 1, 2 ** (P - 1), 2**52, 2**53 + 1] + [rng.randint(0, 2**P) for _ in range(9)]
    W = _limbs_of(values, limbs)
    largest = 37
    balls = numeric._float_weights(np, W, 4, 4, largest=largest)
    count = max(2, -(-(P - 15) // 53))
    cut = max(0, P - (53 * count - 1))
    with numeric._precision(P + 16):
        for index, z in enumerate(values):
            ball = balls[index // 4, index % 4]
            for end in (z - largest, z + largest):
                assert ball.contains(flint.fmpq(end, 2**P))
            assert ball.rad() <= flint.arb(4 * (largest + 2**cut)) / 2**P


def _counting(monkeypatch, name):
    """Count the calls of numeric.<name> (still calling it)."""
    calls = []
    original = getattr(numeric, name)

    def counted(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(numeric, name, counted)
    return calls


@pytest.mark.parametrize(("bound", "path"), [(10**20, "_chunk_balls"), (10**3, "_blas_numerators")])
def test_fixed_point_method_falls_back_to_fmpz_products_for_wide_values(monkeypatch, bound, path):
    # V's numerators beyond 2^62 cannot enter the float64 products: the fmpz_mat products run
    rng = random.Random(5)
    n, d = 40, 4
    scores = flint.fmpq_mat(n, n, [flint.fmpq(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(n * n)])
    V = flint.fmpq_mat(n, d, [flint.fmpq(rng.randint(-bound, bound), 3) for _ in range(n * d)])
    args = (scores, sympy.Rational(1, 3), None, V, 30)
    names = ("_chunk_balls", "_blas_numerators", "_float_weights")
    calls = {name: _counting(monkeypatch, name) for name in names}
    with fixed_dense():
        fixed = attention_decimals(*args, method="dense")
    assert calls[path] and not calls[({"_chunk_balls", "_blas_numerators"} - {path}).pop()]
    # the decimals come from the fixed-point integers: no python-flint ball of a weight is built
    assert not calls["_float_weights"]
    with arb_dense():
        assert attention_decimals(*args, method="dense") == fixed
    for exact, ball in zip(_exact_balls_check(scores, V), _balls_of(args), strict=True):
        assert ball.contains(exact)


def _exact_balls_check(scores, V):
    """The exact weights and outputs of row 0 (SymPy), for containment."""
    n = scores.nrows()
    exps = [
        sympy.exp(sympy.Rational(1, 3) * sympy.Rational(int(scores[0, j].p), int(scores[0, j].q)))
        for j in range(n)
    ]
    total = sum(exps)
    weights = [e / total for e in exps]
    outputs = [
        sum(w * sympy.Rational(int(V[j, k].p), int(V[j, k].q)) for j, w in enumerate(weights))
        for k in range(V.ncols())
    ]
    return [enclose(x, 200) for x in weights + outputs]


def _balls_of(args):
    scores, factor, keep, V, _ = args
    with fixed_dense():
        weights, output = attention_balls(scores, factor, keep, V, 128, method="dense")
    return [weights[0, j] for j in range(weights.ncols())] + [output[0, k] for k in range(output.ncols())]


def test_fixed_point_method_declines_more_limbs_than_a_column_holds():
    # at 15 limbs a column of products plus its carry still fits in 64 bits; beyond, arb runs
    n = 192
    scores = flint.fmpq_mat(n, n, [(i * j) % 11 for i in range(n) for j in range(n)])
    V = flint.fmpq_mat(n, 1, list(range(n)))
    from symattn.numeric import _row_balls

    assert (
        _row_balls(scores, sympy.Rational(1, 3), None, V, 30 * 15 + 8, method="dense").output_matrix
        is not None
    )
    assert (
        _row_balls(scores, sympy.Rational(1, 3), None, V, 30 * 15 + 9, method="dense").output_matrix is None
    )


def test_integer_scores_compute_their_numerators_only_when_asked():
    left = flint.fmpz_mat([[1, 2], [3, 4], [5, 6]])
    right = flint.fmpz_mat([[1, -1], [0, 2]])
    scores = numeric.IntegerScores(None, 7, left, right)
    assert (scores.nrows(), scores.ncols()) == (3, 2)
    assert scores.numer_rows([2, 0]).tolist() == [[-1, 12], [-1, 4]]
    assert scores.given_numer is None
    assert scores[1, 1] == flint.fmpq(8, 7)
    assert scores.numer == left * right.transpose()
    with pytest.raises(ValueError):
        numeric.IntegerScores(None, 1, left, None)


@pytest.mark.parametrize("rate", ["1/3", "1/40327580160000", "7"])
def test_exp_tables_are_below_their_exponentials_within_their_error(rate):
    # every table entry lies in [2^P·x - error, 2^P·x] for its exponential x (checked at 400 bits)
    limbs, P, levels = 4, 120, 3
    p, q = map(int, rate.split("/")) if "/" in rate else (int(rate), 1)
    with numeric._precision(P + 32):
        tables, errors = numeric._exp_tables(np, flint.arb(p) / q, levels, limbs, P)
    assert all(1 <= error < Fraction(11, 10) for error in errors)  # just over the 1 unit of a floor
    with numeric._precision(400):
        for level, (table, error) in enumerate(zip(tables, errors, strict=True)):
            for a in range(0, 256, 5):
                entry = _value(table, a)
                true = (-(flint.arb(p) / q) * (a << (8 * level))).exp() * 2**P
                bound = flint.fmpq(error.numerator, error.denominator)
                assert entry <= true.upper() and entry >= true.lower() - bound


@pytest.mark.parametrize("prec", [64, 200, 256, 458])
def test_fixed_point_balls_contain_the_arb_balls_at_every_precision(monkeypatch, prec):
    # 2 to 15 limbs (2 to 9 float64 pieces a weight): the fixed-point balls must contain the arb
    # dense method's balls at twice the precision, and be about as narrow as the precision allows
    rng = random.Random(prec)
    n, d = 36, 3
    scores = flint.fmpq_mat(n, n, [flint.fmpq(rng.randint(-9, 9), rng.randint(1, 7)) for _ in range(n * n)])
    V = flint.fmpq_mat(n, d, [flint.fmpq(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(n * d)])
    from symattn.numeric import _row_balls

    calls = _counting(monkeypatch, "_blas_numerators")
    with fixed_dense():
        fixed = _row_balls(scores, sympy.sqrt(3) / 5, None, V, prec, method="dense")
    assert fixed.output_matrix is not None and calls  # the float64 pieces served
    assert isinstance(fixed.dense, numeric.FixedWeights)  # read below through its arb_mat
    with arb_dense():
        arb = _row_balls(scores, sympy.sqrt(3) / 5, None, V, 2 * prec, method="dense")  # narrower balls
    with numeric._precision(2 * prec):
        for i in range(n):
            for j in range(n):
                assert fixed.dense[i, j].contains(arb.dense[i, j])  # so the true weight is inside
                assert fixed.dense[i, j].rad() < flint.arb(2) ** (40 - prec)
            for k in range(d):
                assert fixed.output_matrix[i, k].contains(arb.output[i][k])
                assert fixed.output_matrix[i, k].rad() < flint.arb(2) ** (40 - prec)


# --- decimals straight from the fixed-point integers (FixedWeights.decimals) -----------------


def _limb_array(values, limbs):
    """Integers in [0, 2^(30·limbs)] as 30-bit limbs (the top one takes the rest), written here."""
    rows = [[(v >> (30 * k)) & ((1 << 30) - 1) for v in values] for k in range(limbs - 1)]
    rows.append([v >> (30 * (limbs - 1)) for v in values])
    return np.array(rows, dtype=np.uint64)


def _expected_text(z, radius, P, places):
    """Every point of [max(0, z - r), z + r]·2^-P rounded half away from zero, in Fractions; None
    when the two ends round apart (the rounding is monotone, so the ends decide)."""
    low, high = Fraction(max(0, z - radius), 2**P), Fraction(z + radius, 2**P)
    units = {int(end * 10**places + Fraction(1, 2)) for end in (low, high)}  # int() floors: ends >= 0
    if len(units) > 1:
        return None
    (u,) = units
    return f"{u // 10**places}.{u % 10**places:0{places}d}"


def _near_boundaries(draw_k, places, P):
    """Fixed-point integers a few units either side of a rounding boundary (k + 1/2)·10^-places."""
    centre = ((2 * draw_k + 1) << P) // (2 * 10**places)
    return [max(0, centre + delta) for delta in range(-3, 4)]


@settings(max_examples=150, derandomize=True)
@given(
    st.sampled_from([2, 4, 5, 9]),
    st.integers(1, 40),
    st.lists(st.integers(0, 2**270), min_size=1, max_size=6),
    st.integers(0, 10**12),
    st.sampled_from([0, 1, 2, 3, 37, 2**20]),
)
def test_fixed_decimals_round_every_point_of_the_ball_alike(limbs, places, raw, k, radius):
    P = 30 * limbs
    values = [v % (2**P + 1) for v in raw] + _near_boundaries(k % 10**places, places, P) + [0, 2**P]
    W = _limb_array(values, limbs)
    got = numeric._fixed_decimals(np, W, [radius], n_r=1, n_k=len(values), places=places)
    assert got is not None
    expected = [_expected_text(z, radius, P, places) for z in values]
    assert got == [expected]
    event(f"undecided: {sum(text is None for text in expected) > 0}")


def test_fixed_decimals_take_each_rows_radius_and_decline_what_is_not_a_weight():
    P, places = 120, 6
    z = ((2 * 123 + 1) << P) // (2 * 10**places)  # just below the boundary 0.0001235
    W = _limb_array([z, z, z, z], 4)
    # row 0 with radius 0 is decided, row 1 with a radius across the boundary is not
    assert numeric._fixed_decimals(np, W, [0, 2**70], n_r=2, n_k=2, places=places) == [
        ["0.000123", "0.000123"],
        [None, None],
    ]
    assert (
        numeric._fixed_decimals(np, W, [0, 0], n_r=2, n_k=2, places=0) is None
    )  # no places: the arb path rounds
    assert (
        numeric._fixed_decimals(np, _limb_array([10 * 2**P], 4), [0], n_r=1, n_k=1, places=places) is None
    )  # 10.0


def test_the_fixed_point_route_builds_no_weight_ball_unless_asked(monkeypatch):
    # attention_balls returns the fixed-point enclosure; python-flint balls of the weights are made
    # only when read, once, and they contain the true weights
    rng = random.Random(11)
    n, d = 200, 2
    scores = flint.fmpq_mat(n, n, [flint.fmpq(rng.randint(-9, 9), rng.randint(1, 7)) for _ in range(n * n)])
    V = flint.fmpq_mat(n, d, [flint.fmpq(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(n * d)])
    calls = _counting(monkeypatch, "_float_weights")
    with fixed_dense():
        weights, _ = attention_balls(scores, sympy.Rational(1, 4), None, V, 128, method="dense")
    assert isinstance(weights, numeric.FixedWeights) and not calls
    assert (weights.nrows(), weights.ncols(), weights.precision) == (n, n, 120)
    with numeric._precision(200):
        exps = [sympy.exp(sympy.Rational(int(scores[3, j].p), 4 * int(scores[3, j].q))) for j in range(n)]
        total = sum(exps)
        for j in (0, 7, 199):
            assert weights[3, j].contains(enclose(exps[j] / total, 200))
    assert weights.tolist()[3][7] is not None and len(weights.entries()) == n * n
    ones = flint.arb_mat(n, 1, [1] * n)
    with numeric._precision(128):
        assert all((weights * ones)[i, 0].contains(1) for i in range(n))  # arithmetic as an arb_mat
        assert (2 * weights)[3, 7].contains(2 * weights[3, 7].mid())
    assert len(calls) == 1  # one arb_mat, reused
