"""One error root for everything symcheck reports about bad input.

Each error also subclasses the matching builtin (as pint does) so callers may catch either,
and carries typed fields so the CLI can render a one-line message without parsing text.
"""
from __future__ import annotations

from pathlib import Path


class SymcheckError(Exception):
    """Root of every error symcheck raises on purpose; ``str(err)`` is one line."""


class ParseError(SymcheckError, ValueError):
    """The text is not an expression symcheck accepts (syntax, forbidden construct, limits)."""

    def __init__(self, message: str, *, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class DomainError(SymcheckError, ValueError):
    """The expression is not a real function defined on all of R.

    ``point`` is a value of the variable where it fails, when one is known.
    """

    def __init__(self, message: str, *, text: str = "", point: object = None) -> None:
        super().__init__(message)
        self.text = text
        self.point = point


class UnknownNameError(SymcheckError, LookupError):
    """A name (activation, form, symmetry, domain) that symcheck does not know."""

    def __init__(self, kind: str, name: str, suggestions: tuple[str, ...] = (),
                 known: tuple[str, ...] = ()) -> None:
        hint = (f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else
                f"; expected one of: {', '.join(known)}" if known else "")
        shown = name if len(name) <= 60 else name[:57] + "…"  # one readable line, whatever came in
        super().__init__(f"unknown {kind} {shown!r}{hint}")
        self.kind = kind
        self.name = name
        self.suggestions = suggestions

    def __str__(self) -> str:  # LookupError would otherwise repr() the message
        return str(self.args[0])  # the message built in __init__


class EvaluationError(SymcheckError, ArithmeticError):
    """Certified evaluation could not decide a value (unsupported function, undecided branch)."""


class Imprecise(EvaluationError):
    """An enclosure straddles 0 where a sign or a branch must be known: more precision, or a
    smaller box, may settle it."""


class Undecided(Exception):
    """A question the engine could not settle with a proof (a sign, a cut, a branch); the
    decision that asked it ends ``inconclusive``. Never bad input, so not a SymcheckError."""


class NumericError(SymcheckError, ValueError):
    """Arrays or options the numeric evaluator cannot use (shape, dtype, budget, sizes)."""

    def __init__(self, message: str, *, name: str = "") -> None:
        super().__init__(message)
        self.name = name


class NumericOverflowError(SymcheckError, ArithmeticError):
    """A value of the computation left the working dtype's range (±inf or NaN): the result
    would say nothing, so none is returned. ``stage`` names where; ``dtype`` the working dtype."""

    def __init__(self, message: str, *, stage: str = "", dtype: str = "") -> None:
        super().__init__(message)
        self.stage = stage
        self.dtype = dtype


class InsufficientMemoryError(NumericError, MemoryError):
    """A numeric check whose inputs (with the working-memory budget on top) need more memory than
    the machine has available, refused before anything is allocated. ``needed`` and
    ``available`` are in bytes; ``parts`` names each array counted and its size."""

    def __init__(self, message: str, *, needed: int = 0, available: int = 0,
                 parts: tuple[tuple[str, int], ...] = ()) -> None:
        super().__init__(message, name="memory")
        self.needed = needed
        self.available = available
        self.parts = parts


class PlotError(SymcheckError, ImportError):
    """A figure cannot be drawn: matplotlib is missing, or the file type or request is not supported."""


class WeightsError(SymcheckError, ValueError):
    """A weight file or tensor symcheck cannot use; ``path`` and ``tensor`` say which."""

    def __init__(self, message: str, *, path: str | Path = "", tensor: str = "") -> None:
        super().__init__(message)
        self.path = str(path)
        self.tensor = tensor


class TargetError(SymcheckError, ValueError):
    """A TARGET that does not say what to render (unknown option, missing value, …)."""
