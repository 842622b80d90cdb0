"""The issue 11 block corpus (tests/block_corpus): expectations well formed and re-derived from _truth.py.

Each ``NAME.md|.txt|.tex`` in tests/block_corpus has a ``NAME.expect.toml`` (format in its README.md).
These tests check every listed ``(line, column, claimed)`` is that literal in the document, that every
planted number is what its kind says by the independent truth (``fractions`` and ``mpmath`` only):
wrong in truth; the truncation of the truth for ``rounding``; the other convention's value for a
``fits``; the value computed from the wrong root for ``carried``; and that the documents are what
``_build.py`` makes from the templates.  They never import symattn: whether ``symattn verify`` agrees
is tested elsewhere.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

HERE = Path(__file__).parent / "block_corpus"
DOCS = sorted(p for p in HERE.iterdir() if p.suffix in {".md", ".txt", ".tex"} and p.name != "README.md")
KINDS = {"wrong", "rounding", "carried"}
FITS = {
    "concatenated layout",
    "interleaved layout",
    "positions from 1",
    "positions from 0",
    "sample variance",
    "population variance",
    "eps = 0",
    "base 10000",
}
READERS = {"latex", "code", "text", "tables", "tex"}
KEYS = {"control", "readers", "language", "results", "exit", "wrong", "finding"}
FINDING_KEYS = {"line", "column", "claimed", "kind", "carried_from", "fits", "truth", "truth_ref", "world"}
DIGIT = re.compile(r"[0-9]")


def _load(name: str, path: Path):
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


T = _load("block_corpus_truth", HERE / "_truth.py")


@pytest.fixture(autouse=True)
def _fifty_digits():
    """The truth is judged at 50 digits whatever precision an earlier test left behind."""
    with mpmath.workdps(50):
        yield


def _expect(doc: Path) -> dict:
    return tomllib.loads(doc.with_suffix(".expect.toml").read_text(encoding="utf-8"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.name for p in paths]


def _places(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def _at(lines: list[str], line: int, column: int, claimed: str) -> None:
    """``claimed`` stands at ``line:column`` (1-based characters) as a whole literal."""
    assert 1 <= line <= len(lines), line
    text = lines[line - 1]
    start = column - 1
    assert text[start : start + len(claimed)] == claimed, (line, column, claimed, text[start : start + 20])
    before = text[start - 1] if start > 0 else " "
    end = start + len(claimed)
    after = text[end] if end < len(text) else " "
    assert not (DIGIT.match(before) or before == "."), (line, column, claimed)
    assert not DIGIT.match(after), (line, column, claimed)
    assert not (after == "." and end + 1 < len(text) and DIGIT.match(text[end + 1])), (line, column, claimed)


def test_every_expectation_has_a_document() -> None:
    stems = {p.name.removesuffix(".expect.toml") for p in HERE.glob("*.expect.toml")}
    assert stems == {p.stem for p in DOCS}
    assert len(stems) == len(DOCS)


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
        assert set(f) <= FINDING_KEYS and {"line", "column", "claimed", "kind", "truth", "truth_ref"} <= set(
            f
        )
        assert f["kind"] in KINDS
        _at(lines, f["line"], f["column"], f["claimed"])
        assert (f["line"], f["column"]) not in seen, "one finding per printed literal"
        seen.add((f["line"], f["column"]))
        if f["kind"] == "carried":
            assert 1 <= f["carried_from"] <= f["line"]
        else:
            assert "carried_from" not in f
        if "fits" in f:
            assert f["fits"] in FITS and f["kind"] in ("wrong", "carried")


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_carried_from_points_at_a_root_error(doc: Path) -> None:
    """A carried number names the line of a wrong (not carried) number at or before it."""
    findings = _expect(doc).get("finding", [])
    roots = {f["line"] for f in findings if f["kind"] == "wrong"}
    for f in findings:
        if f["kind"] == "carried":
            assert f["carried_from"] in roots, f


def _rounds_to(value, claimed: str) -> bool:
    """``claimed`` is ``value`` at its places (``1.``, NumPy's and PyTorch's integer text, claims it exactly)."""
    if claimed.endswith("."):
        return isinstance(value, Fraction) and value == int(claimed[:-1])
    return T.rnd(value, _places(claimed)) == claimed


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_every_planted_number_is_re_derived(doc: Path) -> None:
    """Wrong in truth; a truncation for rounding; the other convention's value; the wrong root's value."""
    findings = _expect(doc).get("finding", [])
    for f in findings:
        claimed, truth = f["claimed"], T.value(f["truth_ref"])
        assert not _rounds_to(truth, claimed), f
        assert T.rnd(truth, _places(f["truth"])) == f["truth"] or Fraction(f["truth"]) == truth, f
        assert _places(f["truth"]) >= _places(claimed), f
        truth_case = f["truth_ref"].partition(".")[0]
        assert T.CASES[truth_case].truth_of is None, "truth is a true case, not a variant"
        world = f.get("world")
        if f["kind"] == "rounding":
            assert T.trunc(truth, _places(claimed)) == claimed, f
            assert world is None
        elif (
            "fits" in f
        ):  # a wrong convention: its own block (wrong) or a later stage computed from it (carried)
            variant = T.CASES[world.partition(".")[0]]
            assert variant.fits == f["fits"] and variant.truth_of == truth_case and not variant.sets, f
            assert world.partition(".")[2] == f["truth_ref"].partition(".")[2], (
                "the same cell, other convention"
            )
            assert _rounds_to(T.value(world), claimed), f
        elif f["kind"] == "carried":
            variant = T.CASES[world.partition(".")[0]]
            assert variant.fits is None and variant.sets and variant.truth_of == truth_case, f
            assert _rounds_to(T.value(world), claimed), f
        else:  # a planted slip: one wrong digit (or the sign lost or added) against the correctly rounded truth
            assert world is None
            right = T.rnd(truth, _places(claimed))
            sign_slip = right.lstrip("-") == claimed.lstrip("-")
            assert sign_slip or (
                len(right) == len(claimed) and sum(a != b for a, b in zip(right, claimed, strict=True)) == 1
            ), f


@pytest.mark.parametrize("doc", DOCS, ids=_ids(DOCS))
def test_carried_numbers_come_from_their_root(doc: Path) -> None:
    """The root line of a carried number prints the wrong value its variant sets, or its convention's numbers."""
    findings = _expect(doc).get("finding", [])
    lines = doc.read_text(encoding="utf-8").splitlines()
    for f in findings:
        if f["kind"] != "carried":
            continue
        if "fits" in f:
            roots = [r for r in findings if r["line"] == f["carried_from"] and r["kind"] == "wrong"]
            assert roots and all(r.get("fits") == f["fits"] for r in roots), f
            continue
        variant = T.CASES[f["world"].partition(".")[0]]
        set_texts = {
            str(v) if isinstance(v, str) else None for cells in variant.sets.values() for v in cells.values()
        }
        assert any(t and t in lines[f["carried_from"] - 1] for t in set_texts), f


