"""The completeness certificate of a symmetry group: no pair (a, c) outside the proved members.

:func:`certify_complete` states the maximality arguments of :mod:`symcheck.engine.group.maximality`
as a ``complete`` claim the kernel re-proves (:mod:`symcheck.kernel.complete`, docs/certificates.md,
"Completeness"): the members' certificates, σ(z₀) ≠ 0, and for each sign of a one argument —
a family covering the half-line, the Taylor coefficients of σ's germs at 0, or the break points
of σ — with every candidate it leaves a listed member or refuted for every c. The emitter may
use SymPy and the engine freely (the pieces of σ, the germs in t^(1/q)); the kernel re-checks
all of it. Also stated: the log-periodic form (with phases, other frequencies, one side, a
power of the base), the log-derivative on a half-line, and for a < 0 the reflection, the other
half-line's frequencies, or the signs on the half-lines.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any

import sympy
from sympy import S

from symcheck.engine.certificate.emit import (
    EMIT_SECONDS,
    Certificate,
    Outcome,
    certify_zero,
    checked_outcome,
)
from symcheck.engine.certificate.points import point_json
from symcheck.engine.certificate.tree import (
    MINUS_ONE,
    Unsupported,
    sigma_tree,
    to_json,
    tree,
)
from symcheck.kernel.check import SCHEMA
from symcheck.kernel.complete import (
    analytic_on,
    coefficient_row,
    nth_derivative,
    taylor_bound,
)
from symcheck.kernel.evaluate import Unknown
from symcheck.kernel.points import parse_point
from symcheck.kernel.signs import as_poly, prove_sign
from symcheck.kernel.tree import Node, substitute
from symcheck.kernel.verdict import Reject

__all__ = ["certify_complete"]

_T = sympy.Symbol("t", real=True)
_TV = ("var", "t")
#: the radii tried for the germs' analyticity around 0, and the highest Taylor order read
_RADII = (Fraction(1, 2), Fraction(1, 8), Fraction(1, 64))
_POLYNOMIAL_ORDERS = 40


class _Gap(Exception):
    """The argument cannot be stated: a Rejection at stage emit."""


def certify_complete(sigma: Any, point: tuple, arguments: Any, members: list[tuple[str, dict]],
                     excluded: list[Any], halves: dict[int, str], *, budget: Any = None,
                     check_it: bool = True) -> Outcome:
    """``halves`` names each sign's argument ("family", "taylor", "breaks"); ``members`` are the
    accepted member certificates (what, JSON); ``excluded`` the engine's refuted candidates."""
    started = time.perf_counter()
    try:
        s = sigma_tree(sigma.expr, sympy.Symbol("z", real=True))
        cert = {"schema": SCHEMA, "about": {"statement": f"the symmetry group of σ = {sigma.name} is complete"},
                "claim": {"kind": "complete", "sigma": to_json(s)},
                "nonzero": _nonzero(s, point[0]),
                "members": [{"what": what, "certificate": data} for what, data in members],
                "refuted": [r for r in (_refuted(s, e, point[0]) for e in excluded) if r is not None],
                "halves": {name: {"by": halves[sign]} for name, sign in (("pos", 1), ("neg", -1))}}
        if any(kind not in ("family", "taylor", "breaks", "log-periodic", "reflection", "signs", "frequencies",
                                 "log-derivative")
               for kind in halves.values()):
            raise _Gap(f"no completeness certificate for the arguments {sorted(set(halves.values()))}")
        if halves[1] == "log-periodic":
            cert["log_periodic"] = _log_periodic(s, arguments.bounds[1], budget)
        if halves[1] == "log-derivative":
            cert["log_derivative"] = _log_derivative(s, arguments.bounds[1], budget)
        if halves[-1] == "frequencies":
            cert["frequencies"] = _frequencies(s, arguments.bounds[-1], budget)
        if halves[-1] == "signs":
            cert["signs"] = _signs(s, arguments.bounds[-1], budget)
        needed = [sign for sign, kind in halves.items() if kind == "taylor"]
        if needed:
            cert["germ"] = _germ(s, sigma, arguments.pieces, needed, budget, getattr(arguments, "orders", ()))
        if "breaks" in halves.values():
            cert["breaks"] = _breaks(s, arguments.pieces)
    except (_Gap, Unsupported, Reject, Unknown) as why:
        return checked_outcome(None, started, check_it, f"the completeness argument has no certificate: {why}")
    return checked_outcome(cert, started, check_it)


