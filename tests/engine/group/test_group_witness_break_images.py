"""members.pair_witness tries z = 0, the grid, the rational break points b of σ and their images b/a.

σ = z on z > 100 and 0 elsewhere: every grid point (|z| ≤ 10) and z = 100 give σ(a·z) = c·σ(z) = 0
for a ≤ 1, so a non-member (a, c) with 0 < a < 1 is refuted only at z = 100/a, beyond the break.
That point is tried when it is rational, and never when it is not: a witness is a rational z.
"""
from __future__ import annotations

import sympy
from sympy import Rational, S

from symcheck.engine.group.members import WITNESS_GRID, _break_points, pair_witness
from symcheck.exact.signs import at_point
from symcheck.language.activations import activation
from symcheck.language.symbols import Z

FAR = activation("Piecewise((z, z > 100), (0, True))")


def _residual(a, c, z0):
    return at_point(FAR.expr, Z, a * z0) - c * at_point(FAR.expr, Z, z0)


def test_the_grid_and_the_break_point_leave_the_pair_unrefuted() -> None:
    a = c = Rational(1, 2)
    assert all(_residual(a, c, z0) == 0 for z0 in (S.Zero, *WITNESS_GRID, S(100)))
    assert _residual(a, c, S(200)) == -100


def test_the_image_of_the_break_point_refutes() -> None:
    for a, c in ((Rational(1, 2), Rational(1, 2)), (Rational(1, 4), S.One), (Rational(2, 3), Rational(1, 3))):
        found = pair_witness(FAR, a, c)
        assert found is not None, (a, c)
        assert found[0] == 100 / a and _residual(a, c, found[0]) != 0


def test_the_break_images_are_the_rational_ones() -> None:
    assert _break_points(FAR, Rational(1, 2)) == [100, 200]
    assert _break_points(FAR, sympy.sqrt(2) / 2) == [100]


def test_an_irrational_image_is_never_a_witness() -> None:
    """a = √2/2: 100/a = 100·√2 is irrational; no rational candidate refutes (a, a), so there is no witness."""
    a = sympy.sqrt(2) / 2
    assert _residual(a, a, 100 / a) != 0  # it would refute, but it is not a rational z
    found = pair_witness(FAR, a, a)
    assert found is None or found[0].is_Rational, found
    assert found is None


def test_a_member_has_no_witness() -> None:
    assert pair_witness(FAR, S.One, S.One) is None
