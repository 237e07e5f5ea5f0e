"""e on its own (S.Exp1, with no exp(q) node beside it: SymPy writes e² as exp(2), so the
expressions keep e unsquared) is a generator of the zero argument: the base exp(1) must be
known to the exp bases even when no exp(…) node put it there. Polynomial
identities in e are proved; the same expression off by a non-zero rational is not."""
from __future__ import annotations

import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from symcheck.exact.zero_proof import proved_zero

E = sympy.E
rationals = st.fractions(min_value=-20, max_value=20, max_denominator=12).map(sympy.Rational)


def product_minus_expansion(p: sympy.Rational, q: sympy.Rational) -> sympy.Expr:
    """(e + p)(e + q) − e(e + p + q) − pq, which is 0, left unexpanded."""
    assume(p + q != 0)  # else e·e is written exp(2)
    value = sympy.Mul(E + p, E + q) - E * (E + p + q) - p * q
    assert not any(isinstance(node, sympy.exp) for node in sympy.preorder_traversal(value))
    return value


def test_a_polynomial_identity_in_e_alone_is_proved() -> None:
    value = (E + 1) ** 2 - E * (E + 2) - 1
    assert value != 0  # SymPy leaves it unexpanded: the proof has work to do
    assert proved_zero(value)


@settings(max_examples=25, deadline=None)
@given(rationals, rationals)
def test_products_in_e_are_proved_zero(p: sympy.Rational, q: sympy.Rational) -> None:
    assert proved_zero(product_minus_expansion(p, q))


@settings(max_examples=25, deadline=None)
@given(rationals, rationals, rationals.filter(lambda r: r != 0))
def test_off_by_a_rational_is_not_proved(p: sympy.Rational, q: sympy.Rational, r: sympy.Rational) -> None:
    assert not proved_zero(product_minus_expansion(p, q) + r)
