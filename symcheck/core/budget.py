"""Time budgets for symbolic steps: running out gives ``inconclusive``, never a hang.

SymPy is pure Python, so a SIGALRM timer can interrupt it between bytecodes. The exception is
a ``BaseException`` so that SymPy's many ``except Exception`` clauses cannot swallow it and
return a half-finished answer.

Signals reach only the main thread. On any other thread (a dask worker's task, a thread pool,
a web server) a watchdog thread raises the same exception in the budgeted thread at the same
deadline, through CPython's asynchronous-exception hook (``PyThreadState_SetAsyncExc``): it
too lands between bytecodes, so it interrupts exactly what the alarm would. Where that hook is
missing (not CPython) the budget is only checked between steps.
"""
from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

DEFAULT_TIMEOUT = 20.0
#: after a budget expires, the alarm repeats at this interval until the step has ended
RETRY_SECONDS = 0.05


class BudgetExceeded(BaseException):
    """Raised inside a step whose time ran out."""


class Budget:
    """A deadline shared by the steps of one check."""

    def __init__(self, seconds: float = DEFAULT_TIMEOUT) -> None:
        if not 0 < seconds < 10**7:  # also refuses NaN; setitimer overflows on huge values
            raise ValueError("the time budget must be a positive number of seconds (below 10**7)")
        self.seconds = float(seconds)
        self.deadline = time.monotonic() + self.seconds

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def expired(self) -> bool:
        return self.remaining() <= 0

    @contextmanager
    def step(self, limit: float | None = None) -> Iterator[None]:
        """Run the body under ``min(limit, remaining)`` seconds; raise BudgetExceeded after."""
        seconds = self.remaining() if limit is None else min(limit, self.remaining())
        if seconds <= 0:
            raise BudgetExceeded
        with alarm(seconds):
            yield


@contextmanager
def alarm(seconds: float, exception: type[BaseException] = BudgetExceeded) -> Iterator[None]:
    """Raise ``exception`` in the block after ``seconds``, and leave SymPy's global switches as
    they were at its start (see :func:`_sympy_switches_kept`).

    Nested alarms keep the outer timer: when the outer one is due first it fires as
    BudgetExceeded, and it is re-armed with what is left of it afterwards.
    """
    with _sympy_switches_kept(), _alarm(seconds, exception):
        yield


@contextmanager
def _sympy_switches_kept() -> Iterator[None]:
    """An exception raised between bytecodes can land in the ``finally`` of SymPy's
    ``evaluate(False)`` before it restores the switch: SymPy would then build everything
    unevaluated for the rest of the thread (``1*98 > 1000`` cannot be decided, nothing
    simplifies). The switches (thread-local in SymPy) are put back as they were here."""
    from sympy.core.parameters import global_parameters
    evaluate, distribute = global_parameters.evaluate, global_parameters.distribute
    try:
        yield
    finally:
        global_parameters.evaluate, global_parameters.distribute = evaluate, distribute


@contextmanager
def _alarm(seconds: float, exception: type[BaseException]) -> Iterator[None]:
    """The timer itself (main thread: SIGALRM; any other thread: the watchdog)."""
    if threading.current_thread() is not threading.main_thread():
        with _watched(seconds, exception):
            yield
        return
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    started = time.monotonic()
    own_first = not outer_left or seconds <= outer_left
    active = [True]

    def _expire(signum: int, frame: object) -> None:
        if not active[0]:
            return
        # An exception raised while Python runs a gc callback or __del__ is printed and
        # dropped; firing again shortly means a lost one cannot turn into a hang.
        signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
        raise exception if own_first else BudgetExceeded

    previous_handler = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds if own_first else outer_left)
    try:
        yield
    finally:
        # A retry may land before the first line here: repeat the clean-up until it completes.
        while True:
            try:
                active[0] = False
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous_handler)
                break
            except BaseException:  # only our own alarm can interrupt these few lines
                continue
        # Outside the loop: when the outer deadline has passed, the outer handler fires at once
        # and its BudgetExceeded must leave this block (inside the loop it was caught and the
        # timer re-armed, over and over: a livelock).
        if outer_left:
            left = outer_left - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))


