"""How worked examples write what they compute, read as what it is (issue "Verify by explanation").

Each test is a form met in a first-contact round (docs/verify-first-contact.md, r10), written
here in our own words with other numbers; every true value comes from mpmath, never from
symattn.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import mpmath
import pytest

from symattn.verify import verify_text
from symattn.verify.explain import Block, Hypothesis, Lit, _misnamed

mpmath.mp.dps = 40


def _at(value: mpmath.mpf, places: int) -> str:
    return str(Decimal(mpmath.nstr(value, 30)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def _softmax(xs: list[str]) -> list[mpmath.mpf]:
    exps = [mpmath.e ** mpmath.mpf(x) for x in xs]
    return [e / sum(exps) for e in exps]


def _verdicts(text: str) -> dict[str, str]:
    report = verify_text(text)
    return {f"{f.line}:{f.claimed}": str(f.status) for f in report.findings}


def test_softmax_applied_to_the_entries_written_out_is_the_softmax_of_that_vector():
    scores = ["0.4", "1.1", "0.2"]
    true = [_at(p, 2) for p in _softmax(scores)]
    slipped = [true[0], true[1], _at(mpmath.mpf(true[2]) + mpmath.mpf("0.05"), 2)]
    text = (
        "Weights of the first token:\n\n"
        f"- Softmax({', '.join(scores)}) ≈ [{', '.join(true)}]\n"
        f"- softmax({', '.join(scores)}) = [{', '.join(slipped)}]\n"
    )
    report = verify_text(text)
    wrong = [(f.line, f.claimed) for f in report.wrong]
    assert wrong == [(4, slipped[2])]
    ok = sorted(f.claimed for f in report.findings if f.status == "ok" and f.line == 3)
    assert ok == sorted(true)


def test_a_nested_list_item_with_escaped_brackets_is_read():
    true = [_at(p, 4) for p in _softmax(["1", "2"])]
    text = f"*   **Weights:**\n    *   softmax(1, 2) ≈ \\[{true[0]}, {true[1]}]\n"
    assert _verdicts(text) == {
        f"2:{true[0]}": "ok",
        f"2:{true[1]}": "ok",
        "2:1": "unverified",
        "2:2": "unverified",
    }


@pytest.mark.parametrize("language", ["rust", "c", "js", ""])
def test_a_comment_of_another_language_is_prose(language):
    e = _at(mpmath.e ** mpmath.mpf("0.5"), 4)
    text = f"```{language}\nlet x = 0.5;\n// e^0.5 = {e}\n// e^0.5 = 1.9\n```\n"
    verdicts = _verdicts(text)
    assert verdicts[f"3:{e}"] == "ok"
    assert verdicts["4:1.9"] == "wrong"


def test_a_python_comment_among_hand_arithmetic_is_still_a_comment():
    text = "```python\n# e^0.5 = 1.9 (a rough guess, not a result)\n```\n"
    assert "wrong" not in _verdicts(text).values()


def test_angles_in_degrees_pi_and_arrows():
    cos30, sin30 = _at(mpmath.cos(mpmath.pi / 6), 3), _at(mpmath.sin(mpmath.pi / 6), 1)
    text = (
        f"$$(1, 0) \\to (\\cos 30^\\circ, \\sin 30^\\circ) \\approx ({cos30}, {sin30})$$\n\n"
        f"$$\\cos(\\pi/3) = {_at(mpmath.cos(mpmath.pi / 3), 1)}$$\n\n"
        "$$\\cos 60° = 0.6$$\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(5, "0.6")]
    ok = {(f.line, f.claimed) for f in report.findings if f.status == "ok"}
    assert {(1, cos30), (1, sin30), (3, "0.5")} <= ok


def test_an_arrow_is_a_step_to_something_else_not_an_equality():
    text = "$$(0, 1) \\to (-0.5, 0.866)$$\n"  # a rotation's result, not (0, 1) itself
    assert "wrong" not in _verdicts(text).values()


def test_a_matrix_put_in_for_a_product_is_claimed_as_that_product():
    q = [["1.0", "0.5"], ["0.8", "0.3"]]
    dots = [[sum(mpmath.mpf(a) * mpmath.mpf(b) for a, b in zip(r, c, strict=True)) for c in q] for r in q]
    printed = [[_at(d, 2) for d in row] for row in dots]
    printed[0][1] = printed[1][0] = "1.01"  # a slip, as published: 0.95
    scaled = [[_at(mpmath.mpf(p) / mpmath.mpf("1.414"), 2) for p in row] for row in printed]

    def rows(m):
        return ",\n          ".join(f"[{', '.join(r)}]" for r in m)

    text = (
        "```\n"
        f"q = [[{'], ['.join(', '.join(r) for r in q)}]]\n\n"
        "scores = q @ q^T / sqrt(2)\n"
        f"       = [{rows(printed)}] / 1.414\n"
        f"       = [{rows(scaled)}]\n"
        "```\n"
    )
    report = verify_text(text)
    slips = sorted((f.line, f.claimed, str(f.kind)) for f in report.wrong if f.line in (5, 6))
    assert slips == [(5, "1.01", "slip"), (6, "1.01", "slip")]
    assert {(f.line, f.claimed) for f in report.findings if f.status == "ok"} >= {
        (5, printed[0][0]),
        (6, printed[1][1]),
    }


def test_a_block_restating_printed_results_says_what_they_said():
    a, b = "2.718 + 7.389 + 20.086", "54.598 + 148.413 + 403.429"
    sums = [str(sum(Decimal(x) for x in s.split(" + "))) for s in (a, b)]
    text = f"```\nrow 0: {a} = {sums[0]}\nrow 1: {b} = 606.54\npartition = [[{sums[0]}], [606.54]]\n```\n"
    report = verify_text(text)
    by_place = {(f.line, f.claimed): f for f in report.findings}
    assert str(by_place[(2, sums[0])].status) == "ok" and str(by_place[(4, sums[0])].status) == "ok"
    assert str(by_place[(3, "606.54")].status) == "wrong"
    carried = by_place[(4, "606.54")]
    assert str(carried.status) == "wrong" and str(carried.kind) == "carried" and carried.carried_from == 3


def _block(name: str, line: int) -> Block:
    from fractions import Fraction

    return Block([[Lit("1", line, 1, Fraction(1), None), Lit("2", line, 4, Fraction(2), None)]], line, name)


def test_a_hypothesis_against_the_documents_names_may_confirm_but_not_accuse():
    v2, scaled, x = _block("V2", 1), _block("Scaled", 2), _block("X", 3)
    matrix = [[1, 2]]
    assert _misnamed(Hypothesis({"Q": matrix, "K": matrix}, (v2, scaled), {}))
    assert not _misnamed(Hypothesis({"Q": matrix, "K": matrix}, (x, x), {}))  # X as Q and K: no weights
    assert not _misnamed(Hypothesis({"Q": matrix, "K": matrix, "V": matrix}, (v2,), {}))  # Q = K = V
    assert not _misnamed(Hypothesis({"Q": matrix, "K": matrix}, (_block("", 1), _block("K", 2)), {}))


def test_a_chained_assignment_binds_every_name_and_a_slice_is_left_out():
    x = [["1.0", "0.5", "0.2"], ["0.8", "0.3", "0.9"]]
    head = [r[:2] for r in x]
    dots = [
        [sum(mpmath.mpf(a) * mpmath.mpf(b) for a, b in zip(r, c, strict=True)) for c in head] for r in head
    ]
    true = [[_at(d, 2) for d in row] for row in dots]
    slipped = [row[:] for row in true]
    slipped[1][1] = "0.84"  # as published: 0.73

    def matrix(m):
        return "[" + ", ".join(f"[{', '.join(r)}]" for r in m) + "]"

    for assignment in (f"q0 = x[:, :2] = {matrix(head)}", f"Head 0: q0 = x[:, :2] = {matrix(head)}"):
        text = f"```\nx = {matrix(x)}\n{assignment}\nscores = q0 @ q0.T = {matrix(slipped)}\n```\n"
        report = verify_text(text)
        assert [(f.line, f.claimed) for f in report.wrong] == [(4, "0.84")], assignment
        assert sum(f.status == "ok" for f in report.findings if f.line == 4) == 3


def test_q_k_v_bound_in_one_chained_assignment():
    text = (
        "```python\nimport numpy as np\nQ = K = V = np.array([[1.0, 0.5], [0.0, 1.0]])\n"
        "S = Q @ K.T\nprint(S)\n```\n\n```\n[[1.25 0.5 ]\n [0.5  1.1 ]]\n```\n"
    )
    report = verify_text(text)
    assert [f.claimed for f in report.wrong] == ["1.1"]


def _norm_document(heading: str, claim: str) -> str:
    return (
        "# 第 7 章 LayerNorm\n\n## 7.3 LayerNorm\n\n### 手算一个例子\n\n"
        "设某个 token 的 4 维向量为：$x = [2, 4, 4, 6]$\n\n"
        "$$\\mu = \\frac{2+4+4+6}{4} = 4$$\n\n"
        f"{heading}\n\n"
        f"```\n该 batch 里 d0 只有一个值，比如 2\n{claim}\n```\n"
    )


def test_the_row_a_bare_mu_speaks_of_is_the_one_its_section_gave():
    """A heading of the level of the section that gave the row, or above, ends it: a bare μ
    after it is of no row the reader knows; a deeper heading does not end it."""
    sibling = verify_text(_norm_document("## 7.4 BatchNorm 的问题", "均值 μ = 2"))
    assert [f.claimed for f in sibling.wrong] == []
    deeper = verify_text(_norm_document("#### 再看均值", "均值 μ = 5"))
    assert [f.claimed for f in deeper.wrong] == ["5"]


def test_a_function_called_by_its_module_in_hand_arithmetic():
    """``math.sqrt(2)`` in a line of hand arithmetic: the whole line is read, so the name it
    sets holds the new value, and the matrix printed next is judged by it, not by the old one."""
    scores = ["0.5", "1.2", "0.7"]
    true = [_at(mpmath.mpf(s) / mpmath.sqrt(2), 3) for s in scores]
    slipped = [*true[:2], _at(mpmath.mpf(true[2]) + mpmath.mpf("0.03"), 3)]
    text = (
        "```python\n"
        f"scores = [[{', '.join(scores)}]]\n"
        "scores = scores / math.sqrt(2) = scores / 1.414\n"
        f"scores = [[{', '.join(slipped)}]]\n"
        "```\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(4, slipped[2])]
    assert sorted(f.claimed for f in report.findings if f.line == 4 and f.status == "ok") == sorted(true[:2])


def test_a_pipeline_with_the_function_named_between_arrows():
    """``[..] -> softmax -> [..]``: the last is the softmax of the first; ``~0`` is about 0."""
    first, second = ["1.2", "0.4", "-0.3"], ["9", "1", "0"]
    p = [_at(x, 2) for x in _softmax(first)]
    q = _softmax(second)
    slipped = [p[0], _at(mpmath.mpf(p[1]) + mpmath.mpf("0.05"), 2), p[2]]
    text = (
        "```\n"
        f"scores: [{', '.join(first)}] -> softmax -> [{', '.join(p)}]\n"
        f"again:  [{', '.join(first)}] → softmax → [{', '.join(slipped)}]\n"
        f"sharp:  [{', '.join(second)}] -> softmax -> [{_at(q[0], 3)}, ~0, ~0]\n"
        "```\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(3, slipped[1])]
    assert sorted(f.claimed for f in report.findings if f.line == 2 and f.status == "ok") == sorted(p)
    assert [f.claimed for f in report.findings if f.line == 4 and f.status == "ok"] == [
        _at(q[0], 3),
        "0",
        "0",
    ]


def test_worked_math_in_a_programs_strings_and_an_indented_body():
    """A method's body cut out with its indent is a program; its string literals hold the worked
    math (LaTeX for a renderer, a label in words), read as text; ``S'`` is a name of its own."""
    s = [["0.9", "0.3"], ["0.4", "1.2"]]
    scaled = [[mpmath.mpf(x) / mpmath.sqrt(2) for x in row] for row in s]
    probs = []
    for row in scaled:
        exps = [mpmath.e**x for x in row]
        probs.append([_at(e / sum(exps), 2) for e in exps])
    slipped = [probs[0], [_at(mpmath.mpf(probs[1][0]) - mpmath.mpf("0.05"), 2), probs[1][1]]]

    def pmatrix(m):
        return r"\begin{pmatrix} " + r" \\ ".join(" & ".join(row) for row in m) + r" \end{pmatrix}"

    text = (
        "```python\n"
        '        label = Text("Scale by √d_k = √2 ≈ 1.41")\n'
        f"        step = MathTex(r\"S' = \\frac{{1}}{{\\sqrt{{2}}}} {pmatrix(s)} = "
        f'{pmatrix([[_at(x, 2) for x in row] for row in scaled])}")\n'
        f'        soft = MathTex(r"A = \\text{{softmax}}(S\') = {pmatrix(slipped)}")\n'
        "        self.play(Write(step))\n"
        "```\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(4, slipped[1][0])]
    assert [f.claimed for f in report.findings if f.line == 2 and f.status == "ok"] == ["1.41"]
    assert len([f for f in report.findings if f.line == 3 and f.status == "ok"]) == 4


def test_the_prose_of_html_with_its_tags_as_line_breaks():
    """``<p>…= 0.66<br>…= 1.07</p>``, in Markdown's HTML and in a page a script builds: the
    tags end a statement as a line break would."""
    dots = [("1.0", "0.5", "0.2", "0.8"), ("1.0", "1.0", "0.2", "0.3")]
    true = [str(Decimal(a) * Decimal(b) + Decimal(c) * Decimal(d)) for a, b, c, d in dots]
    wrong = str(Decimal(true[1]) + Decimal("0.3"))  # beyond what rounded operands allow
    html = (
        f'<p class="mono">a: {dots[0][0]}×{dots[0][1]} + {dots[0][2]}×{dots[0][3]} = {true[0]}<br>'
        f"b: {dots[1][0]}×{dots[1][1]} + {dots[1][2]}×{dots[1][3]} = {wrong}</p>"
    )
    for text, line in ((html + "\n", 1), (f"```js\nconst page = `\n{html}\n`\n```\n", 3)):
        report = verify_text(text)
        assert [(f.line, f.claimed) for f in report.wrong] == [(line, wrong)]
        assert [f.claimed for f in report.findings if f.status == "ok"] == [true[0]]


def test_names_set_anew_by_a_chained_definition():
    """``d_k = d_v = 512/8 = 64`` after ``d_k = d_v = 2``: both names are set anew by the
    computation; neither is compared with its old value, and 64 used later is not carried."""
    text = (
        "A toy head first: d_k = d_v = 2.\n\n"
        "In the real model, d_k = d_v = 512/8 = 64 dimensions.\n\n"
        f"Per head: 3 × (512 × 64) = {3 * 512 * 64:,} parameters.\n"
    )
    report = verify_text(text)
    assert not report.wrong
    assert sorted(f.claimed for f in report.findings if f.status == "ok") == [
        "64",
        str(3 * 512 * 64),
    ]  # as read


def test_an_ellipsis_line_does_not_make_a_block_a_session():
    """``... continues to dimension 512`` in a block of hand arithmetic is an ellipsis, not a
    REPL's continuation prompt: the block is still read line by line."""
    value = _at(mpmath.sin(mpmath.mpf(2) / 5), 3)
    text = f"```\nPE(1,2) = sin(2/5) = {value}\nPE(1,3) = cos(2/5) = 0.5\n\n... continues to dimension 512\n```\n"
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(3, "0.5")]
    assert [f.claimed for f in report.findings if f.status == "ok"] == [value]


