"""Properties of the exact engine over random small inputs (Hypothesis).

Three claims of issue 2, checked on integer, rational and decimal-string
inputs, with masks, cross-attention and two heads projected by W_O:

(a) the exact closed forms agree with an independent numpy float64
    reference (stable softmax with max-subtraction, masked weights 0) to
    1e-12, relative to the size of the terms summed;
(b) every row of the weights sums to exactly 1, proved symbolically
    (``sympy.together(sum(row)) == 1``), never by a float check;
(c) every weight satisfies 0 < a <= 1, and a == 0 exactly where masked,
    decided by exact comparisons and rigorous enclosures.

A smaller property runs the same checks on irrational entries (sqrt(2), pi/4,
e, log(2), ...), whose scores the closed forms must order without floats.

The exact values are evaluated with :func:`symattn.exact.enclose` (arb balls
of the closed forms), never through ``float`` on the exact path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import flint
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn.exact import enclose

#: Relative agreement demanded between the exact engine and float64.
REL_TOL = 1e-12
#: Below float64's normal range a relative comparison means nothing.
ABS_FLOOR = 1e-290
#: Working precision (bits) of the enclosures compared with float64.
PREC = 256

PROPERTY_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# --- strategies -------------------------------------------------------------------

ints = st.integers(min_value=-3, max_value=3)
fractions = st.integers(min_value=1, max_value=6).flatmap(
    lambda q: st.builds(Fraction, st.integers(min_value=-3 * q, max_value=3 * q), st.just(q))
)  # p/q in [-3, 3] with q <= 6
fraction_strings = fractions.map(str)  # "-1/2", "3", "5/6"
decimal_strings = st.sampled_from([1, 2]).flatmap(
    lambda places: st.builds(
        lambda k: str(Decimal(k).scaleb(-places)),  # "0.25", "-1.5", "0.00"
        st.integers(min_value=-3 * 10**places, max_value=3 * 10**places),
    )
)
entries = st.one_of(ints, fractions, fraction_strings, decimal_strings)


def matrices(rows: int, cols: int) -> st.SearchStrategy[list[list[Any]]]:
    """rows × cols lists of entries of every supported kind."""
    return st.lists(
        st.lists(entries, min_size=cols, max_size=cols),
        min_size=rows,
        max_size=rows,
    )


@st.composite
def keep_matrices(draw: st.DrawFn, n_q: int, n_k: int) -> list[list[bool]]:
    """Random boolean keep matrices with at least one True in every row."""
    rows = []
    for _ in range(n_q):
        row = draw(st.lists(st.booleans(), min_size=n_k, max_size=n_k))
        if not any(row):
            row[draw(st.integers(min_value=0, max_value=n_k - 1))] = True
        rows.append(row)
    return rows


@st.composite
def masks(draw: st.DrawFn, n_q: int, n_k: int) -> tuple[Any, list[list[bool]] | None]:
    """(the mask as given to symattn, the keep matrix it means)."""
    kind = draw(st.sampled_from(["none", "causal", "boolean", "additive"]))
    if kind == "none":
        return None, None
    if kind == "causal":
        return "causal", [[j <= i for j in range(n_k)] for i in range(n_q)]
    keep = draw(keep_matrices(n_q, n_k))
    if kind == "boolean":
        return keep, keep
    minus_inf = draw(st.sampled_from(["-inf", float("-inf"), "-oo"]))
    return [[0 if k else minus_inf for k in row] for row in keep], keep


@dataclass(frozen=True)
class Case:
    """One random attention problem, in the raw form given to symattn."""

    X: list[list[Any]]
    W_Q: list[list[Any]] | None
    W_K: list[list[Any]] | None
    W_V: list[list[Any]] | None
    X_kv: list[list[Any]] | None
    mask: Any
    keep: list[list[bool]] | None
    scale: str
    temperature: Any

    def options(self) -> dict[str, Any]:
        return {
            "X_kv": self.X_kv,
            "mask": self.mask,
            "scale": self.scale,
            "temperature": self.temperature,
        }


@st.composite
def cases(draw: st.DrawFn, *, cross: bool | None = None, identities: bool | None = None) -> Case:
    """Self- or cross-attention with random weights (or identities) and masks."""
    n = draw(st.integers(min_value=1, max_value=4))
    d = draw(st.integers(min_value=1, max_value=3))
    if cross is None:
        cross = draw(st.booleans())
    m, d_kv = (draw(st.integers(1, 4)), draw(st.integers(1, 3))) if cross else (n, d)
    X = draw(matrices(n, d))
    X_kv = draw(matrices(m, d_kv)) if cross else None
    if identities is None:
        identities = not cross and draw(st.booleans())
    if identities:
        W_Q = W_K = W_V = None  # identities
    else:
        d_k, d_v = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        W_Q, W_K, W_V = draw(matrices(d, d_k)), draw(matrices(d_kv, d_k)), draw(matrices(d_kv, d_v))
    mask, keep = draw(masks(n, m))
    scale = draw(st.sampled_from(["sqrt_dk", "sqrt_dk", "none", "1/2"]))
    temperature = draw(st.sampled_from([1, 1, 2, "0.5"]))
    return Case(X, W_Q, W_K, W_V, X_kv, mask, keep, scale, temperature)


# --- the float64 reference, independent of symattn ------------------------------


#: Irrational entries and their float64 values, for the reference.
IRRATIONALS = {
    "sqrt(2)": math.sqrt(2),
    "-sqrt(3)/2": -math.sqrt(3) / 2,
    "pi/4": math.pi / 4,
    "e": math.e,
    "exp(-1)": math.exp(-1),
    "log(2)": math.log(2),
}


def as_float(value: Any) -> float:
    """An input entry as float64 (Fraction reads "0.25" and "-1/2" itself)."""
    if value in IRRATIONALS:
        return IRRATIONALS[value]
    return float(Fraction(value)) if isinstance(value, str) else float(value)


def float_matrix(rows: list[list[Any]] | None, identity_size: int) -> np.ndarray:
    if rows is None:
        return np.eye(identity_size)
    return np.array([[as_float(v) for v in row] for row in rows], dtype=np.float64)


@dataclass(frozen=True)
class Reference:
    """numpy float64 attention: weights, output, and the size of each output's terms."""

    weights: np.ndarray
    output: np.ndarray
    output_size: np.ndarray  # Σ_j a_ij (|X_kv| |W_V|)_jk: the scale of output[i, k]


