"""The Cauchy root bound of the radical zero proof (``zero_proof.radical_zero``) uses every
coefficient of P above the lowest non-zero one.

P = x^k·Q, Q(0) ≠ 0, is built by resultants, so its roots are the value's formal conjugates: each
radical replaced by every root of its defining polynomial. A nested radical that denests,
S = √((p + q√m)²) = p + q√m, has the conjugate −(p + q√m) too, and the value
v = δ·(S + p + q√m) / (2(p + q√m)) is exactly δ ≠ 0 while its conjugates on that branch are 0:
P = x²·(x − δ)(x − δ̄)·const, δ̄ the conjugate of δ over Q(√m). The bound
|Q(0)| / (|Q(0)| + max_{i ≥ 1} |q_i|) sits below |δ| only through the linear coefficient
−(δ + δ̄), which is large when δ is small and δ̄ is not: leave it out and the bound is
|δδ̄| / (|δδ̄| + 1), above δ = √2 − 1, and a non-zero number is "proved" 0.
"""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.exact.zero_proof import _annihilating_polynomial, proved_zero, radical_zero


def _tiny_with_zero_conjugates(m: int, p: int, q: int, a: int, n: int) -> tuple[sympy.Expr, sympy.Expr]:
    """(v, δ): v is exactly δ = (√m − a)^n, written with S = √((p + q√m)²) undenested."""
    r = sympy.sqrt(m)
    s_plus = p + q * r
    S = sympy.sqrt(sympy.expand(s_plus ** 2))
    delta = (r - a) ** n
    v = delta * (S + s_plus) / (2 * s_plus)
    assert S.is_Pow and S.exp == sympy.S.Half  # SymPy kept the nested root: the prover sees a radical
    # exact: p + q√m > 0, so the principal root S is p + q√m and v = δ; δ ≠ 0 as √m is irrational
    assert sympy.expand(s_plus ** 2 - S.base) == 0 and s_plus.is_positive
    assert sympy.expand(v.xreplace({S: s_plus}) - delta) == 0 and delta != 0
    return v, delta


def test_sqrt2_minus_1_with_vanishing_conjugates_is_not_proved_zero() -> None:
    """v = (√2 − 1)·(√(3 + 2√2) + 1 + √2)/(2 + 2√2) = √2 − 1: P ∝ x²(x² + 2x − 1), whose bound is
    1/(1 + 2) = 1/3 < √2 − 1; without the coefficient 2 it would be 1/2 > √2 − 1."""
    v, delta = _tiny_with_zero_conjugates(2, 1, 1, 1, 1)
    coefficients, _ = _annihilating_polynomial(v)
    lowest = coefficients[2]
    assert coefficients[:2] == [0, 0] and [c / lowest for c in coefficients[2:]] == [1, -2, -1]
    assert not radical_zero(v)
    assert not proved_zero(v)
    assert proved_zero(v - delta)  # the same number minus its value is 0, and is proved so


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from([(2, 1, 1, 1), (2, 3, 2, 1), (3, 2, 1, 2), (5, 1, 1, 2), (6, 5, 2, 2)]),
       n=st.integers(1, 3))
def test_a_small_number_whose_other_conjugates_vanish_is_never_proved_zero(case, n: int) -> None:
    m, p, q, a = case
    v, _ = _tiny_with_zero_conjugates(m, p, q, a, n)
    assert not radical_zero(v), (m, p, q, a, n)
    assert not proved_zero(v), (m, p, q, a, n)
