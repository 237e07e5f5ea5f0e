"""Certified ranges of expressions over intervals, bounded or not: structural interval arithmetic.

A :class:`Range` holds every value an expression takes while its symbols range over given
intervals (ends may be ±oo, each open or closed). :func:`range_on` builds one bottom-up with
exact ends (SymPy numbers that are only *built*, never judged by SymPy): sums; products (of
factors of known sign, or of bounded factors of any sign, the four end products compared
exactly); integer and rational powers; the known ranges of bounded functions (sin, cos in
[−1, 1], and tighter where the argument stays within a monotone stretch; tanh, erf in
(−1, 1); atan in (−π/2, π/2)); monotone functions (exp, log, sinh, asinh, erfc, cosh on a
half-line) mapping the ends of their argument's range, and those defined on part of R
(asin, acos, atanh, acosh, LambertW) once the argument's range is certified inside their
domain; floor and ceiling (non-decreasing, closed ends), frac in [0, 1), Mod(u, c) in [0, c);
Abs, Max and Min. Every comparison of
two ends is a certified sign (:func:`~symcheck.exact.signs.exact_sign`), so no SymPy
assumption or ``evalf`` decides anything here. A node without a rule gives no range (None):
never a guess.

This is the first of the arguments of :mod:`symcheck.exact.definite`, which adds a visible
square, the dominant term at ±oo and Arb bisection on bounded pieces.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import sympy
from sympy import S

from symcheck.exact.signs import Undecided, exact_sign

__all__ = ["Range", "open_range", "range_on", "sign_on"]


class _NoRange(Exception):
    """Internal: the range analysis has no rule for this node (the argument is not used)."""


@dataclass(frozen=True)
class Range:
    """Every value an expression takes on a region lies between ``lo`` and ``hi``.

    The ends are exact numbers (``-oo``/``oo`` allowed at the open side), each open or closed.
    An end marked closed where the true one is open is still sound (a wider set); an end is
    marked open only with a proof that it is not attained.
    """

    lo: sympy.Expr
    hi: sympy.Expr
    lo_closed: bool = False
    hi_closed: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "lo", sympy.sympify(self.lo))
        object.__setattr__(self, "hi", sympy.sympify(self.hi))

    @staticmethod
    def point(c: sympy.Expr) -> Range:
        return Range(c, c, True, True)

    @property
    def bounded(self) -> bool:
        return self.lo is not _NOO and self.hi is not _OO

    @property
    def is_point(self) -> bool:
        return self.lo == self.hi and self.lo_closed and self.hi_closed


_OO, _NOO = S.Infinity, S.NegativeInfinity


def open_range(lower: sympy.Expr, upper: sympy.Expr) -> Range:
    """The open interval (lower, upper) as a Range."""
    return Range(lower, upper, False, False)


def _build(func: Callable[..., sympy.Expr], *args: sympy.Expr) -> sympy.Expr:
    """``func(*args)``, SymPy's automatic evaluation only when every argument is rational
    (exact rational arithmetic); otherwise kept as written, so that no rewrite that reads the
    sign of a number (``log`` of a negative, a root of a negative base) can change it."""
    if all(a.is_Rational for a in args):
        return func(*args)
    return func(*args, evaluate=False)


def _certified(x: sympy.Expr, test: Callable[[int], bool]) -> bool:
    """``test(sign of x)`` with a certified sign; False when the sign cannot be certified."""
    if x is _OO or x is _NOO:
        return test(1 if x is _OO else -1)
    try:
        return test(exact_sign(x))
    except Undecided:
        return False


def _positive(x: sympy.Expr) -> bool:
    return _certified(x, lambda s: s > 0)


def _nonneg(x: sympy.Expr) -> bool:
    return _certified(x, lambda s: s >= 0)


def _zero(x: sympy.Expr) -> bool:
    return _certified(x, lambda s: s == 0)


def _order(x: sympy.Expr, y: sympy.Expr) -> int:
    """The certified sign of x − y for finite ends; _NoRange when it cannot be certified."""
    if x == y:
        return 0
    if x.is_Rational and y.is_Rational:
        return 1 if x > y else -1
    try:
        return exact_sign(_build(sympy.Add, x, _neg_end(y)))
    except Undecided as reason:
        raise _NoRange(str(reason)) from reason


def _largest(xs: Iterable[sympy.Expr]) -> sympy.Expr:
    """The largest of finite ends, each comparison certified."""
    best: sympy.Expr | None = None
    for x in xs:
        if best is None or _order(x, best) > 0:
            best = x
    assert best is not None
    return best


def _smallest(xs: Iterable[sympy.Expr]) -> sympy.Expr:
    return _neg_end(_largest(_neg_end(x) for x in xs))


def _neg_end(x: sympy.Expr) -> sympy.Expr:
    return _NOO if x is _OO else _OO if x is _NOO else _build(sympy.Mul, S.NegativeOne, x)


def _negated(r: Range) -> Range:
    return Range(_neg_end(r.hi), _neg_end(r.lo), r.hi_closed, r.lo_closed)


def _strict_sign(r: Range) -> int | None:
    """1 when every value is > 0, −1 when every value is < 0 (certified), else None."""
    if r.lo is not _NOO and (_positive(r.lo) or (not r.lo_closed and _zero(r.lo))):
        return 1
    if r.hi is not _OO and (_positive(_neg_end(r.hi)) or (not r.hi_closed and _zero(r.hi))):
        return -1
    return None


def _as_nonnegative(r: Range) -> tuple[Range, bool]:
    """``r`` or −r, whichever is certified ≥ 0, and whether it was negated."""
    if r.lo is not _NOO and _nonneg(r.lo):
        return r, False
    if r.hi is not _OO and _nonneg(_neg_end(r.hi)):
        return _negated(r), True
    raise _NoRange("a factor whose sign is not known on the region")


def _add(a: Range, b: Range) -> Range:
    lo = _NOO if _NOO in (a.lo, b.lo) else _build(sympy.Add, a.lo, b.lo)
    hi = _OO if _OO in (a.hi, b.hi) else _build(sympy.Add, a.hi, b.hi)
    return Range(lo, hi, a.lo_closed and b.lo_closed, a.hi_closed and b.hi_closed)


def _mul(a: Range, b: Range) -> Range:
    """Products of factors of known weak sign (reduced to two ranges ≥ 0), else of bounded
    factors of any sign (the four products of the ends, compared exactly)."""
    try:
        (a, flip_a), (b, flip_b) = _as_nonnegative(a), _as_nonnegative(b)
    except _NoRange:
        return _mul_bounded(a, b)
    lo = _build(sympy.Mul, a.lo, b.lo)
    # inf a·b = a.lo·b.lo; it is not attained when one inf is not, unless the other factor
    # reaches a value that may be 0 (then 0 is attained)
    lo_open = ((not a.lo_closed or not b.lo_closed)
               and (not a.lo_closed or _positive(a.lo)) and (not b.lo_closed or _positive(b.lo)))
    if _OO in (a.hi, b.hi):
        if (a.hi is _OO and b.is_point and _zero(b.lo)) or (b.hi is _OO and a.is_point and _zero(a.lo)):
            return Range.point(S.Zero)
        hi, hi_open = _OO, True
    else:
        hi = _build(sympy.Mul, a.hi, b.hi)
        hi_open = (not a.hi_closed or not b.hi_closed) and _positive(a.hi) and _positive(b.hi)
    product = Range(lo, hi, not lo_open, not hi_open)
    return _negated(product) if flip_a != flip_b else product


def _mul_bounded(a: Range, b: Range) -> Range:
    """a·b for bounded ranges of any sign: between the least and the greatest of the four
    products of ends (closed: sound, perhaps wider). An unbounded factor times one that takes
    both signs ranges over all of R."""
    if not (a.bounded and b.bounded):
        return Range(_NOO, _OO)
    products = [_build(sympy.Mul, x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return Range(_smallest(products), _largest(products), True, True)


def _reciprocal(r: Range) -> Range:
    """1/x over a range of one strict sign."""
    sign = _strict_sign(r)
    if sign is None:
        raise _NoRange("a division by a range that may contain 0")
    if sign < 0:
        return _negated(_reciprocal(_negated(r)))
    lo = S.Zero if r.hi is _OO else _build(sympy.Pow, r.hi, S.NegativeOne)
    lo_closed = r.hi is not _OO and r.hi_closed
    if not r.lo_closed and _zero(r.lo):
        hi, hi_closed = _OO, False
    else:
        hi, hi_closed = _build(sympy.Pow, r.lo, S.NegativeOne), r.lo_closed
    return Range(lo, hi, lo_closed, hi_closed)


def _increasing(r: Range, f: Callable[..., sympy.Expr], at_minus_oo: sympy.Expr, at_oo: sympy.Expr) -> Range:
    """f over the range, for f continuous and strictly increasing on it (limits at ±oo given)."""
    lo = at_minus_oo if r.lo is _NOO else _OO if r.lo is _OO else _build(f, r.lo)
    hi = at_oo if r.hi is _OO else _NOO if r.hi is _NOO else _build(f, r.hi)
    return Range(lo, hi, r.lo_closed and r.lo is not _NOO, r.hi_closed and r.hi is not _OO)


def _decreasing(r: Range, f: Callable[..., sympy.Expr]) -> Range:
    """f over a bounded range where f is continuous and strictly decreasing."""
    return Range(_build(f, r.hi), _build(f, r.lo), r.hi_closed, r.lo_closed)


def _magnitude(r: Range) -> Range:
    """|x| over the range."""
    try:
        found, _ = _as_nonnegative(r)
        return found
    except _NoRange:
        pass
    if not r.bounded:
        return Range(S.Zero, _OO, True, False)
    order = _order(_neg_end(r.lo), r.hi)
    if order > 0:
        return Range(S.Zero, _neg_end(r.lo), True, r.lo_closed)
    return Range(S.Zero, r.hi, True, r.hi_closed or (order == 0 and r.lo_closed))


def _power(base: Range, e: sympy.Rational) -> Range:
    if e.is_Integer:
        n = int(e)
        if n == 0:
            return Range.point(S.One)
        if n < 0:
            return _reciprocal(_power(base, sympy.Integer(-n)))
        def power(x: sympy.Expr, evaluate: bool = True) -> sympy.Expr:
            return sympy.Pow(x, n, evaluate=evaluate)

        if n % 2:  # odd: increasing on R
            return _increasing(base, power, _NOO, _OO)
        # even: x**n = |x|**n, and |x| ranges over a set of numbers ≥ 0
        return _increasing(_magnitude(base), power, S.Zero, _OO)
    # a rational power (principal root) is real only for a base ≥ 0
    if base.lo is _NOO or not _nonneg(base.lo):
        raise _NoRange("a root of a base that may be negative")
    if e > 0:
        return _increasing(base, lambda x, evaluate=True: sympy.Pow(x, e, evaluate=evaluate), S.Zero, _OO)
    return _reciprocal(_power(base, -e))


def _within(r: Range, lower: sympy.Expr, upper: sympy.Expr) -> bool:
    """Is the bounded range certified inside [lower, upper]?"""
    try:
        return r.bounded and _order(r.lo, lower) >= 0 and _order(upper, r.hi) >= 0
    except _NoRange:
        return False


_HALF_PI = sympy.pi / 2


def _sine(r: Range) -> Range:
    """sin over the range: increasing within [−π/2, π/2], else within [−1, 1]."""
    if _within(r, -_HALF_PI, _HALF_PI):
        return _increasing(r, sympy.sin, S.NegativeOne, S.One)
    return Range(S.NegativeOne, S.One, True, True)


def _cosine(r: Range) -> Range:
    """cos over the range: monotone within [−π, 0] and [0, π], at most 1 across 0, else
    within [−1, 1]."""
    if _within(r, S.Zero, sympy.pi):
        return _decreasing(r, sympy.cos)
    if _within(r, -sympy.pi, S.Zero):
        return _increasing(r, sympy.cos, S.NegativeOne, S.One)
    if _within(r, -sympy.pi, sympy.pi):
        try:  # cos decreases away from 0 on both sides: its least value is at an end
            return Range(_smallest([_build(sympy.cos, r.lo), _build(sympy.cos, r.hi)]), S.One, True, True)
        except _NoRange:
            pass
    return Range(S.NegativeOne, S.One, True, True)


def _extreme(parts: list[Range], largest: bool) -> Range:
    """Max (``largest``) or Min of arguments over their ranges: between the extreme lower
    ends and the extreme upper ends (closed: sound, perhaps wider)."""
    if not largest:
        return _negated(_extreme([_negated(p) for p in parts], True))
    finite_lo = [p.lo for p in parts if p.lo is not _NOO]
    lo = _largest(finite_lo) if finite_lo else _NOO
    hi = _OO if any(p.hi is _OO for p in parts) else _largest([p.hi for p in parts])
    return Range(lo, hi, lo is not _NOO, hi is not _OO)


#: strictly increasing functions on R, with their limits at −oo and +oo
_INCREASING = {sympy.exp: (S.Zero, _OO), sympy.tanh: (S.NegativeOne, S.One),
               sympy.atan: (-sympy.pi / 2, sympy.pi / 2), sympy.erf: (S.NegativeOne, S.One),
               sympy.sinh: (_NOO, _OO), sympy.asinh: (_NOO, _OO)}


#: strictly increasing functions on part of R: (lower end, upper end, ends included); the
#: argument's range must lie inside (certified), and the limits at an open end are exact
#: (atanh(±1) = ±oo)
_PARTIAL_INCREASING = {sympy.asin: (S.NegativeOne, S.One, True), sympy.atanh: (S.NegativeOne, S.One, False),
                       sympy.acosh: (S.One, _OO, True), sympy.LambertW: (-sympy.exp(-1), _OO, True)}


def _check_inside(r: Range, low: sympy.Expr, high: sympy.Expr, closed: bool) -> None:
    """The range lies in the domain from low to high (ends included when ``closed``)."""
    for end, inner, inner_closed, side in ((low, r.lo, r.lo_closed, 1), (high, r.hi, r.hi_closed, -1)):
        if end is _OO or end is _NOO:
            continue
        if inner is _OO or inner is _NOO:
            raise _NoRange("a range reaching outside the function's domain")
        order = side * _order(inner, end)
        if order < 0 or (order == 0 and inner_closed and not closed):
            raise _NoRange("a range reaching outside the function's domain")


def range_on(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range]) -> Range | None:
    """A certified :class:`Range` of ``expr`` when its symbols range over ``ranges``; None when
    the rules below do not apply. Interval arithmetic on exact ends: sums, products (of factors
    of certified sign, or bounded), powers, Abs, Max, Min, and monotone or bounded functions
    (exp, log, tanh, atan, erf, erfc, sinh, asinh, cosh; sin and cos within [−1, 1], tighter
    on a monotone stretch). Every end is compared with 0 by :func:`exact_sign`; no sign comes
    from SymPy's assumptions or ``evalf``.

    >>> z = sympy.Symbol("z")
    >>> range_on(sympy.exp(z) - 1, {z: Range(S.Zero, S.Infinity)})
    Range(lo=0, hi=oo, lo_closed=False, hi_closed=False)
    >>> range_on(2 + sympy.sin(z) * sympy.cos(z), {z: Range(-S.Infinity, S.Infinity)})
    Range(lo=1, hi=3, lo_closed=True, hi_closed=True)
    """
    memo: dict[sympy.Basic, Range] = {}

    def walk(node: sympy.Expr) -> Range:
        if node not in memo:
            memo[node] = rule(node)
        return memo[node]

    def rule(node: sympy.Expr) -> Range:
        if not node.free_symbols:
            if node.has(sympy.I, sympy.zoo, sympy.nan, _OO, _NOO):
                raise _NoRange("not a real number")
            return Range.point(node)
        if node.is_Symbol:
            if node not in ranges:
                raise _NoRange(f"no range for {node}")
            return ranges[node]
        if node.is_Add or node.is_Mul:
            constant = [a for a in node.args if not a.free_symbols]
            parts = [walk(a) for a in node.args if a.free_symbols]
            if constant:
                parts.insert(0, Range.point(_build(node.func, *constant) if len(constant) > 1 else constant[0]))
            combine = _add if node.is_Add else _mul
            result = parts[0]
            for part in parts[1:]:
                result = combine(result, part)
            return result
        if node.is_Pow:
            base, e = node.args
            if e.is_Rational:
                return _power(walk(base), e)
            if not base.free_symbols and _positive(base):  # c**y = exp(y·log c)
                return walk(sympy.exp(_build(sympy.Mul, e, sympy.log(base)), evaluate=False))
            raise _NoRange("a power with a variable exponent")
        if isinstance(node, sympy.Abs):
            return _magnitude(walk(node.args[0]))
        if isinstance(node, (sympy.Max, sympy.Min)):
            return _extreme([walk(a) for a in node.args], isinstance(node, sympy.Max))
        if isinstance(node, sympy.Mod) and not node.args[1].free_symbols and _positive(node.args[1]):
            return Range(S.Zero, node.args[1], True, False)  # u − c·floor(u/c) ∈ [0, c)
        if isinstance(node, sympy.Function) and len(node.args) == 1:
            return unary(node.func, walk(node.args[0]))
        raise _NoRange(f"no range rule for {type(node).__name__}")

    def unary(func: Callable[..., sympy.Expr], r: Range) -> Range:
        if func in _INCREASING:
            return _increasing(r, func, *_INCREASING[func])
        if func is sympy.log:
            if r.lo is _NOO or not _nonneg(r.lo) or (r.lo_closed and not _positive(r.lo)):
                raise _NoRange("log of a range that may reach 0 or below")
            lo = _NOO if not r.lo_closed and _zero(r.lo) else None
            found = _increasing(r, sympy.log, _NOO, _OO)
            return found if lo is None else Range(_NOO, found.hi, False, found.hi_closed)
        if func is sympy.erfc:  # erfc = 1 − erf, decreasing
            return _add(Range.point(S.One), _negated(_increasing(r, sympy.erf, S.NegativeOne, S.One)))
        if func is sympy.cosh:  # even, increasing on [0, oo)
            return _increasing(_magnitude(r), sympy.cosh, S.One, _OO)
        if func is sympy.sin:
            return _sine(r)
        if func is sympy.cos:
            return _cosine(r)
        if func in _PARTIAL_INCREASING:
            low, high, closed = _PARTIAL_INCREASING[func]
            _check_inside(r, low, high, closed)
            return _increasing(r, func, _NOO, _OO)
        if func is sympy.acos:  # decreasing on [−1, 1]
            _check_inside(r, S.NegativeOne, S.One, True)
            return _decreasing(r, sympy.acos)
        if func in (sympy.floor, sympy.ceiling):  # non-decreasing, not strictly: closed ends
            found = _increasing(r, func, _NOO, _OO)
            return Range(found.lo, found.hi, found.lo is not _NOO, found.hi is not _OO)
        if func is sympy.frac:
            return Range(S.Zero, S.One, True, False)
        raise _NoRange(f"no range rule for {func}")

    try:
        return walk(sympy.sympify(expr))
    except (_NoRange, Undecided):
        return None


def sign_on(expr: sympy.Expr, ranges: dict[sympy.Symbol, Range]) -> int | None:
    """The sign of ``expr`` at every point of the region, certified through :func:`range_on`:
    ±1 when the range lies strictly on one side of 0, 0 when it is the point 0; else None."""
    found = range_on(expr, ranges)
    if found is None:
        return None
    if found.lo is not _NOO and found.hi is not _OO and _zero(found.lo) and _zero(found.hi):
        return 0
    return _strict_sign(found)


def strict_sign(r: Range) -> int | None:
    """1 when every value in the range is > 0, −1 when every value is < 0 (certified)."""
    return _strict_sign(r)


def weak_sign(r: Range) -> int | None:
    """1 when every value in the range is ≥ 0, −1 when every value is ≤ 0 (certified)."""
    if r.lo is not _NOO and _nonneg(r.lo):
        return 1
    if r.hi is not _OO and _nonneg(_neg_end(r.hi)):
        return -1
    return None
