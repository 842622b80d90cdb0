"""Issue 10: bounded work everywhere, no orphaned workers, safe to embed.

Bounds are checked by counting (findings, bytes, bits, processes), never by
timing.  Where a test waits for a process to go, it polls a bounded number of
times; the wait only keeps the test from hanging, it asserts nothing about speed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import symattn
from symattn import cli, files
from symattn.errors import DocumentTooLargeError, MissingFileError, ValueTooLargeError
from symattn.exact import MAX_POWER_BITS
from symattn.latexparse import scalar_latex, scalar_value
from symattn.verify import VerifyOptions, verify_document, verify_text
from symattn.verify import document as document_module

ROOT = Path(__file__).resolve().parent.parent
LINUX = sys.platform.startswith("linux")


# --- processes -----------------------------------------------------------------------


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process, by ``ps`` (a zombie has finished)."""
    out = subprocess.run(
        ["ps", "-o", "stat=", "-p", str(pid)], check=False, capture_output=True, text=True
    ).stdout
    return bool(out.strip()) and not out.strip().startswith("Z")


def _gone(pid: int, polls: int = 400) -> bool:
    """Poll (at most ``polls`` times, 50 ms apart) until ``pid`` no longer runs."""
    for _ in range(polls):
        if not _running(pid):
            return True
        threading.Event().wait(0.05)
    return False


def _kill_if_running(pid: int) -> None:
    if _running(pid):
        os.kill(pid, signal.SIGKILL)


#: A parent that runs ``symattn verify`` with a worker that prints its pid and
#: then spins forever; argv: which parent-death mechanisms to keep, the document.
BUSY_PARENT = textwrap.dedent(
    """
    import os, sys
    import symattn.verify.document as d

    keep = sys.argv[1]
    if keep not in ("both", "pdeathsig"):
        d._watch_parent = lambda: None
    if keep not in ("both", "pipe"):
        d._die_with_parent = lambda: None

    def busy(state, span, locator):
        print(os.getpid(), flush=True)
        while True:
            pass

    d._run_span = busy
    import symattn.verify
    from symattn.cli import main

    def patient(path, options=None):  # no time limit ends the busy formula
        return d.verify_document(path, d.VerifyOptions(timeout=600, budget=600))

    symattn.verify.verify_document = patient
    sys.exit(main(["verify", sys.argv[2]]))
    """
)


def _busy_parent(tmp_path: Path, keep: str, **popen: object) -> tuple[subprocess.Popen, int]:
    doc = tmp_path / "doc.md"
    doc.write_text("$$f = \\ln(10^{10^{9}}) = 1$$\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", BUSY_PARENT, keep, str(doc)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        **popen,
    )
    line = proc.stdout.readline()  # the worker's pid, once it is busy
    assert line.strip().isdigit(), proc.stderr.read()
    return proc, int(line)


MECHANISMS = [
    pytest.param("both", id="both"),
    pytest.param("pdeathsig", id="pdeathsig-only", marks=pytest.mark.skipif(not LINUX, reason="Linux prctl")),
    pytest.param("pipe", id="pipe-only"),
]


@pytest.mark.parametrize("keep", MECHANISMS)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["KILL", "TERM"])
def test_the_worker_does_not_outlive_its_killed_parent(tmp_path: Path, keep: str, sig: int) -> None:
    proc, worker = _busy_parent(tmp_path, keep)
    try:
        assert _running(worker)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        assert _gone(worker), f"worker {worker} still runs after its parent got signal {sig}"
        proc.communicate(timeout=60)  # nobody holds the parent's stdout and stderr any more
    finally:
        _kill_if_running(worker)
        proc.kill()


def test_without_either_mechanism_the_worker_would_be_orphaned(tmp_path: Path) -> None:
    """The check above can fail: with both mechanisms off the worker survives."""
    proc, worker = _busy_parent(tmp_path, "none")
    try:
        proc.kill()
        proc.wait(timeout=60)
        assert not _gone(worker, polls=10)
    finally:
        _kill_if_running(worker)
        proc.kill()


