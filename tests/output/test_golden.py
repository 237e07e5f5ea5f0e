"""Golden files for the generated LaTeX, and the .tex files in proofs/ kept current.

After an intended change to the output, update the goldens and look at the diff:

    SYMCHECK_UPDATE_GOLDEN=1 python -m pytest tests/output/test_golden.py
    git diff tests/output/golden

and regenerate proofs/ (notebooks and .tex):

    python proofs/make_notebooks.py
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from symcheck.cli import target_result
from symcheck.output.documents import latex_document
from symcheck.paper.targets import PAPER

from support import ROOT

GOLDEN = Path(__file__).resolve().parent / "golden"
PROOFS = ROOT / "proofs"
UPDATE = os.environ.get("SYMCHECK_UPDATE_GOLDEN") == "1"

#: file -> (target, fragment): one of each kind, small enough to read in a diff
CASES = {
    "exchange-silu.tex": ("exchange --act silu", False),
    "scaling-relu.tex": ("scaling --act relu --alpha positive", False),
    "scaling-tanh-minus-one.fragment.tex": ("scaling --act tanh --alpha -1", True),
    "absorb.tex": ("absorb", False),
    "custom-form.tex": ("exchange --act silu --form 'sigma(a)*b + sigma(b)*a'", False),
    "custom-activation.fragment.tex": ("scaling --act 'Max(z, z/5)' --alpha any", True),
    "audit-identity.fragment.tex": ("audit --act identity", True),
}


def _compare(path: Path, actual: str, how_to_update: str) -> None:
    expected = path.read_text(encoding="ascii") if path.exists() else ""
    if actual == expected:
        return
    diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                             f"{path.name} (stored)", f"{path.name} (generated)"))[:80])
    pytest.fail(f"{path.name} differs from the generated LaTeX; if the change is intended, run "
                f"{how_to_update}\n{diff}", pytrace=False)


@pytest.mark.parametrize("name", CASES)
def test_golden(name: str) -> None:
    target, fragment = CASES[name]
    actual = latex_document(target_result(target), fragment=fragment)
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(actual, encoding="ascii")
        return
    _compare(path, actual, "SYMCHECK_UPDATE_GOLDEN=1 python -m pytest tests/output/test_golden.py")


def test_no_stray_golden_files() -> None:
    assert sorted(p.name for p in GOLDEN.glob("*.tex")) == sorted(CASES)


@pytest.mark.parametrize("name", PAPER)
@pytest.mark.slow
def test_proofs_tex_is_current(name: str) -> None:
    """proofs/NAME.tex is exactly what `symcheck latex NAME` writes today."""
    _compare(PROOFS / f"{name}.tex", latex_document(name), "python proofs/make_notebooks.py")


def test_generation_is_deterministic() -> None:
    """A fresh computation, not the cached one, gives the same bytes (no timings, no dates)."""
    from symcheck.engine.symmetries import check_inverse_scaling
    from symcheck.output import latex
    fresh = latex.document(latex.fragment(check_inverse_scaling("relu", "positive")))
    assert fresh == latex_document(target_result("scaling --act relu --alpha positive"))
