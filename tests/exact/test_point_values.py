"""A σ's value at a point (signs.at_point, what every witness and every branch choice reads) is
the value of the function its name says, for every function of the table, alone and beside a
nonsmooth function (issue 23: an allow-list entry added — a smooth function counted among the
nonsmooth ones — rewrote asin(u) as the one-branch Piecewise u).

The truth is mpmath, at 40 digits, at rational points inside each function's domain."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy

from symcheck.core.functions import FUNCTIONS
from symcheck.exact.signs import at_point
from symcheck.language.symbols import Z

_MPMATH = {
    "exp": mpmath.exp, "log": mpmath.log, "sqrt": mpmath.sqrt, "sin": mpmath.sin, "cos": mpmath.cos,
    "tan": mpmath.tan, "sinh": mpmath.sinh, "cosh": mpmath.cosh, "tanh": mpmath.tanh,
    "asinh": mpmath.asinh, "atan": mpmath.atan, "erf": mpmath.erf, "erfc": mpmath.erfc,
    "Abs": mpmath.fabs, "sign": mpmath.sign,
    "Heaviside": lambda u: mpmath.mpf(1) if u > 0 else mpmath.mpf(0) if u < 0 else mpmath.mpf(0.5),
    "acos": mpmath.acos, "asin": mpmath.asin, "atanh": mpmath.atanh, "acosh": mpmath.acosh,
    "floor": mpmath.floor, "ceiling": mpmath.ceil, "frac": lambda u: u - mpmath.floor(u),
    "gamma": mpmath.gamma, "loggamma": mpmath.loggamma, "LambertW": mpmath.lambertw,
}
_POINTS = ("7/10", "-3/10", "5/2")
UNARY = [f for f in FUNCTIONS if f.arity == 1]


def test_every_function_of_the_table_has_its_truth_here() -> None:
    assert {f.name for f in UNARY} <= _MPMATH.keys()


@pytest.mark.parametrize("function", UNARY, ids=lambda f: f.name)
def test_the_value_at_a_point_is_the_functions_value(function) -> None:
    compared = 0
    with mpmath.workdps(40):
        for point in _POINTS:
            q = Fraction(point)
            u = mpmath.mpf(q.numerator) / q.denominator
            try:
                want = _MPMATH[function.name](u)
            except (ValueError, ZeroDivisionError):
                continue
            if not isinstance(want, mpmath.mpf) or not mpmath.isfinite(want):
                continue  # outside the real domain
            r = sympy.Rational(point)
            for expr, extra in ((function.build(Z), 0), (function.build(Z) + sympy.Abs(Z), abs(u))):
                got = at_point(expr, Z, r)
                assert not got.atoms(sympy.Float), (function.name, point, got)
                value = mpmath.mpf(str(sympy.N(got, 40)))
                assert abs(value - want - extra) <= mpmath.mpf(10) ** -30 * (1 + abs(want)), (function.name, point, got)
            compared += 1
    assert compared >= 1, function.name
