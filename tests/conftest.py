from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT.parent / "shared" / "reference" / "paper-claims.json"
LOCAL_CLAIMS = Path(__file__).resolve().parent / "data" / "paper-claims.json"


def paper_claims() -> list[dict]:
    """The paper's verdicts: the shared reference when present, else the copy kept in tests/."""
    path = CLAIMS if CLAIMS.exists() else LOCAL_CLAIMS
    return json.loads(path.read_text())["cases"]


@pytest.fixture(scope="session")
def claims() -> list[dict]:
    return paper_claims()


def invoke_cli(*args: str) -> tuple[int, str, str]:
    """In-process run of the real entry point (fast); returns (exit code, stdout, stderr)."""
    from symcheck.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue(), err.getvalue()
