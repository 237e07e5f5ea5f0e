"""Why no other pair (a, c) is in the symmetry group of σ: the maximality arguments.

G = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}. Each argument below uses only certified
facts about σ (values and Taylor coefficients certified non-zero by exact or ball arithmetic,
or exactly zero) and a stated theorem, and bounds the a of one sign:

* **value at a point**: σ(z₀) ≠ 0 gives c = σ(a·z₀)/σ(z₀); in particular c ≠ 0 (else σ ≡ 0);
* **Taylor coefficients at 0** (σ analytic there, or each one-sided branch σ₊, σ₋ analytic at 0):
  σ(a·z) = c·σ(z) near 0 compares coefficients; for a > 0, p_k a^k = c·p_k; for a < 0,
  n_k a^k = c·p_k and p_k a^k = c·n_k. A non-zero coefficient gives a law c = K·|a|^k;
  two laws with different powers leave one |a|; a law with K = 0 is impossible;
* **break points**: σ(a·z) = c·σ(z), c ≠ 0, makes the set N of points where σ is not analytic
  invariant, a·N = N; N finite with a non-zero point forces |a| = 1;
* **the log-periodic case**: σ(±e^t) = e^{mt}·(α cos ωt + β sin ωt) on each half-line; the
  translation t ↦ t + log|a| must map the span of cos ωt, sin ωt onto a multiple of the same
  vector, which forces sin(ω·log|a|) = 0: |a| ∈ {e^{jπ/ω} : j ∈ Z}.

:func:`bounds` returns, for a > 0 and a < 0, what the arguments leave: nothing, finitely many
candidates, a law c = K·|a|^k on the whole half-line, a discrete set, or no bound at all.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy
from sympy import S

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError, Undecided
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.exact.evaluate import certify_nonzero, recheck_sign
from symcheck.exact.regions import split
from symcheck.exact.signs import EXACT_SIGN_BITS, at_point, exact_sign
from symcheck.language.activations import Activation
from symcheck.language.symbols import A, Z

__all__ = ["Law", "Bound", "Arguments", "bounds", "nonzero_point", "ORDER"]

#: the highest Taylor coefficient computed at 0
ORDER = 6
_T = sympy.Symbol("t", real=True)
_SMOOTH = (sympy.exp, sympy.sin, sympy.cos, sympy.tanh, sympy.sinh, sympy.cosh, sympy.atan,
           sympy.asinh, sympy.erf, sympy.erfc, sympy.Add, sympy.Mul)
_BRANCHING = (sympy.Piecewise, sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside)
_SIGN = {1: "a > 0", -1: "a < 0"}


@dataclass(frozen=True)
class Law:
    """c = K·|a|^k for every a of one sign in the group."""

    K: sympy.Expr
    k: sympy.Rational

    def c(self, sign: int) -> sympy.Expr:
        """c as a function of a on the half-line of ``sign``."""
        return sympy.simplify(self.K * (sign * A) ** self.k)


@dataclass(frozen=True)
class Bound:
    """What the arguments leave for the a of one sign.

    ``kind``: "empty" (no such a), "points" (candidates (a₀, c₀), c₀ None when only the value
    argument names it), "law" (c = law for every such a in G), "discrete" (a = sign·base^j with
    c = unit_c^[a<0]·base_c^j), or "open" (no argument applies).
    """

    sign: int
    kind: str
    points: tuple[tuple[sympy.Expr, sympy.Expr | None], ...] = ()
    law: Law | None = None
    base: sympy.Expr | None = None
    base_c: sympy.Expr | None = None
    unit_c: sympy.Expr | None = None
    reason: str = ""


@dataclass(frozen=True)
class Arguments:
    """The maximality arguments' steps and the bound they give for each sign of a."""

    steps: tuple[Step, ...]
    bounds: dict[int, Bound] = field(default_factory=dict)
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Relation:
    K: sympy.Expr
    k: sympy.Rational
    why: str


