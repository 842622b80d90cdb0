"""Certified decimals of a whole encoder layer at scale: arb balls instead of SymPy trees.

:func:`symattn.block.encoder_layer` builds every entry as an exact SymPy
expression, which is what a worked example prints, but at n = 128 tokens and
d_model = 64 the trees alone take far too long.  This module computes rigorous
enclosures (python-flint ``arb`` balls) of the same stages from the same exact
rational inputs, and prints a decimal only when its ball decides the rounding:

* the first attention of a post-norm layer gets its scores and values exactly
  (:func:`symattn.numeric.exact_products`, integer matrix products) and its
  softmax from :func:`symattn.numeric.attention_balls`; attention on balls
  (pre-norm) is evaluated entry by entry with arb's ``exp``;
* products with the weights are ``arb_mat`` products (in C);
* LayerNorm and RMSNorm are per row: mean, population variance and
  ``rsqrt(σ² + ε)``, with ε exact;
* ReLU's value is ``max(0, h)`` of the ball, which encloses the true value
  whatever the sign; the units it zeroes are decided rigorously: a ball that
  still holds 0 raises the precision (up to :data:`symattn.limits.RELU_PREC`
  bits), and a unit still undecided there is reported as undecided, never guessed;
* GELU uses arb's ``erf``, its tanh form arb's ``tanh``, SiLU arb's ``exp``.

The whole layer is recomputed at twice the precision while any printed digit
or any ReLU sign is undecided, up to :data:`symattn.limits.MAX_PREC` bits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from symattn import numeric, stages
from symattn.errors import InputError, ShapeError, UndecidedRoundingError, counted
from symattn.exact import Rounder, to_exact, to_matrix
from symattn.limits import MAX_PREC, RELU_PREC, START_PREC

__all__ = ["LayerBalls", "encoder_layer_balls", "encoder_layer_decimals"]

ACTIVATIONS = ("relu", "gelu", "gelu_tanh", "silu", "swiglu")
NORMS = ("post", "pre")
NORMALIZATIONS = ("layer_norm", "rms_norm")


@dataclass(frozen=True)
class LayerBalls:
    """One encoder layer's stages as arb balls at one precision.

    Attributes:
        prec: the working precision (bits).
        stages: stage name → ``arb_mat`` (the names of :func:`symattn.block.encoder_layer`).
        zeroed: ReLU's hidden units (row, col), 1-based, proved ≤ 0 (set to 0).
        undecided: ReLU's units whose ball still holds 0 at this precision.
    """

    prec: int
    stages: dict[str, flint.arb_mat]
    zeroed: tuple[tuple[int, int], ...] = ()
    undecided: tuple[tuple[int, int], ...] = ()


# --- inputs ----------------------------------------------------------------------------------


def _plain_rows(value: Any) -> bool:
    """A list of equal rows of ints and Fractions: exact already, read without SymPy."""
    return (
        isinstance(value, (list, tuple))
        and bool(value)
        and all(isinstance(row, (list, tuple)) and len(row) == len(value[0]) for row in value)
        and bool(value[0])
        and all(type(v) in (int, Fraction) for row in value for v in row)
    )


def _rational(value: Any, name: str) -> flint.fmpq_mat:
    if _plain_rows(value):
        return flint.fmpq_mat([[flint.fmpq(v.numerator, v.denominator) for v in row] for row in value])
    matrix = to_matrix(value, name=name)
    if not stages.is_rational(matrix):
        raise InputError(
            f"{name}: the ball path takes rational entries (use symattn.encoder_layer for others)"
        )
    return stages.to_fmpq_mat(matrix)


def _row(value: Any, name: str, width: int, default: int) -> list[flint.fmpq]:
    if value is None:
        return [flint.fmpq(default)] * width
    rows = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(rows, (list, tuple)) and len(rows) == 1 and isinstance(rows[0], (list, tuple)):
        rows = rows[0]
    if not isinstance(rows, (list, tuple)) or len(rows) != width:
        size = len(rows) if isinstance(rows, (list, tuple)) else "no"
        raise ShapeError(
            f"{name} has {size} entries but {counted(width, 'column')} are needed ({name} is 1×{size})"
        )
    out = []
    for k, v in enumerate(rows, start=1):
        exact = to_exact(v, where=f"{name}[{k}]")
        if not exact.is_Rational:
            raise InputError(f"{name}[{k}]: the ball path takes rational entries")
        out.append(flint.fmpq(int(exact.p), int(exact.q)))
    return out


def _check(W: flint.fmpq_mat, rows: int, name: str, what: str) -> None:
    if W.nrows() != rows:
        raise ShapeError(
            f"{name} has {counted(W.nrows(), 'row')} but {what} has {counted(rows, 'column')} "
            f"({name} is {W.nrows()}×{W.ncols()})"
        )


# --- the stages on balls ---------------------------------------------------------------------


def _arb_mat(M: flint.fmpq_mat) -> flint.arb_mat:
    return flint.arb_mat(M)


def _add_row(M: flint.arb_mat, b: Sequence[flint.fmpq]) -> flint.arb_mat:
    """M + 1·b (the bias added to every row), an outer product in C."""
    if all(v == 0 for v in b):
        return M
    return M + flint.arb_mat(M.nrows(), 1, [1] * M.nrows()) * flint.arb_mat(1, len(b), list(b))


def _softmax_attention(
    X: flint.arb_mat, W_Q, W_K, W_V, factor: flint.arb
) -> tuple[flint.arb_mat, flint.arb_mat]:
    """Attention on balls: exp entry by entry, each row shifted by its largest midpoint."""
    Q, K, V = X * _arb_mat(W_Q), X * _arb_mat(W_K), X * _arb_mat(W_V)
    S = Q * K.transpose()
    n = S.nrows()
    rows = []
    for i in range(n):
        scaled = [S[i, j] * factor for j in range(n)]
        top = max(ball.mid() for ball in scaled)
        terms = [(ball - top).exp() for ball in scaled]
        total = sum(terms, flint.arb(0))
        inverse = 1 / total
        rows.append([t * inverse for t in terms])
    weights = flint.arb_mat(rows)
    return weights, weights * V


def _attention(
    X: flint.fmpq_mat | flint.arb_mat, heads: Sequence[tuple], W_O: flint.fmpq_mat | None, prec: int
) -> tuple[flint.arb_mat, list[flint.arb_mat]]:
    d_k = heads[0][0].ncols()
    factor = flint.arb(d_k).rsqrt()
    outputs, weights = [], []
    for W_Q, W_K, W_V in heads:
        if isinstance(X, flint.fmpq_mat):  # exact scores and values: the numeric fast path
            scores, V = numeric.exact_products(X, W_Q, W_K, W_V)
            w, out = numeric.attention_balls(scores, factor, None, V, prec)
        else:
            w, out = _softmax_attention(X, W_Q, W_K, W_V, factor)
        weights.append(w)
        outputs.append(out)
    lists = [out.tolist() for out in outputs]
    concat = flint.arb_mat([[v for rows in lists for v in rows[i]] for i in range(len(lists[0]))])
    return (concat if W_O is None else concat * _arb_mat(W_O)), weights


def _norm(
    M: flint.arb_mat, kind: str, eps: flint.fmpq, gamma: Sequence[flint.fmpq], beta: Sequence[flint.fmpq]
) -> flint.arb_mat:
    rows = M.tolist()
    d = len(rows[0])
    out = []
    for row in rows:
        if kind == "rms_norm":
            inverse = (sum((x * x for x in row), flint.arb(0)) / d + eps).rsqrt()
            out.append([x * inverse * g for x, g in zip(row, gamma, strict=True)])
            continue
        mean = sum(row, flint.arb(0)) / d
        centred = [x - mean for x in row]
        variance = sum((c * c for c in centred), flint.arb(0)) / d
        inverse = (variance + eps).rsqrt()
        out.append([c * inverse * g + b for c, g, b in zip(centred, gamma, beta, strict=True)])
    return flint.arb_mat(out)


def _activate(H: flint.arb_mat, activation: str, gate: flint.arb_mat | None):
    """act(H) entry by entry; for ReLU also the zeroed and the undecided units (1-based)."""
    rows = H.tolist()
    zeroed, undecided = [], []
    if activation == "relu":
        out = []
        for i, row in enumerate(rows):
            new = []
            for j, h in enumerate(row):
                if h > 0:
                    new.append(h)
                elif h <= 0:
                    new.append(flint.arb(0))
                    zeroed.append((i + 1, j + 1))
                else:  # the ball holds 0: max(0, h) encloses the true value whatever its sign
                    new.append(h.max(flint.arb(0)))
                    undecided.append((i + 1, j + 1))
            out.append(new)
        return flint.arb_mat(out), tuple(zeroed), tuple(undecided)
    half_root = flint.arb(2).rsqrt()
    root_two_over_pi = (flint.arb(2) / flint.arb.pi()).sqrt()
    cubic = flint.arb(flint.fmpq(44715, 1000000))

    def silu(x):
        return x / (1 + (-x).exp())

    functions = {
        "gelu": lambda x: x / 2 * (1 + (x * half_root).erf()),
        "gelu_tanh": lambda x: x / 2 * (1 + (root_two_over_pi * (x + cubic * x * x * x)).tanh()),
        "silu": silu,
    }
    if activation == "swiglu":
        gates = gate.tolist()
        out = [
            [silu(h) * g for h, g in zip(row, grow, strict=True)]
            for row, grow in zip(rows, gates, strict=True)
        ]
    else:
        f = functions[activation]
        out = [[f(h) for h in row] for row in rows]
    return flint.arb_mat(out), (), ()


def _inputs(X, heads, W_O, ffn, activation, eps, lns):  # noqa: PLR0917 - the layer's own parameters
    """The layer's inputs as exact flint matrices and rows, shapes checked."""
    Xq = _rational(X, "X")
    n, d = Xq.nrows(), Xq.ncols()
    heads_q = []
    for index, head in enumerate(heads, start=1):
        W_Q, W_K, W_V = (
            _rational(m, f"head {index} {name}") for m, name in zip(head, ("W_Q", "W_K", "W_V"), strict=True)
        )
        for W, name in ((W_Q, "W_Q"), (W_K, "W_K"), (W_V, "W_V")):
            _check(W, d, f"head {index} {name}", f"X ({n}×{d})")
        heads_q.append((W_Q, W_K, W_V))
    W_Oq = _rational(W_O, "W_O") if W_O is not None else None
    if W_Oq is not None:
        _check(W_Oq, sum(h[2].ncols() for h in heads_q), "W_O", "the concatenated heads")
    parts = list(ffn) + [None] * (6 - len(ffn))
    W_1, W_2 = _rational(parts[0], "W_1"), _rational(parts[2], "W_2")
    _check(W_1, d, "W_1", f"the FFN's input ({n}×{d})")
    _check(W_2, W_1.ncols(), "W_2", "the hidden layer")
    b_1, b_2 = _row(parts[1], "b_1", W_1.ncols(), 0), _row(parts[3], "b_2", W_2.ncols(), 0)
    W_3 = _rational(parts[4], "W_3") if activation == "swiglu" else None
    b_3 = _row(parts[5], "b_3", W_1.ncols(), 0) if activation == "swiglu" else None
    epsilon = to_exact(eps, where="eps")
    if not epsilon.is_Rational or epsilon <= 0:
        raise InputError(f"eps must be a positive rational but is {eps!r} (read as {epsilon}) (X is {n}×{d})")
    eps_q = flint.fmpq(int(epsilon.p), int(epsilon.q))
    norms = []
    for field, params in zip(("ln_1", "ln_2"), lns, strict=True):
        gamma, beta = [*params, None][:2] if params is not None else (None, None)
        norms.append((_row(gamma, f"{field} gamma", d, 1), _row(beta, f"{field} beta", d, 0)))

    return Xq, heads_q, W_Oq, (W_1, b_1, W_2, b_2, W_3, b_3), eps_q, norms


