"""The time budget interrupts pure-Python work and restores outer timers."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

from symcheck.core.budget import Budget, BudgetExceeded


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


def test_an_outer_deadline_due_when_the_inner_step_ends_is_not_a_livelock() -> None:
    """The inner step's clean-up re-arms the outer timer; when that is already due, the outer
    handler fires at once. It used to fire inside the clean-up's retry loop, which caught it and
    re-armed the timer for ever (seen as a hung test run). Many rounds in a child process, with
    a timeout as the hang detector (never a speed threshold)."""
    program = textwrap.dedent("""
        from symcheck.core.budget import Budget, BudgetExceeded
        for _ in range(150):
            budget = Budget(60)
            try:
                with budget.step(0.005):
                    with budget.step(30):
                        while True:
                            pass
            except BudgetExceeded:
                pass
        print("done")
    """)
    try:
        run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("nested steps hung when the outer deadline passed")
    assert run.returncode == 0 and run.stdout.strip() == "done", run.stderr


def test_a_step_that_expires_while_it_is_being_set_up_leaves_nothing_armed() -> None:
    """A step of a few microseconds expires during its own set-up or clean-up. With the timer a
    ``@contextmanager`` the expiry landed in contextlib's ``__enter__`` after the timer was
    armed, the clean-up never ran, and the retry fired in whatever came next (in CI: inside
    pytest, an INTERNALERROR). Thousands of rounds with tiny and nested deadlines, in a child
    process so that a leaked timer cannot hit this one; every round must leave SIGALRM as it
    found it."""
    program = textwrap.dedent("""
        import random, signal
        from symcheck.core.budget import Budget, BudgetExceeded, alarm
        random.seed(7)
        leaks = 0
        for _ in range(4000):
            try:
                with Budget(60).step(random.choice([1e-6, 1e-5, 3e-5, 1e-4, 3e-4])):
                    with alarm(random.choice([1e-6, 1e-5, 1e-4, 5.0])):
                        sum(range(random.randrange(300)))
            except BudgetExceeded:
                pass
            if signal.getitimer(signal.ITIMER_REAL)[0] or signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL:
                leaks += 1
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
        print("leaks", leaks)
    """)
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["leaks", "0"], run.stdout


def test_budget_exceeded_is_not_an_exception_sympy_could_swallow() -> None:
    assert not issubclass(BudgetExceeded, Exception)


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Budget(0)


def test_an_expiry_never_lands_in_a_gc_callback_or_a_finaliser() -> None:
    """Python prints an exception raised in a gc callback or ``__del__`` and drops it: the user
    saw "Exception ignored in …" and the step ran on. The expiry waits until they are done."""
    import gc
    landed: list[str] = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            try:
                time.sleep(0.2)  # the deadline passes in here
                sum(range(10**5))
            except BudgetExceeded:
                landed.append("gc callback")

    class Slow:
        def __del__(self) -> None:
            try:
                time.sleep(0.2)
                sum(range(10**5))
            except BudgetExceeded:
                landed.append("__del__")

    unraisable: list[object] = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    for trigger in ("gc", "del"):
        gc.callbacks.append(callback) if trigger == "gc" else None
        try:
            with pytest.raises(BudgetExceeded):
                with Budget(60).step(0.05):
                    if trigger == "gc":
                        gc.collect()
                    else:
                        thing = Slow()
                        del thing
                    until = time.monotonic() + 5  # bounded, so a lost expiry fails instead of hanging
                    while time.monotonic() < until:
                        pass
                    pytest.fail("the expiry was lost and never repeated")
        finally:
            if callback in gc.callbacks:
                gc.callbacks.remove(callback)
    sys.unraisablehook = hook
    assert landed == [] and unraisable == []


def test_an_expiry_swallowed_by_code_we_do_not_control_fires_again() -> None:
    swallowed = []
    with pytest.raises(BudgetExceeded):
        with Budget(60).step(0.05):
            try:
                time.sleep(0.2)
                sum(range(10**5))
            except BudgetExceeded:
                swallowed.append(True)  # a library's bare except
            until = time.monotonic() + 5
            while time.monotonic() < until:
                pass
            pytest.fail("the expiry was lost and never repeated")
    assert swallowed


def test_no_alarm_survives_a_finished_step() -> None:
    import signal

    budget = Budget(60)
    with pytest.raises(BudgetExceeded):
        with budget.step(0.01):
            spin()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    time.sleep(0.15)  # a stray retry would raise here


def test_an_interrupted_evaluate_false_does_not_outlive_the_budget() -> None:
    # an alarm landing in the finally of SymPy's evaluate(False) skips its restore; the budget
    # puts SymPy's switches back, or the rest of the process builds everything unevaluated
    from sympy.core.parameters import global_parameters

    from symcheck.core.budget import alarm
    with pytest.raises(BudgetExceeded):
        with alarm(5.0):
            global_parameters.evaluate = False  # what the skipped restore leaves behind
            global_parameters.distribute = False
            raise BudgetExceeded
    assert global_parameters.evaluate is True and global_parameters.distribute is True
