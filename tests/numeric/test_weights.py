"""Real weights: .npy, .npz and .safetensors files, LLaMA names, and one-line errors naming file and tensor."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from symcheck.numeric.kernels import gated
from symcheck.numeric.weights import WeightsError, load, load_inputs, load_layer

RNG = np.random.default_rng(3)
D, M, E = 6, 10, 6


def _llama(prefix: str = "model.layers.0.mlp.") -> dict[str, np.ndarray]:
    return {f"{prefix}gate_proj.weight": RNG.standard_normal((M, D)).astype(np.float32),
            f"{prefix}up_proj.weight": RNG.standard_normal((M, D)).astype(np.float32),
            f"{prefix}down_proj.weight": RNG.standard_normal((E, M)).astype(np.float32)}


def _bf16_file(path: Path, name: str, array: np.ndarray) -> None:
    """A safetensors file with one BF16 tensor, written by hand (NumPy has no bfloat16)."""
    raw = (np.ascontiguousarray(array, np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
    header = json.dumps({name: {"dtype": "BF16", "shape": list(array.shape),
                                "data_offsets": [0, len(raw)]}}).encode()
    path.write_bytes(struct.pack("<Q", len(header)) + header + raw)


def test_llama_checkpoint_maps_onto_gated(tmp_path: Path) -> None:
    tensors = _llama()
    save_file(tensors, tmp_path / "mlp.safetensors")
    w = load_layer(tmp_path / "mlp.safetensors")
    assert (w.form, w.llama, w.d, w.m, w.e) == ("gated", True, D, M, E)
    np.testing.assert_array_equal(w.Q, tensors["model.layers.0.mlp.gate_proj.weight"])
    np.testing.assert_array_equal(w.K, tensors["model.layers.0.mlp.up_proj.weight"])
    np.testing.assert_array_equal(w.V, tensors["model.layers.0.mlp.down_proj.weight"].T)
    # down(silu(gate(x)) * up(x)) in PyTorch terms equals the gated layer with σ = silu
    x = RNG.standard_normal((4, D))
    gate, up, down = (tensors[f"model.layers.0.mlp.{n}_proj.weight"].astype(float) for n in ("gate", "up", "down"))
    torch_style = ((x @ gate.T) / (1 + np.exp(-(x @ gate.T))) * (x @ up.T)) @ down.T
    np.testing.assert_allclose(gated(x, w.Q, w.K, w.V, "silu"), torch_style, rtol=1e-12)


def test_several_layers_need_a_prefix(tmp_path: Path) -> None:
    save_file({**_llama("model.layers.0.mlp."), **_llama("model.layers.1.mlp.")}, tmp_path / "two.safetensors")
    with pytest.raises(WeightsError, match=r"2 MLP layers found .*choose one with --layer"):
        load_layer(tmp_path / "two.safetensors")
    assert load_layer(tmp_path / "two.safetensors", layer="model.layers.1.").m == M


def test_plain_names_from_npz_and_separate_npy_files(tmp_path: Path) -> None:
    Q, K, V = RNG.standard_normal((M, D)), RNG.standard_normal((M, D)), RNG.standard_normal((M, E))
    np.savez(tmp_path / "layer.npz", Q=Q, K=K, V=V)
    assert load_layer(tmp_path / "layer.npz", form="rank1").form == "rank1"
    for name, array in (("Q", Q), ("K", K), ("V", V)):
        np.save(tmp_path / f"{name}.npy", array)
    w = load_layer([tmp_path / "Q.npy", tmp_path / "K.npy", tmp_path / "V.npy"])
    assert w.form == "gated" and "Q.npy: tensor 'Q'" in w.sources["Q"]


def test_three_dimensional_factors_are_bilinear(tmp_path: Path) -> None:
    np.savez(tmp_path / "b.npz", Q=RNG.standard_normal((M, D, 2)), K=RNG.standard_normal((M, D, 2)),
             V=RNG.standard_normal((M, E)))
    w = load_layer(tmp_path / "b.npz")
    assert (w.form, w.r) == ("bilinear", 2)


def test_bfloat16_is_widened_exactly(tmp_path: Path) -> None:
    values = np.array([[1.0, -2.5], [0.15625, 3.0]], np.float32)   # exact in bfloat16
    _bf16_file(tmp_path / "w.safetensors", "x", values)
    got = load(tmp_path / "w.safetensors")["x"].array
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, values)


def test_inputs_from_a_file(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", RNG.standard_normal((3, 4, D)))
    X, where = load_inputs(tmp_path / "x.npy", D)
    assert X.shape == (12, D) and "x.npy" in where
    with pytest.raises(WeightsError, match=r"x.npy: tensor 'x' has shape \(3, 4, 6\); expected \(tokens, 7\)"):
        load_inputs(tmp_path / "x.npy", 7)


@pytest.mark.parametrize("tensors, message", [
    ({"Q": np.ones((M, D)), "K": np.ones((M, D))}, r"layer.npz: missing tensor 'V'"),
    ({"Q": np.ones((M, D)), "K": np.ones((M, D + 1)), "V": np.ones((M, E))},
     r"layer.npz: tensor 'K' has shape \(10, 7\); expected \(10, 6\) like 'Q'"),
    ({"Q": np.ones((M, D)), "K": np.ones((M, D)), "V": np.ones((M + 1, E))},
     r"layer.npz: tensor 'V' has shape \(11, 6\); expected \(10, e\)"),
    ({"Q": np.ones((M, D), dtype=np.int64), "K": np.ones((M, D)), "V": np.ones((M, E))},
     r"layer.npz: tensor 'Q' has dtype int64; expected a floating-point tensor"),
    ({"weight": np.ones((M, D))}, r"layer.npz: no tensors named Q, K, V .* found weight"),
])
def test_bad_npz_files_are_one_line_errors_naming_file_and_tensor(tmp_path: Path, tensors, message) -> None:
    np.savez(tmp_path / "layer.npz", **tensors)
    with pytest.raises(WeightsError, match=message) as caught:
        load_layer(tmp_path / "layer.npz")
    assert "\n" not in str(caught.value)


def test_bad_llama_shapes_and_missing_projections(tmp_path: Path) -> None:
    tensors = _llama()
    tensors["model.layers.0.mlp.down_proj.weight"] = np.ones((E, M + 2), np.float32)
    save_file(tensors, tmp_path / "m.safetensors")
    with pytest.raises(WeightsError, match=r"m.safetensors: tensor 'model.layers.0.mlp.down_proj.weight' "
                                           r"has shape \(6, 12\); expected \(e, 10\)"):
        load_layer(tmp_path / "m.safetensors")
    del tensors["model.layers.0.mlp.down_proj.weight"]
    save_file(tensors, tmp_path / "m.safetensors")
    with pytest.raises(WeightsError, match=r"missing tensor 'model.layers.0.mlp.down_proj.weight'") as caught:
        load_layer(tmp_path / "m.safetensors")
    assert caught.value.tensor == "model.layers.0.mlp.down_proj.weight"


@pytest.mark.parametrize("name, content, message", [
    ("broken.safetensors", b"garbage", "broken.safetensors: not a readable .safetensors file"),
    ("broken.npy", b"garbage", "broken.npy: not a readable .npy file"),
    ("weights.pt", b"", r"weights.pt: unsupported file type '.pt'"),
])
def test_unreadable_files(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    (tmp_path / name).write_bytes(content)
    with pytest.raises(WeightsError, match=message):
        load(tmp_path / name)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="nowhere.npz: no such file"):
        load(tmp_path / "nowhere.npz")
