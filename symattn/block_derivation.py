"""derive() of a transformer-block spec: every stage of the block, as a teacher writes it.

    build_block_steps(spec, result)   records of symattn.render.block_steps (this module)
      positions   each angle pos/base^{2i/d}, its sine and cosine, then E = X + PE
      each layer  its sublayers in the order symattn.block computes them: LayerNorm
                  (μ, σ², the normalised rows), attention (the attention records of
                  derivation.build_steps, head by head, RoPE's rotations inserted),
                  residuals, the FFN (pre-activations, the units ReLU zeroes)
      the final linear layer and softmax, and the output

This module is the only part of a block derivation that asks the engine for values
(:mod:`symattn.block` for the stages, :func:`symattn.block.matrix_decimals` and
:func:`symattn.exact.certified_decimal` for the decimals); the renderers
(:mod:`symattn.render.block_compose`) format what they are given.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import block as blk
from symattn.derivation import DerivationTooLargeError, build_steps
from symattn.errors import InputError
from symattn.exact import certified_decimal, to_exact, to_matrix
from symattn.pipeline import Attention, MultiHead
from symattn.render import block_steps as bs
from symattn.render import steps as st

__all__ = [
    "MAX_BLOCK_COLUMNS",
    "MAX_BLOCK_HEADS",
    "MAX_BLOCK_LAYERS",
    "MAX_BLOCK_TOKENS",
    "build_block_steps",
    "check_block_size",
]

#: A block derivation shows every stage of every token, each with its sums written out,
#: so it is written in full only up to these sizes (``full=True`` / ``--full`` writes it anyway).
MAX_BLOCK_TOKENS = 8
MAX_BLOCK_COLUMNS = 8
MAX_BLOCK_LAYERS = 2
MAX_BLOCK_HEADS = 4

#: Closed forms are printed when every entry of a matrix is at most this wide (mathtex.width)
#: and its expression has at most EXACT_NODES distinct nodes; else the certified decimals alone.
EXACT_WIDTH = 14.0
EXACT_NODES = 24
#: Guard digits: a decimal that is an operand of a later line is printed with this many more places
#: (a teacher carries extra digits through the intermediate steps and rounds the results).
GUARD = 4


# --- the size policy -------------------------------------------------------------------------


def _cols(matrix: Any) -> int:
    if not isinstance(matrix, (list, tuple)):
        return 0
    return max((len(row) for row in matrix if isinstance(row, (list, tuple))), default=len(matrix))


def _rows(matrix: Any) -> int:
    return len(matrix) if isinstance(matrix, (list, tuple)) else 0


def _block_problem(spec: Any) -> str | None:
    for name, matrix in (("X", spec.X), ("memory", spec.memory)):
        if _rows(matrix) > MAX_BLOCK_TOKENS:
            return f"{name} has {_rows(matrix)} tokens, more than the {MAX_BLOCK_TOKENS} a block derivation shows"
    if len(spec.layers) > MAX_BLOCK_LAYERS:
        return f"the spec has {len(spec.layers)} layers, more than the {MAX_BLOCK_LAYERS} a block derivation shows"
    named: list[tuple[str, Any]] = [("X", spec.X), ("memory", spec.memory)]
    for k, layer in enumerate(spec.layers, start=1):
        for key in ("heads", "self_heads", "cross_heads"):
            heads = layer.get(key) or ()
            if len(heads) > MAX_BLOCK_HEADS:
                return (
                    f"layers[{k}] has {len(heads)} attention heads, more than the {MAX_BLOCK_HEADS} "
                    "a block derivation shows"
                )
            for head in heads:
                parts = head if isinstance(head, (list, tuple)) else (head,)
                named += [(f"layers[{k}] W_Q/W_K/W_V", m) for m in parts]
        named += [(f"layers[{k}].ffn", m) for m in layer.get("ffn") or ()]
    for name, matrix in named:
        if _cols(matrix) > MAX_BLOCK_COLUMNS:
            return (
                f"{name} has a matrix of {_cols(matrix)} columns, more than the {MAX_BLOCK_COLUMNS} "
                "a block derivation shows"
            )
    return None


def check_block_size(spec: Any) -> None:
    """Refuse, from the spec's shapes and before any work, a block too large to derive in full.

    Raises:
        DerivationTooLargeError: more than :data:`MAX_BLOCK_TOKENS` tokens, a matrix wider than
            :data:`MAX_BLOCK_COLUMNS`, more than :data:`MAX_BLOCK_LAYERS` layers or
            :data:`MAX_BLOCK_HEADS` heads; the message names the spec and points to
            ``symattn compute`` and ``--full``.
    """
    problem = _block_problem(spec)
    if problem is None:
        return
    source = spec.source
    place = f"{source}: " if source else ""
    target = f" {source}" if source else ""
    raise DerivationTooLargeError(
        f"{place}{problem}; `symattn compute{target}` prints every stage's certified decimals,"
        f" and `symattn derive --full` (derive(..., full=True)) writes the whole derivation anyway"
    )


# --- values ------------------------------------------------------------------------------------


def _nodes(value: sympy.Expr, limit: int) -> int:
    """Distinct nodes of an expression's DAG, counted up to ``limit + 1`` (its tree may be far larger)."""
    seen: set = set()
    stack = [value]
    while stack and len(seen) <= limit:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(node.args)
    return len(seen)


