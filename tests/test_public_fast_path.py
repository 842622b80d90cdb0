"""The public attention path for rational inputs: read in bulk into python-flint, decided and
formatted in bulk, with the SymPy matrices built only when asked for (issue "Certified
attention at the benchmark's pace through the public API")."""

from __future__ import annotations

import random
import sys
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from sympy import ImmutableMatrix

import symattn
from symattn import numeric, stages
from symattn.errors import EmptyMatrixError, RaggedMatrixError, ShapeError
from symattn.exact import IntegerRows, integer_rows, rational_matrix, to_matrix


def _case(kind: str, n: int, d: int, seed: int = 1) -> tuple[list[list[object]], ...]:
    rng = random.Random(f"{kind}-{n}-{d}-{seed}")
    if kind == "int":
        entry = lambda: rng.randint(-3, 3)  # noqa: E731
        return tuple([[entry() for _ in range(d)] for _ in range(rows)] for rows in (n, d, d, d))
    if kind == "rat":
        entry = lambda: Fraction(rng.randint(-10, 10), rng.randint(1, 10))  # noqa: E731
        return tuple([[entry() for _ in range(d)] for _ in range(rows)] for rows in (n, d, d, d))
    # dense: X = p/q with q <= 10, W_Q and W_K in {-1/8, 0, 1/8}
    X = [[Fraction(rng.randint(-10, 10), rng.randint(1, 10)) for _ in range(d)] for _ in range(n)]
    eighths = lambda: [[Fraction(rng.choice((-1, 0, 1)), 8) for _ in range(d)] for _ in range(d)]  # noqa: E731
    return X, eighths(), eighths(), [[Fraction(rng.randint(-4, 4), 3) for _ in range(d)] for _ in range(d)]


def _internal(inputs: tuple[list[list[object]], ...], places: int) -> dict[str, list[list[str]]]:
    """numeric.attention_decimals on the same inputs, read entry by entry through SymPy."""
    X, W_Q, W_K, W_V = (stages.to_fmpq_mat(to_matrix(m, name="M")) for m in inputs)
    scores, V = numeric.exact_products(X, W_Q, W_K, W_V)
    factor = 1 / sympy.sqrt(len(inputs[1][0]))
    return numeric.attention_decimals(scores, factor, None, V, places)


@pytest.mark.parametrize("kind", ["int", "rat", "dense"])
@pytest.mark.parametrize("n", [5, 300])
def test_the_public_decimals_are_the_internal_ones(kind: str, n: int) -> None:
    inputs = _case(kind, n, 8)
    expected = _internal(inputs, 30)
    att = symattn.attention(*inputs)
    assert att.decimals("output", 30) == expected["output"]
    assert att.decimals("weights", 30) == expected["weights"]


def test_numpy_integers_strings_and_flint_read_alike() -> None:
    X, W_Q, W_K, W_V = _case("int", 40, 6)
    expected = symattn.attention(X, W_Q, W_K, W_V).decimals("output", 20)
    as_numpy = [np.array(m, dtype=np.int64) for m in (X, W_Q, W_K, W_V)]
    as_text = [[[str(v) for v in row] for row in m] for m in (X, W_Q, W_K, W_V)]
    as_flint = [flint.fmpz_mat(m) for m in (X, W_Q, W_K, W_V)]
    for inputs in (as_numpy, as_text, as_flint):
        assert symattn.attention(*inputs).decimals("output", 20) == expected
    halves = [["0.5", "-1/4"], [".25", "3"]]
    assert rational_matrix(halves, name="X") == flint.fmpq_mat(
        [[flint.fmpq(1, 2), flint.fmpq(-1, 4)], [flint.fmpq(1, 4), 3]]
    )


def test_the_bulk_reader_hands_everything_else_to_the_entry_reader() -> None:
    for rows in ([[1, "sqrt(2)"]], [[1.5, 2]], [[sympy.Rational(1, 2)]], [["1e-3"]], [[True]], [["1/0"]]):
        assert rational_matrix(rows, name="X") is None
    assert rational_matrix(np.array([[0.5]]), name="X") is None
    with pytest.raises(RaggedMatrixError, match="row 2 has 1 entry but row 1 has 2"):
        rational_matrix([[1, 2], [3]], name="X")
    with pytest.raises(EmptyMatrixError):
        rational_matrix([], name="X")
    with pytest.raises(ShapeError, match="W_Q has 3 rows but X has 2 columns"):
        symattn.attention([[1, 0]], [[1], [0], [0]])


