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
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.engine.group_facts import Bound, analytic, certified_sign, exact_form
from symcheck.engine.zero import prove_identically_zero
from symcheck.exact.regions import Region
from symcheck.exact.zero_proof import generator_identity_safe
from symcheck.core.formula import (And, Abs, FiniteSet, Neg, Operator, Paren, Plus, Power, Product, Rel,
                                   Relation, SetMinus)
from symcheck.engine.group_facts import C
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


def _trig_form(f: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr, sympy.Expr] | None:
    """(m, ω, α, β) with f(t) = e^{m t}·(α cos ωt + β sin ωt), read off the terms, or None."""
    m = omega = None
    alpha, beta = S.Zero, S.Zero
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
        if _T in rate.free_symbols or len(trig) != 1:
            return None
        frequency = sympy.expand(trig[0].args[0] / _T)
        if _T in frequency.free_symbols:
            return None
        if isinstance(trig[0], sympy.sin) and frequency.could_extract_minus_sign():
            frequency, rest = -frequency, -rest
        elif frequency.could_extract_minus_sign():
            frequency = -frequency
        if m is None:
            m, omega = rate, frequency
        elif sympy.expand(rate - m) != 0 or sympy.expand(frequency - omega) != 0:
            return None
        if isinstance(trig[0], sympy.cos):
            alpha += rest
        else:
            beta += rest
    return None if m is None else (m, omega, alpha, beta)


def _proved_form(branch: sympy.Expr, side: int, form: tuple, budget: Budget) -> bool:
    """σ(side·e^t) = e^{mt}·(α cos ωt + β sin ωt) for every real t, proved by the one-variable
    zero prover (exact identities, or SymPy's rewrites with every constant opaque)."""
    m, omega, alpha, beta = form
    claimed = sympy.exp(m * _T) * (alpha * sympy.cos(omega * _T) + beta * sympy.sin(omega * _T))
    difference = branch.xreplace({Z: side * sympy.exp(_T)}) - claimed
    return prove_identically_zero(difference, _T, Region(-S.Infinity, S.Infinity), budget) is not None


def log_periodic(pieces, budget: Budget, steps: list[Step]) -> dict[int, Bound]:
    """The discrete set of a for σ(±e^t) = e^{mt}·(α cos ωt + β sin ωt) on the two half-lines."""
    right = next((p.expr for p in pieces if p.region.lower == 0 and p.region.upper == S.Infinity), None)
    left = next((p.expr for p in pieces if p.region.upper == 0 and p.region.lower == -S.Infinity), None)
    if right is None or left is None:
        return {}
    with budget.step():
        # SymPy's simplify only proposes the form; each is proved below, or not used
        plus = _trig_form(sympy.simplify(right.xreplace({Z: sympy.exp(_T)})))
        minus = _trig_form(sympy.simplify(left.xreplace({Z: -sympy.exp(_T)})))
    if plus is None or minus is None or certified_sign(plus[0] - minus[0]) != 0 or \
            certified_sign(plus[1] - minus[1]) != 0:
        return {}
    m, omega, a1, b1 = plus
    _, _, a2, b2 = minus
    if certified_sign(omega) not in (1, -1) or certified_sign(a1**2 + b1**2) != 1:
        return {}
    if not (_proved_form(right, 1, plus, budget) and _proved_form(left, -1, minus, budget)):
        return {}
    base = exact_form(sympy.exp(sympy.pi / omega))
    base_c = exact_form(-base**m)
    steps.append(Step("Log-periodic form", f"σ(e^t) = e^({text(m * _T)})·({text(a1)}·cos({text(omega * _T)}) + "
                      f"{text(b1)}·sin({text(omega * _T)})), σ(−e^t) = e^({text(m * _T)})·({text(a2)}·cos(…) + "
                      f"{text(b2)}·sin(…))",
                      Relation(Rel.EQ, sigma_at(Power(S.Exp1, _T, bare_exponent=True)),
                               Product((Power(S.Exp1, m * _T), Paren(Plus((
                                   Product((a1, Operator("cos", omega * _T))),
                                   Product((b1, Operator("sin", omega * _T))))), large=True)))),
                      "σ on z > 0 and z < 0 with z = ±e^t", Status.VERIFIED))
    steps.append(Step("Rotation argument (a > 0)",
                      f"a = e^s: g(t + s) = c·e^(−m s)·g(t) for g = α cos ωt + β sin ωt forces (α² + β²)·sin(ωs) = 0, "
                      f"so |a| = {text(base)}^j, c = (−1)^j·|a|^{text(m)}",
                      Relation(Rel.IMPLIES,
                               Relation(Rel.EQ, Operator("sin", Paren(Product((_OMEGA, Operator("log", A))))), S.Zero),
                               And((Relation(Rel.EQ, A, Power(base, _J)), Relation(Rel.EQ, C, Power(Paren(base_c), _J))))),
                      "cos ωt and sin ωt are linearly independent; a translation acts on their span as a rotation "
                      "by ωs, which is a multiple of the identity only when sin ωs = 0", Status.THEOREM))
    result = {1: Bound(1, "discrete", base=base, base_c=base_c,
                       reason=f"a = {text(base)}^j with c = ({text(base_c)})^j", form=plus)}
    det = certified_sign(a1 * b2 - b1 * a2)
    dot = a1 * a2 + b1 * b2
    if det == 0 and certified_sign(dot) in (1, -1):
        unit_c = exact_form(dot / (a1**2 + b1**2))
        steps.append(Step("Rotation argument (a < 0)",
                          f"the two half-lines' vectors are parallel (ratio {text(unit_c)}), so a = −{text(base)}^j "
                          f"with c = {text(unit_c)}·({text(base_c)})^j",
                          And((Relation(Rel.EQ, A, Neg(Power(base, _J))),
                               Relation(Rel.EQ, C, Product((unit_c, Power(Paren(base_c), _J)))))),
                          "the same argument between σ(−e^(t+s)) and σ(e^t)", Status.THEOREM))
        result[-1] = Bound(-1, "discrete", base=base, base_c=base_c, unit_c=unit_c,
                           reason=f"a = −{text(base)}^j with c = {text(unit_c)}·({text(base_c)})^j")
    return result
