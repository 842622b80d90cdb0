"""The README's code blocks run as tests, so the README cannot drift from the code.

The fenced blocks are found with markdown-it-py (the parser the verifier uses), not by
hand.  What runs, by the block's language:

- ``pycon``: a doctest (outputs compared), in a scratch directory;
- ``sh``: each line whose command is ``symattn`` (or ``printf … | symattn``, ``cp``) runs
  in that directory and must exit 0, or N when its comment says ``exits N`` or the block
  is marked ``<!-- readme-test: exits N -->``; installs, the test suite and the
  benchmarks (:data:`NOT_RUN`) are not run; any other command fails the test, so a new
  kind of command is a decision (add it to :data:`RUN` or :data:`NOT_RUN`, or mark the
  block ``<!-- readme-test: skip -->``);
- ``toml`` (read with tomllib and as a spec when it is one), ``json``, ``yaml``: must parse;
- ``text``: not code.  Any other language fails the test until it is given a rule.

``<!-- readme-test: file NAME -->`` before a block writes it to NAME in the scratch
directory first (the spec example becomes ``spec.toml`` for the command-line block).
The scratch directory also holds ``notes.md`` (a document whose numbers all hold) and
small copies of ``derivations/``, ``tests/docs/`` and ``tests/corpus/``.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: Commands the test runs (the first word of a line, or of each part of a pipeline).
RUN = {"symattn", ".venv/bin/symattn", "printf", "cp"}
#: Commands the test does not run: installs, the test suite itself, the benchmarks.
NOT_RUN = {"python", "python3", ".venv/bin/python", ".venv/bin/pip", "pip", "npm", "."}
#: Languages of fenced blocks and what the test does with them.
LANGUAGES = {"pycon", "sh", "toml", "json", "yaml", "text"}
#: The small copies of the repository's documents the commands read.
DOCS = ["README.md", "en_rounding_planted.md", "causal_control.md", "zh_reference_planted.md"]
CORPUS = ["en_causal_planted.md", "en_codecogs_control.md"]

_MARK = re.compile(r"<!--\s*readme-test:\s*(skip|file|exits)\b\s*([^>]*?)\s*-->")


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    marks: dict[str, str]


def _blocks() -> list[Block]:
    tokens = MarkdownIt("commonmark").parse(README.read_text(encoding="utf-8"))
    blocks = []
    for i, token in enumerate(tokens):
        if token.type != "fence":
            continue
        marks = {}
        if i and tokens[i - 1].type == "html_block":  # a mark right before the fence
            marks = {m.group(1): m.group(2) for m in _MARK.finditer(tokens[i - 1].content)}
        lang = token.info.split()[0] if token.info.strip() else ""
        blocks.append(Block(token.map[0] + 1, lang, token.content, marks))
    return blocks


BLOCKS = _blocks()


def _ids(blocks: list[Block]) -> list[str]:
    return [f"README.md:{b.line}:{b.lang or 'none'}" for b in blocks]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A directory with the files the README's commands name."""
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "derivations", root / "derivations")
    (root / "tests" / "docs").mkdir(parents=True)
    (root / "tests" / "corpus").mkdir()
    for name in DOCS:
        shutil.copy(ROOT / "tests" / "docs" / name, root / "tests" / "docs" / name)
    for name in CORPUS:
        shutil.copy(ROOT / "tests" / "corpus" / name, root / "tests" / "corpus" / name)
    shutil.copy(ROOT / "derivations" / "reference.en.md", root / "notes.md")
    for block in BLOCKS:
        if "file" in block.marks:
            (root / block.marks["file"]).write_text(block.text, encoding="utf-8")
    return root


def test_every_block_has_a_known_language_or_is_marked():
    unknown = [f"README.md:{b.line}: {b.lang or 'no language'}" for b in BLOCKS if b.lang not in LANGUAGES]
    assert not unknown, "give these blocks a language the test knows (text if not code): " + ", ".join(
        unknown
    )
    assert {"pycon", "sh", "toml"} <= {b.lang for b in BLOCKS}


# --- pycon ----------------------------------------------------------------------------

PYCON = [b for b in BLOCKS if b.lang == "pycon" and "skip" not in b.marks]


@pytest.mark.parametrize("block", PYCON, ids=_ids(PYCON))
def test_pycon_block(block, scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, f"README.md:{block.line}", str(README), block.line)
    assert test.examples, "a pycon block without >>> examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


# --- sh -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    line: int
    text: str  # without the comment
    exit_code: int


