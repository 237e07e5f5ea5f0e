"""The paper's derivations as step lists in which every step is checked by the machine.

A step (``Claim``) asserts ``lhs = rhs`` and says how to check it. It is ``verified`` only when
a check valid for every size *and* the check at explicit sizes both showed the two sides equal:

* for every size (symbolic d, m, e, r): the matrix expressions rewrite to the same expression
  (``doit``/``block_collapse``), or -- when SymPy's matrix algebra cannot -- a generic entry
  with symbolic indices reduces, by sound rewrites of finite sums (linearity, products of sums,
  block indices, Kronecker deltas), to the same sum up to renaming of summation indices. Where
  the explicit check evaluates a formulation's builder, the builder's own generic entry (the same
  code, with symbolic sizes) must also equal its matrix expression's;
* at explicit sizes: ``expand(lhs - rhs)`` is exactly 0 with symbolic entries and σ opaque
  (``symcheck.language.symbols.SIGMA``) at every size in ``GRID``.

A check that cannot reduce the difference never counts as a proof; a non-zero expanded
residual at an explicit size fails the step. A step whose only passing check ran at explicit
sizes is ``explicit-only``: evidence, not a proof. A derivation is verified only when every step is.

>>> derive("absorb").verified
True
>>> [str(s.status) for s in derive("gated").steps]
['verified', 'verified', 'verified', 'verified']
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Literal, cast

import sympy
from sympy import S
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.matrices.expressions.matexpr import MatrixElement

from symcheck.core.budget import BudgetExceeded, alarm
from symcheck.core.errors import UnknownNameError
from symcheck.core.names import closest
from symcheck.core.rendering import render
from symcheck.core.results import Renderable
from symcheck.language.layer_formulations import (
    BILINEAR,
    FORMULATIONS,
    KS,
    KU,
    Q_G,
    QS,
    QU,
    SYMBOLIC,
    D,
    Formulation,
    K,
    L,
    M,
    Q,
    R,
    Sizes,
    SymbolicSizes,
    V,
    X,
    elementwise,
    input_row,
)
from symcheck.language.symbols import SIGMA, A, B

Pair = tuple[Any, Any]
#: explicit sizes: every d, m, r in 1..3 and e in 1..2 (only the dimensions a claim uses vary)
GRID = {"d": (1, 2, 3), "m": (1, 2, 3), "e": (1, 2), "r": (1, 2, 3)}
#: one unit (no m) stays fast for larger d and r
UNIT_GRID = {**GRID, "d": (1, 2, 3, 4, 5), "r": (1, 2, 3, 4)}
#: seconds allowed for all the checks of one step
STEP_TIMEOUT = 60.0

_F = FORMULATIONS
# index symbols of hand-written sums (bound: i, j, s; free: l, t)
_I, _J, _L, _S, _T = sympy.symbols("i j l s t", integer=True)


# ---- the checks ---------------------------------------------------------------------------------

class DerivationStatus(StrEnum):
    """The outcome of one check of a step, and of the step (see :func:`_status`)."""

    VERIFIED = "verified"
    FAILED = "failed"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    #: a check only: the step has no such check (it says why)
    NOT_APPLICABLE = "not-applicable"
    #: a step only: its one passing check ran at explicit sizes — evidence, never verified
    EXPLICIT_ONLY = "explicit-only"


class StepKind(StrEnum):
    """A derivation step is an identity, or a definition: a change of the model, checked as defined."""

    IDENTITY = "identity"
    DEFINITION = "definition"


@dataclass(frozen=True)
class CheckRecord:
    """One check that was run on a step: its kind, outcome and what was done."""

    kind: str      # "matrix-expression" | "generic-entry" | "scalar" | "explicit" | "budget", or methods joined by "+"
    status: DerivationStatus
    detail: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", DerivationStatus(self.status))  # a typo is an error, not a status

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "status": self.status.value, "detail": self.detail}


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


def _role(variable: sympy.Symbol, body: sympy.Expr) -> str:
    """Where a summation index occurs (which matrix, which slot): its name-free identity."""
    slots = sorted(f"{sympy.sstr(element.args[0])}.{k}" for element in body.atoms(MatrixElement, sympy.Indexed)
                   for k, index in enumerate(element.args[1:]) if index == variable)
    return ",".join(slots)


def _canonical(expr: sympy.Expr, depth: int = 0) -> sympy.Expr:
    """α-rename bound summation indices so that equal sums are equal expressions.

    Sound because it is only ever a renaming: nested sums are merged (Σ_i Σ_j = Σ_{i,j}),
    limits with constant bounds are sorted (finite sums commute), and each index gets a name
    made of its depth, its position and its role -- unique along any chain of nested scopes,
    so no free symbol or outer index is captured.
    """
    if isinstance(expr, sympy.Sum):
        body, limits = expr.function, list(expr.limits)
        # Σ_i (Σ_j f) = Σ_{i,j} f, unless an inner index shadows an outer one
        while isinstance(body, sympy.Sum) and not {v for v, *_ in body.limits} & {v for v, *_ in limits}:
            limits = list(body.limits) + limits
            body = body.function
        body = _canonical(body, depth + 1)
        bound = {limit[0] for limit in limits}
        if len(bound) < len(limits):  # a repeated index: leave this level as it is
            return sympy.Sum(body, *limits)
        roles = {limit[0]: _role(limit[0], body) for limit in limits}
        if not any(bound & (lo.free_symbols | hi.free_symbols) for _, lo, hi in limits):
            limits.sort(key=lambda lim: (roles[lim[0]], sympy.sstr(lim[1]), sympy.sstr(lim[2])))
        renamed = {lim[0]: sympy.Symbol(f"_{depth}_{k}[{roles[lim[0]]}]", integer=True)
                   for k, lim in enumerate(limits)}
        return sympy.Sum(body.xreplace(renamed), *((renamed[v], lo, hi) for v, lo, hi in limits))
    if not expr.args or isinstance(expr, sympy.MatrixSymbol):
        return expr
    return expr.func(*(_canonical(a, depth) if isinstance(a, sympy.Basic) else a for a in expr.args))


def _scalars_equal(lhs: sympy.Expr, rhs: sympy.Expr) -> bool:
    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    difference = _canonical(lhs) - _canonical(rhs)
    if difference == 0 or sympy.expand(difference) == 0:
        return True
    if not (lhs.has(sympy.Sum) or rhs.has(sympy.Sum)):
        return False
    difference = _canonical(_sum_normal(lhs)) - _canonical(_sum_normal(rhs))
    return difference == 0 or sympy.expand(difference) == 0


# ---- finite sums in a normal form ---------------------------------------------------------------
# Every rewrite below is an identity of finite sums that holds for every value of the symbolic
# bounds (with d, m, e, r ≥ 1): linearity, Σ_i f · Σ_t g = Σ_{i,t} f g with fresh indices, a sum
# over one value written out, c ∈ [0, ab) read as c = bJ + S with J ∈ [0, a), S ∈ [0, b) (a
# bijection), and floor, Mod and Kronecker deltas reduced only where the ranges of the indices
# they hold force the value. A rewrite that does not apply leaves the expression as it is, so
# the worst a gap can do is leave two equal sums unequal ("unknown"), never the reverse.

Limits = tuple[tuple[sympy.Symbol, sympy.Expr, sympy.Expr], ...]
Ranges = dict[sympy.Symbol, tuple[sympy.Expr, sympy.Expr]]
#: a sum over at most this many values is written out term by term
_WRITE_OUT = 8


def _sum_normal(expr: sympy.Expr, ranges: Ranges | None = None) -> sympy.Expr:
    """``expr`` as Σ of terms ``c · Σ_{limits} monomial``, sums pulled out of products."""
    ranges = ranges or {}
    return sympy.Add(*(coefficient * (sympy.Sum(body, *limits) if limits else body)
                       for coefficient, limits, body in _collect(_terms(expr, ranges))))


def _collect(terms: list[tuple[Limits, sympy.Expr]]) -> list[tuple[sympy.Expr, Limits, sympy.Expr]]:
    out = []
    for limits, body in terms:
        coefficient, rest = body.as_coeff_Mul()
        out.append((coefficient, limits, rest))
    return out


def _terms(expr: sympy.Expr, ranges: Ranges) -> list[tuple[Limits, sympy.Expr]]:
    """The terms Σ_{limits} body of ``expr``; no body contains a sum outside a function's argument."""
    if isinstance(expr, sympy.Add):
        return [t for a in expr.args for t in _terms(a, ranges)]
    if isinstance(expr, sympy.Mul):
        out: list[tuple[Limits, sympy.Expr]] = [((), S.One)]
        for factor in expr.args:
            out = [(l1 + l2, b1 * b2) for l1, b1 in out for l2, b2 in _terms(factor, ranges)]
        return out
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer and 1 < expr.exp <= _WRITE_OUT and expr.base.has(sympy.Sum):
        return _terms(sympy.Mul(*([expr.base] * int(expr.exp)), evaluate=False), ranges)
    if isinstance(expr, sympy.Sum):
        # fresh indices: nothing outside can be captured when sums merge or factors move in
        fresh = {v: sympy.Dummy(str(v), integer=True) for v, _, _ in expr.limits}
        limits = tuple((fresh[v], lo.xreplace(fresh), hi.xreplace(fresh)) for v, lo, hi in expr.limits)
        inner = {**ranges, **{v: (lo, hi) for v, lo, hi in limits}}
        out = []
        for sub_limits, body in _terms(expr.function.xreplace(fresh), inner):
            out.extend(_simplify_term(sub_limits + limits, body, ranges))
        return out
    if expr.args and expr.has(sympy.Sum, sympy.floor, sympy.Mod, sympy.KroneckerDelta):
        return [((), _reduce_index(expr.func(*(_sum_normal(a, ranges) if isinstance(a, sympy.Expr) else a
                                               for a in expr.args)), ranges))]
    return [((), expr)]


