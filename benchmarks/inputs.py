"""Random benchmark inputs, the same in every process that asks for them.

Three kinds of entries:

* ``int``: integers in [-3, 3] (as in docs/PERFORMANCE_NOTES);
* ``rat``: p/q with 1 <= q <= 10 and |p| <= 10;
* ``unit``: p/q with 1 <= q <= 10 and |p| <= q, so values lie in [-1, 1].  The
  scores stay small, no exponential is negligible, and every one of the n²
  weights must be evaluated: the hardest case for the certified path.

With d_model = 64, ``int`` and ``rat`` give nearly one-hot softmax rows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

KINDS = ("int", "rat", "unit")


@dataclass(frozen=True)
class Case:
    """One benchmark problem: X (n × d_model) and W_Q, W_K, W_V (d_model × d_k)."""

    kind: str
    n: int
    d_model: int
    d_k: int
    X: list[list[Fraction]]
    W_Q: list[list[Fraction]]
    W_K: list[list[Fraction]]
    W_V: list[list[Fraction]]

    @property
    def label(self) -> str:
        return f"{self.kind} n={self.n} d={self.d_model}/{self.d_k}"


def _entry(rng: random.Random, kind: str) -> Fraction:
    if kind == "int":
        return Fraction(rng.randint(-3, 3))
    q = rng.randint(1, 10)
    bound = 10 if kind == "rat" else q
    return Fraction(rng.randint(-bound, bound), q)


def make_case(kind: str, n: int, d_model: int, d_k: int, seed: int = 2026) -> Case:
    """The benchmark inputs for (kind, n, d_model, d_k, seed), deterministic.

    Args:
        kind: "int", "rat" or "unit" (see the module docstring).
        n: tokens; d_model: input width; d_k: query/key/value width.
        seed: the random seed.

    Returns:
        A :class:`Case` of exact Fractions.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown input kind {kind!r} (expected one of {', '.join(KINDS)})")
    rng = random.Random(f"{kind}-{n}-{d_model}-{d_k}-{seed}")

    def matrix(rows: int, cols: int) -> list[list[Fraction]]:
        return [[_entry(rng, kind) for _ in range(cols)] for _ in range(rows)]

    return Case(
        kind,
        n,
        d_model,
        d_k,
        matrix(n, d_model),
        matrix(d_model, d_k),
        matrix(d_model, d_k),
        matrix(d_model, d_k),
    )
