"""Proofs of ``nonzero-region`` claims: g(θ) ≠ 0 for every θ in a region of the parameters.

g is the claim's expression with the probe substituted (as the kernel substitutes it). The
proof is a leaf ending in a strict sign proved by one of the kernel's sign arguments (tried
here with the kernel's own :func:`~symcheck.kernel.signs.prove_sign`, so the emitter proposes
only what the kernel will re-prove), or, for one parameter, a split of its region:

* an unbounded region is cut at a rational c into a bounded part and a tail beyond c (the
  ``bounds`` argument: interval arithmetic with the limits at ±∞), c tried further out in turn;
* a bounded region a leaf cannot settle is cut at a rational inside it, each part proved
  again (an end where g → 0 needs ``monotone`` on its own piece), to a fixed depth.

The cut points are rationals, and a cut point is a piece of its own: g's sign there by ``point``.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from functools import partial

from flint import fmpq

from symcheck.engine.certificate.emit import cut_at
from symcheck.engine.certificate.rewrite import (
    Leaf,
    NeedAlternatives,
    NeedChange,
    NeedSplit,
    Stuck,
    constant_factor,
    factored,
    polynomial_over_generators,
    polynomial_tree,
    scaled_product,
)
from symcheck.engine.certificate.tree import number
from symcheck.kernel.check import region_from
from symcheck.kernel.points import INF, NEG_INF, Point, between, rational_point
from symcheck.kernel.signs import prove_sign
from symcheck.kernel.tree import Node, free_vars, get, to_json, walk
from symcheck.kernel.verdict import Reject

__all__ = ["TAIL_STARTS", "region_proof"]

#: how far beyond a finite end the tail starts, tried in turn
TAIL_STARTS = (1, 8, 64)
#: bisections of a bounded region a leaf cannot settle
MAX_DEPTH = 3


class _OutOfTime(Exception):
    pass


def region_proof(g: Node, regions: dict[str, list], seconds: float = 10.0) -> dict | None:
    """A proof node for the claim "g ≠ 0 on the box" (JSON regions by variable), or None."""
    deadline = time.perf_counter() + seconds
    try:
        return _node(g, regions, MAX_DEPTH, deadline)
    except _OutOfTime:
        return None


def _node(g: Node, regions: dict[str, list], depth: int, deadline: float) -> dict | None:
    """Branches chosen where their conditions are decided on the piece (cut where one is not),
    then a strict sign; one parameter's region cut further when no argument gives the sign."""
    if time.perf_counter() > deadline:
        raise _OutOfTime
    box = {v: region_from(r) for v, r in regions.items()}
    leaf = Leaf(g, box)
    try:
        leaf.resolve_branches()
    except NeedSplit as cut:
        return _pieces(g, regions, cut.var, cut_at(regions[cut.var], cut.points), depth, deadline)
    except NeedAlternatives as alt:
        proofs = [_node(e, regions, depth, deadline) for e in alt.exprs]
        if any(p is None for p in proofs):
            return None
        return {"steps": _steps(alt.steps), "alternatives": {"at": list(alt.path), "take": alt.take,
                                                             "proofs": proofs}}
    except (NeedChange, Stuck, Reject):
        leaf = Leaf(g, box)  # the branches as they are: the sign arguments take a hull of them
    end = _end(leaf.expr, box, deadline, cheap=True)
    if end is None:
        end = _rewritten(leaf, box, deadline)
    if end is None:  # the bisecting arguments on the expression as it is, last: they fail slowly
        end = _end(leaf.expr, box, deadline)
    if end is not None:
        return {"steps": _steps(leaf.steps), "end": end}
    if len(regions) != 1 or depth <= 0:
        return None
    (v, r), = regions.items()
    if r[0] != "open":
        return None
    for c in _cuts(box[v]):
        at = _number(c)
        found = _pieces(g, regions, v, [["open", r[1], at], ["point", at], ["open", at, r[2]]], depth - 1,
                        deadline)
        if found is not None:
            return found
    return None


def _pieces(g: Node, regions: dict[str, list], v: str, parts: list, depth: int, deadline: float) -> dict | None:
    pieces = []
    for part in parts:
        node = _node(g, {**regions, v: part}, depth, deadline)
        if node is None:
            return None
        pieces.append({"region": part, **node})
    return {"var": v, "pieces": pieces}


def _steps(steps: list) -> list:
    return [{**s, "after": to_json(s["after"])} for s in steps]


def _sample_sign(g: Node, box: dict) -> str | None:
    """The sign of g at a rational inside the box (the kernel's point argument), or None."""
    point = {}
    for v, r in box.items():
        point[v] = r if r[0] == "point" else ("point", rational_point(between(r[1], r[2])))
    for sign in ("pos", "neg"):
        try:
            prove_sign(g, sign, point, "point")
            return sign
        except Reject:
            continue
    return None