def test_arithmetic_after_a_name_the_grammar_cannot_write():
    """``P(A|selected) = 0.50/0.90 = 0.556``: the name is beyond the grammar, the arithmetic after
    it is still judged."""
    right = _at(mpmath.mpf("0.50") / mpmath.mpf("0.90"), 3)
    wrong = _at(mpmath.mpf("0.25") / mpmath.mpf("0.90") + mpmath.mpf("0.01"), 3)
    text = f"```\nP(A|selected) = 0.50/0.90 = {right}\nP(B|selected) = 0.25/0.90 = {wrong}\n```\n"
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(3, wrong)]
    assert [f.claimed for f in report.findings if f.status == "ok"] == [right]


# --- forms met in r12 and r13 (2026-12-05): comments, ASCII arrows, Unicode subscripts ----------


def test_worked_arithmetic_in_a_programs_comments_is_read_a_bare_remark_is_not():
    e = mpmath.e ** mpmath.mpf("0.5")
    share = _at(e / (e + 1), 4)
    slipped = _at(e / (e + 1) + mpmath.mpf("0.01"), 4)
    text = (
        "```python\n"
        "import torch\n"
        "x = torch.tensor([0.5, 0.0])\n"
        f"# e^0.5 / (e^0.5 + e^0) = {share}\n"
        f"# 1 - {share} = {slipped}\n"
        "# each row should have mean≈0, std≈2\n"
        "w = torch.softmax(x, dim=-1)\n"
        "```\n"
    )
    report = verify_text(text)
    assert [(f.line, f.claimed) for f in report.wrong] == [(5, slipped)]
    assert any(f.line == 4 and f.claimed == share and f.status == "ok" for f in report.findings)
    assert not [f for f in report.findings if f.line == 6]  # which of the program's values? not said


