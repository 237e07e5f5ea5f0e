"""The checks of a derivation step, and what each found.

For every size (symbolic d, m, e, r): the two sides rewrite to the same matrix expression, or
their generic entries are the same sum (:func:`~symcheck.paper.derivations.sums.scalars_equal`);
a builder the explicit check evaluates must give its matrix expression's generic entry
(:func:`builder_agrees`). At explicit sizes: the expanded residual is exactly 0 at every size
of ``GRID``. A check that cannot reduce a difference never counts as a proof.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

import sympy
from sympy.matrices.expressions.matexpr import MatrixElement

from symcheck.language.layer_formulations import BILINEAR, KS, KU, QS, QU, D, Formulation, L, R, Sizes
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations.sums import INDEX_L, INDEX_S, INDEX_T, scalars_equal

Pair = tuple[Any, Any]
#: explicit sizes: every d, m, r in 1..3 and e in 1..2 (only the dimensions a claim uses vary)
GRID = {"d": (1, 2, 3), "m": (1, 2, 3), "e": (1, 2), "r": (1, 2, 3)}
#: one unit (no m) stays fast for larger d and r
UNIT_GRID = {**GRID, "d": (1, 2, 3, 4, 5), "r": (1, 2, 3, 4)}


class DerivationStatus(StrEnum):
    """The outcome of one check of a step, and of the step (its checks combined in ``steps``)."""

    VERIFIED = "verified"
    FAILED = "failed"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    #: a check only: the step has no such check (it says why)
    NOT_APPLICABLE = "not-applicable"
    #: a step only: its one passing check ran at explicit sizes — evidence, never verified
    EXPLICIT_ONLY = "explicit-only"


class CheckKind(StrEnum):
    """How a step was checked: for every size (the first three), at explicit sizes, or not in time."""

    MATRIX_EXPRESSION = "matrix-expression"
    GENERIC_ENTRY = "generic-entry"
    SCALAR = "scalar"
    EXPLICIT = "explicit"
    BUDGET = "budget"


class CheckKinds(tuple[CheckKind, ...]):
    """A record's methods in the order used; printed as the JSON writes them, joined by "+"."""

    __slots__ = ()

    def __str__(self) -> str:
        return "+".join(self)

    # the text form ("explicit", "matrix-expression+scalar") is what ``kind`` was before it was
    # typed, and what notebooks and users compare with: it stays equal (and hashes alike)
    def __eq__(self, other: object) -> bool:
        return str(self) == other if isinstance(other, str) else tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(str(self))


@dataclass(frozen=True, init=False)
class CheckRecord:
    """One check that was run on a step: its kind (several methods when the step's claims needed
    different ones), outcome and what was done."""

    kind: CheckKinds
    status: DerivationStatus
    detail: str

    def __init__(self, kind: CheckKind | Sequence[CheckKind], status: DerivationStatus, detail: str) -> None:
        # one kind, several, or the JSON's text ("matrix-expression+scalar"): a typo is an error
        kinds = kind.split("+") if isinstance(kind, str) else kind
        object.__setattr__(self, "kind", CheckKinds(CheckKind(k) for k in kinds))
        object.__setattr__(self, "status", DerivationStatus(status))  # a typo is an error, not a status
        object.__setattr__(self, "detail", detail)

    @property
    def name(self) -> str:
        """The kind as the JSON and the renderers write it: the methods joined by "+"."""
        return str(self.kind)

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.name, "status": self.status.value, "detail": self.detail}


def _normalize(expr: Any) -> Any:
    """Rewrite a matrix expression bottom-up with ``doit`` (and ``block_collapse``) to a fixpoint.

    ``doit`` alone does not revisit a product whose factor it just simplified (``(A·I)``
    inside σ), so every node is rebuilt from normalised arguments first.
    """
    for _ in range(6):
        new = _rebuild(expr)
        if new == expr:
            return new
        expr = new
    return expr


def _rebuild(expr: Any) -> Any:
    if not isinstance(expr, sympy.MatrixExpr) or isinstance(expr, sympy.MatrixSymbol) or not expr.args:
        return expr
    args = [_rebuild(a) if isinstance(a, sympy.MatrixExpr) else a for a in expr.args]
    new = expr.func(*args) if args != list(expr.args) else expr
    if new.has(sympy.BlockMatrix):
        new = sympy.block_collapse(new)
    return new.doit() if isinstance(new, sympy.MatrixExpr) else new


