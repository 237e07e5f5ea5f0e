"""The identity among a sign's finitely many candidates needs no member certificate.

When the maximality argument leaves finitely many (a, c) for a sign, each is proved (with the
kernel's certificate) or refuted; the one exception is (1, 1), always a member and added as the
identity. So an emitter that finds no certificate for σ(1·z) = 1·σ(z) (an emit-stage refusal)
must leave the sign settled: the group stays complete, its completeness certificate accepted
without the identity's. Treating (1, 1) as an undecided candidate would make it partial.
"""
from __future__ import annotations

import pytest
import sympy

import symcheck as sc
from symcheck.engine.certificate.emit import Rejection
from symcheck.engine.group import members


@pytest.fixture
def identity_uncertified(monkeypatch):
    """The emitter refuses (emit stage: no proof found, no kernel rejection) only the identity."""
    original = members.certify_member

    def certify(sigma, a, c, *args, **kwargs):
        if sympy.sympify(a) == 1 and sympy.sympify(c) == 1:
            return Rejection("no proof found for the identity (test)")
        return original(sigma, a, c, *args, **kwargs)

    monkeypatch.setattr(members, "certify_member", certify)


@pytest.mark.parametrize("spec, negative", [("tanh", True), ("sin(z)", True), ("sigmoid", False)])
def test_the_identity_candidate_settles_without_its_certificate(identity_uncertified, spec, negative) -> None:
    g = sc.symmetry_group(spec)
    assert g.complete, g.note
    assert not g.note
    assert g.contains(1, 1) is True
    assert g.contains(-1, -1) is (True if negative else False)
    whats = [what for what, _ in g.certificates]
    assert "complete" in whats
    assert "(a, c) = (1, 1)" not in whats
