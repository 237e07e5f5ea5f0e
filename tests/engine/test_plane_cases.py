"""The two-variable decider chooses each branch by exactly the relation written, on the cut
line itself as well as on both sides, and proves only what holds on every case.
"""
from __future__ import annotations

from itertools import pairwise

import pytest
import sympy
from sympy import S

from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.plane import Case, _cut, decide_plane, scale_regions, whole_line
from symcheck.exact.regions import Region
from symcheck.exact.signs import Undecided, certified_order
from symcheck.language.symbols import ALPHA, A, B

SPACE = {A: whole_line(), B: whole_line()}

# [a rel 1]·b written with Heaviside steps whose value at 0 is the relation's value at a = 1
STEPS = {
    sympy.StrictGreaterThan: sympy.Heaviside(A - 1, 0), sympy.GreaterThan: sympy.Heaviside(A - 1, 1),
    sympy.StrictLessThan: sympy.Heaviside(1 - A, 0), sympy.LessThan: sympy.Heaviside(1 - A, 1),
    sympy.Eq: 1 - sympy.Heaviside(A - 1, 0) - sympy.Heaviside(1 - A, 0),
    sympy.Ne: sympy.Heaviside(A - 1, 0) + sympy.Heaviside(1 - A, 0),
}
# the relation that differs from each one only on the line a = 1
BOUNDARY_TWIN = {
    sympy.StrictGreaterThan: sympy.GreaterThan, sympy.GreaterThan: sympy.StrictGreaterThan,
    sympy.StrictLessThan: sympy.LessThan, sympy.LessThan: sympy.StrictLessThan,
    sympy.Eq: sympy.Ne, sympy.Ne: sympy.Eq,
}


