"""pipeline.py: the reference example exactly, compare/check, multi-head, cross-attention."""

import pytest
import sympy
from sympy import Rational

import symattn
from symattn.examples import reference
from symattn.pipeline import attention

u = sympy.exp(sympy.sqrt(2) / 2)


@pytest.fixture(scope="module")
def ref():
    return reference().run()


def test_reference_row3_closed_form(ref):
    expected = [1 / (2 + u), 1 / (2 + u), u / (2 + u)]
    for got, want in zip(ref.weights.row(2), expected, strict=True):
        assert sympy.together(got - want) == 0
    # the shortest form, structurally: 1/(2 + e^{√2/2})
    assert ref.weights[2, 0] == sympy.Pow(2 + u, -1)


def test_reference_rows_1_and_2(ref):
    row1 = [u / (1 + 2 * u), 1 / (1 + 2 * u), u / (1 + 2 * u)]
    row2 = [1 / (1 + 2 * u), u / (1 + 2 * u), u / (1 + 2 * u)]
    for i, expected in enumerate((row1, row2)):
        for got, want in zip(ref.weights.row(i), expected, strict=True):
            assert sympy.together(got - want) == 0


def test_reference_decimals(ref):
    assert ref.decimals("weights", 6)[2] == ["0.248255", "0.248255", "0.503490"]
    assert ref.decimals("output", 6)[2][0] == "0.751745"
    assert ref.decimals("scaled", 4) == [
        ["0.7071", "0.0000", "0.7071"],
        ["0.0000", "0.7071", "0.7071"],
        ["0.7071", "0.7071", "1.4142"],
    ]


def test_reference_rows_sum_to_exactly_one(ref):
    for i in range(3):
        assert sympy.together(sum(ref.weights.row(i))) == 1


def test_reference_compare_weights(ref):
    comparison = ref.compare("weights", reference().claims["weights"])
    kinds = [[cell.kind for cell in row] for row in comparison.cells]
    assert kinds == [["ok"] * 3, ["ok"] * 3, ["wrong"] * 3]
    third = comparison.cells[2]
    assert [cell.decimal for cell in third] == ["0.2483", "0.2483", "0.5035"]
    assert [cell.difference for cell in third] == ["-0.0517", "-0.0517", "0.1035"]
    # the output recomputed from the claimed weights, next to the true output
    assert comparison.recomputed_output.row(2).tolist() == [[sympy.Rational(7, 10)] * 2]
    assert comparison.true_output == ref.output


def test_reference_output_row3_is_carried(ref):
    claims = reference().claims
    (output,) = [c for c in ref.check(claims) if c.name == "output"]
    kinds = [[(cell.kind, cell.carried_from) for cell in row] for row in output.cells]
    assert kinds[:2] == [[("ok", None)] * 2] * 2
    assert kinds[2] == [("carried", "weights")] * 2
    assert [cell.decimal for cell in output.cells[2]] == ["0.7517", "0.7517"]


def test_output_without_claimed_weights_is_judged_alone(ref):
    comparison = ref.compare(
        "output",
        [
            ["0.8", "0.6"],
            ["0.6", "0.8"],
            ["0.7", "0.7"],
        ],
    )
    # 0.7 is 0.7517 cut to one place: without the claimed weights it reads as a rounding error
    assert [cell.kind for cell in comparison.cells[2]] == ["rounding", "rounding"]
    wrong = ref.compare("output", [["0.8", "0.6"], ["0.6", "0.8"], ["0.6", "0.7"]])
    assert [cell.kind for cell in wrong.cells[2]] == ["wrong", "rounding"]


def test_stages_are_ordered_records(ref):
    names = [stage.name for stage in ref.stages]
    assert names == ["X", "W_Q", "W_K", "W_V", "Q", "K", "V", "scores", "scaled", "weights", "output"]
    assert ref.stages[-1].value == ref.output
    assert ref.d_k == 2
    assert ref.factor == sympy.sqrt(2) / 2


def test_causal_mask_weights():
    att = symattn.attention([[1, 0], [0, 1], [1, 1]], mask="causal")
    assert att.weights[0, :].tolist() == [[1, 0, 0]]
    assert att.weights[1, 2] == 0
    assert sympy.together(sum(att.weights.row(1))) == 1
    assert att.decimals("scaled", 2)[0] == ["0.71", "-inf", "-inf"]


