"""A certified reference for numeric attention kernels (float16, float32, float64).

Kernel tests usually compare a fused or flash attention kernel against a
float64 or float32 "reference", which has rounding errors of its own.  This
module computes the true value of ``softmax(scale · Q·Kᵀ) · V`` instead, as
certified enclosures, and says how far a kernel's output is from it.

    >>> import numpy as np
    >>> Q = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    >>> ref = reference(Q, Q, Q)
    >>> ref.to_numpy(np.float32)
    array([[0.66976154, 0.33023846],
           [0.33023846, 0.66976154]], dtype=float32)
    >>> report = compare(np.array([[0.67, 0.33], [0.33, 0.6]], dtype=np.float32), ref)
    >>> report.worst_index, report.within(atol=0.1), report.within(atol=1e-3)
    ((1, 1), True, False)

**Binary inputs are read exactly.**  A float32 array holds dyadic rationals
(``0.1f`` is 13421773/134217728), and those are the numbers the kernel
computed with, so the oracle reads each element as exactly that rational
(``float.as_integer_ratio``).  This differs on purpose from documents and
specs, where the text ``0.1`` means 1/10: there the author's decimal is the
input; here the array is.

How: first, :func:`symattn.float_bounds.attention_bounds` gives rigorous
float64 bounds of every output with whole-array numpy operations and a priori
error bounds; they decide the float16/float32 rounding of nearly every entry.
The rows they leave undecided (and every row asked for in float64 or as a
ball) get arb enclosures: each input array becomes one integer matrix over a
power-of-two denominator (exactly, through numpy's float64 for float16 and
float32, which is exact), the scores Q·Kᵀ are an exact ``fmpz_mat`` product,
and the softmax and the output are the arb balls of
:func:`symattn.numeric.attention_balls`, computed in blocks of rows so that
memory stays bounded.  Rounding to a dtype is decided from the enclosure
(round to nearest, ties to even, on the exact value); an entry the enclosure
cannot decide is recomputed at twice the precision, and an output that is an
exact rational (a tie such as the mean of two floats) is found and rounded
exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from symattn.errors import (
    FullyMaskedRowError,
    InputError,
    MaskError,
    NotExactError,
    ShapeError,
    SymattnError,
    UndecidedRoundingError,
)
from symattn.limits import MAX_PREC  # bits; an entry still undecided there raises UndecidedRoundingError
from symattn.numeric import IntegerScores, _precision, attention_balls

try:
    import numpy as np
except ImportError:  # numpy is optional for the default install: pip install 'symattn[oracle]'
    np = None  # type: ignore[assignment]

__all__ = ["ErrorReport", "Reference", "compare", "reference"]

BLOCK_ENTRIES = 1 << 19  # scores per block of rows (n_rows × n_k): bounds the memory of one block
_FLOAT_KINDS = {2: "float16", 4: "float32", 8: "float64"}
#: Formats numpy holds through ml_dtypes (``pip install 'symattn[oracle]'``): read exactly, and
#: rounded to and measured in their own ulps.
ML_FLOATS = ("bfloat16", "float8_e4m3fn", "float8_e5m2")
_EXPECTED = "float16, float32, float64, bfloat16, float8_e4m3fn or float8_e5m2"


def _is_float(dtype: Any) -> bool:
    """A binary float format the oracle reads: numpy's, or one of :data:`ML_FLOATS`."""
    return (dtype.kind == "f" and dtype.itemsize in _FLOAT_KINDS) or dtype.name in ML_FLOATS


def _ml_dtype(name: str) -> Any:
    try:
        import ml_dtypes
    except ImportError:
        raise InputError(
            f"{name} needs ml_dtypes, which is not installed: pip install 'symattn[oracle]'"
        ) from None
    return getattr(ml_dtypes, name)


def _widened(array: Any) -> Any:
    """An ml_dtypes array as float64 (exact: every value of those formats is a float64)."""
    return array.astype(_numpy().float64) if array.dtype.name in ML_FLOATS else array


def _numpy() -> Any:
    if np is None:
        raise SymattnError(
            "symattn.oracle needs numpy, which is not installed: pip install 'symattn[oracle]'"
        )
    return np


def _shape(array: Any) -> str:
    return "×".join(map(str, array.shape)) if array.ndim else "a scalar"


def _describe(name: str, array: Any) -> str:
    return f"{name} is {_shape(array)} {array.dtype}"


# --- reading arrays exactly ------------------------------------------------------------


def _as_array(name: str, value: Any) -> Any:
    numpy = _numpy()
    try:
        array = numpy.asarray(value)
    except (ValueError, TypeError) as err:  # ragged nested lists
        raise InputError(f"{name} is not a rectangular array ({err})") from None
    return array


def _check_dtype(name: str, array: Any, *, allow_int: bool = True) -> None:
    kind = array.dtype.kind
    if _is_float(array.dtype) or (allow_int and kind in "iu"):
        return
    expected = _EXPECTED.replace(" or ", ", ") + " or an integer dtype" if allow_int else _EXPECTED
    raise InputError(
        f"{name} has dtype {array.dtype}, which the oracle does not read ({name} is {_shape(array)}); "
        f"expected {expected}"
    )


