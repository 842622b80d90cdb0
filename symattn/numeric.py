"""Certified attention at scale: the python-flint arb fast path.

The exact path (:mod:`symattn.stages`) builds one SymPy closed form per
weight.  That is what a derivation prints, but it is far too slow for
hundreds of tokens.  This module computes rigorous enclosures (arb balls) of
the same values and turns them into decimals only when the balls decide the
rounding.

How it stays exact and fast:

* The scores arrive as an exact ``fmpq_mat``; they are written as integers
  over one common denominator, ``s_ij = v_ij / den``.
* Each row is shifted by its largest kept score ``m_i``, so every
  exponential is ``exp(-c * d / den)`` with an integer ``d = m_i - v_ij >= 0``
  and lies in (0, 1].  Equal gaps ``d`` share one exponential (integer
  inputs give few distinct gaps).
* A kept entry whose gap exceeds an integer cut-off ``D`` has
  ``exp(-c * d / den) <= eps = 2**-(prec + 16)``.  It is not evaluated: its
  weight is the ball [0, eps] (rigorous, since the row sum is >= 1).  With
  integer inputs at n = 512 this skips over 99% of the exponentials.
* Masked entries are exactly 0.
* The output row ``sum_j w_ij V_j`` is summed from the kept, evaluated
  entries only, plus a rigorous bound ``eps * sum_j |V_jk|`` for the rest.
* When a sample of rows shows that almost no exponential can be skipped
  (small scores, a spread-out softmax), the "dense" method evaluates them all with
  whole-matrix operations in C instead: exact integer shifts, one arb_mat of
  exponents, and arb_mat products for the row sums and for E·V.

Decimals are rounded half away from zero from the balls; an entry the ball
cannot decide is recomputed at twice the precision.  An exactly rational
value (a tie such as 0.25 printed with one place) is recognised exactly
and rounded as a fraction.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import flint

from symattn.errors import FullyMaskedRowError, InputError, ShapeError, UndecidedRoundingError, counted
from symattn.exact import IntegerRows, Rounder, round_half_away
from symattn.exact import _format_scaled as _format_units
from symattn.limits import MAX_PREC  # give up (UndecidedRoundingError) beyond this many bits

__all__ = [
    "FixedWeights",
    "IntegerScores",
    "RowBalls",
    "attention_balls",
    "attention_decimals",
    "exact_products",
    "format_units",
    "integer_products",
    "round_units",
]

GUARD_BITS = 16  # eps = 2**-(prec + GUARD_BITS) bounds every skipped exponential
# "auto" picks the dense method when over 9/10 of a sample's kept entries must be
# evaluated (measured break-even at n = 512: sparse wins at 85%, dense at 99%)
DENSE_SHARE = Fraction(9, 10)
ROW_PRODUCT_FRACTION = 8  # sparse method: a row with over 1/8 of its keys evaluated joins one arb_mat product
METHODS = ("auto", "sparse", "dense")


@contextmanager
def _precision(prec: int) -> Iterator[None]:
    """Run a block at ``prec`` bits of python-flint working precision."""
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        yield
    finally:
        flint.ctx.prec = old


@dataclass(frozen=True)
class IntegerScores:
    """Exact scores as integers over one common denominator: scores = numer / den.

    Both python-flint products and this module work fastest on integer
    matrices; :func:`exact_products` builds this form directly.  Given as
    None, ``numer`` is the product ``left * right.transpose()``, computed on
    first use (the fixed-point dense method never needs it: it recomputes the
    scores from the factors in numpy).
    """

    given_numer: flint.fmpz_mat | None
    den: int
    # when set, numer == left * right.transpose() (small factors: the dense method
    # recomputes the scores from them in numpy, faster than reading numer's entries)
    left: flint.fmpz_mat | None = None
    right: flint.fmpz_mat | None = None
    # when set, the integer inputs the factors and the values were made from (exact_products)
    inputs: InputNumerators | None = None

    def __post_init__(self) -> None:
        if self.given_numer is None and (self.left is None or self.right is None) and self.inputs is None:
            raise ValueError("IntegerScores needs numer, both factors or the inputs")

    def factors(self) -> tuple[flint.fmpz_mat, flint.fmpz_mat]:
        """(left, right), from the inputs on first use when they were not given."""
        if self.left is None or self.right is None:  # frozen: cached in place, once
            inputs = self.inputs
            object.__setattr__(self, "left", _fmpz(inputs.x) * _fmpz(inputs.q))
            object.__setattr__(self, "right", _fmpz(inputs.s) * _fmpz(inputs.k))
        return self.left, self.right

    @property
    def numer(self) -> flint.fmpz_mat:
        if self.given_numer is None:  # frozen: the product is cached in place, once
            left, right = self.factors()
            object.__setattr__(self, "given_numer", left * right.transpose())
        return self.given_numer

    def nrows(self) -> int:
        if self.given_numer is not None:
            return self.given_numer.nrows()
        return self.left.nrows() if self.left is not None else self.inputs.x.nrows()

    def ncols(self) -> int:
        if self.given_numer is not None:
            return self.given_numer.ncols()
        return self.right.nrows() if self.right is not None else self.inputs.s.nrows()

    def numer_rows(self, indices: Sequence[int]) -> flint.fmpz_mat:
        """The rows ``indices`` of numer (from the factors when numer is not computed yet)."""
        if self.given_numer is None:
            left, right = self.factors()
            return (
                flint.fmpz_mat([[left[i, k] for k in range(left.ncols())] for i in indices])
                * right.transpose()
            )
        numer = self.given_numer
        return flint.fmpz_mat([[numer[i, j] for j in range(numer.ncols())] for i in indices])

    def __getitem__(self, index: tuple[int, int]) -> flint.fmpq:
        return flint.fmpq(self.numer[index], self.den)


Scores = flint.fmpq_mat | IntegerScores


@dataclass(frozen=True)
class InputNumerators:
    """The integer numerators of the inputs behind :func:`exact_products` and
    :func:`integer_products`: left = x·q, right = s·k and V = s·v / v_den (s is x in
    self-attention).  The fixed-point dense method reads these small matrices into numpy
    once and forms left, right and V's numerators there, instead of reading each
    product's n·d entries out of python-flint.  Each is an fmpz_mat, or the
    :class:`~symattn.exact.IntegerRows` it was read as (then no fmpz_mat is made unless asked)."""

    x: flint.fmpz_mat | IntegerRows
    q: flint.fmpz_mat | IntegerRows
    s: flint.fmpz_mat | IntegerRows
    k: flint.fmpz_mat | IntegerRows
    v: flint.fmpz_mat | IntegerRows
    v_den: int

    def arrays(self, np) -> dict[str, object] | None:
        """{"left", "right", "values"} as int64 arrays (values: s·v, over v_den; None when
        only it may not fit in int64), or None when the scores' factors may not.  Computed once."""
        cache = self.__dict__.get("_arrays")
        if cache is None:
            cache = self._arrays(np)
            object.__setattr__(self, "_arrays", cache)
        return cache or None

    def _arrays(self, np) -> dict[str, object]:
        read = {"x": _int_array(np, self.x)}
        read["s"] = read["x"] if self.s is self.x else _int_array(np, self.s)
        for name in ("q", "k", "v"):
            read[name] = _int_array(np, getattr(self, name))
        found: dict[str, object] = {}
        for name, left, right in (("left", "x", "q"), ("right", "s", "k"), ("values", "s", "v")):
            fits = read[left] is not None and read[right] is not None
            found[name] = _fitting_product(np, read[left], read[right].T) if fits else None
        return found if found["left"] is not None and found["right"] is not None else {}


def _int_array(np, M: flint.fmpz_mat | IntegerRows):
    """An integer matrix as int64 (None when an entry may reach 2^62)."""
    return M.array(np) if isinstance(M, IntegerRows) else _small_ints(np, M)


def _fmpz(M: flint.fmpz_mat | IntegerRows) -> flint.fmpz_mat:
    return M.fmpz() if isinstance(M, IntegerRows) else M


class LazyValues:
    """V = (s·v) / v_den from :class:`InputNumerators`, as an fmpq_mat only when asked: the
    fixed-point method reads V's numerators from numpy (_fixed_point_radii), the other
    methods call :func:`_values_matrix` first."""

    def __init__(self, inputs: InputNumerators) -> None:
        self.inputs = inputs
        self._matrix: flint.fmpq_mat | None = None

    def nrows(self) -> int:
        return self.inputs.s.nrows()

    def ncols(self) -> int:
        return self.inputs.v.ncols()

    def matrix(self) -> flint.fmpq_mat:
        if self._matrix is None:
            self._matrix = flint.fmpq_mat(_fmpz(self.inputs.s) * _fmpz(self.inputs.v)) / self.inputs.v_den
        return self._matrix


Values = flint.fmpq_mat | LazyValues


def _values_matrix(V: Values) -> flint.fmpq_mat:
    """V as an fmpq_mat (a :class:`LazyValues` is formed now)."""
    return V.matrix() if isinstance(V, LazyValues) else V


def _fitting_product(np, L, R):
    """L·Rᵀ exactly (_exact_product) when every entry is shown to stay below 2^60 by the
    rows' norms (Cauchy-Schwarz, the float64 norms within 1% of the true ones); else None."""
    norms = [float(np.sqrt((M.astype(np.float64) ** 2).sum(axis=1)).max(initial=0)) for M in (L, R)]
    if 1.01 * norms[0] * norms[1] >= 2.0**60:
        return None
    return _exact_product(np, np.ascontiguousarray(L), np.ascontiguousarray(R))


def _check_product_shapes(X, W_Q, W_K, W_V, X_kv) -> None:
    """ShapeError unless X·W_Q, source·W_K, source·W_V and the scores are defined."""
    source, source_name = (X, "X") if X_kv is None else (X_kv, "X_kv")
    for left, left_name, right, right_name in (
        (X, "X", W_Q, "W_Q"),
        (source, source_name, W_K, "W_K"),
        (source, source_name, W_V, "W_V"),
    ):
        if left.ncols() != right.nrows():
            raise ShapeError(
                f"{right_name} has {counted(right.nrows(), 'row')} but {left_name} has {counted(left.ncols(), 'column')} "
                f"({left_name} is {left.nrows()}×{left.ncols()}, {right_name} is {right.nrows()}×{right.ncols()})"
            )
    if W_Q.ncols() != W_K.ncols():
        raise ShapeError(
            f"W_Q has {counted(W_Q.ncols(), 'column')} but W_K has {W_K.ncols()}; queries and keys need the same d_k"
        )


def exact_products(
    X: flint.fmpq_mat,
    W_Q: flint.fmpq_mat,
    W_K: flint.fmpq_mat,
    W_V: flint.fmpq_mat,
    X_kv: flint.fmpq_mat | None = None,
) -> tuple[IntegerScores, flint.fmpq_mat]:
    """The exact scores (X·W_Q)(X_kv·W_K)ᵀ and values X_kv·W_V from rational inputs.

    Each input is split once into an integer matrix and a common denominator,
    so the products are integer (fmpz_mat) products, about three times faster
    than fmpq_mat products at n = 512 with denominators up to 10.

    Args:
        X: the queries' inputs (n_q × d_model); W_Q, W_K, W_V: the weights.
        X_kv: the keys' and values' inputs for cross-attention (None: X).

    Returns:
        (scores, V): the unscaled scores as :class:`IntegerScores` and V exactly.

    Raises:
        ShapeError: the inner dimensions do not fit.

    >>> half = flint.fmpq_mat([[flint.fmpq(1, 2)]])
    >>> S, V = exact_products(half, half, half, half)
    >>> S.numer.entries(), S.den, V.entries()
    ([1], 16, [1/4])
    """
    _check_product_shapes(X, W_Q, W_K, W_V, X_kv)
    (x, dx), (q, dq), (k, dk), (v, dv) = (m.numer_denom() for m in (X, W_Q, W_K, W_V))
    s, ds = (x, dx) if X_kv is None else X_kv.numer_denom()
    left, right = x * q, s * k
    inputs = InputNumerators(x, q, s, k, v, int(ds * dv))
    scores = IntegerScores(
        None, int(dx * dq * ds * dk), left, right, inputs
    )  # numer: left·rightᵀ on first use
    return scores, flint.fmpq_mat(s * v) / (ds * dv)


