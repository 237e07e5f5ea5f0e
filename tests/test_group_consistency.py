"""The group agrees with the checks: inverse scaling over a domain D holds iff (α, α) ∈ G_σ for
every α ∈ D, for every catalogue activation and every kind of domain, wherever both decide."""
from __future__ import annotations

from functools import lru_cache

import pytest

import symcheck as sc
from symcheck.engine.group import SymmetryGroup, symmetry_group

DOMAINS = ("positive", "negative", "any", "-1", "2", "1/2", "-3")
NAMES = [a.name for a in sc.catalogue()]


@lru_cache(maxsize=None)
def group(name: str) -> SymmetryGroup:
    return symmetry_group(name, timeout=60)


@pytest.mark.parametrize("name", NAMES)
def test_the_group_decides_every_domain_as_the_check_does(name: str) -> None:
    g = group(name)
    assert g.complete, g.note
    for domain in DOMAINS:
        expected = sc.check_inverse_scaling(name, domain, timeout=20).verdict.value
        said = g.inverse_scaling(domain)
        assert said is not None, (name, domain)
        if expected != "inconclusive":
            assert ("holds" if said else "broken") == expected, (name, domain)


@pytest.mark.parametrize("name", NAMES)
def test_the_alpha_set_is_the_union_of_the_domains_that_hold(name: str) -> None:
    """{α : (α, α) ∈ G} contains the half-line of a domain exactly when the group says it holds."""
    import sympy
    alphas = group(name).inverse_scaling_alphas()
    assert (sympy.Interval.open(0, sympy.oo).is_subset(alphas)) is group(name).inverse_scaling("positive")
    assert (sympy.Rational(-1) in alphas) is group(name).inverse_scaling("-1")
