"""Safetensors checkpoints read one block of one tensor at a time, through memory maps.

A ``.safetensors`` file is 8 bytes (little-endian u64: the header's length), a JSON header
(each tensor's ``dtype``, ``shape`` and ``data_offsets`` into the data that follows), then
the data. The header is parsed here and checked against the file's size, so a tensor is
only ever a place in a file (:class:`TensorInfo`); :func:`read_block` maps the bytes of the
rows it needs, widens them to float64 and unmaps them. Nothing reads a whole file or a whole
tensor unless asked to, so what a model costs in memory is what its blocks cost.

Every file is user input: the header is validated by the safetensors library's own rules
(the tensors lie end to end, without gap or overlap, and fill the data exactly), and every
file must be a regular file (:mod:`symcheck.numeric.regular_files`; a link is followed and
reported, or refused).

A checkpoint directory holds ``model.safetensors``, or shards listed in
``model.safetensors.index.json`` (``{"weight_map": {tensor: file}}``), as Hugging Face's
``save_pretrained`` writes them. NumPy has no bfloat16 of its own: BF16 data is read as the
``ml_dtypes`` bfloat16 (the field's NumPy dtype, from the JAX project), whose cast to float64 is
one compiled, exact pass (a bfloat16 is the top half of a float32).
"""
from __future__ import annotations

import math
import os
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import ml_dtypes
import numpy as np

from symcheck.core.errors import WeightsError
from symcheck.numeric.arrays import all_finite
from symcheck.numeric.regular_files import open_regular, parse_json, read_json

__all__ = [
    "FLOATS",
    "INDEX",
    "SINGLE",
    "Checkpoint",
    "TensorInfo",
    "open_checkpoint",
    "read_block",
    "read_header",
    "read_into",
]

INDEX = "model.safetensors.index.json"
SINGLE = "model.safetensors"
#: safetensors' own limit on the JSON header (its MAX_HEADER_SIZE)
MAX_HEADER = 100_000_000
#: the largest index read (a 90,000-tensor model's index is about 10 MB)
MAX_INDEX = 64 * 2**20
#: every dtype the format defines, with its size in bits (the sub-byte floats pack)
BITS = {"BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8,
        "F8_E8M0": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
        "C64": 64, "I64": 64, "U64": 64, "F64": 64}
#: the same in bytes, for the dtypes of whole bytes
ITEMSIZE = {dtype: bits // 8 for dtype, bits in BITS.items() if bits % 8 == 0}
#: the floating-point dtypes symcheck reads, as the NumPy dtype of their stored bits
FLOATS: dict[str, np.dtype[Any]] = {"F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"),
                                     "BF16": np.dtype("<u2")}
#: BF16 as a NumPy dtype (ml_dtypes'): a view of the stored bits, cast to float64 in one exact pass
BFLOAT16: np.dtype[Any] = np.dtype(ml_dtypes.bfloat16)


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
        """Bytes per entry; 0 for the sub-byte dtypes (F4, F6_…), which pack."""
        return BITS[self.dtype] // 8

    def shape_text(self) -> str:
        return "(" + ", ".join(map(str, self.shape)) + ")"


@dataclass(frozen=True)
class Checkpoint:
    """A model directory's tensors by name, from one file or from the shards of an index."""

    directory: Path
    tensors: Mapping[str, TensorInfo]
    files: tuple[Path, ...]
    #: (file as the directory names it, the file it leads to) for every link followed
    links: tuple[tuple[Path, Path], ...] = ()

    @property
    def nbytes(self) -> int:
        return sum(t.nbytes for t in self.tensors.values())

    def get(self, name: str) -> TensorInfo | None:
        return self.tensors.get(name)


def read_header(path: str | Path, *, follow_links: bool = True) -> dict[str, TensorInfo]:
    """Every tensor of one ``.safetensors`` file, validated as the safetensors library
    validates it (:func:`_validated`): a header that library refuses is refused here."""
    return _read_header(Path(path), follow_links)[0]


