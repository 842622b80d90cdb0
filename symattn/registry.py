"""One declaration per stage: name, symbol, formula, inputs, compute, claimable, prose keys.

Every stage symattn computes is declared here once, and the code that needs
stage names iterates these tables instead of spelling the names again:

* :mod:`symattn.pipeline`: :class:`~symattn.pipeline.Attention`'s stage
  attributes are :func:`computed` from :data:`ATTENTION`, its ``stage_names``,
  ``stages`` and formulas come from it, and :class:`~symattn.pipeline.MultiHead`
  reads head names with :func:`split_head`.
* :mod:`symattn.spec`: the claims a spec may make (:func:`attention_claim_keys`,
  :func:`block_claim_keys`).
* ``symattn compute`` (:mod:`symattn.cli`): the stages it prints (``shown``).
* :mod:`symattn.block`: the names of a layer's stages in order
  (:func:`layer_stage_names`), checked against what the layer builds.

* :mod:`symattn.render.compose` and :mod:`symattn.render.block_compose`: a
  claimed entry's symbol and each section's prose key (``symbol``, ``prose``).
* :mod:`symattn.verify`: the names a document gives a stage (``read_as``: the
  names whose bare printed numbers claim it by convention, ``A = [...]`` the
  weights; ``aliases``: every name a printout or table may use, PE and pe
  the positional encoding).

Adding a stage then touches one declaration plus its prose (and, for a new
kind of step, the renderer's function for it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from symattn import kits

__all__ = [
    "ATTENTION",
    "ATTENTION_GRAPH",
    "BLOCK",
    "GRAPHS",
    "MULTIHEAD",
    "OPS",
    "VOCABULARY_GRAPH",
    "Graph",
    "GraphNode",
    "Op",
    "Parameter",
    "StageDef",
    "attention_claim_keys",
    "block_claim_keys",
    "computed",
    "formula",
    "head_name",
    "layer_stage_names",
    "split_head",
    "split_layer",
    "transformer_stage_names",
]


@dataclass(frozen=True)
class StageDef:
    """One stage's declaration.

    Attributes:
        name: the stage's name ("weights", "norm_{k}" for a numbered family).
        symbol: the LaTeX symbol of one entry ("a" for a_ij).
        formula: the defining LaTeX formula; ``{...}`` fields are filled by
            :func:`formula` from the owner (``{scale}``, ``{source}``).
        inputs: the stages (or inputs) it is computed from.
        claimable: whether a document or spec may claim its numbers.
        shown: whether ``symattn compute`` prints it (inputs are not printed).
        prose: the key of its prose section in the renderers' text tables.
        compute: for attention stages, ``compute(att) -> ImmutableMatrix``;
            block stages are computed in order by :mod:`symattn.block`, which
            names them with :func:`layer_stage_names`.
        cross: "only" (exists only in cross-attention) or "" (always).
        read_as: names that, bound to bare printed numbers in a document, are
            read as this stage by convention (``A = [...]`` claims the weights).
        aliases: every name a document, a printout or a table may give it
            (verify reads "attention weights" as the bound ``A``).
    """

    name: str
    symbol: str
    formula: str
    inputs: tuple[str, ...] = ()
    claimable: bool = True
    shown: bool = True
    prose: str = ""
    compute: Callable[[Any], Any] | None = None
    cross: str = ""
    read_as: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


def _stages():
    from symattn import stages

    return stages


def _q(att):
    return _stages().matmul(att.X, att.W_Q, left="X", right="W_Q")


def _k(att):
    return _stages().matmul(att._source, att.W_K, left=att._source_name, right="W_K")


def _v(att):
    return _stages().matmul(att._source, att.W_V, left=att._source_name, right="W_V")


def _scores(att):
    s = _stages()
    return s.matmul(att.Q, s.transpose(att.K), left="Q", right="K^T")


def _scaled(att):
    return _stages().scale_scores(att.scores, att.factor, att.mask)


def _weights(att):
    from sympy import ImmutableMatrix

    return ImmutableMatrix([list(row.weights()) for row in att.softmax_rows])


def _output(att):
    return _stages().softmax_output(att.softmax_rows, att.V)


_INPUT = {"claimable": False, "shown": False, "prose": "section_setup"}

#: The stages of one attention head, in order.
ATTENTION: tuple[StageDef, ...] = (
    StageDef("X", "x", "X", aliases=("X", "x", "inputs", "embeddings", "emb"), **_INPUT),
    StageDef("X_kv", "x", r"X_{kv}", cross="only", **_INPUT),
    StageDef("W_Q", "w", "W_Q", **_INPUT),
    StageDef("W_K", "w", "W_K", **_INPUT),
    StageDef("W_V", "w", "W_V", **_INPUT),
    StageDef("Q", "q", "Q = X W_Q", ("X", "W_Q"), prose="section_projections", compute=_q),
    StageDef("K", "k", "K = {source} W_K", ("X", "W_K"), prose="section_projections", compute=_k),
    StageDef("V", "v", "V = {source} W_V", ("X", "W_V"), prose="section_projections", compute=_v),
    StageDef(
        "scores",
        "s",
        r"S = Q K^{\top}",
        ("Q", "K"),
        prose="section_scores",
        compute=_scores,
        read_as=("scores", "attn_scores", "attention_scores", "logits", "attn_logits", "attention_logits"),
        aliases=("scores", "attn_scores", "attention_scores", "S", "logits"),
    ),
    StageDef(
        "scaled",
        r"\tilde{s}",
        r"\tilde{S} = {scale}",
        ("scores",),
        prose="section_scores",
        compute=_scaled,
        aliases=("scaled", "scaled_scores", "scaled_attention_logits", "scores_scaled", "\\tilde{S}"),
    ),
    StageDef(
        "weights",
        "a",
        r"A = \operatorname{softmax}\left(\tilde{S}\right)",
        ("scaled",),
        prose="section_softmax",
        compute=_weights,
        read_as=("A", "weights", "attn_weights", "attention_weights", "p_attn", "attn"),
        aliases=("weights", "attn_weights", "attention_weights", "p_attn", "attn", "A", "alpha", "P"),
    ),
    StageDef(
        "output",
        "o",
        "O = A V",
        ("weights", "V"),
        prose="section_output",
        compute=_output,
        aliases=("output", "out", "Output", "attn_output", "attention_output", "context", "O", "Z"),
    ),
)

#: The stages a multi-head block adds after its heads ("headN.STAGE" are the heads' own).
MULTIHEAD: tuple[StageDef, ...] = (
    StageDef("concat", "c", r"C = [O^{(1)} \cdots O^{(h)}]", ("output",), prose="section_concat"),
    StageDef("output", "o", "O = C W_O", ("concat", "W_O"), prose="section_projection_o"),
)

#: The stages of the transformer block (symattn.block); "{k}" numbers a family.
BLOCK: tuple[StageDef, ...] = (
    StageDef("X", "x", "X", aliases=("X", "x", "inputs", "embeddings", "emb"), **_INPUT),
    StageDef(
        "positional",
        "p",
        r"PE_{(pos, 2i)} = \sin(pos / b^{2i/d}),\ PE_{(pos, 2i+1)} = \cos(pos / b^{2i/d})",
        prose="section_positional",
        aliases=("PE", "pe", "P_{E}", "pos_{encoding}", "pos_{enc}", "positional_{encoding}"),
    ),
    StageDef("embedded", "e", "E = X + PE", ("X", "positional"), prose="section_positional"),
    StageDef(
        "norm_{k}",
        "n",
        r"\mathrm{LN}(x)_j = \gamma_j \frac{x_j - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta_j",
        prose="section_norm",
    ),
    StageDef("attention", "h", r"\mathrm{MHA}(X) = [O^{(1)} \cdots O^{(h)}] W_O", prose="section_attention"),
    StageDef("self_attention", "h", r"\mathrm{MHA}(X)", prose="section_attention"),
    StageDef("cross_attention", "h", r"\mathrm{MHA}(X, M)", prose="section_attention"),
    StageDef("residual_{k}", "r", "R = X + F(X)", prose="section_residual"),
    StageDef("ffn_pre_activation", "z", "Z = X W_1 + b_1", prose="section_ffn"),
    StageDef("ffn_gate", "g", "G = X W_3 + b_3", prose="section_ffn"),
    StageDef("ffn_activated", "u", r"U = \phi(Z)", ("ffn_pre_activation",), prose="section_ffn"),
    StageDef("ffn", "f", "F = U W_2 + b_2", ("ffn_activated",), prose="section_ffn"),
    StageDef("logits", "l", "L = Y W_U + b_U", prose="section_output"),
    StageDef("probabilities", "p", r"P = \operatorname{softmax}(L)", ("logits",), prose="section_output"),
    StageDef("output", "y", "Y", prose="section_output"),
)

_BY_NAME = {table: {d.name: d for d in table} for table in (ATTENTION, MULTIHEAD, BLOCK)}


def stage(name: str, table: Sequence[StageDef] = ATTENTION) -> StageDef:
    """The declaration of ``name`` ("norm_2" finds "norm_{k}")."""
    found = _BY_NAME[tuple(table)].get(name) or _BY_NAME[tuple(table)].get(re.sub(r"_\d+$", "_{k}", name))
    if found is None:
        raise KeyError(name)
    return found


def computed(name: str) -> Any:
    """A cached property that computes attention stage ``name`` by its declaration."""
    from functools import cached_property

    compute = stage(name).compute
    assert compute is not None, name
    prop = cached_property(compute)
    prop.__doc__ = f"The exact {name} stage: {stage(name).formula}"
    return prop


def attention_stage_names(*, cross: bool) -> tuple[str, ...]:
    """One head's stage names in order (X_kv only in cross-attention)."""
    return tuple(d.name for d in ATTENTION if cross or d.cross != "only")


