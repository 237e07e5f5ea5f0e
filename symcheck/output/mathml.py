"""MathML for HTML: formulas a browser lays out natively, with no script and no network.

Computed mathematics is printed by SymPy's presentation-MathML printer (SymPy objects) and by a
printer of proof-step statements (:mod:`symcheck.core.formula`) that dispatches on the node's
class as :mod:`symcheck.output.formula_latex` does, its leaves printed by SymPy. LaTeX written by
hand (a derivation's statements, a notebook's prose) is converted by ``latex2mathml``.

Every public function returns one ``<math>`` element (MathML Core: no ``mfenced``, no script).

>>> from sympy import Symbol, S
>>> from symcheck.core import formula as f
>>> z = Symbol("z")
>>> print(element(f.Relation(f.Rel.IN, z, S.Reals)))
<math><mrow><mi>z</mi><mo>∈</mo><mi mathvariant="normal">&#x211D;</mi></mrow></math>
"""
from __future__ import annotations

import html as _html
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import sympy
from sympy.printing.mathml import MathMLPresentationPrinter
from sympy.printing.pretty.pretty_symbology import greek_unicode

from symcheck.core import formula as f
from symcheck.output.formula_latex import LONG

__all__ = ["Math", "element", "expression", "from_latex", "operator_name"]

_REL = {f.Rel.EQ: "=", f.Rel.NE: "≠", f.Rel.LT: "&lt;", f.Rel.LE: "≤", f.Rel.GT: "&gt;",
        f.Rel.GE: "≥", f.Rel.IN: "∈", f.Rel.IMPLIES: "⇒", f.Rel.APPROX: "≈", f.Rel.EQUIV: "≡"}
_THIN, _QUAD = '<mspace width="0.17em"/>', '<mspace width="1em"/>'


class _Printer(MathMLPresentationPrinter):
    """SymPy's presentation printer with the paper's notation: σ for ``sigma(…)``, ⊙ for
    Hadamard products, a brace of cases for Piecewise (SymPy writes ``piecewise((…))``)."""

    def _print_Function(self, e: sympy.Function):
        node = super()._print_Function(e)
        name = node.firstChild.firstChild
        name.data = greek_unicode.get(name.data, name.data)
        return node

    def _print_HadamardProduct(self, expr: sympy.HadamardProduct):
        node = super()._print_HadamardProduct(expr)
        for mo in node.getElementsByTagName("mo"):
            if mo.firstChild is not None and mo.firstChild.data == "&#x2218;":
                mo.firstChild.data = "&#x2299;"
        return node

    def _print_Piecewise(self, expr: sympy.Piecewise):
        table = self.dom.createElement("mtable")
        table.setAttribute("columnalign", "left left")
        for value, condition in expr.args:
            row = self.dom.createElement("mtr")
            cells = [self._print(value)]
            if condition is sympy.true:
                cells.append(self._text("otherwise"))
            else:
                when = self.dom.createElement("mrow")
                when.appendChild(self._text("if "))
                when.appendChild(self._print(condition))
                cells.append(when)
            for cell in cells:
                td = self.dom.createElement("mtd")
                td.appendChild(cell)
                row.appendChild(td)
            table.appendChild(row)
        brace = self.dom.createElement("mo")
        brace.appendChild(self.dom.createTextNode("{"))
        mrow = self.dom.createElement("mrow")
        mrow.appendChild(brace)
        mrow.appendChild(table)
        return mrow

    def doprint(self, expr: Any) -> str:
        """As SymPy's, with ``<`` and ``>`` escaped: SymPy writes its text nodes raw (so that its
        entities survive), and a bare ``<`` in a relation is not well-formed HTML."""
        node = self._print(expr)
        for text in _texts(node):
            text.data = text.data.replace("<", "&lt;").replace(">", "&gt;")
        _tighten(node)
        return node.toxml().encode("ascii", "xmlcharrefreplace").decode()

    def _text(self, words: str):
        node = self.dom.createElement("mtext")
        node.appendChild(self.dom.createTextNode(words))
        return node


#: what makes content taller than a line, so its brackets should stretch
_TALL = ("mfrac", "mtable", "msqrt", "mroot", "munder", "mover", "munderover")


