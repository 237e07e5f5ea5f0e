"""Time budgets for symbolic steps: running out gives ``inconclusive``, never a hang.

SymPy is pure Python, so a SIGALRM timer can interrupt it between bytecodes. The exception is
a ``BaseException`` so that SymPy's many ``except Exception`` clauses cannot swallow it and
return a half-finished answer. Off the main thread signals are unavailable; there the budget
is checked between steps only (documented in the README).
"""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

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
    """Raise ``exception`` in the block after ``seconds`` (main thread only).

    Nested alarms keep the outer timer: when the outer one is due first it fires as
    BudgetExceeded, and it is re-armed with what is left of it afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
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
