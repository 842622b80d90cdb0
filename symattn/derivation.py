"""derive(): the step-by-step derivation of an attention, in Markdown, LaTeX or JSON.

    derive(spec)                      an AttentionSpec, an Attention / MultiHead, or a path
      steps = build_steps(...)        exact values and certified decimals (this module)
      blocks = compose(steps, text)   words from render/text_<lang>.py (render/compose.py)
      to_markdown() / to_latex()      serialise the blocks (render/markdown.py, latex.py)

This module is the only part of a derivation that asks the engine for values;
the renderers format what they are given.  :func:`regenerate` rewrites the
checked-in files of ``derivations/`` from their TOML specs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import InputError
from symattn.exact import certified_decimal, claim_holds, enclose
from symattn.files import write_atomically
from symattn.pipeline import Attention, Comparison, MultiHead
from symattn.render import steps as st

__all__ = [
    "LANGUAGES",
    "MAX_COLUMNS",
    "MAX_HEADS",
    "MAX_TOKENS",
    "Derivation",
    "DerivationTooLargeError",
    "build_steps",
    "check_size",
    "derive",
    "regenerate",
]

LANGUAGES = ("en", "zh")

#: The size policy: a derivation is written in full only up to these sizes
#: (about 1 MB of Markdown and 2 s at the limit); above them derive() refuses
#: before any work, unless ``full=True`` (``symattn derive --full``).
MAX_TOKENS = 16  # query tokens, and key tokens
MAX_COLUMNS = 16  # columns of every input matrix
MAX_HEADS = 8


class DerivationTooLargeError(InputError):
    """A spec is larger than a derivation shows in full (see :data:`MAX_TOKENS`)."""


# --- the size policy ------------------------------------------------------------


def _shape(matrix: Any) -> tuple[int, int]:
    """Rows and (widest) columns of a matrix as read or as computed, without reading its entries."""
    if matrix is None:
        return 0, 0
    if isinstance(matrix, sympy.MatrixBase):
        return matrix.rows, matrix.cols
    if not isinstance(matrix, (list, tuple)):
        return 0, 0
    return len(matrix), max((len(row) for row in matrix if isinstance(row, (list, tuple))), default=0)


def _too_large(matrices: dict[str, Any], n_heads: int) -> str | None:
    """What exceeds the size policy, in words, or None."""
    for name in ("X", "X_kv"):
        rows, _ = _shape(matrices.get(name))
        if rows > MAX_TOKENS:
            return f"{name} has {rows} tokens, more than the {MAX_TOKENS} a derivation shows in full"
    for name, matrix in matrices.items():
        _, cols = _shape(matrix)
        if cols > MAX_COLUMNS:
            return f"{name} has {cols} columns, more than the {MAX_COLUMNS} a derivation shows in full"
    if n_heads > MAX_HEADS:
        return f"the spec has {n_heads} heads, more than the {MAX_HEADS} a derivation shows in full"
    return None


def check_size(spec_or_result: Any) -> None:
    """Refuse, before any work, what is too large to derive in full.

    Args:
        spec_or_result: an AttentionSpec, or an Attention / MultiHead.

    Raises:
        DerivationTooLargeError: more than :data:`MAX_TOKENS` query or key
            tokens, a matrix wider than :data:`MAX_COLUMNS`, or more than
            :data:`MAX_HEADS` heads.  The message names the spec and points
            to ``symattn compute`` and ``--full``.
    """
    from symattn.spec import AttentionSpec

    source = None
    if isinstance(spec_or_result, AttentionSpec):
        spec = spec_or_result
        source = spec.source
        matrices = {"X": spec.X, "X_kv": spec.X_kv, "W_O": spec.W_O}
        heads = spec.heads if spec.heads is not None else ((spec.W_Q, spec.W_K, spec.W_V),)
    elif isinstance(spec_or_result, MultiHead):
        first = spec_or_result.heads[0]
        matrices = {"X": first.X, "X_kv": first.X_kv, "W_O": spec_or_result.W_O}
        heads = tuple((h.W_Q, h.W_K, h.W_V) for h in spec_or_result.heads)
    else:
        matrices = {"X": spec_or_result.X, "X_kv": spec_or_result.X_kv}
        heads = ((spec_or_result.W_Q, spec_or_result.W_K, spec_or_result.W_V),)
    for k, triple in enumerate(heads, start=1):
        prefix = f"head {k} " if len(heads) > 1 else ""
        matrices.update(
            {f"{prefix}{name}": m for name, m in zip(("W_Q", "W_K", "W_V"), triple, strict=False)}
        )
    problem = _too_large(matrices, len(heads))
    if problem is None:
        return
    place = f"{source}: " if source else ""
    target = f" {source}" if source else ""
    raise DerivationTooLargeError(
        f"{place}{problem}; `symattn compute{target}` prints every stage's certified decimals,"
        f" and `symattn derive --full` (derive(..., full=True)) writes the whole derivation anyway"
    )


# --- steps ----------------------------------------------------------------------


def _tuples(rows: list[list[str]] | None) -> st.Decimals:
    return None if rows is None else tuple(tuple(row) for row in rows)


def _decimals(att: Attention, name: str, digits: int) -> st.Decimals:
    return _tuples(att.decimals(name, digits)) if att.is_numeric else None


def _dominant(weights: tuple[sympy.Expr, ...]) -> tuple[int, ...] | None:
    """The 1-based keys holding the largest weight, decided exactly; None if undecided."""
    best: list[int] = []
    for j, weight in enumerate(weights):
        if weight.free_symbols:
            return None
        if not best:
            best = [j]
            continue
        top = weights[best[0]]
        if weight == top or sympy.expand(weight - top) == 0:
            best.append(j)
            continue
        ball = enclose(weight - top, 256)
        if ball > 0:
            best = [j]
        elif not ball < 0:
            return None
    return tuple(j + 1 for j in best)


#: Name the exponentials (t_1 = e^{...}) when a head has more distinct ones than
#: this, or when one of them is wider than NAMED_WIDTH (a two-digit fraction in
#: the exponent, as rational inputs give); short closed forms stay as they are.
NAMED_DISTINCT = 6
NAMED_WIDTH = 4.0


def _named(att: Attention) -> bool:
    """Whether the softmax of a head reads better with named exponentials."""
    from symattn.render.mathtex import entry, width

    if not att.is_numeric:
        return False
    distinct = {term for row in att.softmax_rows for term in row.terms if term not in (0, 1)}
    return len(distinct) > NAMED_DISTINCT or any(width(entry(term)) > NAMED_WIDTH for term in distinct)


def _linear(coefficients: dict[int, sympy.Expr]) -> st.Linear:
    return tuple((c, k) for k, c in sorted(coefficients.items()) if c != 0)


def _softmax_rows(
    att: Attention, decimals: st.Decimals, digits: int, named: bool
) -> tuple[st.SoftmaxRow, ...]:
    rows = []
    names: dict[sympy.Expr, int] = {}
    for i, row in enumerate(att.softmax_rows):
        weights = row.weights()
        total = sympy.Add(*row.terms)
        sums_to_one = total == row.denominator or sympy.expand(total - row.denominator) == 0
        extra: dict[str, Any] = {}
        if named:
            new, indices = [], []
            for term in row.terms:
                if term == 0:
                    indices.append(None)
                    continue
                if term == 1:
                    indices.append(0)
                    continue
                if term not in names:
                    names[term] = len(names) + 1
                    new.append(st.NamedExp(names[term], term, certified_decimal(term, digits)))
                indices.append(names[term])
            counts: dict[int, sympy.Expr] = {}
            for k in indices:
                if k is not None:
                    counts[k] = counts.get(k, 0) + sympy.Integer(1)
            extra = {
                "names": tuple(indices),
                "new_names": tuple(new),
                "denominator_named": _linear(counts),
                "denominator_decimal": certified_decimal(row.denominator, digits),
            }
        rows.append(
            st.SoftmaxRow(
                index=i + 1,
                label=att.labels[i] if att.labels else None,
                exponents=tuple(att.scaled.row(i)),
                shift=row.shift,
                terms=row.terms,
                denominator=row.denominator,
                weights=weights,
                decimals=decimals[i] if decimals else None,
                sums_to_one=sums_to_one,
                **extra,
            )
        )
    return tuple(rows)


def _output_named(names: tuple[int | None, ...], values) -> tuple[st.Linear, ...]:
    """Each output entry's numerator over D_i: the sum of t_(name of j) · v_j, by name."""
    out = []
    for col in range(len(values[0])):
        coefficients: dict[int, sympy.Expr] = {}
        for k, value in zip(names, values, strict=True):
            if k is not None:
                coefficients[k] = coefficients.get(k, 0) + value[col]
        out.append(_linear(coefficients))
    return tuple(out)


