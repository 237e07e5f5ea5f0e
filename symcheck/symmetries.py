"""Decision procedures for exchange and inverse scaling on a unit form.

The flow is the same for every check: state the ∀-statement with σ opaque; if the two sides
are already the same expression it holds for every σ; otherwise reduce it (a theorem whose
necessity direction is machine-checked here) to a one-variable residual and decide that.
A witness found on the residual is mapped back to (a, b, α) and certified on the original
statement, then re-checked with SymPy's own evaluator: two code paths that share nothing
with the search. Knows no activation names.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import sympy
from sympy import S

from .activations import Activation, activation as _lookup
from .budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from .evaluate import Certificate, certify_nonzero
from .forms import Form, form as _form
from .printing import text
from .results import CheckResult, Step
from .symbols import A, ALPHA, B, SIGMA, Z
from .theorems import ANY, EXCHANGE, NEGATIVE, POSITIVE, Reduction, fixed_scale
from .transformations import Domain, Transformation, domain as _domain
from .verdict import Verdict
from .zero import ZeroDecision, decide_zero

RECHECK_DIGITS = 50


def check_exchange(act: str | Activation, form: str = "gated", *,
                   timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    """Does swapping the query and key factors, (q, k) → (k, q), leave the unit unchanged?

    >>> check_exchange("silu").verdict.value
    'broken'
    >>> check_exchange("silu", form="rank1").verdict.value
    'holds'
    """
    return check(act, Transformation("exchange"), form, timeout=timeout)


def check_inverse_scaling(act: str | Activation, alpha: str | int | sympy.Rational = "positive",
                          form: str = "gated", *, timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    """Is (q, k) → (αq, k/α) a symmetry for every α in the domain (positive|negative|any|number)?

    >>> check_inverse_scaling("relu").verdict.value
    'holds'
    >>> check_inverse_scaling("tanh", alpha=-1).verdict.value
    'holds'
    """
    return check(act, Transformation("inverse-scaling", _domain(alpha)), form, timeout=timeout)


def check(act: str | Activation, transformation: Transformation, form: str | Form = "gated", *,
          timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    started = time.perf_counter()
    budget = Budget(timeout)
    unit = form if isinstance(form, Form) else _form(form)
    # Parsing is bounded by its own documented limits; the budget is for the proof work.
    sigma = act if isinstance(act, Activation) else _lookup(act)
    verdict, witness, steps, residual, evidence, note = _decide(sigma, transformation, unit, budget)
    domain = transformation.domain
    return CheckResult(
        symmetry=transformation.name, form=unit.name,
        domain=None if domain is None else (domain.name if domain.value is None else str(domain.value)),
        activation=sigma.name, formula=sigma.formula, verdict=verdict, witness=witness,
        steps=tuple(steps), residual=residual, evidence=evidence, note=note,
        elapsed=time.perf_counter() - started)


def _decide(sigma: Activation, t: Transformation, unit: Form, budget: Budget):
    lhs, rhs = t.statement(unit, SIGMA)
    opaque = lhs - rhs
    steps = [_statement(lhs, rhs, t)]
    if sympy.expand(opaque) == 0:
        steps.append(Step("Proof", "both sides are the same expression for every σ",
                          rf"{sympy.latex(lhs)} = {sympy.latex(rhs)}",
                          "the arguments of σ agree identically (a·b = b·a, (αa)(b/α) = ab), "
                          "so no property of σ is needed", "verified"))
        return Verdict.HOLDS, None, steps, S.Zero, {}, ""
    reduction = _reduction(unit, t)
    steps.append(_reduction_step(reduction, opaque, t))
    residual = reduction.residual(sigma)
    steps.append(Step("Residual", f"r(z) = {text(residual)}",
                      rf"r(z) = {sympy.latex(residual)}",
                      "the condition above with σ substituted; the symmetry holds iff r ≡ 0 on R",
                      "given"))
    try:
        decision = decide_zero(residual, Z, budget)
    except BudgetExceeded:
        decision = ZeroDecision(Verdict.INCONCLUSIVE, residual, note="the time budget ran out")
    evidence = {"points": decision.evidence.points, "largest": decision.evidence.largest}
    if decision.verdict is Verdict.BROKEN:
        try:
            with budget.step():
                return _broken(sigma, t, reduction, lhs, rhs, decision, list(steps), evidence)
        except BudgetExceeded:
            return (Verdict.INCONCLUSIVE, None, steps, residual, evidence,
                    "the time budget ran out while certifying the witness on the original statement")
    steps.extend(_piece_steps(decision))
    return decision.verdict, None, steps, residual, evidence, decision.note


def _reduction(unit: Form, t: Transformation) -> Reduction:
    if unit.name != "gated":
        raise ValueError(f"no reduction is known for the {unit.name} form")  # unreachable today
    if t.name == "exchange":
        return EXCHANGE
    if t.domain.value is not None:
        return fixed_scale(t.domain.value)
    return {"positive": POSITIVE, "negative": NEGATIVE, "any": ANY}[t.domain.name]


def _statement(lhs: sympy.Expr, rhs: sympy.Expr, t: Transformation) -> Step:
    scope = "a, b ∈ R" + (f", {t.domain.describe(t.scale_text)}" if t.domain else "")
    scope_latex = r"a, b \in \mathbb{R}" + (r",\ " + t.domain.latex(sympy.latex(t.scale)) if t.domain else "")
    return Step("Statement", f"for all {scope}: {text(lhs)} = {text(rhs)}",
                rf"\forall {scope_latex}:\ {sympy.latex(lhs)} = {sympy.latex(rhs)}",
                f"{t.describe()} applied to a = x·q, b = x·k", "given")


def _reduction_step(reduction: Reduction, opaque: sympy.Expr, t: Transformation) -> Step:
    """State the reduction and machine-check its necessity direction.

    For the generic point z of each sign, the witness map must turn the statement's residual
    D into a non-zero multiple of r(z) with σ left arbitrary: then D ≡ 0 forces r ≡ 0, and a
    point with r ≠ 0 is a point with D ≠ 0.
    """
    r = reduction.residual(SIGMA)
    ok = all(_multiple_of(opaque, r, reduction, z) for z in
             (sympy.Symbol("t", positive=True), -sympy.Symbol("t", positive=True), S.Zero))
    return Step("Reduction", f"⇔ {reduction.condition}", reduction.condition_latex,
                reduction.proof + (" Necessity checked by substitution with σ arbitrary."
                                   if ok else " The substitution check did not confirm it."),
                "verified" if ok else "failed")


def _multiple_of(opaque: sympy.Expr, r: sympy.Expr, reduction: Reduction, z: sympy.Expr) -> bool:
    values = reduction.witness(z)  # a symbol of known sign takes the matching branch
    at_witness = opaque.xreplace(values)
    target = r.xreplace({Z: z})
    if target == 0:
        return at_witness == 0
    ratio = sympy.cancel(at_witness / target)
    return not ratio.has(SIGMA) and ratio.is_nonzero is True


def _broken(sigma, t, reduction, lhs, rhs, decision, steps, evidence):
    values = reduction.witness(decision.point)
    concrete = _substitute(lhs - rhs, sigma)
    in_domain = ALPHA not in values or t.domain.contains(values[ALPHA])
    certificate = certify_nonzero(concrete, values) if in_domain else None
    recheck = _recheck(concrete, values, certificate)
    witness_text = ", ".join(f"{text(s)} = {text(v)}" for s, v in values.items())
    steps.append(Step("Witness", witness_text, ", ".join(rf"{sympy.latex(s)} = {sympy.latex(v)}"
                                                         for s, v in values.items()),
                      f"from z = {text(decision.point)}, where r(z) is certified non-zero "
                      f"({_describe(decision.certificate)})", "given"))
    for title, side in (("Left side", lhs), ("Right side", rhs)):
        exact = _substitute(side, sigma).xreplace(values)
        approx = "" if exact.is_Rational else f" ≈ {_decimal(exact)}"
        steps.append(Step(title, f"{text(side)} = {text(exact)}{approx}",
                          rf"{sympy.latex(side)} = {sympy.latex(exact)}"
                          + (rf" \approx {_decimal(exact)}" if approx else ""),
                          "exact value at the witness", "given"))
    if certificate is None or recheck is None:
        why = ("the witness is outside the α domain" if not in_domain else
               "the original statement could not be certified at the witness" if certificate is None
               else "SymPy's evaluation disagrees with the certificate")
        steps.append(Step("Certificate", why, r"\text{not certified}", "", "failed"))
        return Verdict.INCONCLUSIVE, None, steps, decision.residual, evidence, why
    steps.append(Step("Certificate", f"left − right ≠ 0: {_describe(certificate)}",
                      rf"\text{{left}} - \text{{right}} \in {_interval_latex(certificate)}",
                      "certified on the original statement, not the reduced residual", "certified"))
    steps.append(Step("Re-check", f"SymPy evalf at {RECHECK_DIGITS} digits: {recheck}",
                      rf"\approx {recheck}", "an evaluator independent of the certifier agrees",
                      "verified"))
    witness = {str(s): v for s, v in values.items()}
    return Verdict.BROKEN, witness, steps, decision.residual, evidence, ""


def _substitute(expr: sympy.Expr, sigma: Callable[[sympy.Expr], sympy.Expr]) -> sympy.Expr:
    return expr.replace(lambda e: getattr(e, "func", None) == SIGMA, lambda e: sigma(e.args[0]))


def _recheck(concrete: sympy.Expr, values: dict, certificate: Certificate | None) -> str | None:
    """SymPy's evalf, a different code path, must give a value of the certified sign."""
    if certificate is None:
        return None
    value = concrete.xreplace(values).evalf(RECHECK_DIGITS)
    if not value.is_number or value.is_real is not True or value == 0:
        return None
    sign = 1 if value > 0 else -1
    return text(value.evalf(20)) if sign == certificate.sign else None


