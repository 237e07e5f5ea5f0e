"""The numeric fallback for an ``inconclusive`` residual: search, then certify — or report evidence.

:func:`numeric_witness` samples the residual over wide ranges and at special points in
float64 (vectorised, :mod:`symcheck.exact.vectorize`); where float64 cannot resolve the value from
its own rounding (the terms cancel to within ~1e-12 of their size), it re-evaluates at high
precision with mpmath (:func:`symcheck.exact.evaluate.approximate`). Points are exact rationals
(short decimals) from the start, so a candidate is exactly the point that gets certified.

Candidates are ranked by |value|; the simplest few and then the largest few are sent to the
certifier. A candidate is only a candidate. It becomes a witness only through
:func:`symcheck.exact.evaluate.certify_nonzero` (exact or ball arithmetic, docs/theory.md §3); if no
candidate is certified the result carries no witness and reports what was tried — how many
points, at which precision, the largest residual seen — as evidence, never as a proof.

>>> import sympy
>>> z = sympy.Symbol("z", real=True)
>>> found = numeric_witness(z + z**3 / 10**15 - (1 + sympy.Rational(1, 10**15)) * z, [z])
>>> found.verdict.value, found.certificate is not None
('broken', True)
>>> numeric_witness(sympy.erf(z) + sympy.erfc(z) - 1, [z]).witness is None
True
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np
import sympy
from sympy import S
from sympy.core.relational import Relational

from symcheck.core.budget import Budget, BudgetExceeded, alarm
from symcheck.core.errors import EvaluationError
from symcheck.core.verdict import Verdict
from symcheck.exact.evaluate import Certificate, approximate, certify_nonzero
from symcheck.exact.regions import Region
from symcheck.exact.roots import roots_in

__all__ = ["numeric_witness", "Candidate", "Evidence", "Fallback", "domain_regions"]

#: float64 resolves a value when it exceeds this fraction of the size of the terms summed
RESOLVED = 1e-12
#: magnitudes sampled: 10**-6 … 10**6 (special points add up to 10**8)
WIDE = 6.0
_SPECIAL = ("0", "1", "2", "1/2", "3", "1/3", "1/10", "10", "5", "7/4", "100", "1000", "10000",
            "1/100", "1/1000", "100000", "1000000", "100000000", "1/1000000", "1/100000000")


@dataclass(frozen=True)
class Candidate:
    """A point where the residual looked non-zero, and how that value was obtained."""

    point: Mapping[sympy.Symbol, sympy.Rational]
    value: float          # |residual| (approximate) at the point
    precision: str        # "float64" or "mpmath, N digits"

    def describe(self) -> str:
        where = ", ".join(f"{s} = {v}" for s, v in self.point.items())
        return f"|r| ≈ {self.value:.3g} at {where} ({self.precision})"


@dataclass(frozen=True)
class Evidence:
    """What the search saw; numeric facts, never a proof."""

    points: int = 0                    # distinct points evaluated
    float64: int = 0                   # evaluated in float64 (vectorised)
    high_precision: int = 0            # (re-)evaluated with mpmath at ``digits`` digits
    digits: int = 0
    unresolved: int = 0                # float64 values lost in rounding and not resolved by mpmath
    largest: str = "0"                 # the largest |residual| seen (best precision available)
    largest_at: Mapping[str, str] | None = None
    certify_attempts: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "float64": self.float64,
                "high_precision": self.high_precision, "digits": self.digits,
                "unresolved": self.unresolved, "largest": self.largest,
                "largest_at": None if self.largest_at is None else dict(self.largest_at),
                "certify_attempts": self.certify_attempts}


@dataclass(frozen=True)
class Fallback:
    """The outcome: a certified witness (``broken``), or none and the evidence (``inconclusive``)."""

    witness: Mapping[sympy.Symbol, sympy.Rational] | None
    certificate: Certificate | None
    candidates: tuple[Candidate, ...]
    evidence: Evidence
    note: str = ""

    def __post_init__(self) -> None:
        if self.witness is not None:
            object.__setattr__(self, "witness", MappingProxyType(dict(self.witness)))

    @property
    def verdict(self) -> Verdict:
        return Verdict.BROKEN if self.witness is not None else Verdict.INCONCLUSIVE

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict.value,
                "witness": None if self.witness is None else {str(k): str(v) for k, v in self.witness.items()},
                "certificate": None if self.certificate is None else
                {"lower": self.certificate.lower, "upper": self.certificate.upper,
                 "exact": self.certificate.exact, "prec": self.certificate.prec},
                "candidates": [c.describe() for c in self.candidates[:5]],
                "evidence": self.evidence.to_dict(), "note": self.note}


# --------------------------------------------------------------------------- domains


_NAMED = {
    "real": (Region(-S.Infinity, S.Infinity),),
    "positive": (Region(S.Zero, S.Infinity),),
    "negative": (Region(-S.Infinity, S.Zero),),
    "nonzero": (Region(-S.Infinity, S.Zero), Region(S.Zero, S.Infinity)),
}
_NAMED["any"] = _NAMED["nonzero"]


def domain_regions(spec: Any) -> tuple[Region, ...]:
    """A variable's range: a :class:`Region`, several, a name (real, positive, negative,
    nonzero/any), or one exact number."""
    if spec is None:
        return _NAMED["real"]
    if isinstance(spec, Region):
        return (spec,)
    if isinstance(spec, str):
        if spec in _NAMED:
            return _NAMED[spec]
        spec = sympy.Rational(Fraction(spec))
    if isinstance(spec, (int, Fraction, sympy.Rational)) and not isinstance(spec, bool):
        q = sympy.Rational(spec)
        return (Region(q, q),)
    regions = tuple(spec)
    if not all(isinstance(r, Region) for r in regions):
        raise TypeError(f"a domain is a Region, regions, a name or a number, not {spec!r}")
    return regions


def _inside(q: Fraction, regions: Sequence[Region]) -> bool:
    for region in regions:
        if region.is_point:
            if region.lower == sympy.Rational(q.numerator, q.denominator):
                return True
            continue
        lo_ok = region.lower == -S.Infinity or sympy.Rational(q.numerator, q.denominator) > region.lower
        hi_ok = region.upper == S.Infinity or sympy.Rational(q.numerator, q.denominator) < region.upper
        if lo_ok and hi_ok:
            return True
    return False


def _short_decimal(x: float, digits: int = 3) -> Fraction:
    """A simple rational near x: x to ``digits`` significant decimal digits, exactly."""
    return Fraction(f"{x:.{digits}g}")


# --------------------------------------------------------------------------- sampling


def _breakpoints(expr: sympy.Expr, var: sympy.Symbol) -> list[Fraction]:
    """Where a branch may switch (``z > 1/2``, ``Max(z, 1 - z)``, ``sin(z) + cos(z) > 0``):
    the roots of each switching function on a bounded window and points just beside them,
    and, where those roots cannot be found, a grid fine enough to visit every branch there.
    These are only places to look: whatever is found there is certified before it counts."""
    switches = [rel.lhs - rel.rhs for rel in expr.atoms(Relational)]
    for node in expr.atoms(sympy.Abs, sympy.Heaviside, sympy.sign):
        switches.append(node.args[0])
    for node in expr.atoms(sympy.Max, sympy.Min):
        switches.extend(a - b for i, a in enumerate(node.args) for b in node.args[i + 1:])
    out: list[Fraction] = []
    grid = False
    for f in dict.fromkeys(switches):
        if f.free_symbols != {var}:
            continue
        if not f.is_polynomial(var):
            grid = True  # isolating transcendental roots costs more than a grid visiting them
            continue
        try:
            with alarm(ROOTS_SECONDS, _SlowRoots):  # proposals only: not worth an unbounded proof
                roots = roots_in(f, var, S(-_WINDOW), S(_WINDOW)).points
        except (Exception, _SlowRoots):  # a failure to find roots means "use the grid"
            grid = True
            continue
        for root in roots:
            c = _near(root)
            if c is None:
                continue
            exact = [c] if root.is_Rational else []
            out += exact + [c + d for d in _BESIDE] + [c - d for d in _BESIDE]
    if grid:
        out += [Fraction(k, 8) for k in range(-8 * _WINDOW, 8 * _WINDOW + 1)]
    return out


#: a bound on proving the switching points of one condition (a proof of the roots of a cubic
#: with a transcendental constant term can run for many minutes in exact zero proofs)
ROOTS_SECONDS = 2.0


class _SlowRoots(BaseException):
    """Raised when the switching points of one condition take longer than ROOTS_SECONDS."""


#: the window where switching points are sought, and the offsets of the points beside them
_WINDOW = 16
_BESIDE = (Fraction(1, 1000), Fraction(1, 10), Fraction(1, 3))


def _near(x: sympy.Expr) -> Fraction | None:
    """x itself when rational, else a short rational within about 1e-9 of it."""
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    try:
        return Fraction(str(sympy.Float(x.evalf(20), 20))).limit_denominator(10**9)
    except (TypeError, ValueError):
        return None


def _values(var: sympy.Symbol, regions: Sequence[Region], expr: sympy.Expr, count: int,
            rng: np.random.Generator) -> list[Fraction]:
    """Special points first (simplest first), then breakpoints, region samples, and wide random ones."""
    if len(regions) == 1 and regions[0].is_point:
        p = regions[0].lower
        return [Fraction(int(p.p), int(p.q))] if p.is_Rational else []
    special = [Fraction(s) for s in _SPECIAL]
    pool = [s * sign for s in special for sign in (1, -1)]
    pool += _breakpoints(expr, var)
    for region in regions:
        pool += [Fraction(int(q.p), int(q.q)) for q in region.samples(12)]
    magnitudes = 10.0 ** rng.uniform(-WIDE, WIDE, count)
    signs = rng.choice((-1.0, 1.0), count)
    pool += [_short_decimal(s * m) for s, m in zip(signs, magnitudes, strict=True)]
    return [q for q in dict.fromkeys(pool) if _inside(q, regions)]


def _points(variables: Sequence[sympy.Symbol], pools: Sequence[list[Fraction]], samples: int,
            rng: np.random.Generator) -> list[tuple[Fraction, ...]]:
    """Products of the simplest values, then random combinations, at most ``samples`` points."""
    if any(not pool for pool in pools):
        return []
    simple = [pool[: max(2, int(round((samples / 2) ** (1 / len(pools)))))] for pool in pools]
    points: dict[tuple[Fraction, ...], None] = {}
    for combo in _product(simple):
        points[combo] = None
        if len(points) >= samples // 2:
            break
    if len(pools) > 1:
        # one variable at each of its values (branch points among them), the others simple:
        # a statement that breaks in one variable's branch is found without luck
        bases = list(dict.fromkeys((tuple(pool[0] for pool in simple), tuple(pool[min(1, len(pool) - 1)]
                                                                               for pool in simple))))
        for i, pool in enumerate(pools):
            for value in pool[len(simple[i]):]:
                for base in bases:
                    if len(points) >= 3 * samples // 4:
                        break
                    points[(*base[:i], value, *base[i + 1:])] = None
    tries = 0
    while len(points) < samples and tries < 4 * samples:
        tries += 1
        points[tuple(pool[rng.integers(len(pool))] for pool in pools)] = None
    return list(points)


def _product(pools: Sequence[list[Fraction]]) -> Iterable[tuple[Fraction, ...]]:
    if not pools:
        yield ()
        return
    for head in pools[0]:
        for tail in _product(pools[1:]):
            yield (head, *tail)


# --------------------------------------------------------------------------- evaluation


def _float64(expr: sympy.Expr, variables: Sequence[sympy.Symbol], points: list[tuple[Fraction, ...]]):
    """(values, scales) in float64, or None if the expression cannot be vectorised.

    ``scales`` is the sum of the absolute values of the top-level terms: the size the
    rounding error of the sum is relative to."""
    from symcheck.exact.vectorize import vectorize
    try:
        # non-finite values go to mpmath below, a bounded number of them
        function = vectorize(expr, variables, rescue=False)
        terms = [vectorize(t, variables, rescue=False) for t in sympy.Add.make_args(expr)]
    except EvaluationError:
        return None
    columns = [np.array([float(p[i]) for p in points]) for i in range(len(variables))]
    with np.errstate(all="ignore"):
        try:
            values = function(*columns)
            scales = sum(np.abs(t(*columns)) for t in terms)
        except (EvaluationError, ValueError, TypeError):
            return None
    return np.abs(values), np.asarray(scales, dtype=float)


def numeric_witness(expr: sympy.Expr, variables: Sequence[sympy.Symbol],
                    domains: Mapping[sympy.Symbol, Any] | None = None, *, samples: int = 2000,
                    seed: int = 0, digits: int = 50, high_precision_points: int = 200,
                    certify: int = 8, max_prec: int = 2048, budget: Budget | None = None) -> Fallback:
    """Search ``expr`` (a residual in ``variables``) for a certified non-zero point.

    ``domains`` maps a variable to its range (see :func:`domain_regions`; default: all of R).
    Returns the certified witness and its certificate if one is found, with the ranked
    candidates and the evidence; otherwise no witness, and the evidence. ``budget`` bounds
    the certification (running out keeps the result inconclusive).
    """
    expr = sympy.sympify(expr)
    variables = list(variables)
    missing = expr.free_symbols - set(variables)
    if missing:
        raise EvaluationError(f"no domain for {', '.join(sorted(map(str, missing)))}")
    domains = domains or {}
    rng = np.random.default_rng(seed)
    pools = [_values(v, domain_regions(domains.get(v)), expr, max(samples // 2, 16), rng) for v in variables]
    points = _points(variables, pools, samples, rng)
    if not points:
        return Fallback(None, None, (), Evidence(), "no rational point lies in the domains")

    ranked: list[tuple[float, tuple[Fraction, ...], str]] = []
    largest: tuple[float, tuple[Fraction, ...] | None] = (0.0, None)
    unresolved_points: list[tuple[Fraction, ...]] = []
    evaluated = _float64(expr, variables, points)
    if evaluated is None:          # e.g. an opaque function: every point goes to mpmath
        unresolved_points = points[:high_precision_points]
        float_count = 0
    else:
        values, scales = evaluated
        float_count = len(points)
        for point, v, scale in zip(points, values, scales, strict=True):
            finite = math.isfinite(v) and math.isfinite(scale)
            if finite and v > RESOLVED * scale and v > 0:
                ranked.append((float(v), point, "float64"))
                largest = max(largest, (float(v), point), key=lambda t: t[0])
            else:
                unresolved_points.append(point)

    high = 0
    still = 0
    for point in unresolved_points[:high_precision_points]:
        values = dict(zip(variables, point, strict=True))
        try:
            value = abs(approximate(expr, values, dps=digits))
            scale = sum(abs(approximate(t, values, dps=15)) for t in sympy.Add.make_args(expr))
        except EvaluationError:
            continue
        high += 1
        v = float(value) if value < 1e300 else math.inf
        if value > 10 ** (10 - digits) * max(scale, 10 ** -digits) and v > 0:
            ranked.append((v, point, f"mpmath, {digits} digits"))
        else:
            still += 1
        largest = max(largest, (v, point), key=lambda t: t[0])
    still += max(0, len(unresolved_points) - high_precision_points)

    ranked.sort(key=lambda t: (-t[0], sum(abs(q.numerator) + q.denominator for q in t[1])))
    candidates = tuple(Candidate({v: sympy.Rational(q.numerator, q.denominator)
                                  for v, q in zip(variables, p, strict=True)}, value, precision)
                       for value, p, precision in ranked)
    simplest = sorted(candidates, key=lambda c: sum(abs(q.p) + q.q for q in c.point.values()))
    # the simplest candidates first (the witness is what a user reads), then the largest values
    order = _unique([*simplest[:certify], *candidates[:certify]])
    attempts, note, witness, certificate = 0, "", None, None
    for candidate in order:
        attempts += 1
        try:
            if budget is not None:
                with budget.step():
                    certificate = certify_nonzero(expr, candidate.point, max_prec=max_prec)
            else:
                certificate = certify_nonzero(expr, candidate.point, max_prec=max_prec)
        except BudgetExceeded:
            note = "the time budget ran out while certifying candidates"
            certificate = None
            break
        if certificate is not None:
            witness = dict(candidate.point)
            break
    evidence = Evidence(
        points=len(points) if evaluated is not None else high, float64=float_count,
        high_precision=high, digits=digits if high else 0, unresolved=still,
        largest=f"{largest[0]:.3g}",
        largest_at=None if largest[1] is None else {str(v): str(q) for v, q in zip(variables, largest[1], strict=True)},
        certify_attempts=attempts)
    if witness is None and not note:
        note = (f"no candidate was certified non-zero ({attempts} tried)" if candidates else
                "no point showed a residual distinguishable from rounding: numeric evidence "
                "that it may be identically 0, not a proof")
    return Fallback(witness, certificate, candidates, evidence, note)


def _unique(candidates: Sequence[Candidate]) -> list[Candidate]:
    seen, out = set(), []
    for c in candidates:
        key = tuple(c.point.items())
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