def test_the_sympy_matrices_are_built_on_first_access_and_are_the_same() -> None:
    inputs = _case("rat", 6, 3)
    att = symattn.attention(*inputs)
    assert all(isinstance(att._given[name], IntegerRows) for name in ("X", "W_Q", "W_K", "W_V"))
    att.decimals("output", 10)
    assert isinstance(att._given["X"], IntegerRows)  # the fast path built no SymPy matrix
    old = symattn.attention(*(ImmutableMatrix(to_matrix(m, name="M")) for m in inputs))  # read entry by entry
    assert not isinstance(old._given["X"], flint.fmpq_mat)
    for name in ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "scores", "scaled", "weights", "output"):
        assert att.matrix(name) == old.matrix(name), name
    assert isinstance(att._given["X"], ImmutableMatrix)


@pytest.mark.parametrize("kind", ["int", "dense"])
def test_the_fixed_point_path_makes_no_flint_matrix_of_the_inputs(kind: str) -> None:
    """Inputs read as integers go to numpy for the fixed-point method: no fmpz_mat of X is
    made (python-flint builds one at about 0.15 µs an entry), and the output is the internal one."""
    inputs = _case(kind, 256, 16)
    att = symattn.attention(*inputs)
    assert att.decimals("output", 30) == _internal(inputs, 30)["output"]
    assert att._given["X"]._fmpz is None
    assert att._given["X"].fmpq() == stages.to_fmpq_mat(to_matrix(inputs[0], name="X"))


def test_integer_rows_read_ints_fractions_and_numpy_integers_only() -> None:
    rows = integer_rows([[1, Fraction(1, 2)], [Fraction(-3, 4), 0]], name="X")
    assert (rows.den, rows.numerators, rows.shape) == (4, [4, 2, -3, 0], (2, 2))
    assert rows.fmpq() == flint.fmpq_mat([[1, flint.fmpq(1, 2)], [flint.fmpq(-3, 4), 0]])
    assert rows.array(np).tolist() == [[4, 2], [-3, 0]]
    big = integer_rows([[2**70, 1]], name="X")
    assert big.array(np) is None and big.fmpz() == flint.fmpz_mat([[2**70, 1]])
    assert integer_rows(np.array([[1, -2]], dtype=np.int32), name="X").array(np).tolist() == [[1, -2]]
    wide = [[Fraction(1, p) for p in sympy.primerange(10**6, 10**6 + 400)]]  # an lcm of about 30 · 20 bits
    for rows in ([[1, "1/2"]], [[0.5]], [[True]], np.array([[0.5]]), np.array([[1]], dtype=np.uint64), wide):
        assert integer_rows(rows, name="X") is None
    with pytest.raises(RaggedMatrixError):
        integer_rows([[1, 2], [3]], name="X")


@pytest.mark.parametrize(
    ("inputs", "options"),
    [
        (([[1, 0], [0, 1], [1, 1]],), {}),  # the reference example
        (([[1, "1/2"], [0, 1]], [[1, 0], [0, 2]]), {"mask": "causal"}),
        (([["a", 0], [0, 1]],), {}),  # a symbol: read entry by entry, as before
    ],
)
def test_reference_masked_and_symbolic_inputs_keep_their_exact_stages(inputs: tuple, options: dict) -> None:
    fast = symattn.attention(*inputs, **options)
    slow = symattn.attention(*(ImmutableMatrix(to_matrix(m, name="M")) for m in inputs), **options)
    for name in fast.stage_names:
        assert fast.matrix(name) == slow.matrix(name), name
    if fast.is_rational:
        assert fast.decimals("weights", 12) == _decimals_by_sympy(slow.weights, 12)


def _decimals_by_sympy(matrix: ImmutableMatrix, places: int) -> list[list[str]]:
    from symattn.pipeline import _matrix_decimals

    return _matrix_decimals("weights", matrix, places)


def _python_calls(run) -> int:
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        run()
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("kind", ["int", "rat", "dense"])
def test_python_calls_per_entry_do_not_grow_with_n(kind: str) -> None:
    """Python-level calls of the public path, per entry of the input and the output: bounded by a
    constant whatever n (the work per entry is in C, numpy or one bulk step)."""
    d = 16
    counts = {}
    for n in (64, 256):
        inputs = _case(kind, n, d)
        symattn.attention(*inputs).decimals("output", 30)  # warm: imports and tables
        counts[n] = _python_calls(lambda inputs=inputs: symattn.attention(*inputs).decimals("output", 30))
    entries = {n: n * d + n * d for n in counts}  # X's entries and the output's
    per_entry = (counts[256] - counts[64]) / (entries[256] - entries[64])
    assert per_entry <= 6, (counts, per_entry)


