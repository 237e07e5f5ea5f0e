"""Parameter-space transformations of one unit, acting on (a, b) = (x·q, x·k)."""
from __future__ import annotations

from collections import abc
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import sympy
from sympy import S

from symcheck.core.errors import ParseError, UnknownNameError
from symcheck.core.formula import And, Formula, Mapping, Power, Ratio, Rel, Relation, Tuple, to_latex
from symcheck.core.names import closest
from symcheck.exact.signs import Undecided, exact_sign
from symcheck.language.symbols import ALPHA, BETA, A, B

#: named α domains; a number is also accepted ("-1", "2", "1/2", "0.5")
DOMAINS = {
    "positive": ("every α > 0", Rel.GT),
    "negative": ("every α < 0", Rel.LT),
    "any": ("every α ≠ 0", Rel.NE),
}
ALIASES = {"minus-one": "-1", "all": "any", "nonzero": "any"}


class DomainName(StrEnum):
    """Where a scale ranges: a named half-line or all of R∖{0}, or one number (its ``value``)."""

    POSITIVE = "positive"
    NEGATIVE = "negative"
    ANY = "any"
    NUMBER = "number"


@dataclass(frozen=True, init=False)
class Domain:
    """Where a scale (α or β) ranges: a named domain, or one exact rational ``value``."""

    name: DomainName
    value: sympy.Rational | None = None

    def __init__(self, name: DomainName | str, value: sympy.Rational | None = None) -> None:
        object.__setattr__(self, "name", DomainName(name))  # a typo is an error, not a domain
        object.__setattr__(self, "value", value)

    def describe(self, symbol: str = "α") -> str:
        if self.value is not None:
            return f"{symbol} = {sympy.sstr(self.value)}"
        return DOMAINS[self.name][0].replace("α", symbol)

    def condition(self, symbol: str = "α") -> str:
        """The condition on the scale, for tables: ``α > 0``, ``β ≠ 0``, ``α = -1``."""
        if self.value is not None:
            return f"{symbol} = {sympy.sstr(self.value)}"
        return symbol + {DomainName.POSITIVE: " > 0", DomainName.NEGATIVE: " < 0", DomainName.ANY: " ≠ 0"}[self.name]

    def formula(self, scale: sympy.Symbol = ALPHA) -> Relation:
        """The condition on the scale: α > 0, β ≠ 0, α = −1."""
        if self.value is not None:
            return Relation(Rel.EQ, scale, self.value)
        return Relation(DOMAINS[self.name][1], scale, S.Zero)

    def latex(self, scale: sympy.Symbol = ALPHA) -> str:
        return to_latex(self.formula(scale))

    def contains(self, scale: sympy.Expr) -> bool:
        """Whether the scale is certified to lie in the domain (False when its sign is undecided:
        a witness outside the domain, or not known to be inside, certifies nothing)."""
        if self.value is not None:
            return scale == self.value
        try:
            sign = exact_sign(sympy.sympify(scale))  # certified, never SymPy's evalf
        except Undecided:
            return False
        return {DomainName.POSITIVE: sign > 0, DomainName.NEGATIVE: sign < 0, DomainName.ANY: sign != 0}[self.name]

    def __str__(self) -> str:
        return self.name if self.value is None else str(self.value)


#: an exact α keeps its numerator and denominator to this many digits (1e-31 is fine, 1e999999 not)
MAX_ALPHA_DIGITS = 100
MAX_ALPHA_DIGITS_VALUE = 10**MAX_ALPHA_DIGITS


