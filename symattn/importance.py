"""How much does each token matter?  Exact attribution for one attention layer.

    importance(layer, method) -> n_q × n_k ImmutableMatrix, entry (i, j) = token j's share in output i
      "weights"        a_ij                                        (the softmax weights)
      "norm"           ‖a_ij v_j‖₂ = a_ij · sqrt(Σ_k v_jk²)        (Kobayashi et al., 2020)
      "norm_output"    ‖Σ_h a^h_ij v^h_j W_O^h‖₂                   (the same, through W_O; MultiHead)
      "value_zeroing"  1 − cos(o_i with v_j zeroed, o_i)           (Mohebbi et al., 2023)
      "grad_input"     (∂T(o_i)/∂x_j) · x_j, T = ‖o_i‖² or w·o_i    (gradient × input)
      "jacobian"       ‖∂o_i/∂x_j‖_F                               (the exact Jacobian's size)
    jacobian(layer, i, j) -> the d_v × d_model block ∂o_i/∂x_j, 0-based
    ranking(row)          -> tokens from most to least important, exact ties grouped

The Jacobian is built in closed form by the chain rule, never by differentiating
the output's expression: with s_il = c q_i·k_l and a_i = softmax(s_i),

    ∂o_i/∂x_m = Vᵀ (diag(a_i) − a_i a_iᵀ) ∂s_i/∂x_m + a_im W_Vᵀ,
    ∂s_il/∂x_m = c (δ_im k_l W_Qᵀ + δ_lm q_i W_Kᵀ),

where in self-attention X feeds Q, K and V (both δ terms), and in cross-attention
x_m is a row of X_kv (only the key and value terms).  Every result is exact
(SymPy expressions, square roots kept as square roots, nothing simplified);
:func:`decimals` gives certified decimals of any of them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import (
    InputError,
    NotNumericError,
    ShapeError,
    UndecidedRoundingError,
    counted,
)
from symattn.exact import (
    MAX_PREC,
    START_PREC,
    _as_expr,
    _short,
    certified_decimal,
    enclose,
    round_ball,
    to_matrix,
)
from symattn.pipeline import _matrix_decimals  # pipeline imports this module lazily, so no cycle

if TYPE_CHECKING:
    from symattn.pipeline import Attention, MultiHead

__all__ = [
    "METHODS",
    "Disagreement",
    "OutputImportance",
    "certified",
    "compare",
    "decimals",
    "explain",
    "heatmap",
    "importance",
    "jacobian",
    "picture",
    "ranking",
]

#: The importance measures, in the order the docs and pictures show them.
METHODS: dict[str, str] = {
    "weights": "the attention weight a_ij",
    "norm": "‖a_ij v_j‖, the length of token j's contribution",
    "norm_output": "‖Σ_h a^h_ij v^h_j W_O^h‖, the contribution's length after W_O",
    "value_zeroing": "1 − cos(o_i with v_j zeroed, o_i)",
    "grad_input": "gradient × input, (∂T/∂x_j) · x_j for T = ‖o_i‖² or a linear target",
    "jacobian": "‖∂o_i/∂x_j‖_F, the Frobenius norm of the exact Jacobian",
}
#: The options each method accepts (keyword arguments of :func:`importance`).
OPTIONS: dict[str, tuple[str, ...]] = {"grad_input": ("target",)}
#: Precisions (bits) tried when comparing two exact values.
COMPARE_PRECISIONS = (128, 512, 2048)
#: Most Jacobian entries (n_q · n_k · output width · d_model) "jacobian" and "grad_input" build.
MAX_JACOBIAN_ENTRIES = 10_000
#: Largest expression (sympy.count_ops) given to the exact zero test of a difference.
MAX_ZERO_TEST_OPS = 4000

_ZERO = sympy.Integer(0)


# --- the public functions -------------------------------------------------------


def importance(layer: Attention | MultiHead, method: str, **options: Any) -> ImmutableMatrix:
    """The exact n_q × n_k importance matrix of ``layer`` by ``method``.

    Args:
        layer: an :class:`~symattn.pipeline.Attention` or a
            :class:`~symattn.pipeline.MultiHead` (whose output is concat · W_O).
        method: one of :data:`METHODS`.
        **options: ``target`` for "grad_input": a vector w of the output's
            width (the target is w · o_i); the default target is ‖o_i‖².

    Returns:
        Entry (i, j) is token j's importance for output i (0-based).

    Raises:
        InputError: an unknown method or option, "norm_output" without W_O,
            or "weights"/"norm" asked of several heads at once.
        ShapeError: a target of the wrong length.

    >>> import symattn
    >>> importance(symattn.attention([[1, 0], [0, 1], [1, 1]]), "norm").row(2)
    Matrix([[1/(2 + exp(sqrt(2)/2)), 1/(2 + exp(sqrt(2)/2)), sqrt(2)*exp(sqrt(2)/2)/(2 + exp(sqrt(2)/2))]])
    """
    if method not in METHODS:
        raise InputError(f"unknown importance method {method!r} (expected one of {', '.join(METHODS)})")
    unknown = sorted(set(options) - set(OPTIONS.get(method, ())))
    if unknown:
        takes = OPTIONS.get(method)
        allowed = f"it takes {', '.join(takes)}" if takes else "it takes no options"
        raise InputError(f"importance {method!r} got an unknown option {unknown[0]!r} ({allowed})")
    view = _view(layer, method)
    if method in ("jacobian", "grad_input"):
        size = view.n_q * view.n_k * view.output.cols * view.source.cols
        if size > MAX_JACOBIAN_ENTRIES:
            raise InputError(
                f"importance {method!r} would build {size} Jacobian entries ({view.n_q} queries × "
                f"{view.n_k} keys × {view.output.cols} × {view.source.cols}), more than {MAX_JACOBIAN_ENTRIES}; "
                "ask for single blocks with jacobian(i, j)"
            )
    return ImmutableMatrix(view.n_q, view.n_k, _MEASURES[method](view, **options))


def jacobian(layer: Attention | MultiHead, i: int, j: int) -> ImmutableMatrix:
    """The exact block J = ∂o_i/∂x_j, with J[r, c] = ∂ output[i][r] / ∂ X[j][c].

    In self-attention X feeds the queries, keys and values, and J is the total
    derivative through all three; in cross-attention ``j`` is a row of X_kv.

    Args:
        layer: an Attention (J is d_v × d_model) or a MultiHead (the output's
            width × d_model).
        i: the query (output row), 0-based.
        j: the input token (key row), 0-based.

    Raises:
        InputError: an index out of range, naming the range.

    >>> import symattn
    >>> jacobian(symattn.attention([[1], [0]], scale="none"), 1, 1)
    Matrix([[3/4]])
    """
    view = _view(layer, "jacobian")
    view.check_index(i, j)
    return view.jacobian(i, j)


def ranking(row: Any) -> tuple[tuple[int, ...], ...]:
    """Tokens from most to least important; tokens whose values are exactly equal share a group.

    Two values are compared by a certified arb enclosure of their difference;
    when the ball holds 0 the difference is tested for being exactly 0.  So a
    tie is a proof of equality, never a float coincidence.

    Args:
        row: exact values (a row of an importance matrix, or a sequence).

    Returns:
        Groups of 0-based token indices, largest value first.

    Raises:
        NotNumericError: a value has free symbols.
        UndecidedRoundingError: two values could not be told apart or proved equal.

    >>> import symattn
    >>> ranking(symattn.attention([[1, 0], [0, 1], [1, 1]]).importance("norm").row(2))
    ((2,), (0, 1))
    """
    values = list(row)
    order = sorted(
        range(len(values)), key=functools.cmp_to_key(lambda p, q: compare(values[q], values[p], (q, p)))
    )
    groups: list[list[int]] = []
    for index in order:
        if groups and compare(values[groups[-1][0]], values[index], (groups[-1][0], index)) == 0:
            groups[-1].append(index)
        else:
            groups.append([index])
    return tuple(tuple(sorted(group)) for group in groups)


def compare(x: Any, y: Any, names: tuple[Any, Any] = ("x", "y")) -> int:
    """-1, 0 or 1 as x < y, x = y or x > y, exactly.

    Raises:
        NotNumericError: a value has free symbols.
        UndecidedRoundingError: the values could not be told apart or proved equal.

    >>> compare((1 + sympy.sqrt(2)) ** 2, 3 + 2 * sympy.sqrt(2))
    0
    """
    x, y = _as_expr(x), _as_expr(y)
    difference = x - y
    if difference == 0:
        return 0
    for prec in COMPARE_PRECISIONS:
        ball = enclose(difference, prec)
        if ball > 0:
            return 1
        if ball < 0:
            return -1
    if _is_exact_zero(difference):
        return 0
    if enclose(x, 128) > 0 and enclose(y, 128) > 0 and _is_exact_zero(x**2 - y**2):
        return 0  # norms: x = y when x² = y², and the squares lose the square roots
    raise UndecidedRoundingError(
        f"cannot decide whether {names[0]} ({_short(x)}) and {names[1]} ({_short(y)}) are equal"
    )


def decimals(matrix: ImmutableMatrix, places: int, name: str = "importance") -> list[list[str]]:
    """Certified decimals of an importance matrix or a Jacobian block, entry by entry.

    Like :func:`symattn.exact.certified_decimal`, but an enclosure that is not
    finite at some precision (a square root of a sum whose ball still holds
    negative numbers, after cancellation between large softmax terms) is
    retried at a higher precision instead of refused.

    Raises:
        NotNumericError: an entry has free symbols (the message names it).
        UndecidedRoundingError: the rounding was not decided within the precision limit.

    >>> import symattn
    >>> decimals(symattn.attention([[1, 0], [0, 1], [1, 1]]).importance("norm"), 4)[2]
    ['0.2483', '0.2483', '0.7120']
    """
    if places < 0:
        raise InputError(f"places must be 0 or more, not {places}")
    return _matrix_decimals(name, matrix, places, certify=certified)


def certified(value: Any, places: int) -> str:
    """One exact value's decimal, every printed digit guaranteed (see :func:`decimals`).

    >>> certified(sympy.sqrt(2) * sympy.exp(1), 6)
    '3.844231'
    """
    value = _as_expr(value)
    if value.is_Rational or value == -sympy.oo:
        return certified_decimal(value, places)
    prec = START_PREC + int(places * 3.33)
    while prec <= MAX_PREC:
        ball = enclose(value, prec)
        if ball.is_finite():
            text = round_ball(ball, places)
            if text is not None:
                return text
        prec *= 2
    raise UndecidedRoundingError(f"cannot decide the rounding of {_short(value)} to {places} places")


@dataclass(frozen=True)
class Disagreement:
    """Two tokens that two measures order differently (0-based tokens).

    Attributes:
        tokens: (p, q).
        measures: (first, second), e.g. ("weights", "norm").
        orders: compare(p, q) under each measure: -1, 0 or 1 (0 is an exact tie).
        reason: "value length" (weights against norm: the norm is a_ij·‖v_j‖) or
            "query and key path" (norm against Jacobian: moving x_j also moves
            the scores, through W_Q and W_K).
    """

    tokens: tuple[int, int]
    measures: tuple[str, str]
    orders: tuple[int, int]
    reason: str


@dataclass(frozen=True)
class OutputImportance:
    """Everything a derivation says about one output's tokens, exact (see :func:`explain`).

    Attributes:
        output: the output (query) index, 0-based.
        weights, norms, jacobian_norms: the three measures for this output.
        value_lengths: ‖v_j‖ per token.
        mean_length: Σ_j a_ij ‖v_j‖, the weight-averaged value length (= Σ_j norm_j).
        rankings: measure name -> groups of exactly tied tokens, largest first.
        more_than_weight, less_than_weight: tokens whose share of the norms is
            larger (smaller) than their weight, exactly: ‖v_j‖ > (<) mean_length.
        disagreements: pairs the measures order differently, with the reason.
    """

    output: int
    weights: tuple[sympy.Expr, ...]
    norms: tuple[sympy.Expr, ...]
    jacobian_norms: tuple[sympy.Expr, ...]
    value_lengths: tuple[sympy.Expr, ...]
    mean_length: sympy.Expr
    rankings: dict[str, tuple[tuple[int, ...], ...]]
    more_than_weight: tuple[int, ...]
    less_than_weight: tuple[int, ...]
    disagreements: tuple[Disagreement, ...]


def explain(layer: Attention, i: int, *, jacobian: bool = True) -> OutputImportance:
    """Weights, norm-based contributions and Jacobian norms of output ``i``, compared exactly.

    A token's share of the norm-based contributions, a_ij‖v_j‖ / Σ_l a_il‖v_l‖,
    exceeds its weight a_ij exactly when ‖v_j‖ exceeds the weight-averaged
    length Σ_l a_il‖v_l‖: "it matters more than its weight suggests, because its
    value vector is longer".

    Args:
        layer: one head.
        i: the output, 0-based.
        jacobian: also the Jacobian norms (False: ``jacobian_norms`` is empty and
            only weights and norms are compared).

    Raises:
        InputError: a MultiHead (explain one head), or an index out of range.
        NotNumericError: symbolic inputs (orders need numbers).

    >>> import symattn
    >>> facts = explain(symattn.attention([[1, 0], [0, 1], [1, 1]]), 2)
    >>> facts.rankings["norm"], facts.more_than_weight, facts.less_than_weight
    (((2,), (0, 1)), (2,), (0, 1))
    """
    from symattn.pipeline import MultiHead

    if isinstance(layer, MultiHead):
        raise InputError(
            f"explain() takes one head; this MultiHead has {counted(len(layer.heads), 'head')} "
            "(use .heads[k])"
        )
    view = _view(layer, "weights")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < view.n_q:
        raise InputError(
            f"explain(…, {i!r}): output index {i!r} is out of range; there are {view.n_q} outputs, "
            f"indexed 0 to {view.n_q - 1}"
        )
    keys = range(view.n_k)
    weights = tuple(layer.weights.row(i))
    lengths = tuple(_length(list(layer.V.row(j))) for j in keys)
    norms = tuple(weights[j] * lengths[j] for j in keys)
    jacobians = tuple(_length(list(view.jacobian(i, j))) for j in keys) if jacobian else ()
    mean = sympy.Add(*norms)
    measures = {"weights": weights, "norm": norms}
    if jacobian:
        measures["jacobian"] = jacobians
    # a masked key (weight 0) has no share to compare
    sides = {j: compare(lengths[j], mean, (f"‖v_{j}‖", "the mean length")) for j in keys if weights[j] != 0}
    disagreements = []
    for first, second, reason in (
        ("weights", "norm", "value length"),
        ("norm", "jacobian", "query and key path"),
    ):
        if second not in measures:
            continue
        for p in keys:
            for q in range(p + 1, view.n_k):
                orders = (
                    compare(measures[first][p], measures[first][q], (f"{first}[{p}]", f"{first}[{q}]")),
                    compare(measures[second][p], measures[second][q], (f"{second}[{p}]", f"{second}[{q}]")),
                )
                if orders[0] != orders[1]:
                    disagreements.append(Disagreement((p, q), (first, second), orders, reason))
    return OutputImportance(
        output=i,
        weights=weights,
        norms=norms,
        jacobian_norms=jacobians,
        value_lengths=lengths,
        mean_length=mean,
        rankings={name: ranking(values) for name, values in measures.items()},
        more_than_weight=tuple(j for j, side in sides.items() if side > 0),
        less_than_weight=tuple(j for j, side in sides.items() if side < 0),
        disagreements=tuple(disagreements),
    )


def heatmap(layer: Attention | MultiHead, method: str, *, places: int = 3, **options: Any):
    """A viridis SVG heatmap of one importance measure, cells annotated with certified decimals.

    Returns:
        A :class:`symattn.render.svg.Heatmap` (``.svg`` is the text; Jupyter
        shows it through ``_repr_html_``).

    Raises:
        as :func:`importance`, and NotNumericError for symbolic inputs.
    """
    from symattn.render import svg

    matrix = importance(layer, method, **options)
    first = getattr(layer, "heads", (layer,))[0]
    return svg.Heatmap.of(
        decimals(matrix, places, name=method),
        title=f"{method}: {METHODS[method]}",
        row_labels=first.labels,
        col_labels=first.kv_labels,
    )


def picture(layer: Attention | MultiHead, *, places: int = 4):
    """The measures side by side as viridis heatmaps (for Jupyter: ``_repr_html_`` is the SVG).

    One head: the weights, the norm-based contributions and the Jacobian norms.  A
    MultiHead: the contributions through W_O ("norm_output", when W_O is given) and
    the Jacobian norms of the projected output.  The Jacobian panel is left out above
    :data:`MAX_JACOBIAN_ENTRIES`.

    Returns:
        A :class:`symattn.render.svg.Heatmap`.

    Raises:
        NotNumericError: symbolic inputs.

    >>> import symattn
    >>> picture(symattn.attention([[1, 0], [0, 1], [1, 1]])).svg.count("<svg")  # three panels in one
    4
    """
    from symattn.pipeline import MultiHead
    from symattn.render import svg

    if isinstance(layer, MultiHead):
        methods = (["norm_output"] if layer.W_O is not None else []) + ["jacobian"]
    else:
        methods = ["weights", "norm", "jacobian"]
    view = _view(layer, "jacobian")
    if view.n_q * view.n_k * view.output.cols * view.source.cols > MAX_JACOBIAN_ENTRIES:
        methods.remove("jacobian")
    maps = [heatmap(layer, method, places=places) for method in methods]
    return svg.side_by_side(maps, title="importance: " + ", ".join(methods))


# --- one layer seen as contributions and Jacobian blocks ---------------------------


class _View:
    """What the measures need of a layer: outputs, contribution vectors f_ij, Jacobian blocks.

    ``o_i = Σ_j f_ij``: for one head f_ij = a_ij v_j; for several heads through
    W_O, f_ij = Σ_h a^h_ij v^h_j W_O^h.
    """

    def __init__(self, heads: Sequence[Attention], W_O: ImmutableMatrix | None, output: ImmutableMatrix):
        self.heads = tuple(heads)
        self.W_O = W_O
        self.output = output
        first = self.heads[0]
        self.n_q, self.n_k = first.X.rows, first._source.rows
        self.labels, self.kv_labels = first.labels, first.kv_labels
        self.is_cross = first.is_cross
        self.source = first._source
        offsets = [0]
        for head in self.heads:
            offsets.append(offsets[-1] + head.W_V.cols)
        # W_O^h: the rows of W_O that head h's values meet
        self.blocks = (
            [W_O[offsets[h] : offsets[h + 1], :] for h in range(len(self.heads))] if W_O is not None else None
        )

    def check_index(self, i: Any, j: Any) -> None:
        keys = "keys (rows of X_kv)" if self.is_cross else "tokens"
        for what, index, n, noun in (
            ("query", i, self.n_q, "queries (rows of X)"),
            ("key", j, self.n_k, keys),
        ):
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                raise InputError(
                    f"jacobian({i!r}, {j!r}): {what} index {index!r} is out of range; "
                    f"there are {n} {noun}, indexed 0 to {n - 1}"
                )

    def contribution(self, i: int, j: int) -> list[sympy.Expr]:
        """f_ij as a list of exact entries."""
        parts = []
        for h, head in enumerate(self.heads):
            a = head.weights[i, j]
            vector = [a * value for value in head.V.row(j)]
            if self.blocks is not None:
                block = self.blocks[h]
                vector = [
                    sympy.Add(*(vector[r] * block[r, c] for r in range(block.rows)))
                    for c in range(block.cols)
                ]
            parts.append(vector)
        if self.blocks is None:
            return [entry for part in parts for entry in part]
        return [sympy.Add(*column) for column in zip(*parts, strict=True)]

    def jacobian(self, i: int, m: int) -> ImmutableMatrix:
        blocks = [_head_jacobian(head, i, m) for head in self.heads]
        if self.blocks is None:
            return ImmutableMatrix(sympy.Matrix.vstack(*blocks))
        total = sympy.zeros(self.W_O.cols, blocks[0].cols)
        for J, W in zip(blocks, self.blocks, strict=True):
            total += W.T * J
        return ImmutableMatrix(total)

    def target(self, target: Any) -> ImmutableMatrix | None:
        if target is None:
            return None
        rows = target.tolist() if hasattr(target, "tolist") else target
        if isinstance(rows, (list, tuple)) and rows and all(isinstance(r, (list, tuple)) for r in rows):
            rows = [value for r in rows for value in r]  # a 1×d or d×1 matrix
        w = to_matrix([rows] if isinstance(rows, (list, tuple)) else rows, name="target")
        if w.cols != self.output.cols:
            raise ShapeError(
                f"target has {counted(w.cols, 'entry', 'entries')} but the output has "
                f"{counted(self.output.cols, 'column')} (a linear target is one weight per output column)"
            )
        return w


def sizes(layer: Attention | MultiHead) -> tuple[int, int]:
    """The queries and the keys of ``layer``: the shape of every importance matrix."""
    view = _view(layer, "jacobian")  # any measure that reads a multi-head layer whole
    return view.n_q, view.n_k


def _view(layer: Attention | MultiHead, method: str) -> _View:
    from symattn.pipeline import MultiHead

    if isinstance(layer, MultiHead):
        if method in ("weights", "norm"):
            raise InputError(
                f"importance {method!r} is per head; ask a head, e.g. .heads[0].importance({method!r}) "
                f"(this MultiHead has {counted(len(layer.heads), 'head')}), or use 'norm_output'"
            )
        if method == "norm_output" and layer.W_O is None:
            raise InputError(
                "importance 'norm_output' needs W_O, and this MultiHead has none "
                "(pass W_O to multihead(), or use 'norm' on a head)"
            )
        return _View(layer.heads, layer.W_O, layer.output)
    if method == "norm_output":
        raise InputError(
            "importance 'norm_output' needs W_O, and a single Attention has none "
            "(use 'norm', or multihead(..., W_O=...))"
        )
    return _View((layer,), None, layer.output)


# --- the closed-form Jacobian -------------------------------------------------------


def softmax_jacobian(a: Sequence[sympy.Expr]) -> ImmutableMatrix:
    """diag(a) − a aᵀ, the Jacobian of softmax at weights a (∂a_j/∂s_l = a_j(δ_jl − a_l)).

    >>> softmax_jacobian([sympy.Rational(1, 2), sympy.Rational(1, 2)])
    Matrix([
    [ 1/4, -1/4],
    [-1/4,  1/4]])
    """
    n = len(a)
    return ImmutableMatrix(n, n, lambda j, k: (a[j] if j == k else _ZERO) - a[j] * a[k])


def _head_jacobian(head: Attention, i: int, m: int) -> ImmutableMatrix:
    """∂o_i/∂x_m for one head: Vᵀ (diag(a) − a aᵀ) ∂s_i/∂x_m + a_im W_Vᵀ."""
    c = head.factor
    a = list(head.weights.row(i))
    d_model = head._source.cols
    # ∂s_il/∂x_m, one row per key l: the key term on row m, the query term on every row when i = m
    key_term = stages.matmul(head.Q.row(i), stages.transpose(head.W_K), left="q_i", right="W_K^T")
    rows = []
    for key in range(len(a)):
        if a[key] == 0:  # a masked key: its score is the constant -oo
            rows.append([_ZERO] * d_model)
            continue
        row = [key_term[0, col] if key == m else _ZERO for col in range(d_model)]
        if not head.is_cross and i == m:
            query_term = _query_term(head)
            row = [row[col] + query_term[key, col] for col in range(d_model)]
        rows.append([c * value for value in row])
    dS = ImmutableMatrix(rows)
    through_scores = stages.transpose(head.V) * softmax_jacobian(a) * dS
    through_values = a[m] * stages.transpose(head.W_V)
    return ImmutableMatrix(through_scores + through_values)


def _query_term(head: Attention) -> ImmutableMatrix:
    """K W_Qᵀ (row l is k_l W_Qᵀ), cached on the head."""
    cache = head.__dict__.setdefault("_importance_cache", {})
    if "K_WQt" not in cache:
        cache["K_WQt"] = stages.matmul(head.K, stages.transpose(head.W_Q), left="K", right="W_Q^T")
    return cache["K_WQt"]


# --- the measures ---------------------------------------------------------------------


def _weights(view: _View) -> list[sympy.Expr]:
    return list(view.heads[0].weights)


def _norm(view: _View) -> list[sympy.Expr]:
    head = view.heads[0]
    lengths = [sympy.sqrt(sympy.Add(*(value**2 for value in head.V.row(j)))) for j in range(view.n_k)]
    # a_ij >= 0, so ‖a_ij v_j‖ = a_ij · ‖v_j‖: the square root of an exact sum of squares, kept as such
    return [head.weights[i, j] * lengths[j] for i in range(view.n_q) for j in range(view.n_k)]


def _norm_output(view: _View) -> list[sympy.Expr]:
    if len(view.heads) == 1:  # one head: a_ij · ‖v_j W_O‖, the same structure as "norm"
        head, W = view.heads[0], view.blocks[0]
        lengths = []
        for j in range(view.n_k):
            projected = stages.matmul(head.V.row(j), W, left="v_j", right="W_O")
            lengths.append(sympy.sqrt(sympy.Add(*(value**2 for value in projected))))
        return [head.weights[i, j] * lengths[j] for i in range(view.n_q) for j in range(view.n_k)]
    return [_length(view.contribution(i, j)) for i in range(view.n_q) for j in range(view.n_k)]


def _value_zeroing(view: _View) -> list[sympy.Expr]:
    """1 − cos(o_i − f_ij, o_i): zeroing v_j removes f_ij and leaves the weights as they are.

    Conventions where the cosine is undefined (both decided exactly): when
    f_ij = 0 nothing changes and the score is 0; otherwise, when o_i or
    o_i − f_ij is the zero vector, the cosine is taken as 0 and the score is 1.
    """
    values = []
    for i in range(view.n_q):
        o = list(view.output.row(i))
        o_square = _square(o)
        contributions = [view.contribution(i, j) for j in range(view.n_k)]
        for j, f in enumerate(contributions):
            # o_i with v_j zeroed is Σ_{l≠j} f_il: built as that sum, not as o_i − f_ij (no cancellation)
            others = [c for k, c in enumerate(contributions) if k != j]
            zeroed = (
                [sympy.Add(*column) for column in zip(*others, strict=True)] if others else [_ZERO] * len(o)
            )
            zeroed_square = _square(zeroed)
            if _known_zero(_square(f)):
                values.append(_ZERO)
                continue
            if _known_zero(o_square) or _known_zero(zeroed_square):
                values.append(sympy.Integer(1))
                continue
            dot = sympy.Add(*(p * q for p, q in zip(zeroed, o, strict=True)))
            values.append(1 - dot / (sympy.sqrt(zeroed_square) * sympy.sqrt(o_square)))
    return values


def _grad_input(view: _View, target: Any = None) -> list[sympy.Expr]:
    """(∂T/∂x_j) · x_j with ∂T/∂x_j = g J_ij, g = 2 o_i for ‖o_i‖², g = w for w · o_i."""
    w = view.target(target)
    values = []
    for i in range(view.n_q):
        g = w if w is not None else ImmutableMatrix(2 * view.output.row(i))
        for j in range(view.n_k):
            gradient = g * view.jacobian(i, j)
            values.append(sympy.Add(*(p * q for p, q in zip(gradient, view.source.row(j), strict=True))))
    return values


def _jacobian_norm(view: _View) -> list[sympy.Expr]:
    return [_length(list(view.jacobian(i, j))) for i in range(view.n_q) for j in range(view.n_k)]


_MEASURES = {
    "weights": _weights,
    "norm": _norm,
    "norm_output": _norm_output,
    "value_zeroing": _value_zeroing,
    "grad_input": _grad_input,
    "jacobian": _jacobian_norm,
}


# --- small exact helpers ---------------------------------------------------------------


def _square(vector: Sequence[sympy.Expr]) -> sympy.Expr:
    """Σ v_k², leaving out the entries proved exactly 0.

    An entry such as 2/(1+e²) − 2(1+e²)/(1+e²)² is 0, but its arb ball is
    [0 ± r]: python-flint squares such a ball to nan, and a sum that is 0 has a
    ball holding negative numbers, whose square root arb cannot enclose.
    Leaving the proved zeros out keeps the value and makes every square and
    square root evaluable.
    """
    return sympy.Add(*(value**2 for value in vector if not _proved_zero(value)))


def _length(vector: Sequence[sympy.Expr]) -> sympy.Expr:
    """sqrt(Σ v_k²), the square root kept exact."""
    return sympy.sqrt(_square(vector))


def _proved_zero(value: sympy.Expr) -> bool:
    """Whether a constant is proved exactly 0 (False when it is not, or when that is not known)."""
    if value == 0:
        return True
    if value.free_symbols:
        return False
    try:
        if not enclose(value, COMPARE_PRECISIONS[0]).contains(0):
            return False
    except NotNumericError:
        return False
    return _is_exact_zero(value)


def _known_zero(value: sympy.Expr) -> bool:
    """Whether a constant is exactly 0 (False for symbolic values: their formula stands)."""
    if value == 0:
        return True
    if value.free_symbols:
        return False
    try:
        for prec in COMPARE_PRECISIONS[:2]:
            ball = enclose(value, prec)
            if not ball.contains(0):
                return False
    except NotNumericError:
        return False
    if _is_exact_zero(value):
        return True
    raise UndecidedRoundingError(f"cannot decide whether {_short(value)} is 0")


def _is_exact_zero(value: sympy.Expr) -> bool:
    """A structural zero test, bounded by the expression's size."""
    if sympy.count_ops(value) > MAX_ZERO_TEST_OPS:
        return False
    if sympy.expand(value) == 0:
        return True
    numerator, _ = sympy.fraction(sympy.together(value))
    return sympy.expand(numerator) == 0
