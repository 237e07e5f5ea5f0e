"""Certified evaluation at single points: each of the three arithmetics (the ranking
approximation, the Arb certifier, the mpmath-interval re-check) gives the value SymPy's exact
arithmetic gives, branch conditions included exactly at their boundary, Heaviside(0) as
written; and a certificate's enclosure holds mpmath's own high-precision value.
"""
from __future__ import annotations

import sys
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S

from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import approximate, certify_nonzero, enclose, enclose_range, recheck_sign
from symcheck.language.symbols import Z

RELATIONS = [sympy.StrictGreaterThan, sympy.GreaterThan, sympy.StrictLessThan, sympy.LessThan,
             sympy.Eq, sympy.Ne]

EXPRESSIONS = [
    *(sympy.Piecewise((2, rel(Z, 1)), (3, True)) for rel in RELATIONS),
    *(sympy.Piecewise((2, rel(Z**2, 4)), (-3, True)) for rel in RELATIONS),
    sympy.Piecewise((5, (Z > 0) & (Z < 2)), (7, (Z <= -1) | (Z >= 3)), (11, True)),
    sympy.Piecewise((5, ~(Z >= 1)), (7, True)),
    sympy.Heaviside(Z), sympy.Heaviside(Z, 0), sympy.Heaviside(Z, 1), sympy.Heaviside(Z - 1, S(1) / 3),
    sympy.sign(Z), sympy.sign(Z - 1), sympy.Abs(Z - 1), sympy.Max(Z, 1 - Z), sympy.Min(Z, 2 * Z, 1),
    Z**3 - 2 * Z + S(1) / 3, 1 / (Z + 3), (Z + 2)**-2, Z * sympy.Heaviside(Z) - sympy.Max(Z, 0),
]
POINTS = [S(-3) / 2, -S.One, S.Zero, S.Half, S.One, S(2), S(3)]


def _arb_end(x) -> Fraction:
    """An end point of an Arb ball (exact: zero radius) as a Fraction."""
    man, exp = x.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _raw_fraction(raw: tuple) -> Fraction:
    sign, man, exp, _ = raw
    value = Fraction(int(man)) * Fraction(2) ** int(exp)
    return -value if sign else value


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=sympy.sstr)
@pytest.mark.parametrize("z", POINTS, ids=str)
def test_every_arithmetic_gives_the_exact_value_at_a_point(expr: sympy.Expr, z: sympy.Rational) -> None:
    exact = expr.xreplace({Z: z})
    assert exact.is_Rational
    with mpmath.workdps(40):  # the ranking value is approximate: 30 digits, not a decision
        assert abs(approximate(expr, {Z: z}, dps=30) - mpmath.mpf(exact.p) / exact.q) < mpmath.mpf(10)**-25
    certificate = certify_nonzero(expr, {Z: z})
    if exact == 0:
        assert certificate is None
    else:
        assert certificate is not None and certificate.exact and certificate.value == exact
        assert certificate.sign == (1 if exact > 0 else -1)
    assert recheck_sign(expr, {Z: z}) == (1 if exact > 0 else -1 if exact < 0 else 0)
    assert recheck_sign(expr - exact, {Z: z}) == 0
    assert certify_nonzero(expr - exact, {Z: z}) is None
    interval = enclose(expr, {Z: z}, 64)
    lo, hi = (_raw_fraction(end) for end in interval._mpi_)
    assert lo <= Fraction(int(exact.p), int(exact.q)) <= hi


@pytest.mark.parametrize("z", POINTS, ids=str)
def test_enclose_range_of_a_point_box_is_the_value(z: sympy.Rational) -> None:
    for expr in EXPRESSIONS:
        exact = expr.xreplace({Z: z})
        ball = enclose_range(expr, {Z: (z, z)}, 64)
        value = Fraction(int(exact.p), int(exact.q))
        assert _arb_end(ball.lower()) <= value <= _arb_end(ball.upper()), (expr, z)


