"""A Hugging Face model's MLP layers, one by one: form, σ, symbolic verdicts, and what the
broken symmetries cost on the layer's own weights.

For every chosen layer, on the same input rows X (``inputs`` or ``tokens`` random normal rows
drawn with ``seed``), f is the block's output including its biases, computed by symcheck's
evaluator (:mod:`symcheck.numeric.kernels`, σ from the catalogue's SymPy definition):

* ``exchange_defect`` (gated only): ‖f′ − f‖_F / ‖f‖_F, f′ with the gate and up rows of every
  unit swapped (their biases too);
* ``rescaling_residual``: the same, f′ with every unit's key multiplied by 2 and its value
  divided by 2 (the key's bias entry too). Both scalings are exact in binary floating point,
  so where key–value rescaling is a symmetry the residual is rounding, about 1e-16, or 0;
* ``relative_error``: ‖f − f_ref‖_F / ‖f_ref‖_F against the block computed again as the
  framework writes it (:mod:`symcheck.numeric.mlp_reference`): a check on the reading — σ as
  the config names it to the framework against the catalogue's, and which projection it is
  applied to. A gated block's reference shares the two input products x·gate and x·up with f
  (recomputing them gave the same numbers, bit for bit) unless the layer has biases, which it
  adds to its own products; an MLP's reference computes everything again.

The verdicts are the engine's (:mod:`symcheck.engine.symmetries`), once per activation and
form: exchange and inverse scaling (α > 0, α = −1) for gated units — an MLP has no query
factor, so those two are ``None`` there — and key–value rescaling (β > 0) for both.

Memory: weights stay in their files (memory-mapped a block at a time); a layer is worked
through in chunks of units and blocks of rows cut so that the arrays held at once, the
evaluator's included, stay within ``memory`` (:func:`cut`). The symbolic checks are bounded by
``timeout``, not by ``memory``. With ``workers`` or ``scheduler`` the layers (and the
verdicts) run as tasks on dask (:mod:`symcheck.numeric.distributed`), each task within
``memory``; the cut does not depend on where a layer runs, and the BLAS works on one thread
everywhere, so neither do the figures: more cores are used by running more layers at once.
"""
from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Unpack, cast

import numpy as np

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import NumericError
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.engine.check_result import CheckResult
from symcheck.engine.group.layer_forms import LayerForm
from symcheck.engine.symmetries import check, check_exchange, check_inverse_scaling
from symcheck.language.activations import Activation, activation
from symcheck.language.layer_formulations import Formulation, Sizes, formulation
from symcheck.language.transformations import Transformation, TransformationKind, domain
from symcheck.numeric import mlp_reference
from symcheck.numeric.architectures import Architecture, MlpLayer, Model, open_model
from symcheck.numeric.arrays import refuse_overflow
from symcheck.numeric.kernels import mlp
from symcheck.numeric.layer_chunks import Buffers, Chunk, chunks, refuse_non_finite_units
from symcheck.numeric.options import DEFAULT_TOKENS, ClusterSettings, InputRows, Resources, grouped, inputs_for
from symcheck.numeric.planner import DEFAULT_MEMORY, parse_memory, size_text
from symcheck.numeric.safetensors_io import read_block
from symcheck.numeric.vocabulary import LayerVerdictKey

__all__ = ["DEFAULT_TOKENS", "VERDICTS", "LayerFigures", "LayerRecord", "ModelReport", "Cut", "cut",
           "model_report", "measure_layer", "layer_output", "layer_verdicts", "parse_layers", "inputs_for"]

