"""The break-point argument names the lowest derivative of σ that jumps at a cut, from σ itself
(order 0) to order 3, and with it proves the group complete.

σ = z + c·(z − b)^k for z ≥ b and z for z < b (c ≠ 0, b ≠ 0 rational, k = 0…3): its derivatives of
order below k are continuous at b and the k-th jumps by c·k!. So σ is analytic exactly off {b}:
a·N = N forces |a| = 1, and a = −1 would need −b ∈ N. The true group is {(1, 1)}, complete.
"""
from __future__ import annotations

from functools import cache

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.results import SymmetryGroup

rationals = st.builds(sympy.Rational, st.integers(-9, 9).filter(bool), st.integers(1, 5))


@cache
def group(spec: str) -> SymmetryGroup:
    return symmetry_group(spec, timeout=60)


def spec(b: sympy.Rational, c: sympy.Rational, k: int) -> str:
    return f"Piecewise((z, z < {b}), (z + ({c})*(z - ({b}))**{k}, True))"


def expected_reason(k: int) -> str:
    return "σ jumps" if k == 0 else f"the derivative of order {k} jumps"


@settings(max_examples=16, deadline=None)
@given(b=rationals, c=rationals, k=st.integers(0, 3))
def test_the_lowest_jumping_derivative_is_found_and_named(b, c, k: int) -> None:
    g = group(spec(b, c, k))
    breaks = [s.statement for s in g.maximality if s.title == "Break points"]
    assert breaks, g.note
    # at k = 0 the value at b is the right branch's: σ(b) differs from the left limit
    reasons = (expected_reason(k), "σ(z) differs from its left limit") if k == 0 else (expected_reason(k),)
    assert any(f"(z = {b}: {r})" in breaks[0] for r in reasons), breaks[0]
    assert g.complete, g.note
    assert g.contains(1, 1) is True
    for a, cc in ((-1, -1), (-1, 1), (2, 2), (sympy.Rational(1, 2), sympy.Rational(1, 2))):
        assert g.contains(a, cc) is False, (a, cc)


@given(b=rationals, c=rationals)
@settings(max_examples=6, deadline=None)
def test_a_value_jump_is_not_called_a_derivative_jump(b, c) -> None:
    """σ = z on z ≤ b (the point b included) and z + c beyond: σ itself jumps at b."""
    g = group(f"Piecewise((z, z <= {b}), (z + ({c}), True))")
    breaks = next(s.statement for s in g.maximality if s.title == "Break points")
    assert f"(z = {b}: σ jumps)" in breaks, breaks
    assert g.complete
