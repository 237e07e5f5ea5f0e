"""The tests' shared helpers, in one package imported one way: ``from support import invoke_cli``
for the few most tests use (here), ``from support.model_checkpoints import write_model`` for a
topic's helpers (hf_models, kernel_certificates, model_checkpoints, numeric_memory, reference_activations,
tiny_constants, traced).

pytest puts tests/ on sys.path when it loads tests/conftest.py (its default "prepend" import
mode), so ``support`` imports from every folder of tests/; the fixtures and hooks stay in
conftest.py.
"""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

#: the repository's root, for the tests that read its files (whatever folder of tests/ they sit in)
ROOT = Path(__file__).resolve().parents[2]
CLAIMS = ROOT.parent / "shared" / "reference" / "paper-claims.json"
LOCAL_CLAIMS = ROOT / "tests" / "data" / "paper-claims.json"


def paper_claims() -> list[dict]:
    """The paper's verdicts: the shared reference when present, else the copy kept in tests/."""
    path = CLAIMS if CLAIMS.exists() else LOCAL_CLAIMS
    return json.loads(path.read_text())["cases"]


def invoke_cli(*args: str, err: io.StringIO | None = None) -> tuple[int, str, str]:
    """In-process run of the real entry point (fast); returns (exit code, stdout, stderr).
    ``err``: the stream standing for stderr (e.g. one that says it is a terminal)."""
    from symcheck.cli import main
    out, err = io.StringIO(), io.StringIO() if err is None else err
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()


#: the activations a catalogue sweep runs in the quick run (`-m "not slow"`): piecewise linear and
#: positively homogeneous (relu), smooth and broken under exchange and inverse scaling (silu), odd (tanh);
#: the other activations of a sweep are marked slow and run in the full run (CI) only
QUICK_ACTIVATIONS = frozenset({"relu", "silu", "tanh"})


def quick_few(values, quick=QUICK_ACTIVATIONS) -> list:
    """A sweep's parameters: those in `quick` as they are, every other one marked slow — the
    quick run keeps each sweep's test on a few cases, the full run on all of them."""
    return [value if value in quick else pytest.param(value, marks=pytest.mark.slow) for value in values]
