"""Conventions the verifier applies when a document leaves a name undefined.

* Q = X W_Q, K = X W_K, V = X W_V when X and the weights are given but Q, K, V
  are never printed; ``I`` as a weight is the identity of X's width.
* ``A = [numbers]`` with no formula is checked against softmax(QKᵀ/√d_k) only
  when Q, K and d_k are known, the block is n_q × n_k, no cell is 0 and every
  row sums to 1 within its rounding (docs/verify.md, "Conventions").

Every printed decimal below is the true value rounded half away from zero
(computed with mpmath at 30 digits) unless a comment says it is planted.
"""

from __future__ import annotations

import re

import pytest

from symattn.verify import verify_text

# X = diag(2, 1), identity projections, d_k = 2: scaled scores diag(2√2, 1/√2).
# True weights: row 1 [0.944193, 0.055807], row 2 [0.330238, 0.669762].
INPUTS = (
    "Two tokens:\n\n"
    "$$X = \\begin{bmatrix} 2 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
    "$$W_Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad "
    "W_K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad "
    "W_V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
    "and $d_k = 2$.\n\n"
)

WEIGHTS_PLANTED = INPUTS + (
    "The weights come out as\n\n"
    "$$A = \\begin{bmatrix} 0.9442 & 0.0557 \\\\ 0.3302 & 0.6698 \\end{bmatrix}$$\n\n"  # 0.0557 planted
    "$$\\text{Output} = AV = \\begin{bmatrix} 1.8884 & 0.0558 \\\\ 0.6605 & 0.6698 \\end{bmatrix}$$\n"
)

CHAIN_ROWS = (
    "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad "
    "W_Q = W_K = W_V = {weights}, \\quad d_k = 2.$$\n\n"
    "$$M = \\begin{{bmatrix}} 0 & -\\infty & -\\infty \\\\ 0 & 0 & -\\infty \\\\ 0 & 0 & 0 \\end{{bmatrix}}$$\n\n"
    "$$A = \\mathrm{{softmax}}\\left(\\frac{{QK^T}}{{\\sqrt{{d_k}}}} + M\\right) = "
    "\\begin{{bmatrix}} 1 & 0 & 0 \\\\ {row2} \\\\ 0.2483 & 0.2483 & 0.5035 \\end{{bmatrix}}$$\n"
)
IDENTITY_2 = "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}"


def _doc(weights: str, row2: str) -> str:
    text = CHAIN_ROWS.replace("{weights}", weights).replace("{row2}", row2)
    return text.replace("{{", "{").replace("}}", "}")


CASES = [
    pytest.param(WEIGHTS_PLANTED, 1, [(11, "0.0557", "wrong")], id="printed-weights-checked-by-convention"),
    pytest.param(
        INPUTS + "$$A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\n$$B = A + A = "
        "\\begin{bmatrix} 2 & 4 \\\\ 6 & 8 \\end{bmatrix}$$\n",
        0,
        [],
        id="another-A-whose-rows-do-not-sum-to-1-is-an-input",
    ),
    pytest.param(
        INPUTS + "$$A = \\begin{bmatrix} 1 & 0 \\\\ 0.3302 & 0.6698 \\end{bmatrix}$$\n",
        0,
        [],
        id="a-zero-weight-means-a-mask-so-no-convention",
    ),
    pytest.param(
        INPUTS.replace("and $d_k = 2$.", "and no scale.")
        + "$$A = \\begin{bmatrix} 0.5 & 0.5 \\\\ 0.5 & 0.5 \\end{bmatrix}$$\n",
        0,
        [],
        id="no-d_k-no-convention",
    ),
    pytest.param(_doc(IDENTITY_2, "0.3302 & 0.6698 & 0"), 0, [], id="chain-of-weights-binds-every-name"),
    pytest.param(
        _doc(IDENTITY_2, "0.6698 & 0.3302 & 0"),  # planted: row 2 swapped
        1,
        [(5, "0.6698", "wrong"), (5, "0.3302", "wrong")],
        id="q-k-from-x-and-weights-find-a-swapped-row",
    ),
    pytest.param(
        _doc("I", "0.6698 & 0.3302 & 0"),  # planted: row 2 swapped
        1,
        [(5, "0.6698", "wrong"), (5, "0.3302", "wrong")],
        id="identity-weights",
    ),
    pytest.param(
        "$$I = \\begin{bmatrix} 3 & 1 \\\\ 1 & 3 \\end{bmatrix}$$\n\n$$J = 2I = "
        "\\begin{bmatrix} 6 & 2 \\\\ 2 & 6 \\end{bmatrix}$$\n",
        0,
        [],
        id="a-document-may-define-I-itself",
    ),
]


@pytest.mark.parametrize(("text", "exit_code", "wrong"), CASES)
def test_conventions(text: str, exit_code: int, wrong: list[tuple[int, str, str]]) -> None:
    report = verify_text(text)
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == wrong
    assert report.exit_code == exit_code


def test_identity_weights_are_checked_not_skipped() -> None:
    report = verify_text(_doc("I", "0.3302 & 0.6698 & 0"))
    assert report.exit_code == 0
    assert report.summary["ok"] == 9
    assert report.to_text().endswith("Result: every checked number holds.\n")


