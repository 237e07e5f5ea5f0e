"""The certificate emitter writes an atom's argument with a denominator of several terms as
N·D⁻¹ (N, D canonical, D's first coefficient 1, D proved non-zero on the piece) and turns an odd
or even function of such an argument around (issue 20: odd activations of rational arguments
such as asin(z/(1 + |z|)) were decided by the engine and refused by the kernel, so inconclusive).

Truth by hand: f odd and u(z) odd make f(u(z)) odd (α = −1 holds); f odd of an even u is even
and not odd where it is not 0 (broken); cos of an odd u is even ((−1, 1) in the group).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck

ODD_OF_ODD = ["asin(z/(1 + Abs(z)))", "atan(z/(1 + z**2))", "tanh(z/(2 + Abs(z)))", "sin(z**3/(1 + z**2))",
              "asinh(z/(1 + Abs(z)))", "erf(z/(1 + z**2 + Abs(z)))"]


@pytest.mark.parametrize("text", ODD_OF_ODD)
def test_an_odd_function_of_an_odd_fraction_is_odd(text):
    assert symcheck.check_inverse_scaling(text, alpha=-1).verdict.value == "holds"


def test_cos_of_an_odd_fraction_has_the_reflection():
    group = symcheck.symmetry_group("cos(z/(1 + Abs(z)))")
    assert group.contains(-1, 1) is True and group.complete


@settings(max_examples=8, deadline=None)
@given(f=st.sampled_from(["sin", "tanh", "atan", "asinh", "erf"]), k=st.integers(0, 2), c=st.integers(1, 4),
       absolute=st.booleans(), odd=st.booleans())
def test_generated_fractions(f, k, c, absolute, odd):
    numerator = f"z**{2 * k + 1}" if odd else f"z**{2 * k + 2}"
    text = f"{f}({numerator}/({c} + {'Abs(z)' if absolute else 'z**2'}))"
    assert symcheck.check_inverse_scaling(text, alpha=-1).verdict.value == ("holds" if odd else "broken")
