"""Small HTML tables for Jupyter's rich display (``_repr_html_``).

Attention, MultiHead, Comparison and Report build their display from these
helpers.  Every cell is text the caller computed (certified decimals, shapes,
verdicts); this module only escapes and arranges it, and imports nothing heavy,
so the verifier's parent process can use it without SymPy.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["MAX_SHOWN", "matrix_table", "section", "table"]

MAX_SHOWN = 8
"""Rows and columns of a matrix shown in a display; the rest is elided with "…"."""

_STYLE = "border-collapse:collapse;margin:0.3em 0"
_CELL = "padding:0.1em 0.6em;text-align:right;font-family:monospace"
_MATH = "padding:0.1em 0.6em;text-align:left"


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    math: frozenset[int] = frozenset(),
) -> str:
    """An HTML table of text cells (escaped); the cells of the columns in ``math`` are LaTeX,
    written as ``$…$`` so that Jupyter's math typesetter renders them (escaped too: the
    typesetter reads the text, not the markup).

    >>> "<td" in table(["a"], [["<1>"]]) and "&lt;1&gt;" in table(["a"], [["<1>"]])
    True
    >>> "$x &lt; 1$" in table(["f"], [["x < 1"]], math=frozenset({0}))
    True
    """
    head = "".join(f"<th>{escape(h)}</th>" for h in header)

    def cell(index: int, text: object) -> str:
        if index in math:
            return f'<td style="{_MATH}">${escape(str(text))}$</td>'
        return f'<td style="{_CELL}">{escape(str(text))}</td>'

    body = "".join("<tr>" + "".join(cell(j, c) for j, c in enumerate(row)) + "</tr>" for row in rows)
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f'<table style="{_STYLE}">{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def matrix_table(
    name: str, rows: Sequence[Sequence[str]], labels: Sequence[str] | None = None, *, limit: int = MAX_SHOWN
) -> str:
    """A matrix of decimal strings, at most ``limit`` rows and columns, captioned with its shape.

    >>> "…" in matrix_table("A", [["1"] * 10], limit=2)
    True
    """
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0
    shown_cols = min(n_cols, limit)
    header = [""] + [str(j + 1) for j in range(shown_cols)] + (["…"] if n_cols > limit else [])
    body = []
    for i, row in enumerate(rows[:limit]):
        tag = labels[i] if labels else str(i + 1)
        body.append([tag, *row[:shown_cols], *(["…"] if n_cols > limit else [])])
    if n_rows > limit:
        body.append(["…"] * len(header))
    return table(header, body, caption=f"{name} ({n_rows}×{n_cols})")


def section(title: str, *parts: str) -> str:
    """A titled block of tables and paragraphs (``parts`` are HTML already)."""
    return f"<div><p><strong>{escape(title)}</strong></p>{''.join(parts)}</div>"
