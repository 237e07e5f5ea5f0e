"""Speed and memory of `symcheck model` on a generated LLaMA-style BF16 model, in one run.

Writes a model of a realistic shape (default: d = 2048, m = 5632 as TinyLlama-1.1B, 4 of its
22 layers, BF16, sharded as save_pretrained does: ``bench_model_memory.write_model``), runs the
real command line in a child process (after a warm-up on layer 0 and the cached verdicts) and
prints three ratios measured in this one run:

* **time / (flops ÷ GEMM rate)**: the report's own elapsed time against the floating-point
  work it needs at the float64 GEMM rate measured here on one BLAS thread (what the report
  uses). The work per gated layer without biases, N rows: the two pre-activations X·gateᵀ
  and X·upᵀ, shared by f, the exchanged f, the rescaled f and the reference forward
  (4·N·m·d), and their four outputs through down (4 · 2·N·m·d): 12·N·m·d. Target ≤ 1.5.
  The same ratio in CPU time (the child's process time against the GEMM's, best of three)
  follows it: on a machine shared with other work, elapsed time also measures the others.
* **time / PyTorch float64 route**: what a PyTorch user would write for the same three
  figures: safetensors' ``safe_open`` per layer, the BF16 weights widened to float64, f, the
  exchanged f and the rescaled f as three forwards, with torch's own threads. Target ≤ 0.8.
* **peak extra resident memory / --memory** (as ``bench_model_memory.py`` measures it).

    python benchmarks/bench_model.py [--layers 4] [--d 2048] [--m 5632] [--tokens 64] [--memory 256MiB]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_model_memory import _run, write_model  # noqa: E402

TIME_TARGET, TORCH_TARGET, MEMORY_TARGET = 1.5, 0.8, 1.0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--d", type=int, default=2048)
    parser.add_argument("--m", type=int, default=5632)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--memory", default="256MiB")
    parser.add_argument("--dir", default=None, help="where to write the model (default: a temp dir)")
    return parser.parse_args()


def gemm_rate(n: int, d: int, m: int, repeats: int = 3) -> tuple[float, float]:
    """float64 flops per second of X (n × d) · W (d × m) on one BLAS thread, best of
    ``repeats``: by elapsed time, and by this process's CPU time."""
    from threadpoolctl import threadpool_limits
    rng = np.random.default_rng(0)
    X, W = rng.standard_normal((n, d)), rng.standard_normal((d, m))
    best = best_cpu = float("inf")
    with threadpool_limits(limits=1, user_api="blas"):
        for _ in range(repeats):
            started, cpu = time.perf_counter(), time.process_time()
            X @ W
            best = min(best, time.perf_counter() - started)
            best_cpu = min(best_cpu, time.process_time() - cpu)
    return 2.0 * n * d * m / best, 2.0 * n * d * m / best_cpu


def torch_route(directory: Path, layers: int, X: np.ndarray) -> float:
    """Seconds for the three figures of every layer as a PyTorch user computes them."""
    import json

    import torch
    from safetensors import safe_open
    index = json.loads((directory / "model.safetensors.index.json").read_text())["weight_map"]
    x = torch.from_numpy(X)
    started = time.perf_counter()
    for i in range(layers):
        names = {p: f"model.layers.{i}.mlp.{p}.weight" for p in ("gate_proj", "up_proj", "down_proj")}
        weights = {}
        for p, name in names.items():
            with safe_open(str(directory / index[name]), framework="pt") as f:
                weights[p] = f.get_tensor(name).to(torch.float64)
        gate, up, down = weights["gate_proj"], weights["up_proj"], weights["down_proj"]
        f0 = (torch.nn.functional.silu(x @ gate.T) * (x @ up.T)) @ down.T
        swapped = (torch.nn.functional.silu(x @ up.T) * (x @ gate.T)) @ down.T
        scaled = (torch.nn.functional.silu(x @ gate.T) * (x @ (2 * up).T)) @ (down / 2).T
        float(torch.linalg.norm(swapped - f0) / torch.linalg.norm(f0))
        float(torch.linalg.norm(scaled - f0) / torch.linalg.norm(f0))
    return time.perf_counter() - started


def main() -> None:
    args = _arguments()
    from symcheck.numeric.planner import parse_memory, size_text
    memory = parse_memory(args.memory)
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="symcheck-bench-model-"))
    directory = base / "llama-bench"
    try:
        total = write_model(directory, args.d, args.m, args.layers, 10**9)
        print(f"model: LLaMA-style, {args.layers} layers, d = {args.d}, m = {args.m}, BF16, "
              f"{total / 1e9:.2f} GB; {args.tokens} input rows; --memory {size_text(memory)}")
        run_args = argparse.Namespace(memory=args.memory, tokens=args.tokens)
        measured, report, _ = _run(directory, run_args, "rss")
        elapsed = report["elapsed"]
        rate, cpu_rate = gemm_rate(args.tokens, args.d, args.m)
        flops = 12 * args.tokens * args.m * args.d * args.layers
        ideal = flops / rate
        X = np.random.default_rng(0).standard_normal((args.tokens, args.d))
        torch_seconds = torch_route(directory, args.layers, X)
        extra = measured["hwm"] - measured["baseline"]
        print(f"symcheck model: {elapsed:.2f} s (the report's own time, after a warm-up)")
        print(f"GEMM rate (float64, one BLAS thread): {rate / 1e9:.2f} GFLOP/s; the report needs "
              f"{flops / 1e9:.1f} GFLOP = {ideal:.2f} s at that rate")
        print(f"  time / (flops ÷ GEMM rate) = {elapsed / ideal:.2f} (target ≤ {TIME_TARGET})")
        print(f"  in CPU time: {measured['cpu']:.2f} s against {flops / cpu_rate:.2f} s at "
              f"{cpu_rate / 1e9:.2f} GFLOP/s: {measured['cpu'] / (flops / cpu_rate):.2f}")
        print(f"PyTorch float64 route: {torch_seconds:.2f} s")
        print(f"  time / PyTorch float64 route = {elapsed / torch_seconds:.2f} (target ≤ {TORCH_TARGET})")
        print(f"peak extra resident memory: {size_text(extra)}")
        print(f"  peak memory / --memory = {extra / memory:.3f} (target ≤ {MEMORY_TARGET})")
    finally:
        if args.dir is None:
            shutil.rmtree(base, ignore_errors=True)
        else:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
