"""Case splits of a one-variable expression that together cover all of R.

``split(expr, var)`` cuts R at the points where any branch condition can change its truth
value and returns, for every open interval and every cut point, the branch-free expression
valid there. The cut is sound because each condition ``l rel r`` is decided through
``f = l - r``: between consecutive real roots (and poles) of ``f`` its sign is constant, so
one certified sample decides the whole interval. Every set of roots comes with a proof that
it is complete on its interval (:mod:`symcheck.exact.roots`); a solver's list is never trusted.

A condition whose roots cannot be cut finitely (a periodic condition on a half-line, a root
with no closed form) is not guessed: the piece keeps *every* branch the condition may choose
(:attr:`Piece.alternatives`), and a proof must then show the residual is 0 on each of them.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import sympy
from flint import arb
from sympy import S

from symcheck.core.budget import Budget
from symcheck.core.errors import EvaluationError
from symcheck.core.formula import Rel, Relation, to_latex
from symcheck.core.printing import text
from symcheck.exact.evaluate import enclose_range
from symcheck.exact.roots import Cuts, roots_in
from symcheck.exact.signs import Undecided, certified_order, exact_sign, nonsmooth_to_piecewise, substitute

#: the variable a region is stated in unless told otherwise
_Z = sympy.Symbol("z")
MAX_REGIONS = 81
#: most branch combinations one piece may keep when conditions cannot be cut
MAX_ALTERNATIVES = 16

__all__ = ["Region", "Piece", "Undecided", "split", "exact_sign", "roots_inside", "nonsmooth_to_piecewise"]


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
        return bool(self.lower == self.upper)  # structural equality of the two ends

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
        lo, hi = text(self.lower), text(self.upper)
        if self.is_point:
            return f"{var} = {lo}"
        if self.lower == -S.Infinity:
            return f"{var} ∈ R" if self.upper == S.Infinity else f"{var} < {hi}"
        return f"{var} > {lo}" if self.upper == S.Infinity else f"{lo} < {var} < {hi}"

    def formula(self, var: sympy.Symbol = _Z) -> Relation:
        """The region as a condition on ``var``: z = 0, z ∈ R, z < 1, 0 < z < 1."""
        if self.is_point:
            return Relation(Rel.EQ, var, self.lower)
        if self.lower == -S.Infinity:
            return (Relation(Rel.IN, var, S.Reals) if self.upper == S.Infinity
                    else Relation(Rel.LT, var, self.upper))
        if self.upper == S.Infinity:
            return Relation(Rel.GT, var, self.lower)
        return Relation(Rel.LT, Relation(Rel.LT, self.lower, var), self.upper)

    def latex(self, var: sympy.Symbol = _Z) -> str:
        return to_latex(self.formula(var))

    def sample(self) -> sympy.Rational:
        """One exact rational inside the region (the point itself for a rational point)."""
        for q in self._candidates():
            if self._contains(q):
                return q
        raise Undecided(f"no rational point found in {self.describe()}")

    def samples(self, count: int = 12) -> list[sympy.Rational]:
        """Exact rationals strictly inside, spread from near the ends to far out."""
        if self.is_point:
            return [self.lower] if self.lower.is_Rational else []
        return [q for q in self._candidates() if self._contains(q)][:count]

    def _candidates(self) -> list[sympy.Rational]:
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
        return [q for q in dict.fromkeys(base) if q is not None]

    def _contains(self, q: sympy.Rational) -> bool:
        """Certified: a sample outside the region would decide a sign for the wrong points."""
        try:
            return certified_order(q, self.lower) > 0 and certified_order(self.upper, q) > 0
        except Undecided:
            return False


def _rational_below(x: sympy.Expr) -> sympy.Rational:
    return sympy.Integer(sympy.ceiling(x)) - 1


def _rational_above(x: sympy.Expr) -> sympy.Rational:
    return sympy.Integer(sympy.floor(x)) + 1


def _rational_between(lo: sympy.Expr, hi: sympy.Expr, t: sympy.Rational) -> sympy.Rational | None:
    """A short decimal near lo + t·(hi − lo); whether it is inside is certified by the caller.

    Located with Arb balls, not ``evalf``: an interval as narrow as (0, log(1 + e^-2000))
    evaluates to width 0 in SymPy's floating point."""
    target = lo + (hi - lo) * t
    if target.is_Rational:
        return target
    for prec in (64, 256, 1024, 4096, 8192):
        try:
            width, centre = enclose_range(hi - lo, {}, prec), enclose_range(target, {}, prec)
        except EvaluationError:
            continue
        if not width > 0:
            continue
        least = _exact(width.lower())
        if _exact(centre.rad()) * 1000 > least:
            continue
        step = 1
        while Fraction(1, step) * 100 > least:  # decimals finer than a hundredth of the width
            step *= 10
        return sympy.Rational(round(_exact(centre.mid()) * step), step)
    return None


