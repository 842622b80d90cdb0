"""Code in documents: arithmetic lines, Python programs, and their printouts.

Nothing here runs code.  A fenced block or code span is one of three things:

* **arithmetic** (``q1 · k1 = 1*0 + 2*1 = 2``, ``softmax([1.5, 0.5]) = [0.731, 0.269]``):
  each line goes through the plain-text reader (:mod:`.text`);
* a **Python program**: parsed with Python's own parser (:func:`ast.parse`,
  which builds a tree and executes nothing; blocks over :data:`MAX_PROGRAM`
  characters are not parsed).  Assignments whose right side is array data or
  arithmetic on names (``@``, ``.T``, ``/``, ``np.sqrt``, ``softmax(…)``)
  become definitions in the core grammar; an assignment the reader cannot
  follow becomes ``name = ?`` so the world model forgets the name instead of
  keeping a stale value;
* a **printout** (PyTorch ``tensor([[…]], grad_fn=…)``, NumPy ``array([…])``
  or ``[[0.401 0.198]\n [ …]]``, a bare number), tied to what produced it: a
  ``print(name)`` or ``>>> name`` just before, or a prose line naming it
  ("the attention weights are:").  Printouts are flagged ``binary``: their
  last digits may come from float32 arithmetic.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass, field
from typing import Any

from symattn.verify.readers.span import Builder, Span
from symattn.verify.readers.text import MODULES, _close, _Fail, _Writer, prose_spans, side_by_side

__all__ = ["MAX_PROGRAM", "CodeContext", "code_block_spans", "inline_code_spans", "phrase_name"]

#: Longest code block given to Python's parser (characters).
MAX_PROGRAM = 100_000
#: Deepest expression the reader follows.
MAX_DEPTH = 60

_PHRASES = (
    (re.compile(r"positional encodings?|position(?:al)? embeddings?|\bPE\b|encoding table|位置编码|编码表", re.I), "PE"),
    (re.compile(r"attention weights?|attn[_ ]weights|softmax (?:weights|output|probabilities)|(?:taking|take|applying|apply|after) (?:the )?softmax|注意力权重|权重矩阵|注意力分数矩阵|权重", re.I), "weights"),
    (re.compile(r"scaled (?:attention )?scores|缩放(?:后的)?分数|缩放得分", re.I), "scaled"),
    (re.compile(r"(?:attention |raw )?scores?\b|注意力分数|分数|得分", re.I), "scores"),
    (re.compile(r"\bweights?\b|概率", re.I), "weights"),
    (re.compile(r"(?:the )?outputs?|context vectors?|输出", re.I), "output"),
)  # fmt: skip


def phrase_name(text: str) -> str | None:
    """The quantity a prose line names ("the attention weights are:"), if any;
    of several, the one named last ("用这张表里的权重直接算输出" names the output)."""
    best: tuple[int, int, str] | None = None  # (end, -start, name): the last named, and the longest there
    for pattern, name in _PHRASES:
        for match in pattern.finditer(text):
            key = (match.end(), -match.start(), name)
            if best is None or key[:2] > best[:2]:
                best = key
    return best[2] if best else None


@dataclass
class CodeContext:
    """What earlier code blocks left for the next printout."""

    pending: list[Span] = field(default_factory=list)  # what was printed (core text), not yet shown
    masks: dict[str, str] = field(default_factory=dict)  # names of causal masks: "tril" or "triu"
    assigned: dict[str, tuple[Any, ast.expr]] = field(default_factory=dict)  # (program, last right side)


def inline_code_spans(piece: Span) -> list[Span]:
    """An inline code span holding arithmetic (``q1 · k1 = … = 2``); LaTeX
    source shown as code (``$x$``, ``\\frac``) is not arithmetic."""
    if "$" in piece.text or "\\" in piece.text:
        return []
    return prose_spans(piece, reader="code")


_PROMPT = re.compile(r"^(?:>>> |\.\.\. |In \[\d+\]: |\s*\.\.\.: )")
_CONTINUED = re.compile(r"^(?:\.\.\. ?|\s*\.\.\.: ?)")  # a statement's next line in a session
#: The label a session prints before a result: IPython's ``Out[4]:``, or any one word with an
#: optional counter (``Result[4]:``, ``Output:``); what follows it up to the next prompt is the printout.
_OUT = re.compile(r"^[A-Za-z]\w{0,15}(?:\[\d+\])?:[ \t]*\n?")


def _unrounded(node: ast.expr) -> ast.expr:
    """``np.round(x, 6)``, ``np.around(x, 6)``, ``x.round(4)``: ``x`` (the printout is
    ``x`` rounded, which every printed number says anyway)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("round", "around")
    ):
        if (
            isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("np", "numpy", "torch")
            and node.args
        ):
            return node.args[0]
        if not node.args or len(node.args) == 1:
            return node.func.value
    return node


def _lines(piece: Span) -> list[tuple[int, int]]:
    starts = [0] + [m.end() for m in re.finditer("\n", piece.text)]
    ends = [s - 1 for s in starts[1:]] + [len(piece.text)]
    return list(zip(starts, ends, strict=True))


