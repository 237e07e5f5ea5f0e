"""Proof steps in rich and plain text: the step's formula printed by symcheck.output.text (one
notation with the tables: max(0, z), e^(−z), −2, a case a line), never SymPy's input syntax, and
never split across lines at 80 columns; the JSON keeps today's strings."""
from __future__ import annotations

import io
import re

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import symcheck as sc
from symcheck.core import formula as f
from symcheck.core.printing import text as sympy_text
from symcheck.output.text import lines, statement

Z = sympy.Symbol("z")
R_OF_Z = f.Apply(sympy.Symbol("r"), (Z,))
#: SymPy's input syntax, which a statement shown to people never contains
RAW = re.compile(r"\*\*|\bAbs\(|\bsqrt\(|\bMax\(|\bMin\(|\bexp\(|\bPiecewise\(|\bEq\(|\bTrue\b|\bsigma\b|\balpha\b|\*|"
                 r"(?<![\w)])-\d")


def _printed(value, width: int = 80) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(value)
    return console.export_text()


CHECKS = [("relu", "positive"), ("relu", None), ("silu", None), ("silu", "positive"), ("z*tanh(z)", -1),
          ("Max(z, z/5)", "any"), ("elu", "positive")]


@pytest.fixture(scope="module", params=CHECKS, ids=[f"{a}-{d}" for a, d in CHECKS])
def result(request):
    act, domain = request.param
    return sc.check_exchange(act) if domain is None else sc.check_inverse_scaling(act, domain)


def test_every_step_reads_in_one_notation(result) -> None:
    for step in result.steps:
        assert RAW.search(step.text) is None, (step.title, step.text)


def test_rich_and_plain_show_the_printed_formula_whole_at_80_columns(result) -> None:
    """Each line of each statement is on one line of the output: in the table, or in the list a
    table becomes when a formula cannot fit its column (one wider than the panel excepted)."""
    shown, plain = _printed(result, 80), str(result)
    for step in result.steps:
        for line in step.text.splitlines():
            assert line.strip() in plain
            if len(line) <= 80 - 6:
                assert any(line.strip() in row for row in shown.splitlines()), (step.title, line, shown)
    body = "\n".join(shown.splitlines()[1:] + plain.splitlines()[1:])  # the titles name σ as typed
    assert "Piecewise(" not in body and "Max(" not in body


def test_the_json_keeps_sympys_strings(result) -> None:
    """The JSON's statements are the engine's strings (SymPy's syntax), not the text's."""
    data = result.to_dict()
    assert [s["statement"] for s in data["steps"]] == [s.statement for s in result.steps]
    residual = next((s for s in result.steps if s.title == "Residual"), None)
    if residual is not None:
        assert residual.statement == f"r(z) = {sympy_text(result.residual)}"
        assert residual.text.startswith("r(z) = ")
        assert RAW.search(residual.statement) is None or residual.text != residual.statement


def test_a_piecewise_residual_is_a_case_a_line() -> None:
    result = sc.check_inverse_scaling("relu", "positive")
    residual = next(s for s in result.steps if s.title == "Residual")
    shown = residual.text.splitlines()
    assert len(shown) == len(result.residual.args) == 3
    assert shown[0].startswith("r(z) = ⎧ ") and shown[-1].lstrip().startswith("⎩ ")
    assert len({line.index("⎧" if i == 0 else "⎨" if i == 1 else "⎩") for i, line in enumerate(shown)}) == 1
    assert len({line.index(" if " if "if" in line else " otherwise") + 1 for line in shown}) == 1  # aligned
    assert "max(0, z)" in shown[0] and shown[-1].endswith("otherwise")


def test_the_subtitle_and_the_catalogue_print_sigma_in_the_same_notation() -> None:
    shown = _printed(sc.check_exchange("relu"), 100)
    assert "σ(z) = max(0, z)" in shown and "Max(z, 0)" not in shown
    assert "σ(z) = λ·{z if z > 0; α·(e^z − 1) otherwise}" in _printed(sc.check_exchange("selu"), 120)


@pytest.mark.slow
def test_an_audit_witness_is_never_split() -> None:
    """At 80 columns the basis column is narrow: rich's wrapping put ``α`` and ``= -2`` on two lines."""
    audit = sc.audit("relu")
    shown = _printed(audit, 80)
    for row in audit.rows:
        for key, value in (row.witness or {}).items():
            coordinate = f"{statement(sympy.Symbol(key))} = {statement(value)}"
            assert any(coordinate in line for line in shown.splitlines()), (coordinate, shown)


_LEAVES = st.sampled_from([Z, sympy.Integer(-2), sympy.Rational(-1, 2), sympy.Max(0, Z), sympy.exp(-Z),
                           sympy.Abs(Z), sympy.sqrt(2), Z**2])


@st.composite
def _expressions(draw, depth: int = 2):
    if depth == 0 or draw(st.booleans()):
        return draw(_LEAVES)
    left, right = draw(_expressions(depth - 1)), draw(_expressions(depth - 1))
    return draw(st.sampled_from([left + right, left * right, left - right]))


@settings(max_examples=60, deadline=None)
@given(st.lists(_expressions(), min_size=1, max_size=4))
def test_a_definition_by_cases_has_one_line_per_case_and_no_raw_syntax(values) -> None:
    conditions = [Z > k for k in range(len(values) - 1)] + [sympy.true]
    pieces = tuple(zip(values, conditions, strict=True))
    expr = sympy.Piecewise(*pieces) if len(pieces) > 1 else values[0]
    shown = lines(f.Relation(f.Rel.EQ, R_OF_Z, expr))
    cases = len(expr.args) if isinstance(expr, sympy.Piecewise) else 1  # SymPy may merge equal pieces
    assert len(shown) == (cases if cases > 1 else 1)
    for line in shown:
        assert RAW.search(line) is None, line
