"""Properties of the certified arithmetic on random expressions at random rationals.

* the Arb enclosure contains mpmath's 60-digit value, and so does the second opinion;
* ``certify_nonzero`` never certifies a value that is exactly 0 (identities built around
  random subexpressions), and ``recheck_sign`` never calls such a value non-zero;
* where both decide, the certifier and the independent re-check agree on the sign.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mpmath.libmp import to_rational

from symcheck.exact.evaluate import _Walker, certify_nonzero, enclose, recheck_sign
from symcheck.exact.intervals import Enclosure, Imprecise

z = sympy.Symbol("z", real=True)
DPS = 60
TOO_CLOSE = mpmath.mpf(10) ** -40  # a condition this close to 0 at 60 digits: mpmath may err

# (SymPy function, mpmath function) of one argument, defined on all of R
UNARY = [
    (sympy.sin, mpmath.sin), (sympy.cos, mpmath.cos), (sympy.atan, mpmath.atan),
    (sympy.tanh, mpmath.tanh), (sympy.asinh, mpmath.asinh), (sympy.erf, mpmath.erf),
    (sympy.erfc, mpmath.erfc), (sympy.Abs, abs),
    (lambda e: sympy.exp(sympy.sin(e) * 3), lambda t: mpmath.exp(mpmath.sin(t) * 3)),
    (lambda e: sympy.exp(-e**2 / 4), lambda t: mpmath.exp(-t**2 / 4)),
    (lambda e: sympy.sinh(sympy.atan(e) * 2), lambda t: mpmath.sinh(mpmath.atan(t) * 2)),
    (lambda e: sympy.cosh(sympy.tanh(e)), lambda t: mpmath.cosh(mpmath.tanh(t))),
    (lambda e: sympy.sqrt(1 + e**2), lambda t: mpmath.sqrt(1 + t**2)),
    (lambda e: sympy.log(1 + e**2), lambda t: mpmath.log(1 + t**2)),
    (lambda e: sympy.log(1 + sympy.exp(sympy.atan(e) * 7)), lambda t: mpmath.log(1 + mpmath.exp(mpmath.atan(t) * 7))),
    (lambda e: sympy.tan(sympy.atan(e) / 2), lambda t: mpmath.tan(mpmath.atan(t) / 2)),
    (lambda e: sympy.Abs(e) ** sympy.Rational(3, 2), lambda t: abs(t) ** mpmath.mpf(1.5)),
    (lambda e: sympy.Heaviside(e) * e, lambda t: (1 if t > 0 else mpmath.mpf(0.5) if t == 0 else 0) * t),
    (lambda e: sympy.sign(e), mpmath.sign),
]


class Cond:
    """mpmath's verdict on ``value > 0``, refusing (via assume) to call a near tie."""

    @staticmethod
    def positive(value: mpmath.mpf) -> bool:
        assume(abs(value) > TOO_CLOSE)
        return value > 0


BINARY = [
    (lambda x, y: x + y, lambda s, t: s + t),
    (lambda x, y: x - y, lambda s, t: s - t),
    (lambda x, y: x * y, lambda s, t: s * t),
    (lambda x, y: x / (1 + y**2), lambda s, t: s / (1 + t**2)),
    (lambda x, y: sympy.Max(x, y), max),
    (lambda x, y: sympy.Min(x, y), min),
    (lambda x, y: sympy.Piecewise((x, y > 0), (-x, True)),
     lambda s, t: s if Cond.positive(t) else -s),
]

leaves = st.one_of(
    st.just((z, lambda t: t)),
    st.fractions(min_value=-5, max_value=5, max_denominator=50).map(
        lambda q: (sympy.Rational(q.numerator, q.denominator), lambda t, q=q: mpmath.mpf(q.numerator) / q.denominator)),
    st.just((sympy.pi, lambda t: +mpmath.pi)),
)


def _unary(child):
    return st.tuples(st.sampled_from(UNARY), child).map(
        lambda p: (p[0][0](p[1][0]), lambda t, f=p[0][1], g=p[1][1]: f(g(t))))


def _binary(child):
    return st.tuples(st.sampled_from(BINARY), child, child).map(
        lambda p: (p[0][0](p[1][0], p[2][0]),
                   lambda t, f=p[0][1], g=p[1][1], h=p[2][1]: f(g(t), h(t))))


expressions = st.recursive(leaves, lambda child: st.one_of(_unary(child), _binary(child)),
                           max_leaves=6)
