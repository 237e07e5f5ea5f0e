"""A function of an argument with an irrational constant factor, f(c·u(z)): the parser may take
c out only where f allows it (|c·u| = |c|·|u|, sign(c·u) = sign(c)·sign(u), H(c·u) = H(±u), an odd
f's −1), by c's certified sign. Whatever it does, the expression it returns has, at every point,
the value of what was written — checked against mpmath on the formula as written."""
from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import SymcheckError
from symcheck.language.parsing import _UNARY


def _heaviside(x):
    return mpmath.mpf(1) if x > 0 else mpmath.mpf(0) if x < 0 else mpmath.mpf(1) / 2


#: each unary function of the language, as mpmath computes it
MPMATH = {"Abs": mpmath.fabs, "Heaviside": _heaviside, "LambertW": lambda x: mpmath.lambertw(x).real,
          "acos": mpmath.acos, "acosh": mpmath.acosh, "asin": mpmath.asin, "asinh": mpmath.asinh,
          "atan": mpmath.atan, "atanh": mpmath.atanh, "ceiling": mpmath.ceil, "cos": mpmath.cos,
          "cosh": mpmath.cosh, "erf": mpmath.erf, "erfc": mpmath.erfc, "exp": mpmath.exp, "floor": mpmath.floor,
          "frac": mpmath.frac, "gamma": mpmath.gamma, "log": mpmath.log, "loggamma": mpmath.loggamma,
          "sign": mpmath.sign, "sin": mpmath.sin, "sinh": mpmath.sinh, "sqrt": mpmath.sqrt, "tan": mpmath.tan,
          "tanh": mpmath.tanh}
#: irrational constants of both signs, as written and as mpmath computes them
CONSTANTS = {"-pi/4": lambda: -mpmath.pi / 4, "sqrt(2)/3": lambda: mpmath.sqrt(2) / 3,
             "-exp(-1)": lambda: -mpmath.exp(-1), "-sqrt(3)/2": lambda: -mpmath.sqrt(3) / 2,
             "log(2)/2": lambda: mpmath.log(2) / 2, "-(sqrt(5) - 1)/2": lambda: -(mpmath.sqrt(5) - 1) / 2}
#: arguments u(z) bounded by 1 (so that asin, atanh ... of c·u are defined everywhere) or not
INNER = {"tanh(z)": mpmath.tanh, "sin(z)": mpmath.sin, "z/(1 + z**2)": lambda z: z / (1 + z**2), "z": lambda z: z}
POINTS = ("-2.75", "-0.45", "0.3", "1.7", "6.5")


def test_every_function_of_the_language_is_covered() -> None:
    assert set(_UNARY) <= set(MPMATH)


@pytest.mark.parametrize("name", sorted(_UNARY))
@settings(max_examples=12, deadline=None)
@given(constant=st.sampled_from(sorted(CONSTANTS)), inner=st.sampled_from(sorted(INNER)))
@pytest.mark.slow
def test_a_constant_factor_keeps_the_written_value(name: str, constant: str, inner: str) -> None:
    written = f"{name}(({constant})*{inner})"
    try:
        sigma = sc.activation(written)
    except SymcheckError:
        return  # refused (not defined on all of R): no value is claimed
    (z,) = sigma.expr.free_symbols or {sympy.Symbol("z", real=True)}
    with mpmath.workdps(40):
        for point in POINTS:
            x = mpmath.mpf(point)
            expected = MPMATH[name](CONSTANTS[constant]() * INNER[inner](x))
            got = sympy.N(sigma.expr.xreplace({z: sympy.Rational(point)}), 40)
            assert abs(mpmath.mpf(str(got)) - expected) <= mpmath.mpf(10) ** -30 * (1 + abs(expected)), \
                (written, sigma.expr, point, got, expected)


#: arguments of one strict sign that hold an irrational number (SymPy decides |u|, sign(u), H(u)
#: for them, and the parser keeps that only when it proves the case everywhere)
SIGNED_INNER = {"(z**2 + pi)": lambda z: z**2 + mpmath.pi, "(-z**2 - sqrt(2))": lambda z: -z**2 - mpmath.sqrt(2),
                "(exp(z) + log(2))": lambda z: mpmath.exp(z) + mpmath.log(2)}
FACTORS = {"2": lambda: mpmath.mpf(2), "-3": lambda: mpmath.mpf(-3), "(1/5)": lambda: mpmath.mpf(1) / 5, **CONSTANTS}


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(["Abs", "sign", "Heaviside"]), factor=st.sampled_from(sorted(FACTORS)),
       inner=st.sampled_from(sorted(SIGNED_INNER)))
def test_a_factor_of_a_signed_irrational_argument_keeps_the_written_value(name, factor, inner) -> None:
    """f(c·u) with u of one sign holding an irrational: the factor taken out (|c|, sign(c), or
    the flip of H) multiplies the case proved for u, and nothing of u's value is lost."""
    written = f"{name}({factor}*{inner})"
    sigma = sc.activation(written)
    (z,) = sigma.expr.free_symbols or {sympy.Symbol("z", real=True)}
    with mpmath.workdps(40):
        for point in POINTS:
            x = mpmath.mpf(point)
            expected = MPMATH[name](FACTORS[factor]() * SIGNED_INNER[inner](x))
            got = sympy.N(sigma.expr.xreplace({z: sympy.Rational(point)}), 40)
            assert abs(mpmath.mpf(str(got)) - expected) <= mpmath.mpf(10) ** -30 * (1 + abs(expected)), \
                (written, sigma.expr, point, got, expected)
