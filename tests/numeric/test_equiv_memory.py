"""`symcheck equiv` within --memory (tracemalloc on a model 4× the budget), on dask workers
(the serial verdicts exactly), and its witness: the output enclosures hold the true outputs
(mpmath at 50 digits, Hypothesis over layers and rows)."""
from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.numeric.architectures import open_model
from symcheck.numeric.equiv import compare_layer, equiv, output_enclosure
from symcheck.numeric.transform import layer_groups, transform

from support import invoke_cli as invoke
from support.model_checkpoints import write_model
from support.traced import traced_peak

M = 10


def _moved(tmp_path, arch: str = "llama", **shape) -> tuple:
    """A model and g·A for a random permutation and value scales (gated) or gate scales (OPT)."""
    write_model(tmp_path / "a", arch, **shape)
    m = shape.get("m", M)
    rng = np.random.default_rng(2)
    np.save(tmp_path / "P.npy", rng.permutation(m))
    np.save(tmp_path / "s.npy", rng.uniform(0.5, 2, m))
    option = "scale_gate" if arch == "opt" else "scale_value"
    transform(tmp_path / "a", tmp_path / "b", permute=str(tmp_path / "P.npy"), **{option: str(tmp_path / "s.npy")})
    return tmp_path / "a", tmp_path / "b"


def test_memory_stays_within_the_budget_on_a_model_four_times_larger(tmp_path) -> None:
    a, b = _moved(tmp_path, layers=8, d=128, m=1024, dtype="F32", shards=3)
    first, second = open_model(a), open_model(b)
    budget = 3 * 2**20
    assert first.checkpoint.nbytes >= 4 * budget and second.checkpoint.nbytes >= 4 * budget
    groups = layer_groups(first, 60)  # G_σ's SymPy work is not the weights' memory
    report, peak = traced_peak(lambda: equiv(first, second, memory=budget, groups=groups))
    assert report.verdict == "equivalent", report
    assert peak <= budget, peak


@pytest.mark.slow
def test_a_witness_within_the_budget_too(tmp_path) -> None:
    """Not equivalent (B's gates scaled by 2, SiLU) found and certified within a small budget."""
    tensors = write_model(tmp_path / "a", "llama", layers=2, d=64, m=1024, dtype="F32")
    tensors = {k: (v * 2 if "layers.1.mlp.gate_proj" in k else v) for k, v in tensors.items()}
    from support.model_checkpoints import write_safetensors
    write_model(tmp_path / "b", "llama", layers=2, d=64, m=1024, dtype="F32")
    write_safetensors(tmp_path / "b" / "model.safetensors", {n: ("F32", v) for n, v in tensors.items()})
    first, second = open_model(tmp_path / "a"), open_model(tmp_path / "b")
    groups = layer_groups(first, 60)
    report, peak = traced_peak(lambda: equiv(first, second, memory=3 * 2**20, groups=groups, tokens=16))
    assert [layer.verdict for layer in report.layers] == ["equivalent", "not equivalent"]
    assert peak <= 3 * 2**20, peak


def test_a_budget_too_small_is_an_error_before_the_work(tmp_path) -> None:
    a, b = _moved(tmp_path)
    code, _, err = invoke("equiv", str(a), str(b), "--memory", "64KiB")
    assert code == 2 and err.startswith("Error: the memory budget 64 KiB is too small for layer 0")


# ---- dask ----------------------------------------------------------------------------------------

