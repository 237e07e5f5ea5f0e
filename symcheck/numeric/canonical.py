"""``symcheck canonical DIR -o OUT``: one representative of each layer's orbit under its group.

Per MLP layer an element g of the layer group (:mod:`symcheck.numeric.layer_elements`) is chosen
from invariants of the units, proved a member, and applied as ``transform`` applies it:

* **signs** — where G_σ has a = −1 (tanh, odd σ) the gate row (q_j, b_j) is turned so that its
  first non-zero entry is positive; the value path (gated) likewise by λ's sign;
* **scales** — where G_σ has every a > 0 (ReLU) the gate is scaled: to unit norm in a gated
  layer, and to ‖a·k_j‖ = ‖v_j‖/c(a) in a plain MLP (c = a: balanced); the value path of a gated
  layer is balanced, ‖λ·k_j‖ = ‖v_j‖/(|c|·|λ|);
* **order** — units sorted by the sign patterns of their canonical rows (gate, value path,
  output): the sign of every entry, which no positive scale and no rounding changes. Units
  whose patterns coincide are ordered by their canonical norms, which rounding may swap: the
  report counts them (``ties``).

So canonical(A) and canonical(g·A) hold the same units in the same order and with the same signs
exactly, and the same values to the dtype's rounding (B's own and the canonical scaling's). A
unit with a zero row is left as it is (its orbit has no balanced point): counted as
``degenerate``. The statistics are gathered a block of units at a time within ``memory``; the
writing is ``transform``'s.
"""
from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Unpack

import numpy as np

from symcheck.core.errors import NumericError
from symcheck.engine.group.layer import LayerGroup
from symcheck.engine.group.layer_forms import LayerForm
from symcheck.numeric.architectures import Factor, Model, open_model
from symcheck.numeric.layer_elements import Element, prove_element
from symcheck.numeric.options import InputRows, Resources, Settings, grouped
from symcheck.numeric.planner import DEFAULT_MEMORY, parse_memory
from symcheck.numeric.transform import (
    DEFAULT_TOKENS,
    Progress,
    WrittenCheckpoint,
    check_budget,
    layer_groups,
    output_change,
    write_elements,
)
from symcheck.numeric.unit_blocks import (
    layer_factors,
    unit_block,
    unit_width,
    units_at,
    units_per_block,
)
from symcheck.numeric.unit_matching import blocks, match_units, projections, row_width, unit_features

__all__ = ["CanonicalReport", "FactorStats", "LayerCanon", "canonical", "canonical_element", "factor_stats",
           "normal_form"]

#: bytes per entry of a block while its statistics are taken (the rows, their codes, the copies)
STATS_PER_ENTRY = 24
#: the bytes of a sign pattern's digest (two distinct patterns share one with probability 2^-128)
DIGEST = 16


@dataclass(frozen=True)
class FactorStats:
    """The invariants of one factor's units a canonical form needs, gathered block by block."""

    norms: np.ndarray       # ‖row‖ (the bias entry included)
    first: np.ndarray       # the sign of the row's first non-zero entry (0: a zero row)
    pattern: np.ndarray     # (m, DIGEST) a digest of the signs of the canonical row's entries


def _stats(rows: np.ndarray, turn: np.ndarray | str | None) -> FactorStats:
    """Statistics of the rows; the pattern is of the rows negated where ``turn`` (an array, or
    "first": where the first non-zero entry is negative)."""
    codes = np.sign(rows).astype(np.int8)
    nonzero = codes != 0
    first = np.where(nonzero.any(axis=1), codes[np.arange(len(rows)), np.argmax(nonzero, axis=1)], 0).astype(np.int8)
    negate = first < 0 if isinstance(turn, str) else turn
    if negate is not None:
        codes[negate] *= -1
    digests = np.frombuffer(b"".join(hashlib.blake2b(row.tobytes(), digest_size=DIGEST).digest() for row in codes),
                            dtype=np.uint8).reshape(len(rows), DIGEST)
    return FactorStats(np.sqrt(np.einsum("ij,ij->i", rows, rows)), first, digests)


def factor_stats(factor: Factor | np.ndarray, m: int = 0, budget: int = DEFAULT_MEMORY,
                 turn: np.ndarray | str | None = None) -> FactorStats:
    """The statistics of a factor's m units (or of rows given as an array), within ``budget``;
    the sign pattern of each row negated where ``turn`` says (:func:`_stats`)."""
    if isinstance(factor, np.ndarray):
        return _stats(factor, turn)
    step = units_per_block(unit_width(factor), budget, STATS_PER_ENTRY)
    parts = [_stats(unit_block(factor, u0, min(u0 + step, m)),
                    turn[u0:u0 + step] if isinstance(turn, np.ndarray) else turn) for u0 in range(0, m, step)]
    return FactorStats(*(np.concatenate([getattr(p, name) for p in parts])
                         for name in ("norms", "first", "pattern")))