def _scale_latex(factor: Any, d_k: int) -> str:
    """The scaled scores' formula for the exact factor c (c · QKᵀ)."""
    import sympy

    product = r"Q K^{\top}"
    if factor == 1:
        return product
    if factor == 1 / sympy.sqrt(d_k):
        return r"\frac{Q K^{\top}}{\sqrt{d_k}}"
    inverse = 1 / factor
    if inverse.is_positive and (inverse**2).is_Integer:  # 2, √3, 2√2: a divisor reads best
        return rf"\frac{{{product}}}{{{sympy.latex(inverse)}}}"
    return rf"{sympy.latex(factor)} \, {product}"


def formula(name: str, att: Any = None, *, cross: bool = False) -> str:
    """The LaTeX formula of attention stage ``name`` for ``att`` (its scale, mask and source).

    Without ``att`` the default scale 1/√d_k is assumed (and self-attention unless ``cross``).
    """
    text = stage(name).formula
    cross = att.is_cross if att is not None else cross
    scale = r"\frac{Q K^{\top}}{\sqrt{d_k}}" if att is None else _scale_latex(att.factor, att.d_k)
    if att is not None and att.mask is not None and name == "scaled":
        scale += r" + M"
    return text.replace("{source}", r"X_{kv}" if cross else "X").replace("{scale}", scale)


