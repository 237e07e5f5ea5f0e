"""The memory estimate stays above what a check allocates when one size dominates: at d ≫ m the
d×d arrays (absorb's Q_g and its float64 product) carry the footprint, at m ≫ d the m×d ones,
so a term that drops a factor d or m shows there, where balanced sizes hide it in slack."""
from __future__ import annotations

import tracemalloc

import pytest

from symcheck.numeric import checks, planner
from symcheck.numeric.checks import prepare


@pytest.mark.parametrize("name", ["absorb", "exchange", "scaling"])
@pytest.mark.parametrize("d, m", [(160, 2), (2, 400)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_estimate_covers_prepare_and_run_at_skewed_sizes(monkeypatch, name, d, m, dtype) -> None:
    seen: list[int] = []
    original = planner.require_memory

    def spy(parts, working, available=None, advice=""):
        seen.append(sum(size for _, size in parts))
        return original(parts, working, available, advice)

    prepare(name, d=2, m=2, tokens=2, dtype=dtype).run()            # imports and caches: not the check's arrays
    monkeypatch.setattr(checks, "require_memory", spy)
    tracemalloc.start()
    try:
        job = prepare(name, d=d, m=m, tokens=2, memory="64MiB", dtype=dtype)
        after_prepare, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        job.run()
        _, run_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(seen) == 1
    assert after_prepare <= seen[0]
    assert run_peak <= seen[0] + max(job.left.plan.bytes, job.right.plan.bytes)


@pytest.mark.parametrize("name", ["absorb", "exchange", "scaling", "rank1"])
@pytest.mark.parametrize("d, m", [(12, 3), (3, 20)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_each_drawn_array_is_counted_at_its_size(monkeypatch, name, d, m, dtype) -> None:
    counted: list[dict[str, int]] = []
    drawn: list[dict] = []
    original_require, original_sides = planner.require_memory, checks._sides

    def spy_require(parts, working, available=None, advice=""):
        counted.append(dict(parts))
        return original_require(parts, working, available, advice)

    def spy_sides(check_name, form, sizes, arrays, *rest):
        drawn.append(dict(arrays))
        return original_sides(check_name, form, sizes, arrays, *rest)

    monkeypatch.setattr(checks, "require_memory", spy_require)
    monkeypatch.setattr(checks, "_sides", spy_sides)
    prepare(name, d=d, m=m, tokens=5, dtype=dtype)
    assert len(counted) == len(drawn) == 1
    arrays = {role: a for role, a in drawn[0].items() if hasattr(a, "nbytes")}
    assert set(arrays) <= set(counted[0]) and {"X", "K", "V"} <= set(arrays)
    for role, array in arrays.items():
        assert counted[0][role] == array.nbytes, role