def code_block_spans(piece: Span, info: str, context: CodeContext, prose: str = "") -> list[Span]:
    """The spans of one fenced or indented code block."""
    language = (info.split() or [""])[0].lower()
    text = piece.text
    if len(text) > MAX_PROGRAM:
        return []
    prompts = [_PROMPT.match(text[a:b]) for a, b in _lines(piece)]
    if any(m and not _CONTINUED.match(m.group()) for m in prompts):  # "... more" alone is an ellipsis
        return _session(piece, context)
    printouts = _printouts(piece)
    if printouts:
        last = [line for line in prose.splitlines() if line.strip()]
        spans = []
        for k, printout in enumerate(printouts):
            name = context.pending.pop(0) if context.pending else None
            if name is None and k == 0 and len(printouts) == 1:
                name = phrase_name(last[-1] if last else "")
            if name:
                spans.append(_claim(name, printout))
        return spans
    if _parses(text):  # a program (comments included) is program text, not arithmetic
        return _program(piece, [(0, len(text))], context) if language in _PYTHON else []
    if language in _PYTHON and language and text[:1] in " \t" and _parses(_INDENTED + text):
        return _program(piece, [(0, len(text))], context, indented=True)  # a method's body, cut out
    header = _CELL_HEADER.match(text)
    if header and _parses(text[header.end() :]):  # a notebook cell: "In [35]:", then its program
        return _program(piece, [(header.end(), len(text))], context) if language in _PYTHON else []
    annotated = _without_notes(piece)
    if annotated is not None and language in _PYTHON:  # a program with notes after its lines
        return _program(piece, annotated, context)
    if "$" in text or "\\begin" in text or language in ("latex", "tex", "markdown", "md"):
        return []  # LaTeX or Markdown source shown as code
    return _hand_arithmetic(piece, language, context)


def _hand_arithmetic(piece: Span, language: str, context: CodeContext) -> list[Span]:
    """A code block that is not a program: hand arithmetic, line by line (a statement goes on
    over lines that continue it), with lines of Python among it read as Python."""
    spans = []
    lines: list[Builder] = []
    open_brackets = 0  # brackets the statement being read leaves open: its next line goes on
    ranges = _lines(piece)
    beside = {first: (end, cols) for first, end, cols in side_by_side([piece.text[a:b] for a, b in ranges])}
    k = 0
    while k < len(ranges):
        a, b = ranges[k]
        if k in beside:  # matrices written side by side over several lines: each read on its own
            spans.extend(prose_spans(lines[-1].build(True, "code"), reader="code") if lines else [])
            lines.clear()
            end, columns = beside[k]
            for column in _columns(piece, ranges[k:end], columns):
                spans.extend(prose_spans(column, reader="code"))
            k = end
            continue
        group = _statement_lines(piece, ranges, k) if language in _PYTHON and language else 0
        if group:  # lines of Python among hand arithmetic: assignments, with Python's meaning
            spans.extend(prose_spans(lines[-1].build(True, "code"), reader="code") if lines else [])
            spans.extend(_program(piece, ranges[k : k + group], context))
            lines.clear()
            k += group
            continue
        marker = _LINE_COMMENT.match(piece.text, a, b)
        opens = marker.group(1)[0] if marker else ""
        if opens and (language not in _PYTHON or opens == ("#" if language else "/")):
            a = marker.end()  # a comment is prose: ``// e^0.7071 = 2.0281``, ``# 2.028 / 3.028 = 0.6697``
            # (in a block that names no language, only ``//``: ``#`` may open a heading)
            closes = piece.text.rfind("*/", a, b)
            b = (
                closes if closes >= 0 and not piece.text[closes + 2 : b].strip() else b
            )  # `` = [6.69, 6.62] */``
        next_row = open_brackets > 0 and piece.text[a:b].lstrip().startswith("[")  # a matrix's next row
        if lines and (_GOES_ON.match(piece.text, a, b) or next_row):
            lines[-1].put(" ", piece.source_offset(a)).copy_span(piece, a, b)  # "        ≈ [[...]]" goes on
            open_brackets += _bracket_depth(piece.text[a:b])
        else:
            spans.extend(prose_spans(lines[-1].build(True, "code"), reader="code") if lines else [])
            lines[:] = [Builder().copy_span(piece, a, b)]
            open_brackets = _bracket_depth(piece.text[a:b])
        k += 1
    if lines:
        spans.extend(prose_spans(lines[-1].build(True, "code"), reader="code"))
    return spans


def _columns(piece: Span, ranges: list[tuple[int, int]], columns: list[tuple[int, int]]) -> list[Span]:
    """The statements of lines written side by side (:func:`side_by_side`), one span each:
    each line's stretch in the statement's columns, in order, mapped to where it stands."""
    out = []
    for lo, hi in columns:
        column = Builder()
        for a, b in ranges:
            start, stop = a + lo, min(a + hi, b)
            if start < stop:
                if column.length:
                    column.put(" ", piece.source_offset(start))
                column.copy_span(piece, start, stop)
        if column.length:
            out.append(column.build(True, "code"))
    return out


#: Where a line comment of a language other than Python opens (C, Rust, JavaScript, Go,
#: Java: ``//``; SQL, Lua, Haskell: ``--``; shell, R, Julia: ``#``; MATLAB: ``%``; a C block
#: comment's lines: ``/*``, `` * ``).
_LINE_COMMENT = re.compile(r"[ \t]*(//+|--(?!-)|#+|%+|/\*+|\*(?![*/]))[ \t]*")


def _bracket_depth(line: str) -> int:
    """How many more square brackets ``line`` opens than it closes (a matrix's rows go on; a
    program's braces and calls are not hand arithmetic's)."""
    return line.count("[") - line.count("]")


#: A notebook cell's header on a line of its own, above the cell's program (``In [35]:``).
_CELL_HEADER = re.compile(r"\s*In \[\d*\]:[ \t]*\n")
#: A line that goes on the statement before it (``       = [0.70, 2.85]``, ``≈ …``, ``→ …``,
#: and a sum's next term, ``          + 0.284 * [0.3, 0.9]``).
_GOES_ON = re.compile(r"\s*(?:=|≈|→|->|\+(?!\+))")
#: How many lines one Python statement among hand arithmetic may take.
_STATEMENT_LINES = 40


