"""Tables of numbers: Markdown pipe tables and HTML ``<table>``.

A table whose cells hold numbers is a matrix claim when it is named: by its
header's first cell, or by the sentence before it ("The attention weights
are:", "注意力权重如下"), through :func:`symattn.verify.readers.code.phrase_name`.
The first row is a header of token labels when it holds no number, and the
first column is one when none of its cells is a number.  A table that cannot
be named, or whose body is not all numbers, is not read.
"""

from __future__ import annotations

import re

from symattn import limits
from symattn.verify.readers.code import _name_text, _numbers_span, phrase_name
from symattn.verify.readers.span import Builder, Span

__all__ = ["Cell", "aligned_tables", "row_list_span", "statistics_spans", "table_span"]

_CELL_NUMBER = re.compile(
    r"^[\s*_$`]*(?:\\(?:num|SI)\s*\{\s*)?(-?(?:\d+(?:\.\d+)?|\.\d+)%?)(?:\s*\}(?:\{[^{}]*\})?)?[\s*_$`]*$"
)  # 0.4, **0.4**, $0.4$, \num{0.4}, \SI{0.4}{\metre}

#: A table cell: its text with the source map.
Cell = Span


def _number(cell: Cell) -> tuple[int, int] | None:
    match = _CELL_NUMBER.match(cell.text.replace("\u2212", "-"))
    return match.span(1) if match else None


_QKV = {"query": "Q", "queries": "Q", "q": "Q", "查询": "Q", "key": "K", "keys": "K", "k": "K", "键": "K",
        "value": "V", "values": "V", "v": "V", "值": "V"}  # fmt: skip
_VECTOR = re.compile(r"^\s*[\[(]\s*(-?[\d.]+(?:\s*,\s*-?[\d.]+)*)\s*[\])]\s*$")


def _vector_columns(header: list[Cell], body: list[list[Cell]]) -> Span | None:
    """A table of token rows with query, key and value vectors in its cells:
    the definitions of Q, K and V, one row per token."""
    if not header or len(header) < 2:
        return None
    names = [_QKV.get(c.text.strip().strip("*`").lower()) for c in header]
    if not any(names[1:]):
        return None
    builder = Builder()
    for column, name in enumerate(names):
        if name is None or column == 0:
            continue
        cells = [row[column] for row in body]
        vectors = [_VECTOR.match(c.text) for c in cells]
        if any(v is None for v in vectors):
            return None
        rows = [[m.span() for m in re.finditer(r"-?[\d.]+", v.group(1))] for v in vectors]  # type: ignore[union-attr]
        if len({len(r) for r in rows}) != 1:
            return None
        if builder.length:
            builder.put(r" \quad ", cells[0].source_offset(0))
        builder.put(name + r" = \begin{bmatrix}", cells[0].source_offset(0))
        for r, (cell, vector, spans) in enumerate(zip(cells, vectors, rows, strict=True)):
            if r:
                builder.put(r" \\ ", cell.source_offset(0))
            for c, (lo, hi) in enumerate(spans):
                if c:
                    builder.put(" & ", cell.source_offset(0))
                base = vector.start(1)  # type: ignore[union-attr]
                builder.copy_span(cell, base + lo, base + hi)
        builder.put(r"\end{bmatrix}", cells[-1].source_offset(0))
    return builder.build(True, "tables", frozenset({"tentative"})) if builder.length else None


_STAGES = (
    ("scaled", re.compile(r"scaled|÷|/\s*√|缩放", re.I)),
    ("exp", re.compile(r"\bexp|e\^|指数", re.I)),
    ("weight", re.compile(r"weight|softmax|权重|概率|attention", re.I)),
    ("score", re.compile(r"score|q\s*[·⋅.]\s*k|点积|分数|得分", re.I)),
)
_TOTAL = re.compile(r"^\W*(?:total|sum|合计|总和|求和)\W*$", re.I)


def _stage(cell: Cell) -> str | None:
    return next((name for name, pattern in _STAGES if pattern.search(cell.text)), None)


