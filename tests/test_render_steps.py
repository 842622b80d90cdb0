"""One test table per step renderer of render/compose.py, on exact LaTeX strings.

The steps come from the reference example (X = [[1,0],[0,1],[1,1]], identity
projections, scale 1/√2) built by symattn.derivation.build_steps.
"""

import pytest

from symattn import examples
from symattn.derivation import build_steps
from symattn.render import compose as c
from symattn.render import steps as st
from symattn.render import text_en, text_zh
from symattn.render.blocks import Display, Math, Paragraph, Picture, Strong, Table, Text

E = r"e^{\frac{\sqrt{2}}{2}}"
CTX = c._Context(text_en.TEXT, 4, 2)


@pytest.fixture(scope="module")
def steps():
    spec = examples.reference()
    return build_steps(spec.run(), spec.claims, 4)


def _of(steps, kind, index=0):
    return [s for s in steps if isinstance(s, kind)][index]


def _displays(blocks):
    return [b.latex for b in blocks if isinstance(b, Display)]


LABELS = r"\begin{matrix} \vphantom{10}x_{1} \\ \vphantom{01}x_{2} \\ \vphantom{11}x_{3} \end{matrix}"
X = r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}"
I2 = r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}"


def test_setup(steps):
    blocks = c._setup(_of(steps, st.Setup), CTX)
    assert _displays(blocks) == [
        f"X = {X}{LABELS}",
        rf"W_Q = {I2},\qquad W_K = {I2},\qquad W_V = {I2}",
    ]
    assert blocks[-1] == Paragraph(
        (
            Text("The queries and keys have dimension "),
            Math("d_k = 2"),
            Text(", so the scores are scaled by "),
            Math(r"\frac{1}{\sqrt{d_k}} = \frac{1}{\sqrt{2}} = \frac{\sqrt{2}}{2}"),
            Text("."),
        )
    )


@pytest.mark.parametrize(
    ("index", "display"),
    [
        pytest.param(0, f"Q = X W_Q = {X}{I2} = {X}{LABELS}", id="Q"),
        pytest.param(1, f"K = X W_K = {X}{I2} = {X}{LABELS}", id="K"),
        pytest.param(2, f"V = X W_V = {X}{I2} = {X}{LABELS}", id="V"),
    ],
)
def test_projection(steps, index, display):
    assert _displays(c._projection(_of(steps, st.Projection, index), CTX)) == [display]


def test_scores(steps):
    displays = _displays(c._scores(_of(steps, st.Scores), CTX))
    assert displays[0].startswith(r"S = Q K^{\top} = ")
    assert displays[0].endswith(
        r"= \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 \end{bmatrix}"
        r"\begin{matrix} \vphantom{101}x_{1} \\ \vphantom{011}x_{2} \\ \vphantom{112}x_{3} \end{matrix}"
    )
    assert displays[1].startswith(
        r"\begin{aligned} s_{11} & = q_{1} \cdot k_{1} = 1 \cdot 1 + 0 \cdot 0 = 1 \\ "
        r"s_{12} & = q_{1} \cdot k_{2} = 1 \cdot 0 + 0 \cdot 1 = 0 \\ "
    )
    assert displays[1].endswith(r"s_{33} & = q_{3} \cdot k_{3} = 1 \cdot 1 + 1 \cdot 1 = 2 \end{aligned}")
    assert displays[2].startswith(
        r"\tilde{S} = \frac{S}{\sqrt{2}} = \begin{bmatrix} \frac{\sqrt{2}}{2} & 0 & \frac{\sqrt{2}}{2}"
    )
    assert r"\approx \begin{bmatrix} 0.7071 & 0.0000 & 0.7071 \\" in displays[2]


def test_dot_products_put_negative_entries_in_parentheses():
    from symattn.pipeline import attention

    steps = build_steps(attention([[1, -2]]), None, 4)
    (display,) = _displays(c._dot_products(_of(steps, st.Scores), CTX))
    assert display == r"s_{11} = q_{1} \cdot k_{1} = 1 \cdot 1 + \left(-2\right) \cdot \left(-2\right) = 5"


def test_dot_products_are_left_out_for_large_inputs():
    from symattn.pipeline import attention

    steps = build_steps(attention([[1, 0]] * 5), None, 4)
    assert c._dot_products(_of(steps, st.Scores), CTX) == []