def integer_products(
    X: IntegerRows,
    W_Q: IntegerRows,
    W_K: IntegerRows,
    W_V: IntegerRows,
    X_kv: IntegerRows | None = None,
) -> tuple[IntegerScores, LazyValues]:
    """:func:`exact_products` from inputs read as :class:`~symattn.exact.IntegerRows`: the
    same exact scores and values, with no python-flint matrix made until a method asks for
    one (the fixed-point method forms the products in numpy).

    Raises:
        ShapeError: the inner dimensions do not fit.
    """
    _check_product_shapes(X, W_Q, W_K, W_V, X_kv)
    source = X if X_kv is None else X_kv
    inputs = InputNumerators(X, W_Q, source, W_K, W_V, source.den * W_V.den)
    scores = IntegerScores(None, X.den * W_Q.den * source.den * W_K.den, inputs=inputs)
    return scores, LazyValues(inputs)


def _integer_form(scores: Scores) -> IntegerScores:
    """The scores as :class:`IntegerScores` (an fmpq_mat is split into numer / den)."""
    if isinstance(scores, IntegerScores):
        return scores
    numer, den = scores.numer_denom()
    return IntegerScores(numer, int(den))


@dataclass(frozen=True)
class RowBalls:
    """Enclosures of some rows of the weights and of the output.

    A weight row is stored sparsely: ``active`` maps the evaluated keys to
    their balls, masked keys are exactly 0 and every other kept key has the
    shared ball ``skipped`` = [0, eps].

    Attributes:
        rows: the row indices, in order.
        active: per row, {key index: weight ball} for the evaluated keys.
        masked: per row, the masked key indices (weight exactly 0).
        skipped: the ball [0, eps] of every kept key that was not evaluated.
        output: per row, the d_v output balls (empty when output_matrix holds them).
        n_k: the number of keys.
        evaluated: how many exponentials were evaluated in all.
    """

    rows: tuple[int, ...]
    active: tuple[dict[int, flint.arb], ...]
    masked: tuple[frozenset[int], ...]
    skipped: flint.arb
    output: tuple[tuple[flint.arb, ...], ...]
    n_k: int
    evaluated: int
    # when set, the weights of all ``rows`` (active is unused): an arb_mat, or the fixed-point
    # method's FixedWeights (the same read methods; its arb_mat is built on first use)
    dense: flint.arb_mat | FixedWeights | None = None
    # when set, ``output`` as one arb_mat, or the fixed-point method's FixedOutputs (read alike)
    output_matrix: flint.arb_mat | FixedOutputs | None = None
    # False when only the outputs were computed (_row_balls(weights=False)): no weight is held
    has_weights: bool = True

    def weight_row(self, index: int) -> list[flint.arb]:
        """The full weight row number ``index`` of this record (not of the matrix)."""
        if self.dense is not None:
            return [self.dense[index, j] for j in range(self.n_k)]
        row = [self.skipped] * self.n_k
        for j in self.masked[index]:
            row[j] = flint.arb(0)
        for j, ball in self.active[index].items():
            row[j] = ball
        return row


