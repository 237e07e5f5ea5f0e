"""The numeric fallback only proposes: a candidate is a witness only with a certificate."""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from sympy import S

from symcheck.engine import fallback
from symcheck.exact.evaluate import certify_nonzero
from symcheck.engine.fallback import numeric_witness
from symcheck.exact.regions import Region
from symcheck.language.symbols import A, ALPHA, B, Z


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


# a point is proposed only inside its variable's domain: open intervals exclude their ends
_REGIONS = {
    "positive": (Region(S.Zero, S.Infinity),),
    "negative": (Region(-S.Infinity, S.Zero),),
    "any": (Region(-S.Infinity, S.Zero), Region(S.Zero, S.Infinity)),
    "(1, 3)": (Region(S.One, S(3)),),
    "{2}": (Region(S(2), S(2)),),
}


@pytest.mark.parametrize(("name", "q", "inside"), [
    ("positive", Fraction(1, 2), True), ("positive", Fraction(0), False), ("positive", Fraction(-1), False),
    ("negative", Fraction(-3), True), ("negative", Fraction(0), False), ("negative", Fraction(1), False),
    ("any", Fraction(0), False), ("any", Fraction(-1), True), ("any", Fraction(7), True),
    ("(1, 3)", Fraction(2), True), ("(1, 3)", Fraction(1), False), ("(1, 3)", Fraction(3), False),
    ("(1, 3)", Fraction(4), False), ("(1, 3)", Fraction(0), False),
    ("{2}", Fraction(2), True), ("{2}", Fraction(3), False), ("{2}", Fraction(1), False),
])
def test_a_point_is_inside_a_domain_exactly_when_it_lies_in_one_of_its_regions(name, q, inside) -> None:
    assert fallback._inside(q, _REGIONS[name]) is inside


def test_a_found_witness_lies_in_the_domain() -> None:
    """α·a is non-zero almost everywhere; for α > 0 the witness must have α > 0."""
    for name in ("positive", "negative", "(1, 3)", "{2}"):
        found = numeric_witness(ALPHA * A, [A, ALPHA], {ALPHA: _REGIONS[name]}, samples=64,
                                high_precision_points=8, certify=4)
        assert found.witness is not None
        q = found.witness[ALPHA]
        assert fallback._inside(Fraction(int(q.p), int(q.q)), _REGIONS[name]), (name, q)


@pytest.mark.parametrize("spec", [[1, 2], ["positive"], (Region(S.Zero, S.One), "any")])
def test_a_domain_that_is_not_regions_is_a_type_error(spec) -> None:
    with pytest.raises(TypeError, match="a domain is a Region, regions, a name or a number"):
        fallback.domain_regions(spec)
