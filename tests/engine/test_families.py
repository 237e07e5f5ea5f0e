"""Families: verdicts quantified over the declared range, witnesses inside it, regions.

Truth is known by construction: c·z + β·N(z) is linear (exchange holds) exactly at β = 0; z + β·z³
is odd for every β; β·Max(z, 0) + γ·z is positively homogeneous for every β. A verdict is never
wrong: a holds is never contradicted at a sampled value, a witness is inside the range and the
statement is non-zero there (evaluated here, by the user's names), a broken region holds no value
where the statement is true.
"""
from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.engine.certificate.family import certify_family_witness
from symcheck.kernel.check import check as kernel_check
from symcheck.language.family import parse_family
from symcheck.language.transformations import Transformation
from symcheck.language.unit_forms import form

from support import invoke_cli

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

R = sympy.Rational
beta = sympy.Symbol("beta", real=True)


def _region_holds_at(result, value, symbol=beta):
    """The verdict of the region holding ``value`` (the regions parse back as SymPy conditions)."""
    found = [r.verdict.value for r in result.regions
             if sympy.sympify(r.region, locals={symbol.name: symbol}).subs(symbol, value) == sympy.true]
    assert len(found) == 1, (value, [r.region for r in result.regions])  # a partition: exactly one
    return found[0]


def _statement_value(text, param, value, witness, scaling=None):
    """left − right of the gated statement at the witness, σ written by the test (the user's names)."""
    z = sympy.Symbol("z", real=True)
    sigma = sympy.sympify(text, locals={param: sympy.Symbol(param, real=True), "z": z,
                                        "sigmoid": lambda u: 1 / (1 + sympy.exp(-u))})
    sigma = sigma.subs(sympy.Symbol(param, real=True), value)
    s = sympy.Lambda(z, sigma)
    av, bv = R(witness["a"]) if "a" in witness else None, R(witness["b"])
    if scaling is None:
        return s(av) * bv - s(bv) * av
    al = R(witness["alpha"])
    return s(al * av) * bv / al - s(av) * bv


def test_linear_plus_beta_square_holds_exactly_at_zero():
    result = sc.check_exchange("z + beta*z**2", params={"beta": "beta"})
    data = result.to_dict()
    assert data["verdict"] == "broken"
    assert {r["region"]: r["verdict"] for r in data["regions"]} == {"Eq(beta, 0)": "holds", "Ne(beta, 0)": "broken"}
    assert data["witness"]["params"] == {"beta": "1"}
    assert _statement_value("z + beta*z**2", "beta", 1, data["witness"]) != 0
    json.dumps(data)


def test_swish_beta_holds_only_at_zero():
    result = sc.check_exchange("z*sigmoid(beta*z)", params={"beta": "beta>=0"})
    assert result.verdict.value == "broken"
    assert _region_holds_at(result, 0) == "holds"
    assert _region_holds_at(result, R(1, 1000)) == "broken"
    assert _region_holds_at(result, 7) == "broken"
    assert R(result.witness_params["beta"]) > 0


@pytest.mark.parametrize("shift", [R(1), R(1, 2), R(-3)])
def test_region_ends_are_exact(shift):
    """σ = z + (β − c)·z²: holds exactly at β = c; c ± 1/1000 are broken (an end off by one fails)."""
    result = sc.check_exchange(f"z + (beta - ({shift}))*z**2", params=["beta"])
    assert _region_holds_at(result, shift) == "holds"
    for nearby in (shift - R(1, 1000), shift + R(1, 1000), shift + 5):
        assert _region_holds_at(result, nearby) == "broken"


def test_the_quantifier_is_over_the_declared_range_only():
    """β·z² + z with β ≥ 1/2: broken for every value; the witness is inside [1/2, ∞)."""
    result = sc.check_exchange("z + beta*z**2", params=["beta>=1/2"])
    assert result.verdict.value == "broken"
    assert R(result.witness_params["beta"]) >= R(1, 2)
    assert [r.verdict.value for r in result.regions] == ["broken"]


