r"""Write blocks as LaTeX: a fragment to paste, or a standalone document.

English documents compile with pdflatex, Chinese ones with xelatex and ctex.
The packages are amsmath, amssymb and geometry, and xcolor with its ``table``
option (colortbl) for the shaded cells of pictures.  A fragment shades its
cells only when the document it is pasted into has loaded them: each cell's
colour is guarded by ``\ifdefined\rowcolors`` (xcolor with ``table``), so without it the
tables print unshaded and still compile.
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
    Panel,
    Paragraph,
    Part,
    Picture,
    Strong,
    Table,
)
from symattn.render.mathtex import escape_text, is_identifier, label

__all__ = ["PREAMBLES", "escape", "inline", "to_latex"]


_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")

PREAMBLES = {
    "en": (
        "\\documentclass{article}\n"
        "\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{amsmath,amssymb}\n"
        "\\usepackage[margin=2cm]{geometry}\n"
        "\\usepackage[table]{xcolor}\n"
    ),
    "zh": (
        "\\documentclass{ctexart}\n\\usepackage{amsmath,amssymb}\n\\usepackage[margin=2cm]{geometry}\n"
        "\\usepackage[table]{xcolor}\n"
    ),
}

_SECTIONS = {1: "section", 2: "subsection", 3: "subsubsection"}
#: Before a heading: a page break here, rather than the heading alone at the foot of a page,
#: when fewer than 8 lines are left (the conditional break of needspace, without the package,
#: so a fragment pastes into any document).
_KEEP_WITH_NEXT = "\\vskip 0pt plus 8\\baselineskip\\penalty-200\\vskip 0pt plus -8\\baselineskip\\relax\n"


def escape(text: str) -> str:
    """Escape LaTeX's special characters in running text.

    >>> escape("50% of x_1")
    '50\\\\% of x\\\\_1'
    >>> escape("derive --sections all")  # an option as typed, not an en dash
    'derive -{}-sections all'
    """
    return escape_text(text).replace("--", "-{}-")


def inline(parts: Sequence[Part]) -> str:
    """A paragraph's parts as LaTeX (math as ``\\(...\\)``).

    >>> from symattn.render.blocks import Math, Strong, Text
    >>> inline([Text("so "), Math("a_{31}")])
    'so \\\\(a_{31}\\\\)'
    """
    out = []
    for part in parts:
        if isinstance(part, Math):
            out.append(f"\\({part.latex}\\)")
        elif isinstance(part, Strong):
            out.append(f"\\textbf{{{escape(part.text)}}}")
        else:
            out.append(escape(part.text))
    return "".join(out)


#: Panels wider than this many columns are set in \scriptsize, so that 16 tokens fit the page.
_SMALL_FROM = 8


def _label(text: str) -> str:
    return f"\\({label(text)}\\)" if is_identifier(text) else escape(text)


def _title(text: str) -> str:
    """A panel's title as LaTeX: its entry symbol in math (``weight \\(a_{ij}\\)``), the rest escaped."""
    from symattn.render.svg import ENTRY_SYMBOL

    out, at = [], 0
    for match in ENTRY_SYMBOL.finditer(text):
        out.append(escape(text[at : match.start()]) + f"\\({match[1]}_{{{match[2]}}}\\)")
        at = match.end()
    return "".join(out) + escape(text[at:])


def _panel(panel: Panel) -> str:
    """One heatmap as a tabular whose cells are shaded on viridis (the SVG's colours)."""
    from symattn.render.svg import shades

    n_cols = len(panel.col_labels)
    lines = []
    if n_cols > _SMALL_FROM:
        lines.append("\\scriptsize\\setlength{\\tabcolsep}{2pt}")
    lines.append(f"\\begin{{tabular}}{{r|{'c' * n_cols}}}")
    lines.append(f"\\multicolumn{{{n_cols + 1}}}{{c}}{{\\textbf{{{_title(panel.title)}}}}} \\\\")
    lines.append(
        " & ".join([escape(panel.row_axis), *(_label(t) for t in panel.col_labels)]) + " \\\\ \\hline"
    )
    for label_text, row, colours in zip(panel.row_labels, panel.cells, shades(panel.cells), strict=True):
        cells = [_label(label_text)]
        for text, (fill, ink) in zip(row, colours, strict=True):
            shade = f"\\cellcolor[HTML]{{{fill[1:].upper()}}}\\color[HTML]{{{ink[1:].upper()}}}"
            cells.append(f"\\ifdefined\\rowcolors {shade}\\fi {escape(text)}")
        lines.append(" & ".join(cells) + " \\\\")
    lines.append("\\end{tabular}")
    return "{" + "\n".join(lines) + "}"


def _picture(block: Picture) -> str | None:
    if not block.latex:
        return None
    panels = "\n\\quad\n".join(_panel(panel) for panel in block.panels)
    return f"\\begin{{center}}\n{escape(block.caption)}\n\n{panels}\n\\end{{center}}"


def _block(block: Block) -> str | None:
    if isinstance(block, Picture):
        return _picture(block)
    if isinstance(block, Heading):
        return f"\\{_SECTIONS.get(block.level, 'paragraph')}*{{{escape(block.text)}}}"
    if isinstance(block, Paragraph):
        return inline(block.parts)
    if isinstance(block, Display):
        return f"\\[\n{block.latex}\n\\]"
    if isinstance(block, Bullets):
        items = "\n".join("  \\item " + inline(item.parts) for item in block.items)
        return f"\\begin{{itemize}}\n{items}\n\\end{{itemize}}"
    if isinstance(block, Table):
        spec = "|" + "l|" * len(block.header)
        # Taller rows: closed forms such as \frac{e^{...}}{2 + e^{...}} would touch the next row.
        lines = [
            f"\\begin{{center}}\n\\renewcommand{{\\arraystretch}}{{2.2}}\n\\begin{{tabular}}{{{spec}}}\n\\hline"
        ]
        lines.append(" & ".join(inline(cell) for cell in block.header) + " \\\\\n\\hline")
        lines += [" & ".join(inline(cell) for cell in row) + " \\\\" for row in block.rows]
        lines.append("\\hline\n\\end{tabular}\n\\end{center}")
        return "\n".join(lines)
    raise TypeError(f"unknown block {type(block).__name__}")


def to_latex(blocks: Sequence[Block], *, lang: str = "en", standalone: bool = False) -> str:
    """The whole document as LaTeX, ending in one newline.

    Args:
        blocks: the composed derivation.
        lang: "en" (pdflatex) or "zh" (xelatex + ctex); only the preamble differs.
        standalone: a complete document instead of a fragment.

    >>> to_latex([Display("x = 1")])
    '\\\\[\\nx = 1\\n\\\\]\\n'
    """
    texts = []
    for before, block in zip((None, *blocks), blocks, strict=False):
        text = _block(block)
        if (
            text is not None
            and isinstance(block, Heading)
            and block.level > 1
            and not isinstance(before, Heading)
        ):
            text = _KEEP_WITH_NEXT + text  # (a heading right after another goes with it)
        texts.append(text)
    body = "\n\n".join(text for text in texts if text is not None) + "\n"
    if not standalone:
        return body
    preamble = PREAMBLES[lang]
    if lang == "en" and _CJK.search(body):  # Chinese labels or titles: pdflatex cannot set them
        preamble = "% Chinese text inside: compile with xelatex.\n" + PREAMBLES["zh"]
    return preamble + "\n\\begin{document}\n\n" + body + "\n\\end{document}\n"
