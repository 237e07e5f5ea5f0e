"""The closed vocabularies of the numeric layer, each a StrEnum whose values are the strings its
JSON and command line have always used. Standard library only: the command line offers these
names as choices without loading NumPy."""
from __future__ import annotations

from enum import StrEnum

__all__ = ["CHECK_FORMS", "LayerVerdictKey", "NumericCheckKind", "NumericForm", "Route"]


class NumericCheckKind(StrEnum):
    """The numeric checks (``symcheck numeric CHECK``): two identities and two symmetries."""

    RANK1 = "rank1"        # bilinear attention at r = 1 against the rank-1 form
    ABSORB = "absorb"      # a global query absorbed into the keys
    EXCHANGE = "exchange"  # (Q, K) → (K, Q)
    SCALING = "scaling"    # (Q, K) → (αQ, K/α)

    @property
    def identity(self) -> bool:
        """An identity (agreement is evidence for it), not a symmetry."""
        return self in (NumericCheckKind.RANK1, NumericCheckKind.ABSORB)


class LayerVerdictKey(StrEnum):
    """The symbolic verdicts a model report gives each MLP layer, keyed as its JSON keys them."""

    EXCHANGE = "exchange"
    INVERSE_SCALING_POSITIVE = "inverse-scaling-positive"
    INVERSE_SCALING_MINUS_ONE = "inverse-scaling-minus-one"
    KEY_VALUE_RESCALING = "key-value-rescaling"


class NumericForm(StrEnum):
    """The layer forms a numeric check evaluates (its report's ``form``, ``--form``, and what a
    weights file holds). Not the symbolic formulations, an open registry of expressions."""

    GATED = "gated"          # (σ(xQᵀ)⊙(xKᵀ))V
    RANK1 = "rank1"          # σ((xQᵀ)⊙(xKᵀ))V
    BILINEAR = "bilinear"    # Σ_j σ(x Q_j K_jᵀ xᵀ) v_j, per-unit factors (m, d, r)
    QUERY_MLP = "query-mlp"  # σ((xQ_g)Kᵀ)V, the absorb check's form


#: the forms exchange and scaling take (``--form``); absorb and rank1 fix theirs
CHECK_FORMS = (NumericForm.GATED, NumericForm.RANK1, NumericForm.BILINEAR)


class Route(StrEnum):
    """How a plan (:mod:`symcheck.numeric.planner`) evaluates a layer: bilinear attention by its
    factor or its kernel route, or the two-factor and MLP forms, each by its one route."""

    FACTOR = "factor"  # X·[Q_1 … Q_c] and X·[K_1 … K_c], multiplied and summed over the rank
    KERNEL = "kernel"  # M_j = Q_j K_jᵀ materialised, then X·[M_1 … M_c]
    RANK1 = "rank1"
    GATED = "gated"
    MLP = "mlp"
