"""Numbers in, certified decimals out.

This module is the only way values enter symattn (:func:`to_exact`,
:func:`to_matrix`) and the only way decimals leave it (:func:`certified_decimal`,
:func:`round_ball`).  Nothing here uses binary floating point on the exact
path: ``"0.1"`` is ``1/10``, and a Python float is read from its shortest
``repr``.  Strings are read by a small recursive-descent grammar; they are
never evaluated as code.

Rounding rule: **half away from zero** (0.25 -> 0.3, -0.25 -> -0.3 at one
place), decided exactly for ties.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import flint
import mpmath
import sympy
from sympy import Rational

from symattn.errors import (
    DivisionByZeroError,
    EmptyMatrixError,
    InputError,
    NotExactError,
    NotNumericError,
    RaggedMatrixError,
    UndecidedRoundingError,
    UnknownTokenError,
    ValueTooLargeError,
)
from symattn.limits import (  # the one table of limits (re-exported: exact.MAX_PREC, ...)
    MAX_DECIMAL_EXPONENT,
    MAX_EXP_ARGUMENT,
    MAX_LITERAL_DIGITS,
    MAX_MAGNITUDE_BITS,
    MAX_NESTING,
    MAX_POWER_BITS,
    MAX_PREC,
    MAX_TOKENS,
    START_PREC,
    precisions,
)
from symattn.rounding import round_half_away  # the one rule; importable from here too

__all__ = [
    "Claim",
    "Known",
    "certified_decimal",
    "claim_holds",
    "claim_kind",
    "enclose",
    "parse_claim",
    "round_ball",
    "round_half_away",
    "to_exact",
    "to_matrix",
]


_FUNCTIONS = {"sqrt": sympy.sqrt, "exp": sympy.exp, "log": sympy.log, "ln": sympy.log}
_CONSTANTS = {"e": sympy.E, "pi": sympy.pi}
_INFINITIES = {"oo", "inf", "infty", "infinity"}
_REFUSED_NAMES = {"nan", "NaN", "zoo", "I", "j"}

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
      | (?P<name>[A-Za-z][A-Za-z0-9]*(?:_(?:\{[A-Za-z0-9,]+\}|[A-Za-z0-9]+))?)
      | (?P<op>\*\*|[-+*/^(),])
    )""",
    re.VERBOSE,
)


# --- the string grammar ---------------------------------------------------------


