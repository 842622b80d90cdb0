"""Find the math in a document and remember where every character came from.

Markdown (``.md``, ``.txt`` and plain text) is read with markdown-it-py and
the dollarmath and amsmath plugins, so code blocks and inline code are
skipped.  LaTeX files (``.tex``) are scanned for math environments, ``$$``,
``\\[ \\]``, ``$ $`` and ``\\( \\)``, with ``%`` comments blanked out.

Each :class:`Span` keeps the absolute source offset of its first character, so
that :meth:`Locator.position` turns an offset inside a formula into a 1-based
(line, column) of the file.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["Locator", "Span", "find_math"]


@dataclass(frozen=True)
class Span:
    """One math span: its text and the source offset of each character.

    Attributes:
        text: the LaTeX inside the delimiters.
        offsets: ``offsets[i]`` is the source offset of ``text[i]``.
        display: display math (``$$``, environments) rather than inline.
    """

    text: str
    offsets: tuple[int, ...]
    display: bool

    def source_offset(self, index: int) -> int:
        """The source offset of character ``index`` of the formula."""
        if not self.offsets:
            return 0
        return self.offsets[min(max(index, 0), len(self.offsets) - 1)]


class Locator:
    """Offsets to 1-based (line, column), columns counted in characters."""

    def __init__(self, source: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def position(self, offset: int) -> tuple[int, int]:
        """Return (line, column) of a source offset, both 1-based."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1


@lru_cache(maxsize=1)
def _markdown() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"maxNesting": 40})
    md.use(dollarmath_plugin, allow_space=True, allow_digits=True, double_inline=True)
    md.use(amsmath_plugin)
    md.enable("table")
    return md


def _aligned(content: str, source: str, start: int) -> tuple[int, ...] | None:
    """Offsets of ``content`` in ``source`` from ``start``, skipping whitespace
    the Markdown parser removed (indentation of list items, blockquote marks)."""
    offsets = []
    pos = start
    for char in content:
        if char.isspace():
            offsets.append(pos if pos < len(source) else len(source) - 1)
            continue
        found = source.find(char, pos, pos + 200)
        if found < 0:
            return None
        offsets.append(found)
        pos = found + 1
    return tuple(offsets)


def _locate(
    content: str, source: str, start: int, end: int, delimiters: tuple[str, ...]
) -> tuple[tuple[int, ...], int]:
    """Where ``content`` stands in ``source[start:end]`` (its Markdown block)."""
    best = None
    for delimiter in delimiters:
        found = source.find(delimiter + content, start, end)
        if found >= 0 and (best is None or found < best[0]):
            best = (found + len(delimiter), found + len(delimiter) + len(content))
    if best is None:
        found = source.find(content, start, end)
        if found >= 0:
            best = (found, found + len(content))
    if best is not None:
        return tuple(range(best[0], best[1])), best[1]
    offsets = _aligned(content.strip(), source, start)
    if offsets is None:
        return tuple(start for _ in content), start
    return offsets, (offsets[-1] + 1 if offsets else start)


_INLINE_DELIMS = ("$$", "$", "\\(")
_BLOCK_DELIMS = ("$$", "\\[", "")


_BRACKETS = re.compile(r"(?<!\\)\\([\[\]()])")
_SAME_LENGTH = {"[": "$$", "]": "$$", "(": " $", ")": "$ "}


def _dollars(source: str) -> str:
    """``\\[ \\]`` and ``\\( \\)`` as ``$$`` and ``$`` of the same length, so
    that every offset still points into the original text."""
    return _BRACKETS.sub(lambda m: _SAME_LENGTH[m.group(1)], source)


def _markdown_spans(original: str) -> list[Span]:
    source = _dollars(original)
    tokens = _markdown().parse(source)
    locator = Locator(source)
    spans: list[Span] = []
    cursor = 0

    def line_offset(line: int) -> int:
        return locator.starts[line] if line < len(locator.starts) else len(source)

    def visit(items: list[Any], block_start: int, block_end: int) -> None:
        nonlocal cursor
        for token in items:
            start, end = block_start, block_end
            if token.map:
                start, end = line_offset(token.map[0]), line_offset(token.map[1])
            if token.type.startswith("math") or token.type == "amsmath":
                display = token.type != "math_inline"
                delims = _BLOCK_DELIMS if token.type in ("math_block", "math_block_label") else _INLINE_DELIMS
                if token.type == "amsmath":
                    delims = ("",)
                offsets, after = _locate(token.content, source, max(cursor, start), end, delims)
                spans.append(Span(token.content, offsets, display))
                cursor = after
            elif token.children:
                cursor = max(cursor, start)
                visit(token.children, start, end)

    visit(tokens, 0, len(source))
    return spans


_TEX_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_TEX_MATH = re.compile(
    r"\\begin\{(?P<env>equation\*?|align\*?|gather\*?|multline\*?|eqnarray\*?|displaymath|math|split|aligned)\}"
    r"(?P<env_body>.*?)\\end\{(?P=env)\}"
    r"|\$\$(?P<dd>.+?)\$\$"
    r"|\\\[(?P<br>.+?)\\\]"
    r"|(?<!\\)\$(?P<d>[^$]+?)(?<!\\)\$"
    r"|\\\((?P<pa>.+?)\\\)",
    re.DOTALL,
)


_TEX_CODE = re.compile(
    r"\\begin\{(verbatim\*?|lstlisting|minted|Verbatim)\}.*?\\end\{\1\}|\\verb\*?(.).*?\2|\\lstinline(.).*?\3",
    re.DOTALL,
)


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group())


def _tex_spans(source: str) -> list[Span]:
    blanked = _TEX_CODE.sub(_blank, _TEX_COMMENT.sub(_blank, source))
    begin = blanked.find("\\begin{document}")
    spans = []
    for match in _TEX_MATH.finditer(blanked, begin if begin >= 0 else 0):
        group = next(g for g in ("env_body", "dd", "br", "d", "pa") if match.group(g) is not None)
        start = match.start(group)
        text = match.group(group)
        spans.append(Span(text, tuple(range(start, start + len(text))), group not in {"d", "pa"}))
    return spans


def find_math(source: str, *, tex: bool) -> list[Span]:
    """All math spans of a document, in order.

    Args:
        source: the document text.
        tex: read it as LaTeX source rather than Markdown.

    Returns:
        The spans, each with the source offset of every character.

    >>> [s.text for s in find_math("Let $d_k = 2$.\\n\\n`$x$` is code.", tex=False)]
    ['d_k = 2']
    """
    return _tex_spans(source) if tex else _markdown_spans(source)