def test_an_ascii_arrow_and_a_rounded_root_used_in_a_vector():
    root = _at(mpmath.sqrt(2), 3)
    inverse = _at(1 / mpmath.sqrt(2), 4)  # 0.7071 (1/1.414 would give 0.7072)
    text = f"```\n# scale -> sqrt(2) = {root}\n# -> [1.0 / {root}, 0.0] = [{inverse}, 0.0]\n```\n"
    verdicts = _verdicts(text)
    assert verdicts[f"2:{root}"] == "ok"
    assert verdicts[f"3:{inverse}"] == "ok"
    assert "wrong" not in verdicts.values()


def test_the_last_line_of_a_c_block_comment_is_read():
    text = "```c\n/* out = 0.25 * [8, 0] + 0.75 * [0, 4]\n *     = [2, 4] */\nfloat x = 1.0f;\n```\n"
    assert [(f.line, f.claimed) for f in verify_text(text).wrong] == [(3, "4")]


def test_names_with_unicode_subscripts_and_the_natural_log():
    loss = _at(-mpmath.log(mpmath.mpf("0.2")), 3)
    text = (
        f"score₂ⱼ = 0.5 + 0.25 = 0.85\n\nA₂₃ = 0.4\n\nloss = -ln(0.2) = {loss}\n\n"
        f"ln(0.2) = -{_at(mpmath.mpf(loss) + mpmath.mpf('0.1'), 3)}\n"
    )
    verdicts = _verdicts(text)
    assert verdicts["1:0.85"] == "wrong"
    assert verdicts[f"5:{loss}"] == "ok"
    assert [k for k, v in verdicts.items() if v == "wrong" and k.startswith("7:")]