def _interruptible() -> None:
    """In the child before exec: Ctrl-C at its default, as a terminal's shell starts a
    command (a shell without job control starts a background job with SIGINT ignored,
    and Python then keeps it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_to_the_process_group_prints_no_worker_traceback(tmp_path: Path) -> None:
    proc, worker = _busy_parent(tmp_path, "both", start_new_session=True, preexec_fn=_interruptible)
    try:
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the parent and the worker
        _, err = proc.communicate(timeout=60)
        assert (proc.returncode, err) == (130, "symattn: interrupted\n")
        assert _gone(worker)
    finally:
        _kill_if_running(worker)
        proc.kill()


# --- item 2: a huge formula is one finding; a size cap on documents ---------------------


def test_a_skipped_formula_is_one_finding_with_its_number_count() -> None:
    text = "Intro.\n\n$$a = " + "1+" * 100_000 + "1$$\n"
    report = verify_text(text)
    assert [(f.line, f.column, f.claimed, f.kind, f.reason) for f in report.findings] == [
        (3, 7, "1", "skipped", "not checked: the formula is too long (100001 numbers)")
    ]
    assert "未核验：公式太长（共 100001 个数字）" in report.to_text(lang="zh")


def test_too_many_formulas_give_one_finding_each() -> None:
    text = "".join(f"$$x_{i} = {i} + 1 + 2 = {i + 3}$$\n\n" for i in range(1, 31))
    report = verify_text(text, options=VerifyOptions(max_formulas=10))
    skipped = [f for f in report.findings if f.kind == "skipped"]
    assert [(f.line, f.claimed) for f in skipped] == [(2 * i - 1, str(i)) for i in range(11, 31)]
    assert {f.reason for f in skipped} == {"not checked: the document has too many formulas (4 numbers)"}


def test_text_over_the_size_limit_is_one_error() -> None:
    limit = document_module.MAX_DOCUMENT_BYTES
    with pytest.raises(DocumentTooLargeError) as err:
        verify_text("$$a = 1$$ " * (limit // 10 + 1))
    assert str(err.value) == (
        f"<text>: {10 * (limit // 10 + 1)} bytes is more than the {limit} bytes a document may have "
        "(VerifyOptions.max_document_bytes)"
    )
    with pytest.raises(DocumentTooLargeError):  # counted in UTF-8 bytes, not characters
        verify_text("注" * 40, options=VerifyOptions(max_document_bytes=100))
    assert verify_text("注" * 33, options=VerifyOptions(max_document_bytes=100)).findings == ()


def test_a_file_over_the_size_limit_is_refused_after_reading_at_most_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"$$x = 1$$\n" * 1000)  # 10000 bytes
    sizes = []
    original = document_module.Path.open

    def counting_open(self, *args, **kwargs):
        handle = original(self, *args, **kwargs)
        read = handle.read

        def counted(size=-1):
            data = read(size)
            sizes.append(len(data))
            return data

        handle.read = counted
        return handle

    monkeypatch.setattr(document_module.Path, "open", counting_open)
    with pytest.raises(DocumentTooLargeError, match=r"big\.md: 10000 bytes is more than the 1000 bytes"):
        verify_document(path, VerifyOptions(max_document_bytes=1000))
    assert sizes == [1001]


def test_the_cli_refuses_a_too_large_document_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.md"
    path.write_text("$$a = " + "1+" * 2_500_000 + "1$$\n", encoding="utf-8")  # 5 MB
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"symattn: error: {path}: 5000010 bytes is more than the 4000000 bytes")


# --- item 4: the scalar path is bounded without the worker ------------------------------


@pytest.fixture
def integer_bits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The bit length of every SymPy Integer made while the test runs."""
    bits: list[int] = []
    original = sympy.Integer.__new__

    def recording(cls, i):
        value = original(cls, i)
        if isinstance(value, sympy.Integer):
            bits.append(int(value).bit_length())
        return value

    monkeypatch.setattr(sympy.Integer, "__new__", recording)
    yield bits


