"""The kernel's relations compare both sides (l − r, never l alone), exactly at a rational point and
by balls over a box, and its exact path is taken whenever every variable has a rational value."""
from fractions import Fraction

import pytest
from flint import arb

from symcheck.kernel.evaluate import Unknown, _lambertw, enclose, exact_truth, precision, truth_over
from symcheck.kernel.points import q as fq

Z = ("var", "z")


def rel(head, left, right):
    return (head, left, right)


def integer(n):
    return ("int", n)


# z against 2: every relation's truth depends on the right side, which a slip l − r → l drops
CASES = [("gt", 1, False), ("gt", 3, True), ("ge", 2, True), ("lt", 3, False), ("lt", 1, True),
         ("le", 2, True), ("eq", 2, True), ("eq", 1, False), ("ne", 1, True), ("ne", 2, False)]


@pytest.mark.parametrize("head, value, truth", CASES)
def test_exact_truth_compares_with_the_right_side(head, value, truth):
    assert exact_truth(rel(head, Z, integer(2)), {"z": Fraction(value)}) is truth


# over a box only what holds on all of it is decided: z in a small ball about 1 or 3, against 2
BOX_CASES = [(h, v, t) for h, v, t in CASES if v != 2 and h != "eq"]


@pytest.mark.parametrize("head, value, truth", BOX_CASES)
def test_truth_over_a_box_compares_with_the_right_side(head, value, truth):
    with precision(64):
        ball = arb(value, Fraction(1, 1000).__float__())
        assert truth_over(rel(head, Z, integer(2)), {"z": ball}, None) is truth


@pytest.mark.parametrize("head, truth", [("eq", True), ("ne", False), ("ge", True), ("gt", False)])
def test_an_equality_at_a_rational_point_is_decided_exactly(head, truth):
    """3z = 1 at z = 1/3: a ball for 1/3 has a radius, so only the exact path decides it."""
    lhs = ("mul", integer(3), Z)
    with precision(64):
        ball = arb(fq(Fraction(1, 3)))
        assert not ball.is_exact()
        assert truth_over(rel(head, lhs, integer(1)), {"z": ball}, {"z": Fraction(1, 3)}) is truth


def test_arithmetic_at_a_rational_point_is_exact():
    node = ("add", ("mul", integer(3), Z), integer(-1))
    with precision(64):
        value = enclose(node, {"z": arb(fq(Fraction(1, 3)))}, {"z": Fraction(1, 3)})
    assert value.is_exact() and value == 0


def test_lambertw_on_its_domain_and_off_it():
    with precision(64):
        w = _lambertw(arb(-1) / 4)  # −1/4 ≥ −1/e: W(−1/4) ≈ −0.357
        assert w < 0 and w > arb(-1) / 2
        assert _lambertw(arb(0)) == 0
        for outside in (arb(-1), arb(-1) / 2, -1 / arb.const_e() - arb(1) / 1000):
            with pytest.raises(Unknown):
                _lambertw(outside)


def test_a_variable_against_a_rational_at_that_point_is_decided_exactly():
    """z = 1/3 at z = 1/3: neither side is arithmetic, so no exact enclosure helps; the relation's
    own exact path must decide it (the balls for z and 1/3 both have radii)."""
    third = ("rat", 1, 3)
    with precision(64):
        point = {"z": arb(fq(Fraction(1, 3)))}
        assert truth_over(rel("eq", Z, third), point, {"z": Fraction(1, 3)}) is True
        assert truth_over(rel("le", Z, third), point, {"z": Fraction(1, 3)}) is True
        assert truth_over(rel("eq", Z, third), point, None) is None  # no exact values: undecided
