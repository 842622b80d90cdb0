"""Deliberate wrong numbers: ``<!-- symattn: ignore -->`` in Markdown, ``% symattn: ignore``
in LaTeX, as markdownlint's ``disable-next-line`` and ruff's ``noqa`` do it.

A comment on a line of its own applies to the next line that is not blank, and, when that
line opens a display (``$$``, ``\\[``, ``\\begin{…}``) or a code fence, to the whole of it;
a comment at the end of a line applies to that line.  A wrong number there is listed as
``suppressed`` (status ``unverified``) with its true value, and so is a number carried
from it, so the report counts every suppression and nothing is hidden silently; ``fix``
never touches them.

>>> text = "intro\\n<!-- symattn: ignore -->\\n\\n$$\\n1 + 1 = 3\\n$$\\nafter\\n"
>>> sorted(suppressed_lines(text, tex=False))
[4, 5, 6]
"""

from __future__ import annotations

import dataclasses
import re

from symattn.verify.finding import Finding, Kind, Status

__all__ = ["suppress", "suppressed_lines"]

_MARKDOWN = re.compile(r"<!--\s*symattn\s*:\s*ignore\s*-->", re.IGNORECASE)
_TEX = re.compile(r"(?<!\\)%\s*symattn\s*:\s*ignore\b", re.IGNORECASE)
_OPENERS = (("$$", "$$"), ("\\[", "\\]"), ("```", "```"), ("~~~", "~~~"))
_BEGIN = re.compile(r"\\begin\{([^}]+)\}")


def _extent(lines: list[str], start: int) -> int:
    """The last line (0-based) of the display, fence or environment opened on line ``start``."""
    first = lines[start].strip()
    closer = next(
        (c for o, c in _OPENERS if first.startswith(o) and not (len(first) > len(o) and first.endswith(c))),
        None,
    )
    begin = _BEGIN.match(first)
    if closer is None and begin and f"\\end{{{begin.group(1)}}}" not in first:
        closer = f"\\end{{{begin.group(1)}}}"
    if closer is None:
        return start
    return next((k for k in range(start + 1, len(lines)) if closer in lines[k]), start)


def suppressed_lines(text: str, tex: bool) -> dict[int, int]:
    """Each suppressed line (1-based) and the line of the comment that suppresses it."""
    comment = _TEX if tex else _MARKDOWN
    lines = text.split("\n")
    out: dict[int, int] = {}
    for index, line in enumerate(lines):
        found = comment.search(line)
        if found is None:
            continue
        if line[: found.start()].strip():  # at the end of a line: that line
            out.setdefault(index + 1, index + 1)
            continue
        target = next((k for k in range(index + 1, len(lines)) if lines[k].strip()), None)
        if target is None:
            continue
        for k in range(target, _extent(lines, target) + 1):
            out.setdefault(k + 1, index + 1)
    return out


def suppress(findings: list[Finding], text: str, tex: bool) -> list[Finding]:
    """The findings, with each wrong number on a suppressed line listed as suppressed."""
    if "symattn" not in text:
        return findings
    lines = suppressed_lines(text, tex)
    roots = {f.line for f in findings if f.status == Status.WRONG and f.line in lines}
    out = []
    for finding in findings:
        by = lines.get(finding.line)
        if by is None and finding.carried_from in roots:  # wrong only through a deliberate number
            by = lines[finding.carried_from]  # type: ignore[index]
        if by is not None and finding.status == Status.WRONG:
            finding = dataclasses.replace(  # noqa: PLW2901 - the finding, as it is reported
                finding,
                status=Status.UNVERIFIED,
                kind=Kind.SUPPRESSED,
                carried_from=None,
                fits=None,
                reason=f"suppressed by the symattn: ignore comment on line {by}",
            )
        out.append(finding)
    return out