def short(value: sympy.Expr) -> bool:
    """Whether a closed form is short enough to print in a block derivation."""
    from symattn.render.mathtex import entry, width

    if value.is_Rational:
        return True
    return _nodes(value, EXACT_NODES) <= EXACT_NODES and width(entry(value)) <= EXACT_WIDTH


def _shown(name: str, value: ImmutableMatrix, digits: int) -> bs.Shown:
    decimals = tuple(tuple(row) for row in blk.matrix_decimals(name, value, digits))
    exact = all(short(v) for v in value)
    operands = () if exact else tuple(tuple(row) for row in blk.matrix_decimals(name, value, digits + GUARD))
    return bs.Shown(value, decimals, exact, operands)


def _decimal(value: sympy.Expr, digits: int) -> str:
    return certified_decimal(value, digits)


def _vector(value: Any, length: int, default: int) -> tuple[sympy.Expr, ...] | None:
    if value is None:
        return None if default is None else (sympy.Integer(default),) * length
    rows = value[0] if value and isinstance(value[0], (list, tuple)) else value
    return tuple(to_exact(v) for v in rows)


# --- steps -------------------------------------------------------------------------------------


def _convention(k: int, options: dict[str, Any]) -> bs.LayerConvention:
    rope = options.get("rope")
    kv = options.get("kv_heads")
    return bs.LayerConvention(
        index=k,
        kind=options.get("kind", "encoder"),
        placement=options.get("norm", "post"),
        normalization=options.get("normalization", "layer_norm"),
        eps=to_exact(options.get("eps", "1e-5"), where="eps"),
        activation=options.get("activation", "relu"),
        heads=len(options.get("heads") or options.get("self_heads") or ()),
        kv_heads=len(kv) if kv is not None else None,
        cross_heads=len(options.get("cross_heads") or ()),
        rope=(
            (
                to_exact(rope.get("base", 10000), where="rope.base"),
                int(rope.get("start", 0)),
                rope.get("layout", "interleaved"),
            )
            if rope is not None
            else None
        ),
    )


def _positional_step(spec: Any, result: Any, digits: int) -> bs.PositionalStep:
    X, P, E = result.stages["X"], result.stages["positional"], result.stages["embedded"]
    if not isinstance(spec.positional, dict):  # learned positions: a matrix of the spec
        return bs.PositionalStep(
            "learned", None, 0, "", X.cols, (), (), X, _shown("PE", P, digits), _shown("E", E, digits)
        )
    base = to_exact(spec.positional.get("base", 10000), where="base")
    start = int(spec.positional.get("start", 0))
    layout = spec.positional.get("layout", "interleaved")
    d = X.cols
    thetas = blk._frequencies(d, base)
    angles = []
    for r in range(X.rows):
        pos = start + r
        for i, theta in enumerate(thetas):
            columns = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            angle = sympy.Mul(pos, theta)
            s, c = P[r, columns[0]], P[r, columns[1]]
            angles.append(
                bs.PEAngle(
                    pos,
                    i,
                    (columns[0] + 1, columns[1] + 1),
                    angle,
                    _decimal(angle, digits),
                    s,
                    _decimal(s, digits),
                    c,
                    _decimal(c, digits),
                )
            )
    return bs.PositionalStep(
        "sinusoidal",
        base,
        start,
        layout,
        d,
        thetas,
        tuple(angles),
        X,
        _shown("PE", P, digits),
        _shown("E", E, digits),
    )


