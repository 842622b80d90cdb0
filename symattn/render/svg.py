"""Heatmaps as plain SVG: a matrix of certified decimals, each cell shaded on the viridis palette.

    Heatmap.of(cells, title=..., row_labels=..., col_labels=...) -> Heatmap
      .svg            the SVG text (well-formed XML, built with xml.etree)
      ._repr_html_()  Jupyter shows it inline; ._repr_svg_() the same text

The cells are decimal strings the caller computed (certified, from
:func:`symattn.importance.decimals`); this module never computes a value.  A
cell's colour is its position between the smallest and largest cell, read
exactly from the decimal text (``Fraction``), on viridis: a sequential palette
whose lightness rises steadily, so it reads in greyscale print and for the
common forms of colour blindness.  Text on a cell is white on the dark half of
the palette and black on the light half (the higher WCAG contrast of the two).

Why by hand: an SVG heatmap is a few dozen rectangles and text elements, and
xml.etree (standard library) does the escaping; matplotlib would add a large
dependency to the default install for that.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symattn.errors import InputError

__all__ = ["MAX_CELLS", "VIRIDIS", "Heatmap", "colour", "comparison_heatmap", "shades", "side_by_side"]

#: viridis at ten evenly spaced points (matplotlib's colour map, as R's viridisLite lists it).
VIRIDIS = (
    "#440154",
    "#482878",
    "#3e4a89",
    "#31688e",
    "#26828e",
    "#1f9e89",
    "#35b779",
    "#6dcd59",
    "#b4de2c",
    "#fde725",
)
#: The most cells one heatmap draws (bounds the SVG's size).
MAX_CELLS = 4096
#: Colour of a cell that is not a decimal (such as "-inf" for a masked score).
NO_VALUE = "#bdbdbd"

_SVG_NS = "http://www.w3.org/2000/svg"
_FONT = "font-family:ui-monospace,Menlo,Consolas,monospace"
_CHAR = 7.5  # width of one monospace character at 12px, rounded up
_CELL_H = 28
_PAD = 8
# characters XML 1.0 cannot hold: replaced so that any label gives well-formed XML
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _channels(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def colour(position: Fraction) -> str:
    """The viridis colour at ``position`` in [0, 1], interpolated between the ten stops.

    >>> colour(Fraction(0)), colour(Fraction(1)), colour(Fraction(1, 18))
    ('#440154', '#fde725', '#461466')
    """
    position = min(max(position, Fraction(0)), Fraction(1))
    scaled = position * (len(VIRIDIS) - 1)
    index = min(int(scaled), len(VIRIDIS) - 2)
    within = scaled - index
    low, high = _channels(VIRIDIS[index]), _channels(VIRIDIS[index + 1])
    mixed = (round(p + (q - p) * within) for p, q in zip(low, high, strict=True))
    return "#" + "".join(f"{channel:02x}" for channel in mixed)


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance (display only: it picks black or white text)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in _channels(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_colour(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (WCAG contrast ratio).

    >>> text_colour("#440154"), text_colour("#fde725")
    ('#ffffff', '#000000')
    """
    lum = _luminance(background)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def _value(text: str) -> Fraction | None:
    try:
        return Fraction(text)
    except ValueError:
        return None


#: An entry symbol written with its indices, ``a_ij``: drawn with subscripts, ``aᵢⱼ``.
ENTRY_SYMBOL = re.compile(r"\b([A-Za-z])_([ij]{1,2})\b")
_SUBSCRIPT = {"i": "\u1d62", "j": "\u2c7c"}


def subscripted(text: str) -> str:
    """``weight a_ij`` as a picture shows it: ``weight aᵢⱼ``."""
    return ENTRY_SYMBOL.sub(lambda m: m[1] + "".join(_SUBSCRIPT[c] for c in m[2]), text)


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


def _root(width: int, height: int, title: str) -> ET.Element:
    """An ``<svg>`` element of that size, titled for screen readers (``aria-label``, ``<title>``)."""
    svg = ET.Element(
        "svg",
        {
            "xmlns": _SVG_NS,
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "role": "img",
            "aria-label": _clean(title),
        },
    )
    ET.SubElement(svg, "title").text = _clean(title)
    return svg


def shades(cells: Sequence[Sequence[str]]) -> list[list[tuple[str, str]]]:
    """(fill, ink) of each cell: its viridis colour, from the smallest (dark) to the largest (light)
    cell, read exactly from the decimal text, and the text colour that contrasts more with it.

    A cell that is not a decimal ("-inf") is grey.  Used by the SVG heatmaps and by the LaTeX
    writer's shaded tables, so both show the same colours.

    >>> shades([["0.25", "0.75"]])
    [[('#440154', '#ffffff'), ('#fde725', '#000000')]]
    """
    values = [[_value(str(text)) for text in row] for row in cells]
    known = [v for row in values for v in row if v is not None]
    low, high = (min(known), max(known)) if known else (Fraction(0), Fraction(0))
    out = []
    for row in values:
        line = []
        for value in row:
            if value is None:
                fill = NO_VALUE
            else:
                fill = colour(Fraction(1, 2) if high == low else (value - low) / (high - low))
            line.append((fill, text_colour(fill)))
        out.append(line)
    return out


