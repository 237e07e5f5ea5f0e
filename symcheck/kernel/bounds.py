"""The ``bounds`` sign argument: interval arithmetic on the extended line, for boxes with infinite ends.

An enclosure is a pair (lo, hi) of ends, each an Arb ball (its lower or upper point is the
bound) or ±inf: every value the expression takes on the box, where it is defined, lies in
[lo, hi]. A sub-expression whose variables all have bounded regions is enclosed by Arb
(:func:`~symcheck.kernel.evaluate.enclose`); above an infinite end the rules are textbook
monotonicity with the limits at ±∞ — exp(−∞) = 0, tanh(±∞) = ±1, atan(±∞) = ±π/2,
erf(±∞) = ±1, erfc(+∞) = 0, a negative power of an interval excluding 0 — and products by
the signs of their factors (0·∞ counts as 0: the interval [0, c]·[d, ∞) is [0, ∞) for d > 0,
and any other case gives the conservative end). Anything else has no enclosure here.

So σ(−1) + σ(1) for σ(z) = z·(1 + e^(−βz))^(−1) on β ∈ (1, ∞) is enclosed in
[1/(1 + e^(−1)) − 1/(1 + e), 1], > 0: a sign over an unbounded region, where Arb alone has none.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeGuard

from flint import arb

from symcheck.kernel.evaluate import PRECISIONS, Unknown, enclose, precision
from symcheck.kernel.points import INF, NEG_INF
from symcheck.kernel.tree import Node, free_vars

End = arb | float  #: a ball, or ±math.inf
Interval = tuple[End, End]

#: increasing functions and their limits at −∞ and +∞ (atan's, ±π/2, at the working precision)
_INCREASING: dict[str, Callable[[], Interval]] = {"exp": lambda: (arb(0), math.inf), "tanh": lambda: (arb(-1), arb(1)),
               "erf": lambda: (arb(-1), arb(1)), "atan": lambda: (-arb.pi() / 2, arb.pi() / 2),
               "sinh": lambda: (-math.inf, math.inf), "asinh": lambda: (-math.inf, math.inf)}


def _finite(x: End) -> TypeGuard[arb]:
    # a TypeGuard: where it holds, the end is a ball and has the ball's methods
    return isinstance(x, arb)


def _neg(x: End) -> End:
    return -x


def _times(x: End, y: End, low: bool) -> End:
    """A bound (lower when ``low``) of the product of two ends; ±inf times a ball by its sign."""
    if _finite(x) and _finite(y):
        return x * y
    if not _finite(x) and not _finite(y):
        return x * y  # ±inf·±inf
    inf, ball = (x, y) if not _finite(x) else (y, x)
    if ball == 0:
        return arb(0)
    if ball > 0:
        return inf
    if ball < 0:
        return -inf
    return -math.inf if low else math.inf


def _kind(iv: Interval) -> str:
    lo, hi = iv
    if _finite(lo) and lo >= 0:
        return "P"
    if _finite(hi) and hi <= 0:
        return "N"
    return "M"


def _lower(*ends: End) -> End:
    """The smallest of lower bounds (balls joined: the union's lower point is below each)."""
    if any(not _finite(e) and e < 0 for e in ends):
        return -math.inf
    finite = [e for e in ends if _finite(e)]
    if not finite:
        return math.inf
    acc = finite[0]
    for e in finite[1:]:
        acc = acc.union(e)
    return arb(acc.lower())


def _upper(*ends: End) -> End:
    return _neg(_lower(*(_neg(e) for e in ends)))


def _mul(a: Interval, b: Interval) -> Interval:
    """x·y is bilinear: its extremes over a box are among the products of the ends (limits at an
    infinite end; 0·∞ is 0 only for an end exactly 0, as in IEEE 1788's interval product)."""
    (a0, a1), (b0, b1) = a, b
    lows = [_times(x, y, True) for x in (a0, a1) for y in (b0, b1)]
    highs = [_times(x, y, False) for x in (a0, a1) for y in (b0, b1)]
    return _lower(*lows), _upper(*highs)


def _add(parts: list[Interval]) -> Interval:
    lo: End = arb(0)
    hi: End = arb(0)
    for p0, p1 in parts:
        lo = -math.inf if not _finite(lo) or not _finite(p0) else lo + p0
        hi = math.inf if not _finite(hi) or not _finite(p1) else hi + p1
    return lo, hi


def _ipow(iv: Interval, n: int) -> Interval:
    if n == 0:
        return arb(1), arb(1)
    if n < 0:
        lo, hi = iv
        if not ((_finite(lo) and lo > 0) or (_finite(hi) and hi < 0)):
            raise Unknown("a negative power of an interval that may hold 0")
        # x^|n| keeps one sign on the interval, where 1/y is decreasing: [1/i1, 1/i0], 1/±∞ = 0
        i0, i1 = _ipow(iv, -n)
        return (1 / i1 if _finite(i1) else arb(0)), (1 / i0 if _finite(i0) else arb(0))
    if n % 2 == 1:
        return _pow_end(iv[0], n), _pow_end(iv[1], n)
    a = _abs(iv)
    return _pow_end(a[0], n), _pow_end(a[1], n)


def _pow_end(x: End, n: int) -> End:
    if _finite(x):
        lo, hi = x.lower(), x.upper()
        return (lo ** n).union(hi ** n)
    return x if n % 2 == 1 or x > 0 else math.inf


def _abs(iv: Interval) -> Interval:
    kind = _kind(iv)
    if kind == "P":
        return iv
    if kind == "N":
        return _neg(iv[1]), _neg(iv[0])
    return arb(0), _upper(_neg(iv[0]), iv[1])


def _monotone(iv: Interval, head: str) -> Interval:
    at_neg, at_pos = _INCREASING[head]()
    f = getattr(arb, head)
    lo, hi = iv
    return (f(lo) if _finite(lo) else at_neg), (f(hi) if _finite(hi) else at_pos)


def _log(iv: Interval) -> Interval:
    lo, hi = iv
    if _finite(hi) and not hi > 0:
        raise Unknown("log of an interval with no positive point")
    low = lo.log() if _finite(lo) and lo > 0 else -math.inf
    return low, (hi.log() if _finite(hi) else math.inf)


def _root(iv: Interval, p: int, q: int) -> Interval:
    """x^(p/q), p > 0, defined for x ≥ 0: increasing."""
    lo, hi = iv
    if _finite(hi) and hi < 0:
        raise Unknown("a fractional power of an interval with no point ≥ 0")
    ends = []
    for x in (lo, hi):
        if not _finite(x):
            ends.append(arb(0) if x < 0 else math.inf)
        else:
            ends.append(x.union(arb(0)).nonnegative_part().root(q) ** p if not x >= 0 else x.root(q) ** p)
    return ends[0], ends[1]


def extended(node: Node, box: dict) -> Interval:
    """Ends enclosing the expression's values over the box (regions may be unbounded)."""
    unbounded = {v for v, r in box.items() if r[0] == "open" and (r[1] == NEG_INF or r[2] == INF)}
    if not free_vars(node) & unbounded:
        ball = enclose(node, {v: _ball(box[v]) for v in free_vars(node)}, None)
        return ball, ball
    head = node[0]
    if head == "var":
        _, lo, hi = box[node[1]]
        return (-math.inf if lo == NEG_INF else lo.ball(64)), (math.inf if hi == INF else hi.ball(64))
    if head == "add":
        return _add([extended(a, box) for a in node[1:]])
    if head == "mul":
        acc = extended(node[1], box)
        for a in node[2:]:
            acc = _mul(acc, extended(a, box))
        return acc
    if head == "pow":
        base, e = node[1], node[2]
        if e[0] == "int":
            return _ipow(extended(base, box), e[1])
        if e[0] == "rat" and e[1] > 0:
            return _root(extended(base, box), e[1], e[2])
        return extended(("exp", ("mul", e, ("log", base))), box)
    if head in _INCREASING:
        return _monotone(extended(node[1], box), head)
    if head == "erfc":
        lo, hi = extended(node[1], box)
        return (hi.erfc() if _finite(hi) else arb(0)), (lo.erfc() if _finite(lo) else arb(2))
    if head == "log":
        return _log(extended(node[1], box))
    if head == "abs":
        return _abs(extended(node[1], box))
    if head == "cosh":
        lo, hi = _abs(extended(node[1], box))
        assert _finite(lo)  # |x|'s lower end is a ball: 0, or a finite end of one sign
        return lo.cosh(), (hi.cosh() if _finite(hi) else math.inf)
    if head in ("sin", "cos"):
        return arb(-1), arb(1)
    if head == "piecewise":
        return _piecewise(node, box)
    raise Unknown(f"no bound of {head!r} over an unbounded region")


def _ball(region: tuple) -> arb:
    if region[0] == "point":
        return region[1].ball(64)
    return region[1].ball(64).union(region[2].ball(64))


def _piecewise(node: Node, box: dict) -> Interval:
    """The hull of every branch not certainly skipped, up to the first that certainly applies."""
    hull: list[Interval] = []
    for value, cond in node[1:]:
        truth = _truth(cond, box)
        if truth is False:
            continue
        hull.append(extended(value, box))
        if truth:
            return _lower(*(h[0] for h in hull)), _upper(*(h[1] for h in hull))
    raise Unknown("no branch of a piecewise certainly applies")


_SIGN_TESTS = {"gt": (lambda lo, hi: lo > 0, lambda lo, hi: hi <= 0),
               "ge": (lambda lo, hi: lo >= 0, lambda lo, hi: hi < 0),
               "lt": (lambda lo, hi: hi < 0, lambda lo, hi: lo >= 0),
               "le": (lambda lo, hi: hi <= 0, lambda lo, hi: lo > 0)}


def _truth(cond: Node, box: dict) -> bool | None:
    head = cond[0]
    if head in ("true", "false"):
        return head == "true"
    if head == "not":
        inner = _truth(cond[1], box)
        return None if inner is None else not inner
    if head in ("and", "or"):
        values = [_truth(c, box) for c in cond[1:]]
        if head == "and":
            return False if False in values else None if None in values else True
        return True if True in values else None if None in values else False
    if head in _SIGN_TESTS:
        try:
            lo, hi = extended(("add", cond[1], ("mul", ("int", -1), cond[2])), box)
        except Unknown:
            return None
        true, false = _SIGN_TESTS[head]
        if true(lo, hi):
            return True
        if false(lo, hi):
            return False
    return None


def bounds_sign(g: Node, box: dict) -> frozenset:
    """The signs g may take on the box by its extended enclosure (all three when undecided)."""
    for bits in PRECISIONS[:2]:
        with precision(bits):
            try:
                lo, hi = extended(g, box)
            except Unknown:
                continue
            if lo > 0:
                return frozenset({1})
            if hi < 0:
                return frozenset({-1})
            if lo >= 0:
                return frozenset({0, 1})
            if hi <= 0:
                return frozenset({-1, 0})
    return frozenset({-1, 0, 1})
