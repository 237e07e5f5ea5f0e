"""The ``symcheck`` command: parses arguments, calls the library, renders what it returns.

Exit status: 0 when a check ran (whatever the verdict); 1 when ``--expect`` differs from the
verdict; 2 for bad input or usage, with one ``Error: …`` line on stderr and no traceback; 3 for
an internal error (a bug in symcheck; ``SYMCHECK_DEBUG=1`` shows the traceback).
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn

import click

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import SymcheckError
from symcheck.core.verdict import Equivalence, Expectation, Outcome, Verdict, Verification
from symcheck.numeric.vocabulary import CHECK_FORMS, NumericCheckKind, NumericForm
from symcheck.output.plot_kinds import PlotKind

if TYPE_CHECKING:  # rich is imported only when a progress bar is shown
    from rich.progress import Progress

EXIT_EXPECT, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 3
_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", None)  # click ≥ 8.2


def _values(vocabulary: type[StrEnum]) -> tuple[str, ...]:
    """A vocabulary's strings, for click.Choice (which would offer an Enum's member names)."""
    return tuple(member.value for member in vocabulary)


VERDICTS = _values(Verdict)
CATALOG_COLUMNS = {"exchange": ("exchange", None), "α>0": ("inverse-scaling", "positive"),
                   "α=−1": ("inverse-scaling", "-1"), "α≠0": ("inverse-scaling", "any")}
_JSON_KEYS = {"α>0": "positive", "α=−1": "minus-one", "α≠0": "any", "exchange": "exchange"}


class _Seconds(click.ParamType):
    """A time budget: finite, from 0.01 s to a day (a NaN or an overflowing timer is refused)."""

    name = "seconds"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not 0.01 <= seconds <= 86400:  # also false for NaN
            self.fail(f"{value!r} is not between 0.01 and 86400 seconds", param, ctx)
        return seconds


SECONDS = _Seconds()


def _emit(payload: Any, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    Console(soft_wrap=False).print(payload)


def _expect_failed(message: str) -> NoReturn:
    """``--expect`` not met: one line on standard error, exit status 1 (every command the same)."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(EXIT_EXPECT)


def _check_expect(expect: Any, got: Any) -> None:
    """``--expect``: exit with status 1 when the result ``got`` is not ``expect`` (each printed as given)."""
    if expect is not None and got != expect:
        _expect_failed(f"expected {expect}, got {got}")


def _finish(result, as_json: bool, expect: str | None) -> None:
    _emit(result.to_dict() if as_json else result, as_json)
    _check_expect(expect, result.verdict.value)


# The options commands share, each defined once (the help says what it means for the command).
_ACT_HELP = "Catalogue name or an expression in one variable."
_JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def _stdin_act(ctx: Any, param: Any, value: str | None) -> str | None:
    """``--act -``: the expression is read from standard input (a long formula, or a pipe)."""
    if value != "-":
        return value
    text = sys.stdin.read().strip()
    if not text:
        raise click.BadParameter("standard input is empty: give the activation's expression there", ctx, param)
    return text


def _act(help: str = _ACT_HELP, **settings: Any) -> Callable:
    defaults: dict[str, Any] = {"required": True, "callback": _stdin_act}
    return click.option("--act", "act", metavar="ACT", help=help + " '-' reads it from standard input.",
                        **(defaults | settings))


def _timeout(help: str) -> Callable:
    return click.option("--timeout", type=SECONDS, default=DEFAULT_TIMEOUT, show_default=True, help=help)


def _expect(choices: tuple[str, ...] = VERDICTS, what: str = "verdict", help: str | None = None) -> Callable:
    return click.option("--expect", type=click.Choice(choices), default=None,
                        help=help or f"Exit with status 1 when the {what} differs.")


#: --expect of the sweeps (audit, catalog): against the paper's stated verdicts, or none undecided
_EXPECT_ROWS = _expect(_values(Expectation), help=(
    "paper: exit with status 1 when a row's verdict differs from the one the paper states (for "
    "every σ: rank1 exchange and inverse scaling, gated key-value rescaling hold; on the gated "
    "form: the verdicts of relu, leaky_relu, gelu, silu, sigmoid, tanh and identity); rows it "
    "says nothing about are not compared. decided: exit with status 1 when a row is inconclusive."))


def _finish_rows(result: Any, expect: str | None) -> None:
    if expect is None:
        return
    from symcheck.paper.claims import describe, mismatches
    wanted = Expectation(expect)
    found = mismatches(result, wanted)
    if found:
        _expect_failed(describe(found, wanted))


_CERTIFICATE = click.option(
    "--certificate", "certificate_file", type=click.Path(dir_okay=False, writable=True), default=None,
    metavar="FILE", help="Write the proof certificate the kernel accepted (JSON, schema symcheck.certificate/1; "
                         "re-check it with `symcheck check-certificate FILE`). Written only when there is one.")


def _write_certificate(document: dict | None, path: str | None) -> None:
    """Write the certificate (nothing to write is said on stderr, not an error: the verdict stands)."""
    if path is None:
        return
    if document is None:
        click.echo(f"no certificate written to {path}: only a proof the kernel accepted has one", err=True)
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=1, ensure_ascii=False)
            handle.write("\n")
    except OSError as err:
        raise click.ClickException(f"cannot write the certificate {path}: {err.strerror or err}") from None


