"""Every Python block of the README and of the documentation site's pages runs as written, each
on its own in a fresh interpreter (a reader pastes one block: a block that leans on an earlier
one's imports fails for them)."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from support import ROOT

#: the pages a reader reads examples on: the README and the site's own pages (the generated
#: references hold no examples of their own)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
BLOCKS = [(page.relative_to(ROOT).as_posix(), number, code)
          for page in PAGES
          for number, code in enumerate(PYTHON_BLOCK.findall(page.read_text(encoding="utf-8")), 1)]


def test_the_readme_and_the_site_have_python_examples() -> None:
    pages = {page for page, _, _ in BLOCKS}
    assert "README.md" in pages
    # the checks, the families, the groups, the derivations and the notebooks each show Python
    for page in ("getting-started", "families", "groups", "derivations", "reports"):
        assert f"docs/{page}.md" in pages, page


def test_the_block_pattern_finds_a_block() -> None:
    """A slip in the pattern (a missing newline, a greedy body) must not leave nothing to run."""
    text = "intro\n```python\nx = 1\n```\n\n```bash\nls\n```\n```python\ny = 2\n```\n"
    assert PYTHON_BLOCK.findall(text) == ["x = 1\n", "y = 2\n"]


@pytest.mark.slow
@pytest.mark.parametrize(("page", "number", "code"), BLOCKS, ids=[f"{p}#{n}" for p, n, _ in BLOCKS])
def test_each_python_block_runs_alone(page: str, number: int, code: str, tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, timeout=900)
    assert run.returncode == 0, f"{page} python block {number} failed:\n{code}\n{run.stderr[-2000:]}"


def _pytest_commands(text: str) -> list[list[str]]:
    """Every `python -m pytest …` / `python3 -m pytest …` line of a text, as its arguments."""
    return [shlex.split(line.split("#")[0])[3:] for line in re.findall(r"python3? -m pytest[^\n&|;]*", text)]


def test_ci_runs_the_readmes_test_command_and_the_quick_run_leaves_out_slow() -> None:
    readme = _pytest_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    ci = _pytest_commands((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert ci and ci[-1] in readme, f".ci/run runs pytest {ci[-1:]}, the README shows {readme}"
    assert any(args[i:i + 2] == ["-m", "not slow"] for args in readme for i in range(len(args))), \
        "the README shows no quick run"
    markers = " ".join(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"])
    assert markers.startswith("slow:") or " slow:" in markers
