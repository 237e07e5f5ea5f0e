"""The step types: a claim before it is checked, a checked step, a derivation of checked steps."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, cast

import sympy

from symcheck.core.budget import BudgetExceeded, alarm
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.core.verdict import Verification
from symcheck.language.layer_formulations import FORMULATIONS, Sizes
from symcheck.paper.derivations.checks import (
    CheckKind,
    CheckRecord,
    DerivationStatus,
    Pair,
    builder_agrees,
    check_explicit,
    check_symbolic,
    short,
)

#: seconds allowed for all the checks of one step
STEP_TIMEOUT = 60.0


class StepKind(StrEnum):
    """A derivation step is an identity, or a definition: a change of the model, checked as defined."""

    IDENTITY = "identity"
    DEFINITION = "definition"


@dataclass(frozen=True)
class Claim:
    """A step before it is checked: ``lhs = rhs`` in text and LaTeX, why, and how to check it.

    ``explicit`` returns, for one ``Sizes``, a pair (or list of pairs) of explicit matrices;
    it is required for a step to be verified, and ``dims`` names the dimensions it ranges over.
    ``symbolic`` returns (lhs, rhs) pairs of matrix expressions in symbolic dimensions or of
    scalar expressions (sums with symbolic bounds allowed); where there is none, ``no_symbolic``
    says why. A definition step changes the model; its check is that the defined expression is
    the one claimed.
    """

    text: str
    latex: str
    justification: str
    symbolic: Callable[[], Pair | list[Pair]] | None = None
    explicit: Callable[[Sizes], Pair | list[Pair]] | None = None
    dims: str = "dme"
    definition: bool = False
    no_symbolic: str = ""   # why there is no symbolic-dimension check, when there is none
    builders: tuple[str, ...] = ()  # formulations whose explicit builders the explicit check uses
    sigma: str = "σ opaque"  # the σ the explicit check uses, for its description

    def verify(self, timeout: float = STEP_TIMEOUT) -> DerivationStep:
        """Run the claim's checks (every size, then explicit sizes) into a step with its status."""
        records: list[CheckRecord] = []
        try:
            with alarm(timeout):
                if self.symbolic is not None:
                    records.append(self._run_symbolic(self.symbolic))
                if self.explicit is not None:
                    records.append(check_explicit(self.explicit, self.dims, self.sigma))
        except BudgetExceeded:
            records.append(CheckRecord(CheckKind.BUDGET, DerivationStatus.TIMEOUT,
                                       f"the checks ran out of {timeout:g} s"))
        if self.symbolic is None:
            records.insert(0, CheckRecord(CheckKind.MATRIX_EXPRESSION, DerivationStatus.NOT_APPLICABLE,
                                          "no check for every size: " + (self.no_symbolic or "none given")))
        return DerivationStep(self.text, self.latex, self.justification, _status(records),
                              tuple(records), StepKind.DEFINITION if self.definition else StepKind.IDENTITY)

    def _run_symbolic(self, symbolic: Callable[[], Pair | list[Pair]]) -> CheckRecord:
        try:
            built = symbolic()
        except (sympy.ShapeError, ValueError, TypeError) as err:
            return CheckRecord(CheckKind.MATRIX_EXPRESSION, DerivationStatus.FAILED,
                               f"not defined: {short(str(err))}")
        try:
            record = check_symbolic(built if isinstance(built, list) else [built])
        except RecursionError:
            return CheckRecord(CheckKind.GENERIC_ENTRY, DerivationStatus.UNKNOWN,
                               "the rewriting did not terminate (not a disproof)")
        if record.status is not DerivationStatus.VERIFIED or not self.builders:
            return record
        # the explicit check evaluates these builders: they must be the matrix expressions at every size
        stray = [name for name in self.builders if not builder_agrees(FORMULATIONS[name])]
        if stray:
            return CheckRecord(CheckKind.GENERIC_ENTRY, DerivationStatus.UNKNOWN,
                               f"the {', '.join(stray)} builder's generic entry did not reduce to its matrix "
                               "expression's (not a disproof)")
        return CheckRecord(record.kind, record.status, f"{record.detail}; the explicit builders of "
                           f"{', '.join(self.builders)} equal their matrix expressions entry by entry, for every size")


#: a step whose only passing check ran at explicit sizes: evidence, not a proof, never verified
EXPLICIT_ONLY = DerivationStatus.EXPLICIT_ONLY


def _status(records: Iterable[CheckRecord]) -> DerivationStatus:
    """failed > timeout > unknown; verified needs both a check valid for every size and the explicit
    check; the explicit check alone gives ``explicit-only``."""
    records = list(records)
    ran = [r.status for r in records if r.status is not DerivationStatus.NOT_APPLICABLE]
    for status in (DerivationStatus.FAILED, DerivationStatus.TIMEOUT, DerivationStatus.UNKNOWN):
        if status in ran:
            return status
    explicit = any(r.kind == (CheckKind.EXPLICIT,) and r.status is DerivationStatus.VERIFIED for r in records)
    alone = ((CheckKind.EXPLICIT,), (CheckKind.BUDGET,))  # no check for every size
    every_size = any(r.kind not in alone and r.status is DerivationStatus.VERIFIED for r in records)
    if explicit and every_size:
        return DerivationStatus.VERIFIED
    return EXPLICIT_ONLY if explicit else DerivationStatus.UNKNOWN


@dataclass(frozen=True)
class DerivationStep:
    """One checked step: the claim, why it holds, what the machine ran, and the outcome."""

    text: str
    latex: str
    justification: str
    status: DerivationStatus
    checks: tuple[CheckRecord, ...] = ()
    kind: StepKind = StepKind.IDENTITY

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", DerivationStatus(self.status))
        object.__setattr__(self, "kind", StepKind(self.kind))

    @property
    def verified(self) -> bool:
        return self.status is DerivationStatus.VERIFIED

    @property
    def checks_run(self) -> str:
        """The checks that were run, one line."""
        return "; ".join(f"{r.name}: {r.detail}" for r in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"latex": self.latex, "text": self.text, "justification": self.justification,
                "status": self.status.value, "kind": self.kind.value, "check": self.checks_run,
                "checks": [r.to_dict() for r in self.checks]}


@dataclass(frozen=True)
class Derivation(Renderable):
    """A named derivation; verified only when every step is."""

    name: str
    title: str
    statement: str
    statement_latex: str
    steps: tuple[DerivationStep, ...]
    elapsed: float = 0.0

    @classmethod
    def from_claims(cls, name: str, title: str, statement: str, claims: Sequence[Claim],
                    statement_latex: str = "", timeout: float = STEP_TIMEOUT) -> Derivation:
        """Verify every claim and collect the steps."""
        started = time.perf_counter()
        steps = tuple(claim.verify(timeout) for claim in claims)
        return cls(name, title, statement, statement_latex, steps, time.perf_counter() - started)

    @property
    def verified(self) -> bool:
        return bool(self.steps) and all(step.verified for step in self.steps)

    @property
    def verification(self) -> Verification:
        """What ``symcheck derive --expect`` compares: verified when every step is."""
        return Verification.VERIFIED if self.verified else Verification.UNVERIFIED

    @property
    def status(self) -> Literal["verified", "not verified"]:
        return "verified" if self.verified else "not verified"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "statement": self.statement,
                "verified": self.verified, "steps": [s.to_dict() for s in self.steps],
                "elapsed_seconds": round(self.elapsed, 4)}

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))
