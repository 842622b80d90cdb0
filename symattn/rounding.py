"""The one rounding rule, without heavy imports: half away from zero ("half-up" as taught in school).

:mod:`symattn.exact` (certified decimals, ``Rounder`` on balls), :mod:`symattn.numeric`
and :mod:`symattn.fix` (which must not import SymPy) all round with :func:`round_half_away`.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["round_half_away"]


def round_half_away(value: Fraction) -> int:
    """The integer nearest ``value``, halves away from zero (2.5 -> 3, -2.5 -> -3): the one rule.

    >>> round_half_away(Fraction(5, 2)), round_half_away(Fraction(-5, 2)), round_half_away(Fraction(-7, 3))
    (3, -3, -2)
    """
    units = math.floor(abs(value) + Fraction(1, 2))
    return -units if value < 0 else units