@pytest.mark.parametrize("value", [
    sympy.sin(Z)**2 + sympy.cos(Z)**2 - 1, sympy.cosh(Z)**2 - sympy.sinh(Z)**2 - 1,
    sympy.log(2 * Z) - sympy.log(2) - sympy.log(Z), sympy.atan(Z) + sympy.atan(1 / Z) - sympy.pi / 2,
    sympy.tanh(Z) - (sympy.exp(2 * Z) - 1) / (sympy.exp(2 * Z) + 1),
])
@pytest.mark.parametrize("z", [S(7) / 3, S(3) / 7, S(5)])
def test_an_enclosure_that_touches_zero_is_never_a_sign(value: sympy.Expr, z: sympy.Rational) -> None:
    """These are exactly 0 but not by rational arithmetic: no enclosure may exclude 0."""
    assert value.xreplace({Z: z}) != 0  # SymPy keeps them as written
    assert certify_nonzero(value, {Z: z}) is None
    assert recheck_sign(value, {Z: z}) is None


@pytest.mark.parametrize(("expr", "z"), [
    (sympy.Piecewise((1, sympy.exp(Z) > sympy.E), (0, True)), S.One),
    (sympy.Piecewise((1, sympy.exp(Z) >= sympy.E), (0, True)) - 1, S.One),
    (sympy.Heaviside(sympy.exp(Z) - sympy.E) - S.Half, S.One),
    (sympy.sign(sympy.sin(sympy.pi * Z)), S.One),
])
def test_a_condition_the_enclosures_cannot_decide_certifies_nothing(expr: sympy.Expr, z) -> None:
    """The condition is exactly at its boundary but only transcendentally: undecidable, so no
    certificate and no sign, whichever branch SymPy would pick."""
    assert certify_nonzero(expr, {Z: z}) is None
    assert recheck_sign(expr, {Z: z}) is None


def _reference(expr: sympy.Expr, z: Fraction) -> mpmath.mpf:
    with mpmath.workdps(120):
        return sympy.lambdify(Z, expr, modules="mpmath")(mpmath.mpf(z.numerator) / z.denominator)


UNARY = [sympy.exp, sympy.sin, sympy.cos, sympy.tanh, sympy.atan, sympy.asinh, sympy.erf, sympy.erfc,
         lambda u: sympy.log(1 + u**2), lambda u: sympy.sqrt(1 + u**2)]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(range(len(UNARY))), st.sampled_from(range(len(UNARY))),
       st.fractions(min_value=-8, max_value=8, max_denominator=1000),
       st.fractions(min_value=-3, max_value=3, max_denominator=50))
def test_a_certificate_holds_mpmaths_value(i: int, j: int, z: Fraction, c: Fraction) -> None:
    """f(z) − g(c·z) − k at a rational z: whenever a certificate is given, mpmath's value at
    120 digits lies in its enclosure, with its sign; the re-check never contradicts it."""
    expr = UNARY[i](Z) - UNARY[j](sympy.Rational(c.numerator, c.denominator) * Z) - S(1) / 7
    certificate = certify_nonzero(expr, {Z: sympy.Rational(z.numerator, z.denominator)})
    if certificate is None:
        return
    if certificate.exact:
        assert certificate.value == expr.xreplace({Z: sympy.Rational(z.numerator, z.denominator)})
        return
    with mpmath.workdps(120):
        value = _reference(expr, z)
        assert mpmath.mpf(certificate.lower) <= value <= mpmath.mpf(certificate.upper)
        assert (value > 0) - (value < 0) == certificate.sign
    assert recheck_sign(expr, {Z: sympy.Rational(z.numerator, z.denominator)}) in (certificate.sign, None)


#: negative, but its enclosures straddle 0 at every precision the certifier tries
HIDDEN = sympy.cos(sympy.exp(-5000)) - 1


@pytest.mark.parametrize(("cond", "truth"), [
    (HIDDEN < 0, True), (HIDDEN <= 0, True), (HIDDEN > 0, False), (HIDDEN >= 0, False),
    (-HIDDEN > 0, True), (-HIDDEN < 0, False),
    (sympy.Eq(HIDDEN**2, 0, evaluate=False), False), (sympy.Ne(HIDDEN**2, 0, evaluate=False), True),
    (sympy.Eq(HIDDEN, 0, evaluate=False), False), (sympy.Ne(HIDDEN, 0, evaluate=False), True),
])
@pytest.mark.parametrize("z", [S.One, S(2)])
def test_a_condition_on_a_value_no_enclosure_separates_from_zero_is_never_decided(cond, truth, z) -> None:
    """Each relation, with its enclosure straddling 0 (or touching it, for a square): neither
    branch may be taken, so [cond]·z − truth·z, exactly 0, certifies nothing either way."""
    with sympy.evaluate(False):  # SymPy would decide Eq(x, 0) for a number itself
        chosen = sympy.Piecewise((Z, cond), (0, True))
    assert chosen.has(sympy.Piecewise)
    expr = chosen - (Z if truth else 0)
    assert certify_nonzero(expr, {Z: z}) is None
    assert recheck_sign(expr, {Z: z}) in (None, 0)
    wrong = chosen - (0 if truth else Z)  # ≠ 0, but not certifiable
    assert certify_nonzero(wrong, {Z: z}) is None


