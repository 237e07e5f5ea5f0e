"""Real weights for the numeric evaluator: tensors from ``.npy``, ``.npz`` or ``.safetensors``.

A file's tensors are matched to a layer's parameters by name:

* ``Q``, ``K``, ``V`` (and ``Q_g`` for the global query), any case: taken as they are — 2-D
  ``(m, d)`` factors for ``gated``/``rank1``, 3-D ``(m, d, r)`` for ``bilinear``;
* a LLaMA-style MLP's ``…gate_proj.weight``, ``…up_proj.weight``, ``…down_proj.weight``:
  ``down(silu(gate(x)) * up(x))`` is ``gated`` with ``Q = gate``, ``K = up``, ``V = downᵀ``
  (docs/theory.md §1). With several layers in one checkpoint, ``layer=`` picks one by name prefix.

A ``.npy`` file holds one tensor, named by the file's stem (``Q.npy`` is ``Q``). Every
problem — unreadable file, missing tensor, wrong shape or dtype, an empty axis (no units,
input features, outputs, rank terms or input rows) — is a one-line
:class:`WeightsError` naming the file and the tensor. ``bfloat16`` tensors (which NumPy cannot
represent) are read from the safetensors layout directly and widened exactly to float32.
"""
from __future__ import annotations

import json
import math
import re
import struct
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np

from symcheck.core.errors import WeightsError
from symcheck.numeric.regular_files import open_regular
from symcheck.numeric.vocabulary import NumericForm

__all__ = ["LayerWeights", "Tensor", "WeightsError", "load", "load_inputs", "load_layer"]

SUFFIXES = (".npy", ".npz", ".safetensors")
_FLOATS = ("float16", "float32", "float64")
_PLAIN = {"q": "Q", "k": "K", "v": "V", "q_g": "Q_g", "qg": "Q_g"}
_LLAMA = {"gate_proj": "Q", "up_proj": "K", "down_proj": "V"}
#: deflate's largest compression ratio is about 1032:1
_DEFLATE_RATIO = 1100
_LLAMA_NAME = re.compile(r"^(?P<prefix>.*?)(?P<role>gate_proj|up_proj|down_proj)(?:\.weight)?$")




@dataclass(frozen=True)
class Tensor:
    """One named array and where it came from."""

    name: str
    array: np.ndarray = field(repr=False)
    path: str

    @property
    def where(self) -> str:
        return f"{self.path}: tensor {self.name!r}"


@dataclass(frozen=True)
class LayerWeights:
    """The parameters of one layer, each with the file and tensor it came from."""

    form: NumericForm
    Q: np.ndarray | None = field(default=None, repr=False)
    K: np.ndarray | None = field(default=None, repr=False)
    V: np.ndarray | None = field(default=None, repr=False)
    Q_g: np.ndarray | None = field(default=None, repr=False)
    sources: Mapping[str, str] = field(default_factory=dict)   # role -> "file: tensor 'name'"
    llama: bool = False

    @property
    def d(self) -> int:
        keys = self.K if self.K is not None else self.Q
        assert keys is not None  # every loader sets K (load_layer)
        return int(keys.shape[1])

    @property
    def m(self) -> int:
        return int(self._values.shape[0])

    @property
    def e(self) -> int:
        return int(self._values.shape[1])

    @property
    def _values(self) -> np.ndarray:
        assert self.V is not None  # every loader sets V (load_layer)
        return self.V

    @property
    def r(self) -> int:
        return int(self.Q.shape[2]) if self.Q is not None and self.Q.ndim == 3 else 1

    def describe(self) -> str:
        mapping = ", ".join(f"{role} = {where}" for role, where in self.sources.items())
        return ("LLaMA-style MLP as gated (Q = gate, K = up, V = downᵀ): " if self.llama else "") + mapping


# --------------------------------------------------------------------------- reading files


