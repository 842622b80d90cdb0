"""Steps that restate the side before them with numbers put in (``sin(1/10000^{2/512}) =
sin(1/1.0027)``): the two sides are aligned node by node, and each number written where the
side before has an expression claims that expression's value.

A reader of the page reads such a step as a calculator trace: the author evaluated one part
and wrote down the result.  The number is judged against that part (in both worlds: the
document's own numbers, and the truth carried along the chain), and the step stands for the
side before it, so what follows is judged against the truth, not against the rounded trace.
"""

from __future__ import annotations

from symattn.latexparse import Call, Div, Matrix, Mul, Name, Neg, Node, Num, Pow, Sqrt, Sum

__all__ = ["align"]

#: How many numbers one step may put in before it is read as something else.
MAX_PUT_IN = 8


def align(before: Node, after: Node) -> list[tuple[Node, Num | Matrix]] | None:
    """The pairs (part of ``before``, number of ``after`` written in its place), when the two
    sides have one structure except where ``after`` has a number; None when they do not line
    up (another expression, another function, a name changed) or nothing was put in."""
    pairs: list[tuple[Node, Num | Matrix]] = []
    if _numbers_only(after):
        return None  # a printed result, not a step with values put in
    if not _walk(before, after, pairs) or not pairs or len(pairs) > MAX_PUT_IN:
        return None
    return pairs


def _walk(before: Node, after: Node, pairs: list[tuple[Node, Num | Matrix]]) -> bool:
    if isinstance(after, Matrix) and _numbers_only(after) and not isinstance(before, (Matrix, Name, Num)):
        pairs.append((before, after))  # Q K^T / √2 = [[1.25, …]] / 1.414
        return True
    if isinstance(after, Num):
        if isinstance(before, Num) and before.text == after.text:
            return True
        if isinstance(before, (Name, Num)):
            return False  # a name or a number replaced by a number: a value, not a computation
        pairs.append((before, after))
        return True
    if type(before) is not type(after):
        return False
    if isinstance(before, Name):
        return before.name == after.name  # type: ignore[attr-defined]
    children = _children(before, after)
    return children is not None and all(_walk(b, a, pairs) for b, a in children)


def _numbers_only(node: Node) -> bool:
    """A matrix printed as numbers: what a step puts in for a part whose value is a matrix."""
    return isinstance(node, Matrix) and all(isinstance(c, Num) for row in node.rows for c in row)


def _children(before: Node, after: Node) -> list[tuple[Node, Node]] | None:
    """The child pairs of two nodes of one kind, or None when their shapes differ."""
    if isinstance(before, Call) and isinstance(after, Call):
        same = before.name == after.name and len(before.args) == len(after.args)
        return list(zip(before.args, after.args, strict=True)) if same else None
    if isinstance(before, (Sum, Mul)) and isinstance(after, (Sum, Mul)):
        b_items = before.terms if isinstance(before, Sum) else before.factors
        a_items = after.terms if isinstance(after, Sum) else after.factors
        return list(zip(b_items, a_items, strict=True)) if len(b_items) == len(a_items) else None
    if isinstance(before, Div) and isinstance(after, Div):
        return [(before.num, after.num), (before.den, after.den)]
    if isinstance(before, Pow) and isinstance(after, Pow):
        return [(before.base, after.base), (before.exponent, after.exponent)]
    if isinstance(before, Neg) and isinstance(after, Neg):
        return [(before.arg, after.arg)]
    if isinstance(before, Sqrt) and isinstance(after, Sqrt):
        return [(before.arg, after.arg)] if before.index == after.index else None
    return None
