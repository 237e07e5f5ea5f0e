"""Derivation ``absorb``: a global query is absorbed into the keys, so the query-mlp is the mlp."""
from __future__ import annotations

import sympy

from symcheck.language.layer_formulations import FORMULATIONS, Q_G, D, K, Sizes, V, X, elementwise, input_row
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations.steps import Claim
from symcheck.paper.derivations.units import params


def claims() -> list[Claim]:
    """The steps of derivation ``absorb``, in order, before they are checked."""
    qm, mlp = FORMULATIONS["query-mlp"], FORMULATIONS["mlp"]

    def keys(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
        p = params("query-mlp", sz)
        return p["Q_g"], p["K"]

    return [
        Claim("σ((xQ_g)Kᵀ)V = σ(x(Q_gKᵀ))V",
              r"\sigma\big((xQ_g)K^\top\big)V = \sigma\big(x(Q_gK^\top)\big)V",
              "matrix multiplication is associative",
              symbolic=lambda: (elementwise(SIGMA, sympy.MatMul(sympy.MatMul(X, Q_G), K.T)) * V,
                                elementwise(SIGMA, sympy.MatMul(X, sympy.MatMul(Q_G, K.T))) * V),
              explicit=lambda sz: ((input_row(sz.d) * keys(sz)[0]) * keys(sz)[1].T,
                                   input_row(sz.d) * (keys(sz)[0] * keys(sz)[1].T)),
              dims="dm"),
        Claim("Q_gKᵀ = (KQ_gᵀ)ᵀ", r"Q_g K^\top = \big(K Q_g^\top\big)^\top",
              "the transpose of a product is the product of the transposes in reverse order",
              symbolic=lambda: (Q_G * K.T, sympy.Transpose(K * Q_G.T)),
              explicit=lambda sz: (keys(sz)[0] * keys(sz)[1].T, (keys(sz)[1] * keys(sz)[0].T).T),
              dims="dm"),
        Claim("σ((xQ_g)Kᵀ)V = σ(xK'ᵀ)V with K' = KQ_gᵀ ∈ R^{m×d}",
              r"\sigma\big((xQ_g)K^\top\big)V = \sigma\big(xK'^\top\big)V,"
              r"\quad K' = KQ_g^\top \in \mathbb{R}^{m\times d}",
              "steps 1–2: the query-mlp is the mlp whose keys are K' = KQ_gᵀ (the global query absorbed)",
              symbolic=lambda: (qm.expression(SIGMA), mlp.expression(SIGMA).xreplace({K: K * Q_G.T})),
              explicit=lambda sz: (qm.explicit(SIGMA, sz), mlp.explicit(SIGMA, sz, K=keys(sz)[1] * keys(sz)[0].T)),
              builders=("query-mlp", "mlp")),
        Claim("Q_g = I_d gives σ(xKᵀ)V: every mlp is a query-mlp, so the two families coincide",
              r"Q_g = I_d:\ \sigma\big((xI_d)K^\top\big)V = \sigma(xK^\top)V",
              "the converse: with the identity as global query nothing is absorbed",
              symbolic=lambda: (qm.expression(SIGMA).xreplace({Q_G: sympy.Identity(D)}), mlp.expression(SIGMA)),
              explicit=lambda sz: (qm.explicit(SIGMA, sz, Q_g=sympy.eye(sz.d)), mlp.explicit(SIGMA, sz)),
              builders=("query-mlp", "mlp")),
    ]
