"""Non-finite numbers in the numeric path: refused as input, reported as overflow (no evidence)
when the computation leaves the float range, and never written to JSON as NaN or Infinity."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core.errors import NumericError, NumericOverflowError
from symcheck.numeric.checks import measure
from symcheck.numeric.kernels import bilinear_attention, evaluate, gated, mlp, query_mlp, rank1, rank_r
from symcheck.numeric.planner import bilinear_plan

from support import invoke_cli

RNG = np.random.default_rng(11)
N, D, M, R, E = 9, 6, 8, 2, 5
X = RNG.standard_normal((N, D))
Q2, K2 = RNG.standard_normal((M, D)) / 2, RNG.standard_normal((M, D)) / 2
Q3, K3 = RNG.standard_normal((M, D, R)) / 2, RNG.standard_normal((M, D, R)) / 2
V = RNG.standard_normal((M, E))
G = RNG.standard_normal((D, D)) / 2

EVALUATORS = {
    "gated": lambda a: gated(a["X"], a["Q2"], a["K2"], a["V"], "relu"),
    "rank1": lambda a: rank1(a["X"], a["Q2"], a["K2"], a["V"], "relu"),
    "mlp": lambda a: mlp(a["X"], a["K2"], a["V"], "relu"),
    "query_mlp": lambda a: query_mlp(a["X"], a["G"], a["K2"], a["V"], "relu"),
    "factor": lambda a: bilinear_attention(a["X"], a["Q3"], a["K3"], a["V"], "relu", route="factor"),
    "kernel": lambda a: bilinear_attention(a["X"], a["Q3"], a["K3"], a["V"], "relu", route="kernel"),
    "rank_r": lambda a: rank_r(a["X"], a["Q3"], a["K3"], a["V"], "relu", threads=2, memory=3_000),
}
USES = {"gated": ("X", "Q2", "K2", "V"), "rank1": ("X", "Q2", "K2", "V"), "mlp": ("X", "K2", "V"),
        "query_mlp": ("X", "G", "K2", "V"), "factor": ("X", "Q3", "K3", "V"),
        "kernel": ("X", "Q3", "K3", "V"), "rank_r": ("X", "Q3", "K3", "V")}
SHOWN = {"Q2": "Q", "K2": "K", "Q3": "Q", "K3": "K", "G": "Q_g", "X": "X", "V": "V"}


def _arrays(**changed: np.ndarray) -> dict[str, np.ndarray]:
    arrays = {"X": X, "Q2": Q2, "K2": K2, "Q3": Q3, "K3": K3, "V": V, "G": G}
    return {**arrays, **changed}


def _strict(text: str) -> dict:
    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


# --------------------------------------------------------------------------- refused as input


@pytest.mark.parametrize("bad, shown", [(np.nan, "nan"), (np.inf, "inf"), (-np.inf, "-inf")])
@pytest.mark.parametrize("evaluator", list(EVALUATORS))
def test_every_evaluator_refuses_a_non_finite_input_naming_array_and_index(evaluator, bad, shown) -> None:
    for name in USES[evaluator]:
        array = _arrays()[name].copy()
        index = (2,) * (array.ndim - 1) + (1,)
        array[index] = bad
        where = ", ".join(map(str, index))
        with pytest.raises(NumericError) as caught:
            EVALUATORS[evaluator](_arrays(**{name: array}))
        assert str(caught.value) == f"{SHOWN[name]} has a non-finite value ({shown}) at index ({where})"


def test_one_row_is_indexed_as_given() -> None:
    row = X[0].copy()
    row[4] = np.nan
    with pytest.raises(NumericError, match=r"^X has a non-finite value \(nan\) at index 4$"):
        gated(row, Q2, K2, V, "relu")


BEYOND = [(np.float64, 1e300, "float32")] + (
    # where a long double is wider than a double (x86-64, aarch64), 1e400 is one
    [(np.longdouble, np.longdouble("1e400"), "float64")] if np.finfo(np.longdouble).max > 1e400 else [])


@pytest.mark.parametrize("dtype, big, working", BEYOND)
def test_a_value_beyond_the_working_dtype_is_refused_before_the_cast(dtype, big, working) -> None:
    """1e300 is a float64 but not a float32 (it would become inf when cast)."""
    Xb = X.astype(dtype)
    Xb[3, 1] = big
    limit = re.escape(f"{float(np.finfo(working).max):.2g}")
    with pytest.raises(NumericError, match=rf"^X has the value \S+ at index \(3, 1\), beyond the "
                                           rf"{working} range \(±{limit}\)$"):
        gated(Xb, Q2, K2, V, "relu", dtype=working)


def test_finite_inputs_in_range_pass_and_integers_are_numbers() -> None:
    assert gated(np.arange(12).reshape(2, D), Q2, K2, V, "relu", dtype="float32").shape == (2, E)


# --------------------------------------------------------------------------- overflow in the computation


@pytest.mark.parametrize("evaluator", list(EVALUATORS))
def test_an_overflowing_computation_raises_instead_of_returning_inf(evaluator) -> None:
    huge = {name: _arrays()[name] * 1e160 for name in USES[evaluator] if name != "V"}
    with pytest.raises(NumericOverflowError, match=r"^overflow in float64: (the pre-activations|the hidden "
                                                   r"activations|the output|x·Q_g)"):
        EVALUATORS[evaluator](_arrays(**huge))


def test_an_overflow_on_a_worker_thread_reaches_the_caller() -> None:
    assert bilinear_plan(N, D, M, E, R, 3_000, np.dtype(float), False, 0, "factor", 2).workers == 2
    with pytest.raises(NumericOverflowError, match=r"^overflow in float64: the pre-activations of units \d"):
        rank_r(X * 1e160, Q3 * 1e160, K3, V, "tanh", threads=2, memory=3_000)


def test_a_pre_activation_that_overflows_is_reported_even_when_sigma_saturates() -> None:
    """(x·q)(x·k) ≈ 1e320 is inf in float64; sigmoid(inf) = 1 would hide it."""
    with pytest.raises(NumericOverflowError, match=r"^overflow in float64: the pre-activations of units "
                                                   r"1–8, rows 1–9, are not finite$") as caught:
        rank1(X * 1e110, Q2 * 1e110, K2, V, "sigmoid")
    assert isinstance(caught.value, sc.SymcheckError) and isinstance(caught.value, ArithmeticError)


def test_an_output_that_overflows_is_reported() -> None:
    with pytest.raises(NumericOverflowError, match=r"^overflow in float32: the output is not finite "
                                                   r"at index \(\d+, \d+\)$"):
        mlp(np.ones((2, D)), np.ones((M, D)), np.full((M, E), 3e38), "relu", dtype="float32")


def test_the_global_query_product_overflowing_is_reported() -> None:
    with pytest.raises(NumericOverflowError, match=r"^overflow in float32: x·Q_g is not finite"):
        query_mlp(X * 1e20, G * 1e20, K2, V, "tanh", dtype="float32")


# --------------------------------------------------------------------------- checks and the command


def _layer(path: Path, scale: float = 1.0, **changed: np.ndarray) -> Path:
    arrays = {"Q": Q2 * scale, "K": K2 * scale, "V": V, **changed}
    np.savez(path, **arrays)
    return path


def test_cli_rank1_with_a_nan_in_q_is_refused_naming_file_tensor_and_index(tmp_path: Path) -> None:
    Q = Q2.copy()
    Q[2, 3] = np.nan
    path = _layer(tmp_path / "nan.npz", Q=Q)
    code, out, err = invoke_cli("numeric", "rank1", "--weights", str(path), "--tokens", "8")
    assert (code, out) == (2, "")
    assert err == f"Error: {path}: tensor 'Q' has a non-finite value (nan) at index (2, 3)\n"


def test_cli_scaling_with_nan_inputs_is_refused(tmp_path: Path) -> None:
    path = _layer(tmp_path / "ok.npz")
    inputs = RNG.standard_normal((4, D))
    inputs[3, 0] = -np.inf
    np.save(tmp_path / "x.npy", inputs)
    code, _, err = invoke_cli("numeric", "scaling", "--act", "relu", "--weights", str(path),
                              "--inputs", str(tmp_path / "x.npy"))
    assert code == 2
    assert err == f"Error: {tmp_path / 'x.npy'}: tensor 'x' has a non-finite value (-inf) at index (3, 0)\n"


def test_cli_float32_refuses_float64_weights_beyond_its_range(tmp_path: Path) -> None:
    path = _layer(tmp_path / "w.npz", scale=1e39)
    code, _, err = invoke_cli("numeric", "exchange", "--weights", str(path), "--dtype", "float32")
    assert code == 2 and err.startswith(f"Error: {path}: tensor 'Q' has the value ") and \
        "beyond the float32 range (±3.4e+38)" in err and err.count("\n") == 1


@pytest.mark.parametrize("dtype, alpha, message", [
    ("float32", "1e40", "alpha = 1e40 is beyond the float32 range (±3.4e+38)"),
    ("float64", "1e400", "alpha = 1e400 is beyond the float64 range (±1.8e+308)"),
    ("float64", "-1e400", "alpha = -1e400 is beyond the float64 range (±1.8e+308)"),
    ("float64", "1e-400", "alpha = 1e-400 rounds to 0 in float64"),
    ("float32", "1e-50", "alpha = 1e-50 rounds to 0 in float32"),
])
def test_cli_alpha_that_is_not_a_finite_non_zero_number_in_the_dtype(dtype, alpha, message) -> None:
    code, out, err = invoke_cli("numeric", "scaling", "--act", "relu", "--dtype", dtype, "--alpha", alpha,
                                "--d", "4", "--m", "4", "--tokens", "4")
    assert (code, out, err) == (2, "", f"Error: {message}\n")


def test_cli_relu_scaling_of_huge_weights_is_overflow_not_a_finding(tmp_path: Path) -> None:
    path = _layer(tmp_path / "big.npz", scale=1e200)
    code, out, err = invoke_cli("numeric", "scaling", "--act", "relu", "--weights", str(path), "--tokens", "8",
                                "--json")
    assert code == 0, err
    data = _strict(out)
    assert data["outcome"] == "overflow" and data["relative"] is None and data["verdict"] is None
    assert data["reason"].startswith("overflow in float64: the hidden activations")
    assert data["summary"].startswith("overflow: no evidence either way")
    assert "not a symmetry" not in data["summary"] and "differ" not in data["summary"]
    code, out, _ = invoke_cli("numeric", "scaling", "--act", "relu", "--weights", str(path), "--tokens", "8")
    assert code == 0 and "overflow: no evidence either way" in out and "not a symmetry" not in out


def test_a_scaled_factor_beyond_the_dtype_is_overflow(tmp_path: Path) -> None:
    Q = Q2.copy()
    Q[1, 4] = 10.0                          # 10 · 1e38 is beyond float32
    path = _layer(tmp_path / "w.npz", Q=Q)
    report = measure("scaling", act="relu", alpha="1e38", weights=[str(path)], dtype="float32", tokens=8)
    assert report.outcome == "overflow" and report.relative is None
    assert report.reason == "overflow in float32: α·Q is not finite at index (1, 4)"
    assert _strict(json.dumps(report.to_dict()))["reason"] == report.reason


def test_the_absorbed_keys_overflowing_is_overflow(tmp_path: Path) -> None:
    np.savez(tmp_path / "g.npz", Q_g=G * 1e20, K=K2 * 1e20, V=V)
    report = measure("absorb", act="tanh", weights=[str(tmp_path / "g.npz")], dtype="float32", tokens=8)
    assert report.outcome == "overflow" and report.summary.startswith("overflow: no evidence either way")


def test_finite_outputs_near_the_top_of_the_range_are_compared_without_overflow(tmp_path: Path) -> None:
    """Outputs ≈ 1e300 are finite, but their squares are not: the norms must be scaled."""
    path = _layer(tmp_path / "v.npz", V=V * 1e300)
    report = measure("scaling", act="relu", alpha="3", weights=[str(path)], tokens=16)
    assert report.outcome == "agree" and 0 <= report.relative <= report.tolerance


def test_outputs_in_the_underflow_range_are_no_evidence(tmp_path: Path) -> None:
    """σ(a)·b ≈ 1e-316 is subnormal: its rounding is absolute, not relative, and a 'change'
    of 1e-4 there is no finding. Exchange of silu at these weights would 'agree' as 0 = 0."""
    path = _layer(tmp_path / "tiny.npz", scale=1e-158)
    report = measure("scaling", act="relu", alpha="3", weights=[str(path)], tokens=16)
    assert report.outcome == "underflow" and report.summary.startswith("underflow: no evidence either way")
    zero = measure("exchange", act="silu", weights=[str(_layer(tmp_path / "zero.npz", scale=1e-200))], tokens=16)
    assert zero.outcome == "underflow" and "exactly 0" in zero.reason


def test_a_left_side_of_exact_zeros_against_a_non_zero_right_differs_with_a_null_ratio(tmp_path: Path) -> None:
    """Gated with K = 0: σ(x·q)·0 = 0 on the left; exchanged, σ(0)·(x·q) = x·q is not 0."""
    path = _layer(tmp_path / "z.npz", K=np.zeros((M, D)))
    report = measure("exchange", act="z + 1", weights=[str(path)], tokens=8)
    data = _strict(json.dumps(report.to_dict()))
    assert report.outcome == "differ" and data["relative"] is None
    assert data["reason"] == "the left side is exactly 0 and the right side is not: the relative change is unbounded"


def test_json_output_of_every_outcome_is_strict(tmp_path: Path) -> None:
    runs = [("numeric", "exchange", "--d", "4", "--m", "4", "--tokens", "4"),
            ("numeric", "rank1", "--d", "4", "--m", "4", "--tokens", "4"),
            ("numeric", "scaling", "--act", "relu", "--weights", str(_layer(tmp_path / "b.npz", scale=1e200))),
            ("numeric", "scaling", "--act", "relu", "--weights", str(_layer(tmp_path / "t.npz", scale=1e-158)))]
    outcomes = set()
    for args in runs:
        code, out, err = invoke_cli(*args, "--json")
        assert code == 0, err
        data = _strict(out)
        outcomes.add(data["outcome"])
        assert set(data) >= {"relative", "reason", "tolerance", "outcome", "summary"}
    assert outcomes == {"agree", "differ", "overflow", "underflow"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(exponent=st.integers(-330, 300), alpha=st.sampled_from(["3", "1/7", "2", "1e30", "1e-30", "1e300"]),
       dtype=st.sampled_from(["float64", "float32"]))
def test_relu_scaling_is_never_a_finding_and_json_stays_strict(tmp_path: Path, exponent, alpha, dtype) -> None:
    """ReLU is positively homogeneous: (αQ, K/α) with α > 0 is an exact symmetry of the gated
    layer, so whatever the scale of the weights, the report may say agree or no evidence, never
    differ; and its JSON always parses strictly."""
    scale = float(f"1e{exponent}")
    path = _layer(tmp_path / "w.npz", scale=scale)
    try:
        report = measure("scaling", act="relu", alpha=alpha, weights=[str(path)], dtype=dtype, tokens=8)
    except NumericError as err:          # weights or α beyond float32's range: refused, one line
        assert dtype == "float32" and "beyond the float32 range" in str(err) or "rounds to 0" in str(err)
        return
    assert report.outcome in ("agree", "overflow", "underflow"), (report.summary, scale)
    _strict(json.dumps(report.to_dict()))


def test_evaluate_by_name_refuses_non_finite_too() -> None:
    bad = V.copy()
    bad[0, 0] = np.nan
    with pytest.raises(NumericError, match=r"^V has a non-finite value \(nan\) at index \(0, 0\)$"):
        evaluate("swiglu", X, Q=Q2, K=K2, V=bad)