def _read_header(path: Path, follow_links: bool) -> tuple[dict[str, TensorInfo], Path | None]:
    opened = open_regular(path, follow_links=follow_links)
    try:
        with opened.file as f:
            head = f.read(8)
            if len(head) < 8:
                raise WeightsError(f"{path}: not a .safetensors file (shorter than its 8-byte header "
                                   "length)", path=path)
            (length,) = struct.unpack("<Q", head)
            if length > min(MAX_HEADER, opened.size - 8):
                raise WeightsError(f"{path}: not a .safetensors file (header length {length} does not "
                                   f"fit the file's {opened.size} bytes)", path=path)
            raw = f.read(length)
    except OSError as err:
        raise WeightsError(f"{path}: cannot read ({err.strerror or err})", path=path) from None
    if len(raw) < length:
        raise WeightsError(f"{path}: not a .safetensors file (shorter than its header)", path=path)
    header = parse_json(raw, path, "not a .safetensors file: its header is not JSON")
    if not isinstance(header, dict):
        raise WeightsError(f"{path}: not a .safetensors file (its header is not a JSON object)", path=path)
    return _validated(path, header, 8 + length, opened.size - 8 - length), opened.target


def _validated(path: Path, header: dict[str, object], data_start: int, data_size: int) -> dict[str, TensorInfo]:
    """The safetensors library's rules (its ``Metadata::validate``): the tensors, sorted by
    their data_offsets, lie end to end from 0 — no gap, no overlap — each holding exactly its
    shape's bytes, and the last ends where the file does."""
    metadata = header.get("__metadata__")
    if metadata is not None and not (isinstance(metadata, dict) and
                                     all(isinstance(v, str) for v in metadata.values())):
        raise WeightsError(f"{path}: not a .safetensors file (__metadata__ must map names to strings)",
                           path=path)
    entries = sorted((_entry(path, name, entry) for name, entry in header.items() if name != "__metadata__"),
                     key=lambda e: (e[3], e[4]))
    end = 0
    tensors = {}
    for name, dtype, shape, begin, stop in entries:
        if begin != end:
            why = (f"overlaps the tensor before it (which ends at {end})" if begin < end
                   else f"leaves a gap of {begin - end} bytes before it")
            raise WeightsError(f"{path}: tensor {name!r} (data_offsets {begin}–{stop}) {why}; "
                               "the tensors must lie end to end from 0", path=path, tensor=name)
        end = stop
        tensors[name] = TensorInfo(name, dtype, shape, path, data_start + begin, stop - begin)
    if end != data_size:
        raise WeightsError(f"{path}: the tensors hold {end} bytes of data but the file has {data_size} "
                           "after its header", path=path)
    return {name: tensors[name] for name in header if name in tensors}  # in the header's order


def _entry(path: Path, name: str, entry: object) -> tuple[str, str, tuple[int, ...], int, int]:
    """One header entry checked on its own; its place in the file is checked by the caller."""
    def bad(why: str) -> WeightsError:
        return WeightsError(f"{path}: tensor {name!r} {why}", path=path, tensor=name)

    if not isinstance(entry, dict):
        raise bad("has no header entry (dtype, shape, data_offsets)")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype not in BITS:
        raise bad(f"has an unknown dtype {_short(dtype)}")
    if not isinstance(shape, list) or not all(_u64(n) for n in shape):
        raise bad(f"has an invalid shape {_short(shape)}")
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(_u64(n) for n in offsets):
        raise bad(f"has invalid data_offsets {_short(offsets)}")
    begin, end = offsets
    if end < begin:
        raise bad(f"has data_offsets {begin}–{end} that end before they begin")
    bits = math.prod(shape) * BITS[dtype]
    if bits >= 2**64 or bits % 8:
        raise bad(f"has shape {tuple(shape)} of {dtype}, which is not a whole number of bytes below 2^64")
    if end - begin != bits // 8:
        raise bad(f"has {end - begin} bytes; shape {tuple(shape)} of {dtype} needs {bits // 8}")
    return name, dtype, tuple(shape), begin, end


