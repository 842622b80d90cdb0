"""The issue 8/9 verifier corpus: every expectation file is well formed and points at real literals.

Each ``NAME.md|.txt|.tex`` here has a ``NAME.expect.toml`` (format in README.md).  These tests
check the expectations against their documents (keys, counts, kinds, and that every listed
``(line, column, claimed)`` is exactly that literal), that the documents are the ones
``_build.py`` makes from ``_src/`` with the values of ``_truth.py``, and the size of the corpus.
Whether ``symattn verify`` agrees with the expectations is tested elsewhere.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DOCS = sorted(p for p in HERE.iterdir() if p.suffix in {".md", ".txt", ".tex"} and p.name != "README.md")
KINDS = {"slip", "carried", "rounding", "wrong", "rounding-carried"}
NOTE_KINDS = {"float-rounding"}
READERS = {"latex", "code", "text", "tables", "html", "images", "tex"}
KEYS = {"control", "readers", "language", "results", "exit", "wrong", "finding", "note", "unverified"}
FINDING_KEYS = {"line", "column", "claimed", "kind", "carried_from", "truth"}
DIGIT = re.compile(r"[0-9]")


def _expect(doc: Path) -> dict:
    return tomllib.loads(doc.with_suffix(".expect.toml").read_text(encoding="utf-8"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def test_every_expectation_has_a_document() -> None:
    stems = {p.name.removesuffix(".expect.toml") for p in HERE.glob("*.expect.toml")}
    assert stems == {p.stem for p in DOCS}
    assert len(stems) == len(DOCS)  # no two documents share a stem


def _at(lines: list[str], line: int, column: int, claimed: str) -> None:
    """``claimed`` stands at ``line:column`` as a whole literal (not part of a longer number)."""
    assert 1 <= line <= len(lines), line
    text = lines[line - 1]
    start = column - 1
    assert text[start : start + len(claimed)] == claimed, (line, column, claimed, text[start : start + 20])
    before = text[start - 1] if start > 0 else " "
    if start >= 3 and text[start - 3] == "%":  # after a %XX escape in a URL ("%200.25" is "%20" + "0.25")
        before = " "
    after = text[start + len(claimed)] if start + len(claimed) < len(text) else " "
    assert not (DIGIT.match(before) or before == "."), (line, column, claimed)
    assert not DIGIT.match(after), (line, column, claimed)
    assert not (
        after == "." and start + len(claimed) + 1 < len(text) and DIGIT.match(text[start + len(claimed) + 1])
    )


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_expectation_is_well_formed(doc: Path) -> None:
    expect = _expect(doc)
    assert set(expect) <= KEYS
    assert isinstance(expect["control"], bool)
    assert expect["readers"] and set(expect["readers"]) <= READERS
    assert expect["language"] in {"en", "zh"}
    assert isinstance(expect["results"], int) and expect["results"] > 0
    findings = expect.get("finding", [])
    assert expect["wrong"] == len(findings)
    assert expect["exit"] == (1 if findings else 0)
    assert expect["control"] == (not findings)
    lines = doc.read_text(encoding="utf-8").splitlines()
    seen = set()
    for f in findings:
        assert set(f) <= FINDING_KEYS
        assert f["kind"] in KINDS
        _at(lines, f["line"], f["column"], f["claimed"])
        assert (f["line"], f["column"]) not in seen, "one finding per printed literal"
        seen.add((f["line"], f["column"]))
        if f["kind"] in ("carried", "rounding-carried"):
            assert 1 <= f["carried_from"] <= f["line"]
        else:
            assert "carried_from" not in f
    for n in expect.get("note", []):
        assert n["kind"] in NOTE_KINDS
        _at(lines, n["line"], n["column"], n["claimed"])
        assert (n["line"], n["column"]) not in seen
    for u in expect.get("unverified", []):
        assert 1 <= u["line"] <= len(lines)


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_carried_from_points_at_a_wrong_number(doc: Path) -> None:
    """A carried number names a line holding a wrong number (rounding-carried: any earlier printed number)."""
    findings = _expect(doc).get("finding", [])
    roots = {f["line"] for f in findings}
    for f in findings:
        if f["kind"] == "carried":
            assert f["carried_from"] in roots, f


def _truth_module():
    sys.path.insert(0, str(HERE))
    try:
        import _truth
    finally:
        sys.path.remove(str(HERE))
    return _truth


def _claimed_value(claimed: str) -> tuple[Fraction, int]:
    """The printed text as an exact value and its places ("73%" -> 0.73 at 2, "2.36M" -> 2360000 at -4)."""
    text, scale = claimed.replace(",", ""), 0
    if text.endswith("%"):
        text, scale = text[:-1], -2
    elif text.endswith("M"):
        text, scale = text[:-1], 6
    elif text.endswith("K"):
        text, scale = text[:-1], 3
    places = len(text.split(".")[1]) if "." in text else 0
    return Fraction(text) * Fraction(10) ** scale, places - scale


def _rounds_to(value, claimed: str, T) -> bool:
    got, places = _claimed_value(claimed)
    scaled = T.mul(value, Fraction(10) ** places)
    return Fraction(T.rnd(scaled, 0)) == got * Fraction(10) ** places


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_listed_number_is_wrong_in_truth(doc: Path) -> None:
    """Re-derive each expectation from _truth.py: planted numbers are wrong, notes are float32 noise."""
    T = _truth_module()
    expect = _expect(doc)
    for f in expect.get("finding", []):
        value = T.value(f["truth"])
        assert not _rounds_to(value, f["claimed"], T), f
        if f["kind"] == "rounding":
            got, places = _claimed_value(f["claimed"])
            assert (
                Fraction(T.trunc(T.mul(value, Fraction(10) ** places), 0)) == got * Fraction(10) ** places
            ), f
    for n in expect.get("note", []):
        value = T.value(n["truth"])
        assert not _rounds_to(value, n["claimed"], T), n
        assert T.f32_text(value) == n["claimed"], n


def test_documents_are_built_from_the_templates_and_the_truth() -> None:
    sys.path.insert(0, str(HERE))
    try:
        import _build
    finally:
        sys.path.remove(str(HERE))
    files = _build.outputs()
    assert {n for n in files if not n.endswith(".expect.toml")} == {p.name for p in DOCS}
    for name, text in files.items():
        assert (HERE / name).read_text(encoding="utf-8") == text, f"{name} is stale: run _build.py"


def test_corpus_size_and_coverage() -> None:
    expects = {doc.name: _expect(doc) for doc in DOCS}
    assert len(DOCS) >= 40
    per_reader = Counter(r for e in expects.values() for r in e["readers"])
    for reader in READERS - {"latex"}:
        assert per_reader[reader] >= 5, (reader, per_reader)
    languages = Counter(e["language"] for e in expects.values())
    assert languages["en"] >= 20 and languages["zh"] >= 20, languages
    controls = [e for e in expects.values() if e["control"]]
    assert len(controls) >= 10
    assert sum(e["results"] for e in controls) >= 300
    kinds = Counter(f["kind"] for e in expects.values() for f in e.get("finding", []))
    assert set(kinds) == KINDS, kinds
    notes = Counter(n["kind"] for e in expects.values() for n in e.get("note", []))
    assert notes["float-rounding"] >= 1


def test_float_printouts_are_what_numpy_prints() -> None:
    """_truth.f32_text / f64_text give NumPy's own text of the float32 / float64 nearest each stage value."""
    np = pytest.importorskip("numpy")
    T = _truth_module()
    checked = 0
    for case in T.CASES.values():
        for stage in ("Z", "E", "A", "O"):
            for row in case.stages[stage]:
                for v in row:
                    x = float(T.mpmath.nstr(T.to_mpf(v), 40))
                    for places in (4, 8):
                        want32 = np.format_float_positional(
                            np.float32(x), precision=places, unique=True, trim="."
                        )
                        want64 = np.format_float_positional(
                            np.float64(x), precision=places, unique=True, trim="."
                        )
                        assert T.f32_text(v, places) == want32, (case.name, stage, v)
                        assert T.f64_text(v, places) == want64, (case.name, stage, v)
                    checked += 1
    assert checked > 500


def test_readme_table_lists_every_document_as_it_is() -> None:
    """README.md's table names each document with its language, readers, results and planted kinds."""
    rows = {}
    row = re.compile(r"\| `([^`]+\.(?:md|txt|tex))` \| (\w+) \| ([^|]+) \| (\w+) \| (\d+) \| ([^|]+) \|")
    for line in (HERE / "README.md").read_text(encoding="utf-8").splitlines():
        m = row.match(line)
        if m:
            rows[m.group(1)] = m.groups()
    assert set(rows) == {p.name for p in DOCS}
    for doc in DOCS:
        expect = _expect(doc)
        _, language, readers, kind, results, planted = rows[doc.name]
        kinds = Counter(f["kind"] for f in expect.get("finding", []))
        text = ", ".join(f"{k} {v}" for k, v in kinds.items())
        if expect.get("note"):
            text += (", " if text else "") + f"{len(expect['note'])} float-rounding notes"
        assert language == expect["language"]
        assert readers.strip() == ", ".join(expect["readers"])
        assert kind == ("control" if expect["control"] else "planted")
        assert int(results) == expect["results"]
        assert planted.strip() == (text or "-")
