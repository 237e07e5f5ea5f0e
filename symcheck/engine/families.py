"""Decide a symmetry for a whole activation family: for every parameter value in its range.

The verdict is that of the statement quantified over the declared range:

* ``holds`` — the kernel accepted one certificate of the statement with every parameter a
  variable over its declared range (:mod:`symcheck.engine.certificate.family`), after the
  guard found no broken value among sampled rational parameter values;
* ``broken`` — a certified witness at rational parameter values inside the range (the kernel
  re-checks that they lie in it), the statement's left − right non-zero there;
* ``inconclusive`` otherwise.

The **regions** partition the range. A *probe* fixes a, b (and the scale) at rationals: what
is left, g(θ) = left − right, is a function of the parameter alone. On an open interval, the
cut points of g (its roots, proved complete by :func:`~symcheck.exact.roots.roots_in`, or its
exact rational zeros with a certified sign of g proved on every interval between them by
:func:`~symcheck.exact.definite.prove_nonzero`, or, where the engine signs no interval between
them, its exact rational zeros only proposed; the rational values where a coefficient of σ
vanishes, Swish-β's β = 0, are candidates too) leave open pieces where g ≠ 0 at every value:
**broken** for every value there once the kernel accepts a ``nonzero-region`` certificate of
it (:func:`certify_family_region`;
several probes may share a region cut at rationals, :func:`_sweep`), else inconclusive. The
probe with the fewest cuts is tried first. A cut point is decided as an ordinary σ (the family
at that value: holds, broken or inconclusive, each kernel-checked). A region the rational
probes leave undecided may still be broken by a *scaled* probe, a = u/θ, b = v/θ (σ of θ·z:
Snake, softplus-β), its statement free of θ but for a power of it. An interval no probe cuts is
**holds** by a kernel certificate over it, or, broken at a sampled value, offered whole to the
kernel as broken. With several parameters the pieces are boxes, one region of each parameter's
range, decided the same way, or cut along one parameter with the others whole (a cover, as
for one parameter: SELU's (λ, α) under α = −1). Every region reported holds or broken carries the
certificates behind it (:attr:`RegionVerdict.certificates`).
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy import S

from symcheck.core.budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError
from symcheck.core.verdict import Verdict
from symcheck.engine.certificate.family import (
    certify_family_cover,
    certify_family_region,
    certify_family_statement,
    certify_family_witness,
)
from symcheck.engine.family_result import FamilyResult, RegionVerdict, statement_values
from symcheck.engine.kernel_gate import Admission, admit
from symcheck.exact.definite import Want, prove_nonzero, prove_sign
from symcheck.exact.evaluate import certify_nonzero
from symcheck.exact.ranges import Range
from symcheck.exact.regions import Region
from symcheck.exact.roots import roots_in
from symcheck.exact.signs import (
    EXACT_SIGN_BITS,
    Undecided,
    at_values,
    certified_order,
    exact_sign,
)
from symcheck.language.activations import Activation
from symcheck.language.family import FamilyActivation
from symcheck.language.params import ParamSpec
from symcheck.language.symbols import SIGMA, A, B, Z, substitute_sigma
from symcheck.language.transformations import Transformation
from symcheck.language.unit_forms import Form

__all__ = ["PROBES", "check_family"]

#: the (a, b) values of the probes, simplest first
PROBES = tuple((sympy.Rational(a), sympy.Rational(b)) for a, b in
               (("2", "1"), ("-1", "1"), ("-2", "-1"), ("1/2", "1"), ("3", "-1"), ("-1/2", "2"), ("1", "2")))
#: scale values tried for each domain (a fixed value is used as it is)
SCALES = {"positive": ("2", "1/2", "3"), "negative": ("-1", "-2", "-1/2"), "any": ("2", "-1", "-2")}
#: simple rationals tried as exact zeros of a probe that has no proved root set
ZERO_CANDIDATES = tuple(sympy.Rational(q) for q in ("0", "1", "-1", "2", "1/2", "-2", "-1/2", "3", "1/3"))
#: rational parameter values sampled per region by the guard before a family ``holds``
GUARD_VALUES = 3
#: how much of the check's budget one ordinary check at a parameter value may take
POINT_SHARE = 0.25
#: probes tried for the kernel certificate of one broken region, and the seconds each may take
REGION_PROBES = 3
REGION_SECONDS = 3.0
#: probes with a proved cut set tried per region, fewest cuts first
CUT_PROBES = 3
#: the argument of a cut set that is only proposed (the kernel decides each piece between its points)
PROPOSED = "its exact rational zeros, with no other zero proved by the engine; the kernel decides each piece"
#: pieces of one sweep of probes over a region (see _sweep)
MAX_SEGMENTS = 8
_BRANCHY = (sympy.Piecewise, sympy.Max, sympy.Min, sympy.Abs, sympy.sign, sympy.Heaviside,
            sympy.floor, sympy.ceiling, sympy.frac, sympy.Mod)


@dataclass
class _Piece:
    """One piece of the partition: a region of each parameter, its verdict and what backs it."""

    regions: dict[sympy.Symbol, Region]
    verdict: Verdict = Verdict.INCONCLUSIVE
    how: str = ""
    witness: dict[str, sympy.Rational] | None = None
    certificate: dict | None = field(default=None, repr=False)
    #: a broken piece's probe: a, b and the scale (by name) where left − right ≠ 0 on the whole piece
    probe: dict[str, sympy.Rational] | None = None
    checked: bool = False  #: a broken piece whose region certificate the kernel accepted


def check_family(family: FamilyActivation, t: Transformation, unit: Form, *,
                 ordinary: Callable[..., Any], timeout: float = DEFAULT_TIMEOUT) -> FamilyResult:
    """``ordinary(σ, t, unit, timeout=…)`` decides the family at one parameter value (the caller
    passes :func:`symcheck.engine.symmetries.check`, which dispatches here: no import circle)."""
    started = time.perf_counter()
    budget = Budget(timeout)
    job = _Family(family, t, unit, budget, ordinary)
    try:
        pieces = job.pieces()
    except BudgetExceeded:
        pieces = [_Piece(dict(zip(job.symbols, combo, strict=True)), how="the time budget ran out")
                  for combo in itertools.product(*(p.regions for p in family.params))]
    verdict, witness, admission, note = job.overall(pieces)
    return FamilyResult(family=family, transformation=t, form=unit, verdict=verdict,
                        witness=witness, regions=tuple(job.region_verdicts(pieces)), kernel=admission,
                        note=note, elapsed=time.perf_counter() - started)


class _Family:
    def __init__(self, family: FamilyActivation, t: Transformation, unit: Form, budget: Budget,
                 ordinary: Callable[..., Any]) -> None:
        self.family, self.t, self.unit, self.budget, self.ordinary = family, t, unit, budget, ordinary
        self.params = family.params
        self.symbols = [p.symbol for p in self.params]
        self.names = {p.symbol: p.name for p in self.params}
        sigma = Activation(family.name, family.expr, family.name)
        lhs, rhs = t.statement(unit, SIGMA)
        self.difference = substitute_sigma(lhs - rhs, sigma)
        self._probes: list[tuple[dict, sympy.Expr]] | None = None
        self._degenerate_cache: dict[sympy.Symbol, set[sympy.Rational]] = {}

    # ------------------------------------------------------------------ probes

    def probes(self) -> list[tuple[dict, sympy.Expr]]:
        """(values of a, b and the scale, g = left − right there as a function of the parameters)."""
        if self._probes is None:
            scales: list = [None]
            if self.t.domain is not None:
                d = self.t.domain
                scales = [d.value] if d.value is not None else [sympy.Rational(s) for s in SCALES[d.name]]
            out = []
            for (a, b), scale in itertools.product(PROBES, scales):
                values = {A: a, B: b} | ({self.t.scale: scale} if scale is not None else {})
                try:
                    g = at_values(self.difference, values)
                except (Undecided, EvaluationError, TypeError, ValueError):
                    continue
                if g != 0 and (g.free_symbols - set(self.symbols)) == set():
                    out.append((values, g))
            self._probes = out
        return self._probes

    def _probe_text(self, values: Mapping) -> str:
        """The probe's a, b and scale for a region's text, told apart from the user's names."""
        shown = {k: x if sympy.sympify(x).is_Rational else sympy.sstr(self.params.shown(sympy.sympify(x)))
                 for k, x in values.items()}  # a scaled probe (1/θ) in the user's name
        return statement_values(shown, self.params.names)

    # ------------------------------------------------------------------ the partition

    def pieces(self) -> list[_Piece]:
        if len(self.params) == 1:
            spec = self.params.specs[0]
            out: list[_Piece] = []
            for region in spec.regions:
                out.extend(self._line(spec, region))
        else:
            out = [self._box(dict(zip(self.symbols, combo, strict=True)))
                   for combo in itertools.product(*(p.regions for p in self.params))]
        return [self._certified(piece) for piece in out]

    def _certified(self, piece: _Piece) -> _Piece:
        """A broken piece is reported only with a kernel certificate that its probe (or another)
        is non-zero at every parameter value of it; else it is inconclusive (its witness kept)."""
        if piece.verdict is not Verdict.BROKEN or piece.checked:
            return piece
        probes = [piece.probe] if piece.probe else []
        probes += [{str(v): x for v, x in values.items()} for values, _ in self.probes()]
        probes = list({tuple(sorted(p.items())): p for p in probes}.values())[:REGION_PROBES]
        where = " and ".join(self.params.by_symbol(s).text for s in piece.regions)
        admission = None
        deadline = time.perf_counter() + 2 * REGION_SECONDS  # all probes together
        for probe in probes:
            seconds = min(REGION_SECONDS, deadline - time.perf_counter(), self.budget.remaining())
            if seconds <= 0.2:
                break
            outcome = certify_family_region(self.family.expr, self.t, self.unit,
                                            {p.symbol: p.regions for p in self.params}, self.names, probe,
                                            piece.regions, about=f"{self.t.describe()}, σ = {self.family.name}, "
                                            f"{where}: broken on a region", seconds=seconds)
            admission = admit(outcome)
            if admission.certificate is not None:  # accepted
                return _Piece(piece.regions, Verdict.BROKEN, piece.how, piece.witness, admission.certificate.data,
                              probe, checked=True)
        if all(r.is_point for r in piece.regions.values()) and "the ordinary check" not in piece.how:
            # one parameter value: σ at it, decided (and kernel-checked) as an ordinary σ
            ordinary = self._ordinary({s: r.lower for s, r in piece.regions.items()}, piece.regions)
            if ordinary.verdict is Verdict.BROKEN:
                ordinary.checked = True
                return ordinary
        reason = admission.reason if admission is not None else "no probe"
        return _Piece(piece.regions, how=f"{piece.how}; not proved broken for every value of the region "
                      f"(the kernel: {reason[:200]})", witness=piece.witness)

    def _line(self, spec: ParamSpec, region: Region) -> list[_Piece]:
        """One region of a single parameter: cut where a probe may vanish, each piece decided."""
        p = spec.symbol
        if region.is_point:
            return [self._at_point({p: region.lower})]
        best: list[_Piece] | None = None
        candidates: list = []
        for values, g, (points, argument) in self._cut_probes(p, region):
            out = []
            ends = [region.lower, *points, region.upper]
            for lo, hi in itertools.pairwise(ends):
                out.append(self._certified(self._broken_interval({p: Region(lo, hi)}, values, g, argument)))
                if hi is not region.upper:
                    out.append(self._certified(self._at_point({p: hi})))
            if _undecided(out) == (0, 0):
                return out
            if best is None or _undecided(out) < _undecided(best):
                best = out
            candidates.append((values, list(points)))
        if best is not None and len(candidates) > 1:
            covered = self._covered(p, {p: region}, candidates)
            if covered is not None:
                return [covered]
        if best is None or _undecided(best) != (0, 0):
            scaled = self._scaled(p, region)
            if scaled is not None:
                return [scaled]
        return best if best is not None else [self._undivided({p: region})]

    def _scaled(self, p: sympy.Symbol, region: Region) -> _Piece | None:
        """The region broken by one probe that moves with the parameter: a = u/θ, b = v/θ for the
        (u, v, scale) of a rational probe. A σ of θ·z (Snake: z + sin²(θz)/θ) has its statement
        there free of θ but for a power of it, where every rational probe vanishes at infinitely
        many θ (θa and θb multiples of π). The kernel checks θ ≠ 0 on the region."""
        try:
            if not (certified_order(region.lower, S.Zero) >= 0 or certified_order(region.upper, S.Zero) <= 0):
                return None
        except Undecided:
            return None
        tries = REGION_PROBES  # kernel attempts: each may take 2·REGION_SECONDS
        for values, _ in self.probes():
            scaled = {k: x / p if k in (A, B) else x for k, x in values.items()}
            # θ gathered into one power (a proposal for the cut search; the kernel decides the piece)
            g = sympy.factor_terms(sympy.together(self.difference.xreplace(scaled)))
            cuts = self._cuts(g, p, region)
            if cuts is None or cuts[0]:
                continue
            piece = self._certified(self._broken_interval({p: region}, scaled, g, cuts[1]))
            if piece.verdict is Verdict.BROKEN:
                return piece
            tries -= 1
            if not tries:
                break
        return None

    def _covered(self, p: sympy.Symbol, box: dict[sympy.Symbol, Region], candidates: list) -> _Piece | None:
        """The open region cut at rationals into pieces each free of one probe's zeros (every
        probe vanishes somewhere in it, maybe at a transcendental value no certificate states):
        sweeping up from the lower end, the probe whose next zero is furthest away runs until a
        rational q just before that zero, from where another probe with no zero in [q, that zero]
        takes over. One kernel certificate for the whole region, or None. In a box of several
        parameters, p's region is cut and the others' are whole (their samples in the witness)."""
        region = box[p]
        try:
            segments = _sweep(region, [({str(v): x for v, x in values.items()}, cuts) for values, cuts in candidates])
        except Undecided:
            return None
        if segments is None:
            return None
        seconds = min(2 * REGION_SECONDS, max(0.5, self.budget.remaining()))
        outcome = certify_family_cover(self.family.expr, self.t, self.unit, {q.symbol: q.regions for q in self.params},
                                       self.names, segments, box, seconds=seconds, along=p,
                                       about=f"{self.t.describe()}, σ = {self.family.name}: broken on a region")
        admission = admit(outcome)
        if admission.certificate is None:  # not accepted
            return None
        probe, first = segments[0]
        others = {s.name: r.lower if r.is_point else simplest_rational(r) for s, r in box.items() if s != p}
        witness = {**probe, **others, p.name: simplest_rational(first)}
        user = self.params.by_symbol(p).shown
        shown = "; ".join(f"{self._probe_text(probe)} on {sympy.sstr(r.condition(user))}"
                          for probe, r in segments if not r.is_point)
        return _Piece(dict(box), Verdict.BROKEN, f"left − right is non-zero on each piece of a cut at rationals, "
                      f"each piece with its own a, b ({shown})", witness, admission.certificate.data,
                      probe, checked=True)

    def _cut_probes(self, p: sympy.Symbol, region: Region, others: Mapping | None = None):
        """Probes with a proved cut set of the open region, fewest cut points first (a probe
        that never vanishes there first of all: its region certificate has no cut to state,
        where a transcendental cut cannot be stated at all), at most CUT_PROBES of them; the
        other parameters at the values ``others`` (a proposal: the kernel proves the box)."""
        found = []
        for values, g in self.probes():
            if others:
                try:
                    g = at_values(g, dict(others))
                except (Undecided, EvaluationError, TypeError, ValueError):
                    continue
            cuts = self._cuts(g, p, region)
            if cuts is None or not self._nonzero_between(g, p, [region.lower, *cuts[0], region.upper]):
                continue  # no cut set, or one the statement contradicts at a sample: next probe
            cuts = ([_plain(x) for x in cuts[0]], cuts[1])
            found.append((values, g, cuts))
            if not cuts[0] or len(found) == CUT_PROBES:
                break
        return sorted(found, key=lambda item: (item[2][1] == PROPOSED, len(item[2][0])))

    def _cuts(self, g: sympy.Expr, p: sympy.Symbol, region: Region) -> tuple[list, str] | None:
        """Points containing every zero of g in the open region, with g ≠ 0 between them proved."""
        lo, hi = region.lower, region.upper
        g = _prepared(g, {p: Range(lo, hi)})
        if p not in g.free_symbols:
            try:
                return ([], "it is a non-zero constant") if exact_sign(g) != 0 else None
            except Undecided:
                return None
        if not g.has(*_BRANCHY):
            try:
                found = roots_in(g, p, lo, hi)
                return list(found.points), found.argument
            except Exception:  # noqa: BLE001 -- Undecided, or SymPy failing inside the search: no cut set
                found = None
        candidates = set(ZERO_CANDIDATES) | self._degenerate(p)
        zeros = sorted(q for q in candidates if _inside(q, region) and _exactly_zero(g, p, q))
        ends = [lo, *zeros, hi]
        for a, b in itertools.pairwise(ends):
            if prove_nonzero(g, {p: Range(a, b)}) is None:
                if zeros:
                    # a proposal only: the kernel decides each piece between the exact zeros (a
                    # piece it does not accept is inconclusive), so completeness is not needed.
                    # Swish-β's gap vanishes at β = 0 (σ = z/2) and the engine signs neither side.
                    return zeros, PROPOSED
                return None
        return zeros, "its sign is certified on each interval between its exact rational zeros"

    def _degenerate(self, p: sympy.Symbol) -> set[sympy.Rational]:
        """Rational values of p where the family degenerates: a coefficient of a power of z, in
        some part of σ, vanishes (β·z in sigmoid(β·z): σ is z/2 at β = 0; z + (β − 3/4)·z²).
        Only candidates: a cut needs g exactly 0 there (_exactly_zero) and the kernel the rest."""
        if p not in self._degenerate_cache:
            found: set[sympy.Rational] = set()
            for node in sympy.preorder_traversal(self.family.expr):
                found |= _vanishing_coefficients(node, p)
            self._degenerate_cache[p] = found
        return self._degenerate_cache[p]

    def _nonzero_between(self, g: sympy.Expr, p: sympy.Symbol, ends: list) -> bool:
        """g is certified non-zero at a rational inside each interval between the cuts."""
        for lo, hi in itertools.pairwise(ends):
            try:
                q = simplest_rational(Region(lo, hi))
                if certify_nonzero(g, {p: q}, max_prec=EXACT_SIGN_BITS) is None:
                    return False
            except (Undecided, EvaluationError):
                return False
        return True

    def _broken_interval(self, regions: dict, values: dict, g: sympy.Expr, argument: str) -> _Piece:
        """g ≠ 0 on the whole piece (proved by the caller): broken at every value. The witness
        at a rational value inside is certified on the statement itself."""
        (p, region), = regions.items()
        try:
            q = simplest_rational(region)
        except Undecided:
            return _Piece(regions, how="no rational value found inside")
        point = {**{k: sympy.sympify(x).xreplace({p: q}) for k, x in values.items()}, p: q}  # a scaled probe at q
        if certify_nonzero(self.difference, point, max_prec=EXACT_SIGN_BITS) is None:
            return _Piece(regions, how="the probe is not certified non-zero at a sample value")
        return _Piece(regions, Verdict.BROKEN, f"at {self._probe_text(values)}, left − right as a function of "
                      f"{self.names[p]} has no zero here ({argument})",
                      {str(v): x for v, x in point.items()}, probe={str(v): x for v, x in values.items()})

    def _box(self, regions: dict[sympy.Symbol, Region]) -> _Piece:
        if all(r.is_point for r in regions.values()):
            return self._at_point({s: r.lower for s, r in regions.items()})
        ranges = {s: Range.point(r.lower) if r.is_point else Range(r.lower, r.upper) for s, r in regions.items()}
        for values, g in self.probes():
            g = _prepared(g, ranges)
            if g.free_symbols <= set(ranges) and prove_nonzero(g, ranges) is not None:
                try:
                    point = {s: r.lower if r.is_point else simplest_rational(r) for s, r in regions.items()}
                except Undecided:
                    continue
                full = {**values, **point}
                if certify_nonzero(self.difference, full, max_prec=EXACT_SIGN_BITS) is not None:
                    return _Piece(regions, Verdict.BROKEN, f"at {self._probe_text(values)}, left − right has a "
                                  "certified sign over the whole box", {str(v): x for v, x in full.items()},
                                  probe={str(v): x for v, x in values.items()})
        return self._box_cover(regions) or self._undivided(regions)

    def _box_cover(self, regions: dict[sympy.Symbol, Region]) -> _Piece | None:
        """A box no one probe settles, cut along one parameter as a single region is (_covered),
        each probe's zeros found with the other parameters at a sample (SELU under α = −1: at
        a = 2, b = 1 the gap is λ·(α·(1 − e^(−2)) − 2), its zero in α the same for every λ)."""
        for p, region in regions.items():
            if region.is_point:
                continue
            try:
                others = {s: r.lower if r.is_point else simplest_rational(r) for s, r in regions.items() if s != p}
            except Undecided:
                return None
            candidates = [(values, list(points)) for values, _, (points, _) in self._cut_probes(p, region, others)]
            if len(candidates) > 1 and any(points for _, points in candidates):
                covered = self._covered(p, regions, candidates)
                if covered is not None:
                    return covered
        return None

    def _at_point(self, values: dict[sympy.Symbol, sympy.Expr]) -> _Piece:
        """One parameter value: a probe certified non-zero there, or the ordinary check of σ at it."""
        regions = {s: Region(v, v) for s, v in values.items()}
        for probe, g in self.probes():
            try:
                if exact_sign(at_values(g, values)) != 0:
                    witness = {str(v): x for v, x in {**probe, **values}.items()}
                    rational = all(v.is_Rational for v in values.values())
                    return _Piece(regions, Verdict.BROKEN, "left − right is certified non-zero at "
                                  + self._probe_text(probe),
                                  witness if rational else None, probe={str(v): x for v, x in probe.items()})
            except (Undecided, EvaluationError, TypeError, ValueError):
                continue
        return self._ordinary(values, regions)

    def _ordinary(self, values: dict, regions: dict) -> _Piece:
        from symcheck.language.parsing import substitute
        try:
            expr = substitute(self.family.expr, values, self.family.name)
        except Exception as err:  # noqa: BLE001 -- a value the safe constructors refuse: undecided here
            return _Piece(regions, how=f"σ at this value could not be built ({type(err).__name__})")
        where = ", ".join(f"{self.names[s]} = {v}" for s, v in values.items())
        sigma = Activation(f"{self.family.name} at {where}", expr, self.family.name)
        seconds = max(1.0, POINT_SHARE * self.budget.remaining())
        result = self.ordinary(sigma, self.t, self.unit, timeout=seconds)
        witness = probe = None
        if result.verdict is Verdict.BROKEN:
            probe = dict(result.witness or {}) or None
            if all(v.is_Rational for v in values.values()):
                witness = {**dict(result.witness or {}), **{s.name: v for s, v in values.items()}}
        return _Piece(regions, result.verdict, f"σ at {where} = {sympy.sstr(self.params.shown(expr))}: "
                      f"the ordinary check ({result.note or 'kernel-checked'})", witness,
                      result.certificate, probe)

    def _undivided(self, regions: dict[sympy.Symbol, Region]) -> _Piece:
        """No probe cuts it: holds by a kernel certificate over the whole piece (after the
        guard), or inconclusive (broken at a sampled value is recorded as the witness)."""
        found = self._guard(regions)
        if found is not None:
            # no probe's zeros were found by the engine; the kernel may still prove one non-zero
            # on the whole piece (a gap that decays at infinity, signed factor by factor)
            return self._certified(_Piece(regions, Verdict.BROKEN, f"broken at a sampled value ({found.how})",
                                          found.witness, probe=found.probe))
        outcome = self._certify({s: (r,) for s, r in regions.items()})
        if outcome.accepted:
            return _Piece(regions, Verdict.HOLDS, "the kernel accepted the statement with the parameter "
                          "as a variable over this region", certificate=outcome.data)
        return _Piece(regions, how=f"no proof: {outcome}")

    def _guard(self, regions: dict[sympy.Symbol, Region]) -> _Piece | None:
        """Sampled rational values of the piece, each decided as an ordinary σ: a broken one."""
        samples = [r.samples(GUARD_VALUES) if not r.is_point else [r.lower] for r in regions.values()]
        for combo in itertools.islice(itertools.product(*samples), GUARD_VALUES):
            piece = self._at_point(dict(zip(regions, combo, strict=True)))
            if piece.verdict is Verdict.BROKEN and piece.witness is not None:
                return piece
        return None

    # ------------------------------------------------------------------ certificates

    def _certify(self, ranges: Mapping[sympy.Symbol, tuple[Region, ...]]):
        from symcheck.engine.certificate.emit import Rejection
        why = self._kernel_power_gap(ranges)
        if why:
            return Rejection(why)
        about = f"{self.t.describe()}, {self.unit.name} form, σ = {self.family.name}, " + \
            " and ".join(self.params.by_symbol(s).text for s in ranges)
        seconds = max(1.0, self.budget.remaining())
        return certify_family_statement(self.family.expr, self.t, self.unit, ranges, self.names,
                                        about=about, seconds=seconds)

    def _kernel_power_gap(self, ranges: Mapping[sympy.Symbol, tuple[Region, ...]]) -> str:
        """The kernel's x^θ (θ not a number) is defined only for x > 0; σ defined at x = 0 by
        0^θ = 0 would leave those points out of its claim. Such a base must be proved positive."""
        for power in self.family.expr.atoms(sympy.Pow):
            if power.exp.is_number:
                continue
            box = {Z: Range(-S.Infinity, S.Infinity)}
            for s, regions in ranges.items():
                if len(regions) != 1:
                    return "a power with a parameter exponent over several regions"
                r = regions[0]
                box[s] = Range.point(r.lower) if r.is_point else Range(r.lower, r.upper)
            if not power.base.free_symbols <= set(box) or prove_sign(power.base, box, "positive") is None:
                return (f"the kernel's power {sympy.sstr(self.params.shown(power))} is undefined where its base "
                        "is 0, so its certificate would not cover those points")
        return ""

    def overall(self, pieces: list[_Piece]) -> tuple[Verdict, dict | None, Admission | None, str]:
        found = [p.witness for p in pieces if p.witness is not None]
        for broken in sorted(found, key=lambda w: _height(w, self.names)):
            for witness in self._witnesses(broken):
                admission = self._witness(witness)
                if admission.accepted:
                    return Verdict.BROKEN, witness, admission, ""
        if pieces and all(p.verdict is Verdict.HOLDS for p in pieces):
            outcome = self._certify({p.symbol: p.regions for p in self.params})
            admission = admit(outcome)
            if admission.accepted:
                return Verdict.HOLDS, None, admission, ""
            return Verdict.INCONCLUSIVE, None, admission, ("every region holds, but the kernel did not accept "
                                                           f"one certificate over the whole range: {admission.note}")
        notes = [p.how for p in pieces if p.verdict is Verdict.INCONCLUSIVE and p.how]
        return Verdict.INCONCLUSIVE, None, None, "; ".join(dict.fromkeys(notes))[:400]

    def _witnesses(self, witness: Mapping[str, sympy.Rational]):
        """The witness found, then the probes at the same parameter values certified non-zero
        there (the kernel may refuse one it cannot evaluate)."""
        yield dict(witness)
        params = {s: witness[s.name] for s in self.symbols}
        for values, _ in self.probes():
            point = {**values, **params}
            if certify_nonzero(self.difference, point, max_prec=EXACT_SIGN_BITS) is not None:
                yield {str(v): x for v, x in point.items()}

    def _witness(self, witness: Mapping[str, sympy.Rational]) -> Admission:
        ranges = {p.symbol: p.regions for p in self.params}
        point = {k: v for k, v in witness.items()}
        outcome = certify_family_witness(self.family.expr, self.t, self.unit, ranges, self.names, point,
                                         about=f"{self.t.describe()}, σ = {self.family.name}: broken")
        return admit(outcome)

    def region_verdicts(self, pieces: list[_Piece]) -> list[RegionVerdict]:
        from symcheck.engine.family_regions import merged
        return merged(pieces, self.params)


