"""attention() and multihead(): the stages in order, and comparing claims.

    attention(X) -> Attention
      inputs   X, W_Q, W_K, W_V (identity when None), X_kv for cross-attention
      Q, K, V  = X W_Q, X_kv W_K, X_kv W_V            (stages.matmul)
      scores   = Q Kᵀ                                  (stages.matmul)
      scaled   = c · scores, -oo where masked          (stages.scale_scores)
      weights  = row-wise softmax, closed form         (stages.softmax_terms)
      output   = weights · V, one fraction per entry   (stages.softmax_output)

Rational inputs are multiplied in python-flint and the closed forms are built
lazily, only when something asks for them; certified decimals of the weights
and outputs come from the arb fast path in :mod:`symattn.numeric` when it
applies, and from :func:`symattn.exact.certified_decimal` otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import flint
import sympy
from sympy import ImmutableMatrix

from symattn import registry, stages
from symattn.errors import InputError, ShapeError, SymattnError, counted
from symattn.exact import (
    Claim,
    IntegerRows,
    certified_decimal,
    claim_holds,
    claim_kind,
    integer_rows,
    parse_claim,
    rational_matrix,
    to_matrix,
)

__all__ = ["Attention", "CellCheck", "Comparison", "MultiHead", "Stage", "attention", "multihead"]

#: Stage names in order, with the formula each stage computes at the default scale 1/√d_k
#: (:meth:`Attention.stages` gives each attention's own, from :func:`symattn.registry.formula`).
STAGE_FORMULAS: dict[str, str] = {d.name: registry.formula(d.name) for d in registry.ATTENTION if not d.cross}
CROSS_FORMULAS = {name: registry.formula(name, cross=True) for name in ("K", "V", "X_kv")}


@dataclass(frozen=True)
class Stage:
    """One stage: its name, its defining LaTeX formula and its exact value."""

    name: str
    latex: str
    value: ImmutableMatrix


@dataclass(frozen=True)
class CellCheck:
    """One claimed entry against its true value.

    Attributes:
        row, col: 1-based position.
        claim: the printed number.
        exact: the true exact value.
        decimal: the true value to the claim's places + 3, certified.
        difference: true − claimed, to the same places, certified.
        kind: "ok", "rounding", "wrong" or "carried".
        carried_from: for "carried", the claimed stage the error came from.
    """

    row: int
    col: int
    claim: Claim
    exact: sympy.Expr
    decimal: str
    difference: str
    kind: str
    carried_from: str | None = None

    @property
    def ok(self) -> bool:
        return self.kind == "ok"


@dataclass(frozen=True)
class Comparison:
    """A claimed matrix compared entry by entry with the true one.

    Attributes:
        name: the stage compared ("weights", "output", ...).
        cells: rows of :class:`CellCheck`.
        recomputed_output: for claimed weights, claimed weights · V (exact).
        true_output: for claimed weights, the true output.
    """

    name: str
    cells: tuple[tuple[CellCheck, ...], ...]
    recomputed_output: ImmutableMatrix | None = None
    true_output: ImmutableMatrix | None = None

    @property
    def ok(self) -> bool:
        return all(cell.ok for row in self.cells for cell in row)

    @property
    def wrong(self) -> list[CellCheck]:
        return [cell for row in self.cells for cell in row if not cell.ok]

    def __repr__(self) -> str:
        total = sum(len(row) for row in self.cells)
        wrong = self.wrong
        listed = ", ".join(f"[{c.row},{c.col}]" for c in wrong[:6]) + (", …" if len(wrong) > 6 else "")
        detail = f": {listed}" if wrong else ""
        return f"<Comparison {self.name}: {total} claimed entries, {len(wrong)} wrong{detail}>"

    def _repr_html_(self) -> str:
        """Jupyter: every claimed entry against its certified true value, with the verdict."""
        from symattn.render import html

        rows = [
            [
                f"[{c.row},{c.col}]",
                c.claim.text,
                c.decimal,
                c.kind + (f" (from {c.carried_from})" if c.carried_from else ""),
            ]
            for row in self.cells
            for c in row
        ]
        return html.section(
            repr(self)[1:-1], html.table(["entry", "claimed", "true (certified)", "verdict"], rows)
        )


def _claims_matrix(claimed: Any, name: str) -> list[list[Claim]]:
    rows = claimed.tolist() if hasattr(claimed, "tolist") else claimed
    if not isinstance(rows, (list, tuple)) or not rows or not all(isinstance(r, (list, tuple)) for r in rows):
        raise InputError(f"claims.{name}: expected a matrix (a list of rows)")
    width = len(rows[0])
    for index, row in enumerate(rows, start=1):
        if len(row) != width:
            raise InputError(
                f"claims.{name}: row {index} has {counted(len(row), 'entry', 'entries')} but row 1 has {width}"
            )
    return [[value if isinstance(value, Claim) else parse_claim(str(value)) for value in row] for row in rows]


def _matrix_decimals(
    name: str,
    matrix: ImmutableMatrix,
    places: int,
    certify: Callable[[Any, int], str] = certified_decimal,
) -> list[list[str]]:
    """Certified decimals entry by entry (by ``certify``); an error names the entry (``Q[1,1]: ...``)."""
    rows = []
    for i in range(matrix.rows):
        row = []
        for j in range(matrix.cols):
            try:
                row.append(certify(matrix[i, j], places))
            except SymattnError as error:
                raise type(error)(f"{name}[{i + 1},{j + 1}]: {error}") from None
        rows.append(row)
    return rows


def _shown_places(claim: Claim) -> int:
    return (claim.places if claim.places is not None else 0) + 3


def compare_matrix(
    name: str,
    true: ImmutableMatrix,
    claimed: Any,
    *,
    given: ImmutableMatrix | None = None,
    given_from: str | None = None,
) -> Comparison:
    """Compare a claimed matrix with the true one, entry by entry.

    Args:
        name: what is compared, used in messages.
        true: the exact true matrix.
        claimed: a matrix of printed numbers (strings, ints or Claims).
        given: the value the document's own earlier numbers imply; a wrong
            entry that matches it is "carried".
        given_from: the name of the claim ``given`` came from.

    Raises:
        ShapeError: the claimed matrix's shape differs from the true one's.
    """
    claims = _claims_matrix(claimed, name)
    if (len(claims), len(claims[0])) != true.shape:
        raise ShapeError(
            f"claims.{name} is {len(claims)}×{len(claims[0])} but the true {name} matrix is {true.rows}×{true.cols}"
        )
    rows = []
    for i, claim_row in enumerate(claims):
        cells = []
        for j, claim in enumerate(claim_row):
            value = true[i, j]
            kind = claim_kind(claim, value)
            carried_from = None
            if kind != "ok" and given is not None and claim_holds(claim, given[i, j]):
                kind, carried_from = "carried", given_from
            places = _shown_places(claim)
            cells.append(
                CellCheck(
                    row=i + 1,
                    col=j + 1,
                    claim=claim,
                    exact=value,
                    decimal=certified_decimal(value, places),
                    difference=certified_decimal(value - claim.value, places),
                    kind=kind,
                    carried_from=carried_from,
                )
            )
        rows.append(tuple(cells))
    return Comparison(name, tuple(rows))


class Attention:
    """Scaled dot-product attention, every stage exact.  Build it with :func:`attention`."""

    def __init__(  # noqa: PLR0917 - private; attention() is the public, keyword-only door
        self,
        X: ImmutableMatrix,
        W_Q: ImmutableMatrix,
        W_K: ImmutableMatrix,
        W_V: ImmutableMatrix,
        X_kv: ImmutableMatrix | None,
        factor: sympy.Expr,
        mask: ImmutableMatrix | None,
        labels: tuple[str, ...] | None,
        kv_labels: tuple[str, ...] | None,
    ) -> None:
        # each input as given: a SymPy matrix, or a python-flint fmpq_mat read in bulk whose
        # SymPy form is built on first access (rational inputs need none on the fast path)
        self._given: dict[str, Any] = {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V, "X_kv": X_kv}
        self.factor = factor
        self.mask = mask
        self.labels = labels
        self.kv_labels = kv_labels if X_kv is not None else labels
        self.d_k = _shape(W_Q)[1]

    def _input(self, name: str) -> Any:
        """Input ``name`` as a SymPy matrix (built from its fmpq_mat once, on first access)."""
        value = self._given[name]
        if isinstance(value, (flint.fmpq_mat, IntegerRows)):
            self.__dict__.setdefault("_flint_given", {})[name] = value
            fmpq = value.fmpq() if isinstance(value, IntegerRows) else value
            value = self._given[name] = stages.from_fmpq_mat(fmpq)
        return value

    def _bulk_input(self, name: str) -> Any:
        """Input ``name`` as it was read, before any SymPy matrix was built from it."""
        return self.__dict__.get("_flint_given", {}).get(name, self._given[name])

    def _flint_input(self, name: str) -> flint.fmpq_mat:
        """Input ``name`` as an fmpq_mat (rational inputs only)."""
        value = self._bulk_input(name)
        if isinstance(value, IntegerRows):
            return value.fmpq()
        return value if isinstance(value, flint.fmpq_mat) else stages.to_fmpq_mat(value)

    X = property(lambda self: self._input("X"), doc="The queries' input (rows are tokens).")
    W_Q = property(lambda self: self._input("W_Q"), doc="The query projection.")
    W_K = property(lambda self: self._input("W_K"), doc="The key projection.")
    W_V = property(lambda self: self._input("W_V"), doc="The value projection.")
    X_kv = property(lambda self: self._input("X_kv"), doc="The keys' and values' input (None: X).")

    # --- the stages -------------------------------------------------------------

    @property
    def is_cross(self) -> bool:
        return self._given["X_kv"] is not None

    @property
    def _source(self) -> ImmutableMatrix:
        return self.X_kv if self.is_cross else self.X

    @property
    def _source_given(self) -> ImmutableMatrix | flint.fmpq_mat | IntegerRows:
        return self._given["X_kv"] if self.is_cross else self._given["X"]

    Q = registry.computed("Q")

    K = registry.computed("K")

    V = registry.computed("V")

    @cached_property
    def _flint_products(self):
        """(scores, V) in python-flint, without building SymPy matrices; from inputs read in
        bulk as integers, without building python-flint matrices of them either."""
        from symattn.numeric import exact_products, integer_products

        names = ("X", "W_Q", "W_K", "W_V") + (("X_kv",) if self._given["X_kv"] is not None else ())
        bulk = [self._bulk_input(name) for name in names]
        if all(isinstance(value, IntegerRows) for value in bulk):
            return integer_products(*bulk[:4], X_kv=bulk[4] if len(bulk) == 5 else None)
        X, W_Q, W_K, W_V = (self._flint_input(name) for name in ("X", "W_Q", "W_K", "W_V"))
        X_kv = self._flint_input("X_kv") if self._given["X_kv"] is not None else None
        return exact_products(X, W_Q, W_K, W_V, X_kv=X_kv)

    @property
    def _source_name(self) -> str:
        return "X_kv" if self.is_cross else "X"

    scores = registry.computed("scores")

    scaled = registry.computed("scaled")

    @cached_property
    def softmax_rows(self) -> tuple[stages.SoftmaxRow, ...]:
        """The closed-form rows (shift, terms, shared denominator)."""
        return stages.softmax_terms(self.scaled)

    weights = registry.computed("weights")

    output = registry.computed("output")

    @property
    def stage_names(self) -> tuple[str, ...]:
        return registry.attention_stage_names(cross=self.is_cross)

    def formula(self, name: str) -> str:
        """The LaTeX formula of a stage, for this attention's scale, mask and source."""
        return registry.formula(name, self)

    @property
    def stages(self) -> tuple[Stage, ...]:
        """Every stage in order, with its formula (for this scale) and exact value."""
        return tuple(Stage(name, self.formula(name), self.matrix(name)) for name in self.stage_names)

    def matrix(self, name: str) -> ImmutableMatrix:
        """The exact matrix of a stage by name.

        Raises:
            InputError: an unknown stage name.
        """
        if name not in self.stage_names:
            raise InputError(f"unknown stage {name!r} (expected one of {', '.join(self.stage_names)})")
        return getattr(self, name)

    @cached_property
    def is_numeric(self) -> bool:
        """No free symbols anywhere in the inputs or the scale."""
        if self.is_rational:
            return True
        parts = [self.X, self.W_Q, self.W_K, self.W_V, self._source]
        return not self.factor.free_symbols and not any(m.free_symbols for m in parts)

    @cached_property
    def is_rational(self) -> bool:
        """Rational inputs and a constant scale: the products are exact rationals (fast path)."""
        parts = [value for value in self._given.values() if value is not None]
        return not self.factor.free_symbols and all(
            isinstance(m, (flint.fmpq_mat, IntegerRows)) or stages.is_rational(m) for m in parts
        )

    # --- decimals ---------------------------------------------------------------

    def decimals(self, name: str, places: int) -> list[list[str]]:
        """Certified decimals of a stage, one string per entry.

        Args:
            name: a stage name ("Q", "scores", "weights", "output", ...).
            places: digits after the decimal point.

        Returns:
            Rows of decimal strings (rounded half away from zero; "-inf" for
            masked scores).

        Raises:
            NotNumericError: the stage has free symbols.

        >>> from symattn.examples import reference
        >>> reference().run().decimals("weights", 4)[2]
        ['0.2483', '0.2483', '0.5035']
        """
        if places < 0:
            raise InputError(f"places must be 0 or more, not {places}")
        if name in ("weights", "output") and self.is_rational:
            return self._fast_decimals(name, places)
        return _matrix_decimals(name, self.matrix(name), places)

    def _fast_decimals(self, name: str, places: int) -> list[list[str]]:
        """Weights or output from the arb fast path, cached per (name, places)."""
        cache = self.__dict__.setdefault("_fast_cache", {})
        if (name, places) not in cache:
            from symattn import numeric

            keep = None
            if self.mask is not None:
                keep = [[self.mask[i, j] == 0 for j in range(self.mask.cols)] for i in range(self.mask.rows)]
            scores, V = self._flint_products
            # small: both at once (one enclosure, read twice); large: only the one asked for
            want = ("weights", "output") if scores.nrows() * scores.ncols() <= _BOTH_AT_ONCE else (name,)
            found = numeric.attention_decimals(
                scores, self.factor, keep, V, places, want=want, progress=scores.nrows() >= 256
            )
            cache.update({(stage, places): rows for stage, rows in found.items()})
        return cache[(name, places)]

    # --- importance (symattn.importance) ------------------------------------------

    def importance(self, method: str, **options: Any) -> ImmutableMatrix:
        """Each token's exact importance for each output (n_q × n_k); see :func:`symattn.importance.importance`."""
        from symattn.importance import importance

        return importance(self, method, **options)

    def jacobian(self, i: int, j: int) -> ImmutableMatrix:
        """The exact block ∂output[i]/∂X[j] (0-based); see :func:`symattn.importance.jacobian`."""
        from symattn.importance import jacobian

        return jacobian(self, i, j)

    # --- claims -----------------------------------------------------------------

    def compare(self, name: str, claimed: Any, *, weights: Any = None) -> Comparison:
        """Compare a matrix a document printed with the true stage.

        A claim "0.4" holds when the true value rounds to 0.4 at one place,
        "0.40" at two places, and an integer must be exact.

        Args:
            name: the stage claimed ("weights", "output", "Q", ...).
            claimed: rows of printed numbers (strings keep their places).
            weights: for ``name="output"``, the weights the document claimed;
                a wrong output entry that follows from them is "carried".

        Returns:
            A :class:`Comparison`; for claimed weights it also holds the output
            recomputed from them and the true output.

        Raises:
            ShapeError: the claimed shape differs from the stage's.

        >>> from symattn.examples import reference
        >>> att = reference().run()
        >>> [c.kind for c in att.compare("weights", [["0.4", "0.2", "0.4"]] * 3).cells[2]]
        ['wrong', 'ok', 'wrong']
        """
        true = self.matrix(name)
        if name == "output" and weights is not None:
            given = self._recompute_output(weights)
            return compare_matrix(name, true, claimed, given=given, given_from="weights")
        comparison = compare_matrix(name, true, claimed)
        if name == "weights":
            return Comparison(
                name,
                comparison.cells,
                recomputed_output=self._recompute_output(claimed),
                true_output=self.output,
            )
        return comparison

    def _recompute_output(self, claimed_weights: Any) -> ImmutableMatrix:
        claims = _claims_matrix(claimed_weights, "weights")
        values = ImmutableMatrix([[claim.value for claim in row] for row in claims])
        return stages.weighted_sum(values, self.V, left="the claimed weights", right="V")

    def check(self, claims: Mapping[str, Any]) -> list[Comparison]:
        """Compare every claimed stage, in stage order; outputs know claimed weights.

        Raises:
            InputError: a claim names an unknown stage.
        """
        unknown = sorted(set(claims) - set(self.stage_names))
        if unknown:
            raise InputError(
                f"claims name unknown stage {unknown[0]!r} (expected one of {', '.join(self.stage_names)})"
            )
        return [
            self.compare(name, claims[name], weights=claims.get("weights") if name == "output" else None)
            for name in self.stage_names
            if name in claims
        ]

    def __repr__(self) -> str:
        kind = "cross-attention" if self.is_cross else "self-attention"
        n_q, n_k = _shape(self._given["X"])[0], _shape(self._source_given)[0]
        return f"<Attention {kind}: {n_q} queries, {n_k} keys, d_k={self.d_k}>"

    def _shapes(self) -> dict[str, tuple[int, int]]:
        """Each stage's shape, from the inputs' shapes (nothing is computed)."""
        n_q, n_k, d_v = self.X.rows, self._source.rows, self.W_V.cols
        shapes = {"X": self.X.shape, "W_Q": self.W_Q.shape, "W_K": self.W_K.shape, "W_V": self.W_V.shape}
        if self.is_cross:
            shapes["X_kv"] = self._source.shape
        shapes.update({"Q": (n_q, self.d_k), "K": (n_k, self.d_k), "V": (n_k, d_v)})
        shapes.update({name: (n_q, n_k) for name in ("scores", "scaled", "weights")})
        shapes["output"] = (n_q, d_v)
        return shapes

    def _display_rows(self, name: str, places: int = 4) -> list[list[str]]:
        """Certified decimals of a stage, or its exact entries as text when symbolic."""
        if self.is_numeric:
            return self.decimals(name, places)
        from symattn.exact import _short

        return [[_short(entry, 24) for entry in row] for row in self.matrix(name).tolist()]

    def _repr_html_(self) -> str:
        """Jupyter: the stages with their shapes, then the weights and the output (certified decimals)."""
        from symattn.render import html

        shapes = self._shapes()
        stages_table = html.table(
            ["stage", "shape", "formula"],
            [[name, "×".join(map(str, shapes[name])), self.formula(name)] for name in self.stage_names],
            math=frozenset({2}),  # rendered by Jupyter's typesetter, not shown as source
        )
        note = "certified decimals, 4 places" if self.is_numeric else "exact (symbolic entries)"
        return html.section(
            f"{repr(self)[1:-1]}; {note}",
            stages_table,
            html.matrix_table("weights A", self._display_rows("weights"), self.labels),
            html.matrix_table("output O = AV", self._display_rows("output"), self.labels),
        )


