"""No text is lost at any terminal width: at 40, 80 and 120 columns every command's text output
holds everything its JSON says (witness values, verdicts, formulas, steps, notes).

The check: the text with all whitespace and box-drawing characters removed must contain each
piece of content, also squashed, *contiguously*. A cell cropped with "…" (rich's default for a
column that does not fit), a title cut at the border, or a formula truncated in a subtitle
breaks the piece and fails. Layouts are built for this: a table wraps only its last column and
becomes a list when the rest cannot fit whole, so a wrapped cell still reads on line after line.

Adding a command is one line in ``COMMANDS``: its arguments and the function that lists, from
its JSON, the content its text must show. Formulas are shown in the text's own notation
(``max(0, z)``, ``α = −2``, a case a line), the JSON keeps SymPy's: for the commands that have
them, the pieces are the result's own text (``Step.text``, σ's formula as tables print it).
"""
from __future__ import annotations

import functools
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sympy

from support import invoke_cli

WIDTHS = (40, 80, 120)
_NOISE = re.compile(r"[\s\u2500-\u259f]")     # whitespace, box drawing and block elements
_VERDICT = re.compile(r"holds|broken|inconclusive")
_GREEK = {"alpha": "α", "beta": "β"}


def squash(text: str) -> str:
    return _NOISE.sub("", text)


def _shown(value: Any) -> str:
    """A witness coordinate or a degree as the text prints it."""
    from symcheck.output.text import formula
    return formula(value)


def _sigma(activation: Any) -> str:
    from symcheck.output.render import sigma_text
    return f"σ(z) = {sigma_text(activation)}"


def _steps(steps: Any) -> list[str]:
    """Each step's label, status, statement (as shown) and reasons, read on as one piece."""
    return [" ".join(filter(None, (s.title, s.status.value, s.text, s.justification))) for s in steps]


def _check_result(data: dict[str, Any], result: Any) -> list[str]:
    pieces = [_sigma(result.activation), *_steps(result.steps)]
    pieces += [f"{_GREEK.get(k, k)} = {_shown(v)}" for k, v in (result.witness or {}).items()]
    if data["note"]:
        pieces.append(f"note: {data['note']}")
    return pieces


def _audit(data: dict[str, Any], audit: Any) -> list[str]:
    """Each row's basis, its witness's coordinates as the text prints them (never split)."""
    from symcheck.paper.auditing import witness_text
    pieces = [f"σ = {data['activation']}"]
    for row in audit.rows:
        point = ", ".join(f"{_shown(sympy.Symbol(k))} = {_shown(v)}" for k, v in (row.witness or {}).items())
        pieces.append(row.basis.replace(witness_text(row.witness), point) if row.witness else row.basis)
    return pieces


def _catalog(data: dict[str, Any], catalogue: Any) -> list[str]:
    from symcheck.output.render import sigma_text
    return [piece for name, results in catalogue.rows for piece in (name, sigma_text(results[0].activation))]


def _numeric(data: dict[str, Any], _: Any = None) -> list[str]:
    sizes = ", ".join(f"{k} = {v}" for k, v in data["sizes"].items())
    return [data["claim"], data["compared"]["left"], data["compared"]["right"], data["summary"],
            data["source"], sizes, *data["routes"], "numeric evidence, not a symbolic verdict"]


def _group(data: dict[str, Any], group: Any) -> list[str]:
    from symcheck.output.render import _aset_text  # the members' table prints a-sets in its own notation
    pieces = [_sigma(group.activation), "complete" if data["complete"] else "partial"]
    pieces += [_aset_text(c.aset) for c in group.components]
    pieces += _steps(group.maximality)
    if "formulation" in data:     # --form: the unit's diagonal symmetries, a panel of their own
        pieces += [data["formulation"]["condition"], *data["formulation"]["families"]]
    return pieces + ([f"note: {data['note']}"] if data["note"] else [])


def _model(data: dict[str, Any], _: Any = None) -> list[str]:
    pieces = [f"{data['name']} ({data['architecture']})", data["inputs"]]
    for layer in data["layers"]:
        pieces += [f"{layer[key]:.2e}" for key in ("exchange_defect", "rescaling_residual", "relative_error")
                   if layer.get(key) is not None]
    return pieces


