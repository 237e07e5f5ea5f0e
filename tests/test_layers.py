"""Whole-matrix statements at explicit sizes agree with the unit-level verdicts."""
from __future__ import annotations

import pytest
import sympy

import symcheck.layers as layers
from symcheck.activations import CATALOGUE
from symcheck.formulations import Sizes
from symcheck.layers import layer_check
from symcheck.transformations import Transformation, domain

GATED = [Transformation("exchange"), Transformation("inverse-scaling", domain("positive")),
         Transformation("inverse-scaling", domain(-1))]


@pytest.mark.parametrize("act", sorted(CATALOGUE))
def test_gated_layer_agrees_with_the_unit_on_the_catalogue(act: str) -> None:
    for t in GATED:
        result = layer_check(act, t, "gated")
        assert result.decomposition and result.agrees, result.to_dict()
        assert result.layer_verdict.value in ("holds", "broken")


@pytest.mark.parametrize("act", ["relu", "silu", "relu2", "tanh"])
def test_rank1_and_mlp_layers_agree(act: str) -> None:
    for name, t in (("rank1", Transformation("exchange")),
                    ("rank1", Transformation("key-value-rescaling", domain("positive"))),
                    ("mlp", Transformation("key-value-rescaling", domain("positive")))):
        result = layer_check(act, t, name, Sizes(2, 3, 2))
        assert result.decomposition and result.agrees, result.to_dict()


def test_query_value_rescaling_layer_with_degree() -> None:
    t = Transformation("query-value-rescaling", domain("positive"), degree=sympy.Integer(2))
    assert layer_check("relu2", t).layer_verdict.value == "holds"
    assert layer_check("relu", t).layer_verdict.value == "broken"


def test_a_wrong_layer_map_is_caught(monkeypatch) -> None:
    # swapping Q with V is not the exchange: the decomposition must fail and nothing be claimed
    monkeypatch.setitem(layers.LAYER_MAPS, "exchange", lambda p, t: {"Q": p["K"], "K": p["K"]})
    result = layer_check("identity", Transformation("exchange"))
    assert not result.decomposition and not result.agrees
    assert result.layer_verdict.value == "inconclusive"


def test_layer_witness_is_exact_and_certified() -> None:
    result = layer_check("silu", Transformation("exchange"))
    assert result.layer_verdict.value == "broken"
    assert all(v.is_Rational for v in result.witness.values())
