"""derive's section "How important is each token?" (issue 12).

True values come from this file: mpmath for the weights, norms and lengths, and
mpmath.diff of an attention written here for the Jacobian norms; never from symattn.
"""

from __future__ import annotations

import re

import mpmath
import pytest
import sympy

from symattn import derivation, examples
from symattn.derivation import derive
from symattn.pipeline import attention
from symattn.render import steps as st

mpmath.mp.dps = 40
X_REF = [[1, 0], [0, 1], [1, 1]]


def _section(markdown: str) -> str:
    start = markdown.index("How important is each token?") if "How important" in markdown else None
    if start is None:
        start = markdown.index("每个词元有多重要？")
    rest = markdown[start:]
    end = rest.find("\n## ", 1)
    return rest if end < 0 else rest[:end]


@pytest.fixture(scope="module")
def reference_en():
    return derive(examples.reference())


@pytest.fixture(scope="module")
def section_en(reference_en):
    return _section(reference_en.to_markdown())


def _mp_attention(X, scale=None):
    """Self-attention with identity projections, in mpmath (independent of symattn)."""
    n, d = len(X), len(X[0])
    c = scale if scale is not None else 1 / mpmath.sqrt(d)
    out = []
    for i in range(n):
        s = [c * sum(X[i][k] * X[j][k] for k in range(d)) for j in range(n)]
        e = [mpmath.exp(v) for v in s]
        total = sum(e)
        a = [v / total for v in e]
        out.append([sum(a[j] * X[j][k] for j in range(n)) for k in range(d)])
    return out


def _mp_weights(X):
    n, d = len(X), len(X[0])
    rows = []
    for i in range(n):
        e = [mpmath.exp(sum(X[i][k] * X[j][k] for k in range(d)) / mpmath.sqrt(d)) for j in range(n)]
        rows.append([v / sum(e) for v in e])
    return rows


def _mp_jacobian_norm(X, i, j):
    """‖∂o_i/∂x_j‖_F by mpmath.diff, one input entry at a time."""
    d = len(X[0])
    total = mpmath.mpf(0)
    for c in range(d):
        for r in range(d):

            def f(t, c=c, r=r):
                Y = [[mpmath.mpf(v) for v in row] for row in X]
                Y[j][c] += t
                return _mp_attention(Y)[i][r]

            total += mpmath.diff(f, 0) ** 2
    return mpmath.sqrt(total)


