"""The attention conventions: what a bare printed value is a claim of.

``A = [numbers]`` with no formula claims softmax(QKᵀ/√d_k); ``scores``,
``scaled`` and ``output`` likewise; an undefined ``M`` added to the scores is
the causal mask when the chain prints its pattern.  By the document's numbers
the weights come from its own printed scaled scores where it gave them.
A mixin of :class:`~symattn.verify.evaluate.DocumentState`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import SymattnError
from symattn.exact import parse_claim
from symattn.latexparse import (
    Chain,
    Matrix,
    Mul,
    Name,
    Node,
    Num,
    literals,
    split_head,
)
from symattn.verify.balls import ball_of
from symattn.verify.claims import claim_fits
from symattn.verify.shapes import (
    is_claim_shape,
    is_literal,
    names_in,
)
from symattn.verify.shapes import (
    printed as printed_value,
)
from symattn.verify.values import (
    NEG_INF,
    Binding,
    Unverifiable,
    Val,
    equal,
    is_matrix,
    row_deps,
    row_of,
    rows_joined,
    scale,
)
from symattn.verify.world import (
    _ALIASES,
    _MASK_NAMES,
    _OUTPUT_ROW,
    _QKT,
    _SCORE_NAMES,
    _SOFTMAX_QKT,
    _WEIGHT_NAMES,
    _BallLookup,
    _shape_key,
)


class Conventions:
    """Methods of :class:`~symattn.verify.evaluate.DocumentState` (see the module docstring)."""

    def _causal_mask_by_convention(self, chain: Chain) -> None:
        """An undefined ``M`` added to the scores is the causal mask when the chain
        prints its pattern: -∞ (scores) or 0 (weights) exactly above the diagonal."""
        used = {n for e in chain.elements for n in names_in(e)}
        name = next((n for n in _MASK_NAMES if n in used and n not in self.env), None)
        if name is None or (isinstance(chain.elements[0], Name) and chain.elements[0].name == name):
            return  # M = [...] defines M itself
        for element in chain.elements:
            if not (isinstance(element, Matrix) and is_literal(element)):
                continue
            n = len(element.rows)
            if n < 2 or any(len(row) != n for row in element.rows):
                continue
            cells = [[printed_value(c) for c in row] for row in element.rows]
            upper = [cells[i][j] for i in range(n) for j in range(n) if j > i]
            lower = [cells[i][j] for i in range(n) for j in range(n) if j <= i]
            if (all(v == NEG_INF for v in upper) and all(v is not None and v != NEG_INF for v in lower)) or (
                all(v == 0 for v in upper) and all(v is not None and v != 0 for v in lower)
            ):
                pattern = True
            else:
                pattern = False
            if pattern:
                mask = stages.causal_mask(n, n)
                self.env[name] = Binding(mask, mask, frozenset())
                self.inputs.add(name)
                return

    def _output_rows_claimed(self, names: list[str], values: list[Node]) -> bool:
        """Whether ``o_1 = [printed]`` claims row 1 of (weights)·V: not when most of
        its cells fit that row in neither world (``o_1 = [1, 0]``, a one-hot vector,
        defines a name of its own)."""
        if len(values) != 1 or not is_claim_shape(values[0]) or len(names) != 1:
            return True
        row = self._output_row(names[0])
        if row is None or not is_matrix(row.a):
            return True
        cells = list(literals(values[0]))
        if len(cells) != row.a.cols:
            return False
        try:
            misses = sum(
                not (claim_fits(c.text, row.a[0, k]) or claim_fits(c.text, row.b[0, k]))
                for k, c in enumerate(cells)
            )
        except SymattnError:
            return False
        return misses <= len(cells) / 2

    def _given_scores(self, chain: Chain) -> bool:
        """``QKᵀ = [numbers]`` in a document that never gives Q or K: the scores,
        given as an input (the weights' convention then starts from them)."""
        if len(chain.elements) != 2 or _shape_key(chain.elements[0]) != _shape_key(_QKT):
            return False
        block = chain.elements[1]
        if not (isinstance(block, Matrix) and is_literal(block)) or any(n in self.env for n in ("Q", "K")):
            return False
        value = self.literal_value(block)
        if not is_matrix(value.a):
            return False
        self.subject = "QKᵀ"
        self.unverified(literals(block), "input", "given as an input")
        self._bind_expression(chain.elements[0], value)
        return True

    def _known_scores(self, *, scaled: bool, head: str = "") -> Val | None:
        """QKᵀ from the document's Q and K (of one head: ``Q^{(1)}``), divided by
        √d_k when ``scaled`` (d_k known and positive), or None when they are not known."""
        try:
            given = None if head else self._claimed_expression(_QKT)  # QKᵀ printed without Q and K
            if given is not None and is_matrix(given.a):
                scores = given
            else:
                stacked = (
                    None if head or "Q" in self.env else self._stacked("q")
                )  # q_1, q_2, q_3 given, Q never
                if stacked is not None:
                    q = Val(stacked.a, stacked.b, stacked.deps, arith=stacked.arith, rows=stacked.rows)
                else:
                    q = self._lookup("Q" + head)
                k = self._lookup("K" + head)
                if not (is_matrix(q.a) and is_matrix(k.a)) or q.a.cols != k.a.cols:
                    return None
                scores = self._product([q, Val(stages.transpose(k.a), stages.transpose(k.b), k.deps)])
                scores = self._printed_scores(scores, head) or scores
            if not scaled:
                return scores
            d_k = self._lookup("d_{k}" + head if "d_{k}" + head in self.env else "d_{k}")
        except (Unverifiable, SymattnError):
            return None
        if is_matrix(d_k.a) or not all(getattr(v, "is_positive", False) for v in (d_k.a, d_k.b)):
            return None
        return Val(
            scale(scores.a, 1 / sympy.sqrt(d_k.a)),
            scale(scores.b, 1 / sympy.sqrt(d_k.b)),
            scores.deps | d_k.deps,
            arith=False,
            rows=rows_joined(scores.rows, d_k.deps),
        )

    def _printed_scores(self, scores: Val, head: str) -> Val | None:
        """The scores as the document printed them (``S = QKᵀ = [...]``, a table named
        "scores"): world (a) for what is computed from them by convention, so a wrong
        score is carried into the weights and outputs."""
        for name in ("S", *_SCORE_NAMES):
            bound = self.env.get(name + head)
            if bound is None or (name + head) in self.inputs or not is_matrix(bound.a):
                continue
            if bound.a.shape == scores.a.shape and equal(bound.b, scores.b) is True:
                return Val(bound.a, scores.b, bound.deps | scores.deps, arith=bound.arith, rows=bound.rows)
        return None

    def _convention_weights(self, head: str = "") -> Val | None:
        """softmax of the document's scaled scores S̃ (its mask included) when it
        gives them, else softmax(QKᵀ/√d_k) when Q, K and a positive d_k are known."""
        printed = None if head else self._claimed_expression(_SOFTMAX_QKT)
        if printed is not None and is_matrix(printed.a):
            return printed  # a composite head printed softmax(QKᵀ/√d_k): the document's weights, with their truth
        name = self._resolve("\\tilde{S}" + head)
        bound = self.env.get(name)
        if bound is not None and is_matrix(bound.a) and name not in self.inputs:
            scaled: Val | None = Val(bound.a, bound.b, bound.deps, arith=bound.arith, rows=bound.rows)
        else:
            scaled = self._known_scores(scaled=True, head=head)
            if scaled is not None and not head:
                scaled = self._with_printed_rows(scaled)
        if scaled is None:
            return None
        try:
            return Val(
                stages.softmax_rows(scaled.a),
                stages.softmax_rows(scaled.b),
                scaled.deps,
                arith=False,
                rows=scaled.rows,
            )
        except (Unverifiable, SymattnError):
            return None

    def _with_printed_rows(self, scaled: Val) -> Val:
        """The scaled scores by the document's numbers: a row it printed on its own
        (``\\frac{1}{\\sqrt{3}} q_2 K^T = [0, 0.5477, 1.1547]``) stands in world (a)."""
        if not self.printed_rows or not is_matrix(scaled.a):
            return scaled
        rows_a = [scaled.a.row(i) for i in range(scaled.a.rows)]
        rows = [row_deps(scaled, i) for i in range(scaled.a.rows)]
        changed = False
        for i in range(scaled.a.rows):
            truth = scaled.b.row(i)
            for head_b, printed in reversed(self.printed_rows):
                if head_b.shape == truth.shape and equal(head_b, truth) is True:
                    rows_a[i], rows[i], changed = printed.a, rows[i] | printed.deps, True
                    break
        if not changed:
            return scaled
        return Val(
            ImmutableMatrix.vstack(*rows_a),
            scaled.b,
            frozenset().union(scaled.deps, *rows),
            arith=scaled.arith,
            rows=tuple(rows),
        )

    @staticmethod
    def _bare_block(
        names: list[str], values: list[Node], accepted: tuple[str, ...], shape: Any
    ) -> Matrix | None:
        """The printed block of ``name = [numbers]`` when ``name`` is one of ``accepted``
        and the block has the shape of the value it would claim."""
        if (
            len(names) != 1
            or names[0] not in accepted
            or len(values) != 1
            or not isinstance(values[0], Matrix)
        ):
            return None
        block = values[0]
        if shape is None or len(block.rows) != shape[0] or any(len(row) != shape[1] for row in block.rows):
            return None
        return block

    def _scaled_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """``scaled = [numbers]`` (no formula) when Q, K and d_k are known: QKᵀ/√d_k."""
        if not names or names[0] in self.env:
            return None
        scaled = self._known_scores(scaled=True)
        shape = scaled.a.shape if scaled is not None else None
        return scaled if self._bare_block(names, values, _ALIASES["scaled"], shape) is not None else None

    def _output_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """``output = [numbers]`` (no formula) when the weights and V are known: a
        claim of (weights) V, by the document's weights (on their rounding
        intervals) and in truth."""
        weights_name, v_name = self._resolve("weights"), self._resolve("V")
        if not names or names[0] in self.env or weights_name not in self.env:
            return None
        if v_name not in self.env and not self._value_rows_as_V(self.env[weights_name]):
            return None
        weights, v = self._lookup(weights_name), self._lookup(v_name)
        if not (is_matrix(weights.a) and is_matrix(v.a)) or weights.a.cols != v.a.rows:
            return None
        if self._bare_block(names, values, _ALIASES["output"], (weights.a.rows, v.a.cols)) is None:
            return None
        product = self._product([weights, v])
        node = Mul(0, (Name(0, weights_name), Name(0, v_name)))
        return dataclasses.replace(product, ball=ball_of(node, _BallLookup(self, node)))

    def _output_row(self, name: str) -> Val | None:
        """``o_1`` when the document binds no O: row 1 of (weights)·V."""
        match = _OUTPUT_ROW.match(name)
        if match is None or self._resolve("O") in self.env:
            return None
        output = self._convention_output()
        i = int(match.group(1)) - 1
        if output is None or not 0 <= i < output.a.rows:
            return None
        return row_of(output, i)

    def _convention_output(self) -> Val | None:
        """(weights)·V when the document gave both (``o_1`` is its first row)."""
        weights_name, v_name = self._resolve("weights"), self._resolve("V")
        if weights_name not in self.env or v_name not in self.env:
            return None
        weights, v = self._lookup(weights_name), self._lookup(v_name)
        if not (is_matrix(weights.a) and is_matrix(v.a)) or weights.a.cols != v.a.rows:
            return None
        return self._product([weights, v])

    def _value_rows_as_V(self, weights: Binding) -> bool:
        """``v_1 = [2, 0]`` and ``v_2 = [0, 4]`` given, V never: V is their stack
        (one row per key), bound so the output can be checked by convention."""
        stacked = self._stacked("v", weights.a.cols) if is_matrix(weights.a) else None
        if stacked is None:
            return False
        self.env["V"] = stacked
        return True

    def _scores_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """``scores = [numbers]`` (no formula) when Q and K are known: a claim of
        QKᵀ.  By the document's numbers, a cell is its printed ``q_i · k_j``
        when the document wrote one out (so a wrong dot product carries)."""
        if not names or names[0] in self.env:
            return None
        scores = self._known_scores(scaled=False)
        shape = scores.a.shape if scores is not None else None
        if scores is None or self._bare_block(names, values, _SCORE_NAMES, shape) is None:
            return None
        cells = [list(row) for row in scores.a.tolist()]
        deps = set(scores.deps)
        for i in range(scores.a.rows):
            for j in range(scores.a.cols):
                written = Mul(0, (Name(0, f"q_{{{i + 1}}}"), Name(0, f"k_{{{j + 1}}}")))
                claimed = self._claimed_binding(written)
                if claimed is not None and not is_matrix(claimed.a):
                    cells[i][j] = claimed.a
                    deps |= claimed.deps
        return Val(ImmutableMatrix(cells), scores.b, frozenset(deps), arith=scores.arith)

    def _weights_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """The true attention weights for ``A = [numbers]`` when the document
        never defines A otherwise (the convention of docs/verify.md).

        Applies only when the one name is an attention-weights name, Q, K and
        d_k are known, the printed block is n_q × n_k with no exact 0 (a mask),
        every 0.0000 is a weight that rounds to it, and (for a bare ``A``)
        every printed row sums to 1 within its rounding.
        """
        if not names or names[0] in self.env:
            return None
        core, head = split_head(names[0])  # A^{(1)}: the weights of head 1
        names = [core, *names[1:]]
        weights = self._convention_weights(head)
        shape = weights.a.shape if weights is not None else None
        if values and isinstance(values[0], Matrix) and not is_literal(values[0]):
            # A = [closed forms] ≈ [decimals]: a step from the truth
            return weights if self._bare_block(names, values[:1], _WEIGHT_NAMES, shape) is not None else None
        block = self._bare_block(names, values, _WEIGHT_NAMES, shape)
        if block is None or weights is None or not all(isinstance(c, Num) for row in block.rows for c in row):
            return None
        for i, row in enumerate(block.rows):
            claims = [parse_claim(cell.text) for cell in row]  # type: ignore[union-attr]
            if any(c.value == 0 and c.places is None for c in claims):
                return None  # a printed 0 means a mask, which the convention does not guess
            if any(
                c.value == 0
                and not (claim_fits(c.text, weights.b[i, j]) or claim_fits(c.text, weights.a[i, j]))
                for j, c in enumerate(claims)
            ):
                return (
                    None  # a 0.0000 must be a tiny weight (in truth or by the document's numbers), not a mask
                )
            slack = sum(sympy.Rational(1, 2 * 10 ** (c.places or 0)) for c in claims if c.places)
            if names[0] == "A" and abs(sum(c.value for c in claims) - 1) > slack:
                return None  # a bare A might be any matrix; one named "weights" is a claim of them
        return weights
