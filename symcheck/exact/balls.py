"""Certified ball arithmetic on python-flint's ``arb`` (FLINT's Arb), exact while it can be.

:class:`BallArithmetic` is the arithmetic behind :func:`symcheck.exact.evaluate.enclose`,
:func:`~symcheck.exact.evaluate.enclose_range` and :func:`~symcheck.exact.evaluate.certify_nonzero`. A value
is an exact ``fmpq`` for as long as the arithmetic stays rational (so ``z + z**3/10**15`` and
piecewise conditions at rational break points are decided exactly) and an ``arb`` ball
otherwise. Every transcendental function is Arb's own, which is rigorous for any input ball;
what is written here is only the glue Arb leaves to its caller:

* domains: a ball that reaches outside a function's domain (``log`` of a ball touching 0) is
  :class:`~symcheck.exact.intervals.Imprecise` — more precision or a smaller box may settle it —
  while one entirely outside it is an :class:`~symcheck.core.errors.EvaluationError`;
* wide balls (boxes rather than points): monotone functions are evaluated at the two end
  points, since Arb's derivative bound can be loose or even NaN (``tanh([0 ± 10**6])``),
  and even powers, ``abs``, ``max``/``min`` are formed from end points so that, for
  instance, a square is never enclosed by a ball reaching below 0.

Arb reads its working precision from one process-wide context (``flint.ctx.prec``, shared by
all threads): every evaluation runs inside :func:`arb_precision`, which sets and restores it
under a lock.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from typing import cast

import flint
from flint import arb, fmpq

from symcheck.core.budget import uninterruptible
from symcheck.core.errors import EvaluationError
from symcheck.exact.intervals import EXP_MAX_ARGUMENT, TRIG_MAX_BITS, Imprecise

__all__ = ["BallArithmetic", "BallValue", "arb_precision", "arb_sign", "arb_sign_bounds",
           "arb_from_interval"]

BallValue = fmpq | arb  # what the arithmetic computes: exact while it can be

# exact rationals bigger than this are demoted to balls to keep every step fast
_EXACT_MAX_BITS = 200_000
_EXP_LIMIT = arb(EXP_MAX_ARGUMENT)
_TRIG_LIMIT = arb(2) ** TRIG_MAX_BITS

# the precision lives in one global, thread-shared context: one evaluation at a time
_PRECISION_LOCK = threading.RLock()


class arb_precision:
    """Run the body with ``flint.ctx.prec = prec`` (restored afterwards), holding a lock.

    Re-entrant within one thread, so a nested evaluation at another precision is safe. A class
    whose set-up and clean-up no time budget interrupts: an expiry between taking the lock and
    the block's protection left it held, and every other thread waited for it for ever.
    """

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self.saved = prec

    @uninterruptible
    def __enter__(self) -> None:
        _PRECISION_LOCK.acquire()
        self.saved = flint.ctx.prec
        flint.ctx.prec = self.prec

    @uninterruptible
    def __exit__(self, *exc_info: object) -> None:
        flint.ctx.prec = self.saved
        _PRECISION_LOCK.release()


def _endpoint_sign(x: arb) -> int:
    # an exact arb: comparisons with 0 decide
    return 1 if x > 0 else -1 if x < 0 else 0


def arb_sign_bounds(x: arb) -> tuple[int, int]:
    """The signs of the lower and upper end of the ball (both exact).

    ``lower()``/``upper()`` round outward, which never moves an end across 0.
    """
    if not x.is_finite():
        raise Imprecise("unbounded enclosure")
    return _endpoint_sign(x.lower()), _endpoint_sign(x.upper())


def arb_sign(ball: arb | fmpq) -> int | None:
    """1 or -1 when the ball excludes 0, 0 when it is exactly 0, None otherwise.

    >>> arb_sign(arb(2).log()), arb_sign(-arb.pi()), arb_sign(arb(0)), arb_sign(arb("[0 +/- 1e-30]"))
    (1, -1, 0, None)
    """
    if isinstance(ball, fmpq):
        return 1 if ball > 0 else -1 if ball < 0 else 0
    if not ball.is_finite():
        return None
    lo, hi = arb_sign_bounds(ball)
    if lo > 0 or hi < 0:
        return lo if lo > 0 else -1
    return 0 if lo == hi == 0 else None


def arb_from_interval(lo: fmpq, hi: fmpq) -> arb:
    """A ball containing the closed rational interval [lo, hi] (at the ambient precision)."""
    return span(arb(lo).lower(), arb(hi).upper())


def span(a: arb, b: arb) -> arb:
    """A ball containing [a, b] (exact end points, a <= b) whose ends stay close to a and b.

    Arb's ``union`` rounds the radius up to its 30-bit ``mag`` type, which can move the lower
    end below 0 when a is tiny beside b - a (a positive function over a box would lose its
    sign). Here the radius is rounded first and the midpoint placed from it.
    """
    if a == b:
        return a
    half = ((b - a) / 2).upper()
    # room for rounding the midpoint down at the ambient precision
    slack = ((abs(a) + abs(b)) * arb(2) ** (2 - flint.ctx.prec)).upper()
    # the constructor rounds a radius up (deterministically): learn what it will be, then
    # place the midpoint so that the lower end is a, or a hair below
    wanted = half + slack
    radius = arb(0, wanted).rad()
    ball = arb((a + radius).lower(), wanted)
    if ball.lower() <= a and ball.upper() >= b:
        # a tiny end beside a wide span can still slip across 0: never let it
        if a >= 0 > ball.lower():
            return ball.nonnegative_part()
        if b <= 0 < ball.upper():
            return -(-ball).nonnegative_part()
        return ball
    return a.union(b)  # not expected with that slack; Arb's own union is always sound


def _small(q: fmpq) -> bool:
    return q.p.bit_length() + q.q.bit_length() <= _EXACT_MAX_BITS


def _hull(balls: Iterable[arb]) -> arb:
    balls = list(balls)
    return span(_pick([b.lower() for b in balls], False), _pick([b.upper() for b in balls], True))


class BallArithmetic:
    """Exact ``fmpq`` while possible, Arb balls at the ambient precision otherwise.

    Use inside :func:`arb_precision`; ``prec`` is that precision, used to tell a ball that
    is a rounded point from a wide one.
    """

    def __init__(self, prec: int) -> None:
        self.prec = prec
        self._narrow = arb(2) ** (prec // 2)  # exact: a power of two

    # -- conversions -------------------------------------------------------------------------
    def rational(self, p: int, q: int = 1) -> BallValue:
        return self.exact(fmpq(p, q))

    def exact(self, q: fmpq) -> BallValue:
        return q if _small(q) else arb(q)

    @staticmethod
    def ball(x: BallValue) -> arb:
        return arb(x) if isinstance(x, fmpq) else x

    def sign_bounds(self, x: BallValue) -> tuple[int, int]:
        if isinstance(x, fmpq):
            s = 1 if x > 0 else -1 if x < 0 else 0
            return s, s
        return arb_sign_bounds(x)

    def hull(self, xs: list[BallValue]) -> BallValue:
        """The smallest value (exact if they all agree) containing every one of ``xs``."""
        if all(isinstance(x, fmpq) for x in xs) and len(set(xs)) == 1:
            return xs[0]
        return _hull(self.ball(x) for x in xs)

    @staticmethod
    def _finite(x: arb, what: str) -> arb:
        if not x.is_finite():
            raise Imprecise(f"unbounded enclosure in {what}")
        return x

    def _wide(self, x: arb) -> bool:
        """Is the ball more than a rounded point (a box's range, or cancellation)?"""
        rad = x.rad()
        return bool(rad != 0 and rad * self._narrow > abs(x.mid()))

    def _monotone(self, f: Callable[[arb], arb], x: arb, what: str) -> arb:
        """f of the ball x for a monotone f: from the end points when the ball is wide."""
        if not self._wide(x):
            return self._finite(f(x), what)
        return self._finite(_hull([f(x.lower()), f(x.upper())]), what)

    # -- constants ---------------------------------------------------------------------------
    def pi(self) -> arb:
        return arb.pi()

    def e(self) -> arb:
        return arb.const_e()

    # -- field operations --------------------------------------------------------------------
    def add(self, xs: Iterable[BallValue]) -> BallValue:
        exact, acc = fmpq(0), None
        for x in xs:
            if isinstance(x, fmpq):
                exact += x
            else:
                acc = x if acc is None else acc + x
        if acc is None:
            return self.exact(exact)
        return acc if exact == 0 else acc + exact

    def neg(self, x: BallValue) -> BallValue:
        return -x

    def mul(self, xs: Iterable[BallValue]) -> BallValue:
        exact, balls = fmpq(1), []
        for x in xs:
            if isinstance(x, fmpq):
                exact *= x
            else:
                balls.append(x)
        if not balls or exact == 0:  # 0 times a finite real is exactly 0
            return self.exact(exact)
        acc = balls[0]
        for x in balls[1:]:
            acc = acc * x
        return acc if exact == 1 else acc * exact

    def pow_int(self, x: BallValue, n: int) -> BallValue:
        if isinstance(x, fmpq):
            if x == 0 and n < 0:
                raise EvaluationError("division by zero")
            size = max(x.p.bit_length(), x.q.bit_length()) * abs(n)
            if size <= _EXACT_MAX_BITS:
                return x**n
            x = arb(x)
        if n == 0:
            return fmpq(1)
        if n < 0:
            lo, hi = arb_sign_bounds(x)
            if lo == hi == 0:
                raise EvaluationError("division by zero")
            if lo <= 0 <= hi:
                raise Imprecise("undecided: dividing by an enclosure that contains 0")
            return self._finite(cast(arb, 1 / self.pow_int(x, -n)), "a power")  # x is a ball: so is its power
        if n % 2:
            return self._monotone(lambda t: t**n, x, "a power")
        # x**n = |x|**n, increasing on [0, oo); the hull of its end values may dip below 0
        power = self._monotone(lambda t: t**n, cast(arb, self.abs(x)), "a power")
        return power.nonnegative_part() if power.lower() < 0 else power

    def sqrt(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq):
            if x < 0:
                raise EvaluationError("square root of a negative number")
            p, q = x.p.isqrt(), x.q.isqrt()
            if p * p == x.p and q * q == x.q:
                return fmpq(p, q)
            x = arb(x)
        lo, hi = arb_sign_bounds(x)
        if hi < 0:
            raise EvaluationError("square root of a negative number")
        if lo < 0:
            raise Imprecise("undecided sign under a square root")
        return self._monotone(arb.sqrt, x, "a square root")

    def pow_real(self, b: BallValue, y: BallValue) -> BallValue:
        """b**y for a non-integer exponent: real (principal branch) only for b > 0, or b = 0 < y."""
        lo, hi = self.sign_bounds(b)
        if hi < 0:
            raise EvaluationError("a negative number to a non-integer power is not real")
        if lo > 0:
            return self.exp(self.mul([y, self.log(b)]))
        ylo, yhi = self.sign_bounds(y)
        if lo == hi == 0:
            if ylo > 0:
                return fmpq(0)
            if yhi <= 0:
                raise EvaluationError("zero to a non-positive power")
            raise Imprecise("undecided sign of an exponent")
        if lo < 0:
            raise Imprecise("undecided sign of a power's base")
        if ylo <= 0:
            raise Imprecise("undecided sign of an exponent")
        # 0 <= b <= B and y > 0: b**y lies in [0, B**y]
        top = self.ball(self.exp(self.mul([y, self.log(self.ball(b).upper())])))
        return span(arb(0), top.upper())

    # -- elementary functions ----------------------------------------------------------------
    def _check_exp(self, x: arb) -> None:
        if abs(x.mid()) + x.rad() > _EXP_LIMIT:
            raise EvaluationError("exponential of an astronomically large argument")

    def exp(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 0:
            return fmpq(1)
        x = self.ball(x)
        self._check_exp(x)
        return self._monotone(arb.exp, x, "exp")

    def log(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 1:
            return fmpq(0)
        self._positive_argument(x, "logarithm", "a logarithm")
        return self._monotone(arb.log, self.ball(x), "log")

    def log1p(self, x: BallValue) -> BallValue:
        """log(1 + x) without the cancellation of forming 1 + x (log(1 + e^-2000) > 0)."""
        if isinstance(x, fmpq):
            return self.log(1 + x)
        lo, hi = self.sign_bounds(self.add([fmpq(1), x]))
        if hi <= 0:
            raise EvaluationError("logarithm of a non-positive number")
        if lo <= 0:
            raise Imprecise("undecided sign under a logarithm")
        return self._monotone(arb.log1p, x, "log")

    def _check_trig(self, x: arb) -> None:
        if abs(x.mid()) + x.rad() > _TRIG_LIMIT:
            raise EvaluationError("trigonometric function of an astronomically large argument")

    def sin(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 0:
            return fmpq(0)
        x = self.ball(x)
        self._check_trig(x)
        return self._finite(x.sin(), "sin")

    def cos(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 0:
            return fmpq(1)
        x = self.ball(x)
        self._check_trig(x)
        return self._finite(x.cos(), "cos")

    def tan(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 0:
            return fmpq(0)
        x = self.ball(x)
        self._check_trig(x)
        # Arb is rigorous: a ball reaching a pole comes back non-finite
        return self._finite(x.tan(), "tan (near a pole)")

    def _odd(self, f: Callable[[arb], arb], x: BallValue, what: str) -> BallValue:
        """An odd increasing function: exactly 0 at 0."""
        if isinstance(x, fmpq) and x == 0:
            return fmpq(0)
        return self._monotone(f, self.ball(x), what)

    def sinh(self, x: BallValue) -> BallValue:
        if not isinstance(x, fmpq) or x != 0:
            self._check_exp(self.ball(x))
        return self._odd(arb.sinh, x, "sinh")

    def tanh(self, x: BallValue) -> BallValue:
        return self._odd(arb.tanh, x, "tanh")

    def asinh(self, x: BallValue) -> BallValue:
        return self._odd(arb.asinh, x, "asinh")

    def atan(self, x: BallValue) -> BallValue:
        return self._odd(arb.atan, x, "atan")

    def erf(self, x: BallValue) -> BallValue:
        return self._odd(arb.erf, x, "erf")

    def erfc(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 0:
            return fmpq(1)
        return self._monotone(arb.erfc, self.ball(x), "erfc")

    def cosh(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 0:
            return fmpq(1)
        x = self.ball(x)
        self._check_exp(x)
        lo, hi = arb_sign_bounds(x)
        if lo >= 0 or hi <= 0:  # monotone on each side of 0
            return self._monotone(arb.cosh, x, "cosh")
        # the ball contains 0: [1, cosh(max |end|)]
        return _hull([arb(1), self._finite(abs(x).upper().cosh(), "cosh")])

    # -- the inverse trigonometric and hyperbolic functions, on their real domains ----------
    def _in_domain(self, x: BallValue, low: fmpq | None, high: fmpq | None, closed: bool, what: str) -> arb:
        """x as a ball, after checking it lies in [low, high] (open ends unless ``closed``): a
        ball entirely outside is an EvaluationError, one reaching outside is Imprecise."""
        for end, side in ((low, 1), (high, -1)):
            if end is None:
                continue
            lo, hi = self.sign_bounds(self.add([x, -end]) if side == 1 else self.add([end, self.neg(x)]))
            if hi < 0 or (hi == 0 and not closed):
                raise EvaluationError(f"{what} of a number outside its domain")
            if lo < 0 or (lo == 0 and not closed):
                raise Imprecise(f"undecided: {what} of a ball reaching outside its domain")
        return self.ball(x)

    def acos(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 1:
            return fmpq(0)
        ball = self._in_domain(x, fmpq(-1), fmpq(1), True, "acos")
        return self._monotone(arb.acos, ball, "acos")

    def asin(self, x: BallValue) -> BallValue:
        self._in_domain(x, fmpq(-1), fmpq(1), True, "asin")
        return self._odd(arb.asin, x, "asin")

    def atanh(self, x: BallValue) -> BallValue:
        self._in_domain(x, fmpq(-1), fmpq(1), False, "atanh")
        return self._odd(arb.atanh, x, "atanh")

    def acosh(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq) and x == 1:
            return fmpq(0)
        ball = self._in_domain(x, fmpq(1), None, True, "acosh")
        return self._monotone(arb.acosh, ball, "acosh")

    # -- integer parts: exact at exact arguments, else from the two ends of the ball ---------
    def floor(self, x: BallValue) -> BallValue:
        """The floor: exact for an exact argument, and for a ball whose two ends have the same
        floor; otherwise the ball of the integers from floor(lower) to floor(upper) (at a
        point where the argument is an integer it is not exact, the ball straddles: the sign
        of a difference across it stays undecided, never guessed)."""
        if isinstance(x, fmpq):
            return fmpq(x.floor())
        x = self._finite(x, "floor")
        low, high = x.lower().floor(), x.upper().floor()  # ends are exact: so are their floors
        if low == high:
            return self.exact(fmpq(cast(flint.fmpz, low.unique_fmpz())))  # an exact end's floor is an integer
        return span(low, high)

    def ceiling(self, x: BallValue) -> BallValue:
        return self.neg(self.floor(self.neg(x)))

    # -- gamma, log-gamma and the principal branch of Lambert's W ----------------------------
    def gamma(self, x: BallValue) -> BallValue:
        """Gamma off its poles (Arb's, rigorous for any ball; a ball reaching a pole has no
        finite enclosure); at an exact integer n > 0, (n − 1)! exactly."""
        if isinstance(x, fmpq) and x.q == 1:
            if x <= 0:
                raise EvaluationError("gamma at a pole (a non-positive integer)")
            if x <= 100:
                return fmpq(math.factorial(int(x.p) - 1))
        ball = self.ball(x)
        if ball.contains_integer() and not ball > 0:
            raise Imprecise("undecided: gamma of a ball that may hold a pole")
        return self._finite(ball.gamma(), "gamma")

    def loggamma(self, x: BallValue) -> BallValue:
        """log Γ(x) for x > 0 (the real log-gamma function; not real below 0)."""
        if isinstance(x, fmpq) and x in (1, 2):
            return fmpq(0)
        self._positive_argument(x, "loggamma", "loggamma")
        return self._finite(self.ball(x).lgamma(), "loggamma")

    def _positive_argument(self, x: BallValue, name: str, under: str) -> None:
        """x > 0, certified: not defined at or below 0, undecided while the ball touches 0."""
        lo, hi = self.sign_bounds(x)
        if hi <= 0:
            raise EvaluationError(f"{name} of a non-positive number")
        if lo <= 0:
            raise Imprecise(f"undecided sign under {under}")

    def lambertw(self, x: BallValue) -> BallValue:
        """The principal branch W₀, real for x ≥ −1/e and increasing there; W(0) = 0."""
        if isinstance(x, fmpq) and x == 0:
            return fmpq(0)
        ball = self.ball(x)
        shifted = ball + arb.const_e() ** -1  # x + 1/e
        lo, hi = arb_sign_bounds(shifted)
        if hi < 0:  # (an upper end exactly 0 would prove it too: Arb's bound of 1/e is above it)
            raise EvaluationError("LambertW of a number below -1/e")
        if lo < 0:
            raise Imprecise("undecided: LambertW of a ball reaching below -1/e")
        return self._monotone(arb.lambertw, ball, "LambertW")

    def abs(self, x: BallValue) -> BallValue:
        if isinstance(x, fmpq):
            return abs(x)
        lo, hi = arb_sign_bounds(x)
        if lo >= 0:
            return x
        if hi <= 0:
            return -x
        # Arb's own abs keeps |mid| ± rad, which reaches below 0
        return span(arb(0), abs(x).upper())

    def max(self, xs: list[BallValue]) -> BallValue:
        return self._lattice(xs, max)

    def min(self, xs: list[BallValue]) -> BallValue:
        return self._lattice(xs, min)

    def _lattice(self, xs: list[BallValue], pick: Callable[[list[BallValue]], object]) -> BallValue:
        """max or min: of the rationals exactly, else end-point-wise (both are monotone)."""
        if all(isinstance(x, fmpq) for x in xs):
            return cast(fmpq, pick(xs))
        balls = [self.ball(x) for x in xs]
        lows, highs = [b.lower() for b in balls], [b.upper() for b in balls]
        # exact end points: arb comparisons decide them
        return span(_pick(lows, pick is max), _pick(highs, pick is max))


def _pick(points: list[arb], largest: bool) -> arb:
    best = points[0]
    for p in points[1:]:
        if (p > best) if largest else (p < best):
            best = p
    return best
