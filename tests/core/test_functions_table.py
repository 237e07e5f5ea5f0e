"""The table of the functions users write (symcheck.core.functions), entry by entry.

Every entry is held against the layers that read it: the parser accepts it with its domain on
R (and refuses outside it, naming a point that is certified to violate it), the Arb
evaluation and the independent mpmath re-check enclose mpmath's own value at random rational
points, the float64 NumPy form agrees with mpmath, the certificate tree states it in a kernel
head the kernel knows, and the kernel's own evaluation encloses the same value. Hypothesis
generates compositions whose domain the test knows (c·tanh(z) inside acos iff |c| ≤ 1, …).
"""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from flint import arb
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import DomainError, ParseError
from symcheck.core.functions import BY_NAME, FUNCTIONS, INTEGER_PARTS
from symcheck.engine.certificate.tree import tree
from symcheck.exact import evaluate as exact_evaluate
from symcheck.exact import vectorize as exact_vectorize
from symcheck.exact.evaluate import certify_nonzero, enclose, recheck_sign
from symcheck.exact.vectorize import vectorize
from symcheck.kernel import evaluate as kernel_evaluate
from symcheck.kernel.tree import FUNCTIONS as KERNEL_FUNCTIONS
from symcheck.kernel.tree import NOT_PROVED_ANALYTIC
from symcheck.language import parsing
from symcheck.language.parsing import parse_activation

z = sympy.Symbol("z", real=True)
R = sympy.Rational
NEW = ("acos", "asin", "atanh", "acosh", "floor", "ceiling", "frac", "Mod", "gamma", "loggamma", "LambertW")

#: each function with an argument u(z) inside its domain for every real z, and its mpmath value
#: at z (as a function of an mpf); Mod is Mod(u, 2)
INSIDE: dict[str, tuple[sympy.Expr, object]] = {
    "acos": (sympy.acos(sympy.tanh(z)), lambda x: mpmath.acos(mpmath.tanh(x))),
    "asin": (sympy.asin(sympy.tanh(z)), lambda x: mpmath.asin(mpmath.tanh(x))),
    "atanh": (sympy.atanh(sympy.tanh(z) / 2), lambda x: mpmath.atanh(mpmath.tanh(x) / 2)),
    "acosh": (sympy.acosh(1 + z**2), lambda x: mpmath.acosh(1 + x**2)),
    "floor": (sympy.floor(z), mpmath.floor),
    "ceiling": (sympy.ceiling(z), mpmath.ceil),
    "frac": (sympy.frac(z), lambda x: x - mpmath.floor(x)),
    "Mod": (sympy.Mod(z, 2), lambda x: x - 2 * mpmath.floor(x / 2)),
    "gamma": (sympy.gamma(2 + z**2), lambda x: mpmath.gamma(2 + x**2)),
    "loggamma": (sympy.loggamma(1 + z**2), lambda x: mpmath.loggamma(1 + x**2)),
    "LambertW": (sympy.LambertW(sympy.exp(z)), lambda x: mpmath.lambertw(mpmath.exp(x)).real),
}
#: what each function refuses on its own, and the messages' words
REFUSED = {
    "acos(z)": "needs argument <= 1", "asin(z)": "needs argument <= 1", "atanh(z)": "needs argument < 1",
    "acosh(z)": "needs argument >= 1", "loggamma(z)": "needs argument > 0", "gamma(z)": "pole",
    "LambertW(z)": "needs argument >= -1/e", "acos(2 + tanh(z))": "needs argument <= 1",
    "atanh(1 + exp(z))": "needs argument < 1", "acosh(1 - z**2)": "needs argument >= 1",
}

rationals = st.fractions(min_value=-6, max_value=6, max_denominator=64)


# --------------------------------------------------------------------------- the table itself


def test_the_table_has_the_functions_of_issue_20():
    assert set(NEW) <= set(BY_NAME)
    assert len(BY_NAME) == len(FUNCTIONS)