def _rewritten(leaf: Leaf, box: dict, deadline: float) -> dict | None:
    """The end after one ``ring`` step to a form the sign arguments read better: K·P (K free of
    variables, its sign at its value), or for one variable θ on an unbounded piece the dominant
    form θ^n·(c_n + c_(n−1)·θ^(−1) + …) and Horner's c_0 + θ·(c_1 + θ·(…)), where interval
    arithmetic does not lose what θ·c − θ·d loses."""
    forms = [lambda: constant_factor(leaf.expr, groups_needed=1)]
    live = [v for v, r in box.items() if r[0] == "open"]
    if len(live) == 1:
        forms += [partial(_by_powers, leaf.expr, live[0], dominant) for dominant in (True, False)]
    forms.append(lambda: _exponentials_factored(leaf))
    forms.append(lambda: _logs_combined(leaf))
    unbounded = [v for v in live if box[v][1] == NEG_INF or box[v][2] == INF]
    if len(live) > 1 and unbounded:
        forms += [partial(_factors_by_powers, leaf, unbounded, dominant) for dominant in (True, False)]
    forms.append(lambda: _rationalized(leaf))
    before = (leaf.expr, list(leaf.steps))
    for make in forms:
        try:
            form = make()
        except (Stuck, Reject):
            form = None
        if form is not None and leaf.ring((), form):
            end = _end(leaf.expr, box, deadline)
            if end is not None:
                return end
        leaf.expr, leaf.steps = before[0], list(before[1])
    return None


def _exponentials_factored(leaf: Leaf) -> Node | None:
    """A gap that decays at infinity: exp(n·x) written exp(x)^n (one generator per base, the
    emitter's exp rules), then g as a quotient of factored polynomials in the generators —
    2·(e^(−2β) − e^(−4β))/(…) becomes 2·T²·(T − 1)·(T + 1)·(…)^(−1) with T = e^β, each factor
    signed alone (T − 1 by monotonicity near β = 0, by its bound beyond)."""
    leaf.normalize(level=1)
    return factored(leaf.expr)


def _logs_combined(leaf: Leaf) -> Node | None:
    """g = K·(c₁·log u₁ + c₂·log u₂ + …) with integers c_i made one log, by the kernel's log_pow
    and log_mul rules (each u_i proved positive), then written log(1 + R) with R = ∏ u_i^(c_i) − 1
    factored: the structure argument signs log(1 + R) by R. Each log grows without bound and
    interval arithmetic loses their difference at ∞; softplus-β under α > 0 (a = 2, b = 1, α = 2)
    is (2β)^(−1)·(log(1 + T⁴) − 2·log(1 + T²)) = (2β)^(−1)·log(1 − 2T²·(1 + T²)^(−2)), T = e^β."""
    leaf.normalize(level=1)  # exp(4β) as exp(β)^4: one generator per base, so R cancels
    found = polynomial_over_generators(leaf.expr)
    if found is None:
        return None
    gens, form, n, d = found
    trees = [gens[k] for k in sorted(form.index, key=form.index.get)]
    logs = [i for i, t in enumerate(trees) if t[0] == "log"]
    by_log: dict[int, dict] = {}
    for exps, c in n.terms():  # n = Σ log_i·q_i: every term holds exactly one log, to the first power
        used = [i for i in logs if exps[i]]
        if len(used) != 1 or exps[used[0]] != 1:
            return None
        by_log.setdefault(used[0], {})[tuple(0 if j == used[0] else int(e) for j, e in enumerate(exps))] = c
    if len(by_log) < 2:
        return None
    ctx = n.context()
    polys = {i: ctx.from_dict(t) for i, t in by_log.items()}
    first = next(iter(polys.values()))
    ratios = {i: Fraction(str(q.leading_coefficient() / first.leading_coefficient())) for i, q in polys.items()}
    if any(q != first * fmpq(r.numerator, r.denominator) for (i, q), r in zip(polys.items(), ratios.values(),
                                                                             strict=True)):
        return None  # the q_i are not proportional: no common factor K
    m = math.lcm(*(r.denominator for r in ratios.values()))
    k = ("mul", number(Fraction(1, m)), polynomial_tree(first, trees), ("pow", polynomial_tree(d, trees), ("int", -1)))
    terms = tuple(("mul", ("int", int(r * m)), trees[i]) for i, r in ratios.items())
    nested = terms[-1]
    for t in reversed(terms[:-1]):
        nested = ("add", t, nested)
    if not leaf.ring((), ("mul", k, nested)):
        return None
    for depth in range(len(terms) - 1, -1, -1):  # c·log u as log(u^c), log x + log y as log(x·y), inside out
        path = (2,) + (2,) * depth
        term = path + (1,) if depth < len(terms) - 1 else path
        if get(leaf.expr, list(term))[1] == ("int", 1):
            if not leaf.ring(term, get(leaf.expr, list(term))[2]):
                return None
        elif not leaf.rule("log_pow", term, "rl"):
            return None
        if depth < len(terms) - 1 and not leaf.rule("log_mul", path, "rl"):
            return None
    # R = (P − Q)·Q^(−1), P and Q the products of the u_i with positive and negative c_i: Q's
    # factors are the u_i proved positive (the reduced N/D of R may hold a factor such as
    # T² − T + 1 of 1 + T³, whose sign no argument proves for T = e^β)
    powers = [(trees[i][1], int(r * m)) for i, r in ratios.items()]
    p = [u if c == 1 else ("pow", u, ("int", c)) for u, c in powers if c > 0]
    q = [u if c == -1 else ("pow", u, ("int", -c)) for u, c in powers if c < 0]
    p_tree, q_tree = (_product(f) for f in (p, q))
    difference = ("add", p_tree, ("mul", ("int", -1), q_tree))
    quotient = ("mul", factored(difference, quotient=False) or difference, ("pow", q_tree, ("int", -1)))
    for form in (factored(("add", get(leaf.expr, [2, 1]), ("int", -1))), quotient):
        if form is not None and leaf.ring((2, 1), ("add", ("int", 1), form)):
            return leaf.expr
    return None