def _matrix_equal(lhs: sympy.MatrixExpr, rhs: sympy.MatrixExpr) -> bool:
    left, right = _normalize(lhs), _normalize(rhs)
    if left == right:
        return True
    difference = _normalize(sympy.MatAdd(left, -right))
    return isinstance(difference, sympy.ZeroMatrix) or difference == 0


def _generic_entry(matrix: sympy.MatrixExpr) -> sympy.Expr:
    row = 0 if matrix.rows == 1 else INDEX_T
    col = 0 if matrix.cols == 1 else INDEX_L
    return matrix[row, col]


_METHODS = {
    CheckKind.MATRIX_EXPRESSION: "matrix-expression algebra with symbolic d, m, e, r: both sides rewrite to "
                         "the same expression",
    CheckKind.GENERIC_ENTRY: "generic entry with symbolic dimensions and indices: the same sum up to renaming "
                     "of summation indices, after sound rewrites of finite sums",
    CheckKind.SCALAR: "exact: the difference expands to 0",
}


def _nonconforming(expr: Any) -> str | None:
    """A product or sum whose shapes agree only for special values of the dimensions.

    SymPy accepts ``Q_g·K`` (d×d times m×d) because d = m is possible; with symbolic
    dimensions that is a step that holds only when d = m, so it is reported.
    """
    if not isinstance(expr, sympy.Basic):
        return None
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.MatMul):
            factors = [f for f in node.args if isinstance(f, sympy.MatrixExpr)]
            for left, right in itertools.pairwise(factors):
                if sympy.simplify(left.cols - right.rows) != 0:
                    return f"{sympy.sstr(left)} ({_shape(left)}) times {sympy.sstr(right)} ({_shape(right)})"
        elif isinstance(node, (sympy.MatAdd, sympy.HadamardProduct)):
            shapes = {tuple(sympy.simplify(n) for n in a.shape) for a in node.args if isinstance(a, sympy.MatrixExpr)}
            if len(shapes) > 1:
                return f"{sympy.sstr(node)} adds or multiplies entrywise different shapes"
    return None


def check_symbolic(pairs: Sequence[Pair]) -> CheckRecord:
    """Every pair shown equal with symbolic dimensions, or the first one that was not."""
    used: list[CheckKind] = []
    for lhs, rhs in pairs:
        problem = _nonconforming(lhs) or _nonconforming(rhs)
        if problem:
            return CheckRecord(CheckKind.MATRIX_EXPRESSION, DerivationStatus.FAILED,
                               f"shapes do not conform for all dimensions: {problem}")
        if isinstance(lhs, sympy.MatrixExpr) and isinstance(rhs, sympy.MatrixExpr):
            if lhs.shape != rhs.shape:
                return CheckRecord(CheckKind.MATRIX_EXPRESSION, DerivationStatus.FAILED,
                                   f"shapes differ: {_shape(lhs)} and {_shape(rhs)}")
            if _matrix_equal(lhs, rhs):
                method = CheckKind.MATRIX_EXPRESSION
            elif scalars_equal(_generic_entry(lhs), _generic_entry(rhs)):
                method = CheckKind.GENERIC_ENTRY
            else:
                return CheckRecord(CheckKind.MATRIX_EXPRESSION, DerivationStatus.UNKNOWN,
                                   "the difference did not rewrite to 0 (not a disproof)")
        else:
            method = CheckKind.GENERIC_ENTRY if any(isinstance(side, sympy.Basic) and side.has(sympy.Sum)
                                            for side in (lhs, rhs)) else CheckKind.SCALAR
            if not scalars_equal(lhs, rhs):
                return CheckRecord(method, DerivationStatus.UNKNOWN,
                                   "the difference did not reduce to 0 (not a disproof)")
        used.append(method)
    methods = list(dict.fromkeys(used))
    count = f" ({len(pairs)} identities)" if len(pairs) > 1 else ""
    return CheckRecord(methods, DerivationStatus.VERIFIED, "; ".join(_METHODS[m] for m in methods) + count)


def _shape(matrix: Any) -> str:
    return "×".join(sympy.sstr(n) for n in matrix.shape)


def _grid_for(dims: str) -> dict[str, tuple[int, ...]]:
    return GRID if "m" in dims else UNIT_GRID