def _tokenize(text: str, where: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    pos = 0
    text = text.replace("\u2212", "-")  # the Unicode minus sign
    end = len(text.rstrip())  # computed once: no copy of the rest per token (linear, not quadratic)
    while pos < end:
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            bad = text[pos : pos + 200].strip()[:20]
            raise UnknownTokenError(
                f"{where}: cannot read {text!r}: unexpected {bad!r} "
                "(expected numbers, names, + - * / ^ and sqrt/exp/log)"
            )
        kind = match.lastgroup
        assert kind is not None
        if len(tokens) == MAX_TOKENS:
            raise ValueTooLargeError(
                f"{where}: an entry of more than {MAX_TOKENS} tokens is too long to read ({len(text)} characters)"
            )
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    return tokens


class _Parser:
    """expr := term (('+'|'-') term)*;  term := unary (('*'|'/') unary)*;
    unary := ('+'|'-') unary | power;  power := atom (('^'|'**') unary)?;
    atom := number | name | func '(' expr ')' | '(' expr ')'."""

    def __init__(self, text: str, where: str, allow_infinite: bool) -> None:
        self.text = text
        self.where = where
        self.allow_infinite = allow_infinite
        self.depth = 0
        self.tokens = _tokenize(text, where)
        self.pos = 0

    def fail(self, what: str) -> InputError:
        return UnknownTokenError(f"{self.where}: cannot read {self.text!r}: {what}")

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        if self.pos >= len(self.tokens):
            raise self.fail("it ends too early")
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expect(self, value: str) -> None:
        _, got = self.take()
        if got != value:
            raise self.fail(f"expected {value!r} but found {got!r}")

    def parse(self) -> sympy.Expr:
        if not self.tokens:
            raise InputError(f"{self.where}: empty entry {self.text!r}")
        value = self.expr()
        if self.pos != len(self.tokens):
            raise self.fail(f"unexpected {self.tokens[self.pos][1]!r}")
        if value.is_number and value.is_extended_real is False:
            raise NotExactError(f"{self.where}: {self.text!r} is not a real number")
        return value

    def expr(self) -> sympy.Expr:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            right = self.term()
            value = value + right if op == "+" else value - right
        return value

    def term(self) -> sympy.Expr:
        value = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()[1]
            right = self.unary()
            if op == "*":
                value = value * right
            else:
                if right == 0:
                    raise DivisionByZeroError(f"{self.where}: division by zero in {self.text!r}")
                value = value / right
        return value

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise InputError(f"{self.where}: {self.text[:20]!r}... is nested too deeply")

    def unary(self) -> sympy.Expr:
        if self.peek() in ("+", "-"):
            op = self.take()[1]
            self.nest()
            operand = self.unary()
            return -operand if op == "-" else operand
        return self.power()

    def power(self) -> sympy.Expr:
        base = self.atom()
        if self.peek() in ("^", "**"):
            self.take()
            exponent = self.unary()
            return safe_power(base, exponent, self.where)
        return base

    def atom(self) -> sympy.Expr:
        kind, value = self.take()
        if kind == "number":
            return _decimal_text(value, self.where)
        if kind == "name":
            if value in _FUNCTIONS:
                self.expect("(")
                argument = self.expr()
                self.expect(")")
                return _apply_function(value, argument, self.where)
            if value in _CONSTANTS:
                return _CONSTANTS[value]
            if value in _REFUSED_NAMES:
                raise NotExactError(f"{self.where}: {self.text!r} is not a finite real number")
            if value in _INFINITIES:
                if not self.allow_infinite:
                    raise NotExactError(f"{self.where}: {self.text!r} is infinite; only masks may hold -inf")
                return sympy.oo
            return sympy.Symbol(value, real=True)
        if value == "(":
            self.nest()
            inner = self.expr()
            self.expect(")")
            return inner
        raise self.fail(f"unexpected {value!r}")


def _decimal_text(text: str, where: str) -> Rational:
    _, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > MAX_DECIMAL_EXPONENT:
        raise ValueTooLargeError(f"{where}: {text!r} has too large an exponent")
    if sum(char.isdigit() for char in text) > MAX_LITERAL_DIGITS:
        raise ValueTooLargeError(f"{where}: a number with more than {MAX_LITERAL_DIGITS} digits")
    fraction = Fraction(text)
    return Rational(fraction.numerator, fraction.denominator)


def _apply_function(name: str, argument: sympy.Expr, where: str) -> sympy.Expr:
    if name == "exp" and argument.is_number and argument.is_extended_real:
        bound = enclose(argument, 64) if argument.is_finite else None
        if bound is None or bound > MAX_EXP_ARGUMENT:
            raise ValueTooLargeError(f"{where}: exp({argument}) is too large to evaluate")
    if name in ("log", "ln") and argument == 0:
        raise DivisionByZeroError(f"{where}: log(0) is not finite")
    return _FUNCTIONS[name](argument)


def safe_power(base: sympy.Expr, exponent: sympy.Expr, where: str) -> sympy.Expr:
    """Return ``base**exponent``, refusing powers too large to build.

    Raises:
        ValueTooLargeError: e.g. ``10^(10^10)``.
        DivisionByZeroError: ``0`` to a negative power.
    """
    if base.is_number and exponent.is_number:
        if base == 0 and exponent.is_negative:
            raise DivisionByZeroError(f"{where}: 0 to the power {exponent} is a division by zero")
        if base.is_Rational and exponent.is_Rational and abs(base) not in (0, 1):
            size = max(abs(base.p), abs(base.q)).bit_length()
            if abs(exponent) * size > MAX_POWER_BITS:
                raise ValueTooLargeError(f"{where}: {base}^{exponent} is too large to build exactly")
        elif base.is_number and not base.is_Rational:
            magnitude = enclose(exponent, 64) if exponent.is_finite else None
            if magnitude is None or abs(magnitude) > MAX_POWER_BITS:
                raise ValueTooLargeError(f"{where}: ({base})^({exponent}) is too large")
    return sympy.Pow(base, exponent)


# --- values in ------------------------------------------------------------------


def to_exact(value: Any, *, where: str = "value", allow_infinite: bool = False) -> sympy.Expr:
    """Read one entry as an exact SymPy value.

    Args:
        value: an int, Fraction, Decimal, SymPy number/symbol/expression, a
            Python float (read from its shortest repr) or a string of the entry
            grammar ("3", "-1/2", "0.25", "1e-3", "sqrt(2)", "a", "x_{11}").
        where: the place named in error messages, e.g. ``"X[2,1]"``.
        allow_infinite: accept ``-inf``/``oo`` (masks only).

    Returns:
        An exact SymPy expression.

    Raises:
        UnknownTokenError: a string outside the grammar (it is never executed).
        NotExactError: NaN, infinities, booleans, complex numbers.
        ValueTooLargeError: powers too large to build.
        DivisionByZeroError: 1/0.

    >>> to_exact("0.1"), to_exact("-1/2"), to_exact("sqrt(8)")
    (1/10, -1/2, 2*sqrt(2))
    """
    if isinstance(value, bool):
        raise NotExactError(f"{where}: {value!r} is a boolean, not a number")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        if not math.isfinite(value):
            if allow_infinite and value == -math.inf:
                return -sympy.oo
            raise NotExactError(f"{where}: {value!r} is not a finite number")
        return _decimal_text(repr(value), where)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise NotExactError(f"{where}: {value!r} is not a finite number")
        return _decimal_text(str(value), where)
    if isinstance(value, str):
        return _Parser(value, where, allow_infinite).parse()
    if isinstance(value, sympy.Basic):
        return _check_sympy(value, where, allow_infinite)
    type_name = type(value).__name__
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return to_exact(value.item(), where=where, allow_infinite=allow_infinite)
    raise NotExactError(f"{where}: cannot read a {type_name} ({value!r}) as an exact number")


def _check_sympy(value: sympy.Basic, where: str, allow_infinite: bool) -> sympy.Expr:
    if isinstance(value, sympy.MatrixBase):
        raise NotExactError(f"{where}: expected one entry but got a matrix")
    if not isinstance(value, sympy.Expr):
        raise NotExactError(f"{where}: {value!r} is not an expression")
    if value.has(sympy.nan, sympy.zoo):
        raise NotExactError(f"{where}: {value} is not a finite number")
    if value.has(sympy.Float):
        floats = {f: _decimal_text(sympy.sstr(f, full_prec=False), where) for f in value.atoms(sympy.Float)}
        value = value.xreplace(floats)
    if value.is_number and value.has(sympy.oo, -sympy.oo):
        if allow_infinite and value == -sympy.oo:
            return value
        raise NotExactError(f"{where}: {value} is not a finite number")
    if value.is_number and value.is_extended_real is False:
        raise NotExactError(f"{where}: {value} is not a real number")
    return value


def _checked_rows(rows: Any, name: str) -> list:
    """The rows of a matrix argument as a list, checked for shape (ragged, empty)."""
    if isinstance(rows, sympy.MatrixBase):
        rows = rows.tolist()
    if hasattr(rows, "tolist") and not isinstance(rows, (list, tuple)):  # numpy
        rows = rows.tolist()
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__len__"):
        raise RaggedMatrixError(f"{name}: expected a list of rows but got {rows!r}")
    rows = list(rows)
    if not rows:
        raise EmptyMatrixError(f"{name} is empty (it has no rows)")
    for index, row in enumerate(rows, start=1):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise RaggedMatrixError(f"{name}: row {index} is {row!r}, not a list (write [[...], [...]])")
    lengths = [len(row) for row in rows]
    if lengths[0] == 0:
        raise EmptyMatrixError(f"{name} is empty (its rows have no entries)")
    for index, length in enumerate(lengths, start=1):
        if length != lengths[0]:
            raise RaggedMatrixError(
                f"{name}: row {index} has {length} {'entry' if length == 1 else 'entries'} but row 1 has {lengths[0]}"
            )
    return rows


#: A string entry read without the parser: an integer, a decimal or a fraction of integers
#: (the digits bounded as the parser bounds them).
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d{1,300}(?:\.\d{0,300})?|\.\d{1,300})(?:/\d{1,300})?")


