"""A case of the two-variable decider is proved on a bijective image of its region (x = 1 + p,
y = −2 − q with p, q > 0): the proof step's justification must say which, or a reader cannot
follow it from the case to the identity that was proved. Each of the three ways a case ends
after the substitution (0 at once, 0 by a named argument, not decided) says it."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.core.budget import Budget
from symcheck.engine.plane import Case, _prove
from symcheck.engine.zero import PieceStatus
from symcheck.exact.regions import Region

x, y = sympy.symbols("x y", real=True)
CASES = [Case(((x, Region(S.One, S.Infinity)), (y, Region(-S.Infinity, S(-2))))),
         Case(((x, Region(S.Zero, S(3))), (y, Region(S.Half, S.Half)))),
         Case(((x, Region(-S.Infinity, S.Zero)),))]
#: (case, branch-free difference, how the case ends): 0 once substituted (y is the point 1/2) or by
#: exact algebra (|x − 1| is x − 1 on x > 1, |x| is −x on x < 0), 0 by an identity, not decided
ROWS = [(CASES[0], sympy.Abs(x - 1) - x + 1, PieceStatus.PROVED),
        (CASES[1], (2 * y - 1) * sympy.exp(x), PieceStatus.PROVED),
        (CASES[2], sympy.Abs(x) + x, PieceStatus.PROVED),
        *((case, sympy.sin(x) ** 2 + sympy.cos(x) ** 2 - 1, PieceStatus.PROVED) for case in CASES),
        *((case, sympy.exp(x) - x - y ** 2, PieceStatus.UNKNOWN) for case in CASES)]


@pytest.mark.parametrize("case, difference, status", ROWS, ids=lambda v: str(v)[:24])
def test_the_justification_names_the_substitution(case, difference, status) -> None:
    outcome = _prove(case, difference, Budget(60), (difference, S.Zero))
    assert outcome.status is status, outcome
    shown = case.substitution_text()
    assert shown.startswith(" (with x = ") and shown.endswith(" > 0)"), shown
    assert outcome.method.endswith(shown), outcome.method
    assert len(outcome.method) > len(shown)  # and what decided it, before the substitution
