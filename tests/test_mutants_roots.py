"""Root isolation never drops a root it could not see: a box the enclosures cannot evaluate,
or one whose enclosure only touches 0, is split further or refused, never skipped.
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.exact.roots import roots_in
from symcheck.exact.signs import Undecided
from symcheck.language.symbols import Z


@pytest.mark.parametrize(("g", "lower", "upper", "near"), [
    # z·log z + 1/20 has roots near 0.0129 and 0.96; no enclosure of log reaches z = 0
    (Z * sympy.log(Z) + S(1) / 20, S.Zero, S.One, [0.0129, 0.9612]),
    # a double root at 1/2, where every enclosure of g only touches 0
    ((Z - S.Half)**2 * (2 + sympy.sin(Z)), S.Zero, S.One, [0.5]),
    ((Z - S(1) / 4)**2 * (3 + sympy.cos(Z)) * (Z + 5), -S.One, S.One, [0.25]),
    # an even power of a ball that straddles 0 is [0, x]: it touches 0, it is not positive
    (sympy.sin(Z - S.Half)**2, S.Zero, S.One, [0.5]),
    (sympy.sin(Z - S.Half)**2 + sympy.sin(3 * Z - S.Half)**2, S.Zero, S.One, []),
])
def test_a_root_the_enclosures_cannot_place_is_refused_or_found(g, lower, upper, near) -> None:
    try:
        found = roots_in(g, Z, lower, upper)
    except Undecided:
        return
    values = [float(p) for p in found.points]
    for x in near:
        assert any(abs(v - x) < 1e-3 for v in values), (values, x)


def test_simple_roots_of_a_transcendental_function_are_isolated_exactly() -> None:
    found = roots_in(sympy.sin(Z) - S.Half, Z, S.Zero, S(3))
    assert set(found.points) == {sympy.pi / 6, 5 * sympy.pi / 6}


@pytest.mark.parametrize("proposal", [2 * sympy.pi * sympy.I, 1 + sympy.I, sympy.I * sympy.exp(-300)])
def test_a_proposal_known_not_to_be_real_is_dropped_not_refused(proposal) -> None:
    """exp(z) − 1 is increasing with its one real root 0; a complex proposal is no cut point
    (and must not make the proved set of cuts a refusal)."""
    found = roots_in(sympy.exp(Z) - 1, Z, -S.One, S.One, candidates=lambda g, var, interval: [proposal, S.Zero])
    assert found.points == (S.Zero,)


@pytest.mark.parametrize(("lower", "upper"), [
    (S.Zero, sympy.pi / 6 - S(10)**-10), (5 * sympy.pi / 6 + S(10)**-10, S(3)),
    (S.Zero, sympy.pi / 6 - S(10)**-6),
])
def test_an_interval_that_ends_just_short_of_a_root_has_none(lower, upper) -> None:
    """Next to the end g = sin z − 1/2 is monotone and of one sign, though its enclosures touch
    0: such a box has no root (decided, not refused), and the root beyond the end is no cut."""
    found = roots_in(sympy.sin(Z) - S.Half, Z, lower, upper)
    assert found.points == ()


@pytest.mark.parametrize(("g", "lower", "upper", "roots"), [
    (sympy.sin(sympy.pi * Z), S.Zero, S(2), (S.One,)),          # 1 is where [0, 2] is halved
    (sympy.sin(sympy.pi * Z), -S.One, S(3), (S.Zero, S.One, S(2))),
])
def test_a_root_exactly_at_the_end_of_a_bisection_box_is_kept(g, lower, upper, roots) -> None:
    """A box whose end is a root has g = 0 there: that is a bracket, not a box without roots."""
    assert roots_in(g, Z, lower, upper).points == roots
