"""Closed vocabularies are enums whose values are the JSON strings: printing, formatting and
``json.dumps`` give exactly the value, so the output reads as it did when they were strings."""
from __future__ import annotations

import json
from enum import StrEnum

import pytest

from symcheck.core.results import Status, Step
from symcheck.core.verdict import CrossVerdict, Equivalence, Expectation, Outcome, Verdict, Verification
from symcheck.engine.certificate.emit import Rejection, RejectionStage
from symcheck.engine.group.facts import ASetKind, BoundKind
from symcheck.engine.group.layer_forms import LAYER_FORMS, LayerForm, layer_form
from symcheck.engine.zero import PieceStatus
from symcheck.language.transformations import (
    Domain,
    DomainName,
    StructuralKind,
    Transformation,
    TransformationKind,
    domain,
)
from symcheck.numeric.vocabulary import CHECK_FORMS, LayerVerdictKey, NumericCheckKind, NumericForm, Route
from symcheck.output.plot_kinds import PlotKind
from symcheck.paper.derivations import CheckKind, CheckRecord, DerivationStatus, DerivationStep, StepKind

#: every closed vocabulary with the strings its JSON has always carried (the interface)
VOCABULARIES: dict[type[StrEnum], set[str]] = {
    Verdict: {"holds", "broken", "inconclusive"},
    CrossVerdict: {"holds", "broken", "unknown", "unavailable"},
    PieceStatus: {"proved", "nonzero", "unknown", "undecided", "timeout"},
    ASetKind: {"all", "positive", "negative", "finite", "discrete"},
    BoundKind: {"empty", "points", "law", "discrete", "open"},
    DerivationStatus: {"verified", "failed", "unknown", "timeout", "not-applicable", "explicit-only"},
    StepKind: {"identity", "definition"},
    TransformationKind: {"exchange", "inverse-scaling", "key-value-rescaling", "query-value-rescaling"},
    StructuralKind: {"permutation", "gauge"},
    DomainName: {"positive", "negative", "any", "number"},
    Status: {"verified", "theorem", "given", "certified", "unknown", "timeout", "failed"},
    Expectation: {"paper", "decided"},
    Outcome: {"agree", "differ", "overflow", "underflow"},
    Equivalence: {"equivalent", "not equivalent", "undetermined"},
    NumericCheckKind: {"rank1", "absorb", "exchange", "scaling"},
    LayerVerdictKey: {"exchange", "inverse-scaling-positive", "inverse-scaling-minus-one", "key-value-rescaling"},
    PlotKind: {"exchange", "scaling"},
    CheckKind: {"matrix-expression", "generic-entry", "scalar", "explicit", "budget"},
    Verification: {"verified", "unverified"},
    RejectionStage: {"emit", "kernel"},
    NumericForm: {"gated", "rank1", "bilinear", "query-mlp"},
    Route: {"factor", "kernel", "rank1", "gated", "mlp"},
    LayerForm: {"gated", "mlp"},
}
MEMBERS = [member for vocabulary in VOCABULARIES for member in vocabulary]


@pytest.mark.parametrize("vocabulary", list(VOCABULARIES), ids=lambda v: v.__name__)
def test_the_values_are_the_json_strings(vocabulary: type[StrEnum]) -> None:
    assert {member.value for member in vocabulary} == VOCABULARIES[vocabulary]


@pytest.mark.parametrize("member", MEMBERS, ids=repr)
def test_a_member_prints_as_its_value(member: StrEnum) -> None:
    assert str(member) == f"{member}" == format(member, "") == "%s" % member == member.value  # noqa: UP031
    assert json.dumps(member) == json.dumps(member.value)
    assert json.dumps({member: 1}) == json.dumps({member.value: 1})
    assert type(member)(member.value) is member  # a JSON string reads back as the member


@pytest.mark.parametrize("vocabulary", list(VOCABULARIES), ids=lambda v: v.__name__)
def test_a_typo_is_no_member(vocabulary: type[StrEnum]) -> None:
    with pytest.raises(ValueError):
        vocabulary("Holds ")


