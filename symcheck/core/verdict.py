"""The three-valued answer of every check, and the z3 cross-check's answer beside it."""
from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """``holds`` needs a proof, ``broken`` a certified witness; anything else is inconclusive."""

    HOLDS = "holds"
    BROKEN = "broken"
    INCONCLUSIVE = "inconclusive"


class CrossVerdict(StrEnum):
    """The second engine's answer: it proves (holds), refutes at a re-evaluated model (broken),
    gives no answer (unknown), or is not installed (unavailable). Never a verdict of the check."""

    HOLDS = "holds"
    BROKEN = "broken"
    UNKNOWN = "unknown"
    UNAVAILABLE = "unavailable"
