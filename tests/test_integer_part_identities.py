"""frac and Mod through their definitions by floor in the zero decision (issue 20, the new
functions): frac(u) = u − floor(u) and Mod(u, c) = u − c·floor(u/c) for every real u, the same
definitions the certificate's tree states, so ``floor(z) + frac(z)`` is proved to be z (it was
left inconclusive). A frac that does not cancel still breaks exchange, with a witness.
"""
from __future__ import annotations

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
