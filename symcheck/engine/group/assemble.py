"""The scalar symmetry group of an activation, with a proof for every member and for maximality.

G_σ = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}. It is a group under (a, c)·(a′, c′) =
(a·a′, c·c′) as soon as σ ≢ 0 (then c ≠ 0). :func:`symmetry_group` finds it in three moves:

1. the maximality arguments (:mod:`symcheck.engine.group.maximality`) bound the a of each sign:
   none, finitely many candidates, a law c = K·|a|^k on the half-line, or a discrete set;
2. every candidate is decided by the engine's own deciders (:mod:`symcheck.engine.group.members`):
   a member needs a proof that σ(a·z) − c·σ(z) ≡ 0, a non-member a certified witness z;
3. what is proved becomes the components; the group is ``complete`` when every a was settled.

The result types live in :mod:`symcheck.engine.group.results` (and what the group means for each
unit in :mod:`symcheck.engine.group.formulations`); the certified facts the arguments use in
:mod:`symcheck.engine.group.facts`, the arguments away from 0 in :mod:`symcheck.engine.group.breaks`.

Where no argument applies the group is partial: the proved members, ``None`` for the rest, and a
note that names the missing argument. Knows no activation names.

>>> symmetry_group("relu").components[0].describe()
'a > 0, c = a'
>>> symmetry_group("tanh").contains(-1, -1), symmetry_group("gelu").contains(2, 2)
(True, False)
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, overload

import sympy
from sympy import S

from symcheck.core.budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from symcheck.core.errors import Undecided
from symcheck.core.formula import (
    And,
    BigUnion,
    Cartesian,
    FiniteSet,
    ForAll,
    Neg,
    Paren,
    Power,
    Ratio,
    Rel,
    Relation,
    SetBuilder,
    SetMinus,
    Terms,
    Text,
    Tuple,
)
from symcheck.core.printing import text
from symcheck.core.results import Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.certificate.complete import certify_complete
from symcheck.engine.certificate.emit import Certificate, certify_zero
from symcheck.engine.group.facts import (
    Bound,
    BoundKind,
    C,
    G,
    Law,
    exact_form,
    member_condition,
    nonzero_point,
)
from symcheck.engine.group.facts import certified_sign as _sign_of
from symcheck.engine.group.maximality import bounds
from symcheck.engine.group.members import WITNESS_GRID, Proof, prove_family, prove_pair
from symcheck.engine.group.results import (
    ASet,
    ASetKind,
    Component,
    Exclusion,
    J,
    SymmetryGroup,
)
from symcheck.engine.kernel_gate import admit
from symcheck.engine.symmetries import failed_outside
from symcheck.engine.zero import decide_zero
from symcheck.exact.signs import at_point
from symcheck.language.activations import Activation
from symcheck.language.activations import activation as _lookup
from symcheck.language.symbols import SIGMA_NAME, A, Z, sigma_at

if TYPE_CHECKING:  # imported where used: a family group is built only with params
    from symcheck.engine.group.family import FamilyGroup

__all__ = ["symmetry_group"]

#: a second pair (a′, c′), for the closure under products
A_, C_ = sympy.symbols("a' c'")


# ---- building the group -----------------------------------------------------------------------

@overload
def symmetry_group(act: Any, *, timeout: float = DEFAULT_TIMEOUT, params: None = None) -> SymmetryGroup: ...


@overload  # empty params declare no parameter: an ordinary group
def symmetry_group(act: Any, *, timeout: float = DEFAULT_TIMEOUT,
                   params: Any = None) -> SymmetryGroup | FamilyGroup: ...


def symmetry_group(act: Any, *, timeout: float = DEFAULT_TIMEOUT,
                   params: Any = None) -> SymmetryGroup | FamilyGroup:
    """G_σ for ``act`` (anything :func:`symcheck.language.activations.activation` accepts). With
    declared ``params`` (``{"beta": "beta>0"}``) a :class:`~symcheck.engine.group.family.FamilyGroup`,
    whose ``contains(a, c, params={"beta": v})`` answers for one value."""
    if params:
        from symcheck.engine.group.family import FamilyGroup
        from symcheck.language.family import parse_family
        return FamilyGroup(parse_family(act, params), timeout, symmetry_group)
    started = time.perf_counter()
    sigma = act if isinstance(act, Activation) else _lookup(act)
    budget = Budget(timeout)
    steps: list[Step] = [Step("Definition", "G = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}",
                              Relation(Rel.EQ, G, SetBuilder(Tuple((A, C)), And((
                                  Relation(Rel.NE, A, S.Zero),
                                  ForAll((Relation(Rel.IN, Z, S.Reals),), member_condition(A * Z, C),
                                         trailing=True, tight=True))))),
                              "a group under (a, c)·(a′, c′) = (aa′, cc′) when σ is not identically 0", Status.GIVEN)]
    try:
        with budget.step():  # every argument, not only the deciders, stops at the deadline
            return _build(sigma, budget, steps, started)
    except BudgetExceeded:
        note = "partial: the time budget ran out"
    except Undecided as why:
        note = f"partial: a question the arguments need was not settled ({why})"
    except Exception as err:
        if not failed_outside(err):
            raise  # a bug in symcheck itself: the CLI reports it as an internal error
        note = (f"partial: {failed_outside(err)} failed inside the arguments ({type(err).__name__}: "
                f"{' '.join(str(err).split())[:160]})")
    return SymmetryGroup(sigma, (_identity(),), False, tuple(steps), note=note,
                         elapsed=time.perf_counter() - started)


def _identity() -> Component:
    return Component(ASet(ASetKind.FINITE, (S.One,)), A, (Step("Proof", "σ(1·z) = 1·σ(z)",
                                                         Relation(Rel.EQ, sigma_at(Z), sigma_at(Z)),
                                                         "the identity is always a member", Status.VERIFIED),),
                     pairs=((S.One, S.One),))


def _build(sigma: Activation, budget: Budget, steps: list[Step], started: float) -> SymmetryGroup:
    point = nonzero_point(sigma, (*WITNESS_GRID, S.Zero))
    if point is None:
        decision = decide_zero(sigma.expr, Z, budget)
        if decision.verdict is Verdict.BROKEN:  # σ vanishes on the grid, not everywhere
            point = nonzero_point(sigma, (decision.point,))
        if point is None:
            return _degenerate(sigma, decision, steps, started)
    z0, value = point
    steps.append(Step("Value at a point", f"σ({text(z0)}) = {text(value)} ≠ 0",
                      Relation(Rel.NE, Relation(Rel.EQ, sigma_at(z0), value), S.Zero),
                      f"certified; z = {text(z0)} gives c = σ({text(z0)}·a)/σ({text(z0)}) for every member, "
                      "and c ≠ 0 (else σ(a·z) = 0 for every z)", Status.CERTIFIED))
    arguments = bounds(sigma, point, budget)
    steps.extend(arguments.steps)
    notes = list(arguments.missing)
    finite: list[tuple[sympy.Expr, sympy.Expr, Proof]] = []
    laws: dict[int, tuple[Law, Proof]] = {}
    discrete: dict[int, tuple[Bound, Proof]] = {}
    excluded: list[Exclusion] = []
    certificates: list[tuple[str, dict]] = []  # every member's certificate, as the kernel accepted it
    settled = {1: False, -1: False}
    used = dict(arguments.bounds)  # the bounds as settled (a discrete base raised to its power, a reflection)
    for sign in (1, -1):
        bound = arguments.bounds[sign]
        if bound.kind is BoundKind.EMPTY:
            settled[sign] = True
        elif bound.kind is BoundKind.POINTS:
            settled[sign] = True
            for a0, c0 in bound.points:
                c0 = _c_from_value(sigma, a0, point) if c0 is None else c0
                proof = prove_pair(sigma, a0, c0, budget)
                if _kept(certificates, f"(a, c) = ({text(a0)}, {text(c0)})", proof):
                    finite.append((a0, c0, proof))
                elif _sign_of(a0 - 1) == 0 and _sign_of(c0 - 1) == 0:
                    pass  # the identity: always a member, added below (the kernel needs no certificate of it)
                elif proof.verdict is Verdict.BROKEN:
                    excluded.append(Exclusion(a0, c0, _witness(proof), proof.steps))
                else:
                    settled[sign] = False
                    notes.append(f"(a, c) = ({text(a0)}, {text(c0)}) was neither proved nor refuted: {proof.note}")
        elif bound.kind is BoundKind.LAW:
            law = bound.law
            assert law is not None, "a law bound without its law"  # _resolve builds it with one
            proof = prove_family(sigma, sign, law.c(sign), budget)
            if _kept(certificates, f"{ASetKind.half(sign)} a, c = {text(law.c(sign))}", proof):
                laws[sign] = (law, proof)
                settled[sign] = True
            else:
                if proof.verdict is Verdict.BROKEN:
                    a0 = _witness(proof).get("a")
                    excluded.append(Exclusion(a0, law.c(sign).xreplace({A: a0}), _witness(proof), proof.steps))
                notes.append(f"c = {text(law.c(sign))} is forced for {ASetKind.half(sign)} a, "
                             "but not every such a is a member and no argument says which are")
        elif bound.kind is BoundKind.DISCRETE and sign == 1:
            found = _generator(sigma, bound, point, budget, excluded)
            if isinstance(found, str):
                notes.append(found)
                continue
            bound, proof = found
            used[1] = bound
            discrete[1] = (bound, proof)
            settled[1] = True
            _kept(certificates, f"generator (a, c) = ({text(bound.base)}, {text(bound.base_c)})", proof)
        elif sign == -1 and bound.kind is BoundKind.OPEN and used[1].by == "log-derivative" and settled[1]:
            # a > 0 is a = 1 alone: a < 0 is a = −1 alone, by a member (−1, u) (reflection)
            unit_c = _c_from_value(sigma, -S.One, point)
            proof = prove_pair(sigma, -S.One, unit_c, budget)
            if _kept(certificates, f"(a, c) = (-1, {text(unit_c)})", proof):
                finite.append((-S.One, unit_c, proof))
                used[-1] = Bound(-1, BoundKind.POINTS, points=((-S.One, unit_c),), reason="reflection", by="reflection")
                settled[-1] = True
                steps.append(Step("Reflection (a < 0)", f"a < 0: (a, c) = (−1, {text(unit_c)})·(−a, c/{text(unit_c)}), "
                                  "so a = −1", Relation(Rel.EQ, A, -S.One),
                                  f"(−1, {text(unit_c)}) is a proved member and the only a > 0 is 1", Status.THEOREM))
            else:
                _reflection_refused(proof, unit_c, bound.reason, excluded, notes)
        elif sign == -1 and bound.kind is BoundKind.OPEN and 1 in discrete:
            # a member (−1, u) reflects the a > 0 found above onto a < 0
            unit_c = _c_from_value(sigma, -S.One, point)
            proof = prove_pair(sigma, -S.One, unit_c, budget)
            if _kept(certificates, f"generator (a, c) = (-1, {text(unit_c)})", proof):
                base = discrete[1][0]
                used[-1] = Bound(-1, BoundKind.DISCRETE, base=base.base, base_c=base.base_c, unit_c=unit_c,
                                 reason=f"a = −{text(base.base)}^j", by="reflection")
                discrete[-1] = (used[-1], proof)
                settled[-1] = True
                steps.append(Step("Reflection (a < 0)", f"a < 0: (a, c) = (−1, {text(unit_c)})·(−a, c/{text(unit_c)}), "
                                  f"so a = −{text(base.base)}^j",
                                  Relation(Rel.EQ, A, Neg(Power(base.base, J, bare_exponent=True))),
                                  f"(−1, {text(unit_c)}) is a proved member (below) and G is a group; the a > 0 in G "
                                  "are the powers above", Status.THEOREM))
            else:
                _reflection_refused(proof, unit_c, bound.reason, excluded, notes)
        else:
            notes.append(bound.reason)
    if 1 not in discrete and 1 not in laws and not any(_sign_of(a0 - 1) == 0 for a0, _, _ in finite):
        finite.insert(0, (S.One, S.One, Proof(Verdict.HOLDS, _identity().steps)))
    components = _components(sigma, finite, laws, discrete, budget)
    complete = settled[1] and settled[-1]
    if complete:  # the maximality argument passes the kernel too, or the group is partial
        admission = admit(certify_complete(sigma, point, dataclasses.replace(arguments, bounds=used), certificates,
                                           excluded, {s: _argument(used[s]) for s in (1, -1)}, budget=budget))
        if admission.certificate is not None:  # accepted
            certificates.append(("complete", admission.certificate.data))
        else:
            complete = False
            notes.append(f"the completeness argument is not reported: {admission.note}")
    if complete:
        steps.append(Step("Maximality", "every (a, c) in G lies in a component above",
                          Relation(Rel.EQ, G, BigUnion(Text("components"))),
                          "for each sign of a the arguments above leave only the listed candidates, each "
                          "proved a member or refuted by a certified witness", Status.THEOREM))
    note = "" if complete else "partial: " + "; ".join(dict.fromkeys(notes))
    return SymmetryGroup(sigma, components, complete, tuple(steps), tuple(excluded), note,
                         time.perf_counter() - started, point, tuple(certificates))


def _argument(bound: Bound) -> str:
    """The completeness certificate's argument for one sign: what the maximality bound rests on."""
    if bound.by:
        return bound.by
    if bound.kind is BoundKind.LAW:
        return "family"
    if bound.kind is BoundKind.POINTS and bound.reason.startswith("|a| = 1"):
        return "breaks"
    if bound.kind is BoundKind.DISCRETE:
        return "log-periodic" if bound.sign == 1 else "reflection"
    return "taylor" if bound.kind in (BoundKind.POINTS, BoundKind.EMPTY) else bound.kind.value


