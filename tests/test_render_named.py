"""Readable closed forms for rational inputs: named exponentials, one denominator per row.

The spec is ours (tests/specs/four_tokens_rational.toml, the example of issue 14).  True
values come from an independent computation here, with fractions and mpmath.
"""

import re
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from symattn.derivation import derive
from symattn.spec import parse_spec

TESTS = Path(__file__).resolve().parent
SPEC = TESTS / "specs" / "four_tokens_rational.toml"

X = [[Fraction(1, 3), Fraction(1, 2), 0], [1, Fraction(-1, 4), Fraction(2, 3)], [0, 1, Fraction(1, 3)]]
X.append([Fraction(1, 2)] * 3)
W_Q = [[1, 0], [0, 1], [Fraction(1, 2), Fraction(1, 2)]]
W_K = [[Fraction(1, 2), 0], [0, 1], [1, Fraction(-1, 3)]]


def _matmul(A, B):
    return [
        [sum(Fraction(a) * Fraction(B[k][j]) for k, a in enumerate(row)) for j in range(len(B[0]))]
        for row in A
    ]


def _rounded(value, places=4) -> str:
    """Half away from zero, from 50 digits (far more than enough to decide 4 places here)."""
    scaled = abs(value) * mpmath.mpf(10) ** places
    units = int(mpmath.floor(scaled + mpmath.mpf("0.5")))
    text = f"{units:0{places + 1}d}"
    sign = "-" if value < 0 and units else ""
    return f"{sign}{text[:-places]}.{text[-places:]}"


def _truth():
    mpmath.mp.dps = 50
    Q, K = _matmul(X, W_Q), _matmul(X, W_K)
    S = [[sum(q * k for q, k in zip(Q[i], K[j], strict=True)) for j in range(4)] for i in range(4)]
    rows = []
    for i in range(4):
        scaled = [mpmath.mpf(s.numerator) / s.denominator / mpmath.sqrt(2) for s in S[i]]
        smallest = min(scaled)
        terms = [mpmath.exp(s - smallest) for s in scaled]
        D = sum(terms)
        rows.append((terms, D, [t / D for t in terms]))
    return rows


@pytest.fixture(scope="module")
def markdown():
    return derive(SPEC).to_markdown()


def test_each_exponential_is_named_once_with_its_true_decimal(markdown):
    truth = _truth()
    defined = re.findall(r"t_\{(\d+)\} = e\^\{[^$]*?\} \\approx (-?\d+\.\d+)", markdown)
    indices = [int(k) for k, _ in defined]
    assert indices == list(range(1, len(indices) + 1)), "each name is defined once, in order"
    values = dict((int(k), v) for k, v in defined)
    # the terms of each row as names, e.g. \left(t_{1},\ 1,\ t_{2},\ t_{3}\right)
    listings = re.findall(r"^\\left\((.*)\\right\)$", markdown, flags=re.M)
    assert len(listings) == 4
    for (terms, _, _), listing in zip(truth, listings, strict=True):
        for true_term, shown in zip(terms, listing.split(r",\ "), strict=True):
            name = re.fullmatch(r"t_\{(\d+)\}", shown.strip())
            expected = "1" if name is None else values[int(name.group(1))]
            assert _rounded(true_term) == (expected if name else "1.0000"), shown


def test_each_row_gives_its_denominator_once_and_weights_over_it(markdown):
    truth = _truth()
    for i, (_, D, weights) in enumerate(truth, start=1):
        assert markdown.count(f"$D_{{{i}}} = ") == 1
        shown = re.search(rf"\$D_\{{{i}\}} = [^$]* \\approx (\d+\.\d+)\$", markdown).group(1)
        assert shown == _rounded(D)
        for j, weight in enumerate(weights, start=1):
            pattern = rf"a_\{{{i}{j}\}} = \\frac\{{(?:t_\{{\d+\}}|1)\}}\{{D_\{{{i}\}}\}} \\approx (\d+\.\d+)"
            assert re.search(pattern, markdown).group(1) == _rounded(weight)


