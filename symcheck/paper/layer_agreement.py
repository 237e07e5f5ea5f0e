"""Layer-level agreement: the statement on whole matrices against the unit-level verdict.

For explicit small sizes the transformed layer minus the original one is checked, with σ
opaque, to be exactly the sum over units of the unit statement's residual times v_j. So a
unit-level proof is a layer-level proof, and a unit-level witness becomes a layer witness
(x = e₁, the first unit carries it, every other unit is zero) that is certified on the
explicit layer itself; a layer is ``broken`` only with that certificate, and carries a witness
only then.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy

from symcheck.core.budget import DEFAULT_TIMEOUT
from symcheck.core.verdict import Verdict
from symcheck.engine.symmetries import check
from symcheck.exact.evaluate import certify_nonzero
from symcheck.language.activations import Activation
from symcheck.language.activations import activation as _lookup
from symcheck.language.layer_formulations import Sizes, formulation, input_row
from symcheck.language.symbols import ALPHA, BETA, SIGMA, A, B, substitute_sigma
from symcheck.language.transformations import Transformation, TransformationKind
from symcheck.language.unit_forms import form as _form

Params = dict[str, sympy.Matrix]

#: how each transformation acts on the layer's matrices (rows of Q, K, V are units)
LAYER_MAPS: dict[TransformationKind, Callable[[Params, Transformation], Params]] = {
    TransformationKind.EXCHANGE: lambda p, t: {"Q": p["K"], "K": p["Q"]},
    TransformationKind.INVERSE_SCALING: lambda p, t: {"Q": ALPHA * p["Q"], "K": p["K"] / ALPHA},
    TransformationKind.KEY_VALUE_RESCALING: lambda p, t: {"K": BETA * p["K"], "V": p["V"] / BETA},
    TransformationKind.QUERY_VALUE_RESCALING: lambda p, t: {"Q": ALPHA * p["Q"], "V": p["V"] * ALPHA ** -t.degree},
}


@dataclass(frozen=True)
class LayerCheck:
    formulation: str
    transformation: TransformationKind
    domain: str | None  # as the unit check writes it: positive, -1, any, …
    sizes: Sizes
    unit_verdict: Verdict
    layer_verdict: Verdict
    decomposition: bool            # layer residual ≡ Σ_j unit residual(a_j, b_j)·v_j, σ opaque
    witness: dict[str, Any] | None = None  # set only on a certified broken layer

    @property
    def agrees(self) -> bool:
        return self.unit_verdict is self.layer_verdict

    def to_dict(self) -> dict[str, Any]:
        return {"formulation": self.formulation, "transformation": self.transformation.value,
                "domain": self.domain, "sizes": [self.sizes.d, self.sizes.m, self.sizes.e],
                "unit_verdict": self.unit_verdict.value, "layer_verdict": self.layer_verdict.value,
                "decomposition": self.decomposition, "agrees": self.agrees,
                "witness": None if self.witness is None else {k: str(v) for k, v in self.witness.items()}}


def layer_check(act: str | Activation, transformation: Transformation, name: str = "gated",
                sizes: Sizes = Sizes(2, 2, 1), *, timeout: float = DEFAULT_TIMEOUT) -> LayerCheck:
    """Decide the whole-matrix statement at ``sizes`` and compare with the unit verdict."""
    sigma = _lookup(act)
    layer = formulation(name)
    unit = _form(layer.form)
    unit_result = check(sigma, transformation, unit, timeout=timeout)
    params = layer.parameters(sizes)
    moved = {**params, **LAYER_MAPS[transformation.name](params, transformation)}
    difference = layer.explicit(SIGMA, sizes, **moved) - layer.explicit(SIGMA, sizes)
    decomposition = _decomposes(difference, params, unit, transformation, sizes)
    verdict, witness = Verdict.INCONCLUSIVE, None
    if decomposition and unit_result.verdict is Verdict.HOLDS:
        verdict = Verdict.HOLDS  # every summand is the unit residual, proved ≡ 0
    elif unit_result.verdict is Verdict.BROKEN:
        candidate = _layer_witness(unit_result.witness, params, sizes)
        if _certified(substitute_sigma(difference[0, 0], sigma), candidate, transformation):
            verdict, witness = Verdict.BROKEN, candidate
    return LayerCheck(name, transformation.name, unit_result.domain, sizes, unit_result.verdict,
                      verdict, decomposition, witness)


def _certified(entry: sympy.Expr, witness: dict[sympy.Symbol, sympy.Rational],
               t: Transformation) -> bool:
    """The layer's own first output entry is certified non-zero at the witness.

    The whole entry goes to the certifier with the point beside it (not substituted first):
    SymPy would decide σ's branch conditions at the point itself, with floats.
    """
    if not t.admits(witness):
        return False
    return certify_nonzero(entry, witness) is not None


def _decomposes(difference: sympy.Matrix, params: Params, unit, t: Transformation,
                sizes: Sizes) -> bool:
    lhs, rhs = t.statement(unit, SIGMA)
    x = input_row(sizes.d)
    expected = sympy.zeros(1, sizes.e)
    for j in range(sizes.m):
        a_j = (x * params["Q"][j, :].T)[0, 0] if "Q" in params else sympy.Integer(0)
        b_j = (x * params["K"][j, :].T)[0, 0]
        expected += (lhs - rhs).xreplace({A: a_j, B: b_j}) * params["V"][j, :]
    return all(sympy.expand(entry) == 0 for entry in difference - expected)


def _layer_witness(unit_witness, params: Params, sizes: Sizes) -> dict[sympy.Symbol, sympy.Rational]:
    """x = e₁; unit 1 gets q = a e₁, k = b e₁, v = e₁; every other entry is 0."""
    values: dict[sympy.Symbol, sympy.Rational] = {}
    for i, entry in enumerate(input_row(sizes.d)):
        values[entry] = sympy.Integer(1 if i == 0 else 0)
    first = {"Q": unit_witness.get("a", 0), "K": unit_witness["b"], "V": 1}
    for key, matrix in params.items():
        for (j, i), entry in zip(((j, i) for j in range(matrix.rows) for i in range(matrix.cols)), matrix,
                                 strict=True):
            values[entry] = sympy.Rational(first[key]) if (j, i) == (0, 0) else sympy.Integer(0)
    for name, symbol in (("alpha", ALPHA), ("beta", BETA)):
        if name in unit_witness:
            values[symbol] = sympy.Rational(unit_witness[name])
    return values
