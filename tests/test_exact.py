"""exact.py: the entry grammar, certified decimals, and claims."""

import pickle
from fractions import Fraction

import flint
import pytest
import sympy

from symattn.errors import (
    DivisionByZeroError,
    NotExactError,
    NotNumericError,
    UnknownTokenError,
    ValueTooLargeError,
)
from symattn.exact import (
    certified_decimal,
    claim_holds,
    claim_kind,
    parse_claim,
    round_ball,
    to_exact,
    truncated_decimal,
)

u = sympy.exp(sympy.sqrt(2) / 2)
a = sympy.Symbol("a", real=True)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("3", sympy.Integer(3), id="int-string"),
        pytest.param("-1/2", sympy.Rational(-1, 2), id="fraction"),
        pytest.param("0.1", sympy.Rational(1, 10), id="decimal-is-exact"),
        pytest.param("0.25", sympy.Rational(1, 4), id="decimal"),
        pytest.param("1e-3", sympy.Rational(1, 1000), id="scientific"),
        pytest.param("sqrt(2)", sympy.sqrt(2), id="sqrt"),
        pytest.param("sqrt(8)/2", sympy.sqrt(2), id="sqrt-simplifies"),
        pytest.param("2^-3", sympy.Rational(1, 8), id="power"),
        pytest.param("-2^2", sympy.Integer(-4), id="unary-binds-looser"),
        pytest.param("exp(1)", sympy.E, id="exp"),
        pytest.param("a", a, id="symbol"),
        pytest.param("x_{11}", sympy.Symbol("x_{11}", real=True), id="subscript"),
        pytest.param("2*a + 1", 2 * a + 1, id="expression"),
        pytest.param(0.1, sympy.Rational(1, 10), id="float-from-repr"),
        pytest.param(Fraction(2, 3), sympy.Rational(2, 3), id="Fraction"),
        pytest.param(7, sympy.Integer(7), id="int"),
    ],
)
def test_to_exact_reads_entries(value, expected):
    assert to_exact(value) == expected


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        pytest.param(
            "__import__('os')",
            UnknownTokenError,
            "X[1,1]: cannot read \"__import__('os')\": unexpected \"__import__('os')\" "
            "(expected numbers, names, + - * / ^ and sqrt/exp/log)",
            id="code",
        ),
        pytest.param(
            "10^(10^10)",
            ValueTooLargeError,
            "X[1,1]: 10^10000000000 is too large to build exactly",
            id="tower",
        ),
        pytest.param(
            "exp(exp(exp(10)))",
            ValueTooLargeError,
            "X[1,1]: exp(exp(exp(10))) is too large to evaluate",
            id="exp-tower",
        ),
        pytest.param("1/0", DivisionByZeroError, "X[1,1]: division by zero in '1/0'", id="div0"),
        pytest.param("nan", NotExactError, "X[1,1]: 'nan' is not a finite real number", id="nan"),
        pytest.param("inf", NotExactError, "X[1,1]: 'inf' is infinite; only masks may hold -inf", id="inf"),
        pytest.param(True, NotExactError, "X[1,1]: True is a boolean, not a number", id="bool"),
    ],
)
def test_to_exact_refuses(value, error, message):
    with pytest.raises(error) as caught:
        to_exact(value, where="X[1,1]")
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("expr", "places", "expected"),
    [
        pytest.param(1 / (2 + u), 6, "0.248255", id="reference-a31"),
        pytest.param(u / (2 + u), 6, "0.503490", id="reference-a33"),
        pytest.param((1 + u) / (2 + u), 6, "0.751745", id="reference-o31"),
        pytest.param(sympy.Rational(1, 4), 1, "0.3", id="tie-half-away"),
        pytest.param(sympy.Rational(-1, 4), 1, "-0.3", id="negative-tie"),
        pytest.param(sympy.Rational(-1, 40), 1, "0.0", id="no-negative-zero"),
        pytest.param(sympy.sqrt(2), 0, "1", id="zero-places"),
        pytest.param(sympy.exp(-1000), 5, "0.00000", id="tiny"),
        pytest.param(sympy.exp(100), 2, "26881171418161354484126255515800135873611118.77", id="large"),
        pytest.param(-sympy.oo, 3, "-inf", id="masked"),
    ],
)
def test_certified_decimal(expr, places, expected):
    assert certified_decimal(expr, places) == expected


def test_certified_decimal_refuses_symbols_and_monsters():
    with pytest.raises(NotNumericError, match=r"^a has free symbols \(a\) and no decimal value$"):
        certified_decimal(a, 3)
    with pytest.raises(ValueTooLargeError):
        certified_decimal(sympy.exp(sympy.exp(sympy.exp(10))), 3)


def test_round_ball_only_decides_when_the_ball_does():
    flint.ctx.prec = 53
    assert round_ball(flint.arb(1) / 3, 4) == "0.3333"
    straddling = flint.arb("0.25", "0.001")  # contains the tie 0.25
    assert round_ball(straddling, 1) is None


@pytest.mark.parametrize(
    ("text", "value", "places"),
    [
        pytest.param("0.4", sympy.Rational(2, 5), 1, id="one-place"),
        pytest.param("0.40", sympy.Rational(2, 5), 2, id="two-places"),
        pytest.param("3", sympy.Integer(3), None, id="integer"),
        pytest.param("-0.25", sympy.Rational(-1, 4), 2, id="negative"),
    ],
)
def test_parse_claim(text, value, places):
    claim = parse_claim(text)
    assert (claim.text, claim.value, claim.places) == (text, value, places)