def _describe(certificate: Certificate | None) -> str:
    if certificate is None:
        return "not certified"
    if certificate.exact:
        return f"exactly {certificate.lower}"
    return f"in [{certificate.lower}, {certificate.upper}] by interval arithmetic at {certificate.prec} bits"


def _interval_latex(certificate: Certificate) -> str:
    if certificate.exact:
        return rf"\{{{certificate.lower}\}}"
    return rf"[{certificate.lower},\ {certificate.upper}]"


def _decimal(value: sympy.Expr) -> str:
    return text(value.evalf(20)) if value.is_number else text(value)


def _piece_steps(decision: ZeroDecision) -> list[Step]:
    steps = []
    for piece in decision.pieces:
        region = piece.region.describe()
        status = {"proved": "verified", "nonzero": "certified"}.get(piece.status, piece.status)
        claim = "r = 0" if piece.status == "proved" else "r = ?"
        steps.append(Step(f"Case {region}", f"r(z) = {text(piece.expr)}; {claim}",
                          rf"{piece.region.latex()}:\ r(z) = {sympy.latex(piece.expr)}"
                          + (" = 0" if piece.status == "proved" else ""),
                          piece.method or {"timeout": "the time budget ran out",
                                           "unknown": "neither proved zero nor certified non-zero"}
                          .get(piece.status, ""), status))
    if decision.verdict is Verdict.HOLDS and len(decision.pieces) > 1:
        steps.append(Step("Cover", "the cases cover all of R", r"\bigcup = \mathbb{R}",
                          "open intervals between the cut points, and the cut points themselves",
                          "verified"))
    return steps
