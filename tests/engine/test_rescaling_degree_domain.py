"""Query-value rescaling with a non-integer degree p is only a statement for α > 0.

α^p is not real for α < 0 when p is not an integer, so any domain that admits a negative α
gives inconclusive with the reason; a positive domain (or one positive number) is decided.
"""
from __future__ import annotations

import pytest
import sympy

from symcheck.engine.symmetries import check
from symcheck.language.transformations import Transformation, domain

HALF = sympy.Rational(1, 2)


@pytest.mark.parametrize("alpha", ["any", "negative", "-1", "-2"])
def test_a_domain_with_negative_alpha_is_refused(alpha: str) -> None:
    result = check("relu", Transformation("query-value-rescaling", domain(alpha), degree=HALF), timeout=20)
    assert result.verdict.value == "inconclusive"
    assert result.note == "α^1/2 is not real for negative α"


@pytest.mark.parametrize("alpha", ["positive", "2", "1/3"])
def test_a_positive_domain_is_decided(alpha: str) -> None:
    """relu is homogeneous of degree 1, not 1/2: broken, with a certified witness."""
    result = check("relu", Transformation("query-value-rescaling", domain(alpha), degree=HALF), timeout=20)
    assert result.verdict.value == "broken"
    assert result.witness is not None


def test_an_integer_degree_is_decided_for_every_alpha() -> None:
    result = check("relu", Transformation("query-value-rescaling", domain("any"), degree=sympy.Integer(2)), timeout=20)
    assert "not real" not in (result.note or "")
