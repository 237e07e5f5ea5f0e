"""The guard before every `holds`: a wrong proof is caught by a certified counterexample."""
from __future__ import annotations

import pytest
import sympy

from symcheck.engine.guard import WITHDRAWN
from symcheck.engine.symmetries import check_exchange, check_inverse_scaling
from symcheck.exact import regions
from symcheck.exact.roots import Cuts

BUMP = "z + Piecewise((0, sin(z) + cos(z) > 0), (Max(0, (z - 4)*(9/2 - z)), True))"


_real_roots_in = regions.roots_in


def _missing_transcendental_roots(g, var, lower, upper, **kw):
    """An unsound root finder, as solveset is on half-lines: no root of a transcendental g."""
    if not g.is_polynomial(var):
        return Cuts((), "assumed, not proved")
    return _real_roots_in(g, var, lower, upper, **kw)


def test_the_issue_example_is_broken_with_a_certified_witness() -> None:
    result = check_exchange(BUMP)
    assert result.verdict.value == "broken"
    a, b = result.witness["a"], result.witness["b"]
    assert (a, b) == (sympy.Rational(17, 4), 1)
    assert [s.status for s in result.steps if s.title == "Certificate"] == ["certified"]
    # the tool no longer contradicts itself: every positive α agrees with α = 17/4
    assert check_inverse_scaling(BUMP, alpha="positive").verdict.value != "holds"
    assert check_inverse_scaling(BUMP, alpha="17/4").verdict.value == "broken"


@pytest.mark.withdrawal
def test_a_wrong_proof_is_withdrawn_by_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regions, "roots_in", _missing_transcendental_roots)
    before = len(WITHDRAWN)
    result = check_exchange(BUMP, timeout=300)  # generous: the outcome must not depend on machine load
    assert result.verdict.value == "broken"
    assert "the proof was withdrawn" in result.note
    assert len(WITHDRAWN) == before + 1
    assert result.witness is not None
    assert [s.status for s in result.steps if s.title == "Certificate"] == ["certified"]


@pytest.mark.withdrawal
def test_a_proof_whose_rewrite_lies_is_withdrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    from symcheck.engine import zero
    monkeypatch.setattr(zero, "prove_identically_zero", lambda *args, **kw: "a rewrite that lies")
    monkeypatch.setattr(zero, "_search", lambda *args, **kw: (None, zero.Evidence()))
    result = check_exchange("silu")
    assert result.verdict.value == "broken" and "withdrawn" in result.note


def test_a_true_proof_is_kept() -> None:
    before = len(WITHDRAWN)
    assert check_inverse_scaling("relu").verdict.value == "holds"
    assert check_exchange("Piecewise((z, sin(z) > 0), (z, True))").verdict.value == "holds"
    assert len(WITHDRAWN) == before
