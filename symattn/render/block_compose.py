"""Turn the records of a block derivation into blocks: the words of one language plus formulas.

One function per record type (:mod:`.block_steps`); the attention sublayers are written
by the attention renderers of :mod:`.compose` (their ``_RENDER`` table), head by head,
so a block derivation shows attention exactly as an attention derivation does.  The
words come from ``block_text_en`` / ``block_text_zh`` (and the attention words from
``text_en`` / ``text_zh``); nothing is computed here, only arranged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType

import sympy

from symattn import registry
from symattn.render import block_steps as bs
from symattn.render import block_text_en, block_text_zh, compose
from symattn.render import steps as st
from symattn.render.blocks import Block, Bullets, Display, Heading, Math, Paragraph, Text, fill
from symattn.render.compose import _Context, _matrix_blocks
from symattn.render.mathtex import PAGE_WIDTH, chain, entry, matrix, row_vector, width

__all__ = ["BLOCK_TEXTS", "compose_block"]

BLOCK_TEXTS: dict[str, ModuleType] = {"en": block_text_en, "zh": block_text_zh}


def _as_text(values) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(entry(values[i, j]) for j in range(values.cols)) for i in range(values.rows))


def _show(name: str, shown: bs.Shown, ctx: _Context, *, formula: str = "") -> list[Block]:
    """``name = formula = [exact] ≈ [decimals]``, or ``name = formula ≈ [decimals]`` for long closed forms."""
    if shown.exact:
        decimals = shown.decimals if shown.decimals != _as_text(shown.value) else None
        return _matrix_blocks(name, shown.value, None, ctx, decimals=decimals, formula=formula)
    return _matrix_blocks(name, shown.decimals, None, ctx, formula=formula, relation=r"\approx")


def _value(shown: bs.Shown) -> str:
    """The matrix as an operand of a sum: exact when short, else its decimals with guard digits."""
    return matrix(shown.value if shown.exact else shown.operands)


def _applied(name: str, shown: bs.Shown, rest: str) -> str:
    """``name rest`` (``N_1 W_1 + b_1``) when ``name``'s matrix is exact; else that and the matrix
    with guard digits in its place (``N_1 W_1 + b_1 = [0.99999054 …] W_1 + b_1``) when both fit a
    line, or the matrix alone when only it does, so the formula is computed from the numbers it
    shows, never from a name whose printed decimals are rounded; else nothing.  (A long closed
    form for ``name`` is left out: a reader, and verify, would have to work through all of it.)"""
    if shown.exact:
        return f"{name}{rest}"
    written = matrix(shown.operands) + rest
    both = f"{name}{rest} = {written}"
    if width(both) <= PAGE_WIDTH:
        return both
    return written if width(written) <= PAGE_WIDTH else ""


def _approx(shown: bs.Shown) -> str:
    return "=" if shown.exact and shown.decimals == _as_text(shown.value) else r"\approx"


def _listed(T: dict[str, str], items: Sequence[Paragraph | Math | Text]) -> Paragraph:
    parts: list = []
    for n, item in enumerate(items):
        if n:
            parts.append(Text(T["and"] if n == len(items) - 1 else T["comma"]))
        parts.extend(item.parts if isinstance(item, Paragraph) else (item,))
    return Paragraph(tuple(parts))


def _vector_tex(values: Sequence[sympy.Expr]) -> str:
    return row_vector(list(values))


# --- setup ----------------------------------------------------------------------------------------

_ACTIVATION_FORMULAS = {
    "relu": r"\operatorname{ReLU}(z) = \max(0, z)",
    "gelu": r"\operatorname{GELU}(z) = \frac{z}{2}\left(1 + \operatorname{erf}\left(\frac{z}{\sqrt{2}}\right)\right)",
    "gelu_tanh": (
        r"\operatorname{GELU}(z) \approx \frac{z}{2}\left(1 + \tanh\left(\sqrt{\frac{2}{\pi}}"
        r"\left(z + 0.044715 z^{3}\right)\right)\right)"
    ),
    "silu": r"\operatorname{SiLU}(z) = \frac{z}{1 + e^{-z}}",
    "swiglu": r"\operatorname{SiLU}(z) = \frac{z}{1 + e^{-z}}",
}


def _ffn_formula(activation: str) -> str:
    if activation == "swiglu":
        return r"\operatorname{FFN}(x) = \left(\operatorname{SiLU}(x W_1 + b_1) \odot (x W_3 + b_3)\right) W_2 + b_2"
    name = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU", "silu": "SiLU"}[activation]
    return rf"\operatorname{{FFN}}(x) = \operatorname{{{name}}}(x W_1 + b_1)\, W_2 + b_2"


def _layer_formula(c: bs.LayerConvention) -> str:
    norm = r"\operatorname{LN}" if c.normalization == "layer_norm" else r"\operatorname{RMSNorm}"
    if c.kind == "encoder":
        if c.placement == "post":
            return (
                rf"H = {norm}\left(X + \operatorname{{MHA}}(X)\right),\quad "
                rf"Y = {norm}\left(H + \operatorname{{FFN}}(H)\right)"
            )
        return rf"H = X + \operatorname{{MHA}}\left({norm}(X)\right),\quad Y = H + \operatorname{{FFN}}\left({norm}(H)\right)"
    if c.placement == "post":
        return (
            rf"\begin{{aligned}} H_1 &= {norm}\left(X + \operatorname{{MHA}}_{{\text{{causal}}}}(X)\right) \\ "
            rf"H_2 &= {norm}\left(H_1 + \operatorname{{MHA}}(H_1, X_{{kv}})\right) \\ "
            rf"Y &= {norm}\left(H_2 + \operatorname{{FFN}}(H_2)\right) \end{{aligned}}"
        )
    return (
        rf"\begin{{aligned}} H_1 &= X + \operatorname{{MHA}}_{{\text{{causal}}}}\left({norm}(X)\right) \\ "
        rf"H_2 &= H_1 + \operatorname{{MHA}}\left({norm}(H_1), X_{{kv}}\right) \\ "
        rf"Y &= H_2 + \operatorname{{FFN}}\left({norm}(H_2)\right) \end{{aligned}}"
    )


def _setup(step: bs.BlockSetup, ctx: _Context) -> list[Block]:
    T = ctx.T
    X = step.X
    out: list[Block] = [fill(T["block_setup_x"], X=Math("X"), n=X.rows, d=X.cols)]
    out += _matrix_blocks("X", X, None, ctx)
    if step.memory is not None:
        out.append(fill(T["block_setup_memory"], M=Math("X_{kv}"), n=step.memory.rows, d=step.memory.cols))
        out += _matrix_blocks("X_{kv}", step.memory, None, ctx)
    if step.positional == "sinusoidal":
        out.append(fill(T["block_setup_positional"], E=Math(r"E = X + \mathrm{PE}")))
    elif step.positional == "learned":
        out.append(fill(T["block_setup_learned"], E=Math(r"E = X + \mathrm{PE}")))
    for c in step.layers:
        out += _convention(c, ctx, many=len(step.layers) > 1)
    if step.unembed:
        out.append(fill(T["block_setup_unembed"], L=Math("L = Y W_U + b_U")))
    return out


def _convention(c: bs.LayerConvention, ctx: _Context, *, many: bool) -> list[Block]:
    T = ctx.T
    lead = fill(T["block_layer_lead"], k=c.index) if many else None
    key = f"block_{c.kind}_{c.placement}"
    out: list[Block] = [Paragraph((lead.parts if lead else ()) + fill(T[key]).parts)]
    out.append(Display(_layer_formula(c)))
    if c.normalization == "layer_norm":
        out.append(fill(T["block_layer_norm"], eps=Math(rf"\varepsilon = {entry(c.eps)}")))
        out.append(
            Display(
                r"\mu = \frac{1}{d} \sum_{j} x_j,\quad \sigma^2 = \frac{1}{d} \sum_{j} (x_j - \mu)^2,\quad "
                r"\operatorname{LN}(x)_j = \gamma_j \frac{x_j - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta_j"
            )
        )
    else:
        out.append(fill(T["block_rms_norm"], eps=Math(rf"\varepsilon = {entry(c.eps)}")))
        out.append(
            Display(
                r"\operatorname{RMSNorm}(x)_j = \gamma_j \frac{x_j}{\sqrt{\frac{1}{d} \sum_{l} x_l^2 + \varepsilon}}"
            )
        )
    out.append(fill(T[f"block_ffn_{c.activation}"]))
    out.append(Display(_ffn_formula(c.activation)))
    if c.activation not in {"swiglu", "relu"}:
        out.append(Display(_ACTIVATION_FORMULAS[c.activation]))
    if c.kv_heads is not None:
        out.append(fill(T["block_gqa"], n=c.heads, kv=c.kv_heads, size=c.heads // c.kv_heads))
    if c.rope is not None:
        base, start, layout = c.rope
        out.append(
            fill(
                T[f"block_rope_{layout}"],
                base=Math(f"b = {entry(base)}"),
                start=start,
                theta=Math(r"\theta_i = b^{-2i/d_k}"),
            )
        )
        out.append(
            Display(
                r"\begin{bmatrix} a' & b' \end{bmatrix} = \begin{bmatrix} a & b \end{bmatrix}"
                r" \begin{bmatrix} \cos m\theta_i & \sin m\theta_i \\ -\sin m\theta_i & \cos m\theta_i \end{bmatrix}"
            )
        )
    if c.kind == "decoder":
        out.append(fill(T["block_decoder_masks"], inf=Math(r"-\infty"), cond=Math("j > i")))
    return out


# --- positions ------------------------------------------------------------------------------------


def _positional(step: bs.PositionalStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    if step.kind == "learned":
        out: list[Block] = [fill(T["positional_learned"])]
        out += _show(r"\mathrm{PE}", step.P, ctx)
        return out + _embedded(step, ctx)
    d = step.d_model
    base = entry(step.base)
    if step.layout == "interleaved":
        formula = (
            rf"\mathrm{{PE}}_{{(pos,\, 2i)}} = \sin\left(\frac{{pos}}{{{base}^{{2i/{d}}}}}\right),\quad "
            rf"\mathrm{{PE}}_{{(pos,\, 2i+1)}} = \cos\left(\frac{{pos}}{{{base}^{{2i/{d}}}}}\right)"
        )
    else:
        formula = (
            rf"\mathrm{{PE}}_{{(pos,\, i)}} = \sin\left(\frac{{pos}}{{{base}^{{2i/{d}}}}}\right),\quad "
            rf"\mathrm{{PE}}_{{(pos,\, i + {d // 2})}} = \cos\left(\frac{{pos}}{{{base}^{{2i/{d}}}}}\right)"
        )
    out = [fill(T["positional_intro"], base=Math(f"b = {base}"), d=Math(f"d = {d}"))]
    out.append(Display(formula))
    start = step.start
    last = start + step.X.rows - 1
    out.append(fill(T["positional_rows"], first=start, last=last, row=Math(f"pos + {1 - start}")))
    frequencies = [
        rf"\frac{{1}}{{{base}^{{{2 * i}/{d}}}}} = {entry(theta)}" for i, theta in enumerate(step.frequencies)
    ]
    out.append(fill(T["positional_frequencies"], i=Math("i")))
    out.append(Display(r",\quad ".join(frequencies)))
    by_pos: dict[int, list[bs.PEAngle]] = {}
    for angle in step.angles:
        by_pos.setdefault(angle.pos, []).append(angle)
    for pos, angles in by_pos.items():
        out.append(fill(T["positional_position"], pos=pos, row=pos - start + 1))
        lines = []
        for a in angles:
            argument = rf"\frac{{{pos}}}{{{base}^{{{2 * a.i}/{d}}}}}"
            angle_pieces = [("=", entry(a.angle))]
            if not a.angle.is_Rational or not a.angle.is_Integer:
                angle_pieces.append((r"\approx", a.angle_decimal))
            lines.append((rf"\alpha_{{({pos},{a.i})}}", [("=", argument), *angle_pieces]))
            for value, text, col, func in (
                (a.sin, a.sin_decimal, a.columns[0], r"\sin"),
                (a.cos, a.cos_decimal, a.columns[1], r"\cos"),
            ):
                pieces = [("=", rf"{func} \alpha_{{({pos},{a.i})}}"), ("=", entry(value))]
                if not value.is_Integer:
                    pieces.append((r"\approx", text))
                lines.append((rf"\mathrm{{PE}}_{{({pos},{col - 1})}}", pieces))
        out.append(Display(chain(lines)))
    out.append(fill(T["positional_matrix"], P=Math(r"\mathrm{PE}")))
    out += _show(r"\mathrm{PE}", step.P, ctx)
    return out + _embedded(step, ctx)


def _embedded(step: bs.PositionalStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    out: list[Block] = [fill(T["positional_embedded"], E=Math(r"E = X + \mathrm{PE}"))]
    total = matrix(step.X) + " + " + _value(step.P)
    if width(total) <= PAGE_WIDTH:
        return out + _show("E", step.E, ctx, formula=f"X + \\mathrm{{PE}} = {total}")
    return out + _show("E", step.E, ctx, formula=r"X + \mathrm{PE}")


# --- norms ------------------------------------------------------------------------------------------


def _sum(items: Sequence[str]) -> str:
    text = ""
    for item in items:
        if not text:
            text = item
        elif item.startswith("-"):
            text += " - " + item[1:]
        else:
            text += " + " + item
    return text


def _norm_lines(step: bs.NormStep, row: bs.NormRow, eps: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """μ_i, σ_i² and √(σ_i² + ε) written as sums of the row's printed numbers, then the normalised row."""
    i, d = row.index, step.d
    xs = [entry(v) for v in row.x_exact] if row.x_exact is not None else list(row.x_decimals)
    mean = entry(row.mean) if row.mean_exact else row.mean_operand
    mean_pieces = [("=", rf"\frac{{{_sum(xs)}}}{{{d}}}")]
    if row.mean_exact:
        mean_pieces.append(("=", mean))
    if not (row.mean_exact and row.mean.is_Integer):
        mean_pieces.append((r"\approx", row.mean_decimal))
    deviations = [f"{x} - {_paren(mean)}" for x in xs]
    squares = [rf"\left({dev}\right)^2" for dev in deviations]
    written = rf"\frac{{{_sum(squares)}}}{{{d}}}"
    if row.x_exact is None and width(written) > PAGE_WIDTH - width(r"\sigma_{1}^{2} = "):
        # too wide for the page: the deviations x_j - μ already subtracted (with guard digits)
        centred = _sum([rf"\left({c}\right)^2" for c in row.centred_operands])
        written = rf"\frac{{{centred}}}{{{d}}}"
    variance_pieces = [("=", written)]
    if row.variance_exact:
        variance_pieces.append(("=", entry(row.variance)))
    if not (row.variance_exact and row.variance.is_Integer):
        variance_pieces.append((r"\approx", row.variance_decimal))
    variance = entry(row.variance) if row.variance_exact else row.variance_operand
    sigma = rf"\sigma_{{{i}}}^{{2}}"
    root = (
        rf"\sqrt{{{sigma} + \varepsilon}}",
        [("=", rf"\sqrt{{{variance} + {eps}}}"), (r"\approx", row.root_decimal)],
    )
    fractions = row_vector([rf"\frac{{{dev}}}{{{row.root_operand}}}" for dev in deviations])
    normalised = [(r"\approx", row_vector(row.normalised_decimals))]
    if width(fractions) <= PAGE_WIDTH / 2:
        normalised.insert(0, (r"\approx", fractions))
    row_pieces = [(r"\approx", row_vector(list(row.x_decimals)))]
    if row.x_exact is not None:
        row_pieces.insert(0, ("=", row_vector(list(row.x_exact))))
    return [
        (f"x_{{{i}}}", row_pieces),
        (rf"\mu_{{{i}}}", mean_pieces),
        (sigma, variance_pieces),
        root,
        (rf"\hat{{x}}_{{{i}}}", normalised),
    ]


