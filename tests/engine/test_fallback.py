"""The numeric fallback: certified witnesses for non-zero residuals, honest evidence otherwise."""
from __future__ import annotations

import pytest
import sympy

from symcheck.core.budget import Budget
from symcheck.core.verdict import Verdict
from symcheck.engine.fallback import numeric_witness
from symcheck.engine.zero import prove_identically_zero
from symcheck.exact.evaluate import certify_nonzero
from symcheck.exact.regions import Region
from symcheck.language.symbols import ALPHA, A, B, Z

# identically zero, but beyond SymPy's simplify and the engine's rewrites: Machin-like
# formulas, atan(1/2) + atan(1/3) = π/4 and 4·atan(1/5) − atan(1/239) = π/4
_HALF, _THIRD = sympy.atan(sympy.Rational(1, 2)), sympy.atan(sympy.Rational(1, 3))
ZERO = {
    "atan(1/2) + atan(1/3)": sympy.erf(Z) * _HALF + sympy.erf(Z) * _THIRD - sympy.erf(Z) * sympy.pi / 4,
    "4·atan(1/5) − atan(1/239)": sympy.expand(Z * (1 + sympy.erf(Z / sympy.sqrt(2))) / 2 * (
        4 * sympy.atan(sympy.Rational(1, 5)) - sympy.atan(sympy.Rational(1, 239)) - sympy.pi / 4)),
}


@pytest.mark.parametrize("name", list(ZERO))
def test_an_unsimplifiable_zero_gets_no_witness_and_honest_evidence(name: str) -> None:
    residual = ZERO[name]
    assert prove_identically_zero(residual, Z, Region(-sympy.oo, sympy.oo), Budget(10)) is None
    found = numeric_witness(residual, [Z])
    assert found.verdict is Verdict.INCONCLUSIVE and found.witness is None and found.certificate is None
    evidence = found.evidence
    assert evidence.points >= 500 and evidence.high_precision > 0 and evidence.digits == 50
    assert float(evidence.largest) < 1e-40          # at 50 digits: rounding, not a signal
    assert "not a proof" in found.note


def test_a_nonzero_residual_float64_cannot_see_is_certified() -> None:
    # 1e-20·sin(z) hides under the rounding of the Machin-like zero everywhere in float64
    residual = ZERO["atan(1/2) + atan(1/3)"] + sympy.sin(Z) / 10**20
    assert sympy.simplify(residual) != 0
    found = numeric_witness(residual, [Z])
    assert found.verdict is Verdict.BROKEN and found.certificate is not None
    assert found.candidates[0].precision.startswith("mpmath")
    # the witness stands on its own: certify again, independently of the search
    point = dict(found.witness)
    assert all(v.is_Rational for v in point.values())
    again = certify_nonzero(residual, point)
    assert again is not None and again.sign == found.certificate.sign


def test_a_residual_below_float64_resolution_of_its_inputs_is_still_found() -> None:
    # docs/theory.md §3: z + z³/10¹⁵ differs from linear by less than float64 sees at z ~ 1
    residual = Z + Z**3 / 10**15 - (1 + sympy.Rational(1, 10**15)) * Z
    found = numeric_witness(residual, [Z])
    assert found.verdict is Verdict.BROKEN and found.certificate is not None
    assert found.certificate.exact and abs(found.witness[Z]) <= 10    # a simple point, exactly


def test_candidates_are_ranked_by_size_and_the_witness_is_simple() -> None:
    found = numeric_witness(sympy.Max(A, 0) * B - sympy.Max(ALPHA * A, 0) * B / ALPHA, [A, B, ALPHA],
                            {ALPHA: "negative"})
    values = [c.value for c in found.candidates]
    assert values == sorted(values, reverse=True)
    assert found.verdict is Verdict.BROKEN and found.witness[ALPHA] < 0
    assert max(abs(v) for v in found.witness.values()) <= 10


def test_domains_are_respected() -> None:
    # relu is positively homogeneous: no witness for α > 0, only evidence
    found = numeric_witness(sympy.Max(A, 0) * B - sympy.Max(ALPHA * A, 0) * B / ALPHA, [A, B, ALPHA],
                            {ALPHA: "positive"})
    assert found.verdict is Verdict.INCONCLUSIVE and found.evidence.points > 100
    assert found.to_dict()["evidence"]["points"] == found.evidence.points


def test_breakpoints_are_sampled() -> None:
    # differs from z only on [-1/2, 1/2]: found at or beside the switch points
    hardshrink = sympy.Piecewise((Z, (Z > sympy.Rational(1, 2)) | (Z < -sympy.Rational(1, 2))), (0, True))
    found = numeric_witness(hardshrink - Z, [Z], {Z: Region(sympy.Rational(1, 4), sympy.oo)})
    assert found.verdict is Verdict.BROKEN and found.witness[Z] <= sympy.Rational(1, 2)


def test_an_opaque_function_gives_evidence_of_nothing() -> None:
    found = numeric_witness(sympy.Function("sigma")(Z) - Z, [Z])
    assert found.verdict is Verdict.INCONCLUSIVE and found.evidence.points == 0
