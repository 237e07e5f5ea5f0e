"""The z3 cross-check reads only what z3 said: `unknown` is no verdict, and its translation of
the nonsmooth primitives agrees with SymPy's conventions at the single points that matter.

z3 is stubbed where its answer is the point (a solver that says `unknown`), and real where the
translation is (the value of Heaviside, sign and Abs at 0, each relation at its boundary).
"""
from __future__ import annotations

import types

import pytest
import sympy
from sympy import S

from symcheck.engine import smt
from symcheck.language.activations import activation
from symcheck.language.symbols import A, B, Z
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

z3 = pytest.importorskip("z3", reason="z3-solver is in the test extra; without it there is no cross-check")


class _Solver:
    """A solver that answers what the test says, whatever it is asked."""

    answer = None

    def __init__(self, *args, **kwargs) -> None:
        pass

    def set(self, *args) -> None:
        pass

    def add(self, *args) -> None:
        pass

    def check(self):
        return type(self).answer

    def reason_unknown(self) -> str:
        return "stubbed"

    def model(self):  # pragma: no cover - reached only if `unknown` is misread as `sat`
        raise AssertionError("a model was asked of a solver that answered unknown")


def _z3_answering(answer) -> types.SimpleNamespace:
    solver = type("Answering", (_Solver,), {"answer": answer})
    return types.SimpleNamespace(Solver=solver, sat=z3.sat, unsat=z3.unsat, unknown=z3.unknown,
                                 RealVal=z3.RealVal)


def test_unknown_is_no_verdict() -> None:
    fake = _z3_answering(z3.unknown)
    decision = smt._decide(fake, None, [], {}, S.Zero, S.Zero, Transformation("exchange"), 1.0)
    assert decision.verdict == "unknown" and decision.model is None
    assert "no answer" in decision.reason


def test_unsat_is_a_proof() -> None:
    fake = _z3_answering(z3.unsat)
    decision = smt._decide(fake, None, [], {}, S.Zero, S.Zero, Transformation("exchange"), 1.0)
    assert decision.verdict == "holds"


@pytest.mark.parametrize(("answer", "expected"), [(z3.sat, True), (z3.unsat, False), (z3.unknown, None)])
def test_a_witness_is_confirmed_only_by_sat(answer, expected) -> None:
    ctx = z3.Context()
    reals = {A: z3.Real("a", ctx), B: z3.Real("b", ctx)}
    fake = _z3_answering(answer)
    assert smt._witness_confirmed(fake, ctx, [], reals, {"a": "1", "b": "2"}, 1.0) is expected


def test_cross_check_with_a_solver_that_says_unknown(monkeypatch) -> None:
    """Through the public entry point: no verdict, no agreement, whatever the engine said."""
    monkeypatch.setattr(z3, "Solver", _z3_answering(z3.unknown).Solver)
    for engine in ("holds", "broken"):
        witness = {"a": "1", "b": "1", "alpha": "2"} if engine == "broken" else None
        cross = smt.cross_check(activation("relu"), Transformation("inverse-scaling", domain("positive")),
                                form("gated"), engine, witness)
        assert cross.verdict == "unknown"
        assert cross.agrees is None
        assert cross.witness_confirmed is None


@pytest.mark.parametrize(("engine", "smt_says", "confirmed", "agrees"), [
    ("holds", "holds", None, True),
    ("holds", "broken", None, False),
    ("holds", "unknown", None, None),
    ("broken", "holds", None, False),
    ("broken", "broken", True, True),
    ("broken", "broken", False, False),
    ("broken", "broken", None, None),
    ("broken", "unknown", True, None),
    ("broken", "unknown", False, False),
    ("broken", "unknown", None, None),
    ("inconclusive", "holds", None, None),
    ("inconclusive", "broken", True, None),
])
def test_agreement_truth_table(engine: str, smt_says: str, confirmed, agrees) -> None:
    assert smt._agrees(engine, smt_says, confirmed) is agrees


def _value_at(expr: sympy.Expr, point: dict) -> sympy.Rational:
    """z3's value of the translated expression at a point, as an exact rational."""
    ctx = z3.Context()
    reals = {s: z3.Real(s.name, ctx) for s in (Z, A, B)}
    translate = smt._Translator(z3, ctx, reals)
    term = translate.term(expr)
    fixed = z3.substitute(term, *[(reals[s], translate.real(sympy.Rational(v))) for s, v in point.items()])
    value = z3.simplify(fixed)
    assert z3.is_rational_value(value), value
    return sympy.Rational(value.numerator_as_long(), value.denominator_as_long())


