"""Reading a document is linear in its size (issue 10, item 1), checked by counting work.

No test here times anything.  Work is counted three ways while
:func:`symattn.verify.readers.find_math` reads a document of N and of 4N
repeats of one reproduction:

* ``lines``: Python line events in the readers (symattn/verify/readers/), by
  :func:`sys.settrace`; it sees Python loops such as a bracket matcher that
  runs to the end of the text;
* ``library``: Python line events in markdown-it-py and its plugins (the
  tokens the Markdown reader walks);
* ``scanned``: characters scanned by C code the line count cannot see:
  ``str.find`` on the Markdown cursor's source and on the blanked LaTeX
  source, and the LaTeX reader's module-level regular expressions (from the
  position a search starts at to where it matched, or to the end).

A reader doing linear work does about 4 times the work on 4 times the input;
a quadratic one does about 16 times.  The bound is 5 times.

Not counted: ``str.find`` on strings a reader makes for itself (such as the
closer search inside ``tex._blank_code``), and slicing.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markdown_it
import mdit_py_plugins
import pytest

from symattn.verify import VerifyOptions, verify_text
from symattn.verify.readers import find_math, markdown, tex

#: Work on 4N repeats may be at most this many times the work on N.
RATIO = 5.0

_READERS = str(Path(markdown.__file__).resolve().parent)
_LIBRARIES = tuple(str(Path(m.__file__).resolve().parent) for m in (markdown_it, mdit_py_plugins))


@dataclass
class Work:
    lines: int = 0
    library: int = 0
    scanned: int = 0

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.lines, self.library, self.scanned)


class _CountingStr(str):
    """A str whose ``find`` adds the characters it scans to ``work.scanned``."""

    work: Work

    def find(self, sub: Any, start: Any = None, end: Any = None) -> int:  # type: ignore[override]
        found = str.find(self, sub, start, end)
        lo, hi, _ = slice(start, end).indices(len(self))
        self.work.scanned += max(0, (found + len(sub) if found >= 0 else hi) - lo)
        return found


def _counting(text: str, work: Work) -> _CountingStr:
    counted = _CountingStr(text)
    counted.work = work
    return counted


class _CountingPattern:
    """A compiled pattern that adds the characters each search scans to ``work.scanned``."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self.pattern = pattern
        self.work = work

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        match = self.pattern.search(string, pos, endpos)
        self.work.scanned += max(0, (match.end() if match else min(len(string), endpos)) - pos)
        return match

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        match = self.pattern.match(string, pos, endpos)
        self.work.scanned += max(1, (match.end() - pos) if match else 1)
        return match

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self.work.scanned += max(0, min(len(string), endpos) - pos)
        return self.pattern.finditer(string, pos, endpos)

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        self.work.scanned += len(string)
        return self.pattern.sub(repl, string, count)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)


def _instrument(monkeypatch: pytest.MonkeyPatch, work: Work) -> None:
    class CountingCursor(markdown._Cursor):
        def __init__(self, source: str) -> None:
            super().__init__(_counting(source, work))

    monkeypatch.setattr(markdown, "_Cursor", CountingCursor)
    for name in ("_OPENER", "_CODE_OPENER", "_COMMENT", "_NEWCOMMAND", "_CALL"):
        monkeypatch.setattr(tex, name, _CountingPattern(getattr(tex, name), work))
    blank_code = tex._blank_code
    monkeypatch.setattr(tex, "_blank_code", lambda source: _counting(blank_code(source), work))


