"""End-to-end tests of ``symattn verify``: the reference document, the corpus,
bad input, limits, and the JSON contract."""

from __future__ import annotations

import json
import os
import random
import threading
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from symattn.errors import MissingFileError, NotTextError
from symattn.latexparse import Name
from symattn.verify import Report, VerifyOptions, evaluate, verify_document, verify_text

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "seed" / "000_353ac04a18db8a6f.txt"
DOCS = Path(__file__).parent / "docs"
CORPUS = sorted(p for p in DOCS.glob("*") if p.suffix in (".md", ".tex") and p.name != "README.md")


def _wrong(report: Report) -> Counter:
    return Counter((f.line, f.claimed, f.kind, f.carried_from) for f in report.wrong)


# --- the reference document ---------------------------------------------------


@pytest.fixture(scope="module")
def reference() -> Report:
    if not REFERENCE.exists():
        pytest.skip(f"reference document {REFERENCE} is not present in this checkout")
    return verify_document(REFERENCE)


def test_reference_exits_1(reference: Report) -> None:
    assert reference.exit_code == 1


def test_reference_wrong_weights_and_outputs(reference: Report) -> None:
    by_cell = {(f.line, f.subject, f.cell): f for f in reference.wrong}
    assert {
        (c, by_cell[(41, "A", c)].claimed, by_cell[(41, "A", c)].value, by_cell[(41, "A", c)].kind)
        for c in [(3, 1), (3, 2), (3, 3)]
    } == {
        ((3, 1), "0.3", "0.2483", "wrong"),
        ((3, 2), "0.3", "0.2483", "wrong"),
        ((3, 3), "0.4", "0.5035", "wrong"),
    }
    outputs = [f for f in reference.wrong if f.subject == "Output"]
    assert [(f.cell, f.claimed, f.value, f.kind, f.carried_from) for f in outputs] == [
        ((3, 1), "0.7", "0.7517", "carried", 41),
        ((3, 2), "0.7", "0.7517", "carried", 41),
    ]


def test_reference_weighted_sums_of_the_third_vector_are_carried(reference: Report) -> None:
    for line in (84, 123):
        found = [f for f in reference.wrong if f.line == line]
        assert found, line
        assert {f.kind for f in found} == {"carried"}
        assert {f.carried_from for f in found} == {41}
        assert [f.claimed for f in found if f.subject != "A"][-2:] == ["0.7", "0.7"]


def test_reference_has_no_false_alarm(reference: Report) -> None:
    # every wrong finding is about row 3 of A (restated or not) or what it feeds
    for finding in reference.wrong:
        assert finding.line in (41, 47, 84, 123), finding
        assert finding.claimed in ("0.3", "0.4", "0.7"), finding
        if finding.subject == "A":
            assert finding.cell is not None and finding.cell[0] == 3, finding


@pytest.mark.parametrize(
    ("line", "subject", "count"),
    [
        pytest.param(21, "Q", 6, id="Q"),
        pytest.param(23, "K", 6, id="K"),
        pytest.param(25, "V", 6, id="V"),
        pytest.param(41, "A", 6, id="A-rows-1-2"),
        pytest.param(47, "Output", 4, id="Output-rows-1-2"),
    ],
)
def test_reference_ok_claims(reference: Report, line: int, subject: str, count: int) -> None:
    ok = [f for f in reference.findings if f.line == line and f.subject == subject and f.status == "ok"]
    assert len(ok) == count


def test_reference_scaled_scores_are_ok(reference: Report) -> None:
    line = [f for f in reference.findings if f.line == 31]
    assert line and all(f.status in ("ok", "unverified") for f in line)
    # the 3×3 claim, the restated Q and Kᵀ, and the 1 and 2 of both \frac{1}{\sqrt{2}} (exact steps)
    assert sum(f.status == "ok" for f in line) == 9 + 6 + 6 + 4


# --- the corpus ----------------------------------------------------------------


