"""A decider's `holds` that the guard contradicts: before a member of the group is reported,
the guard looks for a point where σ(a·z) ≠ c·σ(z); if it finds one, the proof is withdrawn and
the point is certified, then the kernel re-evaluates the statement there for the member being
refuted — (σ, a, c) itself, not the point or any other value. The deciders are forced to answer
a false `holds` here (a slip inside them), for pairs and families that are false by hand: each
must come out broken, kernel-accepted, with the guard's point as its witness, where the
difference really is non-zero (mpmath, 50 digits)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
import sympy
from test_member_fallback_refutation import FAMILIES, PAIRS, _nonzero

from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.group import members
from symcheck.language.activations import activation
from symcheck.language.symbols import A

pytestmark = pytest.mark.withdrawal  # the forced `holds` is withdrawn on purpose

FALSE_HOLDS = SimpleNamespace(verdict=Verdict.HOLDS, note="forced", cases=(), pieces=())


def _withdrawn(proof) -> bool:
    return any("found by the guard" in step.justification for step in proof.steps)


@pytest.mark.parametrize("act, a, c", PAIRS, ids=str)
def test_a_pair_the_guard_refutes_is_broken_by_the_kernel(monkeypatch, act, a, c) -> None:
    monkeypatch.setattr(members, "decide_zero", lambda *args: FALSE_HOLDS)
    a, c = sympy.sympify(a), sympy.sympify(c)
    proof = members.prove_pair(activation(act), a, c, Budget(60))
    assert proof.verdict is Verdict.BROKEN, proof.note
    assert proof.kernel is not None and proof.kernel.accepted
    assert _withdrawn(proof)
    assert _nonzero(act, a, c, sympy.Rational(proof.witness["z"]))


@pytest.mark.parametrize("act, sign, c", FAMILIES, ids=str)
def test_a_family_the_guard_refutes_is_broken_by_the_kernel(monkeypatch, act, sign, c) -> None:
    monkeypatch.setattr(members, "decide_plane", lambda *args: FALSE_HOLDS)
    proof = members.prove_family(activation(act), sign, c, Budget(60))
    assert proof.verdict is Verdict.BROKEN, proof.note
    assert proof.kernel is not None and proof.kernel.accepted
    assert _withdrawn(proof)
    a, z = sympy.Rational(proof.witness["a"]), sympy.Rational(proof.witness["z"])
    assert a != 0 and (sign == 0 or (a > 0) == (sign > 0))
    assert _nonzero(act, a, c.subs(A, a), z)
