"""Derivation ``rank-r``: bilinear attention is the rank-r family; rank 1 is r = 1."""
from __future__ import annotations

import sympy
from sympy import S

from symcheck.language.layer_formulations import FORMULATIONS, D, K, L, M, Q, R, Sizes, X, input_row
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations.checks import Pair, blocks_as_units
from symcheck.paper.derivations.rank1 import rank1_from_bilinear
from symcheck.paper.derivations.steps import Claim
from symcheck.paper.derivations.sums import INDEX_L, INDEX_S, INDEX_T
from symcheck.paper.derivations.units import KJ, QJ, dot, params

# rows u, w ∈ R^{1×r} and a full d×d form M_j, for symbolic-dimension checks
_u, _v = (sympy.MatrixSymbol(n, 1, R) for n in ("u", "w"))
_Mj = sympy.MatrixSymbol("M_j", D, D)


def claims() -> list[Claim]:
    """The steps of derivation ``rank-r``, in order, before they are checked."""
    rank_r, rank1, bilinear = FORMULATIONS["rank-r"], FORMULATIONS["rank1"], FORMULATIONS["bilinear"]
    Qs1, Ks1 = sympy.MatrixSymbol("Qs", D, M), sympy.MatrixSymbol("Ks", D, M)

    def factors(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix, sympy.Matrix]:
        p = params("bilinear", sz)
        return input_row(sz.d), p["Q_1"], p["K_1"]

    def outer_sum(sz: Sizes) -> sympy.Matrix:
        _, Qj, Kj = factors(sz)
        return sum((q * k.T for q, k in zip(_columns(Qj), _columns(Kj), strict=True)), sympy.zeros(sz.d, sz.d))

    def products(sz: Sizes) -> Pair:
        x, Qj, Kj = factors(sz)
        terms = sum((dot(x, q.T) * dot(x, k.T) for q, k in zip(_columns(Qj), _columns(Kj), strict=True)), S.Zero)
        return (x * Qj) * (x * Kj).T, sympy.Matrix([[terms]])

    def full_rank(sz: Sizes) -> Pair:
        x = input_row(sz.d)
        big = sympy.Matrix(sz.d, sz.d, lambda i, t: sympy.Symbol(f"M_{{{i + 1},{t + 1}}}", real=True))
        return x * big * sympy.eye(sz.d).T * x.T, x * big * x.T

    return [
        Claim("Q_jK_jᵀ = Σ_{s≤r} q_{js}ᵀk_{js}, with q_{js}ᵀ, k_{js}ᵀ the s-th columns of Q_j, K_j",
              r"Q_j K_j^\top = \sum_{s=1}^{r} q_{js}^\top k_{js}",
              "a matrix product is the sum of the outer products of matching columns",
              symbolic=lambda: ((QJ * KJ.T)[INDEX_T, INDEX_L],
                                sympy.Sum(QJ[INDEX_T, INDEX_S] * KJ[INDEX_L, INDEX_S], (INDEX_S, 0, R - 1))),
              explicit=lambda sz: (factors(sz)[1] * factors(sz)[2].T, outer_sum(sz)), dims="dr"),
        Claim("xQ_jK_jᵀxᵀ = (xQ_j)(xK_j)ᵀ", r"x Q_j K_j^\top x^\top = (xQ_j)(xK_j)^\top",
              "associativity and (AB)ᵀ = BᵀAᵀ",
              symbolic=lambda: (X * QJ * KJ.T * X.T, (X * QJ) * sympy.Transpose(X * KJ)),
              explicit=lambda sz: (factors(sz)[0] * factors(sz)[1] * factors(sz)[2].T * factors(sz)[0].T,
                                   (factors(sz)[0] * factors(sz)[1]) * (factors(sz)[0] * factors(sz)[2]).T),
              dims="dr"),
        Claim("(xQ_j)(xK_j)ᵀ = Σ_s (x·q_{js})(x·k_{js}) = ((xQ_j)⊙(xK_j))1_r",
              r"(xQ_j)(xK_j)^\top = \sum_{s=1}^{r} (x\cdot q_{js})(x\cdot k_{js})"
              r" = \big((xQ_j) \odot (xK_j)\big)\mathbf{1}_r",
              "for rows u = xQ_j, w = xK_j: uwᵀ = Σ_s u_s w_s, the entries of u⊙w summed",
              symbolic=lambda: [((_u * _v.T)[0, 0], sympy.Sum(_u[0, INDEX_S] * _v[0, INDEX_S], (INDEX_S, 0, R - 1))),
                                (_u * _v.T, sympy.HadamardProduct(_u, _v) * sympy.OneMatrix(R, 1))],
              explicit=products, dims="dr"),
        Claim("Σ_j σ(xQ_jK_jᵀxᵀ) v_j = Σ_j σ(Σ_s a_{js}b_{js}) v_j = σ(((x𝐐)⊙(x𝐊))(I_m⊗1_r))V, 𝐐 = [Q_1|…|Q_m]",
              r"\sum_j \sigma\big(xQ_jK_j^\top x^\top\big) v_j = \sum_j \sigma\Big(\sum_{s} a_{js} b_{js}\Big) v_j"
              r" = \sigma\big(((x\mathbf{Q}) \odot (x\mathbf{K}))(I_m \otimes \mathbf{1}_r)\big) V",
              "steps 1–3 for every unit; I_m ⊗ 1_r sums each unit's r products",
              explicit=lambda sz: [(bilinear.explicit(SIGMA, sz), rank_r.explicit(SIGMA, sz)),
                                   (bilinear.explicit(SIGMA, sz), rank_r.expression_explicit(SIGMA, sz))],
              symbolic=lambda: [(bilinear.entry(SIGMA), rank_r.entry(SIGMA)),
                                (rank_r.entry(SIGMA), blocks_as_units(rank_r.expression(SIGMA)[0, L]))],
              dims="dmer", builders=("bilinear", "rank-r")),
        Claim("r = 1 is the rank-1 form: 𝐐 = Qᵀ, 𝐊 = Kᵀ and I_m ⊗ 1_1 = I_m give σ((xQᵀ)⊙(xKᵀ))V",
              r"r = 1:\ \mathbf{Q} = Q^\top,\ \mathbf{K} = K^\top,\ I_m \otimes \mathbf{1}_1 = I_m"
              r"\ \Rightarrow\ \sigma\big((xQ^\top) \odot (xK^\top)\big)V",
              "the low-rank family contains rank1 as its first member",
              symbolic=lambda: (rank_r.expression(SIGMA).subs(R, 1).xreplace({Qs1: Q.T, Ks1: K.T}),
                                rank1.expression(SIGMA)),
              explicit=lambda sz: (rank_r.explicit(SIGMA, sz, **rank1_from_bilinear(sz)), rank1.explicit(SIGMA, sz)),
              builders=("rank-r", "rank1")),
        Claim("r = d contains every bilinear form: Q_j = M_j, K_j = I_d give xQ_jK_jᵀxᵀ = xM_jxᵀ",
              r"r = d:\ Q_j = M_j,\ K_j = I_d\ \Rightarrow\ xQ_jK_j^\top x^\top = x M_j x^\top",
              "so full bilinear attention (any M_j ∈ R^{d×d}) is the top of the family",
              symbolic=lambda: (X * _Mj * sympy.Identity(D).T * X.T, X * _Mj * X.T),
              explicit=full_rank, dims="d"),
    ]


def _columns(matrix: sympy.Matrix) -> list[sympy.Matrix]:
    return [matrix[:, s] for s in range(matrix.cols)]
