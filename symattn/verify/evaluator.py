"""The evaluator: a syntax tree to its value in both worlds, one branch per node type.

Products, transposes and softmax come from :mod:`symattn.stages`; names from
the environment; restated blocks are tied on the way (:mod:`.ties`).  A mixin of
:class:`~symattn.verify.evaluate.DocumentState`.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import block, stages
from symattn.errors import DivisionByZeroError, LatexParseError, ShapeError
from symattn.exact import Known, parse_claim, safe_power
from symattn.latexparse import (
    DEGREES,
    HADAMARD,
    Call,
    Div,
    Inf,
    Matrix,
    Mul,
    Name,
    Neg,
    Node,
    Num,
    Pow,
    Sqrt,
    Sum,
    Transpose,
    Unsupported,
    literals,
    scalar_value,
)
from symattn.verify.roots import distinctive as _distinctive
from symattn.verify.shapes import (
    printed as printed_value,
)
from symattn.verify.values import (
    Unverifiable,
    Val,
    add_values,
    bounded_exp,
    entry_of_1x1,
    equal,
    is_matrix,
    multiply,
    rows_joined,
    scale,
    shape_text,
)
from symattn.verify.world import (
    _AMBIGUOUS,
    _display_name,
    _is_row,
    _summed_rows,
)

#: Functions of one number every reader knows (``log`` is left out: its base is a convention).
_ELEMENTARY = {"sin": sympy.sin, "cos": sympy.cos, "tanh": sympy.tanh, "erf": sympy.erf}


#: Functions of one vector, which a document may apply to the vector's entries written out.
_OF_A_VECTOR = frozenset({"softmax", "mean", "np.mean"})


def _vector_of(args: list[Val]) -> Val:
    """The numbers ``args`` as the entries of one row."""
    return Val(
        ImmutableMatrix([[arg.a for arg in args]]),
        ImmutableMatrix([[arg.b for arg in args]]),
        frozenset().union(*(arg.deps for arg in args)),
        arith=all(arg.arith for arg in args),
    )


class Evaluator:
    """Methods of :class:`~symattn.verify.evaluate.DocumentState` (see the module docstring)."""

    def _scalar_fallback(self, element: Node) -> Val:
        """Hand a scalar formula with \\ln, \\sin ... to latex2sympy2_extended."""
        text = self.element_text
        scalars = {name: b for name, b in self.env.items() if not is_matrix(b.a)}
        symbols = {name: symbol for name, symbol in self.symbols.items() if name not in scalars}
        try:
            value_a, used = scalar_value(text, {**symbols, **{name: b.a for name, b in scalars.items()}})
            value_b, _ = scalar_value(text, {**symbols, **{name: b.b for name, b in scalars.items()}})
        except LatexParseError as err:
            raise Unverifiable(str(err)) from None
        if not (getattr(value_a, "is_number", False) and getattr(value_b, "is_number", False)) and not (
            used & symbols.keys()
        ):
            raise Unverifiable(f"cannot evaluate {text.strip()}")
        self.operands = literals(element)
        deps = frozenset().union(*(scalars[name].deps for name in used if name in scalars))
        return Val(value_a, value_b, deps, arith=False)

    def _seeded(self, node: Num, value: Any) -> Val | None:
        """A printed number the explanation identified (the second reading): its true value in
        world (b), and its line among the deps where it differs."""
        place = self.position(node.offset)
        seed = self.seeds.get(place)
        return None if seed is None else _seed_value(place, value, seed[0], seed[1])

    def seed(self, seeds: Any) -> None:
        """The true values of the numbers the explanation identified, for a second reading."""
        self.seeds = seeds
        self.seeds_left = sorted(seeds.items(), reverse=True)

    def remember_seeds(self, line: int) -> None:
        """Before a formula on ``line``: each number the explanation identified above it, by its
        text, so that a later literal written as it (``0.33 × V_1`` after the weights ``[0.33,
        0.30, 0.37]``) is tied to it and carries its truth (a number of two places or more)."""
        while self.seeds_left and self.seeds_left[-1][0][0] < line:
            place, (true, wrong, text) = self.seeds_left.pop()
            if len(text.partition(".")[2]) < 2 or text in self.printed:
                continue  # a result the readers printed themselves is theirs to tie
            value = _seed_value(place, parse_claim(text).value, true, wrong)
            if value.deps:
                self._remember_printed(text, value)

    def literal_value(self, node: Node) -> Val:
        """The printed value of a numbers-only node (both worlds alike)."""
        if isinstance(node, Sum):
            parts = tuple(self.literal_value(t) for t in node.terms)
            total = add_values([p.a for p in parts])
            return Val(total, total, frozenset(), parts)
        return self._value_of(node, record=False)

    def evaluate(self, node: Node) -> Val:
        """Evaluate a computation in both worlds, tying restated numbers."""
        return self._value_of(node, record=True)

    def _value_of(self, node: Node, record: bool) -> Val:  # noqa: PLR0915 - one branch per node type
        if isinstance(node, (Div, Mul, Call, Sum, Pow, Transpose, Sqrt)) and (
            node is not self.top_element or self.defining
        ):  # a chain without numbers (z = LN(x_2)) defines a name by what the document printed for it
            claimed = self._claimed_expression(node)
            if claimed is not None:
                return claimed
        if isinstance(node, Num):
            value = parse_claim(node.text).value
            seeded = self._seeded(node, value) if self.seeds else None
            if seeded is not None:
                return seeded
            if record:
                earlier = self.results.get(node.text) if _distinctive(node.text) else None
                recent = self.recent.get(node.text)
                if (
                    earlier is None
                    and recent is not None
                    and self.formula_index - recent[0] <= 2
                    and ("." in node.text or len(node.text.lstrip("-")) >= 2)  # a bare 1 is no evidence
                ):
                    # "1/√d_k = 0.25", then "0.25 × QKᵀ" at once: the same wrong number; "[0.71, 0,
                    # 0.71]" (1/√2 rounded), then "e^{0.71}": the same rounded result
                    earlier = recent[1]
                if earlier is None and record and "." in node.text:
                    # a result printed rounded before, and printed only with this truth (0.71 for
                    # 1/√2 in the scaled scores, then e^{0.71} three rows later): the same result
                    known = self.printed.get(node.text)
                    if (
                        known is not None
                        and known is not _AMBIGUOUS
                        and known.deps
                        and equal(known.a, known.b) is False
                    ):
                        earlier = known
                if earlier is not None:  # 14.3835 again: the result printed before, with its truth
                    self.tied[id(node)] = earlier
                    self._restated(node, earlier.deps, earlier.b, truth=earlier.truth)
                    if not earlier.truth:  # its world (b) held a rounded printed number: so does this one's
                        self.untied_rounded = True
                    return Val(earlier.a, earlier.b, earlier.deps, arith=earlier.arith, truth=earlier.truth)
                self.operands.append(node)
                places = parse_claim(node.text).places or 0
                if places >= 3 or (places and node.text in self.printed):
                    # world (b) now uses a number that may be a rounded result: one of three places
                    # or more (0.285, 2.1213), or a result printed before; an input (0.5, 2.0) is exact
                    self.untied_rounded = True
            return Val(value, value)
        if isinstance(node, Inf):
            return Val(sympy.oo, sympy.oo)
        if isinstance(node, Name):
            return self._lookup(node.name)
        if isinstance(node, Neg):
            inner = self._value_of(node.arg, record)
            return Val(scale(inner.a, -1), scale(inner.b, -1), inner.deps, arith=inner.arith, rows=inner.rows)
        if isinstance(node, Matrix):
            return self._matrix(node, record)
        if isinstance(node, Sum):
            tied = self._weighted_sum(node) if record else None
            parts = tied or tuple(self._value_of(t, record) for t in node.terms)
            parts = self._broadcast(parts)  # x − μ, X W_1 + b_1 in a block's document (sublayers.py)
            return Val(
                add_values([p.a for p in parts]),
                add_values([p.b for p in parts]),
                frozenset().union(*(p.deps for p in parts)),
                parts,
                all(p.arith for p in parts),
                rows=_summed_rows(parts),
            )
        if isinstance(node, Mul):
            term = self._weight_term(node) if record and node is self.top_element else None
            if term is not None:
                return term
            factors = [self._value_of(f, record) for f in node.factors]
            factors = self._scaled_by_gamma(node.factors, factors)  # gamma * (r - mu): entry by entry
            if node is self.top_element:
                self.head_factors = (node, factors)  # softmax(QKᵀ/√d_k) V: the next element may print each
            return self._product(factors)
        if isinstance(node, Div):
            num = self._value_of(node.num, record)
            if (
                record
                and isinstance(node.num, Matrix)
                and isinstance(node.den, Num)
                and _is_row(num.a)
                and _near_sum(num.a, node.den.text)
            ):
                den = self._normaliser(node.den, num, node.num)  # [e1, e2, e3] / 7.3461: their sum
            else:
                den = self._value_of(node.den, record)
            if is_matrix(den.a):
                raise Unverifiable("division by a matrix")
            if den.a == 0 or den.b == 0:
                raise DivisionByZeroError(f"{self.subject}: division by zero")
            return Val(
                scale(num.a, 1 / den.a),
                scale(num.b, 1 / den.b),
                num.deps | den.deps,
                arith=num.arith and den.arith,
                rows=rows_joined(num.rows, den.deps),
            )
        if isinstance(node, Sqrt):
            tied = self._root_of_variance(node.arg) if record else None  # √3.70001 after σ² = 3.7
            arg = tied or self._scalar(self._value_of(node.arg, record), "a square root")
            index = self._scalar(self._value_of(node.index, record), "a root") if node.index else Val(2, 2)
            if node.index is None and isinstance(node.arg, Name) and getattr(arg.b, "is_Integer", False):
                printed = self._claimed_expression(Sqrt(0, Num(0, str(arg.b)), None))
                if printed is not None and not is_matrix(printed.a):
                    return printed  # √d_k with d_k = 2 after "√2 ≈ 1.4142": the document's 1.4142
            return Val(  # structural for a large radicand (sympy.root would run evalf on all of it)
                block.root(arg.a, index.a), block.root(arg.b, index.b), arg.deps | index.deps, arith=False
            )
        if isinstance(node, Pow):
            variance = self._variance(node)  # σ² (sublayers.py)
            if variance is not None:
                return variance
            base = self._value_of(node.base, record)
            tied = record and not isinstance(node.exponent, Num)  # the 2 of σ^2 restates nothing
            exponent = self._scalar(self._value_of(node.exponent, tied), "an exponent")
            if is_matrix(base.a) and 1 in base.a.shape and base.a.shape != (1, 1):
                powered = _entrywise_power(base, exponent)  # (z − μ)^2 of a vector: entry by entry, as numpy
                if powered is not None:
                    return powered
            if is_matrix(base.a):
                raise Unverifiable("a power of a matrix")
            where = self.subject or "power"
            return Val(
                safe_power(base.a, exponent.a, where),
                safe_power(base.b, exponent.b, where),
                base.deps | exponent.deps,
            )
        if isinstance(node, Transpose):
            inner = self._value_of(node.arg, record)
            if not is_matrix(inner.a):
                return inner
            return Val(stages.transpose(inner.a), stages.transpose(inner.b), inner.deps, arith=inner.arith)
        if isinstance(node, Call):
            return self._call(node, record)
        if isinstance(node, Unsupported):
            raise Unverifiable(f"uses {node.reason}")
        raise Unverifiable(f"cannot evaluate {type(node).__name__}")

    def _scalar(self, value: Val, what: str) -> Val:
        if is_matrix(value.a) and value.a.shape == (1, 1):  # v_1 · v_1 of 1-vectors is a number
            return dataclasses.replace(value, a=entry_of_1x1(value.a), b=entry_of_1x1(value.b), rows=None)
        if is_matrix(value.a):
            raise Unverifiable(f"{what} of a matrix")
        return value

    def _call(self, node: Call, record: bool) -> Val:
        name = node.name.lower()
        if (
            name == "concat"
            and len(node.args) == 1
            and isinstance(node.args[0], Unsupported)
            and self.last_concat is not None
            and "ellipsis" in node.args[0].reason
        ):
            return self.last_concat  # Concat(\dots) W_O, after Concat(O^{(1)}, O^{(2)}) was printed
        args = [self._value_of(arg, record) for arg in node.args]
        deps = frozenset().union(*(arg.deps for arg in args))
        if name in _OF_A_VECTOR and len(args) >= 2 and not any(is_matrix(arg.a) for arg in args):
            args = [_vector_of(args)]  # softmax(0.29, 0.21, 0.51): a function of a vector, given its entries
        if name == HADAMARD and len(args) == 2:  # γ ⊙ x̂: entry by entry (a number or a row broadcast)
            return self._entrywise(*args)
        if name == "softmax" and len(args) == 1:
            arg = args[0]
            a, b = (
                (arg.a, arg.b)
                if is_matrix(arg.a)
                else (ImmutableMatrix([[arg.a]]), ImmutableMatrix([[arg.b]]))
            )
            return Val(stages.softmax_rows(a), stages.softmax_rows(b), deps, arith=False, rows=arg.rows)
        if (
            name == "causal" and len(args) == 1 and is_matrix(args[0].a)
        ):  # scores.masked_fill(tril == 0, -inf)
            arg = args[0]
            mask = stages.causal_mask(arg.a.rows, arg.a.cols)
            return Val(
                stages.scale_scores(arg.a, 1, mask),
                stages.scale_scores(arg.b, 1, mask),
                deps,
                arith=arg.arith,
                rows=arg.rows,
            )
        if name in ("rows", "cols") and len(args) == 1 and is_matrix(args[0].a):  # K.shape[-1] in code
            count = args[0].a.rows if name == "rows" else args[0].a.cols
            return Val(sympy.Integer(count), sympy.Integer(count))
        if name == "np.exp" and len(args) == 1 and is_matrix(args[0].a):  # code's exp: entry by entry
            arg = args[0]
            return Val(
                arg.a.applyfunc(bounded_exp), arg.b.applyfunc(bounded_exp), deps, arith=False, rows=arg.rows
            )
        if name == DEGREES and len(args) == 1:  # 30^\circ: in radians
            arg = self._scalar(args[0], "an angle")
            return Val(arg.a * sympy.pi / 180, arg.b * sympy.pi / 180, deps, arith=arg.arith)
        if name in _ELEMENTARY and len(args) == 1 and (name in ("sin", "cos") or not is_matrix(args[0].a)):
            arg = self._scalar(args[0], name)  # exact: sin(1/100) stays sin(1/100)
            return Val(_ELEMENTARY[name](arg.a), _ELEMENTARY[name](arg.b), deps, arith=False)
        if name in ("mean", "np.mean") and len(args) == 1 and is_matrix(args[0].a) and 1 in args[0].a.shape:
            arg = args[0]  # mean(x^2): the mean of one vector's entries
            count = len(arg.a)
            return Val(sympy.Add(*arg.a) / count, sympy.Add(*arg.b) / count, deps, arith=False)
        if name in ("exp", "np.exp") and len(args) == 1:
            arg = self._scalar(args[0], "exp")
            return Val(bounded_exp(arg.a), bounded_exp(arg.b), deps, arith=False)
        if name == "concat" and all(is_matrix(arg.a) for arg in args):
            return Val(
                stages.hconcat([a.a for a in args]),
                stages.hconcat([a.b for a in args]),
                deps,
                arith=all(a.arith for a in args),
            )
        bound = node.name in self.env and len(args) == 1  # W(x): W times x, unless W names a stage
        stage = None if bound and not self._is_stage_call(node) else self._block_call(node, args)
        if stage is not None:  # LayerNorm, ReLU, FFN, PE(pos, i) (sublayers.py)
            return stage
        if bound:
            return self._product([self._lookup(node.name), args[0]])
        raise Unverifiable(f"the function {_display_name(node.name)} is not defined in the document")

    def _entrywise(self, x: Val, y: Val) -> Val:
        """x ⊙ y, entry by entry (a number, or a row in a document about the block, broadcast)."""
        x, y = self._broadcast((x, y))
        if not (is_matrix(x.a) and is_matrix(y.a)):
            return self._product([x, y])
        if x.a.shape != y.a.shape:
            raise ShapeError(f"{self.subject}: ⊙ of a {shape_text(x.a)} and a {shape_text(y.a)} matrix")
        return Val(
            x.a.multiply_elementwise(y.a),
            x.b.multiply_elementwise(y.b),
            x.deps | y.deps,
            arith=x.arith and y.arith,
            rows=rows_joined(x.rows, y.deps),
        )

    def _product(self, values: list[Val]) -> Val:
        result = values[0]
        for value in values[1:]:
            if (
                is_matrix(result.a)
                and is_matrix(value.a)
                and result.a.rows == value.a.rows == 1
                and result.a.cols == value.a.cols
            ):
                self.last_dot = (result, value)  # [1, 2] · [1, 1]: the next element may write it out
            try:
                product_a = multiply(result.a, value.a)
                product_b = multiply(result.b, value.b)
            except ShapeError as err:
                raise ShapeError(f"{self.subject}: {err}") from None
            rows = None
            if is_matrix(product_a) and is_matrix(result.a) and product_a.rows == result.a.rows:
                rows = rows_joined(result.rows, value.deps)  # row i of XY comes from row i of X
            elif is_matrix(product_a) and not is_matrix(result.a):
                rows = rows_joined(value.rows, result.deps)
            result = Val(
                product_a,
                product_b,
                result.deps | value.deps,
                arith=result.arith and value.arith,
                rows=rows,
            )
        return result

    def _matrix(self, node: Matrix, record: bool) -> Val:
        cols = len(node.rows[0])
        if any(len(row) != cols for row in node.rows):
            raise ShapeError(
                f"{self.subject}: a ragged matrix (row lengths {', '.join(str(len(r)) for r in node.rows)})"
            )
        printed = [[printed_value(cell) for cell in row] for row in node.rows]
        if record and all(v is not None for row in printed for v in row):
            tie = self._find_tie(ImmutableMatrix(printed))
            if tie is not None:
                return self._tied(node, tie)
        cells = [[self._value_of(cell, record) for cell in row] for row in node.rows]
        for row in cells:
            for cell in row:
                if is_matrix(cell.a):
                    raise Unverifiable("a matrix inside a matrix")
        return Val(
            ImmutableMatrix([[c.a for c in row] for row in cells]),
            ImmutableMatrix([[c.b for c in row] for row in cells]),
            frozenset().union(*(c.deps for row in cells for c in row)),
            arith=all(c.arith for row in cells for c in row),
            rows=tuple(frozenset().union(*(c.deps for c in row)) for row in cells),
        )


def _seed_value(place: tuple[int, int], value: Any, true: Any, wrong: bool) -> Val:
    """A printed number ``value`` at ``place`` whose true value the explanation found."""
    truth = sympy.Rational(true.numerator, true.denominator) if isinstance(true, Fraction) else Known(*true)
    differs = equal(value, truth) is not True
    return Val(value, truth, frozenset({(place[0], wrong)}) if differs else frozenset())


def _entrywise_power(base: Val, exponent: Val) -> Val | None:
    """A row or column raised to a small positive integer, entry by entry (a vector has no
    matrix power, so ``x^2`` can only mean its squares); None for another exponent."""
    k = exponent.b
    if not (getattr(k, "is_Integer", False) and 1 <= k <= 4 and exponent.a == k):
        return None
    a = base.a.applyfunc(lambda v: v**k)
    b = base.b.applyfunc(lambda v: v**k)
    return Val(a, b, base.deps | exponent.deps, arith=base.arith, rows=base.rows)


def _near_sum(row: ImmutableMatrix, text: str) -> bool:
    """Whether ``[x_1, …, x_n] / S`` normalises (S is the sum of the x, positive, within a
    tenth of it: a softmax row written out) rather than scales (``[10, 0, -5] / 2``)."""
    try:
        values = [float(x) for x in row]
        total, printed = sum(values), float(parse_claim(text).value)
    except (TypeError, ValueError):
        return False
    return all(v > 0 for v in values) and total > 0 and abs(printed - total) <= total / 10
