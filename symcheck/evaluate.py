"""Evaluate SymPy expressions at exact rational points: fast values and certified enclosures.

Three entry points, one tree walker (no ``lambdify``/``eval``: expressions come from users):

* :func:`approximate` — a plain mpmath value at ``dps`` digits, for *ranking* candidate witnesses;
* :func:`enclose` — an interval that provably contains the exact real value;
* :func:`certify_nonzero` — exact rational arithmetic when SymPy reduces the value to a Rational,
  otherwise enclosures at increasing precision until one excludes 0 (DESIGN.md §2).

The walker is generic over its arithmetic: plain mpmath here for :func:`approximate`, and the
certified :class:`~symcheck.intervals.Enclosure` (exact rationals while possible, so
``z + z**3/10**15 - (1 + 10**-15)*z`` and piecewise conditions at rational breakpoints are
decided exactly; outward-rounded intervals otherwise) for the other two.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy
from mpmath.ctx_iv import ivmpf
from mpmath.libmp import to_rational
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational
from sympy.logic.boolalg import ITE, And, BooleanFalse, BooleanTrue, Not, Or

from .errors import EvaluationError
from .intervals import (
    EXP_MAX_ARGUMENT,
    MPF,
    TRIG_MAX_BITS,
    Enclosure,
    Undecided,
    Value,
    iv_rational,
    overlaps,
    signs,
)

__all__ = ["approximate", "enclose", "Certificate", "certify_nonzero"]

# failures of the host machinery that mean "cannot evaluate", never "wrong value"
_BUILTIN_FAILURES = (RecursionError, ZeroDivisionError, OverflowError, ValueError)


# --------------------------------------------------------------------------- shared helpers


def _short(node: Any, limit: int = 60) -> str:
    text = " ".join(str(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fraction(x: MPF) -> Fraction:
    """The exact value of a binary number (a SymPy Float's ``_mpf_``, an interval end)."""
    p, q = to_rational(x)
    return Fraction(p, q)


def _to_fraction(v: Any) -> Fraction:
    """A point coordinate as an exact rational (Floats count as their binary value)."""
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return Fraction(v)
    v = sympy.sympify(v)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    if v.is_Float:
        return _fraction(v._mpf_)
    raise EvaluationError(f"the value {_short(v)} is not an exact rational number")


def _point(values: Mapping[sympy.Symbol, Any]) -> dict[sympy.Symbol, Fraction]:
    return {s: _to_fraction(v) for s, v in values.items()}


def _rationalize_floats(expr: sympy.Expr) -> sympy.Expr:
    floats = expr.atoms(sympy.Float)
    if not floats:
        return expr
    return expr.xreplace({f: sympy.Rational(*to_rational(f._mpf_)) for f in floats})


# --------------------------------------------------------------------------- the tree walker

_UNARY: dict[type, str] = {
    sympy.exp: "exp", sympy.log: "log", sympy.sin: "sin", sympy.cos: "cos", sympy.tan: "tan",
    sympy.sinh: "sinh", sympy.cosh: "cosh", sympy.tanh: "tanh", sympy.asinh: "asinh",
    sympy.atan: "atan", sympy.erf: "erf", sympy.erfc: "erfc", sympy.Abs: "abs",
}

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
    """Evaluates a SymPy tree bottom-up with an arithmetic backend (exact/interval or mpmath)."""

    def __init__(self, arith: Any, point: Mapping[sympy.Symbol, Fraction]) -> None:
        self.arith = arith
        self.point = point
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
            return arith.exact(Fraction(int(node.p), int(node.q)))
        if node.is_Float:
            return arith.exact(_fraction(node._mpf_))
        if node is sympy.pi:
            return arith.pi()
        if node is sympy.E:
            return arith.e()
        if node.is_Symbol:
            if node not in self.point:
                raise EvaluationError(f"no value given for the symbol {node}")
            return arith.exact(self.point[node])
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
            return arith.exact(Fraction(self._sign(self.eval(node.args[0]), node)))
        if isinstance(node, sympy.Max):
            return arith.max([self.eval(a) for a in node.args])
        if isinstance(node, sympy.Min):
            return arith.min([self.eval(a) for a in node.args])
        if isinstance(node, AppliedUndef):
            raise EvaluationError(f"cannot evaluate the undefined function {node.func}")
        name = _UNARY.get(type(node))
        if name is not None and len(node.args) == 1:
            return getattr(arith, name)(self.eval(node.args[0]))
        raise EvaluationError(f"cannot evaluate {type(node).__name__}: {_short(node)}")

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

    def _sign(self, value: Any, node: sympy.Basic) -> int:
        lo, hi = self.arith.sign_bounds(value)
        if lo == hi:
            return lo
        if lo > 0 or hi < 0:
            return 1 if lo > 0 else -1
        raise Undecided(f"undecided sign in {_short(node)}")

    def _heaviside(self, node: sympy.Heaviside) -> Any:
        s = self._sign(self.eval(node.args[0]), node)
        if s:
            return self.arith.exact(Fraction(1 if s > 0 else 0))
        h0 = node.args[1] if len(node.args) > 1 else sympy.S.Half
        return self.eval(h0)

    def _piecewise(self, node: sympy.Piecewise) -> Any:
        for pair in node.args:
            truth = self.truth(pair.cond)
            if truth is None:
                raise Undecided(f"undecided condition {_short(pair.cond)}")
            if truth:
                return self.eval(pair.expr)
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

    def exact(self, q: Fraction) -> mpmath.mpf:
        return mpmath.mpf(q.numerator) / q.denominator

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
        try:
            value = _Walker(_Approx(), point).eval(sympy.sympify(expr))
        except _BUILTIN_FAILURES as err:
            raise EvaluationError(f"cannot evaluate {_short(expr)}: {err}") from err
        if not isinstance(value, mpmath.mpf) or not mpmath.isfinite(value):
            raise EvaluationError(f"no finite real value for {_short(expr)}")
        return value


def _evaluate(expr: sympy.Expr, point: Mapping[sympy.Symbol, Fraction], prec: int) -> Value:
    """The exact rational, or an outward-rounded interval at ``prec`` bits."""
    if prec < 16:
        raise ValueError("prec must be at least 16 bits")
    try:
        return _Walker(Enclosure(prec), point).eval(sympy.sympify(expr))
    except _BUILTIN_FAILURES as err:
        raise EvaluationError(f"cannot evaluate {_short(expr)}: {err}") from err


def enclose(expr: sympy.Expr, values: Mapping[sympy.Symbol, Any], prec: int) -> ivmpf:
    """An interval (``mpmath.iv`` number) at ``prec`` bits that contains the exact real value.

    Raises :class:`EvaluationError` if the value cannot be enclosed (unsupported node, not real
    or undefined there, or a branch/sign the enclosure cannot decide at this precision).

    >>> z = sympy.Symbol("z")
    >>> 0 in enclose(sympy.sin(z)**2 + sympy.cos(z)**2 - 1, {z: sympy.Rational(3, 7)}, 64)
    True
    """
    value = _evaluate(expr, _point(values), prec)
    interval = iv_rational(value, prec) if isinstance(value, Fraction) else value
    return mpmath.iv.make_mpf(interval)


@dataclass(frozen=True)
class Certificate:
    """A certified non-zero value: ``lower <= value <= upper`` and 0 lies outside.

    ``lower``/``upper`` are decimal strings rounded outward from the binary enclosure, so they
    are themselves a valid enclosure; when ``exact`` they both hold the rational ``p/q``.
    """

    value: sympy.Expr
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

    First SymPy's exact arithmetic (Floats are read as their binary values): a Rational result
    decides outright. Otherwise enclosures at 64, 128, …, ``max_prec`` bits until one excludes 0.
    None means "not certified" — the value is exactly 0, too close to 0, or cannot be
    evaluated there (undefined, unsupported function) — never "zero". Only a missing or
    non-rational coordinate (a caller's mistake) raises :class:`EvaluationError`.

    >>> z = sympy.Symbol("z")
    >>> certify_nonzero(z / (1 + sympy.exp(-z)) - z / 2, {z: 1}).decimal(8)
    '0.23105858'
    """
    point = _point(values)
    exact_expr = _rationalize_floats(sympy.sympify(expr))
    rationals = {s: sympy.Rational(q.numerator, q.denominator) for s, q in point.items()}
    value = exact_expr.xreplace(rationals)
    if value.free_symbols:
        missing = ", ".join(sorted(map(str, value.free_symbols)))
        raise EvaluationError(f"no value given for {missing}")
    try:
        if value.is_Rational:
            return _certify_rational(exact_expr, point, value)
        return _certify_by_enclosure(exact_expr, point, value, max_prec)
    except (EvaluationError, *_BUILTIN_FAILURES):  # e.g. RecursionError: nested too deeply
        return None


def _certify_rational(expr: sympy.Expr, point: Mapping[sympy.Symbol, Fraction],
                      value: sympy.Rational) -> Certificate | None:
    if value == 0:
        return None
    _cross_check(expr, point, Fraction(int(value.p), int(value.q)))
    return _exact_certificate(value)


def _certify_by_enclosure(expr: sympy.Expr, point: Mapping[sympy.Symbol, Fraction],
                          value: sympy.Expr, max_prec: int) -> Certificate | None:
    """Enclose our own evaluation of ``expr`` (not SymPy's ``value``, whose numeric decisions
    we do not rely on) at doubling precision until the enclosure excludes 0."""
    for prec in _precisions(max_prec):
        try:
            enclosure = _evaluate(expr, point, prec)
        except Undecided:
            continue
        if isinstance(enclosure, Fraction):  # decided by exact arithmetic after all
            exact = sympy.Rational(enclosure.numerator, enclosure.denominator)
            return None if exact == 0 else _exact_certificate(exact)
        lo, hi = signs(enclosure)
        if lo > 0 or hi < 0:
            return Certificate(
                value=value,
                exact=False,
                lower=_decimal_string(_fraction(enclosure[0]), 25, "floor"),
                upper=_decimal_string(_fraction(enclosure[1]), 25, "ceiling"),
                prec=prec,
                sign=1 if lo > 0 else -1,
            )
    return None


def _precisions(max_prec: int) -> list[int]:
    precs, prec = [], 64
    while prec < max_prec:
        precs.append(prec)
        prec *= 2
    return precs + [max(max_prec, 16)]


def _exact_certificate(value: sympy.Rational) -> Certificate:
    return Certificate(value=value, exact=True, lower=str(value), upper=str(value), prec=0,
                       sign=1 if value > 0 else -1)


def _cross_check(expr: sympy.Expr, point: Mapping[sympy.Symbol, Fraction], value: Fraction) -> None:
    """Re-check SymPy's exact answer with our own evaluation (SymPy decides numeric
    piecewise conditions with evalf); a disagreement is an error, never a verdict."""
    try:
        mine = _evaluate(expr, point, 64)
    except EvaluationError:
        return
    agrees = mine == value if isinstance(mine, Fraction) else overlaps(mine, iv_rational(value, 64))
    if not agrees:
        raise EvaluationError(f"SymPy's exact value {value} disagrees with interval evaluation")


def _at_least_pow10(q: Fraction, e: int) -> bool:
    p, d = q.numerator, q.denominator
    return p * 10**-e >= d if e < 0 else p >= d * 10**e


def _floor_log10(q: Fraction) -> int:
    """floor(log10(q)) for q > 0, exactly (a bit-length estimate, then corrected)."""
    e = int((q.numerator.bit_length() - q.denominator.bit_length()) * 0.30102999566398)
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
    e10 = _floor_log10(a)
    scaled = a * Fraction(10) ** (digits - 1 - e10)
    mant, rem = divmod(scaled.numerator, scaled.denominator)
    if rounding == "nearest":
        up = 2 * rem >= scaled.denominator
    else:  # directed: the magnitude rounds up for floor of a negative or ceiling of a positive
        up = rem > 0 and (rounding == "floor") == negative
    mant += up
    if mant == 10**digits:
        mant, e10 = mant // 10, e10 + 1
    text = str(mant).rstrip("0") or "0"
    sign = "-" if negative else ""
    if -5 <= e10 < 16:  # plain notation
        if e10 >= len(text) - 1:
            return sign + text + "0" * (e10 - len(text) + 1)
        if e10 >= 0:
            return sign + text[: e10 + 1] + "." + text[e10 + 1 :]
        return sign + "0." + "0" * (-e10 - 1) + text
    body = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return f"{sign}{body}e{e10}"