class _Progress:
    """A dependency-free progress bar on stderr (only when it is a terminal)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 0 and sys.stderr.isatty()
        self.shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        percent = 100 * done // self.total
        if percent != self.shown:
            self.shown = percent
            bar = "#" * (percent // 4)
            sys.stderr.write(f"\rsymattn: certified softmax [{bar:<25}] {percent:3d}%")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _check_shapes(scores: Scores, keep: Sequence[Sequence[bool]] | None, V: flint.fmpq_mat) -> None:
    n_q, n_k = scores.nrows(), scores.ncols()
    if V.nrows() != n_k:
        raise ShapeError(
            f"the scores have {counted(n_k, 'column')} but V has {counted(V.nrows(), 'row')} "
            f"(scores are {n_q}×{n_k}, V is {V.nrows()}×{V.ncols()})"
        )
    if keep is not None and (len(keep) != n_q or any(len(row) != n_k for row in keep)):
        cols = len(keep[0]) if keep else 0
        raise ShapeError(f"the mask is {len(keep)}×{cols} but the scores are {n_q}×{n_k}")


def _ceil_int(ball: flint.arb) -> int:
    """An integer >= every point of ``ball``."""
    upper = ball.upper().ceil()  # upper() is exact (rounded up), so is its ceiling
    return int(upper.unique_fmpz()) + 1


def _factor_ball(factor: object, prec: int) -> flint.arb:
    if isinstance(factor, flint.arb):
        return factor
    from symattn.exact import enclose  # imports SymPy; only when a SymPy factor arrives

    return enclose(factor, prec)


def _row_balls(
    scores: Scores,
    factor: object,
    keep: Sequence[Sequence[bool]] | None,
    V: Values,
    prec: int,
    *,
    rows: Sequence[int] | None = None,
    progress: bool = False,
    method: str = "auto",
    weights: bool = True,
) -> RowBalls:
    """Enclosures of the weights and outputs of ``rows`` (all rows by default).

    Args:
        scores: the exact unscaled scores Q·Kᵀ (n_q × n_k), an fmpq_mat or
            :class:`IntegerScores` (see :func:`exact_products`).
        factor: the exact positive scale c (SymPy expression or an arb ball).
        keep: keep[i][j] False masks the entry (weight exactly 0); None keeps all.
        V: the exact values (n_k × d_v).
        prec: working precision in bits.
        rows: the rows to compute; None for all.
        progress: show a progress bar on stderr when it is a terminal.
        method: "sparse" (skip negligible exponentials, sum key by key),
            "dense" (evaluate all, whole-matrix products) or "auto" (guess
            from a sample of rows).  Only the speed depends on it.
        weights: False when only the outputs will be read; the fixed-point method then
            may skip the weights (the record's ``has_weights`` says whether it did).

    Returns:
        A :class:`RowBalls`.

    Raises:
        ShapeError: V or the mask does not fit the scores.
        FullyMaskedRowError: a row keeps no key.
        InputError: an unknown method, or a scale that is not positive.
    """
    _check_shapes(scores, keep, V)
    n_q = scores.nrows()
    rows = tuple(range(n_q)) if rows is None else tuple(rows)
    integers = _integer_form(scores)  # its numer is computed only if a method below reads it
    den = integers.den
    with _precision(prec):
        c = _factor_ball(factor, prec + 32)
        if not c > 0:
            raise InputError(f"the attention scale must be positive, not {factor}")
        rate = c / den  # exp(-rate * d) for an integer gap d
        eps = flint.arb(2) ** -(prec + GUARD_BITS)
        cutoff = _ceil_int((prec + GUARD_BITS) * flint.arb(2).log() / rate)
        skipped = flint.arb(eps / 2, eps / 2)  # the ball [0, eps]
        bar = _Progress(len(rows), progress and n_q >= 256)
        if method not in METHODS:
            raise InputError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
        if keep is None and method != "sparse":
            # the fixed-point method beats the sparse one wherever it applies, however few
            # exponentials count (int, n = 512: 69 ms against 169 ms); "auto" tries it only
            # when its integers are known to fit without reading every score
            fixed = _fixed_point_balls(
                integers,
                V,
                rows,
                c=c,
                den=den,
                prec=prec,
                skipped=skipped,
                read_scores=method == "dense",
                weights=weights,
            )
            if fixed is not None:
                bar.update(len(rows))
                bar.close()
                return fixed
        mostly = method == "dense" or (method == "auto" and _mostly_evaluated(integers, keep, rows, cutoff))
        if mostly and keep is None and method == "auto":  # most exponentials count: worth reading the scores
            fixed = _fixed_point_balls(
                integers, V, rows, c=c, den=den, prec=prec, skipped=skipped, read_scores=True, weights=weights
            )
            if fixed is not None:
                bar.update(len(rows))
                bar.close()
                return fixed
        V = _values_matrix(V)
        if mostly:
            balls = _dense_balls(integers.numer, keep, V, rows, rate=rate, skipped=skipped, bar=bar)
            if method == "dense" or all(ball.is_finite() for row in balls.output for ball in row):
                return balls
            # a row far from the sample overflowed the shifted exponentials: fall back to sparse
        return _sparse_balls(
            integers.numer, keep, V, rows, rate=rate, cutoff=cutoff, skipped=skipped, bar=bar
        )


def _sparse_balls(
    numer: flint.fmpz_mat,
    keep: Sequence[Sequence[bool]] | None,
    V: flint.fmpq_mat,
    rows: Sequence[int],
    *,
    rate: flint.arb,
    cutoff: int,
    skipped: flint.arb,
    bar: _Progress,
) -> RowBalls:
    """Row by row: the exponentials within the cut-off (one per distinct gap), the rest skipped."""
    n_k = numer.ncols()
    eps = 2 * skipped.mid()
    entries = numer.entries()  # fmpz: comparing them needs no conversion to int
    table: dict[int, flint.arb] = {}
    actives, masks, exps_rows, totals = [], [], [], []
    for done, i in enumerate(rows):
        row = entries[i * n_k : (i + 1) * n_k]
        if keep is None:
            masked: frozenset[int] = frozenset()
            top = max(row)
            lowest = top - cutoff
            active = [j for j, v in enumerate(row) if v >= lowest]
        else:
            kept = _kept(keep, i, n_k)
            masked = frozenset(range(n_k)).difference(kept)
            top = max(row[j] for j in kept)
            lowest = top - cutoff
            active = [j for j in kept if row[j] >= lowest]
        exps = []
        for j in active:
            gap = int(top - row[j])
            value = table.get(gap)
            if value is None:
                value = table[gap] = (-(rate * gap)).exp()
            exps.append(value)
        n_skipped = n_k - len(masked) - len(active)
        total = sum(exps, flint.arb(0))
        if n_skipped:
            total += flint.arb(n_skipped * eps / 2, n_skipped * eps / 2)
        actives.append(active)
        masks.append(masked)
        exps_rows.append(exps)
        totals.append(total)
        bar.update(done + 1)
    bar.close()
    outputs = _outputs(
        actives,
        exps_rows,
        totals,
        V,
        eps,
        n_skipped_rows=[n_k - len(m) - len(a) for m, a in zip(masks, actives, strict=True)],
    )
    weights = tuple(
        {j: value / total for j, value in zip(active, exps, strict=True)}
        for active, exps, total in zip(actives, exps_rows, totals, strict=True)
    )
    return RowBalls(tuple(rows), weights, tuple(masks), skipped, outputs, n_k, sum(map(len, actives)))


def _kept(keep: Sequence[Sequence[bool]] | None, i: int, n_k: int) -> list[int]:
    if keep is None:
        return list(range(n_k))
    kept = [j for j in range(n_k) if keep[i][j]]
    if not kept:
        raise FullyMaskedRowError(f"row {i + 1} of the mask keeps no key, so its softmax is undefined")
    return kept


def _mostly_evaluated(
    scores: IntegerScores, keep: Sequence[Sequence[bool]] | None, rows: Sequence[int], cutoff: int
) -> bool:
    """Whether, on a sample of up to 16 rows, over DENSE_SHARE of the kept
    entries are within the cut-off (so few exponentials could be skipped).
    Only the speed depends on this guess, never the result."""
    n_k = scores.ncols()
    evaluated = kept_total = 0
    sample = rows[:: max(1, len(rows) // 16)]
    sampled = scores.numer_rows(sample)
    for index, i in enumerate(sample):
        row = [int(sampled[index, j]) for j in range(n_k)]
        kept = _kept(keep, i, n_k)
        top = max(row[j] for j in kept)
        evaluated += sum(1 for j in kept if top - row[j] <= cutoff)
        kept_total += len(kept)
    return evaluated > DENSE_SHARE * kept_total


def _numpy():  # numpy is optional (the `oracle` and `test` extras); without it the dense method is arb only
    try:
        import numpy
    except ImportError:  # pragma: no cover - the test environment has numpy
        return None
    return numpy


LIMB = 30  # bits per limb of a fixed-point number in the fixed-point dense method
MAX_LIMBS = 15  # a limb product's column of L products of limbs <= 2^30, plus a carry, stays below 2^64
TABLE_BITS = 8  # bits of an integer gap per table level (256 exponentials per level)
# below this many weights the arb dense method is faster (measured: 128² arb 25 ms, fixed 31 ms;
# 256² arb 107 ms, fixed 63 ms); from PAIRED_ENTRIES on, two table levels are merged into one
FIXED_MIN_ENTRIES = 1 << 15
PAIRED_ENTRIES = 1 << 17
EXACT_BITS = 53  # float64 holds every integer of magnitude <= 2^53 exactly
FLOAT_MAX_P = 960  # the weights' float pieces reach 2^-P: within float64's normal range up to here
MAX_PIECES = 6  # the BLAS products split V's numerators into at most this many pieces
OUTPUT_DIGIT = 26  # bits per digit when the BLAS products are summed into exact integers
NUMERATOR_PIECE = 2 * OUTPUT_DIGIT  # bits per float64 piece of an output numerator


def _fixed_point_balls(
    scores: IntegerScores,
    V: flint.fmpq_mat,
    rows: Sequence[int],
    *,
    c: flint.arb,
    den: int,
    prec: int,
    skipped: flint.arb,
    read_scores: bool = True,
    weights: bool = True,
) -> RowBalls | None:
    """The dense method for unmasked scores (``weights`` False: the outputs only, from the
    exponentials, _outputs_from_exponentials; the record's ``has_weights`` says so) with the elementwise work in numpy, in exact integers.

    Every exponential e_ij = exp(-c·g_ij/den), with the integer gap g_ij = m_i - v_ij >= 0
    to the row's largest score, is a fixed-point number of P = 30·L bits (L limbs of
    30 bits in uint64 arrays): the product of one table entry exp(-c·a·2^(8k)/den) per
    8-bit digit a of g_ij, each table entry an integer within a known number of units
    (2^-P) below its true value (from arb balls).  A limb product drops the columns
    below L - 2 and floors, so it is under TRUNCATION = 2 units below the exact product
    of its inputs; a product of values in [0, 1] known to within a and b units below is
    known to within a + b + 3 units below ((X + a)(Y + b) <= XY + a + b + 1 in units).
    Gaps whose exponential is below 2^-(P+1) give 0.  The row sums T_i are exact
    integers (t_i is at most n_k·delta above), the weights are the limb products
    Z_ij = E_ij · floor(2^2P / T_i) / 2^P, and the output numerators sum_j Z_ij V_jk are
    exact integers; see _fixed_point_radii for the bounds.  P = 30·ceil((prec - 8)/30)
    (120 bits at prec = 128).

    The weights enter python-flint as a few float64 pieces each (_float_weights) and the
    output numerators come from float64 BLAS products of limb pieces (_blas_numerators);
    when these do not apply (V's numerators too wide, too many keys, P too large) the
    weights enter as fmpz_mats of 60-bit chunks and W·V is an fmpz_mat product
    (_limb_chunks, _chunk_balls).

    Returns None when numpy is missing or the integers do not fit in int64 (then the
    arb dense method runs), and, with ``read_scores`` False, when the scores' factors are
    not small enough to show that they fit (then the scores are not read one by one).  Only the speed depends on which runs: both give balls.
    """
    np = _numpy()
    n_r, n_k = len(rows), scores.ncols()
    if np is None or not rows or n_r * n_k < FIXED_MIN_ENTRIES:
        return None
    limbs = max(2, -(-(prec - 8) // LIMB))
    if limbs > MAX_LIMBS:
        return None
    v = _integer_scores(np, scores, rows, read=read_scores)
    if v is None:
        return None
    exponentials = _fixed_exponentials(np, v, c, den, limbs)
    if exponentials is None:
        return None
    E, delta = exponentials
    totals = _row_totals(np, E, n_r, n_k)
    radii = _fixed_point_radii(V, n_k, totals, delta, limbs, inputs=scores.inputs)
    none = frozenset()
    fixed = functools.partial(
        RowBalls,
        tuple(rows),
        tuple({} for _ in rows),
        tuple(none for _ in rows),
        skipped,
        (),  # the outputs are in output_matrix
        n_k,
        n_r * n_k,
    )
    if not weights:
        output = _outputs_from_exponentials(np, E, totals, radii, n_r=n_r, n_k=n_k, limbs=limbs, prec=prec)
        if output is not None:
            return fixed(output_matrix=output, has_weights=False)
    W = _fixed_weights(np, E, totals, n_r, n_k)
    radius = [radii.spread + row for row in radii.rows]
    output = _fixed_outputs(np, W, radii, n_r=n_r, n_k=n_k, limbs=limbs, prec=prec)
    if output is None:
        arb, output = _chunk_balls(_limb_chunks(np, W, n_r, n_k), radii, limbs=limbs, prec=prec)
        held = FixedWeights(W, radius, n_r, n_k, arb=arb)
    else:
        held = FixedWeights(W, radius, n_r, n_k)  # its arb_mat is built when asked
    return fixed(dense=held, output_matrix=output)


def _fixed_exponentials(np, v, c: flint.arb, den: int, limbs: int):
    """With rate = c/den, the exponentials exp(-rate·(m_i - v_ij)) as a (limbs, n_r·n_k)
    array of fixed-point numbers of P = 30·limbs bits, each at most ``delta`` units
    (2^-P) below its true value: (E, delta).  None when the cut-off gap reaches 2^62."""
    P = LIMB * limbs
    gaps = v.max(axis=1)[:, None] - v
    with _precision(P + 32):
        rate = c / den  # c is enclosed at prec + 32 bits
        cutoff = _ceil_int((P + 1) * flint.arb(2).log() / rate)  # exp(-rate * gap) <= 2^-(P+1) beyond
        if cutoff >= 2**62:
            return None
        tables, errors = _exp_tables(np, rate, -(-cutoff.bit_length() // TABLE_BITS), limbs, P)
    far = (gaps >= cutoff).ravel()
    gaps = np.minimum(gaps, cutoff).ravel()
    # two 8-bit levels make one 16-bit level (65,536 small products instead of n² large ones)
    paired, paired_errors = [], []
    step = 2 if gaps.size >= PAIRED_ENTRIES else 1
    for level in range(0, len(tables), step):
        if level + 1 == len(tables) or step == 1:
            paired.append(tables[level])
            paired_errors.append(errors[level])
            continue
        low, high = tables[level], tables[level + 1]
        size = low.shape[1]  # entry a + size·b is low[a]·high[b]
        paired.append(_fixed_mul(np, np.tile(low, (1, size)), np.repeat(high, size, axis=1)))
        paired_errors.append(errors[level] + errors[level + 1] + TRUNCATION + 1)
    tables, errors = paired, paired_errors
    mask = (1 << (step * TABLE_BITS)) - 1
    # every array is allocated once: fresh temporaries of this size cost more than the arithmetic
    digit = np.empty_like(gaps)
    E, spare, factor = (np.empty((limbs, gaps.size), dtype=np.uint64) for _ in range(3))
    work = _workspace(np, limbs, gaps.size)
    delta = 0
    for level, (table, error) in enumerate(zip(tables, errors, strict=True)):
        np.bitwise_and(np.right_shift(gaps, step * TABLE_BITS * level, out=digit), mask, out=digit)
        # a digit always indexes its table, so mode="clip" changes nothing (and avoids a copy)
        if level == 0:
            np.take(table, digit, axis=1, out=E, mode="clip")
            delta = error
        else:
            np.take(table, digit, axis=1, out=factor, mode="clip")
            E, spare = _fixed_mul(np, E, factor, out=spare, work=work), E
            delta += error + TRUNCATION + 1
    E[:, far] = 0  # true values in [0, 2^-(P+1)]
    return E, max(-(-delta // 1), 1)  # the errors are Fractions: round the bound up


def _row_totals(np, E, n_r: int, n_k: int) -> list[int]:
    """The exact row sums T_i of the fixed-point exponentials E (limbs, n_r·n_k)."""
    limbs = E.shape[0]
    sums = E.reshape(limbs, n_r, n_k).sum(axis=2)  # exact: n_k * 2^30 < 2^64
    return [sum(int(sums[k, i]) << (LIMB * k) for k in range(limbs)) for i in range(n_r)]


def _inverses(totals: list[int], limbs: int) -> list[int]:
    """u_i = floor(2^2P / T_i), at most 2^P (T_i >= 2^P: the largest score gives 1)."""
    P = LIMB * limbs
    return [(1 << (2 * P)) // total for total in totals]


def _fixed_weights(np, E, totals: list[int], n_r: int, n_k: int):
    """The fixed-point weights Z_ij = E_ij · u_i / 2^P, u_i = floor(2^2P / T_i) (limb products,
    as a (limbs, n_r·n_k) array)."""
    limbs = E.shape[0]
    # each row's reciprocal is broadcast over the row (no n² copy of it)
    inverse_limbs = _to_limbs(np, _inverses(totals, limbs), limbs).reshape(limbs, n_r, 1)
    W = _fixed_mul(np, E.reshape(limbs, n_r, n_k), inverse_limbs)
    return W.reshape(limbs, n_r * n_k)


def _outputs_from_exponentials(
    np, E, totals: list[int], radii: _Radii, *, n_r: int, n_k: int, limbs: int, prec: int
) -> FixedOutputs | None:
    """The outputs without the weights: M_ik = sum_j E_ij V_jk exactly (_blas_numerators on
    the exponentials' limbs), then N_ik = M_ik·u_i / 2^P truncated toward zero, in numpy limbs
    (_scaled_numerators): n_r·d_v products instead of the weights' n_r·n_k.

    A unit is one unit of N (2^-P/V_den in value).  N_ik is within 1 unit of
    sum_j (E_ij·u_i/2^P)·V_jk, the output of the weights before their truncation, so with
    _fixed_point_radii's bounds (whose term E_ij/T_i - E_ij·u_i/2^P lies in [0, 1) unit
    because E_ij <= 2^P) it is within
    (delta + 1)·sum_j |V_jk| + row_i·max_j |V_jk| + 1 units of the true output: inside the
    radii's spread·sum_j |V_jk| + row_i·max_j |V_jk| (spread = delta + 1 + TRUNCATION), as
    sum_j |V_jk| >= 1 unless the column is 0, and then N_ik = 0 exactly.  Also
    |N_ik| <= 2^P·max_j |V_jk|, as for the weights' numerators.

    None when the float64 products do not apply (then the weights are formed)."""
    P = LIMB * limbs
    if radii.V_small is None or P > FLOAT_MAX_P:
        return None
    # sum_j E_ij <= n_k·2^P: log2(n_k) more bits than the weights' numerators
    sums = _blas_numerators(np, E, radii.V_small, n_r=n_r, n_k=n_k, extra_bits=n_k.bit_length())
    if sums is None:
        return None
    bits = P + max(radii.peaks, default=0).bit_length()
    pieces = _scaled_numerators(np, sums, _inverses(totals, limbs), limbs=limbs, bits=bits)
    return FixedOutputs(pieces, radii, n_r=n_r, limbs=limbs, prec=prec)


def _scaled_numerators(np, pieces, inverses: list[int], *, limbs: int, bits: int):
    """M_ik·u_i / 2^P truncated toward zero, for M = sum_t piece_t·2^(52t) (pieces n_r × d_v,
    as _blas_numerators gives them) and u_i <= 2^P, as pieces of 52 bits again, the result
    below 2^bits in magnitude.

    |M| in 30-bit limbs (_magnitude_limbs) times u_i's limbs (the top one up to 2^30) by
    schoolbook columns: a column sums at most min(size, limbs) products, each at most
    (2^30 - 1)·2^30, so it stays below 2^63 when that count is at most 7 (u has 5 limbs at
    30 places); with more limbs the
    carries are propagated after each limb of u (a column then holds one product on top of
    a limb below 2^30).  Then the lowest ``limbs`` limbs dropped (2^P = 2^(30·limbs)),
    the sign put back, and the limbs regrouped into 26-bit digits and 52-bit pieces."""
    n_r, d_v = pieces[0].shape
    count = n_r * d_v
    magnitude, negative = _magnitude_limbs(np, pieces)
    size = magnitude.shape[0]
    M = magnitude.reshape(size, n_r, d_v)
    u = _to_limbs(np, inverses, limbs).astype(np.int64).reshape(limbs, n_r, 1)  # broadcast over a row
    product = np.zeros((size + limbs + 1, n_r, d_v), dtype=np.int64)
    term = np.empty((n_r, d_v), dtype=np.int64)
    carry_each_limb = min(size, limbs) > 7
    for b in range(limbs):
        for a in range(size):
            np.multiply(M[a], u[b], out=term)
            np.add(product[a + b], term, out=product[a + b])
        if carry_each_limb:
            _normalise(np, product.reshape(size + limbs + 1, count))
    product = product.reshape(size + limbs + 1, count)
    _normalise(np, product)
    scaled = product[limbs:]  # floor(|M|·u / 2^P)
    outputs = max(1, -(-bits // NUMERATOR_PIECE))
    digits = np.zeros((2 * outputs + 2, count), dtype=np.int64)
    for a in range(scaled.shape[0]):
        q, r = divmod(LIMB * a, OUTPUT_DIGIT)
        if q + 1 >= digits.shape[0]:
            if scaled[a].any():  # cannot happen: |N| < 2^bits
                raise AssertionError("a scaled output numerator exceeds its bound")
            continue
        digits[q] += (scaled[a] & np.int64((1 << (OUTPUT_DIGIT - r)) - 1)) << np.int64(r)
        digits[q + 1] += scaled[a] >> np.int64(OUTPUT_DIGIT - r)
    digits[:, negative] = -digits[:, negative]
    return [piece.reshape(n_r, d_v) for piece in _digit_pieces(np, digits, outputs)]


class _Radii(NamedTuple):
    """The bounds of _fixed_point_radii (units of 2^-P) and V's exact integer form."""

    spread: int  # |w_ij - Z_ij| <= spread + rows[i]
    rows: list[int]
    sums: list[int]  # per column of V's numerators, sum_j |V_jk|
    peaks: list[int]  # per column, max_j |V_jk|
    V: Values  # the values; _values_matrix(V).numer_denom() gives V's numerators over V_den
    V_den: int
    V_small: object  # V's numerators as an int64 numpy array, or None when an entry may reach 2^62


def _fixed_outputs(np, W, radii: _Radii, *, n_r: int, n_k: int, limbs: int, prec: int) -> FixedOutputs | None:
    """The outputs from the fixed-point weights Z, through float64: the numerators
    N = sum_j Z_ij V_jk exactly from float64 BLAS products of limb pieces (_blas_numerators),
    kept as a :class:`FixedOutputs` with their radii.  Their arb_mat, built when asked, enters
    python-flint as float pieces (each piece times its power of two, 2^(52t - P), is a float64
    exactly; their sum in arb encloses N·2^-P), as the weights' does (FixedWeights.arb_mat).

    None when V's numerators are too wide or the keys too many for exact BLAS products, or P
    too large for float64 pieces (then the fmpz_mat chunk route runs)."""
    P = LIMB * limbs
    if radii.V_small is None or P > FLOAT_MAX_P:
        return None
    numerators = _blas_numerators(np, W, radii.V_small, n_r=n_r, n_k=n_k)
    if numerators is None:
        return None
    return FixedOutputs(numerators, radii, n_r=n_r, limbs=limbs, prec=prec)


class FixedOutputs:
    """The fixed-point method's outputs: exact integer numerators N_ik (pieces of 52 bits,
    _blas_numerators) over 2^P·V_den, each within R_ik = spread·sum_j |V_jk| + row_i·max_j |V_jk|
    units of the true output (_fixed_point_radii).  Read like an arb_mat (built from the
    pieces on first use, _numerator_balls); :meth:`decimals` rounds from the integers."""

    def __init__(self, pieces, radii: _Radii, *, n_r: int, limbs: int, prec: int) -> None:
        self.pieces, self.radii, self.n_r, self.limbs, self.prec = pieces, radii, n_r, limbs, prec
        self._arb: flint.arb_mat | None = None

    def arb_mat(self) -> flint.arb_mat:
        if self._arb is None:
            self._arb = _numerator_balls(
                _numpy(), self.pieces, self.radii, n_r=self.n_r, limbs=self.limbs, prec=self.prec
            )
        return self._arb

    def nrows(self) -> int:
        return self.n_r

    def ncols(self) -> int:
        return len(self.radii.sums)

    def __getitem__(self, index: tuple[int, int]) -> flint.arb:
        return self.arb_mat()[index]

    def tolist(self) -> list[list[flint.arb]]:
        return self.arb_mat().tolist()

    def entries(self) -> list[flint.arb]:
        return self.arb_mat().entries()

    def __repr__(self) -> str:
        return f"FixedOutputs({self.n_r}×{self.ncols()}, {LIMB * self.limbs} bits)"

    def decimals(self, places: int) -> list[list[str | None]]:
        """Every output rounded half away from zero to ``places`` digits, None where its
        enclosure [N - R, N + R]/(2^P·V_den) holds points that round differently.

        With D = 2^P·V_den and C = 10^places, round(x·C) = sign(N)·floor((2|N|C + D)/2D) at
        x = N/D, nondecreasing in |N|, so the ends |N| ∓ R decide it when they agree (and
        an interval reaching below -1/2 unit around 0 decides nothing).  In numpy, in exact
        30-bit limbs (_output_decimals); in Python integers where those do not apply."""
        np = _numpy()
        found = _output_decimals(np, self.pieces, self.radii, limbs=self.limbs, places=places)
        if found is not None:
            return found
        return self._decimals_by_ints(places)

    def _decimals_by_ints(self, places: int) -> list[list[str | None]]:
        """:meth:`decimals` in Python integers, a fixed number of operations per entry."""
        denominator = self.radii.V_den << (LIMB * self.limbs)
        double, twice_scale = 2 * denominator, 2 * 10**places
        columns = [piece.tolist() for piece in self.pieces]  # t × n_r × d_v
        shifts = [NUMERATOR_PIECE * t for t in range(len(columns))]
        fixed = [self.radii.spread * total for total in self.radii.sums]
        out: list[list[str | None]] = []
        for i, row_radius in enumerate(self.radii.rows):
            parts = [piece[i] for piece in columns]
            row: list[str | None] = []
            for k, base in enumerate(fixed):
                N = sum(part[k] << shift for part, shift in zip(parts, shifts, strict=True))
                spread = (base + row_radius * self.radii.peaks[k]) * twice_scale
                low = abs(N) * twice_scale + denominator - spread
                q, r = divmod(low, double)
                if low < 0 or r + 2 * spread >= double:
                    row.append(None)
                else:
                    row.append(_format_units(-q if N < 0 else q, places))
            out.append(row)
        return out


def _output_decimals(np, pieces, radii: _Radii, *, limbs: int, places: int):
    """The decimals of FixedOutputs, in numpy: rows of strings ("-1.2345"), None where
    undecided; None for the whole call where the limbs would overflow (V's denominator or
    the radii too large, more integer digits than bounded), then Python integers run.

    N enters as 30-bit limbs (_magnitude_limbs); Y = |N|·2C + D and B = R·2C by schoolbook
    limb products (every column below 2^62); the ends Y ∓ B over 2D = V_den·2^(P+1) by
    dropping P bits, one more shift and a long division by V_den (_rounded_ends); the text
    from the digits of the lower end (_decimal_text)."""
    den = radii.V_den
    peak = max(radii.peaks, default=0)
    fixed = [radii.spread * total for total in radii.sums]
    if den >= 1 << 31 or max(fixed, default=0) + max(radii.rows, default=0) * peak >= 1 << 62:
        return None
    n_r, d_v = pieces[0].shape
    if not n_r * d_v:
        return []
    magnitude, negative = _magnitude_limbs(np, pieces)
    rows, peaks = np.array(radii.rows, dtype=np.int64), np.array(radii.peaks, dtype=np.int64)
    R = (np.array(fixed, dtype=np.int64)[None, :] + np.outer(rows, peaks)).reshape(n_r * d_v)
    ends = _rounded_ends(np, magnitude, R, den=den, limbs=limbs, places=places)
    if ends is None:
        return None
    q, decided = ends
    whole = len(str(peak // den)) + 1  # |output| <= max |V|: its integer digits, and one more
    digits = _decimal_digits(np, q, places + whole)
    if digits is None:
        return None
    signed = negative & np.any(q != 0, axis=0)
    text = _decimal_text(np, digits, signed, places=places, whole=whole)
    for index in np.flatnonzero(~decided).tolist():
        text[index] = None
    return [text[i * d_v : (i + 1) * d_v] for i in range(n_r)]


def _magnitude_limbs(np, pieces):
    """|N| as 30-bit limbs (rows), N = sum_t piece_t·2^(52t) (pieces n_r × d_v, all but the
    top one in [0, 2^52)), and where N < 0: each piece's two 26-bit halves shifted into place."""
    count = pieces[0].size
    size = -(-(NUMERATOR_PIECE * len(pieces) + 1) // LIMB) + 1
    N = np.zeros((size, count), dtype=np.int64)
    low = np.int64((1 << OUTPUT_DIGIT) - 1)
    for t, piece in enumerate(pieces):
        flat = piece.reshape(count)
        for h, half in enumerate((flat & low, flat >> np.int64(OUTPUT_DIGIT))):
            q, r = divmod(NUMERATOR_PIECE * t + OUTPUT_DIGIT * h, LIMB)
            N[q] += half << np.int64(r)  # below 2^56 in magnitude
    _normalise(np, N)
    negative = N[-1] < 0
    N[:, negative] = -N[:, negative]
    _normalise(np, N)
    return N, negative


def _rounded_ends(np, magnitude, R, *, den: int, limbs: int, places: int):
    """(q, decided): round(x·C) at the lower end x = (|N| - R)/D of every entry (30-bit limbs),
    and whether the upper end (|N| + R)/D rounds the same; None when 2C has too many limbs."""
    count = magnitude.shape[1]
    mask = np.int64((1 << LIMB) - 1)
    twice_scale = 2 * 10**places
    c = [(twice_scale >> (LIMB * b)) & ((1 << LIMB) - 1) for b in range(-(-twice_scale.bit_length() // LIMB))]
    if len(c) * (1 << (2 * LIMB)) >= 1 << 63:
        return None
    size = magnitude.shape[0]
    width = max(size, limbs + 1, 3) + len(c) + 1
    Y = np.zeros((width, count), dtype=np.int64)
    B = np.zeros((width, count), dtype=np.int64)
    R_limbs = [R & mask, (R >> np.int64(LIMB)) & mask, R >> np.int64(2 * LIMB)]
    for b, digit in enumerate(c):
        if digit:
            Y[b : b + size] += magnitude * np.int64(digit)
            for k, part in enumerate(R_limbs):
                B[b + k] += part * np.int64(digit)
    Y[limbs] += np.int64(den)  # D = V_den·2^P: P is a whole number of limbs
    low, high = Y - B, Y + B
    _normalise(np, low)
    _normalise(np, high)
    below = low[-1] < 0  # |N| - R reaches below -1/2 unit: nothing is decided
    low[:, below] = 0
    quotients = []
    for end in (low, high):
        S = end[limbs:].copy()  # floor(end / 2^P)
        S[:-1] = (S[:-1] >> np.int64(1)) | ((S[1:] & np.int64(1)) << np.int64(LIMB - 1))
        S[-1] >>= np.int64(1)  # floor(end / 2^(P+1))
        remainder = np.zeros(count, dtype=np.int64)
        for k in range(S.shape[0] - 1, -1, -1):  # floor(· / V_den), from the top limb
            current = (remainder << np.int64(LIMB)) + S[k]
            S[k], remainder = np.divmod(current, np.int64(den))
        quotients.append(S)
    q = quotients[0]
    return q, ~below & np.all(q == quotients[1], axis=0)


def _decimal_text(np, digits, signed, *, places: int, whole: int) -> list[str | None]:
    """The strings of integers q·10^-places from their decimal digits (_decimal_digits, lowest
    first, ``places + whole`` of them): one byte row per character (a sign column, the integer
    digits highest first, ".", the places, "\n"); leading zeros and unused sign columns become
    " ", and the text is decoded, cleaned and split once."""
    count = digits[0].shape[0]
    dot = 1 if places else 0
    line = np.empty((1 + whole + dot + places + 1, count), dtype=np.uint8)
    line[0] = ord(" ")
    zero, blank = np.uint8(ord("0")), np.uint8(ord(" "))
    leading = np.ones(count, dtype=bool)
    blanks = np.zeros(count, dtype=np.int64)
    for column in range(whole):
        digit = digits[places + whole - 1 - column]
        if column < whole - 1:  # the units digit always stays
            leading &= digit == zero
            blanks += leading
            line[1 + column] = np.where(leading, blank, digit)
        else:
            line[1 + column] = digit
    if dot:
        line[1 + whole] = ord(".")
    for position in range(places):  # the lowest digit last
        line[1 + whole + dot + places - 1 - position] = digits[position]
    line[-1] = ord("\n")
    index = np.flatnonzero(signed)
    line[blanks[index], index] = ord("-")  # just before the first digit kept
    return line.T.tobytes().decode("ascii").replace(" ", "").split("\n")[:count]


def _numerator_balls(np, pieces, radii: _Radii, *, n_r: int, limbs: int, prec: int) -> flint.arb_mat:
    """The outputs from the pieces of the exact numerators N = sum_t piece_t·2^(52t)
    (_blas_numerators): each piece times 2^(52t - P) is a float64 exactly, and their sum
    in arb encloses N·2^-P; then _output_balls."""
    P = LIMB * limbs
    with _precision(prec):
        scaled = None
        for t, piece in enumerate(pieces):
            term = flint.arb_mat(np.ldexp(piece.astype(np.float64), NUMERATOR_PIECE * t - P).tolist())
            scaled = term if scaled is None else scaled + term
    return _output_balls(scaled, radii, n_r=n_r, limbs=limbs, prec=prec)


def _output_balls(scaled: flint.arb_mat, radii: _Radii, *, n_r: int, limbs: int, prec: int) -> flint.arb_mat:
    """The outputs from ``scaled``, balls containing N·2^-P for the exact numerators
    N = sum_j Z_ij V_jk: scaled / V_den, with the radii of _fixed_point_radii."""
    P = LIMB * limbs
    with _precision(prec):
        unit = flint.arb(2) ** -P / radii.V_den
        # radius spread·sum_j |V_jk| + row_i·max_j |V_jk| units: one product, n_r × 2 by 2 × d_v
        factors = flint.arb_mat(n_r, 2, [x for row in radii.rows for x in (1, row)])
        bounds = flint.arb_mat(
            2,
            len(radii.sums),
            [flint.arb(0, radii.spread * x * unit) for x in radii.sums]
            + [flint.arb(0, x * unit) for x in radii.peaks],
        )
        return scaled * (1 / flint.arb(radii.V_den)) + factors * bounds


def _bit_field(np, W, low: int, width: int | None):
    """floor(Z / 2^low) mod 2^width (all of floor(Z / 2^low) when width is None, then below 2^64)
    as a uint64 array, Z = sum_k W[k]·2^(30k) with limbs below 2^30 (the top one up to 2^30,
    and then the others 0).

    The limbs' bits are disjoint, so the value is the sum of each limb's part (shifted
    into place; bits beyond 2^64 are lost, and masked off anyway).
    """
    field = None
    top = low + (64 if width is None else width)
    for k in range(W.shape[0]):
        start = LIMB * k
        if start + LIMB + 1 <= low or start >= top:
            continue
        part = W[k] << np.uint64(start - low) if start >= low else W[k] >> np.uint64(low - start)
        field = part if field is None else field + part
    if field is None:
        field = np.zeros(W.shape[1], dtype=np.uint64)
    return field if width is None else field & np.uint64((1 << width) - 1)


def _float_weights(np, W, n_r: int, n_k: int, *, largest: int) -> flint.arb_mat:
    """The weights' balls from the fixed-point weights Z (|w_ij - Z_ij| <= largest units),
    entering python-flint as K float64 pieces per weight (K = 2 at P = 120).

    The kept bits of Z, from 2^P down to 2^cut, are cut into pieces: the top one
    floor(Z/2^(P - w_top)) (at most 2^53, as Z <= 2^P), 53-bit ones, and a lowest one of
    52 bits (from 2^cut) offset by 2^52, with 1 taken off the piece above it; each piece
    times its power of two is a float64 exactly (integers below 2^53, exponents within
    float64's range for P <= FLOAT_MAX_P), and their sum is m = floor(Z/2^cut)·2^(cut-P)
    exactly, with Z·2^-P - m in [0, 2^(cut-P)).  K = max(2, ceil((P - 15)/53)) and
    cut = max(0, P - (53K - 1)) (15 bits at P = 120).

    The radius comes with the lowest piece: its entries are at least 2^(52+cut-P), so
    multiplying it by the ball 1 ± (largest + 2^cut)·2^-(52+cut) adds a radius of at least
    (largest + 2^cut)·2^-P to every entry, which covers |w_ij - m_ij|.  The pieces are
    added in C at P + 16 bits, where every partial sum is exact (at most 2 in magnitude, a
    multiple of 2^(cut-P)).
    """
    limbs = W.shape[0]
    P = LIMB * limbs
    count = max(2, -(-(P - 15) // EXACT_BITS))
    cut = max(0, P - (EXACT_BITS * count - 1))
    lows = [cut] + [cut + 52 + EXACT_BITS * t for t in range(count - 1)]  # lowest piece first
    weights = None
    with _precision(P + 16):
        for index, low in enumerate(lows):  # one piece's Python floats at a time
            top = index == count - 1
            width = None if top else (52 if index == 0 else EXACT_BITS)
            piece = _bit_field(np, W, low, width).astype(np.int64)
            if index == 0:
                piece += 1 << 52
            elif index == 1:
                piece -= 1
            term = flint.arb_mat(np.ldexp(piece.astype(np.float64), low - P).reshape(n_r, n_k).tolist())
            if weights is None:
                weights = term * flint.arb(1, flint.arf((largest + (1 << cut), -(52 + cut))))
            else:
                weights = term + weights
    return weights


class FixedWeights:
    """The weights of the fixed-point dense method as certified balls in fixed point.

    The true weight w_ij lies within ``radius[i]`` units (2^-P) of Z_ij·2^-P, where
    Z = sum_k W[k]·2^(30k) are the limbs of _fixed_weights (see _fixed_point_radii for
    the bound), and w_ij >= 0.  That is the whole enclosure: no further arithmetic is
    needed to certify a digit.  python-flint objects are built only when asked, because
    building n² of them from Python costs more than computing the weights
    (benchmarks/RESULTS.md): :meth:`arb_mat` builds them once, and the read methods of an
    arb_mat (``nrows``, ``ncols``, ``[i, j]``, ``entries``, ``tolist``) use it.
    :meth:`decimals` rounds straight from the integers, in numpy.
    """

    def __init__(self, W, radius: Sequence[int], n_r: int, n_k: int, *, arb: flint.arb_mat | None = None):
        self.W = W  # (limbs, n_r·n_k) uint64, limbs below 2^30 (the top one up to 2^30)
        self.radius = list(radius)
        self.n_r, self.n_k = n_r, n_k
        self._arb = arb

    @property
    def precision(self) -> int:
        """P: the weights are multiples of 2^-P, their radii in units of 2^-P."""
        return LIMB * self.W.shape[0]

    def arb_mat(self) -> flint.arb_mat:
        """The balls as an arb_mat (each radius the largest row radius; built once)."""
        if self._arb is None:
            largest = max(self.radius, default=0)
            self._arb = _float_weights(_numpy(), self.W, self.n_r, self.n_k, largest=largest)
        return self._arb

    def nrows(self) -> int:
        return self.n_r

    def ncols(self) -> int:
        return self.n_k

    def __getitem__(self, index: tuple[int, int]) -> flint.arb:
        return self.arb_mat()[index]

    def entries(self) -> list[flint.arb]:
        return self.arb_mat().entries()

    def tolist(self) -> list[list[flint.arb]]:
        return self.arb_mat().tolist()

    def __mul__(self, other: object) -> flint.arb_mat:  # W · V, W * c: as the arb_mat would
        return self.arb_mat() * other

    def __rmul__(self, other: object) -> flint.arb_mat:
        return other * self.arb_mat()

    def __add__(self, other: object) -> flint.arb_mat:
        return self.arb_mat() + other

    def __radd__(self, other: object) -> flint.arb_mat:
        return other + self.arb_mat()

    def __sub__(self, other: object) -> flint.arb_mat:
        return self.arb_mat() - other

    def __neg__(self) -> flint.arb_mat:
        return -self.arb_mat()

    def __repr__(self) -> str:
        return f"FixedWeights({self.n_r}×{self.n_k}, 2^-{self.precision} fixed point)"

    def decimals(self, places: int) -> list[list[str | None]] | None:
        """Every weight rounded half away from zero to ``places`` digits, None where its
        ball straddles a rounding boundary; None for all when this method does not apply
        (then round the arb balls).  See _fixed_decimals."""
        return _fixed_decimals(_numpy(), self.W, self.radius, n_r=self.n_r, n_k=self.n_k, places=places)


DECIMAL_GROUP = 9  # decimal digits per step of the long division (10^9 · 2^30 < 2^63)


def _normalise(np, T) -> None:
    """Carry-propagate int64 limbs in place: every limb but the top one into [0, 2^30)
    (arithmetic shifts, so negative limbs borrow); the top one keeps the sign."""
    mask = np.int64((1 << LIMB) - 1)
    for k in range(T.shape[0] - 1):
        T[k + 1] += T[k] >> np.int64(LIMB)
        T[k] &= mask


def _fixed_decimals(np, W, radius: Sequence[int], *, n_r: int, n_k: int, places: int):
    """The decimals of nonnegative fixed-point balls, in numpy, or None when not applicable.

    Each ball is [Z - r_i, Z + r_i]·2^-P (Z in the limbs W, r_i its row's radius), cut at 0.
    Returns rows of strings with exactly ``places`` digits after the point ("0.1234"), None
    where a ball straddles a rounding boundary (_fixed_units); None for the whole call when
    places < 1 or a value does not have a one-digit integer part (never for weights).
    """
    count = n_r * n_k
    if places < 1 or not count:
        return None
    units = _fixed_units(np, W, radius, n_k=n_k, places=places)
    if units is None:
        return None
    q, decided = units
    digits = _decimal_digits(np, q, places + 1)
    if digits is None:
        return None  # an integer part of two digits or more: not a weight
    flat = _decimal_text(np, digits, np.zeros(count, dtype=bool), places=places, whole=1)  # "d.ddd…d"
    for index in np.flatnonzero(~decided).tolist():
        flat[index] = None
    return [flat[i * n_k : (i + 1) * n_k] for i in range(n_r)]


def _fixed_units(np, W, radius: Sequence[int], *, n_k: int, places: int):
    """(q, decided): the rounded units q (int64 limbs) of every Z·2^-P at ``places`` digits, and
    whether every point of its ball rounds to q.

    With C = 10^places and h = 2^(P-1), the rounding of x = Z·2^-P >= 0 is
    q = floor((Z·C + h)/2^P) (half away from zero).  Y = Z·C + h is an exact integer
    (schoolbook product of 30-bit limbs, every column sum below 2^63); write
    Y = q·2^P + f with 0 <= f < 2^P.  Every point x' >= 0 of the ball [Z - r, Z + r]·2^-P
    gives floor((x'·2^P·C + h)/2^P) = q exactly when f - r·C >= 0 (or q = 0: the lower end
    is then 0, whose units are 0 too) and f + r·C < 2^P.  None when C has too many limbs for
    the column sums.
    """
    limbs = W.shape[0]
    P = LIMB * limbs
    count = W.shape[1]
    scale = 10**places
    mask = (1 << LIMB) - 1
    c = [(scale >> (LIMB * b)) & mask for b in range(-(-scale.bit_length() // LIMB))]
    if min(limbs + 1, len(c)) * (1 << (2 * LIMB)) >= 1 << 63:
        return None
    Z = np.zeros((limbs + 1, count), dtype=np.int64)
    Z[:limbs] = W.view(np.int64)
    _normalise(np, Z)  # the top limb of W may be 2^30
    T = np.zeros((limbs + 1 + len(c), count), dtype=np.int64)
    for b, digit in enumerate(c):
        if digit:
            T[b : b + limbs + 1] += Z * np.int64(digit)
    T[limbs - 1] += np.int64(1 << (LIMB - 1))  # h = 2^(P-1)
    _normalise(np, T)
    f, q = T[:limbs], T[limbs:]
    # r·C per row, as limbs broadcast over the row's keys; at 2^P or more nothing is decided,
    # and 2^P itself says so (f + 2^P >= 2^P), so larger spans are cut to it
    spans = [min(r * scale, 1 << P) for r in radius]
    span = np.array(
        [[(s >> (LIMB * k)) & mask for s in spans] for k in range(limbs - 1)]
        + [[s >> (LIMB * (limbs - 1)) for s in spans]],
        dtype=np.int64,
    )
    span = np.repeat(span, n_k, axis=1)
    low, high = f - span, f + span
    _normalise(np, low)
    _normalise(np, high)
    decided = ((low[-1] >= 0) | ~np.any(q != 0, axis=0)) & ((high[-1] >> np.int64(LIMB)) == 0)
    return q, decided


def _decimal_digits(np, q, wanted: int):
    """The lowest ``wanted`` decimal digits of the integers q (int64 limbs, lowest first) as
    ASCII codes (uint8 arrays, lowest digit first), or None when q has more digits.  A long
    division by 10^9 per group of nine digits (limbs that are 0 everywhere are dropped first)."""
    base = np.int64(10**DECIMAL_GROUP)
    rest = q.copy()
    digits = []
    while len(digits) < wanted:
        while rest.shape[0] > 1 and not rest[-1].any():
            rest = rest[:-1]
        remainder = np.zeros(rest.shape[1], dtype=np.int64)
        for k in range(rest.shape[0] - 1, -1, -1):
            current = (remainder << np.int64(LIMB)) + rest[k]
            rest[k], remainder = np.divmod(current, base)
        for _ in range(min(DECIMAL_GROUP, wanted - len(digits))):
            remainder, digit = np.divmod(remainder, 10)
            digits.append((digit + ord("0")).astype(np.uint8))
        if remainder.any():
            return None
    return None if rest.any() else digits


def _pieces(np, M, width: int):
    """Integers M (int64 array) as pieces of ``width`` bits, lowest first: M = sum_t piece_t·2^(width·t),
    every piece but the top one in [0, 2^width), the top one in [-2^(width-1), 2^(width-1))."""
    peak = int(np.abs(M).max(initial=0))
    count = 1
    while peak >= 1 << (width * count - 1):
        count += 1
    mask = np.int64((1 << width) - 1)
    pieces = [(M >> np.int64(width * t)) & mask for t in range(count - 1)]
    pieces.append(M >> np.int64(width * (count - 1)))
    return pieces


def _blas_numerators(np, W, V, *, n_r: int, n_k: int, extra_bits: int = 0):
    """The output numerators N_ik = sum_j Z_ij V_jk of the fixed-point weights Z (limbs W,
    each at most 2^30) and V's integer numerators (int64), exactly, from float64 matrix products.

    V is cut into pieces of b bits (_pieces), b the largest width with n_k·2^30·(2^b - 1) < 2^53
    (14 bits at n_k = 512); every product of a limb of Z and a piece of V is then an integer
    below 2^53 in magnitude, and so is every partial sum of the n_k products of an entry of
    limbs·V-pieces (at most n_k·2^30·(2^b - 1)): each float64 operation of the matrix product
    is exact, in whatever order BLAS adds (numpy's BLAS forms each entry from sums of these
    products).  N is then sum_(k,t) P_kt·2^(30k + b·t), summed exactly in int64 digits of
    26 bits (each term, below 2^53, split across two digits; carries propagated at the end).

    As sum_j Z_ij <= 2^P (see _fixed_point_radii), |N_ik| <= 2^P·max_j |V_jk| < 2^bits, and N
    is returned as pieces of 52 bits (two digits each, lowest first, every one in [0, 2^52)
    but the top one, which takes the rest and is at most 2^52 in magnitude): N = sum_t piece_t·2^(52t).

    The exactness needs only every limb at most 2^30 (the weights' limbs, or the exponentials'
    E, whose row sums reach n_k·2^P); the bound on |N| sets how many pieces hold it, and
    ``extra_bits`` is how many more bits than P + the bits of max |V| the sums may take
    (log2 n_k for the exponentials, _outputs_from_exponentials).

    Returns:
        The pieces (int64 arrays, n_r × d_v), three at P = 120 and 27-bit V; None when V needs
        more than MAX_PIECES pieces or b would be below 8 (then the fmpz_mat products run).
    """
    limbs = W.shape[0]
    P = LIMB * limbs
    d_v = V.shape[1]
    width = 0
    while n_k * ((1 << (width + 1)) - 1) << LIMB < 1 << EXACT_BITS:
        width += 1
    if width < 8:
        return None
    pieces = _pieces(np, V, width)
    if len(pieces) > MAX_PIECES:
        return None
    count = len(pieces)
    right = np.concatenate(pieces, axis=1).astype(np.float64)  # n_k × (count·d_v)
    products = W.astype(np.float64).reshape(limbs * n_r, n_k) @ right
    terms = products.astype(np.int64).reshape(limbs, n_r, count, d_v)
    bits = P + extra_bits + int(np.abs(V).max(initial=0)).bit_length()
    outputs = max(1, -(-bits // NUMERATOR_PIECE))  # pieces of N
    size = 2 * outputs + 2  # digits; the top ones are 0 or -1 after the carries
    digits = np.zeros((size, n_r, d_v), dtype=np.int64)
    for k in range(limbs):
        for t in range(count):
            term = terms[k, :, t, :]
            q, r = divmod(LIMB * k + width * t, OUTPUT_DIGIT)
            # term·2^r = low·2^r + high·2^26 with low in [0, 2^(26-r)), |high| <= 2^(27+r)
            digits[q] += (term & np.int64((1 << (OUTPUT_DIGIT - r)) - 1)) << np.int64(r)
            digits[q + 1] += term >> np.int64(OUTPUT_DIGIT - r)
    return _digit_pieces(np, digits, outputs)


def _digit_pieces(np, digits, outputs: int):
    """Signed int64 digits of 26 bits (any magnitude below 2^62, carries not yet propagated;
    2·outputs + 2 of them) as ``outputs`` pieces of 52 bits, lowest first: every piece but the
    top one in [0, 2^52), the top one signed."""
    size = digits.shape[0]
    mask = np.int64((1 << OUTPUT_DIGIT) - 1)
    for m in range(size - 1):  # every digit but the top one into [0, 2^26)
        digits[m + 1] += digits[m] >> np.int64(OUTPUT_DIGIT)
        digits[m] &= mask
    result = [digits[2 * t] + (digits[2 * t + 1] << np.int64(OUTPUT_DIGIT)) for t in range(outputs - 1)]
    # the top piece: the digits from 2(outputs - 1) up, summed modulo 2^64 (its true value is
    # at most 2^52 in magnitude, so the wrapped sum is exact; digits shifted by 64 bits or more are 0)
    base = 2 * outputs - 2
    top = [digits[m].view(np.uint64) << np.uint64(OUTPUT_DIGIT * (m - base)) for m in range(base, base + 3)]
    result.append((top[0] + top[1] + top[2]).view(np.int64))
    return result


def _limb_chunks(np, W, n_r: int, n_k: int) -> list[tuple[flint.fmpz_mat, int]]:
    """The fixed-point integers as fmpz_mats of two limbs each (below 2^62: small fmpz
    entries) with the bit position of each, highest first: W = sum_c M_c · 2^low_c.

    With two chunks or more, the lowest one is offset by 2^w (w its width) and the one
    above it by -1, so that the sum is unchanged and every entry of the lowest chunk is
    at least 2^w (see _chunk_balls).
    """
    limbs = W.shape[0]
    values, lows = [], []
    for high in range(limbs - 1, -1, -2):
        value = (W[high] << np.uint64(LIMB)) | W[high - 1] if high > 0 else W[high]
        values.append(value.astype(np.int64))
        lows.append(LIMB * max(high - 1, 0))
    if len(values) >= 2:
        values[-1] += 1 << lows[-2]
        values[-2] -= 1
    return [
        (flint.fmpz_mat(value.reshape(n_r, n_k).tolist()), low)
        for value, low in zip(values, lows, strict=True)
    ]


def _chunk_balls(
    chunks: list[tuple[flint.fmpz_mat, int]], radii: _Radii, *, limbs: int, prec: int
) -> tuple[flint.arb_mat, flint.arb_mat]:
    """The weights' and outputs' arb_mats from the fixed-point weights Z (in C): exact
    midpoints, the radii of _fixed_point_radii, and sum_j Z_ij V_jk as fmpz_mat products.

    The weights' radius (the largest row radius) comes with the lowest chunk: its
    entries are at least 2^w, so multiplying it by the ball 2^-P·(1 ± r·2^-w) adds a
    radius of at least r·2^-P to every entry, and no radius matrix is needed.
    """
    P = LIMB * limbs
    n_r, n_k = chunks[0][0].nrows(), chunks[0][0].ncols()
    numerators = None
    for M, low in chunks:
        term = M * _values_matrix(radii.V).numer_denom()[0]
        term = term * (1 << low) if low else term
        numerators = term if numerators is None else numerators + term
    largest = radii.spread + max(radii.rows)
    with _precision(P + 16):  # the midpoints are exact
        terms = [flint.arb_mat(M) * flint.arb(2) ** (low - P) for M, low in chunks[:-1]]
        if terms:
            width = chunks[-2][1]
            low_scale = flint.arb(flint.arf((1, -P)), flint.arf((largest, -P - width)))
            weights = sum(terms[1:], terms[0]) + flint.arb_mat(chunks[-1][0]) * low_scale
        else:
            ones = flint.arb_mat(1, n_k, [1] * n_k)
            radius = flint.arb_mat(n_r, 1, [flint.arb(0, (largest, -P))] * n_r) * ones
            weights = flint.arb_mat(chunks[0][0]) * flint.arb(2) ** -P + radius
    with _precision(prec):
        scaled = flint.arb_mat(numerators) * flint.arb(2) ** -P
    return weights, _output_balls(scaled, radii, n_r=n_r, limbs=limbs, prec=prec)


def _fixed_point_radii(
    V: Values,
    n_k: int,
    totals: list[int],
    delta: int,
    limbs: int,
    *,
    inputs: InputNumerators | None = None,
) -> _Radii:
    """Radii in units of 2^-P of the fixed-point weights Z and output numerators sum_j Z_ij V_jk.

    With e_ij in [E_ij, E_ij + delta] (units), t_i in [T_i, T_i + n_k·delta], T_i >= 2^P,
    u_i = floor(2^2P / T_i) and Z_ij in [E_ij·u_i/2^P - TRUNCATION, E_ij·u_i/2^P]:
    w_ij - Z_ij = eps_ij/t_i + (E_ij/T_i - E_ij·u_i/2^P) + (E_ij·u_i/2^P - Z_ij) - (E_ij/T_i)·g_i
    where the first three terms lie in [0, spread] units, spread = delta + 1 + TRUNCATION, and
    g_i = tau_i/t_i <= n_k·delta/T_i is the same for the whole row; in units g_i·2^P is
    at most row_i = ceil(n_k·delta·2^P / T_i).  So |w_ij - Z_ij| <= spread + row_i, and,
    as the E_ij/T_i of a row are >= 0 and sum to 1, sum_j w_ij V_jk is within
    spread·sum_j |V_jk| + row_i·max_j |V_jk| units of sum_j Z_ij V_jk.  Also
    sum_j Z_ij <= u_i·T_i/2^P <= 2^P, so |sum_j Z_ij V_jk| <= 2^P·max_j |V_jk|.

    Returns:
        A :class:`_Radii`: spread, row_i per row, sum_j |V_jk| and max_j |V_jk| per column
        of V's integer numerators, those numerators (also as int64 when they fit), their
        denominator.
    """
    P = LIMB * limbs
    d_v = V.ncols()
    rows = [-(-(n_k * delta << P) // total) for total in totals]
    np = _numpy()
    found = _values_from_inputs(np, inputs) if inputs is not None else None
    if found is not None:
        small, V_den = found
    else:
        V_numer, V_den = _values_matrix(V).numer_denom()
        small = _small_ints(np, V_numer)
    if small is not None:
        magnitudes = np.abs(small)
        peaks = [int(x) for x in magnitudes.max(axis=0, initial=0)]
        if max(peaks, default=0) * V.nrows() < 1 << 63:  # the column sums fit in int64
            sums = [int(x) for x in magnitudes.sum(axis=0)]
        else:
            sums = [sum(column) for column in magnitudes.T.tolist()]
    else:
        entries = [abs(int(x)) for x in V_numer.entries()]
        columns = [entries[k::d_v] for k in range(d_v)]
        sums = [sum(column) for column in columns]
        peaks = [max(column, default=0) for column in columns]
    return _Radii(delta + 1 + TRUNCATION, rows, sums, peaks, V, int(V_den), small)


def _values_from_inputs(np, inputs: InputNumerators):
    """(V's numerators as int64, V_den) with V_den V's least common denominator, from s·v
    formed in numpy (InputNumerators.arrays): V = (s·v)/v_den, and with
    g = gcd(v_den, every entry of s·v) each entry's lowest denominator divides v_den/g and
    their lcm is v_den/g, so V_den = v_den/g and the numerators are (s·v)/g.  None when the
    arrays do not apply."""
    arrays = inputs.arrays(np)
    if arrays is None or arrays["values"] is None:
        return None
    values = arrays["values"]
    common = math.gcd(inputs.v_den, int(np.gcd.reduce(np.abs(values), axis=None)) if values.size else 0)
    if common == 1:
        return values, inputs.v_den
    return values // np.int64(common), inputs.v_den // common


def _to_limbs(np, values: Sequence[int], limbs: int):
    """Integers in [0, 2^(30·limbs)] as a (limbs, len) uint64 array (the top limb may be 2^30)."""
    mask = (1 << LIMB) - 1
    rows = [[(value >> (LIMB * k)) & mask for value in values] for k in range(limbs - 1)]
    rows.append([value >> (LIMB * (limbs - 1)) for value in values])
    return np.array(rows, dtype=np.uint64)


def _workspace(np, limbs: int, shape):
    """Scratch arrays for _fixed_mul: the kept columns and one term (``shape``: an entry count or a shape)."""
    first = max(limbs - 2, 0)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return np.empty((2 * limbs - 1 - first, *shape), dtype=np.uint64), np.empty(shape, dtype=np.uint64)


def _fixed_mul(np, A, B, *, out=None, work=None):
    """Entrywise floor(A·B / 2^P) - r with 0 <= r < TRUNCATION units, for L-limb fixed-point
    numbers in [0, 1] (L >= 2).

    Limbs are at most 2^30, so a product is at most 2^60 and a column of at most L <= 15
    products fits in uint64.  The columns below L - 2 (under (L - 2)·2^-30 units in all)
    are dropped and the carry out of column L - 1 is floored (under 1 unit).  ``out``
    (not A or B) and ``work`` (from _workspace) may be given to reuse arrays.
    """
    limbs = A.shape[0]
    first = max(limbs - 2, 0)  # the lowest column kept
    columns, term = _workspace(np, limbs, A.shape[1:]) if work is None else work
    written = [False] * columns.shape[0]
    for k in range(limbs):
        for m in range(max(first - k, 0), limbs):
            c = k + m - first
            if written[c]:
                np.multiply(A[k], B[m], out=term)
                np.add(columns[c], term, out=columns[c])
            else:
                np.multiply(A[k], B[m], out=columns[c])
                written[c] = True
    shift, mask = np.uint64(LIMB), np.uint64((1 << LIMB) - 1)
    carry = np.right_shift(columns[0], shift, out=term)
    out = np.empty_like(A) if out is None else out
    for c in range(1, columns.shape[0]):
        value = np.add(columns[c], carry, out=columns[c])
        carry = np.right_shift(value, shift, out=term)
        if c + first >= limbs:  # column L + i is limb i of the result
            np.bitwise_and(value, mask, out=out[c + first - limbs])
    out[limbs - 1] = carry
    return out


TRUNCATION = 2  # units a limb product may lie below the exact product of its inputs


TABLE_GUARD = 16  # extra bits of the integer recurrence that builds a table level


def _exp_tables(np, rate: flint.arb, levels: int, limbs: int, P: int):
    """Per level k, integers at most exp(-rate·a·2^(8k)) in units of 2^-P, for a < 256, as limbs, and
    a bound (a Fraction, just over 1) on how many units any of them lies below its true value.

    Each level is an exact integer recurrence at G = TABLE_GUARD more bits: s = floor of the
    lower end of the arb ball of x·2^(P+G), x = exp(-rate·2^(8k)), so that x·2^(P+G) - s < d
    (d from the ball's width), then t_0 = 2^(P+G) and t_(a+1) = floor(t_a·s / 2^(P+G)), and
    the entries are floor(t_a / 2^G).  With T_a = x^a·2^(P+G): t_a <= T_a (every step rounds
    down, s <= x·2^(P+G)), and T_a - t_a <= a·(d + 1), since
    t_a·s/2^(P+G) >= (T_a - e)(x·2^(P+G) - d)/2^(P+G) >= T_(a+1) - e - d (x <= 1, T_a <= 2^(P+G)).
    So an entry is below its true value by less than 1 + 255·(d + 1)/2^G units.
    """
    one = 1 << (P + TABLE_GUARD)
    tables, errors = [], []
    for level in range(levels):
        scaled = (-(rate * (1 << (TABLE_BITS * level)))).exp() * one
        step = max(0, int(scaled.lower().floor().unique_fmpz()))
        slack = int(scaled.upper().ceil().unique_fmpz()) - step
        value, lows = one, []
        for _ in range(1 << TABLE_BITS):
            lows.append(value >> TABLE_GUARD)
            value = (value * step) >> (P + TABLE_GUARD)
        tables.append(_to_limbs(np, lows, limbs))
        errors.append(1 + Fraction(((1 << TABLE_BITS) - 1) * (slack + 1), 1 << TABLE_GUARD))
    return tables, errors


def _small_ints(np, M: flint.fmpz_mat):
    """The entries of ``M`` as an int64 array, or None when one may reach 2^62.

    Each row is packed into one integer by an exact product with the column
    (2^(64k)) (in C) and read back as 64-bit words: about twice as fast as one
    Python int per entry.  The bound comes from the diagonal of MᵀM (also in C):
    |M_jk| <= sqrt((MᵀM)_kk) < 2^62.
    """
    n, d = M.nrows(), M.ncols()
    gram = M.transpose() * M
    if any(gram[k, k] >= 1 << 124 for k in range(d)):
        return None
    offset = 1 << 62  # every entry plus the offset is in [0, 2^63): no carries between the words
    shift = offset * sum(1 << (64 * k) for k in range(d))
    packed = (M * flint.fmpz_mat(d, 1, [1 << (64 * k) for k in range(d)])).entries()
    data = b"".join((int(row) + shift).to_bytes(8 * d, "little") for row in packed)
    words = np.frombuffer(data, dtype="<u8").astype(np.uint64) if data else np.zeros(0, dtype=np.uint64)
    return (words - np.uint64(offset)).view(np.int64).reshape(n, d)


def _integer_scores(np, scores: IntegerScores, rows: Sequence[int], *, read: bool = True):
    """The exact integer scores of ``rows`` as an int64 array, or None when they may not fit (|v| >= 2^61).

    From the factors (v = left·rightᵀ) when known, as exact float64 matrix products
    (_exact_product); otherwise read from numer, unless ``read`` is False (then None).
    """
    left, right = scores.left, scores.right
    arrays = scores.inputs.arrays(np) if scores.inputs is not None else None
    L = R = None
    if arrays is not None:
        L, R = arrays["left"], arrays["right"]
    elif left is not None and right is not None and left.ncols() == right.ncols():
        L, R = _small_ints(np, left), _small_ints(np, right)
        if L is None or R is None:
            return None
    if L is not None:
        product = _fitting_product(np, L[list(rows)], R)
        if product is not None:
            return product
    if not read:
        return None
    numer = scores.numer
    values = list(map(int, numer.entries()))
    if max(map(abs, values), default=0) >= 1 << 61:
        return None
    return np.array(values, dtype=np.int64).reshape(numer.nrows(), numer.ncols())[list(rows)]


def _exact_product(np, L, R):
    """L·Rᵀ for int64 matrices whose product fits in int64, exactly, as float64 BLAS products.

    One factor, or both, is cut into pieces (_pieces) so narrow that every product of a
    piece's row and the other side's row, d terms, has all its partial sums below 2^53 in
    magnitude (d·(2^a - 1)·(2^b - 1) < 2^53 for pieces of a and b bits), hence exact in
    float64; the pieces are stacked so that one matrix product forms them all, and the
    blocks are summed, shifted into place, modulo 2^64 (the true sum fits in int64, so
    the wrapped sum is exact).  The split with the fewest blocks is taken: the left side
    only (two blocks for 27-bit factors and d = 64), the right only, or both.
    """
    d = L.shape[1]
    bits_L, bits_R = (int(np.abs(M).max(initial=0)).bit_length() for M in (L, R))
    room = EXACT_BITS - d.bit_length()  # d < 2^(53 - room), so d·2^a·2^b < 2^53 when a + b <= room
    half = room // 2
    options = []
    if room - bits_R >= 2:
        options.append((_pieces(np, L, room - bits_R), room - bits_R, [R], 0))
    if room - bits_L >= 2:
        options.append(([L], 0, _pieces(np, R, room - bits_L), room - bits_L))
    options.append((_pieces(np, L, half), half, _pieces(np, R, half), half))
    left, width_L, right, width_R = min(options, key=lambda option: len(option[0]) * len(option[2]))
    n_r, n_k = L.shape[0], R.shape[0]
    products = (
        np.concatenate(left, axis=0).astype(np.float64) @ np.concatenate(right, axis=0).astype(np.float64).T
    )
    total = np.zeros((n_r, n_k), dtype=np.uint64)
    for a in range(len(left)):
        for b in range(len(right)):
            shift = width_L * a + width_R * b
            if shift < 64:  # a block shifted by 64 bits or more is 0 modulo 2^64
                block = products[a * n_r : (a + 1) * n_r, b * n_k : (b + 1) * n_k]
                total += block.astype(np.int64).view(np.uint64) << np.uint64(shift)
    return total.view(np.int64)


def _dense_balls(
    numer: flint.fmpz_mat,
    keep: Sequence[Sequence[bool]] | None,
    V: flint.fmpq_mat,
    rows: Sequence[int],
    *,
    rate: flint.arb,
    skipped: flint.arb,
    bar: _Progress,
) -> RowBalls:
    """Every kept exponential evaluated, with whole-matrix arb operations.

    Each row is shifted by its first kept score (exact integer matrices, in C;
    in a dense row every score is close to the largest, so the exponentials
    stay moderate), one arb_mat scaling gives every exponent, the
    exponentials fill an arb_mat E, and the row sums (E·1) and the output
    numerators (E·V) are arb_mat products in C.
    """
    n_k = numer.ncols()
    kept_rows = [_kept(keep, i, n_k) for i in rows]
    if len(rows) < numer.nrows():
        numer = flint.fmpz_mat([[numer[i, j] for j in range(n_k)] for i in rows])
    # shift row i by one of its kept scores, in C: the exponents are rate * (v_ij - v_i,first kept)
    first = flint.fmpz_mat([[numer[index, kept[0]]] for index, kept in enumerate(kept_rows)])
    shifted = numer - first * flint.fmpz_mat([[1] * n_k])
    # one Python call per exponential and per weight is the floor of this method
    # (about 0.4 µs and 0.1 µs at 128 bits), and so is building an arb_mat from Python
    # balls (about 0.1 µs an entry); the loops are map() over lists
    exps = list(map(flint.arb.exp, (flint.arb_mat(shifted) * rate).entries()))
    # rows as lists: arb_mat builds from a list of rows about 15% faster than from one flat list
    exp_rows = [exps[index * n_k : (index + 1) * n_k] for index in range(len(rows))]
    zero = flint.arb(0)
    for index, kept in enumerate(kept_rows):
        if len(kept) < n_k:  # masked keys weigh exactly 0
            kept_set = set(kept)
            row = exp_rows[index]
            for j in range(n_k):
                if j not in kept_set:
                    row[j] = zero
    bar.update(len(rows))
    bar.close()
    n_r = len(rows)
    E = flint.arb_mat(exp_rows) if exp_rows else flint.arb_mat(0, n_k)
    totals = (E * flint.arb_mat(n_k, 1, [1] * n_k)).entries()
    inverse = [1 / total for total in totals]
    scaled = [list(map(value.__mul__, row)) for value, row in zip(inverse, exp_rows, strict=True)]
    weights = flint.arb_mat(scaled) if scaled else flint.arb_mat(0, n_k)
    V_numer, V_den = V.numer_denom()  # small exact integers make the arb_mat product about twice as fast
    numerators = (E * flint.arb_mat(V_numer)).entries()
    d_v = V.ncols()
    scale = [value / int(V_den) for value in inverse]
    outputs = tuple(
        tuple(map(scale[index].__mul__, numerators[index * d_v : (index + 1) * d_v])) for index in range(n_r)
    )
    everything, none = frozenset(range(n_k)), frozenset()
    masked = tuple(everything.difference(kept) if len(kept) < n_k else none for kept in kept_rows)
    return RowBalls(
        tuple(rows),
        tuple({} for _ in rows),
        masked,
        skipped,
        outputs,
        n_k,
        sum(map(len, kept_rows)),
        dense=weights,
    )


def _outputs(
    actives: list[list[int]],
    exps_rows: list[list[flint.arb]],
    totals: list[flint.arb],
    V: flint.fmpq_mat,
    eps: flint.arb,
    *,
    n_skipped_rows: list[int],
) -> tuple[tuple[flint.arb, ...], ...]:
    """Output rows (sum_j e_j V_j) / total, plus +-eps * sum_j |V_jk| when keys were skipped.

    Rows with few evaluated keys are summed key by key; the others go through
    one arb_mat product.
    """
    n_k, d_v = V.nrows(), V.ncols()
    dense = [r for r, active in enumerate(actives) if len(active) * ROW_PRODUCT_FRACTION > n_k]
    sums: dict[int, list[flint.arb]] = {}
    if dense:
        E = flint.arb_mat(len(dense), n_k)
        for row, r in enumerate(dense):
            for j, value in zip(actives[r], exps_rows[r], strict=True):
                E[row, j] = value
        product = E * flint.arb_mat(V)
        for row, r in enumerate(dense):
            sums[r] = [product[row, k] for k in range(d_v)]
    V_rows: dict[int, flint.arb_mat] = {}
    for r, active in enumerate(actives):
        if r in sums:
            continue
        acc = flint.arb_mat(1, d_v)
        for j, value in zip(active, exps_rows[r], strict=True):
            if j not in V_rows:
                V_rows[j] = flint.arb_mat(1, d_v, [V[j, k] for k in range(d_v)])
            acc += V_rows[j] * value
        sums[r] = [acc[0, k] for k in range(d_v)]
    tail = None
    if any(n_skipped_rows):
        abs_col = [sum((abs(V[j, k]) for j in range(n_k)), flint.fmpq(0)) for k in range(d_v)]
        tail = [flint.arb(0, eps * flint.arb(total)) for total in abs_col]
    outputs = []
    for r, total in enumerate(totals):
        row = [value / total for value in sums[r]]
        if tail is not None and n_skipped_rows[r]:
            row = [value + bound for value, bound in zip(row, tail, strict=True)]
        outputs.append(tuple(row))
    return tuple(outputs)


def attention_balls(
    scores: Scores,
    factor: object,
    keep: Sequence[Sequence[bool]] | None,
    V: flint.fmpq_mat,
    prec: int,
    *,
    progress: bool = False,
    method: str = "auto",
) -> tuple[flint.arb_mat | FixedWeights, flint.arb_mat]:
    """Rigorous enclosures of the weights and the output at ``prec`` bits.

    Args:
        scores: the exact unscaled scores Q·Kᵀ (n_q × n_k), an fmpq_mat or
            :class:`IntegerScores` (see :func:`exact_products`).
        factor: the exact positive scale c (a SymPy expression such as
            ``sqrt(2)/2``, or an arb ball).
        keep: keep[i][j] False masks the entry; None keeps every entry.
        V: the exact values (n_k × d_v).
        prec: working precision in bits (absolute error about 2**-prec).
        progress: show a progress bar on stderr when it is a terminal.
        method: "auto", "sparse" or "dense" (see :func:`_row_balls`); the
            balls are rigorous either way.

    Returns:
        (weights, output): every true value lies in its ball.  output is an ``arb_mat``;
        weights is one too, except from the fixed-point dense method (numpy installed, no
        mask, over 2^15 entries), where it is a :class:`FixedWeights`: the same enclosures
        as exact fixed-point integers with certified radii, read like an arb_mat (``[i, j]``,
        ``nrows``, ``entries``, ``tolist``) and turned into one by ``.arb_mat()``; its
        python-flint objects are built on first use.

    Raises:
        ShapeError: V or the mask does not fit the scores.
        FullyMaskedRowError: a row keeps no key.
        InputError: an unknown method, or a scale that is not positive.

    >>> W, O = attention_balls(flint.fmpq_mat([[0, 0]]), flint.arb(1), None, flint.fmpq_mat([[1], [3]]), 64)
    >>> W[0, 0].contains(flint.fmpq(1, 2)), O[0, 0].contains(2)
    (True, True)
    """
    balls = _row_balls(scores, factor, keep, V, prec, progress=progress, method=method)
    n_q, n_k = scores.nrows(), scores.ncols()
    if balls.output_matrix is not None:
        output = balls.output_matrix
        return balls.dense, output.arb_mat() if isinstance(output, FixedOutputs) else output
    if balls.dense is not None:
        with _precision(prec):
            return balls.dense, flint.arb_mat(list(map(list, balls.output)))
    with _precision(prec):
        # every entry starts as the shared ball [0, eps] (an outer product, in C) ...
        weights = flint.arb_mat(n_q, 1, [balls.skipped] * n_q) * flint.arb_mat(1, n_k, [1] * n_k)
        for i in balls.rows:  # ... then masked keys become 0 and evaluated keys their balls
            for j in balls.masked[i]:
                weights[i, j] = 0
            for j, ball in balls.active[i].items():
                weights[i, j] = ball
        return weights, flint.arb_mat(list(map(list, balls.output)))


# --- certified decimals -----------------------------------------------------------


def round_units(ball: flint.arb, places: int) -> int | None:
    """The integer ``round(x * 10**places)`` (half away from zero) shared by
    every point x of ``ball``, or None when the ball straddles a boundary.

    Args:
        ball: an arb enclosure.
        places: digits after the decimal point.

    Returns:
        The rounded number of units of 10**-places, or None.

    >>> round_units(flint.arb(1) / 3, 4)
    3333
    """
    return Rounder.make(places).units(ball)


def format_units(units: int, places: int) -> str:
    """``units`` times 10**-places as a decimal string ("-0.000" is "0.000")."""
    return Rounder.make(places).text(units)


def _round_fraction(value: Fraction, places: int) -> int:
    return round_half_away(value * 10**places)


def _exact_rational(
    scores: Scores, keep: Sequence[Sequence[bool]] | None, column: Sequence[Fraction], i: int
) -> Fraction | None:
    """sum_j w_ij * column[j] when that value is rational, else None.

    Kept keys with equal scores share one exponential.  The value equals r
    exactly when every group of equal scores has mean ``column`` value r (then
    it is r); otherwise it mixes distinct exponentials of algebraic numbers
    and, by the Lindemann-Weierstrass theorem, is irrational.
    """
    groups: dict[object, list[Fraction]] = {}
    for j in range(scores.ncols()):
        if keep is None or keep[i][j]:
            groups.setdefault(scores[i, j], []).append(column[j])
    means = {sum(values, Fraction(0)) / len(values) for values in groups.values()}
    return means.pop() if len(means) == 1 else None


def _fraction(value: flint.fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def attention_decimals(
    scores: Scores,
    factor: object,
    keep: Sequence[Sequence[bool]] | None,
    V: flint.fmpq_mat,
    places: int,
    *,
    want: Sequence[str] = ("weights", "output"),
    progress: bool = False,
    method: str = "auto",
) -> dict[str, list[list[str]]]:
    """Certified decimals of the attention weights and output.

    weights = rowwise softmax(factor * scores), masked entries exactly 0;
    output = weights · V.  Every string has exactly ``places`` digits after
    the point, rounded half away from zero, and is printed only when the
    enclosure decides it; undecided rows are recomputed at twice the
    precision, and exact rational ties are rounded exactly.

    Args:
        scores: the exact unscaled scores Q·Kᵀ (n_q × n_k), an fmpq_mat or
            :class:`IntegerScores` (see :func:`exact_products`).
        factor: the exact positive scale c (SymPy expression or arb ball).
        keep: keep[i][j] False masks the entry; None keeps every entry.
        V: the exact values (n_k × d_v).
        places: digits after the decimal point (0 or more).
        want: which of "weights" and "output" to return.
        progress: show a progress bar on stderr for long runs (n_q >= 256).
        method: "auto", "sparse" or "dense"; only the speed depends on it.

    Returns:
        ``{name: rows of decimal strings}`` for each name in ``want``.

    Raises:
        ShapeError: V or the mask does not fit the scores.
        FullyMaskedRowError: a row keeps no key.
        InputError: an unknown method, or a scale that is not positive.
        UndecidedRoundingError: an entry stays undecided at MAX_PREC bits.

    >>> d = attention_decimals(flint.fmpq_mat([[0, 0]]), 1, None, flint.fmpq_mat([[1], [3]]), 2)
    >>> d["weights"], d["output"]
    ([['0.50', '0.50']], [['2.00']])
    """
    n_q = scores.nrows()
    prec = max(128, int(places * 3.33) + 40)
    results: dict[str, list[list[str | None]]] = {}
    undecided = set(range(n_q))
    first = True
    while undecided:
        if prec > MAX_PREC:
            raise UndecidedRoundingError(
                f"the {places}-place rounding of attention row {min(undecided) + 1} "
                f"is still undecided at {MAX_PREC} bits"
            )
        balls = _row_balls(
            scores,
            factor,
            keep,
            V,
            prec,
            rows=sorted(undecided),
            progress=progress and first,
            method=method,
            weights="weights" in want,
        )
        with _precision(prec):
            rounder = Rounder.make(places)
            for name in want:
                target = results.setdefault(name, [[] for _ in range(n_q)])
                for i, row in zip(balls.rows, _decide_rows(balls, name, rounder), strict=True):
                    target[i] = row
        undecided = {i for name in want for i, row in enumerate(results[name]) if None in row}
        if undecided and not first:
            _settle_exact(results, scores, keep=keep, V=_values_matrix(V), places=places, rows=undecided)
            undecided = {i for name in want for i, row in enumerate(results[name]) if None in row}
        first = False
        prec *= 2
    return {name: results[name] for name in want}  # type: ignore[misc]


def _decide_rows(balls: RowBalls, name: str, rounder: Rounder) -> list[list[str | None]]:
    """The decimals of every row of a :class:`RowBalls` (None where undecided)."""
    decide = rounder.decide
    if name == "weights" and not balls.has_weights:
        raise ValueError("these balls were computed without the weights (_row_balls(weights=False))")
    if name == "output":
        if isinstance(balls.output_matrix, FixedOutputs):
            return balls.output_matrix.decimals(rounder.places)  # from the integers
        rows = balls.output if balls.output_matrix is None else balls.output_matrix.tolist()
        return [[decide(ball) for ball in row] for row in rows]
    if balls.dense is not None:
        dense = balls.dense
        if isinstance(dense, FixedWeights):
            decided = dense.decimals(rounder.places)  # from the integers, in numpy
            if decided is not None:
                return decided
            dense = dense.arb_mat()
        # weights are >= 0, so round(y) = floor(y + 1/2) with y = w * 10**places;
        # scale and shift the whole matrix in C, then take floors entry by entry
        halves = flint.arb_mat(len(balls.rows), 1, [1] * len(balls.rows)) * flint.arb_mat(
            1, balls.n_k, [rounder.half] * balls.n_k
        )
        shifted = dense * rounder.scale + halves
        floor, text = rounder.floor, rounder.text
        out = []
        for index in range(len(balls.rows)):
            units = [floor(shifted[index, j]) for j in range(balls.n_k)]
            out.append([None if u is None else text(u) for u in units])
        return out
    skipped, zero = decide(balls.skipped), rounder.text(0)
    out = []
    for index in range(len(balls.rows)):
        row = [skipped] * balls.n_k
        for j in balls.masked[index]:
            row[j] = zero
        for j, ball in balls.active[index].items():
            row[j] = decide(ball)
        out.append(row)
    return out


def _settle_exact(
    results: dict[str, list[list[str | None]]],
    scores: Scores,
    *,
    keep: Sequence[Sequence[bool]] | None,
    V: flint.fmpq_mat,
    places: int,
    rows: set[int],
) -> None:
    """Round the undecided entries that are exact rationals (ties) exactly."""
    n_k = scores.ncols()
    for name, matrix in results.items():
        for i in rows:
            for col, text in enumerate(matrix[i]):
                if text is not None:
                    continue
                if name == "weights":
                    column = [Fraction(int(j == col)) for j in range(n_k)]
                else:
                    column = [_fraction(V[j, col]) for j in range(n_k)]
                value = _exact_rational(scores, keep, column, i)
                if value is not None:
                    matrix[i][col] = format_units(_round_fraction(value, places), places)
