"""Adversarial documents: every one is read in at most 10 s and 1 GB, or refused by a named limit.

    python benchmarks/adversarial.py            # every case once
    python benchmarks/adversarial.py --record   # also write its section of benchmarks/RESULTS.md
    python benchmarks/adversarial.py -k table   # only the cases whose name contains "table"

Each case is a document written to a temporary folder and checked by
``python -m symattn verify --format json DOC`` in a subprocess of a small
wrapper process, which reports the wall time, the CPU time and the peak RSS
(``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``: the largest of the
command and its per-formula worker) of that one run.  A case passes when the
run takes at most 10 s of wall time and 1 GB, prints no traceback, exits 0 or
1 (a large document is not bad input), and, for the cases the issue names,
reports one unverified finding whose reason names the limit that stopped it
(``symattn.limits.NAME``, or the verifier's ``max_formulas``).  The cases
after those are the worst documents found just under the limits: they are
read in full, and must stay within the same time and memory.

``--record`` replaces only the section between its own markers in RESULTS.md
(appending it the first time); the other sections are left as they are.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- adversarial: begin -->", "<!-- adversarial: end -->"
WALL_LIMIT = 10.0  # seconds
RSS_LIMIT = 1 << 30  # bytes

#: Runs ``python -m symattn verify --format json DOC`` and prints its wall, CPU, peak RSS, exit code
#: and output as one JSON line (a process of its own, so that RUSAGE_CHILDREN is this run's alone).
_WRAPPER = r"""
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run([sys.executable, "-m", "symattn", "verify", "--format", "json", sys.argv[1]],
                      capture_output=True, text=True, check=False)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss * 1024,
                  "code": done.returncode, "out": done.stdout, "err": done.stderr}))