@pytest.mark.parametrize(("expr", "z"), [
    (sympy.exp(Z), 1000), (-sympy.exp(Z), 1000), (sympy.exp(-Z), 1000), (-sympy.exp(-Z), 1000),
    (sympy.exp(Z) / 3, 300), (-sympy.exp(-Z) / 7, 300), (Z**40 + sympy.sin(Z), 10**6),
])
def test_the_decimal_ends_of_a_certificate_enclose_a_very_large_or_small_value(expr, z) -> None:
    certificate = certify_nonzero(expr, {Z: z})
    assert certificate is not None and not certificate.exact
    with mpmath.workdps(60):
        value = _reference(expr, Fraction(z))
        assert mpmath.mpf(certificate.lower) <= value <= mpmath.mpf(certificate.upper)


@pytest.mark.parametrize("q", [S(1) / 2, S(4) / 3, S(9) / 2, S(2), S(1) / 4, S(9) / 16, S(25) / 7])
def test_a_square_root_of_a_rational_is_exact_only_when_both_parts_are_squares(q) -> None:
    expr = sympy.sqrt(Z) - S(1) / 3
    certificate = certify_nonzero(expr, {Z: q})
    exact = sympy.sqrt(q) - S(1) / 3
    assert certificate is not None
    assert certificate.exact is bool(exact.is_Rational)
    with mpmath.workdps(60):
        value = mpmath.sqrt(mpmath.mpf(q.p) / q.q) - mpmath.mpf(1) / 3
        slack = mpmath.mpf(10)**-50
        assert mpmath.mpf(certificate.lower) - slack <= value <= mpmath.mpf(certificate.upper) + slack
        assert (value > 0) - (value < 0) == certificate.sign


@pytest.mark.parametrize(("expr", "box", "inside"), [
    (Z**(S(1) / 3), (0, 8), [0, 1, 2]),
    (Z**sympy.pi, (0, 2), [0, 1, 2**3.14159]),
    (Z**(S(3) / 2), (0, 4), [0, 8]),
])
def test_a_real_power_over_a_box_from_zero_encloses_both_ends(expr, box, inside) -> None:
    ball = enclose_range(expr, {Z: box}, 64)
    for v in inside:  # 0 at the lower end, and the largest value at the upper end
        assert ball.lower() <= v <= ball.upper()


@pytest.mark.parametrize(("expr", "z"), [
    (sympy.log(Z), -S.One),          # undefined on the real line there
    (1 / Z, S.Zero),
    (sympy.sqrt(Z), -S(2)),
    (sympy.tanh(Z) - sympy.tanh(3) + sympy.exp(-10**6), S(3)),  # no enclosure of 256 bits decides it
])
def test_a_sign_the_re_check_cannot_decide_is_none_not_zero(expr, z) -> None:
    """0 means "exactly 0 by exact arithmetic"; undefined or undecided is None."""
    assert recheck_sign(expr, {Z: z}, max_prec=256) is None
    assert certify_nonzero(expr, {Z: z}, max_prec=256) is None


def test_the_re_check_says_zero_only_for_an_exact_zero() -> None:
    assert recheck_sign(Z**2 - 4, {Z: S(2)}) == 0
    assert recheck_sign(Z**2 - 4, {Z: S(3)}) == 1
    assert recheck_sign(sympy.exp(Z) - 1, {Z: -S.One}) == -1


#: exactly 0 at z = 1, enclosed by [0, ε] (an Abs of a ball around 0): it touches 0, from above
TOUCH = sympy.Abs(sympy.sin(Z) - sympy.sin(1))
_AT_ZERO = {sympy.StrictLessThan: False, sympy.LessThan: True, sympy.StrictGreaterThan: False,
            sympy.GreaterThan: True, sympy.Eq: True, sympy.Ne: False}


