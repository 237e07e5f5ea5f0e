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


@pytest.mark.parametrize(("value", "sign"), [
    (S.One, 1), (-S.One, -1), ((1 + sympy.sqrt(2))**2 - 2 * sympy.sqrt(2) - 2, 1),  # expands to 1, not 0
    ((1 + sympy.sqrt(2))**2 - 2 * sympy.sqrt(2) - 3, 0),
])
def test_exact_sign_of_values_that_expand_to_a_small_integer(value: sympy.Expr, sign: int) -> None:
    assert exact_sign(value) == sign


@pytest.mark.parametrize(("other", "truth"), [(Z > -1, 1), (Z < 0, None)])
def test_an_ite_with_an_undecided_test_is_decided_only_when_both_branches_agree(other, truth) -> None:
    """ITE(c, z > 0, other) at z = 1 with c uncertifiable: when both branches are true the
    condition is true whatever c is; when they differ the choice stays open."""
    sigma = sympy.Piecewise((1, sympy.ITE(UNCERTIFIABLE * Z >= 0, Z > 0, other)), (0, True))
    value = at_point(sigma, Z, S.One)
    if truth is None:
        assert value.has(sympy.Piecewise)
    else:
        assert value == truth


@pytest.mark.parametrize(("z", "truth"), [(S(2), 0), (S.Half, 1), (-S.One, 0)])
def test_a_condition_of_a_kind_at_point_does_not_decide_is_never_taken_as_true(z, truth) -> None:
    """Xor is not decided branch by branch: the Piecewise stays open, or (were it decided) it
    must be the truth of Xor there; never the first branch taken by default."""
    sigma = sympy.Piecewise((1, sympy.Xor(Z > 0, Z > 1)), (0, True))
    value = at_point(sigma, Z, z)
    assert value == truth or value.has(sympy.Piecewise)


def test_a_root_that_cannot_be_separated_from_a_number_has_no_order() -> None:
    """∛2 and ∛2 + e^-2000 share every isolating interval down to width 10^-300."""
    root = sympy.CRootOf(sympy.Symbol("x")**3 - 2, 0)
    with pytest.raises(Undecided, match="cannot order"):
        certified_order(root, sympy.cbrt(2) + sympy.exp(-2000))
    with pytest.raises(Undecided, match="cannot order"):
        certified_order(sympy.cbrt(2) - sympy.exp(-2000), root)


class _Unstable(sympy.Abs):
    """A nonsmooth function whose Piecewise rewrite never settles."""

    def _eval_rewrite_as_Piecewise(self, arg, **kwargs):
        return _Unstable(arg + 1)


def test_a_rewrite_that_never_settles_is_refused() -> None:
    from symcheck.exact.signs import nonsmooth_to_piecewise
    with pytest.raises(Undecided, match="nested too deeply"):
        nonsmooth_to_piecewise(_Unstable(Z))


@pytest.mark.parametrize(("expr", "values", "expected"), [
    (sympy.Piecewise((1, Z > 0), (0, True)), {Z: A}, sympy.Piecewise((1, A > 0), (0, True))),
    (sympy.Max(Z, 0), {Z: 2 * A}, sympy.Max(2 * A, 0)),
    (sympy.Piecewise((1, (A > 0) & (B > 0)), (0, True)), {A: S.One, B: Z}, sympy.Piecewise((1, Z > 0), (0, True))),
])
def test_a_symbolic_value_is_substituted_and_its_branches_left_for_the_split(expr, values, expected) -> None:
    """Only numbers choose branches; a symbol (σ(a·z) before a case split) is substituted as is."""
    assert at_values(expr, values) == expected


@pytest.mark.parametrize(("a", "b", "value"), [(1, 1, 0), (-1, 1, 1), (1, -1, 1)])
def test_not_of_a_conjunction_is_the_opposite_choice(a, b, value) -> None:
    sigma = sympy.Piecewise((1, ~((A > 0) & (B > 0))), (0, True))
    assert at_values(sigma, {A: a, B: b}) == value


def test_not_of_an_undecided_conjunction_stays_undecided() -> None:
    """¬(a > 0 ∧ c·b >= 0) at a = b = 1, with c uncertifiable: the conjunction is unknown, and
    so is its negation; the choice stays open."""
    sigma = sympy.Piecewise((1, ~((A > 0) & (UNCERTIFIABLE * B >= 0))), (0, True))
    assert at_values(sigma, {A: 1, B: 1}).has(sympy.Piecewise)