def test_tanh_written_in_latex_or_in_text():
    true = _at(mpmath.tanh(mpmath.mpf("0.8")), 4)
    off = _at(mpmath.mpf(true) + mpmath.mpf("0.0004"), 4)
    verdicts = _verdicts(f"$\\tanh(0.8) = {true}$\n\ntanh(0.8) ≈ {off}\n")
    assert verdicts == {"1:0.8": "unverified", f"1:{true}": "ok", "3:0.8": "unverified", f"3:{off}": "wrong"}


def test_a_dot_product_written_out_after_its_name_is_a_step_of_exact_arithmetic():
    text = "Q₁ = [0.2, 0.5], K₁ = [0.1, 0.4]\n\nQ₁·K₁ = 0.2×0.1 + 0.5×0.4 = 0.02 + 0.20 = 0.22\n"
    verdicts = _verdicts(text)
    assert verdicts["3:0.02"] == verdicts["3:0.20"] == verdicts["3:0.22"] == "ok"


def test_a_weighted_sum_restates_a_computed_row_of_weights():
    scores = ["-0.8", "-0.2", "0.7"]
    printed = ["0.12", "0.22", "0.66"]  # softmax(scores) is [0.1446, 0.2634, 0.5920]
    text = (
        "```\n"
        f"A₂ⱼ = softmax([{', '.join(scores)}]) = [{', '.join(printed)}]\n\n"
        "V₁ = x₁ · W = [-0.4, 1.0]\nV₂ = x₂ · W = [0.6, -0.5]\nV₃ = x₃ · W = [1.2, 0.3]\n\n"
        "o₂ = 0.12×[-0.4, 1.0] + 0.22×[0.6, -0.5] + 0.66×[1.2, 0.3]\n"
        "```\n"
    )
    wrong = {(f.line, f.claimed) for f in verify_text(text).wrong}
    assert {(8, p) for p in printed} <= wrong  # carried from line 2, where they are wrong


