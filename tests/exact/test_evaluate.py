"""Certified evaluation of expression trees: Piecewise conditions, errors, sound certificates."""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from test_intervals import REF_DPS, R, assert_encloses, bounds, heaviside, mp, z

from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import Certificate, approximate, certify_nonzero, enclose

a, b = sympy.symbols("a b", real=True)

RELU = sympy.Piecewise((z, z > 0), (0, True))


@pytest.mark.parametrize(
    ("expr", "point", "expected"),
    [
        (RELU, R(-1, 3), 0),
        (RELU, R(0), 0),
        (RELU, R(2, 3), R(2, 3)),
        # decided exactly at a breakpoint that is not a binary fraction
        (sympy.Piecewise((1, z >= R(1, 3)), (0, True)), R(1, 3), 1),
        (sympy.Piecewise((1, sympy.Eq(z, R(1, 3))), (0, True)), R(1, 3), 1),
        (sympy.Piecewise((1, sympy.Ne(z, 0)), (2, True)), R(0), 2),
        (sympy.Piecewise((1, z < 0), (2, z <= 1), (3, True)), R(1), 2),
        (sympy.Piecewise((1, sympy.And(z > -1, z < 1)), (0, True)), R(1, 2), 1),
        (sympy.Piecewise((1, sympy.Or(z < -1, z > 1)), (0, True)), R(1, 2), 0),
        (sympy.Piecewise((1, sympy.Not(z > 0)), (0, True)), R(0), 1),
        (sympy.Piecewise((1, sympy.ITE(z > 0, z > 2, z < -2)), (0, True)), R(-3), 1),
        (sympy.Piecewise((1, sympy.exp(z) > 2), (0, True)), R(1), 1),  # decided by enclosure
        (sympy.Piecewise((1, sympy.sin(z) > 0), (0, True)), R(0), 0),  # sin(0) is exactly 0
    ],
)
def test_piecewise_conditions(expr, point, expected):
    lo, hi = bounds(enclose(expr, {z: point}, 64))
    with mpmath.workdps(REF_DPS):
        assert lo <= mp(R(expected)) <= hi and hi - lo < 2**-60


def test_undecided_condition_raises_so_the_caller_can_retry():
    expr = sympy.Piecewise((1, sympy.sin(z) ** 2 + sympy.cos(z) ** 2 >= 1), (0, True))
    with pytest.raises(EvaluationError, match="undecided"):
        enclose(expr, {z: R(3, 7)}, 64)


@pytest.mark.parametrize(
    ("expr", "values", "message"),
    [
        (sympy.Function("f")(z), {z: 1}, "undefined function f"),
        (sympy.zeta(z), {z: 2}, "zeta"),  # gamma is evaluated since issue 20 (the functions table)
        (sympy.I * z, {z: 1}, "ImaginaryUnit"),
        (z + a, {z: 1}, "no value given for the symbol a"),
        (sympy.log(z), {z: -1}, "logarithm"),
        (sympy.log(z), {z: 0}, "logarithm"),
        (sympy.sqrt(z), {z: R(-1, 2)}, "square root"),
        (1 / z, {z: 0}, "division by zero"),
        (z ** R(1, 3), {z: -8}, "not real"),
        (sympy.Piecewise((1, z > 0)), {z: -1}, "undefined"),
        (sympy.exp(sympy.exp(sympy.exp(z))), {z: 10}, "astronomically large"),
    ],
)
def test_evaluation_errors(expr, values, message):
    # the message names the check that refused (no timing: the refusal's path is what is tested)
    with pytest.raises(EvaluationError, match=message):
        enclose(expr, values, 64)
    with pytest.raises(EvaluationError):
        approximate(expr, values)


@pytest.mark.parametrize(
    ("expr", "point"),
    [
        (sympy.exp(sympy.exp(sympy.exp(z))) - 1, 10),
        (sympy.log(z) + 1, -1),
        (sympy.zeta(z) + z, R(1, 3)),  # zeta: no evaluator (gamma has one since issue 20)
        (1 / (z - 1), 1),
        (sympy.Function("f")(z) + 1, 2),
    ],
)
def test_certify_returns_none_where_the_expression_cannot_be_evaluated(expr, point):
    assert certify_nonzero(expr, {z: point}) is None