#: the highest power B^n of a log-periodic base B tried as the generator of the a > 0
POWER_CAP = 8


def _generator(sigma: Activation, bound: Bound, point: tuple, budget: Budget,
               excluded: list[Exclusion]) -> tuple[Bound, Proof] | str:
    """The a > 0 in G are the powers of one B^n (a subgroup of {B^j : j ∈ Z}, G being a group with
    c unique): the least n ≤ POWER_CAP whose B^n is a proved member, every lower power refuted;
    otherwise why not (a note)."""
    # breaks.log_periodic builds the bound with both
    assert bound.form is not None and bound.base is not None, "a log-periodic bound without its form"
    m = bound.form[1][0]  # the growth e^(mt)
    for n in range(1, POWER_CAP + 1):
        a_n = exact_form(bound.base**n)
        # the only c possible: the chosen harmonic is rotated by nπ, so c = (−1)^n·e^(m·nπ/ω)
        c_n = exact_form((-1) ** n * a_n**m)
        proof = prove_pair(sigma, a_n, c_n, budget)
        if _certified(proof):
            reason = f"a = {text(a_n)}^j with c = ({text(c_n)})^j" + (
                f" ({text(bound.base)}^k refuted for 0 < k < {n})" if n > 1 else "")
            return Bound(1, BoundKind.DISCRETE, base=a_n, base_c=c_n, reason=reason, form=bound.form, power=n), proof
        if proof.verdict is not Verdict.BROKEN:
            return f"{bound.reason}: (a, c) = ({text(a_n)}, {text(c_n)}) was neither proved nor refuted: {proof.note}"
        excluded.append(Exclusion(a_n, c_n, _witness(proof), proof.steps))
    return (f"{bound.reason}, but {text(bound.base)}^k is refuted for every k from 1 to {POWER_CAP} (the cap): "
            "the a > 0 in G are 1 alone or the powers of a higher power, and no argument says which")