@dataclass(frozen=True)
class Exact:
    """A matrix symattn built itself (a layer's stage), passed to :func:`attention` as X or X_kv.

    Its entries are exact by construction, so they are not read again: reading
    checks every entry's tree (``has``, ``is_extended_real``), which for the
    nested roots of a layer norm takes minutes.
    """

    matrix: ImmutableMatrix


#: Up to this many weights, ``decimals`` decides the weights and the output together (they share
#: one enclosure); beyond it, only the stage asked for (the n² weights' strings cost more than
#: computing the enclosure again).
_BOTH_AT_ONCE = 4096


def _input(value: Any, name: str) -> ImmutableMatrix | flint.fmpq_mat | IntegerRows:
    """An input matrix: ints and Fractions (or a numpy integer array) in bulk as
    :class:`IntegerRows`, other rational entries in bulk as an fmpq_mat (no SymPy per entry),
    any other entries read one by one into a SymPy matrix."""
    if isinstance(value, Exact):
        return value.matrix
    bulk = integer_rows(value, name=name)
    if bulk is not None:
        return bulk
    fast = rational_matrix(value, name=name)
    return fast if fast is not None else to_matrix(value, name=name)


def _weight(value: Any, name: str, rows: int) -> ImmutableMatrix | flint.fmpq_mat | IntegerRows:
    if value is None:
        return stages.identity(rows)
    return _input(value, name)


