"""The generator argument of ``proved_zero`` stays exact: a number that is not 0 by less than any
float can resolve — (1 + δ)·e^u − e^u with δ = 10⁻ᵏ, k ≥ 17 — is never proved 0, for every
way the exponential is written (a power of e, a product of exponentials, an exponential of a
sum). The same numbers with δ = 0, written without letting SymPy cancel them, are proved 0:
the test would not pass by the prover giving up on exponentials."""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.exact.zero_proof import generator_identity, proved_zero

ARGUMENTS = [sympy.pi, sympy.sqrt(2), sympy.Rational(1, 3), sympy.log(3), sympy.Integer(2), sympy.Integer(1)]


def _exponentials(u: sympy.Expr, v: sympy.Expr) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """Pairs (A, B) with A = B as numbers, B an exponential written another way than A."""
    return [(sympy.exp(u), sympy.exp(u)),
            (sympy.Mul(sympy.exp(u), sympy.exp(v), evaluate=False), sympy.exp(u + v)),
            (sympy.Pow(sympy.exp(u), 3, evaluate=False), sympy.exp(3 * u)),
            (sympy.Mul(sympy.E, sympy.exp(u), evaluate=False), sympy.exp(1 + u))]


def _difference(scale: sympy.Expr, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    return sympy.Add(sympy.Mul(scale, a, evaluate=False), sympy.Mul(-1, b, evaluate=False), evaluate=False)


@settings(max_examples=60, deadline=None)
@given(u=st.sampled_from(ARGUMENTS), v=st.sampled_from(ARGUMENTS), k=st.integers(17, 60),
       which=st.integers(0, 3), sign=st.sampled_from([1, -1]))
def test_a_residual_below_float_resolution_is_never_proved_zero(u, v, k, which, sign) -> None:
    a, b = _exponentials(u, v)[which]
    value = _difference(1 + sign * sympy.Rational(1, 10**k), a, b)
    assert not proved_zero(value), value
    assert not generator_identity(value), value


@settings(max_examples=30, deadline=None)
@given(u=st.sampled_from(ARGUMENTS), v=st.sampled_from(ARGUMENTS), which=st.integers(0, 3),
       scale=st.sampled_from([sympy.Integer(1), sympy.Rational(3, 7), sympy.Integer(-2)]))
def test_the_same_numbers_without_the_residual_are_proved_zero(u, v, which, scale) -> None:
    a, b = _exponentials(u, v)[which]
    assert proved_zero(_difference(scale, a, scale * b))
