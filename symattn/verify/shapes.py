"""What a syntax tree looks like: numbers only, a claim, names it uses.

These predicates decide how a chain element is read (a claim of printed
numbers, an input, or a computation); they never evaluate anything.
"""

from __future__ import annotations

from typing import Any

from symattn.exact import parse_claim
from symattn.latexparse import (
    Call,
    Chain,
    Div,
    Inf,
    Matrix,
    Mul,
    Name,
    Neg,
    Node,
    Num,
    Sum,
    Transpose,
    Unsupported,
    literals,
)
from symattn.verify.values import NEG_INF

__all__ = [
    "has_matrix",
    "is_claim_shape",
    "is_literal",
    "literals_of",
    "names_in",
    "printed",
    "wants_scalar_reader",
]


def printed(node: Node) -> Any | None:
    """The exact value of a plain printed entry (number, -number, -∞), else None."""
    if isinstance(node, Num):
        return parse_claim(node.text).value
    if isinstance(node, Neg) and isinstance(node.arg, Inf):
        return NEG_INF
    return None


def is_literal(node: Node) -> bool:
    """Numbers only: no names, no functions (a claim or an input)."""
    if isinstance(node, (Num, Inf)):
        return True
    if isinstance(node, Neg):
        return is_literal(node.arg)
    if isinstance(node, Matrix):
        return all(is_literal(cell) for row in node.rows for cell in row)
    if isinstance(node, Sum):
        return all(is_literal(t) for t in node.terms)
    if isinstance(node, Mul):
        return all(is_literal(f) for f in node.factors)
    if isinstance(node, Div):
        return is_literal(node.num) and is_literal(node.den)
    return False


def is_claim_shape(node: Node) -> bool:
    """Printed numbers standing for a value: a number, a block of numbers
    (cells may show arithmetic, ``[0.4+0, 0.2]``), or a sum of such blocks."""
    if isinstance(node, (Num, Inf)) or (isinstance(node, Neg) and isinstance(node.arg, (Num, Inf))):
        return True
    if isinstance(node, Matrix):
        return is_literal(node)
    if isinstance(node, Transpose):  # a column written as [1, 2, 3]^T
        return isinstance(node.arg, Matrix) and is_literal(node.arg)
    if isinstance(node, Sum):
        return all(isinstance(t, Matrix) and is_literal(t) for t in node.terms)
    return False


def names_in(node: Any) -> set[str]:
    """Every name a syntax tree refers to."""
    if isinstance(node, Name):
        return {node.name} | ({node.name.split("_", 1)[0]} if "_" in node.name else set())
    found: set[str] = set()
    if isinstance(node, tuple):
        for item in node:
            found |= names_in(item)
    elif isinstance(node, Node):
        if isinstance(node, Call):
            found.add(node.name)
        for field_name in node.__dataclass_fields__:
            if field_name != "offset":
                found |= names_in(getattr(node, field_name))
    return found


def wants_scalar_reader(node: Any) -> bool:
    """Whether a tree holds a scalar function only latex2sympy2_extended reads."""
    if isinstance(node, Unsupported):
        return node.scalar
    if isinstance(node, Matrix):
        return False
    return any(wants_scalar_reader(child) for child in _children(node))


def _children(node: Any) -> tuple:
    """The sub-nodes of a tuple or a parse node (its position is not a child)."""
    if isinstance(node, tuple):
        return node
    if isinstance(node, Node):
        return tuple(getattr(node, f) for f in node.__dataclass_fields__ if f != "offset")
    return ()


def literals_of(chain: Chain) -> list[Num]:
    """Every numeric literal of a chain."""
    return [num for element in chain.elements for num in literals(element)]


def has_matrix(node: Any) -> bool:
    if isinstance(node, Matrix):
        return True
    return any(has_matrix(child) for child in _children(node))