def attention_claim_keys() -> tuple[str, ...]:
    """The claims one head may make, and "concat" (a spec's single head is also its block)."""
    return (*(d.name for d in ATTENTION if d.claimable), "concat")


def head_name(k: int, name: str | None = None) -> str:
    """``head_name(2, "weights") -> "head2.weights"``, ``head_name(2) -> "head2"`` (1-based)."""
    return f"head{k}" if name is None else f"head{k}.{name}"


_HEAD = re.compile(r"head([1-9]\d*)\.(.+)")
_LAYER = re.compile(r"layer([1-9]\d*)\.(.+)")


def split_head(name: str, count: int) -> tuple[int, str] | None:
    """``"head2.weights" -> (1, "weights")`` (0-based head) when 1 ≤ 2 ≤ count, else None."""
    match = _HEAD.fullmatch(name)
    if match is None or int(match.group(1)) > count:
        return None
    return int(match.group(1)) - 1, match.group(2)


def split_layer(name: str, count: int) -> tuple[int, str] | None:
    """``"layer1.norm_1" -> (0, "norm_1")`` when 1 ≤ 1 ≤ count, else None."""
    match = _LAYER.fullmatch(name)
    if match is None or int(match.group(1)) > count:
        return None
    return int(match.group(1)) - 1, match.group(2)


