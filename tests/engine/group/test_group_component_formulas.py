"""The c formula a group component states must be the c its generators give, at every a it lists.

``Component.c`` is what the report prints, what ``to_dict`` exports and what the formulations
read; membership goes through ``c_at`` (the generators base_c, unit_c), so a slip in the printed
formula is not caught by ``contains``. For a discrete component ±base^j the formula is
c = base_c^j for a > 0 and unit_c·base_c^j for a < 0.
"""
from __future__ import annotations

from functools import cache

import pytest
import sympy
from sympy import S

from symcheck.engine.group.assemble import _finite_groups, symmetry_group
from symcheck.engine.group.results import ASetKind, J, SymmetryGroup
from symcheck.language.symbols import A

P = "cos(2*pi*log(Abs(z))/log(2))"
#: even and log-periodic: (√2, −√2) and (−1, 1) generate G, so c = (−√2)^j on a = ±√2^j
EVEN = f"Piecewise((Abs(z)*{P}, Ne(z, 0)), (0, True))"
#: odd and log-periodic: (√2, −√2) and (−1, −1), so c = (−1)^j·a
ODD = f"Piecewise((z*{P}, Ne(z, 0)), (0, True))"


@cache
def group(spec: str) -> SymmetryGroup:
    return symmetry_group(spec, timeout=60)


def _formula_at(c: sympy.Expr, a: sympy.Expr, j: int) -> sympy.Expr:
    return sympy.piecewise_fold(c.subs({A: a, J: j}))


@pytest.mark.parametrize("spec", [EVEN, ODD])
def test_a_discrete_component_states_the_c_of_its_generators_on_both_signs(spec: str) -> None:
    g = group(spec)
    assert g.complete, g.note
    discrete = [comp for comp in g.components if comp.aset.kind is ASetKind.DISCRETE]
    assert len(discrete) == 1 and discrete[0].aset.negatives
    comp = discrete[0]
    for j in range(-3, 4):
        for sign in (1, -1):
            a = sign * comp.aset.base**j
            expected = comp.c_at(a)
            assert expected is not None, a
            stated = _formula_at(comp.c, a, j)
            assert sympy.expand(stated - expected) == 0, (a, j, comp.c, stated, expected)


def test_the_even_group_states_c_2_at_a_minus_2() -> None:
    """(−2, 2) is a member of the even σ (σ(−2z) = σ(2z) = 2σ(z)); the printed formula must say c = 2
    at a = −2 = −√2², and c = −√2 at a = −√2 (not the unit c = 1 alone)."""
    g = group(EVEN)
    comp = next(comp for comp in g.components if comp.aset.kind is ASetKind.DISCRETE)
    assert g.contains(-2, 2) is True
    assert _formula_at(comp.c, S(-2), 2) == 2
    assert sympy.expand(_formula_at(comp.c, -sympy.sqrt(2), 1) + sympy.sqrt(2)) == 0


def test_finite_pairs_with_c_equal_to_a_are_grouped_apart_from_the_others() -> None:
    """_finite_groups: the pairs with c = a share the formula c = a; the rest are listed one by one
    (a pair with c = a is never put among the rest, a pair with c ≠ a never under c = a)."""
    one, two, minus = (S.One, S.One, None), (S(2), S(2), None), (-S.One, S.One, None)
    groups = _finite_groups([one, two, minus])
    assert groups == [(A, [one, two]), (None, [minus])]
    assert _finite_groups([one, minus]) == [(S.One, [one, minus])]  # one constant c
    assert _finite_groups([one, (-S.One, -S.One, None)]) == [(A, [one, (-S.One, -S.One, None)])]


def test_a_bound_with_sign_and_kind_swapped_is_refused() -> None:
    """Bound(sign, kind): the two positional fields swapped (or a sign other than ±1) is a TypeError,
    never a bound whose kind nothing reads."""
    from symcheck.engine.group.facts import Bound, BoundKind
    assert Bound(-1, BoundKind.POINTS).kind is BoundKind.POINTS
    for sign, kind in ((BoundKind.POINTS, -1), (0, BoundKind.OPEN), (2, BoundKind.EMPTY)):
        with pytest.raises(TypeError):
            Bound(sign, kind)
