"""Progress on the commands that can run long (issue 25 item 5): a rich bar on stderr when it is a
terminal, nothing with --json or when stderr is not a terminal; ``latex all`` is one document with
a table of contents, its case titles and the formulations' keys set as math."""
from __future__ import annotations

import io
import shutil
import subprocess

import pytest

from symcheck.output.documents import latex_document
from symcheck.paper.targets import PAPER, resolve, steps

from support import invoke_cli


class _Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is in an interactive shell."""

    def isatty(self) -> bool:
        return True


def _run(*args: str, terminal: bool) -> tuple[int, str, str]:
    return invoke_cli(*args, err=_Terminal() if terminal else None)


@pytest.mark.parametrize("args", [("audit", "--act", "identity"), ("latex", "gated")])
def test_a_bar_on_a_terminal_and_nothing_otherwise(args: tuple[str, ...]) -> None:
    code, out, err = _run(*args, terminal=True)
    assert code == 0 and "100%" in err and "100%" not in out  # the bar, complete, on stderr alone
    code, _, err = _run(*args, terminal=False)
    assert code == 0 and err == ""


def test_a_result_computed_earlier_in_the_process_still_completes_the_bar() -> None:
    """resolve() reports no steps for a result it has cached: the bar must still end at 100 %
    (it stayed at 0 %, and this file's terminal test failed whenever an earlier test had
    computed the same paper result)."""
    resolve("gated")
    code, _, err = _run("latex", "gated", terminal=True)
    assert code == 0 and "100%" in err


def test_nothing_but_the_json_with_json_even_on_a_terminal() -> None:
    code, out, err = _run("audit", "--act", "identity", "--json", terminal=True)
    assert code == 0 and err == "" and out.lstrip().startswith("{")


def test_the_steps_are_the_calls_resolve_reports() -> None:
    """targets.steps(name) is how often resolve(name, progress) tells progress (a fresh result)."""
    from symcheck.paper import targets
    told: list[str] = []
    targets._COMPUTED.pop("mlp", None)
    resolve("mlp", told.append)
    assert told == ["mlp"] * steps("mlp") and steps("mlp") == len(PAPER["mlp"][2])
    assert steps("all") == sum(len(calls) for _, _, calls in PAPER.values()) and steps("no-such") == 0


@pytest.fixture(scope="module")
def several() -> str:
    from symcheck.cli import target_result
    return latex_document((target_result("scaling --act relu --alpha positive"), resolve("absorb")))


def test_several_results_have_a_table_of_contents(several: str) -> None:
    assert several.count(r"\tableofcontents") == 1
    assert several.count(r"\addcontentsline{toc}") >= 2
    assert r"\tableofcontents" not in latex_document(resolve("absorb"))  # one result: no contents


def test_case_titles_and_keys_are_math(several: str) -> None:
    r"""'Case z < 0' and 'keys K = W1' were set in text (\textless{}, an upright W1)."""
    assert r"\textbf{Case $z < 0$}" in several and r"\textbf{Case z" not in several
    assert r"keys $K = W_{1}$ and values $V = W_{2}$" in several and "K = W1" not in several


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed (.ci/run installs it)")
def test_the_document_compiles_with_its_contents(several: str, tmp_path) -> None:
    (tmp_path / "several.tex").write_text(several, encoding="ascii")
    for _ in range(2):  # the second run reads the contents the first wrote
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "several.tex"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "several.toc").read_text().count(r"\contentsline") >= 2
