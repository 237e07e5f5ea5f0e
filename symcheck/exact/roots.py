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
* **a sign-definite g** — a certified range of g over the interval (:func:`range_on`:
  interval arithmetic with exact ends, each compared with 0 by :func:`exact_sign`) lies
  above 0 (or below): no root;
* **a strictly monotone g** — the same certified range of g′ excludes 0: at most one root;
  it is found among SymPy's candidates and proved a root, or the sign of g at a finite end
  rules it out;
* **ball-arithmetic isolation on a bounded interval** — bisection with Arb enclosures of g and
  g′ over sub-intervals: an enclosure of g away from 0 excludes a root, an enclosure of g′ away
  from 0 makes g monotone there so the signs at the ends count its one root. Each isolated root
  is then an end of its box where g is exactly 0 (``sin(2πz)`` at 0, 1/2 and 1), or matched by
  exactly one exact candidate (from ``solveset``) proved to be a root.

SymPy's ``solveset`` only ever *proposes* candidates; its answer is never taken as complete
(on half-lines it misses the roots of periodic conditions). No sign of a number is SymPy's:
its assumptions (``is_positive`` of g written in t > 0) decided the sign-definite argument
before, and with irrational constants they are wrong (issue 26: ``z**3 + z + π·P`` with
P ≈ −2.7e-40 "positive on (0, ∞)", its root at 8.6e-40 dropped). A periodic condition on a
half-line has infinitely many roots: no finite split exists, and the answer is Undecided.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import sympy
from sympy import S

from symcheck.core.functions import INTEGER_PARTS
from symcheck.core.printing import text
from symcheck.exact.definite import prove_nonzero
from symcheck.exact.evaluate import enclose_range
from symcheck.exact.ranges import Range, open_range, range_on, sign_on
from symcheck.exact.signs import Undecided, certified_order, exact_sign, substitute

__all__ = ["Cuts", "Range", "is_algebraic", "range_on", "roots_in", "sign_on"]

#: bisection depth of the ball-arithmetic isolation (intervals down to width·2^-depth)
MAX_DEPTH = 40
#: sub-intervals the isolation may visit before it gives up
MAX_BOXES = 4000
#: precisions tried for the enclosures over sub-intervals
PRECISIONS = (64, 192)
#: proposals larger than this (SymPy's count_ops) are not proved roots: the exact zero proof of
#: a large radical expression with transcendental constants (Cardano's formula for
#: z³ + z + π·c) can run for many minutes; a proposal left unproved is only a proof lost
MAX_PROPOSAL_OPS = 60
#: a polynomial of degree ≥ 3 whose transcendental coefficients add up to more operations than
#: this gets no solveset proposals (π·z³ + z − 1 does; z³ + z + π·(e^-30 − log(1 + e^-30) −
#: e^-60/2) would cost solveset 13 s for a formula above MAX_PROPOSAL_OPS)
MAX_COEFFICIENT_OPS = 8


#: proposes exact roots of g in var on an interval; a proposal is checked, never trusted
Propose = Callable[[sympy.Expr, sympy.Symbol, sympy.Set], Iterable[sympy.Expr]]


@dataclass(frozen=True)
class Cuts:
    """Exact points containing every root of a condition inside an interval, and why."""

    points: tuple[sympy.Expr, ...]
    argument: str


def _certainly_real(c: sympy.Expr) -> bool:
    """Is the number ``c`` real? True only with a proof: a rational, a real ``CRootOf`` (exact
    isolation decides that), or an Arb enclosure of ``c``, whose walker evaluates real
    arithmetic only (a root of a negative base, ``log`` of a negative number, ``I``, a non-real
    ``CRootOf`` raise). SymPy's ``is_real`` is not asked."""
    if c.is_Rational:
        return True
    if isinstance(c, sympy.CRootOf):
        return bool(c.is_real)  # exact: the index against the count of isolated real roots
    if not c.is_number or c.has(sympy.I, sympy.zoo, sympy.nan):
        return False
    for prec in PRECISIONS + (1024,):
        try:
            enclose_range(c, {}, prec)
            return True
        except Exception:  # not real, or not yet decided at this precision
            continue
    return False


