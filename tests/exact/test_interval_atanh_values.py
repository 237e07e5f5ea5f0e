"""The second opinion's atanh off 0: atanh x = asinh(x/√((1 − x)(1 + x))) on (−1, 1).

Each factor 1 ∓ x is built from the exact 1 (a Fraction), so for a rational x the product stays
exact and for an interval x it is an outward-rounded interval. The enclosure must hold atanh
at every point of its argument (mpmath at 300 bits, compared exactly with the raw ends) and be
narrow; the exact 0 at x = 0 is pinned in test_interval_exact_values.py.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.exact.intervals import Enclosure, iv_rational

inside = st.fractions(min_value=Fraction(-63, 64), max_value=Fraction(63, 64), max_denominator=64)
PREC = 64


def _ends(value):
    """The raw ends as mpmath numbers, read at 300 bits (mpf() rounds to the context's precision)."""
    assert not isinstance(value, Fraction), value  # atanh off 0 is irrational
    with mpmath.workprec(300):
        return +mpmath.mpf(value[0]), +mpmath.mpf(value[1])


@settings(max_examples=150, deadline=None)
@given(x=inside.filter(lambda x: x != 0))
def test_atanh_at_a_rational_holds_the_value(x):
    lo, hi = _ends(Enclosure(PREC).atanh(x))
    with mpmath.workprec(300):
        value = mpmath.atanh(mpmath.mpf(x.numerator) / x.denominator)
        assert lo <= value <= hi, (x, lo, hi, value)
        assert hi - lo <= abs(value) * mpmath.mpf(2) ** -(PREC - 12)


@settings(max_examples=150, deadline=None)
@given(a=inside, b=inside)
def test_atanh_of_an_interval_holds_both_ends(a, b):
    """atanh is increasing: the enclosure over [a, b] holds atanh(a) and atanh(b)."""
    a, b = sorted((a, b))
    x = iv_rational(a, PREC)[0], iv_rational(b, PREC)[1]
    lo, hi = _ends(Enclosure(PREC).atanh(x))
    with mpmath.workprec(300):
        for end in (a, b):
            value = mpmath.atanh(mpmath.mpf(end.numerator) / end.denominator)
            assert lo <= value <= hi, (a, b, lo, hi, value)
