"""Issue 23, slip 3: `--expect holds` exiting 0 on an inconclusive result.

The exit status is what a script or CI job reads: 0 only when the verdict is the one expected,
1 otherwise — and `inconclusive` is never what was expected, whatever was.
"""
from __future__ import annotations

import dataclasses
import json

import pytest

import symcheck as sc
from symcheck.core.verdict import Verdict
from symcheck.engine import symmetries

from support import invoke_cli

VERDICTS = ("holds", "broken", "inconclusive")


@pytest.fixture(scope="module")
def relu_holds():
    result = sc.check_inverse_scaling("relu", "positive")
    assert result.verdict is Verdict.HOLDS
    return result


def _as(result, verdict: str):
    return dataclasses.replace(result, verdict=Verdict(verdict), kernel=None)


@pytest.mark.parametrize("verdict", VERDICTS)
@pytest.mark.parametrize("expect", VERDICTS)
@pytest.mark.parametrize("command", ["exchange", "scaling"])
def test_expect_exits_0_only_on_the_expected_verdict(monkeypatch, relu_holds, command, verdict, expect) -> None:
    fake = _as(relu_holds, verdict)
    monkeypatch.setattr(symmetries, "check_exchange", lambda *args, **kw: fake)
    monkeypatch.setattr(symmetries, "check_inverse_scaling", lambda *args, **kw: fake)
    code, out, err = invoke_cli(command, "--act", "relu", "--expect", expect, "--json")
    assert json.loads(out)["verdict"] == verdict
    if verdict == expect:
        assert code == 0 and err == ""
    else:
        assert code == 1 and err == f"Error: expected {expect}, got {verdict}\n"


@pytest.mark.parametrize("verdict", VERDICTS)
def test_without_expect_every_verdict_exits_0(monkeypatch, relu_holds, verdict) -> None:
    fake = _as(relu_holds, verdict)
    monkeypatch.setattr(symmetries, "check_inverse_scaling", lambda *args, **kw: fake)
    code, out, _ = invoke_cli("scaling", "--act", "relu", "--json")
    assert code == 0 and json.loads(out)["verdict"] == verdict


def test_a_real_inconclusive_result_does_not_meet_expect_holds(monkeypatch) -> None:
    """The engine's own inconclusive, not a replaced verdict: a budget with no time left, so
    every step is refused before it starts (no clock is read)."""
    from symcheck.core import budget as budgets

    monkeypatch.setattr(budgets.Budget, "remaining", lambda self: 0.0)
    result = sc.check_inverse_scaling("relu", "positive")
    if result.verdict is not Verdict.INCONCLUSIVE:
        pytest.fail(f"a budget that is always over still gave {result.verdict.value}")
    code, _, err = invoke_cli("scaling", "--act", "relu", "--expect", "holds")
    assert code == 1 and "got inconclusive" in err


# `symcheck latex TARGET --options`: only these targets read options (each by its own command's
# parser); any other word with options is refused, never run as some check under a wrong name
_TARGETS_WITH_OPTIONS = {"exchange", "scaling", "audit", "group", "catalog", "catalogue"}


def _other_words() -> list[str]:
    from symcheck.cli import cli
    return sorted((set(cli.commands) | set(VERDICTS) | {"derive", "all", "rank1"}) - _TARGETS_WITH_OPTIONS)


@pytest.mark.parametrize("word", _other_words())
def test_a_latex_target_that_takes_no_options_refuses_them(word: str) -> None:
    code, out, err = invoke_cli("latex", word, "--act", "silu")
    assert (code, out) == (2, ""), (word, out[:200])
    assert err.startswith("Error: ") and ("unknown target" in err or "takes no options" in err), err
