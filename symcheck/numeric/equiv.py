"""``symcheck equiv A B``: for each MLP layer, is B = g·A for an element g of the layer's group?

Per layer the units of both checkpoints are read (one layer of each at a time) and g is sought:

* the permutation, by matching invariants of units — the directions of the gate, value-path and
  output rows, sign-free where the group allows a sign change — nearest neighbours in a random
  projection of them (``scipy.spatial.cKDTree``), and ``scipy.optimize.linear_sum_assignment`` on
  the units the neighbours leave in conflict;
* the scales in closed form (least squares of each row on its match), the gate scale taken to the
  nearest a the group has (a > 0 for ReLU as it is; a = 1 for SiLU) and proved a member there.

Verdicts: ``equivalent`` — g is a proved member and B differs from g·A by at most
:data:`ROUNDINGS` units of the dtype's rounding, entry by entry (the weight residual is reported);
``not equivalent`` — an input row where the two layers' outputs, evaluated in float64, differ by
more than the sum of their rounding bounds (a forward error bound: γ_n·|terms| for each dot
product, σ's slope bound times its argument's error plus 4 ulps of σ); ``undetermined`` otherwise,
with the reason.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.results import Renderable
from symcheck.engine.layer_group import LayerGroup
from symcheck.numeric.architectures import Factor, MlpLayer, Model, open_model
from symcheck.numeric.checkpoint_writer import UNIT_ROUNDOFF
from symcheck.numeric.mlp_reference import ACTIVATIONS
from symcheck.numeric.model_report import inputs_for
from symcheck.numeric.safetensors_io import read_block
from symcheck.numeric.transform import layer_groups

__all__ = ["ROUNDINGS", "SLOPES", "EquivReport", "LayerVerdict", "equiv", "unit_rows"]

#: B may differ from g·A by this many units of its dtype's rounding, entry by entry (B's own
#: rounding, and the scales' estimates from rounded rows)
ROUNDINGS = 4.0
#: sup |σ'| of each framework activation (the error of σ's argument passes through it)
SLOPES = {"silu": 1.1, "swish": 1.1, "gelu": 1.13, "gelu_python": 1.13, "gelu_new": 1.13,
          "gelu_pytorch_tanh": 1.13, "gelu_python_tanh": 1.13, "quick_gelu": 1.1, "relu": 1.0,
          "relu6": 1.0, "leaky_relu": 1.0, "sigmoid": 0.25, "tanh": 1.0, "mish": 1.2, "hardswish": 1.5,
          "linear": 1.0}
#: float64's unit roundoff
U = 2.0**-53
DEFAULT_TOKENS = 64
VERDICTS = ("equivalent", "not equivalent", "undetermined")


@dataclass(frozen=True)
class LayerVerdict:
    """One layer: the verdict, g (for an equivalent layer), the weight residual, or the witness."""

    index: int
    verdict: str
    reason: str
    permutation: tuple[int, ...] | None = None
    value_scale: tuple[float, ...] | None = None
    gate_scale: tuple[float, ...] | None = None
    residual: float | None = None
    witness: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "verdict": self.verdict, "reason": self.reason,
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

    @property
    def verdict(self) -> str:
        found = {layer.verdict for layer in self.layers}
        if "not equivalent" in found:
            return "not equivalent"
        return "equivalent" if found == {"equivalent"} else "undetermined"

    def __str__(self) -> str:
        lines = [f"{self.first} vs {self.second} ({self.architecture}): {self.verdict}"]
        lines += [f"  layer {v.index}: {v.verdict} — {v.reason}" for v in self.layers]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"first": str(self.first), "second": str(self.second), "architecture": self.architecture,
                "verdict": self.verdict, "layers": [layer.to_dict() for layer in self.layers],
                "inputs": self.inputs, "roundings": ROUNDINGS, "elapsed_seconds": round(self.elapsed, 4)}


# ---- reading a layer ------------------------------------------------------------------------------

def unit_rows(factor: Factor, m: int) -> np.ndarray:
    """The factor's m units as rows (float64), the bias entry (if any) as a last column."""
    a, b = factor.start, factor.start + m
    if factor.units_axis == 0:
        rows = read_block(factor.tensor, rows=(a, b))
    else:
        rows = np.ascontiguousarray(read_block(factor.tensor, columns=(a, b)).T)
    if factor.bias is not None:
        rows = np.hstack([rows, read_block(factor.bias, rows=(0, m))[:, None]])
    return rows


