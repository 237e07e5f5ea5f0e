"""Certified enclosures of every supported function: the Arb backend (``enclose``) against
100-digit mpmath references, and the hand-written mpmath-interval second opinion
(:class:`symcheck.exact.intervals.Enclosure`, behind ``recheck_sign``) against Arb.

Both must contain the reference and be tight: a dropped series tail or remainder, a
saturation bound on the wrong side, or an ulp margin left out makes one of them fail."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy

from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import enclose

z = sympy.Symbol("z", real=True)
R = sympy.Rational
REF_DPS = 100

TINY = R(1, 10**20)
POINTS = [R(-30), R(-7, 3), R(-1, 2), -TINY, R(0), TINY, R(3, 7), R(1), R(5, 2), R(30)]
POSITIVE_POINTS = [p for p in POINTS if p > 0]


def mp(q) -> mpmath.mpf:
    """A rational as an mpmath number at the reference precision (call inside workdps)."""
    q = Fraction(int(q.p), int(q.q)) if isinstance(q, sympy.Rational) else Fraction(q)
    return mpmath.mpf(q.numerator) / q.denominator


def bounds(interval) -> tuple[mpmath.mpf, mpmath.mpf]:
    lo, hi = interval._mpi_
    return mpmath.mp.make_mpf(lo), mpmath.mp.make_mpf(hi)


def assert_encloses(interval, reference: mpmath.mpf) -> None:
    lo, hi = bounds(interval)
    assert lo <= reference <= hi, (interval, reference)


def heaviside(t):
    return mpmath.mpf(1) if t > 0 else mpmath.mpf(0) if t < 0 else mpmath.mpf(1) / 2


# (SymPy function, mpmath reference, points) — every supported function of one argument
FUNCTIONS = [
    (sympy.exp, mpmath.exp, POINTS),
    (sympy.log, mpmath.log, POSITIVE_POINTS),
    (sympy.sqrt, mpmath.sqrt, [R(0), *POSITIVE_POINTS]),
    (sympy.sin, mpmath.sin, POINTS),
    (sympy.cos, mpmath.cos, POINTS),
    (sympy.tan, mpmath.tan, POINTS),
    (sympy.sinh, mpmath.sinh, POINTS),
    (sympy.cosh, mpmath.cosh, POINTS),
    (sympy.tanh, mpmath.tanh, POINTS),
    (sympy.asinh, mpmath.asinh, POINTS),
    (sympy.atan, mpmath.atan, POINTS),
    (sympy.erf, mpmath.erf, POINTS),
    (sympy.erfc, mpmath.erfc, POINTS),
    (sympy.Abs, abs, POINTS),
    (sympy.sign, mpmath.sign, POINTS),
    (sympy.Heaviside, heaviside, POINTS),
]
CASES = [(f, ref, p) for f, ref, points in FUNCTIONS for p in points]
CASE_IDS = [f"{f.__name__}({p})" for f, _, p in CASES]


@pytest.mark.parametrize("prec", [64, 200])
@pytest.mark.parametrize(("func", "ref", "point"), CASES, ids=CASE_IDS)
def test_enclosure_contains_reference_and_is_tight(func, ref, point, prec):
    interval = enclose(func(z), {z: point}, prec)
    with mpmath.workdps(REF_DPS):
        reference = ref(mp(point))
        lo, hi = bounds(interval)
        assert lo <= reference <= hi
        if reference == 0:
            assert lo == hi == 0
        else:  # tight: a few ulps at the requested precision
            assert (hi - lo) / abs(reference) < mpmath.mpf(2) ** (12 - prec)


ERF_POINTS = [R(-6), R(-1, 3), R(1, 7), R(2), R(9, 2), R(6), R(13, 2), R(10), R(25)]


@pytest.mark.parametrize("func", [sympy.erf, sympy.erfc])
@pytest.mark.parametrize("point", ERF_POINTS)
def test_erf_erfc_against_mpmath_at_60_digits(func, point):
    with mpmath.workdps(60):
        reference = getattr(mpmath, func.__name__)(mp(point))
        for prec in (64, 150):
            interval = enclose(func(z), {z: point}, prec)
            assert_encloses(interval, reference)
            lo, hi = bounds(interval)
            assert (hi - lo) / abs(reference) < mpmath.mpf(2) ** (12 - prec)


@pytest.mark.parametrize("point", [R(1000), R(-1000), R(10**6)])
def test_tanh_of_large_arguments_does_not_overflow(point):
    interval = enclose(sympy.tanh(z), {z: point}, 64)
    lo, hi = bounds(interval)
    expected = 1 if point > 0 else -1
    assert abs(lo - expected) < 2**-60 and abs(hi - expected) < 2**-60
    assert_encloses(interval, mpmath.mpf(expected) - expected * 2 * mpmath.exp(-2 * abs(mp(point))))


def test_constants_and_floats_are_exact_binary_values():
    with mpmath.workdps(REF_DPS):
        assert_encloses(enclose(sympy.pi, {}, 64), +mpmath.pi)
        assert_encloses(enclose(sympy.E, {}, 64), +mpmath.e)
    tenth = enclose(sympy.Float(0.1) * z, {z: 1}, 64)
    lo, hi = bounds(tenth)
    assert lo == hi == mpmath.mpf(0.1)  # the binary double, not 1/10


@pytest.mark.parametrize(
    ("expr", "point", "reference"),
    [
        (z**3, R(-7, 3), lambda t: t**3),
        (z**-2, R(-7, 3), lambda t: t**-2),
        (z ** R(1, 3), R(5, 2), lambda t: mpmath.cbrt(t)),
        (z ** R(-3, 2), R(3, 7), lambda t: t ** mpmath.mpf(-1.5)),
        (z**z, R(3, 7), lambda t: t**t),
        (2**z, R(-1, 2), lambda t: mpmath.mpf(2) ** t),
        (sympy.Max(z, sympy.sin(z), -1), R(-7, 3), lambda t: max(t, mpmath.sin(t), -1)),
        (sympy.Min(z, sympy.sin(z)), R(3, 7), lambda t: min(t, mpmath.sin(t))),
        (sympy.Heaviside(z, 0), R(0), lambda t: 0),
        (z * sympy.exp(-(z**2)) / (1 + sympy.pi), R(5, 2),
         lambda t: t * mpmath.exp(-(t**2)) / (1 + mpmath.pi)),
    ],
)
def test_powers_and_lattice_operations(expr, point, reference):
    with mpmath.workdps(REF_DPS):
        assert_encloses(enclose(expr, {z: point}, 64), reference(mp(point)))


def test_even_power_of_an_enclosure_containing_zero_is_nonnegative():
    zero_ish = sympy.sin(z) ** 2 + sympy.cos(z) ** 2 - 1  # encloses 0 without being [0, 0]
    lo, hi = bounds(enclose(zero_ish, {z: R(3, 7)}, 64))
    assert lo < 0 < hi
    lo, hi = bounds(enclose(zero_ish**2, {z: R(3, 7)}, 64))
    assert lo == 0 and 0 < hi < 2**-100
    lo, hi = bounds(enclose(zero_ish**3, {z: R(3, 7)}, 64))
    assert lo < 0 < hi
    with pytest.raises(EvaluationError, match="undecided"):
        enclose(1 / zero_ish, {z: R(3, 7)}, 64)



# --------------------------------------------------------------------------- the second opinion

from flint import arb, fmpq  # noqa: E402
from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from symcheck.exact.balls import arb_precision  # noqa: E402
from symcheck.exact.intervals import Enclosure, Imprecise  # noqa: E402

# the functions the second opinion builds itself (series, tails, saturation), and the others
SECOND_OPINION = ["exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asinh", "atan",
                  "erf", "erfc", "sqrt"]
HARD_POINTS = [R(-30), R(-7, 3), R(-1, 2), -TINY, TINY, R(1, 17), R(3, 7), R(1), R(5, 2), R(6),
               R(24), R(25), R(30), R(10**5), R(2**16 + 1)]


def arb_reference(name: str, q: Fraction, prec: int):
    """Arb's value at (much) higher precision: a ball far narrower than the one tested."""
    with arb_precision(2 * prec + 64):
        return getattr(arb(fmpq(q.numerator, q.denominator)), name)()