def test_a_step_reads_its_status_from_the_json_string() -> None:
    step = Step("Proof", "σ(z) = z", None, "", "certified")  # type: ignore[arg-type]
    assert step.status is Status.CERTIFIED and step.to_dict()["status"] == "certified"
    with pytest.raises(ValueError):
        Step("Proof", "σ(z) = z", None, "", "proved")  # type: ignore[arg-type]


def test_every_step_status_has_a_style() -> None:
    from symcheck.output.render import STATUS_STYLE, UNSETTLED

    assert set(STATUS_STYLE) == set(Status)
    assert UNSETTLED == {Status.FAILED, Status.UNKNOWN, Status.TIMEOUT}


def test_a_cross_check_reads_its_verdicts_from_the_json_strings() -> None:
    from symcheck.engine.check_result import CrossCheck

    cross = CrossCheck("z3", "broken", verdict="holds", agrees=False)  # type: ignore[arg-type]
    assert cross.symbolic_verdict is Verdict.BROKEN and cross.verdict is CrossVerdict.HOLDS
    assert {type(v) for v in cross.to_dict().values() if isinstance(v, str)} == {str}  # plain JSON values
    with pytest.raises(ValueError):
        CrossCheck("z3", "holds", verdict="inconclusive")  # type: ignore[arg-type]  # z3 says unknown


@pytest.mark.parametrize(("piece", "step"), [
    (PieceStatus.PROVED, Status.VERIFIED), (PieceStatus.NONZERO, Status.CERTIFIED),
    (PieceStatus.UNKNOWN, Status.UNKNOWN), (PieceStatus.UNDECIDED, Status.UNKNOWN),
    (PieceStatus.TIMEOUT, Status.TIMEOUT)])
def test_a_piece_is_reported_by_a_step_of_matching_status(piece: PieceStatus, step: Status) -> None:
    assert piece.step is step  # only a proved piece is a verified step; a certified one backs a witness


def test_an_a_set_reads_its_kind_from_the_json_string() -> None:
    from symcheck.engine.group.results import ASet

    aset = ASet("positive")  # type: ignore[arg-type]
    assert aset.kind is ASetKind.POSITIVE and aset.to_dict()["kind"] == "positive"
    assert type(aset.to_dict()["kind"]) is str
    assert [ASetKind.half(sign) for sign in (1, -1)] == [ASetKind.POSITIVE, ASetKind.NEGATIVE]
    with pytest.raises(ValueError):
        ASet("nonzero")  # type: ignore[arg-type]


def test_a_derivation_step_reads_its_status_and_kind_from_the_json_strings() -> None:
    record = CheckRecord("explicit", "not-applicable", "…")  # type: ignore[arg-type]
    step = DerivationStep("t", "t", "why", "explicit-only", (record,), "definition")  # type: ignore[arg-type]
    assert record.status is DerivationStatus.NOT_APPLICABLE
    assert step.status is DerivationStatus.EXPLICIT_ONLY and step.kind is StepKind.DEFINITION
    data = step.to_dict()
    written = (data["status"], data["kind"], data["checks"][0]["status"])
    assert written == ("explicit-only", "definition", "not-applicable")
    assert {type(v) for v in written} == {str}
    with pytest.raises(ValueError):
        CheckRecord("explicit", "proved", "…")  # type: ignore[arg-type]


def test_a_check_record_reads_its_methods_from_the_json_string() -> None:
    record = CheckRecord("matrix-expression+scalar", DerivationStatus.VERIFIED, "…")  # type: ignore[arg-type]
    assert record.kind == (CheckKind.MATRIX_EXPRESSION, CheckKind.SCALAR)
    assert record.name == f"{record.kind}" == "matrix-expression+scalar" == record.to_dict()["kind"]
    assert type(record.to_dict()["kind"]) is str
    assert CheckRecord(CheckKind.EXPLICIT, DerivationStatus.VERIFIED, "").kind == ("explicit",)
    with pytest.raises(ValueError):
        CheckRecord("matrix-expression+exact", DerivationStatus.VERIFIED, "…")  # type: ignore[arg-type]


