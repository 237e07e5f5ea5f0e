"""Issue 23, slip 4: a function added to the parser's allow-list without its definedness
obligation (`asin(z)` then accepted as defined on R).

What the user relies on: an activation the parser accepts is defined at every real z. So every
function name SymPy knows is either refused, or, when accepted, gives a finite real value at
points on both sides of 0 and far out — asin, acos, acosh, atanh, gamma ... are not.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy

import symcheck as sc
from symcheck.core.errors import SymcheckError

#: functions SymPy knows that are not defined (or not real) on all of R, and a few that are
NAMES = ["asin", "acos", "acosh", "atanh", "acot", "asec", "acsc", "acoth", "asech", "acsch", "gamma",
         "loggamma", "digamma", "zeta", "cot", "sec", "csc", "coth", "csch", "LambertW", "li", "Ei",
         "erfinv", "erfcinv", "log", "sqrt", "tan", "factorial", "floor", "ceiling", "frac", "re", "im",
         "arg", "conjugate", "cbrt", "exp_polar", "sin", "cos", "exp", "tanh", "asinh", "atan", "erf"]
POINTS = ("-7", "-2", "-1/2", "0", "1/3", "3/2", "5")


@pytest.mark.parametrize("name", NAMES)
def test_an_accepted_function_is_defined_at_every_sample_point(name: str) -> None:
    try:
        sigma = sc.activation(f"{name}(z)")
    except SymcheckError:
        return  # refused: no claim is made about it
    z = next(iter(sigma.expr.free_symbols)) if sigma.expr.free_symbols else sympy.Symbol("z")
    for point in POINTS:
        value = sympy.N(sigma.expr.subs(z, sympy.Rational(point)), 30)
        assert value.is_real and value.is_finite, (name, point, value)
        assert mpmath.isfinite(mpmath.mpf(str(value)))


@pytest.mark.parametrize("spec", ["asin(z)", "acos(z/2)", "z*asin(z)", "atanh(z)", "acosh(z)"])
def test_functions_undefined_somewhere_on_r_are_refused(spec: str) -> None:
    with pytest.raises(SymcheckError):
        sc.activation(spec)


@pytest.mark.parametrize("spec", ["asin(z)", "acos(z)"])
def test_the_command_line_refuses_them_with_exit_status_2(spec: str) -> None:
    from support import invoke_cli
    code, out, err = invoke_cli("scaling", "--act", spec, "--alpha", "-1")
    assert (code, out) == (2, "") and err.startswith("Error:")
