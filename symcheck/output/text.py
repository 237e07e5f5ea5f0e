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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sympy
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.pretty.pretty_symbology import greek_unicode
from sympy.printing.str import StrPrinter

from symcheck.core import formula as f
from symcheck.core.rendering import renderer

if TYPE_CHECKING:  # registered by qualified name: printing text loads no result's module
    from symcheck.engine.check_result import CheckResult
    from symcheck.engine.family_result import FamilyResult
    from symcheck.engine.group.layer import LayerGroup
    from symcheck.engine.group.results import SymmetryGroup
    from symcheck.numeric.canonical import CanonicalReport
    from symcheck.numeric.equiv import EquivReport
    from symcheck.numeric.model_report import ModelReport
    from symcheck.numeric.report import NumericReport
    from symcheck.numeric.transform import TransformReport
    from symcheck.paper.family_audit import FamilyAudit

__all__ = ["formula", "lines", "statement", "text"]

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

    def _print_Reals(self, expr: Any) -> str:
        return "ℝ"

    def _print_Integers(self, expr: Any) -> str:
        return "ℤ"

    def _print_EmptySet(self, expr: Any) -> str:
        return "∅"

    def _print_Interval(self, expr: sympy.Interval) -> str:
        left = "(" if expr.left_open or expr.start.is_infinite else "["
        right = ")" if expr.right_open or expr.end.is_infinite else "]"
        return f"{left}{self._print(expr.start)}, {self._print(expr.end)}{right}"

    def _print_Union(self, expr: Any) -> str:
        return " ∪ ".join(self._print(a) for a in expr.args)

    def _print_And(self, expr: Any) -> str:
        return " and ".join(self._print(a) for a in expr.args)

    def _print_Or(self, expr: Any) -> str:
        return " or ".join(self._print(a) for a in expr.args)

    def _print_exp(self, expr: Any) -> str:
        shown = self._print(expr.args[0])
        if set(shown) <= _SUPERSCRIPTABLE:  # e⁻¹, e²
            return "e" + shown.translate(_SUPERSCRIPT)
        return f"e^{self._group(expr.args[0])}"

    def _print_Pow(self, expr: sympy.Pow, rational: bool = False) -> str:
        base, exponent = expr.as_base_exp()
        if exponent == sympy.S.Half:
            return "√" + self._group(base)
        if exponent.is_Integer and exponent.is_negative and exponent != -1:
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


# ---- proof-step statements (symcheck.core.formula) ----------------------------------------------
# A printer that dispatches on the node's class, as formula_latex and mathml do, its leaves printed
# by formula(): the terminal shows the statement the LaTeX and the HTML show, in one notation.

_SUBSCRIPT = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUBSCRIPTABLE = set("0123456789+-=()aehijklmnoprstuvx")


def statement(node: Any) -> str:
    """A proof step's formula (a :mod:`symcheck.core.formula` node or a SymPy leaf) on one line."""
    if node is None:
        return ""
    if not isinstance(node, f.Formula):
        return formula(node)
    return _PRINTERS[type(node)](node)


@renderer("text", f.Formula)
def text(node: f.Formula, **_options: Any) -> str:
    """A proof step's formula as text: its :func:`lines`, one under the other."""
    return "\n".join(lines(node))


def lines(node: Any) -> list[str]:
    """A proof step's formula as the lines it reads best on: one, except that a definition by
    cases (``r(z) = {…}``) shows a case a line and a list of statements a statement a line, so a
    long residual breaks between its cases, never inside one."""
    if isinstance(node, f.Lines):
        return [line for item in node.items for line in lines(item)]
    if isinstance(node, f.Relation) and node.left is not None and _pieces(node.right):
        head = f"{statement(node.left)} {node.op.value} "
        body = _case_lines(_pieces(node.right))
        return [(head if i == 0 else " " * len(head)) + line for i, line in enumerate(body)]
    if _pieces(node):
        return _case_lines(_pieces(node))
    return [statement(node)]


