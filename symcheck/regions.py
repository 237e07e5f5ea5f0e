"""Case splits of a one-variable expression that together cover all of R.

``split(expr, var)`` cuts R at the points where any branch condition can change its truth
value and returns, for every open interval and every cut point, the branch-free expression
valid there. The cut is sound because each condition ``l rel r`` is decided through
``f = l - r``: between consecutive real roots of a continuous ``f`` its sign is constant, so
one certified sample decides the whole interval. Roots come from exact polynomial root
finding or ``solveset``; anything SymPy cannot enumerate makes the split ``Undecided``.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import sympy
from sympy import S

from .budget import Budget
from .evaluate import certify_nonzero
from .printing import text

#: nonsmooth primitives that are rewritten to Piecewise before splitting
_NONSMOOTH = (sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside)
MAX_REGIONS = 81


class Undecided(Exception):
    """The expression could not be split into finitely many exactly known pieces."""


class _Split(Exception):
    """Internal: the open interval must first be cut at these points."""

    def __init__(self, points: Iterable[sympy.Expr]) -> None:
        super().__init__()
        self.points = tuple(points)


@dataclass(frozen=True)
class Region:
    """An open interval ``(lower, upper)`` (ends may be ±oo), or the single point ``lower``."""

    lower: sympy.Expr
    upper: sympy.Expr

    @property
    def is_point(self) -> bool:
        return self.lower == self.upper

    def condition(self, var: sympy.Symbol) -> sympy.Basic:
        if self.is_point:
            return sympy.Eq(var, self.lower)
        parts = []
        if self.lower != -S.Infinity:
            parts.append(sympy.StrictGreaterThan(var, self.lower))
        if self.upper != S.Infinity:
            parts.append(sympy.StrictLessThan(var, self.upper))
        return sympy.And(*parts) if parts else S.true

    def describe(self, var: str = "z") -> str:
        return self._render(var, text, "∈ R")

    def latex(self, var: str = "z") -> str:
        return self._render(var, sympy.latex, r"\in \mathbb{R}")

    def _render(self, var: str, show, everywhere: str) -> str:
        lo, hi = show(self.lower), show(self.upper)
        if self.is_point:
            return f"{var} = {lo}"
        if self.lower == -S.Infinity:
            return f"{var} {everywhere}" if self.upper == S.Infinity else f"{var} < {hi}"
        return f"{var} > {lo}" if self.upper == S.Infinity else f"{lo} < {var} < {hi}"

    def sample(self) -> sympy.Rational:
        """One exact rational inside the region (the point itself for a rational point)."""
        for q in self.samples(1):
            return q
        raise Undecided(f"no rational point found in {self.describe()}")

    def samples(self, count: int = 12) -> list[sympy.Rational]:
        """Exact rationals strictly inside, spread from near the ends to far out."""
        if self.is_point:
            return [self.lower] if self.lower.is_Rational else []
        lo, hi = self.lower, self.upper
        # simplest first: the first certified point becomes the witness users read
        offsets = [sympy.Rational(q) for q in ("2", "1/2", "3", "1", "3/2", "7", "10", "1/10",
                                               "5", "100", "1/3", "1000")]
        if lo == -S.Infinity and hi == S.Infinity:
            base = [S.Zero] + [s * o for o in offsets for s in (1, -1)]
        elif lo == -S.Infinity:
            top = _rational_below(hi)
            base = [top - o + 1 for o in offsets]
        elif hi == S.Infinity:
            bottom = _rational_above(lo)
            base = [bottom + o - 1 for o in offsets]
        else:
            base = [_rational_between(lo, hi, sympy.Rational(k, 8)) for k in (4, 2, 6, 1, 7, 3, 5)]
        inside = [q for q in dict.fromkeys(base) if q is not None and self._contains(q)]
        return inside[:count]

    def _contains(self, q: sympy.Rational) -> bool:
        ok_lo = self.lower == -S.Infinity or (q - self.lower).is_positive is True
        ok_hi = self.upper == S.Infinity or (self.upper - q).is_positive is True
        return ok_lo and ok_hi


def _rational_below(x: sympy.Expr) -> sympy.Rational:
    return sympy.Integer(sympy.ceiling(x)) - 1


def _rational_above(x: sympy.Expr) -> sympy.Rational:
    return sympy.Integer(sympy.floor(x)) + 1


def _rational_between(lo: sympy.Expr, hi: sympy.Expr, t: sympy.Rational) -> sympy.Rational | None:
    target = lo + (hi - lo) * t
    if target.is_Rational:
        return target
    width = (hi - lo).evalf(30)
    approx = sympy.Rational(str(target.evalf(40)))
    # round to a short rational well inside the interval: width/100 is a generous tolerance
    return sympy.nsimplify(approx, tolerance=float(width) / 100, rational=True)


@dataclass(frozen=True)
class Piece:
    """The expression as it is on one region: no Piecewise left inside it."""

    region: Region
    expr: sympy.Expr


def nonsmooth_to_piecewise(expr: sympy.Expr) -> sympy.Expr:
    """Abs, Max, Min, sign and Heaviside as Piecewise, also inside conditions."""
    for _ in range(20):
        new = expr.replace(lambda e: isinstance(e, _NONSMOOTH), lambda e: e.rewrite(sympy.Piecewise))
        if new == expr:
            return new
        expr = new
    raise Undecided("nonsmooth functions nested too deeply to rewrite")


def split(expr: sympy.Expr, var: sympy.Symbol, budget: Budget,
          cuts: Iterable[sympy.Expr] = (S.Zero,)) -> tuple[Piece, ...]:
    """Pieces of ``expr`` over regions that partition R, in increasing order.

    ``cuts`` seed the partition (0 by default: the sign of the variable is a natural case
    split for homogeneity statements, and a point region is cheap).
    """
    with budget.step():
        expr = nonsmooth_to_piecewise(expr)
    points = sorted({sympy.nsimplify(c) if c.is_Float else c for c in map(sympy.sympify, cuts)},
                    key=lambda p: p.evalf(50))
    todo = _intervals(points)
    done: list[Piece] = []
    while todo:
        if len(done) + len(todo) > MAX_REGIONS:
            raise Undecided(f"more than {MAX_REGIONS} regions are needed")
        region = todo.pop(0)
        try:
            with budget.step():
                branch = _specialize(expr, var, region, budget)
                done.append(Piece(region, branch.subs(var, region.lower) if region.is_point else branch))
        except _Split as cut:
            todo[:0] = _refine(region, cut.points)
    return tuple(sorted(done, key=_order_key))


def _order_key(piece: Piece) -> tuple[float, int]:
    lower = piece.region.lower
    return (float("-inf") if lower == -S.Infinity else float(lower.evalf(30)),
            0 if piece.region.is_point else 1)


def _intervals(points: list[sympy.Expr]) -> list[Region]:
    _check_strictly_increasing(points)
    ends = [-S.Infinity, *points, S.Infinity]
    regions = [Region(lo, hi) for lo, hi in zip(ends, ends[1:])]
    regions += [Region(p, p) for p in points]
    return regions


def _refine(region: Region, points: Iterable[sympy.Expr]) -> list[Region]:
    inner = sorted(dict.fromkeys(points), key=lambda p: p.evalf(50))
    _check_strictly_increasing(inner)
    ends = [region.lower, *inner, region.upper]
    return [Region(lo, hi) for lo, hi in zip(ends, ends[1:])] + [Region(p, p) for p in inner]


def _check_strictly_increasing(points: list[sympy.Expr]) -> None:
    for lo, hi in zip(points, points[1:]):
        if (hi - lo).is_positive is not True:
            raise Undecided(f"cannot order the cut points {lo} and {hi} exactly")


def _specialize(expr: sympy.Expr, var: sympy.Symbol, region: Region, budget: Budget) -> sympy.Expr:
    """The branch-free form of ``expr`` on ``region``, or _Split with the points to cut at."""
    if not expr.has(sympy.Piecewise):
        return expr
    if isinstance(expr, sympy.Piecewise):
        for branch, cond in expr.args:
            if _decide(cond, var, region, budget):
                return _specialize(branch, var, region, budget)
        raise Undecided(f"no branch of {text(expr)} applies on {region.describe()}")
    return expr.func(*(_specialize(arg, var, region, budget) for arg in expr.args))


def _decide(cond: sympy.Basic, var: sympy.Symbol, region: Region, budget: Budget) -> bool:
    if cond is S.true or cond is S.false:
        return bool(cond)
    if isinstance(cond, sympy.Rel):
        return _decide_relational(cond, var, region, budget)
    if isinstance(cond, (sympy.And, sympy.Or, sympy.Not, sympy.ITE, sympy.Xor)):
        values, cuts = [], []
        for arg in cond.args:
            try:
                values.append(_decide(arg, var, region, budget))
            except _Split as cut:
                cuts.extend(cut.points)
        if cuts:
            raise _Split(cuts)
        return bool(cond.func(*[S.true if v else S.false for v in values]))
    raise Undecided(f"cannot decide the condition {text(cond)}")


_SIGN_TEST = {
    sympy.StrictGreaterThan: lambda s: s > 0, sympy.GreaterThan: lambda s: s >= 0,
    sympy.StrictLessThan: lambda s: s < 0, sympy.LessThan: lambda s: s <= 0,
    sympy.Eq: lambda s: s == 0, sympy.Ne: lambda s: s != 0,
}


def _decide_relational(rel: sympy.Rel, var: sympy.Symbol, region: Region, budget: Budget) -> bool:
    f = _specialize(rel.lhs - rel.rhs, var, region, budget)
    if region.is_point:
        return _SIGN_TEST[type(rel)](exact_sign(f.subs(var, region.lower)))
    inside = list(roots_inside(f, var, region))
    if inside:
        raise _Split(inside)
    return _SIGN_TEST[type(rel)](exact_sign(f.subs(var, region.sample())))


def exact_sign(value: sympy.Expr) -> int:
    """The sign of a closed-form real number: exact when SymPy knows it, else certified."""
    value = sympy.nsimplify(value) if value.is_Float else value
    if value.is_zero is True or sympy.expand(value) == 0:
        return 0
    certificate = certify_nonzero(value, {})
    if certificate is None:
        # Not certified non-zero at 2048 bits: accept zero only when SymPy can prove it.
        if sympy.simplify(value) == 0:
            return 0
        raise Undecided(f"cannot decide the sign of {text(value)}")
    return certificate.sign


def roots_inside(f: sympy.Expr, var: sympy.Symbol, region: Region) -> Iterator[sympy.Expr]:
    """Every point of the open region where ``f`` is zero or may jump in sign."""
    interval = sympy.Interval.open(region.lower, region.upper)
    candidates: set[sympy.Expr] = set()
    for g in _sign_change_sources(f):
        candidates.update(_real_roots(g, var, interval))
    for c in candidates:
        inside = interval.contains(c)
        if inside is S.true:
            yield c
        elif inside is not S.false:  # dropping a root we cannot place would be unsound
            raise Undecided(f"cannot tell whether the root {text(c)} lies in {region.describe()}")


def _sign_change_sources(f: sympy.Expr) -> list[sympy.Expr]:
    """``f`` itself, and the denominators where it could change sign without a zero."""
    f = f.replace(sympy.tan, lambda u: sympy.sin(u) / sympy.cos(u))
    numer, denom = sympy.fraction(sympy.together(f))
    sources = [numer]
    if denom.free_symbols:
        sources.append(denom)
    return sources


def _real_roots(g: sympy.Expr, var: sympy.Symbol, interval: sympy.Interval) -> set[sympy.Expr]:
    if var not in g.free_symbols:
        return set()
    if g.is_polynomial(var):
        poly = sympy.Poly(g, var)
        if poly.degree() <= 0:
            return set()
        return set(sympy.real_roots(poly))
    found = sympy.solveset(g, var, interval)
    if isinstance(found, sympy.FiniteSet):
        return set(found)
    if found is S.EmptySet:
        return set()
    raise Undecided(f"cannot find every real root of {text(g)} = 0")