def domain(text: str | int | float | Fraction | sympy.Rational) -> Domain:
    """Parse an α domain: positive, negative, any, minus-one, or an exact non-zero number.

    A float is read as the decimal it prints as (``0.1`` is 1/10), as the command line reads
    ``--alpha 0.1``.
    """
    if isinstance(text, float):
        if text != text or text in (float("inf"), float("-inf")):
            raise ParseError(f"alpha must be a finite number, not {text!r}")
        text = repr(text)
    if isinstance(text, (int, Fraction, sympy.Rational)) and not isinstance(text, bool):
        return _numeric(sympy.Rational(text), str(text))
    if not isinstance(text, str):
        raise ParseError(f"alpha must be a domain name or a number, not {type(text).__name__}")
    key = ALIASES.get(text.strip().lower(), text.strip().lower())
    if key in DOMAINS:
        return Domain(key)
    try:
        value = Fraction(key)  # exact: "0.1" is 1/10, "1e-3" is 1/1000
    except ZeroDivisionError:
        raise ParseError(f"alpha {text!r} divides by zero; α must be a non-zero number") from None
    except ValueError:
        raise UnknownNameError("alpha domain", text, closest(key, [*DOMAINS, *ALIASES]),
                               (*DOMAINS, "minus-one", "a number such as -1 or 1/2")) from None
    if abs(value.numerator) > MAX_ALPHA_DIGITS_VALUE:
        raise ParseError(f"alpha {text!r} is too large a number (at most {MAX_ALPHA_DIGITS} digits)")
    if value.denominator > MAX_ALPHA_DIGITS_VALUE:
        raise ParseError(f"alpha {text!r} is too small a number (a denominator of at most "
                         f"{MAX_ALPHA_DIGITS} digits)")
    return _numeric(sympy.Rational(value.numerator, value.denominator), text)


def _numeric(value: sympy.Rational, text: str) -> Domain:
    if value == 0:
        raise ParseError("alpha must be non-zero: (q, k) -> (0·q, k/0) is not defined")
    return Domain(DomainName.NUMBER, value)


#: the parameters of one unit, as they appear in a map's formula
_Q, _K, _V = sympy.symbols("q k v")


def _map(first: sympy.Symbol, second: sympy.Symbol, new_first: object, new_second: object) -> Mapping:
    return Mapping(Tuple((first, second)), Tuple((new_first, new_second)))


class TransformationKind(StrEnum):
    """The per-unit parameter maps a symmetry check decides."""

    EXCHANGE = "exchange"
    INVERSE_SCALING = "inverse-scaling"
    KEY_VALUE_RESCALING = "key-value-rescaling"
    QUERY_VALUE_RESCALING = "query-value-rescaling"


class StructuralKind(StrEnum):
    """The maps of a whole layer that the audit proves for every σ by matrix algebra."""

    PERMUTATION = "permutation"
    GAUGE = "gauge"


@dataclass(frozen=True)
class KindNames:
    """How every renderer names one kind of map (the JSON keeps the kind's value)."""

    title: str   # a heading or a check's title: "Inverse scaling"
    short: str   # a table cell, with its domain beside it: "inverse scaling"
    column: str  # a catalogue column, with its domain beside it: "scaling"


#: the one table of names the text, rich, LaTeX and HTML renderers use
NAMES: dict[TransformationKind | StructuralKind, KindNames] = {
    TransformationKind.EXCHANGE: KindNames("Exchange", "exchange", "exchange"),
    TransformationKind.INVERSE_SCALING: KindNames("Inverse scaling", "inverse scaling", "scaling"),
    TransformationKind.KEY_VALUE_RESCALING: KindNames("Key-value rescaling", "key-value", "key-value"),
    TransformationKind.QUERY_VALUE_RESCALING: KindNames("Query-value rescaling", "query-value", "query-value"),
    StructuralKind.PERMUTATION: KindNames("Permutation", "permutation", "permutation"),
    StructuralKind.GAUGE: KindNames("Gauge", "gauge", "gauge"),
}


def names(kind: TransformationKind | StructuralKind) -> KindNames:
    """The names of ``kind`` (every member has its row: a missing one is our bug, not a fallback)."""
    return NAMES[kind]


def scale_symbol(kind: TransformationKind | StructuralKind) -> sympy.Symbol:
    """The scale a kind's domain is written in: β for key-value rescaling, α otherwise."""
    return BETA if kind == TransformationKind.KEY_VALUE_RESCALING else ALPHA