def test_a_given_matrix_with_a_row_equal_to_a_wrong_result_is_given():
    text = (
        "```python\n"
        "X = [[1.0, 0.0], [0.0, 1.0]]\nW = [[0.3, 0.4], [0.7, 0.8]]\n"
        "# Q = X @ W\n"
        "Q = [[0.3, 0.4], [0.7, 0.9]]\n"
        "W2 = [[0.1, 0.2], [0.7, 0.9], [0.5, 0.6], [0.2, 0.3]]\n"
        "```\n"
    )
    wrong = {(f.line, f.claimed) for f in verify_text(text).wrong}
    assert (5, "0.9") in wrong
    assert not {w for w in wrong if w[0] == 6}


def test_an_all_zero_block_takes_no_role():
    from fractions import Fraction

    from symattn.verify.explain import _hypotheses

    def block(rows: list[list[int]], line: int) -> Block:
        return Block(
            [[Lit(str(v), line, 1 + 3 * j, Fraction(v), None) for j, v in enumerate(r)] for r in rows], line
        )

    keys, empty, values, query = (
        block([[1, 0], [0, 1]], 2),
        block([[0, 0], [0, 0]], 3),
        block([[10, 0], [0, 20]], 4),
        block([[1, 0]], 6),
    )
    hypotheses, _ = _hypotheses([keys, empty, values, empty, query])
    assert hypotheses
    assert not [h for h in hypotheses if any(root is empty for root in h.roots)]


