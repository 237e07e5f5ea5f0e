"""Formulas as one line of Unicode text (symcheck.output.text): one notation per table — |a|,
a², (−1)ʲ·a, √2ʲ — never SymPy's input syntax (Abs(a), a**2, (-1)**j·a, (sqrt(2))^j)."""
from __future__ import annotations

import io
import re

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import symcheck as sc
from symcheck.output.text import formula

A, J, Z = sympy.symbols("a j z")
#: SymPy's input syntax, which a formula shown to people never contains
RAW = re.compile(r"\*\*|\bAbs\(|\bsqrt\(|\bMax\(|\bMin\(|\bexp\(|\bPiecewise\(|\bEq\(|\bsigma\b|\balpha\b|\*")


def _shown(value, width: int = 100) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(value)
    return console.export_text()


@pytest.mark.parametrize("expr, shown", [
    (sympy.Abs(A), "|a|"), (A**2, "a²"), ((-1)**J * A, "(−1)ʲ·a"), (A**-2, "1/a²"),
    (sympy.Max(0, Z) - Z, "−z + max(0, z)"), (Z / (1 + sympy.exp(-Z)), "z/(1 + e^(−z))"),
    (sympy.sqrt(Z + 1), "√(z + 1)"), (sympy.Rational(-1, 2) * A, "−a/2"), (A**sympy.Rational(3, 2), "a^(3/2)"),
    (sympy.Piecewise((Z, Z > 0), (0, True)), "{z if z > 0; 0 otherwise}"),
    (sympy.Function("sigma")(sympy.Symbol("alpha") * Z), "σ(α·z)"),
])
def test_formula(expr, shown: str) -> None:
    assert formula(expr) == shown


_ATOMS = st.sampled_from([A, Z, J, sympy.Integer(2), sympy.Integer(-3), sympy.Rational(1, 2), sympy.pi])


@st.composite
def _expressions(draw, depth: int = 3):
    if depth == 0 or draw(st.booleans()):
        return draw(_ATOMS)
    left, right = draw(_expressions(depth - 1)), draw(_expressions(depth - 1))
    how = draw(st.sampled_from(["abs", "max", "exp", "+", "*", "**", "sqrt"]))
    return {"abs": lambda: sympy.Abs(left), "max": lambda: sympy.Max(left, right), "exp": lambda: sympy.exp(left),
            "+": lambda: left + right, "*": lambda: left * right, "**": lambda: left ** draw(st.integers(2, 4)),
            "sqrt": lambda: sympy.sqrt(sympy.Abs(left))}[how]()  # real: Max needs comparable arguments


@settings(max_examples=80, deadline=None)
@given(_expressions())
def test_any_formula_is_one_line_in_one_notation(expr) -> None:
    shown = formula(expr)
    assert "\n" not in shown and RAW.search(shown) is None, shown
    assert shown.count("(") == shown.count(")") and shown.count("|") % 2 == 0


@pytest.mark.parametrize("spec, members", [
    ("Abs(z)", ["|a|"]), ("z**2", ["a²"]), ("Max(z, 0)**3", ["a³"]),
    ("Piecewise((z*cos(2*pi*log(Abs(z))/log(2)), Ne(z, 0)), (0, True))", ["(−1)ʲ·a", "±√2ʲ"]),
])
def test_group_tables_use_one_notation(spec: str, members: list[str]) -> None:
    """The members' table at several widths: the formulas as printed here, none in SymPy syntax."""
    group = sc.symmetry_group(spec)
    table = _shown(group, 100).split("Why there are no others")[0]
    for member in members:
        assert member in table
    for raw in ("Abs(", "**", "sqrt(", "(-1)", "^j"):
        assert raw not in table, raw


def test_a_users_activation_is_named_sigma() -> None:
    act = sc.activation("z*tanh(z)")
    assert str(act) == f"σ(z) = {act.parsed}"
    assert not str(act).startswith("z*tanh(z)(z)")
    assert str(sc.activation("silu")).startswith("silu(z) = ")
