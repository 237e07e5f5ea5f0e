"""LaTeX for the statements of proof steps (:mod:`symcheck.core.formula`).

A printer that dispatches on the node's class, as SymPy's printers pick ``_print_<Class>``;
leaves are printed by ``sympy.latex``. It is registered as the LaTeX renderer of every formula
and is small on purpose: ``--json`` fills its ``latex`` keys through this module alone, without
loading the document renderers.

>>> from sympy import Symbol, S
>>> from symcheck.core import formula as f
>>> z, sigma = Symbol("z"), Symbol("sigma")
>>> print(latex(f.ForAll((f.Relation(f.Rel.IN, z, S.Reals),),
...                      f.Relation(f.Rel.EQ, f.Apply(sigma, (z,)), f.Product((f.Apply(sigma, (S.One,)), z))),
...                      trailing=True)))
\\sigma(z) = \\sigma(1)\\,z \\quad \\forall z \\in \\mathbb{R}
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise

import sympy

from symcheck.core import formula as f
from symcheck.core.rendering import renderer

__all__ = ["latex", "LONG"]

_REL = {f.Rel.EQ: "=", f.Rel.NE: r"\neq", f.Rel.LT: "<", f.Rel.LE: r"\leq", f.Rel.GT: ">",
        f.Rel.GE: r"\geq", f.Rel.IN: r"\in", f.Rel.IMPLIES: r"\Rightarrow", f.Rel.APPROX: r"\approx",
        f.Rel.EQUIV: r"\equiv"}
#: functions LaTeX knows by name; any other is an \operatorname
_KNOWN = frozenset({"sin", "cos", "tan", "log", "exp"})
#: an expression longer than this (printed) is shown to 8 digits
LONG = 90


@renderer("latex", f.Formula)
def latex(node: f.Term | None, **_options) -> str:
    """The LaTeX of a formula node or a SymPy leaf."""
    if node is None:
        return ""
    if not isinstance(node, f.Formula):
        return sympy.latex(node)
    return _PRINTERS[type(node)](node)


def _join(sep: str, items: Iterable[f.Term]) -> str:
    return sep.join(latex(item) for item in items)


def _relation(node: f.Relation) -> str:
    op = _REL[node.op]
    return f"{op} {latex(node.right)}" if node.left is None else f"{latex(node.left)} {op} {latex(node.right)}"


def _head(head: sympy.Symbol | str) -> str:
    return rf"\operatorname{{{head}}}" if isinstance(head, str) else sympy.latex(head)


def _apply(node: f.Apply) -> str:
    side = {1: "_+", -1: "_-"}.get(node.side, "")
    return f"{_head(node.head)}{side}({_join(', ', node.args)})"


def _operator(node: f.Operator) -> str:
    name = f"\\{node.name}" if node.name in _KNOWN else rf"\operatorname{{{node.name}}}"
    return name + ("" if isinstance(node.arg, f.Paren) else " ") + latex(node.arg)


def _separator(left: f.Term, right: f.Term) -> str:
    """Juxtaposition as typeset: a space between letters, none after a numeral coefficient or
    before brackets, a thin space next to a function's value."""
    if isinstance(right, f.Operator):
        return " " if isinstance(left, sympy.Symbol) else ""
    if isinstance(right, f.Paren):
        return ""
    if isinstance(left, f.Formula) or isinstance(right, f.Formula):
        return r"\,"
    if isinstance(left, sympy.Number) and isinstance(right, sympy.Symbol):
        return ""
    if isinstance(left, sympy.Symbol) and isinstance(right, sympy.Symbol) \
            and all(latex(x).startswith("\\") for x in (left, right)):
        return ""  # a control word ends at the next backslash: \lambda\mu
    return " "


def _product(node: f.Product) -> str:
    out = latex(node.items[0])
    for left, right in pairwise(node.items):
        out += _separator(left, right) + latex(right)
    return out


def _indexed(node: f.Indexed) -> str:
    if isinstance(node.index, int):
        return f"{latex(node.base)}_{node.index}"  # a coefficient's order, as written beside it
    index = latex(node.index)
    return f"{latex(node.base)}_{index}" if len(index) == 1 else f"{latex(node.base)}_{{{index}}}"


def _bracketed(term: f.Term) -> bool:
    return isinstance(term, f.Paren) or (isinstance(term, f.Transposed) and isinstance(term.term, f.Paren))


def _matrix_product(node: f.MatrixProduct) -> str:
    """Factors side by side; two bracketed ones touch: (αQ_j)(K_j/α)ᵀ."""
    out = latex(node.items[0])
    for left, right in pairwise(node.items):
        out += ("" if _bracketed(left) and _bracketed(right) else " ") + latex(right)
    return out