def _exact(x: arb) -> Fraction:
    """The exact value of an Arb number with zero radius (a midpoint, a radius, an end)."""
    man, exp = x.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


@dataclass(frozen=True)
class Piece:
    """The expression as it is on one region.

    ``alternatives`` are branch-free expressions, one of which is the value at each point of
    the region: a single one when every condition was decided on the region, several when a
    condition could not be cut finitely (each branch it may choose). ``expr`` is the single
    alternative, or the expression with its branches as written when there are several.
    """

    region: Region
    expr: sympy.Expr
    alternatives: tuple[sympy.Expr, ...] = ()
    #: the conditions left undecided on this region, and why they could not be cut
    undecided: tuple[str, ...] = ()
    #: why the cut points of each condition decided here are all of its roots
    cut_proofs: tuple[str, ...] = ()

    @property
    def branch_free(self) -> bool:
        return len(self.alternatives) <= 1


@dataclass
class _Log:
    """What deciding the branches on one region found: conditions left open, cut arguments."""

    undecided: list[str] = field(default_factory=list)
    cuts: list[str] = field(default_factory=list)


def split(expr: sympy.Expr, var: sympy.Symbol, budget: Budget,
          cuts: Iterable[sympy.Expr] = (S.Zero,)) -> tuple[Piece, ...]:
    """Pieces of ``expr`` over regions that partition R, in increasing order.

    ``cuts`` seed the partition (0 by default: the sign of the variable is a natural case
    split for homogeneity statements, and a point region is cheap).
    """
    with budget.step():
        expr = nonsmooth_to_piecewise(expr)
    # a Float seed is cut at its exact binary value (where it cuts is free: any seeds partition R)
    points = sorted_points([sympy.Rational(c) if c.is_Float else c for c in map(sympy.sympify, cuts)])
    todo = _intervals(points)
    done: list[Piece] = []
    while todo:
        if len(done) + len(todo) > MAX_REGIONS:
            raise Undecided(f"more than {MAX_REGIONS} regions are needed")
        region = todo.pop(0)
        try:
            with budget.step():
                log = _Log()
                branches = _specialize(expr, var, region, budget, log)
                if region.is_point:
                    branches = tuple(dict.fromkeys(substitute(b, {var: region.lower}) for b in branches))
                single = len(branches) == 1
                done.append(Piece(region, branches[0] if single else expr, branches,
                                  tuple(dict.fromkeys(log.undecided)), tuple(dict.fromkeys(log.cuts))))
        except _Split as cut:
            todo[:0] = _refine(region, cut.points)
    return tuple(sorted(done, key=lambda piece: region_key(piece.region)))


def sorted_points(points: Iterable[sympy.Expr]) -> list[sympy.Expr]:
    """Distinct points in increasing order, each comparison certified (:func:`certified_order`);
    points proved equal are one point. Undecided when two cannot be ordered."""
    ordered: list[sympy.Expr] = []
    for p in sorted(dict.fromkeys(points), key=functools.cmp_to_key(certified_order)):
        if not ordered or certified_order(p, ordered[-1]) != 0:
            ordered.append(p)
    return ordered


