"""The numeric fallback only proposes: a candidate is a witness only with a certificate."""
from __future__ import annotations

import sympy
from sympy import S

from symcheck.engine import fallback
from symcheck.exact.evaluate import certify_nonzero
from symcheck.engine.fallback import numeric_witness
from symcheck.language.symbols import A, B, Z


def test_an_uncertified_candidate_is_not_a_witness(monkeypatch) -> None:
    """Floats see z − 1/3 ≠ 0 almost everywhere; without a certificate that is no witness."""
    monkeypatch.setattr(fallback, "certify_nonzero", lambda *args, **kwargs: None)
    found = numeric_witness(Z - S(1) / 3, [Z], samples=64, high_precision_points=8, certify=4)
    assert found.candidates  # the floats did propose points
    assert found.witness is None and found.certificate is None
    assert "no candidate was certified" in found.note


def test_a_certified_candidate_is_a_witness_with_its_certificate() -> None:
    expr = sympy.Max(A, B) - A
    found = numeric_witness(expr, [A, B], samples=64, high_precision_points=8, certify=4)
    assert found.witness is not None and found.certificate is not None
    again = certify_nonzero(expr, found.witness)
    assert again is not None and again.sign == found.certificate.sign == 1


def test_a_residual_that_is_exactly_zero_has_no_witness() -> None:
    found = numeric_witness(sympy.sin(Z)**2 + sympy.cos(Z)**2 - 1, [Z], samples=64,
                            high_precision_points=8, certify=4)
    assert found.witness is None and found.certificate is None