def _reflection_refused(proof: Proof, unit_c: sympy.Expr, reason: str, excluded: list[Exclusion],
                        notes: list[str]) -> None:
    """(−1, unit_c) is not a proved member: its refutation kept, and why a < 0 stays open."""
    if proof.verdict is Verdict.BROKEN:
        excluded.append(Exclusion(-S.One, unit_c, _witness(proof), proof.steps))
    notes.append(f"{reason}: (−1, {text(unit_c)}) is not a member"
                 + (" (refuted)" if proof.verdict is Verdict.BROKEN else f" or undecided: {proof.note}")
                 + ", and no other argument places the a < 0")


def _certificate(proof: Proof) -> Certificate | None:
    """The certificate the kernel accepted for a proof of a member, else None: a member counts
    only with one (a proof the engine reports without one is a slip somewhere, never a member)."""
    return proof.kernel.certificate if proof.verdict is Verdict.HOLDS and proof.kernel is not None else None


def _certified(proof: Proof) -> bool:
    return _certificate(proof) is not None


def _kept(certificates: list[tuple[str, dict]], what: str, proof: Proof) -> bool:
    """Keeps the member's kernel certificate and says whether it is a member."""
    certificate = _certificate(proof)
    if certificate is None:
        return False
    certificates.append((what, certificate.data))
    return True


