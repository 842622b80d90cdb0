"""Markdown documents: markdown-it-py's tokens, located in the source, handed to readers.

markdown-it-py (with the dollarmath and amsmath plugins, and tables) decides
what is math, code, a table, HTML or prose, exactly as a Markdown renderer
would.  Its block tokens carry line numbers but its inline tokens do not, so
each inline token is found in the source by a forward search from where the
previous one ended (:class:`_Cursor`); each search starts where the last one
stopped, so locating is linear in the document's size.  Text whose source form
differs (``attn\\_weights`` is the text ``attn_weights``) is aligned character
by character within a short window.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from functools import lru_cache
from html.parser import HTMLParser
from typing import Any

from symattn import limits
from symattn.verify.canonical import paired_math_marks
from symattn.verify.readers.code import CodeContext, code_block_spans, inline_code_spans
from symattn.verify.readers.config import ReadConfig
from symattn.verify.readers.images import image_span
from symattn.verify.readers.span import Builder, Locator, Span
from symattn.verify.readers.tables import aligned_tables, row_list_span, statistics_spans, table_span
from symattn.verify.readers.tex import tex_spans
from symattn.verify.readers.text import prose_spans

__all__ = ["markdown_spans"]

#: How far ahead a character of an unescaped text token is looked for.
ALIGN_WINDOW = 8
#: How far past the previous token the next token's text is looked for (markup,
#: delimiters and link targets lie between them); bounds every search.
SEARCH_WINDOW = 4096
#: The first, short look ahead (delimiters and emphasis marks between tokens).
NEAR = 64

_SETUP = re.compile(
    r"^\s*(?:suppose|let(?:'s| us)?\b|now (?:take|consider|let|suppose)|consider|assume|"
    r"another example|for example|example\b|设|假设|例如|比如|再看|换一个例子|现在(?:取|考虑)|考虑)",
    re.I,
)


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


_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


class _Cursor:
    """Find token contents in the source, in order."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0

    def find(self, content: str, start: int, end: int, prefixes: tuple[str, ...] = ("",)) -> Span | None:
        """The source span of ``content`` (after one of ``prefixes``), searching forward."""
        pos = max(self.pos, start)
        if not content:
            return Span("", False, ((0, pos, True),))
        # tokens follow each other closely: look just ahead, then align an escaped text
        # character by character, and only then search further (past a link target, say)
        found = self.verbatim(content, pos, min(end, pos + len(content) + NEAR), prefixes)
        if found is None:
            found = self.align(content, pos, end)
        if found is None:
            found = self.verbatim(content, pos, min(end, pos + len(content) + SEARCH_WINDOW), prefixes)
        return found

    def verbatim(self, content: str, pos: int, window: int, prefixes: tuple[str, ...]) -> Span | None:
        source = self.source
        while True:
            found = source.find(content, pos, window)
            if found < 0:
                return None
            if any(source.startswith(p, found - len(p)) for p in prefixes if p) or "" in prefixes:
                self.pos = found + len(content)
                return Span.verbatim(content, found, False)
            pos = found + 1

    def align(self, content: str, start: int, end: int) -> Span | None:
        """``content`` matched character by character (escapes and indentation skipped)."""
        builder = Builder()
        pos = start
        source = self.source
        window = NEAR  # the first character may lie past a list item's marks and indentation
        for char in content:
            if char.isspace():
                builder.put(char, min(pos, len(source) - 1))
                if pos < end and source[pos].isspace():
                    pos += 1
                continue
            found = source.find(char, pos, min(end, pos + window))
            window = ALIGN_WINDOW
            entity = _ENTITY.match(source, pos)
            if entity and (found < 0 or found > pos):  # &#65; or &amp; is one character of text
                builder.put(char, pos)
                pos = entity.end()
                continue
            if found < 0:
                return None
            builder.copy(char, found)
            pos = found + 1
        self.pos = pos
        return builder.build(False, "text")


