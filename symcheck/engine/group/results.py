"""What the symmetry group of an activation is, as a result: a-sets, components with their proofs,
the group with its maximality argument, and exact three-valued membership.

Built by :func:`symcheck.engine.group.assemble.symmetry_group`; nothing here decides anything new: membership
is read off the proved components (True), a certified witness z or the proved maximality (False),
or left open (None).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import sympy
from sympy import S

from symcheck.core.formula import And, FiniteSet, Formula, PlusMinus, Power, Rel, Relation, to_latex
from symcheck.core.printing import text
from symcheck.core.rendering import render
from symcheck.core.results import Renderable, Status, Step
from symcheck.engine.group.facts import ASetKind, C, Law, exact_form, exact_number
from symcheck.engine.group.facts import certified_sign as _sign_of
from symcheck.engine.group.formulations import FORMS, FormulationSymmetries, formulation_symmetries
from symcheck.engine.group.members import WITNESS_GRID, pair_witness
from symcheck.language.activations import Activation
from symcheck.language.symbols import A

__all__ = ["ASet", "ASetKind", "Component", "Exclusion", "Membership", "SymmetryGroup", "exact_number", "set_text", "J"]

#: the integer index of a discrete a-set, a = ±base^j
J = sympy.Symbol("j", integer=True)


# ---- a-sets and components --------------------------------------------------------------------

@dataclass(frozen=True)
class ASet:
    """The a of one component: all a ≠ 0, a > 0, a < 0, a finite set, or {±base^j : j ∈ Z}."""

    kind: ASetKind
    points: tuple[sympy.Expr, ...] = ()
    base: sympy.Expr | None = None
    negatives: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", ASetKind(self.kind))  # a typo is an error, not an a-set

    def contains(self, a: sympy.Expr) -> bool | None:
        """Is a in the set? Decided exactly (a is a closed-form number), None when undecided."""
        sign = _sign_of(a)
        if sign is None:
            return None
        if sign == 0:
            return False
        if self.kind in (ASetKind.ALL, ASetKind.POSITIVE, ASetKind.NEGATIVE):
            return self.kind is ASetKind.ALL or self.kind is ASetKind.half(sign)
        if self.kind is ASetKind.FINITE:
            known = [_sign_of(a - p) for p in self.points]
            return True if 0 in known else None if None in known else False
        if sign == -1 and not self.negatives:
            return False
        index = _power_index(sign * a, self.base)  # |a| by the certified sign, not SymPy's Abs
        return None if index is None else index is not False

    def describe(self) -> str:
        if self.kind is ASetKind.FINITE:
            return "a ∈ {" + ", ".join(text(p) for p in self.points) + "}"
        if self.kind is ASetKind.DISCRETE:
            return f"a = {'±' if self.negatives else ''}{_power_text(self.base)}, j ∈ Z"
        return {ASetKind.ALL: "a ≠ 0", ASetKind.POSITIVE: "a > 0", ASetKind.NEGATIVE: "a < 0"}[self.kind]

    def formula(self) -> Formula:
        """The a-set as a condition on a."""
        if self.kind is ASetKind.FINITE:
            return Relation(Rel.IN, A, FiniteSet(self.points))
        if self.kind is ASetKind.DISCRETE:
            power = Power(self.base, J, grouped_base=True)
            return And((Relation(Rel.EQ, A, PlusMinus(power) if self.negatives else power),
                        Relation(Rel.IN, J, S.Integers)))
        return Relation({ASetKind.ALL: Rel.NE, ASetKind.POSITIVE: Rel.GT, ASetKind.NEGATIVE: Rel.LT}[self.kind],
                        A, S.Zero)

    def latex(self) -> str:
        return to_latex(self.formula())

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "points": [sympy.sstr(p) for p in self.points],
                "base": None if self.base is None else sympy.sstr(self.base), "negatives": self.negatives,
                "text": self.describe()}


def _power_text(base: sympy.Expr) -> str:
    shown = text(base)
    return f"({shown})^j" if not (base.is_Integer or base.is_Symbol) else f"{shown}^j"


def _power_index(modulus: sympy.Expr, base: sympy.Expr) -> int | bool | None:
    """The integer j with modulus = base^j; False when there is provably none (modulus lies
    strictly between two consecutive powers, certified); None when undecided."""
    try:
        guess = int(round(float(sympy.log(modulus) / sympy.log(base))))
    except (TypeError, ValueError, OverflowError):
        return None
    if _sign_of(modulus - base**guess) == 0:
        return guess
    growing = _sign_of(base - 1)
    if growing not in (1, -1):
        return None
    # certified: base^(j) < modulus < base^(j+1) for one j, so no power equals it
    for low, high in ((guess - 1, guess), (guess, guess + 1)):
        below, above = (low, high) if growing == 1 else (high, low)
        if _sign_of(modulus - base**below) == 1 and _sign_of(base**above - modulus) == 1:
            return False
    return None


@dataclass(frozen=True)
class Component:
    """A family of members: the a-set and c as a function of a, with the engine's proof.

    ``c`` is a SymPy expression in a (and j for a discrete set), or None when every c works
    (σ ≡ 0). ``laws`` give c = K·|a|^k on each half-line of an interval component; ``base_c``
    and ``unit_c`` the generators of a discrete one: c = unit_c^[a<0]·base_c^j.
    """

    aset: ASet
    c: sympy.Expr | None
    steps: tuple[Step, ...]
    laws: tuple[tuple[int, Law], ...] = ()
    pairs: tuple[tuple[sympy.Expr, sympy.Expr], ...] = ()
    base_c: sympy.Expr | None = None
    unit_c: sympy.Expr | None = None

    def c_at(self, a: sympy.Expr) -> sympy.Expr | None:
        """The c of (a, c) in this component, for an a of the a-set (None if there is none)."""
        if self.aset.contains(a) is not True:
            return None
        if self.c is None:
            return None
        if self.aset.kind is ASetKind.FINITE:
            return next(c for p, c in self.pairs if _sign_of(a - p) == 0)
        sign = _sign_of(a)
        assert sign is not None, "contains(a) is True only with a certified sign"
        if self.aset.kind is ASetKind.DISCRETE:
            base, base_c = _generators(self)
            j = _power_index(sign * a, base)
            return (self.unit_c if sign == -1 else S.One) * base_c**j
        law = dict(self.laws)[sign]
        return exact_form(law.K * (sign * a) ** law.k)

    def describe(self) -> str:
        return f"{self.aset.describe()}, " + ("every c" if self.c is None else f"c = {text(self.c)}")

    def formula(self) -> Formula:
        """The a-set and c."""
        return And((self.aset.formula(),
                    Relation(Rel.IN, C, S.Reals) if self.c is None else Relation(Rel.EQ, C, self.c)))

    def latex(self) -> str:
        return to_latex(self.formula())

    @property
    def proved(self) -> bool:
        return all(s.status is not Status.FAILED for s in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.aset.to_dict(), "c": None if self.c is None else sympy.sstr(self.c),
                "text": self.describe(), "proof": [s.to_dict() for s in self.steps]}


@dataclass(frozen=True)
class Exclusion:
    """A candidate (a, c) the arguments left open and the decider refuted with a certified witness."""

    a: sympy.Expr
    c: sympy.Expr
    witness: Mapping[str, sympy.Expr]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"a": sympy.sstr(self.a), "c": sympy.sstr(self.c),
                "witness": {k: sympy.sstr(v) for k, v in self.witness.items()},
                "proof": [s.to_dict() for s in self.steps]}


@dataclass(frozen=True)
class Membership:
    """The answer to "(a, c) ∈ G?": True (a proved component), False (a certified witness z or
    the maximality argument), None (not decided), and why."""

    value: bool | None
    reason: str
    witness: sympy.Rational | None = None


# ---- the group --------------------------------------------------------------------------------

@dataclass(frozen=True)
class SymmetryGroup(Renderable):
    """G_σ: the proved components, whether they are all of it, and the maximality argument."""

    activation: Activation
    components: tuple[Component, ...]
    complete: bool
    maximality: tuple[Step, ...]
    excluded: tuple[Exclusion, ...] = ()
    note: str = ""
    elapsed: float = 0.0
    #: z₀ with σ(z₀) certified non-zero, and σ(z₀): c = σ(a·z₀)/σ(z₀) for every member
    value_point: tuple[sympy.Rational, sympy.Expr] | None = None
    #: (what, certificate) for every proved member, each accepted by the proof kernel; the
    #: maximality argument (``complete``) is the engine's and is not among them yet
    certificates: tuple[tuple[str, dict], ...] = ()

    def certificate_bundle(self) -> dict | None:
        """The members' certificates as one document ``symcheck check-certificate`` reads, or None."""
        if not self.certificates:
            return None
        return {"schema": "symcheck.certificate-bundle/1",
                "about": {"statement": f"members of the symmetry group of σ = {self.activation.name}"},
                "certificates": [{"what": what, "certificate": data} for what, data in self.certificates]}

    @property
    def title(self) -> str:
        return f"symmetry group of σ = {self.activation.name}" + ("" if self.complete else " (partial)")

    def __repr__(self) -> str:
        shown = "; ".join(c.describe() for c in self.components) or "no member proved"
        return f"<SymmetryGroup σ = {self.activation.name}: {shown}{'' if self.complete else ' (partial)'}>"

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))

    # -- membership --

    def membership(self, a: Any, c: Any) -> Membership:
        """(a, c) ∈ G with its reason: True only with a proof, False only with a certified witness z
        or the proved maximality, None otherwise."""
        a, c = exact_number(a), exact_number(c)
        if _sign_of(a) == 0:
            return Membership(False, "a = 0 is not in the group by definition")
        for component in self.components:
            if component.aset.contains(a) is not True:
                continue
            if component.c is None:
                return Membership(True, f"every pair is a member: {component.describe()}")
            expected = component.c_at(a)
            same = _sign_of(c - expected)
            if same == 0:
                return Membership(True, f"proved component {component.describe()}")
            if same is not None and self.value_point is not None:
                found = pair_witness(self.activation, a, c, (self.value_point[0], *WITNESS_GRID))
                if found is not None:
                    return Membership(False, f"c must be {text(expected)} for this a; σ(a·z) − c·σ(z) at "
                                             f"z = {text(found[0])} is {found[1]}", found[0])
        found = pair_witness(self.activation, a, c)
        if found is not None:
            return Membership(False, f"σ(a·z) − c·σ(z) at z = {text(found[0])} is {found[1]}", found[0])
        if self.complete and all(comp.aset.contains(a) is False for comp in self.components):
            return Membership(False, "a lies in no component and the group is complete (maximality)")
        return Membership(None, "not decided" + ("" if self.complete else ": the group is partial"))

    def contains(self, a: Any, c: Any) -> bool | None:
        """True, False, or None where the group is only partly decided — never a guess."""
        return self.membership(a, c).value

    # -- inverse scaling --

    def inverse_scaling_alphas(self) -> sympy.Set | None:
        """The exact set {α : (α, α) ∈ G}; None when the group is partial (or a sign it needs is
        not decided)."""
        if not self.complete:
            return None
        parts = [_alphas(component) for component in self.components]
        if any(part is None for part in parts):
            return None
        return sympy.Union(*parts) if parts else S.EmptySet

    def inverse_scaling_text(self) -> str:
        """{α : (α, α) ∈ G} in words: "α > 0", "α ∈ {-1, 1}", "α = ±2^n, n ∈ Z" (or "unknown")."""
        alphas = self.inverse_scaling_alphas()
        return "not decided" + (" (the group is partial)" if not self.complete else "") if alphas is None \
            else set_text(alphas)

    def inverse_scaling(self, domain: Any) -> bool | None:
        """Does (α, α) ∈ G hold for every α of the domain (positive, negative, any, or a number)?"""
        from symcheck.language.transformations import DomainName
        from symcheck.language.transformations import domain as parse
        parsed = parse(domain)
        if parsed.value is not None:
            return self.contains(parsed.value, parsed.value)
        halves = {DomainName.POSITIVE: (1,), DomainName.NEGATIVE: (-1,), DomainName.ANY: (1, -1)}[parsed.name]
        # a half-line is never covered by countably many points: only a law c = α on it covers it
        if all(any(_covers(component, sign) for component in self.components) for sign in halves):
            return True
        if self.complete:
            return False
        for q in (S.One, -S.One, 2, -2, sympy.Rational(1, 2), -sympy.Rational(1, 2), 3, -3):
            if (1 if q > 0 else -1) in halves and self.contains(q, q) is False:
                return False
        return None

    # -- formulations --

    def formulation_symmetries(self, form: str) -> FormulationSymmetries:
        """The diagonal parameter symmetries (q, k, v) → (λq, μk, νv) of one unit of ``form``."""
        return formulation_symmetries(self, form)

    def to_dict(self) -> dict[str, Any]:
        alphas = self.inverse_scaling_alphas()
        return {"activation": self.activation.name, "formula": self.activation.formula,
                "parsed": self.activation.parsed,
                "complete": self.complete,
                "components": [c.to_dict() for c in self.components],
                "maximality": [s.to_dict() for s in self.maximality],
                "excluded": [e.to_dict() for e in self.excluded],
                "inverse_scaling_alphas": None if alphas is None else sympy.sstr(alphas),
                "formulations": {form: self.formulation_symmetries(form).to_dict() for form in _forms()},
                "note": self.note, "elapsed_seconds": round(self.elapsed, 4)}


