"""The kernel's ``nonzero-region`` claim: a family's statement at a probe is non-zero on a whole
region of the parameters — accepted when true, rejected on each one-line slip (a region end
off by one, a probe outside its domain, a zero inside the region, a leaf ending in a zero, a
cover naming the wrong probe, a power 0^θ), and the ``bounds`` argument (interval arithmetic on
the extended line) checked against sampled values of generated expressions.
"""
from __future__ import annotations

import copy
import math

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.engine.certificate.family import certify_family_cover, certify_family_region
from symcheck.exact.regions import Region
from symcheck.kernel.bounds import extended
from symcheck.kernel.check import check as kernel_check
from symcheck.kernel.check import region_from
from symcheck.kernel.derivative import derivative
from symcheck.kernel.evaluate import exact, precision
from symcheck.kernel.signs import prove_sign, signs_of
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject
from symcheck.language.family import parse_family
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

# region verdicts are decided under wall-clock limits: scaled to the machine's load in tests
pytestmark = pytest.mark.usefixtures("generous_region_budget")

R = sympy.Rational
OO = sympy.oo
SWISH = "z*sigmoid(beta*z)"


def _region_certificate(text, decl, probe, region, t=None):
    family = parse_family(text, decl)
    (spec,) = family.params.specs
    t = t or Transformation("exchange")
    outcome = certify_family_region(family.expr, t, form("gated"), {spec.symbol: spec.regions},
                                    {spec.symbol: spec.name}, probe, {spec.symbol: region})
    return outcome


def _swish_certificate():
    outcome = _region_certificate(SWISH, {"beta": "beta>0"}, {"a": R(-1), "b": R(1)}, Region(R(0), OO))
    assert outcome.accepted, outcome
    return copy.deepcopy(outcome.data)


@pytest.mark.slow
def test_a_region_certificate_is_accepted_and_states_the_probe_and_region():
    cert = _swish_certificate()
    assert cert["claim"]["kind"] == "nonzero-region"
    assert cert["claim"]["probe"] == {"a": ["int", -1], "b": ["int", 1]}
    assert cert["claim"]["region"] == {"param0": ["open", ["int", 0], "inf"]}
    assert kernel_check(cert).accepted


@pytest.mark.parametrize("slip, reason", [
    # the region reaches outside the declared range beta > 0 (its end off by one)
    (lambda c: c["claim"]["region"].update(param0=["open", ["int", -1], "inf"]), "not inside its declared range"),
    # a probe value of a variable outside its domain: the scale of exchange has none, so a
    # missing variable and a parameter in the probe
    (lambda c: c["claim"]["probe"].pop("b"), "probe must give every variable"),
    (lambda c: c["claim"]["probe"].update(param0=["int", 1]), "probe must give every variable"),
    # no parameters declared: the claim is about nothing
    (lambda c: c["claim"].pop("params"), "needs its parameters"),
    # a leaf of a nonzero-region proof ending in a zero (the kind of a holds)
    (lambda c: _leaves(c["proof"])[0].update(end="normal-form"), "end of a nonzero-region leaf"),
    # a leaf claiming only a weak sign
    (lambda c: _leaves(c["proof"])[0]["end"].update(sign="nonneg"), "sign 'pos', 'neg' or 'nonzero'"),
    # the opposite strict sign
    (lambda c: [leaf["end"].update(sign={"pos": "neg", "neg": "pos"}.get(leaf["end"]["sign"], "pos"))
                for leaf in _leaves(c["proof"])], "not proved"),
])
@pytest.mark.slow
def test_kernel_rejects_each_slip(slip, reason):
    cert = _swish_certificate()
    slip(cert)
    verdict = kernel_check(cert)
    assert not verdict.accepted
    assert reason in verdict.reason


def _leaves(node):
    if "pieces" in node:
        return [leaf for piece in node["pieces"] for leaf in _leaves(piece)]
    return [node]


def test_a_probe_outside_its_scale_domain_is_rejected():
    t = Transformation("inverse-scaling", domain("positive"))
    outcome = _region_certificate("z + beta*z**2", {"beta": "beta>0"}, {"a": R(2), "b": R(1), "alpha": R(2)},
                                  Region(R(0), OO), t)
    assert outcome.accepted, outcome
    cert = copy.deepcopy(outcome.data)
    cert["claim"]["probe"]["alpha"] = ["int", -2]
    verdict = kernel_check(cert)
    assert not verdict.accepted and "outside its domain" in verdict.reason


