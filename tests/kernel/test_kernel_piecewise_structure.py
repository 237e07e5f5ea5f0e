"""The ``structure`` argument on a piecewise: the possible signs are the union over EVERY branch
value, from the first (``signs.signs_of``).

The structure argument does not look at conditions, so it must allow the sign of each branch's
value; a union that starts at the second pair drops the first branch, which on a one-branch
piecewise leaves the EMPTY set, a subset of every claim: ``piecewise((−1, true))`` would be
proved positive. Every value here is an exact integer, and each refusal is checked against the
value the piecewise takes at a point of the region.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import region_from
from symcheck.kernel.signs import CLAIMS, prove_sign, signs_of
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

B = ["var", "b"]
TRUE = ["true"]
ABOVE_1 = ["open", ["int", 1], "inf"]


def _box(region=ABOVE_1):
    return {"b": region_from(region)}


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


@pytest.mark.parametrize("value", [-1, 0, 1])
def test_a_one_branch_piecewise_has_the_sign_of_its_value(value):
    g = parse_expr(["piecewise", [["int", value], TRUE]])
    assert signs_of(g, _box()) == frozenset({_sign(value)})
    for claim, allowed in CLAIMS.items():
        if _sign(value) in allowed:
            assert prove_sign(g, claim, _box(), "structure") == "structure"
        else:
            with pytest.raises(Reject):
                prove_sign(g, claim, _box(), "structure")


def test_a_negative_first_branch_that_applies_is_not_proved_positive():
    """piecewise((−1, b > 0), (1, true)) is −1 on all of b > 1: not positive, not nonneg."""
    g = parse_expr(["piecewise", [["int", -1], ["gt", B, ["int", 0]]], [["int", 1], TRUE]])
    assert -1 in signs_of(g, _box())
    for claim in ("pos", "nonneg", "zero"):
        with pytest.raises(Reject):
            prove_sign(g, claim, _box(), "structure")


def test_a_first_branch_with_a_variable_keeps_its_sign():
    """piecewise((−b, b > 0), (b, true)) on b > 1 is −b < 0; the structure sees {−1, 1}."""
    g = parse_expr(["piecewise", [["mul", ["int", -1], B], ["gt", B, ["int", 0]]], [B, TRUE]])
    assert signs_of(g, _box()) == frozenset({-1, 1})
    with pytest.raises(Reject):
        prove_sign(g, "pos", _box(), "structure")
    assert prove_sign(g, "nonzero", _box(), "structure") == "structure"


def _taken(values: list[int], conds: list[list]) -> set[int]:
    """The values the piecewise takes on b > 1: TRUE and b > 0 hold everywhere there, b < 5 on
    (1, 5) only; so the first branch is taken (at b = 2), and a later one exactly when every
    condition before it is b < 5 (it is then taken on [5, ∞))."""
    taken = {values[0]}
    for i in range(1, len(values)):
        if all(c[0] == "lt" for c in conds[:i]):
            taken.add(values[i])
    return taken


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(-3, 3), min_size=1, max_size=5), data=st.data())
def test_piecewise_signs_hold_every_value_taken(values, data):
    """The structure's set holds the sign of every value the piecewise takes on the region (the
    first branch's always), and no claim that one of those values breaks is proved by it."""
    conds = data.draw(st.lists(st.sampled_from([TRUE, ["gt", B, ["int", 0]], ["lt", B, ["int", 5]]]),
                               min_size=len(values), max_size=len(values)))
    g = parse_expr(["piecewise", *([["int", v], c] for v, c in zip(values, conds, strict=True))])
    taken = {_sign(v) for v in _taken(values, conds)}
    assert taken <= signs_of(g, _box())
    for claim, allowed in CLAIMS.items():
        if not taken <= allowed:
            with pytest.raises(Reject):
                prove_sign(g, claim, _box(), "structure")
