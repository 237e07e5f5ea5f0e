"""A hull contains every value it joins, in both certified arithmetics.

The hull is what a piecewise branch with an undecided condition evaluates to: if it dropped a
value (kept the first of two different exact rationals, or took one end for the other), an
enclosure would miss the true value and a sign certified from it could be wrong.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, fmpq
from hypothesis import given
from hypothesis import strategies as st
from mpmath.libmp import from_rational, round_ceiling, round_floor

from symcheck.exact.balls import BallArithmetic, arb_precision
from symcheck.exact.intervals import Enclosure

PREC = 64
rationals = st.fractions(min_value=-1000, max_value=1000, max_denominator=50)


def _interval_ends(value) -> tuple[Fraction, Fraction]:
    if isinstance(value, Fraction):
        return value, value
    ends = []
    for raw in value:
        sign, man, exp, _ = raw
        q = Fraction(int(man)) * Fraction(2) ** int(exp)
        ends.append(-q if sign else q)
    return ends[0], ends[1]


def _ball_contains(ball, q: Fraction) -> bool:
    if isinstance(ball, fmpq):
        return ball == fmpq(q.numerator, q.denominator)
    return ball.contains(arb(fmpq(q.numerator, q.denominator)))


@given(st.lists(rationals, min_size=1, max_size=4))
def test_interval_hull_of_exact_values_contains_each(values: list[Fraction]) -> None:
    lo, hi = _interval_ends(Enclosure(PREC).hull(values))
    assert all(lo <= v <= hi for v in values)


@given(st.lists(rationals, min_size=1, max_size=4))
def test_ball_hull_of_exact_values_contains_each(values: list[Fraction]) -> None:
    arith = BallArithmetic(PREC)
    with arb_precision(PREC):
        hull = arith.hull([fmpq(v.numerator, v.denominator) for v in values])
        assert all(_ball_contains(hull, v) for v in values)


@pytest.mark.parametrize("values", [[Fraction(1), Fraction(2)], [Fraction(-3, 7), Fraction(5)],
                                    [Fraction(2), Fraction(2), Fraction(-1)]])
def test_different_exact_values_give_a_hull_not_one_of_them(values: list[Fraction]) -> None:
    interval = Enclosure(PREC).hull(values)
    assert not isinstance(interval, Fraction)
    assert _interval_ends(interval)[0] <= min(values) and _interval_ends(interval)[1] >= max(values)
    with arb_precision(PREC):
        ball = BallArithmetic(PREC).hull([fmpq(v.numerator, v.denominator) for v in values])
        assert not isinstance(ball, fmpq)
        assert all(_ball_contains(ball, v) for v in values)


def test_equal_exact_values_stay_exact() -> None:
    # exactness is what lets a later comparison with 0 be decided without an enclosure
    interval = Enclosure(PREC).hull([Fraction(3, 4)] * 3)
    assert isinstance(interval, Fraction) and interval == Fraction(3, 4)
    with arb_precision(PREC):
        ball = BallArithmetic(PREC).hull([fmpq(3, 4)] * 3)
    assert isinstance(ball, fmpq) and ball == fmpq(3, 4)


def test_hull_of_an_exact_value_and_an_interval_contains_both() -> None:
    third = (from_rational(1, 3, PREC, round_floor), from_rational(1, 3, PREC, round_ceiling))
    lo, hi = _interval_ends(Enclosure(PREC).hull([Fraction(-2), third, Fraction(5)]))
    assert lo <= -2 and hi >= 5 and lo <= Fraction(1, 3) <= hi
