"""A proposed root is kept as a cut point only when it is proved real and strictly inside the
interval (exact/roots.py, _proposal_inside): a number whose realness or place cannot be
certified is dropped, never kept (a non-real "root" inside a real interval is false whatever
the arithmetic)."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.exact.roots import _proposal_inside


@pytest.mark.parametrize(("c", "lower", "upper"), [
    (sympy.sqrt(-2), S.Zero, S(5)),           # i·√2
    (sympy.log(-2), S(-5), S(5)),             # log 2 + iπ
    (sympy.sqrt(-1 - sympy.exp(-3000)), S(-1), S(1)),
    (S(7), S.Zero, S(5)),                     # real, outside
    (sympy.pi, S.Zero, sympy.pi),             # an end is not strictly inside
])
def test_a_proposal_not_proved_real_and_inside_is_dropped(c: sympy.Expr, lower: sympy.Expr,
                                                          upper: sympy.Expr) -> None:
    assert _proposal_inside(c, lower, upper) is False


@pytest.mark.parametrize(("c", "lower", "upper"), [
    (S(3), S.Zero, S(5)), (sympy.sqrt(2), S.One, S(2)), (sympy.pi, S(3), sympy.Rational(22, 7)),
])
def test_a_real_proposal_strictly_inside_is_kept(c: sympy.Expr, lower: sympy.Expr, upper: sympy.Expr) -> None:
    assert _proposal_inside(c, lower, upper) is True