def test_max_z_alpha_z_is_positively_homogeneous_for_every_alpha_and_not_linear():
    exchange = sc.check_exchange("Max(z, alpha*z)", params=["0<alpha<1"])
    assert exchange.verdict.value == "broken"
    assert [r.verdict.value for r in exchange.regions] == ["broken"]
    scaling = sc.check_inverse_scaling("Max(z, alpha*z)", "positive", params=["0<alpha<1"])
    assert scaling.verdict.value in ("holds", "inconclusive")  # never broken


@pytest.mark.slow
def test_power_family_holds_exactly_at_one():
    result = sc.check_inverse_scaling("Max(z, 0)**p", "positive", params=["p>0"])
    assert result.verdict.value == "broken"
    assert _region_holds_at(result, 1, sympy.Symbol("p", real=True)) == "holds"
    assert _region_holds_at(result, R(3, 2), sympy.Symbol("p", real=True)) == "broken"


def test_a_parameter_named_like_a_branch_keeps_both_values():
    """Snake's parameter is 'a', as is the unit's branch a: the witness carries both."""
    result = sc.check_exchange("z + a*z**2", params=["a"])
    assert result.verdict.value == "broken"
    data = result.to_dict()["witness"]
    assert "a" in data and "a" in data["params"]
    assert _statement_value("z + a*z**2", "a", R(data["params"]["a"]), data) != 0


def test_two_parameters_witness_is_not_swapped():
    """σ = a·z + b·z² with a ≥ 2 and b ≥ 3: the witness's a and b are each inside their own range."""
    result = sc.check_exchange("a*z + b*z**2", params=["a>=2", "b>=3"])
    assert result.verdict.value == "broken"
    values = result.witness_params
    assert R(values["a"]) >= 2 and R(values["b"]) >= 3


def test_holds_for_every_value_goes_through_the_kernel():
    result = sc.check_inverse_scaling("z + beta*z**3", -1, params=["beta"])
    assert result.verdict.value == "holds"
    cert = result.certificate
    assert cert["claim"]["params"] == {"param0": "beta"}
    assert kernel_check(cert).accepted
    assert [r.verdict.value for r in result.regions] == ["holds"]


def test_kernel_refuses_a_witness_outside_the_declared_range():
    family = parse_family("z + beta*z**2", ["beta>0"])
    spec = family.params.specs[0]
    t, unit = Transformation("exchange"), form("gated")
    names = {spec.symbol: "beta"}
    inside = certify_family_witness(family.expr, t, unit, {spec.symbol: spec.regions}, names,
                                    {"a": 2, "b": 1, "param0": 1})
    outside = certify_family_witness(family.expr, t, unit, {spec.symbol: spec.regions}, names,
                                     {"a": 2, "b": 1, "param0": -1})
    assert inside.accepted and not outside.accepted
    assert "outside its domain" in outside.reason


def test_kernel_params_key_is_checked():
    family = parse_family("z + beta*z**3", ["beta"])
    spec = family.params.specs[0]
    result = sc.check_inverse_scaling("z + beta*z**3", -1, params=["beta"])
    cert = json.loads(json.dumps(result.certificate))
    cert["claim"]["params"] = {"z": "beta"}
    assert "not a parameter" in kernel_check(cert).reason
    cert["claim"]["params"] = {spec.symbol.name: "beta"}
    cert["claim"]["vars"][spec.symbol.name] = []
    assert "declared range" in kernel_check(cert).reason


@pytest.mark.parametrize("act, params", [("z + beta*z**2", ["beta"]), ("z*sigmoid(beta*z)", ["beta>0"])])
@pytest.mark.slow
def test_cli_param(act, params):
    args = ["exchange", "--act", act, "--json"] + [x for p in params for x in ("--param", p)]
    code, out, _ = invoke_cli(*args)
    assert code == 0
    data = json.loads(out)
    assert data["verdict"] == "broken" and data["regions"] and data["witness"]["params"]


