"""The layers a reader sees in the paths: every import goes to the same layer or one below.

Order, bottom to top: core → kernel → exact → language → engine → numeric → paper → output, then the
package root and cli.py, which may import anything. Imports inside functions count too.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support import ROOT

PACKAGE = ROOT / "symcheck"
LAYERS = ("core", "kernel", "exact", "language", "engine", "numeric", "paper", "output")


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "symcheck" and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


def _layer_of(path: Path) -> str:
    """The layer a module sits in: its first folder under the package (a subpackage such as
    ``paper/derivations/`` belongs to its parent's layer)."""
    return path.relative_to(PACKAGE).parts[0]


def _shown(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}:{node.lineno}: a relative import hides the layer"
            found.append((node.lineno, node.module or ""))
    return found


def test_every_module_sits_in_a_layer() -> None:
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "cli.py", "__main__.py")]
    assert loose == [], f"modules outside the layers: {loose}"
    for path in _modules():
        assert _layer_of(path) in LAYERS, path


@pytest.mark.parametrize("path", _modules(), ids=_shown)
def test_imports_never_go_up(path: Path) -> None:
    own = LAYERS.index(_layer_of(path))
    for line, module in _imports(path):
        if module == "symcheck":
            pytest.fail(f"{_shown(path)}:{line} imports the package root")
        target = _layer(module)
        if target is not None:
            assert target <= own, f"{_shown(path)}:{line} imports {module}, a layer above {_layer_of(path)}"


def test_layer_packages_are_only_a_docstring() -> None:
    for layer in LAYERS:
        tree = ast.parse((PACKAGE / layer / "__init__.py").read_text(encoding="utf-8"))
        assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr), layer


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """Module → the package modules it imports, every import statement counted (inside
    functions and under TYPE_CHECKING too: a circle hidden there is still a circle)."""
    names = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name in names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    edges.add(target if target in names else node.module)
        graph[_module_name(path)] = {e for e in edges if e in names and e != "symcheck"}
    return graph


def test_no_import_circle_between_modules() -> None:
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circle = path[path.index(nxt):] + [nxt]
                pytest.fail("import circle: " + " -> ".join(circle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_the_circle_check_can_fail(monkeypatch) -> None:
    graph = {"symcheck.a.x": {"symcheck.a.y"}, "symcheck.a.y": {"symcheck.a.x"}}
    monkeypatch.setitem(globals(), "_graph", lambda: graph)
    with pytest.raises(pytest.fail.Exception, match="import circle: symcheck.a.x -> symcheck.a.y -> symcheck.a.x"):
        test_no_import_circle_between_modules()


# ---- private names stay in their module ------------------------------------------------------------

#: private names still imported from another module, each with why it is not public yet: the test
#: fails on any other one and on an entry no longer imported, so this list can only shrink (empty
#: since issue 24: every name used across modules is public where it lives)
PRIVATE_IMPORTS_PENDING: dict[tuple[str, str, str], str] = {}


def _private_imports(source: str, module: str) -> set[tuple[str, str, str]]:
    """(importing module, imported module, name) for each ``from symcheck.x import _name`` in
    ``source``, inside functions too; dunders are not private."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("symcheck"):
            found |= {(module, node.module or "", a.name) for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")}
    return found


def _all_private_imports() -> set[tuple[str, str, str]]:
    return {entry for path in PACKAGE.rglob("*.py")
            for entry in _private_imports(path.read_text(encoding="utf-8"), _module_name(path))}


def test_no_private_name_is_imported_from_another_module() -> None:
    found = _all_private_imports()
    new = sorted(found - PRIVATE_IMPORTS_PENDING.keys())
    assert not new, f"private names imported across modules (make them public where they live): {new}"
    stale = sorted(PRIVATE_IMPORTS_PENDING.keys() - found)
    assert not stale, f"no longer imported: drop them from PRIVATE_IMPORTS_PENDING: {stale}"


@pytest.mark.parametrize("source, found", [
    ("from symcheck.output.latex import _KIND, escape_text", {("m", "symcheck.output.latex", "_KIND")}),
    ("def f():\n    from symcheck.engine.symmetries import (\n        _fallback,\n    )",
     {("m", "symcheck.engine.symmetries", "_fallback")}),
    ("from symcheck.output.latex import __all__, escape_text", set()),
    ("from sympy.core import _sympify", set()),
])
def test_the_private_import_check_sees_every_form(source: str, found: set) -> None:
    assert _private_imports(source, "m") == found


def test_the_private_import_check_can_fail(monkeypatch) -> None:
    extra = ("symcheck.output.html", "symcheck.output.latex", "_KIND")
    monkeypatch.setitem(globals(), "_all_private_imports", lambda: set(PRIVATE_IMPORTS_PENDING) | {extra})
    with pytest.raises(AssertionError, match="_KIND"):
        test_no_private_name_is_imported_from_another_module()
    # an entry the code no longer imports (the table may be empty: add one to it)
    imported = set(PRIVATE_IMPORTS_PENDING)
    monkeypatch.setitem(globals(), "_all_private_imports", lambda: imported)
    monkeypatch.setitem(globals(), "PRIVATE_IMPORTS_PENDING", {**PRIVATE_IMPORTS_PENDING, extra: "a reason"})
    with pytest.raises(AssertionError, match="no longer imported"):
        test_no_private_name_is_imported_from_another_module()
