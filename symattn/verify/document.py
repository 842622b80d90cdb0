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
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import pickle
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symattn.errors import MissingFileError, NotTextError
from symattn.latexparse import Num, parse_formula, tokenize
from symattn.verify.find import Locator, Span, find_math
from symattn.verify.finding import Finding
from symattn.verify.report import Report

if TYPE_CHECKING:  # imported by the worker (SymPy), not by this process
    from symattn.verify.evaluate import DocumentState

__all__ = ["VerifyOptions", "read_document", "verify_document"]


@dataclass(frozen=True)
class VerifyOptions:
    """Limits of one verification (every default in one place).

    Attributes:
        timeout: seconds allowed to parse and evaluate one formula.
        max_formulas: formulas evaluated per document; later ones are listed
            as unverified (this bounds the work on huge inputs).
        max_formula_chars: longer formulas are not parsed.
        budget: seconds for all formulas of a document; formulas still
            waiting when it is spent are listed as unverified.
        use_worker: run formulas in a forked worker process (needed for the
            timeout); without it (or where fork does not exist) formulas run
            in this process, without a time limit.
    """

    timeout: float = 5.0
    max_formulas: int = 2000
    max_formula_chars: int = 20_000
    budget: float = 120.0
    use_worker: bool = True


def read_document(path_or_text: str | Path) -> tuple[str, str, bool]:
    """Return (name, text, is_tex) for a path or for document text itself.

    A :class:`~pathlib.Path`, or a one-line string naming a file, is read as a
    file; any other string is the document text (Markdown).

    Raises:
        MissingFileError: the file does not exist.
        NotTextError: the file is not UTF-8 text.
    """
    is_path = isinstance(path_or_text, Path) or (
        "\n" not in path_or_text and "$" not in path_or_text and len(path_or_text) < 4096
    )
    if not is_path:
        text = str(path_or_text)
        return "<text>", text, "\\begin{document}" in text
    path = Path(path_or_text)
    if not path.is_file():
        raise MissingFileError(f"{path}: no such file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise NotTextError(f"{path}: not UTF-8 text (byte {err.start} is {data[err.start]:#04x})") from None
    if "\x00" in text:
        raise NotTextError(f"{path}: not text (it contains NUL bytes)")
    return str(path), text, path.suffix.lower() in (".tex", ".latex", ".ltx")


def _subject(span: Span, start: int, end: int) -> str:
    text = " ".join(span.text[start:end].split())
    return text if len(text) <= 60 else text[:57] + "..."


def _run_span(state: DocumentState, span: Span, locator: Locator) -> None:
    """Parse and judge one span, updating ``state``."""
    state.position = lambda offset: locator.position(span.source_offset(offset))
    state.seen = set()
    try:
        chains = parse_formula(span.text).chains
    except Exception as err:  # a parser bug must not stop the document
        state.unverified(_numbers(span.text), "unparsed", f"cannot parse ({type(err).__name__})")
        return
    for chain in chains:
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


def _numbers(text: str) -> list[Num]:
    return [Num(t.offset, t.text) for t in tokenize(text) if t.kind == "num"]


def _skipped(span: Span, locator: Locator, reason: str) -> list[Finding]:
    """Every number of a formula that was not checked, listed as ``skipped``."""
    findings = []
    for num in _numbers(span.text):
        line, column = locator.position(span.source_offset(num.offset))
        findings.append(
            Finding(
                line=line,
                column=column,
                subject="",
                cell=None,
                claimed=num.text,
                value=None,
                exact=None,
                status="unverified",
                kind="skipped",
                carried_from=None,
                reason=reason,
            )
        )
    return findings


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


def _child(conn: Any, saved: dict[str, bytes]) -> None:
    """The worker loop: import the evaluator, say ready, receive the spans,
    then judge formula ``index`` after formula ``index`` and send back the
    findings and the bindings that changed (so a replacement worker can start
    from them)."""
    state = _new_state()
    state.env = {name: pickle.loads(data) for name, data in saved.items()}
    sent = dict(state.env)
    conn.send(_READY)
    spans, locator = conn.recv()
    while True:
        index = conn.recv()
        if index is None:
            return
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
        self.process = context.Process(target=_child, args=(child_conn, env), daemon=True)
        self.process.start()
        child_conn.close()
        self.ready = False

    def give(self, spans: list[Span], locator: Locator) -> None:
        """Send the document's formulas (read while the worker imports)."""
        with contextlib.suppress(OSError):
            self.conn.send((spans, locator))

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


def _forks(options: VerifyOptions) -> bool:
    return options.use_worker and "fork" in multiprocessing.get_all_start_methods()


def _check(
    spans: list[Span], locator: Locator, options: VerifyOptions, worker: _Worker | None
) -> list[Finding]:
    findings: list[Finding] = []
    env: dict[str, bytes] = {}  # the bindings so far, pickled by the worker
    runnable = []
    for index, span in enumerate(spans):
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
    if worker is None:
        state = _new_state()
        for index in runnable:
            _run_span(state, spans[index], locator)
        return findings + state.findings
    worker.give(spans, locator)
    deadline = time.monotonic() + options.budget
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
                worker = _Worker(env)
                worker.give(spans, locator)
                continue
            new_findings, changed, removed = answer
            findings.extend(new_findings)
            for name in removed:
                env.pop(name, None)
            env.update(changed)
    finally:
        worker.stop()
    return findings


def verify_document(path_or_text: str | Path, options: VerifyOptions | None = None) -> Report:
    """Check every printed number of a document about attention.

    Args:
        path_or_text: a path (``.md``, ``.txt``: Markdown; ``.tex``: LaTeX) or
            the Markdown text itself.
        options: limits; see :class:`VerifyOptions`.

    Returns:
        A :class:`~symattn.verify.report.Report` (``exit_code`` 0 when every
        checked number holds, 1 when one is wrong).

    Raises:
        MissingFileError: the file does not exist.
        NotTextError: the file is not UTF-8 text.

    >>> verify_document("$$x = 2$$\\n\\n$$y = 3x = 6$$\\n").summary
    {'claims': 3, 'ok': 1, 'wrong': 0, 'unverified': 2}
    """
    options = options or VerifyOptions()
    name, text, tex = read_document(path_or_text)
    worker = _Worker({}) if _forks(options) else None  # imports SymPy while the math is found
    try:
        spans = find_math(text, tex=tex)
        locator = Locator(text)
    except BaseException:
        if worker is not None:
            worker.stop()
        raise
    findings = _check(spans, locator, options, worker)
    findings.sort(key=lambda f: (f.line, f.column))
    return Report(name, tuple(findings))