#: a declared parameter of σ, repeatable (symcheck.language.params)
_PARAM = click.option("--param", "param", multiple=True, metavar="DECL",
                      help="Declare a parameter of the activation and its range, e.g. 'beta>0', '0<alpha<1', "
                           "'p' (all reals) or 'c!=0'; repeatable. The verdict is then for every value in "
                           "the range, with the regions where it holds or is broken.")


def _common(f: Callable) -> Callable:
    options = [
        _act("Catalogue name (see `symcheck activations`) or an expression in one "
             "variable, e.g. 'z*tanh(softplus(z))' or 'Max(z, z/5)'."),
        click.option("--form", default="gated", show_default=True, metavar="FORM",
                     help="Unit form: gated = σ(a)·b (the GLU family), rank1 = σ(a·b), or your "
                          "own unit in a, b and sigma(...), e.g. 'sigma(a)*b + sigma(b)*a'."),
        _timeout("Time budget in seconds; running out is 'inconclusive'."),
        _JSON,
        _expect(),
        _CERTIFICATE,
        _PARAM,
    ]
    for option in reversed(options):
        f = option(f)
    return f


#: other spellings of command names (the prose and LaTeX say 'catalogue')
_COMMAND_ALIASES = {"catalogue": "catalog"}


class _Commands(click.Group):
    """Commands by name or alias; an unknown name is answered with the closest ones."""

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return super().get_command(ctx, _COMMAND_ALIASES.get(name, name))

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            import difflib
            close = difflib.get_close_matches(args[0], [*self.list_commands(ctx), *_COMMAND_ALIASES], n=2)
            names = dict.fromkeys(_COMMAND_ALIASES.get(c, c) for c in close)
            hint = f" Did you mean {' or '.join(map(repr, names))}?" if names else ""
            ctx.fail(f"No such command {args[0]!r}.{hint}")  # click's wording, aliases included
        return super().resolve_command(ctx, args)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="symcheck")
def cli() -> None:
    """Sound symbolic checks of query/key symmetries of gated MLPs and bilinear attention.

    Verdicts: 'holds' comes with a proof covering all of R, 'broken' with an exact witness
    certified by exact or interval arithmetic, anything else is 'inconclusive'.
    """


@cli.command()
@_common
def exchange(act: str, form: str, timeout: float, as_json: bool, expect: str | None,
             certificate_file: str | None, param: tuple[str, ...] = ()) -> None:
    """Is swapping query and key, (q, k) -> (k, q), a symmetry of the unit?

    \b
    Example:  symcheck exchange --act silu
              symcheck exchange --act relu --form rank1 --json
    """
    result = _exchange_result(act=act, form=form, timeout=timeout, param=param)
    _write_certificate(result.certificate, certificate_file)
    _finish(result, as_json, expect)


@cli.command()
@_common
@click.option("--alpha", default="positive", show_default=True, metavar="DOMAIN",
              help="positive (every α>0), negative, any (every α≠0), or one number, e.g. -1 or 1/2.")
def scaling(act: str, form: str, timeout: float, as_json: bool, expect: str | None,
            certificate_file: str | None, alpha: str, param: tuple[str, ...] = ()) -> None:
    """Is inverse scaling, (q, k) -> (αq, k/α), a symmetry for every α in the domain?

    \b
    Example:  symcheck scaling --act relu
              symcheck scaling --act tanh --alpha -1
    """
    result = _scaling_result(act=act, form=form, timeout=timeout, alpha=alpha, param=param)
    _write_certificate(result.certificate, certificate_file)
    _finish(result, as_json, expect)


@cli.command()
@_act()
@click.option("--form", default=None, metavar="FORM",
              help="Also give the unit's diagonal symmetries (q, k, v) -> (λq, μk, νv): gated, rank1, mlp, "
                   "query-mlp, bilinear or rank-r.")
@_timeout("Time budget in seconds; what is not decided in time is left open (a partial group).")
@_JSON
@click.option("--certificate", "certificate_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write every proved member's certificate, as the kernel accepted it, in one bundle "
                   "(re-check it with `symcheck check-certificate FILE`). The maximality argument is not in it.")
@_PARAM
@click.option("--at", "at", multiple=True, metavar="NAME=VALUE",
              help="With --param: the group at this value of each parameter (a rational inside its range).")