def test_softmax_row_three(steps):
    row = _of(steps, st.Softmax).rows[2]
    blocks = c._softmax_row(row, 0, CTX)
    sum_ = rf"{E} + {E} + e^{{\sqrt{{2}}}}"
    assert _displays(blocks) == [
        r"\left(e^{\tilde{s}_{31}},\ e^{\tilde{s}_{32}},\ e^{\tilde{s}_{33}}\right) = "
        rf"\left({E},\ {E},\ e^{{\sqrt{{2}}}}\right)",
        rf"\begin{{aligned}} a_{{31}} & = \frac{{{E}}}{{{sum_}}} = \frac{{1}}{{2 + {E}}} \approx 0.2483 \\ "
        rf"a_{{32}} & = \frac{{{E}}}{{{sum_}}} = \frac{{1}}{{2 + {E}}} \approx 0.2483 \\ "
        rf"a_{{33}} & = \frac{{e^{{\sqrt{{2}}}}}}{{{sum_}}} = \frac{{{E}}}{{2 + {E}}} \approx 0.5035 \end{{aligned}}",
        rf"a_{{31}} + a_{{32}} + a_{{33}} = \frac{{1 + 1 + {E}}}{{2 + {E}}} = 1",
    ]
    assert blocks[2] == Paragraph(
        (
            Text("Dividing every numerator and the denominator by "),
            Math(E),
            Text(
                ", the smallest exponential, leaves the weights unchanged and gives their simplest closed form:"
            ),
        )
    )


def test_output_row_three(steps):
    row = _of(steps, st.Output).rows[2]
    a = rf"\frac{{1}}{{2 + {E}}}"
    (display,) = _displays(c._output_row(row, 0, CTX))
    assert display == (
        r"\begin{aligned} "
        rf"a_{{31}} v_{{1}} & = {a} \begin{{bmatrix}} 1 & 0 \end{{bmatrix}} = \begin{{bmatrix}} {a} & 0 \end{{bmatrix}} "
        r"\approx \begin{bmatrix} 0.2483 & 0.0000 \end{bmatrix} \\ "
        rf"a_{{32}} v_{{2}} & = {a} \begin{{bmatrix}} 0 & 1 \end{{bmatrix}} = \begin{{bmatrix}} 0 & {a} \end{{bmatrix}} "
        r"\approx \begin{bmatrix} 0.0000 & 0.2483 \end{bmatrix} \\ "
        rf"a_{{33}} v_{{3}} & = \frac{{{E}}}{{2 + {E}}} \begin{{bmatrix}} 1 & 1 \end{{bmatrix}} "
        rf"= \begin{{bmatrix}} \frac{{{E}}}{{2 + {E}}} & \frac{{{E}}}{{2 + {E}}} \end{{bmatrix}} "
        r"\approx \begin{bmatrix} 0.5035 & 0.5035 \end{bmatrix} \\ "
        r"o_{3} & = a_{31} v_{1} + a_{32} v_{2} + a_{33} v_{3} "
        rf"= \begin{{bmatrix}} \frac{{1 + {E}}}{{2 + {E}}} & \frac{{1 + {E}}}{{2 + {E}}} \end{{bmatrix}} "
        r"\approx \begin{bmatrix} 0.7517 & 0.7517 \end{bmatrix} \end{aligned}"
    )


@pytest.mark.parametrize(
    ("row", "sentence"),
    [
        pytest.param(
            0,
            (
                Text("The largest share, weight "),
                Math(r"a_{11} = a_{13} \approx 0.4011"),
                Text(", is shared exactly by token 1 ("),
                Math("x_{1}"),
                Text(") and token 3 ("),
                Math("x_{3}"),
                Text(")."),
            ),
            id="tie-rows-1",
        ),
        pytest.param(
            2,
            (
                Text("The largest share comes from token 3 ("),
                Math("x_{3}"),
                Text("), with weight "),
                Math(r"a_{33} \approx 0.5035"),
                Text("."),
            ),
            id="dominant-row-3",
        ),
    ],
)
def test_analysis_dominance(steps, row, sentence):
    blocks = c._analysis(_of(steps, st.Analysis), CTX)
    paragraphs = [
        b
        for b in blocks
        if isinstance(b, Paragraph)
        and isinstance(b.parts[0], Text)
        and b.parts[0].text.startswith("The largest")
    ]
    assert paragraphs[row].parts == sentence


