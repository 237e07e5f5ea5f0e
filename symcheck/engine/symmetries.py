"""Decision procedures for the symmetries of a unit form.

The flow is the same for every check: state the ∀-statement with σ opaque; if the two sides
are already the same expression it holds for every σ. For the gated form under exchange and
inverse scaling, reduce it (a theorem whose necessity direction is machine-checked here) to a
one-variable residual and decide that; every other pair (custom forms, the rescalings) is
decided on the statement itself by :mod:`symcheck.engine.plane`: a case split covering the whole
space, or a certified point. A witness is always certified on the original statement, then
re-checked with SymPy's own evaluator: two code paths that share nothing with the search.
The decision is written as steps by :mod:`symcheck.engine.proof_steps`; its numeric evidence and
the fallback's certified find come from :mod:`symcheck.engine.evidence`. Knows no activation names.
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sympy
from sympy import S

from symcheck.core.budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from symcheck.core.errors import UnknownNameError
from symcheck.core.formula import (
    Apply,
    Numeral,
    Rel,
    Relation,
    Text,
)
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.core.verdict import CrossVerdict, Verdict
from symcheck.engine import smt
from symcheck.engine.certificate.emit import certify_statement, certify_witness
from symcheck.engine.check_result import CheckResult, CrossCheck
from symcheck.engine.evidence import fallback_witness, numeric_evidence
from symcheck.engine.guard import counterexample
from symcheck.engine.kernel_gate import Admission, admit
from symcheck.engine.plane import decide_plane, scale_regions, whole_line
from symcheck.engine.proof_steps import (
    LEFT_MINUS_RIGHT,
    R_OF_Z,
    D,
    approximately,
    case_steps,
    decimal,
    describe_certificate,
    enclosure,
    piece_steps,
    point_formula,
    statement_step,
)
from symcheck.engine.theorems import ANY, EXCHANGE, NEGATIVE, POSITIVE, Reduction, fixed_scale
from symcheck.engine.zero import ZeroDecision, constant_sign, decide_zero, opaque_constants
from symcheck.exact.evaluate import Certificate, certify_nonzero, recheck_sign
from symcheck.exact.regions import Region
from symcheck.exact.signs import EXACT_SIGN_BITS, Undecided, at_values
from symcheck.exact.zero_proof import generator_identity_safe
from symcheck.language.activations import Activation
from symcheck.language.activations import activation as _lookup
from symcheck.language.symbols import SIGMA, A, B, Z, substitute_sigma
from symcheck.language.transformations import DomainName, Transformation, TransformationKind
from symcheck.language.transformations import domain as _domain
from symcheck.language.unit_forms import Form
from symcheck.language.unit_forms import form as _form

RECHECK_DIGITS = 50


def check_exchange(act: str | Activation, form: str = "gated", *,
                   timeout: float = DEFAULT_TIMEOUT, params: Params = None) -> CheckResult:
    """Does swapping the query and key factors, (q, k) → (k, q), leave the unit unchanged?

    >>> check_exchange("silu").verdict.value
    'broken'
    >>> check_exchange("silu", form="rank1").verdict.value
    'holds'
    """
    return check(act, Transformation("exchange"), form, timeout=timeout, params=params)


def check_inverse_scaling(act: str | Activation, alpha: str | int | sympy.Rational = "positive",
                          form: str = "gated", *, timeout: float = DEFAULT_TIMEOUT,
                          params: Params = None) -> CheckResult:
    """Is (q, k) → (αq, k/α) a symmetry for every α in the domain (positive|negative|any|number)?

    >>> check_inverse_scaling("relu").verdict.value
    'holds'
    >>> check_inverse_scaling("tanh", alpha=-1).verdict.value
    'holds'
    """
    return check(act, Transformation("inverse-scaling", _domain(alpha)), form, timeout=timeout, params=params)


def check(act: str | Activation, transformation: Transformation, form: str | Form = "gated", *,
          timeout: float = DEFAULT_TIMEOUT, params: Params = None) -> CheckResult:
    """``params`` (``{"beta": "beta>0"}``, or the CLI's list of ``--param`` texts) makes σ a family:
    the verdict is then for every parameter value in the declared range, a
    :class:`~symcheck.engine.family_result.FamilyResult` with its ``regions``."""
    unit = form if isinstance(form, Form) else _form(form)
    if params:
        return _check_family(act, transformation, unit, timeout, params)
    started = time.perf_counter()
    budget = Budget(timeout)
    # Parsing is bounded by its own documented limits; the budget is for the proof work.
    sigma = act if isinstance(act, Activation) else _lookup(act)
    unit.check_defined(sigma)  # a custom form must be defined on all of R² for this σ
    statement = _Statement(sigma, transformation, unit)
    try:
        decision = _decide(statement, budget)
    except BudgetExceeded:
        decision = Decision(Verdict.INCONCLUSIVE, note="the time budget ran out")
    except Exception as err:
        if not failed_outside(err):
            raise  # a bug in symcheck itself: the CLI reports it as an internal error
        decision = Decision(Verdict.INCONCLUSIVE,
                            note=f"{failed_outside(err)} failed inside the decision ({type(err).__name__}: "
                                 f"{' '.join(str(err).split())[:160]}); nothing was decided")
    if decision.verdict is Verdict.HOLDS:
        decision = _guard(statement, decision, budget, time.perf_counter() - started)
    admission = None
    if decision.verdict in (Verdict.HOLDS, Verdict.BROKEN):
        decision, admission = _kernel(statement, decision, budget)
    cross, decision = _cross_check(statement, decision, budget)
    return CheckResult(
        kernel=admission,
        transformation=transformation, form=unit, activation=sigma, verdict=decision.verdict,
        witness=decision.witness,
        steps=decision.steps, residual=decision.residual, evidence=decision.evidence, note=decision.note,
        elapsed=time.perf_counter() - started, cross_check=cross,
        every_sigma=decision.every_sigma and decision.verdict is Verdict.HOLDS)


#: declared parameters as the API takes them: {"beta": "beta>0"}, ["beta>0"], or None
Params = Mapping[str, str | None] | list[str] | None


def _check_family(act: str | Activation, transformation: Transformation, unit: Form, timeout: float, params: Params):
    """σ with declared parameters (imported on use: most checks have none)."""
    from symcheck.engine.families import check_family
    from symcheck.language.family import parse_family
    if not isinstance(act, str):
        raise UnknownNameError("activation with parameters", repr(act))
    return check_family(parse_family(act, params), transformation, unit, ordinary=check, timeout=timeout)


@dataclass(frozen=True)
class _Statement:
    """What is being decided: σ, the transformation and the unit, with the two sides, σ opaque."""

    sigma: Activation
    t: Transformation
    unit: Form

    @property
    def sides(self) -> tuple[sympy.Expr, sympy.Expr]:
        return self.t.statement(self.unit, SIGMA)

    @property
    def difference(self) -> sympy.Expr:
        """D = left − right with σ substituted: the statement holds iff D = 0 on the space."""
        lhs, rhs = self.sides
        return substitute_sigma(lhs - rhs, self.sigma)

    @property
    def space(self) -> dict[sympy.Symbol, tuple[Region, ...]]:
        """Every variable's range: a and b over R, the scale over its domain."""
        space = {A: whole_line(), B: whole_line()}
        if self.t.domain is not None:
            space[self.t.scale] = scale_regions(self.t.domain.name, self.t.domain.value)
        return space


@dataclass(frozen=True)
class Decision:
    """What deciding a statement produced, before the guard and the cross-check."""

    verdict: Verdict
    steps: tuple[Step, ...] = ()
    residual: sympy.Expr = S.Zero
    witness: Mapping[str, sympy.Rational] | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    every_sigma: bool = False  # holds with σ left opaque: no property of σ was used


def failed_outside(err: BaseException) -> str:
    """The library an exception was raised in (SymPy, mpmath, FLINT), or "" if in symcheck.

    A library that fails on a valid input leaves that decision open (inconclusive); an
    exception raised by symcheck's own code is a bug and is not hidden.
    """
    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_code.co_filename if tb is not None else ""
    parts = where.replace("\\", "/").split("/")
    for library, name in (("sympy", "SymPy"), ("mpmath", "mpmath"), ("flint", "python-flint")):
        if library in parts:
            return name
    return ""


def _kernel(statement: _Statement, decision: Decision, budget: Budget) -> tuple[Decision, Admission]:
    """The independent kernel re-checks the statement itself (σ substituted into the form, not
    the reduced residual) before a proof or a witness is reported; a refusal leaves it inconclusive."""
    if decision.verdict is Verdict.BROKEN:  # the witness too: the kernel re-evaluates the statement there
        outcome = certify_witness(statement.sigma, statement.t, statement.unit, dict(decision.witness or {}))
    else:
        seconds = max(1.0, budget.remaining())
        outcome = certify_statement(statement.sigma, statement.t, statement.unit, seconds=seconds)
    admission = admit(outcome)
    if admission.accepted:
        return decision, admission
    return replace(decision, verdict=Verdict.INCONCLUSIVE, note=admission.note, every_sigma=False), admission


def _guard(statement: _Statement, decision: Decision, budget: Budget, elapsed: float) -> Decision:
    """Search the original statement for a certified counterexample before reporting a proof."""
    difference = statement.difference
    space = {v: r for v, r in statement.space.items() if v in difference.free_symbols}
    if not space:
        return decision
    found = counterexample(difference, space, budget, elapsed=elapsed)
    if found is None:
        return decision
    values = {v: found.point[v] for v in space}
    origin = "found by the guard that runs before a proof is reported; the proof above is withdrawn"
    try:
        with budget.step():
            witnessed = _certified(statement, values, origin, difference, list(decision.steps), {},
                                   "certified on the statement itself, by exact or interval arithmetic")
    except BudgetExceeded:
        witnessed = None
    withdrawn = "the proof was withdrawn: a certified counterexample contradicts it"
    if witnessed is None or witnessed.verdict is not Verdict.BROKEN:
        return replace(decision, verdict=Verdict.INCONCLUSIVE, note=withdrawn + " (not re-certified in time)")
    return replace(decision, verdict=Verdict.BROKEN, witness=witnessed.witness, steps=witnessed.steps,
                   note=withdrawn)


# --- the second engine: z3 on piecewise-polynomial statements --------------------------------

def _cross_check(statement: _Statement, decision: Decision,
                 budget: Budget) -> tuple[CrossCheck | None, Decision]:
    """Decide the statement again with z3 where it is covered; a disagreement is inconclusive.

    The second engine shares no decision code with this module (see :mod:`symcheck.engine.smt`); it
    never upgrades a verdict, and when it contradicts one the result says so and is withdrawn.
    """
    verdict, note = decision.verdict, decision.note
    cross = smt.cross_check(statement.sigma, statement.t, statement.unit, verdict, decision.witness,
                            seconds=min(smt.SMT_SECONDS, budget.remaining()))
    if cross is None or cross.agrees is not False:
        return cross, decision
    smt_says = ("holds (z3 finds no counterexample: unsat)" if cross.verdict is CrossVerdict.HOLDS else
                "broken (z3 model " + ", ".join(f"{k} = {v}" for k, v in (cross.model or {}).items())
                + ", re-evaluated exactly)" if cross.verdict is CrossVerdict.BROKEN else cross.verdict.value)
    if verdict is Verdict.BROKEN and cross.witness_confirmed is False:
        smt_says += "; z3 evaluates left = right at the symbolic engine's witness"
    disagreement = (f"the engines disagree: the symbolic engine says {verdict.value}, z3 says {smt_says}; "
                    "reported as inconclusive")
    return cross, replace(decision, verdict=Verdict.INCONCLUSIVE, witness=None,
                          note=f"{note}; {disagreement}" if note else disagreement)


def _decide(statement: _Statement, budget: Budget) -> Decision:
    sigma, t, unit = statement.sigma, statement.t, statement.unit
    lhs, rhs = statement.sides
    opaque = lhs - rhs
    steps = [statement_step(lhs, rhs, t)]
    if generator_identity_safe(opaque):  # exact: σ's applications are independent atoms
        steps.append(Step("Proof", "both sides are the same expression for every σ",
                          Relation(Rel.EQ, lhs, rhs),
                          "with σ left opaque the two sides expand to the same expression "
                          "(e.g. a·b = b·a, (αa)(b/α) = ab), so no property of σ is needed",
                          Status.VERIFIED))
        return Decision(Verdict.HOLDS, tuple(steps), every_sigma=True)
    if not _has_reduction(unit, t):
        return _decide_plane(statement, budget, steps)
    reduction = _reduction(unit, t)
    steps.append(_reduction_step(reduction, opaque, t))
    residual = reduction.residual(sigma)
    steps.append(Step("Residual", f"r(z) = {text(residual)}",
                      Relation(Rel.EQ, R_OF_Z, residual),
                      "the condition above with σ substituted; the symmetry holds iff r ≡ 0 on R",
                      Status.GIVEN))
    try:
        decision = decide_zero(residual, Z, budget)
    except BudgetExceeded:
        decision = ZeroDecision(Verdict.INCONCLUSIVE, residual, note="the time budget ran out")
    evidence = numeric_evidence(decision.evidence)
    if decision.verdict is Verdict.INCONCLUSIVE:
        found, evidence = fallback_witness(residual, {Z: None}, budget, evidence)
        if found is not None:
            decision = ZeroDecision(Verdict.BROKEN, residual, decision.pieces, found.witness[Z],
                                    found.certificate, decision.evidence)
    if decision.verdict is Verdict.BROKEN:
        try:
            with budget.step():
                return _broken(statement, reduction, decision, list(steps), evidence)
        except BudgetExceeded:
            return Decision(Verdict.INCONCLUSIVE, tuple(steps), residual, None, evidence,
                            "the time budget ran out while certifying the witness on the original statement")
    steps.extend(piece_steps(decision))
    return Decision(decision.verdict, tuple(steps), residual, None, evidence, decision.note)


def _has_reduction(unit: Form, t: Transformation) -> bool:
    return (unit.name == "gated" and not unit.custom
            and t.name in (TransformationKind.EXCHANGE, TransformationKind.INVERSE_SCALING))


def _reduction(unit: Form, t: Transformation) -> Reduction:
    if not _has_reduction(unit, t):
        raise ValueError(f"no reduction is known for {t.name} on the {unit.name} form")
    if t.name is TransformationKind.EXCHANGE:
        return EXCHANGE
    domain = t.domain
    assert domain is not None  # inverse scaling (the other reduction) always has one (Transformation)
    if domain.value is not None:
        return fixed_scale(domain.value)
    return {DomainName.POSITIVE: POSITIVE, DomainName.NEGATIVE: NEGATIVE, DomainName.ANY: ANY}[domain.name]


def _reduction_step(reduction: Reduction, opaque: sympy.Expr, t: Transformation) -> Step:
    """State the reduction and machine-check its necessity direction.

    For the generic point z of each sign, the witness map must turn the statement's residual
    D into a non-zero multiple of r(z) with σ left arbitrary: then D ≡ 0 forces r ≡ 0, and a
    point with r ≠ 0 is a point with D ≠ 0.
    """
    r = reduction.residual(SIGMA)
    ok = all(_multiple_of(opaque, r, reduction, z) for z in
             (sympy.Symbol("t", positive=True), -sympy.Symbol("t", positive=True), S.Zero))
    return Step("Reduction", f"⇔ {reduction.condition}", reduction.condition_formula,
                reduction.proof + (" Necessity checked by substitution with σ arbitrary."
                                   if ok else " The substitution check did not confirm it."),
                Status.VERIFIED if ok else Status.FAILED)


def _multiple_of(opaque: sympy.Expr, r: sympy.Expr, reduction: Reduction, z: sympy.Expr) -> bool:
    values = reduction.witness(z)  # a symbol of known sign takes the matching branch
    at_witness = opaque.xreplace(values)
    target = r.xreplace({Z: z})
    if target == 0:
        return at_witness == 0
    ratio = sympy.cancel(at_witness / target)
    if ratio.has(SIGMA):
        return False
    if ratio.is_number:  # its sign certified, never SymPy's is_nonzero of a number
        return constant_sign(ratio) in (1, -1)
    opaque, _ = opaque_constants(ratio)  # in t > 0: SymPy's assumptions on the symbol only
    return opaque.is_nonzero is True


def _broken(statement: _Statement, reduction: Reduction, decision: ZeroDecision, steps: list[Step],
            evidence: Mapping[str, Any]) -> Decision:
    values = reduction.witness(decision.point)
    origin = (f"from z = {text(decision.point)}, where r(z) is certified non-zero "
              f"({describe_certificate(decision.certificate)})")
    return _certified(statement, values, origin, decision.residual, steps, evidence)


def _certified(statement: _Statement, values: Mapping[sympy.Symbol, sympy.Rational], origin: str,
               residual: sympy.Expr, steps: list[Step], evidence: Mapping[str, Any],
               basis: str = "certified on the original statement, not the reduced residual") -> Decision:
    """Certify the statement itself at ``values``, re-checked by a second arithmetic: broken, or not."""
    sigma, t = statement.sigma, statement.t
    lhs, rhs = statement.sides
    concrete = statement.difference
    # a scale in the point means a scaling, and a scaling has a domain (Transformation)
    in_domain = t.scale not in values or (t.domain is not None and t.domain.contains(values[t.scale]))
    certificate = certify_nonzero(concrete, values, max_prec=EXACT_SIGN_BITS) if in_domain else None
    recheck = _recheck(concrete, values, certificate)
    witness_text = ", ".join(f"{text(s)} = {text(v)}" for s, v in values.items())
    steps.append(Step("Witness", witness_text, point_formula(values),
                      origin, Status.GIVEN))
    for title, side in (("Left side", lhs), ("Right side", rhs)):
        exact = at_values(substitute_sigma(side, sigma), values)
        approx = "" if exact.is_Rational else f" ≈ {decimal(exact)}"
        steps.append(Step(title, f"{text(side)} = {text(exact)}{approx}",
                          approximately(Relation(Rel.EQ, side, exact), decimal(exact) if approx else None),
                          "exact value at the witness", Status.GIVEN))
    if certificate is None or recheck is None:
        why = (f"the witness is outside the {t.scale_text} domain" if not in_domain else
               "the original statement could not be certified at the witness" if certificate is None
               else "the independent re-check does not confirm the certificate's sign")
        steps.append(Step("Certificate", why, Text("not certified"), "", Status.FAILED))
        return Decision(Verdict.INCONCLUSIVE, tuple(steps), residual, None, evidence, why)
    steps.append(Step("Certificate", f"left − right ≠ 0: {describe_certificate(certificate)}",
                      Relation(Rel.IN, LEFT_MINUS_RIGHT, enclosure(certificate)),
                      basis, Status.CERTIFIED))
    steps.append(Step("Re-check", f"mpmath interval arithmetic agrees on the sign: ≈ {recheck}",
                      Relation(Rel.APPROX, None, Numeral(recheck)), "an evaluator independent of the certifier agrees",
                      Status.VERIFIED))
    witness = {str(s): v for s, v in values.items()}
    return Decision(Verdict.BROKEN, tuple(steps), residual, witness, evidence)


def _recheck(concrete: sympy.Expr, values: Mapping[sympy.Symbol, sympy.Rational],
             certificate: Certificate | None) -> str | None:
    """A second arithmetic (mpmath intervals, from the expression tree; not Arb, not SymPy's
    relational evaluation) must give the certified sign; the value shown is for reading only."""
    if certificate is None:
        return None
    if recheck_sign(concrete, values, max_prec=EXACT_SIGN_BITS) != certificate.sign:
        return None
    try:
        shown = at_values(concrete, values).evalf(RECHECK_DIGITS)
        if shown.is_number and shown.is_real:
            return text(shown.evalf(20))
    except (TypeError, ValueError, Undecided):  # the shown value is for reading only
        pass
    return certificate.decimal(20)


def _decide_plane(statement: _Statement, budget: Budget, steps: list[Step]) -> Decision:
    """No reduction: decide D = lhs − rhs = 0 on the whole space of (a, b, scale) directly."""
    sigma, t = statement.sigma, statement.t
    lhs, rhs = statement.sides
    difference, space = statement.difference, statement.space
    names = ", ".join(text(v) for v in space)
    steps.append(Step("Difference", f"D({names}) = {text(difference)}",
                      Relation(Rel.EQ, Apply(D, tuple(space)), difference),
                      "left − right with σ substituted; the symmetry holds iff D = 0 at every point",
                      Status.GIVEN))
    if (t.name is TransformationKind.QUERY_VALUE_RESCALING and not t.degree.is_integer and t.domain is not None
            and t.domain.name is not DomainName.POSITIVE and not (t.domain.value is not None and t.domain.value > 0)):
        note = f"α^{text(t.degree)} is not real for negative α"
        return Decision(Verdict.INCONCLUSIVE, tuple(steps), difference, None, {}, note)
    decision = decide_plane(substitute_sigma(lhs, sigma), substitute_sigma(rhs, sigma), space, budget)
    evidence = numeric_evidence(decision.evidence)
    if decision.verdict is Verdict.INCONCLUSIVE:
        found, evidence = fallback_witness(difference, space, budget, evidence)
        if found is not None:
            origin = f"found by the numeric fallback, certified ({describe_certificate(found.certificate)})"
            with budget.step():
                return _certified(statement, dict(found.witness), origin, difference, steps,
                                  evidence, "certified on the statement itself, by exact or interval arithmetic")
    if decision.verdict is Verdict.BROKEN:
        origin = (f"found on {decision.found}, where D is certified non-zero "
                  f"({describe_certificate(decision.certificate)})")
        assert decision.witness is not None  # a broken plane decision always carries its point
        try:
            with budget.step():
                return _certified(statement, decision.witness, origin, difference, steps, evidence,
                                  "certified on the statement itself, by exact or interval arithmetic")
        except BudgetExceeded:
            return Decision(Verdict.INCONCLUSIVE, tuple(steps), difference, None, evidence,
                            "the time budget ran out while certifying the witness on the original statement")
    steps.extend(case_steps(decision, space))
    return Decision(decision.verdict, tuple(steps), difference, None, evidence, decision.note)