def _simplify_term(limits: Limits, body: sympy.Expr, outer: Ranges) -> list[tuple[Limits, sympy.Expr]]:
    """Write out short sums, split block indices, apply deltas; then reduce floor/Mod/δ in the body."""
    for k, (v, lo, hi) in enumerate(limits):
        rest = limits[:k] + limits[k + 1:]
        count = sympy.simplify(hi - lo + 1)
        if count.is_Integer and 0 <= count <= _WRITE_OUT:  # Σ over `count` values
            out = []
            for value in range(int(count)):
                point = {v: lo + value}
                shifted = tuple((w, a.xreplace(point), b.xreplace(point)) for w, a, b in rest)
                out.extend(_simplify_term(shifted, body.xreplace(point), outer))
            return out
        split = _block_split(v, lo, hi, body)
        if split is not None:
            (J, S_, block), point = split, {v: split[2] * split[0] + split[1]}
            new = rest + ((S_, S.Zero, block - 1), (J, S.Zero, sympy.simplify((hi + 1) / block) - 1))
            return _simplify_term(new, body.xreplace(point), outer)
    ranges = {**outer, **{v: (lo, hi) for v, lo, hi in limits}}
    body = _reduce_index(body, ranges)
    for k, (v, _lo, _hi) in enumerate(limits):
        partner = _delta_partner(v, body, ranges)
        if partner is not None and all(v not in (a.free_symbols | b.free_symbols) for _, a, b in limits):
            point = {v: partner}
            body = _reduce_index(body.xreplace(point).replace(
                lambda e: isinstance(e, sympy.KroneckerDelta) and e.args[0] == e.args[1], lambda e: S.One), ranges)
            return _simplify_term(limits[:k] + limits[k + 1:], body, outer)
    return [(limits, body)]


def _block_split(v: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr, body: sympy.Expr
                 ) -> tuple[sympy.Symbol, sympy.Symbol, sympy.Expr] | None:
    """c ∈ [0, ab) with floor(c/b) in the body: (J, S, b) for c = bJ + S."""
    if lo != 0:
        return None
    size = sympy.expand(hi + 1)
    for node in body.atoms(sympy.floor):
        numerator, denominator = sympy.fraction(sympy.together(node.args[0]))
        blocks = sympy.simplify(size / denominator)
        if numerator == v and denominator.is_integer and denominator.is_positive \
                and blocks.is_integer and blocks.is_positive and blocks != 1:
            return sympy.Dummy("J", integer=True), sympy.Dummy("S", integer=True), denominator
    return None


def _in_range(index: sympy.Expr, lo: sympy.Expr, hi: sympy.Expr, ranges: Ranges) -> bool:
    """Is ``lo ≤ index ≤ hi`` forced by the index's own range (the same bounds, or a number)?"""
    if index.is_Integer:
        return bool(sympy.simplify(index - lo).is_nonnegative and sympy.simplify(hi - index).is_nonnegative)
    own = ranges.get(index)
    return (own is not None and sympy.simplify(own[0] - lo) == 0 and sympy.simplify(own[1] - hi) == 0
            and _proper(lo, hi))


def _proper(lo: sympy.Expr, hi: sympy.Expr) -> bool:
    """lo ≤ hi + 1 for every value of the dimensions: an ordinary range, not a reversed sum."""
    return bool(sympy.simplify(hi - lo + 1).is_nonnegative)


def _reduce_index(expr: sympy.Expr, ranges: Ranges) -> sympy.Expr:
    """floor(J + S/b) = J and Mod(S, b) = S when S ∈ [0, b); δ over a range both sides lie in."""
    def floor_rule(node: sympy.floor) -> sympy.Expr:
        whole: list[sympy.Expr] = []
        part: list[sympy.Expr] = []
        for term in sympy.Add.make_args(sympy.expand(node.args[0])):
            (whole if term.is_integer else part).append(term)
        numerator, denominator = sympy.fraction(sympy.together(sympy.Add(*part)))
        if not part or (numerator.is_Symbol and denominator.is_positive
                        and _in_range(numerator, S.Zero, denominator - 1, ranges)):
            return sympy.Add(*whole)
        return node

    def mod_rule(node: sympy.Mod) -> sympy.Expr:
        value, modulus = node.args
        return value if modulus.is_positive and _in_range(value, S.Zero, modulus - 1, ranges) else node

    def delta_rule(node: sympy.KroneckerDelta) -> sympy.Expr:
        if len(node.args) == 3:
            lo, hi = node.args[2]
            if all(_in_range(a, lo, hi, ranges) for a in node.args[:2]):
                return sympy.KroneckerDelta(node.args[0], node.args[1])
        return node

    expr = expr.replace(lambda e: isinstance(e, sympy.floor), floor_rule)
    expr = expr.replace(lambda e: isinstance(e, sympy.Mod), mod_rule)
    return expr.replace(lambda e: isinstance(e, sympy.KroneckerDelta), delta_rule)


