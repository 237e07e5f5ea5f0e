"""Regions broken everywhere although every rational probe vanishes somewhere in them.

Covers: SELU (λ·ELU_α) under α = −1 is σ odd, false for every (λ, α): at a = 2, b = 1 the gap is
λ·(α·(1 − e^(−2)) − 2), zero at α = 2/(1 − e^(−2)) ≈ 2.31, and at a = −1, b = 1 it is
λ·(α·(1 − e^(−1)) − 1), zero at α ≈ 1.58. The box λ > 0, α > 0 is cut along α at a rational
between the two zeros, λ whole in each piece, one probe per piece.

Scaled probes: Snake z + sin²(θz)/θ has every rational probe vanish at infinitely many θ
(θa, θb multiples of π); at a = u/θ, b = v/θ its statement is a constant times θ^(−2), and the
kernel checks that such a probe is real and in its domain at every θ of the region.
"""
from __future__ import annotations

import copy

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.kernel.check import check as kernel_check
from symcheck.kernel.check import region_from
from symcheck.kernel.probe import MAX_SCALE_POWER, scaled_value
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.verdict import Reject

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

SELU = "lam*Piecewise((z, z > 0), (alpha*(exp({k}*z) - 1), True))"
DECL = {"lam": "lam>0", "alpha": "alpha>0"}


def _number(node):
    return mpmath.mpf(node[1]) / (node[2] if node[0] == "rat" else 1)


def _selu(z, lam, alpha, k):
    return lam * (z if z > 0 else alpha * (mpmath.exp(k * z) - 1))


def _minus_one(k="1"):
    return sc.check_inverse_scaling(SELU.format(k=k), params=DECL, alpha="minus-one")


def test_selu_under_minus_one_is_broken_on_the_whole_box_by_a_cover_along_alpha_and_mpmath_agrees():
    result = _minus_one()
    assert result.verdict.value == "broken"
    assert [r.verdict.value for r in result.regions] == ["broken"]
    (cert,) = result.regions[0].certificates
    assert kernel_check(cert).accepted
    claim, proof = cert["claim"], cert["proof"]
    probes = claim["probes"]
    assert len(probes) >= 2 and claim["params"][proof["var"]] == "alpha"  # cut along α, λ whole
    for piece in proof["pieces"]:
        probe = {k: _number(v) for k, v in probes[piece["probe"]].items()}
        region = piece["region"]
        lo = _number(region[1])
        width = 1 if region[0] == "point" or region[2] == "inf" else _number(region[2]) - lo
        ts = ("0",) if region[0] == "point" else ("1e-9", "0.3", "0.999")
        samples = [lo + width * mpmath.mpf(t) for t in ts]
        for alpha in samples:
            for lam in (mpmath.mpf("1e-3"), 1, 50):
                a, b, s = probe["a"], probe["b"], probe["alpha"]
                gap = b * _selu(s * a, lam, alpha, 1) / s - b * _selu(a, lam, alpha, 1)
                assert abs(gap) > 0


def test_a_cover_cut_beyond_a_probes_zero_is_refused():
    (cert,) = _minus_one().regions[0].certificates
    forged = copy.deepcopy(cert)
    pieces = forged["proof"]["pieces"]
    far = ["int", 5]  # past 2/(1 − e^(−2)) ≈ 2.31, where the first piece's probe vanishes
    pieces[0]["region"][2], pieces[1]["region"][1], pieces[2]["region"][1] = far, far, far
    assert not kernel_check(forged).accepted


@settings(max_examples=3, deadline=None)
@given(k=st.sampled_from(["2", "1/2", "3"]))
def test_a_scaled_selu_is_never_odd(k):
    """λ·ELU_α(k·z): σ(a) + σ(−a) = λ·(a − α·(1 − e^(−ka))) ≠ 0 at some a for every (λ, α):
    never holds; a broken region is kernel-checked."""
    result = _minus_one(k)
    assert result.verdict.value == "broken"
    for region in result.regions:
        assert region.verdict.value != "holds"
        if region.verdict.value == "broken":
            assert region.certificates and all(kernel_check(c).accepted for c in region.certificates)


SNAKE = "z + sin(a*z)**2/a"
STATEMENTS = {  # the gated form's unit is σ(a)·b: left − right of each statement, by hand
    "exchange": lambda s, a, b, al: s(b) * a - s(a) * b,
    "positive": lambda s, a, b, al: s(al * a) * b / al - s(a) * b,
    "minus-one": lambda s, a, b, al: s(al * a) * b / al - s(a) * b,
}


def _snake(statement):
    if statement == "exchange":
        return sc.check_exchange(SNAKE, params={"a": "a>0"})
    return sc.check_inverse_scaling(SNAKE, params={"a": "a>0"}, alpha=statement)