@dataclass(frozen=True)
class Heatmap:
    """An SVG heatmap; ``svg`` is the document's text."""

    svg: str
    title: str

    @classmethod
    def of(
        cls,
        cells: Sequence[Sequence[str]],
        *,
        title: str,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        row_axis: str = "output i",
        col_axis: str = "token j",
        notes: Sequence[Sequence[str]] | None = None,
        marked: Sequence[Sequence[bool]] | None = None,
    ) -> Heatmap:
        """Draw ``cells`` (rows of decimal strings), each shaded by its value.

        Args:
            cells: the decimals, shaded from the smallest (dark) to the largest (light).
            title: the heading (also the SVG's accessible name).
            row_labels, col_labels: token labels (default 1, 2, ...).
            row_axis, col_axis: what the rows and the columns are.
            notes: a second, smaller line per cell (such as the claimed value).
            marked: cells drawn with a thick dashed outline (such as wrong claims):
                a shape, not a colour, so it survives greyscale and colour blindness.

        Raises:
            InputError: no cells, ragged rows, labels or notes of the wrong
                shape, or more than :data:`MAX_CELLS` cells.

        >>> map_ = Heatmap.of([["0.25", "0.75"]], title="weights")
        >>> map_.svg.startswith("<svg") and map_.svg.count("<rect") == 2 + 10
        True
        """
        rows = [list(map(str, row)) for row in cells]
        if not rows or not rows[0]:
            raise InputError(f"heatmap {title!r}: no cells to draw")
        n_rows, n_cols = len(rows), len(rows[0])
        if any(len(row) != n_cols for row in rows):
            raise InputError(f"heatmap {title!r}: the rows have different lengths")
        if n_rows * n_cols > MAX_CELLS:
            raise InputError(
                f"heatmap {title!r}: {n_rows}×{n_cols} is {n_rows * n_cols} cells, more than {MAX_CELLS}"
            )
        rows_shown = [str(k + 1) for k in range(n_rows)] if row_labels is None else list(map(str, row_labels))
        cols_shown = [str(k + 1) for k in range(n_cols)] if col_labels is None else list(map(str, col_labels))
        if len(rows_shown) != n_rows or len(cols_shown) != n_cols:
            raise InputError(
                f"heatmap {title!r}: {len(rows_shown)} row labels and {len(cols_shown)} column labels "
                f"for {n_rows}×{n_cols} cells"
            )
        for what, extra in (("notes", notes), ("marked", marked)):
            if extra is not None and [len(row) for row in extra] != [n_cols] * n_rows:
                raise InputError(f"heatmap {title!r}: {what} do not have the cells' shape {n_rows}×{n_cols}")
        values = [[_value(text) for text in row] for row in rows]
        known = [v for row in values for v in row if v is not None]
        low, high = (min(known), max(known)) if known else (Fraction(0), Fraction(0))
        colours = shades(rows)

        longest = max(len(t) for row in [*rows, *(notes or [])] for t in row)
        cell_w = max(44, int(_CHAR * longest) + 2 * _PAD)
        cell_h = _CELL_H + (14 if notes is not None else 0)
        label_w = int(_CHAR * max(len(row_axis), *(len(t) for t in rows_shown))) + 2 * _PAD
        top = 2 * _CELL_H + _PAD
        grid_w, grid_h = n_cols * cell_w, n_rows * cell_h
        bar_y = top + grid_h + _PAD
        width = max(label_w + grid_w + _PAD, int(_CHAR * len(title)) + 2 * _PAD, label_w + 260)
        height = bar_y + 44

        svg = _root(width, height, subscripted(title))
        _text(svg, _PAD, 18, subscripted(title), anchor="start", weight="bold")
        _text(svg, _PAD, top - _PAD, row_axis, anchor="start")
        _text(svg, label_w + grid_w / 2, top - _CELL_H - 2, col_axis)
        for j, label in enumerate(cols_shown):
            _text(svg, label_w + j * cell_w + cell_w / 2, top - _PAD, label)
        for i, (label, row) in enumerate(zip(rows_shown, rows, strict=True)):
            y = top + i * cell_h
            _text(svg, label_w - _PAD, y + cell_h / 2 + 4, label, anchor="end")
            for j, text in enumerate(row):
                fill, ink = colours[i][j]
                x = label_w + j * cell_w
                rect = {"x": str(x), "y": str(y), "width": str(cell_w), "height": str(cell_h)}
                ET.SubElement(svg, "rect", {**rect, "fill": fill, "stroke": "#ffffff", "class": "cell"})
                _text(svg, x + cell_w / 2, y + _CELL_H / 2 + 4, text, fill=ink, role="cell")
                if notes is not None:
                    _text(
                        svg, x + cell_w / 2, y + _CELL_H / 2 + 18, notes[i][j], fill=ink, role="note", size=10
                    )
                if marked is not None and marked[i][j]:
                    box = {
                        "x": str(x + 2),
                        "y": str(y + 2),
                        "width": str(cell_w - 4),
                        "height": str(cell_h - 4),
                    }
                    style = {"fill": "none", "stroke": ink, "stroke-width": "3", "stroke-dasharray": "5 3"}
                    ET.SubElement(svg, "rect", {**box, **style, "class": "marked"})
        _colour_bar(svg, label_w, bar_y, _decimal_text(low, rows), _decimal_text(high, rows))
        return cls(ET.tostring(svg, encoding="unicode"), title)

    def _repr_html_(self) -> str:
        """Jupyter: the SVG inline (HTML5 reads inline SVG)."""
        return self.svg

    def _repr_svg_(self) -> str:
        return self.svg