def _column_chain(header: list[Cell], body: list[list[Cell]]) -> Span | None:
    """A table whose columns are computed left to right from one query's scores
    (raw score, scaled, exp, weight): each row's cells as a chain of steps."""
    if not header:
        return None
    stages = {_stage(c): k for k, c in enumerate(header) if k and _stage(c)}
    if len(stages) < 2 or None in stages:
        return None
    rows = [row for row in body if not _TOTAL.match(row[0].text)]
    if len(rows) < 2:
        return None
    numbers = {name: [(_number(row[k]), row[k]) for row in rows] for name, k in stages.items()}
    if any(p is None for cells in numbers.values() for p, _ in cells):
        return None
    out = Builder()

    def cell(name: str, r: int) -> None:
        (lo, hi), piece = numbers[name][r]  # type: ignore[misc]
        out.copy_span(piece, lo, hi)

    def sep(at: Cell) -> None:
        if out.length:
            out.put(r" \quad ", at.source_offset(0))

    n = len(rows)
    for r in range(n):
        at = rows[r][0]
        if "score" in stages and "scaled" in stages:
            sep(at)
            out.put(r"\frac{", at.source_offset(0))
            cell("score", r)
            out.put(r"}{\sqrt{d_{k}}} = ", at.source_offset(0))
            cell("scaled", r)
        if "scaled" in stages and "exp" in stages:
            sep(at)
            out.put("e^{", at.source_offset(0))
            cell("scaled", r)
            out.put("} = ", at.source_offset(0))
            cell("exp", r)
        source = "exp" if "exp" in stages else "scaled" if "scaled" in stages else None
        if "weight" in stages and source is not None:
            sep(at)
            wrap = ("", "") if source == "exp" else ("e^{", "}")
            out.put(r"\frac{" + wrap[0], at.source_offset(0))
            cell(source, r)
            out.put(wrap[1] + "}{", at.source_offset(0))
            for k in range(n):
                if k:
                    out.put(" + ", at.source_offset(0))
                out.put(wrap[0], at.source_offset(0))
                cell(source, k)
                out.put(wrap[1], at.source_offset(0))
            out.put("} = ", at.source_offset(0))
            cell("weight", r)
    _total_row(out, body, stages.get("exp"), numbers.get("exp"))
    return out.build(True, "tables", frozenset({"tentative"})) if out.length else None


def _is_total(cell: Cell) -> bool:
    return bool(_TOTAL.match(cell.text)) or "\\sum" in cell.text or "Σ" in cell.text or "∑" in cell.text


def _row_stages(header: list[Cell], body: list[list[Cell]]) -> Span | None:
    """A table whose rows are the stages of one query's softmax: a row of
    exponentials (with their sum in a "Σ" column) and the weights row under it.

    ``| row | e^{z_1} | e^{z_2} | Σ |`` over ``| 1 | 1.6487 | 2.7183 | 4.3670 |``
    and ``| weights | 0.3775 | 0.6225 | |`` reads as ``1.6487 + 2.7183 = 4.3670``
    and ``\\frac{1.6487}{4.3670} = 0.3775``, ``\\frac{2.7183}{4.3670} = 0.6225``.
    """
    if not header or len(header) < 3:
        return None
    totals = [k for k, c in enumerate(header) if k and _is_total(c)]
    columns = [k for k in range(1, len(header)) if k not in totals]
    if len(totals) > 1 or len(columns) < 2 or any(_stage(header[k]) != "exp" for k in columns):
        return None
    total = totals[0] if totals else None
    out = Builder()
    exps: list[tuple[tuple[int, int], Cell]] | None = None
    denominator: tuple[tuple[int, int], Cell] | None = None
    for row in body:
        label = _stage(row[0])
        numbers = [(_number(row[k]), row[k]) for k in columns]
        if any(p is None for p, _ in numbers):
            return None
        at = row[0].source_offset(0)
        if label in (None, "exp"):  # a query's row: its exponentials
            exps = numbers  # type: ignore[assignment]
            denominator = None
            found = _number(row[total]) if total is not None else None
            if found is not None:
                if out.length:
                    out.put(r" \quad ", at)
                for k, (span, cell) in enumerate(numbers):
                    if k:
                        out.put(" + ", at)
                    out.copy_span(cell, *span)  # type: ignore[misc]
                out.put(" = ", at)
                out.copy_span(row[total], *found)  # type: ignore[index]
                denominator = (found, row[total])  # type: ignore[index]
        elif label == "weight" and exps is not None:
            for (span, cell), (exp_span, exp_cell) in zip(numbers, exps, strict=True):
                if out.length:
                    out.put(r" \quad ", at)
                out.put(r"\frac{", at)
                out.copy_span(exp_cell, *exp_span)
                out.put("}{", at)
                if denominator is not None:
                    out.copy_span(denominator[1], *denominator[0])
                else:
                    for k, (other, other_cell) in enumerate(exps):
                        if k:
                            out.put(" + ", at)
                        out.copy_span(other_cell, *other)
                out.put("} = ", at)
                out.copy_span(cell, *span)  # type: ignore[misc]
            exps = None
        else:
            return None
    return out.build(True, "tables", frozenset({"tentative"})) if out.length else None


