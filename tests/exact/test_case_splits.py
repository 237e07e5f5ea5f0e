"""Case splits decide each branch condition exactly, at the cut points as well as between them.

These pin the places where a one-character edit would give a wrong proof: a strict relation
read as a weak one exactly at its cut point, a pole that is not a cut point, a root that
cannot be placed being skipped, a sample taken on the end of its region.
"""
from __future__ import annotations

import operator

import pytest
import sympy
from sympy import S

from symcheck.core.budget import Budget
from symcheck.exact.regions import Region, Undecided, roots_inside, split
from symcheck.language.symbols import Z

RELATIONS = {
    ">": sympy.StrictGreaterThan, ">=": sympy.GreaterThan, "<": sympy.StrictLessThan,
    "<=": sympy.LessThan, "==": sympy.Eq, "!=": sympy.Ne,
}
PYTHON = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
          "==": operator.eq, "!=": operator.ne}


def values_by_region(expr: sympy.Expr) -> dict[str, sympy.Expr]:
    pieces = split(expr, Z, Budget(60), cuts=())
    assert all(p.branch_free for p in pieces)
    return {p.region.describe(): p.expr for p in pieces}


@pytest.mark.parametrize("rel", list(RELATIONS))
@pytest.mark.parametrize("cut", [S.One, sympy.sqrt(2), -S(3) / 2])
def test_each_relation_is_decided_at_its_cut_point_and_on_both_sides(rel: str, cut: sympy.Expr) -> None:
    """σ = [z rel c]: its value on every piece is the truth of the relation there."""
    values = values_by_region(sympy.Piecewise((1, RELATIONS[rel](Z, cut)), (0, True)))
    expected = {
        f"z < {sympy.sstr(cut)}": int(PYTHON[rel](-1, 0)),
        f"z = {sympy.sstr(cut)}": int(PYTHON[rel](0, 0)),
        f"z > {sympy.sstr(cut)}": int(PYTHON[rel](1, 0)),
    }
    assert values == expected


@pytest.mark.parametrize("rel", list(RELATIONS))
def test_each_relation_is_decided_at_a_transcendental_cut_point(rel: str) -> None:
    """exp(z) rel e cuts at z = 1 (a monotone condition), and decides the point itself."""
    values = values_by_region(sympy.Piecewise((1, RELATIONS[rel](sympy.exp(Z), sympy.E)), (0, True)))
    assert values == {"z < 1": int(PYTHON[rel](-1, 0)), "z = 1": int(PYTHON[rel](0, 0)),
                      "z > 1": int(PYTHON[rel](1, 0))}


@pytest.mark.parametrize(("f", "region", "points"), [
    (1 / (Z - 1), Region(S.Zero, S(2)), {S.One}),
    ((Z - 2) / (Z - 1), Region(S.Zero, S(3)), {S.One, S(2)}),
    (Z + 1 / (Z**2 - 2), Region(-S.Infinity, S.Infinity), None),
])
def test_poles_are_cut_points(f: sympy.Expr, region: Region, points) -> None:
    """f changes sign across a pole without a zero: the pole must be among the cut points."""
    found = set(roots_inside(f, Z, region))
    if points is None:  # z + 1/(z² − 2): poles at ±√2
        assert {sympy.sqrt(2), -sympy.sqrt(2)} <= found
    else:
        assert points <= found


def test_a_condition_that_changes_sign_at_a_pole_is_decided_on_each_side() -> None:
    values = values_by_region(sympy.Piecewise((1, 1 / (Z - 1) + 0 * Z > 0), (0, True)) * (Z - 1))
    assert values["0 < z < 1"] == 0 if "0 < z < 1" in values else values["z < 1"] == 0
    assert values["z > 1"] == Z - 1


@pytest.mark.parametrize("g", [sympy.sin(Z), sympy.cos(Z) - S.Half, sympy.sin(Z) * Z])
def test_roots_that_cannot_be_placed_are_refused_not_skipped(g: sympy.Expr) -> None:
    """Infinitely many roots on a half-line: no finite set of cut points is complete."""
    with pytest.raises(Undecided):
        list(roots_inside(g, Z, Region(S.Zero, S.Infinity)))


def test_an_uncut_condition_keeps_every_branch() -> None:
    """sin(z) > 0 on z > 0 cannot be cut finitely: the piece keeps both branches."""
    pieces = split(sympy.Piecewise((Z, sympy.sin(Z) > 0), (2 * Z, True)), Z, Budget(60))
    right = [p for p in pieces if p.region.describe() == "z > 0"]
    assert len(right) == 1
    assert set(right[0].alternatives) == {Z, 2 * Z}
    assert not right[0].branch_free


