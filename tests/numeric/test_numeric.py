"""The heavy path: every layer form against a direct per-unit translation, chunked by memory."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import symcheck as sc
from symcheck.core.errors import NumericError
from symcheck.numeric.kernels import bilinear_attention, evaluate, gated, mlp, query_mlp, rank1, rank_r
from symcheck.numeric.planner import bilinear_plan, parse_memory, plan

RNG = np.random.default_rng(7)
N, D, M, R, E = 37, 11, 23, 3, 5
X = RNG.standard_normal((N, D))
Q3 = RNG.standard_normal((M, D, R)) / 3
K3 = RNG.standard_normal((M, D, R)) / 3
Q2, K2 = Q3[:, :, 0].copy(), K3[:, :, 0].copy()
V = RNG.standard_normal((M, E))
G = RNG.standard_normal((D, D)) / 3


def _direct(act: str, unit) -> np.ndarray:
    """Σ_j σ(unit_j(x)) v_j, one unit and one row at a time, as the formula reads."""
    sigma = sc.activation(act).to_numpy()
    out = np.zeros((N, E))
    for j in range(M):
        for n, x in enumerate(X):
            out[n] += unit(sigma, j, x) * V[j]
    return out


def _close(got: np.ndarray, want: np.ndarray, rtol: float = 1e-12) -> None:
    assert got.shape == want.shape
    assert np.linalg.norm(got - want) <= rtol * np.linalg.norm(want)


@pytest.mark.parametrize("route", ["factor", "kernel", None])
@pytest.mark.parametrize("memory", [10**9, 40_000, 9_000])
def test_bilinear_attention_matches_the_formula_whatever_the_chunking(route, memory) -> None:
    want = _direct("gelu", lambda s, j, x: s(x @ Q3[j] @ K3[j].T @ x))
    _close(bilinear_attention(X, Q3, K3, V, "gelu", route=route, memory=memory), want)


def test_the_cheaper_route_is_chosen_by_flops() -> None:
    # 4·N·d·r vs 2·d²·r + 2·N·d²: tall inputs with small rank go by factors, and vice versa
    assert plan("factor", 512, 256, 8, 1, 4).flops < plan("kernel", 512, 256, 8, 1, 4).flops
    tall = bilinear_plan(512, 256, 8, 1, 4, 2**30, np.dtype(float), False, 0, None, 1)
    wide = bilinear_plan(512, 256, 8, 1, 256, 2**30, np.dtype(float), False, 0, None, 1)
    assert (tall.route, wide.route) == ("factor", "kernel")


def test_progress_is_reported_per_chunk() -> None:
    labels: list[str] = []
    bilinear_attention(X, Q3, K3, V, "relu", memory=9_000, route="kernel", progress=labels.append)
    p = bilinear_plan(N, D, M, E, R, 9_000, np.dtype(float), False, 0, "kernel")
    assert len(labels) == p.steps > 1 and "units" in labels[0]


@pytest.mark.parametrize("m", [64, 512])
@pytest.mark.parametrize("threads", [1, 2])
def test_extra_memory_stays_within_the_budget_whatever_m_is(m: int, threads: int) -> None:
    rng = np.random.default_rng(0)
    d, r, n = 32, 16, 64
    Xm, Qm, Km, Vm = (rng.standard_normal(s) for s in [(n, d), (m, d, r), (m, d, r), (m, d)])
    budget = 400_000
    sc.activation("silu").to_numpy()   # compiled once and cached: not working memory
    for route in ("factor", "kernel"):
        tracemalloc.start()
        tracemalloc.reset_peak()
        bilinear_attention(Xm, Qm, Km, Vm, "silu", memory=budget, route=route, threads=threads)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak <= budget, (route, peak)


@pytest.mark.parametrize("route", ["factor", "kernel"])
@pytest.mark.parametrize("memory", [10**9, 9_000])
def test_threads_share_the_chunks_and_agree_with_one_thread(route, memory) -> None:
    one = bilinear_attention(X, Q3, K3, V, "gelu", route=route, memory=memory, threads=1)
    labels: list[str] = []
    two = bilinear_attention(X, Q3, K3, V, "gelu", route=route, memory=memory, threads=2,
                             progress=labels.append)
    _close(two, one, rtol=1e-13)
    p = bilinear_plan(N, D, M, E, R, memory, np.dtype(float), False, 0, route, 2)
    assert len(labels) == p.steps
    if p.chunks >= 2:      # both threads had work, each within half the budget
        assert p.workers == 2 and "on 2 threads" in p.describe() and p.bytes <= p.budget


def test_one_chunk_is_not_shared_and_bad_thread_counts_are_refused() -> None:
    assert bilinear_plan(N, D, M, E, R, 10**9, np.dtype(float), False, 0, "kernel", 4).workers == 1
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(NumericError, match="threads"):
            bilinear_attention(X, Q3, K3, V, "relu", threads=bad)


def test_float32_on_request_and_inputs_cast_chunk_by_chunk() -> None:
    y32 = bilinear_attention(X.astype(np.float16), Q3.astype(np.float16), K3.astype(np.float16), V,
                             "silu", dtype="float32")
    y64 = bilinear_attention(X.astype(np.float16), Q3.astype(np.float16), K3.astype(np.float16), V, "silu")
    assert y32.dtype == np.float32 and y64.dtype == np.float64
    _close(y32.astype(np.float64), y64, rtol=1e-5)


def test_rank_r_is_the_factor_route_and_one_row_is_one_row() -> None:
    _close(rank_r(X, Q3, K3, V, "tanh"), bilinear_attention(X, Q3, K3, V, "tanh", route="kernel"))
    assert bilinear_attention(X[0], Q3, K3, V, "tanh").shape == (E,)


def test_the_fast_paths_match_their_formulas() -> None:
    _close(rank1(X, Q2, K2, V, "silu", memory=3_000),
           _direct("silu", lambda s, j, x: s((x @ Q2[j]) * (x @ K2[j]))))
    _close(gated(X, Q2, K2, V, "silu", memory=3_000),
           _direct("silu", lambda s, j, x: s(x @ Q2[j]) * (x @ K2[j])))
    _close(mlp(X, K2, V, "relu"), _direct("relu", lambda s, j, x: s(x @ K2[j])))
    _close(query_mlp(X, G, K2, V, "gelu"), _direct("gelu", lambda s, j, x: s((x @ G) @ K2[j])))


def test_bilinear_with_rank_one_factors_is_the_rank1_form() -> None:
    _close(bilinear_attention(X, Q2[:, :, None], K2[:, :, None], V, "sigmoid", route="kernel"),
           rank1(X, Q2, K2, V, "sigmoid"))


@pytest.mark.parametrize("form, act, arrays", [
    ("gated", "relu", {"Q": Q2, "K": K2, "V": V}),
    ("swiglu", None, {"Q": Q2, "K": K2, "V": V}),
    ("rank1", "tanh", {"Q": Q2, "K": K2, "V": V}),
    ("mlp", "gelu", {"W1": K2, "W2": V}),
    ("query-mlp", "silu", {"Q_g": G, "K": K2, "V": V}),
    ("bilinear", "silu", {"Q": Q3, "K": K3, "V": V}),
    ("rank-r", "silu", {"Q": Q3, "K": K3, "V": V}),
])
def test_every_formulation_by_name(form, act, arrays) -> None:
    assert evaluate(form, X, act, **arrays).shape == (N, E)


def test_swiglu_is_gated_with_silu() -> None:
    _close(evaluate("swiglu", X, Q=Q2, K=K2, V=V), gated(X, Q2, K2, V, "silu"))
    with pytest.raises(NumericError, match="swiglu fixes σ = silu"):
        evaluate("swiglu", X, "relu", Q=Q2, K=K2, V=V)


@pytest.mark.parametrize("call, message", [
    (lambda: bilinear_attention(X, Q3, K3[:, :, :2], V, "relu"),
     r"K has shape \(23, 11, 2\); expected \(23, 11, 3\) like Q"),
    (lambda: bilinear_attention(X[:, :5], Q3, K3, V, "relu"), "Q has d \\(axis 1\\) = 11; expected 5"),
    (lambda: bilinear_attention(X, Q2, K2, V, "relu"), "Q has shape \\(23, 11\\); expected a 3-D array"),
    (lambda: gated(X, Q2, K2, V[:4], "relu"), "V has m \\(axis 0\\) = 4; expected 23"),
    (lambda: gated(X.astype(complex), Q2, K2, V, "relu"), "X has dtype complex128; expected real numbers"),
    (lambda: bilinear_attention(X, Q3, K3, V, "relu", memory=100), "the memory budget 100 B is too small"),
    (lambda: bilinear_attention(X, Q3, K3, V, "relu", route="fast"), "unknown route 'fast'"),
    (lambda: gated(X, Q2, K2, V, "relu", dtype="float16"), "dtype must be float64 or float32"),
])
def test_bad_arrays_are_one_line_errors(call, message) -> None:
    with pytest.raises(sc.SymcheckError, match=message):
        call()


@pytest.mark.parametrize("text, size", [("256MiB", 256 * 2**20), ("256M", 256 * 2**20), ("1GB", 10**9),
                                        ("4096", 4096), (1e6, 10**6), ("1.5 kib", 1536)])
def test_memory_sizes(text, size) -> None:
    assert parse_memory(text) == size


@pytest.mark.parametrize("text", ["lots", "-5MB", "0", "12 parsecs"])
def test_bad_memory_sizes(text) -> None:
    with pytest.raises(NumericError, match="memory budget"):
        parse_memory(text)


def test_a_hand_written_sigmoid_at_huge_preactivations_on_two_threads() -> None:
    """x Q_j K_jᵀ xᵀ reaches ~1e4 here: exp(z)/(1 + exp(z)) overflows to inf/inf in floats and
    is recomputed (one rescue at a time, from either thread); it must equal the catalogue's."""
    rng = np.random.default_rng(3)
    Xh = rng.standard_normal((64, 16)) * 30
    Qh, Kh, Vh = rng.standard_normal((40, 16, 4)), rng.standard_normal((40, 16, 4)), rng.standard_normal((40, 8))
    by_hand = bilinear_attention(Xh, Qh, Kh, Vh, "exp(z)/(1 + exp(z))", memory=20_000, threads=2)
    assert bilinear_plan(64, 16, 40, 8, 4, 20_000, np.dtype(float), False, 0, None, 2).workers == 2
    _close(by_hand, bilinear_attention(Xh, Qh, Kh, Vh, "sigmoid", memory=20_000, threads=1), rtol=1e-14)