def _check_finite(name: str, array: Any) -> None:
    array = _widened(array)
    if array.dtype.kind != "f":
        return
    bad = ~_numpy().isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in _numpy().argwhere(bad)[0])
        raise NotExactError(
            f"{name}{list(index)} is {array[index]}; the oracle needs finite inputs ({_describe(name, array)})"
        )


def _exact_integers(array: Any) -> tuple[Any, int]:
    """(integers, shift) with array == integers * 2**-shift exactly; integers is an int64 or object array."""
    numpy = _numpy()
    if array.dtype.kind in "iu":
        return array.astype(object) if array.dtype.itemsize == 8 else array.astype(numpy.int64), 0
    wide = array.astype(numpy.float64)  # exact for float16 and float32
    mantissa, exponent = numpy.frexp(wide)
    integer = numpy.ldexp(mantissa, 53).astype(numpy.int64)  # |integer| < 2**53, exact
    nonzero = integer != 0
    if not nonzero.any():
        return numpy.zeros(array.shape, dtype=numpy.int64), 0
    lowest = (integer & -integer).astype(numpy.float64)  # the lowest set bit, a power of two
    trailing = numpy.frexp(lowest)[1] - 1
    shift = max(0, -int((exponent - 53 + trailing)[nonzero].min()))
    scaled = numpy.ldexp(wide, shift)  # exact integers (a power-of-two scaling of a float)
    if numpy.abs(scaled).max() < 2.0**62:
        return scaled.astype(numpy.int64), shift
    return numpy.array([int(x) for x in scaled.ravel().tolist()], dtype=object).reshape(array.shape), shift


def _int_rows(integers: Any) -> list[list[int]]:
    return [[int(x) for x in row] for row in integers.tolist()]


def _read_mask(mask: Any, shape: tuple[int, ...]) -> Any:
    """A boolean keep-array of ``shape`` from a boolean mask (True keeps) or an additive one (0 / -inf)."""
    numpy = _numpy()
    array = _as_array("mask", mask)
    if array.dtype.kind == "b":
        keep = array
    elif array.dtype.kind in "fiu" and (array.dtype.kind != "f" or array.dtype.itemsize in _FLOAT_KINDS):
        if array.dtype.kind == "f" and numpy.isnan(array).any():
            index = tuple(int(i) for i in numpy.argwhere(numpy.isnan(array))[0])
            raise NotExactError(f"mask{list(index)} is nan ({_describe('mask', array)})")
        bad = (array != 0) & ~numpy.isneginf(array)
        if bad.any():
            index = tuple(int(i) for i in numpy.argwhere(bad)[0])
            raise MaskError(
                f"mask{list(index)} is {array[index]}; the oracle reads a boolean mask (True keeps a key) "
                f"or an additive mask of 0 and -inf ({_describe('mask', array)})"
            )
        keep = array == 0
    else:
        raise InputError(
            f"mask has dtype {array.dtype}, which the oracle does not read (mask is {_shape(array)}); "
            "expected bool (True keeps a key) or floats 0 and -inf"
        )
    if array.ndim < 2 or array.shape[-2:] != shape[-2:] or (array.ndim > 2 and array.shape != shape):
        expected = "×".join(map(str, shape[-2:])) + (
            " or " + "×".join(map(str, shape)) if len(shape) > 2 else ""
        )
        raise ShapeError(f"mask is {_shape(array)} but the scores are {expected}")
    return numpy.broadcast_to(keep, shape)


def _scale_value(scale: Any) -> flint.fmpq:
    """An exact positive rational scale (a float is read as its exact binary value)."""
    numpy = _numpy()
    if isinstance(scale, bool) or not isinstance(
        scale, int | float | Fraction | flint.fmpq | flint.fmpz | numpy.integer | numpy.floating
    ):
        raise InputError(
            f"scale must be a number (int, float, Fraction), not {type(scale).__name__}: {scale!r}"
        )
    if isinstance(scale, numpy.integer):
        scale = int(scale)
    if isinstance(scale, float | numpy.floating):
        if not math.isfinite(float(scale)):
            raise NotExactError(f"scale is {scale}; the oracle needs a finite positive scale")
        scale = Fraction(*float(scale).as_integer_ratio())
    value = (
        flint.fmpq(scale.numerator, scale.denominator) if isinstance(scale, Fraction) else flint.fmpq(scale)
    )
    if value <= 0:
        raise InputError(f"scale must be positive, not {scale}")
    return value


# --- one attention head ----------------------------------------------------------------


