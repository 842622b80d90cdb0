"""The records of a transformer-block derivation: exact values and certified decimals.

:mod:`symattn.block_derivation` builds them from the engine (:mod:`symattn.block`);
:mod:`.block_compose` turns them into prose and formulas.  The attention sublayers
reuse the attention records of :mod:`.steps` (one head at a time, then the
concatenation and W_O); only what a block adds is declared here.

``exact`` flags say whether a matrix's closed forms are short enough to print
(decided by the builder from the size of each expression); otherwise the
certified decimals are shown alone.  Every decimal is certified.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from sympy import ImmutableMatrix

from symattn.render.steps import Step as AttentionStep

__all__ = [
    "AttentionPart",
    "BlockSetup",
    "BlockStep",
    "FeedForwardStep",
    "HeadDecimals",
    "LayerConvention",
    "NormRow",
    "NormStep",
    "PEAngle",
    "PositionalStep",
    "ResidualStep",
    "RopeAngle",
    "RopeStep",
    "Shown",
    "UnembedStep",
]


@dataclass(frozen=True)
class Shown:
    """A matrix with its certified decimals, and whether its closed forms are short enough to print."""

    value: ImmutableMatrix
    decimals: tuple[tuple[str, ...], ...]
    exact: bool  # every entry is short: print the closed forms (and the decimals where they differ)
    # The decimals with two more places, for the matrix as an operand of a later sum (a teacher
    # carries guard digits through intermediate steps; the results are rounded at the end).
    operands: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class LayerConvention:
    """How one layer is built, as the derivation states it."""

    index: int  # 1-based
    kind: str  # "encoder" or "decoder"
    placement: str  # "post" or "pre"
    normalization: str  # "layer_norm" or "rms_norm"
    eps: sympy.Expr
    activation: str
    heads: int
    kv_heads: int | None  # GQA: the number of shared key/value heads
    cross_heads: int  # decoder: the heads of cross-attention
    rope: tuple[sympy.Expr, int, str] | None  # (base, start, layout)


@dataclass(frozen=True)
class BlockSetup:
    """The inputs and the conventions of the whole block."""

    X: ImmutableMatrix
    memory: ImmutableMatrix | None
    positional: str | None  # "sinusoidal", "learned" or None
    layers: tuple[LayerConvention, ...]
    unembed: bool


@dataclass(frozen=True)
class PEAngle:
    """One position's angle for one frequency, and its sine and cosine."""

    pos: int
    i: int  # the frequency index (0-based, as in PE(pos, 2i))
    columns: tuple[int, int]  # the 1-based columns of its sine and cosine
    angle: sympy.Expr
    angle_decimal: str
    sin: sympy.Expr
    sin_decimal: str
    cos: sympy.Expr
    cos_decimal: str


@dataclass(frozen=True)
class PositionalStep:
    """The positional encodings, then E = X + PE."""

    kind: str  # "sinusoidal" or "learned"
    base: sympy.Expr | None
    start: int
    layout: str
    d_model: int
    frequencies: tuple[sympy.Expr, ...]  # base^{-2i/d}
    angles: tuple[PEAngle, ...]
    X: ImmutableMatrix
    P: Shown
    E: Shown


@dataclass(frozen=True)
class NormRow:
    """One token's normalisation, every quantity exact with its certified decimal.

    ``*_operand`` are the decimals with two more places, as operands of the next line.
    """

    index: int  # 1-based
    x_decimals: tuple[str, ...]  # with two more places (the row is an operand)
    x_exact: tuple[sympy.Expr, ...] | None  # the inputs when short, else None
    mean: sympy.Expr
    mean_decimal: str
    mean_operand: str
    mean_exact: bool
    centred_operands: tuple[str, ...]  # x_j − μ with guard digits (a variance too wide to write out)
    variance: sympy.Expr
    variance_decimal: str
    variance_operand: str
    variance_exact: bool
    root_decimal: str
    root_operand: str
    normalised_decimals: tuple[str, ...]  # (x − μ)/√(σ² + ε), before γ and β
    output_decimals: tuple[str, ...]


