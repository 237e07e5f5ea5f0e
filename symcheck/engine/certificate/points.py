"""Exact numbers on the line → the kernel's points (docs/certificates.md, "Numbers on the line").

A rational is ``["int", n]`` or ``["rat", p, q]``, ±∞ is ``"inf"``/``"-inf"``, and any other
real algebraic number — a CRootOf, √2, 1 + √3 — is ``["root", [c0, c1, …], [lo, hi]]``: its
minimal polynomial with integer coefficients (lowest degree first) and a rational interval
holding exactly that one root. The interval is found here (SymPy's exact isolation, the root
chosen by a numerical value and confirmed by an exact count); the kernel counts again.

Also: the real roots of a rational polynomial inside a region, as points in increasing
order — the cut points the emitter splits at.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy
from flint import fmpq_poly

from symcheck.engine.certificate.tree import Unsupported, number
from symcheck.kernel.points import INF, NEG_INF, Point, count_closed, parse_point, squarefree
from symcheck.kernel.tree import to_json

__all__ = ["point_json", "region_json", "roots_inside", "kernel_point", "Unsupported"]

_X = sympy.Symbol("x")


def point_json(x: Any) -> Any:
    """The kernel's point for an exact real: rational, ±∞ or algebraic; Unsupported otherwise."""
    x = sympy.sympify(x)
    if x is sympy.oo:
        return INF
    if x is -sympy.oo:
        return NEG_INF
    if x.is_Rational:
        return to_json(number(x))
    if not x.is_number or x.is_real is False:
        raise Unsupported(f"{sympy.sstr(x)[:60]} is not a real number")
    try:
        poly = sympy.Poly(sympy.minimal_polynomial(x, _X), _X)
    except (NotImplementedError, ValueError, sympy.PolynomialError, sympy.polys.polyerrors.NotAlgebraic) as err:
        raise Unsupported(f"{sympy.sstr(x)[:60]} is not shown algebraic ({type(err).__name__})") from None
    coeffs = _integer_coefficients(poly)
    if len(coeffs) == 2:  # a rational after all
        return to_json(number(sympy.Rational(-coeffs[0], coeffs[1])))
    value = x.evalf(60)
    for lo, hi in _isolating(coeffs):
        if lo <= value <= hi:
            if not _one_root_inside(coeffs, lo, hi):
                raise Unsupported(f"the interval around {sympy.sstr(x)[:60]} does not isolate it")
            return ["root", coeffs, [to_json(number(lo)), to_json(number(hi))]]
    raise Unsupported(f"no isolating interval of its minimal polynomial holds {sympy.sstr(x)[:60]}")


def _integer_coefficients(poly: sympy.Poly) -> list[int]:
    """Lowest degree first, integers, content 1, positive leading coefficient."""
    _, primitive = poly.clear_denoms()
    primitive = primitive.primitive()[1]
    coeffs = [int(c) for c in reversed(primitive.all_coeffs())]
    if coeffs[-1] < 0:
        coeffs = [-c for c in coeffs]
    return coeffs


def _isolating(coeffs: list[int]) -> list[tuple[sympy.Rational, sympy.Rational]]:
    """Rational intervals each holding one real root of the squarefree part, in increasing order."""
    poly = sympy.Poly(list(reversed(coeffs)), _X)
    out = []
    for factor, _ in poly.sqf_list()[1]:
        out += [(sympy.Rational(lo), sympy.Rational(hi)) for (lo, hi), _ in factor.intervals()]
    return sorted(out)


def _one_root_inside(coeffs: list[int], lo: sympy.Rational, hi: sympy.Rational) -> bool:
    """Whether [lo, hi] holds exactly one root (an exact count, as the kernel will make).

    A minimal polynomial of degree ≥ 2 is irreducible, so SymPy's isolating intervals hold one
    root each and no rational end is a root: this is a check, not a search."""
    a, b = Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))
    return bool(count_closed(squarefree(fmpq_poly(coeffs)), a, b) == 1)


def kernel_point(obj: Any) -> Point | str:
    """The kernel's own reading of a point (re-counted, as the kernel will)."""
    return parse_point(obj)


def region_json(lower: Any, upper: Any) -> list:
    """``["point", p]`` when lower == upper, else ``["open", lower, upper]``."""
    if sympy.sympify(lower) == sympy.sympify(upper):
        return ["point", point_json(lower)]
    return ["open", point_json(lower), point_json(upper)]


def roots_inside(poly: fmpq_poly, lo: Point | str, hi: Point | str) -> list:
    """The distinct real roots of ``poly`` strictly between the kernel points lo < hi, as point
    JSON in increasing order (rational roots as rationals, the others with their irreducible
    factor and an isolating interval)."""
    from symcheck.kernel.points import compare
    if poly.degree() < 1:
        return []
    coeffs = [sympy.Rational(int(c.p), int(c.q)) for c in poly.coeffs()]
    sym = sympy.Poly(list(reversed(coeffs)), _X)
    found: list[tuple[Fraction, Any]] = []
    for factor, _ in sym.factor_list()[1]:
        ints = _integer_coefficients(factor)
        if len(ints) == 2:
            r = sympy.Rational(-ints[0], ints[1])
            found.append((Fraction(int(r.p), int(r.q)), to_json(number(r))))
            continue
        for (a, b), _ in sympy.Poly(list(reversed(ints)), _X).intervals():
            a, b = sympy.Rational(a), sympy.Rational(b)
            found.append((Fraction(int(a.p), int(a.q)), ["root", ints, [to_json(number(a)), to_json(number(b))]]))
    inside = []
    for _, obj in sorted(found, key=lambda t: t[0]):
        p = parse_point(obj)
        if (lo == NEG_INF or compare(lo, p) < 0) and (hi == INF or compare(p, hi) < 0):
            inside.append(obj)
    return _sorted_exactly(inside)


def _sorted_exactly(points: list) -> list:
    from functools import cmp_to_key

    from symcheck.kernel.points import compare
    return sorted(points, key=cmp_to_key(lambda x, y: compare(parse_point(x), parse_point(y))))
