"""Three sign arguments of the kernel (``symcheck/kernel/signs.py``) prove exactly what they should:

* ``structure`` on a negative integer power drops the sign 0 of the base (z^−n is undefined at
  0, so it is never 0): z^−2 is positive and z^−1 nonzero on every region, also one holding 0;
* ``enclosure`` bisects a cell at its midpoint, so a sign that needs bisection is proved on a
  cell right of 0 and on one left of 0 (a cut at a/2 or b/2 instead leaves a sub-cell at least
  as wide as the cell, which never gets decided);
* ``factors`` takes each factor's fewest signs, also the weak ones (zero, nonneg, nonpos,
  nonzero) that structure, roots or a point give: z·0 written as (z − z)·exp(z) is proved zero.

Every value here is exact; each claim proved is true, and the refusals are of false claims.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import region_from
from symcheck.kernel.evaluate import enclose, precision
from symcheck.kernel.points import q
from symcheck.kernel.signs import enclosure_holds, factor_signs, prove_sign, signs_of
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

Z = ["var", "z"]
R = ["open", "-inf", "inf"]


def _box(region=R):
    return {"z": region_from(region)}


def _int(n):
    return ["int", n]


def _num(x):
    """A JSON number node for a Fraction/int."""
    x = Fraction(x)
    return ["int", x.numerator] if x.denominator == 1 else ["rat", x.numerator, x.denominator]


# ------------------------------------------------------------------ structure: z^−n is never 0

ENDS = st.one_of(st.just("-inf"), st.integers(-5, -1).map(_int), st.fractions(-3, 0).filter(lambda x: x < 0).map(_num))
UPPER = st.one_of(st.just("inf"), st.integers(1, 5).map(_int), st.fractions(0, 3).filter(lambda x: x > 0).map(_num))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), ENDS, UPPER)
def test_a_negative_power_of_a_variable_through_zero_is_never_zero(n, lo, hi):
    """On a region holding 0 the base z has every sign; z^−n has no sign 0 (undefined there)."""
    box = _box(["open", lo, hi])
    g = parse_expr(["pow", Z, _int(-n)])
    expected = frozenset({1}) if n % 2 == 0 else frozenset({-1, 1})
    assert signs_of(g, box) == expected
    claim = "pos" if n % 2 == 0 else "nonzero"
    assert prove_sign(g, claim, box, "structure") == "structure"


@pytest.mark.parametrize("n, claim", [(2, "pos"), (4, "pos"), (1, "nonzero"), (3, "nonzero")])
def test_the_structure_proof_of_a_negative_power_over_the_line(n, claim):
    g = parse_expr(["pow", Z, _int(-n)])
    assert prove_sign(g, claim, _box(), "structure") == "structure"
    with pytest.raises(Reject):  # z^−1 takes both signs; z^−2 is never negative
        prove_sign(g, "pos" if n % 2 else "neg", _box(), "structure")


def test_a_negative_power_of_a_sum_with_every_sign_is_never_zero():
    g = parse_expr(["pow", ["add", Z, _int(-1)], _int(-2)])
    assert signs_of(g, _box()) == frozenset({1})
    assert prove_sign(parse_expr(["mul", _int(3), ["pow", Z, _int(-2)]]), "pos", _box(), "structure") == "structure"


# ------------------------------------------------------------------ enclosure: the midpoint cut


def _shifted_square(c):
    """(z − c)² + 1/100 written out, z² − 2c·z + c² + 1/100: positive everywhere, but its
    naive interval enclosure over a cell around c holds negative values."""
    c = Fraction(c)
    return ["add", ["pow", Z, _int(2)], ["mul", _num(-2 * c), Z], _num(c * c + Fraction(1, 100))]


@pytest.mark.parametrize("lo, hi, c", [
    ("1/2", "2", 1),          # a cell right of 0 (a > 0): a cut at a/2 widens it to the left for ever
    ("-2", "-1/2", -1),       # a cell left of 0 (b < 0): a cut at b/2 widens it to the right for ever
    ("3/2", "2", "7/4"),      # a > b/2 > 0: a cut at b/2 leaves the right cell (b/2, b) ⊇ the cell
    ("-2", "-3/2", "-7/4"),   # a < a/2 < b < 0 mirrored
    ("1", "3", 2), ("-3", "-1", -2),
])
def test_a_sign_that_needs_bisection_is_proved_by_the_enclosure(lo, hi, c):
    region = ["open", _num(Fraction(lo)), _num(Fraction(hi))]
    g = parse_expr(_shifted_square(c))
    # one enclosure over the whole cell does not decide it: the cell must be split
    with precision(64):
        whole = enclose(g, {"z": arb(q(Fraction(lo))).union(arb(q(Fraction(hi))))}, None)
    assert not whole > 0
    assert enclosure_holds(g, {1}, _box(region))
    assert prove_sign(g, "pos", _box(region), "enclosure") == "enclosure"
    with pytest.raises(Reject):
        prove_sign(g, "neg", _box(region), "enclosure")


def test_a_two_variable_box_is_bisected_to_a_proof():
    """Both coordinates away from 0 (x in (1/2, 2), y in (−2, −1/2)): x² − 2x + y² + 2y + 5/2 > 0."""
    x, y = ["var", "x"], ["var", "y"]
    g = parse_expr(["add", ["pow", x, _int(2)], ["mul", _int(-2), x], ["pow", y, _int(2)], ["mul", _int(2), y],
                    ["rat", 5, 2]])
    box = {"x": region_from(["open", ["rat", 1, 2], _int(2)]), "y": region_from(["open", _int(-2), ["rat", -1, 2]])}
    assert prove_sign(g, "pos", box, "enclosure") == "enclosure"


# ------------------------------------------------------------------ factors: the weak claims

ZERO_SUM = ["add", Z, ["mul", _int(-1), Z]]   # z − z, identically 0 (the roots argument: the zero polynomial)


@pytest.mark.parametrize("factor, signs", [
    (ZERO_SUM, {0}),                                         # zero, by roots
    (["pow", Z, _int(2)], {0, 1}),                           # nonneg, by structure
    (["mul", _int(-1), ["pow", Z, _int(2)]], {-1, 0}),       # nonpos, by structure
    (["pow", Z, _int(-1)], {-1, 1}),                         # nonzero, by structure
    (["exp", Z], {1}),
    (["mul", _int(-1), ["exp", Z]], {-1}),
    (["sin", Z], {-1, 0, 1}),                                # nothing proves fewer
], ids=["zero", "nonneg", "nonpos", "nonzero", "pos", "neg", "all"])
def test_a_factor_gets_its_fewest_signs_over_the_line(factor, signs):
    assert factor_signs(parse_expr(factor), _box()) == frozenset(signs)


def test_a_factor_at_a_point_that_is_zero_has_the_sign_zero():
    assert factor_signs(parse_expr(["add", Z, _int(-1)]), {"z": region_from(["point", _int(1)])}) == frozenset({0})


@pytest.mark.parametrize("g, claim, false_claims", [
    (["mul", ZERO_SUM, ["exp", Z]], "zero", ("pos", "neg", "nonzero")),
    (["mul", ["pow", Z, _int(2)], ["exp", Z]], "nonneg", ("pos", "neg", "nonzero")),
    (["mul", ["mul", _int(-1), ["pow", Z, _int(2)]], ["exp", Z]], "nonpos", ("pos", "neg")),
    (["mul", ["pow", Z, _int(-1)], ["exp", Z]], "nonzero", ("pos", "neg", "zero")),
])
def test_the_factors_argument_proves_a_product_from_weak_factor_signs(g, claim, false_claims):
    node = parse_expr(g)
    assert prove_sign(node, claim, _box(), "factors") == "factors"
    for wrong in false_claims:
        with pytest.raises(Reject):
            prove_sign(node, wrong, _box(), "factors")


def test_a_product_with_an_identically_zero_factor_is_proved_zero_only_by_factors():
    """(z − z)·exp(z): the structure argument sees z − z with every sign; only factors proves 0."""
    node = parse_expr(["mul", ZERO_SUM, ["exp", Z]])
    assert prove_sign(node, "zero", _box()) == "factors"
    with pytest.raises(Reject):
        prove_sign(node, "zero", _box(), "structure")
