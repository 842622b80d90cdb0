"""One table of limits: the bounds on precision, magnitude and size that symattn's modules share.

Every certified decimal is found by raising an arb ball's precision from
:data:`START_PREC` (plus the bits the places need) by doubling, up to
:data:`MAX_PREC`; :func:`precisions` is that schedule.  :mod:`symattn.exact`,
:mod:`symattn.numeric`, :mod:`symattn.block` and :mod:`symattn.oracle` import
these values from here (they were 2^15, 2^16 and 2^14 bits in three modules).
The verifier's smaller bound on exponentials of a document's printed numbers
(:data:`MAX_DOCUMENT_EXP_ARGUMENT`) lives here too: a document's exponent is
checked before anything is evaluated.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "MAX_DECIMAL_EXPONENT",
    "MAX_DOCUMENT_EXP_ARGUMENT",
    "MAX_EXP_ARGUMENT",
    "MAX_LITERAL_DIGITS",
    "MAX_MAGNITUDE_BITS",
    "MAX_NESTING",
    "MAX_POWER_BITS",
    "MAX_PREC",
    "MAX_TOKENS",
    "RELU_PREC",
    "START_PREC",
    "precisions",
]

#: Precision (bits) of the first ball, before the bits the printed places need.
START_PREC = 64
#: The most bits any certification tries; a rounding still undecided there raises UndecidedRoundingError.
MAX_PREC = 1 << 15
#: A ReLU's sign is decided by balls of up to this many bits; beyond, Max(0, h) stays exact (symattn.block).
RELU_PREC = 4096
#: exp(x) with x above this bound is refused before it is evaluated.
MAX_EXP_ARGUMENT = 2**64
#: In a document read by ``symattn verify``, exp(x) of its printed numbers with |x| above this is refused
#: (e^{e^{e^{10}}}): listed as unverifiable, never evaluated.
MAX_DOCUMENT_EXP_ARGUMENT = 10_000
#: A value whose magnitude exceeds 2**MAX_MAGNITUDE_BITS is not printed.
MAX_MAGNITUDE_BITS = 3_000
#: Largest exact integer power built from an input: |exponent| * log2|base| bits.
MAX_POWER_BITS = 3_000
#: Largest decimal exponent accepted in "1e5"-style literals.
MAX_DECIMAL_EXPONENT = 900
#: Most digits a number literal may have.
MAX_LITERAL_DIGITS = 900
#: Deepest nesting of parentheses and signs in an entry.
MAX_NESTING = 100
#: Entries longer than this many tokens are refused while tokenizing (bounds the parse's time).
MAX_TOKENS = 10_000


def precisions(places: int = 0, limit: int = MAX_PREC) -> Iterator[int]:
    """The precisions (bits) tried in turn to decide ``places`` decimal places: doubling up to ``limit``.

    >>> list(precisions(0, 512))
    [64, 128, 256, 512]
    """
    prec = START_PREC + int(places * 3.33)
    while prec <= limit:
        yield prec
        prec *= 2
