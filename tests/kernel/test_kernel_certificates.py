"""The kernel accepts hand-built proofs and rejects every edited one (docs/certificates.md)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import check

from support.kernel_certificates import (
    ACCEPTED,
    MINUS_ROOT2,
    ROOT2,
    SCHEMA,
    Chain,
    G,
    I,
    Z,
    abs_cut_at_root2,
    add,
    at,
    double_angle,
    leaf,
    log_periodic_argument,
    log_split_on_domain,
    mul,
    neg,
    put,
    relu_scaling_positive,
    silu_not_odd_witness,
    silu_rank1_exchange,
    sqrt_abs_member,
    tanh_odd_by_exp,
)

TINY = ["rat", 1, 10 ** 100]


def rejected(cert, *words):
    verdict = check(cert)
    assert not verdict.accepted, "an edited certificate was accepted"
    text = f"{verdict.where}: {verdict.reason}"
    for w in words:
        assert w in text, text
    return verdict


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_real_proofs_are_accepted(name):
    verdict = check(ACCEPTED[name]())
    assert verdict.accepted, str(verdict)


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_certificates_survive_a_json_round_trip(name):
    assert check(json.loads(json.dumps(ACCEPTED[name]()))).accepted


# ------------------------------------------------------------ case splits

def test_a_region_end_moved_is_rejected():
    cert = relu_scaling_positive()
    cert["proof"]["pieces"][1]["region"] = ["point", ["rat", 1, 10 ** 100]]
    rejected(cert, "pieces[1]", "gap or overlap")


def test_a_missing_piece_is_rejected():
    cert = relu_scaling_positive()
    del cert["proof"]["pieces"][1]
    rejected(cert, "missing")


def test_a_missing_outer_piece_is_rejected():
    cert = abs_cut_at_root2()
    del cert["proof"]["pieces"][-2:]
    rejected(cert, "do not start and end")


def test_an_open_piece_stretched_over_a_cut_is_rejected():
    cert = abs_cut_at_root2()
    pieces = cert["proof"]["pieces"]
    # (−√2, √2) widened to (−√2, 2) and the rest shifted: the branch z² > 2 is no longer false there
    pieces[2]["region"] = ["open", MINUS_ROOT2, I(2)]
    pieces[3]["region"] = ["point", I(2)]
    pieces[4]["region"] = ["open", I(2), "inf"]
    rejected(cert, "pieces[2]", "nonpos")


@pytest.mark.parametrize("interval, count", [([I(-2), I(2)], 2), ([I(2), I(3)], 0)])
def test_an_isolating_interval_with_two_roots_or_none_is_rejected(interval, count):
    cert = abs_cut_at_root2()
    for piece in cert["proof"]["pieces"]:
        text = json.dumps(piece["region"]).replace(json.dumps(ROOT2), json.dumps(["root", [-2, 0, 1], interval]))
        piece["region"] = json.loads(text)
    rejected(cert, f"holds {count} roots")


def test_a_root_swapped_for_a_close_rational_is_rejected():
    cert = abs_cut_at_root2()
    text = json.dumps(cert["proof"]).replace(json.dumps(ROOT2), json.dumps(["rat", 1414213562373095, 10 ** 15]))
    cert["proof"] = json.loads(text)
    rejected(cert)


# ------------------------------------------------------------ rule instances and side conditions

def test_a_wrong_binding_is_rejected():
    cert = tanh_odd_by_exp()
    step = cert["proof"]["pieces"][0]["steps"][0]
    step["after"] = put(step["after"], [1, 1, 1, 1], mul(I(3), neg(Z)))  # exp(3·(−z)) for exp(2·(−z))
    rejected(cert, "steps[0]", "tanh_exp")


def test_a_rule_used_from_the_wrong_side_is_rejected():
    cert = tanh_odd_by_exp()
    cert["proof"]["pieces"][0]["steps"][0]["dir"] = "rl"
    rejected(cert, "steps[0]", "right side")


def test_a_rule_renamed_is_rejected():
    cert = tanh_odd_by_exp()
    cert["proof"]["pieces"][0]["steps"][0]["rule"] = "sinh_exp"
    rejected(cert, "steps[0]", "sinh_exp")


def test_an_unknown_rule_is_rejected():
    cert = tanh_odd_by_exp()
    cert["proof"]["pieces"][0]["steps"][0]["rule"] = "simplify"
    rejected(cert, 'unknown rule "simplify"')


def test_a_step_at_the_wrong_position_is_rejected():
    cert = tanh_odd_by_exp()
    cert["proof"]["pieces"][0]["steps"][0]["at"] = [2]
    rejected(cert, "steps[0]")


def test_a_log_split_with_a_negative_factor_on_the_piece_is_rejected():
    cert = log_split_on_domain()
    cert["claim"]["vars"]["z"] = [["open", I(-4), "inf"]]  # z + 3 < 0 on (−4, −3)
    rejected(cert, "side[x]", "pos")


def test_a_log_split_on_the_whole_line_is_rejected():
    cert = log_split_on_domain()
    cert["claim"]["vars"]["z"] = []
    rejected(cert, "side[x]")


def test_abs_rule_on_the_wrong_side_of_a_cut_is_rejected():
    cert = abs_cut_at_root2()
    piece = cert["proof"]["pieces"][2]  # (−√2, √2): |z²−2| = −(z²−2), not z²−2
    expr = cert["claim"]["expr"]
    piece["steps"] = Chain(expr).branch([], 1).step("abs_nonneg", [1], G).steps
    rejected(cert, "pieces[2].steps[1].side[x]", "nonneg")


def test_a_wrong_branch_is_rejected():
    cert = relu_scaling_positive()
    piece = cert["proof"]["pieces"][2]   # z > 0: relu(z) takes its first branch
    expr = piece["steps"][0]["after"]
    piece["steps"][1] = Chain(expr).branch([2, 3], 1).steps[0]
    rejected(cert, "pieces[2].steps[1].condition[0]")


def test_a_branch_chosen_without_the_domain_is_rejected():
    cert = relu_scaling_positive()
    cert["claim"]["vars"]["a"] = []  # a ∈ R: the sign of a·z is not known on z < 0
    rejected(cert, "pieces[0].steps[0]")


def test_a_ring_step_that_changes_the_value_is_rejected():
    cert = tanh_odd_by_exp()
    steps = cert["proof"]["pieces"][0]["steps"]
    ring = steps[2]
    ring["after"] = put(ring["after"], [1, 1, 1, 1], mul(I(-2), add(Z, TINY)))
    rejected(cert, "steps[2]")


def test_a_ring_step_may_not_introduce_an_atom():
    expr = add(Z, neg(Z))
    chain = Chain(expr).step("ring", [], mul(I(0), ["log", Z]))
    cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": []}},
            "proof": leaf(chain)}
    rejected(cert, "introduce")


def test_a_ring_step_folds_a_negative_power_of_a_non_zero_constant_only():
    # erf(b·(−1)^(−1)) − erf(−b): the statement at α = −1 holds b/α; (−1)^(−1) is a number
    def cert_for(before, after):
        expr = add(["erf", before], neg(["erf", after]))
        chain = Chain(expr).step("ring", [1, 1], after)
        return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"b": []}}, "proof": leaf(chain)}
    B = ["var", "b"]
    assert check(cert_for(mul(B, ["pow", I(-1), I(-1)]), neg(B))).accepted
    assert check(cert_for(mul(B, ["pow", mul(I(3), ["rat", 1, 6]), I(-2)]), mul(I(4), B))).accepted
    # a negative power of 0, or of a variable not proved non-zero on the piece: not folded away
    rejected(cert_for(mul(B, ["pow", add(I(1), I(-1)), I(-1)]), ["int", 0]), "polynomials only")
    rejected(cert_for(mul(B, ["pow", B, I(-1)]), I(1)), "polynomials only")
    # e^(−1) is a non-zero number, so it may stay inverted; b·e^(−1) and b differ
    rejected(cert_for(mul(B, ["pow", ["exp", I(1)], I(-1)]), B), "differ")


def test_an_integer_exponent_is_not_rewritten():
    expr = add(["pow", ["abs", Z], I(1)], neg(["abs", Z]))
    chain = Chain(expr).step("ring", [1, 2], mul(["rat", 1, 2], I(2)))
    cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": []}},
            "proof": leaf(chain)}
    rejected(cert, "integer exponent")


# ------------------------------------------------------------ what counts as zero

def test_a_constant_perturbed_by_ten_to_the_minus_100_is_rejected():
    cert = silu_rank1_exchange()
    cert["claim"]["expr"] = add(cert["claim"]["expr"], TINY)
    rejected(cert, "numerator is not 0")


def test_a_tiny_constant_left_after_the_steps_is_rejected():
    cert = tanh_odd_by_exp()
    piece = cert["proof"]["pieces"][0]
    last = piece["steps"][-1]["after"]
    cert["claim"] = {"kind": "zero", "expr": add(cert_member_expr(cert), TINY), "vars": {"z": []}}
    piece["steps"] = [dict(s, after=add(s["after"], TINY)) for s in piece["steps"]]
    for s in piece["steps"]:
        s["at"] = [1] + s["at"]
    assert last is not None
    rejected(cert, "numerator is not 0")


def cert_member_expr(cert):
    member = cert["claim"]["member"]
    from support import kernel_certificates as kc
    sigma_scaled = json.loads(json.dumps(member["sigma"]).replace(json.dumps(Z), json.dumps(mul(member["a"], Z))))
    return kc.add(sigma_scaled, kc.mul(I(-1), member["c"], member["sigma"]))


def test_the_member_expression_is_built_by_the_kernel():
    cert = tanh_odd_by_exp()
    cert["claim"]["expr"] = add(["tanh", neg(Z)], ["tanh", Z])  # not what σ, a, c give
    rejected(cert, "member")
    cert["claim"]["expr"] = cert_member_expr(cert)
    assert check(cert).accepted


def test_an_exact_value_end_needs_an_exact_zero():
    expr = add(["cosh", ["exp", I(-1500)]], I(-1))  # cosh(e^-1500) − 1 ≈ e^-3000/2, not 0
    cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {}},
            "proof": {"steps": [], "end": "exact-value"}}
    rejected(cert, "not exactly 0")
    cert["proof"]["end"] = "normal-form"
    rejected(cert, "numerator is not 0")


# ------------------------------------------------------------ signs and witnesses

def test_an_enclosure_with_a_wrong_sign_is_rejected():
    cert = abs_cut_at_root2()
    piece = cert["proof"]["pieces"][2]  # (−√2, √2), where z² − 3 ≤ −1
    piece["facts"] = [{"of": add(G, I(-1)), "sign": "neg", "by": "enclosure"}]
    assert check(cert).accepted
    piece["facts"] = [{"of": add(G, I(-1)), "sign": "pos", "by": "enclosure"}]
    rejected(cert, "facts[0]", "sign pos")
    piece["facts"] = [{"of": add(G, I(-1)), "sign": "nonneg"}]  # every argument tried, none proves it
    rejected(cert, "facts[0]", "sign nonneg")


def test_an_enclosure_cannot_prove_a_strict_sign_up_to_a_root():
    cert = abs_cut_at_root2()
    cert["proof"]["pieces"][2]["facts"] = [{"of": G, "sign": "neg", "by": "enclosure"}]
    rejected(cert, "facts[0]", "sub-boxes")


def test_a_fact_proves_a_branch_only_when_true():
    cert = abs_cut_at_root2()
    piece = cert["proof"]["pieces"][4]  # (√2, ∞): no enclosure on an unbounded region
    piece["facts"] = [{"of": G, "sign": "pos", "by": "enclosure"}]
    rejected(cert, "facts[0]", "unbounded")
    piece["facts"] = [{"of": G, "sign": "pos", "by": "roots"}]
    assert check(cert).accepted


def test_a_witness_with_the_wrong_sign_is_rejected():
    cert = silu_not_odd_witness()
    cert["witness"]["sign"] = "neg"
    rejected(cert, "witness")


def test_a_witness_where_the_residual_is_zero_is_rejected():
    cert = silu_not_odd_witness()
    cert["witness"]["point"]["z"] = I(0)
    rejected(cert, "witness")


def test_a_witness_of_a_true_statement_is_rejected():
    cert = silu_not_odd_witness()
    cert["claim"]["member"]["sigma"] = ["tanh", Z]
    rejected(cert, "witness")


# ------------------------------------------------------------ malformed input: a reason, never a crash

@pytest.mark.parametrize("cert, words", [
    (None, "JSON object"),
    ({}, "schema"),
    ({"schema": SCHEMA}, "the claim"),
    ({"schema": SCHEMA, "claim": {"kind": "zero", "expr": ["frobnicate", Z], "vars": {"z": []}}},
     "unknown expression head 'frobnicate'"),
    ({"schema": SCHEMA, "claim": {"kind": "zero", "expr": ["add", Z], "vars": {"z": []}}}, "at least 2"),
    ({"schema": SCHEMA, "claim": {"kind": "zero", "expr": ["rat", 2, 4], "vars": {}}}, "lowest terms"),
    ({"schema": SCHEMA, "claim": {"kind": "zero", "expr": Z}}, "without a declared domain"),
    ({"schema": SCHEMA, "claim": {"kind": "maybe", "expr": Z, "vars": {"z": []}}}, "claim kind"),
    ({"schema": SCHEMA, "claim": {"kind": "zero", "expr": ["int", True], "vars": {}}}, "JSON integer"),
])
def test_malformed_certificates_are_rejected_with_a_reason(cert, words):
    rejected(cert, words)


def test_a_deeply_nested_tree_is_rejected():
    tree = Z
    for _ in range(5000):
        tree = ["exp", tree]
    rejected({"schema": SCHEMA, "claim": {"kind": "zero", "expr": tree, "vars": {"z": []}}}, "deeper")


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                           | st.sampled_from(["add", "mul", "pow", "int", "rat", "var", "exp", "piecewise",
                                              "gt", "open", "point", "root", "inf", "-inf", "z"]),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                               st.sampled_from(["var", "pieces", "region", "steps", "end", "rule", "at",
                                                "after", "take", "facts", "of", "sign", "by"]), inner, max_size=4),
                           max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=json_values, proof=json_values)
def test_random_json_never_escapes_as_an_exception(expr, proof):
    verdict = check({"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": []}},
                     "proof": proof})
    assert verdict.reason or verdict.accepted


# ------------------------------------------------------------ generated edits

def _paths(tree, prefix=()):
    """Paths of every expression node (a list whose head is a string) in a JSON tree."""
    if isinstance(tree, list) and tree and isinstance(tree[0], str):
        yield list(prefix)
        for i, sub in enumerate(tree[1:], 1):
            if tree[0] == "piecewise":
                for j in (0, 1):
                    if j == 0:
                        yield from _paths(sub[0], prefix + (i, 0))
            else:
                yield from _paths(sub, prefix + (i,))


STEP_CERTS = [tanh_odd_by_exp, relu_scaling_positive, abs_cut_at_root2, log_split_on_domain, double_angle,
              sqrt_abs_member, log_periodic_argument]


@settings(max_examples=120, deadline=None)
@given(which=st.sampled_from(STEP_CERTS), data=st.data(), k=st.integers(1, 300))
def test_a_tiny_term_added_inside_any_step_is_rejected(which, data, k):
    cert = which()
    leaves = [p for p in _leaves(cert["proof"]) if p.get("steps")]
    piece = data.draw(st.sampled_from(leaves))
    i = data.draw(st.integers(0, len(piece["steps"]) - 1))
    after = piece["steps"][i]["after"]
    path = data.draw(st.sampled_from(list(_paths(after))))
    piece["steps"][i]["after"] = put(after, path, add(at(after, path), ["rat", 1, 10 ** k]))
    rejected(cert, "steps[")


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from([relu_scaling_positive, abs_cut_at_root2]), data=st.data(),
       num=st.integers(-10 ** 6, 10 ** 6), den=st.integers(2, 10 ** 6))
def test_any_cut_point_moved_to_a_rational_is_rejected(which, data, num, den):
    from fractions import Fraction
    cert = which()
    pieces = cert["proof"]["pieces"]
    j = data.draw(st.sampled_from(range(1, len(pieces), 2)))
    x = Fraction(num, den)
    if x.denominator == 1:
        x += Fraction(1, 3)
    old = json.dumps(pieces[j]["region"][1])
    pieces[j]["region"] = ["point", ["rat", x.numerator, x.denominator]]
    assert json.dumps(pieces[j]["region"][1]) != old
    rejected(cert)


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(STEP_CERTS), data=st.data())
def test_any_step_dropped_is_rejected(which, data):
    cert = which()
    leaves = [p for p in _leaves(cert["proof"]) if p.get("steps")]
    piece = data.draw(st.sampled_from(leaves))
    del piece["steps"][data.draw(st.integers(0, len(piece["steps"]) - 1))]
    rejected(cert)


def _leaves(node):
    if "var" in node:
        for piece in node["pieces"]:
            if not piece.get("outside"):
                yield from _leaves(piece)
    else:
        yield node


def test_an_exact_value_end_at_an_algebraic_point_needs_an_exact_zero_of_the_polynomial():
    # at z = √2: 2·(z² − 2) is 0 there (not as a polynomial); z² − 2 + 10⁻¹⁰⁰ and z³ − 2 are not
    def at_root2(expr):
        return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": [["point", ROOT2]]}},
                "proof": {"steps": [], "end": "exact-value"}}
    assert check(at_root2(mul(I(2), G))).accepted
    rejected(at_root2(add(G, ["rat", 1, 10 ** 100])), "exact value")
    rejected(at_root2(add(["pow", Z, I(3)], I(-2))), "exact value")
    rejected(at_root2(add(G, ["exp", ["int", -3000]])), "exact value")  # not a polynomial: no exact test
    cert = at_root2(mul(I(2), G))
    cert["claim"]["vars"]["z"] = [["point", MINUS_ROOT2]]
    assert check(cert).accepted
    cert["claim"]["vars"]["z"] = [["point", ["rat", 1414213562373095, 10 ** 15]]]  # a close rational
    rejected(cert, "not exactly 0")