def _strictly_inside(c: sympy.Expr, lower: sympy.Expr, upper: sympy.Expr) -> bool:
    """Is the real number ``c`` in the open interval? Certified comparisons, never evalf.

    For a point of a complete set (real by construction); Undecided when ``c`` is not proved
    real or its place cannot be certified."""
    if not _certainly_real(c):
        raise Undecided(f"cannot tell whether {text(c)} is real")
    return certified_order(c, lower) > 0 and certified_order(upper, c) > 0


def _proposal_inside(c: sympy.Expr, lower: sympy.Expr, upper: sympy.Expr) -> bool:
    """A proposed root is kept only when proved real and inside; otherwise it is dropped (a
    proposal is never needed for completeness: each argument that reads proposals concludes
    "no root" only from certified signs)."""
    try:
        return _strictly_inside(c, lower, upper)
    except Undecided:
        return False


# --------------------------------------------------------------------------- the entry point


def roots_in(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr,
             *, candidates: Propose | None = None
             ) -> Cuts:
    """Exact points, sorted, that contain every root of ``g`` in ``(lower, upper)``, or more
    precisely every point where ``g``'s sign may change: ``g`` has one sign (−1, 0 or +1)
    between two consecutive points. A ``g`` constant in ``var`` has none, **0 included** (an
    unevaluated ``-1/2*2*p + p`` is the zero polynomial): callers take the sign between the
    points from a sample, never "no point, so not 0".

    ``g`` is branch-free and continuous on the interval wherever it is defined (the caller
    cuts at its poles separately); one with an integer part (floor, ceiling, frac, Mod) of the
    variable is not, and only a sign proved on the whole interval answers for it. Raises
    :class:`Undecided` when completeness cannot be proved. ``candidates`` proposes exact roots
    (default: SymPy's ``solveset``); a proposal is only used after it is proved to be a root.
    """
    if var not in g.free_symbols:
        return Cuts((), "it does not depend on " + text(var))
    g, var = _apart_from_roots(g, var)
    if any(var in part.free_symbols for part in g.atoms(*INTEGER_PARTS)):
        # floor, ceiling, frac, Mod jump wherever their argument crosses an integer: g is not
        # continuous, so only a sign proved on the whole interval shows it has no root
        found = _sign_definite(g, var, lower, upper, None) or _sign_proved(g, var, lower, upper)
        if found is not None:
            return found
        raise Undecided(f"{text(g)} jumps wherever an integer part's argument crosses an integer: "
                        f"no finite set of cut points is proved complete on {_interval_text(lower, upper)}")
    propose = candidates or _solveset_candidates
    if g.is_polynomial(var):
        found = _polynomial(g, var, lower, upper)
        if found is not None:
            return found
    for attempt in (_sign_definite, _monotone):
        found = attempt(g, var, lower, upper, propose)
        if found is not None:
            return found
    if lower is not S.NegativeInfinity and upper is not S.Infinity:
        try:
            return _isolated(g, var, lower, upper, propose)
        except Undecided:
            found = _sign_proved(g, var, lower, upper)
            if found is None:
                raise
            return found
    found = _sign_proved(g, var, lower, upper)
    if found is not None:
        return found
    raise Undecided(f"cannot bound the real roots of {text(g)} = 0 on {_interval_text(lower, upper)}: "
                    "no finite set of cut points is proved complete there (a periodic or "
                    "oscillating condition has infinitely many roots)")


def _apart_from_roots(g: sympy.Expr, var: sympy.Symbol) -> tuple[sympy.Expr, sympy.Symbol]:
    """g in a fresh variable when a CRootOf in it is written in ``var`` itself.

    SymPy's cache hands back an equal CRootOf made earlier with another generator (PurePoly
    ignores its name), so ``CRootOf(x**2 - 2, 1)`` may hold ``z**2 - 2``: ``Poly(g, z)`` then
    refuses g, and a substitution of z would reach inside the root."""
    roots = g.atoms(sympy.CRootOf)
    if not any(var in r.poly.gens for r in roots):
        return g, var
    fresh = sympy.Dummy(var.name)
    kept = {r: sympy.Dummy() for r in roots}
    renamed = g.xreplace(kept).xreplace({var: fresh})
    return renamed.xreplace({d: r for r, d in kept.items()}), fresh


def _interval_text(lower: sympy.Expr, upper: sympy.Expr) -> str:
    return f"({text(lower)}, {text(upper)})"


