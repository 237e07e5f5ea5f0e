"""The log-periodic argument for any harmonic α·cos(ω log|z|) + β·sin(ω log|z|) — a sine part
included — on either half-line, the negative one included.

σ = z·(α cos(ω log|z|) + β sin(ω log|z|)) on one half-line and z on the other, ω = 2π/log B,
(α, β) ≠ (0, 0). An a > 0 keeps each half-line: the plain side forces c = a, and then the other
side needs p(t + log a) = p(t) for p = α cos ωt + β sin ωt, whose least period is log B: a = B^j.
An a < 0 would map the plain side onto the log-periodic one, where σ is not a multiple of z. So
G = {(B^j, B^j) : j ∈ Z}, complete; (√B, ±√B) (half a period turns p into −p) and every a < 0 are
not members.
"""
from __future__ import annotations

from functools import cache

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.engine.group import SymmetryGroup, symmetry_group

small = st.builds(sympy.Rational, st.integers(-3, 3), st.integers(1, 2))


@cache
def group(spec: str) -> SymmetryGroup:
    return symmetry_group(spec, timeout=60)


def spec(alpha, beta, base: int, side: str) -> str:
    w = f"2*pi*log(Abs(z))/log({base})"
    return f"Piecewise((z*(({alpha})*cos({w}) + ({beta})*sin({w})), z {side} 0), (z, True))"


@settings(max_examples=10, deadline=None)
@given(alpha=small, beta=small, base=st.sampled_from([2, 3]), side=st.sampled_from(["<", ">"]))
def test_one_log_periodic_half_line_gives_the_powers_of_its_period(alpha, beta, base: int, side: str) -> None:
    if alpha == 0 and beta == 0:
        return
    g = group(spec(alpha, beta, base, side))
    assert g.complete, g.note
    assert any(s.title == "Log-periodic form" for s in g.maximality)
    b = sympy.Integer(base)
    for j in (1, -1, 2):
        assert g.contains(b**j, b**j) is True, j
    root = sympy.sqrt(b)
    for a, c in ((root, root), (root, -root), (b, -b), (-1, -1), (-1, 1), (-b, -b), (-b, b)):
        assert g.contains(a, c) is False, (a, c)


def test_a_pure_sine_on_both_half_lines_is_odd_with_the_half_period_flip() -> None:
    """σ = z·sin(ω log|z|) (σ(0) = 0) is odd, and half a period turns sin into −sin:
    G = {(±√2^j, (−1)^j·a)}."""
    g = group("Piecewise((z*sin(2*pi*log(Abs(z))/log(2)), Ne(z, 0)), (0, True))")
    assert g.complete, g.note
    root = sympy.sqrt(2)
    assert g.contains(root, -root) is True and g.contains(-root, root) is True
    assert g.contains(2, 2) is True and g.contains(-2, -2) is True
    assert g.contains(root, root) is False and g.contains(2, -2) is False and g.contains(3, 3) is False
