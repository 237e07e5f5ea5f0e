"""Families whose truth the test knows, checked region by region and certificate by certificate.

σ = z + (β − c)·N(z), N nonlinear: exchange and inverse scaling hold exactly at β = c. Every
region reported holds contains only c; every broken region's certificates name a probe at which
the statement, evaluated here at 50 digits at parameter values drawn from the certificate's own
region, is never 0; moving that region's end one unit so that it reaches c makes the kernel reject
it. With two parameters, λ·z + μ·z² is linear exactly at μ = 0 whatever λ: the box that holds is
the one where μ = 0, by the user's names (a rename inverted would put it on λ).
"""
from __future__ import annotations

import copy

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.kernel.check import check as kernel_check

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

R = sympy.Rational
beta = sympy.Symbol("beta", real=True)
NONLINEAR = ("z**2", "z**3 + z**2", "exp(z)", "tanh(z)**2", "z*exp(-z**2)")


def _value(node, env):
    """A kernel tree evaluated with mpmath (the test's own evaluator, not the kernel's)."""
    head = node[0]
    if head == "int":
        return mpmath.mpf(node[1])
    if head == "rat":
        return mpmath.mpf(node[1]) / node[2]
    if head == "var":
        return env[node[1]]
    if head == "const":
        return mpmath.pi
    if head == "add":
        return mpmath.fsum(_value(a, env) for a in node[1:])
    if head == "mul":
        out = mpmath.mpf(1)
        for a in node[1:]:
            out *= _value(a, env)
        return out
    if head == "pow":
        return _value(node[1], env) ** _value(node[2], env)
    if head == "piecewise":
        for value, cond in node[1:]:
            if _truth(cond, env):
                return _value(value, env)
        raise ValueError("no branch")
    return getattr(mpmath, {"abs": "fabs"}.get(head, head))(_value(node[1], env))


def _truth(cond, env):
    head = cond[0]
    if head == "true":
        return True
    if head == "false":
        return False
    if head in ("and", "or"):
        parts = [_truth(c, env) for c in cond[1:]]
        return all(parts) if head == "and" else any(parts)
    if head == "not":
        return not _truth(cond[1], env)
    d = _value(cond[1], env) - _value(cond[2], env)
    return {"gt": d > 0, "ge": d >= 0, "lt": d < 0, "le": d <= 0, "eq": d == 0, "ne": d != 0}[head]


def _number(obj):
    return mpmath.mpf(obj[1]) / (obj[2] if obj[0] == "rat" else 1)


def _inside(region, k, of):
    """k-th of ``of`` sample values strictly inside a region JSON (finite ends rational)."""
    lo, hi = region[1], region[2]
    t = mpmath.mpf(k + 1) / (of + 1)
    if lo == "-inf" and hi == "inf":
        return mpmath.tan(mpmath.pi * (t - mpmath.mpf(1) / 2))
    if lo == "-inf":
        return _number(hi) - (1 / t - 1) * 3
    if hi == "inf":
        return _number(lo) + (1 / t - 1) * 3
    return _number(lo) + t * (_number(hi) - _number(lo))


def _check_region_certificate(cert, c):
    """The probe is non-zero at sampled values of the region; the region does not reach c."""
    claim = cert["claim"]
    probes = claim.get("probes") or [claim["probe"]]
    (name, region), = claim["region"].items()
    mpmath.mp.dps = 50
    for k in range(7):
        if region[0] == "point":
            theta = _number(region[1])
        else:
            theta = _inside(region, k, 7)
        values = [abs(_value(_tree(claim["expr"]), {**{v: _number(x) for v, x in probe.items()}, name: theta}))
                  for probe in probes]
        assert max(values) > mpmath.mpf(10) ** -30, (claim["region"], theta)
        assert theta != c


def _tree(obj):
    return tuple(_tree(x) if isinstance(x, list) else x for x in obj)


@settings(max_examples=8, deadline=None)
@given(nonlinear=st.sampled_from(NONLINEAR), c=st.sampled_from([R(0), R(1), R(-2), R(1, 2)]),
       scaling=st.booleans())
def test_regions_against_known_truth(nonlinear, c, scaling):
    act = f"z + (beta - ({c}))*({nonlinear})"
    check = (lambda a, params: sc.check_inverse_scaling(a, params=params)) if scaling else sc.check_exchange
    result = check(act, params={"beta": "beta"})
    assert result.verdict.value != "holds"
    # decided on both sides: holds exactly at c (a rational, however the probe writes its root)
    assert {r.region: r.verdict.value for r in result.regions} == {f"Eq(beta, {c})": "holds",
                                                                    f"Ne(beta, {c})": "broken"}
    for region in result.regions:
        condition = sympy.sympify(region.region, locals={"beta": beta})
        for value in (c, c + 1, c - R(1, 3), R(7)):
            truth_holds = value == c
            inside = condition.subs(beta, value) == sympy.true
            if inside and region.verdict.value == "holds":
                assert truth_holds, (act, region.region, value)
            if inside and region.verdict.value == "broken":
                assert not truth_holds, (act, region.region, value)
        for cert in region.certificates if region.verdict.value == "broken" else ():
            assert kernel_check(cert).accepted
            if cert["claim"]["kind"] == "nonzero-region":
                _check_region_certificate(cert, c)


def test_a_region_moved_one_unit_onto_the_true_value_is_rejected():
    """z + (β − 1)·z²: broken on β > 1 and β < 1 by nonzero-region certificates. Their region
    moved by one so that it holds β = 1 (where exchange holds) is never accepted."""
    result = sc.check_exchange("z + (beta - 1)*z**2", params={"beta": "beta"})
    broken = [c for r in result.regions if r.verdict.value == "broken" for c in r.certificates
              if c["claim"]["kind"] == "nonzero-region"]
    assert broken
    moved = 0
    for cert in broken:
        region = cert["claim"]["region"]["param0"]
        if region[0] != "open":
            continue
        bad = copy.deepcopy(cert)
        lo, hi = region[1], region[2]
        if lo != "-inf" and _number(lo) == 1:
            bad["claim"]["region"]["param0"] = ["open", ["int", 0], hi]
        elif hi != "inf" and _number(hi) == 1:
            bad["claim"]["region"]["param0"] = ["open", lo, ["int", 2]]
        else:
            continue
        moved += 1
        assert not kernel_check(bad).accepted
    assert moved


@pytest.mark.parametrize("mu_decl", ["mu>=0", "mu<=0"])
def test_two_parameters_the_box_that_holds_is_named_by_the_right_parameter(mu_decl):
    result = sc.check_exchange("lam*z + mu*z**2", params={"lam": "lam>0", "mu": mu_decl})
    holds = [r for r in result.regions if r.verdict.value == "holds"]
    assert len(holds) == 1
    b, g = sympy.symbols("lam mu", real=True)
    condition = sympy.sympify(holds[0].region, locals={"lam": b, "mu": g})
    assert condition.subs({b: 3, g: 0}) == sympy.true
    assert condition.subs({b: 3, g: 1 if mu_decl == "mu>=0" else -1}) == sympy.false
    assert result.witness_params["mu"] != 0
