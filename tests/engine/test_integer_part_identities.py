"""frac and Mod through their definitions by floor in the zero decision (issue 20, the new
functions): frac(u) = u − floor(u) and Mod(u, c) = u − c·floor(u/c) for every real u, the same
definitions the certificate's tree states, so ``floor(z) + frac(z)`` is proved to be z (it was
left inconclusive). A frac that does not cancel still breaks exchange, with a witness.
"""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck


def test_floor_plus_frac_is_the_identity():
    assert symcheck.check_exchange("floor(z) + frac(z)").verdict.value == "holds"


def test_mod_by_two_is_twice_frac_of_half():
    assert symcheck.check_exchange("z + Mod(z, 2) - 2*frac(z/2)").verdict.value == "holds"


@settings(max_examples=8, deadline=None)
@given(p=st.integers(-3, 3), q=st.integers(-3, 3).filter(bool), c=st.sampled_from(["2", "3", "1/2"]),
       cancels=st.booleans())
def test_an_integer_part_that_cancels_holds_and_one_that_does_not_breaks(p, q, c, cancels):
    # Mod(z, c)/c − frac(z/c) is 0 for every real z; Mod(z, c) alone jumps at the multiples of c
    extra = f"Mod(z, {c})/({c}) - frac(z/({c}))" if cancels else f"Mod(z, {c})"
    verdict = symcheck.check_exchange(f"{p}*z + ({q})*({extra})").verdict.value
    assert verdict == ("holds" if cancels else "broken")


def test_ceiling_is_minus_floor_of_minus():
    # ceiling u = −floor(−u) in the engine's identities and the kernel's rule ceil_floor
    assert symcheck.check_exchange("ceiling(z) + floor(-z)").verdict.value == "holds"
    assert symcheck.check_exchange("ceiling(z) + ceiling(-z)").verdict.value == "broken"  # 1 off the integers


@settings(max_examples=100, deadline=None)
@given(x=st.fractions(min_value=-50, max_value=50))
def test_the_kernel_rule_ceil_floor_is_an_identity(x):
    from symcheck.kernel.evaluate import exact
    from symcheck.kernel.rules import RULES, instantiate
    rule = RULES["ceil_floor"]
    point = ("rat", x.numerator, x.denominator)
    assert exact(instantiate(rule.lhs, {"x": point}), {}) == exact(instantiate(rule.rhs, {"x": point}), {}) \
        == math.ceil(x)
