"""Derivation ``mlp``: the standard MLP is the bilinear mechanism with one factor static."""
from __future__ import annotations

import sympy

from symcheck.language.layer_formulations import FORMULATIONS, D, K, M, R, Sizes, X, input_row
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations.checks import Pair
from symcheck.paper.derivations.steps import Claim
from symcheck.paper.derivations.sums import INDEX_L
from symcheck.paper.derivations.units import KJ, QJ, dot, entry_sum, mlp_unit, params, unit_layer

# a unit's static weights w_j and constant query c_j, and the stacked weights W, for symbolic-dimension checks
_w = sympy.MatrixSymbol("w_j", 1, D)
_c = sympy.MatrixSymbol("c_j", 1, R)
_W = sympy.MatrixSymbol("W", M, D)


def _static_layer(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
    """Σ_j σ(c_j (xK_j)ᵀ) v_j (query replaced by constants c_j), and the mlp with keys W = rows c_j K_jᵀ."""
    p, x = params("bilinear", sz), input_row(sz.d)
    consts = [sympy.Matrix(1, sz.r, lambda _, s, j=j: sympy.Symbol(f"c_{{{j},{s + 1}}}", real=True))
              for j in range(1, sz.m + 1)]
    out = sympy.zeros(1, sz.e)
    for j in range(1, sz.m + 1):
        out += SIGMA((consts[j - 1] * (x * p[f"K_{j}"]).T)[0, 0]) * p["V"][j - 1, :]
    W = sympy.Matrix.vstack(*(consts[j - 1] * p[f"K_{j}"].T for j in range(1, sz.m + 1)))
    return out, FORMULATIONS["mlp"].explicit(SIGMA, sz, K=W, V=p["V"])


def _mlp_in_bilinear(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
    """Bilinear attention on x̂ = [x 1] with Q_j = e_{d+1}, K_j = [w_jᵀ; 0], and the mlp with keys W."""
    mlp, p = FORMULATIONS["mlp"], params("mlp", sz)
    W, x = p["K"], input_row(sz.d)
    x_hat = x.row_join(sympy.Matrix([[1]]))
    e_last = sympy.zeros(sz.d, 1).col_join(sympy.Matrix([[1]]))
    units = {f"Q_{j}": e_last for j in range(1, sz.m + 1)}
    units.update({f"K_{j}": W[j - 1, :].T.col_join(sympy.Matrix([[0]])) for j in range(1, sz.m + 1)})
    lifted = FORMULATIONS["bilinear"].explicit(SIGMA, Sizes(sz.d + 1, sz.m, sz.e, 1), x=x_hat, V=p["V"], **units)
    return lifted, mlp.explicit(SIGMA, sz)


def claims() -> list[Claim]:
    """The steps of derivation ``mlp``, in order, before they are checked."""
    mlp = FORMULATIONS["mlp"]
    one = sympy.Identity(1)
    x_hat = sympy.BlockMatrix([[X, one]])
    q_hat = sympy.BlockMatrix([[sympy.ZeroMatrix(D, 1)], [one]])
    k_hat = sympy.BlockMatrix([[_w.T], [sympy.ZeroMatrix(1, 1)]])
    return [
        Claim("σ(xW1ᵀ)W2 = Σ_j σ(x·k_j) v_j with K = W1 (rows k_j) and V = W2 (rows v_j)",
              r"\sigma(xW_1^\top)W_2 = \sum_j \sigma(x\cdot k_j)\, v_j,\quad K = W_1,\ V = W_2",
              "the MLP is a key-value memory: unit j fires on its key k_j and writes its value v_j",
              symbolic=lambda: (mlp.expression(SIGMA)[0, INDEX_L], entry_sum(mlp_unit, query=None)),
              explicit=lambda sz: (mlp.explicit(SIGMA, sz),
                                   unit_layer(mlp_unit, SIGMA, sz, params("mlp", sz)["K"],
                                              params("mlp", sz)["V"])), builders=("mlp",)),
        Claim("xQ_jK_jᵀxᵀ = (xQ_j)(xK_j)ᵀ: a query factor xQ_j and a key factor xK_j, both from x",
              r"x Q_j K_j^\top x^\top = (xQ_j)(xK_j)^\top",
              "associativity and (AB)ᵀ = BᵀAᵀ: bilinear attention computes both factors from x",
              symbolic=lambda: (X * QJ * KJ.T * X.T, (X * QJ) * sympy.Transpose(X * KJ)),
              explicit=lambda sz: (input_row(sz.d) * params("bilinear", sz)["Q_1"] * params("bilinear", sz)["K_1"].T
                                   * input_row(sz.d).T,
                                   (input_row(sz.d) * params("bilinear", sz)["Q_1"])
                                   * (input_row(sz.d) * params("bilinear", sz)["K_1"]).T),
              dims="dr"),
        Claim("make the query static: xQ_j ↦ c_j ∈ R^{1×r}, independent of x; then c_j(xK_j)ᵀ = w_jxᵀ = x·w_j "
              "with w_j = c_jK_jᵀ ∈ R^{1×d}",
              r"xQ_j \mapsto c_j:\quad c_j (xK_j)^\top = w_j x^\top = x\cdot w_j,\quad w_j = c_j K_j^\top",
              "a definition (the query is no longer computed from x); checked: the unit's argument "
              "becomes linear in x with weights c_jK_jᵀ",
              definition=True,
              symbolic=lambda: [(_c * sympy.Transpose(X * KJ), (_c * KJ.T) * X.T),
                                ((_c * KJ.T) * X.T, X * sympy.Transpose(_c * KJ.T))],
              explicit=lambda sz: _static_unit(sz), dims="dr"),
        Claim("Σ_j σ(c_j(xK_j)ᵀ) v_j = σ(xWᵀ)V with W = rows w_j = c_jK_jᵀ: the standard MLP, W1 = W, W2 = V",
              r"\sum_j \sigma\big(c_j (xK_j)^\top\big)\, v_j = \sigma(xW^\top)V,\quad W = \begin{pmatrix} c_1K_1^\top"
              r"\\ \vdots \\ c_mK_m^\top\end{pmatrix}",
              "step 3 for every unit, stacked as in step 1",
              symbolic=lambda: (entry_sum(mlp_unit, query=None, key=_W),
                                mlp.expression(SIGMA).xreplace({K: _W})[0, INDEX_L]),
              explicit=lambda sz: _static_layer(sz), dims="dmer", builders=("mlp",)),
        Claim("every MLP arises inside bilinear attention: x̂ = [x 1], r = 1, Q_j = e_{d+1} (x̂Q_j = 1, static), "
              "K_j = [w_jᵀ; 0] ⇒ Σ_j σ(x̂Q_jK_jᵀx̂ᵀ) v_j = σ(xWᵀ)V",
              r"\hat x = (x\ \ 1),\ Q_j = e_{d+1},\ K_j = \begin{pmatrix} w_j^\top \\ 0\end{pmatrix}:\quad "
              r"\hat x Q_j = 1,\ \ \sum_j \sigma\big(\hat x Q_j K_j^\top \hat x^\top\big)\, v_j = \sigma(xW^\top)V",
              "a query that reads only a constant input coordinate is static (the bias trick)",
              symbolic=lambda: [(x_hat * q_hat, one), (x_hat * q_hat * k_hat.T * x_hat.T, _w * X.T)],
              explicit=_mlp_in_bilinear, builders=("bilinear", "mlp")),
    ]


def _static_unit(sz: Sizes) -> list[Pair]:
    x, Kj = input_row(sz.d), params("bilinear", sz)["K_1"]
    c = sympy.Matrix(1, sz.r, lambda _, s: sympy.Symbol(f"c_{{1,{s + 1}}}", real=True))
    w = c * Kj.T
    return [(c * (x * Kj).T, w * x.T), (w * x.T, sympy.Matrix([[dot(x, w)]]))]