def _sign_of(value: sympy.Expr) -> int | None:
    """0 when proved zero, ±1 when certified non-zero, None when undecided."""
    try:
        return exact_sign(sympy.sympify(value))
    except (Undecided, EvaluationError, TypeError, ValueError):
        return None


def nonzero_point(sigma: Activation, grid: Sequence[sympy.Rational]) -> tuple[sympy.Rational, sympy.Expr] | None:
    """The first z₀ of ``grid`` with σ(z₀) certified non-zero (and re-checked), with σ(z₀)."""
    for z0 in grid:
        try:
            value = at_point(sigma.expr, Z, z0)
            certificate = certify_nonzero(value, {}, max_prec=EXACT_SIGN_BITS)
            if certificate is not None and recheck_sign(value, {}) == certificate.sign:
                return z0, value
        except (EvaluationError, Undecided, TypeError, ValueError):
            continue
    return None


# ---- analyticity ------------------------------------------------------------------------------

def _analytic(expr: sympy.Expr, point: sympy.Expr | None = None) -> bool:
    """``expr`` (branch-free) is real-analytic at ``point``, or on every open interval where it is
    defined (``point`` None): built from analytic functions, with every logarithm and power whose
    base depends on z checked where that matters."""
    for node in sympy.preorder_traversal(expr):
        if node.is_Atom:
            continue
        if isinstance(node, sympy.Pow):
            base, exponent = node.args
            if Z in exponent.free_symbols and not (Z not in base.free_symbols and _sign_of(base) == 1):
                return False
            if Z not in base.free_symbols or (exponent.is_Integer and exponent >= 0):
                continue
            needed = 1 if not exponent.is_Integer else None
            if point is None:
                if needed:  # √u is not analytic where u = 0
                    return False
                continue
            at = _sign_of(base.xreplace({Z: point}))
            if at is None or at == 0 or (needed and at != 1):
                return False
        elif isinstance(node, sympy.log):
            if point is not None and _sign_of(node.args[0].xreplace({Z: point})) != 1:
                return False
        elif not isinstance(node, _SMOOTH):
            return False
    return True


def _coefficients(expr: sympy.Expr, at: sympy.Expr, budget: Budget, order: int = ORDER):
    """Taylor coefficients of ``expr`` at ``at``: (k, value, 0 | ±1 | None) for k = 0 … order."""
    derivative = expr
    out = []
    for k in range(order + 1):
        with budget.step():
            value = derivative.xreplace({Z: at}) / sympy.factorial(k)
            out.append((k, value, _sign_of(value)))
            derivative = sympy.diff(derivative, Z)
    return out


# ---- the arguments ----------------------------------------------------------------------------

def bounds(sigma: Activation, value_point: tuple[sympy.Rational, sympy.Expr] | None,
           budget: Budget) -> Arguments:
    """Apply every argument that fits σ and combine what each says about a > 0 and a < 0."""
    steps: list[Step] = []
    relations: dict[int, list[_Relation]] = {1: [], -1: []}
    missing: list[str] = []
    pieces = None
    try:
        if sigma.expr.has(*_BRANCHING):
            with budget.step():
                pieces = split(sigma.expr, Z, budget)
    except (Undecided, BudgetExceeded) as why:
        missing.append(f"the branches of σ could not be split into pieces ({why or 'time budget'})")
    try:
        _at_zero(sigma, pieces, budget, relations, steps, missing)
    except BudgetExceeded:
        missing.append("the time budget ran out while computing Taylor coefficients")
    unit = False
    discrete: dict[int, Bound] = {}
    if pieces is not None:
        try:
            unit = _break_points(pieces, budget, steps, missing)
            if not unit:
                discrete = _log_periodic(pieces, budget, steps)
        except BudgetExceeded:
            missing.append("the time budget ran out in the break-point argument")
    result = {s: _resolve(s, relations[s], unit, discrete.get(s), steps) for s in (1, -1)}
    return Arguments(tuple(steps), result, tuple(missing))


