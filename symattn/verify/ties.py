"""Ties: operands that restate a known quantity are judged as restatements.

A block equal to a bound matrix (or its transpose, or a row), the weights and
value rows of a written-out weighted sum, the factors of a written-out dot
product, the printed factors of a composite head, the denominator of a
softmax row written out.  A mixin of :class:`~symattn.verify.evaluate.DocumentState`.
"""

from __future__ import annotations

import dataclasses

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import SymattnError
from symattn.exact import parse_claim
from symattn.latexparse import (
    Matrix,
    Mul,
    Name,
    Node,
    Num,
    Sum,
)
from symattn.verify.balls import ball_of
from symattn.verify.claims import TIE_DIGITS, claim_fits, evidence_digits
from symattn.verify.shapes import (
    is_literal,
)
from symattn.verify.values import (
    Binding,
    Val,
    equal,
    is_matrix,
    row_deps,
    scale,
)
from symattn.verify.world import (
    _BallLookup,
    _display_name,
    _row_texts,
)

#: A printed matrix in a computation restates a given one with a copy slip when this many cells
#: or more are printed and exactly one differs (``A·[[1, 0], [0, 2], [1, 1]]`` for V = [[1, 0], [0, 1], [1, 1]]).
NEAR_TIE_CELLS = 4


