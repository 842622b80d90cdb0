"""Unit tables for the document model and the Markdown / LaTeX writers."""

import pytest

from symattn.render import latex, markdown
from symattn.render.blocks import Bullets, Display, Heading, Math, Paragraph, Strong, Table, Text, fill

_KEEP = "\\vskip 0pt plus 8\\baselineskip\\penalty-200\\vskip 0pt plus -8\\baselineskip\\relax\n"


@pytest.mark.parametrize(
    ("template", "values", "parts"),
    [
        pytest.param("plain", {}, (Text("plain"),), id="no-fields"),
        pytest.param("{x} first", {"x": Math("a")}, (Math("a"), Text(" first")), id="leading-math"),
        pytest.param("row {i} of {n}", {"i": 3, "n": "9"}, (Text("row 3 of 9"),), id="text-merged"),
        pytest.param(
            "by {keys}.",
            {"keys": Paragraph((Text("token 1 ("), Math("x_{1}"), Text(")")))},
            (Text("by token 1 ("), Math("x_{1}"), Text(").")),
            id="paragraph-spliced",
        ),
        pytest.param("{w}", {"w": Strong("wrong")}, (Strong("wrong"),), id="strong"),
    ],
)
def test_fill(template, values, parts):
    assert fill(template, **values).parts == parts


def test_fill_missing_field_is_a_template_bug():
    with pytest.raises(KeyError, match=r"^'x'$"):
        fill("{x}")


TABLE = Table(
    header=((Text("Entry"),), (Text("Claimed"),)),
    rows=(((Math("a_{31}"),), (Strong("0.3"),)), ((Math("|x|"),), (Text("0.4"),))),
)


@pytest.mark.parametrize(
    ("block", "md"),
    [
        pytest.param(Heading(2, "3. Scores"), "## 3. Scores", id="heading"),
        pytest.param(Heading(1, "a_b #1"), r"# a\_b \#1", id="heading-escaped"),
        pytest.param(
            Paragraph((Text("costs $5 * 2 "), Math(" x_1 "))), r"costs \$5 \* 2 $x_1$", id="paragraph"
        ),
        pytest.param(Display(r"x = \frac{1}{2}"), "$$\nx = \\frac{1}{2}\n$$", id="display"),
        pytest.param(
            Bullets((Paragraph((Text("one"),)), Paragraph((Math("2"),)))), "- one\n- $2$", id="bullets"
        ),
        pytest.param(
            TABLE,
            "| Entry | Claimed |\n|---|---|\n| $a_{31}$ | **0.3** |\n| $\\vert x\\vert $ | 0.4 |",
            id="table-pipes-in-math",
        ),
    ],
)
def test_markdown_block(block, md):
    assert markdown.to_markdown([block]) == md + "\n"


@pytest.mark.parametrize(
    ("block", "tex"),
    [
        # a section heading keeps the next lines with it: a conditional page break before it
        pytest.param(Heading(2, "3. Scores"), _KEEP + r"\subsection*{3. Scores}", id="heading"),
        pytest.param(
            Heading(3, "50% & more"), _KEEP + r"\subsubsection*{50\% \& more}", id="heading-escaped"
        ),
        pytest.param(Paragraph((Text("see "), Math("x_1"))), r"see \(x_1\)", id="paragraph"),
        pytest.param(Display("x = 1"), "\\[\nx = 1\n\\]", id="display"),
        pytest.param(
            Bullets((Paragraph((Text("one"),)),)),
            "\\begin{itemize}\n  \\item one\n\\end{itemize}",
            id="bullets",
        ),
        pytest.param(
            TABLE,
            "\\begin{center}\n\\renewcommand{\\arraystretch}{2.2}\n\\begin{tabular}{|l|l|}\n\\hline\nEntry & Claimed \\\\\n\\hline\n"
            "\\(a_{31}\\) & \\textbf{0.3} \\\\\n\\(|x|\\) & 0.4 \\\\\n\\hline\n\\end{tabular}\n\\end{center}",
            id="table",
        ),
    ],
)
def test_latex_block(block, tex):
    assert latex.to_latex([block]) == tex + "\n"


@pytest.mark.parametrize(
    ("lang", "first_line", "engine_package"),
    [
        pytest.param("en", r"\documentclass{article}", r"\usepackage[utf8]{inputenc}", id="en-pdflatex"),
        pytest.param("zh", r"\documentclass{ctexart}", r"\usepackage{amsmath,amssymb}", id="zh-xelatex-ctex"),
    ],
)
def test_latex_standalone_wraps_the_fragment(lang, first_line, engine_package):
    text = latex.to_latex([Display("x = 1")], lang=lang, standalone=True)
    assert text.splitlines()[0] == first_line
    assert engine_package in text.splitlines()
    assert text.endswith("\\begin{document}\n\n\\[\nx = 1\n\\]\n\n\\end{document}\n")