def _scaled(node, theta):
    """A probe value at θ: a rational, or ['mul', c, θ-factor, …]."""
    if node[0] != "mul":
        return _number(node)
    out = _number(node[1])
    for f in node[2:]:
        out *= theta ** (f[2][1] if f[0] == "pow" else 1)
    return out


@pytest.mark.parametrize("statement", list(STATEMENTS))
def test_snake_is_broken_for_every_a_by_a_scaled_probe_and_mpmath_agrees(statement):
    result = _snake(statement)
    assert result.verdict.value == "broken"
    assert [(r.region, r.verdict.value) for r in result.regions] == [("a > 0", "broken")]
    (cert,) = result.regions[0].certificates
    assert kernel_check(cert).accepted
    probe = cert["claim"]["probe"]
    assert probe["a"][0] == "mul"  # moves with the parameter
    gap = STATEMENTS[statement]
    for theta in (mpmath.mpf("1e-4"), mpmath.pi, 2 * mpmath.pi, mpmath.mpf(7), mpmath.mpf(10) ** 6):
        snake = lambda z, t=theta: z + mpmath.sin(t * z) ** 2 / t  # noqa: E731
        a, b = _scaled(probe["a"], theta), _scaled(probe["b"], theta)
        al = _scaled(probe["alpha"], theta) if "alpha" in probe else None
        assert abs(gap(snake, a, b, al)) > mpmath.mpf(10) ** -30 * (1 + abs(a) + abs(b))


def test_rational_probes_vanish_where_the_scaled_one_does_not():
    """Why a scaled probe is needed: at a = 2, b = 1 the exchange gap is 0 at θ = π."""
    snake = lambda z: z + mpmath.sin(mpmath.pi * z) ** 2 / mpmath.pi  # noqa: E731
    assert abs(STATEMENTS["exchange"](snake, 2, 1, None)) < mpmath.mpf(10) ** -20


def _forged(statement, edit):
    (cert,) = _snake(statement).regions[0].certificates
    forged = copy.deepcopy(cert)
    edit(forged["claim"])
    return kernel_check(forged)


def test_a_scaled_probe_over_a_region_reaching_zero_is_refused():
    def reach(claim):
        claim["vars"]["param0"] = [["open", "-inf", "inf"]]
        claim["region"]["param0"] = ["open", ["int", -1], "inf"]
    verdict = _forged("exchange", reach)
    assert not verdict.accepted and "nonzero" in verdict.reason


@pytest.mark.parametrize("statement, value", [
    ("minus-one", ["mul", ["int", -1], ["var", "param0"]]),     # α's domain is the point −1
    ("positive", ["mul", ["int", -2], ["var", "param0"]]),      # α > 0, but −2θ < 0
    ("positive", ["mul", ["int", 0], ["var", "param0"]]),       # not a non-zero coefficient
])
def test_a_scaled_scale_outside_its_domain_is_refused(statement, value):
    verdict = _forged(statement, lambda claim: claim["probe"].__setitem__("alpha", value))
    assert not verdict.accepted


@pytest.mark.parametrize("value", [
    ["mul", ["int", 2], ["var", "b"]],                                      # not a parameter
    ["mul", ["int", 2], ["pow", ["var", "param0"], ["int", -MAX_SCALE_POWER - 1]]],
    ["mul", ["int", 2], ["pow", ["var", "param0"], ["rat", 1, 2]]],         # not an integer power
    ["mul", ["int", 2], ["sin", ["var", "param0"]]],
])
def test_a_probe_value_that_is_not_a_scaled_parameter_is_refused(value):
    verdict = _forged("exchange", lambda claim: claim["probe"].__setitem__("a", value))
    assert not verdict.accepted


@settings(max_examples=40, deadline=None)
@given(c=st.sampled_from([1, -1, 3, -2]), k=st.sampled_from([-2, -1, 1, 2, 3]),
       region=st.sampled_from([["open", ["int", 0], "inf"], ["open", "-inf", ["int", 0]],
                               ["open", ["int", -1], ["int", 1]], ["open", ["int", 1], ["int", 2]]]),
       domain=st.sampled_from([["open", "-inf", "inf"], ["open", ["int", 0], "inf"], ["open", "-inf", ["int", 0]]]))