#: Above this many bits, a common denominator costs more than reading entry by entry.
_COMMON_DENOMINATOR_BITS = 256


class IntegerRows:
    """A matrix of rationals read in bulk: integer numerators (row-major) over one common
    denominator.  Its python-flint forms (``fmpz``, ``fmpq``) and its int64 numpy form
    (``array``) are each made on first use, so a caller that needs only one of them pays
    for no other (python-flint builds a matrix from Python ints at about 0.15 µs an entry).
    """

    __slots__ = ("_array", "_fmpq", "_fmpz", "den", "numerators", "shape")

    def __init__(self, numerators: Any, den: int, shape: tuple[int, int]) -> None:
        self.numerators, self.den, self.shape = numerators, den, shape
        self._fmpz = self._fmpq = self._array = None

    def nrows(self) -> int:
        return self.shape[0]

    def ncols(self) -> int:
        return self.shape[1]

    def fmpz(self) -> flint.fmpz_mat:
        """The numerators as an fmpz_mat."""
        if self._fmpz is None:
            values = self.numerators
            values = values.ravel().tolist() if hasattr(values, "dtype") else values
            self._fmpz = flint.fmpz_mat(self.shape[0], self.shape[1], values)
        return self._fmpz

    def fmpq(self) -> flint.fmpq_mat:
        """The matrix as an fmpq_mat (every entry in lowest terms)."""
        if self._fmpq is None:
            self._fmpq = (
                flint.fmpq_mat(self.fmpz()) / self.den if self.den != 1 else flint.fmpq_mat(self.fmpz())
            )
        return self._fmpq

    def array(self, np) -> Any:
        """The numerators as an int64 numpy array (rows × cols), or None when one may reach 2^62."""
        if self._array is None:
            try:
                values = np.asarray(self.numerators).astype(np.int64, casting="safe")
            except (OverflowError, TypeError):
                values = None
            else:
                low, high = (int(values.min()), int(values.max())) if values.size else (0, 0)
                values = values.reshape(self.shape) if max(-low, high) < 1 << 62 else None  # no np.abs(-2^63)
            self._array = False if values is None else values
        return None if self._array is False else self._array


