"""Symmetries that hold for every σ because the layer's argument itself is invariant: exchange,
inverse scaling and the GL(r) gauge of the bilinear argument x Q_j K_jᵀ xᵀ, the GL(d) gauge of the
global query, and the permutation of units. Each is proved once by matrix-expression algebra and
does not depend on the activation.

Each argument returns (proved, statement, formula, why). The formulas are fixed matrix identities
typeset by hand (:class:`~symcheck.core.formula.Typeset`), as the paper writes them.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy

from symcheck.core.formula import Typeset

__all__ = ["STRUCTURAL", "Argument"]

#: (proved, statement in text, the identity as a formula, why it holds)
Argument = tuple[bool, str, Typeset, str]


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
            Typeset(r"x Q_j K_j^{\top} x^{\top} = \left(x Q_j K_j^{\top} x^{\top}\right)^{\top} = x K_j Q_j^{\top} x^{\top}"),
            "the argument is a 1×1 matrix, equal to its transpose (checked by matrix-expression algebra)")


def _scaling_argument() -> Argument:
    x, q, k, _ = _matrices()
    alpha = sympy.Symbol("alpha", nonzero=True)
    ok = sympy.simplify((_argument(x, alpha * q, k / alpha) - _argument(x, q, k)).doit()).is_ZeroMatrix
    return (bool(ok), "x (αQ_j)(K_j/α)ᵀ xᵀ = x Q_j K_jᵀ xᵀ for every α ≠ 0",
            Typeset(r"x (\alpha Q_j)(K_j/\alpha)^{\top} x^{\top} = x Q_j K_j^{\top} x^{\top}"),
            "scalars commute through the product (checked by matrix-expression algebra)")


def _gauge_argument() -> Argument:
    x, q, k, g = _matrices()
    moved = _argument(x, q * g, k * g.inverse().T)
    ok = sympy.simplify(moved.doit()) == _argument(x, q, k)
    return (bool(ok), "x (Q_j A)(K_j A⁻ᵀ)ᵀ xᵀ = x Q_j A A⁻¹ K_jᵀ xᵀ = x Q_j K_jᵀ xᵀ for A ∈ GL(r)",
            Typeset(r"x (Q_j A)(K_j A^{-\top})^{\top} x^{\top} = x Q_j A A^{-1} K_j^{\top} x^{\top} = x Q_j K_j^{\top} x^{\top}"),
            "A A⁻¹ = I (checked by matrix-expression algebra)")


def _global_gauge_argument() -> Argument:
    d, m = sympy.Symbol("d", integer=True, positive=True), sympy.Symbol("m", integer=True, positive=True)
    x, q_g = sympy.MatrixSymbol("x", 1, d), sympy.MatrixSymbol("Q_g", d, d)
    k, g = sympy.MatrixSymbol("K", m, d), sympy.MatrixSymbol("A", d, d)
    moved = x * (q_g * g) * (k * g.inverse().T).T
    ok = sympy.simplify(moved.doit()) == x * q_g * k.T
    return (bool(ok), "x (Q_g A)(K A⁻ᵀ)ᵀ = x Q_g A A⁻¹ Kᵀ = x Q_g Kᵀ for A ∈ GL(d)",
            Typeset(r"x (Q_g A)(K A^{-\top})^{\top} = x Q_g A A^{-1} K^{\top} = x Q_g K^{\top}"),
            "A A⁻¹ = I (checked by matrix-expression algebra)")


def _permutation_argument() -> Argument:
    m = 3
    s, v = sympy.symbols("s1:4"), sympy.symbols("v1:4")
    unit = sympy.Function("f")
    total = sum(unit(s[j]) * v[j] for j in range(m))
    ok = all(sum(unit(s[p[j]]) * v[p[j]] for j in range(m)) == total
             for p in itertools.permutations(range(m)))
    return (ok, "Σ_j f(s_π(j)) v_π(j) = Σ_j f(s_j) v_j for every permutation π",
            Typeset(r"\sum_j f(s_{\pi(j)})\, v_{\pi(j)} = \sum_j f(s_j)\, v_j"),
            "a sum does not depend on the order of its terms (checked for all 6 orders of m = 3 units)")


_SHARED = [("permutation", None, _permutation_argument)]
_BILINEAR = [("exchange", None, _exchange_argument), ("inverse-scaling", "any", _scaling_argument),
             ("gauge", None, _gauge_argument)] + _SHARED
#: form → (transformation, its domain, the argument proving it) for the rows that hold for every σ
STRUCTURAL: dict[str, list[tuple[str, str | None, Callable[[], Argument]]]] = {
    "gated": _SHARED, "rank1": _SHARED, "mlp": _SHARED,
    "query-mlp": [("gauge", None, _global_gauge_argument)] + _SHARED,
    "bilinear": _BILINEAR, "rank-r": _BILINEAR,
}
