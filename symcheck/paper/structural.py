"""Symmetries that hold for every σ because the layer's argument itself is invariant: exchange,
inverse scaling and the GL(r) gauge of the bilinear argument x Q_j K_jᵀ xᵀ, the GL(d) gauge of the
global query, and the permutation of units. Each is proved once by matrix-expression algebra and
does not depend on the activation.

Each argument returns (proved, statement, formula, why): the formula is the identity the matrix
algebra checked, as a chain of equal products.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy
from sympy import S

from symcheck.core.formula import (
    Apply,
    Formula,
    Indexed,
    MatrixProduct,
    Paren,
    Power,
    Ratio,
    Rel,
    Relation,
    Scaled,
    Sum,
    Transposed,
)
from symcheck.language.transformations import StructuralKind, TransformationKind

__all__ = ["STRUCTURAL", "Argument"]

#: (proved, statement in text, the identity as a formula, why it holds)
Argument = tuple[bool, str, Formula, str]

# ---- the identities as formulas: x, the unit's Q_j, K_j, a gauge A, the global Q_g and K --------

_X, _Q, _K, _A, _ALPHA, _J = sympy.symbols("x Q K A alpha j")
_QJ, _KJ, _QG = Indexed(_Q, _J), Indexed(_K, _J), Indexed(_Q, sympy.Symbol("g"))


def _chain(first: Formula, second: Formula, *rest: Formula) -> Relation:
    """``t1 = t2 = …``"""
    chained = Relation(Rel.EQ, first, second)
    for term in rest:
        chained = Relation(Rel.EQ, chained, term)
    return chained


def _bilinear(q: Formula, k: Formula) -> MatrixProduct:
    """x q kᵀ xᵀ"""
    return MatrixProduct((_X, q, Transposed(k), Transposed(_X)))


def _gauged(q: Formula, k: Formula, tail: tuple[Formula, ...]) -> Relation:
    """x (q A)(k A⁻ᵀ)ᵀ … = x q A A⁻¹ kᵀ … = x q kᵀ …"""
    moved = (Paren(MatrixProduct((q, _A))), Transposed(Paren(MatrixProduct((k, Transposed(_A, inverse=True))))))
    return _chain(MatrixProduct((_X, *moved, *tail)),
                  MatrixProduct((_X, q, _A, Power(_A, S.NegativeOne), Transposed(k), *tail)),
                  MatrixProduct((_X, q, Transposed(k), *tail)))


def _unit_sum(index: Formula) -> Sum:
    """Σ_j f(s_index) v_index"""
    return Sum(_J, Scaled(Apply(sympy.Symbol("f"), (Indexed(sympy.Symbol("s"), index),)),
                          Indexed(sympy.Symbol("v"), index)))


def _matrices():
    d, r = sympy.Symbol("d", integer=True, positive=True), sympy.Symbol("r", integer=True, positive=True)
    x = sympy.MatrixSymbol("x", 1, d)
    q, k = sympy.MatrixSymbol("Q_j", d, r), sympy.MatrixSymbol("K_j", d, r)
    g = sympy.MatrixSymbol("A", r, r)
    return x, q, k, g


def _argument(x, q, k) -> sympy.MatrixExpr:
    return x * q * k.T * x.T


def _exchange_argument() -> Argument:
    x, q, k, _ = _matrices()
    swapped, original = _argument(x, k, q), _argument(x, q, k)
    ok = sympy.transpose(original).doit() == swapped and original.shape == (1, 1)
    return (ok, "x Q_j K_jᵀ xᵀ = (x Q_j K_jᵀ xᵀ)ᵀ = x K_j Q_jᵀ xᵀ",
            _chain(_bilinear(_QJ, _KJ), Transposed(Paren(_bilinear(_QJ, _KJ), large=True)), _bilinear(_KJ, _QJ)),
            "the argument is a 1×1 matrix, equal to its transpose (checked by matrix-expression algebra)")


def _scaling_argument() -> Argument:
    x, q, k, _ = _matrices()
    alpha = sympy.Symbol("alpha", nonzero=True)
    ok = sympy.simplify((_argument(x, alpha * q, k / alpha) - _argument(x, q, k)).doit()).is_ZeroMatrix
    return (bool(ok), "x (αQ_j)(K_j/α)ᵀ xᵀ = x Q_j K_jᵀ xᵀ for every α ≠ 0",
            _chain(MatrixProduct((_X, Paren(MatrixProduct((_ALPHA, _QJ))), Transposed(Paren(Ratio(_KJ, _ALPHA))),
                                  Transposed(_X))), _bilinear(_QJ, _KJ)),
            "scalars commute through the product (checked by matrix-expression algebra)")


def _gauge_argument() -> Argument:
    x, q, k, g = _matrices()
    moved = _argument(x, q * g, k * g.inverse().T)
    ok = sympy.simplify(moved.doit()) == _argument(x, q, k)
    return (bool(ok), "x (Q_j A)(K_j A⁻ᵀ)ᵀ xᵀ = x Q_j A A⁻¹ K_jᵀ xᵀ = x Q_j K_jᵀ xᵀ for A ∈ GL(r)",
            _gauged(_QJ, _KJ, (Transposed(_X),)),
            "A A⁻¹ = I (checked by matrix-expression algebra)")


def _global_gauge_argument() -> Argument:
    d, m = sympy.Symbol("d", integer=True, positive=True), sympy.Symbol("m", integer=True, positive=True)
    x, q_g = sympy.MatrixSymbol("x", 1, d), sympy.MatrixSymbol("Q_g", d, d)
    k, g = sympy.MatrixSymbol("K", m, d), sympy.MatrixSymbol("A", d, d)
    moved = x * (q_g * g) * (k * g.inverse().T).T
    ok = sympy.simplify(moved.doit()) == x * q_g * k.T
    return (bool(ok), "x (Q_g A)(K A⁻ᵀ)ᵀ = x Q_g A A⁻¹ Kᵀ = x Q_g Kᵀ for A ∈ GL(d)",
            _gauged(_QG, _K, ()),
            "A A⁻¹ = I (checked by matrix-expression algebra)")


def _permutation_argument() -> Argument:
    m = 3
    s, v = sympy.symbols("s1:4"), sympy.symbols("v1:4")
    unit = sympy.Function("f")
    total = sum(unit(s[j]) * v[j] for j in range(m))
    ok = all(sum(unit(s[p[j]]) * v[p[j]] for j in range(m)) == total
             for p in itertools.permutations(range(m)))
    return (ok, "Σ_j f(s_π(j)) v_π(j) = Σ_j f(s_j) v_j for every permutation π",
            _chain(_unit_sum(Apply(sympy.Symbol("pi"), (_J,))), _unit_sum(_J)),
            "a sum does not depend on the order of its terms (checked for all 6 orders of m = 3 units)")


#: (transformation, its domain, the argument proving it)
Row = tuple[TransformationKind | StructuralKind, str | None, Callable[[], Argument]]
_SHARED: list[Row] = [(StructuralKind.PERMUTATION, None, _permutation_argument)]
_BILINEAR: list[Row] = [(TransformationKind.EXCHANGE, None, _exchange_argument),
                        (TransformationKind.INVERSE_SCALING, "any", _scaling_argument),
                        (StructuralKind.GAUGE, None, _gauge_argument), *_SHARED]
#: form → (transformation, its domain, the argument proving it) for the rows that hold for every σ
STRUCTURAL: dict[str, list[Row]] = {
    "gated": _SHARED, "rank1": _SHARED, "mlp": _SHARED,
    "query-mlp": [(StructuralKind.GAUGE, None, _global_gauge_argument), *_SHARED],
    "bilinear": _BILINEAR, "rank-r": _BILINEAR,
}
