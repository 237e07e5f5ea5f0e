"""Small things a user trips on: JSON names that agree between commands, numeric evidence as a
number, the seed as the text says it, --expect on audit, catalog and numeric, and a README weights
example that names a file that exists."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from symcheck.core.verdict import Verdict
from symcheck.paper import claims

from support import ROOT, invoke_cli, paper_claims

SMALL = ("--d", "8", "--m", "16", "--tokens", "8")


def _json(*args: str) -> dict:
    code, out, err = invoke_cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


# --------------------------------------------------------------------------- one vocabulary


@pytest.mark.parametrize("check, extra, symmetry, identity, domain", [
    ("exchange", (), "exchange", None, None),
    ("scaling", ("--alpha", "3"), "inverse-scaling", None, "3"),
    ("scaling", ("--alpha", "-1"), "inverse-scaling", None, "-1"),
    ("rank1", (), None, "rank1", None),
    ("absorb", (), None, "absorb", None),
])
def test_numeric_json_names_its_symmetry_as_the_symbolic_checks_do(check, extra, symmetry, identity, domain) -> None:
    data = _json("numeric", check, *extra, *SMALL)
    assert (data["symmetry"], data["identity"], data["domain"]) == (symmetry, identity, domain)
    assert "check" not in data and "alpha" not in data
    if symmetry is not None:  # the same names and values as `symcheck exchange/scaling --json`
        symbolic = _json(check, "--act", "silu", *(("--alpha", domain) if domain else ()))
        assert (symbolic["symmetry"], symbolic["domain"]) == (data["symmetry"], data["domain"])
        assert {"symmetry", "domain", "form", "activation", "verdict"} <= data.keys() & symbolic.keys()


# --------------------------------------------------------------------------- evidence as numbers


@pytest.mark.parametrize("act, timeout", [("silu", 20.0), ("z*tanh(log(1+exp(z)))+z**3/(1+z**2+z**4)", 0.05),
                                          ("relu", 20.0)])
def test_evidence_largest_is_a_number_or_null(act: str, timeout: float) -> None:
    data = _json("exchange", "--act", act, "--timeout", str(timeout))
    for part in (data["evidence"], data["evidence"].get("fallback") or {}):
        if "largest" in part:
            assert part["largest"] is None or isinstance(part["largest"], float), part
            assert (part["largest"] is None) == (part["points"] == 0) or part["points"] > 0


@pytest.mark.parametrize("text, number", [("0", 0.0), ("1.5", 1.5), ("-2.5e-3", -2.5e-3), ("1.20000e+8", 1.2e8),
                                          ("1e-400", None), ("3e400", None), ("0.0", 0.0)])
def test_a_largest_float64_cannot_hold_is_null_not_zero_or_inf(text: str, number) -> None:
    from symcheck.engine.evidence import magnitude
    assert magnitude(text) == number


# --------------------------------------------------------------------------- the seed


def test_the_seed_is_null_only_when_nothing_random_was_drawn(tmp_path: Path) -> None:
    weights = str(ROOT / "examples" / "llama-mlp.safetensors")
    drawn = _json("numeric", "exchange", "--seed", "7", *SMALL)
    assert drawn["seed"] == 7 and "seed 7" in drawn["source"]
    inputs_drawn = _json("numeric", "exchange", "--weights", weights, "--tokens", "4")
    assert inputs_drawn["seed"] == 0 and "random normal inputs, seed 0" in inputs_drawn["source"]
    np.save(tmp_path / "X.npy", np.ones((3, 16)))
    none_drawn = _json("numeric", "exchange", "--weights", weights, "--inputs", str(tmp_path / "X.npy"))
    assert none_drawn["seed"] is None and "random" not in none_drawn["source"]


# --------------------------------------------------------------------------- --expect


@pytest.mark.parametrize("check, expect, code", [
    ("exchange", "differ", 0), ("exchange", "agree", 1), ("rank1", "agree", 0), ("rank1", "differ", 1),
])
def test_numeric_expect_is_the_outcome(check: str, expect: str, code: int) -> None:
    got, out, err = invoke_cli("numeric", check, "--act", "silu", *SMALL, "--expect", expect)
    assert got == code and out
    outcome = "differ" if check == "exchange" else "agree"
    assert err == ("" if code == 0 else f"Error: expected {expect}, got {outcome}\n")


@pytest.mark.parametrize("expect", ["agree", "differ"])
def test_numeric_expect_is_never_met_without_evidence(tmp_path: Path, expect: str) -> None:
    rng = np.random.default_rng(0)
    for role in "QKV":   # σ(a)·b ~ 1e400: an overflow, no evidence either way
        np.save(tmp_path / f"{role}.npy", rng.standard_normal((6, 4)) * (1e200 if role != "V" else 1))
    files = [arg for role in "QKV" for arg in ("--weights", str(tmp_path / f"{role}.npy"))]
    code, out, err = invoke_cli("numeric", "exchange", *files, "--tokens", "3", "--expect", expect)
    assert (code, err) == (1, f"Error: expected {expect}, got overflow\n") and "no evidence" in out


def test_the_claims_are_the_papers() -> None:
    columns = {"exchange": ("exchange", None), "positive": ("inverse-scaling", "positive"),
               "minus-one": ("inverse-scaling", "-1"), "any": ("inverse-scaling", "any")}
    for case in paper_claims():
        for column, (transformation, domain) in columns.items():
            assert claims.stated(case["act"], case["form"], transformation, domain) is Verdict(case[column]), case
    gated = {c["act"] for c in paper_claims() if c["form"] == "gated"}
    assert gated == set(claims.GATED)


@pytest.mark.parametrize("act", ["relu", "tanh", "z*tanh(z)"])
@pytest.mark.slow
def test_audit_expect_paper_passes_on_the_real_audit(act: str) -> None:
    code, out, err = invoke_cli("audit", "--act", act, "--expect", "paper")
    assert (code, err) == (0, "") and out


@pytest.mark.slow
def test_audit_expect_paper_fails_with_the_rows_that_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(claims.GATED, "relu", {**claims.GATED["relu"], ("exchange", None): Verdict.HOLDS})
    code, out, err = invoke_cli("audit", "--act", "relu", "--expect", "paper", "--json")
    assert code == 1 and json.loads(out)["rows"]   # the output is still printed
    assert err == ("Error: expected the paper's verdicts; 1 row differs: relu, gated exchange: expected holds, "
                   "got broken\n")


@pytest.mark.slow
def test_catalog_expect_paper_passes() -> None:
    code, out, err = invoke_cli("catalog", "--expect", "paper", "--json")
    assert (code, err) == (0, ""), err
    assert json.loads(out)["rows"]


@pytest.mark.parametrize("verdicts, expect, count", [
    ((Verdict.HOLDS, Verdict.BROKEN), "decided", 0),
    ((Verdict.HOLDS, Verdict.INCONCLUSIVE), "decided", 1),
    ((Verdict.INCONCLUSIVE, Verdict.INCONCLUSIVE), "decided", 2),
    ((Verdict.BROKEN, Verdict.HOLDS), "paper", 0),       # relu: exchange broken, α > 0 holds
    ((Verdict.HOLDS, Verdict.HOLDS), "paper", 1),
    ((Verdict.INCONCLUSIVE, Verdict.HOLDS), "paper", 1),  # inconclusive is not what the paper states
])
def test_mismatches_truth_table(verdicts, expect: str, count: int) -> None:
    rows = [("relu", "gated", "exchange", None, verdicts[0]),
            ("relu", "gated", "inverse-scaling", "positive", verdicts[1]),
            ("relu", "mlp", "permutation", None, Verdict.HOLDS)]   # nothing stated: not compared
    assert len(claims.mismatches(rows, expect)) == count


def test_a_decided_sweep_with_an_inconclusive_row_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    found = claims.mismatches([("silu", "gated", "exchange", None, Verdict.INCONCLUSIVE)] * 5, "decided")
    assert claims.describe(found, "decided") == (
        "expected every row decided (holds or broken); 5 rows differ: silu, gated exchange: expected holds "
        "or broken, got inconclusive; silu, gated exchange: expected holds or broken, got inconclusive; silu, "
        "gated exchange: expected holds or broken, got inconclusive; and 2 more")


@pytest.mark.parametrize("command", ["audit", "catalog", "numeric"])
def test_expect_is_documented_in_the_help(command: str) -> None:
    code, out, _ = invoke_cli(command, "--help")
    text = " ".join(out.split())
    assert code == 0 and "--expect" in text and "exit with status 1" in text.lower()


# --------------------------------------------------------------------------- README


def test_every_weights_file_the_readme_and_the_site_name_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"--weights\s+(\S+)", readme), "the README shows no --weights example"
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for path in re.findall(r"--weights\s+(\S+)", page.read_text(encoding="utf-8")):
            assert (ROOT / path).is_file(), f"{page.name} names {path}, which is not in the repository"


def test_the_example_weights_are_what_the_script_makes(tmp_path: Path) -> None:
    import runpy
    out = tmp_path / "made.safetensors"
    script = runpy.run_path(str(ROOT / "examples" / "make_llama_mlp.py"))
    script["write"](out, script["tensors"]())
    assert out.read_bytes() == (ROOT / "examples" / "llama-mlp.safetensors").read_bytes()
