"""Math in ``.tex`` sources: environments, ``$$``, ``\\[ \\]``, ``$ $``, ``\\( \\)``.

Comments and verbatim code are blanked first (same length, so offsets stay).
Each opener is paired with its closer by one forward search; when a kind of
closer is missing, the search is not repeated for later openers of that kind,
so reading is linear in the document's size (a lazy ``.*?`` regex retried from
every opener was quadratic).

Simple macros (``\\newcommand``, ``\\renewcommand``, ``\\def`` with ``#1`` ...
arguments) are expanded inside math, at most :data:`MAX_EXPANSIONS` times per
formula; the expansion points at the macro call in the source.
"""

from __future__ import annotations

import re

from symattn.verify.readers.span import Builder, Span

__all__ = ["MAX_EXPANSIONS", "tex_spans"]

#: Macro expansions per formula (a macro that calls itself stops here).
MAX_EXPANSIONS = 200
#: Macros read per document, and the longest body of one (characters).
MAX_MACROS = 500
MAX_MACRO_BODY = 2000

_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_MATH_ENVS = (
    "equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*",
    "eqnarray", "eqnarray*", "displaymath", "math", "split", "aligned", "flalign", "flalign*",
)  # fmt: skip
_CODE_ENVS = ("verbatim", "verbatim*", "lstlisting", "minted", "Verbatim")
_OPENER = re.compile(
    r"\\begin\{(?P<env>[A-Za-z]+\*?)\}|(?P<dd>\$\$)|(?P<br>\\\[)|(?P<pa>\\\()|(?<!\\)(?P<d>\$)"
    r"|(?P<sec>\\(?:sub)*section\*?\{|\\chapter\*?\{|\\paragraph\*?\{)"
)
_CODE_OPENER = re.compile(
    r"\\begin\{(?P<env>[A-Za-z]+\*?)\}|\\verb\*?(?P<v>[^A-Za-z\s])|\\lstinline(?P<l>[^A-Za-z\s\[])"
)
_NEWCOMMAND = re.compile(
    r"\\(?:re)?newcommand\*?\s*\{?\s*(\\[A-Za-z]+)\s*\}?\s*(?:\[(\d)\])?\s*\{"
    r"|\\def\s*(\\[A-Za-z]+)((?:#\d)*)\s*\{"
)


def _blank(source: str, start: int, end: int, chars: list[str]) -> None:
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _blank_code(source: str) -> str:
    """Comments and verbatim code replaced by spaces (newlines kept)."""
    chars = list(_COMMENT.sub(lambda m: " " * len(m.group()), source))
    text = "".join(chars)
    missing: set[str] = set()
    pos = 0
    while True:
        match = _CODE_OPENER.search(text, pos)
        if match is None:
            break
        if match.group("env") is not None:
            env = match.group("env")
            if env not in _CODE_ENVS:
                pos = match.end()
                continue
            closer = f"\\end{{{env}}}"
        else:
            closer = match.group("v") or match.group("l")
        if closer in missing:
            pos = match.end()
            continue
        end = text.find(closer, match.end())
        if end < 0 or (len(closer) == 1 and "\n" in text[match.end() : end]):
            if end < 0:
                missing.add(closer)
            pos = match.end()
            continue
        _blank(text, match.start(), end + len(closer), chars)
        pos = end + len(closer)
    return "".join(chars)


def _group(text: str, start: int, limit: int = 20_000) -> int:
    """Index just past the brace group opening at ``text[start]``, within ``limit`` characters (or -1)."""
    depth = 0
    for index in range(start, min(len(text), start + limit)):
        char = text[index]
        if char == "\\":
            continue
        if char == "{" and (index == 0 or text[index - 1] != "\\"):
            depth += 1
        elif char == "}" and text[index - 1] != "\\":
            depth -= 1
            if depth == 0:
                return index + 1
    return -1


