"""The generator test of a zero proof writes exp(Σ cᵢ·tᵢ) over one generator per term tᵢ —
exp(tᵢ/dᵢ), dᵢ the lcm of tᵢ's denominators — keyed by tᵢ itself. A generator keyed by anything
shared between terms (dᵢ, say) makes exp(√2/2) and exp(√3/2) the same generator, and their
difference, about 0.26, "proved" to be 0. Checked on such pairs (never proved 0; their value,
mpmath at 30 digits, is far from 0) and on true identities over the same generators (proved)."""
from __future__ import annotations

import mpmath
import pytest
import sympy
from sympy import E, exp, pi, sqrt

from symcheck.exact.zero_proof import generator_identity, proved_zero

DIFFERENT = [exp(sqrt(2) / 2) - exp(sqrt(3) / 2), exp(pi / 3) - exp(E / 3), exp(sqrt(2) / 4) - exp(sqrt(5) / 4),
             exp(pi / 2) * exp(-sqrt(2) / 2) - 1]


@pytest.mark.parametrize("value", DIFFERENT, ids=str)
def test_different_terms_with_one_denominator_are_not_one_generator(value) -> None:
    assert abs(sympy.N(value, 30)) > mpmath.mpf("1e-3")
    assert generator_identity(value) is False
    assert proved_zero(value) is False


@pytest.mark.parametrize("value", [exp(sqrt(2) / 2) ** 2 - exp(sqrt(2)),
                                   exp(sqrt(2) / 2) * exp(sqrt(3) / 2) - exp((sqrt(2) + sqrt(3)) / 2),
                                   exp(pi / 3) ** 3 * exp(-pi) - 1], ids=str)
def test_identities_over_the_same_generators_are_proved(value) -> None:
    assert generator_identity(value) is True
