"""The sign of a ball is a decision: 0 only for an exact 0, ±1 only when the ball excludes 0,
and a power of a ball that touches 0 is undecided (try more bits), never "division by zero"
(which would end the evaluation as undefined) unless the ball is exactly 0.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import arb, fmpq

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact.balls import BallArithmetic, arb_precision, arb_sign, span
from symcheck.exact.evaluate import enclose_range
from symcheck.exact.intervals import Enclosure


@pytest.mark.parametrize(("ball", "sign"), [
    (fmpq(1, 2), 1), (fmpq(3), 1), (fmpq(-1, 2), -1), (fmpq(-7), -1), (fmpq(0), 0),
    (arb(0), 0), (arb(2).log(), 1), (-arb.pi(), -1),
    (span(arb(0), arb(1)), None),    # touches 0 from above
    (span(arb(-1), arb(0)), None),   # touches 0 from below
    (span(arb(-1), arb(1)), None),
    (span(arb(1), arb(2)), 1), (span(arb(-2), arb(-1)), -1),
    (arb("[0 +/- 1e-30]"), None),
    (arb("inf"), None),
])
def test_the_sign_of_a_ball_is_decided_only_when_certain(ball, sign) -> None:
    with arb_precision(64):
        assert arb_sign(ball) == sign


def _balls(lo: int, hi: int):
    return BallArithmetic(64), span(arb(lo), arb(hi))


def _intervals(lo: int, hi: int):
    arithmetic = Enclosure(64)
    return arithmetic, arithmetic.hull([Fraction(lo), Fraction(hi)])


@pytest.mark.parametrize("make", [_balls, _intervals], ids=["arb", "mpmath"])
@pytest.mark.parametrize(("lo", "hi"), [(-1, 0), (0, 1), (-1, 1)])
@pytest.mark.parametrize("n", [-1, -2, -3])
def test_a_negative_power_of_an_enclosure_that_touches_zero_is_undecided(make, lo, hi, n) -> None:
    with arb_precision(64):
        arithmetic, x = make(lo, hi)
        with pytest.raises(Imprecise):
            arithmetic.pow_int(x, n)


@pytest.mark.parametrize("make", [_balls, _intervals], ids=["arb", "mpmath"])
def test_a_negative_power_of_exact_zero_is_a_division_by_zero(make) -> None:
    arithmetic = make(0, 1)[0]
    with pytest.raises(EvaluationError, match="division by zero"):
        arithmetic.pow_int(arithmetic.exact(Fraction(0) if make is _intervals else fmpq(0)), -1)


@pytest.mark.parametrize("make", [_balls, _intervals], ids=["arb", "mpmath"])
@pytest.mark.parametrize(("lo", "hi"), [(-1, 0), (0, 1), (-1, 1), (2, 3)])
def test_the_zeroth_power_of_any_enclosure_is_one(make, lo, hi) -> None:
    with arb_precision(64):
        arithmetic, x = make(lo, hi)
        assert arithmetic.sign_bounds(arithmetic.add([arithmetic.pow_int(x, 0), arithmetic.exact(
            Fraction(-1) if make is _intervals else fmpq(-1))])) == (0, 0)


@pytest.mark.parametrize("make", [_balls, _intervals], ids=["arb", "mpmath"])
def test_a_real_power_of_an_enclosure_from_zero_is_not_zero(make) -> None:
    """[0, 1]^(1/2) is [0, 1], not the exact 0 that 0^(1/2) is."""
    with arb_precision(64):
        arithmetic, x = make(0, 1)
        half = arithmetic.exact(Fraction(1, 2) if make is _intervals else fmpq(1, 2))
        try:
            value = arithmetic.pow_real(x, half)
        except Imprecise:
            return
        assert arithmetic.sign_bounds(value) == (0, 1)


def _end(x: arb) -> Fraction:
    man, exp = x.mid().man_exp()  # an end point: exact
    return Fraction(int(man)) * Fraction(2) ** int(exp)


BOXES = [(-1, 2), (-2, 1), (-3, -1), (0, 2), (-1, 0), (Fraction(-1, 3), Fraction(1, 7)), (1, 3)]
EVEN = [("cosh", sympy.cosh, mpmath.cosh), ("abs", sympy.Abs, abs),
        ("square", lambda u: u**2, lambda u: u**2), ("fourth", lambda u: u**4, lambda u: u**4),
        ("sech-like", lambda u: 1 / sympy.cosh(u), lambda u: 1 / mpmath.cosh(u))]


@pytest.mark.parametrize(("box"), BOXES, ids=str)
@pytest.mark.parametrize(("name", "f", "reference"), EVEN, ids=[e[0] for e in EVEN])
def test_an_even_function_over_a_box_holds_its_values_at_the_ends_and_at_zero(name, f, reference, box) -> None:
    """Over a box that straddles 0 an even function is not monotone: its smallest value is at 0
    and its largest at the end farther from 0. The enclosure must hold both (and every
    sampled value between), as mpmath at 60 digits gives them."""
    lo, hi = (Fraction(v) for v in box)
    z = sympy.Symbol("z")
    ball = enclose_range(f(z), {z: (lo, hi)}, 64)
    low, high = _end(ball.lower()), _end(ball.upper())
    points = [lo, hi, (lo + hi) / 2, lo + (hi - lo) / 3] + ([Fraction(0)] if lo <= 0 <= hi else [])
    with mpmath.workdps(60):
        for q in points:
            value = reference(mpmath.mpf(q.numerator) / q.denominator)
            lowest, highest = (mpmath.mpf(e.numerator) / e.denominator for e in (low, high))
            assert lowest <= value <= highest, (name, box, q)
