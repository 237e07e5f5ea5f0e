"""The symmetry audit: the expected verdicts and the JSON shape."""
from __future__ import annotations

import json

import pytest
import sympy

import symcheck.paper.structural as structural
from symcheck.paper.auditing import Ground, audit


@pytest.fixture(scope="module")
def silu():
    return audit("silu")


@pytest.fixture(scope="module")
def relu():
    return audit("relu")


def verdict(a, form, kind, dom=None) -> str:
    return a.row(form, kind, dom).verdict.value


@pytest.mark.parametrize("fixture", ["silu", "relu"])
def test_gated_key_value_rescaling_holds_for_every_sigma(request, fixture) -> None:
    a = request.getfixturevalue(fixture)
    assert verdict(a, "gated", "key-value-rescaling", "positive") == "holds"
    assert verdict(a, "gated", "key-value-rescaling", "any") == "holds"
    row = a.row("gated", "key-value-rescaling", "positive")
    assert row.ground is Ground.EVERY_SIGMA and row.basis == "every σ"


@pytest.mark.parametrize("fixture", ["silu", "relu"])
def test_rank1_exchange_and_inverse_scaling_hold_for_every_sigma(request, fixture) -> None:
    a = request.getfixturevalue(fixture)
    assert verdict(a, "rank1", "exchange") == "holds"
    for dom in ("positive", "negative", "-1", "any"):
        assert verdict(a, "rank1", "inverse-scaling", dom) == "holds"


def test_query_value_rescaling_reports_the_degree(relu, silu) -> None:
    row = relu.row("gated", "query-value-rescaling", "positive")
    assert row.verdict.value == "holds" and row.degree == 1 and row.ground is Ground.CASES
    broken = silu.row("gated", "query-value-rescaling", "positive")
    assert broken.verdict.value == "broken" and broken.ground is Ground.NO_DEGREE
    assert broken.homogeneity.excludes_every_p
    relu2 = audit("relu2").row("gated", "query-value-rescaling", "positive")
    assert relu2.verdict.value == "holds" and relu2.degree == 2


def test_gated_exchange_and_scaling_follow_the_engine(relu, silu) -> None:
    assert verdict(relu, "gated", "exchange") == "broken"
    assert verdict(relu, "gated", "inverse-scaling", "positive") == "holds"
    assert verdict(silu, "gated", "inverse-scaling", "positive") == "broken"


def test_key_value_rescaling_of_the_rank1_unit_needs_homogeneity(relu, silu) -> None:
    assert verdict(relu, "rank1", "key-value-rescaling", "positive") == "holds"
    assert verdict(silu, "rank1", "key-value-rescaling", "positive") == "broken"
    assert verdict(relu, "mlp", "key-value-rescaling", "positive") == "holds"


@pytest.mark.parametrize("form", ["bilinear", "rank-r"])
def test_bilinear_argument_symmetries_hold_for_every_sigma(silu, form) -> None:
    for kind, dom in (("exchange", None), ("inverse-scaling", "any"), ("gauge", None),
                      ("permutation", None)):
        assert verdict(silu, form, kind, dom) == "holds"


def test_permutation_holds_everywhere(silu) -> None:
    forms = {r.form for r in silu.rows}
    assert forms == {"gated", "rank1", "mlp", "query-mlp", "bilinear", "rank-r"}
    assert all(verdict(silu, f, "permutation") == "holds" for f in forms)


def test_structural_checks_can_fail(monkeypatch) -> None:
    # a wrong argument (K_j used twice) must not be reported as invariant under exchange
    monkeypatch.setattr(structural, "_argument", lambda x, q, k: x * q * q.T * x.T)
    ok, *_ = structural._exchange_argument()
    assert not ok
    monkeypatch.setattr(structural, "_argument", lambda x, q, k: x * q * k.T * x.T * x * q * x.T)
    assert not structural._gauge_argument()[0]


def test_json_shape(relu, silu) -> None:
    data = json.loads(json.dumps(relu.to_dict()))
    assert data["activation"] == "relu"
    row = data["rows"][0]
    assert {"form", "transformation", "domain", "verdict", "ground", "homogeneity"} <= set(row)
    broken = [r for r in data["rows"] if r["verdict"] == "broken"]
    assert broken and all(r["witness"] for r in broken)
    # no single point refutes every p for silu: the row carries the points of its argument
    qv = json.loads(json.dumps(silu.to_dict()))["rows"]
    qv = next(r for r in qv if r["transformation"] == "query-value-rescaling")
    assert qv["witness"] is None and qv["ground"] == "no-degree"
    assert qv["homogeneity"]["kind"] == "conflict"
    assert [r["excludes"] for r in qv["homogeneity"]["refutations"]] == [
        "every p but the pinned one", "the pinned p"]


def test_witnesses_are_exact(silu) -> None:
    for row in silu.rows:
        if row.witness is not None:
            assert row.verdict.value == "broken"
            assert all(sympy.Rational(v) == v for v in row.witness.values())
        elif row.verdict.value == "broken":  # no single point: every p is refuted by the argument
            assert row.transformation == "query-value-rescaling" and row.homogeneity.refutations


def test_identity_query_value_rows_do_not_claim_every_sigma() -> None:
    # σ substituted, the sides cancel: that is not a statement about every σ
    row = audit("identity").row("gated", "query-value-rescaling", "positive")
    assert row.verdict.value == "holds" and row.ground is Ground.CANCELS
    assert row.basis.startswith("the sides cancel;")
