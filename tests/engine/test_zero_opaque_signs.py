"""``zero._opaque``: a constant made opaque keeps its CERTIFIED sign (positive symbol for +1,
negative for −1), never the opposite one.

The sign is what SymPy's rewrites use afterwards: with c < 0, |c·x| − c·|x| = −2c·|x| is not 0,
but if c became a *positive* symbol k, SymPy would rewrite |k·x| to k·|x| and "prove" it 0 — a
false `holds`. That is the slip of swapping the ``sign == 1`` test (a negative constant then gets
a positive symbol). The expressions are built unevaluated, as the parser builds them, so SymPy
does not decide |c·x| itself before the engine sees it. Constants: q − π with rational q (sign
exact from 3 < π < 4) and the tiny P = e^-30 − log(1 + e^-30) − e^-60/2 < 0, which SymPy's own
assumptions do not read as negative.
"""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S

from symcheck.core.budget import Budget
from symcheck.engine.zero import opaque_constants, prove_identically_zero
from symcheck.exact.regions import Region

from support.tiny_constants import P

X = sympy.Symbol("x", real=True)
R = Region(-S.Infinity, S.Infinity)

#: q − π is negative for q ≤ 3 and positive for q ≥ 4, exactly
#: (q = 0 is left out: −π is plain, a product, and is not made opaque)
NEGATIVE_Q = st.fractions(min_value=-20, max_value=3, max_denominator=50).filter(lambda q: q != 0)
POSITIVE_Q = st.fractions(min_value=4, max_value=20, max_denominator=50)


def _q_minus_pi(q) -> sympy.Expr:
    return sympy.Rational(q.numerator, q.denominator) - S.Pi


def _abs_residual(c: sympy.Expr, sign: int) -> sympy.Expr:
    """|c·x| − sign·c·|x|, unevaluated: ≡ 0 exactly when sign is the sign of c."""
    with sympy.evaluate(False):
        term = c * sympy.Abs(X)
        return sympy.Abs(c * X) + (-term if sign == 1 else term)


def _opaque_symbol(c: sympy.Expr) -> sympy.Expr:
    made, _ = opaque_constants(c * X)
    (symbol,) = made.free_symbols - {X}
    return symbol


def test_the_tiny_negative_constant_is_certified_negative_and_sympy_does_not_know() -> None:
    assert P.sign == -1 and P.expr.is_negative is not True
    symbol = _opaque_symbol(P.expr)
    assert symbol.is_negative is True and symbol.is_positive is False


def test_a_negative_tiny_constant_gives_no_false_proof() -> None:
    assert prove_identically_zero(_abs_residual(P.expr, 1), X, R, Budget(60)) is None
    assert prove_identically_zero(_abs_residual(P.expr, -1), X, R, Budget(60)) is not None


@settings(max_examples=20, deadline=None)
@given(NEGATIVE_Q)
def test_a_negative_constant_becomes_a_negative_symbol(q) -> None:
    symbol = _opaque_symbol(_q_minus_pi(q))
    assert symbol.is_negative is True and symbol.is_positive is False


@settings(max_examples=20, deadline=None)
@given(POSITIVE_Q)
def test_a_positive_constant_becomes_a_positive_symbol(q) -> None:
    symbol = _opaque_symbol(_q_minus_pi(q))
    assert symbol.is_positive is True and symbol.is_negative is False


@settings(max_examples=20, deadline=None)
@given(NEGATIVE_Q)
def test_abs_of_a_negative_constant_times_x_is_not_proved_the_wrong_way(q) -> None:
    """|c·x| − c·|x| = −2c·|x| ≠ 0 for c < 0: no proof; |c·x| + c·|x| ≡ 0: proved."""
    c = _q_minus_pi(q)
    assert prove_identically_zero(_abs_residual(c, 1), X, R, Budget(60)) is None
    assert prove_identically_zero(_abs_residual(c, -1), X, R, Budget(60)) is not None


@settings(max_examples=20, deadline=None)
@given(POSITIVE_Q)
def test_abs_of_a_positive_constant_times_x_is_proved(q) -> None:
    c = _q_minus_pi(q)
    assert prove_identically_zero(_abs_residual(c, 1), X, R, Budget(60)) is not None
    assert prove_identically_zero(_abs_residual(c, -1), X, R, Budget(60)) is None