@pytest.mark.parametrize("value", [TOUCH, -TOUCH], ids=["from above", "from below"])
@pytest.mark.parametrize("rel", list(_AT_ZERO), ids=lambda r: r.__name__)
def test_a_condition_on_an_enclosure_that_touches_zero_is_not_decided_against_zero(rel, value) -> None:
    """At z = 1 the value is exactly 0, so `value rel 0` has the truth of `0 rel 0`; an
    enclosure [0, ε] or [−ε, 0] must not decide it otherwise."""
    with sympy.evaluate(False):
        chosen = sympy.Piecewise((Z + 1, rel(value, 0)), (0, True))
    expr = chosen - (Z + 1 if _AT_ZERO[rel] else 0)  # exactly 0 at z = 1
    assert certify_nonzero(expr, {Z: S.One}) is None
    assert recheck_sign(expr, {Z: S.One}) in (None, 0)


@pytest.mark.parametrize("prec", [16, 17, 64])
def test_a_precision_of_at_least_16_bits_is_accepted(prec) -> None:
    assert enclose(Z + 1, {Z: S.One}, prec) is not None
    assert enclose_range(Z + 1, {Z: (S.One, S(2))}, prec) is not None


@pytest.mark.parametrize("prec", [15, 1, 0, -64])
def test_a_precision_below_16_bits_is_refused(prec) -> None:
    with pytest.raises(ValueError, match="prec must be at least 16 bits"):
        enclose(Z + 1, {Z: S.One}, prec)
    with pytest.raises(ValueError, match="prec must be at least 16 bits"):
        enclose_range(Z + 1, {Z: (S.One, S(2))}, prec)


def test_an_empty_box_is_refused() -> None:
    with pytest.raises(ValueError, match="empty interval for z: 2 > 1"):
        enclose_range(Z + 1, {Z: (S(2), S.One)}, 64)


@pytest.mark.parametrize("value", [TOUCH, -TOUCH], ids=["from above", "from below"])
@pytest.mark.parametrize("rel", [sympy.Eq, sympy.Ne, sympy.LessThan, sympy.GreaterThan],
                         ids=lambda r: r.__name__)
def test_a_tiny_non_zero_value_whose_enclosure_touches_zero_decides_no_relation_to_zero(rel, value) -> None:
    """At z = 1 + 2^-200, |sin z − sin 1| is about 2^-201 (not 0), enclosed by [0, ε]: Eq must
    not be decided true, nor Ne false, nor a non-strict order either way."""
    z = 1 + S(2)**-200
    with sympy.evaluate(False):
        chosen = sympy.Piecewise((Z + 1, rel(value, 0)), (0, True))
    truth = bool(rel(sympy.sign(value.subs(Z, z)), 0))  # the sign, exactly: ±1
    for assumed in (True, False):
        expr = chosen - (Z + 1 if assumed else 0)
        certificate = certify_nonzero(expr, {Z: z}, max_prec=128)
        # the wrong assumption may be certified non-zero only if a branch was decided correctly
        assert certificate is None or assumed is not truth


@pytest.mark.parametrize("value", [
    sympy.Min(sympy.sin(1) - sympy.sin(Z), 0),   # about −2^-201, enclosed by [−ε, 0]
    sympy.Max(sympy.sin(Z) - sympy.sin(1), 0),   # about 2^-201, enclosed by [0, ε]
], ids=["below", "above"])
@pytest.mark.parametrize("rel", [sympy.Eq, sympy.Ne], ids=lambda r: r.__name__)
def test_an_enclosure_with_one_end_exactly_zero_does_not_make_a_value_zero(value, rel) -> None:
    """At z = 1 + 2^-200 the value is not 0, so [value = 0]·(z + 1) and [value ≠ 0]·(z + 1) − (z + 1)
    are exactly 0: certifying either non-zero would mean Eq was decided true, or Ne false, from
    an end that is 0."""
    z = 1 + S(2)**-200
    with sympy.evaluate(False):
        chosen = sympy.Piecewise((Z + 1, rel(value, 0)), (0, True))
    zero = chosen - (Z + 1) if rel is sympy.Ne else chosen
    assert certify_nonzero(zero, {Z: z}, max_prec=128) is None
    assert recheck_sign(zero, {Z: z}, max_prec=128) in (None, 0)


