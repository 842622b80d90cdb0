"""The small document model that every derivation is written in.

A derivation is a tuple of blocks: headings, paragraphs, display formulas,
bullet lists and tables.  A paragraph is a tuple of parts, each plain text
(:class:`Text`) or inline math (:class:`Math`).  The Markdown and LaTeX
writers only serialise these blocks; the words come from ``text_en`` /
``text_zh`` and the formulas from ``mathtex``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "Block",
    "Bullets",
    "Display",
    "Heading",
    "Math",
    "Panel",
    "Paragraph",
    "Part",
    "Picture",
    "Strong",
    "Table",
    "Text",
    "fill",
]


@dataclass(frozen=True)
class Text:
    """Plain words (escaped by the writer)."""

    text: str


@dataclass(frozen=True)
class Strong:
    """Emphasised words, used to mark a wrong value."""

    text: str


@dataclass(frozen=True)
class Math:
    """Inline math, as LaTeX that KaTeX and amsmath both accept."""

    latex: str


Part = Text | Strong | Math


@dataclass(frozen=True)
class Heading:
    """A section heading; level 1 is the document title."""

    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """Running text mixing words and inline math."""

    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Display:
    """One display formula (several lines go in an ``aligned`` environment)."""

    latex: str


@dataclass(frozen=True)
class Bullets:
    """A bullet list of paragraphs."""

    items: tuple[Paragraph, ...]


@dataclass(frozen=True)
class Table:
    """A table of cells; each cell is a tuple of parts."""

    header: tuple[tuple[Part, ...], ...]
    rows: tuple[tuple[tuple[Part, ...], ...], ...]


@dataclass(frozen=True)
class Panel:
    """One heatmap of a picture: a matrix of certified decimals, each cell shaded by its value.

    ``notes`` is a second line per cell (a claimed value); ``marked`` outlines cells (wrong claims).
    """

    title: str
    cells: tuple[tuple[str, ...], ...]
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    row_axis: str
    col_axis: str
    notes: tuple[tuple[str, ...], ...] | None = None
    marked: tuple[tuple[bool, ...], ...] | None = None


@dataclass(frozen=True)
class Picture:
    """Heatmaps side by side: an SVG file next to a Markdown document, shaded tables in LaTeX.

    ``name`` is the file's part after the document's stem (``reference.en.importance.svg``);
    ``latex`` says whether the LaTeX writer shows the panels as shaded tables (a claims
    picture repeats the claims table, which LaTeX already has).
    """

    name: str
    caption: str
    panels: tuple[Panel, ...]
    latex: bool = True


Block = Heading | Paragraph | Display | Bullets | Table | Picture

_FIELD = re.compile(r"\{(\w+)\}")


def fill(template: str, **values: Part | Paragraph | str | int) -> Paragraph:
    """Fill ``{name}`` fields of a prose template with text or math parts.

    Args:
        template: words with ``{name}`` fields (no other braces).
        **values: a :class:`Math` / :class:`Text` / :class:`Strong` part, a
            :class:`Paragraph` (its parts are spliced in), or a str / int
            shown as plain text.

    Returns:
        The paragraph, with neighbouring text parts merged.

    Raises:
        KeyError: a field has no value (a bug in a template, not user input).

    >>> fill("the row {i} sums to {one}", i=3, one=Math("1"))
    Paragraph(parts=(Text(text='the row 3 sums to '), Math(latex='1')))
    """
    parts: list[Part] = []
    position = 0
    for match in _FIELD.finditer(template):
        parts.append(Text(template[position : match.start()]))
        value = values[match.group(1)]
        if isinstance(value, Paragraph):
            parts.extend(value.parts)
        else:
            parts.append(value if isinstance(value, (Text, Strong, Math)) else Text(str(value)))
        position = match.end()
    parts.append(Text(template[position:]))
    return Paragraph(_merge(parts))


def _merge(parts: list[Part]) -> tuple[Part, ...]:
    """Drop empty text and join adjacent text parts."""
    merged: list[Part] = []
    for part in parts:
        if isinstance(part, Text):
            if not part.text:
                continue
            if merged and isinstance(merged[-1], Text):
                merged[-1] = Text(merged[-1].text + part.text)
                continue
        merged.append(part)
    return tuple(merged)
