"""``symattn verify`` on the block's stages: positional encodings, layer norm, FFN (issue 11).

The documents of tests/block_corpus/ were written independently of symattn (true
values from tests/block_corpus/_truth.py: fractions and mpmath).  What must hold:

* a control gives no wrong finding and exits 0;
* on a planted document every wrong finding is one of its planted numbers (no false alarm);
* a planted number of a wrong convention that is found names that convention (``fits``),
  or is carried from a number that does;
* recall (planted numbers found) is measured and held above a floor.

The short documents below check single rules; their true values come from mpmath here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import mpmath
import pytest

from symattn.verify import Report, verify_document, verify_text
from symattn.verify.stated import stated_conventions

CORPUS = Path(__file__).parent / "block_corpus"
DOCUMENTS = sorted(p for p in CORPUS.glob("*") if p.suffix in (".md", ".txt", ".tex") and p.stem != "README")
#: Planted numbers found (with the convention they fit, where planted so) over the corpus.
RECALL_FLOOR = 1.0  # issue 11: every planted error is found
#: ... and on the held-out documents (h_*): 23 of 78 when they were written, 73 of 78 after
#: the first round of rules, 78 of 78 now (σ² + ε under a root, a step back to an off number,
#: a prose quote of one).
HELD_OUT_FLOOR = 1.0
#: The second held-out set (h_2_*), written blind after that: measured 18 of 58 (31%) with
#: 1 false alarm (a Φ(2) read as (2), fixed) when it came in; 57 of 58 after the rules it and the
#: later rounds taught (the miss: a GELU value in a document that names both forms).
#: The third (h_3_*), written blind after those rules: 5 of 14 and 6 false alarms on its control
#: when it came in (a layout the document said it uses in Chinese but also mentioned the other,
#: and a layout allowed but not used for X + PE: both fixed), 11 of 14 and 0 false alarms now.
#: The fourth (h_4_*), written blind after that: 12 of 12 but 8 false alarms when it came in
#: (x_1 read as row 1 of a matrix H computed later, not of X: fixed); 11 of 12, 0 false alarms now
#: (the miss, u_11 with the bias left out in both its expansion and its value, is listed).
#: The fifth (h_5_*), written blind after that: 1 of 6 and 7 false alarms when it came in (a
#: printed PE matrix named E taken as exact data, so X + E's right sums were called off; "for x1:"
#: not read as naming row 1): fixed; 3 of 6, 0 false alarms now (a whitespace-aligned text table
#: is not read).
#: Now: h_3_ 14 of 14 (the y family), h_5_ 6 of 6.
BLIND_SETS = {"h_2_": 1.0, "h_3_": 1.0, "h_4_": 0.9, "h_5_": 1.0}
#: The sixth (h_6_*: a notebook control, a Chinese handout control, one homework with one slip),
#: written blind after that: 0 of 1 and 4 false alarms when it came in (a product of a printout
#: np.round(A, 4) judged exactly; "mean" in an RMSNorm document read as μ): fixed; 0 of 1 now (the
#: final answer y = γ r / rms(r) is a family verify does not read); 1 of 1 since a vector of
#: arithmetic on the document's results is a computation, not new data. Too few planted numbers for a
#: floor: it counts for false alarms only.
BLIND_SETS["h_7_"] = 1.0
#: The seventh (h_7_*: a Q&A RMSNorm control, Chinese SiLU notes control, a beamer LayerNorm deck
#: with a σ² slip), written blind after all of the above: 4 of 4 and 0 false alarms when it came in.
#: The eighth (h_8_*: a study-notes README with a PE slip carried through X + PE, the residual sum
#: and its row's LayerNorm; a LaTeX exercise with the sample variance under σ² = (1/d)Σ and a ReLU FFN
#: after it; a Chinese GELU/RMSNorm control; a PyTorch REPL RMSNorm/SiLU control), written blind
#: after all of the above: 22 of 36 and 4 false alarms when it came in (the residual sum's
#: Sublayer(H), given as numbers, not read, so the norm was taken of H; "第 2 个 token：" not read
#: for a formula inside a line of prose; a printed μ of row 1 kept for row 2; the FFN after a
#: convention judged from the rounded printout): fixed; 36 of 36, 0 false alarms now.
BLIND_SETS["h_8_"] = 1.0
#: The ninth (h_9_*: a Jupyter notebook with a hand-copied FFN slip, a Chinese .tex homework whose PE
#: tabular was computed from position 1, a StackExchange-style RMSNorm control, a blog control with two
#: examples re-using names), written blind after the h_8_ rules: 10 of 32 and 3 false alarms when it
#: came in (FFN(RMSNorm(x2)) read as a product with the FFN row printed for token 1; a tabular headed
#: "$pos$ & 维 0" not read as PE): fixed; 32 of 32, 0 false alarms now (the last two once an FFN of a
#: row given only rounded was judged on intervals).
BLIND_SETS["h_9_"] = 1.0
#: The tenth (h_10_*: an inline-math LayerNorm cheat sheet with a lost sign, a Chinese WeChat-style PE +
#: RMSNorm control, a beamer post-norm block with eps left out), written blind after the h_9_ rules:
#: 6 of 9 and 0 false alarms on first contact, the second round without one (h_7_ the first); 8 of 9
#: since ``γ ⊙ x̂`` is read. The miss: √(σ² + ε) = 0.07000 within the interval of σ² = 0.0049 printed
#: at 4 places (it is exact, which the interval does not know); 9 of 9 since a computed row's cells
#: printed exactly as they truly are count as exact in the row's interval.
BLIND_SETS["h_10_"] = 1.0
#: The eleventh (h_11_*: a Medium-style Add & Norm control, a course-forum PE post with one slip
#: carried into X + PE), written blind after that: 2 of 2 and 0 false alarms on first contact.
#: Too few planted numbers for a floor (as h_6_): it counts for false alarms, and as held out.
#: The twelfth (h_12_*: a GitHub issue LayerNorm control with γ and β, a plain-text TA e-mail control
#: re-using x, mu, var for a second example, a Chinese Zhihu X + PE + LayerNorm answer with a σ² slip,
#: LaTeX lecture notes with the FFN in the column convention h = W_1 x + b_1 and a lost sign), written
#: blind after that: 7 of 15 and 10 false alarms on first contact (tokens numbered from 0; z of token 0
#: kept for token 2; an x_0, x_1 table not read as X; the column FFN not read): fixed; 15 of 15, 0 now.
BLIND_SETS["h_12_"] = 1.0
BLIND = (*BLIND_SETS, "h_6_", "h_11_")

_REPORTS: dict[Path, Report] = {}


def _report(doc: Path) -> Report:
    if doc not in _REPORTS:
        _REPORTS[doc] = verify_document(doc)
    return _REPORTS[doc]


def _expect(doc: Path) -> dict:
    return tomllib.loads(doc.with_suffix(".expect.toml").read_text(encoding="utf-8"))


def _found(report: Report, planted: dict) -> bool:
    """Whether a planted number is reported wrong, with its convention when it has one."""
    found = next(
        (f for f in report.wrong if (f.line, f.column) == (planted["line"], planted["column"])), None
    )
    if found is None:
        return False
    fits = planted.get("fits")
    if fits is None or found.fits == fits:
        return True
    lines_of_fits = {f.line for f in report.wrong if f.fits == fits}
    return found.kind == "carried" and found.carried_from in lines_of_fits


def test_the_corpus_is_there() -> None:
    assert len(DOCUMENTS) >= 8
    assert any(_expect(d).get("control") for d in DOCUMENTS)
    assert {"md", "txt", "tex"} <= {d.suffix[1:] for d in DOCUMENTS}


@pytest.mark.parametrize("doc", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_no_false_alarm_and_nothing_skipped(doc: Path) -> None:
    expect = _expect(doc)
    report = _report(doc)
    planted = {(f["line"], f["column"]) for f in expect.get("finding", [])}
    false_alarms = [
        (f.line, f.column, f.claimed, str(f.kind)) for f in report.wrong if (f.line, f.column) not in planted
    ]
    assert false_alarms == []
    assert [f for f in report.findings if f.kind == "skipped"] == []
    if expect.get("control"):
        assert report.exit_code == 0
    elif not doc.name.startswith(BLIND):  # the blind set's misses are measured below
        assert report.exit_code == 1  # every planted document has errors that are found


@pytest.mark.parametrize("doc", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_a_found_convention_is_named(doc: Path) -> None:
    report = _report(doc)
    for planted in _expect(doc).get("finding", []):
        found = next(
            (f for f in report.wrong if (f.line, f.column) == (planted["line"], planted["column"])), None
        )
        if found is None or "fits" not in planted or found.kind != "convention":
            continue
        assert found.fits == planted["fits"], (planted["line"], planted["column"], found.reason)


def test_recall_is_measured() -> None:
    """Recall on the documents verify was built against (every planted error found) and on
    the held-out ones (``h_*``, written afterwards by someone else: 23 of 78 before the
    verifier was taught from them)."""
    counts = {key: [0, 0] for key in ("built", "held", *BLIND)}  # set -> [found, total]
    for doc in DOCUMENTS:
        report = _report(doc)
        which = next((p for p in BLIND if doc.name.startswith(p)), None)
        which = which or ("held" if doc.name.startswith("h_") else "built")
        for planted in _expect(doc).get("finding", []):
            counts[which][1] += 1
            counts[which][0] += _found(report, planted)
    (found, total), (held_found, held_total) = counts["built"], counts["held"]
    print(f"\nblock corpus recall: {found}/{total} planted numbers found (with their convention)")
    print(f"held-out block documents: {held_found}/{held_total}")
    assert total > 50 and held_total > 50
    assert found / total >= RECALL_FLOOR
    assert held_found / held_total >= HELD_OUT_FLOOR
    for prefix, floor in BLIND_SETS.items():
        blind_found, blind_total = counts[prefix]
        print(f"written blind ({prefix}*): {blind_found}/{blind_total}")
        assert blind_total >= 4 and blind_found / blind_total >= floor


# --- single rules, true values from mpmath ------------------------------------------------

mpmath.mp.dps = 30


def _d(value: object, places: int) -> str:
    return mpmath.nstr(mpmath.mpf(value), places + 6, strip_zeros=False)[
        : places + 2 + (str(value)[0] == "-")
    ]


def _round(value: mpmath.mpf, places: int) -> str:
    scaled = mpmath.floor(abs(value) * 10**places + mpmath.mpf(1) / 2)
    text = f"{int(scaled) / 10**places:.{places}f}"
    return ("-" if value < 0 and scaled else "") + text


def _pe(pos: int, d: int, *, layout: str = "interleaved") -> list[mpmath.mpf]:
    angles = [pos / mpmath.power(10000, mpmath.mpf(2 * i) / d) for i in range(d // 2)]
    sines, cosines = [mpmath.sin(a) for a in angles], [mpmath.cos(a) for a in angles]
    if layout == "interleaved":
        return [v for pair in zip(sines, cosines, strict=True) for v in pair]
    return sines + cosines


def _row(values: list[mpmath.mpf], places: int = 4) -> str:
    return ", ".join(_round(v, places) for v in values)


def test_a_pe_table_in_the_concatenated_layout_is_named_so() -> None:
    rows = [_pe(p, 4, layout="concatenated") for p in range(3)]
    table = "\n".join(
        f"| {p} | " + " | ".join(_round(v, 4) for v in row) + " |" for p, row in enumerate(rows)
    )
    text = (
        "Positions 0, 1, 2 and $d_{model} = 4$, with $PE_{(pos,2i)} = \\sin(pos/10000^{2i/d})$ and "
        "$PE_{(pos,2i+1)} = \\cos(pos/10000^{2i/d})$.\n\nThe positional encoding table:\n\n"
        "| pos | 0 | 1 | 2 | 3 |\n|---|---|---|---|---|\n" + table + "\n"
    )
    report = verify_text(text)
    assert report.wrong and all(
        f.kind == "convention" and f.fits == "concatenated layout" for f in report.wrong
    )
    assert "these values match the concatenated layout" in report.to_text()


def test_the_same_table_without_a_stated_layout_is_right() -> None:
    rows = [_pe(p, 4, layout="concatenated") for p in range(2)]
    text = "$$PE = \\begin{bmatrix} " + " \\\\ ".join(" & ".join(_round(v, 4) for v in r) for r in rows)
    text += " \\end{bmatrix}$$\n\nWe lay out all the sines, then all the cosines (as in tensor2tensor).\n"
    report = verify_text(text)
    assert report.wrong == () and report.summary["ok"] == 8


def test_sample_variance_and_a_layer_norm_computed_with_it() -> None:
    x = [1, 2, 3, 6]
    mu = mpmath.mpf(sum(x)) / 4
    sample = sum((v - mu) ** 2 for v in x) / 3
    ln = [(v - mu) / mpmath.sqrt(sample + mpmath.mpf("0.01")) for v in x]
    text = (
        "We normalise each token with LayerNorm, $\\epsilon = 0.01$.\n\n$$x = [1, 2, 3, 6]$$\n\n"
        f"$\\mu = 3$ and $\\sigma^2 = {_round(sample, 4)}$.\n\n"
        f"$$\\mathrm{{LN}}(x) = [{_row(ln)}]$$\n"
    )
    report = verify_text(text)
    sigma = next(f for f in report.findings if f.claimed == _round(sample, 4))
    assert (sigma.status, sigma.kind, sigma.fits) == ("wrong", "convention", "sample variance")
    norm = [f for f in report.findings if f.line == 7 and f.claimed != "0.0000" and f.status == "wrong"]
    assert len(norm) == 3 and all(f.fits == "sample variance" for f in norm)
    assert all(f.carried_from == 5 or f.kind == "convention" for f in norm)


def test_eps_left_out_where_it_shows() -> None:
    x = [1, 1.2, 0.8, 1]
    mu = mpmath.mpf(1)
    var = sum((mpmath.mpf(str(v)) - mu) ** 2 for v in x) / 4
    without = [(mpmath.mpf(str(v)) - mu) / mpmath.sqrt(var) for v in x]
    text = f"Layer norm with $\\epsilon = 0.01$: $x = [1, 1.2, 0.8, 1]$, $\\mathrm{{LayerNorm}}(x) = [{_row(without)}]$.\n"
    report = verify_text(text)
    assert report.wrong and all(f.fits == "eps = 0" for f in report.wrong)


def test_eps_not_given_is_not_held_against_the_document() -> None:
    x = [1, 1.2, 0.8, 1]
    var = sum((mpmath.mpf(str(v)) - 1) ** 2 for v in x) / 4
    without = [(mpmath.mpf(str(v)) - 1) / mpmath.sqrt(var) for v in x]
    text = f"Layer norm: $x = [1, 1.2, 0.8, 1]$, $\\mathrm{{LayerNorm}}(x) = [{_row(without)}]$.\n"
    report = verify_text(text)
    assert report.wrong == () and report.summary["ok"] == 4


def test_plain_text_notes_with_mu_sigma_and_an_ffn() -> None:
    x = [mpmath.mpf(v) for v in (1, 2, 3, 6)]
    mu = sum(x) / 4
    var = sum((v - mu) ** 2 for v in x) / 4
    ln = [(v - mu) / mpmath.sqrt(var + mpmath.mpf("1e-5")) for v in x]
    hidden = [1 * 1 + 2 * 0 + 0, 1 * -1 + 2 * 1 + 1]  # x W_1 + b_1 for x = [1, 2]
    text = (
        "Layer norm and FFN notes, eps = 1e-5\n\n"
        "x = [1, 2, 3, 6]\n"
        f"mu = (1 + 2 + 3 + 6) / 4 = {mpmath.nstr(mu, 3)}\n"
        f"sigma^2 = {mpmath.nstr(var, 3)}\n"
        f"LN(x) = (x - mu) / sqrt(sigma^2 + eps) = [{_row(ln)}]\n\n"
        "W1 = [[1, -1], [0, 1]], b1 = [0, 1], W2 = [[1], [2]], b2 = [0.5]\n"
        "z = [1, 2]\n"
        f"ReLU(z W1 + b1) = [{hidden[0]}, {hidden[1]}]\n"
        f"FFN(z) = {hidden[0] * 1 + hidden[1] * 2 + 0.5}\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    judged = {f.claimed for f in report.findings if f.status == "ok"}
    assert {_round(v, 4) for v in ln} - {"0.0000"} <= judged
    assert "5.5" in judged and "3.5" in judged


def test_a_wrong_ffn_output_is_a_slip() -> None:
    text = (
        "FFN with ReLU: $W_1 = \\begin{bmatrix} 1 & -1 \\\\ 0 & 1 \\end{bmatrix}$, $b_1 = [0, 1]$, "
        "$W_2 = \\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}$, $b_2 = [0.5]$, $x = [1, 2]$, "
        "$\\mathrm{FFN}(x) = 6.5$.\n"
    )
    report = verify_text(text)
    assert [(f.claimed, f.value) for f in report.wrong] == [("6.5", "5.5000")]


def test_stated_conventions_are_read_from_the_words() -> None:
    assert stated_conventions("位置从 0 开始编号：第一个 token 的 pos = 0，第二个 pos = 1").start == 0
    assert stated_conventions("positions 1, 2, 3").start == 1
    assert stated_conventions("we use the unbiased variance").variance == "sample"
    assert stated_conventions("PE(pos, 2i+1) = cos(...)").layout == "interleaved"
    assert stated_conventions("concatenated, as in tensor2tensor; PE(pos, 2i+1)").layout == "concatenated"
    assert stated_conventions("softmax(QK^T) V").block is False


def test_a_mu_that_is_another_quantity_is_not_called_wrong() -> None:
    x = [1, 2, 3, 6]
    mu = mpmath.mpf(sum(x)) / 4
    var = sum((v - mu) ** 2 for v in x) / 4
    text = (
        f"We apply layer norm to $x = [1, 2, 3, 6]$: $\\mu = {mpmath.nstr(mu, 3)}$ and "
        f"$\\sigma^2 = {mpmath.nstr(var, 3)}$.\n\n"
        "Training uses SGD with momentum $\\mu = 0.9$ and learning rate $\\eta = 0.01$.\n\n"
        f"A slip: $\\mu = {mpmath.nstr(mu + mpmath.mpf('0.1'), 3)}$ for the same row.\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(5, "3.1")]
    momentum = next(f for f in report.findings if f.claimed == "0.9")
    assert (momentum.status, momentum.kind) == ("unverified", "ambiguous")


def test_a_huge_d_model_is_listed_not_evaluated() -> None:
    report = verify_text("Positional encoding with $d_{model} = 1000000$: $PE_{(1,2)} = 0.0100$.\n")
    pe = next(f for f in report.findings if f.claimed == "0.0100")
    assert (pe.status, pe.kind) == ("unverified", "unverifiable") and "wider than" in pe.reason


# --- numbers written again: σ² + ε under a root, a step back to an off number, prose quotes ----


def _sample_note(quote: str = "") -> tuple[str, dict[str, mpmath.mpf]]:
    """Plain-text notes on one token, x = [1, 3, 4] with γ = [2, 1, 1], computed (wrongly)
    with the sample variance; the true values use the population variance."""
    x = [mpmath.mpf(v) for v in (1, 3, 4)]
    mu = sum(x) / 3
    squares = sum((v - mu) ** 2 for v in x)
    eps = mpmath.mpf(1) / 100000
    sample, population = squares / 2, squares / 3
    hat = [(v - mu) / mpmath.sqrt(sample + eps) for v in x]
    ln = [2 * hat[0], hat[1], hat[2]]
    assert _round(2 * mpmath.mpf(_round(hat[0], 4)), 4) == _round(ln[0], 4)  # the author's step holds
    text = (
        "LayerNorm of one token, x = [1, 3, 4], gamma = [2, 1, 1], beta = [0, 0, 0], eps = 1e-5.\n\n"
        f"sigma^2 = {_round(squares, 4)} / 2 = {_round(sample, 4)}\n"
        f"LN(x) = [{_row(ln)}]\n"
        f"(gamma doubles the first feature: {_round(hat[0], 4)} × 2 ≈ {_round(ln[0], 4)})\n" + quote
    )
    true_hat = (x[0] - mu) / mpmath.sqrt(population + eps)
    return text, {"hat": true_hat, "ln": 2 * true_hat, "printed_hat": hat[0], "printed_ln": ln[0]}


_EXACT = re.compile(r"^(-?\d+)?\*?(?:sqrt\((\d+)\))?(?:/(\d+))?$")


def _truth_of(finding: object) -> mpmath.mpf:
    """A finding's exact truth (``-440*sqrt(328890)/98667``, ``296001/100000``) as an mpf,
    read as data (the test never evaluates text)."""
    match = _EXACT.match(finding.exact.replace("-sqrt", "-1*sqrt"))
    assert match, finding.exact
    factor, root, den = match.groups()
    value = mpmath.mpf(int(factor)) if factor else mpmath.mpf(1)
    if root:
        value *= mpmath.sqrt(int(root))
    return value / int(den) if den else value


def test_a_step_back_to_an_off_number_blames_its_operand() -> None:
    text, truth = _sample_note()
    report = verify_text(text)
    operand = next(f for f in report.findings if f.claimed == _round(truth["printed_hat"], 4))
    product = next(f for f in report.findings if f.line == 5 and f.claimed == _round(truth["printed_ln"], 4))
    assert (operand.status, operand.kind, operand.carried_from) == ("wrong", "carried", 4)
    assert (product.status, product.kind, product.carried_from) == ("wrong", "carried", 4)
    assert operand.column == text.splitlines()[4].index(operand.claimed) + 1  # the column of its sign
    assert abs(_truth_of(operand) - truth["hat"]) < mpmath.mpf(10) ** -25
    assert abs(_truth_of(product) - truth["ln"]) < mpmath.mpf(10) ** -25


def test_a_prose_quote_of_an_off_number_in_its_section_is_carried() -> None:
    text, truth = _sample_note("\nSo the first feature ends at {}, far from the others.\n")
    text = text.format(_round(truth["printed_ln"], 4))
    quote = next(f for f in _report_of(text).findings if f.line == 7)
    assert (quote.status, quote.kind, quote.carried_from) == ("wrong", "carried", 4)
    after_heading = text.replace("\nSo the", "\n## Another token\n\nSo the")
    assert all(f.line != 8 or f.status != "wrong" for f in _report_of(after_heading).findings)


def _report_of(text: str) -> Report:
    return verify_text(text)


def test_sigma_squared_plus_eps_under_a_root_restates_sigma_squared() -> None:
    x = [mpmath.mpf(v) for v in (2, 4, 9)]
    squares = sum((v - 5) ** 2 for v in x)
    eps = mpmath.mpf(1) / 100000
    sample = squares / 2  # 13: the sample variance (the document's)
    text = (
        "We apply LayerNorm to $x = [2, 4, 9]$ with $\\epsilon = 10^{-5}$.\n\n"
        "$\\mu = 15 / 3 = 5$\n\n"
        f"$\\sigma^2 = {int(squares)} / 2 = {int(sample)}$, "
        f"$\\sqrt{{{mpmath.nstr(sample + eps, 10)}}} \\approx {_round(mpmath.sqrt(sample + eps), 5)}$\n"
    )
    report = verify_text(text)
    under, root = (f for f in report.findings if f.line == 5 and f.column > 30)
    assert (under.claimed, under.status, under.kind, under.carried_from) == (
        "13.00001",
        "wrong",
        "carried",
        5,
    )
    assert (root.status, root.kind, root.carried_from) == ("wrong", "carried", 5)
    assert abs(_truth_of(under) - (squares / 3 + eps)) < mpmath.mpf(10) ** -25
    assert abs(_truth_of(root) - mpmath.sqrt(squares / 3 + eps)) < mpmath.mpf(10) ** -25
    right = text.replace("= 13$", f"= {_round(squares / 3, 4)}$").replace("/ 2", "/ 3")
    assert not [f for f in verify_text(right).wrong if f.claimed == "13.00001"]  # √(σ² + ε) of another number


def test_a_function_written_as_a_greek_letter_is_not_dropped() -> None:
    """``2 * Φ(2) = 1.9545`` in plain text: Φ (the normal CDF, which verify does not evaluate)
    is part of the formula, so the claim is listed, never read as ``(2) = 1.9545``."""
    phi = (1 + mpmath.erf(2 / mpmath.sqrt(2))) / 2
    report = verify_text(f"GELU notes\n\n  exact: GELU(2) = 2 * Φ(2) = {_round(2 * phi, 10)}\n")
    claim = next(f for f in report.findings if f.claimed == _round(2 * phi, 10))
    assert claim.status == "unverified" and report.wrong == ()


def test_a_sentence_ending_in_a_colon_names_the_row_of_the_display_below() -> None:
    mu = [mpmath.mpf(sum(row)) / 4 for row in ([1, 2, 3, 6], [2, 2, 5, 7])]
    claimed = _round(mu[1] + mpmath.mpf(1) / 2, 4)  # neither row's mean
    text = (
        "We use LayerNorm on each row.\n\n$$X = \\begin{bmatrix} 1 & 2 & 3 & 6 \\\\ 2 & 2 & 5 & 7 \\end{bmatrix}$$\n\n"
        "Take the second row and add up its entries:\n\n"
        f"$$\\mu = {claimed}$$\n"
    )
    claim = next(f for f in verify_text(text).findings if f.claimed == claimed)
    assert claim.status == "wrong" and mpmath.mpf(claim.value) == mu[1]
    unnamed = text.replace("Take the second row and add up its entries:", "Its mean:")
    claim = next(f for f in verify_text(unnamed).findings if f.claimed == claimed)
    assert claim.status == "unverified"  # μ of which row?


def _ffn_sheet(a_12: str, ffn_1: tuple[str, str], r_1: tuple[str, str], ln_1: tuple[str, str]) -> str:
    """A LaTeX sheet: an FFN with ReLU on two tokens, Add & Norm, the first token's rows
    written out by the document's own numbers (``FFN(x_1) = (1, 0) + b_2``, ``LN(r_1)``)."""
    return (
        "One FFN sub-layer with ReLU, then Add & Norm (LayerNorm, $\\epsilon = 10^{-5}$, no $\\gamma$, $\\beta$).\n\n"
        "$$x = \\begin{bmatrix} 0.5 & 1 \\\\ 1 & -0.5 \\end{bmatrix}, \\quad "
        "W_1 = \\begin{bmatrix} 1 & -1 \\\\ 0.5 & 1 \\end{bmatrix}, \\quad b_1 = [0, 0.5], \\quad "
        "W_2 = \\begin{bmatrix} 1 & 0 \\\\ 0.5 & 1 \\end{bmatrix}, \\quad b_2 = [0.1, 0]$$\n\n"
        f"$$a = \\mathrm{{ReLU}}(x W_1 + b_1) = \\begin{{bmatrix}} 1 & {a_12} \\\\ 0.75 & 0 \\end{{bmatrix}}$$\n\n"
        f"Only the first unit of token 1 is left, so $\\mathrm{{FFN}}(x_1) = (1, {a_12}) W_2 + b_2 = ({ffn_1[0]}, {ffn_1[1]})$.\n\n"
        f"$$r = x + \\mathrm{{FFN}}(x) = \\begin{{bmatrix}} {r_1[0]} & {r_1[1]} \\\\ 1.85 & -0.5 \\end{{bmatrix}}$$\n\n"
        f"$$\\mathrm{{LN}}(r_1) = [{ln_1[0]}, {ln_1[1]}]$$\n"
    )


