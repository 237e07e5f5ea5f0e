"""Rich renderings of results (imported lazily: rich costs import time the JSON path avoids)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, JustifyMethod, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.style import StyleType
from rich.table import Table
from rich.text import Text

from symcheck.core.formula import Text as Words
from symcheck.core.rendering import renderer
from symcheck.core.results import Status
from symcheck.core.verdict import Verdict
from symcheck.output.flow import Flow, formula, words
from symcheck.output.text import formula as text
from symcheck.output.text import statement

if TYPE_CHECKING:  # registered by qualified name: rich text need not import every result's module
    from symcheck.engine.check_result import CheckResult
    from symcheck.engine.group.formulations import FormulationSymmetries
    from symcheck.engine.group.results import SymmetryGroup
    from symcheck.language.activations import Listing
    from symcheck.numeric.model_report import LayerRecord, ModelReport
    from symcheck.numeric.report import NumericReport
    from symcheck.paper.auditing import Audit
    from symcheck.paper.derivations import Derivation, DerivationStatus
    from symcheck.paper.targets import Catalogue, PaperResult

VERDICT_STYLE = {Verdict.HOLDS: "bold green", Verdict.BROKEN: "bold red",
                 Verdict.INCONCLUSIVE: "bold yellow"}
#: keyed by the status's text: a step's Status (a StrEnum) and a derivation check's status alike
STATUS_STYLE: dict[str, str] = {
    Status.VERIFIED: "green", Status.CERTIFIED: "green", Status.THEOREM: "cyan", Status.GIVEN: "dim",
    Status.UNKNOWN: "yellow", Status.TIMEOUT: "yellow", Status.FAILED: "red"}
#: the statuses that leave a step unproved
UNSETTLED = frozenset({Status.FAILED, Status.UNKNOWN, Status.TIMEOUT})


def verdict_text(verdict: Verdict) -> Text:
    return Text(verdict.value, style=VERDICT_STYLE[verdict])


# Nothing is cropped at any width: a table wraps only its last column (so a folded cell reads
# on, line after line), and when its other columns cannot fit whole, or the last one cannot hold
# its widest formula, it becomes a list; a panel title or subtitle that does not fit moves into
# the panel's body, where it wraps. A formula is never split across lines (output.flow).

#: the narrowest the wrapping last column of a table may get before the table becomes a list
LAST_COLUMN_MIN = 24


def _fits(console: Console, options: ConsoleOptions, table: Table, last_min: int) -> bool:
    """Every column but the last at its full width, and the last at ``last_min`` or its widest
    unbreakable piece (a formula), fit the width."""
    left, right = table.padding[3], table.padding[1]
    widths = []
    for column in table.columns[:-1]:
        cells = [column.header, *column.cells]
        widths.append(max(Measurement.get(console, options, cell).maximum for cell in cells) + left + right)
    last_min = max([last_min, *(Measurement.get(console, options, cell).minimum for cell in table.columns[-1].cells)])
    borders = len(table.columns) + 1 if table.box is not None else 0
    return sum(widths) + last_min + left + right + borders <= options.max_width


class Fitted:
    """``table`` where it fits (:func:`_fits`), else the list ``narrow()`` builds."""

    def __init__(self, table: Table, narrow: Callable[[], RenderableType], last_min: int = LAST_COLUMN_MIN) -> None:
        self.table, self.narrow, self.last_min = table, narrow, last_min

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.table if _fits(console, options, self.table, self.last_min) else self.narrow()


class TitledPanel:
    """A panel whose title and subtitle are never cut: one that does not fit the width is shown
    as the body's first (title) or last (subtitle) line instead, and ``short`` (the verdict, say)
    stays in the border."""

    def __init__(self, parts: Sequence[RenderableType], title: Text, short: Text | None = None,
                 subtitle: str | Text | None = None) -> None:
        self.parts, self.title, self.short, self.subtitle = list(parts), title, short, subtitle

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = options.max_width - 6          # the corners, the rule's first dash, a space each side
        parts, subtitle = list(self.parts), self.subtitle
        title: Text | None = self.title
        if cell_len(self.title.plain) > room:
            parts.insert(0, Text.assemble(self.title, style="bold"))
            title = self.short if self.short is not None and cell_len(self.short.plain) <= room else None
        shown = Text(subtitle) if isinstance(subtitle, str) else subtitle
        if shown is not None and cell_len(shown.plain) > room:  # "σ(z) = …": one formula
            parts.append(Flow(formula(shown.plain, "dim")) if isinstance(subtitle, str) else shown)
            subtitle = None
        yield Panel(Group(*parts), title=title, title_align="left", subtitle=subtitle, subtitle_align="left")


def _proof(rows: Sequence[tuple[str, RenderableType, Text]], first: str, body: str, *,
           style: StyleType | None = None, justify: JustifyMethod = "left") -> Fitted:
    """A proof's steps: label, status, then the step with its reasons last (it wraps); as a list
    of labelled paragraphs where that does not fit. ``style`` and ``justify`` are the label column's."""
    table = Table(show_header=True, header_style="bold", box=None, expand=False, padding=(0, 1))
    table.add_column(first, no_wrap=True, style=style, justify=justify)
    table.add_column("status", no_wrap=True)
    table.add_column(body, overflow="fold")
    for label, body_text, status in rows:
        table.add_row(label, status, body_text)

    def narrow() -> Group:
        items: list[RenderableType] = []
        for label, body_text, status in rows:
            items.append(Text.assemble((label, "bold"), "  ", status))
            items.append(Padding(body_text, (0, 0, 0, 2)))
        return Group(*items)
    return Fitted(table, narrow)


