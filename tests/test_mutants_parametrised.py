"""The interval a sign-definiteness proof speaks about is exactly the one asked.

Root isolation proves "no root on (lower, upper)" by rewriting z as a function of t > 0 and
asking SymPy's assumptions for a sign. That rewriting must be a bijection of (0, ∞) onto the
interval: a map onto a smaller or different set would prove a sign where a root is.
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.exact.roots import _POSITIVE_T, _parametrised, roots_in
from symcheck.language.symbols import Z

T = _POSITIVE_T
INTERVALS = [(S(1), S(3)), (S(-2), S(5)), (S(-4), S(-1)), (S(0), S.Infinity),
             (S.NegativeInfinity, S(2)), (S.NegativeInfinity, S.Infinity)]


@pytest.mark.parametrize("lower, upper", INTERVALS, ids=[f"{a},{b}" for a, b in INTERVALS])
def test_every_t_lands_inside_and_the_ends_are_the_limits(lower, upper) -> None:
    z_of_t = _parametrised(Z, Z, lower, upper)
    if lower is S.NegativeInfinity and upper is S.Infinity:
        assert z_of_t.is_Symbol and z_of_t.is_real  # the whole line: z itself
        return
    for t in (S(1) / 1000, S(1) / 3, S(1), S(2), S(1000)):
        z = z_of_t.subs(T, t)
        assert lower < z < upper, (t, z)
    # continuous in t, inside for every t, with the two ends as its limits: onto the interval
    assert {sympy.limit(z_of_t, T, 0, "+"), sympy.limit(z_of_t, T, sympy.oo)} == {lower, upper}


@pytest.mark.parametrize("g, lower, upper, roots", [
    (sympy.exp(Z) - 2, S(0), S(1), [sympy.log(2)]),
    (sympy.exp(Z) - 2, S(1), S(3), []),
    (Z**3 - 2, S(1), S(2), [sympy.cbrt(2)]),
])
def test_a_root_inside_is_found_and_none_is_invented(g, lower, upper, roots) -> None:
    found = roots_in(g, Z, lower, upper).points
    assert len(found) == len(roots)
    assert all(sympy.simplify(a - b) == 0 for a, b in zip(found, roots))