def multihead_claim_keys(heads: int) -> tuple[str, ...]:
    per_head = [d.name for d in ATTENTION if d.claimable]
    return ("concat", "output", *(head_name(n, s) for n in range(1, heads + 1) for s in per_head))


def layer_stage_names(kind: str, norm: str, activation: str) -> tuple[str, ...]:
    """A layer's stage names in the order :mod:`symattn.block` computes them.

    >>> layer_stage_names("encoder", "post", "relu")[:4]
    ('X', 'attention', 'residual_1', 'norm_1')
    """
    sublayers = ("attention",) if kind == "encoder" else ("self_attention", "cross_attention")
    ffn = ("ffn_pre_activation", *(("ffn_gate",) if activation == "swiglu" else ()), "ffn_activated", "ffn")
    names = ["X"]
    for k, sub in enumerate((*sublayers, "ffn"), start=1):
        if norm == "pre":
            names.append(f"norm_{k}")
        names.extend(ffn if sub == "ffn" else (sub,))
        names.append(f"residual_{k}")
        if norm == "post":
            names.append(f"norm_{k}")
    return (*names, "output")


def transformer_stage_names(
    layers: Iterable[tuple[str, str, str, Sequence[tuple[str, int]]]], *, positional: bool, unembed: bool
) -> tuple[str, ...]:
    """A stack's stage names in order, each layer's attention heads included.

    Args:
        layers: per layer (kind, norm, activation, [(attention stage, heads), ...]).
        positional: whether positions are added (stages "positional", "embedded").
        unembed: whether a final linear layer and softmax follow ("logits", "probabilities").
    """
    names = ["X", *(("positional", "embedded") if positional else ())]
    for k, (kind, norm, activation, blocks) in enumerate(layers, start=1):
        heads = dict(blocks)
        for name in layer_stage_names(kind, norm, activation)[1:]:
            if name in heads:
                for h in range(1, heads[name] + 1):
                    names.extend(f"layer{k}.{name}.{head_name(h, s)}" for s in ("weights", "output"))
            names.append(f"layer{k}.{name}")
    return (*names, *(("logits", "probabilities") if unembed else ()), "output")


def block_claim_keys(names: Sequence[str], head_prefixes: Iterable[str] = ()) -> tuple[str, ...]:
    """The claims a block spec may make: every stage of ``names`` but the input X, and each
    head's claimable stages under ``head_prefixes`` ("layer1.attention.head1")."""
    keys = [name for name in names if name != "X"]
    for prefix in head_prefixes:
        keys.extend(f"{prefix}.{d.name}" for d in ATTENTION if d.claimable)
    return tuple(dict.fromkeys(keys))


# --- the operations verify identifies printed steps with ----------------------------------------
#
# Each is written once over a number kit (:mod:`symattn.kits`): floats to screen candidates,
# exact rationals and arb balls to judge them.  verify's chain of printed steps
# (:mod:`symattn.verify.chain`) tries each with each of its conventions.

Matrix = kits.Matrix


