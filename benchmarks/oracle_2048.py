"""symattn.oracle at a common kernel-test size: n = 2048 tokens, d = 128, float32 inputs.

    python benchmarks/oracle_2048.py              # print the figures
    python benchmarks/oracle_2048.py --record     # also write them into benchmarks/RESULTS.md
    python benchmarks/oracle_2048.py --n 512      # a smaller size (not recorded by default)

Q, K and V are float32 standard normal (seed 0), the scale is 1/sqrt(128), no
mask: a dense softmax where no exponential can be skipped.  "certified" is
``symattn.oracle.reference(Q, K, V)`` followed by ``to_numpy(float32)``: every
output correctly rounded to float32 and certified.  numpy float64 is the usual
max-shifted softmax on the same arrays cast to float64, with numpy's default
threads.  Peak memory is the whole process's VmHWM after the certified runs.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make `symattn` importable
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from symattn import oracle  # noqa: E402

BEGIN, END = "<!-- oracle-2048: begin -->", "<!-- oracle-2048: end -->"


def status_mib(field: str) -> float:
    """A field of /proc/self/status in MiB (VmHWM: the peak resident set)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def numpy_float64(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    scores = (Q @ K.T) / np.sqrt(Q.shape[1])
    scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ V


def certified(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, *, float_pass: bool = True
) -> tuple[oracle.Reference, np.ndarray, float, float, float]:
    """(ref, float32 output, reference seconds, to_numpy seconds, CPU seconds of both)."""
    cpu = time.process_time()
    start = time.perf_counter()
    ref = oracle.reference(Q, K, V, float_pass=float_pass)
    built = time.perf_counter()
    rounded = ref.to_numpy(np.float32)
    return ref, rounded, built - start, time.perf_counter() - built, time.process_time() - cpu


def arb_rows(ref: oracle.Reference) -> int:
    return sum(p > 0 for head in ref._heads for p in head.prec)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--runs", type=int, default=3, help="certified runs (the median is reported)")
    parser.add_argument("--record", action="store_true", help="write the section into benchmarks/RESULTS.md")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    Q, K, V = (rng.standard_normal((args.n, args.d)).astype(np.float32) for _ in range(3))
    wide = [a.astype(np.float64) for a in (Q, K, V)]
    load_start = os.getloadavg()[0]
    before = status_mib("VmRSS")

    totals, builds, roundings, numpy_times, cpus = [], [], [], [], []
    for _ in range(args.runs):  # paired: one certified run, then numpy float64 five times
        ref, rounded, build, rounding, cpu = certified(Q, K, V)
        cpus.append(cpu)
        builds.append(build)
        roundings.append(rounding)
        totals.append(build + rounding)
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            numpy_float64(*wide)
            runs.append(time.perf_counter() - start)
        numpy_times.append(statistics.median(runs))
    peak = status_mib("VmHWM")
    ratios = [t / s for t, s in zip(totals, numpy_times, strict=True)]
    rows_by_arb = arb_rows(ref)
    _, arb_only, arb_build, arb_rounding, arb_cpu = certified(Q, K, V, float_pass=False)
    same = bool((arb_only == rounded).all())
    peak_arb = status_mib("VmHWM")

    start = time.perf_counter()
    kernel = numpy_float64(*wide).astype(np.float32)  # float64 numpy, rounded once to float32
    report = oracle.compare(kernel, ref)
    compare_s = time.perf_counter() - start
    float32_kernel = oracle.compare(numpy_float64(Q, K, V), ref)  # the same formula run in float32
    agree = int((kernel == rounded).sum())
    load_end = os.getloadavg()[0]

    total = statistics.median(totals)
    lines = [
        f"## symattn.oracle at n = {args.n}, d = {args.d} (issue 15)",
        "",
        f"Recorded by `python benchmarks/oracle_2048.py{' --record' if args.record else ''}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; python {sys.version.split()[0]}, numpy "
        f"{np.__version__}, {os.cpu_count()} CPUs, load average (1 min) {load_start:.2f} at the start, "
        f"{load_end:.2f} at the end (the machine is shared).",
        "",
        f"Q, K, V float32 standard normal ({args.n}×{args.d} each, seed 0), scale 1/sqrt({args.d}), no mask "
        "(a dense softmax: every exponential is evaluated). Certified = `oracle.reference(Q, K, V)` + "
        "`.to_numpy(float32)` (every output correctly rounded and certified); numpy = max-shifted float64 "
        "softmax attention on the same arrays (default threads). Medians of "
        f"{args.runs} paired runs.",
        "",
        f"- certified: **{total:.2f} s** wall, {statistics.median(cpus):.2f} s CPU (reference "
        f"{statistics.median(builds):.2f} s, to_numpy(float32) {statistics.median(roundings):.2f} s; each run: "
        f"{', '.join(f'{t:.2f}' for t in totals)} s); target ≤ 10 s: "
        + ("**met**" if total <= 10 else f"**not met**: {total - 10:.2f} s over"),
        f"- where the time goes: the float64 pass (`symattn/float_bounds.py`) decides all but "
        f"{rows_by_arb} of the {args.n} rows, which to_numpy recomputes with arb balls",
        f"- arb for every row (`float_pass=False`, one run): {arb_build + arb_rounding:.2f} s wall, "
        f"{arb_cpu:.2f} s CPU (reference {arb_build:.2f} s, to_numpy {arb_rounding:.2f} s); the same float32 "
        f"output: {'yes' if same else 'NO'}",
        f"- numpy float64: {statistics.median(numpy_times) * 1000:.1f} ms; ratio certified / numpy: "
        f"median {statistics.median(ratios):.0f}× ({', '.join(f'{r:.0f}' for r in ratios)})",
        f"- peak memory (VmHWM of the whole process): {peak:.0f} MiB, {before:.0f} MiB resident before the "
        f"first run, {peak_arb:.0f} MiB after the arb-only run; target < 2 GB: "
        + ("**met**" if peak_arb < 2048 else f"**not met**: {peak_arb - 2048:.0f} MiB over"),
        f"- `oracle.compare` of numpy float64 rounded to float32: {compare_s:.2f} s; it equals the certified "
        f"float32 on {agree:,} of {kernel.size:,} entries; max {report.max_ulps:.2f} ulps (float32)",
        f"- the same formula run in float32 by numpy: max abs error {float32_kernel.max_abs_error:.2e} at "
        f"{float32_kernel.worst_index}, max rel error {float32_kernel.max_rel_error:.2e}, max "
        f"{float32_kernel.max_ulps:.3g} ulps (float32; huge where the true value is near 0) at "
        f"{float32_kernel.worst_ulps_index}",
    ]
    print("\n".join(lines))
    if args.record:
        path = ROOT / "benchmarks" / "RESULTS.md"
        old = path.read_text(encoding="utf-8")
        block = f"{BEGIN}\n" + "\n".join(lines) + f"\n{END}"
        pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
        new = (
            pattern.sub(lambda _: block, old)
            if pattern.search(old)
            else old.rstrip("\n") + "\n\n" + block + "\n"
        )
        path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
