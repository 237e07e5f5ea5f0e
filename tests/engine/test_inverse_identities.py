"""One function written in two closed forms (issue 20, "identities left inconclusive"):
atanh(tanh u) = u, acosh(cosh u) = |u| and the Gudermannian atan(sinh u) = asin(tanh u), each
for every real u, in the engine's table of identities (also at a number: σ(1) = 2·atanh(tanh ½)
is 1) and in the kernel's table of rules, so the proofs pass the kernel.
"""
from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck
from symcheck.kernel.rules import RULES


@pytest.mark.parametrize("text, alpha", [
    ("2*atanh(tanh(z/2))", None),                  # σ = z
    ("z + atan(sinh(z)) - asin(tanh(z))", None),   # σ = z
    ("acosh(cosh(z))", "positive"),                # σ = |z|
    ("atan(sinh(z))", -1),                         # odd
])
def test_the_identity_is_proved_and_the_kernel_accepts_it(text, alpha):
    result = symcheck.check_exchange(text) if alpha is None else symcheck.check_inverse_scaling(text, alpha=alpha)
    assert result.verdict.value == "holds", result.note


@pytest.mark.parametrize("text", ["atanh(tanh(z)) + z**2", "acosh(cosh(z)) + z", "atan(sinh(z)) - asin(tanh(z/2))"])
def test_near_identities_are_still_broken(text):
    assert symcheck.check_exchange(text).verdict.value == "broken"


_MPMATH = {"atanh": mpmath.atanh, "tanh": mpmath.tanh, "acosh": mpmath.acosh, "cosh": mpmath.cosh,
           "atan": mpmath.atan, "sinh": mpmath.sinh, "asin": mpmath.asin, "abs": abs}


def _value(node, x):
    if node == "x":
        return x
    return _MPMATH[node[0]](_value(node[1], x))


@settings(max_examples=50, deadline=None)
@given(x=st.fractions(min_value=-30, max_value=30), name=st.sampled_from(["atanh_tanh", "acosh_cosh", "atan_sinh"]))
def test_the_new_kernel_rules_are_identities(x, name):
    rule = RULES[name]
    with mpmath.workdps(90):  # atanh near ±1 loses about 26 digits at |x| = 30
        value = mpmath.mpf(x.numerator) / x.denominator
        left, right = _value(rule.lhs, value), _value(rule.rhs, value)
        assert abs(left - right) <= mpmath.mpf(10) ** -40 * (1 + abs(right)), (name, x)