def _total_row(out: Builder, body: list[list[Cell]], column: int | None, exps: list | None) -> None:
    """``| total | | | 6.9336 |`` under the exponentials: their sum, as one more step."""
    totals = [row for row in body if _TOTAL.match(row[0].text)]
    if len(totals) != 1 or column is None or exps is None or column >= len(totals[0]):
        return
    total = totals[0][column]
    found = _number(total)
    if found is None:
        return
    out.put(r" \quad ", total.source_offset(0))
    for r, ((lo, hi), piece) in enumerate(exps):
        if r:
            out.put(" + ", total.source_offset(0))
        out.copy_span(piece, lo, hi)
    out.put(" = ", total.source_offset(0))
    out.copy_span(total, *found)


_POSITION_HEADER = re.compile(r"(?:pos(?:ition)?s?|位置|m|t)$", re.I)


def _plain(cell: Cell) -> str:
    """A header or label cell's words, without emphasis, code or math marks (``$pos$``, ``**pos**``)."""
    return cell.text.strip().strip("*`$ ")


_SUM_OF_NAMES = re.compile(
    r"\s*[A-Za-z](?:_\{?\w+\}?)?(?:\s*[+-]\s*(?:\\mathrm\{)?[A-Za-z]{1,3}\}?(?:_\{?\w+\}?)?)+\s*"
)


def _named_by_math(math: str) -> str | None:
    """The last inline math of the sentence before a table, when it is a sum of names
    (``X + PE``, ``H + FFN``) and no equation: what the table's cells are."""
    pieces = [p for p in math.splitlines() if p.strip()]
    if not pieces or not _SUM_OF_NAMES.fullmatch(pieces[-1]) or "=" in pieces[-1]:
        return None
    return pieces[-1].strip()


#: A row label naming one token's vector by a subscript: ``x_0``, ``x_{1}``, ``z_2``; or its sum with PE
#: (``x_0+PE_0``).  Not a bare ``t1``: a token's name, not the row of a matrix.
_INDEXED_ROW = re.compile(r"([xzh])_\{?(\d{1,3})\}?(?:\s*\+\s*(PE)_?\{?\(?(\d{1,3})\)?\}?)?", re.I)


def _indexed_rows(body: list[list[Cell]]) -> str | None:
    """The matrix whose rows a first column numbers in order from 0 or 1 (``x_0``, ``x_1``, …):
    ``X`` (``X + PE`` for ``x_0+PE_0``, …), or None."""
    found = [_INDEXED_ROW.fullmatch(_plain(row[0]).replace(" ", "")) for row in body]
    if len(found) < 2 or any(m is None for m in found):
        return None
    letters = {(m.group(1), m.group(3)) for m in found}  # type: ignore[union-attr]
    numbers = [int(m.group(2)) for m in found]  # type: ignore[union-attr]
    if len(letters) != 1 or numbers not in ([k for k in range(len(body))], [k + 1 for k in range(len(body))]):
        return None
    if any(m.group(4) is not None and m.group(4) != m.group(2) for m in found):  # type: ignore[union-attr]
        return None  # x_0 + PE_1: not one position's sum
    letter, pe = letters.pop()
    return letter.upper() + (" + PE" if pe else "")


_DEFINED_NAME = re.compile(r"\s*([A-Za-z](?:_\{?\w{1,3}\}?)?)\s*=\s*[^=]+")
_RELU_WORD = re.compile(r"\bReLU\b|\\max\s*\(\s*0")


def _named_by_heading(words: str, math: str) -> str | None:
    """The name a heading gives the table under it: the one name its math defines
    (``H = XW_1 + b_1``), or the ReLU's output ("After the ReLU")."""
    pieces = [p for p in math.splitlines() if p.strip()]
    defined = _DEFINED_NAME.fullmatch(pieces[0]) if len(pieces) == 1 else None
    if defined:
        return defined.group(1)
    return "ReLU" if _RELU_WORD.search(words) and not pieces else None


def _dimension_header(header: list[Cell]) -> bool:
    """``pos | 0 | 1 | 2 | 3``: positions down, dimensions 0 … d − 1 across (a header)."""
    texts = [_plain(c) for c in header]
    return bool(_POSITION_HEADER.match(texts[0])) and texts[1:] == [str(k) for k in range(len(texts) - 1)]