# Conditions built from relations on values whose enclosure over a box has one end exactly at
# a cut point (Min, Max, Abs and sign are formed from end points), combined with And, Or, Not
# and ITE. Whatever the box, the enclosure must hold the exact value at every rational point
# of it, and at a single point every arithmetic must give SymPy's exact value.
_LHS = [Z, Z - S.Half, sympy.Min(Z, 0), sympy.Max(Z, 0), sympy.Abs(Z), sympy.Min(Z, S.Half) - S.Half,
        sympy.Max(Z, S.Half) - S.Half, Z**2 - S(1) / 4, sympy.sign(Z), sympy.Heaviside(Z) - S.Half]
_RHS = [S.Zero, S.Half, -S.One]
_ENDS = [S(-1), -S.Half, S.Zero, S(1) / 4, S.Half, S.One, S(2)]

_atoms = st.tuples(st.just("rel"), st.sampled_from(RELATIONS), st.sampled_from(_LHS), st.sampled_from(_RHS))
_conditions = st.recursive(_atoms, lambda inner: st.one_of(
    st.tuples(st.just("not"), inner),
    st.tuples(st.just("and"), inner, inner),
    st.tuples(st.just("or"), inner, inner),
    st.tuples(st.just("ite"), inner, inner, inner),
), max_leaves=4)


def _condition(tree: tuple) -> sympy.Basic:
    """Built under evaluate(False): Not(Z > 0) stays a Not, And stays an And."""
    kind, *parts = tree
    if kind == "rel":
        rel, lhs, rhs = parts
        return rel(lhs, rhs)
    children = [_condition(p) for p in parts]
    return {"not": sympy.Not, "and": sympy.And, "or": sympy.Or, "ite": sympy.ITE}[kind](*children)


_BRANCHES = (Z + S(1) / 3, S(2), S(-3))  # built outside evaluate(False): exact at a point


def _piecewise(first: tuple, second: tuple) -> sympy.Expr:
    with sympy.evaluate(False):
        conditions = _condition(first), _condition(second), sympy.true
        return sympy.Piecewise(*zip(_BRANCHES, conditions, strict=True))


def _exact(expr: sympy.Expr, z: sympy.Rational) -> Fraction:
    value = expr.xreplace({Z: z})
    # the generator builds Not(And(Eq(z, 0), Ne(z, 0))) unevaluated: SymPy leaves Not(False)
    # standing after the substitution; evaluated here, the Piecewise collapses to its value
    value = value.replace(lambda e: isinstance(e, sympy.Not) and isinstance(e.args[0], sympy.logic.boolalg.BooleanAtom),
                          lambda e: sympy.Not(e.args[0]))
    assert value.is_Rational, value
    return Fraction(int(value.p), int(value.q))


@settings(max_examples=150, deadline=None)
@given(_conditions, _conditions, st.sampled_from(_ENDS), st.sampled_from(_ENDS))
def test_a_box_enclosure_of_a_piecewise_holds_its_value_at_every_point(first, second, lo, hi) -> None:
    """A relation, And, Or, Not or ITE decided on the whole box from an enclosure [−ε, 0] or
    [0, ε] (or a None read as a truth) drops a branch that some point of the box takes."""
    lo, hi = min(lo, hi), max(lo, hi)
    expr = _piecewise(first, second)
    ball = enclose_range(expr, {Z: (lo, hi)}, 64)
    low, high = _arb_end(ball.lower()), _arb_end(ball.upper())
    for z in [lo, hi, *(q for q in _ENDS if lo < q < hi), (lo + hi) / 2]:
        assert low <= _exact(expr, z) <= high, (expr, (lo, hi), z)


@settings(max_examples=100, deadline=None)
@given(_conditions, _conditions, st.sampled_from(_ENDS))
def test_at_a_point_a_piecewise_is_decided_exactly(first, second, z) -> None:
    """At a rational point every condition is decided exactly: the certificate is SymPy's exact
    value (none for 0), and the re-check gives its sign."""
    expr = _piecewise(first, second)
    exact = _exact(expr, z)
    certificate = certify_nonzero(expr, {Z: z})
    assert certificate is not None and certificate.exact
    assert certificate.value == sympy.Rational(exact.numerator, exact.denominator)
    assert recheck_sign(expr, {Z: z}) == (1 if exact > 0 else -1)
    assert certify_nonzero(expr - certificate.value, {Z: z}) is None


