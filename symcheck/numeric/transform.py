"""``symcheck transform DIR -o OUT``: a checkpoint moved along its weight-symmetry group.

For every MLP layer the element g = (P, a, λ) (:mod:`symcheck.numeric.layer_elements`) is proved a
member of the layer's group before anything is written; then the source's files are copied and
each layer's unit tensors rewritten in place, a block of rows at a time within ``memory``: unit i
of the output is unit P[i] of the scaled source, in the tensor's own dtype, rounded once. The
report gives, per layer, the largest relative change of the layer's output on the input rows
(‖f_OUT(x) − f_DIR(x)‖ / ‖f_DIR(x)‖, float64): the rounding the transformation introduced.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Unpack, cast

import numpy as np

from symcheck.core.errors import NumericError
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.engine.group.layer import LayerGroup, layer_group
from symcheck.engine.group.layer_forms import LayerForm
from symcheck.numeric.architectures import Factor, MlpLayer, Model, open_model
from symcheck.numeric.checkpoint_writer import copy_directory, narrow, rows_view, widen
from symcheck.numeric.layer_elements import Element, prove_element, read_elements
from symcheck.numeric.model_report import layer_output
from symcheck.numeric.options import InputRows, Resources, Settings, grouped
from symcheck.numeric.planner import parse_memory, size_text
from symcheck.numeric.safetensors_io import TensorInfo, open_checkpoint

__all__ = ["PER_ENTRY", "LayerChange", "TransformReport", "WrittenCheckpoint", "apply_element", "check_budget",
           "figure_text", "layer_groups", "output_change", "range_text", "transform", "write_elements"]

#: bytes one entry of a block costs while it is rewritten: the gathered bits, float64, the
#: rounding's temporaries (BF16's round-to-odd holds six arrays) and the rounded bits
PER_ENTRY = 64
DEFAULT_TOKENS = 32
Progress = Callable[[str], None]


@dataclass(frozen=True)
class LayerChange:
    """What one layer's element was, and the rounding it introduced."""

    index: int
    permuted: bool
    gate: tuple[float, float] | None        # the range of a over the units
    value: tuple[float, float] | None       # the range of λ
    c: tuple[float, float] | None           # the range of G_σ's c
    rounding: float | None                  # max over rows of ‖f′ − f‖/‖f‖; None: ‖f‖ = 0 somewhere it changed

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "permuted": self.permuted,
                "gate_scale": None if self.gate is None else list(self.gate),
                "value_scale": None if self.value is None else list(self.value),
                "c": None if self.c is None else list(self.c), "rounding": self.rounding}


@dataclass(frozen=True)
class WrittenCheckpoint(Renderable):
    """A checkpoint written by moving a model along its groups (transform, canonical): where it
    went, what each layer underwent (``layers``, each with its ``rounding``), the inputs used."""

    source: Path
    output: Path
    architecture: str
    groups: tuple[LayerGroup, ...]
    layers: tuple[Any, ...]
    inputs: str
    memory: int
    files: int
    skipped: tuple[str, ...]
    elapsed: float

    @property
    def rounding(self) -> float | None:
        """The largest of the layers' roundings (None when one is undefined)."""
        values = [layer.rounding for layer in self.layers]
        return None if any(v is None for v in values) else max(values, default=0.0)

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))


