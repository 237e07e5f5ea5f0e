"""Every error path of the command line: exit status 2, one ``Error: …`` line, no traceback."""
from __future__ import annotations

import subprocess
import sys

import pytest

from support import invoke_cli

HOSTILE = "__import__('os').system('true')"

# (arguments, a fragment the one line must contain)
ERRORS = [
    # no command, unknown commands
    (("frobnicate",), "No such command 'frobnicate'"),
    (("exchang",), "Did you mean 'exchange'"),
    (("--bogus",), "No such option"),
    # exchange: each option
    (("exchange",), "Missing option '--act'"),
    (("exchange", "--act"), "requires an argument"),
    (("exchange", "--act", "sigmod"), "did you mean 'sigmoid'"),
    (("exchange", "--act", HOSTILE), "not allowed"),
    (("exchange", "--act", "log(z)"), "not defined on all of R"),
    (("exchange", "--act", "z + y"), "expected one variable"),
    (("exchange", "--act", ""), "empty expression"),
    (("exchange", "--act", "z+" * 500 + "z"), "too long"),
    (("exchange", "--act", "relu", "--form", "gatd"), "unknown form 'gatd'"),
    (("exchange", "--act", "relu", "--form", "sigma(a, b)"), "sigma() takes 1 argument"),
    (("exchange", "--act", "relu", "--form", "sigma(a)/b"), "undefined at b = 0"),
    (("exchange", "--act", "relu", "--form", "sigma(c)"), "unknown variable 'c'"),
    (("exchange", "--act", "relu", "--form", "sigma(a).real"), "attribute access"),
    (("exchange", "--act", "relu", "--form", ""), "empty expression"),
    (("exchange", "--act", "relu", "--timeout", "-1"), "--timeout"),
    (("exchange", "--act", "relu", "--timeout", "0"), "--timeout"),
    (("exchange", "--act", "relu", "--timeout", "soon"), "--timeout"),
    (("exchange", "--act", "relu", "--timeout"), "requires an argument"),
    (("exchange", "--act", "relu", "--expect", "maybe"), "--expect"),
    (("exchange", "--act", "relu", "--json", "extra"), "unexpected extra argument"),
    (("exchange", "--act", "relu", "--alpha", "2"), "No such option"),
    # scaling: --alpha and the shared options
    (("scaling",), "Missing option '--act'"),
    (("scaling", "--act", "relu", "--alpha", "postive"), "did you mean 'positive'"),
    (("scaling", "--act", "relu", "--alpha", "0"), "non-zero"),
    (("scaling", "--act", "relu", "--alpha", "1/0"), "α must be a non-zero number"),
    (("scaling", "--act", "relu", "--alpha", "1e-999999"), "too small a number"),
    (("scaling", "--act", "relu", "--alpha", "nan"), "unknown alpha domain"),
    (("scaling", "--act", "relu", "--alpha", "1e999999"), "too large"),
    (("scaling", "--act", "relu", "--alpha", ""), "unknown alpha domain"),
    (("scaling", "--act", "relu", "--alpha"), "requires an argument"),
    (("scaling", "--act", "relu", "--form", "rank2"), "unknown form"),
    (("scaling", "--act", "tanhh(z)", "--alpha", "-1"), "did you mean 'tanh'"),
    (("scaling", "--act", "relu", "--timeout", "x"), "--timeout"),
    (("scaling", "--act", "relu", "--expect", "yes"), "--expect"),
    # activations takes no argument
    (("activations", "relu"), "unexpected extra argument"),
    (("activations", "--act", "relu"), "No such option"),
    # catalog
    (("catalog", "--timeout", "-1"), "--timeout"),
    (("catalog", "--timeout", "abc"), "--timeout"),
    (("catalog", "gated"), "unexpected extra argument"),
    # audit
    (("audit",), "Missing option '--act'"),
    (("audit", "--act", "sigmod"), "did you mean 'sigmoid'"),
    (("audit", "--act", "1/z"), "undefined at z = 0"),
    (("audit", "--act", HOSTILE), "not allowed"),
    (("audit", "--act", "relu", "--timeout", "0"), "--timeout"),
    # derive
    (("derive",), "Missing argument 'NAME'"),
    (("derive", "rank2"), "unknown derivation 'rank2'"),
    (("derive", "rank1", "--expect", "maybe"), "--expect"),
    (("derive", "rank1", "mlp"), "unexpected extra argument"),
    # latex and plot
    (("latex",), "Missing argument 'TARGET'"),
    (("latex", "nonsense"), "unknown target 'nonsense'"),
    (("latex", "exchange", "--act", "sigmod"), "did you mean 'sigmoid'"),
    (("latex", "rank1", "-o", "/nonexistent-dir/x.tex"), "/nonexistent-dir/x.tex"),
    (("plot",), "Missing argument 'KIND'"),
    (("plot", "bogus", "--act", "relu", "-o", "x.png"), "'bogus' is not one of"),
    (("plot", "exchange", "--act", "relu"), "Missing option '-o'"),
    (("plot", "exchange", "--act", "sigmod", "-o", "x.png"), "did you mean 'sigmoid'"),
]


def _assert_one_error_line(code: int, out: str, err: str, fragment: str) -> None:
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    assert fragment in lines[0], lines[0]
    assert out == ""


@pytest.mark.parametrize("args, fragment", ERRORS, ids=[" ".join(a)[:50] or "(none)" for a, _ in ERRORS])
def test_error_path(args: tuple[str, ...], fragment: str) -> None:
    _assert_one_error_line(*invoke_cli(*args), fragment)


@pytest.mark.parametrize("command", [("exchange", "--act", "relu"), ("catalog",),
                                     ("audit", "--act", "relu")])
@pytest.mark.parametrize("timeout", ["nan", "inf", "1e300"])
def test_non_finite_timeout_is_a_usage_error(command: tuple[str, ...], timeout: str) -> None:
    _assert_one_error_line(*invoke_cli(*command, "--timeout", timeout), "--timeout")


@pytest.mark.parametrize("args", [("exchange", "--act", "sigmod"), ("scaling", "--act", "relu", "--alpha", "0"),
                                  ("derive", "nope"), ("activations", "extra")])
@pytest.mark.slow
def test_error_path_in_a_real_process(args: tuple[str, ...]) -> None:
    """The installed entry point, not the in-process runner: nothing else reaches stderr."""
    proc = subprocess.run([sys.executable, "-m", "symcheck.cli", *args], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), proc.stderr


def test_bare_command_shows_help() -> None:
    code, out, err = invoke_cli()
    assert code == 0 and "Usage" in out and "exchange" in out and err == ""
