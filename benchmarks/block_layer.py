"""One encoder layer certified to 30 digits (issue 11): n = 128, d_model = 64, 4 heads, d_ff = 256.

    python benchmarks/block_layer.py              # the run: prints the table
    python benchmarks/block_layer.py --exact 8    # also times the exact SymPy path at n = 8 (slow)
    python benchmarks/block_layer.py --record     # also writes its section of benchmarks/RESULTS.md

Inputs are rationals p/q with |p| <= 10 and 1 <= q <= 10 (the ``rat`` kind of
benchmarks/inputs.py), drawn from a fixed seed.  The certified run is
:func:`symattn.blockfast.encoder_layer_decimals` (post-norm, ReLU, ε = 1e-5):
arb balls, the precision doubled until every printed digit and every ReLU sign
is decided.  Each certified run is paired with numpy float64 on the same
layer (the median of NUMPY_CALLS calls), and the ratio is taken per pair.  The
same run checks that numpy's float64 output agrees with the certified
decimals to 1e-12 relative (to each row's largest entry).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")  # numpy single-threaded, like symattn
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from symattn.blockfast import encoder_layer_decimals, start_precision  # noqa: E402

N, D_MODEL, HEADS, D_FF, PLACES = 128, 64, 4, 256, 30
RUNS = 5
NUMPY_CALLS = 5
SEED = 11


def make_layer(n: int = N, seed: int = SEED) -> tuple[list[list[Fraction]], dict]:
    """X and the layer's weights, rationals p/q (|p| <= 10, 1 <= q <= 10)."""
    rng = random.Random(seed)

    def entry() -> Fraction:
        return Fraction(rng.randint(-10, 10), rng.randint(1, 10))

    def matrix(rows: int, cols: int) -> list[list[Fraction]]:
        return [[entry() for _ in range(cols)] for _ in range(rows)]

    d_k = D_MODEL // HEADS
    X = matrix(n, D_MODEL)
    layer = {
        "heads": [(matrix(D_MODEL, d_k), matrix(D_MODEL, d_k), matrix(D_MODEL, d_k)) for _ in range(HEADS)],
        "W_O": matrix(D_MODEL, D_MODEL),
        "ffn": (
            matrix(D_MODEL, D_FF),
            [entry() for _ in range(D_FF)],
            matrix(D_FF, D_MODEL),
            [entry() for _ in range(D_MODEL)],
        ),
    }
    return X, layer


def numpy_layer(X: np.ndarray, heads: list, W_O: np.ndarray, ffn: tuple, eps: float = 1e-5) -> np.ndarray:
    """The post-norm encoder layer in float64: LN(H + FFN(H)), H = LN(X + MHA(X))."""

    def ln(M: np.ndarray) -> np.ndarray:
        mu = M.mean(axis=1, keepdims=True)
        var = ((M - mu) ** 2).mean(axis=1, keepdims=True)
        return (M - mu) / np.sqrt(var + eps)

    outs = []
    for W_Q, W_K, W_V in heads:
        S = (X @ W_Q) @ (X @ W_K).T / np.sqrt(W_Q.shape[1])
        E = np.exp(S - S.max(axis=1, keepdims=True))
        outs.append((E / E.sum(axis=1, keepdims=True)) @ (X @ W_V))
    H = ln(X + np.concatenate(outs, axis=1) @ W_O)
    W_1, b_1, W_2, b_2 = ffn
    return ln(H + np.maximum(H @ W_1 + b_1, 0) @ W_2 + b_2)


def as_float(X, layer) -> tuple:
    def f(m):
        return np.array([[float(v) for v in row] for row in m])

    heads = [tuple(f(m) for m in h) for h in layer["heads"]]
    W_1, b_1, W_2, b_2 = layer["ffn"]
    return f(X), heads, f(layer["W_O"]), (f(W_1), f([b_1])[0], f(W_2), f([b_2])[0])