@dataclass(frozen=True)
class TransformReport(WrittenCheckpoint):
    """A transformed checkpoint: where it went, each layer's element (LayerChange) and the rounding."""

    def table(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The layers as plain text cells (head, rows), for the LaTeX and HTML renderers."""
        return (("layer", "permuted", "gate a", "value λ", "c", "rounding"),
                tuple((str(layer.index), "yes" if layer.permuted else "no", range_text(layer.gate),
                       range_text(layer.value), range_text(layer.c), figure_text(layer.rounding))
                      for layer in self.layers))

    def to_dict(self) -> dict[str, Any]:
        return {"source": str(self.source), "output": str(self.output), "architecture": self.architecture,
                "groups": [{"activation": g.activation.name, "form": g.form.value, "complete": g.complete,
                            "gate": g.gate_values()} for g in self.groups],
                "layers": [layer.to_dict() for layer in self.layers], "rounding": self.rounding,
                "inputs": self.inputs, "memory": self.memory, "files": self.files, "skipped": list(self.skipped),
                "elapsed_seconds": round(self.elapsed, 4)}


def figure_text(value: float | None) -> str:
    """A rounding figure, as the table cells and the plain text show it."""
    return "n/a" if value is None else f"{value:.2e}"


def range_text(values: tuple[float, float] | None) -> str:
    """The range of a per-unit scale (None: every unit 1), as the table cells and the plain text show it."""
    if values is None:
        return "= 1"
    low, high = values
    return f"= {low:g}" if low == high else f"in [{low:g}, {high:g}]"


# ---- the groups and the elements ------------------------------------------------------------------

def layer_groups(model: Model, timeout: float) -> dict[tuple[str, LayerForm], LayerGroup]:
    """The layer group of each (σ, form) the model has, computed once."""
    kinds = dict.fromkeys((layer.activation, layer.form) for layer in model.layers)
    return {kind: layer_group(kind[0], kind[1], timeout=timeout) for kind in kinds}


def _elements(model: Model, groups: dict[tuple[str, LayerForm], LayerGroup], permute: Any, scale_value: Any,
              scale_gate: Any) -> list[Element]:
    count, ms = len(model.layers), {layer.m for layer in model.layers}
    m = ms.pop() if len(ms) == 1 else None
    if m is None:
        raise NumericError("the layers have different widths m; give the elements per layer", name="permute")
    if scale_value is not None and model.architecture.form is not LayerForm.GATED:
        raise NumericError(f"--scale-value: the {model.architecture.name} MLP is plain, σ(k_j·x + b_j)·v_j, and has no "
                           "value path; scale its gate with --scale-gate", name="scale-value")
    P = read_elements(permute, "permute", count, m)
    values = read_elements(scale_value, "scale-value", count, m)
    gates = read_elements(scale_gate, "scale-gate", count, m)
    return [prove_element(groups[layer.activation, layer.form], layer.index, m, P.get(layer.index),
                          gates.get(layer.index), values.get(layer.index)) for layer in model.layers]


# ---- rewriting ------------------------------------------------------------------------------------

def _rows(width: int, budget: int) -> int:
    return max(1, budget // (PER_ENTRY * max(width, 1)))


def _flush(target: np.ndarray) -> None:
    """Write a rewritten block back: a block of at least one row (m ≥ 1) is a memory map."""
    assert isinstance(target, np.memmap)
    target.flush()


def _rewrite(factor: Factor, outputs: dict[str, TensorInfo], scale: np.ndarray | None, order: np.ndarray, m: int,
             budget: int) -> None:
    """Unit i of the output := unit order[i] of the factor times scale[order[i]], a block at a time
    (``outputs``: the output checkpoint's tensors, whose headers are the source's)."""
    info, dtype = factor.tensor, factor.tensor.dtype
    out = outputs[info.name]
    multiplier = None if scale is None else scale[order]
    if factor.units_axis == 0:
        step = _rows(info.shape[1], budget)
        for i0 in range(0, m, step):
            i1 = min(i0 + step, m)
            source = rows_view(info, 0, info.shape[0])
            block = widen(np.asarray(source[order[i0:i1] + factor.start]), dtype)
            del source  # unmapped: only this block's pages were touched
            if multiplier is not None:
                block *= multiplier[i0:i1, None]
            target = rows_view(out, factor.start + i0, factor.start + i1, writable=True)
            target[...] = narrow(block, dtype)
            _flush(target)
            del target, block
    else:
        rows, step = info.shape[0], _rows(info.shape[1], budget)
        columns = order + factor.start
        for r0 in range(0, rows, step):
            r1 = min(r0 + step, rows)
            source = rows_view(info, r0, r1)
            block = widen(np.asarray(source[:, columns]), dtype)
            del source
            if multiplier is not None:
                block *= multiplier[None, :]
            target = rows_view(out, r0, r1, writable=True)
            target[:, factor.start:factor.start + m] = narrow(block, dtype)
            _flush(target)
            del target, block
    if factor.bias is not None:
        bias = widen(np.asarray(rows_view(factor.bias, 0, m))[:, 0][order], factor.bias.dtype)
        if multiplier is not None:
            bias *= multiplier
        target = rows_view(outputs[factor.bias.name], 0, m, writable=True)
        target[:, 0] = narrow(bias, factor.bias.dtype)
        _flush(target)
        del target


def apply_element(layer: MlpLayer, out_tensors: dict[str, TensorInfo], element: Element, budget: int) -> None:
    """Rewrite one layer's unit tensors in the output checkpoint (``out_tensors``: its headers)."""
    if element.is_identity:
        return
    order = np.arange(layer.m) if element.permutation is None else element.permutation
    multipliers = element.multipliers(layer.form, layer.m)
    for role in ("query", "key", "value"):
        factor = getattr(layer, role)
        if factor is None:
            continue
        _rewrite(factor, out_tensors, multipliers.get(role), order, layer.m, budget)


def transform(directory: str | Path | Model, output: str | Path, *, permute: Any = None, scale_value: Any = None,
              scale_gate: Any = None, rows: InputRows | None = None, run: Resources | None = None,
              groups: dict[tuple[str, LayerForm], LayerGroup] | None = None,
              progress: Progress | None = None, **settings: Unpack[Settings]) -> TransformReport:
    """Write ``output``: the model of ``directory`` moved by the elements given (module docstring).

    ``permute``, ``scale_value``, ``scale_gate``: ``.npz`` files keyed by layer index or ``.npy``
    files for every layer (scales indexed by the source's units; unit i of the output is unit
    P[i] of the scaled model). Every element is proved a member first (IllegalElement otherwise).
    ``rows``: the input rows the change of each layer's output is measured on (32 random ones by
    default); ``run``: the memory and the time budget of each G_σ (it runs in this process). The
    fields of both may be given as keywords instead (:mod:`symcheck.numeric.options`).
    ``groups``: the layer groups by (σ, form), when already computed (:func:`layer_groups`).
    """
    rows, run = grouped(rows, run, settings, cluster=False)
    started = time.perf_counter()
    budget = parse_memory(run.memory)
    model = directory if isinstance(directory, Model) else open_model(directory)
    check_budget(model, budget)
    groups = layer_groups(model, run.timeout) if groups is None else groups
    elements = _elements(model, groups, permute, scale_value, scale_gate)  # proved before anything is written
    X, source = rows.rows(model.layers[0].d, DEFAULT_TOKENS)
    written, skipped, result = write_elements(model, output, elements, budget, progress)
    changes = tuple(_change(a, b, element, X, budget)
                    for a, b, element in zip(model.layers, result.layers, elements, strict=True))
    return TransformReport(model.directory, Path(output), model.architecture.name, tuple(groups.values()), changes,
                           source, budget, len(written), skipped, time.perf_counter() - started)


def check_budget(model: Model, budget: int) -> None:
    """A budget too small for one row of the widest unit tensor is an error before any work."""
    widest = max(max(f.tensor.shape[1] for f in (layer.key, layer.value, layer.query) if f is not None)
                 for layer in model.layers)
    if budget < PER_ENTRY * widest:
        raise NumericError(f"the memory budget {size_text(budget)} is too small: one row of {widest} entries needs "
                           f"{size_text(PER_ENTRY * widest)}", name="memory")


def write_elements(model: Model, output: str | Path, elements: list[Element], budget: int,
                   progress: Progress | None = None) -> tuple[tuple[Path, ...], tuple[str, ...], Model]:
    """Copy the model's directory to ``output`` and apply each layer's (proved) element there;
    the files written, the names left out, and the output model."""
    written, skipped = copy_directory(model.directory, Path(output), model.checkpoint.files)
    out_tensors = dict(open_checkpoint(output).tensors)
    for layer, element in zip(model.layers, elements, strict=True):
        apply_element(layer, out_tensors, element, budget)
        if progress is not None:
            progress(f"layer {layer.index}")
    return written, skipped, open_model(output)


def _span(values: np.ndarray | None) -> tuple[float, float] | None:
    return None if values is None else (float(values.min()), float(values.max()))


def _change(before: MlpLayer, after: MlpLayer, element: Element, X: np.ndarray, budget: int) -> LayerChange:
    return LayerChange(before.index, element.permutation is not None, _span(element.gate), _span(element.value),
                       _span(element.c), output_change(before, after, X, budget))


def output_change(before: MlpLayer, after: MlpLayer, X: np.ndarray, budget: int) -> float | None:
    """max over rows of ‖f_after(x) − f_before(x)‖ / ‖f_before(x)‖ (float64); None when a row with
    f_before(x) = 0 changed."""
    y0 = layer_output(before, X, budget)
    y1 = layer_output(after, X, budget)
    worst = 0.0
    for row0, row1 in zip(y0, y1, strict=True):
        reference, difference = float(np.linalg.norm(row0)), float(np.linalg.norm(row1 - row0))
        if reference == 0.0:
            if difference != 0.0:
                return None
            continue
        worst = max(worst, difference / reference)
    return worst if math.isfinite(worst) else None
