"""Enclosures over boxes (``enclose_range``): every sampled value lies in the ball, balls
shrink with their boxes, undecided branches give the hull of the branches that may apply,
and a box where the expression may be undefined is refused."""
from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import mpmath
import pytest
import sympy
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath.libmp import to_rational

from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import arb_sign, enclose_range
from symcheck.exact.intervals import Imprecise

z, w = sympy.symbols("z w", real=True)
R = sympy.Rational
SAMPLE_DPS = 50


_HALF = mpmath.mpf(1) / 2


def heaviside(t, h0=_HALF):
    return mpmath.mpf(1) if t > 0 else mpmath.mpf(0) if t < 0 else h0


# (expression in z, the same function written with mpmath) — every supported construct
CASES = [
    (sympy.exp(z) * sympy.sin(3 * z), lambda t: mpmath.exp(t) * mpmath.sin(3 * t)),
    (z / (1 + sympy.exp(-z)), lambda t: t / (1 + mpmath.exp(-t))),
    (z / 2 * (1 + sympy.erf(z / sympy.sqrt(2))), lambda t: t / 2 * (1 + mpmath.erf(t / mpmath.sqrt(2)))),
    (z * sympy.tanh(sympy.log(1 + sympy.exp(z))), lambda t: t * mpmath.tanh(mpmath.log(1 + mpmath.exp(t)))),
    (sympy.atan(z) - sympy.asinh(z) / 3, lambda t: mpmath.atan(t) - mpmath.asinh(t) / 3),
    (sympy.erfc(z) * sympy.cosh(z / 4), lambda t: mpmath.erfc(t) * mpmath.cosh(t / 4)),
    (sympy.sinh(z) - z**3, lambda t: mpmath.sinh(t) - t**3),
    (sympy.cos(z) ** 2 - z**2, lambda t: mpmath.cos(t) ** 2 - t**2),
    (sympy.tan(z / 8), lambda t: mpmath.tan(t / 8)),
    (sympy.sqrt(1 + z**2) + sympy.Abs(z) ** R(3, 2), lambda t: mpmath.sqrt(1 + t**2) + abs(t) ** mpmath.mpf(1.5)),
    (sympy.Piecewise((z**2, z > 1), (sympy.sin(z), z > -1), (-z, True)),
     lambda t: t**2 if t > 1 else mpmath.sin(t) if t > -1 else -t),
    (sympy.Max(z, sympy.sin(z) + 1) - sympy.Min(z, 0) * sympy.Heaviside(z - R(1, 3)),
     lambda t: max(t, mpmath.sin(t) + 1) - min(t, 0) * heaviside(t - mpmath.mpf(1) / 3)),
    (sympy.sign(z - 1) * z + sympy.Heaviside(z, 0), lambda t: mpmath.sign(t - 1) * t + heaviside(t, 0)),
    (sympy.Piecewise((1, sympy.sin(z) + sympy.cos(z) > 0), (z, True)),
     lambda t: 1 if mpmath.sin(t) + mpmath.cos(t) > 0 else t),
    (sympy.log(2 + sympy.cos(z)) * sympy.pi + sympy.E ** (z / 5),
     lambda t: mpmath.log(2 + mpmath.cos(t)) * mpmath.pi + mpmath.e ** (t / 5)),
]

ends = st.fractions(min_value=-12, max_value=12, max_denominator=1000)
widths = st.one_of(st.just(Fraction(0)), st.fractions(min_value=0, max_value=6, max_denominator=1000),
                   st.builds(lambda k: Fraction(1, 2**k), st.integers(1, 80)))


def samples(lo: Fraction, hi: Fraction, n: int = 40) -> list[Fraction]:
    return [lo + (hi - lo) * Fraction(i, n) for i in range(n + 1)]


def exact(x: arb) -> Fraction:
    """An exact arb (an end point, a radius) as a rational."""
    man, exp = x.man_exp()
    return int(man) * Fraction(2) ** int(exp)


def contains(ball: arb, value: mpmath.mpf) -> bool:
    """Is the (50-digit) value inside the ball? Compared exactly, end points as rationals."""
    q = Fraction(*to_rational(mpmath.mpf(value)._mpf_))
    lo, hi = exact(ball.lower()), exact(ball.upper())
    slack = abs(q) * Fraction(1, 10**SAMPLE_DPS)  # the reference's own rounding
    return lo - slack <= q <= hi + slack


@settings(max_examples=80, deadline=None)
@given(which=st.integers(0, len(CASES) - 1), lo=ends, width=widths,
       prec=st.sampled_from([53, 64, 128]))
def test_the_ball_contains_every_sampled_value(which, lo, width, prec):
    expr, reference = CASES[which]
    hi = lo + width
    try:
        ball = enclose_range(expr, {z: (lo, hi)}, prec)
    except Imprecise:  # refused (a pole of tan, a condition undecided at a point): no claim made
        return
    with mpmath.workdps(SAMPLE_DPS):
        for t in samples(lo, hi) if hi > lo else [lo]:
            value = reference(mpmath.mpf(t.numerator) / t.denominator)
            assert contains(ball, value), (expr, lo, hi, t, ball, value)