def _statement_lines(piece: Span, ranges: list[tuple[int, int]], k: int) -> int:
    """How many lines from line ``k`` of a block marked Python that is not a program as a
    whole (hand arithmetic among the code) make one or more Python statements of their own
    (``x_1 = x + attn_output``, a nested list over several lines), none of them a line the
    next one goes on (``x_1[0] = a + b`` then ``       = [0.70, …]`` is hand arithmetic);
    0 when none do.  An unmarked block is not asked: it may be formulas in Python's
    spelling (``y = gamma * (z - mu) / sqrt(sigma^2 + eps)``)."""
    text = piece.text
    if not text[ranges[k][0] : ranges[k][1]].strip() or _GOES_ON.match(text, *ranges[k]):
        return 0
    depth = 0
    for j in range(k, min(len(ranges), k + _STATEMENT_LINES)):
        if j + 1 < len(ranges) and _GOES_ON.match(text, *ranges[j + 1]):
            return 0
        line = text[ranges[j][0] : ranges[j][1]]
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        chunk = text[ranges[k][0] : ranges[j][1]]
        if _parses(chunk):
            body = _parse(chunk).body
            return j - k + 1 if any(isinstance(s, (ast.Assign, ast.AugAssign)) for s in body) else 0
        if depth <= 0:
            return 0  # every bracket closed and still not Python: hand arithmetic
    return 0


_PYTHON = ("python", "py", "python3", "ipython", "ipython3", "pycon", "torch", "numpy", "")

#: A note written after a line of code, not as a Python comment, to the end of the line: a
#: parenthesised remark after two spaces or more, or an arrow (``W1 = [[0.2, 0.3],   (2 × 2
#: matrix)``, ``x = [0.1, 100.0]  ← dominates``).  Never another statement (no ``=``).
_NOTE = re.compile(r"(?<=[\w\])},.])(?:\s{2,}\((?=[^()=]*\)\s*$)|\s*(?:[←⟵]|<-))[^=]*$", re.MULTILINE)


def _without_notes(piece: Span) -> list[tuple[int, int]] | None:
    """The lines of a code block with the notes after them cut off, when what is left is a
    Python program and at least one line had a note; else None."""
    parts, cut = [], False
    for a, b in _lines(piece):
        note = _NOTE.search(piece.text, a, b)
        if note is not None and "#" not in piece.text[a : note.start()]:
            parts.append((a, note.start()))
            cut = True
        else:
            parts.append((a, b))
    if not cut or not _parses("\n".join(piece.text[a:b] for a, b in parts)):
        return None
    return parts