def _status(status: Status | DerivationStatus) -> Text:
    return Text(status, style=STATUS_STYLE.get(status, ""))


def _step_rows(steps) -> list[tuple[str, Flow, Text]]:
    """A proof's steps as rows: the title, the statement with its justification below, the status.
    The statement is the step's formula, printed in the one notation of output.text, each of its
    lines whole; a step whose formula is words alone shows its statement, as prose."""
    rows = []
    for step in steps:
        prose = step.formula is None or isinstance(step.formula, Words)
        pieces = [words(step.text)] if prose else [piece for i, line in enumerate(step.text.split("\n"))
                                                   for piece in ([words("\n")] if i else []) + [formula(line)]]
        if step.justification:
            pieces.append(words("\n" + step.justification, "dim italic"))
        rows.append((step.title, Flow(*pieces), _status(step.status)))
    return rows


def sigma_text(act) -> str:
    """σ's formula for a subtitle or a table, in the notation of every other formula shown."""
    return text(act.short_expr)


@renderer("rich", "symcheck.engine.check_result.CheckResult")
def rich_result(result: CheckResult) -> TitledPanel:
    parts: list = [_proof(_step_rows(result.steps), "step", "statement", style="bold")]
    if result.note:
        parts.append(Text(f"note: {result.note}", style="yellow"))
    if result.cross_check is not None:  # the second engine (symcheck.engine.smt)
        agrees = result.cross_check.agrees
        parts.append(Text(f"cross-check: {result.cross_check.summary()}",
                          style="yellow" if agrees is None else "green" if agrees else "bold red"))
    points, largest = result.sampled
    if result.verdict is Verdict.INCONCLUSIVE and points:
        shown = "beyond float64's range" if largest is None else f"{largest:.6g}"
        parts.append(Text(f"numeric evidence (not a proof): {points} points, "
                          f"largest |r| ≈ {shown}", style="dim"))
    elif result.verdict is Verdict.INCONCLUSIVE:  # "0 points, |r| ≈ 0" would read like evidence of 0
        parts.append(Text("no numeric evidence was gathered", style="dim"))
    # the verdict first, and alone in the border when the whole title does not fit
    verdict = verdict_text(result.verdict)
    return TitledPanel(parts, Text.assemble(verdict, ": ", result.title), verdict,
                       subtitle=f"σ(z) = {sigma_text(result.activation)}")


