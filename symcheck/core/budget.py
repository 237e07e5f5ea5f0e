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
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType, FrameType
from typing import TypeVar

DEFAULT_TIMEOUT = 20.0
#: after a budget expires, the alarm repeats at this interval until the step has ended
RETRY_SECONDS = 0.05


#: code objects in which an expiry is never raised (see :func:`uninterruptible`)
_PROTECTED: set[CodeType] = set()
_F = TypeVar("_F", bound=Callable[..., object])


def uninterruptible(function: _F) -> _F:
    """Mark a short set-up or clean-up function in which no expiry may land (taking a lock and
    saving a global, restoring them). An expiry due there re-arms a short retry instead, which
    lands once other code runs. Only the function's own frame is covered, so it should call
    nothing but C functions or other uninterruptible ones."""
    _PROTECTED.add(function.__code__)
    return function


#: threads now running a garbage collection (its callbacks and finalisers run inside it)
_COLLECTING: set[int] = set()


def _gc_started(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _COLLECTING.add(threading.get_ident())


def _gc_stopped(phase: str, info: dict[str, int]) -> None:
    if phase == "stop":
        _COLLECTING.discard(threading.get_ident())


def _bracket_collections() -> None:
    """Keep our gc callbacks first and last, so every other callback runs between them."""
    callbacks = gc.callbacks
    if not callbacks or callbacks[0] is not _gc_started or callbacks[-1] is not _gc_stopped:
        for callback in (_gc_started, _gc_stopped):
            while callback in callbacks:
                callbacks.remove(callback)
        callbacks.insert(0, _gc_started)
        callbacks.append(_gc_stopped)


def _must_wait(frame: FrameType | None, thread: int) -> bool:
    """Whether an expiry due now must wait for a short retry: inside a timer's own set-up or
    clean-up (see :func:`uninterruptible`), or where Python would print the exception and drop
    it (a finaliser, a garbage collection and its callbacks): the user would see the noise and
    the step would run on."""
    if thread in _COLLECTING:
        return True
    return frame is not None and (frame.f_code in _PROTECTED or frame.f_code.co_name == "__del__")


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

    def step(self, limit: float | None = None) -> _Alarm:
        """Run the body under ``min(limit, remaining)`` seconds; raise BudgetExceeded after."""
        seconds = self.remaining() if limit is None else min(limit, self.remaining())
        if seconds <= 0:
            raise BudgetExceeded
        return alarm(seconds)


def alarm(seconds: float, exception: type[BaseException] = BudgetExceeded) -> _Alarm:
    """Raise ``exception`` in the block after ``seconds``, and leave SymPy's global switches as
    they were at its start (see :class:`_Alarm`).

    Nested alarms keep the outer timer: when the outer one is due first it fires as
    BudgetExceeded, and it is re-armed with what is left of it afterwards.
    """
    return _Alarm(seconds, exception)


class _Alarm:
    """The timer of one block (main thread: SIGALRM; any other thread: the watchdog).

    A class, not a ``@contextmanager``: contextlib's ``__enter__`` runs bytecode after the
    generator has armed the timer and before the ``with`` block protects it, and an expiry
    landing there skipped the clean-up (a timer left armed fired in whatever ran next, seen as
    an INTERNALERROR of pytest). Here the handler never raises inside this class's own
    ``__enter__``/``__exit__`` (it re-arms a short retry instead), and ``__enter__`` undoes
    what it did when anything else interrupts it.

    It also puts SymPy's global switches back at the end: an exception raised between bytecodes
    can land in the ``finally`` of SymPy's ``evaluate(False)`` before it restores the switch,
    and SymPy would then build everything unevaluated for the rest of the thread (``1*98 >
    1000`` cannot be decided, nothing simplifies). The switches are thread-local in SymPy.
    """

    def __init__(self, seconds: float, exception: type[BaseException]) -> None:
        self.seconds = seconds
        self.exception = exception
        self.deadline = 0.0
        self.active = False
        self.previous: object = None  # the handler found on entry (None: not replaced yet)
        self.outer: _Alarm | None = None
        self.foreign_left = 0.0  # a timer armed by someone else's handler, re-armed at exit
        self.watched: _Timer | None = None
        self.switches: tuple[object, object] | None = None

    def __enter__(self) -> None:
        from sympy.core.parameters import global_parameters
        self.switches = (global_parameters.evaluate, global_parameters.distribute)
        _bracket_collections()
        self.deadline = time.monotonic() + self.seconds
        if threading.current_thread() is not threading.main_thread():
            self.watched = _watch(self.seconds, self.exception)
            return
        try:
            previous = signal.getsignal(signal.SIGALRM)
            self.previous = previous
            outer = getattr(previous, "__self__", None)
            if isinstance(outer, _Alarm) and outer.active:
                self.outer = outer
            else:
                self.foreign_left = signal.getitimer(signal.ITIMER_REAL)[0]
            self.active = True
            signal.signal(signal.SIGALRM, self._expire)
            signal.setitimer(signal.ITIMER_REAL, max(self._due() - time.monotonic(), 1e-6))
        except BaseException:
            self._disarm()
            raise

    def __exit__(self, *exc_info: object) -> None:
        if self.watched is not None:
            _unwatch(self.watched)
        else:
            self._disarm()
        from sympy.core.parameters import global_parameters
        if self.switches is not None:
            global_parameters.evaluate, global_parameters.distribute = self.switches

    def _due(self) -> float:
        """When the timer must fire: this block's deadline or an outer one, whichever is first."""
        return self.deadline if self.outer is None else min(self.deadline, self.outer.deadline)

    def _expire(self, signum: int, frame: FrameType | None) -> None:
        if not self.active:
            return
        # An exception raised while Python runs a gc callback or __del__ is printed and
        # dropped; firing again shortly means a lost one cannot turn into a hang.
        signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
        if _must_wait(frame, threading.get_ident()):
            return  # the retry fires after it
        if self.outer is not None and self.outer.deadline < self.deadline:
            raise BudgetExceeded  # the outer step's deadline
        raise self.exception

    def _disarm(self) -> None:
        """Stop this timer and give the signal back to whoever had it, with its time left."""
        if not self.active:
            if self.previous is not None and signal.getsignal(signal.SIGALRM) == self._expire:
                signal.signal(signal.SIGALRM, self.previous)  # type: ignore[arg-type]
            return
        self.active = False  # from here the handler does nothing
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)  # type: ignore[arg-type]
        if self.outer is not None:
            # when the outer deadline has passed, the outer handler fires at once, after this
            signal.setitimer(signal.ITIMER_REAL, max(self.outer.deadline - time.monotonic(), 1e-6))
        elif self.foreign_left:
            left = self.foreign_left - (time.monotonic() - (self.deadline - self.seconds))
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))


