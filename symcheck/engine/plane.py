"""Decide a statement in several real variables: ∀ a, b ∈ R (and a scale in its domain): D = 0.

Used for every (form, transformation) pair without a one-variable reduction: custom unit
forms, and the scalings of the built-in forms that have no theorem here. The answer follows
the soundness contract (docs/theory.md §3):

* ``broken`` only with exact rational values of every variable at which D itself — the
  difference of the two sides with σ substituted, never a reduced or branch-resolved form —
  is certified non-zero by :func:`~symcheck.exact.evaluate.certify_nonzero`. Candidates come from a
  grid of simple rationals, then from points inside any case that could not be proved.
* ``holds`` only when every case of a partition of the whole space was reduced to exactly 0.
  The partition: each variable's range (R for a and b; the scale's domain, which may already
  be two half-lines or one point) is cut into open intervals and their end points, lazily —
  at the real roots of a branch condition in that variable alone, or at 0 when a condition
  in several variables (or a failed proof) needs its sign. A case is a product of one piece
  per variable, and a case is only ever replaced by the pieces of one of its intervals, so
  the cases stay a partition. Each open piece is the bijective image of p > 0 (``c + p``,
  ``c − p`` or ``(l + u·p)/(1 + p)``; an uncut R stays the real variable itself), so an
  identity in the positive symbols for all p > 0 covers the piece exactly. Inside a case
  every branch (Piecewise, Abs, Max, Min, sign, Heaviside) is chosen by a condition whose
  truth is constant on the case: decided by SymPy's assumptions on the positive symbols,
  by exact or certified evaluation at a point case, or — for a condition in one variable
  with no root or pole inside its interval — by the certified sign at one point (a
  continuous function cannot change sign without a root). The branch-free difference is
  then proved ≡ 0 with the equivalence-preserving rewrites of :mod:`symcheck.engine.zero`.
* anything else — a condition in two variables the signs do not decide, a case neither
  proved nor refuted, the budget running out — is ``inconclusive``.
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import sympy
from sympy import S

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError
from symcheck.core.formula import And, Formula, Text, to_latex
from symcheck.core.printing import text
from symcheck.core.verdict import Verdict
from symcheck.engine import zero
from symcheck.engine.zero import PieceStatus
from symcheck.exact.evaluate import Certificate, approximate, certify_nonzero
from symcheck.exact.regions import Region, Undecided, exact_sign, region_key, roots_inside, sorted_points
from symcheck.exact.roots import Range, sign_on
from symcheck.exact.signs import certified_order, evaluation_is_identity, substitute

__all__ = ["Case", "CaseOutcome", "PlaneDecision", "decide_plane", "whole_line", "scale_regions"]

#: most cases a split may produce before it gives up (inconclusive)
MAX_CASES = 243
#: grid values for a variable ranging over R, simplest first (the first certified point is
#: the witness users read); 10 catches units that only differ away from the origin (relu6)
LINE = tuple(sympy.Rational(v) for v in ("1", "-1", "2", "-2", "1/2", "-1/2", "0", "3", "-3",
                                          "10", "-10"))
#: approximate values above this (at 60 digits) are worth certifying
VISIBLE = sympy.Float("1e-45")
DIGITS = 60
#: certification attempts per search: the simplest visible points, then the largest value
CERTIFY_TOP = 4
MAX_GRID = 1500

_BRANCHING = (sympy.Piecewise, sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside)
_SIGN_TEST = {
    sympy.StrictGreaterThan: lambda s: s > 0, sympy.GreaterThan: lambda s: s >= 0,
    sympy.StrictLessThan: lambda s: s < 0, sympy.LessThan: lambda s: s <= 0,
    sympy.Eq: lambda s: s == 0, sympy.Ne: lambda s: s != 0,
}
#: the positive symbols that parametrise the open pieces, in variable order
_POSITIVE = tuple(sympy.Symbol(n, positive=True) for n in "pqrstuvw")


def whole_line() -> tuple[Region, ...]:
    return (Region(-S.Infinity, S.Infinity),)


def scale_regions(name: str, value: sympy.Expr | None = None) -> tuple[Region, ...]:
    """The range of a scale as disjoint regions: positive, negative, any (≠ 0), or one number."""
    if value is not None:
        return (Region(value, value),)
    return {"positive": (Region(S.Zero, S.Infinity),),
            "negative": (Region(-S.Infinity, S.Zero),),
            "any": (Region(-S.Infinity, S.Zero), Region(S.Zero, S.Infinity))}[name]


# --------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """A product of one region per variable (open interval or point), in variable order."""

    regions: tuple[tuple[sympy.Symbol, Region], ...]

    def __getitem__(self, var: sympy.Symbol) -> Region:
        return dict(self.regions)[var]

    def describe(self) -> str:
        return ", ".join(r.describe(text(v)) for v, r in self.regions) or "everywhere"

    def formula(self) -> Formula:
        """Each variable's region, together; "everywhere" for no variable."""
        return And(tuple(r.formula(v) for v, r in self.regions)) if self.regions else Text("everywhere")

    def latex(self) -> str:
        return to_latex(self.formula())

    def substitution(self) -> dict[sympy.Symbol, sympy.Expr]:
        """Each variable as an exact point or a bijective image of a positive symbol."""
        if len(self.regions) > len(_POSITIVE):
            raise ValueError(f"at most {len(_POSITIVE)} variables")
        subs = {}
        for (var, region), p in zip(self.regions, _POSITIVE, strict=False):  # a pool of symbols
            lo, hi = region.lower, region.upper
            if region.is_point:
                subs[var] = lo
            elif lo == -S.Infinity and hi == S.Infinity:
                continue
            elif hi == S.Infinity:
                subs[var] = lo + p
            elif lo == -S.Infinity:
                subs[var] = hi - p
            else:
                subs[var] = (lo + hi * p) / (1 + p)
        return subs

    def substitution_text(self) -> str:
        subs = self.substitution()
        used = sorted({s for e in subs.values() for s in e.free_symbols}, key=str)
        if not used:
            return ""
        shown = ", ".join(f"{text(v)} = {text(e)}" for v, e in subs.items() if e.free_symbols)
        return f" (with {shown}; {', '.join(map(str, used))} > 0)"

    def refined(self, var: sympy.Symbol, points: Sequence[sympy.Expr]) -> list[Case]:
        """This case with ``var``'s interval cut at ``points`` (strictly inside it)."""
        pieces = _cut(self[var], points)
        return [Case(tuple((v, piece if v == var else r) for v, r in self.regions)) for piece in pieces]

    def samples(self, count: int = 3) -> list[dict[sympy.Symbol, sympy.Rational]]:
        """Exact rational points inside the case, simplest first."""
        per_var = [[(v, q) for q in r.samples(count)] for v, r in self.regions]
        return [dict(choice) for choice in _by_simplicity(per_var)]


