"""A `broken` needs its witness certified on the statement itself, inside the scale's domain;
a counterexample the guard reports but that cannot be re-certified withdraws the proof to
`inconclusive`, never to `broken`.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
import sympy
from sympy import S

from symcheck.core.verdict import Verdict
from symcheck.engine import symmetries
from symcheck.engine.check_result import CrossCheck
from symcheck.engine.evidence import magnitude, numeric_evidence
from symcheck.engine.guard import Counterexample
from symcheck.exact.evaluate import Certificate
from symcheck.language.activations import activation
from symcheck.language.symbols import ALPHA, SIGMA, A, B
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form


def _certify(act: str, alpha: str, values: dict):
    t = Transformation("inverse-scaling", domain(alpha))
    statement = symmetries._Statement(activation(act), t, form("gated"))
    decision = symmetries._certified(statement, values, "a test", S.Zero, [], {})
    return decision.verdict, decision.witness, decision.steps, decision.residual, decision.evidence, decision.note


def test_a_witness_inside_the_domain_is_certified() -> None:
    verdict, witness, steps, *_ = _certify("silu", "positive", {A: S.One, B: S.One, ALPHA: S(2)})
    assert verdict is Verdict.BROKEN and witness == {"a": 1, "b": 1, "alpha": 2}
    assert [s.status for s in steps if s.title == "Certificate"] == ["certified"]


def test_a_witness_whose_scale_is_outside_the_domain_is_not_a_witness() -> None:
    """At α = −2 silu's statement fails too, but α > 0 is the claim: no certificate."""
    for alpha, scale in (("positive", -S(2)), ("positive", S.Zero), ("negative", S(2)), ("-1", S(2))):
        verdict, witness, steps, _, _, note = _certify("silu", alpha, {A: S.One, B: S.One, ALPHA: scale})
        assert verdict is Verdict.INCONCLUSIVE and witness is None
        assert "outside" in note


def test_a_point_where_the_statement_holds_is_not_a_witness() -> None:
    verdict, witness, *_ = _certify("relu", "positive", {A: S.One, B: S.One, ALPHA: S(2)})
    assert verdict is Verdict.INCONCLUSIVE and witness is None


def test_a_guard_counterexample_that_is_not_re_certified_is_inconclusive(monkeypatch) -> None:
    """The guard says a proof is wrong at a point where the statement in fact holds: the
    proof is withdrawn (inconclusive), and nothing is reported broken."""
    forged = Counterexample({A: S.One, B: S.One, ALPHA: S(2)},
                            Certificate(None, False, "0.5", "0.6", 64, 1), "forged")
    monkeypatch.setattr(symmetries, "counterexample", lambda *args, **kwargs: forged)
    # z3 would also object to a wrong `broken` here; the guard's wiring must not need it
    monkeypatch.setattr(symmetries.smt, "cross_check", lambda *args, **kwargs: None)
    result = symmetries.check_inverse_scaling("relu")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert "withdrawn" in result.note and "not re-certified" in result.note


def test_a_guard_counterexample_that_is_re_certified_is_broken(monkeypatch) -> None:
    real = Counterexample({A: S.One, B: S.One, ALPHA: S(2)},
                          Certificate(None, False, "0.5", "0.6", 64, 1), "forged")
    monkeypatch.setattr(symmetries, "counterexample", lambda *args, **kwargs: real)
    original = symmetries._decide

    def forged_proof(statement, budget):
        return replace(original(statement, budget), verdict=Verdict.HOLDS, witness=None)

    monkeypatch.setattr(symmetries, "_decide", forged_proof)
    monkeypatch.setattr(symmetries.smt, "cross_check", lambda *args, **kwargs: None)
    result = symmetries.check_inverse_scaling("silu")
    assert result.verdict is Verdict.BROKEN and result.witness == {"a": 1, "b": 1, "alpha": 2}


@pytest.mark.parametrize(("confirmed", "said"), [(False, True), (None, False), (True, False)])
def test_a_disagreement_names_what_z3_says_at_the_witness(monkeypatch, confirmed, said) -> None:
    """z3 contradicting a `broken`: withdrawn to inconclusive; the note adds that z3 finds the
    two sides equal at the witness only when z3 said exactly that."""
    cross = CrossCheck("z3", "broken", verdict="holds", agrees=False, witness_confirmed=confirmed)
    monkeypatch.setattr(symmetries.smt, "cross_check", lambda *args, **kwargs: cross)
    result = symmetries.check_exchange("silu")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert result.note.startswith("the engines disagree: the symbolic engine says broken, "
                                  "z3 says holds (z3 finds no counterexample: unsat)")
    assert ("z3 evaluates left = right at the symbolic engine's witness" in result.note) is said


def test_a_bug_in_symcheck_is_not_hidden_as_inconclusive(monkeypatch) -> None:
    def broken(statement, budget):
        raise RuntimeError("a bug in the engine")

    monkeypatch.setattr(symmetries, "_decide", broken)
    with pytest.raises(RuntimeError, match="a bug in the engine"):
        symmetries.check_exchange("silu")


def test_a_failure_inside_sympy_leaves_the_check_inconclusive(monkeypatch) -> None:
    def failing(statement, budget):
        sympy.Poly(A + B, A).nth(-1, 1)  # SymPy raises on a malformed request, inside SymPy

    monkeypatch.setattr(symmetries, "_decide", failing)
    result = symmetries.check_exchange("silu")
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.note.startswith("SymPy failed inside the decision")