@pytest.mark.parametrize("region", [
    Region(-S.Infinity, S(3) / 2), Region(S(3) / 2, S.Infinity), Region(S(3) / 2, S(2)),
    Region(-S.Infinity, S.Zero), Region(S.Zero, S.Infinity), Region(-S(7) / 2, -S(5) / 2),
    Region(sympy.sqrt(2), S.Infinity), Region(-S.Infinity, -sympy.sqrt(2)),
])
def test_samples_lie_strictly_inside_their_region(region: Region) -> None:
    """A sample on an end would decide the sign of a condition for the wrong points."""
    samples = region.samples(12)
    assert samples
    for q in samples:
        assert q.is_Rational
        assert (region.lower == -S.Infinity or q > region.lower)
        assert (region.upper == S.Infinity or q < region.upper)
    assert samples[0] == region.sample()


def test_a_point_region_samples_only_itself() -> None:
    assert Region(S(3) / 2, S(3) / 2).samples() == [S(3) / 2]
    assert Region(sympy.sqrt(2), sympy.sqrt(2)).samples() == []


def test_samples_of_a_region_narrower_than_64_bits_lie_inside() -> None:
    """The width 1 − cos(e^-40) ≈ 10^-35 is not certified positive at 64 bits: the next
    precision decides it; the samples are strictly inside."""
    region = Region(S.Zero, 1 - sympy.cos(sympy.exp(-40)))
    samples = region.samples(3)
    assert samples
    for q in samples:
        assert q > 0 and sympy.Rational(10)**-36 < q < sympy.Rational(10)**-34


@pytest.mark.parametrize("cuts", [(), (S.Zero,), (-S.One, S.One), (-S.One, S.Half, S(2))],
                         ids=["none", "zero", "both-roots-seeded", "three-seeded"])
def test_two_cut_points_that_arrive_together_split_into_all_their_cases(cuts: tuple) -> None:
    """z² < 1 cuts R at −1 and 1 at once (and seeds may add more): every case is decided,
    none is refused for cut points whose order is certified."""
    pieces = split(sympy.Piecewise((0, Z**2 < 1), (Z, True)), Z, Budget(60), cuts=cuts)
    assert all(p.branch_free for p in pieces)
    for p in pieces:
        q = p.region.lower if p.region.is_point else p.region.sample()
        assert p.expr.subs(Z, q) == (0 if q**2 < 1 else q), p.region.describe()
    described = [p.region.describe() for p in pieces]
    assert {"z = -1", "z = 1"} <= set(described)


@pytest.mark.parametrize(("region", "condition"), [
    (Region(S.One, S.One), sympy.Eq(Z, 1)),
    (Region(-S.Infinity, S.Infinity), S.true),
    (Region(S.One, S.Infinity), sympy.StrictGreaterThan(Z, 1)),
    (Region(-S.Infinity, S(2)), sympy.StrictLessThan(Z, 2)),
    (Region(S.One, S(2)), sympy.And(sympy.StrictGreaterThan(Z, 1), sympy.StrictLessThan(Z, 2))),
])
def test_a_region_as_a_condition_is_exactly_the_open_interval(region, condition) -> None:
    """Strict at both ends: the end points are regions of their own."""
    assert region.condition(Z) == condition
    for q in (S.Zero, S.One, S(3) / 2, S(2), S(5)):
        inside = region.is_point and q == region.lower or (
            not region.is_point and (region.lower == -S.Infinity or bool(q > region.lower))
            and (region.upper == S.Infinity or bool(q < region.upper)))
        assert bool(region.condition(Z).subs(Z, q)) is inside


@pytest.mark.parametrize(("values", "conjunction", "disjunction"), [
    ([True, True], True, True), ([True, False], False, True), ([False, False], False, False),
    ([True, None], None, True), ([False, None], False, None), ([None, None], None, None),
    ([None, True, True], None, True), ([None, False, True], False, True),
])
def test_and_and_or_of_three_valued_truths(values, conjunction, disjunction) -> None:
    """An undecided part (None) leaves And and Or undecided unless another part settles them."""
    from symcheck.exact.regions import _three_valued
    parts = [Z > k for k in range(len(values))]
    assert _three_valued(sympy.And(*parts), values) is conjunction
    assert _three_valued(sympy.Or(*parts), values) is disjunction


def test_a_region_too_narrow_for_any_certified_rational_has_no_sample() -> None:
    """(3, log(e³ + e^-1000000)) is non-empty, but no enclosure measures its width: no rational
    is certified inside, and sample() refuses rather than return a point from elsewhere."""
    region = Region(S(3), sympy.log(sympy.exp(3) + sympy.exp(-10**6)))
    assert region.samples() == []
    with pytest.raises(Undecided, match="no rational point found"):
        region.sample()


