"""The kernel looks at every part of a node, the first one included (docs/certificates.md).

Three walks over a node's arguments, each of which must start at the first argument:
- a branch condition ``and`` (wanted true) or ``or`` (wanted false) holds only when every part
  does, so a false first part must reject the branch;
- a ring rewrite must prove every inverted base non-zero on the piece, also the base of a
  negative power that is the first factor of a product;
- a rule is usable right to left only when its right side binds every variable of its left
  side, also one that sits in the first argument of a pattern.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import check
from symcheck.kernel.normal import inverted_bases
from symcheck.kernel.rules import RULES, pattern_vars

from support.kernel_certificates import SCHEMA, Chain, I, Z, add, leaf, mul, neg, pw

POSITIVE = [["open", I(0), "inf"]]  # z > 0


def zero_claim(expr, chain, vars_):
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": vars_}, "proof": leaf(chain)}


# ------------------------------------------------------------ and / or: every part, the first included

def _true_on_positive(k: int):
    """A relation true at every z > 0 (z > −k)."""
    return ["gt", Z, I(-k)]


FALSE_ON_POSITIVE = ["lt", Z, I(0)]  # z < 0: false at every z > 0


def _and_branch_cert(parts):
    """piecewise(0 if and(parts), 1 otherwise), claimed zero on z > 0 by taking the first branch."""
    expr = pw([I(0), ["and", *parts]], [I(1), ["true"]])
    return zero_claim(expr, Chain(expr).branch([], 0), {"z": POSITIVE})


def _or_branch_cert(parts):
    """piecewise(1 if or(parts), 0 otherwise), claimed zero on z > 0 by taking the second branch
    (which needs the or false: every part false)."""
    expr = pw([I(1), ["or", *parts]], [I(0), ["true"]])
    return zero_claim(expr, Chain(expr).branch([], 1), {"z": POSITIVE})


def test_an_and_whose_first_part_is_false_does_not_take_its_branch():
    # on z > 0 the expression is 1 (z < 0 fails), so "zero" is false
    verdict = check(_and_branch_cert([FALSE_ON_POSITIVE, _true_on_positive(1)]))
    assert not verdict.accepted
    assert "condition[0]" in verdict.where, verdict


def test_an_or_whose_first_part_is_true_is_not_false():
    # on z > 0 the or holds through z > 0, so the expression is 1 there, not 0
    verdict = check(_or_branch_cert([["gt", Z, I(0)], ["lt", Z, I(-5)]]))
    assert not verdict.accepted
    assert "condition[0]" in verdict.where, verdict


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.data())
def test_one_false_part_anywhere_rejects_an_and_branch(ks, data):
    """A false part at any position, among parts true on the piece: rejected; without it: accepted."""
    trues = [_true_on_positive(k) for k in ks]
    assert check(_and_branch_cert(trues if len(trues) > 1 else trues * 2)).accepted
    i = data.draw(st.integers(0, len(trues)), label="position of the false part")
    verdict = check(_and_branch_cert([*trues[:i], FALSE_ON_POSITIVE, *trues[i:]]))
    assert not verdict.accepted, f"the false part at {i} was skipped"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_one_true_part_anywhere_keeps_an_or_from_being_false(ks, data):
    falses = [["lt", Z, I(-k)] for k in ks]  # z < −k: false at every z > 0
    assert check(_or_branch_cert(falses if len(falses) > 1 else falses * 2)).accepted
    i = data.draw(st.integers(0, len(falses)), label="position of the true part")
    verdict = check(_or_branch_cert([*falses[:i], ["gt", Z, I(0)], *falses[i:]]))
    assert not verdict.accepted, f"the true part at {i} was skipped"


# ------------------------------------------------------------ ring: a first-factor inverse is still inverted

def test_inverted_bases_sees_the_first_argument():
    x = ("var", "x")
    inv = ("pow", x, ("int", -1))
    assert inverted_bases(("mul", inv, x)) == {x}
    assert inverted_bases(("add", inv, ("int", 1))) == {x}


def test_a_ring_step_may_not_cancel_a_leading_inverse_across_zero():
    # z⁻¹·z is undefined at z = 0; the ring step to 1 needs z ≠ 0 on the piece
    def cert(vars_):
        expr = add(["erf", mul(["pow", Z, I(-1)], Z)], neg(["erf", I(1)]))
        return zero_claim(expr, Chain(expr).step("ring", [1, 1], I(1)), vars_)

    verdict = check(cert({"z": []}))
    assert not verdict.accepted
    assert "polynomials only" in verdict.reason, verdict
    assert check(cert({"z": POSITIVE})).accepted  # where z ≠ 0 is proved, the same step is fine


# ------------------------------------------------------------ rules: variables in a first argument count

def _leaves(pattern) -> set:
    if isinstance(pattern, str):
        return {pattern}
    if pattern[0] in ("int", "rat", "var", "const"):
        return set()
    return set().union(*(_leaves(p) for p in pattern[1:]))


def test_pattern_vars_are_all_the_pattern_variables_of_each_rule():
    for rule in RULES.values():
        for side in (rule.lhs, rule.rhs):
            assert pattern_vars(side) == _leaves(side), (rule.name, side)
    assert pattern_vars(("pow", "x", "y")) == {"x", "y"}
    assert pattern_vars(("sin", "x")) == {"x"}


def test_rules_that_would_invent_a_variable_are_refused_right_to_left():
    # 1 → sin(x)² + cos(x)², 0 → sin(n·π): the left side has a variable the right side cannot bind
    for name, before in (("sin_cos_square", I(1)), ("sin_pi", I(0))):
        expr = add(["erf", before], neg(["erf", before]))
        after = ["sin", ["mul", I(1), ["const", "pi"]]] if name == "sin_pi" else \
            ["add", ["pow", ["sin", Z], I(2)], ["pow", ["cos", Z], I(2)]]
        chain = Chain(expr).step(name, [1, 1], after, dir="rl")
        verdict = check(zero_claim(expr, chain, {"z": []}))
        assert not verdict.accepted
        assert "cannot be used right to left" in verdict.reason, verdict


def test_pow_exp_is_usable_right_to_left():
    # exp(y·log x) → x^y, right to left (x = z > 0): the left side pow(x, y) has x in its first argument,
    # and the right side exp(mul(y, log(x))) binds both x and y
    y, x = ["rat", 1, 2], Z
    before = ["exp", mul(y, ["log", x])]
    expr = add(before, neg(["pow", x, y]))
    chain = Chain(expr).step("pow_exp", [1], ["pow", x, y], dir="rl")
    assert check(zero_claim(expr, chain, {"z": POSITIVE})).accepted
