"""At a rational point the kernel's floor and ceil are exact, even when the point is so close to
an integer that no working precision's ball of it lies on one side: floor(n − 10^-k) is n − 1
and ceil(n + 10^-k) is n + 1, balls of radius 0. Over a box (no exact point) they stay balls."""
from __future__ import annotations

from fractions import Fraction

from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.evaluate import PRECISIONS, enclose, precision
from symcheck.kernel.points import q as fq

X = ("var", "x")
integers = st.integers(min_value=-40, max_value=40)
# 10^-k below every precision's resolution (4096 bits ≈ 1233 digits) and below 64 bits' too
digits = st.sampled_from([25, 400, 1300, 2000])


def at_point(head: str, value: Fraction, bits: int) -> arb:
    with precision(bits):
        return enclose((head, X), {"x": arb(fq(value))}, {"x": value})


@settings(max_examples=30, deadline=None)
@given(integers, digits, st.sampled_from(PRECISIONS))
def test_floor_just_below_an_integer_is_exact(n: int, k: int, bits: int) -> None:
    ball = at_point("floor", n - Fraction(1, 10**k), bits)
    assert ball.rad() == 0 and ball.mid() == n - 1, ball


@settings(max_examples=30, deadline=None)
@given(integers, digits, st.sampled_from(PRECISIONS))
def test_ceil_just_above_an_integer_is_exact(n: int, k: int, bits: int) -> None:
    ball = at_point("ceil", n + Fraction(1, 10**k), bits)
    assert ball.rad() == 0 and ball.mid() == n + 1, ball


def test_over_a_ball_straddling_an_integer_floor_is_both_integers() -> None:
    with precision(64):
        ball = enclose(("floor", X), {"x": arb(1, 0.25)}, None)
    assert ball.contains(0) and ball.contains(1), ball
