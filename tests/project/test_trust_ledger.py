"""Every place a decision module asks SymPy for a sign, a zero test or a float is in the ledger.

SymPy's assumptions and its automatic evaluation decide the sign of a number from ``evalf`` at
a few digits (``log(1 + e^-30) − e^-30 + e^-60/2`` is "positive"), so in the layers that decide
(exact, language, engine, paper) such an answer may only propose, be exact algebra, or be an
identity for every real input. ``docs/trust-ledger.md`` lists each use, by module, function
and the name asked, with the reason it cannot make a verdict wrong. This test finds the uses
in the source and fails on one that is not listed, and on a listed one that is gone (a stale
entry would let the next one in unread).
"""
from __future__ import annotations

import ast
import re
from collections import Counter

from support import ROOT

PACKAGE = ROOT / "symcheck"
LEDGER = ROOT / "docs" / "trust-ledger.md"
DECISION_LAYERS = ("exact", "language", "engine", "paper")

#: attributes whose value is SymPy's opinion of a sign or a zero
ASKED_ATTRIBUTES = frozenset({
    "is_positive", "is_negative", "is_zero", "is_nonnegative", "is_nonpositive", "is_nonzero",
    "is_extended_positive", "is_extended_negative", "is_extended_nonnegative",
    "is_extended_nonpositive", "equals", "evalf",
})
#: functions whose result is a numerical guess when applied to a number
ASKED_CALLS = frozenset({"nsimplify"})


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_zero_literal(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)) or (
        isinstance(node, ast.Attribute) and node.attr == "Zero")


class _Finder(ast.NodeVisitor):
    """Collects (function, name) for every use, with the enclosing function's qualified name."""

    def __init__(self) -> None:
        self.scope: list[str] = []
        self.found: Counter[tuple[str, str]] = Counter()

    def _where(self) -> str:
        return ".".join(self.scope) or "<module>"

    def _scoped(self, node: ast.AST, name: str) -> None:
        self.scope.append(name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._scoped(node, node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in ASKED_ATTRIBUTES:
            self.found[(self._where(), node.attr)] += 1
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in ASKED_CALLS:
            self.found[(self._where(), node.func.id)] += 1
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        # simplify(x) == 0: SymPy's simplification reaching 0 read as a proof
        sides = [node.left, *node.comparators]
        if any(isinstance(s, ast.Call) and _name(s.func) == "simplify" for s in sides) and any(
                _is_zero_literal(s) for s in sides):
            self.found[(self._where(), "simplify==0")] += 1
        self.generic_visit(node)


def uses_in_source() -> dict[tuple[str, str, str], int]:
    found: dict[tuple[str, str, str], int] = {}
    for layer in DECISION_LAYERS:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            finder = _Finder()
            finder.visit(ast.parse(path.read_text(encoding="utf-8")))
            module = path.relative_to(ROOT).as_posix()
            for (function, name), count in finder.found.items():
                found[(module, function, name)] = count
    return found


_ROW = re.compile(r"^\|\s*`(?P<module>symcheck/[^`]+)`\s*\|\s*`(?P<function>[^`]+)`\s*\|\s*`(?P<name>[^`]+)`\s*\|"
                  r"\s*(?P<kind>proposal|exact|identity|display|numeric)\s*\|\s*(?P<why>.+?)\s*\|\s*$")


def ledger_entries() -> dict[tuple[str, str, str], tuple[str, str]]:
    entries: dict[tuple[str, str, str], tuple[str, str]] = {}
    for line in LEDGER.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match:
            key = (match["module"], match["function"], match["name"])
            assert key not in entries, f"ledger lists {key} twice"
            entries[key] = (match["kind"], match["why"])
    return entries


def test_the_ledger_parses() -> None:
    entries = ledger_entries()
    assert entries, "no rows read from docs/trust-ledger.md"
    for key, (_, why) in entries.items():
        assert len(why.split()) >= 6, f"{key}: say why it cannot make a verdict wrong"


def test_every_use_of_a_sympy_sign_is_in_the_ledger() -> None:
    missing = sorted(set(uses_in_source()) - set(ledger_entries()))
    assert not missing, "not in docs/trust-ledger.md:\n" + "\n".join(
        f"| `{m}` | `{f}` | `{n}` | proposal | … |" for m, f, n in missing)


def test_no_ledger_entry_is_stale() -> None:
    stale = sorted(set(ledger_entries()) - set(uses_in_source()))
    assert not stale, f"listed in docs/trust-ledger.md but no longer in the source: {stale}"


def test_the_finder_sees_each_kind_of_use() -> None:
    """The scanner itself: a slip in it (a name dropped from the list) would pass everything."""
    source = (
        "def f(x):\n"
        "    a = x.is_positive\n"
        "    b = simplify(x) == 0\n"
        "    c = nsimplify(x)\n"
        "    d = x.equals(0)\n"
        "    e = 0 == sympy.simplify(x)\n"
        "    return x.evalf(30)\n"
    )
    finder = _Finder()
    finder.visit(ast.parse(source))
    assert finder.found == Counter({("f", "is_positive"): 1, ("f", "simplify==0"): 2, ("f", "nsimplify"): 1,
                                    ("f", "equals"): 1, ("f", "evalf"): 1})