@renderer("rich", "symcheck.numeric.report.NumericReport")
def rich_numeric_report(report: NumericReport) -> TitledPanel:
    """Two evaluations at size as a key/value panel; the outcome last, coloured by what it means."""
    from symcheck.numeric.report import IDENTITIES
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    rows: list[tuple[str, str | Text]] = []
    for key, value in (("claim", report.claim), ("left", report.left), ("right", report.right),
                       ("layer", f"{report.form} form, σ = {report.activation.name}, {report.dtype}"),
                       ("sizes", ", ".join(f"{k} = {v}" for k, v in report.sizes.items())),
                       ("data", report.source), ("routes", "; ".join(dict.fromkeys(report.routes))),
                       ("time", f"{report.elapsed:.2f} s")):
        rows.append((key, value))
    # an identity that fails is alarming; a symmetry that breaks is a finding
    style = ("green" if report.within else "yellow" if report.no_evidence else
             "bold red" if report.kind in IDENTITIES else "bold yellow")
    rows.append(("result", Text(report.summary, style=style)))
    for key, cell in rows:
        table.add_row(key, cell)

    def narrow() -> Group:
        return Group(*(item for key, value in rows
                       for item in (Text(key, style="bold"), Padding(value, (0, 0, 0, 2)))))
    return TitledPanel([Fitted(table, narrow)], Text(f"numeric {report.kind}"),
                       subtitle="numeric evidence, not a symbolic verdict")


def catalogue_table(rows, columns: list[str]) -> Fitted:
    """rows: (activation name, [CheckResult per column]). σ's formula comes last (it wraps
    between formulas); where the verdict columns and it cannot fit, one paragraph per activation."""
    rows = [(name, sigma_text(results[0].activation), results) for name, results in rows]
    title = "Symmetries of the gated unit σ(a)·b"
    table = Table(title=title, header_style="bold")
    table.add_column("activation", style="bold", no_wrap=True)
    for column in columns:
        table.add_column(column, justify="center", no_wrap=True)
    table.add_column("σ(z)", overflow="fold")
    for name, shown, results in rows:
        table.add_row(name, *(verdict_text(r.verdict) for r in results), Flow(formula(shown)))

    def narrow() -> Group:
        items: list[RenderableType] = [Text(title, style="bold")]
        for name, shown, results in rows:
            items.append(Flow(words(name, "bold"), words("  "), formula(f"σ(z) = {shown}")))
            verdicts = Text("  ")
            for i, (column, result) in enumerate(zip(columns, results, strict=True)):
                verdicts.append_text(Text.assemble(", " if i else "", f"{column}: ", verdict_text(result.verdict)))
            items.append(verdicts)
        return Group(*items)
    return Fitted(table, narrow, last_min=16)


def _degree(p) -> str:
    """p as it reads best: exact when rational, else a few digits (the JSON keeps it exact)."""
    if p is None:
        return ""
    return text(p) if p.is_Rational else f"≈ {float(p.evalf(8)):.4f}"


def _transformation(row) -> str:
    """'inverse scaling, α > 0': the transformation and where its scale ranges, in one cell."""
    from symcheck.language.transformations import names, scale_symbol
    kind = names(row.transformation).short
    if row.domain is None:
        return kind
    return f"{kind}, {statement(row.domain.formula(scale_symbol(row.transformation)))}"


def _basis(row, style: str = "") -> Flow:
    """What backs an audit row, its witness's coordinates as formulas (``α = −2``, never split)."""
    if not row.witness:
        return Flow(words(row.basis, style))
    import sympy

    from symcheck.paper.auditing import witness_text
    before, _, after = row.basis.partition(witness_text(row.witness))
    point = [formula(f"{text(sympy.Symbol(k))} = {text(v)}", style) for k, v in row.witness.items()]
    commas = [words(", ", style)] * len(point)
    return Flow(words(before, style), *[p for pair in zip(commas, point, strict=True) for p in pair][1:],
                words(after, style))


@renderer("rich", "symcheck.language.activations.Listing")
def rich_listing(listing: Listing) -> Table:
    table = Table(title="Activation catalogue", header_style="bold")
    for column in ("name", "formula", "description", "aliases"):
        table.add_column(column, overflow="fold")
    for entry in listing.entries:
        table.add_row(entry.name, entry.short, entry.description, ", ".join(entry.aliases))
    return table


