"""A real client as the reference: small random LLaMA and GPT-2 models saved by transformers'
own save_pretrained (safetensors, BF16 and F32, sharded), and symcheck's per-layer f against
the model's own MLP module run in float64."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="needs torch (the torch extra)")
transformers = pytest.importorskip("transformers", reason="needs transformers (the test extra)")

from symcheck.numeric.architectures import open_model  # noqa: E402
from symcheck.numeric.model_report import layer_output, model_report  # noqa: E402

TOLERANCE = 1e-12


def _llama():
    config = transformers.LlamaConfig(vocab_size=32, hidden_size=16, intermediate_size=40, num_hidden_layers=3,
                                      num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=16)
    return transformers.LlamaForCausalLM(config), lambda model, i: model.model.layers[i].mlp


def _gpt2():
    config = transformers.GPT2Config(vocab_size=32, n_embd=16, n_layer=3, n_head=2, n_positions=16,
                                     bos_token_id=0, eos_token_id=0)
    return transformers.GPT2LMHeadModel(config), lambda model, i: model.transformer.h[i].mlp


@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
@pytest.mark.parametrize("build", [_llama, _gpt2], ids=["llama", "gpt2"])
def test_each_layer_equals_the_models_own_mlp(tmp_path, build, dtype) -> None:
    torch.manual_seed(0)
    model, mlp_of = build()
    with torch.no_grad():  # GPT-2 starts its biases at 0: give them values, so they are checked too
        for name, parameter in model.named_parameters():
            if name.endswith("bias"):
                parameter.normal_(0.0, 0.5)
    model = model.to(getattr(torch, dtype)).eval()
    model.save_pretrained(tmp_path, safe_serialization=True, max_shard_size="4KB")
    assert (tmp_path / "model.safetensors.index.json").is_file()  # sharded
    reference = model.to(torch.float64)  # the saved values, exactly (BF16 and F32 widen exactly)

    loaded = open_model(tmp_path)
    assert len(loaded.layers) == 3
    X = np.random.default_rng(1).standard_normal((9, 16))
    for layer in loaded.layers:
        with torch.no_grad():
            expected = mlp_of(reference, layer.index)(torch.from_numpy(X)).numpy()
        got = layer_output(layer, X)
        assert np.linalg.norm(got - expected) <= TOLERANCE * np.linalg.norm(expected)

    report = model_report(tmp_path, inputs=X)
    assert all(r.relative_error <= TOLERANCE for r in report.layers)
