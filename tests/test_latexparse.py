"""The LaTeX reader: tokens, normalising, chains, names, and the
latex2sympy2_extended fallback (exact numbers, no state between calls)."""

from __future__ import annotations

import re

import pytest
import sympy

from symattn.errors import LatexParseError
from symattn.latexparse import (
    Call,
    Div,
    Matrix,
    Mul,
    Name,
    Num,
    Sum,
    Transpose,
    literals,
    parse_formula,
    scalar_latex,
)
from symattn.verify import verify_text


def _chain(text: str, index: int = 0):
    return parse_formula(text).chains[index]


# --- names and transposes --------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "name"),
    [
        pytest.param("W_Q", "W_{Q}", id="subscript"),
        pytest.param("W^Q", "W_{Q}", id="superscript-letter"),
        pytest.param("W^{Q}", "W_{Q}", id="superscript-group"),
        pytest.param("{W}_Q", "W_{Q}", id="braced-base"),
        pytest.param("\\mathbf{W}_{Q}", "W_{Q}", id="bold"),
        pytest.param("W_2^Q", "W_{2,Q}", id="head-index-first"),
        pytest.param("d_k", "d_{k}", id="d_k"),
        pytest.param("\\text{Output}", "Output", id="text"),
        pytest.param("\\mathrm{Output}", "Output", id="mathrm"),
        pytest.param("\\text{第一个输出向量}", "第一个输出向量", id="chinese"),
    ],
)
def test_names_are_canonical(latex: str, name: str) -> None:
    (element,) = _chain(latex).elements
    assert element == Name(element.offset, name)


@pytest.mark.parametrize("script", ["^T", "^{T}", "^\\top", "^{\\top}", "^\\intercal", "^{\\mathsf{T}}"])
def test_transposes(script: str) -> None:
    (element,) = _chain("K" + script).elements
    assert isinstance(element, Transpose) and element.arg == Name(0, "K")


def test_products_keep_their_order() -> None:
    (element,) = _chain("Q K^T").elements
    assert isinstance(element, Mul)
    assert [type(f).__name__ for f in element.factors] == ["Name", "Transpose"]
    assert element.factors[0] == Name(0, "Q")


@pytest.mark.parametrize(
    "latex",
    [
        pytest.param("\\text{softmax}(S)", id="text"),
        pytest.param("\\operatorname{softmax}(S)", id="operatorname"),
        pytest.param("\\mathrm{softmax}\\left(S\\right)", id="mathrm-left-right"),
        pytest.param("softmax\\Bigg(S\\Bigg)", id="bare-word-Bigg"),
        pytest.param("\\operatorname{softmax}\\bigl(S\\bigr)", id="bigl"),
    ],
)
def test_softmax_spellings(latex: str) -> None:
    (element,) = _chain(latex).elements
    assert (
        isinstance(element, Call)
        and element.name == "softmax"
        and element.args == (Name(element.args[0].offset, "S"),)
    )


# --- numbers keep their text and place ------------------------------------------------


def test_literals_keep_text_and_offset() -> None:
    text = "A = \\begin{bmatrix} 0.40 & -0.2 \\\\ 1 & 0 \\end{bmatrix}"
    nums = literals(_chain(text).elements[1])
    assert [(n.text, text[n.offset :].startswith(n.text)) for n in nums] == [
        ("0.40", True),
        ("-0.2", True),
        ("1", True),
        ("0", True),
    ]


def test_numbers_in_subscripts_are_not_literals() -> None:
    (element,) = _chain("y_1 + W_{2}^Q").elements
    assert literals(element) == []


# --- layout ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "chains"),
    [
        pytest.param("a = 1 \\quad b = 2", 2, id="quad"),
        pytest.param("a = 1 \\qquad b = 2", 2, id="qquad"),
        pytest.param("a = 1, b = 2", 2, id="comma"),
        pytest.param("a = 1; b = 2", 2, id="semicolon"),
        pytest.param("a = 1 \\Rightarrow b = 2", 2, id="Rightarrow"),
        pytest.param("\\begin{aligned} a &= 1 + 1 \\\\ &= 2 \\end{aligned}", 1, id="aligned-continues"),
        pytest.param("\\begin{split} a &= 1 \\\\ b &= 2 \\end{split}", 2, id="split-two-rows"),
        pytest.param("a = 1 \\tag{4}", 1, id="tag"),
        pytest.param("[0.4, 0] + [0, 0.2] = [0.4, 0.2]", 1, id="commas-in-brackets"),
    ],
)
def test_statements(latex: str, chains: int) -> None:
    formula = parse_formula(latex)
    assert [c.error for c in formula.chains] == [None] * chains