@renderer("rich", "symcheck.paper.auditing.Audit")
def rich_audit(audit: Audit) -> Fitted:
    """The audit as one table: form, transformation and domain, verdict, degree p, basis (last:
    it wraps); where that cannot fit, a list grouped by form."""
    title = f"Symmetry audit, σ = {audit.activation.name}"
    table = Table(title=title, header_style="bold")
    for column in ("form", "transformation", "verdict", "p"):
        table.add_column(column, no_wrap=True)
    table.add_column("basis", overflow="fold")
    previous = None
    for row in audit.rows:
        table.add_row(row.form if row.form != previous else "", _transformation(row),
                      verdict_text(row.verdict), _degree(row.degree), _basis(row))
        previous = row.form

    def narrow() -> Group:
        items: list[RenderableType] = [Text(title, style="bold")]
        previous = None
        for row in audit.rows:
            if row.form != previous:
                items.append(Text(row.form, style="bold underline"))
                previous = row.form
            degree = _degree(row.degree)
            items.append(Padding(Text.assemble(_transformation(row), ": ", verdict_text(row.verdict),
                                               f", p = {degree}" if degree else ""), (0, 0, 0, 2)))
            items.append(Padding(_basis(row, "dim"), (0, 0, 0, 4)))
        return Group(*items)
    return Fitted(table, narrow)


@renderer("rich", "symcheck.paper.derivations.steps.Derivation")
def rich_derivation(derivation: Derivation) -> TitledPanel:
    """A derivation as a numbered table: each step, its status, why it holds, the checks run."""
    from symcheck.paper.derivations import DerivationStatus, StepKind  # loaded with the derivation
    quiet = (DerivationStatus.VERIFIED, DerivationStatus.NOT_APPLICABLE)
    rows = []
    for number, step in enumerate(derivation.steps, 1):
        body = Text(step.text)
        if step.kind is StepKind.DEFINITION:
            body.append("  (definition)", style="cyan")
        body.append("\n" + step.justification, style="dim italic")
        for record in step.checks:
            body.append(f"\n{record.name}: {record.detail}",
                        style="dim" if record.status in quiet else STATUS_STYLE.get(record.status, ""))
        rows.append((str(number), body, _status(step.status)))
    status = Text(derivation.status, style="bold green" if derivation.verified else "bold red")
    title = Text.assemble(f"{derivation.name}: {derivation.title}: ", status)
    return TitledPanel([Text(derivation.statement, style="bold"), _proof(rows, "#", "step", justify="right")],
                       title, Text.assemble(f"{derivation.name}: ", status),
                       subtitle=f"{len(derivation.steps)} steps, checked in {derivation.elapsed:.2f} s")


@renderer("rich", "symcheck.paper.targets.Catalogue")
def rich_catalogue(catalogue: Catalogue) -> Fitted:
    labels = [t.name if t.domain is None else f"{t.name} ({t.domain})" for t in catalogue.columns]
    return catalogue_table([(name, list(results)) for name, results in catalogue.rows], labels)


@renderer("rich", "symcheck.paper.targets.PaperResult")
def rich_paper_result(result: PaperResult) -> Group:
    return Group(Text(result.title, style="bold"), *result.items)


# ---- symmetry groups (symcheck.engine.group) ----------------------------------------------------


def _proof_summary(steps) -> Text:
    """A component's proof in one cell: how many cases, and whether every step is verified."""
    cases = sum(1 for s in steps if s.case)
    failed = [s for s in steps if s.status in UNSETTLED]
    if failed:
        return Text(f"not proved ({failed[0].title})", style="yellow")
    return Text(f"proved: {cases} cases, each verified" if cases else "proved", style="green")


def _aset_text(aset) -> str:
    """The a-set in the table's notation (its own description writes a power as (sqrt(2))^j)."""
    import sympy

    from symcheck.engine.group.facts import ASetKind
    if aset.kind is ASetKind.FINITE:
        return "a ∈ {" + ", ".join(text(p) for p in aset.points) + "}"
    if aset.kind is ASetKind.DISCRETE:
        power = text(sympy.Pow(aset.base, sympy.Symbol("j"), evaluate=False))
        return f"a = {'±' if aset.negatives else ''}{power}, j ∈ ℤ"
    return aset.describe()


def _members(group: SymmetryGroup) -> Fitted:
    """The components: a-set, c, proof (it wraps last); one paragraph each where that does not fit."""
    rows = [(_aset_text(component.aset), "every c" if component.c is None else text(component.c),
             _proof_summary(component.steps)) for component in group.components]
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    table.add_column("a", style="bold", no_wrap=True)
    table.add_column("c", no_wrap=True)
    table.add_column("proof", overflow="fold")
    for row in rows:
        table.add_row(*row)

    def narrow() -> Group:
        return Group(*(item for a, c, proof in rows
                       for item in (Text(a, style="bold", overflow="fold"),
                                    Padding(Text.assemble(f"c = {c}; ", proof), (0, 0, 0, 2)))))
    return Fitted(table, narrow)


