"""The second opinion: rigorous interval arithmetic on mpmath, independent of Arb.

:class:`Enclosure` is the arithmetic behind :func:`symcheck.exact.evaluate.recheck_sign`, which
re-checks a certificate found with Arb (:mod:`symcheck.exact.balls`) by a different library and
different algorithms. It keeps a value as an exact :class:`~fractions.Fraction` for as long as
the arithmetic allows and switches to outward-rounded intervals (raw ``mpmath.libmp``
interval tuples, computed at an explicit precision so no global mpmath state is touched) only
for transcendental values.

Rigour: ``+ - * /``, integer powers and ``sqrt`` are correctly rounded outward by mpmath
(exact). ``exp``, ``log``, ``sin``, ``cos``, ``pi`` and ``E`` rely on mpmath's
directed-rounding primitives, and each such result is further widened by ~16 ulps as a margin
against a last-bit slip. mpmath has no rigorous interval ``erf``, ``erfc``, ``tanh``, ``asinh``
or ``atan``: they are built from those primitives with explicit, proven error terms:
alternating-series tails (atan, asinh), geometric tail bounds of positive series (expm1, erf),
the enveloping property of the erfc asymptotic series (DLMF 7.12(i)), and monotonicity. The
tests hold every one of them against Arb and against mpmath's own values.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import cast

import mpmath

from symcheck.core.errors import EvaluationError, Imprecise
from symcheck.exact.mpf import (
    MPF,
    Interval,
    fone,
    from_int,
    from_rational,
    fzero,
    mpf_abs,
    mpf_add,
    mpf_gt,
    mpf_lt,
    mpf_neg,
    mpf_shift,
    mpf_sign,
    mpf_sub,
    mpi_abs,
    mpi_add,
    mpi_cos_sin,
    mpi_div,
    mpi_exp,
    mpi_gamma,
    mpi_log,
    mpi_loggamma,
    mpi_mul,
    mpi_neg,
    mpi_pi,
    mpi_pow_int,
    mpi_sqrt,
    mpi_square,
    mpi_sub,
    round_ceiling,
    round_floor,
    to_float,
    to_int,
)

__all__ = [
    "MPF", "Interval", "Value", "Imprecise", "Enclosure", "iv_rational", "signs", "overlaps",
    "EXP_MAX_ARGUMENT", "TRIG_MAX_BITS",
]

Value = Fraction | Interval  # what the certified arithmetic computes: exact while it can be

# exp of an argument beyond 2**40 has ~10**12 digits: refuse instead of hanging
EXP_MAX_ARGUMENT = 2**40
_EXP_LIMIT = from_int(EXP_MAX_ARGUMENT)
# sin/cos argument reduction costs about as many bits as the argument's magnitude
TRIG_MAX_BITS = 1024
# tanh/erf/erfc are clamped beyond this (monotone bound; their tails are below 2**-(2**32))
_SATURATION = from_int(2**16)
# above this erfc uses its asymptotic series only (relative accuracy 2**-830 or better)
_ERFC_SERIES_MAX = from_int(24)
# exact rationals bigger than this are demoted to intervals to keep every step fast
_EXACT_MAX_BITS = 200_000
_MAX_SERIES_TERMS = 100_000
_GUARD_BITS = 20
_LOG2_E = 1.4426950408889634




# --------------------------------------------------------------------------- raw interval helpers


def iv_rational(q: Fraction, prec: int) -> Interval:
    """The rational q, rounded outward to ``prec`` bits."""
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


def signs(x: Interval) -> tuple[int, int]:
    return mpf_sign(x[0]), mpf_sign(x[1])


def overlaps(x: Interval, y: Interval) -> bool:
    """Do the two intervals share a point?"""
    return not mpf_gt(x[0], y[1]) and not mpf_lt(x[1], y[0])


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


def _is(x: Value, q: int) -> bool:
    """Is x exactly the rational q (intervals never are: they stand for unknown reals)?"""
    return isinstance(x, Fraction) and x == q


def _small(q: Fraction) -> bool:
    return q.numerator.bit_length() + q.denominator.bit_length() <= _EXACT_MAX_BITS


def _saturated(x: Interval) -> Interval:
    """The point min(lower end of x, _SATURATION): for x reaching beyond saturation, a
    monotone kernel there bounds one end and its limit bounds the other."""
    return _pt(_mpf_min([x[0], _SATURATION]))


def _sqrt_pi(wp: int) -> Interval:
    return mpi_sqrt(_widen(mpi_pi(wp), wp), wp)


def _asymptotic_bits(x: MPF) -> float:
    """log2 of 1/e^{-x²}: the relative accuracy the erfc asymptotic series can reach."""
    t = to_float(x)
    return t * t * _LOG2_E


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


def _increasing(kernel: Callable[[Interval], Interval], x: Interval,
                negate: bool = False) -> Interval:
    """An increasing kernel over x from its two end points (``negate``: a decreasing kernel,
    given -x). Evaluated on the whole interval a kernel can be far wider than the function
    (erf's series times e^{-x²} take x's width twice, and erfc = 1 - erf magnifies that)."""
    def f(v: MPF) -> Interval:
        return kernel(_pt(mpf_neg(v) if negate else v))

    if x[0] == x[1]:
        return f(x[0])
    return f(x[0])[0], f(x[1])[1]


# --------------------------------------------------------------------------- certified arithmetic


class Enclosure:
    """Exact rationals while possible, outward-rounded intervals at ``prec`` bits otherwise."""

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self.wp = prec + _GUARD_BITS  # working precision inside series

    # -- conversions -------------------------------------------------------------------------
    def rational(self, p: int, q: int = 1) -> Value:
        return self.exact(Fraction(p, q))

    def exact(self, q: Fraction) -> Value:
        return q if _small(q) else iv_rational(q, self.prec)

    def iv(self, x: Value) -> Interval:
        return iv_rational(x, self.prec) if isinstance(x, Fraction) else x

    def sign_bounds(self, x: Value) -> tuple[int, int]:
        if isinstance(x, Fraction):
            s = (x > 0) - (x < 0)
            return s, s
        return signs(x)

    def hull(self, xs: list[Value]) -> Value:
        """The smallest value (exact if they all agree) containing every one of ``xs``."""
        if all(isinstance(x, Fraction) for x in xs) and len(set(xs)) == 1:
            return xs[0]
        return _hull(*(self.iv(x) for x in xs))

    def _finite(self, x: Interval, what: str) -> Interval:
        if any(v[1] == 0 and v[2] != 0 for v in x):  # ±inf / nan have a zero mantissa
            raise Imprecise(f"unbounded enclosure in {what}")
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
            lo, hi = signs(x)
            if lo == hi == 0:
                raise EvaluationError("division by zero")
            if lo <= 0 <= hi:
                raise Imprecise("undecided: dividing by an enclosure that contains 0")
        return self._finite(mpi_pow_int(x, n, self.prec), "a power")

    def sqrt(self, x: Value) -> Value:
        if isinstance(x, Fraction):
            if x < 0:
                raise EvaluationError("square root of a negative number")
            p, q = math.isqrt(x.numerator), math.isqrt(x.denominator)
            if p * p == x.numerator and q * q == x.denominator:
                return Fraction(p, q)
        x = self.iv(x)
        lo, hi = signs(x)
        if hi < 0:
            raise EvaluationError("square root of a negative number")
        if lo < 0:
            raise Imprecise("undecided sign under a square root")
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
            raise Imprecise("undecided sign of an exponent")
        if hi < 0:
            raise EvaluationError("a negative number to a non-integer power is not real")
        if lo <= 0:
            raise Imprecise("undecided sign of a power's base")
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
            raise Imprecise("undecided sign under a logarithm")
        return _widen(mpi_log(self.iv(x), self.prec), self.prec)

    def _cos_sin(self, x: Interval) -> tuple[Interval, Interval]:
        if max(_bits(x[0]), _bits(x[1])) > TRIG_MAX_BITS:
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
        lo, hi = signs(c)
        if lo <= 0 <= hi:
            raise Imprecise("undecided: tan near a pole")
        return mpi_div(s, c, self.prec)

    def _round(self, x: Interval) -> Interval:
        """Round a working-precision result outward to ``prec`` bits."""
        return mpi_add(x, (fzero, fzero), self.prec)

    def abs(self, x: Value) -> Value:
        return abs(x) if isinstance(x, Fraction) else mpi_abs(x)

    def max(self, xs: list[Value]) -> Value:
        return self._lattice(xs, max, _mpf_max)

    def min(self, xs: list[Value]) -> Value:
        return self._lattice(xs, min, _mpf_min)

    def _lattice(self, xs: list[Value], exact: Callable[[list[Fraction]], Fraction],
                 bound: Callable[[Iterable[MPF]], MPF]) -> Value:
        """max or min: of the rationals exactly, else endpoint-wise (both are monotone)."""
        if all(isinstance(x, Fraction) for x in xs):
            return exact(cast(list[Fraction], xs))
        ivs = [self.iv(x) for x in xs]
        return bound(x[0] for x in ivs), bound(x[1] for x in ivs)

    # -- odd increasing functions: evaluated on x > 0, then by symmetry ----------------------
    def _odd(self, positive: Callable[[Interval], Interval], x: Value) -> Value:
        if _is(x, 0):
            return Fraction(0)
        x = self.iv(x)
        lo, hi = signs(x)
        if lo > 0:
            return self._round(_increasing(positive, x))
        if hi < 0:
            return self._round(mpi_neg(_increasing(positive, mpi_neg(x))))
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
        lo, hi = signs(x)
        if lo > 0:  # decreasing
            low, high = _increasing(self._erfc_pos, mpi_neg(x), negate=True)
            return self._round((low, high))
        if hi < 0:  # erfc(-t) = 1 + erf(t): a sum, no cancellation
            erf = _increasing(self._erf_pos, mpi_neg(x))
            return self._round(mpi_add(_int(1), erf, self.wp))
        return self.add([Fraction(1), self.neg(self.erf(x))])

    # -- the functions of symcheck.core.functions beyond the elementary ones ---------------
    # Built from the rigorous operations above (so each inherits their proven error terms):
    # asin x = 2·atan(x/(1 + √(1 − x²))), acos x = 2·atan(√((1 − x)/(1 + x))) for x ≥ 0 and
    # π/2 − asin x otherwise, atanh x = asinh(x/√((1 − x)(1 + x))), acosh x = asinh(√((x − 1)(x + 1))).
    # The interval evaluation of a formula is an enclosure whatever its width (dependency only
    # widens it); at the points a witness is re-checked at, the values are narrow.

    def _check_domain(self, x: Value, low: int | None, high: int | None, closed: bool, what: str) -> None:
        for end, side in ((low, 1), (high, -1)):
            if end is None:
                continue
            lo, hi = self.sign_bounds(self.mul([Fraction(side), self.add([x, Fraction(-end)])]))
            if hi < 0 or (hi == 0 and not closed):
                raise EvaluationError(f"{what} of a number outside its domain")
            if lo < 0 or (lo == 0 and not closed):
                raise Imprecise(f"undecided: {what} of an interval reaching outside its domain")

    def asin(self, x: Value) -> Value:
        self._check_domain(x, -1, 1, True, "asin")
        if _is(x, 0):
            return Fraction(0)
        root = self.sqrt(self.add([Fraction(1), self.neg(self.pow_int(x, 2))]))
        y = self.mul([x, self.pow_int(self.add([Fraction(1), root]), -1)])
        return self.mul([Fraction(2), self.atan(y)])

    def acos(self, x: Value) -> Value:
        self._check_domain(x, -1, 1, True, "acos")
        if _is(x, 1):
            return Fraction(0)
        if self.sign_bounds(x)[0] >= 0:
            ratio = self.mul([self.add([Fraction(1), self.neg(x)]), self.pow_int(self.add([Fraction(1), x]), -1)])
            return self.mul([Fraction(2), self.atan(self.sqrt(ratio))])
        return self.add([self.mul([Fraction(1, 2), self.pi()]), self.neg(self.asin(x))])

    def atanh(self, x: Value) -> Value:
        self._check_domain(x, -1, 1, False, "atanh")
        if _is(x, 0):
            return Fraction(0)
        inner = self.mul([self.add([Fraction(1), self.neg(x)]), self.add([Fraction(1), x])])
        return self.asinh(self.mul([x, self.pow_int(self.sqrt(inner), -1)]))

    def acosh(self, x: Value) -> Value:
        self._check_domain(x, 1, None, True, "acosh")
        inner = self.mul([self.add([x, Fraction(-1)]), self.add([x, Fraction(1)])])
        return self.asinh(self.sqrt(inner))

    def floor(self, x: Value) -> Value:
        """Exact for an exact argument, and for an interval whose ends have the same floor; else
        the interval of the integers between the floors of its ends (never decided by a guess)."""
        if isinstance(x, Fraction):
            return Fraction(math.floor(x))
        low, high = to_int(x[0], round_floor), to_int(x[1], round_floor)
        if low == high:
            return Fraction(low)
        return from_int(low), from_int(high)

    def ceiling(self, x: Value) -> Value:
        return self.neg(self.floor(self.neg(x)))

    def gamma(self, x: Value) -> Value:
        """Γ(x) for x > 0 (what symcheck proves of gamma's argument): exact at integers up to 100,
        else mpmath's interval gamma, widened like the other primitives."""
        if isinstance(x, Fraction) and x.denominator == 1 and 0 < x <= 100:
            return Fraction(math.factorial(x.numerator - 1))
        lo, hi = self.sign_bounds(x)
        if hi <= 0:
            raise EvaluationError("gamma is re-checked for positive arguments only")
        if lo <= 0:
            raise Imprecise("undecided sign under gamma")
        return self._finite(_widen(mpi_gamma(self.iv(x), self.wp), self.wp), "gamma")

    def loggamma(self, x: Value) -> Value:
        if _is(x, 1) or _is(x, 2):
            return Fraction(0)
        lo, hi = self.sign_bounds(x)
        if hi <= 0:
            raise EvaluationError("loggamma of a non-positive number")
        if lo <= 0:
            raise Imprecise("undecided sign under loggamma")
        return self._finite(_widen(mpi_loggamma(self.iv(x), self.wp), self.wp), "loggamma")

    def lambertw(self, x: Value) -> Value:
        """W₀(x) for x ≥ −1/e, verified: w·e^w is increasing on [−1, ∞), so W(x) lies in [a, b]
        once a·e^a ≤ x ≤ b·e^b is certified (a ≥ −1), for a and b placed around mpmath's value."""
        if _is(x, 0):
            return Fraction(0)
        x = self.iv(x)
        shifted = mpi_add(x, mpi_div(_int(1), self.e(), self.wp), self.wp)  # x + 1/e
        lo, hi = signs(shifted)
        if hi < 0:
            raise EvaluationError("LambertW of a number below -1/e")
        if lo < 0:
            raise Imprecise("undecided: LambertW of an interval reaching below -1/e")
        return self._round((self._lambertw_bound(x[0], -1), self._lambertw_bound(x[1], 1)))

    def _lambertw_bound(self, x: MPF, side: int) -> MPF:
        """A number on the ``side`` of W₀(x) (−1: at most it, 1: at least it), certified."""
        wp = self.wp
        context = mpmath.MPContext()  # a private context: mpmath's global precision is untouched
        context.prec = wp + 10
        guess = context.lambertw(context.make_mpf(x))
        if guess.imag != 0:
            raise Imprecise("LambertW near its branch point")
        w = guess.real._mpf_
        minus_one = from_int(-1)
        for k in range(8):
            step = mpf_shift(mpf_add(mpf_abs(w), fone, wp), -(wp - 8 - 4 * k))
            candidate = mpf_add(w, step if side > 0 else mpf_neg(step), wp, round_ceiling if side > 0
                                else round_floor)
            if side < 0 and mpf_lt(candidate, minus_one):
                candidate = minus_one  # W ≥ −1 always
            value = mpi_mul(_pt(candidate), _exp_interval(_pt(candidate), wp), wp)  # c·e^c
            if (side > 0 and not mpf_lt(value[0], x)) or (side < 0 and not mpf_gt(value[1], x)):
                return candidate
        raise Imprecise("could not certify an enclosure of LambertW")

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
            return self._tanh_pos(_saturated(x))[0], fone
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
    def _erf_pos(self, x: Interval) -> Interval:
        if mpf_gt(x[1], _SATURATION):  # increasing and below 1
            return self._erf_pos(_saturated(x))[0], fone
        bits, target = _asymptotic_bits(x[0]), self.prec + 2 * _GUARD_BITS
        # erf = 1 - erfc needs erfc only to absolute 2**-prec, and erfc ≈ 2**-bits itself
        if 2 * bits >= target:
            needed = target - int(bits)
            return mpi_sub(_int(1), self._erfc_asymptotic(x, needed), self.wp)
        return self._erf_series(x, self.wp)

    def _erfc_pos(self, x: Interval) -> Interval:
        if mpf_gt(x[1], _SATURATION):  # decreasing and above 0
            return fzero, self._erfc_pos(_saturated(x))[1]
        bits, target = _asymptotic_bits(x[0]), self.prec + 2 * _GUARD_BITS
        # beyond x = 24 the asymptotic series is good to 2**-830 relative: enough, and the
        # series below would need ~2x² terms
        if bits >= target or mpf_gt(x[0], _ERFC_SERIES_MAX):
            return self._erfc_asymptotic(x, target)
        # erfc = 1 - erf cancels about x²·log2(e) bits: compute erf with that many more
        wp = self.wp + int(_asymptotic_bits(x[1])) + _GUARD_BITS
        return mpi_sub(_int(1), self._erf_series(x, wp), wp)

    def _erf_series(self, x: Interval, wp: int) -> Interval:
        """erf x = 2/√π · e^{-x²} · Σ 2^n x^{2n+1}/(2n+1)!! (positive terms: no cancellation)."""
        x2 = mpi_square(x, wp)
        two_x2 = _shift(x2, 1)
        total = _positive_series(x, lambda n: mpi_div(two_x2, _int(2 * n + 3), wp), wp)
        scale = mpi_div(_shift(_exp_interval(mpi_neg(x2), wp), 1), _sqrt_pi(wp), wp)
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
        prefactor = mpi_div(_exp_interval(mpi_neg(x2), wp), mpi_mul(x, _sqrt_pi(wp), wp), wp)
        return mpi_mul(total, prefactor, wp)