def _norm_step(  # noqa: PLR0917 - one layer's norm: where it is and what it reads
    layer: Any, options: dict, k: int, number: int, source: str, target: str, digits: int
) -> bs.NormStep:
    name = f"norm_{number}"
    value = layer.stages[name]
    kind = options.get("normalization", "layer_norm")
    params = options.get(f"ln_{number}")
    gamma = _vector(params[0], value.cols, 1) if params and params[0] is not None else None
    beta = _vector(params[1], value.cols, 0) if params and len(params) > 1 and params[1] is not None else None
    rows = []
    inputs = _norm_input(layer, number, options)
    if name in layer.norms:
        for i, record in enumerate(layer.norms[name]):
            x = tuple(inputs.row(i))
            # the row in closed form only when it is algebraic: the decimals of a row of sines or
            # exponentials are what the mean and the variance are computed from by hand
            algebraic = all(short(v) and not v.has(sympy.Function) for v in x)
            rows.append(
                bs.NormRow(
                    index=i + 1,
                    x_decimals=tuple(_decimal(v, digits + GUARD) for v in x),
                    x_exact=x if algebraic else None,
                    mean=record.mean,
                    mean_decimal=_decimal(record.mean, digits),
                    mean_operand=_decimal(record.mean, digits + GUARD),
                    mean_exact=algebraic and short(record.mean),
                    centred_operands=tuple(_decimal(v, digits + GUARD) for v in record.centred),
                    variance=record.variance,
                    variance_decimal=_decimal(record.variance, digits),
                    variance_operand=_decimal(record.variance, digits + GUARD),
                    variance_exact=algebraic and short(record.variance),
                    root_decimal=_decimal(record.root, digits),
                    root_operand=_decimal(record.root, digits + GUARD),
                    normalised_decimals=tuple(_decimal(v, digits) for v in record.normalised),
                    output_decimals=tuple(_decimal(v, digits) for v in value.row(i)),
                )
            )
    return bs.NormStep(
        layer=k,
        number=number,
        kind=kind,
        source=source,
        target=target,
        eps=to_exact(options.get("eps", "1e-5"), where="eps"),
        d=value.cols,
        input=_shown(source, inputs, digits),
        rows=tuple(rows),
        gamma=gamma,
        beta=beta,
        output=_shown(target, value, digits),
    )


def _norm_input(layer: Any, number: int, options: dict) -> ImmutableMatrix:
    """The matrix norm_k normalised: the residual before it (post-norm) or the stream (pre-norm)."""
    names = list(layer.stages)
    position = names.index(f"norm_{number}")
    if options.get("norm", "post") == "post":
        return layer.stages[f"residual_{number}"]
    earlier = [n for n in names[:position] if n.startswith("residual_")]
    return layer.stages[earlier[-1]] if earlier else layer.stages["X"]


def _rope_step(att: blk.RotaryAttention, head: int, digits: int) -> bs.RopeStep:
    angles = []
    for r in range(max(att.Q.rows, att.K.rows)):
        for i, (a, b) in enumerate(att.rope_pairs):
            angle = att.angle(r, i)
            angles.append(
                bs.RopeAngle(
                    r + 1,
                    att.rope_start + r,
                    (a + 1, b + 1),
                    att.rope_thetas[i],
                    angle,
                    _decimal(angle, digits),
                    _decimal(sympy.cos(angle), digits),
                    _decimal(sympy.sin(angle), digits),
                )
            )
    return bs.RopeStep(
        head=head,
        base=att.rope_base,
        start=att.rope_start,
        layout=att.rope_layout,
        d_k=att.d_k,
        thetas=att.rope_thetas,
        angles=tuple(angles),
        Q_linear=att.Q_linear,
        K_linear=att.K_linear,
        Q=_shown("Q", att.Q, digits),
        K=_shown("K", att.K, digits),
        cross=att.is_cross,
    )


def _inputs_short(block: Any) -> bool:
    first = block.heads[0]
    inputs = [first.X] + ([first.X_kv] if first.X_kv is not None else [])
    return all(short(v) for M in inputs for v in M)


def _readable(block: Any) -> Any:
    """The same heads computed with SymPy's evaluating arithmetic, when their inputs are short.

    A layer computes attention on large inputs structurally (``sympy.evaluate(False)``, see
    :mod:`symattn.block`), which keeps products such as ``sin(2)·1·sin(1)·1`` as written;
    on short inputs the evaluated closed forms are the same values, written as a teacher would.
    """
    heads = []
    for h in block.heads:
        fresh = Attention(h.X, h.W_Q, h.W_K, h.W_V, h.X_kv, h.factor, h.mask, h.labels, h.kv_labels)
        if isinstance(h, blk.RotaryAttention):
            fresh = blk.RotaryAttention(fresh, base=h.rope_base, start=h.rope_start, layout=h.rope_layout)
        heads.append(fresh)
    if isinstance(block, blk.GroupedQueryAttention):
        return blk.GroupedQueryAttention(tuple(heads), block.W_O, block.groups)
    return MultiHead(tuple(heads), block.W_O)


