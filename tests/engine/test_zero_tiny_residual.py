"""Issue 23, slip 1: a rewrite that leaves a tiny non-zero constant taken as a proof of 0.

σ = z at 0, z + (cosh(e^-1500) − 1) elsewhere is not odd: σ(1) + σ(−1) = 2(cosh(e^-1500) − 1)
≈ e^-3000, far below any float. A zero prover that reads that constant as 0 proves a false
`holds`; the engine's witness search finds the certified witness first, so these tests take the
slip's output directly (a forged `holds`, the zero claim itself) and check that the proof
kernel alone refuses it, and that the zero decision never calls the constant 0.
"""
from __future__ import annotations

from dataclasses import replace

import sympy

import symcheck as sc
from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine import symmetries
from symcheck.engine.certificate.emit import Certificate, certify_zero
from symcheck.engine.zero import decide_zero

Z = sympy.Symbol("z", real=True)
SIGMA = "Piecewise((z, Eq(z, 0)), (z + cosh(exp(-1500)) - 1, True))"
TINY = sympy.cosh(sympy.exp(-1500)) - 1


def test_a_forged_holds_for_the_tiny_offset_is_not_reported(monkeypatch) -> None:
    """What the slip produces — `holds` for σ(−z) = −σ(z) — with the guard and the cross-check
    out of the way: the kernel finds no proof, so the result is inconclusive, never holds."""
    original = symmetries._decide
    monkeypatch.setattr(symmetries, "_decide", lambda statement, budget: replace(
        original(statement, budget), verdict=Verdict.HOLDS, witness=None))
    monkeypatch.setattr(symmetries, "counterexample", lambda *args, **kw: None)
    monkeypatch.setattr(symmetries, "_cross_check", lambda statement, decision, budget: (None, decision))
    result = sc.check_inverse_scaling(SIGMA, "minus-one")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert result.certificate is None and "proof kernel did not accept" in result.note


def test_the_kernel_refuses_to_call_the_tiny_constant_zero() -> None:
    for expr in (TINY, Z * TINY, Z + TINY - Z, 2 * TINY * Z**2):
        assert not isinstance(certify_zero(expr, {Z: ()}), Certificate), expr


def test_the_zero_decision_never_proves_the_tiny_residual() -> None:
    """The residual of the brief's statement, r(z) = σ(−z) + σ(z): a certified witness or no verdict."""
    sigma = sc.activation(SIGMA).expr
    z = next(iter(sigma.free_symbols))
    residual = sigma.xreplace({z: -z}) + sigma
    decision = decide_zero(residual, z, Budget(60))
    assert decision.verdict is not Verdict.HOLDS
    if decision.verdict is Verdict.BROKEN:
        assert decision.point != 0  # r(0) = 0 exactly; every other point gives 2·(cosh(e^-1500) − 1)


def test_the_brief_example_is_broken_with_a_witness_away_from_zero() -> None:
    result = sc.check_inverse_scaling(SIGMA, "minus-one")
    assert result.verdict is Verdict.BROKEN
    assert result.witness["a"] != 0 and result.witness["b"] != 0
