"""The derivations by name, and :func:`derive`, which checks one step by step."""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

from symcheck.core.errors import UnknownNameError
from symcheck.core.names import closest
from symcheck.paper.derivations import absorb, gated, mlp, rank1, rank_r
from symcheck.paper.derivations.steps import Claim, Derivation

#: name -> (title, statement, LaTeX statement, claims)
_CATALOGUE: dict[str, tuple[str, str, str, Callable[[], list[Claim]]]] = {
    "absorb": ("A global query is absorbed into the keys",
               "σ((xQ_g)Kᵀ)V = σ(xK'ᵀ)V with K' = KQ_gᵀ: the query-mlp is the mlp",
               r"\sigma\big((xQ_g)K^\top\big)V = \sigma(xK'^\top)V,\ K' = KQ_g^\top", absorb.claims),
    "rank1": ("Full bilinear attention at rank 1 is σ((xQᵀ)⊙(xKᵀ))V",
              "Σ_j σ(xQ_jK_jᵀxᵀ) v_j with Q_jK_jᵀ = q_jᵀk_j equals σ((xQᵀ)⊙(xKᵀ))V",
              r"\sum_j \sigma\big(xQ_jK_j^\top x^\top\big) v_j = \sigma\big((xQ^\top) \odot (xK^\top)\big)V",
              rank1.claims),
    "mlp": ("The standard MLP is the bilinear mechanism with one factor static",
            "replacing the query factor xQ_j by a constant c_j turns Σ_j σ(xQ_jK_jᵀxᵀ) v_j into σ(xWᵀ)V, "
            "and every MLP arises so",
            r"xQ_j \mapsto c_j:\ \sum_j \sigma\big(c_j (xK_j)^\top\big) v_j = \sigma(xW^\top)V", mlp.claims),
    "gated": ("The gated MLP is the rank-1 form with σ moved onto the query factor",
              "(σ(xQᵀ)⊙(xKᵀ))V is σ((xQᵀ)⊙(xKᵀ))V with σ(a_j b_j) replaced by σ(a_j)·b_j — a different "
              "model unless σ is linear",
              r"\sigma\big((xQ^\top) \odot (xK^\top)\big)V \ \leadsto\ \big(\sigma(xQ^\top) \odot (xK^\top)\big)V",
              gated.claims),
    "rank-r": ("Bilinear attention is the rank-r family; rank 1 is r = 1",
               "Q_jK_jᵀ = Σ_{s≤r} q_{js}ᵀk_{js}, so xQ_jK_jᵀxᵀ = Σ_s (x·q_{js})(x·k_{js}); r = 1 is rank1",
               r"x Q_j K_j^\top x^\top = \sum_{s=1}^{r} (x\cdot q_{js})(x\cdot k_{js})", rank_r.claims),
}
#: the derivation names, in reading order
DERIVATIONS: tuple[str, ...] = tuple(_CATALOGUE)


@cache  # a Derivation is immutable, and checking it again gives the same answer
def derive(name: str) -> Derivation:
    """Check the named derivation step by step (``absorb``, ``rank1``, ``mlp``, ``gated``, ``rank-r``)."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else name
    if key not in _CATALOGUE:
        raise UnknownNameError("derivation", str(name), closest(str(key), DERIVATIONS), DERIVATIONS)
    title, statement, statement_latex, claims = _CATALOGUE[key]
    return Derivation.from_claims(key, title, statement, claims(), statement_latex)
