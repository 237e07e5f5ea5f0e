"""Write examples/tiny-llama/: a Hugging Face-style LLaMA model directory small enough to ship.

``config.json`` as ``LlamaConfig.save_pretrained`` writes it (the keys ``symcheck model`` and
transformers read), and ``model.safetensors`` with the MLP of each of 4 layers (d = 64,
m = 172, BF16, the tensors named as a checkpoint names them:
``model.layers.{i}.mlp.{gate,up,down}_proj.weight``), random normal weights scaled as a
trained model's are, about 260 kB. Attention, embeddings and norms are left out: ``symcheck
model`` reads only the MLPs. Made with NumPy alone (bfloat16 rounded to nearest even by hand):

    python examples/make_tiny_llama.py [OUT_DIR]
    symcheck model examples/tiny-llama
"""
from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import numpy as np

LAYERS, D, M, SEED = 4, 64, 172, 0

CONFIG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_act": "silu",
          "hidden_size": D, "intermediate_size": M, "num_hidden_layers": LAYERS, "num_attention_heads": 4,
          "num_key_value_heads": 4, "max_position_embeddings": 128, "rms_norm_eps": 1e-06,
          "vocab_size": 32, "mlp_bias": False, "torch_dtype": "bfloat16", "_name_or_path": "tiny-llama"}


def bfloat16_bits(values: np.ndarray) -> np.ndarray:
    """The nearest bfloat16 (ties to even) of each value, as its 16-bit pattern."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")


def tensors() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(SEED)
    out = {}
    for i in range(LAYERS):
        prefix = f"model.layers.{i}.mlp."
        out[prefix + "gate_proj.weight"] = rng.standard_normal((M, D)) / np.sqrt(D)
        out[prefix + "up_proj.weight"] = rng.standard_normal((M, D)) / np.sqrt(D)
        out[prefix + "down_proj.weight"] = rng.standard_normal((D, M)) / np.sqrt(M)
    return out


def write(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, array in tensors().items():
        data = bfloat16_bits(array).tobytes()
        header[name] = {"dtype": "BF16", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)                 # the data starts 8-byte aligned
    (directory / "model.safetensors").write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))
    (directory / "config.json").write_text(json.dumps(CONFIG, indent=2) + "\n")


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("tiny-llama")
    write(out)
    print(f"wrote {out}")
