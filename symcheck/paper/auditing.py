"""The symmetry audit: every formulation × every transformation, for one activation.

Unit-level rows are decided by ``symmetries.check`` under the soundness contract, and every
``broken`` row is certified once more here, on the row's own statement with σ substituted:
a row whose witness does not certify is ``inconclusive``. Query-value rescaling is a claim
about every degree p; :mod:`symcheck.engine.homogeneity` supplies the argument about the other p, and
each point of that argument is re-certified on the row's unit statement too. Rows that hold
for every σ because the bilinear argument itself is invariant (exchange, inverse scaling and
gauge on bilinear / rank-r, permutation everywhere) are proved once by matrix-expression
algebra (:mod:`symcheck.paper.structural`) and do not depend on the activation.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, cast, overload

import sympy
from sympy import S

from symcheck.core.budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from symcheck.core.formula import (
    And,
    Apply,
    Difference,
    Formula,
    Numeral,
    Operator,
    Power,
    Product,
    Rel,
    Relation,
    Text,
)
from symcheck.core.printing import text
from symcheck.core.rendering import render
from symcheck.core.results import Renderable, Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.check_result import CheckResult
from symcheck.engine.homogeneity import (
    SCALE,
    Degree,
    Excludes,
    Refutation,
    Unsettled,
    Vanishing,
    certified_sign,
    homogeneity_degree,
)
from symcheck.engine.proof_steps import LEFT_MINUS_RIGHT, enclosure
from symcheck.engine.symmetries import check
from symcheck.exact.evaluate import certify_nonzero
from symcheck.exact.zero_proof import generator_identity_safe
from symcheck.language.activations import Activation
from symcheck.language.activations import activation as _lookup
from symcheck.language.symbols import ALPHA, BETA, SIGMA, SIGMA_NAME, A, B, Z, sigma_at, substitute_sigma
from symcheck.language.transformations import Domain, StructuralKind, Transformation, TransformationKind, domain
from symcheck.language.unit_forms import Form
from symcheck.language.unit_forms import form as _form
from symcheck.paper.structural import STRUCTURAL

if TYPE_CHECKING:  # imported where used: a family audit is built only with params
    from symcheck.paper.family_audit import FamilyAudit

SCALING_DOMAINS = ("positive", "negative", "-1", "any")
#: witness keys (as results name them) -> the statement's symbols
SYMBOLS: dict[str, sympy.Symbol] = {"a": A, "b": B, "alpha": ALPHA, "beta": BETA}


class Ground(Enum):
    """What a row's verdict rests on."""

    EVERY_SIGMA = "every σ"                 # the two sides agree with σ left opaque
    CANCELS = "the sides cancel"            # σ substituted, the difference is 0 as written
    CASES = "proof by cases"
    WITNESS = "certified witness"
    NO_DEGREE = "no degree p works"         # query-value: every p refuted, by certified points
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class AuditRow:
    """One formulation × transformation × domain, with its verdict and what backs it.

    ``witness`` is set exactly on ``broken`` rows whose single point is certified on the row's
    own statement (for query-value rows: with p = ``degree``, or for every p when ``degree`` is
    None). ``homogeneity`` is the decision on the degrees (query-value rows only).
    """

    form: str
    transformation: TransformationKind | StructuralKind  # a unit's map, or a whole layer's
    domain: Domain | None             # where its scale ranges
    verdict: Verdict
    steps: tuple[Step, ...]
    witness: Mapping[str, sympy.Rational] | None = None
    degree: sympy.Expr | None = None
    ground: Ground = Ground.INCONCLUSIVE
    cases: int = 0
    reason: str = ""                  # inconclusive: what is missing
    homogeneity: Degree | None = None
    unit: str = ""                    # the unit-level statement's form, when one was checked

    @property
    def proof(self) -> str:
        """What backs the verdict, without the degree argument: "proof by 3 cases", "witness …"."""
        if self.ground is Ground.CASES:
            return f"proof by {self.cases} cases"
        if self.witness:
            return "witness " + witness_text(self.witness)
        if self.ground is Ground.INCONCLUSIVE:
            return "inconclusive: " + (self.reason or "see steps")
        return self.ground.value

    @property
    def basis(self) -> str:
        """One line for tables: "every σ", "proof by 3 cases", "witness a = 2, b = 1", …"""
        if self.homogeneity is None:
            return self.proof
        if self.ground is Ground.NO_DEGREE and self.degree is not None:  # the pinned p, refuted
            return f"no degree p works: {self.proof} refutes p = {text(self.degree)}; {self.homogeneity.pin}"
        if self.ground is Ground.NO_DEGREE:
            return f"no degree p works: {self.homogeneity}" + (f" ({self.proof})" if self.witness else "")
        return f"{self.proof}; {self.homogeneity}"

    def to_dict(self) -> dict[str, Any]:
        return {"form": self.form, "transformation": self.transformation,
                "domain": None if self.domain is None else str(self.domain),
                "verdict": self.verdict.value,
                "degree": None if self.degree is None else text(self.degree),
                "witness": None if self.witness is None else {k: str(v) for k, v in self.witness.items()},
                "basis": self.basis, "ground": self.ground.name.lower().replace("_", "-"),
                "homogeneity": None if self.homogeneity is None else self.homogeneity.to_dict(),
                "unit": self.unit, "steps": [s.to_dict() for s in self.steps]}