def test_a_transformation_reads_its_kind_from_the_command_line_name() -> None:
    from symcheck.core.errors import UnknownNameError

    t = Transformation("exchange")  # type: ignore[arg-type]
    assert t.name is TransformationKind.EXCHANGE and t == Transformation(TransformationKind.EXCHANGE)
    with pytest.raises(UnknownNameError, match=r"did you mean 'exchange'\?$"):  # names quoted, not members
        Transformation("exchang")  # type: ignore[arg-type]


def test_a_domain_reads_its_name_from_the_command_line() -> None:
    assert domain("nonzero").name is DomainName.ANY and domain("-1").name is DomainName.NUMBER
    assert Domain("positive") == domain("positive") and str(domain("positive")) == "positive"  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Domain("nonzero")  # type: ignore[arg-type]  # an alias of the parser, not a name


def _choices(command: str, name: str) -> tuple[str, ...]:
    from symcheck.cli import cli
    param = next(p for p in cli.commands[command].params if p.name == name)
    return tuple(param.type.choices)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("command", "name", "expected"), [
    ("audit", "expect", ("paper", "decided")), ("catalog", "expect", ("paper", "decided")),
    ("numeric", "check", ("rank1", "absorb", "exchange", "scaling")), ("numeric", "expect", ("agree", "differ")),
    ("equiv", "expect", ("equivalent", "not-equivalent", "undetermined")), ("plot", "kind", ("exchange", "scaling")),
    ("derive", "expect", ("verified", "unverified")), ("numeric", "form", ("gated", "rank1", "bilinear"))])
def test_the_command_line_offers_the_same_strings(command: str, name: str, expected: tuple[str, ...]) -> None:
    """The choices are the vocabularies' values (click would offer an Enum's member names)."""
    assert _choices(command, name) == expected
    assert all(type(choice) is str for choice in _choices(command, name))


def test_the_plot_command_offers_every_plot_kind() -> None:
    assert set(_choices("plot", "kind")) == {kind.value for kind in PlotKind}


def test_an_expectation_is_read_from_its_name() -> None:
    from symcheck.core.errors import UnknownNameError
    from symcheck.paper.claims import expectation
    assert expectation("decided") is Expectation.DECIDED
    with pytest.raises(UnknownNameError, match="expectation"):
        expectation("papers")


def test_a_mismatch_says_which_verdicts_would_have_met_it() -> None:
    from symcheck.paper.claims import mismatches
    rows = [("tanh", "gated", TransformationKind.INVERSE_SCALING, "-1", Verdict.BROKEN),
            ("silu", "gated", TransformationKind.EXCHANGE, None, Verdict.INCONCLUSIVE)]
    paper, decided = mismatches(rows, Expectation.PAPER), mismatches(rows, Expectation.DECIDED)
    assert [m.expected for m in paper] == [(Verdict.HOLDS,), (Verdict.BROKEN,)]  # tanh keeps α = −1; silu breaks it
    assert [m.expected for m in decided] == [(Verdict.HOLDS, Verdict.BROKEN)]
    assert str(decided[0]) == "silu, gated exchange: expected holds or broken, got inconclusive"


def test_a_numeric_check_reads_its_kind_and_outcome_from_the_json_strings() -> None:
    from symcheck.numeric.checks import check_kind
    assert check_kind("absorb") is NumericCheckKind.ABSORB and NumericCheckKind.ABSORB.identity
    assert not NumericCheckKind.SCALING.identity
    from symcheck.core.errors import UnknownNameError
    with pytest.raises(UnknownNameError, match="did you mean 'exchange'"):
        check_kind("exchang")


def test_a_numeric_report_writes_plain_json_strings() -> None:
    from symcheck.numeric.checks import measure
    report = measure("scaling", act="relu", d=4, m=8, tokens=8)  # type: ignore[arg-type]
    assert report.kind is NumericCheckKind.SCALING and report.outcome is Outcome.AGREE
    data = report.to_dict()
    assert (data["symmetry"], data["identity"], data["outcome"]) == ("inverse-scaling", None, "agree")
    assert {type(data[k]) for k in ("symmetry", "outcome")} == {str}