@pytest.mark.parametrize(
    ("claimed", "true", "kind"),
    [
        pytest.param("0.4", sympy.exp(sympy.sqrt(2) / 2) / (1 + 2 * u), "ok", id="row1-rounds"),
        pytest.param("0.3", 1 / (2 + u), "wrong", id="assumed-weight"),
        pytest.param("0.2482", 1 / (2 + u), "rounding", id="truncated"),
        pytest.param("0.2483", 1 / (2 + u), "ok", id="rounded"),
        pytest.param("1", 2 / (2 + u) + u / (2 + u), "ok", id="integer-proved"),
        pytest.param("1", 3 / (2 + u) + u / (2 + u), "wrong", id="integer-wrong"),
        pytest.param("0.25", sympy.Rational(1, 4), "ok", id="exact-decimal"),
    ],
)
def test_claim_kind(claimed, true, kind):
    assert claim_kind(claimed, true) == kind
    assert claim_holds(claimed, true) == (kind == "ok")


def test_truncated_decimal():
    assert truncated_decimal(1 / (2 + u), 3) == "0.248"
    assert truncated_decimal(sympy.Rational(-7, 4), 1) == "-1.7"


# --- powers of a ball that holds 0 (python-flint: arb(0 ± r) ** n is nan) ----------------

#: A row of softmax weights minus 1: exactly 0, not structurally; at 128 bits its ball is
#: [0 ± r] with midpoint exactly 0, the ball python-flint raises to a power as nan.
_CANCELLING_ZERO = 1 / (2 + sympy.E) + 1 / (2 + sympy.E) + sympy.E / (2 + sympy.E) - 1


@pytest.mark.parametrize("power", [2, 3, 4, 7])
def test_a_power_of_a_cancelling_zero_encloses_zero(power):
    from symattn.exact import enclose

    base = enclose(_CANCELLING_ZERO, 128)
    assert _CANCELLING_ZERO != 0 and base.mid() == 0 and base.rad() > 0  # the case that was nan
    ball = enclose(_CANCELLING_ZERO**power, 128)
    assert ball.is_finite() and ball.contains(0)
    assert ball.abs_upper() < flint.arb(10) ** -30
    assert round_ball(enclose(sympy.sqrt(1 + _CANCELLING_ZERO**power), 128), 20) == "1." + "0" * 20


@pytest.mark.parametrize("power", [2, 3])
def test_a_power_of_a_ball_around_0_holds_the_true_value(power):
    """sqrt(2) − 1.4142135623730951 ≈ −9.7e-17: at 24 bits its ball holds 0; the power's ball holds the truth."""
    import mpmath

    from symattn.exact import _to_fraction, enclose

    x = sympy.sqrt(2) - sympy.Rational(14142135623730951, 10**16)
    assert enclose(x, 24).contains(0)
    ball = enclose(x**power, 24)
    assert ball.is_finite()
    with mpmath.workdps(60):
        true = Fraction(mpmath.nstr((mpmath.sqrt(2) - mpmath.mpf(14142135623730951) / 10**16) ** power, 50))
    mid, rad = _to_fraction(ball.mid()), _to_fraction(ball.rad())
    assert mid - rad <= true <= mid + rad


def test_a_unit_suffix_claims_its_places_of_that_unit() -> None:
    from symattn.exact import claim_holds, claim_kind, parse_claim

    claim = parse_claim("4.91M")
    assert (claim.value, claim.places, claim.scale) == (4_910_000, 2, 6)
    assert claim_holds("4.19M", 4 * 1024 * 1024)  # 4,194,304 is 4.19 millions at two places
    assert not claim_holds("4.91M", 4 * 1024 * 1024)
    assert claim_holds("197K", 3 * 1024 * 64)  # 196,608
    assert not claim_holds("196K", 3 * 1024 * 64)
    assert claim_kind("196K", 3 * 1024 * 64) == "rounding"  # 196.608 thousands cut, not rounded
    assert claim_kind("4.91M", 4 * 1024 * 1024) == "wrong"


def test_a_known_ball_decides_what_its_enclosure_decides_and_no_more():
    """exact.Known: a value known by an enclosure (the explanation's truth handed to the
    readers) rounds where its ball is clear of the boundary and is undecided at one."""
    from symattn.errors import UndecidedRoundingError
    from symattn.exact import Known, certified_decimal, claim_holds, enclose

    third = Known("0.33333333333333333333333333333333333333", "1e-38")
    assert certified_decimal(3 * third, 10) == "1.0000000000"
    assert claim_holds("0.333", third) and not claim_holds("0.334", third)
    assert enclose(third - sympy.Rational(1, 3), 128).contains(0)
    half = Known("0.5", "1e-30")
    with pytest.raises(UndecidedRoundingError):
        certified_decimal(half, 0)  # 0.5 ± 1e-30 may round to 0 or to 1
    assert str(sympy.N(2 * half, 20)) == "1.0000000000000000000"
    assert pickle.loads(pickle.dumps(half)) == half and hash(half) == hash(Known("0.5", "1e-30"))