def test_a_table_cell_that_works_something_out_is_read():
    true = [_at(p, 3) for p in _softmax(["0.2", "0"])]
    text = (
        "| case | weights |\n|---|---|\n"
        f"| wrong mask | Softmax([0.2,0]) = [{true[0]},{true[1]}] |\n"
        "| other | Softmax([0.2,0.9]) = [0.4,0.6] |\n"
    )
    verdicts = _verdicts(text)
    assert verdicts[f"3:{true[0]}"] == verdicts[f"3:{true[1]}"] == "ok"
    assert verdicts["4:0.4"] == "wrong"  # 0.332


# --- a form met in r15 (2026-12-05): an input given again is another input taken up ---------


def test_an_input_given_again_as_another_named_input_is_not_a_slip():
    # two prompts share one walk-through: V for prompt A, V_B for prompt B, and "Values" given
    # again for B with one cell changed, exactly V_B; the weighted sum then uses it
    w = [mpmath.mpf(p) for p in _softmax(["0.1", "0.4"])]
    shown = [_at(p, 3) for p in w]
    text = (
        "$$V_A = \\begin{bmatrix}1 & 0\\\\ 0 & 1\\end{bmatrix}, \\quad "
        "V_B = \\begin{bmatrix}-1 & 0\\\\ 0 & 1\\end{bmatrix}$$\n\n"
        "```text\n"
        "Prompt A\n"
        "Values  = [[1,0], [0,1]]\n"
        "\n"
        "Prompt B\n"
        f"weights = [{shown[0]}, {shown[1]}]\n"
        "Values  = [[-1,0], [0,1]]\n"
        f"o_B = {shown[0]} * [-1,0] + {shown[1]} * [0,1]\n"
        f"    = [-{shown[0]}, {shown[1]}]\n"
        "```\n"
    )
    report = verify_text(text)
    assert not report.wrong
    # the same block given again with one cell changed and no other input it could be: still
    # a slip in restating Values (the planted form of tests/corpus)
    slipped = text.replace("Values  = [[-1,0], [0,1]]", "Values  = [[1,0], [0,2]]")
    assert {(f.line, f.claimed) for f in verify_text(slipped).wrong} >= {(9, "2")}