def side_by_side(maps: Sequence[Heatmap], *, title: str, gap: int = 16) -> Heatmap:
    """Several heatmaps in one SVG, left to right under one title (each keeps its own colour scale).

    Raises:
        InputError: no heatmaps.

    >>> both = side_by_side([Heatmap.of([["1"]], title="a"), Heatmap.of([["2"]], title="b")], title="a, b")
    >>> both.svg.count("<svg"), ET.fromstring(both.svg).get("aria-label")
    (3, 'a, b')
    """
    if not maps:
        raise InputError(f"picture {title!r}: no heatmaps to place")
    top = 2 * _PAD + 18
    parts, x, height = [], _PAD, 0
    for picture in maps:
        inner = ET.fromstring(picture.svg)
        for element in inner.iter():  # plain names: the outer svg declares the namespace once
            element.tag = element.tag.rpartition("}")[2]
        w, h = int(inner.get("width")), int(inner.get("height"))
        inner.set("x", str(x))
        inner.set("y", str(top))
        parts.append(inner)
        x += w + gap
        height = max(height, h)
    width = max(x - gap + _PAD, int(_CHAR * len(title)) + 2 * _PAD)
    height += top + _PAD
    svg = _root(width, height, title)
    _text(svg, _PAD, 18, title, anchor="start", weight="bold", size=14)
    for inner in parts:
        svg.append(inner)
    return Heatmap(ET.tostring(svg, encoding="unicode"), title)


def comparison_heatmap(comparison: Any, *, title: str | None = None) -> Heatmap:
    """Claimed against true: each cell shaded by its true value (certified), the claim below it,
    and a wrong claim outlined.

    Args:
        comparison: a :class:`symattn.pipeline.Comparison` (its cells carry the
            certified true decimal, the claimed text and the verdict).
        title: the heading (default: what was compared).

    >>> import symattn
    >>> att = symattn.attention([[1, 0], [0, 1], [1, 1]])
    >>> picture = comparison_heatmap(att.compare("weights", [["0.4", "0.2", "0.4"]] * 3))
    >>> picture.svg.count('class="marked"')  # row 2: two wrong; row 3: 0.4 twice (0.2 rounds right)
    4
    """
    cells = comparison.cells
    verdict = {"ok": "✓", "rounding": "✗ cut", "wrong": "✗", "carried": "✗ carried"}
    notes = [[f"claimed {c.claim.text} {verdict.get(c.kind, c.kind)}" for c in row] for row in cells]
    return Heatmap.of(
        [[c.decimal for c in row] for row in cells],
        title=title or f"{comparison.name}: true (certified) and claimed",
        notes=notes,
        marked=[[not c.ok for c in row] for row in cells],
    )


def _decimal_text(value: Fraction, rows: Sequence[Sequence[str]]) -> str:
    """The cell text that holds ``value`` (the legend repeats the cells' own decimals)."""
    for row in rows:
        for text in row:
            if _value(text) == value:
                return text
    return "—"


def _colour_bar(svg: ET.Element, x: int, y: int, low: str, high: str) -> None:
    """The palette from the smallest to the largest cell, with both ends labelled."""
    step = 24
    for k, stop in enumerate(VIRIDIS):
        ET.SubElement(
            svg,
            "rect",
            {"x": str(x + k * step), "y": str(y), "width": str(step), "height": "12", "fill": stop},
        )
    _text(svg, x, y + 28, low, anchor="start")
    _text(svg, x + len(VIRIDIS) * step, y + 28, high, anchor="end")


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    content: str,
    *,
    anchor: str = "middle",
    fill: str = "#000000",
    weight: str = "normal",
    role: str = "label",
    size: int = 12,
) -> None:
    element = ET.SubElement(
        parent,
        "text",
        {
            "x": f"{x:g}",
            "y": f"{y:g}",
            "text-anchor": anchor,
            "fill": fill,
            "style": f"{_FONT};font-size:{size}px;font-weight:{weight}",
            "class": role,
        },
    )
    element.text = _clean(content)
