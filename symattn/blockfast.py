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

__all__ = [
    "LayerBalls",
    "StackBalls",
    "encoder_layer_balls",
    "encoder_layer_decimals",
    "transformer_balls",
    "transformer_decimals",
]

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


def _ball_attention(X, X_kv, head, *, factor: flint.arb, keep) -> tuple[flint.arb_mat, flint.arb_mat]:
    """Attention on balls: exp entry by entry, each row shifted by its largest kept midpoint;
    masked keys have weight exactly 0."""
    W_Q, W_K, W_V = head
    Q, K, V = _ball(X) * _arb_mat(W_Q), _ball(X_kv) * _arb_mat(W_K), _ball(X_kv) * _arb_mat(W_V)
    S = Q * K.transpose()
    n_q, n_k = S.nrows(), S.ncols()
    rows = []
    for i in range(n_q):
        kept = [j for j in range(n_k) if keep is None or keep[i][j]]
        scaled = {j: S[i, j] * factor for j in kept}
        top = max(ball.mid() for ball in scaled.values())
        terms = {j: (ball - top).exp() for j, ball in scaled.items()}
        inverse = 1 / sum(terms.values(), flint.arb(0))
        rows.append([terms[j] * inverse if j in terms else flint.arb(0) for j in range(n_k)])
    weights = flint.arb_mat(rows)
    return weights, weights * V


def _ball(M: flint.fmpq_mat | flint.arb_mat) -> flint.arb_mat:
    return flint.arb_mat(M) if isinstance(M, flint.fmpq_mat) else M


def _mha(X, X_kv, triples, W_O, *, factor, keep, prec: int, prefix: str, out: dict) -> flint.arb_mat:
    """Multi-head attention (queries from X, keys and values from X_kv); the heads' weights and
    outputs are stored in ``out`` as PREFIX.headN.weights / .output."""
    outputs = []
    for h, (W_Q, W_K, W_V) in enumerate(triples, start=1):
        if isinstance(X, flint.fmpq_mat) and isinstance(X_kv, flint.fmpq_mat):  # exact scores and values
            scores, V = numeric.exact_products(X, W_Q, W_K, W_V, X_kv=None if X_kv is X else X_kv)
            w, o = numeric.attention_balls(scores, factor, keep, V, prec)
        else:
            w, o = _ball_attention(X, X_kv, (W_Q, W_K, W_V), factor=factor, keep=keep)
        out[f"{prefix}head{h}.weights"], out[f"{prefix}head{h}.output"] = w, o
        outputs.append(o)
    lists = [o.tolist() for o in outputs]
    concat = flint.arb_mat([[v for rows in lists for v in rows[i]] for i in range(len(lists[0]))])
    return concat if W_O is None else concat * _arb_mat(W_O)


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
    options = {
        "heads": heads, "W_O": W_O, "ffn": ffn, "activation": activation, "norm": norm, "eps": eps,
        "normalization": normalization, "ln_1": ln_1, "ln_2": ln_2,
    }  # fmt: skip
    stack = _stack_balls(X, layers=[options], prec=prec, locate=False)
    stages_ = {"X": stack.stages["X"]}
    stages_.update(
        {name[len("layer1.") :]: value for name, value in stack.stages.items() if name.startswith("layer1.")}
    )
    return LayerBalls(prec, stages_, stack.zeroed[1], stack.undecided[1])


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
        decided = _decide_all(balls.stages, stages, places, prec)
        pending = _pending(decided)
        if not pending and not (balls.undecided and prec < RELU_PREC):
            return decided, balls  # type: ignore[return-value]
        _give_up(pending, places, prec, decided)
        if not pending and prec * 2 > MAX_PREC:
            return decided, balls  # type: ignore[return-value]
        prec *= 2


def _decide_all(
    balls: dict, names: Sequence[str], places: int, prec: int
) -> dict[str, list[list[str | None]]]:
    old = flint.ctx.prec
    flint.ctx.prec = prec + int(places * 3.33) + 16
    try:
        return {name: _decide(balls[name], places) for name in names}
    finally:
        flint.ctx.prec = old


def _pending(decided: dict[str, list[list[str | None]]]) -> list[tuple[str, int, int]]:
    return [
        (name, i, j)
        for name, rows in decided.items()
        for i, row in enumerate(rows)
        for j, v in enumerate(row)
        if v is None
    ]