@dataclass
class _Head:
    """One (n_q × d_k, n_k × d_k, n_k × d_v) problem, read exactly, with its output balls."""

    q: list[list[int]]  # Q = q * 2**-q_shift
    kT: flint.fmpz_mat  # Kᵀ = kT * 2**-k_shift
    v: list[list[int]]  # V = v * 2**-v_shift
    den: int  # 2**(q_shift + k_shift): scores = (q·kT) / den
    v_den: int
    scale: flint.fmpq | None  # None: 1/sqrt(d_k)
    d_k: int
    keep: list[list[bool]] | None
    base_prec: int  # the first arb precision of a row
    balls: list[list[flint.arb] | None] = field(default_factory=list)  # None: not computed (yet)
    prec: list[int] = field(default_factory=list)  # per row; 0 where only float64 bounds exist
    exact: dict[tuple[int, int], Fraction] = field(default_factory=dict)
    checked_exact: set[int] = field(default_factory=set)  # rows whose rational entries are known
    # float64 arrays (n_q × d_v): rigorous bounds lower <= true <= upper, and the nearest floats of
    # the ball's endpoints (equal ones decide a float64 rounding; for float-pass rows, the bounds)
    lower: Any = None
    upper: Any = None
    nearest: Any = None

    @property
    def n_q(self) -> int:
        return len(self.q)

    def factor(self, prec: int) -> flint.arb:
        with _precision(prec + 32):
            if self.scale is None:
                return flint.arb(self.d_k).rsqrt()
            return flint.arb(self.scale)

    def compute(self, rows: Sequence[int], prec: int) -> None:
        """(Re)compute the output balls of ``rows`` at ``prec`` bits, in blocks of rows."""
        n_k = self.kT.ncols()
        V = flint.fmpq_mat(flint.fmpz_mat(self.v)) / self.v_den
        block = max(1, BLOCK_ENTRIES // max(1, n_k))
        self.start()
        factor = self.factor(prec)
        for start in range(0, len(rows), block):
            part = rows[start : start + block]
            scores = IntegerScores(flint.fmpz_mat([self.q[i] for i in part]) * self.kT, self.den)
            keep = None if self.keep is None else [self.keep[i] for i in part]
            _, output = attention_balls(scores, factor, keep, V, prec)
            d_v = output.ncols()
            entries = output.entries()
            for index, i in enumerate(part):
                row = entries[index * d_v : (index + 1) * d_v]
                self.balls[i] = row
                self.prec[i] = prec
                with _precision(max(64, prec)):
                    low = [float(b.lower()) for b in row]  # float(): nearest, ties to even
                    high = [float(b.upper()) for b in row]
                self.nearest[0][i], self.nearest[1][i] = low, high
                # one step outward from the nearest float makes the bounds rigorous
                self.lower[i] = _numpy().nextafter(low, -_numpy().inf)
                self.upper[i] = _numpy().nextafter(high, _numpy().inf)
                for k in range(d_v):
                    if (i, k) in self.exact:
                        self._set_exact(i, k)

    def start(self, bounds: tuple[Any, Any] | None = None) -> None:
        """Allocate the per-row records, with float64 bounds from the float pass if given."""
        if self.balls:
            return
        numpy = _numpy()
        self.balls = [None] * self.n_q
        self.prec = [0] * self.n_q
        shape = (self.n_q, len(self.v[0]))
        if bounds is None:
            self.lower, self.upper = numpy.full(shape, -numpy.inf), numpy.full(shape, numpy.inf)
        else:
            self.lower, self.upper = bounds
        self.nearest = (self.lower.copy(), self.upper.copy())

    def _set_exact(self, i: int, k: int) -> None:
        value = float(self.exact[i, k])  # correctly rounded
        numpy = _numpy()
        self.nearest[0][i, k] = self.nearest[1][i, k] = value
        self.lower[i, k] = numpy.nextafter(value, -numpy.inf)
        self.upper[i, k] = numpy.nextafter(value, numpy.inf)

    def settle_exact(self, row: int) -> None:
        """Record the entries of ``row`` that are exact rationals (see numeric._exact_rational)."""
        if row in self.checked_exact:
            return
        self.checked_exact.add(row)
        scores = (flint.fmpz_mat([self.q[row]]) * self.kT).entries()
        kept = [j for j in range(len(scores)) if self.keep is None or self.keep[row][j]]
        # Lindemann–Weierstrass: sum_g e^{c s_g} n_g m_g / sum_g e^{c s_g} n_g with distinct algebraic
        # c·s_g is rational exactly when every group mean m_g is the same number (then it is that number)
        if len({scores[j] for j in kept}) == len(kept):  # distinct scores: the kept values must be equal
            for k in range(len(self.v[0])):
                value = self.v[kept[0]][k]
                if all(self.v[j][k] == value for j in kept):
                    self.exact[row, k] = Fraction(value, self.v_den)
                    self._set_exact(row, k)
            return
        groups: dict[flint.fmpz, list[int]] = {}
        for j in kept:
            groups.setdefault(scores[j], []).append(j)
        members = list(groups.values())
        for k in range(len(self.v[0])):
            first = Fraction(sum(self.v[j][k] for j in members[0]), len(members[0]))
            if all(Fraction(sum(self.v[j][k] for j in group), len(group)) == first for group in members[1:]):
                self.exact[row, k] = first / self.v_den
                self._set_exact(row, k)


# --- rounding to a binary format, exactly ------------------------------------------------


@dataclass(frozen=True)
class _Format:
    name: str
    bits: int  # significand bits, with the implicit one
    emin: int
    emax: int

    largest: float = math.inf  # the largest finite value (float8_e4m3fn stops at 448, short of 480)

    @classmethod
    def of(cls, dtype: Any) -> _Format:
        if dtype.name in ML_FLOATS:
            import ml_dtypes

            info, name = ml_dtypes.finfo(dtype), dtype.name
        else:
            info = _numpy().finfo(dtype)
            name = str(info.dtype)
        return cls(name, info.nmant + 1, info.minexp, info.maxexp - 1, float(info.max))

    def round(self, num: int, den: int) -> float:
        """num/den (den > 0) rounded to nearest, ties to even, in this format (as a Python float)."""
        if num == 0:
            return 0.0
        a = abs(num)
        e = a.bit_length() - den.bit_length()  # 2**e <= a/den < 2**(e+1) after the correction
        if (a << max(0, -e)) < (den << max(0, e)):
            e -= 1
        quantum = max(e, self.emin) - (self.bits - 1)
        top, bottom = (a, den << quantum) if quantum >= 0 else (a << -quantum, den)
        units, rest = divmod(top, bottom)
        if 2 * rest > bottom or (2 * rest == bottom and units & 1):
            units += 1
        value = math.inf if units.bit_length() + quantum > self.emax + 1 else math.ldexp(units, quantum)
        value = math.inf if value > self.largest else value  # a format without its top codes
        return -value if num < 0 else value

    def round_ball_endpoint(self, point: flint.arb) -> float:
        man, exp = (int(x) for x in point.man_exp())
        return self.round(man << exp, 1) if exp >= 0 else self.round(man, 1 << -exp)

    def round_fraction(self, value: Fraction) -> float:
        return self.round(value.numerator, value.denominator)


def _same_float(a: float, b: float) -> bool:
    return a == b and math.copysign(1, a) == math.copysign(1, b)


# --- the reference ------------------------------------------------------------------------


class Reference:
    """Certified outputs of ``softmax(scale · Q·Kᵀ) · V`` (see :func:`reference`).

    Attributes:
        shape: the output's shape, ``(..., n_q, d_v)``.
    """

    def __init__(self, heads: list[_Head], batch: tuple[int, ...], d_v: int) -> None:
        self._heads = heads
        self._batch = batch
        self.shape: tuple[int, ...] = (*batch, heads[0].n_q, d_v)
        self._bounds: Any = None  # cached (lower, upper) float64 arrays

    def __repr__(self) -> str:
        return f"<symattn.oracle.Reference {'×'.join(map(str, self.shape))}, certified>"

    def _head_index(self, index: tuple[int, ...]) -> tuple[_Head, int, int]:
        numpy = _numpy()
        head = int(numpy.ravel_multi_index(index[:-2], self._batch)) if self._batch else 0
        return self._heads[head], index[-2], index[-1]

    def ball(self, index: tuple[int, ...]) -> flint.arb:
        """The arb ball of one output entry (an exact rational is enclosed at 128 bits).

        >>> import numpy as np
        >>> reference(np.eye(2), np.eye(2), np.eye(2)).ball((0, 0)).rad() < 1e-30
        True
        """
        head, i, k = self._head_index(tuple(index))
        if (i, k) in head.exact:
            value = head.exact[i, k]
            with _precision(128):
                return flint.arb(flint.fmpq(value.numerator, value.denominator))
        if head.balls[i] is None:  # only float64 bounds so far
            head.compute([i], head.base_prec)
            self._bounds = None
        return head.balls[i][k]

    @property
    def balls(self) -> Any:
        """Every output ball, as a numpy object array of ``flint.arb`` (computes the missing ones)."""
        numpy = _numpy()
        self._ensure_balls()
        out = numpy.empty(self.shape, dtype=object)
        for index in numpy.ndindex(*self.shape):
            out[index] = self.ball(index)
        return out

    def _ensure_balls(self) -> None:
        """Compute the arb balls of every row that has only float64 bounds."""
        for head in self._heads:
            missing = [i for i, row in enumerate(head.balls) if row is None]
            if missing:
                head.compute(missing, head.base_prec)
                self._bounds = None

    def _float_bounds(self, *, nearest: bool = False) -> tuple[Any, Any]:
        """float64 arrays lower <= true <= upper for every entry (rounded outward).

        With ``nearest``: the ball's endpoints rounded to nearest instead (not bounds).
        """
        if self._bounds is None:
            numpy = _numpy()
            stack = [
                numpy.stack([h.nearest[0] for h in self._heads]),
                numpy.stack([h.nearest[1] for h in self._heads]),
                numpy.stack([h.lower for h in self._heads]),
                numpy.stack([h.upper for h in self._heads]),
            ]
            self._bounds = tuple(a.reshape(self.shape) for a in stack)
        return self._bounds[:2] if nearest else self._bounds[2:]

    @property
    def mid(self) -> Any:
        """float64 midpoints: the true value lies in [mid - rad, mid + rad] (real arithmetic)."""
        lower, upper = self._float_bounds()
        return lower / 2 + upper / 2

    @property
    def rad(self) -> Any:
        """float64 radii (rounded up) around :attr:`mid`."""
        numpy = _numpy()
        lower, upper = self._float_bounds()
        mid = self.mid
        return numpy.nextafter(numpy.maximum(mid - lower, upper - mid), numpy.inf)

    def _refine(self, entries: Sequence[tuple[int, ...]]) -> None:
        """Make the bounds of ``entries`` tighter.

        A row with float64 bounds only gets arb balls; a row that has balls
        gets its exact rational entries found, then twice the precision.
        """
        by_head: dict[int, set[int]] = {}
        for index in entries:
            head, i, _ = self._head_index(index)
            by_head.setdefault(self._heads.index(head), set()).add(i)
        for h, rows in by_head.items():
            head = self._heads[h]
            first = sorted(i for i in rows if head.balls[i] is None)
            if first:
                head.compute(first, head.base_prec)
            again = sorted(set(rows).difference(first))
            for i in again:
                head.settle_exact(i)
            again = [i for i in again if any((i, k) not in head.exact for k in range(len(head.v[0])))]
            if not again:
                continue
            prec = 2 * max(head.prec[i] for i in again)
            if prec > MAX_PREC:
                raise UndecidedRoundingError(
                    f"output row {again[0] + 1} of the oracle is still undecided at {MAX_PREC} bits"
                )
            head.compute(again, prec)
        self._bounds = None

    def _exact_or_ball(self, index: tuple[int, ...]) -> tuple[Fraction | None, flint.arb | None]:
        head, i, k = self._head_index(index)
        row = head.balls[i]
        return head.exact.get((i, k)), None if row is None else row[k]

    def to_numpy(self, dtype: Any = None) -> Any:
        """The true output rounded to ``dtype`` (nearest, ties to even), every entry certified.

        Args:
            dtype: numpy.float16, numpy.float32 or numpy.float64 (default float64), or an
                ml_dtypes format by name or type: bfloat16, float8_e4m3fn, float8_e5m2.

        Returns:
            A numpy array of ``dtype`` and shape :attr:`shape`.

        Raises:
            InputError: an unsupported dtype.
            UndecidedRoundingError: an entry stays undecided at MAX_PREC bits.
        """
        numpy = _numpy()
        if isinstance(dtype, str) and dtype in ML_FLOATS:
            dtype = _ml_dtype(dtype)
        try:
            dtype = numpy.dtype(numpy.float64 if dtype is None else dtype)
        except TypeError:
            raise InputError(f"to_numpy rounds to {_EXPECTED}, not {dtype}") from None
        if not _is_float(dtype):
            raise InputError(f"to_numpy rounds to {_EXPECTED}, not {dtype}")
        fmt = _Format.of(dtype)
        while True:
            if dtype == numpy.float64:  # the nearest floats of the endpoints: equal ones decide
                low, high = self._float_bounds(nearest=True)
            else:  # numpy rounds float64 to nearest, ties to even, so equal roundings of bounds decide
                lower, upper = self._float_bounds()
                low, high = lower.astype(dtype), upper.astype(dtype)
            result = low.copy()
            undecided = [
                tuple(int(x) for x in ix)
                for ix in numpy.argwhere((low != high) | (numpy.signbit(low) != numpy.signbit(high)))
            ]
            still = []
            for index in undecided:  # decide exactly from the ball's endpoints, or from the exact value
                exact, ball = self._exact_or_ball(index)
                if exact is not None:
                    result[index] = fmt.round_fraction(exact)
                    continue
                if ball is None:  # float64 bounds only: compute the ball
                    still.append(index)
                    continue
                head, i, _ = self._head_index(index)
                with _precision(head.prec[i]):
                    a, b = fmt.round_ball_endpoint(ball.lower()), fmt.round_ball_endpoint(ball.upper())
                if _same_float(a, b):
                    result[index] = a
                else:
                    still.append(index)
            if not still:
                return result
            self._refine(still)


def reference(
    Q: Any,
    K: Any,
    V: Any,
    *,
    scale: Any = None,
    causal: bool = False,
    mask: Any = None,
    prec: int | None = None,
    float_pass: bool = True,
) -> Reference:
    """The certified output of attention, ``softmax(scale · Q·Kᵀ + mask) · V``.

    Args:
        Q: queries, numpy array ``(..., n_q, d_k)`` of float16, float32,
            float64 or an integer dtype; every element is read exactly (a
            binary float as the dyadic rational it is).
        K: keys ``(..., n_k, d_k)``; V: values ``(..., n_k, d_v)``; the
            leading (batch, head) dimensions of Q, K and V must be equal.
        scale: the factor on the scores: None for exactly ``1/sqrt(d_k)``,
            or a positive int, Fraction or float (a float is read exactly,
            as the kernel would multiply by it).
        causal: keep key j for query i only when j <= i (top-left aligned,
            as ``torch.nn.functional.scaled_dot_product_attention``).
        mask: a boolean array (True keeps a key) or an additive float array
            of 0 and -inf, ``(n_q, n_k)`` or with the leading dimensions.
        prec: starting arb precision in bits (default 64 for float16/float32
            inputs, 128 otherwise); only the speed depends on it.
        float_pass: start from rigorous float64 bounds
            (:mod:`symattn.float_bounds`) and compute arb balls only for the
            rows they leave undecided; False computes every row with arb.

    Returns:
        A :class:`Reference`.

    Raises:
        InputError: an unsupported dtype or scale.
        NotExactError: NaN or inf in Q, K, V or the mask.
        ShapeError: shapes that do not fit.
        MaskError: a mask value other than 0 and -inf, or a row that keeps no key.

    >>> import numpy as np
    >>> reference(np.zeros((1, 2)), np.zeros((3, 2)), np.arange(3.0).reshape(3, 1)).to_numpy()
    array([[1.]])
    """
    numpy = _numpy()
    arrays = {name: _as_array(name, value) for name, value in (("Q", Q), ("K", K), ("V", V))}
    for name, array in arrays.items():
        _check_dtype(name, array)
        if array.ndim < 2:
            raise ShapeError(
                f"{name} needs rows and columns, but it is {_shape(array)} ({_describe(name, array)})"
            )
        if 0 in array.shape:
            raise ShapeError(f"{name} is empty ({_describe(name, array)})")
        _check_finite(name, array)
    narrow = all(_is_float(a.dtype) and a.dtype.itemsize <= 4 for a in arrays.values())
    Qa, Ka, Va = (_widened(arrays[name]) for name in ("Q", "K", "V"))  # bfloat16, float8: exactly
    shapes = f"Q is {_shape(Qa)}, K is {_shape(Ka)}, V is {_shape(Va)}"
    if Ka.shape[-1] != Qa.shape[-1]:
        raise ShapeError(
            f"K has {Ka.shape[-1]} columns but Q has {Qa.shape[-1]}; queries and keys need the same d_k ({shapes})"
        )
    if Va.shape[-2] != Ka.shape[-2]:
        raise ShapeError(
            f"V has {Va.shape[-2]} rows but K has {Ka.shape[-2]}; every key needs one value ({shapes})"
        )
    if not (Qa.shape[:-2] == Ka.shape[:-2] == Va.shape[:-2]):
        raise ShapeError(f"the leading (batch) dimensions of Q, K and V differ ({shapes})")
    batch, n_q, n_k = Qa.shape[:-2], Qa.shape[-2], Ka.shape[-2]
    exact_scale = None if scale is None else _scale_value(scale)
    keep = None
    if mask is not None:
        keep = _read_mask(mask, (*batch, n_q, n_k))
    if causal:
        tri = numpy.tril(numpy.ones((n_q, n_k), dtype=bool))
        keep = tri if keep is None else keep & tri
    if keep is not None:
        keep = numpy.broadcast_to(keep, (*batch, n_q, n_k))
        empty = ~keep.any(axis=-1)
        if empty.any():
            index = tuple(int(i) for i in numpy.argwhere(empty)[0])
            raise FullyMaskedRowError(
                f"row {list(index)} of the mask{' and causal' if causal else ''} keeps no key, so its softmax "
                f"is undefined (the scores are {'×'.join(map(str, (*batch, n_q, n_k)))})"
            )
    if prec is None:
        prec = 64 if narrow else 128
    (q, q_shift), (k, k_shift), (v, v_shift) = (_exact_integers(a) for a in (Qa, Ka, Va))
    wide = None
    if float_pass and all(a.dtype.kind == "f" or numpy.abs(a).max() <= 2**53 for a in (Qa, Ka, Va)):
        wide = [a.astype(numpy.float64) for a in (Qa, Ka, Va)]  # exact
    heads = []
    for index in numpy.ndindex(*batch):
        head = _Head(
            q=_int_rows(q[index]),
            kT=flint.fmpz_mat(_int_rows(k[index])).transpose(),
            v=_int_rows(v[index]),
            den=1 << (q_shift + k_shift),
            v_den=1 << v_shift,
            scale=exact_scale,
            d_k=Qa.shape[-1],
            keep=None if keep is None else keep[index].tolist(),
            base_prec=prec,
        )
        bounds = None
        if wide is not None:
            from symattn.float_bounds import attention_bounds

            scale_fraction = None if exact_scale is None else Fraction(int(exact_scale.p), int(exact_scale.q))
            bounds = attention_bounds(
                *(a[index] for a in wide), scale=scale_fraction, keep=None if keep is None else keep[index]
            )
        head.start(bounds)
        if bounds is None:
            head.compute(list(range(n_q)), prec)
        heads.append(head)
    return Reference(heads, tuple(batch), Va.shape[-1])


# --- comparing a kernel's output --------------------------------------------------------


@dataclass(frozen=True)
class ErrorReport:
    """How far a kernel's output is from the true attention output.

    Every error is a certified lower bound of the true error (it is never
    more than the true one); an output entry that is NaN or inf has error inf.

    Attributes:
        max_abs_error: max |out - true|.
        max_rel_error: max |out - true| / |true| (inf where true is 0 and out is not).
        max_ulps: max |out - true| / ulp(true), the ulp in ``dtype`` (out.dtype):
            a correctly rounded output has max_ulps <= 0.5.
        worst_index: the index of the entry with the largest absolute error.
        worst_ulps_index: the index of the entry with the most ulps.
        nonfinite: how many entries of out are NaN or inf.
        dtype: the kernel's dtype.
    """

    max_abs_error: float
    max_rel_error: float
    max_ulps: float
    worst_index: tuple[int, ...]
    worst_ulps_index: tuple[int, ...]
    nonfinite: int
    dtype: str
    out: Any = field(repr=False, compare=False)
    ref: Reference = field(repr=False, compare=False)

    def __str__(self) -> str:
        return (
            f"max abs error {self.max_abs_error:.3g} at {self.worst_index}, max rel error "
            f"{self.max_rel_error:.3g}, max {self.max_ulps:.3g} ulps ({self.dtype}) at {self.worst_ulps_index}"
            + (f", {self.nonfinite} NaN or inf" if self.nonfinite else "")
        )

    def max_error(self, atol: float = 0.0, rtol: float = 0.0) -> float:
        """max |out - true| / (atol + rtol·|true|): the factor by which the output misses the
        tolerance of ``numpy.allclose(out, true, rtol=rtol, atol=atol)`` (at most 1 within it),
        one figure where ulps blow up at outputs near zero.  A certified lower bound of the
        true figure (:meth:`within` decides the tolerance itself); inf for a NaN or inf entry,
        or for an error where the tolerance is 0.

        >>> import numpy as np
        >>> r = compare(np.array([[0.67, 0.33], [0.33, 0.67]]), np.eye(2), np.eye(2), np.eye(2))
        >>> 0.23 < r.max_error(atol=1e-3) < 0.24  # |0.67 - 0.669761| = 0.000239
        True
        """
        numpy = _numpy()
        _check_tolerance(atol, rtol)
        if self.nonfinite:
            return math.inf
        out = self.out.astype(numpy.float64)
        lower, upper = self.ref._float_bounds()
        if atol == 0 and rtol == 0:
            return math.inf if self.max_abs_error > 0 else 0.0
        with numpy.errstate(over="ignore", invalid="ignore", divide="ignore"):
            err_lo = _error_lower(out, lower, upper)
            tol_hi = _tolerance_above(lower, upper, atol, rtol)
            ratio = numpy.where(
                tol_hi > 0,
                numpy.nextafter(err_lo / numpy.where(tol_hi > 0, tol_hi, 1.0), -numpy.inf),
                numpy.where(err_lo > 0, numpy.inf, 0.0),
            )
        return float(numpy.maximum(ratio, 0.0).max())

    def within(self, atol: float = 0.0, rtol: float = 0.0) -> bool:
        """Whether |out - true| <= atol + rtol·|true| for every entry, decided with certainty.

        The balls are refined where they cannot decide; an exact rational
        true value is compared exactly.

        Raises:
            UndecidedRoundingError: an entry stays undecided at MAX_PREC bits.
        """
        numpy = _numpy()
        _check_tolerance(atol, rtol)
        if self.nonfinite:
            return False
        out = self.out.astype(numpy.float64)
        tol_a, tol_r = (Fraction(*float(x).as_integer_ratio()) for x in (atol, rtol))
        while True:
            lower, upper = self.ref._float_bounds()
            with numpy.errstate(over="ignore", invalid="ignore"):
                err_hi = numpy.nextafter(
                    numpy.maximum(numpy.abs(out - lower), numpy.abs(out - upper)), numpy.inf
                )
                true_lo = numpy.where(
                    (lower <= 0) & (upper >= 0), 0.0, numpy.minimum(numpy.abs(lower), numpy.abs(upper))
                )
                tol_lo = numpy.nextafter(atol + numpy.nextafter(rtol * true_lo, -numpy.inf), -numpy.inf)
                err_lo = _error_lower(out, lower, upper)
                tol_hi = _tolerance_above(lower, upper, atol, rtol)
            if (err_lo > tol_hi).any():
                return False
            undecided = [tuple(int(x) for x in ix) for ix in numpy.argwhere(~(err_hi <= tol_lo))]
            still = []
            for index in undecided:
                exact, ball = self.ref._exact_or_ball(index)
                o = Fraction(*float(out[index]).as_integer_ratio())
                if exact is not None:
                    if abs(o - exact) > tol_a + tol_r * abs(exact):
                        return False
                    continue
                if ball is None:  # float64 bounds only: compute the ball
                    still.append(index)
                    continue
                head, i, _ = self.ref._head_index(index)
                with _precision(head.prec[i] + 16):
                    ob = flint.arb(flint.fmpq(o.numerator, o.denominator))
                    err = abs(ob - ball)
                    tol = flint.arb(flint.fmpq(tol_a.numerator, tol_a.denominator)) + flint.arb(
                        flint.fmpq(tol_r.numerator, tol_r.denominator)
                    ) * abs(ball)
                    if err > tol:
                        return False
                    if not err <= tol:
                        still.append(index)
            if not still:
                return True
            self.ref._refine(still)


def _check_tolerance(atol: float, rtol: float) -> None:
    if not (math.isfinite(atol) and math.isfinite(rtol) and atol >= 0 and rtol >= 0):
        raise InputError(f"atol and rtol must be finite and >= 0, not atol={atol}, rtol={rtol}")


def _tolerance_above(lower: Any, upper: Any, atol: float, rtol: float) -> Any:
    """float64 bounds from above of ``atol + rtol·|true|`` for true values in [lower, upper]."""
    numpy = _numpy()
    true_hi = numpy.nextafter(numpy.maximum(numpy.abs(lower), numpy.abs(upper)), numpy.inf)
    return numpy.nextafter(atol + numpy.nextafter(rtol * true_hi, numpy.inf), numpy.inf)


def _float_down(point: flint.arb) -> float:
    """A float <= ``point`` (an exact arb)."""
    value = float(point)
    return math.nextafter(value, -math.inf) if flint.arb(value) > point else value


def _float_up(point: flint.arb) -> float:
    value = float(point)
    return math.nextafter(value, math.inf) if flint.arb(value) < point else value


def _arb_errors(ref: Reference, out: Any) -> tuple[Any, Any]:
    """float64 arrays: lower bounds of |out - true| and upper bounds of |true|, from the arb balls."""
    numpy = _numpy()
    ref._ensure_balls()
    abs_err, true_hi = numpy.zeros(ref.shape), numpy.zeros(ref.shape)
    flat_err = abs_err.reshape(-1, *ref.shape[-2:])
    flat_hi = true_hi.reshape(-1, *ref.shape[-2:])
    flat_out = out.reshape(-1, *ref.shape[-2:])
    for h, head in enumerate(ref._heads):
        for i, row in enumerate(head.balls):
            with _precision(head.prec[i] + 64):
                for k, computed in enumerate(row):
                    exact = head.exact.get((i, k))
                    ball = (
                        computed
                        if exact is None
                        else flint.arb(flint.fmpq(exact.numerator, exact.denominator))
                    )
                    o = float(flat_out[h, i, k])
                    if math.isfinite(o):
                        flat_err[h, i, k] = max(0.0, _float_down((flint.arb(o) - ball).abs_lower()))
                    flat_hi[h, i, k] = _float_up(ball.abs_upper())
    return abs_err, true_hi


def _error_lower(out: Any, lower: Any, upper: Any) -> Any:
    """A float64 lower bound of |out - x| for every x in [lower, upper] (0 inside)."""
    numpy = _numpy()
    above = numpy.nextafter(out - upper, -numpy.inf)  # <= out - upper exactly
    below = numpy.nextafter(lower - out, -numpy.inf)
    return numpy.maximum(numpy.maximum(above, below), 0.0)


def compare(out: Any, *args: Any, **options: Any) -> ErrorReport:
    """A certified error report of a kernel's output against the true attention output.

    ``compare(out, ref)`` with a :class:`Reference`, or ``compare(out, Q, K,
    V, scale=..., causal=..., mask=...)`` (the arguments of :func:`reference`).

    Args:
        out: the kernel's output, a float16, float32, float64, bfloat16, float8_e4m3fn or
            float8_e5m2 array of the reference's shape (NaN and inf are measured as infinite
            errors); its ulps are those of its own format.

    Returns:
        An :class:`ErrorReport`; its errors are lower bounds of the true errors.

    Raises:
        ShapeError: out's shape is not the reference's.
        InputError: out's dtype is not float16, float32 or float64.
        The errors of :func:`reference` when Q, K, V are given.

    >>> import numpy as np
    >>> Q = np.eye(2, dtype=np.float32)
    >>> r = compare(np.array([[0.67, 0.33], [0.33, 0.67]], dtype=np.float32), Q, Q, Q)
    >>> round(r.max_abs_error, 6), r.worst_index
    (0.000238, (0, 0))
    """
    numpy = _numpy()
    if len(args) == 1 and isinstance(args[0], Reference) and not options:
        ref = args[0]
    elif len(args) == 3:
        ref = reference(*args, **options)
    else:
        raise InputError("compare takes (out, ref) or (out, Q, K, V, **options)")
    array = _as_array("out", out)
    _check_dtype("out", array, allow_int=False)
    if array.shape != ref.shape:
        raise ShapeError(
            f"out is {_shape(array)} but the reference output is {'×'.join(map(str, ref.shape))}"
        )
    fmt = _Format.of(array.dtype)
    wide = array.astype(numpy.float64)  # exact for every format read
    finite = numpy.isfinite(wide)
    if fmt.bits > 24:  # float64 errors are below what float64 bounds resolve: measure on the arb balls
        abs_err, true_hi = _arb_errors(ref, wide)
        abs_err = numpy.where(finite, abs_err, numpy.inf)
    else:
        lower, upper = ref._float_bounds()
        with numpy.errstate(over="ignore", invalid="ignore"):
            abs_err = numpy.where(
                finite, _error_lower(numpy.where(finite, wide, 0.0), lower, upper), numpy.inf
            )
            true_hi = numpy.nextafter(numpy.maximum(numpy.abs(lower), numpy.abs(upper)), numpy.inf)
    with numpy.errstate(over="ignore", invalid="ignore", divide="ignore"):
        rel = numpy.where(
            abs_err == 0, 0.0, numpy.nextafter(abs_err / numpy.where(true_hi == 0, 1.0, true_hi), -numpy.inf)
        )
        rel = numpy.where((true_hi == 0) & (abs_err > 0), numpy.inf, rel)
        exponent = numpy.clip(numpy.frexp(true_hi)[1] - 1, fmt.emin, fmt.emax)
        ulps = numpy.where(
            finite, numpy.nextafter(numpy.ldexp(abs_err, fmt.bits - 1 - exponent), -numpy.inf), numpy.inf
        )
    ulps = numpy.maximum(ulps, 0.0)
    rel = numpy.maximum(rel, 0.0)
    worst = numpy.unravel_index(int(numpy.argmax(abs_err)), array.shape)
    worst_ulps = numpy.unravel_index(int(numpy.argmax(ulps)), array.shape)
    return ErrorReport(
        max_abs_error=float(abs_err.max()),
        max_rel_error=float(rel.max()),
        max_ulps=float(ulps.max()),
        worst_index=tuple(int(x) for x in worst),
        worst_ulps_index=tuple(int(x) for x in worst_ulps),
        nonfinite=int((~finite).sum()),
        dtype=fmt.name,
        out=array,
        ref=ref,
    )