def test_approximate_is_close_and_restores_precision():
    dps_before, prec_before = mpmath.mp.dps, mpmath.iv.prec
    expr = z * sympy.tanh(sympy.log(1 + sympy.exp(z))) + sympy.Piecewise((z, z > 0), (0, True))
    value = approximate(expr, {z: R(3, 7)}, dps=50)
    enclose(expr, {z: R(3, 7)}, 300)
    assert (mpmath.mp.dps, mpmath.iv.prec) == (dps_before, prec_before)
    with mpmath.workdps(REF_DPS):
        t = mp(R(3, 7))
        reference = t * mpmath.tanh(mpmath.log(1 + mpmath.exp(t))) + t
        assert abs(value - reference) < mpmath.mpf(10) ** -45
    assert isinstance(value, mpmath.mpf)


# --------------------------------------------------------------------------- certify_nonzero


def test_exact_rational_residual_is_certified_exactly():
    cert = certify_nonzero(z + z**3 / 10**15 - (1 + R(1, 10**15)) * z, {z: 2})
    assert cert == Certificate(value=R(6, 10**15), exact=True, lower="3/500000000000000",
                               upper="3/500000000000000", prec=0, sign=1)
    assert cert.decimal(5) == "6e-15"
    with pytest.raises(dataclasses.FrozenInstanceError):
        cert.sign = -1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [("1/3", 5, "0.33333"), ("-2/3", 5, "-0.66667"), ("12345678", 3, "12300000"),
     ("-1/70000000", 4, "-1.429e-8"), ("5", 3, "5"), ("99999/100000", 3, "1")],
)
def test_decimal_rounds_to_significant_digits(value, digits, text):
    cert = Certificate(value=sympy.Rational(value), exact=True, lower=value, upper=value, prec=0,
                       sign=1 if not value.startswith("-") else -1)
    assert cert.decimal(digits) == text


def test_a_difference_float64_cannot_see_is_certified_negative():
    assert math.exp(-100) - math.exp(-100) * (1 + 1e-40) == 0.0
    cert = certify_nonzero(sympy.exp(-100) - sympy.exp(-100) * (1 + R(1, 10**40)), {})
    assert cert is not None and cert.sign == -1 and not cert.exact
    with mpmath.workdps(REF_DPS):
        reference = -mpmath.exp(-100) / mpmath.mpf(10) ** 40
    assert Fraction(cert.lower) <= Fraction(mpmath.nstr(reference, 90)) <= Fraction(cert.upper) < 0
    assert cert.decimal(10) == "-3.720075976e-84"


@pytest.mark.parametrize(
    ("expr", "point"),
    [
        (sympy.sin(z) ** 2 + sympy.cos(z) ** 2 - 1, R(3, 7)),
        (sympy.tanh(z) + sympy.tanh(-z), 2),
        (sympy.log(sympy.exp(z)) - z, 2),
        (sympy.sin(2 * z) - 2 * sympy.sin(z) * sympy.cos(z), R(-5, 3)),
        (sympy.cosh(z) ** 2 - sympy.sinh(z) ** 2 - 1, R(7, 2)),
        (sympy.atan(z) + sympy.atan(1 / z) - sympy.pi / 2, R(3, 2)),
        (sympy.erf(z) + sympy.erfc(z) - 1, R(4, 3)),
        (sympy.asinh(sympy.sinh(z)) - z, R(1, 3)),
        (RELU, 0),
        (sympy.Max(z, 0) - RELU, R(-2)),
    ],
)
def test_true_identities_are_never_certified(expr, point):
    assert certify_nonzero(expr, {z: point}) is None


def test_piecewise_away_from_its_breakpoint_is_exact():
    cert = certify_nonzero(RELU - z, {z: R(-1, 3)})
    assert cert is not None and cert.exact and cert.value == R(1, 3) and cert.sign == 1


