"""``symcheck equiv A B``: for each MLP layer, is B = g·A for an element g of the layer's group?

Per layer the units of both checkpoints are read a block at a time within ``memory`` (the layers
on dask workers with ``workers``/``scheduler``) and g is sought:

* the permutation, by matching invariants of units — the directions of the gate, value-path and
  output rows, sign-free where the group allows a sign change — nearest neighbours in a random
  projection of them (``scipy.spatial.cKDTree``), and ``scipy.optimize.linear_sum_assignment`` on
  the units the neighbours leave in conflict;
* the scales in closed form (least squares of each row on its match), the gate scale taken to the
  nearest a the group has (a > 0 for ReLU as it is; a = 1 for SiLU) and proved a member there.

Verdicts: ``equivalent`` — g is a proved member and B differs from g·A by at most
:data:`ROUNDINGS` units of the dtype's rounding, entry by entry (the weight residual is reported);
``not equivalent`` — an input row and an output where the two layers' outputs are certified to
differ: each enclosed by ball arithmetic (Arb) from the stored weights and the row, σ enclosed
over an interval holding each unit's argument (its dot product in float64 with a rigorous
forward error bound, γ_n·|x|·|q| doubled); the row and output are found by a float64 search
whose rounding bound uses :data:`SLOPES` (a table checked on a grid: it only proposes, the
enclosures decide); ``undetermined`` otherwise, with the reason.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Unpack, cast

import numpy as np

from symcheck.core.errors import NumericError
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.core.verdict import Equivalence
from symcheck.engine.group.layer import LayerGroup
from symcheck.engine.group.layer_forms import LayerForm
from symcheck.exact.balls import arb_sign
from symcheck.numeric.architectures import Factor, MlpLayer, Model, open_model
from symcheck.numeric.checkpoint_writer import UNIT_ROUNDOFF
from symcheck.numeric.mlp_reference import ACTIVATIONS
from symcheck.numeric.options import ClusterSettings, InputRows, Resources, grouped
from symcheck.numeric.planner import DEFAULT_MEMORY, parse_memory, size_text
from symcheck.numeric.safetensors_io import TensorInfo, read_block
from symcheck.numeric.transform import Progress, layer_groups
from symcheck.numeric.unit_blocks import (
    MAP_BYTES,
    layer_factors,
    unit_block,
    unit_width,
    units_at,
)
from symcheck.numeric.unit_matching import PROJECTIONS, blocks, match_units, projections, unit_features

__all__ = ["PER_ENTRY", "ROUNDINGS", "SLOPES", "EquivReport", "LayerVerdict", "compare_layer", "equiv",
           "output_enclosure"]

#: B may differ from g·A by this many units of its dtype's rounding, entry by entry (B's own
#: rounding, and the scales' estimates from rounded rows)
ROUNDINGS = 4.0
#: sup |σ'| of each framework activation, for the search's rounding bound (the enclosures decide)
SLOPES = {"silu": 1.1, "swish": 1.1, "gelu": 1.13, "gelu_python": 1.13, "gelu_new": 1.13,
          "gelu_pytorch_tanh": 1.13, "gelu_python_tanh": 1.13, "quick_gelu": 1.1, "relu": 1.0,
          "relu6": 1.0, "leaky_relu": 1.0, "sigmoid": 0.25, "tanh": 1.0, "mish": 1.2, "hardswish": 1.5,
          "linear": 1.0}
#: float64's unit roundoff
U = 2.0**-53
DEFAULT_TOKENS = 64
#: bytes per entry of a block of units: B's rows and A's gathered ones (float64, and the stored
#: bits mapped), the scaled copy, the differences and their quotients
PER_ENTRY = 64
#: candidate (row, output) pairs certified before giving up
CANDIDATES = 3
#: bits of the witness's ball arithmetic
PRECISION = 128
VERDICTS = tuple(e.value for e in Equivalence)


@dataclass(frozen=True)
class LayerVerdict:
    """One layer: the verdict, g (for an equivalent layer), the weight residual, or the witness."""

    index: int
    verdict: Equivalence
    reason: str
    permutation: tuple[int, ...] | None = None
    value_scale: tuple[float, ...] | None = None
    gate_scale: tuple[float, ...] | None = None
    residual: float | None = None
    witness: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "verdict": self.verdict.value, "reason": self.reason,
                "permutation": None if self.permutation is None else list(self.permutation),
                "value_scale": None if self.value_scale is None else list(self.value_scale),
                "gate_scale": None if self.gate_scale is None else list(self.gate_scale),
                "residual": self.residual, "witness": self.witness}


@dataclass(frozen=True)
class EquivReport(Renderable):
    """Every layer's verdict, and the model's: equivalent when every layer is."""

    first: Path
    second: Path
    architecture: str
    layers: tuple[LayerVerdict, ...]
    inputs: str
    elapsed: float
    memory: int = DEFAULT_MEMORY
    runner: str = "serial"

    @property
    def verdict(self) -> Equivalence:
        found = {layer.verdict for layer in self.layers}
        if Equivalence.NOT_EQUIVALENT in found:
            return Equivalence.NOT_EQUIVALENT
        return Equivalence.EQUIVALENT if found == {Equivalence.EQUIVALENT} else Equivalence.UNDETERMINED

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))

    def table(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The layers as plain text cells (head, rows), for the LaTeX and HTML renderers."""
        return (("layer", "verdict", "residual", "why"),
                tuple((str(v.index), v.verdict.value, "n/a" if v.residual is None else f"{v.residual:.2f}", v.reason)
                      for v in self.layers))

    def to_dict(self) -> dict[str, Any]:
        return {"first": str(self.first), "second": str(self.second), "architecture": self.architecture,
                "verdict": self.verdict.value, "layers": [layer.to_dict() for layer in self.layers],
                "inputs": self.inputs, "roundings": ROUNDINGS, "memory": self.memory, "runner": self.runner,
                "elapsed_seconds": round(self.elapsed, 4)}


