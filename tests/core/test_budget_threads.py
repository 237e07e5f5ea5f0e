"""The time budget off the main thread (thread pools, dask workers): the watchdog raises the
expiry in the budgeted thread, nested steps keep the outer deadline, nothing fires after a
step, and a check that runs out is inconclusive, never a hang. Hang detectors are generous
timeouts on the waiting side, never speed thresholds."""
from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from symcheck.core.budget import Budget, BudgetExceeded, alarm

#: the longest any test here waits for a thread before calling it hung
HANG = 120

pytestmark = pytest.mark.skipif(sys.implementation.name != "cpython",
                                reason="the watchdog needs CPython's asynchronous exceptions")


def spin() -> None:
    while True:
        pass


def off_main(function: Callable[[], object]) -> object:
    """``function()`` on a fresh thread; its result or exception, here."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function).result(timeout=HANG)


def interrupted(seconds: float, body: Callable[[], None] = spin) -> str:
    try:
        with Budget(60).step(seconds):
            body()
    except BudgetExceeded:
        return "interrupted"
    return "ran to the end"


def test_a_step_interrupts_a_loop_on_another_thread() -> None:
    assert off_main(lambda: interrupted(0.05)) == "interrupted"


def test_many_threads_each_get_their_own_expiry() -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = [f.result(timeout=HANG) for f in [pool.submit(interrupted, 0.02 * (i + 1)) for i in range(4)]]
    assert outcomes == ["interrupted"] * 4


def test_a_nested_step_keeps_the_outer_deadline_off_the_main_thread() -> None:
    def nested() -> str:
        budget = Budget(60)
        try:
            with budget.step(0.1):
                with budget.step(30):
                    spin()
        except BudgetExceeded:
            return "interrupted"
        return "ran to the end"

    assert off_main(nested) == "interrupted"


def test_an_inner_expiry_leaves_the_outer_step_running() -> None:
    def inner_only() -> list[str]:
        seen = []
        with Budget(60).step(30):
            try:
                with alarm(0.05):
                    spin()
            except BudgetExceeded:
                seen.append("inner expired")
            time.sleep(0.2)  # an expiry left over from the inner step would land here
            seen.append("outer went on")
        return seen

    assert off_main(inner_only) == ["inner expired", "outer went on"]


def test_nothing_fires_after_a_finished_step() -> None:
    def many_short_steps() -> str:
        budget = Budget(60)
        for i in range(300):
            try:
                with budget.step((1e-6, 1e-5, 0.001, 0.003, 0.005)[i % 5]):  # some expire in set-up
                    sum(range(50 * (i % 7)))   # may end just as the deadline passes
            except BudgetExceeded:
                pass  # the deadline passed within the step, its end included: legitimate
            try:
                sum(range(200))  # after the step has ended nothing may land
            except BudgetExceeded:
                return f"a stray expiry after step {i}"
        try:
            deadline = time.monotonic() + 0.3
            while time.monotonic() < deadline:
                pass
        except BudgetExceeded:
            return "a stray expiry at the end"
        return "clean"

    assert off_main(many_short_steps) == "clean"


def test_an_expiry_never_lands_in_a_gc_callback_off_the_main_thread() -> None:
    landed, budgeted = [], []

    def callback(phase: str, info: dict) -> None:
        if phase == "start" and threading.get_ident() in budgeted:
            try:
                time.sleep(0.2)
                sum(range(10**5))  # the deadline has passed: it must wait for the collection's end
            except BudgetExceeded:
                landed.append(True)

    def body() -> str:
        budgeted.append(threading.get_ident())
        try:
            with Budget(60).step(0.05):
                gc.collect()
                until = time.monotonic() + 5
                while time.monotonic() < until:
                    pass
                return "the expiry was lost and never repeated"
        except BudgetExceeded:
            return "interrupted"

    gc.callbacks.append(callback)
    try:
        assert off_main(body) == "interrupted"
    finally:
        gc.callbacks.remove(callback)
    assert landed == []


def test_an_expiry_swallowed_off_the_main_thread_fires_again() -> None:
    def body() -> str:
        swallowed = []
        try:
            with Budget(60).step(0.05):
                try:
                    time.sleep(0.2)
                    sum(range(10**5))
                except BudgetExceeded:
                    swallowed.append(True)
                until = time.monotonic() + 5
                while time.monotonic() < until:
                    pass
                return "the expiry was lost and never repeated"
        except BudgetExceeded:
            return "interrupted" if swallowed else "never swallowed"

    assert off_main(body) == "interrupted"


def test_an_expired_budget_refuses_new_steps_off_the_main_thread() -> None:
    def body() -> str:
        budget = Budget(0.01)
        time.sleep(0.02)
        try:
            with budget.step():
                return "entered"
        except BudgetExceeded:
            return "refused"

    assert off_main(body) == "refused"


def slow_check(timeout: float):
    """A check that takes about a second even with SymPy's caches warm (a split into many
    cases; it ends broken when left alone)."""
    from symcheck.engine.symmetries import check
    from symcheck.language.transformations import Transformation, domain
    return check("z*(sin(z)**2 + cos(z)**2)", Transformation("inverse-scaling", domain("any")),
                 "sigma(a)*sigma(b) + sigma(a + b)", timeout=timeout)


def test_a_check_on_a_worker_thread_that_runs_out_is_inconclusive() -> None:
    results = [off_main(lambda: slow_check(0.05)) for _ in range(3)]  # cold, then warm
    assert [r.verdict.value for r in results] == ["inconclusive"] * 3
    assert all("time budget" in r.note for r in results)


@pytest.mark.slow
def test_inside_a_dask_worker_process(tmp_path) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="needs dask.distributed (the dask extra)")
    import cloudpickle
    import test_budget_threads
    cloudpickle.register_pickle_by_value(test_budget_threads)  # the worker cannot import tests/
    try:
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      dashboard_address=":0", silence_logs=40) as cluster, \
                distributed.Client(cluster) as client:
            on_worker = client.submit(_on_a_worker, pure=False).result(timeout=HANG)
    finally:
        cloudpickle.unregister_pickle_by_value(test_budget_threads)
    assert on_worker == ("not the main thread", "interrupted", "inconclusive")


def _on_a_worker() -> tuple[str, str, str]:
    where = "main thread" if threading.current_thread() is threading.main_thread() else "not the main thread"
    return where, interrupted(0.05), slow_check(0.05).verdict.value
