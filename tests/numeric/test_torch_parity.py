"""PyTorch parity: the catalogue's NumPy functions against
torch.nn.functional, and a LLaMA-style MLP against symcheck's gated evaluation."""
from __future__ import annotations

import numpy as np
import pytest

import symcheck as sc
from symcheck.language.activations import CATALOGUE
from symcheck.numeric.kernels import gated

torch = pytest.importorskip("torch", reason="torch is not installed (CI installs the 'torch' extra)")
F = torch.nn.functional

TORCH = {
    "relu": F.relu, "leaky_relu": F.leaky_relu, "relu6": F.relu6,
    "relu2": lambda x: F.relu(x) ** 2, "elu": F.elu, "selu": F.selu, "celu": F.celu,
    "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "quick_gelu": lambda x: x * torch.sigmoid(1.702 * x), "silu": F.silu, "mish": F.mish,
    "sigmoid": torch.sigmoid, "tanh": torch.tanh, "softplus": F.softplus, "softsign": F.softsign,
    "hardtanh": F.hardtanh, "hardsigmoid": F.hardsigmoid, "hardswish": F.hardswish,
    "tanhshrink": F.tanhshrink, "softshrink": F.softshrink, "hardshrink": F.hardshrink,
    "sin": torch.sin, "identity": lambda x: x,
}
#: torch's softplus returns x itself above its threshold 20, dropping log1p(e^-x) < e^-20
RTOL = {"softplus": 1e-9}
POINTS = np.unique(np.concatenate([
    np.linspace(-50, 50, 2001), np.logspace(-12, 4, 200), -np.logspace(-12, 4, 200),
    [0.0, 1e4, -1e4, 745.0, -745.0, 88.7, -88.7, 20.0, 0.5, -0.5, 3.0, -3.0, 6.0],
]))


def test_every_catalogue_activation_has_a_torch_counterpart() -> None:
    assert set(TORCH) == set(CATALOGUE)


@pytest.mark.parametrize("name", sorted(TORCH))
def test_numpy_matches_torch(name: str) -> None:
    ours = sc.activation(name).to_numpy()(POINTS)
    theirs = TORCH[name](torch.from_numpy(POINTS)).numpy()
    assert np.all(np.isfinite(ours))
    # atol: torch computes gelu's tail and tanhshrink near 0 by cancelling terms (ours does not),
    # so tiny values agree only to about float64 eps in absolute terms
    np.testing.assert_allclose(ours, theirs, rtol=RTOL.get(name, 1e-12), atol=1e-15)


def _llama(d: int = 16, m: int = 24, e: int = 8, seed: int = 0):
    torch.manual_seed(seed)
    gate = torch.nn.Linear(d, m, bias=False, dtype=torch.float64)
    up = torch.nn.Linear(d, m, bias=False, dtype=torch.float64)
    down = torch.nn.Linear(m, e, bias=False, dtype=torch.float64)
    x = torch.randn(32, d, dtype=torch.float64)
    return gate, up, down, x


@pytest.mark.parametrize("name", ["silu", "gelu", "relu", "identity", "tanh"])
def test_llama_mlp_is_the_gated_form(name: str) -> None:
    gate, up, down, x = _llama()
    with torch.no_grad():
        expected = down(TORCH[name](gate(x)) * up(x)).numpy()
    got = gated(x.numpy(), gate.weight.detach().numpy(), up.weight.detach().numpy(),
                        down.weight.detach().numpy().T, name)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(TORCH))
def test_swapping_gate_and_up_changes_the_output_exactly_when_exchange_is_broken(name: str) -> None:
    gate, up, down, x = _llama()
    with torch.no_grad():
        before = down(TORCH[name](gate(x)) * up(x))
        after = down(TORCH[name](up(x)) * gate(x))
    change = float((after - before).abs().max() / before.abs().max())
    broken = sc.check_exchange(name).verdict.value == "broken"
    assert (change > 1e-8) == broken, (name, change)
