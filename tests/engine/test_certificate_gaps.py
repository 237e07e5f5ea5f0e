"""Proofs the engine finds that the emitter could not state before (issue 23 gaps), now stated in
the kernel's language and accepted: a change of variables u = b·a for conditions in the product
a·b, the ``factors`` sign argument for a polynomial times a tiny constant, ``alternatives`` for a
condition no finite cut decides, and logarithms of Laurent polynomials (softplus identities) split
by the existing rules. Each new form is also edited by hand, or forged for a false claim, and
must be rejected (docs/certificates.md)."""
from __future__ import annotations

import copy
import json

import pytest
import sympy

from symcheck.engine.certificate.emit import (
    Certificate,
    Rejection,
    certify_member,
    certify_statement,
    certify_zero,
)
from symcheck.engine.symmetries import check as engine_check
from symcheck.kernel.check import check
from symcheck.kernel.points import parse_point
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject
from symcheck.language.symbols import A, B
from symcheck.language.transformations import Transformation, domain

from support.kernel_certificates import SCHEMA, I, Z, add, mul, neg, pw

AV, BV = ["var", "a"], ["var", "b"]
POS, NEG_LINE = [["open", I(0), "inf"]], [["open", "-inf", I(0)]]
TINY_CONDITION = "z + Piecewise((1, (z**2 - 4*z + 5)*log(1 + exp(-2000)) <= 0), (0, True))"
UNCUT = ["Piecewise((z, sin(exp(z)) > 0), (z + sin(z)**2 + cos(z)**2 - 1, True))",
         "Piecewise((tanh(z), sin(exp(z)) > 0), ((exp(2*z) - 1)/(exp(2*z) + 1), True))"]

#: (σ, transformation, scale, form): the engine's ``holds`` the gate turned inconclusive before
GAPS = [*((act, kind, "-1", "rank1") for act in ("hardtanh", "hardshrink", "softshrink")
          for kind in ("key-value-rescaling", "query-value-rescaling")),
        ("hardtanh", "key-value-rescaling", "-1", "sigma(a*b)"),
        (TINY_CONDITION, "exchange", None, "gated")]


def accepted(outcome):
    assert isinstance(outcome, Certificate), str(outcome)
    again = check(json.loads(json.dumps(outcome.data)))
    assert again.accepted, str(again)
    return outcome.data


def rejected(cert, *words):
    verdict = check(cert)
    assert not verdict.accepted, "an edited certificate was accepted"
    for w in words:
        assert w in verdict.reason, verdict.reason
    return verdict


def nodes(node, path=()):
    """(path, node) of every proof node, through splits, changes and alternatives."""
    yield path, node
    for i, piece in enumerate(node.get("pieces", ())):
        yield from nodes(piece, path + ("pieces", i))
    if "change" in node:
        yield from nodes(node["proof"], path + ("proof",))
    for i, proof in enumerate(node.get("alternatives", {}).get("proofs", ())):
        yield from nodes(proof, path + ("alternatives", "proofs", i))


def node_at(cert, path):
    node = cert["proof"]
    for key in path:
        node = node[key]
    return node


def transformation(kind, scale):
    return Transformation(kind, domain(scale) if scale else None)


# ------------------------------------------------------------------ the gaps, end to end


@pytest.mark.parametrize("act,kind,scale,form", GAPS, ids=lambda x: str(x)[:30])
@pytest.mark.slow
def test_the_engines_proof_now_passes_the_kernel(act, kind, scale, form):
    result = engine_check(act, transformation(kind, scale), form)
    assert result.verdict.value == "holds", str(result)
    assert result.kernel.accepted
    assert check(json.loads(json.dumps(result.certificate))).accepted


def test_a_condition_in_a_b_is_stated_through_u():
    data = accepted(certify_statement("hardtanh", transformation("key-value-rescaling", "-1"), "rank1"))
    changes = [n["change"] for _, n in nodes(data["proof"]) if "change" in n]
    assert changes and all(c["to"] == "u" and c["var"] in ("a", "b") for c in changes)


def test_a_tiny_constant_times_a_polynomial_is_signed_by_factors():
    data = accepted(certify_statement(TINY_CONDITION, transformation("exchange", None), "gated"))
    assert '"factors"' not in json.dumps(data)  # no fact named: the kernel finds the argument itself
    steps = [s for _, n in nodes(data["proof"]) for s in n.get("steps", ())]
    assert any(s["rule"] == "ring" and s["at"][-1] == 1 and len(s["at"]) > 3 for s in steps)


@pytest.mark.parametrize("act", UNCUT)
def test_an_uncut_condition_keeps_its_branches_as_alternatives(act):
    data = accepted(certify_statement(act, transformation("inverse-scaling", "-1"), "gated"))
    assert any("alternatives" in n for _, n in nodes(data["proof"]))