def group(act: str, form: str | None, timeout: float, as_json: bool, certificate_file: str | None,
          param: tuple[str, ...] = (), at: tuple[str, ...] = ()) -> None:
    """The symmetry group G = {(a, c) : σ(a·z) = c·σ(z) for every z} of an activation.

    \b
    Every member comes with the engine's proof, and the group is 'complete' only with a
    proof that there are no others; otherwise it is 'partial' and says which argument is missing.
    Example:  symcheck group --act relu
              symcheck group --act tanh --form gated --json
    """
    from symcheck.engine.group.assemble import symmetry_group
    from symcheck.engine.group.formulations import symmetry_forms
    from symcheck.engine.group.results import SymmetryGroup
    key = symmetry_forms(form) if form is not None else None  # a bad --form fails before the work
    if param:  # a family: the ordinary group at the values given with --at
        values = {name: value for name, _, value in (item.partition("=") for item in at)}
        family = symmetry_group(act, timeout=timeout, params=list(param))  # a FamilyGroup
        result = family if isinstance(family, SymmetryGroup) else family.at(values)
    else:
        result = symmetry_group(act, timeout=timeout)
    _write_certificate(result.certificate_bundle(), certificate_file)
    formulation = None if key is None else result.formulation_symmetries(key)
    if as_json:
        payload = result.to_dict()
        if formulation is not None:
            payload["formulation"] = formulation.to_dict()
        _emit(payload, True)
        return
    _emit(result, False)
    if formulation is not None:
        _emit(formulation, False)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def activations(as_json: bool) -> None:
    """List the catalogue activations with their formulas (torch.nn.functional defaults)."""
    from symcheck.language.activations import listing
    result = listing()
    _emit(result.to_dict() if as_json else result, as_json)


@cli.command()
@_timeout("Time budget per check, in seconds.")
@_JSON
@_EXPECT_ROWS
def catalog(timeout: float, as_json: bool, expect: str | None) -> None:
    """Every catalogue activation against exchange and inverse scaling on the gated form."""
    from symcheck.language.activations import activation, catalogue
    from symcheck.paper.targets import catalogue_audit
    columns = tuple(CATALOG_COLUMNS.values())
    with _progress(len(catalogue()) * len(columns), quiet=False) as advance:
        sweep = catalogue_audit("gated", timeout=timeout, columns=columns, progress=advance)
    rows = [(name, activation(name).short, results) for name, results in sweep.rows]
    if as_json:
        _emit({"form": "gated", "columns": [_JSON_KEYS[c] for c in CATALOG_COLUMNS],
               "rows": [{"activation": name, "formula": formula,
                         **{_JSON_KEYS[c]: r.verdict.value for c, r in zip(CATALOG_COLUMNS, results, strict=True)},
                         "results": [r.to_dict() for r in results]}
                        for name, formula, results in rows]}, True)
    else:
        from symcheck.output.render import catalogue_table
        _emit(catalogue_table([(name, results) for name, _, results in rows], list(CATALOG_COLUMNS)), False)
    _finish_rows(sweep, expect)


@cli.command()
@_act()
@_timeout("Time budget per row, in seconds.")
@_JSON
@_EXPECT_ROWS
@_PARAM
def audit(act: str, timeout: float, as_json: bool, expect: str | None, param: tuple[str, ...]) -> None:
    """Every formulation against every transformation, for one activation.

    \b
    Rows: exchange, inverse scaling (α>0, α<0, α=−1, α≠0), key-value rescaling,
    query-value rescaling with the homogeneity degree p, permutation and gauge, on
    gated, rank1, mlp, query-mlp, bilinear and rank-r, each with its proof or witness.
    With --param, each row is for every parameter value in the range, with its regions.
    Example:  symcheck audit --act silu
    """
    from symcheck.paper.auditing import UNIT_ROWS, Audit
    from symcheck.paper.auditing import audit as run_audit
    with _progress(len(UNIT_ROWS), quiet=False) as advance:
        result = run_audit(act, timeout=timeout, progress=advance, params=list(param) or None)
    _emit(result.to_dict() if as_json else result, as_json)
    _finish_rows(result if isinstance(result, Audit) else result.verdict_rows(), expect)


@cli.command()
@click.argument("name", metavar="NAME")
@_JSON
@_expect(_values(Verification), "derivation's status")
def derive(name: str, as_json: bool, expect: str | None) -> None:
    """Replay a derivation of the paper, every step checked by the machine.

    \b
    NAME: absorb (a global query is absorbed into the keys), rank1 (bilinear attention
    with r = 1 is σ((xQᵀ)⊙(xKᵀ))V), mlp (the MLP is bilinear attention with a static
    factor), gated (the gated MLP moves σ onto the query factor), rank-r.
    Example:  symcheck derive rank1
    """
    from symcheck.paper.derivations import derive as run_derive
    result = run_derive(name)
    _emit(result.to_dict() if as_json else result, as_json)
    _check_expect(None if expect is None else Verification(expect), result.verification)


