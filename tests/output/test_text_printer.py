"""Plain text is a printer like the others (issue 24): a result's ``str()`` is what the text
renderer registered for its type returns, not logic of its own."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from symcheck.core import rendering
from symcheck.core.results import Status, Step
from symcheck.core.verdict import Equivalence, Verdict
from symcheck.engine.check_result import CheckResult
from symcheck.engine.family_result import FamilyResult, RegionVerdict
from symcheck.engine.group.layer import LayerGroup
from symcheck.engine.group.results import SymmetryGroup
from symcheck.language.activations import activation
from symcheck.language.family import parse_family
from symcheck.language.layer_formulations import Sizes, formulation
from symcheck.language.transformations import StructuralKind, Transformation, TransformationKind, domain
from symcheck.language.unit_forms import form
from symcheck.numeric.architectures import ARCHITECTURES
from symcheck.numeric.canonical import CanonicalReport, LayerCanon
from symcheck.numeric.equiv import EquivReport, LayerVerdict
from symcheck.numeric.model_report import LayerRecord, ModelReport
from symcheck.numeric.report import NumericReport
from symcheck.numeric.transform import LayerChange, TransformReport
from symcheck.numeric.vocabulary import NumericCheckKind, NumericForm
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


def _numeric() -> NumericReport:
    return NumericReport(NumericCheckKind.EXCHANGE, "the claim", NumericForm.GATED, activation("relu"), "L", "R",
                         "float32", {"d": 3, "m": 5}, 2.0, 1e-6, "the data", ("route a", "route b", "route a"), 1)


def _record(index: int, name: str, figures: tuple[float | None, float | None, float | None]) -> LayerRecord:
    return LayerRecord(index, f"h.{index}.", formulation(name), activation("relu"), "relu", Sizes(3, 5, 3), {},
                       *figures)


def _model() -> ModelReport:
    return ModelReport(Path("dir"), "tiny", ARCHITECTURES["opt"], (_record(0, "mlp", (None, 0.5, 1.23456e-7)),
                                                                    _record(2, "gated", (12345.0, None, 0.0))),
                       4, 16, "the rows", 1, "serial", 0.0, links=((Path("dir/a.safetensors"), Path("/b")),))


def _transform() -> TransformReport:
    return TransformReport(Path("src"), Path("out"), "llama", (), (
        LayerChange(0, True, (0.5, 2.0), None, None, 1.5e-3), LayerChange(1, False, None, (3.0, 3.0), None, None)),
        "the rows", 1, 2, (), 0.0)


def _canonical() -> CanonicalReport:
    return CanonicalReport(Path("src"), Path("out"), "opt", (_layer_group(),), (
        LayerCanon(0, 3, 1, 2, None, None, 4, 5, 2.5e-4),), "the rows", 1, 2, (), 0.0,
        rules=(("first rule", "second rule"),))


def _equiv() -> EquivReport:
    return EquivReport(Path("a"), Path("b"), "llama", (LayerVerdict(0, Equivalence.EQUIVALENT, "found g"),
                                                      LayerVerdict(1, Equivalence.UNDETERMINED, "no match")),
                       "the rows", 0.0)


RESULTS = {Audit: _audit, Derivation: _derivation, CheckResult: _check, FamilyResult: _family_result,
           FamilyAudit: _family_audit, SymmetryGroup: _group, LayerGroup: _layer_group, NumericReport: _numeric,
           ModelReport: _model, TransformReport: _transform, CanonicalReport: _canonical, EquivReport: _equiv}


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


def test_a_numeric_report_gives_its_sizes_its_routes_once_each_and_its_summary_last() -> None:
    report = _numeric()
    assert str(report).splitlines() == [
        "numeric exchange: the claim", "  left   L", "  right  R", "  σ = relu, gated form, float32, d=3, m=5",
        "  data   the data", "  routes route a; route b", f"  {report.summary}"]


def test_a_model_report_gives_a_line_per_link_and_per_layer_a_missing_figure_as_a_dash() -> None:
    assert str(_model()).splitlines() == [
        "tiny (opt): 2 of 4 MLP layers, 16 input rows (the rows)", "  link followed: a.safetensors → /b",
        "  layer 0: mlp, σ = relu, exchange defect —, rescaling residual 0.5, relative error 1.23e-07",
        "  layer 2: gated, σ = relu, exchange defect 1.23e+04, rescaling residual —, relative error 0"]


def test_a_transform_report_gives_each_layers_scales_and_rounding_and_the_largest_as_n_a_when_one_is() -> None:
    assert str(_transform()).splitlines() == [
        "out: llama, 2 MLP layers transformed from src",
        "  largest relative change of a layer's output: n/a (inputs: the rows)",
        "  layer 0: permuted, a in [0.5, 2], λ = 1, rounding 1.50e-03",
        "  layer 1: a = 1, λ = 3, rounding n/a"]


def test_a_canonical_report_gives_each_groups_rules_then_each_layers_changes() -> None:
    assert str(_canonical()).splitlines() == [
        "out: opt, 1 MLP layers of src in canonical form",
        "  largest relative change of a layer's output: 2.50e-04 (inputs: the rows)",
        "  σ = relu, mlp: first rule", "  σ = relu, mlp: second rule",
        "  layer 0: 3 units moved, 1 gates and 2 value paths turned, 4 tied, 5 degenerate"]


def test_an_equiv_report_gives_the_models_verdict_then_each_layers_with_its_reason() -> None:
    assert str(_equiv()).splitlines() == ["a vs b (llama): undetermined", "  layer 0: equivalent — found g",
                                          "  layer 1: undetermined — no match"]
