"""Evaluate SymPy expressions at exact rational points and over boxes: fast values, certified
enclosures, certificates of non-zero values and their independent re-check.

One tree walker (no ``lambdify``/``eval``: expressions come from users), generic over its
arithmetic, and these entry points:

* :func:`approximate` — a plain mpmath value at ``dps`` digits, for *ranking* candidate witnesses;
* :func:`enclose` — an interval that provably contains the exact real value at a point;
* :func:`enclose_range` — an Arb ball that provably contains every value over a box;
* :func:`certify_nonzero` — a value is non-zero: exact rational arithmetic, or Arb balls at
  increasing precision until one excludes 0 (never SymPy's own evaluation, which decides
  relations and piecewise branches with floating-point ``evalf``);
* :func:`recheck_sign` — the same sign from a different arithmetic (mpmath intervals,
  :mod:`symcheck.exact.intervals`), for the independent re-check a witness needs.

The certified arithmetic is :class:`~symcheck.exact.balls.BallArithmetic`: exact ``fmpq`` rationals
while possible (so ``z + z**3/10**15 - (1 + 10**-15)*z`` and piecewise conditions at rational
break points are decided exactly), python-flint's ``arb`` balls otherwise.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import mpmath
import sympy
from flint import acb, arb, fmpq, fmpz
from mpmath.ctx_iv import ivmpf
from mpmath.libmp import to_rational
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational
from sympy.logic.boolalg import ITE, And, BooleanFalse, BooleanTrue, Not, Or

from symcheck.core.errors import EvaluationError
from symcheck.core.functions import FUNCTIONS, rewritten
from symcheck.exact.balls import BallArithmetic, BallValue, arb_from_interval, arb_precision, arb_sign
from symcheck.exact.intervals import EXP_MAX_ARGUMENT, TRIG_MAX_BITS, Enclosure, Imprecise, iv_rational, signs
from symcheck.exact.mpf import MPF, from_man_exp, round_ceiling, round_floor

__all__ = ["approximate", "enclose", "enclose_range", "arb_sign", "Certificate",
           "certify_nonzero", "recheck_sign"]

# failures of the host machinery that mean "cannot evaluate", never "wrong value"
_BUILTIN_FAILURES = (RecursionError, ZeroDivisionError, OverflowError, ValueError)


# --------------------------------------------------------------------------- shared helpers



def _real_root_by_arb(node: sympy.CRootOf, bits: int) -> tuple[Fraction, Fraction] | None:
    """Rational ends of a ball holding the ``node.index``-th real root (increasing order) of
    ``node``'s polynomial, by Arb's certified root isolation (``arb_fmpz_poly_complex_roots``:
    each root in its own ball, a real root with an imaginary part exactly 0). None when the
    polynomial is not square-free with integer coefficients after clearing denominators, or the
    real roots' balls do not separate, so that the order is not certain: the caller isolates
    exactly instead."""
    from flint import fmpz_poly
    coeffs = node.poly.all_coeffs()
    if not all(c.is_Rational for c in coeffs):
        return None
    scale = sympy.ilcm(*(c.q for c in coeffs))
    poly = fmpz_poly([int(c * scale) for c in reversed(coeffs)])
    if poly.degree() < 1 or poly.gcd(poly.derivative()).degree() > 0:
        return None
    with arb_precision(bits + 16):
        roots = cast(list[tuple[acb, int]], poly.complex_roots())  # (root, multiplicity): flint's stub says acb
        reals = [c.real for c, _ in roots if c.imag == 0]
        reals.sort(key=lambda r: r.mid())
        if any(not (a < b) for a, b in itertools.pairwise(reals)):
            return None
        if node.index >= len(reals):
            raise EvaluationError(f"{_short(node)} is not a real root")
        root = reals[node.index]
        return _arb_rational(root.lower()), _arb_rational(root.upper())


def _arb_rational(x: arb) -> Fraction:
    """The exact value of an exact (radius 0) ball, such as an end from ``lower``/``upper``."""
    mantissa, exponent = x.man_exp()
    m, e = int(mantissa), int(exponent)
    return Fraction(m * 2**e) if e >= 0 else Fraction(m, 2**-e)

def _short(node: Any, limit: int = 60) -> str:
    text = " ".join(str(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _to_fraction(v: Any) -> Fraction:
    """A coordinate as an exact rational (Floats count as their binary value)."""
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return Fraction(v)
    if isinstance(v, fmpq):
        return Fraction(int(v.p), int(v.q))
    v = sympy.sympify(v)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    if v.is_Float:
        return Fraction(*to_rational(v._mpf_))
    raise EvaluationError(f"the value {_short(v)} is not an exact rational number")


def _point(values: Mapping[sympy.Symbol, Any]) -> dict[sympy.Symbol, Fraction]:
    return {s: _to_fraction(v) for s, v in values.items()}


def _check_symbols(expr: sympy.Expr, given: Iterable[sympy.Symbol]) -> None:
    missing = expr.free_symbols - set(given)
    if missing:
        raise EvaluationError(f"no value given for {', '.join(sorted(map(str, missing)))}")


# --------------------------------------------------------------------------- the tree walker

# every function of the table (symcheck.core.functions) with a method of its own; frac and Mod
# are evaluated through their definition by floor (exact at rational points)
_UNARY: dict[type, str] = {f.cls: f.method for f in FUNCTIONS
                           if f.cls is not None and f.method is not None and f.arity == 1}

# for each relation: (decides True, decides False) given the signs of (lower, upper) of l - r
_RELATIONS: dict[str, tuple[Callable[[int, int], bool], Callable[[int, int], bool]]] = {
    ">": (lambda lo, hi: lo > 0, lambda lo, hi: hi <= 0),
    ">=": (lambda lo, hi: lo >= 0, lambda lo, hi: hi < 0),
    "<": (lambda lo, hi: hi < 0, lambda lo, hi: lo >= 0),
    "<=": (lambda lo, hi: hi <= 0, lambda lo, hi: lo > 0),
    "==": (lambda lo, hi: lo == hi == 0, lambda lo, hi: lo > 0 or hi < 0),
    "!=": (lambda lo, hi: lo > 0 or hi < 0, lambda lo, hi: lo == hi == 0),
}


class _Walker:
    """Evaluates a SymPy tree bottom-up with an arithmetic backend.

    ``point`` maps each symbol to a value of that arithmetic (a number, or a ball standing for
    a whole interval). With ``hull`` (boxes), a sign or branch the arithmetic cannot decide is
    replaced by the hull of every value it may take; without it (points) it raises
    :class:`Imprecise`, so the caller can retry at a higher precision.
    """

    def __init__(self, arith: Any, point: Mapping[sympy.Symbol, Any], hull: bool = False) -> None:
        self.arith = arith
        self.point = point
        self.hull = hull
        self.memo: dict[sympy.Basic, Any] = {}  # per call only: shared subtrees are evaluated once

    def eval(self, node: sympy.Basic) -> Any:
        try:
            return self.memo[node]
        except KeyError:
            value = self.memo[node] = self._eval(node)
            return value

    def _eval(self, node: sympy.Basic) -> Any:
        arith = self.arith
        if node.is_Rational:
            return arith.rational(int(node.p), int(node.q))
        if node.is_Float:
            return arith.rational(*to_rational(node._mpf_))
        if node is sympy.pi:
            return arith.pi()
        if node is sympy.E:
            return arith.e()
        if node.is_Symbol:
            if node not in self.point:
                raise EvaluationError(f"no value given for the symbol {node}")
            return self.point[node]
        if node.is_Add:
            return arith.add([self.eval(a) for a in node.args])
        if node.is_Mul:
            return arith.mul([self.eval(a) for a in node.args])
        if node.is_Pow:
            return self._pow(*node.args)
        if isinstance(node, sympy.Piecewise):
            return self._piecewise(node)
        if isinstance(node, sympy.Heaviside):
            return self._heaviside(node)
        if isinstance(node, sympy.sign):
            return self._by_sign(node, lambda s: arith.rational(s))
        if isinstance(node, sympy.Max):
            return arith.max([self.eval(a) for a in node.args])
        if isinstance(node, sympy.Min):
            return arith.min([self.eval(a) for a in node.args])
        if isinstance(node, AppliedUndef):
            raise EvaluationError(f"cannot evaluate the undefined function {node.func}")
        if isinstance(node, sympy.CRootOf):
            return self._real_root(node)
        if isinstance(node, sympy.log) and hasattr(arith, "log1p"):
            terms = node.args[0].args if node.args[0].is_Add else ()
            if any(t is sympy.S.One for t in terms):
                # log(1 + t) from t itself: 1 + e^-2000 rounds to 1 at any workable precision
                rest = [self.eval(t) for t in terms if t is not sympy.S.One]
                return arith.log1p(arith.add(rest))
        name = _UNARY.get(type(node))
        if name is not None and len(node.args) == 1:
            return getattr(arith, name)(self.eval(node.args[0]))
        definition = rewritten(node)  # frac(u) = u - floor(u), Mod(u, c) = u - c*floor(u/c)
        if definition is not None:
            if isinstance(node, sympy.Mod) and arith.sign_bounds(self.eval(node.args[1]))[0] <= 0:
                raise EvaluationError(f"Mod needs a positive modulus: {_short(node)}")
            return self.eval(definition)
        raise EvaluationError(f"cannot evaluate {type(node).__name__}: {_short(node)}")

    def _real_root(self, node: sympy.CRootOf) -> Any:
        """A real root of a rational polynomial: the hull of its exact isolating interval."""
        if not hasattr(self.arith, "hull") or not node.is_real:
            raise EvaluationError(f"cannot evaluate {_short(node)}")
        # real roots are indexed in increasing order
        bits = getattr(self.arith, "prec", 64) + 8
        ends = _real_root_by_arb(node, bits)
        if ends is None:
            # a CRootOf's polynomial is square-free over ZZ, so Arb always isolates it; a node
            # that is not (built around SymPy's checks) is refused rather than guessed at
            raise EvaluationError(f"cannot isolate {_short(node)}")
        lo, hi = ends
        return self.arith.hull([self.arith.rational(lo.numerator, lo.denominator),
                                self.arith.rational(hi.numerator, hi.denominator)])

    def _pow(self, base: sympy.Expr, expo: sympy.Expr) -> Any:
        arith = self.arith
        b = self.eval(base)
        if expo.is_Integer:
            return arith.pow_int(b, int(expo))
        if expo == sympy.S.Half:
            return arith.sqrt(b)
        if expo == -sympy.S.Half:
            return arith.pow_int(arith.sqrt(b), -1)
        return arith.pow_real(b, self.eval(expo))

    def _possible_signs(self, node: sympy.Basic) -> list[int]:
        """The signs the argument of ``node`` may have: one when decided."""
        lo, hi = self.arith.sign_bounds(self.eval(node.args[0]))
        if lo == hi or lo > 0:
            return [lo]
        if hi < 0:
            return [-1]
        if not self.hull:
            # no expression text: printing costs more than the retry this asks for
            raise Imprecise(f"undecided sign in {type(node).__name__}")
        return list(range(lo, hi + 1))

    def _by_sign(self, node: sympy.Basic, value: Callable[[int], Any]) -> Any:
        values = [value(s) for s in self._possible_signs(node)]
        return values[0] if len(values) == 1 else self.arith.hull(values)

    def _heaviside(self, node: sympy.Heaviside) -> Any:
        h0 = node.args[1]  # SymPy (≥ 1.9) always stores H(0), 1/2 unless given
        return self._by_sign(node, lambda s: self.arith.rational(1 if s > 0 else 0) if s
                             else self.eval(h0))

    def _piecewise(self, node: sympy.Piecewise) -> Any:
        # on a box, every branch that may be chosen is enclosed and their hull returned; the
        # first branch whose condition holds on the whole box ends the list
        chosen = []
        for pair in node.args:
            truth = self.truth(pair.cond)
            if truth is False:
                continue
            if truth is None and not self.hull:
                raise Imprecise(f"undecided condition in a {type(node).__name__}")
            chosen.append(self.eval(pair.expr))
            if truth:
                return chosen[0] if len(chosen) == 1 else self.arith.hull(chosen)
        if chosen:
            raise Imprecise("the piecewise expression may be undefined here")
        raise EvaluationError(f"the piecewise expression is undefined here: {_short(node)}")

    def truth(self, cond: sympy.Basic) -> bool | None:
        """Three-valued truth of a condition: None when the enclosures cannot decide it."""
        if isinstance(cond, BooleanTrue):
            return True
        if isinstance(cond, BooleanFalse):
            return False
        if isinstance(cond, Relational) and cond.rel_op in _RELATIONS:
            diff = self.arith.add([self.eval(cond.lhs), self.arith.neg(self.eval(cond.rhs))])
            lo, hi = self.arith.sign_bounds(diff)
            is_true, is_false = _RELATIONS[cond.rel_op]
            return True if is_true(lo, hi) else False if is_false(lo, hi) else None
        if isinstance(cond, (And, Or)):
            return _combine([self.truth(c) for c in cond.args], isinstance(cond, And))
        if isinstance(cond, Not):
            t = self.truth(cond.args[0])
            return None if t is None else not t
        if isinstance(cond, ITE):
            c, a, b = cond.args
            t = self.truth(c)
            if t is None:
                ta, tb = self.truth(a), self.truth(b)
                return ta if ta == tb else None
            return self.truth(a if t else b)
        kind = type(cond).__name__
        raise EvaluationError(f"cannot evaluate the condition {kind}: {_short(cond)}")


def _combine(truths: list[bool | None], conjunction: bool) -> bool | None:
    decisive = not conjunction  # False decides an And, True decides an Or
    if decisive in truths:
        return decisive
    return None if None in truths else conjunction


# --------------------------------------------------------------------------- fast approximation


def _check_exp(x: mpmath.mpf) -> None:
    if abs(x) > EXP_MAX_ARGUMENT:
        raise EvaluationError("exponential of an astronomically large argument")


def _check_trig(x: mpmath.mpf) -> None:
    if x != 0 and mpmath.mag(x) > TRIG_MAX_BITS:
        raise EvaluationError("trigonometric function of an astronomically large argument")


def _guarded(func: Callable[[mpmath.mpf], mpmath.mpf],
             check: Callable[[mpmath.mpf], None] | None = None) -> Callable[..., mpmath.mpf]:
    """An :class:`_Approx` method: the mpmath function, after the same argument limit as the
    enclosures (so both refuse the same astronomically large arguments)."""

    def method(self: _Approx, x: mpmath.mpf) -> mpmath.mpf:
        if check is not None:
            check(x)
        return func(x)

    return method


class _Approx:
    """Plain mpmath arithmetic at the ambient ``mp`` precision: fast, not rigorous."""

    def rational(self, p: int, q: int = 1) -> mpmath.mpf:
        return mpmath.mpf(p) / q

    def sign_bounds(self, x: mpmath.mpf) -> tuple[int, int]:
        s = int(mpmath.sign(x))
        return s, s

    def pi(self) -> mpmath.mpf:
        return +mpmath.mp.pi

    def e(self) -> mpmath.mpf:
        return +mpmath.mp.e

    def add(self, xs: Iterable[mpmath.mpf]) -> mpmath.mpf:
        return mpmath.fsum(xs)

    def neg(self, x: mpmath.mpf) -> mpmath.mpf:
        return -x

    def mul(self, xs: Iterable[mpmath.mpf]) -> mpmath.mpf:
        return mpmath.fprod(xs)

    def pow_int(self, x: mpmath.mpf, n: int) -> mpmath.mpf:
        if x == 0 and n < 0:
            raise EvaluationError("division by zero")
        return x**n

    def sqrt(self, x: mpmath.mpf) -> mpmath.mpf:
        if x < 0:
            raise EvaluationError("square root of a negative number")
        return mpmath.sqrt(x)

    def pow_real(self, b: mpmath.mpf, y: mpmath.mpf) -> mpmath.mpf:
        if b == 0 and y > 0:
            return mpmath.mpf(0)
        if b <= 0:
            raise EvaluationError("a non-positive number to a non-integer power")
        return self.exp(y * mpmath.log(b))

    def log(self, x: mpmath.mpf) -> mpmath.mpf:
        if x <= 0:
            raise EvaluationError("logarithm of a non-positive number")
        return mpmath.log(x)

    exp = _guarded(mpmath.exp, _check_exp)
    sin = _guarded(mpmath.sin, _check_trig)
    cos = _guarded(mpmath.cos, _check_trig)
    tan = _guarded(mpmath.tan, _check_trig)
    sinh = _guarded(mpmath.sinh, _check_exp)
    cosh = _guarded(mpmath.cosh, _check_exp)
    tanh = _guarded(mpmath.tanh)
    asinh = _guarded(mpmath.asinh)
    atan = _guarded(mpmath.atan)
    erf = _guarded(mpmath.erf)
    erfc = _guarded(mpmath.erfc)

    def abs(self, x: mpmath.mpf) -> mpmath.mpf:
        return abs(x)

    @staticmethod
    def _within(x: mpmath.mpf, low: float | None, high: float | None, closed: bool, what: str) -> None:
        if (low is not None and (x < low or (x == low and not closed))) or \
                (high is not None and (x > high or (x == high and not closed))):
            raise EvaluationError(f"{what} of a number outside its domain")

    def acos(self, x: mpmath.mpf) -> mpmath.mpf:
        self._within(x, -1, 1, True, "acos")
        return mpmath.acos(x)

    def asin(self, x: mpmath.mpf) -> mpmath.mpf:
        self._within(x, -1, 1, True, "asin")
        return mpmath.asin(x)

    def atanh(self, x: mpmath.mpf) -> mpmath.mpf:
        self._within(x, -1, 1, False, "atanh")
        return mpmath.atanh(x)

    def acosh(self, x: mpmath.mpf) -> mpmath.mpf:
        self._within(x, 1, None, True, "acosh")
        return mpmath.acosh(x)

    def floor(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.floor(x)

    def ceiling(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.ceil(x)

    def gamma(self, x: mpmath.mpf) -> mpmath.mpf:
        if x <= 0 and x == mpmath.floor(x):
            raise EvaluationError("gamma at a pole (a non-positive integer)")
        return mpmath.gamma(x)

    def loggamma(self, x: mpmath.mpf) -> mpmath.mpf:
        self._within(x, 0, None, False, "loggamma")
        return mpmath.loggamma(x)

    def lambertw(self, x: mpmath.mpf) -> mpmath.mpf:
        self._within(x, -1 / mpmath.e, None, True, "LambertW")
        return mpmath.re(mpmath.lambertw(x))

    def max(self, xs: list[mpmath.mpf]) -> mpmath.mpf:
        return max(xs)

    def min(self, xs: list[mpmath.mpf]) -> mpmath.mpf:
        return min(xs)


# --------------------------------------------------------------------------- public API


def approximate(expr: sympy.Expr, values: Mapping[sympy.Symbol, Any], dps: int = 30) -> mpmath.mpf:
    """A fast, non-rigorous value of ``expr`` at ``values`` with ``dps`` digits (for ranking).

    >>> z = sympy.Symbol("z")
    >>> mpmath.nstr(approximate(z * sympy.exp(-z), {z: sympy.Rational(1, 2)}), 10)
    '0.3032653299'
    """
    point = _point(values)
    with mpmath.workdps(dps):
        arith = _Approx()
        try:
            numbers = {s: arith.rational(q.numerator, q.denominator) for s, q in point.items()}
            value = _Walker(arith, numbers).eval(sympy.sympify(expr))
        except _BUILTIN_FAILURES as err:
            raise EvaluationError(f"cannot evaluate {_short(expr)}: {err}") from err
        if not isinstance(value, mpmath.mpf) or not mpmath.isfinite(value):
            raise EvaluationError(f"no finite real value for {_short(expr)}")
        return value


def _check_prec(prec: int) -> None:
    if prec < 16:
        raise ValueError("prec must be at least 16 bits")


def _balls(expr: sympy.Basic, point: Mapping[sympy.Symbol, Fraction], prec: int) -> BallValue:
    """The exact rational, or an Arb ball at ``prec`` bits; call inside ``arb_precision(prec)``."""
    arith = BallArithmetic(prec)
    numbers = {s: arith.rational(q.numerator, q.denominator) for s, q in point.items()}
    try:
        value: BallValue = _Walker(arith, numbers).eval(expr)
        return value
    except _BUILTIN_FAILURES as err:
        raise EvaluationError(f"cannot evaluate {_short(expr)}: {err}") from err


def _mpf(x: arb, prec: int, rounding: str) -> MPF:
    """An exact arb (a ball's end point) as mpmath's raw number, rounded to ``prec`` bits."""
    man, exp = x.man_exp()
    return from_man_exp(int(man), int(exp), prec, rounding)


def enclose(expr: sympy.Expr, values: Mapping[sympy.Symbol, Any], prec: int) -> ivmpf:
    """An interval (``mpmath.iv`` number) at ``prec`` bits that contains the exact real value.

    Raises :class:`EvaluationError` if the value cannot be enclosed (unsupported node, not real
    or undefined there, or a branch/sign the enclosure cannot decide at this precision — then
    the subclass :class:`~symcheck.exact.intervals.Imprecise`).

    >>> z = sympy.Symbol("z")
    >>> 0 in enclose(sympy.sin(z)**2 + sympy.cos(z)**2 - 1, {z: sympy.Rational(3, 7)}, 64)
    True
    """
    _check_prec(prec)
    point = _point(values)
    with arb_precision(prec):
        value = _balls(sympy.sympify(expr), point, prec)
        if isinstance(value, fmpq):
            interval = iv_rational(Fraction(int(value.p), int(value.q)), prec)
        else:
            interval = _mpf(value.lower(), prec, round_floor), _mpf(value.upper(), prec, round_ceiling)
    return mpmath.iv.make_mpf(interval)


def enclose_range(expr: sympy.Expr, box: Mapping[sympy.Symbol, tuple[Any, Any]],
                  prec: int) -> arb:
    """An Arb ball at ``prec`` bits containing ``expr(x)`` for every ``x`` in the closed box.

    Each variable ranges over a closed interval ``(lo, hi)`` of exact rationals (``lo == hi``
    is a point, evaluated exactly where the arithmetic stays rational). A sign, condition or
    Heaviside step that is not decided on the whole box contributes every value it may take: a
    Piecewise gives the hull of the branches that may be chosen (each enclosed over the whole
    box), up to the first whose condition holds on all of it.

    Raises :class:`EvaluationError` when no such ball can be given: the expression is
    undefined on the whole box (``log`` of values ≤ 0; no branch applies), or an unsupported
    function; and its subclass :class:`~symcheck.exact.intervals.Imprecise` when it may be undefined
    somewhere on the box (``log`` of a range that reaches 0, a division by a range containing 0,
    a piecewise without a branch on part of the box), which a smaller box or more precision
    may settle. ``ValueError`` for an empty interval or ``prec`` below 16.

    >>> z = sympy.Symbol("z")
    >>> ball = enclose_range(sympy.exp(z) + z, {z: (0, 1)}, 64)  # 1 <= e^z + z <= e + 1
    >>> arb_sign(ball), ball.lower() <= 1, ball.upper() >= 3.71828
    (1, True, True)
    >>> relu = sympy.Piecewise((z, z > 0), (0, True))
    >>> ball = enclose_range(relu, {z: (-1, 2)}, 64)  # either branch: the hull of z and 0
    >>> ball.lower() <= -1, ball.upper() >= 2, arb_sign(enclose_range(relu, {z: (1, 2)}, 64))
    (True, True, 1)
    """
    _check_prec(prec)
    expr = sympy.sympify(expr)
    ends = {s: (_to_fraction(lo), _to_fraction(hi)) for s, (lo, hi) in box.items()}
    for s, (lo, hi) in ends.items():
        if lo > hi:
            raise ValueError(f"empty interval for {s}: {lo} > {hi}")
    with arb_precision(prec):
        arith = BallArithmetic(prec)
        numbers: dict[sympy.Symbol, BallValue] = {}
        for s, (lo, hi) in ends.items():
            lo_q, hi_q = fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator)
            numbers[s] = arith.exact(lo_q) if lo == hi else arb_from_interval(lo_q, hi_q)
        try:
            value = _Walker(arith, numbers, hull=True).eval(expr)
        except _BUILTIN_FAILURES as err:
            raise EvaluationError(f"cannot evaluate {_short(expr)}: {err}") from err
        return arith.ball(value)


@dataclass(frozen=True)
class Certificate:
    """A certified non-zero value: ``lower <= value <= upper`` and 0 lies outside.

    ``lower``/``upper`` are decimal strings rounded outward from the binary enclosure, so they
    are themselves a valid enclosure; when ``exact`` they both hold the rational ``p/q``.
    ``value`` is the rational when ``exact``, else None: the value is known only through
    its enclosure.
    """

    value: sympy.Rational | None
    exact: bool
    lower: str
    upper: str
    prec: int
    sign: int

    def decimal(self, digits: int = 20) -> str:
        """The midpoint of the enclosure (the value itself when exact) to ``digits`` digits."""
        mid = (Fraction(self.lower) + Fraction(self.upper)) / 2
        return _decimal_string(mid, digits, "nearest")


def certify_nonzero(
    expr: sympy.Expr, values: Mapping[sympy.Symbol, Any], *, max_prec: int = 2048
) -> Certificate | None:
    """Certify that ``expr`` is non-zero at the rational point ``values``, or return None.

    The expression tree is evaluated with exact rationals while they last (Floats are read as
    their binary values) and Arb balls at 64, 128, …, ``max_prec`` bits otherwise, until the
    value is an exact non-zero rational or a ball that excludes 0. Conditions and signs are
    decided by the same arithmetic; one it cannot decide at a precision makes it try the next.
    None means "not certified" — the value is exactly 0, too close to 0, or cannot be
    evaluated there (undefined, unsupported function) — never "zero". Only a missing or
    non-rational coordinate (a caller's mistake) raises :class:`EvaluationError`.

    >>> z = sympy.Symbol("z")
    >>> certify_nonzero(z / (1 + sympy.exp(-z)) - z / 2, {z: 1}).decimal(8)
    '0.23105858'
    """
    point = _point(values)
    expr = sympy.sympify(expr)
    _check_symbols(expr, point)
    for prec in _precisions(max_prec):
        with arb_precision(prec):
            try:
                value = _balls(expr, point, prec)
            except Imprecise:
                continue
            except (EvaluationError, *_BUILTIN_FAILURES):  # e.g. RecursionError: nested too deeply
                return None
            if isinstance(value, fmpq):  # exact: the precision is irrelevant
                return None if value == 0 else _exact_certificate(value)
            sign = arb_sign(value)
            if sign:
                return Certificate(
                    value=None,
                    exact=False,
                    lower=_decimal_end(value.lower(), 25, "floor"),
                    upper=_decimal_end(value.upper(), 25, "ceiling"),
                    prec=prec,
                    sign=sign,
                )
    return None


def recheck_sign(expr: sympy.Expr, values: Mapping[sympy.Symbol, Any], *,
                 max_prec: int = 4096) -> int | None:
    """The sign of ``expr`` at the rational point, by an arithmetic independent of the certifier.

    mpmath intervals (:class:`~symcheck.exact.intervals.Enclosure`: Python ``Fraction`` while
    exact, mpmath's directed-rounding primitives and series with proven tails otherwise) at
    64, 128, …, ``max_prec`` bits, from the expression tree — not Arb, and never SymPy's
    relational evaluation or ``evalf``. 1 or -1 when an enclosure excludes 0, 0 when the value
    is exactly 0 by exact arithmetic, None when no enclosure decides (or it is undefined
    there). A missing or non-rational coordinate raises :class:`EvaluationError`.

    >>> z = sympy.Symbol("z")
    >>> recheck_sign(sympy.tanh(z) - 1, {z: 30}), recheck_sign(z**2 - 4, {z: 2})
    (-1, 0)
    """
    point = _point(values)
    expr = sympy.sympify(expr)
    _check_symbols(expr, point)
    for prec in _precisions(max_prec):
        try:
            arith = Enclosure(prec)
            value = _Walker(arith, {s: arith.exact(q) for s, q in point.items()}).eval(expr)
        except Imprecise:
            continue
        except (EvaluationError, *_BUILTIN_FAILURES):
            return None
        if isinstance(value, Fraction):
            return (value > 0) - (value < 0)
        lo, hi = signs(value)
        if lo > 0 or hi < 0:
            return 1 if lo > 0 else -1
    return None


def _precisions(max_prec: int) -> list[int]:
    precs, prec = [], 64
    while prec < max_prec:
        precs.append(prec)
        prec *= 2
    return precs + [max(max_prec, 16)]


def _exact_certificate(value: fmpq) -> Certificate:
    rational = sympy.Rational(int(value.p), int(value.q))
    return Certificate(value=rational, exact=True, lower=str(rational), upper=str(rational),
                       prec=0, sign=1 if value > 0 else -1)


# --------------------------------------------------------------------------- decimal strings

# end points with more bits than this are converted through Arb, not exact Python integers
_FRACTION_MAX_BITS = 2**16
_LOG10_2 = 0.30102999566398120


def _decimal_end(x: arb, digits: int, rounding: str) -> str:
    """An exact arb (a ball's end point) to ``digits`` significant digits, rounded as asked."""
    man, exp = (int(v) for v in x.man_exp())
    if man == 0:
        return "0"
    if man.bit_length() + abs(exp) <= _FRACTION_MAX_BITS:
        q = Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)
        return _decimal_string(q, digits, rounding)
    return _decimal_far(x, man.bit_length() + exp, digits, rounding)


def _decimal_far(x: arb, bits: int, digits: int, rounding: str) -> str:
    """Like :func:`_decimal_string` for a number of huge magnitude (2**bits, |bits| > 2**16):
    x / 10**k is enclosed by Arb and its floor or ceiling taken from the ball's ends, which
    rounds at least as far outward as asked."""
    negative = bool(x < 0)
    scale = int((bits - 1) * _LOG10_2) - digits + 1
    with arb_precision(4 * digits + 64 + 2 * abs(bits).bit_length()):
        a = abs(x)  # exact: x has fewer bits than this precision
        for _ in range(8):  # the estimate is off by at most a few powers of 10
            scaled = a / arb(10) ** scale
            if scaled.upper() < 10 ** (digits - 1):
                scale -= 1
            elif scaled.lower() >= 10**digits:
                scale += 1
            else:
                break
        if rounding == "nearest":
            end = (scaled.mid() + arb(0.5)).floor()
        elif (rounding == "floor") == negative:  # the magnitude rounds up
            end = scaled.upper().ceil()
        else:
            end = scaled.lower().floor()
        mant = int(cast(fmpz, end.unique_fmpz()))  # the floor or ceiling of a ball's end is one integer
    return _format(negative, mant, scale)


def _at_least_pow10(q: Fraction, e: int) -> bool:
    p, d = q.numerator, q.denominator
    scale: int = 10 ** abs(e)
    return p * scale >= d if e < 0 else p >= d * scale


def _floor_log10(q: Fraction) -> int:
    """floor(log10(q)) for q > 0, exactly (a bit-length estimate, then corrected)."""
    e = int((q.numerator.bit_length() - q.denominator.bit_length()) * _LOG10_2)
    while not _at_least_pow10(q, e):
        e -= 1
    while _at_least_pow10(q, e + 1):
        e += 1
    return e


def _decimal_string(q: Fraction, digits: int, rounding: str) -> str:
    """q to ``digits`` significant digits, rounded toward -inf ("floor"), +inf ("ceiling"),
    or to nearest; plain notation for moderate exponents, scientific otherwise."""
    if q == 0:
        return "0"
    negative, a = q < 0, abs(q)
    scale = _floor_log10(a) - digits + 1
    scaled = a / Fraction(10) ** scale
    mant, rem = divmod(scaled.numerator, scaled.denominator)
    if rounding == "nearest":
        up = 2 * rem >= scaled.denominator
    else:  # directed: the magnitude rounds up for floor of a negative or ceiling of a positive
        up = rem > 0 and (rounding == "floor") == negative
    return _format(negative, mant + up, scale)


def _format(negative: bool, mant: int, scale: int) -> str:
    """The number ±mant·10**scale: plain notation for moderate exponents, scientific otherwise."""
    digits = str(mant)
    e10 = len(digits) - 1 + scale
    text = digits.rstrip("0") or "0"
    sign = "-" if negative else ""
    if -5 <= e10 < 16:  # plain notation
        if e10 >= len(text) - 1:
            return sign + text + "0" * (e10 - len(text) + 1)
        if e10 >= 0:
            return sign + text[: e10 + 1] + "." + text[e10 + 1 :]
        return sign + "0." + "0" * (-e10 - 1) + text
    body = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return f"{sign}{body}e{e10}"
