"""symattn.rollout and symattn.attention_flow (issue 12) against implementations written here.

Rollout: the matrix product in fractions.Fraction (exact) or mpmath (50 digits).  Attention
flow: the minimum cut of the layered graph by enumerating every cut (max-flow = min-cut),
in Fraction or mpmath; an algorithm of its own, not Edmonds–Karp.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import symattn
from symattn.errors import InputError, ShapeError
from symattn.flow import MAX_LAYERS, decimals

mpmath.mp.dps = 50
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the independent implementations --------------------------------------------------


def _residual(A, one):
    n = len(A)
    return [[A[i][j] / 2 + (one / 2 if i == j else 0) for j in range(n)] for i in range(n)]


def _product(A, B):
    n = len(A)
    return [[sum(A[i][k] * B[k][j] for k in range(n)) for j in range(n)] for i in range(n)]


def _rollout(layers, one, residual=True):
    stack = [_residual(A, one) if residual else A for A in layers]
    total = stack[0]
    for A in stack[1:]:
        total = _product(A, total)
    return total


def _min_cut(layers, source_token, sink_token, one, residual=True):
    """The smallest capacity of a cut separating (0, j) from (L, i), over every cut."""
    stack = [_residual(A, one) if residual else A for A in layers]
    n, depth = len(stack[0]), len(stack)
    nodes = [(level, t) for level in range(depth + 1) for t in range(n)]
    source, sink = (0, source_token), (depth, sink_token)
    others = [v for v in nodes if v not in (source, sink)]
    best = None
    for bits in itertools.product((False, True), repeat=len(others)):
        side = {source} | {v for v, inside in zip(others, bits, strict=True) if inside}
        cut = sum(
            (
                stack[level - 1][i][j]
                for level in range(1, depth + 1)
                for i in range(n)
                for j in range(n)
                if (level - 1, j) in side and (level, i) not in side
            ),
            0 * one,
        )
        best = cut if best is None or cut < best else best
    return best


def _flow(layers, one, residual=True):
    n = len(layers[0])
    return [[_min_cut(layers, j, i, one, residual) for j in range(n)] for i in range(n)]


# --- rational weights: exact equality ---------------------------------------------------


@hs.composite
def stochastic(draw, n, zeros=True):
    """An n × n matrix of Fractions whose rows sum to 1 (some entries exactly 0)."""
    rows = []
    for _ in range(n):
        raw = draw(hs.lists(hs.integers(0 if zeros else 1, 6), min_size=n, max_size=n).filter(any))
        rows.append([Fraction(v, sum(raw)) for v in raw])
    return rows


def _as_text(rows):
    return [[str(v) for v in row] for row in rows]


@SETTINGS
@given(hs.integers(2, 3).flatmap(lambda n: hs.lists(stochastic(n), min_size=1, max_size=3)), hs.booleans())
def test_rollout_of_rational_weights_is_the_exact_product(layers, residual):
    got = symattn.rollout([_as_text(A) for A in layers], residual=residual)
    expected = _rollout(layers, Fraction(1), residual)
    assert [[Fraction(str(got[i, j])) for j in range(got.cols)] for i in range(got.rows)] == expected


@SETTINGS
@given(hs.integers(2, 3).flatmap(lambda n: hs.lists(stochastic(n), min_size=1, max_size=2)), hs.booleans())
def test_flow_of_rational_weights_is_the_exact_minimum_cut(layers, residual):
    got = symattn.attention_flow([_as_text(A) for A in layers], residual=residual)
    expected = _flow(layers, Fraction(1), residual)
    assert [[Fraction(str(got[i, j])) for j in range(got.cols)] for i in range(got.rows)] == expected


def test_a_flow_needs_two_paths_and_a_cancelling_reverse_edge():
    # the flow from token 1 to token 1 is 3/4 + 1/4 along two paths
    layers = [[[1, 0], [1, 0]], [["1/2", "1/2"], [0, 1]]]
    assert symattn.attention_flow(layers)[0, 0] == 1
    fractions_ = [
        [[Fraction(1), Fraction(0)], [Fraction(1), Fraction(0)]],
        [[Fraction(1, 2)] * 2, [0, Fraction(1)]],
    ]
    assert _flow(fractions_, Fraction(1))[0][0] == 1


# --- real attention weights: 30 digits against mpmath -------------------------------------


def _mp(matrix):
    """Exact SymPy entries evaluated by SymPy's own evalf (not symattn's arb code)."""
    return [
        [mpmath.mpf(str(sympy.N(matrix[i, j], 60))) for j in range(matrix.cols)] for i in range(matrix.rows)
    ]


def _close(got_decimals, expected, digits=30):
    for got_row, row in zip(got_decimals, expected, strict=True):
        for text, value in zip(got_row, row, strict=True):
            assert abs(mpmath.mpf(text) - value) <= mpmath.mpf(10) ** -digits


@pytest.fixture(scope="module")
def two_layers():
    X = [[1, 0], [0, 1], [1, 1]]
    first = symattn.attention(X)
    second = symattn.attention(first.output, W_Q=[[1, 1], [0, 1]])
    return first, second


def test_rollout_and_flow_of_two_attention_layers_agree_with_mpmath(two_layers):
    weights = [_mp(att.weights) for att in two_layers]
    _close(decimals(symattn.rollout(list(two_layers)), 30), _rollout(weights, mpmath.mpf(1)))
    flow = symattn.attention_flow(list(two_layers))
    _close(decimals(flow, 30), _flow(weights, mpmath.mpf(1)), digits=29)


def test_a_multihead_layer_is_the_mean_of_its_heads():
    X = [[1, 0], [0, 1], [1, 1]]
    mh = symattn.multihead(X, [(None, None, None), ([[0, 1], [1, 0]], None, None)], W_O=None)
    mean = [
        [(a + b) / 2 for a, b in zip(r1, r2, strict=True)]
        for r1, r2 in zip(*(_mp(h.weights) for h in mh.heads), strict=True)
    ]
    _close(decimals(symattn.rollout([mh], residual=False), 30), mean)


def test_a_transformer_stack_is_read_layer_by_layer():
    X = [[1, 0], [0, 1], [1, 1]]
    ffn = ([[1, -1], [0, 1]], [0, 0], [[1, 0], [0, 1]], [0, 0])
    stack = symattn.transformer(X, layers=[{"heads": [(None, None, None)], "W_O": None, "ffn": ffn}] * 2)
    # the inputs of rollout: the second layer's weights are large DAGs, which SymPy's evalf walks as
    # trees, so they are read from the stack's certified decimals (test_block checks those against
    # mpmath); the rollout and the flow of them are computed here
    weights = [
        [[mpmath.mpf(t) for t in row] for row in layer.decimals("attention.head1.weights", 45)]
        for layer in stack.layers
    ]
    _close(decimals(symattn.rollout(stack), 30), _rollout(weights, mpmath.mpf(1)))
    _close(decimals(symattn.attention_flow(stack), 30), _flow(weights, mpmath.mpf(1)), digits=29)


def test_one_layer_without_the_residual_is_its_weights(two_layers):
    first, _ = two_layers
    assert symattn.rollout([first], residual=False) == first.weights
    assert (
        sympy.expand(symattn.rollout([first])[2, 2] - (first.weights[2, 2] / 2 + sympy.Rational(1, 2))) == 0
    )


# --- bad input: one line naming what was given -------------------------------------------


@pytest.mark.parametrize(
    ("layers", "error", "message"),
    [
        pytest.param([], InputError, "layers must be a non-empty sequence", id="empty"),
        pytest.param(
            [[[1, 0]]],
            ShapeError,
            "layers[1] is 1×2; an attention between the same tokens is square",
            id="not-square",
        ),
        pytest.param(
            [[[1, 0], [0, 1]], [[1]]], ShapeError, "layers[2] has 1 tokens but layers[1] has 2", id="sizes"
        ),
        pytest.param([[["-1/2", "3/2"], [0, 1]]], InputError, "layers[1][1,1] is negative", id="negative"),
        pytest.param([[["a", 0], [0, 1]]], InputError, "layers[1][1,1] has symbols", id="symbols"),
        pytest.param(
            [[[1]]] * (MAX_LAYERS + 1),
            InputError,
            f"{MAX_LAYERS + 1} layers is more than the {MAX_LAYERS}",
            id="deep",
        ),
    ],
)
def test_bad_layers_are_one_line(layers, error, message):
    with pytest.raises(error) as caught:
        symattn.rollout(layers)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_cross_attention_is_refused_by_name():
    cross = symattn.attention([[1, 0]], X_kv=[[1, 0], [0, 1]])
    with pytest.raises(InputError, match=r"^layers\[1\] is a cross-attention \(1 queries, 2 keys\)"):
        symattn.attention_flow([cross])
