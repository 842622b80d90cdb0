"""Certified attention through the public API, beside the internal path, in paired ratios to numpy.

    python benchmarks/public_api.py            # print the section
    python benchmarks/public_api.py --record   # also write it into benchmarks/RESULTS.md

What a user calls: ``symattn.attention(X, W_Q, W_K, W_V).decimals("output", 30)`` with Python
lists (ints or Fractions), n = 512, d = 64.  Beside it, the internal path the main table
measures, from exact ``fmpq_mat`` inputs to the same decimals
(``numeric.attention_decimals`` on ``numeric.exact_products``).  Each run is followed at once
by numpy float64 on the same case (the median of NUMPY_CALLS calls); the ratio is taken per
pair and the median of RUNS pairs is reported.  Three input kinds:

* ``int``: integers in [-3, 3] (benchmarks/inputs.py);
* ``rat``: p/q with q <= 10, |p| <= 10 (benchmarks/inputs.py);
* ``dense``: X = p/q with q <= 10, W_Q, W_K, W_V in {-1/8, 0, 1/8}: every weight of a row
  counts (a dense softmax).

Also: the first call in a fresh process against the second (a subprocess that imports numpy
and ``from symattn import attention`` before timing), and where the public path's time goes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import sympy  # noqa: E402

from benchmarks.inputs import make_case  # noqa: E402
from benchmarks.numpy_ref import attention_float64  # noqa: E402
from benchmarks.results import write_section  # noqa: E402
from symattn import attention, numeric  # noqa: E402
from symattn.exact import rational_matrix  # noqa: E402

BEGIN, END = "<!-- public-api: begin -->", "<!-- public-api: end -->"
N, D, PLACES = 512, 64, 30
RUNS = 5
NUMPY_CALLS = 5
KINDS = ("int", "rat", "dense")
GOALS = {"int": 25, "rat": None, "dense": 40}  # the bounds on the public path's ratio


def case(kind: str, n: int = N, d: int = D) -> tuple[list[list[object]], ...]:
    """The inputs as a user passes them: lists of ints (int) or Fractions."""
    if kind == "dense":
        rng = random.Random(f"dense-{n}-{d}")
        X = [[Fraction(rng.randint(-10, 10), rng.randint(1, 10)) for _ in range(d)] for _ in range(n)]

        def eighths() -> list[list[Fraction]]:
            return [[Fraction(rng.choice((-1, 0, 1)), 8) for _ in range(d)] for _ in range(d)]

        return X, eighths(), eighths(), eighths()
    made = make_case(kind, n, d, d)
    matrices = (made.X, made.W_Q, made.W_K, made.W_V)
    if kind == "int":
        return tuple([[int(x) for x in row] for row in m] for m in matrices)
    return matrices


def public(inputs: tuple) -> list[list[str]]:
    return attention(*inputs).decimals("output", PLACES)


def internal(flint_inputs: tuple) -> list[list[str]]:
    scores, V = numeric.exact_products(*flint_inputs)
    factor = 1 / sympy.sqrt(flint_inputs[1].ncols())
    return numeric.attention_decimals(scores, factor, None, V, PLACES, want=("output",))["output"]


def paired(run, arrays: tuple) -> tuple[float, float, float]:
    """(median seconds, median numpy seconds, median paired ratio) over RUNS pairs, after a warm-up."""
    run()
    ours, theirs, ratios = [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        spent = time.perf_counter() - start
        calls = []
        for _ in range(NUMPY_CALLS):
            start = time.perf_counter()
            attention_float64(*arrays)
            calls.append(time.perf_counter() - start)
        numpy_time = statistics.median(calls)
        ours.append(spent)
        theirs.append(numpy_time)
        ratios.append(spent / numpy_time)
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


def phases(inputs: tuple) -> list[tuple[str, float]]:
    """Where the public path's time goes: the median of RUNS rounds of each step."""
    steps: dict[str, list[float]] = {}
    for _ in range(RUNS + 1):
        marks = [time.perf_counter()]
        att = attention(*inputs)
        marks.append(time.perf_counter())
        scores, V = att._flint_products
        marks.append(time.perf_counter())
        balls = numeric._row_balls(
            scores,
            att.factor,
            None,
            V,
            max(128, int(PLACES * 3.33) + 40),
            rows=list(range(scores.nrows())),
            weights=False,  # as .decimals("output", …) asks at this size
        )
        marks.append(time.perf_counter())
        numeric._decide_rows(balls, "output", numeric.Rounder.make(PLACES))
        marks.append(time.perf_counter())
        names = (
            "read the inputs (`attention()`: integers over a common denominator, no SymPy or python-flint object per entry)",
            "the scores and values as products still to form (`numeric.integer_products`)",
            "exact products in numpy, then the enclosures of every output, no weights (`numeric._row_balls`)",
            f"every output's {PLACES}-place decimal, decided and formatted in bulk",
        )
        for name, a, b in zip(names, marks, marks[1:], strict=False):
            steps.setdefault(name, []).append(b - a)
    return [(name, statistics.median(times[1:])) for name, times in steps.items()]