def _logical_lines(block: Block) -> list[tuple[int, str]]:
    lines, pending, start = [], "", 0
    for offset, raw in enumerate(block.text.splitlines()):
        if not pending:
            start = block.line + 1 + offset
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        lines.append((start, pending + raw))
        pending = ""
    return [(n, text) for n, text in lines if text.strip()]


def _split_comment(line: str) -> tuple[str, str]:
    """The command and its comment (a ``#`` outside quotes that starts a word)."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :]
    return line.rstrip(), ""


def _commands(block: Block) -> tuple[list[Command], list[str]]:
    default = int(block.marks.get("exits") or 0)
    run, not_run = [], []
    for line, text in _logical_lines(block):
        command, comment = _split_comment(text)
        if not command:
            continue
        words = [shlex.split(part)[0] for part in re.split(r"\s*(?:&&|\|)\s*", command) if part.strip()]
        if words[0] in NOT_RUN:
            not_run.append(command)
            continue
        unknown = [w for w in words if w not in RUN]
        assert not unknown, (
            f"README.md:{line}: {unknown[0]!r} is neither run nor listed as not run by tests/test_readme.py"
        )
        said = re.search(r"\bexits (\d)\b", comment)
        run.append(Command(line, command, int(said.group(1)) if said else default))
    return run, not_run


SH = [b for b in BLOCKS if b.lang == "sh" and "skip" not in b.marks]


@pytest.mark.parametrize("block", SH, ids=_ids(SH))
def test_sh_block(block, scratch):
    commands, _ = _commands(block)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("CI", None)
    for command in commands:
        text = command.text.replace(".venv/bin/symattn", "symattn").replace("/tmp/", f"{scratch}/")
        result = subprocess.run(
            ["bash", "-c", text],
            cwd=scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == command.exit_code, (
            f"README.md:{command.line}: `{command.text}` exited {result.returncode}, not {command.exit_code}\n"
            f"{result.stderr[-2000:]}"
        )


def test_the_commands_that_are_not_run_are_installs_tests_and_benchmarks():
    not_run = [c for b in SH for c in _commands(b)[1]]
    assert any("pip install" in c for c in not_run)
    assert any("pytest" in c for c in not_run)
    assert any("benchmarks/run.py" in c for c in not_run)
    assert sum(len(_commands(b)[0]) for b in SH) >= 10


# --- data blocks ----------------------------------------------------------------------

DATA = [b for b in BLOCKS if b.lang in ("toml", "json", "yaml") and "skip" not in b.marks]


@pytest.mark.parametrize("block", DATA, ids=_ids(DATA))
def test_data_block_parses(block):
    if block.lang == "json":
        json.loads(block.text)
    elif block.lang == "yaml":
        assert yaml.safe_load(block.text) is not None
    else:
        data = tomllib.loads(block.text)
        if "X" in data:  # a spec: it loads and derives
            from symattn.derivation import derive
            from symattn.spec import parse_spec

            assert derive(parse_spec(block.text, f"README.md:{block.line}")).to_markdown()


def test_the_spec_example_has_the_mask_commented_out_and_its_claims_are_the_textbooks(scratch):
    from symattn.derivation import derive

    text = (scratch / "spec.toml").read_text(encoding="utf-8")
    assert '\n# mask = "causal"' in text
    md = derive(scratch / "spec.toml").to_markdown()
    assert "3 of the 9 claimed entries are wrong" in md


def test_the_test_suites_time_is_measured_and_said_in_whole_minutes(request):
    """ "about N minutes on two cores: M min S s measured on DATE": N is M:S rounded, and the
    last whole passing run this checkout made (kept in pytest's cache by conftest.py) took
    within a quarter of M:S on as many CPUs."""
    from conftest import SUITE_SECONDS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(
        r"about (\d+) minutes on two cores: (\d+) min (\d+) s measured on (\d{4}-\d{2}-\d{2})", text
    )
    assert said, "the README says how long the tests take, and when that was measured"
    about, minutes, seconds = int(said[1]), int(said[2]), int(said[3])
    measured = 60 * minutes + seconds
    assert about == round(measured / 60) and 0 <= seconds < 60
    cache = getattr(request.config, "cache", None)
    last = cache.get(SUITE_SECONDS, None) if cache is not None else None
    if last is None or last.get("cpus") != 2:
        pytest.skip("no whole run of the suite on two CPUs is recorded in this checkout's pytest cache")
    assert abs(last["seconds"] - measured) <= measured / 4, (last, measured)