def _counts(body: list[list[Cell]], header: list[Cell]) -> bool:
    """A first column 1, 2, 3 ... under a header word ("query", "token", "词"): token numbers."""
    if not header or _number(header[0]) is not None or len(body[0]) < 2:
        return False
    first = [_plain(row[0]) for row in body]
    if _POSITION_HEADER.match(_plain(header[0])):  # pos 0, 1, 2: a positional table
        return first in ([str(k) for k in range(len(body))], [str(k + 1) for k in range(len(body))])
    return first == [str(k + 1) for k in range(len(body))]


#: A table after a formula of an activation ("$\\mathrm{ReLU}(h) = \\max(0, h)$:") holds its values.
_ACTIVATION_MATH = re.compile(r"\\(?:mathrm|operatorname|text)\{ReLU\}|\\max\s*\(\s*0\s*,")


def _table_name(
    header: list[Cell],
    body: list[list[Cell]],
    *,
    label_column: bool,
    prose: str,
    math: str,
    heading: tuple[str, str] | None,
) -> tuple[str | None, str | None]:
    """What a table's cells are: a name (``X``, ``PE``, ``ReLU``) or an expression (``X + PE``),
    from its labels, its header, the sentence before it, or the heading it is under."""
    name = None
    if label_column:
        labels = {phrase_name(row[0].text) for row in body}
        if len(labels) == 1:
            name = labels.pop()  # "**Attention weight** (the)" on every row
        if name is None:
            name = _indexed_rows(body)  # $x_0$, $x_1$, $x_2$ down the first column: the rows of X
            if name is not None and "+" in name:
                return None, name  # x_0+PE_0, …: the rows of the sum X + PE
    if header and name is None:
        name = phrase_name(header[0].text)
        others = {phrase_name(c.text) for c in header[1:]}
        if name is None and len(others) == 1:
            name = others.pop()  # "输出 1 | 输出 2": the columns of the output
    if name is None:
        lines = [line for line in prose.strip().splitlines() if line.strip()]
        name = phrase_name(lines[-1]) if lines else None
    if name is None and _ACTIVATION_MATH.search(math):
        name = "ReLU"  # the hidden units after the ReLU (sublayers.py: of the matrix of that shape before)
    if (
        name is None
        and header
        and _POSITION_HEADER.match(_plain(header[0]))
        and any(re.search(r"\b(?:sin|cos|dim|dimension)\b|维", c.text, re.I) for c in header[1:])
    ):
        name = "PE"  # pos | dim 0 (sin) | dim 1 (cos) | …: the positional encoding
    if name is None and prose.rstrip().endswith((":", "：")):
        expression = _named_by_math(math)  # "and the sum $X + PE$, which … sees:"
        if expression is not None:
            return None, expression
    if name is None and heading is not None:
        name = _named_by_heading(*heading)  # "### Hidden pre-activations $H = XW_1 + b_1$"
    return name, None


def table_span(
    rows: list[list[Cell]], prose: str, math: str = "", *, heading: tuple[str, str] | None = None
) -> Span | None:
    """The claim a table makes, as a core-grammar span, or None (``math``: the inline
    math of the paragraph before it, which names it when its words do not; ``heading``: the
    words and math of the heading it is the first table under, when nothing else names it)."""
    if len(rows) < 2 or len({len(r) for r in rows}) != 1:
        return None
    header = rows[0]
    body = rows[1:]
    if any(_number(c) for c in header) and not _dimension_header(header):
        header, body = [], rows
    columns = _vector_columns(header, body) or _column_chain(header, body) or _row_stages(header, body)
    if columns is not None:
        return columns
    label_column = all(_number(row[0]) is None for row in body) or _counts(body, header)
    cells = [row[1:] if label_column else row for row in body]
    if not cells or not cells[0]:
        return None
    positions = [[_number(c) for c in row] for row in cells]
    if any(p is None for row in positions for p in row):
        return None
    name, expression = _table_name(
        header, body, label_column=label_column, prose=prose, math=math, heading=heading
    )
    if name is None and expression is None:
        return None
    builder = Builder()
    first = cells[0][0]
    left = expression if expression is not None else _name_text(name)  # type: ignore[arg-type]
    builder.put(left + r" = \begin{bmatrix}", first.source_offset(0))
    for r, row in enumerate(cells):
        if r:
            builder.put(r" \\ ", row[0].source_offset(0))
        for c, cell in enumerate(row):
            if c:
                builder.put(" & ", cell.source_offset(0))
            lo, hi = positions[r][c]  # type: ignore[misc]
            builder.copy_span(cell, lo, hi)
    builder.put(r"\end{bmatrix}", cells[-1][-1].source_offset(0))
    return builder.build(True, "tables", frozenset({"tentative"}))


