"""Spans of math found in a document, and where each of their characters came from.

Every reader turns the part of a document it understands into :class:`Span`
objects whose ``text`` is written in the one core grammar that
:mod:`symattn.latexparse` reads.  Numbers are copied verbatim, so a literal's
printed text is the document's own; the characters a reader writes itself
(``\\begin{bmatrix}`` for a Python list, ``\\sqrt{`` for ``√``) point at the
source character they stand for.  The map from span text to source is kept as
a few segments, not one integer per character, so a 10 MB formula costs a few
bytes of map.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

__all__ = ["Builder", "Locator", "Span"]


@dataclass(frozen=True)
class Span:
    """One formula: its core-grammar text and the source offset of each character.

    Attributes:
        text: the formula in the core grammar (LaTeX as :mod:`symattn.latexparse` reads it).
        display: display math (``$$``, environments, a code line) rather than inline.
        segments: ``(index, offset, linear)`` triples, sorted by ``index``: from
            ``text[index]`` on, characters map to ``offset + k`` (``linear``) or
            all to ``offset`` (text a reader wrote itself).
        reader: which reader found it (``latex``, ``code``, ``text``, ``tables``,
            ``images``), or ``scope`` for a marker where a new example may start.
        flags: how to judge its numbers: ``binary`` for a printout of binary
            floating point (float32), whose last digits may differ.
    """

    text: str
    display: bool
    segments: tuple[tuple[int, int, bool], ...] = ()
    reader: str = "latex"
    flags: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def verbatim(cls, text: str, start: int, display: bool, reader: str = "latex") -> Span:
        """A span whose text stands in the source as it is, from ``start``."""
        return cls(text, display, ((0, start, True),), reader)

    def source_offset(self, index: int) -> int:
        """The source offset of character ``index`` of the formula."""
        if not self.segments:
            return 0
        index = min(max(index, 0), max(len(self.text) - 1, 0))
        k = bisect.bisect_right(self.segments, (index, float("inf"), True)) - 1
        start, offset, linear = self.segments[max(k, 0)]
        return offset + (index - start if linear else 0)


class Builder:
    """Write a span's text piece by piece, remembering where each piece came from."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.segments: list[tuple[int, int, bool]] = []
        self.length = 0

    def copy(self, text: str, offset: int) -> Builder:
        """Append ``text``, which stands in the source at ``offset``."""
        if text:
            last = self.segments[-1] if self.segments else None
            if not (last and last[2] and last[1] + (self.length - last[0]) == offset):
                self.segments.append((self.length, offset, True))
            self.parts.append(text)
            self.length += len(text)
        return self

    def put(self, text: str, at: int) -> Builder:
        """Append ``text`` written by the reader; it points at source offset ``at``."""
        if text:
            self.segments.append((self.length, at, False))
            self.parts.append(text)
            self.length += len(text)
        return self

    def copy_span(self, span: Span, start: int, end: int) -> Builder:
        """Append ``span.text[start:end]`` keeping its map to the source."""
        bounds = [s[0] for s in span.segments] + [len(span.text)]
        for k, (index, offset, linear) in enumerate(span.segments):
            lo, hi = max(index, start), min(bounds[k + 1], end)
            if lo >= hi:
                continue
            piece = span.text[lo:hi]
            if linear:
                self.copy(piece, offset + lo - index)
            else:
                self.put(piece, offset)
        return self

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def build(self, display: bool, reader: str, flags: frozenset[str] = frozenset()) -> Span:
        return Span(self.text, display, tuple(self.segments), reader, flags)


class Locator:
    """Offsets to 1-based (line, column), columns counted in characters."""

    def __init__(self, source: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def position(self, offset: int) -> tuple[int, int]:
        """Return (line, column) of a source offset, both 1-based."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1
