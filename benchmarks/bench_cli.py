"""Wall-time ratios of the CLI against `python -c "import sympy"`, measured in one run.

Targets: `symcheck --help` ≤ 0.4× (help and usage errors import no SymPy), `symcheck exchange
--act silu` ≤ 2.0×, `symcheck catalog` ≤ 15×.
Absolute times mean little on a shared machine; the ratios are what to quote. symcheck's
bytecode is compiled first, as an install does: SymPy is read from its .pyc files, and with
PYTHONDONTWRITEBYTECODE set (as on the development machine) an editable checkout would
otherwise be compiled from source on every run (about 0.13 s, a third of the baseline).

    python benchmarks/bench_cli.py [--repeat N]
"""
from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import time

BASELINE = [sys.executable, "-c", "import sympy"]
COMMANDS = {
    "--help": [sys.executable, "-m", "symcheck", "--help"],
    "exchange --act silu": [sys.executable, "-m", "symcheck.cli", "exchange", "--act", "silu"],
    "catalog": [sys.executable, "-m", "symcheck.cli", "catalog"],
}
TARGETS = {"--help": 0.4, "exchange --act silu": 2.0, "catalog": 15.0}


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import symcheck  # only its location: the commands run in their own processes
    compileall.compile_dir(symcheck.__path__[0], quiet=1)
    names = ["import sympy", *COMMANDS]
    runs: dict[str, list[float]] = {name: [] for name in names}
    # interleave the commands so drifting machine load hits each of them alike
    for _ in range(args.repeat):
        runs["import sympy"].append(wall(BASELINE))
        for name, command in COMMANDS.items():
            runs[name].append(wall(command))
    base = statistics.median(runs["import sympy"])
    print(f"{'command':<24}{'median s':>10}{'ratio':>8}{'target':>8}")
    print(f"{'import sympy':<24}{base:>10.3f}{1.0:>8.2f}{'':>8}")
    for name in COMMANDS:
        median = statistics.median(runs[name])
        ratio = median / base
        verdict = "ok" if ratio <= TARGETS[name] else "MISSED"
        print(f"{name:<24}{median:>10.3f}{ratio:>8.2f}{TARGETS[name]:>7.1f}x {verdict}")


if __name__ == "__main__":
    main()
