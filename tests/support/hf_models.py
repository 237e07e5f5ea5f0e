"""Tiny random models of every architecture symcheck reads, built and saved by transformers itself
(safetensors, sharded), for the weight-symmetry tests: transform, equiv, canonical."""
from __future__ import annotations

from pathlib import Path

import numpy as np

VOCAB, D, M, LAYERS = 48, 16, 24, 2


def _configs(transformers):
    common = {"vocab_size": VOCAB, "hidden_size": D, "intermediate_size": M, "num_hidden_layers": LAYERS,
                  "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": 32}
    return {
        "llama": (transformers.LlamaConfig, transformers.LlamaForCausalLM, common),
        "mistral": (transformers.MistralConfig, transformers.MistralForCausalLM, common),
        "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM, common),
        "gemma": (transformers.GemmaConfig, transformers.GemmaForCausalLM, dict(common, head_dim=8)),
        "phi3": (transformers.Phi3Config, transformers.Phi3ForCausalLM, dict(common, pad_token_id=0)),
        "gpt2": (transformers.GPT2Config, transformers.GPT2LMHeadModel,
                 {"vocab_size": VOCAB, "n_embd": D, "n_inner": M, "n_layer": LAYERS, "n_head": 2, "n_positions": 32,
                      "bos_token_id": 0, "eos_token_id": 0}),
        "opt": (transformers.OPTConfig, transformers.OPTForCausalLM,
                {"vocab_size": VOCAB, "hidden_size": D, "ffn_dim": M, "word_embed_proj_dim": D,
                 "num_hidden_layers": LAYERS, "num_attention_heads": 2, "max_position_embeddings": 32,
                 "pad_token_id": 1}),
    }


ARCHITECTURES = ("llama", "mistral", "qwen2", "gemma", "phi3", "gpt2", "opt")
#: the architectures whose MLP is gated (a value path to scale)
GATED = ("llama", "mistral", "qwen2", "gemma", "phi3")
#: the activation's gate scales: any a > 0 (relu), else a = 1 only (silu, gelu_tanh)
POSITIVE_GATES = ("opt",)


def build(directory: Path, arch: str, dtype: str = "float32", seed: int = 0, shard: str = "8KB", **config):
    """Save a random model (biases given values too) and return it, in float64, as saved;
    ``config``: settings over the defaults (``hidden_act="tanh"``)."""
    import torch
    import transformers
    config_class, model_class, settings = _configs(transformers)[arch]
    torch.manual_seed(seed)
    model = model_class(config_class(**settings, **config))
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if name.endswith("bias"):
                parameter.normal_(0.0, 0.5)
            elif "norm" in name or "ln_" in name or "layer_norm" in name:
                parameter.uniform_(0.5, 1.5)
            else:
                parameter.normal_(0.0, 0.3)
    model = model.to(getattr(torch, dtype)).eval()
    model.save_pretrained(directory, safe_serialization=True, max_shard_size=shard)
    return model.to(torch.float64)


def load(directory: Path):
    """A saved model in float64 (BF16 and F32 widen exactly)."""
    import torch
    import transformers
    model = transformers.AutoModelForCausalLM.from_pretrained(directory, dtype=torch.float64)
    return model.eval()


def logits(model, tokens: np.ndarray) -> np.ndarray:
    import torch
    with torch.no_grad():
        return model(input_ids=torch.from_numpy(tokens)).logits.numpy()


def tokens(seed: int = 0, rows: int = 3, length: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).integers(2, VOCAB, size=(rows, length))


def legal_element(directory: Path, arch: str, rng: np.random.Generator, *, exact: bool = False,
                  gate_signs: bool = False) -> tuple[dict[str, str], dict[str, np.ndarray]]:
    """A random legal g as ``transform``'s options (files written in ``directory``) and its arrays:
    a permutation, value scales of both signs (gated), gate scales where G_σ has more than a = 1
    (ReLU: any a > 0; ``gate_signs``: a = ±1, for an odd σ). ``exact``: powers of two."""
    def scales() -> np.ndarray:
        return 2.0 ** rng.integers(-3, 4, M) if exact else rng.uniform(0.3, 3, M)
    arrays = {"permute": rng.permutation(M)}
    if arch in GATED:
        arrays["scale_value"] = scales() * rng.choice([-1.0, 1.0], M)
    if arch in POSITIVE_GATES:
        arrays["scale_gate"] = scales()
    if gate_signs:
        arrays["scale_gate"] = rng.choice([-1.0, 1.0], M)
    for name, array in arrays.items():
        np.save(directory / f"{name}.npy", array)
    return {name: str(directory / f"{name}.npy") for name in arrays}, arrays
