"""Tasks on dask: a local cluster of worker processes, or an existing ``dask.distributed`` one.

A model report's layers (and its symbolic verdicts) are independent tasks; each reads its own
tensors from the checkpoint's files (a remote cluster must see the same paths) and returns
plain numbers. Tasks run on worker threads, where SIGALRM cannot reach: the symbolic time
budget uses its watchdog there (:mod:`symcheck.core.budget`), so a verdict still ends in time.
Every task carries its inputs, so that a task whose worker dies runs again on another
(scattered data would die with its workers). A cluster that fails is a one-line error within
a bounded time: a scheduler that does not complete dask's handshake in
:data:`CONNECT_SECONDS`, one that goes away, a cluster left without workers for
:data:`NO_WORKER_SECONDS`; dask's own log stays off stderr. dask is an optional extra
(``pip install 'symcheck[dask]'``); without it asking for workers is a one-line error.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import Any

from symcheck.core.errors import NumericError

__all__ = ["CONNECT_SECONDS", "NO_WORKER_SECONDS", "dask_client", "run_tasks"]

#: how long to wait for an existing scheduler to answer, its handshake included
CONNECT_SECONDS = 10
#: how long a cluster may have no worker at all while tasks wait, before the run gives up
NO_WORKER_SECONDS = 20
#: how often the cluster's health is looked at while no task ends
POLL_SECONDS = 1.0


def _distributed() -> Any:
    try:
        import dask.distributed
    except ImportError:
        raise NumericError("running on dask needs dask.distributed, which is not installed: "
                           "pip install 'symcheck[dask]'", name="workers") from None
    return dask.distributed


def _probe(scheduler: str, seconds: float) -> None:
    """Connect to ``scheduler`` and complete dask's handshake within ``seconds``, or raise.

    ``Client(address, timeout=…)`` bounds the TCP connect but then waits for the handshake
    without a bound: a port where something else listens (a plain TCP server, an HTTP server)
    holds it for ever. The probe runs dask's own ``connect`` under a deadline, on its own event
    loop in its own thread (the caller may be inside a running loop, as a notebook is).
    """
    distributed = _distributed()
    outcome: list[BaseException | None] = []

    async def attempt() -> None:
        comm = await asyncio.wait_for(distributed.comm.connect(scheduler, timeout=seconds), seconds)
        await comm.close()

    def run() -> None:
        try:
            asyncio.run(attempt())
            outcome.append(None)
        except BaseException as err:  # noqa: BLE001 - reported to the caller below
            outcome.append(err)

    thread = threading.Thread(target=run, name="symcheck-dask-probe", daemon=True)
    thread.start()
    thread.join(seconds + 5)
    error = outcome[0] if outcome else TimeoutError()
    if error is not None:
        why = ("no dask handshake" if isinstance(error, (TimeoutError, asyncio.TimeoutError))
               else _first_line(error))
        raise NumericError(f"cannot reach the dask scheduler at {scheduler!r} within {seconds:g} s ({why}); "
                           "is a dask scheduler listening there?", name="scheduler")


@contextmanager
def _quiet() -> Iterator[None]:
    """dask's own logging and warnings kept off stderr while it runs for us: a lost worker is
    reported once, as the run's one-line error, not as dask's 30 lines of log."""
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module=r"(distributed|dask)(\..*)?$")
            yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextmanager
def dask_client(workers: int | None, scheduler: str | None) -> Iterator[tuple[Any, str]]:
    """A client, and a description of where it runs: ``workers`` local worker processes (one
    thread each), or the cluster whose scheduler is at ``scheduler``."""
    if workers is not None and scheduler is not None:
        raise NumericError("give workers or a scheduler, not both", name="workers")
    if scheduler is None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise NumericError(f"workers must be a whole number ≥ 1, not {workers!r}", name="workers")
    distributed = _distributed()
    with _quiet():
        if scheduler is not None:
            _probe(scheduler, CONNECT_SECONDS)
            try:
                client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError, TypeError) as err:
                raise NumericError(f"cannot reach the dask scheduler at {scheduler!r} "
                                   f"({_first_line(err)})", name="scheduler") from None
            with client:
                yield client, f"dask at {scheduler}"
            return
        assert workers is not None  # no scheduler: workers was checked to be a whole number ≥ 1
        # the scheduler's HTTP server always starts: on a free port, so that two runs never clash
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=":0", silence_logs=logging.CRITICAL + 1)
        with cluster, distributed.Client(cluster) as client:
            yield client, f"dask, {workers} local worker process{'es' if workers > 1 else ''}"


def run_tasks(client: Any, function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], *,
              progress: Callable[[str], None] | None = None, labels: Sequence[str] | None = None) -> list[Any]:
    """``function(*args)`` for every tuple of ``arguments`` as a task; the results in order.

    Every task carries its own arguments (the inputs included), so that the scheduler can run it
    again on another worker when the one running it dies; data scattered to workers would die
    with them. ``progress(label)`` is called as each task ends. The first task that fails
    raises its exception here; a cluster that fails — its scheduler gone, no worker left for
    :data:`NO_WORKER_SECONDS`, a task that killed every worker it ran on — is a one-line
    :class:`NumericError`.
    """
    if not arguments:
        return []
    failures = _dask_failures()
    with _quiet():
        futures = [client.submit(function, *args, pure=False) for args in arguments]
        names = {future.key: label for future, label in zip(futures, labels or [""] * len(futures), strict=False)}
        try:
            _watch(client, futures, names, progress)
            return [future.result() for future in futures]
        except NumericError:
            raise
        except failures as err:
            raise NumericError(_failure(err, client), name="workers") from None
        finally:
            try:
                client.cancel([f for f in futures if not f.done()])
            except failures:  # the scheduler is gone already
                pass


def _dask_failures() -> tuple[type[BaseException], ...]:
    return (CancelledError, asyncio.CancelledError, _distributed().KilledWorker, OSError, TimeoutError)


def _watch(client: Any, futures: list[Any], names: dict[Any, str],
           progress: Callable[[str], None] | None) -> None:
    """Wait for every future, raising the first failure; watch the cluster meanwhile."""
    distributed = _distributed()
    pending = set(futures)
    alone_since: float | None = None
    while pending:
        try:
            done, pending = distributed.wait(list(pending), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
        except TimeoutError:  # dask's is the built-in one
            done = set()
        for future in done:
            if future.status != "finished":
                future.result()  # raises the task's exception, as it was raised on the worker
            if progress is not None:
                progress(names[future.key])
        if done:
            alone_since = None
            continue
        if client.status != "running":
            raise NumericError(f"the dask scheduler went away ({len(pending)} of {len(futures)} tasks "
                               "not done)", name="scheduler")
        if _workers(client) == 0:
            alone_since = time.monotonic() if alone_since is None else alone_since
            if time.monotonic() - alone_since > NO_WORKER_SECONDS:
                raise NumericError(f"the dask cluster has had no worker for {NO_WORKER_SECONDS:g} s "
                                   f"({len(pending)} of {len(futures)} tasks not done)", name="workers")
        else:
            alone_since = None


def _workers(client: Any) -> int:
    """How many workers the scheduler has now (-1: it did not say)."""
    count = client.scheduler_info(n_workers=0).get("n_workers")
    return count if isinstance(count, int) else -1


def _failure(err: BaseException, client: Any) -> str:
    """One line for a failure of the cluster itself (not of a task's own work)."""
    name = type(err).__name__
    if name == "KilledWorker":
        return (f"a layer's task was running on every worker that died under it, and dask gave it up "
                f"({_first_line(err)})")
    if isinstance(err, CancelledError) or client.status != "running":
        return "the dask scheduler went away or cancelled the tasks before they were done"
    return f"the dask cluster failed ({name}: {_first_line(err)})"


def _first_line(err: BaseException) -> str:
    return " ".join(str(err).split())[:120] or type(err).__name__
