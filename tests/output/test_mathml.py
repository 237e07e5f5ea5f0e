"""MathML in HTML (symcheck.output.mathml): every formula a result shows in HTML is a <math>
element a browser lays out with no script and no network; LaTeX stays for _repr_latex_."""
from __future__ import annotations

from html import unescape as html_unescape
from html.parser import HTMLParser

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck as sc
from symcheck.core import formula as f
from symcheck.language.symbols import Z
from symcheck.output import formula_latex, mathml


class _MathChecker(HTMLParser):
    """Collects the <math> elements of an HTML text, with their tags balanced and their text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)  # an escaped &lt; is not a bare '<'
        self.stack: list[str] = []
        self.maths: list[str] = []      # the text of each <math>
        self.outside: list[str] = []    # the visible text outside <math>
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "math" and "math" in self.stack:
            self.errors.append("nested <math>")
        if tag == "math":
            self.maths.append("")
        if tag not in ("mspace", "br"):
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if "math" in self.stack:
            self.maths[-1] += data
            if "<" in data:
                self.errors.append(f"a bare '<' in math: {data!r}")
        else:
            self.outside.append(data)

    def handle_entityref(self, name: str) -> None:
        self._reference(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self._reference(f"&#{name};")

    def _reference(self, text: str) -> None:
        if "math" in self.stack:
            self.maths[-1] += html_unescape(text)
        else:
            self.outside.append(html_unescape(text))


def check_html(text: str) -> _MathChecker:
    checker = _MathChecker()
    checker.feed(text)
    checker.close()
    assert not checker.errors, checker.errors
    assert "math" not in checker.stack, checker.stack
    return checker


def test_every_formula_node_has_a_mathml_printer() -> None:
    nodes = {getattr(f, name) for name in f.__all__ if isinstance(getattr(f, name), type)}
    nodes = {n for n in nodes if issubclass(n, f.Formula) and n is not f.Formula}
    assert nodes <= set(mathml._PRINTERS)
    assert set(mathml._PRINTERS) == set(formula_latex._PRINTERS)


@pytest.mark.parametrize("build", [
    lambda: sc.check_exchange("silu"), lambda: sc.check_inverse_scaling("relu"),
    lambda: sc.check_inverse_scaling("tanh", -1), lambda: sc.check_exchange("Max(z, z/5)", "sigma(a)*b + sigma(b)*a"),
    lambda: sc.derive("rank1"), lambda: sc.audit("identity"), lambda: sc.symmetry_group("tanh"),
    lambda: sc.symmetry_group("relu").formulation_symmetries("gated"),
], ids=["exchange", "scaling", "odd", "custom", "derivation", "audit", "group", "formulation"])
def test_every_result_shows_its_formulas_as_mathml(build) -> None:
    item = build()
    html = item._repr_html_()
    checker = check_html(html)
    assert checker.maths, "no formula in MathML"
    visible = "".join(checker.outside)
    for raw in ("\\(", "\\[", "$", "\\frac", "\\sigma", "\\operatorname", "mfenced"):
        assert raw not in visible and raw not in html, raw
    assert "<script" not in html
    assert item._repr_latex_().startswith("$$")  # LaTeX stays for Jupyter's LaTeX and .tex


def test_a_check_shows_one_math_element_per_step() -> None:
    result = sc.check_inverse_scaling("relu")
    checker = check_html(result._repr_html_())
    with_formula = sum(1 for s in result.steps if s.formula is not None)
    # the title (α > 0, σ = relu), the definition, then one per step
    assert len(checker.maths) == 3 + with_formula


def test_piecewise_is_a_brace_of_cases_not_a_function_call() -> None:
    shown = mathml.element(sympy.Piecewise((Z, Z > 0), (0, True)))
    assert "piecewise" not in shown.lower() and shown.count("<mtr>") == 2
    assert "<mtext>otherwise</mtext>" in shown and "<mo>&gt;</mo>" in shown


def test_relations_are_escaped_and_sigma_is_greek() -> None:
    shown = mathml.element(sympy.Function("sigma")(Z) < 0)
    assert "<mo>&lt;</mo>" in shown and "&#963;" in shown and "sigma" not in shown
    node = mathml.element(f.Relation(f.Rel.LE, Z, sympy.S.Zero))
    assert "<mo>≤</mo>" in node


def test_catalogue_definitions_are_mathml() -> None:
    from symcheck.output.html import activation_definition
    for act in sc.catalogue():
        shown = activation_definition(act)
        checker = check_html(shown)
        assert len(checker.maths) == 1 and "piecewise" not in shown.lower(), act.name
        assert f">{act.name}</mi>" in shown


_LEAVES = st.sampled_from([Z, sympy.Integer(2), sympy.Rational(-1, 3), sympy.pi, sympy.Symbol("alpha")])
_UNARY = st.sampled_from([sympy.exp, sympy.tanh, sympy.Abs, sympy.erf, sympy.log, lambda x: sympy.Max(x, 0),
                          lambda x: sympy.Piecewise((x, x < 1), (-x, True)), sympy.Function("sigma")])


@st.composite
def _expressions(draw, depth: int = 3):
    if depth == 0 or draw(st.booleans()):
        return draw(_LEAVES)
    left = draw(_expressions(depth - 1))
    how = draw(st.sampled_from(["unary", "+", "*", "/", "**"]))
    if how == "unary":
        return draw(_UNARY)(left)
    right = draw(_expressions(depth - 1))
    return {"+": sympy.Add, "*": sympy.Mul, "/": lambda x, y: x / y if y != 0 else x,
            "**": lambda x, y: sympy.Pow(x, 2)}[how](left, right)


@settings(max_examples=60, deadline=None)
@given(_expressions(), st.booleans())
def test_any_expression_is_one_balanced_math_element(expr, relation: bool) -> None:
    expr = sympy.Lt(expr, 1, evaluate=False) if relation else expr
    shown = mathml.element(expr)
    checker = check_html(shown)
    assert len(checker.maths) == 1
    for symbol in expr.free_symbols:  # every variable is shown (α as its letter)
        assert {"z": "z", "alpha": "α"}[symbol.name] in checker.maths[0]


def test_hand_written_latex_becomes_mathml() -> None:
    shown = mathml.from_latex(r"\sigma(z) = \sigma(1)\,z \quad \forall z \in \mathbb{R}")
    checker = check_html(shown)
    assert len(checker.maths) == 1 and "σ" in checker.maths[0] and "\\" not in shown
