"""The partition of a parameter range as one condition per verdict, in the user's names.

Pieces come in order along the range (one parameter) or as boxes (several). The pieces of one
verdict are merged structurally — an open interval, its end point and the next interval when
all three share the verdict — never by SymPy comparing numbers; when every other piece is a
point, the region is written as the range minus those points (``Ne(beta, 0)``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy
from sympy import S

from symcheck.core.verdict import Verdict
from symcheck.engine.family_result import RegionVerdict
from symcheck.exact.regions import Region
from symcheck.language.params import Parameters

__all__ = ["interval_condition", "merged"]

_ORDER = (Verdict.HOLDS, Verdict.BROKEN, Verdict.INCONCLUSIVE)


def interval_condition(v: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr, lo_closed: bool,
                       hi_closed: bool) -> sympy.Basic:
    """lo (<|<=) v (<|<=) hi, infinite ends left out; a one-point interval is Eq(v, lo)."""
    if lo == hi:
        return sympy.Eq(v, lo, evaluate=False)
    parts = []
    if lo != -S.Infinity:
        parts.append(sympy.GreaterThan(v, lo) if lo_closed else sympy.StrictGreaterThan(v, lo))
    if hi != S.Infinity:
        parts.append(sympy.LessThan(v, hi) if hi_closed else sympy.StrictLessThan(v, hi))
    return sympy.And(*parts) if parts else sympy.true


def _components(regions: Sequence[Region]) -> list[tuple[Any, Any, bool, bool]]:
    """Consecutive pieces (in order along the line) joined where they touch: (lo, hi, closed ends)."""
    out: list[list] = []
    for r in regions:
        if out and out[-1][1] == r.lower and (out[-1][3] or r.is_point):
            # an interval closed at its end continues into the next interval; a point closes it
            last = out[-1]
            last[1] = r.upper
            last[3] = r.is_point
            continue
        out.append([r.lower, r.upper, r.is_point, r.is_point])
    return [tuple(c) for c in out]


def _line_condition(v: sympy.Symbol, mine: list[Region], others: list[Region], declared: sympy.Basic) -> sympy.Basic:
    if others and all(r.is_point for r in others) and len(mine) > 1:
        return sympy.And(declared, *(sympy.Ne(v, r.lower) for r in others))
    return sympy.Or(*(interval_condition(v, *c) for c in _components(mine)))


def merged(pieces: Sequence[Any], params: Parameters) -> list[RegionVerdict]:
    """One :class:`RegionVerdict` per verdict present, pieces of a verdict merged."""
    out = []
    for verdict in _ORDER:
        mine = [p for p in pieces if p.verdict is verdict]
        if not mine:
            continue
        how = tuple(dict.fromkeys(p.how for p in mine if p.how))
        if len(params) == 1:
            spec = params.specs[0]
            regs = [p.regions[spec.symbol] for p in mine]
            rest = [p.regions[spec.symbol] for p in pieces if p.verdict is not verdict]
            condition = _line_condition(spec.shown, regs, rest, spec.condition())
        else:
            condition = sympy.Or(*(sympy.And(*(interval_condition(params.by_symbol(s).shown, r.lower, r.upper,
                                                                  r.is_point, r.is_point)
                                               for s, r in p.regions.items())) for p in mine))
        certificates = tuple(p.certificate for p in mine
                             if p.certificate is not None and verdict is not Verdict.INCONCLUSIVE)
        out.append(RegionVerdict(condition, verdict, how, certificates))
    return out