def _parse(text: str) -> ast.Module:
    """Python's parser on document text; its warnings about the text (an invalid escape
    in a string) are the author's business, not printed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)


def _parses(text: str) -> bool:
    try:
        _parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _session(piece: Span, context: CodeContext) -> list[Span]:
    """``>>>`` / ``In [1]:`` sessions: code lines, each followed by its output."""
    spans: list[Span] = []
    lines = _lines(piece)
    k = 0
    while k < len(lines):
        a, b = lines[k]
        match = _PROMPT.match(piece.text[a:b])
        if match:
            parts = [(a + match.end(), b)]
            k += 1
            while k < len(lines) and (more := _CONTINUED.match(piece.text[lines[k][0] : lines[k][1]])):
                parts.append((lines[k][0] + more.end(), lines[k][1]))  # the body of a loop or a call
                k += 1
            spans.extend(_program(piece, parts, context, statement_only=True))
            continue
        start = k
        while k < len(lines) and not _PROMPT.match(piece.text[lines[k][0] : lines[k][1]]):
            k += 1
        lo, hi = lines[start][0], lines[k - 1][1]
        out = _OUT.match(piece.text[lo:hi])
        printout = _printout(piece, lo + (out.end() if out else 0), hi)
        if printout is not None and context.pending:
            spans.append(_claim(context.pending.pop(0), printout))
    return spans


def _claim(printed: Span | str, printout: Span) -> Span:
    """``printed = printout``: what a program printed, claimed by its printout."""
    builder = Builder()
    at = printout.source_offset(0)
    if isinstance(printed, str):
        builder.put(_name_text(printed), at)
    else:
        builder.copy_span(printed, 0, len(printed.text))
    builder.put(" = ", at)
    builder.copy_span(printout, 0, len(printout.text))
    return builder.build(True, "code", frozenset({"binary", "tentative"}))


def _name_text(name: str) -> str:
    """A name as the core grammar writes it, the same way wherever it stands."""
    writer = _Writer(Span.verbatim(name, 0, False))
    writer.identifier(0, name)
    return writer.out.text


# --- printouts ------------------------------------------------------------------


def _closing(text: str, start: int, opener: str, closer: str) -> int:
    """Index of the bracket closing the one at ``start``, or -1."""
    try:
        return _close(text, start, opener, closer)
    except _Fail:
        return -1


def _printouts(piece: Span) -> list[Span]:
    """Every printout of an output block, in order; [] when the block is not
    made of printouts only."""
    text = piece.text
    found = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        out = _OUT.match(text, i)
        if out:
            i = out.end()
            continue
        head = re.match(r"(?:tensor|array)\(", text[i:])
        if head:
            end = _closing(text, i + head.end() - 1, "(", ")")
        elif text[i] == "[":
            end = _closing(text, i, "[", "]")
        elif re.match(r"[-+]?\d", text[i:]):
            line_end = text.find("\n", i)
            end = (len(text) if line_end < 0 else line_end) - 1
        else:
            return []
        if end < 0:
            return []
        printout = _printout(piece, i, end + 1)
        if printout is None:
            return []
        found.append(printout)
        i = end + 1
    return found


_PRINT_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:e[+-]?\d+)?")


def _printout(piece: Span, start: int, end: int) -> Span | None:
    """A printed array or number as a core-grammar matrix (or number), or None."""
    text = piece.text
    body = text[start:end].strip()
    if not body:
        return None
    lead = start + (len(text[start:end]) - len(text[start:end].lstrip()))
    m = re.match(r"(tensor|array)\(", body)
    inner_start = lead + (m.end() if m else 0)
    if m:
        rest = body[m.end() :]
        if not re.match(r"\s*[\[\-\d.]", rest):
            return None
    elif not re.fullmatch(r"[\[\]\s\d.,eE+\-]+", body):
        return None
    i = inner_start
    while i < end and text[i].isspace():
        i += 1
    if i < end and text[i] != "[":
        number = _PRINT_NUMBER.match(text, i)
        if number is None or number.end() > end:
            return None
        tail = text[number.end() : end].strip()
        if tail and not (m and re.fullmatch(r"(?:,\s*[a-z_]+=.*)?\)", tail, re.S)):
            return None
        return _numbers_span(piece, [[(i, number.end())]], scalar=True)
    rows = _nested(text, i, end)
    if rows is None:
        return None
    return _numbers_span(piece, rows, scalar=False)


def _nested(text: str, i: int, end: int) -> list[list[tuple[int, int]]] | None:
    """Rows of number positions of a 1-D or 2-D printed array at ``text[i] == '['``."""
    depth, rows, current, max_depth = 0, [], [], 0
    j = i
    while j < end:
        char = text[j]
        if char == "[":
            depth += 1
            max_depth = max(max_depth, depth)
            if depth > 2:
                return None
            current = []
            j += 1
            continue
        if char == "]":
            if depth == 2 or max_depth == 1:
                rows.append(current)
            depth -= 1
            j += 1
            if depth == 0:
                break
            continue
        number = _PRINT_NUMBER.match(text, j)
        if number and depth:
            current.append((j, number.end()))
            j = number.end()
            continue
        if char in ", \n\t\r":
            j += 1
            continue
        return None
    if depth != 0 or not rows or len({len(r) for r in rows}) != 1 or not rows[0]:
        return None
    return rows


def _numbers_span(piece: Span, rows: list[list[tuple[int, int]]], *, scalar: bool) -> Span:
    builder = Builder()
    at = piece.source_offset(rows[0][0][0])
    if not scalar:
        builder.put(r"\begin{bmatrix}", at)
    for r, cells in enumerate(rows):
        if r:
            builder.put(r" \\ ", piece.source_offset(cells[0][0]))
        for c, (lo, hi) in enumerate(cells):
            if c:
                builder.put(" & ", piece.source_offset(lo))
            number = piece.text[lo:hi]
            builder.copy_span(piece, lo + number.startswith("+"), hi)
            if number.endswith("."):  # NumPy and PyTorch print 1.0 as "1." when every entry is integral
                builder.put(
                    "0000", piece.source_offset(hi - 1)
                )  # at their 4 (PyTorch) or 8 places: not ±0.05
    if not scalar:
        builder.put(r"\end{bmatrix}", piece.source_offset(rows[-1][-1][1] - 1))
    return builder.build(True, "code", frozenset({"binary"}))


# --- Python programs --------------------------------------------------------------

_PASS_METHODS = {"astype", "float", "double", "numpy", "detach", "cpu", "to", "clone", "contiguous"}


def _is_module(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id in MODULES) or isinstance(node, ast.Attribute)


def _softmax_by_hand(node: ast.BinOp) -> ast.AST | None:
    """``np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)``: softmax(x) written out."""
    left, right = node.left, node.right
    if not (isinstance(left, ast.Call) and _call_name(left) == "exp" and len(left.args) == 1):
        return None
    if not (
        isinstance(right, ast.Call) and _call_name(right) == "sum" and isinstance(right.func, ast.Attribute)
    ):
        return None
    inner = right.func.value
    if not (isinstance(inner, ast.Call) and _call_name(inner) == "exp" and len(inner.args) == 1):
        return None
    if ast.dump(inner.args[0]) != ast.dump(left.args[0]) or not _row_sum(right):
        return None
    return left.args[0]


def _row_sum(call: ast.Call) -> bool:
    """``.sum(axis=1, keepdims=True)``, ``.sum(-1, keepdim=True)``: a sum along each row."""
    keywords = {k.arg: k.value for k in call.keywords}
    axis = keywords.get("axis", keywords.get("dim", call.args[0] if call.args else None))
    keep = keywords.get("keepdims", keywords.get("keepdim"))
    return (
        axis is not None and _int(axis) in (1, -1) and isinstance(keep, ast.Constant) and keep.value is True
    )


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


_ARRAY_MAKERS = {"tensor", "array", "asarray", "Tensor", "FloatTensor", "DoubleTensor", "matrix", "as_tensor"}
_TRANSPARENT = {"float", "int", "double", "float32", "float64"}


class _Unknown(Exception):
    pass


class _Program:
    def __init__(self, piece: Span, start: int) -> None:
        self.piece = piece
        self.text = piece.text
        self.start = start
        line_starts = [0] + [m.end() for m in re.finditer("\n", piece.text[start:])]
        self.line_starts = [start + s for s in line_starts]
        self.masks: dict[str, str] = {}  # names of causal masks (shared with the context)
        self.assigned: dict[str, tuple[_Program, ast.expr]] = {}  # (program, last right side), shared
        self.printouts: set[int] = set()  # where comments claimed as a statement's printout start

    def index(self, lineno: int, col: int) -> int:
        """Index in the piece of an ast (line, UTF-8 byte column)."""
        line_start = self.line_starts[lineno - 1]
        line_end = self.text.find("\n", line_start)
        line = self.text[line_start : line_end if line_end >= 0 else len(self.text)]
        return line_start + len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))

    def bounds(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.index(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.index(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def write(self, node: ast.AST, out: Builder, depth: int = 0) -> None:
        if depth > MAX_DEPTH:
            raise _Unknown
        lo, hi = self.bounds(node)
        at = self.piece.source_offset(lo)
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        ):
            literal = self.text[lo:hi]
            if not re.fullmatch(r"\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+", literal):
                raise _Unknown
            if literal.endswith("."):
                out.copy_span(self.piece, lo, hi)
                out.put("0", self.piece.source_offset(hi - 1))
            else:
                out.copy_span(self.piece, lo, hi)
            return
        if isinstance(node, ast.Name):
            writer = _Writer(self.piece)
            writer.identifier(lo, node.id)
            out.copy_span(writer.out.build(True, "code"), 0, len(writer.out.text))
            return
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            out.put("-" if isinstance(node.op, ast.USub) else "", at)
            self.write(node.operand, out, depth + 1)
            return
        if isinstance(node, (ast.List, ast.Tuple)):
            self.array(node, out, depth)
            return
        if isinstance(node, ast.BinOp):
            self.binop(node, out, depth)
            return
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "shape"
        ):
            axis = _int(node.slice)
            if axis not in (0, 1, -1, -2):
                raise _Unknown
            out.put(r"\text{rows}(" if axis in (0, -2) else r"\text{cols}(", at)
            self.write(node.value.value, out, depth + 1)
            out.put(")", at)
            return
        if isinstance(node, ast.Attribute) and node.attr == "T":
            out.put("(", at)
            self.write(node.value, out, depth + 1)
            out.put(")^{T}", at)
            return
        if isinstance(node, ast.Call):
            self.call(node, out, depth)
            return
        raise _Unknown

    def causal_fill(self, args: list[ast.expr]) -> bool:
        """``masked_fill(mask == 0, -inf)`` with ``mask = torch.tril(torch.ones(n, n))``, or
        ``masked_fill(mask, -inf)`` with ``mask = torch.triu(torch.ones(n, n), diagonal=1).bool()``."""
        condition, fill = args
        if not _is_neg_inf(fill):
            return False
        if (
            isinstance(condition, ast.Compare)
            and isinstance(condition.left, ast.Name)
            and len(condition.ops) == 1
            and isinstance(condition.ops[0], ast.Eq)
            and _int(condition.comparators[0]) == 0
        ):
            return self.masks.get(condition.left.id) == "tril"
        return isinstance(condition, ast.Name) and self.masks.get(condition.id) == "triu"

    def array(self, node: ast.List | ast.Tuple, out: Builder, depth: int) -> None:
        lo, _ = self.bounds(node)
        at = self.piece.source_offset(lo)
        items = node.elts
        if not items:
            raise _Unknown
        if all(isinstance(e, (ast.List, ast.Tuple)) for e in items):
            rows = [e.elts for e in items]  # type: ignore[attr-defined]
            if len({len(r) for r in rows}) != 1 or not rows[0]:
                raise _Unknown
            if any(isinstance(c, (ast.List, ast.Tuple)) for r in rows for c in r):
                raise _Unknown
            out.put(r"\begin{bmatrix}", at)
            for r, row in enumerate(rows):
                if r:
                    out.put(r" \\ ", at)
                for c, cell in enumerate(row):
                    if c:
                        out.put(" & ", at)
                    self.write(cell, out, depth + 1)
            out.put(r"\end{bmatrix}", at)
            return
        out.put("[", at)
        for c, cell in enumerate(items):
            if c:
                out.put(", ", at)
            self.write(cell, out, depth + 1)
        out.put("]", at)

    def binop(self, node: ast.BinOp, out: Builder, depth: int) -> None:
        lo, _ = self.bounds(node)
        at = self.piece.source_offset(lo)
        op = node.op
        by_hand = _softmax_by_hand(node) if isinstance(op, ast.Div) else None
        if by_hand is not None:
            out.put(r"\text{softmax}(", at)
            self.write(by_hand, out, depth + 1)
            out.put(")", at)
            return
        if isinstance(op, ast.Div):
            out.put(r"\frac{", at)
            self.write(node.left, out, depth + 1)
            out.put("}{", at)
            self.write(node.right, out, depth + 1)
            out.put("}", at)
            return
        if isinstance(op, ast.Pow):
            out.put("{(", at)
            self.write(node.left, out, depth + 1)
            out.put(")}^{", at)
            self.write(node.right, out, depth + 1)
            out.put("}", at)
            return
        if isinstance(op, ast.Mult) and not (_scalarish(node.left) or _scalarish(node.right)):
            raise _Unknown  # elementwise product of two arrays: not a matrix product
        symbol = {ast.Add: " + ", ast.Sub: " - ", ast.Mult: r" \cdot ", ast.MatMult: r" \cdot "}.get(type(op))
        if symbol is None:
            raise _Unknown
        out.put("(", at)
        self.write(node.left, out, depth + 1)
        out.put(")" + symbol + "(", at)
        self.write(node.right, out, depth + 1)
        out.put(")", at)

    def call(self, node: ast.Call, out: Builder, depth: int) -> None:  # noqa: PLR0915 - one branch per function
        lo, _ = self.bounds(node)
        at = self.piece.source_offset(lo)
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        receiver = func.value if isinstance(func, ast.Attribute) else None
        args = node.args
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if (
            name == "size" and receiver is not None and len(args) == 1 and _int(args[0]) in (0, 1, -1, -2)
        ) or (name == "len" and receiver is None and len(args) == 1):
            axis = _int(args[0]) if name == "size" else 0
            out.put(r"\text{rows}(" if axis in (0, -2) else r"\text{cols}(", at)
            self.write(receiver if name == "size" else args[0], out, depth + 1)  # type: ignore[arg-type]
            out.put(")", at)
            return
        if name == "masked_fill" and receiver is not None and len(args) == 2 and self.causal_fill(args):
            out.put(r"\text{causal}(", at)
            self.write(receiver, out, depth + 1)
            out.put(")", at)
            return
        if name in ("eye", "identity") and len(args) == 1 and _int(args[0]) is not None:
            size = _int(args[0])
            if size is None or not 1 <= size <= 64:
                raise _Unknown
            out.put(f"I_{{{size}}}", at)  # torch.eye(2): the identity of that size
            return
        if name in _PASS_METHODS and receiver is not None and not _is_module(receiver):
            self.write(receiver, out, depth + 1)  # Q.astype(np.float64), x.float(), t.detach()
            return
        if name in _ARRAY_MAKERS and len(args) == 1:
            self.write(args[0], out, depth + 1)
            return
        if name in _TRANSPARENT and len(args) == 1:
            self.write(args[0], out, depth + 1)
            return
        if name == "softmax":
            target = args[0] if args else receiver
            if target is None or (
                receiver is not None
                and args
                and isinstance(receiver, ast.Name)
                and receiver.id
                not in ("F", "torch", "np", "nn", "special", "functional", "scipy", "jax", "tf", "nnf")
            ):
                target = receiver if receiver is not None and not args else target
            axis = keywords.get("dim", keywords.get("axis"))
            if axis is None and len(args) >= 2:
                axis = args[1]
            if axis is not None and not _axis_is_last(axis):
                raise _Unknown
            out.put(r"\text{softmax}(", at)
            self.write(target, out, depth + 1)
            out.put(")", at)
            return
        if name in ("sqrt", "exp") and len(args) == 1:
            # np.exp / torch.exp act entry by entry (not the matrix exponential)
            out.put(r"\sqrt{" if name == "sqrt" else r"\text{np.exp}(", at)
            self.write(args[0], out, depth + 1)
            out.put("}" if name == "sqrt" else ")", at)
            return
        if name in ("matmul", "dot", "mm") and (len(args) == 2 or (receiver is not None and len(args) == 1)):
            left, right = (args[0], args[1]) if len(args) == 2 else (receiver, args[0])
            out.put("(", at)
            self.write(left, out, depth + 1)  # type: ignore[arg-type]
            out.put(r") \cdot (", at)
            self.write(right, out, depth + 1)
            out.put(")", at)
            return
        if name in ("t", "transpose") and receiver is not None and not keywords:
            if name == "transpose" and not (len(args) == 2 and {_int(a) for a in args} in ({0, 1}, {-1, -2})):
                raise _Unknown
            out.put("(", at)
            self.write(receiver, out, depth + 1)
            out.put(")^{T}", at)
            return
        raise _Unknown


def _is_neg_inf(node: ast.AST) -> bool:
    """``float("-inf")``, ``-float("inf")``, ``-np.inf``, ``-torch.inf``, ``-1e9`` and the like."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "float" and node.args:
        arg = node.args[0]
        return isinstance(arg, ast.Constant) and str(arg.value).strip().lower() in ("-inf", "-infinity")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if isinstance(inner, ast.Attribute) and inner.attr == "inf":
            return True
        if isinstance(inner, ast.Call) and getattr(inner.func, "id", "") == "float" and inner.args:
            return isinstance(inner.args[0], ast.Constant) and str(inner.args[0].value).lower() == "inf"
    return False