def _u64(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**64


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def open_checkpoint(directory: str | Path, *, follow_links: bool = True) -> Checkpoint:
    """The tensors of a model directory: the shards of ``model.safetensors.index.json``, or
    ``model.safetensors``. Only headers are read; every file must be a regular file (a link is
    followed, and listed in ``links``, unless ``follow_links`` is false: then it is refused)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise WeightsError(f"{directory}: no such directory", path=directory)
    index = directory / INDEX
    if os.path.lexists(index):
        return _sharded(directory, index, follow_links)
    single = directory / SINGLE
    if os.path.lexists(single):
        tensors, target = _read_header(single, follow_links)
        return Checkpoint(directory, MappingProxyType(tensors), (single,), _links({single: target}))
    raise WeightsError(_no_weights(directory), path=directory)


def _no_weights(directory: Path) -> str:
    """What to say when there is no safetensors file: name a PyTorch pickle if there is one."""
    pickles = sorted(p.name for p in directory.glob("pytorch_model*.bin"))
    if pickles:
        return (f"{directory}: found {pickles[0]}{' and other shards' if len(pickles) > 1 else ''} "
                f"(PyTorch's pickle format, which symcheck does not read: loading it can run code) but no "
                f"{SINGLE}; convert it with transformers: AutoModel.from_pretrained(DIR)"
                f".save_pretrained(NEW_DIR, safe_serialization=True)")
    return f"{directory}: no {SINGLE} or {INDEX} (safetensors weights as save_pretrained writes them)"


def _links(targets: Mapping[Path, Path | None]) -> tuple[tuple[Path, Path], ...]:
    return tuple((path, target) for path, target in targets.items() if target is not None)


def _sharded(directory: Path, index: Path, follow_links: bool) -> Checkpoint:
    listing, index_target = read_json(index, MAX_INDEX, "the index", follow_links=follow_links)
    weight_map = listing.get("weight_map") if isinstance(listing, dict) else None
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        raise WeightsError(f"{index}: expected {{\"weight_map\": {{tensor: file}}}}", path=index)
    headers: dict[str, dict[str, TensorInfo]] = {}
    targets: dict[Path, Path | None] = {index: index_target}
    tensors: dict[str, TensorInfo] = {}
    for name, file in weight_map.items():
        shard = directory / file
        if Path(file).name != file or file in ("", ".", ".."):
            raise WeightsError(f"{index}: shard {_short(file)} of tensor {name!r} is not a file name in "
                               f"{directory}", path=index, tensor=name)
        if file not in headers:
            if not os.path.lexists(shard):
                raise WeightsError(f"{index}: shard {file!r} (tensor {name!r}) is missing",
                                   path=shard, tensor=name)
            headers[file], targets[shard] = _read_header(shard, follow_links)
        if name not in headers[file]:
            raise WeightsError(f"{index}: lists tensor {name!r} in {file}, which does not hold it",
                               path=shard, tensor=name)
        tensors[name] = headers[file][name]
    return Checkpoint(directory, MappingProxyType(tensors), tuple(directory / f for f in headers),
                      _links(targets))


def read_block(info: TensorInfo, rows: tuple[int, int] | None = None,
               columns: tuple[int, int] | None = None, *, map_bytes: int = 16 * 2**20,
               out: np.ndarray | None = None) -> np.ndarray:
    """``tensor[r0:r1, c0:c1]`` (a 1-D tensor: ``tensor[r0:r1]``) as a float64 array: a new
    one, or written into ``out`` (float64, the block's shape, any strides: a transposed view
    of a reused buffer gets the block transposed without another copy) and returned.

    The rows are mapped a few at a time, at most ``map_bytes`` of the file (or one row) at
    once, and each mapping is closed before the next: reading a block of columns touches every
    row, and a single mapping of them all would keep the whole tensor resident.
    """
    block = _block_out(info, rows, columns, out)
    read_into(info, block, rows, columns, map_bytes=map_bytes)
    if out is not None:
        return out
    return block if len(info.shape) == 2 else block[:, 0]


def read_into(info: TensorInfo, out: np.ndarray, rows: tuple[int, int] | None = None,
              columns: tuple[int, int] | None = None, *, map_bytes: int = 16 * 2**20,
              divided: tuple[np.ndarray, float] | None = None, scratch: np.ndarray | None = None) -> bool:
    """:func:`read_block` into ``out`` (float64, the block's shape, any strides), and ``out / β``
    into ``divided = (array, β)`` (the same shape and strides); returns whether every entry is
    finite.

    The block is widened a piece of at most :data:`WIDEN_ENTRIES` entries at a time, checked
    while it is in cache (BF16: the exponent bits of the stored values; else the extremes of
    the widened ones), and divided there too when ``out``'s rows are its memory's rows: passes
    over the whole block afterwards read tens of MB back from memory. Into a transposed ``out``
    (a factor whose units are columns) BF16 is widened in tiles of :data:`TILE` × :data:`TILE`
    entries, so that both the mapped rows and ``out``'s memory rows are read and written in
    runs; other dtypes in pieces that are columns of the mapped rows; the division is one pass
    afterwards (dividing transposed pieces or tiles in place cost more than reading the block
    back). ``scratch`` (uint16, at least ``WIDEN_ENTRIES``) is the BF16 check's workspace,
    reused by a caller that reads many blocks.
    """
    shape = _matrix_shape(info)
    (r0, r1), (c0, c1) = _span(info, shape, rows, columns)
    out = _block_out(info, rows, columns, out)
    target = None if divided is None else _block_out(info, rows, columns, divided[0])
    beta = 1.0 if divided is None else divided[1]   # used only with a target
    raw = FLOATS[info.dtype]
    step = max(1, map_bytes // max(shape[1] * raw.itemsize, 1))     # rows mapped at a time
    entries = max(1, min(WIDEN_ENTRIES, map_bytes // 4, (r1 - r0) * (c1 - c0)))
    bf16 = info.dtype == "BF16"
    if bf16 and (scratch is None or scratch.dtype != np.uint16 or scratch.size < entries):
        scratch = np.empty(entries, np.uint16)
    transposed = out.shape[0] > 1 and out.strides[0] < out.strides[1]
    finite = True
    for a in range(r0, r1, step):
        b = min(a + step, r1)
        block = _mapped(info, raw, a, b, shape[1])[:, c0:c1]
        if bf16 and transposed and scratch is not None:  # (scratch: always, for BF16)
            finite &= _widen_tiles(block, out[a - r0:b - r0], scratch, entries)
            continue
        for rows_in, cols in _pieces(b - a, c1 - c0, entries, transposed):
            piece = out[a - r0:b - r0][rows_in, cols]
            finite &= _widen(block[rows_in, cols], piece, scratch if bf16 else None)
            if target is not None and not transposed:
                np.divide(piece, beta, out=target[a - r0:b - r0][rows_in, cols])
    if target is not None and transposed:
        np.divide(out, beta, out=target)
    return finite


def _pieces(rows: int, columns: int, entries: int, by_columns: bool) -> Iterator[tuple[slice, slice]]:
    """(rows, columns) slices cutting a rows × columns block into pieces of at most ``entries``
    (or one row, or one column): whole rows in turn, or whole columns in turn."""
    if by_columns:
        width = max(1, entries // max(rows, 1))
        for j in range(0, columns, width):
            yield slice(0, rows), slice(j, min(j + width, columns))
    else:
        height = max(1, entries // max(columns, 1))
        for i in range(0, rows, height):
            yield slice(i, min(i + height, rows)), slice(0, columns)


def _matrix_shape(info: TensorInfo) -> tuple[int, int]:
    """The tensor's shape as a matrix (a vector is one column), after checking it is a float
    matrix or vector."""
    if info.dtype not in FLOATS:
        raise WeightsError(f"{info.where} has dtype {info.dtype}; expected a floating-point tensor "
                           f"({', '.join(FLOATS)})", path=info.path, tensor=info.name)
    if len(info.shape) not in (1, 2):
        raise WeightsError(f"{info.where} has shape {info.shape_text()}; expected a matrix or a vector",
                           path=info.path, tensor=info.name)
    return (info.shape[0], info.shape[1]) if len(info.shape) == 2 else (info.shape[0], 1)


def _span(info: TensorInfo, shape: tuple[int, int], rows: tuple[int, int] | None,
          columns: tuple[int, int] | None) -> tuple[tuple[int, int], tuple[int, int]]:
    r0, r1 = rows if rows is not None else (0, shape[0])
    c0, c1 = columns if columns is not None else (0, shape[1])
    if not (0 <= r0 <= r1 <= shape[0] and 0 <= c0 <= c1 <= shape[1]):
        raise WeightsError(f"{info.where}: block rows {r0}–{r1}, columns {c0}–{c1} outside shape "
                           f"{info.shape_text()}", path=info.path, tensor=info.name)
    return (r0, r1), (c0, c1)


def _block_out(info: TensorInfo, rows: tuple[int, int] | None, columns: tuple[int, int] | None,
               out: np.ndarray | None) -> np.ndarray:
    """``out`` as the block's 2-D view (a vector's block is one column), checked; or a new array."""
    shape = _matrix_shape(info)
    (r0, r1), (c0, c1) = _span(info, shape, rows, columns)
    if out is None:
        return np.empty((r1 - r0, c1 - c0), dtype=np.float64)
    view = out if len(info.shape) == 2 or out.ndim == 2 else out[:, None]  # a view, never a copy
    if view.dtype != np.float64 or view.shape != (r1 - r0, c1 - c0):
        raise ValueError(f"out has dtype {out.dtype} and shape {out.shape}; expected float64 and "
                         f"{(r1 - r0, c1 - c0)}")
    return view


def _mapped(info: TensorInfo, raw: np.dtype, r0: int, r1: int, width: int) -> np.ndarray:
    if r1 == r0 or width == 0:
        return np.empty((r1 - r0, width), dtype=raw)
    try:
        return np.memmap(info.path, dtype=raw, mode="r", offset=info.offset + r0 * width * raw.itemsize,
                         shape=(r1 - r0, width))
    except (OSError, ValueError) as err:
        raise WeightsError(f"{info.where}: cannot map its data ({' '.join(str(err).split())[:100]})",
                           path=info.path, tensor=info.name) from None


#: entries widened at a time (a BF16 check through a uint16 scratch of this many, 128 KiB): the
#: piece, its float64 values and their division by β stay in the core's cache while they are made
WIDEN_ENTRIES = 2**16
#: the side of a tile of BF16 widened into a transposed array: a tile's stored rows (256 bytes
#: each) stay in the first-level cache while ``out``'s rows get runs of 1 KiB
TILE = 128
#: a bfloat16's exponent bits: all set in an infinity or a NaN, and only there
_EXPONENT = 0x7F80


def _widen(block: np.ndarray, out: np.ndarray, scratch: np.ndarray | None) -> bool:
    """``out[...] = block`` as float64, BF16 bit patterns (``scratch`` given: uint16) as the
    bfloat16 they are. Returns whether every entry is finite."""
    if scratch is None:
        out[...] = block
        return all_finite(out)
    np.copyto(out, block.view(BFLOAT16), casting="unsafe")
    return _finite_bits(block, scratch)


def _widen_tiles(block: np.ndarray, out: np.ndarray, scratch: np.ndarray, entries: int) -> bool:
    """``out[...] = block`` for BF16 bit patterns ``block`` into a transposed ``out`` (its
    columns are its memory's rows), a tile at a time. Returns whether every entry is finite,
    checked first on the stored rows, a piece of at most ``entries`` at a time (their runs are
    contiguous; a tile's are not, and checking tile by tile was slower)."""
    rows, columns = block.shape
    finite = True
    for rows_in, cols in _pieces(rows, columns, entries, False):
        finite &= _finite_bits(block[rows_in, cols], scratch)
    height = min(TILE, entries)
    width = max(1, min(TILE, entries // height))
    values = block.view(BFLOAT16)
    for i in range(0, rows, height):
        for j in range(0, columns, width):
            np.copyto(out[i:i + height, j:j + width], values[i:i + height, j:j + width], casting="unsafe")
    return finite


def _finite_bits(block: np.ndarray, scratch: np.ndarray) -> bool:
    """Whether no bfloat16 bit pattern of ``block`` has every exponent bit set (an infinity
    or a NaN), through ``scratch`` when it holds the block (else a temporary of one row)."""
    if block.size == 0:
        return True
    bits = scratch[:block.size].reshape(block.shape) if block.size <= scratch.size else None
    return int(np.bitwise_and(block, _EXPONENT, out=bits).max()) != _EXPONENT
