"""A case is proved "as written" only when its two sides are the same expression there: a
left side that is exactly 0 on a case says nothing while the right side is not (plane.py's
``written`` test reads the difference, never one side).
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.plane import decide_plane, whole_line
from symcheck.engine.zero import PieceStatus
from symcheck.language.symbols import A, B

SPACE = {A: whole_line(), B: whole_line()}
# points off the grid of simple rationals the decider searches first, so only the case
# proof can tell the sides apart there
OFF_GRID = [sympy.sqrt(2), sympy.pi, 1 + sympy.sqrt(3) / 7, -sympy.E]


@pytest.mark.parametrize("rhs", [B, A + 1, sympy.Abs(B) + 1, sympy.Heaviside(A)], ids=str)
def test_a_left_side_that_is_zero_as_written_proves_nothing(rhs: sympy.Expr) -> None:
    decision = decide_plane(S.Zero, rhs, SPACE, Budget(60))
    assert decision.verdict is Verdict.BROKEN
    assert rhs.subs(decision.witness) != 0


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("point", OFF_GRID, ids=str)
def test_a_difference_only_where_one_side_vanishes_as_written_is_found(point: sympy.Expr, swap: bool) -> None:
    # (a − p)·b is exactly 0 as written on the case a = p; the other side is 1 more there only
    vanishing = (A - point) * B
    left, right = vanishing, vanishing + sympy.Piecewise((1, sympy.Eq(A, point)), (0, True))
    if swap:
        left, right = right, left
    decision = decide_plane(left, right, SPACE, Budget(60))
    # the case a = p is not proved: inconclusive today, or broken with the witness there
    assert decision.verdict is not Verdict.HOLDS
    assert any(o.status is not PieceStatus.PROVED and dict(o.case.regions)[A].is_point for o in decision.cases)
    if decision.verdict is Verdict.BROKEN:
        assert decision.witness[A] == point
