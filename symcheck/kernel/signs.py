"""Certified signs of an expression over a box (one region per variable).

A claim is one of pos, neg, zero, nonneg, nonpos, nonzero, meant at every point of the box.
The arguments, each re-done from scratch here:

* ``point`` — every variable of g sits at a point: exact rationals, or Arb at the point
  (algebraic points as refined isolating intervals; a polynomial's sign there exactly);
* ``structure`` — the possible signs propagated through the tree (exp > 0, an even power
  ≥ 0, sums and products of known signs, a variable's sign from its region);
* ``roots`` — g is a polynomial with rational coefficients in one variable: Sturm's count of
  its real roots strictly inside the open region is 0, so its sign is the sign at one
  rational point inside;
* ``enclosure`` — a bounded box: Arb enclosures of g over sub-boxes (bisected as needed);
* ``monotone`` — one variable on a bounded open interval (α, β): an enclosure of g′ excludes
  0 on [α, β], and the sign of g at the end it moves away from is checked at that point;
* ``bounds`` — a box with an infinite end: interval arithmetic on the extended line (the limits
  of exp, tanh, atan, erf at ±∞; :mod:`symcheck.kernel.bounds`);
* ``factors`` — g is a product: each factor's sign by one of the arguments above, multiplied
  (a polynomial in one variable times a constant too small for a low-precision enclosure).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb, fmpq_poly

from symcheck.kernel.bounds import bounds_sign
from symcheck.kernel.derivative import derivative
from symcheck.kernel.evaluate import POINT_PRECISIONS, PRECISIONS, Unknown, ball_sign, enclose, exact, number, precision
from symcheck.kernel.points import (
    INF,
    NEG_INF,
    Point,
    between,
    compare,
    count_closed,
    count_open,
    poly_sign_at,
    q,
    rational_point,
    sign,
)
from symcheck.kernel.tree import Node, free_vars, show
from symcheck.kernel.verdict import Reject

CLAIMS = {"pos": {1}, "neg": {-1}, "zero": {0}, "nonneg": {0, 1}, "nonpos": {-1, 0}, "nonzero": {-1, 1}}
ARGUMENTS = ("point", "structure", "roots", "enclosure", "monotone", "bounds", "factors")  # factors last
MAX_BOXES = 2048
MAX_POLY_DEGREE = 256
ZERO_POINT = rational_point(Fraction(0))

Region = tuple  # ("open", lo, hi) | ("point", Point)


def prove_sign(g: Node, claim: object, box: dict[str, Region], by: str | None = None) -> str:
    """The name of the argument that proved ``claim`` (one of CLAIMS, or the certificate's
    unchecked JSON) for g on the box; Reject otherwise."""
    if not isinstance(claim, str) or claim not in CLAIMS:  # a list or dict is not hashable
        raise Reject(f"unknown sign claim {show(claim, 30)}; known: {sorted(CLAIMS)}")
    if by is not None and by not in ARGUMENTS:
        raise Reject(f"unknown sign argument {show(by, 30)}; known: {list(ARGUMENTS)}")
    missing = free_vars(g) - box.keys()
    if missing:
        raise Reject(f"{show(g, 60)} has variables outside the claim: {sorted(missing)}")
    box = {v: box[v] for v in free_vars(g)}
    why = []
    for name in ([by] if by else ARGUMENTS):
        try:
            if _ARGUMENTS[name](g, CLAIMS[claim], box):
                return name
            why.append(f"{name}: does not give {claim}")
        except Unknown as err:
            why.append(f"{name}: {err}")
    raise Reject(f"sign {claim} of {show(g, 80)} not proved on the piece ({'; '.join(why)})")


# ------------------------------------------------------------------ point


def _point(g: Node, allowed: set, box: dict) -> bool:
    if any(r[0] != "point" for r in box.values()):
        raise Unknown("not every variable is at a point")
    points = {v: r[1] for v, r in box.items()}
    rationals = {v: p.rational for v, p in points.items() if p.rational is not None}
    if len(rationals) == len(points):
        value = exact(g, rationals)
        if value is not None:
            return sign(value) in allowed
    if len(points) == 1:
        (v, p), = points.items()
        poly = as_poly(g, v)
        if poly is not None:
            return poly_sign_at(poly, p) in allowed
    for bits in POINT_PRECISIONS:
        with precision(bits):
            try:
                s = ball_sign(enclose(g, {v: p.ball(bits) for v, p in points.items()},
                                      rationals if len(rationals) == len(points) else None))
            except Unknown:
                continue
        if s is not None:
            return s in allowed
    raise Unknown("the enclosure at the point does not decide the sign")


# ------------------------------------------------------------------ structure


def _region_signs(r: Region) -> set:
    if r[0] == "point":
        return {compare(r[1], ZERO_POINT)}
    if r[1] != NEG_INF and compare(r[1], ZERO_POINT) >= 0:
        return {1}
    if r[2] != INF and compare(r[2], ZERO_POINT) <= 0:
        return {-1}
    return {-1, 0, 1}


ALL = frozenset({-1, 0, 1})


def signs_of(node: Node, box: dict) -> frozenset:
    """A set containing the sign of the expression at every point of the box where it is defined."""
    head = node[0]
    if head == "int":
        return frozenset({sign(node[1])})
    if head == "rat":
        return frozenset({sign(node[1])})
    if head == "const":
        return frozenset({1})
    if head == "var":
        return frozenset(_region_signs(box[node[1]]))
    if head == "add":
        parts = [signs_of(a, box) for a in node[1:]]
        for s in (1, -1):
            if all(p <= {0, s} for p in parts):
                if all(p <= {0} for p in parts):
                    return frozenset({0})
                return frozenset({s}) if any(p == {s} for p in parts) else frozenset({0, s})
        return ALL
    if head == "mul":
        acc = frozenset({1})
        for a in node[1:]:
            acc = frozenset(x * y for x in acc for y in signs_of(a, box))
        return acc
    if head == "pow":
        base = signs_of(node[1], box)
        e = node[2]
        if e[0] == "int":
            n = e[1]
            if n == 0:
                return frozenset({1})
            if n < 0:
                base = base - {0}  # undefined at 0
            return frozenset(s ** abs(n) for s in base)
        return frozenset({1} if base <= {1} else {0, 1})  # defined only for a base ≥ 0
    if head in ("exp", "cosh", "erfc"):
        return frozenset({1})
    if head in ("sinh", "tanh", "asinh", "atan", "erf"):
        return signs_of(node[1], box)
    if head == "log":  # increasing with log 1 = 0: the sign of x − 1 (x > 0 where it is defined)
        x = node[1]
        terms = list(x[1:]) if x[0] == "add" else [x]
        const = [t for t in terms if t[0] in ("int", "rat")]
        if len(const) == 1:  # x − 1 as the other terms plus (c − 1), c the one number in the sum
            c = number(const[0]) - 1
            shifted = [t for t in terms if t is not const[0]] + [("rat", c.numerator, c.denominator)
                                                                    if c.denominator != 1 else ("int", c.numerator)]
            return signs_of(("add", *shifted) if len(shifted) > 1 else shifted[0], box)
        return ALL
    if head == "abs":
        inner = signs_of(node[1], box)
        return frozenset({abs(s) for s in inner})
    if head == "piecewise":
        return frozenset().union(*(signs_of(v, box) for v, _ in node[1:]))
    return ALL


def _structure(g: Node, allowed: set, box: dict) -> bool:
    return signs_of(g, box) <= allowed


# ------------------------------------------------------------------ roots


def as_poly(node: Node, v: str) -> fmpq_poly | None:
    """The polynomial in ``v`` with rational coefficients the tree is, or None."""
    head = node[0]
    if head in ("int", "rat"):
        return fmpq_poly([q(number(node))])
    if head == "var":
        return fmpq_poly([0, 1]) if node[1] == v else None
    if head in ("add", "mul"):
        parts = [p for p in (as_poly(a, v) for a in node[1:]) if p is not None]
        if len(parts) != len(node) - 1:
            return None
        acc = parts[0]
        for p in parts[1:]:
            acc = acc + p if head == "add" else acc * p
        return acc if acc.degree() <= MAX_POLY_DEGREE else None
    if head == "pow" and node[2][0] == "int" and node[2][1] < 0:
        value = exact(node, {})  # a rational constant such as 2^(−1); None with a variable
        return None if value is None else fmpq_poly([q(value)])
    if head == "pow" and node[2][0] == "int" and 0 <= node[2][1] <= MAX_POLY_DEGREE:
        base = as_poly(node[1], v)
        if base is None or base.degree() * node[2][1] > MAX_POLY_DEGREE:
            return None
        return base ** node[2][1]
    return None


def _separate(g: fmpq_poly, p: Point) -> None:
    """Refine p until g has no root in its interval other than p itself."""
    for _ in range(3000):
        if p.rational is not None:
            return
        own = int(poly_sign_at(g, p) == 0)
        if count_closed(g, p.lo, p.hi) == own:
            return
        p.refine()
    raise Unknown("could not separate an end from the polynomial's roots")


def _roots(g: Node, allowed: set, box: dict) -> bool:
    if len(box) != 1:
        raise Unknown("needs exactly one variable")
    (v, r), = box.items()
    poly = as_poly(g, v)
    if poly is None:
        raise Unknown("not a polynomial with rational coefficients")
    if r[0] != "open":
        raise Unknown("needs an open region")
    if poly.is_zero():
        return 0 in allowed
    lo, hi = r[1], r[2]
    for end in (lo, hi):
        if isinstance(end, Point):
            _separate(poly, end)
    a = lo if lo == NEG_INF else lo.hi
    b = hi if hi == INF else hi.lo
    if a != NEG_INF and b != INF and not a < b:
        between(lo, hi)  # refines both ends apart
        a, b = lo.hi, hi.lo
    # after _separate, an end's isolating interval holds no root of g but the end itself
    if count_open(poly, a, b):
        raise Unknown("the polynomial has a root inside the region")
    return sign(poly(q(between(lo, hi)))) in allowed


# ------------------------------------------------------------------ enclosure and monotone


def _interval(r: Region) -> tuple[Fraction, Fraction]:
    if r[0] == "point":
        r[1].ball(64)
        return r[1].lo, r[1].hi
    if r[1] == NEG_INF or r[2] == INF:
        raise Unknown("an unbounded region has no enclosure")
    r[1].ball(64), r[2].ball(64)  # narrow algebraic ends first
    return r[1].lo, r[2].hi


def _accepts(b: arb, allowed: set) -> bool:
    s = ball_sign(b)
    if s is not None and s in allowed:
        return True
    return (allowed == {0, 1} and b >= 0) or (allowed == {-1, 0} and b <= 0)


def enclosure_holds(g: Node, allowed: set, box: dict) -> bool:
    """Every sub-box of a bisection of the box has an enclosure with an allowed sign."""
    todo = [{v: _interval(r) for v, r in box.items()}]
    visited = 0
    while todo:
        cell = todo.pop()
        visited += 1
        if visited > MAX_BOXES:
            raise Unknown(f"more than {MAX_BOXES} sub-boxes")
        ok = False
        for bits in PRECISIONS[:2]:
            with precision(bits):
                try:
                    balls = {v: arb(q(a)).union(arb(q(b))) for v, (a, b) in cell.items()}
                    ok = _accepts(enclose(g, balls, None), allowed)
                except Unknown:
                    ok = False
            if ok:
                break
        if ok:
            continue
        no_cell: tuple[None, tuple[Fraction, Fraction]] = (None, (Fraction(0), Fraction(0)))
        v, (a, b) = max(cell.items(), key=lambda kv: kv[1][1] - kv[1][0]) if cell else no_cell
        if v is None or a == b:
            raise Unknown("an enclosure over the box does not give the sign")
        m = (a + b) / 2
        todo += [{**cell, v: (a, m)}, {**cell, v: (m, b)}]
    return True


def _enclosure(g: Node, allowed: set, box: dict) -> bool:
    return enclosure_holds(g, allowed, box)


def _monotone(g: Node, allowed: set, box: dict) -> bool:
    if len(box) != 1:
        raise Unknown("needs exactly one variable")
    (v, r), = box.items()
    if r[0] != "open" or r[1] == NEG_INF or r[2] == INF:
        raise Unknown("needs a bounded open region")
    d = derivative(g, v)
    for slope in (1, -1):
        try:
            if enclosure_holds(d, {slope}, box):
                break
        except Unknown:
            continue
    else:
        raise Unknown("the derivative's enclosure does not exclude 0")
    # increasing: g > g(α) on (α, β]; decreasing: g > g(β) on [α, β)
    start, finish = (r[1], r[2]) if slope == 1 else (r[2], r[1])
    for target, end in ((1, start), (-1, finish)):
        if target in allowed and allowed >= {target}:
            weak = {0, target}
            try:
                if _point(g, weak, {v: ("point", end)}):
                    return True
            except Unknown:
                pass
    return False


def _bounds(g: Node, allowed: set, box: dict) -> bool:
    if not any(r[0] == "open" and (r[1] == NEG_INF or r[2] == INF) for r in box.values()):
        raise Unknown("every region is bounded (the enclosure argument bisects those)")
    return bounds_sign(g, box) <= allowed


def factor_signs(f: Node, box: dict) -> frozenset:
    """The fewest signs of a factor the other arguments prove (all three when none does)."""
    sub = {v: box[v] for v in free_vars(f)}
    tries = [(c, a) for c in ("pos", "neg") for a in ARGUMENTS[:-1]] + \
        [(c, a) for c in ("zero", "nonneg", "nonpos", "nonzero") for a in ("structure", "roots", "point")]
    for claim, name in tries:
        try:
            if _ARGUMENTS[name](f, CLAIMS[claim], sub):
                return frozenset(CLAIMS[claim])
        except Unknown:
            continue
    return ALL


def _factors(g: Node, allowed: set, box: dict) -> bool:
    if g[0] != "mul":
        raise Unknown("not a product")
    acc = frozenset({1})
    for f in g[1:]:
        acc = frozenset(x * y for x in acc for y in factor_signs(f, box))
    return acc <= allowed


_ARGUMENTS = {"point": _point, "structure": _structure, "roots": _roots, "enclosure": _enclosure,
              "monotone": _monotone, "bounds": _bounds, "factors": _factors}
