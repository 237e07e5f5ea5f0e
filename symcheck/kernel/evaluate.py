"""Values of trees: exact rationals where the tree is rational, Arb balls otherwise.

``enclose(node, balls, prec)`` returns a ball containing every value the expression takes
when each variable ranges over its ball. A piecewise chooses its branch by certified
comparisons (Arb, or exact rationals at rational points); a condition that is undecided over
the box keeps its branch in the hull and tries the next. Anything undefined or unbounded on
the box (log of a ball touching 0, a pole) raises :class:`Unknown`: no value, no sign.
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from flint import arb, ctx

from symcheck.kernel.points import q as fq
from symcheck.kernel.tree import Node

PRECISIONS = (64, 256, 1024, 4096)
#: at a single point (a witness) the ladder goes further: the engine certifies signs up to 8192 bits
POINT_PRECISIONS = (*PRECISIONS, 16384)
MAX_EXACT_BITS = 20_000
MAX_POW = 1000


class Unknown(Exception):
    """No certified value or truth (undefined, unbounded, or too imprecise)."""


class precision:
    """Arb's working precision for a block. A class, not a ``@contextmanager``: a time budget
    expiring in contextlib's ``__enter__`` after the switch would skip the restore."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.old = ctx.prec

    def __enter__(self) -> None:
        self.old = ctx.prec
        ctx.prec = self.bits

    def __exit__(self, *exc_info: object) -> None:
        ctx.prec = self.old


# ------------------------------------------------------------------ exact rationals


def number(node: Node) -> Fraction:
    """The value of a number leaf, ``("int", n)`` or ``("rat", p, q)``."""
    return Fraction(node[1]) if node[0] == "int" else Fraction(node[1], node[2])


def exact(node: Node, env: dict[str, Fraction]) -> Fraction | None:
    """The exact value when the tree is rational arithmetic on rational variables, else None."""
    head = node[0]
    if head in ("int", "rat"):
        return number(node)
    if head == "var":
        return env.get(node[1])
    if head in ("add", "mul"):
        acc = Fraction(0 if head == "add" else 1)
        for arg in node[1:]:
            v = exact(arg, env)
            if v is None:
                return None
            acc = acc + v if head == "add" else acc * v
        return acc
    if head == "pow" and node[2][0] == "int" and abs(node[2][1]) <= MAX_POW:
        base, n = exact(node[1], env), node[2][1]
        if base is None or (base == 0 and n < 0):
            return None
        if abs(base.numerator).bit_length() * abs(n) > MAX_EXACT_BITS \
                or base.denominator.bit_length() * abs(n) > MAX_EXACT_BITS:
            return None
        return base ** n
    if head == "pow" and node[2][0] != "int":
        # b^e with e exactly an integer at the point (θ = 1 in x^θ): exact, where it is defined (b > 0)
        e, base = exact(node[2], env), exact(node[1], env)
        if base == 0 and e is not None and e > 0:
            return Fraction(0)  # 0^θ = 0 for θ > 0, as the activation reads it (kernel/probe.py)
        if e is None or e.denominator != 1 or abs(e) > MAX_POW or base is None or base <= 0:
            return None
        return exact(("pow", node[1], ("int", int(e))), env)
    if head == "piecewise":
        for value, cond in node[1:]:
            truth = exact_truth(cond, env)
            if truth is None:
                return None
            if truth:
                return exact(value, env)
        return None
    if head in ("floor", "ceil"):  # integer parts of a rational are exact
        inner = exact(node[1], env)
        if inner is None:
            return None
        return Fraction(inner.__floor__() if head == "floor" else inner.__ceil__())
    return None


_TESTS = {"gt": lambda d: d > 0, "ge": lambda d: d >= 0, "lt": lambda d: d < 0,
          "le": lambda d: d <= 0, "eq": lambda d: d == 0, "ne": lambda d: d != 0}


def exact_truth(cond: Node, env: dict[str, Fraction]) -> bool | None:
    head = cond[0]
    if head in _TESTS:
        l, r = exact(cond[1], env), exact(cond[2], env)
        return None if l is None or r is None else _TESTS[head](l - r)
    if head in ("true", "false"):
        return head == "true"
    values = [exact_truth(c, env) for c in cond[1:]]
    if None in values:
        return None
    return not values[0] if head == "not" else all(values) if head == "and" else any(values)