class _Walker:
    def __init__(self, original: str, config: ReadConfig) -> None:
        self.original = original
        self.source = paired_math_marks(original)
        self.config = config
        self.cursor = _Cursor(self.source)
        self.locator = Locator(self.source)
        self.spans: list[Span] = []
        self.prose = ""  # the last paragraph, for naming a table or printout
        self.prose_math = ""  # ... and its inline math
        self.in_heading = False
        self.heading: tuple[str, str] | None = (
            None  # the last heading's words and math, for the table under it
        )
        self.prose_start = 0  # where that paragraph starts
        self.code = CodeContext()

    def line_offset(self, line: int) -> int:
        starts = self.locator.starts
        return starts[line] if line < len(starts) else len(self.source)

    def scope(self, offset: int, level: int = 0) -> None:
        """A marker where a new example may start; a heading's says its level (``## `` is 2)."""
        flags = frozenset({f"level:{level}"}) if level else frozenset()
        self.spans.append(Span("", False, ((0, offset, True),), "scope", flags))

    def walk(self, tokens: list[Any]) -> list[Span]:
        index = 0
        while index < len(tokens):
            token = tokens[index]
            start, end = 0, len(self.source)
            if token.map:
                start, end = self.line_offset(token.map[0]), self.line_offset(token.map[1] + 1)
            kind = token.type
            if kind == "heading_open":
                self.scope(start, int(token.tag[1:]) if token.tag[1:].isdigit() else 0)
                self.in_heading, self.heading = True, None
            elif kind == "heading_close":
                self.in_heading = False
            if kind in ("math_block", "math_block_label", "amsmath"):
                self.latex_block(token, start, end)
            elif kind in ("fence", "code_block"):
                self.code_block(token, start, end)
            elif kind == "html_block":
                self.html(token.content, start, end)
            elif kind == "table_open":
                index = self.table(tokens, index)
                continue
            elif kind == "inline":
                self.inline(token, start, end)
            index += 1
        return self.spans

    def latex_block(self, token: Any, start: int, end: int) -> None:
        prefixes = ("$$", "\\[", "") if token.type != "amsmath" else ("",)
        found = self.cursor.find(token.content, start, end, prefixes)
        if found is not None and self.config.latex:
            span = Span(found.text, True, found.segments, "latex")
            self.spans.append(self.continued(span))

    def continued(self, span: Span) -> Span:
        """A display formula that starts with ``=`` goes on from the formula
        before it ("Row 1: $\\text{softmax}([2.5, 0])$" then "$$ = [...] $$")."""
        if not re.match(r"\s*(?:=|\\approx)", span.text):
            return span
        previous = next(
            (k for k in range(len(self.spans) - 1, -1, -1) if self.spans[k].reader != "scope"), None
        )
        if previous is None or self.spans[previous].reader != "latex":
            return span
        before = self.spans[previous]
        if re.search(r"=|\\approx", before.text) or before.source_offset(0) < self.prose_start:
            return span
        joined = Builder().copy_span(before, 0, len(before.text)).put(" ", span.source_offset(0))
        joined.copy_span(span, 0, len(span.text))
        del self.spans[previous]
        return joined.build(True, "latex")

    def code_block(self, token: Any, start: int, end: int) -> None:
        content = token.content
        first = start
        if token.type == "fence":
            newline = self.source.find("\n", start, end)
            first = newline + 1 if newline >= 0 else end
        found = self.cursor.find(content, first, end) if content else None
        if found is None:
            return
        if self.config.code:
            # a reader that trips over a block leaves it out; the rest of the document is read
            with contextlib.suppress(
                IndexError, KeyError, ValueError, TypeError, AttributeError, RecursionError
            ):
                self.spans.extend(code_block_spans(found, token.info or "", self.code, self.prose))
        self.prose = ""
        self.prose_math = ""

    def inline(self, token: Any, start: int, end: int) -> None:
        children = token.children or []
        text_runs: list[Span] = []
        group: list[Span] = []  # prose between math, code and links, emphasis included
        maths: list[str] = []  # the paragraph's inline math, a table's name when its words give none

        def flush() -> None:
            if group and self.config.text:
                piece = self.joined(group)
                listed = row_list_span(piece, self.prose) if self.config.tables else None
                context = (self.source[start:end], start)
                self.spans.extend([listed] if listed is not None else prose_spans(piece, context=context))
            group.clear()

        for child in children:
            if child.type not in (
                "text",
                "softbreak",
                "hardbreak",
                "em_open",
                "em_close",
                "strong_open",
                "strong_close",
            ):
                flush()
            kind = child.type
            if kind.startswith("math"):
                display = kind != "math_inline"
                found = self.cursor.find(
                    child.content, start, end, ("$$", "$", "\\(") if not display else ("$$",)
                )
                if found is not None and self.config.latex:
                    self.spans.append(_with_unit(found, display, self.source, self.cursor.pos))
                maths.append(child.content)
            elif kind == "code_inline":
                found = self.cursor.find(child.content, start, end, ("`",))
                if found is not None and self.config.code:
                    self.spans.extend(inline_code_spans(found))
            elif kind == "image":
                found = self.image_url(start, end)
                if found is not None and self.config.images:
                    formula = image_span(found)
                    if formula is not None:
                        self.spans.append(formula)
            elif kind == "text" and child.content:
                found = self.cursor.find(child.content, start, end)
                if found is not None:
                    text_runs.append(found)
                    group.append(found)
            elif kind == "html_inline":
                found = self.cursor.find(child.content, start, end)
                if found is not None:
                    self.html_found(found)
        flush()
        text = "".join(run.text for run in text_runs)
        if self.in_heading:
            self.heading = (text, "\n".join(maths))
        if text.strip() or maths:
            self.prose_math = "\n".join(maths)
        if text.strip():
            self.prose_start = start
            if _SETUP.match(text):
                self.scope(start)
            self.prose = text

    def joined(self, group: list[Span]) -> Span:
        """The prose of one paragraph between math and code, as markdown-it read it
        (escapes undone: ``x\\_1 = \\[1, 0]`` is ``x_1 = [1, 0]``; emphasis markers
        dropped), each character still mapped to the source; a line break or a gap
        between two text tokens is kept as one separator."""
        out = Builder()
        previous = None
        for span in group:
            if not span.text:
                continue
            start = span.source_offset(0)
            if previous is not None and start > previous:
                out.put("\n" if "\n" in self.source[previous:start] else " ", previous)
            out.copy_span(span, 0, len(span.text))
            previous = span.source_offset(len(span.text) - 1) + 1
        return out.build(False, "text")

    def image_url(self, start: int, end: int) -> Span | None:
        """The link of the next ``![alt](url)`` as written in the source (markdown-it
        normalises it, which would lose a raw ``\\``)."""
        source = self.source
        opener = source.find("![", max(self.cursor.pos, start), end)
        middle = source.find("](", opener, end) if opener >= 0 else -1
        if middle < 0:
            return None
        first = middle + 2
        depth, index = 0, first
        while index < end and source[index] not in " \n\t":
            if source[index] == "(":
                depth += 1
            elif source[index] == ")":
                if depth == 0:
                    break
                depth -= 1
            index += 1
        self.cursor.pos = index
        return Span.verbatim(source[first:index], first, False)

    def html(self, content: str, start: int, end: int) -> None:
        found = self.cursor.find(content, start, end)
        if found is not None:
            self.html_found(found)

    def html_found(self, found: Span) -> None:
        """Math, image links and tables inside HTML found in the source."""
        base = found.source_offset(0)
        if self.config.latex:
            cells: list[Span] = []
            for span in tex_spans("\\begin{document}" + found.text):
                if span.reader != "latex":
                    continue
                shifted = tuple((i, o - len("\\begin{document}") + base, lin) for i, o, lin in span.segments)
                cells.append(Span(span.text, span.display, shifted, "latex"))
            self.spans.extend(_joined_cells(cells, self.source))
        if self.config.images:
            for match in re.finditer(r"<img\b[^>]*?\bsrc\s*=\s*[\"']([^\"']+)", found.text, re.I):
                url = Span.verbatim(match.group(1), base + match.start(1), False)
                formula = image_span(url)
                if formula is not None:
                    self.spans.append(formula)
        plain = not any(mark in found.text for mark in ("$", "\\", "<table", "<TABLE", "<script"))
        if self.config.text and plain:  # the prose of the HTML: its tags end runs, as line breaks do
            self.spans.extend(prose_spans(found, context=(found.text, base)))
        if self.config.tables and "<table" in found.text.lower():
            for rows in _html_tables(found.text, base):
                span = table_span(rows, self.prose)
                if span is not None:
                    self.spans.append(span)

    def table(self, tokens: list[Any], index: int) -> int:
        rows: list[list[Span]] = []
        row: list[Span] = []
        while index < len(tokens) and tokens[index].type != "table_close":
            token = tokens[index]
            if token.type == "tr_open":
                row = []
                if token.map:
                    self.cursor.pos = max(self.cursor.pos, self.line_offset(token.map[0]))
            elif (
                token.type == "tr_close" and len(rows) < limits.MAX_TABLE_ROWS
            ):  # bounds.check counts them first
                rows.append(row)
            elif token.type == "inline":
                start = self.cursor.pos
                end = self.source.find("\n", start)
                end = len(self.source) if end < 0 else end
                found = self.cursor.find(token.content, start, end) if token.content else None
                row.append(found if found is not None else Span("", False, ((0, start, True),)))
            index += 1
        if self.config.tables:
            span = table_span(rows, self.prose, self.prose_math, heading=self.heading)
            self.heading = None  # it names the first table under it only
            if span is not None:
                self.spans.append(span)
            else:
                self.spans.extend(statistics_spans(rows))  # token | mean | rms | y: row by row
                if self.config.text:  # a cell that works something out: Softmax([0.2,0]) = [0.550,0.450]
                    for cell in (c for r in rows for c in r if _WORKED.search(c.text) and "$" not in c.text):
                        self.spans.extend(prose_spans(cell))
        return index + 1