def exact_time(n: int) -> float:
    """Seconds of the exact SymPy path (symattn.encoder_layer, then certified output decimals) at n tokens."""
    import symattn

    X, layer = make_layer(n)
    start = time.perf_counter()
    symattn.encoder_layer(X, **layer).decimals("output", PLACES)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--exact",
        type=int,
        action="append",
        default=[],
        metavar="N",
        help="also time the exact path at N tokens",
    )
    parser.add_argument("--record", action="store_true", help="write the section of benchmarks/RESULTS.md")
    args = parser.parse_args()
    X, layer = make_layer()
    floats = as_float(X, layer)
    pairs, certified, every = [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        decimals, balls = encoder_layer_decimals(X, places=PLACES, **layer)
        elapsed = time.perf_counter() - start
        numpy_times = []
        for _ in range(NUMPY_CALLS):
            t = time.perf_counter()
            reference = numpy_layer(*floats)
            numpy_times.append(time.perf_counter() - t)
        certified.append(elapsed)
        pairs.append(elapsed / statistics.median(numpy_times))
    names = tuple(name for name in balls.stages if name != "X")
    for _ in range(3):
        start = time.perf_counter()
        encoder_layer_decimals(X, places=PLACES, stages=names, **layer)
        every.append(time.perf_counter() - start)
    got = np.array([[float(v) for v in row] for row in decimals["output"]])
    scale = np.abs(reference).max(axis=1, keepdims=True)
    worst = float((np.abs(got - reference) / scale).max())
    assert worst < 1e-12, worst
    exact = [(n, exact_time(n)) for n in args.exact]
    lines = [
        f"- certified output (`encoder_layer_decimals`, {PLACES} places): **{statistics.median(certified):.3f} s** "
        f"median of {RUNS} (runs: {', '.join(f'{t:.3f}' for t in certified)}); goal ≤ 2 s: "
        f"**{'met' if statistics.median(certified) <= 2 else 'not met'}**",
        f"- every one of its {len(names)} stages certified (attention weights of each head, residuals, norms, FFN "
        f"pre-activation, activation, output): {statistics.median(every):.3f} s median of 3",
        f"- numpy float64, same layer: {statistics.median(numpy_times) * 1e3:.2f} ms; ratio certified / numpy "
        f"(paired, median): **{statistics.median(pairs):.0f}×** ({', '.join(f'{r:.0f}' for r in pairs)})",
        f"- final precision {balls.prec} bits "
        + (
            "(the first one tried)"
            if balls.prec == start_precision(PLACES)
            else f"(from {start_precision(PLACES)})"
        )
        + f"; ReLU zeroed "
        f"{len(balls.zeroed):,} of {N * D_FF:,} hidden units, undecided {len(balls.undecided)}",
        f"- numpy's float64 output against the certified decimals: max relative difference {worst:.1e} "
        "(to each row's largest entry; checked < 1e-12)",
    ]
    lines += [
        f"- the exact SymPy path (`symattn.encoder_layer(...).decimals('output', {PLACES})`), n = {n}: {t:.2f} s"
        for n, t in exact
    ]
    text = "\n".join(lines)
    print(f"encoder layer n={N} d_model={D_MODEL} heads={HEADS} d_ff={D_FF}, {PLACES} places, post-norm ReLU")
    print(text)
    if args.record:
        record(text)


def record(text: str) -> None:
    """Write this run's section of RESULTS.md between its markers (the other sections are kept)."""
    path = ROOT / "benchmarks" / "RESULTS.md"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    section = (
        "<!-- block-layer: begin -->\n"
        f"## One encoder layer, certified to {PLACES} digits (issue 11)\n\n"
        f"Recorded by `python benchmarks/block_layer.py --record` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, load average (1 min) "
        f"{load:.2f} (the machine is shared).\n\n"
        f"n = {N} tokens, d_model = {D_MODEL}, {HEADS} heads (d_k = {D_MODEL // HEADS}), d_ff = {D_FF}, post-norm, "
        "ReLU, ε = 1e-5; rational inputs p/q with |p| ≤ 10, 1 ≤ q ≤ 10 (seed "
        f"{SEED}). The certified path is `symattn.blockfast` (arb balls from the exact rational inputs; "
        "the first attention's scores and values exact, the rest arb_mat products, per-row LayerNorm roots, "
        "ReLU signs decided rigorously), the precision doubled until every printed digit is decided. numpy is "
        "single-threaded float64.\n\n" + text + "\n<!-- block-layer: end -->\n"
    )
    old = path.read_text(encoding="utf-8")
    pattern = re.compile(r"<!-- block-layer: begin -->.*?<!-- block-layer: end -->\n", re.S)
    new = pattern.sub(lambda _: section, old) if pattern.search(old) else old.rstrip("\n") + "\n\n" + section
    path.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
