"""A docs tree verified file by file (-j 1) and in a pool of two (-j 2).

    python benchmarks/docs_tree.py              # 200 documents, 3 runs each
    python benchmarks/docs_tree.py --record     # also write its section of benchmarks/RESULTS.md
    python benchmarks/docs_tree.py --snapshot   # run the committed symattn (git HEAD), not the work tree

The tree is made of copies of the corpus (tests/docs/*.md and *.tex), spread
over ten folders.  Each run is ``python -m symattn verify --format json -j N
TREE`` in a subprocess; the script checks that every run prints the same
combined report (byte for byte) and exits with the same code, and reports the
median wall time of each ``-j`` and their ratio.  ``--record`` replaces only
the section between its own markers in RESULTS.md (appending it the first
time); the other sections are left as they are.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- docs-tree: begin -->", "<!-- docs-tree: end -->"


def make_tree(target: Path, count: int) -> list[Path]:
    """``count`` copies of the corpus documents under ``target`` (ten folders)."""
    sources = sorted(p for p in (ROOT / "tests" / "docs").iterdir() if p.suffix in (".md", ".tex"))
    made = []
    for index in range(count):
        source = sources[index % len(sources)]
        folder = target / f"part{index % 10:02}"
        folder.mkdir(parents=True, exist_ok=True)
        copy = folder / f"{index:03}_{source.name}"
        shutil.copyfile(source, copy)
        made.append(copy)
    return made


def snapshot(target: Path) -> str:
    """Export the committed ``symattn`` package (git HEAD) to ``target``; return the commit."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    archive = subprocess.run(["git", "archive", "HEAD", "symattn"], cwd=ROOT, capture_output=True, check=True)
    target.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return commit


def run_once(tree: Path, jobs: int, code: Path | None) -> tuple[float, float, int, bytes]:
    """(wall seconds, CPU seconds of the reaped children, exit code, stdout) of one verify run."""
    env = dict(os.environ)
    if code is not None:  # the snapshot comes first on the path
        env["PYTHONPATH"] = str(code) + os.pathsep + env.get("PYTHONPATH", "")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "symattn", "verify", "--format", "json", "-j", str(jobs), str(tree)],
        capture_output=True,
        check=False,
        cwd=code or ROOT,
        env=env,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode == 2:
        raise SystemExit(f"verify failed: {done.stderr.decode(errors='replace').strip()}")
    return wall, cpu, done.returncode, done.stdout


def capacity(processes: int, seconds: float = 2.0) -> float:
    """CPU seconds per second that ``processes`` busy loops get right now (2 on an idle
    2-CPU machine): what a pool of that size could get at best."""
    before = os.times()
    start = time.monotonic()
    children = []
    for _ in range(processes):
        pid = os.fork()
        if pid == 0:  # a busy loop, no allocation
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                pass
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    after = os.times()
    used = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return used / (time.monotonic() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--docs", type=int, default=200, help="documents in the tree (default: 200)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per -j (default: 3)")
    parser.add_argument("--record", action="store_true", help="write this section of RESULTS.md")
    parser.add_argument(
        "--snapshot", action="store_true", help="run the committed symattn (git HEAD), not the work tree"
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="symattn-docs-tree-") as temp:
        tree = Path(temp) / "docs"
        make_tree(tree, args.docs)
        code = Path(temp) / "code" if args.snapshot else None
        source = f"the committed symattn at {snapshot(code)}" if code is not None else "the work tree"
        load_start = os.getloadavg()[0]
        times: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
        outputs: dict[bytes, list[str]] = {}
        codes: set[int] = set()
        spare: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.repeat):
            for processes in (1, 2):
                spare[processes].append(capacity(processes))
            for jobs in (1, 2):  # interleaved, so that a busy spell hits both
                wall, cpu, exit_code, out = run_once(tree, jobs, code)
                times[jobs].append((wall, cpu))
                outputs.setdefault(out.replace(temp.encode(), b"TREE"), []).append(f"-j {jobs}")
                codes.add(exit_code)
        load_end = os.getloadavg()[0]
    if len(outputs) != 1 or len(codes) != 1:
        for out, runs in outputs.items():
            report = json.loads(out)
            print(", ".join(runs), report["summary"], file=sys.stderr)
            skipped = [
                (entry["document"], f["line"], f["reason"])
                for entry in report["files"]
                for f in entry.get("findings", [])
                if f["kind"] == "skipped"
            ]
            print("  skipped:", skipped[:5], file=sys.stderr)
        raise SystemExit("the runs did not all give the same combined report")
    summary = json.loads(next(iter(outputs)))["summary"]
    wall = {jobs: statistics.median(w for w, _ in runs) for jobs, runs in times.items()}
    ratio = wall[1] / wall[2]
    lines = [
        BEGIN,
        "## Docs tree: `symattn verify -j 1` and `-j 2`",
        "",
        f"Recorded by `python benchmarks/docs_tree.py --record` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average (1 min) {load_start:.2f} "
        f"at the start, {load_end:.2f} at the end (the machine is shared: read the ratio).",
        "",
        f"{summary['files']} documents (copies of tests/docs, in ten folders), {source}, "
        f"`python -m symattn verify --format json -j N TREE` in a subprocess, median of {args.repeat} runs each, "
        "runs interleaved:",
        "",
        "| -j | wall (median) | wall (each run) |",
        "|---|---|---|",
        f"| 1 | {wall[1]:.2f} s | {', '.join(f'{w:.2f} s' for w, _ in times[1])} |",
        f"| 2 | {wall[2]:.2f} s | {', '.join(f'{w:.2f} s' for w, _ in times[2])} |",
        "",
        f"- `-j 2` is **{ratio:.2f}×** as fast as `-j 1`.",
        f"- What the machine gave at the time (before each pair of runs, busy loops for 2 s): one process "
        f"{statistics.median(spare[1]):.2f} CPU, two processes {statistics.median(spare[2]):.2f} CPU together "
        f"(medians; an idle 2-CPU machine gives 1.00 and 2.00), so at best "
        f"{statistics.median(spare[2]) / statistics.median(spare[1]):.2f}× from a second process.",
        f"- Every run printed the same combined report, byte for byte, and exited {codes.pop()}: "
        f"{summary['claims']} numbers, {summary['ok']} ok, {summary['wrong']} wrong, "
        f"{summary['unverified']} not checked, {summary['unreadable']} unreadable files.",
        END,
    ]
    section = "\n".join(lines)
    print(section)
    if args.record:
        if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
            sys.path.insert(0, str(ROOT))
        from benchmarks.results import write_section

        write_section(section, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