def _shown_output(
    output: tuple[sympy.Expr, ...], weights: tuple[sympy.Expr, ...], values: tuple, sums_to_one: bool
) -> tuple[sympy.Expr, ...]:
    """The output row as shown: an entry whose value is the same number k in every row of V the
    weights reach is exactly k, since the weights sum to exactly 1 (decided from the structure,
    without simplifying: ``1/(1 + e^x) + e^x/(1 + e^x)`` is shown as 1)."""
    if not sums_to_one:
        return output
    live = [j for j, weight in enumerate(weights) if weight != 0]
    shown = []
    for col, value in enumerate(output):
        column = {values[j][col] for j in live}
        constant = next(iter(column)) if len(column) == 1 else None
        shown.append(constant if constant is not None and constant.is_Rational else value)
    return tuple(shown)


def _output_rows(
    att: Attention,
    weight_decimals: st.Decimals,
    output_decimals: st.Decimals,
    digits: int,
    softmax: tuple[st.SoftmaxRow, ...],
):
    rows = []
    values = tuple(tuple(att.V.row(j)) for j in range(att.V.rows))
    for i in range(att.weights.rows):
        names = softmax[i].names
        weights = tuple(att.weights.row(i))
        terms = tuple(tuple(w * v for v in value) for w, value in zip(weights, values, strict=False))
        term_decimals = None
        if att.is_numeric:
            term_decimals = tuple(tuple(certified_decimal(t, digits) for t in term) for term in terms)
        rows.append(
            st.OutputRow(
                index=i + 1,
                label=att.labels[i] if att.labels else None,
                key_labels=att.kv_labels,
                weights=weights,
                weight_decimals=weight_decimals[i] if weight_decimals else None,
                values=values,
                terms=terms,
                term_decimals=term_decimals,
                output=_shown_output(tuple(att.output.row(i)), weights, values, softmax[i].sums_to_one),
                output_decimals=output_decimals[i] if output_decimals else None,
                dominant=_dominant(weights),
                weight_names=names,
                output_named=_output_named(names, values) if names is not None else None,
            )
        )
    return tuple(rows)


