"""Leaky ReLU and PReLU, Max(z, θ·z): positively homogeneous for every slope θ, so inverse
scaling α > 0 holds over any declared range — proved by one kernel certificate whose branch
conditions u − θ·u ≥ 0 (u = α·a) are signed as the product u·(1 − θ), each factor alone (u by
its region, 1 − θ by its roots over θ's range, cut at θ = 1 where the range holds it).
"""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.engine.certificate.rewrite import _product_factor
from symcheck.kernel.check import check as kernel_check
from symcheck.kernel.normal import Form
from symcheck.kernel.tree import parse_expr

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

R = sympy.Rational


@pytest.mark.parametrize("act", ["Max(z, alpha*z)", "Min(z, alpha*z)"])
@pytest.mark.parametrize("declared", ["0<alpha<1", "alpha", "alpha>=0", "1/2<alpha<=3"])
@pytest.mark.slow
def test_slope_families_hold_under_positive_scaling(act, declared):
    result = sc.check_inverse_scaling(act, params={"alpha": declared})
    assert result.verdict.value == "holds", result
    assert result.kernel.accepted and kernel_check(result.certificate).accepted
    assert result.certificate["claim"]["params"] == {"param0": "alpha"}
    assert all(r.verdict.value == "holds" for r in result.regions)


def test_leaky_relu_is_not_odd_and_not_linear():
    """The same family under α = −1 and exchange: broken for every slope in (0, 1), with a
    witness inside the range (a slip taking the quantifier for 'some α' would say holds)."""
    for check in (sc.check_exchange, lambda a, params: sc.check_inverse_scaling(a, alpha=-1, params=params)):
        result = check("Max(z, alpha*z)", params={"alpha": "0<alpha<1"})
        assert result.verdict.value == "broken"
        assert 0 < result.witness_params["alpha"] < 1
        assert [r.verdict.value for r in result.regions] == ["broken"]


@settings(max_examples=12, deadline=None)
@given(lo=st.fractions(min_value=-3, max_value=3, max_denominator=4),
       width=st.fractions(min_value=R(1, 4), max_value=4, max_denominator=4),
       minimum=st.booleans())
@pytest.mark.slow
def test_slope_families_are_never_broken_under_positive_scaling(lo, width, minimum):
    """Truth known: Max(z, θz) and Min(z, θz) are positively homogeneous for every θ."""
    hi = lo + width
    act = "Min(z, alpha*z)" if minimum else "Max(z, alpha*z)"
    result = sc.check_inverse_scaling(act, params={"alpha": f"{lo}<alpha<{hi}"})
    assert result.verdict.value != "broken"
    assert all(r.verdict.value != "broken" for r in result.regions)
    if result.verdict.value == "holds":
        assert kernel_check(result.certificate).accepted


_linear = st.builds(lambda c, x, d: ["add", ["mul", ["int", c], ["var", x]], ["int", d]],
                    st.integers(-3, 3).filter(bool), st.sampled_from(["u", "t", "s"]), st.integers(-3, 3))


@settings(max_examples=60, deadline=None)
@given(factors=st.lists(_linear, min_size=2, max_size=3), scale=st.integers(-5, 5).filter(bool))
def test_product_factor_is_the_same_polynomial(factors, scale):
    """The factorisation the emitter proposes equals the expanded product exactly (the kernel's
    ring step would reject a wrong one; this catches it before): a dropped content or a lost
    denominator changes the polynomial."""
    expanded = Form(parse_expr(["mul", ["int", scale], *factors]))
    node = parse_expr(["mul", ["int", scale], *factors])
    flat = expanded.of(node)[0]
    from symcheck.engine.certificate.rewrite import canonical
    flat_tree = canonical(node)
    proposed = _product_factor(flat_tree)
    if proposed is None:
        return
    form = Form(flat_tree, proposed)
    (n1, d1), (n2, d2) = form.of(flat_tree), form.of(proposed)
    assert (n1 * d2 - n2 * d1).is_zero()
    assert not flat.is_zero()


@pytest.mark.parametrize("check", [sc.check_exchange,
                                   lambda a, params: sc.check_inverse_scaling(a, alpha=-1, params=params)])
def test_prelu_is_linear_and_odd_exactly_at_slope_one(check):
    """Max(z, θz) is z at θ = 1 and neither linear nor odd at any other θ: the zero of the probe
    at θ = 1 is only proposed by the engine (its sign search does not cover Max), and the kernel
    decides each piece on either side."""
    result = check("Max(z, alpha*z)", params={"alpha": "alpha"})
    assert {r.region: r.verdict.value for r in result.regions} == {"Eq(alpha, 1)": "holds",
                                                                    "Ne(alpha, 1)": "broken"}
    for region in result.regions:
        assert region.certificates and all(kernel_check(c).accepted for c in region.certificates)