def set_text(values: sympy.Set, name: str = "α") -> str:
    """A set of reals as people write it: half-lines by their inequality, finite sets listed,
    integer powers as ±b^n."""
    positive, negative = sympy.Interval.open(0, S.Infinity), sympy.Interval.open(-S.Infinity, 0)
    if values == S.EmptySet:
        return f"no {name}"
    if values == sympy.Union(positive, negative):
        return f"{name} ≠ 0"
    if values in (positive, negative):
        return f"{name} {'>' if values == positive else '<'} 0"
    if isinstance(values, sympy.FiniteSet):
        return f"{name} ∈ {{{', '.join(text(v) for v in sorted(values, key=lambda v: float(v)))}}}"
    parts = values.args if isinstance(values, sympy.Union) else (values,)
    powers = [p for p in parts if isinstance(p, sympy.ImageSet)]
    if len(powers) == len(parts):
        bases = {text(p.lamda.expr.as_base_exp()[0]) if not p.lamda.expr.could_extract_minus_sign()
                 else "-" + text((-p.lamda.expr).as_base_exp()[0]) for p in powers}
        plain = sorted(b.lstrip("-") for b in bases)
        if len(set(plain)) == 1:
            sign = "±" if len(bases) == 2 else ("-" if next(iter(bases)).startswith("-") else "")
            return f"{name} = {sign}{plain[0]}^n, n ∈ Z"
    return f"{name} ∈ {text(values)}"