def reference_attention(case: Case) -> Reference:
    X = float_matrix(case.X, 0)
    source = float_matrix(case.X_kv, 0) if case.X_kv is not None else X
    W_Q = float_matrix(case.W_Q, X.shape[1])
    W_K = float_matrix(case.W_K, source.shape[1])
    W_V = float_matrix(case.W_V, source.shape[1])
    Q, K, V = X @ W_Q, source @ W_K, source @ W_V
    d_k = W_Q.shape[1]
    scale = {"sqrt_dk": 1 / math.sqrt(d_k), "none": 1.0, "1/2": 0.5}[case.scale]
    scaled = (Q @ K.T) * scale / as_float(case.temperature)
    keep = np.ones(scaled.shape, dtype=bool) if case.keep is None else np.array(case.keep, dtype=bool)
    shifted = np.where(keep, scaled, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)  # stable softmax
    terms = np.where(keep, np.exp(shifted), 0.0)
    weights = terms / terms.sum(axis=1, keepdims=True)
    return Reference(weights, weights @ V, weights @ (np.abs(source) @ np.abs(W_V)))


# --- exact values, evaluated rigorously -------------------------------------------


def exact_float(entry: sympy.Expr) -> float:
    """The float64 nearest the centre of a 256-bit enclosure of an exact entry."""
    return float(enclose(entry, PREC).mid())