def test_an_ffn_row_by_the_documents_hidden_layer_and_a_row_named_r_1() -> None:
    from fractions import Fraction as F

    x = [[F(1, 2), F(1)], [F(1), F(-1, 2)]]
    W_1, b_1 = [[F(1), F(-1)], [F(1, 2), F(1)]], [F(0), F(1, 2)]
    W_2, b_2 = [[F(1), F(0)], [F(1, 2), F(1)]], [F(1, 10), F(0)]

    def ffn(row: list[F], hidden: list[F] | None = None) -> list[F]:
        z = [sum(row[k] * W_1[k][j] for k in range(2)) + b_1[j] for j in range(2)]
        a = hidden if hidden is not None else [max(F(0), v) for v in z]
        return [sum(a[k] * W_2[k][j] for k in range(2)) + b_2[j] for j in range(2)]

    def ln(row: list[F]) -> list[mpmath.mpf]:
        mu = sum(row) / 2
        var = sum((v - mu) ** 2 for v in row) / 2
        root = mpmath.sqrt(mpmath.mpf(var.numerator) / var.denominator + mpmath.mpf(1) / 100000)
        return [mpmath.mpf((v - mu).numerator) / (v - mu).denominator / root for v in row]

    def text(v: F) -> str:
        return str(float(v)).removesuffix(".0")

    true_r = [x[0][j] + ffn(x[0])[j] for j in range(2)]
    slipped = ffn(x[0], hidden=[F(1), F(0)])  # the author zeroed a unit that is 1
    doc_r = [x[0][j] + slipped[j] for j in range(2)]
    wrong = _ffn_sheet(
        "0", tuple(map(text, slipped)), tuple(map(text, doc_r)), tuple(_round(v, 4) for v in ln(doc_r))
    )
    report = verify_text(wrong)
    slip = next(f for f in report.wrong if f.line == 5)
    assert (slip.claimed, slip.kind) == ("0", "wrong")
    later = [f for f in report.wrong if f.line > 5]
    assert {f.line for f in later} == {7, 9, 11} and all(
        f.kind == "carried" and f.carried_from == 5 for f in later
    )
    assert len([f for f in later if f.line == 11]) == 2  # LN(r_1): row 1 of r, by the document's r
    right = _ffn_sheet(
        "1", tuple(map(text, ffn(x[0]))), tuple(map(text, true_r)), tuple(_round(v, 4) for v in ln(true_r))
    )
    assert verify_text(right).wrong == ()


