"""The three-valued answer of every check, the z3 cross-check's answer beside it, and the answers of
the comparisons that are evidence, not verdicts (numeric evaluations, checkpoints); ``--expect``
of a sweep. Light (stdlib only): the command line offers these names as choices."""
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


class Expectation(StrEnum):
    """What ``--expect`` of a sweep (audit, catalog) asks of its rows (:mod:`symcheck.paper.claims`)."""

    PAPER = "paper"        # the verdict the paper states, where it states one
    DECIDED = "decided"    # holds or broken: no row inconclusive


class Outcome(StrEnum):
    """A numeric comparison's answer: the two evaluations agree within the tolerance, differ
    beyond it, or float arithmetic could not resolve them (no evidence either way). Evidence,
    never a verdict."""

    AGREE = "agree"
    DIFFER = "differ"
    OVERFLOW = "overflow"
    UNDERFLOW = "underflow"


class Equivalence(StrEnum):
    """Two checkpoints' layers compared: one is a proved group element applied to the other,
    they are certified to differ, or neither is shown."""

    EQUIVALENT = "equivalent"
    NOT_EQUIVALENT = "not equivalent"
    UNDETERMINED = "undetermined"

    @property
    def option(self) -> str:
        """The command line's spelling (``--expect not-equivalent``): one word."""
        return self.value.replace(" ", "-")


class Verification(StrEnum):
    """A derivation replayed (``symcheck derive``, its ``--expect``): every step verified, or not."""

    VERIFIED = "verified"
    UNVERIFIED = "unverified"
