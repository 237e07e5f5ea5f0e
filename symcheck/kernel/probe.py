"""The ``nonzero-region`` claim read: a statement's expression at a probe, over a region of its parameters.

A probe fixes every variable that is not a parameter (a, b, the scale) at an exact rational
inside its domain; the region gives each parameter one region inside its declared range. The
kernel substitutes the probe itself, so the proof is about the claim's own expression: if it
is non-zero at every parameter value of the region, each such value has the probe as a
counterexample of the statement (docs/certificates.md, "Parameters").
"""
from __future__ import annotations

from typing import Any

from symcheck.kernel.points import compare, parse_number, rational_point
from symcheck.kernel.tree import Node, free_vars, show, substitute, walk
from symcheck.kernel.verdict import Reject


def contained(inner: tuple, outer: tuple) -> bool:
    """Every point of the parsed region ``inner`` lies in ``outer`` (exact comparisons)."""
    if outer[0] == "point":
        return inner[0] == "point" and compare(inner[1], outer[1]) == 0
    if inner[0] == "point":
        return compare(outer[1], inner[1]) < 0 < compare(outer[2], inner[1])
    return compare(outer[1], inner[1]) <= 0 and compare(inner[2], outer[2]) <= 0


def probe_box(claim: dict, domains: dict[str, list], params: set, expr: Node, region_from: Any,
              meets: Any) -> tuple[Node, dict]:
    """The expression with the probe substituted, and the box of parameter regions it is proved on."""
    probe, regions = claim.get("probe"), claim.get("region")
    if not params:
        raise Reject("a nonzero-region claim needs its parameters ('params')")
    if not isinstance(probe, dict) or not isinstance(regions, dict):
        raise Reject("a nonzero-region claim needs 'probe' and 'region' objects")
    if set(probe) != domains.keys() - params:
        raise Reject(f"the probe must give every variable that is not a parameter, and no other: "
                     f"expected {sorted(domains.keys() - params)}, got {show(sorted(map(str, probe)), 60)}")
    if set(regions) != params:
        raise Reject(f"the region must give every parameter: expected {sorted(params)}")
    for name, value in probe.items():
        x = parse_number(value)
        if not any(meets(("point", rational_point(x)), d) for d in domains[name]):
            raise Reject(f"the probe value of {name} is outside its domain")
        expr = substitute(expr, name, ("int", x.numerator) if x.denominator == 1
                          else ("rat", x.numerator, x.denominator))
    box = {}
    for name, given in regions.items():
        region = region_from(given)
        if not any(contained(region, d) for d in domains[name]):
            raise Reject(f"the region of {name} is not inside its declared range")
        box[name] = region
    return expr, box


def variable_powers(expr: Node) -> list[tuple[Node, Node]]:
    """The (base, exponent) of every power whose exponent holds a variable (x^θ)."""
    return [(n[1], n[2]) for n in walk(expr) if n[0] == "pow" and free_vars(n[2])]


def powers_defined(expr: Node, box: dict, prove_sign: Any) -> None:
    """Every x^θ of the expression is defined at every point of the box, or Reject.

    "Non-zero wherever defined" would say nothing at a point where x^θ is undefined, so each
    must be defined on the whole region: x > 0 (x^θ = e^(θ·log x)), or x = 0 with θ > 0, where
    x^θ = 0 as the activation reads it (Max(z, 0)^p at z ≤ 0 for p > 0). A base 0 with θ ≤ 0
    somewhere (0^0, 1/0), or a base of no proved sign, is refused. ``prove_sign(g, claim, box)``
    is the kernel's (passed in: the signs module is above this one)."""
    for base, exponent in variable_powers(expr):
        try:
            prove_sign(base, "pos", box)
            continue
        except Reject as positive:
            why = positive
        try:
            prove_sign(base, "zero", box)
        except Reject:
            raise why from None
        prove_sign(exponent, "pos", box)  # 0^θ = 0 needs θ > 0 on the whole region
