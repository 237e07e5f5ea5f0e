"""A condition ITE(c, a, b) at a point: once c is decided, the value is that of the branch it
picks (a when c holds, b when not). Max and Min of three arguments or more rewrite to Piecewise
with such conditions, so a slip there (the branch handed over in the wrong argument place, the
branches swapped) leaves the value at a point undecided or picks the other branch. Checked at
points where each branch decides, against the value computed by hand."""
from __future__ import annotations

import pytest
import sympy

from symcheck.exact.signs import at_point
from symcheck.language.symbols import Z

ITE_PW = sympy.Piecewise((1, sympy.ITE(Z > 0, Z > 1, Z > -2)), (0, True))


@pytest.mark.parametrize("point, value", [
    (sympy.Rational(3, 2), 1),     # z > 0 holds: z > 1 holds
    (sympy.Rational(1, 2), 0),     # z > 0 holds: z > 1 fails (the other branch, z > −2, holds)
    (-1, 1),                       # z > 0 fails: z > −2 holds (the first branch, z > 1, fails)
    (-3, 0),                       # z > 0 fails: z > −2 fails
])
def test_an_ite_condition_takes_the_branch_its_test_picks(point, value) -> None:
    assert at_point(ITE_PW, Z, point) == value


@pytest.mark.parametrize("point", [sympy.Rational(-3, 2), sympy.Rational(1, 3), sympy.Rational(3, 4), 3])
def test_max_and_min_of_three_at_a_point(point) -> None:
    args = [Z, 1 - Z, Z ** 2 / 4]
    values = [a.subs(Z, point) for a in args]
    assert at_point(sympy.Max(*args), Z, point) == max(values)
    assert at_point(sympy.Min(*args), Z, point) == min(values)