def _give_up(pending: list[tuple[str, int, int]], places: int, prec: int, decided: dict) -> None:
    """Raise when a rounding is still undecided and doubling would pass MAX_PREC."""
    if pending and prec * 2 > MAX_PREC:
        name, i, j = pending[0]
        raise UndecidedRoundingError(
            f"{name}[{i + 1},{j + 1}]: cannot decide the rounding to {places} places within {MAX_PREC} bits "
            "(it may be exactly halfway)"
        )


# --- a whole stack: positions, encoder and decoder layers, the final softmax ------------------------


@dataclass(frozen=True)
class StackBalls:
    """A stack's stages as arb balls (the names of :class:`symattn.block.Transformer`'s stages,
    heads included: "layer1.attention.head1.weights"), ReLU's zeroed and undecided units per layer."""

    prec: int
    stages: dict[str, flint.arb_mat]
    zeroed: dict[int, tuple[tuple[int, int], ...]]
    undecided: dict[int, tuple[tuple[int, int], ...]]


def _weights(value: Any, name: str, rows: int) -> flint.fmpq_mat:
    """A weight matrix (None: the identity), rows checked."""
    if value is None:
        return flint.fmpq_mat(rows, rows, [int(i == j) for i in range(rows) for j in range(rows)])
    W = _rational(value, name)
    return W