def _shape(matrix: ImmutableMatrix | flint.fmpq_mat | IntegerRows) -> tuple[int, int]:
    if isinstance(matrix, (flint.fmpq_mat, IntegerRows)):
        return matrix.nrows(), matrix.ncols()
    return matrix.rows, matrix.cols


def _shape_text(matrix: ImmutableMatrix | flint.fmpq_mat | IntegerRows) -> str:
    rows, cols = _shape(matrix)
    return f"{rows}×{cols}"


def _labels(labels: Sequence[str] | None, n: int, what: str) -> tuple[str, ...] | None:
    if labels is None:
        return None
    labels = tuple(str(label) for label in labels)
    if len(labels) != n:
        raise ShapeError(
            f"{what} has {counted(len(labels), 'entry', 'entries')} but there are {counted(n, 'token')}"
        )
    return labels


def attention(
    X: Any,
    W_Q: Any = None,
    W_K: Any = None,
    W_V: Any = None,
    *,
    X_kv: Any = None,
    scale: Any = "sqrt_dk",
    mask: Any = None,
    temperature: Any = 1,
    labels: Sequence[str] | None = None,
    kv_labels: Sequence[str] | None = None,
) -> Attention:
    """Exact scaled dot-product attention.

    Args:
        X: the queries' input, rows are tokens (entries: int, Fraction, SymPy
            values or strings such as "-1/2", "0.25", "sqrt(2)", "x_{11}").
        W_Q, W_K, W_V: projections; None means the identity.
        X_kv: keys' and values' input for cross-attention (default X).
        scale: "sqrt_dk" (1/√d_k), "none", or an exact number or expression.
        mask: None, "causal", an additive 0/-inf matrix or a boolean keep matrix.
        temperature: divides the scores.
        labels: token labels of X's rows; kv_labels those of X_kv's rows.

    Returns:
        An :class:`Attention` with every stage exact.

    Raises:
        RaggedMatrixError, EmptyMatrixError: malformed matrices.
        ShapeError: dimensions that do not fit, naming both matrices.
        MaskError, FullyMaskedRowError: a bad mask.
        UnknownTokenError: an entry outside the grammar (never executed).

    >>> att = attention([[1, 0], [0, 1], [1, 1]])
    >>> att.weights[2, 0]
    1/(2 + exp(sqrt(2)/2))
    """
    X = _input(X, "X")
    X_kv_m = _input(X_kv, "X_kv") if X_kv is not None else None
    source, source_name = (X_kv_m, "X_kv") if X_kv_m is not None else (X, "X")
    W_Q = _weight(W_Q, "W_Q", _shape(X)[1])
    W_K = _weight(W_K, "W_K", _shape(source)[1])
    W_V = _weight(W_V, "W_V", _shape(source)[1])
    for name, W, inp, inp_name in (
        ("W_Q", W_Q, X, "X"),
        ("W_K", W_K, source, source_name),
        ("W_V", W_V, source, source_name),
    ):
        if _shape(W)[0] != _shape(inp)[1]:
            raise ShapeError(
                f"{name} has {counted(_shape(W)[0], 'row')} but {inp_name} has {counted(_shape(inp)[1], 'column')} "
                f"({inp_name} is {_shape_text(inp)}, {name} is {_shape_text(W)})"
            )
    if _shape(W_K)[1] != _shape(W_Q)[1]:
        raise ShapeError(
            f"W_Q has {counted(_shape(W_Q)[1], 'column')} but W_K has {_shape(W_K)[1]}; queries and keys need the "
            f"same d_k (W_Q is {_shape_text(W_Q)}, W_K is {_shape_text(W_K)})"
        )
    factor = stages.scale_factor(_shape(W_Q)[1], scale, temperature)
    labels_t = _labels(labels, _shape(X)[0], "labels")
    kv_labels_t = _labels(kv_labels, _shape(source)[0], "kv_labels")
    mask_m = stages.normalise_mask(mask, _shape(X)[0], _shape(source)[0], row_labels=labels_t)
    return Attention(X, W_Q, W_K, W_V, X_kv_m, factor, mask_m, labels_t, kv_labels_t)


