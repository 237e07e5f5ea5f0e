"""A rational to an integer power is computed exactly only while the result stays small (its
size estimated as the larger of numerator and denominator bits times |n|); past 200,000 bits
the power is an enclosure. The estimate needs both factors: a 2,001-bit rational to the 100th
power is 200,100 bits (an enclosure), a 3-bit one to the 60,000th is 180,000 (exact)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import fmpq

from symcheck.exact.balls import BallArithmetic, arb_precision
from symcheck.exact.intervals import Enclosure

BIG = Fraction(2**2000 + 1, 3)        # 2,001 bits over 2 bits
SMALL = Fraction(7, 5)                 # 3 bits


def _balls(x: Fraction, n: int):
    with arb_precision(64):
        return BallArithmetic(64).pow_int(fmpq(x.numerator, x.denominator), n)


def _intervals(x: Fraction, n: int):
    return Enclosure(64).pow_int(x, n)


@pytest.mark.parametrize("power", [_balls, _intervals], ids=["arb", "mpmath"])
@pytest.mark.parametrize("x, n, exact", [
    (BIG, 99, True), (BIG, 100, False), (BIG, -100, False), (BIG, -99, True),
    (SMALL, 60_000, True), (SMALL, 70_000, False), (SMALL, -66_666, True), (SMALL, -66_667, False),
])
def test_exact_only_below_the_size_limit(power, x, n, exact) -> None:
    value = power(x, n)
    is_exact = isinstance(value, (Fraction, fmpq))
    assert is_exact is exact
    if exact:
        assert Fraction(int(value.numerator if isinstance(value, Fraction) else value.p),
                        int(value.denominator if isinstance(value, Fraction) else value.q)) == x**n