def witness_text(witness: Mapping[str, sympy.Rational]) -> str:
    return ", ".join(f"{text(sympy.Symbol(k))} = {text(v)}" for k, v in witness.items())


@dataclass(frozen=True)
class Audit(Renderable):
    """Every row of one activation's audit; renders as a table."""


    activation: Activation
    rows: tuple[AuditRow, ...]
    elapsed: float = 0.0

    @property
    def formula(self) -> str:
        return self.activation.formula

    def to_dict(self) -> dict[str, Any]:
        return {"activation": self.activation.name, "formula": self.formula,
                "parsed": self.activation.parsed,
                "rows": [r.to_dict() for r in self.rows], "elapsed_seconds": round(self.elapsed, 3)}

    def row(self, form: str, transformation: TransformationKind | StructuralKind,
            domain: str | None = None) -> AuditRow:
        for r in self.rows:
            if (r.form, r.transformation, None if r.domain is None else str(r.domain)) == \
                    (form, transformation, domain):
                return r
        raise KeyError((form, transformation, domain))

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))


# --- unit-level rows ----------------------------------------------------------------------

#: formulation -> the unit form whose statement decides its rows, and the transformations
#: that make sense on it (mlp has no query factor: only key-value rescaling applies)
UNIT_ROWS: dict[str, tuple[str, tuple[TransformationKind, ...]]] = {
    "gated": ("gated", tuple(TransformationKind)),
    "rank1": ("rank1", tuple(TransformationKind)),
    "mlp": ("sigma(b)", (TransformationKind.KEY_VALUE_RESCALING,)),
    "query-mlp": ("sigma(b)", (TransformationKind.KEY_VALUE_RESCALING,)),
    # the bilinear unit is σ(s)·v with s = x Q_j K_jᵀ xᵀ ranging over R: for rescalings of one
    # factor and v it is the rank-1 statement in the scalar s
    "bilinear": ("rank1", (TransformationKind.KEY_VALUE_RESCALING, TransformationKind.QUERY_VALUE_RESCALING)),
    "rank-r": ("rank1", (TransformationKind.KEY_VALUE_RESCALING, TransformationKind.QUERY_VALUE_RESCALING)),
}
KEY_VALUE_DOMAINS = ("positive", "any")
QUERY_VALUE = TransformationKind.QUERY_VALUE_RESCALING


Checker = Callable[[Transformation, str], CheckResult]


def _unit_rows(sigma: Activation, form: str, unit: str, kinds: tuple[TransformationKind, ...],
               timeout: float, run: Checker) -> Iterator[AuditRow]:
    for kind in kinds:
        if kind == TransformationKind.EXCHANGE:
            yield _row(sigma, form, unit, Transformation("exchange"), run)
        elif kind == TransformationKind.INVERSE_SCALING:
            for d in SCALING_DOMAINS:
                yield _row(sigma, form, unit, Transformation(kind, domain(d)), run)
        elif kind == TransformationKind.KEY_VALUE_RESCALING:
            for d in KEY_VALUE_DOMAINS:
                yield _row(sigma, form, unit, Transformation(kind, domain(d)), run)
        else:
            yield _query_value_row(sigma, form, unit, timeout, run)


