"""Definedness of activations built on bounded and periodic functions (issue 20, item 1).

An argument bounded away from 0 on all of R, a square plus something positive, a product of
positive closed forms: accepted by a certified sign over R (:mod:`symcheck.exact.definite`),
which no root-set argument gives for a periodic or unbounded case. A true zero anywhere, even
at an irrational point, is still refused. Truths are by exact reasoning written beside each
case; verdicts on the accepted ones are checked at their witness with mpmath.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import cos

import symcheck
from symcheck.core.errors import DomainError
from symcheck.core.verdict import Verdict
from symcheck.language.definedness import Obligation, check_defined_on_reals
from symcheck.language.parsing import parse_activation
from symcheck.language.symbols import Z

#: refused before as "could not verify that … is defined for every real z" (issue 20)
ISSUE_EXAMPLES = ["1/(2+cos(z))", "sin(z)/(2+cos(z))", "sqrt(2+cos(z))", "log(2+sin(z))",
                  "1/(2+tanh(z))", "1/(3+sin(z)+cos(z))"]

DEFINED = ISSUE_EXAMPLES + [
    "1/(z**2 - 2*z*cos(z) + 2)",  # (z − cos z)² + 2 − cos² z ≥ 1
    "sqrt(z**2 - 2*z*cos(z) + 2)",
    "log(z**2 + z*sin(z) + 1)",  # (z + sin z/2)² + 1 − sin² z/4 ≥ 3/4
    "1/(2 + sin(z)*cos(z))",  # sin z·cos z ∈ [−1/2, 1/2]
    "tan(tanh(z))",  # |tanh z| < 1 < π/2: cos(tanh z) ≥ cos 1 > 0
    "1/(cosh(z) + sin(z))",  # cosh z ≥ 1 + z²/2 > −sin z: ≥ 0 by ranges alone, > 0 by a cover
    "log(z**2 + 3*sin(z) + 3)",  # z² + 3 + 3 sin z > 0: near z = −π/2 it is ≈ 2.47
    "1/((2 + cos(z))*(z**2 - 2*z*cos(z) + 2))",  # a product of positive closed forms
    "sqrt(1 - tanh(z)**2)",  # 1 − tanh² ∈ (0, 1]
    "Piecewise((1/(z**2 - 2*z*cos(z) + 2), z > 0), (z, True))",  # on a region: the case split
]

REFUSED = [
    "1/(13/10 + sin(z) + cos(z))",  # 13/10 < √2: zeros at irrational points
    "1/(1 + cos(z))",  # 0 at z = π
    "log(1 + sin(z))",  # 0 at z = −π/2
    "sqrt(cos(z))",  # negative at z = π
    "1/(z**2 - 2*z*cos(z) + cos(z)**2)",  # (z − cos z)²: 0 where z = cos z (z ≈ 0.739)
    "tan(2*tanh(z))",  # 2·tanh z reaches π/2
    "1/(z**2 + 1 - exp(-z**2))",  # 0 at z = 0
    "log(z**4 - 10*z**3*sin(z) + 1)",  # negative at z = 2
]


@pytest.mark.parametrize("text", DEFINED)
def test_defined_on_r(text: str) -> None:
    parse_activation(text)


@pytest.mark.parametrize("text", REFUSED)
def test_a_true_zero_is_refused(text: str) -> None:
    with pytest.raises(DomainError):
        parse_activation(text)


def test_the_refusal_at_an_irrational_point_names_it() -> None:
    with pytest.raises(DomainError) as info:
        parse_activation("1/(13/10 + sin(z) + cos(z))")
    point = info.value.point
    assert point is not None
    with mpmath.workdps(50):
        x = mpmath.mpf(sympy.N(point, 50))
        assert abs(mpmath.mpf(13) / 10 + mpmath.sin(x) + mpmath.cos(x)) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize(("kind", "expr"), [
    ("positive", Z**2 - 2 * Z * cos(Z) + 2),
    ("nonzero", Z**2 - 2 * Z * cos(Z) + 2),
    ("nonnegative", 1 - sympy.sin(Z) ** 2),  # cos² z, 0 at π/2: ≥ 0 is all that holds
    ("nonzero", -3 - sympy.sin(Z) - cos(Z)),  # negative everywhere
    ("cos-nonzero", sympy.atan(Z)),  # |atan z| < π/2
])
def test_obligations_proved_by_a_sign_over_r(kind: str, expr: sympy.Expr) -> None:
    check_defined_on_reals(Z, [Obligation(kind, expr, f"the {kind} obligation")])  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "expr"), [
    ("positive", 1 - sympy.sin(Z) ** 2),  # 0 at π/2
    ("nonzero", sympy.Rational(13, 10) + sympy.sin(Z) + cos(Z)),
    ("cos-nonzero", 2 * sympy.atan(Z)),  # 2·atan z reaches π/2 at z = 1
])
def test_obligations_that_fail_somewhere_are_refused(kind: str, expr: sympy.Expr) -> None:
    with pytest.raises(DomainError):
        check_defined_on_reals(Z, [Obligation(kind, expr, f"the {kind} obligation")])  # type: ignore[arg-type]


# --- end to end: a verdict, and a right one ---------------------------------------------------------

def _sigma(text: str):
    expr = parse_activation(text)
    f = sympy.lambdify(Z, expr, modules="mpmath")
    return lambda x: f(mpmath.mpf(x))


@pytest.mark.parametrize("text", ISSUE_EXAMPLES + ["1/(z**2 - 2*z*cos(z) + 2)", "tan(tanh(z))"])
def test_exchange_gives_a_verdict_that_mpmath_confirms(text: str) -> None:
    # none of them is linear, so exchange (a·σ(b) = b·σ(a) for all a, b) is false: broken, with
    # a witness where the two sides differ
    result = symcheck.check_exchange(text)
    assert result.verdict == Verdict.BROKEN
    sigma = _sigma(text)
    a, b = (sympy.Rational(result.witness[k]) for k in ("a", "b"))
    with mpmath.workdps(40):
        left, right = a * sigma(b), b * sigma(a)
        assert abs(left - right) > mpmath.mpf(10) ** -20


# --- generated: a constant against the attained bound of a sum of cosines ----------------------------

@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 3)), min_size=1, max_size=3),
       st.sampled_from([Fraction(-1, 100), Fraction(0), Fraction(1, 100), Fraction(1)]),
       st.sampled_from(["1/({g})", "log({g})", "sqrt({g})"]))
@pytest.mark.slow
def test_generated_cosine_sums(terms, delta, template) -> None:
    # g = Σaᵢ + δ − Σ aᵢ cos(kᵢz) ≥ δ, with g(0) = δ: g > 0 on R iff δ > 0, g ≥ 0 iff δ ≥ 0
    bound = sum(a for a, _ in terms)
    constant = Fraction(bound) + delta
    g = f"{constant.numerator}/{constant.denominator}" + "".join(f" - {a}*cos({k}*z)" for a, k in terms)
    text = template.format(g=g)
    defined = delta > 0 or (delta == 0 and template.startswith("sqrt"))
    if defined:
        parse_activation(text)
    else:
        with pytest.raises(DomainError):
            parse_activation(text)
