"""Finding math in Markdown and LaTeX, with exact lines and columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.errors import MissingFileError
from symattn.verify.document import read_document
from symattn.verify.find import Locator, find_math


def _where(source: str, tex: bool = False) -> list[tuple[str, int, int]]:
    """(text, line, column) of the first character of each span."""
    locator = Locator(source)
    return [
        (s.text.strip(), *locator.position(s.source_offset(len(s.text) - len(s.text.lstrip()))))
        for s in find_math(source, tex=tex)
        if s.reader == "latex"
    ]


MARKDOWN = [
    pytest.param("Let $d_k = 2$.", [("d_k = 2", 1, 6)], id="inline"),
    pytest.param("中文 $x = 1$ 文字", [("x = 1", 1, 5)], id="chinese-columns"),
    pytest.param("a\n\n$$\ny = 2\n$$\n", [("y = 2", 4, 1)], id="display-own-lines"),
    pytest.param("1. item\n\n   $$z = 3$$\n", [("z = 3", 3, 6)], id="indented-in-list"),
    pytest.param("see \\(u = 4\\) and \\[v = 5\\]", [("u = 4", 1, 7), ("v = 5", 1, 21)], id="brackets"),
    pytest.param("`$no = 1$` and\n\n```\n$$no = 2$$\n```\n\n    $$no = 3$$\n", [], id="code-skipped"),
    pytest.param("> quote $q = 6$", [("q = 6", 1, 10)], id="blockquote"),
    pytest.param(
        "\\begin{align}\na &= 1\n\\end{align}\n",
        [("\\begin{align}\na &= 1\n\\end{align}", 1, 1)],
        id="amsmath",
    ),
]


@pytest.mark.parametrize(("source", "expected"), MARKDOWN)
def test_markdown_spans_and_positions(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert _where(source) == expected


TEX = [
    pytest.param("\\begin{document}\n$a = 1$\n\\end{document}", [("a = 1", 2, 2)], id="dollar"),
    pytest.param(
        "\\begin{document}\n\\begin{equation*}\nb = 2\n\\end{equation*}\n\\end{document}",
        [("b = 2", 3, 1)],
        id="equation-star",
    ),
    pytest.param(
        "\\begin{document}\n% $c = 3$\n\\[ d = 4 \\]\n\\end{document}",
        [("d = 4", 3, 4)],
        id="comment-and-brackets",
    ),
    pytest.param(
        "\\begin{document}\n50\\% of \\(e = 5\\)\n\\end{document}", [("e = 5", 2, 11)], id="escaped-percent"
    ),
    pytest.param(
        "\\begin{document}\n\\begin{gather}\nf = 6\n\\end{gather}\n\\end{document}",
        [("f = 6", 3, 1)],
        id="gather",
    ),
]


@pytest.mark.parametrize(("source", "expected"), TEX)
def test_tex_spans_and_positions(source: str, expected: list[tuple[str, int, int]]) -> None:
    assert _where(source, tex=True) == expected


@pytest.mark.parametrize(
    ("name", "is_tex"),
    [
        pytest.param("doc.md", False, id="md"),
        pytest.param("doc.txt", False, id="txt"),
        pytest.param("doc.tex", True, id="tex"),
    ],
)
def test_read_document_by_suffix(tmp_path: Path, name: str, is_tex: bool) -> None:
    path = tmp_path / name
    path.write_text("$x = 1$\n", encoding="utf-8")
    assert read_document(path) == (str(path), "$x = 1$\n", is_tex)
    assert read_document(str(path)) == (str(path), "$x = 1$\n", is_tex)


def test_read_document_never_takes_text_for_a_file() -> None:  # text goes to verify_text (issue 10)
    with pytest.raises(MissingFileError, match=r"^\$x = 1\$: no such file$"):
        read_document("$x = 1$")


def test_an_inline_img_tag_in_prose_is_read() -> None:
    source = 'See <img src="https://latex.codecogs.com/svg.latex?x%3D1%2B1%3D3"> here.\n'
    spans = [s for s in find_math(source, tex=False) if s.reader == "images"]
    assert [s.text for s in spans] == ["x=1+1=3"]
    locator = Locator(source)
    assert locator.position(spans[0].source_offset(spans[0].text.index("3"))) == (1, source.index("%3D3") + 4)


def test_an_html_table_of_weights_is_read_with_positions() -> None:
    source = (
        "The attention weights are:\n\n<table>\n<tr><th></th><th>a</th><th>b</th></tr>\n"
        "<tr><td>a</td><td>0.73</td><td>0.27</td></tr>\n<tr><td>b</td><td>0.5</td><td>0.5</td></tr>\n</table>\n"
    )
    spans = [s for s in find_math(source, tex=False) if s.reader == "tables"]
    assert len(spans) == 1
    assert (
        " ".join(spans[0].text.split())
        == r"\text{weights} = \begin{bmatrix}0.73 & 0.27 \\ 0.5 & 0.5\end{bmatrix}"
    )
    locator = Locator(source)
    at = spans[0].text.index("0.27")
    assert locator.position(spans[0].source_offset(at)) == (5, source.splitlines()[4].index("0.27") + 1)


def test_python_warnings_about_a_documents_code_are_not_printed() -> None:
    import warnings

    source = '```python\nlabel = "\\lambda"\nx = 1\n```\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning would fail here
        spans = find_math(source, tex=False)
    assert [s.text for s in spans if s.reader == "code" and "forget" not in s.flags] == ["x = 1"]
