"""Cut points whose completeness is proved: every real root of g(z) in an open interval.

A case split is only as good as its cut points. Between consecutive cut points a continuous
condition ``g`` keeps its sign, so one certified sample decides the interval — but only if no
root was missed. :func:`roots_in` therefore returns a :class:`Cuts`: a finite set of exact
points that provably *contains* every root of ``g`` strictly inside ``(lower, upper)``, with the
argument that proves it. Extra points are harmless (a cut where g keeps its sign costs one
more region); a missing one is a wrong proof. When no argument applies the answer is
:class:`Undecided`, never a guess. The arguments, tried in order:

* **a polynomial with rational coefficients** — exact real-root isolation (SymPy's
  ``real_roots``, exact rational arithmetic);
* **a polynomial with real-algebraic coefficients** (√2, √3/2, 1 + √2) — every root of g is a
  root of its norm N (the product of g's conjugates over the coefficient field), a polynomial
  with rational coefficients whose real roots are isolated exactly; roots of N where g is
  certified non-zero are dropped;
* **a linear polynomial** with any real coefficients (π, e): its one root, −c₀/c₁;
* **a sign-definite g** — SymPy's assumptions prove g > 0 (or < 0) on the interval: no root;
* **a strictly monotone g** — the assumptions prove g′ > 0 (or < 0) on the interval: at most
  one root; it is found among SymPy's candidates and proved a root, or the sign of g at a
  finite end rules it out;
* **ball-arithmetic isolation on a bounded interval** — bisection with Arb enclosures of g and
  g′ over sub-intervals: an enclosure of g away from 0 excludes a root, an enclosure of g′ away
  from 0 makes g monotone there so the signs at the ends count its one root. Each isolated root
  is then an end of its box where g is exactly 0 (``sin(2πz)`` at 0, 1/2 and 1), or matched by
  exactly one exact candidate (from ``solveset``) proved to be a root.

SymPy's ``solveset`` only ever *proposes* candidates; its answer is never taken as complete
(on half-lines it misses the roots of periodic conditions). A periodic condition on a
half-line has infinitely many roots: no finite split exists, and the answer is Undecided.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import sympy
from sympy import S

from symcheck.exact.evaluate import enclose_range
from symcheck.core.printing import text
from symcheck.exact.signs import Undecided, certified_order, exact_sign

__all__ = ["Cuts", "roots_in", "is_algebraic"]

#: bisection depth of the ball-arithmetic isolation (intervals down to width·2^-depth)
MAX_DEPTH = 40
#: sub-intervals the isolation may visit before it gives up
MAX_BOXES = 4000
#: precisions tried for the enclosures over sub-intervals
PRECISIONS = (64, 192)


@dataclass(frozen=True)
class Cuts:
    """Exact points containing every root of a condition inside an interval, and why."""

    points: tuple[sympy.Expr, ...]
    argument: str


def _strictly_inside(c: sympy.Expr, lower: sympy.Expr, upper: sympy.Expr) -> bool:
    """Is ``c`` in the open interval? Decided by certified comparisons, never by evalf."""
    if not (c.is_extended_real is True or c.is_real is True):
        if c.is_real is False:
            return False
        raise Undecided(f"cannot tell whether {text(c)} is real")
    return certified_order(c, lower) > 0 and certified_order(upper, c) > 0


# --------------------------------------------------------------------------- the entry point


def roots_in(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr,
             *, candidates: Callable[[sympy.Expr, sympy.Symbol, sympy.Set], Iterable[sympy.Expr]] | None = None
             ) -> Cuts:
    """Exact points, sorted, that contain every root of ``g`` in ``(lower, upper)``.

    ``g`` is branch-free and continuous on the interval wherever it is defined (the caller
    cuts at its poles separately). Raises :class:`Undecided` when completeness cannot be
    proved. ``candidates`` proposes exact roots (default: SymPy's ``solveset``); a proposal is
    only used after it is proved to be a root.
    """
    if var not in g.free_symbols:
        return Cuts((), "it does not depend on " + text(var))
    propose = candidates or _solveset_candidates
    if g.is_polynomial(var):
        found = _polynomial(g, var, lower, upper)
        if found is not None:
            return found
    for attempt in (_sign_definite, _monotone):
        found = attempt(g, var, lower, upper, propose)
        if found is not None:
            return found
    if lower.is_finite and upper.is_finite:
        return _isolated(g, var, lower, upper, propose)
    raise Undecided(f"cannot bound the real roots of {text(g)} = 0 on {_interval_text(lower, upper)}: "
                    "no finite set of cut points is proved complete there (a periodic or "
                    "oscillating condition has infinitely many roots)")


def _interval_text(lower: sympy.Expr, upper: sympy.Expr) -> str:
    return f"({text(lower)}, {text(upper)})"


def _inside(points: Iterable[sympy.Expr], lower: sympy.Expr, upper: sympy.Expr) -> tuple[sympy.Expr, ...]:
    kept = [c for c in dict.fromkeys(points) if _strictly_inside(c, lower, upper)]
    return _sorted(kept)


def _sorted(points: list[sympy.Expr]) -> tuple[sympy.Expr, ...]:
    ordered = sorted(points, key=lambda p: p.evalf(50))
    for lo, hi in zip(ordered, ordered[1:]):  # the float sort is only a proposal: certify it
        if certified_order(hi, lo) <= 0:
            raise Undecided(f"cannot order the cut points {text(lo)} and {text(hi)} exactly")
    return tuple(ordered)


# --------------------------------------------------------------------------- polynomials


def is_algebraic(c: sympy.Expr) -> bool:
    """Is the constant built from rationals by + − · / and rational powers (√2, 2^(1/3))?"""
    if c.is_Rational:
        return True
    if c.is_Add or c.is_Mul:
        return all(is_algebraic(a) for a in c.args)
    if c.is_Pow:
        return is_algebraic(c.base) and c.exp.is_Rational
    return isinstance(c, sympy.CRootOf)


def _polynomial(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr) -> Cuts | None:
    found = _polynomial_on_line(g, var)
    return None if found is None else Cuts(_inside(found.points, lower, upper), found.argument)


@functools.lru_cache(maxsize=512)
def _polynomial_on_line(g: sympy.Expr, var: sympy.Symbol) -> Cuts | None:
    """Every real root of the polynomial g (a superset, for algebraic coefficients), or None
    when its coefficients are transcendental and it is not linear. Cached: a split asks the
    same condition on every region, and only the filtering depends on the region."""
    coeffs = sympy.Poly(g, var).all_coeffs()
    if all(c.is_Rational for c in coeffs):
        poly = sympy.Poly(g, var, domain=sympy.QQ)
        if poly.degree() <= 0:
            return Cuts((), "it is a constant")
        return Cuts(tuple(dict.fromkeys(poly.real_roots())),
                    "exact real-root isolation of a polynomial with rational coefficients")
    if all(is_algebraic(c) for c in coeffs):
        return _algebraic(g, var)
    if exact_sign(coeffs[0]) == 0:
        return _polynomial_on_line(sympy.expand(g - coeffs[0] * var ** (len(coeffs) - 1)), var)
    if len(coeffs) == 2:  # c1·z + c0 with real constants such as π or e
        c1, c0 = coeffs
        return Cuts((-c0 / c1,), "it is linear, with its one root -c0/c1")
    ratios = [sympy.simplify(c / coeffs[0]) for c in coeffs]
    if all(is_algebraic(r) for r in ratios):  # e.g. log(1 + e^-2000)·(z² − 4z + 5)
        monic = sum(r * var ** k for k, r in enumerate(reversed(ratios)))
        found = _polynomial_on_line(monic, var)
        if found is not None:
            return Cuts(found.points, "divided by its leading coefficient, which is not 0, "
                                      + found.argument.replace("a polynomial", "a monic polynomial"))
    return None  # transcendental coefficients: the other arguments may still apply


def _algebraic(g: sympy.Expr, var: sympy.Symbol) -> Cuts:
    poly = sympy.Poly(g, var, extension=True)
    if poly.degree() <= 0:
        return Cuts((), "it is a constant")
    norm = sympy.Poly(poly.norm().as_expr(), var, domain=sympy.QQ)
    if norm.is_zero or norm.degree() <= 0:
        raise Undecided(f"the norm of {text(g)} over its coefficient field is degenerate")
    kept = []
    for root in norm.real_roots():
        try:
            if exact_sign(g.xreplace({var: root})) != 0:
                continue  # a root of a conjugate of g, not of g: no cut needed
        except Undecided:
            pass  # keep it: an extra cut point is harmless
        kept.append(root)
    return Cuts(tuple(kept),
                f"every root of the polynomial is a root of its norm {text(norm.as_expr())}, "
                "which has rational coefficients and exactly isolated real roots")


# --------------------------------------------------------------------------- arguments from assumptions


_POSITIVE_T = sympy.Symbol("t", positive=True)


def _parametrised(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr) -> sympy.Expr:
    """g on the open interval as a function of t > 0 (a bijection onto the interval)."""
    t = _POSITIVE_T
    if lower is S.NegativeInfinity and upper is S.Infinity:
        real = sympy.Symbol(var.name, real=True)
        return g.xreplace({var: real})
    if upper is S.Infinity:
        return g.xreplace({var: lower + t})
    if lower is S.NegativeInfinity:
        return g.xreplace({var: upper - t})
    return g.xreplace({var: (lower + upper * t) / (1 + t)})


def _definite_sign(expr: sympy.Expr) -> int:
    if expr.is_positive is True:
        return 1
    if expr.is_negative is True:
        return -1
    return 0


def _sign_definite(g, var, lower, upper, propose) -> Cuts | None:
    s = _definite_sign(_parametrised(g, var, lower, upper))
    if s:
        return Cuts((), f"it is {'positive' if s > 0 else 'negative'} on the whole interval "
                        "(SymPy's assumptions on the parametrised interval)")
    return None


def _monotone(g, var, lower, upper, propose) -> Cuts | None:
    slope = _definite_sign(_parametrised(sympy.diff(g, var), var, lower, upper))
    if not slope:
        return None
    why = f"it is strictly {'increasing' if slope > 0 else 'decreasing'} (its derivative has one sign there)"
    roots = [c for c in _proved_roots(g, var, propose(g, var, sympy.Interval.open(lower, upper)))
             if _strictly_inside(c, lower, upper)]
    if len(roots) == 1:
        return Cuts(tuple(roots), why + ", so its one root is the only one")
    if len(roots) > 1:
        raise Undecided(f"a monotone {text(g)} cannot have two roots: the candidates are wrong")
    for end, side in ((lower, 1), (upper, -1)):
        if end.is_finite:  # g(end) of the sign that g moves away from 0 with: no root inside
            try:
                s = exact_sign(g.xreplace({var: end}))
            except Undecided:
                continue
            if s != 0 and s * side * slope > 0 or s == 0:
                return Cuts((), why + f" and g({text(end)}) = 0 or already moves away from 0")
    return None


def _solveset_candidates(g: sympy.Expr, var: sympy.Symbol, interval: sympy.Set) -> list[sympy.Expr]:
    """Exact roots SymPy proposes, on the interval and on all of R (on a half-line it may
    answer EmptySet where R gives the root). Only proposals: each is proved before use."""
    found: list[sympy.Expr] = []
    for domain in (interval, S.Reals):
        try:
            answer = sympy.solveset(g, var, domain)
        except Exception:  # candidates are optional; the proof does not depend on them
            continue
        parts = answer.args if isinstance(answer, sympy.Union) else (answer,)
        found += [c for part in parts for c in _members(part) if c.is_number]
    return list(dict.fromkeys(found))


def _members(part: sympy.Set) -> list[sympy.Expr]:
    """The points of a finite part of solveset's answer (none for an infinite or implicit one)."""
    if isinstance(part, sympy.FiniteSet):
        return list(part.args)
    if isinstance(part, sympy.Range):  # on a bounded interval the integer roots of sin(2πz)
        return list(part) if part.is_finite_set else []
    return []


def _proved_roots(g: sympy.Expr, var: sympy.Symbol, proposals: Iterable[sympy.Expr]) -> list[sympy.Expr]:
    roots = []
    for c in proposals:
        try:
            if exact_sign(g.xreplace({var: c})) == 0:
                roots.append(c)
        except Undecided:
            continue
    return roots


# --------------------------------------------------------------------------- ball-arithmetic isolation


def _rational(x: sympy.Expr, direction: int) -> Fraction:
    """A rational at or beyond ``x`` in ``direction`` (−1: at or below, +1: at or above)."""
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    approx = Fraction(str(sympy.Rational(str(x.evalf(40)))))
    step = Fraction(1, 10**30) * max(1, abs(approx))
    candidate = approx + direction * step
    q = sympy.Rational(candidate.numerator, candidate.denominator)
    if certified_order(q, x) * direction >= 0:
        return candidate
    raise Undecided(f"cannot bracket {text(x)} by a rational")


def _isolated(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr, propose) -> Cuts:
    dg = sympy.diff(g, var)
    lo, hi = _rational(lower, -1), _rational(upper, 1)

    def sign_on(expr: sympy.Expr, a: Fraction, b: Fraction) -> int | None:
        box = {var: (sympy.Rational(a.numerator, a.denominator), sympy.Rational(b.numerator, b.denominator))}
        for prec in PRECISIONS:
            try:
                ball = enclose_range(expr, box, prec)
            except Exception:  # undefined or undecided on the box: split it further
                return None
            if ball > 0:
                return 1
            if ball < 0:
                return -1
        return None

    def sign_at(a: Fraction) -> int | None:
        try:
            return exact_sign(g.xreplace({var: sympy.Rational(a.numerator, a.denominator)}))
        except Undecided:
            return None

    # each holds exactly one root (maybe at an end), with the exact signs of g at its ends
    brackets: list[tuple[Fraction, Fraction, int, int]] = []
    stack, boxes = [(lo, hi, 0)], 0
    while stack:
        a, b, depth = stack.pop()
        boxes += 1
        if boxes > MAX_BOXES:
            raise Undecided(f"too many sub-intervals while isolating the roots of {text(g)}")
        if sign_on(g, a, b) is not None:
            continue  # g keeps away from 0 on [a, b]
        if sign_on(dg, a, b) is not None:
            sa, sb = sign_at(a), sign_at(b)
            if sa is not None and sb is not None:
                if sa * sb > 0:
                    continue  # monotone and the same sign at both ends: no root
                brackets.append((a, b, sa, sb))
                continue
        if depth >= MAX_DEPTH:
            raise Undecided(f"cannot isolate the roots of {text(g)} near {float(a):.6g} "
                            "(a multiple root, or a root the enclosures cannot separate)")
        mid = (a + b) / 2
        stack += [(mid, b, depth + 1), (a, mid, depth + 1)]
    proposals = _proved_roots(g, var, propose(g, var, sympy.Interval(lower, upper)))
    points = []
    for a, b, sa, sb in brackets:
        qa, qb = sympy.Rational(a.numerator, a.denominator), sympy.Rational(b.numerator, b.denominator)
        # g is strictly monotone on [a, b]: an end where g is exactly 0 is its one root there
        ends = [q for q, s in ((qa, sa), (qb, sb)) if s == 0]
        inside = ends or [c for c in proposals if certified_order(c, qa) >= 0 and certified_order(qb, c) >= 0]
        if len(inside) != 1:
            raise Undecided(f"the root of {text(g)} in [{float(a):.6g}, {float(b):.6g}] has no closed "
                            "form SymPy can name")
        points.append(inside[0])
    return Cuts(_inside(points, lower, upper),
                f"ball-arithmetic isolation on [{text(lower)}, {text(upper)}]: {len(dict.fromkeys(points))} simple "
                "root(s), each matched by an exact root")
