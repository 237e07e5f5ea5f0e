"""The emitter: the engine's ``holds`` and group members as certificates the kernel re-checks.

Entry points (each returns a :class:`Certificate` the kernel accepted, or a :class:`Rejection`
saying why there is none — the caller turns a Rejection into ``inconclusive``):

* :func:`certify_statement` — a symmetry statement of a unit (exchange, inverse scaling, any
  transformation and form): the claim is left − right of the statement itself, σ's tree
  substituted into the form, over a, b (and the scale on its domain). Not the reduced residual:
  the reduction theorems are not needed to trust the certificate.
* :func:`certify_member` — ∀z: σ(a·z) = c·σ(z) for one pair (a, c), or for a family with a
  ranging over a half-line or a ≠ 0 (c a formula in a): the kernel's ``member`` claim, so the
  kernel builds the expression from σ, a and c itself.
* :func:`certify_group` — every proved member of a :class:`~symcheck.engine.group.results.SymmetryGroup`.
* :func:`certify_zero` — any expression and space, the general case under the others.

The proof is the emitter's own (:mod:`symcheck.engine.certificate.rewrite`): a case split
found by cutting where a condition has no one truth value, and on each piece branch choices,
canonical arguments and the rule table's rewrites, ending in the kernel's normal form. It uses
no decision of the engine; the kernel re-checks all of it.
"""
from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import sympy

from symcheck.engine.certificate.points import point_json, region_json
from symcheck.engine.certificate.rewrite import Leaf, NeedAlternatives, NeedChange, NeedSplit, Stuck
from symcheck.engine.certificate.tree import MINUS_ONE, Unsupported, difference, sigma_tree, to_json, tree
from symcheck.engine.group.facts import ASetKind
from symcheck.kernel.check import SCHEMA, check, disjoint, region_from
from symcheck.kernel.points import compare
from symcheck.kernel.tree import Node, free_vars, substitute
from symcheck.kernel.verdict import Reject

__all__ = ["Certificate", "Rejection", "RejectionStage", "certify_zero", "certify_statement", "certify_member",
           "certify_group", "certify_witness", "certify_nonmember", "statement_claim", "scale_domain", "SCHEMA"]

#: most pieces one certificate may have (with MAX_STEPS per piece, the emitter's work bound), and
#: its default time limit (a Rejection beyond; ``seconds=None``: the work bound alone)
MAX_PIECES = 400
EMIT_SECONDS = 30.0
_WHOLE = ["open", "-inf", "inf"]


@dataclass(frozen=True)
class Certificate:
    """A certificate the kernel accepted: ``data`` is the JSON object (schema symcheck.certificate/1)."""

    data: dict
    checked: int = 0
    emit_seconds: float = 0.0
    check_seconds: float = 0.0
    accepted: bool = field(default=True, init=False)

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.data, indent=indent)


class RejectionStage(StrEnum):
    """Where a certificate was refused, as :class:`Rejection` prints it."""

    #: the emitter found no proof the kernel's rules express
    EMIT = "emit"
    #: the kernel rejected what was emitted
    KERNEL = "kernel"


@dataclass(frozen=True)
class Rejection:
    """No accepted certificate. ``stage`` is ``emit`` when the emitter found no proof the
    kernel's rules express (``reason`` says what was left), ``kernel`` when the kernel
    rejected what was emitted (``where`` names the failing step; a bug of the emitter's, or
    an unsound step of the engine's the kernel caught)."""

    reason: str
    stage: RejectionStage = RejectionStage.EMIT
    where: str = ""
    data: dict | None = None
    emit_seconds: float = 0.0
    check_seconds: float = 0.0
    accepted: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "stage", RejectionStage(self.stage))  # "kernel" reads as the member

    def __str__(self) -> str:
        return f"no certificate ({self.stage}): {self.where + ': ' if self.where else ''}{self.reason}"


Outcome = Certificate | Rejection


# --------------------------------------------------------------------------- claims


def scale_domain(domain: Any) -> list:
    """A transformation's scale domain (:class:`~symcheck.language.transformations.Domain`) as regions."""
    if domain.value is not None:
        return [region_json(domain.value, domain.value)]
    zero = ["int", 0]
    return {"positive": [["open", zero, "inf"]], "negative": [["open", "-inf", zero]],
            "any": [["open", "-inf", zero], ["open", zero, "inf"]]}[domain.name]