@pytest.mark.parametrize("expr", [
    sympy.Heaviside(Z), sympy.Heaviside(Z, 0), sympy.Heaviside(Z, 1), sympy.Heaviside(Z, S(1) / 3),
    sympy.sign(Z), sympy.Abs(Z), sympy.Max(Z, 0), sympy.Min(Z, 0), sympy.Max(Z, -Z, 1), sympy.Min(Z, 2 * Z),
    sympy.Piecewise((1, Z > 0), (2, Z >= 0), (3, True)),
    sympy.Piecewise((1, Z < 0), (2, Z <= 0), (3, True)),
    sympy.Piecewise((1, sympy.Eq(Z, 0)), (2, True)), sympy.Piecewise((1, sympy.Ne(Z, 0)), (2, True)),
    sympy.Piecewise((1, (Z > -1) & (Z < 1)), (2, (Z < -2) | (Z > 2)), (3, True)),
    sympy.Piecewise((1, ~(Z > 0)), (2, True)),
    Z**3 - 2 * Z**2 + Z / 3, (Z + 1)**0 * Z,
])
@pytest.mark.parametrize("z", ["0", "1", "-1", "1/2", "-3", "3", "2", "-2"])
def test_the_translation_agrees_with_sympy_at_every_point(expr: sympy.Expr, z: str) -> None:
    """Single points, 0 and the branch boundaries included: H(0) is SymPy's args[1] (1/2 by
    default), sign(0) = 0, and each relation is strict or weak exactly as written."""
    point = {Z: sympy.Rational(z)}
    assert _value_at(expr, point) == expr.xreplace(point)


def test_a_negative_power_is_a_reciprocal() -> None:
    ctx = z3.Context()
    alpha = sympy.Symbol("alpha", real=True)
    reals = {alpha: z3.Real("alpha", ctx)}
    translate = smt._Translator(z3, ctx, reals)
    term = z3.simplify(z3.substitute(translate.term(alpha**-2), (reals[alpha], translate.real(S(2)))))
    assert sympy.Rational(term.numerator_as_long(), term.denominator_as_long()) == S(1) / 4


@pytest.mark.parametrize(("name", "value", "inside", "outside"), [
    ("positive", None, "1", "0"), ("negative", None, "-1", "0"), ("any", None, "-1", "0"),
    ("positive", None, "1/2", "-1/2"), ("negative", None, "-1/2", "1/2"),
])
def test_the_domain_constraint_excludes_its_boundary(name, value, inside, outside) -> None:
    t = Transformation("inverse-scaling", domain(name))
    ctx = z3.Context()
    reals = {t.scale: z3.Real(t.scale.name, ctx)}
    translate = smt._Translator(z3, ctx, reals)
    constraint = smt._domain_constraint(z3, translate, t, reals)
    for q, truth in ((inside, True), (outside, False)):
        fixed = z3.simplify(z3.substitute(constraint, (reals[t.scale], translate.real(sympy.Rational(q)))))
        assert z3.is_true(fixed) is truth


def test_z3_is_reported_available_when_it_is_installed() -> None:
    assert smt.z3_available() is True


@pytest.mark.parametrize("expr", [sympy.sin(Z), sympy.exp(Z) + 1,
                                  sympy.Piecewise((1, sympy.Xor(Z > 0, Z < 1)), (0, True))])
def test_the_translation_refuses_what_it_does_not_cover(expr: sympy.Expr) -> None:
    """covers() keeps these away from z3; the translator itself refuses them too, rather than
    giving z3 a term that means something else."""
    ctx = z3.Context()
    translate = smt._Translator(z3, ctx, {Z: z3.Real("z", ctx)})
    with pytest.raises(smt._NotCovered):
        translate.term(expr)


def test_a_heaviside_with_a_symbolic_value_at_zero_is_not_covered() -> None:
    from symcheck.engine.smt import covers
    from symcheck.language.symbols import Z
    assert covers(sympy.Heaviside(Z, sympy.Rational(1, 2)))
    assert not covers(sympy.Heaviside(Z, Z**2 + 1))


def test_z3_is_reported_unavailable_when_it_cannot_be_imported(without_z3) -> None:
    assert smt.z3_available() is False