def _grid(dims: str) -> list[Sizes]:
    grid = _grid_for(dims)
    ranges = [grid[k] if k in dims else (1,) for k in "dmer"]
    return [Sizes(d, m, e, r) for d, m, e, r in itertools.product(*ranges)]


def _describe_grid(dims: str) -> str:
    grid = _grid_for(dims)
    return ", ".join(f"{k} ∈ {grid[k][0]}..{grid[k][-1]}" for k in "dmer" if k in dims)


def _residual(lhs: sympy.Matrix, rhs: sympy.Matrix) -> sympy.Matrix | None:
    """The expanded entrywise difference, or None when it is exactly zero."""
    difference = (sympy.Matrix(lhs) - sympy.Matrix(rhs)).applyfunc(sympy.expand)
    return None if difference.is_zero_matrix else difference


def check_explicit(build: Callable[[Sizes], Pair | list[Pair]], dims: str, sigma: str = "σ opaque") -> CheckRecord:
    """Every pair ``build`` gives at every size of the grid over ``dims`` has residual exactly 0,
    or the first size and entry where it does not."""
    grid = _grid(dims)
    for sz in grid:
        try:
            built = build(sz)
            pairs = built if isinstance(built, list) else [built]
            for lhs, rhs in pairs:
                lhs, rhs = sympy.Matrix(lhs), sympy.Matrix(rhs)
                if lhs.shape != rhs.shape:
                    return CheckRecord(CheckKind.EXPLICIT, DerivationStatus.FAILED, f"at {sz}: shapes differ, "
                                       f"{_shape(lhs)} and {_shape(rhs)}")
                residual = _residual(lhs, rhs)
                if residual is not None:
                    entry = next(v for v in residual if v != 0)
                    return CheckRecord(CheckKind.EXPLICIT, DerivationStatus.FAILED,
                                       f"at {sz}: the residual expands to {short(entry)}, not 0")
        except (sympy.ShapeError, ValueError, TypeError) as err:
            return CheckRecord(CheckKind.EXPLICIT, DerivationStatus.FAILED, f"at {sz}: not defined ({short(str(err))})")
    return CheckRecord(CheckKind.EXPLICIT, DerivationStatus.VERIFIED,
                       f"exact expansion, symbolic entries, {sigma}, at {len(grid)} size"
                       f"{'s' if len(grid) > 1 else ''} ({_describe_grid(dims) or 'one size'}): residual 0")


def short(value: Any, limit: int = 120) -> str:
    """A value as one line of at most ``limit`` characters, for a check's detail."""
    text = value if isinstance(value, str) else sympy.sstr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


@cache  # per formulation object: a replaced builder is checked afresh
def builder_agrees(formulation: Formulation) -> bool:
    """Is the builder's generic entry, for symbolic sizes, the matrix expression's generic entry?"""
    return scalars_equal(formulation.entry(SIGMA), _expression_entry(formulation))


def _expression_entry(formulation: Formulation) -> sympy.Expr:
    """Entry (0, l) of the matrix expression, its stacked parameters read as the per-unit factors."""
    entry = blocks_as_units(formulation.expression(SIGMA)[0, L])
    # column j of M is vec(Q_jK_jᵀ), row-major: M[c, j] = Σ_s Q_{j,⌊c/d⌋,s} K_{j,c mod d,s}
    return entry.replace(lambda e: isinstance(e, MatrixElement) and e.args[0] == BILINEAR,
                         lambda e: sympy.Sum(QU[e.args[2], sympy.floor(e.args[1] / D), INDEX_S]
                                             * KU[e.args[2], sympy.Mod(e.args[1], D), INDEX_S], (INDEX_S, 0, R - 1)))


def blocks_as_units(entry: sympy.Expr) -> sympy.Expr:
    """𝐐 = [Q_1|…|Q_m]: column c of 𝐐 is column c mod r of Q_{⌊c/r⌋+1}, i.e. Qs[i, c] = QU[⌊c/r⌋, i, c mod r]."""
    return entry.replace(lambda e: isinstance(e, MatrixElement) and e.args[0] in (QS, KS),
                         lambda e: (QU if e.args[0] == QS else KU)[sympy.floor(e.args[2] / R), e.args[1],
                                                                   sympy.Mod(e.args[2], R)])
