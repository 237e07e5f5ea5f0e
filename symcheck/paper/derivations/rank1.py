"""Derivation ``rank1``: full bilinear attention at rank 1 is σ((xQᵀ)⊙(xKᵀ))V."""
from __future__ import annotations

import sympy

from symcheck.language.layer_formulations import (
    FORMULATIONS,
    KU,
    QU,
    SYMBOLIC,
    D,
    K,
    L,
    M,
    Q,
    Sizes,
    SymbolicSizes,
    X,
    input_row,
)
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations.steps import Claim
from symcheck.paper.derivations.sums import INDEX_L
from symcheck.paper.derivations.units import dot, entry_sum, params, rank1_unit, unit_layer

# a unit's rank-1 factors as rows, for symbolic-dimension checks
_q, _k = (sympy.MatrixSymbol(n, 1, D) for n in ("q_j", "k_j"))


def rank1_from_bilinear(sz: Sizes) -> dict[str, sympy.Matrix]:
    """The rank-1 parameters as bilinear ones: per-unit factors Q_j = q_jᵀ, K_j = k_jᵀ, and V."""
    p = params("rank1", sz)
    return {**_rows_as_units("Q", p["Q"]), **_rows_as_units("K", p["K"]), "V": p["V"]}


def claims() -> list[Claim]:
    """The steps of derivation ``rank1``, in order, before they are checked."""
    rank1, bilinear = FORMULATIONS["rank1"], FORMULATIONS["bilinear"]
    Q1, K1 = sympy.MatrixSymbol("Q_j", D, 1), sympy.MatrixSymbol("K_j", D, 1)

    def unit_factors(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
        p = params("rank1", sz)
        return p["Q"][0, :], p["K"][0, :]

    return [
        Claim("Q_jK_jᵀ = q_jᵀk_j at r = 1 (Q_j = q_jᵀ, K_j = k_jᵀ with rows q_j, k_j ∈ R^{1×d})",
              r"r = 1:\ Q_j K_j^\top = q_j^\top k_j",
              "at rank 1 each factor is one column; their product is an outer product",
              symbolic=lambda: ((Q1 * K1.T).xreplace({Q1: _q.T, K1: _k.T}), _q.T * _k),
              explicit=lambda sz: (rank1_from_bilinear(sz)["Q_1"] * rank1_from_bilinear(sz)["K_1"].T,
                                   unit_factors(sz)[0].T * unit_factors(sz)[1]),
              dims="d"),
        Claim("xQ_jK_jᵀxᵀ = (xq_jᵀ)(xk_jᵀ)ᵀ = (x·q_j)(x·k_j) = a_j b_j",
              r"x Q_j K_j^\top x^\top = (x q_j^\top)(x k_j^\top)^\top = (x\cdot q_j)(x\cdot k_j) = a_j b_j",
              "associativity, and a 1×1 matrix is its own transpose",
              symbolic=lambda: ((X * Q1 * K1.T * X.T).xreplace({Q1: _q.T, K1: _k.T}), (X * _q.T) * (X * _k.T).T),
              explicit=lambda sz: ((input_row(sz.d) * rank1_from_bilinear(sz)["Q_1"]
                                    * rank1_from_bilinear(sz)["K_1"].T * input_row(sz.d).T),
                                   sympy.Matrix([[dot(input_row(sz.d), unit_factors(sz)[0])
                                                  * dot(input_row(sz.d), unit_factors(sz)[1])]])),
              dims="d"),
        Claim("Σ_j σ(a_j b_j) v_j = σ((xQᵀ)⊙(xKᵀ))V with the rows q_j, k_j, v_j stacked in Q, K, V",
              r"\sum_j \sigma(a_j b_j)\, v_j = \sigma\big((xQ^\top) \odot (xK^\top)\big) V",
              "(xQᵀ)_j = a_j and (xKᵀ)_j = b_j; ⊙ multiplies them unit by unit; ·V sums the v_j",
              symbolic=lambda: (entry_sum(rank1_unit), rank1.expression(SIGMA)[0, INDEX_L]),
              explicit=lambda sz: (unit_layer(rank1_unit, SIGMA, sz, params("rank1", sz)["K"],
                                              params("rank1", sz)["V"], params("rank1", sz)["Q"]),
                                   rank1.explicit(SIGMA, sz)), builders=("rank1",)),
        Claim("Σ_j σ(xQ_jK_jᵀxᵀ) v_j = σ((xQᵀ)⊙(xKᵀ))V at r = 1: full bilinear attention is the rank-1 form",
              r"r = 1:\ \sum_j \sigma\big(xQ_jK_j^\top x^\top\big)\, v_j = \sigma\big((xQ^\top) \odot (xK^\top)\big) V",
              "steps 1–3, unit by unit",
              symbolic=lambda: [(_rank_one_units(bilinear.entry(SIGMA, SymbolicSizes(D, M, SYMBOLIC.e, 1))),
                                 rank1.entry(SIGMA)),
                                (rank1.entry(SIGMA), rank1.expression(SIGMA)[0, L])],
              explicit=lambda sz: (bilinear.explicit(SIGMA, sz, **rank1_from_bilinear(sz)), rank1.explicit(SIGMA, sz)),
              builders=("bilinear", "rank1")),
    ]


def _rank_one_units(entry: sympy.Expr) -> sympy.Expr:
    """A per-unit entry at r = 1 with Q_j = q_jᵀ, K_j = k_jᵀ: the one-term rank sum written out and
    (Q_j)_{i,1} = Q_{j,i}, (K_j)_{i,1} = K_{j,i} (the rows of Q and K)."""
    entry = entry.replace(lambda e: isinstance(e, sympy.Sum) and any(lo == hi for _, lo, hi in e.limits),
                          lambda e: _write_out_single(e))
    return entry.replace(lambda e: isinstance(e, sympy.Indexed) and e.base in (QU, KU) and e.indices[2] == 0,
                         lambda e: (Q if e.base == QU else K)[e.indices[0], e.indices[1]])


def _write_out_single(total: sympy.Sum) -> sympy.Expr:
    """Σ over a single value is that value's term."""
    body, kept = total.function, []
    for v, lo, hi in total.limits:
        if lo == hi:
            body = body.subs(v, lo)
        else:
            kept.append((v, lo, hi))
    return sympy.Sum(body, *kept) if kept else body


def _rows_as_units(prefix: str, matrix: sympy.Matrix) -> dict[str, sympy.Matrix]:
    """Rank-1 rows q_j as per-unit d×1 factors Q_j = q_jᵀ."""
    return {f"{prefix}_{j + 1}": matrix[j, :].T for j in range(matrix.rows)}
