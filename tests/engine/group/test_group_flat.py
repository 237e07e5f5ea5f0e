"""Flat σ (every Taylor coefficient 0 at 0), e^(−1/z²) and z·e^(−1/z²): the a > 0 side is a = 1
by the log-derivative, and a < 0 needs the member (−1, ±1) proved, whose certificate rewrites
σ(−z) = e^(−1/(−z)²): the emitter writes −(−z)^(−2) as −z^(−2) where z ≠ 0 is proved on the
piece (a Laurent polynomial the kernel's ring step accepts). Before, the kernel saw two atoms
and the group stayed partial (issue 20, flat functions).

Truth by hand: σ even (odd) and σ(az) = cσ(z) forces c = 1 (c = a) from the limit at ∞, then
a² = 1; mpmath confirms each pair below.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy

from symcheck.engine.group.assemble import symmetry_group

FLAT = {"Piecewise((exp(-1/z**2), Ne(z, 0)), (0, True))": lambda a, c: abs(a) == 1 and c == 1,
        "Piecewise((z*exp(-1/z**2), Ne(z, 0)), (0, True))": lambda a, c: abs(a) == 1 and c == a}
PAIRS = [(1, 1), (-1, 1), (-1, -1), (2, 1), (2, 2), (sympy.Rational(1, 2), 1)]


@pytest.mark.parametrize("spec", sorted(FLAT))
def test_a_flat_group_is_complete_and_right(spec):
    f = sympy.lambdify(sympy.Symbol("z"), sympy.sympify(spec), "mpmath")
    truth = FLAT[spec]
    with mpmath.workdps(40):
        for a, c in PAIRS:
            an, cn = (mpmath.mpf(sympy.Rational(v).p) / sympy.Rational(v).q for v in (a, c))
            worst = max(abs(f(an * z) - cn * f(z)) for z in map(mpmath.mpf, ("0.5", "-1", "2", "-3.5")))
            assert (worst < mpmath.mpf("1e-30")) is truth(a, c)
    group = symmetry_group(spec, timeout=60)
    assert group.complete, group.note
    assert [group.contains(a, c) for a, c in PAIRS] == [truth(a, c) for a, c in PAIRS]
