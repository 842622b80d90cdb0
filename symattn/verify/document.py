"""Verify a whole document: read it, find its math, judge every number.

Each formula is parsed and evaluated in a worker process (forked).  The
worker is started as soon as the document is read and imports SymPy and the
evaluator itself, while this process finds the math with markdown-it; this
process never imports SymPy (findings come back as plain tuples), so the two
imports overlap.  The parent waits for each formula's answer with a time
limit; when a formula takes too long the worker is killed, the formula's
numbers are reported as unverified, and a fresh worker continues from the
bindings made so far.  No signals are used, so this also works off the main
thread.

The worker never outlives this process: on Linux it asks the kernel to kill
it when its parent dies (``PR_SET_PDEATHSIG``), and everywhere a thread of
the worker waits on the pipe multiprocessing keeps to the parent and exits
the worker when that pipe closes.  It ignores Ctrl-C (the parent handles it
and kills the worker).

Where a worker cannot or should not be forked (inside a daemonic process such
as a ``multiprocessing.Pool`` worker, when the program chose another start
method than fork, on macOS, or with ``use_worker=False``) the formulas run in
this process: *safe mode*.  Every formula is still bounded by the size limits
(literal digits, power sizes, formula length, document size), and formulas
that would start after the document's budget is spent are skipped; only the
per-formula time limit needs the worker.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import multiprocessing
import multiprocessing.connection
import os
import pickle
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symattn.errors import DocumentTooLargeError, MissingFileError, NotTextError
from symattn.files import split_line_endings
from symattn.latexparse import Name, Num, parse_formula, tokenize
from symattn.verify.canonical import canonical
from symattn.verify.explain import explain
from symattn.verify.find import Locator, ReadConfig, Span, find_math
from symattn.verify.finding import Finding, Kind, Seeds
from symattn.verify.readers.bounds import ReadingLimit, check
from symattn.verify.report import Report
from symattn.verify.roots import reroot_doubted
from symattn.verify.stated import Stated, row_name, row_named, stated_conventions
from symattn.verify.suppress import suppress

if TYPE_CHECKING:  # imported by the worker (SymPy), not by this process
    from symattn.verify.evaluate import DocumentState

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "VerifyOptions",
    "read_document",
    "safe_mode_reason",
    "verify_document",
    "verify_text",
]

#: Documents larger than this (UTF-8 bytes) are refused before they are read.
MAX_DOCUMENT_BYTES = 4_000_000


@dataclass(frozen=True)
class VerifyOptions:
    """Limits of one verification (every default in one place).

    Attributes:
        timeout: seconds allowed to parse and evaluate one formula (needs the
            worker; in safe mode a formula cannot be interrupted, and it is
            bounded by the size limits instead).
        max_formulas: formulas evaluated per document; later ones are listed
            as unverified (this bounds the work on huge inputs).
        max_formula_chars: longer formulas are not parsed.
        budget: seconds for all formulas of a document; formulas still
            waiting when it is spent are listed as unverified.
        max_document_bytes: larger documents (UTF-8 bytes) are refused with
            :class:`~symattn.errors.DocumentTooLargeError`.
        use_worker: run formulas in a forked worker process (needed for the
            timeout); without it, or where a worker cannot be forked (see the
            module docstring), formulas run in this process (safe mode).
        read: which readers find the math (:class:`~symattn.verify.readers.ReadConfig`;
            all by default: LaTeX, code, plain text, tables, image URLs).
    """

    timeout: float = 5.0
    max_formulas: int = 2000
    max_formula_chars: int = 20_000
    budget: float = 120.0
    max_document_bytes: int = MAX_DOCUMENT_BYTES
    use_worker: bool = True
    read: ReadConfig = ReadConfig()  # noqa: RUF009 - frozen, so one shared default is safe


_TEX_SUFFIXES = (".tex", ".latex", ".ltx")


def _too_large(name: str, size: int, limit: int) -> DocumentTooLargeError:
    return DocumentTooLargeError(
        f"{name}: {size} bytes is more than the {limit} bytes a document may have "
        "(VerifyOptions.max_document_bytes)"
    )


def read_document(path: str | Path, max_bytes: int = MAX_DOCUMENT_BYTES) -> tuple[str, str, bool]:
    """Return (name, text, is_tex) of the file at ``path``.

    ``path`` is always a file name, never document text (use
    :func:`verify_text` for text).  ``.tex``, ``.latex`` and ``.ltx`` files are
    LaTeX; anything else is Markdown.

    Raises:
        MissingFileError: the file does not exist.
        NotTextError: the file is not UTF-8 text.
        DocumentTooLargeError: the file has more than ``max_bytes`` bytes.
    """
    if not isinstance(path, str | Path):
        raise TypeError(f"read_document takes a path (str or Path), not {type(path).__name__}")
    path = Path(path)
    if not path.is_file():
        raise MissingFileError(f"{_quoted(str(path))}: no such file")
    with path.open("rb") as handle:
        data = handle.read(max_bytes + 1)  # never more than the limit, whatever the file's size
    if len(data) > max_bytes:
        raise _too_large(str(path), max(path.stat().st_size, len(data)), max_bytes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise NotTextError(f"{path}: not UTF-8 text (byte {err.start} is {data[err.start]:#04x})") from None
    if "\x00" in text:
        raise NotTextError(f"{path}: not text (it contains NUL bytes)")
    return str(path), text, path.suffix.lower() in _TEX_SUFFIXES


def _quoted(name: str) -> str:
    """A file name for a one-line message (text passed by mistake stays short)."""
    if "\n" in name or len(name) > 200:
        return repr(name[:60] + "...") + " (to check text, call verify_text)"
    return name


def _subject(span: Span, start: int, end: int) -> str:
    text = " ".join(span.text[start:end].split())
    return text if len(text) <= 60 else text[:57] + "..."


def _run_span(state: DocumentState, span: Span, locator: Locator) -> None:
    """Parse and judge one span, updating ``state``."""
    state.position = lambda offset: locator.position(span.source_offset(offset))
    state.seen = set()
    if state.seeds_left:
        state.remember_seeds(state.position(0)[0])
    if span.reader == "scope":
        level = next((int(flag[6:]) for flag in span.flags if flag.startswith("level:")), 0)
        state.new_scope(locator.position(span.source_offset(0))[0], level)
        return
    state.binary = "binary" in span.flags
    state.row_hint = next((int(flag[4:]) for flag in span.flags if flag.startswith("row:")), None)
    state.own_row = state.row_hint  # "token1  x = [...]": the line's own label, not the section's
    state.squares_cue = "squares" in span.flags
    if state.row_hint is not None:
        if "rowonly" not in span.flags:  # a table's row holds for itself only
            state.section_row = state.row_hint
    elif state.stated.norm and "bare" not in span.flags and span.reader != "code":
        state.row_hint = state.section_row  # "Take the second row": its μ, σ² and x̂ until the next heading
    state.row_name_hint = next((flag[8:] for flag in span.flags if flag.startswith("rowname:")), None)
    if "bare" in span.flags:  # a number of the prose: tied to an earlier result, or left out
        if "complement" in span.flags:  # "另一个 = 0.2689": 1 − the weight just before
            for num in _numbers(span.text):
                state.complement(num)
            return
        if "list" in span.flags:  # the same numbers, listed together: a row or column restated
            state.bare_list(_numbers(span.text, signed=True))
            return
        cell = next((flag[5:] for flag in span.flags if flag.startswith("cell:")), None)
        for num in _numbers(span.text, signed=True):
            state.bare_number(num, cell)
        return
    state.formula_index += 1
    try:
        chains = parse_formula(span.text).chains
    except Exception as err:  # a parser bug must not stop the document
        state.unverified(_numbers(span.text), "unparsed", f"cannot parse ({type(err).__name__})")
        return
    if "forget" in span.flags:  # code assigned a name in a way the reader cannot follow
        for chain in chains:
            if chain.elements and isinstance(chain.elements[0], Name):
                state.forget_name(chain.elements[0].name)
        return
    tentative = "tentative" in span.flags
    for chain in chains:
        if tentative and chain.error is not None:
            continue  # a reader that was not sure: an unreadable run is not reported
        spans = chain.spans

        def subject_of(index: int, spans: Any = spans) -> str:
            if not spans:
                return ""
            start, end = spans[min(index, len(spans) - 1)]
            return _subject(span, start, end)

        try:
            state.run_chain(chain, subject_of)
        except Exception as err:
            nums = [n for n in _numbers(span.text) if n.offset not in state.seen]
            state.unverified(nums, "error", f"could not be checked ({type(err).__name__}: {err})"[:200])


def _numbers(text: str, *, signed: bool = False) -> list[Num]:
    """The numbers of ``text``; ``signed``: a minus written against one is its sign (the
    prose's ``ends at -2.1822``)."""
    tokens = tokenize(text)
    found = []
    for k, token in enumerate(tokens):
        if token.kind != "num":
            continue
        sign = tokens[k - 1] if signed and k else None
        if sign is not None and sign.text == "-" and sign.offset + 1 == token.offset:
            found.append(Num(sign.offset, "-" + token.text))
        else:
            found.append(Num(token.offset, token.text))
    return found


#: A printed number (as :func:`~symattn.latexparse.tokenize` reads one, but not
#: the digits of a subscript such as ``x_1`` or ``W_{12}``), or a command (whose
#: letters, or one character as in ``\1``, are not numbers).
_NUMBER_OR_COMMAND = re.compile(
    r"(?<![\d.])(?<!_)(?<!_\{)(\d+(?:\.\d+)?|\.\d+)|\\(?:[A-Za-z]+\*?|.)", re.DOTALL
)


def _count_numbers(text: str) -> tuple[int, Num | None]:
    """How many numbers a formula prints, and the first of them, without
    building a token list (a skipped formula may be megabytes long)."""
    count, first = 0, None
    for match in _NUMBER_OR_COMMAND.finditer(text):
        if match.group(1) is not None:
            if first is None:
                first = Num(match.start(), match.group(1))
            count += 1
    return count, first


def _skipped(span: Span, locator: Locator, reason: str) -> list[Finding]:
    """One ``skipped`` finding for a formula that was not checked, at its first
    number, with the count of its numbers in the reason (none without numbers)."""
    count, first = _count_numbers(span.text)
    if first is None:
        return []
    line, column = locator.position(span.source_offset(first.offset))
    return [
        Finding(
            line=line,
            column=column,
            subject="",
            cell=None,
            claimed=first.text,
            value=None,
            exact=None,
            status="unverified",
            kind="skipped",
            carried_from=None,
            reason=f"{reason} ({count} number{'' if count == 1 else 's'})",
        )
    ]


def _new_state() -> DocumentState:
    """An empty :class:`DocumentState`, importing the evaluator (and SymPy) on
    first use.  The import makes many objects and no garbage, so the cyclic
    collector is paused for it and what it made is frozen afterwards."""
    if "symattn.verify.evaluate" not in sys.modules:
        gc.disable()
        try:
            import symattn.verify.evaluate  # noqa: F401
        finally:
            gc.freeze()
            gc.enable()
    from symattn.verify.evaluate import DocumentState

    return DocumentState()


_READY = "ready"
_OUT_OF_TIME = "not checked: the time for the document ran out"
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _die_with_parent() -> None:
    """Linux: ask the kernel to SIGKILL this process when its parent dies."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _exit_when_closed(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # readable only at EOF: the parent is gone
    os._exit(1)


def _watch_parent() -> None:
    """Everywhere: a thread that ends this process when the pipe to the parent
    (kept by multiprocessing, written by nobody) closes."""
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_exit_when_closed, args=(parent.sentinel,), daemon=True).start()


def _child(conn: Any, saved: dict[str, bytes], parent_pid: int) -> None:
    """The worker loop: import the evaluator, say ready, receive the spans,
    then judge formula ``index`` after formula ``index`` and send back the
    findings and the bindings that changed (so a replacement worker can start
    from them)."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _die_with_parent()
    _watch_parent()
    if os.getppid() != parent_pid:  # the parent died before the watch began
        os._exit(1)
    state = _new_state()
    state.env = {name: pickle.loads(data) for name, data in saved.items()}
    sent = dict(state.env)
    conn.send(_READY)
    spans, locator, state.stated, seeds = conn.recv()
    state.seed(seeds)
    while True:
        index = conn.recv()
        if index is None:
            return
        if isinstance(index, tuple):  # ("again", seeds): a second reading from the start
            stated = state.stated
            state = _new_state()
            state.stated = stated
            state.seed(index[1])
            sent = {}
            continue
        state.findings = []
        _run_span(state, spans[index], locator)
        changed = {name: pickle.dumps(b) for name, b in state.env.items() if sent.get(name) is not b}
        removed = [name for name in sent if name not in state.env]
        sent = dict(state.env)
        conn.send((state.findings, changed, removed))  # bindings stay bytes until a restart needs them


class _Worker:
    """A forked worker; it imports SymPy itself unless this process has already."""

    def __init__(self, env: dict[str, bytes]) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child_conn = context.Pipe()
        self.process = context.Process(target=_child, args=(child_conn, env, os.getpid()), daemon=True)
        try:
            self.process.start()
        finally:
            child_conn.close()
        self.ready = False
        self.stopped = False

    def give(self, spans: list[Span], locator: Locator, stated: Stated, seeds: Seeds | None = None) -> None:
        """Send the document's formulas (read while the worker imports), and the true values of
        the printed numbers the explanation identified (none on the first reading)."""
        with contextlib.suppress(OSError):
            self.conn.send((spans, locator, stated, seeds or {}))

    def again(self, seeds: Seeds) -> None:
        """Read the document once more from its start, with these true values (the worker
        keeps its imports and the formulas it was given)."""
        with contextlib.suppress(OSError):
            self.conn.send(("again", seeds))

    def wait_ready(self, timeout: float) -> str | None:
        """Wait until the worker has imported what it needs; None, or why not."""
        if self.ready:
            return None
        try:
            if not self.conn.poll(timeout):
                return _OUT_OF_TIME
            if self.conn.recv() != _READY:
                return "not checked: the worker process stopped"
        except (EOFError, OSError):
            return "not checked: the worker process stopped"
        self.ready = True
        return None

    def run(self, index: int, timeout: float) -> tuple[list[Finding], dict[str, bytes], list[str]] | str:
        """The findings and bindings after formula ``index``, or why there are none."""
        try:
            self.conn.send(index)
            if not self.conn.poll(timeout):
                return f"not checked: took longer than {timeout:g} s"
            return self.conn.recv()
        except (EOFError, OSError):
            return "not checked: the worker process stopped"

    def stop(self, kill: bool = False) -> None:
        """End the worker (at once with ``kill``), wait for it and free its pipes (once)."""
        if self.stopped:
            return
        self.stopped = True
        if kill or not self.ready:  # a worker still importing has nothing to finish
            self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.conn.send(None)
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()
        # Another thread's Process.start() may reap this child first (its
        # _cleanup polls every child); our waitpid then sees ECHILD and the
        # exit code appears a moment later, set by that thread.
        for _ in range(200):
            if self.process.exitcode is not None:
                break
            self.process.join(timeout=0.01)
        with contextlib.suppress(ValueError):
            self.process.close()  # its pipe to this process too: no later fork inherits it


def safe_mode_reason(options: VerifyOptions) -> str | None:
    """Why formulas would run in this process (safe mode), or None when a
    worker is forked.

    >>> safe_mode_reason(VerifyOptions(use_worker=False))
    'use_worker is False'
    """
    if not options.use_worker:
        return "use_worker is False"
    if "fork" not in multiprocessing.get_all_start_methods():
        return "this platform cannot fork"
    if sys.platform == "darwin":
        return "fork is unsafe on macOS"
    if multiprocessing.current_process().daemon:
        return "a daemonic process (such as a multiprocessing.Pool worker) cannot have children"
    method = multiprocessing.get_start_method(allow_none=True)
    if method not in (None, "fork"):
        return f"the program chose the {method!r} start method"
    return None


def _start_worker(options: VerifyOptions, env: dict[str, bytes] | None = None) -> _Worker | None:
    """A worker starting from the bindings ``env``, or None for safe mode (also
    when the fork itself fails)."""
    if safe_mode_reason(options) is not None:
        return None
    try:
        return _Worker(env or {})
    except (OSError, AssertionError):  # out of processes, or a daemon after all
        return None


def _split(spans: list[Span], locator: Locator, options: VerifyOptions) -> tuple[list[Finding], list[int]]:
    """The formulas to run, and one ``skipped`` finding per formula over a limit."""
    findings: list[Finding] = []
    runnable = []
    for index, span in enumerate(spans):
        if span.reader == "scope":
            runnable.append(index)  # where a new example may start
            continue
        if not re.search(r"\d", span.text):
            if "=" in span.text and len(span.text) <= options.max_formula_chars:
                runnable.append(index)  # a definition without numbers (Q = X W^Q)
            continue
        if len(runnable) >= options.max_formulas:
            findings.extend(_skipped(span, locator, "not checked: the document has too many formulas"))
        elif len(span.text) > options.max_formula_chars:
            findings.extend(_skipped(span, locator, "not checked: the formula is too long"))
        else:
            runnable.append(index)
    return findings, runnable


def _check_here(
    spans: list[Span],
    locator: Locator,
    runnable: list[int],
    deadline: float,
    env: dict[str, bytes] | None = None,
    *,
    stated: Stated,
    seeds: Seeds | None = None,
) -> list[Finding]:
    """Safe mode: the formulas in this process, from the bindings ``env``; none
    is started after the ``deadline`` (``time.monotonic()``)."""
    findings: list[Finding] = []
    state = _new_state()
    state.stated = stated
    state.seed(seeds or {})
    state.env = {name: pickle.loads(data) for name, data in (env or {}).items()}
    for index in runnable:
        if time.monotonic() >= deadline:
            findings.extend(_skipped(spans[index], locator, _OUT_OF_TIME))
            continue
        _run_span(state, spans[index], locator)
    return findings + state.findings


def _check(  # noqa: PLR0917 - the one path, called once
    spans: list[Span],
    locator: Locator,
    options: VerifyOptions,
    worker: _Worker | None,
    deadline: float,
    stated: Stated,
    seeds: Seeds | None = None,
) -> tuple[list[Finding], _Worker | None]:
    """Judge the formulas; none is started after ``deadline`` (``time.monotonic()``),
    which the document's budget set before its math was read.  ``seeds``: a second reading,
    by the worker that made the first.  The worker is returned alive (or None): the caller
    stops it."""
    findings, runnable = _split(spans, locator, options)
    if worker is None:
        return findings + _check_here(spans, locator, runnable, deadline, stated=stated, seeds=seeds), None
    env: dict[str, bytes] = {}  # the bindings so far, pickled by the worker
    if seeds is None:
        worker.give(spans, locator, stated)
    else:
        worker.again(seeds)
    try:
        for index in runnable:
            left = deadline - time.monotonic()
            if left <= 0:
                findings.extend(_skipped(spans[index], locator, _OUT_OF_TIME))
                continue
            answer = worker.wait_ready(left)
            left = deadline - time.monotonic()
            if answer is None and left <= 0:  # the import took what was left of the budget
                answer = _OUT_OF_TIME
            if answer == _OUT_OF_TIME:
                findings.extend(_skipped(spans[index], locator, answer))
                continue
            if answer is None:
                answer = worker.run(index, min(options.timeout, left))
            if isinstance(answer, str):
                worker.stop(kill=True)
                findings.extend(_skipped(spans[index], locator, answer))
                _new_state()  # import here once, so that replacements start at once
                replacement = _start_worker(options, env)
                if replacement is None:  # no new worker: the rest in safe mode
                    rest = runnable[runnable.index(index) + 1 :]
                    worker = None
                    findings.extend(
                        _check_here(spans, locator, rest, deadline, env, stated=stated, seeds=seeds)
                    )
                    break
                worker = replacement
                worker.give(spans, locator, stated, seeds)
                continue
            new_findings, changed, removed = answer
            findings.extend(new_findings)
            for name in removed:
                env.pop(name, None)
            env.update(changed)
    except BaseException:  # Ctrl-C included: the worker goes at once
        if worker is not None:
            worker.stop(kill=True)
        raise
    return findings, worker


def _with_row_hint(span: Span, text: str, first: int = 1) -> Span:
    r"""The span, flagged ``row:N`` when its line names a row just before it ("row 2: mu
    = …", "以第二行为例：$\mu = …$", "For $x_2$: $\mu = 1$"): which row a bare μ is of."""
    if span.reader == "scope" or not span.text or any(flag.startswith("row:") for flag in span.flags):
        return span  # a table's row names its token itself
    start = span.source_offset(0)
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:start].strip(" \t$\\[") or text[line_start:start].lstrip().startswith("\\begin"):
        line_start = (
            text.rfind("\n", 0, max(line_start - 1, 0)) + 1
        )  # a display on its own line: the line before
    before = text[max(line_start, start - 160) : start]
    row, name = row_named(before, first), row_name(before)
    here = text.rfind("\n", 0, start) + 1
    at_line_start = not text[here:start].strip(" \t$\\[")  # "$$\mu = …" opens its line too
    for _ in range(_HINT_LINES):  # "LayerNorm of r1" heads the lines below it
        if row is not None or name is not None or here == 0:
            break
        above = text.rfind("\n", 0, here - 1) + 1
        line = text[above : here - 1]
        if not line.strip():  # a blank line ends the search, unless a sentence above it leads in
            lead = text[text.rfind("\n", 0, max(above - 1, 0)) + 1 : max(above - 1, 0)].rstrip()
            if lead.endswith((":", "：")):  # "Take the second row of X + PE and add up its entries:"
                row, name = row_named(lead, first), row_name(lead)
            break
        if at_line_start or line.rstrip().endswith((":", "：")):
            # a formula inside a line of prose ("平方：…，均方 mean(r^2) = …") takes only a label
            # line above it ("第 2 个 token："), not a row some other sentence mentions
            row, name = row_named(line, first), row_name(line)
        here = above
    flags = ({f"row:{row}"} if row is not None else set()) | ({f"rowname:{name}"} if name else set())
    return dataclasses.replace(span, flags=span.flags | flags) if flags else span


