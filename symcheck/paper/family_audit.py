"""The symmetry audit of an activation family: every formulation × transformation, each row a
verdict for every parameter value in the declared range, with its regions.

A row's decision is the family check (:mod:`symcheck.engine.families`) of the row's own unit
statement: ``holds`` by one kernel certificate with the parameters as variables, ``broken`` by
a kernel-checked witness inside the range, and regions each backed by the kernel. The rows
that hold for every σ (the bilinear argument is invariant, :mod:`symcheck.paper.structural`)
hold for every member of the family as they are. Query-value rescaling asks for a degree p:
σ's degree at one parameter value is checked for the whole range (holds: that p serves every
value); a degree that depends on the parameter is not decided yet (the row says so).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import ParseError
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.core.verdict import Verdict
from symcheck.engine.families import check_family, simplest_rational
from symcheck.engine.family_result import FamilyResult, RegionVerdict
from symcheck.engine.symmetries import check
from symcheck.language.family import FamilyActivation, parse_family
from symcheck.language.transformations import Domain, StructuralKind, Transformation, TransformationKind, domain
from symcheck.language.unit_forms import form as form_of

__all__ = ["FamilyAudit", "FamilyAuditRow", "Layout", "audit_family"]


@dataclass(frozen=True)
class Layout:
    """The ordinary audit's table, given by :func:`symcheck.paper.auditing.audit` (which
    dispatches here: no import circle): formulation → (unit, transformations), the scale domains,
    the query-value kind, the rows that hold for every σ, and σ's degree decision."""

    unit_rows: Mapping[str, tuple[str, tuple[TransformationKind, ...]]]
    scaling_domains: tuple[str, ...]
    key_value_domains: tuple[str, ...]
    query_value: TransformationKind
    structural_rows: Callable[[str], Iterator[Any]]
    degree: Callable[..., Any]

#: why a query-value row of a family is left open
QUERY_VALUE_REASON = ("query-value rescaling asks for a degree p, which may depend on the parameter: "
                      "not decided for families yet")


@dataclass(frozen=True)
class FamilyAuditRow:
    """One formulation × transformation × domain: the family check of the row's unit statement
    (``result``), or a row that holds for every σ (``structural``), or an open query-value row."""

    form: str
    transformation: TransformationKind | StructuralKind  # a unit's map, or a whole layer's
    domain: Domain | None
    verdict: Verdict
    result: FamilyResult | None = None
    structural: Any = None  #: an AuditRow that holds for every σ
    reason: str = ""
    unit: str = ""
    degree: Any = None  #: query-value rescaling: the one degree p that holds for every value

    @property
    def regions(self) -> tuple[RegionVerdict, ...]:
        return () if self.result is None else self.result.regions

    @property
    def basis(self) -> str:
        """One line for tables: the witness with its parameter values, the regions, or why not."""
        if self.structural is not None:
            return self.structural.basis
        if self.result is None or self.reason:
            return self.reason
        if self.result.witness is not None:
            return "witness " + self.result.witness_text()
        if self.verdict is Verdict.HOLDS:
            return "kernel certificate over the whole range"
        return self.result.note or "not decided"

    def to_dict(self) -> dict[str, Any]:
        out = {"form": self.form, "transformation": self.transformation,
               "domain": None if self.domain is None else str(self.domain),
               "verdict": self.verdict.value, "basis": self.basis, "unit": self.unit,
               "degree": None if self.degree is None else str(self.degree),
               "regions": [r.to_dict() for r in self.regions]}
        if self.result is not None:
            witness = self.result.to_dict()["witness"]
            out["witness"] = witness
            out["kernel"] = self.result.to_dict()["kernel"]
        return out


