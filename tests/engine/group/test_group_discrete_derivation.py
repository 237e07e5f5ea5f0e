"""A discrete component's printed derivation and its formula for c.

The component a = ±B^j (j ∈ Z) rests on two proved generators, (B, B_c) and (−1, u), and on
closure under products and inverses. Its steps must show all three, in that order: the proof of
(B, B_c), the proof of (−1, u), then the closure step (without negatives: the first and the last).
Its c reads c = a exactly when B_c = B (and u = −1 when there are negatives), c = (−1)^j·a when
B_c = −B.

σ here is z·p(log|z|) with p periodic of period log 2 in log|z|: with p = cos(2π·log|z|/log 2)
the generator is (√2, −√2); adding the second harmonic refutes √2 and the generator is (2, 2).
"""
from __future__ import annotations

from functools import cache

import sympy

import symcheck as sc
from symcheck.core.printing import text
from symcheck.engine.group.results import J
from symcheck.language.symbols import A, Z

SQRT2 = sympy.sqrt(2)

P = "cos(2*pi*log(Abs(z))/log(2))"
P2 = "cos(4*pi*log(Abs(z))/log(2))"
ODD = f"Piecewise((z*{P}, Ne(z, 0)), (0, True))"                        # generator (√2, −√2), (−1, −1)
TWO_HARMONICS = f"Piecewise((z*({P} + {P2}), Ne(z, 0)), (0, True))"     # generator (2, 2), (−1, −1)
ASYMMETRIC = f"Piecewise((z*{P}, z > 0), (2*z*{P}, z < 0), (0, True))"  # generator (√2, −√2), no a < 0


@cache
def group(spec: str):
    return sc.symmetry_group(spec)


def _discrete(spec: str):
    found = [c for c in group(spec).components if c.aset.kind.name == "DISCRETE"]
    assert len(found) == 1, group(spec)
    return found[0]


def _statements(component) -> list[str]:
    return [s.statement for s in component.steps if s.title == "Statement"]


def _says(statement: str, a, c) -> bool:
    """The member statement of the pair (a, c), as the members' decider writes it."""
    return statement == f"for all z ∈ R: σ({text(a * Z)}) = {text(c)}·σ(z)"


def test_a_discrete_component_with_negatives_shows_both_generators_then_closure() -> None:
    component = _discrete(ODD)
    assert component.aset.negatives
    statements = _statements(component)
    assert len(statements) == 2, [s.title for s in component.steps]
    assert _says(statements[0], SQRT2, -SQRT2), statements
    assert _says(statements[1], -1, -1), statements
    titles = [s.title for s in component.steps]
    assert titles[0] == "Statement"            # the generator (B, B_c) comes first
    assert titles[-1] == "Closure"
    assert titles.count("Closure") == 1
    # each generator's proof is complete: its statement, its cases and its cover
    second = titles.index("Statement", 1)
    assert "Cover" in titles[:second] and "Cover" in titles[second:-1]


def test_a_discrete_component_without_negatives_shows_its_generator_then_closure() -> None:
    component = _discrete(ASYMMETRIC)
    assert not component.aset.negatives
    statements = _statements(component)
    assert len(statements) == 1 and _says(statements[0], SQRT2, -SQRT2), statements
    titles = [s.title for s in component.steps]
    assert titles[0] == "Statement" and titles[-1] == "Closure" and titles.count("Closure") == 1


def test_c_is_a_when_the_generator_is_a_fixed_ratio() -> None:
    component = _discrete(TWO_HARMONICS)
    assert component.aset.base == 2 and component.base_c == 2
    assert component.unit_c == -1
    assert component.c == A


def test_c_alternates_when_the_generator_flips_the_sign() -> None:
    component = _discrete(ODD)
    assert component.base_c == -component.aset.base
    assert component.c == (-1) ** J * A