@renderer("rich", "symcheck.engine.group.results.SymmetryGroup")
def rich_group(group: SymmetryGroup) -> TitledPanel:
    """The components (a-set, c, proof), then the maximality argument step by step."""
    parts: list = [Text("Members", style="bold underline"), _members(group),
                   Text("Why there are no others" if group.complete else "What is known about the others",
                        style="bold underline"),
                   _proof(_step_rows(group.maximality), "argument", "statement", style="bold")]
    for excluded in group.excluded:
        where = ", ".join(f"{k} = {text(v)}" for k, v in excluded.witness.items())
        parts.append(Text(f"refuted: (a, c) = ({text(excluded.a)}, {text(excluded.c)}), certified at {where}",
                          style="dim"))
    if group.complete:
        parts.append(Text(f"inverse scaling: (α, α) ∈ G exactly for {group.inverse_scaling_text()}"))
    if group.note:
        parts.append(Text(f"note: {group.note}", style="yellow"))
    status = Text("complete" if group.complete else "partial",
                  style="bold green" if group.complete else "bold yellow")
    name = group.activation.name if group.activation.builtin else "σ"
    return TitledPanel(parts, Text.assemble(status, f": symmetry group of {name}"), status,
                       subtitle=f"σ(z) = {sigma_text(group.activation)}")


@renderer("rich", "symcheck.engine.group.formulations.FormulationSymmetries")
def rich_formulation(symmetries: FormulationSymmetries) -> TitledPanel:
    """(q, k, v) → (λq, μk, νv) on one unit: the condition and the families it allows."""
    parts: list = [Text(f"a symmetry iff {symmetries.condition}")]
    parts += [Padding(Text(f"• {family}"), (0, 0, 0, 1)) for family in symmetries.families()]
    if not symmetries.group.complete:
        parts.append(Text("the group is partial: other families may exist", style="yellow"))
    return TitledPanel(parts, Text(f"diagonal symmetries (q, k, v) → (λq, μk, νv) of the {symmetries.form} unit"),
                       Text("diagonal symmetries"))


# ---- model reports (symcheck model DIR) ---------------------------------------------------------


#: the verdict columns of a model report, by key
MODEL_VERDICTS = {"exchange": "exchange", "inverse-scaling-positive": "α > 0",
                  "inverse-scaling-minus-one": "α = −1", "key-value-rescaling": "key-value β > 0"}
MODEL_FIGURES = (("exchange_defect", "exchange"), ("rescaling_residual", "rescaling"),
                 ("relative_error", "vs forward"))


def _model_figure(value: float | None) -> Text:
    return Text("n/a", style="dim") if value is None else Text(f"{value:.2e}")


def _listed(rows: Sequence[tuple[str, Sequence[tuple[str, RenderableType]]]]) -> Group:
    """Each row as a bold heading and its cells as 'label: value' lines (a table too wide)."""
    items: list[RenderableType] = []
    for heading, cells in rows:
        items.append(Text(heading, style="bold"))
        for label, value in cells:
            items.append(Padding(Text.assemble(f"{label}: ", value if isinstance(value, Text) else str(value)),
                                 (0, 0, 0, 2)))
    return Group(*items)


def _model_verdicts(report: ModelReport) -> Fitted:
    """One row per (σ, form): the verdicts are decided once per activation, not per layer."""
    from symcheck.numeric.model_report import VERDICTS
    kinds: dict[tuple[str, str], LayerRecord] = {}
    for record in report.layers:
        kinds.setdefault((record.activation.name, record.form.name), record)
    table = Table(title="Symbolic verdicts", title_justify="left", header_style="bold", box=None, padding=(0, 1))
    for column in ("σ", "form", *MODEL_VERDICTS.values()):
        table.add_column(column, no_wrap=True)
    rows = []
    for (name, form), record in kinds.items():
        cells: list[tuple[str, RenderableType]] = [
            (MODEL_VERDICTS[key], Text("n/a", style="dim") if (found := record.verdicts.get(key)) is None
             else verdict_text(found.verdict)) for key in VERDICTS]
        table.add_row(name, form, *(value for _, value in cells))
        rows.append((f"σ = {name}, {form}", cells))
    return Fitted(table, lambda: _listed(rows), last_min=len("key-value β > 0"))