def _with_squares_cue(span: Span, text: str) -> Span:
    """The span, flagged ``squares`` when the words just before it say it squares what came
    before ("Subtracting the mean gives $x - \\mu = [...]$, and squaring: $[...]$")."""
    if span.reader == "scope" or not span.text:
        return span
    start = span.source_offset(0)
    before = text[max(0, start - 40) : start]
    return dataclasses.replace(span, flags=span.flags | {"squares"}) if _SQUARING.search(before) else span


_SQUARING = re.compile(r"(?:squaring|squared|the squares(?: are)?|平方(?:后|得)?)\s*[:：]?\s*\$*\s*$", re.I)


#: How many lines above a formula (to a blank line) may name the row it is of.
_HINT_LINES = 6


def _report(name: str, text: str, tex: bool, options: VerifyOptions) -> Report:
    """Find the math of one document and judge it: the one path from text to
    a :class:`Report` shared by :func:`verify_document` and :func:`verify_text`."""
    limit = options.max_document_bytes
    if (
        len(text) > limit or len(text.encode("utf-8")) > limit
    ):  # a str has at most as many characters as bytes
        raise _too_large(name, len(text.encode("utf-8")), limit)
    text = split_line_endings(text)[0]  # CRLF and a lone CR break lines as LF does (same lines and columns)
    try:
        check(text, tex=tex)  # the reading limits, before any library sees the text
    except ReadingLimit as refusal:
        return Report(name, (refusal.finding(text),))
    text = canonical(text, tex)  # \(…\) as $…$, __bold__ as **bold**: same lines and columns
    deadline = time.monotonic() + options.budget  # reading the document is part of its budget
    worker = _start_worker(options)  # imports SymPy while the math is found
    try:
        spans = find_math(text, tex=tex, config=options.read)
        locator = Locator(text)
    except BaseException:
        if worker is not None:
            worker.stop(kill=True)
        raise
    stated = stated_conventions(text)
    if stated.norm:
        spans = [_with_squares_cue(_with_row_hint(span, text, stated.first_row), text) for span in spans]
    try:
        findings, worker = _check(spans, locator, options, worker, deadline, stated)
        findings.sort(key=lambda f: (f.line, f.column))
        seeds: Seeds = {}
        try:
            read, (findings, explained) = (
                findings,
                explain(text, findings, seeds),
            )  # what the blocks the readers left open are (explain.py)
        except (ArithmeticError, ValueError, TypeError, IndexError, KeyError, StopIteration) as error:
            explained = {
                "error": f"{type(error).__name__}: {error}"
            }  # the readers' findings stand as they are
            seeds = {}
        if seeds and time.monotonic() < deadline:
            # the readers once more, each number the explanation identified now that node with its true
            # value in world (b): what is computed from it in written arithmetic is judged by its truth
            again, worker = _check(spans, locator, options, worker, deadline, stated, seeds)
            before = findings
            findings = _read_again(read, findings, again, seeds)
            explained["read_again"] = len(seeds)
            explained["changed"] = len(set(findings) - set(before))
    finally:
        if worker is not None:
            worker.stop()
    findings = _as_printed(reroot_doubted(findings), text)  # what later formulas show (roots.py)
    findings = suppress(findings, text, tex)  # <!-- symattn: ignore -->: counted, never hidden
    return Report(name, tuple(findings), explained)


