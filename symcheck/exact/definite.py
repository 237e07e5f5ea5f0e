"""Certified signs over whole intervals, bounded or not: "g > 0 for every z in R".

:func:`prove_sign` proves that an expression is positive (negative, ≥ 0, ≤ 0) at every point
of a box of intervals, one per symbol, whose ends may be ±oo or open, or answers None. It
never guesses: each argument below ends in certified signs (exact rationals, Arb balls that
exclude 0, :func:`~symcheck.exact.signs.exact_sign`), and a SymPy answer only ever rewrites an
expression by an identity (expanding a polynomial in the variable). The arguments, tried in
order:

* **interval arithmetic** over the whole box (:func:`~symcheck.exact.ranges.range_on`): the
  known ranges of bounded functions (sin, cos ∈ [−1, 1]; tanh, erf ∈ (−1, 1); atan), monotone
  functions mapping the ends of their argument's range, products of signed factors;
* **a visible square** — g = a·v² + b·v + c in one variable v, the coefficients possibly
  holding v inside other functions (cos v): g = a·(v + b/(2a))² + (c − b²/(4a)), so g ≥ c −
  b²/(4a) when a > 0 (``z² − 2z·cos z + 2 = (z − cos z)² + 2 − cos² z ≥ 1``);
* **factors** — a product or quotient whose factors each have a proved strict sign;
* **a cover** of the box: on each unbounded side a tail beyond ±R where the dominant term wins
  (g = v^n·(c_n + c_{n−1}/v + …), the bracket's range by interval arithmetic with 1/v small),
  and on the bounded rest a bisection into sub-boxes, each decided by an Arb enclosure over
  the closed box, by interval arithmetic with the exact open ends it inherits, or, on a box
  with an open end, by monotonicity (the derivative's sign certified there, and g's exact value
  at that end). The bisection stops at the first sample point with the wrong sign.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import sympy
from flint import arb
from sympy import S
from sympy.polys.polyerrors import BasePolynomialError

from symcheck.core.errors import EvaluationError
from symcheck.core.functions import INTEGER_PARTS
from symcheck.exact.balls import arb_sign_bounds
from symcheck.exact.evaluate import certify_nonzero, enclose_range
from symcheck.exact.ranges import Range, range_on, strict_sign, weak_sign
from symcheck.exact.signs import Undecided, certified_order, exact_sign, substitute

__all__ = ["MAX_BOXES", "SignProof", "Want", "prove_nonzero", "prove_sign"]

Want = Literal["positive", "negative", "nonnegative", "nonpositive"]

#: sub-boxes one proof may visit (tails and bisection together) before it gives up
MAX_BOXES = 400
#: where the tails beyond ±R may start, tried in turn (offsets from the box's finite end)
TAIL_STARTS = tuple(sympy.Integer(2) ** k for k in (0, 1, 2, 3, 4, 6, 8, 10))
#: Arb precisions tried on a sub-box
PRECISIONS = (64, 160)
#: bisection stops splitting a box narrower than this fraction of the first bounded width
MIN_WIDTH = Fraction(1, 2**36)

_OO, _NOO = S.Infinity, S.NegativeInfinity

# an outcome on a box: "+" every value > 0, "-" < 0, "0+" ≥ 0, "0-" ≤ 0
_ACCEPT: dict[str, frozenset[str]] = {
    "positive": frozenset({"+"}), "negative": frozenset({"-"}),
    "nonnegative": frozenset({"+", "0+"}), "nonpositive": frozenset({"-", "0-"}),
}
# outcomes that refute the wish on the box (a point of it has the wrong sign or is 0)
_CONTRARY: dict[str, frozenset[str]] = {
    "positive": frozenset({"-", "0-"}), "negative": frozenset({"+", "0+"}),
    "nonnegative": frozenset({"-"}), "nonpositive": frozenset({"+"}),
}
_FLIP: dict[str, Want] = {"positive": "negative", "negative": "positive",
                          "nonnegative": "nonpositive", "nonpositive": "nonnegative"}


@dataclass(frozen=True)
class SignProof:
    """``expr`` has the sign ``want`` at every point of the box, and why."""

    want: Want
    argument: str

    @property
    def sign(self) -> int:
        return 1 if self.want in ("positive", "nonnegative") else -1

    @property
    def strict(self) -> bool:
        return self.want in ("positive", "negative")


class _GiveUp(Exception):
    """Internal: no proof (a contrary sample, the box budget spent, an unsplittable box)."""


# --------------------------------------------------------------------------- entry points


def prove_sign(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], want: Want, *,
               max_boxes: int = MAX_BOXES) -> SignProof | None:
    """A proof that ``expr`` is ``want`` at every point where its symbols take values in
    ``ranges`` (each symbol of ``expr`` must have one), or None when none is found.

    >>> z = sympy.Symbol("z")
    >>> line = {z: Range(S.NegativeInfinity, S.Infinity)}
    >>> prove_sign(z**2 - 2*z*sympy.cos(z) + 2, line, "positive").argument
    'a completed square in z: (z + b/(2a))²·a + c − b²/(4a), with a > 0 and c − b²/(4a) > 0 (interval arithmetic)'
    >>> prove_sign(sympy.Rational(13, 10) + sympy.sin(z) + sympy.cos(z), line, "positive") is None
    True
    """
    expr = sympy.sympify(expr)
    if not expr.free_symbols <= set(ranges):
        return None
    ranges = {s: r for s, r in ranges.items() if s in expr.free_symbols}
    try:
        return _prove(expr, ranges, want, _Counter(max_boxes), factors=True)
    except (_GiveUp, Undecided, EvaluationError):
        return None


def prove_nonzero(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], *,
                  max_boxes: int = MAX_BOXES) -> SignProof | None:
    """A proof that ``expr`` is positive everywhere on the box, or negative everywhere; the
    sign tried first is the one at a sample point (the other fails at once on it)."""
    first: Want = "positive"
    expr = sympy.sympify(expr)
    if not expr.free_symbols <= set(ranges):
        return None
    try:
        point = _sample({s: r for s, r in ranges.items() if s in expr.free_symbols})
    except (_GiveUp, Undecided, EvaluationError):
        point = None
    if point is not None:
        found = certify_nonzero(expr, point, max_prec=256)
        if found is None:
            return None  # 0, undefined, or too close to 0 at a point of the box
        first = "positive" if found.sign > 0 else "negative"
        return prove_sign(expr, ranges, first, max_boxes=max_boxes)
    return prove_sign(expr, ranges, first, max_boxes=max_boxes) or prove_sign(
        expr, ranges, _FLIP[first], max_boxes=max_boxes)


class _Counter:
    def __init__(self, limit: int) -> None:
        self.left = limit
        self.boxes = 0

    def tick(self) -> None:
        self.left -= 1
        self.boxes += 1
        if self.left < 0:
            raise _GiveUp("too many sub-boxes")


def _prove(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], want: Want, counter: _Counter,
           factors: bool) -> SignProof:
    outcome = _outcome(range_on(expr, ranges))
    if outcome in _ACCEPT[want]:
        return SignProof(want, "interval arithmetic on the whole range (exact ends, certified signs)")
    if outcome in _CONTRARY[want]:
        raise _GiveUp("the range has the other sign")
    for var in ranges:
        square = _completed_square(expr, var, ranges)
        if square is not None and square[0] in _ACCEPT[want]:
            return SignProof(want, square[1])
    if factors:
        found = _by_factors(expr, ranges, want, counter)
        if found is not None:
            return found
    found = _by_radical(expr, ranges, want, counter)
    if found is not None:
        return found
    return _cover(expr, ranges, want, counter)


def _outcome(r: Range | None) -> str | None:
    if r is None:
        return None
    s = strict_sign(r)
    if s is not None:
        return "+" if s > 0 else "-"
    w = weak_sign(r)
    return None if w is None else "0+" if w > 0 else "0-"


# --------------------------------------------------------------------------- a visible square


def _hide(expr: sympy.Expr, var: sympy.Symbol, atoms: dict[sympy.Expr, sympy.Dummy]) -> sympy.Expr:
    """``expr`` with every maximal sub-expression in ``var`` that is not a polynomial operation
    (cos(var), 1/var, exp(var)) replaced by a dummy: a polynomial in ``var`` over them."""
    if expr == var or not expr.has(var):
        return expr
    if expr.is_Add or expr.is_Mul:
        return expr.func(*(_hide(a, var, atoms) for a in expr.args))
    if expr.is_Pow and expr.exp.is_Integer and expr.exp > 0:
        return sympy.Pow(_hide(expr.base, var, atoms), expr.exp)
    if expr not in atoms:
        atoms[expr] = sympy.Dummy("h")
    return atoms[expr]


@functools.lru_cache(maxsize=256)
def _coefficients(expr: sympy.Expr, var: sympy.Symbol) -> tuple[sympy.Expr, ...] | None:
    """``(c_n, …, c_0)`` with ``expr = Σ c_k·var**k`` identically, each c_k free of ``var``
    outside other functions (cos(var) may stay); None when ``expr`` is not of that form.
    Expanding a polynomial is an identity: no sign is read."""
    atoms: dict[sympy.Expr, sympy.Dummy] = {}
    hidden = _hide(expr, var, atoms)
    try:
        poly = sympy.Poly(hidden, var)
    except BasePolynomialError:
        return None
    back = {d: e for e, d in atoms.items()}
    return tuple(c.xreplace(back) for c in poly.all_coeffs())


def _completed_square(expr: sympy.Expr, var: sympy.Symbol,
                      ranges: dict[sympy.Symbol, Range]) -> tuple[str, str] | None:
    """The outcome of g = a·(v + b/(2a))² + (c − b²/(4a)) for g quadratic in v, and why."""
    coeffs = _coefficients(expr, var)
    if coeffs is None or len(coeffs) != 3:
        return None
    a, b, c = coeffs
    lead = strict_sign(range_on(a, ranges) or Range(_NOO, _OO))
    if lead is None:
        return None
    rest = _outcome(range_on(c - b**2 / (4 * a), ranges))
    if rest is None or (rest in ("+", "0+")) != (lead > 0):
        return None  # the square pulls the other way: nothing follows
    name = var.name
    relation = {"+": "> 0", "0+": ">= 0", "-": "< 0", "0-": "<= 0"}[rest]
    return rest, (f"a completed square in {name}: ({name} + b/(2a))²·a + c − b²/(4a), with "
                  f"a {'>' if lead > 0 else '<'} 0 and c − b²/(4a) {relation} (interval arithmetic)")


# --------------------------------------------------------------------------- factors


def _by_factors(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], want: Want,
                counter: _Counter) -> SignProof | None:
    """A product or quotient: each factor's strict sign proved, the signs multiplied."""
    if want not in ("positive", "negative"):
        return None
    numer, denom = sympy.fraction(expr)
    parts = [(f, 1) for f in sympy.Mul.make_args(numer)] + [(f, -1) for f in sympy.Mul.make_args(denom)]
    parts = [(f, k) for f, k in parts if f != 1]
    if len(parts) < 2 and all(k > 0 for _, k in parts):
        return None  # a single factor: nothing to split
    sign, why = 1, []
    for factor, _ in parts:
        base, power = factor.as_base_exp() if factor.is_Pow and factor.exp.is_Integer else (factor, S.One)
        if not base.free_symbols:
            s = exact_sign(base)
            if s == 0:
                return None
        else:
            found = None
            for w in ("positive", "negative"):
                try:
                    found = _prove(base, ranges, w, counter, factors=False)
                    break
                except _GiveUp:
                    continue
            if found is None:
                return None
            s = found.sign
            why.append(f"{sympy.sstr(base)} {w}: {found.argument}")
        sign *= s ** abs(int(power))
    if (sign > 0) != (want == "positive"):
        raise _GiveUp("the factors have the other sign")
    return SignProof(want, "a product of factors of proved sign (" + "; ".join(why) + ")")