def _number(x: Any) -> Node:
    return tree(sympy.Rational(x))


def _nonzero(s: Node, z0: Any) -> dict:
    value = substitute(s, "z", _number(z0))
    return {"point": to_json(_number(z0)), "sign": _sign_of(value)}


def _sign_of(g: Node, box: dict | None = None) -> str:
    for sign in ("pos", "neg"):
        try:
            prove_sign(g, sign, box or {}, by="point")
            return sign
        except Reject:
            continue
    raise _Gap(f"no certified sign of {to_json(g)!s:.80}")


def _refuted(s: Node, exclusion: Any, z0: Any) -> dict | None:
    """σ(a₀z₁)·σ(z₀) − σ(a₀z₀)·σ(z₁) ≠ 0 at the engine's witness z₁ (or a grid point)."""
    from symcheck.engine.group.members import WITNESS_GRID
    a0 = exclusion.a
    if a0 is None or not sympy.sympify(a0).is_number or not exclusion.witness:
        return None
    witness = exclusion.witness.get("z")

    def at(x: Node) -> Node:
        return substitute(s, "z", x)

    a = tree(a0)
    for z1 in ([witness] if witness is not None else []) + list(WITNESS_GRID):
        if not sympy.sympify(z1).is_Rational or sympy.sympify(z1) == z0:
            continue
        n1, n2 = _number(z1), _number(z0)
        det = ("add", ("mul", at(("mul", a, n1)), at(n2)), ("mul", MINUS_ONE, at(("mul", a, n2)), at(n1)))
        try:
            sign = _sign_of(det)
        except _Gap:
            continue
        return {"a": to_json(a), "at": [to_json(n1), to_json(n2)], "sign": sign}
    return None


def _below(x: sympy.Expr) -> Fraction:
    """A rational r with 0 < r ≤ min(x, 1) (x > 0; the kernel re-checks what r is used for)."""
    r = Fraction(1)
    while r > Fraction(1, 2**40):
        if x is S.Infinity or bool(x >= sympy.Rational(r.numerator, r.denominator)):
            return r
        r /= 2
    raise _Gap("a piece next to 0 is too narrow")


def _resolve(node: Node, box: dict) -> Node:
    """σ's own tree with every piecewise and |x| decided on the box (the kernel's truth and
    sign arguments): the branch-free expression σ is there, written as σ's tree writes it."""
    from symcheck.kernel.check import Checker
    head = node[0]
    if head == "piecewise":
        checker = Checker()
        for value, cond in node[1:]:
            cond = _resolve_condition(cond, box)
            guess = _truth_at_a_point(cond, box)  # which truth to prove: a failed proof is the slow part
            for want in ((True, False) if guess is not False else (False, True)):
                try:
                    checker.truth(cond, want, box)
                except Reject:
                    continue
                if want:
                    return _resolve(value, box)
                break
            else:
                raise _Gap("a branch of σ is not decided next to 0 or between the cuts")
        raise _Gap("no branch of σ applies")
    if head == "abs":
        inner = _resolve(node[1], box)
        for claim, out in (("nonneg", inner), ("nonpos", ("mul", MINUS_ONE, inner))):
            try:
                prove_sign(inner, claim, box)
                return out
            except Reject:
                continue
        raise _Gap("an absolute value in σ has no one sign")
    if head in ("int", "rat", "var", "const"):
        return node
    return (head, *(_resolve(a, box) for a in node[1:]))


def _truth_at_a_point(cond: Node, box: dict) -> bool | None:
    """The condition's truth at one rational inside the box (a guess; nothing rests on it)."""
    from symcheck.kernel.evaluate import exact_truth
    from symcheck.kernel.points import between
    try:
        point = {v: between(r[1], r[2]) if r[0] == "open" else r[1].rational for v, r in box.items()}
        return None if None in point.values() else exact_truth(cond, point)
    except Reject:
        return None


