"""`symcheck --help`, `--version`, every command's `--help` and usage errors answer without
importing SymPy (the package's root and the command line import it lazily, inside the commands).

Measured by the interpreter itself (`python -X importtime`): a module imported at the top of the
root, of cli.py or of anything they import at start-up fails here, whoever adds it.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from symcheck.cli import cli

#: the heavy libraries a command loads only when it runs
HEAVY = ("sympy", "numpy", "flint", "rich", "matplotlib")


def _imported(*args: str) -> tuple[int, set[str]]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "symcheck", *args],
                          capture_output=True, text=True, timeout=120, check=False)
    modules = {m.group(1).split(".")[0] for m in re.finditer(r"^import time:.*\|\s*(\S+)$", done.stderr, re.MULTILINE)}
    return done.returncode, modules


@pytest.mark.parametrize("args", [("--help",), ("--version",), (), ("exchange",), ("frobnicate",),
                                  ("exchange", "--timeout", "nan", "--act", "relu"), ("catalogue", "--bogus")],
                         ids=["help", "version", "bare", "missing-option", "unknown-command", "bad-number",
                              "bad-option"])
def test_help_and_usage_errors_import_no_sympy(args: tuple[str, ...]) -> None:
    code, modules = _imported(*args)
    assert code in (0, 2), code
    assert "symcheck" in modules  # the measurement saw the package load
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_commands_help_imports_no_sympy(command: str) -> None:
    code, modules = _imported(command, "--help")
    assert code == 0 and not modules & set(HEAVY), (command, sorted(modules & set(HEAVY)))


def test_a_check_still_imports_sympy() -> None:
    """The measurement can fail: a command that runs does load SymPy."""
    code, modules = _imported("exchange", "--act", "relu", "--json")
    assert code == 0 and "sympy" in modules
