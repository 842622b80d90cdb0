"""The rest of the transformer block, exactly: positions, norms, FFN, residuals, GQA, layers.

    positional_encoding(n, d)   PE(pos, 2i) = sin(pos/base^{2i/d}), PE(pos, 2i+1) = cos(…)
    rope(X)                     rotate pairs of columns by m·θ_i, θ_i = base^{-2i/d}
    residual(X, Y)              X + Y
    layer_norm(X, γ, β, ε)      (x − μ)/√(σ² + ε) · γ + β per row, population variance
    rms_norm(X, γ, ε)           x/√(mean(x²) + ε) · γ per row
    feed_forward(X, …)          act(X W_1 + b_1) W_2 + b_2   (relu, gelu, gelu_tanh, silu, swiglu)
    grouped_query_attention(X)  n_kv_heads key/value heads shared by groups of query heads
    encoder_layer(X), decoder_layer(X, memory), transformer(X, layers=…)

Every value is an exact SymPy expression built structurally (``sin(1/100)``,
``100*sqrt(1000010)/100001``); nothing calls ``sympy.simplify``.  Decimals come
from arb enclosures (:class:`_Balls`, which evaluates each shared subexpression
once), with the precision raised until every printed digit is decided.  A ReLU
decides the sign of its argument exactly: rationals directly, other values from
a certified enclosure; a value no ball up to :data:`RELU_PREC` bits decides
(an exact 0 that does not cancel) stays ``Max(0, h)``, exact.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

import sympy
from sympy import ImmutableMatrix, Rational

from symattn import registry, stages
from symattn.errors import (
    InputError,
    NotNumericError,
    ShapeError,
    SymattnError,
    UndecidedRoundingError,
    counted,
)
from symattn.exact import (
    Enclosure,
    _short,
    certified_decimal,
    round_ball,
    safe_power,
    to_exact,
    to_matrix,
)
from symattn.limits import MAX_PREC, RELU_PREC, precisions
from symattn.pipeline import Attention, Exact, MultiHead, multihead

__all__ = [
    "ACTIVATIONS",
    "FeedForward",
    "GroupedQueryAttention",
    "Layer",
    "LayerNormRow",
    "Transformer",
    "activate",
    "decoder_layer",
    "encoder_layer",
    "feed_forward",
    "feed_forward_stages",
    "grouped_query_attention",
    "layer_norm",
    "layer_norm_rows",
    "layer_norm_under",
    "positional_encoding",
    "residual",
    "rms_norm",
    "root",
    "rope",
    "transformer",
]

LAYOUTS = ("interleaved", "concatenated")
ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "silu", "swiglu")
NORMS = ("post", "pre")
NORMALIZATIONS = ("layer_norm", "rms_norm")
#: The cubic coefficient of the tanh approximation of GELU (Hendrycks & Gimpel), exactly.
GELU_TANH_CUBIC = Rational(44715, 1000000)


_shape = stages.shape_text


# --- enclosures -----------------------------------------------------------------


#: arb enclosures memoised per node (one class with exact.enclose: each shared subexpression once).
_Balls = Enclosure
_brief = _short


_precisions = precisions


def matrix_decimals(name: str, matrix: ImmutableMatrix, places: int) -> list[list[str]]:
    """Certified decimals of every entry, rounded half away from zero; "-inf" for -oo.

    Rational entries are rounded exactly; the others from arb balls of one
    shared :class:`_Balls` per precision, doubled until every entry is decided.

    Raises:
        InputError: negative places.
        NotNumericError: an entry has free symbols (the message names it, ``name[i,j]``).
        UndecidedRoundingError: an entry is undecided at the precision limit.
    """
    if places < 0:
        raise InputError(f"places must be 0 or more, not {places}")
    out: list[list[str | None]] = [[None] * matrix.cols for _ in range(matrix.rows)]
    pending = []
    for i in range(matrix.rows):
        for j in range(matrix.cols):
            value = matrix[i, j]
            if value == -sympy.oo or value.is_Rational:
                out[i][j] = certified_decimal(value, places)
            else:
                pending.append((i, j))
    for prec in _precisions(places):
        if not pending:
            break
        balls = _Balls(prec)
        still = []
        for i, j in pending:
            try:
                text = round_ball(balls(matrix[i, j]), places)
            except SymattnError as error:
                raise type(error)(f"{name}[{i + 1},{j + 1}]: {error}") from None
            if text is None:
                still.append((i, j))
            else:
                out[i][j] = text
        pending = still
    if pending:
        i, j = pending[0]
        raise UndecidedRoundingError(
            f"{name}[{i + 1},{j + 1}]: cannot decide the rounding of {_brief(matrix[i, j])} to {places} "
            f"places within {MAX_PREC} bits (it may be exactly halfway)"
        )
    return out  # type: ignore[return-value]


def _sign(value: sympy.Expr, balls: dict[int, _Balls], limit: int = MAX_PREC) -> int | None:
    """The sign (1, -1; 0 for an exact 0) of an exact constant: rationals exactly, others by a
    certified ball at rising precision; None when the ball still holds 0 at ``limit`` bits."""
    if value.is_Rational:
        return 1 if value > 0 else -1 if value < 0 else 0
    for prec in _precisions(limit=limit):
        ball = balls.setdefault(prec, _Balls(prec))(value)
        if ball > 0:
            return 1
        if ball < 0:
            return -1
    return None


def _is_positive(value: sympy.Expr, where: str, balls: dict[int, _Balls]) -> bool:
    """Whether an exact constant is > 0, decided exactly.

    Raises:
        SymattnError: the sign is undecided at the precision limit (the value may be exactly 0).
    """
    sign = _sign(value, balls)
    if sign is None:
        raise SymattnError(
            f"{where}: cannot decide the sign of {_brief(value)} within {MAX_PREC} bits (it may be exactly 0)"
        )
    return sign > 0


# --- structural arithmetic ---------------------------------------------------------------
#
# SymPy's evaluating constructors ask questions of their arguments (is it zero?
# finite? positive?) and answer them by evalf on the whole tree, which for a
# layer's nested roots and exponentials takes minutes.  Small values (rationals,
# radicals of rationals, sin(1/100), symbols) are combined by SymPy as usual;
# anything larger is combined structurally (evaluate=False), so shared
# subexpressions stay shared and nothing is re-examined.

_FUNCTIONS = (sympy.exp, sympy.sin, sympy.cos, sympy.tanh, sympy.erf, sympy.log)


def _sym(value: Any) -> sympy.Expr:
    return sympy.Integer(value) if isinstance(value, int) else value


def _simple(e: sympy.Expr, depth: int = 3) -> bool:
    if e.is_Rational or e.is_Symbol or e is sympy.pi or e is sympy.E:
        return True
    if depth == 0:
        return False
    if e.is_Pow:
        return e.exp.is_Rational and _simple(e.base, depth - 1) and not e.base.is_Add
    if e.is_Mul or e.func in _FUNCTIONS:
        return all(_simple(a, depth - 1) for a in e.args)
    return False


def _add(*terms: sympy.Expr) -> sympy.Expr:
    """Σ terms: SymPy's sum of small terms, else a structural Add (rationals folded, zeros dropped)."""
    terms = tuple(_sym(t) for t in terms if t != 0)
    if all(_simple(t) for t in terms):
        return sympy.Add(*terms)
    constant = sympy.Add(*(t for t in terms if t.is_Rational))
    rest = [t for t in terms if not t.is_Rational] + ([constant] if constant != 0 else [])
    return rest[0] if len(rest) == 1 else sympy.Add(*rest, evaluate=False)


