"""The verdicts the paper states, as data, and a sweep compared with them (``--expect``).

The paper states verdicts of two kinds (docs/theory.md §1):

* for every σ: on the rank-1 unit σ(a·b), exchange and inverse scaling (every α > 0, α = −1,
  every α ≠ 0) hold; on the gated unit σ(a)·b, key-value rescaling holds;
* for the activations it names, on the gated unit: exchange, and inverse scaling for α > 0,
  α = −1 and every α ≠ 0 (ReLU and leaky ReLU keep α > 0, tanh keeps α = −1, the identity
  keeps them all, GELU, SiLU and sigmoid none).

A row the paper says nothing about is not compared. ``expect="decided"`` asks instead that no
row is inconclusive (:class:`Expectation`).

>>> stated("tanh", "gated", "inverse-scaling", "-1")
<Verdict.HOLDS: 'holds'>
>>> stated("softplus", "gated", "exchange") is None
True
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from symcheck.core.errors import UnknownNameError
from symcheck.core.verdict import Expectation, Verdict
from symcheck.language.transformations import Domain, StructuralKind, TransformationKind
from symcheck.paper.auditing import Audit
from symcheck.paper.targets import Catalogue

__all__ = ["EXPECTATIONS", "EVERY_SIGMA", "GATED", "Expectation", "Mismatch", "describe", "expectation",
           "mismatches", "rows", "stated"]

#: a row's map: a unit's transformation, or a whole layer's (those hold for every σ)
Kind = TransformationKind | StructuralKind
#: (activation, form, transformation, domain as the claims key it, verdict)
Row = tuple[str, str, Kind, "str | None", Verdict]


#: the command line's names of the expectations
EXPECTATIONS = tuple(e.value for e in Expectation)

_H, _B = Verdict.HOLDS, Verdict.BROKEN
_EXCHANGE, _SCALING = TransformationKind.EXCHANGE, TransformationKind.INVERSE_SCALING
_KEY_VALUE = TransformationKind.KEY_VALUE_RESCALING

#: (form, transformation, domain) -> the verdict the paper states for every σ
EVERY_SIGMA: dict[tuple[str, Kind, str | None], Verdict] = {
    ("rank1", _EXCHANGE, None): _H,
    ("rank1", _SCALING, "positive"): _H,
    ("rank1", _SCALING, "-1"): _H,
    ("rank1", _SCALING, "any"): _H,
    ("gated", _KEY_VALUE, "positive"): _H,
    ("gated", _KEY_VALUE, "any"): _H,
}

_COLUMNS = ((_EXCHANGE, None), (_SCALING, "positive"), (_SCALING, "-1"), (_SCALING, "any"))
#: activation -> the gated unit's verdicts for exchange, α > 0, α = −1, α ≠ 0
GATED: dict[str, dict[tuple[Kind, str | None], Verdict]] = {
    name: dict(zip(_COLUMNS, verdicts, strict=True)) for name, verdicts in {
        "relu": (_B, _H, _B, _B),
        "leaky_relu": (_B, _H, _B, _B),
        "gelu": (_B, _B, _B, _B),
        "silu": (_B, _B, _B, _B),
        "sigmoid": (_B, _B, _B, _B),
        "tanh": (_B, _B, _H, _B),
        "identity": (_H, _H, _H, _H),
    }.items()}


def stated(activation: str, form: str, transformation: Kind, domain: str | None = None) -> Verdict | None:
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
    transformation: Kind
    domain: str | None
    #: the verdicts that would have met the expectation
    expected: tuple[Verdict, ...]
    got: Verdict

    def __str__(self) -> str:
        where = self.transformation + ("" if self.domain is None else f" ({self.domain})")
        expected = " or ".join(verdict.value for verdict in self.expected)
        return f"{self.activation}, {self.form} {where}: expected {expected}, got {self.got.value}"


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


def expectation(name: Expectation | str) -> Expectation:
    """The expectation called ``name`` (``paper`` or ``decided``); an unknown name is an error."""
    try:
        return Expectation(name)
    except ValueError:
        raise UnknownNameError("expectation", str(name), (), EXPECTATIONS) from None


def mismatches(result: Audit | Catalogue | Iterable[Row], expect: Expectation) -> tuple[Mismatch, ...]:
    """The rows (of an audit, a sweep, or given as tuples, see :func:`rows`) that break
    ``expect``: ``paper`` — a verdict other than the one the paper states; ``decided`` —
    inconclusive."""
    expect = expectation(expect)
    found = []
    table = rows(result) if isinstance(result, (Audit, Catalogue)) else result
    for activation, form, transformation, domain, verdict in table:
        if expect is Expectation.DECIDED:
            if verdict is Verdict.INCONCLUSIVE:
                found.append(Mismatch(activation, form, transformation, domain, (_H, _B), verdict))
            continue
        want = stated(activation, form, transformation, domain)
        if want is not None and verdict is not want:
            found.append(Mismatch(activation, form, transformation, domain, (want,), verdict))
    return tuple(found)


def describe(found: tuple[Mismatch, ...], expect: Expectation, shown: int = 3) -> str:
    """One line for the command line: how many rows break ``expect`` and the first few."""
    what = "the paper's verdicts" if expectation(expect) is Expectation.PAPER else "every row decided (holds or broken)"
    rows_text = "row differs" if len(found) == 1 else "rows differ"
    more = f"; and {len(found) - shown} more" if len(found) > shown else ""
    return f"expected {what}; {len(found)} {rows_text}: {'; '.join(map(str, found[:shown]))}{more}"
