"""Verify a whole document: read it, find its math, judge every number.

Each formula is parsed and evaluated in a worker process (forked, so nothing
is imported again).  The parent waits for each formula's answer with a time
limit; when a formula takes too long the worker is killed, the formula's
numbers are reported as unverified, and a fresh worker continues from the
bindings made so far.  No signals are used, so this also works off the main
thread.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symattn.errors import MissingFileError, NotTextError
from symattn.latexparse import Num, parse_formula, tokenize
from symattn.verify.claims import Finding
from symattn.verify.evaluate import DocumentState
from symattn.verify.find import Locator, Span, find_math
from symattn.verify.report import Report

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
    state = DocumentState()
    state.position = lambda offset: locator.position(span.source_offset(offset))
    state.unverified(_numbers(span.text), "skipped", reason)
    return state.findings


def _child(conn: Any, spans: list[Span], locator: Locator, saved: dict[str, bytes]) -> None:
    """The worker loop: judge formula ``index``, send back the findings and the
    bindings that changed (so a replacement worker can start from them)."""
    state = DocumentState()
    state.env = {name: pickle.loads(data) for name, data in saved.items()}
    sent = dict(state.env)
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
    def __init__(self, spans: list[Span], locator: Locator, env: dict[str, bytes]) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, child_conn = context.Pipe()
        self.process = context.Process(target=_child, args=(child_conn, spans, locator, env), daemon=True)
        self.process.start()
        child_conn.close()

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
        if kill:
            self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.conn.send(None)
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _check(spans: list[Span], locator: Locator, options: VerifyOptions) -> list[Finding]:
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
    if not options.use_worker or "fork" not in multiprocessing.get_all_start_methods():
        state = DocumentState()
        for index in runnable:
            _run_span(state, spans[index], locator)
        return findings + state.findings
    worker = _Worker(spans, locator, env)
    deadline = time.monotonic() + options.budget
    try:
        for index in runnable:
            left = deadline - time.monotonic()
            if left <= 0:
                findings.extend(
                    _skipped(spans[index], locator, "not checked: the time for the document ran out")
                )
                continue
            answer = worker.run(index, min(options.timeout, left))
            if isinstance(answer, str):
                worker.stop(kill=True)
                findings.extend(_skipped(spans[index], locator, answer))
                worker = _Worker(spans, locator, env)
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
    spans = find_math(text, tex=tex)
    findings = _check(spans, Locator(text), options)
    findings.sort(key=lambda f: (f.line, f.column))
    return Report(name, tuple(findings))