_WANT_TRUE: dict[type, Want] = {sympy.StrictGreaterThan: "positive", sympy.GreaterThan: "nonnegative",
              sympy.StrictLessThan: "negative", sympy.LessThan: "nonpositive"}
_WANT_FALSE: dict[type, Want] = {sympy.StrictGreaterThan: "nonpositive", sympy.GreaterThan: "negative",
               sympy.StrictLessThan: "nonnegative", sympy.LessThan: "positive"}


def _truth(cond: sympy.Basic, ranges: dict[sympy.Symbol, Range]) -> bool | None:
    """A branch condition in the parameters decided on the whole box by certified signs, or None."""
    if cond in (sympy.true, sympy.false):
        return bool(cond)
    if isinstance(cond, (sympy.And, sympy.Or)):
        parts = [_truth(c, ranges) for c in cond.args]
        every, some = (False, True) if isinstance(cond, sympy.And) else (True, False)
        if some is False and False in parts or some is True and True in parts:
            return some if isinstance(cond, sympy.Or) else False
        return (not every) if all(x is (not every) for x in parts) else None
    if isinstance(cond, sympy.Not):
        inner = _truth(cond.args[0], ranges)
        return None if inner is None else not inner
    if type(cond) not in _WANT_TRUE:
        return None
    d = cond.lhs - cond.rhs
    if not d.free_symbols <= set(ranges):
        return None
    if prove_sign(d, ranges, _WANT_TRUE[type(cond)]) is not None:
        return True
    if prove_sign(d, ranges, _WANT_FALSE[type(cond)]) is not None:
        return False
    return None