_T = TransformationKind
#: the verdicts of a layer, by key: (transformation, its scale's domain, forms it applies to)
VERDICTS: Mapping[LayerVerdictKey, tuple[TransformationKind, str | None, tuple[LayerForm, ...]]] = MappingProxyType({
    LayerVerdictKey.EXCHANGE: (_T.EXCHANGE, None, (LayerForm.GATED,)),
    LayerVerdictKey.INVERSE_SCALING_POSITIVE: (_T.INVERSE_SCALING, "positive", (LayerForm.GATED,)),
    LayerVerdictKey.INVERSE_SCALING_MINUS_ONE: (_T.INVERSE_SCALING, "-1", (LayerForm.GATED,)),
    LayerVerdictKey.KEY_VALUE_RESCALING: (_T.KEY_VALUE_RESCALING, "positive", (LayerForm.GATED, LayerForm.MLP)),
})
#: the unit statement each form's verdicts are decided on (an MLP unit is σ(x·k)·v)
_UNIT = {LayerForm.GATED: "gated", LayerForm.MLP: "sigma(b)"}
#: bytes per float64
_S = 8
#: the factor scaling the keys (and dividing the values): a power of two, so both are exact
_BETA = 2.0
#: a row block whose rows are a multiple of this goes through V as one product of f, the exchanged
#: f and the reference's hidden rows stacked (:func:`_gated_chunk`)
_STACKED_ROWS = 16
#: the evaluator's working memory per (row, unit) beyond its output: the planner counts 15 for
#: the gated route (two pre-activations, σ's output and σ's workspace), one more for margin
_EVALUATOR_PER_ROW_UNIT = 16


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class LayerFigures:
    """What measuring one layer gives: plain numbers (they travel back from dask workers)."""

    index: int
    exchange_defect: float | None
    rescaling_residual: float | None
    relative_error: float | None
    output_norm: float
    blocks: int
    chunks: int


@dataclass(frozen=True)
class LayerRecord:
    """One MLP layer of the report, with its typed form, activation, sizes and verdicts."""

    index: int
    prefix: str
    form: Formulation
    activation: Activation
    hf_activation: str
    sizes: Sizes
    verdicts: Mapping[LayerVerdictKey, CheckResult | None]
    exchange_defect: float | None
    rescaling_residual: float | None
    relative_error: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "tensors": self.prefix, "form": self.form.name,
                "activation": self.activation.name, "hf_activation": self.hf_activation,
                "sizes": {"d": self.sizes.d, "m": self.sizes.m, "e": self.sizes.e},
                "verdicts": {k.value: None if r is None else r.verdict.value for k, r in self.verdicts.items()},
                "exchange_defect": self.exchange_defect, "rescaling_residual": self.rescaling_residual,
                "relative_error": self.relative_error}


@dataclass(frozen=True)
class ModelReport(Renderable):
    """Every chosen MLP layer of one checkpoint, measured on the same inputs."""

    directory: Path
    name: str
    architecture: Architecture
    layers: tuple[LayerRecord, ...]
    count: int            # MLP layers in the model
    tokens: int
    inputs: str           # where X came from
    memory: int
    runner: str           # "serial", "dask, 2 local workers", "dask at ADDRESS"
    elapsed: float
    #: (file as the directory names it, the file it leads to) for every link followed
    links: tuple[tuple[Path, Path], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"model": str(self.directory), "name": self.name, "architecture": self.architecture.name,
                "layers_in_model": self.count, "tokens": self.tokens, "inputs": self.inputs,
                "memory": self.memory, "runner": self.runner, "elapsed": round(self.elapsed, 3),
                "links": [{"file": str(f), "target": str(t)} for f, t in self.links],
                "layers": [layer.to_dict() for layer in self.layers]}

    def link_lines(self) -> tuple[str, ...]:
        """'file → target' for every link followed, for the renderers."""
        return tuple(f"{f.name} → {t}" for f, t in self.links)

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))

    def __repr__(self) -> str:
        return f"<ModelReport {self.name} ({self.architecture.name}): {len(self.layers)} layers>"


# --------------------------------------------------------------------------- verdicts


@functools.lru_cache(maxsize=64)
def layer_verdicts(act: Activation, form: LayerForm, timeout: float = DEFAULT_TIMEOUT
                   ) -> tuple[tuple[LayerVerdictKey, CheckResult | None], ...]:
    """The symbolic verdicts for σ on ``form`` (``gated`` or ``mlp``), as (key, result) pairs;
    a transformation that does not apply to the form has None. Cached: once per activation."""
    unit = _UNIT[form]
    out: list[tuple[LayerVerdictKey, CheckResult | None]] = []
    for key, (kind, where, forms) in VERDICTS.items():
        if form not in forms:
            out.append((key, None))
        elif kind is _T.EXCHANGE:
            out.append((key, check_exchange(act, unit, timeout=timeout)))
        elif kind is _T.INVERSE_SCALING:
            out.append((key, check_inverse_scaling(act, where, unit, timeout=timeout)))
        else:
            out.append((key, check(act, Transformation(kind, domain(where)), unit, timeout=timeout)))
    return tuple(out)


# --------------------------------------------------------------------------- inputs and layers


