"""A point's coordinates may be given in every exact type the evaluator takes — int, Fraction,
SymPy's Rational, python-flint's fmpq — and each means the same number: the value at the point,
its enclosure and its certified sign do not depend on how the coordinate was spelled."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from flint import fmpq
from hypothesis import given
from hypothesis import strategies as st

from symcheck.exact.balls import arb_precision
from symcheck.exact.evaluate import certify_nonzero, enclose, enclose_range

Z = sympy.Symbol("z")
numerators = st.integers(-10**9, 10**9)
denominators = st.integers(1, 10**9)


def spellings(p: int, q: int) -> list:
    return [Fraction(p, q), sympy.Rational(p, q), fmpq(p, q)] + ([p] if q == 1 else [])


@given(numerators, denominators)
def test_z_minus_its_own_value_is_never_certified_non_zero(p: int, q: int) -> None:
    for v in spellings(p, q):
        assert certify_nonzero(Z - sympy.Rational(p, q), {Z: v}) is None, type(v)


@given(numerators.filter(bool), denominators)
def test_the_exact_value_at_the_point_is_the_coordinate(p: int, q: int) -> None:
    for v in spellings(p, q):
        certificate = certify_nonzero(Z, {Z: v})
        assert certificate is not None and certificate.exact and certificate.value == sympy.Rational(p, q), type(v)
        assert certificate.sign == (1 if p > 0 else -1)


@given(numerators, denominators)
def test_the_enclosure_holds_the_coordinate(p: int, q: int) -> None:
    for v in spellings(p, q):
        with mpmath.workprec(256):  # p/q rounded at 256 bits lies inside a 128-bit enclosure of it
            interval = enclose(Z, {Z: v}, 128)
            assert interval.a <= mpmath.mpf(p) / q <= interval.b, (type(v), interval)


@given(numerators, numerators, denominators)
def test_a_box_holds_its_ends_whatever_their_type(p1: int, p2: int, q: int) -> None:
    lo, hi = sorted((p1, p2))
    for a, b in zip(spellings(lo, q), spellings(hi, q), strict=True):
        ball = enclose_range(Z, {Z: (a, b)}, 64)
        with arb_precision(256):  # the ends as balls far narrower than the 64-bit enclosure
            assert ball.contains(fmpq(lo, q)) and ball.contains(fmpq(hi, q)), (type(a), ball)
