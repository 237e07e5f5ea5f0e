"""Relations and residuals whose polynomial has rational coefficients: the emitter's normal form
is n/d with a constant d ≠ 1, so splitting off a constant factor K (K·P) and factoring
(content · factors) must divide by d's content. Each certificate is re-checked by the kernel:
a factor left out gives a rewrite the kernel refuses, and the zero proof is lost."""
from __future__ import annotations

import pytest
import sympy
from sympy import Piecewise, log, pi
from sympy import Rational as R

from symcheck.engine.certificate.rewrite import constant_factor, factored, polynomial_over_generators
from symcheck.kernel.normal import Form

from support.kernel_certificates import emitted_and_accepted

z = sympy.Symbol("z", real=True)
CONSTANTS = [log(2), pi, log(3) - log(2)]


def accepted(expr) -> None:
    emitted_and_accepted(expr, z)


def step(cond) -> sympy.Expr:
    return Piecewise((1, cond), (0, True))


@pytest.mark.parametrize("K", CONSTANTS, ids=str)
@pytest.mark.parametrize("case", ["thirds", "sevenths", "halves"])
def test_a_constant_factor_over_a_rational_denominator(K, case) -> None:
    if case == "thirds":      # K·(z − 1)/3 > 0 is z > 1
        expr = Piecewise((z - 1, sympy.And(K * (z / 3 - R(1, 3)) > 0, z > -5)), (1 - z, True)) - sympy.Abs(z - 1)
    elif case == "sevenths":  # K·(z² − 4z + 5)/7 > 0 everywhere
        expr = step(sympy.And(K * (z**2 / 7 - 4 * z / 7 + R(5, 7)) > 0, z > 1)) - step(z > 1)
    else:                     # K·(z² − z)/5 + K/2 > 0 everywhere
        expr = step(sympy.And(K * (z**2 - z) / 5 + K * R(1, 2) > 0, z > 1)) - step(z > 1)
    accepted(expr)


# -- the same two steps on kernel trees whose normal form has a constant denominator d ≠ 1: a
#    tree may hold a number to a negative power, pow(3, −1), which the normal form keeps in d

X = ("var", "z")
THIRD = ("pow", ("int", 3), ("int", -1))
FIFTH = ("pow", ("add", ("int", 2), ("int", 3)), ("int", -1))
ATOMS = [("log", ("int", 2)), ("pi",), ("add", ("log", ("int", 3)), ("mul", ("int", -1), ("log", ("int", 2))))]


def _same_value(a, b) -> bool:
    """a = b as rational functions over their generators (the kernel's own normal form)."""
    difference = ("add", a, ("mul", ("int", -1), b))
    n, _ = Form(difference).of(difference)
    return n.is_zero()


@pytest.mark.parametrize("K", ATOMS, ids=str)
@pytest.mark.parametrize("over", [THIRD, FIFTH], ids=["1/3", "1/(2+3)"])
def test_splitting_a_constant_factor_divides_by_the_denominator(K, over) -> None:
    node = ("mul", over, ("add", ("mul", K, X, X), ("mul", ("int", -2), K, X), K))   # K·(z² − 2z + 1)/d
    assert not polynomial_over_generators(node)[3].is_one()
    split = constant_factor(node)
    assert split is not None and _same_value(split, node)


@pytest.mark.parametrize("over", [THIRD, FIFTH], ids=["1/3", "1/(2+3)"])
def test_factoring_divides_the_content_by_the_denominators(over) -> None:
    node = ("mul", over, ("add", ("mul", ("int", 6), X, X), ("mul", ("int", -6), X)))   # 6(z² − z)/d
    result = factored(node)
    assert result is not None and _same_value(result, node)