#: The sections of a derivation that explain rather than compute, which ``sections`` chooses.
SECTIONS = ("analysis", "importance")
#: Above these, the default leaves "How important is each token?" out, and above the heads
#: "What each output vector is made of" too (it says how to include them).
IMPORTANCE_TOKENS, IMPORTANCE_HEADS = 3, 1


def _chosen(sections: Any, tokens: int, heads: int) -> tuple[frozenset[str], str]:
    """The sections to include, and why importance was left out ("" when it was not, or when
    the caller chose): ``sections`` None is the size policy, else names of :data:`SECTIONS` or "all"."""
    if sections is not None:
        names = set(sections)
        unknown = names - {*SECTIONS, "all"}
        if unknown:
            raise InputError(
                f"unknown section {sorted(unknown)[0]!r} (sections: {', '.join((*SECTIONS, 'all'))})"
            )
        return frozenset(SECTIONS if "all" in names else names), ""
    if heads > IMPORTANCE_HEADS:  # each head would explain its outputs again: the numbers only
        return frozenset(), "heads"
    if tokens > IMPORTANCE_TOKENS:
        return frozenset({"analysis"}), "tokens"
    return frozenset(SECTIONS), ""


def _attention_steps(
    att: Attention,
    digits: int,
    *,
    head: int = 0,
    teaching: bool = True,
    sections: frozenset[str] = frozenset(SECTIONS),
    left_out: str = "",
) -> list[st.Step]:
    weight_decimals = _decimals(att, "weights", digits)
    output_decimals = _decimals(att, "output", digits)
    causal = att.mask is not None and att.mask == stages.causal_mask(*att.mask.shape)
    default_scale = att.factor == 1 / sympy.sqrt(att.d_k)
    setup = st.Setup(
        head=head,
        X=att.X if head <= 1 else None,
        X_kv=att.X_kv if head <= 1 else None,
        W_Q=att.W_Q,
        W_K=att.W_K,
        W_V=att.W_V,
        d_k=att.d_k,
        factor=att.factor,
        default_scale=default_scale,
        labels=att.labels,
        kv_labels=att.kv_labels if att.is_cross else None,
        causal=causal,
        masked=att.mask is not None,
        numeric=att.is_numeric,
    )
    projections = [
        st.Projection(head, "Q", att.X, False, att.W_Q, att.Q, att.labels),
        st.Projection(head, "K", att._source, att.is_cross, att.W_K, att.K, att.kv_labels),
        st.Projection(head, "V", att._source, att.is_cross, att.W_V, att.V, att.kv_labels),
    ]
    scores = st.Scores(
        head=head,
        Q=att.Q,
        K_T=stages.transpose(att.K),
        scores=att.scores,
        factor=att.factor,
        d_k=att.d_k,
        default_scale=default_scale,
        scaled=att.scaled,
        scaled_decimals=_decimals(att, "scaled", digits),
        masked=att.mask is not None,
        labels=att.labels,
    )
    named = _named(att)
    softmax_rows = _softmax_rows(att, weight_decimals, digits, named)
    softmax = st.Softmax(head, softmax_rows, att.weights, weight_decimals, att.labels, named=named)
    rows = _output_rows(att, weight_decimals, output_decimals, digits, softmax_rows)
    shown = sympy.ImmutableMatrix([list(row.output) for row in rows]) if rows else att.output
    output = st.Output(head, rows, shown, output_decimals, att.labels, named=named)
    analysis = st.Analysis(head, rows, att.is_numeric)
    if not teaching:  # inside a transformer block: the computation only, no analysis or importance
        return [setup, *projections, scores, softmax, output]
    steps: list[st.Step] = [setup, *projections, scores, softmax, output]
    if "analysis" in sections:
        steps.append(analysis)
    if "importance" in sections:
        steps.append(_importance_step(att, digits, head))
    elif left_out and head <= 1:  # said once, by the first head
        steps.append(st.LeftOut(head, "importance", left_out))
    return steps


