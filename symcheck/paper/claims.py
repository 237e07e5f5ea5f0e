"""The verdicts the paper states, as data, and a sweep compared with them (``--expect``).

The paper states verdicts of two kinds (docs/theory.md §1):

* for every σ: on the rank-1 unit σ(a·b), exchange and inverse scaling (every α > 0, α = −1,
  every α ≠ 0) hold; on the gated unit σ(a)·b, key-value rescaling holds;
* for the activations it names, on the gated unit: exchange, and inverse scaling for α > 0,
  α = −1 and every α ≠ 0 (ReLU and leaky ReLU keep α > 0, tanh keeps α = −1, the identity
  keeps them all, GELU, SiLU and sigmoid none).

A row the paper says nothing about is not compared. ``expect="decided"`` asks instead that no
row is inconclusive.

>>> stated("tanh", "gated", "inverse-scaling", "-1")
<Verdict.HOLDS: 'holds'>
>>> stated("softplus", "gated", "exchange") is None
True
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from symcheck.core.errors import UnknownNameError
from symcheck.core.verdict import Verdict
from symcheck.language.transformations import Domain
from symcheck.paper.auditing import Audit
from symcheck.paper.targets import Catalogue

__all__ = ["EXPECTATIONS", "EVERY_SIGMA", "GATED", "Mismatch", "stated", "mismatches", "rows", "describe"]

Row = tuple[str, str, str, "str | None", Verdict]

#: what ``--expect`` of a sweep (audit, catalog) may ask for
EXPECTATIONS = ("paper", "decided")

_H, _B = Verdict.HOLDS, Verdict.BROKEN

#: (form, transformation, domain) -> the verdict the paper states for every σ
EVERY_SIGMA: dict[tuple[str, str, str | None], Verdict] = {
    ("rank1", "exchange", None): _H,
    ("rank1", "inverse-scaling", "positive"): _H,
    ("rank1", "inverse-scaling", "-1"): _H,
    ("rank1", "inverse-scaling", "any"): _H,
    ("gated", "key-value-rescaling", "positive"): _H,
    ("gated", "key-value-rescaling", "any"): _H,
}

_COLUMNS = (("exchange", None), ("inverse-scaling", "positive"), ("inverse-scaling", "-1"),
            ("inverse-scaling", "any"))
#: activation -> the gated unit's verdicts for exchange, α > 0, α = −1, α ≠ 0
GATED: dict[str, dict[tuple[str, str | None], Verdict]] = {
    name: dict(zip(_COLUMNS, verdicts, strict=True)) for name, verdicts in {
        "relu": (_B, _H, _B, _B),
        "leaky_relu": (_B, _H, _B, _B),
        "gelu": (_B, _B, _B, _B),
        "silu": (_B, _B, _B, _B),
        "sigmoid": (_B, _B, _B, _B),
        "tanh": (_B, _B, _H, _B),
        "identity": (_H, _H, _H, _H),
    }.items()}


def stated(activation: str, form: str, transformation: str, domain: str | None = None) -> Verdict | None:
    """The verdict the paper states for this row, or None when it states none."""
    if (form, transformation, domain) in EVERY_SIGMA:
        return EVERY_SIGMA[form, transformation, domain]
    if form == "gated":
        return GATED.get(activation, {}).get((transformation, domain))
    return None


@dataclass(frozen=True)
class Mismatch:
    """A row whose verdict is not the one expected."""

    activation: str
    form: str
    transformation: str
    domain: str | None
    expected: str
    got: Verdict

    def __str__(self) -> str:
        where = self.transformation + ("" if self.domain is None else f" ({self.domain})")
        return f"{self.activation}, {self.form} {where}: expected {self.expected}, got {self.got.value}"


def rows(result: Audit | Catalogue) -> tuple[Row, ...]:
    """An audit's or a catalogue sweep's rows as (activation, form, transformation, domain, verdict)."""
    if isinstance(result, Audit):
        return tuple((result.activation.name, r.form, r.transformation, _text(r.domain), r.verdict)
                     for r in result.rows)
    return tuple((name, result.form, t.name, _text(t.domain), r.verdict) for name, results in result.rows
                 for t, r in zip(result.columns, results, strict=True))


def _text(found: Domain | None) -> str | None:
    """A domain as the paper's claims key it: positive, negative, any, or the number."""
    return None if found is None else str(found)


def mismatches(result: Audit | Catalogue | Iterable[Row], expect: str) -> tuple[Mismatch, ...]:
    """The rows (of an audit, a sweep, or given as tuples, see :func:`rows`) that break
    ``expect``: ``paper`` — a verdict other than the one the paper states; ``decided`` —
    inconclusive."""
    if expect not in EXPECTATIONS:
        raise UnknownNameError("expectation", expect, (), EXPECTATIONS)
    found = []
    table = rows(result) if isinstance(result, (Audit, Catalogue)) else result
    for activation, form, transformation, domain, verdict in table:
        if expect == "decided":
            if verdict is Verdict.INCONCLUSIVE:
                found.append(Mismatch(activation, form, transformation, domain, "holds or broken", verdict))
            continue
        want = stated(activation, form, transformation, domain)
        if want is not None and verdict is not want:
            found.append(Mismatch(activation, form, transformation, domain, want.value, verdict))
    return tuple(found)


def describe(found: tuple[Mismatch, ...], expect: str, shown: int = 3) -> str:
    """One line for the command line: how many rows break ``expect`` and the first few."""
    what = "the paper's verdicts" if expect == "paper" else "every row decided (holds or broken)"
    rows_text = "row differs" if len(found) == 1 else "rows differ"
    more = f"; and {len(found) - shown} more" if len(found) > shown else ""
    return f"expected {what}; {len(found)} {rows_text}: {'; '.join(map(str, found[:shown]))}{more}"
