"""Small CLI manners: --standalone only with tex, -o errors name the target, the zh title."""

import os

import pytest

from symattn.cli import main


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_standalone_needs_tex(fmt, tmp_path, capsys):
    out = tmp_path / "d.out"
    assert main(["derive", "--format", fmt, "--standalone", "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"symattn: error: --standalone needs --format tex (a {fmt} derivation is always a whole document)\n"
    )
    assert not out.exists()


def test_standalone_with_tex_is_a_document(capsys):
    assert main(["derive", "--format", "tex", "--standalone"]) == 0
    assert capsys.readouterr().out.startswith("\\documentclass{article}")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_an_unwritable_target_is_named_not_the_temporary_file(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main(["derive", "-o", str(locked / "x.md")]) == 2
    finally:
        locked.chmod(0o700)
    err = capsys.readouterr().err
    assert err == f"symattn: error: {locked / 'x.md'}: cannot write (Permission denied)\n"


def test_a_target_in_proc_is_named_not_the_temporary_file(capsys):
    assert main(["derive", "-o", "/proc/x.md"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symattn: error: /proc/x.md: cannot write (")
    assert ".tmp" not in err and err.count("\n") == 1


def test_the_built_in_example_is_titled_in_chinese(capsys):
    assert main(["derive", "--lang", "zh"]) == 0
    assert capsys.readouterr().out.startswith("# 三个词元上的自注意力（教科书示例）\n")
    assert main(["derive"]) == 0
    assert capsys.readouterr().out.startswith("# Self-attention on three tokens (the textbook example)\n")


@pytest.mark.parametrize(
    ("spec_text", "message"),
    [
        pytest.param(
            "X = [[1, 0], [0, 1]]\nW_Q = [[1, 0]]\n",
            "W_Q has 1 row but X has 2 columns (X is 2×2, W_Q is 1×2)",
            id="one-row",
        ),
        pytest.param(
            "X = [[1], [2]]\nW_Q = [[1, 0], [0, 1]]\n",
            "W_Q has 2 rows but X has 1 column (X is 2×1, W_Q is 2×2)",
            id="one-column",
        ),
        pytest.param(
            'X = [[1, 0], [0, 1]]\nlabels = ["a"]\n',
            "labels has 1 entry but there are 2 tokens",
            id="one-label",
        ),
    ],
)
def test_counts_of_one_are_singular(spec_text, message, tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(spec_text, encoding="utf-8")
    assert main(["derive", str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f": {message}\n") and err.count("\n") == 1


def test_one_token_is_singular_in_the_derivation(capsys):
    from symattn.derivation import derive
    from symattn.pipeline import attention

    md = derive(attention([[1, 2]])).to_markdown()
    assert "The input $X$ has 1 token (one row), a vector of dimension 2:" in md
