"""The ``bounds`` argument's truth of a piecewise condition over an unbounded region
(``bounds._truth``) reads every operand of ``and`` and ``or``.

A piecewise is enclosed by its branches from the first up to one whose condition certainly holds.
``and(b < 0, true)`` on b > 1 is certainly false; read without its first operand it would be
certainly true, the branch −1 the whole enclosure, and piecewise((−1, b < 0 ∧ true), (b, true)),
which is b > 1 on b > 1, would be "proved" negative. Each sign here is checked against the value
of the piecewise on the region, exactly.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.bounds import bounds_sign
from symcheck.kernel.check import region_from
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

B = ["var", "b"]
ABOVE_1 = {"b": region_from(["open", ["int", 1], "inf"])}
TRUE, FALSE = ["true"], ["false"]
NEGATIVE, POSITIVE = ["lt", B, ["int", 0]], ["gt", B, ["int", 0]]  # on b > 1: false, true


def _first_branch_minus_one(cond) -> tuple:
    """piecewise((−1, cond), (b, true)): −1 where cond holds, b > 1 elsewhere."""
    return parse_expr(["piecewise", [["int", -1], cond], [B, TRUE]])


@pytest.mark.parametrize("cond", [["and", NEGATIVE, TRUE], ["and", NEGATIVE, POSITIVE],
                                  ["and", NEGATIVE, TRUE, TRUE], ["or", NEGATIVE, FALSE]],
                         ids=["and(false,true)", "and(false,true')", "and(false,true,true)", "or(false,false)"])
def test_a_condition_false_by_its_first_operand_skips_its_branch(cond) -> None:
    """cond is false at every b > 1: the piecewise is b there, positive, never −1."""
    g = _first_branch_minus_one(cond)
    assert bounds_sign(g, ABOVE_1) == frozenset({1})
    assert prove_sign(g, "pos", ABOVE_1, "bounds") == "bounds"
    with pytest.raises(Reject):
        prove_sign(g, "neg", ABOVE_1, "bounds")


@pytest.mark.parametrize("cond", [["or", POSITIVE, FALSE], ["and", POSITIVE, TRUE]], ids=["or", "and"])
def test_a_condition_true_by_its_first_operand_takes_its_branch(cond) -> None:
    """cond holds at every b > 1: the piecewise is −1 there."""
    g = _first_branch_minus_one(cond)
    assert bounds_sign(g, ABOVE_1) == frozenset({-1})
    assert prove_sign(g, "neg", ABOVE_1, "bounds") == "bounds"


#: operands with their truth on b > 1 (None: b > 3 holds at b = 4, not at b = 2)
OPERANDS = [(NEGATIVE, False), (POSITIVE, True), (TRUE, True), (FALSE, False), (["gt", B, ["int", 3]], None)]


@settings(max_examples=60, deadline=None)
@given(head=st.sampled_from(["and", "or"]), picks=st.lists(st.sampled_from(OPERANDS), min_size=2, max_size=4))
def test_the_sign_of_a_guarded_branch_follows_every_operand(head: str, picks) -> None:
    """piecewise((−1, head(operands)), (b, true)) on b > 1 takes −1 where the condition holds and b > 1
    where it fails: the signs allowed must hold the sign of every value it takes."""
    truths = [t for _, t in picks]
    if head == "and":
        holds = {False} if False in truths else {True} if all(truths) else {True, False}
    else:
        holds = {True} if True in truths else {False} if not any(t is None for t in truths) else {True, False}
    g = _first_branch_minus_one([head, *(c for c, _ in picks)])
    taken = {-1 if h else 1 for h in holds}
    assert taken <= bounds_sign(g, ABOVE_1), (head, picks)