#: The most exact Jacobian entries (n_q · n_k · d_v · d_model) a derivation builds for its
#: Jacobian norms (16 tokens of width 2 take 3 s); above, the section says they are left out,
#: and ``symattn importance`` (up to importance.MAX_JACOBIAN_ENTRIES) computes them.
MAX_JACOBIAN_ENTRIES = 600


def _importance_step(att: Attention, digits: int, head: int) -> st.Importance:
    """How much each token matters for each output: weights, norms, Jacobian norms, compared exactly."""
    from symattn import importance

    lengths = tuple(sympy.sqrt(sympy.Add(*(value**2 for value in att.V.row(j)))) for j in range(att.V.rows))
    entries = att.weights.rows * att.weights.cols * att.V.cols * att._source.cols
    with_jacobian = att.is_numeric and entries <= MAX_JACOBIAN_ENTRIES
    rows = []
    if att.is_numeric:
        weight_decimals = att.decimals("weights", digits)
        for i in range(att.weights.rows):
            facts = importance.explain(att, i, jacobian=with_jacobian)
            rows.append(_importance_row(att, facts, weight_decimals[i], digits))
    return st.Importance(
        head=head,
        lengths=lengths,
        length_decimals=tuple(importance.certified(r, digits) for r in lengths) if att.is_numeric else None,
        width=att.V.cols,
        first_entries=tuple(att.V[j, 0] for j in range(att.V.rows)),
        rows=tuple(rows),
        numeric=att.is_numeric,
        jacobian=with_jacobian,
        jacobian_entries=entries,
        jacobian_limit=MAX_JACOBIAN_ENTRIES,
        labels=att.labels,
        kv_labels=att.kv_labels,
        cross=att.is_cross,
    )