def test_where_an_exception_was_raised_is_read_from_its_last_frame() -> None:
    try:
        sympy.Poly(A + B, A).nth(-1, 1)
    except Exception as err:
        assert symmetries.failed_outside(err) == "SymPy"
    try:
        raise ValueError("here")
    except ValueError as err:
        assert symmetries.failed_outside(err) == ""
    assert symmetries.failed_outside(ValueError("never raised")) == ""


@pytest.mark.parametrize(("name", "alpha", "unit", "known"), [
    ("exchange", None, "gated", True), ("inverse-scaling", "positive", "gated", True),
    ("inverse-scaling", "-1", "gated", True), ("exchange", None, "rank1", False),
    ("key-value-rescaling", "positive", "gated", False), ("inverse-scaling", "any", "sigma(a)*b", False),
])
def test_a_reduction_exists_only_for_exchange_and_inverse_scaling_on_the_gated_form(name, alpha, unit, known) -> None:
    t = Transformation(name, domain(alpha) if alpha else None)
    assert symmetries._has_reduction(form(unit), t) is known
    if known:
        assert symmetries._reduction(form(unit), t) is not None
    else:
        with pytest.raises(ValueError, match=f"no reduction is known for {name} on the "):
            symmetries._reduction(form(unit), t)


@pytest.mark.parametrize(("act", "unit", "every"), [
    ("silu", "rank1", True),      # σ(a·b) = σ(b·a) with σ opaque
    ("relu", "gated", False),     # holds, but by relu's own cases
])
def test_holds_for_every_sigma_only_when_sigma_was_left_opaque(act, unit, every) -> None:
    result = symmetries.check_exchange(act, unit) if unit == "rank1" else symmetries.check_inverse_scaling(act)
    assert result.verdict is Verdict.HOLDS
    assert result.every_sigma is every


@pytest.mark.parametrize(("z3_says", "model", "shown"), [
    ("holds", None, "z3 says holds (z3 finds no counterexample: unsat)"),
    ("broken", {"a": "1", "b": "-1", "alpha": "2"},
     "z3 says broken (z3 model a = 1, b = -1, alpha = 2, re-evaluated exactly)"),
])
def test_a_disagreement_quotes_z3s_own_answer(monkeypatch, z3_says, model, shown) -> None:
    """The withdrawn verdict's note says what z3 answered: its model when it found one."""
    cross = CrossCheck("z3", "holds", verdict=z3_says, agrees=False, model=model)
    monkeypatch.setattr(symmetries.smt, "cross_check", lambda *args, **kwargs: cross)
    result = symmetries.check_inverse_scaling("relu")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert result.note == f"the engines disagree: the symbolic engine says holds, {shown}; reported as inconclusive"


@pytest.mark.parametrize(("largest", "number"), [
    ("0", 0.0), ("1", 1.0), ("2.5", 2.5), ("1.0e-300", 1e-300),
    ("1.0e+400", None),    # beyond float64: it would read as inf
    ("1.0e-400", None),    # non-zero, but float64 would read it as 0
    ("0.0e-400", 0.0),
])
def test_the_largest_value_seen_is_a_json_number_only_where_float64_holds_it(largest, number) -> None:
    """Evidence is what was seen: never rounded to 0 or to inf, and always strict JSON."""
    assert magnitude(largest) == number
    seen = numeric_evidence(type("Seen", (), {"points": 3, "largest": largest})())
    assert json.loads(json.dumps(seen, allow_nan=False)) == {"points": 3, "largest": number}


@pytest.mark.parametrize(("c", "condition"), [
    (-S.One, "σ is odd: σ(−z) = −σ(z) for every real z"),
    (S(2), "σ(2·z) = 2·σ(z) for every real z"),
    (S(-1) / 2, "σ(-1/2·z) = -1/2·σ(z) for every real z"),
])
def test_a_fixed_scale_states_its_condition(c, condition) -> None:
    """α = −1 is oddness; every other fixed α is stated as σ(α·z) = α·σ(z)."""
    reduction = symmetries.fixed_scale(c)
    assert reduction.condition == condition
    s = sympy.Function("s")
    assert reduction.residual(s) == s(c * symmetries.Z) - c * s(symmetries.Z)
    assert reduction.witness(S(3)) == {A: S(3), B: S.One, ALPHA: c}


POINTS = [S(3), S.One, S(1) / 2, S.Zero, -S(1) / 2, -S.One, -S(3)]


@pytest.mark.parametrize("alpha", [None, "positive", "negative", "any", "-1", "2", "-1/3"])
@pytest.mark.parametrize("z0", POINTS, ids=str)
def test_each_reduction_maps_a_point_of_r_to_a_witness_of_the_statement(alpha, z0) -> None:
    """With σ opaque, the statement's difference at the witness of z0 is a non-zero rational
    multiple of r(z0), and the scale lies in its domain: r(z0) ≠ 0 gives D ≠ 0 there, so a
    point of the residual is a point of the statement, on every side of 0 and at 0 itself."""
    t = Transformation("inverse-scaling", domain(alpha)) if alpha else Transformation("exchange")
    unit = form("gated")
    reduction = symmetries._reduction(unit, t)
    values = reduction.witness(z0)
    assert t.domain is None or t.domain.contains(values[ALPHA])
    lhs, rhs = t.statement(unit, SIGMA)
    at_witness = (lhs - rhs).xreplace(values)
    target = reduction.residual(SIGMA).xreplace({symmetries.Z: z0})
    if target == 0:  # r(z0) = 0 for every σ (z0 = 1 in σ(z) − σ(1)·z): nothing to map
        assert at_witness == 0
        return
    ratio = sympy.cancel(at_witness / target)
    assert ratio.is_Rational and ratio != 0, (values, at_witness, target)