def load(path: str | Path) -> dict[str, Tensor]:
    """Every tensor of one file, by name, checked to be a real floating-point array."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise WeightsError(f"{path}: unsupported file type {suffix or '(none)'!r}; "
                           f"expected one of {', '.join(SUFFIXES)}", path=path)
    if not path.is_file():
        raise WeightsError(f"{path}: no such file", path=path)
    reader = {".npy": _read_npy, ".npz": _read_npz, ".safetensors": _read_safetensors}[suffix]
    tensors = {}
    for name, array in reader(path):
        tensors[name] = Tensor(name, _checked_dtype(array, path, name), str(path))
    if not tensors:
        raise WeightsError(f"{path}: the file holds no tensors", path=path)
    return tensors


def _claimed(f: IO[bytes], available: int, where: str, path: Path, name: str = "") -> None:
    """Check a .npy header's claim (shape × dtype) against the ``available`` bytes of the file
    before anything is allocated: a header may claim terabytes in a file of a few bytes."""
    try:
        version = np.lib.format.read_magic(f)
        shape, _, dtype = (np.lib.format.read_array_header_1_0(f) if version == (1, 0)
                           else np.lib.format.read_array_header_2_0(f))
    except (ValueError, OSError, EOFError, SyntaxError, TypeError) as err:
        raise WeightsError(f"{where}: not a readable .npy file ({_first_line(err)})", path=path,
                           tensor=name) from None
    need = math.prod(shape) * dtype.itemsize
    have = available - f.tell()
    if need != have:
        raise WeightsError(f"{where}: its header claims shape {tuple(shape)} of {dtype} ({need} bytes) but "
                           f"{have} bytes of data follow", path=path, tensor=name)


def _read_npy(path: Path) -> Iterable[tuple[str, np.ndarray]]:
    opened = open_regular(path)
    with opened.file as f:
        _claimed(f, opened.size, str(path), path)
    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, MemoryError) as err:
        raise WeightsError(f"{path}: not a readable .npy file ({_first_line(err)})", path=path) from None
    yield path.stem, array


def _member_claim(archive: zipfile.ZipFile, name: str, path: Path) -> None:
    """An .npz member's .npy header against its uncompressed size, which is checked against its
    compressed size (a zip may claim any size)."""
    member = archive.getinfo(name if name in archive.namelist() else name + ".npy")
    if member.file_size > _DEFLATE_RATIO * member.compress_size + 2**16:
        raise WeightsError(f"{path}: tensor {name!r} claims {member.file_size} bytes from "
                           f"{member.compress_size} compressed, more than deflate gives", path=path, tensor=name)
    try:
        with archive.open(member) as f:
            _claimed(f, member.file_size, f"{path}: tensor {name!r}", path, name)
    except (OSError, EOFError, zipfile.BadZipFile) as err:
        raise WeightsError(f"{path}: tensor {name!r} cannot be read ({_first_line(err)})",
                           path=path, tensor=name) from None


def _read_npz(path: Path) -> Iterable[tuple[str, np.ndarray]]:
    try:
        archive = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as err:
        raise WeightsError(f"{path}: not a readable .npz file ({_first_line(err)})", path=path) from None
    with archive:
        for name in archive.files:
            _member_claim(archive.zip, name, path)
            try:
                array = archive[name]
            except (ValueError, OSError, EOFError, MemoryError, zipfile.BadZipFile) as err:
                raise WeightsError(f"{path}: tensor {name!r} cannot be read ({_first_line(err)})",
                                   path=path, tensor=name) from None
            yield name, array


def _read_safetensors(path: Path) -> Iterable[tuple[str, np.ndarray]]:
    try:
        from safetensors import safe_open
    except ImportError:  # pragma: no cover - depends on the installation
        raise WeightsError(f"{path}: reading .safetensors needs the 'safetensors' package "
                           "(pip install 'symcheck[weights]')", path=path) from None
    try:
        with safe_open(str(path), framework="np") as handle:
            names = list(handle.keys())
            for name in names:
                kind = handle.get_slice(name).get_dtype()
                if kind == "BF16":
                    yield name, _read_bfloat16(path, name)
                    continue
                yield name, handle.get_tensor(name)
    except WeightsError:
        raise
    except Exception as err:  # the safetensors error types differ between versions
        raise WeightsError(f"{path}: not a readable .safetensors file ({_first_line(err)})",
                           path=path) from None


def _read_bfloat16(path: Path, name: str) -> np.ndarray:
    """A BF16 tensor from the safetensors layout (u64 header size, JSON header, data), widened
    exactly to float32: bfloat16 is the top half of a float32."""
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        entry = json.loads(f.read(size))[name]
        start, end = entry["data_offsets"]
        f.seek(8 + size + start)
        halves = np.frombuffer(f.read(end - start), dtype="<u2")
    return (halves.astype(np.uint32) << 16).view(np.float32).reshape(entry["shape"])


def _checked_dtype(array: np.ndarray, path: Path, name: str) -> np.ndarray:
    if array.dtype.name not in _FLOATS:
        raise WeightsError(f"{path}: tensor {name!r} has dtype {array.dtype.name}; expected a "
                           f"floating-point tensor ({', '.join(_FLOATS)} or bfloat16)",
                           path=path, tensor=name)
    return array


def _first_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text[:120] or type(err).__name__


# --------------------------------------------------------------------------- matching a layer


def load_layer(paths: str | Path | Sequence[str | Path], *, layer: str | None = None,
               form: NumericForm | None = None) -> LayerWeights:
    """Q, K, V (or Q_g, K, V) for one layer from one or more files (see the module docstring).

    ``form`` chooses between ``gated`` and ``rank1`` for 2-D factors (default ``gated``, which
    is what a LLaMA MLP is); 3-D factors are ``bilinear`` whatever it says.
    """
    form = None if form is None else NumericForm(form)  # "rank1" reads as the member
    tensors = _merged([paths] if isinstance(paths, (str, Path)) else list(paths))
    files = ", ".join(dict.fromkeys(t.path for t in tensors.values()))
    llama: dict[str, dict[str, Tensor]] = {}
    for name, t in tensors.items():
        match = _LLAMA_NAME.match(name)
        if match and (layer is None or name.startswith(layer)):
            llama.setdefault(match["prefix"], {})[match["role"]] = t
    if llama:
        return _llama_layer(llama, files, form)
    plain = {_PLAIN[n.lower()]: t for n, t in tensors.items()
             if n.lower() in _PLAIN and (layer is None or n.startswith(layer))}
    if not plain:
        found = ", ".join(list(tensors)[:6]) + (", …" if len(tensors) > 6 else "")
        scope = f" under the prefix {layer!r}" if layer else ""
        raise WeightsError(f"{files}: no tensors named Q, K, V (or Q_g) or LLaMA gate_proj, up_proj, "
                           f"down_proj{scope}; found {found}", path=files)
    return _plain_layer(plain, files, form)


def _merged(paths: Sequence[str | Path]) -> dict[str, Tensor]:
    if not paths:
        raise WeightsError("no weight files given")
    tensors: dict[str, Tensor] = {}
    for path in paths:
        for name, t in load(path).items():
            if name in tensors:
                raise WeightsError(f"{path}: tensor {name!r} is also in {tensors[name].path}",
                                   path=path, tensor=name)
            tensors[name] = t
    return tensors


def _llama_layer(groups: dict[str, dict[str, Tensor]], files: str, form: NumericForm | None) -> LayerWeights:
    if len(groups) > 1:
        prefixes = ", ".join(repr(p) for p in list(groups)[:3]) + (", …" if len(groups) > 3 else "")
        raise WeightsError(f"{files}: {len(groups)} MLP layers found ({prefixes}); choose one "
                           "with --layer PREFIX (layer= in Python)", path=files)
    prefix, roles = next(iter(groups.items()))
    for role in _LLAMA:
        if role not in roles:
            present = next(iter(roles.values()))
            raise WeightsError(f"{present.path}: missing tensor {prefix + role + '.weight'!r} "
                               f"(found {', '.join(t.name for t in roles.values())})",
                               path=present.path, tensor=prefix + role + ".weight")
    gate, up, down = roles["gate_proj"], roles["up_proj"], roles["down_proj"]
    _need_ndim(gate, 2, "(intermediate m, hidden d)")
    _need_ndim(up, 2, "(intermediate m, hidden d)")
    _need_ndim(down, 2, "(hidden e, intermediate m)")
    _need_nonempty(gate, ("m", "d"))
    if up.array.shape != gate.array.shape:
        raise WeightsError(f"{up.where} has shape {_shape(up)}; expected {_shape(gate)} like "
                           f"{gate.name!r}", path=up.path, tensor=up.name)
    m = gate.array.shape[0]
    if down.array.shape[1] != m:
        raise WeightsError(f"{down.where} has shape {_shape(down)}; expected (e, {m}): its "
                           f"second axis must match the {m} units of {gate.name!r}",
                           path=down.path, tensor=down.name)
    _need_nonempty(down, ("e", "m"))
    return LayerWeights(form or NumericForm.GATED, Q=gate.array, K=up.array, V=down.array.T,
                        sources={"Q": gate.where, "K": up.where, "V": down.where + " transposed"},
                        llama=True)


def _plain_layer(found: dict[str, Tensor], files: str, form: NumericForm | None) -> LayerWeights:
    if "Q_g" in found:
        return _absorb_layer(found, files)
    for role in ("Q", "K", "V"):
        if role not in found:
            raise WeightsError(f"{files}: missing tensor {role!r} (found "
                               f"{', '.join(t.name for t in found.values())})", path=files, tensor=role)
    q, k, v = found["Q"], found["K"], found["V"]
    if q.array.ndim not in (2, 3):
        raise WeightsError(f"{q.where} has shape {_shape(q)}; expected (m, d) or (m, d, r)",
                           path=q.path, tensor=q.name)
    if k.array.shape != q.array.shape:
        raise WeightsError(f"{k.where} has shape {_shape(k)}; expected {_shape(q)} like {q.name!r}",
                           path=k.path, tensor=k.name)
    _need_nonempty(q, ("m", "d", "r"))
    m = q.array.shape[0]
    _need_ndim(v, 2, "(m, e)")
    if v.array.shape[0] != m:
        raise WeightsError(f"{v.where} has shape {_shape(v)}; expected ({m}, e): one row per unit "
                           f"of {q.name!r}", path=v.path, tensor=v.name)
    _need_nonempty(v, ("m", "e"))
    kind = NumericForm.BILINEAR if q.array.ndim == 3 else (form or NumericForm.GATED)
    return LayerWeights(kind, Q=q.array, K=k.array, V=v.array,
                        sources={"Q": q.where, "K": k.where, "V": v.where})


def _absorb_layer(found: dict[str, Tensor], files: str) -> LayerWeights:
    for role in ("K", "V"):
        if role not in found:
            raise WeightsError(f"{files}: missing tensor {role!r} next to 'Q_g'", path=files, tensor=role)
    g, k, v = found["Q_g"], found["K"], found["V"]
    _need_ndim(k, 2, "(m, d)")
    _need_nonempty(k, ("m", "d"))
    d = k.array.shape[1]
    if g.array.shape != (d, d):
        raise WeightsError(f"{g.where} has shape {_shape(g)}; expected ({d}, {d}) to match the "
                           f"d = {d} columns of {k.name!r}", path=g.path, tensor=g.name)
    _need_ndim(v, 2, "(m, e)")
    if v.array.shape[0] != k.array.shape[0]:
        raise WeightsError(f"{v.where} has shape {_shape(v)}; expected ({k.array.shape[0]}, e)",
                           path=v.path, tensor=v.name)
    _need_nonempty(v, ("m", "e"))
    return LayerWeights(NumericForm.QUERY_MLP, K=k.array, V=v.array, Q_g=g.array,
                        sources={"Q_g": g.where, "K": k.where, "V": v.where})


def _need_ndim(t: Tensor, ndim: int, expected: str) -> None:
    if t.array.ndim != ndim:
        raise WeightsError(f"{t.where} has shape {_shape(t)}; expected {expected}",
                           path=t.path, tensor=t.name)


#: what each size counts, for the error on an empty axis
_COUNTS = {"m": "unit", "d": "input feature", "e": "output", "r": "rank term"}


def _need_nonempty(t: Tensor, axes: Sequence[str]) -> None:
    """A layer with no units, features, outputs or rank is no layer to check: its outputs are
    empty or an empty sum, and comparing two of them says nothing."""
    for axis, size in zip(axes, t.array.shape, strict=False):
        if size == 0:
            raise WeightsError(f"{t.where} has shape {_shape(t)}: {axis} = 0; a layer needs at least "
                               f"one {_COUNTS[axis]}", path=t.path, tensor=t.name)


def _shape(t: Tensor) -> str:
    return "(" + ", ".join(map(str, t.array.shape)) + ")"


def load_inputs(path: str | Path, d: int) -> tuple[np.ndarray, str]:
    """The input rows X (tokens, d) from a file: its only tensor, or the one named ``X``/``x``.

    A 1-D tensor of length d is one row; more than two axes are flattened into rows.
    """
    tensors = load(path)
    if len(tensors) == 1:
        t = next(iter(tensors.values()))
    else:
        named = [t for n, t in tensors.items() if n.lower() in ("x", "inputs")]
        if not named:
            raise WeightsError(f"{path}: {len(tensors)} tensors and none named 'X'; which are the "
                               f"inputs? (found {', '.join(list(tensors)[:6])})", path=path, tensor="X")
        t = named[0]
    array = t.array
    if array.ndim == 0 or array.shape[-1] != d:
        raise WeightsError(f"{t.where} has shape {_shape(t)}; expected (tokens, {d}) to match the "
                           f"weights' d = {d}", path=t.path, tensor=t.name)
    if array.size == 0:
        raise WeightsError(f"{t.where} has shape {_shape(t)}: no input rows; the check needs at least one",
                           path=t.path, tensor=t.name)
    return array.reshape(-1, d), t.where