def _delta_partner(v: sympy.Symbol, body: sympy.Expr, ranges: Ranges) -> sympy.Expr | None:
    """The value a factor δ(v, a) of the body forces on v, when a lies in v's own range."""
    lo, hi = ranges[v]
    if not _proper(lo, hi):
        return None
    for factor in sympy.Mul.make_args(body):
        if isinstance(factor, sympy.KroneckerDelta) and len(factor.args) == 2 and v in factor.args:
            other = factor.args[1] if factor.args[0] == v else factor.args[0]
            if v not in other.free_symbols and _in_range(other, lo, hi, ranges):
                return other
    return None


def _generic_entry(matrix: sympy.MatrixExpr) -> sympy.Expr:
    row = 0 if matrix.rows == 1 else _T
    col = 0 if matrix.cols == 1 else _L
    return matrix[row, col]


_METHODS = {
    "matrix-expression": "matrix-expression algebra with symbolic d, m, e, r: both sides rewrite to "
                         "the same expression",
    "generic-entry": "generic entry with symbolic dimensions and indices: the same sum up to renaming "
                     "of summation indices, after sound rewrites of finite sums",
    "scalar": "exact: the difference expands to 0",
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


def _check_symbolic(pairs: Sequence[Pair]) -> CheckRecord:
    """Every pair shown equal with symbolic dimensions, or the first one that was not."""
    used: list[str] = []
    for lhs, rhs in pairs:
        problem = _nonconforming(lhs) or _nonconforming(rhs)
        if problem:
            return CheckRecord("matrix-expression", DerivationStatus.FAILED,
                               f"shapes do not conform for all dimensions: {problem}")
        if isinstance(lhs, sympy.MatrixExpr) and isinstance(rhs, sympy.MatrixExpr):
            if lhs.shape != rhs.shape:
                return CheckRecord("matrix-expression", DerivationStatus.FAILED,
                                   f"shapes differ: {_shape(lhs)} and {_shape(rhs)}")
            if _matrix_equal(lhs, rhs):
                method = "matrix-expression"
            elif _scalars_equal(_generic_entry(lhs), _generic_entry(rhs)):
                method = "generic-entry"
            else:
                return CheckRecord("matrix-expression", DerivationStatus.UNKNOWN,
                                   "the difference did not rewrite to 0 (not a disproof)")
        else:
            method = "generic-entry" if any(isinstance(side, sympy.Basic) and side.has(sympy.Sum)
                                            for side in (lhs, rhs)) else "scalar"
            if not _scalars_equal(lhs, rhs):
                return CheckRecord(method, DerivationStatus.UNKNOWN,
                                   "the difference did not reduce to 0 (not a disproof)")
        used.append(method)
    methods = list(dict.fromkeys(used))
    count = f" ({len(pairs)} identities)" if len(pairs) > 1 else ""
    return CheckRecord("+".join(methods), DerivationStatus.VERIFIED, "; ".join(_METHODS[m] for m in methods) + count)


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


def _check_explicit(build: Callable[[Sizes], Pair | list[Pair]], dims: str, sigma: str = "σ opaque") -> CheckRecord:
    grid = _grid(dims)
    for sz in grid:
        try:
            built = build(sz)
            pairs = built if isinstance(built, list) else [built]
            for lhs, rhs in pairs:
                lhs, rhs = sympy.Matrix(lhs), sympy.Matrix(rhs)
                if lhs.shape != rhs.shape:
                    return CheckRecord("explicit", DerivationStatus.FAILED, f"at {sz}: shapes differ, "
                                       f"{_shape(lhs)} and {_shape(rhs)}")
                residual = _residual(lhs, rhs)
                if residual is not None:
                    entry = next(v for v in residual if v != 0)
                    return CheckRecord("explicit", DerivationStatus.FAILED,
                                       f"at {sz}: the residual expands to {_short(entry)}, not 0")
        except (sympy.ShapeError, ValueError, TypeError) as err:
            return CheckRecord("explicit", DerivationStatus.FAILED, f"at {sz}: not defined ({_short(str(err))})")
    return CheckRecord("explicit", DerivationStatus.VERIFIED,
                       f"exact expansion, symbolic entries, {sigma}, at {len(grid)} size"
                       f"{'s' if len(grid) > 1 else ''} ({_describe_grid(dims) or 'one size'}): residual 0")


def _short(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else sympy.sstr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---- steps and derivations ---------------------------------------------------------------------

@dataclass(frozen=True)
class Claim:
    """A step before it is checked: ``lhs = rhs`` in text and LaTeX, why, and how to check it.

    ``explicit`` returns, for one ``Sizes``, a pair (or list of pairs) of explicit matrices;
    it is required for a step to be verified, and ``dims`` names the dimensions it ranges over.
    ``symbolic`` returns (lhs, rhs) pairs of matrix expressions in symbolic dimensions or of
    scalar expressions (sums with symbolic bounds allowed); where there is none, ``no_symbolic``
    says why. A definition step changes the model; its check is that the defined expression is
    the one claimed.
    """

    text: str
    latex: str
    justification: str
    symbolic: Callable[[], Pair | list[Pair]] | None = None
    explicit: Callable[[Sizes], Pair | list[Pair]] | None = None
    dims: str = "dme"
    definition: bool = False
    no_symbolic: str = ""   # why there is no symbolic-dimension check, when there is none
    builders: tuple[str, ...] = ()  # formulations whose explicit builders the explicit check uses
    sigma: str = "σ opaque"  # the σ the explicit check uses, for its description

    def verify(self, timeout: float = STEP_TIMEOUT) -> DerivationStep:
        """Run the claim's checks (every size, then explicit sizes) into a step with its status."""
        records: list[CheckRecord] = []
        try:
            with alarm(timeout):
                if self.symbolic is not None:
                    records.append(self._run_symbolic(self.symbolic))
                if self.explicit is not None:
                    records.append(_check_explicit(self.explicit, self.dims, self.sigma))
        except BudgetExceeded:
            records.append(CheckRecord("budget", DerivationStatus.TIMEOUT, f"the checks ran out of {timeout:g} s"))
        if self.symbolic is None:
            records.insert(0, CheckRecord("matrix-expression", DerivationStatus.NOT_APPLICABLE,
                                          "no check for every size: " + (self.no_symbolic or "none given")))
        return DerivationStep(self.text, self.latex, self.justification, _status(records),
                              tuple(records), StepKind.DEFINITION if self.definition else StepKind.IDENTITY)

    def _run_symbolic(self, symbolic: Callable[[], Pair | list[Pair]]) -> CheckRecord:
        try:
            built = symbolic()
        except (sympy.ShapeError, ValueError, TypeError) as err:
            return CheckRecord("matrix-expression", DerivationStatus.FAILED, f"not defined: {_short(str(err))}")
        try:
            record = _check_symbolic(built if isinstance(built, list) else [built])
        except RecursionError:
            return CheckRecord("generic-entry", DerivationStatus.UNKNOWN,
                               "the rewriting did not terminate (not a disproof)")
        if record.status is not DerivationStatus.VERIFIED or not self.builders:
            return record
        # the explicit check evaluates these builders: they must be the matrix expressions at every size
        stray = [name for name in self.builders if not _builder_agrees(_F[name])]
        if stray:
            return CheckRecord("generic-entry", DerivationStatus.UNKNOWN, f"the {', '.join(stray)} builder's generic "
                               "entry did not reduce to its matrix expression's (not a disproof)")
        return CheckRecord(record.kind, record.status, f"{record.detail}; the explicit builders of "
                           f"{', '.join(self.builders)} equal their matrix expressions entry by entry, for every size")


#: a step whose only passing check ran at explicit sizes: evidence, not a proof, never verified
EXPLICIT_ONLY = DerivationStatus.EXPLICIT_ONLY


def _status(records: Iterable[CheckRecord]) -> DerivationStatus:
    """failed > timeout > unknown; verified needs both a check valid for every size and the explicit
    check; the explicit check alone gives ``explicit-only``."""
    records = list(records)
    ran = [r.status for r in records if r.status is not DerivationStatus.NOT_APPLICABLE]
    for status in (DerivationStatus.FAILED, DerivationStatus.TIMEOUT, DerivationStatus.UNKNOWN):
        if status in ran:
            return status
    explicit = any(r.kind == "explicit" and r.status is DerivationStatus.VERIFIED for r in records)
    every_size = any(r.kind not in ("explicit", "budget") and r.status is DerivationStatus.VERIFIED for r in records)
    if explicit and every_size:
        return DerivationStatus.VERIFIED
    return EXPLICIT_ONLY if explicit else DerivationStatus.UNKNOWN


@dataclass(frozen=True)
class DerivationStep:
    """One checked step: the claim, why it holds, what the machine ran, and the outcome."""

    text: str
    latex: str
    justification: str
    status: DerivationStatus
    checks: tuple[CheckRecord, ...] = ()
    kind: StepKind = StepKind.IDENTITY

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", DerivationStatus(self.status))
        object.__setattr__(self, "kind", StepKind(self.kind))

    @property
    def verified(self) -> bool:
        return self.status is DerivationStatus.VERIFIED

    @property
    def checks_run(self) -> str:
        """The checks that were run, one line."""
        return "; ".join(f"{r.kind}: {r.detail}" for r in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"latex": self.latex, "text": self.text, "justification": self.justification,
                "status": self.status.value, "kind": self.kind.value, "check": self.checks_run,
                "checks": [r.to_dict() for r in self.checks]}


@dataclass(frozen=True)
class Derivation(Renderable):
    """A named derivation; verified only when every step is."""


    name: str
    title: str
    statement: str
    statement_latex: str
    steps: tuple[DerivationStep, ...]
    elapsed: float = 0.0

    @classmethod
    def from_claims(cls, name: str, title: str, statement: str, claims: Sequence[Claim],
                    statement_latex: str = "", timeout: float = STEP_TIMEOUT) -> Derivation:
        """Verify every claim and collect the steps."""
        started = time.perf_counter()
        steps = tuple(claim.verify(timeout) for claim in claims)
        return cls(name, title, statement, statement_latex, steps, time.perf_counter() - started)

    @property
    def verified(self) -> bool:
        return bool(self.steps) and all(step.verified for step in self.steps)

    @property
    def status(self) -> Literal["verified", "not verified"]:
        return "verified" if self.verified else "not verified"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "statement": self.statement,
                "verified": self.verified, "steps": [s.to_dict() for s in self.steps],
                "elapsed_seconds": round(self.elapsed, 4)}

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))