def test_a_zero_inside_the_region_is_never_accepted():
    """z + β·z² exchange at a = 2, b = 1 is 2β·(…) — 0 at β = 0: a region across 0 has no proof,
    and a proof of the two halves glued over the point is rejected at that point."""
    decl = {"beta": "beta"}
    assert not _region_certificate("z + beta*z**2", decl, {"a": R(2), "b": R(1)}, Region(-OO, OO)).accepted
    halves = [_region_certificate("z + beta*z**2", decl, {"a": R(2), "b": R(1)}, r) for r in
              (Region(-OO, R(0)), Region(R(0), OO))]
    assert all(h.accepted for h in halves)
    cert = copy.deepcopy(halves[0].data)
    cert["claim"]["region"] = {"param0": ["open", "-inf", "inf"]}
    cert["proof"] = {"var": "param0", "pieces": [
        {"region": ["open", "-inf", ["int", 0]], **halves[0].data["proof"]},
        {"region": ["point", ["int", 0]], "steps": [], "end": {"sign": "pos", "by": "point"}},
        {"region": ["open", ["int", 0], "inf"], **halves[1].data["proof"]}]}
    verdict = kernel_check(cert)
    assert not verdict.accepted
    assert "pieces[1]" in verdict.where


def test_a_power_with_a_parameter_exponent_needs_a_defined_base():
    """Max(z, 0)^p at a = −1 is 0^p: defined (0) only because p > 0 on the whole region, so the
    claim is accepted there; a declared range reaching p ≤ 0 (0^0, 1/0) is refused before any proof."""
    zero = _region_certificate("Max(z, 0)**p", {"p": "p>0"}, {"a": R(-1), "b": R(1)}, Region(R(0), OO))
    assert zero.accepted, zero
    good = _region_certificate("Max(z, 0)**p", {"p": "p>0"}, {"a": R(2), "b": R(1)}, Region(R(1), OO))
    assert good.accepted, good
    cert = copy.deepcopy(zero.data)
    cert["claim"]["vars"]["param0"] = [["open", ["int", -1], "inf"]]
    cert["claim"]["region"]["param0"] = ["open", ["int", -1], "inf"]
    verdict = kernel_check(cert)
    assert not verdict.accepted and "power_base" in verdict.where


def _elu_cover():
    family = parse_family("Piecewise((z, z > 0), (alpha*(exp(z) - 1), True))", {"alpha": "alpha>0"})
    (spec,) = family.params.specs
    t = Transformation("inverse-scaling", domain(-1))
    p1, p2 = {"a": R(2), "b": R(1), "alpha": R(-1)}, {"a": R(-1), "b": R(1), "alpha": R(-1)}
    segments = [(p1, Region(R(0), R(2))), (p1, Region(R(2), R(2))), (p2, Region(R(2), OO))]
    return certify_family_cover(family.expr, t, form("gated"), {spec.symbol: spec.regions}, {spec.symbol: "alpha"},
                                segments, {spec.symbol: Region(R(0), OO)})


def test_a_cover_by_two_probes_each_vanishing_at_a_transcendental_value():
    outcome = _elu_cover()
    assert outcome.accepted, outcome
    assert len(outcome.data["claim"]["probes"]) == 2


@pytest.mark.parametrize("slip, where, reason", [
    # probe 0 vanishes at 2e²/(e²−1) ≈ 2.31, inside the last piece: its proof is of the other probe
    (lambda c: c["proof"]["pieces"][2].update(probe=0), "proof.pieces[2]", ""),
    (lambda c: c["proof"]["pieces"][0].update(probe=2), "proof.pieces[0]", "index below 2"),
    (lambda c: c["proof"]["pieces"][2].update(region=["open", ["int", 3], "inf"]), "proof", "gap or overlap"),
])
def test_a_cover_slip_is_rejected(slip, where, reason):
    cert = copy.deepcopy(_elu_cover().data)
    slip(cert)
    verdict = kernel_check(cert)
    assert not verdict.accepted and reason in verdict.reason and verdict.where.startswith(where)