def _pe_then_sum(sentence: str) -> str:
    """A PE matrix in the concatenated layout, then X + PE, with ``sentence`` about the layout."""
    pe = [_pe(p, 4, layout="concatenated") for p in range(3)]
    x = [[mpmath.mpf(v) / 10 for v in row] for row in ([2, -1, 4, 3], [-3, 5, 1, -2], [6, 2, -4, 1])]

    def matrix(rows: list[list[mpmath.mpf]]) -> str:
        return " \\\\ ".join(" & ".join(_round(v, 4) for v in row) for row in rows)

    total = [[a + b for a, b in zip(r, s, strict=True)] for r, s in zip(x, pe, strict=True)]
    return (
        f"Positional encodings, $d_{{model}} = 4$, positions 0, 1, 2. {sentence}\n\n"
        f"$$PE = \\begin{{bmatrix}} {matrix(pe)} \\end{{bmatrix}}$$\n\n"
        f"$$X = \\begin{{bmatrix}} {matrix(x)} \\end{{bmatrix}}$$\n\n"
        f"$$X + PE = \\begin{{bmatrix}} {matrix(total)} \\end{{bmatrix}}$$\n"
    )


def test_a_layout_the_document_allows_is_used_for_what_follows() -> None:
    """Unstated, the concatenated layout is allowed; X + PE is then judged with that PE (it
    was judged with the interleaved one, and six right sums were called carried)."""
    report = verify_text(_pe_then_sum(""))
    assert report.wrong == () and report.summary["ok"] >= 24


def test_the_layout_the_document_says_it_uses_wins_over_one_it_mentions() -> None:
    mentioned = "Most tutorials interleave sine and cosine. In this post we use the concatenated layout."
    assert stated_conventions(mentioned).layout == "concatenated"
    assert stated_conventions("多数教程用交错写法。本文全部采用拼接式排列。").layout == "concatenated"
    assert (
        stated_conventions(
            "tensor2tensor concatenates sines and cosines, and the paper interleaves them."
        ).layout
        is None
    )
    report = verify_text(_pe_then_sum(mentioned))
    assert report.wrong == ()
    interleaved = _pe_then_sum("Tensor2tensor concatenates them. We use the paper's interleaved layout.")
    found = verify_text(interleaved).wrong
    assert found and all(f.fits == "concatenated layout" for f in found if f.line == 3)


