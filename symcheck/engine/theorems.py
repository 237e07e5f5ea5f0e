"""Reductions for the gated unit σ(a)·b: each symmetry ⇔ a one-variable residual r(z) ≡ 0.

Each reduction states the equivalence and why it holds, builds r from σ, and maps a point z0
where r(z0) ≠ 0 back to values of (a, b, α) at which the *original* statement fails — so a
witness is always re-certified on the unit itself, not on the reduced residual.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy
from sympy import S

from symcheck.core.formula import Cases, ForAll, Formula, Neg, Product, Rel, Relation
from symcheck.language.symbols import ALPHA, A, B, Z, sigma_at

Sigma = Callable[[sympy.Expr], sympy.Expr]


@dataclass(frozen=True)
class Reduction:
    condition: str          # the equivalent condition on σ, plain text
    condition_formula: Formula
    proof: str              # why the equivalence holds
    residual: Callable[[Sigma], sympy.Expr]
    witness: Callable[[sympy.Rational], dict[sympy.Symbol, sympy.Rational]]


def _linear() -> Formula:
    """σ(z) = σ(1)·z for every real z."""
    return ForAll((Relation(Rel.IN, Z, S.Reals),),
                  Relation(Rel.EQ, sigma_at(Z), Product((sigma_at(S.One), Z))), trailing=True)


def _by_sign(positive: Formula, negative: Formula) -> Formula:
    """σ(z) given piecewise: ``positive`` for z > 0, 0 at 0, ``negative`` for z < 0."""
    return Relation(Rel.EQ, sigma_at(Z), Cases(((positive, Relation(Rel.GT, Z, S.Zero)),
                                              (S.Zero, Relation(Rel.EQ, Z, S.Zero)),
                                              (negative, Relation(Rel.LT, Z, S.Zero)))))


def _pos_homogeneous_residual(s: Sigma) -> sympy.Expr:
    return sympy.Piecewise((s(Z) - s(S.One) * Z, Z > 0), (s(S.Zero), sympy.Eq(Z, 0)),
                           (s(Z) + s(-S.One) * Z, True))


def _neg_homogeneous_residual(s: Sigma) -> sympy.Expr:
    return sympy.Piecewise((s(Z) + s(-S.One) * Z, Z > 0), (s(S.Zero), sympy.Eq(Z, 0)),
                           (s(Z) - s(S.One) * Z, True))


def _linear_residual(s: Sigma) -> sympy.Expr:
    return s(Z) - s(S.One) * Z


EXCHANGE = Reduction(
    condition="σ(z) = σ(1)·z for every real z (σ is linear)",
    condition_formula=_linear(),
    proof="⇒: put b = 1, so σ(a) = σ(1)·a. ⇐: if σ(z) = σ(1)·z both sides equal σ(1)·a·b.",
    residual=_linear_residual,
    witness=lambda z0: {A: z0, B: S.One},
)

POSITIVE = Reduction(
    condition="σ is positively homogeneous of degree 1: σ(z) = σ(1)·z for z > 0, σ(0) = 0, "
              "σ(z) = −σ(−1)·z for z < 0",
    condition_formula=_by_sign(Product((sigma_at(S.One), Z)), Neg(Product((sigma_at(-S.One), Z)))),
    proof="Put b = 1. ⇒: a = 1, α = z gives z > 0; a = −1, α = −z gives z < 0; a = 0, α = 2 "
          "gives σ(0) = 2σ(0). ⇐: for α > 0, αa has the sign of a, so σ(αa) = α·σ(a).",
    residual=_pos_homogeneous_residual,
    witness=lambda z0: ({A: S.One, B: S.One, ALPHA: z0} if z0 > 0 else
                        {A: S.Zero, B: S.One, ALPHA: sympy.Integer(2)} if z0 == 0 else
                        {A: -S.One, B: S.One, ALPHA: -z0}),
)

NEGATIVE = Reduction(
    condition="σ(z) = −σ(−1)·z for z > 0, σ(0) = 0, σ(z) = σ(1)·z for z < 0 "
              "(with z = 1 this forces σ(1) = −σ(−1): σ is linear)",
    condition_formula=_by_sign(Neg(Product((sigma_at(-S.One), Z))), Product((sigma_at(S.One), Z))),
    proof="Put b = 1. ⇒: a = −1, α = −z gives z > 0; a = 1, α = z gives z < 0; a = 0, α = −1 "
          "gives σ(0) = −σ(0). ⇐: then σ(1) = −σ(−1) and σ(z) = σ(1)·z, so σ(αa) = α·σ(a).",
    residual=_neg_homogeneous_residual,
    witness=lambda z0: ({A: -S.One, B: S.One, ALPHA: -z0} if z0 > 0 else
                        {A: S.Zero, B: S.One, ALPHA: -S.One} if z0 == 0 else
                        {A: S.One, B: S.One, ALPHA: z0}),
)

ANY = Reduction(
    condition="σ(z) = σ(1)·z for every real z (σ is linear)",
    condition_formula=_linear(),
    proof="Put b = 1. ⇒: a = 1, α = z gives z ≠ 0; a = 0, α = 2 gives σ(0) = 0. "
          "⇐: σ(αa) = σ(1)·αa = α·σ(a).",
    residual=_linear_residual,
    witness=lambda z0: {A: S.One, B: S.One, ALPHA: z0} if z0 != 0 else
                       {A: S.Zero, B: S.One, ALPHA: sympy.Integer(2)},
)


def fixed_scale(c: sympy.Rational) -> Reduction:
    """α = c only: σ(c·z) = c·σ(z); for c = −1 this is oddness."""
    name = "σ is odd: σ(−z) = −σ(z)" if c == -1 else f"σ({sympy.sstr(c)}·z) = {sympy.sstr(c)}·σ(z)"
    return Reduction(
        condition=f"{name} for every real z",
        condition_formula=ForAll((Z,), Relation(Rel.EQ, sigma_at(c * Z), Product((c, sigma_at(Z)))), trailing=True),
        proof=f"Put b = 1 and multiply by α = {sympy.sstr(c)}; the converse multiplies back by b/α.",
        residual=lambda s: s(c * Z) - c * s(Z),
        witness=lambda z0: {A: z0, B: S.One, ALPHA: c},
    )
