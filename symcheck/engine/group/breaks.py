"""Maximality arguments from the shape of σ away from 0: its break points, and its log-periodic form.

* **break points**: σ(a·z) = c·σ(z) with c ≠ 0 makes the set N of points where σ is not analytic
  invariant, a·N = N; N known exactly, finite, with a non-zero point forces |a| = 1;
* **the log-periodic case**: σ(±e^t) = e^{mt}·(α cos ωt + β sin ωt) on each half-line; the
  translation t ↦ t + log|a| must map the span of cos ωt, sin ωt onto a multiple of the same
  vector, which forces sin(ω·log|a|) = 0: |a| ∈ {e^{jπ/ω} : j ∈ Z}.
"""
from __future__ import annotations

import sympy
from sympy import S

from symcheck.core.budget import Budget
from symcheck.core.formula import (
    Abs,
    FiniteSet,
    Neg,
    Operator,
    Paren,
    Plus,
    Power,
    Product,
    Rel,
    Relation,
    SetMinus,
)
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.engine.group.facts import Bound, BoundKind, analytic, certified_sign, exact_form
from symcheck.engine.zero import prove_identically_zero
from symcheck.exact.regions import Region
from symcheck.exact.zero_proof import generator_identity_safe
from symcheck.language.symbols import A, Z, sigma_at

__all__ = ["break_points", "log_periodic"]

_T = sympy.Symbol("t", real=True)
#: in formulas: the set N of points where σ is not analytic, the index j of a power, the frequency ω
_N, _J, _OMEGA = sympy.symbols("N j omega")


def break_points(pieces, budget: Budget, steps: list[Step], missing: list[str]) -> bool:
    """|a| = 1 when the non-analytic points of σ are known exactly and one is not 0."""
    ends = {e for p in pieces for e in (p.region.lower, p.region.upper) if e not in (S.Infinity, S.NegativeInfinity)}
    signs = {e: certified_sign(e) for e in ends}
    if None in signs.values():
        missing.append("a cut point of σ could not be told apart from 0")
        return False
    # N ∖ {0}: a cut that is 0 (proved) plays no part in |a|·max|N| = max|N|; the order is
    # only the order of the text (each cut is matched to its pieces by exact equality)
    cuts = sorted((e for e in ends if signs[e] != 0), key=lambda e: float(e.evalf(30)))
    if not cuts:
        return False
    if not all(p.branch_free and analytic(p.expr) for p in pieces if not p.region.is_point):
        missing.append("a piece of σ is not analytic on its interval (no break-point argument)")
        return False
    breaks, smooth = [], []
    for b in cuts:
        left = next((p for p in pieces if p.region.upper == b and not p.region.is_point), None)
        right = next((p for p in pieces if p.region.lower == b and not p.region.is_point), None)
        point = next((p for p in pieces if p.region.is_point and p.region.lower == b), None)
        if left is None or right is None:
            missing.append(f"no pieces on both sides of z = {text(b)}")
            return False
        found = _jump(left.expr, right.expr, point.expr if point else None, b, budget)
        if found is None:
            with budget.step():
                same = generator_identity_safe(right.expr - left.expr) and (
                    point is None or certified_sign(point.expr - left.expr.xreplace({Z: b})) == 0)
            if not same:
                missing.append(f"σ was neither shown analytic nor shown not analytic at z = {text(b)}")
                return False
            smooth.append(b)
        else:
            breaks.append((b, found))
    if not breaks:
        return False
    listed = "; ".join(f"z = {text(b)}: {why}" for b, why in breaks)
    steps.append(Step("Break points", f"σ is not analytic exactly at {', '.join(text(b) for b, _ in breaks)} "
                      f"among z ≠ 0 ({listed})",
                      Relation(Rel.EQ, SetMinus(_N, FiniteSet((S.Zero,))), FiniteSet(tuple(b for b, _ in breaks))),
                      "each piece is analytic on its open interval; at each cut a derivative jumps (certified)"
                      + (f"; at {', '.join(text(b) for b in smooth)} the two pieces are the same expression"
                         if smooth else ""), Status.CERTIFIED))
    steps.append(Step("Invariance of N", "σ(a·z) = c·σ(z) with c ≠ 0 gives a·N = N; N is finite with a "
                      "point ≠ 0, so max |N| = |a|·max |N|: |a| = 1",
                      Relation(Rel.IMPLIES, Relation(Rel.EQ, Product((A, _N)), _N), Relation(Rel.EQ, Abs(A), S.One)),
                      "σ(a·) is analytic at z iff σ is analytic at a·z", Status.THEOREM))
    return True


def _jump(left: sympy.Expr, right: sympy.Expr, value: sympy.Expr | None, b: sympy.Expr,
          budget: Budget) -> str | None:
    """Which derivative of σ is certified to jump at b, or None."""
    if not (analytic(left, b) and analytic(right, b)):
        return None
    if value is not None and certified_sign(value - left.xreplace({Z: b})) in (1, -1):
        return "σ(z) differs from its left limit"
    dl, dr = left, right
    for j in range(4):
        with budget.step():
            if certified_sign(dr.xreplace({Z: b}) - dl.xreplace({Z: b})) in (1, -1):
                return "σ jumps" if j == 0 else f"the derivative of order {j} jumps"
            dl, dr = sympy.diff(dl, Z), sympy.diff(dr, Z)
    return None


