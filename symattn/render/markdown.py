"""Write blocks as Markdown: ``$$...$$`` display and ``$...$`` inline math.

The math is the same LaTeX as in the .tex output; KaTeX (and so GitHub's
MathJax and MkDocs) accepts every formula.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symattn.render.blocks import (
    Block,
    Bullets,
    Display,
    Heading,
    Math,
    Paragraph,
    Part,
    Picture,
    Strong,
    Table,
)

__all__ = ["escape", "inline", "picture_file", "to_markdown"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>$|#])")


def escape(text: str) -> str:
    """Backslash-escape the characters Markdown would read as markup.

    >>> escape("x_1 * 2")
    'x\\\\_1 \\\\* 2'
    """
    return _SPECIAL.sub(r"\\\1", text)


def inline(parts: Sequence[Part], *, in_table: bool = False) -> str:
    """A paragraph's parts as one Markdown line.

    Args:
        parts: text, strong text and inline math.
        in_table: a table cell, where ``|`` inside math must be written ``\\vert``.

    >>> from symattn.render.blocks import Math, Strong, Text
    >>> inline([Text("so "), Math("a_{31}"), Text(" is "), Strong("wrong")])
    'so $a_{31}$ is **wrong**'
    """
    out = []
    for part in parts:
        if isinstance(part, Math):
            latex = part.latex.strip()
            if in_table:
                latex = latex.replace("|", r"\vert ")
            out.append(f"${latex}$")
        elif isinstance(part, Strong):
            out.append(f"**{escape(part.text)}**")
        else:
            out.append(escape(part.text))
    return "".join(out)


def picture_file(block: Picture, pictures: str) -> str:
    """The file name of a picture next to the document: ``reference.en`` + ``importance`` + ``.svg``."""
    return f"{pictures}.{block.name}.svg"


def _block(block: Block, pictures: str | None = None) -> str | None:
    if isinstance(block, Picture):
        if pictures is None:  # no file to point at: the picture is left out
            return None
        return f"![{escape(block.caption)}]({picture_file(block, pictures)})"
    if isinstance(block, Heading):
        return "#" * block.level + " " + escape(block.text)
    if isinstance(block, Paragraph):
        return inline(block.parts)
    if isinstance(block, Display):
        return f"$$\n{block.latex}\n$$"
    if isinstance(block, Bullets):
        return "\n".join("- " + inline(item.parts) for item in block.items)
    if isinstance(block, Table):
        lines = ["| " + " | ".join(inline(cell, in_table=True) for cell in block.header) + " |"]
        lines.append("|" + "---|" * len(block.header))
        lines += ["| " + " | ".join(inline(cell, in_table=True) for cell in row) + " |" for row in block.rows]
        return "\n".join(lines)
    raise TypeError(f"unknown block {type(block).__name__}")


def to_markdown(blocks: Sequence[Block], *, pictures: str | None = None) -> str:
    """The whole document as Markdown text, ending in one newline.

    Args:
        blocks: the composed derivation.
        pictures: the stem of the picture files next to the document (``reference.en``
            for ``reference.en.importance.svg``); None leaves the pictures out.

    >>> to_markdown([Heading(1, "T"), Display("x = 1")])
    '# T\\n\\n$$\\nx = 1\\n$$\\n'
    """
    texts = (_block(block, pictures) for block in blocks)
    return "\n\n".join(text for text in texts if text is not None) + "\n"