# --------------------------------------------------------------------------- off the main thread

_SET_ASYNC_EXC = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
#: longest the watchdog sleeps with nothing armed before looking again (a wake-up is immediate)
_IDLE_SECONDS = 5.0


@dataclass(eq=False)
class _Timer:
    """One armed deadline of one thread (mutable: the watchdog moves ``due`` when it retries;
    the thread sets ``done`` when its block ends)."""

    thread: int
    due: float
    exception: type[BaseException]
    fired: bool = field(default=False)
    done: bool = field(default=False)


class _Watchdog:
    """One daemon thread per process that raises each armed timer's exception in its thread.

    The budgeted threads only ever take a plain ``threading.Lock`` in a ``with`` statement:
    an asynchronous exception cannot land between acquiring it and the block's protection
    (C code, no bytecode boundary), so no lock is left held by an interrupted thread.
    ``wake`` is released by whoever arms a timer and acquired only by the watchdog, so a
    wake-up is never lost (a spare release only makes the watchdog look early).
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.wake = threading.Lock()
        self.wake.acquire()
        self.timers: set[_Timer] = set()
        self.thread: threading.Thread | None = None

    def arm(self, timer: _Timer) -> None:
        with self.lock:
            self.timers.add(timer)
            if self.thread is None or not self.thread.is_alive():
                thread = threading.Thread(target=self._run, name="symcheck-budget", daemon=True)
                thread.start()
                self.thread = thread
        try:
            self.wake.release()
        except RuntimeError:  # released already and not yet seen: the watchdog looks anyway
            pass

    def _run(self) -> None:
        while True:
            with self.lock:
                now = time.monotonic()
                for timer in list(self.timers):
                    if timer.done:
                        self.timers.discard(timer)
                    elif timer.due <= now:
                        if not _raise_in(timer.thread, timer.exception):
                            self.timers.discard(timer)  # the thread has ended
                            continue
                        # an exception dropped in a gc callback or __del__ must not become a hang
                        timer.fired, timer.due = True, now + RETRY_SECONDS
                due = min((t.due for t in self.timers), default=None)
            wait = _IDLE_SECONDS if due is None else max(due - time.monotonic(), 0.0)
            self.wake.acquire(timeout=wait)


def _raise_in(thread: int, exception: type[BaseException] | None) -> bool:
    """Raise ``exception`` in ``thread`` at its next bytecode (None: cancel a pending one)."""
    if exception is None:
        return bool(_SET_ASYNC_EXC(ctypes.c_ulong(thread), None))
    return bool(_SET_ASYNC_EXC(ctypes.c_ulong(thread), ctypes.py_object(exception)))


_WATCHDOG = _Watchdog()


def _after_fork() -> None:
    # a forked child has only the forking thread: the watchdog and its locks start afresh
    global _WATCHDOG
    _WATCHDOG = _Watchdog()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


@contextmanager
def _watched(seconds: float, exception: type[BaseException]) -> Iterator[None]:
    """Raise ``exception`` in the calling (non-main) thread after ``seconds``."""
    if _SET_ASYNC_EXC is None:  # not CPython: the budget is checked between steps only
        yield
        return
    watchdog = _WATCHDOG
    timer = _Timer(threading.get_ident(), time.monotonic() + seconds, exception)
    try:
        watchdog.arm(timer)
        yield
    finally:
        # The first statement calls nothing, so nothing can be raised before it: from here on
        # the watchdog fires this timer no more. Holding its lock once then means an expiry
        # in flight has been raised; one not yet delivered is cancelled. An exception landing
        # in this clean-up (ours, or an outer step's, which fires again) only repeats it.
        timer.done = True
        while True:
            try:
                with watchdog.lock:
                    if timer.fired:
                        _raise_in(timer.thread, None)
                break
            except BaseException:
                continue