@dataclass(frozen=True)
class FamilyAudit(Renderable):
    """Every row of a family's audit; renders as a table with each row's regions."""

    family: FamilyActivation
    rows: tuple[FamilyAuditRow, ...]
    elapsed: float = 0.0

    @property
    def formula(self) -> str:
        return self.family.name

    @property
    def quantifier(self) -> str:
        return self.family.params.quantifier()

    def row(self, form: str, transformation: TransformationKind | StructuralKind,
            domain: str | None = None) -> FamilyAuditRow:
        for r in self.rows:
            if (r.form, r.transformation, None if r.domain is None else str(r.domain)) == \
                    (form, transformation, domain):
                return r
        raise KeyError((form, transformation, domain))

    def verdict_rows(self) -> list[tuple[str, str, TransformationKind | StructuralKind, str | None, Verdict]]:
        """(activation, form, transformation, domain, verdict) per row, as --expect reads them."""
        return [(self.family.name, r.form, r.transformation, None if r.domain is None else str(r.domain),
                 r.verdict) for r in self.rows]

    def to_dict(self) -> dict[str, Any]:
        import sympy
        return {"activation": self.family.name, "formula": self.formula,
                "parsed": sympy.sstr(self.family.shown_expr), "params": self.family.params.to_dict(),
                "quantifier": self.quantifier, "rows": [r.to_dict() for r in self.rows],
                "elapsed_seconds": round(self.elapsed, 3)}

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))


def _query_value_row(family: FamilyActivation, form: str, unit: str, timeout: float, done: dict,
                     layout: Layout) -> FamilyAuditRow:
    """The degree p of σ at one parameter value, then the family check of query-value rescaling
    with that p: holds for every value means that one p serves the whole range. Anything else
    leaves the row open (another p, or a p depending on the parameter, may still work)."""
    kind = layout.query_value
    open_row = FamilyAuditRow(form, kind, domain("positive"), Verdict.INCONCLUSIVE, reason=QUERY_VALUE_REASON,
                              unit=unit)
    values = {p.name: _generic(p.regions) for p in family.params}
    try:
        degree = layout.degree(family.at(values), timeout).p
    except (ParseError, ValueError, ArithmeticError):
        return open_row
    if degree is None:
        return open_row
    t = Transformation(kind, domain("positive"), degree=degree)
    if (t, unit) not in done:
        done[t, unit] = check_family(family, t, form_of(unit), ordinary=check, timeout=timeout)
    result = done[t, unit]
    if result.verdict is not Verdict.HOLDS:
        shown = ", ".join(f"{k} = {v}" for k, v in values.items())
        return FamilyAuditRow(form, kind, domain("positive"), Verdict.INCONCLUSIVE, result,
                              reason=f"p = {degree} (σ's degree at {shown}) does not hold for every value "
                                     f"({result.verdict.value}); a degree depending on the parameter is not "
                                     "decided", unit=unit)
    return FamilyAuditRow(form, kind, domain("positive"), Verdict.HOLDS, result, unit=unit, degree=degree)


def _generic(regions) -> Any:
    """A value of the range away from its special points: an open region's sample, else a point."""
    for r in regions:
        if not r.is_point:
            return simplest_rational(r)  # 1 before 0: not the special value of a real range
    return regions[0].lower


def _transformations(kind: TransformationKind, layout: Layout) -> Iterator[Transformation]:
    if kind is TransformationKind.EXCHANGE:
        yield Transformation(kind)
    elif kind is TransformationKind.INVERSE_SCALING:
        yield from (Transformation(kind, domain(d)) for d in layout.scaling_domains)
    elif kind is TransformationKind.KEY_VALUE_RESCALING:
        yield from (Transformation(kind, domain(d)) for d in layout.key_value_domains)


def audit_family(act: str, params: Mapping[str, str | None] | list[str], layout: Layout, *,
                 timeout: float = DEFAULT_TIMEOUT, progress: Callable[[str], None] | None = None) -> FamilyAudit:
    """The audit of σ(z; θ) for every θ in the declared range (``params`` as for ``check_exchange``);
    ``timeout`` bounds each row's family check."""
    started = time.perf_counter()
    family = parse_family(act, params)
    done: dict[tuple[Transformation, str], FamilyResult] = {}
    rows: list[FamilyAuditRow] = []
    for form, (unit, kinds) in layout.unit_rows.items():
        for kind in kinds:
            if kind is layout.query_value:
                rows.append(_query_value_row(family, form, unit, timeout, done, layout))
                continue
            for t in _transformations(kind, layout):
                if (t, unit) not in done:  # several formulations share one unit statement
                    done[t, unit] = check_family(family, t, form_of(unit), ordinary=check, timeout=timeout)
                result = done[t, unit]
                rows.append(FamilyAuditRow(form, t.name, t.domain, result.verdict, result, unit=unit))
        rows += [FamilyAuditRow(s.form, s.transformation, s.domain, s.verdict, structural=s)
                 for s in layout.structural_rows(form)]
        if progress:
            progress(form)
    return FamilyAudit(family, tuple(rows), time.perf_counter() - started)
