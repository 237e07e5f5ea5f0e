"""The high-precision stage of the numeric fallback judges a residual against the size of its
terms: an identity whose terms reach 10⁵² leaves a rounding residual far above any absolute
threshold at 30 digits, which is not a candidate (the evidence says "may be identically 0"),
while a true residual of 1 among the same terms is one once the digits resolve it."""
from __future__ import annotations

import pytest
import sympy

from symcheck.engine.fallback import numeric_witness
from symcheck.language.symbols import Z

E = sympy.exp(Z)
IDENTITY = (E + 1) ** 2 - sympy.exp(2 * Z) - 2 * E - 1   # 0 everywhere


@pytest.mark.parametrize("at", [60, 80, 100])
def test_rounding_among_huge_terms_is_not_a_candidate(at) -> None:
    found = numeric_witness(IDENTITY, [Z], {Z: sympy.Integer(at)}, samples=8, digits=30)
    assert found.witness is None
    assert found.candidates == ()
    assert found.evidence.high_precision == 1 and found.evidence.unresolved == 1
    assert found.note.startswith("no point showed a residual distinguishable from rounding")


def test_a_true_residual_among_huge_terms_is_found_with_enough_digits() -> None:
    found = numeric_witness(IDENTITY + 1, [Z], {Z: sympy.Integer(60)}, samples=8, digits=90)
    assert found.witness == {Z: sympy.Integer(60)}
    assert found.certificate is not None