def test_no_nested_exponent_walls_remain(markdown):
    # an exponential of a score appears only where it is named (12 distinct ones) and once per
    # row as the smallest the row is divided by; no fraction has exponentials inside
    assert len(re.findall(r"e\^\{-? ?\\frac", markdown)) == 12 + 4
    assert markdown.count(r"\frac{e^{") == 1 and r"{1 + e^{" not in markdown  # 1: the softmax formula


def test_token_labels_are_quoted(markdown):
    assert "Row 1 (query “the”)." in markdown
    assert "Output row 4 (query “down”), term by term:" in markdown
    assert "token 2 (“cat”): weight" in markdown
    zh = derive(SPEC, lang="zh").to_markdown()
    assert "第 1 行（查询 “the”）" in zh


def test_short_closed_forms_are_not_named():
    spec = parse_spec("X = [[1, 0], [0, 1], [1, 1]]\n", source=None)
    markdown = derive(spec).to_markdown()
    assert "t_{1}" not in markdown and r"\frac{1}{2 + e^{\frac{\sqrt{2}}{2}}}" in markdown


def test_the_four_token_spec_prints_on_at_most_8_pages(tmp_path):
    # 6 pages up to the analysis (the named exponentials' issue); the importance section adds 2
    from test_render_tex import compile_tex  # skips without pdflatex, fails under CI

    code, log = compile_tex(derive(SPEC).to_latex(standalone=True), "en", tmp_path)
    assert code == 0, log[-2000:]
    pages = int(re.search(r"Output written on doc\.pdf \((\d+) pages?", log).group(1))
    assert pages <= 8


def test_the_named_markdown_renders_in_katex(tmp_path, markdown):
    from test_render_katex import run_katex

    doc = tmp_path / "four.md"
    doc.write_text(markdown + derive(SPEC, lang="zh").to_markdown(), encoding="utf-8")
    code, report = run_katex([doc])
    assert code == 0, report
    assert report["formulas"] > 100


def test_multi_head_sections_are_numbered_in_chinese():
    md = derive(TESTS.parent / "derivations" / "two_heads.toml", lang="zh").to_markdown()
    top = [line for line in md.splitlines() if line.startswith("## ")]
    assert top == ["## 第 1 个头", "## 第 2 个头", "## 6. 拼接各头", "## 7. 输出投影"]
    inner = [line for line in md.splitlines() if line.startswith("### ")]
    assert [line.split(".")[0] for line in inner] == [
        f"### {n}" for n in range(1, 6)
    ] * 2  # no analysis or importance section: 2 heads


def test_claims_after_the_heads_go_on_numbering():
    text = (TESTS.parent / "derivations" / "two_heads.toml").read_text(encoding="utf-8")
    text = text.replace("[[heads]]", "[claims]\nconcat = [[1, 1], [1, 1], [1, 1]]\n\n[[heads]]", 1)
    md = derive(parse_spec(text, source=None)).to_markdown()
    assert [line for line in md.splitlines() if line.startswith("## ")][2:] == [
        "## 6. Concatenating the heads",
        "## 7. Output projection",
        "## 8. Checking the claimed numbers",
    ]


def test_the_claims_table_shows_true_values_by_name():
    text = SPEC.read_text(encoding="utf-8") + (
        "\n[claims]\nweights = [[0.24, 0.22, 0.29, 0.26], [0.16, 0.38, 0.19, 0.27],"
        " [0.26, 0.13, 0.37, 0.24], [0.22, 0.22, 0.29, 0.27]]\n"
        "output = [[0.42, 0.48, 0.37], [0.57, 0.31, 0.45], [0.34, 0.58, 0.33], [0.43, 0.48, 0.38]]\n"
    )
    md = derive(parse_spec(text, source=None)).to_markdown()
    truth = _truth()
    mpmath.mp.dps = 50
    a11 = mpmath.nstr(truth[0][2][0], 5)
    assert f"| $a_{{11}}$ | 0.24 | $\\frac{{t_{{1}}}}{{D_{{1}}}}$ | {a11} | correct rounding |" in md
    assert "| $o_{11}$ | 0.42 | $\\frac{1 + \\frac{t_{1}}{3} + \\frac{t_{3}}{2}}{D_{1}}$ |" in md
    assert "All 16 claimed entries are correct roundings" in md
