"""The sign of a closed-form number comes from a certificate, never from SymPy's evalf (issue 26).

The constants come from ``tiny_constants``: cancellations such as log(1 + x) − x + x²/2 at
x = e^-k, 10^-k, 2^-k, whose TRUE sign is computed here by mpmath at high precision (two
precisions that agree). SymPy's assumptions and automatic evaluation look at about 2 digits:
``log(1 + exp(-30)) - log(1 + 2*exp(-30))`` (≈ −9.4e-14) "is zero", and
``exp(-30) - log(1 + exp(-30)) - exp(-60)/2`` (≈ −2.7e-40) "is positive".

What is asserted:

- :func:`symcheck.exact.signs.exact_sign` answers the true sign or raises Undecided; it answers
  0 for a true zero (one only exact rewriting proves) or raises Undecided, never ±1;
- :func:`~symcheck.exact.signs.certified_order` the same for x − y;
- :func:`~symcheck.exact.signs.at_point` chooses the branch the true sign chooses, or keeps it;
- the parser's value of ``Abs(C)``, ``Max(C, 0)``, ``sign(C)``, ``Heaviside(C)``,
  ``Piecewise((1, C > 0), (0, True))`` is the true one (evaluated by mpmath from the parsed
  tree, never by SymPy's evalf).
"""
from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcheck.core.errors import Undecided
from symcheck.exact.signs import at_point, certified_order, exact_sign
from symcheck.language.parsing import parse_expression
from symcheck.language.symbols import Z

from support.tiny_constants import (
    BASES,
    D_TEXT,
    FAMILIES,
    K_RANGES,
    P_TEXT,
    D,
    P,
    Tiny,
    mp_value,
    negated,
    tiny,
    tiny_constants,
)

# verdicts, not the machine's load; slow: among the heaviest files measured, left out of the quick run
pytestmark = [pytest.mark.usefixtures("generous_parse_budget"), pytest.mark.slow]

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sign_or_undecided(value: sympy.Expr) -> int | None:
    try:
        return exact_sign(value)
    except Undecided:
        return None


def order_or_undecided(x: sympy.Expr, y: sympy.Expr) -> int | None:
    try:
        return certified_order(x, y)
    except Undecided:
        return None


def mp_of(expr: sympy.Expr, dps: int, z: mpmath.mpf | None = None) -> mpmath.mpf:
    """A parsed expression evaluated by mpmath from its tree (lambdify), never SymPy's evalf."""
    with mpmath.workdps(dps):
        if z is None:
            return +sympy.lambdify([], expr, "mpmath")()
        return +sympy.lambdify([Z], expr, "mpmath")(z)


# --- the two constants of the issue -------------------------------------------------------------

def test_the_constants_of_the_issue_have_the_signs_mpmath_gives() -> None:
    # the helper's own truth, at 120 and 240 digits as in the issue
    for c, sign in ((P, -1), (D, -1)):
        for dps in (120, 240):
            assert (c.mp(dps) > 0) - (c.mp(dps) < 0) == sign
    assert c.sign == -1 and P.sign == -1
    assert -41 < P.log10 < -39 and -14 < D.log10 < -12


def test_exact_sign_of_P_is_negative_or_undecided() -> None:
    # P = −f(e^-30), f(x) = log(1+x) − x + x²/2 > 0: SymPy's P.is_positive is True
    assert sign_or_undecided(P.expr) in (-1, None)
    assert sign_or_undecided(-P.expr) in (1, None)
    assert sign_or_undecided(parse_expression(P_TEXT).expr) in (-1, None)


def test_exact_sign_of_D_is_negative_never_zero() -> None:
    # D ≈ −9.36e-14 is far above Arb's reach: the answer must be −1 (SymPy: (−D).is_zero is True)
    assert exact_sign(D.expr) == -1
    assert exact_sign(-D.expr) == 1
    assert exact_sign(parse_expression(D_TEXT).expr) == -1


def test_certified_order_of_the_two_logarithms_of_D() -> None:
    x = sympy.exp(-30)
    assert certified_order(sympy.log(1 + x), sympy.log(1 + 2 * x)) == -1
    assert certified_order(sympy.log(1 + 2 * x), sympy.log(1 + x)) == 1