def _witness(proof: Proof) -> Mapping[str, sympy.Expr]:
    """A refutation's certified witness (members.py builds every broken Proof with one)."""
    assert proof.witness is not None, "a broken proof without its witness"
    return proof.witness


def _c_from_value(sigma: Activation, a0: sympy.Expr, point: tuple[sympy.Rational, sympy.Expr]) -> sympy.Expr:
    z0, value = point
    return exact_form(at_point(sigma.expr, Z, a0 * z0) / value)


def _degenerate(sigma: Activation, decision: Any, steps: list[Step], started: float) -> SymmetryGroup:
    """No point is certified non-zero: σ ≡ 0 (every pair, when the decider proved it), or nothing can be said."""
    admission = admit(certify_zero(sigma.expr, {Z: ()})) if decision.verdict is Verdict.HOLDS else None
    if admission is not None and not admission.accepted:
        return SymmetryGroup(sigma, (_identity(),), False, tuple(steps), note="partial: " + admission.note,
                             elapsed=time.perf_counter() - started)
    if admission is not None and admission.certificate is not None:
        proof = Step("Proof", "σ ≡ 0: σ(a·z) = 0 = c·σ(z) for every a and c",
                     Relation(Rel.EQUIV, SIGMA_NAME, S.Zero),
                     "σ is identically zero (proved by the one-variable decider)", Status.VERIFIED)
        steps.append(Step("Degenerate", "σ ≡ 0, so every pair (a, c) with a ≠ 0 is a member",
                          Relation(Rel.EQ, G, Cartesian((Paren(SetMinus(S.Reals, FiniteSet((S.Zero,)))), S.Reals))),
                          "", Status.VERIFIED))
        return SymmetryGroup(sigma, (Component(ASet(ASetKind.ALL), None, (proof,)),), True, tuple(steps),
                             elapsed=time.perf_counter() - started,
                             certificates=(("σ ≡ 0", admission.certificate.data),))
    return SymmetryGroup(sigma, (_identity(),), False, tuple(steps),
                         note="partial: σ was neither certified non-zero at a sample point nor proved ≡ 0",
                         elapsed=time.perf_counter() - started)


