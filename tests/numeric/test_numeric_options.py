"""The checkpoint commands' options travel as two values built once (numeric/options.py): the
input rows and the resources. Keywords given one by one still work, each put into its group;
a group with its own keywords beside it, or a keyword no group has, is an error."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import NumericError
from symcheck.numeric.options import DEFAULT_TOKENS, InputRows, Resources, grouped
from symcheck.numeric.planner import DEFAULT_MEMORY

from support import ROOT

TINY = ROOT / "examples" / "tiny-llama"


def test_keywords_go_to_their_groups_and_the_rest_are_the_defaults() -> None:
    rows, run = grouped(None, None, {"tokens": 7, "memory": "64MiB", "scheduler": "tcp://x:1"})
    assert (rows.inputs, rows.tokens, rows.seed) == (None, 7, 0)
    assert (run.memory, run.workers, run.scheduler, run.timeout) == ("64MiB", None, "tcp://x:1", DEFAULT_TIMEOUT)
    assert not run.serial and Resources().serial
    rows, run = grouped(None, None, {})
    assert (rows.tokens, run.memory) == (None, DEFAULT_MEMORY)


def test_groups_pass_through_as_given() -> None:
    given_rows, given_run = InputRows(tokens=3, seed=5), Resources(memory=1 << 20, workers=2)
    assert grouped(given_rows, given_run, {}) == (given_rows, given_run)


@pytest.mark.parametrize(("rows", "run", "settings", "message"), [
    (InputRows(), None, {"tokens": 3}, "give rows or tokens"),
    (None, Resources(), {"memory": 5, "timeout": 1.0}, "give run or memory, timeout"),
    (None, None, {"token": 3}, "unexpected keyword argument 'token'"),
])
def test_a_group_and_its_keywords_together_or_an_unknown_keyword_is_an_error(
        rows: InputRows | None, run: Resources | None, settings: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        grouped(rows, run, settings)


def test_a_command_that_runs_here_refuses_a_cluster() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'workers'"):
        grouped(None, None, {"workers": 2}, cluster=False)
    with pytest.raises(TypeError, match="workers and scheduler do not apply"):
        grouped(None, Resources(scheduler="tcp://x:1"), {}, cluster=False)


def test_the_rows_take_the_commands_own_default_and_refuse_inputs_with_tokens() -> None:
    X, source = InputRows(seed=3).rows(4, default_tokens=5)
    assert X.shape == (5, 4) and source == "5 random normal rows, seed 3"
    assert InputRows().rows(2)[0].shape == (DEFAULT_TOKENS, 2)
    assert InputRows(tokens=2).rows(3, default_tokens=9)[0].shape == (2, 3)  # given tokens win
    same = np.ones((2, 3))
    assert InputRows(inputs=same).rows(3)[1] == "the given array"
    with pytest.raises(NumericError, match="give inputs or tokens, not both"):
        InputRows(inputs=same, tokens=2).rows(3)


def test_the_model_command_parses_layers_once_and_passes_indices(monkeypatch: pytest.MonkeyPatch) -> None:
    from symcheck.cli import cli
    from symcheck.numeric import model_report as module
    calls: list[str] = []
    seen: dict[str, Any] = {}
    parse = module.parse_layers

    def counting(text: str, count: int) -> tuple[int, ...]:
        calls.append(text)
        return parse(text, count)

    def fake(model: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(module, "parse_layers", counting)
    monkeypatch.setattr(module, "model_report", fake)
    result = CliRunner().invoke(cli, ["model", str(TINY), "--layers", "0,2-3", "--tokens", "4", "--seed", "9",
                                      "--memory", "64MiB", "--workers", "2", "--timeout", "7"])
    assert result.exit_code == 0, result.output
    assert calls == ["0,2-3"] and seen["layers"] == (0, 2, 3)
    assert (seen["rows"].inputs, seen["rows"].tokens, seen["rows"].seed) == (None, 4, 9)
    assert (seen["run"].memory, seen["run"].workers, seen["run"].scheduler, seen["run"].timeout) == (
        64 * 2**20, 2, None, 7.0)