def _importance_row(att: Attention, facts, weight_decimals: list[str], digits: int) -> st.ImportanceRow:
    from symattn import importance

    i = facts.output
    masked = tuple(j for j, w in enumerate(facts.weights) if w == 0)

    def shown(groups):  # 1-based, masked tokens left out
        kept = (tuple(j + 1 for j in group if j not in masked) for group in groups)
        return tuple(group for group in kept if group)

    rankings = {name: shown(groups) for name, groups in facts.rankings.items()}
    ties: dict[tuple[int, ...], list[str]] = {}
    for name, groups in rankings.items():
        for group in groups:
            if len(group) > 1:
                ties.setdefault(group, []).append(name)
    mean = facts.mean_length
    shares = tuple(importance.certified(n / mean if n != 0 else 0, digits) for n in facts.norms)
    return st.ImportanceRow(
        index=i + 1,
        label=att.labels[i] if att.labels else None,
        key_labels=att.kv_labels,
        weights=facts.weights,
        weight_decimals=tuple(weight_decimals),
        norms=facts.norms,
        norm_decimals=tuple(importance.certified(n, digits) for n in facts.norms),
        jacobian_decimals=(
            tuple(importance.certified(g, digits) for g in facts.jacobian_norms)
            if facts.jacobian_norms
            else None
        ),
        mean_decimal=importance.certified(mean, digits),
        share_decimals=shares,
        rankings=rankings,
        ties=tuple((group, tuple(names)) for group, names in ties.items()),
        more_than_weight=tuple(j + 1 for j in facts.more_than_weight),
        less_than_weight=tuple(j + 1 for j in facts.less_than_weight),
        reorderings=tuple(
            st.Reordering((d.tokens[0] + 1, d.tokens[1] + 1), d.measures, d.orders, d.reason)
            for d in facts.disagreements
            if d.tokens[0] not in masked and d.tokens[1] not in masked
        ),
        masked=tuple(j + 1 for j in masked),
        query_token=None if att.is_cross else i + 1,
    )


#: The stages whose rows are the query tokens and whose columns are the key tokens (the rest
#: have dimensions as columns; K and V have the key tokens as rows).
_TOKEN_ROWS, _KEY_COLUMNS, _KEY_ROWS = (
    {"Q", "scores", "scaled", "weights", "output"},
    {"scores", "scaled", "weights"},
    {"K", "V"},
)


def _claim_table(
    comparison: Comparison,
    named: dict[int, tuple[st.Softmax, st.Output]],
    labels: tuple[str, ...] | None = None,
    kv_labels: tuple[str, ...] | None = None,
) -> st.ClaimTable:
    head_name, _, stage = comparison.name.rpartition(".")
    head = int(head_name[4:]) if head_name.startswith("head") and head_name[4:].isdigit() else 0
    extra: dict[str, Any] = {}
    if head in named:  # the closed forms with the softmax's names, as in the derivation above
        softmax, output = named[head]
        if stage == "weights":
            extra = {"head": head, "weight_names": tuple(row.names for row in softmax.rows)}
        elif stage == "output":
            extra = {"head": head, "output_named": tuple(row.output_named for row in output.rows)}
    cells = tuple(
        tuple(
            st.ClaimCell(
                cell.row,
                cell.col,
                cell.claim.text,
                cell.exact,
                cell.decimal,
                cell.kind,
                exact_claim=cell.claim.places is None,
            )
            for cell in row
        )
        for row in comparison.cells
    )
    keys = kv_labels or labels
    rows = labels if stage in _TOKEN_ROWS else keys if stage in _KEY_ROWS else None
    columns = keys if stage in _KEY_COLUMNS else None
    if rows is not None and len(rows) == len(cells):
        extra["row_labels"] = tuple(rows)
    if columns is not None and cells and len(columns) == len(cells[0]):
        extra["col_labels"] = tuple(columns)
    return st.ClaimTable(comparison.name, cells, **extra)


