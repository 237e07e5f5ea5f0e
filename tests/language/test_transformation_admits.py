"""Transformation.admits: a witness is used only where it gives the map's scale a value certified
inside the map's domain (the audit and the layer check refuse a witness outside it)."""
from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from symcheck.language.symbols import ALPHA, BETA
from symcheck.language.transformations import Transformation, domain

rationals = st.fractions(min_value=-4, max_value=4, max_denominator=6)
INSIDE = {"positive": lambda r: r > 0, "negative": lambda r: r < 0, "any": lambda r: r != 0,
          "-1": lambda r: r == -1}


@given(name=st.sampled_from(sorted(INSIDE)), r=rationals | st.sampled_from([Fraction(-1), Fraction(0)]))
def test_a_scaling_admits_exactly_the_scales_inside_its_domain(name: str, r: Fraction) -> None:
    t = Transformation("inverse-scaling", domain(name))
    assert t.admits({ALPHA: sympy.Rational(r.numerator, r.denominator)}) is INSIDE[name](r)


@given(r=rationals)
def test_a_point_without_the_scale_is_not_admitted(r: Fraction) -> None:
    t = Transformation("key-value-rescaling", domain("any"))
    assert not t.admits({ALPHA: sympy.Rational(r.numerator, r.denominator)})  # β, not α, is its scale
    assert t.admits({BETA: sympy.Integer(1)})


def test_a_map_without_a_scale_admits_every_point() -> None:
    assert Transformation("exchange").admits({})
    assert Transformation("exchange").admits({ALPHA: sympy.Integer(0)})
