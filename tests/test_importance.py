"""Exact attribution (symattn.importance) against an independent mpmath implementation.

The reference below re-implements attention, its outputs with a value zeroed, and
every measure in plain mpmath at 60 digits; Jacobians and gradients come from
mpmath.diff (a high-precision finite difference) of that re-implementation, never
from symattn's closed form.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import symattn
from symattn.errors import InputError, ShapeError, SymattnError
from symattn.importance import certified, compare, decimals, ranking, softmax_jacobian

mp = mpmath.mp
DPS = 60
TOLERANCE = mpmath.mpf(10) ** -35
JACOBIAN_DIGITS = 30


@pytest.fixture(autouse=True, scope="module")
def _restore_mpmath_precision():
    """The tests set mp.dps; other modules get back the precision they had."""
    saved = mp.dps
    yield
    mp.dps = saved


# --- the independent reference (mpmath only) -------------------------------------------


def mp_matrix(rows):
    return [[mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in row] for row in rows]


def mp_matmul(A, B):
    return [
        [mpmath.fsum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))]
        for i in range(len(A))
    ]


def mp_transpose(A):
    return [list(col) for col in zip(*A, strict=True)]


def mp_head(X, W_Q, W_K, W_V, *, X_kv=None, keep=None, zero_value=None):
    """(A, V, O) of one head; ``zero_value=j`` sets v_j to 0 after the projection (value zeroing)."""
    source = X_kv if X_kv is not None else X
    Q, K, V = mp_matmul(X, W_Q), mp_matmul(source, W_K), mp_matmul(source, W_V)
    if zero_value is not None:
        V = [[mpmath.mpf(0)] * len(row) if j == zero_value else row for j, row in enumerate(V)]
    c = 1 / mpmath.sqrt(len(W_Q[0]))
    S = [[c * s for s in row] for row in mp_matmul(Q, mp_transpose(K))]
    A = []
    for i, row in enumerate(S):
        live = [s for j, s in enumerate(row) if keep is None or keep[i][j]]
        top = max(live)
        e = [mpmath.exp(s - top) if keep is None or keep[i][j] else mpmath.mpf(0) for j, s in enumerate(row)]
        total = mpmath.fsum(e)
        A.append([t / total for t in e])
    return A, V, mp_matmul(A, V)


def mp_multihead_output(X, heads, W_O, *, X_kv=None, keep=None, zero_value=None):
    outputs = [mp_head(X, *head, X_kv=X_kv, keep=keep, zero_value=zero_value)[2] for head in heads]
    concat = [[v for out in outputs for v in out[i]] for i in range(len(X))]
    return mp_matmul(concat, W_O) if W_O is not None else concat


def mp_norm(vector):
    return mpmath.sqrt(mpmath.fsum(v * v for v in vector))


def mp_cos_score(zeroed, o):
    """1 − cos, with the conventions symattn documents for zero vectors."""
    zero = mpmath.mpf(10) ** -(mp.dps - 10)  # below the working precision's noise
    change = [p - q for p, q in zip(o, zeroed, strict=True)]
    if mp_norm(change) < zero:
        return mpmath.mpf(0)
    if mp_norm(o) < zero or mp_norm(zeroed) < zero:
        return mpmath.mpf(1)
    return 1 - mpmath.fsum(p * q for p, q in zip(zeroed, o, strict=True)) / (mp_norm(zeroed) * mp_norm(o))


def with_entry(M, j, c, t):
    return [[t if (r, k) == (j, c) else v for k, v in enumerate(row)] for r, row in enumerate(M)]


def mp_jacobian(f, X, X_kv, i, j):
    """∂f(X, X_kv)[i][r] / ∂(X_kv or X)[j][c] by mpmath.diff, as rows r of columns c."""
    varied = X_kv if X_kv is not None else X
    columns = []
    for c in range(len(varied[0])):

        def output_row(t, c=c):
            if X_kv is not None:
                return f(X, with_entry(X_kv, j, c, t))[i]
            M = with_entry(X, j, c, t)
            return f(M, None)[i]

        columns.append(
            [mpmath.diff(lambda t, r=r: output_row(t)[r], varied[j][c]) for r in range(len(f(X, X_kv)[i]))]
        )
    return mp_transpose(columns)


def as_mp(expr):
    return mpmath.mpf(certified(expr, 45))


def assert_close(exact, reference, tolerance=TOLERANCE):
    got = as_mp(exact)
    assert abs(got - reference) <= tolerance * max(1, abs(reference)), (exact, got, reference)


# --- random small inputs ------------------------------------------------------------

entries = st.fractions(min_value=-2, max_value=2, max_denominator=3)


def matrices(rows, cols):
    return st.lists(st.lists(entries, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def layers(draw, cross=False):
    n_q, n_k = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    d_model, d_k, d_v = (draw(st.integers(1, 2)) for _ in range(3))
    X = draw(matrices(n_q, d_model))
    X_kv = draw(matrices(n_k, d_model)) if cross else None
    return X, draw(matrices(d_model, d_k)), draw(matrices(d_model, d_k)), draw(matrices(d_model, d_v)), X_kv


SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_layer(X, W_Q, W_K, W_V, X_kv, *, keep=None, mask=None):
    mp.dps = DPS
    att = symattn.attention(X, W_Q, W_K, W_V, X_kv=X_kv, mask=mask)
    mX, mQ, mK, mV = (mp_matrix(m) for m in (X, W_Q, W_K, W_V))
    mKV = mp_matrix(X_kv) if X_kv is not None else None
    A, V, O_ = mp_head(mX, mQ, mK, mV, X_kv=mKV, keep=keep)
    n_q, n_k = len(A), len(A[0])
    measures = {m: att.importance(m) for m in ("weights", "norm", "value_zeroing", "grad_input", "jacobian")}
    target = [Fraction(1, 2)] + [Fraction(-1)] * (len(W_V[0]) - 1)
    linear = att.importance("grad_input", target=target)
    assert all(m.shape == (n_q, n_k) for m in (*measures.values(), linear))

    def out(M, M_kv):
        return mp_head(M, mQ, mK, mV, X_kv=M_kv, keep=keep)[2]

    w = [mpmath.mpf(t.numerator) / t.denominator for t in target]
    for i in range(n_q):
        for j in range(n_k):
            assert_close(measures["weights"][i, j], A[i][j])
            assert_close(measures["norm"][i, j], mp_norm([A[i][j] * v for v in V[j]]))
            zeroed = mp_head(mX, mQ, mK, mV, X_kv=mKV, keep=keep, zero_value=j)[2][i]
            assert_close(measures["value_zeroing"][i, j], mp_cos_score(zeroed, O_[i]))
            J = mp_jacobian(out, mX, mKV, i, j)
            exact = att.jacobian(i, j)
            assert exact.shape == (len(W_V[0]), len(X[0]))
            for r in range(exact.rows):
                for c in range(exact.cols):
                    assert_close(exact[r, c], J[r][c], mpmath.mpf(10) ** -JACOBIAN_DIGITS)
            assert_close(measures["jacobian"][i, j], mp_norm([v for row in J for v in row]))
            x_j = (mKV if mKV is not None else mX)[j]
            gradient = [mpmath.fsum(2 * O_[i][r] * J[r][c] for r in range(len(J))) for c in range(len(x_j))]
            assert_close(
                measures["grad_input"][i, j], mpmath.fsum(g * x for g, x in zip(gradient, x_j, strict=True))
            )
            gradient = [mpmath.fsum(w[r] * J[r][c] for r in range(len(J))) for c in range(len(x_j))]
            assert_close(linear[i, j], mpmath.fsum(g * x for g, x in zip(gradient, x_j, strict=True)))


@SETTINGS
@given(layers())
@example(([[0, 1], [1, 0]], [[1], [1]], [[2], [0]], [[0], [1]], None))  # exact zeros under a square root
def test_self_attention_measures_agree_with_mpmath(layer):
    X, W_Q, W_K, W_V, _ = layer
    check_layer(X, W_Q, W_K, W_V, None)


@SETTINGS
@given(layers(cross=True))
def test_cross_attention_measures_agree_with_mpmath(layer):
    check_layer(*layer)


def test_causal_mask_measures_agree_with_mpmath():
    X = [[1, Fraction(-1, 2)], [0, 2], [Fraction(2, 3), 1]]
    W = [[1, 2], [Fraction(-1, 3), 1]]
    keep = [[j <= i for j in range(3)] for i in range(3)]
    check_layer(X, W, [[0, 1], [1, 1]], [[2, -1], [1, 0]], None, keep=keep, mask="causal")


@settings(max_examples=3, deadline=None)
@given(matrices(3, 2), matrices(2, 2), matrices(2, 1), matrices(2, 1), matrices(3, 3))
@example(  # an output entry that is a cancelling zero: arb squares its ball [0 ± r] to nan
    [[0, 0], [1, 0], [1, 1]], [[-2, 2], [0, 0]], [[0], [0]], [[0], [0]], [[0, 0, 1], [0, 1, 1], [0, 0, 0]]
)
def test_norm_output_agrees_with_mpmath(X, V1, V2, Q2, W_O):
    mp.dps = DPS
    heads = [(None, None, V1), (Q2, Q2, V2)]
    mh = symattn.multihead(X, heads, W_O=W_O)
    identity = [[1, 0], [0, 1]]
    mp_heads = [
        (mp_matrix(identity), mp_matrix(identity), mp_matrix(V1)),
        tuple(mp_matrix(m) for m in (Q2, Q2, V2)),
    ]
    mX, mW = mp_matrix(X), mp_matrix(W_O)
    norm, zeroing = mh.importance("norm_output"), mh.importance("value_zeroing")
    O_ = mp_multihead_output(mX, mp_heads, mW)
    for i in range(3):
        for j in range(3):
            parts = [mp_head(mX, *head) for head in mp_heads]
            pieces = [A[i][j] * v for A, V, _ in parts for v in V[j]]
            f = mp_matmul([pieces], mW)[0]
            assert_close(norm[i, j], mp_norm(f))
            zeroed = mp_multihead_output(mX, mp_heads, mW, zero_value=j)[i]
            assert_close(zeroing[i, j], mp_cos_score(zeroed, O_[i]))
    frobenius, gradient_x_input = mh.importance("jacobian"), mh.importance("grad_input")
    for i in range(3):
        for j in range(3):
            J = mp_jacobian(lambda M, _: mp_multihead_output(M, mp_heads, mW), mX, None, i, j)
            exact = mh.jacobian(i, j)
            assert exact.shape == (3, 2)
            for r in range(3):
                for c in range(2):
                    assert_close(exact[r, c], J[r][c], mpmath.mpf(10) ** -JACOBIAN_DIGITS)
            assert_close(frobenius[i, j], mp_norm([v for row in J for v in row]))
            grad = [mpmath.fsum(2 * O_[i][r] * J[r][c] for r in range(3)) for c in range(2)]
            assert_close(gradient_x_input[i, j], mpmath.fsum(g * x for g, x in zip(grad, mX[j], strict=True)))


def test_jacobian_of_symbolic_input_matches_sympy_diff_on_a_tiny_case():
    p, q = sympy.symbols("p q", real=True)
    att = symattn.attention([[p], [q]], [[2]], [[1]], [[3]], scale="none")
    point = {p: sympy.Rational(1, 3), q: sympy.Rational(-2, 5)}
    for i in range(2):
        for j, variable in enumerate((p, q)):
            by_diff = sympy.diff(att.output[i, 0], variable).subs(point)
            closed = att.jacobian(i, j)[0, 0].subs(point)
            assert abs(as_mp(closed - by_diff)) < mpmath.mpf(10) ** -40


def test_symbolic_inputs_give_formulas_that_agree_with_mpmath_at_a_point():
    p, q = sympy.symbols("p q", real=True)
    X, W_V = [[p, 1], [q, p], [1, -q]], [[1, 2], [0, 1]]
    att = symattn.attention(X, None, None, W_V)
    point = {p: sympy.Rational(1, 3), q: sympy.Rational(-2, 5)}
    mp.dps = DPS
    at = [
        [Fraction(str(v.subs(point))) if isinstance(v, sympy.Expr) else Fraction(v) for v in row] for row in X
    ]
    identity = mp_matrix([[1, 0], [0, 1]])
    A, V, O_ = mp_head(mp_matrix(at), identity, identity, mp_matrix(W_V))
    results = {m: att.importance(m) for m in ("norm", "value_zeroing", "jacobian")}
    assert all(result.free_symbols == {p, q} for result in results.values())
    for i in range(3):
        for j in range(3):
            assert_close(results["norm"][i, j].subs(point), mp_norm([A[i][j] * v for v in V[j]]))
            zeroed = mp_head(mp_matrix(at), identity, identity, mp_matrix(W_V), zero_value=j)[2][i]
            assert_close(results["value_zeroing"][i, j].subs(point), mp_cos_score(zeroed, O_[i]))


# --- the reference example -------------------------------------------------------------


def reference():
    return symattn.attention([[1, 0], [0, 1], [1, 1]])


def test_reference_norm_contributions_of_output_3_are_exactly_a_a_b_sqrt2():
    e = sympy.exp(sympy.sqrt(2) / 2)
    a, b = 1 / (2 + e), e / (2 + e)
    row = reference().importance("norm").row(2)
    expected = [a, a, b * sympy.sqrt(2)]
    assert [sympy.expand(got - want) for got, want in zip(row, expected, strict=True)] == [0, 0, 0]
    assert list(row) == expected  # the same structure, not merely the same value
    assert decimals(reference().importance("norm"), 4)[2] == ["0.2483", "0.2483", "0.7120"]


def test_reference_tokens_1_and_2_tie_exactly_in_output_3():
    att = reference()
    assert ranking(att.importance("norm").row(2)) == ((2,), (0, 1))
    assert ranking(att.importance("weights").row(2)) == ((2,), (0, 1))
    assert compare(att.importance("norm")[2, 0], att.importance("norm")[2, 1]) == 0
    # token 3 matters more by norm than by weight: its value vector is √2 long
    assert ranking(att.importance("norm").row(0)) == ((2,), (0,), (1,))
    assert ranking(att.importance("weights").row(0)) == ((0, 2), (1,))


def test_ranking_proves_ties_and_separates_near_ties():
    root = sympy.sqrt(2)
    assert ranking([(1 + root) ** 2, 1, 3 + 2 * root]) == ((0, 2), (1,))
    tiny = sympy.Rational(1, 10**40)
    assert ranking([root, root + tiny, root - tiny]) == ((1,), (0,), (2,))
    assert ranking([sympy.sqrt(1 + root) * sympy.sqrt(1 + root), 1 + root]) == ((0, 1),)


def test_softmax_jacobian_rows_sum_to_zero():
    a = list(reference().weights.row(2))
    J = softmax_jacobian(a)
    assert all(sympy.expand(sympy.together(sum(J.row(k)))) == 0 for k in range(3))


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        pytest.param(
            lambda: reference().jacobian(3, 0),
            InputError,
            "jacobian(3, 0): query index 3 is out of range; there are 3 queries (rows of X), indexed 0 to 2",
            id="query-index",
        ),
        pytest.param(
            lambda: reference().jacobian(0, -1),
            InputError,
            "jacobian(0, -1): key index -1 is out of range; there are 3 tokens, indexed 0 to 2",
            id="key-index",
        ),
        pytest.param(
            lambda: symattn.attention([[1, 0]], X_kv=[[1, 0], [0, 1]]).jacobian(0, 2),
            InputError,
            "jacobian(0, 2): key index 2 is out of range; there are 2 keys (rows of X_kv), indexed 0 to 1",
            id="cross-key-index",
        ),
        pytest.param(
            lambda: reference().importance("rollout"),
            InputError,
            "unknown importance method 'rollout' (expected one of weights, norm, norm_output, "
            "value_zeroing, grad_input, jacobian)",
            id="unknown-method",
        ),
        pytest.param(
            lambda: reference().importance("norm_output"),
            InputError,
            "importance 'norm_output' needs W_O, and a single Attention has none "
            "(use 'norm', or multihead(..., W_O=...))",
            id="norm-output-attention",
        ),
        pytest.param(
            lambda: symattn.multihead([[1, 0]], [(None, None, None)]).importance("norm_output"),
            InputError,
            "importance 'norm_output' needs W_O, and this MultiHead has none "
            "(pass W_O to multihead(), or use 'norm' on a head)",
            id="norm-output-multihead",
        ),
        pytest.param(
            lambda: reference().importance("norm", target=[1, 2]),
            InputError,
            "importance 'norm' got an unknown option 'target' (it takes no options)",
            id="unknown-option",
        ),
        pytest.param(
            lambda: reference().importance("grad_input", target=[1, 2, 3]),
            ShapeError,
            "target has 3 entries but the output has 2 columns (a linear target is one weight per output column)",
            id="target-length",
        ),
        pytest.param(
            lambda: symattn.attention([[k, 1] for k in range(51)]).importance("jacobian"),
            InputError,
            "importance 'jacobian' would build 10404 Jacobian entries (51 queries × 51 keys × 2 × 2), "
            "more than 10000; ask for single blocks with jacobian(i, j)",
            id="too-large",
        ),
    ],
)
def test_bad_input_is_one_line_naming_what_was_asked_and_what_exists(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message
    assert isinstance(caught.value, SymattnError) and "\n" not in message


def test_large_softmax_terms_still_give_certified_decimals_that_agree_with_mpmath():
    """Scores up to 121√3 make the softmax terms ~e^209: the low-precision balls of the square roots
    hold negative numbers, and the decimals are retried at a higher precision (found by a sweep)."""
    X = [[-2, 1, 3], [3, 3, -3], [-1, -3, 0], [3, 0, 0]]
    W = [[1, -1, -2], [1, -2, 1], [1, 2, -2]]
    mp.dps = 200  # o_2 with v_2 zeroed is about 1e-52 long: the reference needs the digits too
    att = symattn.attention(X, W, W, W)
    mW = mp_matrix(W)
    _, _, O_ = mp_head(mp_matrix(X), mW, mW, mW)
    shown = decimals(att.importance("value_zeroing"), 20)
    for j in range(4):
        zeroed = mp_head(mp_matrix(X), mW, mW, mW, zero_value=j)[2][1]
        assert abs(mpmath.mpf(shown[1][j]) - mp_cos_score(zeroed, O_[1])) <= mpmath.mpf(10) ** -20


def test_explain_says_token_3_matters_more_than_its_weight_because_its_value_is_longer():
    from symattn.importance import Disagreement, explain

    mp.dps = DPS
    att = reference()
    A, V, _ = mp_head(
        *(mp_matrix(m) for m in ([[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]])),
        mp_matrix([[1, 0], [0, 1]]),
    )
    for i in range(3):
        facts = explain(att, i)
        norms = [A[i][j] * mp_norm(V[j]) for j in range(3)]
        shares = [n / mpmath.fsum(norms) for n in norms]
        assert facts.more_than_weight == tuple(j for j in range(3) if shares[j] > A[i][j])
        assert facts.less_than_weight == tuple(j for j in range(3) if shares[j] < A[i][j])
    facts = explain(att, 2)
    assert facts.more_than_weight == (2,) and facts.rankings["norm"] == ((2,), (0, 1))
    assert facts.disagreements == ()
    first = explain(att, 0)
    assert first.rankings == {
        "weights": ((0, 2), (1,)),
        "norm": ((2,), (0,), (1,)),
        "jacobian": ((0,), (2,), (1,)),
    }
    assert first.disagreements == (
        Disagreement((0, 2), ("weights", "norm"), (0, -1), "value length"),
        Disagreement((0, 2), ("norm", "jacobian"), (-1, 1), "query and key path"),
    )


def test_explain_refuses_a_multihead_and_an_index_out_of_range():
    from symattn.importance import explain

    with pytest.raises(InputError) as caught:
        explain(reference(), 3)
    assert (
        str(caught.value)
        == "explain(…, 3): output index 3 is out of range; there are 3 outputs, indexed 0 to 2"
    )
    with pytest.raises(InputError) as caught:
        explain(symattn.multihead([[1, 0]], [(None, None, None)] * 2), 0)
    assert str(caught.value) == "explain() takes one head; this MultiHead has 2 heads (use .heads[k])"
