"""Matching the units of two layers by invariants of the layer group (``equiv``, ``canonical --like``).

A unit's invariants are the directions of its rows (gate, value path, output) — a scale changes
none of them, and a sign none of their absolute values. Each factor's directions are projected
on ``PROJECTIONS`` random vectors (the same for both layers), signed only for a gate whose sign the
group fixes; units are matched by nearest neighbours in that space (``scipy.spatial.cKDTree``)
and the units the neighbours leave in conflict by ``scipy.optimize.linear_sum_assignment``.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from symcheck.numeric.architectures import Factor
from symcheck.numeric.planner import size_text
from symcheck.numeric.unit_blocks import unit_block, unit_width, units_per_block

__all__ = ["PROJECTIONS", "blocks", "match_units", "projections", "row_width", "unit_features"]

#: directions of each factor's rows projected on this many random vectors
PROJECTIONS = 8
#: bytes per entry of a block of units while their features are taken
FEATURE_PER_ENTRY = 32


def blocks(m: int, width: int, budget: int, per_entry: int) -> Iterator[tuple[int, int]]:
    """Consecutive ranges of units whose rows of ``width`` entries fit the budget."""
    step = units_per_block(width, budget, per_entry)
    for u0 in range(0, m, step):
        yield u0, min(u0 + step, m)


def row_width(factor: Factor | np.ndarray) -> int:
    """A unit's row length as read (a factor's, with its bias; or the rows given)."""
    return factor.shape[1] if isinstance(factor, np.ndarray) else unit_width(factor)


def projections(factors: Sequence[Factor | np.ndarray], seed: int) -> list[np.ndarray]:
    """One random (width × PROJECTIONS) matrix per factor, from the seed."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((row_width(f), PROJECTIONS)) for f in factors]


def _directions(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


def unit_features(factors: Sequence[Factor | np.ndarray], m: int, signed_gate: bool, projected: list[np.ndarray],
                  budget: int) -> np.ndarray:
    """(m, PROJECTIONS·factors): each unit's row directions projected, sign-free but for the first
    factor (the gate) when ``signed_gate``; factors read a block of units at a time (or given as rows)."""
    parts = []
    for k, (factor, R) in enumerate(zip(factors, projected, strict=True)):
        pieces = []
        for u0, u1 in blocks(m, row_width(factor), budget, FEATURE_PER_ENTRY):
            rows = factor[u0:u1] if isinstance(factor, np.ndarray) else unit_block(factor, u0, u1)
            pieces.append(_directions(rows) @ R)
        block = np.vstack(pieces)
        parts.append(block if (k == 0 and signed_gate) else np.abs(block))
    return np.hstack(parts)


def match_units(fa: np.ndarray, fb: np.ndarray, budget: int) -> np.ndarray | str:
    """P with unit i of B matching unit P[i] of A: nearest neighbours, conflicts by assignment
    (a reason instead when the conflicts' cost matrix would not fit the budget)."""
    from scipy.optimize import linear_sum_assignment
    from scipy.spatial import cKDTree
    from scipy.spatial.distance import cdist
    _, nearest = cKDTree(fa).query(fb, k=1)
    P = np.asarray(nearest, dtype=np.int64)
    counts = np.bincount(P, minlength=len(fa))
    clash = counts[P] != 1
    if clash.any():
        rows = np.flatnonzero(clash)
        if 3 * 8 * len(rows) ** 2 > budget:
            return (f"{len(rows)} units of B have no unit of A to themselves: their assignment would not fit "
                    f"the memory budget ({size_text(budget)})")
        free = np.setdiff1d(np.arange(len(fa)), P[~clash])
        r, c = linear_sum_assignment(cdist(fb[rows], fa[free]))
        P[rows[r]] = free[c]
    return P
