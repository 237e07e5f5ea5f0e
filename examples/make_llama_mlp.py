"""Write examples/llama-mlp.safetensors: one LLaMA-style MLP layer (d = 16, m = 48, float32).

The tensors are named as a Hugging Face checkpoint names them,
``model.layers.0.mlp.{gate,up,down}_proj.weight`` (torch ``Linear`` weights, out × in), so
``symcheck numeric exchange --weights examples/llama-mlp.safetensors --layer model.layers.0.``
reads it as the gated layer with Q = gate, K = up, V = downᵀ. The file is written in the
safetensors layout by hand (an 8-byte header length, a JSON header, the raw little-endian
data), so making it needs NumPy only; reading it needs ``pip install 'symcheck[weights]'``.

    python examples/make_llama_mlp.py [OUT]
"""
from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import numpy as np

D, M, SEED = 16, 48, 0


def tensors() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(SEED)
    prefix = "model.layers.0.mlp."
    return {prefix + "gate_proj.weight": rng.standard_normal((M, D)) / np.sqrt(D),
            prefix + "up_proj.weight": rng.standard_normal((M, D)) / np.sqrt(D),
            prefix + "down_proj.weight": rng.standard_normal((D, M)) / np.sqrt(M)}


def write(path: Path, arrays: dict[str, np.ndarray]) -> None:
    header: dict[str, object] = {}
    blobs, offset = [], 0
    for name, array in arrays.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)                 # the data starts 8-byte aligned
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("llama-mlp.safetensors")
    write(out, tensors())
    print(f"wrote {out}")