# --------------------------------------------------------------------------- off the main thread

_SET_ASYNC_EXC: Callable[[ctypes.c_ulong, object], int] | None = getattr(
    getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
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
                        frame = sys._current_frames().get(timer.thread)
                        if _must_wait(frame, timer.thread):
                            timer.due = now + RETRY_SECONDS
                            continue
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
    set_async_exc = _SET_ASYNC_EXC
    assert set_async_exc is not None  # only a timer armed by _watch, which needs it, gets here
    if exception is None:
        return bool(set_async_exc(ctypes.c_ulong(thread), None))
    return bool(set_async_exc(ctypes.c_ulong(thread), ctypes.py_object(exception)))


_WATCHDOG = _Watchdog()


def _after_fork() -> None:
    # a forked child has only the forking thread: the watchdog and its locks start afresh
    global _WATCHDOG
    _WATCHDOG = _Watchdog()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _watch(seconds: float, exception: type[BaseException]) -> _Timer:
    """Arm a timer that raises ``exception`` in the calling (non-main) thread after ``seconds``
    (not CPython: nothing is armed, the budget is checked between steps only)."""
    timer = _Timer(threading.get_ident(), time.monotonic() + seconds, exception)
    if _SET_ASYNC_EXC is not None:
        _WATCHDOG.arm(timer)
    return timer


def _unwatch(timer: _Timer) -> None:
    """The block of ``timer`` has ended: the watchdog fires it no more. Holding its lock once
    then means an expiry in flight has been raised; one not yet delivered is cancelled."""
    timer.done = True
    if _SET_ASYNC_EXC is None:
        return
    with _WATCHDOG.lock:
        if timer.fired:
            _raise_in(timer.thread, None)


for _own in (_bracket_collections, _gc_started, _gc_stopped, _must_wait, _Alarm.__enter__, _Alarm.__exit__,
             _Alarm._disarm, _Alarm._due, _watch, _unwatch, _Watchdog.arm):
    uninterruptible(_own)
