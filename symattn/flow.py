"""Attention rollout and attention flow over stacked layers, exactly (Abnar & Zuidema, 2020).

    rollout(layers, residual=True)         Â_L · … · Â_1,  Â_l = (A_l + I)/2 with the residual
    attention_flow(layers, residual=True)  entry (i, j): the maximum flow from input token j to
                                           output token i through the layered graph of the Â_l

Each layer's attention A_l is the mean of its heads' weights.  ``layers`` is a
:class:`symattn.block.Transformer`, or a sequence of :class:`symattn.block.Layer`
(its self-attention), :class:`~symattn.pipeline.MultiHead`,
:class:`~symattn.pipeline.Attention`, or square weight matrices given directly
(exact, read like any input: "0.1" is 1/10).

The layered graph has a node per token and layer boundary, 0 (the inputs) to L
(the outputs); the edge from token j below layer l to token i above it has the
capacity Â_l[i, j].  The flow is Edmonds–Karp (shortest augmenting paths) on
exact values: every capacity, residual and flow is a SymPy expression, built
structurally (a second layer's weights are large DAGs, and SymPy's evaluating
constructors would question every node), and every comparison is decided by an
arb ball of the difference, memoised per node (:class:`symattn.exact.Enclosure`),
then, when the ball holds 0, by an exact zero test.  An edge is saturated only
when its residual equals the bottleneck exactly (its residual is then set to
the exact 0): a proof, not a float below 1e-12.  The value of each flow is the
sum of its augmentations.  :func:`decimals` certifies either matrix.

Why by hand: max-flow libraries (networkx, scipy) work in floats or integers, not
on exact reals; the graphs here are small (at most :data:`MAX_TOKENS` tokens and
:data:`MAX_LAYERS` layers), so a plain Edmonds–Karp is enough.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn.block import _add, _mul
from symattn.errors import InputError, ShapeError, UndecidedRoundingError, counted
from symattn.exact import Enclosure, _short, to_matrix
from symattn.importance import _is_exact_zero
from symattn.limits import precisions

__all__ = ["MAX_LAYERS", "MAX_TOKENS", "attention_flow", "decimals", "layer_attention", "rollout"]

#: Most tokens, and most layers, a rollout or a flow is computed for (the flows are exact).
MAX_TOKENS = 16
MAX_LAYERS = 12

_HALF = sympy.Rational(1, 2)


def layer_attention(layer: Any, where: str = "layer") -> ImmutableMatrix:
    """The n × n attention of one layer: the mean of its heads' self-attention weights.

    Args:
        layer: a Layer (encoder: "attention"; decoder: "self_attention"), a MultiHead,
            an Attention, or a square matrix of weights.
        where: the layer's name in error messages.

    Raises:
        InputError: a cross-attention (not square), or a layer of an unknown kind.
    """
    from symattn.block import Layer
    from symattn.pipeline import Attention, MultiHead

    if isinstance(layer, Layer):
        block = layer.attention.get("attention") or layer.attention.get("self_attention")
        if block is None:
            raise InputError(f"{where} has no self-attention (it has {', '.join(layer.attention)})")
        layer = block
    if isinstance(layer, MultiHead):
        heads = layer.heads
    elif isinstance(layer, Attention):
        heads = (layer,)
    else:
        heads = None
    if heads is not None:
        if heads[0].is_cross:
            first = heads[0]
            raise InputError(
                f"{where} is a cross-attention ({first.X.rows} queries, {first._source.rows} keys); rollout and "
                "attention flow follow self-attention, where the tokens are the same above and below"
            )
        if len(heads) == 1:
            return ImmutableMatrix(heads[0].weights)
        n, mean = heads[0].weights.rows, sympy.Rational(1, len(heads))
        return ImmutableMatrix(n, n, lambda i, j: _mul(mean, _add(*(head.weights[i, j] for head in heads))))
    matrix = to_matrix(layer, name=where)
    if matrix.rows != matrix.cols:
        raise ShapeError(
            f"{where} is {matrix.rows}×{matrix.cols}; an attention between the same tokens is square"
        )
    return matrix


def _stack(layers: Any, residual: bool) -> list[ImmutableMatrix]:
    """The Â_l of each layer, checked: square, the same size, at most MAX_*, no negative entry."""
    from symattn.block import Layer, Transformer

    if isinstance(layers, Transformer):
        layers = layers.layers
    if not isinstance(layers, Sequence) or isinstance(layers, (str, bytes)) or not layers:
        raise InputError("layers must be a non-empty sequence of layers (or a Transformer)")
    if len(layers) > MAX_LAYERS:
        raise InputError(f"{counted(len(layers), 'layer')} is more than the {MAX_LAYERS} a rollout computes")
    from symattn.pipeline import Attention, MultiHead

    order = _Order()
    out = []
    for k, layer in enumerate(layers, start=1):
        A = layer_attention(layer, f"layers[{k}]")
        softmax = isinstance(layer, (Attention, MultiHead, Layer))  # weights >= 0 by construction
        if A.rows > MAX_TOKENS:
            raise InputError(
                f"layers[{k}] has {A.rows} tokens, more than the {MAX_TOKENS} a rollout computes"
            )
        if out and A.rows != out[0].rows:
            raise ShapeError(f"layers[{k}] has {A.rows} tokens but layers[1] has {out[0].rows}")
        for i in range(A.rows):
            for j in range(A.cols):
                place = f"layers[{k}][{i + 1},{j + 1}]"
                if A[i, j].free_symbols:
                    raise InputError(f"{place} has symbols; the flow needs numbers")
                if not softmax and A[i, j] != 0 and order.sign(A[i, j], place) < 0:
                    raise InputError(f"{place} is negative; attention weights are at least 0")
        if residual:
            A = ImmutableMatrix(
                A.rows, A.cols, lambda i, j, A=A: _add(_mul(_HALF, A[i, j]), _HALF if i == j else 0)
            )
        out.append(A)
    return out


def rollout(layers: Any, residual: bool = True) -> ImmutableMatrix:
    """Attention rollout: Â_L · … · Â_1, exact; entry (i, j) is how much output token i draws on input j.

    Args:
        layers: a Transformer or a sequence of layers (see the module docstring), bottom first.
        residual: Â_l = (A_l + I)/2, the residual connection as Abnar & Zuidema add it;
            False uses A_l itself.

    Raises:
        InputError: no layers, a cross-attention, symbols, a negative weight, or more than
            :data:`MAX_TOKENS` tokens / :data:`MAX_LAYERS` layers.
        ShapeError: layers of different sizes, or a weight matrix that is not square.

    >>> rollout([[[1, 0], [1, 0]], [["1/2", "1/2"], [0, 1]]])   # [[3/4, 1/4], [0, 1]] · [[1, 0], [1/2, 1/2]]
    Matrix([
    [7/8, 1/8],
    [1/2, 1/2]])
    """
    stack = _stack(layers, residual)
    total = stack[0]
    n = total.rows
    for A in stack[1:]:
        total = ImmutableMatrix(
            n, n, lambda i, j, A=A, R=total: _add(*(_mul(A[i, k], R[k, j]) for k in range(n)))
        )
    return total


def attention_flow(layers: Any, residual: bool = True) -> ImmutableMatrix:
    """Attention flow: entry (i, j) is the exact maximum flow from input token j to output token i.

    The capacities are the Â_l of :func:`rollout` on the layered graph (see the module
    docstring).  Exact: the flow's value is a SymPy expression, certified by
    :func:`symattn.importance.decimals`.

    Raises:
        as :func:`rollout`; UndecidedRoundingError if a residual capacity could be
        neither told from 0 nor proved 0.

    >>> attention_flow([[[1, 0], [1, 0]], [["1/2", "1/2"], [0, 1]]])   # 1 = 3/4 + 1/4 by two paths
    Matrix([
    [  1, 1/4],
    [1/2, 1/2]])
    """
    stack = _stack(layers, residual)
    n, order = stack[0].rows, _Order()
    return ImmutableMatrix(n, n, lambda i, j: _max_flow(stack, j, i, order))


def decimals(matrix: ImmutableMatrix, places: int, name: str = "flow") -> list[list[str]]:
    """Certified decimals of a rollout or a flow (memoised balls: each shared node once).

    >>> decimals(rollout([[[1, 0], [1, 0]]]), 3)
    [['1.000', '0.000'], ['0.500', '0.500']]
    """
    from symattn.block import matrix_decimals

    return matrix_decimals(name, matrix, places)


#: Bits of the balls that compare two exact values before an exact zero test is tried.
COMPARE_PREC = 2048
#: Most distinct nodes of a difference given to the exact zero test.
MAX_ZERO_TEST_NODES = 4000


class _Order:
    """Signs and comparisons of exact constants, by balls memoised per node and precision."""

    def __init__(self) -> None:
        self.balls: dict[int, Enclosure] = {}

    def sign(self, value: sympy.Expr, where: str) -> int:
        if value.is_Rational:
            return 1 if value > 0 else -1 if value < 0 else 0
        for prec in precisions(limit=COMPARE_PREC):
            ball = self.balls.setdefault(prec, Enclosure(prec))(value)
            if ball > 0:
                return 1
            if ball < 0:
                return -1
        if _nodes(value) <= MAX_ZERO_TEST_NODES and _is_exact_zero(value):
            return 0
        raise UndecidedRoundingError(f"cannot decide the sign of {where} ({_short(value)})")

    def compare(self, x: sympy.Expr, y: sympy.Expr, where: str) -> int:
        if x == y:
            return 0
        return self.sign(_add(x, _mul(-1, y)), where)


def _nodes(value: sympy.Expr) -> int:
    """The distinct nodes of an expression's DAG (stops counting past the zero test's limit)."""
    seen: set[sympy.Basic] = set()
    stack = [value]
    while stack and len(seen) <= MAX_ZERO_TEST_NODES:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            stack.extend(node.args)
    return len(seen)


def _max_flow(stack: list[ImmutableMatrix], source_token: int, sink_token: int, order: _Order) -> sympy.Expr:
    """Edmonds–Karp from (0, source_token) to (L, sink_token), on exact residual capacities.

    Every residual is known to be positive or exactly 0: a capacity is a weight (positive
    unless exactly 0), and after an augmentation by the bottleneck b an edge keeps
    r − b > 0, becomes exactly 0 (r = b, decided), or, reversed, gets r + b > 0.
    """
    n, depth = stack[0].rows, len(stack)
    # residual[(u, v)] for nodes (layer, token); forward edges (l-1, j) -> (l, i) and their reverses
    residual: dict[tuple[tuple[int, int], tuple[int, int]], sympy.Expr] = {}
    neighbours: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for level, A in enumerate(stack, start=1):
        for i in range(n):
            for j in range(n):
                if A[i, j] == 0:
                    continue
                below, above = (level - 1, j), (level, i)
                residual[(below, above)] = A[i, j]
                residual.setdefault((above, below), sympy.Integer(0))
                neighbours.setdefault(below, []).append(above)
                neighbours.setdefault(above, []).append(below)
    source, sink = (0, source_token), (depth, sink_token)
    flow = sympy.Integer(0)
    while True:
        parent: dict[tuple[int, int], tuple[int, int]] = {source: source}
        queue = deque([source])
        while queue and sink not in parent:
            u = queue.popleft()
            for v in neighbours.get(u, ()):
                if v not in parent and residual[(u, v)] != 0:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return flow
        path, v = [], sink
        while v != source:
            path.append((parent[v], v))
            v = parent[v]
        bottleneck = residual[path[0]]
        for edge in path[1:]:
            if order.compare(residual[edge], bottleneck, "a residual capacity against the bottleneck") < 0:
                bottleneck = residual[edge]
        for u, v in path:
            left = residual[(u, v)]
            same = left is bottleneck or order.compare(left, bottleneck, "a residual capacity") == 0
            residual[(u, v)] = sympy.Integer(0) if same else _add(left, _mul(-1, bottleneck))
            residual[(v, u)] = _add(residual[(v, u)], bottleneck)
        flow = _add(flow, bottleneck)
