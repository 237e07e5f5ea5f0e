"""SymPy → NumPy: the catalogue against torch.nn.functional's definitions, stably, up to ±1e4."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import EvaluationError
from symcheck.exact.evaluate import approximate
from symcheck.exact.vectorize import erf, erfc, vectorize
from symcheck.language.symbols import Z

from support.reference_activations import SQRT2, TORCH

EPS64 = float(np.finfo(np.float64).eps)
EPS32 = float(np.finfo(np.float32).eps)

#: where torch's definition is itself not exact to round-off: softplus returns x above its
#: threshold, dropping log1p(e^-x) < e^-x
APPROXIMATION = {"softplus": lambda x: np.where(x > 20, np.exp(-np.minimum(np.abs(x), 700)), 0.0)}

INPUTS = np.unique(np.concatenate([
    -np.logspace(-10, 4, 300), [0.0], np.logspace(-10, 4, 300), np.linspace(-40, 40, 801),
    [1e4, -1e4, 745.2, -745.2, 709.8, -709.8, 88.8, -88.8, 20.0, -20.0, 0.5, -0.5, 3.0, -3.0, 6.0, -6.0],
]))


def _reference(name: str, x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):   # torch's formulas overflow on the way; that is theirs
        return TORCH[name](x)


def _strict(function, *args):
    """Call under the strictest floating-point settings: any warning or FP flag fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            return function(*args)


def test_every_catalogue_activation_has_a_reference() -> None:
    assert {a.name for a in sc.catalogue()} == set(TORCH)


@pytest.mark.parametrize("name", list(TORCH))
def test_float64_matches_torch_to_round_off_without_warnings(name: str) -> None:
    got = _strict(sc.activation(name).to_numpy(), INPUTS)
    ref = _reference(name, INPUTS)
    assert got.dtype == np.float64 and got.shape == INPUTS.shape
    assert np.isfinite(got).all()
    # torch's own rounding is relative to the size of the terms it adds: eps·|x|
    tolerance = 8 * EPS64 * (np.abs(ref) + np.abs(INPUTS)) + APPROXIMATION.get(name, lambda x: 0)(INPUTS)
    bad = np.abs(got - ref) > tolerance
    assert not bad.any(), (name, INPUTS[bad][:5], got[bad][:5], ref[bad][:5])


@pytest.mark.parametrize("name", list(TORCH))
def test_float32_on_request(name: str) -> None:
    x32 = INPUTS.astype(np.float32)
    got = _strict(sc.activation(name).to_numpy("float32"), x32)
    assert got.dtype == np.float32 and np.isfinite(got).all()
    x = x32.astype(np.float64)
    ref = _reference(name, x)
    tolerance = 16 * EPS32 * (np.abs(ref) + np.abs(x)) + APPROXIMATION.get(name, lambda x: 0)(x)
    bad = np.abs(got - ref) > tolerance
    assert not bad.any(), (name, x[bad][:5], got[bad][:5], ref[bad][:5])


@pytest.mark.parametrize("text", [
    "log(1 + exp(z))", "z/(1 + exp(-z))", "1/(1 + exp(-z))**2", "z*(1 + erf(z/sqrt(2)))/2",
    "(1 - tanh(z))/2", "Min(0, exp(z) - 1)", "Piecewise((exp(z) - 1, z < 0), (z, True))",
    "z*tanh(log(1 + exp(z)))", "1 - erf(z)", "(1 + tanh(z/2))*z/2",
])
def test_user_expressions_are_rewritten_by_structure_not_by_name(text: str) -> None:
    """Written by hand, not as catalogue names, at ±1e4 and in between: no flags, no NaN,
    and the value of the definition (checked against 40-digit mpmath at moderate inputs)."""
    act = sc.activation(text)
    f = act.to_numpy()
    values = _strict(f, INPUTS)
    assert not np.isnan(values).any()
    for x in (-30.0, -2.5, -1e-3, 0.0, 0.7, 4.0, 25.0):
        exact = float(approximate(act.expr, {Z: x}, dps=40))
        assert abs(float(f(x)) - exact) <= 8 * EPS64 * (abs(exact) + abs(x)) + 1e-300, (text, x)


