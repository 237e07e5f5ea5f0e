"""The small traps a new user falls into: a result's truth value, misspelt forms and commands,
an expression from standard input, and the README's commands."""
from __future__ import annotations

import io
import re
import sys

import pytest

import symcheck as sc

from support import ROOT, invoke_cli


@pytest.mark.parametrize("act", ["silu", "identity", "relu"])
def test_a_result_has_no_truth_value(act: str) -> None:
    result = sc.check_exchange(act)
    with pytest.raises(TypeError, match=r"\.holds.*\.verdict|\.verdict.*\.holds"):
        bool(result)
    with pytest.raises(TypeError):
        if result:  # the trap: always true before, a broken verdict included
            pass
    assert result.holds is (result.verdict is sc.Verdict.HOLDS)


@pytest.mark.parametrize("spelt, name", [("rank-1", "rank1"), ("Rank_1", "rank1"), ("GATED", "gated"),
                                         ("rank 1", "rank1")])
def test_a_form_spelt_otherwise_is_named(spelt: str, name: str) -> None:
    code, _, err = invoke_cli("exchange", "--act", "relu", "--form", spelt)
    assert code == 2 and f"did you mean '{name}'" in err and "variable" not in err


def test_an_expression_form_with_a_minus_is_still_an_expression() -> None:
    assert sc.form("a-b").expr is not None  # not taken for a misspelt name


def test_catalogue_is_the_catalog_command() -> None:
    code, out, _ = invoke_cli("catalogue", "--help")
    assert code == 0 and "Every catalogue activation" in out


@pytest.mark.parametrize("typed, meant", [("catalogu", "catalog"), ("exchang", "exchange"), ("grop", "group")])
def test_an_unknown_command_names_the_closest(typed: str, meant: str) -> None:
    code, _, err = invoke_cli(typed)
    assert code == 2 and f"Did you mean '{meant}'" in err and len(err.strip().splitlines()) == 1


def test_act_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("z*tanh(z)\n"))
    code, out, err = invoke_cli("exchange", "--act", "-", "--json")
    assert code == 0, err
    import json
    assert json.loads(out)["verdict"] == sc.check_exchange("z*tanh(z)").verdict.value
    monkeypatch.setattr(sys, "stdin", io.StringIO("  \n"))
    code, _, err = invoke_cli("exchange", "--act", "-")
    assert code == 2 and "standard input is empty" in err


@pytest.mark.parametrize("page", ["README.md", *sorted(p.name for p in (ROOT / "docs").glob("*.md"))])
def test_the_readme_and_the_site_install_only_what_exists(page: str) -> None:
    text = (ROOT / ("README.md" if page == "README.md" else f"docs/{page}")).read_text(encoding="utf-8")
    assert "'symcheck[" not in text  # symcheck is not on an index: extras come from the checkout
    # every `symcheck plot` it shows names the figure file it requires
    for command in re.findall(r"symcheck plot [^`\n]*", text):
        assert " -o " in command, command
