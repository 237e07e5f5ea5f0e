"""Discrete components a = ±2^j whose ratio ε = base_c/base is not ±1.

σ = z^m·|z|^r·cos(π·log|z|/log 2) with m + r = 2 or 3: (2, −2^(m+r)) and (−1, (−1)^m) generate G,
so base_c = −4 or −8 and unit_c = ±1. Then

* the stated formula (assemble._discrete_c, its Piecewise branch) must give c = unit_c·base_c^j
  for a < 0 — with unit_c = −1 the factor is visible (c = −1 at a = −1);
* {α : (α, α) ∈ G} (results._discrete_alphas, |ε| ≠ 1): α = 1 always; α = −1 exactly when
  unit_c = −1 (target −1/unit_c = 1 = ε^0); with unit_c = 1 the target is −1 and no α < 0 fits,
  which must be decided (|target| = 1 = |ε|^0), not left open.
"""
from __future__ import annotations

from functools import cache

import pytest
import sympy
from sympy import S

from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.results import ASet, ASetKind, Component, J, SymmetryGroup, _discrete_alphas
from symcheck.language.symbols import A

P = "cos(pi*log(Abs(z))/log(2))"
ODD_SQUARE = f"Piecewise((z*Abs(z)*{P}, Ne(z, 0)), (0, True))"   # base_c = −4, unit_c = −1
ODD_CUBE = f"Piecewise((z**3*{P}, Ne(z, 0)), (0, True))"         # base_c = −8, unit_c = −1
EVEN_SQUARE = f"Piecewise((z**2*{P}, Ne(z, 0)), (0, True))"      # base_c = −4, unit_c = 1

GENERATORS = {ODD_SQUARE: (-4, -1), ODD_CUBE: (-8, -1), EVEN_SQUARE: (-4, 1)}


@cache
def group(spec: str) -> SymmetryGroup:
    return symmetry_group(spec, timeout=60)


def _discrete(spec: str) -> Component:
    g = group(spec)
    assert g.complete, g.note
    found = [comp for comp in g.components if comp.aset.kind is ASetKind.DISCRETE]
    assert len(found) == 1 and found[0].aset.negatives and found[0].aset.base == 2
    return found[0]


@pytest.mark.parametrize("spec", list(GENERATORS))
def test_the_generators_are_the_proved_ones(spec: str) -> None:
    comp = _discrete(spec)
    assert (comp.base_c, comp.unit_c) == GENERATORS[spec]


@pytest.mark.parametrize("spec", list(GENERATORS))
def test_the_stated_c_is_unit_c_times_base_c_to_the_j(spec: str) -> None:
    comp = _discrete(spec)
    base_c, unit_c = GENERATORS[spec]
    for j in range(-3, 4):
        for sign in (1, -1):
            a = sign * S(2) ** j
            want = (unit_c if sign == -1 else 1) * S(base_c) ** j
            assert comp.c_at(a) == want
            stated = sympy.piecewise_fold(comp.c.subs({A: a, J: j}))
            assert sympy.expand(stated - want) == 0, (spec, a, comp.c, stated)


def test_an_odd_group_states_c_minus_one_at_a_minus_one() -> None:
    g = group(ODD_SQUARE)
    comp = _discrete(ODD_SQUARE)
    assert g.contains(-1, -1) is True and g.contains(-1, 1) is False
    assert sympy.piecewise_fold(comp.c.subs({A: -1, J: 0})) == -1
    assert sympy.piecewise_fold(comp.c.subs({A: -2, J: 1})) == 4  # σ(−2z) = −σ(2z) = 4σ(z)


@pytest.mark.parametrize("spec, alphas", [(ODD_SQUARE, {-1, 1}), (ODD_CUBE, {-1, 1}), (EVEN_SQUARE, {1})])
def test_the_inverse_scaling_alphas_are_decided(spec: str, alphas: set) -> None:
    assert group(spec).inverse_scaling_alphas() == sympy.FiniteSet(*alphas)


@pytest.mark.parametrize("base_c, unit_c, alphas", [(-4, 1, {1}), (-4, -1, {-1, 1}), (8, 1, {1}), (8, -1, {-1, 1}),
                                                     (S(1) / 4, 1, {1}), (-S(1) / 8, -1, {-1, 1})])
def test_discrete_alphas_with_epsilon_off_plus_minus_one(base_c, unit_c, alphas: set) -> None:
    """The arithmetic alone, on the generators a true group can have (unit_c² = 1)."""
    comp = Component(ASet(ASetKind.DISCRETE, base=S(2), negatives=True), None, (),
                     base_c=S(base_c), unit_c=S(unit_c))
    assert _discrete_alphas(comp) == sympy.FiniteSet(*alphas)
