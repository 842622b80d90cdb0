"""First-contact rounds (tests/first_contact/): the expectations are well formed and their truths hold.

The rounds measure verify (docs/verify-first-contact.md); their scores are recorded there,
not asserted here.  What is asserted is that each round's own truth scripts (fractions and
mpmath, never symattn) still check every listed number, and that every listed literal stands
at its line and column, so a score read from them means what it says.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROUNDS = sorted(p for p in (Path(__file__).parent / "first_contact").glob("r*") if p.is_dir())
SCRIPTS = [s for r in ROUNDS for s in sorted(r.glob("_truth_*.py"))]
EXPECTS = [e for r in ROUNDS for e in sorted(r.glob("*.expect.json"))]


def test_there_are_rounds() -> None:
    assert ROUNDS and SCRIPTS and len(EXPECTS) >= 10


@pytest.mark.parametrize("script", SCRIPTS, ids=[f"{s.parent.name}/{s.name}" for s in SCRIPTS])
def test_truth_script_checks_its_round(script: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(script), "--check"],
        capture_output=True,
        text=True,
        cwd=script.parents[3],
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


@pytest.mark.parametrize("expect", EXPECTS, ids=[f"{e.parent.name}/{e.name}" for e in EXPECTS])
def test_every_listed_literal_stands_where_it_is_said(expect: Path) -> None:
    data = json.loads(expect.read_text(encoding="utf-8"))
    lines = (expect.parent / data["doc"]).read_text(encoding="utf-8").splitlines()
    assert data["language"] in ("en", "zh") and data["source"]
    assert data["numbers"]
    for number in data["numbers"]:
        assert number["status"] in ("ok", "wrong")
        if number["status"] == "wrong":
            assert number["kind"] in ("slip", "carried", "rounding", "rounding-carried", "convention")
        line = lines[number["line"] - 1]
        start = number["column"] - 1
        assert line[start : start + len(number["claimed"])] == number["claimed"], number
