"""The figures a numeric check reports about itself: its flops and steps are those of both
sides' plans (not one side's), its elapsed time is the time of its own run (not a clock
reading), and the absorbed keys' product is counted with its cast to the working dtype."""
from __future__ import annotations

import time

import pytest

from symcheck.numeric.checks import prepare

from support.numeric_memory import counted_parts


@pytest.mark.parametrize("name", ["exchange", "scaling", "rank1", "absorb"])
def test_a_pair_costs_what_both_sides_cost(name) -> None:
    check = prepare(name, act="silu", d=6, m=40, tokens=7, seed=1)
    left, right = check.left.plan, check.right.plan
    assert left.flops > 0 and right.flops > 0
    assert check.flops == left.flops + right.flops
    assert check.steps == left.steps + right.steps
    assert check.flops > max(left.flops, right.flops)


def test_sides_of_different_cost_both_count() -> None:
    """rank1's two sides differ in cost (the bilinear side against its rank-1 factorization),
    so a pair that counted only one of them would show a different total than the sum."""
    check = prepare("rank1", act="silu", d=6, m=40, tokens=7, seed=1)
    assert check.left.plan.flops != check.right.plan.flops
    assert check.flops == check.left.plan.flops + check.right.plan.flops


def test_elapsed_is_the_runs_own_time() -> None:
    check = prepare("exchange", act="silu", d=4, m=8, tokens=5, seed=2)
    before = time.perf_counter()
    report = check.run()
    took = time.perf_counter() - before
    assert 0 <= report.elapsed <= took


@pytest.mark.parametrize("dtype, itemsize", [("float64", 8), ("float32", 4)])
def test_the_absorbed_keys_product_counts_its_cast(monkeypatch, dtype, itemsize) -> None:
    """K·Q_gᵀ is formed in float64 (K and Q_g widened, the float64 product) and then cast to
    the working dtype: the cast is one more m×d array of the working itemsize."""
    d, m = 3, 50
    counted = counted_parts(monkeypatch)
    prepare("absorb", d=d, m=m, tokens=2, dtype=dtype, seed=0)
    assert len(counted) == 1
    widened = m * d * 8 + d * d * 8 + m * d * 8
    assert counted[0]["K·Q_gᵀ"] == widened + m * d * itemsize


@pytest.mark.parametrize("name", ["exchange", "absorb"])
def test_the_outputs_are_counted_once_per_side(monkeypatch, name) -> None:
    """Two outputs of N×e in the working dtype (one per side) and five float64 arrays of that
    size for the comparison: between float64 and float32 the part differs by the two outputs'
    4 bytes per entry, N·e·2·4, and each part is that count exactly."""
    N, d, m = 7, 5, 11
    counted = counted_parts(monkeypatch)
    for dtype in ("float64", "float32"):
        prepare(name, d=d, m=m, tokens=N, dtype=dtype, seed=0)
    part = "the outputs and their comparison"
    wide, narrow = counted[0][part], counted[1][part]
    assert wide - narrow == N * d * 2 * 4
    assert narrow == N * d * (2 * 4 + 5 * 8)