def _resolved(g: sympy.Expr, ranges: dict[sympy.Symbol, Range]) -> sympy.Expr | None:
    """g with every branch chosen by its condition's certified truth over the box, or None."""
    from symcheck.exact.signs import nonsmooth_to_piecewise
    try:
        g = nonsmooth_to_piecewise(g)
    except Exception:  # noqa: BLE001 -- no rewrite, no resolution
        return None
    for _ in range(20):
        pieces = [w for w in g.atoms(sympy.Piecewise) if not w.atoms(sympy.Piecewise) - {w}]
        if not pieces:
            return None if g.has(*_BRANCHY) else g
        chosen = {}
        for w in pieces:
            for value, cond in w.args:
                truth = _truth(cond, ranges)
                if truth is None:
                    return None
                if truth:
                    chosen[w] = value
                    break
            else:
                return None
        g = g.xreplace(chosen)
    return None


def _prepared(g: sympy.Expr, ranges: dict[sympy.Symbol, Range]) -> sympy.Expr:
    """g over the box: 0^e = 0 where e is proved positive on it, and branches chosen where
    their conditions are decided on it (else g as it is)."""
    zeros = {w: S.Zero for w in g.atoms(sympy.Pow) if w.base == 0 and w.exp.free_symbols <= set(ranges)
             and prove_sign(w.exp, {s: r for s, r in ranges.items() if s in w.exp.free_symbols}, "positive")}
    if zeros:
        g = g.xreplace(zeros)
    g = _evaluated(g)
    if g.has(*_BRANCHY):
        resolved = _resolved(g, ranges)
        return g if resolved is None else _evaluated(resolved)  # 0 is a resolution too
    return g