def _read_again(
    read: list[Finding], explained: list[Finding], again: list[Finding], seeds: Seeds
) -> list[Finding]:
    """The explained findings, with each verdict of another status that the readers' second
    reading (``again``, with the ``seeds``' true values) reaches than their first (``read``):
    where the explanation kept the first reading's verdict, at a number it did not identify
    itself.  A number the first reading already judged keeps its kind and root."""
    first = {(f.line, f.column): f for f in read}
    out = {(f.line, f.column): f for f in explained}
    for finding in again:
        place = (finding.line, finding.column)
        before = first.get(place)
        if place in seeds or out.get(place) is not before or finding.kind == Kind.SKIPPED:
            continue  # the explanation's own verdict; a formula the second reading had no time for
        if before is not None and before.status == finding.status:
            continue  # the same verdict: the first reading's kind and root stand (a wrong number stays
            # the slip or the carried error it was; the second reading judges what was not judged)
        out[place] = finding
    return sorted(out.values(), key=lambda f: (f.line, f.column))


_PRINTED = re.compile(r"[-+\u2212]?(?:\d+\.?\d*|\.\d+)")


def _as_printed(findings: list[Finding], text: str) -> list[Finding]:
    """Each number shown as the document printed it: a reader may pad ``1.`` to the places
    its printout claims (``1.0000``), but the finding shows ``1.``."""
    lines = text.split("\n")

    def shown(finding: Finding) -> str:
        if not (0 < finding.line <= len(lines) and finding.claimed and finding.column > 0):
            return finding.claimed
        here = _PRINTED.match(lines[finding.line - 1], finding.column - 1)
        printed = here.group() if here else ""
        padded = printed.endswith(".") and finding.claimed.startswith(printed)
        return printed if padded and not finding.claimed[len(printed) :].strip("0") else finding.claimed

    out = []
    for finding in findings:
        printed = shown(finding)
        out.append(finding if printed == finding.claimed else dataclasses.replace(finding, claimed=printed))
    return out