@pytest.mark.parametrize("act,a,c", [("log(1 + exp(z)) - z/2", -1, 1),
                                     ("log(1 + exp(z)) - log(1 + exp(-z))", 2, 2),
                                     ("log(1 + exp(z)) - log(1 + exp(-z))", "1/2", "1/2")])
def test_softplus_identities_are_certified_with_the_existing_rules(act, a, c):
    data = accepted(certify_member(act, a, c))
    rules = {s["rule"] for _, n in nodes(data["proof"]) for s in n.get("steps", ())}
    assert {"log_mul", "log_pow", "log_exp"} <= rules


@pytest.mark.parametrize("act,a,c", [("log(1 + exp(z)) - z/2", -1, -1), ("log(1 + exp(z)) - z/2", 2, 2),
                                     ("log(1 + exp(z)) - log(1 + exp(-z))", -1, 1)])
def test_false_softplus_members_get_no_certificate(act, a, c):
    outcome = certify_member(act, a, c)
    assert isinstance(outcome, Rejection) and outcome.stage == "emit", str(outcome)


@pytest.mark.parametrize("act", [
    "Piecewise((z, sin(exp(z)) > 0), (z + exp(-z)/10**30, True))",            # one branch tiny, not 0
    "z + Piecewise((1, (z**2 - 4*z + 3)*log(1 + exp(-2000)) <= 0), (0, True))",  # 1 on [1, 3]
])
def test_false_statements_of_the_new_kinds_get_no_certificate(act):
    for kind, scale, form in (("inverse-scaling", "-1", "gated"), ("exchange", None, "gated")):
        outcome = certify_statement(act, transformation(kind, scale), form)
        assert isinstance(outcome, Rejection) and outcome.stage == "emit", str(outcome)


def test_a_false_condition_in_a_b_gets_no_certificate():
    # min(ab, 1) against min(ab, 2): differ where ab > 1
    e = sympy.Piecewise((1, A * B - 1 >= 0), (A * B, True)) - sympy.Piecewise((2, A * B - 2 >= 0), (A * B, True))
    outcome = certify_zero(e, {A: (), B: ()})
    assert isinstance(outcome, Rejection) and outcome.stage == "emit", str(outcome)


# ------------------------------------------------------------------ change of variables, edited


@pytest.fixture(scope="module")
def min_ab():
    """min(ab, 1) written two ways: proved through u = b·a on each quadrant."""
    e = sympy.Piecewise((1, A * B - 1 >= 0), (A * B, True)) - sympy.Piecewise((A * B, 1 - A * B > 0), (1, True))
    return accepted(certify_zero(e, {A: (), B: ()}))


def _first_change(cert):
    return next(p for p, n in nodes(cert["proof"]) if "change" in n)


@pytest.mark.parametrize("factor", [neg(BV), mul(I(2), BV), ["pow", BV, I(-1)], mul(BV, BV), AV, ["var", "u"]])
def test_a_change_with_another_factor_is_rejected(min_ab, factor):
    cert = copy.deepcopy(min_ab)
    node_at(cert, _first_change(cert))["change"]["factor"] = factor
    rejected(cert)


@pytest.mark.parametrize("to", ["a", "b", "z", 3])
def test_a_change_to_a_variable_that_is_not_fresh_is_rejected(min_ab, to):
    cert = copy.deepcopy(min_ab)
    node_at(cert, _first_change(cert))["change"]["to"] = to
    rejected(cert)


def test_a_change_where_the_factor_has_no_strict_sign_is_rejected(min_ab):
    """Moved up to a piece where b ranges over R: b·a is no bijection when b can be 0."""
    cert = copy.deepcopy(min_ab)
    path = _first_change(cert)
    change = node_at(cert, path)
    parent = node_at(cert, path[:-2])
    assert parent["var"] == "b"
    node_at(cert, path[:-4])["pieces"][path[-3]] = change
    rejected(cert, "no proved strict sign")


def test_a_false_claim_is_not_proved_by_a_change():
    """0 if a·b > 0, else 1 — claimed 0 on a > 0, b < 0, where it is 1: the kernel maps a's region
    through u = b·a itself (onto u < 0), so the first branch cannot be taken."""
    expr = pw([I(0), ["gt", mul(AV, BV), I(0)]], [I(1), ["true"]])
    for factor in (BV, neg(BV)):
        cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"a": POS, "b": NEG_LINE}},
                "proof": {"change": {"var": "a", "to": "u", "factor": factor},
                          "proof": {"steps": [{"rule": "branch", "at": [], "take": 0, "after": I(0)}],
                                    "end": "normal-form"}}}
        rejected(cert)


def _scaled_identity(domain_a):
    # a·b − b·a after a = u·2^(−1): 0 by the normal form, whatever a's region
    expr = add(mul(AV, BV), neg(mul(BV, AV)))
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"a": domain_a, "b": []}},
            "proof": {"change": {"var": "a", "to": "u", "factor": I(2)}, "proof": {"steps": [], "end": "normal-form"}}}


