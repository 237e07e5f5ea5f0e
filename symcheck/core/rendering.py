"""Renderers chosen by the type of the value, one per output format.

The output layer registers a function per (format, type) — as SymPy's printers pick a
``_print_<Class>`` method — and a result renders itself by asking for its own type here
(:class:`~symcheck.core.results.Renderable`). Nothing in the lower layers names a renderer or
imports the output layer: the package's root tells this module how to load each format's module
on first use (:func:`load_with`), so a command that prints JSON never pays for the renderers
and one that prints rich text never pays for LaTeX.

A type is registered by the class or by its qualified name (``"symcheck.paper.auditing.Audit"``),
so a renderer module need not import every result's module to register for it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["renderer", "render", "find", "load_with", "FORMATS"]

#: "rich" (a rich renderable), "latex" (a LaTeX fragment), "html" (for Jupyter), "text" (Unicode
#: lines for a terminal or ``print``)
FORMATS = ("rich", "latex", "html", "text")

_REGISTRY: dict[str, dict[str, Callable[..., Any]]] = {name: {} for name in FORMATS}
_LOADERS: dict[str, list[Callable[[], None]]] = {name: [] for name in FORMATS}


def _key(cls: type | str) -> str:
    return cls if isinstance(cls, str) else f"{cls.__module__}.{cls.__qualname__}"


def _check(fmt: str) -> None:
    if fmt not in _REGISTRY:
        raise ValueError(f"unknown output format {fmt!r}; expected one of {', '.join(FORMATS)}")


def renderer(fmt: str, cls: type | str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the ``fmt`` renderer of ``cls`` (and its subclasses);
    ``cls`` is the class or its qualified name."""
    _check(fmt)

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        _REGISTRY[fmt][_key(cls)] = function
        return function

    return register


def load_with(loader: Callable[[], None], fmt: str | None = None) -> None:
    """How to load the renderers of ``fmt`` (every format when None) when one is first needed
    (called by the package's root)."""
    for name in FORMATS if fmt is None else (fmt,):
        _check(name)
        _LOADERS[name].append(loader)


def find(fmt: str, cls: type) -> Callable[..., Any]:
    """The ``fmt`` renderer of ``cls``, by its method resolution order."""
    _check(fmt)
    found = _registered(fmt, cls)
    for load in _LOADERS[fmt]:  # in order, the smallest module first: stop at the first that has it
        if found is not None:
            return found
        load()
        found = _registered(fmt, cls)
    if found is None:
        raise LookupError(f"no {fmt} renderer for {cls.__name__}")
    return found


def _registered(fmt: str, cls: type) -> Callable[..., Any] | None:
    for base in cls.__mro__:
        found = _REGISTRY[fmt].get(_key(base))
        if found is not None:
            return found
    return None


def render(value: Any, fmt: str, **options: Any) -> Any:
    """``value`` rendered in ``fmt`` by the renderer registered for its type."""
    return find(fmt, type(value))(value, **options)
