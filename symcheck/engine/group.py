"""The scalar symmetry group of an activation, with a proof for every member and for maximality.

G_σ = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}. It is a group under (a, c)·(a′, c′) =
(a·a′, c·c′) as soon as σ ≢ 0 (then c ≠ 0). :func:`symmetry_group` finds it in three moves:

1. the maximality arguments (:mod:`symcheck.engine.group_maximality`) bound the a of each sign:
   none, finitely many candidates, a law c = K·|a|^k on the half-line, or a discrete set;
2. every candidate is decided by the engine's own deciders (:mod:`symcheck.engine.group_members`):
   a member needs a proof that σ(a·z) − c·σ(z) ≡ 0, a non-member a certified witness z;
3. what is proved becomes the components; the group is ``complete`` when every a was settled.

Where no argument applies the group is partial: the proved members, ``None`` for the rest, and a
note that names the missing argument. Knows no activation names.

>>> symmetry_group("relu").components[0].describe()
'a > 0, c = a'
>>> symmetry_group("tanh").contains(-1, -1), symmetry_group("gelu").contains(2, 2)
(True, False)
"""
from __future__ import annotations

import math
import time
from collections.abc import Mapping
from fractions import Fraction
from dataclasses import dataclass
from typing import Any

import sympy
from sympy import S

from symcheck.core.budget import DEFAULT_TIMEOUT, Budget, BudgetExceeded
from symcheck.core.errors import ParseError, Undecided, UnknownNameError
from symcheck.core.names import closest
from symcheck.core.printing import text
from symcheck.core.results import Renderable, Status, Step
from symcheck.core.verdict import Verdict
from symcheck.engine.group_maximality import Bound, Law, _sign_of, bounds, nonzero_point
from symcheck.engine.group_members import WITNESS_GRID, Proof, pair_witness, prove_family, prove_pair
from symcheck.engine.symmetries import failed_outside
from symcheck.engine.zero import decide_zero
from symcheck.exact.signs import at_point
from symcheck.language.activations import Activation, activation as _lookup
from symcheck.language.formulations import Formulation, formulation as _formulation
from symcheck.language.parsing import parse_expression
from symcheck.language.symbols import A, Z

__all__ = ["symmetry_group", "SymmetryGroup", "Component", "ASet", "Exclusion", "Membership",
           "FormulationSymmetries", "FORMS", "J", "set_text", "symmetry_forms", "exact_number"]

#: the integer index of a discrete a-set, a = ±base^j
J = sympy.Symbol("j", integer=True)
_HALF = {1: "positive", -1: "negative"}


# ---- a-sets and components --------------------------------------------------------------------