# ------------------------------------------------------------------ Arb balls

_UNARY: dict[str, Callable[[arb], arb]] = {
    "exp": arb.exp, "sin": arb.sin, "cos": arb.cos, "tan": arb.tan, "sinh": arb.sinh,
    "cosh": arb.cosh, "tanh": arb.tanh, "asinh": arb.asinh, "atan": arb.atan,
    "erf": arb.erf, "erfc": arb.erfc, "abs": abs}


def _in(x: arb, low: arb | None, high: arb | None, closed: bool) -> arb:
    """x when every point of the ball is in the interval from low to high (open unless closed)."""
    inside = ((low is None or (x >= low if closed else x > low))
              and (high is None or (x <= high if closed else x < high)))
    if not inside:
        raise Unknown("a ball not certainly inside the function's domain")
    return x


def _floor(x: arb) -> arb:
    """The floor of every point: the integers from floor(lower) to floor(upper) (exact when equal)."""
    x = _finite(x)
    low, high = x.lower().floor(), x.upper().floor()
    return low if low == high else low.union(high)


def _gamma(x: arb) -> arb:
    if x.contains_integer() and not x > 0:
        raise Unknown("gamma of a ball that may hold a pole")
    return x.gamma()


def _lgamma(x: arb) -> arb:
    if not x > 0:
        raise Unknown("lgamma of a ball not certainly positive")
    return x.lgamma()


def _lambertw(x: arb) -> arb:
    if not x + 1 / arb.const_e() >= 0:
        raise Unknown("lambertw of a ball not certainly at least -1/e")
    return x.lambertw()


_PARTIAL: dict[str, Callable[[arb], arb]] = {
    "acos": lambda x: _in(x, arb(-1), arb(1), True).acos(),
    "asin": lambda x: _in(x, arb(-1), arb(1), True).asin(),
    "atanh": lambda x: _in(x, arb(-1), arb(1), False).atanh(),
    "acosh": lambda x: _in(x, arb(1), None, True).acosh(),
    "floor": _floor, "ceil": lambda x: -_floor(-x),
    "gamma": _gamma, "lgamma": _lgamma, "lambertw": _lambertw}


def _finite(x: arb) -> arb:
    if not x.is_finite():
        raise Unknown("not finite")
    return x


def _ipow(x: arb, n: int) -> arb:
    """x**n by its ends (monotone on each sign): Arb's own power is nan for a ball with
    negative points, and x·x would lose the sign of an even power."""
    if n == 0:
        return arb(1)
    if n < 0:
        inner = _ipow(x, -n)
        if inner.contains(0):
            raise Unknown("a negative power of a ball containing 0")
        return 1 / inner
    lo, hi = x.lower(), x.upper()
    ends = (lo ** n).union(hi ** n)
    return ends.union(arb(0)) if n % 2 == 0 and lo < 0 < hi else ends


