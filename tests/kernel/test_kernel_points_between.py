"""The kernel's rational between two points (±∞ included), its Sturm counts' ends, and a tree
read as a polynomial: the cases the types separate (a finite Point, the strings "-inf"/"inf")."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import fmpq_poly
from hypothesis import given
from hypothesis import strategies as st

from symcheck.kernel.evaluate import exact
from symcheck.kernel.points import INF, NEG_INF, between, count_open, q, rational_point
from symcheck.kernel.signs import as_poly
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

rationals = st.fractions(min_value=-50, max_value=50, max_denominator=9)


@given(a=rationals, b=rationals)
def test_a_rational_strictly_between_two_rational_points(a: Fraction, b: Fraction) -> None:
    lo, hi = sorted((a, b))
    if lo == hi:
        return
    assert lo < between(rational_point(lo), rational_point(hi)) < hi


@given(a=rationals)
def test_a_rational_strictly_between_a_point_and_an_infinite_end(a: Fraction) -> None:
    assert between(rational_point(a), INF) > a
    assert between(NEG_INF, rational_point(a)) < a
    assert NEG_INF != between(NEG_INF, INF) != INF


@pytest.mark.parametrize("lo, hi", [(INF, NEG_INF), (INF, INF), (NEG_INF, NEG_INF)])
def test_infinite_ends_in_the_wrong_order_are_refused(lo: str, hi: str) -> None:
    with pytest.raises(Reject):
        between(lo, hi)


def test_a_sturm_end_that_is_neither_a_number_nor_an_infinity_is_refused() -> None:
    with pytest.raises(Reject):
        count_open(fmpq_poly([-2, 0, 1]), "nan", INF)


X = ["var", "x"]


@given(c=st.lists(st.integers(-9, 9), min_size=1, max_size=4), at=rationals)
def test_a_polynomial_tree_is_read_as_the_polynomial_it_is(c: list[int], at: Fraction) -> None:
    tree = parse_expr(["add", *(["mul", ["int", k], ["pow", X, ["int", i]]] for i, k in enumerate(c)),
                       ["int", 0]])
    poly = as_poly(tree, "x")
    assert poly is not None
    assert poly(q(at)) == q(exact(tree, {"x": at}))


@pytest.mark.parametrize("head", ["add", "mul"])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_a_sum_or_product_with_one_part_not_a_polynomial_is_none(head: str, position: int) -> None:
    parts = [X, ["int", 3], ["pow", X, ["int", 2]]]
    parts[position] = ["exp", X]
    assert as_poly(parse_expr([head, *parts]), "x") is None
