"""Parameter-space transformations of one unit, acting on (a, b) = (x·q, x·k)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from .errors import ParseError, UnknownNameError
from .names import closest
from .symbols import ALPHA

#: named α domains; a number is also accepted ("-1", "2", "1/2", "0.5")
DOMAINS = {
    "positive": ("every α > 0", r"\alpha > 0"),
    "negative": ("every α < 0", r"\alpha < 0"),
    "any": ("every α ≠ 0", r"\alpha \neq 0"),
}
ALIASES = {"minus-one": "-1", "all": "any", "nonzero": "any"}


@dataclass(frozen=True)
class Domain:
    """Where α ranges: a named domain, or one exact rational ``value``."""

    name: str
    value: sympy.Rational | None = None

    def describe(self) -> str:
        return DOMAINS[self.name][0] if self.value is None else f"α = {sympy.sstr(self.value)}"

    def latex(self) -> str:
        return DOMAINS[self.name][1] if self.value is None else rf"\alpha = {sympy.latex(self.value)}"

    def contains(self, alpha: sympy.Expr) -> bool:
        if self.value is not None:
            return alpha == self.value
        return bool({"positive": alpha > 0, "negative": alpha < 0, "any": alpha != 0}[self.name])


def domain(text: str | int | Fraction | sympy.Rational) -> Domain:
    """Parse an α domain: positive, negative, any, minus-one, or an exact non-zero number."""
    if isinstance(text, (int, Fraction, sympy.Rational)) and not isinstance(text, bool):
        return _numeric(sympy.Rational(text), str(text))
    if not isinstance(text, str):
        raise ParseError(f"alpha must be a domain name or a number, not {type(text).__name__}")
    key = ALIASES.get(text.strip().lower(), text.strip().lower())
    if key in DOMAINS:
        return Domain(key)
    try:
        value = Fraction(key)  # exact: "0.1" is 1/10, "1e-3" is 1/1000
    except (ValueError, ZeroDivisionError):
        raise UnknownNameError("alpha domain", text, closest(key, [*DOMAINS, *ALIASES]),
                               (*DOMAINS, "minus-one", "a number such as -1 or 1/2")) from None
    if abs(value.numerator) > 10**30 or value.denominator > 10**30:
        raise ParseError(f"alpha {text!r} is too large a number")
    return _numeric(sympy.Rational(value.numerator, value.denominator), text)


def _numeric(value: sympy.Rational, text: str) -> Domain:
    if value == 0:
        raise ParseError("alpha must be non-zero: (q, k) -> (0·q, k/0) is not defined")
    return Domain("number", value)


@dataclass(frozen=True)
class Transformation:
    name: str                      # "exchange" | "inverse-scaling"
    domain: Domain | None = None   # for inverse scaling

    def apply(self, a: sympy.Expr, b: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
        if self.name == "exchange":
            return b, a
        return ALPHA * a, b / ALPHA

    def describe(self) -> str:
        if self.name == "exchange":
            return "exchange (q, k) → (k, q)"
        return f"inverse scaling (q, k) → (αq, k/α), {self.domain.describe()}"

    def latex(self) -> str:
        if self.name == "exchange":
            return r"(q, k) \mapsto (k, q)"
        return rf"(q, k) \mapsto (\alpha q,\ k/\alpha),\ {self.domain.latex()}"
