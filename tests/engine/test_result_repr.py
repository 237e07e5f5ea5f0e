"""A result's repr is one short line; an inconclusive check without samples says so plainly."""
from __future__ import annotations

import os

import symcheck as sc

from support import invoke_cli


def test_repr_is_one_short_line_with_the_verdict_and_witness() -> None:
    result = sc.check_exchange("silu")
    text = repr(result)
    assert text == "<CheckResult exchange on gated, σ = silu: broken, witness a = 2, b = 1>"
    assert "\n" not in text and len(text) < len(str(result))


def test_repr_of_a_long_activation_is_cut_but_keeps_the_verdict() -> None:
    act = "z*tanh(log(1+exp(z)))+z**3/(1+z**2+z**4)+sin(z)*cos(z)*exp(-z**2)"
    result = sc.check_exchange(act, timeout=0.05)
    text = repr(result)
    assert "…" in text and "\n" not in text
    assert f": {result.verdict.value}" in text


def test_no_evidence_is_not_shown_as_evidence_of_zero() -> None:
    code, out, err = invoke_cli("exchange", "--act", "z*tanh(log(1+exp(z)))+z**3/(1+z**2+z**4)",
                                "--timeout", "0.01")
    assert code == 0, err
    assert "0 points, largest |r| ≈ 0" not in out
    if "inconclusive" in out:
        assert "no numeric evidence was gathered" in out or "numeric evidence (not a proof)" in out


def test_the_verdict_leads_the_panel_title_and_survives_a_long_formula() -> None:
    act = "z*tanh(log(1+exp(z)))+z**3/(1+z**2+z**4)-sin(z)*cos(z)"
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        code, out, err = invoke_cli("exchange", "--act", act, "--timeout", "5")
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    assert code == 0, err
    first, second = out.splitlines()[:2]
    # a title too long for the border moves into the body whole; the verdict stays in the border
    verdict = next(v for v in ("holds", "broken", "inconclusive") if first.startswith(f"╭─ {v} ─"))
    assert second.startswith(f"│ {verdict}: exchange on the gated form, σ = "), second