@cli.command("check-certificate")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The kernel's verdict as JSON.")
def check_certificate(path: str, as_json: bool) -> None:
    """Re-check a proof certificate with the kernel: exit 0 accepted, 1 rejected, 2 unreadable."""
    from symcheck.kernel.check import check_document
    try:
        with open(path, encoding="utf-8") as handle:
            certificate = json.load(handle)
    except (OSError, ValueError, RecursionError) as err:
        raise click.ClickException(f"cannot read the certificate {path}: {type(err).__name__}: {err}") from None
    verdict = check_document(certificate)
    click.echo(json.dumps(dataclasses.asdict(verdict), ensure_ascii=False) if as_json else str(verdict))
    if not verdict.accepted:
        sys.exit(EXIT_EXPECT)


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("target", nargs=-1, required=True, type=click.UNPROCESSED, metavar="TARGET")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
@click.option("--fragment", is_flag=True, help="The body only, for \\input (needs amsmath, amssymb).")
def latex(target: tuple[str, ...], output: str | None, fragment: bool) -> None:
    """Write a result as LaTeX: a standalone document (amsmath, amssymb), or with --fragment its body.

    \b
    TARGET: a derivation (absorb, rank1, mlp, gated, rank-r); a check written as on the
    command line (exchange --act silu, scaling --act relu --alpha positive, --form allowed);
    audit --act NAME; group --act NAME (its symmetry group); catalogue (every activation on
    the gated form); a paper result as a whole (exchange, scaling, audit, group without
    --act); or all (every paper result).
    Example:  symcheck latex exchange --act silu -o exchange-silu.tex
              symcheck latex rank1 --fragment
    """
    if output is not None and os.path.splitext(output)[1].lower() in _NOT_LATEX:
        raise click.UsageError(f"-o {output}: symcheck writes LaTeX source, not "
                               f"{os.path.splitext(output)[1]}; name the file .tex and compile it "
                               "with pdflatex (it needs amsmath and amssymb)")
    from symcheck.output.documents import latex_document
    from symcheck.paper.targets import steps
    with _progress(steps(target[0]) if len(target) == 1 else 0, quiet=False) as advance:
        result = target_result(target, progress=advance)
    _write(latex_document(result, fragment=fragment), output)


#: file types that are not LaTeX source: writing .tex text into them would only mislead
_NOT_LATEX = (".pdf", ".dvi", ".ps", ".png", ".svg", ".html", ".json")


@cli.command()
@click.argument("kind", type=click.Choice(_values(PlotKind)), metavar="KIND")
@_act()
@click.option("--alpha", default="positive", show_default=True, metavar="DOMAIN",
              help="scaling only: the α range drawn, positive, negative or any.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The figure file: .png, .svg or .pdf.")
@_timeout("Time budget of the symbolic check that decides whether there is a defect to draw.")
def plot(kind: str, act: str, alpha: str, output: str, timeout: float) -> None:
    """Draw a symmetry's defect (needs matplotlib: pip install 'symcheck[plot]').

    \b
    KIND: exchange — σ(a)·b − σ(b)·a over (a, b), its zero set marked;
          scaling  — σ(αa)/α − σ(a) over (α, a), its zero set marked.
    Where the symbolic check proves the symmetry, the figure says the defect is
    identically 0 instead of drawing float round-off.
    Example:  symcheck plot exchange --act silu -o exchange-silu.png
    """
    from symcheck.language.transformations import DomainName
    from symcheck.output.plots import figure_format, scaling_domain
    from symcheck.output.plots import plot as draw
    figure = PlotKind(kind)
    figure_format(output)  # a file type that cannot be drawn fails first, as before
    domain = scaling_domain(alpha) if figure is PlotKind.SCALING else DomainName.POSITIVE  # exchange has no α
    click.echo(f"wrote {draw(figure, act, output, alpha=domain, timeout=timeout)}", err=True)


@cli.command()
@_act()
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the page to FILE (e.g. report.html) instead of standard output.")
@_timeout("Time budget per check, in seconds.")
@click.option("--no-plots", is_flag=True, help="Leave the defect plots out (drawing them needs matplotlib).")
def report(act: str, output: str | None, timeout: float, no_plots: bool) -> None:
    """One self-contained HTML page for an activation, to open in any browser or share.

    \b
    Exchange and inverse scaling (α > 0, α = −1, α ≠ 0) with their proofs or witnesses, the
    audit table, the symmetry group, and the defect plots inlined as SVG; formulas in MathML.
    The page loads nothing from the network and runs no script.
    Example:  symcheck report --act silu -o silu.html
    """
    from symcheck.output.report_html import activation_document
    from symcheck.paper.report import REPORT_STEPS, activation_report
    with _progress(REPORT_STEPS, quiet=False) as advance:
        result = activation_report(act, timeout=timeout, progress=advance)
    _write(activation_document(result, timeout=timeout, plots=not no_plots), output, encoding="utf-8")


# ---- what the check commands compute, shared with `symcheck latex TARGET` -----------------------

def _exchange_result(*, act: str, form: str, timeout: float, param: tuple[str, ...] = (), **_: Any) -> Any:
    from symcheck.engine.symmetries import check_exchange
    return check_exchange(act, form, timeout=timeout, params=list(param) or None)


def _scaling_result(*, act: str, form: str, timeout: float, alpha: str, param: tuple[str, ...] = (),
                    **_: Any) -> Any:
    from symcheck.engine.symmetries import check_inverse_scaling
    return check_inverse_scaling(act, alpha, form, timeout=timeout, params=list(param) or None)


def _audit_result(*, act: str, timeout: float, **_: Any) -> Any:
    from symcheck.paper.auditing import audit as run_audit
    return run_audit(act, timeout=timeout)


def _group_result(*, act: str, form: str | None, timeout: float, **_: Any) -> Any:
    if form is not None:
        from symcheck.core.errors import TargetError
        raise TargetError("the group target: --form has no meaning in a LaTeX document of the group")
    from symcheck.engine.group.assemble import symmetry_group
    return symmetry_group(act, timeout=timeout)


def _catalogue_result(*, timeout: float, **_: Any) -> Any:
    from symcheck.paper.targets import catalogue_audit
    return catalogue_audit("gated", timeout=timeout)  # every column the sweep has, for the document


