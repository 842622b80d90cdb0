"""Values in the two worlds, and the arithmetic the verifier does on them.

A :class:`Val` holds a quantity in world (a) (the document's printed numbers)
and world (b) (the true value), the lines of wrong numbers it depends on, and
its terms when it is a sum.  Matrix products and transposes are delegated to
:mod:`symattn.stages`; sums and scalings are built structurally; decisions
use certified enclosures from :mod:`symattn.exact`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import ShapeError, ValueTooLargeError
from symattn.exact import enclose
from symattn.limits import MAX_DOCUMENT_EXP_ARGUMENT
from symattn.verify.claims import exact_text, larger_than

__all__ = [
    "MAX_EXP_ARGUMENT",
    "NEG_INF",
    "Binding",
    "Unverifiable",
    "Val",
    "add_values",
    "bounded_exp",
    "equal",
    "exact_cells",
    "is_matrix",
    "multiply",
    "row_deps",
    "rows_joined",
    "scale",
    "shape_text",
    "within",
]

#: exp(x) is refused for |x| above this bound (e^{e^{e^{10}}}); the value is symattn.limits'.
MAX_EXP_ARGUMENT = MAX_DOCUMENT_EXP_ARGUMENT


NEG_INF = -sympy.oo

#: Differences up to this many operations are put over one denominator to decide
#: whether they are zero (never ``simplify``; a larger one stays undecided).
MAX_ZERO_TEST_OPS = 400


class Unverifiable(Exception):
    """Internal: a chain element cannot be evaluated; the message is the reason."""


@dataclass(frozen=True)
class Val:
    """A value in both worlds, the wrong lines it depends on, and its terms."""

    a: Any
    b: Any
    deps: frozenset[tuple[int, bool]] = frozenset()
    terms: tuple[Val, ...] | None = None
    arith: bool = True  # built by exact arithmetic (no softmax, exp, roots) from printed numbers
    ball: Any = None  # the same computation on the printed numbers' rounding intervals (balls.py)
    truth: bool = True  # world (b) holds no untied rounded printed number: it is the true value
    rows: tuple[frozenset[tuple[int, bool]], ...] | None = None  # a matrix's deps row by row, when known


def row_of(value: Val | Binding, i: int) -> Val:
    """Row ``i`` (0-based) of a matrix, in both worlds, with that row's lines (:func:`row_deps`)."""
    return Val(
        ImmutableMatrix(value.a.row(i)),
        ImmutableMatrix(value.b.row(i)),
        row_deps(value, i),
        arith=value.arith,
    )


def row_deps(value: Val | Binding, i: int | None) -> frozenset[tuple[int, bool]]:
    """The lines row ``i`` of a matrix depends on: its own row's when they are
    known (row 2 of AV comes from row 2 of A), else the whole value's."""
    rows = value.rows
    if i is None or rows is None or not 0 <= i < len(rows):
        return value.deps
    return rows[i]


def rows_joined(rows: tuple[frozenset[tuple[int, bool]], ...] | None, extra: frozenset) -> Any:
    """Per-row deps with ``extra`` (a scalar's, the right factor's) added to each row."""
    return None if rows is None else tuple(r | extra for r in rows)


@dataclass(frozen=True)
class Binding:
    """What a name means in world (a) and world (b)."""

    a: Any
    b: Any
    deps: frozenset[tuple[int, bool]]
    arith: bool = True
    halfwidth: Any = None  # printed values: half a unit of each cell's last place (rows of them)
    rows: tuple[frozenset[tuple[int, bool]], ...] | None = None  # deps row by row, when known


def is_matrix(value: Any) -> bool:
    return isinstance(value, sympy.MatrixBase)


def shape_text(value: Any) -> str:
    return f"{value.rows}×{value.cols}" if is_matrix(value) else "a scalar"


def entry_of_1x1(value: Any) -> Any:
    """The entry of a 1×1 matrix (``q_1 · k_1`` of two 1-vectors is a number), else ``value``."""
    return value[0, 0] if is_matrix(value) and value.shape == (1, 1) else value