def integer_rows(rows: Any, *, name: str) -> IntegerRows | None:
    """Rows of ints and Fractions, or a 2-D numpy array of integers, as :class:`IntegerRows`
    (no python-flint or SymPy object per entry); None for anything else (then
    :func:`rational_matrix` or :func:`to_matrix` reads it) and when the common denominator
    would be wider than _COMMON_DENOMINATOR_BITS.

    Raises:
        RaggedMatrixError, EmptyMatrixError: malformed rows (as :func:`to_matrix`).
    """
    dtype = getattr(rows, "dtype", None)
    if dtype is not None:
        if getattr(dtype, "kind", "") not in ("i", "u") or getattr(rows, "ndim", 0) != 2 or not rows.size:
            return None  # floats, objects, booleans, other shapes: the other readers say what is wrong
        if dtype.kind == "u" and dtype.itemsize >= 8:
            return None  # uint64 may not fit int64: entry by entry
        import numpy  # the input is a numpy array: numpy is installed

        # a copy, as a plain ndarray: read later, the caller's array may have changed (or be an np.matrix)
        copied = numpy.array(rows, subok=False)
        return IntegerRows(copied, 1, (int(copied.shape[0]), int(copied.shape[1])))
    if isinstance(rows, (sympy.MatrixBase, flint.fmpq_mat, flint.fmpz_mat)):
        return None
    rows = _checked_rows(rows, name)
    flat = list(itertools.chain.from_iterable(rows))
    kinds = set(map(type, flat))
    if not kinds <= {int, Fraction}:
        return None
    if kinds == {int}:
        return IntegerRows(flat, 1, (len(rows), len(rows[0])))
    numerators, denominators = _numerators_denominators(flat, fractions_only=kinds == {Fraction})
    common = 1
    for den in set(denominators):  # stopped as soon as it is too wide: the work stays bounded
        common = math.lcm(common, den)
        if common.bit_length() > _COMMON_DENOMINATOR_BITS:
            return None
    if common != 1:
        numerators = [num * (common // den) for num, den in zip(numerators, denominators, strict=True)]
    return IntegerRows(numerators, common, (len(rows), len(rows[0])))


def _numerators_denominators(flat: list, *, fractions_only: bool) -> tuple[list[int], list[int]]:
    """Two lists of ints, with no Python call and no tuple per entry: Fraction's slots where
    every entry is a Fraction (its public properties are Python functions; the tuples of
    ``as_integer_ratio`` are objects the garbage collector tracks, and 45,000 of them set off
    a full collection that tripled the first call's reading time), int's C getters otherwise."""
    if fractions_only:
        try:
            return [entry._numerator for entry in flat], [entry._denominator for entry in flat]
        except AttributeError:  # pragma: no cover - a Python whose Fraction has other slots
            pass
    return [entry.numerator for entry in flat], [entry.denominator for entry in flat]


def rational_matrix(rows: Any, *, name: str) -> flint.fmpq_mat | None:
    """A matrix of rational entries read in bulk into one python-flint ``fmpq_mat``, without
    SymPy: an ``fmpq_mat`` or ``fmpz_mat``; a numpy integer array; rows of ints, Fractions,
    numpy integers and plain number strings ("3", "-1/2", "0.25").  None when an entry needs
    :func:`to_exact` (a symbol, a root, a float, SymPy values); then read it with
    :func:`to_matrix`, which gives the same values.

    Raises:
        RaggedMatrixError, EmptyMatrixError: malformed rows (as :func:`to_matrix`).
    """
    if isinstance(rows, flint.fmpq_mat):
        if not rows.nrows() or not rows.ncols():
            raise EmptyMatrixError(f"{name} is empty")
        return rows
    if isinstance(rows, flint.fmpz_mat):
        return rational_matrix(flint.fmpq_mat(rows), name=name)
    if isinstance(rows, sympy.MatrixBase):
        return None  # already exact: read as it is
    dtype = getattr(rows, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "") not in ("i", "u"):
        return None  # numpy floats, objects, booleans: entry by entry
    rows = _checked_rows(rows, name)
    kinds = set(map(type, itertools.chain.from_iterable(rows)))
    if kinds == {int}:
        return flint.fmpq_mat(flint.fmpz_mat(rows))
    if kinds <= {int, Fraction}:
        common = integer_rows(rows, name=name)
        if common is not None:
            return common.fmpq()
    entries = []
    for row in rows:
        for entry in row:
            kind = type(entry)
            if kind is int:
                entries.append(entry)
            elif kind is Fraction:
                entries.append(flint.fmpq(entry.numerator, entry.denominator))
            elif kind is str and _PLAIN_NUMBER.fullmatch(entry):
                number, _, den = entry.partition("/")
                if den and int(den) == 0:
                    return None  # the parser says where the division by zero is
                value = Fraction(number) / Fraction(den or 1)
                entries.append(flint.fmpq(value.numerator, value.denominator))
            elif (
                isinstance(entry, bool)
                or not hasattr(entry, "dtype")
                or getattr(entry.dtype, "kind", "") not in "iu"
            ):
                return None
            else:
                entries.append(int(entry))  # a numpy integer
    return flint.fmpq_mat(len(rows), len(rows[0]), entries)


def to_matrix(rows: Any, *, name: str, allow_infinite: bool = False) -> sympy.ImmutableMatrix:
    """Read a matrix (list of rows, or a SymPy matrix) entry by entry.

    Args:
        rows: a sequence of equal-length sequences, or a SymPy matrix.
        name: the matrix's name, used in error messages.
        allow_infinite: accept ``-inf`` entries (masks only).

    Returns:
        An immutable SymPy matrix of exact entries.

    Raises:
        RaggedMatrixError: rows of different lengths.
        EmptyMatrixError: no rows or no columns.
        plus the errors of :func:`to_exact`, naming the entry ``name[i,j]``.

    >>> to_matrix([[1, "1/2"], [0, "0.5"]], name="X")
    Matrix([
    [1, 1/2],
    [0, 1/2]])
    """
    rows = _checked_rows(rows, name)
    if all(type(entry) is int for row in rows for entry in row):
        fast = _integer_matrix(rows, len(rows[0]))
        if fast is not None:
            return fast
    return sympy.ImmutableMatrix(
        [
            [
                to_exact(entry, where=f"{name}[{i},{j}]", allow_infinite=allow_infinite)
                for j, entry in enumerate(row, start=1)
            ]
            for i, row in enumerate(rows, start=1)
        ]
    )


def _integer_matrix(rows: list, cols: int) -> sympy.ImmutableMatrix | None:
    """A matrix of Python ints stored over ZZ directly (fast for n in the hundreds)."""
    from sympy.polys.matrices import DomainMatrix

    try:
        rep = DomainMatrix([[sympy.ZZ(v) for v in row] for row in rows], (len(rows), cols), sympy.ZZ)
        return sympy.ImmutableMatrix._fromrep(rep.to_sparse())
    except (AttributeError, TypeError):  # a SymPy without RepMatrix._fromrep
        return None


# --- enclosures -----------------------------------------------------------------


def _as_expr(value: Any) -> Any:
    """ints and Fractions as SymPy numbers (never through sympify)."""
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return Rational(value.numerator, value.denominator)
    return value


def enclose(expr: Any, prec: int) -> flint.arb:
    """A rigorous arb ball containing the value of a constant expression.

    Args:
        expr: a SymPy expression without free symbols (or an int/Rational).
        prec: working precision in bits.

    Returns:
        A ``flint.arb`` ball.

    Raises:
        NotNumericError: the expression has free symbols or an unknown function.
        ValueTooLargeError: an exponential of an astronomically large argument.
        NotExactError: a complex or infinite value.

    >>> round_ball(enclose(sympy.sqrt(2), 64), 10)
    '1.4142135624'
    """
    expr = _as_expr(expr)
    symbols = free_symbols(expr)
    if symbols:
        names = ", ".join(sorted(str(s) for s in symbols))
        raise NotNumericError(f"{_short(expr)} has free symbols ({names}) and no decimal value")
    return Enclosure(prec)(expr)


class Known(sympy.AtomicExpr):
    """A real number known by a rigorous enclosure only: a midpoint given as a decimal and a
    radius (a value the verifier's explanation computed in arb balls, handed to the SymPy
    readers as their world (b)).

    :func:`enclose` evaluates it to that ball, so every decision made on it is certified or
    left undecided, never guessed; ``evalf`` gives its midpoint.

    >>> x = Known("0.31591", "1e-30")
    >>> certified_decimal(2 * x, 3), x.is_positive
    ('0.632', True)
    """

    is_number = True
    is_real = True
    is_comparable = True

    def __new__(cls, mid: str, rad: str) -> Known:
        obj = sympy.AtomicExpr.__new__(cls)
        obj._mid, obj._rad = str(mid), str(rad)
        return obj

    def __getnewargs__(self) -> tuple[str, str]:
        return self._mid, self._rad

    def _hashable_content(self) -> tuple[str, str]:
        return self._mid, self._rad

    def ball(self) -> flint.arb:
        """The enclosure, at the current arb precision."""
        return flint.arb(self._mid, self._rad)

    def _sign(self) -> int | None:
        ball = self.ball()
        return 1 if ball > 0 else -1 if ball < 0 else None

    def _eval_is_positive(self) -> bool | None:
        sign = self._sign()
        return None if sign is None else sign > 0

    def _eval_is_negative(self) -> bool | None:
        sign = self._sign()
        return None if sign is None else sign < 0

    def _eval_is_zero(self) -> bool | None:
        return False if self._sign() is not None else None

    def _eval_evalf(self, prec: int) -> sympy.Float:
        return sympy.Float._new(mpmath.libmp.from_str(self._mid, prec, mpmath.libmp.round_nearest), prec)

    def _sympystr(self, printer: Any) -> str:
        return f"{self._mid[:12]}..."


class Enclosure:
    """arb enclosures of constant SymPy expressions at one precision, memoised per node.

    Each node is evaluated once, so values whose entries share rows, roots and
    denominators (a layer's stages, a softmax row) cost their DAG's size rather
    than their tree's.  One instance per precision; :func:`enclose` makes a fresh one.
    """

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self._memo: dict[sympy.Basic, flint.arb] = {}

    def __call__(self, expr: sympy.Expr) -> flint.arb:
        old = flint.ctx.prec
        flint.ctx.prec = self.prec
        try:
            return self._ball(expr)
        finally:
            flint.ctx.prec = old

    def _ball(self, expr: sympy.Expr) -> flint.arb:
        found = self._memo.get(expr)
        if found is None:
            found = self._memo[expr] = self._evaluate(expr)
        return found

    def _evaluate(self, expr: sympy.Expr) -> flint.arb:
        if isinstance(expr, Known):
            return expr.ball()
        if expr.is_Integer:
            return flint.arb(int(expr))
        if expr.is_Rational:
            return flint.arb(flint.fmpq(int(expr.p), int(expr.q)))
        if expr is sympy.E:
            return flint.arb.const_e()
        if expr is sympy.pi:
            return flint.arb.pi()
        if expr.is_Symbol:
            raise NotNumericError(f"{expr} is a free symbol and has no decimal value")
        if expr.is_Add:
            total = flint.arb(0)
            for term in expr.args:
                total += self._ball(term)
            return total
        if expr.is_Mul:
            product = flint.arb(1)
            for factor in expr.args:
                product *= self._ball(factor)
            return product
        if expr.is_Pow:
            return self._power(expr)
        if isinstance(expr, sympy.exp):
            argument = self._ball(expr.args[0])
            if not argument.is_finite() or argument > MAX_EXP_ARGUMENT:
                raise ValueTooLargeError(f"{_short(expr)} is too large to evaluate")
            return argument.exp()
        if isinstance(expr, sympy.log):
            argument = self._ball(expr.args[0])
            if not argument > 0:
                raise NotExactError(f"{_short(expr)} is not a real number")
            return argument.log()
        if expr.func in _ARB_FUNCTIONS:  # the transformer block's sin, cos (positions), tanh, erf (GELU)
            return _ARB_FUNCTIONS[expr.func](self._ball(expr.args[0]))
        if isinstance(expr, sympy.Max):  # a ReLU whose sign no ball decided (symattn.block)
            ball = self._ball(expr.args[0])
            for argument in expr.args[1:]:
                ball = ball.max(self._ball(argument))
            return ball
        if expr in (sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise NotExactError(f"{expr} is not a finite number")
        raise NotNumericError(f"cannot evaluate {_short(expr)} numerically")

    def _power(self, expr: sympy.Expr) -> flint.arb:
        base, exponent = expr.args
        b = self._ball(base)
        if exponent.is_Integer:
            n = int(exponent)
            if b.contains(0):
                if n < 0:
                    raise DivisionByZeroError(f"{_short(expr)} divides by zero")
                # arb's power of a ball holding 0 is nan; |x^n| <= |b|^n bounds it instead
                top = b.abs_upper() ** n
                return flint.arb(0).union(top) if n % 2 == 0 else (-top).union(top)
            return b**n
        if exponent == sympy.S.Half:
            return b.sqrt()
        if exponent == -sympy.S.Half:
            return b.rsqrt()
        if not b > 0:
            raise NotExactError(f"{_short(expr)} is not a real number")
        return b ** self._ball(exponent)


def free_symbols(expr: Any) -> set[sympy.Symbol]:
    """The free symbols of an expression, each shared node visited once (SymPy's
    ``free_symbols`` walks the tree, which for a layer's nested stages is exponential)."""
    if not isinstance(expr, sympy.Basic):
        return set()
    seen: set[sympy.Basic] = set()
    found: set[sympy.Symbol] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node.is_Symbol:
            found.add(node)
        elif node.args:
            stack.extend(node.args)
    return found


_ARB_FUNCTIONS = {
    sympy.sin: flint.arb.sin,
    sympy.cos: flint.arb.cos,
    sympy.tanh: flint.arb.tanh,
    sympy.erf: flint.arb.erf,
}


def _short(expr: sympy.Expr, limit: int = 60) -> str:
    text = sympy.sstr(expr)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- certified rounding ---------------------------------------------------------


def _to_fraction(ball: flint.arb) -> Fraction:
    """The exact value of an exact arb (a midpoint or a radius)."""
    man, exp = ball.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _endpoints(ball: flint.arb, places: int) -> tuple[Fraction, Fraction]:
    """The ball's exact endpoints times 10**places (mid and rad are exact;
    ``lower()``/``upper()`` would round at the context precision)."""
    mid, rad = _to_fraction(ball.mid()), _to_fraction(ball.rad())
    return (mid - rad) * 10**places, (mid + rad) * 10**places


_round_half_away = round_half_away


def _format_scaled(units: int, places: int) -> str:
    """``units`` · 10^-places as text with exactly ``places`` digits after the point."""
    sign = "-" if units < 0 else ""
    digits = str(abs(units)).rjust(places + 1, "0")
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


@dataclass(frozen=True)
class Rounder:
    """Certified rounding of arb balls to a fixed number of places, half away from zero.

    The same rule as :func:`round_half_away`, decided on the ball: round(x) =
    floor(x · 10^p + 1/2) for x > 0 (and −round(−x) below 0), printed only
    when every point of the ball gives the same integer.  Its constants are
    made once, so the fast path (:mod:`symattn.numeric`) rounds whole rows with it.
    """

    places: int
    scale: flint.arb  # 10**places
    half: flint.arb

    @classmethod
    def make(cls, places: int) -> Rounder:
        return cls(places, flint.arb(10) ** places, flint.arb(1) / 2)

    def units(self, ball: flint.arb) -> int | None:
        """round(x · 10^places) for every x in ``ball``, or None when the ball straddles a boundary."""
        scaled = ball * self.scale
        if scaled.abs_upper() < self.half:
            return 0
        if scaled > 0:
            return self.floor(scaled + self.half)
        if scaled < 0:
            floor = self.floor(self.half - scaled)
            return None if floor is None else -floor
        return None

    @staticmethod
    def floor(ball: flint.arb) -> int | None:
        """floor(x), if it is the same integer for every x in ``ball``."""
        floor = ball.floor()
        return int(floor.unique_fmpz()) if floor.is_exact() else None

    def text(self, units: int) -> str:
        return _format_scaled(units, self.places)

    def decide(self, ball: flint.arb) -> str | None:
        units = self.units(ball)
        return None if units is None else self.text(units)


def _magnitude_check(ball: flint.arb) -> None:
    if not ball.is_finite():
        raise ValueTooLargeError("the value is too large to evaluate")
    upper = ball.abs_upper()
    if upper > flint.arb(2) ** MAX_MAGNITUDE_BITS:
        man, exp = upper.mid().man_exp()
        digits = int((int(exp) + int(man).bit_length()) * 0.30103)
        raise ValueTooLargeError(f"the value is too large to print (about 10^{digits})")


def round_ball(ball: flint.arb, places: int) -> str | None:
    """Round every point of ``ball`` to ``places`` digits, if they agree.

    Args:
        ball: an arb enclosure of the true value.
        places: digits after the decimal point (0 or more).

    Returns:
        The decimal string (half away from zero), or None when the ball
        straddles a rounding boundary and more precision is needed.

    Raises:
        ValueTooLargeError: the ball is not finite or astronomically large.

    >>> round_ball(flint.arb(1) / 3, 4)
    '0.3333'
    """
    _magnitude_check(ball)
    # the ball's own precision (plus the bits of 10^places), so scaling it loses nothing that matters
    old = flint.ctx.prec
    flint.ctx.prec = max(old, START_PREC + _ball_bits(ball) + int(places * 3.33))
    try:
        return Rounder.make(places).decide(ball)
    finally:
        flint.ctx.prec = old


def _ball_bits(ball: flint.arb) -> int:
    """The bits of the ball's midpoint (its mantissa's length)."""
    return int(ball.mid().man_exp()[0]).bit_length()


def certified_decimal(expr: Any, places: int) -> str:
    """The decimal of an exact value, every printed digit guaranteed.

    Args:
        expr: an exact constant (SymPy expression, int or Rational).  ``-oo``
            gives ``"-inf"``.
        places: digits after the decimal point.

    Returns:
        The value rounded half away from zero to ``places`` digits.

    Raises:
        NotNumericError: the value has free symbols.
        ValueTooLargeError: the value is too large to evaluate or print.
        UndecidedRoundingError: the enclosure could not decide the rounding.

    >>> certified_decimal(sympy.Rational(1, 4), 1), certified_decimal(sympy.sqrt(2), 6)
    ('0.3', '1.414214')
    """
    expr = _as_expr(expr)
    if expr == -sympy.oo:
        return "-inf"
    if expr.is_Rational:
        if int(expr.p).bit_length() - int(expr.q).bit_length() > MAX_MAGNITUDE_BITS:
            raise ValueTooLargeError(
                f"the value is too large to print (about 10^{len(str(int(expr.q)))} or more)"
            )
        return _format_scaled(round_half_away(Fraction(int(expr.p), int(expr.q)) * 10**places), places)
    for prec in precisions(places):
        text = round_ball(enclose(expr, prec), places)
        if text is not None:
            return text
    expanded = sympy.expand(expr)
    if expanded.is_Rational:
        return certified_decimal(expanded, places)
    raise UndecidedRoundingError(
        f"cannot decide the rounding of {_short(expr)} to {places} places "
        f"within {MAX_PREC} bits (it may be exactly halfway)"
    )


# --- claims printed in documents ------------------------------------------------

_CLAIM = re.compile(r"^\s*([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?(\\?%|[KMB])?\s*$")
_SUFFIX_SCALE = {"K": 3, "M": 6, "B": 9}
_THOUSANDS = re.compile(r"(?<=\d)(?:\{,\}|,)(?=\d{3}(?!\d))")  # 22{,}026 and 22,026 are 22026


@dataclass(frozen=True)
class Claim:
    """A number as a document printed it.

    Attributes:
        text: the printed text, e.g. ``"0.40"``.
        value: its exact value, e.g. ``2/5``.
        places: digits after the point (``None`` for an integer, an exact claim).
        scale: the power of ten of a unit suffix (``4.91M``: 6, two places of
            millions); the claim is about ``value / 10**scale`` at ``places``.
    """

    text: str
    value: Rational
    places: int | None
    scale: int = 0

    def unit(self) -> Rational:
        """One unit of the claim's scale (1, or 10**6 for ``M``)."""
        return Rational(10) ** self.scale


def parse_claim(text: str) -> Claim:
    """Read a printed number: ``"0.4"`` claims one place, ``"3"`` an exact value.

    Raises:
        InputError: the text is not a plain decimal or integer.

    A percentage or a printout's scientific notation keeps its places:
    ``"73%"`` claims 0.73 at two places, ``"2.0980e-01"`` 0.2098 at five, and a
    unit suffix its places of the unit: ``"4.91M"`` is 4,910,000 at two places of millions.

    >>> parse_claim("0.40")
    Claim(text='0.40', value=2/5, places=2, scale=0)
    >>> parse_claim("73%").places, parse_claim("2.0980e-01").value
    (2, 1049/5000)
    """
    match = _CLAIM.match(_THOUSANDS.sub("", str(text).replace("\u2212", "-")))
    if match is None:
        raise InputError(f"{text!r} is not a printed decimal number")
    sign, whole, frac, exponent, percent = match.groups()
    places = len(frac) if frac is not None else None
    value = Rational(f"{sign}{whole}.{frac}") if frac is not None else Rational(f"{sign}{whole}")
    if percent in _SUFFIX_SCALE:  # 4.91M: 4.91 millions, at two places (of millions)
        if exponent:
            raise InputError(f"{text!r} is not a printed decimal number")
        scale = _SUFFIX_SCALE[percent]
        return Claim(str(text).strip(), value * Rational(10) ** scale, places or 0, scale)
    if exponent and len(exponent.lstrip("+-")) > 4:
        raise InputError(f"{text!r}: the exponent is too large (more than {MAX_DECIMAL_EXPONENT})")
    shift = (int(exponent) if exponent else 0) - (2 if percent else 0)
    if abs(shift) > MAX_DECIMAL_EXPONENT:
        raise InputError(f"{text!r}: the exponent is too large (more than {MAX_DECIMAL_EXPONENT})")
    if shift:  # 2.0980e-01 is 0.20980 (five places); 73% is 0.73 (two places)
        value *= Rational(10) ** shift
        if places is None and shift > 0:
            return Claim(str(text).strip(), value, None)  # 1e3 is 1000, exactly
        if (places or 0) - shift < 0:  # 1.2e+05: 1.2 at one place of 10^5
            return Claim(str(text).strip(), value, places or 0, shift)
        places = (places or 0) - shift
    return Claim(str(text).strip(), value, places)


def _as_claim(claimed: Claim | str | int) -> Claim:
    return claimed if isinstance(claimed, Claim) else parse_claim(str(claimed))


def _is_exactly(true_value: sympy.Expr, target: Rational) -> bool:
    difference = true_value - target
    if difference == 0:
        return True
    if difference.free_symbols:
        raise NotNumericError(f"{_short(true_value)} has free symbols and cannot be compared")
    ball = enclose(difference, 256)
    if not ball.contains(0):
        return False
    for form in (sympy.together(difference), sympy.expand(difference)):
        if form == 0:
            return True
    ball = enclose(difference, 4096)
    if not ball.contains(0):
        return False
    raise UndecidedRoundingError(f"cannot decide whether {_short(true_value)} equals {target}")


def claim_holds(claimed: Claim | str | int, true_value: Any) -> bool:
    """Whether a printed number is right about an exact value.

    An integer claims equality, except of an irrational value, which no integer
    equals: there an integer of two digits or more (``exp(9) = 8103``) claims the
    value rounded to the unit; a decimal with k places claims that the true value
    rounds (half away from zero) to it at k places.

    Raises:
        NotNumericError: the true value has free symbols.

    >>> claim_holds("0.4", sympy.Rational(401, 1000)), claim_holds("0.40", sympy.Rational(2, 5))
    (True, True)
    >>> claim_holds("8103", sympy.exp(9)), claim_holds("8103", sympy.Rational(81031, 10)), claim_holds("1", sympy.sqrt(2))
    (True, False, False)
    """
    claim = _as_claim(claimed)
    true_value = _as_expr(true_value)
    if claim.places is None:
        if abs(claim.value) >= 10 and not claim.scale and not true_value.is_Rational:
            return Rational(certified_decimal(true_value, 0)) == claim.value
        return _is_exactly(true_value, claim.value)
    if claim.scale:
        unit = claim.unit()
        return Rational(certified_decimal(true_value / unit, claim.places)) == claim.value / unit
    return Rational(certified_decimal(true_value, claim.places)) == claim.value


def truncated_decimal(expr: Any, places: int) -> str:
    """The value cut (toward zero) to ``places`` digits, certified."""
    expr = _as_expr(expr)
    if expr.is_Rational:
        scaled = Fraction(int(expr.p), int(expr.q)) * 10**places
        return _format_scaled(math.trunc(scaled), places)
    for prec in precisions(places):
        ball = enclose(expr, prec)
        _magnitude_check(ball)
        low, high = (math.trunc(end) for end in _endpoints(ball, places))
        if low == high:
            return _format_scaled(low, places)
    raise UndecidedRoundingError(f"cannot decide the truncation of {_short(expr)}")


def claim_kind(claimed: Claim | str | int, true_value: Any) -> str:
    """Classify a printed number against the true value.

    Returns:
        ``"ok"`` when :func:`claim_holds`; ``"rounding"`` when it is wrong but
        is the true value truncated toward zero at its printed places;
        otherwise ``"wrong"`` (also when the truncation cannot be decided: a
        value that is a multiple of the last place, such as 2 written as a sum
        of softmax terms).

    >>> claim_kind("0.197", sympy.Rational(19782, 100000))
    'rounding'
    """
    claim = _as_claim(claimed)
    if claim_holds(claim, true_value):
        return "ok"
    if claim.places is None:
        return "wrong"
    try:
        unit = claim.unit()
        truncated = Rational(truncated_decimal(_as_expr(true_value) / unit, claim.places)) * unit
    except UndecidedRoundingError:
        # the value is (as far as any precision tells) a multiple of the last place, e.g. exactly 2
        # written as a sum of softmax terms: the claim is wrong; whether it is that value cut is not known
        return "wrong"
    return "rounding" if truncated == claim.value else "wrong"