@pytest.mark.slow
def test_every_reported_region_passes_the_kernel():
    for act, decl, check in [(SWISH, {"beta": "beta>=0"}, sc.check_exchange),
                             ("Piecewise((z, z > 0), (alpha*(exp(z) - 1), True))", {"alpha": "alpha>0"},
                              lambda a, params: sc.check_inverse_scaling(a, alpha=-1, params=params)),
                             ("z + beta*z**2", {"beta": "beta"}, sc.check_exchange)]:
        result = check(act, params=decl)
        decided = [r for r in result.regions if r.verdict.value != "inconclusive"]
        assert decided, result
        for region in decided:
            assert region.certificates, region
            assert all(kernel_check(c).accepted for c in region.certificates)
            assert region.to_dict()["kernel_certificates"] == len(region.certificates)


# --------------------------------------------------------------------------- the bounds argument

_leaf_trees = st.sampled_from([["var", "t"], ["int", 2], ["rat", 1, 3], ["int", -1]])


def _unary(inner):
    return st.builds(lambda f, x: [f, x], st.sampled_from(["exp", "tanh", "atan", "erf", "sinh", "asinh",
                                                           "erfc", "cosh", "abs", "sin"]), inner)


_trees = st.recursive(_leaf_trees, lambda inner: st.one_of(
    _unary(inner),
    st.builds(lambda a, b: ["add", a, b], inner, inner),
    st.builds(lambda a, b: ["mul", a, b], inner, inner),
    st.builds(lambda a: ["pow", ["add", ["int", 1], ["exp", a]], ["int", -1]], inner),
    st.builds(lambda a: ["log", ["add", ["int", 1], ["exp", a]]], inner),
    st.builds(lambda a: ["pow", ["add", ["int", 1], ["mul", a, a]], ["rat", 1, 2]], inner),
), max_leaves=6)

_MP = {"exp": mpmath.exp, "tanh": mpmath.tanh, "atan": mpmath.atan, "erf": mpmath.erf, "sinh": mpmath.sinh,
       "asinh": mpmath.asinh, "erfc": mpmath.erfc, "cosh": mpmath.cosh, "abs": abs, "sin": mpmath.sin,
       "log": mpmath.log}


def _value(node, t):
    head = node[0]
    if head == "var":
        return t
    if head == "int":
        return mpmath.mpf(node[1])
    if head == "rat":
        return mpmath.mpf(node[1]) / node[2]
    if head == "add":
        return sum((_value(a, t) for a in node[1:]), mpmath.mpf(0))
    if head == "mul":
        out = mpmath.mpf(1)
        for a in node[1:]:
            out *= _value(a, t)
        return out
    if head == "pow":
        base = _value(node[1], t)
        e = node[2]
        return base ** (mpmath.mpf(e[1]) / (e[2] if e[0] == "rat" else 1))
    return _MP[head](_value(node[1], t))


@settings(max_examples=150, deadline=None)
@given(tree=_trees, start=st.sampled_from([0, 1, 3, -2]), side=st.sampled_from(["up", "down"]))
@pytest.mark.slow
def test_bounds_enclose_every_sampled_value(tree, start, side):
    """The extended enclosure over (start, ∞) or (−∞, start) holds the value at points up to 10⁶
    out (mpmath at 60 digits); a wrong limit or a product sign slip puts one outside."""
    g = parse_expr(tree)
    region = ["open", ["int", start], "inf"] if side == "up" else ["open", "-inf", ["int", start]]
    box = {"t": region_from(region)}
    try:
        with precision(64):
            lo, hi = extended(g, box)
    except Exception:  # noqa: BLE001 -- no enclosure is never wrong
        return
    mpmath.mp.dps = 60
    sign = 1 if side == "up" else -1
    for offset in ("1e-6", "0.5", "1", "3", "10", "100", "1e4", "1e6"):
        t = mpmath.mpf(start) + sign * mpmath.mpf(offset)
        try:
            v = _value(tree, t)
        except (ZeroDivisionError, ValueError, OverflowError):
            continue
        if not mpmath.isfinite(v) or isinstance(v, mpmath.mpc):
            continue
        low = -math.inf if lo == -math.inf else float(lo.lower()) if hasattr(lo, "lower") else lo
        high = math.inf if hi == math.inf else float(hi.upper()) if hasattr(hi, "upper") else hi
        tol = 1e-9 * (1 + abs(float(v)))  # the float conversion of the ends, not the kernel's
        assert low - tol <= float(v) <= high + tol, (tree, region, offset, float(v), lo, hi)