def _tighten(node: Any) -> None:
    """Brackets round one-line content as plain glyphs (a stretchy bracket round a line is set
    apart from its function's name: ``σ ( b )``), and max/min as names, not operators."""
    for mo in node.getElementsByTagName("mo") if node.nodeType == node.ELEMENT_NODE else ():
        text = mo.firstChild.data if mo.firstChild is not None else ""
        if text in ("max", "min"):
            mo.tagName = mo.nodeName = "mi"
        elif text in "()[]{}|" and text and not any(mo.parentNode.getElementsByTagName(tag) for tag in _TALL):
            mo.setAttribute("stretchy", "false")


def _texts(node: Any) -> Iterable[Any]:
    if node.nodeType == node.TEXT_NODE:
        yield node
    for child in node.childNodes:
        yield from _texts(child)


def expression(expr: Any) -> str:
    """The MathML content (no ``<math>`` wrapper) of a SymPy object."""
    return _Printer().doprint(sympy.sympify(expr))


def element(item: Any, display: bool = False) -> str:
    """One ``<math>`` element: a proof-step formula, a SymPy object, or '' for None."""
    if item is None:
        return ""
    content = _node(item)
    return f'<math display="block">{content}</math>' if display else f"<math>{content}</math>"


def operator_name(name: str) -> str:
    """A catalogue name as an upright identifier (``silu``, ``leaky_relu``)."""
    return f'<mi mathvariant="normal">{_html.escape(name)}</mi>'


@dataclass(frozen=True)
class Math:
    """A SymPy object to show in Jupyter as MathML (SymPy's own display is LaTeX, which an HTML
    export leaves raw without MathJax); ``_repr_latex_`` is kept for LaTeX outputs."""

    expr: Any

    def _repr_html_(self) -> str:
        return element(self.expr, display=True)

    def _repr_latex_(self) -> str:
        return f"$${sympy.latex(self.expr)}$$"


def from_latex(latex: str) -> str:
    """LaTeX written by hand (not computed) as one ``<math>`` element, via ``latex2mathml``."""
    from latex2mathml.converter import convert
    converted = convert(latex)
    return converted.replace(' xmlns="http://www.w3.org/1998/Math/MathML" display="inline"', "", 1)


# ---- proof-step statements (symcheck.core.formula) ----------------------------------------------

def _node(item: Any) -> str:
    if isinstance(item, f.Formula):
        return _PRINTERS[type(item)](item)
    return expression(item)


def _row(*parts: str) -> str:
    return "<mrow>" + "".join(parts) + "</mrow>"


def _mo(op: str, stretchy: bool | None = None) -> str:
    return f"<mo>{op}</mo>" if stretchy is None else f'<mo stretchy="{str(stretchy).lower()}">{op}</mo>'


def _join(sep: str, items: Iterable[f.Term]) -> str:
    return sep.join(_node(item) for item in items)


def _fenced(left: str, inner: str, right: str, large: bool = False) -> str:
    return _row(_mo(left, large), inner, _mo(right, large))


def _relation(node: f.Relation) -> str:
    op = _mo(_REL[node.op])
    return _row(op, _node(node.right)) if node.left is None else _row(_node(node.left), op, _node(node.right))


def _head(head: sympy.Symbol | str) -> str:
    return operator_name(head) if isinstance(head, str) else expression(head)


def _apply(node: f.Apply) -> str:
    head = _head(node.head)
    if node.side:
        head = f"<msub>{head}{_mo('+' if node.side == 1 else '−')}</msub>"
    return _row(head, _fenced("(", _row(_join(_mo(","), node.args)), ")"))


def _operator(node: f.Operator) -> str:
    return _row(operator_name(node.name), _mo("&#x2061;"), _node(node.arg))


def _product(node: f.Product) -> str:
    out = _node(node.items[0])
    for left, right in pairwise(node.items):
        thin = isinstance(left, f.Formula) or isinstance(right, f.Formula)
        out += (_THIN if thin and not isinstance(right, f.Paren) else _mo("&#x2062;")) + _node(right)
    return _row(out)


def _power(node: f.Power) -> str:
    return f"<msup>{_row(_node(node.base))}{_row(_node(node.exponent))}</msup>"


def _indexed(node: f.Indexed) -> str:
    index = f"<mn>{node.index}</mn>" if isinstance(node.index, int) else _node(node.index)
    return f"<msub>{_node(node.base)}{_row(index)}</msub>"


def _image(target: f.Term) -> str:
    if isinstance(target, f.Tuple):
        return _fenced("(", _row(_join(_mo(",") + _THIN, target.items)), ")")
    return _node(target)


