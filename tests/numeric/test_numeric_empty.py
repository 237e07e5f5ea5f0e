"""Empty and degenerate inputs in the numeric path: the evaluators answer (an empty sum is 0, no
rows give no rows), the checks refuse with one line, and nothing ends in a bare exception."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import symcheck as sc
from symcheck.core.errors import NumericError, NumericOverflowError
from symcheck.numeric.checks import prepare
from symcheck.numeric.kernels import bilinear_attention, evaluate, gated, mlp, query_mlp, rank1, rank_r
from symcheck.numeric.planner import parse_memory
from symcheck.numeric.weights import WeightsError, load_inputs, load_layer

from support import invoke_cli

RNG = np.random.default_rng(5)
D, M, R, E = 4, 6, 2, 3
Q2, K2 = RNG.standard_normal((M, D)), RNG.standard_normal((M, D))
Q3, K3 = RNG.standard_normal((M, D, R)), RNG.standard_normal((M, D, R))
V = RNG.standard_normal((M, E))
G = RNG.standard_normal((D, D))

CALLS = {
    "gated": lambda X, **o: gated(X, Q2, K2, V, "silu", **o),
    "rank1": lambda X, **o: rank1(X, Q2, K2, V, "silu", **o),
    "mlp": lambda X, **o: mlp(X, K2, V, "silu", **o),
    "query_mlp": lambda X, **o: query_mlp(X, G, K2, V, "silu", **o),
    "factor": lambda X, **o: bilinear_attention(X, Q3, K3, V, "silu", route="factor", **o),
    "kernel": lambda X, **o: bilinear_attention(X, Q3, K3, V, "silu", route="kernel", **o),
    "two threads": lambda X, **o: bilinear_attention(X, Q3, K3, V, "silu", threads=2, memory=2_000, **o),
    "rank_r": lambda X, **o: rank_r(X, Q3, K3, V, "silu", **o),
    "evaluate": lambda X, **o: evaluate("swiglu", X, Q=Q2, K=K2, V=V, **o),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("call", list(CALLS))
def test_no_rows_give_an_empty_output(call, dtype) -> None:
    out = CALLS[call](np.zeros((0, D)), dtype=dtype)
    assert out.shape == (0, E) and out.dtype == np.dtype(dtype)


@pytest.mark.parametrize("call", ["gated", "factor", "kernel", "mlp"])
def test_an_empty_row_block_between_full_ones_changes_nothing(call) -> None:
    X = RNG.standard_normal((5, D))
    np.testing.assert_array_equal(CALLS[call](X[:0]), np.zeros((0, E)))
    np.testing.assert_allclose(np.vstack([CALLS[call](X[:2]), CALLS[call](X[2:])]), CALLS[call](X), rtol=1e-13)


def test_no_units_is_an_empty_sum() -> None:
    X = RNG.standard_normal((3, D))
    empty2, empty3, no_v = np.zeros((0, D)), np.zeros((0, D, R)), np.zeros((0, E))
    for out in (gated(X, empty2, empty2, no_v, "silu"), rank1(X, empty2, empty2, no_v, "silu"),
                mlp(X, empty2, no_v, "silu"), bilinear_attention(X, empty3, empty3, no_v, "silu", threads=2)):
        np.testing.assert_array_equal(out, np.zeros((3, E)))


def test_no_input_features_is_an_empty_dot_product() -> None:
    """d = 0: every x·k is 0, so σ(xKᵀ)V = σ(0)·Σ_j v_j (σ(z) = z + 1 makes that Σ_j v_j)."""
    X = np.zeros((2, 0))
    np.testing.assert_allclose(mlp(X, np.zeros((M, 0)), V, "z + 1"), np.tile(V.sum(axis=0), (2, 1)))
    np.testing.assert_array_equal(bilinear_attention(X, np.zeros((M, 0, R)), np.zeros((M, 0, R)), V, "z + 1"),
                                  np.tile(V.sum(axis=0), (2, 1)))
    assert gated(X, np.zeros((M, 0)), np.zeros((M, 0)), np.zeros((M, 0)), "silu").shape == (2, 0)


@pytest.mark.parametrize("X, message", [
    ([[1.0, 2.0, 3.0, 4.0], [1.0]], r"^X is not a rectangular array of real numbers$"),
    (np.ones((2, D), dtype=object), r"^X has dtype object; expected real numbers$"),
    (np.ones((2, D), dtype=complex), r"^X has dtype complex128; expected real numbers$"),
    (np.ones((2, D), dtype=bool), r"^X has dtype bool; expected real numbers$"),
    (np.array(["1", "2", "3", "4"]), r"^X has dtype <U1; expected real numbers$"),
    (np.ones((2, D), dtype="datetime64[s]"), r"^X has dtype datetime64\[s\]; expected real numbers$"),
    (np.ones((1, 2, D)), r"^X has shape \(1, 2, 4\); expected a 1-D or 2-D array$"),
    (np.float64(1.0), r"^X has shape \(\); expected a 1-D or 2-D array$"),
])
def test_inputs_that_are_not_real_arrays_are_one_line_errors(X, message) -> None:
    with pytest.raises(NumericError, match=message):
        gated(X, Q2, K2, V, "silu")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "1e999", "nan", True])
def test_memory_budgets_that_are_not_sizes(value) -> None:
    with pytest.raises(NumericError, match="memory budget"):
        parse_memory(value)


# --------------------------------------------------------------------------- checks need data


@pytest.mark.parametrize("option, value", [("tokens", 0), ("d", 0), ("m", 0), ("m", -1), ("d", 2.5),
                                           ("tokens", True), ("d", "8")])
def test_check_sizes_must_be_whole_numbers_from_one(option, value) -> None:
    with pytest.raises(NumericError) as caught:
        prepare("exchange", **{"d": 4, "m": 4, "tokens": 4, option: value})
    assert str(caught.value) == f"{option} must be a whole number ≥ 1, not {value!r}"
    assert caught.value.name == option


def test_a_bilinear_rank_of_zero_is_refused() -> None:
    with pytest.raises(NumericError, match=r"^r must be a whole number ≥ 1, not 0$"):
        prepare("exchange", form="bilinear", r=0, d=4, m=4, tokens=4)


@pytest.mark.parametrize("seed", [-1, 1.5, "x"])
def test_a_seed_must_be_a_whole_number_from_zero(seed) -> None:
    with pytest.raises(NumericError, match=rf"^seed must be a whole number ≥ 0, not {seed!r}$"):
        prepare("exchange", d=4, m=4, tokens=4, seed=seed)


def test_cli_negative_seed_is_exit_2() -> None:
    code, out, err = invoke_cli("numeric", "exchange", "--d", "4", "--m", "4", "--tokens", "4", "--seed", "-1")
    assert (code, out, err) == (2, "", "Error: seed must be a whole number ≥ 0, not -1\n")


def _layer(path: Path, **changed: np.ndarray) -> Path:
    np.savez(path, **{"Q": Q2, "K": K2, "V": V, **changed})
    return path


def test_cli_inputs_without_rows_are_refused(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.zeros((0, D)))
    code, out, err = invoke_cli("numeric", "exchange", "--weights", str(_layer(tmp_path / "w.npz")),
                                "--inputs", str(tmp_path / "x.npy"))
    assert (code, out) == (2, "")
    assert err == (f"Error: {tmp_path / 'x.npy'}: tensor 'x' has shape (0, 4): no input rows; "
                   "the check needs at least one\n")


@pytest.mark.parametrize("tensors, message", [
    ({"Q": np.zeros((0, D)), "K": np.zeros((0, D)), "V": np.zeros((0, E))},
     "tensor 'Q' has shape (0, 4): m = 0; a layer needs at least one unit"),
    ({"Q": np.zeros((M, 0)), "K": np.zeros((M, 0))},
     "tensor 'Q' has shape (6, 0): d = 0; a layer needs at least one input feature"),
    ({"V": np.zeros((M, 0))}, "tensor 'V' has shape (6, 0): e = 0; a layer needs at least one output"),
    ({"Q": np.zeros((M, D, 0)), "K": np.zeros((M, D, 0))},
     "tensor 'Q' has shape (6, 4, 0): r = 0; a layer needs at least one rank term"),
])
def test_weights_with_an_empty_axis_are_refused_naming_the_tensor(tmp_path: Path, tensors, message) -> None:
    path = _layer(tmp_path / "w.npz", **tensors)
    with pytest.raises(WeightsError) as caught:
        load_layer(path)
    assert str(caught.value) == f"{path}: {message}"
    code, _, err = invoke_cli("numeric", "exchange", "--weights", str(path))
    assert (code, err) == (2, f"Error: {path}: {message}\n")


def test_an_empty_global_query_layer_is_refused(tmp_path: Path) -> None:
    np.savez(tmp_path / "g.npz", Q_g=np.zeros((0, 0)), K=np.zeros((M, 0)), V=V)
    with pytest.raises(WeightsError, match=r"tensor 'K' has shape \(6, 0\): d = 0"):
        load_layer(tmp_path / "g.npz")


def test_llama_projections_with_an_empty_axis_are_refused(tmp_path: Path) -> None:
    from safetensors.numpy import save_file
    prefix = "model.layers.0.mlp."
    save_file({prefix + "gate_proj.weight": np.zeros((0, D), np.float32),
               prefix + "up_proj.weight": np.zeros((0, D), np.float32),
               prefix + "down_proj.weight": np.zeros((D, 0), np.float32)}, tmp_path / "l.safetensors")
    with pytest.raises(WeightsError, match=r"tensor 'model.layers.0.mlp.gate_proj.weight' has shape \(0, 4\): "
                                           r"m = 0; a layer needs at least one unit$"):
        load_layer(tmp_path / "l.safetensors")


def test_load_inputs_refuses_no_rows_but_reads_one(tmp_path: Path) -> None:
    np.save(tmp_path / "one.npy", np.ones(D))
    assert load_inputs(tmp_path / "one.npy", D)[0].shape == (1, D)
    np.save(tmp_path / "none.npy", np.zeros((2, 0, D)))
    with pytest.raises(WeightsError, match=r"none.npy: tensor 'none' has shape \(2, 0, 4\): no input rows"):
        load_inputs(tmp_path / "none.npy", D)


def test_the_python_check_refuses_no_tokens_with_weights(tmp_path: Path) -> None:
    with pytest.raises(NumericError, match=r"^tokens must be a whole number ≥ 1, not 0$"):
        prepare("exchange", weights=[str(_layer(tmp_path / "w.npz"))], tokens=0)


def test_errors_here_share_the_root() -> None:
    assert issubclass(NumericError, sc.SymcheckError) and issubclass(WeightsError, sc.SymcheckError)
    assert NumericOverflowError.__mro__[1:3] == (sc.SymcheckError, ArithmeticError)
