"""Nested Max/Min/Abs/sign written as Piecewise without SymPy deciding any condition (issue 26).

SymPy's Piecewise construction rewrites a condition that holds a Piecewise (Min(C, Max(0, z))
compares C with Max's Piecewise) as an ITE through ``as_set`` and
``solve_univariate_inequality``, which sign numbers by evalf: Min(P, Max(0, z)) came out 0 on
z ≤ 0 for P ≈ −2.7e-40. The value chosen at each point is compared here with mpmath's, for
tiny constants of both signs; the truth is computed by mpmath from the formula only.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcheck.exact.signs import at_point, nonsmooth_to_piecewise
from symcheck.language.parsing import parse_activation
from symcheck.language.symbols import Z

from support.tiny_constants import Tiny, tiny_constants

pytestmark = pytest.mark.usefixtures("generous_parse_budget")  # verdicts, not the machine's load


#: (pattern with C, the same function in mpmath of (z, c))
NESTED = [
    ("Min(C, Max(0, z))", lambda z, c: min(c, max(0, z))),
    ("Max(C, Min(0, z))", lambda z, c: max(c, min(0, z))),
    ("Max(-1, Min(z, C))", lambda z, c: max(-1, min(z, c))),
    ("Min(1, Max(0, z + C))", lambda z, c: min(1, max(0, z + c))),
    ("Min(6, Max(C, z + 3))", lambda z, c: min(6, max(c, z + 3))),
    ("Abs(Max(z, C))", lambda z, c: abs(max(z, c))),
    ("sign(Min(z, C))", lambda z, c: mpmath.sign(min(z, c))),
    ("Heaviside(Max(z, C))", lambda z, c: (1 if max(z, c) > 0 else 0 if max(z, c) < 0 else mpmath.mpf(1) / 2)),
]
POINTS = (-3, -1, sympy.Rational(-1, 2), 0, sympy.Rational(1, 3), 1, 3)


def _value(expr: sympy.Expr, dps: int) -> mpmath.mpf:
    assert not expr.free_symbols, expr
    with mpmath.workdps(dps):
        return mpmath.mpf(sympy.lambdify([], expr, "mpmath")())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NESTED), tiny_constants(max_digits=400))
@pytest.mark.slow
def test_each_point_takes_the_true_branch(nested, c: Tiny) -> None:
    pattern, truth = nested
    text = pattern.replace("C", c.text)
    sigma = parse_activation(text)
    dps = c.dps + 30
    with mpmath.workdps(dps):
        cv = c.compute()
        for z in POINTS:
            got = _value(at_point(sigma, Z, z), dps)
            true = truth(mpmath.mpf(z.p) / z.q if isinstance(z, sympy.Rational) else mpmath.mpf(z), cv)
            assert abs(got - true) <= abs(cv) * mpmath.mpf(10) ** -10, (
                f"σ = {text}\n  C = {c}\n  at z = {z}: symcheck {mpmath.nstr(got, 8)}, true {mpmath.nstr(true, 8)}")


@pytest.mark.parametrize("pattern", [p for p, _ in NESTED])
def test_no_condition_is_an_ite_built_by_sympy(pattern: str) -> None:
    # the conversion lifts inner Piecewise out of relations itself: no ITE, no Piecewise in a condition
    converted = nonsmooth_to_piecewise(parse_activation(pattern.replace("C", "(exp(-30) - log(1 + exp(-30)))")))
    for node in sympy.preorder_traversal(converted):
        if isinstance(node, sympy.Piecewise):
            for _, condition in node.args:
                assert not condition.has(sympy.ITE, sympy.Piecewise), condition
