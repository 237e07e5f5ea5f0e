"""The guard runs whenever the check has time left, never past its deadline, and withdraws a
proof only with a counterexample it certified (and records every withdrawal)."""
from __future__ import annotations

import pytest
import sympy

from symcheck.core.budget import Budget
from symcheck.engine import guard
from symcheck.engine.plane import whole_line
from symcheck.exact.evaluate import certify_nonzero
from symcheck.language.symbols import A, B

#: false everywhere but on the line a = 0: any sample of the guard refutes it
FALSE = sympy.Max(A, 0) * B - A * B
SPACE = {A: whole_line(), B: whole_line()}


class _Left:
    """A check's budget with a fixed time left (the guard reads only ``remaining``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def remaining(self) -> float:
        return self.seconds


@pytest.fixture
def own_budgets(monkeypatch):
    """The seconds of each budget the guard makes for itself; the search then gets a generous
    one, so that what is tested is when the guard runs, not how fast the machine is."""
    made: list[float] = []

    def generous(seconds: float) -> Budget:
        made.append(seconds)
        return Budget(120)

    monkeypatch.setattr(guard, "Budget", generous)
    return made


@pytest.mark.withdrawal
@pytest.mark.parametrize(("left", "elapsed", "share"), [
    (0.75, 0.0, 0.5),     # less than a second left: the guard still runs, for its floor
    (0.2, 0.0, 0.2),      # never past the check's deadline
    (60.0, 100.0, 10.0),  # a tenth of the time the check took
])
def test_the_guard_runs_whenever_time_is_left(own_budgets, left, elapsed, share) -> None:
    found = guard.counterexample(FALSE, SPACE, _Left(left), elapsed=elapsed)
    assert own_budgets == [pytest.approx(share)]
    assert found is not None and found.point[A] < 0 and found.point[B] != 0
    assert certify_nonzero(FALSE, dict(found.point)) is not None


@pytest.mark.parametrize("left", [0.0, -1.0])
def test_the_guard_does_not_run_without_time_left(own_budgets, left) -> None:
    assert guard.counterexample(FALSE, SPACE, _Left(left)) is None
    assert own_budgets == []


def test_a_true_statement_has_no_counterexample(own_budgets) -> None:
    before = len(guard.WITHDRAWN)
    assert guard.counterexample(sympy.Max(A, 0) * B - (A + sympy.Abs(A)) * B / 2, SPACE, _Left(5)) is None
    assert len(guard.WITHDRAWN) == before


@pytest.mark.withdrawal
def test_every_counterexample_is_recorded(own_budgets) -> None:
    before = len(guard.WITHDRAWN)
    found = guard.counterexample(FALSE, SPACE, _Left(5))
    assert found is not None and guard.WITHDRAWN[before:] == [found]
    value = FALSE.xreplace(found.point)  # exact: rationals in a Max and products
    assert value.is_Rational and value != 0
    assert found.statement == str(FALSE) and found.certificate.sign == sympy.sign(value)