def test_additive_and_boolean_masks_agree():
    additive = symattn.attention([[1, 2], [3, 4]], mask=[[0, "-inf"], [0, 0]])
    boolean = symattn.attention([[1, 2], [3, 4]], mask=[[True, False], [True, True]])
    assert additive.weights == boolean.weights


def test_scale_and_temperature():
    att = symattn.attention([[1, 0], [0, 1]], scale="none", temperature=2)
    assert att.factor == sympy.Rational(1, 2)
    assert att.weights[0, 0] == sympy.exp(sympy.Rational(1, 2)) / (1 + sympy.exp(sympy.Rational(1, 2)))


def test_cross_attention_uses_x_kv_for_keys_and_values():
    att = symattn.attention([[1, 0]], X_kv=[[1, 0], [0, 1], [1, 1]])
    assert att.X_kv == att.K and att.X_kv == att.V
    assert att.scores.shape == (1, 3)
    assert att.decimals("weights", 4) == [["0.4011", "0.1978", "0.4011"]]


def test_multihead_concat_and_projection():
    swap = [[0, 1], [1, 0]]
    mh = symattn.multihead(
        [[1, 0], [0, 1], [1, 1]],
        heads=[(None, None, None), (swap, swap, None)],
        W_O=[[1, 0], [0, 1], [1, 0], [0, 1]],
    )
    assert mh.concat.shape == (3, 4)
    assert mh.output == (mh.heads[0].output + mh.heads[1].output).applyfunc(lambda e: e)
    assert mh.decimals("head1.weights", 4)[2] == ["0.2483", "0.2483", "0.5035"]


def test_symbolic_inputs_give_closed_forms():
    att = symattn.attention([["a", "b"], ["c", "d"]])
    a, b = sympy.Symbol("a", real=True), sympy.Symbol("b", real=True)
    assert att.scores[0, 0] == a**2 + b**2
    assert not att.is_numeric
    for i in range(2):
        assert sympy.together(sum(att.weights.row(i))) == 1
    with pytest.raises(symattn.SymattnError):
        att.decimals("weights", 3)


# --- the formula shown follows the scale (issue 11: STAGE_FORMULAS showed √d_k for every scale) --------


@pytest.mark.parametrize(
    ("options", "formula"),
    [
        pytest.param({}, r"\tilde{S} = \frac{Q K^{\top}}{\sqrt{d_k}}", id="sqrt_dk"),
        pytest.param({"scale": "none"}, r"\tilde{S} = Q K^{\top}", id="none"),
        pytest.param({"scale": "1/2"}, r"\tilde{S} = \frac{Q K^{\top}}{2}", id="one-half"),
        pytest.param({"scale": "3/7"}, r"\tilde{S} = \frac{3}{7} \, Q K^{\top}", id="three-sevenths"),
        pytest.param({"scale": "sqrt(3)"}, r"\tilde{S} = \sqrt{3} \, Q K^{\top}", id="root-three"),
        pytest.param({"temperature": 2}, r"\tilde{S} = \frac{Q K^{\top}}{2 \sqrt{2}}", id="temperature"),
        pytest.param({"scale": "none", "mask": "causal"}, r"\tilde{S} = Q K^{\top} + M", id="masked"),
    ],
)
def test_the_scaled_formula_follows_the_scale(options, formula) -> None:
    att = attention([[1, 0], [0, 1]], **options)  # d_k = 2
    assert att.formula("scaled") == formula
    assert dict((s.name, s.latex) for s in att.stages)["scaled"] == formula
    # the factor the formula names is the one applied: scaled = c · scores where unmasked
    c = {"sqrt_dk": 1 / sympy.sqrt(2), "none": sympy.Integer(1), "1/2": Rational(1, 2), "3/7": Rational(3, 7)}
    c.update({"sqrt(3)": sympy.sqrt(3)})
    expected = c[options.get("scale", "sqrt_dk")] / sympy.Integer(options.get("temperature", 1))
    assert att.factor == expected
    if "mask" not in options:
        assert att.scaled == att.scores * expected


def test_cross_attention_formulas_name_x_kv() -> None:
    att = attention([[1, 0]], X_kv=[[1, 0], [0, 1]], scale="none")
    formulas = {s.name: s.latex for s in att.stages}
    assert formulas["K"] == "K = X_{kv} W_K" and formulas["V"] == "V = X_{kv} W_V"
    assert formulas["scaled"] == r"\tilde{S} = Q K^{\top}"