def _harmonic(trig: sympy.Expr, rest: sympy.Expr) -> tuple | None:
    """(ω, φ, α, β) with rest·trig = α cos(ωt + φ) + β sin(ωt + φ), ω not negative as written."""
    arg = trig.args[0]
    phase = arg.xreplace({_T: S.Zero})
    frequency = sympy.expand((arg - phase) / _T)
    if _T in frequency.free_symbols or _T in phase.free_symbols:
        return None
    if frequency.could_extract_minus_sign():  # cos(−x) = cos x, sin(−x) = −sin x
        frequency, phase = -frequency, -phase
        if isinstance(trig, sympy.sin):
            rest = -rest
    return (frequency, phase, rest, S.Zero) if isinstance(trig, sympy.cos) else (frequency, phase, S.Zero, rest)


def _trig_form(f: sympy.Expr) -> tuple[sympy.Expr, tuple] | None:
    """(m, harmonics) with f(t) = e^{mt}·Σ (α cos(ωt + φ) + β sin(ωt + φ)) over the harmonics
    (ω, φ, α, β), read off the terms (a term without cos or sin is the harmonic ω = 0), or None.
    Terms of one frequency must share the phase; only a proposal: the form is proved after."""
    m = None
    harmonics: list[list] = []
    for term in sympy.Add.make_args(sympy.expand(sympy.powsimp(f))):
        growth, trig, rest = S.Zero, [], S.One
        for factor in sympy.Mul.make_args(term):
            if isinstance(factor, sympy.exp):
                growth += factor.args[0]
            elif isinstance(factor, (sympy.cos, sympy.sin)):
                trig.append(factor)
            elif _T in factor.free_symbols:
                return None
            else:
                rest *= factor
        rate = sympy.expand(growth / _T) if growth != 0 else S.Zero
        if _T in rate.free_symbols or len(trig) > 1:
            return None
        if m is None:
            m = rate
        elif sympy.expand(rate - m) != 0:
            return None
        h = _harmonic(trig[0], rest) if trig else (S.Zero, S.Zero, rest, S.Zero)
        if h is None:
            return None
        same = next((g for g in harmonics if sympy.expand(g[0] - h[0]) == 0), None)
        if same is None:
            harmonics.append(list(h))
        elif sympy.expand(same[1] - h[1]) != 0:
            return None
        else:
            same[2] += h[2]
            same[3] += h[3]
    return None if m is None else (m, tuple(tuple(h) for h in harmonics))


def _claimed(form: tuple) -> sympy.Expr:
    m, harmonics = form
    return sympy.exp(m * _T) * sympy.Add(*(alpha * sympy.cos(omega * _T + phase) + beta * sympy.sin(omega * _T + phase)
                                          for omega, phase, alpha, beta in harmonics))


def _proved_form(branch: sympy.Expr, side: int, form: tuple, budget: Budget) -> bool:
    """σ(side·e^t) = the claimed form for every real t, proved by the one-variable zero prover
    (exact identities, or SymPy's rewrites with every constant opaque)."""
    difference = branch.xreplace({Z: side * sympy.exp(_T)}) - _claimed(form)
    return prove_identically_zero(difference, _T, Region(-S.Infinity, S.Infinity), budget) is not None


def _chosen(harmonics: tuple) -> int | None:
    """The harmonic the rotation argument uses: ω certified non-zero, α² + β² certified positive,
    |ω| certified apart from every other |ω|; the lowest such frequency (the largest base)."""
    usable = []
    for i, (omega, _, alpha, beta) in enumerate(harmonics):
        if certified_sign(omega) != 1 or certified_sign(alpha**2 + beta**2) != 1:
            continue
        if all(certified_sign(o - omega) in (1, -1) and certified_sign(o + omega) in (1, -1)
               for j, (o, *_) in enumerate(harmonics) if j != i):
            usable.append(i)
    if not usable:
        return None
    return min(usable, key=lambda i: float(harmonics[i][0].evalf(30)))