def _inside(points: Iterable[sympy.Expr], lower: sympy.Expr, upper: sympy.Expr) -> tuple[sympy.Expr, ...]:
    kept = [c for c in dict.fromkeys(points) if _strictly_inside(c, lower, upper)]
    return _sorted(kept)


def _sorted(points: list[sympy.Expr]) -> tuple[sympy.Expr, ...]:
    """The points in increasing order, each comparison certified (no float sort: evalf of
    −e/log(1 + e^-2000) raises, and a float order of close points is a guess); points proved
    equal are one cut."""
    ordered = sorted(points, key=functools.cmp_to_key(certified_order))
    kept: list[sympy.Expr] = []
    for p in ordered:
        if kept and certified_order(p, kept[-1]) == 0:
            continue
        kept.append(p)
    return tuple(kept)


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
    # simplify only proposes the ratios; each is kept only when ratio·c_n − c is proved 0
    ratios = [sympy.simplify(c / coeffs[0]) for c in coeffs]
    if all(is_algebraic(r) for r in ratios) and all(_proved_equal(r * coeffs[0], c)
                                                    for r, c in zip(ratios, coeffs, strict=True)):
        # e.g. log(1 + e^-2000)·(z² − 4z + 5): g = c_n·monic exactly, and c_n ≠ 0
        monic = sum(r * var ** k for k, r in enumerate(reversed(ratios)))
        found = _polynomial_on_line(monic, var)
        if found is not None:
            return Cuts(found.points, "divided by its leading coefficient, which is not 0, "
                                      + found.argument.replace("a polynomial", "a monic polynomial"))
    if len(coeffs) == 3:  # a·z² + b·z + c with real constants: the quadratic formula
        return _quadratic(*coeffs)
    return None  # transcendental coefficients: the other arguments may still apply


def _quadratic(a: sympy.Expr, b: sympy.Expr, c: sympy.Expr) -> Cuts | None:
    """The real roots of a·z² + b·z + c (a ≠ 0 proved by the caller) from the sign of its
    discriminant, certified; the roots written as the formula, not evaluated (SymPy would split
    √(−4·π·c) by the signs it guesses for the factors). None when that sign is Undecided."""
    with sympy.evaluate(False):
        four_ac = sympy.Mul(-4, *(x for x in (a, c) if x != 1))
        disc = four_ac if b == 0 else sympy.Add(sympy.Pow(b, 2), four_ac)
        half = S.Half if a == 1 else sympy.Pow(sympy.Mul(2, a), -1)
        centre = None if b == 0 else sympy.Mul(-1, b, half)
    try:
        s = exact_sign(disc)
    except Undecided:
        return None
    if s < 0:
        return Cuts((), "it is quadratic with a negative discriminant (certified): no real root")
    with sympy.evaluate(False):
        if s == 0:
            return Cuts((centre if centre is not None else S.Zero,),
                        "it is quadratic with a zero discriminant: its one root -b/(2a)")
        spread = sympy.Mul(sympy.Pow(disc, S.Half), half)
        points = ((-spread, spread) if centre is None else
                  (sympy.Add(centre, sympy.Mul(-1, spread)), sympy.Add(centre, spread)))
    return Cuts(points, "it is quadratic with a positive discriminant (certified): its two roots "
                        "(-b ± √(b² - 4ac))/(2a)")


def _proved_equal(x: sympy.Expr, y: sympy.Expr) -> bool:
    try:
        return exact_sign(x - y) == 0
    except Undecided:
        return False


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
            if exact_sign(_at(g, var, root)) != 0:
                continue  # a root of a conjugate of g, not of g: no cut needed
        except Undecided:
            pass  # keep it: an extra cut point is harmless
        kept.append(root)
    return Cuts(tuple(kept),
                f"every root of the polynomial is a root of its norm {text(norm.as_expr())}, "
                "which has rational coefficients and exactly isolated real roots")


def _sign_definite(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr,
                   propose: Propose | None) -> Cuts | None:
    s = sign_on(g, {var: open_range(lower, upper)})
    if s:
        return Cuts((), f"it is {'positive' if s > 0 else 'negative'} on the whole interval "
                        "(a certified range of its values: interval arithmetic with exact ends)")
    return None


