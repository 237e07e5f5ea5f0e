"""The second opinion's domain test (``Enclosure._check_domain``) at the ends of a domain.

asin and acos are defined on [−1, 1], acosh on [1, ∞) (closed), atanh on (−1, 1) (open). An
interval stands for an unknown point in it: the function is refused as undefined
(EvaluationError) only when every point is outside, and left undecided (Imprecise) when some
points are inside and some may not be. An interval whose end sits exactly on the domain's end
is where a slip shows (the enclosure of −1 + e^−3000 at 53 bits is [−1, −1 + 2^−52]).
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath.libmp import from_man_exp

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact.intervals import Enclosure

#: name -> (lower end, upper end (None: unbounded), closed)
DOMAINS = {"asin": (-1, 1, True), "acos": (-1, 1, True), "acosh": (1, None, True), "atanh": (-1, 1, False)}
widths = st.integers(1, 200).map(lambda k: Fraction(1, 2**k))


def _interval(a: Fraction, b: Fraction) -> tuple:
    def mpf(q: Fraction) -> tuple:
        exp = 0
        while q.denominator != 1:
            q, exp = q * 2, exp - 1
        return from_man_exp(int(q), exp)

    return mpf(a), mpf(b)


def _outcome(name: str, x: object) -> str:
    try:
        getattr(Enclosure(53), name)(x)
    except Imprecise:  # (an EvaluationError too: asked first)
        return "undecided"
    except EvaluationError:
        return "undefined"
    return "value"


def _ends(name: str) -> list[tuple[int, int]]:
    """Each finite end with the side the domain lies on (1: above it, −1: below it)."""
    low, high, _ = DOMAINS[name]
    return [(low, 1)] + ([(high, -1)] if high is not None else [])


@pytest.mark.parametrize("name", sorted(DOMAINS))
@given(width=widths)
def test_an_interval_touching_an_end_from_inside(name: str, width: Fraction) -> None:
    closed = DOMAINS[name][2]
    for end, side in _ends(name):
        a, b = sorted((Fraction(end), end + side * width))
        # every point is in a closed domain; an open one leaves the end itself undecided
        assert _outcome(name, _interval(a, b)) == ("value" if closed else "undecided"), (end, width)


@pytest.mark.parametrize("name", sorted(DOMAINS))
@given(width=widths)
def test_an_interval_touching_an_end_from_outside(name: str, width: Fraction) -> None:
    closed = DOMAINS[name][2]
    for end, side in _ends(name):
        a, b = sorted((Fraction(end), end - side * width))
        # only the end itself may be in the domain: undecided when it is, else undefined
        assert _outcome(name, _interval(a, b)) == ("undecided" if closed else "undefined"), (end, width)


@pytest.mark.parametrize("name", sorted(DOMAINS))
@given(width=widths)
def test_intervals_across_or_beyond_an_end(name: str, width: Fraction) -> None:
    for end, side in _ends(name):
        across = sorted((end - side * width, end + side * width))
        beyond = sorted((end - side * 2 * width, end - side * width))
        assert _outcome(name, _interval(*across)) == "undecided", (end, width)
        assert _outcome(name, _interval(*beyond)) == "undefined", (end, width)


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_exactly_at_an_end(name: str) -> None:
    closed = DOMAINS[name][2]
    for end, _ in _ends(name):
        assert _outcome(name, Fraction(end)) == ("value" if closed else "undefined")
