"""``probe.contained``: a parameter region of a nonzero-region claim lies inside its declared range.

A region is ``("open", lo, hi)`` or ``("point", p)``; which of the two ``inner`` is decides the
comparison (a point strictly between the open ends, or an open interval between them, ends
allowed to meet). Checked against the exact answer on rationals and ±∞ ends, and on algebraic
points (√2), for each shape of the pair.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import region_from
from symcheck.kernel.probe import contained

SQRT2 = ["root", [-2, 0, 1], [["int", 1], ["int", 2]]]
rationals = st.fractions(min_value=-4, max_value=4, max_denominator=4)
ends = st.one_of(rationals, st.sampled_from(["-inf", "inf"]))


def _json(x):
    if isinstance(x, str):
        return x
    return ["int", x.numerator] if x.denominator == 1 else ["rat", x.numerator, x.denominator]


def _rank(x):
    return {"-inf": -10**9, "inf": 10**9}.get(x, x) if isinstance(x, str) else x


@settings(max_examples=150, deadline=None)
@given(p=rationals, a=ends, b=ends)
def test_a_point_is_inside_an_open_region_exactly_when_strictly_between_its_ends(p, a, b):
    if not _rank(a) < _rank(b) or a == "inf" or b == "-inf":
        return
    outer = region_from(["open", _json(a), _json(b)])
    inner = region_from(["point", _json(p)])
    assert contained(inner, outer) is (_rank(a) < p < _rank(b)), (p, a, b)


@settings(max_examples=100, deadline=None)
@given(p=rationals, q=rationals, a=rationals, b=rationals)
def test_the_other_shapes(p, q, a, b):
    point_p, point_q = region_from(["point", _json(p)]), region_from(["point", _json(q)])
    assert contained(point_p, point_q) is (p == q)
    if a < b:
        interval = region_from(["open", _json(a), _json(b)])
        assert contained(interval, point_p) is False  # an open interval is never inside a point
        if p < q:
            inner = region_from(["open", _json(p), _json(q)])
            assert contained(inner, interval) is (a <= p and q <= b), (p, q, a, b)


def test_an_algebraic_point_and_ends():
    root2 = region_from(["point", SQRT2])
    assert contained(root2, region_from(["open", ["int", 1], ["rat", 3, 2]])) is True
    assert contained(root2, region_from(["open", ["rat", 3, 2], "inf"])) is False
    assert contained(root2, region_from(["open", "-inf", SQRT2])) is False  # the end itself is outside
    assert contained(root2, region_from(["open", SQRT2, "inf"])) is False
    assert contained(region_from(["point", ["int", 0]]), region_from(["open", "-inf", "inf"])) is True