def _pieces(node: Any) -> list[tuple[str, str]]:
    """(value, condition) as text, for a Cases node or a SymPy Piecewise of two or more pieces."""
    if isinstance(node, f.Cases):
        return [(statement(value), _condition(condition)) for value, condition in node.pieces]
    if isinstance(node, sympy.Piecewise) and len(node.args) > 1:
        return [(formula(value), "otherwise" if condition is sympy.true else f"if {formula(condition)}")
                for value, condition in node.args]
    return []


def _condition(condition: Any) -> str:
    return statement(condition) if isinstance(condition, f.Text) else f"if {statement(condition)}"


def _case_lines(pieces: list[tuple[str, str]]) -> list[str]:
    """Cases stacked behind a brace (⎧ ⎨ ⎩), their conditions aligned."""
    width, last = max(len(value) for value, _ in pieces), len(pieces) - 1
    braces = ["⎧" if i == 0 else "⎩" if i == last else "⎨" if i == last // 2 else "⎪" for i in range(last + 1)]
    return [f"{brace} {value:<{width}}  {condition}" for brace, (value, condition) in zip(braces, pieces, strict=True)]


def _join(sep: str, items: Any) -> str:
    return sep.join(statement(item) for item in items)


def _relation(node: f.Relation) -> str:
    shown = f"{node.op.value} {statement(node.right)}"
    return shown if node.left is None else f"{statement(node.left)} {shown}"


def _head(head: Any) -> str:
    return head if isinstance(head, str) else formula(head)


def _apply(node: f.Apply) -> str:
    side = {1: "₊", -1: "₋"}.get(node.side, "")
    return f"{_head(node.head)}{side}({_join(', ', node.args)})"


def _sub(base: str, index: str) -> str:
    return base + index.translate(_SUBSCRIPT) if set(index) <= _SUBSCRIPTABLE else f"{base}_{index}"


def _indexed(node: f.Indexed) -> str:
    return _sub(statement(node.base), str(node.index) if isinstance(node.index, int) else statement(node.index))


def _power(node: f.Power) -> str:
    if not node.grouped_base and not isinstance(node.base, f.Formula) and not isinstance(node.exponent, f.Formula):
        return formula(sympy.Pow(node.base, node.exponent, evaluate=False))  # as in a table: √2ʲ, e^t
    base, exponent = statement(node.base), statement(node.exponent)
    if node.grouped_base or not _atomic(node.base):
        base = f"({base})"
    if set(exponent) <= _SUPERSCRIPTABLE | {"−"}:
        return base + exponent.replace("−", "-").translate(_SUPERSCRIPT)
    return f"{base}^{exponent}" if _atomic(node.exponent) else f"{base}^({exponent})"


def _atomic(term: Any) -> bool:
    """Printed without brackets round it as a factor, a base or an operator's argument."""
    if isinstance(term, (f.Apply, f.Indexed, f.Paren, f.Abs, f.Tuple, f.Transposed, f.Text, f.Numeral)):
        return True
    return isinstance(term, sympy.Basic) and (term.is_Symbol or (term.is_Integer and term >= 0)
                                              or term in (sympy.E, sympy.pi) or isinstance(term, sympy.Function))


def _operator(node: f.Operator) -> str:
    """``sign L``, ``sin ωs``; an argument of more than one factor in brackets: ``cos(2·π·t)``."""
    shown = statement(node.arg)
    return f"{node.name} {shown}" if _atomic(node.arg) and not isinstance(node.arg, f.Paren) else \
        f"{node.name}{shown}" if isinstance(node.arg, f.Paren) else f"{node.name}({shown})"


def _product(node: f.Product) -> str:
    return "·".join(statement(item) for item in node.items)


def _matrix_product(node: f.MatrixProduct) -> str:
    return "".join(statement(item) for item in node.items)


def _for_all(node: f.ForAll) -> str:
    scope = _join(", ", node.scope)
    return f"{statement(node.body)} for all {scope}" if node.trailing else f"for all {scope}: {statement(node.body)}"


def _cases(node: f.Cases) -> str:
    return "{" + "; ".join(f"{value} {condition}" for value, condition in _pieces(node)) + "}"


def _abbreviated(node: f.Abbreviated) -> str:
    shown = formula(node.expr)
    from symcheck.output.formula_latex import LONG  # (loaded here: rich text need not load LaTeX)
    if len(sympy.latex(node.expr)) <= LONG:  # the LaTeX printer's rule, so every format shows the same
        return shown
    approximate = formula(sympy.N(node.expr, 8))
    return approximate if node.expr.free_symbols else f"≈ {approximate}"


def _interval(node: f.Interval) -> str:
    left, right = ("[", "]") if node.closed else ("(", ")")
    return f"{left}{statement(node.lower)}, {statement(node.upper)}{right}"


_PRINTERS: dict[type, Callable[..., str]] = {
    f.Relation: _relation,
    f.Apply: _apply,
    f.Operator: _operator,
    f.Product: _product,
    f.Neg: lambda n: f"−{statement(n.term)}",
    f.Ratio: lambda n: f"{statement(n.numerator)}/{statement(n.denominator)}",
    f.Power: _power,
    f.Abs: lambda n: f"|{statement(n.term)}|",
    f.Paren: lambda n: f"({statement(n.term)})",
    f.Plus: lambda n: _join(" + ", n.items),
    f.Difference: lambda n: f"{statement(n.left)} − {statement(n.right)}",
    f.PlusMinus: lambda n: f"±{statement(n.term)}",
    f.Indexed: _indexed,
    f.Text: lambda n: n.words,
    f.Numeral: lambda n: n.digits.replace("-", "−"),
    f.Terms: lambda n: _join(", ", n.items),
    f.Tuple: lambda n: "(" + _join(", ", n.items) + ")",
    f.Mapping: lambda n: f"{statement(n.source)} ↦ {statement(n.target)}",
    f.And: lambda n: _join(", ", n.items),
    f.Both: lambda n: f"{statement(n.first)} and {statement(n.second)}",
    f.ForAll: _for_all,
    f.Given: lambda n: f"{statement(n.condition)}: {statement(n.body)}",
    f.Qualified: lambda n: f"{statement(n.statement)} ({statement(n.proviso)})",
    f.Aside: lambda n: f"{statement(n.statement)}  ({statement(n.remark)})",
    f.Cases: _cases,
    f.FiniteSet: lambda n: "{" + _join(", ", n.items) + "}",
    f.Interval: _interval,
    f.SetUnion: lambda n: _join(" ∪ ", n.items),
    f.Cartesian: lambda n: _join(" × ", n.items),
    f.Intersection: lambda n: f"{statement(n.left)} ∩ {statement(n.right)}",
    f.SetMinus: lambda n: f"{statement(n.left)} ∖ {statement(n.right)}",
    f.SetBuilder: lambda n: f"{{{statement(n.element)} : {statement(n.condition)}}}",
    f.BigUnion: lambda n: "⋃" if n.over is None else f"⋃ {statement(n.over)}",
    f.Lines: lambda n: _join("; ", n.items),
    f.Abbreviated: _abbreviated,
    f.MatrixProduct: _matrix_product,
    f.Transposed: lambda n: statement(n.term) + ("⁻ᵀ" if n.inverse else "ᵀ"),
    f.Sum: lambda n: _sub("Σ", statement(n.index)) + " " + statement(n.body),
    f.Scaled: lambda n: f"{statement(n.coefficient)}·{statement(n.vector)}",
}


# ---- results as plain text: their ``str()`` -------------------------------------------------------
# Registered by qualified name: loading the text printer (every step's text needs it) must not load
# the paper layer.

@renderer("text", "symcheck.paper.auditing.Audit")
def audit_text(audit: Any, **_options: Any) -> str:
    """One aligned line per row: form, transformation and domain, verdict, what backs it, p."""
    from symcheck.core.printing import text as plain
    out = [f"symmetry audit, σ = {audit.activation.name}: {audit.formula}"]
    for r in audit.rows:
        where = f" ({r.domain})" if r.domain else ""
        p = f", p = {plain(r.degree)}" if r.degree is not None else ""
        out.append(f"  {r.form:<10} {r.transformation + where:<34} {r.verdict.value:<12} {r.basis}{p}")
    return "\n".join(out)


@renderer("text", "symcheck.paper.derivations.steps.Derivation")
def derivation_text(derivation: Any, **_options: Any) -> str:
    """The claim, then each step with its status, why it holds and the checks run."""
    from symcheck.paper.derivations import StepKind
    out = [f"{derivation.name}: {derivation.title} — {derivation.status}", f"  {derivation.statement}"]
    for number, step in enumerate(derivation.steps, 1):
        tag = " (definition)" if step.kind is StepKind.DEFINITION else ""
        out.append(f"  {number}. {step.text}  [{step.status}]{tag}")
        out.append(f"     why: {step.justification}")
        out.extend(f"     {r.kind}: {r.detail} [{r.status}]" for r in step.checks)
    return "\n".join(out)


@renderer("text", "symcheck.engine.check_result.CheckResult")
def check_text(result: CheckResult, **_options: Any) -> str:
    """The title with the verdict, then each step aligned on its title with its justification
    under it, the note and the cross-check."""
    width = max(len(s.title) for s in result.steps) if result.steps else 0
    out = [f"{result.title}: {result.verdict.value}"]
    for s in result.steps:
        out.append(s.line(f"  {s.title:<{width}}  "))
        if s.justification:
            out.append(f"  {'':<{width}}    {s.justification}")
    if result.note:
        out.append(f"  note: {result.note}")
    if result.cross_check is not None:
        out.append(f"  cross-check: {result.cross_check.summary()}")
    return "\n".join(out)


@renderer("text", "symcheck.engine.group.results.SymmetryGroup")
def group_text(group: SymmetryGroup, **_options: Any) -> str:
    """Complete or partial, each component (a set of a with its law for c), the maximality
    argument's steps, the note."""
    out = [f"{group.title}: {'complete' if group.complete else 'partial'}"]
    out.extend(f"  {c.describe()}" for c in group.components)
    out.extend(step.line(f"  {step.title}: ") for step in group.maximality)
    if group.note:
        out.append(f"  note: {group.note}")
    return "\n".join(out)


@renderer("text", "symcheck.engine.group.layer.LayerGroup")
def layer_group_text(layer: LayerGroup, **_options: Any) -> str:
    """Complete or partial, the unit, the layer's families of symmetries, the proof's steps and
    what it does not cover."""
    out = [f"{layer.title}: {'complete' if layer.complete else 'partial'}", f"  unit: {layer.unit}"]
    out.extend(f"  {family}" for family in layer.families())
    out.extend(step.line(f"  {step.title}: ") for step in layer.proof)
    out.extend(f"  not covered: {item}" for item in layer.not_covered)
    return "\n".join(out)


@renderer("text", "symcheck.engine.family_result.FamilyResult")
def family_result_text(result: FamilyResult, **_options: Any) -> str:
    """The title with the verdict over the whole range, the witness, each region's verdict, the note."""
    out = [f"{result.title}: {result.verdict.value}"]
    if result.witness is not None:
        out.append("  witness: " + result.witness_text())
    out.extend(f"  region {r.region}: {r.verdict.value}" for r in result.regions)
    if result.note:
        out.append(f"  note: {result.note}")
    return "\n".join(out)


@renderer("text", "symcheck.paper.family_audit.FamilyAudit")
def family_audit_text(audit: FamilyAudit, **_options: Any) -> str:
    """As an audit's text, with the quantifier in the title and each row's regions when it has
    more than one."""
    out = [f"symmetry audit, σ = {audit.family.name}, {audit.quantifier}"]
    for r in audit.rows:
        where = f" ({r.domain})" if r.domain else ""
        p = f", p = {r.degree}" if r.degree is not None else ""
        out.append(f"  {r.form:<10} {r.transformation + where:<34} {r.verdict.value:<12} {r.basis}{p}")
        out.extend(f"      region {g.region}: {g.verdict.value}" for g in r.regions if len(r.regions) > 1)
    return "\n".join(out)


# ---- numeric evidence and checkpoints -----------------------------------------------------------

@renderer("text", "symcheck.numeric.report.NumericReport")
def numeric_text(report: NumericReport, **_options: Any) -> str:
    """The claim, the two sides compared, the layer and its sizes, the data, the routes taken
    (each once) and the summary."""
    sizes = ", ".join(f"{k}={v}" for k, v in report.sizes.items())
    return "\n".join([f"numeric {report.kind}: {report.claim}",
                      f"  left   {report.left}", f"  right  {report.right}",
                      f"  σ = {report.activation.name}, {report.form} form, {report.dtype}, {sizes}",
                      f"  data   {report.source}", f"  routes {'; '.join(dict.fromkeys(report.routes))}",
                      f"  {report.summary}"])


def _model_figure(value: float | None) -> str:
    return "—" if value is None else f"{value:.3g}"


@renderer("text", "symcheck.numeric.model_report.ModelReport")
def model_text(report: ModelReport, **_options: Any) -> str:
    """The model and its inputs, the links followed, a line per layer with its form, σ and figures."""
    out = [f"{report.name} ({report.architecture.name}): {len(report.layers)} of {report.count} MLP layers, "
           f"{report.tokens} input rows ({report.inputs})"]
    out.extend(f"  link followed: {line}" for line in report.link_lines())
    out.extend(f"  layer {r.index}: {r.form.name}, σ = {r.activation.name}, exchange defect "
               f"{_model_figure(r.exchange_defect)}, rescaling residual {_model_figure(r.rescaling_residual)}, "
               f"relative error {_model_figure(r.relative_error)}" for r in report.layers)
    return "\n".join(out)


@renderer("text", "symcheck.numeric.transform.TransformReport")
def transform_text(report: TransformReport, **_options: Any) -> str:
    """Where the checkpoint went, the largest rounding, a line per layer with its element."""
    from symcheck.numeric.transform import figure_text, range_text
    out = [f"{report.output}: {report.architecture}, {len(report.layers)} MLP layers transformed from "
           f"{report.source}",
           f"  largest relative change of a layer's output: {figure_text(report.rounding)} (inputs: {report.inputs})"]
    out.extend(f"  layer {layer.index}: {'permuted, ' if layer.permuted else ''}a {range_text(layer.gate)}, "
               f"λ {range_text(layer.value)}, rounding {figure_text(layer.rounding)}" for layer in report.layers)
    return "\n".join(out)


@renderer("text", "symcheck.numeric.canonical.CanonicalReport")
def canonical_text(report: CanonicalReport, **_options: Any) -> str:
    """Where the canonical form went, the largest rounding, each group's rules, a line per layer
    with what it changed."""
    from symcheck.numeric.transform import figure_text
    out = [f"{report.output}: {report.architecture}, {len(report.layers)} MLP layers of {report.source} in "
           "canonical form",
           f"  largest relative change of a layer's output: {figure_text(report.rounding)} (inputs: {report.inputs})"]
    for group, rules in zip(report.groups, report.rules, strict=True):
        out.extend(f"  σ = {group.activation.name}, {group.form}: {rule}" for rule in rules)
    out.extend(f"  layer {layer.index}: {layer.moved} units moved, {layer.gate_flips} gates and "
               f"{layer.value_flips} value paths turned, {layer.ties} tied, {layer.degenerate} degenerate"
               for layer in report.layers)
    return "\n".join(out)


@renderer("text", "symcheck.numeric.equiv.EquivReport")
def equiv_text(report: EquivReport, **_options: Any) -> str:
    """The two models and the verdict, a line per layer with its verdict and why."""
    out = [f"{report.first} vs {report.second} ({report.architecture}): {report.verdict}"]
    out.extend(f"  layer {v.index}: {v.verdict} — {v.reason}" for v in report.layers)
    return "\n".join(out)
