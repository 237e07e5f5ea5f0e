"""The peak of the memory Python allocates while a call runs (tracemalloc), for the memory tests."""
from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any


def _imported() -> None:
    """What the checkpoint code imports on first use (modules are not the weights' memory)."""
    import flint  # noqa: F401
    import scipy.optimize  # noqa: F401
    import scipy.spatial.distance  # noqa: F401
    import threadpoolctl  # noqa: F401


def traced_peak(call: Callable[[], Any]) -> tuple[Any, int]:
    """``call()``'s result and the peak bytes allocated while it ran (the modules it imports on
    first use imported before)."""
    _imported()
    tracemalloc.start()
    try:
        result = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def large_model(directory, budget: int = 2**20) -> tuple[Any, dict]:
    """A LLaMA checkpoint at least four times ``budget`` (6 layers, d = 64, m = 1024, F32, 3 shards),
    opened, with its layer groups (G_σ's SymPy work is not the weights' memory: computed first)."""
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.transform import layer_groups

    from support.model_checkpoints import write_model
    write_model(directory, "llama", layers=6, d=64, m=1024, dtype="F32", shards=3)
    model = open_model(directory)
    assert model.checkpoint.nbytes >= 4 * budget
    return model, layer_groups(model, 60)
