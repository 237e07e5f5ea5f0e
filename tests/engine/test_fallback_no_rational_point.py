"""A domain with no rational point (z = √2 exactly) leaves the numeric fallback nothing to try:
its result is the documented empty one — no witness, no certificate, no candidates (an empty
tuple a caller can iterate), no evidence — and says why. A slip in the argument order of that
result would hand a caller a tuple as the certificate and None as the candidates."""
from __future__ import annotations

import pytest
import sympy

from symcheck.engine.fallback import Evidence, numeric_witness
from symcheck.exact.regions import Region

Z = sympy.Symbol("z", real=True)


@pytest.mark.parametrize("point", [sympy.sqrt(2), sympy.pi, -sympy.E])
def test_a_domain_without_rational_points_gives_the_empty_result(point) -> None:
    found = numeric_witness(Z ** 2 - 1, [Z], {Z: Region(point, point)})
    assert found.witness is None
    assert found.certificate is None
    assert found.candidates == ()
    assert found.evidence == Evidence()
    assert found.note == "no rational point lies in the domains"
