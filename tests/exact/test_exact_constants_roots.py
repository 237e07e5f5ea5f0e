"""Exact constants in root cut points: the quadratic formula keeps 1/2 as a Rational (a Float
0.5 in a cut point prints as a decimal and is no longer a closed form), and ball isolation
encloses g over the exact bracket [a, b], never over a float rounding of a (float(1/10) lies
above 1/10, so a root in between would be lost)."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.exact.roots import roots_in
from symcheck.exact.signs import Undecided
from symcheck.language.symbols import Z


def _float_free(points) -> bool:
    return all(not p.atoms(sympy.Float) for p in points)


def test_quadratic_roots_with_monic_transcendental_coefficients_are_exact() -> None:
    # z² + πz + 1: coefficients neither rational nor algebraic, so the quadratic formula with a = 1
    cuts = roots_in(Z**2 + sympy.pi * Z + 1, Z, -S.Infinity, S.Infinity)
    assert "quadratic" in cuts.argument and len(cuts.points) == 2
    assert _float_free(cuts.points), cuts.points
    root = sympy.sqrt(sympy.pi**2 - 4) / 2
    expected = (-sympy.pi / 2 - root, -sympy.pi / 2 + root)
    for got, want in zip(cuts.points, expected, strict=True):
        assert sympy.simplify(got - want) == 0
        assert not sympy.simplify(got).atoms(sympy.Float)


def test_quadratic_root_with_zero_discriminant_is_exact() -> None:
    # z² + 2πz + π²: discriminant 0, the one root -π (centre = -b·1/2)
    cuts = roots_in(sympy.expand(Z**2 + 2 * sympy.pi * Z + sympy.pi**2), Z, -S.Infinity, S.Infinity)
    assert _float_free(cuts.points), cuts.points


@pytest.mark.parametrize("make", [lambda r: sympy.exp(Z) - sympy.exp(r), lambda r: sympy.atan(Z - r),
                                  lambda r: Z - r + sympy.exp(Z) - sympy.exp(r)])
def test_isolation_never_claims_no_root_when_the_root_hides_below_the_float_end(make) -> None:
    # monotone, but with no proposal the monotone argument gives up and ball isolation runs on
    # [1/10, 1/10 + 10^-9]; the root r lies in (1/10, float(1/10)) (float(1/10) = 1/10 + 5.55e-18),
    # so g's enclosure over [float(1/10), upper] is > 0 while over the exact bracket it is not
    lower, upper = S(1) / 10, S(1) / 10 + S(1) / 10**9
    r = lower + S(1) / 10**18
    assert lower < r < sympy.Rational(float(lower))
    try:
        cuts = roots_in(make(r), Z, lower, upper, candidates=lambda g, var, interval: [])
    except Undecided:
        return  # the root has no proposal: a refusal is the right answer
    assert r in cuts.points, cuts
