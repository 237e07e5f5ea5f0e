"""Peak extra memory of `symcheck model` on a generated model of a few GB, against --memory.

Writes a LLaMA-style checkpoint into a temporary directory (config.json and BF16 safetensors
shards with an index, as save_pretrained lays them out; the MLP tensors only, random normal
values of scale 0.02), then runs the real command line, ``symcheck model DIR --memory M
--json``, in a child process and prints:

* the checkpoint's size on disk, and how many times --memory it is;
* the **peak extra resident memory**: the child's peak RSS (``VmHWM``, reset to the current
  RSS just before the command runs, through ``/proc/self/clear_refs``) minus its RSS at that
  moment, after a warm-up run on layer 0 (imports, σ, the BLAS's buffers) and the symbolic
  verdicts (bounded by --timeout, not --memory) — everything the command adds while it
  streams the model: NumPy arrays, Python objects, and the file pages it has mapped; its
  **ratio to --memory** — target ≤ 1;
* with ``--tracemalloc``, a second run's tracemalloc peak (allocations only, no file pages);
* the wall time and the layers' figures (the exchange defect per layer, the largest
  rescaling residual and relative error).

Linux only (``/proc``). The model is deleted afterwards unless ``--keep`` is given.

    python benchmarks/bench_model_memory.py [--gb 3] [--memory 64MiB] [--tokens 128] [--tracemalloc]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.0

CHILD = textwrap.dedent("""
    import gc, json, sys, tracemalloc
    from symcheck.cli import main
    from symcheck.core.budget import DEFAULT_TIMEOUT
    from symcheck.language.activations import activation
    from symcheck.numeric.model_report import layer_verdicts
    import symcheck.output.render  # noqa: F401  (the renderers, imported by a table run anyway)

    def status(key):
        for line in open("/proc/self/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
        raise KeyError(key)

    out, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    layer_verdicts(activation("silu"), "gated", DEFAULT_TIMEOUT)   # the one symbolic step, cached
    # warm-up on the first layer: lazy imports, σ compiled, the BLAS's own buffers touched
    model_at = args.index("model") + 1
    warm = args[:model_at + 1] + ["--layers", "0"] + args[model_at + 1:]
    try:
        import contextlib, io
        with contextlib.redirect_stdout(io.StringIO()):
            main(warm)
    except SystemExit as stop:
        if stop.code:
            raise
    gc.collect()
    if mode == "tracemalloc":
        tracemalloc.start()
    baseline = status("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")           # VmHWM := VmRSS: the peak from here on
        reset = True
    except OSError:
        reset = False
    import time
    cpu = time.process_time()
    try:
        main(args)
    except SystemExit as stop:
        if stop.code:
            raise
    result = {"baseline": baseline, "hwm": status("VmHWM"), "reset": reset, "cpu": time.process_time() - cpu}
    if mode == "tracemalloc":
        result["tracemalloc"] = tracemalloc.get_traced_memory()[1]
    with open(out, "w") as f:
        json.dump(result, f)
""")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gb", type=float, default=3.0, help="approximate checkpoint size in GB")
    parser.add_argument("--d", type=int, default=2048, help="hidden size")
    parser.add_argument("--m", type=int, default=8192, help="intermediate size")
    parser.add_argument("--memory", default="64MiB", help="the --memory given to symcheck model")
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--shard-gb", type=float, default=1.0, help="largest shard, in GB")
    parser.add_argument("--tracemalloc", action="store_true", help="also a run with tracemalloc")
    parser.add_argument("--keep", action="store_true", help="keep the generated model")
    parser.add_argument("--dir", default=None, help="where to write the model (default: a temp dir)")
    return parser.parse_args()


def _bf16(values: np.ndarray) -> bytes:
    bits = values.astype(np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2").tobytes()


def write_model(directory: Path, d: int, m: int, layers: int, shard_bytes: int) -> int:
    """The MLP tensors of a LLaMA model in BF16 shards; returns the bytes written."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.json").write_text(json.dumps({
        "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_act": "silu",
        "hidden_size": d, "intermediate_size": m, "num_hidden_layers": layers, "torch_dtype": "bfloat16"}))
    names = [(f"model.layers.{i}.mlp.{p}.weight", shape) for i in range(layers)
             for p, shape in (("gate_proj", (m, d)), ("up_proj", (m, d)), ("down_proj", (d, m)))]
    shards: list[list[tuple[str, tuple[int, int]]]] = [[]]
    size = 0
    for name, shape in names:
        nbytes = 2 * shape[0] * shape[1]
        if shards[-1] and size + nbytes > shard_bytes:
            shards.append([])
            size = 0
        shards[-1].append((name, shape))
        size += nbytes
    rng = np.random.default_rng(0)
    weight_map, total = {}, 0
    for s, shard in enumerate(shards):
        file = f"model-{s + 1:05d}-of-{len(shards):05d}.safetensors"
        header, offset = {}, 0
        for name, shape in shard:
            nbytes = 2 * shape[0] * shape[1]
            header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + nbytes]}
            offset += nbytes
        text = json.dumps(header).encode()
        text += b" " * (-len(text) % 8)
        with open(directory / file, "wb") as f:
            f.write(len(text).to_bytes(8, "little"))
            f.write(text)
            for name, shape in shard:
                for r0 in range(0, shape[0], 256):  # a few MB at a time
                    rows = min(256, shape[0] - r0)
                    f.write(_bf16(0.02 * rng.standard_normal((rows, shape[1]), dtype=np.float32)))
                weight_map[name] = file
        total += (directory / file).stat().st_size
    (directory / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}))
    return total


