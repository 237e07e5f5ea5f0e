"""benchmarks/bench_numeric.py reports what its targets are about: the ratio to the machine's GEMM
rate and the side-by-side with the PyTorch routes (which must compute the same sum), no longer a
speed-up over per-unit loops. No timing is asserted: only what is printed and that it agrees."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from support import ROOT

SCRIPT = ROOT / "benchmarks" / "bench_numeric.py"


@pytest.fixture(scope="module")
def report() -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), "--small", "--repeat", "1", "--threads", "1"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_targets_are_the_gemm_ratio_torch_and_peak(report: str) -> None:
    assert re.search(r"^ratio to GEMM\s+\d+\.\d\d\s+≥ 0\.75", report, re.M), report
    assert re.search(r"^peak memory\s+\d+\.\d+ × \(inputs \+ budget\)\s+≤ 1\.1", report, re.M), report
    assert "20×" not in report and "speed-up" not in report and "per unit" not in report


@pytest.mark.slow
def test_torch_routes_are_timed_and_agree_with_symcheck(report: str) -> None:
    pytest.importorskip("torch", reason="the side-by-side needs torch (the 'torch' extra)")
    assert re.search(r"^time / best torch\s+\d+\.\d\d\s+≤ 0\.8", report, re.M), report
    for route in ("torch.einsum factor route", "torch.bmm kernel route"):
        line = next(l for l in report.splitlines() if l.startswith(route))
        assert "chunks of" in line
        agreement = float(re.search(r"agreement (\S+)", line)[1])
        assert agreement < 1e-12, line      # the same sum, to rounding