@pytest.mark.slow
def test_workers_give_the_serial_verdicts(tmp_path) -> None:
    pytest.importorskip("dask.distributed", reason="needs dask.distributed (the dask extra)")
    a, b = _moved(tmp_path, "opt", layers=3, d=6, m=M)
    code, serial, err = invoke("equiv", str(a), str(b), "--json")
    assert code == 0, err
    seen: list[str] = []
    spread = equiv(a, b, workers=2, progress=seen.append)
    serial = json.loads(serial)
    assert spread.runner == "dask, 2 local worker processes" and serial["runner"] == "serial"
    assert [layer.to_dict() for layer in spread.layers] == serial["layers"]
    assert sorted(seen) == ["layer 0", "layer 1", "layer 2"]
    code, _, err = invoke("equiv", str(a), str(b), "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "exclude each other" in err


# ---- the witness's enclosures ------------------------------------------------------------------

_SIGMA = {"llama": lambda z: z / (1 + mpmath.exp(-z)), "opt": lambda z: max(z, mpmath.mpf(0)),
          "gpt2": lambda z: z / 2 * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (z + mpmath.mpf("0.044715") * z**3)))}


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(_SIGMA)), st.integers(0, 2**31), st.integers(1, 6), st.integers(1, 5))
def test_the_output_enclosure_holds_the_true_output(tmp_path_factory, arch, seed, d, m) -> None:
    path = tmp_path_factory.mktemp("w")
    tensors = write_model(path, arch, layers=1, d=d, m=m, seed=seed, scale=3.0)
    layer = open_model(path).layers[0]
    group = layer_groups(open_model(path), 60)[layer.activation, layer.form]
    x = np.random.default_rng(seed).standard_normal(d) * 3
    x1 = np.append(x, 1.0) if layer.biased else x
    mpmath.mp.dps = 50
    prefix = layer.prefix
    W = {name[len(prefix):]: value for name, value in tensors.items() if name.startswith(prefix)}
    X = [mpmath.mpf(float(v)) for v in x]
    for column in range(layer.e):
        ball = output_enclosure(layer, group.activation, x1, column, 2**20)
        truth, slack = _truth(arch, W, X, column), mpmath.mpf(10) ** -40  # 50 digits: far below the radius
        low, high = (_exact(end) for end in (ball.lower(), ball.upper()))
        assert low - slack <= truth <= high + slack, (ball, truth)


def _exact(end) -> mpmath.mpf:
    mantissa, exponent = end.man_exp()
    return mpmath.ldexp(mpmath.mpf(int(mantissa)), int(exponent))


def _truth(arch: str, W: dict, X: list, column: int):
    sigma = _SIGMA[arch]

    def dot(row, bias=0.0):
        return mpmath.fsum([mpmath.mpf(float(w)) * x for w, x in zip(row, X, strict=True)]) + mpmath.mpf(float(bias))

    if arch == "llama":
        Q, K, V = W["gate_proj.weight"], W["up_proj.weight"], W["down_proj.weight"]
        return mpmath.fsum([sigma(dot(Q[j])) * dot(K[j]) * mpmath.mpf(float(V[column, j])) for j in range(len(Q))])
    if arch == "opt":
        K, b, V, c = W["fc1.weight"], W["fc1.bias"], W["fc2.weight"], W["fc2.bias"]
        return mpmath.fsum([sigma(dot(K[j], b[j])) * mpmath.mpf(float(V[column, j])) for j in range(len(K))]) \
            + mpmath.mpf(float(c[column]))
    K, b, V, c = W["c_fc.weight"], W["c_fc.bias"], W["c_proj.weight"], W["c_proj.bias"]
    return mpmath.fsum([sigma(dot(K[:, j], b[j])) * mpmath.mpf(float(V[j, column])) for j in range(K.shape[1])]) \
        + mpmath.mpf(float(c[column]))


def test_identical_layers_are_never_given_a_witness(tmp_path) -> None:
    """With the matching defeated (no g to find), equal outputs give no certified difference."""
    path = tmp_path / "a"
    write_model(path, "llama", layers=1, d=6, m=M)
    layer = open_model(path).layers[0]
    group = layer_groups(open_model(path), 60)[layer.activation, layer.form]
    from symcheck.numeric import equiv as module
    original = module._find
    module._find = lambda *args: "matching switched off"
    try:
        verdict = compare_layer(group, layer, layer, np.random.default_rng(0).standard_normal((16, 6)))
    finally:
        module._find = original
    assert verdict.verdict == "undetermined" and "matching switched off" in verdict.reason