NOT_INSIDE = sympy.Not(sympy.And(Z > 0, Z < 1))  # stays a Not: SymPy does not push it inward


@pytest.mark.parametrize(("z", "value"), [(S(-1), 1), (S.Zero, 1), (S.Half, 2), (S.One, 1), (S(2), 1)])
def test_a_negation_is_decided_at_a_point(z, value) -> None:
    expr = sympy.Piecewise((1, NOT_INSIDE), (2, True))
    assert isinstance(expr.args[0].cond, sympy.Not)
    certificate = certify_nonzero(expr, {Z: z})
    assert certificate is not None and certificate.value == value
    assert certify_nonzero(expr - value, {Z: z}) is None
    assert recheck_sign(expr - value, {Z: z}) == 0


@pytest.mark.parametrize(("box", "values"), [((S(-1), S.Half), (1, 2)), ((S(1) / 4, S.Half), (2,)),
                                             ((S(2), S(3)), (1,)), ((S.Half, S(2)), (1, 2))])
def test_a_negation_undecided_on_a_box_keeps_both_branches(box, values) -> None:
    ball = enclose_range(sympy.Piecewise((1, NOT_INSIDE), (2, True)), {Z: box}, 64)
    assert _arb_end(ball.lower()) <= min(values) and max(values) <= _arb_end(ball.upper())
    if len(values) == 1:  # decided: exact
        assert _arb_end(ball.lower()) == _arb_end(ball.upper()) == values[0]


W = sympy.Symbol("w")


@pytest.mark.parametrize(("box", "inside"), [
    ({Z: (0, 4), W: (1, 2)}, [0, 1, 4, 16]),          # z**w from 0 to 4**2
    ({Z: (0, 2), W: (S(1) / 2, 3)}, [0, 1, 8]),       # the largest value at the largest exponent
    ({Z: (0, S(1) / 2), W: (1, 2)}, [0, S(1) / 4, S(1) / 2]),  # below 1: at the smallest one
])
def test_a_real_power_with_a_range_of_exponents_from_zero_encloses_its_largest_value(box, inside) -> None:
    """Over z in [0, B] and a range of exponents the values run from 0 up to B**w at one end
    of the exponents' range: the enclosure is [0, top] with top the upper end of B**w, not its
    lower end."""
    ball = enclose_range(Z**W, box, 64)
    for v in inside:
        assert ball.lower() <= v <= ball.upper()


def test_an_expression_nested_too_deeply_to_walk_certifies_nothing() -> None:
    """Heaviside nested a third of the recursion limit deep: SymPy still lists its symbols,
    but the walker (several frames per level) runs out of stack. That is "cannot evaluate":
    no certificate and no sign, never a crash and never a value."""
    depth = sys.getrecursionlimit() // 3
    nested = Z
    with sympy.evaluate(False):
        for _ in range(depth):
            nested = sympy.Heaviside(nested)
    assert nested.free_symbols == {Z}
    assert certify_nonzero(nested, {Z: S.One}) is None
    assert recheck_sign(nested, {Z: S.One}) is None


@pytest.mark.parametrize("failure", [ZeroDivisionError, OverflowError, ValueError, RecursionError])
def test_a_failure_of_the_host_arithmetic_is_a_refusal(failure, monkeypatch) -> None:
    """A host failure inside the arithmetic (injected here into Arb's exp) means "cannot
    evaluate": an EvaluationError naming the expression from enclose and enclose_range, None
    from certify_nonzero; never the bare builtin error, and never a value."""
    from symcheck.exact.balls import BallArithmetic

    def broken(self, x):
        raise failure("injected")

    monkeypatch.setattr(BallArithmetic, "exp", broken)
    expr = sympy.exp(Z) + 1
    for call in (lambda: enclose(expr, {Z: S.One}, 64), lambda: enclose_range(expr, {Z: (S.Zero, S.One)}, 64)):
        with pytest.raises(EvaluationError) as caught:
            call()
        assert str(caught.value) == "cannot evaluate exp(z) + 1: injected"
    assert certify_nonzero(expr, {Z: S.One}) is None
