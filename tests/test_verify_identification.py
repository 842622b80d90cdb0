"""What a printed block is, found from what it could be (issue "Verify by explanation").

Forms met in first-contact rounds (docs/verify-first-contact.md), written here in our own
words with other numbers; every true value comes from mpmath, never from symattn.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import mpmath

from symattn.verify import verify_text

mpmath.mp.dps = 40


def _at(value: mpmath.mpf, places: int) -> str:
    return str(Decimal(mpmath.nstr(value, 30)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def _layer_norm(row: list[str], eps: str) -> list[mpmath.mpf]:
    xs = [mpmath.mpf(x) for x in row]
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / len(xs)
    return [(x - mean) / mpmath.sqrt(var + mpmath.mpf(eps)) for x in xs]


def _tensor(rows: list[list[str]]) -> str:
    inner = ",\n        ".join("[" + ", ".join(f"{x:>7}" for x in row) + "]" for row in rows)
    return f"tensor([{inner}])"


def test_a_norm_whose_epsilon_moves_its_digits_is_still_identified():
    """Rows of small spread: ε = 1e-5 moves the fourth place, so the printout matches no digit
    of the ε = 0 norm; the other ε is tried all the same, and a slip in it is found."""
    small = [["0.01", "0.02", "0.03", "0.05"], ["0.20", "0.21", "0.23", "0.24"]]
    true = [[_at(v, 4) for v in _layer_norm(row, "1e-5")] for row in small]
    assert true[0][0] != _at(_layer_norm(small[0], "0")[0], 4)  # the ε shows
    printed = [list(row) for row in true]
    printed[1][2] = _at(mpmath.mpf(true[1][2]) + mpmath.mpf("0.02"), 4)
    text = (
        "```python\n"
        f"x = torch.tensor([{', '.join('[' + ', '.join(r) + ']' for r in small)}])\n"
        "print(nn.LayerNorm(4)(x))\n"
        "```\n\n"
        "```\n"
        f"{_tensor(printed)}\n"
        "```\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(8, printed[1][2])]
    ok = sorted(f.claimed for f in report.findings if f.status == "ok" and f.line in (7, 8))
    assert ok == sorted(c for row in printed for c in row if c != printed[1][2])


def test_a_block_under_its_own_name_that_equals_its_node_is_confirmed():
    """``K = [...]`` of small integers: no digit is evidence, but the name and every cell are."""
    x = [[1, 1, 0], [0, 1, 1], [1, 0, 0]]
    w_q = [[1, 0], [0, 1], [1, 1]]
    w_k = [[0, 1], [1, 0], [1, 0]]
    w_v = [[1, 1], [0, 1], [1, 0]]

    def mul(a, b):
        return [
            [sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))
        ]

    def bmatrix(m):
        return r"\begin{bmatrix}" + r"\\".join("&".join(str(v) for v in row) for row in m) + r"\end{bmatrix}"

    q, k, v = mul(x, w_q), mul(x, w_k), mul(x, w_v)
    scores = [[sum(a * b for a, b in zip(qi, kj, strict=True)) / mpmath.sqrt(2) for kj in k] for qi in q]
    weights = []
    for row in scores:
        exps = [mpmath.e**s for s in row]
        weights.append([e / sum(exps) for e in exps])
    text = (
        f"$$X={bmatrix(x)}$$\n\n"
        f"$$W^Q={bmatrix(w_q)}\\quad W^K={bmatrix(w_k)}\\quad W^V={bmatrix(w_v)}$$\n\n"
        "Multiplying out:\n\n"
        f"$$Q={bmatrix(q)}\\qquad K={bmatrix(k)}\\qquad V={bmatrix(v)}$$\n\n"
        "The weights, row by row:\n\n"
        f"$$A={bmatrix([[_at(p, 4) for p in row] for row in weights])}$$\n"
    )
    report = verify_text(text)
    assert not report.wrong
    by_line = {}
    for f in report.findings:
        by_line.setdefault(f.line, []).append(str(f.status))
    assert by_line[7].count("ok") == 18  # Q, K and V: every cell
    assert by_line[11].count("ok") == 9


def test_matrices_written_side_by_side_and_weights_after_declared_scores():
    """``Q = [[..],    K = [[..],    V = [[..],`` over three lines: three matrices, each read on
    its own; the scores scaled under their own name, then rows of probabilities named as
    weights: their softmax, judged cell by cell (here two slips in every row)."""
    q = [["1", "0"], ["1", "1"], ["0", "2"]]
    k = [["0", "1"], ["1", "0"], ["1", "1"]]
    v = [["1", "2"], ["3", "4"], ["5", "6"]]
    scores = [
        [sum(mpmath.mpf(a) * mpmath.mpf(b) for a, b in zip(qi, kj, strict=True)) for kj in k] for qi in q
    ]
    scaled = [[s / mpmath.sqrt(2) for s in row] for row in scores]
    weights = []
    for row in scaled:
        exps = [mpmath.e**s for s in row]
        weights.append([e / sum(exps) for e in exps])
    shown = [[_at(p, 2) for p in row] for row in weights]
    move = mpmath.mpf("0.03")  # from the last cell to the middle one: rows still sum to 1
    slipped = [
        [row[0], _at(mpmath.mpf(row[1]) + move, 2), _at(mpmath.mpf(row[2]) - move, 2)] for row in shown
    ]

    def rows(m, indent):
        return (",\n" + " " * indent).join("[" + ", ".join(m_row) + "]" for m_row in m)

    lines = [
        "```",
        f"Q = [[{', '.join(q[0])}],    K = [[{', '.join(k[0])}],    V = [[{', '.join(v[0])}],",
        f"     [{', '.join(q[1])}],         [{', '.join(k[1])}],         [{', '.join(v[1])}],",
        f"     [{', '.join(q[2])}]]         [{', '.join(k[2])}]]         [{', '.join(v[2])}]]",
        "```",
        "",
        "```",
        f"Scaled = [{rows([[_at(s, 2) for s in row] for row in scaled], 10)}]",
        "```",
        "",
        "```",
        f"Weights ≈ [{rows(slipped, 11)}]",
        "```",
    ]
    report = verify_text("\n".join(lines) + "\n")
    wrong = sorted((f.line, f.claimed) for f in report.wrong)
    assert wrong == sorted((14 + i, slipped[i][j]) for i in range(3) for j in (1, 2))
    ok = [f for f in report.findings if f.status == "ok" and f.line in (8, 9, 10)]
    assert len(ok) == 9  # the scaled scores, under their own name


def test_rows_under_labels_of_their_own_with_masked_cells():
    """``t2   [0.2    0.9    -∞ ]``: rows each after a label are one matrix; ``-∞`` is a masked
    score; the softmax printed under it in the same layout is judged row by row."""
    scores = [["0.5"], ["0.2", "0.9"], ["1.1", "0.3", "0.8"]]
    probs = []
    for row in scores:
        exps = [mpmath.e ** mpmath.mpf(s) for s in row]
        probs.append([_at(e / sum(exps), 4) for e in exps])
    slipped = [list(row) for row in probs]
    slipped[2][0] = _at(mpmath.mpf(probs[2][0]) + mpmath.mpf("0.0100"), 4)
    slipped[2][2] = _at(mpmath.mpf(probs[2][2]) - mpmath.mpf("0.0100"), 4)

    def table(rows, fill):
        return "\n".join(
            f"t{i + 1}   [" + "   ".join(f"{c:<7}" for c in [*row, *[fill] * (3 - len(row))]) + "]"
            for i, row in enumerate(rows)
        )

    text = (
        "```\n"
        "Masked scores:\n"
        f"{table(scores, '-∞')}\n"
        "\n"
        "Softmax (each row sums to 1):\n"
        f"{table(slipped, '0')}\n"
        "```\n"
    )
    report = verify_text(text)
    assert sorted((f.line, f.claimed) for f in report.wrong) == sorted(
        [(10, slipped[2][0]), (10, slipped[2][2])]
    )
    ok = sorted(f.claimed for f in report.findings if f.status == "ok" and f.line in (8, 9, 10))
    assert ok == sorted([*probs[0], *probs[1], probs[2][1]])


def test_a_block_right_under_another_convention_is_not_called_wrong():
    """The scaled scores follow 1/√d_k as their line says; the weights after them follow
    1/d_k.  The hypothesis that explains most digits (1/d_k) may not call the scaled scores
    wrong: under 1/√d_k every one of them is right."""
    root2 = mpmath.sqrt(2)
    scaled = _at(4 / root2, 3)
    exps = [mpmath.e ** mpmath.mpf(2), mpmath.mpf(1)]  # softmax at 1/d_k: [4, 0] / 2
    weights = [_at(e / sum(exps), 3) for e in exps]
    text = (
        "Let $Q = K = V = \\begin{pmatrix} 2 & 0 \\\\ 0 & 2 \\end{pmatrix}$.\n\n"
        "Scores = $\\begin{pmatrix} 4 & 0 \\\\ 0 & 4 \\end{pmatrix}$.\n\n"
        f"Scaled = Scores / √2 ≈ $\\begin{{pmatrix}} {scaled} & 0 \\\\ 0 & {scaled} \\end{{pmatrix}}$.\n\n"
        f"α ≈ softmax ≈ $\\begin{{pmatrix}} {weights[0]} & {weights[1]} \\\\ {weights[1]} & {weights[0]} "
        "\\end{pmatrix}$.\n"
    )
    report = verify_text(text)
    assert not [f for f in report.wrong if f.line == 5]
