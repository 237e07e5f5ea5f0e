"""The a a group argument pins down is an exact number, never a float approximation of it.

Two Taylor laws c = K₁·|a|^k₁ and c = K₂·|a|^k₂ of one sign of a leave |a|^(k₁−k₂) = K₂/K₁, so
|a| = (K₂/K₁)^(1/(k₁−k₂)): the root has to be taken with an exact rational exponent. With a float
exponent SymPy evaluates 4^(−1.0) to the Float 0.25 and 2^(−0.5) to 0.7071…, and the candidate
(a, c) the decider then proves or refutes is an approximation, not the one the laws force.

σ = 1 + z for z ≥ 0 and 1 + m·(−z)^j for z < 0 (one-sided coefficients p₀ = m₀ = 1, p_j = 1,
m_j = m) gives, for a < 0, the laws c = 1 (from σ(0)) and c = m·|a|^j: so a = −m^(−1/j), exactly.

Likewise {α : (α, α) ∈ component} of a law component c = K·|a|^k (k ≠ 1) is α = ±(±1/K)^(1/(k−1)),
an exact root.
"""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Rational as R
from sympy import S

import symcheck as sc
from symcheck.core.budget import Budget
from symcheck.engine.group.facts import BoundKind, Law
from symcheck.engine.group.maximality import bounds
from symcheck.engine.group.results import ASet, Component, SymmetryGroup


def _spec(m: sympy.Expr, j: int) -> str:
    """σ₊(z) = 1 + z^j, σ₋(z) = 1 + m·(−z)^j: for a < 0 the laws c = 1 and c = m·|a|^j."""
    return f"Piecewise((1 + z**{j}, z >= 0), (1 + ({m})*(-z)**{j}, True))"


def _is_float_free(value: sympy.Expr) -> bool:
    return not sympy.sympify(value).atoms(sympy.Float)


@pytest.mark.parametrize(("m", "j", "a0"), [
    (R(4), 1, R(-1, 4)),                          # |a|^(−1) = 4
    (R(1, 9), 1, R(-9)),                          # |a|^(−1) = 1/9
    (R(4), 2, R(-1, 2)),                          # |a|^(−2) = 4
    (R(8), 3, R(-1, 2)),                          # |a|^(−3) = 8: a float exponent 1/3.0 is not 1/3
    (R(2), 2, -sympy.sqrt(2) / 2),                # |a|^(−2) = 2: an exact radical
])
def test_the_negative_candidate_of_two_laws_is_exact(m, j, a0) -> None:
    g = sc.symmetry_group(_spec(m, j))
    assert g.complete, str(g)
    # the candidate is refuted (a > 0 is a = 1 only, so (a0, 1) is no member), with the exact a0
    assert len(g.excluded) == 1, str(g)
    excluded = g.excluded[0]
    assert _is_float_free(excluded.a) and _is_float_free(excluded.c), (excluded.a, excluded.c)
    assert sympy.simplify(excluded.a - a0) == 0 and excluded.c == 1
    conclusion = next(s for s in g.maximality if s.title == "Conclusion, a < 0")
    assert "." not in conclusion.statement, conclusion.statement     # no decimal point: no Float shown
    assert g.contains(a0, 1) is False


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.fractions(min_value=R(1, 50), max_value=50).filter(lambda f: f != 1),
       st.sampled_from([1, 2, 3]))
def test_two_laws_leave_the_exact_modulus(m, j) -> None:
    """bounds() itself: for a < 0 the single point is (−m^(−1/j), 1), as an exact SymPy number."""
    m = sympy.Rational(m)
    sigma = sc.activation(_spec(m, j))
    bound = bounds(sigma, (S.One, S(2)), Budget(60)).bounds[-1]
    assert bound.kind is BoundKind.POINTS, bound
    ((a0, c0),) = bound.points
    assert _is_float_free(a0) and _is_float_free(c0), (a0, c0)
    expected = -m ** R(-1, j)
    assert sympy.simplify(a0 - expected) == 0 and sympy.simplify(c0 - 1) == 0
    assert sympy.simplify(a0 ** j * m - (-1) ** j) == 0             # |a0|^j·m = 1, exactly


@pytest.mark.parametrize(("K", "k", "alphas"), [
    (R(1, 4), 3, sympy.FiniteSet(2)),                    # |α|^2 = 4
    (R(1, 8), 4, sympy.FiniteSet(2)),                    # |α|^3 = 8: 8^(1/3.0) is no exact 2
    (R(1, 2), 3, sympy.FiniteSet(sympy.sqrt(2))),        # |α|^2 = 2: an exact radical
])
def test_the_alphas_of_a_law_component_are_exact(K, k, alphas) -> None:
    """{α : (α, α) in the component} for c = K·a^k on a > 0 (a hand-built component, for the
    arithmetic of the set alone): α^(k−1) = 1/K, α = (1/K)^(1/(k−1)), not a Float."""
    law = Law(K, sympy.Integer(k))
    component = Component(ASet("positive"), law.c(1), (), laws=((1, law),))
    g = SymmetryGroup(sc.activation("identity"), (component,), True, ())
    found = g.inverse_scaling_alphas()
    assert isinstance(found, sympy.FiniteSet) and found == alphas, found
    assert _is_float_free(found.args[0])