def _for_all(node: f.ForAll) -> str:
    scope = _join(_mo(","), node.scope)
    if node.trailing:
        return _row(_node(node.body), _THIN if node.tight else _QUAD, _mo("∀"), scope)
    return _row(_mo("∀"), scope, _mo(":"), _node(node.body))


def _cases(node: f.Cases) -> str:
    rows = "".join(f"<mtr><mtd>{_node(value)}</mtd><mtd>{_node(condition)}</mtd></mtr>"
                   for value, condition in node.pieces)
    return _row(_mo("{"), f'<mtable columnalign="left left">{rows}</mtable>')


def _lines(node: f.Lines) -> str:
    if len(node.items) == 1:
        return _node(node.items[0])
    rows = "".join(f"<mtr><mtd>{_node(item)}</mtd></mtr>" for item in node.items)
    return f'<mtable columnalign="left">{rows}</mtable>'


def _abbreviated(node: f.Abbreviated) -> str:
    if len(sympy.latex(node.expr)) <= LONG:  # the LaTeX printer's rule, so both show the same
        return expression(node.expr)
    approximate = expression(sympy.N(node.expr, 8))
    return approximate if node.expr.free_symbols else _row(_mo("≈"), approximate)


def _text(words: str) -> str:
    return f"<mtext>{_html.escape(words, quote=False)}</mtext>"


def _infix(op: str) -> Callable[[Any], str]:
    return lambda n: _row(_join(_mo(op), n.items))


def _pair(op: str) -> Callable[[Any], str]:
    return lambda n: _row(_node(n.left), _mo(op), _node(n.right))


_PRINTERS: dict[type, Callable[..., str]] = {
    f.Relation: _relation,
    f.Apply: _apply,
    f.Operator: _operator,
    f.Product: _product,
    f.Neg: lambda n: _row(_mo("−"), _node(n.term)),
    f.Ratio: lambda n: _row(_node(n.numerator), _mo("/"), _node(n.denominator)),
    f.Power: _power,
    f.Abs: lambda n: _fenced("|", _node(n.term), "|"),
    f.Paren: lambda n: _fenced("(", _node(n.term), ")", n.large),
    f.Plus: _infix("+"),
    f.Difference: _pair("−"),
    f.PlusMinus: lambda n: _row(_mo("±"), _node(n.term)),
    f.Indexed: _indexed,
    f.Text: lambda n: _text(n.words),
    f.Numeral: lambda n: f"<mn>{_html.escape(n.digits)}</mn>",
    f.Terms: _infix(","),
    f.Tuple: lambda n: _fenced("(", _row(_join(_mo(","), n.items)), ")"),
    f.Mapping: lambda n: _row(_node(n.source), _mo("↦"), _image(n.target)),
    f.And: lambda n: _row(_join(_mo(",") + _THIN, n.items)),
    f.Both: lambda n: _row(_node(n.first), _text(" and "), _node(n.second)),
    f.ForAll: _for_all,
    f.Given: lambda n: _row(_node(n.condition), _mo(":"), _node(n.body)),
    f.Qualified: lambda n: _row(_node(n.statement), _THIN, _fenced("(", _node(n.proviso), ")")),
    f.Aside: lambda n: _row(_node(n.statement), _QUAD, _fenced("(", _node(n.remark), ")")),
    f.Cases: _cases,
    f.FiniteSet: lambda n: _fenced("{", _row(_join(_mo(","), n.items)), "}"),
    f.Interval: lambda n: _fenced("[" if n.closed else "(", _row(_node(n.lower), _mo(","), _node(n.upper)),
                                  "]" if n.closed else ")"),
    f.SetUnion: _infix("∪"),
    f.Cartesian: _infix("×"),
    f.Intersection: _pair("∩"),
    f.SetMinus: _pair("∖"),
    f.SetBuilder: lambda n: _fenced("{", _row(_node(n.element), _mo(":"), _node(n.condition)), "}"),
    f.BigUnion: lambda n: _mo("⋃") if n.over is None else _row(_mo("⋃"), _node(n.over)),
    f.Lines: _lines,
    f.Abbreviated: _abbreviated,
    f.MatrixProduct: lambda n: _row(_join(_mo("&#x2062;"), n.items)),
    f.Transposed: lambda n: f"<msup>{_row(_node(n.term))}{_row(_mo('−') if n.inverse else '', _mo('⊤'))}</msup>",
    f.Sum: lambda n: _row(f"<munder>{_mo('∑')}{_node(n.index)}</munder>", _node(n.body)),
    f.Scaled: lambda n: _row(_node(n.coefficient), _THIN, _node(n.vector)),
}