@dataclass(frozen=True)
class ASet:
    """The a of one component: all a ≠ 0, a > 0, a < 0, a finite set, or {±base^j : j ∈ Z}."""

    kind: str
    points: tuple[sympy.Expr, ...] = ()
    base: sympy.Expr | None = None
    negatives: bool = False

    def contains(self, a: sympy.Expr) -> bool | None:
        """Is a in the set? Decided exactly (a is a closed-form number), None when undecided."""
        sign = _sign_of(a)
        if sign is None:
            return None
        if sign == 0:
            return False
        if self.kind in ("all", "positive", "negative"):
            return self.kind == "all" or (sign == 1) == (self.kind == "positive")
        if self.kind == "finite":
            known = [_sign_of(a - p) for p in self.points]
            return True if 0 in known else None if None in known else False
        if sign == -1 and not self.negatives:
            return False
        index = _power_index(sympy.Abs(a), self.base)
        return None if index is None else index is not False

    def describe(self) -> str:
        if self.kind == "finite":
            return "a ∈ {" + ", ".join(text(p) for p in self.points) + "}"
        if self.kind == "discrete":
            return f"a = {'±' if self.negatives else ''}{_power_text(self.base)}, j ∈ Z"
        return {"all": "a ≠ 0", "positive": "a > 0", "negative": "a < 0"}[self.kind]

    def latex(self) -> str:
        if self.kind == "finite":
            return r"a \in \{" + ", ".join(sympy.latex(p) for p in self.points) + r"\}"
        if self.kind == "discrete":
            sign = r"\pm " if self.negatives else ""
            return rf"a = {sign}{{{sympy.latex(self.base)}}}^{{j}},\ j \in \mathbb{{Z}}"
        return {"all": r"a \neq 0", "positive": "a > 0", "negative": "a < 0"}[self.kind]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": [sympy.sstr(p) for p in self.points],
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
        if self.aset.kind == "finite":
            return next(c for p, c in self.pairs if _sign_of(a - p) == 0)
        if self.aset.kind == "discrete":
            j = _power_index(sympy.Abs(a), self.aset.base)
            return (self.unit_c if _sign_of(a) == -1 else S.One) * self.base_c**j
        sign = _sign_of(a)
        law = dict(self.laws)[sign]
        return sympy.simplify(law.K * abs(a) ** law.k)

    def describe(self) -> str:
        return f"{self.aset.describe()}, " + ("every c" if self.c is None else f"c = {text(self.c)}")

    def latex(self) -> str:
        return rf"{self.aset.latex()},\ " + (r"c \in \mathbb{R}" if self.c is None else f"c = {sympy.latex(self.c)}")

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

    @property
    def title(self) -> str:
        return f"symmetry group of σ = {self.activation.name}" + ("" if self.complete else " (partial)")

    def __repr__(self) -> str:
        shown = "; ".join(c.describe() for c in self.components) or "no member proved"
        return f"<SymmetryGroup σ = {self.activation.name}: {shown}{'' if self.complete else ' (partial)'}>"

    def __str__(self) -> str:
        lines = [f"{self.title}: {'complete' if self.complete else 'partial'}"]
        lines += [f"  {c.describe()}" for c in self.components]
        for step in self.maximality:
            lines.append(f"  {step.title}: {step.statement}  [{step.status}]")
        if self.note:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines)

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
        """The exact set {α : (α, α) ∈ G}; None when the group is partial."""
        if not self.complete:
            return None
        parts = [_alphas(component) for component in self.components]
        return sympy.Union(*parts) if parts else S.EmptySet

    def inverse_scaling_text(self) -> str:
        """{α : (α, α) ∈ G} in words: "α > 0", "α ∈ {-1, 1}", "α = ±2^n, n ∈ Z" (or "unknown")."""
        alphas = self.inverse_scaling_alphas()
        return "unknown (the group is partial)" if alphas is None else set_text(alphas)

    def inverse_scaling(self, domain: Any) -> bool | None:
        """Does (α, α) ∈ G hold for every α of the domain (positive, negative, any, or a number)?"""
        from symcheck.language.transformations import domain as parse
        parsed = parse(domain)
        if parsed.value is not None:
            return self.contains(parsed.value, parsed.value)
        wanted = {"positive": sympy.Interval.open(0, S.Infinity), "negative": sympy.Interval.open(-S.Infinity, 0),
                  "any": sympy.Union(sympy.Interval.open(-S.Infinity, 0), sympy.Interval.open(0, S.Infinity))}[parsed.name]
        alphas = self.inverse_scaling_alphas()
        if alphas is not None:
            return bool(wanted.is_subset(alphas))
        proved = sympy.Union(*(_alphas(c) for c in self.components)) if self.components else S.EmptySet
        if wanted.is_subset(proved):
            return True
        for q in (S.One, -S.One, 2, -2, sympy.Rational(1, 2), -sympy.Rational(1, 2), 3, -3):
            if q in wanted and self.contains(q, q) is False:
                return False
        return None

    # -- formulations --

    def formulation_symmetries(self, form: str) -> "FormulationSymmetries":
        """The diagonal parameter symmetries (q, k, v) → (λq, μk, νv) of one unit of ``form``."""
        return FormulationSymmetries(self, _formulation(symmetry_forms(form)))

    def to_dict(self) -> dict[str, Any]:
        alphas = self.inverse_scaling_alphas()
        return {"activation": self.activation.name, "formula": self.activation.formula,
                "complete": self.complete,
                "components": [c.to_dict() for c in self.components],
                "maximality": [s.to_dict() for s in self.maximality],
                "excluded": [e.to_dict() for e in self.excluded],
                "inverse_scaling_alphas": None if alphas is None else sympy.sstr(alphas),
                "formulations": {form: self.formulation_symmetries(form).to_dict() for form in FORMS},
                "note": self.note, "elapsed_seconds": round(self.elapsed, 4)}


