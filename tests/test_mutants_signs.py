"""Certified signs: 0 only with a proof, ±1 only with a certificate, otherwise Undecided;
and branches chosen at a point by exactly the relation written.
"""
from __future__ import annotations

import operator

import pytest
import sympy
from sympy import S

from symcheck.exact.signs import Undecided, at_point, at_values, certified_order, exact_sign
from symcheck.language.symbols import A, B, Z

#: negative, but no enclosure up to the certifier's precision separates it from 0
UNCERTIFIABLE = sympy.cos(sympy.exp(-5000)) - 1


@pytest.mark.parametrize(("value", "sign"), [
    (S.Zero, 0), (S(3) / 7, 1), (-S(3) / 7, -1),
    (sympy.sqrt(2) - S(14142) / 10000, 1), (S(14143) / 10000 - sympy.sqrt(2), 1),
    (sympy.exp(-2000), 1), (-sympy.log(1 + sympy.exp(-2000)), -1),
    (sympy.sin(1)**2 + sympy.cos(1)**2 - 1, 0),  # zero only after simplify
    (sympy.sin(1)**2 + sympy.cos(1)**2 - 1 + sympy.exp(-2000), 1),  # SymPy's is_zero is None
    (sympy.sin(1)**2 + sympy.cos(1)**2 - 1 - sympy.exp(-2000), -1),
    (sympy.pi - S(355) / 113, -1), (sympy.E - S(2718281828) / 10**9, 1),
])
def test_exact_sign(value: sympy.Expr, sign: int) -> None:
    assert exact_sign(value) == sign


@pytest.mark.parametrize("value", [UNCERTIFIABLE, -UNCERTIFIABLE, UNCERTIFIABLE * sympy.pi])
def test_an_uncertifiable_sign_is_undecided_never_zero(value: sympy.Expr) -> None:
    with pytest.raises(Undecided):
        exact_sign(value)


@pytest.mark.parametrize(("x", "y", "order"), [
    (S.One, S(2), -1), (S(2), S.One, 1), (S.One, S.One, 0),
    (sympy.sqrt(2), S(3) / 2, -1), (S(3) / 2, sympy.sqrt(2), 1), (sympy.sqrt(2), sympy.sqrt(2), 0),
    (-S.Infinity, S.Zero, -1), (S.Zero, S.Infinity, -1), (S.Infinity, S.Zero, 1), (S.Zero, -S.Infinity, 1),
    (sympy.CRootOf(Z**3 - 2, 0), S(126) / 100, -1), (S(126) / 100, sympy.CRootOf(Z**3 - 2, 0), 1),
    (sympy.CRootOf(Z**3 - Z - 1, 0), sympy.CRootOf(Z**3 - 2, 0), 1),
    (sympy.CRootOf(Z**2 - 2, 0), sympy.CRootOf(Z**2 - 2, 1), -1),
    (sympy.CRootOf(Z**2 - 2, 1), sympy.CRootOf(Z**2 - 2, 0), 1),
])
def test_certified_order(x: sympy.Expr, y: sympy.Expr, order: int) -> None:
    assert certified_order(x, y) == order


def test_an_uncertifiable_order_is_undecided() -> None:
    with pytest.raises(Undecided):
        certified_order(sympy.cos(sympy.exp(-5000)), S.One)


RELATIONS = {
    ">": sympy.StrictGreaterThan, ">=": sympy.GreaterThan, "<": sympy.StrictLessThan,
    "<=": sympy.LessThan, "==": sympy.Eq, "!=": sympy.Ne,
}
PYTHON = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
          "==": operator.eq, "!=": operator.ne}


