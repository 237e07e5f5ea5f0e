"""`symcheck transform`: elements proved before anything is written, dtype kept, rounding once,
files copied, memory within the budget (checkpoints written by tests/support/model_checkpoints.py)."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.core.errors import NumericError, WeightsError
from symcheck.numeric.architectures import open_model
from symcheck.numeric.checkpoint_writer import narrow, widen
from symcheck.numeric.layer_elements import IllegalElement
from symcheck.numeric.model_report import layer_output
from symcheck.numeric.safetensors_io import read_header
from symcheck.numeric.transform import transform

from support import invoke_cli as invoke
from support.model_checkpoints import write_model
from support.traced import large_model, traced_peak

M = 10


def _save(path: Path, array) -> str:
    np.save(path, np.asarray(array))
    return str(path)


def _bf16_reference(x: float) -> float:
    """The bfloat16 nearest to x (ties to even), by exact rational arithmetic."""
    if x == 0:
        return x
    exact = Fraction(x)
    exponent = Fraction(abs(x)).numerator.bit_length() - Fraction(abs(x)).denominator.bit_length()
    while Fraction(2) ** exponent > abs(exact):
        exponent -= 1
    while Fraction(2) ** (exponent + 1) <= abs(exact):
        exponent += 1
    ulp = Fraction(2) ** (max(exponent, -126) - 7)
    q, r = divmod(abs(exact), ulp)
    if r * 2 > ulp or (r * 2 == ulp and q % 2 == 1):
        q += 1
    return float(q * ulp) * (1 if x > 0 else -1)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False))
def test_bfloat16_rounding_is_correct_from_float64(x: float) -> None:
    assert widen(narrow(np.array([x]), "BF16"), "BF16")[0] == _bf16_reference(x)


def test_bfloat16_ties_from_float64_are_not_rounded_twice() -> None:
    # 1 + 2^-8 + 2^-30: just above a tie of bfloat16, but float32 would round it onto the tie
    x = 1 + 2.0**-8 + 2.0**-30
    assert widen(narrow(np.array([x]), "BF16"), "BF16")[0] == 1 + 2.0**-7
    with pytest.raises(WeightsError, match="does not fit BF16"):
        narrow(np.array([1e39]), "BF16")


@pytest.fixture
def llama(tmp_path):
    src = tmp_path / "src"
    tensors = write_model(src, "llama", layers=2, d=6, m=M, dtype="BF16", shards=2)
    (src / "tokenizer.json").write_text("{}")
    (src / "pytorch_model.bin").write_bytes(b"old")
    return src, tensors


def test_a_permutation_moves_units_bit_for_bit(llama, tmp_path) -> None:
    src, tensors = llama
    P = np.random.default_rng(3).permutation(M)
    report = transform(src, tmp_path / "out", permute=_save(tmp_path / "P.npy", P))
    out = open_model(tmp_path / "out")
    for layer in out.layers:
        prefix = layer.prefix
        gate = tensors[prefix + "gate_proj.weight"]
        from symcheck.numeric.safetensors_io import read_block
        assert np.array_equal(read_block(layer.query.tensor), gate[P])
        assert np.array_equal(read_block(layer.value.tensor), tensors[prefix + "down_proj.weight"][:, P])
    assert report.rounding < 1e-14  # only float64's summation order
    assert (tmp_path / "out" / "tokenizer.json").is_file() and (tmp_path / "out" / "config.json").is_file()
    assert not (tmp_path / "out" / "pytorch_model.bin").exists() and report.skipped == ("pytorch_model.bin",)


def test_headers_and_index_are_the_sources(llama, tmp_path) -> None:
    src, _ = llama
    lam = np.random.default_rng(4).uniform(0.5, 2, M)
    transform(src, tmp_path / "out", scale_value=_save(tmp_path / "l.npy", lam))
    for shard in open_model(src).checkpoint.files:
        before, after = read_header(shard), read_header(tmp_path / "out" / shard.name)
        assert {k: (v.dtype, v.shape, v.offset) for k, v in before.items()} == \
               {k: (v.dtype, v.shape, v.offset) for k, v in after.items()}
    assert (tmp_path / "out" / "model.safetensors.index.json").read_text() == \
           (src / "model.safetensors.index.json").read_text()


def test_scales_are_rounded_once_to_the_dtype(llama, tmp_path) -> None:
    src, tensors = llama
    rng = np.random.default_rng(5)
    lam = rng.uniform(0.5, 2, M) * rng.choice([-1, 1], M)
    P = rng.permutation(M)
    transform(src, tmp_path / "out", scale_value=_save(tmp_path / "l.npy", lam), permute=_save(tmp_path / "P.npy", P))
    from symcheck.numeric.safetensors_io import read_block
    layer = open_model(tmp_path / "out").layers[1]
    up = tensors[layer.prefix + "up_proj.weight"]
    down = tensors[layer.prefix + "down_proj.weight"]
    # the exact float64 products rounded once (tests' own stored() rounds through float32: twice)
    rounded = np.vectorize(_bf16_reference)
    assert np.array_equal(read_block(layer.key.tensor), rounded((up * lam[:, None])[P]))
    assert np.array_equal(read_block(layer.value.tensor), rounded((down * (1.0 / lam)[None, :])[:, P]))


def test_the_layer_function_is_kept_to_rounding(llama, tmp_path) -> None:
    src, _ = llama
    lam = np.random.default_rng(6).uniform(0.5, 2, M)
    report = transform(src, tmp_path / "out", scale_value=_save(tmp_path / "l.npy", lam))
    X = np.random.default_rng(0).standard_normal((32, 6))
    pairs = zip(open_model(src).layers, open_model(tmp_path / "out").layers, report.layers, strict=True)
    for before, after, change in pairs:
        y0, y1 = layer_output(before, X), layer_output(after, X)
        worst = max(np.linalg.norm(a - b) / np.linalg.norm(a) for a, b in zip(y0, y1, strict=True))
        assert worst == pytest.approx(change.rounding, rel=1e-9)
        assert 0 < worst < 4 * 2.0**-8  # the weights were rounded to BF16 once


@pytest.mark.parametrize("arch, option, values, message", [
    ("llama", "scale_gate", np.full(M, 2.0), "gate scale 2 is not in the layer group of the gated layer with σ = silu"),
    ("opt", "scale_gate", np.full(M, -1.0), "gate scale -1 is not in the layer group of the mlp layer with σ = relu"),
    ("llama", "scale_value", np.where(np.arange(M) == 3, 0.0, 1.0), "layer 0, unit 3: value scale 0"),
])
def test_an_illegal_element_is_refused_before_anything_is_written(tmp_path, arch, option, values, message) -> None:
    src = tmp_path / "src"
    write_model(src, arch, layers=2, d=6, m=M)
    with pytest.raises(IllegalElement, match=message) as refused:
        transform(src, tmp_path / "out", **{option: _save(tmp_path / "x.npy", values)})
    assert "complete" in str(refused.value) or "value scale" in str(refused.value)
    assert not (tmp_path / "out").exists()


def test_relu_takes_any_positive_gate_and_tanh_minus_one(tmp_path) -> None:
    src = tmp_path / "src"
    write_model(src, "opt", layers=2, d=6, m=M)
    a = np.random.default_rng(7).uniform(1e-3, 1e3, M)
    report = transform(src, tmp_path / "out", scale_gate=_save(tmp_path / "a.npy", a))
    assert report.rounding < 1e-6  # F32 weights
    assert report.layers[0].c == (a.min(), a.max())  # c = a exactly


def test_scale_value_is_refused_for_plain_mlps_and_bad_files(tmp_path) -> None:
    src = tmp_path / "src"
    write_model(src, "gpt2", layers=2, d=6, m=M)
    with pytest.raises(NumericError, match="no value path"):
        transform(src, tmp_path / "out", scale_value=_save(tmp_path / "l.npy", np.ones(M)))
    np.savez(tmp_path / "p.npz", **{"0": np.arange(M), "7": np.arange(M)})
    with pytest.raises(NumericError, match="key '7' is not a layer index"):
        transform(src, tmp_path / "out", permute=str(tmp_path / "p.npz"))
    with pytest.raises(NumericError, match="not a permutation"):
        transform(src, tmp_path / "out", permute=_save(tmp_path / "P.npy", np.zeros(M, dtype=int)))
    with pytest.raises(NumericError, match=r"shape \(9,\)"):
        transform(src, tmp_path / "out", scale_gate=_save(tmp_path / "a.npy", np.ones(9)))
    with pytest.raises(NumericError, match="finite"):
        transform(src, tmp_path / "out", scale_gate=_save(tmp_path / "a.npy", np.full(M, np.nan)))
    assert not (tmp_path / "out").exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(WeightsError, match="not an empty directory"):
        transform(src, tmp_path / "full")
    with pytest.raises(WeightsError, match="the model directory itself"):
        transform(src, src)


def test_npz_elements_per_layer(tmp_path) -> None:
    src = tmp_path / "src"
    write_model(src, "opt", layers=3, d=6, m=M)
    P = np.random.default_rng(8).permutation(M)
    np.savez(tmp_path / "p.npz", **{"1": P})
    report = transform(src, tmp_path / "out", permute=str(tmp_path / "p.npz"))
    assert [layer.permuted for layer in report.layers] == [False, True, False]


def test_memory_stays_within_the_budget_on_a_model_four_times_larger(tmp_path) -> None:
    budget = 2**20
    model, groups = large_model(tmp_path / "src", budget)
    rng = np.random.default_rng(9)
    P, lam = _save(tmp_path / "P.npy", rng.permutation(1024)), _save(tmp_path / "l.npy", rng.uniform(0.5, 2, 1024))
    _, peak = traced_peak(lambda: transform(model, tmp_path / "out", permute=P, scale_value=lam, memory=budget,
                                            groups=groups))
    assert peak <= budget, peak


def test_cli_json_and_refusal(llama, tmp_path) -> None:
    src, _ = llama
    lam = _save(tmp_path / "l.npy", np.full(M, 4.0))
    code, out, err = invoke("transform", str(src), "-o", str(tmp_path / "out"), "--scale-value", lam, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["architecture"] == "llama" and data["layers"][0]["value_scale"] == [4.0, 4.0]
    assert data["rounding"] < 1e-14  # powers of two: exact in BF16
    code, _, err = invoke("transform", str(src), "-o", str(tmp_path / "o2"), "--scale-gate",
                          _save(tmp_path / "a.npy", np.full(M, 2.0)))
    assert code == 2 and err.startswith("Error: layer 0, unit 0: gate scale 2 is not in the layer group")
    assert "certified" in err and err.count("\n") == 1