"""


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    suffix: str
    make: Callable[[], str]
    limit: str | None  # the limit whose name the one finding must give; None: read in full


def _table(rows: int, columns: int = 2) -> str:
    header = "| " + " | ".join(f"c{k}" for k in range(columns)) + " |\n"
    rule = "|" + "---|" * columns + "\n"
    body = "".join(
        "| " + " | ".join(f"0.{(i + k) % 10}" for k in range(columns)) + " |\n" for i in range(rows)
    )
    return "Attention weights:\n\n" + header + rule + body


def _formulas(count: int, per_line: int = 10) -> str:
    lines = []
    for start in range(0, count, per_line):
        lines.append(" ".join(f"$x_{{{k}}} = {k % 7}$" for k in range(start, min(count, start + per_line))))
    return "\n".join(lines) + "\n"


def _big_formula(rows: int = 4_400, columns: int = 100) -> str:
    body = " \\\\\n".join(" & ".join("0.1234" for _ in range(columns)) for _ in range(rows))
    return "$$A = \\begin{bmatrix}\n" + body + "\n\\end{bmatrix}$$\n"


def _lines(piece: str, total: int, width: int = 200_000) -> str:
    """``piece`` repeated to ``total`` characters, in lines of at most ``width``."""
    text = piece * (total // len(piece))
    return "\n".join(text[k : k + width] for k in range(0, len(text), width)) + "\n"


CASES = [
    # the documents of the issue
    Case("brackets", "`[` × 10^6 on one line", ".md", lambda: "[" * 1_000_000 + "\n", "MAX_LINK_BRACKETS"),
    Case("table", "a table of 50,000 rows", ".md", lambda: _table(50_000), "MAX_TABLE_ROWS"),
    Case("formulas", "60,000 small formulas (`$x_{k} = 3$`, 10 a line)", ".md", lambda: _formulas(60_000), "MAX_FORMULAS"),
    Case("digits", "10^6 digits on one line", ".md", lambda: "1" * 1_000_000 + "\n", "MAX_LINE_CHARS"),
    Case("dots", "10^6 dots on one line", ".md", lambda: "." * 1_000_000 + "\n", "MAX_LINE_CHARS"),
    Case("pipes", "10^6 `|` on one line", ".md", lambda: "|" * 1_000_000 + "\n", "MAX_LINE_CHARS"),
    Case("backticks", "10^6 backticks on one line", ".md", lambda: "`" * 1_000_000 + "\n", "MAX_BACKTICKS"),
    Case("big-formula", "one formula of 3.9 MB (4,400 rows of 100 cells)", ".md", _big_formula, "MAX_MARKUP_CHARACTERS"),
    Case("digit-lines", "500,000 lines of `1` (one paragraph)", ".md", lambda: "1\n" * 500_000, "MAX_READ_LINES"),
    Case("image-brackets", "`![` × 500,000", ".md", lambda: "![" * 500_000 + "\n", "MAX_LINK_BRACKETS"),
    Case("inline-math", "975,000 formulas `$1$`", ".md", lambda: _lines("$1$ ", 3_900_000), "MAX_MARKUP_CHARACTERS"),
    Case("tex-lines", ".tex: 500,000 lines of `1`", ".tex", lambda: "\\begin{document}\n" + "1\n" * 500_000, "MAX_READ_LINES"),
    Case("tex-backslashes", ".tex: 3.9 MB of `\\`", ".tex", lambda: "\\begin{document}\n" + _lines("\\", 3_900_000), "MAX_MARKUP_CHARACTERS"),
    Case("tex-dollars", ".tex: 3.9 MB of `$1$ `", ".tex", lambda: "\\begin{document}\n" + _lines("$1$ ", 3_900_000), "MAX_MARKUP_CHARACTERS"),
    Case("tex-inline-math", ".tex: 975,000 formulas `$x$`", ".tex", lambda: "\\begin{document}\n" + _lines("$x$ ", 3_900_000), "MAX_MARKUP_CHARACTERS"),
    # just under the limits: read in full
    Case("u-lines", "19,998 lines of `1` (one paragraph)", ".md", lambda: "1\n" * 19_998, None),
    Case("u-table", "a table of 4,990 rows", ".md", lambda: _table(4_990), None),
    Case("u-wide-table", "a table of 49 rows of 999 columns", ".md", lambda: _table(47, 999), None),
    Case("u-table-cells", "a table of 4,990 rows of 9 columns", ".md", lambda: _table(4_990, 9), None),
    Case(
        "u-dash-rule",
        "an aligned table of 79,000 columns, 4 rows",
        ".md",
        lambda: "x    " * 79_000 + "\n" + "---  " * 79_000 + "\n" + ("1    " * 79_000 + "\n") * 4,
        None,
    ),
    Case("u-image-brackets", "`![` × 9,999", ".md", lambda: "![" * 9_999 + "\n", None),
    Case("u-backticks", "`` ` `` × 19,999, spaced", ".md", lambda: "` " * 19_999 + "\n", None),
    Case("u-backslashes", "399,999 `\\` in lines of 200,000", ".md", lambda: _lines("\\", 399_999), None),
    Case("u-equals", "`1=1 ` × 99,999 (400 KB)", ".md", lambda: _lines("1=1 ", 399_996), None),
    Case("u-lt", "399,999 `<`", ".md", lambda: _lines("<", 399_999), None),
    Case("u-words", "3.9 MB of prose words", ".md", lambda: _lines("the cat sat ", 3_900_000), None),
    Case("u-digits", "3.9 MB of digits and spaces", ".md", lambda: _lines("1 ", 3_900_000), None),
    Case("u-numbers", "3.9 MB of `0.5, `", ".md", lambda: _lines("0.5, ", 3_900_000), None),
    Case("u-tex-formulas", ".tex: 19,999 formulas `$x_{k} = 3$`", ".tex", lambda: "\\begin{document}\n" + _formulas(19_999), None),
    Case("u-formulas", "19,999 formulas `$x_{k} = 3$` and 80,000 `$x$`", ".md", lambda: _formulas(19_999) + _lines("$x$ ", 320_000), None),
    Case("u-tex-words", ".tex: 3.9 MB of prose words", ".tex", lambda: "\\begin{document}\n" + _lines("the cat sat ", 3_900_000), None),
]  # fmt: skip


def run_case(case: Case, folder: Path) -> dict:
    path = folder / f"{case.name}{case.suffix}"
    path.write_text(case.make(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, str(path)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    result = json.loads(done.stdout)
    result["bytes"] = path.stat().st_size
    report = json.loads(result["out"]) if result["out"].strip().startswith("{") else {"findings": []}
    findings = report.get("findings", [])
    result["findings"] = len(findings)
    named = [f for f in findings if f["status"] == "unverified" and case.limit and case.limit in f["reason"]]
    if case.limit == "max_formulas":  # the verifier's own limit, one finding per formula beyond it
        named = [f for f in findings if "too many formulas" in f["reason"]]
    result["reason"] = named[0]["reason"] if named else (findings[0]["reason"] if findings else "")
    result["checks"] = {
        "wall": result["wall"] <= WALL_LIMIT,
        "memory": result["rss"] <= RSS_LIMIT,
        "no traceback": "Traceback" not in result["err"],
        "exit 0/1": result["code"] in (0, 1),
        "limit named": bool(named) if case.limit else True,
    }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--record", action="store_true", help="write this section of RESULTS.md")
    parser.add_argument("-k", default="", help="only the cases whose name contains this")
    args = parser.parse_args(argv)
    cases = [case for case in CASES if args.k in case.name]
    load_start = os.getloadavg()[0]
    rows = []
    failed = []
    with tempfile.TemporaryDirectory(prefix="symattn-adversarial-") as temp:
        for case in cases:
            result = run_case(case, Path(temp))
            bad = [name for name, ok in result["checks"].items() if not ok]
            if bad:
                failed.append(f"{case.name}: {', '.join(bad)}")
            reason = result["reason"].replace("|", "\\|")
            if case.limit == "max_formulas":
                reason = f"{result['findings']:,} findings, the skipped ones: {reason}"
            rows.append(
                f"| {case.what} | {result['bytes'] / 1e6:.2f} MB | {result['wall']:.2f} s | {result['cpu']:.2f} s | "
                f"{result['rss'] / 2**20:.0f} MiB | {result['code']} | {reason or '–'} | {'yes' if not bad else 'NO: ' + ', '.join(bad)} |"
            )
            print(rows[-1], flush=True)
    load_end = os.getloadavg()[0]
    lines = [
        BEGIN,
        "## Adversarial documents: bounded reading",
        "",
        f"Recorded by `python benchmarks/adversarial.py --record` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average (1 min) {load_start:.2f} at the start, "
        f"{load_end:.2f} at the end.",
        "",
        "Each document is checked once by `python -m symattn verify --format json DOC` in a subprocess; "
        "peak RSS is `getrusage(RUSAGE_CHILDREN).ru_maxrss` of a wrapper process around that one run (the "
        "command or its per-formula worker, whichever is larger). Bounds: at most 10 s wall and 1 GB, no "
        "traceback, exit 0 or 1, and for the documents above the limits one unverified finding naming the "
        "limit (the reading limits of `symattn/limits.py`, checked before markdown-it sees the text; "
        "`symattn/verify/readers/bounds.py`). The rows from “19,998 lines” on are the worst documents found "
        "just under the limits, read in full.",
        "",
        "| document | size | wall | CPU | peak RSS | exit | the finding naming the limit | within bounds |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Before the reading limits (same machine, `symattn verify DOC`): `[` × 10^6 21 s, a table of 50,000 "
        "rows 5.5 s and 297 MB, 500,000 lines of `1` 29 s and 814 MB, `![` × 500,000 41 s, "
        "`$1$ ` × 975,000 over 100 s and 1.6 GB, 3.9 MB of `1=1 ` 19 s.",
        END,
    ]
    section = "\n".join(lines)
    print(section)
    if args.record:
        if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
            sys.path.insert(0, str(ROOT))
        from benchmarks.results import write_section

        write_section(section, BEGIN, END)
    if failed:
        print("outside the bounds: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
