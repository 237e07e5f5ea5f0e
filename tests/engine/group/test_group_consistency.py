"""The group agrees with the checks: inverse scaling over a domain D holds iff (α, α) ∈ G_σ for
every α ∈ D, for every catalogue activation (and a few of one's own) and every kind of domain,
wherever both decide."""
from __future__ import annotations

from functools import cache

import pytest

import symcheck as sc
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.results import SymmetryGroup

from support import QUICK_ACTIVATIONS, quick_few

DOMAINS = ("positive", "negative", "any", "-1", "2", "1/2", "-3")
NAMES = [a.name for a in sc.catalogue()] + [
    "Abs(z)", "z**2", "sign(z)", "Max(z, 0)**3", "sqrt(Abs(z))",
    "Piecewise((z*cos(2*pi*log(Abs(z))/log(2)), Ne(z, 0)), (0, True))"]


@cache
def group(name: str) -> SymmetryGroup:
    return symmetry_group(name, timeout=60)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.slow
def test_the_group_decides_every_domain_as_the_check_does(name: str) -> None:
    g = group(name)
    assert g.complete, g.note
    for domain in DOMAINS:
        expected = sc.check_inverse_scaling(name, domain, timeout=20).verdict.value
        said = g.inverse_scaling(domain)
        assert said is not None, (name, domain)
        if expected != "inconclusive":
            assert ("holds" if said else "broken") == expected, (name, domain)


@pytest.mark.parametrize("name", quick_few(NAMES, QUICK_ACTIVATIONS | {"Abs(z)", "z**2"}))
def test_the_alpha_set_is_what_membership_says(name: str) -> None:
    """α ∈ {α : (α, α) ∈ G} exactly when contains(α, α), wherever SymPy decides the set membership."""
    import sympy
    g = group(name)
    alphas = g.inverse_scaling_alphas()
    decided = 0
    for alpha in (1, -1, 2, -2, sympy.Rational(1, 2), sympy.Rational(-1, 4), 3, sympy.Rational(7, 3), 8):
        inside = sympy.Contains(alpha, alphas).doit()
        if inside in (sympy.true, sympy.false):
            decided += 1
            assert bool(inside) is g.contains(alpha, alpha), (name, alpha)
    assert decided >= 5, name
