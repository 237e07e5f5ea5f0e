"""``exact_sign`` is for numbers: anything with a free symbol is Undecided, never another error.

Its callers catch ``Undecided`` (the sign is unknown: no case is decided from it); an
EvaluationError from the enclosure code instead ("no value given for z") would escape them.
That holds even for an expression that is identically zero as a function (sin² + cos² − 1):
its sign as a number is not what was asked.
"""
from __future__ import annotations

import pytest
import sympy

from symcheck.exact.signs import Undecided, certified_order, exact_sign

z = sympy.Symbol("z", real=True)
a = sympy.Symbol("a")
SYMBOLIC = [z, sympy.exp(z), z**2 + 1, sympy.sin(z) ** 2 + sympy.cos(z) ** 2 - 1, a + sympy.pi,
            sympy.log(1 + sympy.exp(-30)) * z]


@pytest.mark.parametrize("value", SYMBOLIC, ids=str)
def test_a_value_with_a_free_symbol_is_undecided(value: sympy.Expr) -> None:
    with pytest.raises(Undecided):
        exact_sign(value)
    with pytest.raises(Undecided):  # an order is the sign of a difference: the same contract
        certified_order(value, sympy.pi)