def _mul(*factors: sympy.Expr) -> sympy.Expr:
    """Π factors: SymPy's product of small factors, else a structural Mul (0 and 1 handled)."""
    factors = tuple(_sym(f) for f in factors)
    if any(f == 0 for f in factors):
        return sympy.Integer(0)
    if all(_simple(f) for f in factors):
        return sympy.Mul(*factors)
    coefficient = sympy.Mul(*(f for f in factors if f.is_Rational))
    rest = [f for f in factors if not f.is_Rational]
    if coefficient != 1:
        rest.insert(0, coefficient)
    return rest[0] if len(rest) == 1 else sympy.Mul(*rest, evaluate=False)


def _pow(base: sympy.Expr, exponent: Any) -> sympy.Expr:
    exponent = _sym(exponent)
    if _simple(base) and not base.is_Add:
        return sympy.Pow(base, exponent)
    return sympy.Pow(base, exponent, evaluate=False)


def root(base: Any, index: Any = 2) -> sympy.Expr:
    """The ``index``-th root of ``base`` built as :func:`_pow` builds powers: SymPy's for a small
    base (√4 = 2, √(5/4 + 1/100000) as a radical), structural for a large one (√σ² of a row of
    sines), so that no assumption query runs evalf on the whole tree."""
    return _pow(_sym(base), 1 / _sym(index))


def _apply(function: Any, argument: sympy.Expr) -> sympy.Expr:
    return function(argument) if _simple(argument) else function(argument, evaluate=False)


def _dot(row: Sequence[sympy.Expr], column: Sequence[sympy.Expr]) -> sympy.Expr:
    return _add(*(_mul(a, b) for a, b in zip(row, column, strict=True) if a != 0 and b != 0))


def _product(A: ImmutableMatrix, B: ImmutableMatrix, left: str, right: str) -> ImmutableMatrix:
    """A·B: python-flint for rationals (:func:`stages.matmul`), else entry by entry, structurally."""
    if A.cols != B.rows or (stages.is_rational(A) and stages.is_rational(B)):
        return stages.matmul(A, B, left=left, right=right)
    rows = [list(A.row(i)) for i in range(A.rows)]
    cols = [list(B.col(j)) for j in range(B.cols)]
    return ImmutableMatrix([[_dot(r, c) for c in cols] for r in rows])


# --- inputs -----------------------------------------------------------------------


def _positive_number(value: Any, where: str) -> sympy.Expr:
    number = to_exact(value, where=where)
    if number.free_symbols:
        return number
    if not _is_positive(number, where, {}):
        raise InputError(f"{where} must be positive but is {value} (read as {number})")
    return number


def _vector(value: Any, name: str, length: int, context: str, default: int) -> tuple[sympy.Expr, ...]:
    """A bias or gain: a list, or a 1×d matrix, of ``length`` entries (None: all ``default``).

    Raises:
        ShapeError: the wrong length or a matrix with more than one row, naming the shapes.
    """
    if value is None:
        return (sympy.Integer(default),) * length
    rows = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(rows, (list, tuple)) and rows and all(isinstance(r, (list, tuple)) for r in rows):
        if len(rows) != 1:
            raise ShapeError(
                f"{name} is {len(rows)}×{len(rows[0])} but a vector (a list or a 1×{length} matrix) is "
                f"needed for {context}"
            )
        rows = rows[0]
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)):
        raise ShapeError(f"{name} is {rows!r}, not a vector (a list or a 1×{length} matrix) for {context}")
    if len(rows) != length:
        raise ShapeError(
            f"{name} has {counted(len(rows), 'entry', 'entries')} but {context} has "
            f"{counted(length, 'column')} ({name} is 1×{len(rows)})"
        )
    return tuple(to_exact(v, where=f"{name}[{k}]") for k, v in enumerate(rows, start=1))


def _matrix(value: Any, name: str) -> ImmutableMatrix:
    """A user's matrix read through :func:`to_matrix`; a stage built here (``Exact``, a
    :class:`Layer`'s output) as it is."""
    if isinstance(value, Exact):
        return value.matrix
    if isinstance(value, Layer):
        return value.output
    if isinstance(value, sympy.MatrixBase) and _plain(value):
        return ImmutableMatrix(value)
    return to_matrix(value, name=name)


_PLAIN_FUNCTIONS = (*_FUNCTIONS, sympy.Max)


def _plain(matrix: sympy.MatrixBase) -> bool:
    """Whether a SymPy matrix holds only what :func:`to_matrix` would return unchanged.

    Rationals, π, e, symbols, sums, products, powers (no root of a negative
    rational) and the block's functions, checked over the DAG (each shared node
    once).  Anything else (a Float, oo, I, another function) goes through
    :func:`to_matrix`, which converts it or names the entry; ``to_matrix`` itself
    walks every entry's tree, which for a layer's stages takes minutes.
    """
    seen: set[sympy.Basic] = set()
    stack = list(matrix)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node.is_Rational or node.is_Symbol or node is sympy.pi or node is sympy.E:
            continue
        if node.is_Pow:
            base, exponent = node.args
            if not exponent.is_Rational or (base.is_Rational and base < 0 and not exponent.is_Integer):
                return False
        elif not (node.is_Add or node.is_Mul or node.func in _PLAIN_FUNCTIONS):
            return False
        stack.extend(node.args)
    return True


def _choice(value: Any, allowed: Sequence[str], field: str) -> str:
    if value not in allowed:
        raise InputError(f"{field}: unknown {field} {value!r} (expected one of {', '.join(allowed)})")
    return value


