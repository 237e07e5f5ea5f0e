"""The two-variable decider keeps the statement's orientation: what it reports as the difference
is left − right as written, and in every case the branch-free sides it records are the left side
and the right side of that case, in that order (the derivation and the certificate print them as
"left = right", so a swap would misstate what was proved even where the verdict is the same).
Checked at exact rational points inside each case against the two sides as written."""
from __future__ import annotations

import itertools

import pytest
import sympy

from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.plane import decide_plane, whole_line
from symcheck.language.symbols import A, B

SPACE = {A: whole_line(), B: whole_line()}

IDENTITIES = [
    (sympy.Abs(A * B), sympy.Abs(A) * sympy.Abs(B)),
    (2 * sympy.Max(A, 0) * B, (A + sympy.Abs(A)) * B),
    (sympy.Max(A, 0) * sympy.Min(B, 0), sympy.Piecewise((A * B, (A > 0) & (B < 0)), (0, True))),
    (sympy.Piecewise((A * B, A > 0), (0, True)), sympy.Heaviside(A, 0) * A * B),
]


@pytest.mark.parametrize("lhs, rhs", IDENTITIES + [(r, l) for l, r in IDENTITIES])
def test_the_difference_and_each_cases_sides_keep_the_written_order(lhs, rhs) -> None:
    decision = decide_plane(lhs, rhs, SPACE, Budget(60))
    assert decision.verdict is Verdict.HOLDS
    assert sympy.expand(decision.difference - (lhs - rhs)) == 0
    checked = 0
    for outcome in decision.cases:
        if outcome.sides is None:
            continue
        regions = dict(outcome.case.regions)
        grids = [regions[v].samples(3) if v in regions else [sympy.Rational(3, 7)] for v in (A, B)]
        for a, b in itertools.product(*grids):
            point = {A: a, B: b}
            assert outcome.sides[0].xreplace(point) == lhs.xreplace(point), (outcome.case.describe(), point)
            assert outcome.sides[1].xreplace(point) == rhs.xreplace(point), (outcome.case.describe(), point)
            checked += 1
    assert checked > 0
