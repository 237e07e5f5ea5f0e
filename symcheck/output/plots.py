"""Figures of a symmetry's defect, for people who would rather look than read a table.

* :func:`exchange_figure` — the antisymmetric part ``σ(a)·b − σ(b)·a`` of the gated unit over a
  grid of (a, b), its zero set drawn in black: exchange is a symmetry exactly where it vanishes;
* :func:`scaling_figure` — the scaling defect ``σ(αa)/α − σ(a)`` over (α, a), its zero set drawn.

Where the symbolic check proves the symmetry (verdict ``holds``) there is nothing to draw: the
figure says the defect is identically 0, with the command that proves it, instead of colouring
float round-off. Otherwise the zero set is drawn twice over: the contour where the defect changes
sign, and the grid points where it vanishes without changing sign (gelu's scaling defect is 0 on
the whole line a = 0 but ≥ 0 on both sides of it, which a contour never finds) — "vanishes"
meaning no larger than float64 rounding of its two terms.

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

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import PlotError, SymcheckError
from symcheck.core.verdict import Verdict
from symcheck.language.transformations import DomainName
from symcheck.output.plot_kinds import PlotKind

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from symcheck.language.activations import Activation

__all__ = ["PlotError", "PlotKind", "FORMATS", "exchange_figure", "scaling_figure", "plot", "sigma_values",
           "exchange_defect", "scaling_defect", "scaling_domain", "touching_zeros", "require_matplotlib"]


#: file suffix -> matplotlib format
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
#: no dates or versions in the files, so the same figure gives the same bytes
_METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None},
             "pdf": {"CreationDate": None, "Creator": None, "Producer": None}}
#: grid points per axis: vectorised, and point by point (exact rationals, mpmath)
FINE, COARSE = 241, 81
LIMIT = 4              # a, b ∈ [−LIMIT, LIMIT]
ALPHA_RANGE = (Fraction(1, 5), Fraction(4))  # |α| drawn; small |α| makes σ(αa)/α explode
SCALING_DOMAINS = (DomainName.POSITIVE, DomainName.NEGATIVE, DomainName.ANY)
#: a defect no larger than this many float64 roundings of its terms counts as 0 on the grid
ROUNDING = 8




def require_matplotlib() -> Any:
    """matplotlib, or a PlotError saying how to install it (every plotting module asks here)."""
    try:
        import matplotlib.figure  # the import is the check
    except ImportError:
        raise PlotError("plotting needs matplotlib, which is not installed: "
                        "pip install 'symcheck[plot]' (or pip install matplotlib)") from None
    return matplotlib


# ---- σ on a grid ---------------------------------------------------------------------------------

def _vectorised(act: Activation) -> Any:
    """``act.to_numpy()``, or None for an expression NumPy cannot evaluate (then: mpmath)."""
    try:
        return act.to_numpy()
    except SymcheckError:  # vectorize raises EvaluationError for nodes it does not translate
        return None


def sigma_values(act: Activation, points: Any) -> np.ndarray:
    """σ at ``points`` (exact rationals or floats) as float64; NaN where it cannot be evaluated."""
    function = _vectorised(act)
    if function is not None:
        with np.errstate(all="ignore"):
            return np.asarray(function(np.asarray([float(p) for p in points], dtype=float)), dtype=float)
    return np.array([_approximate(act, p) for p in points], dtype=float)


def _approximate(act: Activation, point: Any) -> float:
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


def _count(act: Activation) -> int:
    return FINE if _vectorised(act) is not None else COARSE


def _exchange_terms(act: Activation) -> tuple[np.ndarray, ...]:
    """(a, b, σ(a)·b, σ(b)·a) on the square [−LIMIT, LIMIT]²."""
    axis = _axis(Fraction(-LIMIT), Fraction(LIMIT), _count(act))
    s = sigma_values(act, axis)  # σ is needed on the axis only: D is an outer combination
    x = np.array([float(p) for p in axis])
    a, b = np.meshgrid(x, x)
    sa, sb = np.meshgrid(s, s)
    return a, b, sa * b, sb * a


def exchange_defect(act: Activation) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b, D) with ``D[i, j] = σ(a_j)·b_i − σ(b_i)·a_j`` on the square [−LIMIT, LIMIT]²."""
    a, b, left, right = _exchange_terms(act)
    return a, b, left - right


