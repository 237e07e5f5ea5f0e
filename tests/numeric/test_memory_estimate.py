"""A numeric check estimates the memory of its inputs before allocating them: sizes that cannot
fit are refused with exit 2 and one line saying how much and why, never a MemoryError (exit 3).
The estimate must not be an underestimate: what `prepare` allocates stays within it."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import symcheck as sc
from symcheck.core.errors import InsufficientMemoryError, NumericError
from symcheck.numeric import checks, planner
from symcheck.numeric.checks import prepare
from symcheck.numeric.planner import available_memory, require_memory

from support import invoke_cli


def test_the_issue_example_is_refused_with_exit_2_and_the_sizes() -> None:
    # 3 × 74.5 GiB of factors: no CI machine has that, so the refusal does not depend on the host
    code, out, err = invoke_cli("numeric", "exchange", "--d", "100000", "--m", "100000")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err
    assert err.startswith("Error: the check needs ≈ 300 GiB of memory before it starts (X 195 MiB, "
                          "Q 74.5 GiB, K 74.5 GiB, V 74.5 GiB, ")
    assert "and a working-memory budget of 256 MiB on top), but only " in err
    assert err.rstrip().endswith("is available: choose smaller sizes d, m, tokens or float32")


def test_the_error_is_a_numeric_error_and_a_memory_error_with_typed_fields() -> None:
    with pytest.raises(InsufficientMemoryError) as caught:
        require_memory([("X", 3 * 2**20), ("Q", 2**30)], 2**20, available=2**30)
    err = caught.value
    assert isinstance(err, NumericError) and isinstance(err, MemoryError) and isinstance(err, sc.SymcheckError)
    assert sc.InsufficientMemoryError is InsufficientMemoryError and "InsufficientMemoryError" in sc.__all__
    assert (err.needed, err.available, err.parts) == (2**30 + 4 * 2**20, 2**30, (("X", 3 * 2**20), ("Q", 2**30)))
    assert str(err) == ("the check needs ≈ 1 GiB of memory before it starts (X 3 MiB, Q 1 GiB, and a "
                        "working-memory budget of 1 MiB on top), but only 1 GiB is available: choose "
                        "smaller sizes")


@pytest.mark.parametrize("available, refused", [(2**30 + 2**20 - 1, True), (2**30 + 2**20, False), (None, False)])
def test_the_boundary_counts_inputs_and_budget_together(available, refused) -> None:
    parts = [("Q", 2**30)]
    if refused:
        with pytest.raises(InsufficientMemoryError):
            require_memory(parts, 2**20, available=available)
    else:  # None: the host's memory is unknown there, and nothing is refused on a guess
        assert require_memory(parts, 2**20, available=available if available else 2**62) == 2**30 + 2**20


def test_available_memory_is_a_positive_number_of_bytes_or_unknown() -> None:
    found = available_memory()
    assert found is None or (isinstance(found, int) and found > 0)


@pytest.mark.parametrize("name, options", [
    ("exchange", {}), ("scaling", {"alpha": "3"}), ("rank1", {}), ("absorb", {}),
    ("exchange", {"form": "bilinear", "r": 3}), ("scaling", {"form": "rank1", "dtype": "float32"}),
])
def test_a_small_machine_refuses_every_check_before_allocating(monkeypatch, name, options) -> None:
    monkeypatch.setattr(planner, "available_memory", lambda: 4096)
    tracemalloc.start()
    try:
        with pytest.raises(InsufficientMemoryError, match=r"^the check needs ≈ .* but only 4 KiB is available"):
            prepare(name, d=32, m=64, tokens=16, **options)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024  # refused before the data were drawn (they alone are ~50 KiB)


@pytest.mark.parametrize("name, options", [
    ("exchange", {}), ("scaling", {"alpha": "1/3"}), ("rank1", {}), ("absorb", {}),
    ("exchange", {"form": "bilinear", "r": 4}), ("scaling", {"form": "rank1", "dtype": "float32"}),
])
def test_the_estimate_is_not_below_what_prepare_and_run_allocate(monkeypatch, name, options) -> None:
    # the arrays prepare keeps (its peak also holds SymPy's lambdified σ, not arrays), then the
    # run's arrays beyond its working plan
    estimate, after_prepare, run_peak, working = _estimate_and_footprint(monkeypatch, name, 48, 96, 40, **options)
    assert after_prepare <= estimate
    assert run_peak <= estimate + working


@pytest.mark.parametrize("name", ["absorb", "exchange", "scaling"])
@pytest.mark.parametrize("d, m", [(160, 2), (2, 400)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_estimate_covers_prepare_and_run_at_skewed_sizes(monkeypatch, name, d, m, dtype) -> None:
    """When one size dominates (d ≫ m: absorb's d×d Q_g and its float64 product; m ≫ d: the
    m×d arrays), a term that drops a factor d or m shows, where balanced sizes hide it in slack."""
    estimate, after_prepare, run_peak, working = _estimate_and_footprint(monkeypatch, name, d, m, 2, dtype=dtype)
    assert after_prepare <= estimate
    assert run_peak <= estimate + working


def _estimate_and_footprint(monkeypatch, name: str, d: int, m: int, tokens: int,
                            **options) -> tuple[int, int, int, int]:
    """(the estimate require_memory was given, bytes held after prepare, the run's peak, the
    larger working plan), traced by tracemalloc after a warm-up run (imports and caches are
    not the check's arrays)."""
    seen: list[int] = []
    original = planner.require_memory

    def spy(parts, working, available=None, advice=""):
        seen.append(sum(size for _, size in parts))
        return original(parts, working, available, advice)

    prepare(name, d=2, m=2, tokens=2, **options).run()
    monkeypatch.setattr(checks, "require_memory", spy)
    tracemalloc.start()
    try:
        job = prepare(name, d=d, m=m, tokens=tokens, memory="64MiB", **options)
        after_prepare, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        job.run()
        _, run_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(seen) == 1
    return seen[0], after_prepare, run_peak, max(job.left.plan.bytes, job.right.plan.bytes)


def test_weights_are_counted_from_their_sizes_before_x_is_drawn(tmp_path, monkeypatch) -> None:
    rng = np.random.default_rng(0)
    for role, shape in (("Q", (8, 4)), ("K", (8, 4)), ("V", (8, 4))):
        np.save(tmp_path / f"{role}.npy", rng.standard_normal(shape))
    files = [str(tmp_path / f"{role}.npy") for role in "QKV"]
    monkeypatch.setattr(planner, "available_memory", lambda: 2**30)
    with pytest.raises(InsufficientMemoryError, match=r"\(X 2\.98 GiB, α·Q 256 B, K/α 256 B, the outputs .*choose "
                                                      r"smaller tokens or float32$"):
        prepare("scaling", weights=files, tokens=10**8)
    assert prepare("scaling", weights=files, tokens=16).run().outcome in ("agree", "differ")


def test_the_memory_option_says_what_it_bounds() -> None:
    code, out, _ = invoke_cli("numeric", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "it bounds the memory the evaluation uses on top of its inputs" in text
    assert "The inputs (X, Q, K, V and the copies a check makes) are not in it" in text
    assert "refused (exit 2)" in text