def _evaluated(g: sympy.Expr) -> sympy.Expr:
    """Sums, products and integer powers rebuilt with SymPy's evaluation (exact arithmetic on
    rationals): ``-1/2*2*p + p`` left unevaluated by a substitution becomes 0."""
    if not g.args or not isinstance(g, (sympy.Add, sympy.Mul, sympy.Pow)):
        return g
    args = [_evaluated(a) for a in g.args]
    if isinstance(g, sympy.Pow) and not args[1].is_Integer:
        return g.func(*args, evaluate=False) if args != list(g.args) else g
    return g.func(*args)


def _sweep(region: Region, candidates: list[tuple[dict, list]]) -> list[tuple[dict, Region]] | None:
    """Segments (probe, region: open, point, …, open) covering the open region, each probe free
    of zeros on its segments (see _Family._covered); None when no sweep is found."""
    lo, hi = region.lower, region.upper
    segments: list[tuple[dict, Region]] = []
    start = lo
    for _ in range(MAX_SEGMENTS):
        best, reach = None, None
        for probe, cuts in candidates:
            after = next((c for c in cuts if certified_order(c, start) > 0), hi)
            if best is None or after is hi or (reach is not hi and certified_order(after, reach) > 0):
                best, reach = probe, after
            if after is hi:
                break
        if reach is hi:
            assert best is not None  # reach is only ever set together with best
            segments.append((best, Region(start, hi)))
            return segments
        handover = None  # the lowest point after which another probe has no zero up to reach
        for probe, cuts in candidates:
            if probe is best or any(certified_order(c, reach) == 0 for c in cuts):
                continue
            below = [c for c in cuts if certified_order(c, reach) < 0 and certified_order(c, start) > 0]
            low = start
            for c in below:
                low = c if certified_order(c, low) > 0 else low
            if handover is None or certified_order(low, handover) < 0:
                handover = low
        if handover is None:
            return None
        assert best is not None  # a handover needs a candidate, and the first one set best
        q = simplest_rational(Region(handover, reach))
        segments += [(best, Region(start, q)), (best, Region(q, q))]
        start = q
    return None


