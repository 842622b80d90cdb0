"""cli.py: main(argv) -> int, read through capsys like a user would."""

import subprocess
import sys

import pytest

from symattn.cli import build_parser, main


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("derive", "compute", "verify", "regen"):
        assert command in out


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    assert "usage: symattn" in capsys.readouterr().out


def test_compute_prints_certified_stages_of_the_reference(capsys):
    assert main(["compute", "--digits", "6"]) == 0
    out = capsys.readouterr().out
    assert "weights:\n  [0.401112, 0.197776, 0.401112]" in out
    assert "  [0.248255, 0.248255, 0.503490]\noutput:" in out
    assert out.rstrip().endswith("[0.751745, 0.751745]")


def test_compute_a_spec_with_heads(tmp_path, capsys):
    spec = tmp_path / "two_heads.toml"
    spec.write_text(
        "X = [[1, 0], [0, 1]]\nW_O = [[1, 0], [0, 1], [1, 0], [0, 1]]\n"
        "[[heads]]\nW_Q = [[1, 0], [0, 1]]\n[[heads]]\nW_Q = [[0, 1], [1, 0]]\n",
        encoding="utf-8",
    )
    assert main(["compute", str(spec), "--digits", "3"]) == 0
    out = capsys.readouterr().out
    assert "head2.weights:" in out and "concat:" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["compute", "missing.toml"], "symattn: error: missing.toml: no such file", id="missing"),
        pytest.param(
            ["verify", "missing.md"], "symattn: error: missing.md: no such file", id="verify-missing"
        ),
    ],
)
def test_errors_are_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == message + "\n"


def test_bad_digits_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["compute", "--digits", "many"])
    assert exit_info.value.code == 2
    assert "expected a whole number of places, got 'many'" in capsys.readouterr().err


def test_python_dash_m_runs_the_cli():
    result = subprocess.run(
        [sys.executable, "-m", "symattn", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("symattn ")
