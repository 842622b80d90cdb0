"""Printed numbers as intervals: what a computation of rounded numbers allows.

A document that prints ``e^0.7071 ≈ 2.0281`` computed from the unrounded
value, so its 2.0281 need not equal e^{0.7071} rounded.  Each printed decimal
with k places stands for any value within half a unit of its last place; the
computation is evaluated on those intervals with python-flint arb balls, and
a printed result is consistent with the document's numbers when its own
rounding interval meets the ball.  Names take their values by the document's
numbers, widened by half a unit of each printed cell's last place.
"""

from __future__ import annotations

from typing import Any

from flint import arb

from symattn.exact import enclose, parse_claim
from symattn.latexparse import (
    HADAMARD,
    Call,
    Div,
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
    literals,
)
from symattn.verify.shapes import names_in

__all__ = ["ball_of", "meets"]

_PREC = 128
#: Largest matrix evaluated on intervals (cells).
MAX_CELLS = 400


class _NoBall(Exception):
    pass


def _num(text: str, shrink: int = 0) -> arb:
    """A printed number as the interval it stands for: half a unit of its last place
    each side (narrowed by 2^-shrink, to leave the ends out), or itself for an integer."""
    claim = parse_claim(text)
    value = claim.value
    mid = arb(int(value.p)) / int(value.q)
    if claim.places is None:
        return mid
    half = arb(10) ** claim.scale / (2 * 10**claim.places)
    return mid + arb(0, half * (1 - arb(2) ** -shrink) if shrink else half)


def _widen(ball: arb, half: Any) -> arb:
    if not half:
        return ball
    return ball + arb(0, arb(int(half.p)) / int(half.q))


def _lift(value: Any, halfwidth: Any = None) -> Any:
    try:
        if getattr(value, "is_Matrix", False):
            if value.rows * value.cols > MAX_CELLS:
                raise _NoBall
            rows = halfwidth if isinstance(halfwidth, list) else None
            return [
                [_widen(enclose(value[i, j], _PREC), rows[i][j] if rows else None) for j in range(value.cols)]
                for i in range(value.rows)
            ]
        if getattr(value, "free_symbols", None):
            raise _NoBall
        return _widen(enclose(value, _PREC), halfwidth if not isinstance(halfwidth, list) else None)
    except _NoBall:
        raise
    except Exception:
        raise _NoBall from None


def _is_mat(x: Any) -> bool:
    return isinstance(x, list)


def _is_vector(x: list) -> bool:
    """One row or one column of more than one entry."""
    return (len(x) == 1 and len(x[0]) > 1) or (len(x) > 1 and all(len(row) == 1 for row in x))


def _map2(x: Any, y: Any, op: Any) -> Any:
    if _is_mat(x) and _is_mat(y):
        if len(x[0]) == len(y[0]) and 1 in (len(x), len(y)) and len(x) != len(y):
            x, y = (x * len(y), y) if len(x) == 1 else (x, y * len(x))  # a bias row, broadcast (numpy)
        if len(x) != len(y) or len(x[0]) != len(y[0]):
            raise _NoBall
        return [[op(p, q) for p, q in zip(rx, ry, strict=True)] for rx, ry in zip(x, y, strict=True)]
    if _is_mat(x):
        return [[op(p, y) for p in row] for row in x]
    if _is_mat(y):
        return [[op(x, q) for q in row] for row in y]
    return op(x, y)


def _product(x: Any, y: Any) -> Any:
    if _is_mat(x) and _is_mat(y):
        if len(x) == len(y) == 1 and len(x[0]) == len(y[0]) > 1:
            return sum((p * q for p, q in zip(x[0], y[0], strict=True)), arb(0))
        if len(x[0]) != len(y):
            raise _NoBall
        return [
            [sum((x[i][k] * y[k][j] for k in range(len(y))), arb(0)) for j in range(len(y[0]))]
            for i in range(len(x))
        ]
    return _map2(x, y, lambda p, q: p * q)


