"""``signs.nonsmooth_to_piecewise`` rebuilds a nonsmooth node (Abs, Max, Min) from its
rewritten arguments UNEVALUATED, so its branch is chosen later by a certified sign.

Rebuilt with SymPy's evaluation instead, ``Max(z, z + c)`` compares z with z + c by SymPy's
low-precision guess of the sign of c, and ``Abs(c·z)`` becomes ``Abs(c)·|z|`` then ``c·|z|`` on
that guess; for a tiny c SymPy signs wrongly (P = e^-30 − log(1 + e^-30) − e^-60/2 < 0, which
SymPy reads as positive) the value at a point comes out wrong. The tests take the value at a
rational point (``at_point``) and check its exact sign (``exact_sign``) against the true one.
"""
from __future__ import annotations

import sympy
from hypothesis import given, settings

from symcheck.exact.signs import at_point, exact_sign, nonsmooth_to_piecewise

from support.tiny_constants import P, tiny_constants

Z = sympy.Symbol("z", real=True)


def _max(c: sympy.Expr) -> sympy.Expr:
    return sympy.Max(Z, Z + c, evaluate=False)


def _min(c: sympy.Expr) -> sympy.Expr:
    return sympy.Min(Z, Z + c, evaluate=False)


def _abs(c: sympy.Expr) -> sympy.Expr:
    return sympy.Abs(sympy.Mul(c, Z, evaluate=False), evaluate=False)


def test_sympy_misreads_the_sign_of_p() -> None:
    assert P.sign == -1 and P.expr.is_positive is True  # the premise: SymPy's guess is wrong


def test_max_with_a_negative_tiny_offset_is_not_collapsed() -> None:
    """Max(z, z + P) is z for P < 0; SymPy's own evaluation gives z + P."""
    assert isinstance(nonsmooth_to_piecewise(_max(P.expr)), sympy.Piecewise)
    assert exact_sign(at_point(_max(P.expr), Z, 0)) == 0


def test_min_with_a_negative_tiny_offset_is_not_collapsed() -> None:
    assert exact_sign(at_point(_min(P.expr), Z, 0)) == -1


def test_abs_of_a_negative_tiny_multiple_is_positive() -> None:
    """|P·z| at z = 1 is −P > 0; SymPy's evaluation gives P·|z|, negative there."""
    assert exact_sign(at_point(_abs(P.expr), Z, 1)) == 1


@settings(max_examples=15, deadline=None)
@given(tiny_constants(max_digits=200))
def test_nonsmooth_values_at_a_point_have_the_true_sign(c) -> None:
    """For any tiny c of certified sign s: Max(0, c) has sign max(s, 0), Min(0, c) min(s, 0),
    |c·1| sign +1 — whatever SymPy guesses for c."""
    s = c.sign
    assert exact_sign(at_point(_max(c.expr), Z, 0)) == max(s, 0)
    assert exact_sign(at_point(_min(c.expr), Z, 0)) == min(s, 0)
    assert exact_sign(at_point(_abs(c.expr), Z, 1)) == 1
