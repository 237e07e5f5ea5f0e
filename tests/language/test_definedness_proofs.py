"""Definedness reads a branch's region exactly: `2·z > 1` is z > 1/2, not z > 1; a case split
that fails or leaves a violation undecided proves nothing."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.core.errors import DomainError, Undecided
from symcheck.exact.regions import Piece, Region
from symcheck.exact.signs import at_point
from symcheck.language import definedness
from symcheck.language.definedness import Obligation
from symcheck.language.parsing import parse_activation
from symcheck.language.symbols import Z


@pytest.mark.parametrize(("text", "point"), [
    ("Piecewise((log(z - 1), 2*z > 1), (0, True))", "z = 1"),
    ("Piecewise((log(z - 1), z + 1 > 3/2), (0, True))", "z = 1"),
    ("Piecewise((sqrt(z - 2), -z < -1), (0, True))", None),
    ("Piecewise((1/(z - 1), z**2 > 0), (0, True))", "z = 1"),
])
def test_a_branch_defined_only_on_part_of_its_region_is_refused(text: str, point: str | None) -> None:
    with pytest.raises(DomainError) as info:
        parse_activation(text)
    if point is not None:
        assert point in str(info.value)


@pytest.mark.parametrize("text", [
    "Piecewise((log(z - 1), 2*z > 3), (0, True))",
    "Piecewise((log(z), z > 0), (0, True))",
    "Piecewise((sqrt(z - 2), z >= 2), (0, True))",
    "Piecewise((1/(z - 1), z < 1/2), (0, True))",
])
def test_a_branch_defined_on_its_whole_region_is_accepted(text: str) -> None:
    parse_activation(text)


@pytest.mark.parametrize("failure", [RuntimeError("a failure inside SymPy"), ValueError("another"),
                                     Undecided("a cut point that cannot be placed")])
@pytest.mark.parametrize("text", ["Piecewise((log(z - 1), 2*z > 1), (0, True))", "1/(z - 3)"])
def test_a_case_split_that_fails_proves_no_definedness(monkeypatch, failure, text) -> None:
    """The split raising is no proof: the point where σ is undefined is still found."""
    from symcheck.language import definedness

    def failing(*args, **kwargs):
        raise failure

    monkeypatch.setattr(definedness, "split", failing)
    with pytest.raises(DomainError):
        parse_activation(text)


def test_a_case_whose_violation_is_undecided_proves_no_definedness(monkeypatch) -> None:
    """A piece that may or may not violate the obligation (alternatives 0 and 1) is no proof."""
    from symcheck.language import definedness

    def undecided(*args, **kwargs):
        return [Piece(Region(-S.Infinity, S.Infinity), S.Zero, (S.Zero, S.One), ("a periodic condition",))]

    monkeypatch.setattr(definedness, "split", undecided)
    with pytest.raises(DomainError):
        parse_activation("1/(z - 3)")


def test_a_point_where_the_obligation_is_unknown_is_no_failure() -> None:
    """log(z² + c) with c = exp(ε) − 1 − ε > 0 (ε = e^-3000): SymPy cannot tell c's sign, so at
    z = 0 whether the argument is positive is unknown, not false. The activation is refused as
    unverified, never as failing at a point nothing confirmed."""
    import sympy

    from symcheck.core.errors import DomainError
    from symcheck.language.activations import activation
    c = "(exp(exp(-3000)) - 1 - exp(-3000))"
    assert sympy.sympify(c).is_positive is None
    with pytest.raises(DomainError, match="could not verify") as caught:
        activation(f"log(z**2 + {c})")
    assert caught.value.point is None


# --- a failure point is confirmed by certified evaluation, never by SymPy's subs -------------

_TINY = sympy.log(1 + sympy.exp(-2000))  # > 0, but SymPy's evalf reads 5·_TINY <= 0 as True


def test_a_region_sympy_misjudges_at_a_point_is_no_failure_there() -> None:
    """The branch applies only for z <= -5 (sin(z) + 5 > 0 and _TINY > 0), where log(-z - 4) is
    defined. SymPy's subs puts z = 0 in the region, where the argument is -4: read that way the
    activation would be refused as failing at z = 0. Certified, nothing fails anywhere, and the
    split proves it: sin(z) + 5 ≥ 4 by its certified range, so the branch is exactly z <= -5."""
    region = (sympy.sin(Z) + 5) * _TINY * (Z + 5) <= 0
    assert region.subs(Z, 0) is sympy.true  # the trap: SymPy's own answer at z = 0
    sigma = parse_activation("Piecewise((log(-z - 4), (sin(z) + 5)*log(1 + exp(-2000))*(z + 5) <= 0), (0, True))")
    assert at_point(sigma, Z, S.Zero) == 0 and at_point(sigma, Z, S(-6)) == sympy.log(2)


def test_a_branch_inside_the_obligation_is_chosen_by_certified_signs() -> None:
    """log(σ) with σ = -1 only for z <= -5: at z = 0 the argument is 1 (SymPy's subs picks -1)."""
    inner = sympy.Piecewise((-1, (Z + 5) * _TINY <= 0), (1, True))
    assert inner.subs(Z, 0) == -1  # the trap
    ob = Obligation("positive", inner, "log(...)")
    assert definedness._fails_at(ob, Z, S.Zero) is False
    assert definedness._fails_at(ob, Z, S(-6)) is True


@pytest.mark.parametrize(("kind", "expr", "region", "point", "fails"), [
    # each kind at, below and above its boundary
    ("positive", Z, sympy.true, S.Zero, True), ("positive", Z, sympy.true, S(-1), True),
    ("positive", Z, sympy.true, S(1) / 2, False), ("positive", Z, sympy.true, S(1), False),
    ("nonnegative", Z, sympy.true, S.Zero, False), ("nonnegative", Z, sympy.true, S(-1) / 2, True),
    ("nonnegative", Z, sympy.true, S(2), False),
    ("nonzero", Z - 2, sympy.true, S(2), True), ("nonzero", Z - 2, sympy.true, S(3), False),
    ("nonzero", Z - 2, sympy.true, S(1), False),
    ("cos-nonzero", Z, sympy.true, sympy.pi / 2, True), ("cos-nonzero", Z, sympy.true, S.Zero, False),
    ("cos-nonzero", Z, sympy.true, S(2), False),
    # "covered": no branch applies anywhere in the region, so it fails exactly inside it
    ("covered", Z, Z < 0, S(-1), True), ("covered", Z, Z < 0, S.Zero, False),
    ("covered", Z, Z < 0, S(1), False),
    # outside its region an obligation is not evaluated at all
    ("positive", Z, Z > 1, S.Zero, False), ("positive", Z, Z > 1, S(2), False),
    ("positive", Z, Z >= 1, S(1), False), ("positive", Z - 3, Z >= 1, S(1), True),
    ("nonzero", Z - 1, (Z > 0) & (Z < 2), S(1), True), ("nonzero", Z - 1, (Z > 0) & (Z < 2), S(3), False),
    # a sign nothing certifies is no failure: exp(ε) − 1 − ε > 0 with ε = e^-3000
    ("positive", sympy.exp(sympy.exp(-3000)) - 1 - sympy.exp(-3000) + 0 * Z, sympy.true, S.Zero, False),
    ("nonzero", Z - _TINY, sympy.true, S.Zero, False), ("positive", Z - _TINY, sympy.true, S.Zero, True),
    # a value with no branch at the point (the "covered" obligation reports that) has no sign
    ("positive", sympy.Piecewise((Z - 5, Z > 0)), sympy.true, S(-1), False),
    ("nonzero", sympy.Piecewise((Z + 1, Z > 0)), sympy.true, S(-1), False),
    # only real finite points: at z = i the value i − i is 0, at ±oo nothing is evaluated
    ("nonzero", Z - sympy.I, sympy.true, sympy.I, False), ("nonzero", Z - sympy.I, Z > 0, sympy.I, False),
    ("positive", -Z, sympy.true, S.Infinity, False), ("covered", Z, Z > 0, S.Infinity, False),
])
def test_a_failure_is_reported_exactly_where_it_is_certified(kind, expr, region, point, fails) -> None:
    ob = Obligation(kind, expr, "f", region)
    assert definedness._fails_at(ob, Z, point) is fails


def test_a_solver_that_fails_only_loses_a_proposal(monkeypatch) -> None:
    """SymPy's solveset raising (NotImplementedError is what it raises for what it cannot
    solve) leaves no proposal from it; the point the case split found is still confirmed."""
    def failing(*args, **kwargs):
        raise NotImplementedError("solveset cannot solve this")

    monkeypatch.setattr(definedness, "_violation_set", failing)
    with pytest.raises(DomainError) as caught:
        parse_activation("1/(z - 3)")
    assert str(caught.value) == "division by (z - 3) is undefined at z = 3"
    assert caught.value.point == 3


def _no_solver(monkeypatch) -> None:
    def failing(*args, **kwargs):
        raise NotImplementedError("solveset cannot solve this")

    monkeypatch.setattr(definedness, "_violation_set", failing)


def _no_split(monkeypatch) -> None:
    def failing(*args, **kwargs):
        raise Undecided("a cut point that cannot be placed")

    monkeypatch.setattr(definedness, "split", failing)


def test_the_point_of_a_violated_case_is_confirmed_without_the_solver(monkeypatch) -> None:
    """1/(z - 7): the split's case {7} is violated on the whole case; its point is proposed
    and confirmed even with no solver, and 7 is none of the fixed sample points."""
    _no_solver(monkeypatch)
    assert S(7) not in definedness._SAMPLE_POINTS
    with pytest.raises(DomainError) as caught:
        parse_activation("1/(z - 7)")
    assert str(caught.value) == "division by (z - 7) is undefined at z = 7"
    assert caught.value.point == 7


def test_the_sample_points_are_tried_when_nothing_is_proposed(monkeypatch) -> None:
    _no_solver(monkeypatch)
    _no_split(monkeypatch)
    with pytest.raises(DomainError) as caught:
        parse_activation("log(z)")
    assert str(caught.value) == "log(z) is not defined on all of R: its argument is not positive at z = 0"


def test_a_case_the_split_left_undecided_is_not_sampled(monkeypatch) -> None:
    """Only a case violated throughout gives a point: an undecided case is no evidence, and it
    may hold no rational anyone can name (pi < z < pi + e^-10000): sampling it would end the
    check in Undecided instead of the solver's confirmed point."""
    region = Region(sympy.pi, sympy.pi + sympy.exp(-10000))
    with pytest.raises(Undecided):
        region.sample()
    monkeypatch.setattr(definedness, "split",
                        lambda *args, **kwargs: [Piece(region, S.Zero, (S.Zero, S.One), ("undecided",))])
    with pytest.raises(DomainError) as caught:
        parse_activation("1/(z - 7)")
    assert caught.value.point == 7


@pytest.mark.parametrize("text", ["log(1 + z**2)", "sqrt(exp(z))", "1/(2 + z**2)"])
def test_an_obligation_sympy_assumptions_prove_needs_no_case_split(monkeypatch, text) -> None:
    _no_split(monkeypatch)
    parse_activation(text)


def test_an_obligation_in_a_region_that_is_false_is_never_evaluated(monkeypatch) -> None:
    _no_split(monkeypatch)
    definedness.check_defined_on_reals(Z, [Obligation("positive", -Z**2 - 1, "f", sympy.false)])


# --- a number's sign is certified; SymPy's assumptions judge only rational expressions --------

_E = sympy.exp(-2000)
# e^-2000 − log(1 + e^-2000) − e^-4000/2 = −e^-6000/3 + …: negative, but SymPy's evalf says positive
_NEGATIVE = _E - sympy.log(1 + _E) - _E**2 / 2
_UNDECIDABLE = sympy.exp(sympy.exp(-3000)) - 1 - sympy.exp(-3000)  # > 0, below 8192 bits


def test_the_numbers_are_ones_sympy_misjudges() -> None:
    assert _NEGATIVE.is_positive is True and (_NEGATIVE <= 0) is sympy.false
    assert (-_NEGATIVE).is_negative is True
    assert _UNDECIDABLE.is_positive is None


@pytest.mark.parametrize(("kind", "value", "expected"), [
    ("positive", _NEGATIVE, False), ("nonnegative", _NEGATIVE, False), ("nonzero", _NEGATIVE, True),
    ("positive", -_NEGATIVE, True), ("nonnegative", -_NEGATIVE, True),
    ("positive", _UNDECIDABLE, None), ("nonnegative", _UNDECIDABLE, None), ("nonzero", _UNDECIDABLE, None),
    ("positive", S(1) / 3, True), ("positive", S.Zero, False), ("positive", S(-2), False),
    ("nonnegative", S.Zero, True), ("nonnegative", S(1) / 3, True), ("nonnegative", S(-1) / 3, False),
    ("nonzero", S.Zero, False), ("nonzero", S(1) / 3, True), ("nonzero", S(-1), True),
    ("cos-nonzero", sympy.pi / 2, False), ("cos-nonzero", S.Zero, True), ("cos-nonzero", S(1) / 3, True),
    ("covered", S.One, False),
    # an expression in the variable: SymPy's assumptions, only when every number in it is rational
    ("positive", Z**2 + 1, True), ("nonnegative", Z**2, True), ("nonzero", sympy.exp(Z), True),
    ("positive", Z, None), ("positive", Z**2 + sympy.pi, None), ("positive", Z**2 + 1 + _NEGATIVE, None),
    ("nonnegative", Z**2 - _NEGATIVE, None),
])
def test_whether_an_obligation_holds(kind, value, expected) -> None:
    assert definedness.holds(kind, value) is expected


@pytest.mark.parametrize(("text", "message"), [
    ("log(exp(-2000) - log(1 + exp(-2000)) - exp(-4000)/2)",
     "log(exp(-2000) - log(1 + exp(-2000)) - exp(-4000)/2) is not defined on all of R: "
     "its argument is not positive at z = 0"),
    ("z + sqrt(exp(-2000) - log(1 + exp(-2000)) - exp(-4000)/2)",
     "sqrt(exp(-2000) - log(1 + exp(-2000)) - exp(-4000)/2) is not defined on all of R: "
     "its argument is negative at z = 0"),
])
def test_a_constant_sympy_calls_positive_is_refused_where_it_is_certified_negative(text, message) -> None:
    """SymPy's assumptions (and its evaluation of `u <= 0`) call the argument positive: taken
    as a proof, log of a negative number would be accepted as defined on R."""
    with pytest.raises(DomainError) as caught:
        parse_activation(text)
    assert str(caught.value) == message
    assert caught.value.point == 0


def test_a_non_zero_constant_sympy_misjudges_is_a_valid_divisor() -> None:
    parse_activation("z/(exp(-2000) - log(1 + exp(-2000)) - exp(-4000)/2)")
