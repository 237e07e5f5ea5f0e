"""`symcheck group` and the LaTeX target `group --act ACT`: JSON, rendering, exit statuses, errors."""
from __future__ import annotations

import json

import pytest

from support import ROOT
from support import invoke_cli as invoke


def test_json_carries_the_components_the_argument_and_the_alphas() -> None:
    code, out, err = invoke("group", "--act", "relu", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["activation"] == "relu" and data["complete"] is True
    assert [c["text"] for c in data["components"]] == ["a > 0, c = a"]
    assert data["components"][0]["proof"][0]["title"] == "Statement"
    assert [s["title"] for s in data["maximality"]][-1] == "Maximality"
    assert data["inverse_scaling_alphas"] == "Interval.open(0, oo)"
    assert "formulation" not in data


def test_form_adds_the_units_diagonal_symmetries() -> None:
    code, out, _ = invoke("group", "--act", "tanh", "--form", "gated", "--json")
    assert code == 0
    formulation = json.loads(out)["formulation"]
    assert formulation["form"] == "gated" and formulation["condition"] == "(λ, 1/(μν)) ∈ G"
    assert formulation["families"] == ["λ = a with a ∈ {1, -1}, any μ ≠ 0, ν = 1/(μ·c), c = a"]


def test_custom_activation_and_rich_output() -> None:
    code, out, _ = invoke("group", "--act", "Max(z, 0)**3", "--form", "mlp")
    assert code == 0
    assert "complete: symmetry group" in out and "a**3" in out
    assert "diagonal symmetries" in out and "(μ, 1/ν) ∈ G" in out


@pytest.mark.parametrize("args, message", [
    (("group", "--act", "relu", "--form", "nope"),
     "Error: unknown form 'nope'; expected one of: gated, rank1, mlp, query-mlp, bilinear, rank-r"),
    (("group", "--act", "relu", "--form", "gatd"), "Error: unknown form 'gatd'; did you mean 'gated'?"),
    (("group", "--act", "log(z)"), "Error: log(z) is not defined on all of R: its argument is not positive at z = 0"),
    (("group", "--act", "__import__('os')"), None),
    (("group",), "Error: Missing option '--act'."),
    (("group", "--act", "relu", "--timeout", "nan"), None),
    (("latex", "group", "--act", "relu", "--form", "gated"),
     "Error: the group target: --form has no meaning in a LaTeX document of the group"),
    (("latex", "group", "--act", "relu", "--json"),
     "Error: the group target: --json and --expect have no meaning in a LaTeX document"),
])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str | None) -> None:
    code, out, err = invoke(*args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in err
    if message is not None:
        assert lines[0] == message


def test_latex_target() -> None:
    code, out, err = invoke("latex", "group", "--act", "relu", "--fragment")
    assert code == 0, err
    out.encode("ascii")
    assert out.startswith(r"\subsection*{The symmetry group of $\sigma = \operatorname{relu}$: \textbf{complete}}")
    assert r"\textbf{Maximality.}" in out and r"a > 0,\ c = a" in out
    code, document, _ = invoke("latex", "group", "--act", "sign(z)")
    assert code == 0 and document.startswith(r"\documentclass") and r"\operatorname{sign}" in document


def test_the_documented_example_is_what_the_command_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    page = (ROOT / "docs" / "groups.md").read_text(encoding="utf-8")
    start = page.index("$ symcheck group --act tanh --form gated\n")
    shown = page[start:page.index("```", start)].split("\n", 1)[1]
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = invoke("group", "--act", "tanh", "--form", "gated")
    assert code == 0 and out == shown
