"""Reports of one or many files, for people and for CI.

``text``, ``md`` and ``json`` are the report's own renderings (one file; one
file that could not be read is its path and error in the same layout) or
those of every file followed by a combined summary (``json`` gains a
``files`` array).  For CI:

- ``github``: GitHub workflow commands, one per wrong number
  (``::error file=…,line=…,col=…,title=symattn::claimed 0.3, true 0.2483 (wrong)``),
  carried numbers as ``::warning`` naming the line of their cause;
- ``sarif``: SARIF 2.1.0 (one rule per kind, fixes with the corrected literal,
  carried numbers related to their cause);
- ``rdjsonl``: reviewdog's diagnostic format, one JSON object per line, with
  a suggestion that carries the corrected number (columns in UTF-8 bytes);
- ``short``: ``path:line:col: kind: claimed X, true Y``, one line per wrong number.

``html`` is the document itself, rendered, with every judged number marked in place
(:mod:`symattn.verify.html_report`); it takes one document.

Only wrong numbers are listed by the CI formats; a file that could not be
read is an error of its own in each.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from urllib.parse import quote

from symattn import __version__
from symattn.verify.finding import Finding
from symattn.verify.many import FileResult
from symattn.verify.report import SCHEMA

__all__ = ["FORMATS", "combined_summary", "message", "render"]

FORMATS = ("text", "json", "md", "github", "sarif", "rdjsonl", "short", "html")
_RULES = {
    "wrong": ("WrongNumber", "A printed number that is not the true value.", "error"),
    "rounding": ("TruncatedNumber", "The true value truncated instead of rounded.", "error"),
    "slip": ("ArithmeticSlip", "Wrong even by the document's own printed numbers.", "error"),
    "carried": (
        "CarriedNumber",
        "Right by the document's own numbers, wrong in truth: it follows from an earlier wrong number.",
        "warning",
    ),
}
_TOTALS = {
    "en": "{files} {file_word} ({unreadable} unreadable): {claims} numbers: {ok} ok, {wrong} wrong, {unverified} not checked.",
    "zh": "{files} 个文件（{unreadable} 个无法读取）：共 {claims} 个数字：{ok} 个正确，{wrong} 个错误，{unverified} 个未核验。",
}


def _totals(results: Sequence[FileResult], lang: str) -> str:
    """The combined summary line: ``2 files (0 unreadable): …``, ``1 file (1 unreadable): …``."""
    total = combined_summary(results)
    return _TOTALS[lang].format(file_word="file" if total["files"] == 1 else "files", **total)


def message(finding: Finding) -> str:
    """``claimed 0.3, true 0.2483 (wrong)``; carried: ``(carried from line 41)``."""
    what = finding.kind
    if finding.kind == "carried" and finding.carried_from:
        what = f"carried from line {finding.carried_from}"
    return f"claimed {finding.claimed}, true {finding.value or 'unknown'} ({what})"


def combined_summary(results: Sequence[FileResult]) -> dict[str, int]:
    """Counts over every file: files, unreadable, claims, ok, wrong, unverified."""
    total = {"files": len(results), "unreadable": 0, "claims": 0, "ok": 0, "wrong": 0, "unverified": 0}
    for result in results:
        if result.report is None:
            total["unreadable"] += 1
            continue
        for key, value in result.report.summary.items():
            total[key] += value
    return total


def render(results: Sequence[FileResult], fmt: str, lang: str = "en") -> str:
    """The report of ``results`` in format ``fmt`` (one of :data:`FORMATS`)."""
    renderer = {
        "text": _text,
        "md": _markdown,
        "json": _json,
        "github": _github,
        "sarif": _sarif,
        "rdjsonl": _rdjsonl,
        "short": _short,
        "html": _html,
    }[fmt]
    return renderer(results, lang)


def _single(results: Sequence[FileResult]) -> FileResult | None:
    return results[0] if len(results) == 1 and results[0].report is not None else None


def _single_error(results: Sequence[FileResult]) -> FileResult | None:
    """One path that could not be read: reported in the one-file layout, with its error."""
    return results[0] if len(results) == 1 and results[0].report is None else None


def _text(results: Sequence[FileResult], lang: str) -> str:
    one = _single(results)
    if one is not None and one.report is not None:
        return one.report.to_text(lang=lang)
    failed = _single_error(results)
    if failed is not None:
        return f"symattn verify: {failed.path}\n\nerror: {failed.error}\n"
    parts = []
    for result in results:
        if result.report is not None:
            parts.append(result.report.to_text(lang=lang))
        else:
            parts.append(f"symattn verify: {result.path}\n\nerror: {result.error}\n")
    parts.append(_totals(results, lang) + "\n")
    return "\n".join(parts)


def _markdown(results: Sequence[FileResult], lang: str) -> str:
    one = _single(results)
    if one is not None and one.report is not None:
        return one.report.to_markdown(lang=lang)
    failed = _single_error(results)
    if failed is not None:
        return f"# symattn verify: {failed.path}\n\n**error:** {failed.error}\n"
    parts = []
    for result in results:
        if result.report is not None:
            parts.append(result.report.to_markdown(lang=lang).replace("\n# ", "\n## "))
        else:
            parts.append(f"# symattn verify: {result.path}\n\n**error:** {result.error}\n")
    parts.append(f"**{_totals(results, lang)}**\n")
    return "\n".join(parts)


def _json(results: Sequence[FileResult], lang: str) -> str:
    one = _single(results)
    if one is not None and one.report is not None:
        return one.report.to_json()
    failed = _single_error(results)
    if failed is not None:  # the one-file layout: the document and why it was not read
        data = {"schema": SCHEMA, "document": failed.path, "error": failed.error}
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    files = []
    for result in results:
        if result.report is not None:
            entry = json.loads(result.report.to_json())
            del entry["schema"]
            files.append(entry)
        else:
            files.append({"document": result.path, "error": result.error})
    data = {"schema": SCHEMA, "summary": combined_summary(results), "files": files}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(results: Sequence[FileResult], lang: str) -> str:
    lines = []
    for result in results:
        path = _escape_property(result.path)
        if result.report is None:
            lines.append(f"::error file={path},title=symattn::{_escape_data(result.error or '')}")
            continue
        for finding in result.report.wrong:
            level = "warning" if finding.kind == "carried" else "error"
            lines.append(
                f"::{level} file={path},line={finding.line},col={finding.column},title=symattn::"
                f"{_escape_data(message(finding))}"
            )
    return "".join(line + "\n" for line in lines)


def _short(results: Sequence[FileResult], lang: str) -> str:
    lines = []
    for result in results:
        if result.report is None:
            lines.append(f"{result.error}" if result.error else f"{result.path}: error")
            continue
        for f in result.report.wrong:
            tail = f" (from line {f.carried_from})" if f.kind == "carried" and f.carried_from else ""
            lines.append(
                f"{result.path}:{f.line}:{f.column}: {f.kind}: claimed {f.claimed}, true {f.value or 'unknown'}{tail}"
            )
    return "".join(line + "\n" for line in lines)


def _html(results: Sequence[FileResult], lang: str) -> str:
    from symattn.errors import InputError
    from symattn.verify.html_report import html_report

    one = _single(results)
    if one is None or one.report is None or one.text is None:
        raise InputError("--format html reports one document: name one file")
    return html_report(
        one.text,
        one.path,
        list(one.report.findings),
        tex=one.path.lower().endswith(".tex"),
        lang=lang,
        fixes=_corrections(one),
    )


def _corrections(result: FileResult) -> dict[tuple[int, int], str]:
    """(line, column) -> the corrected literal, as ``symattn fix --unsafe-fixes`` would print it."""
    from symattn.fix import plan_edits

    if result.report is None or result.text is None or not result.report.wrong:
        return {}
    candidates, _notes, _remarks = plan_edits(result.report, result.text, unsafe=True)
    return {(c.finding.line, c.finding.column): c.new for c in candidates}


def _uri(path: str) -> str:
    return quote(path.replace("\\", "/"))


def _sarif(results: Sequence[FileResult], lang: str) -> str:
    rule_ids = list(_RULES)
    rules = [
        {
            "id": kind,
            "name": name,
            "shortDescription": {"text": text},
            "help": {"text": "See docs/verify.md of symattn for what each kind means."},
            "defaultConfiguration": {"level": level},
        }
        for kind, (name, text, level) in _RULES.items()
    ]
    sarif_results = []
    notifications = []
    for result in results:
        if result.report is None:
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": result.error or result.path},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(result.path)}}}],
                }
            )
            continue
        corrections = _corrections(result)
        for f in result.report.wrong:
            kind = f.kind if f.kind in _RULES else "wrong"
            region = {"startLine": f.line, "startColumn": f.column, "endColumn": f.column + len(f.claimed)}
            location = {
                "physicalLocation": {"artifactLocation": {"uri": _uri(result.path)}, "region": region}
            }
            entry: dict = {
                "ruleId": kind,
                "ruleIndex": rule_ids.index(kind),
                "level": _RULES[kind][2],
                "message": {"text": message(f)},
                "locations": [location],
            }
            if f.kind == "carried" and f.carried_from:
                entry["relatedLocations"] = [
                    {
                        "id": 1,
                        "message": {"text": "the wrong number it follows from"},
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(result.path)},
                            "region": {"startLine": f.carried_from},
                        },
                    }
                ]
            new = corrections.get((f.line, f.column))
            if new is not None:
                entry["fixes"] = [
                    {
                        "description": {"text": f"replace {f.claimed} by {new}"},
                        "artifactChanges": [
                            {
                                "artifactLocation": {"uri": _uri(result.path)},
                                "replacements": [{"deletedRegion": region, "insertedContent": {"text": new}}],
                            }
                        ],
                    }
                ]
            sarif_results.append(entry)
    run = {
        "tool": {
            "driver": {
                "name": "symattn",
                "version": __version__,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": sarif_results,
        "invocations": [
            {
                "executionSuccessful": not notifications,
                "toolExecutionNotifications": notifications,
            }
        ],
    }
    data = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _byte_column(lines: list[str], line: int, column: int) -> int:
    """A 1-based character column as reviewdog's 1-based UTF-8 byte column."""
    if not 1 <= line <= len(lines):
        return column
    return len(lines[line - 1][: column - 1].encode("utf-8")) + 1


def _rdjsonl(results: Sequence[FileResult], lang: str) -> str:
    out = []
    source = {"name": "symattn"}
    for result in results:
        if result.report is None:
            out.append(
                {
                    "message": result.error or result.path,
                    "location": {"path": result.path},
                    "severity": "ERROR",
                    "source": source,
                }
            )
            continue
        lines = (result.text or "").split("\n")
        corrections = _corrections(result)
        for f in result.report.wrong:
            start = _byte_column(lines, f.line, f.column)
            end = _byte_column(lines, f.line, f.column + len(f.claimed))
            span = {"start": {"line": f.line, "column": start}, "end": {"line": f.line, "column": end}}
            entry: dict = {
                "message": message(f),
                "location": {"path": result.path, "range": span},
                "severity": "WARNING" if f.kind == "carried" else "ERROR",
                "source": source,
                "code": {"value": f.kind},
            }
            new = corrections.get((f.line, f.column))
            if new is not None:
                entry["suggestions"] = [{"range": span, "text": new}]
            out.append(entry)
    return "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in out)
