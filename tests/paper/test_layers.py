"""Whole-matrix statements at explicit sizes agree with the unit-level verdicts."""
from __future__ import annotations

import pytest
import sympy

import symcheck.paper.layer_agreement as layers
from symcheck.language.activations import CATALOGUE, activation
from symcheck.language.layer_formulations import Sizes
from symcheck.language.transformations import Transformation, domain
from symcheck.paper.layer_agreement import layer_check

from support import quick_few

GATED = [Transformation("exchange"), Transformation("inverse-scaling", domain("positive")),
         Transformation("inverse-scaling", domain(-1))]


@pytest.mark.parametrize("act", quick_few(sorted(CATALOGUE)))
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


def test_a_layer_witness_the_certifier_refuses_is_not_broken(monkeypatch) -> None:
    monkeypatch.setattr(layers, "certify_nonzero", lambda expr, values, **kw: None)
    result = layer_check("silu", Transformation("exchange"))
    assert result.unit_verdict.value == "broken"
    assert result.layer_verdict.value == "inconclusive" and result.witness is None


def test_the_layer_entry_is_certified_with_the_point_beside_it(monkeypatch) -> None:
    # substituting first would let SymPy decide σ's branch conditions at the point with floats
    seen = []
    real = layers.certify_nonzero

    def spy(expr, values, **kw):
        seen.append((expr, dict(values)))
        return real(expr, values, **kw)
    monkeypatch.setattr(layers, "certify_nonzero", spy)
    result = layer_check("Piecewise((z, z > 0), (z/2, True))", Transformation("exchange"))
    assert result.layer_verdict.value == "broken"
    (expr, values), = seen
    assert expr.has(sympy.Piecewise) and expr.free_symbols <= set(values)
    assert all(v.is_Rational for v in values.values())


def test_a_witness_outside_the_scale_domain_is_refused(monkeypatch) -> None:
    # a unit witness with α < 0 cannot refute the α > 0 statement, whatever the layer's value
    t = Transformation("inverse-scaling", domain("positive"))
    unit = layers.check("silu", t, "gated")
    bad = {**unit.witness, "alpha": sympy.Integer(-2)}
    monkeypatch.setattr(layers, "check", lambda *a, **k: type(unit)(**{**unit.__dict__, "witness": bad}))
    result = layer_check("silu", t)
    assert result.layer_verdict.value == "inconclusive" and result.witness is None


@pytest.mark.parametrize("act", ["silu", "Min(z,0)*(Min(z,0)+3/2)", "tanh"])
def test_every_broken_layer_is_certified_on_the_layer(act: str) -> None:
    from symcheck.exact.evaluate import certify_nonzero
    from symcheck.language.symbols import SIGMA, substitute_sigma
    for name, t in (("gated", Transformation("exchange")),
                    ("gated", Transformation("inverse-scaling", domain("positive"))),
                    ("rank1", Transformation("key-value-rescaling", domain("positive")))):
        result = layer_check(act, t, name)
        if result.layer_verdict.value != "broken":
            assert result.witness is None
            continue
        layer = layers.formulation(name)
        params = layer.parameters(result.sizes)
        moved = {**params, **layers.LAYER_MAPS[t.name](params, t)}
        entry = (layer.explicit(SIGMA, result.sizes, **moved) - layer.explicit(SIGMA, result.sizes))[0, 0]
        assert certify_nonzero(substitute_sigma(entry, activation(act)), result.witness) is not None