def verify_document(path: str | Path, options: VerifyOptions | None = None) -> Report:
    """Check every printed number of a document file about attention.

    Args:
        path: the file (``str`` or :class:`~pathlib.Path`); ``.tex``,
            ``.latex``, ``.ltx``: LaTeX; anything else: Markdown.  It is always
            a path: to check text, call :func:`verify_text`.
        options: limits; see :class:`VerifyOptions`.

    Returns:
        A :class:`~symattn.verify.report.Report` (``exit_code`` 0 when every
        checked number holds, 1 when one is wrong).

    Raises:
        MissingFileError: the file does not exist.
        NotTextError: the file is not UTF-8 text.
        DocumentTooLargeError: the file is larger than ``max_document_bytes``.
        TypeError: ``path`` is neither a ``str`` nor a ``Path``.

    >>> verify_document("no-such-file.md")
    Traceback (most recent call last):
    ...
    symattn.errors.MissingFileError: no-such-file.md: no such file
    """
    options = options or VerifyOptions()
    if not isinstance(path, str | Path):
        raise TypeError(f"verify_document takes a path (str or Path), not {type(path).__name__}")
    name, text, tex = read_document(path, options.max_document_bytes)
    return _report(name, text, tex, options)


def verify_text(
    text: str, *, name: str = "<text>", tex: bool = False, options: VerifyOptions | None = None
) -> Report:
    """Check every printed number of document text; the file system is never read.

    Args:
        text: the document itself (Markdown, or LaTeX with ``tex=True``).
        name: what the report calls the document.
        tex: read ``text`` as LaTeX (math after ``\\begin{document}``).
        options: limits; see :class:`VerifyOptions`.

    Returns:
        A :class:`~symattn.verify.report.Report`.

    Raises:
        DocumentTooLargeError: the text is larger than ``max_document_bytes``.
        TypeError: ``text`` is not a ``str``.

    >>> verify_text("$$x = 2$$\\n\\n$$y = 3x = 6$$\\n").summary
    {'claims': 3, 'ok': 1, 'wrong': 0, 'unverified': 2}
    """
    if not isinstance(text, str):
        raise TypeError(f"verify_text takes the document as a str, not {type(text).__name__}")
    return _report(name, text, tex, options or VerifyOptions())
