"""Evaluate SymPy expressions at exact rational points: fast values and certified enclosures.

Three entry points, one tree walker (no ``lambdify``/``eval``: expressions come from users):

* :func:`approximate` — a plain mpmath value at ``dps`` digits, for *ranking* candidate witnesses;
* :func:`enclose` — an interval that provably contains the exact real value;
* :func:`certify_nonzero` — exact rational arithmetic when SymPy reduces the value to a Rational,
  otherwise enclosures at increasing precision until one excludes 0 (DESIGN.md §2).

The enclosure walker keeps a value as an exact :class:`~fractions.Fraction` for as long as the
arithmetic allows (so ``z + z**3/10**15 - (1 + 10**-15)*z`` and piecewise conditions at
rational breakpoints are decided exactly) and switches to outward-rounded intervals (raw
``mpmath.libmp`` interval tuples, computed at an explicit precision so no global mpmath state
is touched) only for transcendental values.

Rigour: ``+ - * /``, integer powers and ``sqrt`` are correctly rounded outward by mpmath
(exact). ``exp``, ``log``, ``sin``, ``cos``, ``pi`` and ``E`` rely on mpmath's
directed-rounding primitives, and each such result is further widened by ~16 ulps as a margin
against a last-bit slip. Everything else is built from those with explicit, proven error terms:
alternating-series tails (atan, asinh), geometric tail bounds of positive series (expm1, erf),
the enveloping property of the erfc asymptotic series (DLMF 7.12(i)), and monotonicity.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy
from mpmath.ctx_iv import ivmpf
from mpmath.libmp import (
    fone,
    fzero,
    from_int,
    from_rational,
    mpf_abs,
    mpf_add,
    mpf_gt,
    mpf_lt,
    mpf_neg,
    mpf_shift,
    mpf_sign,
    mpf_sub,
    round_ceiling,
    round_floor,
    to_float,
    to_rational,
)
from mpmath.libmp.libmpi import (
    mpi_abs,
    mpi_add,
    mpi_cos_sin,
    mpi_div,
    mpi_exp,
    mpi_log,
    mpi_mul,
    mpi_neg,
    mpi_pi,
    mpi_pow_int,
    mpi_sqrt,
    mpi_square,
    mpi_sub,
)
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational
from sympy.logic.boolalg import ITE, And, BooleanFalse, BooleanTrue, Not, Or

from .errors import EvaluationError

__all__ = ["approximate", "enclose", "Certificate", "certify_nonzero"]

MPF = tuple  # mpmath's raw (sign, man, exp, bc) number
Interval = tuple[MPF, MPF]  # outward-rounded [lower, upper]
Value = Fraction | Interval  # what the certified walker computes: exact while it can be

# exp of an argument beyond 2**40 has ~10**12 digits: refuse instead of hanging
_EXP_LIMIT = from_int(2**40)
# sin/cos argument reduction costs about as many bits as the argument's magnitude
_TRIG_MAX_BITS = 1024
# tanh/erf/erfc are clamped beyond this (monotone bound; their tails are below 2**-(2**32))
_SATURATION = from_int(2**16)
# above this erfc uses its asymptotic series only (relative accuracy 2**-830 or better)
_ERFC_SERIES_MAX = from_int(24)
# exact rationals bigger than this are demoted to intervals to keep every step fast
_EXACT_MAX_BITS = 200_000
_MAX_SERIES_TERMS = 100_000
_GUARD_BITS = 20
_LOG2_E = 1.4426950408889634


# failures of the host machinery that mean "cannot evaluate", never "wrong value"
_BUILTIN_FAILURES = (RecursionError, ZeroDivisionError, OverflowError, ValueError)


class _Undecided(EvaluationError):
    """An enclosure straddles 0 where a sign or branch must be known; more precision may help."""


# --------------------------------------------------------------------------- shared helpers


def _short(node: Any, limit: int = 60) -> str:
    text = " ".join(str(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _float_fraction(f: sympy.Float) -> Fraction:
    """The exact binary value of a SymPy Float."""
    p, q = to_rational(f._mpf_)
    return Fraction(p, q)


def _to_fraction(v: Any) -> Fraction:
    """A point coordinate as an exact rational (Floats count as their binary value)."""
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return Fraction(v)
    v = sympy.sympify(v)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    if v.is_Float:
        return _float_fraction(v)
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
            return arith.exact(_float_fraction(node))
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
        raise _Undecided(f"undecided sign in {_short(node)}")

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
                raise _Undecided(f"undecided condition {_short(pair.cond)}")
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


# --------------------------------------------------------------------------- raw interval helpers


def _iv_rational(q: Fraction, prec: int) -> Interval:
    p, d = q.numerator, q.denominator
    return from_rational(p, d, prec, round_floor), from_rational(p, d, prec, round_ceiling)


def _pt(x: MPF) -> Interval:
    return (x, x)


def _int(n: int) -> Interval:
    return _pt(from_int(n))


def _mpf_min(xs: Iterable[MPF]) -> MPF:
    return functools.reduce(lambda a, b: a if mpf_lt(a, b) else b, xs)


def _mpf_max(xs: Iterable[MPF]) -> MPF:
    return functools.reduce(lambda a, b: a if mpf_gt(a, b) else b, xs)


def _hull(*xs: Interval) -> Interval:
    return _mpf_min(x[0] for x in xs), _mpf_max(x[1] for x in xs)


def _signs(x: Interval) -> tuple[int, int]:
    return mpf_sign(x[0]), mpf_sign(x[1])


def _shift(x: Interval, n: int) -> Interval:
    """Multiply by 2**n, exactly."""
    return mpf_shift(x[0], n), mpf_shift(x[1], n)


def _bits(x: MPF) -> int:
    """An upper bound of log2|x| (mpmath's exponent + bit count)."""
    return x[2] + x[3] if x[1] else -(10**9)


def _widen(x: Interval, prec: int) -> Interval:
    """Widen by a relative 2**-(prec-4): a margin over mpmath's directed last-bit rounding."""
    eps = mpf_shift(fone, -(prec - 4))
    return mpi_mul(x, (mpf_sub(fone, eps), mpf_add(fone, eps)), prec)  # exact factors


def _exp_interval(x: Interval, prec: int) -> Interval:
    if any(mpf_gt(mpf_abs(v), _EXP_LIMIT) for v in x):
        raise EvaluationError("exponential of an astronomically large argument")
    return _widen(mpi_exp(x, prec), prec)


def _positive_series(first: Interval, ratio: Callable[[int], Interval], prec: int) -> Interval:
    """Σ t_n with t_0 = first > 0, t_{n+1} = t_n·ratio(n), ratio ≥ 0 non-increasing in n.

    Once ratio(n+1) ≤ 1/2 the tail after t_{n+1} is at most t_{n+1}·(1 + 1/2 + …) = 2·t_{n+1}.
    """
    tol = -(prec + 4)
    total = term = first
    for n in range(_MAX_SERIES_TERMS):
        term = mpi_mul(term, ratio(n), prec)
        small = _bits(term[1]) < _bits(total[0]) - 1 + tol
        if small and not mpf_gt(ratio(n + 1)[1], mpf_shift(fone, -1)):
            return mpi_add(total, (fzero, mpf_shift(term[1], 1)), prec)
        total = mpi_add(total, term, prec)
    raise EvaluationError("series did not converge")


def _alternating_series(first: Interval, ratio: Callable[[int], Interval], prec: int) -> Interval:
    """Σ (-1)^n a_n with a_0 = first > 0, a_{n+1} = a_n·ratio(n), 0 ≤ ratio < 1.

    The magnitudes decrease, so the remainder lies between 0 and the first omitted term.
    """
    tol = -(prec + 4)
    total = magnitude = first
    for n in range(_MAX_SERIES_TERMS):
        magnitude = mpi_mul(magnitude, ratio(n), prec)
        term = magnitude if n % 2 else mpi_neg(magnitude)
        if _bits(magnitude[1]) < _bits(total[0]) - 1 + tol:
            return mpi_add(total, _hull(term, _pt(fzero)), prec)
        total = mpi_add(total, term, prec)
    raise EvaluationError("series did not converge")


# --------------------------------------------------------------------------- certified arithmetic


class _Enclosure:
    """Exact rationals while possible, outward-rounded intervals at ``prec`` bits otherwise."""

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self.wp = prec + _GUARD_BITS  # working precision inside series

    # -- conversions -------------------------------------------------------------------------
    def exact(self, q: Fraction) -> Value:
        return q if _small(q) else _iv_rational(q, self.prec)

    def iv(self, x: Value) -> Interval:
        return _iv_rational(x, self.prec) if isinstance(x, Fraction) else x

    def sign_bounds(self, x: Value) -> tuple[int, int]:
        if isinstance(x, Fraction):
            s = (x > 0) - (x < 0)
            return s, s
        return _signs(x)

    def _finite(self, x: Interval, what: str) -> Interval:
        if any(v[1] == 0 and v[2] != 0 for v in x):  # ±inf / nan have a zero mantissa
            raise _Undecided(f"unbounded enclosure in {what}")
        return x

    # -- constants ---------------------------------------------------------------------------
    def pi(self) -> Interval:
        return _widen(mpi_pi(self.prec), self.prec)

    def e(self) -> Interval:
        return _widen(mpi_exp(_pt(fone), self.prec), self.prec)

    # -- field operations --------------------------------------------------------------------
    def add(self, xs: Iterable[Value]) -> Value:
        exact, acc = Fraction(0), None
        for x in xs:
            if isinstance(x, Fraction):
                exact += x
            else:
                acc = x if acc is None else mpi_add(acc, x, self.prec)
        if acc is None:
            return self.exact(exact)
        return acc if exact == 0 else mpi_add(acc, self.iv(exact), self.prec)

    def neg(self, x: Value) -> Value:
        return -x if isinstance(x, Fraction) else mpi_neg(x)

    def mul(self, xs: Iterable[Value]) -> Value:
        exact, acc = Fraction(1), None
        for x in xs:
            if isinstance(x, Fraction):
                exact *= x
            else:
                acc = x if acc is None else mpi_mul(acc, x, self.prec)
        if acc is None or exact == 0:  # 0 times a finite real is exactly 0
            return self.exact(exact)
        return acc if exact == 1 else mpi_mul(acc, self.iv(exact), self.prec)

    def pow_int(self, x: Value, n: int) -> Value:
        if isinstance(x, Fraction):
            if x == 0 and n < 0:
                raise EvaluationError("division by zero")
            size = max(x.numerator.bit_length(), x.denominator.bit_length()) * abs(n)
            if size <= _EXACT_MAX_BITS:
                return x**n
            x = self.iv(x)
        if n < 0:
            lo, hi = _signs(x)
            if lo == hi == 0:
                raise EvaluationError("division by zero")
            if lo <= 0 <= hi:
                raise _Undecided("undecided: dividing by an enclosure that contains 0")
        return self._finite(mpi_pow_int(x, n, self.prec), "a power")

    def sqrt(self, x: Value) -> Value:
        if isinstance(x, Fraction):
            if x < 0:
                raise EvaluationError("square root of a negative number")
            p, q = math.isqrt(x.numerator), math.isqrt(x.denominator)
            if p * p == x.numerator and q * q == x.denominator:
                return Fraction(p, q)
        x = self.iv(x)
        lo, hi = _signs(x)
        if hi < 0:
            raise EvaluationError("square root of a negative number")
        if lo < 0:
            raise _Undecided("undecided sign under a square root")
        return mpi_sqrt(x, self.prec)  # correctly rounded: no widening needed

    def pow_real(self, b: Value, y: Value) -> Value:
        """b**y for a non-integer exponent: real (principal branch) only for b > 0, or b = 0 < y."""
        lo, hi = self.sign_bounds(b)
        if lo == hi == 0:
            ylo, yhi = self.sign_bounds(y)
            if ylo > 0:
                return Fraction(0)
            if yhi <= 0:
                raise EvaluationError("zero to a non-positive power")
            raise _Undecided("undecided sign of an exponent")
        if hi < 0:
            raise EvaluationError("a negative number to a non-integer power is not real")
        if lo <= 0:
            raise _Undecided("undecided sign of a power's base")
        return self.exp(self.mul([y, self.log(b)]))

    # -- elementary functions ----------------------------------------------------------------
    def exp(self, x: Value) -> Value:
        if _is(x, 0):
            return Fraction(1)
        return _exp_interval(self.iv(x), self.prec)

    def log(self, x: Value) -> Value:
        if _is(x, 1):
            return Fraction(0)
        lo, hi = self.sign_bounds(x)
        if hi <= 0:
            raise EvaluationError("logarithm of a non-positive number")
        if lo <= 0:
            raise _Undecided("undecided sign under a logarithm")
        return _widen(mpi_log(self.iv(x), self.prec), self.prec)

    def _cos_sin(self, x: Interval) -> tuple[Interval, Interval]:
        if max(_bits(x[0]), _bits(x[1])) > _TRIG_MAX_BITS:
            raise EvaluationError("trigonometric function of an astronomically large argument")
        c, s = mpi_cos_sin(x, self.wp)
        return _widen(c, self.wp), _widen(s, self.wp)

    def sin(self, x: Value) -> Value:
        return Fraction(0) if _is(x, 0) else self._round(self._cos_sin(self.iv(x))[1])

    def cos(self, x: Value) -> Value:
        return Fraction(1) if _is(x, 0) else self._round(self._cos_sin(self.iv(x))[0])

    def tan(self, x: Value) -> Value:
        if _is(x, 0):
            return Fraction(0)
        c, s = self._cos_sin(self.iv(x))
        lo, hi = _signs(c)
        if lo <= 0 <= hi:
            raise _Undecided("undecided: tan near a pole")
        return mpi_div(s, c, self.prec)

    def _round(self, x: Interval) -> Interval:
        """Round a working-precision result outward to ``prec`` bits."""
        return mpi_add(x, (fzero, fzero), self.prec)

    def abs(self, x: Value) -> Value:
        return abs(x) if isinstance(x, Fraction) else mpi_abs(x)

    def max(self, xs: list[Value]) -> Value:
        if all(isinstance(x, Fraction) for x in xs):
            return max(xs)
        ivs = [self.iv(x) for x in xs]
        return _mpf_max(x[0] for x in ivs), _mpf_max(x[1] for x in ivs)

    def min(self, xs: list[Value]) -> Value:
        if all(isinstance(x, Fraction) for x in xs):
            return min(xs)
        ivs = [self.iv(x) for x in xs]
        return _mpf_min(x[0] for x in ivs), _mpf_min(x[1] for x in ivs)

    # -- odd increasing functions: evaluated on x > 0, then by symmetry ----------------------
    def _odd(self, positive: Callable[[Interval], Interval], x: Value) -> Value:
        if _is(x, 0):
            return Fraction(0)
        x = self.iv(x)
        lo, hi = _signs(x)
        if lo > 0:
            return self._round(positive(x))
        if hi < 0:
            return self._round(mpi_neg(positive(mpi_neg(x))))
        # straddles 0: increasing, so the image is [f(lo), f(hi)]
        a = mpi_neg(positive(_pt(mpf_neg(x[0]))))[0] if lo < 0 else fzero
        b = positive(_pt(x[1]))[1] if hi > 0 else fzero
        return self._round((a, b))

    def sinh(self, x: Value) -> Value:
        return self._odd(self._sinh_pos, x)

    def tanh(self, x: Value) -> Value:
        return self._odd(self._tanh_pos, x)

    def asinh(self, x: Value) -> Value:
        return self._odd(self._asinh_pos, x)

    def atan(self, x: Value) -> Value:
        return self._odd(self._atan_pos, x)

    def erf(self, x: Value) -> Value:
        return self._odd(self._erf_pos, x)

    def cosh(self, x: Value) -> Value:
        """cosh x = 1 + 2·sinh(x/2)²: no cancellation near 0 and exact evenness."""
        if _is(x, 0):
            return Fraction(1)
        s = self.sinh(self.mul([x, Fraction(1, 2)]))
        return self.add([Fraction(1), self.mul([Fraction(2), self.pow_int(s, 2)])])

    def erfc(self, x: Value) -> Value:
        if _is(x, 0):
            return Fraction(1)
        x = self.iv(x)
        lo, hi = _signs(x)
        if lo > 0:
            return self._round(self._erfc_pos(x))
        if hi < 0:  # erfc(-t) = 1 + erf(t): a sum, no cancellation
            return self._round(mpi_add(_int(1), self._erf_pos(mpi_neg(x)), self.wp))
        return self.add([Fraction(1), self.neg(self.erf(x))])

    # -- the positive-argument kernels (x > 0, an interval; results at working precision) --
    def _expm1_pos(self, x: Interval) -> Interval:
        wp = self.wp
        if mpf_gt(x[1], fone):  # e^x - 1 > 1.7: no cancellation to avoid
            return mpi_sub(_exp_interval(x, wp), _int(1), wp)
        return _positive_series(x, lambda n: mpi_div(x, _int(n + 2), wp), wp)

    def _sinh_pos(self, x: Interval) -> Interval:
        # with E = e^x - 1: sinh x = (E + E/(E+1))/2; both terms increase with E, so the
        # interval evaluation is tight
        wp = self.wp
        big = self._expm1_pos(x)
        frac = mpi_div(_int(1), mpi_add(_int(1), mpi_div(_int(1), big, wp), wp), wp)
        return _shift(mpi_add(big, frac, wp), -1)

    def _tanh_pos(self, x: Interval) -> Interval:
        # tanh x = E/(E+2) = 1/(1 + 2/E) with E = e^{2x} - 1: one occurrence of E (tight) and
        # no overflow or cancellation at either end; beyond the saturation point use monotonicity
        wp = self.wp
        if mpf_gt(x[1], _SATURATION):
            return self._tanh_pos(_pt(_mpf_min([x[0], _SATURATION])))[0], fone
        big = self._expm1_pos(_shift(x, 1))
        return mpi_div(_int(1), mpi_add(_int(1), mpi_div(_int(2), big, wp), wp), wp)

    def _asinh_pos(self, x: Interval) -> Interval:
        wp = self.wp
        if mpf_gt(x[1], mpf_shift(fone, -1)):
            root = mpi_sqrt(mpi_add(mpi_square(x, wp), _int(1), wp), wp)
            return _widen(mpi_log(mpi_add(x, root, wp), wp), wp)
        # asinh x = Σ (-1)^n (2n)!/(4^n n!² (2n+1)) x^{2n+1};
        # term ratio x²(2n+1)²/((2n+2)(2n+3)) < x² ≤ 1/4
        x2 = mpi_square(x, wp)

        def ratio(n: int) -> Interval:
            numerator = mpi_mul(x2, _int((2 * n + 1) ** 2), wp)
            return mpi_div(numerator, _int((2 * n + 2) * (2 * n + 3)), wp)

        return _alternating_series(x, ratio, wp)

    def _atan_pos(self, x: Interval) -> Interval:
        # atan x = 2·atan(y), y = x/(1 + sqrt(1 + x²)) = 1/(u + sqrt(u² + 1)), u = 1/x: the
        # second form is monotone in u (tight). Halve until y ≤ 1/16, then the Taylor series.
        wp, halvings = self.wp, 0
        while mpf_gt(x[1], mpf_shift(fone, -4)):
            u = mpi_div(_int(1), x, wp)
            root = mpi_sqrt(mpi_add(mpi_square(u, wp), _int(1), wp), wp)
            x = mpi_div(_int(1), mpi_add(u, root, wp), wp)
            halvings += 1
        x2 = mpi_square(x, wp)
        # atan x = Σ (-1)^n x^{2n+1}/(2n+1); term ratio x²(2n+1)/(2n+3) < x² ≤ 1/256
        def ratio(n: int) -> Interval:
            return mpi_div(mpi_mul(x2, _int(2 * n + 1), wp), _int(2 * n + 3), wp)

        return _shift(_alternating_series(x, ratio, wp), halvings)

    # erf / erfc ---------------------------------------------------------------------------
    def _sqrt_pi(self, wp: int) -> Interval:
        return mpi_sqrt(_widen(mpi_pi(wp), wp), wp)

    def _asymptotic_bits(self, x: MPF) -> float:
        """log2 of 1/e^{-x²}: the relative accuracy the erfc asymptotic series can reach."""
        t = to_float(x)
        return t * t * _LOG2_E

    def _erf_pos(self, x: Interval) -> Interval:
        if mpf_gt(x[1], _SATURATION):  # increasing and below 1
            return self._erf_pos(_pt(_mpf_min([x[0], _SATURATION])))[0], fone
        bits = self._asymptotic_bits(x[0])
        # erf = 1 - erfc needs erfc only to absolute 2**-prec, and erfc ≈ 2**-bits itself
        if 2 * bits >= self.prec + 2 * _GUARD_BITS:
            needed = self.prec + 2 * _GUARD_BITS - int(bits)
            return mpi_sub(_int(1), self._erfc_asymptotic(x, needed), self.wp)
        return self._erf_series(x, self.wp)

    def _erfc_pos(self, x: Interval) -> Interval:
        if mpf_gt(x[1], _SATURATION):  # decreasing and above 0
            return fzero, self._erfc_pos(_pt(_mpf_min([x[0], _SATURATION])))[1]
        bits = self._asymptotic_bits(x[0])
        # beyond x = 24 the asymptotic series is good to 2**-830 relative: enough, and the
        # series below would need ~2x² terms
        if bits >= self.prec + 2 * _GUARD_BITS or mpf_gt(x[0], _ERFC_SERIES_MAX):
            return self._erfc_asymptotic(x, self.prec + 2 * _GUARD_BITS)
        # erfc = 1 - erf cancels about x²·log2(e) bits: compute erf with that many more
        t = to_float(x[1])
        wp = self.wp + int(t * t * _LOG2_E) + _GUARD_BITS
        return mpi_sub(_int(1), self._erf_series(x, wp), wp)

    def _erf_series(self, x: Interval, wp: int) -> Interval:
        """erf x = 2/√π · e^{-x²} · Σ 2^n x^{2n+1}/(2n+1)!! (positive terms: no cancellation)."""
        x2 = mpi_square(x, wp)
        two_x2 = _shift(x2, 1)
        total = _positive_series(x, lambda n: mpi_div(two_x2, _int(2 * n + 3), wp), wp)
        scale = mpi_div(_shift(_exp_interval(mpi_neg(x2), wp), 1), self._sqrt_pi(wp), wp)
        return mpi_mul(total, scale, wp)

    def _erfc_asymptotic(self, x: Interval, bits: int) -> Interval:
        """erfc x = e^{-x²}/(x√π) · Σ (-1)^m (2m-1)!!/(2x²)^m; for real x > 0 the series is
        enveloping: the remainder has the sign of, and is smaller than, the first omitted term.
        Summed until the terms are below 2**-bits or stop decreasing."""
        wp = self.wp
        x2 = mpi_square(x, wp)
        two_x2 = _shift(x2, 1)
        tol = -bits
        total = term = _int(1)
        for m in range(_MAX_SERIES_TERMS):
            term = mpi_mul(term, mpi_div(_int(-(2 * m + 1)), two_x2, wp), wp)  # t_{m+1}
            next_ratio_below_1 = mpf_lt(from_int(2 * m + 3), two_x2[0])
            small = max(_bits(mpf_abs(term[0])), _bits(mpf_abs(term[1]))) < tol
            if small or not next_ratio_below_1:  # term is the first omitted one
                break
            total = mpi_add(total, term, wp)
        total = mpi_add(total, _hull(term, _pt(fzero)), wp)
        prefactor = mpi_div(_exp_interval(mpi_neg(x2), wp), mpi_mul(x, self._sqrt_pi(wp), wp), wp)
        return mpi_mul(total, prefactor, wp)


def _is(x: Value, q: int) -> bool:
    """Is x exactly the rational q (intervals never are: they stand for unknown reals)?"""
    return isinstance(x, Fraction) and x == q


def _small(q: Fraction) -> bool:
    return q.numerator.bit_length() + q.denominator.bit_length() <= _EXACT_MAX_BITS


# --------------------------------------------------------------------------- fast approximation


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

    def exp(self, x: mpmath.mpf) -> mpmath.mpf:
        _check_exp(x)
        return mpmath.exp(x)

    def log(self, x: mpmath.mpf) -> mpmath.mpf:
        if x <= 0:
            raise EvaluationError("logarithm of a non-positive number")
        return mpmath.log(x)

    def sin(self, x: mpmath.mpf) -> mpmath.mpf:
        _check_trig(x)
        return mpmath.sin(x)

    def cos(self, x: mpmath.mpf) -> mpmath.mpf:
        _check_trig(x)
        return mpmath.cos(x)

    def tan(self, x: mpmath.mpf) -> mpmath.mpf:
        _check_trig(x)
        return mpmath.tan(x)

    def sinh(self, x: mpmath.mpf) -> mpmath.mpf:
        _check_exp(x)
        return mpmath.sinh(x)

    def cosh(self, x: mpmath.mpf) -> mpmath.mpf:
        _check_exp(x)
        return mpmath.cosh(x)

    def tanh(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.tanh(x)

    def asinh(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.asinh(x)

    def atan(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.atan(x)

    def erf(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.erf(x)

    def erfc(self, x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.erfc(x)

    def abs(self, x: mpmath.mpf) -> mpmath.mpf:
        return abs(x)

    def max(self, xs: list[mpmath.mpf]) -> mpmath.mpf:
        return max(xs)

    def min(self, xs: list[mpmath.mpf]) -> mpmath.mpf:
        return min(xs)


def _check_exp(x: mpmath.mpf) -> None:
    if abs(x) > 2**40:
        raise EvaluationError("exponential of an astronomically large argument")


def _check_trig(x: mpmath.mpf) -> None:
    if x != 0 and mpmath.mag(x) > _TRIG_MAX_BITS:
        raise EvaluationError("trigonometric function of an astronomically large argument")


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
        return _Walker(_Enclosure(prec), point).eval(sympy.sympify(expr))
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
    interval = _iv_rational(value, prec) if isinstance(value, Fraction) else value
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
    except EvaluationError:
        return None
    except _BUILTIN_FAILURES:  # e.g. an expression nested too deeply to walk
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
        except _Undecided:
            continue
        if isinstance(enclosure, Fraction):  # decided by exact arithmetic after all
            exact = sympy.Rational(enclosure.numerator, enclosure.denominator)
            return None if exact == 0 else _exact_certificate(exact)
        lo, hi = _signs(enclosure)
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
    if isinstance(mine, Fraction):
        agrees = mine == value
    else:
        lo, hi = _iv_rational(value, 64)
        agrees = not mpf_gt(mine[0], hi) and not mpf_lt(mine[1], lo)
    if not agrees:
        raise EvaluationError(f"SymPy's exact value {value} disagrees with interval evaluation")


def _fraction(x: MPF) -> Fraction:
    p, q = to_rational(x)
    return Fraction(p, q)


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
