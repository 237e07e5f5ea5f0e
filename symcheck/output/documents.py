"""``symcheck latex TARGET``: the LaTeX document of what a TARGET names (:mod:`symcheck.paper.targets`)."""
from __future__ import annotations

from collections.abc import Sequence

from symcheck.output import latex as _latex
from symcheck.paper.targets import PAPER, resolve

__all__ = ["PAPER", "latex_document"]


def latex_document(target: str | Sequence[str], *, fragment: bool = False) -> str:
    """The LaTeX for TARGET: a standalone document (amsmath, amssymb), or with ``fragment`` the
    body alone, for ``\\input``."""
    resolved = resolve(target)
    items = resolved if isinstance(resolved, tuple) else (resolved,)
    body = "\n".join(_latex.fragment(item) for item in items)
    if fragment:
        return body
    title = "symcheck: the paper's results" if isinstance(resolved, tuple) else None
    return _latex.document(body, title=title)