@pytest.mark.parametrize("rel", list(RELATIONS))
@pytest.mark.parametrize(("z", "side"), [(S.Zero, 0), (-S.One, -1), (S.One, 1)])
def test_at_point_chooses_the_branch_the_relation_selects(rel: str, z: sympy.Expr, side: int) -> None:
    """The boundary point itself included; the condition is tiny but exact there."""
    tiny = sympy.log(1 + sympy.exp(-2000))
    sigma = sympy.Piecewise((7, RELATIONS[rel](tiny * Z, 0)), (11, True))
    assert at_point(sigma, Z, z) == (7 if PYTHON[rel](side, 0) else 11)


@pytest.mark.parametrize(("cond", "a", "b", "truth"), [
    ((A > 0) & (B > 0), 1, 1, True), ((A > 0) & (B > 0), 1, -1, False), ((A > 0) & (B > 0), -1, 1, False),
    ((A > 0) | (B > 0), -1, -1, False), ((A > 0) | (B > 0), -1, 1, True), ((A > 0) | (B > 0), 1, -1, True),
    (~(A > 0), 0, 0, True), (~(A >= 0), 0, 0, False),
])
def test_at_values_decides_and_or_not(cond, a, b, truth: bool) -> None:
    expr = sympy.Piecewise((1, cond), (0, True))
    assert at_values(expr, {A: a, B: b}) == (1 if truth else 0)


def test_at_point_leaves_an_uncertifiable_choice_open() -> None:
    sigma = sympy.Piecewise((1, UNCERTIFIABLE * Z >= 0), (0, True))
    value = at_point(sigma, Z, S.One)
    assert value not in (S.Zero, S.One)
    assert value.has(sympy.Piecewise)


@pytest.mark.parametrize(("expr", "z", "value"), [
    (sympy.Heaviside(Z), 0, S.Half), (sympy.Heaviside(Z, 0), 0, 0), (sympy.Heaviside(Z, 1), 0, 1),
    (sympy.Heaviside(Z), -2, 0), (sympy.Heaviside(Z), 2, 1),
    (sympy.sign(Z), 0, 0), (sympy.Abs(Z), -3, 3), (sympy.Max(Z, 0), -1, 0), (sympy.Min(Z, 0), -1, -1),
    (sympy.Max(Z, 1 - Z), S.Half, S.Half), (sympy.Min(Z, 2 * Z), 3, 3),
])
def test_at_point_of_the_nonsmooth_primitives(expr, z, value) -> None:
    assert at_point(expr, Z, z) == value


@pytest.mark.parametrize("root", [
    sympy.CRootOf(sympy.Symbol("x")**3 - 2, 1),                                   # complex
    sympy.CRootOf(sympy.Symbol("x")**5 - 5 * sympy.Symbol("x") + 1, 4),          # three real, then complex
])
def test_a_root_that_is_not_real_has_no_order(root) -> None:
    assert root.is_real is False
    with pytest.raises(Undecided, match="is not a real root"):
        certified_order(root, S.Zero)
    with pytest.raises(Undecided, match="is not a real root"):
        certified_order(S.One, root)


def test_an_undecided_branch_is_left_as_written_where_sympy_would_choose_one() -> None:
    """A branch is chosen only by a certified sign. Here the condition's left side is a square
    that Arb cannot separate from 0 (exp(ε) − 1 − ε with ε = e^-3000 cancels far below 8192
    bits), while SymPy's own evaluation decides it from the square's assumptions; the choice
    must stay open (the Piecewise as written), never SymPy's."""
    import sympy
    from symcheck.core.errors import Undecided
    from symcheck.exact.signs import at_point, exact_sign
    from symcheck.language.symbols import Z
    eps = sympy.exp(-3000)
    square = (sympy.exp(eps) - 1 - eps) ** 2
    with pytest.raises(Undecided):
        exact_sign(square)
    piecewise = sympy.Piecewise((1, square * Z >= 0), (0, True))
    with sympy.evaluate(True):
        assert piecewise.xreplace({Z: 1}) == 1  # what SymPy alone would pick
    kept = at_point(piecewise, Z, 1)
    assert isinstance(kept, sympy.Piecewise) and kept.args[0][1] != sympy.true