def _cut(region: Region, points: Sequence[sympy.Expr]) -> list[Region]:
    inner = sorted_points(points)  # every comparison certified; points proved equal are one
    ends = [region.lower, *inner, region.upper]
    pieces = [Region(lo, hi) for lo, hi in itertools.pairwise(ends)] + [Region(x, x) for x in inner]
    return sorted(pieces, key=region_key)


def _sign_split(region: Region) -> list[Region]:
    """Cut at 0 if 0 lies strictly inside: the sign of every variable is the first case split."""
    inside_lo = certified_order(region.lower, S.Zero) < 0
    inside_hi = certified_order(region.upper, S.Zero) > 0
    if not region.is_point and inside_lo and inside_hi:
        return _cut(region, [S.Zero])
    return [region]


def _by_simplicity(options: Sequence[Sequence]) -> list[tuple]:
    """The product of the option lists, ordered by the sum of the positions chosen."""
    combos = itertools.product(*(range(len(o)) for o in options))
    ranked = sorted(combos, key=lambda idx: (sum(idx), idx))
    return [tuple(o[i] for o, i in zip(options, idx, strict=True)) for idx in ranked]


# --------------------------------------------------------------------------- outcomes


@dataclass(frozen=True)
class CaseOutcome:
    """What became of the difference on one case."""

    case: Case
    expr: sympy.Expr | None        # branch-free difference in the original variables
    status: PieceStatus             # proved, unknown, undecided or timeout (never nonzero: a witness ends the search)
    method: str = ""
    sides: tuple[sympy.Expr, sympy.Expr] | None = None  # branch-free left and right sides


