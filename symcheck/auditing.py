"""The symmetry audit: every formulation × every transformation, for one activation.

Unit-level rows are decided by ``symmetries.check`` under the soundness contract. Rows that
hold for every σ because the bilinear argument itself is invariant (exchange, inverse scaling
and gauge on bilinear / rank-r, permutation everywhere) are proved once by matrix-expression
algebra, here, and do not depend on the activation.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import sympy
from sympy import S

from .activations import Activation, activation as _lookup
from .budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from .homogeneity import homogeneity_degree
from .printing import text
from .results import CheckResult, Renderable, Step
from .symmetries import check
from .transformations import Transformation, domain
from .verdict import Verdict

SCALING_DOMAINS = ("positive", "negative", "-1", "any")


@dataclass(frozen=True)
class AuditRow:
    """One formulation × transformation × domain, with its verdict and what backs it."""

    form: str
    transformation: str
    domain: str | None
    verdict: Verdict
    steps: tuple[Step, ...]
    witness: dict[str, sympy.Rational] | None = None
    degree: sympy.Expr | None = None
    basis: str = ""       # one line: "every σ", "proof by cases", "witness a = 2, b = 1", …
    unit: str = ""        # the unit-level statement's form, when one was checked

    def to_dict(self) -> dict[str, Any]:
        return {"form": self.form, "transformation": self.transformation, "domain": self.domain,
                "verdict": self.verdict.value,
                "degree": None if self.degree is None else text(self.degree),
                "witness": None if self.witness is None else {k: str(v) for k, v in self.witness.items()},
                "basis": self.basis, "unit": self.unit, "steps": [s.to_dict() for s in self.steps]}


@dataclass(frozen=True)
class Audit(Renderable):
    """Every row of one activation's audit; renders as a table."""

    _rich_renderer: ClassVar[str] = "rich_audit"
    _latex_renderer: ClassVar[str] = "audit_fragment"

    activation: str
    formula: str
    rows: tuple[AuditRow, ...]
    elapsed: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"activation": self.activation, "formula": self.formula,
                "rows": [r.to_dict() for r in self.rows], "elapsed_seconds": round(self.elapsed, 3)}

    def row(self, form: str, transformation: str, domain: str | None = None) -> AuditRow:
        for r in self.rows:
            if (r.form, r.transformation, r.domain) == (form, transformation, domain):
                return r
        raise KeyError((form, transformation, domain))

    def __str__(self) -> str:
        lines = [f"symmetry audit, σ = {self.activation}: {self.formula}"]
        for r in self.rows:
            where = f" ({r.domain})" if r.domain else ""
            p = f", p = {text(r.degree)}" if r.degree is not None else ""
            lines.append(f"  {r.form:<10} {r.transformation + where:<34} {r.verdict.value:<12} {r.basis}{p}")
        return "\n".join(lines)


# --- unit-level rows ----------------------------------------------------------------------

#: formulation -> the unit form whose statement decides its rows, and the transformations
#: that make sense on it (mlp has no query factor: only key-value rescaling applies)
UNIT_ROWS: dict[str, tuple[str, tuple[str, ...]]] = {
    "gated": ("gated", ("exchange", "inverse-scaling", "key-value-rescaling", "query-value-rescaling")),
    "rank1": ("rank1", ("exchange", "inverse-scaling", "key-value-rescaling", "query-value-rescaling")),
    "mlp": ("sigma(b)", ("key-value-rescaling",)),
    "query-mlp": ("sigma(b)", ("key-value-rescaling",)),
    # the bilinear unit is σ(s)·v with s = x Q_j K_jᵀ xᵀ ranging over R: for rescalings of one
    # factor and v it is the rank-1 statement in the scalar s
    "bilinear": ("rank1", ("key-value-rescaling", "query-value-rescaling")),
    "rank-r": ("rank1", ("key-value-rescaling", "query-value-rescaling")),
}
KEY_VALUE_DOMAINS = ("positive", "any")


Checker = Callable[[Transformation, str], CheckResult]


def _unit_rows(sigma: Activation, form: str, unit: str, kinds: tuple[str, ...],
               timeout: float, run: Checker) -> Iterator[AuditRow]:
    for kind in kinds:
        if kind == "exchange":
            yield _row(form, unit, run(Transformation("exchange"), unit))
        elif kind == "inverse-scaling":
            for d in SCALING_DOMAINS:
                yield _row(form, unit, run(Transformation(kind, domain(d)), unit))
        elif kind == "key-value-rescaling":
            for d in KEY_VALUE_DOMAINS:
                yield _row(form, unit, run(Transformation(kind, domain(d)), unit))
        else:
            yield _query_value_row(sigma, form, unit, timeout, run)


