from __future__ import annotations

import json
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
