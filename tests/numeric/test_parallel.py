"""Worker threads for chunks: a one-thread BLAS in each, failures stop the others promptly."""
from __future__ import annotations

import os
import threading
import time

import numpy  # noqa: F401  (loads the BLAS, which threadpoolctl can only see once loaded)
import pytest
import threadpoolctl

from symcheck.numeric import parallel


def test_blas_runs_one_thread_per_worker_and_is_restored_after() -> None:
    before = [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    seen = parallel.run(lambda share, stop: [i["num_threads"] for i in threadpoolctl.threadpool_info()
                                             if i["user_api"] == "blas"], [[0], [1]])
    assert seen == [[1] * len(before)] * 2
    assert [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"] == before


def test_results_come_back_in_the_order_of_the_shares() -> None:
    assert parallel.run(lambda share, stop: sum(share), [[1, 2], [10], [100, 200]]) == [3, 10, 300]


def test_a_failing_share_stops_the_others_and_its_error_reaches_the_caller() -> None:
    chunks_done = []

    def work(share, stop: threading.Event):
        if share == ["fail"]:
            time.sleep(0.05)
            raise ValueError("bad chunk")
        for chunk in range(10_000):          # ~100 s if nobody stops it
            if stop.is_set():
                break
            time.sleep(0.01)
            chunks_done.append(chunk)
        return len(chunks_done)

    with pytest.raises(ValueError, match="bad chunk"):
        parallel.run(work, [["long"], ["fail"]])
    assert len(chunks_done) < 10_000                # stopped, not run to its end


def test_available_follows_the_blas_setting_up_to_the_cores() -> None:
    for limit in (1, 2, 64):
        with threadpoolctl.threadpool_limits(limits=limit, user_api="blas"):
            assert parallel.available() == min(limit, os.cpu_count() or 1), limit