def _row(form: str, unit: str, result: CheckResult, degree: sympy.Expr | None = None,
         extra: tuple[Step, ...] = ()) -> AuditRow:
    return AuditRow(form, result.symmetry, result.domain, result.verdict, extra + result.steps,
                    None if result.witness is None else dict(result.witness), degree,
                    _basis(result), unit)


def _basis(result: CheckResult) -> str:
    if result.verdict is Verdict.BROKEN:
        return "witness " + ", ".join(f"{text(sympy.Symbol(k))} = {text(v)}" for k, v in result.witness.items())
    if result.verdict is Verdict.HOLDS:
        cases = sum(1 for s in result.steps if s.title.startswith("Case"))
        return f"proof by {cases} cases" if cases else "every σ"
    return "inconclusive: " + (result.note or "see steps")


def _query_value_row(sigma: Activation, form: str, unit: str, timeout: float, run: Checker) -> AuditRow:
    budget = Budget(timeout)
    try:
        with budget.step():
            found = homogeneity_degree(sigma)
    except BudgetExceeded:
        found = None
    kind = "query-value-rescaling"
    if found is None or found.p is None:
        reason = "the time budget ran out" if found is None else found.reason
        status = "certified" if found is not None and found.impossible else "unknown"
        verdict = Verdict.BROKEN if status == "certified" else Verdict.INCONCLUSIVE
        step = Step("Degree", reason, r"\sigma(2\alpha)/\sigma(\alpha)", "the ratio σ(2)/σ(1) must be 2^p",
                    status)
        # No p at all: the pair (α = 2, a = 1, b = 1) refutes every degree at once.
        witness = {"a": S.One, "b": S.One, "alpha": sympy.Integer(2)} if status == "certified" else None
        return AuditRow(form, kind, "positive", verdict, (step,), witness, None,
                        "no degree p works" if witness else f"inconclusive: {reason}", unit)
    result = run(Transformation(kind, domain("positive"), degree=found.p), unit)
    step = Step("Degree", found.reason, rf"p = {sympy.latex(found.p)}",
                "if σ(αz) = α^p σ(z) for all α > 0 then σ(2) = 2^p σ(1): only this p can work",
                "verified")
    row = _row(form, unit, result, found.p, (step,))
    if row.verdict is Verdict.BROKEN:  # the witness refutes this p; the ratio refutes the rest
        row = AuditRow(**{**row.__dict__, "basis": row.basis + " (other p: fail at σ(2)/σ(1))"})
    return row


# --- rows that hold for every σ: the bilinear argument is invariant --------------------------

def _structural_rows(form: str) -> Iterator[AuditRow]:
    for kind, dom, check_fn in STRUCTURAL.get(form, ()):
        ok, statement, latex, why = check_fn()
        verdict = Verdict.HOLDS if ok else Verdict.INCONCLUSIVE
        step = Step("Proof", statement, latex, why, "verified" if ok else "failed")
        yield AuditRow(form, kind, dom, verdict, (step,), basis="every σ" if ok else "check failed")


def _matrices():
    d, r = sympy.Symbol("d", integer=True, positive=True), sympy.Symbol("r", integer=True, positive=True)
    x = sympy.MatrixSymbol("x", 1, d)
    q, k = sympy.MatrixSymbol("Q_j", d, r), sympy.MatrixSymbol("K_j", d, r)
    g = sympy.MatrixSymbol("A", r, r)
    return x, q, k, g


def _argument(x, q, k) -> sympy.MatrixExpr:
    return x * q * k.T * x.T


def _exchange_argument() -> tuple[bool, str, str, str]:
    x, q, k, _ = _matrices()
    swapped, original = _argument(x, k, q), _argument(x, q, k)
    ok = sympy.transpose(original).doit() == swapped and original.shape == (1, 1)
    return (ok, "x Q_j K_jᵀ xᵀ = (x Q_j K_jᵀ xᵀ)ᵀ = x K_j Q_jᵀ xᵀ",
            r"x Q_j K_j^{\top} x^{\top} = \left(x Q_j K_j^{\top} x^{\top}\right)^{\top} = x K_j Q_j^{\top} x^{\top}",
            "the argument is a 1×1 matrix, equal to its transpose (checked by matrix-expression algebra)")


