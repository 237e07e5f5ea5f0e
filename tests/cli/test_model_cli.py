"""`symcheck model DIR` on the command line: the table at every width, strict JSON, the
figure, inputs from a file, and the renderings for LaTeX and Jupyter."""
from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from rich.console import Console

from symcheck.numeric.model_report import model_report

from support import invoke_cli
from support.model_checkpoints import write_model


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("model") / "tiny-llama"
    write_model(directory, "llama", layers=4, d=6, m=10, dtype="BF16", shards=2)
    return directory


@pytest.fixture(scope="module")
def report(model_dir):
    return model_report(model_dir, tokens=16)


def _rendered(value, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(value)
    return console.export_text()


@pytest.mark.parametrize("width", [40, 80, 120])
def test_no_text_is_lost_at_any_width(report, width) -> None:
    text = _rendered(report, width)
    assert "…" not in text
    assert all(len(line.rstrip()) <= width for line in text.splitlines())
    words = set(text.split())
    for record in report.layers:
        for value in (record.exchange_defect, record.rescaling_residual, record.relative_error):
            assert f"{value:.2e}" in words
        assert {"gated", "silu", "broken", "holds"} <= words
    # the header and the note wrap at spaces, never through a word
    for sentence in (report.name, report.inputs, "halved; vs forward: symcheck's evaluation"):
        assert set(sentence.split()) <= words


def test_the_table_is_a_table_where_it_fits(report) -> None:
    text = _rendered(report, 120)
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert [row[0] for row in rows] == ["0", "1", "2", "3"]
    assert all(row[1:3] == ["gated", "silu"] for row in rows)


def test_json_is_strict_and_has_the_keys_of_the_issue(model_dir) -> None:
    code, out, err = invoke_cli("model", str(model_dir), "--json", "--layers", "0,2-3", "--tokens", "8")
    assert code == 0, err

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in the JSON")

    payload = json.loads(out, parse_constant=refuse)
    assert set(payload) >= {"model", "architecture", "layers"}
    assert payload["architecture"] == "llama" and payload["model"] == str(model_dir)
    assert [layer["index"] for layer in payload["layers"]] == [0, 2, 3]
    for layer in payload["layers"]:
        assert set(layer) >= {"index", "form", "activation", "sizes", "verdicts", "exchange_defect",
                              "rescaling_residual", "relative_error"}
        assert layer["verdicts"] == {"exchange": "broken", "inverse-scaling-positive": "broken",
                                     "inverse-scaling-minus-one": "broken", "key-value-rescaling": "holds"}
        assert layer["sizes"] == {"d": 6, "m": 10, "e": 6}
        assert math.isfinite(layer["exchange_defect"]) and layer["exchange_defect"] > 0.01


def test_json_nulls_where_a_form_has_no_such_factor(tmp_path) -> None:
    write_model(tmp_path, "gpt2", layers=1)
    code, out, err = invoke_cli("model", str(tmp_path), "--json", "--tokens", "4")
    assert code == 0, err
    layer = json.loads(out)["layers"][0]
    assert layer["exchange_defect"] is None
    assert layer["verdicts"]["exchange"] is None and layer["verdicts"]["key-value-rescaling"] == "broken"


def test_inputs_from_a_file_are_the_rows_used(model_dir, tmp_path) -> None:
    X = np.random.default_rng(5).standard_normal((7, 6))
    np.save(tmp_path / "X.npy", X)
    from_file = model_report(model_dir, inputs=tmp_path / "X.npy")
    from_array = model_report(model_dir, inputs=X)
    assert from_file.tokens == 7
    assert [r.to_dict() for r in from_file.layers] == [r.to_dict() for r in from_array.layers]
    other = model_report(model_dir, inputs=X * 3)
    assert [r.exchange_defect for r in other.layers] != [r.exchange_defect for r in from_file.layers]


def test_the_seed_draws_the_rows(model_dir) -> None:
    same = [model_report(model_dir, tokens=8, seed=4).layers[0].exchange_defect for _ in range(2)]
    other = model_report(model_dir, tokens=8, seed=5).layers[0].exchange_defect
    assert same[0] == same[1] != other


def test_plot_writes_the_figure(model_dir, tmp_path) -> None:
    pytest.importorskip("matplotlib", reason="the figure needs matplotlib")
    path = tmp_path / "defects.png"
    code, out, err = invoke_cli("model", str(model_dir), "--tokens", "4", "--plot", str(path))
    assert code == 0, err
    assert f"wrote {path}" in err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_latex_and_html_renderings_carry_every_layer(report) -> None:
    latex, html = report.to_latex(), report._repr_html_()
    for record in report.layers:
        assert f"{record.exchange_defect:.2e}".split("e")[0] in latex
        assert f"{record.exchange_defect:.2e}" in html
    assert r"\begin{tabular}" in latex and latex.count(r"\\") >= len(report.layers) + 1
    assert html.count("<tr>") == len(report.layers) + 1
