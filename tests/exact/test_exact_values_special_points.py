"""Exact values at exact points stay exact: the ball arithmetic's values are ``fmpq`` while the
computation is rational ("exact while it can be"), and the interval arithmetic's are ``Fraction``.

gamma(n) = (n - 1)! for a positive integer n <= 100, loggamma(1) = loggamma(2) = 0,
LambertW(0) = 0, floor/ceiling of an exact rational, floor of a ball whose ends share their
floor, and x**(-1/2) at a rational square: each is an exact rational, so an expression that is
exactly 0 there is *decided* 0 (not a ball straddling 0), an exact certificate carries the
rational itself, and a value beyond 2**53 is not rounded.
"""
from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.exact.balls import BallArithmetic, arb_precision, arb_sign
from symcheck.exact.evaluate import certify_nonzero, enclose, enclose_range, recheck_sign
from symcheck.exact.intervals import Enclosure

Z = sympy.Symbol("z")


def _exact_certificate(expr: sympy.Expr, point: dict, value: sympy.Rational) -> None:
    cert = certify_nonzero(expr, point)
    assert cert is not None and cert.exact and cert.value == value


def _decided_zero(expr: sympy.Expr, point: dict) -> None:
    """Exactly 0 at the point: both arithmetics decide it, and the ball is the point 0."""
    assert certify_nonzero(expr, point) is None
    assert recheck_sign(expr, point) == 0
    iv = enclose(expr, point, 64)
    assert iv.a == 0 and iv.b == 0
    box = {s: (v, v) for s, v in point.items()}
    assert arb_sign(enclose_range(expr, box, 64)) == 0


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 100))
def test_gamma_at_a_positive_integer_is_the_exact_factorial(n: int) -> None:
    value = sympy.Integer(math.factorial(n - 1))
    _exact_certificate(sympy.gamma(Z), {Z: n}, value)
    _decided_zero(sympy.gamma(Z) - value, {Z: n})
    with arb_precision(64):
        exact = BallArithmetic(64).gamma(fmpq(n))
    assert isinstance(exact, fmpq) and exact == math.factorial(n - 1)


@pytest.mark.parametrize("n", [1, 2])
def test_loggamma_at_one_and_two_is_exactly_zero(n: int) -> None:
    _decided_zero(sympy.loggamma(Z), {Z: n})
    _exact_certificate(sympy.loggamma(Z) + sympy.Rational(3, 7), {Z: n}, sympy.Rational(3, 7))
    with arb_precision(64):
        zero = BallArithmetic(64).loggamma(fmpq(n))
    assert isinstance(zero, fmpq) and zero == 0


def test_lambertw_at_zero_is_exactly_zero() -> None:
    _decided_zero(sympy.LambertW(Z), {Z: 0})
    _exact_certificate(sympy.LambertW(Z) - 5, {Z: 0}, sympy.Integer(-5))
    with arb_precision(64):
        zero = BallArithmetic(64).lambertw(fmpq(0))
    assert isinstance(zero, fmpq) and zero == 0


@settings(max_examples=40, deadline=None)
@given(p=st.integers(-(10**40), 10**40), q=st.integers(1, 10**6))
def test_floor_and_ceiling_of_an_exact_rational_are_exact(p: int, q: int) -> None:
    x = sympy.Rational(p, q)
    for f, value in ((sympy.floor, sympy.floor(x)), (sympy.ceiling, sympy.ceiling(x))):
        _decided_zero(f(Z) - value, {Z: x})
        if value:
            _exact_certificate(f(Z), {Z: x}, value)
    with arb_precision(64):
        floor = BallArithmetic(64).floor(fmpq(p, q))
    assert isinstance(floor, fmpq) and floor == p // q


@pytest.mark.parametrize("n", [2, 3, 5, 10**6 + 3, 2**40 + 5])
def test_floor_of_a_ball_whose_ends_share_a_floor_is_exact(n: int) -> None:
    # sqrt(n) is irrational: its ball's two ends lie strictly between isqrt(n) and isqrt(n) + 1
    root = sympy.Integer(math.isqrt(n))
    for f, value in ((sympy.floor, root), (sympy.ceiling, root + 1)):
        expr = f(sympy.sqrt(Z))
        _exact_certificate(expr, {Z: n}, value)
        _decided_zero(expr - value, {Z: n})
    with arb_precision(64):
        arith = BallArithmetic(64)
        floor = arith.floor(arith.sqrt(fmpq(n)))
    assert isinstance(floor, fmpq) and floor == math.isqrt(n)
    arith = Enclosure(64)
    floor = arith.floor(arith.sqrt(arith.exact(Fraction(n))))
    assert type(floor) is Fraction and floor == math.isqrt(n)


@pytest.mark.parametrize("square", [sympy.Integer(4), sympy.Rational(9, 25), sympy.Integer(10**40)])
def test_an_inverse_square_root_of_a_rational_square_is_exact(square: sympy.Rational) -> None:
    value = 1 / sympy.sqrt(square)
    assert value.is_Rational
    expr = Z ** -sympy.S.Half
    _exact_certificate(expr, {Z: square}, value)
    _decided_zero(expr - value, {Z: square})
