"""Real roots (``CRootOf``) are enclosed between two exact rational ends.

The ends come from Arb's isolation (``_real_root_by_arb``); a root it cannot isolate is refused.
They must stay exact rationals (``Fraction``/``Rational``,
never a float, which would be rounded or fail downstream), at every precision the certifier
asks for, including far beyond a float's range. Containment is checked exactly: the polynomial
changes sign between the two ends, read as exact binary numbers.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck.exact.evaluate as evaluate
from symcheck.exact.evaluate import EvaluationError, _real_root_by_arb, enclose

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


@given(st.lists(st.integers(-6, 6), min_size=2, max_size=6).filter(lambda c: c[-1] != 0),
       st.sampled_from([64, 2048]))
@settings(max_examples=40, deadline=None)
def test_arb_isolates_every_real_root_sympy_builds(coeffs: list[int], prec: int) -> None:
    # a CRootOf's polynomial is square-free over ZZ (SymPy reduces it), so Arb's isolation
    # never declines and every real root gets exact ends about 2**-prec apart
    poly = sum(c * X**i for i, c in enumerate(coeffs))
    for index in range(sympy.Poly(poly, X).count_roots()):
        root = sympy.CRootOf(poly, index, radicals=False)
        if not isinstance(root, sympy.CRootOf):
            continue  # a rational root, returned as a number
        assert _real_root_by_arb(root, prec + 8) is not None
        lo, hi = _brackets(root, prec)
        assert hi - lo <= max(Fraction(1), abs(lo)) * Fraction(1, 2 ** (prec - 8))


def test_a_root_arb_cannot_isolate_is_refused(monkeypatch) -> None:
    # a node built around SymPy's checks (Arb declines) is refused, never guessed at
    monkeypatch.setattr(evaluate, "_real_root_by_arb", lambda node, bits: None)
    with pytest.raises(EvaluationError, match="cannot isolate"):
        enclose(sympy.CRootOf(X**3 - X - 1, 0, radicals=False), {}, 64)
