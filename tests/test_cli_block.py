"""``symattn compute`` on transformer-block specs ([positional], [[layers]], [unembed], claims).

The printed decimals are checked against the mpmath reference of tests/test_block.py
(60 digits, written there from the textbook formulas, not from symattn), fed
with the spec's own numbers read by tomllib.  Bad input is checked through the
command line: one line naming the file, the line, the field and the shapes; exit 2;
nothing on stdout.
"""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from test_block import (
    add,
    assert_digits,
    mm,
    mp,
    mp_attention,
    mp_ffn,
    mp_layer_norm,
    mp_mha,
    mp_pe,
    mp_rms_norm,
    mpm,
)

from symattn.cli import main

SPECS = Path(__file__).parent / "specs"
PLACES = 32


def computed(capsys, path: Path, places: int = PLACES, engine: str = "auto") -> dict[str, list[list[str]]]:
    """Run ``symattn compute`` and read its stages back: {name: rows of decimal strings}."""
    assert main(["compute", str(path), "--digits", str(places), "--engine", engine]) == 0
    out = capsys.readouterr().out
    stages: dict[str, list[list[str]]] = {}
    name = None
    for line in out.splitlines():
        if line.startswith("  [") and name is not None:
            stages[name].append(line.strip()[1:-1].split(", "))
        elif line.endswith(":") and not line.startswith(" "):
            name = line[:-1]
            stages[name] = []
        else:
            name = None
    return stages


