"""Certificates of statements about an activation family: the parameters are further variables.

A family's statement "for every θ in its declared range: ∀ a, b (scale in its domain): left =
right" is the ordinary statement claim (:func:`~symcheck.engine.certificate.emit.statement_claim`)
with each parameter a variable whose domain is the declared range (or one region of it), and
the claim's ``params`` naming them (docs/certificates.md, "Parameters"). A broken family is a
``nonzero`` claim at a point whose parameter values the kernel checks lie in their domains; a
region broken for every parameter value in it is a ``nonzero-region`` claim: the statement at a
probe (a, b and the scale fixed) non-zero over the region (:mod:`symcheck.engine.certificate.region`).
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import sympy

from symcheck.engine.certificate.emit import (
    EMIT_SECONDS,
    SCHEMA,
    Outcome,
    checked_outcome,
    emit_certificate,
    statement_claim,
    witnessed_certificate,
)
from symcheck.engine.certificate.points import point_json, region_json
from symcheck.engine.certificate.tree import Unsupported, to_json
from symcheck.exact.regions import Region
from symcheck.kernel.verdict import Reject

__all__ = ["certify_family_cover", "certify_family_region", "certify_family_statement", "certify_family_witness",
           "probe_json", "regions_json"]


def regions_json(regions: Sequence[Region]) -> list:
    """A parameter's range (points and open intervals) as the kernel's list of regions."""
    return [region_json(r.lower, r.upper) for r in regions]


def probe_json(value: Any) -> list:
    """A probe value for the kernel: an exact rational, or a scaled value c·θ^k·… (a rational
    times integer powers of parameters, by internal name) as ``["mul", c, θ-factor, …]``."""
    value = sympy.sympify(value)
    if value.is_Rational:
        return point_json(value)
    c, rest = value.as_coeff_Mul()
    factors = []
    for base, k in rest.as_powers_dict().items():
        if not (isinstance(base, sympy.Symbol) and k.is_Integer and c.is_Rational):
            raise Unsupported(f"{sympy.sstr(value)[:60]} is not a rational times powers of parameters")
        factors.append(["var", base.name] if k == 1 else ["pow", ["var", base.name], ["int", int(k)]])
    return ["mul", point_json(c), *factors]


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
        return checked_outcome(None, started, True, f"the statement has no tree: {why}")
    return emit_certificate(expr, claim, domains, about, True, started, seconds)


def certify_family_witness(expr_sigma: sympy.Expr, transformation: Any, unit: Any,
                           ranges: Mapping[sympy.Symbol, Sequence[Region]], names: Mapping[sympy.Symbol, str],
                           point: Mapping[str, Any], *, about: str = "") -> Outcome:
    """The certificate of a family's ``broken``: left − right ≠ 0 at ``point`` (a, b, the scale and
    every parameter, by internal name), each parameter value inside its declared range."""
    started = time.perf_counter()
    try:
        _, domains, claim = _claim(expr_sigma, transformation, unit, ranges, names, "nonzero")
    except (Unsupported, Reject, RecursionError) as why:
        return checked_outcome(None, started, True, f"the statement has no tree: {why}")
    return witnessed_certificate(claim, sorted(domains), point, about, started, True)


def certify_family_region(expr_sigma: sympy.Expr, transformation: Any, unit: Any,
                          ranges: Mapping[sympy.Symbol, Sequence[Region]], names: Mapping[sympy.Symbol, str],
                          probe: Mapping[str, sympy.Rational], region: Mapping[sympy.Symbol, Region], *,
                          about: str = "", seconds: float = 10.0) -> Outcome:
    """The certificate of a region ``broken`` for every parameter value in it: left − right at
    ``probe`` (a, b, the scale: exact rationals) is non-zero at every point of ``region`` (one
    region of each parameter, inside its declared range)."""
    return _region_certificate(expr_sigma, transformation, unit, ranges, names, [(probe, region)], region,
                               about, seconds)


def certify_family_cover(expr_sigma: sympy.Expr, transformation: Any, unit: Any,
                         ranges: Mapping[sympy.Symbol, Sequence[Region]], names: Mapping[sympy.Symbol, str],
                         segments: Sequence[tuple[Mapping[str, sympy.Rational], Region]],
                         region: Mapping[sympy.Symbol, Region], *, about: str = "",
                         seconds: float = 10.0, along: sympy.Symbol | None = None) -> Outcome:
    """One parameter's open region cut into ``segments`` (open, point, …, open, rational cuts),
    each with the probe non-zero on it: every value of the region has a counterexample, though
    no one probe serves all (each vanishes somewhere, perhaps at a transcendental value). The
    ``region`` box may hold other parameters (cut ``along`` one): theirs are whole in every segment."""
    if along is None:
        (along,) = region
    return _region_certificate(expr_sigma, transformation, unit, ranges, names,
                               [(probe, {**region, along: r}) for probe, r in segments], region, about, seconds,
                               split=along)


def _region_certificate(expr_sigma, transformation, unit, ranges, names, segments, region, about, seconds,
                        split=None) -> Outcome:
    from symcheck.engine.certificate.region import region_proof
    from symcheck.kernel.check import region_from
    from symcheck.kernel.probe import powers_defined
    from symcheck.kernel.signs import prove_sign
    from symcheck.kernel.tree import parse_expr, substitute
    started = time.perf_counter()
    deadline = started + seconds
    try:
        expr, domains, claim = _claim(expr_sigma, transformation, unit, ranges, names, "nonzero-region")
        probes: list[dict] = []
        for probe, _ in segments:
            shown = {name: probe_json(value) for name, value in probe.items()}
            if shown not in probes:
                probes.append(shown)
        claim["region"] = {s.name: region_json(r.lower, r.upper) for s, r in region.items()}
        parts = [(probes.index({n: probe_json(v) for n, v in probe.items()}),
                  {s.name: region_json(r.lower, r.upper) for s, r in part.items()}) for probe, part in segments]
    except (Unsupported, Reject, RecursionError, TypeError, ValueError) as why:
        return checked_outcome(None, started, True, f"the claim has no tree: {why}")
    if len(segments) == 1:
        claim["probe"] = probes[0]
    else:
        claim["probes"] = probes
    nodes = []
    for k, regions in parts:
        g = expr
        for name, value in probes[k].items():
            g = substitute(g, name, parse_expr(value))
        box = {name: region_from(r) for name, r in regions.items()}
        try:  # the kernel's first obligation: every x^θ defined on the region (x > 0, or x = 0 and θ > 0)
            powers_defined(g, box, prove_sign)
        except Reject:
            return checked_outcome(None, started, True, "a power with a parameter exponent has a base not proved "
                                   "positive (or 0 with a positive exponent) on the region")
        try:
            node = region_proof(g, regions, max(0.1, deadline - time.perf_counter()))
        except (Reject, RecursionError, ArithmeticError, ValueError, TypeError) as err:
            return checked_outcome(None, started, True, f"the emitter failed ({type(err).__name__}: {str(err)[:160]})")
        if node is None:
            return checked_outcome(None, started, True, "no sign argument of the kernel proves the probe non-zero on "
                                   "the region")
        nodes.append(node)
    if len(segments) == 1:
        proof = nodes[0]
    else:
        proof = {"var": split.name, "pieces": [{"region": regions[split.name], "probe": k, **node}
                                                for (k, regions), node in zip(parts, nodes, strict=True)]}
    cert = {"schema": SCHEMA, "about": {"statement": about} if about else {}, "claim": claim, "proof": proof}
    return checked_outcome(cert, started, True)