@pytest.mark.parametrize(
    ("table", "row", "cells"),
    [
        pytest.param(
            0,
            0,
            ("$a_{11}$", "0.4", rf"$\frac{{{E}}}{{1 + 2 {E}}}$", "0.4011", "correct rounding"),
            id="weights-row1-ok",
        ),
        pytest.param(
            0,
            6,
            ("$a_{31}$", "**0.3**", rf"$\frac{{1}}{{2 + {E}}}$", "0.2483", "**wrong**"),
            id="weights-a31-wrong",
        ),
        pytest.param(
            0,
            8,
            ("$a_{33}$", "**0.4**", rf"$\frac{{{E}}}{{2 + {E}}}$", "0.5035", "**wrong**"),
            id="weights-a33-wrong",
        ),
        pytest.param(
            1,
            4,
            (
                "$o_{31}$",
                "**0.7**",
                rf"$\frac{{1 + {E}}}{{2 + {E}}}$",
                "0.7517",
                "**wrong** (follows from the claimed weights)",
            ),
            id="output-o31-carried",
        ),
    ],
)
def test_claim_table(steps, table, row, cells):
    from symattn.render.markdown import inline

    blocks = c._claim_table(_of(steps, st.ClaimTable, table), CTX)
    (rendered,) = [b for b in blocks if isinstance(b, Table)]
    assert tuple(inline(cell, in_table=True) for cell in rendered.rows[row]) == cells


def test_claim_table_summary(steps):
    blocks = c._claim_table(_of(steps, st.ClaimTable, 0), CTX)
    assert isinstance(blocks[-1], Picture) and blocks[-1].name == "claims-weights"  # the heatmap after it
    assert blocks[-2] == Paragraph(
        (
            Text("3 of the 9 claimed entries are wrong: "),
            Math("a_{31}, a_{32}, a_{33}"),
            Text("; the other 6 are correct roundings."),
        )
    )


def test_recomputed(steps):
    blocks = c._recomputed(_of(steps, st.Recomputed), CTX)
    (table,) = [b for b in blocks if isinstance(b, Table)]
    assert [
        tuple(part.text for cell in row for part in cell if isinstance(part, Text)) for row in table.rows
    ][2] == (
        "3 (",
        ")",
        "0.7, 0.7",
        "0.7000, 0.7000",
        "0.7517, 0.7517",
    )
    assert isinstance(blocks[-1].parts[0], Text)
    assert blocks[-1].parts[-2] == Math("O = AV")
    assert "not the softmax of the scores" in "".join(p.text for p in blocks[-1].parts if isinstance(p, Text))


def test_multihead_concat_and_projection():
    from symattn.spec import load_spec

    spec = load_spec("derivations/two_heads.toml")
    steps = build_steps(spec.run(), None, 4)
    concat = c._concat(_of(steps, st.Concat), CTX)
    assert _displays(concat)[0].startswith(r"\begin{aligned} \operatorname{Concat}(O^{(1)}, O^{(2)}) & = ")
    projection = c._output_projection(_of(steps, st.OutputProjection), CTX)
    assert _displays(projection)[0] == r"W_O = \begin{bmatrix} 1 & 1 \\ \frac{1}{2} & -1 \end{bmatrix}"
    assert r"O & = \operatorname{Concat}(\dots)\, W_O" in _displays(projection)[1]


@pytest.mark.parametrize("key", sorted(set(text_en.TEXT) | set(text_zh.TEXT)))
def test_every_prose_key_exists_in_both_languages(key):
    assert key in text_en.TEXT
    assert key in text_zh.TEXT


@pytest.mark.parametrize("key", sorted(text_en.TEXT))
def test_english_prose_is_ascii_for_pdflatex(key):
    assert text_en.TEXT[key].isascii()


def test_strong_marks_only_wrong_claims(steps):
    blocks = c._claim_table(_of(steps, st.ClaimTable, 0), CTX)
    (rendered,) = [b for b in blocks if isinstance(b, Table)]
    marked = [row[0][0].latex for row in rendered.rows if isinstance(row[1][0], Strong)]
    assert marked == ["a_{31}", "a_{32}", "a_{33}"]