def _model_layers(report: ModelReport) -> Fitted:
    table = Table(title="Layers: ‖f′ − f‖ / ‖f‖ on the inputs", title_justify="left", header_style="bold",
                  box=None, padding=(0, 1))
    for column in ("layer", "form", "σ", "d, m", *(label for _, label in MODEL_FIGURES)):
        table.add_column(column, no_wrap=True, justify="right" if column == "layer" else "left")
    rows: list[tuple[str, list[tuple[str, RenderableType]]]] = []
    for r in report.layers:
        figures = [(label, _model_figure(getattr(r, name))) for name, label in MODEL_FIGURES]
        table.add_row(str(r.index), r.form.name, r.activation.name, f"{r.sizes.d}, {r.sizes.m}",
                      *(value for _, value in figures))
        rows.append((f"layer {r.index}", [("form", r.form.name), ("σ", r.activation.name),
                                          ("d, m", f"{r.sizes.d}, {r.sizes.m}"), *figures]))
    return Fitted(table, lambda: _listed(rows), last_min=len("vs forward"))


@renderer("rich", "symcheck.numeric.model_report.ModelReport")
def rich_model_report(report: ModelReport) -> Group:
    """The model's header, its verdicts (once per σ and form), then one row per layer."""
    from symcheck.numeric.planner import size_text
    head = Text.assemble((f"{report.name}", "bold"), f" ({report.architecture.name}): "
                         f"{len(report.layers)} of {report.count} MLP layers; inputs: {report.inputs}; "
                         f"memory {size_text(report.memory)} per layer; {report.runner}; "
                         f"{report.elapsed:.2f} s")
    note = Text("exchange: the defect when the gate and up weights of every unit are swapped; rescaling: "
                "the residual when every key is doubled and its value halved; vs forward: symcheck's "
                "evaluation against the block computed as the framework writes it. n/a: the form has no "
                "such factor.", style="dim")
    links = [Text(f"link followed: {line}", style="dim") for line in report.link_lines()]
    return Group(head, *links, _model_verdicts(report), _model_layers(report), note)


# ---- layer groups (symcheck layer-group) --------------------------------------------------------

@renderer("rich", "symcheck.engine.group.layer.LayerGroup")
def rich_layer_group(group) -> TitledPanel:
    """The unit, the group's generators, the proof step by step, then what it does not cover."""
    parts: list = [Text(f"unit j: {group.unit}"), Text("Members", style="bold underline")]
    parts += [Padding(Text(f"• {family}"), (0, 0, 0, 1)) for family in group.families()]
    parts += [Text("Proof", style="bold underline"), _proof(_step_rows(group.proof), "step", "statement", style="bold"),
              Text("Not covered", style="bold underline")]
    parts += [Padding(Text(f"• {item}", style="dim"), (0, 0, 0, 1)) for item in group.not_covered]
    if not group.complete:
        parts.append(Text(f"note: G_σ is partial: {group.group.note}", style="yellow"))
    status = Text("complete" if group.complete else "partial",
                  style="bold green" if group.complete else "bold yellow")
    name = group.activation.name if group.activation.builtin else "σ"
    return TitledPanel(parts, Text.assemble(status, f": weight symmetries of the {group.form} layer, σ = {name}"),
                       status, subtitle=f"σ(z) = {sigma_text(group.activation)}")


# ---- transformed checkpoints (symcheck transform) -----------------------------------------------

@renderer("rich", "symcheck.numeric.transform.TransformReport")
def rich_transform_report(report) -> Group:
    """The output and its groups, then one row per layer: the element and the rounding."""
    from symcheck.numeric.planner import size_text
    head = Text.assemble((str(report.output), "bold"), f" ({report.architecture}): {len(report.layers)} MLP layers "
                         f"from {report.source}; {report.files} files written; inputs: {report.inputs}; memory "
                         f"{size_text(report.memory)}; {report.elapsed:.2f} s")
    groups = [Text(f"σ = {g.activation.name}, {g.form}: gate a with {g.gate_values()}"
                   + ("" if g.complete else " (G_σ partial)"), style="dim") for g in report.groups]
    table = Table(title="Layers", title_justify="left", header_style="bold", box=None, padding=(0, 1))
    for column in ("layer", "permuted", "gate a", "value λ", "c", "rounding"):
        table.add_column(column, no_wrap=True)
    rows = []
    for layer in report.layers:
        cells = [("permuted", "yes" if layer.permuted else "no"), ("gate a", _span_text(layer.gate)),
                 ("value λ", _span_text(layer.value)), ("c", _span_text(layer.c)),
                 ("rounding", _model_figure(layer.rounding))]
        table.add_row(str(layer.index), *(value for _, value in cells))
        rows.append((f"layer {layer.index}", cells))
    note = Text("rounding: the largest relative change ‖f′(x) − f(x)‖/‖f(x)‖ of the layer's output over the input "
                "rows, evaluated in float64 — what rounding the scaled weights to their dtype introduced.", style="dim")
    skipped = ([Text(f"not copied (other weight files): {', '.join(report.skipped)}", style="yellow")]
               if report.skipped else [])
    return Group(head, *groups, Fitted(table, lambda: _listed(rows), last_min=len("rounding")), note, *skipped)


