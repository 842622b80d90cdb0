"""Project settings for verify and fix (symattn/settings.py): [tool.symattn] in pyproject.toml
or .symattn.toml, found from the working directory up; the command line wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.cli import main
from symattn.settings import Settings, find_settings

WRONG = "$$b = 2 + 1 = 4$$\n"  # 2 + 1 = 3


def _project(tmp_path: Path, settings: str, name: str = "pyproject.toml") -> Path:
    (tmp_path / name).write_text(settings, encoding="utf-8")
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "mistake.md").write_text(WRONG, encoding="utf-8")
    (tmp_path / "post.md").write_text("$$b = 2 + 1 = 3$$\n", encoding="utf-8")
    return tmp_path


def test_no_settings_file_gives_the_defaults(tmp_path: Path) -> None:
    assert find_settings(tmp_path) == Settings(root=find_settings(tmp_path).root)
    assert find_settings(tmp_path).exclude == () and find_settings(tmp_path).lang is None


def test_a_pyproject_exclude_leaves_a_file_out_even_when_it_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, '[project]\nname = "notes"\n\n[tool.symattn]\nexclude = ["drafts/**"]\n')
    monkeypatch.chdir(project)
    assert main(["verify", "."]) == 0
    assert main(["verify", "drafts/mistake.md", "post.md"]) == 0  # as pre-commit names them
    assert main(["fix", "drafts/mistake.md"]) == 0
    (project / "pyproject.toml").write_text('[project]\nname = "notes"\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", "."]) == 1  # without the setting, the mistake is found


def test_symattn_toml_sets_lang_strict_and_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, 'lang = "zh"\nread = "code"\nstrict = true\n', name=".symattn.toml")
    monkeypatch.chdir(project / "drafts")  # found from a subdirectory
    assert main(["verify", "mistake.md"]) == 1  # strict: nothing was read by the code reader
    assert "no number could be checked" in capsys.readouterr().err
    assert main(["verify", "--read", "latex", "mistake.md"]) == 1  # the command line wins: the slip
    assert "错误" in capsys.readouterr().out  # the report in Chinese


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ('[tool.symattn]\nexclude = "drafts"\n', "exclude must be a list of glob strings"),
        ('[tool.symattn]\nlang = "fr"\n', "lang must be 'en' or 'zh'"),
        ("[tool.symattn]\ntimeout = -1\n", "timeout must be a positive number of seconds"),
        ('[tool.symattn]\ncolour = "red"\n', "unknown setting 'colour'"),
        ("[tool.symattn\n", "not TOML"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_file_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    settings: str,
    message: str,
) -> None:
    project = _project(tmp_path, settings)
    monkeypatch.chdir(project)
    assert main(["verify", "post.md"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pyproject.toml" in err and message in err and "Traceback" not in err