def enclose(node: Node, balls: dict[str, arb], exacts: dict[str, Fraction] | None) -> arb:
    """A ball containing the expression's values over the box (call inside ``precision``);
    ``exacts``, when every variable has one, are the box's point as rationals (no rounding)."""
    head = node[0]
    if head in ("int", "rat"):
        return arb(fq(number(node)))
    if head in ("add", "mul", "pow") and exacts is not None and not balls.keys() - exacts.keys():
        value = exact(node, exacts)  # rational arithmetic at a rational point: no rounding
        if value is not None:
            return arb(fq(value))
    if head == "var":
        if node[1] not in balls:
            raise Unknown(f"variable {node[1]} has no value")
        return balls[node[1]]
    if head == "const":
        return arb.pi()
    if head in ("add", "mul"):
        parts = [enclose(a, balls, exacts) for a in node[1:]]
        acc = parts[0]
        for p in parts[1:]:
            acc = acc + p if head == "add" else acc * p
        return _finite(acc)
    if head == "pow":
        base = enclose(node[1], balls, exacts)
        if node[2][0] == "int" and abs(node[2][1]) <= MAX_POW:
            return _finite(_ipow(base, node[2][1]))
        if node[2][0] == "rat" and node[2][1] > 0 and node[2][2] <= MAX_POW and node[2][1] <= MAX_POW \
                and base >= 0:
            return _finite(_ipow(base.nonnegative_part().root(node[2][2]), node[2][1]))
        exponent = enclose(node[2], balls, exacts)
        if base == 0 and exponent > 0:
            return arb(0)  # 0^θ = 0 for θ > 0 (kernel/probe.py)
        if not base > 0:
            raise Unknown("a power with a non-integer exponent needs a positive base, or 0 and a positive exponent")
        return _finite((exponent * base.log()).exp())
    if head == "log":
        x = enclose(node[1], balls, exacts)
        if not x > 0:
            raise Unknown("log of a ball not certainly positive")
        return _finite(x.log())
    if head in _UNARY:
        return _finite(_UNARY[head](enclose(node[1], balls, exacts)))
    if head in _PARTIAL:
        if head in ("floor", "ceil") and exacts is not None and not balls.keys() - exacts.keys():
            value = exact(node, exacts)  # at a rational point: exact, even at an integer
            if value is not None:
                return arb(fq(value))
        return _finite(_PARTIAL[head](enclose(node[1], balls, exacts)))
    if head == "piecewise":
        hull = None
        for value, cond in node[1:]:
            truth = truth_over(cond, balls, exacts)
            if truth is False:
                continue
            v = enclose(value, balls, exacts)
            hull = v if hull is None else hull.union(v)
            if truth:
                return hull
        raise Unknown("no branch of a piecewise certainly applies")
    raise Unknown(f"cannot evaluate {head!r}")


def ball_sign(x: arb) -> int | None:
    if x > 0:
        return 1
    if x < 0:
        return -1
    if x == 0:  # exact zero ball
        return 0
    return None


def truth_over(cond: Node, balls: dict[str, arb], exacts: dict[str, Fraction] | None) -> bool | None:
    """True/False when the condition certainly holds/fails on the whole box, else None."""
    head = cond[0]
    if head in _TESTS:
        if exacts is not None and not balls.keys() - exacts.keys():
            t = exact_truth(cond, exacts)
            if t is not None:
                return t
        try:
            d = enclose(cond[1], balls, exacts) - enclose(cond[2], balls, exacts)
        except Unknown:
            return None
        if ball_sign(d) is not None:
            return _TESTS[head](ball_sign(d))
        if head in ("eq", "ne") and not d.contains(0):
            return head == "ne"
        if head in ("gt", "le") and d <= 0:
            return head == "le"
        if head in ("ge", "lt") and d >= 0:
            return head == "ge"
        return None
    if head in ("true", "false"):
        return head == "true"
    values = [truth_over(c, balls, exacts) for c in cond[1:]]
    if head == "not":
        return None if values[0] is None else not values[0]
    if head == "and":
        return False if False in values else None if None in values else True
    return True if True in values else None if None in values else False


def exactly_zero(node: Node, values: dict[str, Fraction]) -> bool:
    """The tree is exactly 0 with every variable at the given rational: exact rational arithmetic,
    or an Arb ball of radius 0 and midpoint 0 (a tiny non-zero value is never rounded to 0)."""
    if exact(node, values) == 0:
        return True
    for bits in PRECISIONS:
        with precision(bits):
            try:
                ball = enclose(node, {v: arb(fq(x)) for v, x in values.items()}, values)
                if ball == 0:
                    return True
                if not ball.contains(0):
                    return False  # certainly not 0: no higher precision makes it 0
            except Unknown:
                pass
    return False


def sign_over(node: Node, make_balls, exacts: dict[str, Fraction] | None) -> int | None:
    """The certified sign on the box, escalating precision; ``make_balls(prec)`` gives the box."""
    for bits in PRECISIONS:
        with precision(bits):
            try:
                s = ball_sign(enclose(node, make_balls(bits), exacts))
            except Unknown:
                s = None
        if s is not None:
            return s
    return None