def test_precision_escalates_and_respects_max_prec():
    residual = sympy.tanh(z) - 1  # ≈ -2·e^-60 ≈ -2**-85.6: invisible at 64 bits
    cert = certify_nonzero(residual, {z: 30})
    assert cert is not None and cert.sign == -1 and cert.prec == 128
    assert certify_nonzero(residual, {z: 30}, max_prec=64) is None
    far = certify_nonzero(residual, {z: 1000}, max_prec=4096)  # 1 - tanh(1000) ≈ 2**-2885
    assert far is not None and far.sign == -1 and far.prec == 4096


def test_floats_are_read_as_their_binary_value():
    # unevaluated: SymPy itself would round Float(0.1) - 1/10 to a Float
    cert = certify_nonzero(sympy.Add(sympy.Float(0.1), -R(1, 10), evaluate=False), {})
    assert cert is not None and cert.exact and cert.sign == 1
    assert cert.value == sympy.Rational(*Fraction(0.1).as_integer_ratio()) - R(1, 10)


def test_values_may_be_python_numbers_and_missing_ones_are_reported():
    assert certify_nonzero(z**2 - 2, {z: Fraction(3, 2)}).value == R(1, 4)
    with pytest.raises(EvaluationError, match="no value given for a"):
        certify_nonzero(z + a, {z: 1})
    with pytest.raises(EvaluationError, match="not an exact rational"):
        certify_nonzero(z, {z: sympy.sqrt(2)})


SILU = z / (1 + sympy.exp(-z))
GELU = z / 2 * (1 + sympy.erf(z / sympy.sqrt(2)))
MISH = z * sympy.tanh(sympy.log(1 + sympy.exp(z)))
TANH = sympy.tanh(z)


def exchange_residual(act: sympy.Expr) -> sympy.Expr:
    return act.subs(z, a) * b - act.subs(z, b) * a


@pytest.mark.parametrize("act", [SILU, GELU, MISH, TANH], ids=["silu", "gelu", "mish", "tanh"])
def test_activation_residuals_are_certified_fast(act):
    residual = exchange_residual(act)
    # fast = certified at the first precision of the ladder, 64 bits (no wall-clock threshold)
    cert = certify_nonzero(residual, {a: R(3, 2), b: R(-1, 2)})
    assert cert is not None and not cert.exact and cert.prec == 64
    with mpmath.workdps(REF_DPS):
        reference = approximate(residual, {a: R(3, 2), b: R(-1, 2)}, dps=REF_DPS)
        assert Fraction(cert.lower) <= Fraction(mpmath.nstr(reference, 95)) <= Fraction(cert.upper)
        relative_error = Fraction(cert.decimal(20)) / Fraction(mpmath.nstr(reference, 40)) - 1
        assert abs(relative_error) < Fraction(1, 10**18)
    assert cert.sign == (1 if reference > 0 else -1)


# --------------------------------------------------------------------------- properties

rationals = st.one_of(
    st.fractions(min_value=-40, max_value=40, max_denominator=10**6),
    st.builds(lambda k, s: Fraction(s, 10**k), st.integers(1, 30), st.sampled_from([-1, 1])),
)

# (expression in z, the same function written with mpmath)
EXPRESSIONS = [
    (SILU, lambda t: t / (1 + mpmath.exp(-t))),
    (GELU, lambda t: t / 2 * (1 + mpmath.erf(t / mpmath.sqrt(2)))),
    (MISH, lambda t: t * mpmath.tanh(mpmath.log(1 + mpmath.exp(t)))),
    (sympy.atan(z) * sympy.exp(-(z**2) / 50), lambda t: mpmath.atan(t) * mpmath.exp(-(t**2) / 50)),
    (sympy.asinh(z) / (1 + z**2), lambda t: mpmath.asinh(t) / (1 + t**2)),
    (sympy.sin(z) * sympy.cosh(z / 3) - sympy.tan(z / 100),
     lambda t: mpmath.sin(t) * mpmath.cosh(t / 3) - mpmath.tan(t / 100)),
    (z * sympy.erfc(z) + sympy.sqrt(1 + z**2),
     lambda t: t * mpmath.erfc(t) + mpmath.sqrt(1 + t**2)),
    (sympy.Piecewise((z**2, z > 1), (sympy.Abs(z) ** R(3, 2), True)),
     lambda t: t**2 if t > 1 else abs(t) ** mpmath.mpf(1.5)),
    (sympy.Max(sympy.sinh(z), z**3 / 7) - sympy.Heaviside(z) * sympy.tanh(z),
     lambda t: max(mpmath.sinh(t), t**3 / 7) - heaviside(t) * mpmath.tanh(t)),
]