def _row(sigma: Activation, form: str, unit: str, t: Transformation, run: Checker) -> AuditRow:
    """The engine's verdict on the unit statement; a witness counts only once re-certified."""
    result = run(t, unit)
    base = AuditRow(form, t.name, t.domain, result.verdict, result.steps, unit=unit)
    if result.verdict is Verdict.HOLDS:
        lhs, rhs = t.statement(_form(unit), SIGMA)
        ground = (Ground.EVERY_SIGMA if generator_identity_safe(lhs - rhs) else
                  Ground.CASES if result.cases else Ground.CANCELS)
        return replace(base, ground=ground, cases=result.cases)
    if result.verdict is Verdict.INCONCLUSIVE:
        return replace(base, reason=result.note or "see steps")
    witness = result.witness
    step = None if witness is None else certify_witness(sigma, _form(unit), t, witness)
    if step is None or witness is None:
        failed = Step("Audit certificate", "the witness does not certify on the row's own statement",
                      Text("not certified"), "", Status.FAILED)
        return replace(base, verdict=Verdict.INCONCLUSIVE, steps=base.steps + (failed,),
                       reason="the witness could not be certified on the row's own statement")
    return replace(base, steps=base.steps + (step,), witness=dict(witness), ground=Ground.WITNESS)


def statement(sigma: Activation, unit: Form, t: Transformation) -> sympy.Expr:
    """left − right of the row's own statement, with σ substituted."""
    lhs, rhs = t.statement(unit, SIGMA)
    return substitute_sigma(lhs - rhs, sigma)


def certify_witness(sigma: Activation, unit: Form, t: Transformation,
                    witness: Mapping[str, Any]) -> Step | None:
    """A step certifying left − right ≠ 0 at ``witness`` on the statement itself, or None."""
    if not witness or set(witness) - set(SYMBOLS):
        return None
    values = {SYMBOLS[k]: sympy.Rational(v) for k, v in witness.items()}
    if not t.admits(values):
        return None
    certificate = certify_nonzero(statement(sigma, unit, t), values)
    if certificate is None:
        return None
    how = (f"exactly {certificate.lower}" if certificate.exact else
           f"in [{certificate.lower}, {certificate.upper}] at {certificate.prec} bits")
    where = (Relation(Rel.EQ, LEFT_MINUS_RIGHT, Numeral(str(certificate.lower))) if certificate.exact else
             Relation(Rel.IN, LEFT_MINUS_RIGHT, enclosure(certificate)))
    return Step("Audit certificate", f"left − right at {witness_text(witness)}: {how}", where,
                "certified again by the audit on this row's own statement, σ substituted", Status.CERTIFIED)


# --- query-value rescaling: a claim about every degree p -------------------------------------

def _query_value_row(sigma: Activation, form: str, unit: str, timeout: float, run: Checker) -> AuditRow:
    unit_form = _form(unit)
    decision = _degree(sigma, timeout)
    base = AuditRow(form, QUERY_VALUE, domain("positive"), Verdict.INCONCLUSIVE, (_degree_step(decision),),
                    homogeneity=decision, unit=unit)
    if decision.excludes_every_p:
        return _no_degree(sigma, unit_form, base, decision)
    p = decision.p if decision.p is not None else S.One if isinstance(decision.argument, Vanishing) else None
    if p is None:
        why = ("the pinned p could not be named exactly" if decision.pin is not None
               else str(decision.argument))
        return replace(base, reason=why)
    t = Transformation(QUERY_VALUE, domain("positive"), degree=p)
    row = _row(sigma, form, unit, t, run)
    row = replace(row, steps=base.steps + row.steps, degree=p, homogeneity=decision)
    if row.verdict is not Verdict.BROKEN:
        return row
    pin = decision.pin
    if pin is not None and pin.trusted:  # p is the pinned degree itself: the rest fail at the pin
        steps = _refute(sigma, unit_form, decision.refutations)
        if steps is None:
            return replace(row, verdict=Verdict.INCONCLUSIVE, witness=None, ground=Ground.INCONCLUSIVE,
                           reason="the pin could not be re-certified on the unit statement")
        return replace(row, steps=row.steps + steps, ground=Ground.NO_DEGREE)
    if isinstance(decision.argument, Vanishing):
        # the grid saw only zeros; the witness shows where σ is not: sample there
        again = _degree(sigma, timeout, _witness_points(row.witness))
        if again.excludes_every_p:
            return _no_degree(sigma, unit_form, replace(base, steps=(_degree_step(again),), homogeneity=again),
                              again)
    return replace(row, verdict=Verdict.INCONCLUSIVE, witness=None, ground=Ground.INCONCLUSIVE,
                   reason=f"p = {text(p)} fails at a certified witness; other p are not decided")


