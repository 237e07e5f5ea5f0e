"""Figures: files are produced in every format, are not blank, and σ is never lambdified."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import numpy as np
import pytest

import symcheck as sc
from symcheck.output import plots

from support import invoke_cli

pytest.importorskip("matplotlib", reason="matplotlib is the optional 'plot' extra")


def _pixels(path: Path) -> np.ndarray:
    from matplotlib.image import imread
    return imread(path)


@pytest.mark.parametrize("kind, act", [("exchange", "silu"), ("scaling", "gelu")])
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
@pytest.mark.slow
def test_cli_writes_a_non_trivial_figure(tmp_path: Path, kind: str, act: str, suffix: str) -> None:
    out = tmp_path / f"{kind}{suffix}"
    code, stdout, err = invoke_cli("plot", kind, "--act", act, "-o", str(out))
    assert code == 0, err
    assert out.exists() and out.stat().st_size > 10_000, out.stat().st_size
    head = out.read_bytes()[:64]
    assert head.startswith({".png": b"\x89PNG", ".pdf": b"%PDF", ".svg": b"<?xml"}[suffix])
    if suffix == ".png":
        pixels = _pixels(out)[..., :3].reshape(-1, 3)
        assert len(np.unique(pixels, axis=0)) > 50, "the image is (almost) a single colour"
    assert out.name in err and not stdout


def test_vector_files_embed_the_field_as_one_image(tmp_path: Path) -> None:
    """The coloured field is rasterised: an SVG of a 241×241 grid stays small."""
    out = plots.plot("scaling", "gelu", tmp_path / "s.svg")
    assert out.stat().st_size < 1_000_000


@pytest.mark.slow
def test_same_figure_same_bytes(tmp_path: Path) -> None:
    first = plots.plot("exchange", "relu", tmp_path / "a.svg").read_bytes()
    second = plots.plot("exchange", "relu", tmp_path / "b.svg").read_bytes()
    assert first == second


def test_exchange_defect_vanishes_on_the_diagonal_only_for_silu() -> None:
    a, b, d = plots.exchange_defect(sc.activation("silu"))
    assert d.shape == a.shape == b.shape
    assert np.abs(np.diagonal(d)).max() == 0.0   # a = b: the unit is unchanged
    assert np.abs(d + d.T).max() < 1e-12          # antisymmetric in (a, b)
    assert np.abs(d).max() > 1.0
    _, _, linear = plots.exchange_defect(sc.activation("identity"))
    assert np.abs(linear).max() == 0.0            # a linear σ keeps the exchange everywhere


def test_scaling_defect_is_zero_at_alpha_one_and_for_relu() -> None:
    alphas, a, e = plots.scaling_defect(sc.activation("relu"))
    assert np.nanmax(np.abs(e)) < 1e-12           # ReLU is positively homogeneous
    alphas, a, e = plots.scaling_defect(sc.activation("gelu"), "any")
    assert (alphas < 0).any() and (alphas > 0).any() and np.nanmax(np.abs(e)) > 0.1


@pytest.mark.slow
def test_without_to_numpy_sigma_is_evaluated_point_by_point(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    act = sc.activation("gelu")
    fine = plots.scaling_defect(act)[2]
    monkeypatch.setattr(plots, "_vectorised", lambda act: None)
    coarse = plots.scaling_defect(act)[2]
    assert coarse.shape == (plots.COARSE, plots.COARSE)
    step = (plots.FINE - 1) // (plots.COARSE - 1)   # the coarse grid is every step-th fine point
    assert np.nanmax(np.abs(fine[::step, ::step] - coarse)) < 1e-9
    out = plots.plot("exchange", "z*tanh(z)", tmp_path / "custom.png")
    assert len(np.unique(_pixels(out)[..., :3].reshape(-1, 3), axis=0)) > 50


def test_sigma_is_never_lambdified_or_evaluated() -> None:
    tree = ast.parse(Path(plots.__file__).read_text())
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    used |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not used & {"lambdify", "eval", "exec", "compile"}


@pytest.mark.parametrize("args, message", [
    (("plot", "exchange", "--act", "silu", "-o", "x.jpg"), "use a .png, .svg or .pdf file"),
    (("plot", "scaling", "--act", "silu", "--alpha", "-1", "-o", "x.png"), "draws a range of α"),
    (("plot", "rotation", "--act", "silu", "-o", "x.png"), "rotation"),
    (("plot", "exchange", "--act", "log(z)", "-o", "x.png"), "Error:"),
    (("plot", "exchange", "--act", "silu"), "-o"),
])
def test_bad_requests_are_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          args: tuple[str, ...], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = invoke_cli(*args)
    assert code == 2 and err.startswith("Error:") and err.count("\n") == 1, err
    assert message in err
    assert not list(tmp_path.iterdir())


def test_missing_matplotlib_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)   # `import matplotlib` now raises ImportError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = invoke_cli("plot", "exchange", "--act", "silu", "-o", str(tmp_path / "x.png"))
    assert code == 2
    assert err == ("Error: plotting needs matplotlib, which is not installed: "
                   "pip install 'symcheck[plot]' (or pip install matplotlib)\n")
    with pytest.raises(plots.PlotError) as info:
        plots.exchange_figure("silu")
    assert isinstance(info.value, ImportError) and isinstance(info.value, sc.SymcheckError)
