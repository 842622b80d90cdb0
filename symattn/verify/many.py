"""Verify many documents: expand paths, run files side by side, keep going.

``symattn verify PATH...`` takes files, directories (searched recursively for
``.md``, ``.markdown``, ``.tex`` and ``.txt``, skipping hidden folders and
``node_modules``) and glob patterns.  Each file is verified exactly as
:func:`symattn.verify.verify_document` verifies one (its per-formula worker
and time budget unchanged); the pool only runs files side by side.

The pool is a :class:`concurrent.futures.ProcessPoolExecutor` with the
``spawn`` start method: its workers are not daemonic (Python 3.9+), so each
can fork the per-document worker of :mod:`symattn.verify.document`, and they
are fresh single-threaded processes, so forking them is safe.  Each pool
worker imports the evaluator once (collector paused, then frozen), so the
per-document workers it forks start at once.  The workers end with the pool:
on normal exit, on an error and on Ctrl-C (pending files are cancelled).
If the parent is killed, a thread of each worker sees the pipe multiprocessing
keeps to the parent close and ends the worker (the call queue would not tell:
each worker holds both of its ends), and the per-document workers end with
their own parent in turn.
"""

from __future__ import annotations

import concurrent.futures
import gc
import glob
import multiprocessing
import multiprocessing.connection
import os
import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from symattn.errors import SymattnError
from symattn.files import split_line_endings
from symattn.verify.document import VerifyOptions, read_document, verify_document, verify_text
from symattn.verify.report import Report

__all__ = [
    "DOCUMENT_SUFFIXES",
    "STDIN",
    "FileResult",
    "PathError",
    "default_jobs",
    "find_documents",
    "verify_paths",
]

#: File suffixes a directory is searched for.
DOCUMENT_SUFFIXES = (".md", ".markdown", ".tex", ".txt")
#: The path that means standard input.
STDIN = "-"
_SKIPPED_DIRS = {"node_modules", "__pycache__"}


@dataclass(frozen=True)
class FileResult:
    """The outcome for one path: a report, or the one-line error that stopped it.

    Attributes:
        path: the path as found (``"<stdin>"`` for standard input).
        report: the report, or None when the file could not be read.
        error: the one-line message (it names the path), or None.
        text: the document text that was verified, line breaks written ``\\n`` as verify reads
            them (:func:`symattn.files.split_line_endings`; for fixes and byte columns).
    """

    path: str
    report: Report | None = None
    error: str | None = None
    text: str | None = None


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _is_glob(text: str) -> bool:
    return any(char in text for char in "*?[")


def _walk(directory: str) -> list[str]:
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        found.extend(
            os.path.join(root, name)
            for name in sorted(files)
            if not name.startswith(".") and name.lower().endswith(DOCUMENT_SUFFIXES)
        )
    return found


def _skipped(match: str, pattern: str) -> bool:
    """A glob match inside a hidden folder or node_modules the pattern does not name."""
    named = set(Path(pattern).parts)
    return any(
        (part in _SKIPPED_DIRS or (part.startswith(".") and part not in (".", ".."))) and part not in named
        for part in Path(match).parts[:-1]
    )


class PathError(str):
    """A one-line message about a path that gave no document; ``.path`` is the path."""

    path: str

    def __new__(cls, path: str, message: str) -> PathError:
        error = super().__new__(cls, f"{path}: {message}")
        error.path = path
        return error

    def result(self) -> FileResult:
        """The error as a :class:`FileResult`, for the combined report."""
        return FileResult(self.path, error=str(self))


