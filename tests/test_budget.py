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


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_expiry_lost_in_a_gc_callback_fires_again() -> None:
    """Python drops exceptions raised inside gc callbacks; the alarm must then repeat."""
    import gc

    swallowed = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            try:
                time.sleep(0.2)  # the first expiry lands here and is dropped by the interpreter
            except BudgetExceeded:
                swallowed.append(True)  # (or, as here, swallowed by code we do not control)

    gc.callbacks.append(callback)
    try:
        with pytest.raises(BudgetExceeded):
            with Budget(60).step(0.05):
                gc.collect()
                until = time.monotonic() + 5  # bounded, so a lost expiry fails instead of hanging
                while time.monotonic() < until:
                    pass
                pytest.fail("the expiry was lost and never repeated")
    finally:
        gc.callbacks.remove(callback)
    assert swallowed


def test_no_alarm_survives_a_finished_step() -> None:
    import signal

    budget = Budget(60)
    with pytest.raises(BudgetExceeded):
        with budget.step(0.01):
            spin()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    time.sleep(0.15)  # a stray retry would raise here
