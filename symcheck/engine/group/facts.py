"""Certified facts about σ that the symmetry-group arguments rest on, and what they conclude.

A sign is 0 only when proved, ±1 only when certified (:func:`symcheck.exact.signs.exact_sign`);
analyticity is read off the expression tree; Taylor coefficients are exact closed forms. A
:class:`Law` (c = K·|a|^k on a half-line) and a :class:`Bound` (what is left for the a of one
sign) are what the arguments of :mod:`symcheck.engine.group.maximality` produce.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import sympy

from symcheck.core.budget import Budget
from symcheck.core.errors import EvaluationError, ParseError, Undecided
from symcheck.core.formula import Product, Rel, Relation
from symcheck.exact.evaluate import certify_nonzero, recheck_sign
from symcheck.exact.signs import EXACT_SIGN_BITS, at_point, exact_sign
from symcheck.language.activations import Activation
from symcheck.language.parsing import parse_expression
from symcheck.language.symbols import A, Z, sigma_at

__all__ = [
    "ORDER",
    "TAYLOR_CAP",
    "Bound",
    "C",
    "G",
    "Law",
    "analytic",
    "certified_sign",
    "coefficients",
    "exact_form",
    "member_condition",
    "nonzero_point",
]

#: the Taylor order computed at 0 first; more orders are read, up to TAYLOR_CAP, until two
#: coefficients are certified non-zero (a coefficient beyond the cap is never looked at: the
#: group is then partial, and the note names the cap)
ORDER = 6
TAYLOR_CAP = 16
_SMOOTH = (sympy.exp, sympy.sin, sympy.cos, sympy.tanh, sympy.sinh, sympy.cosh, sympy.atan,
           sympy.asinh, sympy.erf, sympy.erfc, sympy.Add, sympy.Mul)


@dataclass(frozen=True)
class Law:
    """c = K·|a|^k for every a of one sign in the group."""

    K: sympy.Expr
    k: sympy.Rational

    def c(self, sign: int) -> sympy.Expr:
        """c as a function of a on the half-line of ``sign``: K·(sign·a)^k as written (K is
        already in its proved form, :func:`exact_form`), no rewriting of the power."""
        return self.K * (sign * A) ** self.k


class ASetKind(StrEnum):
    """The shape of a component's a: all a ≠ 0, a > 0, a < 0, finitely many, or ±base^j."""

    ALL = "all"
    POSITIVE = "positive"
    NEGATIVE = "negative"
    FINITE = "finite"
    DISCRETE = "discrete"

    @classmethod
    def half(cls, sign: int) -> ASetKind:
        """The half-line of a's of ``sign`` (±1)."""
        return cls.POSITIVE if sign == 1 else cls.NEGATIVE


class BoundKind(StrEnum):
    """What the maximality arguments leave for the a of one sign (see :class:`Bound`)."""

    EMPTY = "empty"
    POINTS = "points"
    LAW = "law"
    DISCRETE = "discrete"
    OPEN = "open"


@dataclass(frozen=True)
class Bound:
    """What the arguments leave for the a of one sign.

    ``kind``: "empty" (no such a), "points" (candidates (a₀, c₀), c₀ None when only the value
    argument names it), "law" (c = law for every such a in G), "discrete" (a = sign·base^j with
    c = unit_c^[a<0]·base_c^j), or "open" (no argument applies).
    """

    sign: int
    kind: BoundKind
    points: tuple[tuple[sympy.Expr, sympy.Expr | None], ...] = ()
    law: Law | None = None
    base: sympy.Expr | None = None
    base_c: sympy.Expr | None = None
    unit_c: sympy.Expr | None = None
    reason: str = ""
    #: a discrete bound's (side, (m, harmonics), chosen): σ(side·e^t) = e^(mt)·Σ (α cos(ωt + φ) +
    #: β sin(ωt + φ)) over the harmonics (ω, φ, α, β), the rotation argument on the chosen one;
    #: the signs argument's data (:func:`symcheck.engine.group.maximality.opposite_signs`)
    form: tuple | None = None
    #: a discrete bound's base is B^power, B = e^(π/ω): the lower powers of B are refuted
    power: int = 1
    #: the completeness certificate's argument when it is not read off ``kind``
    by: str = ""

    def __post_init__(self) -> None:
        # sign and kind are the two positional fields: a call that swaps them builds a bound
        # whose kind nothing reads as "points" (the completeness argument then rests on nothing)
        if self.sign not in (1, -1) or not isinstance(self.kind, BoundKind):
            raise TypeError(f"Bound(sign, kind) needs sign ±1 and a BoundKind, got {self.sign!r}, {self.kind!r}")


