"""Safetensors checkpoints read one block of one tensor at a time, through memory maps.

A ``.safetensors`` file is 8 bytes (little-endian u64: the header's length), a JSON header
(each tensor's ``dtype``, ``shape`` and ``data_offsets`` into the data that follows), then
the data. The header is parsed here and checked against the file's size, so a tensor is
only ever a place in a file (:class:`TensorInfo`); :func:`read_block` maps the bytes of the
rows it needs, widens them to float64 and unmaps them. Nothing reads a whole file or a whole
tensor unless asked to, so what a model costs in memory is what its blocks cost.

A checkpoint directory holds ``model.safetensors``, or shards listed in
``model.safetensors.index.json`` (``{"weight_map": {tensor: file}}``), as Hugging Face's
``save_pretrained`` writes them. NumPy has no bfloat16: BF16 data is read as its 16-bit
patterns and widened exactly (a bfloat16 is the top half of a float32).
"""
from __future__ import annotations

import json
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import numpy as np

from symcheck.core.errors import WeightsError

__all__ = ["TensorInfo", "Checkpoint", "FLOATS", "read_header", "open_checkpoint", "read_block",
           "INDEX", "SINGLE"]

INDEX = "model.safetensors.index.json"
SINGLE = "model.safetensors"
#: safetensors' own limit on the JSON header
MAX_HEADER = 100 * 2**20
#: every dtype the format defines, with its size in bytes
ITEMSIZE = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2,
            "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
#: the floating-point dtypes symcheck reads, as the NumPy dtype of their stored bits
FLOATS = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}


@dataclass(frozen=True)
class TensorInfo:
    """Where one tensor's data lies: its file, byte offset, dtype code and shape."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    path: Path
    offset: int       # absolute, in the file
    nbytes: int

    @property
    def where(self) -> str:
        return f"{self.path}: tensor {self.name!r}"

    @property
    def itemsize(self) -> int:
        return ITEMSIZE[self.dtype]

    def shape_text(self) -> str:
        return "(" + ", ".join(map(str, self.shape)) + ")"


@dataclass(frozen=True)
class Checkpoint:
    """A model directory's tensors by name, from one file or from the shards of an index."""

    directory: Path
    tensors: Mapping[str, TensorInfo]
    files: tuple[Path, ...]

    @property
    def nbytes(self) -> int:
        return sum(t.nbytes for t in self.tensors.values())

    def get(self, name: str) -> TensorInfo | None:
        return self.tensors.get(name)


def read_header(path: str | Path) -> dict[str, TensorInfo]:
    """Every tensor of one ``.safetensors`` file, checked to lie inside the file."""
    path = Path(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise WeightsError(f"{path}: not a .safetensors file (shorter than its 8-byte header "
                                   "length)", path=path)
            (length,) = struct.unpack("<Q", head)
            if length > min(MAX_HEADER, size - 8):
                raise WeightsError(f"{path}: not a .safetensors file (header length {length} does not "
                                   f"fit the file's {size} bytes)", path=path)
            raw = f.read(length)
    except OSError as err:
        raise WeightsError(f"{path}: cannot read ({err.strerror or err})", path=path) from None
    try:
        header = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise WeightsError(f"{path}: not a .safetensors file (its header is not JSON)", path=path) from None
    if not isinstance(header, dict):
        raise WeightsError(f"{path}: not a .safetensors file (its header is not a JSON object)", path=path)
    data_start, data_size = 8 + length, size - 8 - length
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        tensors[name] = _entry(path, name, entry, data_start, data_size)
    return tensors


def _entry(path: Path, name: str, entry: object, data_start: int, data_size: int) -> TensorInfo:
    def bad(why: str) -> WeightsError:
        return WeightsError(f"{path}: tensor {name!r} {why}", path=path, tensor=name)

    if not isinstance(entry, dict):
        raise bad("has no header entry (dtype, shape, data_offsets)")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype not in ITEMSIZE:
        raise bad(f"has an unknown dtype {dtype!r}")
    if (not isinstance(shape, list) or
            not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)):
        raise bad(f"has an invalid shape {shape!r}")
    if (not isinstance(offsets, list) or len(offsets) != 2 or
            not all(isinstance(n, int) and not isinstance(n, bool) for n in offsets)):
        raise bad(f"has invalid data_offsets {offsets!r}")
    begin, end = offsets
    if not 0 <= begin <= end <= data_size:
        raise bad(f"lies outside the file (data_offsets {begin}–{end}, {data_size} bytes of data)")
    if end - begin != math.prod(shape) * ITEMSIZE[dtype]:
        raise bad(f"has {end - begin} bytes; shape {tuple(shape)} of {dtype} needs "
                  f"{math.prod(shape) * ITEMSIZE[dtype]}")
    return TensorInfo(name, dtype, tuple(shape), path, data_start + begin, end - begin)