points = st.one_of(
    st.fractions(min_value=-10, max_value=10, max_denominator=10**4),
    st.builds(lambda k, s: Fraction(s, 10**k), st.integers(1, 25), st.sampled_from([-1, 1])),
)


def as_fraction(x: mpmath.mpf) -> Fraction:
    return Fraction(*to_rational(x._mpf_))


def contains(lower, upper, value: mpmath.mpf) -> bool:
    q = as_fraction(value)
    slack = abs(q) * Fraction(1, 10**50) + Fraction(1, 10**55)  # the reference's own rounding
    return as_fraction(lower) - slack <= q <= as_fraction(upper) + slack


def second_opinion(expr, q: Fraction, prec: int):
    arith = Enclosure(prec)
    value = _Walker(arith, {z: arith.exact(q)}).eval(expr)
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator, mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mp.make_mpf(value[0]), mpmath.mp.make_mpf(value[1])


@settings(max_examples=300, deadline=None)
@given(pair=expressions, q=points, prec=st.sampled_from([53, 64, 128]))
@pytest.mark.slow
def test_both_enclosures_contain_the_60_digit_value(pair, q, prec):
    expr, reference = pair
    with mpmath.workdps(DPS):
        value = reference(mpmath.mpf(q.numerator) / q.denominator)
        assert mpmath.isfinite(value)
        exact = expr.xreplace({z: sympy.Rational(q.numerator, q.denominator)})
        if exact.is_Rational:  # e.g. sign(sin(pi)) = 0, where 60 digits give sign(1e-61) = 1
            value = mpmath.mpf(int(exact.p)) / int(exact.q)
        try:
            interval = enclose(expr, {z: sympy.Rational(q.numerator, q.denominator)}, prec)
        except Imprecise:  # a branch or sign the enclosure cannot call: no claim made
            return
        lower, upper = (mpmath.mp.make_mpf(end) for end in interval._mpi_)
        assert contains(lower, upper, value), (expr, q, prec, interval, value)
        try:
            lower, upper = second_opinion(expr, q, prec)
        except Imprecise:
            return
        assert contains(lower, upper, value), (expr, q, prec, lower, upper, value)


@settings(max_examples=150, deadline=None)
@given(pair=expressions, q=points)
def test_certifier_and_recheck_agree(pair, q):
    expr, _ = pair
    point = {z: sympy.Rational(q.numerator, q.denominator)}
    cert = certify_nonzero(expr, point)
    sign = recheck_sign(expr, point, max_prec=1024)
    if cert is not None and sign is not None:
        assert cert.sign == sign, (expr, q)
    if cert is not None and cert.exact:  # exact values are exact for both
        assert sign == cert.sign
    if sign == 0:  # exactly zero by exact arithmetic: never certified
        assert cert is None


def _zeros(u: sympy.Expr, v: sympy.Expr) -> list[sympy.Expr]:
    positive = 1 + u**2
    return [
        sympy.sin(u) ** 2 + sympy.cos(u) ** 2 - 1,
        sympy.log(sympy.exp(sympy.atan(u)), evaluate=False) - sympy.atan(u),
        sympy.erf(u) + sympy.erfc(u) - 1,
        sympy.atan(positive) + sympy.atan(1 / positive) - sympy.pi / 2,
        sympy.cosh(sympy.atan(u)) ** 2 - sympy.sinh(sympy.atan(u)) ** 2 - 1,
        sympy.tanh(u) + sympy.tanh(-u),
        sympy.asinh(sympy.sinh(sympy.atan(u)), evaluate=False) - sympy.atan(u),
        sympy.Max(u, v) + sympy.Min(u, v) - u - v,
        sympy.Heaviside(u) + sympy.Heaviside(-u) - 1,
        sympy.exp(sympy.sin(u)) * sympy.exp(-sympy.sin(u)) - 1,
        sympy.sign(u) * sympy.Abs(u) - u,
        sympy.sin(2 * u) - 2 * sympy.sin(u) * sympy.cos(u),
        sympy.Piecewise((u, v > 0), (u, True)) - u,
    ]


@settings(max_examples=120, deadline=None)
@given(u=expressions, v=expressions, q=points, which=st.integers(0, 12))
@pytest.mark.slow
def test_an_exact_zero_is_never_certified(u, v, q, which):
    expr = _zeros(u[0], v[0])[which]
    point = {z: sympy.Rational(q.numerator, q.denominator)}
    assert certify_nonzero(expr, point) is None, (expr, q)
    assert recheck_sign(expr, point, max_prec=1024) in (0, None), (expr, q)