def certified_sign(value: sympy.Expr) -> int | None:
    """0 when proved zero, ±1 when certified non-zero, None when undecided."""
    try:
        return exact_sign(sympy.sympify(value))
    except (Undecided, EvaluationError, TypeError, ValueError):
        return None


def exact_form(value: sympy.Expr) -> sympy.Expr:
    """A closed-form number in a shorter form when one is proved equal, else as it is.

    SymPy's ``simplify`` only *proposes* the shorter form (it calls log(1 + e^-30) − log(1 + 2e^-30)
    zero); the proposal is kept only when the difference is proved 0 by exact algebra
    (:func:`certified_sign` is 0 only with an exact proof). So the value returned is always the
    number given.
    """
    value = sympy.sympify(value)
    if value.is_Rational or not value.is_number:
        return value
    try:
        proposed = sympy.simplify(value)
    except Exception:  # a failed proposal proposes nothing
        return value
    if proposed == value or not isinstance(proposed, sympy.Expr) or not proposed.is_number:
        return value
    return proposed if certified_sign(value - proposed) == 0 else value


def nonzero_point(sigma: Activation, grid: Sequence[sympy.Rational]) -> tuple[sympy.Rational, sympy.Expr] | None:
    """The first z₀ of ``grid`` with σ(z₀) certified non-zero (and re-checked), with σ(z₀)."""
    for z0 in grid:
        try:
            value = at_point(sigma.expr, Z, z0)
            certificate = certify_nonzero(value, {}, max_prec=EXACT_SIGN_BITS)
            if certificate is not None and recheck_sign(value, {}) == certificate.sign:
                return z0, value
        except (EvaluationError, Undecided, TypeError, ValueError):
            continue
    return None


def analytic(expr: sympy.Expr, point: sympy.Expr | None = None) -> bool:
    """``expr`` (branch-free) is real-analytic at ``point``, or on every open interval where it is
    defined (``point`` None): built from analytic functions, with every logarithm and power whose
    base depends on z checked where that matters."""
    for node in sympy.preorder_traversal(expr):
        if node.is_Atom:
            continue
        if isinstance(node, sympy.Pow):
            base, exponent = node.args
            if Z in exponent.free_symbols and not (Z not in base.free_symbols and certified_sign(base) == 1):
                return False
            if Z not in base.free_symbols or (exponent.is_Integer and exponent >= 0):
                continue
            needed = 1 if not exponent.is_Integer else None
            if point is None:
                if needed:  # √u is not analytic where u = 0
                    return False
                continue
            at = certified_sign(base.xreplace({Z: point}))
            if at is None or at == 0 or (needed and at != 1):
                return False
        elif isinstance(node, sympy.log):
            if point is not None and certified_sign(node.args[0].xreplace({Z: point})) != 1:
                return False
        elif not isinstance(node, _SMOOTH):
            return False
    return True


def coefficients(expr: sympy.Expr, at: sympy.Expr, budget: Budget, order: int = ORDER):
    """Taylor coefficients of ``expr`` at ``at``: (k, value, 0 | ±1 | None) for k = 0 … order."""
    derivative = expr
    out = []
    for k in range(order + 1):
        with budget.step():
            value = derivative.xreplace({Z: at}) / sympy.factorial(k)
            out.append((k, value, certified_sign(value)))
            derivative = sympy.diff(derivative, Z)
    return out


#: the group and the scale c of a pair (a, c), as they appear in formulas
G = sympy.Symbol("G")
C = sympy.Symbol("c")


def member_condition(arg: sympy.Expr, c: sympy.Basic) -> Relation:
    """σ(arg) = c·σ(z): the pair's defining identity in a formula."""
    return Relation(Rel.EQ, sigma_at(arg), Product((c, sigma_at(Z))))


def exact_number(value: Any) -> sympy.Expr:
    """A real number as an exact SymPy number: ints, fractions and SymPy numbers as they are, a
    float as its printed decimal, text through the safe parser (never ``sympify``, which evaluates)."""
    if isinstance(value, bool):
        raise ParseError(f"{value!r} is not a real number")
    if isinstance(value, float):
        number = sympy.Rational(repr(value)) if math.isfinite(value) else None
    elif isinstance(value, (int, Fraction)):
        number = sympy.Rational(value)
    elif isinstance(value, sympy.Basic):
        number = value
    elif isinstance(value, str):
        number = parse_expression(value, symbols={}).expr
    else:
        number = None
    if not isinstance(number, sympy.Expr) or not number.is_number or number.is_real is not True:
        raise ParseError(f"{value!r} is not an exact real number")
    return number
