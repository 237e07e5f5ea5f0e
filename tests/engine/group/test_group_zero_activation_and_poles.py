"""Two decisions of the group code a slip would reach silently. A σ identically 0 (written so that
only a proof shows it) gets the group of every pair (a ≠ 0, c), reported for that σ itself — its
JSON and text name it. And the analyticity test at a point: an integer power of a base that is 0
there (a pole) is not analytic at it, whatever the exponent's sign; a non-integer one needs the
base > 0 there."""
from __future__ import annotations

import json

import pytest
import sympy

import symcheck as sc
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.facts import analytic
from symcheck.language.symbols import Z


@pytest.mark.parametrize("written", ["Max(z, 0) - Abs(z)/2 - z/2", "sqrt(z**2) - Abs(z)"])
def test_an_identically_zero_sigma_is_the_result_s_own_activation(written) -> None:
    sigma = sc.activation(written)
    group = symmetry_group(sigma)
    assert group.complete
    assert group.activation is sigma
    data = json.loads(json.dumps(group.to_dict()))
    assert written.replace(" ", "") in json.dumps(data).replace(" ", "")


@pytest.mark.parametrize("expr, point, expected", [
    (1 / Z, 0, False), (1 / (Z - 1), 1, False), ((Z - 3) ** -2, 3, False), (1 / (Z**2 - 4), -2, False),
    (1 / Z, 2, True), ((Z - 3) ** -2, 1, True),
    (sympy.sqrt(Z), 0, False), (sympy.sqrt(Z), 4, True), ((Z - 1) ** sympy.Rational(1, 3), 1, False),
    ((Z - 1) ** sympy.Rational(1, 3), 0, False), ((Z - 1) ** sympy.Rational(1, 3), 2, True),
])
def test_analytic_at_a_point_sees_poles_and_branch_points(expr, point, expected) -> None:
    assert analytic(expr, sympy.Integer(point)) is expected


def test_analytic_everywhere_refuses_a_non_integer_power_of_z() -> None:
    assert analytic(1 / Z) is True      # on every open interval where it is defined
    assert analytic(sympy.sqrt(Z)) is False
