"""Exact real numbers on the line: rationals, ±∞, and real algebraic numbers given by an
integer polynomial and an isolating interval; their order, decided exactly; and Sturm counts
of the real roots of a rational polynomial (FLINT's fmpq_poly, exact rationals throughout).

A finite point is ``(p, lo, hi)``: the unique root of the squarefree p in [lo, hi]. A
rational q is ``(x − q, q, q)``. Refining halves the interval with an exact root count.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any

from flint import arb, fmpq, fmpq_poly

from symcheck.kernel.tree import MAX_INT_BITS, show
from symcheck.kernel.verdict import Reject

#: bisections allowed when separating two points or a point from a polynomial's other roots
MAX_REFINE = 3000
MAX_DEGREE = 64
INF, NEG_INF = "inf", "-inf"


def q(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def frac(x: Any) -> Fraction:
    """An exact fmpq/fmpz/int as a Fraction."""
    if isinstance(x, fmpq):
        return Fraction(int(x.p), int(x.q))
    return Fraction(int(x))


def sign(x: Any) -> int:
    return (x > 0) - (x < 0)


# ------------------------------------------------------------------ Sturm counts


def _variations(chain: list[fmpq_poly], x: Fraction | str) -> int:
    signs = []
    for p in chain:
        if x == INF:
            s = sign(p.leading_coefficient())
        elif x == NEG_INF:
            s = sign(p.leading_coefficient()) * (-1) ** p.degree()
        elif isinstance(x, str):
            raise Reject(f"not a point: {show(x, 20)}")
        else:
            s = sign(p(q(x)))
        if s:
            signs.append(s)
    return sum(1 for a, b in pairwise(signs) if a != b)


def squarefree(p: fmpq_poly) -> fmpq_poly:
    g = p.gcd(p.derivative())
    return p if g.degree() < 1 else p // g


def count_open(p: fmpq_poly, a: Fraction | str, b: Fraction | str) -> int:
    """Distinct real roots of ``p`` ≠ 0 in the open interval (a, b), a < b (ends may be ±∞)."""
    p = squarefree(p)
    for end in (a, b):  # divide out a root at a finite end so Sturm's ends are not roots
        if isinstance(end, Fraction) and p.degree() >= 1 and p(q(end)) == 0:
            p = p // fmpq_poly([-q(end), 1])
    if p.degree() < 1:
        return 0
    chain = [p, p.derivative()]
    while chain[-1].degree() >= 1:
        rem = chain[-2] % chain[-1]
        if rem.is_zero():
            break
        chain.append(-rem)
    return _variations(chain, a) - _variations(chain, b)


def count_closed(p: fmpq_poly, a: Fraction, b: Fraction) -> int:
    if a == b:
        return int(p(q(a)) == 0)
    return count_open(p, a, b) + int(p(q(a)) == 0) + int(p(q(b)) == 0)


# ------------------------------------------------------------------ points


@dataclass
class Point:
    """A finite exact real: the one root of ``poly`` in [lo, hi] (mutable: refining narrows it)."""

    poly: fmpq_poly
    lo: Fraction
    hi: Fraction

    @property
    def rational(self) -> Fraction | None:
        return self.lo if self.lo == self.hi else None

    def refine(self) -> None:
        if self.lo == self.hi:
            return
        m = (self.lo + self.hi) / 2
        if self.poly(q(m)) == 0:
            self.lo = self.hi = m
        elif count_closed(self.poly, self.lo, m) == 1:
            self.hi = m
        else:
            self.lo = m

    def ball(self, prec_bits: int) -> arb:
        """An Arb ball containing the point (the interval narrowed to about 2^-prec)."""
        for _ in range(MAX_REFINE):
            if self.hi - self.lo <= Fraction(1, 2 ** prec_bits) * max(Fraction(1), abs(self.lo)):
                break
            self.refine()
        return arb(q(self.lo)).union(arb(q(self.hi)))


def rational_point(x: Fraction) -> Point:
    return Point(fmpq_poly([-q(x), 1]), x, x)


def parse_number(obj: Any) -> Fraction:
    if isinstance(obj, list) and len(obj) == 2 and obj[0] == "int" and type(obj[1]) is int \
            and obj[1].bit_length() <= MAX_INT_BITS:
        return Fraction(obj[1])
    if isinstance(obj, list) and len(obj) == 3 and obj[0] == "rat" and all(type(v) is int for v in obj[1:]) \
            and obj[2] > 1 and max(v.bit_length() for v in obj[1:]) <= MAX_INT_BITS:
        return Fraction(obj[1], obj[2])
    raise Reject(f"expected an exact rational ['int', n] or ['rat', p, q], got {show(obj, 60)}")


def parse_point(obj: Any, infinite: bool = True) -> Point | str:
    """``"-inf"``, ``"inf"``, a rational, or ``["root", [c0, c1, ...], [lo, hi]]`` (integer
    coefficients, lowest degree first; exactly one distinct root in [lo, hi], re-counted here)."""
    if obj in (INF, NEG_INF):
        if not infinite:
            raise Reject("a point region needs a finite point")
        return obj
    if isinstance(obj, list) and obj and obj[0] == "root":
        if len(obj) != 3 or not isinstance(obj[1], list) or not isinstance(obj[2], list) or len(obj[2]) != 2:
            raise Reject(f"a root is ['root', [coefficients], [lo, hi]]: {show(obj, 60)}")
        coeffs = obj[1]
        if not 2 <= len(coeffs) <= MAX_DEGREE + 1 or any(type(c) is not int or c.bit_length() > MAX_INT_BITS
                                                          for c in coeffs):
            raise Reject(f"a root's polynomial needs 2 to {MAX_DEGREE + 1} integer coefficients: {show(obj, 60)}")
        p = fmpq_poly(coeffs)
        if p.degree() < 1:
            raise Reject(f"a root's polynomial is constant: {show(obj, 60)}")
        lo, hi = parse_number(obj[2][0]), parse_number(obj[2][1])
        p = squarefree(p)
        if lo > hi:
            raise Reject(f"isolating interval [{lo}, {hi}] is empty")
        n = count_closed(p, lo, hi)
        if n != 1:
            raise Reject(f"isolating interval [{lo}, {hi}] holds {n} roots of {show(obj[1], 50)}, not 1")
        point = Point(p, lo, hi)
        if lo != hi and p(q(lo)) == 0:
            point.hi = lo
        elif lo != hi and p(q(hi)) == 0:
            point.lo = hi
        return point
    return rational_point(parse_number(obj))


def compare(a: Point | str, b: Point | str) -> int:
    """−1, 0 or 1: the exact order of two points (±∞ included)."""
    if isinstance(a, str) or isinstance(b, str):
        rank = {NEG_INF: -1, INF: 1}
        ra = rank[a] if isinstance(a, str) else 0
        rb = rank[b] if isinstance(b, str) else 0
        if ra != rb or ra == 0:
            return sign(ra - rb)
        return 0
    if a.rational is not None and b.rational is not None:
        return sign(a.rational - b.rational)
    for _ in range(MAX_REFINE):
        if a.hi < b.lo:
            return -1
        if b.hi < a.lo:
            return 1
        lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
        g = a.poly.gcd(b.poly)
        if g.degree() >= 1 and count_closed(g, lo, hi) >= 1:
            return 0  # a common root in both isolating intervals is each one's only root
        a.refine()
        b.refine()
    raise Reject("could not separate two points within the refinement limit")


def poly_sign_at(g: fmpq_poly, a: Point) -> int:
    """The exact sign of the polynomial ``g`` at the point."""
    if a.rational is not None:
        return sign(g(q(a.rational)))
    common = g.gcd(a.poly)
    if common.degree() >= 1 and count_closed(common, a.lo, a.hi) >= 1:
        return 0
    for _ in range(MAX_REFINE):
        if count_closed(g, a.lo, a.hi) == 0:
            return sign(g(q(a.lo)))
        a.refine()
    raise Reject("could not separate a point from the roots of a polynomial")


def between(lo: Point | str, hi: Point | str) -> Fraction:
    """A rational strictly inside the open interval (lo, hi), lo < hi already checked."""
    if lo == NEG_INF and hi == INF:
        return Fraction(0)
    if lo == NEG_INF and isinstance(hi, Point):
        return Fraction(int(hi.lo // 1) - 1)
    if hi == INF and isinstance(lo, Point):
        return Fraction(-int(-lo.hi // 1) + 1)
    if isinstance(lo, str) or isinstance(hi, str):  # ∞ below or −∞ above: not lo < hi
        raise Reject(f"no rational between {show(lo, 30)} and {show(hi, 30)}")
    for _ in range(MAX_REFINE):
        if lo.hi < hi.lo:
            return (lo.hi + hi.lo) / 2
        lo.refine()
        hi.refine()
    raise Reject("could not find a rational between two points")