@pytest.mark.parametrize("entry", FUNCTIONS, ids=lambda f: f.name)
def test_every_layer_reads_the_entry(entry):
    # the parser accepts the name, with its arity
    assert entry.name in (parsing._UNARY if entry.arity == 1 else parsing._BINARY)
    # the certified evaluators have a method, or the entry is evaluated through its definition
    if entry.cls is not None and entry.method is not None:
        assert exact_evaluate._UNARY[entry.cls] == entry.method
        for arithmetic in (exact_evaluate._Approx, exact_evaluate.BallArithmetic, exact_evaluate.Enclosure):
            assert callable(getattr(arithmetic, entry.method)), (arithmetic, entry.method)
    elif entry.rewrite is not None:
        assert entry.rewrite(*[sympy.Symbol(f"x{i}") for i in range(entry.arity)]).has(sympy.floor)
    # the kernel knows the head the emitter writes
    if entry.kernel is not None:
        assert entry.kernel in KERNEL_FUNCTIONS
    # the vectorised form exists (sign and Heaviside by their own branches)
    if entry.cls is not None and entry.name not in ("Heaviside", "Mod"):
        assert entry.cls in exact_vectorize._UNARY


def test_the_kernel_never_calls_a_new_function_analytic():
    new_heads = {BY_NAME[name].kernel for name in NEW if BY_NAME[name].kernel}
    assert new_heads <= NOT_PROVED_ANALYTIC
    assert {"floor", "ceil"} <= NOT_PROVED_ANALYTIC


# --------------------------------------------------------------------------- domains


@pytest.mark.parametrize("name", NEW)
def test_accepted_inside_its_domain(name):
    expr, _ = INSIDE[name]
    assert parse_activation(sympy.sstr(expr)) == expr


@pytest.mark.parametrize(("text", "words"), sorted(REFUSED.items()))
def test_refused_outside_its_domain_at_a_certified_point(text, words):
    with pytest.raises(DomainError, match=words) as caught:
        parse_activation(text)
    point = caught.value.point
    assert point is not None and sympy.sympify(point).is_Rational
    # the point is outside the domain: evaluating there is an error for every evaluator
    expr = parsing.parse_expression(text).expr
    with pytest.raises(Exception):  # noqa: B017 - EvaluationError or Imprecise, never a value
        enclose(expr, {z: point}, 128)
    assert certify_nonzero(expr, {z: point}) is None


def test_gamma_is_proved_only_for_a_positive_argument_and_says_so():
    with pytest.raises(DomainError, match="pole") as caught:
        parse_activation("gamma(z)")
    assert caught.value.point == 0
    with pytest.raises(DomainError, match="not proved defined"):
        parse_activation("gamma(z - 1/2)")  # gamma(-1/2) is defined: the message must not say undefined
    assert parse_activation("gamma(1/2 + exp(z))") == sympy.gamma(R(1, 2) + sympy.exp(z))


@pytest.mark.parametrize("text", ["Mod(z, -2)", "Mod(z, 0)", "Mod(z, z)", "Mod(z, 1 - pi)"])
def test_mod_needs_a_positive_constant(text):
    with pytest.raises(ParseError, match="positive constant"):
        parse_activation(text)


def test_integer_parts_of_numbers_are_certified_or_kept_as_written():
    assert parse_activation("floor(exp(100))") == sympy.Integer(26881171418161354484126255515800135873611118)
    assert parse_activation("ceiling(sqrt(2)*sqrt(8))") == 4
    assert parse_activation("Mod(pi, 2)") == sympy.pi - 2
    # 1 − e^-60 is just below 1: the integer part is 0, not SymPy's rounded guess
    assert parse_activation("floor(1 - exp(-60))") == 0
    assert parse_activation("ceiling(1 + exp(-60))") == 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=rationals, name=st.sampled_from(["acos", "asin", "atanh"]))
@pytest.mark.slow
def test_inverse_functions_of_c_tanh_are_defined_exactly_when_c_is_inside(c, name):
    # c·tanh(z) takes every value of (−|c|, |c|): inside [−1, 1] iff |c| ≤ 1 (acos, asin), and
    # inside (−1, 1) also for |c| = 1 (the ends are never reached), so atanh too iff |c| ≤ 1
    text = f"{name}({c.numerator}*tanh(z)/{c.denominator})"
    if abs(c) <= 1:
        parse_activation(text)
    else:
        with pytest.raises(DomainError) as caught:
            parse_activation(text)
        with mpmath.workdps(60):  # the point may be irrational (atanh(1/2), where 2·tanh(z) = 1)
            u = _mp(c) * mpmath.tanh(mpmath.mpf(str(sympy.N(caught.value.point, 70))))
            assert abs(u) > 1 if name != "atanh" else abs(u) > 1 - mpmath.mpf(10) ** -50


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=rationals, name=st.sampled_from(["acosh", "loggamma", "gamma", "LambertW"]))
def test_functions_of_c_plus_a_square_are_defined_exactly_when_c_is_inside(c, name):
    # c + z² takes every value of [c, ∞)
    text = f"{name}({c.numerator}/{c.denominator} + z**2)"
    inside = {"acosh": c >= 1, "loggamma": c > 0, "gamma": c > 0, "LambertW": c > -1 / math.e}[name]
    if inside:
        parse_activation(text)
    else:
        with pytest.raises(DomainError):
            parse_activation(text)


