"""Figures of a symmetry that holds say so instead of drawing round-off; the zero set includes the
points where the defect vanishes without changing sign (gelu's scaling defect on a = 0)."""
from __future__ import annotations

import numpy as np
import pytest

import symcheck as sc
from symcheck.core.verdict import Verdict
from symcheck.output import plots

pytest.importorskip("matplotlib", reason="matplotlib is the optional 'plot' extra")


def _fields(fig) -> list:
    from matplotlib.collections import QuadMesh
    return [c for ax in fig.axes for c in ax.collections if isinstance(c, QuadMesh)]


def _texts(fig) -> str:
    return "\n".join(t.get_text() for ax in fig.axes for t in ax.texts)


@pytest.mark.parametrize("figure, statement, command", [
    (lambda: plots.scaling_figure("relu"), "σ(αa)/α − σ(a) ≡ 0 for every α > 0",
     "symcheck scaling --act relu --alpha positive"),
    (lambda: plots.scaling_figure("tanh", "any"), None, None),          # broken: a field
    (lambda: plots.scaling_figure("leaky_relu", "positive"), "≡ 0 for every α > 0", "--act leaky_relu"),
    (lambda: plots.scaling_figure("Abs(z)", "any"), None, None),           # |αa|/α ≠ |a| for α < 0
    (lambda: plots.exchange_figure("identity"), "σ(a)·b − σ(b)·a ≡ 0", "symcheck exchange --act identity"),
    (lambda: plots.exchange_figure("z*3/7"), "≡ 0", "symcheck exchange --act 'z*3/7'"),
    (lambda: plots.exchange_figure("relu"), None, None),
])
def test_a_proved_symmetry_is_stated_and_never_coloured(figure, statement, command) -> None:
    fig = figure()
    if statement is None:  # not proved: the defect is drawn with its colour bar
        assert _fields(fig) and len(fig.axes) == 2 and "≡ 0" not in _texts(fig)
        return
    assert _fields(fig) == [] and len(fig.axes) == 1, "a proved symmetry drew a colour field or bar"
    text = _texts(fig)
    assert statement in text and command in text and "proved symbolically" in text
    assert not fig.axes[0].lines, "a proved symmetry drew zero-set contours of round-off"


def test_only_a_holds_verdict_removes_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """An inconclusive check of a σ whose defect is round-off is not a proof: the figure still
    shows the grid, and says the values are 0 only up to rounding, not proved."""

    class Inconclusive:
        verdict = Verdict.INCONCLUSIVE

    import symcheck.engine.symmetries as symmetries
    monkeypatch.setattr(symmetries, "check_inverse_scaling", lambda *a, **k: Inconclusive())
    fig = plots.scaling_figure("relu")
    assert "proved symbolically" not in _texts(fig)
    assert "not proved" in _texts(fig) and "up to float rounding" in _texts(fig)


def test_gelu_scaling_zero_set_includes_the_line_a_equals_zero() -> None:
    al, a, left, right = plots._scaling_terms(sc.activation("gelu"), "positive")
    zeros = plots.touching_zeros(left, right)
    row = int(np.flatnonzero(a[:, 0] == 0.0)[0])
    assert zeros[row].all(), "σ(α·0)/α − σ(0) = 0 for every α"
    # the defect is ≥ 0 on both sides of a = 0 for α > 1: no sign change, so no contour there
    defect = left - right
    right_of_one = al[0] > 1.2
    assert (defect[row - 1, right_of_one] > 0).all() and (defect[row + 1, right_of_one] > 0).all()
    # and nothing else on the grid is 0 (α = 1, where the sign changes, is not a grid point)
    assert zeros.sum() == zeros.shape[1]


def test_the_figure_draws_the_touching_zeros() -> None:
    fig = plots.scaling_figure("gelu")
    drawn = [c for c in _fields(fig) if c.get_gid() == "zero-points"]
    assert len(drawn) == 1
    mask = ~np.ma.getmaskarray(drawn[0].get_array()).reshape(-1)
    assert mask.sum() == plots.FINE           # one row of points: the line a = 0


@pytest.mark.parametrize("left, right, zero", [
    (1.0, 1.0, True), (1e300, 1e300 * (1 + 2e-16), True), (0.0, 0.0, True),
    (1.0, 1.0 + 1e-12, False), (0.0, 1e-300, False), (np.inf, np.inf, False), (np.nan, 0.0, False),
])
def test_touching_zeros_means_zero_up_to_the_rounding_of_the_terms(left, right, zero) -> None:
    assert bool(plots.touching_zeros(np.array([left]), np.array([right]))[0]) is zero
