"""The Python API takes what the command line takes: floats for α, SymPy expressions for σ."""
from __future__ import annotations

import pytest
import sympy

import symcheck as sc
from symcheck.core.errors import ParseError, UnknownNameError

x = sympy.Symbol("x")


@pytest.mark.parametrize("alpha, exact", [(0.5, sympy.Rational(1, 2)), (0.1, sympy.Rational(1, 10)),
                                          (-1.0, -1), (2.0, 2), (1e-31, sympy.Rational(1, 10**31))])
def test_a_float_alpha_is_its_exact_decimal(alpha: float, exact) -> None:
    assert sc.domain(alpha).value == exact
    assert sc.check_inverse_scaling("relu", alpha=alpha).verdict.value == ("holds" if exact > 0 else "broken")


@pytest.mark.parametrize("alpha", [float("nan"), float("inf"), float("-inf")])
def test_a_non_finite_alpha_is_refused(alpha: float) -> None:
    with pytest.raises(ParseError, match="finite"):
        sc.check_inverse_scaling("relu", alpha=alpha)


def test_zero_alpha_in_any_spelling_says_non_zero() -> None:
    for alpha in (0, 0.0, "0", "1/0"):
        with pytest.raises(ParseError, match="non-zero"):
            sc.domain(alpha)


@pytest.mark.parametrize("spec, verdict", [(sympy.Max(x, 0), "holds"), (sympy.Lambda(x, sympy.Max(x, 0)), "holds"),
                                           (x * sympy.tanh(x), "broken"), (sympy.Max(sympy.Symbol("z"), 0), "holds")])
def test_a_sympy_activation_is_taken(spec, verdict: str) -> None:
    assert sc.check_inverse_scaling(spec).verdict.value == verdict
    assert sc.activation(spec).expr.free_symbols <= {sympy.Symbol("z", real=True)}


def test_a_sympy_activation_meets_the_same_checks_as_text() -> None:
    with pytest.raises(sc.DomainError, match="not defined on all of R"):
        sc.activation(sympy.log(x))
    with pytest.raises(UnknownNameError, match="2 variables"):
        sc.activation(x * sympy.Symbol("y"))
    with pytest.raises(ParseError, match="zeta"):
        sc.activation(sympy.zeta(x))  # not on the allow-list
    with pytest.raises(sc.DomainError, match="pole"):
        sc.activation(sympy.gamma(x))  # on the allow-list, with its domain
