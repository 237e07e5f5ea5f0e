"""A tangent changes sign at its poles without a zero: a case split must cut there too.
Each region the split decides to a single branch is checked against the condition at
interior rational points (mpmath at 50 digits, far from the poles: the oracle's sign is
never in doubt), so a split that cut only at the tangent's zeros would be caught claiming
one branch across π/2."""
from __future__ import annotations

import mpmath
import pytest
import sympy

from symcheck.core.budget import Budget
from symcheck.exact.regions import split
from symcheck.language.symbols import Z

CONDITIONS = [
    sympy.tan(Z) > 0,
    sympy.tan(Z) > 1,
    sympy.tan(Z / 2) + Z > 2,
    1 / sympy.tan(Z) + Z > 3,
    sympy.tan(2 * Z) < 0,
]


def _truth(cond: sympy.Basic, at: sympy.Rational) -> bool | None:
    """The condition's truth at a rational point, None when the two sides are too close."""
    with mpmath.workdps(50):
        lhs = sympy.lambdify(Z, cond.lhs - cond.rhs, "mpmath")(mpmath.mpf(at.p) / at.q)
        if abs(lhs) < mpmath.mpf(10) ** -8:
            return None
        return bool(lhs > 0) if isinstance(cond, (sympy.StrictGreaterThan, sympy.GreaterThan)) else bool(lhs < 0)


@pytest.mark.parametrize("cond", CONDITIONS, ids=str)
@pytest.mark.parametrize("cuts", [(1, 2), (0, 4), (-3, -1)])
def test_a_decided_region_never_spans_a_pole(cond, cuts) -> None:
    expr = sympy.Piecewise((1, cond), (0, True))
    pieces = split(expr, Z, Budget(60), cuts=[sympy.Integer(c) for c in cuts])
    checked = 0
    for piece in pieces:
        region = piece.region
        if len(piece.alternatives) != 1 or region.is_point or not (region.lower.is_finite and region.upper.is_finite):
            continue
        lo, hi = (sympy.Rational(str(sympy.N(e, 30))) for e in (region.lower, region.upper))
        for k in range(1, 20):
            at = lo + (hi - lo) * sympy.Rational(k, 20)
            truth = _truth(cond, at)
            if truth is not None:
                checked += 1
                assert piece.alternatives[0] == (1 if truth else 0), (region.describe(), at)
    if isinstance(cond.lhs, sympy.tan):  # a plain tangent is cut at its poles and zeros: decided
        assert checked > 0


def test_the_split_cuts_at_the_pole_between_two_seeds() -> None:
    pieces = split(sympy.Piecewise((1, sympy.tan(Z) > 0), (0, True)), Z, Budget(30),
                   cuts=[sympy.Integer(1), sympy.Integer(2)])
    assert any(p.region.is_point and p.region.lower == sympy.pi / 2 for p in pieces)
