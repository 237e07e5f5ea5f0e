"""The kernel's parts alone: Sturm counts, exact points, enclosures, signs, the normal form, the matcher."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, fmpq, fmpq_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import check
from symcheck.kernel.evaluate import enclose, precision
from symcheck.kernel.normal import Form, normalised
from symcheck.kernel.points import compare, count_open, parse_point
from symcheck.kernel.rules import RULES, match
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import parse_expr
from symcheck.kernel.verdict import Reject

from support.kernel_certificates import SCHEMA, Chain, I, Z, add, leaf, mul, neg, pw

ROOT2 = ["root", [-2, 0, 1], [I(1), I(2)]]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=5, unique=True), st.integers(-7, 7), st.integers(1, 8))
def test_sturm_counts_the_distinct_roots_strictly_inside(roots, a, width):
    p = fmpq_poly([1])
    for r in roots:
        p *= fmpq_poly([-r, 1]) ** (1 + (r % 2))   # some roots double
    lo, hi = Fraction(a), Fraction(a + width)
    assert count_open(p, lo, hi) == sum(1 for r in roots if lo < r < hi)
    assert count_open(p, "-inf", "inf") == len(roots)


def test_algebraic_points_compare_exactly():
    assert compare(parse_point(ROOT2), parse_point(["rat", 1414213562373095, 10 ** 15])) == 1
    assert compare(parse_point(ROOT2), parse_point(["rat", 1414213562373096, 10 ** 15])) == -1
    # √2 given by z⁴ − 4 (isolated in [1, 3/2]) is the same number
    assert compare(parse_point(ROOT2), parse_point(["root", [-4, 0, 0, 0, 1], [I(1), ["rat", 3, 2]]])) == 0
    assert compare("-inf", parse_point(I(0))) == -1 and compare("inf", "inf") == 0


@pytest.mark.parametrize("interval", [[I(-2), I(2)], [I(2), I(3)], [I(2), I(1)]])
def test_an_interval_without_exactly_one_root_is_refused(interval):
    with pytest.raises(Reject):
        parse_point(["root", [-2, 0, 1], interval])


def test_even_powers_of_a_ball_across_zero_enclose_the_true_range():
    with precision(64):
        x = enclose(parse_expr(["pow", Z, I(2)]), {"z": arb(fmpq(-2)).union(arb(fmpq(1)))}, None)
    assert x.contains(0) and x.contains(4) and x.upper() < 4.01


def box(lo, hi):
    return {"z": ("open", parse_point(lo), parse_point(hi))}


def test_each_sign_argument_proves_what_it_should_and_refuses_a_false_claim():
    g = add(["pow", Z, I(2)], I(-2))
    assert prove_sign(parse_expr(g), "pos", box(ROOT2, "inf"), "roots") == "roots"
    assert prove_sign(parse_expr(["exp", Z]), "pos", box("-inf", "inf"), "structure") == "structure"
    assert prove_sign(parse_expr(add(["exp", Z], I(-1))), "pos", box(I(0), I(1)), "monotone") == "monotone"
    assert prove_sign(parse_expr(["sin", Z]), "pos", box(["rat", 1, 10], I(3)), "enclosure") == "enclosure"
    for claim, by in (("neg", "roots"), ("neg", "structure"), ("neg", "monotone"), ("neg", "enclosure"),
                      ("zero", None)):
        with pytest.raises(Reject):
            prove_sign(parse_expr(add(["exp", Z], I(-1))), claim, box(I(0), I(1)), by)
    with pytest.raises(Reject):  # sin(z) is 0 at π, inside (1/10, 4)
        prove_sign(parse_expr(["sin", Z]), "pos", box(["rat", 1, 10], I(4)))


def test_the_normal_form_needs_an_exact_zero():
    tiny = parse_expr(add(["exp", Z], neg(["exp", Z]), ["rat", 1, 10 ** 100]))
    assert not Form(tiny).of(tiny)[0].is_zero()
    atoms = parse_expr(add(["exp", add(Z, I(1))], neg(["exp", add(I(1), Z)])))
    assert Form(atoms).of(atoms)[0].is_zero()   # the same atom up to the order of a sum
    other = parse_expr(add(["exp", add(Z, Z)], neg(["exp", mul(I(2), Z)])))
    assert not Form(other).of(other)[0].is_zero()   # exp(z+z), exp(2z): two atoms until a ring step


def test_a_negative_power_of_zero_is_refused():
    e = parse_expr(["pow", add(Z, neg(Z)), I(-1)])
    with pytest.raises(Reject):
        Form(e).of(e)


def test_matching_binds_the_rest_of_a_sum_and_checks_repeated_variables():
    b = {}
    assert match(RULES["exp_add"].lhs, parse_expr(["exp", add(Z, I(1), I(2))]), b)
    assert b["y"] == ("add", ("int", 1), ("int", 2))
    assert not match(("add", "x", "x"), parse_expr(add(Z, I(1))), {})
    assert not match(RULES["exp_int"].lhs, parse_expr(["exp", mul(["rat", 1, 2], Z)]), {})


def test_a_step_inside_a_piecewise_value_is_checked():
    expr = pw((add(["erfc", Z], ["erf", Z], I(-1)), ["gt", Z, I(0)]), (I(0), ["true"]))
    chain = Chain(expr).step("erfc_erf", [1, 0, 1], add(I(1), neg(["erf", Z]))).branch([], 0)
    cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": [["open", I(0), "inf"]]}},
            "proof": leaf(chain)}
    assert check(cert).accepted
    cert["proof"]["steps"][0]["after"][1][0][1] = ["erf", Z]
    assert not check(cert).accepted


def test_relations_decided_at_an_algebraic_point():
    # at z = √2: z² − 2 = 0 exactly, so "z² ≥ 2" holds and "z² > 2" does not
    expr = pw((I(0), ["gt", ["pow", Z, I(2)], I(2)]), (I(0), ["ge", ["pow", Z, I(2)], I(2)]), (I(1), ["true"]))
    good = Chain(expr).branch([], 1)
    cert = {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"z": [["point", ROOT2]]}},
            "proof": leaf(good)}
    assert check(cert).accepted, check(cert)
    cert["proof"] = leaf(Chain(expr).branch([], 0))
    assert not check(cert).accepted


@settings(max_examples=60, deadline=None)
@given(st.integers(-50, 50), st.integers(-9, 9).filter(bool))
def test_the_normal_form_of_a_constant_is_that_constant(p, q):
    """A tree with no generator still lives in a one-variable ring (flint needs one): its unused
    exponent must not be read against a generator (the tree would be lost, or zip(strict) raise)."""
    c = fmpq(p, q)
    expected = ("int", int(c.p)) if c.q == 1 else ("rat", int(c.p), int(c.q))
    assert normalised(("mul", ("int", p), ("pow", ("int", q), ("int", -1)))) == expected