def encoder_layer_balls(
    X: Any,
    *,
    heads: Sequence[Sequence[Any]],
    W_O: Any,
    ffn: Sequence[Any],
    activation: str = "relu",
    norm: str = "post",
    eps: Any = "1e-5",
    normalization: str = "layer_norm",
    ln_1: Sequence[Any] | None = None,
    ln_2: Sequence[Any] | None = None,
    prec: int = 256,
) -> LayerBalls:
    """Every stage of :func:`symattn.block.encoder_layer` as arb balls at ``prec`` bits.

    Takes rational inputs (ints, fractions, decimal text) with the same meaning
    as :func:`symattn.block.encoder_layer`: heads (W_Q, W_K, W_V), W_O, ffn
    (W_1, b_1, W_2, b_2[, W_3, b_3]), activation, norm "post"/"pre", eps,
    normalization and the norms' (gamma, beta).

    Raises:
        InputError: an unknown option, eps ≤ 0, or an entry that is not rational.
        ShapeError: matrices or biases that do not fit, naming them.
    """
    for value, allowed, field in (
        (activation, ACTIVATIONS, "activation"),
        (norm, NORMS, "norm"),
        (normalization, NORMALIZATIONS, "normalization"),
    ):
        if value not in allowed:
            raise InputError(f"{field}: unknown {field} {value!r} (expected one of {', '.join(allowed)})")
    Xq, heads_q, W_Oq, (W_1, b_1, W_2, b_2, W_3, b_3), eps_q, norms = _inputs(
        X, heads, W_O, ffn, activation, eps, (ln_1, ln_2)
    )
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        out: dict[str, flint.arb_mat] = {"X": _arb_mat(Xq)}

        def normed(M, k):
            out[f"norm_{k}"] = _norm(M, normalization, eps_q, *norms[k - 1])
            return out[f"norm_{k}"]

        source = Xq if norm == "post" else normed(out["X"], 1)
        attention, weights = _attention(source, heads_q, W_Oq, prec)
        for h, w in enumerate(weights, start=1):
            out[f"attention.head{h}.weights"] = w
        out["attention"] = attention
        out["residual_1"] = out["X"] + attention
        H = normed(out["residual_1"], 1) if norm == "post" else out["residual_1"]
        inner = H if norm == "post" else normed(H, 2)
        pre = _add_row(inner * _arb_mat(W_1), b_1)
        out["ffn_pre_activation"] = pre
        gate = None
        if W_3 is not None:
            gate = out["ffn_gate"] = _add_row(inner * _arb_mat(W_3), b_3)
        activated, zeroed, undecided = _activate(pre, activation, gate)
        out["ffn_activated"] = activated
        out["ffn"] = _add_row(activated * _arb_mat(W_2), b_2)
        out["residual_2"] = H + out["ffn"]
        out["output"] = normed(out["residual_2"], 2) if norm == "post" else out["residual_2"]
    finally:
        flint.ctx.prec = old
    return LayerBalls(prec, out, zeroed, undecided)


