"""Plain text is a printer like the others (issue 24): a result's ``str()`` is what the text
renderer registered for its type returns, not logic of its own."""
from __future__ import annotations

import pytest

from symcheck.core import rendering
from symcheck.core.verdict import Verdict
from symcheck.language.activations import activation
from symcheck.language.transformations import StructuralKind, TransformationKind, domain
from symcheck.paper.auditing import Audit, AuditRow
from symcheck.paper.derivations import Derivation


def _audit() -> Audit:
    return Audit(activation("relu"), (
        AuditRow("gated", TransformationKind.INVERSE_SCALING, domain("positive"), Verdict.BROKEN, ()),
        AuditRow("rank1", StructuralKind.PERMUTATION, None, Verdict.HOLDS, ())))


def _derivation() -> Derivation:
    import symcheck as sc
    return sc.derive("absorb")


RESULTS = {Audit: _audit, Derivation: _derivation}


@pytest.mark.parametrize("cls", list(RESULTS), ids=lambda c: c.__name__)
def test_str_is_the_text_renderer(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    value = RESULTS[cls]()
    assert str(value) == rendering.render(value, "text")
    key = f"{cls.__module__}.{cls.__qualname__}"
    monkeypatch.setitem(rendering._REGISTRY["text"], key, lambda v, **_: f"sentinel {type(v).__name__}")
    assert str(value) == f"sentinel {cls.__name__}"


def test_the_audit_text_has_a_row_per_audit_row_with_its_kind_and_verdict() -> None:
    lines = str(_audit()).splitlines()
    assert lines[0].startswith("symmetry audit, σ = relu: ")
    assert [line.split()[:4] for line in lines[1:]] == [["gated", "inverse-scaling", "(positive)", "broken"],
                                                        ["rank1", "permutation", "holds", "inconclusive:"]]