def open_checkpoint(directory: str | Path) -> Checkpoint:
    """The tensors of a model directory: the shards of ``model.safetensors.index.json``, or
    ``model.safetensors``. Only headers are read."""
    directory = Path(directory)
    if not directory.is_dir():
        raise WeightsError(f"{directory}: no such directory", path=directory)
    index = directory / INDEX
    if index.is_file():
        return _sharded(directory, index)
    single = directory / SINGLE
    if single.is_file():
        tensors = read_header(single)
        return Checkpoint(directory, MappingProxyType(tensors), (single,))
    raise WeightsError(f"{directory}: no {SINGLE} or {INDEX} (safetensors weights as "
                       "save_pretrained writes them)", path=directory)


def _sharded(directory: Path, index: Path) -> Checkpoint:
    try:
        listing = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise WeightsError(f"{index}: not a readable JSON index ({' '.join(str(err).split())[:100]})",
                           path=index) from None
    weight_map = listing.get("weight_map") if isinstance(listing, dict) else None
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        raise WeightsError(f"{index}: expected {{\"weight_map\": {{tensor: file}}}}", path=index)
    headers: dict[str, dict[str, TensorInfo]] = {}
    tensors: dict[str, TensorInfo] = {}
    for name, file in weight_map.items():
        shard = directory / file
        if Path(file).name != file:
            raise WeightsError(f"{index}: shard {file!r} of tensor {name!r} is not a file name in "
                               f"{directory}", path=index, tensor=name)
        if file not in headers:
            if not shard.is_file():
                raise WeightsError(f"{index}: shard {file!r} (tensor {name!r}) is missing",
                                   path=shard, tensor=name)
            headers[file] = read_header(shard)
        if name not in headers[file]:
            raise WeightsError(f"{index}: lists tensor {name!r} in {file}, which does not hold it",
                               path=shard, tensor=name)
        tensors[name] = headers[file][name]
    return Checkpoint(directory, MappingProxyType(tensors), tuple(directory / f for f in headers))


def read_block(info: TensorInfo, rows: tuple[int, int] | None = None,
               columns: tuple[int, int] | None = None, *, map_bytes: int = 16 * 2**20) -> np.ndarray:
    """``tensor[r0:r1, c0:c1]`` (a 1-D tensor: ``tensor[r0:r1]``) as a new float64 array.

    The rows are mapped a few at a time, at most ``map_bytes`` of the file (or one row) at
    once, and each mapping is closed before the next: reading a block of columns touches every
    row, and a single mapping of them all would keep the whole tensor resident.
    """
    if info.dtype not in FLOATS:
        raise WeightsError(f"{info.where} has dtype {info.dtype}; expected a floating-point tensor "
                           f"({', '.join(FLOATS)})", path=info.path, tensor=info.name)
    if len(info.shape) not in (1, 2):
        raise WeightsError(f"{info.where} has shape {info.shape_text()}; expected a matrix or a vector",
                           path=info.path, tensor=info.name)
    shape = info.shape if len(info.shape) == 2 else (info.shape[0], 1)
    r0, r1 = rows if rows is not None else (0, shape[0])
    c0, c1 = columns if columns is not None else (0, shape[1])
    if not (0 <= r0 <= r1 <= shape[0] and 0 <= c0 <= c1 <= shape[1]):
        raise WeightsError(f"{info.where}: block rows {r0}–{r1}, columns {c0}–{c1} outside shape "
                           f"{info.shape_text()}", path=info.path, tensor=info.name)
    out = np.empty((r1 - r0, c1 - c0), dtype=np.float64)
    raw = FLOATS[info.dtype]
    row_bytes = shape[1] * raw.itemsize
    step = max(1, map_bytes // max(row_bytes, 1))
    for a in range(r0, r1, step):
        b = min(a + step, r1)
        _widen(_mapped(info, raw, a, b, shape[1])[:, c0:c1], info.dtype, out[a - r0:b - r0])
    return out if len(info.shape) == 2 else out[:, 0]


def _mapped(info: TensorInfo, raw: np.dtype, r0: int, r1: int, width: int) -> np.ndarray:
    if r1 == r0 or width == 0:
        return np.empty((r1 - r0, width), dtype=raw)
    try:
        return np.memmap(info.path, dtype=raw, mode="r", offset=info.offset + r0 * width * raw.itemsize,
                         shape=(r1 - r0, width))
    except (OSError, ValueError) as err:
        raise WeightsError(f"{info.where}: cannot map its data ({' '.join(str(err).split())[:100]})",
                           path=info.path, tensor=info.name) from None


def _widen(block: np.ndarray, dtype: str, out: np.ndarray) -> None:
    """``out[...] = block`` as float64; BF16 bit patterns become the float32 they are the top of."""
    if dtype == "BF16":
        bits = block.astype(np.uint32)
        bits <<= 16
        out[...] = bits.view(np.float32)
    else:
        out[...] = block