def query_value(act: str | Activation, form: str = "gated", *,
                timeout: float = DEFAULT_TIMEOUT) -> AuditRow:
    """The audit's query-value rescaling row alone: which degree p works, if any, and why.

    >>> query_value("relu2").degree
    2
    >>> query_value("Piecewise((1, Eq(z, 0)), (0, True))").degree
    0
    """
    sigma = _lookup(act)
    unit, kinds = UNIT_ROWS[form]
    if QUERY_VALUE not in kinds:
        raise ValueError(f"the {form} formulation has no query factor to rescale")
    return _query_value_row(sigma, form, unit, timeout,
                            lambda t, u: check(sigma, t, u, timeout=timeout))


def _degree(sigma: Activation, timeout: float, extra: tuple[sympy.Rational, ...] = ()) -> Degree:
    try:
        with Budget(timeout).step():
            return homogeneity_degree(sigma, extra)
    except BudgetExceeded:
        return Degree(Unsettled("the time budget ran out while sampling σ"))


def _witness_points(witness: Mapping[str, sympy.Rational] | None) -> tuple[sympy.Rational, ...]:
    """The arguments σ was applied to at a query-value witness (gated: a, αa; rank-1: ab, αab)."""
    if not witness:
        return ()
    a, b, alpha = (sympy.Rational(witness.get(k, 1)) for k in ("a", "b", "alpha"))
    return (a, alpha * a, a * b, alpha * a * b)


def _no_degree(sigma: Activation, unit: Form, base: AuditRow, decision: Degree) -> AuditRow:
    steps = _refute(sigma, unit, decision.refutations)
    if steps is None:
        return replace(base, reason="the argument could not be re-certified on the unit statement")
    single = [r for r in decision.refutations if r.excludes is Excludes.EVERY]
    witness = _point(single[0].z) if single else None
    return replace(base, verdict=Verdict.BROKEN, steps=base.steps + steps, witness=witness,
                   ground=Ground.NO_DEGREE)


def _point(z: sympy.Rational) -> dict[str, sympy.Rational]:
    return {"a": sympy.Rational(z), "b": S.One, "alpha": SCALE}


def _sides(sigma: Activation, unit: Form) -> tuple[sympy.Expr, sympy.Expr]:
    """(L, R) with the statement α^(−p)·L = R: L = u(αa, b), R = u(a, b), σ substituted."""
    return unit(sigma, ALPHA * A, B), unit(sigma, A, B)


#: in formulas: the two sides L, R at the witness and L′, R′ at the pinned point; the degree p
_L, _R, _L_, _R_, _P = sympy.symbols("L R L' R' p")


def _refute(sigma: Activation, unit: Form, refutations: tuple[Refutation, ...]) -> tuple[Step, ...] | None:
    """Re-certify each refutation on the unit statement α^(−p)·L = R at a = z, b = 1, α = 2."""
    left, right = _sides(sigma, unit)
    steps = []
    for r in refutations:
        at = {A: r.z, B: S.One, ALPHA: SCALE}
        where = witness_text(_point(r.z))
        if r.excludes is Excludes.PINNED:
            a1, b1, alpha1 = sympy.symbols("a_1 b_1 alpha_1", real=True)
            other = {A: a1, B: b1, ALPHA: alpha1}
            cross = left * right.xreplace(other) - left.xreplace(other) * right
            certificate = certify_nonzero(cross, {**at, a1: r.pin, b1: S.One, alpha1: SCALE})
            if certificate is None:
                return None
            claim = (f"at {where}, L·R' − L'·R ≠ 0 with L', R' at a = {text(r.pin)}: the ratio R/L differs "
                     f"from the pinned one, so the pinned p fails here")
            formula: Formula = Relation(Rel.NE, Difference(Product((_L, _R_)), Product((_L_, _R))), S.Zero)
        else:
            lsign, rsign = certified_sign(left, at), certified_sign(right, at)
            if r.excludes is Excludes.EVERY:
                ok = (lsign, rsign) in ((1, -1), (-1, 1), (0, 1), (0, -1), (1, 0), (-1, 0))
                claim = (f"at {where}, L = u(αa, b) has sign {lsign} and R = u(a, b) sign {rsign}: "
                         "2^(−p)·L = R fails for every p")
            else:
                ok = lsign in (1, -1) and lsign == rsign
                claim = (f"at {where}, L = u(αa, b) and R = u(a, b) are non-zero of one sign: "
                         "2^(−p)·L = R for one p only")
            if not ok:
                return None
            formula = And((Relation(Rel.EQ, Operator("sign", _L), S(lsign)),
                           Relation(Rel.EQ, Operator("sign", _R), S(rsign))))
        steps.append(Step("Refutation", claim, formula, f"rules out {r.excludes.value}; certified on the "
                          "unit statement by exact or interval arithmetic", Status.CERTIFIED))
    return tuple(steps)