_ROW_LINE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:row|query|token|第)[ \t]*(\d+)[ \t]*行?[ \t]*[:：][ \t]*[\[(]?"
    r"((?:-?\d+(?:\.\d+)?)(?:[ \t]*[,，][ \t]*-?\d+(?:\.\d+)?)+)[\])]?[ \t]*[.;。]?[ \t]*$",
    re.I,
)


def row_list_span(piece: Span, prose: str) -> Span | None:
    """Lines that list a matrix row by row, named by the sentence before them::

        the attention weights, rounded to two places:
          row 1: 0.43, 0.14, 0.43
          row 2: 0.17, 0.30, 0.53

    read as ``weights = [[0.43, 0.14, 0.43], [0.17, 0.30, 0.53]]``.  Every line
    of the piece must be such a row (numbered 1, 2, … with equally many
    numbers), and the sentence before must name the quantity; else None."""
    lines = [line for line in re.finditer(r"[^\n]+", piece.text) if line.group().strip()]
    if len(lines) < 2:
        return None
    rows = []
    for k, line in enumerate(lines):
        match = _ROW_LINE.match(line.group())
        if match is None or int(match.group(1)) != k + 1:
            return None
        base = line.start() + match.start(2)
        rows.append(
            [(base + m.start(), base + m.end()) for m in re.finditer(r"-?\d+(?:\.\d+)?", match.group(2))]
        )
    if len({len(r) for r in rows}) != 1:
        return None
    before = [line for line in prose.strip().splitlines() if line.strip()]
    name = phrase_name(before[-1]) if before else None
    if name is None:
        return None
    block = _numbers_span(piece, rows, scalar=False)
    builder = Builder().put(_name_text(name) + " = ", piece.source_offset(rows[0][0][0]))
    return builder.copy_span(block, 0, len(block.text)).build(True, "tables", frozenset({"tentative"}))


# --- per-token statistics tables -----------------------------------------------------------

#: A header cell of a per-token statistics table: what each cell of the column claims for the row's
#: token, and which norm such a column belongs to ("rms", "ln"; None for either).
_STATISTIC_HEADERS = (
    (re.compile(r"^(?:sum\s+of\s+squares|平方和)$", re.I), None, "rms"),  # read for the flavour only
    (
        re.compile(r"^(?:mean\s+(?:of\s+)?(?:the\s+)?squares?|mean\s*\(\s*x\s*\^?\s*2\s*\)|均方)$", re.I),
        "ms",
        "rms",
    ),
    (re.compile(r"^(?:rms|rms\s*\(\s*x\s*\)|均方根)$", re.I), r"\mathrm{RMS}", "rms"),
    (re.compile(r"^(?:μ|mu|\\mu|mean|均值)$", re.I), "mean", None),
    (
        re.compile(r"^(?:σ²|σ\^2|sigma\s*\^?\s*2|\\sigma\^\{?2\}?|var|variance|方差)$", re.I),
        r"\sigma^2",
        "ln",
    ),
    (re.compile(r"^(?:σ|sigma|\\sigma|std|标准差)$", re.I), r"\sigma", "ln"),
)
_OUTPUT_HEADER = re.compile(
    r"^(?:y|out|output|输出|(?:LN|LayerNorm|RMSNorm)\s*\(\s*x\s*\))$", re.I
)  # the normalised row of a statistics table
_TOKEN_LABEL = re.compile(
    r"^(?:[a-z]\s*_?\{?(\d{1,2})\}?|token\s*#?\s*(\d{1,2})|第\s*(\d)\s*个(?:\s*token)?)$", re.I
)


def _header_word(cell: Cell) -> str:
    return _plain(cell).replace("\\(", "").replace("\\)", "")


def statistics_spans(rows: list[list[Cell]]) -> list[Span]:
    """A table of per-token statistics (``token | sum of squares | mean | rms | y``, or ``μ``,
    ``σ²``): one span per token row, flagged with its row, stating each statistic the header
    names (``\\mathrm{RMS} = 0.224``, ``\\mathrm{mean}(x^2) = 0.050`` when the table is of RMSNorm,
    ``\\mu = …`` otherwise) and the normalised row (``\\mathrm{RMSNorm}(x) = [2.012, -0.224]``).
    Empty when the header names no statistic or a row names no token."""
    if len(rows) < 2 or len({len(r) for r in rows}) != 1 or len(rows[0]) < 2:
        return []
    header, body = rows[0], rows[1:]
    kinds = []
    for cell in header[1:]:
        word = _header_word(cell)
        found = next(
            ((formula, flavour) for pattern, formula, flavour in _STATISTIC_HEADERS if pattern.match(word)),
            None,
        )
        kinds.append(found if found is not None else ("output", None) if _OUTPUT_HEADER.match(word) else None)
    flavours = {kind[1] for kind in kinds if kind is not None and kind[1] is not None}
    if len(flavours) > 1 or not any(kind is not None and kind[0] not in (None, "output") for kind in kinds):
        return []
    flavour = flavours.pop() if flavours else "ln"
    tokens = [_TOKEN_LABEL.match(_header_word(row[0])) for row in body]
    if any(t is None for t in tokens):
        return []
    spans = []
    for row, token in zip(body, tokens, strict=True):
        index = int(next(g for g in token.groups() if g))  # type: ignore[union-attr]
        builder = Builder()
        for cell, kind in zip(row[1:], kinds, strict=True):
            if kind is None or kind[0] is None:
                continue
            formula = kind[0]
            if formula == "output":
                vector = _VECTOR.match(cell.text)
                if vector is None:
                    continue
                left = r"\mathrm{RMSNorm}(x)" if flavour == "rms" else r"\mathrm{LN}(x)"
                parts = [m.span() for m in re.finditer(r"-?[\d.]+", vector.group(1))]
                statement = [(left + r" = \begin{bmatrix}", None)]
                for k, (lo, hi) in enumerate(parts):
                    statement.append((" & " if k else "", None))
                    statement.append(("", (vector.start(1) + lo, vector.start(1) + hi)))
                statement.append((r"\end{bmatrix}", None))
            else:
                number = _number(cell)
                if number is None:
                    continue
                if formula == "mean":
                    formula = r"\mathrm{mean}(x^2)" if flavour == "rms" else r"\mu"
                elif formula == "ms":
                    formula = r"\mathrm{mean}(x^2)"
                statement = [(formula + " = ", None), ("", number)]
            if builder.length:
                builder.put(r" \quad ", cell.source_offset(0))
            for text, copied in statement:
                if copied is None:
                    builder.put(text, cell.source_offset(0))
                else:
                    builder.copy_span(cell, *copied)
        if builder.length:
            spans.append(builder.build(True, "tables", frozenset({f"row:{index}", "rowonly", "tentative"})))
    return spans


#: Body rows read under one rule of dashes.
MAX_ALIGNED_ROWS = 500
_DASH_RULE = re.compile(r"^([ \t]*)-{3,}(?:[ \t]{2,}-{3,})+[ \t]*$")


def aligned_tables(source: str) -> list[list[list[Cell]]]:
    """Plain-text tables aligned with spaces under a rule of dashes::

        token   mean    rms
        -----   -----   -----
        x1      1.040   1.025

    as rows of cells (the header first), each cell the text under its rule's dashes (the
    last to the end of the line), mapped to the source.  Body rows run to a blank line."""
    lines = source.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    tables = []
    for i, line in enumerate(lines):
        if i == 0 or not _DASH_RULE.match(line) or not lines[i - 1].strip():
            continue
        columns = [m.start() for m in re.finditer(r"-+", line)]
        if len(columns) > limits.MAX_ALIGNED_COLUMNS:
            continue  # a rule of dashes this wide is no table of statistics (and would be cells by the million)
        rows = []
        for k in [i - 1, *range(i + 1, min(len(lines), i + 1 + MAX_ALIGNED_ROWS))]:
            text = lines[k]
            if k > i and (not text.strip() or _DASH_RULE.match(text)):
                break  # a blank line, or the next table's rule: every line is read by one table at most
            cells = []
            for c, start in enumerate(columns):
                end = columns[c + 1] if c + 1 < len(columns) else len(text)
                piece = text[start:end] if start < len(text) else ""
                lead = len(piece) - len(piece.lstrip())
                cells.append(Span.verbatim(piece.strip(), starts[k] + start + lead, False, "text"))
            if any(
                text[columns[c] - 1 : columns[c]].strip()
                for c in range(1, len(columns))
                if columns[c] <= len(text)
            ):
                rows = []  # a cell runs across a column boundary: not this kind of table
                break
            rows.append(cells)
        if len(rows) >= 2:
            tables.append(rows)
    return tables