@dataclass(frozen=True)
class PlaneDecision:
    verdict: Verdict
    difference: sympy.Expr
    cases: tuple[CaseOutcome, ...] = ()
    witness: Mapping[sympy.Symbol, sympy.Rational] | None = None
    certificate: Certificate | None = None
    found: str = ""            # how the witness was found
    evidence: zero.Evidence = field(default_factory=zero.Evidence)
    note: str = ""
    #: set when D was decided through u = x·y (see :func:`_through_product`)
    product: Product | None = None


@dataclass(frozen=True)
class Product:
    """D depends on x and y only through ``u = x·y``: ``reduced`` is D with y = u/x (x cancels)."""

    x: sympy.Symbol
    y: sympy.Symbol
    u: sympy.Symbol
    reduced: sympy.Expr


class _Split(Exception):
    """Internal: the case must first be cut along ``var`` at ``points``."""

    def __init__(self, var: sympy.Symbol, points: Sequence[sympy.Expr]) -> None:
        super().__init__()
        self.var, self.points = var, tuple(points)


# --------------------------------------------------------------------------- the decision


def decide_plane(lhs: sympy.Expr, rhs: sympy.Expr, space: Mapping[sympy.Symbol, Sequence[Region]],
                 budget: Budget) -> PlaneDecision:
    """Does ``lhs = rhs`` hold at every point of ``space`` (variable → disjoint regions)?

    ``space`` names every variable of the statement, in the order cases are described; a
    witness gives a value to each of them. Both sides must be real and defined everywhere
    on the space (σ substituted, forms checked by :meth:`~symcheck.language.unit_forms.Form.check_defined`).

    >>> from symcheck.language.symbols import A, B
    >>> decide_plane(sympy.Abs(A) * sympy.Abs(B), sympy.Abs(A * B),
    ...              {A: whole_line(), B: whole_line()}, Budget(10)).verdict.value
    'holds'
    >>> decide_plane(sympy.Max(A, B), A, {A: whole_line(), B: whole_line()}, Budget(10)).witness
    {a: -1, b: 1}
    """
    difference = lhs - rhs
    if difference == 0:
        return PlaneDecision(Verdict.HOLDS, difference,
                             (CaseOutcome(Case(()), S.Zero, PieceStatus.PROVED, "identically 0 as written"),))
    searcher = _Searcher(difference, space, budget)
    try:
        found = searcher.grid()
        if found:
            return searcher.broken(found, "a grid of simple rationals")
        decision = _split_and_prove(lhs, rhs, space, budget, searcher)
        if decision.verdict is Verdict.INCONCLUSIVE:
            return _through_product(lhs, rhs, space, budget, searcher) or decision
        return decision
    except BudgetExceeded:
        return PlaneDecision(Verdict.INCONCLUSIVE, difference, evidence=searcher.evidence,
                             note="the time budget ran out")


def _split_and_prove(lhs, rhs, space, budget, searcher) -> PlaneDecision:
    """Cases covering the space, each proved zero, or a witness inside one, or inconclusive.

    Splitting is lazy: a variable is cut only where a branch condition needs it (at the roots
    of a condition in that variable alone, or at 0 when a condition in several variables, or
    a failed proof, needs its sign), so a variable that only scales the unit is never split.
    """
    difference = lhs - rhs
    variables = [v for v in space if v in difference.free_symbols]
    todo = [Case(tuple(choice)) for choice in
            itertools.product(*([(v, region) for region in space[v]] for v in variables))]
    outcomes: list[CaseOutcome] = []
    note = ""
    while todo:
        if len(todo) + len(outcomes) > MAX_CASES:
            return PlaneDecision(Verdict.INCONCLUSIVE, difference, tuple(outcomes), evidence=searcher.evidence,
                                 note=f"more than {MAX_CASES} cases would be needed")
        case = todo.pop(0)
        try:
            try:
                with budget.step():
                    resolver = _Resolver(case)
                    left, right = substitute(lhs, resolver.points), substitute(rhs, resolver.points)
                    written = left - right == 0
                    branch_free = S.Zero if written else resolver.resolve(left - right)
                    sides = (left, right) if written else _resolved_sides(resolver, left, right)
            except _Split as cut:
                todo[:0] = case.refined(cut.var, cut.points)
                continue
            outcome = (CaseOutcome(case, S.Zero, PieceStatus.PROVED, "the two sides are the same expression here",
                                   sides)
                       if written else _prove(case, branch_free, budget, sides))
            unsigned = [v for v, r in case.regions if _sign_split(r) != [r]]
            if outcome.status is PieceStatus.UNKNOWN and unsigned:  # the proof may need the sign: split, retry
                todo[:0] = case.refined(unsigned[0], [S.Zero])
                continue
        except Undecided as why:
            outcome, note = CaseOutcome(case, None, PieceStatus.UNDECIDED, str(why)), note or str(why)
        if outcome.status is not PieceStatus.PROVED:
            found = searcher.inside(case)
            if found:
                return searcher.broken(found, f"points of the case {case.describe()}", (*outcomes, outcome))
        outcomes.append(outcome)
    outcomes.sort(key=lambda o: tuple(region_key(r) for _, r in o.case.regions))
    if all(o.status is PieceStatus.PROVED for o in outcomes):
        return PlaneDecision(Verdict.HOLDS, difference, tuple(outcomes), evidence=searcher.evidence)
    return PlaneDecision(Verdict.INCONCLUSIVE, difference, tuple(outcomes), evidence=searcher.evidence,
                         note=note or "the difference was neither proved zero nor certified non-zero "
                                      "on every case")


