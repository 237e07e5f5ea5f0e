"""Numeric checks at size agree with the symbolic verdicts; `symcheck numeric` on random and real weights."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

import symcheck as sc
from symcheck.core.errors import NumericError
from symcheck.numeric.checks import measure, prepare, tolerance

from support import invoke_cli, quick_few

SMALL = {"d": 12, "m": 24, "tokens": 48}
ALPHAS = {"positive": "3", "minus-one": "-1", "any": "-3"}


invoke = invoke_cli


def _expected(verdict: str) -> str:
    return {"holds": "agree", "broken": "differ"}[verdict]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_numeric_checks_agree_with_the_paper_claims(claims, dtype) -> None:
    for case in claims:
        options = dict(act=case["act"], form=case["form"], dtype=dtype, **SMALL)
        assert measure("exchange", **options).outcome == _expected(case["exchange"]), case
        for domain, alpha in ALPHAS.items():
            report = measure("scaling", alpha=alpha, **options)
            assert report.outcome == _expected(case[domain]), (case, domain, report.relative)


def symbolic(name: str, key: str) -> str:
    """The engine's verdict on one activation: exchange, or α = −1 or 3, on the gated form."""
    if key == "exchange":
        return sc.check_exchange(name).verdict.value
    return sc.check_inverse_scaling(name, alpha=key).verdict.value


@pytest.mark.parametrize("name", quick_few([a.name for a in sc.catalogue()]))
def test_numeric_checks_agree_with_the_symbolic_ones_on_the_catalogue(name) -> None:
    for key in ("exchange", "-1", "3"):
        verdict = symbolic(name, key)
        if verdict == "inconclusive":
            continue
        report = (measure("exchange", act=name, **SMALL) if key == "exchange" else
                  measure("scaling", act=name, alpha=key, d=12, m=64, tokens=96))
        assert report.outcome == _expected(verdict), (name, key, report.relative, report.tolerance)


@pytest.mark.parametrize("act", ["silu", "gelu", "hardswish", "softplus", "mish"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_identities_hold_within_the_tolerance(act, dtype) -> None:
    for name in ("rank1", "absorb"):
        report = measure(name, act=act, dtype=dtype, **SMALL)
        assert report.outcome == "agree" and report.relative <= report.tolerance, report.summary


def test_the_tolerance_follows_dtype_and_size() -> None:
    assert tolerance("float32", 100) > 1e6 * tolerance("float64", 100)
    assert tolerance("float64", 10_000) == pytest.approx(10 * tolerance("float64", 100))


def test_a_report_says_what_was_compared_and_that_it_is_evidence() -> None:
    report = measure("exchange", act="silu", **SMALL)
    data = report.to_dict()
    assert data["verdict"] is None and data["evidence"] == "numeric" and data["outcome"] == "differ"
    assert data["compared"]["right"].endswith("with (K, Q) swapped")
    assert "≫ tolerance" in report.summary and "not a symbolic verdict" in report.summary
    assert "numeric evidence" in str(report)


def test_bilinear_form_with_rank() -> None:
    report = measure("exchange", act="gelu", form="bilinear", r=3, **SMALL)
    assert report.outcome == "agree" and report.sizes["r"] == 3


def test_steps_count_the_chunks_for_a_progress_bar() -> None:
    job = prepare("rank1", act="relu", memory="2MiB", **SMALL)
    labels: list[str] = []
    job.run(labels.append)
    assert len(labels) == job.steps >= 2


@pytest.mark.parametrize("options, message", [
    ({"alpha": "2"}, "alpha applies to the scaling check only"),
    ({"form": "bilinear", "r": 2}, "the rank1 check fixes its forms"),
    ({"r": 3}, "the rank1 check compares at r = 1"),
])
def test_bad_options(options, message) -> None:
    with pytest.raises(NumericError, match=message):
        prepare("rank1", **options, **SMALL)


# --------------------------------------------------------------------------- the command line


def test_cli_json() -> None:
    code, out, err = invoke("numeric", "scaling", "--act", "relu", "--alpha", "3", "--d", "8", "--m", "16",
                            "--tokens", "32", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["symmetry"] == "inverse-scaling" and data["domain"] == "3" and data["outcome"] == "agree"
    assert data["identity"] is None and "check" not in data and "alpha" not in data
    assert data["sizes"] == {"d": 8, "m": 16, "e": 8, "r": 1, "tokens": 32}
    assert data["relative"] <= data["tolerance"]


def test_cli_text_and_no_progress_bar_off_a_terminal() -> None:
    code, out, err = invoke("numeric", "exchange", "--act", "gelu", "--d", "8", "--m", "16", "--tokens", "32")
    assert code == 0 and "numeric exchange" in out and "not a symbolic verdict" in out and err == ""


@pytest.mark.parametrize("args, message", [
    (("numeric", "exchange", "--memory", "lots"), "Error: memory budget 'lots' is not a size"),
    (("numeric", "scaling", "--alpha", "0"), "Error: alpha must be non-zero"),
    (("numeric", "rotate"), "Error: Invalid value for 'CHECK'"),
    (("numeric", "exchange", "--act", "sigmod"), "Error: unknown activation 'sigmod'; did you mean 'sigmoid'"),
    (("numeric", "exchange", "--d", "8", "--m", "4", "--memory", "100"), "Error: the memory budget 100 B is too small"),
])
def test_cli_errors_are_one_line_with_status_2(args, message) -> None:
    code, out, err = invoke(*args)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err


def test_cli_on_a_llama_checkpoint(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    prefix = "model.layers.3.mlp."
    save_file({prefix + "gate_proj.weight": rng.standard_normal((20, 8)).astype(np.float32),
               prefix + "up_proj.weight": rng.standard_normal((20, 8)).astype(np.float32),
               prefix + "down_proj.weight": rng.standard_normal((8, 20)).astype(np.float32)},
              tmp_path / "llama.safetensors")
    np.save(tmp_path / "x.npy", rng.standard_normal((5, 8)))
    code, out, err = invoke("numeric", "exchange", "--weights", str(tmp_path / "llama.safetensors"),
                            "--inputs", str(tmp_path / "x.npy"), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["form"] == "gated" and data["outcome"] == "differ"
    assert data["sizes"] == {"d": 8, "m": 20, "e": 8, "r": 1, "tokens": 5}
    assert "gate_proj" in data["source"] and "x.npy" in data["source"]
    code, _, err = invoke("numeric", "exchange", "--weights", str(tmp_path / "llama.safetensors"), "--d", "8")
    assert code == 2 and "d come(s) from the weights" in err
    code, _, err = invoke("numeric", "exchange", "--weights", str(tmp_path / "llama.safetensors"),
                          "--inputs", str(tmp_path / "llama.safetensors"))
    assert code == 2 and "llama.safetensors: 3 tensors and none named 'X'" in err
