"""Plain text is a printer like the others (issue 24): a result's ``str()`` is what the text
renderer registered for its type returns, not logic of its own."""
from __future__ import annotations

import pytest
import sympy

from symcheck.core import rendering
from symcheck.core.results import Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.check_result import CheckResult
from symcheck.engine.family_result import FamilyResult, RegionVerdict
from symcheck.engine.group.layer import LayerGroup
from symcheck.engine.group.results import SymmetryGroup
from symcheck.language.activations import activation
from symcheck.language.family import parse_family
from symcheck.language.transformations import StructuralKind, Transformation, TransformationKind, domain
from symcheck.language.unit_forms import form
from symcheck.paper.auditing import Audit, AuditRow
from symcheck.paper.derivations import Derivation
from symcheck.paper.family_audit import FamilyAudit, FamilyAuditRow


def _audit() -> Audit:
    return Audit(activation("relu"), (
        AuditRow("gated", TransformationKind.INVERSE_SCALING, domain("positive"), Verdict.BROKEN, ()),
        AuditRow("rank1", StructuralKind.PERMUTATION, None, Verdict.HOLDS, ())))


def _derivation() -> Derivation:
    import symcheck as sc
    return sc.derive("absorb")


_STEPS = (Step("Statement", "s", None, "why it is given", Status.GIVEN),
          Step("Proof of it", "p", None, "", Status.VERIFIED))


def _check() -> CheckResult:
    return CheckResult(Transformation("exchange"), form("gated"), activation("relu"), Verdict.INCONCLUSIVE,
                       None, _STEPS, note="a note")


def _family_result() -> FamilyResult:
    beta = sympy.Symbol("beta")
    return FamilyResult(parse_family("z*sigmoid(beta*z)", ["beta"]), Transformation("exchange"), form("gated"),
                        Verdict.INCONCLUSIVE, None, (RegionVerdict(beta > 0, Verdict.HOLDS),
                                                     RegionVerdict(beta <= 0, Verdict.INCONCLUSIVE)))


def _family_audit() -> FamilyAudit:
    result = _family_result()
    return FamilyAudit(result.family, (
        FamilyAuditRow("gated", TransformationKind.EXCHANGE, None, Verdict.INCONCLUSIVE, result, reason="open"),
        FamilyAuditRow("rank1", TransformationKind.EXCHANGE, None, Verdict.HOLDS,
                       FamilyResult(result.family, Transformation("exchange"), form("rank1"), Verdict.HOLDS, None,
                                    (RegionVerdict(sympy.true, Verdict.HOLDS),)), reason="one region")))


def _group() -> SymmetryGroup:
    return SymmetryGroup(activation("relu"), (), False, _STEPS, note="partial on purpose")


def _layer_group() -> LayerGroup:
    return LayerGroup(activation("relu"), "mlp", _group(), _STEPS, ("what is left",))


RESULTS = {Audit: _audit, Derivation: _derivation, CheckResult: _check, FamilyResult: _family_result,
           FamilyAudit: _family_audit, SymmetryGroup: _group, LayerGroup: _layer_group}


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


def test_a_check_aligns_its_steps_and_puts_each_justification_under_its_statement() -> None:
    lines = str(_check()).splitlines()
    assert lines[0] == "exchange on the gated form, σ = relu: inconclusive"
    width = len("Proof of it")
    assert lines[1] == f"  {'Statement':<{width}}  s  [given]"
    assert lines[2] == " " * (width + 6) + "why it is given"
    assert lines[3] == "  Proof of it  p  [verified]"  # no justification: no line for it
    assert lines[4:] == ["  note: a note"]


def test_a_family_audit_lists_the_regions_of_a_row_only_when_it_has_more_than_one() -> None:
    lines = str(_family_audit()).splitlines()
    assert lines[0].startswith("symmetry audit, σ = z*sigmoid(beta*z), ")
    assert [line.split()[:3] for line in lines[1:]] == [["gated", "exchange", "inconclusive"],
                                                        ["region", "beta", ">"], ["region", "beta", "<="],
                                                        ["rank1", "exchange", "holds"]]


def test_a_family_result_shows_every_region_with_its_verdict() -> None:
    assert str(_family_result()).splitlines()[1:] == ["  region beta > 0: holds", "  region beta <= 0: inconclusive"]


def test_a_group_and_a_layer_group_say_partial_and_list_their_steps() -> None:
    group, layer = str(_group()).splitlines(), str(_layer_group()).splitlines()
    assert group == ["symmetry group of σ = relu (partial): partial", "  Statement: s  [given]",
                     "  Proof of it: p  [verified]", "  note: partial on purpose"]
    assert layer[0] == "weight symmetries of the mlp layer, σ = relu (partial): partial"
    assert layer[-3:] == ["  Statement: s  [given]", "  Proof of it: p  [verified]", "  not covered: what is left"]
