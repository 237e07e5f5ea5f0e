"""The defects of a model report by layer, on a log scale: one line per figure.

Exchange defect (gated layers), rescaling residual and the relative error against the
framework-style forward, each ‖f′ − f‖_F / ‖f‖_F per layer. A 0 (an exact symmetry, or two
evaluations that agree to the bit) cannot sit on a log axis: it is drawn at the floor and
marked with an open symbol. Needs matplotlib (``pip install 'symcheck[plot]'``).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from symcheck.output.plots import figure_format, require_matplotlib, save_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from symcheck.numeric.model_report import ModelReport

__all__ = ["model_figure", "plot_model", "figure_format", "FLOOR"]

#: where zeros are drawn (below float64 rounding of any relative figure)
FLOOR = 1e-20
#: (attribute, legend label, marker)
SERIES = (("exchange_defect", "exchange defect (gate ↔ up)", "o"),
          ("rescaling_residual", "rescaling residual (2·key, value/2)", "s"),
          ("relative_error", "relative error vs framework forward", "^"))


def model_figure(report: ModelReport) -> Figure:
    require_matplotlib()
    from matplotlib.figure import Figure
    fig = Figure(figsize=(7.0, 4.2), layout="constrained")
    ax = fig.add_subplot()
    x = [r.index for r in report.layers]
    for attribute, label, marker in SERIES:
        values = [getattr(r, attribute) for r in report.layers]
        if all(v is None for v in values):
            continue
        shown = [(i, max(v, FLOOR)) for i, v in zip(x, values, strict=True) if v is not None]
        line, = ax.plot([i for i, _ in shown], [v for _, v in shown], marker=marker, label=label)
        zeros = [i for i, v in zip(x, values, strict=True) if v == 0.0]
        if zeros:
            ax.plot(zeros, [FLOOR] * len(zeros), linestyle="none", marker=marker, markersize=10,
                    markerfacecolor="white", markeredgecolor=line.get_color())
    ax.set_yscale("log")
    ax.set_xlabel("layer")
    ax.set_ylabel("‖f′ − f‖ / ‖f‖")
    ax.set_title(f"{report.name} ({report.architecture.name}): defects by layer; open symbols are exact 0")
    if len(x) <= 40:
        ax.set_xticks(x)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="best", framealpha=0.9)
    return fig


def plot_model(report: ModelReport, path: str | Path) -> Path:
    """Draw the report's defects by layer into ``path`` (PNG, SVG or PDF by its suffix)."""
    figure_format(path)
    return save_figure(model_figure(report), path)