#: TARGET commands that take options: their options are read by the command's own click parser
_TARGET_COMMANDS: dict[str, tuple[str, Callable[..., Any]]] = {
    "exchange": ("exchange", _exchange_result), "scaling": ("scaling", _scaling_result),
    "audit": ("audit", _audit_result), "group": ("group", _group_result), "catalog": ("catalog", _catalogue_result),
    "catalogue": ("catalog", _catalogue_result),
}


def target_result(target: str | tuple[str, ...] | list[str], progress: Callable[[str], None] | None = None) -> Any:
    """The result a TARGET names, written as on the command line (one string, or its words).

    ``exchange --act silu``, ``scaling --act relu --alpha -1``, ``audit --act relu`` and
    ``catalogue --timeout 5`` are read by those commands' own options (the same checks, errors
    and defaults); a bare name is a derivation, a paper result, ``catalogue`` or ``all``
    (:func:`symcheck.paper.targets.resolve`).
    """
    import shlex

    from symcheck.core.errors import TargetError
    from symcheck.paper.targets import resolve
    words = [target] if isinstance(target, str) else list(target)
    if len(words) == 1:  # the target quoted as one string
        try:
            words = shlex.split(words[0])
        except ValueError as err:
            raise TargetError(f"cannot read the target {words[0]!r}: {err}") from None
    if not words:
        raise TargetError("no target given; expected a derivation name, a check, 'audit --act NAME' or 'all'")
    head, rest = words[0].strip().lower().replace("_", "-"), words[1:]
    if head == "derive" and len(rest) == 1:  # as in `symcheck derive NAME`
        head, rest = rest[0], []
    if not rest:  # progress: told after each computation of a paper result (targets.steps)
        return resolve(head, progress)
    if head not in _TARGET_COMMANDS:
        from symcheck.paper.targets import NAMES
        if head in NAMES:
            raise TargetError(f"the {head} target takes no options")
        return resolve(head)  # an unknown name: the error names the closest
    name, compute = _TARGET_COMMANDS[head]
    command = cli.commands[name]
    try:
        context = command.make_context(f"latex {head}", list(rest), resilient_parsing=False)
    except click.UsageError as err:
        raise TargetError(f"the {head} target: {_one_line(err.format_message())}") from None
    if context.params.get("as_json") or context.params.get("expect"):
        raise TargetError(f"the {head} target: --json and --expect have no meaning in a LaTeX document")
    return compute(**context.params)


def _write(text: str, output: str | None, encoding: str = "ascii") -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        with open(output, "w", encoding=encoding) as handle:
            handle.write(text)
    except OSError as err:
        raise click.FileError(output, hint=err.strerror or str(err)) from None
    click.echo(f"wrote {output}", err=True)


@cli.command()
@click.argument("check", type=click.Choice(_values(NumericCheckKind)), metavar="CHECK")
@_act(required=False, default="silu", show_default=True)
@click.option("--form", type=click.Choice([form.value for form in CHECK_FORMS]), default=None,
              help="exchange/scaling only: the layer form [default: gated; bilinear uses --r].")
@click.option("--d", "d", type=click.IntRange(min=1), default=None, help="Input size d [default: 256].")
@click.option("--m", "m", type=click.IntRange(min=1), default=None, help="Hidden units m [default: 1024].")
@click.option("--r", "r", type=click.IntRange(min=1), default=None,
              help="Per-unit rank r of the bilinear form [default: 4].")
@click.option("--tokens", type=click.IntRange(min=1), default=None, help="Input rows N [default: 256].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random data.")
@click.option("--dtype", type=click.Choice(["float64", "float32"]), default="float64", show_default=True)
@click.option("--memory", default="256MiB", show_default=True, metavar="BYTES",
              help="Working-memory budget, bytes or e.g. 512MiB, 1GB: it bounds the memory the "
                   "evaluation uses on top of its inputs (chunk products, σ's temporaries, the "
                   "output). The inputs (X, Q, K, V and the copies a check makes) are not in it; "
                   "they are estimated, with the budget, before anything is allocated, and a check "
                   "that would not fit in the memory available is refused (exit 2).")
@click.option("--alpha", default=None, metavar="NUMBER",
              help="scaling only: the α of (αQ, K/α), e.g. 3, -1 or 1/2 [default: 2].")
