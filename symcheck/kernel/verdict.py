"""What the kernel answers, and the one exception it uses to refuse a certificate."""
from __future__ import annotations

from dataclasses import dataclass


class Reject(Exception):
    """The certificate is not a proof: ``where`` says which part, ``str(self)`` why."""

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(reason)
        self.where = where


@dataclass(frozen=True)
class KernelVerdict:
    """``accepted`` only when every obligation of the certificate was re-proved."""

    accepted: bool
    reason: str = ""
    #: where the first failing obligation sits, e.g. ``proof.pieces[2].steps[3]``
    where: str = ""
    #: how many steps, signs and pieces were re-checked (accepted certificates)
    checked: int = 0

    def __str__(self) -> str:
        if self.accepted:
            return f"accepted ({self.checked} obligations re-checked)"
        return f"rejected at {self.where or 'the top'}: {self.reason}"