def assert_close(exact: sympy.ImmutableMatrix, ref: np.ndarray, size: np.ndarray, what: str) -> None:
    """|exact - ref| <= REL_TOL * size entrywise (size: the magnitude of the terms summed)."""
    assert exact.shape == ref.shape, what
    for i in range(exact.rows):
        for j in range(exact.cols):
            got = exact_float(exact[i, j])
            bound = REL_TOL * max(abs(size[i, j]), ABS_FLOOR)
            assert abs(got - ref[i, j]) <= bound, (
                f"{what}[{i + 1},{j + 1}]: exact {got!r} vs float64 {ref[i, j]!r}"
            )


def decide(predicate, entry: sympy.Expr) -> bool:
    """Evaluate ``predicate(ball)`` on enclosures of rising precision until it is decided.

    ``predicate`` returns True/False when the ball decides, None otherwise.
    """
    prec = 128
    while prec <= 1 << 14:
        verdict = predicate(enclose(entry, prec))
        if verdict is not None:
            return verdict
        prec *= 2
    raise AssertionError(f"undecided at {prec // 2} bits: {entry}")


def positive(ball: flint.arb) -> bool | None:
    if ball > 0:
        return True
    return False if ball <= 0 else None


def below_one(ball: flint.arb) -> bool | None:
    if ball < 1:
        return True
    return False if ball >= 1 else None


def assert_weight_bounds(att: symattn.Attention, keep: list[list[bool]] | None) -> None:
    """0 < a <= 1 everywhere kept, a == 0 exactly where masked; 1 only for a lone key."""
    A = att.weights
    for i in range(A.rows):
        kept = [keep is None or keep[i][j] for j in range(A.cols)]
        for j in range(A.cols):
            a = A[i, j]
            if not kept[j]:
                assert a == 0 and a.is_zero, f"masked weights[{i + 1},{j + 1}] is {a}, not exactly 0"
                continue
            assert a != 0, f"kept weights[{i + 1},{j + 1}] is exactly 0"
            assert decide(positive, a), f"weights[{i + 1},{j + 1}] = {a} is not > 0"
            if sum(kept) == 1:
                assert a == 1, f"the only kept weight of row {i + 1} is {a}, not exactly 1"
            else:
                assert decide(below_one, a), f"weights[{i + 1},{j + 1}] = {a} is not < 1"


def assert_rows_sum_to_one(A: sympy.ImmutableMatrix) -> None:
    for i in range(A.rows):
        total = sympy.together(sum(A.row(i)))
        assert total == 1, f"row {i + 1} sums to {total}, not exactly 1"


# --- (a) agreement with float64 -------------------------------------------------


@PROPERTY_SETTINGS
@given(case=cases())
def test_attention_agrees_with_float64_reference(case: Case) -> None:
    att = symattn.attention(case.X, case.W_Q, case.W_K, case.W_V, **case.options())
    ref = reference_attention(case)
    assert_close(att.weights, ref.weights, ref.weights, "weights")
    assert_close(att.output, ref.output, ref.output_size, "output")


@PROPERTY_SETTINGS
@given(case=cases(cross=True))
def test_cross_attention_agrees_with_float64_reference(case: Case) -> None:
    att = symattn.attention(case.X, case.W_Q, case.W_K, case.W_V, **case.options())
    ref = reference_attention(case)
    assert att.weights.shape == (len(case.X), len(case.X_kv))
    assert_close(att.weights, ref.weights, ref.weights, "weights")
    assert_close(att.output, ref.output, ref.output_size, "output")


@st.composite
def two_head_cases(draw: st.DrawFn) -> tuple[Case, Case, list[list[Any]]]:
    """Two heads sharing X, mask and scale, and a W_O fitting their concatenation."""
    first = draw(cases(cross=False, identities=False))
    d, d_k = len(first.X[0]), draw(st.integers(1, 3))
    d_v = draw(st.integers(1, 3))
    second = Case(
        first.X,
        draw(matrices(d, d_k)),
        draw(matrices(d, d_k)),
        draw(matrices(d, d_v)),
        None,
        first.mask,
        first.keep,
        first.scale,
        first.temperature,
    )
    width = len(first.W_V[0]) + d_v
    W_O = draw(matrices(width, draw(st.integers(1, 3))))
    return first, second, W_O


