"""Generated families whose sign the test knows exactly: proofs found where the truth is a
strict sign the mechanism is built for, and never where a zero or the other sign exists.

Each family is written with the reason for its truth beside it (exact reasoning on the
generated numbers, never SymPy's assumptions); every proof found is also checked against
mpmath values at sample points.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S, cos, sin, tanh

from symcheck.exact.definite import prove_nonzero, prove_sign
from symcheck.exact.ranges import Range

z = sympy.Symbol("z")
beta = sympy.Symbol("beta")
LINE = {z: Range(S.NegativeInfinity, S.Infinity)}
POINTS = (-40.0, -9.5, -3.3, -1.0, -0.4, 0.0, 0.6, 1.7, 2.9, 6.1, 25.0)

coefficient = st.fractions(min_value=Fraction(1, 8), max_value=Fraction(5), max_denominator=8)
frequency = st.integers(min_value=1, max_value=4)
bounded = st.sampled_from([sin, cos, tanh])


def _q(x: Fraction) -> sympy.Rational:
    return sympy.Rational(x.numerator, x.denominator)


def _values(g: sympy.Expr, var: sympy.Symbol = z, points: tuple[float, ...] = POINTS) -> list[mpmath.mpf]:
    f = sympy.lambdify(var, g, modules="mpmath")
    with mpmath.workdps(300):  # sech²(4·40) ≈ 1e-139 must not round to 0
        return [f(mpmath.mpf(x)) for x in points]


def _assert_sound(g: sympy.Expr, want: str, var: sympy.Symbol = z,
                  points: tuple[float, ...] = POINTS) -> None:
    """A proof's claim agrees with mpmath at the sample points."""
    for v in _values(g, var, points):
        assert {"positive": v > 0, "negative": v < 0, "nonnegative": v >= 0, "nonpositive": v <= 0}[want]


# --- c − Σ aᵢ·cos(kᵢ z): the bound Σ aᵢ is attained at z = 0 --------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(coefficient, frequency), min_size=1, max_size=4),
       st.lists(st.tuples(coefficient, frequency), max_size=2),
       st.sampled_from([Fraction(-1, 1000), Fraction(0), Fraction(1, 1000), Fraction(1, 3)]))
def test_constant_against_an_attained_bound(cosines, squares, delta) -> None:
    # g = Σaᵢ + δ − Σ aᵢ cos(kᵢz) + Σ bⱼ tanh(mⱼz)²: every term but δ is ≥ 0, all are 0 at z = 0,
    # so g > 0 on R iff δ > 0; g(0) = δ
    bound = sum((a for a, _ in cosines), Fraction(0))
    g = _q(bound + delta) - sum(_q(a) * cos(k * z) for a, k in cosines) \
        + sum(_q(b) * tanh(m * z) ** 2 for b, m in squares)
    proof = prove_sign(g, LINE, "positive")
    if delta > 0:
        assert proof is not None
        _assert_sound(g, "positive")
    else:
        assert proof is None
    weak = prove_sign(g, LINE, "nonnegative")
    assert (weak is not None) == (delta >= 0)
    assert prove_sign(g, LINE, "negative") is None
    assert (prove_nonzero(g, LINE) is not None) == (delta > 0)


# --- c − Σ bⱼ tanh(mⱼz)²: the bound Σ bⱼ is a supremum never attained ------------------------------

@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(coefficient, frequency), min_size=1, max_size=3),
       st.sampled_from([Fraction(-1, 100), Fraction(0), Fraction(1, 100)]))
def test_constant_against_a_bound_not_attained(squares, delta) -> None:
    # tanh² < 1 everywhere and → 1 as z → oo: g = Σbⱼ + δ − Σ bⱼ tanh(mⱼz)² > 0 iff δ >= 0
    bound = sum((b for b, _ in squares), Fraction(0))
    g = _q(bound + delta) - sum(_q(b) * tanh(m * z) ** 2 for b, m in squares)
    proof = prove_sign(g, LINE, "positive")
    assert (proof is not None) == (delta >= 0)
    if proof is not None:
        _assert_sound(g, "positive")