def exact_number(value: Any) -> sympy.Expr:
    """A real number as an exact SymPy number: ints, fractions and SymPy numbers as they are, a
    float as its printed decimal, text through the safe parser (never ``sympify``, which evaluates)."""
    if isinstance(value, bool):
        raise ParseError(f"{value!r} is not a real number")
    if isinstance(value, float):
        number = sympy.Rational(repr(value)) if math.isfinite(value) else None
    elif isinstance(value, (int, Fraction)):
        number = sympy.Rational(value)
    elif isinstance(value, sympy.Basic):
        number = value
    elif isinstance(value, str):
        number = parse_expression(value, symbols={}).expr
    else:
        number = None
    if not isinstance(number, sympy.Expr) or not number.is_number or number.is_real is not True:
        raise ParseError(f"{value!r} is not an exact real number")
    return number


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


def _alphas(component: Component) -> sympy.Set:
    """{α : (α, α) in the component}, exactly."""
    if component.c is None:
        return _half_lines(component.aset.kind)
    kind = component.aset.kind
    if kind == "finite":
        return sympy.FiniteSet(*(a for a, c in component.pairs if _sign_of(c - a) == 0))
    if kind == "discrete":
        return _discrete_alphas(component)
    out = []
    for sign, law in component.laws:
        half = _half_lines(_HALF[sign])
        # K·|α|^k = sign·|α|: the whole half-line for k = 1, K = sign; else |α|^(k−1) = sign/K
        if law.k == 1:
            if _sign_of(law.K - sign) == 0:
                out.append(half)
            continue
        ratio = sympy.simplify(sign / law.K)
        if _sign_of(ratio) == 1:
            out.append(sympy.FiniteSet(sign * sympy.simplify(ratio ** (1 / sympy.Rational(law.k - 1)))))
    return sympy.Union(*out) if out else S.EmptySet


def _half_lines(kind: str) -> sympy.Set:
    positive, negative = sympy.Interval.open(0, S.Infinity), sympy.Interval.open(-S.Infinity, 0)
    return {"positive": positive, "negative": negative, "all": sympy.Union(negative, positive)}[kind]


def _discrete_alphas(component: Component) -> sympy.Set:
    """α = ±base^j with c = unit_c^[α<0]·base_c^j = α: by the ratio ε = base_c/base."""
    base = component.aset.base
    epsilon = sympy.simplify(component.base_c / base)
    n = sympy.Dummy("n", integer=True)
    parts = []
    if epsilon == 1:
        step = base
    elif epsilon == -1:
        step = base**2
    else:
        return sympy.FiniteSet(*([S.One] + ([-S.One] if component.aset.negatives and component.unit_c == -1 else [])))
    parts.append(sympy.ImageSet(sympy.Lambda(n, step**n), sympy.S.Integers))
    if component.aset.negatives:
        if component.unit_c == -1:
            parts.append(sympy.ImageSet(sympy.Lambda(n, -step**n), sympy.S.Integers))
        elif component.unit_c == 1 and epsilon == -1:
            parts.append(sympy.ImageSet(sympy.Lambda(n, -base * step**n), sympy.S.Integers))
    return sympy.Union(*parts)


# ---- formulations -----------------------------------------------------------------------------