def _paren(latex: str) -> str:
    return rf"\left({latex}\right)" if latex.startswith("-") else latex


def _norm(step: bs.NormStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    target, source = step.target, step.source
    if step.kind == "rms_norm":
        out: list[Block] = [fill(T["norm_rms"], N=Math(target), R=Math(source))]
        return out + _show(target, step.output, ctx, formula=rf"\operatorname{{RMSNorm}}({source})")
    out = [
        fill(T["norm_intro"], N=Math(rf"{target} = \operatorname{{LN}}({source})"), R=Math(source), d=step.d)
    ]
    if step.gamma is not None or step.beta is not None:
        gains = []
        if step.gamma is not None:
            gains.append(rf"\gamma = {_vector_tex(step.gamma)}")
        if step.beta is not None:
            gains.append(rf"\beta = {_vector_tex(step.beta)}")
        out.append(fill(T["norm_gain"]))
        out.append(Display(r",\quad ".join(gains)))
    eps = entry(step.eps)
    for row in step.rows:
        out.append(fill(T["norm_row"], i=row.index))
        out.append(Display(chain(_norm_lines(step, row, eps))))
        if step.gamma is not None or step.beta is not None:
            affine = rf"\gamma \odot \hat{{x}}_{{{row.index}}} + \beta"
            out.append(
                fill(T["norm_row_affine"], n=Math(rf"{affine} \approx {row_vector(row.output_decimals)}"))
            )
    out.append(fill(T["norm_matrix"], N=Math(target)))
    # LN(R) as a formula only when R is exact: a reader (or verify) recomputing it from R's
    # rounded decimals would get other last digits
    formula = rf"\operatorname{{LN}}({source})" if step.input.exact else ""
    out += _show(target, step.output, ctx, formula=formula)
    return out


# --- attention ----------------------------------------------------------------------------------------


def _attention(step: bs.AttentionPart, ctx: _Context) -> list[Block]:
    T = ctx.T
    key = {
        "attention": "attention_intro",
        "self_attention": "attention_self",
        "cross_attention": "attention_cross",
    }[step.stage]
    if step.source == "X" and step.stage != "cross_attention":  # the layer's input is the attention's X
        key += "_x"
    lead = fill(T[key], source=Math(step.source), X=Math("X"), M=Math("X_{kv}"))
    count = fill(T["attention_heads" if step.heads > 1 else "attention_one_head"], n=step.heads)
    out: list[Block] = [Paragraph((*lead.parts, Text(T["sentence_gap"]), *count.parts))]
    if step.groups is not None:
        items = [
            fill(T["attention_group"], h=h, g=g, K=Math(f"W_K^{{({h})}} = W_K^{{[{g}]}}"))
            for h, g in enumerate(step.groups, start=1)
        ]
        out.append(fill(T["attention_groups"], n=step.heads, kv=max(step.groups)))
        out.append(Bullets(tuple(items)))
    if step.rope and not step.long:
        out.append(fill(T["attention_rope"], Q=Math("Q"), K=Math("K")))
    if step.long:
        return out + _long_attention(step, ctx)
    head = 0
    for sub in step.steps:
        sub_head = getattr(sub, "head", 0)
        if sub_head != head and sub_head:
            out.append(Heading(3, T["head"].format(k=sub_head)))
            head = sub_head
        if isinstance(sub, (st.Concat, st.OutputProjection)) and head:
            out.append(Heading(3, T["attention_heads_together"]))
            head = 0
        if isinstance(sub, bs.RopeStep):
            out += _rope(sub, ctx)
        elif isinstance(sub, st.Setup) and step.source != "X":  # X = E = [...]: the name it stands for
            out += compose._setup(sub, _Context(ctx.T, ctx.digits, 3, sub_head), source=step.source)
        else:
            out += compose._RENDER[type(sub)](sub, _Context(ctx.T, ctx.digits, 3, sub_head))
    return out


def _long_attention(step: bs.AttentionPart, ctx: _Context) -> list[Block]:
    """Attention on inputs with long closed forms: each head's weights and output, then the block's output."""
    T = ctx.T
    out: list[Block] = [fill(T["attention_long"], source=Math(step.source))]
    for sub in step.steps:
        assert isinstance(sub, bs.HeadDecimals)
        out.append(Heading(3, T["head"].format(k=sub.head)))
        out += _show(compose._name("A", sub.head), sub.weights, ctx)
        out += _show(compose._name("O", sub.head), sub.output, ctx)
    out.append(Heading(3, T["attention_heads_together"]))
    key = "attention_long_output_o" if step.W_O else "attention_long_output"
    out.append(fill(T[key], W_O=Math("W_O")))
    return out + _show("O", step.output, ctx)


def _rope(step: bs.RopeStep, ctx: _Context) -> list[Block]:
    T, h = ctx.T, step.head
    q, k = compose._name("q", h), compose._name("k", h)
    Q, K = compose._name("Q", h), compose._name("K", h)
    thetas = [rf"\theta_{{{i}}} = {entry(b)}" for i, b in enumerate(step.thetas)]
    out: list[Block] = [
        fill(
            T["rope_intro"], theta=Math(r"\theta_i = b^{-2i/d_k}"), d=Math(f"d_k = {step.d_k}"), m=Math("m")
        ),
        Display(r",\quad ".join(thetas)),
    ]
    lines = []
    for a in step.angles:
        pieces = [("=", rf"{a.position} \cdot {entry(a.theta)}"), ("=", entry(a.angle))]
        if not a.angle.is_Integer:
            pieces.append((r"\approx", a.angle_decimal))
        pieces_cos = [(r"\approx", a.cos_decimal)] if a.angle != 0 else [("=", "1")]
        pieces_sin = [(r"\approx", a.sin_decimal)] if a.angle != 0 else [("=", "0")]
        tag = f"{a.row},{a.pair[0] // 2 if step.layout == 'interleaved' else a.pair[0] - 1}"
        lines.append((rf"\phi_{{{tag}}}", pieces))
        lines.append((rf"\cos \phi_{{{tag}}}", pieces_cos))
        lines.append((rf"\sin \phi_{{{tag}}}", pieces_sin))
    out.append(fill(T["rope_angles"], m=Math("m"), phi=Math(r"\phi_{m,i} = m\,\theta_i")))
    out.append(Display(chain(lines)))
    out.append(fill(T["rope_rotated"], Q=Math(Q), K=Math(K), q=Math(f"{q}_m"), k=Math(f"{k}_m")))
    out += _show(Q, step.Q, ctx, formula=rf"\operatorname{{RoPE}}({Q})")
    out += _show(K, step.K, ctx, formula=rf"\operatorname{{RoPE}}({K})")
    return out


# --- residuals, FFN, output ---------------------------------------------------------------------


def _residual(step: bs.ResidualStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    out: list[Block] = [
        fill(T["residual_intro"], R=Math(step.target), left=Math(step.left), right=Math(step.right_formula))
    ]
    formula = f"{step.left} + {step.right_formula}"
    total = _value(step.left_value) + " + " + _value(step.right_value)
    if width(total) <= PAGE_WIDTH:
        formula += f" = {total}"
    return out + _show(step.target, step.result, ctx, formula=formula)


_ACT = {"relu": "ReLU", "gelu": "GELU", "gelu_tanh": "GELU", "silu": "SiLU", "swiglu": "SiLU"}


def _ffn(step: bs.FeedForwardStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    source = step.source
    out: list[Block] = [fill(T["ffn_intro"], x=Math(source), d=step.W_1.cols)]
    weights = [rf"W_1 = {matrix(step.W_1)}", rf"b_1 = {_vector_tex(step.b_1)}"]
    line = r",\quad ".join(weights)
    out.append(
        Display(line)
        if width(line) <= PAGE_WIDTH
        else Display(r" \\ ".join(weights).join(("\\begin{gathered} ", " \\end{gathered}")))
    )
    out.append(fill(T["ffn_pre"], Z=Math("Z"), x=Math(source), W=Math("W_1"), b=Math("b_1")))
    out += _show("Z", step.pre, ctx, formula=_applied(source, step.input, " W_1 + b_1"))
    if step.activation == "relu":
        out += _relu(step, ctx)
    elif step.activation == "swiglu":
        assert step.gate is not None and step.W_3 is not None and step.b_3 is not None
        out.append(fill(T["ffn_gate"], G=Math("G"), x=Math(source), W=Math("W_3"), b=Math("b_3")))
        out.append(Display(rf"W_3 = {matrix(step.W_3)},\quad b_3 = {_vector_tex(step.b_3)}"))
        out += _show("G", step.gate, ctx, formula=_applied(source, step.input, " W_3 + b_3"))
        out.append(fill(T["ffn_swiglu"], U=Math(r"U = \operatorname{SiLU}(Z) \odot G")))
        out += _show("U", step.activated, ctx, formula=r"\operatorname{SiLU}(Z) \odot G")
    else:
        name = _ACT[step.activation]
        out.append(fill(T["ffn_activated"], U=Math(rf"U = \operatorname{{{name}}}(Z)")))
        out += _show("U", step.activated, ctx, formula=rf"\operatorname{{{name}}}(Z)")
    weights = [rf"W_2 = {matrix(step.W_2)}", rf"b_2 = {_vector_tex(step.b_2)}"]
    line = r",\quad ".join(weights)
    out.append(fill(T["ffn_output"], F=Math("F"), U=Math("U"), W=Math("W_2"), b=Math("b_2")))
    out.append(
        Display(line)
        if width(line) <= PAGE_WIDTH
        else Display(r" \\ ".join(weights).join(("\\begin{gathered} ", " \\end{gathered}")))
    )
    out += _show("F", step.output, ctx, formula=_applied("U", step.activated, " W_2 + b_2"))
    return out


def _relu(step: bs.FeedForwardStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    out: list[Block] = []
    comma = step.pre.value.rows >= 10 or step.pre.value.cols >= 10
    if step.zeroed:
        items = []
        for i, j in step.zeroed:
            cell = f"z_{compose._sub(i, j, comma)}"
            value = step.pre.value[i - 1, j - 1]
            shown = (
                f"{cell} = {entry(value)}"
                if value.is_Rational
                else rf"{cell} \approx {step.pre.decimals[i - 1][j - 1]}"
            )
            items.append(fill(T["ffn_zeroed_item"], i=i, j=j, z=Math(shown)))
        key = "ffn_zeroed_one" if len(step.zeroed) == 1 else "ffn_zeroed"
        out.append(fill(T[key], k=len(step.zeroed), n=step.pre.value.rows * step.pre.value.cols))
        out.append(Bullets(tuple(items)))
    else:
        out.append(fill(T["ffn_zeroed_none"]))
    if step.undecided:
        cells = ", ".join(f"z_{compose._sub(i, j, comma)}" for i, j in step.undecided)
        out.append(fill(T["ffn_undecided"], cells=Math(cells)))
    out.append(fill(T["ffn_relu"], U=Math(r"U = \operatorname{ReLU}(Z)")))
    out += _show("U", step.activated, ctx, formula=r"\operatorname{ReLU}(Z)")
    return out


def _unembed(step: bs.UnembedStep, ctx: _Context) -> list[Block]:
    T = ctx.T
    out: list[Block] = [
        fill(T["unembed_intro"], L=Math("L"), Y=Math(step.source), W=Math("W_U"), b=Math("b_U"))
    ]
    out.append(Display(rf"W_U = {matrix(step.W_U)},\quad b_U = {_vector_tex(step.b_U)}"))
    out += _show("L", step.logits, ctx, formula=_applied(step.source, step.input, " W_U + b_U"))
    out.append(fill(T["unembed_softmax"], P=Math(r"P = \operatorname{softmax}(L)")))
    out += _show("P", step.probabilities, ctx, formula=r"\operatorname{softmax}(L)")
    return out


def _output(step: bs.OutputStep, ctx: _Context) -> list[Block]:
    out: list[Block] = [fill(ctx.T["block_output"], Y=Math(f"Y = {step.name}"))]
    return out + _show("Y", step.output, ctx, formula=step.name)


_RENDER: dict[type, Callable[[object, _Context], list[Block]]] = {
    bs.BlockSetup: _setup,
    bs.PositionalStep: _positional,
    bs.NormStep: _norm,
    bs.AttentionPart: _attention,
    bs.ResidualStep: _residual,
    bs.FeedForwardStep: _ffn,
    bs.UnembedStep: _unembed,
    bs.OutputStep: _output,
}


def _section(step: object, T: dict[str, str], many: bool) -> str:
    if isinstance(step, st.ClaimTable):
        return T["section_claims"]
    if isinstance(step, bs.BlockSetup):
        return T["section_block_setup"]
    if isinstance(step, bs.PositionalStep):
        return T[registry.stage("positional", registry.BLOCK).prose]
    if isinstance(step, bs.UnembedStep):
        return T["section_unembed"]
    if isinstance(step, bs.OutputStep):
        return T["section_block_output"]
    if isinstance(step, bs.NormStep):
        title = T[registry.stage(f"norm_{step.number}", registry.BLOCK).prose].format(N=f"N{step.number}")
    elif isinstance(step, bs.AttentionPart):
        title = T[f"section_{step.stage}"]
    elif isinstance(step, bs.ResidualStep):
        title = T[registry.stage(f"residual_{step.number}", registry.BLOCK).prose].format(R=f"R{step.number}")
    else:
        title = T[registry.stage("ffn", registry.BLOCK).prose]
    layer = getattr(step, "layer", 1)
    return T["section_layer"].format(k=layer, title=title) if many else title


def compose_block(
    steps: Sequence[bs.BlockStep], *, lang: str = "en", title: str | None = None, digits: int = 4
) -> tuple[Block, ...]:
    """The blocks of a whole block derivation, headings included.

    Args:
        steps: the records from :func:`symattn.block_derivation.build_block_steps`.
        lang: "en" or "zh".
        title: the document title; None uses the language's default.
        digits: the places of the decimals (named in the introduction).
    """
    T = {**compose.TEXTS[lang].TEXT, **BLOCK_TEXTS[lang].TEXT}
    out: list[Block] = [Heading(1, title or T["block_title"]), fill(T["intro"], digits=digits)]
    many = sum(isinstance(s, bs.BlockSetup) for s in steps) and any(
        isinstance(s, bs.BlockSetup) and len(s.layers) > 1 for s in steps
    )
    number, claims = 0, False
    for step in steps:
        if not (isinstance(step, st.ClaimTable) and claims):  # one section for all the claims
            number += 1
            out.append(Heading(2, T["section"].format(n=number, title=_section(step, T, bool(many)))))
        claims = isinstance(step, st.ClaimTable)
        render = compose._RENDER[st.ClaimTable] if claims else _RENDER[type(step)]
        out += render(step, _Context(T, digits, 2))
    return tuple(out)
