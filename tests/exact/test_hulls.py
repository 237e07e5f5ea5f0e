"""A hull contains every value it joins, in both certified arithmetics.

The hull is what a piecewise branch with an undecided condition evaluates to: if it dropped a
value (kept the first of two different exact rationals, or took one end for the other), an
enclosure would miss the true value and a sign certified from it could be wrong.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath.libmp import from_rational, round_ceiling, round_floor

from symcheck.exact.balls import BallArithmetic, arb_from_interval, arb_precision, span
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


@settings(deadline=None)  # a loaded machine must not fail a test that has no wall-clock claim
@given(st.lists(rationals, min_size=1, max_size=4))
def test_interval_hull_of_exact_values_contains_each(values: list[Fraction]) -> None:
    lo, hi = _interval_ends(Enclosure(PREC).hull(values))
    assert all(lo <= v <= hi for v in values)


@settings(deadline=None)
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


def _dyadic(mantissa: int, exponent: int) -> arb:
    with arb_precision(128):  # exact: a 71-bit mantissa times a power of two
        return arb(mantissa) * arb(2) ** exponent


_ends = st.tuples(st.integers(-(2**70), 2**70), st.integers(-300, 300)).map(lambda t: _dyadic(*t))


@settings(max_examples=300, deadline=None)
@given(_ends, _ends, st.sampled_from([16, 24, 30, 53, 64, 200, 1000]))
def test_span_contains_its_ends_keeps_their_signs_and_stays_close(x: arb, y: arb, prec: int) -> None:
    """span(a, b) is the ball every hull, |x|, max/min and box coordinate is made from: it
    holds [a, b]; it never reaches across 0 where a >= 0 or b <= 0 (an enclosure of x**2 or
    |x| would lose its sign); and its ends stay within a few ulps of a and b."""
    assert x.is_exact() and y.is_exact()
    a, b = (x, y) if x <= y else (y, x)
    with arb_precision(prec):
        ball = span(a, b)
        assert ball.lower() <= a and ball.upper() >= b
        if a >= 0:
            assert ball.lower() >= 0
        # below 30 bits the radius (Arb's 30-bit mag) is finer than the midpoint, and the ball
        # clipped for b <= 0 can end an ulp above 0: wider, never wrong
        if b <= 0 and prec >= 30:
            assert ball.upper() <= 0
    with arb_precision(2048):  # the slack itself, exactly
        slack = (abs(a) + abs(b)) * arb(2) ** (8 - prec) + (b - a) * arb(2) ** -25
        assert ball.lower() >= a - slack and ball.upper() <= b + slack


@pytest.mark.parametrize(("a", "b"), [(arb(0), arb(1)), (arb(-1), arb(0)), (arb(2) ** -1000, arb(2) ** 1000),
                                      (-(arb(2) ** 1000), -(arb(2) ** -1000)), (arb(0), arb(2) ** -1000),
                                      (arb(3), arb(3)), (arb(-5), arb(7))])
@pytest.mark.parametrize("prec", [30, 64, 256])
def test_span_at_its_edge_cases(a: arb, b: arb, prec: int) -> None:
    """An end exactly 0, a tiny end beside a huge span, a point, a span across 0."""
    with arb_precision(prec):
        ball = span(a, b)
        assert ball.lower() <= a and ball.upper() >= b
        assert (ball.lower() >= 0) is bool(a >= 0) and (ball.upper() <= 0) is bool(b <= 0)
        if a == b:
            assert ball.lower() == ball.upper() == a


_rationals = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**6)


@settings(max_examples=200, deadline=None)
@given(_rationals, _rationals, st.sampled_from([16, 53, 64, 200]))
def test_a_box_coordinate_holds_its_rational_interval_with_the_signs_of_its_ends(p, q, prec) -> None:
    """arb_from_interval(lo, hi) is how a box's coordinate enters the arithmetic: it must hold
    every rational of [lo, hi] (1/3 is no binary number: each end is rounded outward), and an
    end that is exactly 0 stays the ball's end (|x| or x**2 over [0, h] keep their sign)."""
    lo, hi = min(p, q), max(p, q)
    with arb_precision(prec):
        ball = arb_from_interval(fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator))
        for v in (lo, hi, (lo + hi) / 2):
            assert _ball_contains(ball, v)
        width, scale = hi - lo, abs(lo) + abs(hi) + 1
        # a few ulps of the ends, and Arb's 30-bit radius
        assert ball.upper() - ball.lower() <= arb(fmpq(width.numerator, width.denominator)) * (1 + arb(2) ** -25) \
            + arb(2) ** (8 - prec) * arb(fmpq(scale.numerator, scale.denominator))
        if lo == 0:
            assert ball.lower() == 0


_balls = st.tuples(st.fractions(min_value=-100, max_value=100, max_denominator=100),
                   st.fractions(min_value=0, max_value=10, max_denominator=100))


@settings(max_examples=150, deadline=None)
@given(st.lists(_balls, min_size=1, max_size=4))
def test_the_hull_of_balls_holds_every_point_of_every_ball(centres_radii) -> None:
    """Not only the centres: both ends of every ball it joins (the hull of two undecided
    branches, each itself an enclosure over a box)."""
    arith = BallArithmetic(PREC)
    with arb_precision(PREC):
        balls = [arb(fmpq(c.numerator, c.denominator), fmpq(r.numerator, r.denominator))
                 for c, r in centres_radii]
        hull = arith.hull(balls)
        for ball in balls:
            assert hull.lower() <= ball.lower() and ball.upper() <= hull.upper()