def test_scaled_values_are_accepted_exactly_when_real_and_in_the_domain(c, k, region, domain):
    """c·θ^k over θ's region: defined iff k > 0 or the region excludes 0; in (0, ∞) iff its
    sign there is +, known from the signs of c and θ and the parity of k."""
    box = {"param0": region_from(region)}
    value = ["mul", ["int", c], ["pow", ["var", "param0"], ["int", k]]]
    lo = region[1]
    theta_sign = 1 if lo != "-inf" and lo[1] >= 0 else -1 if region[2] != "inf" and region[2][1] <= 0 else 0
    defined = k > 0 or theta_sign != 0
    sign = (1 if c > 0 else -1) * (theta_sign ** k if k % 2 else theta_sign ** 2) if theta_sign else 0
    inside = {"-inf": True, 0: sign == 1}.get(domain[1] if domain[1] == "-inf" else domain[1][1]) \
        if domain[2] == "inf" else sign == -1
    try:
        scaled_value(value, "a", [region_from(domain)], box, prove_sign)
        accepted = True
    except Reject:
        accepted = False
    assert accepted == (defined and inside)


SOFTPLUS = "log(1 + exp(beta*z))/beta"


def test_softplus_beta_is_broken_for_every_beta_under_positive_scaling_and_mpmath_agrees():
    result = sc.check_inverse_scaling(SOFTPLUS, params={"beta": "beta>0"})
    assert result.verdict.value == "broken"
    assert [(r.region, r.verdict.value) for r in result.regions] == [("beta > 0", "broken")]
    (cert,) = result.regions[0].certificates
    assert kernel_check(cert).accepted
    probe = cert["claim"]["probe"]
    for beta in (mpmath.mpf("1e-3"), 1, 25, 400):
        softplus = lambda z, t=beta: mpmath.log1p(mpmath.exp(t * z)) / t  # noqa: E731
        a, b, al = (_scaled(probe[k], beta) for k in ("a", "b", "alpha"))
        assert STATEMENTS["positive"](softplus, a, b, al) != 0


def _softplus_region(a, b, alpha):
    from sympy import Rational, oo

    from symcheck.engine.certificate.family import certify_family_region
    from symcheck.exact.regions import Region
    from symcheck.language.family import parse_family
    from symcheck.language.transformations import Transformation, domain
    from symcheck.language.unit_forms import form
    family = parse_family(SOFTPLUS, {"beta": "beta>0"})
    (spec,) = family.params.specs
    return certify_family_region(family.expr, Transformation("inverse-scaling", domain("positive")), form("gated"),
                                 {spec.symbol: spec.regions}, {spec.symbol: "beta"},
                                 {"a": Rational(a), "b": Rational(b), "alpha": Rational(alpha)},
                                 {spec.symbol: Region(Rational(0), oo)}, seconds=20)


def _rules(proof):
    return [s["rule"] for s in proof.get("steps", [])]


@settings(max_examples=6, deadline=None)
@given(case=st.sampled_from([("2", "2"), ("1", "3"), ("2", "1/2"), ("1", "2")]), b=st.sampled_from(["1", "-1", "2"]))
def test_a_difference_of_growing_logs_is_signed_as_one_log(case, b):
    """At a rational probe a > 0: b·(log(1 + x^α)/α − log(1 + x))/β with x = e^(aβ) > 1 has the
    sign of −b for α > 1 ((1 + x)^α > 1 + x^α) and of b for α < 1, at every β > 0, though both
    logs grow without bound: the kernel accepts it as one log, log(1 + R), R factored."""
    a, alpha = case
    outcome = _softplus_region(a, b, alpha)
    assert outcome.accepted, outcome
    assert "log_mul" in _rules(outcome.data["proof"])
    want = -1 if mpmath.mpf(alpha.split("/")[0]) / mpmath.mpf((alpha.split("/") + ["1"])[1]) > 1 else 1
    want *= 1 if b[0] != "-" else -1
    assert outcome.data["proof"]["end"]["sign"] == ("pos" if want > 0 else "neg")
    with mpmath.workdps(120):  # the gap is about e^(−aβ) next to logs about aβ
        for beta in (mpmath.mpf("0.01"), 3, 60):
            softplus = lambda z, t=beta: mpmath.log1p(mpmath.exp(t * z)) / t  # noqa: E731
            al = mpmath.mpf(alpha.split("/")[0]) / int((alpha.split("/") + ["1"])[1])
            gap = STATEMENTS["positive"](softplus, int(a), int(b), al)
            assert mpmath.sign(gap) == want


def test_a_hand_edited_log_combination_is_refused():
    outcome = _softplus_region("2", "1", "2")
    assert outcome.accepted
    last = outcome.data["proof"]["steps"][-1]
    assert last["rule"] == "ring"
    forged = copy.deepcopy(outcome.data)
    # log(1 + R) with R's sign flipped: not the same function, the ring step must fail
    after = forged["proof"]["steps"][-1]["after"]
    after[2][1][2] = ["mul", ["int", -1], after[2][1][2]]
    assert not kernel_check(forged).accepted
    flipped = copy.deepcopy(outcome.data)
    flipped["proof"]["end"]["sign"] = "pos"
    assert not kernel_check(flipped).accepted
