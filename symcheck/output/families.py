"""Renderings of a family's result (rich, LaTeX, HTML): the verdict with its quantifier
("for every β > 0"), the witness with its parameter values, and the regions.

One small module for the one result type, registered for each format (the package root loads
it after that format's main module), so the family renderers do not grow the shared ones.
"""
from __future__ import annotations

import html as _html

import sympy
from rich.table import Table
from rich.text import Text

from symcheck.core.rendering import renderer
from symcheck.engine.family_result import FamilyResult
from symcheck.output import mathml, text

_RESULT = "symcheck.engine.family_result.FamilyResult"


def _latex(expr: sympy.Basic) -> str:
    return sympy.latex(expr)


def quantifier_latex(result: FamilyResult) -> str:
    """\\forall \\beta > 0 (and every further parameter), in the user's names."""
    parts = [_latex(p.condition()) if not p.all_reals else f"{_latex(p.shown)} \\in \\mathbb{{R}}"
             for p in result.params]
    return ",\\ ".join(f"\\forall\\, {c}" for c in parts)


@renderer("rich", _RESULT)
def rich_family(result: FamilyResult):
    from symcheck.output.render import TitledPanel, verdict_text
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    table.add_column("region", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("why", overflow="fold")
    for r in result.regions:
        table.add_row(r.region, verdict_text(r.verdict), Text("; ".join(r.how), style="dim italic"))
    parts: list = [Text(f"{result.quantifier}: {result.verdict.value}", style="bold")]
    if result.witness is not None:
        parts.append(Text(f"witness: {result.witness_text()}"))
    parts.append(table)
    if result.note:
        parts.append(Text(f"note: {result.note}", style="yellow"))
    verdict = verdict_text(result.verdict)
    return TitledPanel(parts, Text.assemble(verdict, ": ", result.title), verdict,
                       subtitle=f"σ(z) = {text.formula(result.family.shown_expr)}")


@renderer("latex", _RESULT)
def latex_family(result: FamilyResult, notebook: bool = False, level: int = 1) -> str:
    sigma = _latex(result.family.shown_expr)
    head = (f"\\textbf{{{result.symmetry}}} on the {result.form.name} form, "
            f"$\\sigma(z) = {sigma}$, ${quantifier_latex(result)}$: \\textbf{{{result.verdict.value}}}.")
    lines = [head]
    point, params = result.witness_point, result.witness_params  # None exactly without a witness
    if point is not None and params is not None:
        shown = ",\\ ".join(f"{_latex(sympy.Symbol(k))} = {_latex(v)}" for k, v in {**point, **params}.items())
        lines.append(f"Witness: ${shown}$.")
    lines.append("\\begin{itemize}")
    for r in result.regions:
        lines.append(f"\\item ${_latex(r.condition)}$: {r.verdict.value}")
    lines.append("\\end{itemize}")
    return "\n".join(lines)


@renderer("html", _RESULT)
def html_family(result: FamilyResult) -> str:
    rows = "".join(f"<tr><td>{mathml.element(r.condition)}</td><td>{_html.escape(r.verdict.value)}</td>"
                   f"<td>{_html.escape('; '.join(r.how))}</td></tr>" for r in result.regions)
    witness = (f"<p>witness: {_html.escape(result.witness_text())}</p>" if result.witness is not None else "")
    note = f"<p>note: {_html.escape(result.note)}</p>" if result.note else ""
    return (f"<p><b>{_html.escape(result.title)}: {_html.escape(result.verdict.value)}</b> "
            f"&nbsp; {mathml.from_latex(quantifier_latex(result))}</p>{witness}"
            f"<table><tr><th>region</th><th>verdict</th><th>why</th></tr>{rows}</table>{note}")


# --------------------------------------------------------------------------- a family's audit

_AUDIT = "symcheck.paper.family_audit.FamilyAudit"


def _row_name(row) -> str:
    where = f" ({row.domain})" if row.domain is not None else ""
    p = f", p = {row.degree}" if row.degree is not None else ""
    return f"{row.transformation}{where}{p}"


def _regions_text(row) -> str:
    """The regions of a row that has more than one: 'Eq(beta, 0): holds; beta > 0: broken'."""
    return "; ".join(f"{r.region}: {r.verdict.value}" for r in row.regions) if len(row.regions) > 1 else ""


@renderer("rich", _AUDIT)
def rich_family_audit(audit):
    from symcheck.output.render import verdict_text
    title = f"Symmetry audit, σ = {audit.family.name}, {audit.quantifier}"
    table = Table(title=title, header_style="bold")
    for column in ("form", "transformation", "verdict"):
        table.add_column(column, no_wrap=True)
    table.add_column("basis and regions", overflow="fold")
    previous = None
    for row in audit.rows:
        regions = _regions_text(row)
        basis = Text(row.basis, style="dim italic")
        if regions:
            basis.append(f"\n{regions}", style="")
        table.add_row(row.form if row.form != previous else "", _row_name(row), verdict_text(row.verdict), basis)
        previous = row.form
    return table


def _latex_text(text: str) -> str:
    return "".join({"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}.get(c, c)
                   for c in text)


@renderer("latex", _AUDIT)
def latex_family_audit(audit, notebook: bool = False, level: int = 1) -> str:
    quantifier = ",\\ ".join(f"\\forall\\, {_latex(p.condition())}" if not p.all_reals
                             else f"\\forall\\, {_latex(p.shown)} \\in \\mathbb{{R}}" for p in audit.family.params)
    lines = [f"\\textbf{{Symmetry audit}}, $\\sigma(z) = {_latex(audit.family.shown_expr)}$, ${quantifier}$.",
             "\\begin{tabular}{llll}", "form & transformation & verdict & regions \\\\ \\hline"]
    for row in audit.rows:
        regions = ", ".join(f"${_latex(r.condition)}$: {r.verdict.value}" for r in row.regions
                            if len(row.regions) > 1)
        lines.append(f"{_latex_text(row.form)} & {_latex_text(_row_name(row))} & {row.verdict.value} & "
                     f"{regions} \\\\")
    lines.append("\\end{tabular}")
    return "\n".join(lines)


@renderer("html", _AUDIT)
def html_family_audit(audit) -> str:
    rows = "".join(f"<tr><td>{_html.escape(r.form)}</td><td>{_html.escape(_row_name(r))}</td>"
                   f"<td>{_html.escape(r.verdict.value)}</td><td>{_html.escape(r.basis)}</td>"
                   f"<td>{_html.escape(_regions_text(r))}</td></tr>" for r in audit.rows)
    return (f"<p><b>Symmetry audit, σ = {_html.escape(audit.family.name)}, {_html.escape(audit.quantifier)}</b></p>"
            f"<table><tr><th>form</th><th>transformation</th><th>verdict</th><th>basis</th><th>regions</th></tr>"
            f"{rows}</table>")
