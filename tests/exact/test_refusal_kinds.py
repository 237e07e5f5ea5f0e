"""Both certified arithmetics refuse with the right kind of refusal.

``EvaluationError`` says the value does not exist (σ is not defined there: a domain failure
the user sees); ``Imprecise`` says the enclosure could not tell (retry at a higher precision,
or give up as inconclusive). Reading one as the other is unsound both ways: a point where σ
is defined would be reported as a domain failure, or a real domain failure retried forever.
Each row pins the exact type and message for an exact rational, a ball or interval that
decides, and one that touches the boundary.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from flint import fmpq
from mpmath.libmp import from_rational, round_ceiling, round_floor

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact.balls import BallArithmetic, arb_from_interval, arb_precision, arb_sign_bounds
from symcheck.exact.intervals import Enclosure

PREC = 64


class _Intervals:
    """The mpmath-interval arithmetic; an interval [lo, hi] with exact binary ends."""

    name = "mpmath intervals"

    def __init__(self) -> None:
        self.arith = Enclosure(PREC)

    def exact(self, q: Fraction):
        return q

    def interval(self, lo: Fraction, hi: Fraction):
        return (from_rational(lo.numerator, lo.denominator, PREC, round_floor),
                from_rational(hi.numerator, hi.denominator, PREC, round_ceiling))


class _Balls:
    """The Arb arithmetic; a ball holding [lo, hi] whose ends have the signs of lo and hi."""

    name = "Arb balls"

    def __init__(self) -> None:
        self.arith = BallArithmetic(PREC)

    def exact(self, q: Fraction):
        return fmpq(q.numerator, q.denominator)

    def interval(self, lo: Fraction, hi: Fraction):
        ball = arb_from_interval(self.exact(lo), self.exact(hi))
        # a ball's radius is rounded up, so its ends may lie a little outside [lo, hi]; what
        # each row is about is the signs of the ends, and those must be exactly lo's and hi's
        assert arb_sign_bounds(ball) == (_sign(lo), _sign(hi))
        return ball


def _sign(q: Fraction) -> int:
    return (q > 0) - (q < 0)


ARITHMETICS = [_Intervals, _Balls]
F = Fraction
NEGATIVE_SQRT = (EvaluationError, "square root of a negative number")
UNDECIDED_SQRT = (Imprecise, "undecided sign under a square root")
NONPOSITIVE_LOG = (EvaluationError, "logarithm of a non-positive number")
UNDECIDED_LOG = (Imprecise, "undecided sign under a logarithm")
DIVISION_BY_ZERO = (EvaluationError, "division by zero")
UNDECIDED_DIVISION = (Imprecise, "undecided: dividing by an enclosure that contains 0")
ZERO_TO_NONPOSITIVE = (EvaluationError, "zero to a non-positive power")
NEGATIVE_BASE = (EvaluationError, "a negative number to a non-integer power is not real")
HUGE_EXP = (EvaluationError, "exponential of an astronomically large argument")

# (operation, argument kinds, arguments, expected refusal); "x" exact, "i" an interval
ROWS = [
    ("sqrt", "x", (F(-1),), NEGATIVE_SQRT),
    ("sqrt", "i", ((F(-2), F(-1)),), NEGATIVE_SQRT),
    ("sqrt", "i", ((F(-1), F(0)),), UNDECIDED_SQRT),      # may be exactly 0: not a domain failure
    ("sqrt", "i", ((F(-1), F(1)),), UNDECIDED_SQRT),
    ("log", "x", (F(0),), NONPOSITIVE_LOG),
    ("log", "x", (F(-3),), NONPOSITIVE_LOG),
    ("log", "i", ((F(-1), F(0)),), NONPOSITIVE_LOG),      # every point is <= 0
    ("log", "i", ((F(0), F(1)),), UNDECIDED_LOG),         # may be positive
    ("log", "i", ((F(-1), F(1)),), UNDECIDED_LOG),
    ("pow_int", "x", (F(0), -1), DIVISION_BY_ZERO),
    ("pow_int", "x", (F(0), -3), DIVISION_BY_ZERO),
    ("pow_int", "i", ((F(0), F(0)), -1), DIVISION_BY_ZERO),
    ("pow_int", "i", ((F(-1), F(1)), -1), UNDECIDED_DIVISION),
    ("pow_int", "i", ((F(0), F(1)), -2), UNDECIDED_DIVISION),
    ("pow_real", "xx", (F(0), F(-1, 2)), ZERO_TO_NONPOSITIVE),
    ("pow_real", "xx", (F(-1), F(1, 2)), NEGATIVE_BASE),
    ("pow_real", "ix", ((F(-2), F(-1)), F(1, 2)), NEGATIVE_BASE),
    # beyond 2**40 an exponential has ~10**12 digits: every exponential function refuses,
    # an exact argument, an interval, one straddling 0 alike (the re-check refuses them too)
    *((name, kinds, raw, HUGE_EXP) for name in ("exp", "sinh", "cosh") for kinds, raw in [
        ("x", (F(2**43),)), ("x", (F(-(2**43)),)), ("i", ((F(2**43), F(2**43 + 1)),)),
        ("i", ((F(-(2**43)), F(2**43)),))]),
]


def _arguments(kit, kinds: str, raw: tuple) -> list:
    out = []
    for i, value in enumerate(raw):
        kind = kinds[i] if i < len(kinds) else "n"  # trailing plain ints (powers)
        out.append(kit.interval(*value) if kind == "i" else kit.exact(value) if kind == "x" else value)
    return out


@pytest.mark.parametrize("make", ARITHMETICS, ids=lambda k: k.name)
@pytest.mark.parametrize("operation, kinds, raw, expected", ROWS,
                         ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(ROWS)])
def test_refusal_kind_and_message(make, operation: str, kinds: str, raw: tuple, expected) -> None:
    kit = make()
    error, message = expected
    with arb_precision(PREC):
        args = _arguments(kit, kinds, raw)
        with pytest.raises(EvaluationError) as caught:
            getattr(kit.arith, operation)(*args)
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    assert str(caught.value) == message


@pytest.mark.parametrize("make", ARITHMETICS, ids=lambda k: k.name)
@pytest.mark.parametrize("operation, kinds, raw", [
    ("sqrt", "x", (F(0),)),
    ("sqrt", "i", ((F(0), F(1)),)),   # 0 is the lower end: the square root exists
    ("log", "x", (F(1),)),
    ("pow_real", "xx", (F(0), F(1, 2))),
    ("pow_int", "i", ((F(1), F(2)), -1)),
])
def test_boundary_values_are_not_refused(make, operation: str, kinds: str, raw: tuple) -> None:
    kit = make()
    with arb_precision(PREC):
        getattr(kit.arith, operation)(*_arguments(kit, kinds, raw))


# undecided signs: the enclosure cannot tell, so the refusal is Imprecise, never a value
UNDECIDED_ROWS = [
    ("pow_real", "xi", (F(0), (F(-1), F(1))), (Imprecise, "undecided sign of an exponent")),
    ("pow_real", "xi", (F(0), (F(0), F(1))), (Imprecise, "undecided sign of an exponent")),
    ("pow_real", "xx", (F(0), F(0)), ZERO_TO_NONPOSITIVE),
    ("pow_real", "ix", ((F(-1), F(1)), F(1, 2)), (Imprecise, "undecided sign of a power's base")),
    ("pow_real", "ix", ((F(-1), F(0)), F(1, 2)), (Imprecise, "undecided sign of a power's base")),
]


@pytest.mark.parametrize("make", ARITHMETICS, ids=lambda k: k.name)
@pytest.mark.parametrize("operation, kinds, raw, expected", UNDECIDED_ROWS,
                         ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(UNDECIDED_ROWS)])
def test_undecided_signs_are_imprecise(make, operation: str, kinds: str, raw: tuple, expected) -> None:
    test_refusal_kind_and_message(make, operation, kinds, raw, expected)


def _ends(kit, value) -> tuple[Fraction, Fraction]:
    """The exact ends of a result of either arithmetic."""
    if isinstance(value, Fraction):
        return value, value
    if isinstance(value, fmpq):
        q = Fraction(int(value.p), int(value.q))
        return q, q
    if isinstance(value, tuple):  # an mpmath interval of raw mpfs
        out = []
        for sign, man, exp, _ in value:
            q = Fraction(int(man)) * Fraction(2) ** int(exp)
            out.append(-q if sign else q)
        return out[0], out[1]
    ends = []
    for end in (value.lower(), value.upper()):
        man, exp = end.mid().man_exp()
        ends.append(Fraction(int(man)) * Fraction(2) ** int(exp))
    return ends[0], ends[1]


# (operation, kinds, arguments, exact result or None, points the result must contain)
VALUE_ROWS = [
    ("sqrt", "x", (F(4),), F(2), [F(2)]),
    ("sqrt", "x", (F(9, 4),), F(3, 2), [F(3, 2)]),
    ("sqrt", "x", (F(0),), F(0), [F(0)]),
    ("pow_int", "x", (F(0), 0), F(1), [F(1)]),
    ("pow_int", "x", (F(0), 2), F(0), [F(0)]),
    ("pow_int", "x", (F(-2), 3), F(-8), [F(-8)]),
    ("pow_int", "i", ((F(1), F(2)), 0), F(1), [F(1)]),
    ("pow_int", "i", ((F(1), F(2)), -1), None, [F(1, 2), F(1)]),
    ("pow_int", "i", ((F(-2), F(-1)), -1), None, [F(-1, 2), F(-1)]),
    ("pow_int", "i", ((F(-2), F(1)), 2), None, [F(0), F(1), F(4)]),
    ("pow_real", "xx", (F(0), F(1, 2)), F(0), [F(0)]),
    ("log", "x", (F(1),), F(0), [F(0)]),
]


@pytest.mark.parametrize("make", ARITHMETICS, ids=lambda k: k.name)
@pytest.mark.parametrize("operation, kinds, raw, exact, inside", VALUE_ROWS,
                         ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(VALUE_ROWS)])
def test_values_at_the_boundaries(make, operation: str, kinds: str, raw: tuple, exact, inside) -> None:
    kit = make()
    with arb_precision(PREC):
        result = getattr(kit.arith, operation)(*_arguments(kit, kinds, raw))
        lo, hi = _ends(kit, result)
    if exact is not None:
        assert lo == hi == exact  # an exact input with an exact answer stays exact
    assert all(lo <= q <= hi for q in inside), (lo, hi)
    if operation == "pow_int" and raw[1] % 2 == 0:
        assert lo >= 0  # an even power is never negative


@pytest.mark.parametrize("kinds, raw, expected", [
    ("x", (F(-1),), NONPOSITIVE_LOG),                  # log(0)
    ("x", (F(-3),), NONPOSITIVE_LOG),
    ("i", ((F(-3), F(-2)),), NONPOSITIVE_LOG),         # 1 + x in [-2, -1]
    ("i", ((F(-2), F(0)),), UNDECIDED_LOG),            # 1 + x in [-1, 1]
], ids=["exact-minus-one", "exact", "interval", "straddling"])
def test_log1p_refusals(kinds: str, raw: tuple, expected) -> None:
    """log1p exists only in the Arb arithmetic (log(1 + e^-2000) > 0 without cancellation)."""
    test_refusal_kind_and_message(_Balls, "log1p", kinds, raw, expected)


@pytest.mark.parametrize("make, message", [(_Intervals, "undecided: tan near a pole"),
                                           (_Balls, "unbounded enclosure in tan (near a pole)")],
                         ids=["mpmath intervals", "Arb balls"])
def test_tan_over_a_pole_is_imprecise(make, message: str) -> None:
    """[1, 2] contains π/2: no finite enclosure of tan exists there."""
    test_refusal_kind_and_message(make, "tan", "i", ((F(1), F(2)),), (Imprecise, message))


@pytest.mark.parametrize("make", ARITHMETICS, ids=lambda k: k.name)
def test_tan_beside_a_pole_is_enclosed(make) -> None:
    """11/7 is 0.0008 below π/2: tan(11/7) = −1581.66…, enclosed, not refused."""
    kit = make()
    with arb_precision(PREC):
        lo, hi = _ends(kit, kit.arith.tan(kit.exact(F(11, 7))))
    with mpmath.workdps(50):
        exact = mpmath.tan(mpmath.mpf(11) / 7)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= exact <= mpmath.mpf(hi.numerator) / hi.denominator