@pytest.mark.parametrize(
    "formula",
    [
        pytest.param(r"\ln(10^{10^{5}})", id="power-tower"),
        pytest.param(r"e^{10^{5} \ln 2}", id="exp-of-log"),
        pytest.param(r"\sqrt{2}^{10^{5}}", id="irrational-base"),
        pytest.param(r"\ln(5000!)", id="factorial"),
    ],
)
def test_scalar_latex_refuses_huge_values_before_building_them(formula: str, integer_bits: list[int]) -> None:
    with pytest.raises(ValueTooLargeError):
        scalar_latex(formula)
    assert max(integer_bits, default=0) <= MAX_POWER_BITS


def test_scalar_value_checks_powers_of_the_documents_values(integer_bits: list[int]) -> None:
    with pytest.raises(
        ValueTooLargeError, match=r"d\^\{10\^\{5\}\}: 2\^100000 is too large to build exactly"
    ):
        scalar_value(r"d^{10^{5}}", {"d": sympy.Integer(2)})
    assert max(integer_bits, default=0) <= MAX_POWER_BITS
    assert scalar_value(r"\ln(d^{3})", {"d": sympy.Integer(2)}) == (sympy.log(8), {"d"})


def test_the_audit_document_is_bounded_without_the_worker(integer_bits: list[int]) -> None:
    report = verify_text("$$f = \\ln(10^{10^{9}}) = 1$$\n" * 40, options=VerifyOptions(use_worker=False))
    assert len(report.findings) == 40 * 4
    assert {(f.claimed, f.kind) for f in report.findings} == {
        ("10", "bad-input"),
        ("9", "bad-input"),
        ("1", "unverifiable"),  # compared with the refused value
    }
    assert report.findings[0].reason == "\\ln(10^{10^{9}}): 10^1000000000 is too large to build exactly"
    assert max(integer_bits, default=0) <= MAX_POWER_BITS


def test_cli_time_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.md"
    path.write_text("$$a = 2$$\n\n$$b = a + 1 = 3$$\n", encoding="utf-8")
    assert cli.main(["verify", str(path), "--timeout", "0"]) == 0
    assert "took longer than 0 s (1 number)" in capsys.readouterr().out
    assert cli.main(["verify", str(path), "--budget", "0"]) == 0
    assert "the time for the document ran out (2 numbers)" in capsys.readouterr().out
    assert cli.main(["verify", str(path), "--timeout", "30", "--budget", "60"]) == 0
    assert "1 ok, 0 wrong" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["verify", str(path), "--timeout", "-1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seconds must be between 0 and 86400, got -1" in err


# --- item 5: safe mode ---------------------------------------------------------------------

SMALL = "$$a = 2$$\n\n$$b = a + 1 = 4$$\n\n$$c = \\ln(1) + b = 3$$\n"


def _summary(text: str) -> tuple:
    report = verify_text(text)
    return tuple((f.line, f.column, f.claimed, f.kind, f.reason) for f in report.findings)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_verify_inside_a_pool_worker_runs_in_safe_mode(method: str) -> None:
    with multiprocessing.get_context(method).Pool(1) as pool:
        inside = pool.apply(_summary, (SMALL,))
        reason = pool.apply(document_module.safe_mode_reason, (VerifyOptions(),))
    assert inside == _summary(SMALL)
    assert reason == "a daemonic process (such as a multiprocessing.Pool worker) cannot have children"


def test_a_chosen_start_method_other_than_fork_means_safe_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    forked = []
    monkeypatch.setattr(document_module._Worker, "__init__", lambda self, env: forked.append(env))
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "spawn")
    assert document_module.safe_mode_reason(VerifyOptions()) == "the program chose the 'spawn' start method"
    assert verify_text(SMALL).summary == {"claims": 5, "ok": 1, "wrong": 1, "unverified": 3}
    assert forked == []