def _product(factors: list[Node]) -> Node:
    return ("int", 1) if not factors else factors[0] if len(factors) == 1 else ("mul", *factors)


def _factors_by_powers(leaf: Leaf, unbounded: list[str], dominant: bool) -> Node | None:
    """Several variables: g factored (as :func:`_exponentials_factored`), then each factor in one
    variable with an infinite end in the dominant or Horner form (:func:`_by_powers`), so that
    each factor is signed alone: SELU's gap λ·(α·(e − 1) − e)·e^(−1) on α > 2, where the sum
    α·e − α − e has no interval bound that excludes 0."""
    form = _exponentials_factored(leaf)
    if form is None or form[0] != "mul":
        return None
    out = []
    for f in form[1:]:
        live = free_vars(f)
        rewritten = _by_powers(f, next(iter(live)), dominant) if len(live) == 1 and live <= set(unbounded) else None
        out.append(rewritten or f)
    return ("mul", *out)


_HALF = ("rat", 1, 2)


def _rationalized(leaf: Leaf) -> Node | None:
    """p·√x + q·√y (p, q free of the roots): (p²·x − q²·y)·(p·√x − q·√y)^(−1), by a ring step
    to (p²·√x² − q²·√y²)·(…)^(−1) and square_sqrt on each square. The difference of two square
    roots that both grow (squareplus under α > 0: √(16 + b)/4 − √(4 + b)/2) becomes a polynomial
    over a sum of one sign. The ring step's own check refuses a denominator not proved non-zero."""
    leaf.normalize(level=0)
    found = polynomial_over_generators(leaf.expr)
    if found is None:
        return None
    gens, form, n, d = found
    keys = sorted(form.index, key=form.index.get)
    trees = [gens[k] for k in keys]
    roots = [i for i, t in enumerate(trees) if t[0] == "pow" and t[2] == _HALF]
    if len(roots) != 2 or not d.is_constant():
        return None
    i, j = roots
    p_terms: dict = {}
    q_terms: dict = {}
    for exps, c in n.terms():
        if (exps[i], exps[j]) not in ((1, 0), (0, 1)):
            return None  # not linear in the two roots, or a term free of them
        rest = tuple(0 if k in (i, j) else int(e) for k, e in enumerate(exps))
        (p_terms if exps[i] else q_terms)[rest] = c
    if not p_terms or not q_terms:
        return None
    ctx = n.context()
    p_poly = ctx.from_dict(p_terms)
    q_poly = ctx.from_dict(q_terms)
    (_, dc), = d.terms()
    scale = Fraction(int(dc.p), int(dc.q))
    p_tree, q_tree = polynomial_tree(p_poly, trees), polynomial_tree(q_poly, trees)
    s1, s2 = trees[i], trees[j]
    numerator = ("add", ("mul", ("pow", p_tree, ("int", 2)), ("pow", s1, ("int", 2))),
                 ("mul", ("int", -1), ("pow", q_tree, ("int", 2)), ("pow", s2, ("int", 2))))
    conjugate = ("add", ("mul", p_tree, s1), ("mul", ("int", -1), q_tree, s2))
    target = ("mul", number(1 / scale), numerator, ("pow", conjugate, ("int", -1)))
    if not leaf.ring((), target):
        return None
    for path in ((2, 1, 2), (2, 2, 3)):  # the two squares of roots, then each is its radicand
        if not leaf.rule("square_sqrt", path):
            return None
    return leaf.expr


