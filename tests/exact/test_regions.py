"""Case splits: the regions partition R and each piece is the right branch."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.core.budget import Budget
from symcheck.exact.regions import Region, split
from symcheck.language.symbols import Z


def regions(expr) -> list[str]:
    return [p.region.describe() for p in split(expr, Z, Budget(30))]


def test_relu_splits_at_zero_only() -> None:
    pieces = split(sympy.Max(Z, 0), Z, Budget(30))
    assert [p.region.describe() for p in pieces] == ["z < 0", "z = 0", "z > 0"]
    assert [p.expr for p in pieces] == [0, 0, Z]


def test_softshrink_cut_points_are_found() -> None:
    expr = sympy.Piecewise((Z - S.Half, Z > S.Half), (Z + S.Half, Z < -S.Half), (0, True))
    assert regions(expr) == ["z < -1/2", "z = -1/2", "-1/2 < z < 0", "z = 0", "0 < z < 1/2",
                             "z = 1/2", "z > 1/2"]


def test_irrational_cut_points_are_exact() -> None:
    pieces = split(sympy.Piecewise((1, Z**2 > 2), (0, True)), Z, Budget(30))
    points = [p.region.lower for p in pieces if p.region.is_point]
    assert points == [-sympy.sqrt(2), 0, sympy.sqrt(2)]
    assert [p.expr for p in pieces if not p.region.is_point] == [1, 0, 0, 1]


def test_heaviside_at_zero_is_one_half() -> None:
    pieces = split(Z * sympy.Heaviside(Z) + sympy.Heaviside(Z), Z, Budget(30))
    assert [p.expr for p in pieces] == [0, S.Half, Z + 1]


def test_nested_min_max_relu6() -> None:
    pieces = split(sympy.Min(sympy.Max(Z, 0), 6), Z, Budget(30))
    assert [(p.region.describe(), p.expr) for p in pieces] == [
        ("z < 0", 0), ("z = 0", 0), ("0 < z < 6", Z), ("z = 6", 6), ("z > 6", 6)]


def test_transcendental_condition_is_undecided_not_guessed() -> None:
    pieces = split(sympy.Piecewise((1, sympy.tanh(Z) > Z / 2), (0, True)), Z, Budget(30))
    open_pieces = [p for p in pieces if not p.region.is_point]
    # tanh(z) = z/2 has a root near ±1.915 with no closed form: no cut, both branches kept
    assert [set(p.alternatives) for p in open_pieces] == [{0, 1}, {0, 1}]
    assert all(not p.branch_free and p.undecided for p in open_pieces)


def test_infinitely_many_cuts_are_undecided() -> None:
    pieces = split(sympy.Piecewise((1, sympy.sin(Z) > 0), (0, True)), Z, Budget(30))
    assert {p.region.describe(): set(p.alternatives) for p in pieces} == {
        "z < 0": {0, 1}, "z = 0": {0}, "z > 0": {0, 1}}
    assert "no finite set of cut points" in pieces[0].undecided[0]


@pytest.mark.parametrize("region", [Region(-S.Infinity, S.Zero), Region(S.Zero, S.Infinity),
                                    Region(-sympy.sqrt(2), sympy.sqrt(3)), Region(S(6), S(7)),
                                    Region(sympy.pi, sympy.pi + sympy.Rational(1, 10**6))])
def test_samples_lie_strictly_inside(region: Region) -> None:
    samples = region.samples(12)
    assert samples
    for q in samples:
        assert q.is_Rational
        assert region.lower == -S.Infinity or q > region.lower
        assert region.upper == S.Infinity or q < region.upper