def _at_zero(sigma: Activation, pieces, budget: Budget, relations: dict[int, list[_Relation]],
             steps: list[Step], missing: list[str]) -> None:
    """Relations c = K·|a|^k from σ(0) and from the Taylor coefficients at 0 (one-sided if need be)."""
    zero_sign = _sign_of(at_point(sigma.expr, Z, S.Zero))
    if zero_sign in (1, -1):
        for s in (1, -1):
            relations[s].append(_Relation(S.One, S.Zero, "σ(0) ≠ 0 and σ(0) = c·σ(0)"))
        steps.append(Step("Value at 0", f"σ(0) = {text(at_point(sigma.expr, Z, S.Zero))} ≠ 0",
                          rf"\sigma(0) = {sympy.latex(at_point(sigma.expr, Z, S.Zero))} \neq 0",
                          "certified; z = 0 gives σ(0) = c·σ(0), so c = 1 for every a", Status.CERTIFIED))
    if pieces is None and not sigma.expr.has(*_BRANCHING):
        right = left = sigma.expr
    elif pieces is not None:
        right = next((p.expr for p in pieces if p.region.lower == 0 and not p.region.is_point and p.branch_free), None)
        left = next((p.expr for p in pieces if p.region.upper == 0 and not p.region.is_point and p.branch_free), None)
        if right is None or left is None:
            missing.append("σ has no single branch on each side of 0 (no one-sided Taylor argument)")
            return
    else:
        return
    one_sided = right is not left
    # s > 0 small: σ₊(s) and σ₋(−s); a fractional power s^(j/q) becomes t^j with s = t^q
    q = math.lcm(_root_order(right), _root_order(left))
    with budget.step():
        plus, minus = _germ(right, 1, q), _germ(left, -1, q)
    if plus is None or minus is None:
        missing.append("σ is not analytic at 0 in z^(1/q) on each side (no Taylor argument)")
        return
    order = min(ORDER * q, 2 * ORDER)
    p = _coefficients(plus, S.Zero, budget, order)
    if one_sided or q != 1:
        m = _coefficients(minus, S.Zero, budget, order)
    else:  # σ(−s) = Σ (−1)^k·s_k·s^k
        m = [(j, (-1) ** j * v, None if sign is None else (-1) ** j * sign) for j, v, sign in p]
    if not one_sided:  # σ analytic: m_k = (−1)^k·s_k, shown as the s_k
        shown = [(f"s_{k}", v, sign) for k, v, sign in p if sign]
    else:
        shown = [(f"p_{k}", v, sign) for k, v, sign in p if sign] + [(f"m_{k}", v, sign) for k, v, sign in m if sign]
    if not shown:
        missing.append(f"no Taylor coefficient at 0 up to order {order} is certified non-zero")
        return
    variable = "s" if q == 1 else f"s^(1/{q})"
    if one_sided:
        steps.append(Step("One-sided branches", f"σ₊(z) = {text(right)} for small z > 0, σ₋(z) = {text(left)} "
                          "for small z < 0", _lines(rf"\sigma_+(z) = {_short_latex(right)}", rf"\sigma_-(z) = {_short_latex(left)}"),
                          f"the pieces of σ next to 0; σ₊(s) = Σ p_k·{variable}^k and σ₋(−s) = Σ m_k·{variable}^k "
                          "for small s > 0, each series convergent", Status.VERIFIED))
    listed = ", ".join(f"{name} = {text(v)} ≠ 0" for name, v, _ in shown)
    steps.append(Step("Taylor coefficients", listed + f" (orders 0…{order}; the others are 0 or undecided)",
                      _lines(*(rf"{name} = {_short_latex(v)}" for name, v, _ in shown)),
                      "each non-zero coefficient certified by exact or ball arithmetic", Status.CERTIFIED))
    pn, mn = ("s", "s") if not one_sided else ("p", "m")
    for (j, pj, ps), (_, mj, ms) in zip(p, m):
        k = sympy.Rational(j, q)
        power = f"|a|^{text(k)}"
        if ps:
            relations[1].append(_Relation(S.One, k, f"{pn}_{j} ≠ 0: c = {power}"))
        elif ms:
            relations[1].append(_Relation(S.One, k, f"{mn}_{j} ≠ 0: c = {power}"))
        # a < 0, b = |a|: z > 0 gives m_j·b^k = c·p_j, z < 0 gives p_j·b^k = c·m_j
        if ps and ms is not None:
            K = sympy.simplify(mj / pj)
            why = (f"s_{j}·a^{j} = c·s_{j}: c = {text(K)}·{power}" if not one_sided else
                   f"{mn}_{j}·{power} = c·{pn}_{j}: c = {text(K)}·{power}")
            relations[-1].append(_Relation(K, k, why))
        if one_sided and ms and ps is not None:
            K = S.Zero if ps == 0 else sympy.simplify(pj / mj)
            relations[-1].append(_Relation(K, k, f"{pn}_{j}·{power} = c·{mn}_{j}: c = {text(K)}·{power}"))


