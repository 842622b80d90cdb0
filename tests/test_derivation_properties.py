"""Hypothesis properties of derivations on random small integer inputs."""

import re
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from symattn.derivation import derive
from symattn.pipeline import attention
from symattn.render import steps as st


@hs.composite
def inputs(draw):
    n = draw(hs.integers(1, 4))
    d = draw(hs.integers(1, 3))
    X = draw(hs.lists(hs.lists(hs.integers(-3, 3), min_size=d, max_size=d), min_size=n, max_size=n))
    return X, draw(hs.sampled_from([None, "causal"]))


def _reference(X, mask):
    """float64 attention with identity projections."""
    X = np.array(X, dtype=float)
    scores = X @ X.T / np.sqrt(X.shape[1])
    if mask == "causal":
        scores = np.where(np.triu(np.ones_like(scores), 1) == 1, -np.inf, scores)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights, weights @ X


def _close(decimal: str, value: float, places: int) -> bool:
    return abs(Fraction(decimal) - Fraction(value)) <= Fraction(1, 2 * 10**places) + Fraction(1, 10**9)


@settings(max_examples=25, deadline=None)
@given(inputs())
def test_printed_decimals_agree_with_float64(case):
    X, mask = case
    derivation = derive(attention(X, mask=mask), digits=4)
    weights, output = _reference(X, mask)
    softmax = next(s for s in derivation.steps if isinstance(s, st.Softmax))
    out = next(s for s in derivation.steps if isinstance(s, st.Output))
    for i, row in enumerate(softmax.decimals):
        assert all(_close(text, weights[i, j], 4) for j, text in enumerate(row))
    for i, row in enumerate(out.decimals):
        assert all(_close(text, output[i, k], 4) for k, text in enumerate(row))


@settings(max_examples=25, deadline=None)
@given(inputs())
def test_every_row_is_shown_to_sum_to_one_and_documents_are_well_formed(case):
    X, mask = case
    derivation = derive(attention(X, mask=mask), lang="zh")
    softmax = next(s for s in derivation.steps if isinstance(s, st.Softmax))
    assert all(row.sums_to_one for row in softmax.rows)
    md = derivation.to_markdown()
    assert md.count("\n$$\n") % 2 == 0
    assert md.count("=") > 0
    tex = derivation.to_latex(standalone=True)
    # display math \[ … \] pairs up; a row break with spacing (\\[4pt]) is not an opener
    assert len(re.findall(r"(?<!\\)\\\[", tex)) == len(re.findall(r"(?<!\\)\\\]", tex))
    assert tex.count("{") - tex.count("\\{") == tex.count("}") - tex.count("\\}")


@settings(max_examples=25, deadline=None)
@given(inputs())
def test_dominant_keys_hold_the_largest_weight(case):
    X, mask = case
    weights, _ = _reference(X, mask)
    derivation = derive(attention(X, mask=mask))
    analysis = next(s for s in derivation.steps if isinstance(s, st.Analysis))
    for i, row in enumerate(analysis.rows):
        assert row.dominant is not None
        top = weights[i].max()
        assert all(abs(weights[i, j - 1] - top) < 1e-12 for j in row.dominant)
        others = [j for j in range(len(weights[i])) if j + 1 not in row.dominant]
        assert all(weights[i, j] < top for j in others)