# ---- a layer's sides --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Side:
    """One model's layer as read: its factors (gate, value path or None, output), the output
    bias, the dtype of its units."""

    factors: tuple[Factor, Factor | None, Factor]
    out_bias: TensorInfo | None
    dtype: str
    m: int

    @property
    def present(self) -> tuple[Factor, ...]:
        return tuple(f for f in self.factors if f is not None)


def _side(layer: MlpLayer) -> _Side:
    return _Side(layer_factors(layer), layer.output_bias, layer.value.tensor.dtype, layer.m)


def _blocks(m: int, width: int, budget: int, per_entry: int = PER_ENTRY):
    return blocks(m, width, budget, per_entry)


# ---- finding g ------------------------------------------------------------------------------------

def _least_squares(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Per row, the s minimising ‖b − s·a‖."""
    norms = np.einsum("ij,ij->i", a, a)
    return np.einsum("ij,ij->i", a, b) / np.where(norms == 0, 1.0, norms)


def _snapped(group: LayerGroup, estimates: np.ndarray) -> np.ndarray:
    """The a of G_σ nearest each estimate (NaN: none): a finite set's nearest point within 1%,
    a half-line's own value."""
    out, distance = np.full(len(estimates), np.nan), np.full(len(estimates), np.inf)
    for component in group.group.components:
        kind = component.aset.kind
        if kind == "finite":
            for point in (float(p) for p in component.aset.points):
                gap = np.abs(estimates - point)
                closer = (gap <= 1e-2 * abs(point)) & (gap < distance)
                out[closer], distance[closer] = point, gap[closer]
        elif kind in ("all", "positive", "negative"):
            holds = estimates != 0 if kind == "all" else (estimates > 0 if kind == "positive" else estimates < 0)
            out[holds], distance[holds] = estimates[holds], 0.0
    return out


class _Gates:
    """Gate scales taken to G_σ and proved members, each distinct value once."""

    def __init__(self, group: LayerGroup) -> None:
        self.group = group
        self.cache: dict[float, float | None] = {}

    def __call__(self, estimates: np.ndarray, first_unit: int) -> tuple[np.ndarray, np.ndarray] | str:
        gates = _snapped(self.group, estimates)
        cs = np.empty(len(estimates))
        values, where = np.unique(gates, return_inverse=True)
        for k, a in enumerate(float(v) for v in values):
            if a == a and a not in self.cache:  # NaN: no a near the estimate
                membership = self.group.gate_membership(a)
                self.cache[a] = (float(membership.c) if membership.value is True and membership.c is not None
                                 else None)  # a proved member carries its c
            c = self.cache.get(a) if a == a else None
            if c is None:
                i = int(np.argmax(where.reshape(-1) == k))
                return (f"unit {first_unit + i}: the gate scale ≈ {float(estimates[i]):.6g} is no proved member "
                        f"of G_σ ({self.group.gate_values()})")
            cs[where.reshape(-1) == k] = c
        return gates, cs


def _off(b: np.ndarray, ga: np.ndarray, dtype: str) -> float:
    """max over entries of |B − g·A| / (u·|g·A|): B's distance from g·A in units of its rounding
    (computed in place: both arrays are consumed)."""
    tiny = np.finfo(np.float32).tiny if dtype != "F64" else np.finfo(np.float64).tiny
    np.subtract(b, ga, out=b)
    np.abs(b, out=b)
    np.abs(ga, out=ga)
    np.maximum(ga, tiny, out=ga)
    np.divide(b, ga, out=b)
    return float(np.max(b, initial=0.0)) / UNIT_ROUNDOFF[dtype]


def _fit(group: LayerGroup, A: _Side, B: _Side, P: np.ndarray, budget: int
         ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, float] | str:
    """The gate scales a, the value scales λ, G_σ's c and the residual of B against g·A, a block
    of B's units at a time (A's matched units gathered); or a reason."""
    a_path, b_path = A.factors[1], B.factors[1]
    width = max(unit_width(f) for f in A.present)
    gates_of = _Gates(group)
    gates, cs, lam = np.empty(A.m), np.empty(A.m), np.ones(A.m) if a_path is not None else None
    residual = 0.0
    for u0, u1 in _blocks(A.m, width, budget):
        matched = P[u0:u1]
        b, a = unit_block(B.factors[0], u0, u1), units_at(A.factors[0], matched)
        found = gates_of(_least_squares(b, a), u0)
        if isinstance(found, str):
            return found
        gates[u0:u1], cs[u0:u1] = found
        a *= gates[u0:u1, None]
        residual = max(residual, _off(b, a, B.dtype))
        divisor = cs[u0:u1].copy()
        if a_path is not None and lam is not None:  # gated (λ is made exactly then)
            assert b_path is not None  # B has A's form (checked by _compare)
            b, a = unit_block(b_path, u0, u1), units_at(a_path, matched)
            lam[u0:u1] = _least_squares(b, a)
            if np.any(lam[u0:u1] == 0):
                return "a value-path scale is 0"
            a *= lam[u0:u1, None]
            residual = max(residual, _off(b, a, B.dtype))
            divisor *= lam[u0:u1]
        b, a = unit_block(B.factors[2], u0, u1), units_at(A.factors[2], matched)
        a /= divisor[:, None]
        residual = max(residual, _off(b, a, B.dtype))
        del a, b
    return gates, lam, cs, residual


# ---- a witness ------------------------------------------------------------------------------------

def _gamma(n: int, u: float = U) -> float:
    return n * u / (1 - n * u)


def _search(side: _Side, hf_activation: str, X1: np.ndarray, budget: int) -> tuple[np.ndarray, np.ndarray] | None:
    """f(X) in float64 and a bound on its rounding error, entry by entry, a block of units at a
    time (None: no slope bound for σ). Only proposes where to look: the enclosures decide."""
    slope = SLOPES.get(hf_activation)
    if slope is None:
        return None
    sigma = ACTIVATIONS[hf_activation]
    gate, path, out = side.factors
    aX = np.abs(X1)
    N, e = len(X1), out.width
    y, dy, size = np.zeros((N, e)), np.zeros((N, e)), np.zeros((N, e))

    def affine(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return X1 @ rows.T, _gamma(rows.shape[1]) * (aX @ np.abs(rows).T)

    # a unit's rows (three factors, read and their absolute values) and its dozen (N,) temporaries
    width = 3 * max(unit_width(gate), out.width) + 12 * N
    for u0, u1 in _blocks(side.m, width, budget, 16):
        s, ds = affine(unit_block(gate, u0, u1))
        hidden = sigma(s)
        dh = slope * ds + 4 * U * np.abs(hidden) + 1e-300
        if path is not None:
            t, dt = affine(unit_block(path, u0, u1))
            p = hidden * t
            dp = np.abs(hidden) * dt + dh * np.abs(t) + dh * dt + U * np.abs(p)
        else:
            p, dp = hidden, dh
        V = unit_block(out, u0, u1)
        y += p @ V
        dy += dp @ np.abs(V)
        size += np.abs(p) @ np.abs(V)
    bias = 0.0 if side.out_bias is None else read_block(side.out_bias)
    dy += _gamma(side.m + 1) * (size + np.abs(bias))
    return y + bias, dy * (1 + 4 * U) + 1e-300


def output_enclosure(layer: MlpLayer | _Side, act: Any, x1: np.ndarray, column: int,
                     budget: int = DEFAULT_MEMORY) -> Any:
    """An Arb ball holding output ``column`` of the layer at the row x1 (with a last 1 when the
    layer is biased), from the stored weights: each unit's dot products in float64 within a
    rigorous bound (γ_n·|x|·|q|, doubled for the bound's own rounding), σ (the catalogue's
    expression, ``act``) enclosed over the interval they leave, the rest in balls."""
    from flint import arb
    side = layer if isinstance(layer, _Side) else _side(layer)

    from symcheck.exact.balls import arb_precision
    from symcheck.exact.evaluate import enclose_range
    z = next(iter(act.expr.free_symbols))
    gate, path, out = side.factors

    def ball(value: float, radius: float) -> Any:  # arb(float) is exact; the radius rounds up
        return arb(value) + arb(0, 2 * radius + 1e-300)

    with arb_precision(PRECISION):
        total = arb(0) if side.out_bias is None else arb(float(read_block(side.out_bias)[column]))
        for u0, u1 in _blocks(side.m, 3 * max(unit_width(gate), out.width), budget, 16):
            G = unit_block(gate, u0, u1)
            s, ds = G @ x1, _gamma(G.shape[1]) * (np.abs(G) @ np.abs(x1))
            T = None if path is None else unit_block(path, u0, u1)
            t, dt = (None, None) if T is None else (T @ x1, _gamma(T.shape[1]) * (np.abs(T) @ np.abs(x1)))
            v = unit_block(out, u0, u1)[:, column]
            for j in range(u1 - u0):
                radius = Fraction(2 * float(ds[j])) + Fraction(1, 2**1000)
                lo, hi = Fraction(float(s[j])) - radius, Fraction(float(s[j])) + radius
                h = enclose_range(act.expr, {z: (lo, hi)}, PRECISION)
                term = h * arb(float(v[j]))
                if t is not None and dt is not None:  # both or neither
                    term *= ball(float(t[j]), float(dt[j]))
                total += term
        return total


def _witness(group: LayerGroup, A: _Side, B: _Side, a_layer: MlpLayer, b_layer: MlpLayer, X: np.ndarray,
             budget: int) -> dict[str, Any] | str:
    X1 = np.hstack([X, np.ones((len(X), 1))]) if a_layer.biased else X
    first = _search(A, a_layer.hf_activation, X1, budget)
    second = _search(B, b_layer.hf_activation, X1, budget)
    if first is None or second is None:
        return f"no slope bound for σ = {a_layer.hf_activation}: no search for a differing output"
    (ya, da), (yb, db) = first, second
    margin = np.abs(ya - yb) - (da + db)
    del ya, yb, da, db
    candidates = np.argsort(margin, axis=None)[::-1][:CANDIDATES]
    act = group.activation
    for flat in candidates:
        row, column = (int(i) for i in np.unravel_index(int(flat), margin.shape))
        if margin[row, column] <= 0:
            break
        try:
            ea = output_enclosure(A, act, X1[row], column, budget)
            eb = output_enclosure(B, act, X1[row], column, budget)
        except (ArithmeticError, ValueError) as err:  # σ not enclosable there (EvaluationError is one)
            return f"σ = {act.name} could not be enclosed ({' '.join(str(err).split())[:80]})"
        difference = ea - eb
        if arb_sign(difference) in (1, -1):
            return {"row": row, "output": column, "first": float(ea.mid()), "second": float(eb.mid()),
                    "difference": abs(float(difference.mid())), "bound": float(ea.rad() + eb.rad()),
                    "certified": "Arb enclosures of both outputs at the row (σ over each argument's interval)"}
    if margin.max(initial=0.0) <= 0:
        return f"on {len(X)} input rows the outputs agree within their rounding bounds, and no g was found"
    return f"the outputs that looked different on {len(X)} input rows were not certified to differ"


def _by_source(values: np.ndarray | None, P: np.ndarray) -> tuple[float, ...] | None:
    """Scales found per unit of B, indexed by A's units as ``transform`` takes them (B's unit i is A's P[i])."""
    if values is None:
        return None
    out = np.empty(len(P))
    out[P] = values
    return tuple(float(x) for x in out)


# ---- the comparison -------------------------------------------------------------------------------

def compare_layer(group: LayerGroup, a_layer: MlpLayer, b_layer: MlpLayer, X: np.ndarray, seed: int = 0,
                  memory: int | str = DEFAULT_MEMORY) -> LayerVerdict:
    """One layer's verdict (module docstring), within ``memory``."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        return _compare(group, a_layer, b_layer, X, seed, parse_memory(memory))
    with threadpool_limits(limits=1, user_api="blas"):  # small products: threads only wait (model_report)
        return _compare(group, a_layer, b_layer, X, seed, parse_memory(memory))


def _compare(group: LayerGroup, a_layer: MlpLayer, b_layer: MlpLayer, X: np.ndarray, seed: int,
             budget: int) -> LayerVerdict:
    index = a_layer.index
    same = ((a_layer.form, a_layer.hf_activation, a_layer.d, a_layer.m, a_layer.e, a_layer.biased)
            == (b_layer.form, b_layer.hf_activation, b_layer.d, b_layer.m, b_layer.e, b_layer.biased))
    A, B = _side(a_layer), _side(b_layer)
    budget = _working(budget, a_layer, b_layer, len(X))
    why = "the layers differ in form, σ or sizes"
    if same:
        fitted = _find(group, A, B, seed, budget)
        if isinstance(fitted, str):
            why = fitted
        else:
            P, gates, lam, residual = fitted
            if residual <= ROUNDINGS:
                return LayerVerdict(index, Equivalence.EQUIVALENT,
                                    f"B = g·A to {residual:.2f} units of {B.dtype} rounding (≤ {ROUNDINGS:g}); "
                                    "every gate scale a proved member of G_σ",
                                    tuple(int(p) for p in P), _by_source(lam, P), _by_source(gates, P), residual)
            why = f"the best g found leaves B − g·A at {residual:.3g} units of {B.dtype} rounding (> {ROUNDINGS:g})"
    if a_layer.d != b_layer.d or a_layer.e != b_layer.e:
        return LayerVerdict(index, Equivalence.UNDETERMINED, f"{why}; the layers' input or output sizes differ")
    found = _witness(group, A, B, a_layer, b_layer, X, budget)
    if isinstance(found, str):
        return LayerVerdict(index, Equivalence.UNDETERMINED, f"{why}; {found}")
    return LayerVerdict(index, Equivalence.NOT_EQUIVALENT,
                        f"{why}; at input row {found['row']}, output {found['output']}, the layers give "
                        f"{found['first']:.9g} and {found['second']:.9g}: they differ by {found['difference']:.3g}, "
                        f"beyond the enclosures' radii {found['bound']:.3g} (certified, ball arithmetic)",
                        witness=found)


def _working(budget: int, a_layer: MlpLayer, b_layer: MlpLayer, rows: int) -> int:
    """What the blocks of units may use: the budget less what a layer holds whole — both models'
    unit features (with the tree's copy and the query's), the input rows (and their extended and
    absolute copies) and the search's four (rows × outputs) arrays."""
    m, e = max(a_layer.m, b_layer.m), max(a_layer.e, b_layer.e)
    held = 8 * (6 * m * PROJECTIONS * 3 + 3 * rows * (a_layer.d + 1) + 4 * rows * e)
    width = max(unit_width(f) for layer in (a_layer, b_layer) for f in layer_factors(layer) if f is not None)
    needed = held + PER_ENTRY * max(width, 10 * rows) + 2 * MAP_BYTES
    if budget < needed:
        raise NumericError(f"the memory budget {size_text(budget)} is too small for layer {a_layer.index} "
                           f"(m = {m}, {rows} input rows): it needs at least {size_text(needed)}", name="memory")
    return budget - held


def _find(group: LayerGroup, A: _Side, B: _Side, seed: int, budget: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, float] | str:
    projected = projections(A.present, seed)
    signed = group.negative_gates is False
    fa, fb = (unit_features(side.present, side.m, signed, projected, budget) for side in (A, B))
    if not (np.isfinite(fa).all() and np.isfinite(fb).all()):
        return "a weight is not finite"
    P = match_units(fa, fb, budget)
    del fa, fb
    if isinstance(P, str):
        return P
    fitted = _fit(group, A, B, P, budget)
    if isinstance(fitted, str):
        return fitted
    gates, lam, _, residual = fitted
    return P, gates, lam, residual


def equiv(first: str | Path | Model, second: str | Path | Model, *, rows: InputRows | None = None,
          run: Resources | None = None, groups: dict[tuple[str, LayerForm], LayerGroup] | None = None,
          progress: Progress | None = None, **settings: Unpack[ClusterSettings]) -> EquivReport:
    """Every MLP layer of two checkpoints compared (module docstring): one layer of each held at a
    time, a block of units at a time within ``run.memory`` (per layer task); ``run.workers`` local
    dask processes or an existing cluster at ``run.scheduler`` run the layers. ``rows``: the input
    rows (64 random ones by default). The fields of ``rows`` and ``run`` may be given as keywords
    instead (:mod:`symcheck.numeric.options`). ``groups``: the layer groups by (σ, form), when
    already computed."""
    rows, run = grouped(rows, run, settings)
    started = time.perf_counter()
    budget = parse_memory(run.memory)
    a = first if isinstance(first, Model) else open_model(first)
    b = second if isinstance(second, Model) else open_model(second)
    if len(a.layers) != len(b.layers):
        raise NumericError(f"{a.directory} is {a.architecture.name} with {len(a.layers)} MLP layers, {b.directory} "
                           f"{b.architecture.name} with {len(b.layers)}: the layers are compared one to one",
                           name="models")
    X, source = rows.rows(a.layers[0].d, DEFAULT_TOKENS)
    for la, lb in zip(a.layers, b.layers, strict=True):  # a budget too small is an error before any work
        _working(budget, la, lb, len(X))
    groups = layer_groups(a, run.timeout) if groups is None else groups
    seed = 0 if rows.seed is None else rows.seed
    arguments = [(groups[la.activation, la.form], la, lb, X, seed, budget)
                 for la, lb in zip(a.layers, b.layers, strict=True)]
    if run.serial:
        verdicts, runner = [], "serial"
        for args in arguments:
            verdicts.append(compare_layer(*args))
            if progress is not None:
                progress(f"layer {args[1].index}")
    else:
        from symcheck.numeric.distributed import dask_client, run_tasks
        with dask_client(run.workers, run.scheduler) as (client, runner):
            verdicts = run_tasks(client, compare_layer, arguments, progress=progress,
                                 labels=[f"layer {args[1].index}" for args in arguments])
    return EquivReport(a.directory, b.directory, a.architecture.name, tuple(verdicts), source,
                       time.perf_counter() - started, budget, runner)