#: longer LaTeX than this is shown to 8 digits (display only: the text and JSON keep it exact)
LATEX_CHARACTERS = 90


def _short_latex(expr: sympy.Expr) -> str:
    shown = sympy.latex(expr)
    if len(shown) <= LATEX_CHARACTERS:
        return shown
    approximate = sympy.latex(sympy.N(expr, 8))
    return approximate if expr.free_symbols else rf"\approx {approximate}"


def _lines(*parts: str) -> str:
    """Formulas one per line (amsmath's gathered), so a long list still fits the page."""
    return r"\begin{gathered}" + r" \\ ".join(parts) + r"\end{gathered}" if len(parts) > 1 else "".join(parts)


def _root_order(expr: sympy.Expr) -> int:
    """The least q such that every root of a base vanishing at 0 has an exponent in Z/q."""
    q = 1
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Pow) and Z in node.base.free_symbols and node.exp.is_Rational \
                and not node.exp.is_Integer and _sign_of(node.base.xreplace({Z: S.Zero})) == 0:
            q = math.lcm(q, int(node.exp.q))  # a root of a base that vanishes at 0
    return q


def _germ(branch: sympy.Expr, side: int, q: int) -> sympy.Expr | None:
    """The branch at z = side·t^q (t > 0) as an expression in z analytic at 0, or None."""
    if q == 1:
        germ = branch.xreplace({Z: side * Z})
    else:
        root = sympy.Symbol("t", positive=True)
        germ = sympy.simplify(branch.xreplace({Z: side * root**q})).xreplace({root: Z})
    return germ if _analytic(germ, S.Zero) else None


def _break_points(pieces, budget: Budget, steps: list[Step], missing: list[str]) -> bool:
    """|a| = 1 when the non-analytic points of σ are known exactly and one is not 0."""
    cuts = sorted({e for p in pieces for e in (p.region.lower, p.region.upper)
                   if e.is_finite and e != 0}, key=lambda e: float(e.evalf(30)))
    if not cuts:
        return False
    if not all(p.branch_free and _analytic(p.expr) for p in pieces if not p.region.is_point):
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
                same = sympy.expand(right.expr - left.expr) == 0 and (
                    point is None or _sign_of(point.expr - left.expr.xreplace({Z: b})) == 0)
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
                      r"N \setminus \{0\} = \{" + ", ".join(sympy.latex(b) for b, _ in breaks) + r"\}",
                      "each piece is analytic on its open interval; at each cut a derivative jumps (certified)"
                      + (f"; at {', '.join(text(b) for b in smooth)} the two pieces are the same expression"
                         if smooth else ""), Status.CERTIFIED))
    steps.append(Step("Invariance of N", "σ(a·z) = c·σ(z) with c ≠ 0 gives a·N = N; N is finite with a "
                      "point ≠ 0, so max |N| = |a|·max |N|: |a| = 1", r"a N = N \Rightarrow |a| = 1",
                      "σ(a·) is analytic at z iff σ is analytic at a·z", Status.THEOREM))
    return True


