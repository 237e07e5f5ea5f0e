"""Cut points are proved complete: every root inside the interval is among them, or Undecided."""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S, oo, pi, sqrt

from symcheck.exact.roots import roots_in
from symcheck.exact.signs import Undecided, certified_order, exact_sign
from symcheck.language.symbols import Z


def points(g, lower=-oo, upper=oo) -> tuple:
    return roots_in(g, Z, sympy.sympify(lower), sympy.sympify(upper)).points


def test_rational_polynomial_roots_are_exact() -> None:
    assert points(Z**2 - 2, 0, 2) == (sqrt(2),)
    assert points(Z**3 - Z) == (-1, 0, 1)
    assert points(Z**3 - Z, 0, 1) == ()  # the ends of an open interval are not inside


def test_algebraic_coefficients_are_cut_through_the_norm() -> None:
    assert points((1 - sqrt(2)) * Z) == (0,)
    assert points(Z - sqrt(2), 0, 2) == (sqrt(2),)
    assert points(Z - 1 - sqrt(3)) == (1 + sqrt(3),)
    found = roots_in(sqrt(2) * Z**2 - 1, Z, -oo, oo)
    assert "norm" in found.argument
    assert [sympy.nsimplify(sympy.simplify(p**2)) for p in found.points] == [sqrt(2) / 2, sqrt(2) / 2]


def test_conjugate_roots_where_g_is_certified_nonzero_are_dropped() -> None:
    # the norm of z - √2 is z² - 2; its root −√2 is not a root of z − √2
    assert points(Z - sqrt(2)) == (sqrt(2),)


def test_linear_with_transcendental_coefficients() -> None:
    assert points(Z - pi) == (pi,)
    assert points(2 * Z + sympy.E, -5, 0) == (-sympy.E / 2,)


def test_sign_definite_and_monotone_conditions() -> None:
    assert points(sympy.exp(Z) + 1) == ()
    assert points(sympy.exp(Z) - 2) == (sympy.log(2),)
    assert points(sympy.exp(Z) - 2, 1, oo) == ()  # increasing and already positive at 1


def test_periodic_condition_on_a_half_line_is_undecided() -> None:
    # SymPy's solveset answers EmptySet here; the roots 3π/4 + kπ are infinitely many
    with pytest.raises(Undecided, match="no finite set of cut points"):
        points(sympy.sin(Z) + sympy.cos(Z), 0, oo)
    with pytest.raises(Undecided):
        points(sympy.sin(Z) + sympy.cos(Z), -oo, 0)


def test_bounded_transcendental_roots_are_isolated_and_matched() -> None:
    found = roots_in(sympy.sin(Z) + sympy.cos(Z), Z, S(0), S(10))
    assert found.points == (3 * pi / 4, 7 * pi / 4, 11 * pi / 4)
    assert "ball-arithmetic isolation" in found.argument


def test_root_without_closed_form_is_undecided() -> None:
    with pytest.raises(Undecided, match="no closed form"):
        points(sympy.tanh(Z) - Z / 2, 1, 3)


def test_root_that_cannot_be_placed_is_refused_not_dropped() -> None:
    # c = atan(1/2) + atan(1/3) − π/4 is exactly 0 (a Machin-like formula SymPy does not
    # know): no enclosure excludes 0 and no rewrite shows it, so c cannot be placed
    c = sympy.atan(S(1) / 2) + sympy.atan(S(1) / 3) - pi / 4
    with pytest.raises(Undecided):
        points(Z - c, 0, oo)


def test_tiny_positive_root_is_placed_by_enough_precision() -> None:
    # SymPy's Interval.contains says False for this root in (0, oo); it is inside
    c = sympy.log(1 + sympy.exp(-2000))
    assert points(Z - c, 0, oo) == (c,)


def test_certified_order() -> None:
    assert certified_order(sqrt(2), S(1)) == 1
    assert certified_order(-oo, pi) == -1
    assert certified_order(pi, pi) == 0
    assert exact_sign(sqrt(2) * sqrt(3) - sqrt(6)) == 0
    with pytest.raises(Undecided):
        exact_sign(sympy.atan(S(1) / 2) + sympy.atan(S(1) / 3) - pi / 4)


# --- generated: polynomials with known algebraic roots ----------------------------------------

_ROOTS = [S(0), S(1), -S(3) / 2, sqrt(2), -sqrt(2), 1 + sqrt(3), -sqrt(5) / 2, sqrt(2) + sqrt(3) / 2]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(_ROOTS), min_size=1, max_size=3, unique=True),
       st.sampled_from([S(1), sqrt(2), 3 - sqrt(3)]),
       st.sampled_from([(-oo, oo), (S(0), oo), (-oo, S(1)), (-S(2), S(2))]))
@pytest.mark.slow
def test_every_known_root_is_a_cut_point(known, scale, interval) -> None:
    g = sympy.expand(scale * sympy.Mul(*(Z - r for r in known)))
    lower, upper = interval
    cuts = roots_in(g, Z, lower, upper).points
    for r in known:
        inside = certified_order(r, lower) > 0 and certified_order(upper, r) > 0
        if inside:
            # the oracle compares at 60 digits: cut points may be CRootOf, r a radical
            assert any(abs((r - c).evalf(60)) < 1e-40 for c in cuts), (g, r, cuts)
    for c in cuts:  # nothing outside the open interval
        assert certified_order(c, lower) > 0 and certified_order(upper, c) > 0