@pytest.mark.parametrize("seed", [1, 2])
def test_bulk_output_decimals_agree_with_the_python_integers_and_the_balls(seed: int) -> None:
    """FixedOutputs.decimals (numpy limbs) equals the same rounding in Python integers, and every
    entry an arb ball decides has the ball's digits (outputs of both signs, near 0, several
    integer digits; 0 to 30 places)."""
    from symattn.exact import Rounder

    rng = random.Random(seed)
    n, d = 200, 8
    X = [[Fraction(rng.randint(-10, 10), rng.randint(1, 10)) for _ in range(d)] for _ in range(n)]
    W = [[Fraction(rng.choice((-1, 0, 1)), 8) for _ in range(d)] for _ in range(d)]
    W_V = [
        [Fraction(rng.randint(-2000, 2000) if j % 2 else rng.randint(-1, 1), 7) for j in range(d)]
        for _ in range(d)
    ]
    scores, V = symattn.attention(X, W, W, W_V)._flint_products
    balls = numeric._row_balls(scores, sympy.Rational(1, 3), None, V, 128, rows=list(range(n)))
    fixed = balls.output_matrix
    assert isinstance(fixed, numeric.FixedOutputs)
    decided = 0
    for places in (0, 1, 4, 30):
        bulk = fixed.decimals(places)
        assert bulk == fixed._decimals_by_ints(places)
        rounder = Rounder.make(places)
        with numeric._precision(128):
            by_balls = [[rounder.decide(ball) for ball in row] for row in fixed.arb_mat().tolist()]
        for ours, theirs in zip(_flat(bulk), _flat(by_balls), strict=True):
            if theirs is not None:
                assert ours == theirs
                decided += 1
        assert not any(text.startswith("-0") and set(text) <= set("-0.") for text in _flat(bulk) if text)
    assert decided >= 2 * n * d  # the balls decided enough entries for the comparison to mean something


def _flat(rows: list[list[str | None]]) -> list[str | None]:
    return [entry for row in rows for entry in row]


@pytest.mark.parametrize("seed", [3, 4])
def test_outputs_without_the_weights_enclose_the_true_outputs(seed: int) -> None:
    """The fixed-point outputs formed from the exponentials and the row reciprocals, without the
    weights (weights=False), overlap 600-bit enclosures of the same outputs everywhere (outputs
    of both signs, several integer digits), and round as the route through the weights does."""
    rng = random.Random(seed)
    n, d = 256, 8
    X = [[Fraction(rng.randint(-10, 10), rng.randint(1, 10)) for _ in range(d)] for _ in range(n)]
    W = [[Fraction(rng.choice((-1, 0, 1)), 8) for _ in range(d)] for _ in range(d)]
    W_V = [[Fraction(rng.randint(-3000, 3000), 7) for _ in range(d)] for _ in range(d)]
    scores, V = symattn.attention(X, W, W, W_V)._flint_products
    factor = sympy.Rational(1, 3)
    without = numeric._row_balls(scores, factor, None, V, 140, weights=False)
    through = numeric._row_balls(scores, factor, None, V, 140)
    assert not without.has_weights and isinstance(without.output_matrix, numeric.FixedOutputs)
    assert through.has_weights and isinstance(through.output_matrix, numeric.FixedOutputs)
    tight = numeric._row_balls(scores, factor, None, V, 600, method="sparse")
    with numeric._precision(600):
        ours = without.output_matrix.arb_mat()
        for i in range(n):
            for k in range(d):
                assert ours[i, k].overlaps(tight.output[i][k]), (i, k)
    for places in (0, 3, 30):
        assert without.output_matrix.decimals(places) == through.output_matrix.decimals(places)
    with pytest.raises(ValueError, match="without the weights"):
        numeric._decide_rows(without, "weights", numeric.Rounder.make(4))