def _compare_regions(x: Region, y: Region) -> int:
    """Regions of one partition by their lower end (certified), a point before the open
    interval that starts at it."""
    order = certified_order(x.lower, y.lower)
    return order if order else int(not x.is_point) - int(not y.is_point)


#: sort key of regions in increasing order
region_key = functools.cmp_to_key(_compare_regions)


def _intervals(points: list[sympy.Expr]) -> list[Region]:
    _check_strictly_increasing(points)
    ends = [-S.Infinity, *points, S.Infinity]
    regions = [Region(lo, hi) for lo, hi in itertools.pairwise(ends)]
    regions += [Region(p, p) for p in points]
    return regions


def _refine(region: Region, points: Iterable[sympy.Expr]) -> list[Region]:
    inner = sorted_points(points)
    _check_strictly_increasing(inner)
    ends = [region.lower, *inner, region.upper]
    return [Region(lo, hi) for lo, hi in itertools.pairwise(ends)] + [Region(p, p) for p in inner]


def _check_strictly_increasing(points: list[sympy.Expr]) -> None:
    for lo, hi in itertools.pairwise(points):
        if certified_order(hi, lo) <= 0:
            raise Undecided(f"cannot order the cut points {lo} and {hi} exactly")


def _specialize(expr: sympy.Expr, var: sympy.Symbol, region: Region, budget: Budget,
                log: _Log) -> tuple[sympy.Expr, ...]:
    """The branch-free forms ``expr`` may take on ``region``, or _Split with points to cut at.

    One form when every condition is decided on the region; where a condition cannot be cut
    (``log`` records it), every branch it may select is kept: the true value at each point of
    the region is one of the forms returned.
    """
    if not expr.has(sympy.Piecewise):
        return (expr,)
    if isinstance(expr, sympy.Piecewise):
        forms: list[sympy.Expr] = []
        for branch, cond in expr.args:
            truth = _decide(cond, var, region, budget, log)
            if truth is False:
                continue
            forms.extend(_specialize(branch, var, region, budget, log))
            if truth is True:
                return _bounded(forms)
        raise Undecided(f"no branch of {text(expr)} is known to apply on {region.describe()}")
    options = [_specialize(arg, var, region, budget, log) for arg in expr.args]
    count = 1
    for o in options:
        count *= len(o)
    if count > MAX_ALTERNATIVES:
        raise Undecided(f"more than {MAX_ALTERNATIVES} branch combinations on {region.describe()}")
    return _bounded([expr.func(*combo) for combo in itertools.product(*options)])


def _bounded(forms: list[sympy.Expr]) -> tuple[sympy.Expr, ...]:
    forms = list(dict.fromkeys(forms))
    if len(forms) > MAX_ALTERNATIVES:
        raise Undecided(f"more than {MAX_ALTERNATIVES} branch combinations")
    return tuple(forms)


def _decide(cond: sympy.Basic, var: sympy.Symbol, region: Region, budget: Budget,
            log: _Log) -> bool | None:
    """The truth of ``cond`` on the whole region; None when it cannot be cut there."""
    if cond is S.true or cond is S.false:
        return bool(cond)
    if isinstance(cond, sympy.Rel) and type(cond) in _SIGN_TEST:
        return _decide_relational(cond, var, region, budget, log)
    if isinstance(cond, (sympy.And, sympy.Or, sympy.Not, sympy.ITE, sympy.Xor)):
        values: list[bool | None] = []
        cuts: list[sympy.Expr] = []
        # only And and Or have a value that settles them; None is "undecided", never that value
        decisive = isinstance(cond, sympy.Or) if isinstance(cond, (sympy.And, sympy.Or)) else _NOTHING
        for arg in cond.args:
            try:
                value = _decide(arg, var, region, budget, log)
            except _Split as cut:
                cuts.extend(cut.points)
                continue
            if value is decisive:  # False settles an And on the whole region, True an Or
                return value
            values.append(value)
        if cuts:
            raise _Split(cuts)
        return _three_valued(cond, values)
    raise Undecided(f"cannot decide the condition {text(cond)}")


