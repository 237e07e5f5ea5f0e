"""The command line: exit statuses, one-line errors, JSON, help, and hostile input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from support import invoke_cli


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "symcheck.cli", *args],
                          capture_output=True, text=True, timeout=300)


invoke = invoke_cli


def test_exchange_json_has_the_documented_keys() -> None:
    code, out, err = invoke("exchange", "--act", "silu", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verdict"] == "broken" and data["activation"] == "silu"
    assert data["symmetry"] == "exchange" and data["form"] == "gated"
    assert set(data["witness"]) == {"a", "b"}


def test_scaling_accepts_a_negative_number_for_alpha() -> None:
    code, out, _ = invoke("scaling", "--act", "tanh", "--alpha", "-1", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "holds"
    code, out, _ = invoke("scaling", "--act", "tanh", "--alpha=minus-one", "--json")
    assert code == 0 and json.loads(out)["domain"] == "-1"


@pytest.mark.parametrize("args, code", [
    (("exchange", "--act", "silu", "--expect", "broken"), 0),
    (("exchange", "--act", "silu", "--expect", "holds"), 1),
    (("scaling", "--act", "relu", "--expect", "holds"), 0),
    (("exchange", "--act", "identity", "--expect", "holds"), 0),
])
def test_expect_sets_the_exit_status(args, code) -> None:
    assert invoke(*args)[0] == code


def test_rich_output_shows_the_verdict_and_steps() -> None:
    code, out, _ = invoke("exchange", "--act", "gelu")
    assert code == 0
    assert "broken" in out and "Witness" in out and "Certificate" in out


HOSTILE = [
    "__import__('os').system('touch /tmp/symcheck-pwned')",
    "().__class__.__bases__[0].__subclasses__()",
    "z.__class__",
    "lambda: 1",
    "[x for x in ()]",
    "9**9**9**9",
    "(z**100)**100",
    "(" * 500 + "z" + ")" * 500,
    "-" * 5000 + "z",
    "",
    "   ",
    "z + y",
    "log(z)",
    "1/z",
    "sqrt(-1)",
    "1j*z",
    "tanhh(z)",
    "sigmod",
    "exec('1')",
    "open('/etc/passwd')",
    "Piecewise((z, z > 0))",
    "z > 0",
    "'z'",
    "z; import os",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_activation_is_exit_2_with_one_line(text: str) -> None:
    code, out, err = invoke("exchange", "--act", text)
    assert code == 2, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [
    ("exchange",),                              # missing --act
    ("exchange", "--act", "relu", "--form", "gatd"),
    ("scaling", "--act", "relu", "--alpha", "postive"),
    ("scaling", "--act", "relu", "--alpha", "0"),
    ("exchange", "--act", "relu", "--timeout", "-1"),
    ("exchange", "--act", "relu", "--expect", "maybe"),
    ("frobnicate",),
])
def test_usage_errors_are_exit_2_with_one_line(args) -> None:
    code, out, err = invoke(*args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err


def test_unknown_activation_suggests() -> None:
    _, _, err = invoke("exchange", "--act", "sigmod")
    assert "did you mean 'sigmoid'" in err


def test_real_process_error_path_and_no_code_ran(tmp_path) -> None:
    marker = tmp_path / "pwned"
    proc = run("exchange", "--act", f"__import__('os').system('touch {marker}')")
    assert proc.returncode == 2 and not marker.exists()
    assert len(proc.stderr.strip().splitlines()) == 1


def test_console_script_runs_the_main_job() -> None:
    proc = run("exchange", "--act", "silu")
    assert proc.returncode == 0, proc.stderr
    assert "broken" in proc.stdout


def test_activations_lists_the_catalogue() -> None:
    code, out, _ = invoke("activations", "--json")
    names = [row["name"] for row in json.loads(out)]
    assert code == 0 and len(names) == 24 and "silu" in names and "selu" in names


def test_help_explains_the_verdicts() -> None:
    code, out, _ = invoke("--help")
    assert code == 0 and "inconclusive" in out and "exchange" in out
