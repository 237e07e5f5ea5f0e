"""The LaTeX printer of step formulas: every node has a printer, and each typesetting rule
prints what the steps have always shown."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.core import formula as f
from symcheck.core.results import Step
from symcheck.output import formula_latex
from symcheck.output.formula_latex import latex

z, a, b, alpha, sigma = sympy.symbols("z a b alpha sigma")


def _nodes() -> set[type]:
    found, todo = set(), [f.Formula]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if not sub.__name__.startswith("_"):
                found.add(sub)
    return found


def test_every_node_has_a_printer() -> None:
    assert _nodes() <= set(formula_latex._PRINTERS), _nodes() - set(formula_latex._PRINTERS)
    assert {n.__name__ for n in _nodes()} <= set(f.__all__)


@pytest.mark.parametrize("node, shown", [
    # juxtaposition: thin space next to a function's value, none after a numeral, a space between letters
    (f.Product((f.Apply(sigma, (S.One,)), z)), r"\sigma(1)\,z"),
    (f.Product((S(2), z)), "2z"),
    (f.Product((a, b)), "a b"),
    (f.Product((sympy.Symbol("lambda"), sympy.Symbol("mu"))), r"\lambda\mu"),
    (f.Product((sympy.Symbol("omega"), f.Operator("log", a))), r"\omega \log a"),
    (f.Product((S(3), f.Operator("cos", z))), r"3\cos z"),
    (f.Operator("sin", f.Paren(z)), r"\sin(z)"),
    (f.Operator("sign", a), r"\operatorname{sign} a"),
    (f.Apply("silu", (z,)), r"\operatorname{silu}(z)"),
    (f.Apply(sigma, (z,), side=-1), r"\sigma_-(z)"),
    # a map's image gives compound entries room; a plain tuple does not
    (f.Mapping(f.Tuple((a, b)), f.Tuple((alpha * a, f.Ratio(b, alpha)))), r"(a, b) \mapsto (a \alpha,\ b/\alpha)"),
    (f.Tuple((f.Ratio(S.One, a), b)), "(1/a, b)"),
    # relations chain to the left; an elided subject
    (f.Relation(f.Rel.EQ, f.Relation(f.Rel.EQ, a, b), S.Zero), "a = b = 0"),
    (f.Relation(f.Rel.APPROX, None, f.Numeral("0.5")), r"\approx 0.5"),
    (f.ForAll((z,), f.Relation(f.Rel.EQ, a, b)), r"\forall z:\ a = b"),
    (f.ForAll((z,), f.Relation(f.Rel.EQ, a, b), trailing=True, tight=True), r"a = b\ \forall z"),
    (f.Cases(((a, f.Relation(f.Rel.GT, z, S.Zero)), (S.Zero, f.Relation(f.Rel.LE, z, S.Zero)))),
     r"\begin{cases} a & z > 0\\ 0 & z \leq 0 \end{cases}"),
    (f.Interval(f.Numeral("1"), f.Numeral("2"), closed=True), r"[1,\ 2]"),
    (f.Interval(S.NegativeInfinity, S.Zero, closed=False), r"(-\infty, 0)"),
    (f.Indexed(sympy.Symbol("s"), 10), "s_10"),
    (f.Indexed(sympy.Symbol("v"), f.Apply(sympy.Symbol("pi"), (sympy.Symbol("j"),))), r"v_{\pi(j)}"),
    (f.Power(f.Paren(S(-2)), sympy.Symbol("j")), "(-2)^{j}"),
    (f.Power(S(2), sympy.Symbol("j"), grouped_base=True), "{2}^{j}"),
    (f.Lines((a,)), "a"),
    (f.Lines((a, b)), r"\begin{gathered}a \\ b\end{gathered}"),
    (f.MatrixProduct((a, f.Paren(b), f.Transposed(f.Paren(z)), f.Transposed(a, inverse=True))),
     r"a (b)(z)^{\top} a^{-\top}"),
])
def test_typesetting_rules(node: f.Formula, shown: str) -> None:
    assert latex(node) == shown


def test_a_long_number_is_shown_to_eight_digits() -> None:
    long = sympy.sqrt(2) * sympy.pi ** 40 / 3 ** 70 + sympy.exp(sympy.sqrt(3)) * sympy.log(7) ** 9
    assert len(sympy.latex(long)) > formula_latex.LONG
    assert latex(f.Abbreviated(long)).startswith(r"\approx ")
    assert latex(f.Abbreviated(a + 1)) == sympy.latex(a + 1)


def test_a_step_prints_its_formula_through_the_registry() -> None:
    step = Step("T", "a = b", f.Relation(f.Rel.EQ, a, b))
    assert step.latex == "a = b" and step.to_dict()["latex"] == "a = b"
    assert Step("T", "words only", None).to_dict()["latex"] == ""