def _claim_steps(
    result: Attention | MultiHead, claims: dict[str, Any], digits: int, done: list[st.Step]
) -> list[st.Step]:
    softmaxes = {step.head: step for step in done if isinstance(step, st.Softmax) and step.named}
    outputs = {step.head: step for step in done if isinstance(step, st.Output)}
    named = {head: (softmax, outputs[head]) for head, softmax in softmaxes.items()}
    steps: list[st.Step] = []
    recomputed: list[st.Step] = []
    first = getattr(result, "heads", (result,))[0]
    for comparison in result.check(claims):
        steps.append(_claim_table(comparison, named, first.labels, first.kv_labels))
        if comparison.recomputed_output is not None and isinstance(result, Attention):
            claimed_output = claims.get("output")
            recomputed.append(
                st.Recomputed(
                    claimed_weights=tuple(tuple(str(c) for c in row) for row in claims["weights"]),
                    V=result.V,
                    recomputed=comparison.recomputed_output,
                    recomputed_decimals=_matrix_decimals(comparison.recomputed_output, digits),
                    true_output=result.output,
                    true_decimals=_tuples(result.decimals("output", digits)),
                    claimed_output=(
                        tuple(tuple(str(c) for c in row) for row in claimed_output)
                        if claimed_output is not None
                        else None
                    ),
                    consistent=(
                        all(
                            claim_holds(str(c), comparison.recomputed_output[i, j])
                            for i, row in enumerate(claimed_output)
                            for j, c in enumerate(row)
                        )
                        if claimed_output is not None
                        else None
                    ),
                    weights_wrong=not comparison.ok,
                    labels=result.labels,
                )
            )
    return steps + recomputed


def _matrix_decimals(matrix: ImmutableMatrix, digits: int) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(certified_decimal(matrix[i, j], digits) for j in range(matrix.cols)) for i in range(matrix.rows)
    )


def build_steps(
    result: Attention | MultiHead,
    claims: dict[str, Any] | None = None,
    digits: int = 4,
    *,
    teaching: bool = True,
    sections: Any = None,
) -> tuple[st.Step, ...]:
    """Every step of the derivation, in order, as exact records.

    Args:
        result: the computed attention.
        claims: stage name -> matrix of printed numbers (optional).
        digits: places of the certified decimals.
        teaching: also each head's analysis and importance (False inside a block derivation).
        sections: what of :data:`SECTIONS` to include ("all": every one); None leaves the
            importance section out for more than 3 tokens or more than one head, and says so.

    Returns:
        The steps: setup, Q/K/V, scores, softmax, output, analysis (per head
        for multi-head, then the concatenation and W_O), then the claims.

    Raises:
        InputError: negative digits, or claims of an unknown stage.
        ShapeError: a claimed matrix of the wrong shape.
    """
    if digits < 0:
        raise InputError(f"digits must be 0 or more, not {digits}")
    steps: list[st.Step] = []
    heads = len(result.heads) if isinstance(result, MultiHead) else 1
    first = result.heads[0] if isinstance(result, MultiHead) else result
    chosen, left_out = _chosen(sections, first.weights.rows, heads)
    if isinstance(result, MultiHead):
        for k, head in enumerate(result.heads, start=1):
            steps += _attention_steps(
                head, digits, head=k, teaching=teaching, sections=chosen, left_out=left_out
            )
        numeric = all(head.is_numeric for head in result.heads)
        named = any(_named(head) for head in result.heads)
        steps.append(
            st.Concat(
                tuple(head.output for head in result.heads),
                result.concat,
                _matrix_decimals(result.concat, digits) if numeric else None,
                result.labels,
                named=named,
            )
        )
        if result.W_O is not None:
            steps.append(
                st.OutputProjection(
                    result.concat,
                    result.W_O,
                    result.output,
                    _matrix_decimals(result.output, digits) if numeric else None,
                    result.labels,
                    named=named,
                )
            )
    else:
        steps += _attention_steps(result, digits, teaching=teaching, sections=chosen, left_out=left_out)
    if claims:
        steps += _claim_steps(result, claims, digits, steps)
    return tuple(steps)


# --- the public object ------------------------------------------------------------


