"""HTML for Jupyter and for reports: a result, derivation, audit or table, its formulas in MathML.

Browsers lay MathML out natively, so the HTML needs no script and no network (MathJax is not
involved): computed formulas are printed by :mod:`symcheck.output.mathml`. One renderer per
result type, registered for the "html" format (:mod:`symcheck.core.rendering`).
"""
from __future__ import annotations

import html as _html
from collections.abc import Iterable, Sequence
from typing import Any

from symcheck.core import formula as f
from symcheck.core.rendering import render, renderer
from symcheck.core.results import Step
from symcheck.engine.check_result import CheckResult
from symcheck.engine.group.formulations import FormulationSymmetries
from symcheck.engine.group.results import SymmetryGroup
from symcheck.language.activations import Activation
from symcheck.language.symbols import SIGMA_NAME, A, B
from symcheck.language.transformations import Domain, StructuralKind, TransformationKind, names, scale_symbol
from symcheck.language.unit_forms import Form
from symcheck.numeric.model_report import VERDICTS as _MODEL_VERDICTS
from symcheck.numeric.model_report import ModelReport
from symcheck.output.mathml import element, expression, from_latex, operator_name
from symcheck.paper.auditing import Audit
from symcheck.paper.derivations import Derivation, StepKind
from symcheck.paper.targets import Catalogue, PaperResult

__all__ = ["activation_definition", "html"]


