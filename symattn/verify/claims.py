"""Findings, and the judgement of one printed number in the two worlds.

World (a) holds the document's own earlier numbers, world (b) the true values
computed exactly from the document's inputs.  A printed number is

* ``ok`` when it holds against the true value;
* ``carried`` when it holds in (a) and fails in (b): its value depends on an
  earlier printed number that differs from the truth (``carried_from`` is the
  earliest wrong one, or the earliest rounded one when none is wrong);
* ``rounding`` when it is the true value truncated toward zero at its places;
* ``slip`` when it also fails against the document's own numbers and those
  are exact rationals (an arithmetic mistake);
* ``wrong`` otherwise (e.g. an assumed softmax weight).

All decisions go through :mod:`symattn.exact` (certified enclosures).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy

from symattn.exact import Known, certified_decimal, claim_holds, claim_kind, enclose, parse_claim
from symattn.verify.finding import Finding

__all__ = ["TIE_DIGITS", "Finding", "Judgement", "carried_line", "evidence_digits", "exact_text", "judge"]

#: Longest closed form printed in a report.
MAX_EXACT_CHARS = 240
#: Sums with at most this many operations are shown over one denominator.
MAX_TOGETHER_OPS = 40


@dataclass(frozen=True)
class Judgement:
    """The verdict on one printed number: status, kind, true decimal, closed form."""

    status: str
    kind: str
    value: str | None
    exact: str | None
    carried_from: int | None


#: A closed form with more tree nodes than this is not printed (printing walks the tree, not the DAG).
MAX_EXACT_NODES = 600


#: How many digits past each number's first significant one the restated rows of a block most
#: of whose rows are new must carry between them to be taken as restated: ``[0.688, 0.530,
#: 0.313, 0.546]`` is evidence (7), two rows ``[0.3, 0.4, 0.5, 0.6]`` of a weight matrix are
#: chance (0).
TIE_DIGITS = 4


def evidence_digits(text: str) -> int:
    """The digits of a printed number past its first significant one (``0.530``: 1; ``1.0``: 0)."""
    digits = text.lstrip("+-").replace(".", "").lstrip("0")
    digits = digits.rstrip("0") if "." in text else digits
    return max(len(digits) - 1, 0)


def larger_than(value: Any, limit: int) -> bool:
    """Whether ``value``'s expression tree has more than ``limit`` nodes (stops at the limit)."""
    if not isinstance(value, sympy.Basic):
        return False
    return any(count > limit for count, _ in enumerate(sympy.preorder_traversal(value), 1))


@lru_cache(maxsize=4096)
def exact_text(value: Any) -> str | None:
    """A short printable closed form of an exact value (cached: cells repeat); None for a
    value known only by its enclosure (:class:`symattn.exact.Known`): it has no closed form.

    Small sums of fractions are put over one denominator (``sympy.together``
    on a few operations only; nothing like ``simplify`` is ever called).
    """
    if larger_than(
        value, MAX_EXACT_NODES
    ):  # a layer's nested roots: the tree is exponentially larger than its DAG
        return f"(a closed form of more than {MAX_EXACT_NODES} terms)"
    if isinstance(value, sympy.Basic) and value.has(Known):
        return None
    if isinstance(value, sympy.Add) and sympy.count_ops(value) <= MAX_TOGETHER_OPS:
        value = sympy.together(value)
    # sorting the terms of a long form costs more than printing it: its terms stay in tree order
    text = sympy.sstr(value, order="none") if larger_than(value, 150) else sympy.sstr(value)
    return text if len(text) <= MAX_EXACT_CHARS else text[: MAX_EXACT_CHARS - 3] + "..."


def _holds(text: str, value: Any) -> bool:
    if value in (sympy.oo, -sympy.oo):
        return False
    return claim_holds(text, value)


def carried_line(deps: frozenset[tuple[int, bool]]) -> int:
    """The line a carried error comes from: the earliest wrong number, or, when
    only rounded numbers lie upstream, the earliest of those."""
    wrong = [line for line, is_wrong in deps if is_wrong]
    return min(wrong) if wrong else min(line for line, _ in deps)


def judge(
    text: str, world_a: Any, world_b: Any, deps: frozenset[tuple[int, bool]], *, arith: bool = True
) -> Judgement:
    """Judge the printed number ``text`` against its value in both worlds.

    Args:
        text: the printed literal, e.g. ``"0.3"``.
        world_a: the value computed from the document's own earlier numbers.
        world_b: the true value.
        deps: ``(line, wrong)`` of the earlier printed numbers that ``world_a``
            depends on and that differ from their true values (wrong ones, and
            correct roundings).
        arith: ``world_a`` was built by exact arithmetic from printed numbers
            (no softmax, exp or roots), so a miss there is an arithmetic slip.

    Returns:
        A :class:`Judgement`.

    Raises:
        NotNumericError, ValueTooLargeError, UndecidedRoundingError: from
        :mod:`symattn.exact` when a value cannot be decided.

    >>> judge("0.3", sympy.Rational(3, 10), sympy.Rational(1, 5), frozenset({(7, True)})).kind
    'carried'
    """
    claim = parse_claim(text)
    places = claim.places or 0
    if world_b in (sympy.oo, -sympy.oo):
        value = "-inf" if world_b == -sympy.oo else "inf"
    else:
        value = certified_decimal(world_b, places + 3)
    exact = exact_text(world_b)
    if _holds(text, world_b):
        return Judgement("ok", "ok", value, exact, None)
    ok_a = _holds(text, world_a)
    if ok_a and deps:
        return Judgement("wrong", "carried", value, exact, carried_line(deps))
    if world_b not in (sympy.oo, -sympy.oo) and claim_kind(claim, world_b) == "rounding":
        return Judgement("wrong", "rounding", value, exact, None)
    if not ok_a and arith and getattr(world_a, "is_Rational", False):
        return Judgement("wrong", "slip", value, exact, None)
    return Judgement("wrong", "wrong", value, exact, None)


#: A printout of binary floats may be off by this much relative to the true
#: value beyond its printed rounding (float32 keeps 24 bits; a few operations
#: of an attention head lose a few more): 2^-20.
FLOAT_TOLERANCE = sympy.Rational(1, 2**20)


def claim_fits(text: str, value: Any) -> bool:
    """Whether the printed number ``text`` is a right reading of ``value``
    (False for infinities; raises for values that cannot be decided)."""
    if value in (sympy.oo, -sympy.oo) or getattr(value, "is_Matrix", False):
        return False
    return _holds(text, value)


def within_float_rounding(text: str, value: Any) -> bool:
    """Whether a printed binary float is the true value up to float32 rounding:
    ``|claimed - true| <= 10^-places / 2 + 2^-20 * max(1, |true|)``."""
    if value in (sympy.oo, -sympy.oo) or getattr(value, "free_symbols", None):
        return False
    claim = parse_claim(text)
    half = claim.unit() / (2 * 10 ** (claim.places or 0)) if claim.places is not None else 0
    difference = enclose(claim.value - value, 128)
    bound = enclose(half + FLOAT_TOLERANCE * sympy.Max(1, abs(value)), 128)
    return bool(difference.abs_upper() <= bound.abs_lower())
