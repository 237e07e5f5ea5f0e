"""One activation's results together, for a shareable report (``symcheck report --act A``):
exchange and inverse scaling on the gated unit, the full audit, and the symmetry group.

>>> report = activation_report("identity")
>>> [r.verdict.value for r in (report.exchange, *report.scaling)]
['holds', 'holds', 'holds', 'holds']
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.rendering import render
from symcheck.engine.check_result import CheckResult
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.results import SymmetryGroup
from symcheck.engine.symmetries import check_exchange, check_inverse_scaling
from symcheck.language.activations import Activation, activation
from symcheck.paper.auditing import UNIT_ROWS, Audit, audit

__all__ = ["REPORT_STEPS", "SCALING_DOMAINS", "ActivationReport", "activation_report"]

#: the inverse-scaling domains a report proves or refutes, as in the paper's theorem
SCALING_DOMAINS = ("positive", "-1", "any")
#: how many times ``progress`` is called: exchange, each domain, each audit row, the group
REPORT_STEPS = 1 + len(SCALING_DOMAINS) + len(UNIT_ROWS) + 1


@dataclass(frozen=True)
class ActivationReport:
    """Everything symcheck proves or refutes about one activation, each with its proof or witness."""

    activation: Activation
    exchange: CheckResult
    scaling: tuple[CheckResult, ...]
    audit: Audit
    group: SymmetryGroup

    def _repr_html_(self) -> str:
        return render(self, "html")

    def to_dict(self) -> dict[str, Any]:
        return {"activation": self.activation.name, "exchange": self.exchange.to_dict(),
                "scaling": [r.to_dict() for r in self.scaling], "audit": self.audit.to_dict(),
                "group": self.group.to_dict()}


def activation_report(act: Any, *, timeout: float = DEFAULT_TIMEOUT,
                      progress: Callable[[str], None] | None = None) -> ActivationReport:
    """Exchange and inverse scaling (α > 0, α = −1, α ≠ 0) on the gated unit, the audit, and G_σ
    for ``act``; ``timeout`` bounds each check, ``progress`` is called with a label after each."""
    step = progress or (lambda label: None)
    sigma = activation(act)
    exchange = check_exchange(sigma, "gated", timeout=timeout)
    step("exchange")
    scaling = []
    for alpha in SCALING_DOMAINS:
        scaling.append(check_inverse_scaling(sigma, alpha, "gated", timeout=timeout))
        step(f"inverse scaling, {alpha}")
    rows = audit(sigma, timeout=timeout, progress=step)
    group = symmetry_group(sigma, timeout=timeout)
    step("symmetry group")
    return ActivationReport(sigma, exchange, tuple(scaling), rows, group)
