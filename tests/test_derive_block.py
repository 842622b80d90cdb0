"""derive on transformer-block specs: the numbers a block derivation prints, against an
independent computation written here (fractions and mpmath, never symattn), in English and
Chinese, Markdown and LaTeX; RoPE specs' bad input; the size guard.

The models below re-implement the four checked-in examples of derivations/ (sinusoidal
positions, post-norm encoder and decoder layers, grouped-query attention, RoPE) from their
definitions: PE(pos, 2i) = sin(pos / 10000^{2i/d}), LayerNorm with the population variance
and ε = 1e-5 inside the root, ReLU FFNs, softmax(QKᵀ/√d_k).
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from symattn.cli import main

ROOT = Path(__file__).resolve().parent.parent
DERIVATIONS = ROOT / "derivations"
EPS = Fraction(1, 100000)


@pytest.fixture(autouse=True)
def _digits():
    with mpmath.workdps(40):
        yield


def rounded(x, places: int = 4) -> str:
    """Half away from zero, as the derivations print ("-0.0000" is "0.0000")."""
    text = mpmath.nstr(mpmath.mpf(x), 35, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)
    out = str(Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    return out[1:] if out.startswith("-") and not out.strip("-0.") else out


# --- an independent model -----------------------------------------------------------------------


def mat(rows):
    return [[mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in row] for row in rows]


def mul(A, B):
    return [
        [mpmath.fsum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))]
        for i in range(len(A))
    ]


def add(A, B):
    return [[a + b for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(A, B, strict=True)]


def bias(A, b):
    return [
        [a + mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for a, v in zip(row, b, strict=True)]
        for row in A
    ]


def transpose(A):
    return [list(col) for col in zip(*A, strict=True)]


def softmax(row):
    top = max(row)
    e = [mpmath.exp(v - top) for v in row]
    return [v / mpmath.fsum(e) for v in e]


def attention(Xq, Xkv, WQ, WK, WV, *, causal=False, rotate=None):
    Q, K, V = mul(Xq, mat(WQ)), mul(Xkv, mat(WK)), mul(Xkv, mat(WV))
    if rotate is not None:
        Q, K = rotate(Q), rotate(K)
    d_k = len(Q[0])
    S = [[s / mpmath.sqrt(d_k) for s in row] for row in mul(Q, transpose(K))]
    A = []
    for i, row in enumerate(S):
        live = row[: i + 1] if causal else row
        A.append(softmax(live) + [mpmath.mpf(0)] * (len(row) - len(live)))
    return A, mul(A, V), Q, K


def stats(row):
    d = len(row)
    mu = mpmath.fsum(row) / d
    var = mpmath.fsum((x - mu) ** 2 for x in row) / d
    return mu, var


def layer_norm(M):
    out = []
    for row in M:
        mu, var = stats(row)
        root = mpmath.sqrt(var + mpmath.mpf(EPS.numerator) / EPS.denominator)
        out.append([(x - mu) / root for x in row])
    return out


def relu(M):
    return [[max(v, mpmath.mpf(0)) for v in row] for row in M]


def negative(Z):
    """The negative entries; |v| < 10^-30 is an exact 0 lost to 40-digit round-off (a LayerNorm
    row of width 2 is (a, -a), so their sum is exactly 0), which ReLU leaves as it is."""
    return {
        (i + 1, j + 1) for i, row in enumerate(Z) for j, v in enumerate(row) if v < -(mpmath.mpf(10) ** -30)
    }


def positional(n, d, base=10000):
    return [
        [
            (mpmath.sin if c % 2 == 0 else mpmath.cos)(
                mpmath.mpf(pos) / mpmath.power(base, mpmath.mpf(c - c % 2) / d)
            )
            for c in range(d)
        ]
        for pos in range(n)
    ]


def encoder_sinusoidal():
    X = mat([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
    P = positional(3, 4)
    E = add(X, P)
    W = [[1, 0], [0, 1], [0, 0], [0, 0]]
    A, out, _, _ = attention(E, E, W, W, W)
    R1 = add(E, mul(out, mat([[1, 0, 0, 0], [0, 1, 0, 0]])))
    N1 = layer_norm(R1)
    Z = bias(mul(N1, mat([[1, -1, 0], [0, 1, -1], [-1, 0, 1], [0, 0, 1]])), [0, Fraction(-1, 2), 0])
    F = mul(relu(Z), mat([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -1]]))
    R2 = add(N1, F)
    return {"P": P, "E": E, "A": A, "R1": R1, "N1": N1, "Z": Z, "R2": R2, "Y": layer_norm(R2)}


def decoder_cross():
    X = mat([[2, 0, 0], [1, 1, 0]])
    M = mat([[1, 0, 0], [0, 1, 1]])
    identity = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    _, O1, _, _ = attention(X, X, identity, identity, identity, causal=True)
    R1 = add(X, O1)
    N1 = layer_norm(R1)
    _, O2, _, _ = attention(N1, M, identity, identity, identity)
    R2 = add(N1, O2)
    N2 = layer_norm(R2)
    Z = bias(mul(N2, mat([[1, -1, 0], [0, 1, 1], [1, 0, -1]])), [0, 0, Fraction(-1, 2)])
    F = mul(relu(Z), mat([[1, 0, 0], [0, 1, 0], [1, -1, 1]]))
    return {"R1": R1, "N1": N1, "R2": R2, "Z": Z, "Y": layer_norm(add(N2, F))}


def gqa():
    X = mat([[1, 0], [0, 1], [2, 1]])
    WK, WV = [[1], [1]], [[1], [-1]]
    A1, O1, _, K1 = attention(X, X, [[1], [0]], WK, WV)
    A2, O2, _, K2 = attention(X, X, [[0], [1]], WK, WV)
    R1 = add(X, [a + b for a, b in zip(O1, O2, strict=True)])  # concat · I
    N1 = layer_norm(R1)
    Z = mul(N1, mat([[1, -1], [1, 1]]))
    R2 = add(N1, relu(Z))
    return {"A1": A1, "A2": A2, "K1": K1, "K2": K2, "N1": N1, "Z": Z, "Y": layer_norm(R2)}


def rotate(M, base=10000):
    """RoPE (interleaved pairs), row m by m·θ_i, θ_i = base^{-2i/d}."""
    d = len(M[0])
    out = []
    for m, row in enumerate(M):
        new = list(row)
        for i in range(d // 2):
            angle = m * mpmath.power(base, -mpmath.mpf(2 * i) / d)
            a, b = row[2 * i], row[2 * i + 1]
            new[2 * i] = a * mpmath.cos(angle) - b * mpmath.sin(angle)
            new[2 * i + 1] = a * mpmath.sin(angle) + b * mpmath.cos(angle)
        out.append(new)
    return out


def rope():
    X = mat([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
    identity = [[int(i == j) for j in range(4)] for i in range(4)]
    A, out, Q, K = attention(X, X, identity, identity, identity, rotate=rotate)
    R1 = add(X, out)
    N1 = layer_norm(R1)
    Z = mul(N1, mat([[1, 0], [0, 1], [-1, 1], [0, -1]]))
    R2 = add(N1, mul(relu(Z), mat([[1, 0, 0, 0], [0, 0, 1, 0]])))
    return {"A": A, "Q": Q, "K": K, "N1": N1, "Z": Z, "Y": layer_norm(R2)}


# --- reading the derivations ---------------------------------------------------------------------


def text(name: str, lang: str = "en", fmt: str = "md") -> str:
    return (DERIVATIONS / f"{name}.{lang}.{fmt}").read_text(encoding="utf-8")


def section(doc: str, title: str) -> str:
    """The text of the first section whose heading contains ``title`` (up to the next ## heading)."""
    for heading in (r"^## [^\n]*", r"\\subsection\*\{[^\n]*"):
        parts = re.split(f"({heading})", doc, flags=re.M)
        for k in range(1, len(parts) - 1, 2):
            if title in parts[k]:
                return parts[k + 1]
    raise AssertionError(f"no section {title!r}")


def decimal_after(doc: str, pattern: str) -> str:
    """The first decimal printed after ``\\approx`` in the chain that starts with ``pattern``."""
    match = re.search(pattern + r".*?\\approx (-?\d+\.\d+)", doc, flags=re.S)
    assert match, pattern
    return match.group(1)


def matrix_after(doc: str, anchor: str, *, last: bool = False) -> list[list[str]]:
    """The decimals of the first ``\\approx \\begin{bmatrix}…`` after (the last) ``anchor``."""
    start = doc.rindex(anchor) if last else doc.index(anchor)
    match = re.compile(r"\\approx \\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", re.S).search(doc, start)
    assert match, anchor
    return [[cell.strip() for cell in row.split("&")] for row in match.group(1).split(r"\\")]


def zeroed(doc: str, lang: str) -> dict[tuple[int, int], str]:
    item = r"token (\d+), hidden unit (\d+)" if lang == "en" else r"第 (\d+) 个词元，第 (\d+) 个隐藏单元"
    found = re.findall(item + r"[:：] ?(?:\$|\\\()z_\{\d+\} \\approx (-?\d+\.\d+)", doc)
    return {(int(i), int(j)): v for i, j, v in found}


FORMS = [("en", "md"), ("zh", "md"), ("en", "tex"), ("zh", "tex")]


# --- the examples ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "fmt"), FORMS)
def test_positional_angles_sines_and_cosines(lang, fmt):
    doc = section(text("encoder_sinusoidal", lang, fmt), "2.")
    P = encoder_sinusoidal()["P"]
    for pos in range(3):
        for i in range(2):
            angle = Fraction(pos, 100**i)
            head = rf"\\alpha_\{{\({pos},{i}\)\}} & = \\frac\{{{pos}\}}\{{10000\^\{{{2 * i}/4\}}\}}"
            assert re.search(head, doc), (pos, i)
            if angle.denominator > 1:
                assert rounded(mpmath.mpf(angle.numerator) / angle.denominator) == decimal_after(doc, head)
            for col in (2 * i, 2 * i + 1):
                cell = (
                    rf"\\mathrm\{{PE\}}_\{{\({pos},{col}\)\}} & = \\(?:sin|cos) \\alpha_\{{\({pos},{i}\)\}}"
                )
                value = P[pos][col]
                if pos == 0:  # sin 0 = 0, cos 0 = 1: exact
                    assert re.search(cell + rf" = {int(value)}", doc)
                else:
                    assert decimal_after(doc, cell) == rounded(value)


@pytest.mark.parametrize(("lang", "fmt"), FORMS)
def test_layer_norm_means_and_variances(lang, fmt):
    model = encoder_sinusoidal()
    for title, source in (("N1", "R1"), ("N2", "R2")):
        doc = section(text("encoder_sinusoidal", lang, fmt), title)
        for i, row in enumerate(model[source], start=1):
            mu, var = stats(row)
            assert decimal_after(doc, rf"\\mu_\{{{i}\}} & = ") == rounded(mu)
            assert decimal_after(doc, rf"\\sigma_\{{{i}\}}\^\{{2\}} & = ") == rounded(var)
    output = matrix_after(section(text("encoder_sinusoidal", lang, fmt), "N2"), "N_{2}", last=True)
    assert output == [[rounded(v) for v in row] for row in model["Y"]]


def _tex(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else rf"\frac{{{x.numerator}}}{{{x.denominator}}}"


def test_layer_norm_of_rational_rows_is_exact():
    """The decoder's first residual is rational: μ and σ² are written as exact sums."""
    X = [[Fraction(2), Fraction(0), Fraction(0)], [Fraction(1), Fraction(1), Fraction(0)]]
    # causal self-attention with identity projections: token 1 sees itself; token 2's two scores
    # are equal (x_2·x_1 = x_2·x_2 = 2), so it averages the two values
    heads = [X[0], [(X[0][j] + X[1][j]) / 2 for j in range(3)]]
    R = [[x + o for x, o in zip(rx, ro, strict=True)] for rx, ro in zip(X, heads, strict=True)]
    doc = section(text("decoder_cross"), "N1")
    for i, row in enumerate(R, start=1):
        mu = sum(row) / 3
        var = sum((x - mu) ** 2 for x in row) / 3
        shown = " + ".join(_tex(x) for x in row)
        assert rf"\mu_{{{i}}} & = \frac{{{shown}}}{{3}} = {_tex(mu)}" in doc
        deviations = " + ".join(rf"\left({_tex(x)} - {_tex(mu)}\right)^2" for x in row)
        assert rf"\sigma_{{{i}}}^{{2}} & = \frac{{{deviations}}}{{3}} = {_tex(var)}" in doc
    model = decoder_cross()
    assert [[float(v) for v in row] for row in model["R1"]] == [[float(v) for v in row] for row in R]


@pytest.mark.parametrize(
    ("name", "model"),
    [
        ("encoder_sinusoidal", encoder_sinusoidal),
        ("decoder_cross", decoder_cross),
        ("gqa", gqa),
        ("rope", rope),
    ],
)
@pytest.mark.parametrize(("lang", "fmt"), FORMS)
def test_relu_names_the_units_it_zeroes(name, model, lang, fmt):
    Z = model()["Z"]
    expected = {cell: rounded(Z[cell[0] - 1][cell[1] - 1]) for cell in negative(Z)}
    assert expected  # every example zeroes some unit
    assert zeroed(text(name, lang, fmt), lang) == expected


@pytest.mark.parametrize(("name", "model"), [("decoder_cross", decoder_cross), ("gqa", gqa), ("rope", rope)])
def test_the_block_output(name, model):
    doc = text(name)
    shown = matrix_after(section(doc, "block" if "block" in doc else "output"), "Y = ")
    assert shown == [[rounded(v) for v in row] for row in model()["Y"]]


@pytest.mark.parametrize(("lang", "fmt"), FORMS)
def test_gqa_says_which_query_heads_share_which_key_value_head(lang, fmt):
    doc = text("gqa", lang, fmt)
    model = gqa()
    assert model["K1"] == model["K2"]  # one shared W_K: both heads see the same keys
    line = "query head {h} uses key/value head 1" if lang == "en" else "第 {h} 个查询头使用第 1 个键/值头"
    for h in (1, 2):
        assert line.format(h=h) in doc
    for h, weights in ((1, model["A1"]), (2, model["A2"])):
        assert matrix_after(doc, f"A^{{({h})}} = ") == [[rounded(v) for v in row] for row in weights]


@pytest.mark.parametrize(("lang", "fmt"), FORMS)
def test_rope_angles_and_rotated_queries(lang, fmt):
    doc = text("rope", lang, fmt)
    model = rope()
    for m in range(3):
        for i, theta in enumerate((Fraction(1), Fraction(1, 100))):
            angle = m * theta
            head = rf"\\phi_\{{{m + 1},{i}\}} & = {m} \\cdot "
            assert re.search(head, doc), (m, i)
            if angle:
                value = mpmath.mpf(angle.numerator) / angle.denominator
                assert decimal_after(doc, rf"\\cos \\phi_\{{{m + 1},{i}\}}") == rounded(mpmath.cos(value))
                assert decimal_after(doc, rf"\\sin \\phi_\{{{m + 1},{i}\}}") == rounded(mpmath.sin(value))
    assert matrix_after(doc, r"Q^{(1)} & = \operatorname{RoPE}") == [
        [rounded(v) for v in row] for row in model["Q"]
    ]
    assert matrix_after(doc, r"K^{(1)} & = \operatorname{RoPE}") == [
        [rounded(v) for v in row] for row in model["K"]
    ]
    assert matrix_after(doc, "A^{(1)} = ") == [[rounded(v) for v in row] for row in model["A"]]


def test_the_derivation_states_its_conventions():
    doc = text("encoder_sinusoidal")
    assert "population variance" in doc and r"\varepsilon = \frac{1}{100000}" in doc
    assert r"\mathrm{PE}_{(pos,\, 2i+1)} = \cos" in doc and "Positions are counted from 0 to 2" in doc
    assert "post-norm" in doc and r"\operatorname{ReLU}(x W_1 + b_1)" in doc
    zh = text("decoder_cross", "zh")
    assert "总体方差" in zh and "因果" in zh and "交叉注意力" in zh


# --- the command line ----------------------------------------------------------------------------------

SPEC = """\
title = "RoPE"
X = [[1, 0], [0, 1], [1, 1]]

[[layers]]
kind = "encoder"

[layers.attention]
rope = { base = 10000 }
[[layers.attention.heads]]
W_Q = [[1, 0], [0, 1]]

[layers.norm]
placement = "post"

[layers.ffn]
W_1 = [[1, -1], [0, 1]]
W_2 = [[1, 0], [0, 1]]
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "rope = { base = 10000 }",
            "rope = { base = 0 }",
            r"spec\.toml:8: layers\[1\]: rope\.base must be positive",
            id="base",
        ),
        pytest.param(
            "rope = { base = 10000 }",
            "rope = { base = 10000, theta = 1 }",
            r"spec\.toml:8: unknown key 'theta' in layers\[1\]\.attention\.rope \(known keys: base, start, layout\)",
            id="unknown-key",
        ),
        pytest.param(
            "rope = { base = 10000 }",
            "rope = 10000",
            r"spec\.toml:8: layers\[1\]\.attention\.rope must be a table",
            id="not-a-table",
        ),
        pytest.param(
            "rope = { base = 10000 }",
            "rope = { start = -1 }",
            r"spec\.toml:8: layers\[1\]\.attention\.rope\.start must be an integer ≥ 0",
            id="start",
        ),
        pytest.param(
            "rope = { base = 10000 }",
            'rope = { layout = "halves" }',
            r"spec\.toml:8: layers\[1\]\.attention\.rope\.layout: unknown layout 'halves' \(expected one of interleaved, concatenated\)",
            id="layout",
        ),
        pytest.param(
            "W_Q = [[1, 0], [0, 1]]",
            "W_Q = [[1], [0]]\nW_K = [[1], [0]]",
            r"spec\.toml:8: layers\[1\]: rope: the queries and keys have d_k = 1 \(W_Q is 2×1\), but RoPE rotates pairs",
            id="odd-width",
        ),
    ],
)
@pytest.mark.parametrize("command", ["derive", "compute"])
def test_bad_rope_specs_fail_in_one_line(tmp_path, capsys, old, new, message, command):  # noqa: PLR0917
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.replace(old, new), encoding="utf-8")
    out = tmp_path / "out.md"
    argv = [command, str(spec)] + (["-o", str(out)] if command == "derive" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.search(message, err), err
    assert not out.exists()


def test_rope_on_the_ball_path_is_refused(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC, encoding="utf-8")
    assert main(["compute", str(spec), "--engine", "balls"]) == 2
    assert "RoPE is not on the ball path yet" in capsys.readouterr().err


def test_a_large_block_spec_is_refused_before_any_work(tmp_path, capsys):
    rows = ", ".join("[1, 0]" for _ in range(9))
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.replace("X = [[1, 0], [0, 1], [1, 1]]", f"X = [{rows}]"), encoding="utf-8")
    out = tmp_path / "out.md"
    assert main(["derive", str(spec), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "X has 9 tokens, more than the 8 a block derivation shows" in err and "symattn compute" in err
    assert not out.exists()


@pytest.mark.parametrize(("lang", "fmt"), [("en", "md"), ("zh", "tex"), ("en", "json")])
def test_derive_a_block_spec_from_the_command_line(tmp_path, capsys, lang, fmt):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC, encoding="utf-8")
    out = tmp_path / f"out.{fmt}"
    argv = ["derive", str(spec), "--lang", lang, "--format", fmt, "-o", str(out)]
    assert main(argv + (["--standalone"] if fmt == "tex" else [])) == 0
    written = out.read_text(encoding="utf-8")
    if fmt == "json":
        steps = json.loads(written)["steps"]
        attention = next(s for s in steps if s["step"] == "AttentionPart")
        assert steps[0]["step"] == "BlockSetup" and any(s["step"] == "RopeStep" for s in attention["steps"])
    else:
        assert ("RoPE" in written) and (r"\documentclass{ctexart}" in written) == (fmt == "tex")


# --- every stage kind renders: KaTeX and LaTeX -------------------------------------------------------

SPECS = ROOT / "tests" / "specs"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_block_stage_renders_in_katex_and_latex(tmp_path, lang):
    """tests/specs/block_decoder.toml has what the four examples do not: learned positions, two
    layers (names N^{[k]}_j), pre-norm, GELU, RMSNorm, SwiGLU and GQA after a norm (heads given in
    decimals); block_encoder.toml has claims."""
    from test_render_katex import run_katex
    from test_render_tex import compile_tex

    from symattn.derivation import derive

    for name in ("block_decoder", "block_encoder"):
        derivation = derive(SPECS / f"{name}.toml", lang=lang)
        doc = tmp_path / f"{name}.{lang}.md"
        doc.write_text(derivation.to_markdown(), encoding="utf-8")
        code, report = run_katex([doc])
        assert (code, report["errors"]) == (0, [])
        code, log = compile_tex(derivation.to_latex(standalone=True), lang, tmp_path)
        assert "Undefined control sequence" not in log
        assert code == 0, log[-2000:]
    markdown = doc.read_text(encoding="utf-8")
    assert "p_{24}" in markdown and "0.9999" in markdown  # the claimed PE(1, 3), cut instead of rounded