def _covers(component: Component, sign: int) -> bool:
    """Every (α, α) with α of ``sign`` lies in the component (c = α on that whole half-line)."""
    kind = component.aset.kind
    if kind not in (ASetKind.ALL, ASetKind.half(sign)):
        return False
    if component.c is None:
        return True
    law = dict(component.laws).get(sign)
    return law is not None and law.k == 1 and _sign_of(law.K - sign) == 0


def _alphas(component: Component) -> sympy.Set | None:
    """{α : (α, α) in the component}, exactly (None: a sign it needs is not decided)."""
    if component.c is None:
        return _half_lines(component.aset.kind)
    kind = component.aset.kind
    if kind is ASetKind.FINITE:
        same = [(a, _sign_of(c - a)) for a, c in component.pairs]
        if any(sign is None for _, sign in same):
            return None
        return sympy.FiniteSet(*(a for a, sign in same if sign == 0))
    if kind is ASetKind.DISCRETE:
        return _discrete_alphas(component)
    out = []
    for sign, law in component.laws:
        # K·|α|^k = sign·|α|: the whole half-line for k = 1, K = sign; else |α|^(k−1) = sign/K
        decided = _sign_of(law.K - sign) if law.k == 1 else _sign_of(sign / law.K)
        if decided is None:
            return None
        if law.k == 1:
            if decided == 0:
                out.append(_half_lines(ASetKind.half(sign)))
        elif decided == 1:
            ratio = exact_form(sign / law.K)
            out.append(sympy.FiniteSet(sign * exact_form(ratio ** (1 / sympy.Rational(law.k - 1)))))
    return sympy.Union(*out) if out else S.EmptySet


