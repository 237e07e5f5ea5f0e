"""Certified ranges and signs over whole intervals, bounded or not (issue 20, item 1).

:func:`~symcheck.exact.ranges.range_on` (structural interval arithmetic with exact ends) and
:func:`~symcheck.exact.definite.prove_sign` (that, a completed square, factors, the dominant
term on tails, Arb bisection). Every truth here is known by exact reasoning written next to
the case, and every claimed range is checked against mpmath values at sample points; SymPy's
assumptions are never asked.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy
from sympy import S, cos, exp, sin, tanh

from symcheck.core.errors import Undecided
from symcheck.exact.definite import prove_nonzero, prove_sign
from symcheck.exact.ranges import Range, range_on
from symcheck.exact.roots import roots_in

z = sympy.Symbol("z")
beta = sympy.Symbol("beta")
oo = S.Infinity
LINE = {z: Range(-oo, oo)}
HALF_LINE = {beta: Range(S.Zero, oo)}  # beta > 0


def _value(expr: sympy.Expr, point: dict[sympy.Symbol, float]) -> mpmath.mpf:
    with mpmath.workdps(40):
        f = sympy.lambdify(list(point), expr, modules="mpmath")
        return f(*[mpmath.mpf(v) for v in point.values()])


def _number(x: sympy.Expr) -> mpmath.mpf:
    with mpmath.workdps(40):
        return mpmath.mpf(sympy.N(x, 40)) if x.is_finite else (mpmath.inf if x == oo else -mpmath.inf)


SAMPLES = [-50.0, -7.3, -3.0, -1.5708, -1.0, -0.25, 0.0, 0.3, 1.0, 2.0, 3.14159, 4.5, 10.0, 123.0]


def _inside(value: mpmath.mpf, r: Range) -> bool:
    lo, hi = _number(r.lo), _number(r.hi)
    slack = mpmath.mpf(10) ** -30
    return lo - slack <= value <= hi + slack


# --- range_on: the new rules ---------------------------------------------------------------------

@pytest.mark.parametrize(("expr", "lo", "hi"), [
    (2 + sin(z) * cos(z), 1, 3),  # bounded factors of unknown sign: four end products
    (2 - sin(z) ** 2, 1, 2),  # an even power of [-1, 1] is [0, 1]
    (sympy.Abs(sin(z)) + 1, 1, 2),
    (sympy.Max(cos(z), tanh(z)) + 2, 1, 3),
    (sympy.Min(cos(z), -1 + exp(-z**2)), -1, 0),
])
def test_bounded_ranges(expr: sympy.Expr, lo: int, hi: int) -> None:
    found = range_on(expr, LINE)
    assert found is not None
    assert sympy.Rational(found.lo) == lo and sympy.Rational(found.hi) == hi
    for x in SAMPLES:
        assert _inside(_value(expr, {z: x}), found)


def test_cos_of_a_range_inside_a_monotone_stretch_is_bounded_away_from_zero() -> None:
    # tanh(z) ∈ (-1, 1) ⊂ (-π/2, π/2): cos(tanh z) ≥ cos(1) > 0, so tan(tanh z) is defined
    found = range_on(cos(tanh(z)), LINE)
    with mpmath.workdps(40):
        assert found is not None and abs(_number(found.lo) - mpmath.cos(1)) < 1e-30
    assert _number(found.hi) == 1
    assert range_on(sin(z / 4), {z: Range(S.Zero, S.One, True, True)}).hi == sin(S.One / 4)


def test_an_open_end_is_kept_open() -> None:
    # 1 - tanh(z)**2 never reaches 0: the range is (0, 1], open at 0
    found = range_on(1 - tanh(z) ** 2, LINE)
    assert found is not None and found.lo == 0 and not found.lo_closed


def test_an_unbounded_factor_of_both_signs_gives_no_finite_end() -> None:
    found = range_on(z * sin(z), LINE)
    assert found is None or (found.lo == -oo and found.hi == oo)


# --- prove_sign: the examples of the issue ----------------------------------------------------

def test_two_plus_cos_is_positive_on_r() -> None:
    proof = prove_sign(2 + cos(z), LINE, "positive")
    assert proof is not None and proof.sign == 1 and proof.strict
    assert prove_sign(2 + cos(z), LINE, "negative") is None


def test_a_completed_square_is_positive_on_r() -> None:
    # z² − 2z·cos z + 2 = (z − cos z)² + 2 − cos² z ≥ 1
    g = z**2 - 2 * z * cos(z) + 2
    proof = prove_sign(g, LINE, "positive")
    assert proof is not None and "completed square" in proof.argument
    assert prove_sign(-g, LINE, "negative") is not None
    assert prove_nonzero(1 / g, LINE) is not None


def test_an_irrational_zero_is_never_covered() -> None:
    # 13/10 < √2: 13/10 + sin z + cos z = 13/10 + √2·sin(z + π/4) has zeros
    g = S(13) / 10 + sin(z) + cos(z)
    for want in ("positive", "negative", "nonnegative", "nonpositive"):
        assert prove_sign(g, LINE, want) is None
    assert prove_nonzero(g, LINE) is None
    with pytest.raises(Undecided):
        roots_in(g, z, -oo, oo)


@pytest.mark.parametrize("g", [
    3 + sin(z) + cos(z), 2 + tanh(z), 2 + sin(z), 2 + sin(z) * cos(z),
    z**2 + z * sin(z) + 1,  # (z + sin z/2)² + 1 − sin²z/4
    z**2 + 3 * sin(z) + 3,  # not by interval arithmetic alone (≥ 0 only): a cover
    sympy.cosh(z) + sin(z),  # likewise
    (2 + cos(z)) * (z**2 - 2 * z * cos(z) + 2),  # a product of positive closed forms
    z**2 - z * sin(z) ** 3 + S(1) / 5,  # dominant term on the tails, bisection between
])
def test_positive_on_r(g: sympy.Expr) -> None:
    proof = prove_sign(g, LINE, "positive")
    assert proof is not None
    for x in SAMPLES:
        assert _value(g, {z: x}) > 0


@pytest.mark.parametrize(("g", "where"), [
    (sin(z), "a zero at 0"),
    (z**4 - 10 * z**3 * sin(z) + 1, "negative at z = 2: 16 − 80·sin 2 + 1 < 0"),
    (z**2 + 1 - exp(-z**2), "0 at z = 0"),
    (1 + cos(z), "0 at z = π"),
    (z**2 - 2 * z * cos(z) + cos(z) ** 2, "(z − cos z)², 0 where z = cos z"),
    (2 - tanh(z) ** 2 - 1, "1 − tanh² z > 0 but written so; fine"),
])
def test_not_positive_or_not_proved(g: sympy.Expr, where: str) -> None:
    proof = prove_sign(g, LINE, "positive")
    if where.endswith("fine"):
        assert proof is not None  # positive indeed: the open end of tanh² is kept
        return
    assert proof is None, where


def test_signs_are_proved_on_a_half_line_with_an_open_end() -> None:
    # β − sin β > 0 for β > 0: 0 at the open end β = 0, increasing (1 − cos β > 0 on (0, 1])
    g = beta - sin(beta)
    assert prove_sign(g, HALF_LINE, "positive") is not None
    closed = {beta: Range(S.Zero, oo, True)}
    assert prove_sign(g, closed, "positive") is None  # g(0) = 0
    assert prove_sign(g, closed, "nonnegative") is not None


def test_a_residual_over_a_parameter_range() -> None:
    # r(β) = σ(β) − 1/2 ≠ 0 for every β > 0 (σ the logistic sigmoid)
    r = 1 / (1 + exp(-beta)) - S.Half
    proof = prove_nonzero(r, HALF_LINE)
    assert proof is not None and proof.sign == 1
    # 2σ(β) − 1 − tanh(β/2) ≡ 0: never proved non-zero
    assert prove_nonzero(2 / (1 + exp(-beta)) - 1 - tanh(beta / 2), HALF_LINE) is None


def test_several_symbols() -> None:
    # z² − 2βz·cos z + 2 = (z − β cos z)² + 2 − β² cos² z ≥ 1 for β ∈ [0, 1]
    g = z**2 - 2 * beta * z * cos(z) + 2
    box = {z: Range(-oo, oo), beta: Range(S.Zero, S.One, True, True)}
    assert prove_sign(g, box, "positive") is not None
    # β ∈ [0, 2]: at β = 2 (z − 2cos z)² + 2 − 4cos² z is −2 where z = 2cos z and cos² z = 1?
    # not both at once; but at z = 0.9 it is 0.81 − 3.6·0.6216 + 2 < 0
    wide = {z: Range(-oo, oo), beta: Range(S.Zero, 2, True, True)}
    assert prove_sign(g, wide, "positive") is None


def test_a_symbol_without_a_range_is_no_proof() -> None:
    assert prove_sign(2 + cos(z) + beta**2, LINE, "positive") is None


# --- the root arguments use it --------------------------------------------------------------

def test_roots_in_proves_no_root_on_r_for_a_completed_square() -> None:
    found = roots_in(z**2 - 2 * z * cos(z) + 2, z, -oo, oo)
    assert found.points == () and "positive" in found.argument


def test_roots_in_on_a_bounded_interval_with_a_limit_at_an_open_end() -> None:
    # (β − sin β)/β³ on (0, 1): no root, but undefined at 0 and tending to 1/6 there
    found = roots_in(beta - sin(beta), beta, S.Zero, S.One)
    assert found.points == ()
