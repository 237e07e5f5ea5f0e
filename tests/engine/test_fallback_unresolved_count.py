"""The fallback's count of unresolved points: each point counted once.

A point whose float64 residual is lost in rounding goes to mpmath, at most
``high_precision_points`` of them; ``unresolved`` counts those mpmath could not resolve either,
plus those beyond the cap (never re-evaluated). On an identically zero residual every point is
lost in rounding at both precisions, so ``unresolved`` is exactly the number of points, whatever
the cap: a point is never counted both as re-evaluated and as beyond the cap.
"""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.verdict import Verdict
from symcheck.engine.fallback import numeric_witness
from symcheck.language.symbols import Z

# identically zero (atan(1/2) + atan(1/3) = π/4) but not to SymPy: rounding noise in float64
ZERO = (sympy.erf(Z) * (sympy.atan(sympy.Rational(1, 2)) + sympy.atan(sympy.Rational(1, 3)))
        - sympy.erf(Z) * sympy.pi / 4)


@settings(max_examples=25, deadline=None)
@given(samples=st.integers(16, 48), cap=st.integers(0, 64))
def test_every_unresolved_point_is_counted_once(samples: int, cap: int) -> None:
    found = numeric_witness(ZERO, [Z], samples=samples, high_precision_points=cap, certify=0)
    evidence = found.evidence
    assert found.verdict is Verdict.INCONCLUSIVE and found.witness is None
    assert evidence.float64 == evidence.points > 0
    assert evidence.high_precision == min(cap, evidence.points)
    assert evidence.unresolved == evidence.points


def test_the_points_beyond_the_cap_are_counted_as_unresolved() -> None:
    evidence = numeric_witness(ZERO, [Z], samples=40, high_precision_points=10, certify=0).evidence
    assert evidence.high_precision == 10
    assert evidence.unresolved == evidence.points == 40
