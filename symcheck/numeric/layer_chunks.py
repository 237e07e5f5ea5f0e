"""A model layer's weights, a chunk of units at a time, as the model report works through them.

Each chunk's factors are read from the checkpoint's files (:func:`~symcheck.numeric.safetensors_io.read_block`,
BF16 widened exactly) into arrays reused from chunk to chunk (a fresh array of a chunk's
weights, tens of MB, cost its page faults on every chunk, more than widening did), as the
units' rows (c, width), every entry checked to be finite. Values stored with their units as
columns (down_proj) come as the transposed view of (width, c) rows read in the file's order:
writing them in a transposing stride cost more than the products through them saved. The
values' rows also come divided by β, for the rescaled output.

(Reading the next chunk on a second thread while the caller computes was tried: on the
benchmark's model it saved nothing, wall or CPU, so chunks are read in turn.)
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from symcheck.core.errors import WeightsError
from symcheck.numeric.architectures import Factor, MlpLayer
from symcheck.numeric.arrays import all_finite
from symcheck.numeric.safetensors_io import WIDEN_ENTRIES, read_block, read_into

__all__ = ["Buffers", "Chunk", "chunks", "units", "refuse_non_finite_units"]


class Buffers:
    """Arrays reused by name (float64 unless asked): ``get`` returns a C-contiguous view of the
    right shape (its contents left over), growing the array only when a larger one is asked for."""

    def __init__(self) -> None:
        self._flat: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: type = np.float64) -> np.ndarray:
        size = math.prod(shape)
        flat = self._flat.get(name)
        if flat is None or flat.size < size or flat.dtype != dtype:
            flat = self._flat[name] = np.empty(size, dtype)
        return flat[:size].reshape(shape)


@dataclass(frozen=True)
class Chunk:
    """Units u0…u1 of a layer: query (None for an MLP), key and value rows, the values / β."""

    u0: int
    u1: int
    query: np.ndarray | None
    key: np.ndarray
    value: np.ndarray
    value_over_beta: np.ndarray


def units(factor: Factor, u0: int, u1: int, map_bytes: int, extend: bool, out: np.ndarray,
          divided: tuple[np.ndarray, float] | None = None, scratch: np.ndarray | None = None) -> np.ndarray:
    """Units u0…u1 of a factor as rows (c, width) of ``out`` (C-contiguous), with the bias entry
    as a last column when the layer is extended (0 for a factor without bias), every entry
    checked to be finite; ``divided = (array, β)`` gets them divided by β. A factor whose units
    are columns is read straight into the transposed rows: the same array a transposed copy
    would make. ``scratch``: the BF16 check's workspace (:func:`read_into`)."""
    a, b = factor.start + u0, factor.start + u1
    width = factor.width
    halved = None if divided is None else (divided[0][:, :width], divided[1])
    if factor.units_axis == 0:
        finite = read_into(factor.tensor, out[:, :width], rows=(a, b), map_bytes=map_bytes,
                           divided=halved, scratch=scratch)
    else:
        finite = read_into(factor.tensor, out[:, :width].T, columns=(a, b), map_bytes=map_bytes,
                           divided=None if halved is None else (halved[0].T, halved[1]), scratch=scratch)
    if not finite:
        name_non_finite(out[:, :width], factor.tensor.where, u0)
    if not extend:
        return out
    if factor.bias is None:
        out[:, -1] = 0.0
    else:
        read_block(factor.bias, rows=(u0, u1), map_bytes=map_bytes, out=out[:, -1])
        refuse_non_finite_units(out[:, -1:], factor.bias.where, u0)
    return out


def refuse_non_finite_units(block: np.ndarray, where: str, first_unit: int) -> None:
    """Refuse a non-finite entry of a block of units' rows, naming its unit and entry. One
    pass over the block: a sum of finite values is finite unless it overflows (only possible
    for F64 weights; then the extremes decide), and a NaN or an infinity makes it NaN or
    infinite."""
    with np.errstate(over="ignore", invalid="ignore"):
        if block.size == 0 or np.isfinite(block.sum()) or all_finite(block):
            return
    name_non_finite(block, where, first_unit)


def name_non_finite(block: np.ndarray, where: str, first_unit: int) -> None:
    """Raise the error naming the first non-finite entry of a block of units' rows (there must
    be one)."""
    unit, feature = (int(i) for i in np.argwhere(~np.isfinite(block))[0])
    raise WeightsError(f"{where} has a non-finite value ({block[unit, feature]}) for unit "
                       f"{first_unit + unit}, entry {feature}")


def _read(layer: MlpLayer, u0: int, u1: int, map_bytes: int, beta: float, buffers: Buffers) -> Chunk:
    """One chunk, in the order the factors were always read (key, value, query): the first
    non-finite weight named is the same."""
    c, d1 = u1 - u0, layer.d + layer.biased
    # the BF16 check's workspace, within map_bytes as the cut counts it
    scratch = buffers.get("widening", (max(1, min(WIDEN_ENTRIES, map_bytes // 4)),), np.uint16)
    key = units(layer.key, u0, u1, map_bytes, layer.biased, buffers.get("key", (c, d1)), scratch=scratch)
    halved, value_rows = _value_arrays(layer, c, buffers)
    value = units(layer.value, u0, u1, map_bytes, False, value_rows, (halved, beta), scratch)
    query = (None if layer.query is None else
             units(layer.query, u0, u1, map_bytes, layer.biased, buffers.get("query", (c, d1)), scratch=scratch))
    return Chunk(u0, u1, query, key, value, halved)


def _value_arrays(layer: MlpLayer, c: int, buffers: Buffers) -> tuple[np.ndarray, np.ndarray]:
    """The arrays the values and the values / β are read into, as (c, e) views: C-contiguous
    when the checkpoint stores the values' units as rows; when it stores them as columns
    (down_proj is (e, m)), the transposed views of C-contiguous (e, c) arrays, so that reading
    writes the file's rows in order, not in a transposing stride (the BLAS takes the
    transposed operand as it is)."""
    if layer.value.units_axis == 0:
        return buffers.get("value/β", (c, layer.e)), buffers.get("value", (c, layer.e))
    return buffers.get("value/β", (layer.e, c)).T, buffers.get("value", (layer.e, c)).T


def chunks(layer: MlpLayer, spans: Sequence[tuple[int, int]], map_bytes: int, beta: float,
           buffers: Buffers | None = None) -> Iterator[Chunk]:
    """The chunks of units ``spans`` ((u0, u1) each), in order, in one set of arrays (``buffers``,
    else new ones): a chunk's arrays are valid until the caller asks for the next one."""
    buffers = Buffers() if buffers is None else buffers
    for u0, u1 in spans:
        yield _read(layer, u0, u1, map_bytes, beta, buffers)
