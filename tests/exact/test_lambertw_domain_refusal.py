"""LambertW (W₀) in Arb balls: below −1/e it is not real, a definite EvaluationError ("not
defined": the caller stops), never Imprecise ("try more bits": a domain failure retried at every
precision up to the last); a ball reaching below −1/e is Imprecise; at and above −1/e the
enclosure holds W₀, checked against mpmath at 300 bits as a second opinion.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import arb, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact.balls import BallArithmetic, arb_precision, span
from symcheck.exact.evaluate import certify_nonzero, enclose

X = sympy.Symbol("x")
#: rationals on either side of −1/e = −0.36787944117…
BELOW = Fraction(-36787945, 10**8)
ABOVE = Fraction(-36787944, 10**8)


def _definitely_undefined(call) -> None:
    with pytest.raises(EvaluationError, match="below -1/e") as raised:
        call()
    assert not isinstance(raised.value, Imprecise)


@given(st.fractions(max_value=BELOW).filter(lambda q: q >= -10**6))
@settings(max_examples=40, deadline=None)
def test_below_minus_one_over_e_lambertw_is_not_defined(q: Fraction) -> None:
    with arb_precision(64):
        arithmetic = BallArithmetic(64)
        _definitely_undefined(lambda: arithmetic.lambertw(fmpq(q.numerator, q.denominator)))
        _definitely_undefined(lambda: arithmetic.lambertw(arb(fmpq(q.numerator, q.denominator))))
    _definitely_undefined(lambda: enclose(sympy.LambertW(X), {X: q}, 64))


def test_a_ball_reaching_below_minus_one_over_e_is_undecided() -> None:
    with arb_precision(64):
        arithmetic = BallArithmetic(64)
        ball = span(arb(fmpq(BELOW.numerator, BELOW.denominator)), arb(fmpq(ABOVE.numerator, ABOVE.denominator)))
        with pytest.raises(Imprecise, match="reaching below -1/e"):
            arithmetic.lambertw(ball)


def test_an_undefined_value_is_not_certified() -> None:
    assert certify_nonzero(sympy.LambertW(X) + 5, {X: Fraction(-1, 2)}) is None


def _exact(raw: tuple) -> Fraction:
    sign, man, exp, _ = raw
    return (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp)


@given(st.fractions(min_value=ABOVE, max_value=10**6), st.sampled_from([16, 64, 200]))
@settings(max_examples=60, deadline=None)
def test_at_and_above_minus_one_over_e_the_enclosure_holds_lambertw(q: Fraction, prec: int) -> None:
    with mpmath.workprec(300):
        x = mpmath.mpf(q.numerator) / q.denominator
        try:
            value = enclose(sympy.LambertW(X), {X: q}, prec)
        except Imprecise:
            # only a point so close to −1/e that its ball at prec bits reaches below it
            assert x + mpmath.exp(-1) < mpmath.mpf(2) ** (8 - prec)
            return
        lo, hi = (_exact(end) for end in value._mpi_)
        w = mpmath.lambertw(x).real
        assert mpmath.mpf(lo.numerator) / lo.denominator <= w <= mpmath.mpf(hi.numerator) / hi.denominator