#: A table cell with a relation between numbers in plain text (``Softmax([0.2,0]) = [0.550,0.450]``).
_WORKED = re.compile(r"[\d)\]]\s*(?:=|≈)\s*[-\[(]?\s*\d|=\s*\d")


_RELATION_TEXT = re.compile(r"=|\\approx")


#: A magnitude written right after a formula's closing delimiter: ``$$\approx 0.59$$M``.
_UNIT_AFTER = re.compile(r"\${1,2}([KMB])(?![A-Za-z0-9_])")


def _with_unit(found: Span, display: bool, source: str, end: int) -> Span:
    """The inline formula, with the magnitude written right after it (``$…0.59$M``: 0.59
    million) as part of its last number, as the grammar reads ``0.59M``."""
    unit = _UNIT_AFTER.match(source, end)
    text = found.text.rstrip()
    if unit is None or not text[-1:].isdigit():
        return Span(found.text, display, found.segments, "latex")
    return Span(
        text + unit.group(1) + "\\!", display, (*found.segments, (len(text), unit.start(1), False)), "latex"
    )


def _joined_cells(spans: list[Span], source: str) -> list[Span]:
    """In an HTML table row, a formula cell followed by a result cell
    (``<td>$$QK^T$$</td><td>$$[...]$$</td>``) is one statement: formula = result."""
    out: list[Span] = []
    for span in spans:
        if out:
            before = out[-1]
            gap = source[before.source_offset(len(before.text) - 1) + 1 : span.source_offset(0)]
            same_row = "</td>" in gap and "<td" in gap and "</tr>" not in gap and len(gap) < 400
            if (
                same_row
                and not _RELATION_TEXT.search(span.text)
                and not re.search(r"\d", before.text.split("=")[-1])
            ):
                glue = " \\approx " if re.search(r"\d\.\d", span.text) else " = "
                joined = Builder().copy_span(before, 0, len(before.text)).put(glue, span.source_offset(0))
                out[-1] = joined.copy_span(span, 0, len(span.text)).build(True, "latex")
                continue
        out.append(span)
    return out