# ---- helpers for the claims --------------------------------------------------------------------

def _params(name: str, sz: Sizes) -> dict[str, sympy.Matrix]:
    return _F[name].parameters(sz)


def _dot(x: sympy.Matrix, row: sympy.Matrix) -> sympy.Expr:
    return sum((x[i] * row[i] for i in range(x.cols)), S.Zero)


def _unit_layer(unit: Callable, sigma: Callable, sz: Sizes, keys: sympy.Matrix, values: sympy.Matrix,
                queries: sympy.Matrix | None = None) -> sympy.Matrix:
    """Σ_j unit(σ, a_j, b_j) v_j with a_j = x·q_j and b_j = x·k_j, unit by unit."""
    x, out = input_row(sz.d), sympy.zeros(1, values.cols)
    for j in range(keys.rows):
        a = _dot(x, queries[j, :]) if queries is not None else S.Zero
        out += unit(sigma, a, _dot(x, keys[j, :])) * values[j, :]
    return out


def _entry_sum(unit: Callable, query: sympy.MatrixSymbol | None = Q, key: sympy.MatrixSymbol = K) -> sympy.Expr:
    """Σ_{j<m} unit(σ, a_j, b_j) V_{j,l} with a_j = Σ_i x_i Q_{j,i}: the generic output entry."""
    def dot(W: sympy.MatrixSymbol) -> sympy.Expr:
        return sympy.Sum(X[0, _I] * W[_J, _I], (_I, 0, D - 1))

    return sympy.Sum(unit(SIGMA, dot(query) if query is not None else S.Zero, dot(key)) * V[_J, _L],
                     (_J, 0, M - 1))


