"""Exact constants in the engine: a domain written as a string is its exact rational
(Fraction, never a float), and z3 receives exact rational constants (x**0 is the rational 1)."""
from __future__ import annotations

import pytest
import sympy

from symcheck.engine import smt
from symcheck.engine.fallback import domain_regions
from symcheck.language.symbols import Z


@pytest.mark.parametrize(("spec", "value"), [("1/3", sympy.Rational(1, 3)), ("0.1", sympy.Rational(1, 10)),
                                             ("-7/2", sympy.Rational(-7, 2)), ("2", sympy.Integer(2))])
def test_a_string_domain_is_its_exact_rational(spec: str, value: sympy.Rational) -> None:
    (region,) = domain_regions(spec)
    assert region.is_point and region.lower == value and region.lower.is_Rational


@pytest.mark.skipif(not smt.z3_available(), reason="z3-solver is not installed")
@pytest.mark.parametrize("base", [Z, Z + 1, Z**2 - 3])
def test_a_zeroth_power_translates_to_the_rational_one(base: sympy.Expr) -> None:
    import z3
    e = sympy.Pow(base, 0, evaluate=False)
    assert e.is_Pow and smt.covers(e)  # covered: an integer exponent that is not negative
    ctx = z3.Context()
    z = z3.Real("z", ctx)
    term = smt._Translator(z3, ctx, {Z: z}).term(e)
    solver = z3.Solver(ctx=ctx)
    solver.add(term != z3.RealVal(1, ctx))
    assert solver.check() == z3.unsat
