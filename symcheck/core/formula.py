"""The mathematical statement of a proof step, as a small immutable tree.

The layers below the output build these trees and never print them: a leaf is a SymPy object
(a number, a symbol, an expression, a set such as ``S.Reals``), a node says what the mathematics
is — a relation, a quantified statement, a function applied to arguments, a set, a list of
conditions. The output layer prints them (its LaTeX printer dispatches on the node's class, as
SymPy's printers pick ``_print_<Class>``); :func:`to_latex` asks it through the rendering registry.

Relations nest to the left, so ``r(z) = e = 0`` is ``Relation(EQ, Relation(EQ, r(z), e), 0)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Union, cast

from symcheck.core.rendering import render

if TYPE_CHECKING:  # the leaves are SymPy objects; building a tree needs no SymPy import here
    import sympy

__all__ = ["Formula", "Term", "Rel", "Relation", "Apply", "Operator", "Product", "Neg", "Ratio",
           "Power", "Abs", "Paren", "Plus", "Difference", "PlusMinus", "Indexed", "Text", "Numeral",
           "Terms", "Tuple", "Mapping", "And", "Both", "ForAll", "Given", "Qualified", "Aside",
           "Cases", "FiniteSet", "Interval", "SetUnion", "Cartesian", "Intersection", "SetMinus",
           "SetBuilder", "BigUnion", "Lines", "Abbreviated", "MatrixProduct", "Transposed", "Sum", "Scaled",
           "to_latex", "to_text"]


class Formula:
    """A node of a statement; subclasses are frozen dataclasses."""

    __slots__ = ()


#: a leaf (a SymPy object) or a node
Term = Union["sympy.Basic", Formula]


@dataclass(frozen=True)
class _Of(Formula):
    """A node of one term (the base of the unary nodes)."""

    term: Term


@dataclass(frozen=True)
class _Pair(Formula):
    """A node of two terms, left and right (the base of the binary nodes)."""

    left: Term
    right: Term


@dataclass(frozen=True)
class _Items(Formula):
    """A node of several terms, in order (the base of the list-like nodes)."""

    items: tuple[Term, ...]


class Rel(Enum):
    """How two terms are related."""

    EQ = "="
    NE = "≠"
    LT = "<"
    LE = "≤"
    GT = ">"
    GE = "≥"
    IN = "∈"
    IMPLIES = "⇒"
    APPROX = "≈"
    EQUIV = "≡"


@dataclass(frozen=True)
class Relation(Formula):
    """``left op right``; ``left`` None leaves the subject to the reader (``≈ 0.5``)."""

    op: Rel
    left: Term | None
    right: Term


@dataclass(frozen=True)
class Apply(Formula):
    """A function applied to arguments: ``σ(z)`` (head a symbol), ``silu(z)`` (head a name);
    ``side`` ±1 marks the one-sided branch σ₊ or σ₋."""

    head: sympy.Symbol | str
    args: tuple[Term, ...]
    side: int = 0


@dataclass(frozen=True)
class Operator(Formula):
    """A function written without brackets round a single argument: ``cos ωt``, ``sign L``."""

    name: str
    arg: Term


class Product(_Items):
    """Factors multiplied by juxtaposition."""


class Neg(_Of):
    """``−term``."""


@dataclass(frozen=True)
class Ratio(Formula):
    """``numerator / denominator``, written inline."""

    numerator: Term
    denominator: Term


@dataclass(frozen=True)
class Power(Formula):
    """``base^exponent``. ``grouped_base`` keeps a base that may itself carry an exponent
    apart from this one; ``bare_exponent`` writes a one-letter exponent unbraced."""

    base: Term
    exponent: Term
    grouped_base: bool = False
    bare_exponent: bool = False


class Abs(_Of):
    """``|term|``."""


@dataclass(frozen=True)
class Paren(_Of):
    """A bracketed term; ``large`` sizes the brackets to their content."""

    large: bool = False


class Plus(_Items):
    """Terms added."""


class Difference(_Pair):
    """``left − right``."""


class PlusMinus(_Of):
    """``±term``: both signs."""


@dataclass(frozen=True)
class Indexed(Formula):
    """``base_index``: a coefficient of a sequence (``s_3``), a unit's row (``Q_j``, ``v_π(j)``)."""

    base: sympy.Symbol
    index: int | Term