def _half_lines(kind: ASetKind) -> sympy.Set:
    positive, negative = sympy.Interval.open(0, S.Infinity), sympy.Interval.open(-S.Infinity, 0)
    return {ASetKind.POSITIVE: positive, ASetKind.NEGATIVE: negative,
            ASetKind.ALL: sympy.Union(negative, positive)}[kind]


def _discrete_alphas(component: Component) -> sympy.Set | None:
    """α = ±base^j with c = unit_c^[α<0]·base_c^j = α, by the ratio ε = base_c/base; None when
    a sign this needs is not decided."""
    base, base_c = _generators(component)
    epsilon = exact_form(base_c / base)
    one, minus_one = _sign_of(epsilon - 1), _sign_of(epsilon + 1)
    if one is None or minus_one is None:
        return None
    n = sympy.Dummy("n", integer=True)
    if one == 0 or minus_one == 0:
        step = base if one == 0 else base**2
        parts = [sympy.ImageSet(sympy.Lambda(n, step**n), sympy.S.Integers)]
    else:  # |ε| ≠ 1: ε^j = 1 only for j = 0
        step, parts = None, [sympy.FiniteSet(S.One)]
    if component.aset.negatives:
        # unit_c·ε^j = −1: ε^j = t with t = −1/unit_c
        unit_c = component.unit_c
        assert unit_c is not None, "a discrete component with negatives without its generator (-1, unit_c)"
        target = exact_form(-1 / unit_c)
        if step is not None:
            t_one, t_minus = _sign_of(target - 1), _sign_of(target + 1)
            if t_one is None or t_minus is None:
                return None
            if t_one == 0:  # ε^j = 1: every j of the positive part
                parts.append(sympy.ImageSet(sympy.Lambda(n, -step**n), sympy.S.Integers))
            elif t_minus == 0 and minus_one == 0:  # (−1)^j = −1: the odd j
                parts.append(sympy.ImageSet(sympy.Lambda(n, -base * step**n), sympy.S.Integers))
        else:
            signs = _sign_of(target), _sign_of(epsilon)
            j = None if None in signs or 0 in signs else _power_index(signs[0] * target, signs[1] * epsilon)
            if j is None:
                return None
            if j is not False and _sign_of(epsilon**j - target) == 0:
                parts.append(sympy.FiniteSet(-base**j))
    return sympy.Union(*parts)


def _generators(component: Component) -> tuple[sympy.Expr, sympy.Expr]:
    """A discrete component's generator (base, base_c): group._components builds it with both."""
    base, base_c = component.aset.base, component.base_c
    assert base is not None and base_c is not None, "a discrete component without its generator"
    return base, base_c


def _forms() -> tuple[str, ...]:
    return tuple(FORMS)