def test_a_change_needs_a_region_ending_at_zero_or_infinity():
    assert check(_scaled_identity(POS)).accepted
    assert check(_scaled_identity([])).accepted
    rejected(_scaled_identity([["open", I(1), I(2)]]), "ends at")


def test_the_changed_region_follows_the_factors_sign():
    """On a > 0 with u = −a·1: u < 0, so a split of u over (0, ∞) does not cover its range."""
    expr = pw([I(0), ["gt", AV, I(0)]], [I(1), ["true"]])
    proof = {"change": {"var": "a", "to": "u", "factor": I(-1)},
             "proof": {"var": "u", "pieces": [{"region": ["open", I(0), "inf"], "steps": [], "end": "normal-form"}]}}
    cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"a": POS}}, "proof": proof}
    rejected(cert, "do not start and end")


# ------------------------------------------------------------------ alternatives, edited

SIN_EXP = ["gt", ["sin", ["exp", Z]], I(0)]


def _alternatives(values, take, proofs=None, conds=None):
    conds = conds or [SIN_EXP] + [["true"]] * (len(values) - 1)
    expr = pw(*zip(values, conds, strict=True))
    proofs = proofs or [{"steps": [], "end": "normal-form"} for _ in take]
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": []}},
            "proof": {"steps": [], "alternatives": {"at": [], "take": take, "proofs": proofs}}}


def test_alternatives_of_a_condition_no_cut_decides_are_accepted():
    assert check(_alternatives([add(Z, neg(Z)), mul(I(0), Z)], [0, 1])).accepted


@pytest.mark.parametrize("take", [[0], [1], [1, 0], [0, 0], [0, 1, 2], []])
def test_alternatives_that_miss_a_branch_or_are_malformed_are_rejected(take):
    rejected(_alternatives([add(Z, neg(Z)), mul(I(0), Z)], take))


def test_every_alternative_must_be_proved():
    """0 where sin(e^z) > 0, 10^-100 elsewhere: not 0, whichever branch is proved."""
    rejected(_alternatives([add(Z, neg(Z)), ["rat", 1, 10 ** 100]], [0, 1]), "not 0")


def test_a_branch_skipped_only_when_its_condition_is_false():
    # z > 0 is not false on R: branch 0 cannot be left out
    values = [I(1), add(Z, neg(Z)), I(0)]
    conds = [["gt", Z, I(0)], SIN_EXP, ["true"]]
    assert rejected(_alternatives(values, [1, 2], conds=conds), "nonpos").where.endswith("condition[0]")
    assert check(_alternatives(values[1:], [0, 1], conds=conds[1:])).accepted


def test_alternatives_after_the_chosen_true_branch_are_not_needed():
    values = [add(Z, neg(Z)), I(0), I(5)]
    conds = [SIN_EXP, ["true"], ["true"]]
    assert check(_alternatives(values, [0, 1], conds=conds)).accepted
    rejected(_alternatives(values, [0, 2], conds=conds))   # 5 is a listed alternative: not 0


# ------------------------------------------------------------------ the factors argument


TINY = ["log", add(I(1), ["exp", I(-2000)])]           # ≈ e^-2000 > 0
TINY_NEG = ["log", add(I(1), neg(["exp", I(-2000)]))]  # ≈ −e^-2000 < 0
WHOLE = {"z": ("open", "-inf", "inf")}


def test_factors_signs_a_tiny_constant_times_a_polynomial():
    no_roots = add(mul(Z, Z), mul(I(-4), Z), I(5))
    assert prove_sign(parse_expr(mul(TINY, no_roots)), "pos", WHOLE, "factors") == "factors"
    assert prove_sign(parse_expr(mul(TINY_NEG, no_roots)), "neg", WHOLE, "factors") == "factors"
    for g, claim in ((mul(TINY, no_roots), "neg"), (mul(TINY, no_roots), "nonpos"),
                     (mul(TINY_NEG, no_roots), "pos"), (mul(TINY, add(mul(Z, Z), I(-3))), "pos"),
                     (mul(TINY, Z), "nonneg"), (add(TINY, no_roots), "pos")):
        with pytest.raises(Reject):
            prove_sign(parse_expr(g), claim, WHOLE, "factors")


def test_factors_use_each_factors_own_variables():
    def box(lo, hi):
        return {"z": ("open", parse_point(I(lo)), parse_point(I(hi))), "a": ("open", "-inf", parse_point(I(0)))}
    g = parse_expr(mul(add(mul(Z, Z), I(-4)), ["var", "a"], TINY))   # (z² − 4)·a·tiny
    assert prove_sign(g, "neg", box(2, 3), "factors") == "factors"   # (+)(−)(+)
    for claim, where in (("pos", box(2, 3)), ("nonpos", box(1, 3)), ("nonneg", box(1, 3))):
        with pytest.raises(Reject):   # z = 2 is a root inside (1, 3): no sign there
            prove_sign(g, claim, where, "factors")
