"""floor, ceiling, frac and Mod of an irrational constant (parsing._integer_part), and the range
check on decimal literals.

SymPy guesses the integer part k of a constant u with evalf; the parser keeps k only when
certified signs show k <= u < k + 1. Each test below pins one decision of that check, exactly:
the folded value when the fold is right, and no wrong integer when SymPy's guess is wrong.
"""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck import DomainError, ParseError
from symcheck.language.parsing import LIMITS, parse_activation
from symcheck.language.symbols import Z

#: (sqrt(2)+1)(sqrt(2)-1) = 1 exactly, but SymPy does not expand it: u = m*ONE is the integer m
#: written as an irrational-looking product
ONE = "(sqrt(2) + 1)*(sqrt(2) - 1)"
#: log(1+x) - x + x²/2 at x = e^-30: about e^-90/3 > 0, but sympy.floor of it is -1
TINY = "(log(1 + exp(-30)) - exp(-30) + exp(-60)/2)"


def constant(text: str) -> sympy.Expr:
    """The parsed value of a constant expression (``+ z`` makes it an activation)."""
    return parse_activation(f"{text} + z") - Z


def test_sympy_guesses_the_floor_of_tiny_wrong() -> None:
    # the premise of the tests on TINY: SymPy's guess k = -1 is too small (the truth is 0)
    u = sympy.log(1 + sympy.exp(-30)) - sympy.exp(-30) + sympy.exp(-60) / 2
    assert sympy.floor(u) == -1


@given(st.integers(min_value=-6, max_value=6))
@settings(max_examples=8, deadline=None)
def test_ceiling_of_an_integer_written_irrationally_is_that_integer(m: int) -> None:
    # below = sign(u - k) = 0 here: the ceiling is k itself, not k + 1
    assert constant(f"ceiling({m}*{ONE})") == m
    assert constant(f"floor({m}*{ONE})") == m
    assert sympy.expand(constant(f"frac({m}*{ONE})")) == 0  # exact algebra: m*1 - m


@given(st.integers(min_value=-5, max_value=5))
@settings(max_examples=8, deadline=None)
def test_integer_parts_of_n_plus_sqrt2_are_folded_exactly(n: int) -> None:
    # n + 1 < n + sqrt(2) < n + 2: a certified fold, positive or negative
    assert constant(f"floor({n} + sqrt(2))") == n + 1
    assert constant(f"ceiling({n} + sqrt(2))") == n + 2
    assert constant(f"frac({n} + sqrt(2))") == sympy.sqrt(2) - 1


def test_integer_parts_of_pi_are_folded_exactly() -> None:
    pi = sympy.pi
    assert constant("floor(pi)") == 3
    assert constant("ceiling(pi)") == 4
    assert constant("frac(pi)") == pi - 3
    assert constant("floor(-pi)") == -4
    assert constant("ceiling(-pi)") == -3


def test_mod_of_a_constant_subtracts_modulus_times_floor() -> None:
    pi = sympy.pi
    assert constant("Mod(pi, 2)") == pi - 2
    assert constant("Mod(7*pi, 3)") == 7 * pi - 21   # floor(7*pi/3) = 7
    assert constant("Mod(-pi, 5)") == 5 - pi         # floor(-pi/5) = -1


@pytest.mark.parametrize("name", ["floor", "ceiling", "frac"])
def test_a_wrong_sympy_floor_of_a_tiny_constant_is_not_folded(name: str) -> None:
    # true values: floor 0, ceiling 1, frac TINY. SymPy's k = -1 fails u < k + 1 and must not be
    # kept; whatever is returned is the unevaluated node or the true value, never -1 / 0 / TINY + 1
    u = sympy.sympify(TINY)
    truth = {"floor": sympy.Integer(0), "ceiling": sympy.Integer(1), "frac": u}[name]
    value = constant(f"{name}({TINY})")
    node = {"floor": sympy.floor, "ceiling": sympy.ceiling, "frac": sympy.frac}[name]
    assert value == truth or (isinstance(value, node) and value.args[0] == u), value


def test_mod_of_a_tiny_constant_is_not_folded_with_a_wrong_floor() -> None:
    u = sympy.sympify(TINY)
    value = constant(f"Mod({TINY}, 1)")
    assert value == u or (isinstance(value, sympy.Mod) and value.args == (u, 1)), value


def test_decimal_literal_with_exponent_just_past_the_bound_but_in_range_is_read() -> None:
    bound = LIMITS.max_literal_exponent
    # 1.5e-300 has digits 15 and exponent -301 (|-301| <= bound + 100) and magnitude 10**-300
    assert constant(f"1.5e-{bound}") == sympy.Rational(15, 10 ** (bound + 1))
    digits = "1." + "0" * 99 + "7"   # exponent -(bound + 100): the most trailing digits allowed
    assert constant(f"{digits}e-{bound}") == sympy.Rational(10 ** 100 + 7, 10 ** (bound + 100))


def test_decimal_literal_beyond_the_limits_is_refused() -> None:
    bound = LIMITS.max_literal_exponent
    with pytest.raises((ParseError, DomainError)):
        constant("1." + "0" * 100 + "7" + f"e-{bound}")   # exponent -(bound + 101)
    with pytest.raises((ParseError, DomainError)):
        constant(f"1e-{bound + 1}")
