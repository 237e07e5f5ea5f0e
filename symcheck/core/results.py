"""Immutable results that render themselves: text, rich, LaTeX, JSON and Jupyter."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

import sympy

from symcheck.core.rendering import render
from symcheck.core.verdict import Verdict

class Status(StrEnum):
    """How a step is backed: machine-checked, a stated theorem, given input, certified by
    exact or ball arithmetic, or not settled (unknown, out of time, failed)."""

    VERIFIED = "verified"
    THEOREM = "theorem"
    GIVEN = "given"
    CERTIFIED = "certified"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    FAILED = "failed"


#: the step statuses as text (JSON values)
STATUSES = tuple(status.value for status in Status)


class Renderable:
    """Renders itself through the renderer registered for its type (:mod:`symcheck.core.rendering`)."""

    def __rich__(self):
        return render(self, "rich")

    def to_latex(self) -> str:
        return render(self, "latex")

    def _repr_latex_(self) -> str:
        return render(self, "latex", notebook=True)

    def _repr_html_(self) -> str:
        return render(self, "html")


@dataclass(frozen=True)
class Step:
    """One line of a justification: what is claimed, in text and LaTeX, why, and its status."""

    title: str
    statement: str
    latex: str
    justification: str = ""
    status: Status = Status.VERIFIED

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))  # a typo is an error, not a status

    def to_dict(self) -> dict[str, str]:
        return {"title": self.title, "statement": self.statement, "latex": self.latex,
                "justification": self.justification, "status": self.status.value}


@dataclass(frozen=True)
class CheckResult(Renderable):
    """The verdict of one symmetry check, with the proof or the certified witness behind it."""

    symmetry: str
    form: str
    domain: str | None
    activation: str
    formula: str
    verdict: Verdict
    witness: Mapping[str, sympy.Rational] | None
    steps: tuple[Step, ...]
    residual: sympy.Expr | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    elapsed: float = 0.0
    #: the second engine's answer (see symcheck.engine.smt): engine, verdict, agrees, … or None
    cross_check: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.witness is not None:
            object.__setattr__(self, "witness", MappingProxyType(dict(self.witness)))
        object.__setattr__(self, "evidence", MappingProxyType(dict(self.evidence)))
        if self.cross_check is not None:
            object.__setattr__(self, "cross_check", MappingProxyType(dict(self.cross_check)))

    @property
    def title(self) -> str:
        where = f" ({self.domain_text})" if self.domain else ""
        return f"{self.symmetry}{where} on the {self.form} form, σ = {self.activation}"

    def __repr__(self) -> str:
        """One short line (``print`` gives the whole proof or witness)."""
        shown = self.activation if len(self.activation) <= 40 else self.activation[:39] + "…"
        witness = ("" if self.witness is None else
                   ", witness " + ", ".join(f"{k} = {v}" for k, v in self.witness.items()))
        return f"<CheckResult {self.symmetry}{'' if self.domain is None else f' ({self.domain_text})'} " \
               f"on {self.form}, σ = {shown}: {self.verdict.value}{witness}>"

    @property
    def domain_text(self) -> str:
        scale = "β" if self.symmetry == "key-value-rescaling" else "α"
        if self.domain in ("positive", "negative", "any"):
            return scale + {"positive": " > 0", "negative": " < 0", "any": " ≠ 0"}[self.domain]
        return f"{scale} = {self.domain}" if self.domain else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "symmetry": self.symmetry,
            "form": self.form,
            "domain": self.domain,
            "activation": self.activation,
            "formula": self.formula,
            "verdict": self.verdict.value,
            "witness": None if self.witness is None else {k: str(v) for k, v in self.witness.items()},
            "residual": None if self.residual is None else sympy.sstr(self.residual),
            "steps": [s.to_dict() for s in self.steps],
            "evidence": dict(self.evidence),
            "note": self.note,
            "elapsed_seconds": round(self.elapsed, 4),
            "cross_check": None if self.cross_check is None else {
                k: dict(v) if isinstance(v, Mapping) else v for k, v in self.cross_check.items()},
        }

    def __str__(self) -> str:
        width = max(len(s.title) for s in self.steps) if self.steps else 0
        lines = [f"{self.title}: {self.verdict.value}"]
        for s in self.steps:
            lines.append(f"  {s.title:<{width}}  {s.statement}  [{s.status}]")
            if s.justification:
                lines.append(f"  {'':<{width}}    {s.justification}")
        if self.note:
            lines.append(f"  note: {self.note}")
        if self.cross_check is not None:
            lines.append(f"  cross-check: {cross_check_summary(self.cross_check)}")
        return "\n".join(lines)


def cross_check_summary(cross: Mapping[str, Any]) -> str:
    """One line for people: ``z3 4.13.0: holds (unsat …); agrees with the symbolic engine``."""
    name = f"{cross['engine']} {cross['version']}" if cross.get("version") else cross["engine"]
    verdict = cross["verdict"]
    what = verdict
    if verdict == "broken" and cross.get("model"):
        what += " at " + ", ".join(f"{k} = {v}" for k, v in cross["model"].items())
    if cross.get("reason") and verdict != "broken":
        what += f" ({cross['reason']})"
    engine = cross.get("symbolic_verdict")
    if cross.get("agrees") is True:
        tail = "agrees with the symbolic engine"
        if cross.get("witness_confirmed"):
            tail += ", and confirms its witness"
    elif cross.get("agrees") is False:
        tail = f"DISAGREES with the symbolic engine ({engine})"
        if cross.get("witness_confirmed") is False:
            tail += "; z3 finds left = right at the engine's witness"
    elif verdict in ("holds", "broken"):
        tail = f"not compared: the symbolic engine was {engine}"
    else:
        tail = "no second verdict"
    return f"{name}: {what}; {tail}"
