"""A family whose base may be 0 under a parameter exponent: 0^p is 0 for p > 0 and 0^0 = 1, as
SymPy, mpmath, NumPy and PyTorch compute it, so ``z*Abs(z)**p`` is defined for every p ≥ 0 (at
p = 0 it is the σ = z a user gets by writing ``z*Abs(z)**0``); a range reaching p < 0 is refused,
naming z = 0. Truth by hand: z·|z|^p is homogeneous of degree p + 1, so exchange and the inverse
scaling (α > 0) hold exactly when p = 0."""
from __future__ import annotations

import mpmath
import pytest
import sympy

import symcheck as sc
from symcheck.core.errors import DomainError

pytestmark = pytest.mark.usefixtures("generous_region_budget")


def test_the_convention_is_the_evaluators_own() -> None:
    assert sympy.Integer(0) ** 0 == 1 and mpmath.mpf(0) ** 0 == 1 and 0.0**0.0 == 1.0
    assert sc.activation("z*Abs(z)**0").expr == sympy.Symbol("z", real=True)


@pytest.mark.parametrize("check", [sc.check_exchange, sc.check_inverse_scaling])
def test_p_at_least_zero_is_accepted_and_split_at_zero(check) -> None:
    result = check("z*Abs(z)**p", params={"p": "p>=0"})
    assert result.verdict.value == "broken"
    assert [(r.region, r.verdict.value) for r in result.regions] == [("Eq(p, 0)", "holds"), ("p > 0", "broken")]
    p = sympy.Rational(result.witness_params["p"])
    assert p > 0


@pytest.mark.parametrize("declared", ["p>-1/2", "p>=-1", "p"])
def test_a_range_reaching_a_negative_exponent_is_refused_at_zero(declared: str) -> None:
    with pytest.raises(DomainError) as info:
        sc.check_exchange("z*Abs(z)**p", params={"p": declared})
    assert "z = 0" in str(info.value)


def test_a_shifted_exponent_that_can_be_negative_is_still_refused() -> None:
    with pytest.raises(DomainError):
        sc.check_exchange("Abs(z)**(p - 1)", params={"p": "p>=0"})