def equal(x: Any, y: Any) -> bool | None:
    """Exact equality of two values (True, False, or None when undecided); a
    1×1 matrix equals its entry."""
    if is_matrix(x) != is_matrix(y):
        x, y = entry_of_1x1(x), entry_of_1x1(y)
        if is_matrix(x) or is_matrix(y):
            return False
    if is_matrix(x):
        if x.shape != y.shape:
            return False
        verdicts = [equal(p, q) for p, q in zip(x, y, strict=True)]
        if False in verdicts:
            return False
        return None if None in verdicts else True
    if x == y:
        return True
    if NEG_INF in (x, y) or sympy.oo in (x, y):
        return False
    difference = x - y
    if difference == 0:
        return True
    if not difference.free_symbols:
        ball = enclose(difference, 128)
        if not ball.contains(0):
            return False
    if larger_than(difference, 4 * MAX_ZERO_TEST_OPS):
        return None  # expanding a large difference (a layer's nested roots) could take any time
    # with symbols (X = [[a, 0], [0, b]]) only a proof of equality counts: unequal
    # forms may still agree on the domain the author has in mind
    try:
        expanded = sympy.expand(difference)
    except (ValueError, TypeError):  # Max(0, h) of an undecided ReLU sign: "not comparable"
        return None
    if expanded == 0:
        return True
    if sympy.count_ops(difference) <= MAX_ZERO_TEST_OPS:  # small: over one denominator, structurally
        try:
            numerator, _ = sympy.fraction(sympy.together(difference))
            if sympy.expand(numerator) == 0:
                return True
        except (ValueError, TypeError):
            return None
    return None


def bounded_exp(x: Any) -> Any:
    if getattr(x, "is_number", False):
        ball = enclose(x, 64)
        if not ball.is_finite() or ball > MAX_EXP_ARGUMENT:
            raise ValueTooLargeError(f"e^({exact_text(x) or x}) is too large to evaluate")
    return sympy.exp(x)


def scale(value: Any, factor: Any) -> Any:
    if is_matrix(value):
        return ImmutableMatrix(value.rows, value.cols, [times(factor, v) for v in value])
    return times(factor, value)


def times(x: Any, y: Any) -> Any:
    if (x in (sympy.oo, NEG_INF) or y in (sympy.oo, NEG_INF)) and (x == 0 or y == 0):
        raise Unverifiable("0 times infinity")
    return x * y


def multiply(x: Any, y: Any) -> Any:
    if is_matrix(x) and is_matrix(y):
        if x.rows == 1 and y.rows == 1 and x.cols == y.cols > 1:
            # two row vectors, [1, 3] · [2, 4]: written as a dot product
            return sympy.Add(*(times(p, q) for p, q in zip(x, y, strict=True)))
        if x.shape == (1, 1):
            return scale(y, x[0, 0])
        if y.shape == (1, 1):
            return scale(x, y[0, 0])
        return stages.matmul(
            ImmutableMatrix(x), ImmutableMatrix(y), left="the left factor", right="the right factor"
        )
    if is_matrix(x):
        return scale(x, y)
    if is_matrix(y):
        return scale(y, x)
    return times(x, y)


def add_values(values: list[Any]) -> Any:
    matrices = [v for v in values if is_matrix(v)]
    if matrices and len(matrices) != len(values):
        raise ShapeError("a matrix is added to a scalar")
    if not matrices:
        return sympy.Add(*values)
    shape = matrices[0].shape
    for matrix in matrices:
        if matrix.shape != shape:
            raise ShapeError(
                f"cannot add a {shape_text(matrix)} matrix to a {shape_text(matrices[0])} matrix"
            )
    return ImmutableMatrix(
        shape[0],
        shape[1],
        [sympy.Add(*(m[i, j] for m in matrices)) for i in range(shape[0]) for j in range(shape[1])],
    )


def within(value: Any, target: Any, tolerance: Any) -> bool | None:
    difference = value - target
    if difference == 0:
        return True
    if difference.free_symbols:
        return None
    ball = enclose(difference, 128)
    if ball.abs_upper() <= enclose(tolerance, 128):
        return True
    if ball.abs_lower() > enclose(tolerance, 128):
        return False
    return None


def exact_cells(printed: Any, true: Any, halfwidth: Any) -> Any:
    """The half-units of a printed value, none for a cell printed exactly as it truly is
    (``x^2 = [1.44, 0.64, …]`` of x = [1.2, −0.8, …] claims 1.44, not 1.44 ± 0.005)."""
    if not isinstance(halfwidth, list) or not is_matrix(printed) or not is_matrix(true):
        return halfwidth
    if printed.shape != true.shape or len(halfwidth) != printed.rows:
        return halfwidth
    return [
        [None if equal(printed[i, j], true[i, j]) is True else h for j, h in enumerate(row)]
        for i, row in enumerate(halfwidth)
    ]