@dataclass(frozen=True)
class Derivation:
    """A derivation ready to print.

    Attributes:
        title: the document title (None: the language's default title).
        steps: the exact records (see :mod:`symattn.render.steps`).
        lang: "en" or "zh".
        digits: places of the decimals shown.
    """

    title: str | None
    steps: tuple[st.Step, ...]
    lang: str = "en"
    digits: int = 4

    @cached_property
    def blocks(self):
        from symattn.render.block_steps import BlockSetup
        from symattn.render.compose import compose

        if self.steps and isinstance(self.steps[0], BlockSetup):  # a transformer block
            from symattn.render.block_compose import compose_block

            return compose_block(self.steps, lang=self.lang, title=self.title, digits=self.digits)
        return compose(self.steps, lang=self.lang, title=self.title, digits=self.digits)

    def to_markdown(self, pictures: str | None = None) -> str:
        """Markdown with ``$$...$$`` display and ``$...$`` inline math (KaTeX-safe).

        Args:
            pictures: the stem of the SVG files written next to the document
                (:meth:`pictures` with the same stem); the Markdown links them as
                images.  None (the default) leaves the pictures out.
        """
        from symattn.render.markdown import to_markdown

        return to_markdown(self.blocks, pictures=pictures)

    def pictures(self, stem: str) -> dict[str, str]:
        """The SVG heatmaps of the derivation: file name -> SVG text.

        Each picture is its panels side by side (:func:`symattn.render.svg.side_by_side`),
        named ``STEM.NAME.svg`` as :meth:`to_markdown` links them (``reference.en.importance.svg``).

        >>> from symattn.examples import reference
        >>> sorted(derive(reference()).pictures("reference.en"))
        ['reference.en.claims-output.svg', 'reference.en.claims-weights.svg', 'reference.en.importance.svg']
        """
        from symattn.render.blocks import Picture
        from symattn.render.markdown import picture_file

        return {
            picture_file(block, stem): _picture_svg(block).svg
            for block in self.blocks
            if isinstance(block, Picture)
        }

    def to_latex(self, standalone: bool = False) -> str:
        """LaTeX: a fragment to paste into a document, or a complete document.

        Args:
            standalone: a complete document (article for English with
                pdflatex, ctexart for Chinese with xelatex).
        """
        from symattn.render.latex import to_latex

        return to_latex(self.blocks, lang=self.lang, standalone=standalone)

    def to_json(self) -> str:
        """The steps as JSON: every exact value as LaTeX and SymPy text, decimals as strings."""
        data = {
            "title": self.title,
            "lang": self.lang,
            "digits": self.digits,
            "steps": [_jsonable(step) for step in self.steps],
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    def __repr__(self) -> str:
        title = self.title or "untitled"
        return f"<Derivation {title!r}: {len(self.steps)} steps, lang={self.lang}, {self.digits} places>"

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_latex_(self) -> str:
        return self.to_latex()


def _picture_svg(block):
    """A Picture block drawn: one heatmap per panel, side by side."""
    from symattn.render import svg

    maps = [
        svg.Heatmap.of(
            panel.cells,
            title=panel.title,
            row_labels=panel.row_labels,
            col_labels=panel.col_labels,
            row_axis=panel.row_axis,
            col_axis=panel.col_axis,
            notes=panel.notes,
            marked=panel.marked,
        )
        for panel in block.panels
    ]
    return svg.side_by_side(maps, title=block.caption)


def _hidden(record: Any, name: str) -> bool:
    """A closed form a block derivation shows only in decimals (``exact`` / ``NAME_exact`` False):
    left out of the JSON too, since printing a layer's nested closed forms walks their trees."""
    flag = getattr(record, "exact", True) if name == "value" else getattr(record, f"{name}_exact", True)
    return flag is False


def _jsonable(value: Any) -> Any:
    if is_dataclass(value):
        out = {"step": type(value).__name__}
        out.update(
            {
                f.name: None if _hidden(value, f.name) else _jsonable(getattr(value, f.name))
                for f in fields(value)
            }
        )
        return out
    if isinstance(value, sympy.MatrixBase):
        return [[_jsonable(value[i, j]) for j in range(value.cols)] for i in range(value.rows)]
    if isinstance(value, sympy.Basic):
        from symattn.render.mathtex import entry

        return {"latex": entry(value), "sympy": str(value)}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def derive(
    spec_or_attention: Any, lang: str = "en", digits: int = 4, *, full: bool = False, sections: Any = None
) -> Derivation:
    """Derive an attention step by step.

    Args:
        spec_or_attention: an :class:`~symattn.spec.AttentionSpec` (its claims
            are checked), a transformer-block spec (:mod:`symattn.block_derivation`),
            an ``Attention`` / ``MultiHead``, or the path of a TOML spec.
        lang: "en" or "zh".
        digits: places of the certified decimals.
        full: derive even what is larger than the size policy allows
            (:data:`MAX_TOKENS`, :data:`MAX_COLUMNS`, :data:`MAX_HEADS`).
        sections: what of :data:`SECTIONS` to include, or "all"; None: the spec's
            ``sections``, else the importance section only for 3 tokens or fewer and one head.

    Returns:
        A :class:`Derivation`.

    Raises:
        InputError: an unknown language or negative digits.
        DerivationTooLargeError: the spec is too large and ``full`` is False
            (decided from the shapes, before any work).
        SymattnError: from loading or running the spec.

    >>> from symattn.examples import reference
    >>> "0.2483" in derive(reference()).to_markdown()
    True
    """
    from symattn.spec import AttentionSpec, BlockSpec, load_spec

    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r} (expected en or zh)")
    if isinstance(spec_or_attention, (str, Path)):
        spec_or_attention = load_spec(spec_or_attention)
    if isinstance(spec_or_attention, BlockSpec):  # a transformer block: symattn.block_derivation
        from symattn.block_derivation import derive_block

        return derive_block(spec_or_attention, lang=lang, digits=digits, full=full)
    if not full:
        check_size(spec_or_attention)
    if isinstance(sections, str):
        sections = [part.strip() for part in sections.split(",") if part.strip()]
    if isinstance(spec_or_attention, AttentionSpec):
        with spec_or_attention.errors_located():
            result = spec_or_attention.run()
            chosen = sections if sections is not None else spec_or_attention.sections
            steps = build_steps(result, spec_or_attention.claims, digits, sections=chosen)
        return Derivation(spec_or_attention.title, steps, lang, digits)
    return Derivation(None, build_steps(spec_or_attention, None, digits, sections=sections), lang, digits)


