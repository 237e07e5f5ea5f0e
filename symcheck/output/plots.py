"""Figures of a symmetry's defect, for people who would rather look than read a table.

* :func:`exchange_figure` — the antisymmetric part ``σ(a)·b − σ(b)·a`` of the gated unit over a
  grid of (a, b), its zero set drawn in black: exchange is a symmetry exactly where it vanishes;
* :func:`scaling_figure` — the scaling defect ``σ(αa)/α − σ(a)`` over (α, a), its zero set drawn.

σ is evaluated from its SymPy definition, never by ``lambdify``/``eval``: with
``Activation.to_numpy()`` (a tree-walking vectoriser) when the activation has it, otherwise point
by point with :func:`symcheck.exact.evaluate.approximate` on a coarser grid of exact rationals.
A figure is a picture of numbers, not a proof: the verdicts come from the checks.

matplotlib is an optional extra (``pip install 'symcheck[plot]'``); without it every entry
point raises :class:`PlotError`, one line that says how to install it.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from symcheck.core.errors import PlotError, SymcheckError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from symcheck.language.activations import Activation

__all__ = ["PlotError", "FORMATS", "exchange_figure", "scaling_figure", "plot", "sigma_values"]

#: file suffix -> matplotlib format
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
#: no dates or versions in the files, so the same figure gives the same bytes
_METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None},
             "pdf": {"CreationDate": None, "Creator": None, "Producer": None}}
#: grid points per axis: vectorised, and point by point (exact rationals, mpmath)
FINE, COARSE = 241, 81
LIMIT = 4              # a, b ∈ [−LIMIT, LIMIT]
ALPHA_RANGE = (Fraction(1, 5), Fraction(4))  # |α| drawn; small |α| makes σ(αa)/α explode
SCALING_DOMAINS = ("positive", "negative", "any")




def _matplotlib() -> Any:
    try:
        import matplotlib.figure  # the import is the check
    except ImportError:
        raise PlotError("plotting needs matplotlib, which is not installed: "
                        "pip install 'symcheck[plot]' (or pip install matplotlib)") from None
    return matplotlib


# ---- σ on a grid ---------------------------------------------------------------------------------

def _vectorised(act: "Activation") -> Any:
    """``act.to_numpy()``, or None for an expression NumPy cannot evaluate (then: mpmath)."""
    try:
        return act.to_numpy()
    except SymcheckError:  # vectorize raises EvaluationError for nodes it does not translate
        return None


def sigma_values(act: "Activation", points: Any) -> np.ndarray:
    """σ at ``points`` (exact rationals or floats) as float64; NaN where it cannot be evaluated."""
    function = _vectorised(act)
    if function is not None:
        with np.errstate(all="ignore"):
            return np.asarray(function(np.asarray([float(p) for p in points], dtype=float)), dtype=float)
    return np.array([_approximate(act, p) for p in points], dtype=float)


def _approximate(act: "Activation", point: Any) -> float:
    from symcheck.exact.evaluate import approximate
    from symcheck.language.symbols import Z
    try:
        return float(approximate(act.expr, {Z: Fraction(point)}, dps=17))
    except (SymcheckError, ArithmeticError, ValueError, TypeError):
        return float("nan")


def _axis(lo: Fraction, hi: Fraction, count: int) -> list[Fraction]:
    """``count`` exact rationals from ``lo`` to ``hi``, evenly spaced."""
    step = (hi - lo) / (count - 1)
    return [lo + step * i for i in range(count)]


def _count(act: "Activation") -> int:
    return FINE if _vectorised(act) is not None else COARSE


def exchange_defect(act: "Activation") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b, D) with ``D[i, j] = σ(a_j)·b_i − σ(b_i)·a_j`` on the square [−LIMIT, LIMIT]²."""
    axis = _axis(Fraction(-LIMIT), Fraction(LIMIT), _count(act))
    s = sigma_values(act, axis)  # σ is needed on the axis only: D is an outer combination
    x = np.array([float(p) for p in axis])
    a, b = np.meshgrid(x, x)
    sa, sb = np.meshgrid(s, s)
    return a, b, sa * b - sb * a