def _resolve_condition(cond: Node, box: dict) -> Node:
    if cond[0] in ("true", "false"):
        return cond
    if cond[0] in ("and", "or", "not"):
        return (cond[0], *(_resolve_condition(c, box) for c in cond[1:]))
    return (cond[0], _resolve(cond[1], box), _resolve(cond[2], box))


def _zero_proof(expr: Node, var: str, region: list | None, budget: Any) -> dict:
    """The proof of a germ, piece or log-periodic form. No wall-clock limit of its own: a slow
    (loaded) machine must not turn a catalogue group partial. The emitter's work is bounded
    (pieces and steps per piece), and a group is built inside its budget's step, whose alarm
    interrupts this too; without a budget the default limit applies."""
    seconds = EMIT_SECONDS if budget is None else None
    outcome = certify_zero(expr, {var: [region] if region else []}, check_it=False, seconds=seconds)
    if not isinstance(outcome, Certificate):
        raise _Gap(str(outcome))
    return outcome.data["proof"]


def _germ(s: Node, sigma: Any, pieces: Any, needed: list[int], budget: Any, proposed: tuple = ()) -> dict:
    from symcheck.engine.group.maximality import root_order
    q, two_sided = 1, False
    if pieces is None:
        two_sided, r = True, Fraction(1)
    else:
        around = next((p for p in pieces if not p.region.is_point and p.branch_free
                       and bool(p.region.lower < 0) and bool(p.region.upper > 0)), None)
        if around is not None:
            two_sided = True
            r = min(_below(-around.region.lower), _below(around.region.upper))
        else:
            right = next((p for p in pieces if p.region.lower == 0 and not p.region.is_point and p.branch_free), None)
            left = next((p for p in pieces if p.region.upper == 0 and not p.region.is_point and p.branch_free), None)
            if right is None or left is None:
                raise _Gap("σ has no single branch on each side of 0")
            r = min(_below(right.region.upper), _below(-left.region.lower))
            q = math.lcm(root_order(right.expr), root_order(left.expr))
            if q != 1:
                raise _Gap(f"no germ of σ in t = |z|^(1/{q}) is stated")
    power = _TV if q == 1 else ("pow", _TV, ("int", q))
    args = {"plus": power, "minus": ("mul", MINUS_ONE, power)}
    lower = _number(-r) if two_sided else ("int", 0)
    region = ["open", to_json(lower), to_json(_number(r))]
    box = {"t": ("open", parse_point(region[1]), parse_point(region[2]))}
    trees = {name: _resolve(substitute(s, "z", args[name]), box) for name in (["plus"] if two_sided else args)}
    polynomial = all(as_poly(g, "t") is not None for g in trees.values())
    germ: dict = {"q": q, "two_sided": two_sided, "r": to_json(_number(r))}
    for name, g in trees.items():
        expr = ("add", substitute(s, "z", args[name]), ("mul", MINUS_ONE, g))
        germ[name] = {"expr": to_json(g), "proof": _zero_proof(expr, "t", region, budget)}
    for rho in _RADII:
        box = {"t": ("open", parse_point(to_json(_number(-rho))), parse_point(to_json(_number(rho))))}
        try:
            for g in trees.values():
                analytic_on(g, box)
        except Reject:
            continue
        germ["rho"] = to_json(_number(rho))
        break
    else:
        raise _Gap("a germ of σ at 0 is not analytic on any radius tried")
    germ["orders"] = _orders(trees["plus"], trees.get("minus"), needed, polynomial, proposed if q == 1 else ())
    return germ


def _orders(plus: Node, minus: Node | None, needed: list[int], polynomial: bool,
            proposed: tuple = ()) -> list[int]:
    """The fewest orders whose rows bound each needed half (the kernel's own rows and rule); the
    engine's non-zero orders are tried first (a high derivative is costly: each row is computed
    from the germ, so a scan of every order up to it repeats the work)."""
    rows = []
    for j in sorted(proposed)[:8]:  # the fewest, lowest first
        rows.append(coefficient_row(plus, minus, j))
        chosen = _chosen(rows, needed)
        if chosen is not None:
            return chosen
    rows = []
    from symcheck.engine.group.facts import TAYLOR_CAP
    for j in range(_POLYNOMIAL_ORDERS + 1 if polynomial else TAYLOR_CAP + 1):
        rows.append(coefficient_row(plus, minus, j))
        chosen = _chosen(rows, needed)
        if chosen is not None:
            return chosen
    raise _Gap(f"the Taylor coefficients up to order {len(rows) - 1} bound no half")


