"""Pictures in derivations (issue 12): SVG files next to the Markdown, shaded cells in LaTeX,
and the Jupyter display.

The decimals a picture must show are computed here with mpmath, never taken from symattn.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import mpmath
import pytest
from test_render_svg import xmllint

import symattn
from symattn import examples
from symattn.derivation import derive
from symattn.importance import decimals, picture
from symattn.render.svg import VIRIDIS

ROOT = Path(__file__).resolve().parent.parent
DERIVATIONS = ROOT / "derivations"
SVG = "{http://www.w3.org/2000/svg}"
PICTURES = sorted(DERIVATIONS.glob("*.svg"))
MARKDOWN = sorted(p for p in DERIVATIONS.glob("*.md") if p.name != "README.md")
_LINK = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")

mpmath.mp.dps = 40


def _certain(x, places=4) -> str:
    scaled = mpmath.mpf(x) * 10**places
    digits = str(int(mpmath.floor(scaled + mpmath.mpf(1) / 2))).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}"


def _reference_weights():
    e = mpmath.exp(mpmath.sqrt(2) / 2)
    return [
        [e / (1 + 2 * e), 1 / (1 + 2 * e), e / (1 + 2 * e)],
        [1 / (1 + 2 * e), e / (1 + 2 * e), e / (1 + 2 * e)],
        [1 / (2 + e), 1 / (2 + e), e / (2 + e)],
    ]


def _panels(svg_text):
    """The cell texts of each panel (nested <svg>), row by row."""
    root = ET.fromstring(svg_text)
    return [
        [t.text for t in panel.iter(f"{SVG}text") if t.get("class") == "cell"]
        for panel in root.findall(f"{SVG}svg")
    ]


def test_there_are_pictures_and_each_is_well_formed():
    assert (
        len(PICTURES) >= 8
    )  # the importance pictures of examples of more than 3 tokens or 1 head are left out
    for path in PICTURES:
        xmllint(path)
        assert ET.parse(path).getroot().tag == f"{SVG}svg"


def test_each_picture_is_linked_from_its_markdown_and_each_link_exists():
    linked = set()
    for md in MARKDOWN:
        for target in _LINK.findall(md.read_text(encoding="utf-8")):
            assert (DERIVATIONS / target).is_file(), f"{md.name} links a missing {target}"
            assert target.startswith(md.name.removesuffix(".md") + ".")
            linked.add(target)
    assert linked == {p.name for p in PICTURES}


def test_the_reference_picture_shows_the_true_weights_and_norms():
    svg_text = (DERIVATIONS / "reference.en.importance.svg").read_text(encoding="utf-8")
    weights, norms, jacobians = _panels(svg_text)
    W = _reference_weights()
    assert weights == [_certain(W[i][j]) for i in range(3) for j in range(3)]
    lengths = [1, 1, mpmath.sqrt(2)]
    assert norms == [_certain(W[i][j] * lengths[j]) for i in range(3) for j in range(3)]
    assert len(jacobians) == 9


def test_the_claims_picture_outlines_the_wrong_claims():
    root = ET.parse(DERIVATIONS / "reference.en.claims-weights.svg").getroot()
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("class") == "marked"]) == 3  # row 3
    notes = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "note"]
    assert notes[6:] == ["claimed 0.3 \u2717", "claimed 0.3 \u2717", "claimed 0.4 \u2717"]


def test_markdown_links_pictures_only_when_asked():
    derivation = derive(examples.reference())
    assert "![" not in derivation.to_markdown()
    linked = _LINK.findall(derivation.to_markdown(pictures="notes"))
    assert linked == ["notes.importance.svg", "notes.claims-weights.svg", "notes.claims-output.svg"]
    assert sorted(derivation.pictures("notes")) == sorted(linked)


def test_latex_shades_the_cells_on_viridis():
    tex = (DERIVATIONS / "reference.en.tex").read_text(encoding="utf-8")
    assert "\\usepackage[table]{xcolor}" in tex
    # the weights panel: the smallest weight (0.1978) is the darkest colour with white text,
    # the largest (0.5035) the lightest with black text
    dark, light = VIRIDIS[0][1:].upper(), VIRIDIS[-1][1:].upper()
    W = _reference_weights()
    low = _certain(min(min(row) for row in W))
    high = _certain(max(max(row) for row in W))
    assert f"\\cellcolor[HTML]{{{dark}}}\\color[HTML]{{FFFFFF}}\\fi {low}" in tex
    assert f"\\cellcolor[HTML]{{{light}}}\\color[HTML]{{000000}}\\fi {high}" in tex


def test_a_shaded_fragment_compiles_with_xcolor_loaded(tmp_path):
    from test_render_tex import compile_tex  # skips without pdflatex, fails under CI

    fragment = derive(examples.reference()).to_latex()
    document = (
        "\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\usepackage[table]{xcolor}\n"
        "\\begin{document}\n" + fragment + "\\end{document}\n"
    )
    code, log = compile_tex(document, "en", tmp_path)
    assert "Undefined control sequence" not in log
    assert code == 0, log[-2000:]


def test_jupyter_displays_the_three_measures_side_by_side():
    att = symattn.attention([[1, 0], [0, 1], [1, 1]])
    shown = picture(att)
    html = shown._repr_html_()
    assert html == shown.svg and html.startswith("<svg")
    weights, norms, jacobians = _panels(html)
    W = _reference_weights()
    assert weights == [_certain(W[i][j]) for i in range(3) for j in range(3)]
    assert norms[8] == _certain(W[2][2] * mpmath.sqrt(2))
    assert jacobians == [t for row in decimals(att.importance("jacobian"), 4) for t in row]


def test_jupyter_display_of_a_multihead_uses_w_o():
    mh = symattn.multihead(
        [[1, 0], [0, 1]], [(None, None, None), (None, None, [[1], [2]])], W_O=[[1], [0], [1]]
    )
    panels = _panels(picture(mh)._repr_html_())
    assert len(panels) == 2
    assert panels[0] == [t for row in decimals(mh.importance("norm_output"), 4) for t in row]


def test_a_symbolic_derivation_has_no_picture():
    derivation = derive(symattn.attention([["a", 0], [0, "b"]]))
    assert derivation.pictures("s") == {}
    assert "cellcolor" not in derivation.to_latex()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_picture_titles_are_in_the_document_language(lang):
    pictures = derive(examples.reference(), lang=lang).pictures("r")
    title = ET.fromstring(pictures["r.importance.svg"]).get("aria-label")
    assert (
        title
        == {
            "en": "The weights, the norm-based contributions and the Jacobian norms as heatmaps",
            "zh": "权重、基于范数的贡献和雅可比范数的热力图",
        }[lang]
    )


def test_derive_to_a_markdown_file_writes_its_pictures_beside_it(tmp_path):
    """``symattn derive -o FILE.md``: the SVG heatmaps next to the file, named after it, each
    well-formed XML, and every picture the Markdown links is there."""
    import re
    import xml.etree.ElementTree as ET

    from symattn.cli import main

    target = tmp_path / "attention.md"
    assert main(["derive", "-o", str(target)]) == 0
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", target.read_text(encoding="utf-8"))
    written = sorted(p.name for p in tmp_path.glob("attention.*.svg"))
    assert sorted(linked) == written and len(written) == 3
    for name in written:
        assert ET.parse(tmp_path / name).getroot().tag.endswith("svg")
    assert main(["derive"]) == 0  # to standard output: no file, no pictures
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["attention.md", *written])


def test_the_claims_pictures_label_tokens_as_the_importance_pictures_do():
    from symattn.derivation import derive as derive_spec
    from symattn.render import steps as st

    derivation = derive_spec(Path(__file__).resolve().parent.parent / "derivations" / "reference.toml")
    tables = {step.name: step for step in derivation.steps if isinstance(step, st.ClaimTable)}
    labels = derivation.steps[0].labels
    assert labels and tables["weights"].row_labels == labels and tables["weights"].col_labels == labels
    assert (
        tables["output"].row_labels == labels and tables["output"].col_labels is None
    )  # columns: dimensions


def test_an_entry_symbol_in_a_panel_title_is_subscripted():
    from symattn.render.latex import _title
    from symattn.render.svg import Heatmap, subscripted

    assert subscripted("weight a_ij") == "weight a\u1d62\u2c7c" and subscripted("token j") == "token j"
    assert _title("weight a_ij") == r"weight \(a_{ij}\)"
    picture = Heatmap.of([["0.5", "0.5"]], title="weight a_ij")
    assert "a\u1d62\u2c7c" in picture.svg and "a_ij" not in picture.svg