def _scaling_argument() -> tuple[bool, str, str, str]:
    x, q, k, _ = _matrices()
    alpha = sympy.Symbol("alpha", nonzero=True)
    ok = sympy.simplify((_argument(x, alpha * q, k / alpha) - _argument(x, q, k)).doit()).is_ZeroMatrix
    return (bool(ok), "x (αQ_j)(K_j/α)ᵀ xᵀ = x Q_j K_jᵀ xᵀ for every α ≠ 0",
            r"x (\alpha Q_j)(K_j/\alpha)^{\top} x^{\top} = x Q_j K_j^{\top} x^{\top}",
            "scalars commute through the product (checked by matrix-expression algebra)")


def _gauge_argument() -> tuple[bool, str, str, str]:
    x, q, k, g = _matrices()
    moved = _argument(x, q * g, k * g.inverse().T)
    ok = sympy.simplify(moved.doit()) == _argument(x, q, k)
    return (bool(ok), "x (Q_j A)(K_j A⁻ᵀ)ᵀ xᵀ = x Q_j A A⁻¹ K_jᵀ xᵀ = x Q_j K_jᵀ xᵀ for A ∈ GL(r)",
            r"x (Q_j A)(K_j A^{-\top})^{\top} x^{\top} = x Q_j A A^{-1} K_j^{\top} x^{\top} = x Q_j K_j^{\top} x^{\top}",
            "A A⁻¹ = I (checked by matrix-expression algebra)")


def _global_gauge_argument() -> tuple[bool, str, str, str]:
    d, m = sympy.Symbol("d", integer=True, positive=True), sympy.Symbol("m", integer=True, positive=True)
    x, q_g = sympy.MatrixSymbol("x", 1, d), sympy.MatrixSymbol("Q_g", d, d)
    k, g = sympy.MatrixSymbol("K", m, d), sympy.MatrixSymbol("A", d, d)
    moved = x * (q_g * g) * (k * g.inverse().T).T
    ok = sympy.simplify(moved.doit()) == x * q_g * k.T
    return (bool(ok), "x (Q_g A)(K A⁻ᵀ)ᵀ = x Q_g A A⁻¹ Kᵀ = x Q_g Kᵀ for A ∈ GL(d)",
            r"x (Q_g A)(K A^{-\top})^{\top} = x Q_g A A^{-1} K^{\top} = x Q_g K^{\top}",
            "A A⁻¹ = I (checked by matrix-expression algebra)")


def _permutation_argument() -> tuple[bool, str, str, str]:
    import itertools
    m = 3
    s, v = sympy.symbols("s1:4"), sympy.symbols("v1:4")
    unit = sympy.Function("f")
    total = sum(unit(s[j]) * v[j] for j in range(m))
    ok = all(sum(unit(s[p[j]]) * v[p[j]] for j in range(m)) == total
             for p in itertools.permutations(range(m)))
    return (ok, "Σ_j f(s_π(j)) v_π(j) = Σ_j f(s_j) v_j for every permutation π",
            r"\sum_j f(s_{\pi(j)})\, v_{\pi(j)} = \sum_j f(s_j)\, v_j",
            "a sum does not depend on the order of its terms (checked for all 6 orders of m = 3 units)")


_SHARED = [("permutation", None, _permutation_argument)]
_BILINEAR = [("exchange", None, _exchange_argument), ("inverse-scaling", "any", _scaling_argument),
             ("gauge", None, _gauge_argument)] + _SHARED
STRUCTURAL: dict[str, list[tuple[str, str | None, Callable[[], tuple[bool, str, str, str]]]]] = {
    "gated": _SHARED, "rank1": _SHARED, "mlp": _SHARED,
    "query-mlp": [("gauge", None, _global_gauge_argument)] + _SHARED,
    "bilinear": _BILINEAR, "rank-r": _BILINEAR,
}


def audit(act: str | Activation, *, timeout: float = DEFAULT_TIMEOUT,
          progress: Callable[[str], None] | None = None) -> Audit:
    """Every transformation of DESIGN §1 on every formulation where it makes sense.

    ``timeout`` bounds each row's check; ``progress`` is called with a label after each form.
    """
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
    return Audit(sigma.name, sigma.formula, tuple(rows), time.perf_counter() - started)
