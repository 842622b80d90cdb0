"""``symattn fix``: literals only, the document's style, safe by default, round trips.

Expected literals are worked out here by hand or with fractions and mpmath,
never taken from symattn.
"""

from __future__ import annotations

import json
import re
import shutil
import stat
import subprocess
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from symattn.cli import main
from symattn.fix import corrected_literal
from symattn.verify.finding import Finding

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "seed" / "000_353ac04a18db8a6f.txt"
DOCS = Path(__file__).parent / "docs"
PLANTED = sorted(p for p in DOCS.glob("*planted*") if p.suffix in (".md", ".tex", ".txt"))
WRONG = "$$a = 2$$\n\n$$b = a + 1 = 4$$\n"

# a number literal as documents print them: 0.25, 0{,}25, 0,25, −0.37, 3.0 \times 10^{-5}
_LITERAL = re.compile(r"[-\u2212]?\d+(?:(?:\.|,|\{,\})\d+)?")


def _finding(claimed: str, value: str | None, exact: str | None = None, kind: str = "wrong") -> Finding:
    return Finding(1, 1, "x", None, claimed, value, exact, "wrong", kind, None, "")


# --- one literal ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claimed", "value", "exact", "expected"),
    [
        pytest.param("0.3", "0.2483", None, "0.2", id="same-places"),
        pytest.param("0.40", "0.41732", None, "0.42", id="two-places"),
        pytest.param("0{,}3", "0.2483", None, "0{,}2", id="latex-comma"),
        pytest.param("0,40", "0.41732", None, "0,42", id="comma"),
        pytest.param("\u22120.37", "-0.37500", "-3/8", "\u22120.38", id="unicode-minus-half-away"),
        pytest.param("-0.37", "-0.37500", "-3/8", "-0.38", id="minus"),
        pytest.param("3.0 \\times 10^{-5}", "0.000024813", None, "2.5 \\times 10^{-5}", id="times-ten"),
        pytest.param("2.1e-3", "0.0018372", None, "1.8e-3", id="e-notation"),
        pytest.param("5", "4.000", "4", "4", id="integer-stays-integer"),
        pytest.param("4", "2.828", "2*sqrt(2)", "3", id="integer-keeps-its-places"),
        pytest.param("3", "2.828", "2*sqrt(2)", "3", id="integer-right-at-its-places-stays"),
        pytest.param("0.12", "0.12500", None, None, id="midpoint-digits-undecided"),
        pytest.param("0.12", "0.12500", "1/8", "0.13", id="exact-midpoint-rounds-away"),
        pytest.param("0.3655", "0.0000000", "0", "0.0000", id="zero"),
        pytest.param("0.01", "-0.00400", None, "0.00", id="no-negative-zero"),
    ],
)
def test_corrected_literal_keeps_the_style(claimed, value, exact, expected):
    assert corrected_literal(_finding(claimed, value, exact)) == expected


def test_corrected_literal_needs_a_value():
    assert corrected_literal(_finding("0.3", None)) is None
    assert corrected_literal(_finding("x", "0.2")) is None


# --- whole documents --------------------------------------------------------------------


def _only_literals_changed(before: str, after: str) -> bool:
    old, new = before.splitlines(), after.splitlines()
    return len(old) == len(new) and all(
        _LITERAL.sub("#", a) == _LITERAL.sub("#", b) for a, b in zip(old, new, strict=True)
    )


def _round_trip(source: Path, tmp_path: Path, capsys) -> tuple[str, str]:
    doc = tmp_path / source.name
    shutil.copyfile(source, doc)
    before = doc.read_text(encoding="utf-8")
    assert main(["fix", "--write", "--unsafe-fixes", str(doc)]) == 1
    capsys.readouterr()
    main(["verify", str(doc), "--format", "json"])
    left = json.loads(capsys.readouterr().out)["findings"]
    # what stays wrong is wrong only by the document's own rounding or another convention
    assert {f["kind"] for f in left if f["status"] == "wrong"} <= {"rounding-carried", "convention"}
    after = doc.read_text(encoding="utf-8")
    assert after != before
    assert _only_literals_changed(before, after)
    main(["fix", "--write", "--unsafe-fixes", str(doc)])  # one run is the fixed point
    assert doc.read_text(encoding="utf-8") == after
    return before, after


