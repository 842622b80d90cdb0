"""Every input stays bounded: the reading limits, checked by counting, never by timing.

The documents are those of benchmarks/adversarial.py (which measures their time and
memory); here the tests check what bounds them: that a document over a limit never
reaches markdown-it (nor the LaTeX reader) and gets one ``skipped`` finding naming the
limit, that a document under every limit hands markdown-it a text within them, and
that the table readers visit at most ``MAX_TABLE_ROWS`` rows.  Also: ``verify -o FILE``
writes FILE only after success.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from symattn import cli, limits
from symattn.verify import VerifyOptions, readers, verify_text
from symattn.verify.readers import ReadingLimit, bounds, find_math, markdown, tex

OPTIONS = VerifyOptions(use_worker=False)


def _generators():
    """The benchmark's document makers (benchmarks/adversarial.py), so the test reads the very
    documents the benchmark times."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "adversarial.py"
    spec = importlib.util.spec_from_file_location("symattn_adversarial_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module._table, module._formulas, module._lines


_table, _formulas, _lines = _generators()


# (document, LaTeX?, the limit its one finding names): the documents of the issue and a few more
OVER = [
    pytest.param("[" * 1_000_000 + "\n", False, "MAX_LINK_BRACKETS", id="brackets"),
    pytest.param(_table(50_000), False, "MAX_TABLE_ROWS", id="table-50k-rows"),
    pytest.param(_formulas(60_000), False, "MAX_FORMULAS", id="formulas-60k"),
    pytest.param("1" * 1_000_000 + "\n", False, "MAX_LINE_CHARS", id="digits"),
    pytest.param("." * 1_000_000 + "\n", False, "MAX_LINE_CHARS", id="dots"),
    pytest.param("|" * 1_000_000 + "\n", False, "MAX_LINE_CHARS", id="pipes"),
    pytest.param("`" * 1_000_000 + "\n", False, "MAX_BACKTICKS", id="backticks"),
    pytest.param(
        "$$A = \\begin{bmatrix}\n" + " \\\\\n".join(" & ".join(["0.1234"] * 100) for _ in range(4_400)) + "\n\\end{bmatrix}$$\n",
        False, "MAX_MARKUP_CHARACTERS", id="formula-3.9MB",
    ),
    pytest.param("1\n" * 500_000, False, "MAX_READ_LINES", id="lines"),
    pytest.param("![" * 500_000, False, "MAX_LINK_BRACKETS", id="image-brackets"),
    pytest.param(_lines("$1$ ", 3_900_000), False, "MAX_MARKUP_CHARACTERS", id="inline-math"),
    pytest.param("| a |\n" + "|" * 1_001 + "\n", False, "MAX_LINE_PIPES", id="wide-row"),
    pytest.param(_table(4_990, 10), False, "MAX_TABLE_CELLS", id="table-cells"),
    pytest.param("\\begin{document}\n" + "1\n" * 500_000, True, "MAX_READ_LINES", id="tex-lines"),
    pytest.param("\\begin{document}\n" + _lines("$x$ ", 3_900_000), True, "MAX_MARKUP_CHARACTERS", id="tex-inline-math"),
    pytest.param("\\begin{document}\n" + _formulas(20_001), True, "MAX_FORMULAS", id="tex-formulas"),
]  # fmt: skip

# just under every limit: read in full
UNDER = [
    pytest.param("1\n" * (limits.MAX_READ_LINES - 2), False, id="lines"),
    pytest.param(_table(4_990), False, id="table"),
    pytest.param("![" * (limits.MAX_LINK_BRACKETS - 1), False, id="image-brackets"),
    pytest.param("` " * (limits.MAX_BACKTICKS - 1), False, id="backticks"),
    pytest.param(_lines("1=1 ", 4 * (limits.MAX_MARKUP_CHARACTERS // 4 - 1)), False, id="equals"),
    pytest.param(" ".join(["$x$"] * 100_000), False, id="inline-math-one-line"),
    pytest.param(_formulas(limits.MAX_FORMULAS - 1), False, id="formulas"),
]


class _Spy:
    """Records the text markdown-it-py is asked to parse (and parses it)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.sources: list[str] = []

    def parse(self, source: str, env: Any = None) -> Any:
        self.sources.append(source)
        return self.real.parse(source, env)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> _Spy:
    made = _Spy(markdown._markdown())
    monkeypatch.setattr(markdown, "_markdown", lambda: made)
    return made


@pytest.mark.parametrize(("document", "is_tex", "limit"), OVER)
def test_a_document_over_a_limit_is_one_finding_naming_it(spy, monkeypatch, document, is_tex, limit):
    tex_read: list[str] = []
    monkeypatch.setattr(tex, "tex_spans", lambda source: tex_read.append(source) or [])
    report = verify_text(document, tex=is_tex, options=OPTIONS)
    assert spy.sources == [] and tex_read == []  # no library, no reader saw the text
    [finding] = report.findings
    assert (finding.status, finding.kind) == ("unverified", "skipped")
    assert finding.reason.startswith("not read: ")
    assert finding.reason.endswith(f"(symattn.limits.{limit})")
    assert report.exit_code == 0  # a large document is not bad input
    with pytest.raises(ReadingLimit):  # every caller of the readers is bounded too
        find_math(document, tex=is_tex)


def test_the_finding_is_where_the_limit_is_passed():
    report = verify_text("Intro.\n\n" + "[" * (limits.MAX_LINK_BRACKETS + 5), options=OPTIONS)
    [finding] = report.findings
    assert (finding.line, finding.column) == (3, limits.MAX_LINK_BRACKETS + 1)
    report = verify_text("x\n" * (limits.MAX_READ_LINES + 3), options=OPTIONS)
    assert (report.findings[0].line, report.findings[0].column) == (limits.MAX_READ_LINES + 1, 1)
    zh = report.to_text(lang="zh")
    assert f"未读取：文档超过 {limits.MAX_READ_LINES} 行（symattn.limits.MAX_READ_LINES）" in zh


def _counts(source: str) -> dict[str, int]:
    lines = source.split("\n")
    return {
        "lines": len(lines),
        "longest line": max(len(line) for line in lines),
        "[": source.count("["),
        "`": source.count("`"),
        "|": source.count("|"),
        "table rows": sum("|" in line for line in lines),
        "pipes on a line": max(line.count("|") for line in lines),
        "markup": sum(source.count(char) for char in bounds.MARKUP),
        "formulas with numbers": sum(1 for _ in bounds._NUMBERED_FORMULA.finditer(source)),
    }


_BOUNDS = {
    "lines": limits.MAX_READ_LINES,
    "longest line": limits.MAX_LINE_CHARS,
    "[": limits.MAX_LINK_BRACKETS,
    "`": limits.MAX_BACKTICKS,
    "|": limits.MAX_TABLE_CELLS,
    "table rows": limits.MAX_TABLE_ROWS,
    "pipes on a line": limits.MAX_LINE_PIPES,
    "markup": limits.MAX_MARKUP_CHARACTERS,
    "formulas with numbers": limits.MAX_FORMULAS,
}


@pytest.mark.parametrize("document", [p.values[0] for p in UNDER], ids=[p.id for p in UNDER])
def test_markdown_it_gets_only_text_within_the_limits(spy, document):
    find_math(document, tex=False)
    [source] = spy.sources
    counts = _counts(source)
    assert all(counts[name] <= bound for name, bound in _BOUNDS.items()), counts


def test_the_document_reaches_markdown_it_only_under_the_limit(spy):
    at = "[" * limits.MAX_LINK_BRACKETS
    find_math(at, tex=False)
    assert len(spy.sources) == 1
    with pytest.raises(ReadingLimit, match="MAX_LINK_BRACKETS"):
        find_math(at + "[", tex=False)
    assert len(spy.sources) == 1


def test_the_check_reads_each_line_once(monkeypatch):
    """The check's one Python loop takes a step per line, for at most MAX_READ_LINES lines."""
    steps = []

    class CountingStr(str):
        def find(self, sub: Any, *args: Any) -> int:  # type: ignore[override]
            if sub == "\n":
                steps.append(1)
            return str.find(self, sub, *args)

    bounds.check(CountingStr("a b\n" * 1_000), tex=False)
    assert len(steps) == 1_001
    steps.clear()
    with pytest.raises(ReadingLimit):
        bounds.check(CountingStr("a\n" * (3 * limits.MAX_READ_LINES)), tex=False)
    assert len(steps) <= limits.MAX_READ_LINES + 1


def test_the_table_readers_visit_at_most_max_table_rows(monkeypatch):
    seen: list[int] = []
    real = markdown.table_span

    def counting(rows: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(len(rows))
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(markdown, "table_span", counting)
    monkeypatch.setattr(limits, "MAX_TABLE_ROWS", 10)
    monkeypatch.setattr(readers, "check", lambda source, tex: None)  # the reader's own bound alone
    find_math(_table(50), tex=False)
    html = "<table>\n" + "".join(f"<tr><td>{k}</td><td>0.5</td></tr>\n" for k in range(50)) + "</table>\n"
    find_math("Attention weights:\n\n" + html, tex=False)
    assert len(seen) == 2 and max(seen) <= 10


def test_a_wide_rule_of_dashes_is_not_read_as_a_table():
    from symattn.verify.readers.tables import aligned_tables

    width = limits.MAX_ALIGNED_COLUMNS
    narrow = "x    " * width + "\n" + "---  " * width + "\n" + "1    " * width + "\n"
    wide = "x    " * (width + 1) + "\n" + "---  " * (width + 1) + "\n" + "1    " * (width + 1) + "\n"
    assert len(aligned_tables(narrow)) == 1
    assert aligned_tables(wide) == []


def test_a_docs_tree_goes_on_past_a_refused_document(tmp_path, capsys):
    (tmp_path / "big.md").write_text("[" * 1_000_000, encoding="utf-8")
    (tmp_path / "slip.md").write_text("$$y = 1 + 1 = 3$$\n", encoding="utf-8")
    assert cli.main(["verify", "--format", "json", "-j", "1", str(tmp_path)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["files"] == 2 and data["summary"]["unreadable"] == 0
    big, slip = data["files"]
    assert [f["kind"] for f in big["findings"]] == ["skipped"]
    assert "MAX_LINK_BRACKETS" in big["findings"][0]["reason"]
    assert any(f["status"] == "wrong" for f in slip["findings"])


# --- verify -o FILE: written only after success --------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_verify_of_a_missing_file_leaves_no_output(tmp_path, capsys, monkeypatch, fmt):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["verify", "nope.md", "--format", fmt, "-o", "out.json"]) == 2
    assert not (tmp_path / "out.json").exists()
    assert capsys.readouterr().err == "symattn: error: nope.md: no such file\n"


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe not text", b"a\x00b", b"$$x = 1$$\n" * 500_001],
    ids=["not-utf8", "nul", "too-large"],
)
def test_verify_of_an_unreadable_file_leaves_no_output(tmp_path, capsys, content):
    doc, out = tmp_path / "bad.md", tmp_path / "out.json"
    doc.write_bytes(content)
    assert cli.main(["verify", str(doc), "-o", str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"symattn: error: {doc}: ")


def test_verify_of_a_docs_tree_with_an_unreadable_file_leaves_no_output(tmp_path, capsys):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("$$y = 1 + 1 = 2$$\n", encoding="utf-8")
    (docs / "b.md").write_bytes(b"\xff\xfe")
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")  # an earlier report stays as it was
    assert cli.main(["verify", "-j", "1", "--format", "json", str(docs), "-o", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == "old"
    assert cli.main(["verify", "-j", "1", str(docs), "-o", str(tmp_path / "new.md")]) == 2
    assert not (tmp_path / "new.md").exists()


def test_verify_writes_the_output_after_success(tmp_path):
    doc, out = tmp_path / "a.md", tmp_path / "out.json"
    doc.write_text("$$y = 1 + 1 = 3$$\n", encoding="utf-8")
    assert cli.main(["verify", str(doc), "--format", "json", "-o", str(out)]) == 1  # findings: still success
    assert json.loads(out.read_text(encoding="utf-8"))["document"] == str(doc)


def test_one_path_gives_the_one_file_layout_and_says_1_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["verify", "nope.md", "--format", "json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data == {"schema": "symattn.verify/1", "document": "nope.md", "error": "nope.md: no such file"}
    assert cli.main(["verify", "nope.md"]) == 2
    out = capsys.readouterr().out
    assert out == "symattn verify: nope.md\n\nerror: nope.md: no such file\n"
    assert "1 files" not in out
    Path("a.md").write_text("$$y = 1 + 1 = 2$$\n", encoding="utf-8")
    from symattn.verify.formats import _totals
    from symattn.verify.many import FileResult

    assert _totals([FileResult("nope.md", error="nope.md: no such file")], "en").startswith(
        "1 file (1 unreadable): "
    )
    assert cli.main(["verify", "-j", "1", "a.md", "nope.md"]) == 2
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("2 files (1 unreadable): ")
