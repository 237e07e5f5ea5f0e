"""When the time budget runs out while a broken plane decision's witness is certified on the
original statement, the result is inconclusive — with the steps written so far and the reason —
never a verdict, and never a malformed result. The budget is made to run out exactly there (the
certification raises BudgetExceeded) for statements that go through the plane decider (a form
with no reduction) and are broken when the budget suffices."""
from __future__ import annotations

import pytest

from symcheck.core.budget import BudgetExceeded
from symcheck.core.results import Step
from symcheck.core.verdict import Verdict
from symcheck.engine import symmetries
from symcheck.language.transformations import Transformation, domain

CASES = [("silu", Transformation("exchange"), "a*sigma(b) + b"),
         ("tanh", Transformation("inverse-scaling", domain("positive")), "a*sigma(b) + b")]


@pytest.mark.parametrize("act, t, unit", CASES, ids=lambda v: str(getattr(v, "name", v)))
def test_the_budget_running_out_while_certifying_is_inconclusive(monkeypatch, act, t, unit) -> None:
    assert symmetries.check(act, t, unit).verdict is Verdict.BROKEN   # with the budget it is broken

    def out_of_time(*args, **kwargs):
        raise BudgetExceeded("forced")

    monkeypatch.setattr(symmetries, "_certified", out_of_time)
    result = symmetries.check(act, t, unit)
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "budget ran out while certifying" in result.note
    assert result.witness is None
    assert [step.title for step in result.steps][:2] == ["Statement", "Difference"]
    assert all(isinstance(step, Step) for step in result.steps)