@dataclass(frozen=True)
class Op:
    """One declared operation: its name, arity, function (of a number kit and matrices, with
    its convention as keywords), the conventions it may take, the shape it gives (None: it
    does not apply), and whether its printed value is exact arithmetic of its arguments (a miss
    is a slip).  The names documents give its result are in :data:`symattn.verify.words.OP_WORDS`."""

    name: str
    arity: int
    compute: Callable[..., Matrix]
    shape: Callable[[list[tuple[int, int]]], tuple[int, int] | None]
    conventions: tuple[dict[str, Any], ...] = ({},)
    arithmetic: bool = True
    unary: bool = False  # an activation or norm: also tried on a binary result (two steps)
    stated: str = ""  # a convention a document may state in words, tried at each value it states
    crossed: tuple[dict[str, Any], ...] = ({},)  # variants tried with each stated value
    params: int = 0  # its last arguments are parameters: given blocks (γ, β), the first a result
    #: its arguments after the first are statistics of the first: each one's true value is this
    #: function of the first's (kit, matrix, **convention); world (a) takes them as printed
    statistics: tuple[Callable[..., Matrix], ...] = ()


def _same(shapes: list[tuple[int, int]]) -> tuple[int, int]:
    return shapes[0]


def _shape_matmul(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    return (s[0][0], s[1][1]) if s[0][1] == s[1][0] else None


def _shape_matmul_t(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    return (s[0][0], s[1][0]) if s[0][1] == s[1][1] and s[0] != (1, 1) else None


def _shape_plus(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    (n, m), (p, q) = s
    return (n, m) if q == m and p in (n, 1) else None


def _shape_linear(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    (n, d), (p, m), (b, q) = s
    return (n, m) if d == p and b == 1 and q == m else None


def _shape_affine(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    (n, d), g, b = s
    return (n, d) if d >= 2 and g == b == (1, d) else None


def _wide(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    return s[0] if s[0][1] >= 2 else None


def _stat_shape(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    return (s[0][0], 1) if s[0][1] >= 2 else None


def _shape_standardised(s: list[tuple[int, int]]) -> tuple[int, int] | None:
    (n, d), mu, sigma = s
    per_row = ((n, 1), (1, n))
    return (n, d) if d >= 2 and mu in per_row and sigma in per_row else None


def _true_means(k: Any, a: Matrix, **_convention: Any) -> Matrix:
    return kits.means(k, a)


def _true_stds(k: Any, a: Matrix, *, sample: bool = False, **_convention: Any) -> Matrix:
    return kits.stds(k, a, sample=sample)


_NORM_FORMS = ("pop", "sample", "std+eps")
#: The ε a norm may add, besides one the text states.
EPSILONS = (Fraction(0), Fraction(1, 10**5), Fraction(1, 10**6), Fraction(1, 10**12))

#: The operations a printed step may be, each declared once with its conventions.
OPS: tuple[Op, ...] = (
    Op("A·B", 2, kits.matmul, _shape_matmul),
    Op("A·Bᵀ", 2, kits.matmul_t, _shape_matmul_t),
    Op("A+B", 2, kits.plus, _shape_plus),
    Op("A·W+b", 3, kits.linear, _shape_linear),
    Op("γ⊙x+β", 3, kits.affine, _shape_affine, params=2),
    Op(
        "ReLU",
        1,
        kits.relu,
        _same,
        arithmetic=False,
        unary=True,
    ),
    Op(
        "GELU",
        1,
        kits.gelu,
        _same,
        ({"form": "erf"}, {"form": "tanh"}),
        arithmetic=False,
        unary=True,
    ),
    Op("SiLU", 1, kits.silu, _same, arithmetic=False, unary=True),
    Op(
        "softmax",
        1,
        kits.softmax,
        _wide,
        ({"causal": False}, {"causal": True}),
        arithmetic=False,
        unary=True,
        stated="temperature",
    ),
    Op(
        "LayerNorm",
        1,
        kits.layernorm,
        _wide,
        tuple({"eps": e, "form": f} for f in _NORM_FORMS for e in EPSILONS),
        arithmetic=False,
        unary=True,
    ),
    Op(
        "RMSNorm",
        1,
        kits.rmsnorm,
        _wide,
        tuple({"eps": e} for e in EPSILONS),
        arithmetic=False,
        unary=True,
    ),
    Op("exp", 1, kits.exps, _same, arithmetic=False),
    # scores over √d_k, for each d_k the document could mean (a width it prints, one it states)
    Op(
        "x ÷ √d_k",
        1,
        kits.over_root,
        _same,
        (),
        arithmetic=False,
        stated="d_k",
        crossed=({"causal": False}, {"causal": True}),
    ),
    Op("x − max", 1, kits.minus_max, _wide),
    Op("x ÷ sum", 1, kits.normalised, _wide),
    Op("x − mean", 1, kits.centred, _wide),
    # a norm written with its per-token statistics printed: world (a) divides by the printed σ,
    # the truth by the σ of the rows (population or sample)
    Op(
        "(x − μ)/σ",
        3,
        kits.standardised,
        _shape_standardised,
        tuple(
            {"eps": e, "sample": sample}
            for sample in (False, True)
            for e in (Fraction(0), Fraction(1, 10**5))
        ),
        arithmetic=False,
        statistics=(_true_means, _true_stds),
    ),
    Op("mean", 1, kits.means, _stat_shape),
    Op(
        "variance",
        1,
        kits.variances,
        _stat_shape,
        ({"sample": False}, {"sample": True}),
    ),
    Op(
        "std",
        1,
        kits.stds,
        _stat_shape,
        ({"sample": False}, {"sample": True}),
        arithmetic=False,
    ),
)


# --- the graphs verify explains a document with ----------------------------------------------------
#
# verify's explanation (:mod:`symattn.verify.explain`) builds each graph from the blocks a document
# gives, under each value of its parameters (its conventions), and identifies every other printed
# block with one of its nodes by value.  A node is one function over a number kit; the names
# documents give nodes, roles and parameters are in :mod:`symattn.verify.words`.


@dataclass(frozen=True)
class GraphNode:
    """One node: its name, the roles, nodes or parameters it is computed from, its function
    over a number kit (``compute(kit, *parents)``), and whether its printed value is exact
    arithmetic of its parents (a miss there is a slip)."""

    name: str
    parents: tuple[str, ...]
    compute: Callable[..., Matrix]
    arithmetic: bool = True


@dataclass(frozen=True)
class Parameter:
    """A convention of a graph: the values tried (``values(inputs)``: label and value, the
    first the default), whether a value the document states in words is tried too, how a
    verdict names it (``{label}``; nothing for the ``quiet`` label), and whether its other
    values are tried lazily: only for the best role assignments, and only where the default
    leaves a printed block unexplained."""

    name: str
    values: Callable[[dict[str, Matrix]], tuple[tuple[str, Any], ...]]
    stated: bool = False
    shown: str = "{name} = {label}"
    quiet: str = ""
    lazy: bool = False  # its other values are tried only where the default leaves blocks unexplained


@dataclass(frozen=True)
class Graph:
    """A computation a document may describe: the roles its given blocks fill, its nodes in
    order, and its parameters."""

    name: str
    roles: tuple[str, ...]
    nodes: tuple[GraphNode, ...]
    parameters: tuple[Parameter, ...]

    def node(self, name: str) -> GraphNode:
        return next(n for n in self.nodes if n.name == name)


def _inverse_root(n: int) -> Any:
    root = math.isqrt(n)
    return Fraction(1, root) if root * root == n else 1 / kits.ball(Fraction(n)).sqrt()


def _scales(inputs: dict[str, Matrix]) -> tuple[tuple[str, Any], ...]:
    """The scales a document may apply to QKᵀ: 1/√d_k (the paper's), none, 1/d_k."""
    d_k = len((inputs.get("W_K") or inputs["K"])[0])
    return (("1/sqrt(d_k)", _inverse_root(d_k)), ("1", Fraction(1)), ("1/d_k", Fraction(d_k) ** -1))


def _slopes(_inputs: dict[str, Matrix]) -> tuple[tuple[str, Any], ...]:
    """No bias, then the ALiBi slopes of an 8-head model, 2^{-8h/8} = 1/2, 1/4, …, 1/256."""
    return (("none", Fraction(0)), *((f"1/{2**h}", Fraction(1, 2**h)) for h in range(1, 9)))


def _scaled(k: Any, scores: Matrix, c: Any, bias: Matrix) -> Matrix:
    """The scores scaled by c, plus a position bias (ALiBi's; zero without one)."""
    return kits.plus(k, kits.scale(k, scores, c), bias)


#: One attention head: X and its three weights (or Q, K and V given as they are), the scale c and
#: the ALiBi slope m (none by default).
ATTENTION_GRAPH = Graph(
    "attention",
    ("X", "W_Q", "W_K", "W_V"),
    (
        GraphNode("Q", ("X", "W_Q"), kits.matmul),
        GraphNode("K", ("X", "W_K"), kits.matmul),
        GraphNode("V", ("X", "W_V"), kits.matmul),
        GraphNode("S", ("Q", "K"), kits.matmul_t),
        GraphNode("B", ("S", "m"), kits.alibi),
        GraphNode("T", ("S", "c", "B"), _scaled),
        GraphNode("A", ("T",), kits.softmax, arithmetic=False),
        GraphNode("O", ("A", "V"), kits.matmul),
    ),
    (
        Parameter("c", _scales, shown="scale {label}"),
        Parameter("m", _slopes, stated=True, shown="ALiBi m = {label}", quiet="none", lazy=True),
    ),
)

#: A softmax over a vocabulary: logits z (a given row) at a temperature the document states.
VOCABULARY_GRAPH = Graph(
    "vocabulary",
    ("z",),
    (
        GraphNode("z/T", ("z", "temperature"), kits.divide),
        GraphNode("softmax(z/T)", ("z/T",), kits.softmax, arithmetic=False),
    ),
    (Parameter("temperature", lambda _inputs: (("1", Fraction(1)),), stated=True, shown="T = {label}"),),
)


def _positional(k: Any, e: Matrix, base: Fraction, layout: str, start: Fraction) -> Matrix:
    """The sinusoidal encoding of the positions of E's rows (from ``start``), E's width."""
    return kits.sinusoidal(k, len(e), len(e[0]), base=base, layout=layout, start=start)


#: The sinusoidal positional encoding of a table of token embeddings E (a zero E where a
#: document prints the encoding alone), and E + PE: its layout (sines and cosines interleaved,
#: the paper's, or all the sines first), the first position (0, or 1) and the base.
POSITIONS_GRAPH = Graph(
    "positions",
    ("E",),
    (
        GraphNode("PE", ("E", "base", "layout", "start"), _positional, arithmetic=False),
        GraphNode("E+PE", ("E", "PE"), kits.plus),
    ),
    (
        Parameter(
            "layout",
            lambda _inputs: (("interleaved", "interleaved"), ("concatenated", "concatenated")),
            shown="{label} sines and cosines",
            quiet="interleaved",
        ),
        Parameter(
            "start",
            lambda _inputs: (("0", Fraction(0)), ("1", Fraction(1))),
            shown="positions from {label}",
            quiet="0",
        ),
        Parameter("base", lambda _inputs: (("10000", Fraction(10000)),), shown="base {label}", quiet="10000"),
    ),
)

#: The graphs, in the order they are tried.
GRAPHS: tuple[Graph, ...] = (ATTENTION_GRAPH, VOCABULARY_GRAPH, POSITIONS_GRAPH)
