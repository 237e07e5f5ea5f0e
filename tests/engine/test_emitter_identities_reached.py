"""True identities whose certificate needs one particular decision of the emitter
(symcheck/engine/certificate/rewrite.py, tree.py): each is 0 wherever defined, so the emitter must
hand the kernel a certificate it accepts (after a JSON round trip); a slip in that decision makes
the kernel refuse a step, the emitter give up or crash, and a ``holds`` turn inconclusive.

* an atom turned around only when its function is odd or even (acos is neither: no rule);
* a polynomial whose denominator is a constant other than 1 (Mod(u, c) = u − c·floor(u·c⁻¹)
  writes c⁻¹ unevaluated) divided through by it;
* sin and cos of a sum with an n·π term that is not the sum's first term (the generator sorts
  before π), the other terms kept;
* |N·D⁻¹| cut where its numerator changes sign (D proved non-zero, the first factor);
* a tiny constant factor found in the condition of a branch other than the first;
* constant factors and contents that are not dyadic (1/3), kept exact;
* multiple angles in a variable whose name is also a kernel head (``add``, ``int``, ``rat``);
* frac and Mod, written through their definitions.

Truth by hand is given beside each family."""
from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Mod, Piecewise, Rational, acos, cos, exp, floor, frac, log, sin

from symcheck.engine.certificate.emit import Certificate, certify_zero
from symcheck.kernel.check import check

z = sympy.Symbol("z", real=True)
a, b = sympy.symbols("a b", real=True)
PI = ("const", "pi")
Z = ("var", "z")


def neg(x):
    return ("mul", ("int", -1), x)


def accepted(outcome) -> None:
    assert isinstance(outcome, Certificate), str(outcome)
    again = check(json.loads(json.dumps(outcome.data)))  # what a file holds, re-read
    assert again.accepted, str(again)


# ------------------------------------------------ only odd and even functions are turned around

# acos(1 − z²) and acos((1 − z)(1 + z)) are one atom once the argument is canonical (leading
# coefficient −1); acos(−u) = π − acos(u), so there is no rule to turn it around and none is tried.
@pytest.mark.parametrize("expr", [
    acos((1 - z) * (1 + z)) - acos(1 - z**2),
    acos(1 - z * (z + 1)) - acos(1 - z - z**2),
    acos((2 - z)**2 - 5) - acos(z**2 - 4 * z - 1),
], ids=str)
def test_an_atom_of_a_function_neither_odd_nor_even_is_left_as_it_is(expr) -> None:
    accepted(certify_zero(expr, {z: ()}))


# ------------------------------------------------ a constant denominator other than 1

# Mod(c·z, m) = c·z − m·floor(c·z/m) exactly; the tree holds floor(c·z·m⁻¹) with m⁻¹ unevaluated,
# whose normal form has the constant denominator m, and the other side floor((c/m)·z).
@settings(max_examples=6, deadline=None)
@given(c=st.integers(1, 4), m=st.sampled_from([3, 5, 6, 7]))
def test_mod_by_a_constant_against_its_definition(c, m) -> None:
    accepted(certify_zero(Mod(c * z, m) + m * floor(Rational(c, m) * z) - c * z, {z: ()}))


def test_frac_against_its_definition() -> None:
    accepted(certify_zero(frac(z) - (z - floor(z)), {z: ()}))
    accepted(certify_zero(frac(2 * z) + floor(2 * z) - 2 * z, {z: ()}))


# ------------------------------------------------ sin and cos of a sum with an n·π term

# sin(g + nπ) = (−1)ⁿ sin g and cos(g + nπ) = (−1)ⁿ cos g. The atoms g below (atan, abs, asin
# of a bounded argument, and g + z) have generator keys that sort before π's, so the n·π term
# is not the first term of the canonical sum; the statement is a kernel tree (SymPy would
# already peel nπ off).
ATOMS = [("atan", Z), ("abs", Z), ("atan", ("mul", ("int", 2), Z)),
         ("add", ("atan", Z), Z), ("add", ("abs", Z), ("pow", Z, ("int", 2)))]


@settings(max_examples=12, deadline=None)
@given(g=st.sampled_from(ATOMS), head=st.sampled_from(["sin", "cos"]), n=st.integers(1, 3),
       extra=st.booleans())
