"""A symmetry group reports its own duration on every way out of :func:`symmetry_group`.

Consistency checks, no wall-clock thresholds: the reported elapsed time lies between 0 and the
time the call took as measured around it. Each test takes one exit: the full build, the budget
running out, σ ≡ 0 proved and admitted, σ ≡ 0 proved but refused by the kernel, and σ vanishing
on the grid with nothing decided.
"""
from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from symcheck.core.verdict import Verdict
from symcheck.engine.group import assemble
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.kernel_gate import Admission


def _timed(spec: str, timeout: float = 60):
    t0 = time.perf_counter()
    group = symmetry_group(spec, timeout=timeout)
    return group, time.perf_counter() - t0


@pytest.mark.parametrize("spec", ["relu", "identity"])
def test_a_built_group_reports_its_own_duration(spec: str) -> None:
    group, took = _timed(spec)
    assert group.complete and not group.note
    assert 0 <= group.elapsed <= took


def test_a_group_cut_short_by_the_budget_reports_its_own_duration() -> None:
    group, took = _timed("tanh", timeout=1e-9)
    assert not group.complete and group.note == "partial: the time budget ran out"
    assert 0 <= group.elapsed <= took


def test_a_zero_activation_reports_its_own_duration() -> None:
    group, took = _timed("0")
    assert group.complete and [what for what, _ in group.certificates] == ["σ ≡ 0"]
    assert 0 <= group.elapsed <= took


def test_a_zero_proof_the_kernel_refuses_reports_its_own_duration(monkeypatch) -> None:
    monkeypatch.setattr(assemble, "admit", lambda *args, **kwargs: Admission(None, "forced refusal"))
    group, took = _timed("0")
    assert not group.complete and group.note.startswith("partial: the proof kernel did not accept")
    assert 0 <= group.elapsed <= took


def test_an_undecided_vanishing_activation_reports_its_own_duration(monkeypatch) -> None:
    give_up = SimpleNamespace(verdict=Verdict.INCONCLUSIVE, note="forced to give up", point=None)
    monkeypatch.setattr(assemble, "decide_zero", lambda *args, **kwargs: give_up)
    group, took = _timed("0")
    assert not group.complete and "neither certified non-zero" in group.note
    assert 0 <= group.elapsed <= took
