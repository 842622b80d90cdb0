"""Write blocks as LaTeX: a fragment to paste, or a standalone document.

English documents compile with pdflatex, Chinese ones with xelatex and ctex.
Only packages of texlive-latex-base are used (amsmath, amssymb, geometry).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symattn.render.blocks import Block, Bullets, Display, Heading, Math, Paragraph, Part, Strong, Table
from symattn.render.mathtex import escape_text

__all__ = ["PREAMBLES", "escape", "inline", "to_latex"]


_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")

PREAMBLES = {
    "en": (
        "\\documentclass{article}\n"
        "\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{amsmath,amssymb}\n"
        "\\usepackage[margin=2cm]{geometry}\n"
    ),
    "zh": ("\\documentclass{ctexart}\n\\usepackage{amsmath,amssymb}\n\\usepackage[margin=2cm]{geometry}\n"),
}

_SECTIONS = {1: "section", 2: "subsection", 3: "subsubsection"}


def escape(text: str) -> str:
    """Escape LaTeX's special characters in running text.

    >>> escape("50% of x_1")
    '50\\\\% of x\\\\_1'
    """
    return escape_text(text)


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


def _block(block: Block) -> str:
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
    body = "\n\n".join(_block(block) for block in blocks) + "\n"
    if not standalone:
        return body
    preamble = PREAMBLES[lang]
    if lang == "en" and _CJK.search(body):  # Chinese labels or titles: pdflatex cannot set them
        preamble = "% Chinese text inside: compile with xelatex.\n" + PREAMBLES["zh"]
    return preamble + "\n\\begin{document}\n\n" + body + "\n\\end{document}\n"
