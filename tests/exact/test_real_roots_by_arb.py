"""A real algebraic number (SymPy's CRootOf) is enclosed through Arb's certified root isolation;
its ends must bracket the same root SymPy's exact isolation finds, index for index (real roots
in increasing order), at the working precision."""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.exact.evaluate import _real_root_by_arb

X = sympy.Symbol("x")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=2, max_size=7).filter(lambda c: c[-1] != 0),
       st.sampled_from([64, 256, 1024]))
@pytest.mark.slow
def test_each_real_root_is_bracketed_as_exact_isolation_brackets_it(coeffs, bits) -> None:
    poly = sympy.Poly(sum(c * X**k for k, c in enumerate(coeffs)), X)
    for factor, _ in poly.factor_list()[1]:
        exact = factor.intervals(eps=sympy.Rational(1, 2**bits), sqf=True)
        for index, (lo, hi) in enumerate(exact):
            root = sympy.CRootOf(factor, index)
            if not isinstance(root, sympy.CRootOf):
                continue  # a rational root is a number already
            ends = _real_root_by_arb(root, bits)
            if ends is None:
                continue  # the exact isolation is used then
            a, b = ends
            assert a <= Fraction(int(hi.p), int(hi.q)) and Fraction(int(lo.p), int(lo.q)) <= b, (factor, index)
            assert b - a <= Fraction(1, 2 ** (bits - 8))


def test_a_large_coefficient_norm_is_fast_enough_to_parse() -> None:
    """The norm polynomial of √(1 + 10⁻⁶⁹) − √(1 + 10⁻⁷⁰) has 140-digit coefficients; SymPy's
    continued-fraction refinement to the working precision took seconds per root."""
    big = sympy.Poly(X**4 - 2 * (2 + sympy.Rational(11, 10**70)) * X**2 + sympy.Rational(9, 10**139) ** 2, X)
    for factor, _ in big.factor_list()[1]:
        for index in range(len(factor.intervals(sqf=True))):
            root = sympy.CRootOf(factor, index)
            assert not isinstance(root, sympy.CRootOf) or _real_root_by_arb(root, 8192) is not None
