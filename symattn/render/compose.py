"""Turn derivation steps into blocks: the words of one language plus formulas.

One function per step type (dispatch on the record's class).  The words come
from ``text_en`` / ``text_zh``, the formulas from :mod:`.mathtex`; nothing is
computed here, only arranged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

import sympy

from symattn import registry
from symattn.render import steps as st
from symattn.render import text_en, text_zh
from symattn.render.blocks import (
    Block,
    Bullets,
    Display,
    Heading,
    Math,
    Panel,
    Paragraph,
    Picture,
    Strong,
    Table,
    Text,
    fill,
)
from symattn.render.mathtex import (
    PAGE_WIDTH,
    chain,
    column_blocks,
    entry,
    is_identifier,
    label,
    matrix,
    row_vector,
    width,
    wrap,
)

__all__ = ["TEXTS", "compose"]

TEXTS: dict[str, ModuleType] = {"en": text_en, "zh": text_zh}


@dataclass(frozen=True)
class _Context:
    T: dict[str, str]
    digits: int
    level: int  # heading level of the step sections (2, or 3 inside a head)
    head: int = 0


def _name(base: str, head: int) -> str:
    """``Q`` or, for head k, ``Q^{(k)}`` (``W_Q`` becomes ``W_Q^{(k)}``)."""
    return base if head == 0 else f"{base}^{{({head})}}"


def _transposed(base: str, head: int) -> str:
    return f"{base}^{{\\top}}" if head == 0 else f"\\left({_name(base, head)}\\right)^{{\\top}}"


def _label_part(text: str) -> Math | Text:
    """A token label in prose: math for identifiers such as x_1, quoted words otherwise ("the")."""
    return Math(label(text)) if is_identifier(text) else Text(f"\u201c{text}\u201d")


def _fits(*latex: str) -> bool:
    return sum(width(piece) for piece in latex) <= PAGE_WIDTH


def _matrix_blocks(
    name: str,
    values,
    labels,
    ctx: _Context,
    *,
    decimals=None,
    formula: str = "",
    relation: str = "=",
    row_gap: str | None = None,
) -> list[Block]:
    """``name = formula = M`` (and ``≈ decimals``), split into column blocks when too wide.

    ``relation`` is ``\\approx`` when ``values`` are themselves the decimals.
    """
    blocks = column_blocks(values)
    if len(blocks) == 1:
        pieces = [("=", formula)] if formula else []
        pieces.append((relation, matrix(values, labels=labels, row_gap=row_gap)))
        if decimals is not None:
            pieces.append((r"\approx", matrix(decimals, labels=labels)))
        return [Display(chain([(name, pieces)]))]
    out: list[Block] = []
    n_cols = len(values.row(0)) if hasattr(values, "row") else len(values[0])
    for start, stop in blocks:
        if stop - start == 1:
            out.append(fill(ctx.T["column"], first=stop, total=n_cols, name=Math(name)))
        else:
            out.append(fill(ctx.T["columns"], first=start + 1, last=stop, total=n_cols, name=Math(name)))
        block = matrix(values, labels=labels, columns=(start, stop), row_gap=row_gap)
        if decimals is None:
            out.append(Display(block))
        else:
            approx = matrix(decimals, labels=labels, columns=(start, stop))
            out.append(Display(chain([(block, [(r"\approx", approx)])])))
    return out


def _product(
    name: str, formula: str, factors: tuple, result, ctx: _Context, *, labels=None, decimals=None
) -> list[Block]:
    """``name = formula = [left][right] = [result]``, or separate displays when too wide."""
    left, right = factors
    left_tex, right_tex, result_tex = matrix(left), matrix(right), matrix(result, labels=labels)
    if _fits(left_tex, right_tex) and _fits(result_tex):
        pieces = [("=", formula)] if formula else []
        pieces += [("=", left_tex + right_tex), ("=", result_tex)]
        if decimals is not None:
            pieces.append((r"\approx", matrix(decimals, labels=labels)))
        return [Display(chain([(name, pieces)]))]
    head = [Display(f"{name} = {formula}")] if formula else []
    return [*head, *_matrix_blocks(name, result, labels, ctx, decimals=decimals)]


# --- steps ------------------------------------------------------------------------


def _setup(step: st.Setup, ctx: _Context, *, source: str = "") -> list[Block]:
    """The inputs; ``source``: the name X stands for inside a block (``X = E = [...]``)."""
    T, h = ctx.T, step.head
    out: list[Block] = []
    if step.X is not None and h > 1:
        out.append(fill(T["setup_same_x"], X=Math("X")))  # the heads share their input
    elif step.X is not None:
        key = "setup_x" if step.X.rows > 1 else "setup_x_one"
        out.append(fill(T[key], n=step.X.rows, d=step.X.cols, X=Math("X")))
        out += _matrix_blocks("X", step.X, step.labels, ctx, formula=source)
    if step.X_kv is not None:
        key = "setup_x_kv" if step.X_kv.rows > 1 else "setup_x_kv_one"
        out.append(fill(T[key], n=step.X_kv.rows, d=step.X_kv.cols, X_kv=Math("X_{kv}")))
        out += _matrix_blocks("X_{kv}", step.X_kv, step.kv_labels, ctx)
    out.append(
        fill(
            T["setup_weights"],
            W_Q=Math(_name("W_Q", h)),
            W_K=Math(_name("W_K", h)),
            W_V=Math(_name("W_V", h)),
        )
    )
    weights = [(_name(n, h), m) for n, m in (("W_Q", step.W_Q), ("W_K", step.W_K), ("W_V", step.W_V))]
    together = r",\qquad ".join(f"{n} = {matrix(m)}" for n, m in weights)
    if width(together) <= PAGE_WIDTH:
        out.append(Display(together))
    else:
        for n, m in weights:
            out += _matrix_blocks(n, m, None, ctx)
    d_k = Math(f"d_k = {step.d_k}")
    if step.default_scale:
        factor = Math(
            rf"\frac{{1}}{{\sqrt{{d_k}}}} = \frac{{1}}{{\sqrt{{{step.d_k}}}}} = {entry(step.factor)}"
        )
        out.append(fill(T["setup_dk"], d_k=d_k, factor=factor))
    else:
        out.append(fill(T["setup_dk_custom"], d_k=d_k, factor=Math(f"c = {entry(step.factor)}")))
    if step.causal:
        out.append(fill(T["setup_causal"], inf=Math(r"-\infty"), cond=Math("j > i")))
    elif step.masked:
        out.append(fill(T["setup_mask"], inf=Math(r"-\infty")))
    if not step.numeric:
        out.append(fill(T["setup_symbolic"]))
    return out


def _projection(step: st.Projection, ctx: _Context) -> list[Block]:
    h = step.head
    source = "X_{kv}" if step.cross else "X"
    weight = _name(f"W_{step.name}", h)
    out: list[Block] = []
    if step.name == "Q":
        out.append(
            fill(
                ctx.T["projection_intro"], Q=Math(_name("Q", h)), K=Math(_name("K", h)), V=Math(_name("V", h))
            )
        )
    out += _product(
        _name(step.name, h),
        f"{source} {weight}",
        (step.source, step.weight),
        step.result,
        ctx,
        labels=step.labels,
    )
    return out


def _scores(step: st.Scores, ctx: _Context) -> list[Block]:
    T, h = ctx.T, step.head
    S, Q, K_T = _name("S", h), _name("Q", h), _transposed("K", h)
    out: list[Block] = [fill(T["scores_intro"], S=Math(S), Q=Math(Q), K=Math(_name("K", h)))]
    out += _product(S, f"{Q} {K_T}", (step.Q, step.K_T), step.scores, ctx, labels=step.labels)
    out += _dot_products(step, ctx)
    scaled = _name(r"\tilde{S}", h)  # \tilde{S}^{(1)}, not \tilde{S^{(1)}}
    if step.default_scale:
        out.append(
            fill(T["scaled_intro"], factor=Math(rf"\frac{{1}}{{\sqrt{{{step.d_k}}}}} = {entry(step.factor)}"))
        )
        formula = rf"\frac{{{S}}}{{\sqrt{{{step.d_k}}}}}"
    else:
        out.append(fill(T["scaled_intro_custom"], factor=Math(f"c = {entry(step.factor)}")))
        formula = rf"{entry(step.factor)} \, {S}"
    if step.masked:
        M = _name("M", h)
        pattern = [[-sympy.oo if v == -sympy.oo else 0 for v in row] for row in step.scaled.tolist()]
        out.append(fill(T["scaled_masked"], M=Math(M), inf=Math(r"-\infty")))
        out.append(Display(f"{M} = {matrix(pattern, labels=step.labels)}"))
        formula += f" + {M}"  # the mask written out, so the step is an identity a reader can check
    exact, approx = matrix(step.scaled, labels=step.labels), None
    if step.scaled_decimals is not None and step.scaled_decimals != _as_text(step.scaled):
        approx = matrix(step.scaled_decimals, labels=step.labels)
    if _fits(exact):
        pieces = [("=", formula), ("=", exact)]
        if approx is not None:
            pieces.append((r"\approx", approx))
        out.append(Display(chain([(scaled, pieces)])))
    else:
        out.append(Display(f"{scaled} = {formula}"))
        out += _matrix_blocks(
            scaled, step.scaled, step.labels, ctx, decimals=step.scaled_decimals if approx else None
        )
    return out


_DOTS_SHOWN = 16  # entries of S written out as dot products, at most


def _dot_products(step: st.Scores, ctx: _Context) -> list[Block]:
    """Each score written out as the dot product of a query row and a key row (small cases;
    the first head only: the next heads' scores are the same arithmetic on other numbers)."""
    n_q, n_k = step.scores.shape
    if n_q * n_k > _DOTS_SHOWN or step.Q.cols > 4 or step.head > 1:
        return []
    s, q, k = _name("s", step.head), _name("q", step.head), _name("k", step.head)
    comma = n_q >= 10 or n_k >= 10
    lines = []
    for i in range(n_q):
        for j in range(n_k):
            terms = " + ".join(
                rf"{_paren(entry(step.Q[i, m]))} \cdot {_paren(entry(step.K_T[m, j]))}"
                for m in range(step.Q.cols)
            )
            lhs = f"{s}_{_sub(i + 1, j + 1, comma)}"
            pieces = [
                ("=", rf"{q}_{{{i + 1}}} \cdot {k}_{{{j + 1}}}"),
                ("=", terms),
                ("=", entry(step.scores[i, j])),
            ]
            lines.append((lhs, pieces))
    return [fill(ctx.T["scores_dots"], q=Math(f"{q}_i"), k=Math(f"{k}_j")), Display(chain(lines))]


def _as_text(values) -> tuple[tuple[str, ...], ...]:
    """Entries as LaTeX, to see whether decimals would repeat the exact values."""
    return tuple(tuple(entry(values[i, j]) for j in range(values.cols)) for i in range(values.rows))


def _sub(i: int, j: int | str, comma: bool) -> str:
    """The subscript of entry (i, j): ``{31}``, or ``{10,1}`` when an index can pass 9."""
    return f"{{{i},{j}}}" if comma else f"{{{i}{j}}}"


def _power(exponent: sympy.Expr) -> str:
    return f"e^{{{entry(exponent)}}}"


def _softmax_row(row: st.SoftmaxRow, head: int, ctx: _Context, *, comma: bool = False) -> list[Block]:
    T = ctx.T
    i, a = row.index, _name("a", head)
    live = [j for j, t in enumerate(row.terms) if t != 0]
    out: list[Block] = [_label_row(row, ctx)]
    powers = [_power(s) for s in row.exponents]
    listed = r"\left(" + r",\ ".join(powers) + r"\right)"
    # the exponentials, named by the scaled scores they raise e to when they fit on the line
    s_tilde = _name(r"\tilde{s}", head)
    named = [f"e^{{{s_tilde}_{_sub(i, j + 1, comma)}}}" for j in range(len(powers))]
    finite = all(s.is_finite for s in row.exponents)
    labelled = r"\left(" + r",\ ".join(named) + r"\right) = " + listed
    if finite and width(labelled) <= PAGE_WIDTH:
        out.append(Display(labelled))
    else:
        out.append(Display(listed if width(listed) <= PAGE_WIDTH else wrap(powers, r",\ ")))
    if row.shift != 0 and len(live) > 1:
        out.append(fill(T["softmax_shift"], e=Math(_power(row.shift))))
    full_sum = " + ".join(powers[j] for j in live)
    lines = []
    masked = [j for j in range(len(row.weights)) if j not in live]
    for j, weight in enumerate(row.weights):
        lhs = f"{a}_{_sub(i, j + 1, comma)}"
        if j not in live:
            if j == masked[0]:  # the masked weights on one line: e^{-inf} = 0 in each numerator
                others = [("=", f"{a}_{_sub(i, m + 1, comma)}") for m in masked[1:]]
                lines.append((lhs, [*others, ("=", r"0 \quad \left(e^{-\infty} = 0\right)")]))
            continue
        pieces = []
        if width(full_sum) <= PAGE_WIDTH / 2:
            pieces.append(("=", rf"\frac{{{powers[j]}}}{{{full_sum}}}"))
        pieces.append(("=", entry(weight)))
        if row.decimals is not None:
            pieces.append((r"\approx", row.decimals[j]))
        lines.append((lhs, pieces))
    out.append(Display(chain(lines)))
    if not row.sums_to_one:
        out.append(fill(T["softmax_sum_unverified"], i=i))
        return out
    if len(live) == 1:
        return out  # one weight left by the mask: it is 1, as shown
    numerators = [entry(row.terms[j]) for j in live]
    denominator = entry(row.denominator)
    exponentials = " + ".join(named[j] for j in live)
    shared = denominator
    if finite and row.shift == 0 and width(exponentials) + width(denominator) <= PAGE_WIDTH / 2:
        shared = f"{exponentials} = {denominator}"  # the sum it is, checkable
    out.append(fill(T["softmax_sum"], i=i, D=Math(shared)))
    total = " + ".join(f"{a}_{_sub(i, j + 1, comma)}" for j in live)
    fraction = rf"\frac{{{' + '.join(numerators)}}}{{{denominator}}}"
    if width(total) + width(fraction) <= PAGE_WIDTH:
        out.append(Display(chain([(total, [("=", fraction), ("=", "1")])])))
    else:
        out.append(Display(wrap(numerators, " + ", tail=f" = {denominator}")))
        out.append(Display(rf"\sum_{{j}} {a}_{_sub(i, 'j', comma)} = 1"))
    return out


def _t(k: int, head: int) -> str:
    """The name of the k-th named exponential (k = 0 is the constant 1)."""
    if k == 0:
        return "1"
    return f"t_{{{k}}}" if head == 0 else f"t^{{({head})}}_{{{k}}}"


def _D(i: int, head: int) -> str:
    return f"D_{{{i}}}" if head == 0 else f"D^{{({head})}}_{{{i}}}"


def _linear(terms, head: int) -> str:
    """``2 + t_{1} + \\frac{t_{3}}{2}``: a sum of named exponentials with exact coefficients."""
    if not terms:
        return "0"
    out = ""
    for coefficient, k in terms:
        piece = entry(coefficient) if k == 0 else entry(coefficient * sympy.Symbol(_t(k, head)))
        if not out:
            out = piece
        elif piece.startswith("-"):
            out += " - " + piece[1:].lstrip()
        else:
            out += " + " + piece
    return out


def _listing(items: list[str]) -> str:
    """Equations side by side, ``a = 1,\\quad b = 2``, on as many lines as they need (commas end lines)."""
    lines: list[str] = []
    for item in items:
        if lines and width(lines[-1] + r",\quad " + item) <= PAGE_WIDTH:
            lines[-1] += r",\quad " + item
        else:
            lines.append(item)
    if len(lines) == 1:
        return lines[0]
    return r"\begin{aligned} " + r", \\ ".join("& " + line for line in lines) + r" \end{aligned}"


def _named_weight(k: int | None, i: int, head: int) -> str:
    if k is None:
        return "0"
    return rf"\frac{{{_t(k, head)}}}{{{_D(i, head)}}}"


def _softmax_row_named(row: st.SoftmaxRow, head: int, ctx: _Context, *, comma: bool = False) -> list[Block]:
    """One row with named exponentials: the terms as names, the new names, D_i once, the weights."""
    T, i, a = ctx.T, row.index, _name("a", head)
    assert row.names is not None and row.denominator_named is not None
    smallest = Math(_power(row.shift))
    if row.label is not None:
        out: list[Block] = [
            fill(T["softmax_named_row_labelled"], i=i, label=_label_part(row.label), e=smallest)
        ]
    else:
        out = [fill(T["softmax_named_row"], i=i, e=smallest)]
    terms = ["0" if k is None else _t(k, head) for k in row.names]
    listed = r"\left(" + r",\ ".join(terms) + r"\right)"
    out.append(Display(listed if width(listed) <= PAGE_WIDTH else wrap(terms, r",\ ")))
    if row.new_names:
        out.append(fill(T["softmax_named_new"]))
        defined = []
        s_tilde = _name(r"\tilde{s}", head)
        smallest = row.names.index(0) if 0 in row.names else None
        for named in row.new_names:
            text = f"{_t(named.index, head)} = {entry(named.value)}"
            if smallest is not None and named.index in row.names:
                j = row.names.index(named.index)  # t_k = e^{s̃_ij - s̃_ij0}: the scores it comes from
                difference = f"{s_tilde}_{_sub(i, j + 1, comma)} - {s_tilde}_{_sub(i, smallest + 1, comma)}"
                text = f"{_t(named.index, head)} = e^{{{difference}}} = {entry(named.value)}"
            if named.decimal is not None:
                text += rf" \approx {named.decimal}"
            defined.append(text)
        out.append(Display(_listing(defined)))
    D = _D(i, head)
    denominator = f"{D} = {_linear(row.denominator_named, head)}"
    if row.denominator_decimal is not None:
        denominator += rf" \approx {row.denominator_decimal}"
    out.append(fill(T["softmax_named_sum"], i=i, D=Math(denominator)))
    weights = []
    for j, k in enumerate(row.names):
        text = f"{a}_{_sub(i, j + 1, comma)} = {_named_weight(k, i, head)}"
        if row.decimals is not None:
            text += rf" \approx {row.decimals[j]}"
        weights.append(text)
    out.append(Display(_listing(weights)))
    return out


def _label_row(row, ctx: _Context) -> Paragraph:
    if row.label is not None:
        return fill(ctx.T["softmax_row_labelled"], i=row.index, label=_label_part(row.label))
    return fill(ctx.T["softmax_row"], i=row.index)


def _softmax(step: st.Softmax, ctx: _Context) -> list[Block]:
    T, h = ctx.T, step.head
    a = _name("a", h)
    formula = rf"{a}_{{ij}} = \frac{{e^{{\tilde{{s}}_{{ij}}}}}}{{\sum_k e^{{\tilde{{s}}_{{ik}}}}}}"
    out: list[Block] = [fill(T["softmax_intro"], formula=Math(formula))]
    comma = len(step.rows) >= 10 or step.weights.cols >= 10
    if step.named:
        out.append(fill(T["softmax_named_intro"], t=Math(_t(1, h)), D=Math(_D(1, h).replace("{1}", "{i}"))))
        for row in step.rows:
            out += _softmax_row_named(row, h, ctx, comma=comma)
        names = [
            [_named_weight(k, row.index, h) for k in row.names]  # type: ignore[union-attr]
            for row in step.rows
        ]
        out.append(fill(T["softmax_matrix"], A=Math(_name("A", h))))
        out += _matrix_blocks(_name("A", h), names, step.labels, ctx, decimals=step.decimals, row_gap="4pt")
        return out
    for row in step.rows:
        out += _softmax_row(row, h, ctx, comma=comma)
    out.append(fill(T["softmax_matrix"], A=Math(_name("A", h))))
    out += _matrix_blocks(_name("A", h), step.weights, step.labels, ctx, decimals=step.decimals)
    return out


def _output_row(row: st.OutputRow, head: int, ctx: _Context, *, comma: bool = False) -> list[Block]:
    i = row.index
    a, v, o = _name("a", head), _name("v", head), _name("o", head)
    lines = []
    named = row.weight_names is not None and row.output_named is not None
    live = [j for j, weight in enumerate(row.weights) if weight != 0]  # a masked weight adds nothing
    for j, (weight, value, term) in enumerate(zip(row.weights, row.values, row.terms, strict=True)):
        if j not in live:
            continue
        if named:
            shown = _named_weight(row.weight_names[j], i, head)  # type: ignore[index]
            pieces = [("=", f"{shown} {row_vector(value)}")]
        else:
            pieces = [("=", f"{_paren(entry(weight))} {row_vector(value)}"), ("=", row_vector(term))]
        if row.term_decimals is not None:
            pieces.append((r"\approx", row_vector(row.term_decimals[j])))
        lines.append((f"{a}_{_sub(i, j + 1, comma)} {v}_{{{j + 1}}}", pieces))
    total = " + ".join(f"{a}_{_sub(i, j + 1, comma)} {v}_{{{j + 1}}}" for j in live)
    if width(total) > PAGE_WIDTH / 2:
        total = rf"\sum_{{j}} {a}_{_sub(i, 'j', comma)} {v}_{{j}}"
    if named:
        numerators = row_vector([_linear(n, head) for n in row.output_named])  # type: ignore[union-attr]
        exact = rf"\frac{{1}}{{{_D(i, head)}}} {numerators}"
    else:
        exact = row_vector(row.output)
    pieces = [("=", total), ("=", exact)]
    if row.output_decimals is not None:
        pieces.append((r"\approx", row_vector(row.output_decimals)))
    lines.append((f"{o}_{{{i}}}", pieces))
    if row.label is not None:
        lead = fill(ctx.T["output_row_labelled"], i=i, label=_label_part(row.label))
    else:
        lead = fill(ctx.T["output_row"], i=i)
    return [lead, Display(chain(lines))]


def _paren(latex: str) -> str:
    return latex if width(latex) < 2 or latex.startswith(r"\frac") else rf"\left({latex}\right)"


def _output(step: st.Output, ctx: _Context) -> list[Block]:
    h = step.head
    o, v = _name("o", h), _name("v", h)
    formula = rf"{o}_i = \sum_j {_name('a', h)}_{{ij}} \, {v}_j"
    out: list[Block] = [
        fill(ctx.T["output_intro"], formula=Math(formula), v=Math(f"{v}_j"), V=Math(_name("V", h)))
    ]
    comma = len(step.rows) >= 10 or step.output.rows >= 10 or len(step.rows[0].weights) >= 10
    for row in step.rows:
        out += _output_row(row, h, ctx, comma=comma)
    out.append(fill(ctx.T["output_matrix"], O=Math(_name("O", h))))
    if step.named and step.decimals is not None:  # the exact rows are above, with names
        out += _matrix_blocks(
            _name("O", h),
            step.decimals,
            step.labels,
            ctx,
            formula=f"{_name('A', h)} {_name('V', h)}",
            relation=r"\approx",
        )
        return out
    out += _matrix_blocks(
        _name("O", h),
        step.output,
        step.labels,
        ctx,
        decimals=step.decimals,
        formula=f"{_name('A', h)} {_name('V', h)}",
    )
    return out


def _key_name(row: st.OutputRow, j: int, ctx: _Context) -> Paragraph:
    if row.key_labels:
        return fill(ctx.T["key_labelled"], j=j, label=_label_part(row.key_labels[j - 1]))
    return fill(ctx.T["key"], j=j)


def _analysis(step: st.Analysis, ctx: _Context) -> list[Block]:
    T, h = ctx.T, step.head
    o, v, a = _name("o", h), _name("v", h), _name("a", h)
    comma = len(step.rows) >= 10 or any(len(row.weights) >= 10 for row in step.rows)
    out: list[Block] = [fill(T["analysis_intro"])]
    for row in step.rows:
        i = row.index
        shown = row.output_decimals if row.output_decimals is not None else row.output
        out.append(
            fill(
                T["analysis_row_labelled" if row.label else "analysis_row"],
                o=Math(f"{o}_{{{i}}} = {row_vector(shown)}"),
                label=_label_part(row.label or ""),
            )
        )
        items = []
        for j in range(1, len(row.weights) + 1):
            if row.weights[j - 1] == 0:
                continue  # masked: no weight, no contribution
            # each number says what it is (a_{ij} ≈ 0.4223), so a reader, or verify, can check it
            cell = f"{a}_{_sub(i, j, comma)}"
            weight = (
                rf"{cell} \approx {row.weight_decimals[j - 1]}"
                if row.weight_decimals is not None
                else f"{cell} = {entry(row.weights[j - 1])}"
            )
            term = (
                rf"{cell} {v}_{{{j}}} \approx {row_vector(row.term_decimals[j - 1])}"
                if row.term_decimals is not None
                else f"{cell} {v}_{{{j}}} = {row_vector(row.terms[j - 1])}"
            )
            items.append(
                fill(
                    T["analysis_item"],
                    key=_key_name(row, j, ctx),
                    weight=Math(weight),
                    term=Math(term),
                )
            )
        out.append(Bullets(tuple(items)))
        out.append(_dominance(row, ctx, a, comma))
    return out


def _dominance(row: st.OutputRow, ctx: _Context, a: str, comma: bool) -> Paragraph:
    T = ctx.T
    if row.dominant is None:
        return fill(T["analysis_undecided"])
    parts: list = []
    last = len(row.dominant) - 1
    for n, j in enumerate(row.dominant):
        if n:
            parts.append(Text(T["and"] if n == last else T["comma"]))
        parts.extend(_key_name(row, j, ctx).parts)
    keys = Paragraph(tuple(parts))
    cells = " = ".join(f"{a}_{_sub(row.index, j, comma)}" for j in row.dominant)
    weight = (
        rf"{cells} \approx {row.weight_decimals[row.dominant[0] - 1]}"
        if row.weight_decimals
        else f"{cells} = {entry(row.weights[row.dominant[0] - 1])}"
    )
    if len(row.dominant) == 1:
        return fill(T["analysis_dominant"], key=keys, weight=Math(weight))
    return fill(T["analysis_tie"], keys=keys, weight=Math(weight))


# --- how important is each token -----------------------------------------------

_MEASURES = ("weights", "norm", "jacobian")
#: Pairs of tokens that two measures order differently, listed per output at most.
_REORDERINGS_SHOWN = 4


def _keys(row, tokens: Sequence[int], ctx: _Context) -> Paragraph:
    """``token 1 (x_1) and token 3 (x_3)``: several keys in one phrase."""
    parts: list = []
    last = len(tokens) - 1
    for n, j in enumerate(tokens):
        if n:
            parts.append(Text(ctx.T["and"] if n == last else ctx.T["comma"]))
        parts.extend(_key_name(row, j, ctx).parts)
    return Paragraph(tuple(parts))


def _importance_names(head: int, i: int, comma: bool) -> dict[str, Callable[[int], str]]:
    return {
        "weights": lambda j: f"{_name('a', head)}_{_sub(i, j, comma)}",
        "norm": lambda j: f"{_name('n', head)}_{_sub(i, j, comma)}",
        "jacobian": lambda j: f"{_name('g', head)}_{_sub(i, j, comma)}",
        "length": lambda j: f"{_name('r', head)}_{{{j}}}",
    }


def _importance_line(step: st.Importance, row: st.ImportanceRow, j: int, names) -> str:
    """``a_31 ≈ 0.2483, & n_31 = a_31 r_1 = a_31 ≈ 0.2483, & g_31 ≈ 0.3435``: one token's three measures."""
    k = j - 1
    a, n, r = names["weights"](j), names["norm"](j), names["length"](j)
    weight = row.weights[k]
    exact_weight = f"{a} &= {entry(weight)}"
    cells = [exact_weight if weight.is_Rational else rf"{a} &\approx {row.weight_decimals[k]}"]
    length = step.lengths[k]
    norm = f"{n} &= {a} {r}"
    if weight == 0 or length == 0:
        norm += " = 0"
    else:
        norm += f" = {a}" if length == 1 else rf" = {entry(length)} \, {a}"
        if row.norms[k].is_Rational:
            norm += f" = {entry(row.norms[k])}"
        else:
            norm += rf" \approx {row.norm_decimals[k]}"
    cells.append(norm)
    if row.jacobian_decimals is not None:
        g = names["jacobian"](j)
        cells.append(f"{g} &= 0" if weight == 0 else rf"{g} &\approx {row.jacobian_decimals[k]}")
    return ", & ".join(cells)


def _order(row, groups, ctx: _Context) -> Paragraph:
    """``token 3, then token 1 and token 2 (tied exactly)``."""
    parts: list = []
    for n, group in enumerate(groups):
        if n:
            parts.append(Text(ctx.T["then"]))
        parts.extend(_keys(row, group, ctx).parts)
        if len(group) > 1:
            parts.append(Text(ctx.T["tied_exactly"]))
    return Paragraph(tuple(parts))


def _relation(names, measure: str, pair: tuple[int, int], order: int, ctx: _Context) -> Paragraph:
    """``a_11 = a_13`` (an exact tie, no digits), or in words which is larger (no ``<`` in the math)."""
    x, y = names[measure](pair[0]), names[measure](pair[1])
    if order == 0:
        return Paragraph((Math(f"{x} = {y}"),))
    big, small = (x, y) if order > 0 else (y, x)
    return fill(ctx.T["larger_than"], x=Math(big), y=Math(small))


def _importance_lengths(step: st.Importance, ctx: _Context, names) -> list[Block]:
    items = []
    width_v = len(step.lengths) and step.width
    comma = len(step.lengths) >= 10
    for j, length in enumerate(step.lengths, start=1):
        v = f"{_name('v', step.head)}_{{{j}}}"
        if width_v == 1 and step.numeric:  # one entry: r_j = ±v_j1 (a 1-entry v · v reads as a matrix)
            sign = "-" if step.first_entries[j - 1].is_negative else ""
            item = (
                f"{names['length'](j)} = {sign}{_name('v', step.head)}_{_sub(j, 1, comma)} = {entry(length)}"
            )
        else:
            item = rf"{names['length'](j)} = \sqrt{{{v} \cdot {v}}} = {entry(length)}"
        if step.length_decimals is not None and not length.is_Rational:
            item += rf" \approx {step.length_decimals[j - 1]}"
        items.append(item)
    return [fill(ctx.T["importance_lengths"]), Display(_listing(items))]


def _importance(step: st.Importance, ctx: _Context) -> list[Block]:
    T, h = ctx.T, step.head
    comma = len(step.lengths) >= 10 or len(step.rows) >= 10
    # The definitions hold no digit, not even a head's number (verify cannot read \lVert, and a
    # digit in a formula it cannot read would count as a number left unchecked): head k is "(k)".
    tag = "^{(k)}" if h else ""
    a, n, g, r = (
        f"{base}{tag}_{{{sub}}}" for base, sub in (("a", "ij"), ("n", "ij"), ("g", "ij"), ("r", "j"))
    )
    v, o, x = f"v{tag}_j", f"o{tag}_i", "x_j"
    out: list[Block] = [
        fill(
            T["importance_intro"],
            a=Math(a),
            n=Math(rf"{n} = \lVert {a} {v} \rVert = {a} {r}"),
            r=Math(rf"{r} = \lVert {v} \rVert"),
            g=Math(rf"{g} = \lVert \partial {o} / \partial {x} \rVert_F"),
        )
    ]
    if step.cross:
        out.append(fill(T["importance_cross"], x=Math(x)))
    out += _importance_lengths(step, ctx, _importance_names(h, 1, comma))
    if not step.numeric:
        out.append(fill(T["importance_symbolic"]))
        return out
    if not step.jacobian:
        out.append(
            fill(T["importance_no_jacobian"], entries=step.jacobian_entries, limit=step.jacobian_limit)
        )
    for row in step.rows:
        out += _importance_row(step, row, ctx, comma)
    out.append(_importance_picture(step, ctx))
    return out


def _labels(labels, n: int) -> tuple[str, ...]:
    return tuple(labels) if labels else tuple(str(k) for k in range(1, n + 1))


def _importance_picture(step: st.Importance, ctx: _Context) -> Picture:
    """The three measures as heatmaps side by side (outputs as rows, tokens as columns)."""
    T = ctx.T
    n_q, n_k = len(step.rows), len(step.lengths)
    columns = {
        "weights": [row.weight_decimals for row in step.rows],
        "norm": [row.norm_decimals for row in step.rows],
    }
    if step.jacobian:
        columns["jacobian"] = [row.jacobian_decimals for row in step.rows]
    panels = tuple(
        Panel(
            title=T[f"picture_{measure}"],
            cells=tuple(tuple(cells) for cells in values),
            row_labels=_labels(step.labels, n_q),
            col_labels=_labels(step.kv_labels, n_k),
            row_axis=T["picture_rows"],
            col_axis=T["picture_columns"],
        )
        for measure, values in columns.items()
    )
    name = f"importance-head{step.head}" if step.head else "importance"
    caption = T["picture_caption_head"].format(k=step.head) if step.head else T["picture_caption"]
    return Picture(name, caption, panels)


def _importance_row(step: st.Importance, row: st.ImportanceRow, ctx: _Context, comma: bool) -> list[Block]:
    T, h, i = ctx.T, step.head, row.index
    names = _importance_names(h, i, comma)
    o = Math(f"{_name('o', h)}_{{{i}}}")
    if row.label is not None:
        out: list[Block] = [fill(T["importance_row_labelled"], o=o, label=_label_part(row.label))]
    else:
        out = [fill(T["importance_row"], o=o)]
    lines = [_importance_line(step, row, j, names) for j in range(1, len(row.weights) + 1)]
    out.append(Display(r"\begin{aligned} " + r" \\ ".join(lines) + r" \end{aligned}"))
    measures = [m for m in _MEASURES if m in row.rankings]
    rankings = [row.rankings[m] for m in measures]
    live = [j for j in range(1, len(row.weights) + 1) if j not in row.masked]
    sentences: list[Paragraph] = []
    if len(live) > 1:
        if all(ranking == rankings[0] for ranking in rankings):
            key = "importance_same_order" if len(measures) == 3 else "importance_same_order_two"
            sentences.append(fill(T[key], order=_order(row, rankings[0], ctx)))
        else:
            orders: list = []
            for measure, ranking in zip(measures, rankings, strict=True):
                if orders:
                    orders.append(Text(T["semicolon"]))
                order = _order(row, ranking, ctx)
                orders.extend(fill(T["importance_order"], measure=T[f"measure_{measure}"], order=order).parts)
            sentences.append(fill(T["importance_orders"], orders=Paragraph(tuple(orders))))
    for tokens, tied in row.ties:
        equalities = [Math(" = ".join(names[m](j) for j in tokens)) for m in tied]
        parts: list = []
        for k, equality in enumerate(equalities):
            if k:
                parts.append(Text(T["and"] if k == len(equalities) - 1 else T["comma"]))
            parts.append(equality)
        which = [T[f"measures_{m}"] for m in tied]
        listed = which[0] if len(which) == 1 else T["comma"].join(which[:-1]) + T["and"] + which[-1]
        key = "importance_tie" if len(tied) > 1 else "importance_tie_one"
        sentences.append(
            fill(T[key], keys=_keys(row, tokens, ctx), measures=listed, equalities=Paragraph(tuple(parts)))
        )
    sentences += _value_length_sentences(step, row, ctx, names, live)
    sentences += _reorderings(row, ctx, names)
    if row.masked:
        key = "importance_masked_one" if len(row.masked) == 1 else "importance_masked"
        sentences.append(fill(T[key], keys=_keys(row, row.masked, ctx)))
    if sentences:  # one paragraph per output: the facts about one output read together
        parts: list = []
        for sentence in sentences:
            if parts:
                parts.append(Text(T["sentence_gap"]))
            parts.extend(_sentence(sentence).parts)
        out.append(Paragraph(_merged(parts)))
    return out


def _merged(parts: list) -> tuple:
    """Adjacent text parts joined (as :func:`fill` leaves them)."""
    merged: list = []
    for part in parts:
        if isinstance(part, Text) and merged and isinstance(merged[-1], Text):
            merged[-1] = Text(merged[-1].text + part.text)
        else:
            merged.append(part)
    return tuple(merged)


def _reorderings(row: st.ImportanceRow, ctx: _Context, names) -> list[Paragraph]:
    """Where two measures order tokens differently, by the second measure's relation, and why."""
    T, h, i = ctx.T, ctx.head, row.index
    out = []
    for reason, key in (
        ("value length", "importance_reorder_length"),
        ("query and key path", "importance_reorder_path"),
    ):
        found = [r for r in row.reorderings if r.reason == reason]
        if not found:
            continue
        shown = found[:_REORDERINGS_SHOWN]
        parts: list = []
        for k, reordering in enumerate(shown):
            if k:
                parts.append(Text(T["and"] if k == len(shown) - 1 else T["comma"]))
            parts.extend(
                _relation(names, reordering.measures[1], reordering.tokens, reordering.orders[1], ctx).parts
            )
        if len(found) > len(shown):
            parts.append(Text(T["and_more"].format(k=len(found) - len(shown))))
        sentence = fill(T[key], relations=Paragraph(tuple(parts)))
        own = row.query_token is not None and any(row.query_token in r.tokens for r in found)
        if reason == "query and key path" and own:
            extra = fill(
                T["importance_reorder_own"],
                key=_key_name(row, row.query_token, ctx),  # type: ignore[arg-type]
                q=Math(f"{_name('q', h)}_{{{i}}}"),
            )
            sentence = Paragraph((*sentence.parts, Text(T["sentence_gap"]), *extra.parts))
        out.append(sentence)
    return out


def _sentence(paragraph: Paragraph) -> Paragraph:
    """A sentence starts with a capital letter ("token 3 matters" -> "Token 3 matters")."""
    first = paragraph.parts[0] if paragraph.parts else None
    if isinstance(first, Text) and first.text[:1].islower():
        return Paragraph((Text(first.text[0].upper() + first.text[1:]), *paragraph.parts[1:]))
    return paragraph


def _value_length_sentences(step, row: st.ImportanceRow, ctx: _Context, names, live) -> list[Paragraph]:
    T, i = ctx.T, row.index
    if len(live) < 2:
        return []
    if not row.more_than_weight:
        return [fill(T["importance_same_length"])]
    m = f"m_{{{i}}}" if step.head == 0 else f"m^{{({step.head})}}_{{{i}}}"
    total = " + ".join(names["norm"](j) for j in live)
    if width(total) > PAGE_WIDTH / 2:
        total = rf"\sum_{{j}} {_name('n', step.head)}_{_sub(i, 'j', len(step.lengths) >= 10)}"
    mean = Math(rf"{m} = {total} \approx {row.mean_decimal}")

    def length(j: int) -> Math:
        exact = step.lengths[j - 1]
        text = f"{names['length'](j)} = {entry(exact)}"
        if not exact.is_Rational:
            text += rf" \approx {step.length_decimals[j - 1]}"
        return Math(text)

    def lengths(tokens) -> Paragraph:
        parts: list = []
        for k, j in enumerate(tokens):
            if k:
                parts.append(Text(T["comma"]))
            parts.append(length(j))
        return Paragraph(tuple(parts))

    out = []
    more = row.more_than_weight
    if len(more) == 1:
        j = more[0]
        weight = (
            f"{names['weights'](j)} = {entry(row.weights[j - 1])}"
            if row.weights[j - 1].is_Rational
            else rf"{names['weights'](j)} \approx {row.weight_decimals[j - 1]}"
        )
        out.append(
            fill(
                T["importance_more_one"],
                key=_key_name(row, j, ctx),
                r=length(j),
                m=mean,
                share=Math(rf"{names['norm'](j)} / {m} \approx {row.share_decimals[j - 1]}"),
                a=Math(weight),
            )
        )
    else:
        out.append(fill(T["importance_more"], keys=_keys(row, more, ctx), m=mean, lengths=lengths(more)))
    less = row.less_than_weight
    if len(less) == 1:
        out.append(fill(T["importance_less_one"], key=_key_name(row, less[0], ctx), lengths=lengths(less)))
    elif less:
        out.append(fill(T["importance_less"], keys=_keys(row, less, ctx), lengths=lengths(less)))
    return out


#: The entry symbol of each claimable stage (a_ij of the weights), from its declaration.
_SYMBOLS = {
    **{d.name: d.symbol for d in registry.ATTENTION if d.claimable},
    "concat": registry.stage("concat", registry.MULTIHEAD).symbol,
}


def _entry_symbol(name: str, row: int, col: int, comma: bool) -> str:
    head, _, stage = name.partition(".")
    if stage and head.startswith("head"):
        return f"{_SYMBOLS.get(stage, stage)}^{{({head[4:]})}}_{_sub(row, col, comma)}"
    return f"{_SYMBOLS.get(name, name)}_{_sub(row, col, comma)}"


def _verdict(kind: str, T: dict[str, str], exact_claim: bool = False) -> tuple:
    if kind == "ok":
        return (Text(T["verdict_exact" if exact_claim else "verdict_ok"]),)
    note = T[f"verdict_note_{kind}"] if kind in ("rounding", "carried") else ""
    return (Strong(T["verdict_wrong"]), Text(note))


def _claim_exact(step: st.ClaimTable, cell: st.ClaimCell) -> str:
    """The true value's closed form: by the softmax's names when the derivation uses them."""
    if step.weight_names is not None:
        return _named_weight(step.weight_names[cell.row - 1][cell.col - 1], cell.row, step.head)
    if step.output_named is not None:
        numerator = _linear(step.output_named[cell.row - 1][cell.col - 1], step.head)
        return rf"\frac{{{numerator}}}{{{_D(cell.row, step.head)}}}"
    return entry(cell.exact)


def _claim_table(step: st.ClaimTable, ctx: _Context) -> list[Block]:
    T = ctx.T
    header = tuple(
        (Text(T[key]),) for key in ("col_entry", "col_claimed", "col_exact", "col_decimal", "col_verdict")
    )
    rows, wrong = [], []
    comma = len(step.cells) >= 10 or len(step.cells[0]) >= 10
    for cell in (c for row in step.cells for c in row):
        symbol = _entry_symbol(step.name, cell.row, cell.col, comma)
        claimed = Strong(cell.claimed) if cell.kind != "ok" else Text(cell.claimed)
        rows.append(
            (
                (Math(symbol),),
                (claimed,),
                (Math(_claim_exact(step, cell)),),
                (Text(cell.decimal),),
                _verdict(cell.kind, T, cell.exact_claim),
            )
        )
        if cell.kind != "ok":
            wrong.append(symbol)
    total = sum(len(row) for row in step.cells)
    exact = any(c.exact_claim and c.kind == "ok" for row in step.cells for c in row)
    out: list[Block] = [fill(T["claims_table"], name=_stage_words(step.name, T))]
    out.append(Table(header, tuple(rows)))
    if wrong:
        listed = Math(", ".join(wrong))
        right = total - len(wrong)
        if not right:
            key = "claims_wrong_one" if len(wrong) == 1 else "claims_wrong"
        elif len(wrong) == 1:
            key = "claims_wrong_one_some_ok"
        else:
            key = "claims_wrong_some_ok_exact" if exact else "claims_wrong_some_ok"
        if exact:
            hold = T["claims_hold_exact"]
        else:
            hold = T["claims_hold_rounding" if right == 1 else "claims_hold_roundings"]
        out.append(fill(T[key], k=len(wrong), n=total, entries=listed, ok=right, hold=hold))
    else:
        out.append(fill(T["claims_all_ok_exact" if exact else "claims_all_ok"], n=total))
    out.append(_claims_picture(step, ctx))
    return out


def _stage_words(name: str, T: dict[str, str]) -> str:
    """A claimed stage in words: ``weights`` -> "attention weights", ``head1.weights`` ->
    "attention weights of head 1" (never the key the spec writes)."""
    *path, stage = name.split(".")
    words = T.get(f"stage_{stage}", stage)
    heads = [p.removeprefix("head") for p in path if p.startswith("head") and p[4:].isdigit()]
    return T["stage_of_head"].format(stage=words, k=heads[-1]) if heads else words


def _claims_picture(step: st.ClaimTable, ctx: _Context) -> Picture:
    """Claimed against true: cells shaded by the true value, the claim below, wrong claims outlined."""
    T = ctx.T
    verdict = {"ok": "\u2713", "rounding": "\u2717", "wrong": "\u2717", "carried": "\u2717"}
    name = _stage_words(step.name, T)
    panel = Panel(
        title=T["picture_claims_title"].format(name=name),
        cells=tuple(tuple(cell.decimal for cell in row) for row in step.cells),
        row_labels=step.row_labels or tuple(str(k) for k in range(1, len(step.cells) + 1)),
        col_labels=step.col_labels or tuple(str(k) for k in range(1, len(step.cells[0]) + 1)),
        row_axis=T["picture_claims_rows"],
        col_axis=T["picture_claims_columns"],
        notes=tuple(
            tuple(
                T["picture_claimed"].format(claim=cell.claimed, verdict=verdict.get(cell.kind, "?"))
                for cell in row
            )
            for row in step.cells
        ),
        marked=tuple(tuple(cell.kind != "ok" for cell in row) for row in step.cells),
    )
    return Picture(
        f"claims-{step.name}", T["picture_claims_caption"].format(name=name), (panel,), latex=False
    )


def _recomputed(step: st.Recomputed, ctx: _Context) -> list[Block]:
    T = ctx.T
    out: list[Block] = [fill(T["recomputed_intro"], A=Math(r"\hat{A}"))]
    out += _product(r"\hat{A} V", "", (step.claimed_weights, step.V), step.recomputed, ctx)
    header = [(Text(T["col_row"]),)]
    if step.claimed_output is not None:
        header.append((Text(T["col_claimed_output"]),))
    header += [(Math(r"\hat{A} V"),), (Text(T["col_true_output"]),)]
    rows = []
    for i in range(step.recomputed.rows):
        cells = [(Text(f"{i + 1}"),)]
        if step.labels:
            cells = [(Text(f"{i + 1} ("), _label_part(step.labels[i]), Text(")"))]
        if step.claimed_output is not None:
            cells.append((Text(", ".join(step.claimed_output[i])),))
        cells += [(Text(", ".join(step.recomputed_decimals[i])),), (Text(", ".join(step.true_decimals[i])),)]
        rows.append(tuple(cells))
    out.append(Table(tuple(header), tuple(rows)))
    if step.consistent is False:
        note = "recomputed_inconsistent"
    else:
        note = "recomputed_consistent_wrong" if step.weights_wrong else "recomputed_consistent_ok"
    out.append(fill(T[note], A=Math(r"\hat{A}"), O=Math("O = AV")))
    return out


def _concat(step: st.Concat, ctx: _Context) -> list[Block]:
    names = ", ".join(_name("O", k) for k in range(1, len(step.outputs) + 1))
    key = "concat_intro" if len(step.outputs) > 1 else "concat_intro_one"
    out: list[Block] = [fill(ctx.T[key], n=len(step.outputs))]
    concat = rf"\operatorname{{Concat}}({names})"
    if step.named and step.decimals is not None:
        return out + _matrix_blocks(concat, step.decimals, step.labels, ctx, relation=r"\approx")
    out += _matrix_blocks(concat, step.concat, step.labels, ctx, decimals=step.decimals)
    return out


def _output_projection(step: st.OutputProjection, ctx: _Context) -> list[Block]:
    out: list[Block] = [fill(ctx.T["projection_o_intro"], W_O=Math("W_O"))]
    out += _matrix_blocks("W_O", step.W_O, None, ctx)
    if step.named and step.decimals is not None:
        formula = r"\operatorname{Concat}(\dots)\, W_O"
        return out + _matrix_blocks(
            "O", step.decimals, step.labels, ctx, formula=formula, relation=r"\approx"
        )
    out += _product(
        "O",
        r"\operatorname{Concat}(\dots)\, W_O",
        (step.concat, step.W_O),
        step.output,
        ctx,
        labels=step.labels,
        decimals=step.decimals,
    )
    return out


_RENDER: dict[type, Callable[[object, _Context], list[Block]]] = {
    st.Setup: _setup,
    st.Projection: _projection,
    st.Scores: _scores,
    st.Softmax: _softmax,
    st.Output: _output,
    st.Analysis: _analysis,
    st.Importance: _importance,
    st.LeftOut: lambda step, ctx: [fill(ctx.T[f"left_out_{step.section}_{step.why}"])],
    st.ClaimTable: _claim_table,
    st.Recomputed: _recomputed,
    st.Concat: _concat,
    st.OutputProjection: _output_projection,
}

#: The stage each step writes out; its section's prose key is that stage's declaration's.
_STAGE_OF_STEP = {
    st.Setup: registry.stage("X"),
    st.Projection: registry.stage("Q"),
    st.Scores: registry.stage("scores"),
    st.Softmax: registry.stage("weights"),
    st.Output: registry.stage("output"),
    st.Concat: registry.stage("concat", registry.MULTIHEAD),
    st.OutputProjection: registry.stage("output", registry.MULTIHEAD),
}

_SECTION = {
    **{step: declaration.prose for step, declaration in _STAGE_OF_STEP.items()},
    # steps that explain or check the stages rather than compute one
    st.Analysis: "section_analysis",
    st.Importance: "section_importance",
    st.ClaimTable: "section_claims",
    st.Recomputed: "section_claims",
}


def compose(
    steps: Sequence[st.Step], *, lang: str = "en", title: str | None = None, digits: int = 4
) -> tuple[Block, ...]:
    """The blocks of a whole derivation, headings included.

    Args:
        steps: the records from :func:`symattn.derivation.build_steps`.
        lang: "en" or "zh" (a key of :data:`TEXTS`).
        title: the document title; None uses the language's default.
        digits: the places of the decimals (named in the introduction).

    Returns:
        The blocks in order.

    Raises:
        KeyError: an unknown language.
    """
    T = TEXTS[lang].TEXT
    out: list[Block] = [Heading(1, title or T["title"]), fill(T["intro"], digits=digits)]
    section, head, number = None, 0, 0
    for step in steps:
        step_head = getattr(step, "head", 0)
        if step_head != head and step_head:
            out.append(Heading(2, T["head"].format(k=step_head)))
            section, number = None, 0
        head = step_head if hasattr(step, "head") else 0
        level = 3 if head else 2
        if isinstance(step, st.LeftOut):  # a sentence under the section before, no heading of its own
            out += _RENDER[type(step)](step, _Context(T, digits, level, head))
            continue
        key = _SECTION[type(step)]
        if key != section:
            # Sections are numbered in order: 1-6 inside each head, and the sections after
            # the heads (concatenation, W_O, claims) go on from the last head's numbers.
            number += 1
            out.append(Heading(level, T["section"].format(n=number, title=T[key])))
            section = key
        out += _RENDER[type(step)](step, _Context(T, digits, level, head))
    return tuple(out)