def statement_claim(sigma_expr: sympy.Expr, transformation: Any, unit: Any) -> tuple[Node, dict]:
    """left − right of the statement with σ's tree substituted, and every variable's domain."""
    from symcheck.language.symbols import SIGMA, A, B, Z
    lhs, rhs = transformation.statement(unit, SIGMA)
    s = sigma_tree(sigma_expr, Z)
    expr = difference(tree(lhs, s), tree(rhs, s))
    domains: dict[str, list] = {A.name: [], B.name: []}
    if transformation.domain is not None:
        domains[transformation.scale.name] = scale_domain(transformation.domain)
    for v in free_vars(expr) - domains.keys():
        domains[v] = []
    return expr, domains


def _space_json(space: Mapping[Any, Any]) -> dict[str, list]:
    """Variable → list of region JSON, from engine Regions, (lower, upper) pairs or JSON."""
    out = {}
    for var, regions in space.items():
        name = var if isinstance(var, str) else var.name
        converted = []
        for r in regions or ():
            if isinstance(r, list):
                converted.append(r)
            elif hasattr(r, "lower"):
                converted.append(region_json(r.lower, r.upper))
            else:
                converted.append(region_json(*r))
        out[name] = [] if converted == [_WHOLE] else converted
    return out


# --------------------------------------------------------------------------- the proof


class _Prover:
    def __init__(self, expr: Node, domains: dict[str, list], seconds: float | None) -> None:
        self.expr = expr
        self.domains = domains
        self.pieces = 0
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def tick(self) -> None:
        self.pieces += 1
        if self.pieces > MAX_PIECES:
            raise Stuck(f"more than {MAX_PIECES} pieces")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Stuck("the emitter's time limit ran out")

    def proof(self) -> dict:
        box = {v: (d[0] if len(d) == 1 else _WHOLE) for v, d in self.domains.items()}
        unions = [v for v, d in self.domains.items() if len(d) > 1]
        return self._domain_split(box, unions)

    def _domain_split(self, box: dict, unions: list[str]) -> dict:
        """A variable whose domain is several regions is cut at their ends first; the pieces
        outside the domain are marked so."""
        if not unions:
            return self.node(box, self.expr)
        v, rest = unions[0], unions[1:]
        ends = []
        for r in self.domains[v]:
            ends += [r[1], r[2]] if r[0] == "open" else [r[1]]
        finite: list[str] = []
        for e in ends:
            if e not in ("inf", "-inf") and not any(compare(region_from(["point", e])[1],
                                                            region_from(["point", f])[1]) == 0 for f in finite):
                finite.append(e)
        pieces = []
        for region in cut_at(box[v], finite):
            piece_box = {**box, v: region}
            if all(_disjoint(region, d) for d in self.domains[v]):
                pieces.append({"region": region, "outside": True})
            else:
                pieces.append({"region": region, **self._domain_split(piece_box, rest)})
        return {"var": v, "pieces": pieces}

    def node(self, box: dict, expr: Node) -> dict:
        self.tick()
        leaf = Leaf(expr, {v: region_from(r) for v, r in box.items()})
        try:
            end = leaf.build()
        except Reject as why:  # a kernel helper refused (a term or refinement limit): no proof here
            raise Stuck(f"the kernel's arithmetic refused: {why}") from None
        except NeedSplit as cut:
            return {"var": cut.var, "pieces": [{"region": r, **self.node({**box, cut.var: r}, expr)}
                                               for r in cut_at(box[cut.var], cut.points)]}
        except NeedChange as change:
            return self._change(box, expr, change)
        except NeedAlternatives as alt:
            steps = [{**s, "after": to_json(s["after"])} for s in alt.steps]
            proofs = [self.node(box, e) for e in alt.exprs]
            return {"steps": steps, "alternatives": {"at": list(alt.path), "take": alt.take, "proofs": proofs}}
        except Stuck as why:
            where = ", ".join(f"{v} ∈ {_describe(r)}" for v, r in box.items() if r != _WHOLE)
            raise Stuck(f"{why} (on {where or 'the whole space'}; left: {_short(leaf.expr)})") from None
        return {"steps": [{**s, "after": to_json(s["after"])} for s in leaf.steps], "end": end}

    def _change(self, box: dict, expr: Node, change: NeedChange) -> dict:
        """u = P·b: b's region (ends −∞, 0, ∞) maps onto u's by the sign of P; the expression
        with b = u·P^(−1), exactly as the kernel builds it."""
        u = next((n for n in ("u", *(f"u{i}" for i in range(1, 100)))
                  if n not in box and n not in self.domains), None)
        if u is None:
            raise Stuck("no fresh name for a change of variables (u, u1, …, u99 all in use)")
        region = box[change.var]
        if change.sign < 0 and region[0] == "open":
            flip = {"inf": "-inf", "-inf": "inf"}
            region = ["open", flip.get(region[2], region[2]) if isinstance(region[2], str) else region[2],
                      flip.get(region[1], region[1]) if isinstance(region[1], str) else region[1]]
        new_box = {v: r for v, r in box.items() if v != change.var}
        new_box[u] = region
        new_expr = substitute(expr, change.var, ("mul", ("var", u), ("pow", change.factor, ("int", -1))))
        return {"change": {"var": change.var, "to": u, "factor": to_json(change.factor)},
                "proof": self.node(new_box, new_expr)}


