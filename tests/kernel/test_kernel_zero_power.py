"""The kernel's x^θ (θ holding a variable) at x = 0: 0^θ = 0 where θ > 0, undefined otherwise.

An activation such as Max(z, 0)^p reads 0^p = 0 for p > 0; the kernel agrees only where the
exponent is proved positive (exact rationals, Arb balls, and the ``nonzero-region`` claim's
obligation that every such power is defined on the whole region), so 0^0 and 0^(−1) never
get a value. Max(z, 0)^p under α = −1 is then broken for every p > 0: at a = 2, b = 1 the
statement's left − right is −0^p − 2^p = −2^p.
"""
from __future__ import annotations

import copy
from fractions import Fraction

import mpmath
import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.kernel.check import check as kernel_check
from symcheck.kernel.check import region_from
from symcheck.kernel.evaluate import Unknown, enclose, exact, precision
from symcheck.kernel.points import q
from symcheck.kernel.probe import powers_defined
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

POWER = parse_expr(["pow", ["var", "x"], ["var", "p"]])
fractions = st.fractions(min_value=-5, max_value=5, max_denominator=7)


@given(p=fractions)
def test_zero_to_a_rational_power_is_zero_exactly_when_the_power_is_positive(p):
    value = exact(POWER, {"x": Fraction(0), "p": p})
    assert value == (0 if p > 0 else None)


@settings(max_examples=30)
@given(lo=fractions, width=st.fractions(min_value=0, max_value=3, max_denominator=5))
def test_an_arb_power_of_zero_needs_a_ball_of_positive_exponents(lo, width):
    with precision(64):
        balls = {"x": arb(0), "p": arb(q(lo)).union(arb(q(lo + width)))}
        if lo > 0:
            assert enclose(POWER, balls, None) == 0
        else:
            with pytest.raises(Unknown):
                enclose(POWER, balls, None)


def _box(p_region):
    return {"x": region_from(["point", ["int", 0]]), "p": region_from(p_region)}


@pytest.mark.parametrize("base, p_region, defined", [
    (["int", 0], ["open", ["int", 0], "inf"], True),           # 0^p, p > 0
    (["int", 0], ["open", ["int", -1], "inf"], False),         # p ≤ 0 inside: 0^0, 0^(−1/2)
    (["int", 0], ["point", ["int", 0]], False),                # 0^0
    (["int", 3], ["open", ["int", -1], "inf"], True),          # a positive base: any p
    (["int", -2], ["open", ["int", 0], "inf"], False),         # (−2)^p: undefined
    (["add", ["int", 1], ["int", -1]], ["open", ["rat", 1, 2], ["int", 4]], True),  # 0 as 1 − 1
])
def test_a_variable_power_is_defined_on_the_region_only_for_a_positive_base_or_zero_and_positive_exponent(
        base, p_region, defined):
    expr = parse_expr(["add", ["int", 1], ["pow", base, ["var", "p"]]])
    box = {"p": region_from(p_region)}
    if defined:
        powers_defined(expr, box, prove_sign)
    else:
        with pytest.raises(Reject):
            powers_defined(expr, box, prove_sign)


def _max_power_minus_one():
    return sc.check_inverse_scaling("Max(z, 0)**p", params={"p": "p>0"}, alpha="minus-one")


def test_max_power_is_broken_for_every_positive_p_under_minus_one_and_mpmath_agrees():
    result = _max_power_minus_one()
    assert result.verdict.value == "broken"
    assert [(r.region, r.verdict.value) for r in result.regions] == [("p > 0", "broken")]
    (cert,) = result.regions[0].certificates
    assert cert["claim"]["kind"] == "nonzero-region" and kernel_check(cert).accepted
    probe = {k: mpmath.mpf(v[1]) / (v[2] if v[0] == "rat" else 1) for k, v in cert["claim"]["probe"].items()}
    a, b, alpha = probe["a"], probe["b"], probe["alpha"]
    sigma = lambda z, p: mpmath.mpf(max(z, 0)) ** p  # noqa: E731 -- 0**p = 0 for p > 0
    for p in (mpmath.mpf("1e-6"), mpmath.mpf("0.5"), 1, 3, 40):
        gap = b * sigma(alpha * a, p) / alpha - b * sigma(a, p)  # the gated form's b·σ(αa)/α − b·σ(a)
        assert gap != 0


def test_a_hand_edited_region_certificate_with_zero_to_a_power_is_refused():
    (cert,) = _max_power_minus_one().regions[0].certificates
    reaching = copy.deepcopy(cert)  # the region extended to p ≤ 0, where 0^p is not 0
    reaching["claim"]["vars"]["param0"] = [["open", ["int", -1], "inf"]]
    reaching["claim"]["region"]["param0"] = ["open", ["int", -1], "inf"]
    assert "power_base" in kernel_check(reaching).where
    flipped = copy.deepcopy(cert)
    flipped["proof"]["end"]["sign"] = "pos"
    assert not kernel_check(flipped).accepted