@dataclass(frozen=True)
class LayerCanon:
    """What the canonical form did to one layer."""

    index: int
    moved: int                              # units whose position changed
    gate_flips: int                         # units whose gate was turned (a < 0)
    value_flips: int                        # units whose value path was turned (λ < 0)
    gate: tuple[float, float] | None        # the range of |a| (None: the gate is kept)
    value: tuple[float, float] | None       # the range of |λ| (None: a plain MLP)
    ties: int                               # units ordered by norms, their sign patterns equal
    degenerate: int                         # units with a zero row, left as they were
    rounding: float | None = None           # max over rows of ‖f′ − f‖/‖f‖ on the inputs
    alignment: float | None = None          # with a reference: the smallest |cos| of matched rows

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "moved": self.moved, "gate_flips": self.gate_flips,
                "value_flips": self.value_flips, "gate_scale": None if self.gate is None else list(self.gate),
                "value_scale": None if self.value is None else list(self.value), "ties": self.ties,
                "degenerate": self.degenerate, "rounding": self.rounding, "alignment": self.alignment}


def normal_form(group: LayerGroup) -> tuple[str, ...]:
    """The rules the canonical form of a layer with this group follows, in words."""
    rules = []
    if _sign_member(group):
        rules.append("gate (q_j, b_j) turned so that its first non-zero entry is positive (a = −1 ∈ G_σ)")
    law = _positive_law(group)
    if law is not None:
        rules.append("gate scaled to unit norm (every a > 0 in G_σ)" if group.gated or 1 + law[1] <= 0 else
                     "gate scaled so that ‖a·k_j‖ = ‖v_j‖/c(a) (every a > 0 in G_σ): the unit balanced")
    if group.gated:
        rules.append("value path balanced: ‖λ·k_j‖ = ‖v_j/(c·λ)‖, λ's sign making k_j's first non-zero entry positive")
    rules.append("units ordered by the sign patterns of their canonical rows, ties by their norms")
    return tuple(rules)


def _sign_member(group: LayerGroup) -> bool:
    return group.gate_membership(-1.0).value is True


def _positive_law(group: LayerGroup) -> tuple[float, float] | None:
    """(K, k) with c = K·a^k for every a > 0, when G_σ has a component holding all of them."""
    for component in group.group.components:
        if component.aset.kind in ("positive", "all") and component.c is not None:
            law = dict(component.laws).get(1)
            if law is not None:
                return float(law.K), float(law.k)
    return None