def _chosen(rows: list[tuple], needed: list[int]) -> list[int] | None:
    picked: set[int] = set()
    for sign in needed:
        if sign == 1:
            used = [row for row in rows if "nonzero" in (row[1], row[2])][:2]
        else:
            decisive = [row for row in rows if {row[1], row[2]} == {"zero", "nonzero"}
                        or (row[1] == row[2] == "nonzero" and row[3] == "differ")]
            used = decisive[:1] or [row for row in rows if row[1] == row[2] == "nonzero" and row[3] in (1, -1)][:2]
        try:
            taylor_bound(sign, used)
        except Reject:
            return None
        picked |= {row[0] for row in used}
    return sorted(picked)


def _log_periodic(s: Node, bound: Any, budget: Any) -> dict:
    """σ(side·e^t) = e^(mt)·Σ (α cos(ωt + φ) + β sin(ωt + φ)), ω·log B = ±n·π for the generator
    B, and each lower power e^(kπ/ω), 0 < k < n, refuted at two rationals."""
    side, (m, harmonics), chosen = bound.form
    ordered = [harmonics[chosen]] + [h for i, h in enumerate(harmonics) if i != chosen]  # as the kernel builds it
    expr = _form(s, side, m, ordered)
    omega = harmonics[chosen][0]
    base, n = tree(bound.base), bound.power
    sign = 1 if bool(omega > 0) else -1
    claim = ("add", ("mul", tree(omega), ("log", base)), ("mul", ("int", -sign * n), ("const", "pi")))
    outcome = certify_zero(claim, {}, check_it=False)
    if not isinstance(outcome, Certificate):
        raise _Gap(f"ω·log B = ±n·π: {outcome}")
    out = {"m": to_json(tree(m)), **_harmonic(harmonics[chosen]),
           "proof": _zero_proof(expr, "t", None, budget), "base": to_json(base), "sign": sign,
           "base_proof": outcome.data["proof"]}
    others = [_harmonic(h) for h in ordered[1:]]
    if others:
        out["others"] = others
    if side != 1:
        out["side"] = side
    if n != 1:
        w = tree(omega)
        out["power"] = n
        out["powers_refuted"] = [_determinant(s, ("exp", ("mul", ("int", k), ("const", "pi"), ("pow", w, MINUS_ONE))))
                                 for k in range(1, n)]
    return out


def _harmonic(h: tuple) -> dict:
    omega, phase, alpha, beta = h
    out = {"omega": to_json(tree(omega)), "alpha": to_json(tree(alpha)), "beta": to_json(tree(beta))}
    if phase != 0:
        out["phase"] = to_json(tree(phase))
    return out


def _form(s: Node, side: int, m: Any, harmonics: list) -> Node:
    """σ(side·e^t) − e^(mt)·Σ (α cos(ωt + φ) + β sin(ωt + φ)), the harmonics in the order given."""
    waves = []
    for omega, phase, alpha, beta in harmonics:
        arg = ("mul", tree(omega), _TV) if phase == 0 else ("add", ("mul", tree(omega), _TV), tree(phase))
        waves += [("mul", tree(alpha), ("cos", arg)), ("mul", tree(beta), ("sin", arg))]
    at = ("exp", _TV) if side == 1 else ("mul", MINUS_ONE, ("exp", _TV))
    return ("add", substitute(s, "z", at), ("mul", MINUS_ONE, ("mul", ("exp", ("mul", tree(m), _TV)), ("add", *waves))))


def _frequencies(s: Node, bound: Any, budget: Any) -> dict:
    """The other half-line's form (no harmonic of the chosen frequency, or another growth)."""
    side, (m, harmonics) = bound.form
    return {"m": to_json(tree(m)), "harmonics": [_harmonic(h) for h in harmonics],
            "proof": _zero_proof(_form(s, side, m, list(harmonics)), "t", None, budget)}


