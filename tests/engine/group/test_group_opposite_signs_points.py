"""maximality.opposite_signs: no a < 0 when σ has one strict sign (or is 0) on a half-line and
takes both signs (or a non-zero value) on the other.

The points it records (``Bound.form``'s change, printed in the reason and sent to the proof
kernel) must lie on the *other* half-line, z = −side·x, and σ must have there the signs the
reason states: σ(change₀) > 0 > σ(change₁), or σ(change₀) ≠ 0 when σ = 0 on the first side.
Each case below makes a slip in the point visible: the strict side on the left or on the right
(−side·x ≠ x only for side = 1), and a zero side next to a branch that vanishes at the first
grid point −1/16 but not at −1.
"""
from __future__ import annotations

from functools import cache

import pytest
from sympy import S

from symcheck.core.budget import Budget
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.facts import BoundKind, certified_sign
from symcheck.engine.group.maximality import opposite_signs
from symcheck.exact.regions import split
from symcheck.exact.signs import at_point
from symcheck.language.activations import activation
from symcheck.language.symbols import Z

W2 = "2*pi*log(Abs(z))/log(2)"
#: negative on z < 0, sign-changing on z > 0 (side −1)
LEFT = f"Piecewise((z*cos({W2}), z > 0), (z*(2 + cos({W2})**2), z < 0), (0, True))"
#: its mirror: negative on z > 0, sign-changing on z < 0 (side 1)
RIGHT = f"Piecewise((-z*(2 + cos({W2})**2), z > 0), (-z*cos({W2}), z < 0), (0, True))"
#: 0 on z ≥ 0; on z < 0 σ(−1) = 15 ≠ 0 but σ(−1/16) = 0 (side 1)
ZERO_RIGHT = "Piecewise((0, z >= 0), (z*(16*z + 1), True))"
#: the mirror: 0 on z ≤ 0, σ(1) ≠ 0 = σ(1/16) (side −1)
ZERO_LEFT = "Piecewise((0, z <= 0), (z*(16*z - 1), True))"

CASES = [(LEFT, -1, "neg"), (RIGHT, 1, "neg"), (ZERO_RIGHT, 1, "zero"), (ZERO_LEFT, -1, "zero")]


@cache
def _bound(spec: str):
    sigma = activation(spec)
    pieces = split(sigma.expr, Z, Budget(60))
    steps: list = []
    return sigma, opposite_signs(sigma, pieces, steps), steps


@pytest.mark.parametrize("spec, side, strict", CASES)
def test_opposite_signs_concludes_on_the_strict_side(spec: str, side: int, strict: str) -> None:
    _, bound, steps = _bound(spec)
    assert bound is not None, spec
    assert bound.kind is BoundKind.EMPTY and bound.by == "signs"
    assert bound.form[0] == side and bound.form[2] == strict
    assert steps and steps[-1].title == "Conclusion, a < 0"


@pytest.mark.parametrize("spec, side, strict", CASES)
def test_the_change_points_lie_on_the_other_side_with_the_stated_signs(spec: str, side: int, strict: str) -> None:
    sigma, bound, _ = _bound(spec)
    assert bound is not None, spec
    change = bound.form[3]
    assert len(change) == (1 if strict == "zero" else 2)
    # on the other half-line: z = −side·x with x > 0
    assert all(certified_sign(x) == -side for x in change), change
    signs = [certified_sign(at_point(sigma.expr, Z, x)) for x in change]
    if strict == "zero":
        assert signs[0] in (1, -1), (change, signs)
    else:
        assert signs == [1, -1], (change, signs)  # σ(change₀) > 0 > σ(change₁), as the reason says
    assert len(set(change)) == len(change)


def test_the_zero_side_records_a_point_where_sigma_is_not_zero() -> None:
    """σ(−1/16) = 0 for ZERO_RIGHT: the first grid point must be skipped, not recorded."""
    sigma, bound, _ = _bound(ZERO_RIGHT)
    assert at_point(sigma.expr, Z, S(-1) / 16) == 0
    assert bound is not None and bound.form[3][0] != S(-1) / 16


@pytest.mark.parametrize("spec", [LEFT, RIGHT])
def test_the_group_with_a_sign_argument_for_a_below_zero_is_complete(spec: str) -> None:
    g = symmetry_group(spec, timeout=60)
    assert g.complete, g.note
    assert g.contains(-1, 1) is False and g.contains(-1, -1) is False and g.contains(2, 2) is True
