"""Below the output layer nothing prints LaTeX: the engine builds formula trees
(:mod:`symcheck.core.formula`) and SymPy objects, and output/ prints them.

Read from the modules' syntax trees: a call of ``sympy.latex`` (or any ``latex(…)``), a
``LatexPrinter``, or a string literal holding a LaTeX command (``\\forall``, ``\\mathbb``,
``\\text{``, a ``\\,`` space …) outside a docstring is a finding.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from support import ROOT

PACKAGE = ROOT / "symcheck"
BELOW_OUTPUT = ("core", "exact", "language", "engine", "numeric", "paper")
#: a control word of two letters or more, or a control symbol LaTeX uses in formulas
COMMAND = re.compile(r"\\(?:[A-Za-z]{2,}|[,;:!{}|])")

#: modules allowed to hold LaTeX, and why: the paper's fixed formulas, typeset by hand as the
#: paper prints them (big brackets, sums with limits, bold block matrices), which no engine step
#: computes; a formula tree for them would be a second typesetting of the same text
EXCEPTIONS: dict[str, str] = {
    "language/layer_formulations.py": "each formulation's matrix formula, h = σ(xQᵀ) ⊙ (xKᵀ) …",
    "paper/derivations/absorb.py": "the derivations' step formulas, written beside their text",
    "paper/derivations/catalogue.py": "each derivation's statement, beside its text",
    "paper/derivations/gated.py": "the derivations' step formulas, written beside their text",
    "paper/derivations/mlp.py": "the derivations' step formulas, written beside their text",
    "paper/derivations/rank1.py": "the derivations' step formulas, written beside their text",
    "paper/derivations/rank_r.py": "the derivations' step formulas, written beside their text",
    "paper/targets.py": "the statements of the paper's results: prose with inline math",
}


def findings(source: str) -> list[str]:
    """Where ``source`` builds or prints LaTeX: 'line: what'."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            command = COMMAND.search(node.value)
            if command:
                found.append(f"{node.lineno}: a LaTeX string ({command.group()})")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "latex":
                found.append(f"{node.lineno}: a call of latex()")
        elif isinstance(node, ast.Name) and node.id == "LatexPrinter":
            found.append(f"{node.lineno}: a LatexPrinter")
        elif isinstance(node, ast.ImportFrom) and any(a.name in ("latex", "LatexPrinter") for a in node.names):
            found.append(f"{node.lineno}: imports a LaTeX printer")
    return sorted(set(found), key=lambda f: int(f.split(":")[0]))


def _modules() -> list[Path]:
    return sorted(p for layer in BELOW_OUTPUT for p in (PACKAGE / layer).rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


@pytest.mark.parametrize("path", _modules(), ids=_name)
def test_no_latex_below_output(path: Path) -> None:
    found = findings(path.read_text(encoding="utf-8"))
    if _name(path) in EXCEPTIONS:
        assert found, f"{_name(path)} holds no LaTeX any more: remove it from EXCEPTIONS"
        return
    assert found == [], f"{_name(path)} builds LaTeX:\n" + "\n".join(found)


@pytest.mark.parametrize("source, what", [
    ("import sympy\nx = sympy.latex(1)\n", "a call of latex()"),
    ("from sympy import latex\n", "imports a LaTeX printer"),
    ("s = r'\\forall z'\n", r"a LaTeX string (\forall)"),
    ("s = rf'{a} \\in \\mathbb{{R}}'\n", r"a LaTeX string (\in)"),
    ("s = r'\\sigma(1)\\,z'\n", r"a LaTeX string (\sigma)"),
    ("p = LatexPrinter()\n", "a LatexPrinter"),
])
def test_the_check_finds_latex(source: str, what: str) -> None:
    assert any(what in f for f in findings(source)), findings(source)


@pytest.mark.parametrize("source", [
    '"""A docstring may show \\\\forall z \\\\in \\\\mathbb{R}."""\n',
    "import re\nWORD = re.compile(r'\\b(sigma|alpha)\\b')\n",
    "s = 'for all z ∈ R: σ(z) = σ(1)·z'\n",
])
def test_the_check_passes_plain_code(source: str) -> None:
    assert findings(source) == []