@click.option("--weights", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Real weights (.npy/.npz/.safetensors): Q, K, V or gate_proj/up_proj/down_proj; repeatable.")
@click.option("--inputs", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Input rows X (tokens, d) to use with --weights.")
@click.option("--layer", default=None, metavar="PREFIX", help="Which layer of a checkpoint (name prefix).")
@_JSON
@_expect((Outcome.AGREE.value, Outcome.DIFFER.value), help=(
    "agree: exit with status 1 unless the two evaluations agree within the tolerance; differ: unless "
    "they differ beyond it. An overflow or underflow (no evidence either way) meets neither."))
def numeric(check: str, act: str, form: str | None, d: int | None, m: int | None, r: int | None,
            tokens: int | None, seed: int, dtype: str, memory: str, alpha: str | None,
            weights: tuple[str, ...], inputs: str | None, layer: str | None, as_json: bool,
            expect: str | None) -> None:
    """Compare two evaluations of a layer at size, in NumPy: numeric evidence, not a verdict.

    \b
    CHECK: rank1    bilinear attention at r = 1 vs σ((xQᵀ)⊙(xKᵀ))V
           absorb   σ((xQ_g)Kᵀ)V vs σ(x(KQ_gᵀ)ᵀ)V
           exchange the layer with (Q, K) vs with (K, Q)
           scaling  the layer with (Q, K) vs with (αQ, K/α)
    Relative errors are compared with a tolerance derived from the dtype and the sizes.
    Example:  symcheck numeric exchange --act silu --d 512 --m 2048
              symcheck numeric rank1 --act gelu --dtype float32
              symcheck numeric exchange --weights examples/llama-mlp.safetensors --layer model.layers.0.
    """
    from symcheck.numeric.checks import prepare
    job = prepare(NumericCheckKind(check), act=act, form=None if form is None else NumericForm(form), d=d, m=m, r=r,
                  tokens=tokens, seed=seed, dtype=dtype, memory=memory, alpha=alpha, weights=weights, inputs=inputs,
                  layer=layer)
    with _progress(job.steps, quiet=not job.slow) as advance:
        report = job.run(advance)
    if as_json:  # strict JSON: a NaN or Infinity here is a bug, not output
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False))
    else:
        _emit(report, as_json)
    _check_expect(None if expect is None else Outcome(expect), report.outcome)


@cli.command()
@click.argument("directory", metavar="DIR")
@click.option("--layers", default=None, metavar="LIST",
              help="Which MLP layers: indices and ranges, e.g. 0,3-5 [default: all].")
@click.option("--inputs", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Input rows X (tokens, d): .npy, .npz or .safetensors.")
@click.option("--tokens", type=click.IntRange(min=1), default=None,
              help="Random normal input rows, when no --inputs [default: 128].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random rows.")
@click.option("--memory", default="256MiB", show_default=True, metavar="BYTES",
              help="Working memory per layer (the weights stay in their files): bytes, or e.g. 512MiB, 1GB.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Run the layers on a local dask cluster of N worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the layers on an existing dask cluster, e.g. tcp://10.0.0.5:8786.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also draw the defects by layer (.png, .svg or .pdf; needs matplotlib).")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the report as one self-contained HTML page (no network, no script).")
@click.option("--refuse-links", is_flag=True, default=False,
              help="Refuse config.json, the index or a shard that is a symbolic link (by default a "
                   "link to a regular file is followed, as in the Hugging Face cache, and reported).")
@_timeout("Time budget per symbolic check, in seconds.")
@_JSON
def model(directory: str, layers: str | None, inputs: str | None, tokens: int | None, seed: int,
          memory: str, workers: int | None, scheduler: str | None, plot_file: str | None,
          refuse_links: bool, timeout: float, as_json: bool, html_file: str | None = None) -> None:
    """Every MLP layer of a Hugging Face model directory: form, σ, verdicts and measured defects.

    \b
    DIR holds config.json and model.safetensors (or shards listed in
    model.safetensors.index.json): LLaMA, Mistral, Qwen2, Gemma, Phi-3, GPT-2, OPT.
    Per layer: exchange defect (gate and up swapped) and rescaling residual (keys ×2,
    values ÷2), each ‖f′ − f‖/‖f‖ on the inputs, and the error against a direct forward.
    Example:  symcheck model ./llama-3.2-1b --layers 0,3-5 --tokens 256
              symcheck model ./gpt2 --json --workers 2
    """
    if inputs is not None and tokens is not None:
        raise click.UsageError("--inputs and --tokens exclude each other: give one")
    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers and --scheduler exclude each other: give one")
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.model_report import model_report, parse_layers
    from symcheck.numeric.options import InputRows, Resources
    from symcheck.numeric.planner import parse_memory
    if plot_file is not None:  # a file type that cannot be drawn fails before the work
        from symcheck.output.model_plot import figure_format
        figure_format(plot_file)
    run = Resources(parse_memory(memory), workers, scheduler, timeout)
    loaded = open_model(directory, follow_links=not refuse_links)
    chosen = None if layers is None else parse_layers(layers, len(loaded.layers))  # the one parse of --layers
    with _progress(len(loaded.layers) if chosen is None else len(chosen), quiet=False) as advance:
        report = model_report(loaded, layers=chosen, rows=InputRows(inputs, tokens, seed), run=run,
                              progress=advance)
    if plot_file is not None:
        from symcheck.output.model_plot import plot_model
        click.echo(f"wrote {plot_model(report, plot_file)}", err=True)
    if html_file is not None:
        from symcheck.output.report_html import model_document
        _write(model_document(report), html_file, encoding="utf-8")
    if as_json:  # strict JSON: a NaN or Infinity here is a bug, not output
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False))
        return
    _emit(report, False)


# ---- weight symmetries of checkpoints (layer-group, transform, equiv, canonical) -----------------

@cli.command("layer-group")
@_act()
@click.option("--form", default="gated", show_default=True, metavar="FORM",
              help="gated: σ(q_j·x + b_j)·(k_j·x + e_j)·v_j (LLaMA, Gemma, Phi-3); mlp: σ(k_j·x + b_j)·v_j "
                   "(GPT-2, OPT).")
