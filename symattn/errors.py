"""The one error family of symattn.

Every error a user can cause is a :class:`SymattnError`.  Each subclass is named
for what went wrong, and its message says what was expected and what arrived,
quoting the input, so that the CLI can print ``str(err)`` as a single line.

Messages start with the place (``file:line``, a matrix name, shapes) whenever
the raiser knows it.
"""

from __future__ import annotations

__all__ = [
    "DivisionByZeroError",
    "DocumentTooLargeError",
    "EmptyMatrixError",
    "FormulaTimeoutError",
    "FullyMaskedRowError",
    "InputError",
    "LatexParseError",
    "MaskError",
    "MatrixError",
    "MissingFileError",
    "NotExactError",
    "NotNumericError",
    "NotTextError",
    "RaggedMatrixError",
    "ShapeError",
    "SpecError",
    "SpecSyntaxError",
    "SymattnError",
    "UndecidedRoundingError",
    "UnknownKeyError",
    "UnknownTokenError",
    "ValueTooLargeError",
]


class SymattnError(Exception):
    """Base class: anything symattn reports to a user."""


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 row"``, ``"3 rows"``: a count with its noun, for messages.

    >>> counted(1, "row"), counted(3, "column"), counted(2, "entry", "entries")
    ('1 row', '3 columns', '2 entries')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


# --- numbers and strings -------------------------------------------------------


class InputError(SymattnError):
    """A value could not be read as an exact number or symbol."""


class UnknownTokenError(InputError):
    """A string contains something outside the entry grammar (it is never run)."""


class NotExactError(InputError):
    """A value is not exact or not finite (NaN, inf, a complex number, ...)."""


class ValueTooLargeError(InputError):
    """A value is too large to build or to evaluate (10^{10^{10}}, e^{e^{e^{10}}})."""


class DivisionByZeroError(InputError):
    """A division by zero, such as 1/0."""


# --- matrices -----------------------------------------------------------------


class MatrixError(SymattnError):
    """A matrix is malformed."""


class RaggedMatrixError(MatrixError):
    """The rows of a matrix have different lengths."""


class EmptyMatrixError(MatrixError):
    """A matrix has no rows or no columns."""


class ShapeError(MatrixError):
    """Two matrices do not fit together (inner dimensions, mask size, W_O, ...)."""


class MaskError(MatrixError):
    """A mask is not causal, additive (0 / -oo) or boolean."""


class FullyMaskedRowError(MaskError):
    """A mask removes every key of some query row, so its softmax is undefined."""


# --- numerics -----------------------------------------------------------------


class NotNumericError(SymattnError):
    """A decimal was asked of a value that has free symbols."""


class UndecidedRoundingError(SymattnError):
    """The enclosure could not decide a rounding within the precision limit."""


# --- files and specs ------------------------------------------------------------


class SpecError(SymattnError):
    """A TOML spec is well-formed TOML but not a valid attention spec."""


class SpecSyntaxError(SpecError):
    """A TOML spec is not valid TOML (the message names file:line)."""


class UnknownKeyError(SpecError):
    """A TOML spec has a key symattn does not know."""


class MissingFileError(SymattnError):
    """A file named on the command line or in the API does not exist."""


class NotTextError(SymattnError):
    """A file is not UTF-8 text."""


class DocumentTooLargeError(SymattnError):
    """A document is larger than the size symattn reads (``VerifyOptions.max_document_bytes``)."""


# --- LaTeX ----------------------------------------------------------------------


class LatexParseError(SymattnError):
    """A formula could not be parsed (unbalanced braces, unknown syntax, ...)."""


class FormulaTimeoutError(SymattnError):
    """Parsing or evaluating one formula took longer than its time limit."""