def _through_product(lhs, rhs, space, budget, searcher) -> PlaneDecision | None:
    """Decide D through u = x·y when D depends on two whole-line variables only via their product.

    Branch conditions such as ``a·b < 1`` need a cut along a curve, which the split does not do;
    in u they are conditions in one variable. With y = u/x, SymPy's automatic evaluation (valid
    wherever x ≠ 0) must remove x from D *as written*, no simplification asked, so that
    D(x, y) = G(x·y) for every x ≠ 0. As y ranges over R, u = x·y does too, for each x ≠ 0; so
    D = 0 on the whole space iff G = 0 for every u (with the other variables as they were) and
    D = 0 on the line x = 0, both decided by the split. A witness u₀ of G becomes (x, y) = (1, u₀),
    certified on D itself. None when no such pair exists, or neither part settles it.
    """
    difference = lhs - rhs
    lines = [v for v, regions in space.items() if tuple(regions) == whole_line() and v in difference.free_symbols]
    taken = {str(v) for v in (*space, *difference.free_symbols)}
    u = next(sympy.Symbol(n, real=True) for n in ("u", "w", "t", "u_0") if n not in taken)
    for x, y in itertools.combinations(lines, 2):
        reduced = [side.xreplace({y: u / x}) for side in (lhs, rhs)]
        if x in (reduced[0] - reduced[1]).free_symbols:
            continue
        product = Product(x, y, u, reduced[0] - reduced[1])
        in_space = {u: whole_line(), **{v: regions for v, regions in space.items() if v not in (x, y)}}
        in_u = _split_and_prove(reduced[0], reduced[1], in_space, budget, _Searcher(product.reduced, in_space, budget))
        if in_u.verdict is Verdict.BROKEN:
            assert in_u.witness is not None  # a broken decision always carries its point (Searcher.broken)
            values = {**in_u.witness, x: S.One, y: in_u.witness[u]}
            point = {v: values[v] for v in space}
            certificate = certify_nonzero(difference, point)
            if certificate is not None:
                return PlaneDecision(Verdict.BROKEN, difference, in_u.cases, point, certificate,
                                     f"the statement in u = {text(x)}·{text(y)}, with {text(x)} = 1",
                                     searcher.evidence.merge(in_u.evidence), product=product)
            return None
        if in_u.verdict is not Verdict.HOLDS:
            return None
        at_zero = _split_and_prove(lhs, rhs, {**space, x: (Region(S.Zero, S.Zero),)}, budget, searcher)
        if at_zero.verdict is Verdict.HOLDS:
            return PlaneDecision(Verdict.HOLDS, difference, (*in_u.cases, *at_zero.cases),
                                 evidence=searcher.evidence.merge(in_u.evidence), product=product)
        return None
    return None


