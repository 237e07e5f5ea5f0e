"""True identities of roots with negative exponents: r = (1 + 1/c)^(p/q) with p < 0 is defined by
r^q·(c + 1)^(−p) = c^(−p). The definition must hold r itself: one without it says nothing about
r (at best a constant relation the prover refuses), and these identities are no longer proved."""
from __future__ import annotations

import pytest
import sympy
from sympy import Rational as R
from sympy import log, pi, sqrt

from symcheck.exact.zero_proof import proved_zero

CONSTANTS = [pi, log(3), 1 + sqrt(2)]


@pytest.mark.parametrize("c", CONSTANTS, ids=str)
def test_identities_of_a_root_with_a_negative_exponent_are_proved(c) -> None:
    r = (1 + 1 / c) ** R(-1, 2)
    assert proved_zero(r * sqrt(1 + c) - sqrt(c))
    assert proved_zero(r**2 * (1 + c) - c)
    assert proved_zero(r - sqrt(c) / sqrt(1 + c))
    assert proved_zero((2 + 1 / c) ** R(-1, 3) * (2 * c + 1) ** R(1, 3) - c ** R(1, 3))


@pytest.mark.parametrize("c", CONSTANTS, ids=str)
def test_the_same_roots_are_not_equal_to_their_neighbours(c) -> None:
    r = (1 + 1 / c) ** R(-1, 2)
    for wrong in (sqrt(1 + c) / sqrt(c), sqrt(c), 1 / sqrt(1 + c)):
        assert abs(sympy.N(r - wrong, 30)) > R(1, 1000)
        assert not proved_zero(r - wrong)
