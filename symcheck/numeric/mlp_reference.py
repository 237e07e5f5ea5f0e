"""The MLP blocks as the frameworks write them, in plain NumPy: the reference a model report
compares symcheck's evaluation against.

Nothing here comes from symcheck's catalogue or its evaluator: each activation is the
formula of Hugging Face's ``ACT2FN`` entry written out again (erf from ``math.erf``), and a
block is computed as its module's ``forward`` reads, ``down(σ(gate(x)) · up(x))`` or
``fc2(σ(fc1(x)))``, on the weights in the units' layout (rows of Q and K, rows of V). Agreement
of the two to rounding says that the table, the layouts and σ's definition were all read right.

>>> import numpy as np
>>> float(ACTIVATIONS["gelu_new"](np.array([1.0]))[0])  # doctest: +ELLIPSIS
0.841191990...
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

__all__ = ["ACTIVATIONS", "affine", "gated_block", "gated_hidden", "mlp_block"]

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_erf = np.frompyfunc(math.erf, 1, 1)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    # 1/(1 + e^−x) for x ≥ 0 and e^x/(1 + e^x) below, so that exp never overflows: both from
    # t = e^−|x| (the same values as splitting x by sign, without gathering and scattering)
    # (temporaries reused in place: fresh ones cost their page faults on every block)
    t = np.abs(x)
    np.exp(np.negative(t, out=t), out=t)
    numerator = np.where(x >= 0, 1.0, t)
    return np.divide(numerator, np.add(t, 1.0, out=t), out=numerator)


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.asarray(_erf(x / math.sqrt(2.0)), dtype=np.float64))


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)))


ACTIVATIONS: Mapping[str, Callable[[np.ndarray], np.ndarray]] = MappingProxyType({
    "silu": lambda x: x * _sigmoid(x),
    "swish": lambda x: x * _sigmoid(x),
    "gelu": _gelu,
    "gelu_python": _gelu,
    "gelu_new": _gelu_tanh,
    "gelu_pytorch_tanh": _gelu_tanh,
    "gelu_python_tanh": _gelu_tanh,
    "quick_gelu": lambda x: x * _sigmoid(1.702 * x),
    "relu": lambda x: np.maximum(x, 0.0),
    "relu2": lambda x: np.maximum(x, 0.0) ** 2,
    "relu6": lambda x: np.minimum(np.maximum(x, 0.0), 6.0),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.01 * x),
    "sigmoid": _sigmoid,
    "tanh": np.tanh,
    "mish": lambda x: x * np.tanh(np.logaddexp(0.0, x)),
    "hardswish": lambda x: x * np.minimum(np.maximum(x + 3.0, 0.0), 6.0) / 6.0,
    "linear": lambda x: x,
})


def affine(X: np.ndarray, W: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """``X Wᵀ + b``: a linear layer's forward (W's rows are its output units)."""
    out = X @ W.T
    if b is not None:
        out += b
    return out


def gated_hidden(gate: np.ndarray, up: np.ndarray, act: str, out: np.ndarray | None = None) -> np.ndarray:
    """``σ(gate) ⊙ up``: a gated block's hidden values from its two projections (into ``out``)."""
    return np.multiply(ACTIVATIONS[act](gate), up, out=out)


def gated_block(X: np.ndarray, Q: np.ndarray, K: np.ndarray, V: np.ndarray, act: str,
                bq: np.ndarray | None = None, bk: np.ndarray | None = None) -> np.ndarray:
    """``(σ(X Qᵀ + bq) ⊙ (X Kᵀ + bk)) V`` for the units given (rows of Q, K and V)."""
    return gated_hidden(affine(X, Q, bq), affine(X, K, bk), act) @ V


def mlp_block(X: np.ndarray, K: np.ndarray, V: np.ndarray, act: str, bk: np.ndarray | None = None) -> np.ndarray:
    """``σ(X Kᵀ + bk) V`` for the units given (rows of K and V)."""
    return ACTIVATIONS[act](affine(X, K, bk)) @ V
