"""Formulas as one line of Unicode text, for the terminal: ``|a|``, ``a²``, ``(−1)ʲ·a``, ``√2``,
``max(0, z)``, ``e^(−z)`` — one notation wherever rich or plain text shows a formula.

SymPy's :class:`~sympy.printing.str.StrPrinter` with the conventions of its Unicode pretty printer
(Greek letters, superscript integer powers, bars for absolute values, ``·`` for products), kept
on one line so that a table cell or a sentence can hold it.

>>> import sympy
>>> a, j = sympy.symbols("a j")
>>> formula(sympy.Abs(a)), formula(a**2), formula((-1)**j * a), formula(sympy.Max(0, a) - a)
('|a|', 'a²', '(−1)ʲ·a', '−a + max(0, a)')
"""
from __future__ import annotations

from typing import Any

import sympy
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.pretty.pretty_symbology import greek_unicode
from sympy.printing.str import StrPrinter

__all__ = ["formula"]

_SUPERSCRIPT = str.maketrans("0123456789-+=()nijk", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺⁼⁽⁾ⁿⁱʲᵏ")
_SUPERSCRIPTABLE = set("0123456789-+=()nijk")


class _Printer(StrPrinter):
    """One line, Unicode: what SymPy's pretty printer writes in two dimensions, flattened."""

    def _print_Symbol(self, expr: sympy.Symbol) -> str:
        return greek_unicode.get(expr.name, expr.name)

    def _print_Function(self, expr: Any) -> str:
        name = greek_unicode.get(expr.func.__name__, expr.func.__name__)
        return f"{name}({', '.join(self._print(a) for a in expr.args)})"

    def _print_Abs(self, expr: sympy.Abs) -> str:
        return f"|{self._print(expr.args[0])}|"

    def _print_Max(self, expr: Any) -> str:
        return f"max({', '.join(self._print(a) for a in expr.args)})"

    def _print_Min(self, expr: Any) -> str:
        return f"min({', '.join(self._print(a) for a in expr.args)})"

    def _print_Pi(self, expr: Any) -> str:
        return "π"

    def _print_Infinity(self, expr: Any) -> str:
        return "∞"

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "−∞"

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_exp(self, expr: Any) -> str:
        return f"e^{self._group(expr.args[0])}"

    def _print_Pow(self, expr: sympy.Pow, rational: bool = False) -> str:
        base, exponent = expr.as_base_exp()
        if exponent == sympy.S.Half:
            return "√" + self._group(base)
        if exponent.is_negative and exponent.is_Integer and exponent != -1:
            return f"1/{self._print(base ** -exponent)}"
        if exponent == -1:
            return f"1/{self._group(base)}"
        shown_base = self._group(base) if not (base.is_Symbol or (base.is_Integer and base >= 0)
                                                 or base.func is sympy.Pow and base.exp == sympy.S.Half) \
            else self._print(base)
        shown = self._print(exponent)
        if set(shown) <= _SUPERSCRIPTABLE:
            return shown_base + shown.translate(_SUPERSCRIPT)
        return f"{shown_base}^{self._group(exponent)}"

    def _print_Mul(self, expr: sympy.Mul) -> str:
        return super()._print_Mul(expr).replace("*", "·")

    def _print_Relational(self, expr: Any) -> str:
        op = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥"}.get(expr.rel_op, expr.rel_op)
        return f"{self._print(expr.lhs)} {op} {self._print(expr.rhs)}"

    def _print_Piecewise(self, expr: sympy.Piecewise) -> str:
        pieces = [f"{self._print(value)} if {self._print(condition)}" if condition is not sympy.true
                  else f"{self._print(value)} otherwise" for value, condition in expr.args]
        return "{" + "; ".join(pieces) + "}"

    def _group(self, expr: Any) -> str:
        shown = self._print(expr)
        atomic = (expr.is_Symbol or (expr.is_Integer and expr >= 0) or expr in (sympy.pi, sympy.E)
                  or isinstance(expr, (sympy.Function, sympy.Abs)))
        return shown if atomic or precedence(expr) >= PRECEDENCE["Func"] else f"({shown})"


def formula(expr: Any) -> str:
    """A SymPy expression as one line of Unicode text (minus signs as −)."""
    return _Printer().doprint(sympy.sympify(expr)).replace("-", "−")