def test_a_correct_output_after_wrong_weights_is_not_a_slip() -> None:
    report = verify_text(WEIGHTS_PLANTED)
    output = [f for f in report.findings if f.subject == "Output"]
    assert [(f.claimed, f.status) for f in output] == [
        ("1.8884", "ok"),
        ("0.0558", "ok"),
        ("0.6605", "ok"),
        ("0.6698", "ok"),
    ]


def test_a_slip_shows_the_value_by_the_documents_numbers() -> None:
    report = verify_text(
        INPUTS + "$$A = \\begin{bmatrix} 0.9442 & 0.0558 \\\\ 0.3302 & 0.6698 \\end{bmatrix}$$\n\n"
        "$$a = A_{12} = 0.0585$$\n"
    )
    (slip,) = report.wrong
    assert (slip.claimed, slip.kind, slip.value) == ("0.0585", "slip", "0.0558072")
    assert slip.reason == "by the document's numbers: 0.0558000"
    assert "    reason: by the document's numbers: 0.0558000\n" in report.to_text()


def test_nothing_checked_is_said_plainly() -> None:
    report = verify_text("$$X = \\begin{bmatrix} 1 & 2 \\end{bmatrix}$$\n\nand then $0.5$.\n")
    assert report.exit_code == 0
    assert report.to_text().endswith("Result: no number could be checked.\n")
    assert report.to_markdown(lang="zh").endswith("**结论：没有任何数字能够核验。**\n")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(WEIGHTS_PLANTED, id="inputs-and-operands"),
        pytest.param(_doc("J", "0.3302 & 0.6698 & 0"), id="undefined-name"),
        pytest.param("$$y = \\frac{1}{0} = 2$$\n\n$$s = \\sum_i x_i = 3$$\n", id="bad-input-and-sum"),
    ],
)
def test_chinese_reports_have_no_english_reasons(text: str) -> None:
    lines = verify_text(text).to_text(lang="zh").splitlines()
    start = lines.index("未核验") + 1
    reasons = [line.split("：", 1)[1] for line in lines[start:] if line.startswith("    ")]
    assert reasons
    for reason in reasons:
        head = re.split(r"[：（]", reason)[0]
        assert re.search(r"[\u4e00-\u9fff]", head), reason


# --- row labels and accented names (the layout of our own derivations) ----------

LABELS = (
    "$$X = \\begin{bmatrix} 1 & 0 \\\\ 1 & 1 \\end{bmatrix}"
    "\\begin{matrix} \\vphantom{10}x_{1} \\\\ \\vphantom{11}x_{2} \\end{matrix}$$\n\n"
    "$$S = X X^T = \\begin{bmatrix} 1 & 1 \\\\ 1 & {s22} \\end{bmatrix}"
    "\\begin{matrix} \\vphantom{11}x_{1} \\\\ \\vphantom{12}x_{2} \\end{matrix}$$\n\n"
    "$$\\tilde{S} = \\frac{S}{\\sqrt{2}} \\approx \\begin{bmatrix} 0.7071 & 0.7071 \\\\ 0.7071 & {t22} \\end{bmatrix}$$\n\n"
    "$$\\hat{A} = \\begin{bmatrix} 0.5 & 0.5 \\\\ 0.25 & 0.75 \\end{bmatrix}, \\quad "
    "\\hat{A} X = \\begin{bmatrix} 1 & 0.5 \\\\ 1 & {o22} \\end{bmatrix}$$\n"
)


def _labels(s22: str = "2", t22: str = "1.4142", o22: str = "0.75") -> str:
    return LABELS.replace("{s22}", s22).replace("{t22}", t22).replace("{o22}", o22)


LABEL_CASES = [
    pytest.param(_labels(), 0, [], id="all-right"),
    pytest.param(_labels(s22="3"), 1, [(3, "3", "slip")], id="label-matrix-after-a-product"),
    pytest.param(_labels(t22="1.4143"), 1, [(5, "1.4143", "wrong")], id="tilde-name"),
    pytest.param(_labels(o22="0.6"), 1, [(7, "0.6", "slip")], id="hat-name"),
    pytest.param(
        "$$y = \\begin{bmatrix} 1 & 2 \\end{bmatrix}\\begin{matrix} 3 \\\\ 4 \\end{matrix} = 12$$\n",
        1,
        [(1, "12", "slip")],
        id="a-matrix-without-vphantom-is-still-a-factor",
    ),
]


@pytest.mark.parametrize(("text", "exit_code", "wrong"), LABEL_CASES)
def test_row_labels_and_accents(text: str, exit_code: int, wrong: list[tuple[int, str, str]]) -> None:
    report = verify_text(text)
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == wrong
    assert report.exit_code == exit_code


def test_every_number_of_the_labelled_document_is_checked_or_an_input() -> None:
    report = verify_text(_labels())
    kinds = {(f.line, f.kind) for f in report.findings if f.status == "unverified"}
    assert kinds == {(1, "input"), (5, "operand"), (7, "input")}
    assert report.summary["ok"] == 12