def test_documents_are_built_from_the_templates_and_the_truth() -> None:
    build = _load("block_corpus_build", HERE / "_build.py")
    files = build.outputs()
    assert {n for n in files if not n.endswith(".expect.toml")} == {p.name for p in DOCS}
    for name, text in files.items():
        assert (HERE / name).read_text(encoding="utf-8") == text, f"{name} is stale: run _build.py"


def test_the_truth_uses_fractions_and_mpmath_only() -> None:
    imports = re.findall(r"^(?:from|import) (\w+)", (HERE / "_truth.py").read_text(encoding="utf-8"), re.M)
    assert set(imports) <= {"__future__", "copy", "math", "sys", "dataclasses", "fractions", "mpmath"}, (
        imports
    )
    for path in (HERE / "_truth.py", HERE / "_build.py", Path(__file__)):
        modules = re.findall(r"^\s*(?:from|import) ([\w.]+)", path.read_text(encoding="utf-8"), re.M)
        assert not any(m.split(".")[0] in {"symattn", "sympy", "numpy"} for m in modules), (path, modules)


def test_corpus_size_and_coverage() -> None:
    expects = {doc.name: _expect(doc) for doc in DOCS}
    held_out = [doc.name for doc in DOCS if doc.name.startswith("h_")]  # the held-out sets (README)
    second = [name for name in held_out if name.startswith("h_2_")]  # the second held-out set
    third = [name for name in held_out if name.startswith("h_3_")]  # the third held-out set
    fourth = [name for name in held_out if name.startswith("h_4_")]  # the fourth held-out set
    fifth = [name for name in held_out if name.startswith("h_5_")]  # the fifth held-out set
    sixth = [name for name in held_out if name.startswith("h_6_")]  # the sixth held-out set
    seventh = [name for name in held_out if name.startswith("h_7_")]  # the seventh held-out set
    eighth = [name for name in held_out if name.startswith("h_8_")]  # the eighth held-out set
    ninth = [name for name in held_out if name.startswith("h_9_")]  # the ninth held-out set
    tenth = [name for name in held_out if name.startswith("h_10_")]  # the tenth held-out set
    eleventh = [name for name in held_out if name.startswith("h_11_")]  # the eleventh held-out set
    twelfth = [name for name in held_out if name.startswith("h_12_")]  # the twelfth held-out set
    later = second + third + fourth + fifth + sixth + seventh + eighth + ninth + tenth + eleventh + twelfth
    first = [name for name in held_out if name not in later]
    assert 8 <= len(DOCS) - len(held_out) <= 10, len(DOCS)
    assert len(first) in (0, 6) and len(second) in (0, 4) and len(third) in (0, 3), held_out
    assert len(fourth) in (0, 3) and len(fifth) in (0, 4) and len(sixth) in (0, 3), held_out
    assert len(seventh) in (0, 3) and len(eighth) in (0, 4) and len(ninth) in (0, 4), held_out
    assert len(tenth) in (0, 3) and len(eleventh) in (0, 2) and len(twelfth) in (0, 4), held_out
    assert sum(expects[name]["control"] for name in first) == len(first) // 2
    assert sum(expects[name]["control"] for name in second) == len(second) // 4
    assert sum(expects[name]["control"] for name in third) == len(third) // 3
    assert sum(expects[name]["control"] for name in fourth) == len(fourth) // 3
    assert sum(expects[name]["control"] for name in fifth) == len(fifth) // 2
    assert sum(expects[name]["control"] for name in sixth) == 2 * len(sixth) // 3
    assert sum(expects[name]["control"] for name in seventh) == 2 * len(seventh) // 3
    assert sum(expects[name]["control"] for name in eighth) == len(eighth) // 2
    assert sum(expects[name]["control"] for name in ninth) == len(ninth) // 2
    assert sum(expects[name]["control"] for name in tenth) == len(tenth) // 3
    assert sum(expects[name]["control"] for name in eleventh) == len(eleventh) // 2
    assert sum(expects[name]["control"] for name in twelfth) == len(twelfth) // 2
    controls = [e for name, e in expects.items() if e["control"] and name not in held_out]
    assert 3 <= len(controls) <= 4
    assert all(e["wrong"] == 0 and e["exit"] == 0 for e in controls)
    languages = Counter(e["language"] for e in expects.values())
    assert languages["en"] >= 5 and languages["zh"] >= 2, languages
    assert {p.suffix for p in DOCS} == {".md", ".txt", ".tex"}
    readers = Counter(r for e in expects.values() for r in e["readers"])
    assert set(readers) == READERS, readers
    findings = [f for e in expects.values() for f in e.get("finding", [])]
    assert {f["kind"] for f in findings} == KINDS
    assert {f["fits"] for f in findings if "fits" in f} >= {
        "concatenated layout",
        "positions from 1",
        "sample variance",
        "eps = 0",
    }


def test_readme_table_lists_every_document_as_it_is() -> None:
    """README.md's table names each document with its language, readers, kind, results and planted kinds."""
    row = re.compile(r"\| `([^`]+\.(?:md|txt|tex))` \| (\w+) \| ([^|]+) \| (\w+) \| (\d+) \| ([^|]+) \|")
    rows = {}
    for line in (HERE / "README.md").read_text(encoding="utf-8").splitlines():
        m = row.match(line)
        if m:
            rows[m.group(1)] = m.groups()
    assert set(rows) == {p.name for p in DOCS}
    for doc in DOCS:
        expect = _expect(doc)
        _, language, readers, kind, results, planted = rows[doc.name]
        kinds = Counter(f["kind"] for f in expect.get("finding", []))
        assert language == expect["language"]
        assert readers.strip() == ", ".join(expect["readers"])
        assert kind == ("control" if expect["control"] else "planted")
        assert int(results) == expect["results"]
        assert planted.strip() == (", ".join(f"{k} {v}" for k, v in kinds.items()) or "-")