def _merged(law_pos: Law, law_neg: Law) -> sympy.Expr | None:
    """One formula for c on a ≠ 0 when the laws of the two half-lines allow it."""
    if law_pos.k != law_neg.k or _sign_of(law_pos.K - 1) != 0:
        return None
    k = sympy.sympify(law_pos.k)
    options = [(1, sympy.Abs(A) ** k), (-1, sympy.sign(A) * sympy.Abs(A) ** k)]
    if k.is_integer:
        options.insert(0, ((-1) ** k, A**k))
    for K, c in options:
        if _sign_of(law_neg.K - K) == 0:
            return c
    return None


def _components(sigma: Activation, finite, laws, discrete, budget: Budget) -> tuple[Component, ...]:
    out: list[Component] = []
    if 1 in laws and -1 in laws:
        merged = _merged(laws[1][0], laws[-1][0])
        if merged is not None:
            proof = prove_family(sigma, 0, merged, budget)
            if _certified(proof):
                out.append(Component(ASet(ASetKind.ALL), merged, proof.steps, ((1, laws[1][0]), (-1, laws[-1][0]))))
                laws = {}
    for sign, (law, proof) in sorted(laws.items(), reverse=True):
        out.append(Component(ASet(ASetKind.half(sign)), law.c(sign), proof.steps, ((sign, law),)))
    if 1 in discrete:
        bound, proof = discrete[1]
        steps = proof.steps + ((discrete[-1][1].steps + (_closure(),)) if -1 in discrete else (_closure(),))
        negatives = -1 in discrete
        unit_c = discrete[-1][0].unit_c if negatives else None
        out.append(Component(ASet(ASetKind.DISCRETE, base=bound.base, negatives=negatives),
                             _discrete_c(bound.base, bound.base_c, unit_c), steps,
                             base_c=bound.base_c, unit_c=unit_c))
    for formula, group in _finite_groups(finite):
        if formula is None:
            for a0, c0, proof in group:
                out.append(Component(ASet(ASetKind.FINITE, (a0,)), c0, _titled(a0, proof), pairs=((a0, c0),)))
            continue
        steps = tuple(s for a0, _, proof in group for s in _titled(a0, proof))
        out.append(Component(ASet(ASetKind.FINITE, tuple(f[0] for f in group)), formula, steps,
                             pairs=tuple((f[0], f[1]) for f in group)))
    return tuple(out)


