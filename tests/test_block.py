"""symattn.block: the transformer block's stages against independent references.

The references are written here, not taken from symattn: one in mpmath at 60
digits (agreement to 30 digits with the engine's certified decimals), one in
numpy float64 (agreement to 1e-12 relative to each matrix's size).  The inputs
are small rationals drawn by Hypothesis, read by the engine as exact Fractions.
Exact invariants are checked with SymPy's exact rational arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symattn
from symattn.block import matrix_decimals
from symattn.errors import SymattnError
from symattn.pipeline import Exact

mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
mp.dps = 60
DIGITS = 30
PLACES = 32
REL_TOL = 1e-12

FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

rationals = st.builds(Fraction, st.integers(-6, 6), st.integers(1, 4))


def matrices(rows: int, cols: int):
    return st.lists(st.lists(rationals, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


# --- the mpmath reference (60 digits) ---------------------------------------------------


def mpf(value) -> mpmath.mpf:
    value = Fraction(value)
    return mp.mpf(value.numerator) / value.denominator


def mpm(rows) -> list[list]:
    return [[mpf(v) for v in row] for row in rows]


def mm(A, B):
    return [
        [mp.fsum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))
    ]


def add(A, B):
    return [[a + b for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(A, B, strict=True)]


def mp_pe(n, d, base, start, layout):
    out = []
    for pos in range(start, start + n):
        angles = [mp.mpf(pos) / mp.power(mpf(base), mp.mpf(2 * i) / d) for i in range(d // 2)]
        sines, cosines = [mp.sin(a) for a in angles], [mp.cos(a) for a in angles]
        if layout == "interleaved":
            out.append([v for pair in zip(sines, cosines, strict=True) for v in pair])
        else:
            out.append(sines + cosines)
    return out


def mp_rope(X, base, start, layout):
    d = len(X[0])
    out = [row[:] for row in X]
    for r, row in enumerate(X):
        for i in range(d // 2):
            a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            phi = (start + r) * mp.power(mpf(base), -mp.mpf(2 * i) / d)
            out[r][a] = row[a] * mp.cos(phi) - row[b] * mp.sin(phi)
            out[r][b] = row[a] * mp.sin(phi) + row[b] * mp.cos(phi)
    return out


def mp_layer_norm(X, gamma, beta, eps):
    out = []
    for row in X:
        d = len(row)
        mu = mp.fsum(row) / d
        var = mp.fsum((x - mu) ** 2 for x in row) / d
        out.append([(x - mu) / mp.sqrt(var + eps) * g + b for x, g, b in zip(row, gamma, beta, strict=True)])
    return out


def mp_rms_norm(X, gamma, eps):
    return [
        [
            x / mp.sqrt(mp.fsum(v * v for v in row) / len(row) + eps) * g
            for x, g in zip(row, gamma, strict=True)
        ]
        for row in X
    ]


MP_ACT = {
    "relu": lambda x: max(mp.mpf(0), x),
    "gelu": lambda x: x / 2 * (1 + mp.erf(x / mp.sqrt(2))),
    "gelu_tanh": lambda x: x / 2 * (1 + mp.tanh(mp.sqrt(2 / mp.pi) * (x + mp.mpf(44715) / 10**6 * x**3))),
    "silu": lambda x: x / (1 + mp.exp(-x)),
}


def mp_ffn(X, W1, b1, W2, b2, act, W3=None, b3=None):  # noqa: PLR0917 - the reference's parameters, in the textbook's order
    H = [[h + b for h, b in zip(row, b1, strict=True)] for row in mm(X, W1)]
    if act == "swiglu":
        G = [[h + b for h, b in zip(row, b3, strict=True)] for row in mm(X, W3)]
        A = [
            [MP_ACT["silu"](h) * g for h, g in zip(rh, rg, strict=True)] for rh, rg in zip(H, G, strict=True)
        ]
    else:
        A = [[MP_ACT[act](h) for h in row] for row in H]
    return [[o + b for o, b in zip(row, b2, strict=True)] for row in mm(A, W2)]


def mp_attention(X, WQ, WK, WV, causal=False, X_kv=None):  # noqa: PLR0917 - the reference's parameters, in the textbook's order
    src = X if X_kv is None else X_kv
    Q, K, V = mm(X, WQ), mm(src, WK), mm(src, WV)
    c = 1 / mp.sqrt(len(WQ[0]))
    weights = []
    for i, q in enumerate(Q):
        keys = [j for j in range(len(K)) if not causal or j <= i]
        s = {j: c * mp.fsum(a * b for a, b in zip(q, K[j], strict=True)) for j in keys}
        top = max(s.values())
        e = {j: mp.exp(s[j] - top) for j in keys}
        total = mp.fsum(e.values())
        weights.append([e[j] / total if j in e else mp.mpf(0) for j in range(len(K))])
    return weights, mm(weights, V)


def mp_mha(X, heads, W_O, causal=False, X_kv=None):
    outs = [mp_attention(X, *h, causal=causal, X_kv=X_kv)[1] for h in heads]
    concat = [[v for o in outs for v in o[i]] for i in range(len(X))]
    return mm(concat, W_O)


def mp_encoder(X, heads, W_O, ffn, act, norm, eps):  # noqa: PLR0917 - the reference's parameters, in the textbook's order
    ones, zeros = [mp.mpf(1)] * len(X[0]), [mp.mpf(0)] * len(X[0])

    def ln(M):
        return mp_layer_norm(M, ones, zeros, eps)

    if norm == "post":
        H = ln(add(X, mp_mha(X, heads, W_O)))
        return ln(add(H, mp_ffn(H, *ffn, act)))
    H = add(X, mp_mha(ln(X), heads, W_O))
    return add(H, mp_ffn(ln(H), *ffn, act))


def mp_decoder(X, memory, self_heads, self_W_O, cross_heads, cross_W_O, ffn, act, eps):  # noqa: PLR0917 - the reference's parameters, in the textbook's order
    ones, zeros = [mp.mpf(1)] * len(X[0]), [mp.mpf(0)] * len(X[0])

    def ln(M):
        return mp_layer_norm(M, ones, zeros, eps)

    H1 = ln(add(X, mp_mha(X, self_heads, self_W_O, causal=True)))
    H2 = ln(add(H1, mp_mha(H1, cross_heads, cross_W_O, X_kv=memory)))
    return ln(add(H2, mp_ffn(H2, *ffn, act)))


def assert_digits(decimals: list[list[str]], ref: list[list], what: str) -> None:
    """The engine's certified decimals agree with the mpmath reference to 30 digits."""
    assert len(decimals) == len(ref) and len(decimals[0]) == len(ref[0]), what
    for i, (row, ref_row) in enumerate(zip(decimals, ref, strict=True)):
        for j, (text, value) in enumerate(zip(row, ref_row, strict=True)):
            bound = mp.mpf(10) ** -DIGITS * max(1, abs(value))
            assert abs(mp.mpf(text) - value) <= bound, f"{what}[{i + 1},{j + 1}]: {text} vs {value}"