#: form → (the pair that must lie in G, in text and LaTeX, and what else the form allows)
FORMS: dict[str, tuple[str, str, str]] = {
    "gated": ("(λ, 1/(μν)) ∈ G", r"(\lambda, 1/(\mu\nu)) \in G", "σ(x·q)(x·k)v"),
    "rank1": ("(λμ, 1/ν) ∈ G", r"(\lambda\mu, 1/\nu) \in G", "σ((x·q)(x·k))v"),
    "mlp": ("(μ, 1/ν) ∈ G (q is not used)", r"(\mu, 1/\nu) \in G", "σ(x·k)v"),
    "query-mlp": ("(μ, 1/ν) ∈ G for (K, V) → (μK, νV), the global query absorbed into the keys",
                  r"(\mu, 1/\nu) \in G", "σ((x Q_g)·k)v"),
    "bilinear": ("(λμ, 1/ν) ∈ G for (Q_j, K_j, v_j) → (λQ_j, μK_j, νv_j), besides the GL(r) gauge",
                 r"(\lambda\mu, 1/\nu) \in G", "σ(x Q_j K_jᵀ xᵀ) v_j"),
    "rank-r": ("(λμ, 1/ν) ∈ G for (Q_j, K_j, v_j) → (λQ_j, μK_j, νv_j), besides the GL(r) gauge",
               r"(\lambda\mu, 1/\nu) \in G", "σ(Σ_s (x·q_js)(x·k_js)) v_j"),
}


def symmetry_forms(form: str) -> str:
    """The form's name as :data:`FORMS` spells it; UnknownNameError (with suggestions) otherwise."""
    key = form.strip().lower().replace("_", "-")
    if key not in FORMS:
        raise UnknownNameError("form", form, closest(key, FORMS), tuple(FORMS))
    return key


@dataclass(frozen=True)
class FormulationSymmetries(Renderable):
    """What G means for one unit: (q, k, v) → (λq, μk, νv) is a symmetry iff a pair lies in G."""

    group: SymmetryGroup
    formulation: Formulation

    @property
    def form(self) -> str:
        return self.formulation.name

    def __repr__(self) -> str:
        return f"<FormulationSymmetries {self.form}, σ = {self.group.activation.name}: {self.condition}>"

    @property
    def condition(self) -> str:
        return FORMS[self.form][0]

    @property
    def condition_latex(self) -> str:
        return FORMS[self.form][1]

    def pair(self, lam: Any, mu: Any, nu: Any) -> tuple[sympy.Expr, sympy.Expr]:
        """The (a, c) that must lie in G for (λ, μ, ν)."""
        lam, mu, nu = (exact_number(x) for x in (lam, mu, nu))
        if self.form == "gated":
            return lam, 1 / (mu * nu)
        if self.form in ("mlp", "query-mlp"):
            return mu, 1 / nu
        return lam * mu, 1 / nu

    def holds(self, lam: Any, mu: Any, nu: Any) -> bool | None:
        """Is (q, k, v) → (λq, μk, νv) a symmetry of the unit? Three-valued, as membership."""
        if any(_sign_of(exact_number(x)) == 0 for x in (lam, mu, nu)):
            return False
        return self.group.contains(*self.pair(lam, mu, nu))

    def families(self) -> tuple[str, ...]:
        """Each component as the parameter family it gives, in words."""
        out = []
        for comp in self.group.components:
            c = "every c" if comp.c is None else text(comp.c)
            where = comp.aset.describe()
            if self.form == "gated":
                out.append(f"λ = a with {where}, any μ ≠ 0, ν = 1/(μ·c), c = {c}")
            elif self.form in ("mlp", "query-mlp"):
                out.append(f"μ = a with {where}, ν = 1/c, c = {c}; λ arbitrary")
            else:
                out.append(f"λμ = a with {where}, ν = 1/c, c = {c}")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {"form": self.form, "unit": FORMS[self.form][2], "condition": self.condition,
                "families": list(self.families()), "complete": self.group.complete}


# ---- building the group -----------------------------------------------------------------------