def test_safe_mode_starts_no_formula_after_the_budget() -> None:
    report = verify_text(SMALL, options=VerifyOptions(use_worker=False, budget=0))
    assert [(f.line, f.reason) for f in report.findings] == [
        (1, "not checked: the time for the document ran out (1 number)"),
        (3, "not checked: the time for the document ran out (2 numbers)"),
        (5, "not checked: the time for the document ran out (2 numbers)"),
    ]


# --- item 6: paths and text ---------------------------------------------------------------


def test_verify_text_never_touches_the_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("$$p = 1 + 1 = 3$$\n", encoding="utf-8")
    verify_text("$$x = 1$$\n", options=VerifyOptions(use_worker=False))  # imports done beforehand

    touched = []

    def refuse(*args, **kwargs):
        touched.append(args)
        raise PermissionError("verify_text must not touch the file system")

    with monkeypatch.context() as patch:
        for owner, name in [
            (os, "stat"),
            (os, "open"),
            (Path, "is_file"),
            (Path, "open"),
            (Path, "read_bytes"),
        ]:
            patch.setattr(owner, name, refuse)
        try:
            report = verify_text(str(secret), options=VerifyOptions(use_worker=False))
        except Exception as err:  # reported below, once the file system is back
            report = err
    assert touched == []
    assert (report.document, report.findings) == ("<text>", ())


def test_text_that_looks_like_no_math_or_like_a_path() -> None:
    assert verify_text(r"\(x = 2\)").summary["claims"] == 1
    assert verify_text("$x = 1 + 1 = 2$", name="note").document == "note"
    with pytest.raises(MissingFileError, match=r"^\\\(x = 2\\\): no such file$"):
        verify_document(r"\(x = 2\)")
    with pytest.raises(MissingFileError, match=r"to check text, call verify_text"):
        verify_document("$$x = 1$$\n\n$$y = 2$$\n")
    with pytest.raises(TypeError, match="verify_document takes a path"):
        verify_document(b"doc.md")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="verify_text takes the document as a str"):
        verify_text(Path("doc.md"))  # type: ignore[arg-type]


def test_tex_is_chosen_by_the_caller_for_text_and_by_the_suffix_for_files(tmp_path: Path) -> None:
    tex = "\\begin{document}\n\\[ z = 1 + 1 = 3 \\]\n\\end{document}\n"
    assert verify_text(tex, tex=True).summary["wrong"] == 1
    assert verify_text(tex).summary["wrong"] == 1  # Markdown reads \[ ... \] too
    assert verify_text("% $$q = 1 = 5$$\n\\begin{document}\\end{document}", tex=True).findings == ()
    path = tmp_path / "paper.tex"
    path.write_text(tex, encoding="utf-8")
    assert verify_document(path).summary["wrong"] == 1
    assert symattn.verify_text is verify_text and "verify_text" in symattn.__all__


# --- item 8: output files -----------------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_respects_the_umask(tmp_path: Path, umask: None, mask: int, mode: int) -> None:
    os.umask(mask)
    files.write_atomically(tmp_path / "new.md", "hello\n")
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == mode


def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask: None) -> None:
    path = tmp_path / "old.md"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    files.write_atomically(path, "new\n")
    assert (stat.S_IMODE(path.stat().st_mode), path.read_text(encoding="utf-8")) == (0o640, "new\n")


