"""What the change of variables u = x·y reports: D itself, G = D with y = u/x, and a certificate of D.

The derivation prints ``decision.difference`` (D) and ``decision.product.reduced`` (G), and the
witness's certificate is quoted as the value of D; users paste these into papers. Each must be
exactly what it claims, on the proof path and on the witness path alike.
"""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.budget import Budget
from symcheck.engine import plane
from symcheck.engine.plane import decide_plane, whole_line
from symcheck.engine.symmetries import check
from symcheck.language.symbols import A, B
from symcheck.language.transformations import Transformation, domain

PLANE = {A: whole_line(), B: whole_line()}
ONE = sympy.sin(A) ** 2 + sympy.cos(A) ** 2   # = 1, but SymPy's evaluation does not say so


def clip(z: sympy.Expr, c: sympy.Expr = sympy.S.One) -> sympy.Expr:
    """hardtanh with bound c: every branch condition in z = a·b is a curve in the plane."""
    return sympy.Min(c, sympy.Max(-c, z))


def through_product(lhs: sympy.Expr, rhs: sympy.Expr) -> plane.PlaneDecision | None:
    budget = Budget(30)
    return plane._through_product(lhs, rhs, PLANE, budget, plane._Searcher(lhs - rhs, PLANE, budget))


def assert_reports_d_and_g(decision: plane.PlaneDecision, lhs: sympy.Expr, rhs: sympy.Expr) -> None:
    """D is left − right; G is D with b = u/a as written, free of a and b."""
    product = decision.product
    assert product is not None
    assert decision.difference == lhs - rhs
    assert (product.x, product.y) == (A, B) and product.u not in (lhs - rhs).free_symbols
    assert product.reduced == (lhs - rhs).xreplace({B: product.u / A})
    assert not product.reduced.free_symbols & {A, B}


def assert_certifies_d(decision: plane.PlaneDecision, lhs: sympy.Expr, rhs: sympy.Expr) -> None:
    """The certificate is D's own exact value at the witness (a rational here), sign included."""
    assert decision.verdict.value == "broken" and decision.witness is not None
    assert decision.witness[A] == 1
    value = (lhs - rhs).xreplace(dict(decision.witness))
    assert value.is_Rational and value != 0
    certificate = decision.certificate
    assert certificate is not None and certificate.exact
    assert certificate.value == value and certificate.sign == sympy.sign(value)


def test_a_proof_through_u_reports_d_and_g_exactly() -> None:
    # −σ(−ab) = σ(ab) for the odd σ: the split alone is inconclusive (|ab| < 1 is a curve)
    lhs, rhs = -clip(-A * B), clip(A * B)
    decision = decide_plane(lhs, rhs, PLANE, Budget(30))
    assert decision.verdict.value == "holds"
    assert_reports_d_and_g(decision, lhs, rhs)


def test_a_witness_through_u_carries_the_certificate_of_d_not_of_one_side() -> None:
    # at the witness (1, u₀), |u₀| > 2, the left side alone is ±1 and D is ∓1: opposite signs
    lhs, rhs = clip(A * B), clip(A * B, sympy.Integer(2))
    decision = through_product(lhs, rhs)
    assert decision is not None
    assert_certifies_d(decision, lhs, rhs)
    assert_reports_d_and_g(decision, lhs, rhs)


BOUNDS = st.sampled_from([sympy.Rational(v) for v in ("1", "2", "1/2", "3/2", "5")])


@given(c=BOUNDS, d=BOUNDS)
@settings(max_examples=20, deadline=None)
def test_clipped_products_are_decided_and_reported_exactly(c, d) -> None:
    """−clip_c(−ab) = clip_d(ab) holds iff c = d; either way the report is D, G and D's value."""
    lhs, rhs = -clip(-A * B, c), clip(A * B, d)
    decision = through_product(lhs, rhs)
    assert decision is not None
    assert decision.verdict.value == ("holds" if c == d else "broken")
    assert_reports_d_and_g(decision, lhs, rhs)
    if c != d:
        assert_certifies_d(decision, lhs, rhs)


@pytest.mark.parametrize("lhs, rhs", [
    (sympy.Abs(A * B), sympy.Abs(A * B) * ONE),      # a survives on the right side only
    (A * B, A * B * ONE),
    (sympy.Abs(A * B) * ONE, sympy.Abs(A * B)),      # ... or on the left side only
    (A * B * ONE, A * B),
])
def test_no_change_of_variables_while_a_survives_in_either_side(lhs, rhs) -> None:
    """D = 0 here, but with b = u/a, D as written still depends on a: no G(u) exists to print,
    so the route declines (the split decides such statements on its own)."""
    assert through_product(lhs, rhs) is None


def test_the_printed_change_of_variables_states_g_as_d_with_b_over_a() -> None:
    result = check("hardtanh", Transformation("key-value-rescaling", domain(-1)), "rank1")
    assert result.verdict.value == "holds", str(result)
    titles = [step.title for step in result.steps]
    difference = result.steps[titles.index("Difference")].formula.right
    change = result.steps[titles.index("Change of variables")].formula
    u = change.condition.left
    assert change.condition.right.items == (A, B)
    assert change.body.right == difference.xreplace({B: u / A})
    assert not change.body.right.free_symbols & {A, B}
