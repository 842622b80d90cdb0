"""One rounding rule and one table of limits shared by exact, numeric, block and oracle.

The true roundings come from Python's decimal module (ROUND_HALF_UP rounds
half away from zero), not from symattn.
"""

from __future__ import annotations

import itertools
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import flint
from hypothesis import given
from hypothesis import strategies as st

from symattn import block, exact, limits, numeric, oracle


def test_every_module_reads_the_one_table_of_limits() -> None:
    for module in (exact, numeric, oracle):
        assert module.MAX_PREC == limits.MAX_PREC
    assert block.MAX_PREC == limits.MAX_PREC and block.RELU_PREC == limits.RELU_PREC
    assert exact.MAX_EXP_ARGUMENT == limits.MAX_EXP_ARGUMENT and exact.START_PREC == limits.START_PREC
    schedule = list(limits.precisions(10))
    assert schedule[0] == limits.START_PREC + 33 and schedule[-1] <= limits.MAX_PREC
    assert all(b == 2 * a for a, b in itertools.pairwise(schedule))


def decimal_rounding(value: Fraction, places: int) -> str:
    with localcontext() as context:
        context.prec = 200
        q = Decimal(value.numerator) / Decimal(value.denominator)
        text = str(q.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    return "0" + text[2:] if text.startswith("-0") and set(text[1:]) <= {"0", "."} else text


fractions = st.builds(Fraction, st.integers(-(10**6), 10**6), st.integers(1, 10**4))


@given(value=fractions, places=st.integers(0, 5))
def test_one_rounding_rule_for_fractions_and_balls(value, places) -> None:
    expected = decimal_rounding(value, places)
    assert exact._format_scaled(exact.round_half_away(value * 10**places), places) == expected
    assert exact.certified_decimal(value, places) == expected
    ball = flint.arb(flint.fmpq(value.numerator, value.denominator))  # exact when the denominator is 2^k
    text = exact.round_ball(ball, places)
    assert text is None or text == expected
    units = numeric.round_units(ball, places)
    assert (None if units is None else numeric.format_units(units, places)) == text


def test_halves_round_away_from_zero_on_both_paths() -> None:
    for value, places, text in (
        (Fraction(1, 4), 1, "0.3"),
        (Fraction(-1, 4), 1, "-0.3"),
        (Fraction(5, 2), 0, "3"),
    ):
        assert exact.certified_decimal(value, places) == text
        assert exact.round_ball(flint.arb(flint.fmpq(value.numerator, value.denominator)), places) == text