_LAYERS = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_layers(text: str, count: int) -> tuple[int, ...]:
    """``"0,3-5"`` → (0, 3, 4, 5): indices and inclusive ranges, each within the model's count.

    >>> parse_layers("0,3-5", 8)
    (0, 3, 4, 5)
    """
    chosen: set[int] = set()
    for item in str(text).split(","):
        match = _LAYERS.match(item)
        if not match:
            raise NumericError(f"layers {text!r}: {item.strip()!r} is not an index or a range; expected "
                               "indices and ranges such as 0,3-5", name="layers")
        lo, hi = int(match[1]), int(match[2] if match[2] is not None else match[1])
        if hi < lo:
            raise NumericError(f"layers {text!r}: the range {lo}-{hi} is empty; write it as {hi}-{lo}",
                               name="layers")
        if hi >= count:
            raise NumericError(f"layers {text!r}: the model has {count} MLP layers (0–{count - 1})",
                               name="layers")
        chosen.update(range(lo, hi + 1))
    return tuple(sorted(chosen))


def _chosen(model: Model, layers: str | Iterable[int] | None) -> tuple[MlpLayer, ...]:
    count = len(model.layers)
    if layers is None:
        return model.layers
    if isinstance(layers, str):
        indices = parse_layers(layers, count)
    else:
        indices = tuple(sorted(set(layers)))
        for i in indices:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < count:
                raise NumericError(f"layer {i!r}: the model has {count} MLP layers (0–{count - 1})",
                                   name="layers")
    if not indices:
        raise NumericError("no layers chosen", name="layers")
    return tuple(model.layers[i] for i in indices)


# --------------------------------------------------------------------------- memory


@dataclass(frozen=True)
class Cut:
    """How one layer is worked through: row blocks, unit chunks, and the evaluator's share."""

    rows: int            # rows of X per block
    units: int           # units per chunk
    evaluator: int       # bytes each evaluator call may use (one of them runs at a time)
    map_bytes: int       # bytes of a file mapped at once
    bytes: int           # what the cut holds at most, X and the evaluator's share included


def _held(n: int, c: int, d1: int, e: int, map_bytes: int) -> int:
    """Bytes the layer loop holds besides X and the evaluator: four output accumulators (and
    the reference's block), a chunk's factors and their rescaled copies, the copies made while
    reading (transposed, extended, BF16 widened), the reference's (rows × units) temporaries
    and the mapped file pages. (Reading into reused arrays holds less than this: the factors
    and the values / β once, and a scratch of at most ``map_bytes``; the 3·c·max(d1, e) of
    copies made while reading are not made, and the gated route's stacked product through V
    (2·n·e more than one block's) is held in their place, only when it fits there. The gated
    route calls no evaluator: its pre-activations, hidden values and products through V take
    the evaluator's share. Kept as it was, so that the cut, and with it every figure, stays the
    same.)"""
    return (_S * (5 * n * e + 8 * n * c + c * (2 * d1 + e) + c * (d1 + e) + 3 * c * max(d1, e))
            + 3 * map_bytes)