def _eval(node: Node, lookup: Any, depth: int = 0) -> Any:
    if depth > 60:
        raise _NoBall
    claimed = getattr(lookup, "expression", None)
    if claimed is not None and not isinstance(node, (Num, Name)):
        found = claimed(node)
        if found is not None:
            return _lift(*found)
    if isinstance(node, Num):
        tied = getattr(lookup, "tied", None)
        true = tied(node) if tied is not None else None
        printed = _num(node.text)
        if true is None:
            return printed
        if not isinstance(true, arb):
            return _lift(true)
        return true if true.rad() < printed.rad() else printed  # the narrower: its computation's, or its own
    if isinstance(node, Name):
        return _lift(*lookup(node.name))
    if isinstance(node, Neg):
        return _map2(_eval(node.arg, lookup, depth + 1), arb(-1), lambda p, q: p * q)
    if isinstance(node, Sum):
        parts = [_eval(t, lookup, depth + 1) for t in node.terms]
        total = parts[0]
        for part in parts[1:]:
            total = _map2(total, part, lambda p, q: p + q)
        return total
    if isinstance(node, Mul):
        parts = [_eval(f, lookup, depth + 1) for f in node.factors]
        total = parts[0]
        for part in parts[1:]:
            total = _product(total, part)
        return total
    if isinstance(node, Div):
        den = _eval(node.den, lookup, depth + 1)
        if _is_mat(den) or den.contains(0):
            raise _NoBall
        return _map2(_eval(node.num, lookup, depth + 1), den, lambda p, q: p / q)
    if isinstance(node, Sqrt) and node.index is None:
        arg = _eval(node.arg, lookup, depth + 1)
        if _is_mat(arg) or arg.lower() < 0:
            raise _NoBall
        return arg.sqrt()
    if isinstance(node, Call) and node.name == HADAMARD and len(node.args) == 2:
        x, y = (_eval(a, lookup, depth + 1) for a in node.args)
        return _map2(x, y, lambda p, q: p * q)  # entry by entry (a number broadcast)
    if isinstance(node, Call) and len(node.args) == 1:
        return _call(node, _eval(node.args[0], lookup, depth + 1), lookup)
    if isinstance(node, Pow) and isinstance(node.exponent, Num) and "." not in node.exponent.text:
        base = _eval(node.base, lookup, depth + 1)
        n = int(node.exponent.text)
        if n > 64 or (_is_mat(base) and not _is_vector(base)):
            raise _NoBall  # a vector's power is entry by entry, as numpy's (the evaluator's rule)
        return [[p**n for p in row] for row in base] if _is_mat(base) else base**n
    if isinstance(node, Matrix):
        rows = [[_eval(c, lookup, depth + 1) for c in row] for row in node.rows]
        if any(_is_mat(c) for row in rows for c in row) or len({len(r) for r in rows}) != 1:
            raise _NoBall
        return rows
    if isinstance(node, Transpose):
        inner = _eval(node.arg, lookup, depth + 1)
        return [list(col) for col in zip(*inner, strict=True)] if _is_mat(inner) else inner
    raise _NoBall


def _call(node: Call, arg: Any, lookup: Any) -> Any:
    """exp, FFN and mean of one argument on intervals."""
    if node.name == "exp":
        if _is_mat(arg) or arg.upper() > 10_000:
            raise _NoBall
        return arg.exp()
    if node.name.lower() == "ffn":  # FFN(x_2) of a row printed rounded (≈)
        ffn = getattr(lookup, "ffn", None)
        if ffn is None or not _is_mat(arg):
            raise _NoBall
        return ffn(arg)
    if node.name in ("mean", "np.mean"):  # mean(x^2): the mean of one vector's entries
        if not (_is_mat(arg) and _is_vector(arg)):
            raise _NoBall
        entries = [p for row in arg for p in row]
        return sum(entries, arb(0)) / len(entries)
    raise _NoBall


def ball_of(node: Node, lookup: Any) -> Any | None:
    """The computation ``node`` on intervals (an arb, or rows of arbs), or None
    when it holds no rounded number or cannot be evaluated on intervals."""
    rounded = any(isinstance(n, Num) and parse_claim(n.text).places for n in literals(node))
    named = any(_rounded_name(name, lookup) for name in sorted(names_in(node)))
    if not (rounded or named or getattr(lookup, "has_expressions", False)):
        return None
    try:
        return _eval(node, lookup)
    except Exception:  # _NoBall, or a value arb cannot enclose: no interval, the strict test stands
        return None


def _rounded_name(name: str, lookup: Any) -> bool:
    try:
        half = lookup(name)[1]
    except Exception:
        return False
    if isinstance(half, list):
        return any(h for row in half for h in row)
    return bool(half)


def meets(text: str, ball: Any) -> bool:
    """Whether the printed number's rounding interval meets the ball.

    The interval is taken open (a hair narrower than half a unit each side), so
    an exact value on a rounding boundary (1/8 for 0.12) does not meet it."""
    return bool(_num(text, shrink=20).overlaps(ball))  # radii keep 30 bits: shrink by more than that
