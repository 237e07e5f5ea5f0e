"""Peak extra memory of `symcheck model` stays within --memory on a model several times larger.

Measured with tracemalloc (every NumPy array and Python object allocated while the report is
made; the weights' file pages are mapped, not allocated) in a fresh process, after one warm-up
run has imported everything and cached the symbolic verdicts (those are bounded by the time
budget, not by --memory). The assertion is a ratio, never a time."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from support import ROOT
from support.model_checkpoints import write_model

pytestmark = pytest.mark.slow  # among the heaviest files measured: left out of the quick run


PROGRAM = textwrap.dedent("""
    import json, sys, tracemalloc
    from symcheck.numeric.model_report import model_report
    path, memory = sys.argv[1], int(sys.argv[2])
    model_report(path, layers=[0], tokens=32, memory=memory)   # warm-up: imports, σ, verdicts
    tracemalloc.start()
    report = model_report(path, tokens=32, memory=memory)
    current, peak = tracemalloc.get_traced_memory()
    print(json.dumps({"peak": peak, "layers": len(report.layers)}))
""")


@pytest.mark.parametrize("arch,d,m,memory", [("llama", 96, 512, 384 * 1024), ("gpt2", 96, 768, 384 * 1024)])
def test_peak_extra_memory_stays_within_the_budget(tmp_path, arch, d, m, memory) -> None:
    write_model(tmp_path, arch, layers=6, d=d, m=m, dtype="BF16", shards=3)
    weights = sum(p.stat().st_size for p in tmp_path.glob("*.safetensors"))
    assert weights >= 4 * memory  # the model is several times the budget
    run = subprocess.run([sys.executable, "-c", PROGRAM, str(tmp_path), str(memory)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    measured = json.loads(run.stdout)
    assert measured["layers"] == 6
    assert measured["peak"] <= memory, f"peak {measured['peak']} B over the budget {memory} B"


@pytest.mark.parametrize("rows,d,m", [(128, 4096, 11008), (32, 96, 512), (7, 5, 3), (64, 2048, 8192)])
def test_a_larger_budget_never_cuts_smaller_and_no_cut_passes_its_budget(rows, d, m) -> None:
    from symcheck.numeric.model_report import cut
    previous = (0, 0)
    for memory in (2**k for k in range(16, 34)):
        try:
            plan = cut(rows, d, m, d, memory)
        except Exception:
            assert previous == (0, 0)  # only the smallest budgets may be refused
            continue
        assert plan.bytes <= memory
        assert plan.rows in range(1, rows + 1) and plan.units in range(1, m + 1)
        assert (plan.rows, plan.units) >= previous
        previous = (plan.rows, plan.units)
    assert previous == (rows, m)  # 8 GiB holds any of these layers whole