# --- derivations/ -----------------------------------------------------------------


def _outputs(spec_path: Path) -> dict[Path, str]:
    from symattn.spec import load_spec

    spec = load_spec(spec_path)
    files = {}
    english = derive(spec, lang="en")
    for lang in LANGUAGES:
        derivation = replace(english, lang=lang)
        stem = spec_path.with_suffix("")
        name = f"{stem.name}.{lang}"
        files[stem.with_name(f"{name}.md")] = derivation.to_markdown(pictures=name)
        files[stem.with_name(f"{name}.tex")] = derivation.to_latex(standalone=True)
        for file_name, text in derivation.pictures(name).items():
            files[stem.with_name(file_name)] = text
    return files


_GENERATED = re.compile(r"^(?P<stem>[^.]+)\.(?:en|zh)\.(?:md|tex|[a-z0-9-]+\.svg)$")


def regenerate(directory: str | Path = "derivations", check: bool = False) -> list[Path]:
    """Rewrite (or only compare) the generated files of every spec in ``directory``.

    For each ``NAME.toml`` the files ``NAME.en.md``, ``NAME.en.tex``,
    ``NAME.zh.md`` and ``NAME.zh.tex`` (standalone LaTeX) are generated, and the
    SVG pictures the Markdown links (``NAME.en.importance.svg``, ...).  A
    generated-looking file that no spec generates now (``OLD.en.md`` without
    ``OLD.toml``, or a picture a derivation no longer has) is stale: it is removed, or
    reported with ``check``.

    Args:
        directory: the folder of TOML specs.
        check: only compare; write nothing.

    Returns:
        The paths that changed (written or removed), or with ``check`` that
        differ from a fresh generation (missing and stale files included), sorted.

    Raises:
        MissingFileError: the directory does not exist.
        SymattnError: a spec is invalid (nothing is written for any spec).
    """
    from symattn.errors import MissingFileError

    directory = Path(directory)
    if not directory.is_dir():
        raise MissingFileError(f"{directory}: no such directory")
    wanted: dict[Path, str] = {}
    for spec_path in sorted(directory.glob("*.toml")):
        wanted.update(_outputs(spec_path))
    stale = [  # generated-looking files no spec generates now (its spec gone, or its picture)
        path for path in directory.iterdir() if _GENERATED.match(path.name) and path not in wanted
    ]
    changed = []
    for path, text in sorted(wanted.items()):
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != text:
            changed.append(path)
            if not check:
                write_atomically(path, text)
    for path in stale:
        changed.append(path)
        if not check:
            path.unlink()
    return sorted(changed)
