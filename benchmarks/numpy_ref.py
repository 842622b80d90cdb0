"""The numpy float64 baseline: the usual max-shifted softmax attention."""

from __future__ import annotations

import math

import numpy as np

from benchmarks.inputs import Case


def as_float(matrix: list[list[object]]) -> np.ndarray:
    """A float64 array of a Case matrix (the baseline's own rounding)."""
    return np.array([[float(x) for x in row] for row in matrix], dtype=np.float64)


def attention_float64(
    X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(weights, output) in float64, scale 1/sqrt(d_k), rows shifted by their maximum.

    Args:
        X, W_Q, W_K, W_V: float64 arrays.

    Returns:
        The weights (n × n) and output (n × d_v).
    """
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    scores = (Q @ K.T) / math.sqrt(W_Q.shape[1])
    scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights, weights @ V


def case_arrays(case: Case) -> tuple[np.ndarray, ...]:
    """The float64 inputs of a case."""
    return tuple(as_float(m) for m in (case.X, case.W_Q, case.W_K, case.W_V))
