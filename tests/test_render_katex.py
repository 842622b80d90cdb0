"""Every formula of every generated Markdown file is accepted by KaTeX.

Runs tests/katex_check.mjs with node over derivations/*.md and tests/golden/*.md.
Setup: ``npm ci --prefix tests`` (tests/package.json pins katex).  Locally the
test skips when node or the katex package is absent; under CI (the CI
environment variable set) it fails instead.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SCRIPT = TESTS / "katex_check.mjs"
FILES = sorted((ROOT / "derivations").glob("*.??.md")) + sorted((TESTS / "golden").glob("*.md"))


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason)  # CI must check every formula, never skip
    pytest.skip(reason)


def run_katex(paths: list[Path]) -> tuple[int, dict]:
    if shutil.which("node") is None:
        _missing("node is not installed here (CI installs node 20)")
    if not (TESTS / "node_modules" / "katex").is_dir():
        _missing("katex is not installed: run `npm ci --prefix tests`")
    result = subprocess.run(
        ["node", str(SCRIPT), *map(str, paths)], capture_output=True, text=True, timeout=300, check=False
    )
    return result.returncode, json.loads(result.stdout)


def test_every_generated_formula_renders():
    assert len(FILES) >= 10
    code, report = run_katex(FILES)
    assert report["errors"] == []
    assert code == 0
    assert report["formulas"] > 1000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("inline $\\frac{1$ here\n", "Unexpected end of input", id="unbalanced-brace"),
        pytest.param("$$\n\\begin{bmatrix} 1 \\end{pmatrix}\n$$\n", "Mismatch", id="mismatched-environment"),
        pytest.param("$$\n\\undefinedmacro\n$$\n", "Undefined control sequence", id="unknown-macro"),
        pytest.param("$$\nx = 1\n", "unclosed $$ block", id="unclosed-display"),
    ],
)
def test_the_checker_catches_bad_formulas(tmp_path, text, message):
    bad = tmp_path / "bad.md"
    bad.write_text(text, encoding="utf-8")
    code, report = run_katex([bad])
    assert code == 1
    assert len(report["errors"]) == 1
    assert message in report["errors"][0]["message"]


def test_escaped_dollars_are_text(tmp_path):
    doc = tmp_path / "ok.md"
    doc.write_text("costs \\$5 and $x_1$\n", encoding="utf-8")
    code, report = run_katex([doc])
    assert (code, report) == (0, {"formulas": 1, "errors": []})


def test_wide_attention_renders(tmp_path, wide_x):
    from symattn.derivation import derive
    from symattn.pipeline import attention

    X = wide_x
    doc = tmp_path / "wide.md"
    doc.write_text(derive(attention(X, mask="causal"), lang="zh").to_markdown(), encoding="utf-8")
    code, report = run_katex([doc])
    assert report["errors"] == []
    assert code == 0


def test_chinese_labels_render(tmp_path):
    from symattn.derivation import derive
    from symattn.pipeline import attention

    att = attention([[1, 0], [0, 1], [1, 1]], labels=["我", "爱", "猫_1"])
    doc = tmp_path / "zh.md"
    doc.write_text(derive(att, lang="zh").to_markdown(), encoding="utf-8")
    code, report = run_katex([doc])
    assert report["errors"] == []
    assert code == 0