def _run(directory: Path, args: argparse.Namespace, mode: str) -> tuple[dict, dict, float]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        measured = Path(f.name)
    command = [sys.executable, "-c", CHILD, str(measured), mode, "model", str(directory), "--memory",
               args.memory, "--tokens", str(args.tokens), "--json"]
    started = time.perf_counter()
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if run.returncode != 0:
        sys.exit(f"symcheck model failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
    result = json.loads(measured.read_text())
    measured.unlink()
    return result, json.loads(run.stdout), elapsed


def main() -> None:
    args = _arguments()
    from symcheck.numeric.planner import parse_memory, size_text
    memory = parse_memory(args.memory)
    per_layer = 3 * 2 * args.d * args.m
    layers = max(1, math.ceil(args.gb * 1e9 / per_layer))
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="symcheck-bench-model-"))
    directory = base / "llama-bench"
    try:
        started = time.perf_counter()
        total = write_model(directory, args.d, args.m, layers, int(args.shard_gb * 1e9))
        shards = len(list(directory.glob("*.safetensors")))
        print(f"model: LLaMA-style, {layers} layers, d = {args.d}, m = {args.m}, BF16, {shards} shards, "
              f"{total / 1e9:.2f} GB on disk = {total / memory:.0f}× --memory {size_text(memory)} "
              f"(written in {time.perf_counter() - started:.0f} s)")
        result, report, elapsed = _run(directory, args, "rss")
        extra = result["hwm"] - result["baseline"]
        note = "" if result["reset"] else " (VmHWM could not be reset: the peak includes the warm-up)"
        print(f"symcheck model --memory {args.memory} --tokens {args.tokens}: {elapsed:.1f} s, "
              f"{len(report['layers'])} layers")
        print(f"  RSS after imports and verdicts: {size_text(result['baseline'])}; peak {size_text(result['hwm'])}")
        print(f"  peak extra resident memory: {size_text(extra)} = {extra / memory:.3f} of --memory "
              f"(target ≤ {TARGET}){note}")
        if args.tracemalloc:
            traced, _, traced_elapsed = _run(directory, args, "tracemalloc")
            print(f"  tracemalloc peak (allocations only, second run, {traced_elapsed:.1f} s): "
                  f"{size_text(traced['tracemalloc'])} = {traced['tracemalloc'] / memory:.3f} of --memory")
        defects = [layer["exchange_defect"] for layer in report["layers"]]
        print(f"  exchange defect by layer: min {min(defects):.3e}, max {max(defects):.3e}; largest rescaling "
              f"residual {max(layer['rescaling_residual'] for layer in report['layers']):.1e}; largest "
              f"error vs forward {max(layer['relative_error'] for layer in report['layers']):.1e}")
    finally:
        if args.keep:
            print(f"kept {directory}")
        elif args.dir is None:
            shutil.rmtree(base, ignore_errors=True)
        else:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    if not os.path.exists("/proc/self/status"):
        sys.exit("this benchmark reads /proc (Linux only)")
    main()
