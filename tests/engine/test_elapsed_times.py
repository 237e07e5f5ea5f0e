"""Elapsed times are durations, never clock readings.

A reported elapsed time cannot exceed the time the call took as measured around it, and the
elapsed time the guard receives decides its own budget (``GUARD_SHARE`` of the time so far, at
least ``GUARD_FLOOR``): a clock reading in its place would hand the guard the whole remaining
budget of the check. These are consistency checks (t0 ≤ started ≤ now ≤ t1), no wall-clock
thresholds.
"""
from __future__ import annotations

import time

import pytest

from symcheck.core.verdict import CrossVerdict, Verdict
from symcheck.engine import smt, symmetries
from symcheck.language.activations import activation
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

requires_z3 = pytest.mark.skipif(not smt.z3_available(),
                                 reason="z3-solver is not installed (the test extra installs it)")

#: ``elapsed_seconds`` is rounded to 4 digits: at most half a unit above the duration itself
ROUNDING = 0.00005


def _timed(call):
    t0 = time.perf_counter()
    result = call()
    return result, time.perf_counter() - t0


@pytest.mark.parametrize("act", ["relu", "identity"])
def test_a_check_reports_its_own_duration(act: str) -> None:
    result, took = _timed(lambda: symmetries.check_inverse_scaling(act))
    assert result.verdict is Verdict.HOLDS
    assert 0 <= result.elapsed <= took


def test_the_guard_is_given_the_time_the_check_has_taken(monkeypatch) -> None:
    """The guard's share of the budget is computed from this elapsed time."""
    seen: list[float] = []
    real = symmetries.counterexample

    def spy(*args, **kwargs):
        seen.append(kwargs["elapsed"])
        return real(*args, **kwargs)

    monkeypatch.setattr(symmetries, "counterexample", spy)
    result, took = _timed(lambda: symmetries.check_inverse_scaling("relu"))
    assert result.verdict is Verdict.HOLDS
    assert len(seen) == 1  # a proof was guarded
    assert 0 <= seen[0] <= result.elapsed <= took


@requires_z3
def test_the_cross_check_reports_its_own_duration() -> None:
    scaling = Transformation("inverse-scaling", domain("positive"))
    result, took = _timed(lambda: smt.cross_check(activation("relu"), scaling,
                                                  form("gated"), Verdict.HOLDS, None, seconds=5.0))
    assert result is not None and result.verdict is CrossVerdict.HOLDS and result.agrees is True
    assert 0 <= result.elapsed_seconds <= took + ROUNDING


@requires_z3
def test_a_failing_solver_reports_its_own_duration(monkeypatch) -> None:
    import z3

    def failing(*args, **kwargs):
        raise z3.Z3Exception("forced failure")

    monkeypatch.setattr(smt, "_decide", failing)
    scaling = Transformation("inverse-scaling", domain("positive"))
    result, took = _timed(lambda: smt.cross_check(activation("relu"), scaling,
                                                  form("gated"), Verdict.HOLDS, None, seconds=5.0))
    assert result is not None and result.reason.startswith("z3 failed: Z3Exception")
    assert result.agrees is None
    assert 0 <= result.elapsed_seconds <= took + ROUNDING
