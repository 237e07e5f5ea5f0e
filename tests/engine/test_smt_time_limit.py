"""The cross-check's time budget reaches z3 in milliseconds: each solver (the decision, and
the confirmation of the engine's witness) is given the caller's seconds × 1000, not a fixed
second, so a short budget stays short and a long one is not cut at a second."""
from __future__ import annotations

import pytest
import sympy

import symcheck as sc
from symcheck.engine import smt
from symcheck.language.transformations import Transformation
from symcheck.language.unit_forms import form

z3 = pytest.importorskip("z3")  # the smt extra; CI installs it


@pytest.mark.parametrize("seconds, millis", [(0.25, 250), (3.5, 3500), (0.07, 70)])
def test_each_solver_gets_the_budget_in_milliseconds(monkeypatch, seconds, millis) -> None:
    timeouts: list[object] = []
    original = z3.Solver.set

    def spy(self, *args, **keys):
        if args and args[0] == "timeout":
            timeouts.append(args[1])
        return original(self, *args, **keys)

    monkeypatch.setattr(z3.Solver, "set", spy)
    t = Transformation("exchange", None, degree=sympy.Integer(1))
    cross = smt.cross_check(sc.activation("relu"), t, form("gated"), "broken", {"a": 1, "b": -1}, seconds=seconds)
    assert cross is not None and cross.timeout_seconds == seconds
    assert timeouts == [millis, millis]  # the decision, then the witness's confirmation