def _plain(x: sympy.Expr) -> sympy.Expr:
    """A cut point as a rational when it is one in disguise ((e − e²/2)/(2e − e²) is 1/2, the
    root −c0/c1 of a linear probe): the rational SymPy guesses, kept only when the difference is
    proved exactly 0 (exact_sign). A rational end can be stated in a certificate; the disguise
    cannot, and it reads badly in a region."""
    if x.is_Rational or not x.is_number:
        return x
    try:
        guess = sympy.Rational(x.evalf(40)).limit_denominator(10**6)  # a guess; exact_sign decides
        if exact_sign(x - guess) == 0:
            return guess
    except (Undecided, EvaluationError, TypeError, ValueError, RecursionError):
        pass
    return x


def _undecided(pieces: list[_Piece]) -> tuple[int, int]:
    """Inconclusive intervals, then inconclusive points: a partition with fewer is the better one."""
    left = [p for p in pieces if p.verdict is Verdict.INCONCLUSIVE]
    points = sum(all(r.is_point for r in p.regions.values()) for p in left)
    return len(left) - points, points


def _height(witness: Mapping[str, sympy.Rational], names: Mapping[sympy.Symbol, str]) -> tuple:
    """Simplest parameter values first (1 before 2 before -2 before 1/2): the witness users read."""
    values = [sympy.Rational(witness[s.name]) for s in names if s.name in witness]
    return tuple((max(abs(v.p), v.q), v.p < 0) for v in values)