# --- forms met in r15 (2026-12-05): row labels in words, a computed block printed with slips -


def _product(x: list[list[str]], w: list[list[str]]) -> list[list[Fraction]]:
    xs = [[Fraction(v) for v in row] for row in x]
    ws = [[Fraction(v) for v in row] for row in w]
    return [[sum(r[k] * ws[k][j] for k in range(len(ws))) for j in range(len(ws[0]))] for r in xs]


def _bmatrix(rows: list[list[str]]) -> str:
    return "\\begin{bmatrix} " + " \\\\ ".join(" & ".join(r) for r in rows) + " \\end{bmatrix}"


def test_a_column_of_word_labels_beside_a_matrix_is_not_a_factor():
    from symattn.latexparse import Matrix, parse_formula

    rows = [["1.0", "0.5"], ["0.2", "0.8"]]
    labels = "\\begin{matrix} \\text{猫} \\\\ \\text{坐} \\end{matrix}"
    elements = parse_formula(f"X = {_bmatrix(rows)} {labels}").chains[0].elements
    assert isinstance(elements[1], Matrix) and len(elements) == 2
    # a matrix of symbols beside it is still a factor
    product = parse_formula(f"Y = {_bmatrix(rows)} \\begin{{bmatrix}} x \\\\ y \\end{{bmatrix}}")
    assert not isinstance(product.chains[0].elements[1], Matrix)


def test_a_computed_block_printed_with_slips_is_a_claim_when_what_fits_is_evidence():
    x = [["1.0", "0.5"], ["0.2", "0.8"], ["0.4", "0.3"]]
    w = [["0.13", "0.27"], ["0.31", "0.45"]]
    true = _product(x, w)
    first = ["0.285", "0.495"]
    assert [Fraction(v) for v in first] == true[0]  # exact, and 4 digits of evidence
    slipped = [first, ["0.301", "0.427"], ["0.163", "0.251"]]  # rows 2 and 3 off in every cell
    assert all(
        Fraction(v) != t
        for r, tr in zip(slipped[1:], true[1:], strict=True)
        for v, t in zip(r, tr, strict=True)
    )
    labels = "\\begin{matrix} \\text{猫} \\\\ \\text{坐} \\\\ \\text{在} \\end{matrix}"
    text = (
        f"$$X = {_bmatrix(x)} {labels}$$\n\n"
        f"$$W_Q = {_bmatrix(w)}$$\n\n"
        "以第 1 行为例计算 $Q = X W_Q$，其余各行照此计算：\n\n"
        f"$$Q = {_bmatrix(slipped)}$$\n"
    )
    wrong = {(f.line, f.claimed) for f in verify_text(text).wrong}
    assert wrong == {(7, v) for v in ("0.301", "0.427", "0.163", "0.251")}
    # the same block with its first row off too: nothing that fits is evidence, so it may be new
    # inputs of another example, and nothing is called wrong
    fresh = text.replace(f"{first[0]} & {first[1]}", "0.310 & 0.520")
    assert not verify_text(fresh).wrong


# --- a form met in r7 (2026-12-05): each token's Q, K and V on its own line ------------------


def _grid_document(weights: list[str], scores: list[str]) -> str:
    return (
        "**Step 1: the vectors**\n\n"
        "```\n"
        'Token 1 "we":   Q₁ = [0.4, 0.1], K₁ = [0.3, 0.5], V₁ = [0.5, 0.2]\n'
        'Token 2 "see":  Q₂ = [0.6, 0.3], K₂ = [0.7, 0.2], V₂ = [0.3, 0.7]\n'
        'Token 3 "it":   Q₃ = [0.2, 0.9], K₃ = [0.1, 0.8], V₃ = [0.9, 0.4]\n'
        "```\n\n"
        f"**Scores of token 1:** [{', '.join(scores)}]\n\n"
        "Divide by √2 and take the softmax:\n\n"
        "```\n"
        f"Attention weights = [{', '.join(weights)}]\n"
        "```\n"
    )


