"""SVG heatmaps (symattn.render.svg): well-formed, shaded on viridis, annotated with certified decimals.

Well-formedness is checked by xmllint --noout (libxml2-utils) and by ElementTree.
Locally the xmllint check skips when it is absent; under CI it fails instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

import symattn
from symattn.errors import InputError
from symattn.importance import METHODS, decimals, heatmap
from symattn.render.svg import MAX_CELLS, VIRIDIS, Heatmap, colour, text_colour


def reference(**options):
    return symattn.attention([[1, 0], [0, 1], [1, 1]], **options)


def parsed(svg_text):
    return ET.fromstring(svg_text)


def cell_texts(root):
    """The annotations drawn on the cells, row by row."""
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "cell"]


def xmllint(path):
    if shutil.which("xmllint") is None:
        reason = "xmllint is not installed here (CI installs libxml2-utils)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    done = subprocess.run(
        ["xmllint", "--noout", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("method", [m for m in METHODS if m != "norm_output"])
def test_heatmap_cells_are_the_certified_decimals_and_the_svg_is_well_formed(method, tmp_path):
    att = reference(labels=["a<b", "x & y", 'q"\x01'])
    picture = heatmap(att, method, places=4)
    path = tmp_path / f"{method}.svg"
    path.write_text(picture.svg, encoding="utf-8")
    xmllint(path)
    root = parsed(picture.svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    expected = [text for row in decimals(att.importance(method), 4) for text in row]
    assert cell_texts(root) == expected
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "a<b" in labels and "x & y" in labels and 'q"\ufffd' in labels


def test_heatmap_of_norm_output_on_multihead():
    mh = symattn.multihead(
        [[1, 0], [0, 1]], [(None, None, None), (None, None, [[1], [2]])], W_O=[[1], [0], [1]]
    )
    root = parsed(heatmap(mh, "norm_output", places=3).svg)
    assert cell_texts(root) == [t for row in decimals(mh.importance("norm_output"), 3) for t in row]


def test_colours_run_from_the_smallest_to_the_largest_cell_on_viridis():
    root = parsed(Heatmap.of([["0.10", "0.55", "1.00"]], title="t").svg)
    fills = [r.get("fill") for r in root.iter("{http://www.w3.org/2000/svg}rect")]
    assert fills[:3] == [VIRIDIS[0], colour(Fraction(1, 2)), VIRIDIS[-1]]
    assert fills[3:] == list(VIRIDIS)  # the colour bar
    texts = {
        t.text: t.get("fill")
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if t.get("class") == "cell"
    }
    assert texts["0.10"] == "#ffffff" and texts["1.00"] == "#000000"


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        pytest.param(Fraction(0), "#440154", id="start"),
        pytest.param(Fraction(1, 9), "#482878", id="second-stop"),
        pytest.param(Fraction(1, 18), "#461466", id="between-stops"),
        pytest.param(Fraction(1), "#fde725", id="end"),
        pytest.param(Fraction(2), "#fde725", id="clamped"),
    ],
)
def test_colour_interpolates_the_stops(position, expected):
    assert colour(position) == expected


def test_text_colour_is_the_higher_contrast_of_black_and_white():
    assert [text_colour(c) for c in (VIRIDIS[0], VIRIDIS[4], VIRIDIS[-1])] == [
        "#ffffff",
        "#000000",
        "#000000",
    ]


def test_equal_cells_take_the_middle_colour():
    root = parsed(Heatmap.of([["0.5", "0.5"]], title="flat").svg)
    fills = [r.get("fill") for r in root.iter("{http://www.w3.org/2000/svg}rect")][:2]
    assert fills == [colour(Fraction(1, 2))] * 2


def test_jupyter_display_is_the_svg():
    picture = heatmap(reference(), "norm")
    html = picture._repr_html_()
    assert html == picture.svg == picture._repr_svg_()
    assert "0.712" in cell_texts(parsed(html))


@pytest.mark.parametrize(
    ("cells", "options", "message"),
    [
        pytest.param([], {}, "heatmap 't': no cells to draw", id="empty"),
        pytest.param([["1"], ["1", "2"]], {}, "heatmap 't': the rows have different lengths", id="ragged"),
        pytest.param(
            [["1", "2"]],
            {"row_labels": ["a", "b"]},
            "heatmap 't': 2 row labels and 2 column labels for 1×2 cells",
            id="labels",
        ),
        pytest.param(
            [["1"] * 65] * 64,
            {},
            f"heatmap 't': 64×65 is 4160 cells, more than {MAX_CELLS}",
            id="too-many",
        ),
    ],
)
def test_bad_heatmaps_are_one_line(cells, options, message):
    with pytest.raises(InputError) as caught:
        Heatmap.of(cells, title="t", **options)
    assert str(caught.value) == message


def test_claimed_against_true_outlines_exactly_the_wrong_claims(tmp_path):
    from symattn.render.svg import comparison_heatmap

    att = reference()
    comparison = att.compare("weights", [["0.4", "0.2", "0.4"]] * 3)
    picture = comparison_heatmap(comparison)
    path = tmp_path / "claims.svg"
    path.write_text(picture.svg, encoding="utf-8")
    xmllint(path)
    root = parsed(picture.svg)
    assert cell_texts(root) == [t for row in att.decimals("weights", 4) for t in row]
    notes = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "note"]
    assert notes[6:] == ["claimed 0.4 ✗", "claimed 0.2 ✓", "claimed 0.4 ✗"]
    marked = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "marked"]
    assert len(marked) == len(comparison.wrong) == 4


def test_notes_of_the_wrong_shape_are_refused():
    with pytest.raises(InputError) as caught:
        Heatmap.of([["1", "2"]], title="t", notes=[["a"]])
    assert str(caught.value) == "heatmap 't': notes do not have the cells' shape 1×2"
