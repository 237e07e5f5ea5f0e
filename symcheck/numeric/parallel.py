"""Chunks of hidden units on worker threads, each with a one-thread BLAS.

Bilinear attention's kernel route is a stream of small products (d×r by r×d per unit); a
multi-threaded BLAS splits each of them across cores and spends much of the time waiting
for its threads. Giving each core its own chunks, with BLAS limited to one thread per call,
keeps every core in one product at a time (at N=512, d=r=256, m=1024 on two cores: 1.11 s
against 1.25 s for the same chunks with a two-thread BLAS). NumPy releases the GIL inside
its products, so Python threads suffice. The BLAS limit is threadpoolctl's, which knows how
to reach OpenBLAS, MKL and BLIS at run time; without threadpoolctl everything runs on the
calling thread.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from contextlib import nullcontext
from typing import TypeVar

__all__ = ["available", "run"]

T = TypeVar("T")


def available() -> int:
    """Threads to use by default: as many as the BLAS itself would use (its own setting, e.g.
    ``OPENBLAS_NUM_THREADS``), at most the cores; 1 without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return 1
    import numpy  # noqa: F401  (threadpoolctl only sees a BLAS that is loaded)
    counts = [info.get("num_threads", 1) for info in threadpool_info() if info.get("user_api") == "blas"]
    return max(1, min(max(counts, default=1), os.cpu_count() or 1))


def _one_thread_blas():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def run(work: Callable[[Sequence[int], threading.Event], T], shares: Sequence[Sequence[int]]) -> list[T]:
    """``work(share, stop)`` for every share, each on its own thread, BLAS limited to one
    thread meanwhile; the results in the order of ``shares``.

    ``stop`` is set as soon as any share fails or the caller is interrupted (Ctrl-C, an
    alarm): work should look at it between chunks, so that the threads end promptly and the
    first exception reaches the caller.
    """
    stop = threading.Event()
    with _one_thread_blas(), ThreadPoolExecutor(max_workers=len(shares)) as pool:
        futures = [pool.submit(work, share, stop) for share in shares]
        try:
            _, pending = wait(futures, return_when=FIRST_EXCEPTION)
        except BaseException:
            stop.set()
            raise
        if pending:                  # one share failed: the others stop after their chunk
            stop.set()
        return [future.result() for future in futures]
