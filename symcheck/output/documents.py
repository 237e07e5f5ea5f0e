"""``symcheck latex``: the LaTeX document of a result, of several, or of a paper result by name."""
from __future__ import annotations

from typing import Any

from symcheck.output import latex as _latex
from symcheck.paper.targets import PAPER, resolve

__all__ = ["PAPER", "latex_document"]


def latex_document(what: Any, *, fragment: bool = False) -> str:
    """The LaTeX for ``what``: a result, a tuple of results, or the name of a derivation or paper
    result (``"rank1"``, ``"exchange"``, ``"catalogue"``, ``"all"``; see
    :func:`symcheck.paper.targets.resolve`). A standalone document (amsmath, amssymb), or with
    ``fragment`` the body alone, for ``\\input``."""
    resolved = resolve(what) if isinstance(what, str) else what
    items = resolved if isinstance(resolved, tuple) else (resolved,)
    body = "\n".join(_latex.fragment(item) for item in items)
    if fragment:
        return body
    several = isinstance(resolved, tuple)
    return _latex.document(body, title="symcheck: the paper's results" if several else None, contents=several)