# --- a square plus something positive, written expanded ------------------------------------------

@settings(max_examples=25, deadline=None)
@given(coefficient, frequency, bounded, coefficient, frequency, bounded,
       st.sampled_from([Fraction(1, 50), Fraction(1, 2), Fraction(3)]))
def test_expanded_square_plus_a_positive_constant(a, k, f, b, m, h, c) -> None:
    # (z − a·f(kz))² + b·h(mz)² + c ≥ c > 0, expanded so no square is written
    g = sympy.expand((z - _q(a) * f(k * z)) ** 2 + _q(b) * h(m * z) ** 2 + _q(c))
    proof = prove_sign(g, LINE, "positive")
    assert proof is not None
    _assert_sound(g, "positive")


@settings(max_examples=25, deadline=None)
@given(coefficient, frequency, bounded, st.sampled_from([Fraction(1, 50), Fraction(1, 2), Fraction(3)]))
def test_expanded_square_minus_a_constant_is_never_positive(a, k, f, c) -> None:
    # (z − a·f(kz))² − c: z − a·f(kz) is continuous, −∞ to +∞, so 0 somewhere; there g = −c < 0
    g = sympy.expand((z - _q(a) * f(k * z)) ** 2 - _q(c))
    assert prove_sign(g, LINE, "positive") is None
    assert prove_sign(g, LINE, "nonnegative") is None
    assert prove_nonzero(g, LINE) is None


# --- the dominant term at ±oo ----------------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=2), st.integers(min_value=0, max_value=3),
       st.fractions(min_value=Fraction(-3, 4), max_value=Fraction(3, 4), max_denominator=8),
       frequency, bounded)
def test_a_polynomial_beats_a_bounded_perturbation(n, j, a, k, f) -> None:
    # |a·z^j·f(kz)| ≤ |a|·(z²+1)^(j/2) ≤ |a|·(z²+1)^n for j ≤ 2n − 1, and |a| < 1: g > 0
    j = min(j, 2 * n - 1)
    g = sympy.expand((z**2 + 1) ** n) + _q(a) * z**j * f(k * z)
    proof = prove_sign(g, LINE, "positive")
    assert proof is not None
    _assert_sound(g, "positive")


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=1, max_value=2),
       st.fractions(min_value=Fraction(9, 8), max_value=Fraction(4), max_denominator=8), frequency)
def test_a_bounded_factor_on_the_leading_power_can_win(n, a, k) -> None:
    # (z²+1)^n − a·z^(2n)·cos(kz) with a > 1: at z = (2i+1)π/k, large, it is (z²+1)^n − a·z^(2n) < 0
    g = sympy.expand((z**2 + 1) ** n) - _q(a) * z ** (2 * n) * cos(k * z)
    assert prove_sign(g, LINE, "positive") is None
    assert prove_nonzero(g, LINE) is None


# --- a parameter on a half-line, 0 at its open end -------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(coefficient, coefficient)
def test_a_residual_for_every_positive_parameter(k, m) -> None:
    # r(β) = kβ − sin(mβ): for m ≤ k, r > 0 on β > 0 (x − sin x > 0 scaled, and kβ ≥ mβ);
    # for m > k, r(β) ≈ (k − m)β < 0 just right of 0
    r = _q(k) * beta - sin(_q(m) * beta)
    half_line = {beta: Range(S.Zero, S.Infinity)}
    proof = prove_sign(r, half_line, "positive")
    if m > k:
        assert proof is None
    elif proof is not None:
        _assert_sound(r, "positive", beta, (1e-6, 0.01, 0.5, 1.0, 3.0, 10.0, 1000.0))
    if m == k:  # the case the tail and the open end are built for
        assert proof is not None
