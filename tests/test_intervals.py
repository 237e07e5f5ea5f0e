"""Interval arithmetic and special functions: enclosures contain 100-digit references and are tight."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy

from symcheck.errors import EvaluationError
from symcheck.evaluate import enclose

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