def _determinant(s: Node, a: Node) -> dict:
    """Two rationals where σ(a·z₁)·σ(z₂) − σ(a·z₂)·σ(z₁) has a certified sign (a in no pair of G)."""
    from symcheck.engine.group.members import WITNESS_GRID

    def at(x: Node) -> Node:
        return substitute(s, "z", x)

    for z1 in WITNESS_GRID:
        for z2 in WITNESS_GRID:
            if z1 == z2:
                continue
            n1, n2 = _number(z1), _number(z2)
            det = ("add", ("mul", at(("mul", a, n1)), at(n2)), ("mul", MINUS_ONE, at(("mul", a, n2)), at(n1)))
            try:
                return {"at": [to_json(n1), to_json(n2)], "sign": _sign_of(det)}
            except (_Gap, Unknown):
                continue
    raise _Gap(f"no refutation of a = {to_json(a)!s:.60} at the grid's points")


def _half_region(side: int) -> list:
    return ["open", "-inf", ["int", 0]] if side == -1 else ["open", ["int", 0], "inf"]


def _log_derivative(s: Node, bound: Any, budget: Any) -> dict:
    """σ = F on a half-line, F of one sign, and z·F′ = H·F there with H strictly monotone."""
    side, f, h, sign, slope = bound.form
    ft, ht, region = tree(f), tree(h), _half_region(side)
    zero = ("add", ("mul", ("var", "z"), nth_derivative(ft, 1, "z")), ("mul", MINUS_ONE, ht, ft))
    return {"side": side, "sign": sign, "slope": slope,
            "piece": {"expr": to_json(ft),
                      "proof": _zero_proof(("add", s, ("mul", MINUS_ONE, ft)), "z", region, budget)},
            "h": {"expr": to_json(ht), "proof": _zero_proof(zero, "z", region, budget)}}


def _signs(s: Node, bound: Any, budget: Any) -> dict:
    """σ = F of one strict sign on a half-line, and a sign change of σ on the other."""
    side, piece, sign, change = bound.form
    f = tree(piece)
    region = _half_region(side)
    proof = _zero_proof(("add", s, ("mul", MINUS_ONE, f)), "z", region, budget)
    return {"side": side, "piece": {"expr": to_json(f), "proof": proof}, "sign": sign,
            "change": [to_json(_number(x)) for x in change]}


def _breaks(s: Node, pieces: Any) -> dict:
    if not pieces:
        raise _Gap("σ has no pieces")
    opens = [p for p in pieces if not p.region.is_point]
    cuts = [p.region.upper for p in opens[:-1]]
    if any(not p.branch_free for p in opens):
        raise _Gap("a piece of σ keeps a branch")
    raw = ["-inf", *(point_json(c) for c in cuts), "inf"]
    exprs, out = [], []
    for i in range(len(opens)):
        region = ["open", raw[i], raw[i + 1]]
        f = _resolve(s, {"z": ("open", parse_point(raw[i]), parse_point(raw[i + 1]))})
        out.append({"expr": to_json(f), "proof": _zero_proof(("add", s, ("mul", MINUS_ONE, f)), "z", region, None)})
        exprs.append(f)
    for k, c in enumerate(cuts):
        if c == 0:
            continue
        p = parse_point(point_json(c), infinite=False)
        for j in range(4):
            gap = ("add", nth_derivative(exprs[k + 1], j, "z"), ("mul", MINUS_ONE, nth_derivative(exprs[k], j, "z")))
            try:
                prove_sign(gap, "nonzero", {"z": ("point", p)}, by="point")
            except Reject:
                continue
            around = _around(p, exprs[k], exprs[k + 1])
            if around is not None:
                return {"cuts": raw[1:-1], "pieces": out, "jump": {"cut": k, "order": j, "around": around}}
    raise _Gap("no derivative of σ is certified to jump at a cut other than 0")


def _around(p: Any, left: Node, right: Node) -> list | None:
    p.ball(64)
    for k in range(1, 12):
        lo, hi = p.lo - Fraction(1, 2**k), p.hi + Fraction(1, 2**k)
        box = {"z": ("open", parse_point(to_json(_number(lo))), parse_point(to_json(_number(hi))))}
        try:
            analytic_on(left, box)
            analytic_on(right, box)
        except Reject:
            continue
        return [to_json(_number(lo)), to_json(_number(hi))]
    return None