def _cell(text: str) -> str:
    return f"<td style='text-align:left'>{text}</td>"


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    out = ["<table>"]
    if caption:
        out.append(f"<caption style='text-align:left'>{caption}</caption>")
    out.append("<tr>" + "".join(f"<th style='text-align:left'>{_html.escape(h)}</th>" for h in head) + "</tr>")
    out += ["<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows]
    out.append("</table>")
    return "\n".join(out)


def _steps_html(steps: Sequence[Step]) -> list[list[str]]:
    return [[f"<b>{_html.escape(s.title)}</b>", element(s.formula), _html.escape(s.status),
             f"<i>{_html.escape(s.justification)}</i>"] for s in steps]


def _activation_symbol(act: Activation) -> str:
    """σ's name in formulas: the catalogue name upright, σ for the user's own."""
    return operator_name(act.name) if act.builtin else expression(SIGMA_NAME)


def activation_definition(act: Activation) -> str:
    """``silu(z) = z/(1 + e^(−z))`` as one ``<math>`` element."""
    return element(act.definition)


def _sigma_is(act: Activation) -> str:
    """``σ = silu``, or ``σ(z) = …`` for the user's own σ."""
    if not act.builtin:
        return activation_definition(act)
    return f"<math><mrow>{expression(SIGMA_NAME)}<mo>=</mo>{_activation_symbol(act)}</mrow></math>"


def _unit(form: Form) -> str:
    """The unit u(a, b): a built-in form by its formula, a custom form as it parsed."""
    if form.name == "gated":
        return element(f.Product((f.Apply(SIGMA_NAME, (A,)), B)))
    if form.name == "rank1":
        return element(f.Apply(SIGMA_NAME, (f.Product((A, B)),)))
    return element(form.expr) if form.expr is not None else element(f.Apply("u", (A, B)))


def _domain(kind: TransformationKind | StructuralKind, domain: Domain | None) -> str:
    """``α > 0`` (``β`` for key-value rescaling) for where a scale ranges, or ''."""
    return "" if domain is None else element(domain.formula(scale_symbol(kind)))


def _title_html(result: CheckResult) -> str:
    """The title with the user's activation and form as the formulas they parse to."""
    where = _domain(result.transformation.name, result.transformation.domain)
    form = (f"the {result.form.name} form" if result.form.name in ("gated", "rank1")
            else f"the unit <math><mrow><mi>u</mi><mo>(</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo>)</mo>"
                 f"<mo>=</mo></mrow></math> {_unit(result.form)}")
    return (f"{names(result.symmetry).title}{', ' + where if where else ''} on {form}, "
            f"{_sigma_is(result.activation)}")


@renderer("html", f.Formula)
def formula_html(node: f.Formula) -> str:
    return element(node)


@renderer("html", "symcheck.language.layer_formulations.Formulation")
def formulation_html(formulation: Any) -> str:
    return f"<p><b>{_html.escape(formulation.name)}</b>: {_hand_written(formulation.latex, formulation.text)}</p>"


def _hand_written(latex: str, text: str) -> str:
    """A statement written by hand in LaTeX (a derivation's), as MathML; its text where there is no LaTeX."""
    return from_latex(latex) if latex else _html.escape(text)


@renderer("html", CheckResult)
def result_html(result: CheckResult) -> str:
    caption = (f"<b>{_title_html(result)}: {_html.escape(result.verdict.value)}</b>"
               f" &nbsp; {activation_definition(result.activation)}")
    table = _table(("step", "formula", "status", "why"), _steps_html(result.steps), caption)
    return table + (f"<p>note: {_html.escape(result.note)}</p>" if result.note else "")


@renderer("html", Derivation)
def derivation_html(derivation: Derivation) -> str:
    caption = (f"<b>{_html.escape(derivation.name)}: {_html.escape(derivation.title)} — "
               f"{_html.escape(derivation.status)}</b><br>"
               f"{_hand_written(derivation.statement_latex, derivation.statement)}")
    rows = [[str(n) + (" (definition)" if s.kind is StepKind.DEFINITION else ""), _hand_written(s.latex, s.text),
             _html.escape(s.status),
             f"<i>{_html.escape(s.justification)}</i><br><small>{_html.escape(s.checks_run)}</small>"]
            for n, s in enumerate(derivation.steps, 1)]
    return _table(("#", "step", "status", "why, and the checks run"), rows, caption)


@renderer("html", Audit)
def audit_html(audit: Audit) -> str:
    caption = f"<b>Symmetry audit</b> &nbsp; {activation_definition(audit.activation)}"
    rows = []
    for r in audit.rows:
        kind = _html.escape(names(r.transformation).short)
        where = _domain(r.transformation, r.domain)
        rows.append([_html.escape(r.form), kind + (", " + where if where else ""),
                     _html.escape(r.verdict.value), "" if r.degree is None else element(r.degree),
                     _html.escape(r.basis)])
    return _table(("form", "transformation", "verdict", "p", "basis"), rows, caption)


@renderer("html", Catalogue)
def catalogue_html(catalogue: Any) -> str:
    head = ["activation"] + [names(t.name).short + (f" ({t.domain})" if t.domain else "")
                             for t in catalogue.columns]
    rows = [[activation_definition(results[0].activation)]
            + [_html.escape(r.verdict.value) for r in results] for _, results in catalogue.rows]
    return _table(head, rows, f"<b>The catalogue on the {_html.escape(catalogue.form)} form</b>")


@renderer("html", PaperResult)
def paper_html(result: Any) -> str:
    return f"<h3>{_html.escape(result.title)}</h3>\n" + "\n".join(html(item) for item in result.items)


def html(item: Any) -> str:
    """A result, derivation, audit or table as HTML (formulas in MathML)."""
    return render(item, "html")


# ---- symmetry groups (symcheck.engine.group) ------------------------------------------------------

@renderer("html", SymmetryGroup)
def group_html(group: SymmetryGroup) -> str:
    state = "complete" if group.complete else "partial"
    caption = (f"<b>Symmetry group: {state}</b> &nbsp; "
               f"{activation_definition(group.activation)}")
    members = [[element(c.aset.formula()), "every c" if c.c is None else element(c.c),
                f"{len(c.steps)} steps, " + ("verified" if c.proved else "not verified")]
               for c in group.components]
    out = [_table(("a", "c", "proof"), members, caption),
           _table(("argument", "formula", "status", "why"), _steps_html(group.maximality),
                  "<b>Maximality</b>" if group.complete else "<b>What is known about the others</b>")]
    if group.complete:
        out.append(f"<p>inverse scaling: {_html.escape(group.inverse_scaling_text())}</p>")
    if group.note:
        out.append(f"<p>note: {_html.escape(group.note)}</p>")
    return "\n".join(out)


@renderer("html", FormulationSymmetries)
def formulation_symmetries_html(symmetries: FormulationSymmetries) -> str:
    items = "".join(f"<li>{_html.escape(f)}</li>" for f in symmetries.families())
    return (f"<p><b>{_html.escape(symmetries.form)}</b>: (q, k, v) → (λq, μk, νv) is a symmetry iff "
            f"{element(symmetries.condition_formula)}</p><ul>{items}</ul>")


# ---- model reports (symcheck model DIR) ---------------------------------------------------------

def _model_value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2e}"


