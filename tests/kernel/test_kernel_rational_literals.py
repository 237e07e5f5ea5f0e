"""``points.parse_number``: the one gate for a rational in a region end, a probe point or a
root's isolating interval.

``["rat", p, q]`` is exact only with p and q plain ints (not bool, float or str: ``type(v) is
int``), q > 1, and BOTH of p and q at most ``MAX_INT_BITS`` bits. A slip that starts either check
at the denominator leaves the numerator unchecked: a bool or float numerator slips through (or
crashes the kernel with an AttributeError instead of a Reject), and an over-long numerator is
accepted past the size limit every other integer in a certificate is held to.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import region_from
from symcheck.kernel.points import parse_number, parse_point
from symcheck.kernel.tree import MAX_INT_BITS
from symcheck.kernel.verdict import Reject

# ---------------------------------------------------------------- the numerator's type


@pytest.mark.parametrize("numerator", [True, False, 1.5, 3.0, "3", None, [3], Fraction(3)],
                         ids=repr)
def test_a_rational_with_a_numerator_that_is_not_an_int_is_rejected(numerator):
    """Only the numerator is wrong (the denominator 2 is a valid int > 1): Reject, not a value
    and not a crash."""
    with pytest.raises(Reject):
        parse_number(["rat", numerator, 2])


def test_a_bool_numerator_is_rejected_as_a_region_end_too():
    """True == 1 as a Python int, so a slip would read ['rat', True, 2] as 1/2."""
    with pytest.raises(Reject):
        region_from(["open", ["rat", True, 2], ["int", 1]])
    with pytest.raises(Reject):
        parse_point(["root", [-2, 0, 1], [["rat", True, 1 + 1], ["int", 2]]])


@pytest.mark.parametrize("denominator", [True, 2.0, "2", None], ids=repr)
def test_a_rational_with_a_denominator_that_is_not_an_int_is_rejected(denominator):
    with pytest.raises(Reject):
        parse_number(["rat", 1, denominator])


@settings(max_examples=200, deadline=None)
@given(p=st.integers(-10**6, 10**6), d=st.integers(2, 10**6))
def test_int_numerator_and_denominator_give_the_exact_fraction(p, d):
    assert parse_number(["rat", p, d]) == Fraction(p, d)


# ---------------------------------------------------------------- the numerator's size


@pytest.mark.parametrize("sign", [1, -1])
def test_a_numerator_over_the_bit_limit_is_rejected(sign):
    """2**MAX_INT_BITS has MAX_INT_BITS + 1 bits; the denominator 3 is small."""
    with pytest.raises(Reject):
        parse_number(["rat", sign * 2 ** MAX_INT_BITS, 3])


def test_a_numerator_at_the_bit_limit_is_accepted():
    big = 2 ** MAX_INT_BITS - 1  # exactly MAX_INT_BITS bits
    assert parse_number(["rat", big, 3]) == Fraction(big, 3)
    assert parse_number(["rat", -big, 3]) == Fraction(-big, 3)


@settings(max_examples=60, deadline=None)
@given(num_bits=st.integers(MAX_INT_BITS - 3, MAX_INT_BITS + 3),
       den_bits=st.integers(2, MAX_INT_BITS + 3), negative=st.booleans())
def test_a_rational_is_accepted_exactly_when_both_parts_fit(num_bits, den_bits, negative):
    """The numerator and the denominator are each held to MAX_INT_BITS, independently."""
    p = (-1) ** negative * (2 ** (num_bits - 1) + 1)  # exactly num_bits bits, odd
    d = 2 ** (den_bits - 1)  # exactly den_bits bits, > 1
    if num_bits <= MAX_INT_BITS and den_bits <= MAX_INT_BITS:
        assert parse_number(["rat", p, d]) == Fraction(p, d)
    else:
        with pytest.raises(Reject):
            parse_number(["rat", p, d])


def test_an_over_long_numerator_is_rejected_in_a_region_and_an_isolating_interval():
    with pytest.raises(Reject):
        region_from(["open", ["rat", -(2 ** MAX_INT_BITS), 3], ["int", 1]])
    with pytest.raises(Reject):  # sqrt 2 in [1, 2**4096 / 2**4095 = 2], with a too-long numerator
        parse_point(["root", [-2, 0, 1], [["int", 1], ["rat", 2 ** MAX_INT_BITS, 2 ** (MAX_INT_BITS - 1) + 1]]])
