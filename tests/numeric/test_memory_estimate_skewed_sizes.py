"""The memory estimate counts each array a check draws at its own size, at skewed sizes too
(d ≫ m, m ≫ d), where a term that drops a factor d or m would show; that the estimate covers
what prepare and run allocate at such sizes is in test_memory_estimate.py."""
from __future__ import annotations

import tracemalloc

import pytest

from symcheck.numeric import checks
from symcheck.numeric.checks import prepare

from support.numeric_memory import counted_parts


@pytest.mark.parametrize("name", ["absorb", "exchange", "scaling", "rank1"])
@pytest.mark.parametrize("d, m", [(12, 3), (3, 20)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_each_drawn_array_is_counted_at_its_size(monkeypatch, name, d, m, dtype) -> None:
    drawn: list[dict] = []
    original_sides = checks._sides

    def spy_sides(check_name, form, sizes, arrays, *rest):
        drawn.append(dict(arrays))
        return original_sides(check_name, form, sizes, arrays, *rest)

    counted = counted_parts(monkeypatch)
    monkeypatch.setattr(checks, "_sides", spy_sides)
    prepare(name, d=d, m=m, tokens=5, dtype=dtype)
    assert len(counted) == len(drawn) == 1
    arrays = {role: a for role, a in drawn[0].items() if hasattr(a, "nbytes")}
    assert set(arrays) <= set(counted[0]) and {"X", "K", "V"} <= set(arrays)
    for role, array in arrays.items():
        assert counted[0][role] == array.nbytes, role


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("d, m", [(400, 2), (2, 3000), (2, 200_000)])  # the last: the cast ≫ slack
def test_the_absorbed_keys_product_is_counted_at_its_peak(monkeypatch, dtype, d, m) -> None:
    """absorb computes K·Q_gᵀ in float64 (K and Q_g widened, the product, its cast) and frees
    the temporaries before prepare returns, so what prepare holds afterwards cannot see a term
    of that estimate dropping a factor d; the peak while the two sides are built can."""
    peaks: list[int] = []
    original_sides = checks._sides

    def spy_sides(*args):
        tracemalloc.start()
        try:
            return original_sides(*args)
        finally:
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()

    prepare("absorb", d=2, m=2, tokens=2, dtype=dtype)  # warm-up: imports and caches are not the check's
    counted = counted_parts(monkeypatch)
    monkeypatch.setattr(checks, "_sides", spy_sides)
    prepare("absorb", d=d, m=m, tokens=2, dtype=dtype)
    assert len(counted) == len(peaks) == 1
    assert peaks[0] <= counted[0]["K·Q_gᵀ"] + 64 * 1024, (peaks[0], counted[0]["K·Q_gᵀ"])