def _count(value: Any, field: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(f"{field} must be an integer ≥ {minimum}, not {value!r}")
    return value


# --- positions ------------------------------------------------------------------------


def _frequencies(d: int, base: sympy.Expr) -> tuple[sympy.Expr, ...]:
    """θ_i = base^{-2i/d} for i = 0 … d/2 − 1, exact."""
    return tuple(safe_power(base, Rational(-2 * i, d), "base") for i in range(d // 2))


def _even_width(d: int, field: str, what: str, rows: int) -> None:
    if d % 2:
        raise ShapeError(
            f"{field} is {d}, but {what} needs an even {field} (pairs of columns; the encoding would be {rows}×{d})"
        )


def positional_encoding(
    n: int, d_model: int, *, base: Any = 10000, start: int = 0, layout: str = "interleaved"
) -> ImmutableMatrix:
    """The sinusoidal positional encoding, exact.

    PE(pos, 2i) = sin(pos / base^{2i/d}) and PE(pos, 2i+1) = cos(pos / base^{2i/d})
    for pos = start … start + n − 1.

    Args:
        n: the number of positions (rows).
        d_model: the width (columns), even.
        base: the base of the wavelengths (10000 in the paper); read as decimal text.
        start: the first position (0 in the paper; some walk-throughs count from 1).
        layout: "interleaved" (sin, cos, sin, cos, …: the paper) or "concatenated"
            (all the sines, then all the cosines, as in tensor2tensor).

    Returns:
        An n × d_model matrix of exact values (``sin(1/100)``, ``cos(1)``).

    Raises:
        ShapeError: an odd d_model.
        InputError: a bad n, start, base or layout.

    >>> positional_encoding(2, 4)
    Matrix([
    [     0, 1,      0,          1],
    [sin(1), cos(1), sin(1/100), cos(1/100)]])
    """
    n = _count(n, "n", 1)
    d_model = _count(d_model, "d_model", 1)
    start = _count(start, "start", 0)
    layout = _choice(layout, LAYOUTS, "layout")
    _even_width(d_model, "d_model", "the sinusoidal positional encoding", n)
    thetas = _frequencies(d_model, _positive_number(base, "base"))
    rows = []
    for pos in range(start, start + n):
        angles = [sympy.Mul(pos, theta) for theta in thetas]
        sines = [sympy.sin(a) for a in angles]
        cosines = [sympy.cos(a) for a in angles]
        if layout == "interleaved":
            rows.append([v for pair in zip(sines, cosines, strict=True) for v in pair])
        else:
            rows.append(sines + cosines)
    return ImmutableMatrix(rows)


def _pairs(d: int, layout: str) -> list[tuple[int, int]]:
    """The column pairs rotated together: (2i, 2i+1) interleaved, (i, i + d/2) concatenated."""
    if layout == "interleaved":
        return [(2 * i, 2 * i + 1) for i in range(d // 2)]
    return [(i, i + d // 2) for i in range(d // 2)]


def rope(X: Any, *, base: Any = 10000, start: int = 0, layout: str = "interleaved") -> ImmutableMatrix:
    """Rotary position embedding, exact: each pair of columns of row m rotated by m·θ_i.

    With θ_i = base^{-2i/d} and m = start + the row's index, the pair (a, b)
    becomes (a cos mθ_i − b sin mθ_i, a sin mθ_i + b cos mθ_i).

    Args:
        X: the rows to rotate (queries or keys), an even number of columns.
        base: the base of the frequencies (10000 in RoFormer).
        start: the position of the first row.
        layout: "interleaved" pairs columns (2i, 2i+1) (RoFormer); "concatenated"
            pairs (i, i + d/2) (GPT-NeoX, LLaMA's ``rotate_half``).

    Raises:
        ShapeError: an odd number of columns.
        InputError: a bad base, start or layout.

    >>> rope([[1, 0], [1, 0]])
    Matrix([
    [     1,      0],
    [cos(1), sin(1)]])
    """
    X = _matrix(X, "X")
    start = _count(start, "start", 0)
    layout = _choice(layout, LAYOUTS, "layout")
    d = X.cols
    if d % 2:
        raise ShapeError(f"rope: X is {_shape(X)}, but RoPE rotates pairs of columns and needs an even width")
    thetas = _frequencies(d, _positive_number(base, "base"))
    out = [list(X.row(r)) for r in range(X.rows)]
    for r in range(X.rows):
        m = start + r
        for i, (a, b) in enumerate(_pairs(d, layout)):
            angle = _mul(m, thetas[i])
            c, s = _apply(sympy.cos, angle), _apply(sympy.sin, angle)
            x_a, x_b = X[r, a], X[r, b]
            out[r][a] = _add(_mul(x_a, c), _mul(-1, x_b, s))
            out[r][b] = _add(_mul(x_a, s), _mul(x_b, c))
    return ImmutableMatrix(out)


# --- residuals and norms ----------------------------------------------------------------


def residual(X: Any, Y: Any, *, names: tuple[str, str] = ("X", "Y")) -> ImmutableMatrix:
    """X + Y, entry by entry.

    Raises:
        ShapeError: the shapes differ, naming both.

    >>> residual([[1, 2]], [["1/2", "0.5"]])
    Matrix([[3/2, 5/2]])
    """
    A, B = _matrix(X, names[0]), _matrix(Y, names[1])
    if A.shape != B.shape:
        raise ShapeError(
            f"residual: {names[0]} is {_shape(A)} but {names[1]} is {_shape(B)}; a residual adds equal shapes"
        )
    return ImmutableMatrix(A.rows, A.cols, lambda i, j: _add(A[i, j], B[i, j]))


@dataclass(frozen=True)
class LayerNormRow:
    """One token's normalisation: y_j = (x_j − mean) / root · γ_j + β_j.

    Attributes:
        mean: μ = Σ x_j / d.
        variance: σ² = Σ (x_j − μ)² / d (population variance).
        root: √(σ² + ε).
        centred: x_j − μ.
        normalised: (x_j − μ)/√(σ² + ε), before γ and β.
    """

    mean: sympy.Expr
    variance: sympy.Expr
    root: sympy.Expr
    centred: tuple[sympy.Expr, ...]
    normalised: tuple[sympy.Expr, ...]


def _eps(eps: Any, X: ImmutableMatrix) -> sympy.Expr:
    value = to_exact(eps, where="eps")
    if value.free_symbols:
        return value
    if not _is_positive(value, "eps", {}):
        raise InputError(
            f"eps must be positive but is {eps!r} (read as {value}); it keeps √(σ² + ε) above 0 (X is {_shape(X)})"
        )
    return value


def layer_norm_rows(X: Any, eps: Any = "1e-5") -> tuple[LayerNormRow, ...]:
    """Each row's mean, population variance and root √(σ² + ε), exact.

    Raises:
        InputError: eps ≤ 0.
    """
    X = _matrix(X, "X")
    return _norm_rows(X, _eps(eps, X), 0)


def _norm_rows(X: ImmutableMatrix, epsilon: sympy.Expr, ddof: int) -> tuple[LayerNormRow, ...]:
    d = X.cols
    rows = []
    for i in range(X.rows):
        x = list(X.row(i))
        mean = _mul(_add(*x), Rational(1, d))
        centred = tuple(_add(v, _mul(-1, mean)) for v in x)
        variance = _mul(_add(*(_pow(c, 2) for c in centred)), Rational(1, d - ddof))
        root = _pow(_add(variance, epsilon), sympy.S.Half)
        inverse = _pow(root, -1) if root != 0 else sympy.zoo
        normalised = tuple(_mul(c, inverse) for c in centred)
        rows.append(LayerNormRow(mean, variance, root, centred, normalised))
    return tuple(rows)


def layer_norm_under(
    X: Any, gamma: Any = None, beta: Any = None, *, eps: Any = "1e-5", ddof: int = 0
) -> tuple[ImmutableMatrix, tuple[LayerNormRow, ...]] | None:
    """LayerNorm under a convention a document may have used instead of the true one,
    for the verifier's "these values match …" findings: ``eps`` may be 0 (ε left
    out) and ``ddof`` 1 (the sample variance, Σ(x − μ)²/(d − 1)).

    Returns the rows (times γ, plus β) and each row's statistics, or None when a
    root is 0 (a constant row with ε = 0) or d − ddof < 1.
    """
    X = _matrix(X, "X")
    epsilon = to_exact(eps, where="eps")
    if X.cols - ddof < 1 or epsilon.is_negative:
        return None
    g = _vector(gamma, "gamma", X.cols, f"X ({_shape(X)})", 1)
    b = _vector(beta, "beta", X.cols, f"X ({_shape(X)})", 0)
    rows = _norm_rows(X, epsilon, ddof)
    if any(row.root == 0 for row in rows):
        return None
    return ImmutableMatrix(
        [[_add(_mul(y, g[j]), b[j]) for j, y in enumerate(row.normalised)] for row in rows]
    ), rows


def layer_norm(X: Any, gamma: Any = None, beta: Any = None, eps: Any = "1e-5") -> ImmutableMatrix:
    """LayerNorm per token (row): (x − μ)/√(σ² + ε) · γ + β, population variance.

    Args:
        X: the rows to normalise.
        gamma, beta: the gain and the shift, vectors of X's width (a list or a
            1×d matrix); None means γ = 1, β = 0.
        eps: ε, inside the square root; decimal text is read exactly ("1e-5" is 1/100000).

    Raises:
        InputError: eps ≤ 0.
        ShapeError: γ or β of the wrong length.

    >>> layer_norm([[1, 3]], eps="1e-5")[0, 1]
    100*sqrt(1000010)/100001
    """
    return _layer_norm(X, gamma, beta, eps)[0]


def _layer_norm(
    X: Any, gamma: Any, beta: Any, eps: Any, names: tuple[str, str] = ("gamma", "beta")
) -> tuple[ImmutableMatrix, tuple[LayerNormRow, ...]]:
    X = _matrix(X, "X")
    g = _vector(gamma, names[0], X.cols, f"X ({_shape(X)})", 1)
    b = _vector(beta, names[1], X.cols, f"X ({_shape(X)})", 0)
    rows = layer_norm_rows(Exact(X), eps)
    return ImmutableMatrix(
        [[_add(_mul(y, g[j]), b[j]) for j, y in enumerate(row.normalised)] for row in rows]
    ), rows


def rms_norm(X: Any, gamma: Any = None, eps: Any = "1e-5") -> ImmutableMatrix:
    """RMSNorm per row: x / √(Σ x²/d + ε) · γ.

    Raises:
        InputError: eps ≤ 0.
        ShapeError: γ of the wrong length.

    >>> rms_norm([[3, 4]], eps="1/2")
    Matrix([[3*sqrt(13)/13, 4*sqrt(13)/13]])
    """
    return _rms_norm(X, gamma, eps, "gamma")


def _rms_norm(X: Any, gamma: Any, eps: Any, name: str) -> ImmutableMatrix:
    X = _matrix(X, "X")
    g = _vector(gamma, name, X.cols, f"X ({_shape(X)})", 1)
    epsilon = _eps(eps, X)
    out = []
    for i in range(X.rows):
        x = list(X.row(i))
        mean_square = _mul(_add(*(_pow(v, 2) for v in x)), Rational(1, X.cols))
        inverse = _pow(_add(mean_square, epsilon), Rational(-1, 2))
        out.append([_mul(v, inverse, g[j]) for j, v in enumerate(x)])
    return ImmutableMatrix(out)


def _normalize(
    kind: str, X: ImmutableMatrix, params: Any, eps: Any, field: str
) -> tuple[ImmutableMatrix, tuple[LayerNormRow, ...] | None]:
    gamma, beta = _norm_params(params, field)
    number = field.rpartition("_")[2]  # ln_2: its γ and β are named gamma_2 and beta_2 in messages
    if kind == "rms_norm":
        if beta is not None:
            raise InputError(f"{field}: RMSNorm has no β; give (gamma,) or (gamma, None)")
        return _rms_norm(Exact(X), gamma, eps, f"gamma_{number}"), None
    return _layer_norm(Exact(X), gamma, beta, eps, names=(f"gamma_{number}", f"beta_{number}"))


def _norm_params(params: Any, field: str) -> tuple[Any, Any]:
    if params is None:
        return None, None
    if not isinstance(params, (list, tuple)) or len(params) not in (1, 2):
        raise InputError(f"{field} must be (gamma, beta) or (gamma,), got {params!r}")
    return params[0], params[1] if len(params) == 2 else None


# --- feed-forward -----------------------------------------------------------------------


_SQRT_HALF = 1 / sympy.sqrt(2)
_SQRT_2_OVER_PI = sympy.sqrt(2 / sympy.pi)


def _gelu(x: sympy.Expr) -> sympy.Expr:
    """x/2 · (1 + erf(x/√2)): GELU exactly."""
    return _mul(sympy.S.Half, x, _add(1, _apply(sympy.erf, _mul(x, _SQRT_HALF))))


def _gelu_tanh(x: sympy.Expr) -> sympy.Expr:
    """x/2 · (1 + tanh(√(2/π)(x + 0.044715 x³))): GELU's tanh approximation."""
    inner = _mul(_SQRT_2_OVER_PI, _add(x, _mul(GELU_TANH_CUBIC, _pow(x, 3))))
    return _mul(sympy.S.Half, x, _add(1, _apply(sympy.tanh, inner)))


def _silu(x: sympy.Expr) -> sympy.Expr:
    """x / (1 + e^{−x})."""
    return _mul(x, _pow(_add(1, _apply(sympy.exp, _mul(-1, x))), -1))


@dataclass(frozen=True)
class FeedForward:
    """The stages of one feed-forward network.

    Attributes:
        pre_activation: X W_1 + b_1.
        activated: act(X W_1 + b_1); for SwiGLU, SiLU(X W_1 + b_1) ⊙ (X W_3 + b_3).
        output: activated · W_2 + b_2.
        activation: the activation's name.
        gate: for SwiGLU, the linear half X W_3 + b_3; else None.
        zeroed: for ReLU, the (row, col) pairs (1-based) of the hidden units it set to 0.
        undecided: for ReLU, the units whose sign no ball up to RELU_PREC bits decides
            (|h| < 2^-RELU_PREC; they stay Max(0, h), exact).
    """

    pre_activation: ImmutableMatrix
    activated: ImmutableMatrix
    output: ImmutableMatrix
    activation: str
    gate: ImmutableMatrix | None = None
    zeroed: tuple[tuple[int, int], ...] = ()
    undecided: tuple[tuple[int, int], ...] = ()


def _affine(
    X: ImmutableMatrix, W: ImmutableMatrix, b: Any, *, w_name: str, b_name: str, x_name: str
) -> ImmutableMatrix:
    product = _product(X, W, x_name, w_name)
    bias = _vector(
        b, b_name, W.cols, f"{x_name}·{w_name} ({x_name} is {_shape(X)}, {w_name} is {_shape(W)})", 0
    )
    return ImmutableMatrix(product.rows, product.cols, lambda i, j: _add(product[i, j], bias[j]))


def _relu(
    H: ImmutableMatrix,
) -> tuple[ImmutableMatrix, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """max(0, h) entry by entry, the sign decided exactly; (matrix, zeroed, undecided).

    A value whose ball still holds 0 at :data:`RELU_PREC` bits (|h| < 2^-RELU_PREC,
    in practice an exact 0 that does not cancel structurally) stays Max(0, h):
    exact, and its decimals certified by arb's max of the ball.
    """
    balls: dict[int, _Balls] = {}
    out, zeroed, undecided = [], [], []
    for i in range(H.rows):
        row = []
        for j in range(H.cols):
            value = H[i, j]
            try:  # no free_symbols here: it walks the tree, not the DAG (exponential in the layers)
                sign = _sign(value, balls, RELU_PREC)
                symbolic = False
            except NotNumericError:
                sign, symbolic = None, True
            if sign is None:
                row.append(sympy.Max(0, value, evaluate=False))
                if not symbolic:
                    undecided.append((i + 1, j + 1))
            elif sign > 0:
                row.append(value)
            else:
                row.append(sympy.Integer(0))
                zeroed.append((i + 1, j + 1))
        out.append(row)
    return ImmutableMatrix(out), tuple(zeroed), tuple(undecided)


def activate(H: Any, activation: str = "relu") -> ImmutableMatrix:
    """An activation entry by entry, exact: "relu" (its sign decided exactly), "gelu"
    (erf form), "gelu_tanh", "silu" (SwiGLU's gate is not entry by entry).

    >>> activate([[1, -2]], "relu")
    Matrix([[1, 0]])
    """
    activation = _choice(activation, ACTIVATIONS[:4], "activation")
    H = _matrix(H, "H")
    if activation == "relu":
        return _relu(H)[0]
    function = {"gelu": _gelu, "gelu_tanh": _gelu_tanh, "silu": _silu}[activation]
    return ImmutableMatrix(H.rows, H.cols, lambda i, j: function(H[i, j]))


def feed_forward_stages(  # noqa: PLR0917 - the FFN's own parameters, as in the literature
    X: Any,
    W_1: Any,
    b_1: Any,
    W_2: Any,
    b_2: Any,
    activation: str = "relu",
    *,
    W_3: Any = None,
    b_3: Any = None,
    x_name: str = "X",
) -> FeedForward:
    """The feed-forward network with every stage kept (see :func:`feed_forward`)."""
    activation = _choice(activation, ACTIVATIONS, "activation")
    X = _matrix(X, x_name)
    W1, W2 = _matrix(W_1, "W_1"), _matrix(W_2, "W_2")
    if activation != "swiglu" and (W_3 is not None or b_3 is not None):
        raise InputError(f"activation: W_3 and b_3 belong to swiglu, not {activation}")
    pre = _affine(X, W1, b_1, w_name="W_1", b_name="b_1", x_name=x_name)
    gate, zeroed, undecided = None, (), ()
    if activation == "relu":
        activated, zeroed, undecided = _relu(pre)
    elif activation == "swiglu":
        if W_3 is None:
            raise InputError(
                f"activation: swiglu needs W_3 (the linear half, {X.cols}×{W1.cols} like W_1) and optionally b_3"
            )
        W3 = _matrix(W_3, "W_3")
        if W3.shape != W1.shape:
            raise ShapeError(f"W_3 is {_shape(W3)} but W_1 is {_shape(W1)}; SwiGLU needs them the same shape")
        gate = _affine(X, W3, b_3, w_name="W_3", b_name="b_3", x_name=x_name)
        activated = ImmutableMatrix(pre.rows, pre.cols, lambda i, j: _mul(_silu(pre[i, j]), gate[i, j]))
    else:
        function = {"gelu": _gelu, "gelu_tanh": _gelu_tanh, "silu": _silu}[activation]
        activated = ImmutableMatrix(pre.rows, pre.cols, lambda i, j: function(pre[i, j]))
    if W2.rows != activated.cols:
        raise ShapeError(
            f"W_2 has {counted(W2.rows, 'row')} but the hidden layer has {counted(activated.cols, 'column')} "
            f"(W_1 is {_shape(W1)}, W_2 is {_shape(W2)})"
        )
    output = _affine(activated, W2, b_2, w_name="W_2", b_name="b_2", x_name="the hidden layer")
    return FeedForward(pre, activated, output, activation, gate, zeroed, undecided)


def feed_forward(  # noqa: PLR0917 - the FFN's own parameters, as in the literature
    X: Any,
    W_1: Any,
    b_1: Any,
    W_2: Any,
    b_2: Any,
    activation: str = "relu",
    *,
    W_3: Any = None,
    b_3: Any = None,
) -> ImmutableMatrix:
    """The position-wise feed-forward network act(X W_1 + b_1) W_2 + b_2, exact.

    Activations: "relu" (max(0, x), its sign decided exactly), "gelu" (the exact
    erf form x/2 · (1 + erf(x/√2))), "gelu_tanh" (the tanh approximation
    x/2 · (1 + tanh(√(2/π)(x + 0.044715 x³)))), "silu" (x/(1 + e^{−x})) and
    "swiglu": (SiLU(X W_1 + b_1) ⊙ (X W_3 + b_3)) W_2 + b_2, LLaMA's naming,
    where W_3 has W_1's shape (d_model × d_ff) and W_2 is d_ff × d_model.

    Args:
        X: the rows (tokens).
        W_1, W_2: d_model × d_ff and d_ff × d_model.
        b_1, b_2: biases, vectors (a list, or a 1×d matrix); None means zero.
        activation: one of :data:`ACTIVATIONS`.
        W_3, b_3: SwiGLU's linear half (only with "swiglu").

    Raises:
        ShapeError: matrices that do not fit, or a bias of the wrong length.
        InputError: an unknown activation, or W_3 missing for (or given without) swiglu.

    >>> feed_forward([[1, -2]], [[1, 0], [0, 1]], [0, 0], [[1], [1]], [0])
    Matrix([[1]])
    """
    return feed_forward_stages(X, W_1, b_1, W_2, b_2, activation, W_3=W_3, b_3=b_3).output


# --- grouped-query attention --------------------------------------------------------------


class GroupedQueryAttention(MultiHead):
    """Multi-head attention whose query heads share key/value heads in groups (GQA; MQA has one).

    ``groups[h]`` is the (0-based) key/value head of query head h: query heads
    are split into consecutive groups of n_heads / n_kv_heads.
    """

    def __init__(self, heads, W_O, groups: tuple[int, ...]) -> None:
        super().__init__(heads, W_O)
        self.groups = groups

    @property
    def n_kv_heads(self) -> int:
        return max(self.groups) + 1

    def __repr__(self) -> str:
        kind = "MQA" if self.n_kv_heads == 1 else "GQA"
        return (
            f"<GroupedQueryAttention ({kind}): {len(self.heads)} query heads, {self.n_kv_heads} key/value heads, "
            f"W_O={'yes' if self.W_O is not None else 'no'}>"
        )


def grouped_query_attention(
    X: Any, *, q_heads: Sequence[Any], kv_heads: Sequence[Sequence[Any]], W_O: Any = None, **options: Any
) -> GroupedQueryAttention:
    """Grouped-query attention: n_heads query projections, n_kv_heads shared (W_K, W_V) pairs.

    Query head h (1-based) uses key/value head ⌊(h − 1) / (n_heads / n_kv_heads)⌋ + 1,
    so consecutive query heads share one K and V (multi-query attention is n_kv_heads = 1).
    Each head is :func:`symattn.attention`; the result is a :class:`~symattn.pipeline.MultiHead`.

    Args:
        X: the input.
        q_heads: one W_Q per query head.
        kv_heads: one (W_K, W_V) pair per key/value head; their number divides len(q_heads).
        W_O: the output projection, or None.
        **options: as for :func:`symattn.attention` (mask, scale, X_kv, labels, …).

    Raises:
        InputError: no heads, or a kv head that is not a pair.
        ShapeError: n_kv_heads does not divide n_heads, or shapes that do not fit.
    """
    if not q_heads or not kv_heads:
        raise InputError("grouped_query_attention needs at least one query head and one key/value head")
    n_heads, n_kv = len(q_heads), len(kv_heads)
    if n_heads % n_kv:
        raise ShapeError(
            f"kv_heads has {counted(n_kv, 'head')} but q_heads has {n_heads}; "
            "the number of key/value heads must divide the number of query heads"
        )
    for index, pair in enumerate(kv_heads, start=1):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise InputError(f"kv_heads[{index}] must be a pair (W_K, W_V)")
    size = n_heads // n_kv
    groups = tuple(h // size for h in range(n_heads))
    triples = [(W_Q, *kv_heads[g]) for W_Q, g in zip(q_heads, groups, strict=True)]
    built = multihead(X, triples, W_O, **options)
    return GroupedQueryAttention(built.heads, built.W_O, groups)


# --- layers -------------------------------------------------------------------------------


class Layer:
    """One layer's stages in order, exact, with certified decimals.

    Attributes:
        kind: "encoder" or "decoder".
        stages: stage name → exact matrix, in the order computed (read-only).
        output: the layer's output.
        attention: the attention blocks by stage name (their heads: "attention.head1.weights").
        ffn: the :class:`FeedForward` stages.
        norms: the :class:`LayerNormRow` records of each LayerNorm stage, by stage name.
    """

    def __init__(
        self,
        kind: str,
        stages_: Mapping[str, ImmutableMatrix],
        attention: Mapping[str, MultiHead],
        ffn: FeedForward,
        norms: Mapping[str, tuple[LayerNormRow, ...]],
    ) -> None:
        self.kind = kind
        self.stages = MappingProxyType(dict(stages_))
        self.attention = MappingProxyType(dict(attention))
        self.ffn = ffn
        self.norms = MappingProxyType(dict(norms))
        self._decimals: dict[tuple[str, int], list[list[str]]] = {}

    @property
    def output(self) -> ImmutableMatrix:
        return self.stages["output"]

    @property
    def stage_names(self) -> tuple[str, ...]:
        return tuple(self.stages)

    def matrix(self, name: str) -> ImmutableMatrix:
        """A stage by name, or an attention head's stage ("attention.head2.weights").

        Raises:
            InputError: an unknown name.
        """
        if name in self.stages:
            return self.stages[name]
        block, _, rest = name.partition(".")
        if block in self.attention and rest:
            return self.attention[block].matrix(rest)
        raise InputError(
            f"unknown stage {name!r} (expected one of {', '.join(self.stages)}, "
            f"or {'/'.join(self.attention)}.headN.STAGE)"
        )

    def decimals(self, name: str, places: int) -> list[list[str]]:
        """Certified decimals of a stage, rounded half away from zero, every digit guaranteed.

        Raises:
            InputError: an unknown stage or negative places.
            NotNumericError: the stage has free symbols.
        """
        block, _, rest = name.partition(".")
        if name not in self.stages and block in self.attention and rest:
            return self.attention[block].decimals(rest, places)
        key = (name, places)
        if key not in self._decimals:
            self._decimals[key] = matrix_decimals(name, self.matrix(name), places)
        return self._decimals[key]

    def __repr__(self) -> str:
        X = self.stages["X"]
        return f"<Layer {self.kind}: {X.rows} tokens, d_model={X.cols}, stages {', '.join(self.stages)}>"


def _ffn_parts(ffn: Any, activation: str) -> tuple[Any, ...]:
    if not isinstance(ffn, (list, tuple)) or len(ffn) not in (4, 6):
        raise InputError("ffn must be (W_1, b_1, W_2, b_2), or (W_1, b_1, W_2, b_2, W_3, b_3) for swiglu")
    if len(ffn) == 6 and activation != "swiglu":
        raise InputError(f"ffn has W_3 and b_3, which belong to swiglu, not {activation}")
    return tuple(ffn) + (None, None) * (len(ffn) == 4)


def _self_attention(X, heads, W_O, kv_heads, options, *, rope_options=None) -> MultiHead:
    if kv_heads is not None:
        block = grouped_query_attention(Exact(X), q_heads=heads, kv_heads=kv_heads, W_O=W_O, **options)
    else:
        block = multihead(Exact(X), heads, W_O, **options)
    if rope_options is not None:
        block = _rotary(block, rope_options)
    return _computed(block, X)


class RotaryAttention(Attention):
    """One attention head whose queries and keys are rotated by RoPE (:func:`rope`) before the scores.

    ``Q_linear = X W_Q`` and ``K_linear = X W_K`` are the projections; ``Q`` and ``K`` are
    them rotated, row m by the angles m·θ_i (m = ``rope_start`` + the row's index), so the
    scores Q Kᵀ depend on the positions only through their differences.
    """

    def __init__(self, att: Attention, *, base: Any = 10000, start: int = 0, layout: str = "interleaved"):
        super().__init__(
            att.X, att.W_Q, att.W_K, att.W_V, att.X_kv, att.factor, att.mask, att.labels, att.kv_labels
        )
        self.rope_start = _count(start, "rope.start", 0)
        self.rope_layout = _choice(layout, LAYOUTS, "rope.layout")
        if self.d_k % 2:
            raise ShapeError(
                f"rope: the queries and keys have d_k = {self.d_k} (W_Q is {_shape(self.W_Q)}), but RoPE "
                "rotates pairs of columns and needs an even d_k"
            )
        self.rope_base = _positive_number(base, "rope.base")
        self.rope_thetas = _frequencies(self.d_k, self.rope_base)
        self.rope_pairs = tuple(_pairs(self.d_k, self.rope_layout))

    @property
    def is_rational(self) -> bool:  # the rotated scores hold sines and cosines
        return False

    @cached_property
    def Q_linear(self) -> ImmutableMatrix:
        return registry.stage("Q").compute(self)

    @cached_property
    def K_linear(self) -> ImmutableMatrix:
        return registry.stage("K").compute(self)

    def _rotated(self, M: ImmutableMatrix) -> ImmutableMatrix:
        return rope(Exact(M), base=self.rope_base, start=self.rope_start, layout=self.rope_layout)

    @cached_property
    def Q(self) -> ImmutableMatrix:  # type: ignore[override]
        return self._rotated(self.Q_linear)

    @cached_property
    def K(self) -> ImmutableMatrix:  # type: ignore[override]
        return self._rotated(self.K_linear)

    def angle(self, m: int, i: int) -> sympy.Expr:
        """The rotation angle of row m (0-based) and pair i: (start + m) θ_i, exact."""
        return _mul(self.rope_start + m, self.rope_thetas[i])


def _rotary(block: MultiHead, options: Mapping[str, Any]) -> MultiHead:
    """The same heads with RoPE on their queries and keys (self-attention only)."""
    extra = set(options) - {"base", "start", "layout"}
    if extra:
        raise InputError(f"rope: unknown option {sorted(extra)[0]!r} (expected base, start, layout)")
    heads = tuple(RotaryAttention(head, **options) for head in block.heads)
    if isinstance(block, GroupedQueryAttention):
        return GroupedQueryAttention(heads, block.W_O, block.groups)
    return MultiHead(heads, block.W_O)


def _computed(block: MultiHead, *inputs: ImmutableMatrix) -> MultiHead:
    """Compute the heads' stages; structurally when an input holds large entries.

    The pipeline's products and softmax use SymPy's evaluating constructors, which
    for a layer's nested roots (a pre-norm input, a second layer) ask numeric
    questions of every product and take minutes.  Under ``sympy.evaluate(False)``
    the same stages are built as they are written, and stay exact.
    """
    if all(_simple(v) for M in inputs for v in M):
        block.output  # noqa: B018 - computes and caches the stages
        return block
    with sympy.evaluate(False):
        for head in block.heads:
            head.output  # noqa: B018 - computes and caches the stages
            head.weights  # noqa: B018
        block.output  # noqa: B018
    return block


def _add_ffn(out: dict, ffn: FeedForward) -> None:
    out["ffn_pre_activation"] = ffn.pre_activation
    if ffn.gate is not None:
        out["ffn_gate"] = ffn.gate
    out["ffn_activated"] = ffn.activated
    out["ffn"] = ffn.output


class _Sublayers:
    """Residual sublayers in order, each with its norm placed before or after (one code path)."""

    def __init__(self, X: ImmutableMatrix, norm: str, normalization: str, eps: Any) -> None:
        self.norm, self.normalization, self.eps = norm, normalization, eps
        self.stages: dict[str, ImmutableMatrix] = {"X": X}
        self.norms: dict[str, tuple[LayerNormRow, ...]] = {}
        self.current = X
        self.count = 0

    def _normed(self, X: ImmutableMatrix, params: Any) -> ImmutableMatrix:
        self.count += 1
        name = f"norm_{self.count}"
        value, rows = _normalize(self.normalization, X, params, self.eps, f"ln_{self.count}")
        if rows is not None:
            self.norms[name] = rows
        self.stages[name] = value
        return value

    def add(self, name: str, sublayer, params: Any) -> Any:
        """x → norm(x + f(x)) (post) or x + f(norm(x)) (pre); ``sublayer(x)`` gives (matrix, record)."""
        source = self._normed(self.current, params) if self.norm == "pre" else self.current
        value, record = sublayer(source)
        if name == "ffn":
            _add_ffn(self.stages, record)
        else:
            self.stages[name] = value
        total = residual(Exact(self.current), Exact(value), names=("the residual stream", name))
        self.stages[f"residual_{self.count + (self.norm == 'post')}"] = total
        self.current = self._normed(total, params) if self.norm == "post" else total
        return record

    def finish(self) -> dict[str, ImmutableMatrix]:
        self.stages["output"] = self.current
        return self.stages


def _check_layer_options(activation: str, norm: str, normalization: str) -> None:
    _choice(activation, ACTIVATIONS, "activation")
    _choice(norm, NORMS, "norm")
    _choice(normalization, NORMALIZATIONS, "normalization")


def encoder_layer(
    X: Any,
    *,
    heads: Sequence[Any],
    W_O: Any,
    ffn: Sequence[Any],
    activation: str = "relu",
    norm: str = "post",
    eps: Any = "1e-5",
    kv_heads: Sequence[Sequence[Any]] | None = None,
    ln_1: Sequence[Any] | None = None,
    ln_2: Sequence[Any] | None = None,
    normalization: str = "layer_norm",
    rope: Mapping[str, Any] | None = None,
    **attention_options: Any,
) -> Layer:
    """One encoder layer, every stage exact.

    Post-norm (the paper): H = LN(X + MHA(X)), Y = LN(H + FFN(H)).
    Pre-norm: H = X + MHA(LN(X)), Y = H + FFN(LN(H)).

    Args:
        X: the input rows (token embeddings, positions already added).
        heads: one (W_Q, W_K, W_V) per head; with ``kv_heads``, one W_Q per query head (GQA).
        W_O: the output projection of the concatenated heads (None: no projection).
        ffn: (W_1, b_1, W_2, b_2), or (W_1, b_1, W_2, b_2, W_3, b_3) for swiglu.
        activation: one of :data:`ACTIVATIONS`.
        norm: "post" or "pre".
        eps: ε of both norms (decimal text read exactly).
        kv_heads: (W_K, W_V) pairs shared by groups of query heads (GQA/MQA).
        ln_1, ln_2: (gamma, beta) of the first and second norm; None is γ = 1, β = 0.
        normalization: "layer_norm" or "rms_norm".
        rope: RoPE on the queries and keys of every head: a mapping of :func:`rope`'s
            options (base, start, layout), or None for none.
        **attention_options: passed to :func:`symattn.attention` (mask, scale, labels, …).

    Returns:
        A :class:`Layer`; its stages are X, [norm_1], attention, residual_1, norm_1/2,
        ffn_pre_activation, ffn_activated, ffn, residual_2, [norm_2], output.

    Raises:
        ShapeError, InputError: as for the stages.
    """
    _check_layer_options(activation, norm, normalization)
    X = _matrix(X, "X")
    W_1, b_1, W_2, b_2, W_3, b_3 = _ffn_parts(ffn, activation)
    attention: dict[str, MultiHead] = {}

    def mha(source: ImmutableMatrix):
        block = _self_attention(source, heads, W_O, kv_heads, attention_options, rope_options=rope)
        attention["attention"] = block
        return block.output, block

    def ffn_step(source: ImmutableMatrix):
        record = feed_forward_stages(
            Exact(source), W_1, b_1, W_2, b_2, activation, W_3=W_3, b_3=b_3, x_name="H"
        )
        return record.output, record

    layer = _Sublayers(X, norm, normalization, eps)
    layer.add("attention", mha, ln_1)
    record = layer.add("ffn", ffn_step, ln_2)
    return Layer("encoder", layer.finish(), attention, record, layer.norms)


def decoder_layer(
    X: Any,
    memory: Any,
    *,
    self_heads: Sequence[Any],
    self_W_O: Any,
    cross_heads: Sequence[Any],
    cross_W_O: Any,
    ffn: Sequence[Any],
    activation: str = "relu",
    norm: str = "post",
    eps: Any = "1e-5",
    kv_heads: Sequence[Sequence[Any]] | None = None,
    ln_1: Sequence[Any] | None = None,
    ln_2: Sequence[Any] | None = None,
    ln_3: Sequence[Any] | None = None,
    normalization: str = "layer_norm",
    scale: Any = "sqrt_dk",
    rope: Mapping[str, Any] | None = None,
) -> Layer:
    """One decoder layer: causal self-attention, cross-attention to ``memory``, then the FFN.

    Post-norm: H_1 = LN(X + SelfMHA(X)), H_2 = LN(H_1 + CrossMHA(H_1, memory)),
    Y = LN(H_2 + FFN(H_2)).  Pre-norm puts each LN before its sublayer:
    H_1 = X + SelfMHA(LN(X)), H_2 = H_1 + CrossMHA(LN(H_1), memory), Y = H_2 + FFN(LN(H_2)).
    Cross-attention takes its queries from the decoder and its keys and values from memory.

    Args:
        X: the decoder's input rows.
        memory: the encoder's output (the keys' and values' input of cross-attention): a
            matrix, or the encoder's :class:`Layer` (its output is then not read again).
        self_heads, self_W_O: the self-attention heads ((W_Q, W_K, W_V) each; with
            ``kv_heads``, one W_Q each) and projection.
        cross_heads, cross_W_O: the cross-attention heads and projection.
        ffn, activation, norm, eps, normalization: as for :func:`encoder_layer`.
        ln_1, ln_2, ln_3: (gamma, beta) of the three norms.
        scale: the attention scale of both attentions.
        rope: RoPE on the self-attention's queries and keys (see :func:`encoder_layer`).

    Returns:
        A :class:`Layer` with stages X, self_attention, residual_1, norm_1, cross_attention,
        residual_2, norm_2, ffn…, residual_3, norm_3 = output (post-norm).
    """
    _check_layer_options(activation, norm, normalization)
    X = _matrix(X, "X")
    memory_m = _matrix(memory, "memory")
    W_1, b_1, W_2, b_2, W_3, b_3 = _ffn_parts(ffn, activation)
    attention: dict[str, MultiHead] = {}

    def self_step(source: ImmutableMatrix):
        block = _self_attention(
            source, self_heads, self_W_O, kv_heads, {"mask": "causal", "scale": scale}, rope_options=rope
        )
        attention["self_attention"] = block
        return block.output, block

    def cross_step(source: ImmutableMatrix):
        block = _computed(
            multihead(Exact(source), cross_heads, cross_W_O, X_kv=Exact(memory_m), scale=scale),
            source,
            memory_m,
        )
        attention["cross_attention"] = block
        return block.output, block

    def ffn_step(source: ImmutableMatrix):
        record = feed_forward_stages(
            Exact(source), W_1, b_1, W_2, b_2, activation, W_3=W_3, b_3=b_3, x_name="H"
        )
        return record.output, record

    layer = _Sublayers(X, norm, normalization, eps)
    layer.add("self_attention", self_step, ln_1)
    layer.add("cross_attention", cross_step, ln_2)
    record = layer.add("ffn", ffn_step, ln_3)
    return Layer("decoder", layer.finish(), attention, record, layer.norms)


# --- a stack ------------------------------------------------------------------------------


class Transformer:
    """A stack of layers, then optionally a linear layer and a softmax over a vocabulary.

    Attributes:
        layers: the :class:`Layer` of each layer, in order.
        stages: "X" (the input), "embedded" (input + positions, when positions
            were added), "layerK.STAGE" for each layer's stages, "logits" and
            "probabilities" (with ``unembed``), and "output" (the last of them).
    """

    def __init__(self, stages_: Mapping[str, ImmutableMatrix], layers: tuple[Layer, ...]) -> None:
        self.stages = MappingProxyType(dict(stages_))
        self.layers = layers
        self._decimals: dict[tuple[str, int], list[list[str]]] = {}

    @property
    def output(self) -> ImmutableMatrix:
        return self.stages["output"]

    def matrix(self, name: str) -> ImmutableMatrix:
        """A stage by name ("layer2.norm_1", "probabilities", "layer1.attention.head1.weights").

        Raises:
            InputError: an unknown name.
        """
        if name in self.stages:
            return self.stages[name]
        found = registry.split_layer(name, len(self.layers))
        if found is not None:
            return self.layers[found[0]].matrix(found[1])
        raise InputError(f"unknown stage {name!r} (expected one of {', '.join(self.stages)})")

    def decimals(self, name: str, places: int) -> list[list[str]]:
        """Certified decimals of a stage (see :meth:`Layer.decimals`)."""
        key = (name, places)
        if key not in self._decimals:
            self._decimals[key] = matrix_decimals(name, self.matrix(name), places)
        return self._decimals[key]

    def __repr__(self) -> str:
        return f"<Transformer: {len(self.layers)} layers, stages {', '.join(self.stages)}>"


def _softmax(logits: ImmutableMatrix) -> ImmutableMatrix:
    """Row-wise softmax; each row shares one denominator, so it sums to 1 by construction."""
    rows = []
    for i in range(logits.rows):
        row = list(logits.row(i))
        shift = min(row) if all(v.is_Rational for v in row) else sympy.Integer(0)
        terms = [_apply(sympy.exp, _add(v, -shift)) for v in row]
        inverse = _pow(_add(*terms), -1)
        rows.append([_mul(t, inverse) for t in terms])
    return ImmutableMatrix(rows)


@contextmanager
def _located(place: str) -> Iterator[None]:
    """Prefix a SymattnError raised inside with the part of the stack it came from (``layers[2]: …``)."""
    try:
        yield
    except SymattnError as error:
        raise type(error)(f"{place}: {error}") from None


def transformer(
    X: Any,
    *,
    layers: Sequence[Mapping[str, Any]],
    positional: Any = None,
    unembed: Sequence[Any] | None = None,
    memory: Any = None,
) -> Transformer:
    """A stack of encoder or decoder layers, exactly.

    Args:
        X: the token embeddings.
        layers: one mapping per layer: the keyword arguments of :func:`encoder_layer`,
            or, with ``"kind": "decoder"``, of :func:`decoder_layer` (its memory is
            ``memory`` unless the mapping gives one).
        positional: None, "sinusoidal" (the paper's encoding, added to X), a mapping of
            :func:`positional_encoding` options plus ``"kind": "sinusoidal"``, or a
            matrix (learned positional encodings, added to X).
        unembed: (W_U, b_U): logits = Y W_U + b_U and their softmax over the vocabulary
            (next-token probabilities); None stops at the last layer.
        memory: the encoder output the decoder layers attend to.

    Raises:
        InputError: no layers, an unknown layer kind or positional option.
        ShapeError: as for the stages.
    """
    X = _matrix(X, "X")
    if not layers:
        raise InputError("transformer needs at least one layer")
    out: dict[str, ImmutableMatrix] = {"X": X}
    current = X
    if positional is not None:
        with _located("positional"):
            if isinstance(positional, (str, Mapping)):
                options = {"kind": positional} if isinstance(positional, str) else dict(positional)
                if options.pop("kind", "sinusoidal") != "sinusoidal":
                    raise InputError(f"unknown kind {positional!r} (expected sinusoidal or a matrix)")
                P = positional_encoding(X.rows, X.cols, **options)
            else:
                P = _matrix(positional, "positional")
            out["positional"] = P
            current = out["embedded"] = residual(Exact(X), Exact(P), names=("X", "positional"))
    built = []
    for k, spec in enumerate(layers, start=1):
        options = dict(spec)
        kind = options.pop("kind", "encoder")
        with _located(f"layers[{k}]"):
            if kind == "encoder":
                layer = encoder_layer(Exact(current), **options)
            elif kind == "decoder":
                layer = decoder_layer(Exact(current), options.pop("memory", memory), **options)
            else:
                raise InputError(f"unknown kind {kind!r} (expected encoder or decoder)")
        built.append(layer)
        out.update({f"layer{k}.{name}": value for name, value in layer.stages.items() if name != "X"})
        current = layer.output
    if unembed is not None:
        if not isinstance(unembed, (list, tuple)) or len(unembed) != 2:
            raise InputError("unembed must be (W_U, b_U)")
        with _located("unembed"):
            logits = _affine(
                current,
                _matrix(unembed[0], "W_U"),
                unembed[1],
                w_name="W_U",
                b_name="b_U",
                x_name="the last layer's output",
            )
        out["logits"] = logits
        current = out["probabilities"] = _softmax(logits)
    out["output"] = current
    return Transformer(out, tuple(built))