def second_opinion(name: str, q: Fraction, prec: int):
    """The second opinion's value: an exact Fraction, or its interval as two exact arbs."""
    arith = Enclosure(prec)
    value = getattr(arith, name)(arith.exact(q))
    if isinstance(value, Fraction):
        return value
    return tuple(arb(mpmath.mp.make_mpf(end)) for end in value)


def in_domain(name: str, q: Fraction) -> bool:
    return not ((name == "log" and q <= 0) or (name == "sqrt" and q < 0)
                or (name in ("sinh", "cosh", "exp") and abs(q) > 10**4))


# the erfc asymptotic series is summed to relative 2**-830 beyond x = 24 (by design)
ERFC_ACCURACY_BITS = 830
SATURATION = 2**16


def check_against_arb(name: str, q: Fraction, prec: int) -> None:
    value = second_opinion(name, q, prec)
    reference = arb_reference(name, q, prec)
    if isinstance(value, Fraction):  # claimed exact: Arb's tiny ball must contain it
        with arb_precision(4 * prec + 64):
            assert reference.contains(arb(fmpq(value.numerator, value.denominator))), (name, q)
        return
    lo, hi = value
    with arb_precision(2 * prec + 64):
        # Arb's far narrower ball must meet the interval and have its centre inside (a bound
        # the second opinion knows exactly, tanh < 1, may cut through Arb's ball)
        assert lo <= reference.upper() and reference.lower() <= hi, (name, q, prec)
    # the centre of a far finer ball lies inside: at 2·prec + 64 bits Arb's own radius can be
    # wider than the gap between a tight end and the value (cosh(10^-35) = 1 + 5·10^-71)
    fine = arb_reference(name, q, 4 * prec + 256)
    with arb_precision(8 * prec + 512):
        assert lo <= fine.mid() <= hi, (name, q, prec)
        size = abs(reference.mid())
        bits = min(prec, ERFC_ACCURACY_BITS) if name in ("erf", "erfc") and abs(q) >= 24 else prec
        if abs(q) > SATURATION and name in ("tanh", "erf", "erfc"):
            return  # a monotone bound by design: see test_saturated_tails_stay_on_the_right_side
        if size != 0:  # and it is tight: a few ulps at the requested precision
            assert (hi - lo) / size < arb(2) ** (16 - bits), (name, q, prec)
        else:
            assert lo == hi == 0


