"""The proof kernel's share of a command's time, measured in one run: target under a quarter.

Every ``holds``, group member and ``complete`` is re-checked by the independent kernel
(symcheck/kernel) before it is reported. This times the kernel's re-checks (every call of
``symcheck.kernel.check.check``, through which the emitter's certificates pass) against the
whole command, for each catalogue activation: exchange and inverse scaling (α > 0, α = −1,
α ≠ 0) on the gated form, and the symmetry group. SymPy's cache is cleared before each
command, as a fresh ``symcheck`` process starts with it empty; the interpreter's start-up is
measured once and added per command, as a user waits for it.

    python benchmarks/bench_kernel.py [--timeout S] [--only NAME ...]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from sympy.core.cache import clear_cache

import symcheck
from symcheck.engine.certificate import emit as certificate_emit
from symcheck.kernel import check as kernel_check
from symcheck.language.activations import CATALOGUE

TARGET = 0.25
COMMANDS: dict[str, Callable[[str, float], Any]] = {
    "exchange": lambda act, t: symcheck.check_exchange(act, timeout=t),
    "scaling α>0": lambda act, t: symcheck.check_inverse_scaling(act, "positive", timeout=t),
    "scaling α=−1": lambda act, t: symcheck.check_inverse_scaling(act, -1, timeout=t),
    "scaling α≠0": lambda act, t: symcheck.check_inverse_scaling(act, "any", timeout=t),
    "group": lambda act, t: symcheck.symmetry_group(act, timeout=t),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--only", nargs="*", default=None, help="catalogue names to run (default: all)")
    args = parser.parse_args()
    spent = [0.0]
    real = kernel_check.check

    def timed(certificate: Any) -> Any:
        started = time.perf_counter()
        try:
            return real(certificate)
        finally:
            spent[0] += time.perf_counter() - started

    # the emitter imported the name: patch it where it is looked up
    certificate_emit.check = timed  # type: ignore[assignment]
    kernel_check.check = timed  # type: ignore[assignment]
    total_kernel = total_command = 0.0
    commands = 0
    worst = (0.0, "")
    print(f"{'activation':<14}{'command':<15}{'command s':>10}{'kernel s':>10}{'share':>7}")
    for act in args.only or list(CATALOGUE):
        for name, run in COMMANDS.items():
            spent[0] = 0.0
            clear_cache()
            started = time.perf_counter()
            run(act, args.timeout)
            elapsed = time.perf_counter() - started
            commands += 1
            total_kernel += spent[0]
            total_command += elapsed
            share = spent[0] / elapsed if elapsed else 0.0
            worst = max(worst, (share, f"{act} {name}"))
            print(f"{act:<14}{name:<15}{elapsed:>10.3f}{spent[0]:>10.3f}{share:>7.2f}", flush=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import symcheck.engine.symmetries"], check=True)
    startup = time.perf_counter() - started
    in_process = total_kernel / total_command if total_command else 0.0
    per_process = total_kernel / (total_command + commands * startup) if commands else 0.0
    print(f"in-process: kernel {total_kernel:.2f} s of {total_command:.2f} s over {commands} commands: "
          f"share {in_process:.3f}; the largest single share {worst[0]:.2f} ({worst[1]})")
    verdict = "ok" if per_process <= TARGET else "MISSED"
    print(f"per `symcheck` command (start-up {startup:.2f} s measured): share {per_process:.3f} "
          f"(target ≤ {TARGET}) {verdict}")


if __name__ == "__main__":
    main()
