"""The certified enclosure of a real algebraic number (a CRootOf) brackets that very root.

``exact/evaluate`` encloses CRootOf(p, i) by Arb's root isolation of p, reading each ball's
exact ends back as rationals. Checked here by exact rational arithmetic only, on those ends
(the enclosure rounded out to the working precision would hide an end misread by a few ulps)
and on the enclosure: [a, b] holds the i-th real root of p exactly when at most i real roots lie below a and at
least i + 1 lie at or below b (SymPy's Sturm count, exact), and it is narrow.
"""
from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath.libmp import to_rational

from symcheck.exact.evaluate import _real_root_by_arb, enclose

x = sympy.Symbol("x")


def _end(mpf_value) -> sympy.Rational:
    p, q = to_rational(mpf_value)
    return sympy.Rational(p, q)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 7), st.lists(st.integers(-40, 40), min_size=2, max_size=7), st.integers(1, 9))
def test_each_real_root_is_bracketed_by_its_enclosure(degree: int, low: list[int], lead: int) -> None:
    poly = sympy.Poly(lead * x**degree + sum(c * x**k for k, c in enumerate(low[:degree])), x)
    for factor, _ in poly.factor_list()[1]:
        if factor.degree() < 2:
            continue  # rational roots are Rationals, not CRootOf
        for i in range(factor.count_roots()):
            root = sympy.CRootOf(factor, i)
            if not isinstance(root, sympy.CRootOf):
                continue  # SymPy writes a quadratic's roots out as radicals: no CRootOf to enclose
            interval = enclose(root, {}, 80)
            ends = _real_root_by_arb(root, 80)
            assert ends is not None  # square-free with rational coefficients: Arb's isolation
            for a, b in ((_end(interval._mpi_[0]), _end(interval._mpi_[1])),
                         tuple(sympy.Rational(e.numerator, e.denominator) for e in ends)):
                below_a = factor.count_roots(None, a) - (1 if factor.eval(a) == 0 else 0)
                assert below_a <= i < factor.count_roots(None, b), (factor, i, a, b)
                assert b - a <= Fraction(1, 2**60) * max(1, abs(a)), (factor, i, a, b)