def _rank1_unit(s: Callable, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    return s(a * b)


def _gated_unit(s: Callable, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    return s(a) * b


def _mlp_unit(s: Callable, a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    return s(b)


# per-unit symbols for symbolic-dimension checks
_q, _k, _w = (sympy.MatrixSymbol(n, 1, D) for n in ("q_j", "k_j", "w_j"))
_Qj, _Kj = sympy.MatrixSymbol("Q_j", D, R), sympy.MatrixSymbol("K_j", D, R)
_c, _u, _v = (sympy.MatrixSymbol(n, 1, R) for n in ("c_j", "u", "w"))
_W = sympy.MatrixSymbol("W", M, D)
_Mj = sympy.MatrixSymbol("M_j", D, D)


@cache  # per formulation object: a replaced builder is checked afresh
def _builder_agrees(formulation: Formulation) -> bool:
    """Is the builder's generic entry, for symbolic sizes, the matrix expression's generic entry?"""
    return _scalars_equal(formulation.entry(SIGMA), _expression_entry(formulation))


def _expression_entry(formulation: Formulation) -> sympy.Expr:
    """Entry (0, l) of the matrix expression, its stacked parameters read as the per-unit factors."""
    entry = _blocks_as_units(formulation.expression(SIGMA)[0, L])
    # column j of M is vec(Q_jK_jᵀ), row-major: M[c, j] = Σ_s Q_{j,⌊c/d⌋,s} K_{j,c mod d,s}
    return entry.replace(lambda e: isinstance(e, MatrixElement) and e.args[0] == BILINEAR,
                         lambda e: sympy.Sum(QU[e.args[2], sympy.floor(e.args[1] / D), _S]
                                             * KU[e.args[2], sympy.Mod(e.args[1], D), _S], (_S, 0, R - 1)))


def _rank_one_units(entry: sympy.Expr) -> sympy.Expr:
    """A per-unit entry at r = 1 with Q_j = q_jᵀ, K_j = k_jᵀ: the one-term rank sum written out and
    (Q_j)_{i,1} = Q_{j,i}, (K_j)_{i,1} = K_{j,i} (the rows of Q and K)."""
    entry = entry.replace(lambda e: isinstance(e, sympy.Sum) and any(lo == hi for _, lo, hi in e.limits),
                          lambda e: _write_out_single(e))
    return entry.replace(lambda e: isinstance(e, sympy.Indexed) and e.base in (QU, KU) and e.indices[2] == 0,
                         lambda e: (Q if e.base == QU else K)[e.indices[0], e.indices[1]])


def _write_out_single(total: sympy.Sum) -> sympy.Expr:
    """Σ over a single value is that value's term."""
    body, kept = total.function, []
    for v, lo, hi in total.limits:
        if lo == hi:
            body = body.subs(v, lo)
        else:
            kept.append((v, lo, hi))
    return sympy.Sum(body, *kept) if kept else body


def _blocks_as_units(entry: sympy.Expr) -> sympy.Expr:
    """𝐐 = [Q_1|…|Q_m]: column c of 𝐐 is column c mod r of Q_{⌊c/r⌋+1}, i.e. Qs[i, c] = QU[⌊c/r⌋, i, c mod r]."""
    return entry.replace(lambda e: isinstance(e, MatrixElement) and e.args[0] in (QS, KS),
                         lambda e: (QU if e.args[0] == QS else KU)[sympy.floor(e.args[2] / R), e.args[1],
                                                                   sympy.Mod(e.args[2], R)])


def _columns(matrix: sympy.Matrix) -> list[sympy.Matrix]:
    return [matrix[:, s] for s in range(matrix.cols)]


def _rows_as_units(prefix: str, matrix: sympy.Matrix) -> dict[str, sympy.Matrix]:
    """Rank-1 rows q_j as per-unit d×1 factors Q_j = q_jᵀ."""
    return {f"{prefix}_{j + 1}": matrix[j, :].T for j in range(matrix.rows)}


# ---- absorb -------------------------------------------------------------------------------------

def _absorb() -> list[Claim]:
    qm, mlp = _F["query-mlp"], _F["mlp"]

    def keys(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
        p = _params("query-mlp", sz)
        return p["Q_g"], p["K"]

    return [
        Claim("σ((xQ_g)Kᵀ)V = σ(x(Q_gKᵀ))V",
              r"\sigma\big((xQ_g)K^\top\big)V = \sigma\big(x(Q_gK^\top)\big)V",
              "matrix multiplication is associative",
              symbolic=lambda: (elementwise(SIGMA, sympy.MatMul(sympy.MatMul(X, Q_G), K.T)) * V,
                                elementwise(SIGMA, sympy.MatMul(X, sympy.MatMul(Q_G, K.T))) * V),
              explicit=lambda sz: ((input_row(sz.d) * keys(sz)[0]) * keys(sz)[1].T,
                                   input_row(sz.d) * (keys(sz)[0] * keys(sz)[1].T)),
              dims="dm"),
        Claim("Q_gKᵀ = (KQ_gᵀ)ᵀ", r"Q_g K^\top = \big(K Q_g^\top\big)^\top",
              "the transpose of a product is the product of the transposes in reverse order",
              symbolic=lambda: (Q_G * K.T, sympy.Transpose(K * Q_G.T)),
              explicit=lambda sz: (keys(sz)[0] * keys(sz)[1].T, (keys(sz)[1] * keys(sz)[0].T).T),
              dims="dm"),
        Claim("σ((xQ_g)Kᵀ)V = σ(xK'ᵀ)V with K' = KQ_gᵀ ∈ R^{m×d}",
              r"\sigma\big((xQ_g)K^\top\big)V = \sigma\big(xK'^\top\big)V,"
              r"\quad K' = KQ_g^\top \in \mathbb{R}^{m\times d}",
              "steps 1–2: the query-mlp is the mlp whose keys are K' = KQ_gᵀ (the global query absorbed)",
              symbolic=lambda: (qm.expression(SIGMA), mlp.expression(SIGMA).xreplace({K: K * Q_G.T})),
              explicit=lambda sz: (qm.explicit(SIGMA, sz), mlp.explicit(SIGMA, sz, K=keys(sz)[1] * keys(sz)[0].T)),
              builders=("query-mlp", "mlp")),
        Claim("Q_g = I_d gives σ(xKᵀ)V: every mlp is a query-mlp, so the two families coincide",
              r"Q_g = I_d:\ \sigma\big((xI_d)K^\top\big)V = \sigma(xK^\top)V",
              "the converse: with the identity as global query nothing is absorbed",
              symbolic=lambda: (qm.expression(SIGMA).xreplace({Q_G: sympy.Identity(D)}), mlp.expression(SIGMA)),
              explicit=lambda sz: (qm.explicit(SIGMA, sz, Q_g=sympy.eye(sz.d)), mlp.explicit(SIGMA, sz)),
              builders=("query-mlp", "mlp")),
    ]


# ---- rank1 --------------------------------------------------------------------------------------

def _rank1_from_bilinear(sz: Sizes) -> dict[str, sympy.Matrix]:
    p = _params("rank1", sz)
    return {**_rows_as_units("Q", p["Q"]), **_rows_as_units("K", p["K"]), "V": p["V"]}


def _rank1() -> list[Claim]:
    rank1, bilinear = _F["rank1"], _F["bilinear"]
    Q1, K1 = sympy.MatrixSymbol("Q_j", D, 1), sympy.MatrixSymbol("K_j", D, 1)

    def unit_factors(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
        p = _params("rank1", sz)
        return p["Q"][0, :], p["K"][0, :]

    return [
        Claim("Q_jK_jᵀ = q_jᵀk_j at r = 1 (Q_j = q_jᵀ, K_j = k_jᵀ with rows q_j, k_j ∈ R^{1×d})",
              r"r = 1:\ Q_j K_j^\top = q_j^\top k_j",
              "at rank 1 each factor is one column; their product is an outer product",
              symbolic=lambda: ((Q1 * K1.T).xreplace({Q1: _q.T, K1: _k.T}), _q.T * _k),
              explicit=lambda sz: (_rank1_from_bilinear(sz)["Q_1"] * _rank1_from_bilinear(sz)["K_1"].T,
                                   unit_factors(sz)[0].T * unit_factors(sz)[1]),
              dims="d"),
        Claim("xQ_jK_jᵀxᵀ = (xq_jᵀ)(xk_jᵀ)ᵀ = (x·q_j)(x·k_j) = a_j b_j",
              r"x Q_j K_j^\top x^\top = (x q_j^\top)(x k_j^\top)^\top = (x\cdot q_j)(x\cdot k_j) = a_j b_j",
              "associativity, and a 1×1 matrix is its own transpose",
              symbolic=lambda: ((X * Q1 * K1.T * X.T).xreplace({Q1: _q.T, K1: _k.T}), (X * _q.T) * (X * _k.T).T),
              explicit=lambda sz: ((input_row(sz.d) * _rank1_from_bilinear(sz)["Q_1"]
                                    * _rank1_from_bilinear(sz)["K_1"].T * input_row(sz.d).T),
                                   sympy.Matrix([[_dot(input_row(sz.d), unit_factors(sz)[0])
                                                  * _dot(input_row(sz.d), unit_factors(sz)[1])]])),
              dims="d"),
        Claim("Σ_j σ(a_j b_j) v_j = σ((xQᵀ)⊙(xKᵀ))V with the rows q_j, k_j, v_j stacked in Q, K, V",
              r"\sum_j \sigma(a_j b_j)\, v_j = \sigma\big((xQ^\top) \odot (xK^\top)\big) V",
              "(xQᵀ)_j = a_j and (xKᵀ)_j = b_j; ⊙ multiplies them unit by unit; ·V sums the v_j",
              symbolic=lambda: (_entry_sum(_rank1_unit), rank1.expression(SIGMA)[0, _L]),
              explicit=lambda sz: (_unit_layer(_rank1_unit, SIGMA, sz, _params("rank1", sz)["K"],
                                               _params("rank1", sz)["V"], _params("rank1", sz)["Q"]),
                                   rank1.explicit(SIGMA, sz)), builders=("rank1",)),
        Claim("Σ_j σ(xQ_jK_jᵀxᵀ) v_j = σ((xQᵀ)⊙(xKᵀ))V at r = 1: full bilinear attention is the rank-1 form",
              r"r = 1:\ \sum_j \sigma\big(xQ_jK_j^\top x^\top\big)\, v_j = \sigma\big((xQ^\top) \odot (xK^\top)\big) V",
              "steps 1–3, unit by unit",
              symbolic=lambda: [(_rank_one_units(bilinear.entry(SIGMA, SymbolicSizes(D, M, SYMBOLIC.e, 1))),
                                 rank1.entry(SIGMA)),
                                (rank1.entry(SIGMA), rank1.expression(SIGMA)[0, L])],
              explicit=lambda sz: (bilinear.explicit(SIGMA, sz, **_rank1_from_bilinear(sz)), rank1.explicit(SIGMA, sz)),
              builders=("bilinear", "rank1")),
    ]


# ---- mlp ----------------------------------------------------------------------------------------

def _static_layer(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
    """Σ_j σ(c_j (xK_j)ᵀ) v_j (query replaced by constants c_j), and the mlp with keys W = rows c_j K_jᵀ."""
    p, x = _params("bilinear", sz), input_row(sz.d)
    consts = [sympy.Matrix(1, sz.r, lambda _, s, j=j: sympy.Symbol(f"c_{{{j},{s + 1}}}", real=True))
              for j in range(1, sz.m + 1)]
    out = sympy.zeros(1, sz.e)
    for j in range(1, sz.m + 1):
        out += SIGMA((consts[j - 1] * (x * p[f"K_{j}"]).T)[0, 0]) * p["V"][j - 1, :]
    W = sympy.Matrix.vstack(*(consts[j - 1] * p[f"K_{j}"].T for j in range(1, sz.m + 1)))
    return out, _F["mlp"].explicit(SIGMA, sz, K=W, V=p["V"])


def _mlp_in_bilinear(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
    """Bilinear attention on x̂ = [x 1] with Q_j = e_{d+1}, K_j = [w_jᵀ; 0], and the mlp with keys W."""
    mlp, p = _F["mlp"], _params("mlp", sz)
    W, x = p["K"], input_row(sz.d)
    x_hat = x.row_join(sympy.Matrix([[1]]))
    e_last = sympy.zeros(sz.d, 1).col_join(sympy.Matrix([[1]]))
    units = {f"Q_{j}": e_last for j in range(1, sz.m + 1)}
    units.update({f"K_{j}": W[j - 1, :].T.col_join(sympy.Matrix([[0]])) for j in range(1, sz.m + 1)})
    lifted = _F["bilinear"].explicit(SIGMA, Sizes(sz.d + 1, sz.m, sz.e, 1), x=x_hat, V=p["V"], **units)
    return lifted, mlp.explicit(SIGMA, sz)


def _mlp() -> list[Claim]:
    mlp = _F["mlp"]
    one = sympy.Identity(1)
    x_hat = sympy.BlockMatrix([[X, one]])
    q_hat = sympy.BlockMatrix([[sympy.ZeroMatrix(D, 1)], [one]])
    k_hat = sympy.BlockMatrix([[_w.T], [sympy.ZeroMatrix(1, 1)]])
    return [
        Claim("σ(xW1ᵀ)W2 = Σ_j σ(x·k_j) v_j with K = W1 (rows k_j) and V = W2 (rows v_j)",
              r"\sigma(xW_1^\top)W_2 = \sum_j \sigma(x\cdot k_j)\, v_j,\quad K = W_1,\ V = W_2",
              "the MLP is a key-value memory: unit j fires on its key k_j and writes its value v_j",
              symbolic=lambda: (mlp.expression(SIGMA)[0, _L], _entry_sum(_mlp_unit, query=None)),
              explicit=lambda sz: (mlp.explicit(SIGMA, sz),
                                   _unit_layer(_mlp_unit, SIGMA, sz, _params("mlp", sz)["K"],
                                               _params("mlp", sz)["V"])), builders=("mlp",)),
        Claim("xQ_jK_jᵀxᵀ = (xQ_j)(xK_j)ᵀ: a query factor xQ_j and a key factor xK_j, both from x",
              r"x Q_j K_j^\top x^\top = (xQ_j)(xK_j)^\top",
              "associativity and (AB)ᵀ = BᵀAᵀ: bilinear attention computes both factors from x",
              symbolic=lambda: (X * _Qj * _Kj.T * X.T, (X * _Qj) * sympy.Transpose(X * _Kj)),
              explicit=lambda sz: (input_row(sz.d) * _params("bilinear", sz)["Q_1"] * _params("bilinear", sz)["K_1"].T
                                   * input_row(sz.d).T,
                                   (input_row(sz.d) * _params("bilinear", sz)["Q_1"])
                                   * (input_row(sz.d) * _params("bilinear", sz)["K_1"]).T),
              dims="dr"),
        Claim("make the query static: xQ_j ↦ c_j ∈ R^{1×r}, independent of x; then c_j(xK_j)ᵀ = w_jxᵀ = x·w_j "
              "with w_j = c_jK_jᵀ ∈ R^{1×d}",
              r"xQ_j \mapsto c_j:\quad c_j (xK_j)^\top = w_j x^\top = x\cdot w_j,\quad w_j = c_j K_j^\top",
              "a definition (the query is no longer computed from x); checked: the unit's argument "
              "becomes linear in x with weights c_jK_jᵀ",
              definition=True,
              symbolic=lambda: [(_c * sympy.Transpose(X * _Kj), (_c * _Kj.T) * X.T),
                                ((_c * _Kj.T) * X.T, X * sympy.Transpose(_c * _Kj.T))],
              explicit=lambda sz: _static_unit(sz), dims="dr"),
        Claim("Σ_j σ(c_j(xK_j)ᵀ) v_j = σ(xWᵀ)V with W = rows w_j = c_jK_jᵀ: the standard MLP, W1 = W, W2 = V",
              r"\sum_j \sigma\big(c_j (xK_j)^\top\big)\, v_j = \sigma(xW^\top)V,\quad W = \begin{pmatrix} c_1K_1^\top"
              r"\\ \vdots \\ c_mK_m^\top\end{pmatrix}",
              "step 3 for every unit, stacked as in step 1",
              symbolic=lambda: (_entry_sum(_mlp_unit, query=None, key=_W),
                                mlp.expression(SIGMA).xreplace({K: _W})[0, _L]),
              explicit=lambda sz: _static_layer(sz), dims="dmer", builders=("mlp",)),
        Claim("every MLP arises inside bilinear attention: x̂ = [x 1], r = 1, Q_j = e_{d+1} (x̂Q_j = 1, static), "
              "K_j = [w_jᵀ; 0] ⇒ Σ_j σ(x̂Q_jK_jᵀx̂ᵀ) v_j = σ(xWᵀ)V",
              r"\hat x = (x\ \ 1),\ Q_j = e_{d+1},\ K_j = \begin{pmatrix} w_j^\top \\ 0\end{pmatrix}:\quad "
              r"\hat x Q_j = 1,\ \ \sum_j \sigma\big(\hat x Q_j K_j^\top \hat x^\top\big)\, v_j = \sigma(xW^\top)V",
              "a query that reads only a constant input coordinate is static (the bias trick)",
              symbolic=lambda: [(x_hat * q_hat, one), (x_hat * q_hat * k_hat.T * x_hat.T, _w * X.T)],
              explicit=_mlp_in_bilinear, builders=("bilinear", "mlp")),
    ]


def _static_unit(sz: Sizes) -> list[Pair]:
    x, Kj = input_row(sz.d), _params("bilinear", sz)["K_1"]
    c = sympy.Matrix(1, sz.r, lambda _, s: sympy.Symbol(f"c_{{1,{s + 1}}}", real=True))
    w = c * Kj.T
    return [(c * (x * Kj).T, w * x.T), (w * x.T, sympy.Matrix([[_dot(x, w)]]))]


# ---- gated --------------------------------------------------------------------------------------

def move_sigma_onto_query(expr: sympy.MatrixExpr, query: sympy.MatrixSymbol = Q) -> sympy.MatrixExpr:
    """Rewrite σ(A ⊙ B) to σ(A) ⊙ B where A is the factor computed with the query matrix."""
    def rule(node: ElementwiseApplyFunction) -> sympy.MatrixExpr:
        factors = node.expr.args
        first = [f for f in factors if f.has(query)]
        if len(first) != 1:
            return node
        rest = [f for f in factors if f is not first[0]]
        return sympy.HadamardProduct(ElementwiseApplyFunction(node.function, first[0]), *rest)

    return expr.replace(lambda n: isinstance(n, ElementwiseApplyFunction)
                        and isinstance(n.expr, sympy.HadamardProduct), rule)


def _moved_rank1(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix]:
    """The explicit rank-1 layer with every σ(a_j b_j) rewritten to σ(a_j)·b_j, and the gated layer."""
    p, x = _params("rank1", sz), input_row(sz.d)
    a, b = x * p["Q"].T, x * p["K"].T
    moved = _F["rank1"].explicit(SIGMA, sz).xreplace({SIGMA(a[j] * b[j]): SIGMA(a[j]) * b[j] for j in range(sz.m)})
    return moved, _F["gated"].explicit(SIGMA, sz)


def _gated() -> list[Claim]:
    rank1, gated = _F["rank1"], _F["gated"]
    c = sympy.Symbol("c", real=True)

    def linear(z: sympy.Expr) -> sympy.Expr:
        return c * z

    residual = SIGMA(A * B) - SIGMA(A) * B

    def layer(unit: Callable) -> Callable[[Sizes], sympy.Matrix]:
        return lambda sz: _unit_layer(unit, SIGMA, sz, _params("rank1", sz)["K"], _params("rank1", sz)["V"],
                                      _params("rank1", sz)["Q"])

    return [
        Claim("rank-1 unit s(a, b) = σ(a·b): σ((xQᵀ)⊙(xKᵀ))V = Σ_j σ(a_j b_j) v_j",
              r"s(a,b) = \sigma(a\,b):\quad \sigma\big((xQ^\top) \odot (xK^\top)\big)V = \sum_j \sigma(a_j b_j)\, v_j",
              "the rank-1 layer (derivation rank1): σ acts on the product of the two projections",
              symbolic=lambda: (rank1.expression(SIGMA)[0, _L], _entry_sum(_rank1_unit)),
              explicit=lambda sz: (rank1.explicit(SIGMA, sz), layer(_rank1_unit)(sz)), builders=("rank1",)),
        Claim("gated unit g(a, b) = σ(a)·b: (σ(xQᵀ)⊙(xKᵀ))V = Σ_j σ(a_j) b_j v_j",
              r"g(a,b) = \sigma(a)\,b:\quad \big(\sigma(xQ^\top) \odot (xK^\top)\big)V"
              r" = \sum_j \sigma(a_j)\, b_j\, v_j",
              "the same shape as step 1: a sum over units of u(a_j, b_j) v_j with a_j = x·q_j, "
              "b_j = x·k_j; only the unit differs",
              symbolic=lambda: (gated.expression(SIGMA)[0, _L], _entry_sum(_gated_unit)),
              explicit=lambda sz: (gated.explicit(SIGMA, sz), layer(_gated_unit)(sz)), builders=("gated",)),
        Claim("move σ from the product onto the first factor, σ(a_j b_j) ↦ σ(a_j)·b_j: "
              "σ((xQᵀ)⊙(xKᵀ))V ↦ (σ(xQᵀ)⊙(xKᵀ))V",
              r"\sigma(a_j b_j) \mapsto \sigma(a_j)\, b_j:\quad \sigma\big((xQ^\top) \odot (xK^\top)\big)V "
              r"\ \mapsto\ \big(\sigma(xQ^\top) \odot (xK^\top)\big)V",
              "a definition that changes the model, not an identity; checked: rewriting the rank-1 "
              "expression this way gives exactly the gated MLP",
              definition=True,
              symbolic=lambda: (move_sigma_onto_query(rank1.expression(SIGMA)), gated.expression(SIGMA)),
              explicit=_moved_rank1, builders=("rank1", "gated")),
        Claim("σ(a·b) = σ(a)·b for all a, b ⇔ σ(z) = σ(1)·z: the two layers differ unless σ is linear",
              r"\sigma(ab) \equiv \sigma(a)\,b \iff \sigma(z) = \sigma(1)\,z",
              "⇒: put a = 1; ⇐: with σ(z) = c·z both units are c·a·b, so the layers agree",
              symbolic=lambda: [(residual.subs(A, 1), SIGMA(B) - SIGMA(1) * B),
                                (residual.replace(SIGMA, linear), S.Zero),
                                (rank1.entry(linear), gated.entry(linear))],
              explicit=lambda sz: (rank1.explicit(linear, sz), gated.explicit(linear, sz)), sigma="σ(z) = c·z",
              builders=("rank1", "gated")),
    ]


# ---- rank-r -------------------------------------------------------------------------------------

def _rank_r() -> list[Claim]:
    rank_r, rank1, bilinear = _F["rank-r"], _F["rank1"], _F["bilinear"]
    Qs1, Ks1 = sympy.MatrixSymbol("Qs", D, M), sympy.MatrixSymbol("Ks", D, M)

    def factors(sz: Sizes) -> tuple[sympy.Matrix, sympy.Matrix, sympy.Matrix]:
        p = _params("bilinear", sz)
        return input_row(sz.d), p["Q_1"], p["K_1"]

    def outer_sum(sz: Sizes) -> sympy.Matrix:
        _, Qj, Kj = factors(sz)
        return sum((q * k.T for q, k in zip(_columns(Qj), _columns(Kj), strict=True)), sympy.zeros(sz.d, sz.d))

    def products(sz: Sizes) -> Pair:
        x, Qj, Kj = factors(sz)
        terms = sum((_dot(x, q.T) * _dot(x, k.T) for q, k in zip(_columns(Qj), _columns(Kj), strict=True)), S.Zero)
        return (x * Qj) * (x * Kj).T, sympy.Matrix([[terms]])

    def full_rank(sz: Sizes) -> Pair:
        x = input_row(sz.d)
        big = sympy.Matrix(sz.d, sz.d, lambda i, t: sympy.Symbol(f"M_{{{i + 1},{t + 1}}}", real=True))
        return x * big * sympy.eye(sz.d).T * x.T, x * big * x.T

    return [
        Claim("Q_jK_jᵀ = Σ_{s≤r} q_{js}ᵀk_{js}, with q_{js}ᵀ, k_{js}ᵀ the s-th columns of Q_j, K_j",
              r"Q_j K_j^\top = \sum_{s=1}^{r} q_{js}^\top k_{js}",
              "a matrix product is the sum of the outer products of matching columns",
              symbolic=lambda: ((_Qj * _Kj.T)[_T, _L], sympy.Sum(_Qj[_T, _S] * _Kj[_L, _S], (_S, 0, R - 1))),
              explicit=lambda sz: (factors(sz)[1] * factors(sz)[2].T, outer_sum(sz)), dims="dr"),
        Claim("xQ_jK_jᵀxᵀ = (xQ_j)(xK_j)ᵀ", r"x Q_j K_j^\top x^\top = (xQ_j)(xK_j)^\top",
              "associativity and (AB)ᵀ = BᵀAᵀ",
              symbolic=lambda: (X * _Qj * _Kj.T * X.T, (X * _Qj) * sympy.Transpose(X * _Kj)),
              explicit=lambda sz: (factors(sz)[0] * factors(sz)[1] * factors(sz)[2].T * factors(sz)[0].T,
                                   (factors(sz)[0] * factors(sz)[1]) * (factors(sz)[0] * factors(sz)[2]).T),
              dims="dr"),
        Claim("(xQ_j)(xK_j)ᵀ = Σ_s (x·q_{js})(x·k_{js}) = ((xQ_j)⊙(xK_j))1_r",
              r"(xQ_j)(xK_j)^\top = \sum_{s=1}^{r} (x\cdot q_{js})(x\cdot k_{js})"
              r" = \big((xQ_j) \odot (xK_j)\big)\mathbf{1}_r",
              "for rows u = xQ_j, w = xK_j: uwᵀ = Σ_s u_s w_s, the entries of u⊙w summed",
              symbolic=lambda: [((_u * _v.T)[0, 0], sympy.Sum(_u[0, _S] * _v[0, _S], (_S, 0, R - 1))),
                                (_u * _v.T, sympy.HadamardProduct(_u, _v) * sympy.OneMatrix(R, 1))],
              explicit=products, dims="dr"),
        Claim("Σ_j σ(xQ_jK_jᵀxᵀ) v_j = Σ_j σ(Σ_s a_{js}b_{js}) v_j = σ(((x𝐐)⊙(x𝐊))(I_m⊗1_r))V, 𝐐 = [Q_1|…|Q_m]",
              r"\sum_j \sigma\big(xQ_jK_j^\top x^\top\big) v_j = \sum_j \sigma\Big(\sum_{s} a_{js} b_{js}\Big) v_j"
              r" = \sigma\big(((x\mathbf{Q}) \odot (x\mathbf{K}))(I_m \otimes \mathbf{1}_r)\big) V",
              "steps 1–3 for every unit; I_m ⊗ 1_r sums each unit's r products",
              explicit=lambda sz: [(bilinear.explicit(SIGMA, sz), rank_r.explicit(SIGMA, sz)),
                                   (bilinear.explicit(SIGMA, sz), rank_r.expression_explicit(SIGMA, sz))],
              symbolic=lambda: [(bilinear.entry(SIGMA), rank_r.entry(SIGMA)),
                                (rank_r.entry(SIGMA), _blocks_as_units(rank_r.expression(SIGMA)[0, L]))],
              dims="dmer", builders=("bilinear", "rank-r")),
        Claim("r = 1 is the rank-1 form: 𝐐 = Qᵀ, 𝐊 = Kᵀ and I_m ⊗ 1_1 = I_m give σ((xQᵀ)⊙(xKᵀ))V",
              r"r = 1:\ \mathbf{Q} = Q^\top,\ \mathbf{K} = K^\top,\ I_m \otimes \mathbf{1}_1 = I_m"
              r"\ \Rightarrow\ \sigma\big((xQ^\top) \odot (xK^\top)\big)V",
              "the low-rank family contains rank1 as its first member",
              symbolic=lambda: (rank_r.expression(SIGMA).subs(R, 1).xreplace({Qs1: Q.T, Ks1: K.T}),
                                rank1.expression(SIGMA)),
              explicit=lambda sz: (rank_r.explicit(SIGMA, sz, **_rank1_from_bilinear(sz)), rank1.explicit(SIGMA, sz)),
              builders=("rank-r", "rank1")),
        Claim("r = d contains every bilinear form: Q_j = M_j, K_j = I_d give xQ_jK_jᵀxᵀ = xM_jxᵀ",
              r"r = d:\ Q_j = M_j,\ K_j = I_d\ \Rightarrow\ xQ_jK_j^\top x^\top = x M_j x^\top",
              "so full bilinear attention (any M_j ∈ R^{d×d}) is the top of the family",
              symbolic=lambda: (X * _Mj * sympy.Identity(D).T * X.T, X * _Mj * X.T),
              explicit=full_rank, dims="d"),
    ]


# ---- the catalogue ------------------------------------------------------------------------------

#: name -> (title, statement, LaTeX statement, claims)
_CATALOGUE: dict[str, tuple[str, str, str, Callable[[], list[Claim]]]] = {
    "absorb": ("A global query is absorbed into the keys",
               "σ((xQ_g)Kᵀ)V = σ(xK'ᵀ)V with K' = KQ_gᵀ: the query-mlp is the mlp",
               r"\sigma\big((xQ_g)K^\top\big)V = \sigma(xK'^\top)V,\ K' = KQ_g^\top", _absorb),
    "rank1": ("Full bilinear attention at rank 1 is σ((xQᵀ)⊙(xKᵀ))V",
              "Σ_j σ(xQ_jK_jᵀxᵀ) v_j with Q_jK_jᵀ = q_jᵀk_j equals σ((xQᵀ)⊙(xKᵀ))V",
              r"\sum_j \sigma\big(xQ_jK_j^\top x^\top\big) v_j = \sigma\big((xQ^\top) \odot (xK^\top)\big)V", _rank1),
    "mlp": ("The standard MLP is the bilinear mechanism with one factor static",
            "replacing the query factor xQ_j by a constant c_j turns Σ_j σ(xQ_jK_jᵀxᵀ) v_j into σ(xWᵀ)V, "
            "and every MLP arises so",
            r"xQ_j \mapsto c_j:\ \sum_j \sigma\big(c_j (xK_j)^\top\big) v_j = \sigma(xW^\top)V", _mlp),
    "gated": ("The gated MLP is the rank-1 form with σ moved onto the query factor",
              "(σ(xQᵀ)⊙(xKᵀ))V is σ((xQᵀ)⊙(xKᵀ))V with σ(a_j b_j) replaced by σ(a_j)·b_j — a different "
              "model unless σ is linear",
              r"\sigma\big((xQ^\top) \odot (xK^\top)\big)V \ \leadsto\ \big(\sigma(xQ^\top) \odot (xK^\top)\big)V",
              _gated),
    "rank-r": ("Bilinear attention is the rank-r family; rank 1 is r = 1",
               "Q_jK_jᵀ = Σ_{s≤r} q_{js}ᵀk_{js}, so xQ_jK_jᵀxᵀ = Σ_s (x·q_{js})(x·k_{js}); r = 1 is rank1",
               r"x Q_j K_j^\top x^\top = \sum_{s=1}^{r} (x\cdot q_{js})(x\cdot k_{js})", _rank_r),
}
#: the derivation names, in reading order
DERIVATIONS: tuple[str, ...] = tuple(_CATALOGUE)


@cache  # a Derivation is immutable, and checking it again gives the same answer
def derive(name: str) -> Derivation:
    """Check the named derivation step by step (``absorb``, ``rank1``, ``mlp``, ``gated``, ``rank-r``)."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else name
    if key not in _CATALOGUE:
        raise UnknownNameError("derivation", str(name), closest(str(key), DERIVATIONS), DERIVATIONS)
    title, statement, statement_latex, claims = _CATALOGUE[key]
    return Derivation.from_claims(key, title, statement, claims(), statement_latex)