class MultiHead:
    """Several attention heads, their concatenation and the W_O projection."""

    def __init__(self, heads: tuple[Attention, ...], W_O: ImmutableMatrix | None) -> None:
        self.heads = heads
        self.W_O = W_O
        self.labels = heads[0].labels

    @cached_property
    def concat(self) -> ImmutableMatrix:
        return stages.hconcat(
            [head.output for head in self.heads],
            names=[f"head {k} output" for k in range(1, len(self.heads) + 1)],
        )

    @cached_property
    def output(self) -> ImmutableMatrix:
        if self.W_O is None:
            return self.concat
        return stages.matmul(self.concat, self.W_O, left="the concatenated heads", right="W_O")

    def matrix(self, name: str) -> ImmutableMatrix:
        """ "concat", "output", or "head2.weights" style names.

        Raises:
            InputError: an unknown name.
        """
        if name == "concat":
            return self.concat
        if name == "output":
            return self.output
        if name == "W_O" and self.W_O is not None:
            return self.W_O
        found = self._head(name)
        if found is not None:
            head, stage = found
            return head.matrix(stage)
        raise InputError(f"unknown stage {name!r} (expected concat, output or headN.STAGE)")

    def decimals(self, name: str, places: int) -> list[list[str]]:
        """Certified decimals of "concat", "output" or "headN.STAGE"."""
        found = self._head(name)
        if found is not None:
            head, stage = found
            return head.decimals(stage, places)
        return _matrix_decimals(name, self.matrix(name), places)

    def _head(self, name: str) -> tuple[Attention, str] | None:
        found = registry.split_head(name, len(self.heads))
        return None if found is None else (self.heads[found[0]], found[1])

    def compare(self, name: str, claimed: Any, *, weights: Any = None) -> Comparison:
        """Compare a claimed matrix ("concat", "output", "headN.STAGE").

        For "headN.output", ``weights`` are the head's claimed weights (see
        :meth:`Attention.compare`).
        """
        found = self._head(name)
        if found is not None:
            head, stage = found
            comparison = head.compare(stage, claimed, weights=weights)
            return Comparison(name, comparison.cells, comparison.recomputed_output, comparison.true_output)
        return compare_matrix(name, self.matrix(name), claimed)

    def check(self, claims: Mapping[str, Any]) -> list[Comparison]:
        """Compare every claimed matrix in the order given; a head's output knows its claimed weights."""
        comparisons = []
        for name, value in claims.items():
            weights = None
            if self._head(name) is not None and name.endswith(".output"):
                weights = claims.get(name[: -len("output")] + "weights")
            comparisons.append(self.compare(name, value, weights=weights))
        return comparisons

    def importance(self, method: str, **options: Any) -> ImmutableMatrix:
        """Each token's exact importance for each output of concat · W_O; see :func:`symattn.importance.importance`."""
        from symattn.importance import importance

        return importance(self, method, **options)

    def jacobian(self, i: int, j: int) -> ImmutableMatrix:
        """The exact block ∂output[i]/∂X[j] of the multi-head output (0-based)."""
        from symattn.importance import jacobian

        return jacobian(self, i, j)

    def __repr__(self) -> str:
        return f"<MultiHead: {len(self.heads)} heads, W_O={'yes' if self.W_O is not None else 'no'}>"

    def _repr_html_(self) -> str:
        """Jupyter: each head's shapes, then the concatenation and the output (certified decimals)."""
        from symattn.render import html

        rows = []
        for k, head in enumerate(self.heads, start=1):
            shapes = head._shapes()
            rows.append([f"head {k}", *("×".join(map(str, shapes[n])) for n in ("Q", "weights", "output"))])
        heads_table = html.table(["head", "Q", "weights", "output"], rows)
        numeric = all(head.is_numeric for head in self.heads)

        def shown(name: str) -> list[list[str]]:
            if numeric:
                return self.decimals(name, 4)
            from symattn.exact import _short

            return [[_short(entry, 24) for entry in row] for row in self.matrix(name).tolist()]

        parts = [heads_table, html.matrix_table("concat", shown("concat"), self.labels)]
        if self.W_O is not None:
            parts.append(html.matrix_table("output = concat · W_O", shown("output"), self.labels))
        note = "certified decimals, 4 places" if numeric else "exact (symbolic entries)"
        return html.section(f"{repr(self)[1:-1]}; {note}", *parts)