def digits_of(matrix: sympy.ImmutableMatrix, name: str = "M") -> list[list[str]]:
    return matrix_decimals(name, matrix, PLACES)


# --- the numpy float64 reference ------------------------------------------------------------


def npm(rows) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in rows], dtype=np.float64)


def np_pe(n, d, base, start, layout):
    pos = np.arange(start, start + n, dtype=np.float64)[:, None]
    angles = pos / float(base) ** (2 * np.arange(d // 2) / d)
    if layout == "concatenated":
        return np.hstack([np.sin(angles), np.cos(angles)])
    out = np.empty((n, d))
    out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
    return out


def np_layer_norm(X, eps):
    mu = X.mean(axis=1, keepdims=True)
    var = ((X - mu) ** 2).mean(axis=1, keepdims=True)
    return (X - mu) / np.sqrt(var + eps)


_erf = np.vectorize(math.erf)
NP_ACT = {
    "relu": lambda x: np.maximum(0.0, x),
    "gelu": lambda x: x / 2 * (1 + _erf(x / math.sqrt(2))),
    "gelu_tanh": lambda x: x / 2 * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    "silu": lambda x: x / (1 + np.exp(-x)),
}


def np_attention(X, WQ, WK, WV):
    Q, K, V = X @ WQ, X @ WK, X @ WV
    s = Q @ K.T / math.sqrt(WQ.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ V


def np_encoder(X, heads, W_O, ffn, act, norm, eps):  # noqa: PLR0917 - the reference's parameters, in the textbook's order
    W1, b1, W2, b2 = ffn

    def mha(M):
        return np.hstack([np_attention(M, *h) for h in heads]) @ W_O

    def f(M):
        return NP_ACT[act](M @ W1 + b1) @ W2 + b2

    if norm == "post":
        H = np_layer_norm(X + mha(X), eps)
        return np_layer_norm(H + f(H), eps)
    H = X + mha(np_layer_norm(X, eps))
    return H + f(np_layer_norm(H, eps))


def np_rope(X, base, start, layout):
    n, d = X.shape
    out = X.copy()
    for r in range(n):
        for i in range(d // 2):
            a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            phi = (start + r) * float(base) ** (-2 * i / d)
            out[r, a] = X[r, a] * math.cos(phi) - X[r, b] * math.sin(phi)
            out[r, b] = X[r, a] * math.sin(phi) + X[r, b] * math.cos(phi)
    return out


def np_general_attention(X, WQ, WK, WV, causal=False, X_kv=None):  # noqa: PLR0917 - textbook order
    src = X if X_kv is None else X_kv
    s = (X @ WQ) @ (src @ WK).T / math.sqrt(WQ.shape[1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape, dtype=bool)), s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ (src @ WV)


def np_decoder(X, memory, self_heads, self_W_O, cross_heads, cross_W_O, ffn, eps):  # noqa: PLR0917
    W1, b1, W2, b2 = ffn
    H1 = np_layer_norm(
        X + np.hstack([np_general_attention(X, *h, causal=True) for h in self_heads]) @ self_W_O, eps
    )
    cross = np.hstack([np_general_attention(H1, *h, X_kv=memory) for h in cross_heads]) @ cross_W_O
    H2 = np_layer_norm(H1 + cross, eps)
    return np_layer_norm(H2 + NP_ACT["relu"](H2 @ W1 + b1) @ W2 + b2, eps)


def assert_float_close(decimals: list[list[str]], ref: np.ndarray, what: str) -> None:
    got = np.array([[float(v) for v in row] for row in decimals])
    size = max(1.0, float(np.abs(ref).max()))
    assert got.shape == ref.shape, what
    worst = float(np.abs(got - ref).max())
    assert worst <= REL_TOL * size, f"{what}: float64 differs by {worst} (size {size})"


# --- positional encodings and RoPE -------------------------------------------------------------

CONVENTIONS = [
    pytest.param(layout, start, base, id=f"{layout}-start{start}-base{base}")
    for layout in ("interleaved", "concatenated")
    for start in (0, 1)
    for base in (10000, 100, "1/2")
]


@pytest.mark.parametrize(("layout", "start", "base"), CONVENTIONS)
@given(n=st.integers(1, 3), half=st.integers(1, 3))
@FEW
def test_positional_encoding_agrees_with_mpmath_and_float64(layout, start, base, n, half) -> None:
    d = 2 * half
    P = symattn.positional_encoding(n, d, base=base, start=start, layout=layout)
    decimals = digits_of(P, "PE")
    assert_digits(decimals, mp_pe(n, d, Fraction(base), start, layout), "PE")
    assert_float_close(decimals, np_pe(n, d, Fraction(base), start, layout), "PE")


def test_positional_encoding_is_exact_sin_and_cos_of_rationals() -> None:
    P = symattn.positional_encoding(2, 4, start=1)
    assert P[0, 1] == sympy.cos(sympy.Rational(1)) and P[0, 2] == sympy.sin(sympy.Rational(1, 100))
    # cut versus rounded: cos(1/100) is 0.99995000…, so "0.9999" is a cut and "1.0000" the rounding
    assert matrix_decimals("PE", P, 4)[0][3] == "1.0000"


def test_concatenated_layout_is_a_permutation_of_interleaved() -> None:
    inter = symattn.positional_encoding(3, 6)
    concat = symattn.positional_encoding(3, 6, layout="concatenated")
    for r in range(3):
        assert [inter[r, c] for c in (0, 2, 4, 1, 3, 5)] == list(concat.row(r))


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
@given(X=st.integers(1, 3).flatmap(lambda n: matrices(n, 4)), start=st.integers(0, 2))
@FEW
def test_rope_agrees_with_mpmath_and_float64(layout, X, start) -> None:
    R = symattn.rope(X, start=start, layout=layout)
    decimals = digits_of(R, "RoPE")
    assert_digits(decimals, mp_rope(mpm(X), 10000, start, layout), "RoPE")
    assert_float_close(decimals, np_rope(npm(X), 10000, start, layout), "RoPE")


def test_rope_preserves_each_pairs_norm_exactly() -> None:
    X = [[1, 2, "1/2", -3]]
    R = symattn.rope(X, start=3)
    for a, b in ((0, 1), (2, 3)):
        squared = sympy.expand_trig(sympy.expand(R[0, a] ** 2 + R[0, b] ** 2))
        assert sympy.trigsimp(squared) == to_q(X[0][a]) ** 2 + to_q(X[0][b]) ** 2


def to_q(value) -> sympy.Rational:
    f = Fraction(value)
    return sympy.Rational(f.numerator, f.denominator)


# --- norms --------------------------------------------------------------------------------------


@given(
    X=st.integers(1, 3).flatmap(lambda n: st.integers(1, 4).flatmap(lambda d: matrices(n, d))),
    data=st.data(),
    eps=st.sampled_from(["1e-5", "0.1", "1/3"]),
)
@SOME
def test_layer_norm_agrees_with_mpmath_and_float64(X, data, eps) -> None:
    d = len(X[0])
    gamma = data.draw(st.lists(rationals, min_size=d, max_size=d))
    beta = data.draw(st.lists(rationals, min_size=d, max_size=d))
    Y = symattn.layer_norm(X, gamma, beta, eps=eps)
    decimals = digits_of(Y, "LN")
    eps_q = Fraction(eps)
    assert_digits(
        decimals, mp_layer_norm(mpm(X), [mpf(g) for g in gamma], [mpf(b) for b in beta], mpf(eps_q)), "LN"
    )
    ref = np_layer_norm(npm(X), float(eps_q)) * npm([gamma]) + npm([beta])
    assert_float_close(decimals, ref, "LN")


@given(X=st.integers(1, 3).flatmap(lambda n: st.integers(1, 4).flatmap(lambda d: matrices(n, d))))
@SOME
def test_layer_norm_rows_have_mean_zero_and_the_variance_sigma2_over_sigma2_plus_eps(X) -> None:
    eps = sympy.Rational(1, 100000)
    Y = symattn.layer_norm(X, eps="1e-5")
    for i, row in enumerate(X):
        d = len(row)
        mu = sum(row, Fraction(0)) / d
        var = to_q(sum(((x - mu) ** 2 for x in row), Fraction(0)) / d)
        values = list(Y.row(i))
        assert sympy.Add(*values) == 0, f"row {i + 1}: mean {sympy.Add(*values) / d}"
        # y_j = c_j·r with r a radical of a rational: y_j² is rational, so this is exact arithmetic
        variance = sympy.Add(*(v**2 for v in values)) / d
        assert variance.is_Rational and variance == var / (var + eps)


def test_layer_norm_keeps_the_root_exact_and_reads_eps_as_decimal() -> None:
    (row,) = symattn.block.layer_norm_rows([["0.5", "-0.5", 2, 1]], eps="1e-5")
    assert row.mean == sympy.Rational(3, 4)
    assert row.variance == sympy.Rational(13, 16)  # centred: -1/4, -5/4, 5/4, 1/4
    assert row.root == sympy.sqrt(sympy.Rational(13, 16) + sympy.Rational(1, 100000))


@given(
    X=st.integers(1, 3).flatmap(lambda n: st.integers(1, 4).flatmap(lambda d: matrices(n, d))), data=st.data()
)
@SOME
def test_rms_norm_agrees_with_mpmath_and_float64(X, data) -> None:
    d = len(X[0])
    gamma = data.draw(st.lists(rationals, min_size=d, max_size=d))
    Y = symattn.rms_norm(X, gamma, eps="1e-6")
    decimals = digits_of(Y, "RMS")
    assert_digits(decimals, mp_rms_norm(mpm(X), [mpf(g) for g in gamma], mpf(Fraction("1e-6"))), "RMS")
    Xf = npm(X)
    ref = Xf / np.sqrt((Xf**2).mean(axis=1, keepdims=True) + 1e-6) * npm([gamma])
    assert_float_close(decimals, ref, "RMS")


# --- feed-forward --------------------------------------------------------------------------------


@st.composite
def ffn_cases(draw, swiglu=False):
    n, d, f = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    case = {
        "X": draw(matrices(n, d)),
        "W_1": draw(matrices(d, f)),
        "b_1": draw(st.lists(rationals, min_size=f, max_size=f)),
        "W_2": draw(matrices(f, d)),
        "b_2": draw(st.lists(rationals, min_size=d, max_size=d)),
    }
    if swiglu:
        case["W_3"] = draw(matrices(d, f))
        case["b_3"] = draw(st.lists(rationals, min_size=f, max_size=f))
    return case


@pytest.mark.parametrize("activation", ["relu", "gelu", "gelu_tanh", "silu"])
@given(case=ffn_cases())
@SOME
def test_feed_forward_agrees_with_mpmath_and_float64(activation, case) -> None:
    Y = symattn.feed_forward(
        case["X"], case["W_1"], case["b_1"], case["W_2"], case["b_2"], activation=activation
    )
    decimals = digits_of(Y, "FFN")
    ref = mp_ffn(
        mpm(case["X"]),
        mpm(case["W_1"]),
        mpm([case["b_1"]])[0],
        mpm(case["W_2"]),
        mpm([case["b_2"]])[0],
        activation,
    )
    assert_digits(decimals, ref, f"FFN {activation}")
    X, W1, W2 = npm(case["X"]), npm(case["W_1"]), npm(case["W_2"])
    ref_f = NP_ACT[activation](X @ W1 + npm([case["b_1"]])) @ W2 + npm([case["b_2"]])
    assert_float_close(decimals, ref_f, f"FFN {activation}")


@given(case=ffn_cases(swiglu=True))
@SOME
def test_swiglu_agrees_with_mpmath_and_float64(case) -> None:
    Y = symattn.feed_forward(
        case["X"],
        case["W_1"],
        case["b_1"],
        case["W_2"],
        case["b_2"],
        "swiglu",
        W_3=case["W_3"],
        b_3=case["b_3"],
    )
    decimals = digits_of(Y, "SwiGLU")
    vec = lambda key: mpm([case[key]])[0]  # noqa: E731
    ref = mp_ffn(
        mpm(case["X"]),
        mpm(case["W_1"]),
        vec("b_1"),
        mpm(case["W_2"]),
        vec("b_2"),
        "swiglu",
        mpm(case["W_3"]),
        vec("b_3"),
    )
    assert_digits(decimals, ref, "SwiGLU")
    X = npm(case["X"])
    gate = X @ npm(case["W_1"]) + npm([case["b_1"]])
    hidden = NP_ACT["silu"](gate) * (X @ npm(case["W_3"]) + npm([case["b_3"]]))
    assert_float_close(decimals, hidden @ npm(case["W_2"]) + npm([case["b_2"]]), "SwiGLU")


def test_relu_decides_signs_exactly_and_records_the_zeroed_units() -> None:
    # the pre-activations are LN outputs (irrational), h and −h in each row
    H = symattn.layer_norm([[1, 3], [2, 0]], eps="1e-5")
    record = symattn.block.feed_forward_stages(H, [[1, -1], [0, 0]], [0, 0], [[1], [1]], [0])
    assert H[0, 0] == -H[0, 1] and H[1, 0] == -H[1, 1] and not H[0, 0].is_Rational
    assert record.zeroed == ((1, 1), (2, 2))  # H[1,1] < 0 and −H[2,1] < 0
    assert record.undecided == ()
    assert record.activated[0, 1] == -H[0, 0] and record.activated[1, 0] == H[1, 0]


def test_relu_of_rationals_is_exact() -> None:
    out = symattn.feed_forward([["1/3", "-1/3"]], [[1, 0], [0, 1]], ["0.1", 0], [[1], [1]], [0])
    assert out[0, 0] == sympy.Rational(13, 30)


# --- attention: GQA, encoder and decoder layers ---------------------------------------------------


def assert_rows_sum_to_one(A: sympy.ImmutableMatrix, what: str) -> None:
    for i in range(A.rows):
        assert sympy.together(sympy.Add(*A.row(i))) == 1, f"{what} row {i + 1}"


@given(
    n=st.integers(1, 3),
    groups=st.sampled_from([(2, 1), (2, 2), (4, 2)]),
    data=st.data(),
)
@FEW
def test_grouped_query_attention_agrees_with_mpmath_and_float64_and_shares_kv(n, groups, data) -> None:
    n_heads, n_kv = groups
    d = 2
    X = data.draw(matrices(n, d))
    q_heads = [data.draw(matrices(d, 1)) for _ in range(n_heads)]
    kv_heads = [(data.draw(matrices(d, 1)), data.draw(matrices(d, 1))) for _ in range(n_kv)]
    W_O = data.draw(matrices(n_heads, d))
    gqa = symattn.grouped_query_attention(X, q_heads=q_heads, kv_heads=kv_heads, W_O=W_O)
    size = n_heads // n_kv
    triples = [
        (mpm(q_heads[h]), mpm(kv_heads[h // size][0]), mpm(kv_heads[h // size][1])) for h in range(n_heads)
    ]
    decimals = gqa.decimals("output", PLACES)
    assert_digits(decimals, mp_mha(mpm(X), triples, mpm(W_O)), "GQA output")
    np_heads = [
        (npm(q_heads[h]), npm(kv_heads[h // size][0]), npm(kv_heads[h // size][1])) for h in range(n_heads)
    ]
    ref_f = np.hstack([np_general_attention(npm(X), *h) for h in np_heads]) @ npm(W_O)
    assert_float_close(decimals, ref_f, "GQA output")
    for h, head in enumerate(gqa.heads):
        assert head.K == gqa.heads[(h // size) * size].K and head.V == gqa.heads[(h // size) * size].V
        assert_rows_sum_to_one(head.weights, f"head {h + 1} weights")
    assert gqa.groups == tuple(h // size for h in range(n_heads))


@st.composite
def encoder_cases(draw):
    n, d, f = draw(st.integers(1, 3)), 2, draw(st.integers(1, 2))
    n_heads = draw(st.integers(1, 2))
    d_k = 2 // n_heads
    return {
        "X": draw(matrices(n, d)),
        "heads": [tuple(draw(matrices(d, d_k)) for _ in range(3)) for _ in range(n_heads)],
        "W_O": draw(matrices(n_heads * d_k, d)),
        "ffn": (
            draw(matrices(d, f)),
            draw(st.lists(rationals, min_size=f, max_size=f)),
            draw(matrices(f, d)),
            draw(st.lists(rationals, min_size=d, max_size=d)),
        ),
    }


@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@given(case=encoder_cases())
@FEW
def test_encoder_layer_agrees_with_mpmath_and_float64(norm, activation, case) -> None:
    layer = symattn.encoder_layer(
        case["X"],
        heads=case["heads"],
        W_O=case["W_O"],
        ffn=case["ffn"],
        activation=activation,
        norm=norm,
        eps="1e-5",
    )
    decimals = layer.decimals("output", PLACES)
    heads = [tuple(mpm(m) for m in h) for h in case["heads"]]
    W1, b1, W2, b2 = case["ffn"]
    ffn = (mpm(W1), mpm([b1])[0], mpm(W2), mpm([b2])[0])
    ref = mp_encoder(mpm(case["X"]), heads, mpm(case["W_O"]), ffn, activation, norm, mpf(Fraction("1e-5")))
    assert_digits(decimals, ref, f"encoder {norm} {activation}")
    np_heads = [tuple(npm(m) for m in h) for h in case["heads"]]
    np_ffn = (npm(W1), npm([b1]), npm(W2), npm([b2]))
    ref_f = np_encoder(npm(case["X"]), np_heads, npm(case["W_O"]), np_ffn, activation, norm, 1e-5)
    assert_float_close(decimals, ref_f, f"encoder {norm} {activation}")
    for k in range(1, len(case["heads"]) + 1):
        assert_rows_sum_to_one(layer.matrix(f"attention.head{k}.weights"), f"head {k}")


def test_encoder_layer_stages_are_in_order_with_certified_decimals() -> None:
    X = [[1, 0], [0, 1], [1, 1]]
    kwargs = {
        "heads": [(None, None, None)],
        "W_O": [[1, 0], [0, 1]],
        "ffn": ([[1, -1], [0, 1]], [0, 0], [[1, 0], [0, 1]], [0, 0]),
    }
    post = symattn.encoder_layer(X, **kwargs)
    assert post.stage_names == (
        "X", "attention", "residual_1", "norm_1", "ffn_pre_activation", "ffn_activated", "ffn", "residual_2",
        "norm_2", "output",
    )  # fmt: skip
    pre = symattn.encoder_layer(X, norm="pre", **kwargs)
    assert pre.stage_names == (
        "X", "norm_1", "attention", "residual_1", "norm_2", "ffn_pre_activation", "ffn_activated", "ffn",
        "residual_2", "output",
    )  # fmt: skip
    assert post.output == post.stages["norm_2"] and pre.output == pre.stages["residual_2"]
    assert post.decimals("attention.head1.weights", 4)[2] == ["0.2483", "0.2483", "0.5035"]
    assert post.stages["attention"] == post.attention["attention"].output
    assert all(len(row) == 2 for row in post.decimals("norm_1", 6))


@given(n=st.integers(1, 3), m=st.integers(1, 2), data=st.data())
@FEW
def test_decoder_layer_agrees_with_mpmath_and_float64(n, m, data) -> None:
    d = 2
    X, memory = data.draw(matrices(n, d)), data.draw(matrices(m, d))
    self_heads = [tuple(data.draw(matrices(d, d)) for _ in range(3))]
    cross_heads = [tuple(data.draw(matrices(d, 1)) for _ in range(3)) for _ in range(2)]
    self_W_O, cross_W_O = data.draw(matrices(d, d)), data.draw(matrices(2, d))
    ffn = (
        data.draw(matrices(d, 2)),
        data.draw(st.lists(rationals, min_size=2, max_size=2)),
        data.draw(matrices(2, d)),
        [0, 0],
    )
    layer = symattn.decoder_layer(
        X,
        memory,
        self_heads=self_heads,
        self_W_O=self_W_O,
        cross_heads=cross_heads,
        cross_W_O=cross_W_O,
        ffn=ffn,
    )
    ref = mp_decoder(
        mpm(X),
        mpm(memory),
        [tuple(mpm(w) for w in h) for h in self_heads],
        mpm(self_W_O),
        [tuple(mpm(w) for w in h) for h in cross_heads],
        mpm(cross_W_O),
        (mpm(ffn[0]), mpm([ffn[1]])[0], mpm(ffn[2]), mpm([ffn[3]])[0]),
        "relu",
        mpf(Fraction("1e-5")),
    )
    decimals = layer.decimals("output", PLACES)
    assert_digits(decimals, ref, "decoder")
    ref_f = np_decoder(
        npm(X),
        npm(memory),
        [tuple(npm(w) for w in h) for h in self_heads],
        npm(self_W_O),
        [tuple(npm(w) for w in h) for h in cross_heads],
        npm(cross_W_O),
        (npm(ffn[0]), npm([ffn[1]]), npm(ffn[2]), npm([ffn[3]])),
        1e-5,
    )
    assert_float_close(decimals, ref_f, "decoder")
    weights = layer.matrix("self_attention.head1.weights")
    assert all(weights[i, j] == 0 for i in range(n) for j in range(n) if j > i)  # causal
    assert_rows_sum_to_one(weights, "causal self-attention")
    for k in (1, 2):
        assert layer.matrix(f"cross_attention.head{k}.weights").shape == (n, m)


def test_transformer_stack_with_positions_and_next_token_probabilities() -> None:
    X = [[1, 0], [0, 1]]
    layer = {
        "heads": [(None, None, None)],
        "W_O": [[1, 0], [0, 1]],
        "ffn": ([[1], [-1]], [0], [[1, 1]], [0, 0]),
    }
    model = symattn.transformer(
        X, layers=[layer, layer], positional="sinusoidal", unembed=([[1, 0, -1], [0, 1, 1]], [0, 0, 0])
    )
    probabilities = model.stages["probabilities"]
    for i in range(probabilities.rows):  # each row is t_j / D with D the sum of the t_j, exactly
        parts = []
        for entry in probabilities.row(i):
            (inverse,) = [a for a in entry.args if a.is_Pow and a.exp == -1]
            (numerator,) = [a for a in entry.args if a is not inverse]
            parts.append((numerator, inverse.base))
        assert len({denominator for _, denominator in parts}) == 1
        assert sympy.Add(*(numerator for numerator, _ in parts), evaluate=False) == parts[0][1]
    # the same computation step by step, through the public stage functions
    E = symattn.residual(X, symattn.positional_encoding(2, 2))
    first = symattn.encoder_layer(E, **layer)
    second = symattn.encoder_layer(first.output, **layer)
    assert model.decimals("layer2.output", 20) == second.decimals("output", 20)
    logits = model.decimals("logits", 12)
    probs = [[float(v) for v in row] for row in model.decimals("probabilities", 12)]
    for row_logits, row_probs in zip(logits, probs, strict=True):
        e = [math.exp(float(v)) for v in row_logits]
        assert np.allclose(row_probs, [v / sum(e) for v in e], rtol=1e-10)


def test_encoder_layer_options_agree_with_the_stages_composed_by_hand() -> None:
    """GQA heads, RMSNorm, SwiGLU (a 6-tuple ffn) and γ/β: the layer is its stages composed."""
    X = [[1, "1/2"], [0, -1], ["1/3", 1]]
    q_heads, kv_heads = [[[1], [0]], [[0], [1]]], [([[1], [1]], [[1, 0], [0, 1]])]
    W_O = [[1, 0], [0, 1], [1, 1], [0, -1]]
    ffn = ([[1, -1], [0, 1]], [0, "0.1"], [[1, 0], [1, 1]], [0, 0], [[1, 0], [0, 1]], None)
    layer = symattn.encoder_layer(
        X, heads=q_heads, kv_heads=kv_heads, W_O=W_O, ffn=ffn, activation="swiglu", norm="pre",
        normalization="rms_norm", ln_1=([2, 1],), eps="1e-6",
    )  # fmt: skip
    assert isinstance(layer.attention["attention"], symattn.block.GroupedQueryAttention)
    N1 = symattn.rms_norm(X, [2, 1], eps="1e-6")
    H = symattn.residual(
        X, symattn.grouped_query_attention(N1, q_heads=q_heads, kv_heads=kv_heads, W_O=W_O).output
    )
    F = symattn.feed_forward(symattn.rms_norm(H, eps="1e-6"), *ffn[:4], activation="swiglu", W_3=ffn[4])
    assert layer.decimals("output", 25) == matrix_decimals("Y", symattn.residual(H, F), 25)


def test_relu_keeps_an_exact_zero_it_cannot_decide_as_max() -> None:
    # sqrt(6) − sqrt(2)·sqrt(3) is exactly 0 but built so that it does not cancel
    h = sympy.Add(sympy.sqrt(6), sympy.Mul(-1, sympy.sqrt(2), sympy.sqrt(3), evaluate=False), evaluate=False)
    record = symattn.block.feed_forward_stages(
        Exact(sympy.ImmutableMatrix([[h, 1]])), [[1], [0]], [0], [[1]], [0]
    )
    assert record.undecided == ((1, 1),) and record.zeroed == ()
    assert isinstance(record.activated[0, 0], sympy.Max)
    assert matrix_decimals("FFN", record.output, 30) == [["0." + "0" * 30]]


def test_certified_decimal_knows_the_blocks_functions() -> None:
    # mpmath: cos(0.01) = 0.99995000041…, erf(0.5) = 0.52049987781…, tanh(1) + sin(1) = 1.60306514…
    assert symattn.certified_decimal(sympy.cos(sympy.Rational(1, 100)), 8) == "0.99995000"
    assert symattn.certified_decimal(sympy.erf(sympy.Rational(1, 2)), 10) == "0.5204998778"
    assert symattn.certified_decimal(sympy.tanh(1) + sympy.sin(1), 6) == "1.603065"


def test_inputs_are_read_exactly_and_a_learned_positional_matrix_is_added() -> None:
    assert symattn.residual(sympy.ImmutableMatrix([[0.1]]), [[0]])[0, 0] == sympy.Rational(1, 10)
    X, P = [[1, 0], [0, 1]], [["0.1", "0.2"], ["-0.1", 0]]
    layer = {"heads": [(None, None, None)], "W_O": None, "ffn": ([[1], [1]], [0], [[1, 0]], [0, 0])}
    model = symattn.transformer(X, layers=[layer], positional=P)
    assert model.stages["embedded"] == symattn.residual(X, P)
    by_hand = symattn.encoder_layer(model.stages["embedded"], **layer)
    assert model.decimals("output", 20) == by_hand.decimals("output", 20)


def test_decoder_layer_takes_the_encoder_layer_as_memory() -> None:
    encoder = symattn.encoder_layer(
        [[1, 0], [0, 1]], heads=[(None, None, None)], W_O=None, ffn=([[1], [1]], [0], [[1, 0]], [0, 0])
    )
    kwargs = {
        "self_heads": [(None, None, None)], "self_W_O": None, "cross_heads": [(None, None, None)],
        "cross_W_O": None, "ffn": ([[1], [-1]], [0], [[1, 1]], [0, 0]),
    }  # fmt: skip
    from_layer = symattn.decoder_layer([[1, 1], [0, 1]], encoder, **kwargs)
    from_matrix = symattn.decoder_layer([[1, 1], [0, 1]], encoder.output, **kwargs)
    assert from_layer.decimals("output", 20) == from_matrix.decimals("output", 20)
    assert from_layer.matrix("cross_attention.head1.weights").shape == (2, 2)


# --- bad input: one line naming the field and the shapes -----------------------------------------


X23 = [[1, 2, 3], [4, 5, 6]]
W34 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]

BAD_INPUT = [
    pytest.param(
        lambda: symattn.positional_encoding(3, 5),
        "d_model is 5, but the sinusoidal positional encoding needs an even d_model "
        "(pairs of columns; the encoding would be 3×5)",
        id="odd-d_model",
    ),
    pytest.param(
        lambda: symattn.layer_norm(X23, eps="0"),
        "eps must be positive but is '0' (read as 0); it keeps √(σ² + ε) above 0 (X is 2×3)",
        id="eps-zero",
    ),
    pytest.param(
        lambda: symattn.rms_norm(X23, eps="-1e-5"),
        "eps must be positive but is '-1e-5' (read as -1/100000); it keeps √(σ² + ε) above 0 (X is 2×3)",
        id="eps-negative",
    ),
    pytest.param(
        lambda: symattn.feed_forward(X23, W34, [0, 0, 0], [[1]] * 4, [0]),
        "b_1 has 3 entries but X·W_1 (X is 2×3, W_1 is 3×4) has 4 columns (b_1 is 1×3)",
        id="bias-length",
    ),
    pytest.param(
        lambda: symattn.feed_forward(X23, W34, [[0, 0, 0, 0], [0, 0, 0, 0]], [[1]] * 4, [0]),
        "b_1 is 2×4 but a vector (a list or a 1×4 matrix) is needed for X·W_1 (X is 2×3, W_1 is 3×4)",
        id="bias-matrix",
    ),
    pytest.param(
        lambda: symattn.feed_forward(X23, W34, None, [[1]] * 4, None, activation="tanh"),
        "activation: unknown activation 'tanh' (expected one of relu, gelu, gelu_tanh, silu, swiglu)",
        id="unknown-activation",
    ),
    pytest.param(
        lambda: symattn.feed_forward(X23, W34, None, [[1]] * 3, None),
        "W_2 has 3 rows but the hidden layer has 4 columns (W_1 is 3×4, W_2 is 3×1)",
        id="W_2-shape",
    ),
    pytest.param(
        lambda: symattn.feed_forward(X23, W34, None, [[1]] * 4, None, activation="swiglu"),
        "activation: swiglu needs W_3 (the linear half, 3×4 like W_1) and optionally b_3",
        id="swiglu-without-W_3",
    ),
    pytest.param(
        lambda: symattn.residual(X23, [[1, 2], [3, 4]]),
        "residual: X is 2×3 but Y is 2×2; a residual adds equal shapes",
        id="residual-shapes",
    ),
    pytest.param(
        lambda: symattn.layer_norm(X23, gamma=[1, 1]),
        "gamma has 2 entries but X (2×3) has 3 columns (gamma is 1×2)",
        id="gamma-length",
    ),
    pytest.param(
        lambda: symattn.rope([[1, 2, 3]]),
        "rope: X is 1×3, but RoPE rotates pairs of columns and needs an even width",
        id="rope-odd",
    ),
    pytest.param(
        lambda: symattn.positional_encoding(2, 4, layout="stacked"),
        "layout: unknown layout 'stacked' (expected one of interleaved, concatenated)",
        id="unknown-layout",
    ),
    pytest.param(
        lambda: symattn.grouped_query_attention(X23, q_heads=[None] * 3, kv_heads=[(None, None)] * 2),
        "kv_heads has 2 heads but q_heads has 3; the number of key/value heads must divide the number of query heads",
        id="gqa-groups",
    ),
    pytest.param(
        lambda: symattn.encoder_layer(
            X23, heads=[(None, None, None)], W_O=None, ffn=(W34, None, [[1]] * 4, None), norm="sandwich"
        ),
        "norm: unknown norm 'sandwich' (expected one of post, pre)",
        id="unknown-norm",
    ),
]


@pytest.mark.parametrize(("call", "message"), BAD_INPUT)
def test_bad_input_is_one_line_naming_the_field_and_shapes(call, message) -> None:
    with pytest.raises(SymattnError) as caught:
        call()
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


def test_public_names_are_exported() -> None:
    for name in ("positional_encoding", "rope", "residual", "layer_norm", "rms_norm", "feed_forward",
                 "grouped_query_attention", "encoder_layer", "decoder_layer", "transformer"):  # fmt: skip
        assert name in symattn.__all__ and callable(getattr(symattn, name))


# --- the stage registry names what the layers build ----------------------------------------------


@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("activation", ["relu", "swiglu"])
@pytest.mark.parametrize("kind", ["encoder", "decoder"])
def test_the_registry_predicts_every_layers_stage_names(kind, norm, activation) -> None:
    from symattn import registry

    X, heads = [[1, 0], [0, 1]], [(None, None, None)]
    ffn = ([[1, 0], [0, 1]], None, [[1, 0], [0, 1]], None) + (
        (([[0, 1], [1, 0]]), None) if activation == "swiglu" else ()
    )
    if kind == "encoder":
        layer = {"heads": heads, "W_O": None, "ffn": ffn, "activation": activation, "norm": norm}
        blocks = [("attention", 1)]
    else:
        layer = {"kind": "decoder", "self_heads": heads, "self_W_O": None, "cross_heads": heads * 2,
                 "cross_W_O": [[1, 0], [0, 1], [1, 0], [0, 1]], "ffn": ffn, "activation": activation, "norm": norm}  # fmt: skip
        blocks = [("self_attention", 1), ("cross_attention", 2)]
    model = symattn.transformer(
        X, layers=[layer], positional="sinusoidal", unembed=([[1], [1]], None), memory=X
    )
    predicted = registry.transformer_stage_names(
        [(kind, norm, activation, blocks)], positional=True, unembed=True
    )
    assert [name for name in predicted if ".head" not in name] == list(model.stages)
    for name in predicted:  # every predicted name, heads included, is a stage of the model
        assert model.matrix(name).shape[0] == 2
    assert registry.layer_stage_names(kind, norm, activation) == model.layers[0].stage_names


# --- the certified ball path (symattn.blockfast) against the same references -------------------------


@st.composite
def wide_encoder_cases(draw):
    n, d, f = draw(st.integers(1, 4)), 4, draw(st.integers(1, 5))
    n_heads = draw(st.sampled_from([1, 2]))
    d_k = d // n_heads
    return {
        "X": draw(matrices(n, d)),
        "heads": [tuple(draw(matrices(d, d_k)) for _ in range(3)) for _ in range(n_heads)],
        "W_O": draw(matrices(d, d)),
        "ffn": (
            draw(matrices(d, f)),
            draw(st.lists(rationals, min_size=f, max_size=f)),
            draw(matrices(f, d)),
            draw(st.lists(rationals, min_size=d, max_size=d)),
        ),
    }


@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("activation", ["relu", "gelu", "gelu_tanh", "silu"])
@given(case=wide_encoder_cases())
@FEW
def test_the_ball_path_agrees_with_mpmath_and_float64(norm, activation, case) -> None:
    from symattn.blockfast import encoder_layer_decimals

    decimals, balls = encoder_layer_decimals(
        case["X"], places=PLACES, stages=("output", "ffn_pre_activation"), heads=case["heads"],
        W_O=case["W_O"], ffn=case["ffn"], activation=activation, norm=norm, eps="1e-5",
    )  # fmt: skip
    heads = [tuple(mpm(m) for m in h) for h in case["heads"]]
    W1, b1, W2, b2 = case["ffn"]
    ffn = (mpm(W1), mpm([b1])[0], mpm(W2), mpm([b2])[0])
    eps = mpf(Fraction("1e-5"))
    ref = mp_encoder(mpm(case["X"]), heads, mpm(case["W_O"]), ffn, activation, norm, eps)
    assert_digits(decimals["output"], ref, f"ball path {norm} {activation}")
    np_heads = [tuple(npm(m) for m in h) for h in case["heads"]]
    np_ffn = (npm(W1), npm([b1]), npm(W2), npm([b2]))
    ref_f = np_encoder(npm(case["X"]), np_heads, npm(case["W_O"]), np_ffn, activation, norm, 1e-5)
    assert_float_close(decimals["output"], ref_f, f"ball path {norm} {activation}")
    if activation == "relu":  # the zeroed units are exactly the negative pre-activations of the reference
        X = mpm(case["X"])
        ones, zeros = [mp.mpf(1)] * 4, [mp.mpf(0)] * 4
        if norm == "post":
            inner = mp_layer_norm(add(X, mp_mha(X, heads, mpm(case["W_O"]))), ones, zeros, eps)
        else:
            inner = mp_layer_norm(
                add(X, mp_mha(mp_layer_norm(X, ones, zeros, eps), heads, mpm(case["W_O"]))), ones, zeros, eps
            )
        pre = [[h + b for h, b in zip(row, ffn[1], strict=True)] for row in mm(inner, ffn[0])]
        tiny = mp.mpf(10) ** -40  # the reference's own rounding; an exact 0 is zeroed too (ReLU(0) = 0)
        negative = {(i + 1, j + 1) for i, row in enumerate(pre) for j, h in enumerate(row) if h < -tiny}
        at_most_0 = {(i + 1, j + 1) for i, row in enumerate(pre) for j, h in enumerate(row) if h <= tiny}
        assert negative <= set(balls.zeroed) | set(balls.undecided) and set(balls.zeroed) <= at_most_0
        assert set(balls.undecided) <= at_most_0 - negative  # only true zeros stay undecided


def test_the_ball_path_never_guesses_a_relu_sign_it_cannot_decide() -> None:
    """A hidden unit that is exactly 0 without cancelling structurally: Σ_j LN(x)_j = 0 (the row's mean is 0).
    Its ball holds 0 at every precision; the precision is raised to RELU_PREC and the unit is reported
    undecided, neither zeroed nor kept; its value max(0, h) still encloses the truth, so the output agrees."""
    from symattn.blockfast import encoder_layer_decimals
    from symattn.limits import RELU_PREC

    X = [[1, 2, 0, -1], [3, 1, 1, 0]]
    heads = [
        ([[1, 0], [0, 1], [0, 0], [1, 1]], [[1, 0], [0, 1], [1, 0], [0, 0]], [[1, 0], [0, 1], [0, 1], [1, 0]])
    ]
    W_O = [[1, 0, 0, 1], [0, 1, 1, 0]]
    ffn = ([[1, 1], [1, -1], [1, 0], [1, 2]], [0, 1], [[1, 0, 0, 0], [0, 1, 0, 1]], [0, 0, 0, 0])
    decimals, balls = encoder_layer_decimals(X, places=PLACES, heads=heads, W_O=W_O, ffn=ffn)
    assert {(1, 1), (2, 1)} <= set(balls.undecided) and balls.prec >= RELU_PREC
    assert not {(1, 1), (2, 1)} & set(balls.zeroed)
    eps = mpf(Fraction("1e-5"))
    mp_ffn_args = (mpm(ffn[0]), mpm([ffn[1]])[0], mpm(ffn[2]), mpm([ffn[3]])[0])
    ref = mp_encoder(mpm(X), [tuple(mpm(m) for m in heads[0])], mpm(W_O), mp_ffn_args, "relu", "post", eps)
    assert_digits(decimals["output"], ref, "output with an undecided ReLU")


def test_the_ball_path_reports_bad_input_in_one_line() -> None:
    from symattn.blockfast import encoder_layer_balls

    X = [[1, 0], [0, 1]]
    ffn = ([[1, 0], [0, 1]], [0, 0, 0], [[1, 0], [0, 1]], None)
    with pytest.raises(SymattnError, match=r"^b_1 has 3 entries but 2 columns are needed \(b_1 is 1×3\)$"):
        encoder_layer_balls(X, heads=[(X, X, X)], W_O=None, ffn=ffn)
    with pytest.raises(SymattnError, match=r"^activation: unknown activation 'tanh'"):
        encoder_layer_balls(X, heads=[(X, X, X)], W_O=None, ffn=ffn, activation="tanh")
    with pytest.raises(SymattnError, match=r"^eps must be a positive rational but is '0'"):
        encoder_layer_balls(X, heads=[(X, X, X)], W_O=None, ffn=(X, None, X, None), eps="0")
