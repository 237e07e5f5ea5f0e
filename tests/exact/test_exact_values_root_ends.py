"""Real roots (``CRootOf``) are enclosed between two exact rational ends.

The ends come from Arb's isolation (``_real_root_by_arb``) or, when that declines, from SymPy's
exact isolating intervals. Either way they must stay exact rationals (``Fraction``/``Rational``,
never a float, which would be rounded or fail downstream), at every precision the certifier
asks for, including far beyond a float's range. Containment is checked exactly: the polynomial
changes sign between the two ends, read as exact binary numbers.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

import symcheck.exact.evaluate as evaluate
from symcheck.exact.evaluate import _real_root_by_arb, enclose

X = sympy.Symbol("x")


def _exact(raw: tuple) -> Fraction:
    """An mpmath raw number (sign, mantissa, exponent, bits) as an exact Fraction."""
    sign, man, exp, _ = raw
    return (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp)


def _brackets(root: sympy.CRootOf, prec: int) -> tuple[Fraction, Fraction]:
    iv = enclose(root, {}, prec)
    lo, hi = (_exact(end) for end in iv._mpi_)
    poly = root.poly.as_expr().subs(root.poly.gen, X)
    at = [poly.subs(X, sympy.Rational(e.numerator, e.denominator)) for e in (lo, hi)]
    assert lo <= hi and at[0] * at[1] <= 0  # a sign change (or an exact root) between the ends
    return lo, hi


def test_a_huge_real_root_has_exact_integer_ends() -> None:
    # the root is about 10**30 > 2**99: at ~88 bits Arb's ends are integers (exponent >= 0),
    # which must be read as exact integers, not floats
    root = sympy.CRootOf(X**3 - 10**60 * X - 1, 2)
    ends = _real_root_by_arb(root, 72)
    assert ends is not None
    assert all(type(e) is Fraction and e.denominator == 1 for e in ends)
    lo, hi = _brackets(root, 64)
    assert hi - lo <= Fraction(10**30, 2**56)  # ~64 bits of a number near 2**100


@pytest.mark.parametrize("prec", [64, 2048])
def test_the_exact_isolation_fallback_gives_exact_tight_ends(monkeypatch, prec: int) -> None:
    # when Arb's isolation declines, SymPy's exact isolating intervals give the ends: they
    # must be exact rationals, refined to about 2**-prec even past a float's smallest number
    monkeypatch.setattr(evaluate, "_real_root_by_arb", lambda node, bits: None)
    for poly, index in ((X**3 - X - 1, 0), (X**5 - 3 * X + 1, 2), (7 * X**2 - 2, 0)):
        root = sympy.CRootOf(poly, index, radicals=False)
        assert isinstance(root, sympy.CRootOf)
        lo, hi = _brackets(root, prec)
        assert hi - lo <= Fraction(1, 2 ** (prec - 8))
