"""The weight-symmetry group of an MLP layer, built from G_σ, with its proof.

A gated layer is y = Σ_j σ(q_j·x + b_j)·(k_j·x + e_j)·v_j, a plain one y = Σ_j σ(k_j·x + b_j)·v_j
(σ's argument is the *gate*, the rest of a unit its *value path*). Its per-unit symmetries:

* permuting the units (the sum does not see their order);
* gated only: the value path (k_j, e_j)·λ with v_j/λ, any λ ≠ 0, for every σ (the value path is
  bilinear in (k_j, e_j) and v_j);
* for (a, c) ∈ G_σ: the gate (q_j, b_j)·a (plain: (k_j, b_j)·a) with v_j/c, since σ(a·u) = c·σ(u).

So the layer's group is S_m ⋉ (A_σ × R^×)^m (plain: S_m ⋉ A_σ^m), A_σ the a of G_σ; c is fixed by a.
It is complete — every per-unit scaling of a unit's factors that keeps the unit's function is one
of these — exactly when G_σ is: for q_j and k_j linearly independent, x can be chosen with
q_j·x + b_j = u and k_j·x + e_j = 1 for any u, so a scaling (a, μ, ν) keeps the unit iff
σ(a·u)·μν = σ(u) for every u, i.e. (a, 1/(μν)) ∈ G_σ. Not covered: transformations that mix
units (or cancel between them), and anything outside the layer (the residual stream, norms).

Membership of a unit element (a, λ) is G_σ's certified membership, for the exact value given: a
float is the rational it represents (``Fraction(x)``), never a rounded decimal.

>>> g = layer_group("relu", "mlp")
>>> g.contains(gate=3.5), g.contains(gate=-1.0)
(True, False)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import numpy as np
import sympy
from sympy import S

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.errors import ParseError
from symcheck.core.formula import (
    Indexed,
    Paren,
    Product,
    Ratio,
    Rel,
    Relation,
    Sum,
    Tuple,
)
from symcheck.core.printing import text
from symcheck.core.rendering import render
from symcheck.core.results import Renderable, Status, Step
from symcheck.engine.certificate.emit import certify_zero
from symcheck.engine.certificate.tree import Unsupported, sigma_tree
from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.facts import C, G, certified_sign, exact_number
from symcheck.engine.group.layer_forms import LAYER_FORMS, LayerForm, layer_form
from symcheck.engine.group.members import pair_witness
from symcheck.engine.group.results import ASetKind, SymmetryGroup
from symcheck.engine.kernel_gate import admit
from symcheck.language.activations import Activation
from symcheck.language.activations import activation as _lookup
from symcheck.language.symbols import A, Z, sigma_at

__all__ = ["LAYER_FORMS", "LayerForm", "LayerGroup", "LayerMembership", "exact_real", "layer_form", "layer_group"]

#: what the layer group does not cover (the proof states it)
NOT_COVERED = (
    ("transformations that mix units (v_j replaced by a combination of several units' values, or "
    "changes that cancel between units): only per-unit scalings and permutations are classified"),
    ("anything outside the MLP block: the residual stream, norms, attention (a scale moved into a "
    "norm's weights or the next layer is another question)"),
    ("degenerate units (q_j and k_j linearly dependent, v_j = 0) may have more symmetries; they are "
    "never needed for the members listed"))


def exact_real(value: Any) -> sympy.Expr:
    """The exact number a value stands for: a float (Python or NumPy) is the rational it
    represents, bit for bit (``Fraction(0.1)``, not 1/10); anything else as :func:`exact_number`."""
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(float(value)):
            raise ParseError(f"{value!r} is not a finite real number")
        return sympy.Rational(Fraction(float(value)))
    if isinstance(value, np.integer):
        return sympy.Integer(int(value))
    return exact_number(value)


def shown(number: sympy.Expr) -> str:
    """A number as people read it: a binary fraction with a long denominator as its float."""
    if number.is_Rational and number.q > 2**20:
        return repr(float(number))
    return text(number)


@dataclass(frozen=True)
class LayerMembership:
    """Is a unit element (gate scale a, value scale λ) in the layer's group? ``value`` is True only
    with a proved member (a, c) of G_σ, False only with G_σ's certified reason (its complete
    maximality argument, or a certified witness), None when undecided. ``c``: the value path is
    divided by it (with λ), for a member."""

    value: bool | None
    reason: str
    c: sympy.Expr | None = None
    witness: sympy.Rational | None = None


@dataclass(frozen=True)
class LayerGroup(Renderable):
    """The per-unit weight symmetries of an MLP layer with σ = ``activation`` (module docstring)."""

    activation: Activation
    form: LayerForm
    group: SymmetryGroup
    proof: tuple[Step, ...]
    not_covered: tuple[str, ...] = NOT_COVERED
    #: the kernel-accepted certificate of the value-path identity (gated), or None
    value_certificate: dict | None = None
    elapsed: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "form", LayerForm(self.form))  # a JSON string reads back as the member

    @property
    def complete(self) -> bool:
        """Every per-unit scaling that keeps a unit is a member: exactly when G_σ is complete."""
        return self.group.complete

    @property
    def unit(self) -> str:
        return LAYER_FORMS[self.form]

    @property
    def gated(self) -> bool:
        return self.form is LayerForm.GATED

    @property
    def title(self) -> str:
        return (f"weight symmetries of the {self.form} layer, σ = {self.activation.name}"
                + ("" if self.complete else " (partial)"))

    def families(self) -> tuple[str, ...]:
        """The generators of the group, in words (the gate family once per component of G_σ)."""
        gate = "(q_j, b_j)" if self.gated else "(k_j, b_j)"
        out = ["permutations of the m units (unit i of the result is unit P[i])"]
        if self.gated:
            out.append("value path: (k_j, e_j) → λ·(k_j, e_j), v_j → v_j/λ, any λ ≠ 0 (every σ)")
        for component in self.group.components:
            c = "any c" if component.c is None else f"c = {text(component.c)}"
            out.append(f"gate: {gate} → a·{gate}, v_j → v_j/c, {component.aset.describe()}, {c}")
        return tuple(out)

    def gate_values(self) -> str:
        """A_σ, the gate scales of the members, in words."""
        return "; ".join(c.aset.describe() for c in self.group.components) or "a = 1"

    @property
    def negative_gates(self) -> bool | None:
        """Whether some member has a < 0 (then a gate's sign is no invariant of a unit); None: unknown."""
        if any(c.aset.kind in (ASetKind.ALL, ASetKind.NEGATIVE)
               or (c.aset.kind is ASetKind.DISCRETE and c.aset.negatives)
               or any(certified_sign(p) == -1 for p in c.aset.points) for c in self.group.components):
            return True
        return False if self.complete else None

    # -- membership --

    def gate_membership(self, a: Any) -> LayerMembership:
        """(q_j, b_j) → a·(q_j, b_j) with the value path divided by c: the c when (a, c) ∈ G_σ."""
        a = exact_real(a)
        sign = certified_sign(a)
        if sign == 0:
            return LayerMembership(False, "a = 0 is not a scale (the gate would be lost)")
        for component in self.group.components:
            if component.aset.contains(a) is not True:
                continue
            if component.c is None:  # σ ≡ 0: every c; the value path is left as it is
                return LayerMembership(True, f"σ ≡ 0: every pair is a member ({component.describe()})", S.One)
            c = component.c_at(a)
            if c is not None:
                return LayerMembership(True, f"(a, c) = ({shown(a)}, {shown(c)}) lies in the proved component "
                                             f"{component.describe()} of G_σ", c)
        if self.complete and all(component.aset.contains(a) is False for component in self.group.components):
            reason = (f"no (a, c) with a = {shown(a)} lies in G_σ for σ = {self.activation.name}: G_σ is complete "
                      f"(its maximality argument passed the proof kernel) and its members have {self.gate_values()}")
            found = pair_witness(self.activation, a, S.One)
            if found is not None:
                reason += (f"; scaled alone (c = 1), σ(a·z) − σ(z) at z = {text(found[0])} is {found[1]}, "
                           "certified")
            return LayerMembership(False, reason, witness=None if found is None else found[0])
        return LayerMembership(None, f"a = {shown(a)} is not proved a member and not refuted"
                               + ("" if self.complete else f": G_σ is partial ({self.group.note})"))

    def value_membership(self, lam: Any) -> LayerMembership:
        """(k_j, e_j) → λ·(k_j, e_j), v_j → v_j/λ: a member for every λ ≠ 0 (gated layers only)."""
        if not self.gated:
            raise ParseError("a plain MLP has no value path (its unit is σ(k_j·x + b_j)·v_j): scale the gate "
                             "(k_j, b_j) by a and v_j by 1/c with (a, c) ∈ G_σ instead")
        lam = exact_real(lam)
        if certified_sign(lam) == 0:
            return LayerMembership(False, "λ = 0 is not a scale (the unit would be lost)")
        return LayerMembership(True, f"λ = {shown(lam)} ≠ 0: the value path is bilinear (proved for every σ)", S.One)

    def membership(self, gate: Any = 1, value: Any = 1) -> LayerMembership:
        """The unit element (a, λ): the gate by a, the value path by λ, v_j by 1/(λ·c)."""
        first = self.gate_membership(gate)
        if value == 1 or first.value is not True:
            if not self.gated and value != 1:
                self.value_membership(value)  # raises: no value path
            return first
        second = self.value_membership(value)
        if second.value is not True:
            return second
        return LayerMembership(True, f"{first.reason}; {second.reason}", first.c)

    def contains(self, gate: Any = 1, value: Any = 1) -> bool | None:
        """True (a proved member), False (certified not), None (undecided) — never a guess."""
        return self.membership(gate, value).value

    # -- data --

    def certificate_bundle(self) -> dict | None:
        """G_σ's certificates and the value path's, as one document ``check-certificate`` reads."""
        bundle = self.group.certificate_bundle()
        entries = [] if bundle is None else list(bundle["certificates"])
        if self.value_certificate is not None:
            entries.append({"what": "value path", "certificate": self.value_certificate})
        if not entries:
            return None
        return {"schema": "symcheck.certificate-bundle/1",
                "about": {"statement": f"the {self.form} layer's group, σ = {self.activation.name}"},
                "certificates": entries}

    def __repr__(self) -> str:
        return f"<LayerGroup {self.form}, σ = {self.activation.name}: {self.gate_values()}" \
               f"{'' if self.complete else ' (partial)'}>"

    def __str__(self) -> str:  # by the text printer (symcheck.output.text), as every format is
        return cast(str, render(self, "text"))

    def to_dict(self) -> dict[str, Any]:
        return {"activation": self.activation.name, "formula": self.activation.formula, "form": self.form.value,
                "unit": self.unit, "complete": self.complete, "families": list(self.families()),
                "gate": [{"a": c.aset.to_dict(), "c": None if c.c is None else sympy.sstr(c.c)}
                         for c in self.group.components],
                "value_path": self.gated, "proof": [s.to_dict() for s in self.proof],
                "not_covered": list(self.not_covered),
                "value_path_certificate": self.value_certificate is not None,
                "group": {"complete": self.group.complete, "note": self.group.note,
                          "certificates": len(self.group.certificates)},
                "elapsed_seconds": round(self.elapsed, 4)}


# ---- building it --------------------------------------------------------------------------------

def layer_group(act: Any, form: LayerForm | str = LayerForm.GATED, *, timeout: float = DEFAULT_TIMEOUT) -> LayerGroup:
    """The weight-symmetry group of a ``form`` layer (gated or mlp) with σ = ``act``, from G_σ."""
    started = time.perf_counter()
    key = layer_form(form)
    sigma = act if isinstance(act, Activation) else _lookup(act)
    group = symmetry_group(sigma, timeout=timeout)
    gated = key is LayerForm.GATED
    unit = Product((sigma_at(_U), _W, _V)) if gated else Product((sigma_at(_U), _V))
    steps = [Step("Layer", f"y = Σ_j {LAYER_FORMS[key]}", Relation(Rel.EQ, _Y, Sum(_J, unit)),
                  f"u = {'q_j·x + b_j, w = k_j·x + e_j' if gated else 'k_j·x + b_j'}, v = v_j: σ's argument is "
                  "the gate, the rest the value path", Status.GIVEN),
             Step("Permutations", "reordering the units keeps y",
                  Relation(Rel.EQ, Sum(_J, Indexed(_T, _P(_J))), Sum(_J, Indexed(_T, _J))),
                  "a sum does not depend on the order of its terms (t_j: unit j's term, P a permutation)",
                  Status.THEOREM)]
    certificate = None
    if gated:
        certificate, step = _value_path(sigma)
        steps.append(step)
    gate = "(q_j, b_j)" if gated else "(k_j, b_j)"
    members = "; ".join(c.describe() for c in group.components)
    steps.append(Step("Gate", f"{gate} → a·{gate} with v_j → v_j/c keeps the unit for every (a, c) ∈ G_σ",
                      Relation(Rel.EQ, Product((sigma_at(A * _U), Ratio(S.One, C))), sigma_at(_U)),
                      f"σ(a·u) = c·σ(u) for every u; G_σ's members: {members} (each proved, its certificate "
                      "accepted by the proof kernel)", Status.THEOREM))
    if group.complete:
        steps.append(Step("Completeness", "every per-unit scaling (gate by a, (k_j, e_j) by μ, v_j by ν) that "
                          "keeps a unit is a member: (a, 1/(μν)) ∈ G_σ" if gated else
                          "every per-unit scaling ((k_j, b_j) by a, v_j by ν) that keeps a unit is a member: "
                          "(a, 1/ν) ∈ G_σ",
                          Relation(Rel.IN, Tuple((A, Ratio(S.One, Paren(Product((_MU, _NU))) if gated else _NU))), G),
                          ("x with q_j·x + b_j = u and k_j·x + e_j = 1 exists for every u when q_j, k_j are linearly "
                           "independent, so σ(a·u)·μν = σ(u) for all u" if gated else
                           "x with k_j·x + b_j = u exists for every u when k_j ≠ 0, so σ(a·u)·ν = σ(u) for all u "
                           "(v_j ≠ 0)")
                          + "; G_σ is complete (its maximality argument passed the proof kernel), so these are all",
                          Status.THEOREM))
    else:
        steps.append(Step("Completeness", "not established: G_σ is partial, so other gate scales may exist",
                          None, group.note, Status.UNKNOWN))
    return LayerGroup(sigma, key, group, tuple(steps), NOT_COVERED, certificate, time.perf_counter() - started)


_Y, _U, _W, _V, _T, _LAM, _MU, _NU = sympy.symbols("y u w v t lambda mu nu")
_J = sympy.Symbol("j", integer=True)
_P = sympy.Function("P")
_NONZERO = [["open", "-inf", ["int", 0]], ["open", ["int", 0], "inf"]]


def _value_path(sigma: Activation) -> tuple[dict | None, Step]:
    """σ(z)·(λ·w)·(ν/λ) − σ(z)·w·ν ≡ 0 for λ ≠ 0, checked by the proof kernel (w = k·x + e, ν a
    coordinate of v_j)."""
    statement = "(k_j, e_j) → λ·(k_j, e_j), v_j → v_j/λ keeps the unit for every λ ≠ 0"
    formula = Relation(Rel.EQ, Product((sigma_at(_U), _LAM * _W, Ratio(_V, _LAM))), Product((sigma_at(_U), _W, _V)))
    try:
        s = sigma_tree(sigma.expr, Z)
    except (Unsupported, RecursionError) as err:  # σ the certificate language cannot write: unchecked
        return None, Step("Value path", statement, formula, f"a theorem (no certificate: {type(err).__name__})",
                          Status.THEOREM)
    lam, w, nu = ("var", "lam"), ("var", "w"), ("var", "nu")
    expr = ("add", ("mul", s, ("mul", lam, w), ("mul", nu, ("pow", lam, ("int", -1)))),
            ("mul", ("int", -1), s, w, nu))
    admission = admit(certify_zero(expr, {"z": (), "w": (), "nu": (), "lam": _NONZERO},
                                   about=f"the value path of a gated unit, σ = {sigma.name}"))
    if admission.certificate is not None:  # accepted
        return admission.certificate.data, Step("Value path", statement, formula,
                                                "bilinear in the value path; the identity's certificate passed the "
                                                "proof kernel", Status.VERIFIED)
    return None, Step("Value path", statement, formula, f"a theorem ({admission.note})", Status.THEOREM)
