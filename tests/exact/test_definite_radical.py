"""A sign over R through one square root (symcheck.exact.definite's ``_by_radical``):
g = (A + B·√P)/D has B's sign where B²P − A² > 0 and A's sign where A² − B²P > 0.

Needed for definedness of what people write with √(z² + c): log(z + √(z² + 1)) (asinh written
as a logarithm), acos(z/√(1 + z²)). Truth by hand beside each case; the Hypothesis property
checks every proof it gets at many points with mpmath, on generated g whose sign may go either
way (a swapped branch, a dropped denominator sign or a ≥ read as > would show there).
"""
from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S, sqrt

import symcheck
from symcheck.core.errors import DomainError
from symcheck.exact.definite import prove_sign
from symcheck.exact.ranges import Range

z = sympy.Symbol("z")
LINE = {z: Range(S.NegativeInfinity, S.Infinity)}


@pytest.mark.parametrize("expr, want", [
    (z + sqrt(z**2 + 1), "positive"),          # √(z² + 1) > |z|
    (z - sqrt(z**2 + 1), "negative"),
    (1 - z / sqrt(1 + z**2), "positive"),      # |z|/√(1 + z²) < 1
    (1 + z / sqrt(1 + z**2), "nonnegative"),
    (sqrt(z**2 + 4) - 2 * z / 3, "positive"),  # 4/9·z² < z² + 4
    ((z + sqrt(z**2 + 1)) / (2 + z**2), "positive"),
])
def test_signs_through_one_square_root_are_proved(expr, want):
    assert prove_sign(expr, LINE, want) is not None


@pytest.mark.parametrize("expr, want", [
    (z + sqrt(z**2 + 1), "negative"),
    (1 - 2 * z / sqrt(1 + z**2), "nonnegative"),  # −0.41 at z = 1
    (sqrt(z**2 + 1) - z - 1, "positive"),         # 0 at z = 0
    (sqrt(z**2 + 1) - 2 * z, "positive"),         # < 0 at z = 1
])
def test_false_signs_are_not_proved(expr, want):
    assert prove_sign(expr, LINE, want) is None


def test_activations_with_a_square_root_inside_are_accepted_and_decided():
    # refused before as "could not verify that … is defined for every real z"
    assert symcheck.check_exchange("acos(z/sqrt(1 + z**2))").verdict.value == "broken"  # σ(0) = π/2
    assert symcheck.check_exchange("log(z + sqrt(z**2 + 1))").verdict.value == "broken"  # asinh: not linear
    with pytest.raises(DomainError, match="z = -1"):  # 1 + 2/√2 > 1
        symcheck.activation("acos(1 - 2*z/sqrt(1 + z**2))")


_WANTS = {"positive": lambda v: v > 0, "negative": lambda v: v < 0,
          "nonnegative": lambda v: v >= -mpmath.mpf("1e-30"), "nonpositive": lambda v: v <= mpmath.mpf("1e-30")}


@settings(max_examples=80, deadline=None)
@given(a=st.lists(st.integers(-3, 3), min_size=1, max_size=3), b=st.integers(-3, 3),
       c=st.integers(1, 4), d=st.sampled_from(["1", "-1", "2", "cos(z) - 3", "-1 - z**2"]), inverse=st.booleans(),
       want=st.sampled_from(sorted(_WANTS)))
def test_every_proof_through_a_square_root_is_true_at_many_points(a, b, c, d, inverse, want):
    root = sqrt(z**2 + c) ** (-1 if inverse else 1)
    expr = (sum(k * z**i for i, k in enumerate(a)) + b * root) / sympy.sympify(d, locals={"z": z})
    proof = prove_sign(expr, LINE, want)
    if proof is None:
        return
    f = sympy.lambdify(z, expr, "mpmath")
    with mpmath.workdps(40):
        points = [mpmath.mpf(k) / 8 for k in range(-160, 161)] + [mpmath.mpf(10) ** k for k in range(2, 12)]
        points += [-p for p in points[-10:]]
        assert all(_WANTS[want](f(p)) for p in points), (expr, want, proof.argument)