def _jump(left: sympy.Expr, right: sympy.Expr, value: sympy.Expr | None, b: sympy.Expr,
          budget: Budget) -> str | None:
    """Which derivative of σ is certified to jump at b, or None."""
    if not (_analytic(left, b) and _analytic(right, b)):
        return None
    if value is not None and _sign_of(value - left.xreplace({Z: b})) in (1, -1):
        return "σ(z) differs from its left limit"
    dl, dr = left, right
    for j in range(4):
        with budget.step():
            if _sign_of(dr.xreplace({Z: b}) - dl.xreplace({Z: b})) in (1, -1):
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


def _log_periodic(pieces, budget: Budget, steps: list[Step]) -> dict[int, Bound]:
    """The discrete set of a for σ(±e^t) = e^{mt}·(α cos ωt + β sin ωt) on the two half-lines."""
    right = next((p.expr for p in pieces if p.region.lower == 0 and p.region.upper == S.Infinity), None)
    left = next((p.expr for p in pieces if p.region.upper == 0 and p.region.lower == -S.Infinity), None)
    if right is None or left is None:
        return {}
    with budget.step():
        plus = _trig_form(sympy.simplify(right.xreplace({Z: sympy.exp(_T)})))
        minus = _trig_form(sympy.simplify(left.xreplace({Z: -sympy.exp(_T)})))
    if plus is None or minus is None or sympy.expand(plus[0] - minus[0]) != 0 or \
            sympy.expand(plus[1] - minus[1]) != 0:
        return {}
    m, omega, a1, b1 = plus
    _, _, a2, b2 = minus
    if _sign_of(omega) not in (1, -1) or _sign_of(a1**2 + b1**2) != 1:
        return {}
    base = sympy.simplify(sympy.exp(sympy.pi / omega))
    base_c = sympy.simplify(-base**m)
    steps.append(Step("Log-periodic form", f"σ(e^t) = e^({text(m * _T)})·({text(a1)}·cos({text(omega * _T)}) + "
                      f"{text(b1)}·sin({text(omega * _T)})), σ(−e^t) = e^({text(m * _T)})·({text(a2)}·cos(…) + "
                      f"{text(b2)}·sin(…))",
                      rf"\sigma(e^t) = e^{{{sympy.latex(m * _T)}}}\left({sympy.latex(a1)}\cos {sympy.latex(omega * _T)}"
                      rf" + {sympy.latex(b1)}\sin {sympy.latex(omega * _T)}\right)",
                      "σ on z > 0 and z < 0 with z = ±e^t", Status.VERIFIED))
    steps.append(Step("Rotation argument (a > 0)",
                      f"a = e^s: g(t + s) = c·e^(−m s)·g(t) for g = α cos ωt + β sin ωt forces (α² + β²)·sin(ωs) = 0, "
                      f"so |a| = {text(base)}^j, c = (−1)^j·|a|^{text(m)}",
                      rf"\sin(\omega \log a) = 0 \Rightarrow a = {sympy.latex(base)}^{{j}},\ c = "
                      rf"({sympy.latex(base_c)})^{{j}}",
                      "cos ωt and sin ωt are linearly independent; a translation acts on their span as a rotation "
                      "by ωs, which is a multiple of the identity only when sin ωs = 0", Status.THEOREM))
    result = {1: Bound(1, "discrete", base=base, base_c=base_c,
                       reason=f"a = {text(base)}^j with c = ({text(base_c)})^j")}
    det = _sign_of(a1 * b2 - b1 * a2)
    dot = a1 * a2 + b1 * b2
    if det == 0 and _sign_of(dot) in (1, -1):
        unit_c = sympy.simplify(dot / (a1**2 + b1**2))
        steps.append(Step("Rotation argument (a < 0)",
                          f"the two half-lines' vectors are parallel (ratio {text(unit_c)}), so a = −{text(base)}^j "
                          f"with c = {text(unit_c)}·({text(base_c)})^j",
                          rf"a = -{sympy.latex(base)}^{{j}},\ c = {sympy.latex(unit_c)}\,({sympy.latex(base_c)})^{{j}}",
                          "the same argument between σ(−e^(t+s)) and σ(e^t)", Status.THEOREM))
        result[-1] = Bound(-1, "discrete", base=base, base_c=base_c, unit_c=unit_c,
                           reason=f"a = −{text(base)}^j with c = {text(unit_c)}·({text(base_c)})^j")
    return result