@pytest.mark.parametrize(
    ("latex", "shape"),
    [
        pytest.param(
            "\\left[\\begin{array}{cc}1& 0\\\\ 0& 1\\\\ 1& 1\\end{array}\\right]", (3, 2), id="array"
        ),
        pytest.param("\\begin{pmatrix} 1 & 2 \\end{pmatrix}", (1, 2), id="pmatrix"),
        pytest.param("\\begin{Bmatrix} 1 \\\\ 2 \\end{Bmatrix}", (2, 1), id="Bmatrix"),
        pytest.param("\\begin{vmatrix} 1 & 2 \\\\[2pt] 3 & 4 \\end{vmatrix}", (2, 2), id="spaced-row-break"),
        pytest.param("[1, 2, 3]", (1, 3), id="row-vector"),
        pytest.param(
            "\\begin{array}{c|c} \\hline 1 & 0 \\\\ \\hline 0 & 1 \\\\ \\cline{1-2} \\end{array}",
            (2, 2),
            id="array-rules",
        ),
        pytest.param(
            "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}"
            "\\begin{matrix} \\leftarrow \\text{Time} \\\\ \\leftarrow \\text{flies} \\end{matrix}",
            (2, 2),
            id="label-matrix-dropped",
        ),
    ],
)
def test_matrices(latex: str, shape: tuple[int, int]) -> None:
    (element,) = _chain(latex).elements
    assert isinstance(element, Matrix)
    assert (len(element.rows), len(element.rows[0])) == shape


def test_fraction_spellings() -> None:
    for latex in (
        "\\frac{1}{2}",
        "\\dfrac{1}{2}",
        "\\tfrac{1}{2}",
        "{\\textstyle \\frac{1}{2}}",
        "\\frac12",
        "\\frac1{2}",
    ):
        (element,) = _chain(latex).elements
        assert isinstance(element, Div) and element.num == Num(element.num.offset, "1"), latex


def test_mask_entries() -> None:
    (element,) = _chain("\\begin{bmatrix} 0 & -\\infty \\end{bmatrix}").elements
    assert [type(c).__name__ for c in element.rows[0]] == ["Num", "Neg"]


@pytest.mark.parametrize(
    ("latex", "error"),
    [
        pytest.param("\\frac{1}{2", "unbalanced braces: 1 '{' never closed", id="open-brace"),
        pytest.param("a = 1}", "unbalanced braces: a '}' closes nothing", id="close-brace"),
        pytest.param(
            "\\begin{bmatrix} 1 \\end{pmatrix}", "\\end{pmatrix} does not match its \\begin", id="env"
        ),
        pytest.param("a = ", "an empty side of '='", id="empty-side"),
    ],
)
def test_parse_errors_keep_the_numbers(latex: str, error: str) -> None:
    (chain,) = parse_formula(latex).chains
    assert chain.error == error
    assert [n.text for n in chain.numbers] == [t for t in ("1", "2") if t in latex]


def test_sums_keep_terms() -> None:
    (element,) = _chain("0.3 \\cdot [1,0] + 0.3 \\cdot [0,1] + 0.4 \\cdot [1,1]").elements
    assert isinstance(element, Sum) and len(element.terms) == 3


# --- notations end to end: each must give the same verdict ------------------------------

