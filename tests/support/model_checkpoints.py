"""Hugging Face-style model directories the model tests write themselves.

``write_model`` lays out config.json and safetensors weights the way each architecture's
``save_pretrained`` names them, in F64, F32, F16 or BF16, in one file or in shards with an
index; ``forward`` is an independent float64 forward of one layer's MLP (einsum on the
tensors as stored), the reference for the report's own evaluation.
"""
from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np

#: the stored bits' NumPy dtype per safetensors dtype (BF16 is written from float32's top half)
_STORED = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2"}

#: architecture -> (config, layer prefix, {tensor suffix: (rows, cols) in terms of d and m}, activation)
LAYOUTS = {
    "llama": ({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_act": "silu"},
              "model.layers.{i}.mlp.", {"gate_proj.weight": ("m", "d"), "up_proj.weight": ("m", "d"),
                                        "down_proj.weight": ("d", "m")}),
    "mistral": ({"model_type": "mistral", "architectures": ["MistralForCausalLM"], "hidden_act": "silu"},
                "model.layers.{i}.mlp.", {"gate_proj.weight": ("m", "d"), "up_proj.weight": ("m", "d"),
                                          "down_proj.weight": ("d", "m")}),
    "qwen2": ({"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu"},
              "model.layers.{i}.mlp.", {"gate_proj.weight": ("m", "d"), "up_proj.weight": ("m", "d"),
                                        "down_proj.weight": ("d", "m")}),
    "gemma": ({"model_type": "gemma", "architectures": ["GemmaForCausalLM"],
               "hidden_act": "gelu", "hidden_activation": "gelu_pytorch_tanh"},
              "model.layers.{i}.mlp.", {"gate_proj.weight": ("m", "d"), "up_proj.weight": ("m", "d"),
                                        "down_proj.weight": ("d", "m")}),
    "phi3": ({"model_type": "phi3", "architectures": ["Phi3ForCausalLM"], "hidden_act": "silu"},
             "model.layers.{i}.mlp.", {"gate_up_proj.weight": ("2m", "d"), "down_proj.weight": ("d", "m")}),
    "gpt2": ({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "activation_function": "gelu_new"},
             "transformer.h.{i}.mlp.", {"c_fc.weight": ("d", "m"), "c_fc.bias": ("m",),
                                        "c_proj.weight": ("m", "d"), "c_proj.bias": ("d",)}),
    "gpt2-original": ({"model_type": "gpt2", "activation_function": "gelu_new"},
                      "h.{i}.mlp.", {"c_fc.weight": ("d", "m"), "c_fc.bias": ("m",),
                                     "c_proj.weight": ("m", "d"), "c_proj.bias": ("d",)}),
    "opt": ({"model_type": "opt", "architectures": ["OPTForCausalLM"], "activation_function": "relu",
             "enable_bias": True},
            "model.decoder.layers.{i}.", {"fc1.weight": ("m", "d"), "fc1.bias": ("m",),
                                          "fc2.weight": ("d", "m"), "fc2.bias": ("d",)}),
}
#: the activation each layout's forward uses (the framework's definition)
ACTIVATION = {"llama": "silu", "mistral": "silu", "qwen2": "silu", "gemma": "gelu_tanh", "phi3": "silu",
              "gpt2": "gelu_tanh", "gpt2-original": "gelu_tanh", "opt": "relu"}


def bfloat16_bits(values: np.ndarray) -> np.ndarray:
    """float64 → the nearest bfloat16's bit patterns (round half to even), as uint16."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def stored(values: np.ndarray, dtype: str) -> np.ndarray:
    """What a tensor holds once written in ``dtype``, as float64 (the exact values read back)."""
    if dtype == "BF16":
        return (bfloat16_bits(values).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return np.asarray(values).astype(_STORED[dtype]).astype(np.float64)


def write_safetensors(path: Path, tensors: dict[str, tuple[str, np.ndarray]]) -> None:
    """A .safetensors file: the u64 header length, the JSON header, then each tensor's bytes."""
    header, chunks, offset = {}, [], 0
    for name, (dtype, values) in tensors.items():
        data = (bfloat16_bits(values) if dtype == "BF16" else np.asarray(values, dtype=_STORED[dtype]))
        raw = np.ascontiguousarray(data).tobytes()
        header[name] = {"dtype": dtype, "shape": list(np.shape(values)), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in chunks:
            f.write(raw)


def _shape(spec: tuple[str, ...], d: int, m: int) -> tuple[int, ...]:
    sizes = {"d": d, "m": m, "2m": 2 * m}
    return tuple(sizes[s] for s in spec)


def write_model(directory: Path, arch: str = "llama", *, layers: int = 2, d: int = 6, m: int = 10,
                dtype: str = "F32", shards: int = 1, seed: int = 0, extra: dict | None = None,
                drop: tuple[str, ...] = (), scale: float = 0.5) -> dict[str, np.ndarray]:
    """Write a model directory; returns every tensor as float64, exactly as stored."""
    config, prefix, layout = LAYOUTS[arch]
    config = dict(config)
    if arch.startswith("gpt2"):
        config.update(n_layer=layers, n_embd=d, n_inner=m)
    elif arch == "opt":
        config.update(num_hidden_layers=layers, hidden_size=d, ffn_dim=m)
    else:
        config.update(num_hidden_layers=layers, hidden_size=d, intermediate_size=m)
    config.update(extra or {})
    rng = np.random.default_rng(seed)
    tensors: dict[str, np.ndarray] = {}
    for i in range(layers):
        # attention and norm tensors the report must skip
        tensors[prefix.format(i=i).replace("mlp.", "") + "self_attn.q_proj.weight"] = rng.standard_normal((d, d))
        for suffix, spec in layout.items():
            tensors[prefix.format(i=i) + suffix] = scale * rng.standard_normal(_shape(spec, d, m))
    tensors["embed_tokens.weight"] = rng.standard_normal((7, d))
    exact = {name: stored(values, dtype) for name, values in tensors.items()}
    for name in drop:
        exact.pop(name)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.json").write_text(json.dumps(config))
    names = list(exact)
    if shards == 1:
        write_safetensors(directory / "model.safetensors", {n: (dtype, exact[n]) for n in names})
    else:
        per = math.ceil(len(names) / shards)
        weight_map = {}
        for s in range(shards):
            file = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
            part = names[s * per:(s + 1) * per]
            write_safetensors(directory / file, {n: (dtype, exact[n]) for n in part})
            weight_map.update({n: file for n in part})
        (directory / "model.safetensors.index.json").write_text(
            json.dumps({"metadata": {"total_size": 0}, "weight_map": weight_map}))
    return exact


def _sigma(name: str, x: np.ndarray) -> np.ndarray:
    if name == "silu":
        return x / (1.0 + np.exp(-x))
    if name == "gelu_tanh":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    return np.maximum(x, 0.0)


def forward(tensors: dict[str, np.ndarray], arch: str, i: int, X: np.ndarray, m: int) -> np.ndarray:
    """The layer's MLP output on X as the module computes it, from the stored tensors."""
    _, prefix, _ = LAYOUTS[arch]
    p = prefix.format(i=i)
    act = ACTIVATION[arch]
    t = {k[len(p):]: v for k, v in tensors.items() if k.startswith(p)}
    if arch == "phi3":
        both = X @ t["gate_up_proj.weight"].T
        gate, up = both[:, :m], both[:, m:]
        return (_sigma(act, gate) * up) @ t["down_proj.weight"].T
    if arch.startswith("gpt2"):
        return _sigma(act, X @ t["c_fc.weight"] + t["c_fc.bias"]) @ t["c_proj.weight"] + t["c_proj.bias"]
    if arch == "opt":
        return _sigma(act, X @ t["fc1.weight"].T + t["fc1.bias"]) @ t["fc2.weight"].T + t["fc2.bias"]
    return (_sigma(act, X @ t["gate_proj.weight"].T) * (X @ t["up_proj.weight"].T)) @ t["down_proj.weight"].T
