"""Explain a document: what each printed block of numbers *is*, found by shape and value.

The readers recognise how numbers are written; this module asks of each printed block
what it is.  It takes the document's inputs (the blocks the readers found given), builds
the stage graph of the computation they start (:data:`symattn.registry.GRAPHS`, one declaration per node),
and identifies every other printed block with a node of that graph: a stage, one of its
rows, or its transpose, under each convention the document could be using (the graph's parameters,
the role of each input).  Evidence is counted in printed digits: a matched 0.4683 is four
digits of evidence, a matched 0 or 1 none.  The hypothesis that explains the most digits
is kept; names near a block (``keys =``, ``W_Q``) are priors that break ties, never switches.

A block identified with a node is judged against it in the two worlds of
:mod:`symattn.verify.claims`: the truth, and the document's own printed upstream blocks
taken as printed (world a).  A number is wrong only when it is wrong under every hypothesis
that explains the document nearly as well as the best, and only for blocks whose
identification the digits carry.

It runs in the parent process after the readers' judgements (no SymPy: fractions and
python-flint arb balls), and only decides numbers the readers left unread or unverified;
it never changes a verdict they reached.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symattn import kits
from symattn.registry import ATTENTION_GRAPH as ATTENTION
from symattn.registry import GRAPHS, Graph, GraphNode
from symattn.registry import POSITIONS_GRAPH as POSITIONS
from symattn.registry import VOCABULARY_GRAPH as VOCABULARY
from symattn.rounding import round_half_away
from symattn.verify.chain import _float_score, chain
from symattn.verify.finding import SEED_DIGITS, Finding, Kind, Seeds, Status
from symattn.verify.readers.text import side_by_side
from symattn.verify.words import NODE_WORDS, ROLE_WORDS, not_computed, stated_values

__all__ = ["MAX_HYPOTHESES", "Block", "explain", "printed_blocks"]

#: Most role-and-convention hypotheses tried for one document (counted, then cut).
MAX_HYPOTHESES = 48
#: Most printed blocks read from one document.
MAX_BLOCKS = 300
#: Given blocks tried as X, and how many given blocks after X are tried as its weights (at most
#: 6 * 5 * 4 orders each): the hypotheses are bounded before any is built.
MAX_ROLE_BLOCKS = 12
_WEIGHT_WINDOW = 6
#: Most cells of one printed block.
MAX_CELLS = 400
#: Digits of evidence a block needs before it is identified with a node.
MIN_EVIDENCE = 4
#: Share of a block's decided digits that must match its node.
MIN_SHARE = Fraction(3, 5)
#: A hypothesis explains the document "nearly as well" as the best within this share.
NEAR_BEST = Fraction(9, 10)
#: Precision (bits) of the balls; a rounding they cannot decide is not judged.
_PREC = 192

_NUMBER = re.compile(r"[-\u2212]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_IDENTIFIER = re.compile(r"(?<![\\\w])[A-Za-z]\w*")
_CAPITAL = re.compile(r"[A-Z](?:_\{?[A-Za-z0-9]{1,8}\}?)?")
#: A REPL's echo of what it prints next: ``>>> A``, ``>>> A.round(4)``, ``>>> np.round(A, 4)``.
_ECHOED = re.compile(r"\s*>>>\s*(?:print\(\s*)?(?:(?:np|torch)\.round\(\s*)?([A-Za-z_]\w*)")
_ASSIGNED = re.compile(r"\s*([A-Za-z_]\w*)\s*=(?!=)")
#: What makes a block an operand of an operation written out: an operator, or a matrix next to it.
_OPERATOR_AFTER = re.compile(r"(?:[-+*/@\u00d7\u00b7\u2212\u2299]|\\(?:cdot|times|odot|circ|begin\b)|\^)")
_OPERATOR_BEFORE = re.compile(r"(?:[-+*/@\u00d7\u00b7\u2212\u2299]|\\(?:cdot|times|odot|circ)|\\end\{\w+\})$")


#: An operation on the left of "=": the statement is a formula, not a name (``Q × K^T =``).
_FORMULA_LEFT = re.compile(r"[A-Za-z0-9_}]\s*(?:[\u00d7\u00b7*@]|\\times\b|\\cdot\b)\s*[A-Za-z\\]")
#: The head of a statement whose left side is a formula (no name is one).
_FORMULA_HEAD = "(formula)"
#: A row of a matrix drawn between bars in plain text: ``| 0.97  0.67  0.25 |`` (numbers only).
_BAR_ROW = re.compile(r"\|((?:[ \t]+[-\u2212]?(?:\d+\.\d*|\.\d+|\d+))+)[ \t]+\|")


#: A definition written in code before a list: ``x = [``, ``W1 = np.array([``, ``>>> v = torch.tensor([``.
_TYPED = re.compile(
    r"\s*(?:>>>\s*)?[A-Za-z_][\w.]*\s*=\s*(?:(?:np|numpy|torch|tf|jnp)\.\w+\(\s*|(?:tensor|array)\(\s*)?"
)


def _typed(text: str, start: int, end: int) -> bool:
    match = _TYPED.match(text, start, end)
    return match is not None and match.end() == end


_SYMBOL_AFTER = re.compile(r"[A-Za-z]|\\(?:mathbf|boldsymbol|operatorname|mathrm|mathit)\b")
_ONLY_BEFORE_A_ROW = re.compile(r"[\s\\`\[(]*")
#: A row of a pipe table: cells between pipes, the outer pipes optional (GFM), so a row is any
#: line with a pipe in it; it is a table only under a header with a rule line below it.
#: Where a vector may open: a bracket, or a parenthesis (a tuple, ``(0.92, 0.43)``).
_OPENING = re.compile(r"[\[(]")
_TABLE_ROW = re.compile(r"[^\n]*(?<!\\)\|")
#: ``mean=0.25``, ``std: 0.364``: a number after its name on a line of such pairs (a per-token
#: printout, ``"Hello": mean=0.25, std=0.364``); the name is a word, never a number.
_KEYED = re.compile(
    r"(?<![\w.])([A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff]*)\s*[=:：]\s*(" + _NUMBER.pattern + r")(?![\w.])"
)
_TABLE_RULE = re.compile(r"\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[tuple[int, str]]:
    """The cells of a pipe-table row, each with its offset in the line (escaped pipes kept; a
    row without its outer pipes, ``a | b``, has them where the line starts and ends)."""
    pipes = [m.start() for m in re.finditer(r"(?<!\\)\|", line)]
    if not pipes:
        return []
    if line[: pipes[0]].strip():
        pipes.insert(0, -1)
    if line[pipes[-1] + 1 :].strip():
        pipes.append(len(line))
    return [(a + 1, line[a + 1 : b]) for a, b in itertools.pairwise(pipes)]


_NAME_BEFORE = re.compile(r"([A-Za-z\\][\w\\{}^']*)\s*(?:=|:|\u2248|\\approx)\s*(?:#\s*)?$")


# --- printed blocks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lit:
    """One printed number: its text, place, exact value and places (None: an integer)."""

    text: str
    line: int
    column: int
    value: Fraction
    places: int | None
    infinite: int = 0  # -1 for a masked score printed as -inf (its value is then 0: never read)

    @functools.cached_property
    def weight(self) -> int:
        """Digits of evidence in a matched literal: its significant digits; 0, ±1 and ±inf carry none."""
        if self.infinite or self.value in (0, 1, -1):
            return 0
        digits = (
            self.text.lstrip("-\u2212+").rstrip("%").split("e")[0].split("E")[0].replace(".", "").lstrip("0")
        )
        return len(digits)

    @functools.cached_property
    def approx(self) -> float:
        if self.infinite:
            return float("inf") * self.infinite
        return self.value.numerator / self.value.denominator


@dataclass
class Block:
    """A printed vector or matrix: rows of literals, and the name written before it."""

    rows: list[list[Lit]]
    line: int
    name: str = ""
    statement: frozenset[str] = frozenset()  # the names written before it in its statement
    head: str = ""  # the name the statement assigns (before its first "=")
    operand: bool = False  # an operand of an operation written on its line (``[..] + [..]``, ``AB``)
    typed: bool = False  # written as a definition in code (``x = np.array([...])``), not a printout
    parts: tuple[
        Block, ...
    ] = ()  # the printed vectors a stacked block is made of (``x1 = [..]``, ``x2 = [..]``)
    column: bool = False  # a column of a pipe table, read as one vector
    truncated: bool = (
        False  # each row ends in "..." (``[0.841, 0.540, ...]``): the first cells of a longer row
    )

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    def cells(self) -> list[Lit]:
        return [lit for row in self.rows for lit in row]

    def printed(self) -> tuple[Block, ...]:
        """The blocks as printed: a stacked block's vectors, or the block itself."""
        return self.parts or (self,)


#: Lines between two vectors printed one under the other as rows of one table.
_STACK_GAP = 2


def _stacks(inputs: list[Block]) -> list[tuple[int, Block]]:
    """Each run of two or more vectors of one width printed one under another, at most
    :data:`_STACK_GAP` lines apart (a token's embedding each: ``x1 = [1, 0]``, ``x2 = [0,
    1]``), stacked as the rows of one matrix, with the index of the run's last vector."""
    out = []
    start = 0
    for end in range(1, len(inputs) + 1):
        if (
            end < len(inputs)
            and inputs[end].shape == inputs[start].shape
            and inputs[end].truncated == inputs[start].truncated
            and inputs[start].shape[0] == 1
            and inputs[end].line - inputs[end - 1].line <= _STACK_GAP
        ):
            continue
        if end - start >= 2 and inputs[start].shape[0] == 1:
            run = tuple(inputs[start:end])
            stacked = Block([b.rows[0] for b in run], run[0].line, parts=run, truncated=run[0].truncated)
            out.append((end - 1, stacked))
        start = end
    return out


_INDEX = re.compile(r"(?:_\{?\d+\}?|[\d\u2080-\u2089]+)$")


def _grid_columns(inputs: list[Block]) -> list[Block]:
    """The columns of a grid of vectors: consecutive lines (at most :data:`_STACK_GAP` apart)
    that each print the same number (two or more) of vectors of one width, one per token
    (``Q₁ = [..], K₁ = [..], V₁ = [..]`` on the first line, ``Q₂ = …`` on the next): the j-th
    vector of every line stacked as the rows of one matrix, named by the stem its parts share."""
    lines: list[list[Block]] = []
    for block in inputs:
        if block.shape[0] != 1:
            lines.append([])
        elif lines and lines[-1] and lines[-1][0].line == block.line:
            lines[-1].append(block)
        else:
            lines.append([block])
    out = []
    start = 0
    for end in range(1, len(lines) + 1):
        first = lines[start]
        if (
            end < len(lines)
            and len(first) >= 2
            and [b.shape for b in lines[end]] == [b.shape for b in first]
            and lines[end][0].line - lines[end - 1][0].line <= _STACK_GAP
        ):
            continue
        run = lines[start:end]
        if len(run) >= 2 and len(first) >= 2:
            for j in range(len(first)):
                parts = tuple(line[j] for line in run)
                stems = {_INDEX.sub("", p.name) for p in parts}
                name = stems.pop() if len(stems) == 1 else ""
                out.append(Block([p.rows[0] for p in parts], parts[0].line, name=name, parts=parts))
        start = end
    return out


def _table_matrices(blocks: list[Block]) -> list[Block]:
    """Each pipe table's columns of numbers side by side, as the matrix whose rows are the
    table's rows (``| 1 | 0.841 | 0.540 |``: position 1's encoding), without a first column
    that only counts the rows in integers (0, 1, 2, … or 1, 2, 3, …; ``1.0`` is a value)."""
    out = []
    start = 0
    for end in range(1, len(blocks) + 1):
        if (
            end < len(blocks)
            and blocks[start].column
            and blocks[end].column
            and blocks[end].line == blocks[start].line
            and blocks[end].shape == blocks[start].shape
        ):
            continue
        run = [b for b in blocks[start:end] if b.column]
        n = run[0].shape[1] if run else 0
        labels = run[0].rows[0] if run else []
        if all(c.text.lstrip("+").isdigit() for c in labels) and [c.value for c in labels] in (
            list(range(n)),
            list(range(1, n + 1)),
        ):
            run = run[1:]  # the row numbers
        if len(run) >= 2:
            rows = [[b.rows[0][i] for b in run] for i in range(n)]
            out.append(Block(rows, run[0].line, parts=tuple(run)))
        start = end
    return out


def _canonical(name: str) -> str:
    """``W_{Q}``, ``W_Q`` and ``W_q`` alike: one spelling of a name, for comparing names."""
    base, _, sub = name.replace("{", "").replace("}", "").partition("_")
    return f"{base}_{sub.upper()}" if sub else base


#: A masked score as printouts and LaTeX write it: ``-inf``, ``-\infty``.
_INFINITE = re.compile(r"[-\u2212]?(?:inf\b|\\infty\b|\u221e)")
#: The rest of a row left out: ``[0.841, 0.540, ...]`` (the last item of a list, before its "]").
_ELLIPSIS = re.compile(r"(?:\.\.\.|\u2026|\u22ef|\\[lc]?dots\b)(?=[\s,]*\])")
_LEFT_OUT = object()  # an ellipsis read as a list's last item