def _span_text(values) -> str:
    if values is None:
        return "1"
    low, high = values
    return f"{low:g}" if low == high else f"{low:g} … {high:g}"


# ---- equivalence of checkpoints (symcheck equiv) ------------------------------------------------

_EQUIV_STYLE = {"equivalent": "bold green", "not equivalent": "bold red", "undetermined": "bold yellow"}


@renderer("rich", "symcheck.numeric.equiv.EquivReport")
def rich_equiv_report(report) -> Group:
    """The models' verdict, then one row per layer: its verdict, the residual, and why."""
    head = Text.assemble((f"{report.first} vs {report.second}", "bold"), f" ({report.architecture}): ",
                         (report.verdict, _EQUIV_STYLE[report.verdict]), f"; inputs: {report.inputs}; "
                         f"{report.elapsed:.2f} s")
    table = Table(header_style="bold", box=None, padding=(0, 1))
    for column in ("layer", "verdict", "residual", "why"):
        table.add_column(column, no_wrap=column != "why", overflow="fold")
    rows = []
    for layer in report.layers:
        verdict = Text(layer.verdict, style=_EQUIV_STYLE[layer.verdict])
        residual = "n/a" if layer.residual is None else f"{layer.residual:.2f}"
        table.add_row(str(layer.index), verdict, residual, layer.reason)
        rows.append((f"layer {layer.index}", [("verdict", verdict), ("residual", residual), ("why", layer.reason)]))
    note = Text("residual: the largest entry of |B − g·A| in units of the dtype's rounding of g·A.", style="dim")
    return Group(head, Fitted(table, lambda: _listed(rows)), note)


# ---- canonical checkpoints (symcheck canonical) -------------------------------------------------

@renderer("rich", "symcheck.numeric.canonical.CanonicalReport")
def rich_canonical_report(report) -> Group:
    """The output, the normal form's rules per group, then one row per layer: what changed."""
    from symcheck.numeric.planner import size_text
    head = Text.assemble((str(report.output), "bold"), f" ({report.architecture}): {len(report.layers)} MLP layers "
                         f"of {report.source} in canonical form; {report.files} files written; inputs: "
                         f"{report.inputs}; memory {size_text(report.memory)}; {report.elapsed:.2f} s")
    rules = [Text(f"σ = {g.activation.name}, {g.form}: " + "; ".join(rules), style="dim")
             for g, rules in zip(report.groups, report.rules, strict=True)]
    if report.like is not None:
        rules.append(Text(f"units matched to {report.like}: its order, and the signs that agree with it", style="dim"))
    table = Table(title="Layers", title_justify="left", header_style="bold", box=None, padding=(0, 1))
    head_cells, body = report.table()
    for column in head_cells:
        table.add_column(column, no_wrap=True)
    rows = []
    for cells in body:
        table.add_row(*cells)
        rows.append((f"layer {cells[0]}", list(zip(head_cells[1:], cells[1:], strict=True))))
    note = Text("moved: units whose position changed; turned: signs fixed (a = −1, λ < 0); tied: units whose sign "
                "patterns coincide, ordered by norms (stable only to rounding); degenerate: a zero row, left as it "
                "was; rounding: the largest ‖f′(x) − f(x)‖/‖f(x)‖ over the input rows, in float64"
                + ("; alignment: the smallest |cosine| between a unit's row and its match's." if report.like
                   else "."), style="dim")
    return Group(head, *rules, Fitted(table, lambda: _listed(rows), last_min=len("rounding")), note)