def log_periodic(pieces, budget: Budget, steps: list[Step]) -> dict[int, Bound]:
    """a > 0: the discrete set a = B^j, B = e^(π/ω), left by one half-line where
    σ(±e^t) = e^{mt}·Σ (α cos(ωt + φ) + β sin(ωt + φ)) with a harmonic of frequency ω apart from
    the others. a > 0 maps each half-line onto itself, so one side is enough; which powers of B
    are members is decided by :mod:`symcheck.engine.group.assemble` (the a > 0 in G are the powers of one
    B^n). The a < 0 are left to a member (−1, u) (reflection) or to the signs argument."""
    sides = {1: next((p.expr for p in pieces if p.region.lower == 0 and p.region.upper == S.Infinity), None),
             -1: next((p.expr for p in pieces if p.region.upper == 0 and p.region.lower == -S.Infinity), None)}
    for side, branch in sides.items():
        if branch is None:
            continue
        with budget.step():
            # SymPy's simplify only proposes the form; it is proved below, or not used
            form = _trig_form(sympy.simplify(branch.xreplace({Z: side * sympy.exp(_T)})))
        if form is None:
            continue
        chosen = _chosen(form[1])
        if chosen is None or not _proved_form(branch, side, form, budget):
            continue
        m, harmonics = form
        omega, phase, alpha, beta = harmonics[chosen]
        base = exact_form(sympy.exp(sympy.pi / omega))
        at = "e^t" if side == 1 else "−e^t"
        shown = " + ".join(f"{text(al)}·cos({text(o * _T + ph)}) + {text(be)}·sin({text(o * _T + ph)})"
                           for o, ph, al, be in harmonics)
        steps.append(Step("Log-periodic form", f"σ({at}) = e^({text(m * _T)})·({shown}) for every real t",
                          Relation(Rel.EQ, sigma_at(Power(S.Exp1, _T, bare_exponent=True) if side == 1 else
                                                    Neg(Power(S.Exp1, _T, bare_exponent=True))),
                                   Product((Power(S.Exp1, m * _T), Paren(Plus((
                                       Product((alpha, Operator("cos", omega * _T + phase))),
                                       Product((beta, Operator("sin", omega * _T + phase))))), large=True)))),
                          f"σ on {'z > 0' if side == 1 else 'z < 0'} with z = {at}"
                          + (f"; {len(harmonics) - 1} other frequency(ies) apart from ω = {text(omega)}"
                             if len(harmonics) > 1 else ""), Status.VERIFIED))
        steps.append(Step("Rotation argument (a > 0)",
                          f"a = e^s: the translation by s rotates the harmonic of frequency ω = {text(omega)} by ωs "
                          f"and must make it a multiple of itself, so sin(ωs) = 0: a = {text(base)}^j",
                          Relation(Rel.IMPLIES,
                                   Relation(Rel.EQ, Operator("sin", Paren(Product((_OMEGA, Operator("log", A))))),
                                            S.Zero),
                                   Relation(Rel.EQ, A, Power(base, _J))),
                          "a > 0 maps each half-line onto itself; cos(ωt + φ) and sin(ωt + φ) are linearly "
                          "independent of the other frequencies; a rotation by ωs is a multiple of the identity only "
                          "when sin ωs = 0",
                          Status.THEOREM))
        return {1: Bound(1, BoundKind.DISCRETE, base=base, reason=f"a = {text(base)}^j", form=(side, form, chosen))}
    return {}


def other_side(pieces, bound: Bound, budget: Budget, steps: list[Step]) -> Bound | None:
    """No a < 0 when the other half-line's form has another growth, or none of the chosen frequency:
    an a < 0 maps the half-lines onto each other, and a translation in t keeps each exponential
    e^((m ± iω)t) of a form (exponentials of distinct exponents are linearly independent)."""
    assert bound.form is not None, "a log-periodic bound without its form"  # log_periodic builds it with one
    side, (m, harmonics), chosen = bound.form
    omega = harmonics[chosen][0]
    other = -side
    branch = next((p.expr for p in pieces if not p.region.is_point and p.branch_free and
                   (p.region.lower, p.region.upper) == ((S.Zero, S.Infinity) if other == 1 else
                                                        (-S.Infinity, S.Zero))), None)
    if branch is None:
        return None
    with budget.step():
        form = _trig_form(sympy.simplify(branch.xreplace({Z: other * sympy.exp(_T)})))
    if form is None:
        return None
    growth_apart = certified_sign(form[0] - m) in (1, -1)
    if not growth_apart and not all(certified_sign(o - omega) in (1, -1) and certified_sign(o + omega) in (1, -1)
                                    for o, *_ in form[1]):
        return None
    if not _proved_form(branch, other, form, budget):
        return None
    at = "e^t" if other == 1 else "−e^t"
    why = (f"its growth e^({text(form[0] * _T)}) is not e^({text(m * _T)})" if growth_apart else
           f"it has no harmonic of frequency ±{text(omega)}")
    reason = f"σ({at}) = e^({text(form[0] * _T)})·(…) for every real t: {why}"
    steps.append(Step("Conclusion, a < 0", "no a < 0 is in the group",
                      Relation(Rel.EQ, sigma_at(Power(S.Exp1, _T, bare_exponent=True) if other == 1 else
                                                Neg(Power(S.Exp1, _T, bare_exponent=True))),
                               _claimed(form)),
                      f"{reason}; an a < 0 maps one half-line onto the other, and a translation in t keeps each "
                      "exponential of the form, while σ on the first half-line has the exponential "
                      f"e^(({text(m)} + i·{text(omega)})·t)", Status.THEOREM))
    return Bound(-1, BoundKind.EMPTY, reason=reason, form=(other, form), by="frequencies")
