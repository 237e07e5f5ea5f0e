"""``roots._certainly_real``: a constant is real only when its own enclosure succeeds at some
precision. asin(2), acos(3), atanh(2) carry no explicit I, yet have none; enclosing anything else
(the precision, say) would call them real. Real ones (√2, asin(1/2)) are accepted."""
from __future__ import annotations

import pytest
import sympy

from symcheck.exact.roots import _certainly_real


@pytest.mark.parametrize("c", [sympy.asin(2), sympy.acos(3), sympy.atanh(2), sympy.acosh(sympy.Rational(1, 2)),
                               sympy.asin(1 + sympy.exp(-40))], ids=str)
def test_a_constant_with_no_real_value_is_not_real(c) -> None:
    assert _certainly_real(c) is False


@pytest.mark.parametrize("c", [sympy.sqrt(2), sympy.asin(sympy.Rational(1, 3)), sympy.atanh(sympy.Rational(1, 2)),
                               sympy.asin(1 - sympy.exp(-40))], ids=str)
def test_a_real_constant_is_real(c) -> None:
    assert _certainly_real(c) is True
