"""A layer's units read a block at a time: the rows of one factor as float64, within a budget.

A factor's units lie along an axis of its tensor (rows of ``gate_proj``, columns of GPT-2's
Conv1D ``c_fc``), from an offset (Phi-3's fused ``gate_up_proj``), with a per-unit bias in
another tensor. :func:`unit_block` reads units u0…u1 as rows, the bias as a last column;
:func:`units_at` reads any set of units (a permutation's image) the same way, touching only
their rows' pages. :func:`units_per_block` is how many units fit a budget. Every array is a
fresh float64 copy: BF16 widens exactly.
"""
from __future__ import annotations

import numpy as np

from symcheck.engine.group.layer_forms import LayerForm
from symcheck.numeric.architectures import Factor, MlpLayer
from symcheck.numeric.checkpoint_writer import rows_view, widen
from symcheck.numeric.safetensors_io import read_block

__all__ = ["MAP_BYTES", "layer_factors", "unit_block", "unit_width", "units_at", "units_per_block"]

#: bytes of a file mapped at once when a block of columns is read (the pages stay resident while
#: mapped: small, so that a small budget still holds them)
MAP_BYTES = 256 * 2**10


def unit_width(factor: Factor) -> int:
    """The length of a unit's row as read: the factor's width, and 1 for its bias."""
    return factor.width + (factor.bias is not None)


def units_per_block(width: int, budget: int, per_entry: int) -> int:
    """Units per block when each entry of a unit's row costs ``per_entry`` bytes (at least 1)."""
    return max(1, (budget - 2 * MAP_BYTES) // (per_entry * max(width, 1)))


def unit_block(factor: Factor, u0: int, u1: int) -> np.ndarray:
    """Units u0…u1 of the factor as rows (float64), the bias entry as a last column when it has one."""
    a, b = factor.start + u0, factor.start + u1
    if factor.units_axis == 0:
        rows = read_block(factor.tensor, rows=(a, b), map_bytes=MAP_BYTES)
    else:
        rows = np.ascontiguousarray(read_block(factor.tensor, columns=(a, b), map_bytes=MAP_BYTES).T)
    if factor.bias is None:
        return rows
    out = np.empty((rows.shape[0], rows.shape[1] + 1))
    out[:, :-1] = rows
    out[:, -1] = read_block(factor.bias, rows=(u0, u1))
    return out


def units_at(factor: Factor, units: np.ndarray) -> np.ndarray:
    """The units listed (any order, repeats allowed) as rows (float64), bias as a last column."""
    info, dtype = factor.tensor, factor.tensor.dtype
    positions = np.asarray(units, dtype=np.int64) + factor.start
    if factor.units_axis == 0:
        mapped = rows_view(info, 0, info.shape[0])
        rows = widen(np.asarray(mapped[positions]), dtype)
        del mapped  # unmapped: only the listed rows' pages were touched
    else:
        rows = np.empty((len(positions), info.shape[0]))
        step = max(1, MAP_BYTES // max(info.shape[1] * info.itemsize, 1))
        for r0 in range(0, info.shape[0], step):
            r1 = min(r0 + step, info.shape[0])
            mapped = rows_view(info, r0, r1)
            rows[:, r0:r1] = widen(np.asarray(mapped[:, positions]), dtype).T
            del mapped
    if factor.bias is None:
        return rows
    bias = rows_view(factor.bias, 0, factor.bias.shape[0])
    column = widen(np.asarray(bias[np.asarray(units, dtype=np.int64), 0]), factor.bias.dtype)
    del bias
    return np.hstack([rows, column[:, None]])


def layer_factors(layer: MlpLayer) -> tuple[Factor, Factor | None, Factor]:
    """The layer's gate, value path (gated; None for a plain MLP) and output factors."""
    if layer.form is LayerForm.GATED:
        assert layer.query is not None  # every gated architecture has a query role (ARCHITECTURES)
        return layer.query, layer.key, layer.value
    return layer.key, None, layer.value