@renderer("html", ModelReport)
def model_report_html(report: ModelReport) -> str:
    """The layers as one table: form, σ, sizes, each verdict, then the three measured figures."""
    caption = (f"<b>{_html.escape(report.name)}</b> ({_html.escape(report.architecture.name)}): "
               f"{len(report.layers)} of {report.count} MLP layers; inputs: {_html.escape(report.inputs)}")
    head = ("layer", "form", "σ", "d, m", *_MODEL_VERDICTS, "exchange defect", "rescaling residual",
            "error vs forward")
    rows = []
    for r in report.layers:
        verdicts = ["n/a" if (found := r.verdicts.get(k)) is None else _html.escape(found.verdict.value)
                    for k in _MODEL_VERDICTS]
        rows.append([str(r.index), _html.escape(r.form.name), _html.escape(r.activation.name),
                     f"{r.sizes.d}, {r.sizes.m}", *verdicts, _model_value(r.exchange_defect),
                     _model_value(r.rescaling_residual), _model_value(r.relative_error)])
    return _table(head, rows, caption)


# ---- layer groups (symcheck layer-group) --------------------------------------------------------

from symcheck.engine.group.layer import LayerGroup  # noqa: E402  (kept with its renderer)


@renderer("html", LayerGroup)
def layer_group_html(group: LayerGroup) -> str:
    state = "complete" if group.complete else "partial"
    caption = (f"<b>Weight symmetries of the {_html.escape(group.form)} layer: {state}</b> &nbsp; "
               f"σ(z) = {_html.escape(group.activation.short)}")
    items = "".join(f"<li>{_html.escape(f)}</li>" for f in group.families())
    covered = "".join(f"<li>{_html.escape(f)}</li>" for f in group.not_covered)
    return (f"<p>{caption}</p><p>unit j: {_html.escape(group.unit)}</p><ul>{items}</ul>"
            + _table(("step", "formula", "status", "why"), _steps_html(group.proof), "<b>Proof</b>")
            + f"<p><b>Not covered</b></p><ul>{covered}</ul>")


# ---- checkpoints moved, compared, made canonical (transform, equiv, canonical) -----------------

from symcheck.numeric.canonical import CanonicalReport  # noqa: E402  (kept with its renderers)
from symcheck.numeric.equiv import EquivReport  # noqa: E402
from symcheck.numeric.transform import TransformReport  # noqa: E402


def _checkpoint_html(caption: str, lines: Sequence[str], table: tuple) -> str:
    head, rows = table
    notes = "".join(f"<p>{_html.escape(line)}</p>" for line in lines)
    return notes + _table(head, ([_html.escape(c) for c in row] for row in rows), caption)


@renderer("html", TransformReport)
def transform_report_html(report: TransformReport) -> str:
    lines = [f"σ = {g.activation.name}, {g.form}: gate a with {g.gate_values()}" for g in report.groups]
    lines.append("rounding: the largest relative change ‖f′(x) − f(x)‖/‖f(x)‖ of a layer's output over the input "
                 f"rows ({report.inputs}), in float64")
    caption = (f"<b>{_html.escape(str(report.output))}</b> ({_html.escape(report.architecture)}): "
               f"{len(report.layers)} MLP layers transformed from {_html.escape(str(report.source))}")
    return _checkpoint_html(caption, lines, report.table())


@renderer("html", EquivReport)
def equiv_report_html(report: EquivReport) -> str:
    caption = (f"<b>{_html.escape(str(report.first))} vs {_html.escape(str(report.second))}</b> "
               f"({_html.escape(report.architecture)}): <b>{_html.escape(report.verdict)}</b>")
    lines = [f"inputs: {report.inputs}; residual: the largest entry of |B − g·A| in units of the dtype's rounding "
             "of g·A"]
    return _checkpoint_html(caption, lines, report.table())


@renderer("html", CanonicalReport)
def canonical_report_html(report: CanonicalReport) -> str:
    lines = [f"σ = {g.activation.name}, {g.form}: " + "; ".join(rules)
             for g, rules in zip(report.groups, report.rules, strict=True)]
    caption = (f"<b>{_html.escape(str(report.output))}</b> ({_html.escape(report.architecture)}): "
               f"{len(report.layers)} MLP layers of {_html.escape(str(report.source))} in canonical form")
    return _checkpoint_html(caption, lines, report.table())