@pytest.mark.parametrize("rel", list(STEPS), ids=lambda r: r.__name__)
def test_a_relation_agrees_with_its_step_function_everywhere(rel) -> None:
    """Holds: the branch on the line a = 1 is decided exactly as the relation says."""
    decision = decide_plane(sympy.Piecewise((B, rel(A, 1)), (0, True)), STEPS[rel] * B, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS


@pytest.mark.parametrize("rel", [sympy.StrictGreaterThan, sympy.GreaterThan, sympy.StrictLessThan,
                                 sympy.LessThan], ids=lambda r: r.__name__)
def test_a_relation_and_its_boundary_twin_differ_on_the_line(rel) -> None:
    twin = BOUNDARY_TWIN[rel]
    decision = decide_plane(sympy.Piecewise((B, rel(A, 1)), (0, True)), STEPS[twin] * B, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN
    assert decision.witness[A] == 1 and decision.witness[B] != 0


@pytest.mark.parametrize("rel", list(STEPS), ids=lambda r: r.__name__)
def test_a_relation_in_a_product_is_decided_through_u(rel) -> None:
    """[a·b rel 1] written two ways: a condition on a curve, decided through u = a·b."""
    left = sympy.Piecewise((A * B, rel(A * B, 1)), (0, True))
    right = STEPS[rel].xreplace({A: A * B}) * A * B
    decision = decide_plane(left, right, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS


def test_a_product_statement_that_fails_only_where_u_is_one_is_broken() -> None:
    left = sympy.Piecewise((A * B, A * B > 1), (0, True))
    right = sympy.Piecewise((A * B, A * B >= 1), (0, True))
    decision = decide_plane(left, right, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN
    assert decision.witness[A] * decision.witness[B] == 1


@pytest.mark.parametrize(("name", "holds"), [("positive", True), ("negative", False), ("any", False)])
def test_a_scale_domain_is_respected(name: str, holds: bool) -> None:
    """relu(α·a) = α·relu(a) for α > 0 only: the scale's regions are the domain, no more."""
    left = sympy.Max(ALPHA * A, 0)
    right = ALPHA * sympy.Max(A, 0)
    decision = decide_plane(left, right, {A: whole_line(), ALPHA: scale_regions(name)}, Budget(60))
    assert (decision.verdict is Verdict.HOLDS) is holds
    if not holds:
        assert decision.verdict is Verdict.BROKEN and decision.witness[ALPHA] < 0


@pytest.mark.parametrize(("region", "inside"), [
    (Region(S.Zero, S.Infinity), [S.One, S(10)]), (Region(-S.Infinity, S.Zero), [-S.One, -S(10)]),
    (Region(S.One, S(3)), [S(2), S(3) / 2]), (Region(-S.Infinity, S(2)), [S.One, -S(5)]),
])
def test_each_open_piece_is_parametrised_inside_itself(region: Region, inside) -> None:
    """The substitution maps p > 0 into the region: from its finite end, in the right direction."""
    value = Case(((A, region),)).substitution()[A]
    p = value.free_symbols.pop()
    for p0 in (S(1) / 100, S.One, S(100)):
        v = value.xreplace({p: p0})
        assert (region.lower == -S.Infinity or v > region.lower) and (region.upper == S.Infinity or v < region.upper)
    assert inside


def test_a_point_case_substitutes_the_point() -> None:
    assert Case(((A, Region(S(3), S(3))), (B, Region(S.Zero, S.Infinity)))).substitution()[A] == 3


def test_two_cut_points_at_once_are_ordered_and_decided() -> None:
    """(a − 1)(a − 2) > 0 cuts the line at 1 and 2 in one step."""
    left = sympy.Piecewise((B, (A - 1) * (A - 2) > 0), (0, True))
    right = B * (sympy.Heaviside(A - 2, 0) + sympy.Heaviside(1 - A, 0))
    assert decide_plane(left, right, SPACE, Budget(60)).verdict is Verdict.HOLDS
    # the same condition written two ways: both sides need the cuts at 1 and 2 together
    other = sympy.Piecewise((B, (A - S(3) / 2)**2 > S(1) / 4), (0, True))
    decision = decide_plane(left, other, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS
    assert [o.case.describe() for o in decision.cases][:5] == [
        "a < 1, b ∈ R", "a = 1, b ∈ R", "1 < a < 2, b ∈ R", "a = 2, b ∈ R", "a > 2, b ∈ R"]


# rel(|a|, a): on the open case a > 0 the two sides resolve to the same expression, so the
# relation is decided from a sign that is exactly 0 there (not by SymPy at a point)
ON_A_POSITIVE_HALF_LINE = {
    sympy.StrictGreaterThan: sympy.Heaviside(-A, 0), sympy.GreaterThan: S.One,
    sympy.StrictLessThan: S.Zero, sympy.LessThan: sympy.Heaviside(A, 1),
    sympy.Eq: sympy.Heaviside(A, 1), sympy.Ne: sympy.Heaviside(-A, 0),
}


@pytest.mark.parametrize("rel", list(ON_A_POSITIVE_HALF_LINE), ids=lambda r: r.__name__)
def test_a_relation_whose_sides_agree_on_a_whole_case_is_decided_exactly(rel) -> None:
    with sympy.evaluate(False):  # keep |a| rel a as written
        left = sympy.Piecewise((B, rel(sympy.Abs(A), A)), (0, True))
    decision = decide_plane(left, ON_A_POSITIVE_HALF_LINE[rel] * B, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS


def _certified_partition(region: Region, pieces: list[Region]) -> bool:
    """Do the pieces tile the region: open intervals and the points between them, in order?"""
    opens = [p for p in pieces if not p.is_point]
    points = [p.lower for p in pieces if p.is_point]
    ends = [opens[0].lower, *(p.upper for p in opens)]
    return (ends[0] == region.lower and ends[-1] == region.upper
            and all(certified_order(hi, lo) > 0 for lo, hi in pairwise(ends))
            and all(q.lower == p.upper for p, q in pairwise(opens))
            and sorted(points, key=lambda x: x.evalf(300)) == ends[1:-1])


@pytest.mark.parametrize("points", [
    [1 + sympy.exp(-200), S.One],  # 50 digits cannot tell them apart: the float sort keeps this order
    [S.One, 1 + sympy.exp(-200)],
    [sympy.log(4), 2 * sympy.log(2)],  # one value written twice: no interval between them
    [S.Half, S(2), S.One],
])
def test_cut_points_the_float_sort_misplaces_are_refused_or_ordered(points) -> None:
    """Cutting at points out of order would leave an interval (1, 1 + e^-200) no case covers."""
    region = Region(S.Zero, S(3))
    try:
        pieces = _cut(region, points)
    except Undecided:
        return
    assert _certified_partition(region, pieces), pieces


def test_a_case_the_float_sort_cannot_split_is_not_proved() -> None:
    """b·[1 < a < 1 + e^-200] is not 0: a split that loses that interval would prove it."""
    left = sympy.Piecewise((B, (A - 1 - sympy.exp(-200)) / (A - 1) < 0), (0, True))
    assert decide_plane(left, S.Zero, SPACE, Budget(60)).verdict is not Verdict.HOLDS


def test_a_heaviside_whose_argument_is_exactly_zero_on_a_case_takes_its_value_at_zero() -> None:
    """|a| − a is 0 on the whole case a > 0 (it resolves to a − a there): H(|a| − a, 0) is 0
    on a ≥ 0 and 1 on a < 0, as H(−a, 0) is."""
    with sympy.evaluate(False):
        left = sympy.Heaviside(sympy.Abs(A) - A, 0) * B
    right = sympy.Heaviside(-A, 0) * B
    assert decide_plane(left, right, SPACE, Budget(60)).verdict is Verdict.HOLDS
    with sympy.evaluate(False):
        other = sympy.Heaviside(sympy.Abs(A) - A, 1) * B  # 1 on a ≥ 0: differs on a > 0
    decision = decide_plane(other, right, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN and decision.witness[A] >= 0


def test_an_exclusive_or_is_true_where_exactly_one_side_is() -> None:
    left = sympy.Piecewise((B, sympy.Xor(A > 0, A > 1)), (0, True))
    right = sympy.Piecewise((B, (A > 0) & (A <= 1)), (0, True))
    assert decide_plane(left, right, SPACE, Budget(60)).verdict is Verdict.HOLDS


def test_a_piecewise_with_no_branch_on_a_case_is_undecided_there() -> None:
    """Piecewise((b, a > 0)) has no value for a ≤ 0: nothing is proved there, nothing crashes."""
    left = sympy.Piecewise((B, A > 0))
    decision = decide_plane(left, B, SPACE, Budget(60))
    assert decision.verdict is not Verdict.HOLDS


def test_a_case_of_more_variables_than_positive_symbols_is_refused() -> None:
    regions = tuple((sympy.Symbol(f"x{i}", real=True), Region(S.Zero, S.Infinity)) for i in range(9))
    with pytest.raises(ValueError, match="at most 8 variables"):
        Case(regions).substitution()
    assert len(Case(regions[:8]).substitution()) == 8


@pytest.mark.parametrize("shift", [S.One, S(2), -S.One])
def test_a_case_whose_difference_is_a_non_zero_constant_is_not_proved(shift) -> None:
    """On a > 0 the two sides differ by exactly `shift`: that case is refuted, never proved."""
    left = sympy.Piecewise((B + shift, A > 0), (B, True))
    decision = decide_plane(left, B, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN and decision.witness[A] > 0


def test_a_case_off_the_grid_whose_difference_is_exactly_one_is_refuted() -> None:
    """D = 1 only for 1/1000 < a < 1/500, where no grid point lies: the case split meets the
    constant 1 itself, and must refute that case, not prove it."""
    left = sympy.Piecewise((B + 1, (A > S(1) / 1000) & (A < S(1) / 500)), (B, True))
    decision = decide_plane(left, B, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN
    assert S(1) / 1000 < decision.witness[A] < S(1) / 500


def test_sides_with_a_term_that_cancels_in_the_difference_are_shown_as_written() -> None:
    """|b| occurs on both sides and cancels in D, so b is no variable of any case: the sides
    are shown as written where choosing their branches needs a sign no case knows (that of
    b, a symbol that is not one of the case's): undecided, never a crash."""
    left, right = sympy.Abs(B) + sympy.Abs(A), sympy.Abs(B) + sympy.Max(A, -A)
    decision = decide_plane(left, right, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS
    assert {v for o in decision.cases for v, _ in o.case.regions} == {A}
    assert all(side.has(sympy.Abs(B)) for o in decision.cases for side in o.sides)


def test_a_point_case_whose_sides_differ_by_exactly_one_as_written_is_refuted() -> None:
    """On the point case a = 1/1000 (a cut point, off the grid) the branch chooses itself when
    the point is substituted: the sides are b + 1 and b as written, never 'the same'."""
    left = B + sympy.Piecewise((1, sympy.Eq(A, S(1) / 1000)), (0, True))
    decision = decide_plane(left, B, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN
    assert decision.witness[A] == S(1) / 1000


def test_a_difference_of_exactly_one_as_written_is_broken() -> None:
    decision = decide_plane(B + 1, B, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN and decision.certificate is not None


def test_a_case_with_no_branch_is_undecided_and_the_note_says_why() -> None:
    """The first undecided case's reason is the decision's note."""
    decision = decide_plane(sympy.Piecewise((B, A > 0)), B, SPACE, Budget(60))
    assert decision.verdict is Verdict.INCONCLUSIVE
    undecided = [o for o in decision.cases if o.status == "undecided"]
    # a = 0 has no branch either: certified now (SymPy's nan was read as unknown before)
    assert [o.case.describe() for o in undecided] == ["a < 0, b ∈ R", "a = 0, b ∈ R"]
    assert undecided[0].expr is None
    assert decision.note == undecided[0].method == "no branch of Piecewise((b, a > 0)) applies on a < 0, b ∈ R"


def test_an_unproved_case_without_an_undecided_one_gives_the_general_note() -> None:
    """b·(cos(e^-5000) − 1) is not 0, but no enclosure separates it from 0: nothing decides it."""
    decision = decide_plane(B * (sympy.cos(sympy.exp(-5000)) - 1), S.Zero, SPACE, Budget(60))
    assert decision.verdict is Verdict.INCONCLUSIVE
    assert [o.status for o in decision.cases] == ["unknown", "proved", "unknown"]  # b < 0, b = 0, b > 0
    assert decision.note == "the difference was neither proved zero nor certified non-zero on every case"


def test_the_change_of_variables_is_taken_only_where_x_cancels_as_written() -> None:
    """With b = u/a the difference keeps a in b·(a + 1)² − b·(a² + 2a + 1) (SymPy does not
    expand it): D is not written as a function of a·b, so no step may say it is."""
    left = sympy.Piecewise((B * (A + 1)**2 - B * (A**2 + 2 * A + 1), A * B > 1), (0, True))
    decision = decide_plane(left, S.Zero, SPACE, Budget(60))
    assert decision.product is None or decision.product.x not in decision.product.reduced.free_symbols


def test_the_change_of_variables_pairs_whole_line_variables_only() -> None:
    """D = [−1/999 < a·α < −1/1000] with α > 0: a witness must keep α > 0 (a < 0 does it), never
    become α = u < 0 as the u = a·α route with a = 1 would make it."""
    window = (A * ALPHA < -S(1) / 1000) & (A * ALPHA > -S(1) / 999)
    space = {A: whole_line(), ALPHA: scale_regions("positive")}
    decision = decide_plane(sympy.Piecewise((1, window), (0, True)), S.Zero, space, Budget(60))
    assert decision.verdict is not Verdict.HOLDS
    assert decision.witness is None or decision.witness[ALPHA] > 0


def test_a_heaviside_that_is_zero_on_a_whole_case_takes_its_value_at_zero_there() -> None:
    """|a| − a is exactly 0 on the open case a > 0, where H(|a| − a, 1) is 1 (its value at 0),
    and positive for a < 0: the step is 1 everywhere, so H(|a| − a, 1)·b = b holds."""
    with sympy.evaluate(False):
        left = sympy.Heaviside(sympy.Abs(A) - A, 1) * B
    assert decide_plane(left, B, SPACE, Budget(60)).verdict is Verdict.HOLDS


def test_an_exclusive_or_of_three_conditions_is_true_where_an_odd_number_are() -> None:
    left = sympy.Piecewise((B, sympy.Xor(A > 0, A > 1, A > 2)), (0, True))
    right = sympy.Piecewise((B, ((A > 0) & (A <= 1)) | (A > 2)), (0, True))
    assert decide_plane(left, right, SPACE, Budget(60)).verdict is Verdict.HOLDS


def test_a_condition_the_resolver_cannot_read_is_not_taken_as_false() -> None:
    """Equivalent(a > 1/1000, a < 1/999) is the window 1/1000 < a < 1/999, which no grid point
    meets: the condition is undecided, so b on that window is not proved to be 0."""
    window = sympy.Equivalent(A > S(1) / 1000, A < S(1) / 999)
    decision = decide_plane(sympy.Piecewise((B, window), (0, True)), S.Zero, SPACE, Budget(60))
    assert decision.verdict is not Verdict.HOLDS


def test_a_condition_that_factors_to_zero_is_decided_in_two_variables() -> None:
    """(a + b)² − (a² + 2ab + b²) is 0 everywhere but only its factored form says so: the
    condition '> 0' is false on the whole plane, without a cut along a curve."""
    left = sympy.Piecewise((B, (A + B)**2 > A**2 + 2 * A * B + B**2), (0, True))
    assert decide_plane(left, S.Zero, SPACE, Budget(60)).verdict is Verdict.HOLDS


@pytest.mark.parametrize("choose", [sympy.Min, sympy.Max], ids=lambda f: f.__name__)
def test_a_tie_between_equal_arguments_keeps_the_first_as_written(choose) -> None:
    """(a + 1)² and a² + 2a + 1 are equal everywhere (sign 0 on the case): Max and Min keep the
    argument SymPy lists first, so the side shown is the one written, not its expansion."""
    left = choose((A + 1)**2, A**2 + 2 * A + 1) * B
    decision = decide_plane(left, (A + 1)**2 * B, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS
    assert [o.sides[0] for o in decision.cases] == [B * (A + 1)**2]


def test_each_point_is_evaluated_once_and_counted_once(monkeypatch) -> None:
    """The case search meets points the grid already tried (a = 1, b = ±1, ...): they are not
    evaluated again, and the evidence counts each point sampled once."""
    from symcheck.engine import plane
    seen: list[tuple] = []

    def recording(expr, point, **kwargs):
        seen.append(tuple(sorted(point.items(), key=str)))
        return plane_approximate(expr, point, **kwargs)

    plane_approximate = plane.approximate
    monkeypatch.setattr(plane, "approximate", recording)
    decision = decide_plane(B * (sympy.cos(sympy.exp(-5000)) - 1), S.Zero, SPACE, Budget(60))
    assert decision.verdict is Verdict.INCONCLUSIVE and len(decision.cases) == 3
    assert len(seen) == len(set(seen)) == decision.evidence.points