# --------------------------------------------------------------------------- one square root


def _half_powers(expr: sympy.Expr) -> set[sympy.Expr]:
    """The bases P (with a symbol) of the powers P^(k/2), k odd, in ``expr``."""
    return {p.base for p in expr.atoms(sympy.Pow)
            if p.exp.is_Rational and p.exp.q == 2 and p.base.free_symbols}


def _strict_sign(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], counter: _Counter,
                 wants: tuple[Want, Want] = ("positive", "negative")) -> int | None:
    """±1 when ``expr`` is proved to have the first (+1) or second (−1) sign of ``wants`` on the box."""
    if expr.is_number:
        s = exact_sign(expr)
        return s if s != 0 else None
    for sign, want in zip((1, -1), wants, strict=True):
        try:
            _prove(expr, ranges, want, counter, factors=True)
            return sign
        except (_GiveUp, Undecided, EvaluationError):
            continue
    return None


def _by_radical(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], want: Want,
                counter: _Counter) -> SignProof | None:
    """g with one square root s = √P (P > 0 proved on the box): written by identities as
    (A + B·s)/D with A, B, D free of s (s² = P; a denominator E·s is cleared by multiplying by s,
    which is > 0). Then A + B·s has B's sign where B²P − A² > 0 (|B|·s > |A|; ≥ 0 gives the
    weak sign), and A's sign where A² − B²P > 0; D's strict sign is proved on its own
    (``z + √(z² + 1) > 0``: B = 1, B²P − A² = 1; ``1 − z/√(1 + z²) > 0``)."""
    bases = _half_powers(expr)
    if len(bases) != 1:
        return None
    (p,) = bases
    s = sympy.Dummy("s")
    g = expr.replace(lambda e: e.is_Pow and e.base == p and e.exp.is_Rational and e.exp.q == 2,
                     lambda e: s ** int(2 * e.exp))
    numer, denom = sympy.fraction(sympy.together(g))
    try:
        (a, b), (c, e) = (_linear_in_root(part, s, p) for part in (numer, denom))
    except (BasePolynomialError, ValueError):
        return None
    if e != 0 and c != 0:
        return None
    if e != 0:  # (A + B·s)/(E·s) = (B·P + A·s)/(E·P)
        a, b, c = b * p, a, e * p
    if _strict_sign(p, ranges, counter) != 1:
        return None
    d_sign = _strict_sign(c, ranges, counter)
    if d_sign is None:
        return None
    strict = want in ("positive", "negative")
    n_sign, why = None, ""
    if b == 0:
        n_sign = _strict_sign(a, ranges, counter, _weak(want, strict))
        why = "B = 0"
    else:
        b_sign = _strict_sign(b, ranges, counter)
        if b_sign is not None and _strict_sign(b**2 * p - a**2, ranges, counter, _weak("positive", strict)) == 1:
            n_sign, why = b_sign, "B·s dominates: B²P − A² " + (">" if strict else ">=") + " 0"
        else:
            a_sign = _strict_sign(a, ranges, counter)
            if a_sign is not None and _strict_sign(a**2 - b**2 * p, ranges, counter) == 1:
                n_sign, why = a_sign, "A dominates: A² − B²P > 0"
    if n_sign is None:
        return None
    if (n_sign * d_sign > 0) != (want in ("positive", "nonnegative")):
        raise _GiveUp("the square root's argument gives the other sign")
    return SignProof(want, f"one square root s = √({sympy.sstr(p)}) > 0, g = (A + B·s)/D with D of "
                           f"proved sign; {why}")


