"""The catalogue: torch.nn.functional definitions, constants, and the extended paper table."""
from __future__ import annotations

import numpy as np
import pytest
import sympy

import symcheck as sc
from symcheck.language.activations import CATALOGUE
from symcheck.language.symbols import Z

from support.reference_activations import TORCH

POINTS = [-7.5, -3.0, -1.0, -0.5, -0.25, 0.0, 0.3, 0.5, 1.0, 2.0, 5.5, 6.5]

# exchange, α > 0, α = −1, α ≠ 0 on the gated form: the paper's table, extended
EXPECTED = {
    "relu": "bhbb", "leaky_relu": "bhbb", "relu6": "bbbb", "relu2": "bbbb", "elu": "bbbb",
    "selu": "bbbb", "celu": "bbbb", "gelu": "bbbb", "gelu_tanh": "bbbb", "quick_gelu": "bbbb",
    "silu": "bbbb", "mish": "bbbb", "sigmoid": "bbbb", "tanh": "bbhb", "softplus": "bbbb",
    "softsign": "bbhb", "hardtanh": "bbhb", "hardsigmoid": "bbbb", "hardswish": "bbbb",
    "tanhshrink": "bbhb", "softshrink": "bbhb", "hardshrink": "bbhb", "sin": "bbhb",
    "identity": "hhhh",
}
VERDICT = {"h": "holds", "b": "broken"}


def test_catalogue_is_complete() -> None:
    assert set(CATALOGUE) == set(TORCH) == set(EXPECTED)
    assert len(sc.catalogue()) == 24


@pytest.mark.parametrize("name", sorted(TORCH))
def test_matches_torch_definition(name: str) -> None:
    expr = sc.activation(name).expr
    for x in POINTS:
        value = float(expr.subs(Z, sympy.Rational(str(x))).evalf(30))
        assert value == pytest.approx(float(TORCH[name](np.float64(x))), rel=1e-12, abs=1e-14), (name, x)


def test_selu_constants_are_exact_closed_forms() -> None:
    expr = sc.activation("selu").expr
    scale = expr.subs(Z, 1)
    assert not scale.is_Float and abs(scale.evalf(40) - sympy.Float("1.0507009873554804934193349852946", 40)) < 1e-30
    alpha = (expr.subs(Z, -1000) / scale).evalf(40)  # ≈ −α for very negative z
    assert abs(alpha + sympy.Float("1.6732632423543772848170429916717", 40)) < 1e-30


def test_aliases_resolve() -> None:
    assert sc.activation("swish").name == "silu"
    assert sc.activation("linear").name == "identity"
    assert sc.activation("SiLU").name == "silu"


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.slow
def test_extended_table(name: str) -> None:
    exchange, positive, minus_one, any_alpha = (VERDICT[c] for c in EXPECTED[name])
    assert sc.check_exchange(name).verdict.value == exchange
    assert sc.check_inverse_scaling(name, "positive").verdict.value == positive
    assert sc.check_inverse_scaling(name, -1).verdict.value == minus_one
    assert sc.check_inverse_scaling(name, "any").verdict.value == any_alpha


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_rank1_has_every_symmetry(name: str) -> None:
    assert sc.check_exchange(name, form="rank1").verdict.value == "holds"
    assert sc.check_inverse_scaling(name, "any", form="rank1").verdict.value == "holds"


def test_catalogue_names_are_functions_in_expressions() -> None:
    assert sc.activation("z*tanh(softplus(z))").expr == sc.activation("mish").expr
