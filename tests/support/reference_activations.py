"""torch.nn.functional's definitions (defaults throughout), written independently of the
catalogue in NumPy float64 as torch computes them: the reference both the catalogue's SymPy
formulas and their NumPy translations are tested against. torch itself is not required."""
from __future__ import annotations

import math

import numpy as np

SQRT2 = math.sqrt(2.0)
_erf = np.vectorize(math.erf, otypes=[float])


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _relu6(x):
    return np.minimum(np.maximum(x, 0), 6)


# torch.nn.functional's float64 definitions, written as torch computes them (defaults throughout)
TORCH = {
    "relu": lambda x: np.maximum(x, 0),
    "leaky_relu": lambda x: np.where(x > 0, x, 0.01 * x),
    "relu6": _relu6,
    "relu2": lambda x: np.maximum(x, 0) ** 2,
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "selu": lambda x: 1.0507009873554804934193349852946 * np.where(
        x > 0, x, 1.6732632423543772848170429916717 * np.expm1(x)),
    "celu": lambda x: np.maximum(0, x) + np.minimum(0, np.expm1(x)),
    "gelu": lambda x: x * 0.5 * (1 + _erf(x / SQRT2)),
    "gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    "quick_gelu": lambda x: x * _sigmoid(1.702 * x),
    "silu": lambda x: x * _sigmoid(x),
    "mish": lambda x: x * np.tanh(np.log1p(np.exp(x))),
    "sigmoid": _sigmoid,
    "tanh": np.tanh,
    "softplus": lambda x: np.where(x > 20, x, np.log1p(np.exp(x))),   # threshold = 20
    "softsign": lambda x: x / (1 + np.abs(x)),
    "hardtanh": lambda x: np.clip(x, -1, 1),
    "hardsigmoid": lambda x: _relu6(x + 3) / 6,
    "hardswish": lambda x: x * _relu6(x + 3) / 6,
    "tanhshrink": lambda x: x - np.tanh(x),
    "softshrink": lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0)),
    "hardshrink": lambda x: np.where(np.abs(x) > 0.5, x, 0.0),
    "sin": np.sin,
    "identity": lambda x: x,
}
