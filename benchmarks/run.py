"""symattn's certified path, naive SymPy and numpy float64, side by side in one run.

    python benchmarks/run.py            # the full run (a few minutes: naive SymPy at n = 32 is slow)
    python benchmarks/run.py --quick    # smaller sizes; naive SymPy only at n = 8
    python benchmarks/run.py --record   # also rewrite benchmarks/RESULTS.md

It prints a table of median times with ratios, checks in the same run that
numpy's float64 results lie in symattn's enclosures (up to float64 rounding),
times the CLI start-up and measures the peak memory of the n = 512 run.

The ratio to numpy is paired: each certified run is followed at once by
numpy on the same case (the median of NUMPY_CALLS calls), the ratio is taken
per pair, and the table shows the median of these ratios, so a change of
machine load during the run moves both sides of a ratio together.
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(
        _threads, "1"
    )  # numpy single-threaded, like symattn (and steadier on 2 shared cores)
if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` and `symattn` importable
    sys.path.insert(0, str(ROOT))

import flint  # noqa: E402
import numpy as np  # noqa: E402
import sympy  # noqa: E402

from benchmarks import startup  # noqa: E402
from benchmarks.certified import Check, certified_attention, check_numpy, fmpq_inputs  # noqa: E402
from benchmarks.inputs import make_case  # noqa: E402
from benchmarks.numpy_ref import attention_float64, case_arrays  # noqa: E402
from symattn import numeric  # noqa: E402
from symattn.numeric import DENSE_SHARE, attention_decimals, exact_products  # noqa: E402

REFERENCE_DOC = ROOT / "tests" / "docs" / "reference_zh.md"
NUMPY_CALLS = 5  # numpy calls after each certified run; their median is the pair's numpy time
SEED_DOC = Path("/work/shared/seed/000_353ac04a18db8a6f.txt")


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    label: str
    certified: float
    certified_cpu: float
    numpy: float
    naive: float | None  # seconds; None when not run
    naive_capped: bool
    check: Check
    ratios: tuple[float, ...]  # certified wall / numpy wall, one per paired run
    load: tuple[float, float]  # 1-minute load average before and after the paired runs
    numpy_cpu: float  # median CPU seconds of one numpy call (one BLAS thread)
    # paired ratios of the certified run followed by building the weights' python-flint balls
    # (FixedWeights.arb_mat); empty when the weights come back as an arb_mat already
    arb_ratios: tuple[float, ...] = ()

    @property
    def vs_numpy(self) -> float:
        """The median of the paired ratios (not the ratio of the medians)."""
        return statistics.median(self.ratios)

    @property
    def vs_naive(self) -> float | None:
        return None if self.naive is None else self.naive / self.certified


def median_time(function, runs: int) -> float:
    """Median wall time of ``function()`` over ``runs`` calls."""
    return median_times(function, runs)[0]


def median_times(function, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (this process) of ``function()`` over ``runs`` calls.

    CPU time is what the call would take on an idle machine (the code is
    single-threaded); wall time also counts waiting for the other processes.
    """
    walls, cpus = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return statistics.median(walls), statistics.median(cpus)


