"""The ``bounds`` argument over unbounded regions, at the two places where a slip gives a false sign.

Its monotone table (``bounds._INCREASING``) must hold only functions increasing on all of R:
a partial function there (asin, defined on [−1, 1] only) would be given limits at ±∞ it does
not have, and asin(b) over b < 0 would be enclosed in [0, 0]. And a piecewise is enclosed by
the hull of every branch it may take, from the first: the first branch skipped, a piecewise
whose first condition certainly holds is enclosed by the branches it never takes.
Every value here is exact (integers, arb points), and each case is checked against the value
of the expression at a point of the region.
"""
from __future__ import annotations

import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.bounds import bounds_sign, extended
from symcheck.kernel.check import region_from
from symcheck.kernel.evaluate import precision
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

B = ["var", "b"]
BELOW_0 = ["open", "-inf", ["int", 0]]
ABOVE_0 = ["open", ["int", 0], "inf"]
ABOVE_1 = ["open", ["int", 1], "inf"]
HALF, MINUS_HALF = ["rat", 1, 2], ["rat", -1, 2]


def _box(region):
    return {"b": region_from(region)}


# ---------------------------------------------------------------- functions not increasing on R

#: (function, region of b, a point of it, the sign of the function there): each point is where
#: the function is defined, so its sign is one bounds_sign must allow
SAMPLES = [
    ("asin", BELOW_0, MINUS_HALF, -1), ("asin", ABOVE_0, HALF, 1),
    ("acos", BELOW_0, MINUS_HALF, 1), ("acos", ABOVE_0, HALF, 1),
    ("atanh", BELOW_0, MINUS_HALF, -1), ("atanh", ABOVE_0, HALF, 1),
    ("acosh", ABOVE_0, ["int", 2], 1), ("acosh", ABOVE_0, ["int", 1], 0),
    ("tan", ABOVE_0, ["int", 2], -1), ("tan", BELOW_0, ["int", -2], 1),
    ("floor", BELOW_0, MINUS_HALF, -1), ("floor", ABOVE_0, HALF, 0),
    ("ceil", BELOW_0, MINUS_HALF, 0), ("ceil", ABOVE_0, HALF, 1),
    ("gamma", BELOW_0, MINUS_HALF, -1), ("gamma", ABOVE_0, HALF, 1),
    ("lgamma", ABOVE_0, ["int", 2], 0), ("lgamma", ABOVE_0, HALF, 1),
    ("lambertw", BELOW_0, ["rat", -1, 4], -1), ("lambertw", ABOVE_0, ["int", 1], 1),
]


@pytest.mark.parametrize("f, region, point, sign", SAMPLES, ids=lambda s: str(s))
def test_a_function_not_increasing_on_r_keeps_the_sign_it_takes(f, region, point, sign):
    assert sign in bounds_sign(parse_expr([f, B]), _box(region)), (f, region, point)


def test_asin_over_a_negative_half_line_is_not_proved_positive():
    """asin(b) + 1 is 1 − π/2 < 0 at b = −1: no argument may prove it positive on b < 0."""
    g = parse_expr(["add", ["asin", B], ["int", 1]])
    with pytest.raises(Reject):
        prove_sign(g, "pos", _box(BELOW_0), "bounds")
    with pytest.raises(Reject):
        prove_sign(parse_expr(["asin", B]), "nonneg", _box(BELOW_0), "bounds")


def test_the_increasing_functions_still_have_their_limits():
    """atan(b) on b < 0 is enclosed in [−π/2, 0] (the table's limit and atan(0)): non-positive."""
    assert prove_sign(parse_expr(["atan", B]), "nonpos", _box(BELOW_0), "bounds") == "bounds"
    assert prove_sign(parse_expr(["add", ["tanh", B], ["int", 1]]), "nonneg", _box(BELOW_0), "bounds") == "bounds"


# ---------------------------------------------------------------- piecewise: every branch from the first


def test_a_first_branch_that_certainly_applies_is_the_enclosure():
    """piecewise((b, b > 0), (−1, true)) on b > 1 is b: positive, never −1."""
    g = parse_expr(["piecewise", [B, ["gt", B, ["int", 0]]], [["int", -1], ["true"]]])
    assert bounds_sign(g, _box(ABOVE_1)) == frozenset({1})
    assert prove_sign(g, "pos", _box(ABOVE_1), "bounds") == "bounds"
    with pytest.raises(Reject):
        prove_sign(g, "neg", _box(ABOVE_1), "bounds")


def test_an_undecided_first_branch_is_in_the_hull():
    """piecewise((−1, b > 3), (1, true)) on b > 1 takes −1 (b = 4) and 1 (b = 2): no sign."""
    g = parse_expr(["piecewise", [["int", -1], ["gt", B, ["int", 3]]], [["int", 1], ["true"]]])
    assert bounds_sign(g, _box(ABOVE_1)) == frozenset({-1, 0, 1})
    with pytest.raises(Reject):
        prove_sign(g, "pos", _box(ABOVE_1), "bounds")


def _taken(values: list[int], thresholds: list[int], start: int) -> set[int]:
    """The values piecewise((v0, b > t0), …, (v_last, true)) takes on b ∈ (start, ∞): branch i is
    chosen on (max(start, t_i), min_{j<i} t_j], the last on (start, min_j t_j]."""
    out = set()
    for i, v in enumerate(values):
        low = max(start, thresholds[i]) if i < len(thresholds) else start
        high = min(thresholds[:i], default=None)
        if high is None or low < high:
            out.add(v)
    return out


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.integers(-3, 3), min_size=2, max_size=4), data=st.data(),
       start=st.integers(-3, 3))
def test_piecewise_enclosure_holds_every_value_taken(values, data, start):
    thresholds = data.draw(st.lists(st.integers(-5, 5), min_size=len(values) - 1, max_size=len(values) - 1))
    pairs = [[["int", v], ["gt", B, ["int", t]]] for v, t in zip(values, thresholds, strict=False)]
    pairs.append([["int", values[-1]], ["true"]])
    g = parse_expr(["piecewise", *pairs])
    box = _box(["open", ["int", start], "inf"])
    with precision(64):
        lo, hi = extended(g, box)
    for v in _taken(values, thresholds, start):
        assert lo.lower() <= arb(v) <= hi.upper(), (values, thresholds, start, v, lo, hi)
    signs = bounds_sign(g, box)
    assert {(v > 0) - (v < 0) for v in _taken(values, thresholds, start)} <= signs
