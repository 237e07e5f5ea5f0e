"""A result shows the argument behind its verdict, step by step: the statement, the reduction
or the difference, one step per case with a Cover step when there are several, or the witness
with both sides, its certificate and the independent re-check. A step dropped, or a failed
certificate given the wrong reason, changes what a reader is asked to trust.
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.core.verdict import Verdict
from symcheck.engine import symmetries
from symcheck.engine.symmetries import check
from symcheck.engine.theorems import Reduction
from symcheck.language.activations import activation
from symcheck.language.symbols import ALPHA, SIGMA, A, B, Z
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

WITNESS = ["Witness", "Left side", "Right side", "Certificate", "Re-check"]
WITNESS_STATUS = ["given", "given", "given", "certified", "verified"]


def _case_titles(n: int) -> list[str]:
    return ["Case"] * n


# (σ, transformation, domain, form) → verdict, the steps' titles (a case's title by its first
# word) and statuses, and how many cases the proof splits into
PROOFS = [
    # the reduction to one variable, refuted at a certified witness
    (("silu", "exchange", None, "gated"), Verdict.BROKEN,
     ["Statement", "Reduction", "Residual", *WITNESS],
     ["given", "verified", "given", *WITNESS_STATUS], 0),
    # σ opaque: the two sides are one expression
    (("silu", "exchange", None, "rank1"), Verdict.HOLDS, ["Statement", "Proof"], ["given", "verified"], 0),
    # the reduction proved by three cases, and the Cover step that says they cover R
    (("relu", "inverse-scaling", "positive", "gated"), Verdict.HOLDS,
     ["Statement", "Reduction", "Residual", *_case_titles(3), "Cover"],
     ["given", "verified", "given", "verified", "verified", "verified", "verified"], 3),
    # one case is the whole line: nothing to cover
    (("tanh", "inverse-scaling", "-1", "gated"), Verdict.HOLDS,
     ["Statement", "Reduction", "Residual", "Case"], ["given", "verified", "given", "verified"], 1),
    # no reduction: the plane split into 7 cases
    (("relu", "inverse-scaling", "positive", "sigma(a)*sigma(b)"), Verdict.HOLDS,
     ["Statement", "Difference", *_case_titles(7), "Cover"], ["given", "given", *["verified"] * 8], 7),
    # σ substituted, the two sides cancel as written: one Proof step, no cases
    (("identity", "exchange", None, "sigma(a)*b"), Verdict.HOLDS,
     ["Statement", "Difference", "Proof"], ["given", "given", "verified"], 0),
    # the plane, refuted on its grid
    (("silu", "inverse-scaling", "positive", "sigma(a)*sigma(b)"), Verdict.BROKEN,
     ["Statement", "Difference", *WITNESS], ["given", "given", *WITNESS_STATUS], 0),
    # through u = a·b: the change of variables, five cases in u, the line a = 0, the Cover; the
    # certificate states the same change of variables (u = b·a) and the kernel accepts it
    (("hardtanh", "key-value-rescaling", "-1", "rank1"), Verdict.HOLDS,
     ["Statement", "Difference", "Change of variables", *_case_titles(6), "Cover"],
     ["given", "given", *["verified"] * 8], 6),
]


@pytest.mark.parametrize(("case", "verdict", "titles", "statuses", "cases"), PROOFS,
                         ids=lambda p: " ".join(map(str, p)) if isinstance(p, tuple) else None)
def test_each_verdict_shows_the_steps_it_rests_on(case, verdict, titles, statuses, cases) -> None:
    act, name, alpha, unit = case
    result = check(act, Transformation(name, domain(alpha) if alpha else None), unit)
    assert result.verdict is verdict
    assert [s.title.split(" ")[0] if s.title.startswith("Case ") else s.title for s in result.steps] == titles
    assert [s.status.value for s in result.steps] == statuses
    assert result.cases == cases


def test_a_one_case_proof_names_the_whole_line() -> None:
    result = check("tanh", Transformation("inverse-scaling", domain("-1")), "gated")
    assert [s.title for s in result.steps if s.case] == ["Case z ∈ R"]


def test_the_plane_cases_are_named_by_their_regions() -> None:
    result = check("hardtanh", Transformation("key-value-rescaling", domain("-1")), "rank1")
    assert [s.title for s in result.steps if s.case] == [
        "Case u < -1, β = -1", "Case u = -1, β = -1", "Case -1 < u < 1, β = -1", "Case u = 1, β = -1",
        "Case u > 1, β = -1", "Case a = 0, b ∈ R, β = -1"]
    assert [s.statement for s in result.steps if s.case][2] == "left = u, right = u; G = 0"


def _certify(act: str, alpha: str, values: dict):
    statement = symmetries._Statement(activation(act), Transformation("inverse-scaling", domain(alpha)),
                                      form("gated"))
    return symmetries._certified(statement, values, "a test", S.Zero, [], {})


@pytest.mark.parametrize(("act", "alpha", "values", "why"), [
    ("silu", "positive", {A: S.One, B: S.One, ALPHA: -S(2)}, "the witness is outside the α domain"),
    ("relu", "positive", {A: S.One, B: S.One, ALPHA: S(2)},
     "the original statement could not be certified at the witness"),
])
def test_a_witness_that_is_not_certified_says_why(act, alpha, values, why) -> None:
    decision = _certify(act, alpha, values)
    assert decision.verdict is Verdict.INCONCLUSIVE and decision.witness is None
    assert decision.note == why
    assert [(s.title, s.statement, s.status.value) for s in decision.steps[-1:]] == [("Certificate", why, "failed")]
    assert [s.title for s in decision.steps] == ["Witness", "Left side", "Right side", "Certificate"]


def test_a_re_check_that_disagrees_says_so(monkeypatch) -> None:
    monkeypatch.setattr(symmetries, "recheck_sign", lambda *args, **kwargs: -1)
    decision = _certify("silu", "positive", {A: S.One, B: S.One, ALPHA: S(2)})
    assert decision.verdict is Verdict.INCONCLUSIVE and decision.witness is None
    assert decision.note == "the independent re-check does not confirm the certificate's sign"


def test_a_re_check_shows_the_value_it_confirms() -> None:
    decision = _certify("silu", "positive", {A: S.One, B: S.One, ALPHA: S(2)})
    assert decision.verdict is Verdict.BROKEN
    recheck = decision.steps[-1]
    assert recheck.title == "Re-check"
    # silu(2)/2 − silu(1) = 1/(1 + e^-2) − 1/(1 + e^-1) ≈ 0.1497, shown to 20 digits
    assert recheck.statement == "mpmath interval arithmetic agrees on the sign: ≈ 0.14973849934787756481"


T = sympy.Symbol("t", positive=True)


@pytest.mark.parametrize(("opaque", "residual", "witness", "z", "multiple"), [
    (SIGMA(A) * B - SIGMA(B) * A, SIGMA(Z) - SIGMA(1) * Z, {A: Z, B: S.One}, T, True),      # D = r(z)
    (2 * (SIGMA(A) * B - SIGMA(B) * A), SIGMA(Z) - SIGMA(1) * Z, {A: Z, B: S.One}, -T, True),
    (SIGMA(A) * B - SIGMA(B) * A, SIGMA(Z) - SIGMA(1) * Z, {A: Z, B: Z}, T, False),         # D = 0 there
    ((A - 1) * SIGMA(A), SIGMA(Z), {A: Z}, T, False),       # D = (t − 1)·r: zero at t = 1
    (SIGMA(A) * SIGMA(B), SIGMA(Z), {A: Z, B: Z}, T, False),  # D = σ(t)·r: not a multiple for every σ
    (SIGMA(A) - SIGMA(A * B), SIGMA(Z) - SIGMA(Z), {A: Z, B: S.One}, T, True),  # r ≡ 0 and D = 0 there
    (SIGMA(A) - SIGMA(B), SIGMA(Z) - SIGMA(Z), {A: Z, B: S.One}, T, False),     # r ≡ 0 but D is not
])
def test_the_necessity_check_accepts_only_a_non_zero_multiple_of_r(opaque, residual, witness, z, multiple) -> None:
    """D at the witness must be c·r(z) with c a non-zero number for every σ: then r(z) ≠ 0
    forces D ≠ 0. A factor that may vanish, a factor with σ in it, or D = 0 does not."""
    reduction = Reduction("", "", "", lambda s: residual.replace(SIGMA, s),
                          lambda z0: {v: e.xreplace({Z: z0}) for v, e in witness.items()})
    assert symmetries._multiple_of(opaque, reduction.residual(SIGMA), reduction, z) is multiple
