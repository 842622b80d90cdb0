"""The records a derivation is made of: exact values and certified decimals.

:mod:`symattn.derivation` builds them from the engine; :mod:`.compose` turns
them into prose and formulas.  Decimal fields are ``None`` when the inputs
have free symbols (closed forms only).  ``head`` is 0 for single-head
attention and k for head k of a multi-head layer.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from sympy import ImmutableMatrix

__all__ = [
    "Analysis",
    "ClaimCell",
    "ClaimTable",
    "Concat",
    "Decimals",
    "Importance",
    "ImportanceRow",
    "Linear",
    "NamedExp",
    "Output",
    "OutputProjection",
    "OutputRow",
    "Projection",
    "Recomputed",
    "Reordering",
    "Scores",
    "Setup",
    "Softmax",
    "SoftmaxRow",
    "Step",
]

Decimals = tuple[tuple[str, ...], ...] | None

Linear = tuple[tuple[sympy.Expr, int], ...]
"""A sum of named exponentials: ``(coefficient, k)`` pairs for coefficient·t_k; k = 0 is the constant 1."""


@dataclass(frozen=True)
class NamedExp:
    """A named exponential of a softmax with long closed forms: t_k = e^(...) ≈ decimal."""

    index: int  # k in t_k, from 1
    value: sympy.Expr  # the exact exponential (after the row's shift)
    decimal: str | None


@dataclass(frozen=True)
class Setup:
    """Step 1: the inputs of one attention (or of one head)."""

    head: int
    X: ImmutableMatrix | None  # None for heads after the first (X was shown once)
    X_kv: ImmutableMatrix | None
    W_Q: ImmutableMatrix
    W_K: ImmutableMatrix
    W_V: ImmutableMatrix
    d_k: int
    factor: sympy.Expr
    default_scale: bool  # factor is exactly 1/sqrt(d_k)
    labels: tuple[str, ...] | None
    kv_labels: tuple[str, ...] | None
    causal: bool
    masked: bool
    numeric: bool


@dataclass(frozen=True)
class Projection:
    """Step 2: one of Q = X W_Q, K = X W_K (or X_kv W_K), V = X W_V."""

    head: int
    name: str  # "Q", "K" or "V"
    source: ImmutableMatrix
    cross: bool  # the source is X_kv
    weight: ImmutableMatrix
    result: ImmutableMatrix
    labels: tuple[str, ...] | None


@dataclass(frozen=True)
class Scores:
    """Step 3: S = Q Kᵀ, then the scaled (and masked) scores."""

    head: int
    Q: ImmutableMatrix
    K_T: ImmutableMatrix
    scores: ImmutableMatrix
    factor: sympy.Expr
    d_k: int
    default_scale: bool  # factor is exactly 1/sqrt(d_k)
    scaled: ImmutableMatrix
    scaled_decimals: Decimals
    masked: bool
    labels: tuple[str, ...] | None


@dataclass(frozen=True)
class SoftmaxRow:
    """One row of the softmax: exponents, closed forms, decimals, the sum."""

    index: int  # 1-based
    label: str | None
    exponents: tuple[sympy.Expr, ...]  # the scaled scores, -oo where masked
    shift: sympy.Expr
    terms: tuple[sympy.Expr, ...]  # e^(s_j - shift), 0 where masked
    denominator: sympy.Expr
    weights: tuple[sympy.Expr, ...]
    decimals: tuple[str, ...] | None
    sums_to_one: bool
    # With named exponentials (Softmax.named): the name of each term (0: the constant 1,
    # k: t_k, None: masked), the names first used in this row, and the shared denominator.
    names: tuple[int | None, ...] | None = None
    new_names: tuple[NamedExp, ...] = ()
    denominator_named: Linear | None = None
    denominator_decimal: str | None = None


@dataclass(frozen=True)
class Softmax:
    """Step 4: the softmax row by row, then the whole weight matrix."""

    head: int
    rows: tuple[SoftmaxRow, ...]
    weights: ImmutableMatrix
    decimals: Decimals
    labels: tuple[str, ...] | None
    named: bool = False  # the closed forms are long: the exponentials are named t_1, t_2, ...


@dataclass(frozen=True)
class OutputRow:
    """One output row as Σ_j a_ij v_j, term by term."""

    index: int
    label: str | None
    key_labels: tuple[str, ...] | None
    weights: tuple[sympy.Expr, ...]
    weight_decimals: tuple[str, ...] | None
    values: tuple[tuple[sympy.Expr, ...], ...]  # v_j, the rows of V
    terms: tuple[tuple[sympy.Expr, ...], ...]  # a_ij v_j
    term_decimals: tuple[tuple[str, ...], ...] | None
    output: tuple[sympy.Expr, ...]
    output_decimals: tuple[str, ...] | None
    dominant: tuple[int, ...] | None  # 1-based keys with the largest weight; None if undecided
    # With named exponentials: each weight's name (see SoftmaxRow.names) and the numerator
    # of each output entry over the row's denominator D_i.
    weight_names: tuple[int | None, ...] | None = None
    output_named: tuple[Linear, ...] | None = None


@dataclass(frozen=True)
class Output:
    """Step 5: the output rows, then the output matrix."""

    head: int
    rows: tuple[OutputRow, ...]
    output: ImmutableMatrix
    decimals: Decimals
    labels: tuple[str, ...] | None
    named: bool = False  # the exact output is given row by row with names; the matrix in decimals


@dataclass(frozen=True)
class Analysis:
    """Step 6: what each output vector is made of (the same rows, in words)."""

    head: int
    rows: tuple[OutputRow, ...]
    numeric: bool


@dataclass(frozen=True)
class Reordering:
    """Two tokens that two measures order differently (1-based tokens).

    ``orders`` holds -1, 0 or 1 (p below, tied with, above q) under each measure;
    ``reason`` is "value length" (weights against norms) or "query and key path"
    (norms against Jacobian norms).
    """

    tokens: tuple[int, int]
    measures: tuple[str, str]
    orders: tuple[int, int]
    reason: str


@dataclass(frozen=True)
class ImportanceRow:
    """How much each token matters for one output: three measures, compared exactly.

    Decimals are certified; ``rankings`` maps a measure to groups of exactly tied
    tokens (1-based, largest first); ``ties`` lists, per group of tokens, the
    measures in which they tie exactly.  Masked tokens (weight exactly 0) are left
    out of rankings, ties and shares.
    """

    index: int  # 1-based
    label: str | None
    key_labels: tuple[str, ...] | None
    weights: tuple[sympy.Expr, ...]
    weight_decimals: tuple[str, ...]
    norms: tuple[sympy.Expr, ...]  # n_ij = a_ij r_j, exact
    norm_decimals: tuple[str, ...]
    jacobian_decimals: tuple[str, ...] | None  # None: the Jacobian is too large to build here
    mean_decimal: str  # m_i = Σ_j n_ij, the weight-averaged value length
    share_decimals: tuple[str, ...]  # n_ij / m_i
    rankings: dict[str, tuple[tuple[int, ...], ...]]
    ties: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...]
    more_than_weight: tuple[int, ...]
    less_than_weight: tuple[int, ...]
    reorderings: tuple[Reordering, ...]
    masked: tuple[int, ...]
    query_token: int | None  # self-attention: the 1-based token whose row is the query (x_i itself)


@dataclass(frozen=True)
class Importance:
    """Step 7: how important each token is, per output (weights, norms, Jacobian norms)."""

    head: int
    lengths: tuple[sympy.Expr, ...]  # r_j = sqrt(v_j · v_j), exact
    length_decimals: tuple[str, ...] | None
    width: int  # d_v, the entries of a value vector
    first_entries: tuple[sympy.Expr, ...]  # v_j1 (with one entry, r_j = |v_j1|)
    rows: tuple[ImportanceRow, ...]  # empty for symbolic inputs
    numeric: bool
    jacobian: bool  # the Jacobian norms were computed
    jacobian_entries: int  # the exact entries the Jacobian needs (n_q · n_k · d_v · d_model)
    jacobian_limit: int
    labels: tuple[str, ...] | None
    kv_labels: tuple[str, ...] | None
    cross: bool


@dataclass(frozen=True)
class ClaimCell:
    """One claimed number against the true value."""

    row: int
    col: int
    claimed: str
    exact: sympy.Expr
    decimal: str  # certified, to the claim's places + 3
    kind: str  # "ok", "rounding", "wrong", "carried"
    exact_claim: bool = False  # an integer claim ("0", "1"): it claims the exact value, not a rounding


@dataclass(frozen=True)
class LeftOut:
    """A section the size policy left out, and why (``tokens``: more than 3; ``heads``: more
    than one), with how to put it back."""

    head: int
    section: str  # "importance"
    why: str  # "tokens" or "heads"


@dataclass(frozen=True)
class ClaimTable:
    """Step 7a: a claimed matrix next to the true one."""

    name: str  # "weights", "output", "Q", ...
    cells: tuple[tuple[ClaimCell, ...], ...]
    # With named exponentials: the head, and the weights' names or the output's numerators
    # over D_i (see SoftmaxRow.names and OutputRow.output_named), to show the exact values by name.
    head: int = 0
    weight_names: tuple[tuple[int | None, ...], ...] | None = None
    output_named: tuple[tuple[Linear, ...], ...] | None = None
    # the tokens' labels of its rows and columns, where they are tokens (as the importance
    # heatmaps label theirs); None: numbered
    row_labels: tuple[str, ...] | None = None
    col_labels: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Recomputed:
    """Step 7b: the output recomputed from the claimed weights, next to the true one."""

    claimed_weights: tuple[tuple[str, ...], ...]
    V: ImmutableMatrix
    recomputed: ImmutableMatrix
    recomputed_decimals: tuple[tuple[str, ...], ...]
    true_output: ImmutableMatrix
    true_decimals: tuple[tuple[str, ...], ...]
    claimed_output: tuple[tuple[str, ...], ...] | None
    consistent: bool | None  # the claimed output holds for the recomputed values (None: no claimed output)
    weights_wrong: bool  # some claimed weight is wrong
    labels: tuple[str, ...] | None


@dataclass(frozen=True)
class Concat:
    """Multi-head: the heads' outputs side by side."""

    outputs: tuple[ImmutableMatrix, ...]
    concat: ImmutableMatrix
    decimals: Decimals
    labels: tuple[str, ...] | None
    named: bool = False  # some head has named exponentials: decimals only


@dataclass(frozen=True)
class OutputProjection:
    """Multi-head: the concatenation projected by W_O."""

    concat: ImmutableMatrix
    W_O: ImmutableMatrix
    output: ImmutableMatrix
    decimals: Decimals
    labels: tuple[str, ...] | None
    named: bool = False  # some head has named exponentials: decimals only


Step = (
    Setup
    | Projection
    | Scores
    | Softmax
    | Output
    | Analysis
    | Importance
    | LeftOut
    | ClaimTable
    | Recomputed
    | Concat
    | OutputProjection
)
