"""`symcheck equiv`'s time on a ≈ 1.5 GB LLaMA-shaped BF16 model, as ratios measured in one run.

Writes a LLaMA checkpoint into a temporary directory (the MLP tensors of TinyLlama's shape by
default, d = 2048, m = 5632, 22 layers, BF16 shards with an index: ``bench_model_memory``'s
writer), then B = g·A with ``symcheck transform`` (a random permutation and value-path scales
of both signs), and times, one after the other with the files in the page cache:

* **read** — one read of both checkpoints' bytes (what ``equiv`` cannot avoid touching);
* **equiv** — ``symcheck.numeric.equiv.equiv(A, B, memory=...)``, serial, one BLAS thread (the
  layer group, G_σ's proof, computed before and timed apart: it does not grow with the model);
* **torch** — the same work in PyTorch, one thread: per layer the three tensors of each model
  loaded whole (``safetensors.torch``) in float64, the rows' directions projected on the same
  random vectors, the same nearest-neighbour matching (SciPy), the scales by least squares and
  the residual |B − g·A| in units of BF16's rounding.

Each round times the three back to back (``--rounds``, default 2: the best of each counts, the
machine being shared). It prints the three times and the ratios equiv/read and equiv/torch, and
checks that both found g (the same permutation, every layer equivalent). The models are deleted
afterwards.

    python benchmarks/bench_equiv.py [--layers 22] [--d 2048] [--m 5632] [--memory 256MiB]
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_model_memory import write_model  # noqa: E402  (the same generated checkpoint)

PROJECTIONS = 8


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=22)
    parser.add_argument("--d", type=int, default=2048, help="hidden size")
    parser.add_argument("--m", type=int, default=5632, help="intermediate size")
    parser.add_argument("--memory", default="256MiB", help="equiv's --memory")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three timings (the best of each)")
    parser.add_argument("--dir", default=None, help="where to write the models (default: a temp dir)")
    return parser.parse_args()


def read_once(directories: list[Path]) -> int:
    """Read every safetensors file of the directories once; the bytes read."""
    buffer = bytearray(16 * 2**20)
    view, total = memoryview(buffer), 0
    for directory in directories:
        for file in sorted(directory.glob("*.safetensors")):
            with open(file, "rb", buffering=0) as f:
                while n := f.readinto(view):
                    total += n
    return total


def torch_equiv(a: Path, b: Path, layers: int, seed: int = 0) -> list[tuple[np.ndarray, float]]:
    """Per layer: the permutation and the residual, found as a PyTorch user would write it."""
    import torch
    from safetensors import safe_open
    from scipy.optimize import linear_sum_assignment
    from scipy.spatial import cKDTree

    def tensors(directory: Path) -> dict[str, str]:
        return json.loads((directory / "model.safetensors.index.json").read_text())["weight_map"]

    def load(directory: Path, where: dict[str, str], name: str) -> torch.Tensor:
        with safe_open(directory / where[name], framework="pt") as f:
            return f.get_tensor(name).to(torch.float64)

    wa, wb = tensors(a), tensors(b)
    out = []
    for i in range(layers):
        names = [f"model.layers.{i}.mlp.{p}.weight" for p in ("gate_proj", "up_proj", "down_proj")]
        A = [load(a, wa, n) for n in names]
        B = [load(b, wb, n) for n in names]
        A[2], B[2] = A[2].T.contiguous(), B[2].T.contiguous()  # units as rows
        rng = np.random.default_rng(seed)
        R = [torch.from_numpy(rng.standard_normal((t.shape[1], PROJECTIONS))) for t in A]

        def features(side: list[torch.Tensor], R: list[torch.Tensor] = R) -> np.ndarray:
            parts = [torch.nn.functional.normalize(t, dim=1) @ r for t, r in zip(side, R, strict=True)]
            return torch.cat([parts[0]] + [p.abs() for p in parts[1:]], dim=1).numpy()

        fa, fb = features(A), features(B)
        _, P = cKDTree(fa).query(fb, k=1)
        P = np.asarray(P)
        counts = np.bincount(P, minlength=len(P))
        clash = counts[P] != 1
        if clash.any():
            rows = np.flatnonzero(clash)
            free = np.setdiff1d(np.arange(len(P)), P[~clash])
            r, c = linear_sum_assignment(np.linalg.norm(fb[rows][:, None] - fa[free][None], axis=2))
            P[rows[r]] = free[c]
        index = torch.from_numpy(P)
        matched = [t[index] for t in A]
        lam = (matched[1] * B[1]).sum(1) / (matched[1] * matched[1]).sum(1)
        expected = [matched[0], matched[1] * lam[:, None], matched[2] / lam[:, None]]
        residual = max(float(((b_ - e_).abs() / (e_.abs().clamp_min(1.2e-38) * 2.0**-8)).max())
                       for b_, e_ in zip(B, expected, strict=True))
        out.append((P, residual))
    return out


def main() -> None:
    args = _arguments()
    import torch
    torch.set_num_threads(1)
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.equiv import equiv
    from symcheck.numeric.transform import layer_groups, transform

    root = Path(tempfile.mkdtemp(dir=args.dir, prefix="bench-equiv-"))
    try:
        a, b = root / "a", root / "b"
        started = time.perf_counter()
        size = write_model(a, args.d, args.m, args.layers, 2**30)
        rng = np.random.default_rng(1)
        P = rng.permutation(args.m)
        np.save(root / "P.npy", P)
        np.save(root / "l.npy", rng.uniform(0.5, 2, args.m) * rng.choice([-1.0, 1.0], args.m))
        transform(a, b, permute=str(root / "P.npy"), scale_value=str(root / "l.npy"), tokens=4)
        print(f"models: 2 × {size / 1e9:.2f} GB (d = {args.d}, m = {args.m}, {args.layers} layers, BF16), "
              f"written in {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        groups = layer_groups(open_model(a), 60)
        t_groups = time.perf_counter() - started

        times: dict[str, list[float]] = {"read": [], "equiv": [], "torch": []}
        for _ in range(args.rounds):  # the contenders back to back, each round; the best of each
            started = time.perf_counter()
            read = read_once([a, b])
            times["read"].append(time.perf_counter() - started)
            started = time.perf_counter()
            report = equiv(a, b, memory=args.memory, tokens=4, groups=groups)
            times["equiv"].append(time.perf_counter() - started)
            started = time.perf_counter()
            found = torch_equiv(a, b, args.layers)
            times["torch"].append(time.perf_counter() - started)
        t_read, t_equiv, t_torch = (min(times[k]) for k in ("read", "equiv", "torch"))

        assert report.verdict == "equivalent", str(report)
        assert all(layer.permutation == tuple(int(p) for p in P) for layer in report.layers)
        assert all(np.array_equal(p, P) and r <= 4 for p, r in found), [r for _, r in found]
        print(f"best of {args.rounds} rounds, each timing the three back to back")
        print(f"read once:  {t_read:8.2f} s  ({read / 1e9:.2f} GB, {read / t_read / 1e9:.2f} GB/s, page cache warm)")
        print(f"layer group:{t_groups:8.2f} s  (G_σ proved once per σ; not in equiv's time below)")
        print(f"equiv:      {t_equiv:8.2f} s  (--memory {args.memory}, serial, one BLAS thread)")
        print(f"torch:      {t_torch:8.2f} s  (whole tensors in float64, one thread)")
        print(f"equiv / read  = {t_equiv / t_read:.2f}")
        print(f"equiv / torch = {t_equiv / t_torch:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
