"""The Taylor argument of a group reads a one-sided polynomial σ up to its own degree.

σ = z^17 on one side of 0 and 0 on the other: every Taylor coefficient of the zero side is 0,
and the only non-zero one of the other side is of order 17, beyond the orders the argument
reads by default (6, doubled up to the cap 16). For polynomial pieces the order is raised to
the larger of the two degrees; were it taken from one side only (the zero side's degree is −∞),
no coefficient would be certified non-zero and the group, {(a, a^17) : a > 0}, would be left
partial. A group is checked member by member against the definition at rational points.
"""
from __future__ import annotations

from functools import cache

import pytest
import sympy

import symcheck as sc

LEFT = "Piecewise((0, z >= 0), (z**17, True))"    # z^17 for z < 0
RIGHT = "Piecewise((z**17, z > 0), (0, True))"    # z^17 for z > 0


@cache
def group(spec: str):
    return sc.symmetry_group(spec)


def _member(spec: str, a: sympy.Expr, c: sympy.Expr) -> bool:
    z = sympy.Symbol("z", real=True)
    sigma = sympy.sympify(spec, locals={"z": z})
    return all(sympy.simplify(sigma.subs(z, a * x) - c * sigma.subs(z, x)) == 0
               for x in map(sympy.Rational, ("-3/2", "-1/3", "2/5", "7/4")))


@pytest.mark.parametrize("spec", [LEFT, RIGHT])
def test_a_one_sided_power_above_the_taylor_cap_has_a_complete_group(spec: str) -> None:
    g = group(spec)
    assert g.complete, str(g)
    for a in (sympy.Rational(1, 3), 2, sympy.Rational(7, 5)):
        assert _member(spec, a, a**17) and g.contains(a, a**17) is True
        assert not _member(spec, a, 2 * a**17) and g.contains(a, 2 * a**17) is False
    for a in (-1, -2, sympy.Rational(-1, 3)):          # no a < 0: σ vanishes on one side only
        assert not _member(spec, a, a**17) and not _member(spec, a, -a**17)
        assert g.contains(a, a**17) is False and g.contains(a, -a**17) is False


@pytest.mark.parametrize("spec", [LEFT, RIGHT])
def test_the_coefficient_of_order_17_is_the_one_named(spec: str) -> None:
    text = str(group(spec))
    assert "₁₇ = " in text and "no Taylor coefficient" not in text  # p₁₇, as print shows it
