"""The pieces the derivations' claims are written with: a formulation's explicit parameters, a
layer summed unit by unit, and its generic output entry as a sum over units."""
from __future__ import annotations

from collections.abc import Callable

import sympy
from sympy import S

from symcheck.language.layer_formulations import FORMULATIONS, D, K, M, Q, R, Sizes, V, X, input_row
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations.sums import INDEX_I, INDEX_J, INDEX_L


def params(name: str, sz: Sizes) -> dict[str, sympy.Matrix]:
    """The explicit parameter matrices of formulation ``name`` at sizes ``sz`` (symbolic entries)."""
    return FORMULATIONS[name].parameters(sz)


def dot(x: sympy.Matrix, row: sympy.Matrix) -> sympy.Expr:
    """x·row for two explicit rows, written out term by term."""
    return sum((x[i] * row[i] for i in range(x.cols)), S.Zero)


def unit_layer(unit: Callable, sigma: Callable, sz: Sizes, keys: sympy.Matrix, values: sympy.Matrix,
               queries: sympy.Matrix | None = None) -> sympy.Matrix:
    """Σ_j unit(σ, a_j, b_j) v_j with a_j = x·q_j and b_j = x·k_j, unit by unit."""
    x, out = input_row(sz.d), sympy.zeros(1, values.cols)
    for j in range(keys.rows):
        a = dot(x, queries[j, :]) if queries is not None else S.Zero
        out += unit(sigma, a, dot(x, keys[j, :])) * values[j, :]
    return out


def entry_sum(unit: Callable, query: sympy.MatrixSymbol | None = Q, key: sympy.MatrixSymbol = K) -> sympy.Expr:
    """Σ_{j<m} unit(σ, a_j, b_j) V_{j,l} with a_j = Σ_i x_i Q_{j,i}: the generic output entry."""
    def row_dot(W: sympy.MatrixSymbol) -> sympy.Expr:
        return sympy.Sum(X[0, INDEX_I] * W[INDEX_J, INDEX_I], (INDEX_I, 0, D - 1))

    return sympy.Sum(unit(SIGMA, row_dot(query) if query is not None else S.Zero, row_dot(key)) * V[INDEX_J, INDEX_L],
                     (INDEX_J, 0, M - 1))


# a unit u(σ, a_j, b_j): what unit j contributes, times v_j, from a_j = x·q_j and b_j = x·k_j

def rank1_unit(s: Callable, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """The rank-1 unit σ(a·b)."""
    return s(a * b)


def gated_unit(s: Callable, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """The gated unit σ(a)·b."""
    return s(a) * b


def mlp_unit(s: Callable, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """The MLP unit σ(b): no query."""
    return s(b)


#: a unit's query and key factors Q_j, K_j ∈ R^{d×r}, for symbolic-dimension checks
QJ, KJ = sympy.MatrixSymbol("Q_j", D, R), sympy.MatrixSymbol("K_j", D, R)