def _degree_step(decision: Degree) -> Step:
    status = Status.CERTIFIED if decision.excludes_every_p or decision.pin is not None else Status.UNKNOWN
    doubled = Apply(SIGMA_NAME, (Product((S(2), Z)),))
    return Step("Degree", str(decision),
                Relation(Rel.EQ, doubled, Product((Power(S(2), _P), sigma_at(Z)))),
                "if σ(αz) = α^p·σ(z) for every α > 0, then in particular at α = 2; σ's values at the "
                "sampled points are certified by exact or interval arithmetic", status)


# --- rows that hold for every σ: the bilinear argument is invariant --------------------------

def _structural_rows(form: str) -> Iterator[AuditRow]:
    for kind, dom, check_fn in STRUCTURAL.get(form, ()):
        ok, statement, formula, why = check_fn()
        verdict = Verdict.HOLDS if ok else Verdict.INCONCLUSIVE
        step = Step("Proof", statement, formula, why, Status.VERIFIED if ok else Status.FAILED)
        yield AuditRow(form, kind, None if dom is None else domain(dom), verdict, (step,),
                       ground=Ground.EVERY_SIGMA if ok else Ground.INCONCLUSIVE,
                       reason="" if ok else "the matrix-expression check failed")


@overload
def audit(act: str | Activation, *, timeout: float = DEFAULT_TIMEOUT,
          progress: Callable[[str], None] | None = None, params: None = None) -> Audit: ...


@overload
def audit(act: str | Activation, *, timeout: float = DEFAULT_TIMEOUT,
          progress: Callable[[str], None] | None = None, params: Any = None) -> Audit | FamilyAudit: ...


def audit(act: str | Activation, *, timeout: float = DEFAULT_TIMEOUT,
          progress: Callable[[str], None] | None = None, params: Any = None) -> Audit | FamilyAudit:
    """Every transformation of docs/theory.md §2 on every formulation where it makes sense.

    ``timeout`` bounds each row's check; ``progress`` is called with a label after each form.
    ``params`` (``{"alpha": "0<alpha<1"}``, or the CLI's ``--param`` texts) makes σ a family: a
    :class:`~symcheck.paper.family_audit.FamilyAudit`, each row for every parameter value.
    """
    if params:
        from symcheck.paper.family_audit import Layout, audit_family
        layout = Layout(UNIT_ROWS, SCALING_DOMAINS, KEY_VALUE_DOMAINS, QUERY_VALUE, _structural_rows, _degree)
        if not isinstance(act, str):
            from symcheck.core.errors import UnknownNameError
            raise UnknownNameError("activation with parameters", repr(act))
        return audit_family(act, params, layout, timeout=timeout, progress=progress)
    started = time.perf_counter()
    sigma = _lookup(act)
    done: dict[tuple[Transformation, str], CheckResult] = {}

    def run(t: Transformation, unit: str) -> CheckResult:
        # several formulations share one unit statement (rank1, bilinear, rank-r; mlp, query-mlp)
        if (t, unit) not in done:
            done[t, unit] = check(sigma, t, unit, timeout=timeout)
        return done[t, unit]

    rows: list[AuditRow] = []
    for form, (unit, kinds) in UNIT_ROWS.items():
        rows.extend(_unit_rows(sigma, form, unit, kinds, timeout, run))
        rows.extend(_structural_rows(form))
        if progress:
            progress(form)
    return Audit(sigma, tuple(rows), time.perf_counter() - started)
