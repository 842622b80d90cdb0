"""One attention example, its true values and four renderings of it (for test_verify_notations.py).

The true values are computed here with ``fractions`` and ``mpmath`` (40 digits), never by
symattn.  Every renderer returns a :class:`Doc`: the text and, for each printed number of the
scores, weights and outputs, its 1-based line and column, so a test can change one number and
know where the verifier must point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import mpmath

PLACES = 4
#: Digits of every mpmath computation here (set locally, never globally).
DPS = 40
# (quantity, row, column), 0-based; quantity is "scores", "weights" or "output".
Key = tuple[str, int, int]


@dataclass(frozen=True)
class Example:
    """X, the three projections (None: the identity) and the true values derived from them."""

    X: tuple[tuple[int, ...], ...]
    W: tuple[tuple[tuple[int, ...], ...] | None, ...]  # W_Q, W_K, W_V

    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def d(self) -> int:
        return len(self.X[0])

    def projection(self, i: int) -> list[list[int]]:
        w = self.W[i]
        if w is None:
            return [list(row) for row in self.X]
        return [[sum(x[k] * w[k][j] for k in range(self.d)) for j in range(self.d)] for x in self.X]

    @property
    def Q(self) -> list[list[int]]:
        return self.projection(0)

    @property
    def K(self) -> list[list[int]]:
        return self.projection(1)

    @property
    def V(self) -> list[list[int]]:
        return self.projection(2)

    def raw_scores(self) -> list[list[int]]:
        Q, K = self.Q, self.K
        return [[sum(a * b for a, b in zip(q, k, strict=True)) for k in K] for q in Q]

    def scores(self) -> list[list[mpmath.mpf]]:
        root = mpmath.sqrt(self.d)
        return [[mpmath.mpf(s) / root for s in row] for row in self.raw_scores()]

    def weights(self) -> list[list[Fraction | mpmath.mpf]]:
        """softmax rows; a row of equal scores is exactly 1/n (a Fraction)."""
        rows: list[list[Fraction | mpmath.mpf]] = []
        for raw, scaled in zip(self.raw_scores(), self.scores(), strict=True):
            if len(set(raw)) == 1:
                rows.append([Fraction(1, self.n)] * self.n)
                continue
            top = max(scaled)
            e = [mpmath.exp(s - top) for s in scaled]
            total = mpmath.fsum(e)
            rows.append([x / total for x in e])
        return rows

    def output(self) -> list[list[Fraction | mpmath.mpf]]:
        V = self.V
        out: list[list[Fraction | mpmath.mpf]] = []
        for row in self.weights():
            if all(isinstance(a, Fraction) for a in row):
                out.append(
                    [sum((a * V[j][c] for j, a in enumerate(row)), Fraction(0)) for c in range(self.d)]
                )
            else:
                out.append([mpmath.fsum(a * V[j][c] for j, a in enumerate(row)) for c in range(self.d)])
        return out

    def decimals(self, quantity: str) -> list[list[str]]:
        """The true values of ``quantity`` ("scores", "weights", "output") at 4 places."""
        with mpmath.workdps(DPS):
            values = {"scores": self.scores, "weights": self.weights, "output": self.output}[quantity]()
            return [[rounded(v) for v in row] for row in values]


def rounded(value: Fraction | mpmath.mpf, places: int = PLACES) -> str:
    """``value`` rounded half away from zero to ``places`` places (exact for a Fraction)."""
    scale = 10**places
    if isinstance(value, Fraction):
        scaled = abs(value) * scale
        units = int(scaled + Fraction(1, 2))  # floor(x + 1/2) for x >= 0: half away from zero
    else:
        scaled = abs(value) * scale
        frac = scaled - mpmath.floor(scaled)
        if abs(frac - mpmath.mpf("0.5")) < mpmath.mpf(10) ** -30:
            raise ValueError(f"cannot decide the rounding of {value}")  # never for these examples
        units = int(mpmath.floor(scaled + mpmath.mpf("0.5")))
    sign = "-" if value < 0 and units else ""
    return f"{sign}{units // scale}.{units % scale:0{places}d}"


@dataclass
class Doc:
    """A rendered document and where each of its checked numbers is."""

    notation: str
    lines: list[str] = field(default_factory=list)
    where: dict[Key, tuple[int, int]] = field(default_factory=dict)
    current: str = ""

    def put(self, text: str) -> None:
        self.current += text

    def num(self, key: Key, text: str) -> None:
        self.where[key] = (len(self.lines) + 1, len(self.current) + 1)
        self.current += text

    def end(self, text: str = "") -> None:
        self.lines.append(self.current + text)
        self.current = ""

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def perturbed(self, key: Key, new: str) -> str:
        line, col = self.where[key]
        lines = list(self.lines)
        old = lines[line - 1]
        end = col - 1
        while end < len(old) and (old[end].isdigit() or old[end] in ".-"):
            end += 1
        lines[line - 1] = old[: col - 1] + new + old[end:]
        return "\n".join(lines) + "\n"


def _ints(rows: list[list[int]] | tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[str(x) for x in row] for row in rows]


def _put_matrix(
    doc: Doc,
    rows: list[list[str]],
    quantity: str | None,
    *,
    open_: str,
    close: str,
    row_open: str,
    row_close: str,
    cell_sep: str,
    row_sep: str,
) -> None:
    doc.put(open_)
    for i, row in enumerate(rows):
        if i:
            doc.put(row_sep)
        doc.put(row_open)
        for j, cell in enumerate(row):
            if j:
                doc.put(cell_sep)
            if quantity is None:
                doc.put(cell)
            else:
                doc.num((quantity, i, j), cell)
        doc.put(row_close)
    doc.put(close)


# --- LaTeX -------------------------------------------------------------------------------------


def _bmatrix(doc: Doc, rows: list[list[str]], quantity: str | None = None) -> None:
    _put_matrix(
        doc,
        rows,
        quantity,
        open_="\\begin{bmatrix} ",
        close=" \\end{bmatrix}",
        row_open="",
        row_close="",
        cell_sep=" & ",
        row_sep=" \\\\ ",
    )


def latex(ex: Example) -> Doc:
    doc = Doc("latex")
    doc.end(f"# Attention by hand ({ex.n} tokens)")
    doc.end("")
    doc.put(f"With $d_k = {ex.d}$ and the inputs")
    doc.end()
    doc.end("")
    doc.put("$$X = ")
    _bmatrix(doc, _ints(ex.X))
    doc.end("$$")
    doc.end("")
    for name, w in zip(("W_Q", "W_K", "W_V"), ex.W, strict=True):
        doc.put(f"$${name} = ")
        if w is None:
            doc.put("I")
        else:
            _bmatrix(doc, _ints(w))
        doc.end("$$")
        doc.end("")
    doc.end("the projections are")
    doc.end("")
    for name, w, m in zip("QKV", ("W_Q", "W_K", "W_V"), (ex.Q, ex.K, ex.V), strict=True):
        doc.put(f"$${name} = X {w} = ")
        _bmatrix(doc, _ints(m))
        doc.end("$$")
        doc.end("")
    doc.end("The scaled scores are")
    doc.end("")
    doc.put("$$S = \\frac{QK^T}{\\sqrt{d_k}} \\approx ")
    _bmatrix(doc, ex.decimals("scores"), "scores")
    doc.end("$$")
    doc.end("")
    doc.end("and the attention weights")
    doc.end("")
    doc.put("$$A = \\text{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right) \\approx ")
    _bmatrix(doc, ex.decimals("weights"), "weights")
    doc.end("$$")
    doc.end("")
    doc.end("so the outputs are")
    doc.end("")
    doc.put("$$\\text{Output} = AV \\approx ")
    _bmatrix(doc, ex.decimals("output"), "output")
    doc.end("$$")
    return doc


# --- plain text --------------------------------------------------------------------------------


def _nested(doc: Doc, rows: list[list[str]], quantity: str | None = None) -> None:
    _put_matrix(
        doc, rows, quantity, open_="[", close="]", row_open="[", row_close="]", cell_sep=", ", row_sep=", "
    )


def plain(ex: Example) -> Doc:
    doc = Doc("plain")
    doc.end(f"Attention by hand ({ex.n} tokens)")
    doc.end("")
    doc.end(f"Given d_k = {ex.d} and the inputs")
    doc.end("")
    doc.put("  X = ")
    _nested(doc, _ints(ex.X))
    doc.end()
    for name, w in zip(("W_Q", "W_K", "W_V"), ex.W, strict=True):
        doc.put(f"  {name} = ")
        _nested(doc, _ints(w if w is not None else identity(ex.d)))
        doc.end()
    doc.end("")
    doc.end("the projections are")
    doc.end("")
    for name, w, m in zip("QKV", ("W_Q", "W_K", "W_V"), (ex.Q, ex.K, ex.V), strict=True):
        doc.put(f"  {name} = X·{w} = ")
        _nested(doc, _ints(m))
        doc.end()
    doc.end("")
    doc.end("The scaled scores are")
    doc.end("")
    doc.put(f"  QKᵀ/√{ex.d} ≈ ")
    _nested(doc, ex.decimals("scores"), "scores")
    doc.end()
    doc.end("")
    doc.end("and the attention weights")
    doc.end("")
    doc.put("  A = softmax(QKᵀ / √d_k) ≈ ")
    _nested(doc, ex.decimals("weights"), "weights")
    doc.end()
    doc.end("")
    doc.end("so the outputs are")
    doc.end("")
    doc.put("  Output = AV ≈ ")
    _nested(doc, ex.decimals("output"), "output")
    doc.end()
    return doc


def identity(d: int) -> list[list[int]]:
    return [[int(i == j) for j in range(d)] for i in range(d)]


# --- Python code and printouts -----------------------------------------------------------------


def _tensor_literal(rows: list[list[int]] | tuple[tuple[int, ...], ...]) -> str:
    return "torch.tensor([" + ", ".join("[" + ", ".join(f"{x}." for x in row) + "]" for row in rows) + "])"


def _printout(doc: Doc, rows: list[list[str]], quantity: str) -> None:
    """torch's float printout: 4 places, right-aligned to the widest cell, rows under each other."""
    width = max(len(c) for row in rows for c in row)
    for i, row in enumerate(rows):
        doc.put("tensor([[" if i == 0 else "        [")
        for j, cell in enumerate(row):
            if j:
                doc.put(", ")
            doc.put(" " * (width - len(cell)))
            doc.num((quantity, i, j), cell)
        doc.end("]])" if i == len(rows) - 1 else "],")