def interleaved_times(functions: dict[str, object], runs: int, *, warm_up: bool = True) -> dict[str, float]:
    """Median CPU seconds of each function, called in turn (one round calls each once, ``runs`` rounds),
    after one untimed round when ``warm_up``: a change of load, or of the process's memory,
    hits all of them alike."""
    if warm_up:
        for function in functions.values():
            function()
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(runs):
        for name, function in functions.items():
            start = time.process_time()
            function()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def paired_times(certified, numpy_call, runs: int) -> tuple[float, float, float, float, tuple[float, ...]]:
    """``runs`` pairs: one certified run, then NUMPY_CALLS numpy calls (their median).

    Returns:
        (median certified wall, median certified CPU, median numpy wall, median
        numpy CPU, the per-pair wall ratios).
    """
    walls, cpus, numpys, numpy_cpus, ratios = [], [], [], [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        certified()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
        calls, calls_cpu = [], []
        for _ in range(NUMPY_CALLS):
            start, start_cpu = time.perf_counter(), time.process_time()
            numpy_call()
            calls.append(time.perf_counter() - start)
            calls_cpu.append(time.process_time() - start_cpu)
        numpys.append(statistics.median(calls))
        numpy_cpus.append(statistics.median(calls_cpu))
        ratios.append(walls[-1] / numpys[-1])
    return (
        statistics.median(walls),
        statistics.median(cpus),
        statistics.median(numpys),
        statistics.median(numpy_cpus),
        tuple(ratios),
    )


def naive_time(kind: str, n: int, d_model: int, d_k: int, cap: float) -> tuple[float, bool]:
    """Seconds of the naive SymPy pipeline in a subprocess, or (cap, True) when it hit the cap."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "benchmarks.naive_sympy", kind, str(n), str(d_model), str(d_k), "30"]
    try:
        done = subprocess.run(
            args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=cap, check=True
        )
    except subprocess.TimeoutExpired:
        return cap, True
    return json.loads(done.stdout)["seconds"], False


def bench(kind: str, n: int, d_model: int, d_k: int, *, naive_cap: float | None) -> Row:
    case = make_case(kind, n, d_model, d_k)
    exact = fmpq_inputs(case)
    floats = case_arrays(case)
    runs = 7 if n >= 256 else 11
    attention_float64(*floats)  # warm numpy up before the first pair
    load_before = os.getloadavg()[0]
    certified, certified_cpu, numpy_s, numpy_cpu, ratios = paired_times(
        lambda: certified_attention(*exact), lambda: attention_float64(*floats), runs
    )
    load = (load_before, os.getloadavg()[0])
    weights, output = certified_attention(*exact)
    arb_ratios: tuple[float, ...] = ()
    if isinstance(weights, numeric.FixedWeights):  # the same pairs, the weights' arb_mat built as well

        def with_arb_mat():
            return certified_attention(*exact)[0].arb_mat()

        arb_ratios = paired_times(with_arb_mat, lambda: attention_float64(*floats), runs)[4]
    np_weights, np_output = attention_float64(*floats)
    V_abs_max = np.abs(floats[0] @ floats[3]).max(axis=0)
    check = check_numpy(weights, output, np_weights, np_output, V_abs_max)
    naive, capped = (None, False) if naive_cap is None else naive_time(kind, n, d_model, d_k, naive_cap)
    return Row(
        case.label,
        certified,
        certified_cpu,
        numpy_s,
        naive,
        capped,
        check,
        ratios,
        load,
        numpy_cpu,
        arb_ratios,
    )


def decimals_time(kind: str, n: int, d: int, places: int) -> float:
    """Seconds for attention_decimals (every weight and output, ``places`` digits), after the products."""
    scores, V = exact_products(*fmpq_inputs(make_case(kind, n, d, d)))
    factor = 1 / sympy.sqrt(d)
    return median_time(lambda: attention_decimals(scores, factor, None, V, places), 3)


def arb_exp_cost(count: int = 100_000) -> float:
    """Seconds per arb exponential at 128 bits (exponents in [-30, 0]), called from Python."""
    old = flint.ctx.prec
    flint.ctx.prec = 128
    try:
        points = [flint.arb(-30 * k) / count for k in range(count)]
        return median_time(lambda: [x.exp() for x in points], 3) / count
    finally:
        flint.ctx.prec = old


def fixed_phases(
    n: int = 512, d: int = 64, runs: int = 5
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """CPU time of each step of the fixed-point dense method on the ``unit`` case (median of ``runs``),
    and of the two things a caller may ask of its weights afterwards (python-flint balls, decimals).

    The steps call the helpers of symattn.numeric._fixed_point_balls one by one
    (same calls, same order), so that the time of each can be read on its own; each
    round runs them all in order, as one certified run does, then the on-demand steps.
    """
    inputs = fmpq_inputs(make_case("unit", n, d, d))
    scores, V = exact_products(*inputs)
    old = flint.ctx.prec
    flint.ctx.prec = 128
    try:
        c = flint.arb(d).rsqrt()  # the scale 1/sqrt(d_k), as a ball
        limbs = max(2, -(-(128 - 8) // numeric.LIMB))
        state: dict[str, object] = {}
        rows = tuple(range(n))

        def integers():
            state["v"] = numeric._integer_scores(np, scores, rows)

        def exponentials():
            state["E"], state["delta"] = numeric._fixed_exponentials(np, state["v"], c, scores.den, limbs)

        def weights():
            state["W"], state["totals"] = numeric._fixed_weights(np, state["E"], n, n)

        def radii():
            state["radii"] = numeric._fixed_point_radii(V, n, state["totals"], state["delta"], limbs)

        def numerators():
            state["N"] = numeric._blas_numerators(np, state["W"], state["radii"].V_small, n_r=n, n_k=n)

        def weight_balls():  # FixedWeights.arb_mat, on demand
            largest = state["radii"].spread + max(state["radii"].rows)
            numeric._float_weights(np, state["W"], n, n, largest=largest)

        def weight_decimals():  # FixedWeights.decimals, on demand
            radius = [state["radii"].spread + row for row in state["radii"].rows]
            numeric._fixed_decimals(np, state["W"], radius, n_r=n, n_k=n, places=30)

        def output_balls():
            numeric._numerator_balls(np, state["N"], state["radii"], n_r=n, limbs=limbs, prec=128)

        steps = [
            (
                "exact products X·W_Q, X·W_K, X·W_V (fmpz_mat; Q·Kᵀ itself is not formed)",
                lambda: exact_products(*inputs),
            ),
            ("exact integer scores in numpy (float64 BLAS products of pieces of XW_Q, XW_K)", integers),
            (
                f"{n * n:,} exponentials: gaps, 16-bit digits, tables (integer recurrences), limb gathers and "
                "products (numpy)",
                exponentials,
            ),
            ("exact row sums, reciprocals and the weights' limb product (numpy)", weights),
            ("radius bounds; V's numerators into numpy", radii),
            (
                "output numerators W·V exactly: float64 BLAS products of limb pieces, summed in 26-bit digits",
                numerators,
            ),
            (
                "the outputs into python-flint: three float64 pieces an output, joined, radii added (C)",
                output_balls,
            ),
        ]
        on_demand = [
            (
                "the weights' python-flint balls (`FixedWeights.arb_mat`): two float64 pieces a weight (two "
                "lists of n² Python floats, two arb_mats), joined, radius added (C)",
                weight_balls,
            ),
            (
                "every weight's 30-place decimal, certified, from the integers (`FixedWeights.decimals`, numpy)",
                weight_decimals,
            ),
        ]
        # the steps in order, as in one run, ``runs`` times (after one untimed pass)
        medians = interleaved_times(dict(steps + on_demand), runs)
        return [(label, medians[label]) for label, _ in steps], [
            (label, medians[label]) for label, _ in on_demand
        ]
    finally:
        flint.ctx.prec = old


def route_costs(n: int = 512, d: int = 64, runs: int = 7) -> dict[str, float]:
    """CPU costs (seconds) of the two ways the fixed-point weights Z enter python-flint, on ``unit``.

    * ``float_route``: one whole certified run (exact_products and attention_balls) with
      the output numerators from exact float64 BLAS products (symattn.numeric._fixed_outputs,
      the default), then the weights' arb_mat from two float64 pieces a weight.
    * ``chunk_route``: the same run forced to the fallback: two fmpz_mats of 60-bit chunks,
      joined in C, and W·V as fmpz_mat products (_limb_chunks and _chunk_balls).
      Both after one untimed run each, then interleaved, median of ``runs``.
    * ``float_lists`` / ``float_arb_mat``: one n² float64 array to a list of rows of Python
      floats, and an arb_mat from that list.
    * ``complex_acb_mat``: an acb_mat from n² Python complex numbers (two float64 each).
    """
    old = flint.ctx.prec
    flint.ctx.prec = 128
    try:
        costs: dict[str, float] = {}
        # weights-like pieces: 53-bit integers times 2^-62
        rng = np.random.default_rng(0)
        floats = np.ldexp(rng.integers(1 << 52, 1 << 53, size=(n, n)).astype(np.float64), -62)
        rows = floats.tolist()
        costs["float_lists"] = median_times(floats.tolist, 5)[1]
        costs["float_arb_mat"] = median_times(lambda: flint.arb_mat(rows), 5)[1]
        rows.clear()  # the n² Python floats go before the complex numbers come
        pairs = (floats + 1j * floats).tolist()
        costs["complex_acb_mat"] = median_times(lambda: flint.acb_mat(pairs), 1)[1]
    finally:
        flint.ctx.prec = old
    inputs = fmpq_inputs(make_case("unit", n, d, d))
    fixed_outputs = numeric._fixed_outputs

    def chunk_route():  # the fallback, forced by declining the float route for this one run
        numeric._fixed_outputs = lambda *args, **kwargs: None
        try:
            certified_attention(*inputs)[0].arb_mat()  # built during the run already
        finally:
            numeric._fixed_outputs = fixed_outputs

    def float_route():  # the default, then the weights' arb_mat
        certified_attention(*inputs)[0].arb_mat()

    costs.update(interleaved_times({"float_route": float_route, "chunk_route": chunk_route}, runs))
    return costs


def dense_phases(n: int = 512, d: int = 64, runs: int = 3) -> list[tuple[str, float]]:
    """CPU time of each step of the arb dense method on the ``unit`` case (median of ``runs``).

    The steps repeat those of symattn.numeric._dense_balls one by one (same
    calls, same order), so that the time of each can be read on its own.
    """
    inputs = fmpq_inputs(make_case("unit", n, d, d))
    scores, V = exact_products(*inputs)
    old = flint.ctx.prec
    flint.ctx.prec = 128
    try:
        numer = scores.numer
        rate = flint.arb(d).rsqrt() / scores.den  # the scale 1/sqrt(d_k), as a ball
        ones = flint.fmpz_mat([[1] * n])
        state: dict[str, object] = {}

        def shift():
            state["shifted"] = numer - flint.fmpz_mat([[numer[i, 0]] for i in range(n)]) * ones

        def exponents():
            state["exponents"] = (flint.arb_mat(state["shifted"]) * rate).entries()

        def exps():
            state["exps"] = list(map(flint.arb.exp, state["exponents"]))

        def build():
            state["rows"] = [state["exps"][i * n : (i + 1) * n] for i in range(n)]
            state["E"] = flint.arb_mat(state["rows"])

        def sums():
            state["totals"] = (state["E"] * flint.arb_mat(n, 1, [1] * n)).entries()
            state["inverse"] = [1 / t for t in state["totals"]]

        def weights():
            flint.arb_mat(
                [list(map(v.__mul__, row)) for v, row in zip(state["inverse"], state["rows"], strict=True)]
            )

        V_int = V.numer_denom()[0]
        V_numer = flint.arb_mat(V_int)

        def product():
            state["numerators"] = (state["E"] * V_numer).entries()

        steps = [
            ("exact products Q·Kᵀ, X·W_V (fmpz_mat)", lambda: exact_products(*inputs)),
            ("row shifts (fmpz_mat)", shift),
            ("exponent matrix (arb_mat, C) and its entries as Python objects", exponents),
            (f"{n * n:,} arb exponentials, one Python call each", exps),
            ("E = arb_mat of the exponentials (from a list of rows)", build),
            ("row sums E·1 (arb_mat product) and their inverses", sums),
            (f"{n * n:,} weights e_ij / t_i, one Python call each, and their arb_mat", weights),
            (f"E·V (arb_mat product, {n}×{n} by {n}×{d})", product),
        ]
        return [(label, median_times(step, runs)[1]) for label, step in steps]
    finally:
        flint.ctx.prec = old


def lever_costs(n: int = 512, d: int = 64, runs: int = 3) -> dict[str, float]:
    """CPU costs behind the levers tried and set aside for the dense case (seconds).

    * ``ball_transfer``: moving one arb ball between processes (python-flint arbs
      do not pickle): the exact midpoint and radius as (mantissa, exponent)
      pairs, and the ball rebuilt from them; per ball.
    * ``fixed_point_matrix``: an n × n fmpz_mat built from 128-bit Python
      integers (a fixed-point E for an exact fmpz_mat product E·V).
    * ``product_1_thread`` and ``product_2_threads``: E·V with
      ``flint.ctx.threads`` 1 and 2 (wall time).
    * ``exp_64`` and ``exp_128``: one arb exponential at 64 and 128 bits, per call.
    * ``distinct_scores``: how many of the n² scores are distinct (a count, not seconds).
    """
    scores, V = exact_products(*fmpq_inputs(make_case("unit", n, d, d)))
    old_prec, old_threads = flint.ctx.prec, flint.ctx.threads
    flint.ctx.prec = 128
    try:
        rate = flint.arb(d).rsqrt() / scores.den
        shifted = scores.numer - flint.fmpz_mat([[scores.numer[i, 0]] for i in range(n)]) * flint.fmpz_mat(
            [[1] * n]
        )
        exps = list(map(flint.arb.exp, (flint.arb_mat(shifted) * rate).entries()))
        E, V_numer = flint.arb_mat(n, n, exps), flint.arb_mat(V.numer_denom()[0])
        sample = exps[: 16 * n]

        def transfer():
            pairs = [(x.mid().man_exp(), x.rad().man_exp()) for x in sample]
            return [flint.arb(flint.arf(m), flint.arf(r)) for m, r in pairs]

        big = [(1 << 127) + 12345 * k for k in range(n * n)]
        costs = {
            "ball_transfer": median_times(transfer, runs)[1] / len(sample),
            "fixed_point_matrix": median_times(lambda: flint.fmpz_mat(n, n, big), runs)[1],
        }
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(runs):  # interleaved, so that a change of load hits both
            for threads in (1, 2):
                flint.ctx.threads = threads
                start = time.perf_counter()
                E * V_numer
                times[threads].append(time.perf_counter() - start)
        costs["product_1_thread"] = statistics.median(times[1])
        costs["product_2_threads"] = statistics.median(times[2])
        exponents = (flint.arb_mat(shifted) * rate).entries()[: 16 * n]
        for bits in (64, 128):
            flint.ctx.prec = bits
            costs[f"exp_{bits}"] = median_times(lambda: list(map(flint.arb.exp, exponents)), runs)[1] / len(
                exponents
            )
        values = list(map(int, scores.numer.entries()))
        costs["distinct_scores"] = len(set(values))
        costs["gap_bits"] = max(
            max(values[i * n : (i + 1) * n]) - min(values[i * n : (i + 1) * n]) for i in range(n)
        )
        costs["gap_bits"] = int(costs["gap_bits"]).bit_length()
        flint.ctx.prec = 128
        costs.update(_midpoint_and_bulk_costs(scores, V, exps, runs))
        return costs
    finally:
        flint.ctx.prec, flint.ctx.threads = old_prec, old_threads


def _radius_bound(totals: list, V_numer: flint.fmpz_mat) -> flint.arb_mat:
    """Balls [0, rad(t_i)·b_k] covering the radii of E in E·V (b_k = isqrt((VᵀV)_kk) + 1 >= max_j |V_jk|):
    a ball of the row sum t_i contains every sum of points of the row's balls, so rad(t_i) >= sum_j rad(e_ij)."""
    gram = V_numer.transpose() * V_numer
    bounds = [gram[k, k].isqrt() + 1 for k in range(V_numer.ncols())]
    radii = [flint.arb(0, total.rad()) for total in totals]
    return flint.arb_mat(len(totals), 1, radii) * flint.arb_mat(1, len(bounds), bounds)


def _midpoint_and_bulk_costs(scores, V, exps: list, runs: int) -> dict[str, float]:
    """CPU costs (seconds) of E·V with and without E's radii, and of moving n² numbers in bulk.

    * ``product_radii`` / ``product_midpoints``: E·V as an arb_mat product, and as
      mid(E)·V plus _radius_bound.
    * ``ingest_*``: n² numbers from a Python list into python-flint: an fmpz_mat or
      an fmpz_poly of 62-bit integers (one limb of a fixed-point matrix), an arb_mat
      (from a list of rows, and from one flat list) or an arb_poly of the n² exponentials.
    * ``mul_call``: one arb multiplication called from Python, per call.
    * ``scores_to_ints``: the n² exact scores out of their fmpz_mat as Python ints.
    * ``fixed_point_product``: one 4-limb (120-bit) fixed-point product of n² entries in numpy.
    * ``fmpz_product``: the exact n × n (124-bit) by n × d product W·V as fmpz_mat.
    * ``row_sums_poly``: the row sums as one arb_poly product (one run).
    * ``evaluate_point``: arb_poly.evaluate (Horner in C) of a degree-20
      polynomial, per point.
    """
    n = scores.nrows()
    V_int = V.numer_denom()[0]
    rows = [exps[i * n : (i + 1) * n] for i in range(n)]
    E, V_arb = flint.arb_mat(rows), flint.arb_mat(V_int)
    totals = (E * flint.arb_mat(n, 1, [1] * n)).entries()
    limbs = [(k * 2654435761) & (2**62 - 1) for k in range(n * n)]
    rng = np.random.default_rng(0)
    A, B = (rng.integers(0, 2**30, size=(4, n * n), dtype=np.uint64) for _ in range(2))
    high, low = flint.fmpz_mat(n, n, limbs), flint.fmpz_mat(n, n, limbs[::-1])
    wide = high * (1 << 62) + low
    points = [flint.arb(k) / 4096 for k in range(4096)]
    poly = flint.arb_poly([flint.arb(1) / math.factorial(k) for k in range(21)])
    costs = {
        "product_radii": median_times(lambda: E * V_arb, runs)[1],
        "product_midpoints": median_times(lambda: E.mid() * V_arb + _radius_bound(totals, V_int), runs)[1],
        "ingest_fmpz_mat": median_times(lambda: flint.fmpz_mat(n, n, limbs), runs)[1],
        "ingest_fmpz_poly": median_times(lambda: flint.fmpz_poly(limbs), runs)[1],
        **interleaved_times(
            {
                "ingest_arb_mat": lambda: flint.arb_mat(rows),
                "ingest_arb_mat_flat": lambda: flint.arb_mat(n, n, exps),
            },
            runs,
        ),
        "mul_call": median_times(lambda: list(map(operator.mul, exps, exps)), runs)[1] / len(exps),
        "ingest_arb_poly": median_times(lambda: flint.arb_poly(exps), runs)[1],
        "scores_to_ints": median_times(lambda: list(map(int, scores.numer.entries())), runs)[1],
        "fixed_point_product": median_times(lambda: numeric._fixed_mul(np, A, B), runs)[1],
        "fmpz_product": median_times(lambda: wide * V_int, runs)[1],
        "row_sums_poly": median_times(lambda: flint.arb_poly(exps) * flint.arb_poly([1] * n), 1)[1],
        "evaluate_point": median_times(lambda: poly.evaluate(points, algorithm="iter"), runs)[1]
        / len(points),
    }
    return costs


def phase_report(
    phases: tuple[list[tuple[str, float]], list[tuple[str, float]]],
    arb: list[tuple[str, float]],
    row: Row,
    levers: dict[str, float],
    routes: dict[str, float],
) -> list[str]:
    """The lines of RESULTS.md on where the time of the dense n = 512 case goes."""
    fixed, on_demand = phases
    total, arb_total = (sum(seconds for _, seconds in steps) for steps in (fixed, arb))
    budget = 50 * row.numpy_cpu
    share = (
        1 - levers["ball_transfer"] * 512 * 512 / arb_total
    )  # of the parent's time on the rows it hands over
    saving = (
        "handing rows to a second process saves the parent nothing"
        if share <= 0
        else f"the parent would save at most {share:.0%} of its time on the rows it hands over"
    )
    floor = 2 * (routes["float_lists"] + routes["float_arb_mat"])
    weight_balls, weight_decimals = (seconds for _, seconds in on_demand)
    lines = [
        "## Where the time goes: the dense method, `unit` n = 512",
        "",
        "With numpy installed, unmasked scores take the fixed-point dense method "
        "(`symattn.numeric._fixed_point_balls`): the exact integer scores, every exponential as a "
        "120-bit fixed-point number (the product of one table entry per 16-bit digit of its integer gap, "
        "in 30-bit limbs, each table an exact integer recurrence from one arb exponential), exact row sums, "
        "the weights as limb products, and every error bounded in units of 2^-120; the output numerators "
        "W·V are exact integers from float64 BLAS products of limb pieces (every partial sum below 2^53), "
        "and the outputs enter python-flint as a few float64 pieces each (every piece exact). The weights are "
        "returned as they are, exact fixed-point integers Z with a certified radius per row "
        "(`symattn.numeric.FixedWeights`: the true weight lies within r_i·2^-120 of Z·2^-120): that is the "
        "whole enclosure, and python-flint balls of the weights are built only when a caller reads them. "
        "CPU time of each step (median of 5 rounds of all steps in order, after one untimed round; "
        "`fixed_phases` in benchmarks/run.py):",
        "",
        "| step | CPU |",
        "|---|---|",
        *(f"| {label} | {fmt_s(seconds)} |" for label, seconds in fixed),
        f"| sum | {fmt_s(total)} |",
        "",
        "On demand, after the run (same rounds):",
        "",
        "| step | CPU |",
        "|---|---|",
        *(f"| {label} | {fmt_s(seconds)} |" for label, seconds in on_demand),
        "",
        f"In CPU time (steadier than wall time on the shared machine), numpy took {fmt_s(row.numpy_cpu)} in "
        f"this run's `unit` n = 512 pairs, so 50× is {fmt_s(budget)}; the steps above sum to "
        f"{total / budget:.2f}× that budget, and {(total + weight_balls) / budget:.2f}× with the weights' "
        "python-flint balls built as well. Without numpy (or with a mask) the arb dense method "
        "(`symattn.numeric._dense_balls`) runs; its steps (`dense_phases`):",
        "",
        "| step | CPU |",
        "|---|---|",
        *(f"| {label} | {fmt_s(seconds)} |" for label, seconds in arb),
        f"| sum | {fmt_s(arb_total)} |",
        "",
        "Bringing numbers into python-flint is what this design avoids: python-flint builds a matrix entry by "
        "entry from Python objects and has no bulk constructor (from a buffer or an array). The weights need "
        "about 105 bits each, so two Python objects a weight: one n² float64 array becomes a list of rows of "
        f"Python floats in {fmt_s(routes['float_lists'])} and an arb_mat from it takes "
        f"{fmt_s(routes['float_arb_mat'])} ({routes['float_arb_mat'] / 512**2 * 1e9:.0f} ns an entry), so the "
        f"two pieces alone cost {fmt_s(floor)}, {floor / budget:.0%} of the 50× budget. That is why "
        "`attention_balls` returns the weights as `FixedWeights`: read like an arb_mat (`[i, j]`, `nrows`, "
        "`entries`, `tolist`), it builds the arb_mat on first use "
        f"({fmt_s(weight_balls)} above), and `attention_decimals` rounds the weights straight from the "
        f"integers in numpy ({fmt_s(weight_decimals)} for all 262,144 at 30 places, each decided by its "
        "ball or left to the next precision) without building them at all; `symattn.oracle` reads only "
        "the outputs.",
        "",
        "Levers kept (same run):",
        "",
        f"- **fixed-point exponentials in numpy** (above): {fmt_s(total)} against {fmt_s(arb_total)} for the "
        "arb dense method. One 120-bit limb product of n² entries costs "
        f"{fmt_s(levers['fixed_point_product'])} when its arrays are warm; pairs of 8-bit table levels are "
        "merged into 16-bit ones (each by one product of 65,536 entries), which halves the number of n²-entry "
        "products in the exponentials; one more makes the weights (each row's reciprocal broadcast, not "
        "copied n times).",
        f"- **float64 pieces and BLAS numerators** (the last two steps, and the weights' balls on demand): a "
        "whole certified `unit` n = 512 run with the weights' arb_mat built "
        f"takes {routes['float_route'] / routes['chunk_route']:.2f}× the CPU time with them as the same run "
        "forced to the fallback, two fmpz_mats of 60-bit chunks (joined and scaled in C) and W·V as fmpz_mat "
        "products, which still serves V's numerators wider than the pieces allow or too many keys (medians of "
        "7 runs of each, interleaved, after one run each, late in this benchmark). Both routes spend most of "
        "their time building python-flint matrices from Python objects, so they differ little.",
        "- **the scores' numerators left as factors**: `exact_products` gives Q·Kᵀ as the factors XW_Q, XW_K; "
        "the fixed-point method recomputes the scores in numpy from them, and the fmpz_mat Q·Kᵀ is formed only "
        "if a method reads it (the sparse and the arb dense methods).",
        f"- **arb_mat from a list of rows** (arb dense method): {fmt_s(levers['ingest_arb_mat'])} for the n² "
        f"exponentials, against {fmt_s(levers['ingest_arb_mat_flat'])} from one flat list (interleaved, after "
        "one untimed run each).",
        "",
        "Levers measured and set aside (same run):",
        "",
        "- **an elementwise exponential in C**: python-flint 0.9 has none. `arb_mat.exp` is the matrix "
        "exponential, `dct`, `mid` and `chop` are the only other whole-matrix functions, fmpz_vec and "
        "fmpq_vec only store, the generic `gr` contexts expose no vector functions, `acb.dft` is a transform, "
        "and `arb_poly.evaluate(xs)` (Horner in C, from a Python list of balls) costs "
        f"{levers['evaluate_point'] * 1e6:.2f} µs a point for a degree-20 polynomial, more than one "
        f"exponential called from Python ({levers['exp_128'] * 1e6:.2f} µs), and 128 bits need more terms.",
        f"- **tables of exponentials and products of arbs**: the gaps in a `unit` row span "
        f"{levers['gap_bits']} bits, so a table e^(-c·a·B^k) small enough to build needs at least four levels, "
        f"and one arb product called from Python costs {levers['mul_call'] * 1e6:.2f} µs: three products per "
        "entry cost more than the one exponential they replace (the fixed-point method does the products in "
        "numpy instead).",
        f"- **E·V from E's exact midpoints** (arb dense method): {fmt_s(levers['product_radii'])} as an arb_mat "
        f"product of the balls, {fmt_s(levers['product_midpoints'])} as mid(E)·V plus one radius bound per row "
        "and column (rad(t_i)·max_j |V_jk|): no gain.",
        f"- **faster ways into python-flint**: fmpz_poly builds from a list of n² 62-bit integers in "
        f"{fmt_s(levers['ingest_fmpz_poly'])} (fmpz_mat: {fmt_s(levers['ingest_fmpz_mat'])}) and arb_poly from "
        f"the n² balls in {fmt_s(levers['ingest_arb_poly'])}, but nothing turns a polynomial into a matrix in "
        f"C, and the row sums as one arb_poly product take {fmt_s(levers['row_sums_poly'])}; the scores read "
        f"out of their fmpz_mat cost {fmt_s(levers['scores_to_ints'])}, so the fixed-point method recomputes "
        "them in numpy from the factors XW_Q and XW_K (`IntegerScores.left`, `.right`). Two float64 in one "
        f"Python complex halve the objects, but an acb_mat from n² of them takes "
        f"{fmt_s(routes['complex_acb_mat'])} (one run; python-flint converts each through a slower generic "
        "path), more than the two arb_mats of floats.",
        f"- **a second process for half of the rows**: python-flint arbs do not pickle, and moving one "
        f"ball (exact midpoint and radius as mantissa/exponent pairs, then rebuilt) costs "
        f"{levers['ball_transfer'] * 1e6:.2f} µs CPU, against {arb_total / (512 * 512) * 1e6:.2f} µs to compute "
        f"it in the parent with the arb dense method (every step included, per weight), so {saving}; the "
        f"machine's load average was {row.load[0]:.2f} on 2 CPUs, so a second process would also wait for a "
        "core (and numpy is timed on one core).",
        f"- **one fmpz_mat of 128-bit integers**: {fmt_s(levers['fixed_point_matrix'])} to build (python-flint "
        "converts each through bytes), against the two float64 pieces above; the exact n × n by n × d "
        f"product of 124-bit integers takes {fmt_s(levers['fmpz_product'])}, against the BLAS numerators above.",
        f"- **FLINT threads for E·V**: {fmt_s(levers['product_1_thread'])} wall with 1 thread, "
        f"{fmt_s(levers['product_2_threads'])} with 2 (median of 3, interleaved; numpy is timed on one thread).",
        "- **a low-precision first pass**: every weight and output needs a ball narrower than 10^-30 "
        f"(about 2^-100), and an arb exponential costs {levers['exp_64'] * 1e6:.2f} µs at 64 bits against "
        f"{levers['exp_128'] * 1e6:.2f} µs at 128 (the Python call dominates), so a first pass would only "
        "add work to this benchmark; `attention_decimals` already starts at the lowest precision that can "
        "decide its places and doubles it only for undecided rows.",
        f"- **shared powers**: {levers['distinct_scores']:,} of the {512 * 512:,} `unit` scores are distinct, "
        "so there is little to share; `int` and `rat` rows already share one exponential per distinct gap "
        "(the sparse method).",
        "",
    ]
    return lines


def measure_startup() -> tuple[dict[str, float], list[str]]:
    """CLI start-up wall times (median of 5 subprocess runs) and the report lines about them."""
    times: dict[str, float] = {}
    times["help"], _ = startup.wall_time(["--help"])
    lines = [
        "## Start-up (median of 5, subprocess)",
        "",
        f"- `python -m symattn --help`: {times['help'] * 1000:.0f} ms",
    ]
    doc = SEED_DOC if SEED_DOC.exists() else REFERENCE_DOC
    if doc.exists():
        times["verify"], code = startup.wall_time(["verify", str(doc)])
        lines.append(
            f"- `python -m symattn verify {doc.name}`: {times['verify'] * 1000:.0f} ms (exit code {code})"
        )
    leaks = startup.heavy_imports(["--help"])
    leak_text = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in leaks.items()) or "none"
    lines.append(f"- heavy packages imported by `--help` (python -X importtime, cumulative): {leak_text}")
    if doc.exists():
        verify_imports = startup.heavy_imports(["verify", str(doc)])
        verify_text = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in verify_imports.items())
        lines.append(
            "- heavy packages imported by `verify` (python -X importtime, cumulative, inflated by the tracing): "
            + (verify_text or "none")
        )
    return times, [*lines, ""]