def _work(monkeypatch: pytest.MonkeyPatch, source: str, *, tex_source: bool) -> tuple[Work, int]:
    """The work of reading ``source``, and how many spans it gave."""
    work = Work()
    with monkeypatch.context() as patch:
        _instrument(patch, work)

        def line(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                if frame.f_code.co_filename.startswith(_READERS):
                    work.lines += 1
                else:
                    work.library += 1
            return line

        def call(frame: Any, event: str, arg: Any) -> Any:
            filename = frame.f_code.co_filename
            if filename.startswith(_READERS) or filename.startswith(_LIBRARIES):
                return line
            return None

        previous = sys.gettrace()
        sys.settrace(call)
        try:
            spans = find_math(source, tex=tex_source)
        finally:
            sys.settrace(previous)
    return work, len(spans)


def _growth(monkeypatch: pytest.MonkeyPatch, make: Any, n: int, *, tex_source: bool) -> dict[str, Any]:
    small, small_spans = _work(monkeypatch, make(n), tex_source=tex_source)
    large, large_spans = _work(monkeypatch, make(4 * n), tex_source=tex_source)
    ratios = tuple((b + 1) / (a + 1) for a, b in zip(small.as_tuple(), large.as_tuple(), strict=True))
    return {"small": small, "large": large, "ratios": ratios, "spans": (small_spans, large_spans)}


# The reproductions of issue 10, item 1, at sizes that read in well under a second.
_REPRODUCTIONS = [
    pytest.param(lambda n: " ".join(["$x$"] * n), 1000, False, (1000, 4000), id="md-inline-dollars"),
    pytest.param(lambda n: "\\begin{document}" + "\\begin{equation} a " * n, 5000, True, (0, 0), id="tex-equation"),
    pytest.param(lambda n: "\\begin{document}" + "\\begin{verbatim} a " * n, 5000, True, (0, 0), id="tex-verbatim"),
    pytest.param(lambda n: "\\begin{document}" + "\\[ a " * n, 5000, True, (0, 0), id="tex-display-bracket"),
    pytest.param(lambda n: "\\begin{document}" + "$$ a " * n, 5000, True, (2500, 10000), id="tex-display-dollars"),
    pytest.param(lambda n: "\\begin{document}" + "\\( a " * n, 5000, True, (0, 0), id="tex-inline-paren"),
    # in Markdown a lone \[ is an escaped bracket; only an opener with its closer is math
    pytest.param(lambda n: "\\[ a " * n, 800, False, (0, 0), id="md-display-bracket"),
    pytest.param(lambda n: "x \\[ a \\] y\n" * n, 800, False, (800, 3200), id="md-display-bracket-pairs"),
    pytest.param(lambda n: "$$ a " * n, 800, False, (400, 1600), id="md-display-dollars"),
    # one paragraph of prose numbers whose clauses name cells (each looks for its sentence nearby)
    pytest.param(lambda n: "token 1 puts 0.25 of its attention on token 2, " * n, 400, False, (400, 1600), id="md-prose-cells"),
    pytest.param(lambda n: "\\begin{equation} a " * n, 800, False, None, id="md-equation"),
    # tables aligned with spaces: every line is read under one rule of dashes at most
    pytest.param(lambda n: "a     b\n---   ---\n" * n, 400, False, (0, 0), id="md-dash-rules"),
    pytest.param(lambda n: "token   mean\n-----   -----\n" + "x1      1.0\n" * n, 100, False, (100, 400), id="md-aligned-rows"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "n", "tex_source", "spans"), _REPRODUCTIONS)
def test_reading_work_grows_linearly(monkeypatch, make, n, tex_source, spans):
    growth = _growth(monkeypatch, make, n, tex_source=tex_source)
    if spans is not None:
        assert growth["spans"] == spans
    assert growth["large"].as_tuple() != (0, 0, 0)  # the counters saw the reading
    lines, library, scanned = growth["ratios"]
    assert lines <= RATIO, growth
    assert library <= RATIO, growth
    assert scanned <= RATIO, growth


def test_the_counters_see_quadratic_work(monkeypatch):
    """The counters are not blind: a cursor that searches from the start of
    the block every time (the bug of issue 10) is caught by them."""

    def forgetful_find(self, content, start, end, prefixes=("",)):
        self.pos = 0
        return original(self, content, start, end, prefixes)

    original = markdown._Cursor.find
    monkeypatch.setattr(markdown._Cursor, "find", forgetful_find)
    monkeypatch.setattr(markdown, "SEARCH_WINDOW", 10**9)  # searches that are not bounded either
    monkeypatch.setattr(markdown, "NEAR", 10**9)
    growth = _growth(monkeypatch, lambda n: " ".join(f"$x_{{{k}}}$" for k in range(n)), 300, tex_source=False)
    assert growth["ratios"][2] > 10, growth


def test_verify_of_100000_inline_formulas_in_one_paragraph_is_bounded():
    doc = " ".join(["$x$"] * 100_000)
    report = verify_text(doc, options=VerifyOptions(max_formulas=50, use_worker=False))
    assert report.findings == ()  # no formula prints a number
    assert report.exit_code == 0


def test_verify_beyond_max_formulas_gives_one_skipped_finding_per_formula():
    doc = " ".join(["$x = 1$"] * 3000)
    report = verify_text(doc, options=VerifyOptions(max_formulas=20, use_worker=False))
    kinds = [f.kind for f in report.findings]
    assert len(kinds) == 3000  # one finding per formula, never more
    assert kinds.count("skipped") == 3000 - 20
    assert all("too many formulas (1 number)" in f.reason for f in report.findings if f.kind == "skipped")
    assert report.exit_code == 0


# Quadratic reading found while writing these tests, fixed since (brackets matched only within the
# run, a short look ahead before aligning escaped text, braces matched once per document); the one
# mark left is strict: once that reader is fixed, the xfail fails and the mark is to be removed.
# At full size (verify_text, budget=1.0, this machine): "x = e^(1. " * 8000 (80 KB) 34 s,
# "a\\_b $x$ " * 40000 (360 KB) 14 s, "&#65; $x$ " * 40000 (400 KB) 11 s,
# "\\newcommand{\\a}{" * 25000 (.tex, 400 KB) 46 s.
_KNOWN_QUADRATIC = [
    pytest.param(
        lambda n: "x = e^(1. " * n, 100, False,
        id="text-unclosed-parenthesis-per-sentence",
    ),
    pytest.param(
        lambda n: "a\\_b $x$ " * n, 300, False,
        id="md-escaped-text-between-math",
    ),
    pytest.param(
        lambda n: "&#65; $x$ " * n, 300, False,
        id="md-entity-between-math",
        marks=pytest.mark.xfail(
            strict=True,
            reason="readers/markdown.py: _Cursor.find scans to the end of the block for a text token "
            "whose source is an entity (&#65; is the text A)",
        ),
    ),
    pytest.param(
        lambda n: "\\newcommand{\\a}{" * n, 100, True,
        id="tex-unclosed-newcommands",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("make", "n", "tex_source"), _KNOWN_QUADRATIC)
def test_known_quadratic_reading(monkeypatch, make, n, tex_source):
    growth = _growth(monkeypatch, make, n, tex_source=tex_source)
    assert max(growth["ratios"]) <= RATIO, growth
