"""verify/explain.py: printed blocks identified with the stage graph by shape and value.

True values come from fractions and mpmath here, never from symattn.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import mpmath

from symattn.verify import verify_text
from symattn.verify.explain import MAX_HYPOTHESES, printed_blocks

# The "illustrated self-attention" example, with its results in code comments (no scaling).
X = [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]]
W_K = [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]]
W_Q = [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]]
W_V = [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]]


def _mul(a, b):
    return [
        [sum(Fraction(a[i][k]) * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def _document(keys: str, output: str) -> str:
    return (
        "```python\n"
        "x = [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]]\n"
        "w_key = [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]]\n"
        "w_query = [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]]\n"
        "w_value = [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]]\n"
        f"keys = x @ w_key  # {keys}\n"
        "queries = x @ w_query  # [[1, 0, 2], [2, 2, 2], [2, 1, 3]]\n"
        "values = x @ w_value  # [[1, 2, 3], [2, 8, 0], [2, 6, 3]]\n"
        "weights = softmax(queries @ keys.T)  # [[0.0634, 0.4683, 0.4683], [0.0000, 0.9820, 0.0180],"
        " [0.0003, 0.8805, 0.1192]]\n"
        f"out = weights @ values  # {output}\n"
        "```\n"
    )


def _truth():
    q, k, v = _mul(X, W_Q), _mul(X, W_K), _mul(X, W_V)
    scores = [[sum(q[i][t] * k[j][t] for t in range(3)) for j in range(3)] for i in range(3)]
    weights = []
    for row in scores:
        exps = [mpmath.e ** mpmath.mpf(int(s)) for s in row]
        weights.append([e / sum(exps) for e in exps])
    out = [[sum(weights[i][j] * int(v[j][c]) for j in range(3)) for c in range(3)] for i in range(3)]
    return k, weights, out


def test_the_scanner_reads_results_in_comments_and_printouts():
    blocks = printed_blocks(
        "keys = x @ w  # [[0, 1, 1], [4, 0, 0]]\n>>> A\narray([[0.5, 0.5],\n       [1. , 0. ]])\n"
    )
    assert [(b.shape, b.name) for b in blocks] == [((2, 3), "keys"), ((2, 2), "A")]


def test_a_block_is_identified_by_its_digits_and_judged():
    k, weights, out = _truth()
    assert k[1] == [4, 4, 0]  # printed [4, 0, 0]: a slip
    assert [mpmath.nstr(w, 4) for w in weights[0]] == ["0.06338", "0.4683", "0.4683"]
    printed_out = [[round(float(x), 4) for x in row] for row in out]
    right = str(printed_out).replace("],", "],")
    report = verify_text(_document("[[0, 1, 1], [4, 0, 0], [2, 3, 1]]", right))
    wrong = [(f.line, f.claimed, str(f.kind)) for f in report.wrong]
    assert wrong == [(6, "0", "slip")]
    # each result in a comment after its statement is judged (by the statement it shows, or,
    # where the readers leave it, by the explanation's identification of its digits)
    judged = [f for f in report.findings if f.line >= 6 and f.status in ("ok", "wrong")]
    assert len(judged) == 5 * 9


def test_a_document_that_is_right_gives_no_wrong_number():
    k, _weights, out = _truth()
    printed_out = [[round(float(x), 4) for x in row] for row in out]
    report = verify_text(_document(str([[int(x) for x in row] for row in k]), str(printed_out)))
    assert not report.wrong
    assert sum(f.status == "ok" for f in report.findings) >= 27


def test_an_output_computed_from_a_wrong_block_is_carried_from_it():
    # outputs computed with the printed weights rounded to one place (0.0, 0.5, 0.5 / 0.0, 1.0, 0.0 / 0.0, 0.9, 0.1)
    doc = (
        "```python\n"
        "x = [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]]\n"
        "w_key = [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]]\n"
        "w_query = [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]]\n"
        "w_value = [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]]\n"
        "keys = x @ w_key  # [[0, 1, 1], [4, 4, 0], [2, 3, 1]]\n"
        "values = x @ w_value  # [[1, 2, 3], [2, 8, 0], [2, 6, 3]]\n"
        "weights = softmax(x @ w_query @ keys.T)  # [[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]]\n"
        "out = weights @ values  # [[2.0, 7.0, 1.5], [2.0, 8.0, 0.0], [2.0, 7.8, 0.3]]\n"
        "```\n"
    )
    _k, _weights, out = _truth()
    assert abs(out[0][2] - mpmath.mpf("1.595")) < 0.001 and abs(out[2][2] - mpmath.mpf("0.3584")) < 0.001
    report = verify_text(doc)
    kinds = {(f.line, f.claimed): (str(f.kind), f.carried_from) for f in report.wrong}
    # 0.0 for a weight of 0.0634 is wrong at one place, so the outputs are carried from that line
    assert kinds[(8, "0.0")][0] in ("wrong", "rounding") and mpmath.nstr(_weights[0][0], 1) == "0.06"
    assert kinds[(9, "1.5")] == ("carried", 8)
    # row 3's printed weights (0.0, 0.9, 0.1) are right at one place: its output is off only by
    # their rounding
    assert kinds[(9, "0.3")] == ("rounding-carried", 8)


def test_the_hypotheses_are_counted_and_bounded_before_they_are_built():
    from symattn.registry import ATTENTION_GRAPH
    from symattn.verify.explain import MAX_ROLE_BLOCKS, _hypotheses

    # 150 given 2x2 blocks (a document of many examples): every 3 of them could be weights
    text = "\n\n".join(
        f"$$W_{k} = \\begin{{bmatrix}} {k} & 1 \\\\ 0 & {k + 1} \\end{{bmatrix}}$$" for k in range(150)
    )
    blocks = printed_blocks(text)
    assert len(blocks) == 150
    hypotheses, tried = _hypotheses(blocks)
    assert len(hypotheses) <= MAX_HYPOTHESES <= 64
    # X and weights, X alone; Q, K, V among the first four, or three in a row; Q = K and V among the first four
    conventions = 1
    for parameter in ATTENTION_GRAPH.parameters:
        conventions *= len(parameter.values({"X": [[1, 0]], "W_K": [[1], [0]]}))
    assert tried <= (MAX_ROLE_BLOCKS * (6 * 5 * 4 + 1) + 4 * 3 * 2 + MAX_ROLE_BLOCKS + 4 * 3) * conventions


def test_explain_says_what_each_block_is_in_text_and_json(tmp_path, capsys):
    import json

    from symattn.cli import main

    _k, _weights, out = _truth()
    doc = tmp_path / "attn.md"
    doc.write_text(
        _document("[[0, 1, 1], [4, 0, 0], [2, 3, 1]]", str([[round(float(x), 4) for x in r] for r in out]))
    )
    assert main(["verify", str(doc), "--explain"]) == 1
    text = capsys.readouterr().out
    assert "kept: X = the block at line 2, W_Q = the block at line 4, W_K = the block at line 3" in text
    assert "line 6 keys [3x3]: K (declared by its formula" in text
    assert main(["verify", str(doc), "--explain", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    explanation = data["documents"][0]["explanation"]
    assert data["schema"] == "symattn.explain/1" and explanation["kept"]["scale"] == "1"
    assert explanation["hypotheses"] > 0 and {b["node"] for b in explanation["blocks"]} >= {
        "K",
        "Q",
        "V",
        "A",
        "O",
    }


def test_a_row_per_temperature_is_read_as_the_softmax_at_that_temperature():
    z = [mpmath.mpf(1), mpmath.mpf(2), mpmath.mpf(3)]

    def softmax(t):
        exps = [mpmath.e ** (x / t) for x in z]
        return [e / sum(exps) for e in exps]

    rows = {t: [mpmath.nstr(p, 3) for p in softmax(mpmath.mpf(t))] for t in ("1", "0.5", "2")}
    assert rows == {
        "1": ["0.09", "0.245", "0.665"],
        "0.5": ["0.0159", "0.117", "0.867"],
        "2": ["0.186", "0.307", "0.506"],
    }
    doc = (
        "```python\n"
        "logits = jnp.array([1.0, 2.0, 3.0])\n"
        "jax.nn.softmax(logits / 1.0)  # [0.090, 0.245, 0.665]\n"
        "jax.nn.softmax(logits / 0.5)  # [0.016, 0.117, 0.867]\n"
        "jax.nn.softmax(logits / 2.0)  # [0.186, 0.307, 0.516]\n"
        "```\n"
    )
    report = verify_text(doc)
    assert [(f.line, f.claimed) for f in report.wrong] == [(5, "0.516")]
    assert sum(f.status == "ok" for f in report.findings if f.line in (3, 4, 5)) == 8


# Q = K = V = X; the scores and the scaled scores printed right, the weights printed as
# rows of round probabilities that are not the softmax, then restated in A·V.
_STOCHASTIC_X = [
    [Fraction("1.2"), Fraction("0.4")],
    [Fraction("0.3"), Fraction("1.1")],
    [Fraction("0.9"), Fraction("0.8")],
]
_STOCHASTIC_WEIGHTS = (
    "\\begin{bmatrix} 0.40 & 0.25 & 0.35 \\\\ 0.30 & 0.40 & 0.30 \\\\ 0.30 & 0.30 & 0.40 \\end{bmatrix}"
)


def _stochastic_document(before_weights: str = "and after the softmax of each row:") -> str:
    return (
        "# Self-attention on three tokens\n\n"
        "Each token is its own query, key and value: Q = K = V = X, with\n\n"
        "$$\nX = \\begin{bmatrix} 1.2 & 0.4 \\\\ 0.3 & 1.1 \\\\ 0.9 & 0.8 \\end{bmatrix}\n$$\n\n"
        "The dot products of every pair:\n\n"
        "$$\n\\begin{bmatrix} 1.60 & 0.80 & 1.40 \\\\ 0.80 & 1.30 & 1.15 \\\\ 1.40 & 1.15 & 1.45 \\end{bmatrix}\n$$\n\n"
        "Divided by $\\sqrt{2} \\approx 1.414$:\n\n"
        "$$\n\\begin{bmatrix} 1.131 & 0.566 & 0.990 \\\\ 0.566 & 0.919 & 0.813 \\\\ 0.990 & 0.813 & 1.025"
        " \\end{bmatrix}\n$$\n\n"
        f"{before_weights}\n\n$$\n\\text{{weights}} = {_STOCHASTIC_WEIGHTS}\n$$\n\n"
        f"So the new vectors are\n\n$$\n{_STOCHASTIC_WEIGHTS}\n"
        "\\begin{bmatrix} 1.2 & 0.4 \\\\ 0.3 & 1.1 \\\\ 0.9 & 0.8 \\end{bmatrix}\n$$\n"
    )


def _stochastic_truth() -> list[list[mpmath.mpf]]:
    x = _STOCHASTIC_X
    dots = [[sum(a * b for a, b in zip(r, c, strict=True)) for c in x] for r in x]
    scaled = [[mpmath.mpf(d.numerator) / d.denominator / mpmath.sqrt(2) for d in row] for row in dots]
    return [[mpmath.exp(t) / sum(mpmath.exp(u) for u in row) for t in row] for row in scaled]


def test_rows_of_probabilities_after_identified_scores_are_their_softmax():
    weights = _stochastic_truth()
    printed = [[0.40, 0.25, 0.35], [0.30, 0.40, 0.30], [0.30, 0.30, 0.40]]
    off = {
        (i, j) for i in range(3) for j in range(3) if mpmath.nstr(weights[i][j], 2) != f"{printed[i][j]:.2f}"
    }
    assert len(off) == 9  # every printed weight is off at two places
    report = verify_text(_stochastic_document())
    wrong = {(f.line, f.column): f for f in report.wrong}
    first = sorted(p for p in wrong if p[0] == 24)  # the weights' line
    assert len(first) == 9 and all(wrong[p].subject == "A" for p in first)
    assert mpmath.nstr(weights[0][0], 5) == wrong[first[0]].value[:7]
    again = sorted(p for p in wrong if p[0] == 30)  # restated in A·V: carried from line 24
    assert len(again) == 9 and all(wrong[p].kind == "carried" and wrong[p].carried_from == 24 for p in again)


def test_rows_of_probabilities_the_text_says_are_made_up_are_givens():
    report = verify_text(_stochastic_document("Made-up numbers, not the real output of the softmax:"))
    assert not report.wrong


def test_notes_written_after_lines_of_code_leave_the_program_readable():
    doc = (
        "```\n"
        "W1 = [[0.2, 0.3, 0.1],      (4 × 3 matrix)\n"
        "      [0.4, -0.1, 0.5],\n"
        "      [0.1, 0.2, -0.3],\n"
        "      [-0.2, 0.4, 0.2]]\n\n"
        "b1 = [0.1, -0.1, 0.2]   ← the bias\n"
        "```\n\n"
        "```\n"
        "xW1 + b1 = [0.5, 1.0, -0.5, 0.3] × W1 + b1\n"
        "         = [0.47, 0.47, -0.09]\n"
        "```\n"
    )
    x = [Fraction("0.5"), Fraction("1.0"), Fraction("-0.5"), Fraction("0.3")]
    w1 = [["0.2", "0.3", "0.1"], ["0.4", "-0.1", "0.5"], ["0.1", "0.2", "-0.3"], ["-0.2", "0.4", "0.2"]]
    b1 = [Fraction("0.1"), Fraction("-0.1"), Fraction("0.2")]
    true = [sum(x[k] * Fraction(w1[k][j]) for k in range(4)) + b1[j] for j in range(3)]
    assert true == [Fraction("0.49"), Fraction("-0.03"), Fraction("0.96")]
    wrong = {f.column: f for f in verify_text(doc).wrong if f.line == 12}
    assert wrong[19].value.startswith("-0.03") and wrong[25].value.startswith("0.96")


# --- a stage added by one declaration: the ALiBi bias (registry.ATTENTION_GRAPH) --------------------


def _alibi_truth(m):
    """Q = K = V = X (no weights), scores QKᵀ/√2 − m·|i − j|, their softmax and AV, in mpmath."""
    x = [[1, 0], [0, 1], [1, 1]]
    scores = [[sum(x[i][t] * x[j][t] for t in range(2)) for j in range(3)] for i in range(3)]
    biased = [
        [mpmath.mpf(scores[i][j]) / mpmath.sqrt(2) - m * abs(i - j) for j in range(3)] for i in range(3)
    ]
    weights = []
    for row in biased:
        exps = [mpmath.e**s for s in row]
        weights.append([e / sum(exps) for e in exps])
    out = [[sum(weights[i][j] * x[j][c] for j in range(3)) for c in range(2)] for i in range(3)]
    return biased, weights, out


def _places4(v):
    return str(Decimal(mpmath.nstr(v, 30)).quantize(Decimal("0.0001"), ROUND_HALF_UP))


def _alibi_document(m_text, biased, weights, out):
    def show(rows):
        return "\\\\ ".join(" & ".join(_places4(v) for v in r) for r in rows)

    return (
        "# ALiBi instead of positions\n\n"
        "Three tokens with two features, no projections: $Q = K = V = X$.\n\n"
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$$\n\n"
        f"The head's slope is $m = {m_text}$. Each score is scaled by $1/\\sqrt{{2}}$ and the bias "
        "$-m|i-j|$ is added before the softmax:\n\n"
        f"$$\\begin{{bmatrix}} {show(biased)} \\end{{bmatrix}}$$\n\n"
        "After the row softmax:\n\n"
        f"$$\\begin{{bmatrix}} {show(weights)} \\end{{bmatrix}}$$\n\n"
        "and the outputs:\n\n"
        f"$$\\begin{{bmatrix}} {show(out)} \\end{{bmatrix}}$$\n"
    )


def test_a_slope_the_registry_declares_explains_an_alibi_example():
    biased, weights, out = _alibi_truth(mpmath.mpf(1) / 2)
    right = _alibi_document("0.5", biased, weights, out)
    report = verify_text(right)
    assert not report.wrong
    ok = {(f.line, f.column) for f in report.findings if f.status.value == "ok"}
    scores_line = next(i for i, line in enumerate(right.split("\n"), 1) if "0.7071 &" in line)
    judged_scores = {place for place in ok if place[0] == scores_line}
    assert len(judged_scores) == 9  # the biased scores: only the ALiBi node explains them
    # a biased score copied wrong is found, as the slip it is
    wrong = _places4(biased[0][2])
    bad = right.replace(wrong, "-0.2828", 1)
    report = verify_text(bad)
    slips = [f for f in report.wrong if f.line == scores_line]
    assert [f.claimed for f in slips] == ["-0.2828"] and slips[0].kind.value != "carried"


def test_the_explanation_names_the_slope_it_kept(tmp_path, capsys):
    import json

    from symattn.cli import main

    biased, weights, out = _alibi_truth(mpmath.mpf(1) / 4)
    doc = tmp_path / "alibi.md"
    doc.write_text(_alibi_document("1/4", biased, weights, out), encoding="utf-8")
    main(["verify", str(doc), "--explain", "--format", "json"])
    explanation = json.loads(capsys.readouterr().out)["documents"][0]["explanation"]
    assert explanation["kept"]["conventions"] == {"c": "1/sqrt(d_k)", "m": "1/4"}


def test_without_a_bias_the_same_numbers_are_not_called_right_or_wrong_by_a_slope():
    # the unbiased example: the default (no bias) explains it, and no slope makes a number wrong
    biased, weights, out = _alibi_truth(mpmath.mpf(0))
    report = verify_text(
        _alibi_document("0", biased, weights, out).replace("The head's slope is $m = 0$. ", "")
    )
    assert not report.wrong


def test_matrices_drawn_between_bars_are_read_and_a_formula_names_its_stage():
    # Q, K, V drawn in plain text between bars; "Q × K^T =" is a formula (no name): its parents
    # say it is the scores, so a block of them wrong in most cells is judged, not dropped
    q = [[Fraction(1), Fraction(1, 2)], [Fraction(0), Fraction(1)]]
    k = [[Fraction(1), Fraction(0)], [Fraction(1, 2), Fraction(1)]]
    true = [[sum(q[i][t] * k[j][t] for t in range(2)) for j in range(2)] for i in range(2)]
    assert true == [[1, Fraction(1)], [0, 1]]
    doc = (
        "```\n"
        "Q = | 1.0  0.5 |\n"
        "    | 0.0  1.0 |\n"
        "\n"
        "K = | 1.0  0.0 |\n"
        "    | 0.5  1.0 |\n"
        "\n"
        "V = | 2.0  1.0 |\n"
        "    | 1.0  3.0 |\n"
        "\n"
        "Q × K^T = | 1.00  1.25 |\n"
        "          | 0.00  1.00 |\n"
        "```\n"
    )
    report = verify_text(doc)
    assert [(f.line, f.claimed) for f in report.wrong] == [(11, "1.25")]


def test_a_block_named_with_approx_is_named():
    # "α ≈ [...]" names the block α (a prior for the weights), as "α = [...]" does
    blocks = printed_blocks("$$\\alpha \\approx \\begin{bmatrix} 0.06 & 0.94 \\end{bmatrix}$$\n")
    assert [b.name for b in blocks] == ["\\alpha"]


def _seed_truth():
    """The seed example (X = [[1,0],[0,1],[1,1]], W = I, scale 1/√2): weights and output."""
    x = [[1, 0], [0, 1], [1, 1]]
    weights, out = [], []
    for q in x:
        exps = [mpmath.e ** (mpmath.mpf(q[0] * k[0] + q[1] * k[1]) / mpmath.sqrt(2)) for k in x]
        row = [e / sum(exps) for e in exps]
        weights.append(row)
        out.append([sum(row[j] * x[j][c] for j in range(3)) for c in range(2)])
    return weights, out


def _places(value, places: int) -> str:
    return str(Decimal(mpmath.nstr(value, 30)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def test_token_vectors_printed_one_by_one_are_the_rows_of_x():
    # each token's embedding on its own line: together they are X, whatever they are called
    weights, out = _seed_truth()
    printed_out = [[_places(v, 4) for v in row] for row in out]
    printed_out[2][1] = "0.7000"  # the seed's slip: the third output assumed from rounded weights
    doc = (
        "**Token embeddings:**\n- cat = [1, 0]\n- sat = [0, 1]\n- mat = [1, 1]\n\n"
        "**Projections:**\n```\nWQ = [1, 0]\n     [0, 1]\n\nWK = [1, 0]\n     [0, 1]\n\n"
        "WV = [1, 0]\n     [0, 1]\n```\n\n"
        "Weights after the softmax:\n```\n"
        + "\n".join("[" + ", ".join(_places(v, 4) for v in row) + "]" for row in weights)
        + "\n```\n\nOutput:\n```\n"
        + "\n".join("[" + ", ".join(row) + "]" for row in printed_out)
        + "\n```\n"
    )
    report = verify_text(doc)
    lines = doc.split("\n")
    first_weights = lines.index("Weights after the softmax:") + 3  # 1-based, after the fence
    judged = [f for f in report.findings if first_weights <= f.line < first_weights + 3]
    assert len(judged) == 9 and all(f.status == "ok" for f in judged)
    assert [(f.line, f.claimed) for f in report.wrong] == [(len(lines) - 2, "0.7000")]


def test_a_rounded_result_used_rows_later_is_that_result():
    # 0.71 is 1/√2 rounded in the scaled scores; e^{0.71} three rows later is off in truth
    doc = (
        "$$QK^T = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
        "$$\\frac{QK^T}{\\sqrt{2}} \\approx \\begin{bmatrix} 0.71 & 0 \\\\ 0 & 0.71 \\end{bmatrix}$$\n\n"
        "- Row 1: $e^{0} = 1$\n- Row 1 again: $e^{0} = 1$\n- Row 2: $e^{0} = 1$\n\n"
        f"- Then $e^{{0.71}} \\approx {_places(mpmath.e ** mpmath.mpf('0.71'), 3)}$\n"
    )
    found = {f.claimed: f for f in verify_text(doc).findings}
    truth = mpmath.e ** (1 / mpmath.sqrt(2))
    assert _places(truth, 3) != found["2.034"].claimed
    assert (found["2.034"].status, found["2.034"].kind) == ("wrong", "rounding-carried")


def test_a_literal_computed_before_is_its_value_not_any_number_it_rounds():
    # 0.7979 was computed just before: 0.7979 x 1.044715 is 0.83356, not 0.8335, whatever
    # number between 0.79785 and 0.79795 the literal could stand for; tanh is a function
    doc = (
        "```\nsqrt(2/π):  sqrt(2 / 3.14159) ≈ 0.7979\n\n"
        "scaled:     0.7979 * 1.044715 ≈ 0.8335\n\n"
        "tanh:       tanh(0.8335) ≈ 0.6827\n```\n"
    )
    product = mpmath.sqrt(2 / mpmath.mpf("3.14159")) * mpmath.mpf("1.044715")
    assert _places(product, 4) == "0.8336"
    assert _places(mpmath.tanh(mpmath.mpf("0.8335")), 4) != "0.6827"
    wrong = {(f.line, f.claimed) for f in verify_text(doc).wrong}
    assert {(4, "0.8335"), (6, "0.6827")} <= wrong


def _pe(pos: int, d: int):
    """The paper's sinusoidal encoding, by mpmath: sin and cos of pos / 10000^(2i/d)."""
    row = []
    for j in range(d):
        angle = mpmath.mpf(pos) / mpmath.power(10000, mpmath.mpf(2 * (j // 2)) / d)
        row.append(mpmath.sin(angle) if j % 2 == 0 else mpmath.cos(angle))
    return row


def test_a_positional_encoding_table_and_embeddings_plus_it_are_the_registry_positions_graph():
    embeddings = [["0.1", "0.2", "0.3", "0.4"], ["0.5", "0.4", "0.3", "0.2"], ["0.2", "0.2", "0.2", "0.2"]]
    pe = [[_places(v, 3) for v in _pe(p, 4)] for p in range(3)]
    pe[2][1] = "-0.426"  # cos(2) is -0.416: a slip, carried into E + PE
    plus = [
        [_places(mpmath.mpf(e) + mpmath.mpf(p), 3) for e, p in zip(erow, prow, strict=True)]
        for erow, prow in zip(embeddings, pe, strict=True)
    ]
    assert plus[2][1] != _places(mpmath.mpf("0.2") + _pe(2, 4)[1], 3)  # right only from the slip
    plus[1][0] = "1.431"  # 0.5 + sin(1) is 1.341: a fresh slip
    doc = (
        "Token embeddings:\n```\n"
        + "\n".join(f"tok{i} = [{', '.join(r)}]" for i, r in enumerate(embeddings))
        + "\n```\n\nPositional encodings (d_model = 4):\n```\n"
        + "\n".join(f"pos {i}: [{', '.join(r)}]" for i, r in enumerate(pe))
        + "\n```\n\nInput to the encoder:\n```\n"
        + "\n".join(f"[{', '.join(r)}]" for r in plus)
        + "\n```\n"
    )
    report = verify_text(doc)
    lines = doc.split("\n")
    pe_line = lines.index("pos 2: [" + ", ".join(pe[2]) + "]") + 1
    first_plus = lines.index("Input to the encoder:") + 3
    wrong = {(f.line, f.claimed): f for f in report.wrong}
    assert set(wrong) == {(pe_line, "-0.426"), (first_plus + 2, plus[2][1]), (first_plus + 1, "1.431")}
    assert wrong[(first_plus + 2, plus[2][1])].kind == "carried"
    assert wrong[(first_plus + 2, plus[2][1])].carried_from == pe_line
    ok = [f for f in report.findings if f.status == "ok" and f.line >= pe_line - 1]
    assert len(ok) >= 12  # every other encoding and sum is confirmed


def test_a_row_of_short_numbers_is_not_a_positional_encoding_by_chance():
    # [0.71, 0, 0.71] is near sin and cos of some position: two digits twice are no evidence
    report = verify_text("- Row 1: $[0.71, 0, 0.71]$\n- Row 2: $[0.71, 0.71, 0]$\n")
    assert not report.wrong


def test_square_weights_applied_transposed_are_a_layout_the_explanation_tries():
    # Q = X @ W_q.T: with square weights the layout is a convention, found by the digits
    x = [[1, 0], [0, 0], [0, 1]]
    w_q = [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(4)]]
    w_k = [[Fraction(1, 2), Fraction(1)], [Fraction(3, 2), Fraction(1)]]
    q = [[sum(r[t] * w_q[j][t] for t in range(2)) for j in range(2)] for r in x]  # X Wᵀ
    k = [[sum(r[t] * w_k[j][t] for t in range(2)) for j in range(2)] for r in x]
    weights = []
    for qi in q:
        dots = [sum(a * b for a, b in zip(qi, kj, strict=True)) for kj in k]
        s = [mpmath.mpf(d.numerator) / d.denominator / mpmath.sqrt(2) for d in dots]
        e = [mpmath.e**v for v in s]
        weights.append([v / sum(e) for v in e])
    shown = [[_places(v, 4) for v in row] for row in weights]
    truth = shown[2][0]
    shown[2][0] = _places(weights[2][0] + mpmath.mpf("0.001"), 4)  # a slip in the last row
    doc = (
        "```python\nX = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])\n"
        "W_q = np.array([[1.0, 2.0], [3.0, 4.0]])\nW_k = np.array([[0.5, 1.0], [1.5, 1.0]])\n"
        "W_v = np.array([[1.0, 0.5], [0.5, 1.0]])\n"
        "Q, K, V = X @ W_q.T, X @ W_k.T, X @ W_v.T\n```\n\n"
        "```\n>>> weights.round(4)\narray(["
        + ",\n       ".join("[" + ", ".join(r) + "]" for r in shown)
        + "])\n```\n"
    )
    report = verify_text(doc)
    assert [(f.claimed, str(f.kind)) for f in report.wrong] == [(shown[2][0], "wrong")]
    assert shown[2][0] != truth
    confirmed = [f for f in report.findings if f.status == "ok" and f.line >= 9]
    assert len(confirmed) == 8


def test_a_positional_encoding_table_with_a_position_column_is_read_as_its_matrix():
    # | Position | sin(θ₀) | cos(θ₀) | …: the table's columns side by side are PE; the table of
    # angles pos/divisor above it has the same header words and is not an encoding
    d = 4
    pe = [[_places(v, 3) for v in _pe(p, d)] for p in range(4)]
    pe[2][2] = "0.918"  # sin(2/100) is 0.020 and sin(0.2) 0.199: a slip
    angles = [[_places(mpmath.mpf(p) / 100 ** (i / 2), 3) for i in range(2)] for p in range(4)]
    doc = (
        "The divisors are 1 and 100, so the angles are:\n\n"
        "| Position | dim 0,1 (÷1) | dim 2,3 (÷100) |\n| --- | --- | --- |\n"
        + "".join(f"| pos={p} | {a} | {b} |\n" for p, (a, b) in enumerate(angles))
        + "\nand the encoding (d_model = 4):\n\n"
        "| Position | sin(θ₀) | cos(θ₀) | sin(θ₁) | cos(θ₁) |\n| --- | --- | --- | --- | --- |\n"
        + "".join(f"| {p} | {' | '.join(row)} |\n" for p, row in enumerate(pe))
    )
    report = verify_text(doc)
    lines = doc.split("\n")
    slip = next(i for i, line in enumerate(lines, 1) if "0.918" in line)
    assert [(f.line, f.claimed) for f in report.wrong] == [(slip, "0.918")]
    assert sum(f.status == "ok" and f.line > slip - 4 for f in report.findings) >= 12


def test_q_and_k_given_without_v_explain_their_scaled_scores():
    q = [[Fraction(1), Fraction(0), Fraction(1)], [Fraction(0), Fraction(2), Fraction(1)]]
    k = [
        [Fraction(1), Fraction(1), Fraction(0)],
        [Fraction(0), Fraction(1), Fraction(1)],
        [Fraction(2), Fraction(0), Fraction(1)],
    ]
    dots = [[sum(a * b for a, b in zip(qi, kj, strict=True)) for kj in k] for qi in q]
    scaled = [[mpmath.mpf(x.numerator) / x.denominator / mpmath.sqrt(3) for x in row] for row in dots]
    shown = [[_places(v, 4) for v in row] for row in scaled]
    truth = shown[1][2]
    shown[1][2] = _places(scaled[1][2] + mpmath.mpf("0.01"), 4)
    doc = (
        "Two queries and three keys, no values yet:\n\n```python\n"
        "Q = np.array([[1, 0, 1], [0, 2, 1]])\nK = np.array([[1, 1, 0], [0, 1, 1], [2, 0, 1]])\n"
        "```\n\nEach query against each key, over the root of 3:\n\n```\n"
        + "\n".join("[" + "  ".join(row) + "]" for row in shown)
        + "\n```\n"
    )
    report = verify_text(doc)
    assert shown[1][2] != truth
    assert [f.claimed for f in report.wrong] == [shown[1][2]]
    assert sum(f.status == "ok" for f in report.findings) >= 5


def test_near_misses_are_evidence_of_what_a_block_is():
    """An encoding table with two numbers off in their last digit (truncated, not rounded) and two
    slips: the near misses say which rows of PE the table is (a digit off is still that number),
    so the slips are found; counted as unexplained digits, they left the table below the share
    of digits a node must explain, and every number of it unread."""
    d = 4
    rows = [_pe(p, d) for p in range(3)]
    printed = [[_places(v, 4) for v in row] for row in rows]
    printed[0] = ["0.0", "1.0", "0.0", "1.0"]
    printed[1] = [_places(rows[1][0], 2), _places(rows[1][1], 2), "0.00999", "0.9999"]  # truncated
    printed[2] = [_places(rows[2][0], 3), "-0.4061", _places(rows[2][2], 2), "0.9989"]  # two slips
    assert mpmath.mpf(rows[1][2]) > mpmath.mpf("0.009995") and mpmath.mpf(rows[1][3]) > mpmath.mpf("0.99995")
    doc = (
        "Each position gets a vector of d = 4 numbers:\n\n"
        "| Position | PE vector |\n| -------- | --------- |\n"
        + "".join(f"| {p} | \\[{', '.join(row)}] |\n" for p, row in enumerate(printed))
    )
    report = verify_text(doc)
    lines = doc.split("\n")
    last = next(i for i, line in enumerate(lines, 1) if "0.9989" in line)
    wrong = {f.claimed for f in report.wrong if f.line == last}
    assert wrong == {"-0.4061", "0.9989"}, [(f.line, f.claimed, f.kind) for f in report.findings]
    assert sum(f.status == "ok" for f in report.findings if f.line >= last - 2) >= 4


def test_rows_cut_short_are_the_first_cells_of_the_stated_width():
    """``Position 1: [0.841, 0.540, 0.100, 0.995, ...]`` of a d_model = 8 encoding: the first four
    cells of rows 8 wide (the width the text states), not rows of a 4-wide encoding."""
    d = 8
    rows = [[_places(v, 3) for v in _pe(p, d)[:4]] for p in range(4)]
    rows[3][2] = "0.925"  # sin(3/10) is 0.296: a slip
    doc = (
        "We use d_model = 8. The first four dimensions of each position's encoding:\n\n```\n"
        + "".join(f"Position {p}: [{', '.join(row)}, ...]\n" for p, row in enumerate(rows))
        + "```\n"
    )
    report = verify_text(doc)
    lines = doc.split("\n")
    slip = next(i for i, line in enumerate(lines, 1) if "0.925" in line)
    assert [(f.line, f.claimed) for f in report.wrong] == [(slip, "0.925")]
    assert sum(f.status == "ok" for f in report.findings) >= 12
    # the same rows printed whole are a 4-wide encoding, which they are not: nothing is called wrong
    whole = verify_text(doc.replace(", ...]", "]"))
    assert not whole.wrong


def _softmax(z):
    e = [mpmath.e ** mpmath.mpf(x) for x in z]
    return [x / sum(e) for x in e]


def test_a_table_without_outer_pipes_and_its_percentages_are_read():
    """A GFM table may leave out its outer pipes and end in a row of empty cells; a cell
    ``40.2%`` is 0.402 to three places.  A percentage that is wrong is found; the rest are
    confirmed."""
    z = ["2.0", "1.0", "0.1"]
    p = _softmax(z)
    probabilities = [_places(v, 3) for v in p]
    percents = [f"{_places(v * 100, 1)}%" for v in p]
    percents[1] = "26.4%"  # 24.2% by the softmax: a slip
    doc = (
        f"logits = [{', '.join(z)}]\n\nAfter the softmax:\n\n```\n"
        "token  | logit | probability | percentage\n"
        "-------|-------|-------------|-----------\n"
        + "".join(
            f"{t:<6} | {x:>5} | {q:>11} | {c:>9}\n"
            for t, x, q, c in zip(("cat", "dog", "fish"), z, probabilities, percents, strict=True)
        )
        + "       |       |             |\n```\n"
    )
    report = verify_text(doc)
    assert [f.claimed for f in report.wrong] == ["26.4%"], [
        (f.line, f.claimed, f.status) for f in report.findings
    ]
    ok = {f.claimed for f in report.findings if f.status == "ok"}
    assert {*probabilities, percents[0], percents[2]} <= ok


def _weights_and_output(weights: str, output: str) -> str:
    return (
        "# Self-attention by hand\n\n"
        "Three tokens with two features each; the projections are the identity:\n\n"
        "```\nQ = K = V = [[1, 0], [0, 1], [1, 1]]\n```\n\n"
        "With $d_k = 2$ the scaled scores of the third token are [0.7071, 0.7071, 1.4142].\n\n"
        f"Attention weights = [{weights}]\n\n"
        "Output for token 3 = "
        + " + ".join(
            f"{w}×{v}" for w, v in zip(weights.split(", "), ("[1, 0]", "[0, 1]", "[1, 1]"), strict=True)
        )
        + f"\n                   = [{output}, {output}]\n"
    )


def _third_row():
    """Row 3 of softmax(X Xᵀ/√2) for X = [[1, 0], [0, 1], [1, 1]], and its output (mpmath)."""
    mpmath.mp.dps = 40
    scores = [mpmath.mpf(1) / mpmath.sqrt(2), mpmath.mpf(1) / mpmath.sqrt(2), mpmath.sqrt(2)]
    exps = [mpmath.e**s for s in scores]
    weights = [e / sum(exps) for e in exps]
    return weights, weights[0] + weights[2]


def _at(value, places: int) -> str:
    return str(Decimal(mpmath.nstr(value, 30)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def test_a_weighted_sum_written_with_an_identified_wrong_weight_is_carried():
    """The explanation identifies the printed weights (one of them wrong); the readers'
    second reading takes their true values as world (b), so the written-out output, right by
    the printed weights and wrong in truth, is carried from the weights' line."""
    weights, output = _third_row()
    slipped = [_at(weights[0], 4), _at(weights[1], 4), _at(weights[2] + mpmath.mpf("0.01"), 4)]
    by_printed = Decimal(slipped[0]) + Decimal(slipped[2])
    assert _at(output, 4) != str(by_printed)  # the slip reaches the output
    text = _weights_and_output(", ".join(slipped), str(by_printed))
    report = verify_text(text)
    wrong = {(f.line, f.column): f for f in report.findings if str(f.status) == "wrong"}
    weights_line = text.split("\n").index(f"Attention weights = [{', '.join(slipped)}]") + 1
    output_line = weights_line + 3
    assert [f.claimed for f in wrong.values() if f.line == weights_line] == [slipped[2]]
    outputs = [f for f in wrong.values() if f.line == output_line]
    assert [f.claimed for f in outputs] == [str(by_printed)] * 2
    for finding in outputs:
        assert str(finding.kind) == "carried" and finding.carried_from == weights_line
        assert finding.value == _at(output, 7)
    # the weight written again in the sum is the same wrong number
    restated = [f for f in wrong.values() if f.line == weights_line + 2]
    assert [f.claimed for f in restated] == [slipped[2]]
    assert restated[0].carried_from == weights_line


def test_the_same_document_with_right_weights_has_nothing_wrong():
    weights, output = _third_row()
    right = [_at(w, 4) for w in weights]
    text = _weights_and_output(", ".join(right), _at(output, 4))
    report = verify_text(text)
    assert [f.claimed for f in report.findings if str(f.status) == "wrong"] == []
    assert sum(1 for f in report.findings if str(f.status) == "ok") >= 6


def test_a_vector_written_as_a_tuple_is_a_printed_block_and_a_call_is_not():
    blocks = printed_blocks(
        "a = (0.92, 0.43, 0.57)\nf(0.5, 2) and x^(1, 2), (see 2019, the rest)\n猫 = (2, 0)"
    )
    assert [[c.text for c in b.cells()] for b in blocks] == [["0.92", "0.43", "0.57"], ["2", "0"]]
