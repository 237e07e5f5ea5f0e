"""The three-valued answer of every check."""
from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    """``holds`` needs a proof, ``broken`` a certified witness; anything else is inconclusive."""

    HOLDS = "holds"
    BROKEN = "broken"
    INCONCLUSIVE = "inconclusive"

    def __str__(self) -> str:
        return self.value