@pytest.mark.parametrize("text, same_as", [
    ("exp(z)/(1 + exp(z))", lambda x: 1 / (1 + np.exp(-np.clip(x, -700, 700)))),
    ("z*exp(z)/(1 + exp(z))", lambda x: x / (1 + np.exp(-np.clip(x, -700, 700)))),
    ("sinh(z)/(1 + cosh(z))", lambda x: np.tanh(x / 2)),
    ("exp(z**2)/exp(z**2 - 1)", lambda x: np.full_like(x, math.e)),
])
def test_forms_no_rewrite_covers_are_recomputed_where_floats_overflow(text, same_as) -> None:
    """inf/inf in float arithmetic is NaN; the value is recomputed from a certified enclosure,
    with no flag raised (the old evaluator gave NaN and an invalid-value warning)."""
    values = _strict(sc.activation(text).to_numpy(), INPUTS)
    expected = same_as(INPUTS)
    assert np.isfinite(values).all(), text
    assert np.allclose(values, expected, rtol=16 * EPS64, atol=1e-300), text
    assert sc.activation(text).to_numpy("float32")(np.float32(1e4)) == np.float32(expected[-1])


def test_the_recomputation_keeps_true_overflow_and_undefined_points() -> None:
    assert _strict(sc.activation("tanh(z)*cosh(z)").to_numpy(), np.array([1e4, -1e4])).tolist() \
        == [math.inf, -math.inf]                              # sinh(±1e4): beyond the float range
    log = vectorize(sympy.log(Z), (Z,))
    assert np.isnan(_strict(log, np.array([-1.0, 2.0])))[0]   # undefined: stays NaN
    # cancellation of e^{2·800} terms: resolved at 4096 bits; at 1e4 it would take ~29 000 (beyond RESCUE_PRECISIONS)
    values = _strict(sc.activation("sinh(z)**2 - cosh(z)**2").to_numpy(), np.array([800.0, 1e4]))
    assert values[0] == -1.0 and np.isnan(values[1])


def test_the_tails_are_resolved_where_the_naive_formulas_lose_them() -> None:
    # log(1 + e^-40) is 4.2e-18, lost in 1 + ...; 1 + erf(-8) is 1.1e-29, lost likewise
    softplus, gelu = sc.activation("softplus").to_numpy(), sc.activation("gelu").to_numpy()
    assert softplus(-40.0) == pytest.approx(math.exp(-40), rel=1e-15)
    assert gelu(-8 * SQRT2) == pytest.approx(-8 * SQRT2 * math.erfc(8) / 2, rel=1e-13)
    assert sc.activation("elu").to_numpy()(-1e-12) == pytest.approx(math.expm1(-1e-12), rel=1e-15)


def test_branches_are_evaluated_only_where_selected() -> None:
    f = sc.activation("Piecewise((exp(z), z < 700), (700 + 0*z, True))").to_numpy()
    assert _strict(f, np.array([1e4, 0.0])).tolist() == [700.0, 1.0]


def test_scalars_and_shapes_are_kept() -> None:
    f = sc.activation("silu").to_numpy()
    assert f(1.0).shape == () and float(f(0.0)) == 0.0
    assert f(np.zeros((2, 3))).shape == (2, 3)


def test_erf_and_erfc_to_a_few_ulp() -> None:
    x = np.concatenate([np.linspace(-7, 7, 4001), [1e-300, -1e-300, 1e-8, 26.0, 27.0, 30.0, -30.0]])
    e, c = _strict(erf, x), _strict(erfc, x)
    for xi, ei, ci in zip(x, e, c, strict=True):
        want_e, want_c = math.erf(xi), math.erfc(xi)
        assert abs(ei - want_e) <= 4 * EPS64 * abs(want_e) + 1e-320
        assert abs(ci - want_c) <= 8 * EPS64 * abs(want_c) + 1e-300


def test_several_variables_broadcast() -> None:
    a, b = sympy.symbols("a b", real=True)
    f = vectorize(sympy.Max(a, 0) * b, (a, b))
    assert f(np.array([[-1.0], [2.0]]), np.array([1.0, 3.0])).tolist() == [[0.0, 0.0], [2.0, 6.0]]


def test_what_cannot_be_vectorised_is_an_error() -> None:
    with pytest.raises(EvaluationError, match="cannot vectorise"):
        vectorize(sympy.Function("sigma")(Z), (Z,))
    with pytest.raises(EvaluationError, match="dtype must be float64 or float32"):
        sc.activation("relu").to_numpy("int8")


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(TORCH)), x=st.floats(-60, 60, allow_nan=False))
def test_agrees_with_the_certified_evaluator_at_random_points(name: str, x: float) -> None:
    act = sc.activation(name)
    # enough digits that exp(x) - 1 and friends cancel exactly even for tiny x
    digits = 40 + (int(-math.log10(abs(x))) if 0 < abs(x) < 1 else 0)
    exact = float(approximate(act.expr, {Z: x}, dps=digits))
    got = float(act.to_numpy()(x))
    assert abs(got - exact) <= 8 * EPS64 * (abs(exact) + abs(x)) + 1e-300