def test_a_symlink_given_as_output_is_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "real" / "report.txt"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    doc = tmp_path / "doc.md"
    doc.write_text("$$a = 1 + 1 = 2$$\n", encoding="utf-8")
    assert cli.main(["verify", str(doc), "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "1 ok" in real.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["doc.md", "link.txt", "real", "report.txt"]


#: A writer killed between writing its temporary file and renaming it.
KILLED_WRITER = textwrap.dedent(
    """
    import os, sys, threading
    from symattn import files

    def stuck(src, dst):
        print("written", flush=True)
        threading.Event().wait()

    os.replace = stuck
    files.write_atomically(sys.argv[1], "partial\\n")
    """
)


def test_a_temporary_file_left_by_a_killed_writer_is_named_and_removed_next_time(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline() == "written\n"
    proc.kill()
    proc.wait(timeout=60)
    proc.stdout.close()
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(f".out.md.{proc.pid}.") and left[0].endswith(".symattn-tmp")
    assert files.stale_temporaries(target) == [tmp_path / left[0]]
    files.write_atomically(target, "whole\n")
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]
    assert target.read_text(encoding="utf-8") == "whole\n"


def test_a_live_writers_temporary_file_is_kept(tmp_path: Path) -> None:
    live = tmp_path / f".out.md.{os.getppid()}.abcd1234.symattn-tmp"  # our parent runs
    live.write_text("x", encoding="utf-8")
    files.write_atomically(tmp_path / "out.md", "whole\n")
    assert live.exists()


# --- load: threads and a process pool together ---------------------------------------------


def _load_document(k: int) -> str:
    """A small document whose true values come from fractions; some are planted wrong."""
    a, b = Fraction(k % 7 + 1), Fraction(k % 5 + 2, 4)
    total = a + b
    product = a * b
    planted = k % 3 == 0
    lines = [
        f"# Document {k}",
        f"$$a = {a}$$",
        f"$$b = \\frac{{{b.numerator}}}{{{b.denominator}}}$$",
        f"$$s = a + b = {float(total) + (1 if planted else 0):.4f}$$",
        f"$$p = a b = {float(product):.4f}$$",
        f"$$X = \\begin{{bmatrix}} 1 & {k % 4} \\\\ 0 & 1 \\end{{bmatrix}}, \\quad X X = "
        f"\\begin{{bmatrix}} 1 & {2 * (k % 4)} \\\\ 0 & 1 \\end{{bmatrix}}$$",
    ]
    return "\n\n".join(lines) + "\n"


def _findings_of(path: str) -> tuple:
    report = verify_document(path)
    return (
        report.exit_code,
        tuple((f.line, f.column, f.claimed, f.status, f.kind, f.reason) for f in report.findings),
    )


def _others_with(token: str) -> list[str]:
    """``ps`` lines of live processes (other than this one) whose environment has ``token``."""
    out = subprocess.run(
        ["ps", "-e", "-o", "pid=,stat=,args="], check=False, capture_output=True, text=True
    ).stdout
    found = []
    for line in out.splitlines():
        pid, state, *_ = line.split(None, 2)
        if int(pid) == os.getpid() or state.startswith("Z"):
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if token.encode() in environ:
            found.append(line)
    return found


@pytest.mark.skipif(not LINUX, reason="reads /proc/PID/environ to find this test's processes")
def test_four_threads_and_a_two_process_pool_give_the_serial_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = []
    for k in range(100):
        path = tmp_path / f"doc{k:03}.md"
        path.write_text(_load_document(k), encoding="utf-8")
        paths.append(str(path))
    serial = [_findings_of(p) for p in paths]
    assert sum(code for code, _ in serial) == 34  # planted in k = 0, 3, ..., 99
    assert all(len(f) == 13 for _, f in serial)

    token = f"symattn-load-{uuid.uuid4().hex}"
    monkeypatch.setenv("SYMATTN_LOAD_TEST", token)  # every child inherits it
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pooled = pool.map_async(_findings_of, paths, chunksize=5)
        with ThreadPoolExecutor(4) as threads:
            threaded = list(threads.map(_findings_of, paths))
        pooled_results = pooled.get(timeout=600)
    assert threaded == serial
    assert pooled_results == serial
    assert _others_with(token) == []
