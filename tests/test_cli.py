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


def test_no_command_prints_usage_and_exits_2(capsys):
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "usage: symattn [-h] [--version] COMMAND ...\n"
        "symattn: error: a command is required (see symattn --help)\n"
    )


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


@pytest.mark.parametrize(
    ("spec_text", "message"),
    [
        pytest.param('X = [["1e10000", 1]]\n', "'1e10000' has too large an exponent", id="huge-exponent"),
        pytest.param(f'X = [["{"9" * 5000}", 1]]\n', "a number with more than 900 digits", id="long-literal"),
        pytest.param('X = [["10^4000", 1]]\n', "10^4000 is too large to build exactly", id="big-power"),
        pytest.param('X = [["exp(2^64)", 1]]\n', "the value is too large to print", id="exp-huge"),
        pytest.param(f'X = [["{"(" * 1000}1{")" * 1000}", 1]]\n', "is nested too deeply", id="deep-nesting"),
        pytest.param(
            'X = [[1, 0], [0, 1]]\n[claims]\nweights = [["abc", 1], [1, 1]]\n',
            ":3: claims.weights[1,1]: 'abc' is not a printed decimal number",
            id="claim-text",
        ),
        pytest.param(
            "X = [[1, 0], [0, 1]]\n\n[claims]\nweights = [[0.5]]\n",
            ":4: claims.weights is 1×1 but the true weights matrix is 2×2",
            id="claim-shape",
        ),
    ],
)
def test_monsters_and_bad_claims_are_one_line_errors(tmp_path, capsys, spec_text, message):
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text, encoding="utf-8")
    out = tmp_path / "out.md"
    assert main(["derive", str(spec), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("symattn: error: ") and err.count("\n") == 1
    assert message in err
    assert not out.exists()


def test_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["derive", "--digits", "-1"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (
        "symattn: error: argument --digits: places must be between 0 and 1000, got -1 "
        "(see symattn derive --help)\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["derive", "{dir}"], "{dir}: is a directory, not a spec file", id="spec-dir"),
        pytest.param(
            ["verify", "{dir}"],
            "{dir}: no documents (.md, .markdown, .tex, .txt) in this directory",
            id="doc-dir",
        ),
        pytest.param(["derive", "-o", "{dir}"], "{dir}: is a directory; name a file to write", id="out-dir"),
        pytest.param(["regen", "{dir}"], "{dir}: no *.toml specs to regenerate", id="regen-empty"),
    ],
)
def test_directories_where_files_belong(tmp_path, capsys, argv, message):
    argv = [arg.format(dir=tmp_path) for arg in argv]
    assert main(argv) == 2
    assert capsys.readouterr().err == f"symattn: error: {message.format(dir=tmp_path)}\n"


def test_compute_prints_closed_forms_for_symbolic_specs(tmp_path, capsys):
    spec = tmp_path / "sym.toml"
    spec.write_text('X = [["a", "b"], ["c", "d"]]\n', encoding="utf-8")
    assert main(["compute", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "Q (exact; symbolic entries have no decimals):\n  [a, b]\n  [c, d]" in out
    assert "weights (exact; symbolic entries have no decimals):" in out
