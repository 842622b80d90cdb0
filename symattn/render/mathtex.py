"""LaTeX for exact values: entries, matrices, row vectors and wide layouts.

Everything here formats values it is given; nothing is computed.  The output
is accepted both by KaTeX (Markdown) and by amsmath (pdflatex, xelatex).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import sympy
from sympy.printing.latex import LatexPrinter

__all__ = [
    "PAGE_WIDTH",
    "chain",
    "column_blocks",
    "entry",
    "escape_text",
    "is_identifier",
    "label",
    "matrix",
    "row_vector",
    "width",
    "wrap",
]

PAGE_WIDTH = 56
"""Budget of one display line, in estimated characters (see :func:`width`)."""


def entry(value: sympy.Expr | str) -> str:
    """LaTeX of one exact value (``-oo`` is ``-\\infty``) or of a decimal string.

    >>> entry(sympy.sqrt(2) / 2), entry(-sympy.oo), entry("0.4011")
    ('\\\\frac{\\\\sqrt{2}}{2}', '-\\\\infty', '0.4011')
    """
    if isinstance(value, str):
        return r"-\infty" if value == "-inf" else value
    return _latex(value)


@lru_cache(maxsize=1 << 16)
def _latex(value: sympy.Expr) -> str:
    """SymPy's LaTeX in the expression's canonical order, cached.

    ``order="none"`` skips SymPy's numeric ordering of sums (which evaluates
    every term and dominated the time of large derivations); the canonical
    order is deterministic, so the files stay reproducible.
    """
    if value == -sympy.oo:
        return r"-\infty"
    return _Printer({"order": "none"}).doprint(value)


#: Sums of at most this many exponentials are written smallest first.
_SORTED_TERMS = 32


def _exponent(term: sympy.Expr) -> sympy.Expr | None:
    """The exponent of a positive term ``c·e^x`` (a positive rational ``c`` is ``e^{log c}``,
    close enough to order by), or None for any other term."""
    coefficient, rest = term.as_coeff_Mul()
    if not coefficient.is_Rational or coefficient <= 0:
        return None
    if rest == 1:
        return sympy.log(coefficient) if coefficient != 1 else sympy.Integer(0)
    if isinstance(rest, sympy.exp):
        return rest.args[0] + (sympy.log(coefficient) if coefficient != 1 else 0)
    return None


class _Printer(LatexPrinter):
    """SymPy's LaTeX printer, with a softmax denominator (a sum of exponentials and a
    constant) written smallest term first: ``1 + e^{\\frac{\\sqrt{2}}{2}} + e^{\\sqrt{2}} +
    e^{\\frac{3 \\sqrt{2}}{2}}``, not in SymPy's canonical order.  Each exponent is placed by a
    15-digit float (small, known expressions); a tie keeps the canonical order."""

    def _print_Add(self, expr: sympy.Add, order: str | None = None) -> str:
        terms = expr.args
        if len(terms) <= _SORTED_TERMS:
            exponents = [_exponent(t) for t in terms]
            if all(e is not None for e in exponents):
                try:
                    keys = [float(sympy.N(e, 15)) for e in exponents]  # type: ignore[arg-type]
                except (TypeError, ValueError):
                    keys = None
                if keys is not None:
                    ordered = [t for _k, _i, t in sorted(zip(keys, range(len(terms)), terms, strict=True))]
                    return " + ".join(self._print(t) for t in ordered)
        return super()._print_Add(expr, order=order)


_TEXT_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\~{}",
}


def escape_text(text: str) -> str:
    """Escape LaTeX's special characters in text (running text, or a label in ``\\text{...}``).

    >>> escape_text("x_1 & y")
    'x\\\\_1 \\\\& y'
    """
    return "".join(_TEXT_SPECIALS.get(char, char) for char in text)


_IDENTIFIER = re.compile(r"([A-Za-z])_\{?([0-9A-Za-z]+)\}?")


def is_identifier(label: str) -> bool:
    """Whether a token label reads as a math identifier, such as ``x_1`` or ``h_{12}``.

    >>> is_identifier("x_1"), is_identifier("cats")
    (True, False)
    """
    return _IDENTIFIER.fullmatch(label) is not None


def label(text: str) -> str:
    """A token label in math mode: ``x_{1}`` for identifiers, else ``\\text{...}``.

    >>> label("x_1"), label("love")
    ('x_{1}', '\\\\text{love}')
    """
    match = _IDENTIFIER.fullmatch(text)
    if match is not None:
        return f"{match.group(1)}_{{{match.group(2)}}}"
    return r"\text{" + escape_text(text) + "}"


def _rows(values: Sequence[Sequence[sympy.Expr | str]]) -> list[list[str]]:
    return [[entry(v) for v in row] for row in values]


def _as_lists(values) -> list[list]:
    if isinstance(values, sympy.MatrixBase):
        return [list(values.row(i)) for i in range(values.rows)]
    return [list(row) for row in values]


def matrix(
    values,
    *,
    labels: Sequence[str] | None = None,
    columns: tuple[int, int] | None = None,
    row_gap: str | None = None,
) -> str:
    """A bracketed matrix; optional row labels are written to its right.

    Args:
        values: a SymPy matrix or rows of exact values / decimal strings.
        labels: one label per row (token names), aligned with ``\\vphantom``.
        columns: ``(start, stop)`` to show only those columns (0-based, stop
            excluded), for matrices too wide for a line.
        row_gap: extra space between rows, such as ``"4pt"`` (rows of fractions).

    Returns:
        ``\\begin{bmatrix} ... \\end{bmatrix}`` and, with labels, a column of
        ``\\text{label}`` next to it.

    >>> matrix(sympy.Matrix([[1, 0], [0, 1]]))
    '\\\\begin{bmatrix} 1 & 0 \\\\\\\\ 0 & 1 \\\\end{bmatrix}'
    """
    rows = _rows(_as_lists(values))
    if columns is not None:
        rows = [row[columns[0] : columns[1]] for row in rows]
    newline = r" \\ " if row_gap is None else rf" \\[{row_gap}] "
    body = newline.join(" & ".join(row) for row in rows)
    latex = r"\begin{bmatrix} " + body + r" \end{bmatrix}"
    if labels:
        tags = newline.join(
            r"\vphantom{" + "".join(row) + "}" + label(text) for row, text in zip(rows, labels, strict=False)
        )
        latex += r"\begin{matrix} " + tags + r" \end{matrix}"
    return latex


def row_vector(values: Sequence[sympy.Expr | str]) -> str:
    """A row vector in brackets.

    >>> row_vector([1, sympy.Rational(1, 2)])
    '\\\\begin{bmatrix} 1 & \\\\frac{1}{2} \\\\end{bmatrix}'
    """
    return matrix([list(values)])


_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_]|[^\\{}^_]")


def _group(tokens: list[str], start: int) -> tuple[list[str], int]:
    """The tokens of one argument starting at ``start`` and the index after it."""
    if start >= len(tokens):
        return [], start
    if tokens[start] != "{":
        return [tokens[start]], start + 1
    depth, i = 0, start
    while i < len(tokens):
        depth += tokens[i] == "{"
        depth -= tokens[i] == "}"
        if depth == 0:
            return tokens[start + 1 : i], i + 1
        i += 1
    return tokens[start + 1 :], len(tokens)


_ZERO_WIDTH = {r"\left", r"\right", r"\,", r"\!", r"\displaystyle", "{", "}", " "}


def _environment(tokens: list[str], start: int) -> tuple[float, int]:
    """Width of ``\\begin{env} ... \\end{env}`` at ``start`` and the index after it.

    The widest row counts; cells are separated by ``&`` and rows by ``\\\\``.
    """
    _, i = _group(tokens, start + 1)
    depth, body_start = 1, i
    while i < len(tokens) and depth:
        depth += tokens[i] == r"\begin"
        depth -= tokens[i] == r"\end"
        i += 1
    body = tokens[body_start : i - 1]
    _, after = _group(tokens, i)
    rows: list[list[list[str]]] = [[[]]]
    depth, k = 0, 0
    while k < len(body):
        token = body[k]
        if token == r"\begin":
            inner_start = k
            _, k = _environment(body, k)
            rows[-1][-1].extend(body[inner_start:k])
            continue
        depth += token == "{"
        depth -= token == "}"
        if depth == 0 and token == "&":
            rows[-1].append([])
        elif depth == 0 and token == "\\\\":
            rows.append([[]])
        else:
            rows[-1][-1].append(token)
        k += 1
    widest = max(sum(_width(cell) + 1.5 for cell in row) for row in rows)
    return widest + 1.0, after


def _width(tokens: list[str]) -> float:
    total, i = 0.0, 0
    while i < len(tokens):
        token = tokens[i]
        if token == r"\begin":
            w, i = _environment(tokens, i)
            total += w
            continue
        if token == r"\frac":
            top, i = _group(tokens, i + 1)
            bottom, i = _group(tokens, i)
            total += max(_width(top), _width(bottom)) + 0.5
            continue
        if token in ("^", "_"):
            arg, i = _group(tokens, i + 1)
            total += 0.7 * _width(arg)
            continue
        if token in (r"\text", r"\operatorname", r"\mathrm"):
            arg, i = _group(tokens, i + 1)
            total += len(arg)
            continue
        if token == r"\vphantom":
            _, i = _group(tokens, i + 1)
            continue
        total += _WIDE.get(token, 0.0 if token in _ZERO_WIDTH else 1.0)
        i += 1
    return total


_WIDE = {r"\qquad": 2.0, r"\quad": 1.0}


@lru_cache(maxsize=1 << 16)
def width(latex: str) -> float:
    """A rough printed width of a formula, in characters.

    Fractions count their wider line, exponents 0.7 of their width, commands
    one character.  It only decides where to break wide matrices.

    >>> width(r"\\frac{1}{2 + e^{2}}")
    4.2
    """
    return round(_width(_TOKEN.findall(latex)), 6)


def column_blocks(values, budget: float = PAGE_WIDTH) -> list[tuple[int, int]]:
    """Split the columns of a matrix into runs that each fit ``budget``.

    Returns:
        ``[(start, stop), ...]`` covering every column in order; one run when
        the whole matrix fits.

    >>> column_blocks(sympy.ones(1, 30), budget=20)
    [(0, 5), (5, 10), (10, 15), (15, 20), (20, 25), (25, 30)]
    """
    rows = _rows(_as_lists(values))
    n_cols = len(rows[0]) if rows else 0
    widths = [max(width(row[j]) for row in rows) + 3 for j in range(n_cols)]
    blocks, start, used = [], 0, 0.0
    for j, w in enumerate(widths):
        if j > start and used + w > budget:
            blocks.append((start, j))
            start, used = j, 0.0
        used += w
    if n_cols:
        blocks.append((start, n_cols))
    return blocks


def chain(lines: Sequence[tuple[str, Sequence[tuple[str, str]]]], budget: float = PAGE_WIDTH) -> str:
    """Equations ``lhs = a = b ≈ c`` aligned at their first relation, broken to fit.

    Args:
        lines: ``(lhs, [(relation, rhs), ...])`` per equation, e.g.
            ``("Q", [("=", "XW_Q"), ("=", "...")])``.
        budget: the width of one line (see :func:`width`); a right-hand side
            that would pass it starts a new line under the relation.

    Returns:
        One formula: the single equation as is when it fits on one line,
        otherwise an ``aligned`` environment.

    >>> chain([("x", [("=", "1"), ("\\\\approx", "1.0")])])
    'x = 1 \\\\approx 1.0'
    """
    rows: list[tuple[str, str]] = []  # (left of the alignment point, right of it)
    for lhs, pieces in lines:
        left, current, used = lhs, "", width(lhs)
        for relation, rhs in pieces:
            piece = f" {relation} {rhs}"
            w = width(piece)
            if current and used + w > budget:
                rows.append((left, current))
                left, current, used = "", "", width(lhs)
            current += piece
            used += w
        rows.append((left, current))
    if len(rows) == 1:
        return rows[0][0] + rows[0][1]
    rows_text = [f"{left} &{right}" if left else f"&{right}" for left, right in rows]
    return r"\begin{aligned} " + r" \\ ".join(rows_text) + r" \end{aligned}"


def wrap(items: Sequence[str], separator: str, *, tail: str = "", budget: float = PAGE_WIDTH) -> str:
    """Join items with a separator, breaking into aligned lines when too wide.

    Args:
        items: LaTeX pieces, e.g. the terms of a sum.
        separator: put between items, e.g. ``" + "`` or ``",\\ "``; a broken
            line starts with it (without leading spaces).
        tail: appended after the last item, e.g. ``" = 2 + e"``.
        budget: the width of one line (see :func:`width`).

    Returns:
        One line when everything fits, else an ``aligned`` environment.

    >>> wrap(["a", "b"], " + ", tail=" = c")
    'a + b = c'
    >>> wrap(["aaa", "bbb", "ccc"], " + ", budget=8)
    '\\\\begin{aligned} & aaa + bbb \\\\\\\\ & + ccc \\\\end{aligned}'
    """
    line = separator.join(items) + tail
    if width(line) <= budget:
        return line
    lines: list[str] = []
    current = ""
    for item in items:
        piece = item if not current else separator + item
        if current and width(current + piece) > budget:
            lines.append(current)
            piece = separator.lstrip() + item
            current = ""
        current += piece
    lines.append(current + tail)
    return r"\begin{aligned} " + r" \\ ".join("& " + text for text in lines) + r" \end{aligned}"
