"""Throughput and memory of `symcheck.numeric.kernels.bilinear_attention`, measured in one run.

Bilinear attention ``Σ_j σ(x Q_j K_jᵀ xᵀ) v_j`` at N = 512, d = 256, m = 1024, r = 256, float64,
counted in the flops of the cheaper route (min(4·N·d·r, 2·d²·r + 2·N·d²) per unit). Printed:

* the machine's GEMM rate (NumPy's matmul, the BLAS symcheck calls; torch.mm's too when torch is
  installed) and symcheck's rate, and their **ratio** — target ≥ 0.75;
* with torch installed, the same sum as a PyTorch user writes it, chunked over units within the
  same memory budget, on the same threads, in float64: the **factor route** with ``torch.einsum``
  (``X·Q_j`` and ``X·K_j`` for a chunk of units, multiplied and summed over the rank) and the
  **kernel route** with ``torch.bmm`` (``M_j = Q_j K_jᵀ`` for a chunk, then ``X·M_j`` and a
  row-wise dot with X), each at its best chunk size; symcheck's **time over the best of them** —
  target ≤ 0.8;
* peak memory against inputs plus budget — target ≤ 1.1.

Every ratio is the median over rounds that time each contender back to back (GEMM block,
symcheck, the torch routes, GEMM block), so that drifting machine load hits both sides of each
ratio alike. Threads: the BLAS default (``--threads 0``), as a user gets it; ``--threads T`` pins
BLAS and torch to T threads for the whole run (``--threads 1``: one core each, the quieter
figure on a shared machine).

    python benchmarks/bench_numeric.py [--repeat N] [--threads T] [--memory 256MiB] [--act silu] [--small]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: σ as torch writes it, for the activations the comparison covers
_TORCH_SIGMA = {"silu": "silu", "gelu": "gelu", "relu": "relu", "tanh": "tanh", "sigmoid": "sigmoid"}
TARGET_GEMM, TARGET_TORCH, TARGET_PEAK = 0.75, 0.8, 1.1


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the ratios are their medians)")
    parser.add_argument("--threads", type=int, default=0, help="BLAS threads; 0 keeps the default")
    parser.add_argument("--memory", default="256MiB", help="the working-memory budget of every contender")
    parser.add_argument("--act", default="silu", choices=sorted(_TORCH_SIGMA))
    parser.add_argument("--small", action="store_true", help="a quick run at N=128, d=64, m=128, r=64")
    return parser.parse_args()


def _pin_threads(threads: int) -> None:
    """BLAS reads its thread count when NumPy is imported: re-run this script with it set."""
    if threads <= 0 or os.environ.get("SYMCHECK_BENCH_PINNED") == str(threads):
        return
    env = dict(os.environ, SYMCHECK_BENCH_PINNED=str(threads), **{v: str(threads) for v in _THREAD_VARIABLES})
    os.execve(sys.executable, [sys.executable, *sys.argv], env)


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def _torch_routes(torch, X, Q, K, V, act: str, budget: int) -> dict[str, Callable[[int], object]]:
    """What a PyTorch user writes, chunked over ``c`` units (the chunk a budget allows is
    computed by :func:`_torch_chunks`)."""
    sigma = getattr(torch.nn.functional, _TORCH_SIGMA[act]) if act != "tanh" else torch.tanh
    if act == "sigmoid":
        sigma = torch.sigmoid
    Xt, Qt, Kt, Vt = (torch.from_numpy(a) for a in (X, Q, K, V))
    m = Qt.shape[0]

    def einsum_factor(c: int, units: int = m):
        out = torch.zeros(Xt.shape[0], Vt.shape[1], dtype=torch.float64)
        for u in range(0, units, c):
            w = min(u + c, units)
            a = torch.einsum("nd,jdr->njr", Xt, Qt[u:w])
            b = torch.einsum("nd,jdr->njr", Xt, Kt[u:w])
            out += sigma((a * b).sum(-1)) @ Vt[u:w]
        return out

    def bmm_kernel(c: int, units: int = m):
        out = torch.zeros(Xt.shape[0], Vt.shape[1], dtype=torch.float64)
        for u in range(0, units, c):
            w = min(u + c, units)
            M = torch.bmm(Qt[u:w], Kt[u:w].transpose(1, 2))                # (c, d, d)
            P = torch.matmul(Xt, M)                                          # (c, N, d)
            out += sigma((P * Xt).sum(-1).T) @ Vt[u:w]
        return out

    return {"torch.einsum factor route": einsum_factor, "torch.bmm kernel route": bmm_kernel}


def _torch_chunks(name: str, N: int, d: int, r: int, m: int, budget: int) -> list[int]:
    """Chunk sizes (units) whose arrays fit the budget: the largest, and smaller ones (a
    cache-sized chunk can be faster), so each route is timed at its best."""
    per_unit = 8 * (2 * N * r + N if "factor" in name else d * d + 2 * N * d + N)
    largest = max(1, min(m, budget // per_unit))
    return sorted({c for c in (largest, largest // 2, largest // 4, 16, 64) if 1 <= c <= largest})


def _best_chunk(route: Callable[..., object], options: list[int], sample: int) -> int:
    """The chunk with the least time per unit computed (a last partial chunk still costs a whole one)."""
    return min(options, key=lambda c: _timed(lambda: route(c, sample)) / (-(-sample // c) * c))


def main() -> None:
    args = _arguments()
    _pin_threads(args.threads)

    import tracemalloc

    import numpy as np

    from symcheck.numeric import parallel
    from symcheck.numeric.kernels import bilinear_attention
    from symcheck.numeric.planner import bilinear_plan, parse_memory

    try:
        import torch
    except ImportError:
        torch = None
    threads = parallel.available()
    if torch is not None:
        torch.set_num_threads(threads)

    N, d, m, r = (128, 64, 128, 64) if args.small else (512, 256, 1024, 256)
    e = d
    budget = parse_memory(args.memory)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((N, d))
    scale = 1 / np.sqrt(d * np.sqrt(r))
    Q = rng.standard_normal((m, d, r)) * scale
    K = rng.standard_normal((m, d, r)) * scale
    V = rng.standard_normal((m, e)) / np.sqrt(m)
    inputs = X.nbytes + Q.nbytes + K.nbytes + V.nbytes

    # ---- peak memory first, while nothing else has grown the heap
    tracemalloc.start()
    tracemalloc.reset_peak()
    ours = bilinear_attention(X, Q, K, V, args.act, memory=budget)
    _, extra_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak_ratio = (inputs + extra_peak) / (inputs + budget)

    plan = bilinear_plan(N, d, m, e, r, budget, "float64", False, 0, None)
    counted = min(4 * N * d * r, 2 * d * d * r + 2 * N * d * d) * m

    def symcheck_call() -> object:
        return bilinear_attention(X, Q, K, V, args.act, memory=budget)

    # ---- the torch routes, each at its best chunk (chosen once, before the rounds, on a sample
    # of units: every unit costs the same)
    contenders: dict[str, Callable[[], object]] = {}
    agreement: dict[str, float] = {}
    chunks: dict[str, int] = {}
    if torch is not None:
        for name, route in _torch_routes(torch, X, Q, K, V, args.act, budget).items():
            options = _torch_chunks(name, N, d, r, m, budget)
            sample = min(m, 2 * max(options))
            best = _best_chunk(route, options, sample)
            chunks[name] = best
            contenders[name] = (lambda route=route, best=best: route(best))
            theirs = contenders[name]().numpy()
            agreement[name] = float(np.abs(theirs - ours).max() / np.abs(ours).max())

    # ---- GEMM blocks as long as one call, on either side of every round
    size = 2048 if not args.small else 512
    A, B = rng.standard_normal((size, size)), rng.standard_normal((size, size))
    block = max(1, round(_timed(symcheck_call) / _timed(lambda: A @ B)))

    def gemm_rate() -> float:
        return 2 * size**3 * block / _timed(lambda: [A @ B for _ in range(block)]) / 1e9

    torch_gemm: list[float] = []
    if torch is not None:
        At, Bt = torch.from_numpy(A), torch.from_numpy(B)

        def torch_gemm_rate() -> float:
            return 2 * size**3 * block / _timed(lambda: [At @ Bt for _ in range(block)]) / 1e9

    gemm_ratios, torch_ratios, gemm_rates, rates = [], [], [], []
    times: dict[str, list[float]] = {name: [] for name in ["symcheck", *contenders]}
    for _ in range(args.repeat):
        before = gemm_rate()
        times["symcheck"].append(_timed(symcheck_call))
        for name, call in contenders.items():
            times[name].append(_timed(call))
        after = gemm_rate()
        if torch is not None:
            torch_gemm.append(torch_gemm_rate())
        gemm_rates += [before, after]
        rates.append(counted / times["symcheck"][-1] / 1e9)
        gemm_ratios.append(rates[-1] / ((before + after) / 2))
        if contenders:
            torch_ratios.append(times["symcheck"][-1] / min(times[name][-1] for name in contenders))
    gemm_ratio = float(np.median(gemm_ratios))

    print(f"bilinear_attention at N={N}, d={d}, m={m}, r={r}, e={e}, σ = {args.act}, float64, "
          f"budget {budget / 2**20:.0f} MiB, threads: {threads}"
          + (" (the BLAS default)" if args.threads <= 0 else ""))
    print(f"  plan: {plan.describe()}; counted {counted / 1e9:.1f} GFLOP "
          f"(cheaper route: {'kernel' if counted < 4 * N * d * r * m else 'factor'})")
    rows = [
        ("numpy matmul (GEMM)", f"{max(gemm_rates):.1f} GFLOP/s", f"{size}×{size} @ {size}×{size}, best block", ""),
        *([("torch.mm (GEMM)", f"{max(torch_gemm):.1f} GFLOP/s", "same matrices, information", "")]
          if torch_gemm else []),
        ("symcheck", f"{max(rates):.1f} GFLOP/s", f"{min(times['symcheck']):.3f} s per call, best", ""),
        ("ratio to GEMM", f"{gemm_ratio:.2f}", f"≥ {TARGET_GEMM}", "ok" if gemm_ratio >= TARGET_GEMM else "MISSED"),
        ("  (per round)", " ".join(f"{x:.2f}" for x in gemm_ratios), "median of paired rounds", ""),
    ]
    for name in contenders:
        rows.append((name, f"{counted / min(times[name]) / 1e9:.1f} GFLOP/s",
                     f"{min(times[name]):.3f} s, chunks of {chunks[name]} units",
                     f"agreement {agreement[name]:.0e}"))
    if contenders:
        torch_ratio = float(np.median(torch_ratios))
        rows += [("time / best torch", f"{torch_ratio:.2f}", f"≤ {TARGET_TORCH}",
                  "ok" if torch_ratio <= TARGET_TORCH else "MISSED"),
                 ("  (per round)", " ".join(f"{x:.2f}" for x in torch_ratios), "median of paired rounds", "")]
    else:
        rows.append(("torch", "not installed", "pip install 'symcheck[torch]' for the side-by-side", ""))
    rows += [
        ("peak memory", f"{peak_ratio:.3f} × (inputs + budget)", f"≤ {TARGET_PEAK}",
         "ok" if peak_ratio <= TARGET_PEAK else "MISSED"),
        ("  (inputs, extra peak)", f"{inputs / 2**20:.0f} MiB, {extra_peak / 2**20:.1f} MiB",
         f"extra / budget = {extra_peak / budget:.2f}", ""),
    ]
    width = max(len(row[0]) for row in rows)
    for name, value, detail, verdict in rows:
        print(f"{name:<{width}}  {value:<30}{detail:<40}{verdict}")


if __name__ == "__main__":
    main()
