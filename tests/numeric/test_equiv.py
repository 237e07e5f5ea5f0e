"""`symcheck equiv`: g found (permutation exact, scales to rounding) between a transformers model
and its `transform`; an illegal change by hand is `not equivalent` with a witness beyond the bound."""
from __future__ import annotations

import json
import zlib

import numpy as np
import pytest

from support import invoke_cli as invoke

torch = pytest.importorskip("torch", reason="needs torch (the torch extra)")
transformers = pytest.importorskip("transformers", reason="needs transformers (the test extra)")

from symcheck.numeric.checkpoint_writer import UNIT_ROUNDOFF
from symcheck.numeric.equiv import ROUNDINGS, SLOPES, equiv
from symcheck.numeric.mlp_reference import ACTIVATIONS
from symcheck.numeric.transform import transform

from support import hf_models as hf

DTYPES = {"float32": "F32", "bfloat16": "BF16"}


def _legal(tmp_path, arch: str, seed: int) -> tuple[dict[str, str], dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    arrays = {"permute": rng.permutation(hf.M)}
    if arch in hf.GATED:
        arrays["scale_value"] = rng.uniform(0.3, 3, hf.M) * rng.choice([-1.0, 1.0], hf.M)
    if arch in hf.POSITIVE_GATES:
        arrays["scale_gate"] = rng.uniform(0.3, 3, hf.M)
    for name, array in arrays.items():
        np.save(tmp_path / f"{name}.npy", array)
    return {name: str(tmp_path / f"{name}.npy") for name in arrays}, arrays


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("arch", hf.ARCHITECTURES)
def test_equiv_finds_the_element_transform_applied(tmp_path, arch, dtype) -> None:
    hf.build(tmp_path / "a", arch, dtype)
    files, arrays = _legal(tmp_path, arch, zlib.crc32(f"{arch}{dtype}".encode()))
    transform(tmp_path / "a", tmp_path / "b", **files)
    report = equiv(tmp_path / "a", tmp_path / "b")
    assert report.verdict == "equivalent", report
    u = UNIT_ROUNDOFF[DTYPES[dtype]]
    for layer in report.layers:
        assert layer.permutation == tuple(arrays["permute"])  # exact
        assert layer.residual <= ROUNDINGS
        if "scale_value" in arrays:
            assert np.allclose(layer.value_scale, arrays["scale_value"], rtol=4 * u, atol=0)
        if "scale_gate" in arrays:
            assert np.allclose(layer.gate_scale, arrays["scale_gate"], rtol=4 * u, atol=0)
        else:
            assert set(layer.gate_scale) == {1.0}  # SiLU and GELU: a = 1 only


@pytest.mark.parametrize("arch, change", [("llama", "gate×2"), ("opt", "gate×-1"), ("gpt2", "value×1.01")])
def test_an_illegal_change_by_hand_is_not_equivalent_with_a_witness(tmp_path, arch, change) -> None:
    model = hf.build(tmp_path / "a", arch, "float32")
    with torch.no_grad():
        if arch == "llama":
            model.model.layers[1].mlp.gate_proj.weight[3].mul_(2.0)
        elif arch == "opt":
            model.model.decoder.layers[1].fc1.weight[3].mul_(-1.0)
            model.model.decoder.layers[1].fc1.bias[3].mul_(-1.0)
        else:  # one output row of c_proj scaled: no compensation in the gate
            model.transformer.h[1].mlp.c_proj.weight[3].mul_(1.01)
    model.to(torch.float32).save_pretrained(tmp_path / "b", safe_serialization=True, max_shard_size="8KB")
    report = equiv(tmp_path / "a", tmp_path / "b")
    assert report.verdict == "not equivalent"
    assert report.layers[0].verdict == "equivalent" and report.layers[0].permutation == tuple(range(hf.M))
    second = report.layers[1]
    assert second.verdict == "not equivalent"
    assert second.witness["difference"] > second.witness["bound"] > 0


def test_the_slope_bounds_hold(tmp_path) -> None:
    z = np.linspace(-30, 30, 600001)
    for name, slope in SLOPES.items():
        values = ACTIVATIONS[name](z)
        assert np.max(np.abs(np.diff(values) / np.diff(z))) <= slope, name


def test_cli_json_layers_and_expect(tmp_path) -> None:
    hf.build(tmp_path / "a", "opt", "bfloat16")
    files, _ = _legal(tmp_path, "opt", 5)
    transform(tmp_path / "a", tmp_path / "b", **files)
    code, out, err = invoke("equiv", str(tmp_path / "a"), str(tmp_path / "b"), "--json", "--expect", "equivalent")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "equivalent"
    assert set(data["layers"][0]) >= {"index", "verdict", "permutation", "value_scale", "gate_scale", "residual"}
    code, _, err = invoke("equiv", str(tmp_path / "a"), str(tmp_path / "b"), "--expect", "not-equivalent")
    assert code == 1 and "expected not equivalent, got equivalent" in err
