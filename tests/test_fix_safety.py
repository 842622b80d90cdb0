"""``fix`` never changes a correct number: the corpora, and a table of the ways it once did.

Every expected value here is worked out with fractions or mpmath, never taken from symattn.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from symattn.fix import fix_text
from symattn.verify import verify_text

TESTS = Path(__file__).parent
CORPORA = [TESTS / "corpus", TESTS / "block_corpus", TESTS / "docs"]
DOCUMENTS = sorted(
    p
    for folder in CORPORA
    for p in folder.iterdir()
    if p.suffix in (".md", ".txt", ".tex") and p.with_name(p.name.rsplit(".", 1)[0] + ".expect.toml").exists()
)


def _findings(text: str) -> dict[str, tuple[str, str]]:
    return {f.claimed: (str(f.status), str(f.kind)) for f in verify_text(text).findings}


# --- the ways fix once changed correct numbers -------------------------------------------------

WEIGHTS = 4 * 768**2  # 4 d^2 with d = 768: 2,359,296, printed 2.36M


@pytest.mark.parametrize(
    ("text", "literal", "truth"),
    [
        pytest.param("$$w = 1e3 + 1 = 1001$$\n", "1001", mpmath.mpf("1e3") + 1, id="1e3-is-scientific"),
        pytest.param("`w = 1e3 + 1 = 1001`\n", "1001", mpmath.mpf("1e3") + 1, id="1e3-in-code"),
        pytest.param(
            "$$2**3**2 = 512$$\n", "512", mpmath.power(2, mpmath.power(3, 2)), id="power-right-assoc"
        ),
        pytest.param("$$2^3^2 = 512$$\n", "512", mpmath.power(2, mpmath.power(3, 2)), id="caret-right-assoc"),
        pytest.param(
            "$$a = 2.5E-4 \\times 2 = 5.0E-4$$\n", "5.0E-4", mpmath.mpf("2.5e-4") * 2, id="E-notation"
        ),
        pytest.param(
            "$$a = 1.2e+05 \\times 2 = 2.4e+05$$\n", "2.4e+05", mpmath.mpf("1.2e5") * 2, id="e-plus"
        ),
    ],
)
def test_numbers_are_read_as_people_write_them(text, literal, truth):
    assert mpmath.nstr(mpmath.mpf(literal), 15) == mpmath.nstr(truth, 15)  # the printed result is right
    assert _findings(text)[literal] == ("ok", "ok")
    assert not fix_text(text).changed


def test_a_literal_beyond_the_limits_is_refused_with_the_reason():
    report = verify_text("$$x = 1e99999 + 1 = 2$$\n")
    first = report.findings[0]
    assert (first.claimed, str(first.status)) == ("1e99999", "unverified")
    assert "exponent is too large" in first.reason
    assert not report.wrong


def test_a_unit_after_the_math_is_not_cut_off():
    text = "With $d = 768$, the four projections hold $4d^2 \\approx 2.36$M parameters.\n"
    assert round(Fraction(WEIGHTS, 10**6), 2) == Fraction(236, 100)
    result = fix_text(text)
    assert not result.changed  # 2.36 million is right: verify reads the M after the math
    # a wrong number with its unit outside the math is found, and left for its author
    wrong = text.replace("2.36", "2.46")
    assert [f.claimed for f in verify_text(wrong).wrong] == ["2.46M"]
    result = fix_text(wrong)
    assert not result.changed
    assert any(
        "2.46M left unchanged (a unit, multiplier or percent sign follows it)" in n for n in result.notes
    )


def test_places_are_never_changed_to_make_a_row_add_up():
    # softmax(2, 2, 0) = (0.4683, 0.4683, 0.0634): 0.4 is wrong, 0.5 and 0.1 are right at one place
    e2 = mpmath.e**2
    row = [e2 / (2 * e2 + 1), e2 / (2 * e2 + 1), 1 / (2 * e2 + 1)]
    assert [mpmath.nstr(v, 1) for v in row] == ["0.5", "0.5", "0.06"]
    text = "$$\\mathrm{softmax}([2, 2, 0]) = [0.5, 0.4, 0.1]$$\n"
    for unsafe in (False, True):
        result = fix_text(text, unsafe=unsafe)
        assert result.fixed == text.replace("0.4,", "0.5,")  # not 0.47, 0.47, 0.06
        assert any("sums to 1.1 after the fix" in r for r in result.remarks)


def test_a_fraction_is_never_rewritten():
    # x = (0, 3): mean 3/2, population variance 9/4, std 3/2
    x = [Fraction(0), Fraction(3)]
    mean = sum(x) / 2
    var = sum((v - mean) ** 2 for v in x) / 2
    assert (mean, var) == (Fraction(3, 2), Fraction(9, 4))
    text = (
        "Take $x = [0, 3]$: $\\mu = 3/2$, $\\sigma^2 = 9/4$, $\\sigma = 3/2$.\n\n$$\\sigma^2 = 9/4 = 2.25$$\n"
    )
    for unsafe in (False, True):
        assert not fix_text(text, unsafe=unsafe).changed


def test_the_inputs_are_exact():
    # the three lines: each wrong by its exact numbers, and only rounding of those inputs
    # would make it right, so none is called ok
    assert Fraction("1.5") * 2 == 3 and Fraction("0.4") + Fraction("0.4") == Fraction("0.8")
    assert mpmath.nstr(mpmath.e ** mpmath.mpf("2.7"), 6) == "14.8797"
    for text, literal in [
        ("$$1.5 \\times 2 = 3.1$$\n", "3.1"),
        ("$$0.4 \\cdot 1 + 0.2 \\cdot 0 + 0.4 \\cdot 1 = 0.81$$\n", "0.81"),
        ("$$e^{2.7} = 15.18$$\n", "15.18"),
    ]:
        status, _kind = _findings(text)[literal]
        assert status != "ok", text


# --- the corpora ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_runs() -> list[dict]:
    shards = [DOCUMENTS[0::2], DOCUMENTS[1::2]]
    procs = [
        subprocess.Popen(
            [sys.executable, str(TESTS / "fix_corruption.py"), *map(str, shard)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for shard in shards
    ]
    rows = []
    for proc in procs:
        out, err = proc.communicate(timeout=1800)
        assert proc.returncode == 0, err[-3000:]
        rows.extend(json.loads(line) for line in out.splitlines())
    return rows


def test_fix_changes_no_correct_number_and_one_run_is_the_fixed_point(corpus_runs):
    assert len(corpus_runs) == len(DOCUMENTS) >= 120
    problems = [f"{row['doc']}: {p}" for row in corpus_runs for p in row["problems"]]
    assert not problems, "\n".join(problems)
    assert sum(row["edits"] for row in corpus_runs) > 100  # it still fixes what is certainly wrong


def test_a_cr_only_document_is_fixed_like_its_lf_twin_and_keeps_its_endings():
    lf = "$$a = 2$$\n\n$$b = a + 1 = 4$$\n"
    for ending in ("\r", "\r\n"):
        twin = lf.replace("\n", ending)
        fixed = fix_text(twin)
        assert fixed.fixed == lf.replace("= 4", "= 3").replace("\n", ending)
        assert [e.describe() for e in fixed.edits] == [e.describe() for e in fix_text(lf).edits]


def test_what_is_left_unchanged_heads_the_diff(tmp_path, capsys):
    from symattn.cli import main

    doc = tmp_path / "units.md"
    text = (
        "With $d = 768$, the four projections hold $4d^2 \\approx 2.46$M parameters.\n\n$$b = 1 + 1 = 3$$\n"
    )
    doc.write_text(text, encoding="utf-8")
    assert main(["fix", str(doc)]) == 1
    out = capsys.readouterr().out
    header = out.partition(f"--- {doc}\n")[0]
    assert header == f"# {doc}:1:57: 2.46M left unchanged (a unit, multiplier or percent sign follows it)\n"
    patched = subprocess.run(
        ["patch", "-s", "-o", "-", str(doc)], input=out, capture_output=True, text=True, check=False
    )
    assert patched.returncode == 0 and patched.stdout == text.replace("= 3$$", "= 2$$")
