"""Elements of a layer's weight-symmetry group, one per MLP layer of a checkpoint, proved members.

An element g = (P, a, λ) acts on a layer's units: unit j of the source has its gate scaled by a_j,
its value path by λ_j (gated layers), and v_j divided by λ_j·c_j, where (a_j, c_j) ∈ G_σ; then unit
i of the result is unit P[i] of the scaled layer. :func:`prove_element` asks the layer group
(:class:`~symcheck.engine.group.layer.LayerGroup`) about every distinct a_j — the exact rational the
float is — and refuses the element (:class:`IllegalElement`, with G_σ's certified reason) unless
every one is a proved member. Which tensor each scale multiplies is :meth:`Element.multipliers`.
"""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from symcheck.core.errors import NumericError, SymcheckError
from symcheck.engine.group.layer import LayerGroup, exact_real, shown
from symcheck.engine.group.layer_forms import LayerForm

__all__ = ["Element", "IllegalElement", "identity", "prove_element", "read_elements"]


class IllegalElement(SymcheckError, ValueError):
    """A transformation that is not a proved member of the layer's group (nothing is written)."""

    def __init__(self, message: str, *, layer: int = -1, unit: int = -1) -> None:
        super().__init__(message)
        self.layer, self.unit = layer, unit


@dataclass(frozen=True)
class Element:
    """g for one layer. Arrays are indexed by the source's units; ``c`` is G_σ's c for each a_j
    (as float64: the value path is divided by it)."""

    index: int
    permutation: np.ndarray | None = None
    gate: np.ndarray | None = None
    value: np.ndarray | None = None
    c: np.ndarray | None = None

    @property
    def is_identity(self) -> bool:
        return self.permutation is None and self.gate is None and self.value is None

    def multipliers(self, form: LayerForm | str, m: int) -> dict[str, np.ndarray | None]:
        """Role (query, key, value) → the per-unit multiplier of its weights and bias (None: 1), for
        a layer of ``form`` (a string reads as the member; a typo is an error, not a plain MLP)."""
        gate = self.gate
        lam = self.value
        c = self.c
        divisor = None
        if lam is not None or c is not None:
            divisor = (np.ones(m) if lam is None else lam) * (np.ones(m) if c is None else c)
        inverse = None if divisor is None else 1.0 / divisor
        if LayerForm(form) is LayerForm.GATED:
            return {"query": gate, "key": lam, "value": inverse}
        return {"key": gate, "value": inverse}


def identity(index: int) -> Element:
    return Element(index)


# ---- reading the files --------------------------------------------------------------------------

def read_elements(path: str | Path | None, what: str, layers: int, m: int) -> dict[int, np.ndarray]:
    """``what`` ("permute", "scale-value", "scale-gate") per layer from a ``.npz`` keyed by layer
    index ("0", "1", …) or a ``.npy`` applied to every layer; each checked (length m; a
    permutation of 0…m−1, or finite non-zero floats)."""
    if path is None:
        return {}
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".npy", ".npz"):
        raise NumericError(f"--{what} {path}: expected a .npy (every layer) or a .npz keyed by layer index",
                           name=what)
    try:
        loaded = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise NumericError(f"--{what} {path}: not readable ({' '.join(str(err).split())[:120]})", name=what) from None
    if suffix == ".npy":
        arrays = {i: loaded for i in range(layers)}
    else:
        with loaded:
            arrays = {}
            for key in loaded.files:
                if not key.isdigit() or not 0 <= int(key) < layers:
                    raise NumericError(f"--{what} {path}: key {key!r} is not a layer index (0–{layers - 1})",
                                       name=what)
                arrays[int(key)] = loaded[key]
    return {i: _checked(array, what, f"{path}" + ("" if suffix == ".npy" else f"[{i!r}]"), m)
            for i, array in arrays.items()}


def _checked(array: np.ndarray, what: str, where: str, m: int) -> np.ndarray:
    if array.shape != (m,):
        raise NumericError(f"--{what} {where}: shape {array.shape}; expected ({m},), one entry per unit", name=what)
    if what == "permute":
        if array.dtype.kind not in "iu":
            raise NumericError(f"--{what} {where}: dtype {array.dtype}; expected integers", name=what)
        P = array.astype(np.int64)
        if P.min(initial=0) < 0 or P.max(initial=0) >= m or np.bincount(P, minlength=m).max(initial=1) != 1:
            raise NumericError(f"--{what} {where}: not a permutation of 0…{m - 1}", name=what)
        return P
    if array.dtype.kind not in "fiu":
        raise NumericError(f"--{what} {where}: dtype {array.dtype}; expected real numbers", name=what)
    values = array.astype(np.float64)  # exact for float16/32/64 and integers below 2^53
    bad = ~np.isfinite(values)
    if bad.any():
        unit = int(np.argmax(bad))
        raise NumericError(f"--{what} {where}: unit {unit} has {values[unit]!r}; expected a finite number", name=what)
    return values


# ---- proving ------------------------------------------------------------------------------------

def prove_element(group: LayerGroup, index: int, m: int, permutation: np.ndarray | None = None,
                  gate: np.ndarray | None = None, value: np.ndarray | None = None) -> Element:
    """The element, every per-unit scale a proved member of ``group``; IllegalElement otherwise."""
    c = None
    if value is not None:
        if not group.gated:
            raise IllegalElement(f"layer {index}: a plain MLP has no value path (its unit is {group.unit}); "
                                 "--scale-value applies to gated layers only", layer=index)
        zero = value == 0.0  # a float is 0 exactly when the rational it represents is
        if zero.any():
            unit = int(np.argmax(zero))
            reason = group.value_membership(float(value[unit])).reason
            raise IllegalElement(f"layer {index}, unit {unit}: value scale 0 is not in the layer group: {reason}",
                                 layer=index, unit=unit)
    if gate is not None:
        distinct, where = np.unique(gate, return_inverse=True)
        cs = np.empty(len(distinct))
        for k, a in enumerate(distinct):
            membership = group.gate_membership(float(a))
            if membership.value is not True:
                unit = int(np.argmax(where == k))
                state = "is not in" if membership.value is False else "is not proved to lie in"
                raise IllegalElement(f"layer {index}, unit {unit}: gate scale {shown(exact_real(float(a)))} {state} "
                                     f"the layer group of the {group.form} layer with σ = {group.activation.name}: "
                                     f"{membership.reason}", layer=index, unit=unit)
            assert membership.c is not None  # a proved member carries its c
            cs[k] = float(membership.c)
        c = cs[where.reshape(-1)]
    return Element(index, permutation, gate, value, c)