@dataclass(frozen=True)
class NormStep:
    """A LayerNorm (or RMSNorm) of every token of a matrix."""

    layer: int
    number: int  # k of norm_k
    kind: str  # "layer_norm" or "rms_norm"
    source: str  # the LaTeX name of the normalised matrix
    target: str  # the LaTeX name of the result
    eps: sympy.Expr
    d: int
    input: Shown  # the matrix normalised
    rows: tuple[NormRow, ...]  # LayerNorm only; RMSNorm shows the result
    gamma: tuple[sympy.Expr, ...] | None
    beta: tuple[sympy.Expr, ...] | None
    output: Shown


@dataclass(frozen=True)
class RopeAngle:
    """The rotation of one row's pair of columns: the angle m·θ_i, its cosine and sine."""

    row: int  # 1-based
    position: int  # m
    pair: tuple[int, int]  # 1-based columns rotated together
    theta: sympy.Expr
    angle: sympy.Expr
    angle_decimal: str
    cos_decimal: str
    sin_decimal: str


@dataclass(frozen=True)
class RopeStep:
    """RoPE of one head: the angles, then the rotated queries and keys."""

    head: int
    base: sympy.Expr
    start: int
    layout: str
    d_k: int
    thetas: tuple[sympy.Expr, ...]
    angles: tuple[RopeAngle, ...]
    Q_linear: ImmutableMatrix
    K_linear: ImmutableMatrix
    Q: Shown
    K: Shown
    cross: bool


@dataclass(frozen=True)
class HeadDecimals:
    """One head whose closed forms are too long to print: its weights and output in decimals."""

    head: int
    weights: Shown
    output: Shown


@dataclass(frozen=True)
class AttentionPart:
    """One attention sublayer: its input, then the attention records of every head."""

    layer: int
    stage: str  # "attention", "self_attention" or "cross_attention"
    source: str  # the LaTeX name of its input (X, E, N_1, ...)
    memory: bool  # cross-attention: keys and values from the memory
    causal: bool
    heads: int
    groups: tuple[int, ...] | None  # GQA: the 1-based key/value head of each query head
    rope: bool
    steps: tuple[AttentionStep | RopeStep | HeadDecimals, ...]
    long: bool  # the inputs' closed forms are long: each head's weights and output in decimals only
    output: Shown
    W_O: bool


@dataclass(frozen=True)
class ResidualStep:
    """A residual connection: the stream plus the sublayer's output, entry by entry."""

    layer: int
    number: int  # k of residual_k
    left: str  # LaTeX names of the two terms and the result
    right: str
    right_formula: str  # MHA(...), FFN(...)
    target: str
    left_value: Shown
    right_value: Shown
    result: Shown


@dataclass(frozen=True)
class FeedForwardStep:
    """The position-wise feed-forward network: pre-activations, activation, output."""

    layer: int
    source: str
    activation: str
    W_1: ImmutableMatrix
    b_1: tuple[sympy.Expr, ...]
    W_2: ImmutableMatrix
    b_2: tuple[sympy.Expr, ...]
    W_3: ImmutableMatrix | None
    b_3: tuple[sympy.Expr, ...] | None
    input: Shown  # the rows the FFN reads
    pre: Shown
    gate: Shown | None
    activated: Shown
    output: Shown
    zeroed: tuple[tuple[int, int], ...]  # ReLU: (token, unit), 1-based
    undecided: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class UnembedStep:
    """The final linear layer and the softmax over the vocabulary."""

    source: str
    input: Shown
    W_U: ImmutableMatrix
    b_U: tuple[sympy.Expr, ...]
    logits: Shown
    probabilities: Shown


@dataclass(frozen=True)
class OutputStep:
    """The block's output, in certified decimals."""

    name: str
    output: Shown


BlockStep = (
    BlockSetup
    | PositionalStep
    | NormStep
    | AttentionPart
    | ResidualStep
    | FeedForwardStep
    | UnembedStep
    | OutputStep
)