@functools.cache
def _model_directory() -> str:
    """A small LLaMA-style checkpoint, written once per run (tests/support/model_checkpoints.py)."""
    from support.model_checkpoints import write_model
    directory = Path(tempfile.mkdtemp(prefix="symcheck-widths-")) / "llama"
    write_model(directory)
    return str(directory)


def _argv(name: str) -> list[str]:
    return [_model_directory() if arg == "{model}" else arg for arg in COMMANDS[name][0]]


@functools.cache
def _result(name: str) -> Any:
    """The command's result as the library returns it (None for a command no target names)."""
    from symcheck.cli import _TARGET_COMMANDS, target_result
    argv = _argv(name)
    if argv[0] == "group" and "--form" in argv:  # the group's panel is the same; --form adds one
        at = argv.index("--form")
        argv = argv[:at] + argv[at + 2:]
    return target_result(argv) if argv[0] in _TARGET_COMMANDS else None


def _verdicts(data: dict[str, Any]) -> list[str]:
    """Every verdict the JSON has, in the order the text shows them."""
    if "rows" in data and data["rows"] and "basis" in data["rows"][0]:
        return [row["verdict"] for row in data["rows"]]
    if "rows" in data:
        return [r["verdict"] for row in data["rows"] for r in row["results"]]
    return [data["verdict"]] if data.get("verdict") else []


#: (arguments, the content its text must show, from the JSON and the result); the JSON run adds --json
COMMANDS: dict[str, tuple[list[str], Callable[[dict[str, Any], Any], list[str]]]] = {
    "exchange": (["exchange", "--act", "silu"], _check_result),
    "exchange-long-formula": (["exchange", "--act", "z*tanh(log(1+exp(z)))+z**3/(1+z**2+z**4)-sin(z)/7"],
                              _check_result),
    "scaling-holds": (["scaling", "--act", "relu"], _check_result),
    "scaling-broken": (["scaling", "--act", "gelu", "--alpha", "positive"], _check_result),
    "audit": (["audit", "--act", "silu"], _audit),
    "catalog": (["catalog"], _catalog),
    "numeric": (["numeric", "exchange", "--d", "8", "--m", "16", "--tokens", "4"], _numeric),
    "numeric-bilinear": (["numeric", "scaling", "--form", "bilinear", "--d", "6", "--m", "5", "--r", "2",
                          "--tokens", "3", "--alpha", "1/3"], _numeric),
    "group": (["group", "--act", "relu"], _group),
    "group-odd": (["group", "--act", "tanh", "--form", "gated"], _group),
    "model": (["model", "{model}", "--tokens", "4"], _model),
}


@functools.cache
def _json(name: str) -> dict[str, Any]:
    code, out, err = invoke_cli(*_argv(name), "--json")
    assert code == 0, err
    return json.loads(out)


def _text(name: str, width: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = invoke_cli(*_argv(name))
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= width, "a line is wider than the terminal"
    return out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.slow
def test_no_text_is_lost(name: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _json(name)
    text = squash(_text(name, width, monkeypatch))
    missing = [piece for piece in COMMANDS[name][1](data, _result(name)) if squash(piece) not in text]
    assert not missing, f"{name} at {width} columns loses: {missing}"
    # verdicts in order (a cropped "br…" drops one from the sequence)
    shown = iter(_VERDICT.findall(text))
    assert all(any(v == s for s in shown) for v in _verdicts(data)), f"{name} at {width}: a verdict is lost"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", [n for n in COMMANDS if COMMANDS[n][1] is _check_result])
def test_the_verdict_comes_first(name: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert squash(_text(name, width, monkeypatch)).startswith(_json(name)["verdict"])


def test_the_check_fails_on_a_cropped_cell() -> None:
    """The squashed comparison itself: a cell rich cut with an ellipsis does not pass."""
    from rich.console import Console
    from rich.table import Table
    table = Table("transformation", "basis")
    table.add_row("inverse scaling, α > 0", "witness a = 1, b = 1, α = 2")
    console = Console(width=30, record=True, file=open("/dev/null", "w"))
    console.print(table)
    assert squash("witness a = 1, b = 1, α = 2") not in squash(console.export_text())