def _int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int(node.operand)
        return -inner if inner is not None else None
    return None


def _mask_kind(node: ast.AST) -> str | None:
    """``torch.tril(torch.ones(n, n))`` -> "tril"; ``torch.triu(..., diagonal=1)`` (``.bool()``) -> "triu"."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("bool", "float")
    ):
        node = node.func.value
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return None
    inner = node.args[0]
    ones = (
        isinstance(inner, ast.Call) and getattr(inner.func, "attr", getattr(inner.func, "id", "")) == "ones"
    )
    diagonal = {k.arg: _int(k.value) for k in node.keywords}.get(
        "diagonal", _int(node.args[1]) if len(node.args) > 1 else 0
    )
    if ones and node.func.attr == "tril" and diagonal == 0:
        return "tril"
    if ones and node.func.attr == "triu" and diagonal == 1:
        return "triu"
    return None


def _axis_is_last(node: ast.AST) -> bool:
    return _int(node) in (-1, 1)


def _scalarish(node: ast.AST) -> bool:
    """A number, or a call that gives one (np.sqrt(d_k))."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("sqrt", "exp", "float", "int")
    if isinstance(node, ast.Name):
        return node.id.lower() in ("d_k", "dk", "scale", "d", "temperature", "tau", "d_model", "alpha")
    return False