class _TableParser(HTMLParser):
    """Cells of HTML tables, each with its source offset (stdlib html.parser)."""

    def __init__(self, text: str, base: int) -> None:
        super().__init__(convert_charrefs=False)
        self.locator = Locator(text)
        self.base = base
        self.tables: list[list[list[Span]]] = []
        self.cell: Span | None = None
        self.depth = 0

    def here(self) -> int:
        """The offset in the text of what the parser reads now (``HTMLParser.offset`` is taken)."""
        line, col = self.getpos()
        return self.locator.starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables and len(self.tables[-1]) < limits.MAX_TABLE_ROWS:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self.cell = Span("", False, ((0, self.base + self.here(), True),))
            self.tables[-1][-1].append(self.cell)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data: str) -> None:
        open_cell = self.cell is not None and self.tables and self.tables[-1] and self.tables[-1][-1]
        if open_cell and data.strip() and not self.cell.text.strip():  # type: ignore[union-attr]
            cell = Span.verbatim(data, self.base + self.here(), False)
            self.tables[-1][-1][-1] = cell
            self.cell = cell


def _html_tables(text: str, base: int) -> list[list[list[Span]]]:
    parser = _TableParser(text, base)
    try:
        parser.feed(text)
        parser.close()
    except Exception:  # html.parser is lenient; anything else means: no table read
        return []
    return parser.tables


def markdown_spans(original: str, config: ReadConfig) -> list[Span]:
    """All spans of a Markdown document, in order."""
    walker = _Walker(original, config)
    tokens = _markdown().parse(walker.source)
    spans = walker.walk(tokens)
    if config.tables:  # tables aligned with spaces under a rule of dashes, which Markdown does not see
        for table in aligned_tables(original):
            found = statistics_spans(table)
            if not found:
                continue
            last = table[-1][-1]
            first, end = table[1][0].source_offset(0), last.source_offset(0) + len(last.text)
            # the body's lines were prose to the Markdown walker: read as the table only
            spans = [s for s in spans if s.reader == "scope" or not first <= s.source_offset(0) < end]
            offsets = [span.source_offset(0) for span in spans]
            at = bisect.bisect_right(offsets, found[0].source_offset(0))
            spans[at:at] = found
    return spans