def _attention_part(layer: Any, stage: str, k: int, source: str, digits: int) -> bs.AttentionPart:
    block = layer.attention[stage]
    long = not _inputs_short(block)
    steps: list = []
    rotary = any(isinstance(h, blk.RotaryAttention) for h in block.heads)
    if long:  # the closed forms of the scores would fill pages: each head's decimals
        steps = [
            bs.HeadDecimals(h, _shown("A", head.weights, digits), _shown("O", head.output, digits))
            for h, head in enumerate(block.heads, start=1)
        ]
    block = block if long else _readable(block)
    for step in () if long else build_steps(block, None, digits, teaching=False):
        head = block.heads[step.head - 1] if getattr(step, "head", 0) else None
        if isinstance(step, st.Projection) and isinstance(head, blk.RotaryAttention) and step.name != "V":
            linear = head.Q_linear if step.name == "Q" else head.K_linear
            steps.append(replace(step, result=linear))
            continue
        steps.append(step)
        if isinstance(step, st.Projection) and step.name == "V" and isinstance(head, blk.RotaryAttention):
            steps.append(_rope_step(head, step.head, digits))
    groups = getattr(block, "groups", None)
    return bs.AttentionPart(
        layer=k,
        stage=stage,
        source=source,
        memory=stage == "cross_attention",
        causal=stage == "self_attention",
        heads=len(block.heads),
        groups=tuple(g + 1 for g in groups) if groups is not None else None,
        rope=rotary,
        steps=tuple(steps),
        long=long,
        output=_shown("O", block.output, digits),
        W_O=block.W_O is not None,
    )


def _ffn_step(layer: Any, options: dict, k: int, source: str, digits: int) -> bs.FeedForwardStep:
    ffn = layer.ffn
    parts = [*options["ffn"], None, None]
    W_1, b_1, W_2, b_2, W_3, b_3 = parts[:6]
    W1 = to_matrix(W_1, name="W_1")
    W2 = to_matrix(W_2, name="W_2")
    W3 = to_matrix(W_3, name="W_3") if W_3 is not None else None
    return bs.FeedForwardStep(
        layer=k,
        source=source,
        activation=ffn.activation,
        W_1=W1,
        b_1=_vector(b_1, W1.cols, 0),  # type: ignore[arg-type]
        W_2=W2,
        b_2=_vector(b_2, W2.cols, 0),  # type: ignore[arg-type]
        W_3=W3,
        b_3=_vector(b_3, W3.cols, 0) if W3 is not None else None,
        input=_shown(source, layer.stages[_ffn_input(layer, options)], digits),
        pre=_shown("Z", ffn.pre_activation, digits),
        gate=_shown("G", ffn.gate, digits) if ffn.gate is not None else None,
        activated=_shown("U", ffn.activated, digits),
        output=_shown("F", ffn.output, digits),
        zeroed=ffn.zeroed,
        undecided=ffn.undecided,
    )


def _ffn_input(layer: Any, options: dict) -> str:
    """The stage the FFN reads: the last norm (pre-norm) or the stage before its pre-activation."""
    names = list(layer.stages)
    before = names[: names.index("ffn_pre_activation")]
    if options.get("norm", "post") == "pre":
        return [n for n in before if n.startswith("norm_")][-1]
    return before[-1]


def _name(letter: str, k: int, j: int, many: bool) -> str:
    """The LaTeX name of a layer's j-th norm or residual: N_{j}, or N^{[k]}_{j} in a stack of several."""
    tag = f"^{{[{k}]}}" if many else ""
    return f"{letter}{tag}_{{{j}}}"


def _layer_steps(  # noqa: PLR0917 - a layer, its options, and where it stands in the stack
    layer: Any, options: dict, k: int, stream: str, many: bool, digits: int
) -> tuple[list, str]:
    pre = options.get("norm", "post") == "pre"
    out: list = []
    current, sub_input, sub_output, sub_formula = stream, stream, "", ""
    for name in layer.stage_names[1:]:
        if name.startswith("norm_"):
            j = int(name.rpartition("_")[2])
            target = _name("N", k, j, many)
            source = current if pre else _name("R", k, j, many)
            out.append(_norm_step(layer, options, k, j, source, target, digits))
            if pre:
                sub_input = target
            else:
                current = target
        elif name in ("attention", "self_attention", "cross_attention"):
            source = sub_input if pre else current
            out.append(_attention_part(layer, name, k, source, digits))
            operator = r"\operatorname{MHA}"
            sub_formula = (
                f"{operator}({source}, X_{{kv}})" if name == "cross_attention" else f"{operator}({source})"
            )
            sub_output = name
        elif name == "ffn":
            source = sub_input if pre else current
            out.append(_ffn_step(layer, options, k, source, digits))
            sub_formula, sub_output = rf"\operatorname{{FFN}}({source})", "ffn"
        elif name.startswith("residual_"):
            j = int(name.rpartition("_")[2])
            target = _name("R", k, j, many)
            left_value = _stream_value(layer, j, pre)
            out.append(
                bs.ResidualStep(
                    layer=k,
                    number=j,
                    left=current,
                    right=sub_output,
                    right_formula=sub_formula,
                    target=target,
                    left_value=_shown(current, left_value, digits),
                    right_value=_shown(sub_output, layer.stages[sub_output], digits),
                    result=_shown(target, layer.stages[name], digits),
                )
            )
            if pre:
                current = target
    return out, current