def test_open_ends_that_are_never_reached_are_accepted():
    parse_activation("atanh(tanh(z))")  # tanh(z) never reaches ±1
    parse_activation("acos(tanh(z)) + asin(tanh(z))")
    parse_activation("acosh(1 + exp(z))")


def test_nonsmooth_functions_in_obligations_are_decided_soundly():
    assert parse_activation("log(2 + frac(z))") is not None
    assert parse_activation("1/(floor(z) - 1/2)") is not None  # an integer is never 1/2
    with pytest.raises(DomainError, match="z = 1/2"):
        parse_activation("1/(frac(z) - 1/2)")
    with pytest.raises(DomainError):
        parse_activation("sqrt(Mod(z, 3) - 1)")


# --------------------------------------------------------------------------- values


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


@settings(max_examples=30, deadline=None)
@given(x=rationals, name=st.sampled_from(NEW))
def test_arb_and_mpmath_intervals_enclose_mpmath(x, name):
    expr, reference = INSIDE[name]
    with mpmath.workdps(60):
        value = reference(_mp(x))
    interval = enclose(expr, {z: x}, 128)  # Arb
    assert interval.a <= value <= interval.b
    sign = recheck_sign(expr, {z: x})  # the independent mpmath intervals
    expected = int(mpmath.sign(value)) if abs(value) > mpmath.mpf(10) ** -40 or value == 0 else None
    if expected is not None:
        assert sign == expected
    certificate = certify_nonzero(expr, {z: x})
    if value == 0:
        assert certificate is None
    elif certificate is not None:
        assert certificate.sign == int(mpmath.sign(value))


@settings(max_examples=30, deadline=None)
@given(x=rationals, name=st.sampled_from(NEW))
def test_the_kernel_encloses_mpmath(x, name):
    expr, reference = INSIDE[name]
    node = tree(expr)
    with mpmath.workdps(60):
        value = reference(_mp(x))
    with kernel_evaluate.precision(128):
        ball = kernel_evaluate.enclose(node, {"z": arb(x.numerator) / x.denominator}, {"z": x})
    with kernel_evaluate.precision(256):
        reference = arb(mpmath.nstr(value, 55)) + arb(0, "1e-50")  # mpmath's value, to 1e-50
        assert ball.lower() <= reference.upper() and reference.lower() <= ball.upper()
        assert ball.rad() < arb("1e-30") * (1 + abs(ball.mid()))  # relative: gamma(2 + z²) reaches 10⁷ on the range


#: each function of z itself, points inside its domain (float64 arguments, so the comparison
#: measures the function and not the conditioning of an inner function), and mpmath's value
ALONE = {
    "acos": (sympy.acos(z), [-1.0, -0.999, -0.5, 0.0, 1e-9, 0.3, 0.999999, 1.0], mpmath.acos),
    "asin": (sympy.asin(z), [-1.0, -0.5, -1e-12, 0.0, 0.25, 0.9, 1.0], mpmath.asin),
    "atanh": (sympy.atanh(z), [-0.999, -0.5, -1e-12, 0.0, 0.25, 0.9, 0.999999], mpmath.atanh),
    "acosh": (sympy.acosh(z), [1.0, 1.5, 2.0, 10.0, 1e6, 1e300], mpmath.acosh),
    "floor": (sympy.floor(z), [-2.5, -1.0, -1e-300, 0.0, 0.5, 1.0, 3.999999, 1e20], mpmath.floor),
    "ceiling": (sympy.ceiling(z), [-2.5, -1.0, 0.0, 1e-300, 0.5, 1.0, 3.000001], mpmath.ceil),
    "frac": (sympy.frac(z), [-2.5, -1.0, -1e-3, 0.0, 0.5, 1.0, 3.25, 1e6 + 0.5], lambda x: x - mpmath.floor(x)),
    "Mod": (sympy.Mod(z, 2), [-2.5, -1.0, 0.0, 0.5, 1.0, 3.25, 7.0], lambda x: x - 2 * mpmath.floor(x / 2)),
    "gamma": (sympy.gamma(z), [1e-3, 0.5, 1.0, 1.5, 2.0, 4.25, 10.0, 170.0], mpmath.gamma),
    "loggamma": (sympy.loggamma(z), [1e-300, 1e-3, 0.5, 1.0, 1.5, 2.0, 10.0, 1e5], mpmath.loggamma),
    "LambertW": (sympy.LambertW(z), [-0.36, -0.2, 0.0, 1e-10, 1.0, 10.0, 1e100],
                 lambda x: mpmath.lambertw(x).real),
}


