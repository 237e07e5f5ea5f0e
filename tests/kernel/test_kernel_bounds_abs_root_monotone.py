"""Three places where the kernel's sign arguments read the wrong end of an interval.

- ``bounds._abs`` over an interval holding both signs, [lo, hi] with lo < 0 < hi: |x| ≤ max(−lo, hi).
  Read from one end only (max(−hi, hi)), |atan(z) − 1| over R, whose values run up to 1 + π/2,
  would be bounded by 1 − … ≈ 0.57, and 1 − |atan(z) − 1| > 0 (false: at z = −10 it is −1.47…)
  accepted. Even powers go through the same bound.
- ``bounds._root``: x^(p/q) is increasing, so both ends of the image come from both ends of x.
- ``signs._monotone``: a decreasing g on (α, β) is above g(β) and below g(α); read at the wrong
  end, 1 − z on (0, 2) (g(0) = 1, g(2) = −1) would be "positive".

Each false claim is refused and each true one accepted; the truth is checked with mpmath.
"""
from __future__ import annotations

import math

import mpmath
import pytest

from symcheck.kernel.bounds import extended
from symcheck.kernel.evaluate import precision
from symcheck.kernel.points import parse_point
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

from support.kernel_certificates import I, Z, add, neg

ATAN_MINUS_1 = add(["atan", Z], I(-1))           # over R: (−1 − π/2, π/2 − 1), both signs


def _box(lo, hi):
    return {"z": ("open", parse_point(lo) if lo != "-inf" else "-inf", parse_point(hi) if hi != "inf" else "inf")}


R = ("-inf", "inf")


def test_abs_of_a_mixed_interval_is_bounded_by_its_larger_end():
    with precision(64):
        lo, hi = extended(parse_expr(["abs", ATAN_MINUS_1]), _box(*R))
    assert lo == 0
    assert hi >= 1 + math.pi / 2 - 1e-12       # the supremum, approached as z → −∞
    assert hi < 3


@pytest.mark.parametrize("inner", [["abs", ATAN_MINUS_1], ["pow", ATAN_MINUS_1, I(2)]], ids=["abs", "square"])
def test_a_false_positivity_under_abs_is_refused(inner):
    g = add(I(1), neg(inner))
    mpmath.mp.dps = 30
    assert 1 - abs(mpmath.atan(-10) - 1) < 0     # the claim is false
    with pytest.raises(Reject):
        prove_sign(parse_expr(g), "pos", _box(*R), "bounds")


@pytest.mark.parametrize("inner, bound", [(["abs", ATAN_MINUS_1], 3), (["pow", ATAN_MINUS_1, I(2)], 7)],
                         ids=["abs", "square"])
def test_a_true_positivity_under_abs_is_accepted(inner, bound):
    # |atan z − 1| < 1 + π/2 < 3 and its square < 6.62 < 7
    assert prove_sign(parse_expr(add(I(bound), neg(inner))), "pos", _box(*R), "bounds") == "bounds"


def test_a_root_is_enclosed_from_both_ends():
    base = add(["atan", Z], I(2))                 # over R: (2 − π/2, 2 + π/2), positive
    with precision(64):
        lo, hi = extended(parse_expr(["pow", base, ["rat", 1, 2]]), _box(*R))
    assert abs(float(lo.mid()) - math.sqrt(2 - math.pi / 2)) < 1e-9
    assert abs(float(hi.mid()) - math.sqrt(2 + math.pi / 2)) < 1e-9
    # √(2 − π/2) = 0.655… > 1/2: positive; > 7/10 is false (the infimum is below it)
    assert prove_sign(parse_expr(add(["pow", base, ["rat", 1, 2]], ["rat", -1, 2])), "pos", _box(*R),
                      "bounds") == "bounds"
    with pytest.raises(Reject):
        prove_sign(parse_expr(add(["pow", base, ["rat", 1, 2]], ["rat", -7, 10])), "pos", _box(*R), "bounds")


def test_a_decreasing_function_is_signed_at_the_right_end():
    falling = add(I(1), neg(Z))                   # 1 − z on (0, 2): from 1 down to −1
    for claim in ("pos", "neg"):
        with pytest.raises(Reject):
            prove_sign(parse_expr(falling), claim, _box(I(0), I(2)), "monotone")
    # 2 − z on (0, 2) is > 0 (tends to 0 at 2), −z on (0, 2) is < 0 (tends to 0 at 0)
    assert prove_sign(parse_expr(add(I(2), neg(Z))), "pos", _box(I(0), I(2)), "monotone") == "monotone"
    assert prove_sign(parse_expr(neg(Z)), "neg", _box(I(0), I(2)), "monotone") == "monotone"
    # and increasing ones likewise: z − 1 on (0, 2) has both signs, z on (0, 2) is positive
    for claim in ("pos", "neg"):
        with pytest.raises(Reject):
            prove_sign(parse_expr(add(Z, I(-1))), claim, _box(I(0), I(2)), "monotone")
    assert prove_sign(parse_expr(Z), "pos", _box(I(0), I(2)), "monotone") == "monotone"
    assert prove_sign(parse_expr(add(Z, I(-2))), "neg", _box(I(0), I(2)), "monotone") == "monotone"
