"""The documentation site builds with `mkdocs build --strict`, and its two references are whole:
every command of the command line is in the CLI reference, every public name of `symcheck` in
the API reference. A new command or name without documentation fails here."""
from __future__ import annotations

import importlib
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

import symcheck
from symcheck.cli import cli

from support import ROOT, invoke_cli

DOCS = ROOT / "docs"
API_PAGE = DOCS / "reference" / "api.md"
#: a mkdocstrings directive: `::: dotted.path` alone on a line
DIRECTIVE = re.compile(r"^::: ([\w.]+)\s*$", re.MULTILINE)
#: a page's example of a command with what it prints: a fenced block opening with `$ symcheck …`
EXAMPLE = re.compile(r"^```\n\$ (symcheck [^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _tools_missing() -> str | None:
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python", "mkdocs_click"):
        try:
            importlib.import_module(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[docs]')"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = _tools_missing()
    if missing:
        pytest.skip(missing)
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stderr[-4000:]}"
    return out


def documented(path: str) -> tuple[str, object]:
    """The object a directive names: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return parts[-1], value
    raise AssertionError(f"{path}: no importable module")


def test_every_command_is_in_the_cli_reference(site: Path) -> None:
    page = (site / "reference" / "cli" / "index.html").read_text()
    commands = cli.list_commands(click.Context(cli))
    assert commands, "the command group lists no command"
    missing = [name for name in commands if f'id="symcheck-{name}"' not in page]
    assert not missing, f"commands missing from the CLI reference: {missing}"


def test_every_public_name_is_in_the_api_reference(site: Path) -> None:
    directives = DIRECTIVE.findall(API_PAGE.read_text())
    page = (site / "reference" / "api" / "index.html").read_text()
    rendered = [path for path in directives if f'id="{path}"' in page]
    assert rendered == directives, f"not rendered: {sorted(set(directives) - set(rendered))}"
    missing = undocumented(directives)
    assert not missing, f"public names missing from docs/reference/api.md: {missing}"


def undocumented(directives: list[str]) -> list[str]:
    """Public names no directive documents. A name counts when a directive of the same name
    reaches the very object the package root exports (not merely a namesake elsewhere)."""
    by_name: dict[str, list[object]] = {}
    for path in directives:
        name, value = documented(path)
        by_name.setdefault(name, []).append(value)
    return [name for name in symcheck.__all__
            if not any(value is getattr(symcheck, name) for value in by_name.get(name, []))]


def test_a_missing_or_wrong_directive_is_noticed() -> None:
    directives = DIRECTIVE.findall(API_PAGE.read_text())
    assert undocumented(directives) == []
    assert undocumented([p for p in directives if p != "symcheck.engine.symmetries.check_exchange"]) \
        == ["check_exchange"]
    # the kernel's `check` is a namesake of the public `check`, not the same function
    namesake = ["symcheck.kernel.check.check" if p == "symcheck.engine.symmetries.check" else p for p in directives]
    assert undocumented(namesake) == ["check"]


def test_every_page_is_in_the_navigation() -> None:
    """mkdocs only reports a page left out of nav at INFO level, which --strict lets through."""
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    missing = [page for page in pages if f": {page}" not in nav]
    assert not missing, f"pages not in mkdocs.yml's nav: {missing}"


def test_every_whole_example_is_what_the_command_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's example output (copied from the README, or written for the site) goes stale
    when the command's output changes. Left alone: an excerpt (with `...`) and an error shown
    for input files the page does not ship."""
    monkeypatch.setenv("COLUMNS", "100")  # the width the examples were made at
    checked = 0
    for page in sorted(DOCS.rglob("*.md")):
        for command, shown in EXAMPLE.findall(page.read_text(encoding="utf-8")):
            if "..." in shown or shown.startswith("Error:"):
                continue
            code, out, err = invoke_cli(*shlex.split(command)[1:])
            assert (code, out) == (0, shown), f"{page.name}: {command}\n{err}"
            checked += 1
    assert checked, "no page shows a whole example (the pattern may have stopped matching)"