def multihead(
    X: Any,
    heads: Sequence[Sequence[Any]],
    W_O: Any = None,
    **options: Any,
) -> MultiHead:
    """Multi-head attention: each head on X, concatenated, then projected by W_O.

    Args:
        X: the input.
        heads: one (W_Q, W_K, W_V) triple per head (None entries mean identity).
        W_O: the output projection ((heads · d_v) × d_model), or None.
        **options: as for :func:`attention` (scale, mask, temperature, labels, X_kv).

    Raises:
        ShapeError: W_O's rows differ from the concatenation's columns.
        InputError: no heads, or a head that is not a triple.
    """
    if not heads:
        raise InputError("multihead needs at least one head")
    built = []
    for index, head in enumerate(heads, start=1):
        if len(head) != 3:
            raise InputError(f"head {index} must be (W_Q, W_K, W_V), got {len(head)} matrices")
        built.append(attention(X, *head, **options))
    W_O_m = to_matrix(W_O, name="W_O") if W_O is not None else None
    result = MultiHead(tuple(built), W_O_m)
    if W_O_m is not None:
        width = sum(head.W_V.cols for head in built)
        if W_O_m.rows != width:
            raise ShapeError(
                f"W_O has {counted(W_O_m.rows, 'row')} but the concatenated heads have {counted(width, 'column')} "
                f"(the concatenated heads are {built[0].X.rows}×{width}, W_O is {stages.shape_text(W_O_m)})"
            )
    return result