def code(ex: Example) -> Doc:
    doc = Doc("code")
    doc.end(f"# Attention in PyTorch ({ex.n} tokens)")
    doc.end("")
    doc.end("```python")
    doc.end("import torch")
    doc.end("")
    doc.end(f"x = {_tensor_literal(ex.X)}")
    for name, w in zip(("W_q", "W_k", "W_v"), ex.W, strict=True):
        doc.end(f"{name} = " + (f"torch.eye({ex.d})" if w is None else _tensor_literal(w)))
    doc.end("Q = x @ W_q")
    doc.end("K = x @ W_k")
    doc.end("V = x @ W_v")
    doc.end(f"d_k = {ex.d}")
    doc.end("scores = Q @ K.T / d_k ** 0.5")
    doc.end("weights = torch.softmax(scores, dim=-1)")
    doc.end("out = weights @ V")
    doc.end("print(scores)")
    doc.end("print(weights)")
    doc.end("print(out)")
    doc.end("```")
    doc.end("")
    doc.end("prints")
    doc.end("")
    doc.end("```")
    _printout(doc, ex.decimals("scores"), "scores")
    _printout(doc, ex.decimals("weights"), "weights")
    _printout(doc, ex.decimals("output"), "output")
    doc.end("```")
    return doc


# --- tables ------------------------------------------------------------------------------------


