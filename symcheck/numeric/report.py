"""The result of a numeric check: two evaluations of a layer at size and how far apart they are."""
from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, cast

from symcheck.core.rendering import render
from symcheck.core.verdict import Outcome
from symcheck.language.activations import Activation
from symcheck.language.transformations import TransformationKind
from symcheck.numeric.vocabulary import NumericCheckKind, NumericForm

__all__ = ["CHECKS", "IDENTITIES", "SYMMETRIES", "NumericCheckKind", "NumericReport", "Outcome"]

_K = NumericCheckKind
CHECKS: dict[NumericCheckKind, str] = {
    _K.RANK1: "bilinear attention at r = 1 equals the rank-1 form σ((xQᵀ)⊙(xKᵀ))V",
    _K.ABSORB: "a global query is absorbed into the keys: σ((xQ_g)Kᵀ)V = σ(x(KQ_gᵀ)ᵀ)V",
    _K.EXCHANGE: "swapping query and key, (Q, K) → (K, Q), leaves the layer unchanged",
    _K.SCALING: "inverse scaling, (Q, K) → (αQ, K/α), leaves the layer unchanged",
}
IDENTITIES = tuple(kind for kind in NumericCheckKind if kind.identity)
#: the numeric checks that test a symmetry, named as the symbolic checks' JSON names it
SYMMETRIES = {_K.EXCHANGE: TransformationKind.EXCHANGE, _K.SCALING: TransformationKind.INVERSE_SCALING}


@dataclass(frozen=True)
class NumericReport:
    """Two evaluations of a layer at size and their relative difference: numeric evidence only.

    For ``rank1``/``absorb`` (identities) agreement within the tolerance is evidence for the
    identity (its proof is ``symcheck derive``); for ``exchange``/``scaling`` a relative change
    far above the tolerance is evidence that the map is not a symmetry at these weights, never
    a symbolic verdict (those come from ``symcheck exchange``/``scaling``, with certified witnesses).
    When float arithmetic cannot resolve the comparison (a value out of range, outputs in the
    underflow range or all 0) the outcome is ``overflow``/``underflow``: no evidence either way.
    """

    kind: NumericCheckKind
    claim: str
    form: NumericForm
    activation: Activation
    left: str
    right: str
    dtype: str
    sizes: Mapping[str, int]
    #: None when there is no finite ratio: an overflow, or a left side of exact zeros
    relative: float | None
    tolerance: float
    source: str
    routes: tuple[str, ...]
    memory: int
    seed: int | None = None
    alpha: str | None = None
    elapsed: float = 0.0
    evidence: str = "numeric"
    #: overflow or underflow when float arithmetic could not resolve the comparison
    no_evidence: Outcome | None = None
    #: why ``relative`` is None or why there is no evidence
    reason: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", MappingProxyType(dict(self.sizes)))
        object.__setattr__(self, "kind", NumericCheckKind(self.kind))  # a JSON string reads back as the member
        object.__setattr__(self, "form", NumericForm(self.form))
        if self.no_evidence is not None:
            object.__setattr__(self, "no_evidence", Outcome(self.no_evidence))

    @property
    def within(self) -> bool:
        return self.no_evidence is None and self.relative is not None and self.relative <= self.tolerance

    @property
    def outcome(self) -> Outcome:
        """``agree`` (within the tolerance), ``differ``, or ``overflow``/``underflow``: no
        evidence either way."""
        return self.no_evidence or (Outcome.AGREE if self.within else Outcome.DIFFER)

    @property
    def quantity(self) -> str:
        return "relative error" if self.kind.identity else "relative change"

    @property
    def summary(self) -> str:
        if self.no_evidence is not None:
            return (f"{self.no_evidence}: no evidence either way — {self.reason}; the comparison "
                    "says nothing about the claim at these weights")
        if self.relative is None:
            head = f"{self.quantity} unbounded ≫ tolerance {self.tolerance:.2g} ({self.reason})"
        else:
            compare = "≤" if self.within else ("≫" if self.relative > 100 * self.tolerance else ">")
            head = f"{self.quantity} {self.relative:.3g} {compare} tolerance {self.tolerance:.2g}"
        if self.kind.identity:
            tail = ("the two sides agree: numeric evidence for the identity, not a proof "
                    f"(the proof: symcheck derive {self.kind})" if self.within else
                    "the two sides differ by more than rounding explains: numeric evidence "
                    "against the identity at these weights")
        else:
            name = "exchange" if self.kind is _K.EXCHANGE else f"scaling with α = {self.alpha}"
            command = f"symcheck {self.kind} --act {shlex.quote(self.activation.name)}" + (
                f" --alpha {shlex.quote(self.alpha)}" if self.kind is _K.SCALING and self.alpha is not None else "") + (
                f" --form {self.form}" if self.form is not NumericForm.GATED else "")
            hint = "" if self.form is NumericForm.BILINEAR else f" (a certified one: {command})"
            tail = (f"the layer changes under {name}: numeric evidence that it is not a symmetry "
                    f"of the {self.form} layer with σ = {self.activation.name} — not a symbolic "
                    f"verdict{hint}" if not self.within else
                    "the layer is unchanged up to rounding: consistent with a symmetry at these "
                    "weights — numeric evidence, not a proof")
        return f"{head}: {tail}"

    def to_dict(self) -> dict[str, Any]:
        """JSON with the symbolic checks' names: ``symmetry`` (``exchange``, ``inverse-scaling``)
        and ``domain`` (α) for a symmetry, ``identity`` (``rank1``, ``absorb``) for an identity."""
        return {
            "symmetry": _value(SYMMETRIES.get(self.kind)), "identity": self.kind.value if self.kind.identity else None,
            "claim": self.claim, "form": self.form.value,
            "activation": self.activation.name, "compared": {"left": self.left, "right": self.right},
            "dtype": self.dtype, "sizes": dict(self.sizes), "domain": self.alpha,
            "quantity": self.quantity.replace(" ", "_"), "relative": self.relative,
            "tolerance": self.tolerance, "outcome": self.outcome.value, "reason": self.reason,
            "evidence": self.evidence,
            "verdict": None, "summary": self.summary, "source": self.source, "seed": self.seed,
            "routes": list(self.routes), "memory_bytes": self.memory,
            "elapsed_seconds": round(self.elapsed, 4),
        }

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))

    # numeric evidence has no LaTeX or HTML form, so it is no Renderable (which promises both):
    # a rich panel, and Jupyter shows its text
    def __rich__(self) -> Any:  # a rich renderable
        return render(self, "rich")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def _value(kind: TransformationKind | None) -> str | None:
    return None if kind is None else kind.value
