"""The options the checkpoint commands share, each group built once and passed as one value.

* :class:`InputRows` — where the rows X come from: a file or an array, else random normal rows;
* :class:`Resources` — what the work may use: memory per layer task, a dask cluster, a time budget.

``model_report``, ``equiv``, ``transform`` and ``canonical`` take ``rows=`` and ``run=``; the
command line builds both from its options. The settings may also be given one by one, as
keywords (``model_report(path, tokens=64, memory="64MiB")``): :func:`grouped` puts each into its
group, the dataclasses' defaults filling the rest, so there is one place for every default.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import NumericError
from symcheck.numeric.planner import DEFAULT_MEMORY

__all__ = ["DEFAULT_TOKENS", "ClusterSettings", "InputRows", "Resources", "RowSettings", "Settings", "grouped",
           "inputs_for"]

#: random input rows when neither inputs nor tokens are given (a command may choose its own)
DEFAULT_TOKENS = 128


@dataclass(frozen=True, eq=False)  # eq=False: an array of rows has no single truth value
class InputRows:
    """The rows X the layers are evaluated on: ``inputs`` (a ``.npy``, ``.npz`` or
    ``.safetensors`` file, or an array of rows), else ``tokens`` random normal rows drawn with
    ``seed`` (None: the command's own number of rows)."""

    inputs: str | Path | np.ndarray | None = None
    tokens: int | None = None
    seed: int | None = 0

    def rows(self, d: int, default_tokens: int = DEFAULT_TOKENS) -> tuple[np.ndarray, str]:
        """X (rows, d) as float64, and what it is (:func:`inputs_for`)."""
        tokens = default_tokens if self.inputs is None and self.tokens is None else self.tokens
        return inputs_for(d, self.inputs, tokens, self.seed)


@dataclass(frozen=True)
class Resources:
    """What the work may use: ``memory`` per layer task (bytes, or text such as ``"256MiB"``),
    ``workers`` local dask processes or an existing cluster at ``scheduler`` (neither: serially,
    in this process), and ``timeout`` seconds for each symbolic check."""

    memory: int | str = DEFAULT_MEMORY
    workers: int | None = None
    scheduler: str | None = None
    timeout: float = DEFAULT_TIMEOUT

    @property
    def serial(self) -> bool:
        return self.workers is None and self.scheduler is None


class RowSettings(TypedDict, total=False):
    """:class:`InputRows`' fields, as keywords."""

    inputs: str | Path | np.ndarray | None
    tokens: int | None
    seed: int | None


class Settings(RowSettings, total=False):
    """The keywords of a command that runs in this process: the rows, the memory, the time budget."""

    memory: int | str
    timeout: float


class ClusterSettings(Settings, total=False):
    """The keywords of a command that may run its layers on dask."""

    workers: int | None
    scheduler: str | None


_ROW_KEYS = frozenset(f.name for f in fields(InputRows))
_RUN_KEYS = frozenset(f.name for f in fields(Resources))


def grouped(rows: InputRows | None, run: Resources | None, settings: Mapping[str, Any], *,
            cluster: bool = True) -> tuple[InputRows, Resources]:
    """The two groups a call gives: as passed, or built from keyword ``settings`` (a group and
    its keywords together is an error, as is a keyword no group has). ``cluster``: whether the
    command can run on dask (else workers and scheduler are refused, never silently ignored)."""
    known = _ROW_KEYS | (_RUN_KEYS if cluster else _RUN_KEYS - {"workers", "scheduler"})
    unknown = sorted(set(settings) - known)
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    row_settings = {k: v for k, v in settings.items() if k in _ROW_KEYS}
    run_settings = {k: v for k, v in settings.items() if k in _RUN_KEYS}
    if rows is not None and row_settings:
        raise TypeError(f"give rows or {', '.join(sorted(row_settings))}, not both")
    if run is not None and run_settings:
        raise TypeError(f"give run or {', '.join(sorted(run_settings))}, not both")
    rows = InputRows(**row_settings) if rows is None else rows
    run = Resources(**run_settings) if run is None else run
    if not cluster and not run.serial:
        raise TypeError("this command runs in this process: workers and scheduler do not apply")
    return rows, run


def inputs_for(d: int, inputs: str | Path | np.ndarray | None, tokens: int | None,
               seed: int | None) -> tuple[np.ndarray, str]:
    """X (rows, d) as float64 and what it is: a file's tensor, an array, or random normal rows."""
    if inputs is not None and tokens is not None:
        raise NumericError("give inputs or tokens, not both", name="inputs")
    if inputs is None:
        n = DEFAULT_TOKENS if tokens is None else tokens
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise NumericError(f"tokens must be a whole number ≥ 1, not {n!r}", name="tokens")
        rng = np.random.default_rng(0 if seed is None else seed)
        return rng.standard_normal((n, d)), f"{n} random normal rows, seed {0 if seed is None else seed}"
    if isinstance(inputs, np.ndarray):
        array, where = inputs, "the given array"
        if array.ndim == 1:
            array = array[None, :]
        if array.ndim != 2 or array.shape[1] != d or array.shape[0] == 0:
            raise NumericError(f"inputs have shape {array.shape}; expected (tokens, {d})", name="inputs")
    else:
        from symcheck.numeric.weights import load_inputs
        array, where = load_inputs(inputs, d)
    if array.dtype.kind not in "fiu":
        raise NumericError(f"inputs have dtype {array.dtype}; expected real numbers", name="inputs")
    X = np.ascontiguousarray(array, dtype=np.float64)
    if not (np.isfinite(X.min()) and np.isfinite(X.max())):
        raise NumericError(f"inputs ({where}) hold a value that is not finite", name="inputs")
    return X, where