@pytest.mark.parametrize("source", PLANTED, ids=[p.name for p in PLANTED])
def test_round_trip_on_planted_documents(source, tmp_path, capsys):
    _round_trip(source, tmp_path, capsys)


def test_round_trip_on_the_reference_document(tmp_path, capsys):
    if not REFERENCE.exists():
        pytest.skip(f"{REFERENCE} is not in this checkout")
    before, after = _round_trip(REFERENCE, tmp_path, capsys)
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    assert len(changed) == 4  # the weights, the output, and the two sums of row 3
    # row 3 of A: softmax of (1, 1, 2)/sqrt(2), at the printed one place (places never change)
    e = mpmath.e ** (1 / mpmath.sqrt(2))
    row = [1 / (2 + e), 1 / (2 + e), e / (2 + e)]
    assert [mpmath.nstr(v, 1) for v in row] == ["0.2", "0.2", "0.5"]
    assert "0.2& 0.2& 0.5\\end{array}" in after.splitlines()[40]
    # the output (0.7, 0.7) was carried from the assumed row: its true value at one place
    assert round(float(row[0] + row[2]), 1) == 0.8
    assert after.splitlines()[46].endswith("0.8& 0.8\\end{array}\\right]$$")


def test_safe_fix_of_the_reference_document_keeps_what_rounding_explains(tmp_path, capsys):
    if not REFERENCE.exists():
        pytest.skip(f"{REFERENCE} is not in this checkout")
    doc = tmp_path / "seed.md"
    shutil.copyfile(REFERENCE, doc)
    before = doc.read_text(encoding="utf-8").splitlines()
    assert main(["fix", "--write", str(doc)]) == 1
    err = capsys.readouterr().err
    after = doc.read_text(encoding="utf-8").splitlines()
    assert [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [41, 47]
    # once row 3 is fixed to (0.2, 0.2, 0.5), the output 0.7 = 0.2 + 0.5 follows the printed
    # weights: rounding-carried, a note and no edit; and the row sums to 0.9, a remark
    assert "47:212: 0.7 left unchanged (right by the document's rounded numbers" in err
    assert "row 3 of A sums to 0.9 after the fix, not 1" in err
    assert main(["fix", "--write", str(doc)]) == 1  # still needed, but nothing more to change
    assert doc.read_text(encoding="utf-8").splitlines() == after


def test_default_prints_a_diff_and_writes_nothing(tmp_path, capsys):
    doc = tmp_path / "post.md"
    doc.write_text(WRONG, encoding="utf-8")
    assert main(["fix", str(doc)]) == 1
    captured = capsys.readouterr()
    assert doc.read_text(encoding="utf-8") == WRONG
    assert captured.out.startswith(f"--- {doc}\n+++ {doc}\n@@ ")
    assert "-$$b = a + 1 = 4$$\n+$$b = a + 1 = 3$$\n" in captured.out
    assert "1 fix shown; run with --write to apply" in captured.err
    patched = subprocess.run(
        ["patch", "-s", "-o", "-", str(doc)], input=captured.out, capture_output=True, text=True, check=False
    )
    assert patched.returncode == 0 and patched.stdout == WRONG.replace("= 4", "= 3")


def test_safe_fixes_leave_carried_numbers(tmp_path, capsys):
    doc = tmp_path / "carried.md"
    shutil.copy(DOCS / "en_carried_planted.md", doc)
    before = doc.read_text(encoding="utf-8").splitlines()
    assert main(["fix", "--write", str(doc)]) == 1
    err = capsys.readouterr().err
    after = doc.read_text(encoding="utf-8").splitlines()
    changed = [index + 1 for index, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    # the assumed weights, then the output computed from them: once its root is fixed, it is
    # a fresh error of the fixed document, and one run is the fixed point
    assert changed == [34, 41]
    assert "0.10 & 0.01 & 0.10 & 0.78" in before[33] and "0.16 & 0.04 & 0.16 & 0.65" in after[33]
    assert "1.87 & 0.11" in before[40] and "1.80 & 0.20" in after[40]
    assert "fixed 6 numbers" in err
    assert main(["fix", "--write", str(doc)]) == 0
    assert doc.read_text(encoding="utf-8").splitlines() == after


def test_nothing_to_fix_exits_0(tmp_path, capsys):
    doc = tmp_path / "control.md"
    shutil.copy(DOCS / "causal_control.md", doc)
    before = doc.stat().st_mtime_ns
    assert main(["fix", "--write", str(doc)]) == 0
    assert capsys.readouterr().out == ""
    assert doc.stat().st_mtime_ns == before


def test_write_keeps_the_mode_and_leaves_no_temporary(tmp_path, capsys):
    doc = tmp_path / "post.md"
    doc.write_text(WRONG, encoding="utf-8")
    doc.chmod(0o640)
    assert main(["fix", "--write", str(doc)]) == 1
    assert doc.read_text(encoding="utf-8") == WRONG.replace("= 4", "= 3")
    assert stat.S_IMODE(doc.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["post.md"]
    assert capsys.readouterr().err == f"{doc}: fixed 1 number\n"


def test_write_keeps_crlf_and_bom(tmp_path, capsys):
    doc = tmp_path / "post.md"
    doc.write_bytes(b"\xef\xbb\xbf" + WRONG.replace("\n", "\r\n").encode())
    assert main(["fix", "--write", str(doc)]) == 1
    assert doc.read_bytes() == b"\xef\xbb\xbf" + WRONG.replace("\n", "\r\n").replace("= 4", "= 3").encode()


def test_bad_input_gets_one_line_and_the_others_are_fixed(tmp_path, capsys):
    locked = tmp_path / "locked.md"
    locked.write_text(WRONG, encoding="utf-8")
    locked.chmod(0o444)
    other = tmp_path / "other.md"
    other.write_text(WRONG, encoding="utf-8")
    missing = tmp_path / "gone.md"
    assert main(["fix", "--write", str(locked), str(missing), str(other)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert f"symattn: error: {missing}: no such file" in err
    assert f"symattn: error: {locked}: the file is read-only; not fixed" in err
    assert len([line for line in err if line.startswith("symattn: error")]) == 2
    assert locked.read_text(encoding="utf-8") == WRONG
    assert other.read_text(encoding="utf-8") == WRONG.replace("= 4", "= 3")


def test_a_row_that_cannot_add_up_is_said(tmp_path, capsys):
    # 1/3 three times: 0.3333 + 0.3333 + 0.3333 is 0.9999 at any number of places
    doc = tmp_path / "thirds.tex"
    shutil.copy(DOCS / "zh_tex_delims_planted.tex", doc)
    assert main(["fix", "--write", "--unsafe-fixes", str(doc)]) == 1
    err = capsys.readouterr().err
    assert "row 3 of A sums to 0.9999 after the fix, not 1" in err
    assert sum(Fraction(1, 3) for _ in range(3)) == 1 and 3 * Fraction("0.3333") == Fraction("0.9999")


def test_fix_refuses_stdin(capsys):
    assert main(["fix", "-"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_files_are_fixed_side_by_side_and_reported_in_their_order(tmp_path, capsys):
    # -j 2 runs two processes; the diff, the notes and the files written are those of -j 1
    docs = []
    for k in range(3):
        doc = tmp_path / f"post{k}.md"
        doc.write_text(WRONG.replace("= 4$$", f"= {4 + k}$$"), encoding="utf-8")
        docs.append(doc)
    assert main(["fix", "-j", "1", *map(str, docs)]) == 1
    one = capsys.readouterr()
    assert main(["fix", "-j", "2", *map(str, docs)]) == 1
    two = capsys.readouterr()
    assert two.out == one.out and two.err == one.err
    assert [one.out.index(f"--- {doc}") for doc in docs] == sorted(
        one.out.index(f"--- {doc}") for doc in docs
    )
    assert main(["fix", "-j", "2", "--write", *map(str, docs)]) == 1
    assert all("$$b = a + 1 = 3$$" in doc.read_text(encoding="utf-8") for doc in docs)