# --- true zeros: 0 or Undecided, never a sign --------------------------------------------------------

X = sympy.exp(-30)
TRUE_ZEROS = [
    sympy.exp(sympy.log(3)) - 3,
    sympy.sqrt(2) * sympy.sqrt(8) - 4,
    sympy.sin(sympy.pi / 7) ** 2 + sympy.cos(sympy.pi / 7) ** 2 - 1,
    sympy.log(1 + X) - sympy.log(1 + 2 * X) + sympy.log((1 + 2 * X) / (1 + X)),
    (sympy.sqrt(1 + X) - 1) * (sympy.sqrt(1 + X) + 1) - X,
    sympy.sqrt(3 + 2 * sympy.sqrt(2)) - 1 - sympy.sqrt(2),
    sympy.tanh(sympy.log(2)) - sympy.Rational(3, 5),
    sympy.cos(sympy.pi / 5) - (1 + sympy.sqrt(5)) / 4,
    sympy.exp(X) * sympy.exp(-X) - 1,
    sympy.log(sympy.exp(-30) * (1 + sympy.exp(-30))) + 30 - sympy.log(1 + sympy.exp(-30)),
    sympy.atan(1) - sympy.pi / 4,
    sympy.sinh(sympy.log(3)) - sympy.Rational(4, 3),
]


@pytest.mark.parametrize("zero", TRUE_ZEROS, ids=[sympy.sstr(z)[:50] for z in TRUE_ZEROS])
def test_a_true_zero_is_zero_or_undecided(zero: sympy.Expr) -> None:
    # a zero is never certified non-zero: an enclosure of 0 always contains 0
    assert sign_or_undecided(zero) in (0, None)


@pytest.mark.parametrize("zero", TRUE_ZEROS, ids=[sympy.sstr(z)[:50] for z in TRUE_ZEROS])
def test_a_true_zero_is_no_order(zero: sympy.Expr) -> None:
    assert order_or_undecided(zero + 1, sympy.Integer(1)) in (0, None)


# --- generated constants --------------------------------------------------------------------------

@SETTINGS
@given(tiny_constants())
def test_exact_sign_is_the_true_sign_or_undecided(c: Tiny) -> None:
    assert sign_or_undecided(c.expr) in (c.sign, None), str(c)
    assert sign_or_undecided(-c.expr) in (-c.sign, None), str(c)


@SETTINGS
@given(tiny_constants(max_digits=600))
def test_exact_sign_of_the_parsed_text_is_the_true_sign_or_undecided(c: Tiny) -> None:
    assert sign_or_undecided(parse_expression(c.text).expr) in (c.sign, None), str(c)


@SETTINGS
@given(st.sampled_from(["e", "10", "2", "1e"]), st.integers(0, 10**6))
def test_the_logarithm_difference_is_never_zero(base: str, seed: int) -> None:
    # log(1 + x) − log(1 + 2x) ≈ −x: at x ≥ 10^-300 Arb certifies it at once; 0 is always wrong
    low, high = K_RANGES[base]
    k = low + seed % (high - low + 1)
    c = tiny("logq", base, k)
    assert c.sign == -1
    assert sign_or_undecided(c.expr) in (-1, None), str(c)
    assert sign_or_undecided(c.expr) != 0, str(c)


#: family -> (x ↦ (lhs, rhs)) with lhs − rhs = f(x)
SPLITS = {
    "log3": lambda x: (sympy.log(1 + x), x - x**2 / 2),
    "logq": lambda x: (sympy.log(1 + x), sympy.log(1 + 2 * x)),
    "exp2": lambda x: (sympy.exp(x), 1 + x),
    "sqrt2": lambda x: (sympy.sqrt(1 + x), 1 + x / 2),
}


@SETTINGS
@given(st.sampled_from(sorted(FAMILIES)), st.sampled_from(sorted(BASES)), st.integers(0, 10**6))
def test_certified_order_is_the_true_order_or_undecided(family: str, base: str, seed: int) -> None:
    low, high = K_RANGES[base]
    high = min(high, {"e": 1500, "10": 100, "1e": 300, "2": 100}[base])
    k = low + seed % (high - low + 1)
    c = tiny(family, base, k)
    lhs, rhs = SPLITS[family](BASES[base][2](k))
    assert order_or_undecided(lhs, rhs) in (c.sign, None), str(c)
    assert order_or_undecided(rhs, lhs) in (-c.sign, None), str(c)


