"""One pure function per stage of scaled dot-product attention.

Every function takes exact values and returns exact values
(``sympy.ImmutableMatrix`` or SymPy expressions), never strings.  Closed forms
are built structurally; nothing here calls ``sympy.simplify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import flint
import sympy
from sympy import QQ, ZZ, ImmutableMatrix

from symattn.errors import (
    DivisionByZeroError,
    FullyMaskedRowError,
    InputError,
    MaskError,
    ShapeError,
    counted,
)
from symattn.exact import Enclosure, enclose, free_symbols, to_exact, to_matrix

__all__ = [
    "SoftmaxRow",
    "causal_mask",
    "hconcat",
    "identity",
    "matmul",
    "normalise_mask",
    "scale_factor",
    "scale_scores",
    "shape_text",
    "softmax_output",
    "softmax_rows",
    "softmax_terms",
    "transpose",
    "weighted_sum",
]

NEG_INF = -sympy.oo


def shape_text(matrix: ImmutableMatrix) -> str:
    """``"3×2"`` for a 3-by-2 matrix."""
    return f"{matrix.rows}×{matrix.cols}"


def identity(n: int) -> ImmutableMatrix:
    """The n-by-n identity matrix."""
    return ImmutableMatrix(sympy.eye(n))


def is_rational(matrix: ImmutableMatrix) -> bool:
    """Whether every entry is a rational number (read through DomainMatrix: fast).

    Entries that are not numbers are refused before ``to_DM``, whose choice of
    domain expands every entry (minutes for the nested roots of a layer norm).
    """
    rep = getattr(matrix, "_rep", None)
    if rep is not None and rep.domain in (ZZ, QQ):
        return True
    if not all(entry.is_Rational for entry in matrix):
        return False
    return matrix.to_DM().domain in (ZZ, QQ)


def to_fmpq_mat(matrix: ImmutableMatrix) -> flint.fmpq_mat:
    """A rational SymPy matrix as a python-flint ``fmpq_mat``."""
    dm = matrix.to_DM()
    if dm.domain in (ZZ, QQ):
        try:  # SymPy's flint-backed dense matrices: no per-entry Python work
            return dm.convert_to(QQ).to_dfm().rep
        except (ImportError, NotImplementedError, ValueError):
            pass
    entries = [flint.fmpq(int(e.p), int(e.q)) for e in matrix]
    return flint.fmpq_mat(matrix.rows, matrix.cols, entries)


def from_fmpq_mat(matrix: flint.fmpq_mat) -> ImmutableMatrix:
    """A python-flint ``fmpq_mat`` as an immutable SymPy matrix (through SymPy's flint-backed
    DomainMatrix where it has one: no SymPy number per entry is built until one is read)."""
    rows, cols = matrix.nrows(), matrix.ncols()
    try:
        from sympy.polys.matrices import DomainMatrix
        from sympy.polys.matrices._dfm import DFM

        dm = DomainMatrix.from_rep(DFM(matrix, (rows, cols), QQ)).to_sparse()
        if all(entry.q == 1 for entry in matrix.entries()):
            dm = dm.convert_to(ZZ)
        return ImmutableMatrix._fromrep(dm)
    except (ImportError, AttributeError, TypeError, NotImplementedError, ValueError):  # another SymPy
        pass
    return ImmutableMatrix(
        rows,
        cols,
        [sympy.Rational(int(matrix[i, j].p), int(matrix[i, j].q)) for i in range(rows) for j in range(cols)],
    )


def matmul(A: ImmutableMatrix, B: ImmutableMatrix, *, left: str = "A", right: str = "B") -> ImmutableMatrix:
    """The exact product A·B.

    Rational matrices are multiplied by python-flint (``fmpq_mat``); others
    by SymPy.

    Raises:
        ShapeError: the inner dimensions differ, naming both matrices.

    >>> matmul(ImmutableMatrix([[1, 2]]), ImmutableMatrix([[3], [4]]))
    Matrix([[11]])
    """
    if A.cols != B.rows:
        raise ShapeError(
            f"{left} has {counted(A.cols, 'column')} but {right} has {counted(B.rows, 'row')} "
            f"({left} is {shape_text(A)}, {right} is {shape_text(B)})"
        )
    if is_rational(A) and is_rational(B):
        return from_fmpq_mat(to_fmpq_mat(A) * to_fmpq_mat(B))
    # Zero products are skipped: SymPy's 0·x asks whether x is finite, which
    # evaluates a large x (a layer norm's roots) numerically, again and again.
    return ImmutableMatrix(
        A.rows,
        B.cols,
        lambda i, j: sympy.Add(*(A[i, k] * B[k, j] for k in range(A.cols) if A[i, k] != 0 and B[k, j] != 0)),
    )


def transpose(matrix: ImmutableMatrix) -> ImmutableMatrix:
    """Mᵀ."""
    return ImmutableMatrix(matrix.T)


def hconcat(matrices: Sequence[ImmutableMatrix], *, names: Sequence[str] | None = None) -> ImmutableMatrix:
    """Place matrices side by side (the concatenation of attention heads).

    Raises:
        ShapeError: the matrices have different numbers of rows.
    """
    names = list(names) if names is not None else [f"head {k}" for k in range(1, len(matrices) + 1)]
    for name, matrix in zip(names, matrices, strict=True):
        if matrix.rows != matrices[0].rows:
            raise ShapeError(
                f"{name} has {counted(matrix.rows, 'row')} but {names[0]} has {matrices[0].rows}"
            )
    return ImmutableMatrix(sympy.Matrix.hstack(*matrices))


def scale_factor(d_k: int, scale: Any = "sqrt_dk", temperature: Any = 1) -> sympy.Expr:
    """The exact factor c with scaled = c · scores.

    Args:
        d_k: the key dimension.
        scale: ``"sqrt_dk"`` (c = 1/√d_k), ``"none"`` (c = 1), or an exact
            number or expression (string grammar of :func:`symattn.exact.to_exact`).
        temperature: divides the scores.

    Returns:
        c = scale / temperature, exact.

    Raises:
        DivisionByZeroError: a zero temperature.
        InputError: a non-positive numeric scale or temperature.

    >>> scale_factor(2)
    sqrt(2)/2
    """
    if scale == "sqrt_dk":
        factor = 1 / sympy.sqrt(d_k)
    elif scale == "none":
        factor = sympy.Integer(1)
    else:
        factor = to_exact(scale, where="scale")
    temperature = to_exact(temperature, where="temperature")
    if temperature == 0:
        raise DivisionByZeroError("temperature is 0; the scores would be divided by zero")
    for what, value in (("scale", factor), ("temperature", temperature)):
        if value.is_number and not enclose(value, 64) > 0:
            raise InputError(f"{what} must be positive but is {value}")
    return factor / temperature


def causal_mask(n_q: int, n_k: int) -> ImmutableMatrix:
    """The causal mask: query i may look at keys j <= i (0 to keep, -oo to drop).

    >>> causal_mask(2, 2)
    Matrix([
    [0, -oo],
    [0,   0]])
    """
    return ImmutableMatrix(n_q, n_k, lambda i, j: 0 if j <= i else NEG_INF)


def normalise_mask(
    mask: Any, n_q: int, n_k: int, *, row_labels: Sequence[str] | None = None
) -> ImmutableMatrix | None:
    """Read a mask as a matrix of 0 (keep) and -oo (drop).

    Args:
        mask: None, ``"causal"``, an additive matrix of 0 and -inf, or a
            boolean matrix (True keeps a key).
        n_q: number of queries (rows).
        n_k: number of keys (columns).
        row_labels: token labels, used in the fully-masked-row message.

    Returns:
        The additive mask, or None for no mask.

    Raises:
        MaskError: entries other than 0/-inf or booleans, or an unknown name.
        ShapeError: the mask's shape is not n_q × n_k.
        FullyMaskedRowError: some query row keeps no key.
    """
    if mask is None:
        return None
    if isinstance(mask, str):
        if mask != "causal":
            raise MaskError(f'mask: unknown mask {mask!r} (expected "causal" or a matrix)')
        additive = causal_mask(n_q, n_k)
    else:
        rows = mask.tolist() if hasattr(mask, "tolist") else mask
        if rows and all(isinstance(v, bool) for row in rows for v in row):
            rows = [[0 if v else NEG_INF for v in row] for row in rows]
        elif any(isinstance(v, bool) for row in rows for v in row):
            raise MaskError("mask mixes booleans and numbers; use all true/false or all 0/-inf")
        additive = to_matrix(rows, name="mask", allow_infinite=True)
        for (i, j), value in _entries(additive):
            if value not in (0, NEG_INF):
                shown = "inf" if value == sympy.oo else value
                raise MaskError(f"mask[{i},{j}] is {shown}; an additive mask holds only 0 and -inf")
    if additive.shape != (n_q, n_k):
        raise ShapeError(f"mask is {shape_text(additive)} but the scores are {n_q}×{n_k}")
    for i in range(n_q):
        if all(additive[i, j] == NEG_INF for j in range(n_k)):
            label = f" ({row_labels[i]!r})" if row_labels else ""
            raise FullyMaskedRowError(
                f"mask row {i + 1}{label} removes every key, so its softmax is undefined"
            )
    return additive


def _entries(matrix: ImmutableMatrix):
    for i in range(matrix.rows):
        for j in range(matrix.cols):
            yield (i + 1, j + 1), matrix[i, j]


def scale_scores(
    scores: ImmutableMatrix, factor: sympy.Expr, mask: ImmutableMatrix | None = None
) -> ImmutableMatrix:
    """c · scores, with -oo where the mask drops a key.

    Raises:
        ShapeError: the mask's shape differs from the scores'.
    """
    if mask is not None and mask.shape != scores.shape:
        raise ShapeError(f"mask is {shape_text(mask)} but the scores are {shape_text(scores)}")
    return ImmutableMatrix(
        scores.rows,
        scores.cols,
        lambda i, j: NEG_INF if mask is not None and mask[i, j] == NEG_INF else factor * scores[i, j],
    )


@dataclass(frozen=True)
class SoftmaxRow:
    """One row of the softmax in closed form: weight_j = terms[j] / denominator.

    Attributes:
        shift: the exponent subtracted from every entry (the row's smallest
            unmasked scaled score, or 0 when the order cannot be decided).
        terms: e^(s_j - shift) per key, exactly 0 where masked.
        denominator: the sum of the terms (one shared SymPy object).
    """

    shift: sympy.Expr
    terms: tuple[sympy.Expr, ...]
    denominator: sympy.Expr

    def weights(self) -> tuple[sympy.Expr, ...]:
        """terms[j] / denominator, built structurally."""
        inverse = sympy.Pow(self.denominator, -1)
        return tuple(sympy.Mul(term, inverse) if term != 0 else sympy.Integer(0) for term in self.terms)


def _row_minimum(values: list[sympy.Expr]) -> sympy.Expr:
    """The smallest value, or 0 when the values cannot be ordered exactly."""
    if all(v.is_Rational for v in values):
        return min(values)
    if any(free_symbols(v) for v in values):  # over the DAG: a layer's scores share their rows' roots
        return sympy.Integer(0)
    balls = Enclosure(128)  # memoised, so the row's shared subexpressions are evaluated once
    best = values[0]
    for value in values[1:]:
        difference = value - best
        if difference == 0:
            continue
        ball = balls(difference)
        if ball < 0:
            best = value
        elif not ball > 0:
            return sympy.Integer(0)
    return best


def softmax_terms(scaled: ImmutableMatrix) -> tuple[SoftmaxRow, ...]:
    """The row-wise softmax of ``scaled`` as closed-form rows.

    Each row is divided by its smallest term, so every exponent is >= 0 and
    the terms equal to the minimum become 1: for scaled scores
    (√2/2, √2/2, √2) the weights are 1/(2 + e^{√2/2}) twice and
    e^{√2/2}/(2 + e^{√2/2}).  Masked entries (-oo) have weight exactly 0.

    Raises:
        FullyMaskedRowError: a row is entirely -oo.
    """
    rows = []
    for i in range(scaled.rows):
        row = list(scaled.row(i))
        live = [v for v in row if v != NEG_INF]
        if not live:
            raise FullyMaskedRowError(f"row {i + 1} of the scores is fully masked")
        shift = _row_minimum(live)
        terms = tuple(sympy.Integer(0) if v == NEG_INF else sympy.exp(v - shift) for v in row)
        rows.append(SoftmaxRow(shift, terms, sympy.Add(*terms)))
    return tuple(rows)


def softmax_rows(scaled: ImmutableMatrix) -> ImmutableMatrix:
    """Row-wise softmax in closed form; each row sums to exactly 1 by construction.

    >>> softmax_rows(ImmutableMatrix([[0, 0]]))
    Matrix([[1/2, 1/2]])
    """
    return ImmutableMatrix([list(row.weights()) for row in softmax_terms(scaled)])


def softmax_output(rows: Sequence[SoftmaxRow], V: ImmutableMatrix) -> ImmutableMatrix:
    """weights · V with each entry one fraction (Σ_j t_j V_jk) / D.

    Raises:
        ShapeError: the number of keys differs from V's rows.
    """
    if rows and len(rows[0].terms) != V.rows:
        raise ShapeError(
            f"the weights have {counted(len(rows[0].terms), 'column')} but V has {counted(V.rows, 'row')}"
        )
    out = []
    for row in rows:
        inverse = sympy.Pow(row.denominator, -1)
        out.append(
            [
                sympy.Mul(sympy.Add(*(t * V[j, k] for j, t in enumerate(row.terms))), inverse)
                for k in range(V.cols)
            ]
        )
    return ImmutableMatrix(out)


def weighted_sum(
    A: ImmutableMatrix, V: ImmutableMatrix, *, left: str = "A", right: str = "V"
) -> ImmutableMatrix:
    """A·V: each output row is Σ_j A[i,j] · v_j.

    Raises:
        ShapeError: the inner dimensions differ.
    """
    return matmul(A, V, left=left, right=right)
