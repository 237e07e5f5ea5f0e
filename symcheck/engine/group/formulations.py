"""What the symmetry group means for one unit: (q, k, v) → (λq, μk, νv) is a symmetry of the gated
unit iff (λ, 1/(μν)) ∈ G, of the rank-1 unit iff (λμ, 1/ν) ∈ G, of the MLP iff (μ, 1/ν) ∈ G."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import sympy
from sympy import S

from symcheck.core.errors import UnknownNameError
from symcheck.core.formula import Formula, Paren, Product, Ratio, Rel, Relation, Term, Tuple, to_latex
from symcheck.core.names import closest
from symcheck.core.printing import text
from symcheck.core.results import Renderable
from symcheck.engine.group.facts import G, exact_number
from symcheck.engine.group.facts import certified_sign as _sign_of
from symcheck.language.layer_formulations import Formulation
from symcheck.language.layer_formulations import formulation as _formulation

__all__ = ["FORMS", "FormulationSymmetries", "formulation_symmetries", "symmetry_forms"]

_LAMBDA, _MU, _NU = sympy.symbols("lambda mu nu")


def _in_group(a: Term, c: Term) -> Relation:
    return Relation(Rel.IN, Tuple((a, c)), G)


_PRODUCT_PAIR = _in_group(Product((_LAMBDA, _MU)), Ratio(S.One, _NU))  # (λμ, 1/ν) ∈ G
_KEY_PAIR = _in_group(_MU, Ratio(S.One, _NU))                          # (μ, 1/ν) ∈ G

#: form → (the pair that must lie in G, in text and as a formula, and what else the form allows)
FORMS: dict[str, tuple[str, Formula, str]] = {
    "gated": ("(λ, 1/(μν)) ∈ G", _in_group(_LAMBDA, Ratio(S.One, Paren(Product((_MU, _NU))))), "σ(x·q)(x·k)v"),
    "rank1": ("(λμ, 1/ν) ∈ G", _PRODUCT_PAIR, "σ((x·q)(x·k))v"),
    "mlp": ("(μ, 1/ν) ∈ G (q is not used)", _KEY_PAIR, "σ(x·k)v"),
    "query-mlp": ("(μ, 1/ν) ∈ G for (K, V) → (μK, νV), the global query absorbed into the keys",
                  _KEY_PAIR, "σ((x Q_g)·k)v"),
    "bilinear": ("(λμ, 1/ν) ∈ G for (Q_j, K_j, v_j) → (λQ_j, μK_j, νv_j), besides the GL(r) gauge",
                 _PRODUCT_PAIR, "σ(x Q_j K_jᵀ xᵀ) v_j"),
    "rank-r": ("(λμ, 1/ν) ∈ G for (Q_j, K_j, v_j) → (λQ_j, μK_j, νv_j), besides the GL(r) gauge",
               _PRODUCT_PAIR, "σ(Σ_s (x·q_js)(x·k_js)) v_j"),
}


def symmetry_forms(form: str) -> str:
    """The form's name as :data:`FORMS` spells it; UnknownNameError (with suggestions) otherwise."""
    key = form.strip().lower().replace("_", "-")
    if key not in FORMS:
        raise UnknownNameError("form", form, closest(key, FORMS), tuple(FORMS))
    return key


class Group(Protocol):
    """What this module reads of a :class:`~symcheck.engine.group.results.SymmetryGroup` (which
    sits above it and builds these views); read-only, as on the frozen result."""

    @property
    def activation(self) -> Any: ...

    @property
    def components(self) -> tuple[Any, ...]: ...

    @property
    def complete(self) -> bool: ...

    def contains(self, a: Any, c: Any) -> bool | None: ...


@dataclass(frozen=True)
class FormulationSymmetries(Renderable):
    """What G means for one unit: (q, k, v) → (λq, μk, νv) is a symmetry iff a pair lies in G."""

    group: Group
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
    def condition_formula(self) -> Formula:
        return FORMS[self.form][1]

    @property
    def condition_latex(self) -> str:
        return to_latex(self.condition_formula)

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


def formulation_symmetries(group: Group, form: str) -> FormulationSymmetries:
    """The diagonal parameter symmetries of one unit of ``form`` (a name of :data:`FORMS`)."""
    return FormulationSymmetries(group, _formulation(symmetry_forms(form)))