def canonical_element(group: LayerGroup, index: int, gate: Factor | np.ndarray, path: Factor | np.ndarray | None,
                      out: Factor | np.ndarray, m: int, budget: int = DEFAULT_MEMORY,
                      like: Sequence[Factor | np.ndarray | None] | None = None) -> tuple[Element, LayerCanon]:
    """The element taking a layer to its canonical form, proved a member, and what it does.

    ``gate``, ``path`` (gated layers; None for a plain MLP) and ``out``: the factors, or their m
    units as rows (the bias as a last column), read a block at a time within ``budget``. ``like``:
    a reference layer's factors — then the units are ordered as their matches there, and each
    sign the group leaves free is the one that agrees with the matched unit."""
    sign = group.gate_membership(-1.0) if _sign_member(group) else None
    g = factor_stats(gate, m, budget, "first" if sign is not None else None)
    k = None if path is None else factor_stats(path, m, budget, "first")
    alignment = None
    if like is None:
        gate_first, path_first = g.first, None if k is None else k.first
    else:
        order, dots, alignment = _aligned(group, (gate, path, out), like, m, budget)
        gate_first, path_first = np.sign(dots[0]), None if k is None else np.sign(dots[1])
    a = np.where(gate_first < 0, -1.0, 1.0) if sign is not None else np.ones(m)
    if sign is not None:
        assert sign.c is not None  # a proved member carries its c
        c = np.where(a < 0, float(sign.c), 1.0)
    else:
        c = np.ones(m)
    lam_sign = None if path_first is None else np.where(path_first < 0, -1.0, 1.0)  # None exactly when k is
    v = factor_stats(out, m, budget, (c < 0) != (False if lam_sign is None else lam_sign < 0))  # v_j/(c·λ)
    degenerate = (g.norms == 0) | (v.norms == 0) | (False if k is None else k.norms == 0)
    a[degenerate], c[degenerate] = 1.0, 1.0
    scaled_gate = bool((a < 0).any())
    law = _positive_law(group)
    if law is not None:
        K, power = law
        norms = np.where(degenerate, 1.0, g.norms)
        if group.gated or 1 + power <= 0:
            size = 1.0 / norms
        else:  # ‖a·k_j‖ = ‖v_j‖/|c(a)| with c = ±K·a^power
            size = (np.where(degenerate, 1.0, v.norms) / (K * norms)) ** (1.0 / (1 + power))
        size[degenerate] = 1.0
        a, c = a * size, c * K * size**power
        scaled_gate = True
    lam = None
    if k is not None:  # ‖λ·k_j‖ = ‖v_j‖/(|c|·|λ|)
        lam = lam_sign * np.sqrt(v.norms / (np.abs(c) * np.where(degenerate, 1.0, k.norms)))
        lam[degenerate] = 1.0
    keys = _keys(g, k, v)
    if like is None:
        # exact invariants first; the canonical output and gate norms (then the index: equal units)
        # break their ties — never a norm the form fixes (a unit gate's is 1 up to rounding noise)
        first = v.norms / np.abs(c * (1.0 if lam is None else lam))
        second = g.norms * np.abs(a)
        order = np.asarray(sorted(range(m), key=lambda j: (keys[j], float(first[j]), float(second[j]), j)), np.int64)
    element = prove_element(group, index, m, order, a if scaled_gate else None, lam)
    canon = LayerCanon(index, int(np.count_nonzero(order != np.arange(m))), int(np.count_nonzero(a < 0)),
                       0 if lam is None else int(np.count_nonzero(lam < 0)),
                       _span(np.abs(a)) if scaled_gate else None, None if lam is None else _span(np.abs(lam)),
                       _tied(keys) if like is None else 0, int(np.count_nonzero(degenerate)), alignment=alignment)
    return element, canon


def _aligned(group: LayerGroup, factors: Sequence[Factor | np.ndarray | None],
             like: Sequence[Factor | np.ndarray | None], m: int,
             budget: int) -> tuple[np.ndarray, list[np.ndarray], float]:
    """Unit i of the reference matched to unit P[i] of the layer (invariant features: directions,
    sign-free where a sign may change); per factor the dot product of each unit's row with its
    match's; the smallest |cosine| of matched rows."""
    present, reference = [f for f in factors if f is not None], [f for f in like if f is not None]
    widths = [(row_width(f), row_width(r)) for f, r in zip(present, reference, strict=False)]
    if len(present) != len(reference) or any(mine != theirs for mine, theirs in widths):
        raise NumericError("the reference layer differs in form or sizes: units are matched one to one", name="like")
    projected = projections(reference, 0)
    signed = group.negative_gates is False
    ours, the_reference = (unit_features(side, m, signed, projected, budget) for side in (present, reference))
    P = match_units(ours, the_reference, budget)
    if isinstance(P, str):
        raise NumericError(f"the units cannot be matched to the reference: {P}", name="like")
    dots, smallest = [], 1.0
    for factor, ref in zip(present, reference, strict=True):
        dot = np.empty(m)
        for i0, i1 in blocks(m, row_width(factor), budget, STATS_PER_ENTRY):
            mine = factor[P[i0:i1]] if isinstance(factor, np.ndarray) else units_at(factor, P[i0:i1])
            theirs = ref[i0:i1] if isinstance(ref, np.ndarray) else unit_block(ref, i0, i1)
            products = np.einsum("ij,ij->i", mine, theirs)
            dot[P[i0:i1]] = products
            scale = np.linalg.norm(mine, axis=1) * np.linalg.norm(theirs, axis=1)
            smallest = min(smallest, float(np.min(np.abs(products) / np.where(scale == 0, 1.0, scale), initial=1.0)))
        dots.append(dot)
    return P, dots, smallest


def _span(values: np.ndarray) -> tuple[float, float] | None:
    return (float(values.min()), float(values.max())) if len(values) else None


def _keys(*stats: FactorStats | None) -> list[bytes]:
    """Each unit's canonical sign patterns (gate, value path, output) as one byte string."""
    whole = np.ascontiguousarray(np.hstack([s.pattern for s in stats if s is not None]))
    return [row.tobytes() for row in whole]