X = "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$$\n\n"
NOTATIONS = [
    pytest.param(
        "$$X^T = \\left[\\begin{array}{ccc} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\end{array}\\right]$$", 6, id="array-T"
    ),
    pytest.param(
        "$$X^{\\top} = \\begin{pmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\end{pmatrix}$$", 6, id="pmatrix-top"
    ),
    pytest.param(
        "$$X^\\intercal = \\begin{Bmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\end{Bmatrix}$$", 6, id="Bmatrix"
    ),
    pytest.param(
        "$$v = [1, 2]^\\top, \\quad X v = \\begin{bmatrix} 1 \\\\ 2 \\\\ 3 \\end{bmatrix}$$", 3, id="column"
    ),
    pytest.param("$$v = \\begin{vmatrix} 1 \\\\ 2 \\end{vmatrix} \\qquad X v = [1, 2, 3]^T$$", 3, id="row-T"),
    pytest.param(
        "$$W^Q = \\begin{bmatrix} 2 & 0 \\\\ 0 & 2 \\end{bmatrix}; \\quad Q = X W_Q = "
        "\\begin{bmatrix} 2 & 0 \\\\ 0 & 2 \\\\ 2 & 2 \\end{bmatrix}$$",
        6,
        id="W^Q-then-W_Q",
    ),
    pytest.param("$$\\text{第一行} = \\operatorname{softmax}([0, 0]) = [0.5, 0.5]$$", 2, id="chinese-name"),
    pytest.param("$$2 \\times 3 = 6, \\quad 2 \\cdot 3 = 6$$", 2, id="times-cdot"),
    pytest.param(
        "$$\\dfrac{1}{4} = 0.25, \\quad \\tfrac{1}{8} = 0.125, \\quad {\\textstyle \\frac{1}{2}} = 0.5$$",
        3,
        id="fracs",
    ),
    pytest.param(
        "$$\\Bigg( \\frac{1}{2} \\Bigg) + \\bigl( 1 \\bigr) + \\left( 2 \\right) = 3.5$$", 1, id="sizing"
    ),
    pytest.param(
        "$$\\mathbf{2} \\cdot \\mathbf{X} = \\begin{bmatrix} 2 & 0 \\\\ 0 & 2 \\\\ 2 & 2 \\end{bmatrix}$$",
        6,
        id="mathbf",
    ),
    pytest.param(
        "$$\\begin{aligned} S &= X X^T \\\\ &= \\begin{bmatrix} 1 & 0 & 1 \\\\[2pt] 0 & 1 & 1 \\\\ 1 & 1 & 2 "
        "\\end{bmatrix} \\end{aligned}$$",
        9,
        id="aligned-rowbreak",
    ),
    pytest.param("\\begin{align} a &= 1 + 1 \\\\ &= 2 \\tag{3} \\end{align}", 1, id="align-tag"),
    pytest.param(
        "$$\\sqrt{2} \\approx 1.41 \\Rightarrow \\frac{1}{\\sqrt{2}} \\approx 0.71$$",
        2,
        id="approx-Rightarrow",
    ),
    pytest.param(
        "$$S = X X^T = \\begin{bmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\\\ 1 & 1 & 2 \\end{bmatrix} \\begin{matrix} \\leftarrow \\text{I} \\\\ "
        "\\leftarrow \\text{love} \\\\ \\leftarrow \\text{cats} \\end{matrix}$$",
        9,
        id="label-matrix",
    ),
    pytest.param(
        "$$M = \\begin{bmatrix} 0 & -\\infty \\\\ 0 & 0 \\end{bmatrix}, \\quad \\text{softmax}\\left(\\begin{bmatrix} "
        "1 & 2 \\\\ 1 & 1 \\end{bmatrix} + M\\right) = \\begin{bmatrix} 1 & 0 \\\\ 0.5 & 0.5 \\end{bmatrix}$$",
        4,
        id="mask",
    ),
    pytest.param("Let $d_k = 4$, so that $\\sqrt{d_k} = 2$.", 1, id="inline-d_k"),
]


@pytest.mark.parametrize(("formula", "ok"), NOTATIONS)
def test_notations_verify_alike(formula: str, ok: int) -> None:
    report = verify_text(X + formula + "\n")
    assert report.exit_code == 0
    assert sum(f.status == "ok" for f in report.findings if f.line == 3) == ok


@pytest.mark.parametrize(("formula", "ok"), NOTATIONS)
def test_a_changed_last_number_is_caught_in_every_notation(formula: str, ok: int) -> None:
    start, text = literals_in(formula)[-1]
    changed = formula[:start] + str(int(text.split(".")[0]) + 7) + formula[start + len(text) :]
    report = verify_text(X + changed + "\n")
    assert report.exit_code == 1, changed


def literals_in(formula: str) -> list[tuple[int, str]]:
    """(offset, text) of the numbers a reader sees in ``formula`` (not subscripts)."""
    return [(m.start(), m.group()) for m in re.finditer(r"(?<![_\w.{])\d+(?:\.\d+)?", formula)]


# --- latex2sympy2_extended fallback --------------------------------------------------------


def test_scalar_latex_is_exact() -> None:
    assert scalar_latex("\\frac{0.1}{2} + 1") == sympy.Rational(21, 20)
    assert scalar_latex("\\ln(2) \\cdot 0.5") == sympy.log(2) / 2


def test_scalar_latex_keeps_case() -> None:
    assert scalar_latex("A + a") == sympy.Symbol("A") + sympy.Symbol("a")


def test_scalar_latex_keeps_no_state_between_calls() -> None:
    with pytest.raises(LatexParseError):
        scalar_latex("x = 5")
    assert scalar_latex("x + 1") == sympy.Symbol("x") + 1
