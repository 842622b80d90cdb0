"""The claims table: exact integer claims are called exact, LaTeX rows leave room for fractions."""

import re

import pytest

from symattn.derivation import derive
from symattn.spec import parse_spec

SPEC = """labels = ["a", "b"]
X = [[1, 0], [0, 1]]
mask = "causal"
[claims]
weights = [[1, 0], [0.33, 0.67]]
"""


@pytest.fixture(scope="module")
def derivation():
    return derive(parse_spec(SPEC, source=None))


def test_integer_claims_are_exact_not_roundings(derivation):
    md = derivation.to_markdown()
    assert "| $a_{11}$ | 1 | $1$ | 1.000 | exact |" in md
    assert "| $a_{12}$ | 0 | $0$ | 0.000 | exact |" in md
    assert "| 0.33024 | correct rounding |" in md
    assert "All 4 claimed entries hold: each is the exact value or its correct rounding." in md


def test_integer_claims_are_exact_in_chinese():
    md = derive(parse_spec(SPEC, source=None), lang="zh").to_markdown()
    assert "| $a_{11}$ | 1 | $1$ | 1.000 | 精确值 |" in md
    assert "全部 4 个文中值都成立：每个都是精确值或真实值的正确舍入。" in md


def test_one_wrong_entry_is_singular():
    spec = SPEC.replace("[0.33, 0.67]", "[0.34, 0.67]")
    md = derive(parse_spec(spec, source=None)).to_markdown()
    assert (
        "1 of the 4 claimed entries is wrong: $a_{21}$; the other 3 hold (exact values or correct roundings)."
        in md
    )


def test_latex_tables_have_taller_rows(derivation):
    tex = derivation.to_latex()
    claims = tex[tex.index("Checking the claimed numbers") :]  # after the importance section's shaded tables
    table = claims[claims.index(r"\begin{center}") :]
    assert table.startswith("\\begin{center}\n\\renewcommand{\\arraystretch}{2.2}\n\\begin{tabular}")


HEADS = """X = [[1, 0], [0, 1], [1, 1]]
[[heads]]
W_Q = [[1, 0], [0, 1]]
[[heads]]
W_Q = [[0, 1], [1, 0]]
[claims.head1]
weights = [[0.4, 0.2, 0.4], [0.2, 0.4, 0.4], [0.3, 0.3, 0.4]]
"""


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "attention weights of head 1"), ("zh", "第 1 个头的注意力权重")]
)
def test_a_head_claim_is_named_in_words_not_by_its_key(lang, words):
    derivation = derive(parse_spec(HEADS, source=None), lang=lang)
    md = derivation.to_markdown(pictures="heads")
    prose = re.sub(r"\]\([^)]*\)", "]", md)  # the picture's file name may keep the key
    assert "head1.weights" not in prose and words in prose
    (svg,) = [text for name, text in derivation.pictures("heads").items() if "claims" in name]
    assert "head1.weights" not in svg and words in svg
