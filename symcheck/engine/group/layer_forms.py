"""The two forms of a checkpoint's MLP layer, gated and plain (``mlp``), and their units as the
layer group's proof writes them. Light (the standard library and :mod:`symcheck.core`): the
checkpoint reader names each layer's form without loading the group's proof machinery.

>>> layer_form("Gated") is LayerForm.GATED, f"{LayerForm.MLP} layer"
(True, 'mlp layer')
"""
from __future__ import annotations

from enum import StrEnum

from symcheck.core.errors import UnknownNameError
from symcheck.core.names import closest

__all__ = ["LAYER_FORMS", "LayerForm", "layer_form"]


class LayerForm(StrEnum):
    """A checkpoint's MLP layer (``layer-group --form``, an architecture's ``form``), by the
    string its JSON has always carried."""

    GATED = "gated"  # down(σ(gate(x))·up(x)): LLaMA, Gemma, Phi-3
    MLP = "mlp"      # fc2(σ(fc1(x))): GPT-2, OPT


#: one unit of each layer form, as the proof writes it
LAYER_FORMS: dict[LayerForm, str] = {LayerForm.GATED: "σ(q_j·x + b_j)·(k_j·x + e_j)·v_j",
                                     LayerForm.MLP: "σ(k_j·x + b_j)·v_j"}


def layer_form(form: str) -> LayerForm:
    """The layer form named ``form`` (gated or mlp, any case); UnknownNameError with suggestions
    otherwise."""
    key = form.strip().lower().replace("_", "-")
    names = [f.value for f in LayerForm]
    if key not in names:
        raise UnknownNameError("layer form", form, closest(key, names), tuple(names))
    return LayerForm(key)
