from __future__ import annotations

import os

import pytest

from support import ROOT, paper_claims


@pytest.fixture(scope="session")
def claims() -> list[dict]:
    return paper_claims()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "withdrawal: the test makes the guard withdraw a proof on purpose")
    config.addinivalue_line("markers",
                            "kernel_rejection: the test makes the proof kernel reject a certificate on purpose")


@pytest.fixture(autouse=True)
def no_proof_is_withdrawn(request: pytest.FixtureRequest):
    """A proof the guard had to withdraw is a wrong proof the engine produced: fail the test
    that produced it (unless it does so on purpose)."""
    from symcheck.engine.guard import WITHDRAWN
    before = len(WITHDRAWN)
    yield
    if request.node.get_closest_marker("withdrawal") is None:
        fresh = WITHDRAWN[before:]
        assert not fresh, f"a proof was withdrawn by the guard: {fresh}"


@pytest.fixture(autouse=True)
def no_certificate_is_rejected(request: pytest.FixtureRequest):
    """A certificate the kernel rejected is a wrong proof (or an emitter bug) that reached the
    gate: fail the test that produced it, unless it does so on purpose. (A proof the emitter
    could not express is no rejection: it leaves the result inconclusive, and is not recorded.)"""
    from symcheck.engine.kernel_gate import REJECTED
    before = len(REJECTED)
    yield
    if request.node.get_closest_marker("kernel_rejection") is None:
        fresh = REJECTED[before:]
        assert not fresh, f"the proof kernel rejected a certificate: {[str(r) for r in fresh]}"


@pytest.fixture(autouse=True)
def no_alarm_is_left_armed():
    """A time budget's SIGALRM still armed after a test would fire in whatever runs next (pytest
    itself: an INTERNALERROR that ends the run). Disarm it and fail the test that left it."""
    import signal
    import threading
    yield
    if threading.current_thread() is not threading.main_thread():
        return
    left, _ = signal.getitimer(signal.ITIMER_REAL)
    handler = signal.getsignal(signal.SIGALRM)
    if left:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if handler not in (signal.SIG_DFL, signal.SIG_IGN, None):
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    assert not left, f"a SIGALRM timer was left armed ({left:.3f} s) with handler {handler!r}"
    assert handler in (signal.SIG_DFL, signal.SIG_IGN, None), f"a SIGALRM handler was left installed: {handler!r}"


def _script(name: str):
    """scripts/NAME.py loaded as a module."""
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def mutation_check():
    """scripts/mutation_check.py loaded as a module (the mutation tests test the mutator)."""
    return _script("mutation_check")


@pytest.fixture(scope="session")
def outside_cases():
    """scripts/outside_cases.py loaded as a module (its classifier is tested on a few cases)."""
    return _script("outside_cases")


@pytest.fixture
def without_z3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``import z3`` fail, as on a machine without the solver."""
    import builtins
    real_import = builtins.__import__

    def no_z3(name, *args, **kwargs):
        if name == "z3" or name.startswith("z3."):
            raise ImportError("no z3 here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_z3)


def region_time_factor() -> float:
    """How much longer than a user's run a family test may take for the same CPU work: the
    machine's load per core (the share of a core a process gets), at least 2 and at most 10."""
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this platform
        load = 0.0
    return min(10.0, max(2.0, 1.0 + load))


@pytest.fixture(scope="module")
def generous_region_budget():
    """A family's regions are decided under wall-clock limits (each kernel attempt on a region,
    REGION_SECONDS; the check's whole budget): under load a region that is broken or holds can
    come out inconclusive, and a test comparing exact region lists fails by the machine's load.
    Family test modules that assert decided regions use this (module scope, so their own module
    fixtures run under it too): every limit of the family check is multiplied by the same factor
    (region_time_factor), nothing else changes. Users keep the bounded limits."""
    from symcheck.core.budget import Budget
    from symcheck.engine import families
    factor = region_time_factor()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(families, "REGION_SECONDS", families.REGION_SECONDS * factor)
        patch.setattr(families, "Budget", lambda seconds: Budget(seconds * factor))
        yield factor


@pytest.fixture
def generous_parse_budget(monkeypatch):
    """The parser's wall-clock safety nets (building the SymPy expression: 5 s; one definedness
    proof) turn an expression into a refusal when the machine is loaded. Tests whose point is
    the verdict on a hard but legitimate expression (hundreds of digits of tiny constants) raise
    them, so that their outcome does not depend on the machine's load."""
    import dataclasses

    from symcheck.language import parsing
    monkeypatch.setattr(parsing, "LIMITS", dataclasses.replace(parsing.LIMITS, build_seconds=120.0,
                                                              solve_seconds=max(parsing.LIMITS.solve_seconds, 60.0)))
