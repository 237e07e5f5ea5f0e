"""Log-periodic σ whose period in log|z| is a multiple of π (ω rational): the members are
a = ±e^(kπ/ω), and proving one needs log(e^π·|z|) = π + log|z|, so e^(qπ) must stay a number
SymPy sees (``plain``) rather than an opaque positive constant (issue 20, groups with a phase).

Truth by hand: σ(z) = z·cos(ω·log|z| + φ) is odd and σ(az) = cσ(z) for all z iff
ω·log|a| = kπ and c = (−1)^k·a; mpmath confirms every pair used below.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy

from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.zero import plain

E = sympy.exp(sympy.pi)


def _sigma(omega: int, phase: str) -> str:
    return f"Piecewise((z*cos({omega}*log(Abs(z)) + {phase}), Ne(z, 0)), (0, True))"


def _member_by_mpmath(omega: int, phase: str, a: sympy.Expr, c: sympy.Expr) -> bool:
    f = sympy.lambdify(sympy.Symbol("z"), sympy.sympify(_sigma(omega, phase)), "mpmath")
    with mpmath.workdps(50):
        an, cn = mpmath.mpf(sympy.N(a, 60)), mpmath.mpf(sympy.N(c, 60))
        return all(abs(f(an * z) - cn * f(z)) < mpmath.mpf("1e-35") for z in map(mpmath.mpf, ("0.3", "-2", "5.5")))


@pytest.mark.parametrize("omega, phase", [(1, "1"), (2, "0"), (1, "1/2")])
def test_a_log_periodic_group_with_period_pi_is_complete(omega, phase):
    root = sympy.exp(sympy.pi / omega)  # the generator e^(π/ω), with c = −a
    pairs = [(root, -root, True), (-root, root, True), (root**2, root**2, True), (-1, -1, True),
             (root, root, False), (-1, 1, False), (2, 2, False)]
    group = symmetry_group(_sigma(omega, phase), timeout=60)
    for a, c, member in pairs:
        assert _member_by_mpmath(omega, phase, sympy.sympify(a), sympy.sympify(c)) is member
    assert group.complete, group.note
    assert [group.contains(a, c) for a, c, _ in pairs] == [m for _, _, m in pairs]


@pytest.mark.parametrize("number, expected", [
    (E, True), (sympy.exp(sympy.pi / 3), True), (sympy.exp(-2 * sympy.pi), True), (3 * E, True),
    # a sum is never plain (cancellation is what evalf misjudges), nor is anything built on one
    (sympy.exp(sympy.pi - 3), False), (E - 23, False), (sympy.exp(sympy.sqrt(2) + 1), False),
    (sympy.exp(sympy.cos(1)), False),
])
def test_plain_numbers_include_e_to_a_plain_power_and_no_sum(number, expected):
    assert plain(number) is expected
