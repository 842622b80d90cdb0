"""Readers: find the math of a document wherever its author wrote it.

Each reader turns one notation into :class:`~.span.Span` objects written in
the core grammar of :mod:`symattn.latexparse`, with an exact map back to the
source; the world model never learns notations.  See docs/architecture.md.
"""

from __future__ import annotations

from symattn.verify.readers.bounds import ReadingLimit, check
from symattn.verify.readers.config import READERS, ReadConfig
from symattn.verify.readers.span import Builder, Locator, Span

__all__ = ["READERS", "Builder", "Locator", "ReadConfig", "ReadingLimit", "Span", "find_math"]


def find_math(source: str, *, tex: bool, config: ReadConfig | None = None) -> list[Span]:
    """All spans of a document, in order.

    Args:
        source: the document text.
        tex: read it as LaTeX source rather than Markdown.
        config: which readers run (all by default).

    Raises:
        ReadingLimit: the document is over a reading limit of :mod:`symattn.limits`
            (checked before any reader or library sees it; :mod:`.bounds`).

    Besides formulas, a Markdown document gives ``scope`` markers (reader
    ``"scope"``, empty text) at headings and at sentences that set up a new
    example ("Let", "Suppose", "设").

    >>> [(s.reader, s.text) for s in find_math("Let $d_k = 2$.\\n\\n`$x$` is code.", tex=False)]
    [('latex', 'd_k = 2'), ('scope', '')]
    """
    config = config or ReadConfig()
    check(source, tex=tex)
    if tex:
        from symattn.verify.readers.tex import tex_spans

        return tex_spans(source) if config.latex else []
    from symattn.verify.readers.markdown import markdown_spans

    return markdown_spans(source, config)