def _finite_groups(finite):
    """The proved finite pairs under one formula for c when one fits (c = a, or one constant), else one by one."""
    if not finite:
        return []
    if all(_sign_of(c0 - a0) == 0 for a0, c0, _ in finite):
        return [(A, finite)]
    if all(_sign_of(c0 - finite[0][1]) == 0 for _, c0, _ in finite):
        return [(finite[0][1], finite)]
    same = [f for f in finite if _sign_of(f[1] - f[0]) == 0]
    rest = [f for f in finite if f not in same]
    return ([(A, same)] if same else []) + [(None, rest)]


def _titled(a0: sympy.Expr, proof: Proof) -> tuple[Step, ...]:
    return tuple(dataclasses.replace(s, title=f"a = {text(a0)}: {s.title}") for s in proof.steps)  # keeps the case flag


def _closure() -> Step:
    return Step("Closure", "the generators proved above generate every pair of the component",
                Relation(Rel.IMPLIES, Relation(Rel.IN, Terms((Tuple((A, C)), Tuple((A_, C_)))), G),
                         Relation(Rel.IN, And((Tuple((A * A_, C * C_)),
                                               Tuple((Ratio(S.One, A), Ratio(S.One, C))))), G)),
                "σ(aa′z) = c·σ(a′z) = cc′·σ(z), and σ(z/a) = σ(z)/c: G is a group", Status.THEOREM)


def _discrete_c(base: sympy.Expr, base_c: sympy.Expr, unit_c: sympy.Expr | None) -> sympy.Expr:
    """c on a = ±base^j: (base_c/base)^j·a when that reads well, else the generators' product."""
    epsilon = _sign_of(base_c - base), _sign_of(base_c + base)
    if 0 in epsilon and (unit_c is None or _sign_of(unit_c + 1) == 0):
        return A if epsilon[0] == 0 else (-1) ** J * A
    if unit_c is None:
        return base_c**J
    return sympy.Piecewise((base_c**J, A > 0), (unit_c * base_c**J, True))