_NOTHING = object()


def _three_valued(cond: sympy.Basic, values: list[bool | None]) -> bool | None:
    if isinstance(cond, sympy.And):
        return False if False in values else None if None in values else True
    if isinstance(cond, sympy.Or):
        return True if True in values else None if None in values else False
    if None in values:
        if isinstance(cond, sympy.ITE) and values[0] is None and values[1] == values[2]:
            return values[1]
        return None
    return bool(cond.func(*[S.true if v else S.false for v in values]))


_SIGN_TEST: dict[type[sympy.Rel], Callable[[int], bool]] = {
    sympy.StrictGreaterThan: lambda s: s > 0, sympy.GreaterThan: lambda s: s >= 0,
    sympy.StrictLessThan: lambda s: s < 0, sympy.LessThan: lambda s: s <= 0,
    sympy.Eq: lambda s: s == 0, sympy.Ne: lambda s: s != 0,
}


def _decide_relational(rel: sympy.Rel, var: sympy.Symbol, region: Region, budget: Budget,
                       log: _Log) -> bool | None:
    forms = _specialize(rel.lhs - rel.rhs, var, region, budget, log)
    if len(forms) != 1:
        log.undecided.append(f"{text(rel)}: its own terms have undecided branches")
        return None
    f = forms[0]
    if region.is_point:
        try:
            return _SIGN_TEST[type(rel)](exact_sign(substitute(f, {var: region.lower})))
        except Undecided as reason:
            log.undecided.append(f"{text(rel)} at {region.describe(text(var))}: {reason}")
            return None
    try:
        found = cuts_inside(f, var, region)
    except Undecided as reason:
        log.undecided.append(f"{text(rel)}: {reason}")
        return None
    log.cuts += [f"{text(g)}: {cuts.argument}" for g, cuts in found]
    inside = [p for _, cuts in found for p in cuts.points]
    if inside:
        raise _Split(inside)
    return _SIGN_TEST[type(rel)](exact_sign(substitute(f, {var: region.sample()})))


def roots_inside(f: sympy.Expr, var: sympy.Symbol, region: Region) -> Iterator[sympy.Expr]:
    """Every point of the open region where ``f`` is zero or may jump in sign.

    Each set of roots is proved complete (:func:`symcheck.exact.roots.roots_in`) or the call raises
    Undecided; dropping a root would be unsound, keeping an extra one is harmless.
    """
    for _, cuts in cuts_inside(f, var, region):
        yield from cuts.points


def cuts_inside(f: sympy.Expr, var: sympy.Symbol, region: Region) -> list[tuple[sympy.Expr, Cuts]]:
    """For each function whose zeros or poles may change the sign of ``f``: its proved cuts."""
    return [(g, roots_in(g, var, region.lower, region.upper)) for g in _sign_change_sources(f)]


def _may_be_negative(exponent: sympy.Expr) -> bool:
    """A numeric exponent not certified positive (a base kept as a source too many only costs
    cuts). An exponent with the variable in it is not read (as before: not a pole source)."""
    if exponent.is_Rational:
        return bool(exponent < 0)  # a Rational against 0: exact
    if not exponent.is_number:
        return False
    try:
        return exact_sign(exponent) <= 0
    except Undecided:
        return True


def _sign_change_sources(f: sympy.Expr) -> list[sympy.Expr]:
    """``f``'s numerator, and every denominator inside it: where it could change sign without
    a zero (a pole of ``f`` itself, or of an argument such as atan(1/z))."""
    if f.is_polynomial():
        return [f]
    f = f.replace(sympy.tan, lambda u: sympy.sin(u) / sympy.cos(u))
    numer, denom = sympy.fraction(sympy.together(f))
    sources = [numer, denom]
    sources += [p.base for p in f.atoms(sympy.Pow) if _may_be_negative(p.exp)]
    return [g for g in dict.fromkeys(sources) if g.free_symbols]