def scaling_defect(act: Activation, alpha: DomainName = DomainName.POSITIVE
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(α, a, E) with ``E = σ(αa)/α − σ(a)`` for α in the domain (|α| in ALPHA_RANGE), a ∈ [−LIMIT, LIMIT]."""
    al, a, left, right = _scaling_terms(act, alpha)
    with np.errstate(all="ignore"):
        return al, a, left - right


def scaling_domain(alpha: DomainName | str) -> DomainName:
    """``alpha`` as a member of SCALING_DOMAINS (a command line's string reads as one), or a PlotError."""
    if alpha not in SCALING_DOMAINS:
        raise PlotError(f"the scaling figure draws a range of α: {', '.join(SCALING_DOMAINS)}, not {str(alpha)!r}")
    return DomainName(alpha)


def _scaling_terms(act: Activation, alpha: DomainName) -> tuple[np.ndarray, ...]:
    """(α, a, σ(αa)/α, σ(a)) on the grid of :func:`scaling_defect`."""
    alpha = scaling_domain(alpha)
    count = _count(act)
    lo, hi = ALPHA_RANGE
    if alpha is DomainName.POSITIVE:
        alphas = _axis(lo, hi, count)
    elif alpha is DomainName.NEGATIVE:
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
        sigma = dict(zip(products, sigma_values(act, products), strict=True))
        scaled = np.array([[sigma[p * q] for p in alphas] for q in values])
    with np.errstate(all="ignore"):
        left = scaled / x[np.newaxis, :]
    al, a = np.meshgrid(x, v)
    return al, a, left, np.broadcast_to(base[:, np.newaxis], left.shape)


def touching_zeros(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The grid points where ``left − right`` is 0 up to float64 rounding of the two terms:
    the zero set as points, found whether or not the difference changes sign there."""
    with np.errstate(all="ignore"):
        size = np.abs(left) + np.abs(right)
        return np.isfinite(size) & (np.abs(left - right) <= ROUNDING * np.finfo(float).eps * size)


# ---- figures -------------------------------------------------------------------------------------

def _label(act: Activation) -> str:
    """σ's name for a title: mathtext for a catalogue name; a user's formula with $ made literal."""
    if act.builtin:
        return rf"$\sigma = \mathrm{{{act.name.replace('_', chr(92) + '_')}}}$"
    return "σ(z) = " + act.formula.replace("$", r"\$")


def _proved(fig: Figure, x: np.ndarray, y: np.ndarray, xlabel: str, ylabel: str, title: str,
            statement: str, command: str) -> None:
    """A proved symmetry: the statement that the defect is identically 0, no field (on a
    colour scale the float round-off of two equal terms would be all there is to see)."""
    ax = fig.add_subplot()
    ax.set_xlim(float(x.min()), float(x.max()))
    ax.set_ylim(float(y.min()), float(y.max()))
    ax.text(0.5, 0.5, f"{statement}\nfor every point, not only this grid:\nthe symmetry holds, "
                      f"proved symbolically\n({command})",
            transform=ax.transAxes, ha="center", va="center", fontsize=11, gid="identically-zero",
            bbox={"facecolor": "white", "edgecolor": "black"})
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def _draw(fig: Figure, x: np.ndarray, y: np.ndarray, left: np.ndarray, right: np.ndarray, xlabel: str,
          ylabel: str, title: str, bar: str) -> None:
    from matplotlib.colors import ListedColormap, TwoSlopeNorm
    ax = fig.add_subplot()
    with np.errstate(all="ignore"):
        field = left - right
    zeros = touching_zeros(left, right)
    finite = np.abs(field[np.isfinite(field) & ~zeros])
    scale = float(np.percentile(finite, 99)) if finite.size else 0.0
    zero = scale == 0.0
    scale = scale or 1.0
    mesh = ax.pcolormesh(x, y, np.ma.masked_invalid(field), cmap="RdBu_r", shading="auto", rasterized=True,
                         norm=TwoSlopeNorm(vmin=-scale, vcenter=0.0, vmax=scale))
    fig.colorbar(mesh, ax=ax, label=bar, extend="both")
    if zero:  # not a proof (the symbolic check did not say holds): a statement about the grid
        ax.text(0.5, 0.5, "0 up to float rounding on the grid\n(not proved: the symbolic check\n"
                          "did not conclude holds)", transform=ax.transAxes, ha="center", va="center",
                fontsize=12, bbox={"facecolor": "white", "edgecolor": "black"})
    else:
        ax.contour(x, y, np.ma.masked_invalid(field), levels=[0.0], colors="black", linewidths=1.2)
        if zeros.any():  # where the defect touches 0 without changing sign the contour finds nothing
            ax.pcolormesh(x, y, np.ma.masked_where(~zeros, zeros.astype(float)), shading="auto",
                          cmap=ListedColormap(["black"]), rasterized=True, gid="zero-points")
        ax.plot([], [], color="black", label="zero set: the unit is unchanged")
        ax.legend(loc="upper left", framealpha=0.9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def _command(act: Activation, kind: PlotKind, alpha: DomainName | None = None) -> str:
    import shlex
    shown = act.name if act.builtin else act.formula
    return f"symcheck {kind} --act {shlex.quote(shown)}" + (f" --alpha {alpha}" if alpha else "")


def exchange_figure(act: str | Activation, *, timeout: float = DEFAULT_TIMEOUT) -> Figure:
    """The antisymmetric part σ(a)·b − σ(b)·a of the gated unit, with its zero set; where the
    symbolic check proves exchange (within ``timeout`` seconds), that statement instead."""
    require_matplotlib()
    from matplotlib.figure import Figure

    from symcheck.engine.symmetries import check_exchange
    from symcheck.language.activations import activation
    sigma = activation(act)
    a, b, left, right = _exchange_terms(sigma)
    fig = Figure(figsize=(6.4, 5.2), layout="constrained")
    title = f"exchange on the gated unit, {_label(sigma)}"
    if check_exchange(sigma, "gated", timeout=timeout).verdict is Verdict.HOLDS:
        _proved(fig, a, b, "a = x·q", "b = x·k", title, "σ(a)·b − σ(b)·a ≡ 0",
                _command(sigma, PlotKind.EXCHANGE))
    else:
        _draw(fig, a, b, left, right, "a = x·q", "b = x·k", title, "σ(a)·b − σ(b)·a")
    return fig


_DOMAIN_TEXT = {DomainName.POSITIVE: "α > 0", DomainName.NEGATIVE: "α < 0", DomainName.ANY: "α ≠ 0"}


def scaling_figure(act: str | Activation, alpha: DomainName = DomainName.POSITIVE, *,
                   timeout: float = DEFAULT_TIMEOUT) -> Figure:
    """The inverse-scaling defect σ(αa)/α − σ(a) of the gated unit over (α, a), with its zero set;
    where the symbolic check proves the scaling for every α of the domain, that statement instead."""
    require_matplotlib()
    from matplotlib.figure import Figure

    from symcheck.engine.symmetries import check_inverse_scaling
    from symcheck.language.activations import activation
    alpha = scaling_domain(alpha)
    sigma = activation(act)
    al, a, left, right = _scaling_terms(sigma, alpha)
    fig = Figure(figsize=(6.4, 5.2), layout="constrained")
    title = f"inverse scaling on the gated unit, {_label(sigma)}"
    if check_inverse_scaling(sigma, alpha, "gated", timeout=timeout).verdict is Verdict.HOLDS:
        _proved(fig, al, a, "α", "a = x·q", title, f"σ(αa)/α − σ(a) ≡ 0 for every {_DOMAIN_TEXT[alpha]}",
                _command(sigma, PlotKind.SCALING, alpha))
    else:
        _draw(fig, al, a, left, right, "α", "a = x·q", title, "σ(αa)/α − σ(a)")
    return fig


def plot(kind: PlotKind, act: str | Activation, path: str | Path, *, alpha: DomainName = DomainName.POSITIVE,
         timeout: float = DEFAULT_TIMEOUT) -> Path:
    """Draw ``kind`` (exchange or scaling) for ``act`` into ``path``; PNG, SVG or PDF by its suffix.
    ``timeout`` bounds the symbolic check that decides whether there is a defect to draw."""
    path = Path(path)
    figure_format(path)  # a file type that cannot be drawn fails before the work
    if kind == PlotKind.EXCHANGE:
        fig = exchange_figure(act, timeout=timeout)
    elif kind == PlotKind.SCALING:
        fig = scaling_figure(act, alpha, timeout=timeout)
    else:
        raise PlotError(f"no figure {str(kind)!r}: exchange or scaling")
    return save_figure(fig, path)


def figure_format(path: str | Path) -> str:
    """The matplotlib format for ``path``'s suffix, or a PlotError naming the ones accepted."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise PlotError(f"cannot tell the figure format from {Path(path).name!r}: use a .png, .svg or .pdf file")
    return fmt


def save_figure(fig: Any, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` in the format its suffix names, reproducibly (fixed SVG ids, no dates)."""
    matplotlib = require_matplotlib()
    path = Path(path)
    fmt = figure_format(path)
    with matplotlib.rc_context({"svg.hashsalt": "symcheck"}):
        try:
            fig.savefig(path, format=fmt, dpi=120, metadata=_METADATA[fmt])
        except OSError as err:
            raise PlotError(f"cannot write {path}: {err.strerror or err}") from None
    return path
