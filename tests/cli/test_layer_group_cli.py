"""`symcheck layer-group`: JSON, rendering, the certificate bundle, exit statuses."""
from __future__ import annotations

import json

import pytest

from support import invoke_cli as invoke


def test_json_gives_the_families_the_proof_and_what_is_not_covered() -> None:
    code, out, err = invoke("layer-group", "--act", "silu", "--form", "gated", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["complete"] is True and data["activation"] == "silu"
    assert data["families"][1].startswith("value path") and "a ∈ {1}" in data["families"][2]
    assert [s["title"] for s in data["proof"]][-1] == "Completeness"
    assert any("residual stream" in item for item in data["not_covered"])


def test_plain_mlp_has_no_value_path_and_rich_text() -> None:
    code, out, _ = invoke("layer-group", "--act", "relu", "--form", "mlp")
    assert code == 0
    assert "complete: weight symmetries of the mlp layer" in out and "a > 0, c = a" in out
    assert "value path:" not in out


def test_certificate_bundle_is_accepted(tmp_path) -> None:
    path = tmp_path / "bundle.json"
    code, _, err = invoke("layer-group", "--act", "tanh", "--certificate", str(path))
    assert code == 0, err
    code, out, _ = invoke("check-certificate", str(path))
    assert code == 0, out
    assert json.loads(path.read_text())["certificates"][-1]["what"] == "value path"


@pytest.mark.parametrize("args, message", [
    (("layer-group", "--act", "relu", "--form", "rank1"), "Error: unknown layer form 'rank1'"),
    (("layer-group", "--act", "log(z)"), "Error: "),
])
def test_bad_input_is_one_line_exit_2(args, message) -> None:
    code, _, err = invoke(*args)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1