def public_api_time(kind: str, n: int, d: int, places: int) -> tuple[float, float, float]:
    """Seconds for symattn.attention(...) on the case's exact inputs, then its weights and output decimals."""
    from symattn import attention

    case = make_case(kind, n, d, d)
    start = time.perf_counter()
    att = attention(case.X, case.W_Q, case.W_K, case.W_V)
    built = time.perf_counter()
    att.decimals("weights", places)
    weights = time.perf_counter()
    att.decimals("output", places)
    return built - start, weights - built, time.perf_counter() - weights


def memory(kind: str, n: int, d: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "benchmarks.memory", kind, str(n), str(d), str(d)]
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def machine() -> dict[str, str]:
    cpu = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "cpus (nproc)": str(os.cpu_count()),
        "cpu": cpu,
        "python": platform.python_version(),
        "sympy": sympy.__version__,
        "python-flint": flint.__version__,
        "numpy": np.__version__,
    }


def fmt_s(seconds: float | None, capped: bool = False) -> str:
    if seconds is None:
        return "–"
    text = f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"
    return f"> {text} (cap)" if capped else text


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| case (kind, n, d_model/d_k) | symattn certified: wall (CPU) | numpy float64 | symattn / numpy (paired) "
        "| naive SymPy | naive / symattn | digits | numpy in balls | numpy underflows |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = "–" if r.vs_naive is None else f"{'≥ ' if r.naive_capped else ''}{r.vs_naive:,.0f}×"
        inside = "all" if r.check.outside == 0 else f"{r.check.outside} OUTSIDE"
        lines.append(
            f"| {r.label} | {fmt_s(r.certified)} ({fmt_s(r.certified_cpu)}) | {fmt_s(r.numpy)} | {r.vs_numpy:.0f}× "
            f"| {fmt_s(r.naive, r.naive_capped)} | {ratio} | {r.check.digits} "
            f"| {inside} of {r.check.checked:,} (max diff {r.check.max_error:.1e}) | {r.check.underflows:,} |"
        )
    return lines


