"""The second opinion's gamma (exact/intervals.py, behind recheck_sign): exact at the positive
integers, where Γ(n) = (n − 1)!, and an enclosure elsewhere on x > 0 — both held against mpmath."""
from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import given
from hypothesis import strategies as st

from symcheck.exact.intervals import Enclosure


@given(st.integers(1, 100), st.sampled_from([64, 200]))
def test_gamma_at_a_positive_integer_is_its_exact_value(n: int, prec: int) -> None:
    value = Enclosure(prec).gamma(Fraction(n))
    with mpmath.workdps(400):
        assert isinstance(value, Fraction) and value == int(mpmath.gamma(n)), (n, value)


@given(st.fractions(min_value=Fraction(1, 50), max_value=60, max_denominator=1000).filter(lambda q: q.denominator > 1))
def test_gamma_elsewhere_encloses_the_value(q: Fraction) -> None:
    lo, hi = (mpmath.mp.make_mpf(end) for end in Enclosure(128).gamma(Enclosure(128).exact(q)))
    with mpmath.workdps(120):
        assert lo <= mpmath.gamma(mpmath.mpf(q.numerator) / q.denominator) <= hi, q
