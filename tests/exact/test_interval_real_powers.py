"""The second-opinion interval arithmetic's b**y for a non-integer exponent, b > 0: exp(y·log b),
with the exponent itself (a point or an interval), enclosing the exact power; and the sign
recheck that rests on it. The refusals (b ≤ 0) are in test_refusal_kinds.py."""
from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
import sympy

from symcheck.exact.evaluate import recheck_sign
from symcheck.exact.intervals import Enclosure

z = sympy.Symbol("z")


@pytest.mark.parametrize("b, y", [(F(2), F(3, 2)), (F(1, 3), F(-2, 5)), (F(7, 2), F(1, 3)), (F(5), F(-7, 4))])
def test_a_real_power_encloses_its_value(b, y) -> None:
    value = Enclosure(96).pow_real(b, y)   # an interval: (lower, upper) as raw mpf values
    with mpmath.workdps(60):
        lo, hi = mpmath.mpf(value[0]), mpmath.mpf(value[1])
        exact = mpmath.power(mpmath.mpf(b.numerator) / b.denominator, mpmath.mpf(y.numerator) / y.denominator)
        assert lo <= exact <= hi
        assert hi - lo < abs(exact) * mpmath.mpf(2) ** -60


@pytest.mark.parametrize("expr, at, sign", [
    (2**z - 3, F(3, 2), -1),              # 2^(3/2) ≈ 2.83
    (2**z - F(28, 10), F(3, 2), 1),
    (z**z - 2, F(3, 2), -1),              # (3/2)^(3/2) ≈ 1.84
    (sympy.Rational(1, 3) ** z - 1, F(-2, 5), 1),
])
def test_the_sign_recheck_takes_real_powers(expr, at, sign) -> None:
    assert recheck_sign(expr, {z: at}) == sign


def test_an_interval_exponent_is_used_whole() -> None:
    arithmetic = Enclosure(64)
    value = arithmetic.pow_real(F(4), arithmetic.hull([F(1, 2), F(3, 2)]))   # 4^[1/2, 3/2] = [2, 8]
    with mpmath.workdps(30):
        lo, hi = mpmath.mpf(value[0]), mpmath.mpf(value[1])
        assert lo <= 2 and hi >= 8
        assert lo > 2 - mpmath.mpf(10) ** -12 and hi < 8 + mpmath.mpf(10) ** -12