# --- a number put into a branch -------------------------------------------------------------------

def _branch_cases(c: Tiny):
    """(expression in z, point, true value at the point as a function of c's sign)."""
    s = c.sign
    yield sympy.Piecewise((1, Z + c.expr > 0), (0, True)), 0, 1 if s > 0 else 0
    yield sympy.Piecewise((1, Z > c.expr), (0, True)), 0, 1 if s < 0 else 0
    yield sympy.Piecewise((1, Z**3 + Z + c.expr <= 0), (0, True)), 0, 1 if s < 0 else 0
    yield sympy.Piecewise((1, sympy.Eq(Z, c.expr)), (0, True)), 0, 0
    yield sympy.Piecewise((Z + 1, (Z - 1) * c.expr >= 0), (Z, True)), 2, 3 if s > 0 else 2


@SETTINGS
@given(tiny_constants(max_digits=1500))
def test_at_point_takes_the_true_branch_or_keeps_the_choice(c: Tiny) -> None:
    with sympy.evaluate(False):
        cases = list(_branch_cases(c))
    for expr, point, value in cases:
        got = at_point(expr, Z, sympy.Integer(point))
        assert got == value or got.has(sympy.Piecewise), f"{sympy.sstr(expr)[:120]} at z = {point}: {got}, {c}"


# --- the parser's value of a constant ----------------------------------------------------------------

#: text with C -> the true value from c (an mpmath number)
VALUES = {
    "Abs(C)": lambda c: abs(c),
    "Max(C, 0)": lambda c: max(c, 0),
    "Min(C, 0)": lambda c: min(c, 0),
    "Max(C, -C)": lambda c: abs(c),
    "Max(1, 1 + C) - 1": lambda c: max(0, c),
    "sign(C)": lambda c: mpmath.sign(c),
    "Heaviside(C)": lambda c: 1 if c > 0 else 0,
    "Piecewise((1, C > 0), (0, True))": lambda c: 1 if c > 0 else 0,
    "Piecewise((1, C >= 0), (0, True))": lambda c: 1 if c >= 0 else 0,
    "Piecewise((1, Eq(C, 0)), (0, True))": lambda c: 0,
    "Piecewise((1, Ne(C, 0)), (0, True))": lambda c: 1,
    "Abs(C) - C": lambda c: abs(c) - c,
}


@SETTINGS
@given(tiny_constants(max_digits=1200), st.sampled_from(sorted(VALUES)))
def test_the_parser_gives_a_constant_its_true_value(c: Tiny, pattern: str) -> None:
    # a ParseError here refuses a valid real expression ("compares a number that is not real")
    parsed = parse_expression(pattern.replace("C", c.text)).expr
    dps = c.dps
    true = mp_value(lambda: VALUES[pattern](c.compute()), dps)
    got = mp_of(parsed, dps)
    with mpmath.workdps(dps):
        # |C| > 10^-(dps/2): a wrong branch is off by at least |C|
        right = bool(abs(got - true) <= abs(c.mp(dps)) * mpmath.mpf(10) ** -10)
        assert right, (
            f"{pattern} with C = {c}: parsed as {sympy.sstr(parsed)[:200]}, value {mpmath.nstr(got, 8)}, "
            f"true value {mpmath.nstr(true, 8)}")


@SETTINGS
@given(tiny_constants(max_digits=1200))
def test_an_activation_at_a_point_has_its_true_value(c: Tiny) -> None:
    # σ(0) for σ = Piecewise((z + 1, z + C > 0), (z, True)): 1 iff C > 0, through the public API
    import symcheck as sc
    sigma = sc.activation(f"Piecewise((z + 1, z + {c.text} > 0), (z, True))")
    value = sigma(sympy.Integer(0))
    assert value == (1 if c.sign > 0 else 0) or value.has(sympy.Piecewise), f"σ(0) = {value} for C = {c}"


def test_negated_constants_keep_their_magnitude() -> None:
    c = tiny("log3", "e", 100)
    assert negated(c).sign == -c.sign and abs(negated(c).log10 - c.log10) < 1e-9
