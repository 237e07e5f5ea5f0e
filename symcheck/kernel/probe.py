"""The ``nonzero-region`` claim read: a statement's expression at a probe, over a region of its parameters.

A probe fixes every variable that is not a parameter (a, b, the scale) at an exact rational
inside its domain, or at a scaled value c·θ^k that moves with the parameters
(:func:`scaled_value`); the region gives each parameter one region inside its declared range. The
kernel substitutes the probe itself, so the proof is about the claim's own expression: if it
is non-zero at every parameter value of the region, each such value has the probe as a
counterexample of the statement (docs/certificates.md, "Parameters").
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcheck.kernel.points import INF, NEG_INF, compare, parse_number, rational_point
from symcheck.kernel.tree import Node, free_vars, parse_expr, show, substitute, walk
from symcheck.kernel.verdict import Reject

ZERO = "0"  #: a domain end exactly 0, as a key of scaled_value's table
ZERO_POINT = rational_point(Fraction(0))


def contained(inner: tuple, outer: tuple) -> bool:
    """Every point of the parsed region ``inner`` lies in ``outer`` (exact comparisons)."""
    if outer[0] == "point":
        return inner[0] == "point" and compare(inner[1], outer[1]) == 0
    if inner[0] == "point":
        return compare(outer[1], inner[1]) < 0 < compare(outer[2], inner[1])
    return compare(outer[1], inner[1]) <= 0 and compare(inner[2], outer[2]) <= 0


def probe_box(claim: dict, domains: dict[str, list], params: set, expr: Node, region_from: Any,
              meets: Any, prove_sign: Any = None) -> tuple[Node, dict]:
    """The expression with the probe substituted, and the box of parameter regions it is proved on.
    A probe value is an exact rational, or (given the kernel's ``prove_sign``) a scaled one,
    c·θ^k·…: see :func:`scaled_value`."""
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
    box = {}
    for name, given in regions.items():
        region = region_from(given)
        if not any(contained(region, d) for d in domains[name]):
            raise Reject(f"the region of {name} is not inside its declared range")
        box[name] = region
    for name, value in probe.items():
        if isinstance(value, list) and value and value[0] == "mul":
            if prove_sign is None:
                raise Reject(f"the probe value of {name} must be an exact rational here")
            expr = substitute(expr, name, scaled_value(value, name, domains[name], box, prove_sign))
            continue
        x = parse_number(value)
        if not any(meets(("point", rational_point(x)), d) for d in domains[name]):
            raise Reject(f"the probe value of {name} is outside its domain")
        expr = substitute(expr, name, ("int", x.numerator) if x.denominator == 1
                          else ("rat", x.numerator, x.denominator))
    return expr, box


#: the largest |k| of a parameter's power in a scaled probe value
MAX_SCALE_POWER = 4


def scaled_value(value: Any, name: str, domain: list, box: dict, prove_sign: Any) -> Node:
    """A probe value that moves with the parameters: ``["mul", c, θ-factor, …]``, c a non-zero
    rational, each θ-factor a parameter or its integer power (|k| ≤ MAX_SCALE_POWER, k ≠ 0).
    At every point of the box it must be one real number inside the variable's domain: θ ≠ 0
    proved on the box for a negative power, and the domain one open interval with ends −∞, 0, ∞
    (the whole line; or (0, ∞) / (−∞, 0) with the value's sign proved on the box). Then each
    parameter value θ has the point a(θ), b(θ), … as its counterexample: Snake's statement at
    a = 1/θ, b = 2/θ is free of θ but for a factor (it depends on θ·a and θ·b)."""
    node = parse_expr(value)
    c, *factors = node[1:]
    if c[0] not in ("int", "rat") or c == ("int", 0) or not factors:
        raise Reject(f"a scaled probe value of {name} is ['mul', c, θ, …] with a non-zero rational c")
    for f in factors:
        theta, k = (f[1], f[2]) if f[0] == "pow" else (f, ("int", 1))
        if theta[0] != "var" or theta[1] not in box or k[0] != "int" or not 0 < abs(k[1]) <= MAX_SCALE_POWER:
            raise Reject(f"a factor of the probe value of {name} is not a parameter's integer power "
                         f"(0 < |k| <= {MAX_SCALE_POWER}): {show(f, 60)}")
        if k[1] < 0:
            prove_sign(theta, "nonzero", box)  # θ^k defined on the whole box
    if len(domain) != 1 or domain[0][0] != "open":
        raise Reject(f"a scaled probe value needs {name}'s domain to be one open interval")
    wanted = {(NEG_INF, INF): None, (ZERO, INF): "pos", (NEG_INF, ZERO): "neg"}
    key = tuple(e if isinstance(e, str) else ZERO if compare(e, ZERO_POINT) == 0 else None for e in domain[0][1:])
    if key not in wanted:
        raise Reject(f"a scaled probe value needs {name}'s domain to end at −∞, 0 or ∞")
    if wanted[key] is not None:
        prove_sign(node, wanted[key], box)
    return node


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