def symmetry_group(act: Any, *, timeout: float = DEFAULT_TIMEOUT) -> SymmetryGroup:
    """G_σ for ``act`` (anything :func:`symcheck.language.activations.activation` accepts)."""
    started = time.perf_counter()
    sigma = act if isinstance(act, Activation) else _lookup(act)
    budget = Budget(timeout)
    steps: list[Step] = [Step("Definition", "G = {(a, c) : a ≠ 0, σ(a·z) = c·σ(z) for every real z}",
                              r"G = \{(a, c) : a \neq 0,\ \sigma(a z) = c\,\sigma(z)\ \forall z \in \mathbb{R}\}",
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
    return Component(ASet("finite", (S.One,)), A, (Step("Proof", "σ(1·z) = 1·σ(z)", r"\sigma(z) = \sigma(z)",
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
                      rf"\sigma({sympy.latex(z0)}) = {sympy.latex(value)} \neq 0",
                      f"certified; z = {text(z0)} gives c = σ({text(z0)}·a)/σ({text(z0)}) for every member, "
                      "and c ≠ 0 (else σ(a·z) = 0 for every z)", Status.CERTIFIED))
    arguments = bounds(sigma, point, budget)
    steps.extend(arguments.steps)
    notes = list(arguments.missing)
    finite: list[tuple[sympy.Expr, sympy.Expr, Proof]] = []
    laws: dict[int, tuple[Law, Proof]] = {}
    discrete: dict[int, tuple[Bound, Proof]] = {}
    excluded: list[Exclusion] = []
    settled = {1: False, -1: False}
    for sign in (1, -1):
        bound = arguments.bounds[sign]
        if bound.kind == "empty":
            settled[sign] = True
        elif bound.kind == "points":
            settled[sign] = True
            for a0, c0 in bound.points:
                c0 = _c_from_value(sigma, a0, point) if c0 is None else c0
                proof = prove_pair(sigma, a0, c0, budget)
                if proof.verdict is Verdict.HOLDS:
                    finite.append((a0, c0, proof))
                elif proof.verdict is Verdict.BROKEN:
                    excluded.append(Exclusion(a0, c0, proof.witness, proof.steps))
                else:
                    settled[sign] = False
                    notes.append(f"(a, c) = ({text(a0)}, {text(c0)}) was neither proved nor refuted: {proof.note}")
        elif bound.kind == "law":
            proof = prove_family(sigma, sign, bound.law.c(sign), budget)
            if proof.verdict is Verdict.HOLDS:
                laws[sign] = (bound.law, proof)
                settled[sign] = True
            else:
                if proof.verdict is Verdict.BROKEN:
                    a0 = proof.witness.get("a")
                    excluded.append(Exclusion(a0, bound.law.c(sign).xreplace({A: a0}), proof.witness, proof.steps))
                notes.append(f"c = {text(bound.law.c(sign))} is forced for {_HALF[sign]} a, but not every such a "
                             "is a member and no argument says which are")
        elif bound.kind == "discrete":
            generator = prove_pair(sigma, bound.base, bound.base_c, budget)
            proofs = [generator]
            if sign == -1:
                proofs.append(prove_pair(sigma, -S.One, bound.unit_c, budget))
            if all(p.verdict is Verdict.HOLDS for p in proofs):
                discrete[sign] = (bound, Proof(Verdict.HOLDS, tuple(s for p in proofs for s in p.steps)))
                settled[sign] = True
            else:
                notes.append(f"a generator of the discrete set for {_HALF[sign]} a was not proved a member")
        else:
            notes.append(bound.reason)
    if 1 not in discrete and 1 not in laws and not any(_sign_of(a0 - 1) == 0 for a0, _, _ in finite):
        finite.insert(0, (S.One, S.One, Proof(Verdict.HOLDS, _identity().steps)))
    components = _components(sigma, finite, laws, discrete, budget)
    complete = settled[1] and settled[-1]
    if complete:
        steps.append(Step("Maximality", "every (a, c) in G lies in a component above",
                          r"G = \bigcup \text{components}",
                          "for each sign of a the arguments above leave only the listed candidates, each "
                          "proved a member or refuted by a certified witness", Status.THEOREM))
    note = "" if complete else "partial: " + "; ".join(dict.fromkeys(notes))
    return SymmetryGroup(sigma, components, complete, tuple(steps), tuple(excluded), note,
                         time.perf_counter() - started, point)


def _c_from_value(sigma: Activation, a0: sympy.Expr, point: tuple[sympy.Rational, sympy.Expr]) -> sympy.Expr:
    z0, value = point
    return sympy.simplify(at_point(sigma.expr, Z, a0 * z0) / value)


def _degenerate(sigma: Activation, decision: Any, steps: list[Step], started: float) -> SymmetryGroup:
    """No point is certified non-zero: σ ≡ 0 (every pair, when the decider proved it), or nothing can be said."""
    if decision.verdict is Verdict.HOLDS:
        proof = Step("Proof", "σ ≡ 0: σ(a·z) = 0 = c·σ(z) for every a and c", r"\sigma \equiv 0",
                     "σ is identically zero (proved by the one-variable decider)", Status.VERIFIED)
        steps.append(Step("Degenerate", "σ ≡ 0, so every pair (a, c) with a ≠ 0 is a member",
                          r"G = (\mathbb{R} \setminus \{0\}) \times \mathbb{R}", "", Status.VERIFIED))
        return SymmetryGroup(sigma, (Component(ASet("all"), None, (proof,)),), True, tuple(steps),
                             elapsed=time.perf_counter() - started)
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
            if proof.verdict is Verdict.HOLDS:
                out.append(Component(ASet("all"), merged, proof.steps, ((1, laws[1][0]), (-1, laws[-1][0]))))
                laws = {}
    for sign, (law, proof) in sorted(laws.items(), reverse=True):
        out.append(Component(ASet(_HALF[sign]), law.c(sign), proof.steps, ((sign, law),)))
    if 1 in discrete:
        bound, proof = discrete[1]
        steps = proof.steps + ((discrete[-1][1].steps + (_closure(),)) if -1 in discrete else (_closure(),))
        negatives = -1 in discrete
        unit_c = discrete[-1][0].unit_c if negatives else None
        out.append(Component(ASet("discrete", base=bound.base, negatives=negatives),
                             _discrete_c(bound.base, bound.base_c, unit_c), steps,
                             base_c=bound.base_c, unit_c=unit_c))
    for formula, group in _finite_groups(finite):
        if formula is None:
            for a0, c0, proof in group:
                out.append(Component(ASet("finite", (a0,)), c0, _titled(a0, proof), pairs=((a0, c0),)))
            continue
        steps = tuple(s for a0, _, proof in group for s in _titled(a0, proof))
        out.append(Component(ASet("finite", tuple(f[0] for f in group)), formula, steps,
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
    return tuple(Step(f"a = {text(a0)}: {s.title}", s.statement, s.latex, s.justification, s.status)
                 for s in proof.steps)


def _closure() -> Step:
    return Step("Closure", "the generators proved above generate every pair of the component",
                r"(a, c), (a', c') \in G \Rightarrow (a a', c c'),\ (1/a, 1/c) \in G",
                "σ(aa′z) = c·σ(a′z) = cc′·σ(z), and σ(z/a) = σ(z)/c: G is a group", Status.THEOREM)


def _discrete_c(base: sympy.Expr, base_c: sympy.Expr, unit_c: sympy.Expr | None) -> sympy.Expr:
    """c on a = ±base^j: (base_c/base)^j·a when that reads well, else the generators' product."""
    epsilon = sympy.simplify(base_c / base)
    if epsilon in (1, -1) and unit_c in (None, -1):
        return A if epsilon == 1 else (-1) ** J * A
    if unit_c is None:
        return base_c**J
    return sympy.Piecewise((base_c**J, A > 0), (unit_c * base_c**J, True))
