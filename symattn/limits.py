"""One table of limits: the bounds on precision, magnitude and size that symattn's modules share.

Every certified decimal is found by raising an arb ball's precision from
:data:`START_PREC` (plus the bits the places need) by doubling, up to
:data:`MAX_PREC`; :func:`precisions` is that schedule.  :mod:`symattn.exact`,
:mod:`symattn.numeric`, :mod:`symattn.block` and :mod:`symattn.oracle` import
these values from here (they were 2^15, 2^16 and 2^14 bits in three modules).
The verifier's smaller bound on exponentials of a document's printed numbers
(:data:`MAX_DOCUMENT_EXP_ARGUMENT`) lives here too: a document's exponent is
checked before anything is evaluated.

The reading limits (:data:`MAX_READ_LINES` to :data:`MAX_MARKUP_CHARACTERS`) bound what
``symattn verify`` hands to markdown-it-py and to its own scanners: they are counted on the
text (C-speed ``str.count``) before any library sees it, and a document over one is not read
(:mod:`symattn.verify.readers.bounds`: one ``skipped`` finding naming the limit).  Each is
far above what real documents use (the largest in derivations/, docs/ and the test corpora:
596 lines, 7218 characters on a line, 88 table rows, 8 pipes on a line, 190 ``[``, 1332 backticks, about 20,000 markup
characters) and low enough that reading stays within a few seconds (benchmarks/adversarial.py).
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "MAX_ALIGNED_COLUMNS",
    "MAX_BACKTICKS",
    "MAX_DECIMAL_EXPONENT",
    "MAX_DOCUMENT_EXP_ARGUMENT",
    "MAX_EXP_ARGUMENT",
    "MAX_FORMULAS",
    "MAX_LINE_CHARS",
    "MAX_LINE_PIPES",
    "MAX_LINK_BRACKETS",
    "MAX_LITERAL_DIGITS",
    "MAX_MAGNITUDE_BITS",
    "MAX_MARKUP_CHARACTERS",
    "MAX_NESTING",
    "MAX_POWER_BITS",
    "MAX_PREC",
    "MAX_READ_LINES",
    "MAX_TABLE_CELLS",
    "MAX_TABLE_ROWS",
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

#: Lines a document may have to be read by verify (markdown-it's block rules and the text scanners work per line).
MAX_READ_LINES = 20_000
#: Characters on one line (the text scanners work character by character; 100,000 formulas `$x$` on a line are read).
MAX_LINE_CHARS = 400_000
#: Markdown lines holding a ``|`` (table rows) a document may have; also the most rows a table reader visits.
MAX_TABLE_ROWS = 5_000
#: ``|`` on one Markdown line (a table's columns: markdown-it makes a token per cell of every row).
MAX_LINE_PIPES = 1_000
#: ``|`` in a Markdown document (a token per table cell: 5,000 rows of 1,000 cells would be 5,000,000).
MAX_TABLE_CELLS = 50_000
#: Columns of a plain-text table aligned with spaces under a rule of dashes; a wider rule is not read as a table.
MAX_ALIGNED_COLUMNS = 100
#: ``[`` in a Markdown document (markdown-it's link-label parser scans ahead from each: 21 s for 10^6).
MAX_LINK_BRACKETS = 10_000
#: Backticks in a Markdown document (markdown-it looks for each code span's closing run).
MAX_BACKTICKS = 20_000
#: Formulas that print a number (an opener ``$``, ``\\(``, ``\\[``, ``\\begin{`` with a digit before the next ``$``).
MAX_FORMULAS = 20_000
#: Characters at which markdown-it's inline parser stops to try its rules (``\ $ _ { } < & *`` ...), per document
#: (Markdown or LaTeX: in LaTeX they bound the formulas and macros the reader finds).
MAX_MARKUP_CHARACTERS = 400_000


def precisions(places: int = 0, limit: int = MAX_PREC) -> Iterator[int]:
    """The precisions (bits) tried in turn to decide ``places`` decimal places: doubling up to ``limit``.

    >>> list(precisions(0, 512))
    [64, 128, 256, 512]
    """
    prec = START_PREC + int(places * 3.33)
    while prec <= limit:
        yield prec
        prec *= 2