def test_cut_points_equal_in_value_but_written_differently_make_no_empty_region() -> None:
    """1 + √2 and √(3 + 2√2) are the same number: the split refuses (it cannot order them) or
    keeps one; an open region between them would be empty, no part of a partition of R."""
    cuts = (1 + sympy.sqrt(2), sympy.sqrt(3 + 2 * sympy.sqrt(2)))
    try:
        pieces = split(Z**2, Z, Budget(60), cuts=cuts)
    except Undecided:
        return
    from symcheck.exact.signs import certified_order
    for p in pieces:
        assert p.region.is_point or certified_order(p.region.upper, p.region.lower) > 0, p.region


def test_a_piecewise_with_no_branch_on_a_region_is_refused() -> None:
    """Piecewise((1, z > 0)) has no value for z <= 0: no branch applies there."""
    with pytest.raises(Undecided, match="no branch"):
        split(sympy.Piecewise((1, Z > 0)), Z, Budget(60))


@pytest.mark.parametrize(("region", "condition"), [
    (Region(-S.Infinity, S(2)), lambda w: sympy.StrictLessThan(w, 2)),
    (Region(S(2), S.Infinity), lambda w: sympy.StrictGreaterThan(w, 2)),
    (Region(-S.Infinity, S.Infinity), lambda w: S.true),
])
def test_a_condition_names_only_the_finite_ends(region, condition) -> None:
    """For a variable that may be ±oo (extended real) SymPy keeps w > -oo as written: an
    infinite end must not appear in the condition at all."""
    w = sympy.Symbol("w", extended_real=True)
    assert region.condition(w) == condition(w)


@pytest.mark.parametrize(("cond", "expected"), [
    (~(sympy.sin(Z) > 0), {0, 1}),                            # Not of an uncut condition
    (sympy.Xor(sympy.sin(Z) > 0, Z > 1), {0, 1}),              # Xor with one part uncut
    ((sympy.sin(Z) > 0) & (Z > 1), {0, 1}),                    # And: the other part is true
    ((sympy.sin(Z) > 0) | (Z < 1), {0, 1}),                    # Or: the other part is false
    ((sympy.sin(Z) > 0) & (Z < 1), {0}),                       # And settled by a false part
    ((sympy.sin(Z) > 0) | (Z > 1), {1}),                       # Or settled by a true part
])
def test_an_uncut_part_leaves_a_condition_undecided_unless_another_part_settles_it(cond, expected) -> None:
    """sin z > 0 cannot be cut on z > 1: a condition built on it keeps both branches there,
    unless another part decides it whatever sin z > 0 is."""
    pieces = split(sympy.Piecewise((1, cond), (0, True)), Z, Budget(60))
    right = [p for p in pieces if p.region == Region(S.One, S.Infinity) or p.region == Region(S.Zero, S.Infinity)]
    assert right, [p.region for p in pieces]
    assert set(right[-1].alternatives) == expected


@pytest.mark.parametrize(("cond", "inside", "outside"), [
    ((Z > 1) & (Z < 2), S(3) / 2, S(5) / 2),
    ((Z < 1) | (Z > 2), S(5) / 2, S(3) / 2),
])
def test_and_and_or_of_conditions_with_their_own_cut_points(cond, inside, outside) -> None:
    """Both parts of z > 1 ∧ z < 2 need a cut inside (0, oo): the region is cut at 1 and 2 and
    each piece decided, never decided from the parts that needed no cut."""
    pieces = split(sympy.Piecewise((1, cond), (0, True)), Z, Budget(60))
    assert all(p.branch_free for p in pieces)
    for p in pieces:
        q = p.region.lower if p.region.is_point else p.region.sample()
        assert p.expr == (1 if bool(cond.subs(Z, q)) else 0), p.region
    described = {p.region.describe() for p in pieces}
    assert {"z = 1", "z = 2", "1 < z < 2"} <= described


@pytest.mark.parametrize(("cond", "values", "truth"), [
    (sympy.ITE(Z > 0, Z > 1, Z > 2), [None, True, True], True),    # both branches agree
    (sympy.ITE(Z > 0, Z > 1, Z > 2), [None, False, False], False),
    (sympy.ITE(Z > 0, Z > 1, Z > 2), [None, True, False], None),   # they differ
    (sympy.ITE(Z > 0, Z > 1, Z > 2), [True, False, True], False),   # decided test: its branch
    (sympy.ITE(Z > 0, Z > 1, Z > 2), [False, False, True], True),
    (sympy.Xor(Z > 0, Z > 1), [None, True], None), (sympy.Xor(Z > 0, Z > 1), [True, True], False),
    (sympy.Xor(Z > 0, Z > 1), [False, True], True),
])
def test_not_xor_and_ite_of_three_valued_truths(cond, values, truth) -> None:
    """An undecided part (None) decides an ITE only when both its branches agree; Xor stays
    undecided. (SymPy turns Not of a relation into the opposite relation.)"""
    from symcheck.exact.regions import _three_valued
    assert _three_valued(cond, values) is truth