def _power(node: f.Power) -> str:
    base = f"{{{latex(node.base)}}}" if node.grouped_base else latex(node.base)
    exponent = latex(node.exponent)
    return f"{base}^{exponent}" if node.bare_exponent else f"{base}^{{{exponent}}}"


def _mapping(node: f.Mapping) -> str:
    return rf"{latex(node.source)} \mapsto {_image(node.target)}"


def _image(target: f.Term) -> str:
    """A map's image: entries that are more than a letter get room between them."""
    if isinstance(target, f.Tuple) and not all(isinstance(item, sympy.Symbol) for item in target.items):
        return "(" + _join(r",\ ", target.items) + ")"
    return latex(target)


def _for_all(node: f.ForAll) -> str:
    scope = _join(r",\ ", node.scope)
    if node.trailing:
        return latex(node.body) + (r"\ " if node.tight else r" \quad ") + rf"\forall {scope}"
    return rf"\forall {scope}:\ {latex(node.body)}"


def _cases(node: f.Cases) -> str:
    rows = r"\\ ".join(f"{latex(value)} & {latex(condition)}" for value, condition in node.pieces)
    return rf"\begin{{cases}} {rows} \end{{cases}}"


def _interval(node: f.Interval) -> str:
    if node.closed:
        return rf"[{latex(node.lower)},\ {latex(node.upper)}]"
    return f"({latex(node.lower)}, {latex(node.upper)})"


def _lines(node: f.Lines) -> str:
    if len(node.items) > 1:
        return r"\begin{gathered}" + _join(r" \\ ", node.items) + r"\end{gathered}"
    return _join("", node.items)


def _abbreviated(node: f.Abbreviated) -> str:
    shown = sympy.latex(node.expr)
    if len(shown) <= LONG:
        return shown
    approximate = sympy.latex(sympy.N(node.expr, 8))
    return approximate if node.expr.free_symbols else rf"\approx {approximate}"


def _big_union(node: f.BigUnion) -> str:
    return r"\bigcup" if node.over is None else rf"\bigcup {latex(node.over)}"


def _paren(node: f.Paren) -> str:
    return rf"\left({latex(node.term)}\right)" if node.large else f"({latex(node.term)})"


_PRINTERS: dict[type, Callable[..., str]] = {
    f.Relation: _relation,
    f.Apply: _apply,
    f.Operator: _operator,
    f.Product: _product,
    f.Neg: lambda n: f"-{latex(n.term)}",
    f.Ratio: lambda n: f"{latex(n.numerator)}/{latex(n.denominator)}",
    f.Power: _power,
    f.Abs: lambda n: f"|{latex(n.term)}|",
    f.Paren: _paren,
    f.Plus: lambda n: _join(" + ", n.items),
    f.Difference: lambda n: f"{latex(n.left)} - {latex(n.right)}",
    f.PlusMinus: lambda n: rf"\pm {latex(n.term)}",
    f.Indexed: _indexed,
    f.Text: lambda n: rf"\text{{{n.words}}}",
    f.Numeral: lambda n: n.digits,
    f.Terms: lambda n: _join(", ", n.items),
    f.Tuple: lambda n: "(" + _join(", ", n.items) + ")",
    f.Mapping: _mapping,
    f.And: lambda n: _join(r",\ ", n.items),
    f.Both: lambda n: rf"{latex(n.first)} \text{{ and }} {latex(n.second)}",
    f.ForAll: _for_all,
    f.Given: lambda n: rf"{latex(n.condition)}:\ {latex(n.body)}",
    f.Qualified: lambda n: rf"{latex(n.statement)}\ ({latex(n.proviso)})",
    f.Aside: lambda n: rf"{latex(n.statement)} \quad ({latex(n.remark)})",
    f.Cases: _cases,
    f.FiniteSet: lambda n: r"\{" + _join(", ", n.items) + r"\}",
    f.Interval: _interval,
    f.SetUnion: lambda n: _join(r" \cup ", n.items),
    f.Cartesian: lambda n: _join(r" \times ", n.items),
    f.Intersection: lambda n: rf"{latex(n.left)} \cap {latex(n.right)}",
    f.SetMinus: lambda n: rf"{latex(n.left)} \setminus {latex(n.right)}",
    f.SetBuilder: lambda n: rf"\{{{latex(n.element)} : {latex(n.condition)}\}}",
    f.BigUnion: _big_union,
    f.Lines: _lines,
    f.Abbreviated: _abbreviated,
    f.MatrixProduct: _matrix_product,
    f.Transposed: lambda n: latex(n.term) + (r"^{-\top}" if n.inverse else r"^{\top}"),
    f.Sum: lambda n: rf"\sum_{latex(n.index)} {latex(n.body)}",
    f.Scaled: lambda n: rf"{latex(n.coefficient)}\, {latex(n.vector)}",
}