@_timeout("Time budget in seconds for G_σ; what is not decided in time leaves the group partial.")
@_JSON
@click.option("--certificate", "certificate_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the certificates the kernel accepted (G_σ's members and the value path) in one bundle.")
def layer_group_command(act: str, form: str, timeout: float, as_json: bool, certificate_file: str | None) -> None:
    """The weight-symmetry group of an MLP layer, derived from G_σ, with its proof.

    \b
    Permutations of the units; the value path (k_j, e_j)·λ with v_j/λ for every λ ≠ 0 (gated);
    the gate (q_j, b_j)·a with the value path divided by c for every (a, c) ∈ G_σ. Complete
    exactly when G_σ is, for per-unit transformations (mixing units is not covered).
    Example:  symcheck layer-group --act silu --form gated
              symcheck layer-group --act relu --form mlp --json
    """
    from symcheck.engine.group.layer import layer_form, layer_group
    key = layer_form(form)  # a bad --form fails before the work
    result = layer_group(act, key, timeout=timeout)
    _write_certificate(result.certificate_bundle(), certificate_file)
    _emit(result.to_dict() if as_json else result, as_json)


_MEMORY_CHECKPOINT = click.option(
    "--memory", default="256MiB", show_default=True, metavar="BYTES",
    help="Working memory (the weights stay in their files, a block of rows at a time): bytes, or e.g. 512MiB.")


def _inputs_options(f: Callable) -> Callable:
    options = [click.option("--inputs", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                            help="Input rows X (tokens, d): .npy, .npz or .safetensors."),
               click.option("--tokens", type=click.IntRange(min=1), default=None,
                            help="Random normal input rows, when no --inputs [default: 32]."),
               click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random rows.")]
    for option in reversed(options):
        f = option(f)
    return f


@cli.command()
@click.argument("directory", metavar="DIR")
@click.option("-o", "--output", required=True, type=click.Path(file_okay=False), metavar="OUT",
              help="The new model directory (must not exist, or be empty).")
@click.option("--permute", type=click.Path(dir_okay=False), default=None, metavar="P",
              help="Permutations: .npz keyed by layer index, or .npy for every layer; unit i of OUT is unit P[i].")
@click.option("--scale-value", type=click.Path(dir_okay=False), default=None, metavar="S",
              help="Value-path scales λ per unit of DIR (gated layers only): (k_j, e_j)·λ_j, v_j/λ_j.")
@click.option("--scale-gate", type=click.Path(dir_okay=False), default=None, metavar="A",
              help="Gate scales a per unit of DIR: (q_j, b_j)·a_j with v_j/c_j, (a_j, c_j) ∈ G_σ (proved).")
@_inputs_options
@_MEMORY_CHECKPOINT
@_timeout("Time budget in seconds for each activation's G_σ.")
@_JSON
def transform(directory: str, output: str, permute: str | None, scale_value: str | None, scale_gate: str | None,
              inputs: str | None, tokens: int | None, seed: int, memory: str, timeout: float, as_json: bool) -> None:
    """Move a checkpoint along its layers' weight-symmetry groups, every element proved first.

    \b
    Each per-unit scale is proved to lie in the layer's group (from G_σ) before anything is
    written; an element that is not (a SiLU gate scaled by 2, a ReLU gate by -1) is refused
    with G_σ's certified reason (exit 2). OUT keeps every tensor's dtype; the report gives the
    largest relative change of each layer's output on the input rows (the rounding).
    Example:  symcheck transform ./llama -o ./llama-permuted --permute perm.npz
              symcheck transform ./opt -o ./opt-scaled --scale-gate a.npy --json
    """
    if inputs is not None and tokens is not None:
        raise click.UsageError("--inputs and --tokens exclude each other: give one")
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.options import InputRows, Resources
    from symcheck.numeric.transform import transform as run
    loaded = open_model(directory)
    with _progress(len(loaded.layers), quiet=False) as advance:
        report = run(loaded, output, permute=permute, scale_value=scale_value, scale_gate=scale_gate,
                     rows=InputRows(inputs, tokens, seed), run=Resources(memory, timeout=timeout), progress=advance)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False))
        return
    _emit(report, False)


@cli.command()
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
@_inputs_options
@_MEMORY_CHECKPOINT
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Compare the layers on a local dask cluster of N worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Compare the layers on an existing dask cluster, e.g. tcp://10.0.0.5:8786.")
@_timeout("Time budget in seconds for each activation's G_σ.")
@_JSON
@click.option("--expect", type=click.Choice(tuple(e.option for e in Equivalence)), default=None,
              help="Exit with status 1 when the models' verdict differs.")