@pytest.mark.parametrize("witness", [
    {"a": "sqrt(2)", "b": "1"},          # not a rational: z3 cannot pin it, so nothing is confirmed
    {"a": "1", "b": "pi"},
    {"a": "1/0", "b": "1"},
    {"a": "1", "b": "1", "gamma": "2"},  # a variable the statement does not have
])
def test_a_witness_z3_cannot_pin_is_not_confirmed(witness) -> None:
    """Only an exact rational value of a statement's own variable is fixed in z3; anything
    else leaves witness_confirmed None (unknown), never True, even where the real solver would
    find left ≠ right with the variable left free."""
    ctx = z3.Context()
    reals = {A: z3.Real("a", ctx), B: z3.Real("b", ctx)}
    differ = reals[A] != reals[B]  # satisfiable: a bare `sat` must not be read as confirmation
    assert smt._witness_confirmed(z3, ctx, [differ], reals, witness, 1.0) is None


def test_a_rational_witness_is_confirmed_or_refuted_by_z3_itself() -> None:
    ctx = z3.Context()
    reals = {A: z3.Real("a", ctx), B: z3.Real("b", ctx)}
    differ = reals[A] != reals[B]
    assert smt._witness_confirmed(z3, ctx, [differ], reals, {"a": "1/2", "b": "1"}, 1.0) is True
    assert smt._witness_confirmed(z3, ctx, [differ], reals, {"a": "1/2", "b": "0.5"}, 1.0) is False


@pytest.mark.parametrize(("expr", "variables", "covered"), [
    (Z + 1, frozenset({Z}), True),
    (Z * sympy.Symbol("w", real=True), frozenset({Z}), False),  # a symbol the statement lacks
    (A + B, frozenset({A}), False),
    (A + B, frozenset({A, B}), True),
    (sympy.exp(Z)**2, frozenset({Z}), False),                    # the base of a power is walked
    (sympy.sin(Z)**3 + Z, frozenset({Z}), False),
    (sympy.Max(Z, sympy.exp(Z))**2, frozenset({Z}), False),
    ((Z + 1)**3, frozenset({Z}), True),
    (Z**-1, frozenset({Z}), False),                               # 1/z: only a non-zero scale may be inverted
    (sympy.Rational(1, 2)**Z, frozenset({Z}), False),
])
def test_coverage_walks_every_node(expr, variables, covered) -> None:
    assert smt.covers(expr, variables) is covered


def test_a_literal_truth_value_that_coverage_admits_is_translated() -> None:
    """covers() admits true and false as conditions (SymPy builds them when a Piecewise is not
    re-evaluated); the translator must then give them their value, not refuse them."""
    from sympy import Basic
    from sympy.functions.elementary.piecewise import ExprCondPair

    literal = Basic.__new__(sympy.Piecewise, Basic.__new__(ExprCondPair, Z, sympy.false),
                            Basic.__new__(ExprCondPair, 2 * Z, sympy.true))
    assert smt.covers(literal)
    for z in ("3", "-1/2", "0"):
        assert _value_at(literal, {Z: sympy.Rational(z)}) == 2 * sympy.Rational(z)
    first = Basic.__new__(sympy.Piecewise, Basic.__new__(ExprCondPair, Z, sympy.true),
                          Basic.__new__(ExprCondPair, 2 * Z, sympy.true))
    assert _value_at(first, {Z: sympy.Rational(3)}) == 3


@pytest.mark.parametrize(("engine", "witness"), [
    ("broken", None),                                   # a broken verdict without a witness to pin
    ("inconclusive", {"a": "1", "b": "2", "alpha": "3"}),
    ("holds", {"a": "1", "b": "2", "alpha": "3"}),
])
def test_only_a_broken_verdict_with_a_witness_has_it_checked_by_z3(engine, witness) -> None:
    """relu inverse scaling for α > 0 holds: z3 says unsat. witness_confirmed is about the
    engine's counterexample, so it stays None unless there is one (and no call fails)."""
    t = Transformation("inverse-scaling", domain("positive"))
    cross = smt.cross_check(activation("relu"), t, form("gated"), engine, witness)
    assert cross.verdict == "holds"
    assert cross.witness_confirmed is None
    assert cross.agrees is {"broken": False, "inconclusive": None, "holds": True}[engine]
