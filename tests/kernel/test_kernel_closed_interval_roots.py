"""count_closed counts the distinct roots in [a, b]: both ends included, a point interval
its own root or none. The kernel's point refinement and sign-of-a-root proofs read it, so a
root at either end left uncounted would let two roots pass for one (or one for none).
"""
from __future__ import annotations

from fractions import Fraction

from flint import fmpq_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.points import count_closed

ROOTS = st.lists(st.fractions(min_value=-4, max_value=4, max_denominator=6), min_size=1, max_size=5, unique=True)


def _poly(roots: list[Fraction], doubled: bool) -> fmpq_poly:
    p = fmpq_poly([1])
    for i, r in enumerate(roots):
        p *= fmpq_poly([-r.numerator, r.denominator]) ** (2 if doubled and i % 2 else 1)
    return p


@settings(max_examples=150, deadline=None)
@given(ROOTS, st.data(), st.booleans())
def test_closed_counts_include_a_root_at_either_end(roots, data, doubled):
    # ends drawn from the roots themselves as often as not, so an end root is the usual case
    ends = st.one_of(st.sampled_from(roots), st.fractions(min_value=-5, max_value=5, max_denominator=6))
    a, b = sorted((data.draw(ends), data.draw(ends)))
    expected = sum(1 for r in roots if a <= r <= b)
    assert count_closed(_poly(roots, doubled), a, b) == expected


def test_each_end_alone_is_counted() -> None:
    p = _poly([Fraction(0), Fraction(1)], False)      # roots 0 and 1
    assert count_closed(p, Fraction(0), Fraction(1, 2)) == 1   # root at a only
    assert count_closed(p, Fraction(1, 2), Fraction(1)) == 1   # root at b only
    assert count_closed(p, Fraction(0), Fraction(1)) == 2      # both ends
    assert count_closed(p, Fraction(1), Fraction(1)) == 1      # a point interval on a root
    assert count_closed(p, Fraction(1, 3), Fraction(1, 3)) == 0
