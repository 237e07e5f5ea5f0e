"""The second-opinion arithmetic keeps a function's rational value at a rational point exact.

:class:`~symcheck.exact.intervals.Enclosure` returns a ``Fraction`` where the value is a known
rational (acos(1) = 0, cosh(0) = 1, Γ(4) = 6, ...). That is what lets ``recheck_sign`` say
"exactly 0": an interval can only ever say "not decided" about a zero. A slip that returns
the right number with the wrong type (``float(0)`` for ``Fraction(0)``) leaves every enclosure
correct and silently turns these exact zeros into open questions, or worse, feeds a float
into the exact branch of the next operation.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symcheck.exact.evaluate import recheck_sign
from symcheck.exact.intervals import Enclosure

z = sympy.Symbol("z", real=True)
R = sympy.Rational

#: (Enclosure method, SymPy function, point, its exact value there)
EXACT = [
    ("exp", sympy.exp, 0, 1), ("log", sympy.log, 1, 0), ("sin", sympy.sin, 0, 0),
    ("cos", sympy.cos, 0, 1), ("tan", sympy.tan, 0, 0), ("cosh", sympy.cosh, 0, 1),
    ("erfc", sympy.erfc, 0, 1), ("asin", sympy.asin, 0, 0), ("acos", sympy.acos, 1, 0),
    ("atanh", sympy.atanh, 0, 0), ("sqrt", sympy.sqrt, R(9, 4), R(3, 2)),
    ("sqrt", sympy.sqrt, 0, 0), ("floor", sympy.floor, R(7, 2), 3),
    ("gamma", sympy.gamma, 4, 6), ("loggamma", sympy.loggamma, 1, 0),
    ("loggamma", sympy.loggamma, 2, 0), ("lambertw", sympy.LambertW, 0, 0),
]
IDS = [f"{name}({point})" for name, _, point, _ in EXACT]


@pytest.mark.parametrize("name, _function, point, value", EXACT, ids=IDS)
def test_a_rational_value_is_returned_as_a_fraction(name, _function, point, value):
    got = getattr(Enclosure(64), name)(Fraction(R(point).p, R(point).q))
    assert type(got) is Fraction and got == Fraction(R(value).p, R(value).q), got


@pytest.mark.parametrize("_name, function, point, value", EXACT, ids=IDS)
def test_the_difference_from_the_value_is_exactly_zero(_name, function, point, value):
    assert recheck_sign(function(z) - value, {z: R(point)}) == 0


@pytest.mark.parametrize("_name, function, point, value", EXACT, ids=IDS)
@given(shift=st.fractions(min_value=-10, max_value=10).filter(lambda q: q != 0))
def test_a_shifted_value_takes_the_shift_s_sign(_name, function, point, value, shift):
    """f(p) − value + shift at the point: exact arithmetic all the way, so shift's sign at any
    size (10⁻³⁰ is far below any interval's width at the first precision)."""
    c = R(shift.numerator, shift.denominator) / 10**30
    expr = sympy.Add(function(z), -value, c, evaluate=False)
    assert recheck_sign(expr, {z: R(point)}) == (1 if c > 0 else -1)