def _stream_value(layer: Any, j: int, pre: bool) -> ImmutableMatrix:
    """The residual stream a residual_j adds to: the layer's input, the previous residual
    (pre-norm) or the previous norm (post-norm)."""
    if j == 1:
        return layer.stages["X"]
    return layer.stages[f"residual_{j - 1}"] if pre else layer.stages[f"norm_{j - 1}"]


def build_block_steps(spec: Any, result: Any, digits: int = 4) -> tuple[bs.BlockStep, ...]:
    """Every step of a block derivation, in the order the block computes them.

    Args:
        spec: the :class:`~symattn.blockspec.BlockSpec`.
        result: its :class:`~symattn.block.Transformer` (``spec.run()``).
        digits: places of the certified decimals.

    Raises:
        InputError: negative digits.
    """
    if digits < 0:
        raise InputError(f"digits must be 0 or more, not {digits}")
    X = result.stages["X"]
    memory = to_matrix(spec.memory, name="memory") if spec.memory is not None else None
    positional = None
    if spec.positional is not None:
        positional = "sinusoidal" if isinstance(spec.positional, dict) else "learned"
    conventions = tuple(_convention(k, options) for k, options in enumerate(spec.layers, start=1))
    steps: list = [bs.BlockSetup(X, memory, positional, conventions, spec.unembed is not None)]
    stream = "X"
    if positional is not None:
        steps.append(_positional_step(spec, result, digits))
        stream = "E"
    many = len(result.layers) > 1
    for k, (layer, options) in enumerate(zip(result.layers, spec.layers, strict=True), start=1):
        layer_steps, stream = _layer_steps(layer, options, k, stream, many, digits)
        steps += layer_steps
    if spec.unembed is not None:
        W_U = to_matrix(spec.unembed[0], name="W_U")
        steps.append(
            bs.UnembedStep(
                stream,
                _shown(stream, result.layers[-1].output, digits),
                W_U,
                _vector(spec.unembed[1], W_U.cols, 0),  # type: ignore[arg-type]
                _shown("L", result.stages["logits"], digits),
                _shown("P", result.stages["probabilities"], digits),
            )
        )
        stream = "P"
    steps.append(bs.OutputStep(stream, _shown("Y", result.output, digits)))
    if spec.claims:
        steps += _claim_steps(spec, result)
    return tuple(steps)


#: The entry symbol of a claimed block stage in the claims table (registry.BLOCK's symbols;
#: "P" for the probabilities, whose "p" the positional encodings have).
def _claim_symbol(name: str, layers: int) -> str:
    from symattn import registry

    found = registry.split_layer(name, layers)
    stage = found[1] if found else name
    head, _, rest = stage.partition(".")
    if head in ("attention", "self_attention", "cross_attention") and rest:
        return rest  # "head1.weights": the attention table's own symbols
    if stage == "probabilities":
        return "P"
    return registry.stage(stage, registry.BLOCK).symbol


def _claim_steps(spec: Any, result: Any) -> list:
    from symattn.derivation import _claim_table

    tables = []
    with spec.errors_located():
        for comparison in spec.check(result):
            table = _claim_table(comparison, {})
            tables.append(replace(table, name=_claim_symbol(comparison.name, len(result.layers))))
    return tables


def derive_block(spec: Any, lang: str = "en", digits: int = 4, *, full: bool = False):
    """The derivation of a transformer-block spec (see :func:`symattn.derive`).

    Raises:
        DerivationTooLargeError: the spec is larger than :func:`check_block_size` allows and
            ``full`` is False (decided from the shapes, before any work).
        SymattnError: from running the spec, with its ``file:line``.
    """
    from symattn.derivation import Derivation

    if not full:
        check_block_size(spec)
    result = spec.run()
    with spec.errors_located():
        steps = build_block_steps(spec, result, digits)
    return Derivation(spec.title, steps, lang, digits)
