"""``python -m symcheck`` runs the same command line as ``symcheck``."""
from __future__ import annotations

import json
import subprocess
import sys


def test_python_dash_m_runs_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "symcheck", "scaling", "--act", "relu", "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "holds"


def test_python_dash_m_reports_bad_input_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "symcheck", "exchange", "--act", "nosuch"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1


def test_latex_refuses_to_write_source_into_a_pdf(tmp_path) -> None:
    target = tmp_path / "out.pdf"
    done = subprocess.run([sys.executable, "-m", "symcheck", "latex", "rank1", "-o", str(target)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and not target.exists()
    assert done.stderr.startswith("Error: ") and "name the file .tex" in done.stderr
