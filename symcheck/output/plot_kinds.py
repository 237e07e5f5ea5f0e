"""The figures ``symcheck plot KIND`` draws. Standard library only: the command line offers these
names as choices without loading NumPy or matplotlib (:mod:`symcheck.output.plots` draws them)."""
from __future__ import annotations

from enum import StrEnum

__all__ = ["PlotKind"]


class PlotKind(StrEnum):
    """The figures ``symcheck plot KIND`` draws, named as the symmetry checks' commands."""

    EXCHANGE = "exchange"
    SCALING = "scaling"