def verdict(met: bool, distance: str) -> str:
    return "**met**" if met else f"**not met**: {distance}"


def targets(rows: list[Row], startup_s: dict[str, float], mem: dict[str, dict[str, float]]) -> list[str]:
    out = []
    for r in rows:
        if " n=512 " in f" {r.label} ":
            correct = r.check.digits >= 30 and r.check.outside == 0
            ratios = ", ".join(f"{x:.0f}" for x in r.ratios)
            head = (
                f"- n = 512, d = 64, `{r.label.split()[0]}` inputs: certified at ≥ 30 digits in ≤ 50× numpy "
                f"float64 (median of {len(r.ratios)} paired ratios): **{r.vs_numpy:.0f}×** ({ratios}); "
                f"certified {fmt_s(r.certified)} wall ({fmt_s(r.certified_cpu)} CPU), numpy {fmt_s(r.numpy)}, "
                f"{r.check.digits} digits, load average {r.load[0]:.2f} before and {r.load[1]:.2f} after"
            )
            if r.arb_ratios:
                head += (
                    f"; with the weights' python-flint balls built as well (`FixedWeights.arb_mat`), "
                    f"{statistics.median(r.arb_ratios):.0f}× ({', '.join(f'{x:.0f}' for x in r.arb_ratios)})"
                )
            head += ": "
            out.append(
                head
                + verdict(
                    correct and r.vs_numpy <= 50,
                    f"{r.vs_numpy / 50:.2f}× the 50× budget"
                    + ("" if correct else " (and not every digit certified or numpy outside a ball)"),
                )
            )
    for r in rows:
        if r.label.endswith("n=32 d=32/16") and r.vs_naive is not None:
            out.append(
                f"- n = 32, d_k = 16, `{r.label.split()[0]}` inputs: ≥ 1000× faster than naive SymPy: "
                f"{'≥ ' if r.naive_capped else ''}{r.vs_naive:,.0f}×: "
                + verdict(r.vs_naive >= 1000, f"only {r.vs_naive:.0f}×")
            )
    if "verify" in startup_s:
        out.append(
            f"- `symattn verify` on the reference document ≤ 1.0 s: {startup_s['verify']:.2f} s: "
            + verdict(startup_s["verify"] <= 1.0, f"{startup_s['verify'] - 1.0:.2f} s over")
        )
    out.append(
        f"- `symattn --help` ≤ 0.3 s: {startup_s['help']:.3f} s: "
        + verdict(startup_s["help"] <= 0.3, f"{startup_s['help'] - 0.3:.3f} s over")
    )
    for kind, m in mem.items():
        out.append(
            f"- peak memory of the n = 512 `{kind}` run < 1 GB: {m['peak_mib']:.0f} MiB peak RSS of the whole "
            f"process; the run adds at most {m['peak_mib'] - m['before_mib']:.0f} MiB to the "
            f"{m['before_mib']:.0f} MiB resident before it (interpreter, SymPy/numpy/flint imports, inputs): "
            + verdict(m["peak_mib"] < 1024, f"{m['peak_mib'] - 1024:.0f} MiB over")
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes; naive SymPy only at n = 8")
    parser.add_argument("--record", action="store_true", help="rewrite benchmarks/RESULTS.md")
    parser.add_argument(
        "--naive-cap", type=float, default=90.0, help="seconds before the naive run is cut off"
    )
    args = parser.parse_args(argv)

    sizes = (
        [(8, 8, 8), (32, 32, 16), (128, 64, 64)]
        if args.quick
        else [(8, 8, 8), (32, 32, 16), (128, 64, 64), (512, 64, 64)]
    )
    naive_at = {(8, 8, 8)} if args.quick else {(8, 8, 8), (32, 32, 16)}
    load_start = os.getloadavg()[0]
    rows = []
    for kind in ("int", "rat", "unit"):
        for size in sizes:
            cap = args.naive_cap if (size in naive_at and kind == "int") else None
            rows.append(bench(kind, *size, naive_cap=cap))
            print(table(rows[-1:])[-1], flush=True)
    lines = table(rows)

    decimals = {}
    api = None
    if not args.quick:
        for kind in ("int", "unit"):
            decimals[kind] = decimals_time(kind, 512, 64, 30)
        api = public_api_time("int", 512, 64, 30)

    startup_s, startup_lines = measure_startup()
    mem = {} if args.quick else {kind: memory(kind, 512, 64) for kind in ("int", "unit")}

    load = f"load average (1 min) {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, on {os.cpu_count()} CPUs"
    exp_cost = arb_exp_cost()
    report = ["## Table", "", load, "", *lines, ""]
    report += [
        f"One arb exponential at 128 bits, called from Python, costs {exp_cost * 1e6:.2f} µs here, so the "
        f"262,144 of a dense n = 512 softmax alone take {262144 * exp_cost:.2f} s in the arb dense method.",
        "",
    ]
    if not args.quick:
        report += phase_report(
            fixed_phases(),
            dense_phases(),
            next(r for r in rows if r.label.startswith("unit n=512")),
            lever_costs(),
            route_costs(),
        )
    if decimals:
        report += ["## Decimal strings", ""]
        report += [
            f"- `attention_decimals` at 30 places, every weight and output of n = 512 `{k}` "
            f"(after the products): {fmt_s(s)}"
            for k, s in decimals.items()
        ]
        report.append("")
    if api is not None:
        report += [
            "- public API, n = 512 `int`: `symattn.attention(X, W_Q, W_K, W_V)` "
            f"{fmt_s(api[0])}, then `.decimals('weights', 30)` {fmt_s(api[1])} "
            f"and `.decimals('output', 30)` {fmt_s(api[2])} (one run each)",
            "",
        ]
    report += startup_lines
    report += ["## Targets", "", *targets(rows, startup_s, mem), ""]
    print("\n".join(report))

    if args.record:
        write_results(report, quick=args.quick, argv=argv)
    return 0 if all(r.check.outside == 0 for r in rows) else 1


def write_results(report: list[str], *, quick: bool, argv: list[str] | None) -> None:
    info = machine()
    command = "python benchmarks/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    text = [
        "# Benchmark results",
        "",
        f"Recorded by `{command.strip()}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        + (" (quick run: smaller sizes)" if quick else "")
        + ". Regenerate with `python benchmarks/run.py --record`.",
        "",
        "Machine: " + ", ".join(f"{key} {value}" for key, value in info.items()) + ".",
        "",
        "Times are medians of repeated runs in one process; the machine is shared and noisy, so read the ratios. "
        "Each ratio to numpy is paired: every certified run is followed at once by numpy on the same case "
        f"(the median of {NUMPY_CALLS} calls), and the table shows the median of the per-pair ratios. numpy is "
        "pinned to one BLAS thread (OPENBLAS_NUM_THREADS=1), as symattn's certified path runs on one core.",
        '"symattn certified" starts from exact fmpq_mat inputs and includes the exact products Q·Kᵀ and X·W_V '
        "and the enclosures of every weight and output at 128 bits (`symattn.numeric.attention_balls`): arb balls, "
        "except the weights of the fixed-point dense method, which come back as exact fixed-point integers "
        "with a certified radius per row (`FixedWeights`, turned into an arb_mat on first use; the `unit` "
        "target below also gives the ratio with that arb_mat built); "
        'numpy starts from float64 arrays. "digits" is the number of decimal places every ball guarantees '
        "(its widest radius is below 10^-digits). \"numpy in balls\": numpy's value lies in symattn's ball "
        "widened by a float64 forward-error bound (4·(n+64)·2^-53 + 2^-40, times max|V| for outputs); "
        "weights numpy flushed to 0 (underflows) are counted separately, not checked. Input kinds are described "
        "in `benchmarks/inputs.py`: `int` in [-3, 3], `rat` p/q with q ≤ 10 and |p| ≤ 10, `unit` p/q in [-1, 1] "
        "(a dense softmax where no exponential can be skipped). The naive SymPy pipeline runs in a subprocess "
        "with a time cap; a capped time makes its ratio a lower bound.",
        "",
        "How the certified path gets its speed (symattn/numeric.py): exact products in python-flint; each "
        "softmax row shifted by one of its exact scores; with the `sparse` method (shift: the largest score), an exponential whose "
        "shifted exponent is below -(prec + 16)·ln 2 is not evaluated but enclosed in [0, 2^-(prec+16)] and "
        "equal gaps share one evaluation; with the `dense` method (chosen when, on a sample of rows, over "
        f"{DENSE_SHARE} of the entries must be evaluated) every exponential is evaluated: with numpy and no mask "
        "as exact fixed-point integers in numpy (W·V then exact from float64 BLAS products of limb pieces, the "
        "outputs entering python-flint as float64 pieces, the weights kept as fixed-point integers with their "
        "radii), otherwise as arb balls with the row "
        "sums and E·V as arb_mat products in C. "
        "The `unit` kind is the dense worst case: every one of the n² exponentials must be evaluated "
        "(see the cost of one arb exponential below); the table states its distance from the budget.",
        "",
        *report,
    ]
    path = ROOT / "benchmarks" / "RESULTS.md"
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    # sections other scripts record between <!-- NAME: begin --> and <!-- NAME: end --> are kept
    blocks = [m.group(0) for m in re.finditer(r"<!-- ([\w-]+): begin -->.*?<!-- \1: end -->", old, re.DOTALL)]
    path.write_text("\n".join(text) + "".join("\n\n" + block for block in blocks) + ("\n" if blocks else ""))


if __name__ == "__main__":
    sys.exit(main())