def simplest_rational(region: Region) -> sympy.Rational:
    """A simple rational inside the open region (1, −1, 2, … first), else the region's own sample."""
    for q in ZERO_CANDIDATES[1:] + tuple(sympy.Rational(q) for q in ("3/2", "-3", "10", "1/10", "-1/10")):
        if _inside(q, region):
            return q
    return region.sample()


def _inside(q: sympy.Rational, region: Region) -> bool:
    """Certified: q strictly inside the open region."""
    try:
        return certified_order(q, region.lower) > 0 and certified_order(region.upper, q) > 0
    except Undecided:
        return False


#: largest degree in z, and in the parameter, of a part of σ whose coefficients are searched
DEGENERATE_DEGREE = 4


def _vanishing_coefficients(node: sympy.Basic, p: sympy.Symbol) -> set[sympy.Rational]:
    """The rational roots of the coefficients of ``node`` read as a polynomial in z whose
    coefficients are polynomials in p over Q (exact: SymPy's Poly over QQ; nothing is signed)."""
    if not isinstance(node, sympy.Expr) or not node.has(Z) or not node.has(p) or not node.is_polynomial(Z, p):
        return set()
    try:
        poly = sympy.Poly(node, Z, p, domain=sympy.QQ)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded, sympy.CoercionFailed):
        return set()
    if poly.degree(Z) > DEGENERATE_DEGREE or poly.degree(p) > DEGENERATE_DEGREE:
        return set()
    found: set[sympy.Rational] = set()
    for coefficient in sympy.Poly(node, Z).all_coeffs():
        c = sympy.Poly(coefficient, p, domain=sympy.QQ)
        if c.degree() > 0:
            found |= {r for r in sympy.roots(c, filter="Q")}
    return found


def _exactly_zero(g: sympy.Expr, p: sympy.Symbol, q: sympy.Rational) -> bool:
    try:
        return exact_sign(at_values(g, {p: q})) == 0
    except (Undecided, EvaluationError, TypeError, ValueError, ZeroDivisionError):
        return False
