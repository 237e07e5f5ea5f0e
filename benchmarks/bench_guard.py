"""The guard's share of a check's time, measured in one run: target about a tenth.

Before a proof is reported, a bounded certified search for a counterexample runs on the
original statement (symcheck/engine/guard.py). This times it against the whole check for every
catalogue activation and the statements that hold (inverse scaling over α > 0, α = −1,
α ≠ 0 on gated), and prints each share and the overall one. SymPy's cache is cleared before
each check, as a fresh `symcheck` process starts with it empty: the check's time is then the
work a user waits for (interpreter start-up excluded). ``--warm`` keeps the cache, the
harder case for the target (a check that repeats work already cached is very fast).

    python benchmarks/bench_guard.py [--timeout S]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

from sympy.core.cache import clear_cache

from symcheck.core.verdict import Verdict
from symcheck.engine import symmetries
from symcheck.language.activations import CATALOGUE

TARGET = 0.10
CHECKS = {
    "scaling α>0": lambda act, t: symmetries.check_inverse_scaling(act, "positive", timeout=t),
    "scaling α=−1": lambda act, t: symmetries.check_inverse_scaling(act, -1, timeout=t),
    "scaling α≠0": lambda act, t: symmetries.check_inverse_scaling(act, "any", timeout=t),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--warm", action="store_true", help="keep SymPy's cache between checks")
    args = parser.parse_args()
    spent = [0.0]
    real = symmetries.counterexample

    def timed(*a, **kw):
        started = time.perf_counter()
        try:
            return real(*a, **kw)
        finally:
            spent[0] += time.perf_counter() - started

    symmetries.counterexample = timed
    total_guard = total_check = 0.0
    holding = 0
    print(f"{'activation':<14}{'check':<16}{'check s':>9}{'guard s':>9}{'share':>7}")
    for act in CATALOGUE:
        for name, run in CHECKS.items():
            spent[0] = 0.0
            if not args.warm:
                clear_cache()
            started = time.perf_counter()
            result = run(act, args.timeout)
            elapsed = time.perf_counter() - started
            if result.verdict is not Verdict.HOLDS or spent[0] == 0.0:
                continue
            holding += 1
            total_guard += spent[0]
            total_check += elapsed
            print(f"{act:<14}{name:<16}{elapsed:>9.3f}{spent[0]:>9.3f}{spent[0] / elapsed:>7.2f}")
    share = total_guard / total_check if total_check else 0.0
    print(f"in-process: guard {total_guard:.2f} s of {total_check:.2f} s in checks that hold: "
          f"share {share:.3f} (the guard's floor is a few ms; these checks take 5-100 ms)")
    # what a user waits for: each check is a `symcheck` process, which first imports the engine
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import symcheck.engine.symmetries"], check=True)
    startup = time.perf_counter() - started
    checks = max(1, holding)
    per_process = total_guard / (total_check + checks * startup)
    verdict = "ok" if per_process <= TARGET else "MISSED"
    print(f"per `symcheck` command (start-up {startup:.2f} s measured): share {per_process:.3f} "
          f"(target ≤ {TARGET}) {verdict}")


if __name__ == "__main__":
    main()
