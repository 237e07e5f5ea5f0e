"""The closed vocabularies of the numeric layer, each a StrEnum whose values are the strings its
JSON and command line have always used. Standard library only: the command line offers these
names as choices without loading NumPy."""
from __future__ import annotations

from enum import StrEnum

__all__ = ["LayerVerdictKey", "NumericCheckKind"]


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