def find_documents(paths: list[str]) -> tuple[list[str], list[PathError]]:
    """Expand files, directories and globs into documents (in order, each once).

    Returns:
        (documents, errors): the documents to verify, and a one-line message
        naming the path (a :class:`PathError`) per path that gave none:
        missing, a directory without documents, a glob that matches nothing.
        ``-`` (standard input) is kept as is.
    """
    documents: list[str] = []
    errors: list[PathError] = []
    seen: set[str] = set()

    def add(path: str) -> None:
        key = path if path == STDIN else os.path.normpath(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            documents.append(path)

    suffixes = ", ".join(DOCUMENT_SUFFIXES)
    for path in paths:
        if path == STDIN:
            add(path)
        elif os.path.isdir(path):
            inside = _walk(path)
            if not inside:
                errors.append(PathError(path, f"no documents ({suffixes}) in this directory"))
            for name in inside:
                add(name)
        elif os.path.isfile(path):
            add(path)
        elif _is_glob(path):
            matches = [m for m in sorted(glob.glob(path, recursive=True)) if not _skipped(m, path)]
            names = [m for m in matches if os.path.isfile(m)]
            for directory in (m for m in matches if os.path.isdir(m)):
                names.extend(_walk(directory))
            if not names:
                errors.append(PathError(path, "no file matches this pattern"))
            for name in names:
                add(name)
        elif os.path.lexists(path):
            errors.append(PathError(path, "not a regular file"))
        else:
            errors.append(PathError(path, "no such file"))
    return documents, errors


def _one_line(error: BaseException, path: str) -> str:
    if isinstance(error, SymattnError):
        return " ".join(str(error).split())
    if isinstance(error, OSError):
        return f"{path}: {error.strerror or error}"
    return f"{path}: could not be verified ({type(error).__name__}: {' '.join(str(error).split())})"[:300]


def verify_one(path: str, options: VerifyOptions | None = None) -> FileResult:
    """Verify one file; an unreadable file gives an error result, never an exception."""
    options = options or VerifyOptions()
    try:
        report = verify_document(Path(path), options)
        text = split_line_endings(read_document(Path(path), options.max_document_bytes)[1])[0]
    except Exception as error:  # one bad file never stops the others
        return FileResult(path, error=_one_line(error, path))
    return FileResult(path, report=replace(report, document=path), text=text)


def _exit_when_closed(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # readable only at end-of-file: the parent is gone
    os._exit(1)


def _start_pool_worker() -> None:
    """A pool worker: end when the parent ends, however it ends, then warm up.

    ``spawn`` leaves its own name as this process's start method; the
    per-document worker must still be forked (safe mode would drop the
    per-formula time limit), so the choice is undone here.
    """
    if multiprocessing.get_start_method(allow_none=True) == "spawn":
        multiprocessing.set_start_method(None, force=True)
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_exit_when_closed, args=(parent.sentinel,), daemon=True).start()
    _warm()


def _warm() -> None:
    """Import the evaluator (and SymPy) into this process once, collector paused and
    what it made frozen, so the per-document workers forked from here start at once."""
    if "symattn.verify.evaluate" in sys.modules:
        return
    gc.disable()
    try:
        import symattn.verify.evaluate  # noqa: F401
    finally:
        gc.freeze()
        gc.enable()


def verify_paths(
    documents: list[str], *, jobs: int | None = None, options: VerifyOptions | None = None
) -> list[FileResult]:
    """Verify each document (``-`` reads standard input); results in the given order.

    Args:
        documents: paths from :func:`find_documents`.
        jobs: files verified side by side (default: the number of CPUs); with
            1, or one file, everything runs in this process.
        options: the per-document limits (:class:`VerifyOptions`).
    """
    results: dict[int, FileResult] = {}
    files = []
    for index, path in enumerate(documents):
        if path == STDIN:
            results[index] = _verify_stdin(options)
        else:
            files.append((index, path))
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if multiprocessing.current_process().daemon:  # a daemonic process cannot start a pool
        jobs = 1
    if jobs == 1 or len(files) <= 1:
        if len(files) > 1:
            _warm()
        for index, path in files:
            results[index] = verify_one(path, options)
    else:
        stopped = [
            (index, FileResult(path, error=f"{path}: the process verifying it stopped"))
            for index, path in files
        ]
        done = run_pool(verify_one, [(path, options) for _index, path in files], min(jobs, len(files)))
        for (index, _path), result, (_i, fallback) in zip(files, done, stopped, strict=True):
            results[index] = fallback if result is None else result
    return [results[index] for index in range(len(documents))]


def run_pool(task: Any, arguments: list[tuple[Any, ...]], jobs: int) -> list[Any]:
    """``task(*args)`` for each of ``arguments``, ``jobs`` processes side by side (spawned,
    each warmed like verify's workers), results in order; None where a process stopped.
    ``task`` is a module-level function (it is pickled by name)."""
    context = multiprocessing.get_context("spawn")
    executor = concurrent.futures.ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start_pool_worker
    )
    out: list[Any] = []
    try:
        futures = [executor.submit(task, *args) for args in arguments]
        for future in futures:
            try:
                out.append(future.result())
            except concurrent.futures.process.BrokenProcessPool:
                out.append(None)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return out


def _verify_stdin(options: VerifyOptions | None) -> FileResult:
    name = "<stdin>"
    limit = (options or VerifyOptions()).max_document_bytes
    try:
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode()
        if len(data) > limit:
            return FileResult(name, error=f"{name}: larger than the limit of {limit} bytes")
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return FileResult(name, error=f"{name}: not UTF-8 text (byte {err.start} is {data[err.start]:#04x})")
    except OSError as err:
        return FileResult(name, error=f"{name}: {err.strerror}")
    if "\x00" in text:
        return FileResult(name, error=f"{name}: not text (it contains NUL bytes)")
    try:
        report = verify_text(text, name=name, tex="\\begin{document}" in text, options=options)
    except Exception as error:
        return FileResult(name, error=_one_line(error, name))
    return FileResult(name, report=report, text=split_line_endings(text)[0])