class Ties:
    """Methods of :class:`~symattn.verify.evaluate.DocumentState` (see the module docstring)."""

    def _tied_rows(self, node: Matrix) -> Val | None:
        """A block whose rows restate rows printed before (each row's cells
        written the same): tied to them, so a wrong row carries on."""
        rows = [_row_texts(row) for row in node.rows]
        if not rows or any(not all(r) for r in rows) or len({len(r) for r in rows}) != 1:
            return None
        found = [self.row_results.get(r) for r in rows]
        if (
            2 * sum(v is not None for v in found) <= len(rows)
            and sum(
                evidence_digits(text)
                for row, v in zip(rows, found, strict=True)
                if v is not None
                for text in row
            )
            < TIE_DIGITS
        ):
            return None  # most rows new, and the others no evidence: W2, one of whose rows is Q's [0.7, 0.8, 0.9, 1.0]
        if not any(v is not None and any(is_wrong for _, is_wrong in v.deps) for v in found):
            return None  # only tie when it matters: a row printed wrong before
        a_rows, b_rows, deps = [], [], set()
        for row_node, value in zip(node.rows, found, strict=True):
            printed = [parse_claim(c.text).value for c in row_node]  # type: ignore[union-attr]
            if value is None:
                a_rows.append(printed)
                b_rows.append(printed)
                self.unverified(list(row_node), "input", "given as an input")  # type: ignore[arg-type]
                continue
            for j, cell in enumerate(row_node):
                self._restated(cell, value.deps, value.b[j])  # type: ignore[arg-type]
            a_rows.append(printed)
            b_rows.append(list(value.b))
            deps |= value.deps
        return Val(ImmutableMatrix(a_rows), ImmutableMatrix(b_rows), frozenset(deps), arith=False)

    def _weight_term(self, node: Mul) -> Val | None:
        """``0.43 × 10`` or ``0.14 × [4, 8]``: one term of a weighted sum written on
        its own, a printed weight a_ij times (an entry of) v_j.  Tied when exactly
        one printed weight and one row of V fit; then its truth is a_ij · v_j."""
        if len(node.factors) != 2 or not isinstance(node.factors[0], Num):
            return None
        weight, other = node.factors
        claim = parse_claim(weight.text)
        if (claim.places or 0) < 2:
            return None  # "0.5 × 10" may be a plain half; a weight is printed with two places or more
        if isinstance(other, Num):
            cells = [other]
        elif (
            isinstance(other, Matrix)
            and len(other.rows) == 1
            and all(isinstance(c, Num) for c in other.rows[0])
        ):
            cells = list(other.rows[0])
        else:
            return None
        entries = [parse_claim(c.text).value for c in cells]  # type: ignore[union-attr]
        weights_name, v_name = self._resolve("weights"), self._resolve("V")
        weights, v = self.env.get(weights_name), self.env.get(v_name)
        if weights is None or v is None or not (is_matrix(weights.a) and is_matrix(v.a)):
            return None
        if weights.a.cols != v.a.rows or weights_name in self.inputs:
            return None
        fits = []
        for i in range(weights.a.rows):
            for j in range(weights.a.cols):
                if weights.a[i, j] != claim.value:
                    continue
                row = list(v.a.row(j))
                if len(entries) == 1:
                    fits.extend((i, j, c) for c in range(len(row)) if row[c] == entries[0])
                elif row == entries:
                    fits.append((i, j, None))
        if len(fits) != 1:
            return None
        i, j, c = fits[0]
        w_label, v_label, saved = _display_name(weights_name), _display_name(v_name), self.subject
        try:
            self.subject = w_label
            w_deps = row_deps(weights, i)
            self._judge(
                weight,
                weights.a[i, j],
                weights.b[i, j],
                w_deps,
                cell=(i + 1, j + 1),
                reason=f"restates {w_label}",
            )
            self.subject = v_label
            for k, cell in enumerate(cells):
                col = c if c is not None else k
                self._judge(
                    cell,
                    v.a[j, col],
                    v.b[j, col],
                    v.deps,
                    cell=(j + 1, col + 1),
                    reason=f"restates {v_label}",
                )  # type: ignore[arg-type]
        finally:
            self.subject = saved
        picked_a = v.a[j, c] if c is not None else ImmutableMatrix(v.a.row(j))
        picked_b = v.b[j, c] if c is not None else ImmutableMatrix(v.b.row(j))
        return Val(
            scale(picked_a, weights.a[i, j]),
            scale(picked_b, weights.b[i, j]),
            w_deps | v.deps,
            arith=weights.arith and v.arith,
        )

    def _normaliser(self, node: Num, numerators: Val, printed_row: Matrix) -> Val:
        """The denominator of ``[x_1, …, x_n] / S`` claims ``S = x_1 + … + x_n``
        (a softmax row written out): judged on the numerators' rounding, and
        carried into the quotient."""
        total_a = sympy.Add(*numerators.a)
        total_b = sympy.Add(*numerators.b)
        cells = ball_of(printed_row, _BallLookup(self, printed_row))
        ball = sum(cells[0], start=cells[0][0] * 0) if isinstance(cells, list) and len(cells) == 1 else None
        ok = self._judge(
            node,
            total_a,
            total_b,
            numerators.deps,
            cell=None,
            reason="the sum of the numerators",
            ball=ball,
            truth=numerators.truth,
        )
        printed = parse_claim(node.text).value
        return Val(
            printed,
            total_b,
            numerators.deps | self._source(node, ok, printed, total_b),
            arith=numerators.arith,
        )

    def _composite(self, node: Mul) -> Val | None:
        """``softmax(QKᵀ/√d_k) V = [printed][printed] = …``: each printed factor
        claims the factor of the product before it, and the product goes on
        from the printed factors (by the document's numbers) and the truth."""
        head, values = self.head_factors  # type: ignore[misc]
        self.head_factors = None
        if head is node or len(node.factors) != len(values):
            return None
        if not any(isinstance(f, Matrix) and is_literal(f) for f in node.factors):
            return None
        parts = []
        for factor, value in zip(node.factors, values, strict=True):
            printed = isinstance(factor, Matrix) and is_literal(factor)
            if printed and (
                not is_matrix(value.a) or value.a.shape != (len(factor.rows), len(factor.rows[0]))
            ):  # type: ignore[attr-defined]
                return None
        for head_factor, factor, value in zip(head.factors, node.factors, values, strict=True):
            if isinstance(factor, Matrix) and is_literal(factor):
                saved = self.subject
                if isinstance(head_factor, Name):
                    self.subject = _display_name(head_factor.name)  # [printed] restates A in AV = [A][V]
                try:
                    claimed = self.claim(factor, value)
                finally:
                    self.subject = saved
                parts.append(Val(claimed.a, value.b, claimed.deps, arith=value.arith, rows=claimed.rows))
                if not isinstance(head_factor, Name):  # softmax(QKᵀ/√d_k) printed: the document's weights
                    self._bind_expression(head_factor, parts[-1])
            else:
                parts.append(self._value_of(factor, True))
        product = self._product(parts)
        ball = ball_of(node, _BallLookup(self, node))
        return dataclasses.replace(product, ball=ball)

    def _expanded_dot(self, node: Node, ref: Val) -> Val | None:
        """``[1, 2] · [1, 1] = 1*1 + 2*1``: each factor of the written-out sum
        restates an entry of the two vectors (a copied-wrong entry is a slip);
        the sum carries the truth of the dot product."""
        u, v = self.last_dot  # type: ignore[misc]
        self.last_dot = None
        terms = node.terms if isinstance(node, Sum) else (node,) if isinstance(node, Mul) else ()
        n = u.a.cols
        if len(terms) != n or not all(
            isinstance(t, Mul) and len(t.factors) == 2 and all(isinstance(f, Num) for f in t.factors)
            for t in terms
        ):
            return None
        deps = set(ref.deps)
        printed = []
        for j, term in enumerate(terms):
            factors = term.factors  # type: ignore[attr-defined]
            for factor, vector in zip(factors, (u, v), strict=True):
                ok = self._judge(
                    factor,
                    vector.a[0, j],
                    vector.b[0, j],
                    vector.deps,
                    cell=(1, j + 1),
                    reason="restates an entry",
                )
                deps |= self._source(factor, ok, parse_claim(factor.text).value, vector.b[0, j])
            printed.append(parse_claim(factors[0].text).value * parse_claim(factors[1].text).value)
        return Val(sympy.Add(*printed), ref.b, frozenset(deps), arith=ref.arith)

    def _find_tie(self, printed: ImmutableMatrix) -> tuple[str, Binding, str, int] | None:
        candidates = [(n, b) for n, b in reversed(self.env.items()) if is_matrix(b.a)]
        for name, binding in candidates:
            if binding.a.shape == printed.shape and equal(binding.a, printed) is True:
                return name, binding, "whole", 0
        for name, binding in candidates:
            if binding.a.shape == printed.T.shape and equal(binding.a.T, printed) is True:
                return name, binding, "transpose", 0
        if printed.rows == 1:
            for name, binding in candidates:
                if binding.a.cols == printed.cols and binding.a.rows > 1:
                    for i in range(binding.a.rows):
                        if equal(binding.a.row(i), printed) is True:
                            return name, binding, "row", i
        for name, binding in candidates:  # a given matrix copied into a computation with one slip
            if name in self.inputs and binding.a.shape == printed.shape and len(printed) >= NEAR_TIE_CELLS:
                off = sum(equal(x, y) is not True for x, y in zip(binding.a, printed, strict=True))
                if off == 1:
                    return name, binding, "whole", 0
        return None

    def _tied(self, node: Matrix, tie: tuple[str, Binding, str, int]) -> Val:
        name, binding, how, row = tie
        a, b = binding.a, binding.b
        if how == "transpose":
            a, b = stages.transpose(a), stages.transpose(b)
        elif how == "row":
            a, b = ImmutableMatrix(a.row(row)), ImmutableMatrix(b.row(row))
        label = _display_name(name) + ("ᵀ" if how == "transpose" else "")
        saved, self.subject = self.subject, label
        try:
            for i, cells in enumerate(node.rows):
                for j, cell in enumerate(cells):
                    if isinstance(cell, Num):
                        where = (row + 1, j + 1) if how == "row" else (i + 1, j + 1)
                        self._judge(
                            cell, a[i, j], b[i, j], binding.deps, cell=where, reason=f"restates {label}"
                        )
        finally:
            self.subject = saved
        return Val(a, b, binding.deps, arith=binding.arith)

    def _weighted_sum(self, node: Sum) -> tuple[Val, ...] | None:
        """Tie ``w1·v1 + w2·v2 + ...``: the weights to a row of an earlier matrix
        (one of three or more may be copied wrong: a slip), and each printed
        ``v_j`` to row j of V."""
        weights = []
        for term in node.terms:
            if not (isinstance(term, Mul) and len(term.factors) >= 2 and isinstance(term.factors[0], Num)):
                return None
            weights.append(term.factors[0])
        match = self._row_match(weights)
        if match is None:
            return None
        name, binding, i = match
        label = _display_name(name)
        saved, self.subject = self.subject, label
        tied = []
        try:
            for j, weight in enumerate(weights):
                a, b = binding.a[i, j], binding.b[i, j]
                ok = self._judge(weight, a, b, binding.deps, cell=(i + 1, j + 1), reason=f"restates {label}")
                printed = parse_claim(weight.text).value
                source = self._source(weight, ok, printed, b)
                tied.append(Val(printed, b, binding.deps | source, arith=binding.arith))
        finally:
            self.subject = saved
        return tuple(
            self._product([w, *self._value_rows(term.factors[1:], j, len(weights))])
            for j, (w, term) in enumerate(zip(tied, node.terms, strict=True))
        )

    def _row_match(self, weights: list[Num]) -> tuple[str, Binding, int] | None:
        """The bound matrix row the printed weights restate: exactly, or all but
        one of three or more."""
        best = None
        for name, binding in reversed(self.env.items()):
            if not is_matrix(binding.a) or binding.a.cols != len(weights):
                continue
            vector = binding.a.rows < 2  # a computed row of weights (A₂ⱼ = softmax(…) = [0.12, …]):
            if vector and (len(weights) < 3 or name in self.inputs):  # three in order are evidence
                continue
            for i in range(binding.a.rows):
                try:
                    misses = sum(not claim_fits(w.text, binding.a[i, j]) for j, w in enumerate(weights))
                except SymattnError:
                    continue
                if misses == 0:
                    return name, binding, i
                if misses == 1 and len(weights) >= 3 and best is None and not vector:
                    best = (name, binding, i)
        return best

    def _value_rows(self, factors: tuple[Node, ...], j: int, n: int) -> list[Val]:
        """The factors after a weight; a printed row vector there is v_j, row j of V."""
        v_name = self._resolve("V")
        v = self.env.get(v_name)
        if (
            v is not None
            and len(factors) == 1
            and isinstance(factors[0], Matrix)
            and len(factors[0].rows) == 1
            and is_matrix(v.a)
            and v.a.rows == n
            and v.a.cols == len(factors[0].rows[0])
            and all(isinstance(c, Num) for c in factors[0].rows[0])
        ):
            cells = factors[0].rows[0]
            deps = set(v.deps)
            label = _display_name(v_name)
            saved, self.subject = self.subject, label
            try:
                for c, cell in enumerate(cells):
                    ok = self._judge(
                        cell, v.a[j, c], v.b[j, c], v.deps, cell=(j + 1, c + 1), reason=f"restates {label}"
                    )  # type: ignore[arg-type]
                    deps |= self._source(cell, ok, parse_claim(cell.text).value, v.b[j, c])  # type: ignore[union-attr]
            finally:
                self.subject = saved
            printed = ImmutableMatrix([[parse_claim(c.text).value for c in cells]])  # type: ignore[union-attr]
            return [Val(printed, ImmutableMatrix(v.b.row(j)), frozenset(deps), arith=v.arith)]
        return [self._value_of(f, True) for f in factors]
