"""Certificates of statements about an activation family: the parameters are further variables.

A family's statement "for every θ in its declared range: ∀ a, b (scale in its domain): left =
right" is the ordinary statement claim (:func:`~symcheck.engine.certificate_emit.statement_claim`)
with each parameter a variable whose domain is the declared range (or one region of it), and
the claim's ``params`` naming them (docs/certificates.md, "Parameters"). A broken family is a
``nonzero`` claim at a point whose parameter values the kernel checks lie in their domains.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import sympy

from symcheck.engine.certificate_emit import (
    EMIT_SECONDS,
    Outcome,
    _emit,
    _finish,
    _witnessed,
    statement_claim,
)
from symcheck.engine.certificate_points import region_json
from symcheck.engine.certificate_tree import Unsupported, to_json
from symcheck.exact.regions import Region
from symcheck.kernel.verdict import Reject

__all__ = ["certify_family_statement", "certify_family_witness", "regions_json"]


def regions_json(regions: Sequence[Region]) -> list:
    """A parameter's range (points and open intervals) as the kernel's list of regions."""
    return [region_json(r.lower, r.upper) for r in regions]


def _claim(expr_sigma: sympy.Expr, transformation: Any, unit: Any,
           ranges: Mapping[sympy.Symbol, Sequence[Region]], names: Mapping[sympy.Symbol, str], kind: str):
    expr, domains = statement_claim(expr_sigma, transformation, unit)
    for symbol, regions in ranges.items():
        domains[symbol.name] = regions_json(regions)
    claim = {"kind": kind, "expr": to_json(expr), "vars": domains,
             "params": {s.name: names[s] for s in ranges}}
    return expr, domains, claim


def certify_family_statement(expr_sigma: sympy.Expr, transformation: Any, unit: Any,
                             ranges: Mapping[sympy.Symbol, Sequence[Region]], names: Mapping[sympy.Symbol, str],
                             *, about: str = "", seconds: float = EMIT_SECONDS) -> Outcome:
    """The certificate of a family's ``holds`` on ``ranges`` (each parameter's regions)."""
    started = time.perf_counter()
    try:
        expr, domains, claim = _claim(expr_sigma, transformation, unit, ranges, names, "zero")
    except (Unsupported, Reject, RecursionError) as why:
        return _finish(None, started, True, f"the statement has no tree: {why}")
    return _emit(expr, claim, domains, about, True, started, seconds)


def certify_family_witness(expr_sigma: sympy.Expr, transformation: Any, unit: Any,
                           ranges: Mapping[sympy.Symbol, Sequence[Region]], names: Mapping[sympy.Symbol, str],
                           point: Mapping[str, Any], *, about: str = "") -> Outcome:
    """The certificate of a family's ``broken``: left − right ≠ 0 at ``point`` (a, b, the scale and
    every parameter, by internal name), each parameter value inside its declared range."""
    started = time.perf_counter()
    try:
        _, domains, claim = _claim(expr_sigma, transformation, unit, ranges, names, "nonzero")
    except (Unsupported, Reject, RecursionError) as why:
        return _finish(None, started, True, f"the statement has no tree: {why}")
    return _witnessed(claim, sorted(domains), point, about, started, True)