def _triples(heads: Sequence[Any], kv_heads: Sequence[Any] | None, d: int, what: str) -> list[tuple]:
    if kv_heads is not None:
        size = len(heads) // len(kv_heads)
        if not heads or len(heads) % len(kv_heads):
            raise ShapeError(
                f"kv_heads has {len(kv_heads)} heads but q_heads has {len(heads)}; "
                "the number of key/value heads must divide the number of query heads"
            )
        heads = [(W_Q, *kv_heads[h // size]) for h, W_Q in enumerate(heads)]
    out = []
    for head in heads:
        triple = tuple(_weights(m, name, d) for m, name in zip(head, ("W_Q", "W_K", "W_V"), strict=True))
        for W, name in zip(triple, ("W_Q", "W_K", "W_V"), strict=True):
            _check(W, d, name, what)
        out.append(triple)
    return out


def _factor(scale: Any, temperature: Any, d_k: int, prec: int) -> flint.arb:
    from symattn.exact import enclose

    return enclose(stages.scale_factor(d_k, scale, temperature), prec)


def _keep(mask: Any, n_q: int, n_k: int):
    if mask is None:
        return None
    M = stages.normalise_mask(mask, n_q, n_k)
    return [[M[i, j] == 0 for j in range(n_k)] for i in range(n_q)]


class _StackLayer:
    """One layer of a stack on balls: its sublayers in order, each with its norm before (pre) or after (post)."""

    def __init__(self, current, memory, options: dict, k: int, *, prec: int, out: dict) -> None:
        self.options = dict(options)
        self.kind = self.options.pop("kind", "encoder")
        self.k, self.prec, self.out, self.memory = k, prec, out, memory
        self.prefix = f"layer{k}."
        self.current, self.count = current, 0
        self.zeroed: tuple = ()
        self.undecided: tuple = ()
        n, d = current.nrows(), current.ncols()
        self.d = d
        self.activation = self.options.get("activation", "relu")
        self.placement = self.options.get("norm", "post")
        self.normalization = self.options.get("normalization", "layer_norm")
        for value, allowed, field in (
            (self.activation, ACTIVATIONS, "activation"),
            (self.placement, NORMS, "norm"),
            (self.normalization, NORMALIZATIONS, "normalization"),
        ):
            if value not in allowed:
                raise InputError(f"{field}: unknown {field} {value!r} (expected one of {', '.join(allowed)})")
        epsilon = to_exact(self.options.get("eps", "1e-5"), where="eps")
        if not epsilon.is_Rational or epsilon <= 0:
            raise InputError(
                f"eps must be a positive rational but is {self.options.get('eps')!r} (read as {epsilon})"
            )
        self.eps = flint.fmpq(int(epsilon.p), int(epsilon.q))
        self.norms = []
        for m in range(1, (2 if self.kind == "encoder" else 3) + 1):
            params = self.options.get(f"ln_{m}")
            gamma, beta = [*params, None][:2] if params is not None else (None, None)
            self.norms.append((_row(gamma, f"gamma_{m}", d, 1), _row(beta, f"beta_{m}", d, 0)))
        parts = [*self.options["ffn"], None, None][:6]
        self.W_1, self.W_2 = _rational(parts[0], "W_1"), _rational(parts[2], "W_2")
        _check(self.W_1, d, "W_1", f"the FFN's input ({n}×{d})")
        _check(self.W_2, self.W_1.ncols(), "W_2", "the hidden layer")
        self.b_1, self.b_2 = (
            _row(parts[1], "b_1", self.W_1.ncols(), 0),
            _row(parts[3], "b_2", self.W_2.ncols(), 0),
        )
        swiglu = self.activation == "swiglu"
        self.W_3 = _rational(parts[4], "W_3") if swiglu else None
        self.b_3 = _row(parts[5], "b_3", self.W_1.ncols(), 0) if swiglu else None

    def run(self):
        o = self.options
        if self.kind == "encoder":
            self.sublayer(
                "attention",
                self.attention("attention", o["heads"], o.get("W_O"), o.get("kv_heads"), mask=o.get("mask"),
                               scale=o.get("scale", "sqrt_dk"), temperature=o.get("temperature", 1)),
            )  # fmt: skip
        else:
            scale = o.get("scale", "sqrt_dk")
            self.sublayer(
                "self_attention",
                self.attention("self_attention", o["self_heads"], o.get("self_W_O"), o.get("kv_heads"),
                               mask="causal", scale=scale),
            )  # fmt: skip
            self.sublayer(
                "cross_attention",
                self.attention("cross_attention", o["cross_heads"], o.get("cross_W_O"), None,
                               source_kv=self.memory, scale=scale),
            )  # fmt: skip
        self.sublayer("ffn", self.ffn)
        self.out[self.prefix + "output"] = _ball(self.current)
        return self.current, self.zeroed, self.undecided

    def normed(self, M):
        self.count += 1
        value = _norm(_ball(M), self.normalization, self.eps, *self.norms[self.count - 1])
        self.out[f"{self.prefix}norm_{self.count}"] = value
        return value

    def sublayer(self, name: str, step) -> None:
        source = self.normed(self.current) if self.placement == "pre" else self.current
        value = step(source)
        if name != "ffn":
            self.out[self.prefix + name] = value
        total = _ball(self.current) + value
        self.out[f"{self.prefix}residual_{self.count + (self.placement == 'post')}"] = total
        self.current = self.normed(total) if self.placement == "post" else total

    def ffn(self, source):
        inner, p = _ball(source), self.prefix
        pre = self.out[p + "ffn_pre_activation"] = _add_row(inner * _arb_mat(self.W_1), self.b_1)
        gate = None
        if self.W_3 is not None:
            gate = self.out[p + "ffn_gate"] = _add_row(inner * _arb_mat(self.W_3), self.b_3)
        activated, self.zeroed, self.undecided = _activate(pre, self.activation, gate)
        self.out[p + "ffn_activated"] = activated
        value = self.out[p + "ffn"] = _add_row(activated * _arb_mat(self.W_2), self.b_2)
        return value

    def attention(
        self, name, heads, W_O, kv_heads, *, source_kv=None, mask=None, scale="sqrt_dk", temperature=1
    ):
        def step(source):
            keys = source if source_kv is None else source_kv
            triples = _triples(heads, kv_heads, self.d, f"X ({source.nrows()}×{self.d})")
            W_Oq = _rational(W_O, "W_O") if W_O is not None else None
            if W_Oq is not None:
                _check(W_Oq, sum(t[2].ncols() for t in triples), "W_O", "the concatenated heads")
            factor = _factor(scale, temperature, triples[0][0].ncols(), self.prec)
            keep = _keep(mask, source.nrows(), keys.nrows())
            return _mha(
                source, keys, triples, W_Oq, factor=factor, keep=keep, prec=self.prec,
                prefix=f"{self.prefix}{name}.", out=self.out,
            )  # fmt: skip

        return step


def _positional_balls(positional: Any, n: int, d: int) -> flint.arb_mat:
    if not isinstance(positional, dict):
        P = _rational(positional, "positional")
        if (P.nrows(), P.ncols()) != (n, d):
            raise ShapeError(f"positional is {P.nrows()}×{P.ncols()} but X is {n}×{d}")
        return flint.arb_mat(P)
    options = {key: value for key, value in positional.items() if key != "kind"}
    layout, start = options.get("layout", "interleaved"), int(options.get("start", 0))
    if d % 2:
        raise ShapeError(
            f"d_model is {d}, but the sinusoidal positional encoding needs an even d_model "
            f"(pairs of columns; the encoding would be {n}×{d})"
        )
    base = to_exact(options.get("base", 10000), where="base")
    if not base.is_Rational or base <= 0:
        raise InputError(f"base must be a positive rational, not {options.get('base')!r}")
    b = flint.arb(flint.fmpq(int(base.p), int(base.q)))
    thetas = [b ** flint.arb(flint.fmpq(-2 * i, d)) for i in range(d // 2)]
    rows = []
    for pos in range(start, start + n):
        angles = [pos * theta for theta in thetas]
        sines, cosines = [a.sin() for a in angles], [a.cos() for a in angles]
        if layout == "interleaved":
            rows.append([v for pair in zip(sines, cosines, strict=True) for v in pair])
        else:
            rows.append(sines + cosines)
    return flint.arb_mat(rows)


def transformer_balls(
    X: Any,
    *,
    layers: Sequence[dict],
    positional: Any = None,
    unembed: Sequence[Any] | None = None,
    memory: Any = None,
    prec: int = 256,
) -> StackBalls:
    """The stages of :func:`symattn.block.transformer` as arb balls at ``prec`` bits (rational inputs).

    Takes the same arguments as :func:`symattn.block.transformer` (a :class:`~symattn.blockspec.BlockSpec`'s
    ``layers``, ``positional``, ``unembed`` and ``memory``), sinusoidal positions included (arb's sin, cos and
    real powers of the base).

    Raises:
        InputError, ShapeError: as :func:`symattn.block.transformer`, prefixed ``layers[k]: ``.
    """
    return _stack_balls(X, layers=layers, positional=positional, unembed=unembed, memory=memory, prec=prec)


def _stack_balls(
    X: Any,
    *,
    layers: Sequence[dict],
    positional: Any = None,
    unembed: Sequence[Any] | None = None,
    memory: Any = None,
    prec: int,
    locate: bool = True,
) -> StackBalls:
    from contextlib import nullcontext

    from symattn.block import _located as located

    def _located(place: str):
        return located(place) if locate else nullcontext()

    Xq = _rational(X, "X")
    memory_q = _rational(memory, "memory") if memory is not None else None
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        out: dict[str, flint.arb_mat] = {"X": flint.arb_mat(Xq)}
        current: flint.fmpq_mat | flint.arb_mat = Xq
        if positional is not None:
            with _located("positional"):
                out["positional"] = _positional_balls(positional, Xq.nrows(), Xq.ncols())
            current = out["embedded"] = out["X"] + out["positional"]
        zeroed, undecided = {}, {}
        for k, options in enumerate(layers, start=1):
            with _located(f"layers[{k}]"):
                if options.get("rope") is not None:
                    raise InputError("rope: RoPE is not on the ball path yet; use --engine exact")
                current, zeroed[k], undecided[k] = _StackLayer(
                    current, memory_q, options, k, prec=prec, out=out
                ).run()
        if unembed is not None:
            with _located("unembed"):
                W_U = _rational(unembed[0], "W_U")
                _check(W_U, current.ncols(), "W_U", "the last layer's output")
                logits = out["logits"] = _add_row(
                    _ball(current) * _arb_mat(W_U), _row(unembed[1], "b_U", W_U.ncols(), 0)
                )
                rows = []
                for row in logits.tolist():
                    top = max(v.mid() for v in row)
                    terms = [(v - top).exp() for v in row]
                    inverse = 1 / sum(terms, flint.arb(0))
                    rows.append([t * inverse for t in terms])
                current = out["probabilities"] = flint.arb_mat(rows)
        out["output"] = _ball(current)
    finally:
        flint.ctx.prec = old
    return StackBalls(prec, out, zeroed, undecided)


def transformer_decimals(
    X: Any, *, places: int, stages: Sequence[str] | None = None, **stack: Any
) -> tuple[dict[str, list[list[str]]], StackBalls]:
    """Certified decimals of a stack's stages (all of them by default), as :func:`encoder_layer_decimals`."""
    if places < 0:
        raise InputError(f"places must be 0 or more, not {places}")
    prec = start_precision(places)
    while True:
        balls = transformer_balls(X, prec=prec, **stack)
        names = list(balls.stages) if stages is None else list(stages)
        unknown = [name for name in names if name not in balls.stages]
        if unknown:
            raise InputError(f"unknown stage {unknown[0]!r} (expected one of {', '.join(balls.stages)})")
        decided = _decide_all(balls.stages, names, places, prec)
        pending = _pending(decided)
        signs_pending = any(balls.undecided.values()) and prec < RELU_PREC
        if not pending and not signs_pending:
            return decided, balls  # type: ignore[return-value]
        _give_up(pending, places, prec, decided)
        if not pending and prec * 2 > MAX_PREC:
            return decided, balls  # type: ignore[return-value]
        prec *= 2
