"""``symattn verify`` on symattn's own derivations (derivations/*.md and *.tex, en and zh).

A derivation prints only true numbers, so verify must find nothing wrong in any of
them, and it should judge most printed numbers that are not given inputs (issue 9's
round trip).  Over all of them, at least 95% are judged, and at least 90% in each.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from symattn.verify import verify_document

DERIVATIONS = sorted(
    p
    for p in (Path(__file__).resolve().parent.parent / "derivations").glob("*")
    if p.suffix in (".md", ".tex")
)
DERIVATIONS = [p for p in DERIVATIONS if p.name != "README.md"]
#: The share of judged numbers over all derivations (issue 9 asks for 95%) ...
JUDGED_FLOOR = 0.95
#: ... and in each derivation.
JUDGED_FLOOR_EACH = 0.9
#: A block derivation (issue 11: positions, norms, FFN, RoPE, GQA) in each file; measured 83–96%
#: (77–91% before steps written with guard digits were read within their rounding).
JUDGED_FLOOR_BLOCK = 0.8
#: Transformer-block derivations (symattn.block_derivation): verify is still learning the block's
#: stages, so they must have no wrong number and nothing skipped, and their judged share is
#: floored lower (and not counted in the floor over all derivations).
BLOCK_DERIVATIONS = {"encoder_sinusoidal", "decoder_cross", "gqa", "rope"}


#: The numbers verify judges in each block derivation today (measured at 0790cee): a change
#: that judges fewer is a regression, whatever the share (a chained definition once cost
#: decoder_cross 24 and encoder_sinusoidal 18 while both stayed above the floor).
BLOCK_JUDGED = {"encoder_sinusoidal": 751, "decoder_cross": 821, "gqa": 884, "rope": 752}


def _is_block(path: Path) -> bool:
    return path.name.split(".")[0] in BLOCK_DERIVATIONS


_COUNTS: dict[Path, Counter] = {}


def _counts(path: Path) -> Counter:
    if path not in _COUNTS:
        report = verify_document(path)
        _COUNTS[path] = Counter(f.kind if f.status == "unverified" else f.status for f in report.findings)
    return _COUNTS[path]


@pytest.mark.parametrize("path", DERIVATIONS, ids=[p.name for p in DERIVATIONS])
def test_a_derivation_has_no_wrong_number_and_nothing_skipped(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    counts = _counts(path)
    assert counts["wrong"] == 0
    assert counts["skipped"] == 0
    assert counts["error"] == 0  # no formula of a derivation makes the verifier fail
    printed = sum(n for kind, n in counts.items() if kind != "input")
    if _is_block(path):
        judged = counts["ok"] + counts["wrong"]
        with capsys.disabled():
            print(f"\n{path.name} (block): {judged}/{printed} printed numbers that are not inputs judged")
        assert judged / printed >= JUDGED_FLOOR_BLOCK
        assert judged >= BLOCK_JUDGED[path.name.split(".")[0]]  # what holds, in every language and format
        return
    assert (counts["ok"] + counts["wrong"]) / printed >= JUDGED_FLOOR_EACH


def test_the_block_derivations_are_checked() -> None:
    assert {p.name.split(".")[0] for p in DERIVATIONS if _is_block(p)} == BLOCK_DERIVATIONS


def test_most_numbers_of_the_derivations_are_judged(capsys: pytest.CaptureFixture[str]) -> None:
    judged = printed = 0
    for path in DERIVATIONS:
        if _is_block(path):
            continue
        counts = _counts(path)
        judged += counts["ok"] + counts["wrong"]
        printed += sum(n for kind, n in counts.items() if kind != "input")
    with capsys.disabled():
        print(f"\nderivations: {judged}/{printed} printed numbers that are not inputs judged")
    assert printed and judged / printed >= JUDGED_FLOOR