@dataclass(frozen=True)
class Text(Formula):
    """Words inside a formula: ``left``, ``cases``, ``not certified``."""

    words: str


@dataclass(frozen=True)
class Numeral(Formula):
    """A number as a certifier wrote it (a decimal or p/q), kept exactly as written."""

    digits: str


class Terms(_Items):
    """Several terms listed: the variables ``a, b`` of a scope, a point ``a = 1, b = 2``."""


class Tuple(_Items):
    """An ordered tuple ``(q, k)``, ``(1/a, 1/c)``."""


@dataclass(frozen=True)
class Mapping(Formula):
    """``source ↦ target``: a map of the parameters."""

    source: Term
    target: Term


class And(_Items):
    """Conditions that hold together."""


@dataclass(frozen=True)
class Both(Formula):
    """Two statements joined by the word "and" (one a proviso of the other's range)."""

    first: Term
    second: Term


@dataclass(frozen=True)
class ForAll(Formula):
    """``∀ scope: body``; ``trailing`` states the quantifier after the body (``tight``: close
    after it, as inside a set's definition)."""

    scope: tuple[Term, ...]
    body: Term
    trailing: bool = False
    tight: bool = False


@dataclass(frozen=True)
class Given(Formula):
    """``condition: body`` — the body holds where the condition does (a case of a split)."""

    condition: Term
    body: Term


@dataclass(frozen=True)
class Qualified(Formula):
    """A statement with a proviso in brackets: ``u ∈ R (x ≠ 0)``."""

    statement: Term
    proviso: Term


@dataclass(frozen=True)
class Aside(Formula):
    """A statement with a remark set apart: ``D = 0  (left = …, right = …)``."""

    statement: Term
    remark: Term


@dataclass(frozen=True)
class Cases(Formula):
    """A piecewise definition: (value, condition) pairs."""

    pieces: tuple[tuple[Term, Term], ...]


class FiniteSet(_Items):
    """A finite set ``{a, b}``."""


@dataclass(frozen=True)
class Interval(Formula):
    """``[lower, upper]`` when ``closed`` (an enclosure), else the open ``(lower, upper)``."""

    lower: Term
    upper: Term
    closed: bool


class SetUnion(_Items):
    """A union of sets."""


class Cartesian(_Items):
    """The product of ranges, one per variable."""


class Intersection(_Pair):
    """``left ∩ right``."""


class SetMinus(_Pair):
    """``left ∖ right``."""


@dataclass(frozen=True)
class SetBuilder(Formula):
    """``{element : condition}``."""

    element: Term
    condition: Term


@dataclass(frozen=True)
class BigUnion(Formula):
    """The union of a family (``over`` names it; None: the family at hand)."""

    over: Term | None = None


class Lines(_Items):
    """Statements shown one per line, so a long list still fits the page."""


@dataclass(frozen=True)
class Abbreviated(Formula):
    """An exact expression that may be shown to a few digits where written out it is too long
    (display only: the text and JSON keep it exact)."""

    expr: sympy.Expr


class MatrixProduct(_Items):
    """Matrices multiplied, in order."""


@dataclass(frozen=True)
class Transposed(_Of):
    """``termᵀ``, or the inverse's transpose ``term⁻ᵀ`` when ``inverse``."""

    inverse: bool = False


@dataclass(frozen=True)
class Sum(Formula):
    """``Σ_index body``."""

    index: sympy.Symbol
    body: Term


@dataclass(frozen=True)
class Scaled(Formula):
    """A vector times a scalar coefficient: a unit's output row weighted by its value."""

    coefficient: Term
    vector: Term


def to_latex(formula: Formula | None) -> str:
    """The formula printed as LaTeX by the output layer ('' for no formula)."""
    return "" if formula is None else cast(str, render(formula, "latex"))


def to_text(formula: Formula) -> str:
    """The formula printed as Unicode text by the output layer: one line, or one per case of a
    definition by cases."""
    return cast(str, render(formula, "text"))