def cut(rows: int, d: int, m: int, e: int, memory: int | str, *, biased: bool = False) -> Cut:
    """The largest row blocks (then unit chunks) that keep one layer within ``memory``: X (and
    its extended copy), the loop's arrays and one evaluator call at a time, which is given
    what the planner needs for a chunk, so that it works through it in one piece."""
    budget = parse_memory(memory)
    d1 = d + biased
    fixed = _S * rows * (d + (d1 if biased else 0))
    map_bytes = max(1, min(16 * 2**20, budget // 32))

    def evaluator(n: int, c: int) -> int:
        return _S * n * (e + _EVALUATOR_PER_ROW_UNIT * c) + _S * c * (2 * d1 + e)

    def total(n: int, c: int) -> int:
        return fixed + _held(n, c, d1, e, map_bytes) + evaluator(n, c)

    if total(1, 1) > budget:
        raise NumericError(f"the memory budget {size_text(budget)} is too small for a layer with d = {d}, "
                           f"m = {m}, e = {e} and {rows} input rows: it needs at least "
                           f"{size_text(total(1, 1))}", name="memory")
    n = _largest(lambda k: total(k, 1) <= budget, rows)
    c = _largest(lambda k: total(n, k) <= budget, m)
    return Cut(n, c, evaluator(n, c), map_bytes, total(n, c))


def _largest(fits: Callable[[int], bool], upper: int) -> int:
    lo, hi = 1, upper
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    return lo


# --------------------------------------------------------------------------- one layer


def _relative(difference: float, reference: float) -> float | None:
    """‖a − b‖ / ‖b‖ from sums of squares; None when ‖b‖ = 0 but the difference is not."""
    if reference == 0.0:
        return 0.0 if difference == 0.0 else None
    return math.sqrt(difference / reference)


def measure_layer(layer: MlpLayer, X: np.ndarray, memory: int | str, act: Activation | None = None,
                  buffers: Buffers | None = None) -> LayerFigures:
    """The layer's figures on the rows X (float64, (N, d)), within ``memory``. ``buffers``: the
    work arrays, reused from layer to layer by a caller that measures several in turn (fresh
    arrays may cost their page faults again on every layer)."""
    return _sweep(layer, X, memory, act, keep=False, buffers=buffers)[0]


def layer_output(layer: MlpLayer, X: np.ndarray, memory: int | str = DEFAULT_MEMORY,
                 act: Activation | None = None) -> np.ndarray:
    """f(X), the block's output with its biases, as symcheck evaluates it (for inspection and
    tests: the (N, e) result itself is held, beyond ``memory``)."""
    output = _sweep(layer, X, memory, act, keep=True)[1]
    assert output is not None  # keep=True: the output is kept
    return output


def _sweep(layer: MlpLayer, X: np.ndarray, memory: int | str, act: Activation | None,
           keep: bool, buffers: Buffers | None = None) -> tuple[LayerFigures, np.ndarray | None]:
    # One BLAS thread: a chunk's products are small, and a threaded BLAS spends more time waiting
    # than computing on them (40× slower seen on a busy two-core machine); the same arithmetic
    # wherever the layer runs, too. More cores: more layers at once (``workers``).
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        return _sweep_on(layer, X, memory, act, keep, buffers)
    with threadpool_limits(limits=1, user_api="blas"):
        return _sweep_on(layer, X, memory, act, keep, buffers)


def _gated_chunk(layer: MlpLayer, Xb: np.ndarray, Xplain: np.ndarray, chunk: Chunk,
                 sigma: Callable[[np.ndarray], np.ndarray], sums: dict[str, np.ndarray],
                 buffers: Buffers, where: str) -> None:
    """Add a chunk's share of f, the exchanged f, the rescaled f and the reference f to ``sums``.

    The two pre-activations a = x·Q, b = x·K and their images under the evaluator's σ are
    computed once and shared by f = σ(a)·b, the exchanged σ(b)·a and the rescaled
    (σ(a)·βb)(V/β), computed as such: both scalings are exact, which the residual measures.
    The reference's hidden values are the framework's σ (:mod:`~symcheck.numeric.mlp_reference`)
    on the same a and b — without biases its own x·Q and x·K would be the very same products,
    bit for bit — or, with biases, on its own products with the biases added after them (the
    evaluator carries them as an extra column of x): what it checks independently is σ, which
    projection σ is applied to, and the biases. The three go through V in one product of 3N
    rows when N is a multiple of :data:`_STACKED_ROWS` (V streamed once instead of three
    times: about a fifth less time for the three) and the larger product fits what the cut
    counts for copies the reused arrays do not make (:func:`_held`); else each in a product of
    its own. The BLAS does not promise a row's result whatever the rows beside it: with an odd
    number of rows the stacked figures differed in the last bits; with a multiple of 16, each
    row lies at the same place in the kernels' register tiles either way (every even count
    gave the same figures to the bit on OpenBLAS's Haswell kernels; its SkylakeX small-matrix
    kernels, for small N, differ in the last bits: tested in
    ``tests/numeric/test_model_stacked_products.py``). Every stage is checked finite, as the evaluator
    checks it."""
    Q, K, V, Vb = chunk.query, chunk.key, chunk.value, chunk.value_over_beta
    assert Q is not None
    n, c, d = Xb.shape[0], Q.shape[0], layer.d
    with np.errstate(over="ignore", invalid="ignore"):
        a = np.matmul(Xb, Q.T, out=buffers.get("a", (n, c)))
        b = np.matmul(Xb, K.T, out=buffers.get("b", (n, c)))
        refuse_overflow(a, a.dtype, "the pre-activations", f"the pre-activations of {where} are not finite")
        refuse_overflow(b, b.dtype, "the pre-activations", f"the pre-activations of {where} are not finite")
        sa, sb = sigma(a), sigma(b)
        hidden = buffers.get("hidden", (3 * n, c))
        np.multiply(sa, b, out=hidden[:n])
        np.multiply(sb, a, out=hidden[n:2 * n])
        for rows in (hidden[:n], hidden[n:2 * n]):
            refuse_overflow(rows, rows.dtype, "the hidden activations",
                            f"the hidden activations of {where} are not finite")
        if layer.biased:
            mlp_reference.gated_hidden(
                mlp_reference.affine(Xplain, Q[:, :d], Q[:, d]), mlp_reference.affine(Xplain, K[:, :d], K[:, d]),
                layer.hf_activation, out=hidden[2 * n:])
        else:
            mlp_reference.gated_hidden(a, b, layer.hf_activation, out=hidden[2 * n:])
        e = V.shape[1]
        if _stacks(n, c, Q.shape[1], e):
            out = np.matmul(hidden, V, out=buffers.get("out", (3 * n, e)))
            for k, name in enumerate(("f", "swap", "ref")):
                sums[name] += out[k * n:(k + 1) * n]
        else:
            out = buffers.get("out", (n, e))
            for k, name in enumerate(("f", "swap", "ref")):
                sums[name] += np.matmul(hidden[k * n:(k + 1) * n], V, out=out)
        sa *= b * _BETA
        sums["scaled"] += np.matmul(sa, Vb, out=out[:n])


def _stacks(n: int, c: int, d1: int, e: int) -> bool:
    """Whether a block of n rows and c units goes through V as one product of 3n rows: n a
    multiple of :data:`_STACKED_ROWS`, and its 2·n·e more entries within the read copies that
    :func:`_held` counts and reading into reused arrays does not make."""
    return n % _STACKED_ROWS == 0 and 2 * n * e <= 3 * c * max(d1, e)


def _squares(sums: dict[str, np.ndarray], squares: dict[str, float]) -> None:
    """Add the block's sums of squares (‖f‖², ‖f′ − f‖² for each f′, ‖f − f_ref‖², ‖f_ref‖²),
    the differences and squares made in the sums' own arrays, which are spent afterwards (the
    budget counts the sums, not copies of them)."""
    f, ref = sums["f"], sums["ref"]
    for name in ("swap", "scaled"):
        if name in sums:
            difference = np.subtract(sums[name], f, out=sums[name])
            squares[name] += float(np.sum(np.square(difference, out=difference)))
    spare = sums["scaled"]
    squares["ref"] += float(np.sum(np.square(ref, out=spare)))
    error = np.subtract(f, ref, out=ref)
    squares["error"] += float(np.sum(np.square(error, out=error)))
    squares["f"] += float(np.sum(np.square(f, out=f)))


def _sweep_on(layer: MlpLayer, X: np.ndarray, memory: int | str, act: Activation | None,
              keep: bool, buffers: Buffers | None) -> tuple[LayerFigures, np.ndarray | None]:
    act = activation(layer.activation) if act is None else act
    sigma = act.to_numpy(np.dtype(np.float64))
    N, d = X.shape
    if d != layer.d:
        raise NumericError(f"inputs have {d} columns; layer {layer.index} takes d = {layer.d}", name="inputs")
    plan = cut(N, layer.d, layer.m, layer.e, memory, biased=layer.biased)
    X1 = np.hstack([X, np.ones((N, 1))]) if layer.biased else X
    gated_form = layer.form is LayerForm.GATED
    squares = dict.fromkeys(("f", "swap", "scaled", "error", "ref"), 0.0)
    kept = np.empty((N, layer.e)) if keep else None
    buffers = Buffers() if buffers is None else buffers
    spans = [(u0, min(u0 + plan.units, layer.m)) for u0 in range(0, layer.m, plan.units)]
    for t0 in range(0, N, plan.rows):
        t1 = min(t0 + plan.rows, N)
        Xb, Xplain = X1[t0:t1], X[t0:t1]
        sums = {k: np.zeros((t1 - t0, layer.e))
                for k in (("f", "swap", "scaled", "ref") if gated_form else ("f", "scaled", "ref"))}
        for chunk in chunks(layer, spans, plan.map_bytes, _BETA, buffers):
            K, V = chunk.key, chunk.value
            if gated_form:
                _gated_chunk(layer, Xb, Xplain, chunk, sigma, sums, buffers,
                             f"units {chunk.u0 + 1}–{chunk.u1}, rows {t0 + 1}–{t1}")
            else:
                sums["f"] += mlp(Xb, K, V, act, memory=plan.evaluator)
                sums["scaled"] += mlp(Xb, K * _BETA, chunk.value_over_beta, act, memory=plan.evaluator)
                sums["ref"] += mlp_reference.mlp_block(Xplain, K[:, :d], V, layer.hf_activation,
                                                       K[:, d] if layer.biased else None)
            del chunk, K, V
        for name in ("f", "swap", "scaled"):
            if name in sums:
                refuse_overflow(sums[name], sums[name].dtype, "the output")
        if layer.output_bias is not None:
            bias = read_block(layer.output_bias, map_bytes=plan.map_bytes)
            refuse_non_finite_units(bias[None, :], layer.output_bias.where, 0)
            for total in sums.values():
                total += bias
        if kept is not None:
            kept[t0:t1] = sums["f"]
        _squares(sums, squares)
        del sums
    figures = LayerFigures(
        layer.index,
        _relative(squares["swap"], squares["f"]) if gated_form else None,
        _relative(squares["scaled"], squares["f"]),
        _relative(squares["error"], squares["ref"]),
        math.sqrt(squares["f"]), -(-N // plan.rows), len(spans))
    return figures, kept


# --------------------------------------------------------------------------- the report


Progress = Callable[[str], None]


def model_report(path: str | Path | Model, *, layers: str | Iterable[int] | None = None,
                 rows: InputRows | None = None, run: Resources | None = None, progress: Progress | None = None,
                 follow_links: bool = True, **settings: Unpack[ClusterSettings]) -> ModelReport:
    """Read a Hugging Face model directory and report every chosen MLP layer (module docstring).

    ``layers``: indices, or text such as ``"0,3-5"`` (:func:`parse_layers`; default: all).
    ``rows``: the input rows X (:class:`~symcheck.numeric.options.InputRows`: a file or an array
    of rows, else random normal rows, 128 by default); ``run``: the memory per layer task, a
    local dask cluster of ``workers`` processes or an existing one at ``scheduler``, and the time
    budget of each symbolic check (:class:`~symcheck.numeric.options.Resources`). Their fields
    may be given as keywords instead (``tokens=64, memory="64MiB"``). ``progress`` is called
    with a label as each layer ends. ``follow_links``: follow links to regular files (listed in
    the report's ``links``), or refuse them.
    """
    rows, run = grouped(rows, run, settings)
    started = time.perf_counter()
    model = path if isinstance(path, Model) else open_model(path, follow_links=follow_links)
    chosen = _chosen(model, layers)
    d = model.layers[0].d
    X, source = rows.rows(d)
    budget = parse_memory(run.memory)
    timeout = run.timeout
    for layer in chosen:  # a budget too small is an error before any work
        cut(X.shape[0], layer.d, layer.m, layer.e, budget, biased=layer.biased)
    acts = {name: activation(name) for name in dict.fromkeys(layer.activation for layer in chosen)}
    kinds = list(dict.fromkeys((layer.activation, layer.form) for layer in chosen))
    if run.serial:
        verdicts = {kind: layer_verdicts(acts[kind[0]], kind[1], timeout) for kind in kinds}
        figures = []
        buffers = Buffers()  # one set of work arrays for every layer of a serial run
        for layer in chosen:
            figures.append(measure_layer(layer, X, budget, acts[layer.activation], buffers))
            if progress is not None:
                progress(f"layer {layer.index}")
        runner = "serial"
    else:
        from symcheck.numeric.distributed import dask_client, run_tasks
        with dask_client(run.workers, run.scheduler) as (client, runner):
            found = run_tasks(client, layer_verdicts, [(acts[a], f, timeout) for a, f in kinds])
            verdicts = dict(zip(kinds, found, strict=True))
            figures = run_tasks(client, measure_layer, [(layer, X, budget, acts[layer.activation])
                                                        for layer in chosen],
                                progress=progress,
                                labels=[f"layer {layer.index}" for layer in chosen])
    records = tuple(_record(layer, fig, acts[layer.activation], verdicts[(layer.activation, layer.form)])
                    for layer, fig in zip(chosen, figures, strict=True))
    return ModelReport(model.directory, model.name, model.architecture, records, len(model.layers),
                       X.shape[0], source, budget, runner, time.perf_counter() - started, model.links)


def _record(layer: MlpLayer, fig: LayerFigures, act: Activation,
            verdicts: tuple[tuple[LayerVerdictKey, CheckResult | None], ...]) -> LayerRecord:
    return LayerRecord(layer.index, layer.prefix, formulation(layer.form), act, layer.hf_activation,
                       Sizes(d=layer.d, m=layer.m, e=layer.e), MappingProxyType(dict(verdicts)),
                       fig.exchange_defect, fig.rescaling_residual, fig.relative_error)
