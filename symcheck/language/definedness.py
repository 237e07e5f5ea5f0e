"""Check that an expression is defined and real-valued on all of R.

The parser (:mod:`symcheck.language.parsing`) records an :class:`Obligation` for every construct that is
only defined on part of R, from the expression *as written*. :func:`check_defined_on_reals`
proves each obligation for every real value of the variable, or refutes it at a point it has
certified, or reports that it could not decide -- conservative, never a guess.

>>> from symcheck.language.symbols import Z
>>> check_defined_on_reals(Z, [Obligation("nonzero", Z - 2, "division by (z - 2)")])
Traceback (most recent call last):
...
symcheck.core.errors.DomainError: division by (z - 2) is undefined at z = 2
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import sympy
from sympy import S
from sympy.core.logic import fuzzy_not
from sympy.logic.boolalg import Boolean

from symcheck.core.budget import Budget, BudgetExceeded, alarm
from symcheck.core.errors import DomainError
from symcheck.exact.definite import Want, prove_nonzero, prove_sign
from symcheck.exact.ranges import Range
from symcheck.exact.regions import Undecided, split
from symcheck.exact.signs import at_point, exact_sign
from symcheck.language.symbols import Z

__all__ = ["SOLVE_SECONDS", "Obligation", "ObligationKind", "check_defined_on_reals", "holds"]

SOLVE_SECONDS = 2.0  #: default budget of one proof attempt

ObligationKind = Literal["positive", "nonnegative", "nonzero", "cos-nonzero", "covered"]


@dataclass(frozen=True)
class Obligation:
    """A condition the written expression needs in order to be defined.

    ``kind`` is "positive" (expr > 0), "nonnegative" (expr >= 0), "nonzero" (expr != 0),
    "cos-nonzero" (cos(expr) != 0, for tan), or "covered": a Piecewise without a final
    ``True`` branch, where ``region`` is the set no branch applies to and must be empty.
    ``region`` is where the sub-expression is evaluated (``true`` outside Piecewise branches).
    ``role`` names what ``expr`` is to the construct, for messages: "argument", "base", or
    "variable base" (a power whose exponent is not a number; positivity is then sufficient,
    not necessary, so failures are worded as such). ``requirement`` says what a function of
    the table (:mod:`symcheck.core.functions`) needs of its argument, for messages ("argument
    <= 1" for acos, whose obligations are on 1 − u and 1 + u); ``sufficient`` marks a condition
    that is sufficient but not necessary (gamma's u > 0), so a failure is not called undefined.
    """

    kind: ObligationKind
    expr: sympy.Expr
    source: str
    region: Boolean = sympy.true
    role: str = "argument"
    requirement: str = ""
    sufficient: bool = False


# What each kind demands of an expression u in the variable: whether SymPy's assumptions show
# it holds (True, False, or None when they cannot tell), and the condition whose solutions
# violate it. Inside its region a "covered" obligation never holds (no branch applies there),
# and the region itself is its violation set.
_HOLDS: dict[str, Callable[[sympy.Expr], bool | None]] = {
    "positive": lambda u: u.is_positive,
    "nonnegative": lambda u: u.is_nonnegative,
    "nonzero": lambda u: fuzzy_not(u.is_zero),
    "cos-nonzero": lambda u: fuzzy_not(sympy.cos(u).is_zero),
}
_VIOLATED: dict[str, Callable[[sympy.Expr], Any]] = {
    "positive": lambda u: u <= 0,
    "nonnegative": lambda u: u < 0,
    "nonzero": lambda u: u,  # solveset of an expression: where it is zero
    "cos-nonzero": sympy.cos,
}

_SAMPLE_POINTS = tuple(sympy.Rational(p, q) for p, q in ((0, 1), (1, 1), (-1, 1), (1, 2), (-1, 2),
                                                        (2, 1), (-2, 1), (3, 1), (-3, 1)))
_NOT_REAL = ((S.ImaginaryUnit, "I"), (S.ComplexInfinity, "zoo (complex infinity)"), (S.NaN, "nan"),
             (S.Infinity, "oo (infinity)"), (S.NegativeInfinity, "-oo (infinity)"))
_MAX_TEXT = 60


def holds(kind: ObligationKind, value: sympy.Expr) -> bool | None:
    """Whether an obligation of ``kind`` holds for ``value``: True, False, or None if unknown.

    A number is judged by its certified sign (:func:`~symcheck.exact.signs.exact_sign`); an
    expression in the variable by SymPy's assumptions, and only when every number in it is
    rational: SymPy signs other numbers with ``evalf``, which cancellation fools (it calls
    e^-2000 − log(1 + e^-2000) − e^-4000/2 positive; it is about −e^-6000/3).
    """
    if kind == "covered":
        return False
    if value.is_number:
        try:
            sign = exact_sign(sympy.cos(value) if kind == "cos-nonzero" else value)
        except Undecided:
            return None
        return _HOLDS_FOR_SIGN[kind](sign)
    if any(n.is_number and not n.is_Rational for n in sympy.preorder_traversal(value)):
        return None
    return _HOLDS[kind](value)


#: what each kind demands of the certified sign of a number (of its cosine for tan)
_HOLDS_FOR_SIGN: dict[str, Callable[[int], bool]] = {
    "positive": lambda s: s > 0,
    "nonnegative": lambda s: s >= 0,
    "nonzero": lambda s: s != 0,
    "cos-nonzero": lambda s: s != 0,
}


def check_defined_on_reals(
    expr: sympy.Expr, obligations: Sequence[Obligation], *,
    variable: sympy.Symbol | None = None, seconds: float = SOLVE_SECONDS,
) -> None:
    """Raise :class:`DomainError` unless ``expr`` is real and every obligation holds on all of R.

    Each obligation is proved (SymPy assumptions, a certified sign of its expression over all of
    R, then a case split whose cut points are proved complete), or refuted at a point where exact
    evaluation confirms the failure
    (``DomainError.point``; SymPy's solver may propose such points), or else reported as
    unverified -- conservative, never a guess. Each proof attempt gets ``seconds``.
    """
    var = variable if variable is not None else _the_variable(expr, obligations)
    sets: dict[Boolean, sympy.Set] = {}  # Piecewise regions share their conditions
    for ob in obligations:
        _check_obligation(ob, var, sets, seconds)
    _check_real_valued(expr)


def truncate(text: str) -> str:
    """``text`` on one line, shortened with "..." to at most 60 characters."""
    text = " ".join(text.split())
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."




def _attempt(compute: Callable[[], Any], seconds: float) -> Any:
    """Run a SymPy computation under the time budget; None if it fails or runs out of time."""
    try:
        with alarm(seconds, BudgetExceeded):
            return compute()
    except (BudgetExceeded, Exception):  # an outer budget's expiry fires again at once
        return None


def _the_variable(expr: sympy.Expr, obligations: Sequence[Obligation]) -> sympy.Symbol:
    free = set(expr.free_symbols)
    for ob in obligations:
        free |= ob.expr.free_symbols | ob.region.free_symbols
    if len(free) > 1:
        names = ", ".join(sorted(s.name for s in free))
        raise DomainError(f"expected one variable, found {len(free)}: {names}")
    return free.pop() if free else Z


def _check_obligation(ob: Obligation, var: sympy.Symbol, sets: dict[Boolean, sympy.Set],
                      seconds: float) -> None:
    if _attempt(lambda: _proved_by_assumptions(ob), seconds):
        return
    if _attempt(lambda: _proved_by_range(ob, var), seconds):
        return
    proved, point = _decide_by_cases(ob, var, seconds)
    if proved:
        return
    candidates: list[sympy.Expr] = []
    # SymPy's solver only *proposes* points to refute at; its answers never prove anything
    # (it misses the roots of periodic conditions on half-lines, so a bounded window too).
    region_set, _ = _region_set(ob.region, var, sets, seconds)
    for domain in (region_set, sympy.Intersection(region_set, sympy.Interval(-_WINDOW, _WINDOW))):
        violations = _attempt(partial(_violation_set, ob, var, domain), seconds)
        if violations is not None and not violations.has(sympy.ConditionSet):
            found = _attempt(partial(_pick_point, violations), seconds)
            if found is not None:
                candidates.append(found)
    candidates.extend([] if point is None else [point])  # after the simpler proposals
    candidates.extend(_SAMPLE_POINTS)
    for point in candidates:
        if _attempt(partial(_fails_at, ob, var, point), seconds):
            message = _attempt(partial(_failure_message, ob, var, point), seconds)
            raise DomainError(message or f"{ob.source} is undefined somewhere on R", point=point)
    what = "covers" if ob.kind == "covered" else "is defined for"
    raise DomainError(f"could not verify that {ob.source} {what} every real {var.name}")


#: half-width of the bounded window where the solver is asked for points to refute at
_WINDOW = 20

_VIOLATION: dict[str, Callable[[sympy.Expr], Boolean]] = {
    "positive": lambda u: u <= 0,
    "nonnegative": lambda u: u < 0,
    "nonzero": lambda u: sympy.Eq(u, 0),
    "cos-nonzero": lambda u: sympy.Eq(sympy.cos(u), 0),
    "covered": lambda u: sympy.true,
}


def _decide_by_cases(ob: Obligation, var: sympy.Symbol, seconds: float) -> tuple[bool, sympy.Expr | None]:
    """(True, None) when a case split proves the obligation on all of R; (False, point) when
    the split shows it fails on a whole case (a point of it), (False, None) otherwise.

    The indicator of "in the region and violated" is split like any residual: its cut points
    are proved complete (:mod:`symcheck.exact.roots`), so a case where it is 0 has no violation.
    """
    # unevaluated: SymPy decides a relation between numbers with evalf, which cancellation
    # fools (it reads e^-2000 − log(1 + e^-2000) − e^-4000/2 <= 0 as False); the split decides
    try:
        with sympy.evaluate(False):
            indicator = sympy.Piecewise((1, sympy.And(ob.region, _VIOLATION[ob.kind](ob.expr))), (0, True))
        pieces = split(indicator, var, Budget(seconds), cuts=())
    except (Undecided, BudgetExceeded):
        return False, None
    except Exception:  # a SymPy failure inside the split proves nothing either way
        return False, None
    point = None
    for piece in pieces:
        if set(piece.alternatives) == {S.Zero}:
            continue
        if piece.alternatives == (S.One,) and point is None:
            point = piece.region.lower if piece.region.is_point else piece.region.sample()
        if point is None:
            return False, None
    return point is None, point


#: what each kind asks of the certified sign of its expression (of cos(u) for tan)
_RANGE_WANTS: dict[str, tuple[Want, ...]] = {
    "positive": ("positive",),
    "nonnegative": ("nonnegative",),
    "nonzero": ("positive", "negative"),
    "cos-nonzero": ("positive", "negative"),
}


def _proved_by_range(ob: Obligation, var: sympy.Symbol) -> bool:
    """The obligation holds on all of R by a certified sign of its expression over R
    (:func:`~symcheck.exact.definite.prove_sign`: interval arithmetic with the known ranges of
    bounded functions, a completed square, factors, the dominant term beyond ±R and Arb
    bisection between): ``2 + cos(z) > 0``, ``z**2 - 2*z*cos(z) + 2 > 0``. An obligation inside
    a Piecewise region is left to the case split, which uses the same proofs per region."""
    if ob.region is not sympy.true or ob.kind not in _RANGE_WANTS:
        return False
    u = sympy.cos(ob.expr, evaluate=False) if ob.kind == "cos-nonzero" else ob.expr
    if not u.free_symbols <= {var} or u.is_polynomial(var):
        return False  # a polynomial's roots are isolated exactly by the case split
    line = {var: Range(S.NegativeInfinity, S.Infinity)}
    if ob.kind in ("nonzero", "cos-nonzero"):
        return prove_nonzero(u, line) is not None
    return any(prove_sign(u, line, want) is not None for want in _RANGE_WANTS[ob.kind])


def _proved_by_assumptions(ob: Obligation) -> bool:
    # A region that is false means the sub-expression is never evaluated.
    return ob.region is sympy.false or holds(ob.kind, ob.expr) is True


def _fails_at(ob: Obligation, var: sympy.Symbol, point: sympy.Expr) -> bool:
    """True only when certified evaluation confirms the obligation fails at ``point``.

    The region's condition and every branch inside the expression are chosen by certified
    signs (:func:`~symcheck.exact.signs.at_point`), never by SymPy's ``subs``, which decides
    ``5*log(1 + exp(-2000)) <= 0`` as True with ``evalf``; the value is judged by :func:`holds`.
    Anything undecided is no failure.
    """
    if point.is_extended_real is not True or not point.is_finite:
        return False
    try:
        if at_point(sympy.Piecewise((S.One, ob.region), (S.Zero, True)), var, point) != S.One:
            return False
        if ob.kind == "covered":
            return True  # no branch applies anywhere in the region
        return holds(ob.kind, at_point(ob.expr, var, point)) is False
    except Undecided:
        return False


def _violation_set(ob: Obligation, var: sympy.Symbol, domain: sympy.Set) -> sympy.Set:
    if ob.kind == "covered":
        return domain  # the region is where no branch applies
    return sympy.solveset(_VIOLATED[ob.kind](ob.expr), var, domain)


# --- regions as sets -------------------------------------------------------------------------

def _region_set(region: Boolean, var: sympy.Symbol, sets: dict[Boolean, sympy.Set],
                seconds: float) -> tuple[sympy.Set, bool]:
    """The region as a subset of R, and whether it is exact (else R, a superset)."""
    if region is sympy.true:
        return S.Reals, True
    found = _attempt(lambda: _as_set(region, var, sets), seconds) if region.free_symbols <= {var} else None
    if isinstance(found, sympy.Set) and not found.has(sympy.ConditionSet):
        return found, True
    return S.Reals, False


def _as_set(condition: Boolean, var: sympy.Symbol, sets: dict[Boolean, sympy.Set]) -> sympy.Set:
    """``condition.as_set()`` within R, memoised per sub-condition.

    A Piecewise with n branches has n regions that share its conditions; SymPy would solve
    each comparison again for every region (quadratic, seconds for 40 branches).
    """
    if condition in sets:
        return sets[condition]
    if condition is sympy.true or condition is sympy.false:
        found = S.Reals if condition is sympy.true else S.EmptySet
    elif isinstance(condition, sympy.And):
        found = sympy.Intersection(*(_as_set(arg, var, sets) for arg in condition.args))
    elif isinstance(condition, sympy.Or):
        found = sympy.Union(*(_as_set(arg, var, sets) for arg in condition.args))
    elif isinstance(condition, sympy.Not):
        found = sympy.Complement(S.Reals, _as_set(condition.args[0], var, sets))
    else:
        found = _comparison_set(condition, var)
    sets[condition] = found
    return found


def _comparison_set(condition: Boolean, var: sympy.Symbol) -> sympy.Set:
    # Fast path for the common "z > c": SymPy's general inequality solver takes ~20 ms each.
    if isinstance(condition, sympy.core.relational.Relational) and condition.lhs == var \
            and condition.rhs.is_number and condition.rhs.is_extended_real and condition.rhs.is_finite:
        c = condition.rhs
        simple = {
            sympy.StrictGreaterThan: lambda: sympy.Interval.open(c, S.Infinity),
            sympy.GreaterThan: lambda: sympy.Interval(c, S.Infinity),
            sympy.StrictLessThan: lambda: sympy.Interval.open(S.NegativeInfinity, c),
            sympy.LessThan: lambda: sympy.Interval(S.NegativeInfinity, c),
            sympy.Equality: lambda: sympy.FiniteSet(c),
            sympy.Unequality: lambda: sympy.Complement(S.Reals, sympy.FiniteSet(c)),
        }.get(type(condition))
        if simple is not None:
            return simple()
    return condition.as_set().intersect(S.Reals)


# --- failure points and messages --------------------------------------------------------------

def _pick_point(found: sympy.Set) -> sympy.Expr | None:
    """A simple element of a violation set, or None if none is easy to name."""
    if found is S.EmptySet:
        return None
    if found is S.Reals:
        return S.Zero
    if isinstance(found, sympy.FiniteSet):
        real = [e for e in found.args if e.is_extended_real and e.is_finite]
        return min(real, key=lambda e: float(e)) if real else None
    if isinstance(found, sympy.Interval):
        return _point_in_interval(found)
    if isinstance(found, sympy.Union):
        return next((p for p in map(_pick_point, found.args) if p is not None), None)
    if isinstance(found, sympy.ImageSet):
        return next(iter(found))
    return None


def _point_in_interval(interval: sympy.Interval) -> sympy.Expr | None:
    low, high = interval.start, interval.end
    if interval.contains(S.Zero) is sympy.true:
        return S.Zero
    if low.is_finite and not interval.left_open:
        return low
    if high.is_finite and not interval.right_open:
        return high
    if low is S.NegativeInfinity:
        return sympy.ceiling(high) - 1  # the largest integer below an open end
    if high is S.Infinity:
        return sympy.floor(low) + 1
    for denominator in (2**k for k in range(11)):  # a simple rational inside: 1, 2, 4, ..., 1024
        candidate = (sympy.floor(low * denominator) + 1) / denominator
        if interval.contains(candidate) is sympy.true:
            return candidate
    return None


def _failure_message(ob: Obligation, var: sympy.Symbol, point: sympy.Expr) -> str:
    at = f"{var.name} = {truncate(sympy.sstr(point))}"
    if ob.kind == "covered":
        return f"{ob.source} does not cover all of R: no branch applies at {at}"
    if ob.kind in ("nonzero", "cos-nonzero"):
        return f"{ob.source} is undefined at {at}"
    if ob.sufficient:
        if ob.kind == "positive" and _non_positive_integer(at_point(ob.expr, var, point)):
            return f"{ob.source} is undefined at {at}: its argument is a pole (a non-positive integer)"
        return (f"{ob.source} is not proved defined on all of R: symcheck proves it defined where its "
                f"{ob.requirement}, and that fails at {at}")
    if ob.requirement:
        return f"{ob.source} is not defined on all of R: it needs {ob.requirement}, which fails at {at}"
    if ob.role == "variable base":
        return (f"{ob.source} needs a positive base because its exponent is not a number, "
                f"but the base is not positive at {at}")
    problem = "not positive" if ob.kind == "positive" else "negative"
    return f"{ob.source} is not defined on all of R: its {ob.role} is {problem} at {at}"


def _non_positive_integer(value: sympy.Expr) -> bool:
    return bool(value.is_Integer and value <= 0)


def _check_real_valued(expr: sympy.Expr) -> None:
    for atom, name in _NOT_REAL:
        if expr.has(atom):
            raise DomainError(f"not real-valued: the expression contains {name}")
