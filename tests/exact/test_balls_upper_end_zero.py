"""A ball whose upper end is exactly 0 may hold the value 0: below a square root or as the base
of a positive non-integer power that value is defined (√0 = 0, 0^(1/2) = 0), so the answer is
"undecided" (Imprecise, try more bits), never "not defined" (EvaluationError, which ends an
evaluation as undefined and can drop a region from a proof).

LambertW is the contrast: its shift x + 1/e adds Arb's upper bound of 1/e, a dyadic number and
so strictly above the irrational 1/e; an upper end exactly 0 then proves every x < −1/e, where
W₀ is indeed not real.
"""
from __future__ import annotations

import pytest
from flint import arb, fmpq

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact.balls import BallArithmetic, arb_precision, arb_sign_bounds, span


@pytest.mark.parametrize("ball", [arb(0), span(arb(-1), arb(0)), span(-arb(2) ** -40, arb(0))])
def test_a_square_root_of_a_ball_reaching_zero_from_below_is_undecided(ball: arb) -> None:
    with arb_precision(64):
        assert arb_sign_bounds(ball)[1] == 0  # the upper end is exactly 0
        arithmetic = BallArithmetic(64)
        if ball == 0:  # an exact zero ball: √0 = 0
            assert arithmetic.sqrt(ball) == 0
            return
        with pytest.raises(Imprecise):
            arithmetic.sqrt(ball)


@pytest.mark.parametrize("exponent", [fmpq(1, 2), fmpq(5, 3), arb(2).sqrt()])
@pytest.mark.parametrize("base", [span(arb(-1), arb(0)), span(-arb(2) ** -40, arb(0))])
def test_a_positive_power_of_a_base_reaching_zero_from_below_is_undecided(base: arb, exponent) -> None:
    with arb_precision(64):
        arithmetic = BallArithmetic(64)
        # the base may be exactly 0, and 0^y = 0 for y > 0: "not real" would be false
        with pytest.raises(Imprecise):
            arithmetic.pow_real(base, exponent)


def test_the_square_root_of_an_exact_zero_ball_is_zero() -> None:
    with arb_precision(64):
        value = BallArithmetic(64).sqrt(arb(0))
        assert arb_sign_bounds(value) == (0, 0)


def test_lambertw_is_not_defined_below_minus_one_over_e() -> None:
    with arb_precision(64):
        arithmetic = BallArithmetic(64)
        with pytest.raises(EvaluationError):
            arithmetic.lambertw(fmpq(-1, 2))  # −1/2 < −1/e ≈ −0.3679
        at = arithmetic.lambertw(fmpq(-1, 4))  # W₀(−1/4) ≈ −0.3574 (mpmath.lambertw(-0.25))
        assert isinstance(at, arb) and abs(float(at.mid()) + 0.35740295618138890307) < 1e-15