def test_statements_side_by_side_and_a_comma_list_of_givens_are_each_read() -> None:
    """``x1 = [..]     x2 = [..]`` on one line is two statements, and ``eps = 1e-6`` in
    "d = 4, eps = 1e-6, gamma = [..]" is a given (it was dropped as a keyword argument, and
    the default ε judged a right RMSNorm wrong)."""
    x = [mpmath.mpf(v) / 10 for v in (3, 11, -6, 9)]
    rms = mpmath.sqrt(sum(v * v for v in x) / 4 + mpmath.mpf(10) ** -6)
    gamma = [1, mpmath.mpf(1) / 2, 2, mpmath.mpf(3) / 2]
    out = [v / rms * g for v, g in zip(x, gamma, strict=True)]
    text = (
        "RMSNorm notes\n\n"
        "d = 4, eps = 1e-6, gamma = [1, 0.5, 2, 1.5]\n\n"
        "    w = [1, 2]     x = [0.3, 1.1, -0.6, 0.9]\n\n"
        f"    RMSNorm(x) = [{_row(out, 10)}]\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert sum(f.status == "ok" for f in report.findings if f.line == 7) == 4
    slipped = text.replace(_round(out[0], 10), _round(out[0] + mpmath.mpf(10) ** -6, 10))
    assert [f.line for f in verify_text(slipped).wrong] == [7]


def test_a_heading_names_the_first_table_under_it() -> None:
    """``### Hidden pre-activations $H = XW_1 + b_1$`` then a token × unit table: the table is
    H; "### After the ReLU" names the next one. Values from fractions."""
    from fractions import Fraction as F

    X = [[F(4, 10), F(-2, 10)], [F(1, 10), F(7, 10)]]
    W = [[F(6, 10), F(-3, 10)], [F(1, 10), F(5, 10)]]
    b = [F(7, 100), F(1, 10)]
    H = [[sum(X[i][k] * W[k][j] for k in range(2)) + b[j] for j in range(2)] for i in range(2)]

    def table(rows: list[list[F]]) -> str:
        body = "\n".join(
            f"| {i + 1} | " + " | ".join(f"{float(v):.2f}" for v in row) + " |" for i, row in enumerate(rows)
        )
        return "| token | unit 1 | unit 2 |\n|---|---:|---:|\n" + body + "\n"

    relu = [[max(F(0), v) for v in row] for row in H]
    text = (
        "# FFN notes\n\n$$X = \\begin{bmatrix} 0.4 & -0.2 \\\\ 0.1 & 0.7 \\end{bmatrix}, \\quad "
        "W_1 = \\begin{bmatrix} 0.6 & -0.3 \\\\ 0.1 & 0.5 \\end{bmatrix}, \\quad b_1 = [0.07, 0.1]$$\n\n"
        "## Hidden pre-activations $H = XW_1 + b_1$\n\nRow times column, plus the bias:\n\n"
        + table(H)
        + "\n## After the ReLU\n\nNegative entries become zero:\n\n"
        + table(relu)
    )
    report = verify_text(text)
    assert report.wrong == () and report.summary["ok"] >= 8
    slipped = text.replace(f"| 2 | {float(H[1][0]):.2f}", f"| 2 | {float(H[1][0]) + 0.2:.2f}")  # and carried
    wrong = verify_text(slipped).wrong
    assert [(f.kind, f.carried_from is not None) for f in wrong] == [("slip", False), ("carried", True)]


def test_a_token_section_reads_its_own_vectors() -> None:
    """Forum-style notes: ``PE(pos=1)``, ``z1 = x1 + PE(1)`` bound after ``x1``, then "token 1:"
    with bare ``z`` and ``mu``: token 1's z, not its x. A σ² from the calculator's var key
    (the sample variance) is named so."""
    x = [mpmath.mpf(-3) / 10, mpmath.mpf(2) / 10]
    z = [x[0] + mpmath.sin(1), x[1] + mpmath.cos(1)]
    mu = (z[0] + z[1]) / 2
    dev = [v - mu for v in z]
    sample = (dev[0] ** 2 + dev[1] ** 2) / 1
    text = (
        "LayerNorm after the positional encoding, d_model = 2 (population variance, eps = 1e-5).\n\n"
        "    x1 = [-0.3, 0.2]     x2 = [-0.6, 0.5]\n\n"
        f"    PE(pos=1) = [sin 1, cos 1] = [{_round(mpmath.sin(1), 4)}, {_round(mpmath.cos(1), 4)}]\n"
        f"    z1 = x1 + PE(1) = [{_round(z[0], 4)}, {_round(z[1], 4)}]\n\n"
        "token 1:\n"
        f"    mu      = {_round(mu, 4)}\n"
        f"    z - mu  = [{_round(dev[0], 4)}, {_round(dev[1], 4)}]\n"
        f"    sigma^2 = {_round(sample, 4)}\n"
    )
    report = verify_text(text)
    ok = {f.claimed for f in report.findings if f.status == "ok"}
    assert {_round(mu, 4), _round(dev[0], 4), _round(dev[1], 4), _round(mpmath.sin(1), 4)} <= ok
    (sigma,) = report.wrong
    assert (sigma.claimed, sigma.kind, sigma.fits) == (_round(sample, 4), "convention", "sample variance")


def test_labelled_tokens_and_the_squares_of_a_vector() -> None:
    """ "token1  x = [..]" then "token2  x = [..]": under "token1：" a bare x is token 1's;
    ``x^2`` of a vector is its squares (a vector has no matrix power)."""
    xs = [[mpmath.mpf(12) / 10, mpmath.mpf(-8) / 10], [mpmath.mpf(3) / 10, mpmath.mpf(11) / 10]]
    gamma = [1, 2]

    def rms_norm(x: list[mpmath.mpf]) -> list[mpmath.mpf]:
        rms = mpmath.sqrt(sum(v * v for v in x) / 2 + mpmath.mpf(10) ** -6)
        return [v / rms * g for v, g in zip(x, gamma, strict=True)]

    def section(k: int) -> str:
        x = xs[k - 1]
        return (
            f"token{k}：\n  x^2 = [{_row([v * v for v in x], 2)}]\n"
            f"  RMSNorm(x) = [{_row(rms_norm(x), 6)}]\n\n"
        )

    text = (
        "RMSNorm 手算笔记，eps = 1e-6, gamma = [1, 2]\n\n"
        "  token1  x = [1.2, -0.8]\n  token2  x = [0.3, 1.1]\n\n" + section(1) + section(2)
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert sum(f.status == "ok" for f in report.findings) >= 8
    slipped = text.replace("x^2 = [1.44, 0.64]", "x^2 = [1.44, 0.46]")
    assert [(f.line, f.claimed) for f in verify_text(slipped).wrong] == [(7, "0.46")]


def test_x_1_is_row_1_of_X_even_after_a_formula_bound_a_later_matrix() -> None:
    """Pre-norm notes: ``H = X + FFN(LayerNorm(X))`` stated before X is given (read once X, W_1,
    … are), then ``LayerNorm(x_1) = (...)``: x_1 is row 1 of X, not of H (8 false alarms on
    the blind h_4_ lecture notes)."""
    x = [mpmath.mpf(6) / 10, mpmath.mpf(-2) / 10, mpmath.mpf(11) / 10]
    mu = sum(x) / 3
    root = mpmath.sqrt(sum((v - mu) ** 2 for v in x) / 3 + mpmath.mpf(10) ** -5)
    ln = [(v - mu) / root for v in x]
    text = (
        "Pre-norm: $H = X + \\operatorname{FFN}(\\operatorname{LayerNorm}(X))$ with "
        "$\\operatorname{FFN}(z) = \\max(0, zW_1 + b_1) W_2 + b_2$, population variance, $\\epsilon = 10^{-5}$.\n\n"
        "$$X = \\begin{pmatrix} 0.6 & -0.2 & 1.1 \\\\ -0.5 & 0.9 & 0.3 \\end{pmatrix}, \\quad "
        "W_1 = \\begin{pmatrix} 0.8 & -0.4 \\\\ -0.3 & 0.9 \\\\ 0.5 & 0.2 \\end{pmatrix}, \\quad b_1 = (0.1, -0.3),$$\n\n"
        "$$W_2 = \\begin{pmatrix} 0.4 & -0.6 & 0.2 \\\\ 0.7 & 0.3 & -0.5 \\end{pmatrix}, \\quad b_2 = (0.05, 0, -0.1).$$\n\n"
        f"$$\\operatorname{{LayerNorm}}(x_1) = ({_row(ln)})$$\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert sum(f.status == "ok" for f in report.findings if f.line == 7) == 3


def test_mean_of_squares_and_the_rms_of_a_token() -> None:
    """``mean(x^2)``, ``RMS = sqrt(mean(x^2) + eps)`` and a bare ``RMS`` of the token a section
    names, in an RMSNorm document; ẑ-style names (``z_hat``) are the normalised row."""
    x = [mpmath.mpf(12) / 10, mpmath.mpf(-8) / 10, mpmath.mpf(5) / 10]
    mean = sum(v * v for v in x) / 3
    rms = mpmath.sqrt(mean + mpmath.mpf(10) ** -6)
    text = (
        "RMSNorm, eps = 1e-6\n\n    x = [1.2, -0.8, 0.5]\n\n"
        f"    mean(x^2) = {_round(mean, 4)}\n"
        f"    RMS = sqrt(mean(x^2) + eps) = {_round(rms, 6)}\n"
        f"    RMS = {_round(rms, 4)}\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert {_round(mean, 4), _round(rms, 6), _round(rms, 4)} <= {
        f.claimed for f in report.findings if f.status == "ok"
    }
    slipped = verify_text(
        text.replace(f"RMS = {_round(rms, 4)}", f"RMS = {_round(rms + mpmath.mpf(2) / 1000, 4)}")
    )
    assert [f.line for f in slipped.wrong] == [7]


def test_a_row_printed_after_squaring_claims_the_squares() -> None:
    x = [mpmath.mpf(v) / 10 for v in (12, 4, 20, 8)]
    mu = sum(x) / 4
    dev = [v - mu for v in x]
    text = (
        "LayerNorm of one token, $x = [1.2, 0.4, 2, 0.8]$, $\\epsilon = 10^{-5}$.\n\n"
        f"Subtracting the mean gives $x - \\mu = [{_row(dev, 2)}]$, and squaring:\n"
        f"$[{_row([d * d for d in dev], 4)}]$.\n"
    )
    report = verify_text(text)
    assert report.wrong == () and sum(f.status == "ok" for f in report.findings if f.line == 4) == 4
    slipped = text.replace(_round(dev[0] ** 2, 4), _round(dev[0] ** 2 + mpmath.mpf(1) / 100, 4), 1)
    assert [f.line for f in verify_text(slipped).wrong] == [4]


def test_a_printed_encoding_under_another_name_is_the_encoding() -> None:
    """``E = [[0.0000, 1.0000], [0.8415, 0.5403]]`` in a document about sinusoidal positions is
    the PE, rounded: X + E is judged against the exact sums (its right 4-place sums were called
    off when E was taken as exact data)."""
    pe = [_pe(p, 2) for p in range(2)]
    x = [[mpmath.mpf(3) / 10, mpmath.mpf(-4) / 10], [mpmath.mpf(-2) / 10, mpmath.mpf(6) / 10]]
    h = [[a + b for a, b in zip(r, s, strict=True)] for r, s in zip(x, pe, strict=True)]
    z = [[h[i][0] * mpmath.mpf(1) / 2 + h[i][1] + mpmath.mpf(1) / 10] for i in range(2)]

    def bmatrix(rows: list[list[mpmath.mpf]]) -> str:
        return " \\\\ ".join(" & ".join(_round(v, 4) for v in r) for r in rows)

    text = (
        "Positions from 0, $E_{pos} = [\\sin(pos), \\cos(pos)]$.\n\n"
        "$$X = \\begin{bmatrix} 0.3 & -0.4 \\\\ -0.2 & 0.6 \\end{bmatrix}, \\quad "
        "W = \\begin{bmatrix} 0.5 \\\\ 1 \\end{bmatrix}, \\quad b = [0.1]$$\n\n"
        f"$$E = \\begin{{bmatrix}} {bmatrix(pe)} \\end{{bmatrix}}, \\quad "
        f"H = X + E = \\begin{{bmatrix}} {bmatrix(h)} \\end{{bmatrix}}$$\n\n"
        f"$$Z = H W + b = \\begin{{bmatrix}} {bmatrix(z)} \\end{{bmatrix}}$$\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert sum(f.status == "ok" for f in report.findings if f.line == 5) >= 8


def test_a_stated_base_and_an_entry_computed_with_the_papers() -> None:
    """``100^{2k/4}`` states the base 100; one entry computed with 10000 is named so, and a
    framed answer (``\\fbox{$X + P = …$}``) is read."""
    pe = [_pe(p, 4) for p in range(3)]
    pe100 = [
        [
            mpmath.sin(p / mpmath.power(100, mpmath.mpf(2 * (j // 2)) / 4))
            if j % 2 == 0
            else mpmath.cos(p / mpmath.power(100, mpmath.mpf(2 * (j // 2)) / 4))
            for j in range(4)
        ]
        for p in range(3)
    ]
    printed = [row[:] for row in pe100]
    printed[2][2] = pe[2][2]  # sin(2/100) instead of sin(2/10)
    rows = " \\\\ ".join(" & ".join(_round(v, 4) for v in r) for r in printed)
    text = (
        "Sinusoidal encodings with the base 100: $P_{t,2k} = \\sin(t / 100^{2k/4})$, "
        "$P_{t,2k+1} = \\cos(t / 100^{2k/4})$, positions $t = 0, 1, 2$, interleaved.\n\n"
        f"\\[ P = \\left(\\begin{{array}}{{rrrr}} {rows} \\end{{array}}\\right) \\]\n\n"
        f"\\[ \\fbox{{$P = \\left(\\begin{{array}}{{rrrr}} {rows} \\end{{array}}\\right)$}} \\]\n"
    )
    report = verify_text(text, tex=True)
    first = [f for f in report.wrong if f.line == 3]
    assert [(f.claimed, f.kind, f.fits) for f in first] == [(_round(pe[2][2], 4), "convention", "base 10000")]
    assert any(f.line == 5 and f.status == "ok" for f in report.findings)  # the framed restatement is read


def test_for_x1_names_row_1() -> None:
    from symattn.verify.stated import row_named

    assert (row_named("Spelled out for x1: "), row_named("For $x_2$:"), row_named("for x 2.5")) == (
        1,
        2,
        None,
    )


def test_a_rounded_printout_of_a_function_the_reader_cannot_follow_is_not_held_exact() -> None:
    """``A = gelu_tanh(H)`` (a function of the notebook's own) then ``print(np.round(A, 4))``:
    A is known only to 4 places, so ``A @ W2 + b2`` printed from the unrounded A is not a slip
    (the products are from mpmath on A's unrounded values)."""
    a = [[mpmath.mpf("-0.134778"), mpmath.mpf("-0.162337")], [mpmath.mpf("0.562652"), mpmath.mpf("0.100143")]]
    W2 = [
        [1, mpmath.mpf(-5) / 10, mpmath.mpf(3) / 10],
        [mpmath.mpf(4) / 10, mpmath.mpf(8) / 10, mpmath.mpf(-6) / 10],
    ]
    b2 = [0, mpmath.mpf(5) / 100, mpmath.mpf(-1) / 10]
    y = [[sum(r[k] * W2[k][j] for k in range(2)) + b2[j] for j in range(3)] for r in a]

    def printed(rows: list[list[mpmath.mpf]]) -> str:
        return "[" + "\n ".join("[" + " ".join(_round(v, 4) for v in r) + "]" for r in rows) + "]"

    text = (
        "LayerNorm, then an FFN with GELU (tanh approximation), in NumPy.\n\n"
        "```python\nW2 = np.array([[1.0, -0.5, 0.3], [0.4, 0.8, -0.6]])\nb2 = np.array([0.0, 0.05, -0.1])\n"
        "def gelu_tanh(t):\n    return 0.5 * t * (1 + np.tanh(np.sqrt(2 / np.pi) * (t + 0.044715 * t**3)))\n\n"
        "A = gelu_tanh(H)\nprint(np.round(A, 4))\nY = A @ W2 + b2\nprint(np.round(Y, 4))\n```\n\n"
        f"```\n{printed(a)}\n{printed(y)}\n```\n"
    )
    assert verify_text(text).wrong == ()


def test_mean_in_an_rmsnorm_document_is_not_read_as_mu() -> None:
    text = (
        "RMSNorm homework, gamma = (0.8, 1.2), eps = 1e-6.\n\n"
        "    r2 = (1.2, 1.2)\n\n"
        "token 2: r2^2 = (1.44, 1.44), sum = 2.88, mean = 1.4400\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    mean = next(f for f in report.findings if f.claimed == "1.4400")
    assert mean.status == "unverified"


# --- the h_8_ round ----------------------------------------------------------------------------


def _ln(row: list[mpmath.mpf], *, ddof: int = 0, eps: str = "1e-5") -> list[mpmath.mpf]:
    mu = sum(row) / len(row)
    var = sum((v - mu) ** 2 for v in row) / (len(row) - ddof)
    return [(v - mu) / mpmath.sqrt(var + mpmath.mpf(eps)) for v in row]


def _given_sublayer_document(slip: bool) -> str:
    H = [[mpmath.mpf(v) for v in row] for row in (["0.5", "1.5", "-1"], ["2", "-1", "0.25"])]
    S = [[mpmath.mpf(v) for v in row] for row in (["0.25", "-0.5", "0.1"], ["0.1", "0.3", "-0.6"])]
    R = [[h + s for h, s in zip(rh, rs, strict=True)] for rh, rs in zip(H, S, strict=True)]
    printed = [[_round(v, 2) for v in row] for row in R]
    if slip:
        printed[1][0] = "2.30"  # 2.10
    mu2 = sum(R[1]) / 3
    var2 = sum((v - mu2) ** 2 for v in R[1]) / 3
    out = [_ln(row) for row in R]

    def bmatrix(rows: list[list[str]]) -> str:
        return "\\begin{bmatrix} " + " \\\\ ".join(" & ".join(r) for r in rows) + " \\end{bmatrix}"

    return (
        "Post-norm: $\\mathrm{out} = \\mathrm{LayerNorm}(H + \\mathrm{Sublayer}(H))$, population variance, "
        "$\\epsilon = 10^{-5}$.\n\n"
        f"$$H = {bmatrix([['0.5', '1.5', '-1'], ['2', '-1', '0.25']])}$$\n\n"
        "I take the attention output as given:\n\n"
        f"$$\\mathrm{{Sublayer}}(H) = {bmatrix([['0.25', '-0.5', '0.1'], ['0.1', '0.3', '-0.6']])}$$\n\n"
        f"$$H + \\mathrm{{Sublayer}}(H) = {bmatrix(printed)}$$\n\n"
        f"**Row 2.** $\\mu = {_round(mu2, 4)}$, $\\sigma^2 = {_round(var2, 4)}$.\n\n"
        f"$$\\mathrm{{LayerNorm}}(H + \\mathrm{{Sublayer}}(H)) \\approx {bmatrix([[_round(v, 4) for v in r] for r in out])}$$\n"
    )


def test_a_sublayer_given_as_numbers_makes_the_residual_sum_and_its_norm_checkable() -> None:
    """``Sublayer(H) = [numbers]`` is an input: the residual sum and the norm of it are judged,
    and a bare μ is the sum's (before, the norm was taken of H: 3 false alarms)."""
    report = verify_text(_given_sublayer_document(slip=False))
    assert report.wrong == ()
    judged = {f.claimed for f in report.findings if f.status == "ok"}
    assert {"2.10", "-0.70", "-0.35"} <= judged  # the residual sum, by H and the given sublayer
    assert sum(f.status == "ok" and f.line == 11 for f in report.findings) == 2  # row 2's μ and σ²
    sublayer = [f for f in report.findings if f.line == 7]
    assert sublayer and all((f.status, f.kind) == ("unverified", "input") for f in sublayer)


def test_a_slip_in_the_residual_sum_is_found() -> None:
    report = verify_text(_given_sublayer_document(slip=True))
    slip = next(f for f in report.wrong if f.claimed == "2.30")
    assert slip.line == 9 and slip.kind in ("wrong", "slip")


def test_a_label_line_names_the_row_of_a_formula_inside_a_line_of_prose() -> None:
    """``第 2 个 token：`` above ``平方：…，均方 mean(r^2) = …``: token 2's r (before, the row named
    for the formula before it was kept: token 1's, and a right mean was called off)."""
    r1, r2 = [mpmath.mpf("1.2"), mpmath.mpf("-0.4")], [mpmath.mpf("0.5"), mpmath.mpf("1.5")]
    ms1, ms2 = (sum(v * v for v in r) / 2 for r in (r1, r2))
    text = (
        "RMSNorm 不减均值：y = r / sqrt(mean(r^2) + eps) * gamma，eps = 1e-6，gamma = [1, 1]。\n\n"
        "  r1 = [1.2, -0.4]\n  r2 = [0.5, 1.5]\n\n"
        f"  第 1 个 token：\n     RMS = {_round(mpmath.sqrt(ms1 + mpmath.mpf('1e-6')), 6)}\n"
        f"     平方：1.44，0.16，均方 mean(r^2) = {_round(ms1, 4)}\n\n"
        f"  第 2 个 token：\n     平方：0.25，2.25，均方 mean(r^2) = {_round(ms2, 4)}\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert {f.claimed for f in report.findings if f.status == "ok"} >= {_round(ms1, 4), _round(ms2, 4)}


def test_a_printed_mu_of_row_1_is_not_row_2s() -> None:
    text = (
        "LayerNorm of each row of S, population variance, $\\epsilon = 10^{-5}$.\n\n"
        "$$S = \\begin{bmatrix} 1 & 2 & 3 & 6 \\\\ 0.5 & 0.5 & 1 & 2 \\end{bmatrix}$$\n\n"
        "**Row 1.** $\\mu = 12 / 4 = 3$, $\\sigma^2 = 3.5$.\n\n"
        "**Row 2.** $\\mu = 4 / 4 = 1$, $\\sigma^2 = 0.375$.\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    ok = [f.claimed for f in report.findings if f.status == "ok" and f.line == 7]
    assert ok[-2:] == ["1", "0.375"]


def test_an_ffn_after_a_norm_of_another_convention_is_carried_from_it() -> None:
    """LN(x) by the sample variance under σ² = (1/d)Σ, then z W_1 + b_1 of z = LN(x): computed
    from the unrounded sample-variance row, so carried (from the rounded printout it was one
    digit off, and called a fresh slip)."""
    x = [mpmath.mpf(v) for v in ("0.5", "1.9", "-0.7")]
    sample = _ln(x, ddof=1)
    W1 = [[mpmath.mpf(v) for v in row] for row in (["0.4", "-0.6"], ["0.2", "0.5"], ["-0.3", "0.1"])]
    b1 = [mpmath.mpf("0.1"), mpmath.mpf(0)]
    hidden = [sum(sample[k] * W1[k][j] for k in range(3)) + b1[j] for j in range(2)]
    text = (
        "\\documentclass{article}\n\\begin{document}\n"
        "LayerNorm with $\\sigma^2 = \\frac{1}{d}\\sum_j (x_j - \\mu)^2$ and $\\epsilon = 10^{-5}$, no "
        "$\\gamma$, $\\beta$. Take $x = (0.5, 1.9, -0.7)$:\n"
        f"\\[ \\mathrm{{LN}}(x) = ({_row(sample)}). \\]\n"
        "With $W_1 = \\begin{pmatrix} 0.4 & -0.6 \\\\ 0.2 & 0.5 \\\\ -0.3 & 0.1 \\end{pmatrix}$, "
        "$b_1 = (0.1, 0)$ and $z = \\mathrm{LN}(x)$:\n"
        f"\\[ z W_1 + b_1 = ({_row(hidden)}). \\]\n\\end{{document}}\n"
    )
    report = verify_text(text, tex=True)
    lines = text.splitlines()
    norm_line = next(i for i, line in enumerate(lines, 1) if "LN}(x) = (" in line)
    hidden_line = next(i for i, line in enumerate(lines, 1) if "z W_1 + b_1 =" in line)
    norm = [f for f in report.wrong if f.line == norm_line]
    assert len(norm) == 3 and all(f.fits == "sample variance" for f in norm)
    after = [f for f in report.wrong if f.line == hidden_line]
    assert len(after) == 2 and all((f.kind, f.carried_from) == ("carried", norm_line) for f in after)


def test_mean_of_squares_printed_exactly_is_not_widened() -> None:
    """``x^2 = [1.44, 0.64, 0.25, 0.6724]`` are the exact squares: mean(x^2) = 0.7502 (the
    variance) is off, not within the rounding of two-place numbers."""
    x = [mpmath.mpf(v) for v in ("1.2", "-0.8", "0.5", "-0.82")]
    mean_square = sum(v * v for v in x) / 4
    text = (
        "RMSNorm, d = 4, eps = 1e-6, gamma = [1, 1, 1, 1]\n  token1  x = [1.2, -0.8, 0.5, -0.82]\n\n"
        "token1:\n  x^2 = [1.44, 0.64, 0.25, 0.6724]\n  mean(x^2) = {}\n"
    )
    assert _round(mean_square, 4) == "0.7506"
    wrong = verify_text(text.format("0.7502")).wrong
    assert [(f.claimed, f.kind) for f in wrong] == [("0.7502", "wrong")]
    assert verify_text(text.format("0.7506")).wrong == ()


def test_a_root_of_a_large_radicand_is_built_structurally() -> None:
    """σ² of a row of sines under a root: SymPy's root would ask whether the radicand is
    positive and run evalf on all of it (a minute for h_8_'s encoder notes); block.root keeps it."""
    import sympy

    from symattn import block

    radicand = sympy.Add(*(sympy.sin(sympy.Rational(k, 7)) ** 2 for k in range(1, 30)), evaluate=False)
    built = block.root(radicand)
    assert built.func is sympy.Pow and built.args == (radicand, sympy.Rational(1, 2))
    assert block.root(sympy.Rational(9, 4)) == sympy.Rational(3, 2)


# --- the h_9_ round, and tables of per-token statistics ------------------------------------------


def _rms(row: list[mpmath.mpf], eps: str) -> mpmath.mpf:
    return mpmath.sqrt(sum(v * v for v in row) / len(row) + mpmath.mpf(eps))


def _rms_table(eps_left_out_for_token_2: bool) -> tuple[str, list[mpmath.mpf]]:
    gamma = [mpmath.mpf("1.5"), mpmath.mpf("0.5")]
    xs = [[mpmath.mpf("1.2"), mpmath.mpf("-0.8")], [mpmath.mpf("0.3"), mpmath.mpf("-0.1")]]
    lines = []
    for k, x in enumerate(xs, start=1):
        rms = _rms(x, "0" if eps_left_out_for_token_2 and k == 2 else "0.01")
        y = [g * v / rms for g, v in zip(gamma, x, strict=True)]
        ms = sum(v * v for v in x) / 2
        lines.append(
            f"   x{k}      {_round(ms, 3)}   {_round(rms, 3)}   ({_round(y[0], 3)}, {_round(y[1], 3)})"
        )
    text = (
        "RMSNorm notes. rms(x) = sqrt( (x_1^2 + ... + x_d^2) / d + eps ),  y_j = gamma_j * x_j / rms(x)\n\n"
        "   gamma = (1.5, 0.5),  eps = 0.01\n\n       x1 = ( 1.2, -0.8)\n       x2 = ( 0.3, -0.1)\n\n"
        "   token   mean    rms     y\n   -----   -----   -----   --------------\n" + "\n".join(lines) + "\n"
    )
    return text, [_rms(x, "0.01") for x in xs]


def test_a_table_aligned_with_spaces_is_read_row_by_row() -> None:
    text, _ = _rms_table(eps_left_out_for_token_2=False)
    report = verify_text(text)
    assert report.wrong == ()
    table = [f for f in report.findings if f.line >= 10]
    assert len(table) == 8 and all(f.status == "ok" for f in table)  # mean, rms and y of both tokens
    assert len({(f.line, f.column) for f in report.findings}) == len(report.findings)  # each read once


def test_an_rms_without_eps_in_an_aligned_table_is_named_so() -> None:
    text, truth = _rms_table(eps_left_out_for_token_2=True)
    report = verify_text(text)
    token2 = [f for f in report.wrong if f.line == 11]
    assert len(token2) == 3 and all(f.fits == "eps = 0" for f in token2)  # its rms and both of y
    assert next(f for f in token2 if f.column == 20).claimed != _round(truth[1], 3)
    assert not [f for f in report.wrong if f.line != 11]


def test_a_markdown_table_of_layer_norm_statistics() -> None:
    xs = [[mpmath.mpf(v) for v in row] for row in (["1", "2", "3", "6"], ["0.5", "0.5", "1", "2"])]
    rows = []
    for k, x in enumerate(xs, start=1):
        mu = sum(x) / 4
        var = sum((v - mu) ** 2 for v in x) / 4
        rows.append(f"| x{k} | {_round(mu, 4)} | {_round(var, 4)} |")
    rows[1] = rows[1].replace("0.3750", "0.3570")  # a transposed digit
    text = (
        "LayerNorm of two tokens, population variance, $\\epsilon = 10^{-5}$.\n\n"
        "$x_1 = [1, 2, 3, 6]$ and $x_2 = [0.5, 0.5, 1, 2]$.\n\n"
        "| token | $\\mu$ | $\\sigma^2$ |\n|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    report = verify_text(text)
    assert [(f.claimed, f.line) for f in report.wrong] == [("0.3570", 8)]
    assert sum(f.status == "ok" for f in report.findings if f.line in (7, 8)) == 3


def test_a_tabular_pe_table_with_chinese_headers_computed_from_position_1() -> None:
    rows = [_pe(p + 1, 4) for p in range(3)]  # the text says positions start at 0
    body = " \\\\\n".join(f"{p} & " + " & ".join(_round(v, 4) for v in row) for p, row in enumerate(rows))
    text = (
        "\\documentclass{article}\n\\usepackage{ctex}\n\\begin{document}\n"
        "设 $d_{\\text{model}} = 4$，正弦位置编码，位置从 0 开始编号。\n"
        "\\begin{tabular}{c|cccc}\n$pos$ & 维 0 & 维 1 & 维 2 & 维 3 \\\\\n\\hline\n" + body + " \\\\\n"
        "\\end{tabular}\n\\end{document}\n"
    )
    report = verify_text(text, tex=True)
    assert report.wrong and all(f.fits == "positions from 1" for f in report.wrong)


def test_a_stage_applied_is_the_stage_after_its_name_was_bound() -> None:
    """``FFN = [...]`` printed for token 1, then ``y2 = x2 + FFN(RMSNorm(x2))``: FFN( ) is the
    feed-forward stage, not a product with token 1's vector (3 false alarms before)."""
    x1, x2 = [mpmath.mpf(v) for v in ("0.7", "-1.1")], [mpmath.mpf(v) for v in ("-0.3", "0.8")]
    W1 = [[mpmath.mpf("0.5"), mpmath.mpf("-0.6")], [mpmath.mpf("-0.3"), mpmath.mpf("0.4")]]
    b1 = [mpmath.mpf("0.1"), mpmath.mpf("-0.05")]
    W2 = [[mpmath.mpf("0.6"), mpmath.mpf("-0.2")], [mpmath.mpf("-0.5"), mpmath.mpf("0.7")]]
    b2 = [mpmath.mpf("0.02"), mpmath.mpf(0)]

    def ffn(n: list[mpmath.mpf]) -> list[mpmath.mpf]:
        h = [max(0, sum(n[k] * W1[k][j] for k in range(2)) + b1[j]) for j in range(2)]
        return [sum(h[k] * W2[k][j] for k in range(2)) + b2[j] for j in range(2)]

    def norm(x: list[mpmath.mpf]) -> list[mpmath.mpf]:
        return [v / _rms(x, "1e-6") for v in x]

    f1, f2 = ffn(norm(x1)), ffn(norm(x2))
    y2 = [a + b for a, b in zip(x2, f2, strict=True)]
    text = (
        "Pre-norm block y = x + FFN(RMSNorm(x)), RMSNorm with gamma = [1, 1], eps = 1e-6, ReLU FFN:\n"
        "W1 = [[0.5, -0.6], [-0.3, 0.4]], b1 = [0.1, -0.05], W2 = [[0.6, -0.2], [-0.5, 0.7]], b2 = [0.02, 0]\n\n"
        "    x1 = [0.7, -1.1]\n    x2 = [-0.3, 0.8]\n\n"
        f"token 1: FFN = [{_row(f1, 3)}]\ntoken 2: FFN = [{_row(f2, 3)}]\n\n"
        f"  y2 = [{_row(y2, 3)}]\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    assert all(f.status == "ok" for f in report.findings if f.line == 9)


def test_pe_of_a_position_after_a_printed_table_is_the_tables_row() -> None:
    """``x_1 + PE(1)`` after a PE table computed from position 1: computed from the table's row
    (carried from it, with its convention), not from the true encoding (a fresh slip)."""
    rows = [_pe(p + 1, 4) for p in range(3)]
    x1 = [mpmath.mpf(v) for v in ("0.2", "-0.3", "0.1", "0.4")]
    summed = [a + b for a, b in zip(x1, rows[1], strict=True)]
    body = " \\\\ ".join(" & ".join(_round(v, 4) for v in row) for row in rows)
    text = (
        "Sinusoidal PE, $d_{model} = 4$, positions from 0 (the first token has $pos = 0$).\n\n"
        f"$$PE = \\begin{{bmatrix}} {body} \\end{{bmatrix}}$$\n\n"
        "$$x_1 = (0.2, -0.3, 0.1, 0.4)$$\n\n"
        f"$$x_1 + PE(1) = ({_row(summed)})$$\n"
    )
    report = verify_text(text)
    after = [f for f in report.wrong if f.line == 7]
    assert after and all(f.kind == "carried" and f.carried_from == 3 for f in after)


def test_the_gelu_form_a_document_says_it_uses_wins_over_one_it_compares_with() -> None:
    """A heading "GELU（tanh 近似）" and a side note on the exact form: the tanh form is the
    document's, so GELU(1) printed with the erf form's value is off (mpmath for both)."""
    one = mpmath.mpf(1)
    tanh_form = one / 2 * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (one + mpmath.mpf("0.044715"))))
    erf_form = one / 2 * (1 + mpmath.erf(one / mpmath.sqrt(2)))
    assert _round(tanh_form, 4) != _round(erf_form, 4)
    text = (
        "二、GELU（tanh 近似）\n\n  GELU(x) ≈ 0.5 * x * (1 + tanh( sqrt(2/pi) * (x + 0.044715 * x^3) ))\n\n"
        "  GELU(1) ≈ {}\n\n（精确版 GELU(x) = x * Φ(x)，和近似版只差一点点）\n"
    )
    assert stated_conventions(text).gelu == "tanh"
    assert [f.claimed for f in verify_text(text.format(_round(erf_form, 4))).wrong] == [_round(erf_form, 4)]
    assert verify_text(text.format(_round(tanh_form, 4))).wrong == ()
    denied = "这里用 GELU 的精确 erf 形式，不用 tanh 近似。"
    assert stated_conventions(denied + " tanh").gelu == "erf"


def test_an_ffn_of_a_row_given_only_rounded_is_judged_on_intervals() -> None:
    """``FFN(n) ≈ [...]`` with n ≈ a rounded row: the FFN of every point of n's rounding
    interval (arb balls through the document's weights and GELU) decides a copy slip, where
    the exact check could only say "undecided"."""
    n = [mpmath.mpf(v) for v in ("-0.4780", "1.2483")]
    W1 = [[mpmath.mpf("0.4"), mpmath.mpf("-0.3")], [mpmath.mpf("-0.2"), mpmath.mpf("0.5")]]
    b1 = [mpmath.mpf("0.05"), mpmath.mpf("-0.1")]
    W2 = [[mpmath.mpf("0.7"), mpmath.mpf("-0.2")], [mpmath.mpf("-0.4"), mpmath.mpf("0.6")]]

    def gelu_tanh(t: mpmath.mpf) -> mpmath.mpf:
        return t / 2 * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (t + mpmath.mpf("0.044715") * t**3)))

    hidden = [gelu_tanh(sum(n[k] * W1[k][j] for k in range(2)) + b1[j]) for j in range(2)]
    out = [sum(hidden[k] * W2[k][j] for k in range(2)) for j in range(2)]
    text = (
        "FFN(x) = GELU(x W1 + b1) W2, with GELU in its tanh approximation, after a LayerNorm.\n\n"
        "    W1 = [[0.4, -0.3], [-0.2, 0.5]]\n    b1 = [0.05, -0.1]\n    W2 = [[0.7, -0.2], [-0.4, 0.6]]\n\n"
        "From the printout, n ≈ [-0.4780, 1.2483], so FFN(n) ≈ [{}, {}].\n"
    )
    right = text.format(_round(out[0], 4), _round(out[1], 4))
    assert verify_text(right).wrong == ()
    slipped = _round(out[1] + mpmath.mpf("0.006"), 4)
    report = verify_text(text.format(_round(out[0], 4), slipped))
    assert [f.claimed for f in report.wrong] == [slipped]


def test_gamma_odot_x_hat_is_entry_by_entry() -> None:
    """``y = γ ⊙ x̂ + β`` (the Hadamard product): entry by entry, not a dot product."""
    x = [mpmath.mpf(v) for v in ("1.2", "-0.4", "0.6")]
    gamma, beta = [mpmath.mpf(v) for v in ("1.5", "0.5", "2")], [mpmath.mpf(v) for v in ("0.1", "0", "-0.2")]
    hat = _ln(x)
    y = [g * h + b for g, h, b in zip(gamma, hat, beta, strict=True)]
    text = (
        "LayerNorm of one token, $\\epsilon = 10^{-5}$, $\\gamma = (1.5, 0.5, 2)$, $\\beta = (0.1, 0, -0.2)$, "
        "$x = (1.2, -0.4, 0.6)$.\n\n"
        f"- $\\hat{{x}} \\approx ({_row(hat)})$\n- $y = \\gamma \\odot \\hat{{x}} + \\beta \\approx (Y)$\n"
    )
    assert verify_text(text.replace("Y", _row(y))).wrong == ()
    off = [y[0], y[1] + mpmath.mpf("0.01"), y[2]]
    assert [f.claimed for f in verify_text(text.replace("Y", _row(off))).wrong] == [_round(off[1], 4)]


def test_a_given_matrix_copied_into_a_product_with_one_slip_blames_the_copy() -> None:
    """``A·[[1, 0], [0, 2], [1, 1]] = [...]`` after V = [[1, 0], [0, 1], [1, 1]]: the copy has a
    slip (the 2), and the product, right by V, is not called off (it was, cell by cell)."""
    text = (
        "$$A = \\begin{bmatrix} 0.5 & 0.25 & 0.25 \\\\ 0.2 & 0.4 & 0.4 \\end{bmatrix}, \\quad "
        "V = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$$\n\n"
        "$$A V = \\begin{bmatrix} 0.5 & 0.25 & 0.25 \\\\ 0.2 & 0.4 & 0.4 \\end{bmatrix}"
        "\\begin{bmatrix} 1 & 0 \\\\ 0 & 2 \\\\ 1 & 1 \\end{bmatrix} = "
        "\\begin{bmatrix} 0.75 & 0.5 \\\\ 0.6 & 0.8 \\end{bmatrix}$$\n"
    )
    wrong = verify_text(text).wrong
    assert [(f.claimed, f.column) for f in wrong] == [("2", text.splitlines()[2].index("0 & 2") + 5)]


def test_a_part_label_is_not_a_factor() -> None:
    """``(c)  y1 = (0.8 * 0.9 / 0.8, …)``: the homework's part label, not c times y1."""
    text = "RMSNorm homework.\n\n(c)  y1 = (0.8 * 0.9 / 0.8, 1.2 * 0.5 / 0.8)\n\n     y1 = (0.9, 0.75)\n"
    report = verify_text(text)
    assert report.wrong == ()
    assert not any("c is not defined" in f.reason for f in report.findings)


def test_a_computed_row_printed_exactly_keeps_its_exact_statistics() -> None:
    """r = x + s = (0.45, 0.31) is exact, so σ² = 0.0049 is too: √(σ² + ε) = √0.0049 = 0.07000 is
    ε left out (true 0.07007), not a rounding of σ² printed at 4 places."""
    r = [mpmath.mpf("0.45"), mpmath.mpf("0.31")]
    mu = sum(r) / 2
    var = sum((v - mu) ** 2 for v in r) / 2
    eps = mpmath.mpf("1e-5")
    assert _round(var, 4) == "0.0049" and _round(mpmath.sqrt(var + eps), 5) != "0.07000"
    text = (
        "LayerNorm with $\\epsilon = 10^{-5}$ of the residual sum, $\\gamma = 1$, $\\beta = 0$.\n\n"
        "$$x = (0.2, 0.4), \\quad s = (0.25, -0.09)$$\n\n$$r = x + s = (0.45, 0.31)$$\n\n"
        f"$\\mu = {_round(mu, 2)}$, $\\sigma^2 = {_round(var, 4)}$, "
        f"$\\sqrt{{\\sigma^2 + \\epsilon}} = \\sqrt{{{_round(var, 4)}}} = {_round(mpmath.sqrt(var), 5)}$\n\n"
        f"$$\\mathrm{{LN}}(r) = ({_row([(v - mu) / mpmath.sqrt(var) for v in r])})$$\n"
    )
    wrong = verify_text(text).wrong
    assert [f.claimed for f in wrong] == ["0.07000", "1.0000", "-1.0000"]
    assert all(f.fits == "eps = 0" for f in wrong)


def test_a_vector_of_arithmetic_on_results_is_a_computation() -> None:
    """``y1 = (1.5 * 0.8 / 0.6325, …)`` after rms(r1) = 0.6325 computes y1 from the document's
    results; the final answer restating it is judged (one slip), not read as new data."""
    r, gamma, eps = [mpmath.mpf("0.8"), mpmath.mpf("-0.4")], [mpmath.mpf("1.5"), mpmath.mpf("0.5")], 1e-6
    rms = mpmath.sqrt(sum(v**2 for v in r) / 2 + mpmath.mpf(eps))
    y = [g * v / rms for g, v in zip(gamma, r, strict=True)]
    slip = _round(y[1], 4).replace("3162", "3126")
    assert slip != _round(y[1], 4) and _round(y[0], 4) == "1.8974"
    text = (
        "RMSNorm after a residual connection, gamma = (1.5, 0.5) and eps = 1e-6.\n\n"
        "    r1 = (0.8, -0.4)\n\n"
        f"(b) token 1: mean(r1^2) = 0.4, rms(r1) = sqrt(0.4 + 0.000001) = {_round(rms, 4)}\n"
        f"(c) y1 = (1.5 * 0.8 / {_round(rms, 4)}, 0.5 * -0.4 / {_round(rms, 4)})\n\n"
        f"    Final answer:\n\n        y1 = ({_round(y[0], 4)}, {slip})\n"
    )
    report = verify_text(text)
    assert [f.claimed for f in report.wrong] == [slip]
    assert next(f for f in report.findings if f.claimed == _round(y[0], 4)).status == "ok"


def test_a_step_that_leaves_out_a_term_is_the_root_when_its_value_is_used() -> None:
    """``u_11 = 0.83(0.5) − 0.31(−1.25) + 0.52(1.75) = 1.7125`` leaves out b_11 = 0.1 (true 1.8125):
    listed when read (either side may be right), wrong once ``max(0, u)`` uses 1.7125 as u_11,
    and that use is carried from it."""
    z = [mpmath.mpf("0.5"), mpmath.mpf("-1.25"), mpmath.mpf("1.75")]
    column = [mpmath.mpf("0.83"), mpmath.mpf("-0.31"), mpmath.mpf("0.52")]
    without = sum(a * b for a, b in zip(z, column, strict=True))
    true = without + mpmath.mpf("0.1")
    u12 = mpmath.mpf("0.1") - mpmath.mpf("0.5") - mpmath.mpf("0.175") - mpmath.mpf("0.2")
    text = (
        "\\documentclass{article}\n\\begin{document}\n"
        "The feed-forward layer after the layer norm. Take the normalised row $z = (0.5, -1.25, 1.75)$ and\n"
        "\\[ W_1 = \\begin{bmatrix} 0.83 & 0.2 \\\\ -0.31 & 0.4 \\\\ 0.52 & -0.1 \\end{bmatrix}, "
        "\\qquad b_1 = (0.1, -0.2). \\]\n"
        "Write $u = z W_1 + b_1$. Unit by unit,\n\\begin{align*}\n"
        f"u_{{11}} &= 0.83\\,(0.5) - 0.31\\,(-1.25) + 0.52\\,(1.75) = {_round(without, 4)}, \\\\\n"
        f"u_{{12}} &= {_round(u12, 3)} .\n\\end{{align*}}\n"
        f"The ReLU keeps the first unit: $\\max(0, u) = ({_round(without, 4)},\\ 0)$.\n\\end{{document}}\n"
    )
    assert _round(true, 4) != _round(without, 4)
    wrong = verify_text(text, tex=True).wrong
    assert [(f.line, f.kind, f.carried_from) for f in wrong] == [(7, "wrong", None), (10, "carried", 7)]


def test_tokens_numbered_from_zero_and_a_labelled_row_of_the_table() -> None:
    """ "token 0", "token 1" and rows x_0, x_1: "token 1" is the second row, and the z printed for
    token 0 is not token 1's (a control: every number right)."""
    X = [[mpmath.mpf(v) for v in row] for row in (("0.5", "1.5", "-0.5"), ("2.0", "0.4", "0.9"))]
    eps = mpmath.mpf("1e-5")

    def stats(x: list) -> tuple:
        mu = sum(x) / 3
        var = sum((v - mu) ** 2 for v in x) / 3
        return mu, var, mpmath.sqrt(var + eps), [(v - mu) / mpmath.sqrt(var + eps) for v in x]

    (mu0, var0, _, ln0), (mu1, var1, root1, ln1) = stats(X[0]), stats(X[1])
    text = (
        "# LayerNorm 逐个 token\n\n三个 token（从 0 开始编号），$\\epsilon = 10^{-5}$，不带 $\\gamma$、$\\beta$：\n\n"
        "| token | 维 0 | 维 1 | 维 2 |\n|---|---|---|---|\n| $x_0$ | 0.5 | 1.5 | -0.5 |\n"
        "| $x_1$ | 2.0 | 0.4 | 0.9 |\n\n"
        f"**token 0**：$z = (0.5, 1.5, -0.5)$，$\\mu = {_round(mu0, 1)}$，$\\sigma^2 \\approx {_round(var0, 4)}$，"
        f"$\\mathrm{{LN}}(z) = ({_row(ln0)})$。\n\n"
        f"**token 1**：$\\mu = {_round(mu1, 1)}$，$\\sigma^2 \\approx {_round(var1, 4)}$，"
        f"$\\sqrt{{\\sigma^2 + \\epsilon}} = {_round(root1, 4)}$，$\\mathrm{{LN}}(z) = ({_row(ln1)})$。\n"
    )
    report = verify_text(text)
    assert report.wrong == ()
    line = next(k for k, t in enumerate(text.splitlines(), 1) if t.startswith("**token 1**"))
    token1 = [f for f in report.findings if f.line == line and f.claimed in _row(ln1).split(", ")]
    assert len(token1) == 3 and all(f.status == "ok" for f in token1)


def test_an_ffn_written_with_column_vectors() -> None:
    """h = W_1 x + b_1 with W_1 of d_ff rows and tokens x^{(1)} as columns; units h_1, h_2, h_3
    by hand, one sign lost: the ReLU column a^{(1)}, FFN(x^{(1)}) and the residual are carried."""
    W1 = [[mpmath.mpf(v) for v in row] for row in (("0.4", "-0.2"), ("0.3", "0.5"), ("-0.6", "0.1"))]
    b1 = [mpmath.mpf("0.1"), mpmath.mpf("-0.35"), mpmath.mpf("0.2")]
    W2 = [[mpmath.mpf(v) for v in row] for row in (("0.5", "-0.3", "0.2"), ("0.1", "0.4", "-0.5"))]
    b2 = [mpmath.mpf("0.05"), mpmath.mpf("-0.1")]
    x = [mpmath.mpf("0.5"), mpmath.mpf("-0.25")]

    def ffn(h: list) -> list:
        a = [max(v, 0) for v in h]
        return [sum(W2[i][k] * a[k] for k in range(3)) + b2[i] for i in range(2)]

    h = [sum(W1[k][j] * x[j] for j in range(2)) + b1[k] for k in range(3)]
    assert h[1] < 0 < h[0] and h[2] < 0
    slipped = [h[0], -h[1], h[2]]  # the sign of h_2 lost
    printed = [_round(v, 4) for v in slipped]
    col = " \\\\ ".join
    text = (
        "\\documentclass{article}\n\\begin{document}\n"
        "Token vectors are columns, so the weights act from the left:\n"
        "\\[ \\mathbf{h} = W_1 \\mathbf{x} + \\mathbf{b}_1, \\quad \\mathbf{a} = \\mathrm{ReLU}(\\mathbf{h}) "
        "= \\max(0, \\mathbf{h}), \\quad \\mathrm{FFN}(\\mathbf{x}) = W_2 \\mathbf{a} + \\mathbf{b}_2 . \\]\n"
        "\\[ W_1 = \\begin{bmatrix} 0.4 & -0.2 \\\\ 0.3 & 0.5 \\\\ -0.6 & 0.1 \\end{bmatrix}, \\quad "
        "\\mathbf{b}_1 = \\begin{bmatrix} 0.1 \\\\ -0.35 \\\\ 0.2 \\end{bmatrix}, \\quad "
        "W_2 = \\begin{bmatrix} 0.5 & -0.3 & 0.2 \\\\ 0.1 & 0.4 & -0.5 \\end{bmatrix}, \\quad "
        "\\mathbf{b}_2 = \\begin{bmatrix} 0.05 \\\\ -0.1 \\end{bmatrix} \\]\n"
        "and the token $\\mathbf{x}^{(1)} = (0.5, -0.25)^\\top$.\n\\begin{align*}\n"
        f"h_1 &= (0.4)(0.5) + (-0.2)(-0.25) + 0.1 = {printed[0]}, \\\\\n"
        f"h_2 &= (0.3)(0.5) + (0.5)(-0.25) - 0.35 = {printed[1]}, \\\\\n"
        f"h_3 &= (-0.6)(0.5) + (0.1)(-0.25) + 0.2 = {printed[2]}.\n\\end{{align*}}\n"
        f"\\[ \\mathbf{{a}}^{{(1)}} = \\begin{{bmatrix}} {col(_round(max(v, 0), 4) for v in slipped)} \\end{{bmatrix}}, "
        f"\\quad \\mathrm{{FFN}}(\\mathbf{{x}}^{{(1)}}) = W_2 \\mathbf{{a}}^{{(1)}} + \\mathbf{{b}}_2 "
        f"\\approx \\begin{{bmatrix}} {col(_round(v, 4) for v in ffn(slipped))} \\end{{bmatrix}} \\]\n"
        "\\[ \\mathbf{x}^{(1)} + \\mathrm{FFN}(\\mathbf{x}^{(1)}) \\approx \\begin{bmatrix} "
        f"{col(_round(a + b, 4) for a, b in zip(x, ffn(slipped), strict=True))} \\end{{bmatrix}} \\]\n"
        "\\end{document}\n"
    )
    truths = [_round(v, 4) for v in (*ffn(h), *(a + b for a, b in zip(x, ffn(h), strict=True)))]
    report = verify_text(text, tex=True)
    line = next(k for k, t in enumerate(text.splitlines(), 1) if t.startswith("h_2"))
    root = next(f for f in report.wrong if f.claimed == printed[1] and f.line == line)
    assert root.kind == "slip"
    carried = [f for f in report.wrong if f is not root]
    assert carried and all(f.kind == "carried" and f.carried_from == line for f in carried)
    off = {f.claimed for f in carried}
    assert printed[1] in off and off & set(_round(v, 4) for v in ffn(slipped))
    assert not off & set(truths)  # only the numbers that differ from the truth


def test_a_step_written_with_guard_digits_is_the_side_before_within_their_rounding() -> None:
    """σ² = ((d_1)^2 + …)/3 with each deviation printed to 8 places is σ² written rounded: its
    numbers are checked; the same step with one deviation off by more than its rounding is not."""
    x = [mpmath.mpf(v) for v in ("1.2", "0.5", "-0.35")]
    mu = sum(x) / 3
    dev = [v - mu for v in x]
    var = sum(d**2 for d in dev) / 3
    printed = [_round(d, 8) for d in dev]
    assert any(mpmath.mpf(p) != d for p, d in zip(printed, dev, strict=True))  # rounded, not exact

    def text(devs: list[str]) -> str:
        squares = " + ".join(f"\\left({d}\\right)^2" for d in devs)
        return (
            "LayerNorm of one token, $\\epsilon = 10^{-5}$.\n\n$$x = (1.2, 0.5, -0.35)$$\n\n"
            f"$$\\sigma^2 = \\frac{{{squares}}}{{3}} \\approx {_round(var, 4)}$$\n"
        )

    steps = [f for f in verify_text(text(printed)).findings if f.claimed in printed]
    assert len(steps) == 3 and all(f.status == "ok" for f in steps)
    off = [printed[0][:-1] + str((int(printed[0][-1]) + 3) % 10), *printed[1:]]  # 3 units in the 8th place
    steps = [f for f in verify_text(text(off)).findings if f.claimed in off[:1]]
    assert steps and all(f.status == "unverified" for f in steps)


def test_a_chain_read_again_after_a_side_it_cannot_follow_defines_its_name() -> None:
    """``Z = N_2 W_1 + b_1 = [numbers] W_1 + b_1 ≈ [...]`` with N_2 never given: Z is what the
    numbers give, so ``ReLU(Z)`` after it is checked."""
    z = [
        mpmath.mpf("0.5") * 1 + mpmath.mpf("-0.25") * 2 + mpmath.mpf("0.1"),
        mpmath.mpf("0.5") * -1 + mpmath.mpf("0.1"),
    ]
    text = (
        "An FFN with ReLU.\n\n$$W_1 = \\begin{bmatrix} 1 & -1 \\\\ 2 & 0 \\end{bmatrix}, \\quad b_1 = (0.1, 0.1)$$\n\n"
        f"$$Z = N_2 W_1 + b_1 = (0.5, -0.25) W_1 + b_1 = ({_row(z, 2)})$$\n\n"
        f"$$\\mathrm{{ReLU}}(Z) = ({_row([max(v, 0) for v in z], 2)})$$\n"
    )
    relu = [f for f in verify_text(text).findings if f.line == 7]
    assert relu and all(f.status == "ok" for f in relu)