def _targets(statement: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
    return names


#: What makes the body of a function, cut out with its indent, a program.
_INDENTED = "if 1:\n"


def _program(
    piece: Span,
    parts: list[tuple[int, int]],
    context: CodeContext,
    *,
    statement_only: bool = False,
    indented: bool = False,
) -> list[Span]:
    """The spans of the program made of ``parts`` of ``piece`` (lines, without their prompts;
    ``indented``: lines cut out of a function's body, still indented)."""
    builder = Builder()
    if indented:
        builder.put(_INDENTED, parts[0][0])
    for index, (start, end) in enumerate(parts):
        if index:
            builder.put("\n", start)
        builder.copy_span(piece, start, end)
    sub = builder.build(True, "code")
    try:
        tree = _parse(sub.text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    program = _Program(sub, 0)
    program.masks, program.assigned = context.masks, context.assigned  # a session is one program
    spans: list[Span] = []
    body = tree.body[0].body if indented and isinstance(tree.body[0], ast.If) else tree.body
    for index, statement in enumerate(body):
        spans.extend(_statement(program, statement, context, interactive=statement_only))
        following = program.bounds(body[index + 1])[0] if index + 1 < len(body) else len(sub.text)
        shown = _commented_printout(program, statement, following)
        if shown is not None:
            spans.append(shown)
    spans += _strings(program, tree) + _comments(program)
    return sorted(spans, key=lambda span: span.source_offset(0))


def _comments(program: _Program) -> list[Span]:
    """The worked arithmetic a program's comment lines hold (``# e^0.7071 / (e^0.7071 + 1) =
    0.6697``), read as the prose it is, a line that goes on the one before (``#   = 0.67``)
    joined to it; a comment claimed as a statement's printout is not read again."""
    text = program.text
    ranges = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.COMMENT or token.line[: token.start[1]].strip():
                continue  # code before it: a note on that line (``[0.841, …],  # Position 1``)
            start = program.line_starts[token.start[0] - 1] + token.start[1]
            if start in program.printouts:
                continue
            marker = _LINE_COMMENT.match(text, start)
            ranges.append((marker.end() if marker else start + 1, start + len(token.string)))
            if not _OPERATOR.search(token.string) and not (
                len(ranges) > 1 and _GOES_ON.match(text, *ranges[-1])
            ):  # "mean≈0, std≈1": which of the program's values a bare remark names is not known
                ranges.pop()
    except (tokenize.TokenError, SyntaxError, IndexError):
        return []
    return _arithmetic_lines(program.piece, ranges)


#: An operator between operands, or an applied function: a comment that works something out
#: (``2.028 / 3.028 = 0.6697``, ``Q = X @ W_q``, ``e^0.7071``), not a bare remark.
_OPERATOR = re.compile(r"[\w)\]]\s*(?:[-+*/×·^@÷]|\*\*)\s*[-\w(\[.√]|\w\(|√")


def _arithmetic_lines(piece: Span, ranges: list[tuple[int, int]]) -> list[Span]:
    """Lines of hand arithmetic, each read as prose, a line joined to the one before where it
    goes on it (``= …``, ``≈ …``, ``+ …``, a matrix's next row)."""
    spans: list[Span] = []
    lines: list[Builder] = []
    open_brackets = 0
    for a, b in ranges:
        next_row = open_brackets > 0 and piece.text[a:b].lstrip().startswith("[")
        if lines and (_GOES_ON.match(piece.text, a, b) or next_row):
            lines[-1].put(" ", piece.source_offset(a)).copy_span(piece, a, b)
            open_brackets += _bracket_depth(piece.text[a:b])
        else:
            spans.extend(prose_spans(lines[-1].build(True, "code"), reader="code") if lines else [])
            lines[:] = [Builder().copy_span(piece, a, b)]
            open_brackets = _bracket_depth(piece.text[a:b])
    if lines:
        spans.extend(prose_spans(lines[-1].build(True, "code"), reader="code"))
    return spans


#: Most string literals of one program read as text.
MAX_STRINGS = 200


def _strings(program: _Program, tree: ast.Module) -> list[Span]:
    """The worked math a program's string literals hold, read as the text it is: LaTeX for a
    renderer (``MathTex(r"QK^T = \\begin{pmatrix} … = …")``), or a label or a message in
    words and symbols (``Text("Scale by √d_k = √2 ≈ 1.41")``), or a worked answer in a
    triple-quoted string.  Only strings that stand in the source as their value (no escapes),
    so every number keeps its place; an f-string's parts are the program's, not text."""
    spans: list[Span] = []
    found = 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        value = node.value
        if not any(ch.isdigit() for ch in value) or not any(ch in value for ch in "=\u2248"):
            continue
        lo, hi = program.bounds(node)
        source = program.text[lo:hi]
        at = source.find(value)
        if at < 0 or source.count(value) != 1:
            continue  # escapes: the value is not the source
        found += 1
        if found > MAX_STRINGS:
            break
        if "\\" in value:  # LaTeX: the core grammar itself
            spans.append(
                Builder().copy_span(program.piece, lo + at, lo + at + len(value)).build(True, "latex")
            )
        else:
            inner = Builder().copy_span(program.piece, lo + at, lo + at + len(value)).build(False, "text")
            spans.extend(prose_spans(inner, reader="code"))
    return spans


#: A comment that shows what the statement before it gives: ``# tensor([0.6590, …])``,
#: ``# array([…])``, ``# [0.1, 0.2]``, ``# = 0.98``, ``# → 0.98`` (after the statement on its
#: own line, or on the lines right after it, before any other code).
_COMMENT_PRINTOUT = re.compile(r"#[ \t]*(?:(?:=|→|->|≈|:)[ \t]*)?(?=tensor\(|array\(|\[|[-+]?\.?\d)")


def _commented_printout(program: _Program, statement: ast.stmt, following: int) -> Span | None:
    """``probs = F.softmax(logits / 2.0, dim=-1)`` then ``# tensor([0.5060, 0.3122, 0.1818])``:
    the comment is the statement's printout, claimed for the name it assigns (or for the
    expression it evaluates), as a session's output is.  None when no such comment follows."""
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        node: ast.expr = statement.targets[0]  # the name, now bound to its definition
    elif isinstance(statement, ast.Expr) and not isinstance(statement.value, ast.Constant):
        node = statement.value
    else:
        return None
    text = program.piece.text
    end = program.bounds(statement)[1]
    gap = text[end:following]
    match = _COMMENT_PRINTOUT.search(gap)
    if match is None or text[end : end + match.start()].strip(" \t\n"):
        return None  # no comment, or code (another statement's text) before it
    start = end + match.end()
    program.printouts.add(end + match.start())
    stop = text.find("\n", start)
    stop = len(text) if stop < 0 or stop > following else stop
    numbers = _PRINT_NUMBER.findall(text, start, stop)
    if any("." in n or "e" in n for n in numbers) and any(n.lstrip("+-").isdigit() for n in numbers):
        return None  # "# [[0, 0.5, 0.5], …]": typed by hand, its integers rounded as loosely as its decimals
    printout = _printout(program.piece, start, stop)
    shown = _shown(program, node, program.piece.source_offset(program.bounds(statement)[0]))
    if printout is None or shown is None:
        return None
    return _claim(shown, printout)  # as print(name) would show it


def _shown(program: _Program, node: ast.expr, at: int) -> Span | None:
    """What a printout of ``node`` claims: the expression, and for a name its definition too
    (``print(out)`` shows ``out = weights @ V``, with the weights as printed; a definition that
    cannot be read leaves the name alone); None when the expression cannot be read."""
    out = Builder()
    try:
        program.write(node, out)
    except (_Unknown, RecursionError):
        return None
    owner, definition = (
        program.assigned.get(node.id, (None, None)) if isinstance(node, ast.Name) else (None, None)
    )
    if definition is not None:
        try:
            owner.write(definition, Builder())  # type: ignore[union-attr]  (a probe: readable?)
            out.put(" = ", at)
            owner.write(definition, out)  # type: ignore[union-attr]
        except (_Unknown, RecursionError):
            pass  # pe = sinusoidal_pe(...): printed by its name alone
    return out.build(True, "code")


def _forget(program: _Program, names: list[str], at: int) -> list[Span]:
    spans = []
    for name in names:
        program.assigned.pop(name, None)  # print(res) after res += …: no longer its first definition
        builder = Builder()
        builder.put(_name_text(name) + r" = \text{?}", at)
        spans.append(builder.build(True, "code", frozenset({"tentative", "forget"})))
    return spans


def _chained(program: _Program, statement: ast.Assign, at: int) -> list[Span]:
    """``Q = K = V = np.array(...)``, ``q0 = x[:, :2] = [[1.0, 0.5], …]``: Python binds every
    target to the value, and a worked example means the same, each target equal to it; the
    names are bound to it (one chain, so each literal is read once), and a target that is no
    name (a slice, whose value a reader cannot follow) is left out of the chain, not forgotten."""
    names = [t for t in statement.targets if isinstance(t, ast.Name)]
    for name in names:
        program.assigned[name.id] = (program, statement.value)
    if not names:
        return _forget(program, _targets(statement), at)
    out = Builder()
    for name in names:
        out.put(_name_text(name.id) + " = ", program.piece.source_offset(program.bounds(name)[0]))
    try:
        program.write(statement.value, out)
    except (_Unknown, RecursionError):
        return _forget(program, [n.id for n in names], at)
    return [out.build(True, "code", frozenset({"tentative"}))]


def _statement(  # noqa: PLR0915 - one branch per kind of statement
    program: _Program, statement: ast.stmt, context: CodeContext, *, interactive: bool
) -> list[Span]:
    at = program.piece.source_offset(program.bounds(statement)[0])
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if (
            isinstance(target, ast.Tuple)
            and isinstance(statement.value, ast.Tuple)
            and len(target.elts) == len(statement.value.elts)
        ):
            pairs = list(zip(target.elts, statement.value.elts, strict=True))
        else:
            pairs = [(target, statement.value)]
        spans: list[Span] = []
        for name_node, value in pairs:
            if isinstance(name_node, ast.Name):
                program.assigned[name_node.id] = (program, value)  # positions belong to its own program
            kind = _mask_kind(value)
            if isinstance(name_node, ast.Name) and kind:
                program.masks[name_node.id] = kind
                continue
            if not isinstance(name_node, ast.Name):
                spans.extend(_forget(program, _targets(name_node), at))
                continue
            out = Builder()
            out.put(
                _name_text(name_node.id) + " = ", program.piece.source_offset(program.bounds(name_node)[0])
            )
            try:
                program.write(value, out)
            except (_Unknown, RecursionError):
                spans.extend(_forget(program, [name_node.id], at))
                continue
            spans.append(out.build(True, "code", frozenset({"tentative"})))
        return spans
    if isinstance(statement, ast.Assign) and len(statement.targets) > 1:
        return _chained(program, statement, at)
    if (
        isinstance(statement, ast.AugAssign)
        and isinstance(statement.op, ast.Div)
        and isinstance(statement.target, ast.Name)
        and isinstance(statement.value, ast.Call)
        and _call_name(statement.value) == "sum"
        and isinstance(statement.value.func, ast.Attribute)
        and isinstance(statement.value.func.value, ast.Name)
        and statement.value.func.value.id == statement.target.id
        and _row_sum(statement.value)
    ):
        owner, earlier = program.assigned.get(statement.target.id, (None, None))
        if isinstance(earlier, ast.Call) and _call_name(earlier) == "exp" and len(earlier.args) == 1:
            # w = np.exp(E); w /= w.sum(axis=1, keepdims=True): w = softmax(E)
            out = Builder().put(_name_text(statement.target.id) + r" = \text{softmax}(", at)
            try:
                owner.write(earlier.args[0], out)  # type: ignore[union-attr]
            except (_Unknown, RecursionError):
                return _forget(program, [statement.target.id], at)
            out.put(")", at)
            func = ast.copy_location(ast.Name(id="softmax", ctx=ast.Load()), earlier)
            softmax = ast.copy_location(ast.Call(func=func, args=[earlier.args[0]], keywords=[]), earlier)
            program.assigned[statement.target.id] = (owner, softmax)  # print(w) shows softmax(E) now
            return [out.build(True, "code", frozenset({"tentative"}))]
    if isinstance(statement, ast.Expr):
        value = statement.value
        printed = (
            value.args if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "print" else None
        )
        if printed is None and interactive and not isinstance(value, ast.Call):
            printed = [value]
        for arg in printed or []:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                continue  # a label: print("weights:", weights)
            shown = _shown(program, _unrounded(arg), at)  # print(np.round(pe, 6)) shows pe
            if shown is None:  # printed, but not readable: its printout is not tied
                shown = Builder().put(r"\text{?}", at).build(True, "code")
            context.pending.append(shown)
        return []
    if isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Pass)):
        return []
    if isinstance(statement, ast.With):
        spans = []
        for inner in statement.body:
            spans.extend(_statement(program, inner, context, interactive=interactive))
        return spans
    return _forget(program, _targets(statement), at)
