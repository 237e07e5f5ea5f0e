"""floor and ceiling in the second-opinion enclosures (``intervals.Enclosure``): exact for an
exact argument and for an interval whose ends have the same floor; otherwise the interval of the
integers between the floors of its ends — never one integer guessed from one end. A slip that
compares an end with itself would turn floor([3/2, 5/2]) into 1, a value 2 of the interval
does not have. Checked on dyadic ends, whose floors are exact rational arithmetic."""
from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from test_interval_helpers import _mpf  # exact dyadic ends
from test_interval_helpers import _value as _end

from symcheck.exact.intervals import Enclosure

quarters = st.integers(-40, 40).map(lambda n: Fraction(n, 4))


def _value(x: object) -> Fraction | tuple[Fraction, Fraction]:
    return x if isinstance(x, Fraction) else (_end(x[0]), _end(x[1]))


@given(quarters, quarters)
def test_floor_and_ceiling_of_an_interval_hold_every_integer_between_its_ends(a, b) -> None:
    lo, hi = min(a, b), max(a, b)
    if lo == hi:
        return
    E = Enclosure(64)
    x = (_mpf(lo), _mpf(hi))
    for f, name in ((math.floor, "floor"), (math.ceil, "ceiling")):
        got = _value(getattr(E, name)(x))
        first, last = f(lo), f(hi)
        if first == last:
            assert got == Fraction(first), (name, lo, hi, got)
        else:
            assert got == (Fraction(first), Fraction(last)), (name, lo, hi, got)


def test_floor_of_an_exact_value_is_exact() -> None:
    E = Enclosure(64)
    assert E.floor(Fraction(7, 2)) == 3 and E.floor(Fraction(-7, 2)) == -4
    assert E.ceiling(Fraction(7, 2)) == 4 and E.ceiling(Fraction(-7, 2)) == -3
