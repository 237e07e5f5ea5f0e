"""Writing a transformed checkpoint: the source's files copied, then tensors rewritten in place.

A transformation keeps every tensor's name, dtype and shape, so the output's safetensors headers
and index are the source's, byte for byte (``__metadata__`` included, which ``transformers``
reads), and so are the data offsets. :func:`copy_directory` copies the directory's files
(config, tokenizer, shards, index) — a shard by the kernel's copy, never through Python memory —
and :func:`rows_view` maps a block of one tensor's rows, read-only in the source or writable in
the output, so that a transformation holds one block at a time.

Values are widened to float64 exactly (:func:`widen`) and rounded back to the tensor's dtype once,
to nearest with ties to even (:func:`narrow`): for BF16 through round-to-odd float32, so that the
two roundings give the one correctly rounded result.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from symcheck.core.errors import WeightsError
from symcheck.numeric.safetensors_io import BFLOAT16, FLOATS, INDEX, TensorInfo

__all__ = ["OTHER_WEIGHTS", "UNIT_ROUNDOFF", "copy_directory", "narrow", "rows_view", "widen"]

#: the unit roundoff of each stored dtype (half an ulp of 1)
UNIT_ROUNDOFF = {"F64": 2.0**-53, "F32": 2.0**-24, "F16": 2.0**-11, "BF16": 2.0**-8}


def widen(raw: np.ndarray, dtype: str) -> np.ndarray:
    """Stored values (their NumPy dtype, BF16 as uint16 bit patterns) as float64, exactly."""
    if dtype == "BF16":
        return raw.view(BFLOAT16).astype(np.float64)
    return raw.astype(np.float64)


def narrow(values: np.ndarray, dtype: str) -> np.ndarray:
    """float64 values rounded to ``dtype`` (to nearest, ties to even), as stored bits; a value
    that does not fit the dtype (it would become ±inf) is an error, not written."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below, by value
        if dtype == "BF16":
            out = _bfloat16(values)
            back = widen(out, dtype)
        else:
            out = values.astype(FLOATS[dtype])
            back = out.astype(np.float64)
    if not np.all(np.isfinite(back)):
        raise WeightsError(f"a transformed value ({values.flat[int(np.argmin(np.isfinite(back)))]!r}) does not fit "
                           f"{dtype}: the scales are too large for this checkpoint")
    return out


def _bfloat16(values: np.ndarray) -> np.ndarray:
    """float64 → bfloat16 bits, correctly rounded: float32 by round-to-odd (truncate toward zero,
    set the last bit when inexact), then to nearest even — 16 spare bits make this one rounding."""
    single = values.astype(np.float32)
    back = single.astype(np.float64)
    bits = single.view(np.uint32).copy()
    inexact = back != values
    away = inexact & (np.abs(back) > np.abs(values))  # rounded away from zero: step back toward it
    bits[away] -= 1
    bits[inexact] |= 1
    wide = bits.astype(np.uint64)
    return ((wide + 0x7FFF + ((wide >> 16) & 1)) >> 16).astype(np.uint16)


def rows_view(info: TensorInfo, r0: int, r1: int, *, writable: bool = False) -> np.ndarray:
    """Rows r0…r1 of a tensor (a vector: its entries) as a memory map of the stored bits; the
    caller drops it after the block (a mapping of the whole tensor would stay resident)."""
    if info.dtype not in FLOATS:
        raise WeightsError(f"{info.where} has dtype {info.dtype}; a transformation rewrites floating-point "
                           "tensors only", path=info.path, tensor=info.name)
    raw = FLOATS[info.dtype]
    width = 1 if len(info.shape) == 1 else int(info.shape[1])
    shape = (r1 - r0, width)
    if r1 == r0:
        return np.empty(shape, dtype=raw)
    try:
        return np.memmap(info.path, dtype=raw, mode="r+" if writable else "r",
                         offset=info.offset + r0 * width * raw.itemsize, shape=shape)
    except (OSError, ValueError) as err:
        raise WeightsError(f"{info.where}: cannot map its data ({' '.join(str(err).split())[:100]})",
                           path=info.path, tensor=info.name) from None


#: weights in other formats: never copied (they would hold the untransformed model)
OTHER_WEIGHTS = (".bin", ".pt", ".pth", ".ckpt", ".h5", ".msgpack", ".gguf", ".onnx", ".safetensors")


def copy_directory(source: Path, output: Path, shards: tuple[Path, ...]) -> tuple[tuple[Path, ...], tuple[str, ...]]:
    """The regular files of ``source`` copied into ``output`` (created; it must not hold anything
    yet): the checkpoint's ``shards`` and index, config, tokenizer and the like. Weights in other
    files (``pytorch_model.bin``, a ``consolidated.safetensors``, their indexes) are left out.
    Returns the files written and the names left out."""
    source, output = Path(source), Path(output)
    try:
        same = output.exists() and output.resolve() == source.resolve()
    except OSError:
        same = False
    if same:
        raise WeightsError(f"{output}: the output is the model directory itself; give a new directory",
                           path=output)
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise WeightsError(f"{output}: already exists and is not an empty directory; give a new one", path=output)
    try:
        output.mkdir(parents=True, exist_ok=True)
        written, skipped = [], []
        keep = {shard.name for shard in shards}
        for item in sorted(source.iterdir()):
            if not item.is_file():
                continue
            name = item.name
            other = name.endswith(OTHER_WEIGHTS) or any(name.endswith(s + ".index.json") for s in OTHER_WEIGHTS)
            if other and name not in keep and name != INDEX:
                skipped.append(name)
                continue
            target = output / name
            shutil.copyfile(item, target)  # the kernel's copy: no Python buffer the size of a shard
            written.append(target)
    except OSError as err:
        raise WeightsError(f"{output}: cannot write ({err.strerror or err})", path=output) from None
    return tuple(written), tuple(skipped)
