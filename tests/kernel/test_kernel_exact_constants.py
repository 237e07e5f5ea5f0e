"""Exact constants in the proof kernel: 0^θ is the exact rational 0, and Point.ball's width test
is exact (no float rounding or underflow deciding when to stop refining)."""
from __future__ import annotations

from fractions import Fraction

from flint import fmpq_poly

from symcheck.kernel.evaluate import exact
from symcheck.kernel.points import Point


def _bound(p: Point, prec: int) -> Fraction:
    return Fraction(1, 2 ** prec) * max(Fraction(1), abs(p.lo))


def test_zero_to_a_positive_symbolic_power_is_the_exact_rational_zero():
    env = {"t": Fraction(1, 3)}
    zero_pow = ("pow", ("int", 0), ("var", "t"))
    value = exact(zero_pow, env)
    assert value == 0 and type(value) is Fraction
    # and it stays usable in exact arithmetic downstream (a float would lack .numerator)
    assert exact(("pow", zero_pow, ("int", 2)), env) == Fraction(0)
    assert type(exact(("add", zero_pow, ("rat", 1, 3)), env)) is Fraction


def test_ball_width_bound_is_exact_when_lo_rounds_up_as_a_float():
    """|lo| > 1 whose nearest float is above lo: a width of float(lo)·2^-p exceeds the exact bound
    lo·2^-p, so ball(p) must still refine; a float threshold would stop too early."""
    prec = 8
    f = Fraction(2.23)                       # a double just below √5
    lo = f - Fraction(1, 3 * 2 ** 60)        # not a double; float(lo) == 2.23 > lo
    assert Fraction(float(lo)) > lo
    hi = lo + Fraction(float(lo)) / 2 ** prec
    p = Point(fmpq_poly([-5, 0, 1]), lo, hi)  # √5 ∈ [lo, hi]
    assert lo * lo < 5 < hi * hi
    assert hi - lo > _bound(p, prec)
    p.ball(prec)
    assert p.hi - p.lo <= _bound(p, prec)
    assert p.lo * p.lo <= 5 <= p.hi * p.hi


def test_ball_does_not_refine_an_interval_already_narrow_at_high_precision():
    """At 4096 bits (a POINT_PRECISIONS level) 2^-4096 is exact as a Fraction but 0.0 as a float:
    an interval already that narrow is used as it is, not bisected MAX_REFINE more times."""
    prec = 4096
    for root_poly, lo in ((fmpq_poly([-1, 0, 2]), Fraction(7071067811865475, 10 ** 16)),  # 1/√2 < 1
                          (fmpq_poly([-5, 0, 1]), Fraction(2236067977499789, 10 ** 15))):  # √5 > 1
        # an exact isolating interval of width 2^-(prec+1), found by refining
        p = Point(root_poly, lo, lo + Fraction(1, 10 ** 15))
        while p.hi - p.lo > Fraction(1, 2 ** (prec + 1)):
            p.refine()
        before = (p.lo, p.hi)
        p.ball(prec)
        assert (p.lo, p.hi) == before
