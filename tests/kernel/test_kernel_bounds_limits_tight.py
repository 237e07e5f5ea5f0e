"""The limits at ±∞ of the increasing functions in the bounds argument are their own, not merely
some bound: atan(b) + 8/5 > 0 on b < 0 needs atan's limit −π/2 > −8/5, and 8/5 − atan(b) > 0 on
b > 0 needs π/2 < 8/5; the same with 3/2 in place of 8/5 is false (π/2 > 3/2) and refused."""
from __future__ import annotations

import pytest

from symcheck.kernel.bounds import bounds_sign
from symcheck.kernel.check import region_from
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

B = ["var", "b"]
BELOW_0 = {"b": region_from(["open", "-inf", ["int", 0]])}
ABOVE_0 = {"b": region_from(["open", ["int", 0], "inf"])}


@pytest.mark.parametrize("f, lo, hi", [
    ("atan", ["rat", -8, 5], ["rat", 8, 5]),
    ("tanh", ["rat", -101, 100], ["rat", 101, 100]),
    ("erf", ["rat", -101, 100], ["rat", 101, 100]),
])
def test_each_limit_is_tight_enough_for_a_near_constant(f, lo, hi) -> None:
    above = parse_expr(["add", [f, B], ["mul", ["int", -1], lo]])      # f(b) − lo > 0 on b < 0
    below = parse_expr(["add", hi, ["mul", ["int", -1], [f, B]]])      # hi − f(b) > 0 on b > 0
    assert bounds_sign(above, BELOW_0) == frozenset({1})
    assert bounds_sign(below, ABOVE_0) == frozenset({1})
    assert prove_sign(above, "pos", BELOW_0, "bounds") == "bounds"
    assert prove_sign(below, "pos", ABOVE_0, "bounds") == "bounds"


def test_a_bound_inside_the_limit_is_refused() -> None:
    above = parse_expr(["add", ["atan", B], ["rat", 3, 2]])                   # atan(b) + 3/2: < 0 far left
    below = parse_expr(["add", ["rat", 3, 2], ["mul", ["int", -1], ["atan", B]]])  # 3/2 − atan(b): < 0 far right
    with pytest.raises(Reject):
        prove_sign(above, "pos", BELOW_0, "bounds")
    with pytest.raises(Reject):
        prove_sign(below, "pos", ABOVE_0, "bounds")
