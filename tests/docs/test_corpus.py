"""The verifier corpus: every expectation file is well formed.

Each ``NAME.md`` / ``NAME.tex`` here has a ``NAME.expect.toml`` (see README.md).
These tests check the expectations against their documents (counts, kinds,
and that each listed literal really stands on its line).  Whether
``symattn verify`` agrees is tested in ``tests/test_verify.py``.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest
import sympy

HERE = Path(__file__).parent
DOCS = sorted(p for p in HERE.iterdir() if p.suffix in {".md", ".tex"} and p.name != "README.md")
KINDS = {"slip", "carried", "rounding", "wrong"}
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def _expect(doc: Path) -> dict:
    return tomllib.loads(doc.with_suffix(".expect.toml").read_text(encoding="utf-8"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def test_corpus_size() -> None:
    assert len(DOCS) >= 16


def test_every_expectation_has_a_document() -> None:
    stems = {p.name.removesuffix(".expect.toml") for p in HERE.glob("*.expect.toml")}
    assert stems == {p.stem for p in DOCS}


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_expectation_is_well_formed(doc: Path) -> None:
    expect = _expect(doc)
    assert set(expect) <= {"exit", "wrong", "finding", "unverified"}
    findings = expect.get("finding", [])
    assert expect["wrong"] == len(findings)
    assert expect["exit"] == (1 if findings else 0)
    lines = doc.read_text(encoding="utf-8").splitlines()
    for line in expect.get("unverified", []):
        assert 1 <= line["line"] <= len(lines)
    per_line = Counter((f["line"], f["claimed"]) for f in findings)
    for (line, claimed), count in per_line.items():
        signed = NUMBER.findall(lines[line - 1])
        unsigned = [t.lstrip("-") for t in signed]
        assert max(signed.count(claimed), unsigned.count(claimed)) >= count, (line, claimed)
    for f in findings:
        assert f["kind"] in KINDS
        if f["kind"] == "carried":
            assert 1 <= f["carried_from"] <= f["line"]
        else:
            assert "carried_from" not in f


# --- every printed decimal was computed ------------------------------------------

_spec = importlib.util.spec_from_file_location("_compute_truth", HERE / "_compute_truth.py")
truth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(truth)

E = sympy.E
S2 = sympy.sqrt(2)
#: document -> (its cases in _compute_truth.CASES, "+"-separated, decimals that are no stage value:
#: (line, text) -> the exact quantity they round, or None for prose, code and
#: claims that cannot be evaluated).
TRUTH: dict[str, tuple[str, dict[tuple[int, str], sympy.Expr | None]]] = {
    "broken_braces.md": ("slip", {(36, "34.31"): sympy.exp(5 / S2)}),
    "broken_huge.md": ("ref", {(19, "2.7"): None}),
    "broken_shapes.md": ("ref", {}),
    "causal_control.md": ("causal", {}),
    "cross_attention_control.md": ("cross", {}),
    "en_bmatrix_control.md": ("en_bmatrix", {(87, "0.4966"): None}),
    "en_carried_planted.md": ("carried4", {(48, "0.78"): None}),
    "en_rounding_planted.md": ("ref", {(29, "4.113"): sympy.exp(S2)}),
    "en_slip_planted.md": ("slip", {}),
    "general_formulas_control.md": (
        "ref",
        {
            (44, "0.125"): sympy.Rational(1, 8),
            (49, "0.1977"): None,  # 0.197776 cut off on purpose: "0.1977\ldots"
            (49, "1.41421"): S2,
        },
    ),
    "markdown_delims_planted.md": ("slip", {(26, "3.0"): None, (30, "0.45"): None}),
    "mask_planted.md": ("causal", {(34, "0.37"): None, (34, "0.09"): None}),
    "multihead_control.md": ("twohead", {}),
    "multihead_planted.md": ("twohead", {}),
    "notation_control.md": ("notation", {}),
    "precision_planted.md": (
        "ref",
        {
            (4, "0.500"): None,
            (12, "0.73"): 1 / (1 + sympy.exp(-1)),
            (20, "0.50"): sympy.exp(S2 / 2) / (2 + sympy.exp(S2 / 2)),
            (28, "0.2500"): sympy.Rational(1, 4),
            (33, "0.125"): sympy.Rational(1, 8),
            (33, "0.13"): sympy.Rational(1, 8),
            (37, "-0.38"): sympy.Rational(-3, 8),
            (41, "2.0281"): sympy.exp(S2 / 2),
            (41, "2.50"): sympy.Rational(5, 2),
        },
    ),
    "restated_planted.md": ("notation", {}),
    "row_restated_planted.md": ("ref", {}),
    "sum_notation_planted.md": ("ref", {}),
    "tex_control.tex": ("tex4", {}),
    "tex_planted.tex": ("texp", {}),
    "two_examples_control.md": ("ref+notation", {}),
    "zh_euler_planted.md": (
        "ref",
        {
            (9, "0.7311"): E / (E + 1),
            (21, "2.0281"): sympy.exp(S2 / 2),
            (21, "4.1133"): sympy.exp(S2),
        },
    ),
    "zh_padding_control.md": ("zh4", {}),
    "zh_planted.md": ("tex4", {(17, "2.7183"): E, (17, "1.6487"): sympy.sqrt(E)}),
    "zh_reference_correct.md": ("ref", {}),
    "zh_reference_planted.md": ("ref", {(59, "0.3"): None}),
    "zh_tex_delims_planted.tex": ("en_bmatrix", {}),
}


def test_truth_table_covers_the_corpus() -> None:
    assert set(TRUTH) == {p.name for p in DOCS}


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_decimal_is_computed(doc: Path) -> None:
    """Each decimal is a correct rounding of a stage value, planted, or listed."""
    case, extras = TRUTH[doc.name]
    planted = {(f["line"], f["claimed"]) for f in _expect(doc).get("finding", [])}
    cases = [truth.CASES[name] for name in case.split("+")]
    unexplained = set(truth.audit(str(doc), *cases)) - planted - set(extras)
    assert unexplained == set()
    for (_, text), value in extras.items():
        if value is not None:
            assert truth.decimals(value, len(text.split(".")[1])) == text
