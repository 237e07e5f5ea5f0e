"""Every Python block of the README runs as written, each on its own in a fresh interpreter
(a reader pastes one block: a block that leans on an earlier one's imports fails for them)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S | re.M)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_python_block_runs_alone(index: int, tmp_path) -> None:
    run = subprocess.run([sys.executable, "-c", BLOCKS[index]], capture_output=True, text=True,
                         cwd=tmp_path, timeout=900)
    assert run.returncode == 0, f"README python block {index + 1} failed:\n{BLOCKS[index]}\n{run.stderr[-2000:]}"