def _sign_proved(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr) -> Cuts | None:
    """No root: g has one strict sign on the whole interval, bounded or not, proved by
    :func:`~symcheck.exact.definite.prove_nonzero` (a completed square, factors, the dominant
    term on tails beyond ±R and Arb bisection of the bounded rest)."""
    found = prove_nonzero(g, {var: open_range(lower, upper)})
    if found is None:
        return None
    return Cuts((), f"it is {'positive' if found.sign > 0 else 'negative'} on the whole interval "
                    f"({found.argument})")


def _monotone(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr,
              propose: Propose) -> Cuts | None:
    slope = sign_on(sympy.diff(g, var), {var: open_range(lower, upper)})
    if not slope:
        return None
    why = (f"it is strictly {'increasing' if slope > 0 else 'decreasing'} (a certified range of "
           "its derivative excludes 0)")
    for end, side in ((lower, 1), (upper, -1)):
        # g(end) of the sign g moves away from 0 with: no root inside
        if end is not S.Infinity and end is not S.NegativeInfinity:
            try:
                s = exact_sign(_at(g, var, end))
            except Undecided:
                continue
            if s != 0 and s * side * slope > 0 or s == 0:
                return Cuts((), why + f" and g({text(end)}) = 0 or already moves away from 0")
    roots = [c for c in _proved_roots(g, var, propose(g, var, sympy.Interval.open(lower, upper)))
             if _proposal_inside(c, lower, upper)]
    if len(roots) == 1:
        return Cuts(tuple(roots), why + ", so its one root is the only one")
    if len(roots) > 1:
        raise Undecided(f"a monotone {text(g)} cannot have two roots: the candidates are wrong")
    return None


def _at(g: sympy.Expr, var: sympy.Symbol, x: sympy.Expr) -> sympy.Expr:
    """g at the number x, with no automatic rewrite that reads SymPy's guess of a sign
    (:func:`~symcheck.exact.signs.substitute`)."""
    return substitute(g, {var: x})


def _solveset_candidates(g: sympy.Expr, var: sympy.Symbol, interval: sympy.Set) -> list[sympy.Expr]:
    """Exact roots SymPy proposes, on the interval and on all of R (on a half-line it may
    answer EmptySet where R gives the root). Only proposals: each is proved before use."""
    if _formula_too_large(g, var):
        return []
    found: list[sympy.Expr] = []
    for domain in (interval, S.Reals):
        found += _solveset_on(g, var, domain)
    return list(dict.fromkeys(found))


def _formula_too_large(g: sympy.Expr, var: sympy.Symbol) -> bool:
    """A polynomial of degree ≥ 3 with transcendental coefficients and more than two terms:
    solveset spends many seconds on Cardano's or Ferrari's formula, larger than
    MAX_PROPOSAL_OPS, which is never proved a root anyway."""
    if not g.is_polynomial(var):
        return False
    try:
        poly = sympy.Poly(g, var)
    except sympy.PolynomialError:
        return False
    coeffs = poly.coeffs()
    return (poly.degree() >= 3 and len(coeffs) > 2 and not all(is_algebraic(c) for c in coeffs)
            and sum(sympy.count_ops(c) for c in coeffs) > MAX_COEFFICIENT_OPS)


@functools.lru_cache(maxsize=256)
def _solveset_on(g: sympy.Expr, var: sympy.Symbol, domain: sympy.Set) -> tuple[sympy.Expr, ...]:
    """Cached (a split asks the same condition on several regions): proposals only, so an
    equal expression with other CRootOf generators answering from the cache is harmless."""
    try:
        answer = sympy.solveset(g, var, domain)
    except Exception:  # candidates are optional; the proof does not depend on them
        return ()
    parts = answer.args if isinstance(answer, sympy.Union) else (answer,)
    return tuple(c for part in parts for c in _members(part) if c.is_number)


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
            if sympy.count_ops(c) > MAX_PROPOSAL_OPS or not _certainly_real(c):
                continue
            if exact_sign(_at(g, var, c)) == 0:
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
    step = Fraction(1, 10**30) * max(Fraction(1), abs(approx))
    candidate = approx + direction * step
    q = sympy.Rational(candidate.numerator, candidate.denominator)
    if certified_order(q, x) * direction >= 0:
        return candidate
    raise Undecided(f"cannot bracket {text(x)} by a rational")


def _isolated(g: sympy.Expr, var: sympy.Symbol, lower: sympy.Expr, upper: sympy.Expr, propose: Propose) -> Cuts:
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
            return exact_sign(_at(g, var, sympy.Rational(a.numerator, a.denominator)))
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
