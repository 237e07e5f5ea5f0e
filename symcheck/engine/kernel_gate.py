"""The gate every proof passes before it is reported: the independent kernel's verdict.

The engine proposes, the kernel disposes. A ``holds``, a group member or a proof that σ ≡ 0 is
reported only with a certificate the kernel (:mod:`symcheck.kernel`, which shares no decision
code with the engine) accepted; otherwise the result is ``inconclusive`` and its note gives
the kernel's or the emitter's reason. Two kinds of refusal:

* ``emit`` — the emitter found no proof the kernel's rules express (a gap in the rule table,
  an uncut condition): the engine's proof may well be right, but it is not reported as one;
* ``kernel`` — the kernel rejected what was emitted: a bug of the emitter's, or an unsound step
  the kernel caught. Each is recorded in :data:`REJECTED`, so a test suite can fail on any it
  did not provoke, as it does on the guard's withdrawals.
"""
from __future__ import annotations

from dataclasses import dataclass

from symcheck.engine.certificate.emit import Certificate, Outcome, Rejection, RejectionStage

__all__ = ["REJECTED", "Admission", "admit"]

#: every certificate the kernel rejected in this process (stage "kernel": a bug somewhere)
REJECTED: list[Rejection] = []


@dataclass(frozen=True)
class Admission:
    """The gate's answer: the accepted certificate, or the reason there is none."""

    certificate: Certificate | None
    reason: str = ""

    @property
    def accepted(self) -> bool:
        return self.certificate is not None

    @property
    def note(self) -> str:
        """Why the proof is not reported, for a result's note."""
        return f"the proof kernel did not accept the proof ({self.reason}); it is not reported as one"

    def summary(self) -> dict:
        """JSON-ready: accepted, the kernel's checked count and its time (the certificate itself is
        written by ``--certificate FILE``)."""
        if self.certificate is None:
            return {"accepted": False, "reason": self.reason}
        return {"accepted": True, "checked": self.certificate.checked,
                "kernel_seconds": round(self.certificate.check_seconds, 4),
                "emit_seconds": round(self.certificate.emit_seconds, 4)}


def admit(outcome: Outcome) -> Admission:
    """Read the emitter's outcome; record a kernel rejection."""
    if isinstance(outcome, Certificate):
        return Admission(outcome)
    if outcome.stage is RejectionStage.KERNEL:
        REJECTED.append(outcome)
    return Admission(None, str(outcome))