def _certain(x, places=4) -> str:
    """x rounded half away from zero to ``places``, from a 40-digit value (no tie is near here)."""
    scaled = mpmath.mpf(x) * 10**places
    rounded = int(mpmath.floor(abs(scaled) + mpmath.mpf(1) / 2)) * (1 if scaled >= 0 else -1)
    sign = "-" if rounded < 0 else ""
    digits = str(abs(rounded)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def test_the_section_comes_after_the_analysis_in_both_languages():
    for lang, title in (("en", "## 7. How important is each token?"), ("zh", "## 7. 每个词元有多重要？")):
        md = derive(examples.reference(), lang=lang).to_markdown()
        headings = [line for line in md.splitlines() if line.startswith("## ")]
        assert headings[5].startswith("## 6.") and headings[6] == title


def test_norm_contributions_of_output_3_are_exactly_a_a_b_sqrt2(reference_en):
    step = next(s for s in reference_en.steps if isinstance(s, st.Importance))
    e = sympy.exp(sympy.sqrt(2) / 2)
    a, b = 1 / (2 + e), e / (2 + e)
    norms = step.rows[2].norms
    for value, expected in zip(norms, (a, a, b * sympy.sqrt(2)), strict=True):
        assert sympy.expand(value - expected) == 0
    assert step.lengths == (1, 1, sympy.sqrt(2))


def test_every_printed_number_of_the_reference_section_is_the_true_value(section_en):
    W = _mp_weights(X_REF)
    lengths = [mpmath.sqrt(sum(v**2 for v in row)) for row in X_REF]  # V = X
    for i in range(3):
        norms = [W[i][j] * lengths[j] for j in range(3)]
        for j in range(3):
            cell = f"{i + 1}{j + 1}"
            assert f"a_{{{cell}}} &\\approx {_certain(W[i][j])}" in section_en
            assert f"n_{{{cell}}} &= a_{{{cell}}} r_{{{j + 1}}}" in section_en
            pattern = re.escape(f"n_{{{cell}}} &=") + "[^&]*" + re.escape(f"\\approx {_certain(norms[j])}")
            assert re.search(pattern, section_en)
            assert f"g_{{{cell}}} &\\approx {_certain(_mp_jacobian_norm(X_REF, i, j))}" in section_en
        mean = sum(norms)
        assert (
            f"m_{{{i + 1}}} = n_{{{i + 1}1}} + n_{{{i + 1}2}} + n_{{{i + 1}3}} \\approx {_certain(mean)}"
            in section_en
        )
        assert f"n_{{{i + 1}3}} / m_{{{i + 1}}} \\approx {_certain(norms[2] / mean)}" in section_en
    assert (
        f"r_{{3}} = \\sqrt{{v_{{3}} \\cdot v_{{3}}}} = \\sqrt{{2}} \\approx {_certain(mpmath.sqrt(2))}"
        in section_en
    )


def test_token_3_matters_more_than_its_weight_because_its_value_vector_is_longer(section_en):
    output_3 = section_en[section_en.index("Output $o_{3}$") :]
    assert (
        "Token 3 ($x_{3}$) matters more than its weight suggests, because its value vector is longer:"
        in output_3
    )
    zh = _section(derive(examples.reference(), lang="zh").to_markdown())
    assert (
        "第 3 个词元（$x_{3}$）比它的权重显示的更重要，因为它的值向量更长" in zh[zh.index("输出 $o_{3}$") :]
    )


def test_the_tie_of_tokens_1_and_2_in_output_3_is_stated_as_exact(section_en):
    output_3 = section_en[section_en.index("Output $o_{3}$") :]
    assert (
        "Token 1 ($x_{1}$) and token 2 ($x_{2}$) tie exactly in the weights, the norm-based contributions"
        " and the Jacobian norms: $a_{31} = a_{32}$, $n_{31} = n_{32}$ and $g_{31} = g_{32}$ hold for the"
        " exact values, not only for their roundings."
    ) in output_3
    assert "token 1 ($x_{1}$) and token 2 ($x_{2}$) (tied exactly)" in output_3
    zh = _section(derive(examples.reference(), lang="zh").to_markdown())
    assert "在权重、基于范数的贡献和雅可比范数上精确相等" in zh[zh.index("输出 $o_{3}$") :]


def test_where_the_measures_disagree_the_reason_is_given(section_en):
    output_1 = section_en[section_en.index("Output $o_{1}$") : section_en.index("Output $o_{2}$")]
    # weights tie tokens 1 and 3; the norm puts 3 first (its value vector is longer) ...
    assert (
        "Against the order of the weights, $n_{13}$ is larger than $n_{11}$: the norm also counts" in output_1
    )
    # ... and the Jacobian puts 1 first: x_1 is the query's own token
    assert (
        "$g_{11}$ is larger than $g_{13}$: the Jacobian also follows the path through the query and the key"
        in output_1
    )
    assert "Here token 1 ($x_{1}$) is the query's own token, so moving it also moves $q_{1}$" in output_1
    # the independent values agree with that order
    assert _mp_jacobian_norm(X_REF, 0, 0) > _mp_jacobian_norm(X_REF, 0, 2)


def test_masked_tokens_get_zero_in_every_measure():
    md = derive(attention(X_REF, mask="causal")).to_markdown()
    section = _section(md)
    assert "g_{12} &= 0" in section and "n_{12} &= a_{12} r_{2} = 0" in section
    assert "The masked token 2 and token 3 get 0 in every measure." in section
    assert "The masked token 3 gets 0 in every measure." in section


def test_symbolic_inputs_give_lengths_in_closed_form_and_no_order():
    section = _section(derive(attention([["a", 0], [0, "b"]])).to_markdown())
    assert r"r_{1} = \sqrt{v_{1} \cdot v_{1}} = \left|{a}\right|" in section
    assert "depends on their values" in section and "g_{11}" not in section


def test_too_large_a_jacobian_is_left_out_in_words(monkeypatch):
    monkeypatch.setattr(derivation, "MAX_JACOBIAN_ENTRIES", 10)
    section = _section(derive(attention(X_REF)).to_markdown())
    assert (
        "The Jacobian norms are left out: they need 36 exact derivatives, more than the 10"
        " a derivation builds (symattn importance computes them)."
    ) in section
    assert "g_{11}" not in section and "n_{11} &= a_{11} r_{1}" in section


def test_heads_tag_every_name():
    mh = derive(_two_heads(), sections="all").to_markdown()
    section = _section(mh)
    assert "n^{(1)}_{11} &= a^{(1)}_{11} r^{(1)}_{1}" in section
    assert r"n^{(k)}_{ij} = \lVert a^{(k)}_{ij} v^{(k)}_j \rVert" in section
    # one entry per value vector: r_j = v_j1 (or -v_j1), which verify can check
    assert "r^{(1)}_{3} = v^{(1)}_{31} = 2" in section


def _two_heads():
    from symattn.pipeline import multihead

    return multihead(X_REF, [([[1], [0]], [[1], [0]], [[1], [1]]), ([[0], [1]], [[1], [1]], [[0], [-2]])])


def test_a_negative_single_entry_length_is_minus_the_entry():
    md = derive(_two_heads(), sections="all").to_markdown()
    assert "r^{(2)}_{2} = -v^{(2)}_{21} = 2" in md
