"""Docs CI: many files, the CI formats, stdin, --strict, pre-commit, MkDocs and the Action.

The documents are the corpus of tests/docs (written for these tests) and
small ones written here; the true values they need (softmax weights of the
reference example) come from mpmath, never from symattn.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import mpmath
import pytest
import yaml

from symattn.cli import main
from symattn.verify.many import find_documents, verify_paths

ROOT = Path(__file__).resolve().parent.parent
DOCS = Path(__file__).parent / "docs"
BIN = Path(sys.executable).parent
SYMATTN = [sys.executable, "-m", "symattn"]
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

WRONG = "$$a = 2$$\n\n$$b = a + 1 = 4$$\n"  # 4 is a slip: 2 + 1 = 3
RIGHT = "$$a = 2$$\n\n$$b = a + 1 = 3$$\n"
PROSE = "# Notes\n\nNo numbers in math here.\n"

# GitHub's documented syntax: ::{command} {parameters}::{message}, parameters key=value joined by ','
_GITHUB = re.compile(
    r"::(error|warning|notice) (?:file|line|col|endColumn|endLine|title)=[^,:\n]*"
    r"(?:,(?:file|line|col|endColumn|endLine|title)=[^,:\n]*)*::[^\n\r]*"
)


def _tree(tmp_path: Path) -> Path:
    """A small docs tree: wrong, right, carried, LaTeX, prose; hidden and node_modules ignored."""
    tree = tmp_path / "site"
    (tree / "sub" / "deeper").mkdir(parents=True)
    (tree / ".hidden").mkdir()
    (tree / "node_modules").mkdir()
    (tree / "wrong.md").write_text(WRONG, encoding="utf-8")
    (tree / "sub" / "right.markdown").write_text(RIGHT, encoding="utf-8")
    shutil.copy(DOCS / "en_carried_planted.md", tree / "sub" / "carried.md")
    shutil.copy(DOCS / "tex_control.tex", tree / "sub" / "deeper" / "control.tex")
    (tree / "sub" / "deeper" / "notes.txt").write_text(PROSE, encoding="utf-8")
    (tree / "sub" / "data.toml").write_text("X = [[1]]\n", encoding="utf-8")
    (tree / ".hidden" / "skip.md").write_text(WRONG, encoding="utf-8")
    (tree / "node_modules" / "skip.md").write_text(WRONG, encoding="utf-8")
    return tree


# --- many files ---------------------------------------------------------------------


def test_directories_are_searched_recursively(tmp_path):
    tree = _tree(tmp_path)
    documents, errors = find_documents([str(tree)])
    assert errors == []
    names = sorted(Path(d).relative_to(tree).as_posix() for d in documents)
    assert names == [
        "sub/carried.md",
        "sub/deeper/control.tex",
        "sub/deeper/notes.txt",
        "sub/right.markdown",
        "wrong.md",
    ]


def test_globs_files_and_duplicates(tmp_path):
    tree = _tree(tmp_path)
    documents, errors = find_documents([f"{tree}/**/*.md", str(tree / "wrong.md"), f"{tree}/*.nothing"])
    assert sorted(Path(d).name for d in documents) == ["carried.md", "wrong.md"]
    assert errors == [f"{tree}/*.nothing: no file matches this pattern"]


def test_combined_exit_codes(tmp_path, capsys):
    tree = _tree(tmp_path)
    assert main(["verify", str(tree / "sub" / "right.markdown"), str(tree / "sub" / "deeper")]) == 0
    assert main(["verify", str(tree)]) == 1
    capsys.readouterr()
    # a missing path among several: one line naming it, exit 2, the others still checked
    assert main(["verify", "--format", "short", str(tree / "wrong.md"), str(tmp_path / "gone.md")]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"symattn: error: {tmp_path / 'gone.md'}: no such file\n"
    assert f"{tree / 'wrong.md'}:3:15: slip: claimed 4, true 3.000" in captured.out


def test_empty_directory_and_unreadable_file_do_not_stop_the_others(tmp_path, capsys):
    empty = tmp_path / "empty"
    (empty / "img").mkdir(parents=True)
    (empty / "img" / "a.png").write_bytes(b"\x89PNG")
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\xff\xfe$$x = 1$$")
    good = tmp_path / "good.md"
    good.write_text(WRONG, encoding="utf-8")
    assert main(["verify", "--format", "json", str(empty), str(binary), str(good)]) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert err[0] == f"symattn: error: {empty}: no documents (.md, .markdown, .tex, .txt) in this directory"
    assert err[1].startswith(f"symattn: error: {binary}: not UTF-8 text")
    assert len(err) == 2
    data = json.loads(captured.out)
    assert [entry["document"] for entry in data["files"]] == [str(empty), str(binary), str(good)]
    assert "error" in data["files"][1] and data["files"][2]["summary"]["wrong"] == 1
    assert data["summary"] == {"files": 3, "unreadable": 2, "claims": 3, "ok": 0, "wrong": 1, "unverified": 2}


def test_pool_gives_the_same_report_as_one_process(tmp_path, capsys):
    tree = _tree(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        assert main(["verify", "--format", "json", "-j", jobs, str(tree)]) == 1
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    data = json.loads(outputs[0])
    assert data["summary"]["files"] == 5 and data["summary"]["wrong"] == 7  # 1 slip + 6 in carried.md
    assert len(data["files"]) == 5


def test_one_file_keeps_the_single_report_json(tmp_path, capsys):
    doc = tmp_path / "one.md"
    doc.write_text(WRONG, encoding="utf-8")
    assert main(["verify", "--format", "json", str(doc)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "symattn.verify/1" and "files" not in data and data["document"] == str(doc)


def _session_processes(session: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":  # fields[3]: the session id
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_no_process_outlives_the_parent(tmp_path):
    tree = tmp_path / "many"
    tree.mkdir()
    for index in range(12):
        shutil.copy(DOCS / "en_carried_planted.md", tree / f"doc{index:02}.md")
    done = subprocess.run(
        [*SYMATTN, "verify", "-j", "2", str(tree)], check=False, capture_output=True, start_new_session=True
    )
    assert done.returncode == 1
    # killed in the middle (SIGKILL: nothing runs in the parent), the pool and the workers go too
    proc = subprocess.Popen(
        [*SYMATTN, "verify", "-j", "2", str(tree)], stdout=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while len(_session_processes(proc.pid)) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 30
    while _session_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _session_processes(proc.pid) == []


# --- stdin and --strict -------------------------------------------------------------------


def _cli(args: list[str], stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SYMATTN, *args],
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        timeout=300,
    )


def test_stdin_is_read_with_a_dash():
    done = subprocess.run(
        ["sh", "-c", f"printf '$$y = 1 + 1 = 3$$' | {BIN / 'symattn'} verify -"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "<stdin>:1:15" in done.stdout
    assert _cli(["verify", "-"], stdin=RIGHT).returncode == 0


def test_nothing_checked_is_said_and_strict_fails(tmp_path):
    done = _cli(["verify", "-"], stdin=PROSE)
    assert done.returncode == 0
    assert done.stderr == "symattn: <stdin>: no number could be checked\n"
    assert _cli(["verify", "--strict", "-"], stdin=PROSE).returncode == 1
    # every printed result checked (a = 2 is an input, 1 an operand): --strict passes
    assert _cli(["verify", "--strict", "-"], stdin=RIGHT).returncode == 0
    # a printed result that stays unverified (broken LaTeX) fails --strict only
    unparsed = RIGHT + "\n$$c = \\frac{1}{2 = 0.5$$\n"
    assert _cli(["verify", "-"], stdin=unparsed).returncode == 0
    assert _cli(["verify", "--strict", "-"], stdin=unparsed).returncode == 1


# --- formats --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ci_tree(tmp_path_factory) -> Path:
    tree = _tree(tmp_path_factory.mktemp("ci"))
    shutil.copy(DOCS / "zh_reference_planted.md", tree / "zh.md")  # Chinese text before the numbers
    return tree


def _verify(tree: Path, fmt: str, capsys) -> str:
    assert main(["verify", "--format", fmt, str(tree)]) == 1
    return capsys.readouterr().out


def test_github_workflow_commands(ci_tree, capsys):
    out = _verify(ci_tree, "github", capsys)
    lines = out.splitlines()
    assert lines and all(_GITHUB.fullmatch(line) for line in lines), lines
    assert (
        f"::error file={ci_tree / 'wrong.md'},line=3,col=15,title=symattn::claimed 4, true 3.000 (slip)"
        in lines
    )
    zh = [line for line in lines if "zh.md" in line]
    assert (
        "::error file="
        + str(ci_tree / "zh.md")
        + ",line=37,col=61,title=symattn::claimed 0.3, true 0.2483 (wrong)"
        in zh
    )
    carried = [line for line in zh if line.startswith("::warning")]
    assert carried and all(line.endswith("(carried from line 37)") for line in carried)


def test_github_escapes_properties_and_data(tmp_path, capsys):
    doc = tmp_path / "a,b:c%.md"
    doc.write_text(WRONG, encoding="utf-8")
    assert main(["verify", "--format", "github", str(doc)]) == 1
    line = capsys.readouterr().out.strip()
    assert f"file={str(tmp_path).replace(':', '%3A')}/a%2Cb%3Ac%25.md," in line
    assert _GITHUB.fullmatch(line)


def test_sarif_validates_against_the_2_1_0_schema(ci_tree, capsys):
    data = json.loads(_verify(ci_tree, "sarif", capsys))
    validator = jsonschema.validators.validator_for(SCHEMA)
    validator.check_schema(SCHEMA)
    validator(SCHEMA).validate(data)
    run = data["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert rules == ["wrong", "rounding", "slip", "carried"]
    results = run["results"]
    assert {r["ruleId"] for r in results} == {"wrong", "slip", "carried"}
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    carried = [r for r in results if r["ruleId"] == "carried"]
    assert all(
        r["level"] == "warning" and r["relatedLocations"][0]["physicalLocation"]["region"] for r in carried
    )
    zh_first = next(
        r
        for r in results
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("zh.md")
    )
    assert zh_first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 37,
        "startColumn": 61,
        "endColumn": 64,
    }
    # the fix carries the corrected number: 1/(2 + e^(1/sqrt 2)) at 0.3's one place (a fix never
    # changes places, even where the row then does not add up to 1)
    true = 1 / (2 + mpmath.e ** (1 / mpmath.sqrt(2)))
    fix = zh_first["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"]
    assert fix == "0.2" and abs(mpmath.mpf(fix) - true) <= 0.05


def test_sarif_names_an_unreadable_file(tmp_path, capsys):
    good = tmp_path / "good.md"
    good.write_text(WRONG, encoding="utf-8")
    assert main(["verify", "--format", "sarif", str(good), str(tmp_path / "gone.md")]) == 2
    data = json.loads(capsys.readouterr().out)
    jsonschema.validators.validator_for(SCHEMA)(SCHEMA).validate(data)
    invocation = data["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert (
        invocation["toolExecutionNotifications"][0]["message"]["text"]
        == f"{tmp_path / 'gone.md'}: no such file"
    )


def test_every_rdjsonl_line_parses(ci_tree, capsys):
    out = _verify(ci_tree, "rdjsonl", capsys)
    entries = [json.loads(line) for line in out.splitlines()]
    assert entries and all(set(e) >= {"message", "location", "severity", "source"} for e in entries)
    for entry in entries:
        path = Path(entry["location"]["path"])
        start, end = entry["location"]["range"]["start"], entry["location"]["range"]["end"]
        line = path.read_text(encoding="utf-8").split("\n")[start["line"] - 1].encode("utf-8")
        claimed = re.search(r"claimed (\S+),", entry["message"])[1]
        assert line[start["column"] - 1 : end["column"] - 1].decode("utf-8") == claimed  # UTF-8 byte columns
        assert entry["severity"] == ("WARNING" if entry["code"]["value"] == "carried" else "ERROR")
        suggestion = entry["suggestions"][0]
        assert suggestion["range"] == entry["location"]["range"]
        assert re.fullmatch(r"-?\d+(\.\d+)?", suggestion["text"])
    slip = next(e for e in entries if e["location"]["path"].endswith("wrong.md"))
    assert slip["suggestions"][0]["text"] == "3"


def test_short_format(ci_tree, capsys):
    out = _verify(ci_tree, "short", capsys)
    lines = out.splitlines()
    pattern = re.compile(
        r"[^:]+:\d+:\d+: (wrong|rounding|slip|carried): claimed \S+, true \S+( \(from line \d+\))?"
    )
    assert all(pattern.fullmatch(line) for line in lines), lines
    assert f"{ci_tree / 'wrong.md'}:3:15: slip: claimed 4, true 3.000" in lines


def test_text_and_markdown_end_with_the_combined_summary(ci_tree, capsys):
    text = _verify(ci_tree, "text", capsys)
    assert text.rstrip().splitlines()[-1].startswith("6 files (0 unreadable): ")
    md = _verify(ci_tree, "md", capsys)
    assert md.rstrip().splitlines()[-1].startswith("**6 files (0 unreadable): ")


# --- the GitHub Action -----------------------------------------------------------------------


def test_action_runs_verify_with_github_annotations(ci_tree):
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    step = next(s for s in action["runs"]["steps"] if s.get("name") == "symattn verify")
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "SYMATTN_PATHS": f"{ci_tree / 'wrong.md'} {ci_tree}/sub/*.markdown",
        "SYMATTN_ARGS": "-j 2",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]], env=env, check=False, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        f"::error file={ci_tree / 'wrong.md'},line=3,col=15,title=symattn::claimed 4, true 3.000 (slip)"
    ]
    env["SYMATTN_PATHS"] = f"{ci_tree}/sub/*.markdown"
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]], env=env, check=False, capture_output=True, text=True, timeout=300
    )
    assert (done.returncode, done.stdout) == (0, "")


# --- pre-commit --------------------------------------------------------------------------


def test_pre_commit_hook_definition():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "symattn-verify")
    assert hook["entry"] == "symattn verify --quiet" and set(hook["types_or"]) == {"markdown", "tex"}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_pre_commit_try_repo(tmp_path):
    """The real ``pre-commit try-repo`` (it installs symattn in its own environment)."""
    repo = tmp_path / "notes"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "test@example.com")
    _git(repo, "config", "user.name", "test")
    (repo / "post.md").write_text(WRONG, encoding="utf-8")
    (repo / "ok.md").write_text(RIGHT, encoding="utf-8")
    _git(repo, "add", "post.md", "ok.md")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(Path(os.environ.get("SYMATTN_PRE_COMMIT_HOME", tmp_path / "pc"))),
    }
    env["PATH"] = f"{BIN}{os.pathsep}{env['PATH']}"

    def try_repo(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(BIN / "pre-commit"), "try-repo", str(ROOT), "symattn-verify", "--files", *files],
            cwd=repo,
            env=env,
            check=False,
            capture_output=True,
            text=True,
            timeout=900,
        )

    failed = try_repo("post.md", "ok.md")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "post.md:3:15" in failed.stdout and "Failed" in failed.stdout
    assert "ok.md" not in failed.stdout  # --quiet: a clean file prints nothing
    passed = try_repo("ok.md")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


# --- MkDocs --------------------------------------------------------------------------


def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "mkdocs.yml").write_text("site_name: notes\nplugins:\n  - symattn\n", encoding="utf-8")
    (site / "docs" / "index.md").write_text("# Home\n\nProse only.\n", encoding="utf-8")
    page = site / "docs" / "post.md"
    page.write_text("---\ntitle: Post\n---\n\n" + WRONG, encoding="utf-8")
    command = [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(tmp_path / "out")]
    failed = subprocess.run(command, cwd=site, check=False, capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1
    warnings = [line for line in failed.stderr.splitlines() if line.startswith("WARNING")]
    assert warnings == [
        "WARNING -  symattn: post.md:7:15: claimed 4, true 3.000 (slip)"
    ]  # front matter counted
    page.write_text("---\ntitle: Post\n---\n\n" + RIGHT, encoding="utf-8")
    passed = subprocess.run(command, cwd=site, check=False, capture_output=True, text=True, timeout=300)
    assert passed.returncode == 0, passed.stderr
    ignored = WRONG.replace("$$b =", "<!-- symattn: ignore -->\n$$b =")  # a mistake quoted on purpose
    page.write_text("---\ntitle: Post\n---\n\n" + ignored, encoding="utf-8")
    passed = subprocess.run(command, cwd=site, check=False, capture_output=True, text=True, timeout=300)
    assert passed.returncode == 0, passed.stderr
    page.write_text("---\ntitle: Post\n---\n\n" + WRONG, encoding="utf-8")  # the mistake, not marked
    (site / "mkdocs.yml").write_text(
        "site_name: notes\nplugins:\n  - symattn:\n      exclude: ['post.md']\n", encoding="utf-8"
    )
    passed = subprocess.run(command, cwd=site, check=False, capture_output=True, text=True, timeout=300)
    assert passed.returncode == 0, passed.stderr  # the plugin's exclude
    (site / "mkdocs.yml").write_text("site_name: notes\nplugins:\n  - symattn\n", encoding="utf-8")
    (site / "pyproject.toml").write_text('[tool.symattn]\nexclude = ["docs/post.md"]\n', encoding="utf-8")
    passed = subprocess.run(command, cwd=site, check=False, capture_output=True, text=True, timeout=300)
    assert passed.returncode == 0, passed.stderr  # the project's settings


def test_mkdocs_plugin_is_registered():
    from importlib.metadata import entry_points

    (entry,) = [e for e in entry_points(group="mkdocs.plugins") if e.name == "symattn"]
    assert entry.value == "symattn.mkdocs_plugin:SymattnPlugin"
    assert entry.load().__name__ == "SymattnPlugin"


def test_verify_paths_api(tmp_path):
    tree = _tree(tmp_path)
    documents, _ = find_documents([str(tree)])
    results = verify_paths(documents, jobs=2)
    assert [r.path for r in results] == documents
    assert [r.report.exit_code for r in results if r.report] == [
        1,
        1,
        0,
        0,
        0,
    ]  # the top folder first, then sub/


def _pool_probe(_: int) -> tuple[str | None, bool]:
    import multiprocessing

    from symattn.verify.document import VerifyOptions, safe_mode_reason

    return safe_mode_reason(VerifyOptions()), multiprocessing.current_process().daemon


def test_pool_workers_keep_the_per_formula_worker():
    """In a pool worker each document still gets its forked worker (and so its timeout)."""
    import concurrent.futures
    import multiprocessing

    from symattn.verify import many

    with concurrent.futures.ProcessPoolExecutor(
        2, mp_context=multiprocessing.get_context("spawn"), initializer=many._start_pool_worker
    ) as pool:
        assert list(pool.map(_pool_probe, [1, 2])) == [(None, False), (None, False)]


def _verify_in_daemon(paths: list[str]) -> list[int | None]:
    return [r.report.exit_code if r.report else None for r in verify_paths(paths, jobs=2)]


def test_verify_paths_inside_a_daemonic_pool_worker(tmp_path):
    import multiprocessing

    wrong, right = tmp_path / "wrong.md", tmp_path / "right.md"
    wrong.write_text(WRONG, encoding="utf-8")
    right.write_text(RIGHT, encoding="utf-8")
    with multiprocessing.get_context("spawn").Pool(1) as pool:  # its workers are daemonic
        assert pool.apply(_verify_in_daemon, ([str(wrong), str(right)],)) == [1, 0]


def test_mkdocs_marks_the_wrong_numbers_in_a_preview_build(tmp_path):
    """``marks: true``: each wrong number is marked in the built page, in prose as a <mark>
    with the finding as its title, in math coloured (MathJax and KaTeX read \\color); numbers
    that hold and numbers in code are left as written."""
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "mkdocs.yml").write_text(
        "site_name: notes\nplugins:\n  - symattn:\n      marks: true\n", encoding="utf-8"
    )
    page = "---\ntitle: Post\n---\n\n" + WRONG + "\nIn words: 2 + 1 = 5, and `2 + 1 = 5` in code.\n"
    (site / "docs" / "index.md").write_text(page, encoding="utf-8")
    command = [str(BIN / "mkdocs"), "build", "--site-dir", str(tmp_path / "out")]
    built = subprocess.run(command, cwd=site, check=False, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "{\\color{#d00000}4}" in html  # 2 + 1 = 4 in math: a slip
    assert re.search(r'<mark class="symattn-wrong" title="claimed 5, true 3[^"]*">5</mark>', html)
    assert "<code>2 + 1 = 5</code>" in html  # code is left alone
    assert "a + 1 = " in html and "{\\color{#d00000}2}" not in html  # the numbers that hold are not marked
