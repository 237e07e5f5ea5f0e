"""A Piecewise with no `True` branch is undefined where none of its conditions holds; the z3
translation gives it a fresh unconstrained value *there only*: where the last condition holds
the value is that branch's (an unconstrained value in the wrong place, or the branch's value
where no condition holds, would let z3 prove or refute the wrong statement). Checked at points
inside each branch, and by the cross-check on an activation with such a Piecewise: relu written
with both conditions is positively homogeneous, so z3 must find no point where scaling fails."""
from __future__ import annotations

import pytest
import sympy

from symcheck.engine import smt
from symcheck.language.activations import activation
from symcheck.language.symbols import Z
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

pytest.importorskip("z3", reason="z3-solver is in the test extra; without it there is no cross-check")

from test_z3_cross_check import _value_at  # noqa: E402  (z3 is present from here on)

PARTIAL = [sympy.Piecewise((1, Z > 1), (2, Z < -1)),
           sympy.Piecewise((Z, Z > 1), (3 * Z, Z < -1)),
           sympy.Piecewise((Z ** 2, Z > 1), (1 - Z, (Z < -1) & (Z > -5)))]


@pytest.mark.parametrize("expr", PARTIAL, ids=str)
@pytest.mark.parametrize("z", ["2", "3", "7/2", "-2", "-3", "-9/2"])
def test_the_last_branch_has_its_value_where_its_condition_holds(expr, z) -> None:
    point = {Z: sympy.Rational(z)}
    expected = expr.xreplace(point)
    assert expected.is_Rational
    assert _value_at(expr, point) == expected


def test_z3_proves_scaling_for_relu_written_without_a_default_branch() -> None:
    sigma = activation("Piecewise((z, z > 0), (0, z <= 0))")
    cross = smt.cross_check(sigma, Transformation("inverse-scaling", domain("positive")), form("gated"),
                            "holds", None)
    assert cross.verdict == "holds", cross
    assert cross.agrees is True