def test_an_equivalence_has_the_command_lines_spelling() -> None:
    assert [e.option for e in Equivalence] == ["equivalent", "not-equivalent", "undetermined"]
    assert Equivalence("not equivalent") is Equivalence.NOT_EQUIVALENT


def test_the_plot_kinds_load_without_numpy() -> None:
    """The command line builds ``plot``'s choices from PlotKind, so its module must stay light."""
    import subprocess
    import sys
    code = "import sys, symcheck.output.plot_kinds; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    from symcheck.output import plots
    assert plots.PlotKind is PlotKind  # the drawing module's name is the same enum


def test_a_derivation_is_expected_by_its_verification() -> None:
    from symcheck.paper.derivations import Derivation
    empty = Derivation("x", "x", "x", "", ())
    assert empty.verification is Verification.UNVERIFIED  # no step: nothing verified


def test_a_rejection_reads_its_stage_from_the_string() -> None:
    rejection = Rejection("uncut condition", "kernel", "piece 2")  # type: ignore[arg-type]
    assert rejection.stage is RejectionStage.KERNEL
    assert str(rejection) == "no certificate (kernel): piece 2: uncut condition"
    assert Rejection("gap").stage is RejectionStage.EMIT
    with pytest.raises(ValueError):
        Rejection("gap", "emitter")  # type: ignore[arg-type]


def test_a_plan_reads_its_route_from_the_string() -> None:
    from symcheck.numeric.planner import bilinear_plan, plan
    assert plan("mlp", 8, 4, 4).route is Route.MLP  # type: ignore[arg-type]
    assert bilinear_plan(8, 4, 4, 1, 1, 2**20, "float64", False, 0, "kernel", 1).route is Route.KERNEL  # type: ignore[arg-type]
    from symcheck.core.errors import NumericError
    with pytest.raises(NumericError, match="unknown route 'mlp'; expected factor or kernel"):
        bilinear_plan(8, 4, 4, 1, 1, 2**20, "float64", False, 0, Route.MLP, 1)  # bilinear has two routes


def test_a_numeric_form_is_read_from_its_name() -> None:
    from symcheck.core.errors import UnknownNameError
    from symcheck.numeric.checks import FORMS, numeric_form
    assert FORMS == CHECK_FORMS and numeric_form("rank1") is NumericForm.RANK1
    with pytest.raises(UnknownNameError, match="did you mean 'bilinear'"):
        numeric_form("bilnear")
    with pytest.raises(UnknownNameError):
        numeric_form("query-mlp")  # the absorb check's form, not one --form offers


def test_a_layer_form_is_read_from_its_name() -> None:
    from symcheck.core.errors import UnknownNameError
    assert layer_form(" Gated ") is LayerForm.GATED and layer_form("mlp") is LayerForm.MLP
    assert set(LAYER_FORMS) == set(LayerForm)  # every form has its unit for the proof
    with pytest.raises(UnknownNameError, match="did you mean 'gated'"):
        layer_form("gatd")
    with pytest.raises(UnknownNameError, match="expected one of: gated, mlp"):
        layer_form("rank1")  # a unit form, not a layer's


def test_a_layer_group_reads_its_form_from_the_string_and_writes_it_plain() -> None:
    from symcheck.engine.group.layer import LayerGroup, layer_group
    group = layer_group("relu", "MLP")
    assert group.form is LayerForm.MLP and not group.gated
    data = group.to_dict()
    assert type(data["form"]) is str and json.dumps(data["form"]) == '"mlp"'
    assert LayerGroup(group.activation, "gated", group.group, ()).form is LayerForm.GATED  # type: ignore[arg-type]


def test_a_checkpoints_layers_carry_their_architectures_form() -> None:
    from pathlib import Path

    from symcheck.numeric.architectures import ARCHITECTURES, open_model
    assert {arch.form for arch in ARCHITECTURES.values()} == set(LayerForm)
    assert ARCHITECTURES["gpt2"].form is LayerForm.MLP and ARCHITECTURES["llama"].form is LayerForm.GATED
    model = open_model(Path(__file__).parents[2] / "examples" / "tiny-llama")
    assert {layer.form for layer in model.layers} == {LayerForm.GATED}
    assert all(layer.form is LayerForm.GATED for layer in model.layers)