_FIRST = """
import os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, {root!r})
import numpy
from benchmarks.public_api import case
inputs = case({kind!r})
from symattn import attention
times = []
for _ in range(2):
    start = time.perf_counter()
    attention(*inputs).decimals("output", {places})
    times.append(time.perf_counter() - start)
print(times[0], times[1])
"""


def first_and_second(kind: str) -> tuple[float, float]:
    """Seconds of the first and the second call in a fresh process (imports done before)."""
    code = _FIRST.format(root=str(ROOT), kind=kind, places=PLACES)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    first, second = (float(x) for x in out.split())
    return first, second


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report() -> list[str]:
    load_start = os.getloadavg()[0]
    lines = [
        "| inputs | public path | internal path | numpy float64 | public / numpy | internal / numpy | goal |",
        "|---|---|---|---|---|---|---|",
    ]
    same = True
    for kind in KINDS:
        inputs = case(kind)
        flint_inputs = tuple(rational_matrix(m, name="M") for m in inputs)
        arrays = tuple(np.array([[float(x) for x in row] for row in m]) for m in inputs)
        same &= public(inputs) == internal(flint_inputs)
        pub, numpy_pub, ratio_pub = paired(lambda inputs=inputs: public(inputs), arrays)
        inn, _numpy_in, ratio_in = paired(lambda f=flint_inputs: internal(f), arrays)
        goal = GOALS[kind]
        lines.append(
            f"| `{kind}` | {ms(pub)} | {ms(inn)} | {ms(numpy_pub)} | {ratio_pub:.0f}× | {ratio_in:.0f}× | "
            + (f"≤ {goal}×: {'met' if ratio_pub <= goal else 'not met'} |" if goal else "– |")
        )
        print(lines[-1], flush=True)
    load = f"load average (1 min) {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, on {os.cpu_count()} CPUs"
    first = {kind: first_and_second(kind) for kind in ("int", "dense")}
    steps = phases(case("dense"))
    text = [
        "## Certified attention through the public API (issue 29)",
        "",
        f"Recorded by `python benchmarks/public_api.py --record` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"{load}. n = {N}, d_model = d_k = {D}, {PLACES} places. The public path is "
        f"`symattn.attention(X, W_Q, W_K, W_V).decimals('output', {PLACES})` on Python lists; the internal path "
        f"starts from fmpq_mat inputs (`numeric.exact_products`, then `numeric.attention_decimals`). Each figure "
        f"is the median of {RUNS} paired runs (each followed by numpy, the median of {NUMPY_CALLS} calls). "
        f"Both paths gave the same decimals, entry for entry: {'yes' if same else 'NO'}.",
        "",
        *lines,
        "",
        "First call in a fresh process (numpy and `from symattn import attention` imported before timing):",
        "",
        *[
            f"- `{kind}`: first {ms(a)}, second {ms(b)}, first / second {a / b:.2f} (goal ≤ 2)"
            for kind, (a, b) in first.items()
        ],
        "",
        "Where the public path's time goes, `dense` (median of the rounds):",
        "",
        "| step | wall |",
        "|---|---|",
        *[f"| {name} | {ms(seconds)} |" for name, seconds in steps],
        "",
    ]
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write the section into benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    text = report()
    print("\n".join(text))
    if args.record:
        write_section("\n".join([BEGIN, *text, END]), BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
