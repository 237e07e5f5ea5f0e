"""An interval's irrational ends are bracketed by rationals a little beyond them. Far from 0
a 40-digit approximation is off by far more than 10⁻³⁰, so the step beyond must grow with the
end's magnitude: a fixed tiny step lands on the wrong side and the isolation gives up on a
plain polynomial between two far-away irrational ends."""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.exact.roots import _rational, roots_in
from symcheck.language.symbols import Z

IRRATIONALS = [sympy.sqrt(2), sympy.pi, sympy.E, sympy.log(3), sympy.sqrt(7) - 2]


@settings(max_examples=40, deadline=None)
@given(k=st.integers(0, 40), which=st.sampled_from(IRRATIONALS), sign=st.sampled_from([-1, 1]),
       direction=st.sampled_from([-1, 1]))
def test_a_far_end_is_bracketed_on_its_side(k, which, sign, direction) -> None:
    x = sign * (10**k + which)
    r = _rational(x, direction)
    q = sympy.Rational(r.numerator, r.denominator)
    gap = (q - x) * direction
    assert gap.evalf(80) > 0
    assert gap.evalf(80) <= abs(x).evalf(80) * sympy.Rational(1, 10**20)


def test_roots_between_far_irrational_ends_are_found() -> None:
    cuts = roots_in(Z**2 - 2, Z, -(10**20 + sympy.pi), 10**20 + sympy.sqrt(2))
    assert set(cuts.points) == {-sympy.sqrt(2), sympy.sqrt(2)}
