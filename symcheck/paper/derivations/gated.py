"""Derivation ``gated``: the gated MLP is the rank-1 form with σ moved onto the query factor."""
from __future__ import annotations

from collections.abc import Callable

import sympy
from sympy import S
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from symcheck.language.layer_formulations import FORMULATIONS, Q, Sizes, input_row
from symcheck.language.symbols import SIGMA, A, B
from symcheck.paper.derivations.steps import Claim
from symcheck.paper.derivations.sums import INDEX_L
from symcheck.paper.derivations.units import entry_sum, gated_unit, params, rank1_unit, unit_layer


def move_sigma_onto_query(expr: sympy.MatrixExpr, query: sympy.MatrixSymbol = Q) -> sympy.MatrixExpr:
    """Rewrite σ(A ⊙ B) to σ(A) ⊙ B where A is the factor computed with the query matrix."""
    def rule(node: ElementwiseApplyFunction) -> sympy.MatrixExpr:
        factors = node.expr.args
        first = [f for f in factors if f.has(query)]
        if len(first) != 1:
            return node
        rest = [f for f in factors if f is not first[0]]
        return sympy.HadamardProduct(ElementwiseApplyFunction(node.function, first[0]), *rest)

    return expr.replace(lambda n: isinstance(n, ElementwiseApplyFunction)
                        and isinstance(n.expr, sympy.HadamardProduct), rule)


def _moved_rank1(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
    """The explicit rank-1 layer with every σ(a_j b_j) rewritten to σ(a_j)·b_j, and the gated layer."""
    p, x = params("rank1", sz), input_row(sz.d)
    a, b = x * p["Q"].T, x * p["K"].T
    moved = FORMULATIONS["rank1"].explicit(SIGMA, sz).xreplace({SIGMA(a[j] * b[j]): SIGMA(a[j]) * b[j]
                                                                for j in range(sz.m)})
    return moved, FORMULATIONS["gated"].explicit(SIGMA, sz)


def claims() -> list[Claim]:
    """The steps of derivation ``gated``, in order, before they are checked."""
    rank1, gated = FORMULATIONS["rank1"], FORMULATIONS["gated"]
    c = sympy.Symbol("c", real=True)

    def linear(z: sympy.Expr) -> sympy.Expr:
        return c * z

    residual = SIGMA(A * B) - SIGMA(A) * B

    def layer(unit: Callable) -> Callable[[Sizes], sympy.Matrix]:
        return lambda sz: unit_layer(unit, SIGMA, sz, params("rank1", sz)["K"], params("rank1", sz)["V"],
                                     params("rank1", sz)["Q"])

    return [
        Claim("rank-1 unit s(a, b) = σ(a·b): σ((xQᵀ)⊙(xKᵀ))V = Σ_j σ(a_j b_j) v_j",
              r"s(a,b) = \sigma(a\,b):\quad \sigma\big((xQ^\top) \odot (xK^\top)\big)V = \sum_j \sigma(a_j b_j)\, v_j",
              "the rank-1 layer (derivation rank1): σ acts on the product of the two projections",
              symbolic=lambda: (rank1.expression(SIGMA)[0, INDEX_L], entry_sum(rank1_unit)),
              explicit=lambda sz: (rank1.explicit(SIGMA, sz), layer(rank1_unit)(sz)), builders=("rank1",)),
        Claim("gated unit g(a, b) = σ(a)·b: (σ(xQᵀ)⊙(xKᵀ))V = Σ_j σ(a_j) b_j v_j",
              r"g(a,b) = \sigma(a)\,b:\quad \big(\sigma(xQ^\top) \odot (xK^\top)\big)V"
              r" = \sum_j \sigma(a_j)\, b_j\, v_j",
              "the same shape as step 1: a sum over units of u(a_j, b_j) v_j with a_j = x·q_j, "
              "b_j = x·k_j; only the unit differs",
              symbolic=lambda: (gated.expression(SIGMA)[0, INDEX_L], entry_sum(gated_unit)),
              explicit=lambda sz: (gated.explicit(SIGMA, sz), layer(gated_unit)(sz)), builders=("gated",)),
        Claim("move σ from the product onto the first factor, σ(a_j b_j) ↦ σ(a_j)·b_j: "
              "σ((xQᵀ)⊙(xKᵀ))V ↦ (σ(xQᵀ)⊙(xKᵀ))V",
              r"\sigma(a_j b_j) \mapsto \sigma(a_j)\, b_j:\quad \sigma\big((xQ^\top) \odot (xK^\top)\big)V "
              r"\ \mapsto\ \big(\sigma(xQ^\top) \odot (xK^\top)\big)V",
              "a definition that changes the model, not an identity; checked: rewriting the rank-1 "
              "expression this way gives exactly the gated MLP",
              definition=True,
              symbolic=lambda: (move_sigma_onto_query(rank1.expression(SIGMA)), gated.expression(SIGMA)),
              explicit=_moved_rank1, builders=("rank1", "gated")),
        Claim("σ(a·b) = σ(a)·b for all a, b ⇔ σ(z) = σ(1)·z: the two layers differ unless σ is linear",
              r"\sigma(ab) \equiv \sigma(a)\,b \iff \sigma(z) = \sigma(1)\,z",
              "⇒: put a = 1; ⇐: with σ(z) = c·z both units are c·a·b, so the layers agree",
              symbolic=lambda: [(residual.subs(A, 1), SIGMA(B) - SIGMA(1) * B),
                                (residual.replace(SIGMA, linear), S.Zero),
                                (rank1.entry(linear), gated.entry(linear))],
              explicit=lambda sz: (rank1.explicit(linear, sz), gated.explicit(linear, sz)), sigma="σ(z) = c·z",
              builders=("rank1", "gated")),
    ]
