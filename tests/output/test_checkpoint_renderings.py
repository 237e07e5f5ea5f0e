"""LaTeX and HTML of the transform, equiv and canonical reports, chosen by type: every layer a
row, the verdicts and figures shown, the LaTeX ASCII and compiled by pdflatex, the HTML tables
whole (including a not-equivalent layer's reason, and file names with LaTeX's special characters)."""
from __future__ import annotations

import re

import numpy as np
import pytest
from test_latex import PDFLATEX, compile_pdf

from symcheck.core.rendering import render
from symcheck.numeric.canonical import canonical
from symcheck.numeric.equiv import equiv
from symcheck.numeric.transform import transform
from symcheck.output.documents import latex_document

from support.model_checkpoints import write_model, write_safetensors


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("model_50%_#1")  # _ % # : LaTeX's specials in every path
    tensors = write_model(root / "a", "llama", layers=3, d=6, m=8, dtype="BF16")
    rng = np.random.default_rng(0)
    np.save(root / "P.npy", rng.permutation(8))
    np.save(root / "l.npy", rng.uniform(0.5, 2, 8))
    moved = transform(root / "a", root / "b", permute=str(root / "P.npy"), scale_value=str(root / "l.npy"))
    write_model(root / "c", "llama", layers=3, d=6, m=8, dtype="F32")
    tensors["model.layers.2.mlp.gate_proj.weight"] = 2 * tensors["model.layers.2.mlp.gate_proj.weight"]
    write_safetensors(root / "c" / "model.safetensors", {n: ("F32", v) for n, v in tensors.items()})
    return {"transform": moved, "equivalent": equiv(root / "a", root / "b"),
            "not equivalent": equiv(root / "a", root / "c"), "canonical": canonical(root / "b", root / "d")}


@pytest.mark.parametrize("kind", ["transform", "equivalent", "not equivalent", "canonical"])
def test_latex_has_every_layer_and_compiles(reports, kind, tmp_path) -> None:
    report = reports[kind]
    text = latex_document(report)
    assert text.isascii()
    rows = [line for line in text.splitlines() if re.match(r"\d+ & ", line)]
    assert [row.split(" & ")[0] for row in rows] == [str(layer.index) for layer in report.layers]
    if kind.endswith("equivalent"):
        assert all(layer.verdict in row for layer, row in zip(report.layers, rows, strict=True))
        assert kind in text
    if PDFLATEX is not None:
        compile_pdf(tmp_path, text, kind.replace(" ", "-"))


@pytest.mark.parametrize("kind", ["transform", "equivalent", "not equivalent", "canonical"])
def test_html_is_a_table_of_every_layer(reports, kind) -> None:
    report = reports[kind]
    page = render(report, "html")
    head, rows = report.table()
    assert page.count("<tr>") == len(report.layers) + 1 and page.count("<table>") == 1
    assert all(f"<th style='text-align:left'>{h}</th>" in page for h in head)
    assert "50%_#1" in page and "<script" not in page
    if kind == "not equivalent":
        assert "certified" in page and report.layers[2].verdict == "not equivalent"


def test_notebook_latex_is_one_array(reports) -> None:
    text = render(reports["equivalent"], "latex", notebook=True)
    assert text.startswith("$$\\begin{array}") and text.count("\\\\") == len(reports["equivalent"].layers)