def _closing_braces(text: str) -> dict[int, int]:
    """Each ``{`` matched to its ``}`` in one pass (unescaped braces only)."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for match in re.finditer(r"(?<!\\)[{}]", text):
        if match.group() == "{":
            stack.append(match.start())
        elif stack:
            pairs[stack.pop()] = match.start()
    return pairs


def _macros(text: str) -> dict[str, tuple[int, str]]:
    """``\\name -> (number of arguments, body)`` for the simple macros of a document."""
    found: dict[str, tuple[int, str]] = {}
    closing = _closing_braces(text)
    for tries, match in enumerate(_NEWCOMMAND.finditer(text)):
        if len(found) >= MAX_MACROS or tries >= 4 * MAX_MACROS:
            break  # a macro body is short; a document with thousands of them gets no more
        name = match.group(1) or match.group(3)
        count = int(match.group(2) or 0) if match.group(1) else len(match.group(4) or "") // 2
        close = closing.get(match.end() - 1, -1)
        if close < 0 or close - match.end() > MAX_MACRO_BODY:
            continue
        end = close + 1
        found[name] = (count, text[match.end() : end - 1])
    return found


_CALL = re.compile(r"\\[A-Za-z]+")


def _arguments(text: str, pos: int, count: int) -> list[tuple[int, int]] | None:
    """The ``count`` arguments after ``pos`` as (start, end) of their insides."""
    args = []
    for _ in range(count):
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text):
            return None
        if text[pos] == "{":
            end = _group(text, pos)
            if end < 0:
                return None
            args.append((pos + 1, end - 1))
            pos = end
        else:
            args.append((pos, pos + 1))
            pos += 1
    return args


def expand(span: Span, macros: dict[str, tuple[int, str]]) -> Span:
    """``span`` with the document's macros expanded (bounded)."""
    if not macros:
        return span
    expansions = 0
    for _ in range(10):  # nesting depth
        builder, pos, changed = Builder(), 0, False
        for match in _CALL.finditer(span.text):
            macro = macros.get(match.group())
            if macro is None or match.start() < pos or expansions >= MAX_EXPANSIONS:
                continue
            count, body = macro
            args = _arguments(span.text, match.end(), count)
            if args is None:
                continue
            builder.copy_span(span, pos, match.start())
            at = span.source_offset(match.start())
            pieces = re.split(r"#(\d)", body)
            for k, piece in enumerate(pieces):
                if k % 2 == 0:
                    builder.put(piece, at)
                elif 1 <= int(piece) <= count:
                    builder.put("{", at)
                    builder.copy_span(span, *args[int(piece) - 1])
                    builder.put("}", at)
            pos = match.end()
            if args:
                pos = args[-1][1] + (1 if span.text[args[-1][1] : args[-1][1] + 1] == "}" else 0)
            expansions += 1
            changed = True
        if not changed:
            return span
        builder.copy_span(span, pos, len(span.text))
        span = builder.build(span.display, span.reader, span.flags)
    return span


_TABULAR = re.compile(r"\\begin\{tabular\*?\}(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})?")
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^}]*\})")


def _tabular(blanked: str, start: int, prose: str) -> tuple[list[Span], int]:
    """A ``tabular`` of numbers as a table claim, or a table of per-token statistics row by row
    (see :mod:`.tables`), and where it ends."""
    from symattn.verify.readers.tables import statistics_spans, table_span

    end = blanked.find("\\end{tabular}", start)
    if end < 0:
        return [], start
    rows: list[list[Span]] = []
    pos = start
    body = blanked[start:end]
    for raw in re.split(r"\\\\", body):
        cells: list[Span] = []
        offset = pos
        for part in raw.split("&"):
            text = _RULES.sub(lambda m: " " * len(m.group()), part)
            cells.append(Span.verbatim(text, offset, False))
            offset += len(part) + 1
        pos += len(raw) + 2
        if any(c.text.strip() for c in cells):
            rows.append(cells)
    table = table_span(rows, prose)
    return ([table] if table is not None else statistics_spans(rows)), end


def _prose_cells(blanked: str, start: int, end: int) -> list[Span]:
    """Prose numbers between formulas whose clause names their cell ("第四个词对自己的权重约为 0.79")."""
    from symattn.verify.readers.text import named_cell_spans

    text = blanked[start:end]
    if not any(c.isdigit() for c in text):
        return []
    return named_cell_spans(Span.verbatim(text, start, False, "text"))


def tex_spans(source: str) -> list[Span]:  # noqa: PLR0915 - one branch per kind of opener
    """All math spans of a LaTeX source, in order."""
    blanked = _blank_code(source)
    begin = blanked.find("\\begin{document}")
    macros = _macros(blanked)
    spans: list[Span] = []
    missing: set[str] = set()
    pos = begin if begin >= 0 else 0
    last_math = pos  # the prose before a table starts after the last formula
    while True:
        match = _OPENER.search(blanked, pos)
        spans.extend(_prose_cells(blanked, pos, match.start() if match else len(blanked)))
        if match is None:
            break
        if match.group("sec"):  # a new section may start a new example
            spans.append(Span("", False, ((0, match.start(), True),), "scope"))
            pos = match.end()
            continue
        env = match.group("env")
        if env in ("tabular", "tabular*"):
            head = _TABULAR.match(blanked, match.start())
            prose = blanked[max(last_math, match.start() - 400) : match.start()]
            tables, after = _tabular(blanked, head.end() if head else match.end(), prose)
            spans.extend(tables)
            pos = max(after, match.end())
            continue
        if env is not None:
            if env not in _MATH_ENVS:
                pos = match.end()
                continue
            closer, display = f"\\end{{{env}}}", True
        elif match.group("dd"):
            closer, display = "$$", True
        elif match.group("br"):
            closer, display = "\\]", True
        elif match.group("pa"):
            closer, display = "\\)", False
        else:
            closer, display = "$", False
        if closer in missing:
            pos = match.end()
            continue
        end = match.end()
        while True:
            end = blanked.find(closer, end)
            if end < 0 or closer != "$" or blanked[end - 1] != "\\":
                break
            end += 1
        if end < 0:
            missing.add(closer)
            pos = match.end()
            continue
        last_math = end + len(closer)
        if end > match.end() or closer != "$":
            text = blanked[match.end() : end]
            if text.strip():
                spans.append(expand(Span.verbatim(text, match.end(), display), macros))
        pos = end + len(closer)
    return spans
