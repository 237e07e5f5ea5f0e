"""Why no other pair (a, c) is in the symmetry group of σ: the maximality arguments.

G = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}. Each argument below uses only certified
facts about σ (values and Taylor coefficients certified non-zero by exact or ball arithmetic,
or exactly zero) and a stated theorem, and bounds the a of one sign:

* **value at a point**: σ(z₀) ≠ 0 gives c = σ(a·z₀)/σ(z₀); in particular c ≠ 0 (else σ ≡ 0);
* **Taylor coefficients at 0** (σ analytic there, or each one-sided branch σ₊, σ₋ analytic at 0):
  σ(a·z) = c·σ(z) near 0 compares coefficients; for a > 0, p_k a^k = c·p_k; for a < 0,
  n_k a^k = c·p_k and p_k a^k = c·n_k. A non-zero coefficient gives a law c = K·|a|^k;
  two laws with different powers leave one |a|; a law with K = 0 is impossible;
* **break points** and **the log-periodic form** (:mod:`symcheck.engine.group.breaks`).

:func:`bounds` returns, for a > 0 and a < 0, what the arguments leave: nothing, finitely many
candidates, a law c = K·|a|^k on the whole half-line, a discrete set, or no bound at all.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import sympy
from sympy import S

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError, Undecided
from symcheck.core.formula import (
    Abbreviated,
    Abs,
    Formula,
    Indexed,
    Intersection,
    Lines,
    Neg,
    Power,
    Rel,
    Relation,
    SetBuilder,
)
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.engine.group.breaks import break_points, log_periodic, other_side
from symcheck.engine.group.facts import (
    ORDER,
    TAYLOR_CAP,
    Bound,
    BoundKind,
    C,
    G,
    Law,
    analytic,
    certified_sign,
    coefficients,
    exact_form,
)
from symcheck.engine.zero import prove_identically_zero
from symcheck.exact.regions import Region, split
from symcheck.exact.signs import at_point
from symcheck.language.activations import Activation
from symcheck.language.symbols import A, Z, sigma_at

__all__ = ["Arguments", "bounds"]

#: the highest degree whose every coefficient is read when the branches are polynomials
POLYNOMIAL_DEGREE = 40
_BRANCHING = (sympy.Piecewise, sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside)
_SIGN = {1: "a > 0", -1: "a < 0"}
#: the relation to 0 of the a in ``_SIGN``
_REL = {1: Rel.GT, -1: Rel.LT}
#: the index of a power base^j
_J = sympy.Symbol("j")


@dataclass(frozen=True)
class Arguments:
    """The maximality arguments' steps and the bound they give for each sign of a."""

    steps: tuple[Step, ...]
    bounds: dict[int, Bound] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    #: σ split into branch-free pieces (None when σ has no branches or could not be split), for
    #: the completeness certificate (:mod:`symcheck.engine.certificate.complete`)
    pieces: tuple | None = None
    #: the Taylor orders whose coefficient the engine certified non-zero (the emitter tries them first)
    orders: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Relation:
    K: sympy.Expr
    k: sympy.Rational
    why: str


# ---- the arguments ----------------------------------------------------------------------------

def bounds(sigma: Activation, value_point: tuple[sympy.Rational, sympy.Expr] | None,
           budget: Budget) -> Arguments:
    """Apply every argument that fits σ and combine what each says about a > 0 and a < 0."""
    steps: list[Step] = []
    relations: dict[int, list[_Relation]] = {1: [], -1: []}
    missing: list[str] = []
    pieces = None
    orders: set[int] = set()
    try:
        if sigma.expr.has(*_BRANCHING):
            with budget.step():
                pieces = split(sigma.expr, Z, budget)
    except (Undecided, BudgetExceeded) as why:
        missing.append(f"the branches of σ could not be split into pieces ({why or 'time budget'})")
    try:
        _at_zero(sigma, pieces, budget, relations, steps, missing, orders)
    except BudgetExceeded:
        missing.append("the time budget ran out while computing Taylor coefficients")
    unit = False
    discrete: dict[int, Bound] = {}
    if pieces is not None:
        try:
            unit = break_points(pieces, budget, steps, missing)
            if not unit:
                discrete = log_periodic(pieces, budget, steps)
        except BudgetExceeded:
            missing.append("the time budget ran out in the break-point argument")
    result = {s: _resolve(s, relations[s], unit, discrete.get(s), steps) for s in (1, -1)}
    if result[1].kind is BoundKind.OPEN:
        with budget.step():
            result[1] = log_derivative(sigma, pieces, steps) or result[1]
    if result[-1].kind is BoundKind.OPEN and pieces is not None:
        with budget.step():
            powers = result[1].kind is BoundKind.DISCRETE
            result[-1] = ((other_side(pieces, result[1], budget, steps) if powers else None)
                          or opposite_signs(sigma, pieces, steps) or result[-1])
    return Arguments(tuple(steps), result, tuple(missing), None if pieces is None else tuple(pieces),
                     tuple(sorted(orders)))