#: kind -> (scale symbol or None, what it does, the map for a degree p)
KINDS = {
    TransformationKind.EXCHANGE: (None, "exchange (q, k) → (k, q)", lambda p: _map(_Q, _K, _K, _Q)),
    TransformationKind.INVERSE_SCALING: (ALPHA, "inverse scaling (q, k) → (αq, k/α)",
                        lambda p: _map(_Q, _K, ALPHA * _Q, Ratio(_K, ALPHA))),
    TransformationKind.KEY_VALUE_RESCALING: (BETA, "key-value rescaling (k, v) → (βk, v/β)",
                            lambda p: _map(_K, _V, BETA * _K, Ratio(_V, BETA))),
    TransformationKind.QUERY_VALUE_RESCALING: (ALPHA, "query-value rescaling (q, v) → (αq, v/α^p)",
                              lambda p: _map(_Q, _V, ALPHA * _Q, Ratio(_V, Power(ALPHA, p)))),
}


@dataclass(frozen=True, init=False)
class Transformation:
    """A parameter-space map of one unit; ``statement`` gives the identity it must satisfy."""

    name: TransformationKind
    domain: Domain | None = None   # where the scale ranges, for the scalings
    degree: sympy.Expr = S.One     # p, for query-value rescaling

    def __init__(self, name: TransformationKind | str, domain: Domain | None = None,
                 degree: sympy.Expr = S.One) -> None:
        """``name`` as the command line spells it, or the kind itself."""
        if name not in KINDS:
            names = tuple(kind.value for kind in TransformationKind)  # the message quotes names, not members
            raise UnknownNameError("transformation", name, closest(name, names), names)
        object.__setattr__(self, "name", TransformationKind(name))
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "degree", degree)
        if (KINDS[self.name][0] is None) != (self.domain is None):
            raise ValueError(f"{self.name} {'needs' if self.domain is None else 'takes no'} domain")

    @property
    def scale(self) -> sympy.Symbol | None:
        return KINDS[self.name][0]

    def admits(self, values: abc.Mapping[sympy.Symbol, sympy.Expr]) -> bool:
        """The point gives the scale, when the map has one, a value certified to lie in its domain."""
        scale, domain = self.scale, self.domain
        if scale is None or domain is None:  # a scale exactly when a domain (__post_init__)
            return True
        return scale in values and domain.contains(values[scale])

    def apply(self, a: sympy.Expr, b: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
        """The unit's new arguments and the factor its output row v is multiplied by."""
        if self.name is TransformationKind.EXCHANGE:
            return b, a, S.One
        if self.name is TransformationKind.INVERSE_SCALING:
            return ALPHA * a, b / ALPHA, S.One
        if self.name is TransformationKind.KEY_VALUE_RESCALING:
            return a, BETA * b, 1 / BETA
        return ALPHA * a, b, ALPHA ** -self.degree

    def statement(self, unit: Callable[..., sympy.Expr], sigma: Callable[[sympy.Expr], sympy.Expr],
                  a: sympy.Expr = A, b: sympy.Expr = B) -> tuple[sympy.Expr, sympy.Expr]:
        """(transformed unit output, original unit output): the symmetry is their equality."""
        new_a, new_b, factor = self.apply(a, b)
        return factor * unit(sigma, new_a, new_b), unit(sigma, a, b)

    def describe(self) -> str:
        text = KINDS[self.name][1].replace("^p", "" if self.degree == 1 else f"^{sympy.sstr(self.degree)}")
        return text if self.domain is None else f"{text}, {self.domain.describe(str(self.scale_text))}"

    def formula(self) -> Formula:
        """The map, and where its scale ranges."""
        mapping = KINDS[self.name][2](self.degree)
        return mapping if self.domain is None else And((mapping, self.domain.formula(self.scale)))

    def latex(self) -> str:
        return to_latex(self.formula())

    @property
    def scale_text(self) -> str:
        return {"alpha": "α", "beta": "β"}.get(str(self.scale), str(self.scale))
