"""What a document may hold to be read: counted on its text before any library sees it.

markdown-it-py, the LaTeX reader and the plain-text scanners are linear or close to
it, but in Python: a few microseconds for each markup character, line or table
cell, and far more for some (each ``[`` starts markdown-it's link-label parser: one
line of 10^6 ``[`` took 21 s).  No reader can be interrupted without a signal or a
process, so every document is measured first, with C-speed counts
(``str.count``, and one step per line for at most
:data:`~symattn.limits.MAX_READ_LINES` lines), against the reading limits of
:mod:`symattn.limits`.  A document over one is not read at all: :func:`check`
raises :class:`ReadingLimit`, which :func:`symattn.verify.verify_text` turns into
one ``skipped`` finding naming the limit (exit 0: a large document is not bad
input).

The limits are far above what real documents use and low enough that reading a
document within all of them takes a few seconds at most (benchmarks/adversarial.py).
"""

from __future__ import annotations

import itertools
import re

from symattn import limits
from symattn.verify.finding import Finding
from symattn.verify.readers.span import Locator

__all__ = ["MARKUP", "ReadingLimit", "check"]

#: The characters at which markdown-it-py's inline parser stops its text rule to try
#: every inline rule (its ``_DEFAULT_TERMINATORS`` without the newline; lines are
#: counted on their own).
MARKUP = "!#$%&*+-:<=>@[\\]^_`{}~"

_MARKUP = re.compile("[" + re.escape(MARKUP) + "]")
#: A formula that prints a number: an opener, then a digit within 64 characters, before the next ``$`` or line end
#: (an estimate, linear: each match looks at most 64 characters ahead).
_NUMBERED_FORMULA = re.compile(r"(?:\${1,2}|\\[(\[]|\\begin\{)[^$\n]{0,64}?\d")


class ReadingLimit(Exception):
    """A document over a reading limit: ``offset`` is where the limit is passed
    (the first character beyond it), ``reason`` names the limit."""

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(reason)
        self.offset = offset
        self.reason = reason

    def finding(self, source: str) -> Finding:
        """The document's one finding: ``skipped`` at the place the limit is passed, naming it."""
        line, column = Locator(source).position(self.offset)
        return Finding(
            line=line,
            column=column,
            subject="",
            cell=None,
            claimed="",
            value=None,
            exact=None,
            status="unverified",
            kind="skipped",
            carried_from=None,
            reason=self.reason,
        )


def _refuse(offset: int, what: str, limit: int, name: str) -> ReadingLimit:
    return ReadingLimit(offset, f"not read: {what} {limit} (symattn.limits.{name})")


def _nth(source: str, char: str, n: int) -> int:
    """The offset of the ``n``-th ``char`` of ``source`` (it has more than ``n``)."""
    at = -1
    for _ in range(n):
        at = source.find(char, at + 1)
    return at


def check(source: str, *, tex: bool) -> None:
    """Raise :class:`ReadingLimit` when ``source`` is over a reading limit.

    Both notations: :data:`~symattn.limits.MAX_READ_LINES` lines and
    :data:`~symattn.limits.MAX_LINE_CHARS` characters on a line, markup characters
    (:data:`~symattn.limits.MAX_MARKUP_CHARACTERS`: in LaTeX they bound its formulas
    and macros) and formulas that print a number
    (:data:`~symattn.limits.MAX_FORMULAS`).  Markdown also:
    ``[`` (:data:`~symattn.limits.MAX_LINK_BRACKETS`), backticks
    (:data:`~symattn.limits.MAX_BACKTICKS`), ``|`` (:data:`~symattn.limits.MAX_TABLE_CELLS`), lines holding ``|``
    (:data:`~symattn.limits.MAX_TABLE_ROWS`), ``|`` on a line
    (:data:`~symattn.limits.MAX_LINE_PIPES`).  The work is a fixed number
    of passes over the text, each in C, and one Python step per line.  When several
    limits are passed, the one passed first in the document is named (its lines are
    looked at in order), except ``[`` and backticks, counted over the whole text first.

    >>> try:
    ...     check("[" * 20_000, tex=False)
    ... except ReadingLimit as refusal:
    ...     print(refusal.offset, refusal.reason)
    10000 not read: the document has more '[' than 10000 (symattn.limits.MAX_LINK_BRACKETS)
    """
    if not tex:
        for char, what, name in (
            ("[", "'['", "MAX_LINK_BRACKETS"),
            ("`", "backticks", "MAX_BACKTICKS"),
        ):
            limit = getattr(limits, name)
            if source.count(char) > limit:
                raise _refuse(
                    _nth(source, char, limit + 1), f"the document has more {what} than", limit, name
                )
    start, rows = 0, 0
    for _ in range(limits.MAX_READ_LINES):  # the first lines, one step each: the most specific limit first
        end = source.find("\n", start)
        end = len(source) if end < 0 else end
        if end - start > limits.MAX_LINE_CHARS:
            at = start + limits.MAX_LINE_CHARS
            raise _refuse(at, "a line has more characters than", limits.MAX_LINE_CHARS, "MAX_LINE_CHARS")
        if not tex and source.find("|", start, end) >= 0:
            rows += 1
            if rows > limits.MAX_TABLE_ROWS:
                raise _refuse(
                    start, "the document has more table rows than", limits.MAX_TABLE_ROWS, "MAX_TABLE_ROWS"
                )
            if source.count("|", start, end) > limits.MAX_LINE_PIPES:
                at = _nth(source[start:end], "|", limits.MAX_LINE_PIPES + 1) + start
                raise _refuse(at, "a line has more '|' than", limits.MAX_LINE_PIPES, "MAX_LINE_PIPES")
        if end == len(source):
            break
        start = end + 1
    else:
        raise _refuse(start, "the document has more lines than", limits.MAX_READ_LINES, "MAX_READ_LINES")
    if not tex and source.count("|") > limits.MAX_TABLE_CELLS:
        at = _nth(source, "|", limits.MAX_TABLE_CELLS + 1)
        raise _refuse(at, "the document has more '|' than", limits.MAX_TABLE_CELLS, "MAX_TABLE_CELLS")
    if sum(source.count(char) for char in MARKUP) > limits.MAX_MARKUP_CHARACTERS:
        match = next(itertools.islice(_MARKUP.finditer(source), limits.MAX_MARKUP_CHARACTERS, None))
        raise _refuse(
            match.start(),
            "the document has more markup characters than",
            limits.MAX_MARKUP_CHARACTERS,
            "MAX_MARKUP_CHARACTERS",
        )
    formulas = itertools.islice(_NUMBERED_FORMULA.finditer(source), limits.MAX_FORMULAS, None)
    beyond = next(formulas, None)
    if beyond is not None:
        raise _refuse(
            beyond.start(),
            "the document has more formulas with numbers than",
            limits.MAX_FORMULAS,
            "MAX_FORMULAS",
        )
