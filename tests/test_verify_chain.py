"""verify/chain.py: printed steps identified as declared operations on the blocks before them.

True values come from fractions and mpmath here, never from symattn.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import mpmath
import pytest

from symattn.verify import verify_text
from symattn.verify.chain import MAX_CANDIDATES, OPS
from symattn.verify.explain import explain, printed_blocks

mpmath.mp.dps = 40

H = [["1.2", "2.1", "2.7"], ["0.5", "-0.6", "2.6"]]


def _r(x, places: int) -> str:
    """Half away from zero, from an mpf (the tests' own rounding)."""
    scaled = mpmath.floor(abs(x) * 10**places + mpmath.mpf(1) / 2)
    text = f"{int(scaled) // 10**places}.{int(scaled) % 10**places:0{places}d}"
    return ("-" if x < 0 and scaled else "") + text


def _layernorm(rows, eps="0"):
    out, means, stds = [], [], []
    for row in rows:
        x = [mpmath.mpf(v) for v in row]
        mu = sum(x) / len(x)
        var = sum((v - mu) ** 2 for v in x) / len(x)
        means.append(mu)
        stds.append(mpmath.sqrt(var))
        out.append([(v - mu) / mpmath.sqrt(var + mpmath.mpf(eps)) for v in x])
    return out, means, stds


def _addnorm_doc(ln_cells: list[list[str]], std: list[str]) -> str:
    _, means, _ = _layernorm(H)
    rows = r" \\ ".join(" & ".join(row) for row in ln_cells)
    return (
        "# Add & Norm by hand\n\n"
        "```python\n"
        "x = [[1.0, 2.0, 3.0], [0.5, -1.0, 2.5]]\n"
        "attn = [[0.2, 0.1, -0.3], [0.0, 0.4, 0.1]]\n"
        "```\n\n"
        "Residual sum and per-token statistics:\n\n"
        f"$$h = \\begin{{bmatrix}} {' & '.join(H[0])} \\\\ {' & '.join(H[1])} \\end{{bmatrix}}$$\n\n"
        f"$$\\mu = \\begin{{bmatrix}} {_r(means[0], 4)} & {_r(means[1], 4)} \\end{{bmatrix}}, \\quad "
        f"\\sigma = \\begin{{bmatrix}} {std[0]} & {std[1]} \\end{{bmatrix}}$$\n\n"
        "After normalisation:\n\n"
        f"$$\\hat h = \\begin{{bmatrix}} {rows} \\end{{bmatrix}}$$\n"
    )


def _right_cells():
    ln, _, stds = _layernorm(H)
    return [[_r(v, 4) for v in row] for row in ln], [_r(s, 4) for s in stds]


def test_a_residual_its_statistics_and_its_norm_are_each_identified_and_confirmed():
    cells, std = _right_cells()
    report = verify_text(_addnorm_doc(cells, std))
    assert not report.wrong
    reasons = {f.reason for f in report.findings if f.reason.startswith("identified by its digits")}
    assert any("A+B" in r for r in reasons)
    assert any("std (population variance)" in r for r in reasons)
    assert any(r.startswith("identified by its digits as LayerNorm") for r in reasons)
    assert sum(f.status == "ok" for f in report.findings) >= 6 + 2 + 2


def test_one_wrong_cell_of_a_norm_is_found_at_its_place_and_only_it():
    cells, std = _right_cells()
    assert cells[1][2] == "1.3308"
    cells[1][2] = "1.3380"
    doc = _addnorm_doc(cells, std)
    report = verify_text(doc)
    assert [(f.claimed, f.cell) for f in report.wrong] == [("1.3380", (2, 3))]
    line = doc.split("\n")[report.wrong[0].line - 1]
    assert line[report.wrong[0].column - 1 :].startswith("1.3380")


def test_a_sample_std_is_a_convention_the_digits_choose():
    _, _, stds = _layernorm(H)
    sample = [s * mpmath.sqrt(mpmath.mpf(3) / 2) for s in stds]
    cells, _ = _right_cells()
    report = verify_text(_addnorm_doc(cells, [_r(s, 4) for s in sample]))
    assert not report.wrong
    assert any("std (sample variance)" in f.reason for f in report.findings)


X = ["0.5", "-1.0", "2.0"]
W1 = [["0.1", "0.4", "-0.2", "0.3"], ["-0.3", "0.2", "0.1", "0.6"], ["0.25", "-0.5", "0.35", "0.15"]]
B1 = ["0.05", "0.1", "-0.15", "0.2"]


def _ffn_doc(hidden: list[str]) -> str:
    w1 = ", ".join("[" + ", ".join(row) + "]" for row in W1)
    return (
        "Feed-forward on one token:\n\n"
        "```python\n"
        f"x = np.array([[{', '.join(X)}]])\n"
        f"W1 = np.array([{w1}])\n"
        f"b1 = np.array([[{', '.join(B1)}]])\n"
        "```\n\n"
        "```\n"
        ">>> np.round(h, 4)\n"
        f"array([[{', '.join(hidden)}]])\n"
        "```\n"
    )


def _gelu_hidden() -> list[mpmath.mpf]:
    pre = [sum(Fraction(X[k]) * Fraction(W1[k][j]) for k in range(3)) + Fraction(B1[j]) for j in range(4)]
    assert pre == [Fraction(9, 10), Fraction(-9, 10), Fraction(7, 20), Fraction(1, 20)]
    out = []
    for v in pre:
        x = mpmath.mpf(v.numerator) / v.denominator
        out.append(x * (1 + mpmath.erf(x / mpmath.sqrt(2))) / 2)
    return out


def test_an_activation_of_a_linear_layer_printed_without_its_step_is_identified():
    printed = [_r(v, 4) for v in _gelu_hidden()]
    report = verify_text(_ffn_doc(printed))
    assert not report.wrong
    assert sum("GELU (erf) of A·W+b" in f.reason for f in report.findings) == 4, [
        f.reason for f in report.findings
    ]
    wrong = printed[:]
    wrong[2] = "0.2423"
    assert wrong[2] != printed[2]
    report = verify_text(_ffn_doc(wrong))
    assert [f.claimed for f in report.wrong] == ["0.2423"]


def test_an_operand_of_a_sum_written_out_is_not_judged_as_a_result():
    doc = "**[0.45, 0.32, 0.12, 0.99] + [0.00, 1.00, 0.00, 1.00] = [0.45, 1.32, 0.12, 1.99]**\n"
    blocks = printed_blocks(doc)
    assert [b.operand for b in blocks] == [True, True, False]


def test_a_product_of_rounded_weights_is_not_held_to_their_printed_digits():
    # the seed's third row: weights printed to 4 places; the outputs computed from the unrounded ones
    x = [[1, 0], [0, 1], [1, 1]]
    s = [
        [mpmath.mpf(sum(a * b for a, b in zip(x[i], x[j], strict=True))) / mpmath.sqrt(2) for j in range(3)]
        for i in range(3)
    ]
    a = [[mpmath.e**v / sum(mpmath.e**w for w in row) for v in row] for row in s]
    out = [[sum(a[i][k] * x[k][c] for k in range(3)) for c in range(2)] for i in range(3)]
    weights = [[_r(v, 4) for v in row] for row in a]
    outputs = [[_r(v, 4) for v in row] for row in out]
    assert weights[2] == ["0.2483", "0.2483", "0.5035"] and outputs[2] == ["0.7517", "0.7517"]
    rows = " \\\\ ".join(" & ".join(r) for r in outputs)
    doc = (
        "```python\n"
        f"weights = torch.tensor({[[float(w) for w in row] for row in weights]})\n"
        "V = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])\n"
        "```\n\n"
        f"$$O = \\begin{{pmatrix}} {rows} \\end{{pmatrix}}$$\n"
    )
    assert not verify_text(doc).wrong


def test_values_the_text_says_are_made_up_are_givens_and_a_sum_after_them_is_judged():
    doc = (
        "The embeddings (made up, one row per token):\n\n"
        "$$X = \\begin{bmatrix} 0.2 & -0.4 \\\\ -0.1 & 0.5 \\end{bmatrix}$$\n\n"
        "$$P = \\begin{bmatrix} 0 & 1 \\\\ 0.8415 & 0.5403 \\end{bmatrix}$$\n\n"
        "Add them entry by entry:\n\n"
        "$$H = X + P = \\begin{bmatrix} 0.2 & 0.6 \\\\ 0.7415 & 1.0403 \\end{bmatrix}$$\n"
    )
    findings, _ = explain(doc, [])
    assert not any(f.status == "wrong" for f in findings)
    bad = doc.replace("0.7415 & 1.0403", "0.7475 & 1.0403")
    report = verify_text(bad)
    assert [f.claimed for f in report.wrong] == ["0.7475"]


def test_the_candidates_are_counted_and_capped():
    rows = "\n".join(f"w{k} = [[{k}.5, 1.25], [0.75, {k}.25]]" for k in range(60))
    _, summary = explain(f"```python\n{rows}\n```\n", [])
    assert 0 < summary["candidates"] <= MAX_CANDIDATES


@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_each_operation_is_declared_once_with_its_conventions_and_words(op):
    from symattn.verify.words import OP_WORDS

    assert op.arity in (1, 2, 3) and (op.conventions or op.stated) and OP_WORDS[op.name]


SCORES = [["0.5530", "0.6123", "0.3896"], ["0.0271", "0.2272", "0.1394"], ["0.4198", "0.2406", "0.1581"]]


def _causal_softmax(rows):
    out = []
    for i, row in enumerate(rows):
        exps = [mpmath.e ** mpmath.mpf(v) for v in row[: i + 1]]
        out.append([e / sum(exps) for e in exps] + [mpmath.mpf(0)] * (len(row) - i - 1))
    return out


def _masked_doc(weights: list[list[str]]) -> str:
    masked = [[v if j <= i else "-inf" for j, v in enumerate(row)] for i, row in enumerate(SCORES)]

    def tensor(rows):
        return "tensor([[" + "],\n        [".join(", ".join(r) for r in rows) + "]])"

    return (
        "Raw scores of one head (random weights):\n\n"
        f"```\n{tensor(SCORES)}\n```\n\n"
        "After the causal mask:\n\n"
        f"```\n{tensor(masked)}\n```\n\n"
        "After softmax:\n\n"
        f"```\n{tensor(weights)}\n```\n"
    )


def test_masked_scores_printed_as_minus_inf_and_their_softmax_are_read():
    weights = [[_r(v, 4) for v in row] for row in _causal_softmax(SCORES)]
    assert weights[1][:2] == ["0.4501", "0.5499"] and weights[0][1] == "0.0000"
    doc = _masked_doc(weights)
    blocks = printed_blocks(doc)
    assert [sum(c.infinite for c in b.cells()) for b in blocks] == [0, -3, 0]
    report = verify_text(doc)
    assert not report.wrong
    ok = [f for f in report.findings if f.status == "ok" and "softmax" in f.reason]
    assert len(ok) == 9
    weights[2][1] = "0.3028"
    report = verify_text(_masked_doc(weights))
    assert [f.claimed for f in report.wrong] == ["0.3028"]


def test_a_batch_of_matrices_in_one_printout_is_one_block_each():
    doc = "tensor([[[0.1, 0.2], [0.3, 0.4]],\n\n        [[1.5, 2.5], [3.5, 4.5]]])\n"
    assert [[c.text for c in b.cells()] for b in printed_blocks(doc)] == [
        ["0.1", "0.2", "0.3", "0.4"],
        ["1.5", "2.5", "3.5", "4.5"],
    ]


def test_rows_printed_one_under_another_are_one_matrix_and_table_columns_are_vectors():
    doc = (
        "```\nW1 = [0.2, 0.1]\n     [0.1, 0.2]\n```\n\n"
        "| token | logit | p |\n|---|---|---|\n| a | 2.0 | 0.7311 |\n| b | 1.0 | 0.2689 |\n\n"
        "softmax(z / 1.0)  # [0.1, 0.9]\nsoftmax(z / 2.0)  # [0.3, 0.7]\n"
    )
    shapes = [(b.shape, [c.text for c in b.cells()]) for b in printed_blocks(doc)]
    assert shapes == [
        ((2, 2), ["0.2", "0.1", "0.1", "0.2"]),
        ((1, 2), ["2.0", "1.0"]),
        ((1, 2), ["0.7311", "0.2689"]),
        ((1, 2), ["0.1", "0.9"]),  # results in comments after code: one row each
        ((1, 2), ["0.3", "0.7"]),
    ]


def test_a_statement_of_made_up_values_does_not_reach_past_a_sentence():
    from symattn.verify.words import not_computed

    lines = [
        "Our toy embeddings (made up):",
        "$$X = [0.1, 0.2]$$",
        "and the sum X + PE, which is what the first layer actually sees (3 decimals):",
        "| 0.941 | 0.640 |",
    ]
    assert not_computed(lines, 2) and not not_computed(lines, 4)


def test_a_temperature_the_text_states_is_one_more_convention_of_the_softmax():
    z = [mpmath.mpf("2.0"), mpmath.mpf("1.0"), mpmath.mpf("0.1")]
    exps = [mpmath.e ** (v / mpmath.mpf("0.5")) for v in z]
    probs = [_r(e / sum(exps), 4) for e in exps]
    assert probs == ["0.8638", "0.1169", "0.0193"]
    doc = (
        "With temperature T = 0.5 the logits are sharpened:\n\n"
        "```\n>>> z = torch.tensor([2.0, 1.0, 0.1])\n>>> torch.softmax(z / 0.5, dim=-1)\n"
        f"tensor([{', '.join(probs)}])\n```\n"
    )
    report = verify_text(doc)
    assert not report.wrong
    assert any("T = 0.5" in f.reason for f in report.findings if f.status == "ok")
    bad = doc.replace("0.1169", "0.1196")
    assert [f.claimed for f in verify_text(bad).wrong] == ["0.1196"]


def _places(value, places: int) -> str:
    """``value`` rounded half away from zero at ``places``, by mpmath."""
    text = mpmath.nstr(value, 40, strip_zeros=False)
    return str(Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def test_a_softmax_walked_through_step_by_step_carries_a_wrong_score():
    # x − max, exp and the normalised row of one printed row are steps the chain declares; a
    # wrong score in that row makes each of them carried, true values from mpmath
    q_rows = (["0.9", "0.1", "0.3", "0.5"], ["0.2", "0.8", "0.4", "0.1"], ["0.6", "0.3", "0.7", "0.2"])
    k_rows = (["0.3", "0.7", "0.2", "0.6"], ["0.8", "0.2", "0.5", "0.1"], ["0.4", "0.4", "0.9", "0.3"])
    q = [[Fraction(s) for s in r] for r in q_rows]
    k = [[Fraction(s) for s in r] for r in k_rows]
    scores = [[sum(a * b for a, b in zip(qi, kj, strict=True)) / 2 for kj in k] for qi in q]
    shown = [[_places(mpmath.mpf(x.numerator) / x.denominator, 4) for x in row] for row in scores]
    slip = scores[0][1] + Fraction(1, 100)
    shown[0][1] = _places(mpmath.mpf(slip.numerator) / slip.denominator, 4)  # a slip of 0.01
    row = [Fraction(x) for x in shown[0]]
    top = max(row)
    minus = [x - top for x in row]
    exps = [mpmath.e ** (mpmath.mpf(m.numerator) / m.denominator) for m in minus]
    probs = [e / sum(exps) for e in exps]
    doc = (
        f"```python\nQ = np.array({[[float(x) for x in r] for r in q_rows]})\n"
        f"K = np.array({[[float(x) for x in r] for r in k_rows]})\n"
        "V = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])\n```\n\n"
        "Scores divided by √4 = 2:\n\n```\n"
        + "\n".join(("S = | " if i == 0 else "    | ") + "  ".join(r) + " |" for i, r in enumerate(shown))
        + "\n```\n\n"
        "Row 0, step by step:\n\n```\n"
        f"row 0 [{', '.join(shown[0])}]:\n"
        f"  minus the max: [{', '.join(_places(mpmath.mpf(m.numerator) / m.denominator, 4) for m in minus)}]\n"
        f"  exp: [{', '.join(_places(e, 4) for e in exps)}]\n"
        f"  → [{', '.join(_places(p, 4) for p in probs)}]\n```\n"
    )
    lines = doc.split("\n")
    exp_line = next(i for i, text in enumerate(lines, 1) if text.startswith("  exp:"))
    true_scores = [mpmath.mpf(x.numerator) / x.denominator for x in scores[0]]
    true_exps = [mpmath.e ** (x - max(true_scores)) for x in true_scores]
    report = verify_text(doc)
    at_exp = [f for f in report.findings if f.line == exp_line]
    assert [f.claimed for f in at_exp] == [_places(e, 4) for e in exps]
    for f, true in zip(at_exp, true_exps, strict=True):
        if f.claimed != _places(true, 4):
            assert (f.status, f.kind) == ("wrong", "carried")
    assert any(f.status == "wrong" for f in at_exp)


def _array(rows: list[list[str]]) -> str:
    """A NumPy printout of ``rows``."""
    body = ",\n       ".join("[" + ", ".join(r) + "]" for r in rows)
    return f"array([{body}])"


def _scores_doc(
    scaled_rows: list[list[str]], masked_rows: list[list[str]] | None = None, d_k: int = 4
) -> str:
    """Scores given as they are (no X, no weights), then scaled by √d_k as a printed step."""
    doc = (
        "Suppose the dot products come out as:\n\n"
        "```\nQK^T = [[8, 3, 5],\n        [3, 10, 4],\n        [5, 4, 9]]\n```\n\n"
        f"With d_k = {d_k} we divide by √{d_k}:\n\n```\n>>> S / np.sqrt({d_k})\n"
        + _array(scaled_rows)
        + "\n```\n"
    )
    if masked_rows is not None:
        doc += (
            f"\nThen the causal mask:\n\n```\n>>> S / np.sqrt({d_k}) + mask\n"
            + _array(masked_rows)
            + "\n```\n"
        )
    return doc


GIVEN_SCORES = [[8, 3, 5], [3, 10, 4], [5, 4, 9]]


def test_scores_given_as_they_are_then_scaled_by_the_root_of_d_k_are_a_step():
    scaled = [[_places(mpmath.mpf(x) / 2, 1) for x in row] for row in GIVEN_SCORES]
    report = verify_text(_scores_doc(scaled))
    assert not report.wrong
    assert sum("x ÷ √d_k (d_k = 4)" in f.reason for f in report.findings if f.status == "ok") == 9
    slipped = [row[:] for row in scaled]
    slipped[1][2] = "2.5"  # 4 / 2 is 2.0
    assert [(f.claimed, f.status) for f in verify_text(_scores_doc(slipped)).wrong] == [("2.5", "wrong")]


def test_masked_scaled_scores_are_the_scaled_scores_with_a_causal_mask():
    scaled = [[_places(mpmath.mpf(x) / 2, 1) for x in row] for row in GIVEN_SCORES]
    masked = [[cell if j <= i else "-inf" for j, cell in enumerate(row)] for i, row in enumerate(scaled)]
    report = verify_text(_scores_doc(scaled, masked))
    assert not report.wrong
    lines = _scores_doc(scaled, masked).split("\n")
    first = next(i for i, text in enumerate(lines, 1) if text.endswith("+ mask")) + 1
    at_mask = [f for f in report.findings if first <= f.line < first + 3 and f.status == "ok"]
    assert len(at_mask) == 6 and all("causal mask" in f.reason for f in at_mask)


def _softmax_rows(rows, temperature="1"):
    out = []
    for row in rows:
        exps = [mpmath.e ** (mpmath.mpf(x) / mpmath.mpf(temperature)) for x in row]
        out.append([e / sum(exps) for e in exps])
    return out


def test_weights_named_and_shaped_as_a_softmax_are_judged_as_one_even_when_their_digits_are_off():
    # the weights are rows of probabilities named "weights" after the scaled scores: the
    # softmax of those scores, whatever their digits; made-up weights are wrong where the
    # softmax of every block of scores before them misses them
    scaled = [[_places(mpmath.mpf(x) / mpmath.sqrt(3), 4) for x in row] for row in GIVEN_SCORES]
    true = _softmax_rows([[mpmath.mpf(x) / mpmath.sqrt(3) for x in row] for row in GIVEN_SCORES])
    shown = [["0.45", "0.15", "0.40"], ["0.10", "0.70", "0.20"], ["0.35", "0.20", "0.45"]]
    doc = _scores_doc(scaled, d_k=3) + (
        "\nRow-wise softmax:\n\n```\n"
        + "\n".join(
            ("Attention Weights = [" if i == 0 else "                     ") + "[" + ", ".join(r) + "]"
            for i, r in enumerate(shown)
        )
        + "]\n```\n"
    )
    report = verify_text(doc)
    expected = [
        (cell, t)
        for row, trow in zip(shown, true, strict=True)
        for cell, t in zip(row, trow, strict=True)
        if _places(t, 2) != cell
    ]
    assert len(expected) == 9  # every made-up weight is off
    assert [f.claimed for f in report.wrong] == [cell for cell, _t in expected]
    assert all(abs(mpmath.mpf(f.value) - t) < 1e-4 for f, (_c, t) in zip(report.wrong, expected, strict=True))
    right = [[_places(t, 2) for t in row] for row in true]
    fixed = doc
    for row, good in zip(shown, right, strict=True):
        fixed = fixed.replace(", ".join(row), ", ".join(good))
    assert not verify_text(fixed).wrong
    unnamed = doc.replace("Attention Weights = [", "                    [")
    assert not verify_text(unnamed).wrong  # rows of probabilities nothing names: not declared


def _per_token_document(stds: list[str]) -> tuple[str, list[list[str]]]:
    """Three tokens, their mean and σ printed one line each, and the rows normalised with the
    printed statistics (as the author computed them), to three places."""
    rows = [["0.1", "0.3", "-0.2", "0.8"], ["0.0", "0.1", "0.4", "-0.1"], ["0.5", "-0.3", "0.2", "0.6"]]
    means = [sum(Fraction(x) for x in row) / 4 for row in rows]
    normalised = [
        [_three((Fraction(x) - m) / Fraction(s)) for x in row]
        for row, m, s in zip(rows, means, stds, strict=True)
    ]
    text = (
        "# LayerNorm per token\n\n```python\nx = [\n"
        + "".join(f"    [{', '.join(r)}],\n" for r in rows)
        + "]\n\n# every token has its own centre and spread\n"
        + "".join(
            f'"t{i}": mean={float(m):.3f}, std={s}\n'
            for i, (m, s) in enumerate(zip(means, stds, strict=True))
        )
        + "\n# after layer normalization\nnormalized = [\n"
        + "".join(f"    [{', '.join(r)}],\n" for r in normalised)
        + "]\n```\n"
    )
    return text, normalised


def _three(value: Fraction) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.001"), ROUND_HALF_UP))


def _population_std(row: list[str]) -> mpmath.mpf:
    values = [mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in row]
    mean = sum(values) / len(values)
    return mpmath.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def test_a_norm_computed_with_its_printed_statistics_carries_a_wrong_sigma():
    """``"t1": mean=0.100, std=0.208`` per token, then the rows normalised with them: the rows
    are (x − μ)/σ by the printed statistics; the printed σ is judged as the σ of its row, and
    the row divided by a wrong σ is carried from it (typed in as a literal, but computed)."""
    mpmath.mp.dps = 30
    rows = [["0.1", "0.3", "-0.2", "0.8"], ["0.0", "0.1", "0.4", "-0.1"], ["0.5", "-0.3", "0.2", "0.6"]]
    true = [
        str(Decimal(mpmath.nstr(_population_std(r), 20)).quantize(Decimal("0.001"), ROUND_HALF_UP))
        for r in rows
    ]
    stds = [true[0], "0.208", true[2]]
    assert stds[1] != true[1]
    text, normalised = _per_token_document(stds)
    report = verify_text(text)
    lines = text.split("\n")
    stat_line = next(i for i, line in enumerate(lines, 1) if line.startswith('"t1"'))
    wrong = [f for f in report.findings if str(f.status) == "wrong"]
    fresh = [f for f in wrong if f.carried_from is None]
    assert [(f.line, f.claimed) for f in fresh] == [(stat_line, "0.208")]
    row_two = next(i for i, line in enumerate(lines, 1) if line.strip().startswith(f"[{normalised[1][0]},"))
    carried = [f for f in wrong if f.carried_from is not None]
    assert carried and all(f.line == row_two for f in carried)
    assert all(f.carried_from == stat_line - 1 for f in carried)  # the first line of the printed statistics
    ok = {(f.line, f.claimed) for f in report.findings if str(f.status) == "ok"}
    assert (stat_line - 1, true[0]) in ok and (stat_line + 1, true[2]) in ok


def test_the_same_statistics_printed_right_confirm_the_norm():
    mpmath.mp.dps = 30
    rows = [["0.1", "0.3", "-0.2", "0.8"], ["0.0", "0.1", "0.4", "-0.1"], ["0.5", "-0.3", "0.2", "0.6"]]
    stds = [
        str(Decimal(mpmath.nstr(_population_std(r), 20)).quantize(Decimal("0.001"), ROUND_HALF_UP))
        for r in rows
    ]
    text, _ = _per_token_document(stds)
    report = verify_text(text)
    assert [f.claimed for f in report.findings if str(f.status) == "wrong"] == []


def test_statistics_mostly_wrong_are_judged_through_the_norm_that_divides_by_them():
    """Two of three σ wrong: no σ explains the column by its digits, but the rows normalised
    with it are (x − μ)/σ by the printed numbers, so the column is the σ of the rows there."""
    mpmath.mp.dps = 30
    rows = [["0.1", "0.3", "-0.2", "0.8"], ["0.0", "0.1", "0.4", "-0.1"], ["0.5", "-0.3", "0.2", "0.6"]]
    true = [
        str(Decimal(mpmath.nstr(_population_std(r), 20)).quantize(Decimal("0.001"), ROUND_HALF_UP))
        for r in rows
    ]
    stds = [true[0], "0.208", "0.374"]
    text, _ = _per_token_document(stds)
    report = verify_text(text)
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines, 1) if line.startswith('"t0"'))
    verdicts = {(f.line, f.claimed): (str(f.status), f.carried_from) for f in report.findings}
    assert verdicts[(first, true[0])] == ("ok", None)
    assert verdicts[(first + 1, "0.208")] == ("wrong", None)
    assert verdicts[(first + 2, "0.374")] == ("wrong", None)
    carried = [f for f in report.findings if str(f.status) == "wrong" and f.carried_from is not None]
    assert len(carried) >= 5 and {f.carried_from for f in carried} == {first}