@pytest.mark.parametrize("doc", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_document_matches_its_expectation(doc: Path) -> None:
    expect_path = doc.with_suffix(".expect.toml")
    if not expect_path.exists():
        pytest.skip(f"{expect_path.name} is not written yet")
    expect = tomllib.loads(expect_path.read_text(encoding="utf-8"))
    report = verify_document(doc)
    want = Counter(
        (f["line"], f["claimed"], f["kind"], f.get("carried_from")) for f in expect.get("finding", [])
    )
    assert report.exit_code == expect["exit"]
    assert len(report.wrong) == expect["wrong"]
    assert _wrong(report) == want
    unverified_lines = {f.line for f in report.findings if f.status == "unverified"}
    for item in expect.get("unverified", []):
        assert item["line"] in unverified_lines, item


# --- focused documents ---------------------------------------------------------

CASES = [
    pytest.param("$$a = 2$$\n\n$$b = a + 1 = 3$$\n", 0, [], id="integer-ok"),
    pytest.param("$$a = 2$$\n\n$$b = a + 1 = 4$$\n", 1, [(3, "4", "slip")], id="integer-slip"),
    pytest.param("$$s = \\sqrt{2} = 1.414$$\n", 0, [], id="decimal-ok"),
    pytest.param("$$s = \\sqrt{2} = 1.414213$$\n", 1, [(1, "1.414213", "rounding")], id="truncated"),
    pytest.param("$$s = \\sqrt{2} = 1.5$$\n", 1, [(1, "1.5", "wrong")], id="wrong-decimal"),
    pytest.param("$$p = \\frac{1}{3} = 0.3333$$\n", 0, [], id="fraction-ok"),
    pytest.param("`$x = 1 = 2$`\n\n```\n$$y = 1 = 2$$\n```\n", 0, [], id="code-is-skipped"),
    pytest.param(
        "$$M = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\n$$M^T = \\begin{bmatrix} 1 & 3 \\\\ 2 & 5 \\end{bmatrix}$$\n",
        1,
        [(3, "5", "slip")],
        id="transpose",
    ),
    pytest.param("$$z = [0, 0]$$\n\n$$w = \\text{softmax}(z) = [0.5, 0.5]$$\n", 0, [], id="softmax-vector"),
    pytest.param("$$x = 0.1$$\n\n$$y = 3x = 0.3$$\n", 0, [], id="decimal-never-float"),
    pytest.param("Let $d_k = 4$; $\\ln d_k \\approx 1.386$.\n", 0, [], id="ln-via-latex2sympy"),
    pytest.param(
        "Let $d_k = 4$; $\\ln d_k \\approx 1.38$.\n", 1, [(1, "1.38", "rounding")], id="ln-truncated"
    ),
    pytest.param("$\\log 2 = 0.3$ and $\\log 2 = 0.69$\n", 0, [], id="log-base-ambiguous"),
    pytest.param(
        "$\\frac12 = 0.5$, $\\frac{1}{\\sqrt 2} \\approx 0.7071$, $\\boxed{\\frac{1}{4}} = 0.26$\n",
        1,
        [(1, "0.26", "slip")],
        id="brace-less-arguments-and-boxed",
    ),
]


@pytest.mark.parametrize(("text", "exit_code", "wrong"), CASES)
def test_small_documents(text: str, exit_code: int, wrong: list[tuple[int, str, str]]) -> None:
    report = verify_text(text)
    assert report.exit_code == exit_code
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == wrong


def test_general_formulas_are_unverified_not_wrong() -> None:
    text = (
        "$$\\sigma(z_i) = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
        "$$s = z_1 + \\ldots + z_n = 1.5$$\n\n"
        "The weight is $0.25$ here.\n"
    )
    report = verify_text(text)
    assert report.exit_code == 0
    assert [(f.line, f.claimed, f.status) for f in report.findings] == [
        (1, "", "unverified"),
        (3, "1.5", "unverified"),
        (5, "0.25", "unverified"),
    ]


BROKEN = [
    pytest.param("$$y = e^{e^{e^{10}}} = 3$$", "e^(exp(10)) is too large to evaluate", id="tower-of-exp"),
    pytest.param(
        "$$z = 10^{10^{10}} = 5$$", "z: 10^10000000000 is too large to build exactly", id="huge-power"
    ),
    pytest.param("$$w = \\frac{1}{0} = 2$$", "w: division by zero", id="one-over-zero"),
    pytest.param(
        "$$R = \\begin{bmatrix} 1 & 0 \\\\ 0 \\end{bmatrix} = 4$$",
        "R: a ragged matrix (row lengths 2, 1)",
        id="ragged",
    ),
    pytest.param(
        "$$S = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}\\begin{bmatrix} 1 & 2 & 3 \\end{bmatrix} = 7$$",
        "S: the left factor has 2 columns but the right factor has 1 row (the left factor is 2×2, the right factor is 1×3)",
        id="shape-mismatch",
    ),
    pytest.param(
        "$$T = \\frac{1}{2 = 0.5$$", "cannot parse: unbalanced braces: 1 '{' never closed", id="braces"
    ),
]


@pytest.mark.parametrize(("formula", "reason"), BROKEN)
def test_broken_formula_is_reported_on_its_line_and_the_rest_is_checked(formula: str, reason: str) -> None:
    text = f"$$a = 2$$\n\n{formula}\n\n$$b = a + 1 = 4$$\n"
    report = verify_text(text)
    on_line = [f for f in report.findings if f.line == 3]
    assert on_line and all(f.status == "unverified" for f in on_line)
    assert reason in {f.reason for f in on_line}
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == [(5, "4", "slip")]


def test_tex_document_finds_environments_and_skips_comments() -> None:
    tex = (
        "\\documentclass{article}\n\\begin{document}\n"
        "% $$q = 1 = 5$$ is a comment\n"
        "\\begin{align}\n  x &= 2 \\\\\n  y &= x + 1 \\\\\n    &= 3 \\tag{1}\n\\end{align}\n"
        "\\[ z = \\dfrac{x}{4} = 0.4 \\]\n"
        "\\end{document}\n"
    )
    report = verify_text(tex, tex=True)
    assert [(f.line, f.claimed, f.status) for f in report.findings if f.status != "unverified"] == [
        (7, "3", "ok"),
        (9, "0.4", "wrong"),
    ]
    assert report.wrong[0].kind == "slip" and report.wrong[0].value == "0.5000"


# --- bad input ---------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.md"
    with pytest.raises(MissingFileError, match=r"^.*nope\.md: no such file$"):
        verify_document(path)


def test_not_text(tmp_path: Path) -> None:
    path = tmp_path / "binary.md"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(NotTextError, match=r"binary\.md: not UTF-8 text \(byte 0 is 0x89\)$"):
        verify_document(path)


# --- limits ------------------------------------------------------------------------


def test_a_formula_over_its_time_limit_is_unverified_and_the_rest_runs() -> None:
    text = "$$a = 2$$\n\n$$b = a + 1 = 4$$\n"
    report = verify_text(text, options=VerifyOptions(timeout=0))
    assert report.exit_code == 0
    assert [(f.line, f.reason) for f in report.findings] == [
        (1, "not checked: took longer than 0 s (1 number)"),
        (3, "not checked: took longer than 0 s (2 numbers)"),
    ]


def test_work_is_bounded_on_a_huge_document() -> None:
    text = "$$x = 3 = 3$$\n\n" * 30
    report = verify_text(text, options=VerifyOptions(max_formulas=10))
    skipped = [f for f in report.findings if f.kind == "skipped"]
    assert len(skipped) == 20  # one finding per skipped formula
    assert {f.reason for f in skipped} == {"not checked: the document has too many formulas (2 numbers)"}
    assert report.summary["ok"] == 1 + 9 * 2  # x is an input once, then both 3s are claims


def _random_document(size: int, seed: int) -> str:
    rng = random.Random(seed)
    pieces = [
        "Attention is all you need. ",
        "注意力机制的例子。",
        "$x = 0.5$ ",
        "$$A = \\begin{bmatrix} 0.4 & 0.6 \\\\ 0.5 & 0.5 \\end{bmatrix}$$\n\n",
        "$$Q K^T = \\frac{1}{\\sqrt{2}} [1, 2]$$\n\n",
        "$$e^{e^{e^{10}}} = 1$$\n\n",
        "$$10^{10^{10}}$$\n\n",
        "$$\\frac{1}{0} = 3 \\\\ \\left( \\right. $$\n\n",
        "```\ncode $x$\n```\n\n",
        "$$\\text{softmax}(\\begin{bmatrix} 1 & 2 \\end{bmatrix}) = [0.27, 0.73]$$\n\n",
        "{{{ $ } $$ \\begin{matrix} 1 & \\end{bmatrix} $$\n\n",
        "- item $y_1 = 3$ and $$z = y_1 \\cdot 2 = 6$$\n",
    ]
    out: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.3:
            piece = "".join(rng.choice("ab $\\{}^_[]&=0123456789.\n") for _ in range(rng.randint(5, 80)))
        else:
            piece = rng.choice(pieces)
        out.append(piece)
        total += len(piece.encode())
    return "".join(out)


@pytest.mark.slow
def test_two_megabytes_of_random_text_ends_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "random.md"
    path.write_text(_random_document(2_000_000, seed=4), encoding="utf-8")
    report = verify_document(path, VerifyOptions(max_formulas=300))
    assert report.exit_code in (0, 1)
    json.loads(report.to_json())


# --- the report ------------------------------------------------------------------------

FINDING_KEYS = [
    "line",
    "column",
    "subject",
    "cell",
    "claimed",
    "value",
    "exact",
    "status",
    "kind",
    "carried_from",
    "reason",
    "fits",
]


def test_json_contract() -> None:
    report = verify_text("$$a = 2$$\n\n$$b = a + 1 = 4$$\n")
    data = json.loads(report.to_json())
    assert list(data) == ["schema", "document", "summary", "findings"]
    assert data["schema"] == "symattn.verify/1"
    assert data["summary"] == {
        "claims": 3,
        "ok": 0,
        "wrong": 1,
        "unverified": 2,
        "kinds": {"input": 1, "operand": 1, "slip": 1},
    }
    assert [list(f) for f in data["findings"]] == [FINDING_KEYS] * 3
    assert data["findings"][2] == {
        "line": 3,
        "column": 15,
        "subject": "b",
        "cell": None,
        "claimed": "4",
        "value": "3.000",
        "exact": "3",
        "status": "wrong",
        "kind": "slip",
        "carried_from": None,
        "reason": "by the document's numbers: 3.000",  # a slip names the value a + 1 gives
        "fits": None,  # kind "convention" names the convention the numbers follow
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_text_and_markdown_name_place_value_and_kind(lang: str) -> None:
    report = verify_text("$$s = \\sqrt{2} = 1.5$$\n")
    for rendered in (report.to_text(lang=lang), report.to_markdown(lang=lang)):
        assert "<text>:1:18" in rendered
        assert "1.4142" in rendered
        assert "sqrt(2)" in rendered
    assert "wrong value" in report.to_text() and "数值错误" in report.to_text(lang="zh")


def test_the_json_example_in_the_docs_is_the_real_report(reference: Report) -> None:
    doc = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    example = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    data = json.loads(reference.to_json())
    assert example["schema"] == data["schema"]
    assert example["summary"] == data["summary"]
    assert example["findings"][0] in data["findings"]


def test_a_hanging_formula_is_killed_and_the_next_worker_keeps_the_bindings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = evaluate.DocumentState.run_chain

    def hang_on_slow(self, chain, subject_of):  # the forked worker inherits this patch
        if any(isinstance(e, Name) and e.name == "slow" for e in chain.elements):
            threading.Event().wait()  # never returns: only the timeout can end it
        return original(self, chain, subject_of)

    monkeypatch.setattr(evaluate.DocumentState, "run_chain", hang_on_slow)
    text = "$$a = 2$$\n\n$$\\text{slow} = 1 + 1 = 2$$\n\n$$b = a + 1 = 4$$\n"
    report = verify_text(text, options=VerifyOptions(timeout=1))
    assert [(f.line, f.claimed, f.kind, f.reason) for f in report.findings if f.line == 3] == [
        (3, "1", "skipped", "not checked: took longer than 1 s (3 numbers)"),
    ]
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == [(5, "4", "slip")]


def test_cells_of_a_named_matrix_are_checked() -> None:
    text = (
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
        "$$A = \\text{softmax}(X)$$\n\n"
        "So $A_{1,2} = 0.2689$, $A_{11} = 0.7311$ and $A_{2,1} = 0.2698$.\n"
    )
    report = verify_text(text)
    assert [(f.claimed, f.status, f.value) for f in report.findings if f.line == 5] == [
        ("0.2689", "ok", "0.2689414"),
        ("0.7311", "ok", "0.7310586"),
        ("0.2698", "wrong", "0.2689414"),
    ]


def test_a_second_example_redefines_its_inputs_and_forgets_what_depended_on_them() -> None:
    text = (
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
        "$$A = \\text{softmax}(X) \\approx \\begin{bmatrix} 0.7311 & 0.2689 \\\\ 0.2689 & 0.7311 \\end{bmatrix}$$\n\n"
        "$$X = \\begin{bmatrix} 2 & 0 \\\\ 0 & 2 \\end{bmatrix}$$\n\n"
        "$$A \\approx \\begin{bmatrix} 0.8808 & 0.1192 \\\\ 0.1192 & 0.8808 \\end{bmatrix}$$\n\n"
        "$$A = \\text{softmax}(X) \\approx \\begin{bmatrix} 0.8808 & 0.1192 \\\\ 0.1192 & 0.8809 \\end{bmatrix}$$\n"
    )
    report = verify_text(text)
    # The A of line 7 is not the old A: its digits are softmax of the new X, so it is
    # confirmed as that, never judged against the first example.
    assert {(f.status, f.reason) for f in report.findings if f.line == 7} == {
        ("ok", "identified by its digits as softmax[1,1]"),
        ("ok", "identified by its digits as softmax[1,2]"),
        ("ok", "identified by its digits as softmax[2,1]"),
        ("ok", "identified by its digits as softmax[2,2]"),
    }
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == [(9, "0.8809", "wrong")]


def test_a_spent_budget_lists_the_remaining_formulas_as_unverified() -> None:
    report = verify_text("$$a = 2$$\n\n$$b = a + 1 = 4$$\n", options=VerifyOptions(budget=0))
    assert report.exit_code == 0
    assert [(f.line, f.status, f.reason) for f in report.findings] == [
        (1, "unverified", "not checked: the time for the document ran out (1 number)"),
        (3, "unverified", "not checked: the time for the document ran out (2 numbers)"),
    ]


def test_tex_verbatim_and_verb_are_code() -> None:
    tex = (
        "\\begin{document}\n\\begin{verbatim}\n$x = 1 = 2$\n\\end{verbatim}\n"
        "Code \\verb|$y = 1 = 3$| and 50\\% of $z = 1 + 1 = 2$.\n\\end{document}\n"
    )
    report = verify_text(tex, tex=True)
    assert [(f.line, f.claimed, f.status) for f in report.findings if f.status != "unverified"] == [
        (5, "2", "ok")
    ]


def test_a_result_computed_from_rounded_numbers_is_rounding_carried() -> None:
    text = (
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$$\n\n"
        "$$S = \\frac{X X^T}{\\sqrt{2}} \\approx \\begin{bmatrix} 0.7 & 0 & 0.7 \\\\ 0 & 0.7 & 0.7 \\\\ "
        "0.7 & 0.7 & 1.4 \\end{bmatrix}$$\n\n"
        "$$\\text{softmax}([0.7, 0, 0.7]) \\approx [0.4005, 0.1989, 0.4005]$$\n"
    )
    report = verify_text(text)
    assert [(f.claimed, f.value, f.kind, f.carried_from) for f in report.wrong] == [
        ("0.4005", "0.4011121", "rounding-carried", 3),
        ("0.1989", "0.1977758", "rounding-carried", 3),
        ("0.4005", "0.4011121", "rounding-carried", 3),
    ]


def test_a_worker_that_dies_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    original = evaluate.DocumentState.run_chain

    def die_on_boom(self, chain, subject_of):  # the forked worker inherits this patch
        if any(isinstance(e, Name) and e.name == "boom" for e in chain.elements):
            os._exit(3)
        return original(self, chain, subject_of)

    monkeypatch.setattr(evaluate.DocumentState, "run_chain", die_on_boom)
    text = "$$a = 2$$\n\n$$\\text{boom} = 1$$\n\n$$b = a + 1 = 4$$\n"
    report = verify_text(text)
    assert [(f.line, f.reason) for f in report.findings if f.line == 3] == [
        (3, "not checked: the worker process stopped (1 number)")
    ]
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == [(5, "4", "slip")]


def test_a_new_example_may_give_q_and_k_directly_in_another_shape() -> None:
    text = (
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad Q = K = X$$\n\n"
        "$$A = \\text{softmax}(Q K^T) \\approx \\begin{bmatrix} 0.7311 & 0.2689 \\\\ 0.2689 & 0.7311 \\end{bmatrix}$$\n\n"
        "$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad "
        "K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$$\n\n"
        "$$A = \\text{softmax}(Q K^T) \\approx \\begin{bmatrix} 0.4223 & 0.1554 & 0.4223 \\\\ "
        "0.1554 & 0.4223 & 0.4223 \\\\ 0.2119 & 0.2119 & 0.5762 \\end{bmatrix}$$\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed, f.value) for f in report.wrong] == [(7, "0.5762", "0.5761169")]


def test_a_name_bound_again_by_a_new_computation_is_rebound_in_both_worlds() -> None:
    # issue 10, item 7: S = 2·3 = 6 rebinds S, so T = S + 1 = 7 is right
    text = "$$S = 1 + 1 = 2$$\n\n$$S = 2 \\cdot 3 = 6$$\n\n$$T = S + 1 = 7$$\n"
    report = verify_text(text)
    assert report.wrong == ()
    assert [(f.line, f.claimed, f.status) for f in report.findings if f.claimed == "7"] == [(5, "7", "ok")]


def test_reading_the_document_is_part_of_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 10, item 1: the budget starts before the math is found
    from symattn.verify import document

    clock = iter([0.0, 1000.0, 1000.0, 1000.0, 1000.0, 1000.0])
    monkeypatch.setattr(document.time, "monotonic", lambda: next(clock, 1000.0))
    report = verify_text(
        "$$a = 2$$\n\n$$b = a + 1 = 4$$\n", options=VerifyOptions(budget=10, use_worker=False)
    )
    assert report.wrong == ()
    assert {f.kind for f in report.findings} == {"skipped"}


def test_a_span_keeps_a_few_segments_not_one_offset_per_character() -> None:
    # issue 10, item 2: a huge formula's map from text to source is a few integers
    from symattn.verify.readers import find_math

    source = "$$a = " + "1+" * 100_000 + "1$$\n"
    (span,) = find_math(source, tex=False)
    assert len(span.text) > 200_000
    assert len(span.segments) == 1
    assert span.source_offset(len(span.text) - 1) == source.index("1$$")


def test_reports_group_wrong_numbers_by_root_cause_and_list_unchecked_places() -> None:
    text = (
        "$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad K = \\begin{bmatrix} 1 & 0 \\\\ 0 & 2 \\end{bmatrix}$$\n\n"
        "$$S = Q K^T = \\begin{bmatrix} 1 & 0 \\\\ 0 & 3 \\end{bmatrix}$$\n\n"  # 3: the slip (true 2)
        "$$T = S + S = \\begin{bmatrix} 2 & 0 \\\\ 0 & 6 \\end{bmatrix}$$\n"  # 6: carried from line 3
    )
    report = verify_text(text)
    assert [(f.line, f.kind, f.carried_from) for f in report.wrong] == [(3, "slip", None), (5, "carried", 3)]
    rendered = report.to_text()
    assert "1 error; 1 number carried from it." in rendered
    cause, carried = rendered.index("<text>:3:"), rendered.index("    <text>:5:")
    assert cause < rendered.index("carried from it:") < carried  # listed under its cause
    md = report.to_markdown()
    assert "<details><summary>" in md and "where: 1:" in md  # the inputs, with their places
    assert json.loads(report.to_json())["summary"]["kinds"]["carried"] == 1


def test_a_carried_number_names_the_row_it_comes_from() -> None:
    # Y = X·X with a slip in each row (11 for 10 on line 3, 23 for 22 on line 4);
    # Z = Y·X by the printed Y: row 1 of Z comes from row 1 of Y only, row 2 from row 2
    x = [[1, 2], [3, 4]]
    y_printed = [[7, 11], [15, 23]]
    z = [[sum(y_printed[i][k] * x[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    assert z == [[40, 58], [84, 122]]
    text = (
        "$$X = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\n"
        "$$Y = X X = \\begin{bmatrix} 7 & 11 \\\\\n15 & 23 \\end{bmatrix}$$\n\n"
        f"$$Z = Y X = \\begin{{bmatrix}} {z[0][0]} & {z[0][1]} \\\\ {z[1][0]} & {z[1][1]} \\end{{bmatrix}}$$\n"
    )
    assert [(f.line, f.claimed, f.kind, f.carried_from) for f in verify_text(text).wrong] == [
        (3, "11", "slip", None),
        (4, "23", "slip", None),
        (6, "40", "carried", 3),
        (6, "58", "carried", 3),
        (6, "84", "carried", 4),
        (6, "122", "carried", 4),
    ]


def test_a_table_of_one_querys_exponentials_and_weights_is_a_chain() -> None:
    from fractions import Fraction

    e1, e2, total = Fraction("1.6487"), Fraction("2.7183"), Fraction("4.6370")  # the sum's digits swapped
    assert e1 + e2 == Fraction("4.3670")
    w1, w2 = (round(e / total, 4) for e in (e1, e2))  # by the printed (wrong) sum
    text = (
        "Query 1 after the exponential:\n\n| row | e^{z_1} | e^{z_2} | Σ |\n|---|---|---|---|\n"
        f"| 1 | 1.6487 | 2.7183 | 4.6370 |\n| weights | {float(w1):.4f} | {float(w2):.4f} | |\n"
    )
    assert [(f.line, f.claimed, f.kind, f.carried_from) for f in verify_text(text).wrong] == [
        (5, "4.6370", "slip", None),
        (6, f"{float(w1):.4f}", "carried", 5),
        (6, f"{float(w2):.4f}", "carried", 5),
    ]


def _softmax_row_2(scores: list[float]) -> list:
    import mpmath

    mpmath.mp.dps = 30
    exps = [mpmath.e ** (mpmath.mpf(s) / mpmath.sqrt(2)) for s in scores]
    return [e / sum(exps) for e in exps]


def test_prose_numbers_are_judged_as_the_cells_their_clause_names() -> None:
    w = _softmax_row_2([1, 0])  # query 1 (and, mirrored, query 2) of Q = K = I, d_k = 2
    w11, w12 = (f"{float(x):.4f}" for x in w)
    assert (w11, w12) == ("0.6698", "0.3302")
    text = (
        "Let Q = [[1, 0], [0, 1]] and K = [[1, 0], [0, 1]], d_k = 2.\n\n"
        "The attention weights are:\n\n"
        f"| query | key 1 | key 2 |\n|---|---|---|\n| 1 | {w11} | {w12} |\n| 2 | 0.3420 | {w11} |\n\n"
        "Token 1 puts 0.67 of its attention on itself. The second token gives 0.34 of its attention to the first token.\n"
        "Token 2 puts 0.90 of its attention on token 2.\n\n"
        "第一个 token 对第二个 token 的权重约为 0.33。\n"
    )
    got = {(f.line, f.claimed): (f.status, f.kind, f.carried_from) for f in verify_text(text).findings}
    assert got[(8, "0.3420")] == ("wrong", "wrong", None)  # 0.3302 in truth
    assert got[(10, "0.67")] == ("ok", "ok", None)  # a_11
    assert got[(10, "0.34")] == ("wrong", "carried", 8)  # a_21, as the table has it
    assert got[(11, "0.90")][0] == "unverified"  # a_22 fits neither: listed, never called wrong
    assert got[(13, "0.33")] == ("ok", "ok", None)  # a_12


def test_numbers_listed_in_prose_restate_a_row_or_column_in_order() -> None:
    w = _softmax_row_2([1, 0])
    w11, w12 = (f"{float(x):.4f}" for x in w)
    text = (
        "Let Q = [[1, 0], [0, 1]] and K = [[1, 0], [0, 1]], d_k = 2.\n\n"
        f"$$A = \\text{{softmax}}(QK^T/\\sqrt{{d_k}}) \\approx \\begin{{bmatrix}} {w11} & {w12} \\\\ 0.3420 & {w11} "
        "\\end{bmatrix}$$\n\n"
        "So the first query spreads about 0.67 and 0.33, the second 0.34 and 0.67.\n"
    )
    got = {(f.line, f.claimed): (f.status, f.kind, f.carried_from) for f in verify_text(text).findings}
    assert got[(5, "0.67")] == ("ok", "ok", None)
    assert got[(5, "0.33")] == ("ok", "ok", None)
    assert got[(5, "0.34")] == ("wrong", "carried", 3)  # restates the wrong 0.3420 of line 3


def test_a_clause_that_does_not_name_both_tokens_leaves_its_number_alone() -> None:
    from symattn.verify.readers.text import named_cell

    def cell(sentence: str, number: str) -> str | None:
        start = sentence.index(number)
        return named_cell(sentence, start, start + len(number))

    assert (
        cell("第二个 token 对第三个 token 的权重是 0.67，明显高于对第一个 token 的 0.24。", "0.67")
        == "a_{23}"
    )
    # a later clause that names only the key goes on with the query the sentence started with
    assert (
        cell("第二个 token 对第三个 token 的权重是 0.67，明显高于对第一个 token 的 0.24。", "0.24")
        == "a_{21}"
    )
    assert (
        cell("Token 2 puts 0.67 of its attention on token 3, but only 0.24 on token 1.", "0.24") == "a_{21}"
    )
    assert cell("Token 2 puts most attention on token 3, token 1 gets 0.24.", "0.24") is None  # a new subject
    assert (
        cell("第三个 token 几乎只关注自己，权重高达 0.9515；第二个 token 则是 0.86。", "0.9515") == "a_{33}"
    )
    assert cell("第二个 token 的输出第二维最大（约 2.01）。", "2.01") == "O_{2,2}"
    assert cell("Token 2 puts 0.67 of its attention on token 3.", "0.67") == "a_{23}"
    assert (
        cell("Token 3 receives 0.50 of the attention from token 1.", "0.50") is None
    )  # passive: who is the query?
    assert cell("Token 2 gives 0.34 to token 1.", "0.34") is None  # no word for a weight
    assert cell("Token 1 puts 0.43 and 0.14 on tokens 1 and 2.", "0.43") is None  # two numbers in the clause


def test_the_other_weight_of_a_two_key_row_claims_one_minus_the_first() -> None:
    import mpmath

    mpmath.mp.dps = 30
    e = mpmath.e**-1
    first = 1 / (1 + e)
    e_text, first_text = mpmath.nstr(e, 10), mpmath.nstr(first, 10)
    other = mpmath.nstr(1 - first, 10)  # rounded: 0.2689414214
    cut = other[:-1] + str(int(other[-1]) - 1)  # the same number cut one place short: a truncation
    assert (first_text, other, cut) == ("0.7310585786", "0.2689414214", "0.2689414213")
    for printed, status, kind in ((other, "ok", "ok"), (cut, "wrong", "rounding")):
        text = f"- e^−1 = {e_text}\n- 权重 = 1 ÷ (1 + {e_text}) = {first_text}，另一个 = {printed}\n"
        got = {f.claimed: (f.status, f.kind) for f in verify_text(text).findings}
        assert got[printed] == (status, kind)


def test_a_pronoun_names_the_token_just_named_and_is_only_reported_when_it_fits() -> None:
    import mpmath

    mpmath.mp.dps = 30
    # Q = K = I_4, d_k = 4: row 2 of the weights is [a, b, a, a], a = 1/(3 + e^½), b = e^½/(3 + e^½)
    a = 1 / (3 + mpmath.e**0.5)
    b = mpmath.e**0.5 * a
    a4, b4 = mpmath.nstr(a, 4), mpmath.nstr(b, 4)
    eye = "[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]"
    rows = [" | ".join(b4 if j == i else a4 for j in range(4)) for i in range(4)]
    rows[1] = " | ".join((a4, a4, a4, b4))
    table = "| query | k1 | k2 | k3 | k4 |\n|---|---|---|---|---|\n"
    table += "".join(f"| {i + 1} | {row} |\n" for i, row in enumerate(rows))
    setup = (
        f"Let Q = {eye}, K = {eye}, d_k = 4.\n\nThe attention weights:\n\n" + table
    )  # row 2: b pasted at k4
    for said, expected in ((b4, ("wrong", "carried", 8)), ("0.3333", ("unverified", "unverifiable", None))):
        text = setup + (
            "\nThe second token (query `[0, 1]`) attends most to the fourth token, whose key `[0, 2]` points\n"
            f"the same way, and the row above says {said} for it.\n"
        )
        got = {(f.line, f.claimed): (f.status, f.kind, f.carried_from) for f in verify_text(text).findings}
        assert got[(13, said)] == expected  # never a slip: "it" is a weak reading


def test_the_new_prose_and_convention_rules_raise_no_false_alarm() -> None:
    # weights of Q = K = I, d_k = 2 (softmax([1, 0]/√2) = [0.6698, 0.3302], by mpmath); then names
    # and sentences that look like claims of them and are not
    w = _softmax_row_2([1, 0])
    big, small = (f"{float(x):.4f}" for x in w)
    text = (
        "Let Q = [[1, 0], [0, 1]], K = [[1, 0], [0, 1]], V = [[10, 0], [0, 10]] and d_k = 2.\n\n"
        "The attention weights are:\n\n"
        f"| query | key 1 | key 2 |\n|---|---|---|\n| 1 | {big} | {small} |\n| 2 | {small} | {big} |\n\n"
        "The one-hot vectors are o_1 = [1, 0] and o_2 = [0, 1].\n\n"  # not rows of the output
        "If token 2 were masked, token 1 would put 1.00 of its attention on itself.\n\n"  # a conditional
        f"Counting from 0, token 0 puts {big} of its attention on token 0 and token 1 {small} on token 0.\n\n"
        "Half of the value, 0.5 × 10 = 5, is not a weighted term.\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed, f.kind) for f in report.wrong] == []
    named = [f for f in report.findings if f.line == 15 and f.status != "unverified"]
    assert all(f.status == "ok" for f in named)


def test_markdown_escapes_are_text_and_a_bracket_pair_is_math() -> None:
    from symattn.verify.readers import find_math

    text = "The input x\\_1 = \\[1, 0] and query\\_1 = \\[2, 1].\n\nA display: \\[ d_k = 2 \\]\n"
    spans = [(s.reader, s.text) for s in find_math(text, tex=False) if s.reader != "scope"]
    assert ("text", "x_{1} = [1, 0]") in spans  # escaped: \_ is _, a lone \[ is a bracket
    assert ("text", "q_{1} = [2, 1]") in spans  # query_1 is row 1 of Q
    assert ("latex", " d_k = 2 ") in spans


def test_the_root_of_a_one_entry_dot_product_is_a_number() -> None:
    text = (
        "$$V = \\begin{bmatrix} 3 \\\\ 4 \\end{bmatrix}$$\n\n"
        "$$r_2 = \\sqrt{v_2 \\cdot v_2} = 4$$\n\n$$r_1 = \\sqrt{v_1 \\cdot v_1} = 4$$\n"
    )
    got = [(f.line, f.claimed, f.status) for f in verify_text(text).findings if f.status != "unverified"]
    assert got == [(3, "4", "ok"), (5, "4", "wrong")]  # √(4·4) = 4, √(3·3) = 3


def test_verify_reads_stage_names_from_the_declarations() -> None:
    """A name added to a stage's declaration is read by verify: its conventions and aliases
    are the registry's, not a table of their own."""
    from symattn import registry
    from symattn.verify import sublayers, world

    assert registry.stage("weights").read_as == world._WEIGHT_NAMES
    assert registry.stage("scores").read_as == world._SCORE_NAMES
    assert {d.name: d.aliases for d in registry.ATTENTION if d.aliases} == world._ALIASES
    assert set(registry.stage("positional", registry.BLOCK).aliases) == sublayers._PE_NAMES