def _weak(want: Want, strict: bool) -> tuple[Want, Want]:
    return ("positive", "negative") if strict else ("nonnegative", "nonpositive")


def _linear_in_root(part: sympy.Expr, s: sympy.Dummy, p: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """(A, B) with part = A + B·s once s² = P, A and B free of s (a polynomial identity)."""
    poly = sympy.Poly(part, s)
    if any(c.has(s) for c in poly.all_coeffs()):
        raise ValueError("s inside a function")
    a, b = S.Zero, S.Zero
    for (k,), coeff in poly.terms():
        if k % 2:
            b += coeff * p ** (k // 2)
        else:
            a += coeff * p ** (k // 2)
    return sympy.expand(a), sympy.expand(b)


# --------------------------------------------------------------------------- the cover


def _cover(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range], want: Want,
           counter: _Counter) -> SignProof:
    """Tails where the dominant term wins, then Arb bisection of the bounded rest."""
    how: list[str] = []
    first = _sample(ranges)
    if first is not None:
        _check_sample(expr, first, want)
    box = dict(ranges)
    for var, r in ranges.items():
        lower, upper = r.lo, r.hi
        if r.hi is _OO:
            upper, why = _tail(expr, box, var, r.lo, +1, want, counter)
            how.append(why)
        if r.lo is _NOO:
            lower, why = _tail(expr, box, var, r.hi, -1, want, counter)
            how.append(why)
        box[var] = Range(lower, upper, r.lo_closed or lower is not r.lo, r.hi_closed or upper is not r.hi)
    boxes = _bisect(expr, box, ranges, want, counter)
    how.append(f"{boxes} sub-box(es) of the bounded part, each by an Arb enclosure, interval "
               "arithmetic or monotonicity at an open end")
    return SignProof(want, "a cover: " + "; ".join(how))


def _tail(expr: sympy.Expr, box: dict[sympy.Symbol, Range], var: sympy.Symbol, other_end: sympy.Expr,
          side: int, want: Want, counter: _Counter) -> tuple[sympy.Expr, str]:
    """A start R where the tail (R, oo) (side +1) or (−oo, R) (side −1) of ``var`` is
    proved, and why; _GiveUp when no start in TAIL_STARTS works. The tail lies beyond the
    range's other end and beyond 0 (so ``var`` has one sign on it: the sign of var**n)."""
    base = S.Zero if other_end in (_OO, _NOO) else _outer(other_end, side)
    base = max(base, S.Zero) if side > 0 else min(base, S.Zero)
    coeffs = _coefficients(expr, var)
    for offset in TAIL_STARTS:
        counter.tick()
        start = base + side * offset
        tail = Range(start, _OO) if side > 0 else Range(_NOO, start)
        ranges = {**box, var: tail}
        outcome = _outcome(range_on(expr, ranges))
        if outcome in _ACCEPT[want]:
            return start, f"{var.name} {'>' if side > 0 else '<'} {start} by interval arithmetic"
        if outcome in _CONTRARY[want]:
            raise _GiveUp(f"the tail of {var} has the other sign")
        if coeffs is not None and len(coeffs) > 1:
            n = len(coeffs) - 1
            bracket = sympy.Add(*(c * var ** (-k) for k, c in enumerate(coeffs)))
            inner = _outcome(range_on(bracket, ranges))
            if inner is not None and side < 0 and n % 2:
                inner = {"+": "-", "-": "+", "0+": "0-", "0-": "0+"}[inner]
            if inner in _CONTRARY[want]:
                raise _GiveUp(f"the tail of {var} has the other sign")
            if inner in _ACCEPT[want]:
                return start, (f"{var.name} {'>' if side > 0 else '<'} {start}: the dominant term "
                               f"{var.name}**{n} wins (g = {var.name}**{n}·(c_n + c_(n-1)/{var.name} "
                               "+ …), the bracket by interval arithmetic)")
    raise _GiveUp(f"no tail of {var} is proved")


def _bisect(expr: sympy.Expr, box: dict[sympy.Symbol, Range], original: dict[sympy.Symbol, Range],
            want: Want, counter: _Counter) -> int:
    """Split the bounded box until every sub-box is decided; the number of sub-boxes."""
    widths = {v: _width(r) for v, r in box.items()}
    smallest = {v: w * MIN_WIDTH for v, w in widths.items()}
    derivative: dict[sympy.Symbol, sympy.Expr] = {}
    stack, done = [box], 0
    while stack:
        part = stack.pop()
        counter.tick()
        outcome = _decide_box(expr, part, original, want, derivative)
        if outcome in _ACCEPT[want]:
            done += 1
            continue
        if outcome in _CONTRARY[want]:
            raise _GiveUp("a sub-box has the other sign")
        var = max((v for v in part if not part[v].is_point), key=lambda v: _width(part[v]), default=None)
        if var is None or _width(part[var]) <= smallest[var]:
            raise _GiveUp("a sub-box too small to split further")
        mid = _midpoint(part[var])
        centre = _sample({**part, var: Range.point(mid)})
        if centre is not None:
            _check_sample(expr, centre, want)
        r = part[var]
        stack.append({**part, var: Range(mid, r.hi, True, r.hi_closed)})
        stack.append({**part, var: Range(r.lo, mid, r.lo_closed, True)})
    return done


def _decide_box(expr: sympy.Expr, box: dict[sympy.Symbol, Range], original: dict[sympy.Symbol, Range],
                want: Want, derivative: dict[sympy.Symbol, sympy.Expr]) -> str | None:
    """The outcome on one bounded box: an Arb enclosure over its closed rational hull first;
    on a box that keeps an end of the original range (open, or where g may be 0), interval
    arithmetic with the exact ends, then monotonicity."""
    hull = {v: (_outer(r.lo, -1), _outer(r.hi, 1)) for v, r in box.items()}
    for prec in PRECISIONS:
        try:
            ball = enclose_range(expr, hull, prec)
        except EvaluationError:
            break
        outcome = _ball_outcome(ball)
        if outcome is not None and (outcome in _ACCEPT[want] or prec == PRECISIONS[-1]):
            return outcome
    at_end = [v for v, r in box.items() if _keeps_an_end(r, original[v])]
    if not at_end:
        return None
    outcome = _outcome(range_on(expr, box))
    if outcome is not None:
        return outcome
    moving = [v for v, r in box.items() if not r.is_point]
    if len(moving) == 1 and moving == at_end:
        return _monotone(expr, moving[0], box, derivative)
    return None


def _keeps_an_end(r: Range, original: Range) -> bool:
    """Does the sub-box reach a finite end of the original range? There g may tend to 0 (g(0)
    = 0 for β − sin β on β > 0), which no enclosure of a closed box around it excludes."""
    return (r.lo == original.lo and r.lo is not _NOO) or (r.hi == original.hi and r.hi is not _OO)


def _monotone(expr: sympy.Expr, var: sympy.Symbol, box: dict[sympy.Symbol, Range],
              derivative: dict[sympy.Symbol, sympy.Expr]) -> str | None:
    """On an interval where g′ has a certified sign, g lies between its exact values at the
    ends: strictly inside when g′ ≠ 0 (an open end then gives a bound not attained), weakly
    when only g′ ≥ 0 (or ≤ 0) is proved. Not for g with an integer part (floor, ceiling, frac,
    Mod) of the variable: it jumps, and a derivative says nothing across a jump."""
    if expr.has(*INTEGER_PARTS):
        return None
    if var not in derivative:
        derivative[var] = sympy.diff(expr, var)
    found = range_on(derivative[var], box) or Range(_NOO, _OO)
    slope = strict_sign(found)
    if slope is None:
        slope = weak_sign(found)
        if slope is None:
            return None
        box = {**box, var: Range(box[var].lo, box[var].hi, True, True)}  # no strict bound
    r = box[var]
    low_end, high_end = (r.lo, r.lo_closed), (r.hi, r.hi_closed)
    least, most = (low_end, high_end) if slope > 0 else (high_end, low_end)
    try:
        values = [substitute(expr, {var: end}) for end in (least[0], most[0])]
        if any(v.has(S.ComplexInfinity, S.NaN, _OO, _NOO, S.ImaginaryUnit) for v in values):
            return None  # not defined at the end: no bound from there
        at_least, at_most = (exact_sign(v) for v in values)
    except Undecided:
        return None
    # g > g(least end) everywhere except at that end, which belongs to the box when closed
    if at_least > 0 or (at_least == 0 and not least[1]):
        return "+"
    if at_most < 0 or (at_most == 0 and not most[1]):
        return "-"
    if at_least >= 0:
        return "0+"
    if at_most <= 0:
        return "0-"
    return None


# --------------------------------------------------------------------------- helpers


def _ball_outcome(ball: arb) -> str | None:
    if not ball.is_finite():
        return None
    lo, hi = arb_sign_bounds(ball)
    if lo > 0:
        return "+"
    if hi < 0:
        return "-"
    if lo == 0:
        return "0+"
    if hi == 0:
        return "0-"
    return None


def _check_sample(expr: sympy.Expr, point: dict[sympy.Symbol, sympy.Rational], want: Want) -> None:
    """Give up at once when the value at a point of the box refutes the wish (or is 0 or
    undefined there, for a strict wish): bisection could never succeed."""
    found = certify_nonzero(expr, point, max_prec=256)
    if found is None:
        if want in ("positive", "negative"):
            raise _GiveUp("a sample point where the value is 0 or not certified")
        return
    if (found.sign > 0) != (want in ("positive", "nonnegative")):
        raise _GiveUp("a sample point with the other sign")


def _sample(ranges: dict[sympy.Symbol, Range]) -> dict[sympy.Symbol, sympy.Rational] | None:
    """A rational point of the box (its centre, or near the finite end of a half-line)."""
    point = {}
    for var, r in ranges.items():
        if r.is_point:
            if not r.lo.is_Rational:
                return None
            point[var] = r.lo
            continue
        if r.lo is _NOO and r.hi is _OO:
            q = S.Zero
        elif r.lo is _NOO:
            q = _outer(r.hi, 1) - 1
        elif r.hi is _OO:
            q = _outer(r.lo, -1) + 1
        else:
            q = _midpoint(r)
        if not _inside(q, r):
            return None
        point[var] = q
    return point


def _inside(q: sympy.Rational, r: Range) -> bool:
    try:
        above = certified_order(q, r.lo)
        below = certified_order(r.hi, q)
    except Undecided:
        return False
    return (above > 0 or (above == 0 and r.lo_closed)) and (below > 0 or (below == 0 and r.hi_closed))


def _outer(x: sympy.Expr, direction: int) -> sympy.Rational:
    """A rational at or beyond the real number ``x`` in ``direction`` (−1: at or below), from
    an Arb enclosure of ``x`` (its exact end)."""
    if x.is_Rational:
        return x
    if x in (_OO, _NOO):
        raise _GiveUp("an infinite end where a finite one was expected")
    ball = enclose_range(x, {}, 128)
    end = ball.lower() if direction < 0 else ball.upper()
    man, exp = end.mid().man_exp()
    q = Fraction(int(man)) * Fraction(2) ** int(exp)
    found = sympy.Rational(q.numerator, q.denominator)
    if certified_order(found, x) * direction < 0:  # never: the end of a ball containing x
        raise _GiveUp("an end of an enclosure on the wrong side")
    return found


def _width(r: Range) -> Fraction:
    lo, hi = _outer(r.lo, -1), _outer(r.hi, 1)
    return Fraction(int((hi - lo).p), int((hi - lo).q))


def _midpoint(r: Range) -> sympy.Rational:
    """A rational strictly inside the bounded range, near its middle."""
    lo, hi = _outer(r.lo, -1), _outer(r.hi, 1)
    mid = (lo + hi) / 2
    if (lo != r.lo or hi != r.hi) and not (certified_order(mid, r.lo) > 0 and certified_order(r.hi, mid) > 0):
            raise _GiveUp("no rational inside a very narrow interval")
    return mid
