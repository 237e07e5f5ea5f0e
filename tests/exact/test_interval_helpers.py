"""The raw interval helpers under the second-opinion enclosures (symcheck.exact.intervals).

The kernels of sinh, tanh, atan and erf scale intervals by powers of two with ``_shift``
and join or compare them with ``_hull``, ``overlaps`` and ``signs``. Their intervals are only
a few ulps wide at the working precision, so an end lost there (``_shift`` returning the upper
end twice) escapes the enclosure tests unless a grid point of the final precision happens to
fall inside: each helper is specified here exactly, on dyadic ends whose truth is exact
rational arithmetic.
"""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from mpmath.libmp import from_man_exp, to_rational

from symcheck.exact import intervals

dyadics = st.builds(lambda man, exp: Fraction(man) * Fraction(2) ** exp,
                    st.integers(-(2**60), 2**60), st.integers(-80, 80))


def _mpf(q: Fraction) -> tuple:
    exp = 0
    while q.denominator != 1:  # dyadic: scale up to an integer mantissa
        q, exp = q * 2, exp - 1
    return from_man_exp(int(q), exp)


def _interval(a: Fraction, b: Fraction) -> tuple:
    return _mpf(min(a, b)), _mpf(max(a, b))


def _value(x: tuple) -> Fraction:
    return Fraction(*to_rational(x))


@given(dyadics, dyadics, st.integers(-70, 70))
def test_shift_multiplies_both_ends_by_a_power_of_two(a: Fraction, b: Fraction, n: int) -> None:
    lo, hi = intervals._shift(_interval(a, b), n)
    assert (_value(lo), _value(hi)) == (min(a, b) * Fraction(2) ** n, max(a, b) * Fraction(2) ** n)


@given(st.lists(st.tuples(dyadics, dyadics), min_size=1, max_size=4))
def test_hull_is_the_smallest_interval_holding_every_one(pairs: list[tuple[Fraction, Fraction]]) -> None:
    lo, hi = intervals._hull(*(_interval(a, b) for a, b in pairs))
    assert (_value(lo), _value(hi)) == (min(min(p) for p in pairs), max(max(p) for p in pairs))


@given(dyadics, dyadics, dyadics, dyadics)
def test_overlaps_exactly_when_a_point_is_shared(a: Fraction, b: Fraction, c: Fraction, d: Fraction) -> None:
    x, y = _interval(a, b), _interval(c, d)
    shared = max(min(a, b), min(c, d)) <= min(max(a, b), max(c, d))
    assert intervals.overlaps(x, y) is shared


@given(dyadics, dyadics)
def test_signs_are_the_signs_of_the_two_ends(a: Fraction, b: Fraction) -> None:
    def sign(q: Fraction) -> int:
        return (q > 0) - (q < 0)

    assert intervals.signs(_interval(a, b)) == (sign(min(a, b)), sign(max(a, b)))
