"""One spelling for marks that mean the same: the document as every reader sees it.

Authors write inline math as ``$x$`` or ``\\(x\\)``, display math as ``$$…$$`` or
``\\[…\\]``, and bold as ``**x**`` or ``__x__``.  Nothing downstream should care which:
a reader that looks for ``$`` before a table header, a cue such as "squared:" before a
formula, or emphasis around a label would otherwise see two documents where a reader of
the page sees one.  So the text is rewritten once, before any reader, into one spelling:

- ``\\(`` and ``\\)`` become `` $`` and ``$ `` (a space keeps the length), and ``\\[`` and
  ``\\]`` become ``$$`` (in Markdown only as a pair: a lone ``\\[`` is an escaped bracket);
- in Markdown prose, ``__bold__`` becomes ``**bold**``;
- a label that opens a line, ``row 1 = 0.43, …`` (a word, a number, ``=``), becomes
  ``row 1:  0.43, …``, as it is more often written: the number names a row, it is not
  a value the next ones equal.

Every rewrite keeps the length and the line breaks, so each number keeps its line and
column, and nothing inside code (fences, inline code, ``verbatim``, ``\\verb``) changes.
A mark is an opener only when an even number of backslashes stands before its own
backslash (``\\\\[2pt]`` is a line break, not display math).

>>> canonical("so \\\\(x = 1\\\\) and \\\\[y\\\\]", tex=False)
'so  $x = 1$  and $$y$$'
>>> canonical("the __row 1__ is `a__b__c`", tex=False)
'the **row 1** is `a__b__c`'
>>> canonical("  row 2 = 0.17, 0.30\\nsqrt 2 = 1.414", tex=False)
'  row 2:  0.17, 0.30\\nsqrt 2 = 1.414'
"""

from __future__ import annotations

import re

__all__ = ["canonical", "paired_math_marks"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_VERBATIM = re.compile(r"\\begin\{(verbatim\*?|lstlisting|minted|Verbatim)\}")
_VERB = re.compile(r"\\verb\*?([^\sA-Za-z*])(?:(?!\1).)*\1")
_TICKS = re.compile(r"`+")
_MARK = re.compile(r"\\[()\[\]]")
_BOLD = re.compile(r"(?<![\w_\\])__(?=[^\s_])([^_*\n]{1,200}?)(?<=[^\s_])__(?![\w_])")
_LABEL = re.compile(
    r"^([ \t]*(?:[-*+][ \t]+|\|[ \t]*)?(?:\*\*)?[A-Za-z]{3,12}[ \t]+\d{1,2})([ \t]*=[ \t])(?=[ \t]*[-\[(\d])",
    re.M,
)
#: Words before a number and "=" that are functions of it (``sqrt 2 = 1.414``), not labels.
_FUNCTIONS = frozenset(
    {"sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "max", "min", "sum", "mean", "softmax"}
)
_BRACKETS = re.compile(r"(?<!\\)\\([\[\]()])")
_SAME_LENGTH = {"[": "$$", "]": "$$", "(": " $", ")": "$ "}


def paired_math_marks(source: str) -> str:
    """``\\[ \\]`` and ``\\( \\)`` as ``$$`` and ``$`` of the same length, so
    that every offset still points into the original text.  Only a pair is math:
    an opener whose closer comes before the next opener and before a blank line;
    a lone ``\\[`` (``x\\_1 = \\[1, 0]``) is Markdown's escaped bracket."""
    out = list(source)
    marks = list(_BRACKETS.finditer(source))
    for k, mark in enumerate(marks):
        if mark.group(1) not in "[(":
            continue
        closer = "]" if mark.group(1) == "[" else ")"
        following = marks[k + 1] if k + 1 < len(marks) else None
        if following is None or following.group(1) != closer:
            continue
        if "\n\n" in source[mark.end() : following.start()].replace("\r", ""):
            continue
        for found in (mark, following):
            out[found.start() : found.end()] = _SAME_LENGTH[found.group(1)]
    return "".join(out)


def _labels(text: str) -> str:
    """``row 1 = [..]`` at the start of a line as ``row 1:  [..]`` (same length)."""

    def colon(match: re.Match[str]) -> str:
        word = match.group(1).strip(" \t-*+|").split()[0].lower()
        if word in _FUNCTIONS:
            return match.group()
        return match.group(1) + ":" + " " * (len(match.group(2)) - 1)

    return _LABEL.sub(colon, text)


def _math_marks(piece: str) -> str:
    def swap(match: re.Match[str]) -> str:
        at = match.start()
        while at > 0 and piece[at - 1] == "\\":
            at -= 1
        return match.group() if (match.start() - at) % 2 else _SAME_LENGTH[match.group()[1]]

    return _MARK.sub(swap, piece)


def _prose(piece: str, tex: bool) -> str:
    """Canonical marks in text that is not code: in LaTeX every ``\\(`` and ``\\[`` opens
    math; in Markdown only a pair does (:func:`paired_math_marks`)."""
    if tex:
        return _math_marks(piece)
    return _BOLD.sub(lambda m: f"**{m.group(1)}**", paired_math_marks(piece))


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Markdown inline code: a run of backticks to the next run of the same length
    (CommonMark), found in one pass."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text)]
    following: dict[int, list[int]] = {}  # run length -> indices of runs, latest last
    closer: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        length = runs[index][1] - runs[index][0]
        later = following.setdefault(length, [])
        if later:
            closer[index] = later[-1]
        later.append(index)
    spans, index = [], 0
    while index < len(runs):
        if index in closer:
            spans.append((runs[index][0], runs[closer[index]][1]))
            index = closer[index] + 1
        else:
            index += 1
    return spans


def _tex_code_spans(text: str) -> list[tuple[int, int]]:
    """LaTeX verbatim environments (to their end, or the end of the text) and ``\\verb``."""
    spans, pos = [], 0
    while (match := _VERBATIM.search(text, pos)) is not None:
        end = text.find(f"\\end{{{match.group(1)}}}", match.end())
        end = len(text) if end < 0 else end + len(match.group(1)) + 6
        spans += [(m.start() + pos, m.end() + pos) for m in _VERB.finditer(text[pos : match.start()])]
        spans.append((match.start(), end))
        pos = end
    spans += [(m.start() + pos, m.end() + pos) for m in _VERB.finditer(text[pos:])]
    return spans


def _outside(text: str, code: list[tuple[int, int]], tex: bool) -> str:
    out, pos = [], 0
    for start, end in code:
        out += [_prose(text[pos:start], tex), text[start:end]]
        pos = end
    out.append(_prose(text[pos:], tex))
    return "".join(out)


def canonical(text: str, tex: bool) -> str:
    """``text`` with one spelling of math and bold marks, same length and lines."""
    if tex:
        result = _outside(text, _tex_code_spans(text), tex)
    else:
        result = "\n".join(_rewrite_prose(text.split("\n")))
    result = _labels(result)
    assert len(result) == len(text), "canonical marks keep the length"
    return result


def _rewrite_prose(lines: list[str]) -> list[str]:
    """Lines outside fences rewritten, a run of consecutive prose lines at a time."""
    out: list[str] = []
    fence, run = "", []

    def flush() -> None:
        if run:
            prose = "\n".join(run)
            out.extend(_outside(prose, _code_spans(prose), False).split("\n"))
            run.clear()

    for line in lines:
        opened = _FENCE.match(line)
        if fence:
            out.append(line)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            flush()
            fence = opened.group(1)
            out.append(line)
            continue
        run.append(line)
    flush()
    return out