# ---- combining --------------------------------------------------------------------------------

def _resolve(sign: int, relations: list[_Relation], unit: bool, discrete: Bound | None,
             steps: list[Step]) -> Bound:
    """The bound for the a of ``sign`` from the laws, the break points and the log-periodic form."""
    where = _SIGN[sign]

    def conclude(bound: Bound, statement: str, latex: str, why: str) -> Bound:
        steps.append(Step(f"Conclusion, {where}", statement, latex, why, Status.THEOREM))
        return bound

    for r in relations:
        if r.K == 0:
            return conclude(Bound(sign, "empty", reason=r.why), f"no a with {where} is in the group",
                            rf"\{{a : {where.replace('a ', '')}\}} \cap G = \emptyset",
                            f"{r.why}, but c ≠ 0 since σ is not identically 0")
    first = relations[0] if relations else None
    for other in relations[1:]:
        if other.k == first.k:
            if _sign_of(other.K - first.K) in (1, -1):
                return conclude(Bound(sign, "empty", reason=f"{first.why}; {other.why}"),
                                f"no a with {where} is in the group",
                                rf"{sympy.latex(first.K)} \neq {sympy.latex(other.K)}",
                                f"{first.why} and {other.why}: the constants differ")
            continue
        ratio = sympy.simplify(other.K / first.K)
        ratio_sign = _sign_of(ratio)
        if ratio_sign == -1:
            return conclude(Bound(sign, "empty", reason=f"{first.why}; {other.why}"),
                            f"no a with {where} is in the group",
                            rf"|a|^{{{sympy.latex(first.k - other.k)}}} = {sympy.latex(ratio)} < 0",
                            f"{first.why} and {other.why}: |a|^{text(first.k - other.k)} would be negative")
        if ratio_sign == 1:
            modulus = sympy.simplify(ratio ** (1 / sympy.Rational(first.k - other.k)))
            a0 = sign * modulus
            c0 = sympy.simplify(first.K * modulus ** first.k)
            return conclude(Bound(sign, "points", points=((a0, c0),), reason=f"{first.why}; {other.why}"),
                            f"at most a = {text(a0)} with c = {text(c0)}",
                            rf"|a|^{{{sympy.latex(first.k - other.k)}}} = {sympy.latex(ratio)} \Rightarrow a = {sympy.latex(a0)}",
                            f"{first.why} and {other.why}")
    if unit:
        c0 = None if first is None else first.K
        return conclude(Bound(sign, "points", points=((S(sign), c0),), reason="|a| = 1 (break points)"),
                        f"at most a = {sign}" + ("" if c0 is None else f" with c = {text(c0)}"),
                        rf"a = {sign}", "the break-point argument" + (f" and {first.why}" if first else ""))
    if discrete is not None:
        return conclude(discrete, f"{discrete.reason}, j ∈ Z", rf"a = \pm {sympy.latex(discrete.base)}^j",
                        "the log-periodic argument")
    if first is not None:
        law = Law(first.K, first.k)
        return conclude(Bound(sign, "law", law=law, reason=first.why),
                        f"every (a, c) with {where} in the group has c = {text(law.c(sign))}",
                        rf"c = {sympy.latex(law.c(sign))}", first.why)
    return Bound(sign, "open", reason=f"no argument bounds the a with {where}")