@PROPERTY_SETTINGS
@given(problem=two_head_cases())
def test_two_heads_with_w_o_agree_with_float64_reference(problem) -> None:
    first, second, W_O = problem
    mh = symattn.multihead(
        first.X,
        heads=[(first.W_Q, first.W_K, first.W_V), (second.W_Q, second.W_K, second.W_V)],
        W_O=W_O,
        **first.options(),
    )
    refs = [reference_attention(first), reference_attention(second)]
    concat = np.hstack([r.output for r in refs])
    concat_size = np.hstack([r.output_size for r in refs])
    W_O_f = float_matrix(W_O, 0)
    # the size of Σ_m concat_im W_O_mk, with each concat entry's own scale
    output_size = concat_size @ np.abs(W_O_f)
    for head, ref in zip(mh.heads, refs, strict=True):
        assert_close(head.weights, ref.weights, ref.weights, "head weights")
    assert_close(mh.concat, concat, concat_size, "concat")
    assert_close(mh.output, concat @ W_O_f, output_size, "output")


irrational_matrices = st.integers(1, 4).flatmap(
    lambda n: st.integers(1, 3).flatmap(
        lambda d: st.lists(
            st.lists(st.one_of(ints, st.sampled_from(sorted(IRRATIONALS))), min_size=d, max_size=d),
            min_size=n,
            max_size=n,
        )
    )
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(X=irrational_matrices, causal=st.booleans())
def test_irrational_entries_agree_with_float64_and_rows_sum_to_one(X, causal) -> None:
    n = len(X)
    keep = [[j <= i for j in range(n)] for i in range(n)] if causal else None
    case = Case(X, None, None, None, None, "causal" if causal else None, keep, "sqrt_dk", 1)
    att = symattn.attention(X, **case.options())
    ref = reference_attention(case)
    assert_close(att.weights, ref.weights, ref.weights, "weights")
    assert_close(att.output, ref.output, ref.output_size, "output")
    assert_rows_sum_to_one(att.weights)
    assert_weight_bounds(att, keep)


# --- compare() accepts the engine's own certified decimals ------------------------


@PROPERTY_SETTINGS
@given(case=cases(), places=st.integers(min_value=1, max_value=6))
def test_compare_accepts_the_certified_decimals(case: Case, places: int) -> None:
    """decimals() (arb fast path) and compare() (exact closed forms) agree on every entry."""
    att = symattn.attention(case.X, case.W_Q, case.W_K, case.W_V, **case.options())
    for name in ("weights", "output"):
        printed = att.decimals(name, places)
        comparison = att.compare(name, printed)
        assert comparison.ok, [(c.row, c.col, c.claim.text, c.decimal) for c in comparison.wrong]


def test_compare_works_for_a_large_score_gap() -> None:
    att = symattn.attention([[2000, 0], [0, 1]])  # scaled scores 2000²/√2 ≈ 2.8·10⁶ and 0
    printed = att.decimals("weights", 4)
    assert printed[0] == ["1.0000", "0.0000"]
    assert att.compare("weights", printed).ok


@pytest.mark.parametrize(
    ("kwargs", "name", "places", "expected"),
    [
        pytest.param({"X": [[1]] * 4}, "weights", 1, [["0.3"] * 4] * 4, id="quarter-rounds-up"),
        pytest.param({"X": [[1], [1]]}, "weights", 0, [["1", "1"]] * 2, id="half-rounds-up"),
        pytest.param(
            {"X": [[1, 0], [1, 0]], "W_V": [["1/4", "-1/4"], [0, 0]]},
            "output",
            1,
            [["0.3", "-0.3"]] * 2,
            id="minus-quarter-rounds-away-from-zero",
        ),
    ],
)
def test_exact_ties_round_half_away_from_zero(kwargs, name, places, expected) -> None:
    kwargs = dict(kwargs)
    att = symattn.attention(kwargs.pop("X"), **kwargs)
    assert att.decimals(name, places) == expected
    if places > 0:  # a claim without a decimal point ("1") claims an exact value
        assert att.compare(name, expected).ok


def test_compare_works_for_a_huge_score_gap() -> None:
    att = symattn.attention([["1e8", 0], [0, 1]])  # scaled scores 10¹⁶/√2 and 0
    printed = att.decimals("weights", 4)
    assert printed[0] == ["1.0000", "0.0000"]
    assert att.compare("weights", printed).ok


# --- (b) rows sum to exactly 1 ----------------------------------------------------


def test_reference_example_rows_sum_to_exactly_one() -> None:
    from symattn.examples import reference

    assert_rows_sum_to_one(reference().run().weights)


@PROPERTY_SETTINGS
@given(case=cases())
def test_rows_sum_to_exactly_one(case: Case) -> None:
    att = symattn.attention(case.X, case.W_Q, case.W_K, case.W_V, **case.options())
    assert_rows_sum_to_one(att.weights)


# --- (c) 0 < a <= 1, and 0 exactly where masked -------------------------------------


def test_reference_example_weights_are_in_the_unit_interval() -> None:
    from symattn.examples import reference

    assert_weight_bounds(reference().run(), None)


@PROPERTY_SETTINGS
@given(case=cases())
def test_weights_are_positive_at_most_one_and_zero_only_where_masked(case: Case) -> None:
    att = symattn.attention(case.X, case.W_Q, case.W_K, case.W_V, **case.options())
    assert_weight_bounds(att, case.keep)


@pytest.mark.parametrize(
    ("mask", "keep"),
    [
        pytest.param("causal", [[True, False, False], [True, True, False], [True, True, True]], id="causal"),
        pytest.param(
            [[False, True, True], [True, False, True], [True, True, False]],
            [[False, True, True], [True, False, True], [True, True, False]],
            id="boolean",
        ),
        pytest.param(
            [["-inf", 0, 0], [0, "-inf", 0], [0, 0, float("-inf")]],
            [[False, True, True], [True, False, True], [True, True, False]],
            id="additive",
        ),
    ],
)
def test_masked_weights_are_exactly_zero_on_the_reference_input(mask, keep) -> None:
    att = symattn.attention([[1, 0], [0, 1], [1, 1]], mask=mask)
    assert_weight_bounds(att, keep)
    assert_rows_sum_to_one(att.weights)


# --- symbolic inputs --------------------------------------------------------------


def test_symbolic_input_gives_closed_forms_and_rows_summing_to_one() -> None:
    att = symattn.attention([["a", "b"], ["c", "d"]])
    a, b, c, d = sympy.symbols("a b c d", real=True)
    half_root2 = sympy.sqrt(2) / 2
    s = [[half_root2 * (a**2 + b**2), half_root2 * (a * c + b * d)],
         [half_root2 * (a * c + b * d), half_root2 * (c**2 + d**2)]]  # fmt: skip
    for i in range(2):
        t = [sympy.exp(s[i][0]), sympy.exp(s[i][1])]
        expected_weights = [t[0] / (t[0] + t[1]), t[1] / (t[0] + t[1])]
        expected_output = [(t[0] * a + t[1] * c) / (t[0] + t[1]), (t[0] * b + t[1] * d) / (t[0] + t[1])]
        for j in range(2):
            assert sympy.together(att.weights[i, j] - expected_weights[j]) == 0
            assert sympy.together(att.output[i, j] - expected_output[j]) == 0
    assert_rows_sum_to_one(att.weights)
    assert att.weights.free_symbols == {a, b, c, d}
    # the closed form, evaluated at a point, matches float64 at that point
    point = {a: 1, b: sympy.Rational(-1, 2), c: 2, d: 3}
    case = Case([[1, "-1/2"], [2, 3]], None, None, None, None, None, None, "sqrt_dk", 1)
    ref = reference_attention(case)
    assert_close(att.weights.subs(point), ref.weights, ref.weights, "weights at a point")