def _tied(keys: list[bytes]) -> int:
    """Units whose key another unit shares (their order is decided by norms, to rounding)."""
    counts = Counter(keys)
    return sum(n for n in counts.values() if n > 1)


@dataclass(frozen=True)
class CanonicalReport(WrittenCheckpoint):
    """A checkpoint written in canonical form: each layer's changes (LayerCanon), the rules, the rounding."""

    rules: tuple[tuple[str, ...], ...] = ()     # the normal form of each group
    like: Path | None = None                    # the reference the units were matched to

    def table(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The layers as plain text cells (head, rows), for the LaTeX and HTML renderers."""
        def span(values: tuple[float, float] | None) -> str:
            return "n/a" if values is None else f"{values[0]:.3g} to {values[1]:.3g}"
        aligned = self.like is not None
        return (("layer", "moved", "gates turned", "values turned", "|a|", "|λ|", "tied", "degenerate", "rounding")
                + (("alignment",) if aligned else ()),
                tuple((str(c.index), str(c.moved), str(c.gate_flips), str(c.value_flips), span(c.gate), span(c.value),
                       str(c.ties), str(c.degenerate), "n/a" if c.rounding is None else f"{c.rounding:.2e}")
                      + ((f"{c.alignment:.4f}",) if aligned else ()) for c in self.layers))

    def to_dict(self) -> dict[str, Any]:
        return {"source": str(self.source), "output": str(self.output), "architecture": self.architecture,
                "groups": [{"activation": g.activation.name, "form": g.form.value, "complete": g.complete,
                            "rules": list(rules)} for g, rules in zip(self.groups, self.rules, strict=True)],
                "layers": [layer.to_dict() for layer in self.layers], "rounding": self.rounding,
                "inputs": self.inputs, "memory": self.memory, "files": self.files, "skipped": list(self.skipped),
                "like": None if self.like is None else str(self.like), "elapsed_seconds": round(self.elapsed, 4)}


def canonical(directory: str | Path | Model, output: str | Path, *, rows: InputRows | None = None,
              run: Resources | None = None, groups: dict[tuple[str, LayerForm], LayerGroup] | None = None,
              like: str | Path | Model | None = None, progress: Progress | None = None,
              **settings: Unpack[Settings]) -> CanonicalReport:
    """Write ``output``: the model of ``directory`` in canonical form (module docstring).
    ``rows``: the input rows the rounding is measured on (32 random ones by default); ``run``: the
    memory and the time budget of each G_σ; the fields of both may be given as keywords instead
    (:mod:`symcheck.numeric.options`). ``groups``: the layer groups by (σ, form), when already
    computed. ``like``: a model of the same shape (another fine-tune, in canonical form) whose
    units each layer's are matched to: the units ordered as their matches, the free signs
    agreeing with them; the scales as always."""
    rows, run = grouped(rows, run, settings, cluster=False)
    started = time.perf_counter()
    budget = parse_memory(run.memory)
    model = directory if isinstance(directory, Model) else open_model(directory)
    check_budget(model, budget)
    reference = None if like is None else like if isinstance(like, Model) else open_model(like)
    if reference is not None and [(r.form, r.activation, r.d, r.m, r.e) for r in reference.layers] != \
            [(r.form, r.activation, r.d, r.m, r.e) for r in model.layers]:
        raise NumericError(f"{reference.directory} does not have {model.directory}'s MLP layers (form, σ and sizes, "
                           "layer by layer): its units cannot be matched", name="like")
    groups = layer_groups(model, run.timeout) if groups is None else groups
    elements, canons = [], []
    for i, layer in enumerate(model.layers):  # every element proved before anything is written
        element, canon = canonical_element(groups[layer.activation, layer.form], layer.index,
                                           *layer_factors(layer), layer.m, budget,
                                           None if reference is None else layer_factors(reference.layers[i]))
        elements.append(element)
        canons.append(canon)
    X, source = rows.rows(model.layers[0].d, DEFAULT_TOKENS)
    written, skipped, result = write_elements(model, output, elements, budget, progress)
    layers = tuple(replace(canon, rounding=output_change(before, after, X, budget))
                   for canon, before, after in zip(canons, model.layers, result.layers, strict=True))
    return CanonicalReport(model.directory, Path(output), model.architecture.name, tuple(groups.values()), layers,
                           source, budget, len(written), skipped, time.perf_counter() - started,
                           tuple(normal_form(g) for g in groups.values()),
                           None if reference is None else reference.directory)