@pytest.mark.parametrize("name", NEW)
def test_vectorised_matches_mpmath(name):
    expr, points, reference = ALONE[name]
    ours = vectorize(expr, (z,))(np.array(points))
    with mpmath.workdps(40):
        theirs = np.array([float(reference(mpmath.mpf(p))) for p in points])
    # a few ulp of SciPy's gamma, log-gamma and W; exact or correctly rounded elsewhere
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-300)


@pytest.mark.parametrize("name", NEW)
def test_vectorised_composition_matches_mpmath(name):
    expr, reference = INSIDE[name]
    points = np.array([-4.75, -2.5, -1.0, -0.3, 0.0, 1e-3, 0.5, 1.0, 2.0, 3.25])
    ours = vectorize(expr, (z,))(points)
    with mpmath.workdps(40):
        theirs = np.array([float(reference(mpmath.mpf(float(p)))) for p in points])
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-15)  # the inner function's rounding


def test_floor_at_an_integer_that_is_not_written_as_one_stays_undecided():
    one = sympy.sin(z) ** 2 + sympy.cos(z) ** 2  # exactly 1, but no evaluation knows it exactly
    floor = sympy.floor(one, evaluate=False)
    # the enclosure straddles 1: floor is 0 or 1 as far as any ball knows, never guessed
    assert certify_nonzero(floor - R(1, 2), {z: 1}) is None
    assert recheck_sign(floor - R(1, 2), {z: 1}) is None
    # away from an integer it is certified
    assert certify_nonzero(sympy.floor(sympy.pi * z, evaluate=False) - 3, {z: 1}) is None  # floor(π) = 3
    assert certify_nonzero(sympy.floor(sympy.pi * z, evaluate=False) - R(5, 2), {z: 1}).sign == 1


def test_integer_parts_at_rationals_are_exact():
    for expr, x, value in ((sympy.floor(z), R(-7, 2), -4), (sympy.ceiling(z), R(-7, 2), -3),
                           (sympy.frac(z), R(-7, 2), R(1, 2)), (sympy.Mod(z, 2), R(-7, 2), R(1, 2)),
                           (sympy.floor(z), 3, 3)):
        assert certify_nonzero(expr - value, {z: x}) is None  # exactly 0 …
        assert certify_nonzero(expr - value - R(1, 10**30), {z: x}).exact  # … by exact arithmetic


def test_derivative_arguments_never_pass_through_a_jump():
    from symcheck.exact.roots import roots_in
    from symcheck.exact.signs import Undecided
    # frac(z) − 1/2 "increases with slope 1" between jumps: a derivative argument would find
    # one root on (0, 3); it has three
    with pytest.raises(Undecided):
        roots_in(sympy.frac(z) - R(1, 2), z, sympy.S.Zero, sympy.Integer(3))
    assert INTEGER_PARTS == (sympy.floor, sympy.ceiling, sympy.frac, sympy.Mod)


@pytest.mark.parametrize("text", ["asin(tanh(z))", "atanh(tanh(z)/2)", "z**2*asin(tanh(z))"])
def test_odd_inverse_functions_are_proved_odd_through_the_kernel(text: str) -> None:
    # asin(−x) = −asin(x), atanh(−x) = −atanh(x): kernel rules asin_odd, atanh_odd
    result = sc.check_inverse_scaling(text, alpha=-1)
    assert result.verdict.value == "holds", result.note
    assert result.kernel is not None and result.kernel.accepted


def test_acos_is_not_odd() -> None:
    assert sc.check_inverse_scaling("acos(tanh(z))", alpha=-1).verdict.value == "broken"