@pytest.mark.parametrize("prec", [64, 200, 1000])
@pytest.mark.parametrize("name", SECOND_OPINION)
def test_the_second_opinion_contains_arb_and_is_tight(name, prec):
    for point in HARD_POINTS:
        q = Fraction(int(point.p), int(point.q))
        if name == "tan" and q > 10**4:
            continue  # tan far out: covered below at moderate arguments
        if in_domain(name, q):
            check_against_arb(name, q, prec)


rationals = st.one_of(
    st.fractions(min_value=-60, max_value=60, max_denominator=10**9),
    st.builds(lambda k, s: Fraction(s, 10**k), st.integers(1, 40), st.sampled_from([-1, 1])),
    st.builds(lambda k: Fraction(k), st.integers(-10**6, 10**6)),
)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(SECOND_OPINION), q=rationals, prec=st.sampled_from([53, 64, 113, 300]))
@example(name="cosh", q=Fraction(-1, 10**35), prec=53)  # a lower end tighter than Arb's 170-bit ball
def test_the_second_opinion_agrees_with_arb_everywhere(name, q, prec):
    if not in_domain(name, q):
        return
    try:
        check_against_arb(name, q, prec)
    except Imprecise:  # tan at a point Arb sees as near a pole at this precision
        assert name == "tan"


@pytest.mark.parametrize("name", ["tanh", "erf", "erfc"])
@pytest.mark.parametrize("q", [Fraction(2**16), Fraction(2**16 + 1), Fraction(10**9)])
def test_saturated_tails_stay_on_the_right_side(name, q):
    # beyond saturation the second opinion uses a monotone bound: its ends must still
    # bracket Arb's value (tanh below 1, erfc above 0)
    for sign in (1, -1):
        if name == "erfc" and sign < 0:
            continue
        lo, hi = second_opinion(name, sign * q, 64)
        reference = arb_reference(name, sign * q, 64)
        assert lo <= reference.mid() <= hi
        assert (hi <= 1) if name != "erfc" else (lo >= 0)
