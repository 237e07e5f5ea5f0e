"""The peak of the memory Python allocates while a call runs (tracemalloc), for the memory tests."""
from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any


def traced_peak(call: Callable[[], Any]) -> tuple[Any, int]:
    """``call()``'s result and the peak bytes allocated while it ran (imports done before count)."""
    tracemalloc.start()
    try:
        result = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak
