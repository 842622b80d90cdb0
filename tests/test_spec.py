"""TOML specs: exact reading of numbers, labels, masks, heads and claims.

The spec files live in tests/specs/.  The last tests load a spec of the
reference example with the numbers its tutorial printed and check the verdict
on each claimed entry: weights rows 1-2 are correct roundings, row 3 is wrong,
and output row 3 is wrong only because it was computed from the wrong weights.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy
from sympy import Rational

import symattn
from symattn.examples import reference
from symattn.pipeline import Attention, MultiHead
from symattn.spec import load_spec, parse_spec

SPECS = Path(__file__).parent / "specs"
u = sympy.exp(sympy.sqrt(2) / 2)  # e^{√2/2}, the one transcendental of the reference example


# --- numbers are read exactly ----------------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        pytest.param("0.1", Rational(1, 10), id="0.1"),
        pytest.param("0.25", Rational(1, 4), id="0.25"),
        pytest.param("-2.50", Rational(-5, 2), id="trailing-zero"),
        pytest.param("1e-1", Rational(1, 10), id="exponent"),
        pytest.param("0.30000000000000004", Rational(30000000000000004, 10**17), id="long-decimal"),
        pytest.param("7", Rational(7), id="int"),
        pytest.param('"1/3"', Rational(1, 3), id="fraction-string"),
        pytest.param('"-0.125"', Rational(-1, 8), id="decimal-string"),
        pytest.param('"sqrt(2)"', sympy.sqrt(2), id="sqrt-string"),
        pytest.param('"x_{1}"', sympy.Symbol("x_{1}", real=True), id="symbol-string"),
    ],
)
def test_toml_entries_are_exact(toml, expected) -> None:
    att = parse_spec(f"X = [[{toml}, 1]]\n").run()
    assert att.X[0, 0] == expected


def test_toml_float_with_underscores() -> None:
    att = parse_spec("X = [[1_000.5, 1]]\n").run()
    assert att.X[0, 0] == Rational(2001, 2)


def test_toml_floats_never_become_binary_floats() -> None:
    spec = parse_spec("X = [[0.1, 0.2], [0.3, 1]]\n")
    raw = [value for row in spec.X for value in row]
    assert not any(isinstance(value, float) for value in raw)
    assert [str(value) for value in raw] == ["0.1", "0.2", "0.3", "1"]
    att = spec.run()
    assert att.X[0, 0] + att.X[0, 1] == att.X[1, 0]  # 0.1 + 0.2 == 0.3, exactly


def test_spec_file_with_floats_strings_and_ints() -> None:
    att = load_spec(SPECS / "strings_and_floats.toml").run()
    assert att.X.tolist() == [[Rational(1, 10), Rational(1, 2)], [3, sympy.sqrt(2)]]
    assert att.W_V.tolist() == [[Rational(1, 4), -1], [Rational(-1, 2), Rational(3, 2)]]


@pytest.mark.parametrize(
    ("printed", "places"),
    [
        pytest.param("0.4", 1, id="one-place"),
        pytest.param("0.40", 2, id="two-places-kept"),
        pytest.param("0.400", 3, id="three-places-kept"),
        pytest.param("1", None, id="integer-is-exact"),
    ],
)
def test_claims_keep_their_printed_places(printed, places) -> None:
    spec = parse_spec(f"X = [[1, 0], [0, 1]]\n[claims]\nweights = [[{printed}, 0.3], [0.3, 0.7]]\n")
    assert str(spec.claims["weights"][0][0]) == printed
    (comparison,) = spec.run().check(spec.claims)
    claim = comparison.cells[0][0].claim
    assert (claim.text, claim.places) == (printed, places)


def test_claim_at_two_places_is_judged_at_two_places() -> None:
    # true weights[1,1] = e^{√2/2}/(1 + e^{√2/2}) = 0.6698...: "0.7" holds, "0.70" does not
    spec = parse_spec("X = [[1, 0], [0, 1]]\n[claims]\nweights = [[0.7, 0.3], [0.33, 0.67]]\n")
    (comparison,) = spec.run().check(spec.claims)
    assert [[cell.kind for cell in row] for row in comparison.cells] == [["ok", "ok"], ["ok", "ok"]]
    spec = parse_spec("X = [[1, 0], [0, 1]]\n[claims]\nweights = [[0.70, 0.30], [0.33, 0.67]]\n")
    (comparison,) = spec.run().check(spec.claims)
    assert [cell.kind for cell in comparison.cells[0]] == ["wrong", "wrong"]
    assert [cell.decimal for cell in comparison.cells[0]] == ["0.66976", "0.33024"]


# --- labels, scale, cross-attention -------------------------------------------------------


def test_labels_and_title() -> None:
    spec = load_spec(SPECS / "reference.toml")
    assert spec.title == "Three tokens, identity projections"
    assert spec.labels == ("x_1", "x_2", "x_3")
    assert spec.run().labels == ("x_1", "x_2", "x_3")
    assert spec.source == str(SPECS / "reference.toml")


def test_cross_attention_spec_with_scale_and_temperature() -> None:
    att = load_spec(SPECS / "cross.toml").run()
    assert isinstance(att, Attention)
    assert att.is_cross
    assert att.labels == ("query",)
    assert att.kv_labels == ("k1", "k2", "k3")
    assert att.factor == Rational(1, 4)  # scale 0.5 divided by temperature 2
    assert att.scaled.tolist() == [[Rational(1, 4), 0, Rational(1, 4)]]
    e = sympy.exp(Rational(1, 4))
    for got, want in zip(
        att.weights.row(0), [e / (1 + 2 * e), 1 / (1 + 2 * e), e / (1 + 2 * e)], strict=True
    ):
        assert sympy.together(got - want) == 0


# --- masks --------------------------------------------------------------------------------

LOWER = "X = [[1, 0], [0, 1], [1, 1]]\n"


@pytest.mark.parametrize(
    "mask",
    [
        pytest.param('"causal"', id="causal"),
        pytest.param("[[true, false, false], [true, true, false], [true, true, true]]", id="boolean"),
        pytest.param('[[0, "-inf", "-inf"], [0, 0, "-inf"], [0, 0, 0]]', id="additive-strings"),
        pytest.param("[[0, -inf, -inf], [0, 0, -inf], [0, 0, 0]]", id="additive-toml-inf"),
        pytest.param('[[0, -inf, "-inf"], [0.0, 0, -inf], [0, 0, 0]]', id="additive-mixed"),
    ],
)
def test_mask_forms_agree_with_the_api(mask) -> None:
    att = parse_spec(f"{LOWER}mask = {mask}\n").run()
    expected = symattn.attention([[1, 0], [0, 1], [1, 1]], mask="causal")
    assert att.mask == expected.mask
    assert att.weights == expected.weights
    assert att.weights[0, 1] == 0 and att.weights[0, 2] == 0 and att.weights[1, 2] == 0
    for i in range(3):
        assert sympy.together(sum(att.weights.row(i))) == 1


def test_toml_nan_in_a_matrix_is_refused() -> None:
    spec = parse_spec("X = [[nan, 1]]\n", "n.toml")
    with pytest.raises(
        symattn.SymattnError, match=r"^n\.toml:1: X\[1,1\]: 'nan' is not a finite real number$"
    ):
        spec.run()


# --- heads with W_O -----------------------------------------------------------------------


def test_heads_with_w_o() -> None:
    result = load_spec(SPECS / "two_heads.toml").run()
    assert isinstance(result, MultiHead)
    assert len(result.heads) == 2
    assert result.labels == ("p", "q", "r")
    assert result.W_O.tolist() == [[1, 0], [0, 1], [Rational(1, 2), 0], [0, Rational(-1, 2)]]
    swap = [[0, 1], [1, 0]]
    direct = symattn.multihead(
        [[1, 0], [0, 1], [1, 1]],
        heads=[(None, None, None), (swap, swap, [[2, 0], [0, "1/3"]])],
        W_O=[[1, 0], [0, 1], ["1/2", 0], [0, "-1/2"]],
    )
    assert result.concat == direct.concat
    assert result.output == direct.output
    assert result.concat.shape == (3, 4) and result.output.shape == (3, 2)
    # output = head1 + (1/2, -1/2)·head2, column by column, exactly
    head1, head2 = result.heads[0].output, result.heads[1].output
    for i in range(3):
        assert sympy.together(result.output[i, 0] - head1[i, 0] - head2[i, 0] / 2) == 0
        assert sympy.together(result.output[i, 1] - head1[i, 1] + head2[i, 1] / 2) == 0


# --- the reference example and its tutorial's claims ------------------------------------------


@pytest.fixture(scope="module")
def reference_spec():
    return load_spec(SPECS / "reference.toml")


def test_reference_spec_matches_the_built_in_example(reference_spec) -> None:
    att = reference_spec.run()
    built_in = reference()
    assert att.weights == built_in.run().weights
    printed = {name: [[str(v) for v in row] for row in rows] for name, rows in reference_spec.claims.items()}
    assert printed == built_in.claims
    row3 = [1 / (2 + u), 1 / (2 + u), u / (2 + u)]
    for got, want in zip(att.weights.row(2), row3, strict=True):
        assert sympy.together(got - want) == 0


def test_reference_claims_give_the_right_verdicts(reference_spec) -> None:
    att = reference_spec.run()
    weights, output = att.check(reference_spec.claims)
    assert (weights.name, output.name) == ("weights", "output")
    assert [[cell.kind for cell in row] for row in weights.cells] == [["ok"] * 3, ["ok"] * 3, ["wrong"] * 3]
    assert [[cell.kind for cell in row] for row in output.cells] == [["ok"] * 2, ["ok"] * 2, ["carried"] * 2]
    assert [cell.carried_from for cell in output.cells[2]] == ["weights", "weights"]
    assert [cell.decimal for cell in output.cells[2]] == ["0.7517", "0.7517"]
    assert [cell.difference for cell in output.cells[2]] == ["0.0517", "0.0517"]
    # the outputs the claimed weights imply, next to the true outputs
    assert weights.recomputed_output.row(2).tolist() == [[Rational(7, 10), Rational(7, 10)]]
    assert weights.true_output == att.output
    assert not weights.ok and not output.ok
    assert [(cell.row, cell.col) for cell in weights.wrong] == [(3, 1), (3, 2), (3, 3)]


def test_multi_head_spec_can_claim_a_heads_weights() -> None:
    text = (SPECS / "two_heads.toml").read_text(encoding="utf-8")
    text += '\n[claims]\n"head1.weights" = [[0.40, 0.20, 0.40], [0.20, 0.40, 0.40], [0.25, 0.25, 0.50]]\n'
    spec = parse_spec(text, "claims.toml")
    (comparison,) = spec.run().check(spec.claims)
    assert comparison.ok


# --- block specs: [positional], [[layers]], [unembed] and claims for every stage ------------------------


def test_a_block_spec_is_read_with_its_stage_names_and_nested_claims() -> None:
    from symattn.blockspec import BlockSpec

    spec = load_spec(SPECS / "block_encoder.toml")
    assert isinstance(spec, BlockSpec)
    assert spec.stage_names[:4] == ("X", "positional", "embedded", "layer1.attention.head1.weights")
    assert spec.stage_names[-3:] == ("logits", "probabilities", "output")
    assert spec.layers[0]["activation"] == "relu" and spec.layers[0]["norm"] == "post"
    assert spec.layers[0]["ffn"][1] == [0, "0.5", "-0.25"]  # decimal text kept, never a float
    text = (SPECS / "block_encoder.toml").read_text(encoding="utf-8") + (
        "[claims.layer1.attention.head2]\nweights = [[0.3, 0.3, 0.4], [0.3, 0.3, 0.4], [0.3, 0.3, 0.4]]\n"
    )
    nested = parse_spec(text, "nested.toml")
    assert set(nested.claims) == {"positional", "layer1.attention.head2.weights"}
    comparisons = nested.check()
    assert [c.name for c in comparisons] == ["positional", "layer1.attention.head2.weights"]


def test_a_block_spec_with_learned_positions_gqa_and_a_decoder() -> None:
    spec = load_spec(SPECS / "block_decoder.toml")
    assert spec.positional == [[0, "0.1"], ["0.2", 0]]
    decoder, encoder = spec.layers
    assert decoder["kind"] == "decoder" and decoder["ln_2"] == ([2, 1], [0, "0.5"])
    assert encoder["kv_heads"] == [([[1], [1]], [[1], [-1]])] and encoder["ln_1"] == ([1, 2],)
    result = spec.run()
    assert result.matrix("positional") == sympy.ImmutableMatrix([[0, Rational(1, 10)], [Rational(1, 5), 0]])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            'X = [[1, 0]]\n[[layers]]\nkind = "middle"\n',
            "b.toml:3: layers[1].kind: unknown kind 'middle' (expected one of encoder, decoder)",
            id="layer-kind",
        ),
        pytest.param(
            'X = [[1, 0]]\n[positional]\nkind = "rotary"\n[[layers]]\n',
            "b.toml:3: positional.kind: unknown kind 'rotary' (expected one of sinusoidal, learned)",
            id="positional-kind",
        ),
        pytest.param(
            "X = [[1, 0]]\n[[layers]]\n[layers.attention]\n[[layers.attention.heads]]\n[layers.ffn]\nW_1 = [[1]]\n",
            "b.toml:5: layers[1].ffn has no W_2",
            id="ffn-without-W_2",
        ),
        pytest.param(
            'X = [[1, 0]]\n[[layers]]\nkind = "decoder"\n[layers.ffn]\nW_1 = [[1]]\nW_2 = [[1]]\n',
            "b.toml:2: layers[1] is a decoder and needs memory = [[…]] (the encoder output)",
            id="decoder-without-memory",
        ),
        pytest.param(
            "X = [[1, 0]]\nW_Q = [[1, 0], [0, 1]]\n[[layers]]\n",
            "b.toml:2: unknown key 'W_Q' in a block spec (known keys: title, X, memory, positional, layers, "
            "unembed, claims)",
            id="attention-key-in-a-block",
        ),
    ],
)
def test_block_spec_errors_name_the_line_and_the_field(text, message) -> None:
    with pytest.raises(symattn.errors.SymattnError) as caught:
        parse_spec(text, "b.toml")
    assert str(caught.value) == message