def scaling_defect(act: "Activation", alpha: str = "positive") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(α, a, E) with ``E = σ(αa)/α − σ(a)`` for α in the domain (|α| in ALPHA_RANGE), a ∈ [−LIMIT, LIMIT]."""
    if alpha not in SCALING_DOMAINS:
        raise PlotError(f"the scaling figure draws a range of α: {', '.join(SCALING_DOMAINS)}, not {alpha!r}")
    count = _count(act)
    lo, hi = ALPHA_RANGE
    if alpha == "positive":
        alphas = _axis(lo, hi, count)
    elif alpha == "negative":
        alphas = _axis(-hi, -lo, count)
    else:
        half = _axis(lo, hi, count // 2)
        alphas = [-p for p in reversed(half)] + half
    values = _axis(Fraction(-LIMIT), Fraction(LIMIT), count)
    x, v = np.array([float(p) for p in alphas]), np.array([float(q) for q in values])
    base = sigma_values(act, values)
    function = _vectorised(act)
    if function is not None:  # σ on the whole (α·a) grid at once
        with np.errstate(all="ignore"):
            scaled = np.asarray(function(np.outer(v, x)), dtype=float)
    else:  # exact products, each distinct one evaluated once
        products = sorted({p * q for p in alphas for q in values})
        sigma = dict(zip(products, sigma_values(act, products)))
        scaled = np.array([[sigma[p * q] for p in alphas] for q in values])
    with np.errstate(all="ignore"):
        defect = scaled / x[np.newaxis, :] - base[:, np.newaxis]
    al, a = np.meshgrid(x, v)
    return al, a, defect


# ---- figures -------------------------------------------------------------------------------------

def _label(act: "Activation") -> str:
    """σ's name for a title: mathtext for a catalogue name; a user's formula with $ made literal."""
    if act.builtin:
        return rf"$\sigma = \mathrm{{{act.name.replace('_', chr(92) + '_')}}}$"
    return "σ(z) = " + act.formula.replace("$", r"\$")


def _draw(fig: "Figure", x: np.ndarray, y: np.ndarray, field: np.ndarray, xlabel: str, ylabel: str,
          title: str, bar: str) -> None:
    from matplotlib.colors import TwoSlopeNorm
    ax = fig.add_subplot()
    finite = np.abs(field[np.isfinite(field)])
    scale = float(np.percentile(finite, 99)) if finite.size else 0.0
    zero = scale == 0.0
    scale = scale or 1.0
    mesh = ax.pcolormesh(x, y, np.ma.masked_invalid(field), cmap="RdBu_r", shading="auto", rasterized=True,
                         norm=TwoSlopeNorm(vmin=-scale, vcenter=0.0, vmax=scale))
    fig.colorbar(mesh, ax=ax, label=bar, extend="both")
    if zero:
        ax.text(0.5, 0.5, "≡ 0 on the grid", transform=ax.transAxes, ha="center", va="center",
                fontsize=14, bbox={"facecolor": "white", "edgecolor": "black"})
    else:
        ax.contour(x, y, np.ma.masked_invalid(field), levels=[0.0], colors="black", linewidths=1.2)
        ax.plot([], [], color="black", label="zero set: the unit is unchanged")
        ax.legend(loc="upper left", framealpha=0.9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def exchange_figure(act: "str | Activation") -> "Figure":
    """The antisymmetric part σ(a)·b − σ(b)·a of the gated unit, with its zero set."""
    _matplotlib()
    from matplotlib.figure import Figure

    from symcheck.language.activations import activation
    sigma = activation(act)
    a, b, d = exchange_defect(sigma)
    fig = Figure(figsize=(6.4, 5.2), layout="constrained")
    _draw(fig, a, b, d, "a = x·q", "b = x·k",
          f"exchange on the gated unit, {_label(sigma)}", "σ(a)·b − σ(b)·a")
    return fig


def scaling_figure(act: "str | Activation", alpha: str = "positive") -> "Figure":
    """The inverse-scaling defect σ(αa)/α − σ(a) of the gated unit over (α, a), with its zero set."""
    _matplotlib()
    from matplotlib.figure import Figure

    from symcheck.language.activations import activation
    sigma = activation(act)
    al, a, e = scaling_defect(sigma, alpha)
    fig = Figure(figsize=(6.4, 5.2), layout="constrained")
    _draw(fig, al, a, e, "α", "a = x·q", f"inverse scaling on the gated unit, {_label(sigma)}",
          "σ(αa)/α − σ(a)")
    return fig


def plot(kind: str, act: "str | Activation", path: str | Path, *, alpha: str = "positive") -> Path:
    """Draw ``kind`` (exchange or scaling) for ``act`` into ``path``; PNG, SVG or PDF by its suffix."""
    matplotlib = _matplotlib()
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PlotError(f"cannot tell the figure format from {path.name!r}: use a .png, .svg or .pdf file")
    if kind == "exchange":
        fig = exchange_figure(act)
    elif kind == "scaling":
        fig = scaling_figure(act, alpha)
    else:
        raise PlotError(f"no figure {kind!r}: exchange or scaling")
    with matplotlib.rc_context({"svg.hashsalt": "symcheck"}):
        try:
            fig.savefig(path, format=fmt, dpi=120, metadata=_METADATA[fmt])
        except OSError as err:
            raise PlotError(f"cannot write {path}: {err.strerror or err}") from None
    return path
