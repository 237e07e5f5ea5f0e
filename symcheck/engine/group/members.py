"""Proofs that pairs (a, c) belong to the symmetry group of σ, and certified refutations.

A member needs the engine's own proof that σ(a·z) − c·σ(z) ≡ 0 for every real z: for one pair
the one-variable decider (:func:`symcheck.engine.zero.decide_zero`), for a family over a
half-line the two-variable one (:func:`symcheck.engine.plane.decide_plane`, a and z both
split into cases). Each proof passes the guard (a certified counterexample search) before it
counts. A non-member needs a certified witness z, re-checked by the independent mpmath
interval arithmetic, exactly as a ``broken`` check does.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy
from sympy import S

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.errors import EvaluationError, Undecided
from symcheck.core.formula import Difference, ForAll, Product, Rel, Relation, Text
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.certificate.emit import certify_member, certify_nonmember
from symcheck.engine.evidence import fallback_witness
from symcheck.engine.group.facts import C, member_condition
from symcheck.engine.guard import counterexample
from symcheck.engine.kernel_gate import Admission, admit
from symcheck.engine.plane import decide_plane, scale_regions, whole_line
from symcheck.engine.proof_steps import case_steps, piece_steps, point_formula
from symcheck.engine.symmetries import failed_outside
from symcheck.engine.zero import decide_zero
from symcheck.exact.evaluate import certify_nonzero, recheck_sign
from symcheck.exact.signs import EXACT_SIGN_BITS, at_point
from symcheck.language.activations import Activation
from symcheck.language.symbols import A, Z, sigma_at

__all__ = ["WITNESS_GRID", "Proof", "pair_witness", "prove_family", "prove_pair"]

#: the points z tried, simplest first, when a pair is refuted by a witness
WITNESS_GRID: tuple[sympy.Rational, ...] = tuple(sympy.Rational(v) for v in (
    "1", "-1", "2", "-2", "1/2", "-1/2", "3", "-3", "1/3", "-1/3", "5/7", "-5/7", "10", "-10", "7", "-7"))


@dataclass(frozen=True)
class Proof:
    """What deciding ∀z: σ(a·z) = c·σ(z) produced: holds with steps, broken with a witness, or neither."""

    verdict: Verdict
    steps: tuple[Step, ...]
    witness: dict[str, sympy.Expr] | None = None
    note: str = ""
    #: the proof kernel's answer on a proof of membership (None when nothing was proved)
    kernel: Admission | None = None


def residual(sigma: Activation, a: sympy.Expr, c: sympy.Expr) -> sympy.Expr:
    """σ(a·z) − c·σ(z) with σ substituted."""
    return sigma(a * Z) - c * sigma.expr


def pair_witness(sigma: Activation, a: sympy.Expr, c: sympy.Expr,
                 grid: tuple[sympy.Rational, ...] = WITNESS_GRID) -> tuple[sympy.Rational, str] | None:
    """A rational z where σ(a·z) − c·σ(z) is certified non-zero and re-checked, with the enclosure.
    z = 0 is tried first (σ(0) ≠ 0 refutes every c ≠ 1 there), then the grid, then the rational
    break points of σ written in its conditions (z > 6, …) and their images under a."""
    for z0 in dict.fromkeys((S.Zero, *grid, *_break_points(sigma, a))):
        try:
            value = at_point(sigma.expr, Z, a * z0) - c * at_point(sigma.expr, Z, z0)
            certificate = certify_nonzero(value, {}, max_prec=EXACT_SIGN_BITS)
            if certificate is None or recheck_sign(value, {}) != certificate.sign:
                continue
        except (EvaluationError, Undecided, TypeError, ValueError):
            continue
        shown = (f"exactly {certificate.lower}" if certificate.exact else
                 f"in [{certificate.lower}, {certificate.upper}] (Arb, {certificate.prec} bits)")
        return z0, shown
    return None


def _break_points(sigma: Activation, a: sympy.Expr) -> list[sympy.Rational]:
    """The rationals b of the conditions z ⋚ b in σ, and b/a when that is rational."""
    out = []
    for node in sympy.preorder_traversal(sigma.expr):
        if isinstance(node, sympy.core.relational.Relational):
            for lhs, rhs in ((node.lhs, node.rhs), (node.rhs, node.lhs)):
                if lhs == Z and rhs.is_Rational:
                    out.append(rhs)
                    if (rhs / a).is_Rational:
                        out.append(rhs / a)
    return out


def _decided(statement: Step, decide: Callable[[], Any]) -> Any:
    """The decider's answer, or an inconclusive Proof when the budget runs out or SymPy, mpmath or
    FLINT fail inside it (a failure in symcheck's own code is a bug and propagates)."""
    try:
        return decide()
    except BudgetExceeded:
        return Proof(Verdict.INCONCLUSIVE, (statement,), note="the time budget ran out")
    except Exception as err:
        if not failed_outside(err):
            raise
        return Proof(Verdict.INCONCLUSIVE, (statement,), note=f"{failed_outside(err)} failed ({type(err).__name__})")


def prove_pair(sigma: Activation, a: sympy.Expr, c: sympy.Expr, budget: Budget) -> Proof:
    """Decide ∀z ∈ R: σ(a·z) = c·σ(z) for one pair: a proof by cases, a certified witness, or neither."""
    r = residual(sigma, a, c)
    statement = Step("Statement", f"for all z ∈ R: σ({text(a * Z)}) = {text(c)}·σ(z)",
                     ForAll((Relation(Rel.IN, Z, S.Reals),), member_condition(a * Z, c)),
                     f"(a, c) = ({text(a)}, {text(c)}) is in the group iff this holds", Status.GIVEN)
    decision = _decided(statement, lambda: decide_zero(r, Z, budget))
    if isinstance(decision, Proof):
        return decision
    if decision.verdict is Verdict.HOLDS:
        found = _guarded(r, {Z: whole_line()}, budget)
        if found is None:
            return _admitted(Proof(Verdict.HOLDS, (statement, *piece_steps(decision))),
                             certify_member(sigma, a, c, seconds=max(1.0, budget.remaining())))
        return _refuted((sigma, a, c), statement, {Z: found}, r, "found by the guard; the proof above is withdrawn")
    if decision.verdict is Verdict.BROKEN:
        return _refuted((sigma, a, c), statement, {Z: decision.point}, r, "found by the one-variable decider")
    found, _ = fallback_witness(r, {Z: None}, budget, {})
    if found is not None:
        return _refuted((sigma, a, c), statement, {Z: found.witness[Z]}, r, "found by the numeric fallback")
    return Proof(Verdict.INCONCLUSIVE, (statement, *piece_steps(decision)),
                 note=decision.note or "neither proved nor refuted")


def prove_family(sigma: Activation, sign: int, c: sympy.Expr, budget: Budget) -> Proof:
    """Decide ∀a (a > 0, a < 0, or a ≠ 0 for ``sign`` 1, −1, 0) ∀z ∈ R: σ(a·z) = c(a)·σ(z)."""
    domain = {1: "positive", -1: "negative", 0: "any"}[sign]
    where = {1: "a > 0", -1: "a < 0", 0: "a ≠ 0"}[sign]
    where_formula = Relation({1: Rel.GT, -1: Rel.LT, 0: Rel.NE}[sign], A, S.Zero)
    lhs, rhs = sigma(A * Z), c * sigma.expr
    statement = Step("Statement", f"for all {where}, z ∈ R: σ(a·z) = {text(c)}·σ(z)",
                     ForAll((where_formula, Relation(Rel.IN, Z, S.Reals)), member_condition(A * Z, c)),
                     f"every (a, {text(c)}) with {where} is in the group iff this holds", Status.GIVEN)
    space = {A: scale_regions(domain), Z: whole_line()}
    decision = _decided(statement, lambda: decide_plane(lhs, rhs, space, budget))
    if isinstance(decision, Proof):
        return decision
    difference = lhs - rhs
    if decision.verdict is Verdict.HOLDS:
        present = {v: r for v, r in space.items() if v in difference.free_symbols}
        found = _guarded_point(difference, present, budget) if present else None
        if found is None:
            return _admitted(Proof(Verdict.HOLDS, (statement, *case_steps(decision, space))),
                             certify_member(sigma, A, c, domain, seconds=max(1.0, budget.remaining())))
        return _refuted((sigma, A, c), statement, {A: found.get(A, S.One), Z: found.get(Z, S.One)}, difference,
                        "found by the guard; the proof above is withdrawn")
    if decision.verdict is Verdict.BROKEN:
        return _refuted((sigma, A, c), statement, dict(decision.witness), difference, f"found on {decision.found}")
    found, _ = fallback_witness(difference, space, budget, {})
    if found is not None:
        return _refuted((sigma, A, c), statement, dict(found.witness), difference, "found by the numeric fallback")
    return Proof(Verdict.INCONCLUSIVE, (statement, *case_steps(decision, space)),
                 note=decision.note or "neither proved nor refuted")


def _admitted(proof: Proof, outcome: Any) -> Proof:
    """A member is reported only when the independent kernel accepts its certificate."""
    admission = admit(outcome)
    if admission.accepted:
        return Proof(proof.verdict, proof.steps, proof.witness, proof.note, admission)
    return Proof(Verdict.INCONCLUSIVE, proof.steps, note=admission.note, kernel=admission)


def _guarded(r: sympy.Expr, space, budget: Budget) -> sympy.Rational | None:
    found = _guarded_point(r, space, budget)
    return None if found is None else found[Z]


def _guarded_point(difference: sympy.Expr, space, budget: Budget):
    if not difference.free_symbols:
        return None
    try:
        found = counterexample(difference, space, budget)
    except BudgetExceeded:
        return None
    return None if found is None else dict(found.point)


def _refuted(member: tuple[Activation, sympy.Expr, sympy.Expr], statement: Step, point: dict,
             difference: sympy.Expr, origin: str) -> Proof:
    """Certify ``difference`` ≠ 0 at ``point`` and re-check it independently, then have the kernel
    re-evaluate σ(a·z) − c·σ(z) there from ``member`` = (σ, a, c): broken, or not decided."""
    values = {v: point[v] for v in difference.free_symbols if v in point}
    certificate = certify_nonzero(difference, values, max_prec=EXACT_SIGN_BITS)
    shown = ", ".join(f"{text(v)} = {text(q)}" for v, q in point.items())
    witness_step = Step("Witness", shown, point_formula(point),
                        origin, Status.GIVEN)
    if certificate is None or recheck_sign(difference, values) != certificate.sign:
        return Proof(Verdict.INCONCLUSIVE, (statement, witness_step,
                                            Step("Certificate", "not certified at the witness", Text("not certified"),
                                                 "", Status.FAILED)), note="a candidate witness was not certified")
    described = (f"exactly {certificate.lower}" if certificate.exact else
                 f"in [{certificate.lower}, {certificate.upper}] (Arb, {certificate.prec} bits)")
    steps = (statement, witness_step,
             Step("Certificate", f"σ(a·z) − c·σ(z) ≠ 0: {described}",
                  Relation(Rel.NE, Difference(sigma_at(A * Z), Product((C, sigma_at(Z)))), S.Zero),
                  "exact or ball arithmetic on the statement itself; mpmath interval arithmetic agrees on the sign",
                  Status.CERTIFIED))
    sigma, a, c = member
    admission = admit(certify_nonmember(sigma, a, c, {text(v): q for v, q in point.items()}))
    if not admission.accepted:
        return Proof(Verdict.INCONCLUSIVE, steps, note=admission.note, kernel=admission)
    return Proof(Verdict.BROKEN, steps, {text(v): q for v, q in point.items()}, kernel=admission)