def cut_at(whole: list, points: Sequence) -> list:
    """``whole`` (open) cut at the increasing points strictly inside it: open, point, …, open."""
    if not points:
        return [whole]
    ordered = sorted(points, key=_sort_key)
    ends = [whole[1], *ordered, whole[2]]
    out = []
    for i in range(len(ends) - 1):
        out.append(["open", ends[i], ends[i + 1]])
        if i < len(ordered):
            out.append(["point", ordered[i]])
    return out


def _sort_key(p):
    from functools import cmp_to_key
    return cmp_to_key(lambda x, y: compare(region_from(["point", x])[1], region_from(["point", y])[1]))(p)


def _disjoint(region: list, domain: list) -> bool:
    return disjoint(region_from(region), region_from(domain))


def _describe(region: list) -> str:
    show = lambda p: p if isinstance(p, str) else json.dumps(p)  # noqa: E731
    return f"{{{show(region[1])}}}" if region[0] == "point" else f"({show(region[1])}, {show(region[2])})"


def _short(node: Node, limit: int = 160) -> str:
    text = json.dumps(to_json(node), separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


# --------------------------------------------------------------------------- entry points


def checked_outcome(cert: dict | None, started: float, run_kernel: bool, reason: str = "") -> Outcome:
    """An emitted certificate as an outcome: a Rejection (``reason``) when there is none, else the
    certificate the kernel checked (unchecked when not ``run_kernel``); timed from ``started``."""
    emitted = time.perf_counter()
    if cert is None:
        return Rejection(reason, RejectionStage.EMIT, emit_seconds=emitted - started)
    if not run_kernel:
        return Certificate(cert, 0, emitted - started, 0.0)
    verdict = check(cert)
    checked = time.perf_counter()
    if not verdict.accepted:
        return Rejection(verdict.reason, RejectionStage.KERNEL, verdict.where, cert, emitted - started,
                         checked - emitted)
    return Certificate(cert, verdict.checked, emitted - started, checked - emitted)


def emit_certificate(expr: Node, claim: dict, domains: dict[str, list], about: str, run_kernel: bool,
                     started: float, seconds: float | None) -> Outcome:
    """The certificate that ``expr`` (the claim's tree) is 0 on ``domains``: proved by the emitter's
    prover, checked by the kernel when ``run_kernel``; a failure of the prover is a Rejection."""
    try:
        proof = _Prover(expr, domains, seconds).proof()
    except (Stuck, Unsupported) as why:
        return checked_outcome(None, started, run_kernel, str(why))
    except (Reject, RecursionError, ArithmeticError, ValueError, TypeError, NotImplementedError) as err:
        # SymPy's or FLINT's failure (root isolation, factoring) or a too-deep tree: no certificate,
        # which the caller reads as inconclusive — never a proof
        return checked_outcome(None, started, run_kernel,
                               f"the emitter failed ({type(err).__name__}: {str(err)[:160]})")
    cert = {"schema": SCHEMA, "about": {"statement": about} if about else {}, "claim": claim, "proof": proof}
    return checked_outcome(cert, started, run_kernel)


def certify_zero(expr: Any, space: Mapping[Any, Any], *, about: str = "", check_it: bool = True,
                 seconds: float | None = EMIT_SECONDS) -> Outcome:
    """A certificate that ``expr`` (SymPy, or a kernel tree) is 0 wherever defined on ``space``
    (variable → regions: engine Regions, (lower, upper) pairs or region JSON; ``()`` is R).
    ``seconds=None``: no wall-clock limit, only the work bound (pieces, steps per piece) — the
    caller's budget, if any, interrupts it."""
    started = time.perf_counter()
    try:
        node = expr if isinstance(expr, tuple) else tree(expr)
        domains = _space_json(space)
    except Unsupported as why:
        return checked_outcome(None, started, check_it, str(why))
    for v in free_vars(node) - domains.keys():
        domains[v] = []
    claim = {"kind": "zero", "expr": to_json(node), "vars": domains}
    return emit_certificate(node, claim, domains, about, check_it, started, seconds)


def _statement(sigma: Any, transformation: Any, unit: Any) -> tuple[Node, dict, str] | str:
    """The statement's left − right tree (σ and the form read as objects), every domain and what
    it is about; or, when the statement has no tree, the reason (the caller's refusal)."""
    from symcheck.language.activations import activation
    from symcheck.language.unit_forms import form
    try:
        sigma = activation(sigma)
        unit = unit if not isinstance(unit, str) else form(unit)
        expr, domains = statement_claim(sigma.expr, transformation, unit)
    except (Unsupported, Reject, RecursionError) as why:
        return f"the statement has no tree: {why}"
    return expr, domains, f"{transformation.describe()}, {unit.name} form, σ = {sigma.name}"


def certify_statement(sigma: Any, transformation: Any, unit: Any = "gated", *, check_it: bool = True,
                      seconds: float = EMIT_SECONDS) -> Outcome:
    """The certificate of a ``holds``: ∀ a, b (scale in its domain): left = right, σ substituted.

    ``sigma`` is an :class:`~symcheck.language.activations.Activation` (or anything
    ``activation()`` reads), ``transformation`` a :class:`~symcheck.language.transformations.Transformation`,
    ``unit`` a :class:`~symcheck.language.unit_forms.Form` or a form's name.
    """
    started = time.perf_counter()
    stated = _statement(sigma, transformation, unit)
    if isinstance(stated, str):
        return checked_outcome(None, started, check_it, stated)
    expr, domains, about = stated
    claim = {"kind": "zero", "expr": to_json(expr), "vars": domains}
    return emit_certificate(expr, claim, domains, about, check_it, started, seconds)


def certify_witness(sigma: Any, transformation: Any, unit: Any, point: Mapping[str, Any], *,
                    check_it: bool = True) -> Outcome:
    """The certificate of a ``broken``: the statement's left − right, σ substituted, is non-zero at
    ``point`` (variable name → exact rational); the kernel re-evaluates it there itself."""
    started = time.perf_counter()
    stated = _statement(sigma, transformation, unit)
    if isinstance(stated, str):
        return checked_outcome(None, started, check_it, stated)
    expr, domains, about = stated
    return witnessed_certificate({"kind": "nonzero", "expr": to_json(expr), "vars": domains}, sorted(domains),
                                 point, f"{about}: broken", started, check_it)


def certify_nonmember(sigma: Any, a: Any, c: Any, point: Mapping[str, Any], *, check_it: bool = True) -> Outcome:
    """The certificate of a refuted pair or family: σ(a·z) − c·σ(z) ≠ 0 at ``point`` (z, and a
    when ``a`` is the family's symbol), stated by the kernel's ``member`` claim."""
    from symcheck.language.activations import activation
    from symcheck.language.symbols import Z
    started = time.perf_counter()
    sigma = activation(sigma)
    try:
        s, at, ct = sigma_tree(sigma.expr, Z), tree(a), tree(c)
    except (Unsupported, Reject, RecursionError) as why:
        return checked_outcome(None, started, check_it, f"the pair has no tree: {why}")
    names = sorted(free_vars(at) | free_vars(ct) | {"z"})
    claim = {"kind": "nonzero", "member": {"sigma": to_json(s), "a": to_json(at), "c": to_json(ct)},
             "vars": {n: [] for n in names}}
    about = f"σ = {sigma.name}: (a, c) = ({sympy.sstr(a)}, {sympy.sstr(c)}) is not a member"
    return witnessed_certificate(claim, names, point, about, started, check_it)


def witnessed_certificate(claim: dict, names: Sequence[str], point: Mapping[str, Any], about: str,
                          started: float, check_it: bool) -> Outcome:
    """A ``nonzero`` certificate at ``point``. The sign is not proposed by the engine: the kernel
    evaluates the claim at the point itself, and one of the two signs must be proved."""
    try:
        values = {name: point_json(sympy.Rational(point[name])) for name in names}
    except (KeyError, TypeError, ValueError) as why:
        return checked_outcome(None, started, check_it, f"the witness gives no exact value for {why}")
    tried: Outcome | None = None
    for sign in ("pos", "neg"):
        cert = {"schema": SCHEMA, "about": {"statement": about}, "claim": claim,
                "witness": {"point": values, "sign": sign}}
        tried = checked_outcome(cert, started, check_it)
        if tried.accepted or not check_it:
            return tried
    assert tried is not None  # the loop above ran (twice)
    return tried


def member_expression(sigma: Node, a: Node, c: Node) -> Node:
    """σ(a·z) − c·σ(z), exactly as the kernel builds it from a member claim."""
    return ("add", substitute(sigma, "z", ("mul", a, ("var", "z"))), ("mul", MINUS_ONE, c, sigma))


def certify_member(sigma: Any, a: Any, c: Any, domain: str | None = None, *, check_it: bool = True,
                   seconds: float = EMIT_SECONDS) -> Outcome:
    """∀z ∈ R: σ(a·z) = c·σ(z). ``a`` and ``c`` are numbers, or for a family ``a`` is the symbol
    :data:`~symcheck.language.symbols.A` ranging over ``domain`` ("positive", "negative", "any")
    and ``c`` a formula in it."""
    from symcheck.language.activations import activation
    from symcheck.language.symbols import Z
    started = time.perf_counter()
    sigma = activation(sigma)
    try:
        s, at, ct = sigma_tree(sigma.expr, Z), tree(a), tree(c)
    except Unsupported as why:
        return checked_outcome(None, started, check_it, str(why))
    if "z" in free_vars(at) | free_vars(ct):
        return checked_outcome(None, started, check_it, "a and c must be free of z")
    domains: dict[str, list] = {"z": []}
    for v in sorted(free_vars(at) | free_vars(ct)):
        if domain is None:
            return checked_outcome(None, started, check_it, f"{v} needs a domain (positive, negative or any)")
        zero = ["int", 0]
        domains[v] = {"positive": [["open", zero, "inf"]], "negative": [["open", "-inf", zero]],
                      "any": [["open", "-inf", zero], ["open", zero, "inf"]]}[domain]
    claim = {"kind": "zero", "member": {"sigma": to_json(s), "a": to_json(at), "c": to_json(ct)}, "vars": domains}
    where = f" for every a in its {domain} domain" if domain else ""
    about = f"σ({sympy.sstr(a)}·z) = {sympy.sstr(c)}·σ(z) for every real z{where}, σ = {sigma.name}"
    return emit_certificate(member_expression(s, at, ct), claim, domains, about, check_it, started, seconds)


def certify_group(group: Any, *, check_it: bool = True) -> list[tuple[str, Outcome]]:
    """Every proved member of a symmetry group: (what, outcome) for each pair of a finite
    component, each family (a > 0, a < 0, a ≠ 0 with its law c), and each generator of a
    discrete component ((base, base_c), and (−1, unit_c) when it has negatives). The closure
    of a discrete component under products and the ``complete`` argument are not certified
    here (see the module docstring of :mod:`symcheck.engine.certificate.emit`)."""
    from symcheck.language.symbols import A
    sigma = group.activation
    out: list[tuple[str, Outcome]] = []
    for comp in group.components:
        kind = comp.aset.kind
        if kind is ASetKind.FINITE:
            for a0, c0 in comp.pairs:
                out.append((f"(a, c) = ({sympy.sstr(a0)}, {sympy.sstr(c0)})",
                            certify_member(sigma, a0, c0, check_it=check_it)))
        elif kind in (ASetKind.POSITIVE, ASetKind.NEGATIVE, ASetKind.ALL):
            domain = {ASetKind.POSITIVE: "positive", ASetKind.NEGATIVE: "negative", ASetKind.ALL: "any"}[kind]
            if comp.c is None:  # σ ≡ 0: every pair; certified as σ = 0 itself
                out.append(("σ ≡ 0", certify_zero(sigma.expr, {sigma.expr.free_symbols.pop(): ()}
                                                   if sigma.expr.free_symbols else {}, check_it=check_it)))
                continue
            out.append((f"a {comp.aset.describe()[2:]}, c = {sympy.sstr(comp.c)}",
                        certify_member(sigma, A, comp.c, domain, check_it=check_it)))
        elif kind is ASetKind.DISCRETE:
            out.append((f"generator (a, c) = ({sympy.sstr(comp.aset.base)}, {sympy.sstr(comp.base_c)})",
                        certify_member(sigma, comp.aset.base, comp.base_c, check_it=check_it)))
            if comp.aset.negatives:
                out.append((f"generator (a, c) = (-1, {sympy.sstr(comp.unit_c)})",
                            certify_member(sigma, -1, comp.unit_c, check_it=check_it)))
    return out
