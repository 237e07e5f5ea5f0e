"""acos, asin, atanh and acosh at an exact rational argument: inside the domain the enclosure holds
the value (checked against mpmath at a higher precision), the closed ends included (acos(±1),
asin(±1), acosh(1)); outside it, or at an open end (atanh(±1)), the value is undefined: the
enclosure refuses and no sign is certified."""
from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import certify_nonzero, enclose

Z = sympy.Symbol("z")
#: function → (its domain's ends, closed?), and the mpmath function
DOMAINS = {sympy.acos: ((-1, 1), True, mpmath.acos), sympy.asin: ((-1, 1), True, mpmath.asin),
           sympy.atanh: ((-1, 1), False, mpmath.atanh), sympy.acosh: ((1, None), True, mpmath.acosh)}


def inside(f, x: sympy.Rational) -> bool:
    (lo, hi), closed, _ = DOMAINS[f]
    above = x >= lo if closed else x > lo
    below = hi is None or (x <= hi if closed else x < hi)
    return bool(above and below)


@pytest.mark.parametrize("f", list(DOMAINS), ids=lambda f: f.__name__)
@given(p=st.integers(-40, 40), q=st.integers(1, 12))
def test_an_exact_argument_is_enclosed_inside_the_domain_and_refused_outside(f, p: int, q: int) -> None:
    x = sympy.Rational(p, q)
    if not inside(f, x):
        with pytest.raises(EvaluationError):
            enclose(f(Z), {Z: x}, 128)
        assert certify_nonzero(f(Z), {Z: x}) is None
        return
    with mpmath.workprec(300):
        value = DOMAINS[f][2](mpmath.mpf(p) / q)
        interval = enclose(f(Z), {Z: x}, 128)
        assert interval.a <= value <= interval.b, (f, x, interval, value)
        assert interval.delta <= abs(value) * mpmath.mpf(2) ** -100 + mpmath.mpf(2) ** -120


@pytest.mark.parametrize("f, x", [(sympy.acos, -1), (sympy.acos, 1), (sympy.asin, -1), (sympy.asin, 1),
                                  (sympy.acosh, 1)])
def test_the_closed_ends_of_the_domain_are_values(f, x: int) -> None:
    with mpmath.workprec(300):
        value = DOMAINS[f][2](x)
        interval = enclose(f(Z), {Z: sympy.Integer(x)}, 128)
        assert interval.a <= value <= interval.b
    assert (certify_nonzero(f(Z), {Z: x}) is None) == (value == 0)


@pytest.mark.parametrize("x", [-1, 1])
def test_atanh_at_the_open_ends_is_undefined(x: int) -> None:
    with pytest.raises(EvaluationError):
        enclose(sympy.atanh(Z), {Z: x}, 128)
