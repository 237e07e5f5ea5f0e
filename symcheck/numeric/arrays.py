"""Inputs of the numeric evaluator as finite arrays of the working dtype, and overflow found.

Every entry of the inputs must be finite in the working dtype (a NaN, ±inf, or a float64
beyond float32's range is a :class:`NumericError` naming the array and the index); σ's inputs,
the hidden activations and the output are checked block by block (their extremes, no extra
memory), and a value the computation pushes out of the float range raises
:class:`NumericOverflowError` instead of coming back as inf or NaN.

>>> import numpy as np
>>> refuse_non_finite("V", np.array([[1.0, np.inf]]), "float64")
Traceback (most recent call last):
...
symcheck.core.errors.NumericError: V has a non-finite value (inf) at index (0, 1)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from symcheck.core.errors import NumericError, NumericOverflowError
from symcheck.exact.vectorize import as_dtype

__all__ = ["numpy_sigma", "real_array", "refuse_non_finite", "all_finite", "refuse_overflow", "agree",
           "as_rows", "contiguous", "index_text"]


def numpy_sigma(act: Any, dtype: np.dtype) -> tuple[Callable[[np.ndarray], np.ndarray], str]:
    """σ as a NumPy function in ``dtype`` and its name: a catalogue name, an expression, an
    :class:`~symcheck.language.activations.Activation`, or already a NumPy callable."""
    from symcheck.language.activations import Activation, activation
    if callable(act) and not isinstance(act, Activation):
        return act, getattr(act, "__name__", "custom")
    resolved = activation(act)
    return resolved.to_numpy(dtype), resolved.name


def real_array(name: str, value: Any, ndim: int | tuple[int, ...], kind: np.dtype) -> np.ndarray:
    """``value`` as an array of real numbers of the right rank, every entry finite in ``kind``."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):           # ragged nested lists, objects NumPy cannot take
        raise NumericError(f"{name} is not a rectangular array of real numbers", name=name) from None
    if array.dtype.kind not in "fiu":
        raise NumericError(f"{name} has dtype {array.dtype}; expected real numbers", name=name)
    dims = (ndim,) if isinstance(ndim, int) else ndim
    if array.ndim not in dims:
        expected = " or ".join(f"{n}-D" for n in dims)
        raise NumericError(f"{name} has shape {array.shape}; expected a {expected} array", name=name)
    refuse_non_finite(name, array, kind)
    return array


def _castable(array: np.ndarray, kind: np.dtype) -> bool:
    """Every entry finite once cast to ``kind``. The cast is monotone, so the extremes decide;
    min and max propagate NaN and need no temporary the size of the array."""
    if array.size == 0 or array.dtype.kind in "iu":   # every integer NumPy has is < 3.4e38
        return True
    with np.errstate(all="ignore"):
        return bool(np.isfinite(kind.type(array.min())) and np.isfinite(kind.type(array.max())))


def _first_bad(array: np.ndarray, kind: np.dtype) -> tuple[tuple[int, ...], Any]:
    """The index and value of the first entry (in C order) that is not finite in ``kind``:
    the first bad row by its extremes, then within it, so only one row is ever cast."""
    index: list[int] = []
    part = array
    while part.ndim > 1:
        row = next(i for i in range(part.shape[0]) if not _castable(part[i], kind))
        index.append(row)
        part = part[row]
    with np.errstate(all="ignore"):
        column = int(np.argmin(np.isfinite(part.astype(kind))))
    return (*index, column), part[column]


def index_text(index: tuple[int, ...]) -> str:
    return str(index[0]) if len(index) == 1 else f"({', '.join(map(str, index))})"


def refuse_non_finite(label: str, array: np.ndarray, kind: object) -> None:
    """Raise :class:`NumericError` naming ``label`` and an index when an entry of ``array`` is
    NaN or ±inf, or beyond the range of the working dtype ``kind`` (it would become inf)."""
    kind = as_dtype(kind)
    if _castable(array, kind):
        return
    index, value = _first_bad(array, kind)
    if not np.isfinite(value):
        raise NumericError(f"{label} has a non-finite value ({value}) at index {index_text(index)}", name=label)
    shown = np.format_float_scientific(value, precision=3, trim="-")
    raise NumericError(f"{label} has the value {shown} at index {index_text(index)}, beyond the {kind.name} "
                       f"range (±{float(np.finfo(kind).max):.2g})", name=label)


def all_finite(values: np.ndarray) -> bool:
    if values.size == 0:
        return True
    with np.errstate(all="ignore"):
        return bool(np.isfinite(values.min()) and np.isfinite(values.max()))


def refuse_overflow(values: np.ndarray, kind: np.dtype, stage: str, text: str | None = None) -> None:
    """Raise :class:`NumericOverflowError` when ``values`` (a stage of the computation) are not all
    finite: a NaN or inf there means the result would not be the layer's value. ``text`` says
    where (default: ``stage`` and the first bad index)."""
    if all_finite(values):
        return
    if text is None:
        first = tuple(int(i) for i in np.argwhere(~np.isfinite(values))[0])
        text = f"{stage} is not finite at index {index_text(first)}"
    raise NumericOverflowError(f"overflow in {kind.name}: {text}", stage=stage, dtype=kind.name)


def agree(what: str, expected: int, got: int, name: str) -> None:
    if expected != got:
        raise NumericError(f"{name} has {what} = {got}; expected {expected} to match the other arrays",
                           name=name)


def as_rows(X: Any, kind: np.dtype) -> tuple[np.ndarray, bool]:
    """X as (N, d), and whether it was one row (so the result is returned as one row)."""
    X = real_array("X", X, (1, 2), kind)
    return (X[None, :], True) if X.ndim == 1 else (X, False)


def contiguous(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return a if a.dtype == dtype and a.flags.c_contiguous else np.ascontiguousarray(a, dtype=dtype)