@pytest.mark.parametrize("limbs", [2, 5, 10])  # 10: more than 7 products a column, carried per limb
def test_scaled_numerators_are_the_python_integers(limbs: int) -> None:
    """_scaled_numerators: M·u / 2^P truncated toward zero, in numpy limbs, equals Python's."""
    rng = random.Random(7 + limbs)
    n_r, d_v = 6, 4
    P = numeric.LIMB * limbs
    M = [
        [rng.choice((-1, 1)) * rng.getrandbits(rng.randint(1, P + 40)) for _ in range(d_v)]
        for _ in range(n_r)
    ]
    M[0][0], M[1][1] = 0, -(1 << (P + 39))
    inverses = [rng.randint(1, 1 << P) for _ in range(n_r)]
    inverses[2] = 1 << P
    bits = P + 41
    outputs = -(-(P + 41) // numeric.NUMERATOR_PIECE)
    pieces = []
    for t in range(outputs):
        shift = numeric.NUMERATOR_PIECE * t
        if t < outputs - 1:
            pieces.append(
                np.array([[(m >> shift) & ((1 << 52) - 1) for m in row] for row in M], dtype=np.int64)
            )
        else:
            pieces.append(np.array([[m >> shift for m in row] for row in M], dtype=np.int64))
    scaled = numeric._scaled_numerators(np, pieces, inverses, limbs=limbs, bits=bits)
    got = [
        [
            sum(int(piece[i, k]) << (numeric.NUMERATOR_PIECE * t) for t, piece in enumerate(scaled))
            for k in range(d_v)
        ]
        for i in range(n_r)
    ]
    expected = [
        [(1 if m >= 0 else -1) * ((abs(m) * inverses[i]) >> P) for m in row] for i, row in enumerate(M)
    ]
    assert got == expected


def test_values_from_the_inputs_are_the_lowest_terms() -> None:
    """V's numerators and least common denominator formed in numpy equal python-flint's."""
    rng = random.Random(11)
    X = [[Fraction(rng.randint(-6, 6), rng.choice((2, 4, 6))) for _ in range(5)] for _ in range(30)]
    for W_V in (
        [[Fraction(rng.randint(-9, 9) * 3, 9) for _ in range(5)] for _ in range(5)],
        [[0] * 5 for _ in range(5)],
    ):
        _scores, V = numeric.integer_products(*(integer_rows(m, name="M") for m in (X, X[:5], X[:5], W_V)))
        small, den = numeric._values_from_inputs(np, V.inputs)
        numer, expected_den = V.matrix().numer_denom()
        assert den == int(expected_den)
        assert small.tolist() == [[int(numer[i, k]) for k in range(5)] for i in range(30)]


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix is what is tested
def test_numpy_inputs_are_read_when_given_and_a_matrix_is_an_array() -> None:
    """A numpy array changed after attention() does not change the attention (the bulk reader
    copies it), and an np.matrix reads as the array it holds."""
    X = np.array(_case("int", 200, 8)[0], dtype=np.int64)
    expected = symattn.attention(X.copy()).decimals("output", 20)
    att = symattn.attention(X)
    X[:] = 0
    assert att.decimals("output", 20) == expected
    small = [[1, 0], [0, 1], [1, 1]]
    assert symattn.attention(np.matrix(small)).decimals("weights", 4) == symattn.attention(small).decimals(
        "weights", 4
    )


def test_rational_scores_given_as_one_matrix_take_the_fixed_point_method_when_most_count() -> None:
    """Scores given as an fmpq_mat (no factors to form them from): "auto" reads them into the
    fixed-point method where most exponentials count, as "dense" does."""
    X, W_Q, W_K, W_V = (stages.to_fmpq_mat(to_matrix(m, name="M")) for m in _case("dense", 256, 8))
    scores, V = numeric.exact_products(X, W_Q, W_K, W_V)
    balls = numeric._row_balls(flint.fmpq_mat(scores.numer) / scores.den, sympy.Rational(1, 3), None, V, 140)
    assert isinstance(balls.output_matrix, numeric.FixedOutputs)


def test_a_wide_common_denominator_stops_the_bulk_reader_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of distinct 600-bit denominators: the reader gives up at the first common
    denominator over 256 bits (one lcm, not three thousand of ever wider ones), and the entry
    reader reads them."""
    import math

    from symattn import exact

    calls = []
    lcm = math.lcm

    def counted(*args: int) -> int:
        calls.append(len(args))
        return lcm(*args)

    monkeypatch.setattr(exact.math, "lcm", counted)
    rows = [[Fraction(1, (1 << 600) + 2 * k + 1) for k in range(j * 50, j * 50 + 50)] for j in range(60)]
    assert integer_rows(rows, name="X") is None
    assert sum(calls) <= 4  # the denominators taken into the lcm before it gave up
    monkeypatch.undo()
    assert rational_matrix(rows, name="X")[0, 1] == flint.fmpq(1, (1 << 600) + 3)