def test_each_tokens_q_k_v_on_its_own_line_are_the_rows_of_q_k_v():
    q1, keys = ["0.4", "0.1"], [["0.3", "0.5"], ["0.7", "0.2"], ["0.1", "0.8"]]
    exact = [sum(Fraction(a) * Fraction(b) for a, b in zip(q1, k, strict=True)) for k in keys]
    scores = [_at(mpmath.mpf(s.numerator) / s.denominator, 2) for s in exact]
    true = [
        _at(p, 2)
        for p in _softmax([str(mpmath.mpf(s.numerator) / s.denominator / mpmath.sqrt(2)) for s in exact])
    ]
    assert abs(sum(Fraction(t) for t in true) - 1) <= Fraction(3, 200)  # a distribution, as rounded
    report = verify_text(_grid_document(true, scores))
    assert [str(f.status) for f in report.findings if f.line == 14] == ["ok"] * 3
    assert [str(f.status) for f in report.findings if f.line == 9] == ["ok"] * 3  # token 1's scores
    slipped = [
        _at(mpmath.mpf(true[0]) + mpmath.mpf("0.03"), 2),
        _at(mpmath.mpf(true[1]) - mpmath.mpf("0.03"), 2),
        true[2],
    ]
    verdicts = [str(f.status) for f in verify_text(_grid_document(slipped, scores)).findings if f.line == 14]
    assert verdicts == ["wrong", "wrong", "ok"]


# --- forms met in r14 and r8 (2026-12-05): units of memory, superscript digits ---------------


def _kv_document(per_token: str, total: str | None = None) -> str:
    lines = ["```", f"Memory per token = 2 × 32 × 4 × 64 × 2 = {per_token} per token", "```"]
    if total is not None:
        lines += ["", "```", f"Total KV cache = {per_token} × 4,096 = {total}", "```"]
    return "\n".join(lines) + "\n"


def test_a_result_in_units_of_memory_is_judged_in_either_count_of_bytes():
    size = 2 * 32 * 4 * 64 * 2  # bytes, exactly
    decimal, binary = Fraction(size, 1000), Fraction(size, 1024)
    assert (decimal, binary) == (Fraction("32.768"), 32)

    def verdicts(text: str) -> list[str]:
        return [str(f.status) for f in verify_text(text).findings if f.kind != "operand"]

    assert verdicts(_kv_document("32.8 KB")) == ["ok"]  # 1 KB = 1000 bytes
    assert verdicts(_kv_document("32 KB")) == ["ok"]  # 1 KB = 1024 bytes
    assert verdicts(_kv_document("16 KB")) == ["wrong"]  # neither
    # a document that counts in binary counts so throughout: 32 KiB × 4,096 is 128 MiB; 134 is
    # the same product read in decimal megabytes, right in neither count alone
    assert binary * 4096 / 1024 == 128
    assert [f.status for f in verify_text(_kv_document("32 KB", "128 MB")).findings if f.line == 6][
        -1
    ] == "ok"
    mixed = verify_text(_kv_document("32 KB", "134 MB"))
    assert [(f.line, f.claimed) for f in mixed.wrong] == [(6, "134")]
    # a quantity with its unit is one operand: 90 GB / 160 KB divides by both
    assert Fraction(90 * 10**9, 160 * 10**3) == 562500
    ratio = verify_text("```\nTokens = 90 GB / 160 KB = 562,500\n```\n")
    assert [str(f.status) for f in ratio.findings if f.kind != "operand"] == ["ok"]


def test_superscript_digits_are_an_exponent():
    assert 2**8 == 256
    text = "- 十进制：1 GB = 10⁹ bytes，2⁸ = 256。\n- 2⁸ = 265\n"
    wrong = {(f.line, f.claimed) for f in verify_text(text).wrong}
    assert wrong == {(2, "265")}