def test_bounds_decide_signs_over_half_lines():
    sig = lambda x: ["mul", x, ["pow", ["add", ["int", 1], ["exp", ["mul", ["int", -1], ["var", "b"], x]]],  # noqa: E731
                                ["int", -1]]]
    g = parse_expr(["add", sig(["int", -1]), sig(["int", 1])])
    assert prove_sign(g, "pos", {"b": region_from(["open", ["int", 1], "inf"])}, "bounds") == "bounds"
    with pytest.raises(Reject):  # on (0, ∞) it tends to 0 at 0: no bound excludes it
        prove_sign(g, "pos", {"b": region_from(["open", ["int", 0], "inf"])}, "bounds")
    with pytest.raises(Reject):  # the opposite sign is never proved
        prove_sign(g, "neg", {"b": region_from(["open", ["int", 1], "inf"])}, "bounds")


# --------------------------------------------------------------------------- kernel helpers the claim uses


@settings(max_examples=60, deadline=None)
@given(c=st.integers(-3, 3), d=st.integers(1, 4), k=st.integers(1, 3))
def test_derivative_of_a_variable_exponent(c, d, k):
    """(x² + d)^(k·θ + c) differentiated in θ and in x agrees with mpmath's numerical derivative."""
    base = ["add", ["pow", ["var", "x"], ["int", 2]], ["int", d]]
    tree = parse_expr(["pow", base, ["add", ["mul", ["int", k], ["var", "p"]], ["int", c]]])
    f = lambda x, p: (x ** 2 + d) ** (k * p + c)  # noqa: E731
    for v, at in (("p", {"x": 1.5, "p": 0.25}), ("x", {"x": -0.75, "p": 1.5})):
        node = derivative(tree, v)
        got = _value_xp(node, at)
        want = mpmath.diff(lambda s, at=at, v=v: f(**{**at, v: s}), at[v])
        assert abs(got - want) <= 1e-8 * (1 + abs(want))


def _value_xp(node, env):
    from flint import arb

    from symcheck.kernel.evaluate import enclose
    with precision(128):
        ball = enclose(node, {k: arb(v) for k, v in env.items()}, None)
    return float(ball.mid())


def test_an_exponent_exactly_an_integer_is_evaluated_exactly_where_defined():
    tree = parse_expr(["pow", ["var", "b"], ["var", "p"]])
    from fractions import Fraction
    assert exact(tree, {"b": Fraction(2), "p": Fraction(3)}) == 8
    assert exact(tree, {"b": Fraction(1, 2), "p": Fraction(-2)}) == 4
    assert exact(tree, {"b": Fraction(0), "p": Fraction(1, 3)}) == 0  # 0^θ = 0 for θ > 0
    assert exact(tree, {"b": Fraction(0), "p": Fraction(0)}) is None  # 0^0: undefined here
    assert exact(tree, {"b": Fraction(0), "p": Fraction(-1)}) is None
    assert exact(tree, {"b": Fraction(-2), "p": Fraction(2)}) is None
    assert exact(tree, {"b": Fraction(2), "p": Fraction(1, 2)}) is None  # not exact: Arb's job


@pytest.mark.parametrize("tree, signs", [
    (["log", ["add", ["int", 1], ["exp", ["var", "x"]]]], {1}),
    (["log", ["add", ["int", 1], ["pow", ["var", "x"], ["int", 2]]]], {0, 1}),
    (["log", ["rat", 1, 2]], {-1}),
    (["log", ["int", 1]], {0}),
    (["log", ["add", ["int", 1], ["mul", ["int", -1], ["exp", ["var", "x"]]]]], {-1}),
    (["log", ["add", ["int", 2], ["mul", ["int", -1], ["exp", ["var", "x"]]]]], {-1, 0, 1}),
    (["log", ["var", "x"]], {-1, 0, 1}),
])
def test_the_sign_of_a_log_is_the_sign_of_its_argument_minus_one(tree, signs):
    assert signs_of(parse_expr(tree), {"x": region_from(["open", "-inf", "inf"])}) == frozenset(signs)
