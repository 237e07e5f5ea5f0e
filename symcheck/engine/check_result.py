"""What a symmetry check returns: the objects it decided about, the verdict and what backs it.

A :class:`CheckResult` carries the parsed :class:`Activation`, :class:`Form` and
:class:`Transformation` (with its domain) the engine worked on, never their names: a renderer
reads them as they are, nothing parses a name again. The z3 cross-check is a typed
:class:`CrossCheck`. Both are immutable; ``to_dict`` gives the JSON the CLI prints.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

import sympy

from symcheck.core.rendering import render
from symcheck.core.results import Renderable, Step
from symcheck.core.verdict import CrossVerdict, Verdict
from symcheck.language.activations import Activation
from symcheck.language.transformations import Transformation, TransformationKind
from symcheck.language.unit_forms import Form

__all__ = ["CheckResult", "CrossCheck"]


@dataclass(frozen=True)
class CrossCheck:
    """The second engine's answer on the same statement (see :mod:`symcheck.engine.smt`).

    ``verdict`` is holds, broken, unknown, or unavailable (z3 not installed); ``agrees`` is True,
    False, or None when one side has no verdict; ``witness_confirmed`` says whether z3 also
    finds the two sides different at the symbolic engine's witness.
    """

    engine: str
    symbolic_verdict: Verdict
    verdict: CrossVerdict = CrossVerdict.UNKNOWN
    version: str | None = None
    agrees: bool | None = None
    model: Mapping[str, str] | None = None
    witness_confirmed: bool | None = None
    reason: str = ""
    timeout_seconds: float = 0.0
    elapsed_seconds: float | None = None

    def __post_init__(self) -> None:
        # the JSON strings read back as members; a typo is an error, not a verdict
        object.__setattr__(self, "symbolic_verdict", Verdict(self.symbolic_verdict))
        object.__setattr__(self, "verdict", CrossVerdict(self.verdict))
        if self.model is not None:
            object.__setattr__(self, "model", MappingProxyType(dict(self.model)))

    def to_dict(self) -> dict[str, Any]:
        data = {"engine": self.engine, "version": self.version, "verdict": self.verdict.value,
                "agrees": self.agrees, "symbolic_verdict": self.symbolic_verdict.value,
                "model": None if self.model is None else dict(self.model),
                "witness_confirmed": self.witness_confirmed, "reason": self.reason,
                "timeout_seconds": self.timeout_seconds}
        if self.elapsed_seconds is not None:
            data["elapsed_seconds"] = self.elapsed_seconds
        return data

    def summary(self) -> str:
        """One line for people: ``z3 4.13.0: holds (unsat …); agrees with the symbolic engine``."""
        name = f"{self.engine} {self.version}" if self.version else self.engine
        what = self.verdict.value
        if self.verdict is CrossVerdict.BROKEN and self.model:
            what += " at " + ", ".join(f"{k} = {v}" for k, v in self.model.items())
        if self.reason and self.verdict is not CrossVerdict.BROKEN:
            what += f" ({self.reason})"
        if self.agrees is True:
            tail = "agrees with the symbolic engine"
            if self.witness_confirmed:
                tail += ", and confirms its witness"
        elif self.agrees is False:
            tail = f"DISAGREES with the symbolic engine ({self.symbolic_verdict})"
            if self.witness_confirmed is False:
                tail += "; z3 finds left = right at the engine's witness"
        elif self.verdict in (CrossVerdict.HOLDS, CrossVerdict.BROKEN):
            tail = f"not compared: the symbolic engine was {self.symbolic_verdict}"
        else:
            tail = "no second verdict"
        return f"{name}: {what}; {tail}"


class OnATransformation:
    """What a result of a statement about one transformation says of it (a check of one σ and a
    family's check alike)."""

    transformation: Transformation

    @property
    def symmetry(self) -> TransformationKind:
        """The transformation's kind: exchange, inverse-scaling, key-value-rescaling, …"""
        return self.transformation.name

    @property
    def domain(self) -> str | None:
        """Where the scale ranges, as the JSON writes it: positive|negative|any|a number, or None."""
        found = self.transformation.domain
        return None if found is None else str(found)


@dataclass(frozen=True)
class CheckResult(OnATransformation, Renderable):
    """The verdict of one symmetry check, with the proof or the certified witness behind it."""

    transformation: Transformation
    form: Form
    activation: Activation
    verdict: Verdict
    witness: Mapping[str, sympy.Rational] | None
    steps: tuple[Step, ...]
    residual: sympy.Expr | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    elapsed: float = 0.0
    cross_check: CrossCheck | None = None
    #: holds with σ left opaque (the two sides are the same expression): true for every σ
    every_sigma: bool = False
    #: the proof kernel's answer on a proof (None when nothing was proved): its certificate or why not
    kernel: Any = None

    @property
    def certificate(self) -> dict | None:
        """The certificate the kernel accepted (JSON-ready, schema symcheck.certificate/1), or None."""
        found = getattr(self.kernel, "certificate", None)
        return None if found is None else found.data

    def __post_init__(self) -> None:
        if self.witness is not None:
            object.__setattr__(self, "witness", MappingProxyType(dict(self.witness)))
        object.__setattr__(self, "evidence", MappingProxyType(dict(self.evidence)))

    @property
    def holds(self) -> bool:
        """Whether the symmetry is proved ('broken' and 'inconclusive' are both False)."""
        return self.verdict is Verdict.HOLDS

    def __bool__(self) -> bool:
        # `if check_exchange(...)` was always true, a broken verdict included
        raise TypeError("a check result has no truth value: test result.holds (proved), or compare "
                        "result.verdict with Verdict.HOLDS, BROKEN or INCONCLUSIVE")

    @property
    def cases(self) -> int:
        """How many cases the proof splits the domain into (0 when it needs no split)."""
        return sum(1 for step in self.steps if step.case)

    @property
    def sampled(self) -> tuple[int, float | None]:
        """Points sampled by the decider and by the numeric fallback, and the largest |r| of both
        (None: a value float64 cannot hold). Evidence only, never part of a verdict."""
        parts = [self.evidence, self.evidence.get("fallback") or {}]
        points = sum(part.get("points", 0) for part in parts)
        values = [part.get("largest") for part in parts if part.get("points")]
        known = [v for v in values if v is not None]
        if len(known) < len(values):
            return points, None
        return points, max(known, default=0.0)

    @property
    def formula(self) -> str:
        return self.activation.formula

    @property
    def title(self) -> str:
        where = f" ({self.domain_text})" if self.domain else ""
        return f"{self.symmetry}{where} on the {self.form.name} form, σ = {self.activation.name}"

    @property
    def domain_text(self) -> str:
        """``α > 0``, ``β ≠ 0``, ``α = -1``, or '' for a transformation without a scale."""
        t = self.transformation
        return "" if t.domain is None else t.domain.condition(t.scale_text)

    def __repr__(self) -> str:
        """One short line (``print`` gives the whole proof or witness)."""
        name = self.activation.name
        shown = name if len(name) <= 40 else name[:39] + "…"
        witness = ("" if self.witness is None else
                   ", witness " + ", ".join(f"{k} = {v}" for k, v in self.witness.items()))
        where = "" if self.domain is None else f" ({self.domain_text})"
        return f"<CheckResult {self.symmetry}{where} on {self.form.name}, σ = {shown}: " \
               f"{self.verdict.value}{witness}>"

    def to_dict(self) -> dict[str, Any]:
        return {
            "symmetry": self.symmetry,
            "form": self.form.name,
            "domain": self.domain,
            "activation": self.activation.name,
            "formula": self.formula,
            "parsed": self.activation.parsed,
            "verdict": self.verdict.value,
            "witness": None if self.witness is None else {k: str(v) for k, v in self.witness.items()},
            "residual": None if self.residual is None else sympy.sstr(self.residual),
            "steps": [s.to_dict() for s in self.steps],
            "evidence": dict(self.evidence),
            "note": self.note,
            "elapsed_seconds": round(self.elapsed, 4),
            "cross_check": None if self.cross_check is None else self.cross_check.to_dict(),
            "kernel": None if self.kernel is None else self.kernel.summary(),
        }

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))
