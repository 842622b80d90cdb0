"""The naive SymPy baseline: sympy.Matrix products, exp entries, evalf.

Run as a script it times one case and prints JSON, so that the runner can
cap it with a subprocess timeout:

    python -m benchmarks.naive_sympy KIND N D_MODEL D_K DIGITS
"""

from __future__ import annotations

import json
import sys
import time

import sympy

from benchmarks.inputs import make_case


def naive_attention(X, W_Q, W_K, W_V, digits: int) -> tuple[list[sympy.Float], list[sympy.Float]]:
    """Weights and output of softmax(QKᵀ/√d_k)·V the straightforward SymPy way.

    Args:
        X, W_Q, W_K, W_V: lists of rows of exact numbers.
        digits: significant digits for evalf.

    Returns:
        The evaluated weights and output entries, row by row.
    """
    X, W_Q, W_K, W_V = (sympy.Matrix(m) for m in (X, W_Q, W_K, W_V))
    Q, K, V = X * W_Q, X * W_K, X * W_V
    scaled = (Q * K.T) / sympy.sqrt(W_Q.cols)
    exps = scaled.applyfunc(sympy.exp)
    n = exps.rows
    A = sympy.Matrix(n, exps.cols, lambda i, j: exps[i, j] / sum(exps[i, k] for k in range(exps.cols)))
    output = A * V
    return [a.evalf(digits) for a in A], [o.evalf(digits) for o in output]


def main(argv: list[str]) -> int:
    kind, n, d_model, d_k, digits = argv[0], *map(int, argv[1:5])
    case = make_case(kind, n, d_model, d_k)
    start = time.perf_counter()
    weights, output = naive_attention(case.X, case.W_Q, case.W_K, case.W_V, digits)
    elapsed = time.perf_counter() - start
    print(json.dumps({"seconds": elapsed, "weights_00": str(weights[0]), "output_00": str(output[0])}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