def _literal(text: str, line: int, column: int) -> Lit | None:
    if _INFINITE.fullmatch(text):
        return Lit(text, line, column, Fraction(0), None, -1 if text[0] in "-\u2212" else 1)
    clean = text.replace("\u2212", "-")
    mantissa, _, exponent = clean.lower().partition("e")
    try:
        value = Fraction(mantissa if not mantissa.endswith(".") else mantissa + "0")
    except (ValueError, ZeroDivisionError):
        return None
    places = len(mantissa.split(".")[1]) if "." in mantissa else None
    if exponent:
        if len(exponent.lstrip("+-")) > 3:
            return None
        shift = int(exponent)
        value *= Fraction(10) ** shift
        places = max(0, (places or 0) - shift) if places is not None or shift < 0 else None
    return Lit(text, line, column, value, places)


class _Scanner:
    """Bracketed number lists (``[[1, 0.5], [2, 3]]``, NumPy's ``[[0.  0.5]\\n [1.  0. ]]``, a
    ``tensor([...])``, lines of a comment) and LaTeX matrices of plain numbers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def position(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def name_before(self, offset: int) -> str:
        line_start = self.text.rfind("\n", 0, offset) + 1
        before = self.text[line_start:offset]
        before = re.sub(r"(?:np\.array|array|torch\.tensor|tensor|np\.round|round)\s*\(\s*$", "", before)
        match = _NAME_BEFORE.search(before.rstrip())
        if match is None and "#" in before:  # a result in a comment after code: the code's target
            match = _ASSIGNED.match(before.split("#")[0])
        if match is None and not before.strip():  # the name on the line before
            prev_start = self.text.rfind("\n", 0, max(0, line_start - 1)) + 1
            previous = self.text[prev_start : max(0, line_start - 1)].rstrip()
            match = _NAME_BEFORE.search(previous) or _ECHOED.match(previous)  # "A =", or ">>> A.round(4)"
        return match.group(1) if match else ""

    def operand(self, start: int, end: int, latex: bool = False) -> bool:
        """Whether the block from ``start`` to ``end`` is an operand of an operation written on
        its line: an operator or another matrix right after it, or right before it (in math,
        also a symbol right after it: ``\begin{bmatrix}..\\end{bmatrix} W_2`` is a product)."""
        after = self.text[end : end + 40]
        after = after[: after.find("\n")] if "\n" in after else after
        before = self.text[max(0, start - 40) : start]
        before = before[before.rfind("\n") + 1 :]
        after = re.sub(r"^(?:\*\*|__|`|\$|[ \t)}])+", "", after)  # emphasis, code and math marks
        before = re.sub(r"(?:\*\*|__|`|\$|[ \t({]|\\(?=$))+$", "", before)  # and a markdown escape, ``\[``
        if latex and _SYMBOL_AFTER.match(after):
            return True
        return bool(_OPERATOR_AFTER.match(after) or _OPERATOR_BEFORE.search(before))

    def statement_before(self, offset: int) -> tuple[frozenset[str], str]:
        """The names written before ``offset`` in the same statement (back to a blank line, a
        display's opening, the block before, a ``\\quad`` or the end of a sentence): code's
        identifiers, and in math each capital with its subscript (``XW_Q`` is X and W_Q)."""
        window = self.text[max(0, offset - 300) : offset].replace("...", "\u2026")  # an ellipsis ends nothing
        own_line = window[window.rfind("\n") + 1 :]
        if "=" in own_line and not own_line.lstrip().startswith("="):  # it starts on the block's line
            window = own_line
        for stop in ("\n\n", "$$", "\\[", "\\quad", ". ", "。", ";"):
            cut = window.rfind(stop)
            if cut >= 0:
                window = window[cut + len(stop) :]
        if "=" not in window:
            return frozenset(), ""
        math = re.sub(r"\\(?:begin|end)\{\w+\}|\\[A-Za-z]+", " ", window)
        names = {_canonical(m.group()) for m in _IDENTIFIER.finditer(window)}
        names |= {_canonical(m.group()) for m in _CAPITAL.finditer(math)}
        left = math.split("=")[0]
        assigned = [m.group() for m in _IDENTIFIER.finditer(left)]
        if len(assigned) >= 2 and _FORMULA_LEFT.search(left.rsplit("\n", 1)[-1]):
            return frozenset(names), _FORMULA_HEAD  # "Q × K^T =": a formula, named by its parents
        return frozenset(names), _canonical(assigned[-1]) if assigned else ""

    def lists(self) -> list[Block]:
        blocks: list[Block] = []
        text, i, n = self.text, 0, len(self.text)
        while i < n and len(blocks) < MAX_BLOCKS:
            match = _OPENING.search(text, i)
            if match is None:
                break
            j = match.start()
            parsed = self._list(j) if text[j] == "[" else self._tuple(j)
            if parsed is None:
                i = j + 1
                continue
            value, end = parsed
            nested = value and isinstance(value[0], list) and value[0] and isinstance(value[0][0], list)
            for part in value if nested else [value]:  # a batch, or heads, of matrices: one block each
                self._add_list(blocks, part, j, end)
            i = end
        return blocks

    def _add_list(self, blocks: list[Block], value: list, j: int, end: int) -> None:
        rows = value if value and isinstance(value[0], list) else [value]
        left_out = {bool(r) and r[-1] is _LEFT_OUT for r in rows if isinstance(r, list)}
        if left_out == {True}:  # every row ends in "...": the first cells of longer rows
            rows = [r[:-1] for r in rows]
        elif True in left_out:
            return  # some rows cut short, others not: no matrix
        cells = sum(len(r) for r in rows)
        if not (
            rows
            and all(isinstance(r, list) and r and all(isinstance(c, Lit) for c in r) for r in rows)
            and len({len(r) for r in rows}) == 1
            and 2 <= cells <= MAX_CELLS
        ):
            return
        first = rows[0][0]
        blocks.append(
            Block(
                rows,
                first.line,
                self.name_before(j),
                *self.statement_before(j),
                operand=self.operand(j, end),
                typed=_typed(self.text, self.text.rfind("\n", 0, j) + 1, j),
                truncated=left_out == {True},
            )
        )

    def _list(self, start: int, depth: int = 0) -> tuple[list, int] | None:
        """The list opening at ``start`` (a '['), and the offset after its ']'; None if it is
        not a list of numbers or of such lists (at most two levels)."""
        text, n = self.text, len(self.text)
        items: list = []
        i = start + 1
        while i < n:
            ch = text[i]
            if ch in " \t,":
                i += 1
            elif ch == "\n":  # a printout's next row, or a comment's next line
                i += 1
                while i < n and text[i] in " \t#":
                    i += 1
            elif ch == "#":  # a comment after a row of a list written in code
                end = text.find("\n", i)
                if end < 0:
                    return None
                i = end
            elif ch == "]":
                return items, i + 1
            elif ch == "[":
                if depth >= 2:
                    return None
                inner = self._list(i, depth + 1)
                if inner is None:
                    return None
                items.append(inner[0])
                i = inner[1]
            elif items and not isinstance(items[-1], list) and (ellipsis := _ELLIPSIS.match(text, i)):
                items.append(_LEFT_OUT)  # the last item: the next is "]"
                i = ellipsis.end()
            else:
                match = _NUMBER.match(text, i)
                if match is None or match.end() == i:
                    match = _INFINITE.match(text, i)
                if match is None or match.end() == i:
                    return None
                line, column = self.position(i)
                lit = _literal(match.group(), line, column)
                if lit is None:
                    return None
                items.append(lit)
                i = match.end()
            if i - start > 20_000:
                return None
        return None

    def _tuple(self, start: int) -> tuple[list, int] | None:
        """A vector written as a tuple, ``(0.92, 0.43, 0.57, 0.08)``: numbers and commas between
        parentheses, two numbers or more, the parenthesis not a call's or a grouping's (a word,
        a closing bracket or an exponent's mark right before it)."""
        before = self.text[start - 1] if start else " "
        if before.isalnum() or before in "_\\)]}^'\"":
            return None
        close = self.text.find(")", start, start + 2_000)
        if close < 0:
            return None
        parts = self.text[start + 1 : close].split(",")
        if len(parts) < 2:
            return None
        items: list[Lit] = []
        offset = start + 1
        for part in parts:
            stripped = part.strip()
            match = _NUMBER.fullmatch(stripped)
            if match is None:
                return None
            line, column = self.position(offset + part.index(stripped))
            lit = _literal(stripped, line, column)
            if lit is None:
                return None
            items.append(lit)
            offset += len(part) + 1
        return items, close + 1

    def table_columns(self) -> list[Block]:
        """Each column of plain numbers in a Markdown pipe table, as one vector (a table's column
        is one quantity per token: its logits, its probabilities)."""
        blocks: list[Block] = []
        lines = self.text.split("\n")
        offset = 0
        starts = []
        for line in lines:
            starts.append(offset)
            offset += len(line) + 1
        index = 0
        while index < len(lines) and len(blocks) < MAX_BLOCKS:
            if not (
                _TABLE_ROW.match(lines[index])
                and index + 1 < len(lines)
                and _TABLE_RULE.match(lines[index + 1])
            ):
                index += 1
                continue
            body = index + 2
            columns: dict[int, list[Lit | None]] = {}
            rows = 0
            while body < len(lines) and _TABLE_ROW.match(lines[body]):
                if not any(text.strip() for _, text in _cells(lines[body])):
                    break  # a row of empty cells ends the table
                for position, cell in enumerate(_cells(lines[body])):
                    lit = self._table_number(cell, starts[body])
                    columns.setdefault(position, [None] * rows).append(lit)
                rows += 1
                for column in columns.values():
                    column.extend([None] * (rows - len(column)))
                body += 1
            for column in columns.values():
                if rows >= 2 and all(c is not None for c in column) and rows <= MAX_CELLS:
                    cells = [c for c in column if c is not None]
                    blocks.append(Block([cells], cells[0].line, column=True))
            index = body
        return blocks

    def _table_number(self, cell: tuple[int, str], line_start: int) -> Lit | None:
        """The number a table cell holds alone (bold, in backticks or in $…$ allowed)."""
        start, text = cell
        stripped = text.strip()
        inner = re.fullmatch(r"(\*\*|__|`|\$)?\s*([^*_`$\s][^*_`$]*?)\s*\1", stripped)
        number = inner.group(2) if inner else stripped
        percent = number.endswith("%") and _NUMBER.fullmatch(number[:-1].rstrip()) is not None
        if not percent and not _NUMBER.fullmatch(number):
            return None
        line, column = self.position(line_start + start + text.index(number))
        if percent:  # 40.2% is 0.402, to three places
            lit = _literal(number[:-1].rstrip(), line, column)
            if lit is None or lit.infinite:
                return None
            places = (lit.places or 0) + 2
            return dataclasses.replace(lit, text=number, value=lit.value / 100, places=places)
        return _literal(number, line, column)

    def keyed_columns(self) -> list[Block]:
        """Lines one under another that each print the same names with a number after each
        (``"Hello": mean=0.25, std=0.364`` then ``",": mean=0.10, std=0.208``): one column per
        name, one number per line (a per-token statistic printed as text, not as a table)."""
        blocks: list[Block] = []
        lines = self.text.split("\n")
        run: list[list[re.Match[str]]] = []
        keys: tuple[str, ...] = ()
        for index in range(len(lines) + 1):
            found = list(_KEYED.finditer(lines[index])) if index < len(lines) else []
            names = tuple(m.group(1) for m in found)
            if found and names == keys and len(set(names)) == len(names):
                run.append(found)
                continue
            if len(run) >= 2 and len(blocks) < MAX_BLOCKS and len(run) <= MAX_CELLS:
                first_line = index - len(run) + 1
                for k, name in enumerate(keys):
                    cells = [
                        _literal(matches[k].group(2), first_line + r, matches[k].start(2) + 1)
                        for r, matches in enumerate(run)
                    ]
                    if all(c is not None and not c.infinite for c in cells):
                        blocks.append(
                            Block([[c for c in cells if c is not None]], first_line, name=name, column=True)
                        )
            run, keys = ([found], names) if found else ([], ())
        return blocks

    def bars(self) -> list[Block]:
        """Matrices drawn in plain text between bars, one row per line, the bars of each row
        at the same column (``K = | 0.8  0.3  0.1 |`` and ``    | 0.2  0.9  0.4 |`` under it)."""
        blocks: list[Block] = []
        lines = self.text.split("\n")
        index = 0
        while index < len(lines) and len(blocks) < MAX_BLOCKS:
            rows: list[list[Lit]] = []
            column = -1
            start = index
            while index < len(lines):
                match = _BAR_ROW.search(lines[index])
                if match is None or (rows and match.start() != column):
                    break
                cells = [
                    _literal(m.group(), index + 1, match.start(1) + m.start() + 1)
                    for m in _NUMBER.finditer(match.group(1))
                ]
                if len(cells) < 2 or any(c is None for c in cells) or (rows and len(cells) != len(rows[0])):
                    break
                rows.append([c for c in cells if c is not None])
                column = match.start()
                index += 1
            if not rows:
                index = start + 1
                continue
            offset = self.starts[start] + column
            if 2 <= sum(len(r) for r in rows) <= MAX_CELLS:
                blocks.append(
                    Block(
                        rows,
                        rows[0][0].line,
                        self.name_before(offset),
                        *self.statement_before(offset),
                        operand=self.operand(offset, self.starts[index - 1] + len(lines[index - 1])),
                        typed=_typed(self.text, self.starts[start], offset),
                    )
                )
        return blocks

    def latex(self) -> list[Block]:
        blocks: list[Block] = []
        pattern = re.compile(r"\\begin\{([bpvBV]?matrix|array)\}(\{[^}]*\})?(.*?)\\end\{\1\}", re.DOTALL)
        for match in pattern.finditer(self.text):
            body, offset = match.group(3), match.start(3)
            rows: list[list[Lit]] = []
            ok = True
            row_starts = [0] + [m.end() for m in re.finditer(r"\\\\", body)]
            row_ends = [m.start() for m in re.finditer(r"\\\\", body)] + [len(body)]
            for start, end in zip(row_starts, row_ends, strict=True):
                row_text = body[start:end]
                cells = []
                for cell_match in re.finditer(r"[^&]+", row_text):
                    stripped = cell_match.group().strip()
                    if not stripped:
                        continue
                    if not _NUMBER.fullmatch(stripped) and not _INFINITE.fullmatch(stripped):
                        ok = False
                        break
                    lead = len(cell_match.group()) - len(cell_match.group().lstrip())
                    line, column = self.position(offset + start + cell_match.start() + lead)
                    lit = _literal(stripped, line, column)
                    if lit is None:
                        ok = False
                        break
                    cells.append(lit)
                if not ok:
                    break
                if cells:
                    rows.append(cells)
            if (
                ok
                and rows
                and len({len(r) for r in rows}) == 1
                and 2 <= sum(len(r) for r in rows) <= MAX_CELLS
            ):
                blocks.append(
                    Block(
                        rows,
                        rows[0][0].line,
                        self.name_before(match.start()),
                        *self.statement_before(match.start()),
                        operand=self.operand(match.start(), match.end(), latex=True),
                    )
                )
            if len(blocks) >= MAX_BLOCKS:
                break
        return blocks


def printed_blocks(text: str) -> list[Block]:
    """Every printed vector or matrix of plain numbers in ``text``, in document order.

    >>> [b.shape for b in printed_blocks("keys = x @ w  # [[0, 1, 1], [4, 0, 0]]")]
    [(2, 3)]
    """
    beside: list[Block] = []
    lines = text.split("\n") if "[" in text else []
    groups = side_by_side(lines)
    if groups:  # matrices written side by side: each read from its own columns, the lines blanked
        for first, end, columns in groups[:MAX_BESIDE]:
            beside += _beside(lines[first:end], first, columns)
            lines[first:end] = [" " * len(line) for line in lines[first:end]]
        text = "\n".join(lines)
    scanner = _Scanner(text)
    blocks = (
        scanner.lists()
        + scanner.latex()
        + scanner.bars()
        + scanner.table_columns()
        + scanner.keyed_columns()
        + beside
    )
    seen: set[tuple[int, int]] = set()
    out: list[Block] = []
    for block in sorted(blocks, key=lambda b: (b.rows[0][0].line, b.rows[0][0].column)):
        places = {(c.line, c.column) for c in block.cells()}
        if places & seen:
            continue
        seen |= places
        if out and _continues(out[-1], block, scanner):
            out[-1] = dataclasses.replace(out[-1], rows=[*out[-1].rows, *block.rows])
            continue
        out.append(block)
    return out


#: Groups of matrices written side by side read from one document.
MAX_BESIDE = 20


def _beside(lines: list[str], first: int, columns: list[tuple[int, int]]) -> list[Block]:
    """The matrices of lines written side by side (``Q = [[1, 0],    K = [[1, 0],`` and the
    rows under them), each read alone from its own columns, at its place in the document."""
    out = []
    for lo, hi in columns:
        columns = "\n".join(" " * min(lo, len(line)) + line[lo:hi] for line in lines)
        for block in _Scanner(columns).lists():
            rows = [[dataclasses.replace(c, line=c.line + first) for c in row] for row in block.rows]
            out.append(dataclasses.replace(block, rows=rows, line=block.line + first))
    return out


def _row_label(before: str) -> bool:
    """Whether the text before a row's bracket is a row label (``pos2   [0.01  0.99 ...]``):
    one short token that assigns no name (no ``=``, ``:``, ``≈``)."""
    label = before.rstrip(" \t[(")
    return (
        len(label.split()) == 1
        and len(label.strip()) <= 12
        and not any(ch in label for ch in "=:\u2248|()[]")
    )


def _continues(matrix: Block, row: Block, scanner: _Scanner) -> bool:
    """A one-row block alone on the line after a block's last row, at its column, of its length
    and with no name of its own: the next row of that matrix (``W1 = [0.2, 0.1]`` and, under
    it, ``     [0.1, 0.2]``; a table's rows of vectors, after the last ``|``; rows under
    labels of their own, each after one, ``pos1 [..]`` then ``pos2 [..]``)."""
    last = matrix.rows[-1]
    first = row.rows[0][0]
    start = scanner.starts[first.line - 1]
    before = scanner.text[start : start + first.column - 1]
    top = matrix.rows[0][0]
    top_start = scanner.starts[top.line - 1]
    return (
        (
            _ONLY_BEFORE_A_ROW.fullmatch(before.rsplit("|", 1)[-1]) is not None
            or (_row_label(before) and _row_label(scanner.text[top_start : top_start + top.column - 1]))
        )
        and row.shape[0] == 1
        and len(row.rows[0]) == len(last)
        and row.rows[0][0].line == last[0].line + 1
        and row.rows[0][0].column == last[0].column
        and all(len({c.line for c in r}) == 1 for r in matrix.rows)
        and not row.name
        and not row.operand
        and not matrix.operand
        and len(matrix.rows) < MAX_CELLS // max(1, len(last))
    )


# --- values: exact rationals where they are, arb balls otherwise -----------------------------------


def _arb(value: Any) -> Any:
    from flint import arb, fmpq

    if isinstance(value, Fraction):
        return arb(fmpq(value.numerator, value.denominator))
    return value


def _rounds_to(lit: Lit, true: Any) -> bool | None:
    """Whether ``lit`` is ``true`` at its printed places; None when that cannot be decided
    (an integer printed for a value that is not one, a ball on a rounding boundary)."""
    if lit.places is None:
        if isinstance(true, Fraction):
            return true == lit.value
        return None
    scale = 10**lit.places
    if isinstance(true, Fraction):
        return Fraction(round_half_away(true * scale), scale) == lit.value
    from flint import arb

    y = true * scale
    units = (abs(y) + arb(1) / 2).floor().unique_fmpz()
    if units is None:
        return None
    sign = -1 if y < 0 else 1 if y > 0 else None
    if sign is None and int(units) != 0:
        return None
    return Fraction(int(units) * (sign or 1), scale) == lit.value


#: A printout of binary floats may be off by this much relative to the truth beyond its printed
#: rounding (float32 keeps 24 bits; a few operations lose a few more), as in claims.py.
_FLOAT_TOLERANCE = Fraction(1, 2**20)


def _within_float32(lit: Lit, true: Any) -> bool:
    """A printed binary float: the truth up to float32 rounding (never a wrong number)."""
    if lit.places is None:
        return False
    half = Fraction(1, 2 * 10**lit.places)
    if isinstance(true, Fraction):
        return abs(lit.value - true) <= half + _FLOAT_TOLERANCE * max(1, abs(true))
    bound = _arb(half) + _arb(_FLOAT_TOLERANCE) * max(_arb(1), abs(true))
    return bool(abs(_arb(lit.value) - true) < bound)


def _truncates(lit: Lit, true: Any) -> bool:
    """The literal is the true value cut toward zero at its places (0.1570 for 0.15706)."""
    if lit.places is None or lit.value == 0:
        return False
    scale = 10**lit.places
    if isinstance(true, Fraction):
        cut = int(abs(true) * scale)
        return Fraction(cut if true > 0 else -cut, scale) == lit.value
    units = (abs(true) * scale).floor().unique_fmpz()
    return units is not None and Fraction(int(units) * (1 if lit.value > 0 else -1), scale) == lit.value


def _weight(lit: Lit) -> int:
    """Digits of evidence in a matched literal (:attr:`Lit.weight`)."""
    return lit.weight


# --- the stage graph ----------------------------------------------------------------------------

Matrix = list[list[Any]]


_transpose = kits.transpose


def _node(name: str) -> GraphNode:
    return next(n for g in GRAPHS for n in g.nodes if n.name == name)


def _compute(graph: Graph, values: dict[str, Any], skip: Any = ()) -> None:
    """Each node of ``graph`` not in ``skip`` computed into ``values`` (exact, or balls)."""
    for node in graph.nodes:
        if node.name not in skip and all(p in values for p in node.parents):  # (no V: no output)
            values[node.name] = node.compute(kits.EXACT, *(values[p] for p in node.parents))


def _is_exact(m: Matrix) -> bool:
    return all(isinstance(x, Fraction) for row in m for x in row)


@dataclass
class Hypothesis:
    """The roles of the document's given blocks and a convention: X and the three weights,
    or Q, K and V given as they are; and a value of each of the graph's parameters."""

    inputs: dict[str, Matrix]
    roots: tuple[Block, ...]
    conventions: dict[str, tuple[str, Any]]  # parameter: (label, value)
    rank: int = 0  # how many parameters are off their default (tried after those that are not)
    truth: dict[str, Matrix] = field(default_factory=dict)
    #: what a formula need not name: the parameters, and the nodes that are zero (no bias)
    unnamed: frozenset[str] = frozenset()

    def compute(self) -> None:
        values: dict[str, Any] = dict(self.inputs)
        values.update((name, value) for name, (_label, value) in self.conventions.items())
        _compute(ATTENTION, values, self.inputs)
        self.truth = {n.name: values[n.name] for n in ATTENTION.nodes if n.name in values}
        self.unnamed = frozenset(self.conventions) | {
            n
            for n, m in self.truth.items()
            if all(isinstance(x, Fraction) and x == 0 for row in m for x in row)
        }

    def describe(self) -> str:
        return _describe(ATTENTION, self.conventions)


def _describe(graph: Graph, conventions: dict[str, tuple[str, Any]]) -> str:
    """The conventions as a verdict names them (``scale 1/sqrt(d_k)``, ``T = 0.5``)."""
    shown = []
    for parameter in graph.parameters:
        label = conventions[parameter.name][0]
        if label != parameter.quiet:
            shown.append(parameter.shown.format(name=parameter.name, label=label))
    return ", ".join(shown)


def _conventions(
    graph: Graph, inputs: dict[str, Matrix], stated: dict[str, list[Fraction]], *, lazy: bool = False
) -> list[Any]:
    """Every combination of the graph's parameter values (each parameter's own, then the ones
    the text states), with how many are off their default; a lazy parameter at its default
    only, or (``lazy``) at its other values only."""
    options = []
    for parameter in graph.parameters:
        values = list(parameter.values(inputs))
        known = [v for _l, v in values if isinstance(v, Fraction)]  # a ball has no hash, nor equality
        values += [(_plain_number(v), v) for v in stated.get(parameter.name, ()) if v not in known]
        if parameter.lazy:
            values = values[1:] if lazy else values[:1]
        options.append([(parameter.name, value, rank > 0 or lazy) for rank, value in enumerate(values)])
    out = []
    for combination in itertools.product(*options):
        out.append(({name: value for name, value, _off in combination}, sum(off for *_x, off in combination)))
    return out


def _values(block: Block) -> Matrix:
    return [[c.value for c in row] for row in block.rows]


def _hypotheses(
    inputs: list[Block], stated: dict[str, list[Fraction]] | None = None
) -> tuple[list[Hypothesis], int]:
    """Every assignment of the given blocks to roles (X and the three weights, each used as
    printed or transposed; or Q, K and V themselves), with each value of the graph's
    parameters (``stated``: values the text gives them); the count tried, and the list cut at
    :data:`MAX_HYPOTHESES`, the defaults of every parameter first."""
    # an all-zero block takes no role: as keys or values it makes every product zero, and so
    # "explains" any printed 0 (a cache's empty slots, ``block 1 = [[0,0],[0,0]]``)
    inputs = [b for b in inputs if any(lit.value or lit.infinite for lit in b.cells())]
    roles: list[tuple[dict[str, Matrix], tuple[Block, ...]]] = []
    transposed: list[tuple[dict[str, Matrix], tuple[Block, ...]]] = []  # tried after the others
    stacked = dict(_stacks(inputs[:MAX_ROLE_BLOCKS]))  # the tokens printed one vector each: X
    xs = [
        (index, x)
        for index, block in enumerate(inputs[:MAX_ROLE_BLOCKS])
        for x in ((block,) if index not in stacked else (block, stacked[index]))
    ]
    for index, x in xs:
        d = x.shape[1]
        nearby = inputs[index + 1 : index + 1 + _WEIGHT_WINDOW]  # the weights follow the input they act on
        options = [(_values(b), b) for b in nearby if b.shape[0] == d]
        options += [(_transpose(_values(b)), b) for b in nearby if b.shape[1] == d != b.shape[0]]
        triples = list(itertools.permutations(options, 3)) if len(options) >= 3 else []
        triples += [(o, o, o) for o in options] if len(options) < 3 else []
        for (wq, bq), (wk, bk), (wv, bv) in triples:
            if len(wq[0]) == len(wk[0]):
                roles.append(({"X": _values(x), "W_Q": wq, "W_K": wk, "W_V": wv}, (x, bq, bk, bv)))
            if all(len(w) == len(w[0]) for w in (wq, wk, wv)):  # square weights: X W or X Wᵀ (X @ W.T)
                flipped = {"W_Q": _transpose(wq), "W_K": _transpose(wk), "W_V": _transpose(wv)}
                transposed.append(({"X": _values(x), **flipped}, (x, bq, bk, bv)))
        roles.append(({"Q": _values(x), "K": _values(x), "V": _values(x)}, (x,)))  # no weights: Q = K = V = X
    columns = _grid_columns(inputs[: MAX_ROLE_BLOCKS * 2])
    for first in range(0, len(columns) - 2):  # Q, K and V of each token on one line, a line a token
        q, k, v = columns[first : first + 3]
        if q.shape[1] == k.shape[1] and k.shape[0] == v.shape[0]:
            roles.append(({"Q": _values(q), "K": _values(k), "V": _values(v)}, (q, k, v)))
    triples = list(itertools.permutations(inputs[:4], 3))  # Q, K and V given as they are
    triples += [tuple(inputs[i : i + 3]) for i in range(1, MAX_ROLE_BLOCKS) if len(inputs[i : i + 3]) == 3]
    triples += [(qk, qk, v) for qk, v in itertools.permutations(inputs[:4], 2)]  # Q = K = [..], V = [..]
    paired = set()
    for q, k, v in triples:  # (or three given blocks in a row, later in the document)
        if q.shape[1] == k.shape[1] and k.shape[0] == v.shape[0]:
            roles.append(({"Q": _values(q), "K": _values(k), "V": _values(v)}, (q, k, v)))
            paired.add((id(q), id(k)))
    for q, k in itertools.permutations(inputs[:4], 2):  # Q and K given, V never printed: the scores
        if q.shape[1] == k.shape[1] and (id(q), id(k)) not in paired:
            roles.append(({"Q": _values(q), "K": _values(k)}, (q, k)))
    out: list[Hypothesis] = []
    tried = 0
    seen: set[Any] = set()
    for values, roots in roles + transposed:
        key = tuple((k, tuple(map(tuple, v))) for k, v in sorted(values.items()))
        if key in seen:  # the same matrices in the same roles: one hypothesis, whichever block gave them
            continue
        seen.add(key)
        for conventions, rank in _conventions(ATTENTION, values, stated or {}):
            tried += 1
            out.append(Hypothesis(values, roots, conventions, rank))
    # default conventions first, then the given blocks' own names order the roles; the count is
    # cut, and said
    out.sort(key=lambda h: (h.rank > 0, -_role_prior(h), h.rank))
    return out[:MAX_HYPOTHESES], tried


# --- identification -----------------------------------------------------------------------------


@dataclass
class Match:
    """A block identified with a node (a stage, one of its rows, or its transpose)."""

    block: Block
    stage: str
    rows: tuple[int, ...]  # the node's rows the block's rows are (its own indices)
    transposed: bool
    evidence: int
    share: Fraction
    declared: bool = False
    by_name: bool = False  # a block under the node's own name, equal to it in every cell

    def target(self, values: Matrix) -> Matrix:
        m = _transpose(values) if self.transposed else values
        return [m[r] for r in self.rows]


def _candidates(
    block: Block, truth: dict[str, Matrix], roots: Any = ()
) -> list[tuple[str, tuple[int, ...], bool, Matrix]]:
    """The nodes ``block`` could be by its shape: computed stages (a given one restated is no
    evidence of anything), whole, one row, or transposed."""
    r, c = block.shape
    out = []
    for stage in ATTENTION.nodes:
        if stage.name in roots or stage.name not in truth:
            continue
        m = truth[stage.name]
        for transposed in (False, True):
            node = _transpose(m) if transposed else m
            if transposed and len(m) == len(m[0]):
                continue  # a square matrix's transpose is read as a matrix with other names
            if block.truncated:  # the first cells of longer rows
                if len(node[0]) <= c:
                    continue
                node = [row[:c] for row in node]
            if len(node[0]) != c:
                continue
            if len(node) == r:
                out.append((stage.name, tuple(range(r)), transposed, node))
            elif r == 1:
                out.extend((stage.name, (i,), transposed, [node[i]]) for i in range(len(node)))
    return out


def _near(lit: Lit, true: Any) -> bool:
    """Within two units of the literal's last place: a last digit off is still evidence of
    what the block is (0.1570 printed for 0.15706), though not a right value."""
    if lit.places is None:
        return False
    unit = Fraction(2, 10**lit.places)
    if isinstance(true, Fraction):
        return abs(true - lit.value) <= unit
    gap = abs(true - _arb(lit.value))
    return bool(gap < _arb(unit))


def _far(block: Block, truth: Matrix, in_a: Matrix, slips: frozenset[tuple[int, int]] = frozenset()) -> int:
    """Cells of ``block`` that neither world explains, not even to the last digit (a cell the
    readers' arithmetic already found wrong, ``slips``, is explained: it is that slip)."""
    far = 0
    for lit, true, a in zip(
        block.cells(), (x for r in truth for x in r), (x for r in in_a for x in r), strict=True
    ):
        if _masked(lit, true) or _masked(lit, a) or (lit.line, lit.column) in slips:
            continue
        if _rounds_to(lit, true) is False and not _near(lit, true) and not _rounds_to(lit, a):
            far += 1
    return far


def _missed(
    block: Block,
    match: Any,
    truth: Matrix,
    in_a: Matrix,
    hyp: Hypothesis,
    *,
    slips: frozenset[tuple[int, int]],
    parent_shown: bool = False,
) -> str:
    """Why a block identified with a stage is not judged as it, or "": identified by some
    digits but far off in more than a quarter of its cells (more likely something else), or
    named by its formula but far off in more than half under a hypothesis whose inputs are
    not all the blocks the document names as them (more likely the hypothesis has the wrong
    inputs than the document is wrong nearly everywhere)."""
    far = _far(block, truth, in_a, slips)
    # every input is the block the document names so, or the block's parent was identified by its
    # own digits just before it (the inputs are shown right, whatever their names)
    named = _role_prior(hyp) == 2 * len(hyp.roots) or parent_shown
    if not match.declared and far > max(1, len(block.cells()) // 4):
        return f"closest to {match.stage}, but far off in more than a quarter of its cells"
    if match.declared and not named and far > len(block.cells()) // 2:
        return f"declared as {match.stage}, but far off in more than half of its cells"
    return ""


def _masked(lit: Lit, true: Any) -> bool:
    """A cell printed as -inf, or a masked score (chain.py's MASKED): neither is judged."""
    return bool(lit.infinite) or not (isinstance(true, Fraction) or hasattr(true, "mid"))


def _clearly_off(lit: Lit, true: Any) -> bool:
    """More than three units of the literal's last place from ``true`` (by floats, with room
    to spare): neither a match nor a near miss."""
    approx = float(true) if isinstance(true, Fraction) else float(true.mid())
    unit = 10.0 ** -(lit.places or 0)
    return abs(lit.approx - approx) > 3 * unit + 1e-9 * abs(approx)


def _score(block: Block, target: Matrix) -> tuple[int, int]:
    """Digits of ``block`` that ``target`` explains (a near miss counts one digit less), and
    the digits it decides (a near miss one digit less too: it is explained, up to its last
    digit, so it takes nothing from the share of the block's digits the node explains)."""
    matched = decided = 0
    for lit, true in zip(block.cells(), (x for row in target for x in row), strict=True):
        if _masked(lit, true):
            continue
        weight = _weight(lit)
        if _clearly_off(lit, true):  # most candidates are far off: decided without a ball
            decided += weight if lit.places is not None or isinstance(true, Fraction) else 0
            continue
        verdict = _rounds_to(lit, true)
        if verdict is None:
            continue
        decided += weight
        if verdict:
            matched += weight
        elif weight > 2 and _near(lit, true):
            matched += weight - 1
            decided -= 1
    return matched, decided


def _prior(block: Block, stage: str) -> int:
    name = _plain(block.name)
    if not name:
        return 0
    words = NODE_WORDS[stage]
    return 2 if any(name == w or (len(w) > 2 and w in name) for w in words) else 0


def _identify(
    block: Block, truth: dict[str, Matrix], declared: frozenset[str] = frozenset(), roots: Any = ()
) -> Match | None:
    """The node ``block`` is, by its digits (and the name before it, a prior); a stage whose
    parents the block's own statement names (``Q = XW_Q = [...]``) is declared: it needs no
    share of matching digits, since the formula says what the block is."""
    best: Match | None = None
    if any(c.infinite for c in block.cells()):
        return None  # masked scores: the chain of operations reads them (chain.py)
    for stage, rows, transposed, target in _candidates(block, truth, roots):
        if len(rows) != len(truth[stage]) and stage in declared:
            continue  # a declared stage is the whole matrix, not one row of it
        matched, decided = _score(block, target)
        if not decided and stage not in declared:
            continue
        share = Fraction(matched, decided) if decided else Fraction(0)
        evidence = matched + _prior(block, stage) + (_DECLARED if stage in declared else 0)
        if stage in declared:
            share = max(share, MIN_SHARE)
        if best is None or (evidence, share) > (best.evidence, best.share):
            best = Match(block, stage, rows, transposed, evidence, share, stage in declared)
    if best is None or best.evidence < MIN_EVIDENCE or best.share < MIN_SHARE:
        return None
    return best


#: Evidence of a formula that names a stage's parents right before the block.
_DECLARED = 6
#: The evidence and the share of its digits a node must explain before a block the readers
#: read as given is taken as that node's printout (the chain asks the same).
GIVEN_EVIDENCE, GIVEN_SHARE = 2 * MIN_EVIDENCE, Fraction(4, 5)


def _plain(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())


def _role_prior(hyp: Hypothesis) -> int:
    """Two digits of evidence for each given block whose name is its role's."""
    return sum(
        2 for role, root in zip(hyp.inputs, hyp.roots, strict=False) if _plain(root.name) in ROLE_WORDS[role]
    )


def _misnamed(hyp: Hypothesis) -> bool:
    """Whether a given block has a role its own name gives another role or a computed node
    (the block named ``V2`` as Q, ``Scaled`` as K): names are priors, and a hypothesis against
    them is not sure enough to call a number wrong."""
    if len(hyp.roots) < len(hyp.inputs):
        return False  # one block is Q, K and V (self-attention, whatever it is called)
    pairs = list(zip(hyp.inputs, hyp.roots, strict=False))
    for role, root in pairs:
        name = _plain(root.name)
        if not name or name in ROLE_WORDS[role] or sum(r is root for _, r in pairs) > 1:
            continue
        # X itself may be Q, K or V (no weights): its name is no other role's
        others = [words for other, words in ROLE_WORDS.items() if other not in (role, "X")]
        others += [words for node, words in NODE_WORDS.items() if node != role]
        if any(name in words for words in others):
            return True
    return False


def _names(hyp: Hypothesis) -> dict[str, set[str]]:
    """The names a statement may use for each role and stage: a computed stage's symbol, and a
    given block's own name (a role the hypothesis gave a block is named as the document named
    that block, so a formula declares a stage only from blocks it really names)."""
    names = {role: {role} for role in (*ROLE_WORDS, *(n.name for n in ATTENTION.nodes))}
    for role, root in zip(hyp.inputs, hyp.roots, strict=False):
        names[role] = {_canonical(root.name)} if root.name else set()
    return names


def _declared(block: Block, hyp: Hypothesis) -> frozenset[str]:
    """The stages whose every parent the block's statement names (``Q = XW_Q =``: Q, from X and
    W_Q; ``QK^T / √2 =``: the scaled scores, from Q and K)."""
    names = _names(hyp)
    own = {stage.name: names[stage.name] for stage in ATTENTION.nodes}
    unnamed = hyp.unnamed

    def mentioned(parent: str) -> bool:
        if names.get(parent, set()) & block.statement:
            return True
        stage = next((s for s in ATTENTION.nodes if s.name == parent), None)  # S is "QK^T": its parents
        return (
            stage is not None
            and stage.name not in hyp.inputs
            and all(
                own.get(p, names.get(p, set())) & block.statement for p in stage.parents if p not in unnamed
            )
        )

    return frozenset(
        stage.name
        for stage in ATTENTION.nodes
        if stage.name not in hyp.inputs
        and (
            block.head in own[stage.name]
            or _plain(block.head) in NODE_WORDS[stage.name]
            or block.head == _FORMULA_HEAD  # a formula, not a name: its parents say what it is
        )
        and all(mentioned(p) for p in stage.parents if p not in unnamed)
    )


def _as_given(block: Block, match: Match | None, hyp: Hypothesis) -> Match | None:
    """What a block the readers read as given is: a node that explains it clearly, or the node
    it is by its own name (:func:`_named_whole`); else None, a given."""
    if match is not None and match.evidence >= GIVEN_EVIDENCE and match.share >= GIVEN_SHARE:
        return match
    return _named_whole(block, hyp)


def _named_whole(block: Block, hyp: Hypothesis) -> Match | None:
    """The node a block is by its own name (``K = [...]`` where the hypothesis computes K), when
    it equals that whole node in every cell, four at least: the name and the whole match are
    the evidence its small integers (0, 1, 2) cannot give.  It confirms; nothing is wrong in it."""
    names = _names(hyp)
    cells = block.cells()
    name = _canonical(block.name)
    if len(cells) < 4 or not name:
        return None
    for stage in ATTENTION.nodes:
        node = hyp.truth.get(stage.name)
        if (
            stage.name in hyp.inputs
            or node is None
            or name not in names[stage.name]
            or (len(node), len(node[0])) != block.shape
        ):
            continue
        if all(
            _rounds_to(lit, true) for lit, true in zip(cells, (x for row in node for x in row), strict=True)
        ):
            evidence = sum(c.weight for c in cells)
            return Match(block, stage.name, tuple(range(len(node))), False, evidence, Fraction(1), True, True)
    return None


def _row_stochastic(block: Block, node: Matrix) -> bool:
    """The block has the node's shape and its rows are probabilities: every cell a decimal
    strictly between 0 and 1 (a masked 0 is not), and each row summing to 1 within the
    rounding of its printed cells.  A softmax's printout has this shape whatever its digits;
    the stage declares it (the scores before it say which softmax)."""
    if block.shape != (len(node), len(node[0])) or block.shape[1] < 2:
        return False
    for row in block.rows:
        if any(c.infinite or c.places is None or not 0 < c.value < 1 for c in row):
            return False
        slack = sum(Fraction(1, 2 * 10**c.places) for c in row)
        if abs(sum(c.value for c in row) - 1) > slack:
            return False
    return True


# --- judgement ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    status: str
    kind: str
    value: str | None
    exact: str | None
    carried_from: int | None
    stage: str
    cell: tuple[int, int]
    scale: str = ""
    grounded: bool = True  # computed from given inputs, not from printed blocks nobody explains
    truth: Any = None  # the node's true value (a Fraction or an arb ball): what the readers' world (b) takes


def _decimal(true: Any, places: int) -> str | None:
    scale = 10**places
    if isinstance(true, Fraction):
        units = round_half_away(true * scale)
    else:
        from flint import arb

        y = true * scale
        u = (abs(y) + arb(1) / 2).floor().unique_fmpz()
        if u is None:
            return None
        units = int(u) * (-1 if y < 0 else 1)
    sign = "-" if units < 0 else ""
    digits = str(abs(units)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def _world_a(
    hyp: Hypothesis, printed: dict[str, tuple[Matrix, int, bool]]
) -> dict[str, tuple[Matrix, set[int], bool]]:
    """Each stage computed from the document's printed upstream values (world a): the value,
    the lines of the printed blocks it depends on that differ from the truth, and whether one
    of them is wrong (not only rounded)."""
    values: dict[str, Any] = dict(hyp.inputs)
    values.update((name, value) for name, (_label, value) in hyp.conventions.items())
    deps: dict[str, set[int]] = {k: set() for k in values}
    wrong: dict[str, bool] = {k: False for k in values}
    out = {}
    for stage in ATTENTION.nodes:
        if stage.name in hyp.inputs:
            out[stage.name] = (hyp.inputs[stage.name], set(), False)
            continue
        if stage.name not in hyp.truth:
            continue  # not computed under this hypothesis (no V: no output)
        value = stage.compute(kits.EXACT, *(values[p] for p in stage.parents))
        d = set().union(*(deps[p] for p in stage.parents))
        w = any(wrong[p] for p in stage.parents)
        out[stage.name] = (value, d, w)
        if stage.name in printed:
            block_value, line, is_wrong = printed[stage.name]
            values[stage.name] = block_value  # what comes after uses the printed block, not its parents
            deps[stage.name] = {line} if block_value != hyp.truth[stage.name] else set()
            wrong[stage.name] = is_wrong
        else:
            values[stage.name], deps[stage.name], wrong[stage.name] = value, d, w
    return out


def _cell_verdict(
    lit: Lit,
    true: Any,
    in_a: Any,
    *,
    deps: set[int],
    carries_wrong: bool,
    stage_name: str,
    cell: tuple[int, int],
    arithmetic: bool | None = None,
) -> Verdict | None:
    """One printed number of an identified block, judged in the two worlds (``arithmetic``:
    its value is exact arithmetic of its parents, so a miss is a slip; by default the stage's
    own declaration says)."""
    ok = _rounds_to(lit, true)
    if ok is None:
        return None
    value = _decimal(true, (lit.places or 0) + 3)
    exact = None
    if isinstance(true, Fraction):
        exact = f"{true.numerator}/{true.denominator}" if true.denominator != 1 else str(true.numerator)
    if arithmetic is None:
        arithmetic = _node(stage_name).arithmetic
    if ok:
        return Verdict("ok", "ok", value, exact, None, stage_name, cell, truth=true)
    if _within_float32(lit, true):
        return Verdict("ok", "float-rounding", value, exact, None, stage_name, cell, truth=true)
    if deps and _rounds_to(lit, in_a):
        kind = "carried" if carries_wrong else "rounding-carried"
        return Verdict("wrong", kind, value, exact, min(deps), stage_name, cell, truth=true)
    if _truncates(lit, true):
        return Verdict("wrong", "rounding", value, exact, None, stage_name, cell, truth=true)
    if arithmetic and isinstance(in_a, Fraction):
        return Verdict("wrong", "slip", value, exact, None, stage_name, cell, truth=true)
    return Verdict("wrong", "wrong", value, exact, None, stage_name, cell, truth=true)


def _judge_cells(
    match: Match,
    truth: Matrix,
    in_a: Matrix,
    verdicts: dict[tuple[int, int], Verdict],
    *,
    deps: set[int],
    carries_wrong: bool,
) -> bool:
    """Each number of an identified block judged into ``verdicts``; whether one is wrong."""
    block_wrong = False
    for i, row in enumerate(match.block.rows):
        for j, lit in enumerate(row):
            cell = (match.rows[i] + 1, j + 1) if not match.transposed else (j + 1, match.rows[i] + 1)
            verdict = _cell_verdict(
                lit,
                truth[i][j],
                in_a[i][j],
                deps=deps,
                carries_wrong=carries_wrong,
                stage_name=match.stage,
                cell=cell,
            )
            if verdict is not None:
                verdicts[(lit.line, lit.column)] = verdict
                block_wrong = block_wrong or verdict.status == "wrong"
    return block_wrong


def _stronger(match: Match | None, other: Match | None) -> Match | None:
    """``other`` where it explains more digits than ``match`` (or ``match`` is None)."""
    return other if other is not None and (match is None or other.evidence > match.evidence) else match


def _node_label(match: Match, hyp: Hypothesis) -> str:
    """The node a block was identified with, as ``--explain`` shows it (``A row 2``)."""
    whole = len(match.rows) == len(hyp.truth[match.stage])
    node = match.stage if whole else f"{match.stage} row {match.rows[0] + 1}"
    return node + (" (transposed)" if match.transposed else "")


def _why(match: Match, *, by_shape: bool) -> str:
    if match.by_name:
        return "by its name, equal in every cell"
    if by_shape:
        return "a row of probabilities named as the weights, after that row's scores"
    return "declared by its formula" if match.declared else "by its digits"


def _one_row(match: Match, hyp: Hypothesis) -> tuple[str, int] | None:
    """The stage and row of a block identified by its digits as one row of a larger node."""
    single = len(match.rows) == 1 < len(hyp.truth[match.stage]) and not match.transposed
    return (match.stage, match.rows[0]) if single and not match.declared else None


def _weights_row(block: Block, hyp: Hypothesis, last_row: tuple[str, int] | None) -> Match | None:
    """A one-row block identified by its shape: a row of probabilities named as the weights,
    right after one token's row of scores (``Scores: [..]``, then ``weights = [..]``), is that
    token's row of weights, as :func:`_row_stochastic` says of a whole block."""
    if (
        last_row is not None
        and last_row[0] in ("S", "T")
        and block.shape[0] == 1
        and "A" not in hyp.inputs
        and _prior(block, "A") > 0
        and _row_stochastic(block, [hyp.truth["A"][last_row[1]]])
    ):
        evidence = _score(block, [hyp.truth["A"][last_row[1]]])[0] + _prior(block, "A") + _DECLARED
        return Match(block, "A", (last_row[1],), False, evidence, MIN_SHARE, True)
    return None


def _judge_document(
    hyp: Hypothesis,
    blocks: list[Block],
    given: list[Block],
    trace: list[dict[str, Any]] | None = None,
    identified: dict[int, Matrix] | None = None,
    *,
    slips: frozenset[tuple[int, int]] = frozenset(),
) -> tuple[int, dict[tuple[int, int], Verdict]]:
    """The evidence ``hyp`` finds in the document, and its verdict on each cell it explains.

    A block printed before the last of the hypothesis's given blocks is not explained by it
    (inputs come first), and a block the readers read as given is a result only where its
    own statement says so (``Q = XW_Q = [...]``) or a node explains it clearly.  ``slips``
    are the numbers the readers' arithmetic found wrong: a block is not "far off" for them."""
    last_root = max(part.line for root in hyp.roots for part in root.printed())
    printed: dict[str, tuple[Matrix, int, bool]] = {}
    verdicts: dict[tuple[int, int], Verdict] = {}
    evidence = _role_prior(hyp)
    world: dict[str, tuple[Matrix, set[int], bool]] = {}
    version, computed_for = 0, -1
    last_stage = ""  # the stage of the last block identified whole
    last_row: tuple[str, int] | None = None  # the stage and row of the last block identified as one row

    def note(block: Block, node: str | None, why: str, evidence: int = 0) -> None:
        if trace is not None:
            trace.append(
                {
                    "line": block.line,
                    "shape": list(block.shape),
                    "name": block.name,
                    "node": node,
                    "evidence": evidence,
                    "why": why,
                }
            )

    for block in blocks:
        if any(block is part for root in hyp.roots for part in root.printed()):
            note(block, None, "given: an input of this hypothesis")
            continue
        if computed_for != version:  # world (a) changes only when a printed block is taken in
            world, computed_for = _world_a(hyp, printed), version
        if block.line < last_root or block.operand:
            note(
                block,
                None,
                "printed before the inputs"
                if block.line < last_root
                else "an operand of an operation written out on its line",
            )
            continue
        declared = _declared(block, hyp)
        # what follows the scores, identified by their digits, with rows of probabilities and the
        # weights' name is their softmax (the shape is the evidence, the name a prior)
        shaped = (
            last_stage in ("S", "T")
            and "A" not in hyp.inputs
            and _prior(block, "A") > 0
            and _row_stochastic(block, hyp.truth["A"])
        )
        declared |= {"A"} if shaped else set()
        row_match = _weights_row(block, hyp, last_row)
        as_given = not declared and row_match is None and any(block is g for g in given)
        match = _identify(block, hyp.truth, declared, hyp.inputs) or row_match
        if printed:  # or by world (a): the stages computed from the printed blocks before it
            match = _stronger(
                match, _identify(block, {k: v[0] for k, v in world.items()}, declared, hyp.inputs)
            )
        if as_given and (match := _as_given(block, match, hyp)) is None:
            # a block the readers read as given is a result only where a node explains it clearly
            note(block, None, "read as given, and no formula or clear match says it is computed")
            continue
        if match is None:
            note(block, None, f"no node of its shape explains {MIN_EVIDENCE} of its digits and 3/5 of them")
            continue
        truth = match.target(hyp.truth[match.stage])
        value_a, deps, carries_wrong = world[match.stage]
        missed = _missed(
            block,
            match,
            truth,
            match.target(value_a),
            hyp,
            slips=slips,
            parent_shown=shaped and match.stage == "A",
        )
        if missed:
            note(block, None, missed)
            continue
        # a given block printed again (``K = X W_K`` with X = I prints W_K) may be judged, but
        # is no evidence of the hypothesis
        evidence += 0 if any(_values(block) == _values(root) for root in hyp.roots) else match.evidence
        note(block, _node_label(match, hyp), _why(match, by_shape=match is row_match), match.evidence)
        block_wrong = _judge_cells(
            match, truth, match.target(value_a), verdicts, deps=deps, carries_wrong=carries_wrong
        )
        if identified is not None and not match.transposed:  # its truth, for the steps after it
            identified[id(block)] = truth
        if len(match.rows) == len(hyp.truth[match.stage]) and not match.transposed:
            printed[match.stage] = ([[c.value for c in row] for row in block.rows], block.line, block_wrong)
            version += 1
            # identified by its own digits (a formula's name alone says too little)
            last_stage = match.stage if match.evidence - _DECLARED * match.declared >= MIN_EVIDENCE else ""
        last_row = _one_row(match, hyp)
    return evidence, verdicts


def _open(by_place: dict[tuple[int, int], Finding], lit: Lit) -> bool:
    """A number the readers did not read, or read without a verdict and not as an operand of a
    formula they read (a formula says what its operands are)."""
    finding = by_place.get((lit.line, lit.column))
    return finding is None or (finding.status == Status.UNVERIFIED and finding.kind != Kind.OPERAND)


# --- a second graph: a softmax over a vocabulary at a temperature -------------------------------------


#: Most values of one parameter the text states that are tried.
MAX_STATED = 7
#: The widest block whose width is tried as a d_k.
MAX_WIDTH = 1024


def _stated(text: str) -> dict[str, list[Fraction]]:
    """The values the text states for each parameter of the graphs that may be stated."""
    names = {p.name for g in GRAPHS for p in g.parameters if p.stated}
    return {name: stated_values(text, name, MAX_STATED) for name in sorted(names)}


def _key_widths(text: str, blocks: list[Block]) -> tuple[Fraction, ...]:
    """The d_k scores may be scaled by: each d_k the text states, then each width a block of
    two columns or more prints (the width of Q and K, whether or not the scores name it)."""
    widths = sorted({b.shape[1] for b in blocks if 2 <= b.shape[1] <= MAX_WIDTH})
    out = list(stated_values(text, "d_k", MAX_STATED))
    out += [Fraction(w) for w in widths if Fraction(w) not in out]
    return tuple(out[:MAX_STATED])


def _plain_number(value: Fraction) -> str:
    """A temperature as the document wrote it: 0.5, not 1/2."""
    return (
        format(value.numerator / value.denominator, "g")
        if value.denominator in (1, 2, 4, 5, 8, 10, 20, 25, 100)
        else str(value)
    )


def _vocabulary(
    stated: dict[str, list[Fraction]], blocks: list[Block], given: list[Block], trace: list[dict[str, Any]]
) -> dict:
    """Verdicts on the printed rows that are a node of the vocabulary's graph on given logits, at
    one of its parameters' values (each row its own T: a table of T = 0.5, 1, 2), identified by
    their digits."""
    root = VOCABULARY.roles[0]
    logits = [b for b in given if b.shape[0] == 1 and b.shape[1] >= 2]
    verdicts: dict[tuple[int, int], Verdict] = {}
    for block in blocks:
        if block.shape[0] != 1 or any(block is g for g in given) or any(c.infinite for c in block.cells()):
            continue
        tried = []
        for z in logits:
            if z.shape != block.shape or z.line > block.line:
                continue
            for conventions, _rank in _conventions(VOCABULARY, {root: _values(z)}, stated):
                values: dict[str, Any] = {root: _values(z)}
                values.update((name, value) for name, (_label, value) in conventions.items())
                _compute(VOCABULARY, values)
                for node in VOCABULARY.nodes:
                    if values[node.name] == values[root]:
                        continue  # z/T at T = 1 is the given logits: a restatement is no evidence
                    matched, decided = _score(block, values[node.name])
                    if decided:
                        tried.append(
                            (matched, Fraction(matched, decided), node.name, conventions, values[node.name])
                        )
        if not tried:
            continue
        evidence, share, name, conventions, target = max(tried, key=lambda x: (x[0], x[1]))
        if (
            evidence < MIN_EVIDENCE
            or share < MIN_SHARE
            or _far(block, target, target) > max(1, block.shape[1] // 4)
        ):
            continue
        rivals = [
            x
            for x in tried
            if x[0] >= evidence * NEAR_BEST and x is not max(tried, key=lambda y: (y[0], y[1]))
        ]
        trace.append(
            {
                "line": block.line,
                "shape": list(block.shape),
                "name": block.name,
                "node": f"{name} at {_describe(VOCABULARY, conventions)}",
                "evidence": evidence,
                "why": "by its digits",
            }
        )
        for j, lit in enumerate(block.rows[0]):
            verdict = _cell_verdict(
                lit,
                target[0][j],
                target[0][j],
                deps=set(),
                carries_wrong=False,
                stage_name=name,
                cell=(1, j + 1),
            )
            if verdict is None:
                continue
            if verdict.status == "wrong" and any(_rounds_to(lit, r[4][0][j]) is not False for r in rivals):
                continue  # another temperature or logit row explains it nearly as well
            verdicts[(lit.line, lit.column)] = dataclasses.replace(
                verdict, scale=_describe(VOCABULARY, conventions)
            )
    return verdicts


def _attention(
    blocks: list[Block],
    given: list[Block],
    summary: dict[str, Any],
    identified: dict[int, Matrix],
    *,
    stated: dict[str, list[Fraction]],
    slips: frozenset[tuple[int, int]] = frozenset(),
) -> dict[tuple[int, int], Verdict]:
    """The attention graph's verdicts under the hypothesis that explains the most digits, each
    wrong one kept only where every hypothesis nearly as good calls it wrong (``summary`` gets
    the hypotheses tried, the one kept and each block's node)."""
    hypotheses, tried = _hypotheses(given, stated)
    # each hypothesis judged once: its evidence, verdicts, trace and identified blocks
    scored: list[tuple[int, dict[tuple[int, int], Verdict], Hypothesis, list[Any], dict[int, Matrix]]] = []

    def score(hyps: list[Hypothesis], above: list[int] | None = None) -> None:
        for index, hyp in enumerate(hyps):
            try:
                hyp.compute()
            except (ValueError, ZeroDivisionError, IndexError, TypeError):
                continue
            trace: list[dict[str, Any]] = []
            found: dict[int, Matrix] = {}
            evidence, verdicts = _judge_document(hyp, blocks, given, trace, found, slips=slips)
            if above is None or evidence >= above[index] + MIN_EVIDENCE:
                scored.append((evidence, verdicts, hyp, trace, found))

    score(hypotheses)
    lazy = _lazy_variants(scored, stated)
    tried += len(lazy)
    # a lazy parameter off its default must explain more than its default, by as many digits
    # as identify a block: a slope that only ties it (1/256 changes the last digits), or that
    # fits one more number by chance (m = 1/2 and a weight 0.30), is no rival
    score([variant for variant, _default in lazy], [default for _variant, default in lazy])
    summary["hypotheses"] = tried
    best = max((s[0] for s in scored), default=0)
    if best < MIN_EVIDENCE:
        return {}
    near = [s for s in scored if s[0] >= best * NEAR_BEST]
    kept_evidence, kept, hyp, trace, found = next(s for s in scored if s[0] == best)
    summary["blocks"].extend(trace)
    identified.update(found)
    summary["kept"] = {
        "scale": hyp.conventions["c"][0],
        "conventions": {name: label for name, (label, _v) in hyp.conventions.items()},
        "described": hyp.describe(),
        "evidence": kept_evidence,
        "roles": {name: root.line for name, root in zip(hyp.inputs, hyp.roots, strict=False)},
        "near": len(near) - 1,
    }
    misnamed = _misnamed(hyp)
    other_way = _right_another_way(kept, blocks, scored)
    chosen = {}
    for place, verdict in kept.items():
        if verdict.status == "wrong" and misnamed:
            continue  # the roles go against the document's own names: it may confirm, not accuse
        if verdict.status == "wrong" and place in other_way:
            continue  # its whole block is right under another hypothesis: a convention, not a slip
        if verdict.status == "wrong" and any(
            other.get(place) is None or other[place].status != "wrong" for _e, other, *_rest in near
        ):
            continue  # another hypothesis explains the document nearly as well and does not call it wrong
        chosen[place] = dataclasses.replace(verdict, scale=hyp.describe())
    return chosen


def _right_another_way(
    kept: dict[tuple[int, int], Verdict], blocks: list[Block], scored: list[Any]
) -> set[tuple[int, int]]:
    """The places of each block the kept hypothesis calls wrong that another hypothesis finds
    right in every cell, on digits enough to be evidence (``Scaled = Scores / √2 ≈ [0.707, 0]``
    where the rest of the document follows 1/d_k): the document mixes conventions, and that
    block is not wrong under every hypothesis that explains it."""
    out: set[tuple[int, int]] = set()
    for block in blocks:
        places = [(c.line, c.column) for c in block.cells()]
        if not any(p in kept and kept[p].status == "wrong" for p in places):
            continue
        telling = [(c.line, c.column) for c in block.cells() if c.weight]  # a 0 or a 1 says nothing
        if sum(c.weight for c in block.cells()) < MIN_EVIDENCE:
            continue
        for _evidence, verdicts, *_rest in scored:
            if all(p in verdicts and verdicts[p].status == "ok" for p in telling) and not any(
                p in verdicts and verdicts[p].status == "wrong" for p in places
            ):
                out.update(places)
                break
    return out


#: Role assignments whose lazy parameter values are tried (the best ones by their defaults).
LAZY_ROLES = 1


# --- a third graph: the positional encoding of a table of embeddings -------------------------------


#: Positions of the encoding a printed row is compared with, where no table of embeddings says
#: how many there are.
MAX_POSITIONS = 64
#: Tables of embeddings tried (given ones first, then tables of short numbers nobody computed).
MAX_TABLES = 8


def _tables(
    blocks: list[Block], given: list[Block], matrices: list[Block], model_widths: tuple[int, ...] = ()
) -> list[tuple[Block | None, Matrix]]:
    """The tables the encoding is computed for: each given table of embeddings (a matrix, or
    token vectors printed one by one), and a zero table of MAX_POSITIONS rows for each width
    printed, and each model width the text states where a row is printed cut short with
    "..." (where a document prints the encoding alone).  ``matrices``: the pipe tables'
    columns side by side (_table_matrices), whose widths count too."""
    short = [b for b in blocks if all((c.places or 0) <= 2 for c in b.cells())]  # inputs are short
    candidates = [b for b in (*given, *short) if b.shape[0] >= 2 and b.shape[1] >= 2]
    candidates += [stack for _i, stack in (*_stacks(given), *_stacks(short))]
    tables: list[tuple[Block | None, Matrix]] = []
    for b in candidates:
        if not any(_values(b) == values for _t, values in tables):
            tables.append((b, _values(b)))
    tables = tables[:MAX_TABLES]
    shown = [*blocks, *matrices]  # a table's columns side by side: its width too
    widths = sorted({b.shape[1] for b in shown if b.shape[1] >= 2} | set(model_widths))
    tables += [(None, [[Fraction(0)] * d for _ in range(MAX_POSITIONS)]) for d in widths]
    return tables


def _slices(block: Block, node: Matrix, whole: bool) -> list[tuple[int, Matrix]]:
    """The rows of ``node`` a block of its width may print: every row for a printed row, and for
    a matrix its own rows (``whole``: a table of embeddings) or any run of them."""
    r, c = block.shape
    if block.truncated:  # the first cells of longer rows
        node = [row[:c] for row in node] if node and len(node[0]) > c else []
    if not node or len(node[0]) != c or r > len(node):
        return []
    if r == 1:
        return [(i, [node[i]]) for i in range(len(node))]
    if whole:
        return [(0, node)] if r == len(node) else []
    return [(i, node[i : i + r]) for i in range(len(node) - r + 1)]


def _encodings(
    hyp: dict[str, tuple[str, Any]], tables: list[tuple[Block | None, Matrix]]
) -> list[tuple[Block | None, dict[Any, Any]]]:
    """PE and E + PE of each table under one set of conventions, each with what it is scored
    on and its floats (to screen)."""
    computed = []
    for table, e in tables:
        values: dict[Any, Any] = {"E": e}
        values.update((name, value) for name, (_label, value) in hyp.items())
        _compute(POSITIONS, values)
        for name in ("PE", "E+PE"):
            # E + PE is evidence of an encoding only where PE adds digits: not where it is 0 or 1
            # (position 0 adds [0, 1, 0, 1]: any table restated with 1 added)
            scored = values[name]
            if name == "E+PE":
                scored = [
                    [None if isinstance(p, Fraction) else x for x, p in zip(r, pr, strict=True)]
                    for r, pr in zip(values[name], values["PE"], strict=True)
                ]
            values[("scored", name)], values[("floats", name)] = scored, _floats(scored)
        computed.append((table, values))
    return computed


def _judge_positions(
    hyp: dict[str, tuple[str, Any]],
    blocks: list[Block],
    made_up: list[Block],
    tables: list[tuple[Block | None, Matrix]],
    trace: list[dict[str, Any]] | None,
    *,
    runs: list[Block],
) -> tuple[int, dict[tuple[int, int], Verdict]]:
    """The evidence one set of the encoding's conventions finds, and its verdicts: each block
    identified with the rows of PE or of E + PE that explain most of its digits.  E + PE is
    judged in world (a) from the encoding rows the document printed before it.  ``runs``: the
    blocks printed one under another, and the tables' columns, each as one matrix."""
    computed = _encodings(hyp, tables)
    printed: dict[tuple[int, int], tuple[list[Fraction], int, bool]] = {}  # (width, position): row
    evidence, verdicts = 0, {}
    start = int(hyp["start"][1])
    made_up_ids = {id(p) for g in made_up for p in g.printed()}
    # rows printed one under another (``pos 0: [...]``, ``pos 1: [...]``) are tried as one table first
    stacked = {id(s.parts[0]): s for s in runs if not any(id(p) in made_up_ids for p in s.parts)}
    done: set[int] = set()
    for printed_block in blocks:
        if id(printed_block) in made_up_ids or id(printed_block) in done:
            continue
        block, best = printed_block, None
        if id(printed_block) in stacked:
            block = stacked[id(printed_block)]
            best = _position_match(block, computed)
            done |= {id(p) for p in block.parts} if best is not None else set()
        if best is None:
            block, best = printed_block, _position_match(printed_block, computed)
        if best is None:
            continue
        matched, first, name, target, table = best
        evidence += matched
        d = block.shape[1]
        in_a, deps, wrong_before, wrong_lines = target, set(), False, set()
        if name == "E+PE":  # world (a): E plus the encoding rows as printed
            e = _values(table)
            in_a = []
            for i, row in enumerate(target):
                shown = printed.get((d, start + first + i))
                if shown is None:
                    in_a.append(row)
                    continue
                in_a.append([Fraction(x) + y for x, y in zip(e[first + i], shown[0], strict=True)])
                deps.add(shown[1])
                wrong_lines.update({shown[1]} if shown[2] else set())
            if wrong_lines:  # carried from the encoding rows printed wrong, not the rounded ones
                deps, wrong_before = wrong_lines, True
        described = _describe(POSITIONS, hyp)
        if trace is not None:
            where = (
                f"positions {start + first}..{start + first + block.shape[0] - 1}"
                if block.shape[0] > 1
                else f"position {start + first}"
            )
            trace.append(
                {
                    "line": block.line,
                    "shape": list(block.shape),
                    "name": block.name,
                    "node": f"{name} ({where})" + (f", {described}" if described else ""),
                    "evidence": matched,
                    "why": "by its digits",
                }
            )
        judged: dict[tuple[int, int], Verdict] = {}
        rows = tuple(range(first, first + block.shape[0]))  # the node's rows: positions start + first + i
        _judge_cells(
            Match(block, name, rows, False, matched, Fraction(1)),
            target,
            in_a,
            judged,
            deps=deps,
            carries_wrong=wrong_before,
        )
        verdicts.update((place, dataclasses.replace(v, scale=described)) for place, v in judged.items())
        for i, row in enumerate(block.rows if name == "PE" else ()):
            row_wrong = any(
                judged.get((c.line, c.column)) is not None and judged[(c.line, c.column)].status == "wrong"
                for c in row
            )
            printed[(d, start + first + i)] = ([c.value for c in row], row[0].line, row_wrong)
    return evidence, verdicts


def _floats(matrix: Matrix) -> list[list[float | None]]:
    """A matrix of fractions and balls in floats (None stays None), to screen candidates."""
    return [
        [None if x is None else float(x) if isinstance(x, Fraction) else float(x.mid()) for x in row]
        for row in matrix
    ]


def _position_match(block: Block, computed: list[tuple[Block | None, dict[str, Any]]]) -> Any:
    """The rows of PE or E + PE that explain the most of ``block``'s digits (digits matched,
    first row, node, its rows, the table of embeddings), or None when too few do."""
    best = None
    for table, values in computed:
        for name in ("PE", "E+PE"):
            if table is None and name == "E+PE":
                continue  # a zero table: E + PE is PE
            if table is not None and block.line <= max(p.line for p in table.printed()):
                continue  # E + PE follows E
            scored_on, screen = values[("scored", name)], values[("floats", name)]
            for (first, target), (_f, scoring), (_g, floats) in zip(
                _slices(block, values[name], table is not None),
                _slices(block, scored_on, table is not None),
                _slices(block, screen, table is not None),
                strict=True,
            ):
                flat = [x for row in floats for x in row]  # a None cell (PE's 0 or 1) carries no digits
                screened, _d = _float_score(
                    block.cells(), [x or 0.0 for x in flat], [x is None for x in flat]
                )
                if screened < MIN_EVIDENCE:
                    continue  # screened in floats: most rows are far off
                matched, decided = _score(block, scoring)
                if decided and (best is None or (matched, -first) > (best[0], -best[2])):
                    best = (matched, Fraction(matched, decided), first, name, target, table)
    if best is None:
        return None
    matched, share, first, name, target, table = best
    far = _far(block, target, target)
    # a row is compared with MAX_POSITIONS of them: a cell far off needs more digits matched
    if (
        matched < MIN_EVIDENCE + (2 if far else 0)
        or share < MIN_SHARE
        or far > max(1, len(block.cells()) // 4)
    ):
        return None
    return matched, first, name, target, table


def _positions(
    blocks: list[Block],
    given: list[Block],
    made_up: list[Block],
    trace: list[dict[str, Any]],
    summary: dict[str, Any],
    *,
    text: str = "",
) -> dict[tuple[int, int], Verdict]:
    """Verdicts on the blocks that are rows of the sinusoidal encoding, or of a table of
    embeddings plus it, under the conventions that explain the most digits; a number is wrong
    only where every set of conventions nearly as good calls it wrong.  The encoding is computed
    from positions alone: a block the readers took as given (a table with no formula on it) may
    be it, and only the blocks the text says were not computed (``made_up``) are never judged."""
    widths: tuple[int, ...] = ()
    if any(b.truncated for b in blocks):  # a row cut short: the model widths the text states
        stated = stated_values(text, "d_model", MAX_STATED)
        widths = tuple(int(v) for v in stated if v.denominator == 1 and 2 <= v <= MAX_WIDTH)
    matrices = _table_matrices(blocks)
    tables = _tables(blocks, given, matrices, widths)
    runs = [*(s for _i, s in _stacks(blocks)), *matrices]  # once, for every convention
    scored = []
    for conventions, _rank in _conventions(POSITIONS, {}, {}):
        try:
            scored.append(
                (*_judge_positions(conventions, blocks, made_up, tables, None, runs=runs), conventions)
            )
        except (ValueError, ZeroDivisionError):
            continue
    summary["hypotheses"] += len(scored)
    best = max((s[0] for s in scored), default=0)
    if best < MIN_EVIDENCE:
        return {}
    near = [s for s in scored if s[0] >= best * NEAR_BEST]
    kept = next(s for s in scored if s[0] == best)
    _judge_positions(kept[2], blocks, made_up, tables, trace, runs=runs)
    return {
        place: verdict
        for place, verdict in kept[1].items()
        if verdict.status != "wrong"
        or all(other[1].get(place) is not None and other[1][place].status == "wrong" for other in near)
    }


def _reached(graph: Graph, parameters: set[str]) -> set[str]:
    """The nodes of ``graph`` computed from any of ``parameters``, directly or through others."""
    reached: set[str] = set()
    for node in graph.nodes:
        if any(p in parameters or p in reached for p in node.parents):
            reached.add(node.name)
    return reached


def _lazy_variants(scored: list[Any], stated: dict[str, list[Fraction]]) -> list[tuple[Hypothesis, int]]:
    """The hypotheses with a lazy parameter off its default (an ALiBi slope), each with the
    evidence of its default, for the best role assignments by their defaults, each with its
    best eager conventions, and only where the best default leaves a printed block that the
    parameter reaches unexplained."""
    if not scored or not any(p.lazy for p in ATTENTION.parameters):
        return []
    ranked = sorted(scored, key=lambda s: -s[0])
    best, trace = ranked[0][2], ranked[0][3]
    reached = _reached(ATTENTION, {p.name for p in ATTENTION.parameters if p.lazy})
    shapes = {(len(best.truth[n]), len(best.truth[n][0])) for n in reached if n in best.truth}
    shapes |= {(c, r) for r, c in shapes} | {(1, c) for _r, c in shapes}
    if not any(
        note["node"] is None
        and note["why"].startswith(("no node", "closest"))
        and tuple(note["shape"]) in shapes
        for note in trace
    ):
        return []  # every block the slope could change is explained without it
    out: list[tuple[Hypothesis, int]] = []
    seen: list[tuple[Block, ...]] = []
    eager = {p.name for p in ATTENTION.parameters if not p.lazy}
    for evidence, _verdicts, hyp, *_rest in ranked:
        if any(hyp.roots == roots for roots in seen):
            continue
        seen.append(hyp.roots)
        for conventions, rank in _conventions(ATTENTION, hyp.inputs, stated, lazy=True):
            if all(conventions[name][0] == hyp.conventions[name][0] for name in eager):
                out.append((Hypothesis(hyp.inputs, hyp.roots, conventions, rank), evidence))
        if len(seen) == LAZY_ROLES:
            break
    return out


def _kind(by_place: dict[tuple[int, int], Finding], lit: Lit) -> Any:
    finding = by_place.get((lit.line, lit.column))
    return None if finding is None else finding.kind


def _printed_cells(
    blocks: list[Block],
) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], tuple[int, int]]]:
    """Each literal's text, and its place in its printed block: a finding's cell, as the readers
    give it (the node's own cell is in the reason), so a row printed alone is [1, j] whichever
    row of the node it is."""
    texts = {(c.line, c.column): c.text for b in blocks for c in b.cells()}
    places = {
        (c.line, c.column): (i + 1, j + 1)
        for b in blocks
        for i, row in enumerate(b.rows)
        for j, c in enumerate(row)
    }
    return texts, places


def _graphs(
    text: str,
    blocks: list[Block],
    given: list[Block],
    summary: dict[str, Any],
    slips: frozenset[tuple[int, int]],
    *,
    made_up: list[Block],
) -> dict[tuple[int, int], Verdict]:
    """The verdicts of the three graphs: attention from the given blocks, the vocabulary's
    softmax, and the chain of printed steps (each keeps a verdict the one before reached).
    ``made_up``: the blocks the text says were not computed."""
    from flint import ctx

    saved = ctx.prec
    ctx.prec = _PREC
    try:
        identified: dict[int, Matrix] = {}
        stated = _stated(text)
        chosen = _attention(blocks, given, summary, identified, stated=stated, slips=slips)
        for place, verdict in _vocabulary(stated, blocks, given, summary["blocks"]).items():
            chosen.setdefault(place, verdict)
        for place, verdict in _positions(
            blocks, given, made_up, summary["blocks"], summary, text=text
        ).items():
            chosen.setdefault(place, verdict)
        steps, summary["candidates"] = chain(
            blocks,
            given,
            identified,
            summary["blocks"],
            judge=_cell_verdict,
            stated={name: tuple([Fraction(1), *values]) for name, values in stated.items()}
            | {"d_k": _key_widths(text, blocks)},
            wrong=slips | {place for place, verdict in chosen.items() if verdict.status == "wrong"},
        )
        for place, verdict in steps.items():
            chosen.setdefault(place, verdict)
    finally:
        ctx.prec = saved
    return chosen


def explain(
    text: str, findings: list[Finding], seeds: Seeds | None = None
) -> tuple[list[Finding], dict[str, Any]]:
    """The findings with every printed block the readers left unjudged explained, and a
    summary of the explanation (hypotheses tried, the one kept, each block's node).

    Only numbers without a verdict (unread, or unverified) change; a number is called wrong
    only when every hypothesis that explains the document nearly as well calls it wrong.
    ``seeds`` receives the true value of each number identified (for the readers' second
    reading, document.py).
    """
    by_place = {(f.line, f.column): f for f in findings}
    blocks = printed_blocks(text)
    lines = text.split("\n")
    stated = [b for b in blocks if not_computed(lines, b.line)]
    for block in stated:  # the text says these were not computed: givens, whatever a reader made of them
        for c in block.cells():
            finding = by_place.get((c.line, c.column))
            if finding is not None and finding.status != Status.OK:
                by_place[(c.line, c.column)] = dataclasses.replace(
                    finding,
                    status=Status.UNVERIFIED,
                    kind=Kind.INPUT,
                    carried_from=None,
                    reason="the text says these values were not computed by the formula: a given",
                )
    stated_lines = {b.line for b in stated}
    for place, finding in list(by_place.items()):  # carried from a given is not carried
        if finding.status == Status.WRONG and finding.carried_from in stated_lines:
            by_place[place] = dataclasses.replace(
                finding,
                status=Status.UNVERIFIED,
                kind=Kind.UNDECIDED,
                carried_from=None,
                reason=f"follows from the values of line {finding.carried_from}, which the text says were not computed",
            )
    findings = list(by_place.values())
    given = [
        b
        for b in blocks
        if (
            all(_kind(by_place, c) in (Kind.INPUT, None) for c in b.cells())
            and any(_kind(by_place, c) == Kind.INPUT for c in b.cells())
        )  # a matrix whose first row was read
        or any(b is s for s in stated)
        or (b.typed and all(by_place.get((c.line, c.column)) is None for c in b.cells()))  # a definition
    ]
    if not given:  # nothing read as given: the plain blocks before the first one with 3 places or more
        rich = next(
            (i for i, b in enumerate(blocks) if any((c.places or 0) >= 3 for c in b.cells())), len(blocks)
        )
        given = [
            b
            for b in blocks[:rich]
            if all(by_place.get((c.line, c.column)) is None for c in b.cells()) and not _result(lines, b)
        ]
    # a formula whose own arithmetic fails (\frac{1}{0}) is broken: what it prints is not open
    broken = {f.line for f in findings if f.kind == Kind.BAD_INPUT}
    open_blocks = [
        b
        for b in blocks
        if any(_open(by_place, c) for c in b.cells()) and not {c.line for c in b.cells()} & broken
    ]
    summary: dict[str, Any] = {
        "printed": len(blocks),
        "inputs": len(given),
        "hypotheses": 0,
        "candidates": 0,
        "kept": None,
        "identified": 0,
        "blocks": [],
    }
    if not open_blocks or (not given and not any(_computable(b) for b in open_blocks)):
        out = {(f.line, f.column): f for f in findings}
        _doubted(out, blocks, {})
        return sorted(out.values(), key=lambda f: (f.line, f.column)), summary
    slips = frozenset(place for place, f in by_place.items() if f.status == Status.WRONG)
    chosen = _graphs(text, blocks, given, summary, slips, made_up=stated)
    open_places = {(c.line, c.column) for b in open_blocks for c in b.cells() if _open(by_place, c)}
    open_places -= {(c.line, c.column) for b in stated for c in b.cells()}  # givens, whatever they fit
    texts, printed_cell = _printed_cells(blocks)
    out = dict(by_place)
    overruled = _overruled(by_place, chosen, blocks)
    for place, verdict in chosen.items():
        if place not in open_places and place not in overruled:
            continue
        out[place] = Finding(
            line=place[0],
            column=place[1],
            subject=verdict.stage,
            cell=printed_cell.get(place, verdict.cell),
            claimed=texts[place],
            value=verdict.value,
            exact=verdict.exact,
            status=Status(verdict.status),
            kind=Kind(verdict.kind),
            carried_from=verdict.carried_from,
            reason=f"identified by its digits as {verdict.stage}[{verdict.cell[0]},{verdict.cell[1]}]"
            + (f" ({verdict.scale})" if verdict.scale else "")
            + (f"; a reading of the formula gave {overruled[place]}" if place in overruled else ""),
        )
        summary["identified"] += 1
    overruled_lines = {line for line, _ in overruled}
    for place, finding in list(out.items()):  # carried from a number the explanation found right
        root = finding.carried_from
        if finding.status == Status.WRONG and root in overruled_lines:
            if any(f.status == Status.WRONG and f.line == root for f in out.values()):
                continue
            restated = next(
                (out[p] for p in overruled if p[0] == root and out[p].claimed == finding.claimed), None
            )
            out[place] = dataclasses.replace(
                finding,
                status=Status.OK if restated else Status.UNVERIFIED,
                kind=Kind.OK if restated else Kind.UNDECIDED,
                carried_from=None,
                value=restated.value if restated else finding.value,
                exact=restated.exact if restated else finding.exact,
                reason=f"restates line {root}'s value, which the explanation finds right"
                if restated
                else f"follows from line {root}, whose numbers the explanation finds right",
            )
    _doubted(out, blocks, chosen)
    _restated(out, blocks)
    _restated_results(out, blocks)
    if seeds is not None:
        _seed(seeds, out, chosen, blocks)
    return sorted(out.values(), key=lambda f: (f.line, f.column)), summary


#: A block's true values go on to the readers when at least this share of its identified
#: numbers is right, MIN_SEED_EVIDENCE of them with two digits or more.
SEED_SHARE = Fraction(1, 2)
MIN_SEED_EVIDENCE = 2


def _seed(
    seeds: Seeds,
    out: dict[tuple[int, int], Finding],
    chosen: dict[tuple[int, int], Verdict],
    blocks: list[Block],
) -> None:
    """The true values of the numbers of each block the explanation identified with evidence:
    what is computed from them later is judged by them (document.py reads the document again).
    A block identified mostly by its misses (a hypothesis that explains a digit or two of it
    where another would call all of it wrong) is not evidence enough of which true values it
    stands for: its numbers stay as printed in the readers' world (b)."""
    for block in blocks:
        identified = [
            (c, out[(c.line, c.column)])
            for c in block.cells()
            if (c.line, c.column) in chosen
            and (c.line, c.column) in out
            and out[(c.line, c.column)].reason.startswith("identified by its digits")
        ]
        right = [c for c, f in identified if f.status == Status.OK and c.weight >= 2]
        if not identified or len(right) < MIN_SEED_EVIDENCE or len(right) < len(identified) * SEED_SHARE:
            continue
        for c, finding in identified:
            true = _portable(chosen[(c.line, c.column)].truth)
            if true is not None:
                seeds[(c.line, c.column)] = (true, finding.status == Status.WRONG, finding.claimed)


def _portable(true: Any) -> Fraction | tuple[str, str] | None:
    """A true value as the readers' world (b) takes it: a Fraction as it is; a ball as a
    decimal midpoint and a radius that still encloses it (:class:`symattn.exact.Known`); None
    for a masked cell."""
    if isinstance(true, Fraction):
        return true
    if not hasattr(true, "mid") or not true.is_finite():
        return None
    mid = true.mid()
    text = mid.str(SEED_DIGITS, radius=False)
    from flint import arb

    # the decimal is off the midpoint by less than a unit of its last digit: the radius covers that too
    radius = true.rad() + abs(mid) * arb(10) ** (1 - SEED_DIGITS)
    return text, repr(float(radius.upper()) * 2 or 1e-300)


#: What a line says before a block it computes: a formula (an applied function or an operator
#: between operands) and then "=" or "≈" (``softmax(0.29, 0.21, 0.51) ≈ [0.28, …]``).
_COMPUTED_BY = re.compile(
    r"(?:\)|[-+*/@\u00d7\u00b7\u2022\u2212]|\\(?:cdot|times))[^=\u2248]*(?:=|\u2248|\\approx)[\s`$*_\\\[(]*$"
)


_LIST_MARK = re.compile(r"^\s*(?:>\s*)*(?:[-*+]|\d+[.)])\s+")


def _result(lines: list[str], block: Block) -> bool:
    """Whether ``block`` is written as the result of a formula on its line: never a given."""
    first = block.rows[0][0]
    before = lines[first.line - 1][: first.column - 1].replace("**", "").replace("__", "")  # emphasis
    return _COMPUTED_BY.search(_LIST_MARK.sub("", before)) is not None  # (a list item's mark is no product)


def _computable(block: Block) -> bool:
    """A block a graph with no given block may be: a row of numbers, or rows of them, that the
    encoding of positions could print (computed from positions alone)."""
    return block.shape[1] >= 2 and not any(c.infinite for c in block.cells())


#: A reading of a table is doubted when it calls more than this share of the table's judged
#: numbers wrong, fresh, with no convention that fits them, in a table of MIN_DOUBTED or more.
DOUBTED_SHARE = Fraction(1, 2)
MIN_DOUBTED = 6


def _doubted(
    out: dict[tuple[int, int], Finding], blocks: list[Block], chosen: dict[tuple[int, int], Any]
) -> None:
    """A table that a reader named from its header and prose (no formula is written on it)
    and then calls mostly wrong, each number a fresh slip that no convention explains, while
    no hypothesis of the explanation identifies it, has more likely been named as the wrong
    quantity (a table of angles pos/divisor under "Position | dim 0,1") than printed with that
    many slips: its numbers are unverified.  Slips that a convention explains say so
    (``fits``) and stand; so does a table the explanation identified, and any block with its
    formula written on it (``PE(1) = [...]``: the author's own statement of what it is)."""
    for block in _table_matrices(blocks):
        places = [(c.line, c.column) for c in block.cells()]
        judged = [out[p] for p in places if p in out and out[p].status in (Status.OK, Status.WRONG)]
        fresh = [f for f in judged if f.status == Status.WRONG and f.carried_from is None and f.fits is None]
        if (
            len(judged) < MIN_DOUBTED
            or len(fresh) <= len(judged) * DOUBTED_SHARE
            or any(p in chosen for p in places)
            or any(f.reason.startswith("identified by its digits") for f in judged)
        ):
            continue
        for f in judged:  # its numbers called right by the same reading are no evidence either
            out[(f.line, f.column)] = dataclasses.replace(
                f,
                status=Status.UNVERIFIED,
                kind=Kind.UNDECIDED,
                reason=f"the reading calls {len(fresh)} of this table's {len(judged)} numbers wrong and no "
                "convention or explanation fits it: more likely named as the wrong quantity than that many slips",
            )


def _restated(out: dict[tuple[int, int], Finding], blocks: list[Block]) -> None:
    """A block printed again cell for cell (the weights restated in ``A V``) says what it said
    before: a number wrong there is carried here, from the line where it was first wrong."""
    first: dict[tuple[str, ...], Block] = {}
    for block in blocks:
        key = tuple(c.text for c in block.cells())
        if len(key) < 2 or all(c.places is None for c in block.cells()):
            continue
        before = first.setdefault(key, block)
        if before is block or any(_judged_as_other(out.get((c.line, c.column))) for c in block.cells()):
            continue  # the readers judged it as a computation of its own: the same digits by chance
        for then, now in zip(before.cells(), block.cells(), strict=True):
            was = out.get((then.line, then.column))
            here = out.get((now.line, now.column))
            if (
                was is None
                or was.status != Status.WRONG
                or (here is not None and here.status == Status.WRONG)
            ):
                continue
            out[(now.line, now.column)] = dataclasses.replace(
                was,
                line=now.line,
                column=now.column,
                status=Status.WRONG,
                kind=Kind.CARRIED,
                carried_from=was.carried_from or then.line,
                reason=f"restates line {then.line}'s number, which is wrong there",
            )


#: Verdicts a printed block may restate: a result the document computed and printed before.
_RESULTS = frozenset({Kind.OK, Kind.WRONG, Kind.SLIP, Kind.CARRIED, Kind.ROUNDING, Kind.ROUNDING_CARRIED})


def _restated_results(out: dict[tuple[int, int], Finding], blocks: list[Block]) -> None:
    """A block nobody judged whose every number, of two digits or more, is the text of a result
    judged earlier in the document (``= 30.193`` and ``= 606.440``, then ``partition =
    [[30.193], [606.440]]``) restates those results: right where they are right, and carried
    where they are wrong."""
    results: dict[str, Finding] = {}
    judged = sorted(
        (f for f in out.values() if f.status != Status.UNVERIFIED and f.kind in _RESULTS),
        key=lambda f: (f.line, f.column),
    )
    taken = 0  # the judged results before the block being read
    for block in blocks:
        cells = block.cells()
        while taken < len(judged) and (judged[taken].line, judged[taken].column) < (
            cells[0].line,
            cells[0].column,
        ):
            results[judged[taken].claimed] = judged[taken]
            taken += 1
        if len(cells) < 2 or any(c.weight < 2 for c in cells):
            continue
        if not all(_open(out, c) and c.text in results for c in cells):
            continue
        if len({(results[c.text].line, results[c.text].column) for c in cells}) < len(cells):
            continue  # one result printed twice in a block is no restatement of results
        for c in cells:
            was = results[c.text]
            wrong = was.status == Status.WRONG
            out[(c.line, c.column)] = dataclasses.replace(
                was,
                line=c.line,
                column=c.column,
                claimed=c.text,
                kind=Kind.CARRIED if wrong else Kind.OK,
                carried_from=(was.carried_from or was.line) if wrong else None,
                reason=f"restates the result of line {was.line}"
                + (", which is wrong there" if wrong else ""),
            )


def _judged_as_other(finding: Finding | None) -> bool:
    """A verdict the readers reached on a number as the result of a formula, not as a copy."""
    return (
        finding is not None
        and finding.status in (Status.OK, Status.WRONG)
        and not finding.reason.startswith(("restates", "identified by its digits"))
    )


def _overruled(
    by_place: dict[tuple[int, int], Finding], chosen: dict[tuple[int, int], Any], blocks: list[Block]
) -> dict[tuple[int, int], str]:
    """The readers' fresh wrong numbers that the explanation identifies and finds right, with
    the readers' value: a number is wrong only when every explanation nearly as good calls it
    wrong, and a reading that took a rounded printout as exact is not one.  The match must be
    evidence: the number carries three digits of evidence or more (a 0.3 fits many
    conventions), and the explanation finds every number of its block right (a reading that
    calls others wrong there is not a better one), on the evidence of three numbers of two
    digits or more (not one number among zeros)."""
    clean: dict[tuple[int, int], Lit] = {
        (c.line, c.column): c
        for b in blocks
        if all(chosen[(c.line, c.column)].status == "ok" for c in b.cells() if (c.line, c.column) in chosen)
        and sum(1 for c in b.cells() if c.weight >= 2 and (c.line, c.column) in chosen) >= 3
        for c in b.cells()
    }
    out = {}
    for place, verdict in chosen.items():
        finding = by_place.get(place)
        if (
            finding is not None
            and place in clean
            and clean[place].weight >= 3
            and finding.status == Status.WRONG
            and finding.carried_from is None
            and finding.fits is None  # a convention finding already says another convention fits
            and verdict.status == "ok"
            and verdict.grounded
            and _other_value(finding.value, verdict.value)
            and _rounding_apart(finding.value, verdict.value)
        ):
            out[place] = finding.value or "?"
    return out


def _other_value(read: str | None, explained: str | None) -> bool:
    """Whether the explanation's true value is not the readers': a different reading of the
    number (where both have the same value, they differ only in how strictly they judge its
    last digit, and the readers' stricter verdict stands)."""
    if read is None or explained is None:
        return read is None
    try:
        a, b = Fraction(read), Fraction(explained)
    except ValueError:
        return False
    places = max(len(t.partition(".")[2]) for t in (read, explained))
    return abs(a - b) * 10**places > 2


def _rounding_apart(read: str | None, explained: str | None) -> bool:
    """Whether the two true values are as far apart as a reading of rounded printouts puts
    them (2% of the value, or ten units of their last place): a reading that computed the
    number from other inputs (another head's weights) is not one of rounding, and its
    verdict stands."""
    if read is None or explained is None:
        return True
    try:
        a, b = Fraction(read), Fraction(explained)
    except ValueError:
        return False
    places = max(len(t.partition(".")[2]) for t in (read, explained))
    return abs(a - b) <= abs(b) / 50 + Fraction(10, 10**places)