@pytest.mark.parametrize("which", range(len(CASES)))
def test_widths_shrink_with_the_box(which):
    expr, _ = CASES[which]
    centre = R(7, 10)  # no branch point, pole or kink of any case
    widths = []
    for k in (2, 6, 12, 24, 48):
        ball = enclose_range(expr, {z: (centre - R(1, 2**k), centre + R(1, 2**k))}, 128)
        widths.append(exact(ball.rad()))
    assert all(b <= a for a, b in pairwise(widths)), widths
    assert widths[-1] < Fraction(1, 2**40), widths  # down to the box's own scale


def test_a_far_tail_stays_positive_and_tiny():
    ball = enclose_range(sympy.erfc(z), {z: (10**5, 10**5 + 1)}, 64)
    assert ball.lower() >= 0 and ball.upper() < R(1, 10**1000)
    assert arb_sign(enclose_range(sympy.erfc(z), {z: (R(99, 10), 10)}, 64)) == 1


def test_two_variables_and_a_point_coordinate():
    ball = enclose_range(sympy.exp(z) * w - z * w, {z: (0, 1), w: (R(1, 3), R(1, 3))}, 64)
    # (e^z - z)/3 over [0, 1] lies in [1/3, (e - 1)/3]; the interval arithmetic may widen it
    assert ball.lower() <= R(1, 3).evalf(30) and ball.upper() >= 0.5727
    assert ball.upper() < 1.0


def test_a_point_box_is_exact_where_the_arithmetic_is_rational():
    ball = enclose_range(z**3 / 10**15 + z - (1 + R(1, 10**15)) * z, {z: (2, 2)}, 64)
    assert arb_sign(ball) == 1 and ball.rad() < arb(6) / 10**15 * 2**-60
    assert arb_sign(enclose_range(sympy.sin(z), {z: (0, 0)}, 64)) == 0


@pytest.mark.parametrize(
    ("expr", "box", "expected"),
    [
        # a branch decided False on the whole box is left out of the hull
        (sympy.Piecewise((100, z > 5), (z, True)), (-1, 1), (-1, 1)),
        # a branch after one decided True on the whole box is never chosen
        (sympy.Piecewise((z, z < 2), (100, True)), (-1, 1), (-1, 1)),
        # undecided: both branches enclosed over the whole box
        (sympy.Piecewise((z, z > 0), (-z - 2, True)), (-1, 1), (-3, 1)),
        (sympy.Heaviside(z), (-1, 1), (0, 1)),
        (sympy.sign(z), (0, 1), (0, 1)),
        (sympy.sign(z), (-1, 1), (-1, 1)),
        (sympy.Abs(z), (-1, 2), (0, 2)),
        (z**2, (-1, 2), (0, 4)),
        (sympy.Max(z, 0), (-1, 2), (0, 2)),
        (sympy.tanh(z), (-10**6, 10**6), (-1, 1)),  # Arb alone gives NaN on so wide a ball
    ],
)
def test_hulls_cover_exactly_what_may_happen(expr, box, expected):
    ball = enclose_range(expr, {z: box}, 64)
    lo, hi = expected
    assert ball.lower() <= lo and ball.upper() >= hi  # contains every possible value
    width = Fraction(hi) - Fraction(lo)
    # and not much more
    assert ball.lower() >= lo - width / 100 - R(1, 2**50) and ball.upper() <= hi + width / 100 + R(1, 2**50)
    if lo >= 0:
        assert ball.lower() >= 0  # non-negative results are never enclosed below 0


@pytest.mark.parametrize(
    ("expr", "box", "undecided"),
    [
        (sympy.log(z), (-1, 1), True),      # reaches 0: may be undefined
        (sympy.log(z), (0, 1), True),
        (sympy.log(z), (-2, -1), False),    # undefined on the whole box
        (1 / z, (-1, 1), True),
        (1 / z, (0, 0), False),
        (sympy.sqrt(z), (-1, 1), True),
        (sympy.sqrt(z), (-2, -1), False),
        (sympy.tan(z), (1, 2), True),       # contains the pole pi/2
        (sympy.Piecewise((1, z > 0)), (-1, 1), True),   # no branch on part of the box
        (sympy.Piecewise((1, z > 0)), (-2, -1), False),  # no branch anywhere
        (z ** R(1, 3), (-2, -1), False),
        (sympy.exp(sympy.exp(z)), (0, 40), False),  # astronomically large
    ],
)
def test_boxes_where_it_may_be_undefined_are_refused(expr, box, undecided):
    with pytest.raises(EvaluationError) as info:
        enclose_range(expr, {z: box}, 64)
    assert isinstance(info.value, Imprecise) is undecided, info.value


def test_bad_boxes_are_caller_errors():
    with pytest.raises(ValueError, match="empty interval for z: 1 > 0"):
        enclose_range(z, {z: (1, 0)}, 64)
    with pytest.raises(ValueError, match="prec must be at least 16 bits"):
        enclose_range(z, {z: (0, 1)}, 8)
    with pytest.raises(EvaluationError, match="no value given for the symbol w"):
        enclose_range(z + w, {z: (0, 1)}, 64)


@pytest.mark.parametrize(
    ("ball", "sign"),
    [(arb(2), 1), (-arb.pi(), -1), (arb(0), 0), (arb("[0 +/- 1e-30]"), None),
     (arb(0).union(arb(1)), None), (arb(-1).union(arb(0)), None), (arb("[1e-300 +/- 1e-301]"), 1),
     (arb("nan"), None), (arb("[0 +/- inf]"), None)],
)
def test_arb_sign(ball, sign):
    assert arb_sign(ball) == sign
