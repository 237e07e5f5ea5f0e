"""The pieces every result is made of: proof steps with their status, and rendering by type.

The results themselves live with what produces them (a check's in :mod:`symcheck.engine.check_result`,
the audit's and the derivations' in :mod:`symcheck.paper`), because they carry that layer's objects.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from symcheck.core.formula import Formula, Text, to_latex, to_text
from symcheck.core.rendering import render


class Status(StrEnum):
    """How a step is backed: machine-checked, a stated theorem, given input, certified by
    exact or ball arithmetic, or not settled (unknown, out of time, failed)."""

    VERIFIED = "verified"
    THEOREM = "theorem"
    GIVEN = "given"
    CERTIFIED = "certified"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    FAILED = "failed"


#: the step statuses as text (JSON values)
STATUSES = tuple(status.value for status in Status)


class Renderable:
    """Renders itself through the renderer registered for its type (:mod:`symcheck.core.rendering`)."""

    def __rich__(self) -> Any:  # a rich renderable
        return render(self, "rich")

    def to_latex(self) -> str:
        return cast(str, render(self, "latex"))

    def _repr_latex_(self) -> str:
        return cast(str, render(self, "latex", notebook=True))

    def _repr_html_(self) -> str:
        return cast(str, render(self, "html"))


@dataclass(frozen=True)
class Step:
    """One line of a justification: what is claimed, in text and as a formula, why, and its status."""

    title: str
    statement: str
    formula: Formula | None
    justification: str = ""
    status: Status = Status.VERIFIED
    #: one case of a split that covers the domain (counted by readers, never found in the title)
    case: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))  # a typo is an error, not a status

    @property
    def latex(self) -> str:
        """The formula as LaTeX, printed by the output layer."""
        return to_latex(self.formula)

    @property
    def text(self) -> str:
        """The statement as people read it: the formula printed by the output layer in the
        notation of the LaTeX and the HTML (``r(z) = max(0, z) − z``, one line per case of a
        definition by cases), or the words where the step's formula is words alone (the JSON
        keeps ``statement``)."""
        return self.statement if self.formula is None or isinstance(self.formula, Text) else to_text(self.formula)

    def line(self, lead: str) -> str:
        """``lead``, the text and the status in brackets, for ``print``: the lines after the
        first of a definition by cases are indented under the first."""
        return lead + self.text.replace("\n", "\n" + " " * len(lead)) + f"  [{self.status}]"

    def to_dict(self) -> dict[str, str]:
        return {"title": self.title, "statement": self.statement, "latex": self.latex,
                "justification": self.justification, "status": self.status.value}
