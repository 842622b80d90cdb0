"""Properties: documents written from the engine's own certified decimals
verify clean, and one changed digit is always found, in any notation."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from symattn.pipeline import attention
from symattn.verify import verify_text

ENVS = ("bmatrix", "pmatrix")
TRANSPOSES = ("^T", "^\\top", "^{\\top}", "^{T}", "^\\intercal")


def _matrix(rows: list[list[object]], env: str) -> str:
    body = " \\\\ ".join(" & ".join(str(x) for x in row) for row in rows)
    return f"\\begin{{{env}}} {body} \\end{{{env}}}"


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, int]:
    """A worked example printed from certified decimals; returns (text, line of A)."""
    n = draw(st.integers(2, 4))
    d = draw(st.integers(2, 3))
    entries = st.integers(-2, 3)
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    W = [[[draw(st.integers(-1, 2)) for _ in range(d)] for _ in range(d)] for _ in range(3)]
    env = draw(st.sampled_from(ENVS))
    T = draw(st.sampled_from(TRANSPOSES))
    names = draw(st.sampled_from([("W^Q", "W^K", "W^V"), ("W_Q", "W_K", "W_V")]))
    places = draw(st.integers(2, 4))
    result = attention(X, *W)
    lines = [
        f"With $d_k = {d}$:",
        "",
        f"$$X = {_matrix(X, env)}$$",
        "",
        "$$"
        + ", \\quad ".join(f"{name} = {_matrix(w, env)}" for name, w in zip(names, W, strict=True))
        + "$$",
        "",
    ]
    for stage, name in zip(("Q", "K", "V"), names, strict=True):
        lines += [f"$${stage} = X {name} = {_matrix(result.matrix(stage).tolist(), env)}$$", ""]
    lines += [
        f"$$S = \\frac{{Q K{T}}}{{\\sqrt{{d_k}}}} \\approx {_matrix(result.decimals('scaled', places), env)}$$",
        "",
        f"$$A = \\text{{softmax}}(S) \\approx {_matrix(result.decimals('weights', places), env)}$$",
        "",
        f"$$\\text{{Output}} = A V \\approx {_matrix(result.decimals('output', places), env)}$$",
        "",
    ]
    return "\n".join(lines), lines.index(next(line for line in lines if line.startswith("$$A ="))) + 1


@settings(max_examples=12, deadline=None)
@given(documents())
def test_documents_printed_from_certified_decimals_verify_clean(doc: tuple[str, int]) -> None:
    text, _ = doc
    report = verify_text(text)
    assert report.exit_code == 0, [(f.line, f.claimed, f.value) for f in report.wrong]
    assert report.summary["ok"] > 0


@settings(max_examples=12, deadline=None)
@given(documents(), st.data())
def test_a_changed_weight_is_found_on_its_line(doc: tuple[str, int], data: st.DataObject) -> None:
    text, line = doc
    lines = text.split("\n")
    numbers = list(re.finditer(r"\d+\.\d+", lines[line - 1]))
    target = data.draw(st.sampled_from(numbers))
    old = target.group()
    new = old[:-1] + str((int(old[-1]) + data.draw(st.integers(2, 8))) % 10)
    lines[line - 1] = lines[line - 1][: target.start()] + new + lines[line - 1][target.end() :]
    report = verify_text("\n".join(lines))
    assert [(f.line, f.column, f.claimed) for f in report.wrong] == [(line, target.start() + 1, new)]