def _by_powers(g: Node, v: str, dominant: bool) -> Node | None:
    """g as a polynomial in the variable v with coefficients free of variables, in the dominant
    or Horner form (None when g is not one, or is a constant or a monomial in v)."""
    found = polynomial_over_generators(g)
    if found is None:
        return None
    gens, form, n, d = found
    if not d.is_constant() or n.is_zero():
        return None
    keys = sorted(form.index, key=form.index.get)
    at = [i for i, k in enumerate(keys) if gens[k] == ("var", v)]
    if len(at) != 1 or any(free_vars(gens[k]) for i, k in enumerate(keys) if i != at[0]):
        return None
    (_, d_coeff), = d.terms()
    scale = Fraction(int(d_coeff.p), int(d_coeff.q))
    others = [gens[k] for i, k in enumerate(keys) if i != at[0]]
    by_degree: dict[int, list[Node]] = {}
    for exps, coeff in n.terms():
        rest = [int(e) for i, e in enumerate(exps) if i != at[0]]
        factors = [t if e == 1 else ("pow", t, ("int", e)) for t, e in zip(others, rest, strict=True) if e]
        by_degree.setdefault(int(exps[at[0]]), []).append(scaled_product(Fraction(int(coeff.p), int(coeff.q)) / scale,
                                                                      factors))
    if len(by_degree) < 2:
        return None
    coeff = {e: ts[0] if len(ts) == 1 else ("add", *ts) for e, ts in by_degree.items()}
    x = ("var", v)
    top = max(coeff)
    if dominant:
        inner = [coeff[e] if e == top else ("mul", coeff[e], ("pow", x, ("int", e - top)))
                 for e in sorted(coeff, reverse=True)]
        return ("mul", x if top == 1 else ("pow", x, ("int", top)), ("add", *inner))
    acc = coeff[top]
    for e in range(top - 1, -1, -1):
        acc = ("mul", x, acc) if e not in coeff else ("add", coeff[e], ("mul", x, acc))
    return acc


def _end(g: Node, box: dict, deadline: float, cheap: bool = False) -> dict | None:
    """The leaf's end: g's strict sign by one of the kernel's arguments (the sign at a sample
    first; a piecewise left standing may change sign at a jump, so then also just non-zero)."""
    if time.perf_counter() > deadline:
        raise _OutOfTime
    sign = _sample_sign(g, box)
    if sign is None:
        return None
    claims = (sign, "nonzero") if any(n[0] == "piecewise" for n in walk(g)) else (sign,)
    for claim in claims:
        for by in _arguments(g, box, sign):
            if cheap and by in ("monotone", "enclosure"):
                continue
            try:
                return {"sign": claim, "by": prove_sign(g, claim, box, by)}
            except Reject:
                continue
    return None


def _arguments(g: Node, box: dict, sign: str) -> list[str]:
    """The sign arguments worth trying, cheap and likely first: monotone before the bisecting
    enclosure, which cannot succeed up to an end where g is 0 (its boxes are closed)."""
    unbounded = any(r[0] == "open" and (r[1] == NEG_INF or r[2] == INF) for r in box.values())
    if all(r[0] == "point" for r in box.values()):
        return ["point"]
    product = g[0] == "mul"  # each factor alone first: a product's derivative rarely keeps a sign
    if unbounded:
        return ["structure", "roots", "factors", "bounds"] if product else ["structure", "roots", "bounds", "factors"]
    order = ["structure", "factors", "roots", "monotone", "enclosure"] if product else \
        ["structure", "roots", "monotone", "enclosure", "factors"]
    if len(box) == 1:
        (v, r), = box.items()
        for end in (r[1], r[2]):
            try:
                prove_sign(g, sign, {v: ("point", end)}, "point")
            except Reject:
                order.remove("enclosure")  # g is 0 (or undecided) at an end of the closed box
                break
    return order


def _number(x: Fraction) -> list:
    return ["int", x.numerator] if x.denominator == 1 else ["rat", x.numerator, x.denominator]


def _cuts(r: tuple) -> list[Fraction]:
    """Rational cut points to try inside the open region r, best first."""
    lo, hi = r[1], r[2]
    if lo == NEG_INF and hi == INF:
        return [Fraction(0)]
    if hi == INF:
        start = lo.hi if isinstance(lo, Point) else Fraction(0)
        return [Fraction(int(start // 1)) + k for k in TAIL_STARTS]
    if lo == NEG_INF:
        end = hi.lo if isinstance(hi, Point) else Fraction(0)
        return [-(Fraction(int(-end // 1)) + k) for k in TAIL_STARTS]
    return [between(lo, hi)]
