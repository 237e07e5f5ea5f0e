"""Rich renderings of results (imported lazily: rich costs import time the JSON path avoids)."""
from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from symcheck.core.rendering import renderer
from symcheck.engine.check_result import CheckResult
from symcheck.paper.auditing import Audit
from symcheck.paper.derivations import Derivation
from symcheck.paper.targets import Catalogue, PaperResult
from symcheck.core.verdict import Verdict
from symcheck.numeric.report import IDENTITIES, NumericReport

VERDICT_STYLE = {Verdict.HOLDS: "bold green", Verdict.BROKEN: "bold red",
                 Verdict.INCONCLUSIVE: "bold yellow"}
STATUS_STYLE = {"verified": "green", "certified": "green", "theorem": "cyan", "given": "dim",
                "unknown": "yellow", "timeout": "yellow", "failed": "red"}


def verdict_text(verdict: Verdict) -> Text:
    return Text(verdict.value, style=VERDICT_STYLE[verdict])


def _steps_table(first: str, body: str, **first_style: object) -> Table:
    """The borderless three-column table of a proof: a label, the step with its reasons, the status."""
    table = Table(show_header=True, header_style="bold", box=None, expand=False, padding=(0, 1))
    table.add_column(first, no_wrap=True, **first_style)
    table.add_column(body, overflow="fold")
    table.add_column("status", no_wrap=True)
    return table


@renderer("rich", CheckResult)
def rich_result(result: CheckResult) -> Panel:
    table = _steps_table("step", "statement", style="bold")
    for step in result.steps:
        body = Text(step.statement)
        if step.justification:
            body.append("\n" + step.justification, style="dim italic")
        table.add_row(step.title, body, Text(step.status, style=STATUS_STYLE.get(step.status, "")))
    parts: list = [table]
    if result.note:
        parts.append(Text(f"note: {result.note}", style="yellow"))
    if result.cross_check is not None:  # the second engine (symcheck.engine.smt)
        agrees = result.cross_check.agrees
        parts.append(Text(f"cross-check: {result.cross_check.summary()}",
                          style={True: "green", False: "bold red"}.get(agrees, "yellow")))
    if result.verdict is Verdict.INCONCLUSIVE and result.evidence.get("points"):
        parts.append(Text(f"numeric evidence (not a proof): {result.evidence['points']} points, "
                          f"largest |r| ≈ {result.evidence.get('largest', '0')}", style="dim"))
    elif result.verdict is Verdict.INCONCLUSIVE:  # "0 points, |r| ≈ 0" would read like evidence of 0
        parts.append(Text("no numeric evidence was gathered", style="dim"))
    # the verdict first: a panel title that does not fit is cut at its end, never the verdict
    title = Text.assemble(verdict_text(result.verdict), ": ", result.title)
    return Panel(Group(*parts), title=title, title_align="left",
                 subtitle=f"σ(z) = {result.formula if len(result.formula) < 70 else result.formula[:67] + '…'}", subtitle_align="left")


@renderer("rich", NumericReport)
def rich_numeric_report(report: NumericReport) -> Panel:
    """Two evaluations at size as a key/value panel; the outcome last, coloured by what it means."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in (("claim", report.claim), ("left", report.left), ("right", report.right),
                       ("layer", f"{report.form} form, σ = {report.activation}, {report.dtype}"),
                       ("sizes", ", ".join(f"{k} = {v}" for k, v in report.sizes.items())),
                       ("data", report.source), ("routes", "; ".join(dict.fromkeys(report.routes))),
                       ("time", f"{report.elapsed:.2f} s")):
        table.add_row(key, value)
    # an identity that fails is alarming; a symmetry that breaks is a finding
    style = ("green" if report.within else "yellow" if report.no_evidence else
             "bold red" if report.check in IDENTITIES else "bold yellow")
    table.add_row("result", Text(report.summary, style=style))
    return Panel(table, title=f"numeric {report.check}", title_align="left",
                 subtitle="numeric evidence, not a symbolic verdict", subtitle_align="left")


def catalogue_table(rows, columns: list[str]) -> Table:
    """rows: (activation name, formula, [CheckResult per column])."""
    table = Table(title="Symmetries of the gated unit σ(a)·b", header_style="bold")
    table.add_column("activation", style="bold")
    table.add_column("σ(z)", overflow="fold", max_width=42)
    for column in columns:
        table.add_column(column, justify="center")
    for name, formula, results in rows:
        table.add_row(name, formula, *(verdict_text(r.verdict) for r in results))
    return table


def _degree(p) -> str:
    """p as it reads best: exact when rational, else a few digits (the JSON keeps it exact)."""
    from symcheck.core.printing import text
    if p is None:
        return ""
    return text(p) if p.is_Rational else f"≈ {float(p.evalf(8)):.4f}"


_SHORT_KIND = {"inverse-scaling": "inverse scaling", "key-value-rescaling": "key-value",
               "query-value-rescaling": "query-value"}
_DOMAIN = {"positive": "> 0", "negative": "< 0", "any": "≠ 0"}


def _transformation(row) -> str:
    """'inverse scaling, α > 0': the transformation and where its scale ranges, in one cell."""
    kind = _SHORT_KIND.get(row.transformation, row.transformation)
    if row.domain is None:
        return kind
    scale = "β" if row.transformation == "key-value-rescaling" else "α"
    return f"{kind}, {scale} {_DOMAIN.get(row.domain, '= ' + row.domain)}"


@renderer("rich", Audit)
def rich_audit(audit: Audit) -> Table:
    """The audit as one table: form, transformation and domain, verdict, degree p, basis."""
    table = Table(title=f"Symmetry audit, σ = {audit.activation.name}", header_style="bold")
    for column in ("form", "transformation", "verdict", "p"):
        table.add_column(column, no_wrap=True)
    table.add_column("basis", overflow="fold", min_width=20)
    previous = None
    for row in audit.rows:
        table.add_row(row.form if row.form != previous else "", _transformation(row),
                      verdict_text(row.verdict), _degree(row.degree), row.basis)
        previous = row.form
    return table


@renderer("rich", Derivation)
def rich_derivation(derivation: Derivation) -> Panel:
    """A derivation as a numbered table: each step, why it holds, the checks run, its status."""
    table = _steps_table("#", "step", justify="right")
    for number, step in enumerate(derivation.steps, 1):
        body = Text(step.text)
        if step.kind == "definition":
            body.append("  (definition)", style="cyan")
        body.append("\n" + step.justification, style="dim italic")
        for record in step.checks:
            body.append(f"\n{record.kind}: {record.detail}",
                        style="dim" if record.status in ("verified", "not-applicable") else STATUS_STYLE.get(record.status, ""))
        table.add_row(str(number), body, Text(step.status, style=STATUS_STYLE.get(step.status, "")))
    status = Text(derivation.status, style="bold green" if derivation.verified else "bold red")
    title = Text.assemble(f"{derivation.name}: {derivation.title}: ", status)
    return Panel(Group(Text(derivation.statement, style="bold"), table), title=title, title_align="left",
                 subtitle=f"{len(derivation.steps)} steps, checked in {derivation.elapsed:.2f} s", subtitle_align="left")


@renderer("rich", Catalogue)
def rich_catalogue(catalogue: Catalogue) -> Table:
    labels = [s if d is None else f"{s} ({d})" for s, d in catalogue.columns]
    return catalogue_table([(name, results[0].formula, list(results)) for name, results in catalogue.rows],
                           labels)


@renderer("rich", PaperResult)
def rich_paper_result(result: PaperResult) -> Group:
    return Group(Text(result.title, style="bold"), *result.items)