def test_a_multiple_of_pi_after_the_first_term_is_split_off(g, head, n, extra) -> None:
    pi_term = PI if n == 1 else ("mul", ("int", n), PI)
    inner = ("add", g, pi_term, Z) if extra else ("add", g, pi_term)
    plain = ("add", g, Z) if extra else g
    expr = ("add", (head, inner), neg((head, plain)) if n % 2 == 0 else (head, plain))
    accepted(certify_zero(expr, {"z": ()}))


# ------------------------------------------------ |N·D⁻¹| cut where N changes sign

# |(z − c)/(z² + 1)|·(z² + 1) = |z − c|: the argument is written N·D⁻¹ with D > 0 proved, and the
# piece must be cut at the root c of N (the sign of z alone does not settle it).
@pytest.mark.parametrize("c", [1, 3, -2])
def test_the_absolute_value_of_a_fraction_is_cut_at_its_numerators_root(c) -> None:
    n = ("add", Z, ("int", -c))
    d = ("add", ("pow", Z, ("int", 2)), ("int", 1))
    expr = ("add", ("mul", ("abs", ("mul", n, ("pow", d, ("int", -1)))), d), neg(("abs", n)))
    accepted(certify_zero(expr, {"z": ()}))


# ------------------------------------------------ a tiny constant factor in a later branch

# z² − 2z + 2 > 0 and z² − 4z + 5 > 0 everywhere, and log(1 + e^-2000) > 0: the first condition
# is false, the second false (resp. true), so each piecewise is 0 (resp. 1) on R. The second
# condition is decided only once log(1 + e^-2000) is factored out of it.
@pytest.mark.parametrize("expr", [
    Piecewise((2, z**2 - 2 * z + 2 < 0), (1, (z**2 - 4 * z + 5) * log(1 + exp(-2000)) <= 0), (0, True)),
    Piecewise((2, z**2 - 2 * z + 2 < 0), (1, (z**2 - 4 * z + 5) * log(1 + exp(-2000)) > 0), (0, True)) - 1,
    Piecewise((2, z**2 + 1 <= 0), (3, z**2 - 2 * z + 2 < 0), (1, (z**2 - 4 * z + 5) * log(1 + exp(-2000)) <= 0),
              (0, True)),
], ids=str)
def test_a_constant_factor_is_found_in_a_later_branchs_condition(expr) -> None:
    accepted(certify_zero(expr, {z: ()}))


# ------------------------------------------------ non-dyadic ratios and contents stay exact

# (z² − z/3 + 1)·K > 0 on R (discriminant 1/9 − 4 < 0, K = log(1 + e^-2000) > 0): K·P with
# P's coefficients 1, −1/3, 1, which must be stated exactly.
@pytest.mark.parametrize("p", [z**2 - z / 3 + 1, z**2 / 3 + 1, z**2 + Rational(2, 7) * z + Rational(5, 3)], ids=str)
def test_a_constant_factor_with_thirds_and_sevenths(p) -> None:
    accepted(certify_zero(Piecewise((1, p * log(1 + exp(-2000)) > 0), (0, True)) - 1, {z: ()}))


# a·b − a/3 = (1/3)·a·(3b − 1): the condition in two variables is factored as its content 1/3
# (resp. −1/3, 1/7) times its irreducible factors, each factor's sign decided alone, so it is the
# same condition as the integer one beside it. (SymPy keeps a·b − a/3 > 0 as written; it would
# divide a·(1 − b)/3 > 0 through by 3 itself.)
@pytest.mark.parametrize("lhs,rhs", [
    (a * b - a / 3 > 0, 3 * a * b - a > 0),
    (a - a * b / 3 > 0, 3 * a - a * b > 0),
    (a * b / 7 + 2 * a / 7 >= 0, a * (b + 2) >= 0),
], ids=str)
def test_a_product_condition_with_a_content_of_a_third(lhs, rhs) -> None:
    expr = Piecewise((1, lhs), (0, True)) - Piecewise((1, rhs), (0, True))
    accepted(certify_zero(expr, {a: (), b: ()}))


# ------------------------------------------------ a variable's name does not matter

# sin 2x = 2 sin x cos x and cos 3x = 4cos³x − 3cos x, x named like a kernel head or not: the
# multiples c·x are collected for x whatever its name.
@pytest.mark.parametrize("name", ["z", "add", "int", "rat", "var", "mul"])
def test_multiple_angles_in_a_variable_named_like_a_head(name) -> None:
    x = sympy.Symbol(name, real=True)
    accepted(certify_zero(sin(2 * x) - 2 * sin(x) * cos(x), {x: ()}))
    accepted(certify_zero(cos(3 * x) - 4 * cos(x)**3 + 3 * cos(x), {x: ()}))