def _resolved_sides(resolver: _Resolver, left: sympy.Expr, right: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """The two sides without branches, for display; as they are if that needs more cuts
    (the difference may not: its branches can cancel before they are chosen)."""
    try:
        return resolver.resolve(left), resolver.resolve(right)
    except (_Split, Undecided):
        return left, right


def _prove(case: Case, branch_free: sympy.Expr, budget: Budget,
           sides: tuple[sympy.Expr, sympy.Expr]) -> CaseOutcome:
    """Prove the branch-free difference ≡ 0 on the case, with the rewrites of zero.py."""
    if branch_free == 0:
        return CaseOutcome(case, branch_free, PieceStatus.PROVED, "0 once the branches are chosen", sides)
    try:
        with budget.step():
            concrete = substitute(branch_free, case.substitution())
        if concrete == 0:
            return CaseOutcome(case, branch_free, PieceStatus.PROVED, "0 after the substitution"
                               + case.substitution_text(), sides)
        method = zero.prove_identically_zero(concrete, _POSITIVE[0], Region(-S.Infinity, S.Infinity), budget)
    except BudgetExceeded:
        return CaseOutcome(case, branch_free, PieceStatus.TIMEOUT, "the time budget ran out", sides)
    if method:
        return CaseOutcome(case, branch_free, PieceStatus.PROVED, method + case.substitution_text(), sides)
    return CaseOutcome(case, branch_free, PieceStatus.UNKNOWN, "neither proved zero nor certified non-zero"
                       + case.substitution_text(), sides)


class _Resolver:
    """Chooses every branch of an expression on one case, or says where to cut the case."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.subs = case.substitution()
        self.points = {v: r.lower for v, r in case.regions if r.is_point}
        self.signs: dict[sympy.Expr, int] = {}

    def resolve(self, expr: sympy.Expr) -> sympy.Expr:
        """``expr`` without Piecewise, Abs, Max, Min, sign or Heaviside, valid on the case."""
        if not isinstance(expr, sympy.Basic) or not expr.has(*_BRANCHING):
            return expr
        if isinstance(expr, sympy.Piecewise):
            for branch, cond in expr.args:
                if self.truth(cond):
                    return self.resolve(branch)
            raise Undecided(f"no branch of {text(expr)} applies on {self.case.describe()}")
        if isinstance(expr, sympy.Abs):
            x = self.resolve(expr.args[0])
            return -x if self.sign(x) < 0 else x
        if isinstance(expr, (sympy.Max, sympy.Min)):
            values = [self.resolve(arg) for arg in expr.args]
            best = values[0]
            for x in values[1:]:
                s = self.sign(x - best)
                if (s > 0) if isinstance(expr, sympy.Max) else (s < 0):
                    best = x
            return best
        if isinstance(expr, sympy.sign):
            return sympy.Integer(self.sign(self.resolve(expr.args[0])))
        if isinstance(expr, sympy.Heaviside):
            s = self.sign(self.resolve(expr.args[0]))
            at_zero = expr.args[1]  # SymPy stores H(0) as the second argument (1/2 unless given)
            return S.One if s > 0 else S.Zero if s < 0 else self.resolve(at_zero)
        return expr.func(*(self.resolve(arg) for arg in expr.args))

    def truth(self, cond: sympy.Basic) -> bool:
        if cond is S.true or cond is S.false:
            return bool(cond)
        if isinstance(cond, sympy.Rel) and type(cond) in _SIGN_TEST:
            return _SIGN_TEST[type(cond)](self.sign(self.resolve(cond.lhs - cond.rhs)))
        if isinstance(cond, (sympy.And, sympy.Or)):
            decisive = isinstance(cond, sympy.Or)  # True decides an Or, False an And
            pending: BaseException | None = None
            for arg in cond.args:
                try:
                    if self.truth(arg) is decisive:
                        return decisive
                except (_Split, Undecided) as why:
                    pending = pending or why
            if pending is not None:
                raise pending
            return not decisive
        if isinstance(cond, sympy.Not):
            return not self.truth(cond.args[0])
        if isinstance(cond, sympy.ITE):
            c, x, y = cond.args
            return self.truth(x) if self.truth(c) else self.truth(y)
        if isinstance(cond, sympy.Xor):
            return sum(self.truth(arg) for arg in cond.args) % 2 == 1
        raise Undecided(f"cannot decide the condition {text(cond)}")

    def sign(self, f: sympy.Expr) -> int:
        """The sign of the branch-free ``f``, constant on the case, or _Split / Undecided."""
        if f not in self.signs:
            self.signs[f] = self._sign(f)
        return self.signs[f]

    def _sign(self, f: sympy.Expr) -> int:
        g = substitute(f, self.subs)
        if not g.free_symbols:
            return exact_sign(g)
        for h in _forms_of(g):  # a certified range over the positive symbols, never is_positive
            s = sign_on(h, self.ranges())
            if s is not None:
                return s
        fv = substitute(f, self.points)
        live = [(v, r) for v, r in self.case.regions if v in fv.free_symbols and not r.is_point]
        if len(live) == 1 and fv.free_symbols == {live[0][0]}:
            # One variable left: cut its interval at the roots, else one point gives the sign.
            var, region = live[0]
            inside = list(roots_inside(fv, var, region))
            if inside:
                raise _Split(var, inside)
            return exact_sign(substitute(fv, {var: region.sample()}))
        for var, region in live:  # several: first learn the signs of the variables
            if _sign_split(region) != [region]:
                raise _Split(var, [S.Zero])
        raise Undecided(f"cannot decide the sign of {text(f)} on {self.case.describe()}")

    def ranges(self) -> dict[sympy.Symbol, Range]:
        """What each symbol of the substituted case ranges over: a variable left on all of R
        over R, the positive symbol of an open piece over (0, oo)."""
        found = {}
        for (var, region), p in zip(self.case.regions, _POSITIVE, strict=False):  # a pool of symbols
            if region.is_point:
                continue
            if region.lower == -S.Infinity and region.upper == S.Infinity:
                found[var] = Range(S.NegativeInfinity, S.Infinity)
            else:
                found[p] = Range(S.Zero, S.Infinity)
        return found


def _forms_of(g: sympy.Expr):
    """g, and its factored form where factoring is an identity that reads no sign: polynomial
    algebra over the atoms of an expression built from +, ×, integer powers and functions whose
    automatic evaluation applies identities only."""
    yield g
    if not evaluation_is_identity(g):
        return
    try:
        factored = sympy.factor(g)
    except Exception:  # a failed rewrite decides nothing
        return
    if factored != g:
        yield factored


# --------------------------------------------------------------------------- witnesses


class _Searcher:
    """Ranks exact rational points by an approximate value and certifies the best of them."""

    def __init__(self, difference: sympy.Expr, space: Mapping[sympy.Symbol, Sequence[Region]],
                 budget: Budget) -> None:
        self.difference, self.space, self.budget = difference, space, budget
        self.evidence = zero.Evidence()
        self.tried: set[tuple] = set()

    def grid(self):
        options = [[(v, q) for q in _line_values(regions)] for v, regions in self.space.items()]
        points = [dict(c) for c in _by_simplicity(options)[:MAX_GRID]]
        return self._search(points)

    def inside(self, case: Case):
        """Points of one case; variables the case does not constrain take a default value."""
        defaults = {v: _line_values(regions)[0] for v, regions in self.space.items()}
        points = [{**defaults, **p} for p in case.samples(3)]
        try:
            return self._search(points)
        except Undecided:
            return None

    def _search(self, points: list[dict]):
        values: list[tuple[dict, sympy.Float]] = []
        with self.budget.step():
            for point in points:
                key = tuple(point.items())
                if key in self.tried:
                    continue
                self.tried.add(key)
                try:
                    values.append((point, abs(approximate(self.difference, point, dps=DIGITS))))
                except EvaluationError:
                    continue
            if not values:
                return None
            largest = max(values, key=lambda t: t[1])
            self.evidence = self.evidence.merge(zero.Evidence(len(values), sympy.sstr(sympy.Float(largest[1], 6))))
            visible = [p for p, v in values if v > VISIBLE]
            for point in [*visible[:CERTIFY_TOP], largest[0]]:
                certificate = certify_nonzero(self.difference, point)
                if certificate is not None:
                    return point, certificate
        return None

    def broken(self, found, how: str, cases: tuple[CaseOutcome, ...] = ()) -> PlaneDecision:
        point, certificate = found
        return PlaneDecision(Verdict.BROKEN, self.difference, tuple(cases), dict(point), certificate,
                             how, self.evidence)


def _line_values(regions: Sequence[Region]) -> list[sympy.Rational]:
    """Simple rationals in the union of ``regions``, simplest first, alternating regions."""
    if len(regions) == 1 and regions[0].lower == -S.Infinity and regions[0].upper == S.Infinity:
        return list(LINE)
    per_region = [r.samples(8) for r in regions]
    merged = [q for group in itertools.zip_longest(*per_region) for q in group if q is not None]
    return list(dict.fromkeys(merged))
