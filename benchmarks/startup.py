"""Start-up wall time of the CLI and the modules its start-up imports."""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("sympy", "flint", "mpmath", "numpy", "gmpy2", "latex2sympy2_extended", "markdown_it", "antlr4")


def cli_command() -> list[str]:
    """``python -m symattn`` with this interpreter (the ``symattn`` script runs the same main)."""
    return [sys.executable, "-m", "symattn"]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def wall_time(args: list[str], runs: int = 5) -> tuple[float, int]:
    """Median wall time in seconds of running the CLI with ``args``, and its last exit code."""
    times, code = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([*cli_command(), *args], cwd=ROOT, env=_env(), capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        code = done.returncode
    return statistics.median(times), code


def heavy_imports(args: list[str]) -> dict[str, float]:
    """Cumulative import time (seconds) of each heavy top-level package the command loads.

    Uses ``python -X importtime``; an empty dict means start-up imports none of them.
    """
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "symattn", *args],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    found: dict[str, float] = {}
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)$", line)
        if match and match.group(3) in HEAVY:
            found[match.group(3)] = max(found.get(match.group(3), 0.0), int(match.group(1)) / 1e6)
    return found
