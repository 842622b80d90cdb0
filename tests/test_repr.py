"""Jupyter: short reprs and HTML displays for Attention, MultiHead, Comparison and Report."""

from html.parser import HTMLParser

import mpmath

import symattn
from symattn.verify.finding import Finding
from symattn.verify.report import Report

CLAIMED = [["0.4", "0.2", "0.4"], ["0.2", "0.4", "0.4"], ["0.3", "0.3", "0.4"]]


class _Cells(HTMLParser):
    """Collects the text of every table cell, and checks that tags are balanced."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag in ("td", "th"):
            self.cells.append("")

    def handle_endtag(self, tag):
        assert self.stack.pop() == tag

    def handle_data(self, data):
        if self.stack and self.stack[-1] in ("td", "th"):
            self.cells[-1] += data


def _cells(html: str) -> list[str]:
    parser = _Cells()
    parser.feed(html)
    parser.close()
    assert parser.stack == []
    return parser.cells


def _true_row3() -> list[str]:
    mpmath.mp.dps = 30
    e = mpmath.exp(mpmath.sqrt(2) / 2)
    return [mpmath.nstr(v, 4, strip_zeros=False) for v in (1 / (2 + e), 1 / (2 + e), e / (2 + e))]


def test_attention_repr_and_html():
    att = symattn.attention([[1, 0], [0, 1], [1, 1]], labels=["x_1", "x_2", "x_3"])
    assert repr(att) == "<Attention self-attention: 3 queries, 3 keys, d_k=2>"
    cells = _cells(att._repr_html_())
    assert cells[cells.index("weights") : cells.index("weights") + 3] == [
        "weights",
        "3×3",
        r"$A = \operatorname{softmax}\left(\tilde{S}\right)$",  # math, for Jupyter's typesetter
    ]
    row3 = cells[cells.index("x_3") : cells.index("x_3") + 4]
    assert row3 == ["x_3", *_true_row3()]


def test_a_large_attention_shows_only_a_corner():
    att = symattn.attention([[i % 3, (i * 2) % 5] for i in range(40)])
    html = att._repr_html_()
    assert "weights A (40×40)" in html and "…" in html
    assert len(html) < 20_000


def test_symbolic_attention_shows_exact_entries():
    html = symattn.attention([["a", 0], [0, "b"]])._repr_html_()
    assert "exact (symbolic entries)" in html and "exp(" in html


def test_multihead_repr_and_html():
    mh = symattn.multihead(
        [[1, 0], [0, 1]], heads=[(None, None, None), ([[0, 1], [1, 0]], None, None)], W_O=[[1, 0], [0, 1]] * 2
    )
    assert repr(mh) == "<MultiHead: 2 heads, W_O=yes>"
    cells = _cells(mh._repr_html_())
    assert cells[:4] == ["head", "Q", "weights", "output"]
    assert "concat (2×4)" in mh._repr_html_()


def test_comparison_repr_and_html():
    cmp = symattn.attention([[1, 0], [0, 1], [1, 1]]).compare("weights", CLAIMED)
    assert repr(cmp) == "<Comparison weights: 9 claimed entries, 3 wrong: [3,1], [3,2], [3,3]>"
    cells = _cells(cmp._repr_html_())
    assert cells[-4:] == ["[3,3]", "0.4", "0.5035", "wrong"]


def _finding(line: int, status: str) -> Finding:
    return Finding(line, 1, "A", (1, 1), "0.4", "0.4011", "x" * 300, status, status, None, "r" * 50)


def test_report_repr_is_short_and_html_lists_wrong_first():
    report = Report("notes.md", tuple(_finding(n, "wrong" if n % 100 == 7 else "ok") for n in range(1, 501)))
    text = repr(report)
    assert text == "<Report notes.md: 500 numbers, 495 ok, 5 wrong, 0 unverified; exit 1>"
    assert len(text) < 2000
    cells = _cells(report._repr_html_())
    header = ["line:col", "expression", "cell", "claimed", "true", "status", "kind", "reason"]
    assert cells[:8] == header
    statuses = cells[8 + 5 :: 8]
    assert statuses[:5] == ["wrong"] * 5 and statuses[5] == "ok"
    assert "… 450 more" in cells


def test_report_of_a_real_document(tmp_path):
    doc = tmp_path / "notes.md"
    doc.write_text(
        "Let $$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$ and $$y = 1 + 1 = 3$$\n", "utf-8"
    )
    report = symattn.verify_document(doc)
    assert len(repr(report)) < 2000 and repr(report).startswith(f"<Report {doc}: ")
    assert "<table" in report._repr_html_()


def test_derivation_repr_is_short():
    d = symattn.derive(symattn.examples.reference())  # 8 steps, 2 claim tables, the recomputed output
    assert repr(d) == (
        "<Derivation 'Self-attention on three tokens (the textbook example)': 12 steps, lang=en, 4 places>"
    )
    assert d._repr_markdown_().startswith("# Self-attention")


def test_the_formulas_of_a_display_are_math_that_katex_renders(tmp_path):
    """Jupyter typesets $…$ in HTML output: each formula cell is math, and KaTeX (through
    node, as for the derivations) renders every one."""
    import html as html_module
    import re

    from tests.test_render_katex import run_katex

    shown = symattn.attention([[1, 0], [0, 1], [1, 1]])._repr_html_()
    formulas = [html_module.unescape(f) for f in re.findall(r"<td[^>]*>\$([^$<]+)\$</td>", shown)]
    assert len(formulas) >= 6 and r"\tilde{S} = \frac{Q K^{\top}}{\sqrt{d_k}}" in formulas
    page = tmp_path / "display.md"
    page.write_text("".join(f"$$\n{f}\n$$\n\n" for f in formulas), encoding="utf-8")
    code, report = run_katex([page])
    assert report["errors"] == [] and code == 0 and report["formulas"] == len(formulas)
