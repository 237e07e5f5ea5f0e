"""Regions broken although the statement's gap decays at infinity, and boxes of two parameters.

Swish-β under inverse scaling α > 0: at a = 2, b = 1, α = 2 the gap is 2·t·(1 − t)/((1 + t²)(1 + t))
with t = e^(−2β): positive for every β > 0, tending to 0 as β → ∞ and as β → 0. No interval
bound of the expression as written excludes 0 near ∞; written over the generator e^β and
factored, each factor is signed alone, and the kernel accepts the region.
SELU (λ·ELU_α, λ > 0, α > 0) is neither linear nor homogeneous for any (λ, α): its box is broken.
"""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.kernel.check import check as kernel_check

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

R = sympy.Rational
SELU = "lam*Piecewise((z, z > 0), (alpha*(exp(z) - 1), True))"


def _every_decided_region_is_kernel_checked(result):
    for region in result.regions:
        if region.verdict.value != "inconclusive":
            assert region.certificates
            assert all(kernel_check(c).accepted for c in region.certificates)


@pytest.mark.slow
def test_swish_beta_is_broken_for_every_beta_under_positive_scaling():
    result = sc.check_inverse_scaling("z*sigmoid(beta*z)", params={"beta": "beta>0"})
    assert result.verdict.value == "broken"
    assert [(r.region, r.verdict.value) for r in result.regions] == [("beta > 0", "broken")]
    _every_decided_region_is_kernel_checked(result)
    kinds = {c["claim"]["kind"] for r in result.regions for c in r.certificates}
    assert kinds == {"nonzero-region"}


def test_swish_beta_at_zero_is_linear_and_homogeneous():
    result = sc.check_inverse_scaling("z*sigmoid(beta*z)", params={"beta": "beta>=0"})
    assert {r.region: r.verdict.value for r in result.regions} == {"Eq(beta, 0)": "holds", "beta > 0": "broken"}
    _every_decided_region_is_kernel_checked(result)


@pytest.mark.parametrize("check", [sc.check_exchange,
                                   lambda a, params: sc.check_inverse_scaling(a, params=params)])
def test_selu_box_of_two_parameters_is_broken_everywhere(check):
    result = check(SELU, params={"lam": "lam>0", "alpha": "alpha>0"})
    assert result.verdict.value == "broken"
    assert [r.verdict.value for r in result.regions] == ["broken"]
    _every_decided_region_is_kernel_checked(result)
    region = result.regions[0].certificates[0]["claim"]["region"]
    assert set(region) == {"param0", "param1"}  # both parameters, one box


@settings(max_examples=4, deadline=None)
@given(k=st.sampled_from([R(1), R(2), R(1, 2), R(3)]), c=st.sampled_from([R(0), R(1), R(-2)]))
@pytest.mark.slow
def test_scaled_swish_plus_linear_is_never_homogeneous(k, c):
    """σ = z·sigmoid(kβz) + c·z is positively homogeneous only at β = 0 (outside β > 0): never
    holds, and a broken region is kernel-checked."""
    act = f"z*sigmoid({k}*beta*z) + ({c})*z"
    result = sc.check_inverse_scaling(act, params={"beta": "beta>0"})
    assert result.verdict.value != "holds"
    assert all(r.verdict.value != "holds" for r in result.regions)
    _every_decided_region_is_kernel_checked(result)


@pytest.mark.parametrize("c", [R(1), R(2), R(1, 3)])
def test_squareplus_is_broken_for_every_b_under_positive_scaling(c):
    """(z + √(z² + c·b))/2 is homogeneous only at b = 0 (ReLU), outside b > 0: the gap at a = 2,
    b = 1, α = 2 is a difference of two growing square roots, rationalized to −3cb/(4(…)) < 0."""
    result = sc.check_inverse_scaling(f"(z + sqrt(z**2 + ({c})*b))/2", params={"b": "b>0"})
    assert result.verdict.value == "broken"
    assert [r.verdict.value for r in result.regions] == ["broken"]
    _every_decided_region_is_kernel_checked(result)
    steps = [s["rule"] for c_ in result.regions[0].certificates for s in _steps(c_["proof"])]
    assert "square_sqrt" in steps


def _steps(node):
    if "pieces" in node:
        return [s for piece in node["pieces"] for s in _steps(piece)]
    return node.get("steps", [])
