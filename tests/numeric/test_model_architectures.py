"""symcheck model on every architecture of the table, sharded and not, in every dtype: the
per-layer output, the defects and the verdicts against an independent forward pass."""
from __future__ import annotations

import math

import numpy as np
import pytest

from symcheck.numeric.architectures import open_model
from symcheck.numeric.model_report import inputs_for, layer_output, model_report

from support.model_checkpoints import LAYOUTS, forward, write_model

D, M = 6, 10
ARCHS = tuple(LAYOUTS)
STORAGE = [("F32", 1), ("BF16", 3), ("F16", 2), ("F64", 1)]

#: architecture -> (form, catalogue σ, exchange, α > 0, α = −1, key-value) as the report must say
TRUTH = {
    "llama": ("gated", "silu", "broken", "broken", "broken", "holds"),
    "mistral": ("gated", "silu", "broken", "broken", "broken", "holds"),
    "qwen2": ("gated", "silu", "broken", "broken", "broken", "holds"),
    "phi3": ("gated", "silu", "broken", "broken", "broken", "holds"),
    "gemma": ("gated", "gelu_tanh", "broken", "broken", "broken", "holds"),
    "gpt2": ("mlp", "gelu_tanh", None, None, None, "broken"),
    "gpt2-original": ("mlp", "gelu_tanh", None, None, None, "broken"),
    "opt": ("mlp", "relu", None, None, None, "holds"),
}


def _swapped(tensors: dict[str, np.ndarray], arch: str) -> dict[str, np.ndarray] | None:
    """The tensors with gate and up exchanged in every unit (None: not a gated block)."""
    out = dict(tensors)
    for name, value in tensors.items():
        if name.endswith("gate_proj.weight"):
            out[name], out[name.replace("gate_proj", "up_proj")] = tensors[name.replace("gate_proj", "up_proj")], value
        elif name.endswith("gate_up_proj.weight"):
            out[name] = np.concatenate([value[M:], value[:M]])
    return out if LAYOUTS[arch][2].get("down_proj.weight") else None