@settings(max_examples=60, deadline=None)
@given(q=rationals, which=st.integers(0, len(EXPRESSIONS) - 1), prec=st.sampled_from([53, 64, 256]))
def test_enclosure_always_contains_the_100_digit_value(q, which, prec):
    expr, reference = EXPRESSIONS[which]
    interval = enclose(expr, {z: sympy.Rational(q.numerator, q.denominator)}, prec)
    with mpmath.workdps(REF_DPS):
        assert_encloses(interval, reference(mp(q)))


@settings(max_examples=40, deadline=None)
@given(p=rationals, q=rationals, which=st.integers(0, 2))
def test_certified_sign_agrees_with_a_fine_reference(p, q, which):
    act, ref = EXPRESSIONS[which]
    cert = certify_nonzero(exchange_residual(act), {a: sympy.Rational(p), b: sympy.Rational(q)})
    # the residual can be ~1e-300 (erf near 1): compare against a reference finer than 2048 bits
    with mpmath.workdps(800):
        reference = ref(mp(p)) * mp(q) - ref(mp(q)) * mp(p)
        if cert is not None:
            assert cert.sign == (1 if reference > 0 else -1)
            if not cert.exact:
                assert Fraction(cert.lower) <= Fraction(mpmath.nstr(reference, 95))
                assert Fraction(mpmath.nstr(reference, 95)) <= Fraction(cert.upper)


# --------------------------------------------------------------------------- Arb-specific


def test_an_enclosed_certificate_carries_no_sympy_value():
    cert = certify_nonzero(sympy.exp(-z) - R(1, 3), {z: 1})
    assert cert is not None and not cert.exact and cert.value is None and cert.sign == 1


@pytest.mark.parametrize(
    ("expr", "point", "exponent"),
    [(sympy.exp(-z), 10**6, -434295),     # far beyond what an exact Fraction should be built for
     (sympy.exp(z), 2**39, 238755916365)],
)
def test_certificates_of_astronomical_magnitude_are_quick_and_bracket_the_value(expr, point, exponent):
    cert = certify_nonzero(expr, {z: point})
    assert not cert.exact  # quick: a ball, no exact Fraction of e^(10^6) built (no timing asserted)
    with mpmath.workdps(40):  # mpmath has no exponent limit either
        mantissa = mpmath.nstr(approximate(expr, {z: point}, dps=40), 30).split("e")[0]
    assert cert.sign == 1 and cert.lower.endswith(f"e{exponent}") and cert.upper.endswith(f"e{exponent}")
    low, high = (Fraction(end.split("e")[0]) for end in (cert.lower, cert.upper))
    assert low < Fraction(mantissa) < high and high - low < Fraction(1, 10**15)


@settings(max_examples=80, deadline=None)
@given(q=st.fractions(min_value=-10**40, max_value=10**40, max_denominator=10**40).filter(bool),
       rounding=st.sampled_from(["floor", "ceiling", "nearest"]))
def test_the_far_decimal_path_agrees_with_the_exact_one(q, rounding):
    from flint import arb, fmpq

    from symcheck.exact.balls import arb_precision
    from symcheck.exact.evaluate import _decimal_far, _decimal_string

    with arb_precision(300):
        end = arb(fmpq(q.numerator, q.denominator)).lower()
    man, exp = (int(v) for v in end.man_exp())
    exact = man * Fraction(2) ** exp
    far, near = _decimal_far(end, man.bit_length() + exp, 25, rounding), _decimal_string(exact, 25, rounding)
    if rounding == "floor":
        assert Fraction(far) <= exact
    elif rounding == "ceiling":
        assert Fraction(far) >= exact
    # the same digits, or one unit further out where Arb's quotient straddles an integer
    assert abs(Fraction(far) - Fraction(near)) <= abs(exact) * Fraction(2, 10**24)
