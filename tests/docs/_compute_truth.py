"""Compute the true values behind every worked example in this corpus.

Run ``python tests/docs/_compute_truth.py [CASE ...]`` to print, for each case,
every stage exactly and at 6 decimals, with the correctly rounded 1-4 place
decimals.  The numbers written into the corpus documents and their
``.expect.toml`` files were taken from this output.  Inputs are Python data;
nothing is parsed from the documents.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path

import sympy
from sympy import Matrix, oo, sqrt

DIGITS = 50


@dataclass(frozen=True)
class Head:
    """Projection matrices of one attention head."""

    W_Q: list
    W_K: list
    W_V: list


@dataclass(frozen=True)
class Case:
    """Inputs of one worked example (rows are tokens)."""

    X: list
    heads: tuple
    X_kv: list | None = None
    causal: bool = False
    W_O: list | None = None
    note: str = ""


def _m(rows: list) -> Matrix:
    """An exact matrix from a list of integer rows."""
    return Matrix([[sympy.Integer(v) for v in row] for row in rows])


def softmax_rows(scaled: Matrix) -> Matrix:
    """Row-wise softmax in closed form.

    Args:
        scaled: exact scores, ``-oo`` where masked.

    Returns:
        The weights; each row is divided by its smallest unmasked exponential,
        and masked entries are exactly 0.
    """
    out = []
    for i in range(scaled.rows):
        row = [scaled[i, j] for j in range(scaled.cols)]
        low = min((v for v in row if v != -oo), key=lambda v: sympy.N(v, DIGITS))
        terms = [sympy.Integer(0) if v == -oo else sympy.exp(v - low) for v in row]
        total = sum(terms)
        out.append([t / total for t in terms])
    return Matrix(out)


def head_stages(case: Case, head: Head) -> dict[str, Matrix]:
    """Every stage of one head, exactly.

    Args:
        case: the inputs (queries from ``X``, keys and values from ``X_kv`` or ``X``).
        head: its projections; ``d_k`` is the number of columns of ``W_K``.

    Returns:
        ``Q K V scores scaled A out`` by name.
    """
    X = _m(case.X)
    X_kv = _m(case.X_kv) if case.X_kv is not None else X
    W_Q, W_K, W_V = _m(head.W_Q), _m(head.W_K), _m(head.W_V)
    Q, K, V = X * W_Q, X_kv * W_K, X_kv * W_V
    scores = Q * K.T
    d_k = W_K.cols
    scaled = scores / sqrt(d_k)
    if case.causal:
        scaled = Matrix(
            scaled.rows,
            scaled.cols,
            lambda i, j: -oo if j > i else scaled[i, j],
        )
    A = softmax_rows(scaled)
    return {"Q": Q, "K": K, "V": V, "scores": scores, "scaled": scaled, "A": A, "out": A * V}


def decimals(value: sympy.Expr, places: int, mode: str = ROUND_HALF_UP) -> str:
    """Round (half away from zero) or truncate a real constant at ``places``.

    Args:
        value: an exact real constant.
        places: digits after the point.
        mode: ``ROUND_HALF_UP`` (half away from zero) or ``ROUND_DOWN`` (truncate).

    Returns:
        The decimal text, from a 60-digit evaluation (exact for the rational
        ties in this corpus, such as 1/8; the values here are never that close
        to a tie otherwise).
    """
    if value in (oo, -oo):
        return str(value)
    text = sympy.N(value, DIGITS + 10)
    q = Decimal(1).scaleb(-places)
    return str(Decimal(str(text)).quantize(q, rounding=mode))


def show(name: str, M: Matrix) -> None:
    """Print a matrix at 6 places, rounded (r=) and truncated (t=) at 1-4 places."""
    print(f"  {name} {M.shape}")
    for i in range(M.rows):
        cells = []
        for j in range(M.cols):
            v = M[i, j]
            r = "/".join(decimals(v, k) for k in (1, 2, 3, 4))
            t = "/".join(decimals(v, k, ROUND_DOWN) for k in (1, 2, 3, 4))
            cells.append(f"{decimals(v, 6)} r={r} t={t}")
        print(f"    row {i + 1}: " + " ; ".join(cells))


def run(name: str, case: Case) -> None:
    """Print every stage of a case."""
    print(f"== {name}: {case.note}")
    outs = []
    for h, head in enumerate(case.heads, start=1):
        st = head_stages(case, head)
        for key in ("Q", "K", "V", "scores", "scaled", "A", "out"):
            show(f"head{h}.{key}", st[key])
        outs.append(st["out"])
    if case.W_O is not None:
        concat = Matrix.hstack(*outs)
        show("concat", concat)
        show("MultiHead", concat * _m(case.W_O))


I2 = [[1, 0], [0, 1]]
REF_X = [[1, 0], [0, 1], [1, 1]]

CASES: dict[str, Case] = {
    "ref": Case(REF_X, (Head(I2, I2, I2),), note="reference example"),
    "en_bmatrix": Case(
        [[1, 0, 1], [0, 2, 0], [1, 1, 0]],
        (Head([[1, 0], [0, 1], [1, 1]], [[0, 1], [1, 0], [1, 0]], [[1, 0], [0, 1], [0, 1]]),),
        note="3 tokens, d_model 3, d_k 2",
    ),
    "causal": Case(
        [[1, 0], [0, 1], [1, 1], [1, -1]],
        (Head(I2, I2, [[1, 2], [0, 1]]),),
        causal=True,
        note="4 tokens, causal mask",
    ),
    "twohead": Case(
        REF_X,
        (Head(I2, I2, I2), Head([[0, 1], [1, 0]], I2, [[1, 1], [0, 1]])),
        W_O=[[1, 0], [0, 1], [1, 0], [0, 1]],
        note="two heads, W_O sums them",
    ),
    "cross": Case(
        [[1, 1], [0, 2]],
        (Head(I2, I2, [[2, 0], [0, 1]]),),
        X_kv=REF_X,
        note="2 decoder queries over 3 encoder states",
    ),
    "tex4": Case(
        [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
        (Head(*[[[1 if i == j else 0 for j in range(4)] for i in range(4)]] * 3),),
        note="d_k 4, identity projections",
    ),
    "notation": Case(
        [[2, 0], [0, 1], [1, 1]],
        (Head([[1, 1], [0, 1]], I2, I2),),
        note="notation control",
    ),
    "zh4": Case(
        [[1, 0], [0, 1], [1, 1], [0, 0]],
        (Head(I2, I2, I2),),
        note="4 tokens with a zero token",
    ),
    "slip": Case(
        [[1, 2], [2, 1], [0, 1]],
        (Head(I2, I2, I2),),
        note="planted slips",
    ),
    "carried4": Case(
        [[1, 0], [0, 1], [1, 1], [2, 0]],
        (Head(I2, I2, [[1, 0], [1, 1]]),),
        note="4 tokens; the planted row 4 forgets the 1/sqrt(2) scale",
    ),
    "texp": Case(
        [[1, 1], [1, 0], [0, 2]],
        (Head([[1, 0], [1, 1]], I2, [[0, 1], [1, 0]]),),
        note=".tex planted document",
    ),
}


def true_values(case: Case) -> list:
    """Every finite entry of every stage of a case, plus Concat and W_O output."""
    values, outs = [], []
    for head in case.heads:
        st = head_stages(case, head)
        outs.append(st["out"])
        for M in st.values():
            values.extend(v for v in M if v not in (oo, -oo))
    if case.W_O is not None:
        concat = Matrix.hstack(*outs)
        values.extend(concat)
        values.extend(concat * _m(case.W_O))
    return values


DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+(?![\w.])")


def audit(path: str, *cases: Case) -> list[tuple[int, str]]:
    """Decimals in a document that are no correct rounding of any stage value.

    Args:
        path: a corpus document (read as plain text, never evaluated).
        cases: the worked examples it is about.

    Returns:
        ``(line, text)`` of each such decimal.  Planted errors, prose and code
        numbers and derived quantities (e^{sqrt 2}, ...) show up here; the
        corpus test accounts for each of them.
    """
    rounded: set[str] = set()
    for case in cases:
        for v in true_values(case):
            rounded.update(decimals(v, k) for k in (1, 2, 3, 4))
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [
        (n, text)
        for n, line in enumerate(lines, start=1)
        for text in DECIMAL.findall(line)
        if text.lstrip("-") not in rounded
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--audit"]:
        for n, text in audit(sys.argv[3], CASES[sys.argv[2]]):
            print(f"{sys.argv[3]}:{n}: {text}")
    else:
        for key in sys.argv[1:] or list(CASES):
            run(key, CASES[key])