def _vector(row: list[int]) -> str:
    return "[" + ", ".join(str(x) for x in row) + "]"


def tables(ex: Example) -> Doc:
    doc = Doc("tables")
    names = [f"t{i + 1}" for i in range(ex.n)]
    doc.end(f"# Attention as tables ({ex.n} tokens)")
    doc.end("")
    doc.end(f"With d_k = {ex.d}, the queries, keys and values of the tokens are:")
    doc.end("")
    doc.end("| token | query | key | value |")
    doc.end("|---|---|---|---|")
    for i, name in enumerate(names):
        doc.end(f"| {name} | {_vector(ex.Q[i])} | {_vector(ex.K[i])} | {_vector(ex.V[i])} |")
    doc.end("")
    for quantity, sentence in (
        ("scores", "The scaled scores are:"),
        ("weights", "The attention weights are:"),
    ):
        doc.end(sentence)
        doc.end("")
        doc.end("| | " + " | ".join(names) + " |")
        doc.end("|---" * (ex.n + 1) + "|")
        for i, row in enumerate(ex.decimals(quantity)):
            doc.put(f"| {names[i]} |")
            for j, cell in enumerate(row):
                doc.put(" ")
                doc.num((quantity, i, j), cell)
                doc.put(" |")
            doc.end()
        doc.end("")
    doc.end("The outputs are:")
    doc.end("")
    doc.end("| token | " + " | ".join(f"output {c + 1}" for c in range(ex.d)) + " |")
    doc.end("|---" * (ex.d + 1) + "|")
    for i, row in enumerate(ex.decimals("output")):
        doc.put(f"| {names[i]} |")
        for j, cell in enumerate(row):
            doc.put(" ")
            doc.num(("output", i, j), cell)
            doc.put(" |")
        doc.end()
    return doc


RENDERERS = {"latex": latex, "plain": plain, "code": code, "tables": tables}