def equiv(first: str, second: str, inputs: str | None, tokens: int | None, seed: int, memory: str,
          workers: int | None, scheduler: str | None, timeout: float, as_json: bool, expect: str | None) -> None:
    """Per MLP layer: is B = g·A for a proved element g of the layer's group? Finds g.

    \b
    equivalent: the permutation (unit i of B is unit P[i] of A) and scales found, every gate
    scale a proved member of G_σ, and B − g·A within the dtype's rounding; not equivalent: an
    input row and output where the two layers' outputs are certified to differ (ball
    arithmetic from the stored weights); otherwise undetermined, with the reason. One layer
    of each model is read at a time, a block of units at a time within --memory (per layer,
    on each worker).
    Example:  symcheck equiv ./llama ./llama-permuted --json
              symcheck equiv ./llama ./llama-ft --workers 2 --memory 1GiB
    """
    if inputs is not None and tokens is not None:
        raise click.UsageError("--inputs and --tokens exclude each other: give one")
    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers and --scheduler exclude each other: give one")
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.equiv import equiv as run
    from symcheck.numeric.options import InputRows, Resources
    a = open_model(first)
    with _progress(len(a.layers), quiet=False) as advance:
        report = run(a, second, rows=InputRows(inputs, tokens, seed),
                     run=Resources(memory, workers, scheduler, timeout), progress=advance)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False))
    else:
        _emit(report, False)
    _check_expect(None if expect is None else Equivalence(expect.replace("-", " ")), report.verdict)


@cli.command()
@click.argument("directory", metavar="DIR")
@click.option("-o", "--output", required=True, type=click.Path(file_okay=False), metavar="OUT",
              help="The new model directory (must not exist, or be empty).")
@click.option("--like", default=None, metavar="REF",
              help="Match the units to those of REF (a model of the same shape, e.g. another fine-tune in "
                   "canonical form): the order and free signs of REF's matched units, the scales as always.")
@_inputs_options
@_MEMORY_CHECKPOINT
@_timeout("Time budget in seconds for each activation's G_σ.")
@_JSON
def canonical(directory: str, output: str, like: str | None, inputs: str | None, tokens: int | None, seed: int,
              memory: str, timeout: float, as_json: bool) -> None:
    """Write one representative of the model's orbit: A and g·A give the same canonical weights.

    \b
    Per layer, an element of the layer group (every scale proved, as in transform): gate signs
    fixed where G_σ has a = -1, gate scales where it has every a > 0, the value path balanced
    (‖λ·k_j‖ = ‖v_j/λ‖), the units ordered by their sign patterns — or, with --like REF, as
    their matches in REF. Align two fine-tunes of one model this way before averaging them.
    Example:  symcheck canonical ./llama-ft1 -o ./ft1-canonical
              symcheck canonical ./llama-ft2 -o ./ft2-aligned --like ./ft1-canonical
    """
    if inputs is not None and tokens is not None:
        raise click.UsageError("--inputs and --tokens exclude each other: give one")
    from symcheck.numeric.architectures import open_model
    from symcheck.numeric.canonical import canonical as run
    from symcheck.numeric.options import InputRows, Resources
    loaded = open_model(directory)
    with _progress(len(loaded.layers), quiet=False) as advance:
        report = run(loaded, output, rows=InputRows(inputs, tokens, seed), run=Resources(memory, timeout=timeout),
                     like=like, progress=advance)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False))
        return
    _emit(report, False)


class _progress:
    """A transient rich progress bar on stderr (silent when stderr is not a terminal, or with --json)."""

    def __init__(self, total: int, quiet: bool) -> None:
        context = click.get_current_context(silent=True)  # --json: nothing but the JSON, anywhere
        as_json = context is not None and bool(context.params.get("as_json"))
        self.total = total
        self.bar: Progress | None = None
        self.quiet = quiet or as_json or total == 0 or not sys.stderr.isatty()

    def __enter__(self) -> Callable[[str], None]:
        if self.quiet:
            return lambda label: None
        from rich.console import Console
        from rich.progress import Progress
        bar = self.bar = Progress(console=Console(stderr=True), transient=True)
        bar.__enter__()
        self.task = bar.add_task("checking", total=self.total)
        return lambda label: bar.update(self.task, advance=1, description=label)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.bar is not None:
            if kind is None:  # done: a result already computed in this process reports no steps
                self.bar.update(self.task, completed=self.total)
            self.bar.__exit__(kind, error, trace)


def main(argv: list[str] | None = None) -> None:
    """Entry point: every error becomes one line on stderr with the documented exit status."""
    try:
        cli.main(args=argv, prog_name="symcheck", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.Abort:
        click.echo("Error: aborted", err=True)
        sys.exit(130)
    except click.UsageError as err:
        if _NO_ARGS is not None and isinstance(err, _NO_ARGS) and err.ctx is not None:
            click.echo(err.ctx.get_help())  # bare `symcheck`: show the help, not an error
            sys.exit(0)
        click.echo(f"Error: {_one_line(err.format_message())}", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as err:
        click.echo(f"Error: {_one_line(err.format_message())}", err=True)
        sys.exit(EXIT_USAGE)
    except SymcheckError as err:
        click.echo(f"Error: {_one_line(str(err))}", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("Error: interrupted", err=True)
        sys.exit(130)
    except Exception as err:  # a bug, not bad input: still one line, traceback on request
        if os.environ.get("SYMCHECK_DEBUG"):
            raise
        click.echo(f"Error: internal error ({type(err).__name__}: {_one_line(str(err))}); "
                   "set SYMCHECK_DEBUG=1 for the traceback", err=True)
        sys.exit(EXIT_INTERNAL)


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":
    main()
