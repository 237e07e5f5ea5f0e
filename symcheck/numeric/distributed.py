"""Tasks on dask: a local cluster of worker processes, or an existing ``dask.distributed`` one.

A model report's layers (and its symbolic verdicts) are independent tasks; each reads its own
tensors from the checkpoint's files (a remote cluster must see the same paths) and returns
plain numbers. Tasks run on worker threads, where SIGALRM cannot reach: the symbolic time
budget uses its watchdog there (:mod:`symcheck.core.budget`), so a verdict still ends in time.
The inputs X are sent to the workers once. dask is an optional extra
(``pip install 'symcheck[dask]'``); without it asking for workers is a one-line error.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from symcheck.core.errors import NumericError

__all__ = ["dask_client", "run_tasks", "CONNECT_SECONDS"]

#: how long to wait for an existing scheduler to answer
CONNECT_SECONDS = 10


def _distributed() -> Any:
    try:
        import dask.distributed
    except ImportError:
        raise NumericError("running on dask needs dask.distributed, which is not installed: "
                           "pip install 'symcheck[dask]'", name="workers") from None
    return dask.distributed


@contextmanager
def dask_client(workers: int | None, scheduler: str | None) -> Iterator[tuple[Any, str]]:
    """A client, and a description of where it runs: ``workers`` local worker processes (one
    thread each), or the cluster whose scheduler is at ``scheduler``."""
    if workers is not None and scheduler is not None:
        raise NumericError("give workers or a scheduler, not both", name="workers")
    if scheduler is None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise NumericError(f"workers must be a whole number ≥ 1, not {workers!r}", name="workers")
    distributed = _distributed()
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError, TypeError) as err:
            raise NumericError(f"cannot reach the dask scheduler at {scheduler!r} "
                               f"({' '.join(str(err).split())[:120] or type(err).__name__})",
                               name="scheduler") from None
        with client:
            yield client, f"dask at {scheduler}"
        return
    # the scheduler's HTTP server always starts: on a free port, so that two runs never clash
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    with cluster, distributed.Client(cluster) as client:
        yield client, f"dask, {workers} local worker process{'es' if workers > 1 else ''}"


def run_tasks(client: Any, function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], *,
              shared: int | None = None, progress: Callable[[str], None] | None = None,
              labels: Sequence[str] | None = None) -> list[Any]:
    """``function(*args)`` for every tuple of ``arguments`` as a task; the results in order.

    ``shared`` is the position of an argument every task has in common (a large array): it is
    sent to the workers once. ``progress(label)`` is called as each task ends. The first task
    that fails raises its exception here, once every task has ended or been cancelled.
    """
    distributed = _distributed()
    if not arguments:
        return []
    arguments = [list(args) for args in arguments]
    if shared is not None:
        common = client.scatter(arguments[0][shared], broadcast=True)
        for args in arguments:
            args[shared] = common
    futures = [client.submit(function, *args, pure=False) for args in arguments]
    names = {future.key: label for future, label in zip(futures, labels or [""] * len(futures))}
    try:
        for future in distributed.as_completed(futures):
            if future.status == "error":
                future.result()  # raises the task's exception, as it was raised on the worker
            if progress is not None:
                progress(names[future.key])
        return client.gather(futures)
    finally:
        client.cancel([f for f in futures if not f.done()])
