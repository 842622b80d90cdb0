"""The verifier corpus: every expectation file is well formed.

Each ``NAME.md`` / ``NAME.tex`` here has a ``NAME.expect.toml`` (see README.md).
These tests check the expectations against their documents (counts, kinds,
and that each listed literal really stands on its line).  Whether
``symattn verify`` agrees is tested in ``tests/test_verify.py``.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DOCS = sorted(p for p in HERE.iterdir() if p.suffix in {".md", ".tex"} and p.name != "README.md")
KINDS = {"slip", "carried", "rounding", "wrong"}
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


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
        assert NUMBER.findall(lines[line - 1]).count(claimed) >= count, (line, claimed)
    for f in findings:
        assert f["kind"] in KINDS
        if f["kind"] == "carried":
            assert 1 <= f["carried_from"] <= f["line"]
        else:
            assert "carried_from" not in f
