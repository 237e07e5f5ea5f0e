"""Which config key gives Gemma's activation: the one transformers' own MLP module reads.

Gemma2's MLP runs ``ACT2FN[config.hidden_activation]`` ("gelu" is exact GELU there; hidden_act
is not read); Gemma's runs ``ACT2FN[config.hidden_act]``, its config turning the legacy "gelu"
into the tanh form, while transformers 4 read ``hidden_activation``. For every pair of values
of the two keys, a config.json written by transformers' ``save_pretrained`` is read back by
transformers (``from_pretrained``), its MLP module run in float64 is the reference, and
symcheck's layer output from the same directory must equal it — or, for Gemma, the config is
refused as ambiguous when the two transformers readings differ.
"""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from symcheck.core.errors import WeightsError
from symcheck.numeric.architectures import open_model
from symcheck.numeric.model_report import layer_output

from support.model_checkpoints import write_safetensors

torch = pytest.importorskip("torch", reason="needs torch (the torch extra)")
transformers = pytest.importorskip("transformers", reason="needs transformers (the test extra)")

TOLERANCE = 1e-12
NAMES = ("gelu", "gelu_pytorch_tanh", "silu", None)


def _directory(tmp_path, model_type: str, hidden_act: str | None, hidden_activation: str | None):
    """A one-layer Gemma/Gemma2 directory: config.json as transformers saves it, the MLP's
    weights, and transformers' own MLP module built from that config.json."""
    family = {"gemma": (transformers.GemmaConfig, transformers.models.gemma.modeling_gemma.GemmaMLP),
              "gemma2": (transformers.Gemma2Config, transformers.models.gemma2.modeling_gemma2.Gemma2MLP)}
    config_class, mlp_class = family[model_type]
    keys = {k: v for k, v in (("hidden_act", hidden_act), ("hidden_activation", hidden_activation)) if v}
    config_class(hidden_size=8, intermediate_size=12, num_hidden_layers=1, num_attention_heads=2,
                 num_key_value_heads=1, head_dim=4, vocab_size=16, **keys).save_pretrained(tmp_path)
    # the keys as released checkpoints wrote them (GemmaConfig saves "gelu" already converted)
    raw = json.loads((tmp_path / "config.json").read_text())
    for key in ("hidden_act", "hidden_activation"):
        raw.pop(key, None)
    (tmp_path / "config.json").write_text(json.dumps({**raw, **keys}))
    saved = config_class.from_pretrained(tmp_path)  # what transformers makes of the file
    torch.manual_seed(0)
    module = mlp_class(saved).to(torch.float64).eval()
    weights = {f"model.layers.0.mlp.{name}": ("F64", parameter.detach().numpy())
               for name, parameter in module.state_dict().items()}
    write_safetensors(tmp_path / "model.safetensors", weights)
    return module


def _transformers_output(module, X: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return module(torch.from_numpy(X)).numpy()


@pytest.mark.parametrize("hidden_act,hidden_activation", list(itertools.product(NAMES, NAMES)))
def test_gemma2_reads_the_key_its_mlp_module_reads(tmp_path, hidden_act, hidden_activation) -> None:
    module = _directory(tmp_path, "gemma2", hidden_act, hidden_activation)
    X = np.random.default_rng(1).standard_normal((7, 8)) * 3
    expected = _transformers_output(module, X)
    got = layer_output(open_model(tmp_path).layers[0], X)
    assert np.linalg.norm(got - expected) <= TOLERANCE * np.linalg.norm(expected)


def test_gemma2_gelu_is_exact_gelu_even_where_gemma_would_read_the_tanh_form(tmp_path) -> None:
    """The issue's case: hidden_activation "gelu" was read as the Gemma-v1 alias."""
    _directory(tmp_path, "gemma2", "gelu_pytorch_tanh", "gelu")
    layer = open_model(tmp_path).layers[0]
    assert (layer.hf_activation, layer.activation) == ("gelu", "gelu")


@pytest.mark.parametrize("hidden_act,hidden_activation", list(itertools.product(NAMES, NAMES)))
def test_gemma_reads_its_module_or_refuses_an_ambiguous_config(tmp_path, hidden_act, hidden_activation) -> None:
    module = _directory(tmp_path, "gemma", hidden_act, hidden_activation)
    # transformers 4's reading: hidden_activation as ACT2FN names it, None the tanh form
    older = hidden_activation or "gelu_pytorch_tanh"
    newer = {"gelu": "gelu_pytorch_tanh"}.get(hidden_act or "gelu_pytorch_tanh", hidden_act or "gelu_pytorch_tanh")
    if older != newer:
        with pytest.raises(WeightsError, match=r"the activation is ambiguous \(.*\): transformers reads "
                                               r"hidden_act .* and hidden_activation"):
            open_model(tmp_path)
        return
    X = np.random.default_rng(2).standard_normal((7, 8)) * 3
    expected = _transformers_output(module, X)
    got = layer_output(open_model(tmp_path).layers[0], X)
    assert np.linalg.norm(got - expected) <= TOLERANCE * np.linalg.norm(expected)