def test_cli_undeclared_symbol_is_exit_2():
    code, _, err = invoke_cli("exchange", "--act", "z*sigmoid(beta*z)")
    assert code == 2
    assert "beta" in err and "--param" in err and "Traceback" not in err
    code, _, err = invoke_cli("exchange", "--act", "z*sigmoid(beta*z)", "--param", "beta>pi")
    assert code == 2 and "rational" in err


def test_renderings_show_the_quantifier():
    result = sc.check_exchange("z + beta*z**2", params=["beta>0"])
    assert "for every beta > 0" in str(result)
    assert "\\forall\\, \\beta > 0" in result.to_latex()
    assert "&#x02200;" in result._repr_html_() or "∀" in result._repr_html_()  # MathML's ∀


_NONLINEAR = st.sampled_from(["z**2", "z**3", "tanh(z)", "sin(z)", "Abs(z)", "exp(z)"])


@settings(max_examples=8, deadline=None)
@given(_NONLINEAR, st.integers(1, 3))
def test_linear_plus_beta_nonlinear(nonlinear, c):
    """c·z + β·N(z): exchange holds exactly at β = 0 (N not linear); never a wrong verdict."""
    result = sc.check_exchange(f"{c}*z + beta*{nonlinear}", params=["beta"], timeout=20)
    assert result.verdict.value in ("broken", "inconclusive")
    if result.verdict.value == "broken":
        assert R(result.witness_params["beta"]) != 0
    assert _region_holds_at(result, 0) in ("holds", "inconclusive")
    for value in (1, -2, R(1, 3)):
        assert _region_holds_at(result, value) in ("broken", "inconclusive")


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["z**3", "tanh(z)", "sin(z)", "z*Abs(z)"]), st.sampled_from(["beta", "beta>0", "beta!=0"]))
def test_odd_families_never_broken_under_minus_one(odd, declared):
    """z + β·O(z) with O odd: inverse scaling by α = −1 holds for every β."""
    result = sc.check_inverse_scaling(f"z + beta*{odd}", -1, params=[declared], timeout=20)
    assert result.verdict.value in ("holds", "inconclusive")
    assert all(r.verdict.value != "broken" for r in result.regions)


@settings(max_examples=5, deadline=None)
@given(st.integers(1, 3), st.sampled_from(["beta", "beta>0", "0<beta<1"]))
def test_homogeneous_families_never_broken_for_positive_alpha(gamma, declared):
    """β·Max(z, 0) + γ·z is positively homogeneous of degree 1 for every β."""
    result = sc.check_inverse_scaling(f"beta*Max(z, 0) + {gamma}*z", "positive", params=[declared], timeout=20)
    assert result.verdict.value in ("holds", "inconclusive")
    assert all(r.verdict.value != "broken" for r in result.regions)


def test_group_membership_for_one_parameter_value():
    group = sc.symmetry_group("z + beta*z**2", params={"beta": "beta"})
    assert group.contains(2, 2, params={"beta": 0}) is True  # σ = z: (a, a) for every a ≠ 0
    assert group.contains(2, 2, params={"beta": 1}) is False
    leaky = sc.symmetry_group("Max(z, alpha*z)", params=["0<alpha<1"])
    assert leaky.contains(3, 3, params={"alpha": "1/2"}) is True
    assert leaky.contains(-1, -1, params={"alpha": "1/2"}) is False
    with pytest.raises(sc.ParseError, match="outside its declared range"):
        leaky.contains(3, 3, params={"alpha": 2})


def test_cli_group_at_one_parameter_value():
    code, out, _ = invoke_cli("group", "--act", "z + beta*z**2", "--param", "beta", "--at", "beta=0", "--json")
    assert code == 0 and json.loads(out)["parsed"] == "z"
    code, _, err = invoke_cli("group", "--act", "z + beta*z**2", "--param", "beta")
    assert code == 2 and "no value given" in err
    code, _, err = invoke_cli("group", "--act", "z + beta*z**2", "--param", "beta>0", "--at", "beta=0")
    assert code == 2 and "outside its declared range" in err
