"""Unit forms: one hidden unit as a function of a = x·q and b = x·k, with σ opaque."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy

from .errors import UnknownNameError
from .names import closest


@dataclass(frozen=True)
class Form:
    name: str
    description: str
    build: Callable[[Callable[[sympy.Expr], sympy.Expr], sympy.Expr, sympy.Expr], sympy.Expr]

    def __call__(self, sigma: Callable[[sympy.Expr], sympy.Expr], a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
        return self.build(sigma, a, b)


FORMS: dict[str, Form] = {
    "gated": Form("gated", "σ(a)·b — the gated MLP (GLU family): nonlinearity on the query factor",
                  lambda s, a, b: s(a) * b),
    "rank1": Form("rank1", "σ(a·b) — the symmetric rank-1 bilinear unit",
                  lambda s, a, b: s(a * b)),
}


def form(name: str) -> Form:
    try:
        return FORMS[name]
    except KeyError:
        raise UnknownNameError("form", name, closest(name, FORMS), tuple(FORMS)) from None