def data(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"), parse_float=str)


def vec(values) -> list:
    return [mp.mpf(Fraction(str(v)).numerator) / Fraction(str(v)).denominator for v in values]


def mp_softmax_rows(L):
    out = []
    for row in L:
        top = max(row)
        e = [mp.exp(v - top) for v in row]
        out.append([v / mp.fsum(e) for v in e])
    return out


@pytest.mark.parametrize("engine", ["exact", "balls"])
def test_compute_prints_every_stage_of_an_encoder_spec_to_30_digits(capsys, engine) -> None:
    path = SPECS / "block_encoder.toml"
    spec = data(path)
    stages = computed(capsys, path, engine=engine)
    layer = spec["layers"][0]
    X = mpm(spec["X"])
    P = mp_pe(len(X), len(X[0]), 10000, 0, "interleaved")
    E = add(X, P)
    heads = [tuple(mpm(h[k]) for k in ("W_Q", "W_K", "W_V")) for h in layer["attention"]["heads"]]
    W_O = mpm(layer["attention"]["W_O"])
    f = layer["ffn"]
    ffn = (mpm(f["W_1"]), vec(f["b_1"]), mpm(f["W_2"]), vec(f["b_2"]))
    eps = mp.mpf(1) / 100000
    ones, zeros = [mp.mpf(1)] * 4, [mp.mpf(0)] * 4
    A = mp_mha(E, heads, W_O)
    R1 = add(E, A)
    N1 = mp_layer_norm(R1, ones, zeros, eps)
    pre = [[h + b for h, b in zip(row, ffn[1], strict=True)] for row in mm(N1, ffn[0])]
    F = mp_ffn(N1, *ffn, "relu")
    R2 = add(N1, F)
    Y = mp_layer_norm(R2, ones, zeros, eps)
    L = mm(Y, mpm(spec["unembed"]["W_U"]))
    expected = {
        "positional": P,
        "embedded": E,
        "layer1.attention.head1.weights": mp_attention(E, *heads[0])[0],
        "layer1.attention.head2.output": mp_attention(E, *heads[1])[1],
        "layer1.attention": A,
        "layer1.residual_1": R1,
        "layer1.norm_1": N1,
        "layer1.ffn_pre_activation": pre,
        "layer1.ffn_activated": [[max(mp.mpf(0), h) for h in row] for row in pre],
        "layer1.ffn": F,
        "layer1.residual_2": R2,
        "layer1.norm_2": Y,
        "logits": L,
        "probabilities": mp_softmax_rows(L),
        "output": mp_softmax_rows(L),
    }
    for name, reference in expected.items():
        assert_digits(stages[name], reference, name)
    assert list(stages)[:2] == ["positional", "embedded"] and "X" not in stages


def test_compute_prints_the_claims_verdicts_of_a_block_spec(capsys) -> None:
    assert main(["compute", str(SPECS / "block_encoder.toml"), "--digits", "4"]) == 0
    out = capsys.readouterr().out
    # cos(1/100) = 0.99995000…: 1.0000 at four places; the spec cut it to 0.9999
    assert out.rstrip().endswith(
        "claims:\n  positional: 12 entries, 1 wrong ([2,4]: 0.9999, true 0.9999500, cut instead of rounded)"
    )


@pytest.mark.parametrize("engine", ["exact", "balls"])
def test_compute_a_decoder_and_a_gqa_rmsnorm_swiglu_layer_to_30_digits(capsys, engine) -> None:
    path = SPECS / "block_decoder.toml"
    spec = data(path)
    stages = computed(capsys, path, engine=engine)
    first, second = spec["layers"]
    X, memory = mpm(spec["X"]), mpm(spec["memory"])
    E = add(X, mpm(spec["positional"]["P"]))
    eps6 = mp.mpf(1) / 10**6
    ones, zeros = [mp.mpf(1)] * 2, [mp.mpf(0)] * 2

    def heads(table):
        return [tuple(mpm(h.get(k, [[1, 0], [0, 1]])) for k in ("W_Q", "W_K", "W_V")) for h in table["heads"]]

    # layer 1: pre-norm decoder, γ_2 = (2, 1), β_2 = (0, 1/2), GELU
    N1 = mp_layer_norm(E, ones, zeros, eps6)
    H1 = add(E, mp_mha(N1, heads(first["self_attention"]), mpm(first["self_attention"]["W_O"]), causal=True))
    N2 = mp_layer_norm(H1, vec([2, 1]), vec([0, "0.5"]), eps6)
    cross = mp_mha(N2, heads(first["cross_attention"]), mpm([[1, 0], [0, 1]]), X_kv=memory)
    H2 = add(H1, cross)
    f = first["ffn"]
    Y1 = add(
        H2,
        mp_ffn(
            mp_layer_norm(H2, ones, zeros, eps6),
            mpm(f["W_1"]),
            vec(f["b_1"]),
            mpm(f["W_2"]),
            vec(f["b_2"]),
            "gelu",
        ),
    )
    # layer 2: pre-norm encoder, RMSNorm (γ_1 = (1, 2), ε = 1e-5), two query heads sharing one K/V, SwiGLU
    eps5 = mp.mpf(1) / 10**5
    kv = second["attention"]["kv_heads"][0]
    gqa = [(mpm(h["W_Q"]), mpm(kv["W_K"]), mpm(kv["W_V"])) for h in second["attention"]["heads"]]
    R1 = mp_rms_norm(Y1, vec([1, 2]), eps5)
    H = add(Y1, mp_mha(R1, gqa, mpm(second["attention"]["W_O"])))
    g = second["ffn"]
    swiglu = mp_ffn(
        mp_rms_norm(H, ones, eps5), mpm(g["W_1"]), zeros, mpm(g["W_2"]), zeros, "swiglu", mpm(g["W_3"]), zeros
    )
    expected = {
        "embedded": E,
        "layer1.norm_1": N1,
        "layer1.residual_1": H1,
        "layer1.norm_2": N2,
        "layer1.cross_attention": cross,
        "layer1.output": Y1,
        "layer2.norm_1": R1,
        "layer2.attention.head1.weights": mp_attention(R1, *gqa[0])[0],
        "layer2.attention.head2.weights": mp_attention(R1, *gqa[1])[0],
        "layer2.residual_1": H,
        "output": add(H, swiglu),
    }
    for name, reference in expected.items():
        assert_digits(stages[name], reference, name)
    assert "layer2.ffn_gate" in stages and "layer1.self_attention.head1.weights" in stages


# --- bad input: one line, exit 2, nothing on stdout ----------------------------------------------------


BAD = [
    pytest.param(
        ('X = [[1, 0, "1/2", 0], [0, 1, 0, -1], [1, 1, 0, 0]]', 'X = [[1, 0, "1/2"], [0, 1, 0], [1, 1, 0]]'),
        r"block\.toml:7: positional: d_model is 3, but the sinusoidal positional encoding needs an even "
        r"d_model \(pairs of columns; the encoding would be 3×3\)",
        id="odd-d_model",
    ),
    pytest.param(
        ('eps = "1e-5"', 'eps = "0"'),
        r"block\.toml:32: layers\[1\]: eps must be positive but is '0' \(read as 0\); .* \(X is 3×4\)",
        id="eps-zero",
    ),
    pytest.param(
        ('eps = "1e-5"', "eps = -1e-5"),
        r"block\.toml:32: layers\[1\]: eps must be positive but is '-1e-5' \(read as -1/100000\)",
        id="eps-negative",
    ),
    pytest.param(
        ("b_1 = [0, 0.5, -0.25]", "b_1 = [0, 0.5]"),
        r"block\.toml:37: layers\[1\]: b_1 has 2 entries but H·W_1 \(H is 3×4, W_1 is 4×3\) has 3 columns "
        r"\(b_1 is 1×2\)",
        id="bias-length",
    ),
    pytest.param(
        ('activation = "relu"', 'activation = "tanh"'),
        r"block\.toml:35: layers\[1\]\.ffn\.activation: unknown activation 'tanh' "
        r"\(expected one of relu, gelu, gelu_tanh, silu, swiglu\)",
        id="unknown-activation",
    ),
    pytest.param(
        ("W_Q = [[1, 0], [0, 1], [0, 0], [0, 0]]", "W_Q = [[1, 0], [0, 1], [0, 0]]"),
        r"block\.toml:20: layers\[1\]: W_Q has 3 rows but X has 4 columns \(X is 3×4, W_Q is 3×2\)",
        id="W_Q-shape",
    ),
    pytest.param(
        ("W_2 = [[1, 0, 0, 1], [0, 1, 1, 0], [0.5, 0, 0, -1]]", "W_2 = [[1, 0, 0, 1], [0, 1, 1, 0]]"),
        r"block\.toml:38: layers\[1\]: W_2 has 2 rows but the hidden layer has 3 columns "
        r"\(W_1 is 4×3, W_2 is 2×4\)",
        id="W_2-shape",
    ),
    pytest.param(
        ('placement = "post"', 'placement = "sandwich"'),
        r"block\.toml:30: layers\[1\]\.norm\.placement: unknown placement 'sandwich' \(expected one of post, pre\)",
        id="unknown-placement",
    ),
    pytest.param(
        ('layout = "interleaved"', 'layout = "stacked"'),
        r"block\.toml:11: positional\.layout: unknown layout 'stacked' \(expected one of interleaved, concatenated\)",
        id="unknown-layout",
    ),
    pytest.param(
        ("b_U = [0, 0, 0]", "b_U = [0, 0]"),
        r"block\.toml:\d+: unembed: b_U has 2 entries but the last layer's output·W_U .* has 3 columns",
        id="b_U-length",
    ),
    pytest.param(
        ('kind = "layer_norm"', 'kind = "batch_norm"'),
        r"block\.toml:31: layers\[1\]\.norm\.kind: unknown kind 'batch_norm' \(expected one of layer_norm, rms_norm\)",
        id="unknown-norm-kind",
    ),
    pytest.param(
        ("[layers.ffn]", "[layers.ffn]\ndropout = 0.1"),
        r"block\.toml:35: unknown key 'dropout' in layers\[1\]\.ffn \(known keys: activation, W_1, .*\)",
        id="unknown-key",
    ),
    pytest.param(
        ("positional = [[0, 1, 0, 1], ", "positional = ["),
        r"block\.toml:\d+: claims\.positional is 2×4 but the true positional matrix is 3×4",
        id="claim-shape",
    ),
    pytest.param(
        ("positional = [[0, 1, 0, 1], ", '"layer1.norm_3" = [[0, 1, 0, 1], '),
        r"block\.toml:\d+: claims\.layer1\.norm_3 names no stage of this block \(stages: positional, .*\)",
        id="claim-unknown-stage",
    ),
    pytest.param(
        ('W_O = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, "1/2", 1]]', "W_O = [[1, 0], [0, 1]]"),
        r"block\.toml:17: layers\[1\]: W_O has 2 rows but the concatenated heads have 4 columns",
        id="W_O-shape",
    ),
]


@pytest.mark.parametrize(("edit", "message"), BAD)
def test_bad_block_input_is_one_line_and_exit_2(tmp_path, capsys, edit, message) -> None:
    text = (SPECS / "block_encoder.toml").read_text(encoding="utf-8")
    old, new = edit
    assert text.count(old) == 1, old
    path = tmp_path / "block.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert main(["compute", str(path), "--engine", "exact"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert re.fullmatch(rf"symattn: error: .*{message}.*", lines[0]), lines[0]


def test_importance_refuses_a_block_spec_in_one_line(capsys, tmp_path) -> None:
    out = tmp_path / "out.md"  # derive writes block specs (tests/test_derive_block.py)
    for argv in (["importance", str(SPECS / "block_encoder.toml"), "-o", str(out)],):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not read transformer-block specs" in err
    assert not out.exists()


BAD_ON_BALLS = [
    pytest.param(
        ("b_1 = [0, 0.5, -0.25]", "b_1 = [0, 0.5]"),
        r"block\.toml:37: layers\[1\]: b_1 has 2 entries but 3 columns are needed \(b_1 is 1×2\)",
        id="bias-length",
    ),
    pytest.param(
        ('eps = "1e-5"', 'eps = "0"'),
        r"block\.toml:32: layers\[1\]: eps must be a positive rational but is '0' \(read as 0\)",
        id="eps-zero",
    ),
    pytest.param(
        ('X = [[1, 0, "1/2", 0], [0, 1, 0, -1], [1, 1, 0, 0]]', 'X = [[1, 0, "1/2"], [0, 1, 0], [1, 1, 0]]'),
        r"block\.toml:7: positional: d_model is 3, but the sinusoidal positional encoding needs an even d_model",
        id="odd-d_model",
    ),
    pytest.param(
        ("W_Q = [[1, 0], [0, 1], [0, 0], [0, 0]]", "W_Q = [[1, 0], [0, 1], [0, 0]]"),
        r"block\.toml:20: layers\[1\]: W_Q has 3 rows but X \(3×4\) has 4 columns \(W_Q is 3×2\)",
        id="W_Q-shape",
    ),
    pytest.param(
        (
            'X = [[1, 0, "1/2", 0], [0, 1, 0, -1], [1, 1, 0, 0]]',
            'X = [[1, 0, "sqrt(2)", 0], [0, 1, 0, -1], [1, 1, 0, 0]]',
        ),
        r"block\.toml:5: X: the ball path takes rational entries \(use symattn\.encoder_layer for others\)",
        id="irrational-input",
    ),
]


@pytest.mark.parametrize(("edit", "message"), BAD_ON_BALLS)
def test_bad_block_input_on_the_ball_path_is_one_line_and_exit_2(tmp_path, capsys, edit, message) -> None:
    text = (SPECS / "block_encoder.toml").read_text(encoding="utf-8")
    old, new = edit
    assert text.count(old) == 1, old
    path = tmp_path / "block.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert main(["compute", str(path), "--engine", "balls"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert re.fullmatch(rf"symattn: error: .*{message}.*", lines[0]), lines[0]


def test_a_large_block_spec_goes_to_the_ball_path_and_agrees_with_float64(tmp_path, capsys) -> None:
    """24 tokens (above the 16 of a worked example): --engine auto takes arb balls; numpy float64 agrees."""
    import random

    import numpy as np

    rng = random.Random(5)

    def mat(r, c):
        return [[f'"{rng.randint(-5, 5)}/{rng.randint(1, 6)}"' for _ in range(c)] for _ in range(r)]

    def toml(m):
        return "[" + ", ".join("[" + ", ".join(row) + "]" for row in m) + "]"

    X, WQ, WK, WV, W1, W2 = mat(24, 4), mat(4, 4), mat(4, 4), mat(4, 4), mat(4, 6), mat(6, 4)
    text = (
        f"X = {toml(X)}\n[[layers]]\n[layers.attention]\n[[layers.attention.heads]]\n"
        f"W_Q = {toml(WQ)}\nW_K = {toml(WK)}\nW_V = {toml(WV)}\n"
        f"[layers.ffn]\nW_1 = {toml(W1)}\nW_2 = {toml(W2)}\n"
    )
    path = tmp_path / "large.toml"
    path.write_text(text, encoding="utf-8")
    stages = computed(capsys, path, places=20)

    def f(m):
        return np.array([[float(Fraction(v.strip('"'))) for v in row] for row in m])

    def ln(M):
        mu = M.mean(axis=1, keepdims=True)
        return (M - mu) / np.sqrt(((M - mu) ** 2).mean(axis=1, keepdims=True) + 1e-5)

    x = f(X)
    S = (x @ f(WQ)) @ (x @ f(WK)).T / 2
    E = np.exp(S - S.max(axis=1, keepdims=True))
    H = ln(x + (E / E.sum(axis=1, keepdims=True)) @ (x @ f(WV)))
    Y = ln(H + np.maximum(H @ f(W1), 0) @ f(W2))
    got = np.array([[float(v) for v in row] for row in stages["output"]])
    assert np.allclose(got, Y, rtol=0, atol=1e-12 * np.abs(Y).max())
    assert len(stages["layer1.attention.head1.weights"]) == 24


@pytest.mark.parametrize(
    ("spec", "edit"),
    [
        pytest.param(
            "block_encoder.toml",
            ("[layers.attention]\n", '[layers.attention]\nmask = "causal"\nscale = "none"\n'),
            id="masked-unscaled",
        ),
        pytest.param(
            "block_decoder.toml",
            ('[positional]\nkind = "learned"\nP = [[0, "0.1"], ["0.2", 0]]\n', ""),
            id="decoder-exact-scores",
        ),
    ],
)
def test_both_engines_print_the_same_digits(tmp_path, capsys, spec, edit) -> None:
    """The exact closed forms and the arb balls give the same certified digits (masks, scales, a
    decoder whose first scores are exact rationals); the mpmath tests above pin both to the truth."""
    text = (SPECS / spec).read_text(encoding="utf-8")
    assert text.count(edit[0]) == 1
    path = tmp_path / spec
    path.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    exact = computed(capsys, path, places=25, engine="exact")
    balls = computed(capsys, path, places=25, engine="balls")
    exact.pop("claims", None), balls.pop("claims", None)
    assert exact == balls and len(exact) > 10