def _rescaled(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every unit's key times 2 (its bias entry too), its value divided by 2."""
    out = dict(tensors)
    for name, value in tensors.items():
        if name.endswith(("up_proj.weight", "c_fc.weight", "c_fc.bias", "fc1.weight", "fc1.bias")):
            if name.endswith("gate_up_proj.weight"):
                out[name] = np.concatenate([value[:M], 2 * value[M:]])
            else:
                out[name] = 2 * value
        elif name.endswith(("down_proj.weight", "c_proj.weight", "fc2.weight")):
            out[name] = value / 2
    return out


def _relative(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


@pytest.mark.parametrize("dtype,shards", STORAGE)
@pytest.mark.parametrize("arch", ARCHS)
def test_each_layer_matches_an_independent_forward(tmp_path, arch, dtype, shards) -> None:
    tensors = write_model(tmp_path / "model", arch, layers=2, d=D, m=M, dtype=dtype, shards=shards)
    model = open_model(tmp_path / "model")
    X, _ = inputs_for(D, None, 12, 3)
    report = model_report(model, inputs=X, memory="2MiB")
    assert [r.index for r in report.layers] == [0, 1]
    for layer, record in zip(model.layers, report.layers, strict=True):
        reference = forward(tensors, arch, layer.index, X, M)
        assert _relative(layer_output(layer, X), reference) <= 1e-12
        swapped = _swapped(tensors, arch)
        if swapped is None:
            assert record.exchange_defect is None
        else:
            expected = _relative(forward(swapped, arch, layer.index, X, M), reference)
            assert math.isclose(record.exchange_defect, expected, rel_tol=1e-9)
        expected = _relative(forward(_rescaled(tensors), arch, layer.index, X, M), reference)
        assert abs(record.rescaling_residual - expected) <= 1e-12 * max(1.0, expected)
        assert record.relative_error <= 1e-13


@pytest.mark.parametrize("arch", ARCHS)
def test_form_activation_and_verdicts_come_from_the_table(tmp_path, arch) -> None:
    write_model(tmp_path / "model", arch, layers=1, d=D, m=M)
    record = model_report(tmp_path / "model", tokens=8).layers[0]
    form, sigma, *verdicts = TRUTH[arch]
    assert (record.form.name, record.activation.name) == (form, sigma)
    assert [None if r is None else r.verdict.value for r in record.verdicts.values()] == verdicts
    assert (record.sizes.d, record.sizes.m, record.sizes.e) == (D, M, D)


@pytest.mark.parametrize("arch,broken", [("llama", False), ("opt", False), ("gpt2", True)])
def test_the_rescaling_residual_is_rounding_exactly_where_the_symmetry_holds(tmp_path, arch, broken) -> None:
    write_model(tmp_path / "model", arch, layers=1, d=D, m=M)
    residual = model_report(tmp_path / "model", tokens=32).layers[0].rescaling_residual
    assert (residual > 1e-3) if broken else (residual <= 1e-15)


def test_the_activation_name_is_mapped_not_guessed(tmp_path) -> None:
    # Gemma's legacy "gelu" is the tanh approximation; elsewhere "gelu" is the exact (erf) GELU
    write_model(tmp_path / "gemma", "gemma", layers=1, extra={"hidden_activation": None, "hidden_act": "gelu"})
    write_model(tmp_path / "llama", "llama", layers=1, extra={"hidden_act": "gelu"})
    assert model_report(tmp_path / "gemma", tokens=4).layers[0].activation.name == "gelu_tanh"
    assert model_report(tmp_path / "llama", tokens=4).layers[0].activation.name == "gelu"


def test_an_exact_gelu_layer_agrees_with_its_reference(tmp_path) -> None:
    write_model(tmp_path / "model", "llama", layers=1, d=D, m=M, extra={"hidden_act": "gelu"})
    assert model_report(tmp_path / "model", tokens=16).layers[0].relative_error <= 1e-13


def test_llama_with_mlp_bias_reads_the_biases(tmp_path) -> None:
    tensors = write_model(tmp_path / "model", "llama", layers=1, d=D, m=M, extra={"mlp_bias": True})
    # add the three biases as save_pretrained would write them for mlp_bias = true
    from support.model_checkpoints import write_safetensors
    rng = np.random.default_rng(9)
    p = "model.layers.0.mlp."
    biases = {p + "gate_proj.bias": rng.standard_normal(M), p + "up_proj.bias": rng.standard_normal(M),
              p + "down_proj.bias": rng.standard_normal(D)}
    write_safetensors(tmp_path / "model" / "model.safetensors",
                      {n: ("F64", v) for n, v in {**tensors, **biases}.items()})
    X, _ = inputs_for(D, None, 9, 1)
    t = {**tensors, **biases}
    hidden = X @ t[p + "gate_proj.weight"].T + t[p + "gate_proj.bias"]
    expected = ((hidden / (1 + np.exp(-hidden))) * (X @ t[p + "up_proj.weight"].T + t[p + "up_proj.bias"])
                @ t[p + "down_proj.weight"].T + t[p + "down_proj.bias"])
    layer = open_model(tmp_path / "model").layers[0]
    assert layer.biased
    assert _relative(layer_output(layer, X), expected) <= 1e-12


def test_a_small_budget_cuts_the_layer_but_not_the_figures(tmp_path) -> None:
    write_model(tmp_path / "model", "gpt2", layers=1, d=16, m=64, dtype="BF16")
    roomy = model_report(tmp_path / "model", tokens=40, memory="64MiB").layers[0]
    tight = model_report(tmp_path / "model", tokens=40, memory="40KiB").layers[0]
    assert math.isclose(roomy.rescaling_residual, tight.rescaling_residual, rel_tol=1e-12)
    assert tight.relative_error <= 1e-13


def _with_mlp_bias(directory) -> None:
    """A one-layer LLaMA with mlp_bias: the three biases added to its file."""
    tensors = write_model(directory, "llama", layers=1, d=D, m=M, extra={"mlp_bias": True})
    from support.model_checkpoints import write_safetensors
    rng = np.random.default_rng(5)
    p = "model.layers.0.mlp."
    biases = {p + "gate_proj.bias": rng.standard_normal(M), p + "up_proj.bias": rng.standard_normal(M),
              p + "down_proj.bias": rng.standard_normal(D)}
    write_safetensors(directory / "model.safetensors", {n: ("F64", v) for n, v in {**tensors, **biases}.items()})


@pytest.mark.parametrize("arch", ["llama", "llama-bias", "gpt2", "opt"])
@pytest.mark.parametrize("wrong", ["catalogue", "framework"])
def test_the_reference_forward_catches_a_sigma_that_is_not_the_frameworks(tmp_path, arch, wrong) -> None:
    """The reference is an independent route for σ and the way it is applied: the evaluator
    with the catalogue's σ against the framework's formula. Where they differ — the layer read
    with another σ on either side — the relative error shows it; on the layer as read it is
    rounding. (A reference that reused the evaluator's hidden values, or its σ, would give 0.)"""
    from dataclasses import replace

    from symcheck.numeric.model_report import measure_layer
    if arch == "llama-bias":
        _with_mlp_bias(tmp_path / "model")
    else:
        write_model(tmp_path / "model", arch, layers=1, d=D, m=M)
    layer = open_model(tmp_path / "model").layers[0]
    X, _ = inputs_for(D, None, 24, 2)
    assert measure_layer(layer, X, "2MiB").relative_error <= 1e-13
    other = "relu" if layer.activation != "relu" else "silu"
    misread = (replace(layer, activation=other) if wrong == "catalogue"
               else replace(layer, hf_activation=other))
    assert measure_layer(misread, X, "2MiB").relative_error > 1e-2


@pytest.mark.parametrize("arch", ["llama", "phi3"])
@pytest.mark.parametrize("dtype", ["BF16", "F32"])
@pytest.mark.parametrize("tokens", [1, 2, 3, 5, 16])
def test_a_gated_layers_rescaled_output_is_its_output_to_the_bit(tmp_path, arch, dtype, tokens) -> None:
    """(σ(a)·2b)(V/2) has the products of σ(a)·b·V exactly (both scalings are powers of two), so
    where f and the rescaled f go through products of the same shape the residual is exactly 0.
    Products of other shapes (f stacked with the exchanged f and the reference into one product
    of 3N rows, which was faster) change f in its last bits at a few rows: 1e-16, not 0."""
    write_model(tmp_path / "model", arch, layers=1, d=D, m=M, dtype=dtype)
    for memory in ("20KiB", "64MiB"):
        assert model_report(tmp_path / "model", tokens=tokens, memory=memory).layers[0].rescaling_residual == 0.0
