"""The layers a reader sees in the paths: every import goes to the same layer or one below.

Order, bottom to top: core → kernel → exact → language → engine → numeric → paper → output, then the
package root and cli.py, which may import anything. Imports inside functions count too.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "symcheck"
LAYERS = ("core", "kernel", "exact", "language", "engine", "numeric", "paper", "output")


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "symcheck" and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


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
        assert path.parent.name in LAYERS, path


@pytest.mark.parametrize("path", _modules(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_imports_never_go_up(path: Path) -> None:
    own = LAYERS.index(path.parent.name)
    for line, module in _imports(path):
        if module == "symcheck":
            pytest.fail(f"{path.parent.name}/{path.name}:{line} imports the package root")
        target = _layer(module)
        if target is not None:
            assert target <= own, (f"{path.parent.name}/{path.name}:{line} imports {module}, "
                                   f"a layer above {path.parent.name}")


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
