"""An undecided comparison is never read as an answer.

A sample point whose position against a region's end cannot be certified is not "inside";
an independent re-check whose enclosure only touches 0 gives no sign. Either mistake lets a
value from the wrong place, or an unconfirmed sign, stand behind a verdict.
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.exact.evaluate import recheck_sign
from symcheck.exact.regions import Region
from symcheck.language.symbols import Z

# 3 + about e^-1000003: which side of it 3 lies on needs a million bits, so no certified
# comparison decides it (an exact rewrite such as log(8)/log(2) would be proved equal to 3)
THREE_AND_A_HAIR = sympy.log(sympy.exp(3) + sympy.exp(-10**6))


@pytest.mark.parametrize("region", [Region(THREE_AND_A_HAIR, S.Infinity), Region(S.NegativeInfinity, THREE_AND_A_HAIR),
                                    Region(THREE_AND_A_HAIR, S(10)), Region(S(-10), THREE_AND_A_HAIR)],
                         ids=["above", "below", "bounded-above", "bounded-below"])
def test_a_point_that_cannot_be_placed_against_an_end_is_not_inside(region: Region) -> None:
    assert region._contains(S(3)) is False
    assert S(3) not in region.samples(12)


def test_certified_points_are_still_inside() -> None:
    region = Region(THREE_AND_A_HAIR, S.Infinity)
    assert region._contains(S(4)) is True
    assert all(q > 3 for q in region.samples(12))


@pytest.mark.parametrize("expr", [sympy.Abs(sympy.sin(sympy.pi * Z)), sympy.Max(0, sympy.sin(sympy.pi * Z)),
                                  -sympy.Abs(sympy.sin(sympy.pi * Z))],
                         ids=["abs", "max", "minus-abs"])
def test_an_enclosure_that_touches_zero_has_no_sign_in_the_recheck(expr: sympy.Expr) -> None:
    """|sin(π)| = 0 exactly; its enclosure is [0, ε] (or [−ε, 0]): one end is 0, so no sign."""
    assert recheck_sign(expr, {Z: sympy.Integer(1)}, max_prec=256) is None


@pytest.mark.parametrize("expr, sign", [(sympy.Abs(sympy.sin(sympy.pi * Z)) + S(1) / 10**30, 1),
                                        (-sympy.Abs(sympy.sin(sympy.pi * Z)) - S(1) / 10**30, -1)])
def test_an_enclosure_away_from_zero_has_its_sign(expr: sympy.Expr, sign: int) -> None:
    assert recheck_sign(expr, {Z: sympy.Integer(1)}) == sign