def _decide(M: flint.arb_mat, places: int) -> list[list[str | None]]:
    rounder = Rounder.make(places)
    return [[rounder.decide(ball) for ball in row] for row in M.tolist()]


def start_precision(places: int) -> int:
    """The first precision tried for ``places`` digits (bits)."""
    return START_PREC + int(places * 3.33) + 32


def encoder_layer_decimals(
    X: Any, *, places: int, stages: Sequence[str] = ("output",), **layer: Any
) -> tuple[dict[str, list[list[str]]], LayerBalls]:
    """Certified decimals of an encoder layer's stages, every printed digit guaranteed.

    The layer is computed by :func:`encoder_layer_balls` at a precision that
    doubles until every entry of ``stages`` rounds and every ReLU sign is decided
    (signs up to :data:`RELU_PREC` bits: a unit still undecided there stays in
    ``LayerBalls.undecided``, its value enclosed by max(0, h)).

    Args:
        X: the layer's rational input rows.
        places: digits after the decimal point.
        stages: the stage names to print ("output", "norm_1", "attention.head2.weights", ...).
        **layer: the keyword arguments of :func:`encoder_layer_balls` (heads, W_O, ffn, ...).

    Returns:
        ({stage: rows of decimal strings}, the balls of the last precision).

    Raises:
        UndecidedRoundingError: an entry is undecided at MAX_PREC bits.
        InputError: an unknown stage, or as :func:`encoder_layer_balls`.
    """
    if places < 0:
        raise InputError(f"places must be 0 or more, not {places}")
    prec = start_precision(places)
    while True:
        balls = encoder_layer_balls(X, prec=prec, **layer)
        unknown = [name for name in stages if name not in balls.stages]
        if unknown:
            raise InputError(f"unknown stage {unknown[0]!r} (expected one of {', '.join(balls.stages)})")
        flint_prec = flint.ctx.prec
        flint.ctx.prec = prec + int(places * 3.33) + 16
        try:
            decided = {name: _decide(balls.stages[name], places) for name in stages}
        finally:
            flint.ctx.prec = flint_prec
        pending = [
            (name, i, j)
            for name, rows in decided.items()
            for i, row in enumerate(rows)
            for j, v in enumerate(row)
            if v is None
        ]
        signs_pending = balls.undecided and prec < RELU_PREC
        if not pending and not signs_pending:
            return decided, balls  # type: ignore[return-value]
        if prec * 2 > MAX_PREC:
            if not pending:
                return decided, balls  # type: ignore[return-value]
            name, i, j = pending[0]
            raise UndecidedRoundingError(
                f"{name}[{i + 1},{j + 1}]: cannot decide the rounding to {places} places within {MAX_PREC} bits "
                "(it may be exactly halfway)"
            )
        prec *= 2
