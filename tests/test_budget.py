"""The time budget interrupts pure-Python work and restores outer timers."""
from __future__ import annotations

import time

import pytest

from symcheck.budget import Budget, BudgetExceeded


def spin() -> None:
    while True:
        pass


def test_step_interrupts_a_loop() -> None:
    budget = Budget(60)
    with pytest.raises(BudgetExceeded):
        with budget.step(0.05):
            spin()


def test_expired_budget_refuses_new_steps() -> None:
    budget = Budget(0.01)
    time.sleep(0.02)
    assert budget.expired()
    with pytest.raises(BudgetExceeded):
        with budget.step():
            pass


def test_nested_step_keeps_the_outer_deadline() -> None:
    budget = Budget(60)
    with pytest.raises(BudgetExceeded):
        with budget.step(0.1):
            with budget.step(30):  # the inner step may not outlive the outer one
                spin()


def test_budget_exceeded_is_not_an_exception_sympy_could_swallow() -> None:
    assert not issubclass(BudgetExceeded, Exception)


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Budget(0)