def _at_zero(sigma: Activation, pieces, budget: Budget, relations: dict[int, list[_Relation]],
             steps: list[Step], missing: list[str], orders: set[int]) -> None:
    """Relations c = K·|a|^k from σ(0) and from the Taylor coefficients at 0 (one-sided if need be);
    ``orders`` receives the orders with a coefficient certified non-zero."""
    zero_sign = certified_sign(at_point(sigma.expr, Z, S.Zero))
    if zero_sign in (1, -1):
        for s in (1, -1):
            relations[s].append(_Relation(S.One, S.Zero, "σ(0) ≠ 0 and σ(0) = c·σ(0)"))
        steps.append(Step("Value at 0", f"σ(0) = {text(at_point(sigma.expr, Z, S.Zero))} ≠ 0",
                          Relation(Rel.NE, Relation(Rel.EQ, sigma_at(S.Zero), at_point(sigma.expr, Z, S.Zero)), S.Zero),
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
    q = math.lcm(root_order(right), root_order(left))
    with budget.step():
        plus, minus = _germ(right, 1, q, budget), _germ(left, -1, q, budget)
    if plus is None or minus is None:
        missing.append("σ is not analytic at 0 in z^(1/q) on each side (no Taylor argument)")
        return
    order = min(ORDER * q, 2 * ORDER)
    if plus.is_polynomial(Z) and minus.is_polynomial(Z):  # every coefficient, up to the degree
        order = max(order, min(POLYNOMIAL_DEGREE, max(sympy.degree(plus, Z), sympy.degree(minus, Z))))
    while True:  # orders as far as needed: two with a non-zero coefficient, up to TAYLOR_CAP
        p = coefficients(plus, S.Zero, budget, order)
        if one_sided or q != 1:
            m = coefficients(minus, S.Zero, budget, order)
        else:  # σ(−s) = Σ (−1)^k·s_k·s^k
            m = [(j, (-1) ** j * v, None if sign is None else (-1) ** j * sign) for j, v, sign in p]
        found = {j for (j, _, ps), (_, _, ms) in zip(p, m, strict=False) if ps or ms}
        orders |= found
        if len(found) >= 2 or order >= TAYLOR_CAP:
            break
        order = min(TAYLOR_CAP, 2 * order)
    if not one_sided:  # σ analytic: m_k = (−1)^k·s_k, shown as the s_k
        shown = [("s", k, v) for k, v, sign in p if sign]
    else:
        shown = [("p", k, v) for k, v, sign in p if sign] + [("m", k, v) for k, v, sign in m if sign]
    if len(found) < 2 and not (plus.is_polynomial(Z) and minus.is_polynomial(Z)):
        missing.append(f"fewer than two Taylor coefficients at 0 are certified non-zero up to order {order} "
                       f"(the cap is {TAYLOR_CAP})")
    if not shown:
        missing.append(f"no Taylor coefficient at 0 up to order {order} is certified non-zero")
        return
    variable = "s" if q == 1 else f"s^(1/{q})"
    if one_sided:
        steps.append(Step("One-sided branches", f"σ₊(z) = {text(right)} for small z > 0, σ₋(z) = {text(left)} "
                          "for small z < 0", Lines((Relation(Rel.EQ, sigma_at(Z, 1), Abbreviated(right)),
                                                    Relation(Rel.EQ, sigma_at(Z, -1), Abbreviated(left)))),
                          f"the pieces of σ next to 0; σ₊(s) = Σ p_k·{variable}^k and σ₋(−s) = Σ m_k·{variable}^k "
                          "for small s > 0, each series convergent", Status.VERIFIED))
    listed = ", ".join(f"{name}_{k} = {text(v)} ≠ 0" for name, k, v in shown)
    steps.append(Step("Taylor coefficients", listed + f" (orders 0…{order}; the others are 0 or undecided)",
                      Lines(tuple(Relation(Rel.EQ, Indexed(sympy.Symbol(name), k), Abbreviated(v))
                                  for name, k, v in shown)),
                      "each non-zero coefficient certified by exact or ball arithmetic", Status.CERTIFIED))
    pn, mn = ("s", "s") if not one_sided else ("p", "m")
    for (j, pj, ps), (_, mj, ms) in zip(p, m, strict=False):
        k = sympy.Rational(j, q)
        power = f"|a|^{text(k)}"
        if ps:
            relations[1].append(_Relation(S.One, k, f"{pn}_{j} ≠ 0: c = {power}"))
        elif ms:
            relations[1].append(_Relation(S.One, k, f"{mn}_{j} ≠ 0: c = {power}"))
        # a < 0, b = |a|: z > 0 gives m_j·b^k = c·p_j, z < 0 gives p_j·b^k = c·m_j
        if ps and ms is not None:
            K = S.Zero if ms == 0 else exact_form(mj / pj)
            why = (f"s_{j}·a^{j} = c·s_{j}: c = {text(K)}·{power}" if not one_sided else
                   f"{mn}_{j}·{power} = c·{pn}_{j}: c = {text(K)}·{power}")
            relations[-1].append(_Relation(K, k, why))
        if one_sided and ms and ps is not None:
            K = S.Zero if ps == 0 else exact_form(pj / mj)
            relations[-1].append(_Relation(K, k, f"{pn}_{j}·{power} = c·{mn}_{j}: c = {text(K)}·{power}"))


def root_order(expr: sympy.Expr) -> int:
    """The least q such that every root of a base vanishing at 0 has an exponent in Z/q."""
    q = 1
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Pow) and Z in node.base.free_symbols and node.exp.is_Rational \
                and not node.exp.is_Integer and certified_sign(node.base.xreplace({Z: S.Zero})) == 0:
            q = math.lcm(q, int(node.exp.q))  # a root of a base that vanishes at 0
    return q


def _germ(branch: sympy.Expr, side: int, q: int, budget: Budget) -> sympy.Expr | None:
    """The branch at z = side·t^q (t > 0) as an expression in z analytic at 0, or None.

    For q > 1 SymPy's ``simplify`` proposes the expression in t; it is used only when
    branch(side·t^q) = germ(t) for every t > 0 is proved by the one-variable zero prover."""
    if q == 1:
        germ = branch.xreplace({Z: side * Z})
    else:
        root = sympy.Symbol("t", positive=True)
        germ = sympy.simplify(branch.xreplace({Z: side * root**q})).xreplace({root: Z})
        s = sympy.Dummy("s", real=True)
        difference = branch.xreplace({Z: side * s**q}) - germ.xreplace({Z: s})
        if prove_identically_zero(difference, s, Region(S.Zero, S.Infinity), budget) is None:
            return None
    return germ if analytic(germ, S.Zero) else None


# ---- combining --------------------------------------------------------------------------------

def _resolve(sign: int, relations: list[_Relation], unit: bool, discrete: Bound | None,
             steps: list[Step]) -> Bound:
    """The bound for the a of ``sign`` from the laws, the break points and the log-periodic form."""
    where = _SIGN[sign]

    def conclude(bound: Bound, statement: str, formula: Formula, why: str) -> Bound:
        steps.append(Step(f"Conclusion, {where}", statement, formula, why, Status.THEOREM))
        return bound

    for r in relations:
        if r.K == 0:
            return conclude(Bound(sign, BoundKind.EMPTY, reason=r.why), f"no a with {where} is in the group",
                            Relation(Rel.EQ, Intersection(SetBuilder(A, Relation(_REL[sign], A, S.Zero)), G),
                                     S.EmptySet),
                            f"{r.why}, but c ≠ 0 since σ is not identically 0")
    first = relations[0] if relations else None
    if first is not None:  # each further relation against the first
        for other in relations[1:]:
            if other.k == first.k:
                if certified_sign(other.K - first.K) in (1, -1):
                    return conclude(Bound(sign, BoundKind.EMPTY, reason=f"{first.why}; {other.why}"),
                                    f"no a with {where} is in the group",
                                    Relation(Rel.NE, first.K, other.K),
                                    f"{first.why} and {other.why}: the constants differ")
                continue
            ratio = exact_form(other.K / first.K)
            ratio_sign = certified_sign(ratio)
            if ratio_sign == -1:
                return conclude(Bound(sign, BoundKind.EMPTY, reason=f"{first.why}; {other.why}"),
                                f"no a with {where} is in the group",
                                Relation(Rel.LT, Relation(Rel.EQ, Power(Abs(A), first.k - other.k), ratio), S.Zero),
                                f"{first.why} and {other.why}: |a|^{text(first.k - other.k)} would be negative")
            if ratio_sign == 1:
                modulus = exact_form(ratio ** (1 / sympy.Rational(first.k - other.k)))
                a0 = sign * modulus
                c0 = exact_form(first.K * modulus ** first.k)
                return conclude(Bound(sign, BoundKind.POINTS, points=((a0, c0),), reason=f"{first.why}; {other.why}"),
                                f"at most a = {text(a0)} with c = {text(c0)}",
                                Relation(Rel.IMPLIES, Relation(Rel.EQ, Power(Abs(A), first.k - other.k), ratio),
                                         Relation(Rel.EQ, A, a0)),
                                f"{first.why} and {other.why}")
    if unit:
        c0 = None if first is None else first.K
        return conclude(Bound(sign, BoundKind.POINTS, points=((S(sign), c0),), reason="|a| = 1 (break points)"),
                        f"at most a = {sign}" + ("" if c0 is None else f" with c = {text(c0)}"),
                        Relation(Rel.EQ, A, S(sign)),
                        "the break-point argument" + (f" and {first.why}" if first else ""))
    if discrete is not None:
        return conclude(discrete, f"{discrete.reason}, j ∈ Z",
                        Relation(Rel.EQ, A, _signed(sign, Power(discrete.base, _J, bare_exponent=True))),
                        "the log-periodic argument")
    if first is not None:
        law = Law(first.K, first.k)
        return conclude(Bound(sign, BoundKind.LAW, law=law, reason=first.why),
                        f"every (a, c) with {where} in the group has c = {text(law.c(sign))}",
                        Relation(Rel.EQ, C, law.c(sign)), first.why)
    return Bound(sign, BoundKind.OPEN, reason=f"no argument bounds the a with {where}")


def _signed(sign: int, power: Formula) -> Formula:
    """A conclusion for one sign of a: the powers themselves for a > 0, their negatives for a < 0."""
    return power if sign == 1 else Neg(power)


# ---- one strict sign on a half-line -----------------------------------------------------------

#: the rationals tried for a sign change of σ on a half-line (times ±1)
_CHANGE_GRID = tuple(sorted({sympy.Rational(j, 8) for j in range(1, 81)}
                            | {sympy.Rational(1, j) for j in range(2, 17)}))


def opposite_signs(sigma: Activation, pieces, steps: list[Step]) -> Bound | None:
    """No a < 0 when σ has one strict sign on a whole half-line and changes sign on the other:
    σ(a·z₁) = c·σ(z₁) and σ(a·z₂) = c·σ(z₂) would have opposite signs on the first half-line.
    The sign on the half-line is the proof kernel's (its sign arguments on the open half-line)."""
    from symcheck.engine.certificate.tree import Unsupported, tree
    from symcheck.kernel.evaluate import Unknown
    from symcheck.kernel.points import INF, NEG_INF, rational_point
    from symcheck.kernel.signs import prove_sign
    from symcheck.kernel.verdict import Reject
    for side in (-1, 1):
        piece = next((p for p in pieces if not p.region.is_point and p.branch_free
                      and (p.region.lower, p.region.upper) == ((-S.Infinity, S.Zero) if side == -1
                                                               else (S.Zero, S.Infinity))), None)
        if piece is None:
            continue
        zero = rational_point(Fraction(0))
        box = {"z": ("open", NEG_INF, zero) if side == -1 else ("open", zero, INF)}
        strict = "zero" if piece.expr == 0 else None
        for claim in ("pos", "neg") if strict is None else ():
            try:
                prove_sign(tree(piece.expr), claim, box)
                strict = claim
                break
            except (Reject, Unknown, Unsupported):
                continue
        if strict is None:
            continue
        found: dict[int, sympy.Rational] = {}
        for x in _CHANGE_GRID:
            try:
                sign = certified_sign(at_point(sigma.expr, Z, -side * x))
            except (EvaluationError, Undecided, TypeError, ValueError):
                continue
            if sign in (1, -1) and sign not in found:
                found[sign] = -side * x
            if len(found) == 2 or (found and strict == "zero"):
                break
        where = "z < 0" if side == -1 else "z > 0"
        change: tuple[sympy.Rational, ...]  # the points where σ is non-zero, of each sign
        if strict == "zero" and found:
            change = (next(iter(found.values())),)
            reason = f"σ = 0 on {where}, and σ({text(change[0])}) ≠ 0"
        elif strict != "zero" and len(found) == 2:
            change = (found[1], found[-1])
            reason = (f"σ = {text(piece.expr)} is {'positive' if strict == 'pos' else 'negative'} on {where}, and "
                      f"σ({text(change[0])}) > 0 > σ({text(change[1])})")
        else:
            continue
        steps.append(Step("Conclusion, a < 0", "no a < 0 is in the group",
                          Relation(Rel.EQ, Intersection(SetBuilder(A, Relation(Rel.LT, A, S.Zero)), G), S.EmptySet),
                          f"{reason}: an a < 0 maps these points into {where}, where σ(a·z₁) = c·σ(z₁) " +
                          ("would make c = 0" if strict == "zero" else
                           "and σ(a·z₂) = c·σ(z₂) would have opposite signs"), Status.THEOREM))
        return Bound(-1, BoundKind.EMPTY, reason=reason, form=(side, piece.expr, strict, change), by="signs")
    return None


# ---- the log-derivative on a half-line --------------------------------------------------------

def _half_piece(sigma: Activation, pieces, side: int):
    """The branch-free expression σ is on the whole open half-line of ``side``, or None."""
    if pieces is None:
        return None if sigma.expr.has(*_BRANCHING) else sigma.expr
    return next((p.expr for p in pieces if not p.region.is_point and p.branch_free
                 and (p.region.lower, p.region.upper) == ((-S.Infinity, S.Zero) if side == -1 else
                                                          (S.Zero, S.Infinity))), None)


def log_derivative(sigma: Activation, pieces, steps: list[Step]) -> Bound | None:
    """At most a = 1 for a > 0 when, on a half-line, σ = F is analytic of one strict sign and
    H = z·F′/F is strictly monotone: σ(a·z) = c·σ(z) there gives H(a·z) = H(z). Every fact is the
    proof kernel's (its sign arguments on the open half-line, its derivative, a zero proof of
    z·F′ = H·F); SymPy only proposes H."""
    from symcheck.engine.certificate.emit import Certificate, certify_zero
    from symcheck.engine.certificate.tree import Unsupported, tree
    from symcheck.kernel.complete import analytic_on, half_line, nth_derivative
    from symcheck.kernel.evaluate import Unknown
    from symcheck.kernel.signs import prove_sign
    from symcheck.kernel.verdict import Reject

    def sign_of(g, box) -> str | None:
        for claim in ("pos", "neg"):
            try:
                prove_sign(g, claim, box)
                return claim
            except (Reject, Unknown):
                continue
        return None

    for side in (1, -1):
        f = _half_piece(sigma, pieces, side)
        if f is None or Z not in f.free_symbols:
            continue
        raw, box = half_line(side)
        try:
            ft = tree(f)
            analytic_on(ft, box)
            sign = sign_of(ft, box)
            if sign is None:
                continue
            h = sympy.simplify(Z * sympy.diff(f, Z) / f)
            ht = tree(h)
            analytic_on(ht, box)
            slope = sign_of(nth_derivative(ht, 1, "z"), box)
            if slope is None:
                continue
            zero = ("add", ("mul", ("var", "z"), nth_derivative(ft, 1, "z")), ("mul", ("int", -1), ht, ft))
            proof = certify_zero(zero, {Z: [raw]})
        except (Reject, Unknown, Unsupported):
            continue
        if not isinstance(proof, Certificate):
            continue
        where = "z > 0" if side == 1 else "z < 0"
        reason = (f"on {where}, σ = {text(f)} ≠ 0 and z·σ′/σ = {text(h)} is strictly "
                  f"{'increasing' if slope == 'pos' else 'decreasing'}")
        steps.append(Step("Log-derivative", f"z·σ′(z)/σ(z) = {text(h)} on {where}, strictly "
                          f"{'increasing' if slope == 'pos' else 'decreasing'}",
                          Relation(Rel.EQ, A, S.One),
                          f"{reason}; a > 0 maps {where} onto itself, and σ(a·z) = c·σ(z) differentiated "
                          "and divided by itself gives H(a·z) = H(z), so a·z = z: a = 1", Status.THEOREM))
        return Bound(1, BoundKind.POINTS, points=((S.One, S.One),), reason=reason, form=(side, f, h, sign, slope),
                     by="log-derivative")
    return None
