"""HTML for Jupyter: a result, derivation, audit or table, with formulas typeset by MathJax.

One renderer per result type, registered for the "html" format (:mod:`symcheck.core.rendering`).
"""
from __future__ import annotations

import html as _html
from collections.abc import Iterable, Sequence
from typing import Any

from symcheck.core.rendering import render, renderer
from symcheck.core.results import Step
from symcheck.engine.check_result import CheckResult
from symcheck.output.latex import (_KIND, _activation_definition, _domain, _scale, _sigma_is,
                                   _symmetry_name, _unit, math)
from symcheck.paper.auditing import Audit
from symcheck.paper.derivations import Derivation
from symcheck.paper.targets import Catalogue, PaperResult

__all__ = ["html"]


def _cell(text: str) -> str:
    return f"<td style='text-align:left'>{text}</td>"


def _math_html(latex: str) -> str:
    return rf"\({_html.escape(latex, quote=False)}\)" if latex else ""


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    out = ["<table>"]
    if caption:
        out.append(f"<caption style='text-align:left'>{caption}</caption>")
    out.append("<tr>" + "".join(f"<th style='text-align:left'>{_html.escape(h)}</th>" for h in head) + "</tr>")
    out += ["<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows]
    out.append("</table>")
    return "\n".join(out)


def _steps_html(steps: Sequence["Step"]) -> list[list[str]]:
    return [[f"<b>{_html.escape(s.title)}</b>", _math_html(s.latex), _html.escape(s.status),
             f"<i>{_html.escape(s.justification)}</i>"] for s in steps]


def _title_html(result: "CheckResult") -> str:
    """The title with the user's activation and form as the formulas they parse to."""
    where = _scale(result.transformation)
    form = (f"the {result.form.name} form" if result.form.name in ("gated", "rank1")
            else f"the unit {_math_html('u(a, b) = ' + _unit(result.form))}")
    return (f"{_symmetry_name(result.symmetry)}{', ' + _math_html(where) if where else ''} on {form}, "
            f"{_math_html(_sigma_is(result.activation))}")


@renderer("html", CheckResult)
def result_html(result: "CheckResult") -> str:
    caption = (f"<b>{_title_html(result)}: {_html.escape(result.verdict.value)}</b>"
               f" &nbsp; {_math_html(_activation_definition(result.activation))}")
    table = _table(("step", "formula", "status", "why"), _steps_html(result.steps), caption)
    return table + (f"<p>note: {_html.escape(result.note)}</p>" if result.note else "")


@renderer("html", Derivation)
def derivation_html(derivation: "Derivation") -> str:
    caption = (f"<b>{_html.escape(derivation.name)}: {_html.escape(derivation.title)} — "
               f"{_html.escape(derivation.status)}</b><br>{_math_html(derivation.statement_latex)}")
    rows = [[str(n) + (" (definition)" if s.kind == "definition" else ""), _math_html(s.latex),
             _html.escape(s.status),
             f"<i>{_html.escape(s.justification)}</i><br><small>{_html.escape(s.checks_run)}</small>"]
            for n, s in enumerate(derivation.steps, 1)]
    return _table(("#", "step", "status", "why, and the checks run"), rows, caption)


@renderer("html", Audit)
def audit_html(audit: "Audit") -> str:
    caption = f"<b>Symmetry audit</b> &nbsp; {_math_html(_activation_definition(audit.activation))}"
    rows = []
    for r in audit.rows:
        kind = _html.escape(_KIND.get(r.transformation, r.transformation))
        where = _domain(r.transformation, r.domain)
        rows.append([_html.escape(r.form), kind + (", " + _math_html(where) if where else ""),
                     _html.escape(r.verdict.value), "" if r.degree is None else _math_html(math(r.degree)),
                     _html.escape(r.basis)])
    return _table(("form", "transformation", "verdict", "p", "basis"), rows, caption)


@renderer("html", Catalogue)
def catalogue_html(catalogue: Any) -> str:
    head = ["activation"] + [_KIND.get(t.name, t.name) + (f" ({t.domain})" if t.domain else "")
                             for t in catalogue.columns]
    rows = [[_math_html(_activation_definition(results[0].activation))]
            + [_html.escape(r.verdict.value) for r in results] for _, results in catalogue.rows]
    return _table(head, rows, f"<b>The catalogue on the {_html.escape(catalogue.form)} form</b>")


@renderer("html", PaperResult)
def paper_html(result: Any) -> str:
    return f"<h3>{_html.escape(result.title)}</h3>\n" + "\n".join(html(item) for item in result.items)


def html(item: Any) -> str:
    """A result, derivation, audit or table as HTML for Jupyter (formulas typeset by MathJax)."""
    return render(item, "html")


# ---- symmetry groups (symcheck.engine.group) ------------------------------------------------------

from symcheck.engine.group import FormulationSymmetries, SymmetryGroup  # noqa: E402  (kept with its renderers)


@renderer("html", SymmetryGroup)
def group_html(group: "SymmetryGroup") -> str:
    state = "complete" if group.complete else "partial"
    caption = (f"<b>Symmetry group: {state}</b> &nbsp; "
               f"{_math_html(_activation_definition(group.activation))}")
    members = [[_math_html(c.aset.latex()), _math_html("c" if c.c is None else sympy_latex(c.c)),
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
def formulation_symmetries_html(symmetries: "FormulationSymmetries") -> str:
    items = "".join(f"<li>{_html.escape(f)}</li>" for f in symmetries.families())
    return (f"<p><b>{_html.escape(symmetries.form)}</b>: (q, k, v) → (λq, μk, νv) is a symmetry iff "
            f"{_math_html(symmetries.condition_latex)}</p><ul>{items}</ul>")


def sympy_latex(expr: Any) -> str:
    from symcheck.output.latex import math
    return math(expr)


# ---- model reports (symcheck model DIR) ---------------------------------------------------------

from symcheck.numeric.model_report import VERDICTS as _MODEL_VERDICTS, ModelReport  # noqa: E402


def _model_value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2e}"


@renderer("html", ModelReport)
def model_report_html(report: "ModelReport") -> str:
    """The layers as one table: form, σ, sizes, each verdict, then the three measured figures."""
    caption = (f"<b>{_html.escape(report.name)}</b> ({_html.escape(report.architecture.name)}): "
               f"{len(report.layers)} of {report.count} MLP layers; inputs: {_html.escape(report.inputs)}")
    head = ("layer", "form", "σ", "d, m", *_MODEL_VERDICTS, "exchange defect", "rescaling residual",
            "error vs forward")
    rows = []
    for r in report.layers:
        verdicts = ["n/a" if r.verdicts.get(k) is None else _html.escape(r.verdicts[k].verdict.value)
                    for k in _MODEL_VERDICTS]
        rows.append([str(r.index), _html.escape(r.form.name), _html.escape(r.activation.name),
                     f"{r.sizes.d}, {r.sizes.m}", *verdicts, _model_value(r.exchange_defect),
                     _model_value(r.rescaling_residual), _model_value(r.relative_error)])
    return _table(head, rows, caption)
