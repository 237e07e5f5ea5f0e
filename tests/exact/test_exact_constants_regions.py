"""Exact constants in regions: an Arb midpoint, radius or end is read as its exact rational
(man·2^exp as a Fraction, no double rounding or underflow), and a Float seed cut becomes
the Rational of its binary value, so every region end is exact."""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from flint import arb, ctx, fmpz

from symcheck.core.budget import Budget
from symcheck.exact.regions import _exact, split
from symcheck.language.symbols import Z


def _ball(man: int, exp: int) -> arb:
    old = ctx.prec
    ctx.prec = 256
    try:
        return arb(fmpz(man)) * arb(2) ** exp  # exact: a power-of-two scaling
    finally:
        ctx.prec = old


@pytest.mark.parametrize(("man", "exp"), [(2**60 + 1, 0), (2**60 + 1, -3000), (3, -1100), (-(2**55) - 1, 7)])
def test_exact_reads_mantissa_and_exponent_without_rounding(man: int, exp: int) -> None:
    x = _ball(man, exp)
    value = _exact(x)
    assert isinstance(value, Fraction)
    assert value == Fraction(man) * Fraction(2) ** exp
    assert value != 0


@pytest.mark.parametrize("seed", [sympy.Float(0.1), sympy.Float("0.1", 50), sympy.Float(-2.5)])
def test_a_float_seed_cut_is_its_exact_binary_value(seed: sympy.Float) -> None:
    pieces = split(sympy.Max(Z, 7), Z, Budget(30), cuts=(seed,))
    ends = {e for p in pieces for e in (p.region.lower, p.region.upper) if e.is_finite}
    assert sympy.Rational(seed) in ends
    for p in pieces:
        for e in (p.region.lower, p.region.upper):
            assert isinstance(e, sympy.Basic) and not e.atoms(sympy.Float), (p.region, type(e))
    point = next(p for p in pieces if p.region.is_point and p.region.lower == sympy.Rational(seed))
    assert point.expr == 7 and point.expr.is_Integer
