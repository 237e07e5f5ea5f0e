"""The kernel shares no decision code: it imports only the standard library, python-flint and
symcheck.core (plus itself). Every import statement counts, inside functions too."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from support import ROOT

KERNEL = ROOT / "symcheck" / "kernel"


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    return (top in sys.stdlib_module_names or top == "flint" or module == "symcheck.core"
            or module.startswith(("symcheck.core.", "symcheck.kernel")))


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("__import__", "import_module"):
            found.append((node.lineno, "<dynamic import>"))
    return found


def test_there_are_kernel_modules() -> None:
    assert len(list(KERNEL.glob("*.py"))) >= 5


@pytest.mark.parametrize("path", sorted(KERNEL.glob("*.py")), ids=lambda p: p.name)
def test_kernel_imports_only_stdlib_flint_and_core(path: Path) -> None:
    bad = [(line, m) for line, m in imports(path) if not allowed(m)]
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("module", ["sympy", "mpmath", "symcheck.exact.roots", "symcheck.engine.zero",
                                    "symcheck.language.parsing", "symcheck", ".tree", "numpy"])
def test_the_import_rule_can_fail(module: str) -> None:
    assert not allowed(module)


def test_the_scan_sees_imports_inside_functions(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("def f():\n    import sympy\n    __import__('mpmath')\n")
    assert [m for _, m in imports(f)] == ["sympy", "<dynamic import>"]
