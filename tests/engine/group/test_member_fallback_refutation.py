"""A pair (a, c) or a family c(a) refuted at a point the deciders did not give: when neither
decider settles the statement, the numeric fallback may still find a point where
σ(a·z) ≠ c·σ(z); when a decider answers `holds`, the guard looks for such a point before the
member is reported, and if it finds one the proof is withdrawn. Either way the point is
certified and the kernel re-evaluates the statement there *for the member being refuted* —
(σ, a, c) itself, not the point or any other value. The deciders are forced here to give up, or
to answer a false `holds` (a slip inside them), for pairs and families whose truth is known by
hand: each must come out broken, with the kernel's acceptance, the path that found the point
named in its steps, and a witness where the difference really is non-zero (mpmath, 50 digits)."""
from __future__ import annotations

from types import SimpleNamespace

import mpmath
import pytest
import sympy

from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.group import members
from symcheck.language.activations import activation
from symcheck.language.symbols import A, Z

GIVE_UP = SimpleNamespace(verdict=Verdict.INCONCLUSIVE, note="forced to give up", cases=(), pieces=())
FALSE_HOLDS = SimpleNamespace(verdict=Verdict.HOLDS, note="forced", cases=(), pieces=())

#: what the forced decider answers, and the path that must then find the point
ANSWERS = [pytest.param(GIVE_UP, "found by the numeric fallback", id="gives-up"),
           pytest.param(FALSE_HOLDS, "found by the guard", id="false-holds",
                        marks=pytest.mark.withdrawal)]  # the forced `holds` is withdrawn on purpose

#: (σ, a, c) with σ(a·z) = c·σ(z) false for some z (each is a one-line check by hand)
PAIRS = [("silu", 2, 2), ("silu", -1, 1), ("tanh", 2, 2), ("gelu", sympy.Rational(1, 2), sympy.Rational(1, 2)),
         ("z*tanh(z)", -1, -1), ("softplus", 3, 1)]
#: (σ, sign of a, c(a)) false for some a of that sign and some z
FAMILIES = [("silu", 1, A), ("tanh", -1, A), ("z**2 + z", 0, A**2)]


def _nonzero(act: str, a, c, z) -> bool:
    sigma = sympy.lambdify(Z, activation(act).expr, "mpmath")
    with mpmath.workdps(50):
        value = sigma(mpmath.mpf(sympy.Rational(a * z).p) / sympy.Rational(a * z).q) \
            - mpmath.mpf(sympy.Rational(c).p) / sympy.Rational(c).q * sigma(mpmath.mpf(z.p) / z.q)
        return abs(value) > mpmath.mpf(10) ** -40


def _broken_by_the_kernel(proof, origin: str) -> None:
    assert proof.verdict is Verdict.BROKEN, proof.note
    assert proof.kernel is not None and proof.kernel.accepted
    assert any(origin in step.justification for step in proof.steps), [s.justification for s in proof.steps]


@pytest.mark.parametrize("answer, origin", ANSWERS)
@pytest.mark.parametrize("act, a, c", PAIRS, ids=str)
def test_a_refuted_pair_is_broken_by_the_kernel(monkeypatch, answer, origin, act, a, c) -> None:
    monkeypatch.setattr(members, "decide_zero", lambda *args: answer)
    a, c = sympy.sympify(a), sympy.sympify(c)
    proof = members.prove_pair(activation(act), a, c, Budget(60))
    _broken_by_the_kernel(proof, origin)
    assert _nonzero(act, a, c, sympy.Rational(proof.witness["z"]))


@pytest.mark.parametrize("answer, origin", ANSWERS)
@pytest.mark.parametrize("act, sign, c", FAMILIES, ids=str)
def test_a_refuted_family_is_broken_by_the_kernel(monkeypatch, answer, origin, act, sign, c) -> None:
    monkeypatch.setattr(members, "decide_plane", lambda *args: answer)
    proof = members.prove_family(activation(act), sign, c, Budget(60))
    _broken_by_the_kernel(proof, origin)
    a, z = sympy.Rational(proof.witness["a"]), sympy.Rational(proof.witness["z"])
    assert a != 0 and (sign == 0 or (a > 0) == (sign > 0))
    assert _nonzero(act, a, c.subs(A, a), z)
