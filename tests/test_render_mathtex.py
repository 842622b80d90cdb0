"""Unit tables for render/mathtex.py: LaTeX of exact values and wide layouts."""

import pytest
import sympy

from symattn.render.mathtex import chain, column_blocks, entry, escape_text, label, matrix, row_vector, width

r2 = sympy.sqrt(2)
e = sympy.exp(r2 / 2)


@pytest.mark.parametrize(
    ("value", "latex"),
    [
        pytest.param(sympy.Integer(0), "0", id="zero"),
        pytest.param(sympy.Rational(-1, 2), r"- \frac{1}{2}", id="negative-half"),
        pytest.param(r2 / 2, r"\frac{\sqrt{2}}{2}", id="surd"),
        pytest.param(-sympy.oo, r"-\infty", id="masked"),
        pytest.param(1 / (2 + e), r"\frac{1}{2 + e^{\frac{\sqrt{2}}{2}}}", id="reference-a31"),
        pytest.param(sympy.Symbol("x_11", real=True), "x_{11}", id="symbol"),
        pytest.param("0.2483", "0.2483", id="decimal-text"),
        pytest.param("-inf", r"-\infty", id="masked-decimal"),
    ],
)
def test_entry(value, latex):
    assert entry(value) == latex


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        pytest.param("x_1", "x_{1}", id="identifier"),
        pytest.param("h_{12}", "h_{12}", id="braced-identifier"),
        pytest.param("cats", r"\text{cats}", id="word"),
        pytest.param("a&b_c", r"\text{a\&b\_c}", id="specials-escaped"),
        pytest.param("猫", r"\text{猫}", id="chinese"),
    ],
)
def test_label(text, latex):
    assert label(text) == latex


def test_escape_text_covers_every_special():
    assert escape_text("\\{}$&%#_^~") == r"\textbackslash{}\{\}\$\&\%\#\_\^{}\~{}"


@pytest.mark.parametrize(
    ("values", "labels", "columns", "latex"),
    [
        pytest.param(
            [[1, 0], [0, 1]], None, None, r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}", id="identity"
        ),
        pytest.param(
            sympy.Matrix([[0, -sympy.oo]]),
            None,
            None,
            r"\begin{bmatrix} 0 & -\infty \end{bmatrix}",
            id="mask-row",
        ),
        pytest.param(
            [[1, 0], [0, 1]],
            ["I", "x_2"],
            None,
            r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}"
            r"\begin{matrix} \vphantom{10}\text{I} \\ \vphantom{01}x_{2} \end{matrix}",
            id="labelled",
        ),
        pytest.param(
            [[1, 2, 3], [4, 5, 6]],
            None,
            (1, 3),
            r"\begin{bmatrix} 2 & 3 \\ 5 & 6 \end{bmatrix}",
            id="column-block",
        ),
    ],
)
def test_matrix(values, labels, columns, latex):
    assert matrix(values, labels=labels, columns=columns) == latex


def test_row_vector():
    assert (
        row_vector([sympy.Rational(7, 10), "0.7517"])
        == r"\begin{bmatrix} \frac{7}{10} & 0.7517 \end{bmatrix}"
    )


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        pytest.param("abc", 3.0, id="letters"),
        pytest.param(r"\frac{1}{234}", 3.5, id="fraction-counts-wider-line"),
        pytest.param("e^{ab}", 2.4, id="exponent-is-smaller"),
        pytest.param(r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}", 6.0, id="matrix-widest-row"),
        pytest.param(r"\vphantom{abcdef}x", 1.0, id="phantom-has-no-width"),
    ],
)
def test_width(latex, expected):
    assert width(latex) == expected


@pytest.mark.parametrize(
    ("values", "budget", "blocks"),
    [
        pytest.param(sympy.ones(2, 3), 56, [(0, 3)], id="fits"),
        pytest.param(sympy.ones(2, 12), 20, [(0, 5), (5, 10), (10, 12)], id="split"),
        pytest.param(sympy.Matrix([[1 / (2 + e)] * 4]), 20, [(0, 2), (2, 4)], id="wide-entries"),
        pytest.param(sympy.Matrix([[1 / (2 + e)]]), 1, [(0, 1)], id="one-column-always-shown"),
    ],
)
def test_column_blocks(values, budget, blocks):
    assert column_blocks(values, budget=budget) == blocks


@pytest.mark.parametrize(
    ("lines", "budget", "latex"),
    [
        pytest.param([("x", [("=", "1"), (r"\approx", "1.0")])], 56, r"x = 1 \approx 1.0", id="one-line"),
        pytest.param(
            [("x", [("=", "aaaa"), ("=", "bbbb")])],
            8,
            r"\begin{aligned} x & = aaaa \\ & = bbbb \end{aligned}",
            id="broken",
        ),
        pytest.param(
            [("x", [("=", "1")]), ("y", [("=", "2")])],
            56,
            r"\begin{aligned} x & = 1 \\ y & = 2 \end{aligned}",
            id="two-equations",
        ),
    ],
)
def test_chain(lines, budget, latex):
    assert chain(lines, budget=budget) == latex