@dataclass(frozen=True)
class _Layer:
    gate: np.ndarray            # σ's argument rows (with bias column when biased)
    path: np.ndarray | None     # the value path's rows (gated)
    out: np.ndarray             # v_j as rows
    out_bias: np.ndarray | None
    dtype: str
    biased: bool


def _read(layer: MlpLayer) -> _Layer:
    gated = layer.form == "gated"
    gate_factor = layer.query if gated else layer.key
    out_bias = None if layer.output_bias is None else read_block(layer.output_bias)
    return _Layer(unit_rows(gate_factor, layer.m), unit_rows(layer.key, layer.m) if gated else None,
                  unit_rows(layer.value, layer.m), out_bias, layer.value.tensor.dtype, layer.biased)


# ---- finding g ------------------------------------------------------------------------------------

def _directions(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


def _features(layer: _Layer, signed_gate: bool, projections: list[np.ndarray]) -> np.ndarray:
    """Invariants of each unit under the group: row directions, sign-free where a sign may change."""
    parts = []
    factors = [layer.gate] + ([layer.path] if layer.path is not None else []) + [layer.out]
    for k, (rows, R) in enumerate(zip(factors, projections)):
        projected = _directions(rows) @ R
        parts.append(projected if (k == 0 and signed_gate) else np.abs(projected))
    return np.hstack(parts)


def _match(fa: np.ndarray, fb: np.ndarray) -> np.ndarray:
    """P with unit i of B matching unit P[i] of A: nearest neighbours, conflicts by assignment."""
    from scipy.optimize import linear_sum_assignment
    from scipy.spatial import cKDTree
    _, nearest = cKDTree(fa).query(fb, k=1)
    P = np.asarray(nearest, dtype=np.int64)
    counts = np.bincount(P, minlength=len(fa))
    clash = counts[P] != 1
    if clash.any():
        rows = np.flatnonzero(clash)
        free = np.setdiff1d(np.arange(len(fa)), P[~clash])
        cost = np.linalg.norm(fb[rows][:, None, :] - fa[free][None, :, :], axis=2)
        r, c = linear_sum_assignment(cost)
        P[rows[r]] = free[c]
    return P


def _least_squares(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Per row, the s minimising ‖b − s·a‖."""
    norms = np.einsum("ij,ij->i", a, a)
    return np.einsum("ij,ij->i", a, b) / np.where(norms == 0, 1.0, norms)


def _snap(group: LayerGroup, estimate: float) -> float | None:
    """The a of G_σ nearest the estimate: a finite set's nearest point, a half-line's own value."""
    best = None
    for component in group.group.components:
        kind = component.aset.kind
        if kind == "finite":
            for point in component.aset.points:
                value = float(point)
                if abs(value - estimate) <= 1e-2 * abs(value) and (best is None or abs(value - estimate) < abs(best - estimate)):
                    best = value
        elif kind == "all" or (kind == "positive" and estimate > 0) or (kind == "negative" and estimate < 0):
            return estimate
    return best


def _find(group: LayerGroup, A: _Layer, B: _Layer, seed: int) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, np.ndarray | None, str]:
    """P, the gate scales a, the value scales λ, G_σ's c — or a reason (then P is empty)."""
    rng = np.random.default_rng(seed)
    factors = [A.gate] + ([A.path] if A.path is not None else []) + [A.out]
    projections = [rng.standard_normal((rows.shape[1], 8)) for rows in factors]
    signed = group.negative_gates is False
    P = _match(_features(A, signed, projections), _features(B, signed, projections))
    estimates = _least_squares(B.gate, A.gate[P])
    gates = np.empty(len(P))
    cs = np.empty(len(P))
    cache: dict[float, tuple[float, float] | None] = {}
    for i, estimate in enumerate(estimates):
        key = float(estimate)
        if key not in cache:
            a = _snap(group, key)
            membership = None if a is None else group.gate_membership(a)
            cache[key] = None if membership is None or membership.value is not True else (a, float(membership.c))
        found = cache[key]
        if found is None:
            return np.empty(0, np.int64), None, None, None, (f"unit {i}: the gate scale ≈ {key:.6g} is no proved "
                                                              f"member of G_σ ({group.gate_values()})")
        gates[i], cs[i] = found
    lam = _least_squares(B.path, A.path[P]) if A.path is not None else None
    if lam is not None and np.any(lam == 0):
        return np.empty(0, np.int64), None, None, None, "a value-path scale is 0"
    return P, gates, lam, cs, ""


def _residual(A: _Layer, B: _Layer, P: np.ndarray, gates: np.ndarray, lam: np.ndarray | None,
              cs: np.ndarray) -> float:
    """max over entries of |B − g·A| / (u·|g·A|): B's distance from g·A in units of its rounding."""
    divisor = cs * (lam if lam is not None else 1.0)
    pairs = [(B.gate, A.gate[P] * gates[:, None]), (B.out, A.out[P] / divisor[:, None])]
    if lam is not None:
        pairs.append((B.path, A.path[P] * lam[:, None]))
    u = UNIT_ROUNDOFF[B.dtype]
    tiny = np.finfo(np.float32).tiny if B.dtype != "F64" else np.finfo(np.float64).tiny
    worst = 0.0
    for b, ga in pairs:
        scale = np.maximum(np.abs(ga), tiny) * u
        worst = max(worst, float(np.max(np.abs(b - ga) / scale, initial=0.0)))
    return worst


# ---- a witness ------------------------------------------------------------------------------------

def _output_and_bound(layer: _Layer, hf_activation: str, X: np.ndarray, gated: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """f(X) in float64 and a bound on its rounding error, entry by entry (None: no slope bound for σ)."""
    slope = SLOPES.get(hf_activation)
    if slope is None:
        return None
    sigma = ACTIVATIONS[hf_activation]
    X1 = np.hstack([X, np.ones((len(X), 1))]) if layer.biased else X
    aX = np.abs(X1)

    def affine(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = rows.shape[1]
        return X1 @ rows.T, (n * U / (1 - n * U)) * (aX @ np.abs(rows).T)

    s, ds = affine(layer.gate)
    hidden = sigma(s)
    dh = slope * ds + 4 * U * np.abs(hidden) + 1e-300
    if gated:
        t, dt = affine(layer.path)
        p = hidden * t
        dp = np.abs(hidden) * dt + dh * np.abs(t) + dh * dt + U * np.abs(p)
    else:
        p, dp = hidden, dh
    m = layer.out.shape[0]
    y = p @ layer.out
    bias = 0.0 if layer.out_bias is None else layer.out_bias
    gamma = (m + 1) * U / (1 - (m + 1) * U)
    dy = dp @ np.abs(layer.out) + gamma * (np.abs(p) @ np.abs(layer.out) + np.abs(bias))
    return y + bias, dy * (1 + 4 * U) + 1e-300


def _witness(A: _Layer, B: _Layer, a_layer: MlpLayer, b_layer: MlpLayer, X: np.ndarray) -> dict[str, Any] | str:
    gated = a_layer.form == "gated"
    first = _output_and_bound(A, a_layer.hf_activation, X, gated)
    second = _output_and_bound(B, b_layer.hf_activation, X, gated)
    if first is None or second is None:
        return f"no slope bound for σ = {a_layer.hf_activation}: no rounding bound to decide a difference"
    (ya, da), (yb, db) = first, second
    margin = np.abs(ya - yb) - (da + db)
    row, column = np.unravel_index(int(np.argmax(margin)), margin.shape)
    if margin[row, column] <= 0:
        return f"on {len(X)} input rows the outputs agree within their rounding bounds, and no g was found"
    return {"row": int(row), "output": int(column), "first": float(ya[row, column]), "second": float(yb[row, column]),
            "difference": float(abs(ya[row, column] - yb[row, column])), "bound": float(da[row, column] + db[row, column])}


def _by_source(values: np.ndarray | None, P: np.ndarray) -> tuple[float, ...] | None:
    """Scales found per unit of B, indexed by A's units as ``transform`` takes them (B's unit i is A's P[i])."""
    if values is None:
        return None
    out = np.empty(len(P))
    out[P] = values
    return tuple(float(x) for x in out)


# ---- the comparison -------------------------------------------------------------------------------

def compare_layer(group: LayerGroup, a_layer: MlpLayer, b_layer: MlpLayer, X: np.ndarray, seed: int = 0) -> LayerVerdict:
    """One layer's verdict (module docstring)."""
    index = a_layer.index
    same = ((a_layer.form, a_layer.hf_activation, a_layer.d, a_layer.m, a_layer.e, a_layer.biased)
            == (b_layer.form, b_layer.hf_activation, b_layer.d, b_layer.m, b_layer.e, b_layer.biased))
    A, B = _read(a_layer), _read(b_layer)
    why = "the layers differ in form, σ or sizes"
    if same:
        P, gates, lam, cs, why = _find(group, A, B, seed)
        if len(P):
            residual = _residual(A, B, P, gates, lam, cs)
            if residual <= ROUNDINGS:
                return LayerVerdict(index, "equivalent", f"B = g·A to {residual:.2f} units of {B.dtype} rounding "
                                    f"(≤ {ROUNDINGS:g}); every gate scale a proved member of G_σ",
                                    tuple(int(p) for p in P), _by_source(lam, P), _by_source(gates, P), residual)
            why = f"the best g found leaves B − g·A at {residual:.3g} units of {B.dtype} rounding (> {ROUNDINGS:g})"
        if a_layer.d != b_layer.d or a_layer.e != b_layer.e:
            return LayerVerdict(index, "undetermined", f"{why}; the layers' input or output sizes differ")
    found = _witness(A, B, a_layer, b_layer, X)
    if isinstance(found, str):
        return LayerVerdict(index, "undetermined", f"{why}; {found}")
    return LayerVerdict(index, "not equivalent",
                        f"{why}; at input row {found['row']}, output {found['output']}, the layers give "
                        f"{found['first']:.9g} and {found['second']:.9g}: they differ by {found['difference']:.3g}, "
                        f"more than the float64 rounding bound {found['bound']:.3g}", witness=found)


def equiv(first: str | Path | Model, second: str | Path | Model, *, inputs: Any = None, tokens: int | None = None,
          seed: int | None = 0, timeout: float = DEFAULT_TIMEOUT, progress=None) -> EquivReport:
    """Every MLP layer of two checkpoints compared (module docstring)."""
    started = time.perf_counter()
    a = first if isinstance(first, Model) else open_model(first)
    b = second if isinstance(second, Model) else open_model(second)
    if len(a.layers) != len(b.layers):
        from symcheck.core.errors import NumericError
        raise NumericError(f"{a.directory} is {a.architecture.name} with {len(a.layers)} MLP layers, {b.directory} "
                           f"{b.architecture.name} with {len(b.layers)}: the layers are compared one to one",
                           name="models")
    groups = layer_groups(a, timeout)
    X, source = inputs_for(a.layers[0].d, inputs, DEFAULT_TOKENS if inputs is None and tokens is None else tokens,
                           seed)
    verdicts = []
    for la, lb in zip(a.layers, b.layers):
        verdicts.append(compare_layer(groups[la.activation, la.form], la, lb, X, 0 if seed is None else seed))
        if progress is not None:
            progress(f"layer {la.index}")
    return EquivReport(a.directory, b.directory, a.architecture.name, tuple(verdicts), source,
                       time.perf_counter() - started)
