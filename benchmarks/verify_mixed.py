"""Verify of one mixed-notation document of 300+ formulas, and how reading grows with size.

    python benchmarks/verify_mixed.py            # print the figures
    python benchmarks/verify_mixed.py --record   # also write its section of benchmarks/RESULTS.md

The document is built deterministically (a seeded generator): examples of
two-token attention, each written the way posts mix notations: ``$$…$$``
matrices, inline ``$…$`` dot products, plain-text lines (``q1 · k2 = 1*0 +
2*1 = 2``), a Python block and its NumPy printout, and a pipe table of the
weights.  Every number it prints is computed here, exactly (integers) or to
30 digits with :mod:`decimal` (square roots, exponentials), then rounded.

Reported (issue 8, "Speed"):

* ``symattn.verify.verify_text`` on the document: the first run in a fresh
  process (it imports SymPy), then the median of 3 more runs in the same process;
* ``symattn.verify.readers.find_math`` alone on the document repeated n, 2n,
  4n and 8n times (median of 3 each), with the ratio of each time to the one
  before: a reader that is linear in the document's size gives about 2.

A benchmark reports; it does not assert.  It exits non-zero only on an
error.  ``--record`` replaces only the section between its own markers in
RESULTS.md (appending it the first time).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- verify-mixed: begin -->", "<!-- verify-mixed: end -->"
TOKENS = ("the", "cat", "sat", "on", "mat", "a", "dog", "ran")

#: Examples in the benchmark document (each gives 16 formulas).
EXAMPLES = 20


def _round(value: Decimal, places: int) -> str:
    return str(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def _softmax(row: list[Decimal]) -> list[Decimal]:
    top = max(row)
    exps = [(x - top).exp() for x in row]
    total = sum(exps)
    return [e / total for e in exps]


def _bmatrix(rows: list[list[str]]) -> str:
    return r"\begin{bmatrix} " + r" \\ ".join(" & ".join(r) for r in rows) + r" \end{bmatrix}"


def example(k: int) -> str:
    """Example ``k`` of the document: two tokens, d_k = 2, in five notations."""
    rng = random.Random(1000 + k)
    q = [[rng.randint(0, 3) for _ in range(2)] for _ in range(2)]
    kk = [[rng.randint(0, 3) for _ in range(2)] for _ in range(2)]
    v = [[rng.randint(0, 4) for _ in range(2)] for _ in range(2)]
    names = rng.sample(TOKENS, 2)
    scores = [[sum(a * b for a, b in zip(qi, kj, strict=True)) for kj in kk] for qi in q]
    with localcontext() as ctx:
        ctx.prec = 30
        root = Decimal(2).sqrt()
        scaled = [[Decimal(s) / root for s in row] for row in scores]
        weights = [_softmax(row) for row in scaled]
        output = [[sum(w * v[j][c] for j, w in enumerate(row)) for c in range(2)] for row in weights]
    ints = lambda m: [[str(x) for x in row] for row in m]  # noqa: E731
    dec = lambda m, p: [[_round(x, p) for x in row] for row in m]  # noqa: E731
    lines = [
        f"## Example {k + 1}: “{names[0]} {names[1]}”",
        "",
        f"Let the two tokens “{names[0]}” and “{names[1]}” have queries, keys and values",
        "",
        f"$$Q = {_bmatrix(ints(q))}$$",
        "",
        f"$$K = {_bmatrix(ints(kk))}$$",
        "",
        f"$$V = {_bmatrix(ints(v))}$$",
        "",
        f"and $d_k = 2$. The first score is $q_1 \\cdot k_1 = {scores[0][0]}$, and by hand:",
        "",
        f"- q1 · k2 = {q[0][0]}*{kk[1][0]} + {q[0][1]}*{kk[1][1]} = {scores[0][1]}",
        f"- q2 · k1 = {q[1][0]}×{kk[0][0]} + {q[1][1]}×{kk[0][1]} = {scores[1][0]}",
        "",
        f"$$QK^T = {_bmatrix(ints(scores))}$$",
        "",
        f"$$\\frac{{QK^T}}{{\\sqrt{{d_k}}}} \\approx {_bmatrix(dec(scaled, 4))}$$",
        "",
        "In NumPy:",
        "",
        "```python",
        "import numpy as np",
        "",
        f"Q = np.array({q})",
        f"K = np.array({kk})",
        f"V = np.array({v})",
        "weights = softmax(Q @ K.T / np.sqrt(2))",
        "print(weights)",
        "```",
        "",
        "```",
        "[[" + " ".join(_round(x, 4) for x in weights[0]) + "]",
        " [" + " ".join(_round(x, 4) for x in weights[1]) + "]]",
        "```",
        "",
        "The attention weights:",
        "",
        f"| token | {names[0]} | {names[1]} |",
        "|---|---|---|",
        f"| {names[0]} | {_round(weights[0][0], 4)} | {_round(weights[0][1], 4)} |",
        f"| {names[1]} | {_round(weights[1][0], 4)} | {_round(weights[1][1], 4)} |",
        "",
        f"$$\\text{{softmax}}\\left(\\frac{{QK^T}}{{\\sqrt{{d_k}}}}\\right) V \\approx {_bmatrix(dec(output, 4))}$$",
        "",
    ]
    return "\n".join(lines)


def document(examples: int = EXAMPLES) -> str:
    """The benchmark document: ``examples`` examples, and a title."""
    parts = ["# Attention, worked by hand, in code and in tables", ""]
    parts.extend(example(k) for k in range(examples))
    return "\n".join(parts)


def _median_time(call, runs: int = 3) -> tuple[float, list[float], object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times, result


def measure(examples: int = EXAMPLES) -> dict:
    """Every figure of the benchmark (imports symattn here, so that the first run is cold)."""
    text = document(examples)
    figures: dict = {"load_start": os.getloadavg()[0], "bytes": len(text.encode("utf-8"))}
    start = time.perf_counter()
    from symattn.verify import VerifyOptions, verify_text
    from symattn.verify.readers import find_math

    first = verify_text(text, name="mixed.md")
    figures["cold"] = time.perf_counter() - start
    figures["sympy_in_parent"] = "sympy" in sys.modules
    figures["warm"], figures["warm_runs"], report = _median_time(lambda: verify_text(text, name="mixed.md"))
    safe = VerifyOptions(use_worker=False)
    start = time.perf_counter()
    safe_report = verify_text(text, name="mixed.md", options=safe)
    figures["safe_cold"] = time.perf_counter() - start
    figures["safe"], figures["safe_runs"], _ = _median_time(
        lambda: verify_text(text, name="mixed.md", options=safe)
    )
    figures["hot"], figures["hot_runs"], hot_report = _median_time(lambda: verify_text(text, name="mixed.md"))
    if not (report.findings == first.findings == safe_report.findings == hot_report.findings):
        raise RuntimeError("verify gave different findings on the same document")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mixed.md"
        path.write_text(text, encoding="utf-8")
        command = [sys.executable, "-m", "symattn", "verify", str(path)]
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        runs = []
        for _ in range(3):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
            runs.append(time.perf_counter() - start)
            if done.returncode not in (0, 1):
                raise RuntimeError(f"symattn verify exited {done.returncode}: {done.stderr.decode()[-500:]}")
        figures["cli"], figures["cli_runs"] = statistics.median(runs), runs
    spans = find_math(text, tex=False)
    figures["formulas"] = sum(1 for s in spans if s.reader != "scope")
    figures["by_reader"] = {
        r: sum(1 for s in spans if s.reader == r) for r in sorted({s.reader for s in spans} - {"scope"})
    }
    figures["summary"] = report.summary
    figures["exit_code"] = report.exit_code
    kinds: dict[str, int] = {}
    for finding in report.findings:
        kinds[str(finding.kind)] = kinds.get(str(finding.kind), 0) + 1
    figures["kinds"] = dict(sorted(kinds.items()))
    figures["wrong"] = [f for f in report.findings if f.status == "wrong"][:5]
    scaling = []
    for factor in (1, 2, 4, 8):
        big = "\n".join([text] * factor)
        walls, cpus = [], []
        for _ in range(3):
            wall, cpu = time.perf_counter(), time.process_time()
            found = find_math(big, tex=False)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        count = sum(1 for s in found if s.reader != "scope")
        scaling.append((factor, len(big), count, statistics.median(walls), statistics.median(cpus)))
    figures["scaling"] = scaling
    figures["load_end"] = os.getloadavg()[0]
    return figures


def section(figures: dict, command: str) -> str:
    """The RESULTS.md section for ``figures``."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    target = 2.0
    warm = figures["warm"]
    lines = [
        BEGIN,
        "## Mixed-notation verify: 300+ formulas (issue 8, Speed)",
        "",
        f"Recorded by `{command}` on {when}; python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load average (1 min) {figures['load_start']:.2f} at the start, {figures['load_end']:.2f} at the end "
        "(the machine is shared).",
        "",
        f"One Markdown document of {EXAMPLES} two-token examples ({figures['bytes']:,} bytes), built by the "
        f"script: {figures['formulas']} formulas read "
        f"({', '.join(f'{r} {c}' for r, c in figures['by_reader'].items())}).",
        "",
        f"- `verify_text`, first run in this process (it imports symattn.verify; the forked worker "
        f"imports SymPy, the parent {'has' if figures['sympy_in_parent'] else 'has not'} after it): "
        f"{figures['cold']:.2f} s",
        f"- `verify_text`, median of the 3 runs after it: **{warm:.2f} s** "
        f"({', '.join(f'{t:.2f}' for t in figures['warm_runs'])} s); target ≤ {target:.0f} s: "
        f"**{'met' if warm <= target else 'not met'}**.  Each run forks a new worker, which imports "
        "SymPy again while the parent has not.",
        f"- safe mode (`VerifyOptions(use_worker=False)`, SymPy imported in the parent by its first run): "
        f"first {figures['safe_cold']:.2f} s, then median of 3 {figures['safe']:.2f} s "
        f"({', '.join(f'{t:.2f}' for t in figures['safe_runs'])} s)",
        f"- with the worker again, now that the parent holds SymPy (the fork inherits it): median of 3 "
        f"{figures['hot']:.2f} s ({', '.join(f'{t:.2f}' for t in figures['hot_runs'])} s)",
        f"- the CLI, `python -m symattn verify mixed.md` in a subprocess (start-up included): median of 3 "
        f"{figures['cli']:.2f} s ({', '.join(f'{t:.2f}' for t in figures['cli_runs'])} s)",
        "- the same findings in every run above (checked)",
        f"- findings: {figures['summary']}; kinds {figures['kinds']}; exit code {figures['exit_code']}",
        "",
        "`find_math` alone on the document repeated n, 2n, 4n, 8n times (median of 3; CPU time is "
        "the steadier figure on a shared machine; linear reading gives about 2.00 per doubling):",
        "",
        "| copies | characters | formulas | wall | × previous | CPU | × previous |",
        "|---|---|---|---|---|---|---|",
    ]
    previous: tuple[float, float] | None = None
    for factor, chars, count, wall, cpu in figures["scaling"]:
        wall_ratio = f"{wall / previous[0]:.2f}" if previous else "–"
        cpu_ratio = f"{cpu / previous[1]:.2f}" if previous else "–"
        lines.append(
            f"| {factor} | {chars:,} | {count:,} | {wall * 1000:.1f} ms | {wall_ratio} "
            f"| {cpu * 1000:.1f} ms | {cpu_ratio} |"
        )
        previous = (wall, cpu)
    lines.append(END)
    return "\n".join(lines)


def record(text: str) -> None:
    if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
        sys.path.insert(0, str(ROOT))
    from benchmarks.results import write_section

    write_section(text, BEGIN, END)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--record", action="store_true", help="write this section of RESULTS.md")
    args = parser.parse_args(argv)
    figures = measure()
    command = "python benchmarks/verify_mixed.py" + (" --record" if args.record else "")
    text = section(figures, command)
    print(text)
    for finding in figures["wrong"]:
        print(f"wrong on a correct document: {finding}", file=sys.stderr)
    if args.record:
        record(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
