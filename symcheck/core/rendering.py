"""Renderers chosen by the type of the value, one per output format.

The output layer registers a function per (format, type) — as SymPy's printers pick a
``_print_<Class>`` method — and a result renders itself by asking for its own type here
(:class:`~symcheck.core.results.Renderable`). Nothing in the lower layers names a renderer or
imports the output layer: the package's root tells this module how to load it on first use
(:func:`load_with`), so a command that prints JSON never pays for the renderers.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["renderer", "render", "find", "load_with", "FORMATS"]

#: "rich" (a rich renderable), "latex" (a LaTeX fragment), "html" (for Jupyter)
FORMATS = ("rich", "latex", "html")

_REGISTRY: dict[str, dict[type, Callable[..., Any]]] = {name: {} for name in FORMATS}
_LOADERS: list[Callable[[], None]] = []


def renderer(fmt: str, cls: type) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the ``fmt`` renderer of ``cls`` (and its subclasses)."""
    if fmt not in _REGISTRY:
        raise ValueError(f"unknown output format {fmt!r}; expected one of {', '.join(FORMATS)}")

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        _REGISTRY[fmt][cls] = function
        return function

    return register


def load_with(loader: Callable[[], None]) -> None:
    """How to load the renderers when one is first needed (called by the package's root)."""
    _LOADERS.append(loader)


def find(fmt: str, cls: type) -> Callable[..., Any]:
    """The ``fmt`` renderer of ``cls``, by its method resolution order."""
    for attempt in range(2):
        for base in cls.__mro__:
            if base in _REGISTRY[fmt]:
                return _REGISTRY[fmt][base]
        if attempt == 0:
            for load in _LOADERS:
                load()
    raise LookupError(f"no {fmt} renderer for {cls.__name__}")


def render(value: Any, fmt: str, **options: Any) -> Any:
    """``value`` rendered in ``fmt`` by the renderer registered for its type."""
    return find(fmt, type(value))(value, **options)
