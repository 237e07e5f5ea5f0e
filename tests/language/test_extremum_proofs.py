"""Max/Min of arguments holding irrational numbers: SymPy's choice is only a proposal.

``parsing.extremum`` keeps SymPy's dropping of an argument only when a remaining one is proved
to dominate it, else returns an argument proved to dominate every other one, else Max/Min as
written. Each domination is its own proof: A = π(z+1)² and B = π(z²+2z+1) are equal (each
proved ≥ the other) and C = 2π(z+1) crosses them, so no argument dominates C and the value is
no single argument — whatever SymPy proposes. A proof reused for another pair (a cache keyed
by one argument) would return C, which is 8π at z = 3 where the maximum is 16π.
"""
from __future__ import annotations

import pytest
import sympy

from symcheck.language import parsing
from symcheck.language.symbols import Z

from support import quick_few

A = sympy.pi * (Z + 1) ** 2
B = sympy.pi * (Z**2 + 2 * Z + 1)
C = 2 * sympy.pi * (Z + 1)
POINTS = [sympy.Integer(k) for k in (-3, -1, 0, 1, 3)] + [sympy.Rational(1, 2)]


def _proposals(cls: type) -> list[object]:
    """What SymPy might return: nothing (it could not order a number), C dropped, or one of A, C."""
    return [None, cls(A, B, evaluate=False), A, C]


@pytest.mark.parametrize("name", ["Max", "Min"])
@pytest.mark.parametrize("order", quick_few([(A, B, C), (B, A, C), (C, B, A)], {(A, B, C)}))
def test_each_domination_is_proved_for_its_own_pair(monkeypatch: pytest.MonkeyPatch, name: str,
                                                    order: tuple[sympy.Expr, ...]) -> None:
    cls = {"Max": sympy.Max, "Min": sympy.Min}[name]
    pick = max if name == "Max" else min
    for proposal in _proposals(cls):
        monkeypatch.setattr(parsing, "_real_comparison", lambda build, written, parts=None, p=proposal: p)
        got = parsing.extremum(name, list(order), f"{name}(A, B, C)")
        for z in POINTS:  # exact: rational multiples of π
            true = pick(e.subs(Z, z) for e in (A, C))
            assert sympy.expand(got.subs(Z, z) - true) == 0, (proposal, got, z)
