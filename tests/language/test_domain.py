"""The domain check: obligations proved on all of R, or refuted at a certified point, or unverified."""
from __future__ import annotations

import pytest
import sympy

from symcheck.core.errors import DomainError
from symcheck.language.definedness import Obligation, check_defined_on_reals
from symcheck.language.parsing import parse_activation
from symcheck.language.symbols import A, B, Z


def test_check_defined_on_reals_directly() -> None:
    check_defined_on_reals(Z, [Obligation("positive", 1 + Z**2, "log(1 + z**2)")])
    with pytest.raises(DomainError) as info:
        check_defined_on_reals(Z, [Obligation("nonzero", Z - 2, "division by (z - 2)")])
    assert info.value.point == 2


def test_uncovered_region_is_refused_at_a_point_inside_it() -> None:
    with pytest.raises(DomainError) as info:
        check_defined_on_reals(Z, [Obligation("covered", Z, "pw", Z < 0)])
    assert str(info.value) == "pw does not cover all of R: no branch applies at z = -1"
    assert info.value.point == -1


@pytest.mark.parametrize(("expr", "message"), [
    (A + B, "expected one variable, found 2: a, b"),
    (Z + sympy.I, "not real-valued: the expression contains I"),
    (Z + sympy.zoo, "not real-valued: the expression contains zoo (complex infinity)"),
    (Z + sympy.oo, "not real-valued: the expression contains oo (infinity)"),
    (sympy.nan, "not real-valued: the expression contains nan"),
])
def test_one_real_variable_and_real_values(expr: sympy.Expr, message: str) -> None:
    with pytest.raises(DomainError) as info:
        check_defined_on_reals(expr, [])
    assert str(info.value) == message


# --- through the parser ------------------------------------------------------------------------

PINNED = [
    ("log(z)", "log(z) is not defined on all of R: its argument is not positive at z = 0"),
    ("log(x)", "log(x) is not defined on all of R: its argument is not positive at x = 0"),
    ("1/z", "division by z is undefined at z = 0"),
    ("z/z", "division by z is undefined at z = 0"),
    ("sqrt(z)", "sqrt(z) is not defined on all of R: its argument is negative at z = -1"),
    ("tan(z)", "tan(z) is undefined at z = pi/2"),
    ("1/(exp(z) - 2)", "division by (exp(z) - 2) is undefined at z = log(2)"),
    ("z**(1/3)", "z**(1/3) is not defined on all of R: its base is negative at z = -1"),
    ("z**z",
     "z**z needs a positive base because its exponent is not a number, but the base is not positive at z = 0"),
    ("sqrt(-1)", "sqrt(-1) is not defined on all of R: its argument is negative at z = 0"),
    ("log(-1)", "log(-1) is not defined on all of R: its argument is not positive at z = 0"),
    ("Piecewise((z, z > 0))", "Piecewise((z, z > 0)) does not cover all of R: no branch applies at z = 0"),
    ("Piecewise((z, z > 0), (-z, z < 0))",
     "Piecewise((z, z > 0), (-z, z < 0)) does not cover all of R: no branch applies at z = 0"),
    ("Piecewise((log(z), sin(z) > 0), (0, True))",
     "could not verify that log(z) is defined for every real z"),
]


@pytest.mark.parametrize(("text", "message"), PINNED, ids=[repr(t[:40]) for t, _ in PINNED])
def test_refused_with_exact_message(text: str, message: str) -> None:
    with pytest.raises(DomainError) as info:
        parse_activation(text)
    assert str(info.value) == message
    assert "\n" not in str(info.value)
    assert info.value.text == text


@pytest.mark.parametrize(("text", "point"), [
    ("log(z)", 0), ("1/z", 0), ("z/z", 0), ("sqrt(z)", -1), ("tan(z)", sympy.pi / 2),
    ("1/(z**2 - 1)", -1), ("Piecewise((z, z > 0))", 0), ("Abs(z)**(-1/2)", 0),
    # SymPy fails building the unevaluated violation indicator of this obligation (a
    # ZeroDivisionError inside Piecewise): that proves nothing, and the point is found another way
    ("-(-((Piecewise((0, z > 0), (z, True)))**(1/3)))", -1),
])
def test_domain_error_carries_a_certified_point(text: str, point: sympy.Expr) -> None:
    with pytest.raises(DomainError) as info:
        parse_activation(text)
    assert info.value.point == point


@pytest.mark.parametrize("text", [
    "0/0", "1/0", "z/(z - z)", "log(0)", "(-8)**(1/3)", "exp(z)**(1/2)*sqrt(-z**2 - 1)",
    "Piecewise((sqrt(z), z > -1), (0, True))", "log(exp(z) - 1)", "sinh(z)**(1/2)",
])
def test_not_defined_on_all_of_r(text: str) -> None:
    with pytest.raises(DomainError):
        parse_activation(text)


def test_domain_errors_are_value_errors_too() -> None:
    with pytest.raises(ValueError):
        parse_activation("log(z)")


def test_long_piecewise_is_checked() -> None:
    # 39 branches, each with its own region: every log's argument is proved positive there
    branches = ",".join(f"(log(z + {i}), z > {1 - i})" for i in range(1, 40))
    parse_activation(f"Piecewise({branches}, (0, True))")
