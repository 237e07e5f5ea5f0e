"""Zero decisions: only an exact reduction to 0 on every piece is a proof.

A piece that timed out, a value whose sign cannot be certified, a branch of an uncut
condition that was not proved zero, a half-line substituted from the wrong end: each must
leave the decision open, never count as a proof.
"""
from __future__ import annotations

import mpmath
import pytest
import sympy
from sympy import S

from symcheck.core.budget import Budget, BudgetExceeded
from symcheck.core.verdict import Verdict
from symcheck.engine import zero
from symcheck.engine.zero import decide_zero, prove_identically_zero
from symcheck.exact.regions import Region
from symcheck.language.symbols import Z

#: negative, but no enclosure up to the certifier's precision separates it from 0
UNCERTIFIABLE = sympy.cos(sympy.exp(-5000)) - 1

oo = S.Infinity


@pytest.mark.parametrize(("expr", "region", "proved"), [
    (sympy.Abs(Z) + Z, Region(-oo, S.Zero), True),
    (sympy.Abs(Z) - Z, Region(-oo, S.Zero), False),
    (sympy.Abs(Z) - Z, Region(S.Zero, oo), True),
    (sympy.Abs(Z) + Z, Region(S.Zero, oo), False),
    (sympy.Abs(Z - 1) - (Z - 1), Region(S.One, oo), True),
    (sympy.Abs(Z - 1) - (Z - 1), Region(-oo, S.One), False),
    (sympy.Abs(Z + 2) + (Z + 2), Region(-oo, -S(2)), True),
    (sympy.Abs(Z + 2) + (Z + 2), Region(-S(2), oo), False),
    (sympy.Abs(Z - 3) + (Z - 3), Region(-oo, S(3)), True),
    (sympy.Abs(Z - 3) - (Z - 3), Region(-oo, S(3)), False),
    (sympy.sqrt(Z**2) - Z, Region(S(5), oo), True),
    (sympy.sqrt(Z**2) + Z, Region(-oo, -S(5)), True),
])
def test_a_half_line_is_parametrised_from_its_finite_end(expr, region: Region, proved: bool) -> None:
    """z = lower + t on (lower, ∞), z = upper − t on (−∞, upper), t > 0: the identity holds
    exactly where the sign SymPy may use is the region's."""
    method = prove_identically_zero(expr, Z, region, Budget(30))
    assert (method is not None) is proved


def test_a_timed_out_piece_is_not_a_proof(monkeypatch) -> None:
    def out_of_time(*args, **kwargs):
        raise BudgetExceeded()

    monkeypatch.setattr(zero, "prove_identically_zero", out_of_time)
    residual = sympy.Max(Z, 0) - (Z + sympy.Abs(Z)) / 2  # ≡ 0, so nothing can be certified
    decision = decide_zero(residual, Z, Budget(30))
    assert decision.verdict is Verdict.INCONCLUSIVE
    assert "timeout" in {p.status for p in decision.pieces}
    assert decision.note


def test_the_same_residual_is_proved_with_time() -> None:
    residual = sympy.Max(Z, 0) - (Z + sympy.Abs(Z)) / 2
    decision = decide_zero(residual, Z, Budget(30))
    assert decision.verdict is Verdict.HOLDS
    assert {p.status for p in decision.pieces} == {"proved"}
    assert len(decision.pieces) == 3 and decision.note == ""


def test_an_unproved_piece_keeps_the_decision_open(monkeypatch) -> None:
    monkeypatch.setattr(zero, "prove_identically_zero", lambda *args, **kwargs: None)
    decision = decide_zero(sympy.Max(Z, 0) - (Z + sympy.Abs(Z)) / 2, Z, Budget(30))
    assert decision.verdict is Verdict.INCONCLUSIVE
    assert "unknown" in {p.status for p in decision.pieces}


def test_an_uncertifiable_value_at_a_cut_point_is_not_zero() -> None:
    """The point z = 0 is its own piece; its value is negative but cannot be certified."""
    decision = decide_zero(sympy.Piecewise((UNCERTIFIABLE, sympy.Eq(Z, 0)), (0, True)), Z, Budget(60))
    assert decision.verdict is Verdict.INCONCLUSIVE
    at_zero = [p for p in decision.pieces if p.region.is_point and p.region.lower == 0]
    assert at_zero and at_zero[0].status == "unknown"


def test_a_value_at_a_cut_point_that_is_exactly_zero_is_proved() -> None:
    residual = sympy.Piecewise((sympy.sin(1)**2 + sympy.cos(1)**2 - 1, sympy.Eq(Z, 0)), (0, True))
    assert decide_zero(residual, Z, Budget(60)).verdict is Verdict.HOLDS


def test_a_single_point_where_the_residual_is_not_zero_is_a_witness() -> None:
    """Only the point z = 1 differs: the cut point itself must be tried and certified."""
    decision = decide_zero(sympy.Piecewise((S(1) / 3, sympy.Eq(Z, 1)), (0, True)), Z, Budget(60))
    assert decision.verdict is Verdict.BROKEN
    assert decision.point == 1 and decision.certificate is not None


@pytest.mark.parametrize("other", [UNCERTIFIABLE, UNCERTIFIABLE * Z])
def test_every_branch_of_an_uncut_condition_must_be_proved_zero(other) -> None:
    """sin(z) > 0 cannot be cut on a half-line: 0 on one branch is not enough."""
    decision = decide_zero(sympy.Piecewise((0, sympy.sin(Z) > 0), (other, True)), Z, Budget(60))
    assert decision.verdict is Verdict.INCONCLUSIVE


def test_an_uncut_condition_whose_branches_are_all_zero_is_proved() -> None:
    residual = sympy.Piecewise((Z - Z * 1, sympy.sin(Z) > 0), (sympy.expand((Z + 1)**2) - Z**2 - 2 * Z - 1, True))
    decision = decide_zero(residual + sympy.Piecewise((0, sympy.sin(Z) > 0), (sympy.Abs(Z) - sympy.Abs(-Z), True)),
                           Z, Budget(60))
    assert decision.verdict is Verdict.HOLDS


def test_a_condition_with_an_uncertifiable_sign_is_not_decided() -> None:
    """c·z ≥ 0 with c < 0 uncertifiable: taking sign(c) as 0 would make σ ≡ 1 and 'prove' it."""
    sigma = sympy.Piecewise((1, UNCERTIFIABLE * Z >= 0), (0, True))
    decision = decide_zero(sigma - 1, Z, Budget(60))
    assert decision.verdict is not Verdict.HOLDS


def test_a_piece_whose_every_alternative_is_proved_zero_is_proved() -> None:
    """sin(e^z) > 0 has infinitely many roots on z > 0: no finite cut, so both branches are kept
    there and each must be proved 0 — here both are (sin² + cos² − 1 and 0). (On z < 0 the
    condition is true throughout, e^z lying in (0, 1), and is decided by a sign over the interval.)"""
    r = sympy.Piecewise((sympy.sin(Z)**2 + sympy.cos(Z)**2 - 1, sympy.sin(sympy.exp(Z)) > 0), (0, True))
    decision = decide_zero(r, Z, Budget(60))
    assert decision.verdict is Verdict.HOLDS
    assert [p.status for p in decision.pieces] == ["proved"] * 3
    positive = [p for p in decision.pieces if p.region.lower == 0 and p.region.upper == S.Infinity]
    assert len(positive) == 1
    assert positive[0].method.startswith("0 on every branch the uncut condition may choose (2: ")


def test_a_piece_with_an_alternative_not_proved_zero_is_not_proved() -> None:
    """The same uncut condition with one branch z·e^-z/10^30 (tiny, non-zero): never proved."""
    r = sympy.Piecewise((Z * sympy.exp(-Z) / 10**30, sympy.sin(sympy.exp(Z)) > 0), (0, True))
    decision = decide_zero(r, Z, Budget(60))
    assert decision.verdict is not Verdict.HOLDS


# each identity of real functions, applied to an argument it rewrites (built unevaluated: SymPy
# would apply some itself); mpmath evaluates both sides, independently of SymPy's rewriting
with sympy.evaluate(False):
    IDENTITY_CASES = [
        sympy.asinh(sympy.sinh(Z)), sympy.sinh(sympy.asinh(Z)), sympy.cosh(sympy.asinh(Z)),
        sympy.tanh(sympy.asinh(Z)), sympy.tan(sympy.atan(Z)), sympy.log(sympy.exp(Z)),
        sympy.exp(sympy.log(Z**2 + 1)), sympy.erfc(Z), sympy.atan(sympy.tanh(Z)),
    ]


@pytest.mark.parametrize("expr", IDENTITY_CASES, ids=str)
def test_every_identity_of_real_functions_is_an_equivalence(expr) -> None:
    rewritten, _ = zero.apply_identities(expr)  # some SymPy applies itself when a node is rebuilt
    with mpmath.workdps(40):
        before, after = (sympy.lambdify(Z, e, "mpmath") for e in (expr, rewritten))
        for q in ("-3", "-0.5", "0.3", "2", "7"):
            assert abs(before(mpmath.mpf(q)) - after(mpmath.mpf(q))) < mpmath.mpf(10)**-30, (expr, rewritten, q)


with sympy.evaluate(False):
    NOT_ZERO = [
        sympy.cosh(sympy.asinh(Z)) - sympy.sqrt(1 + Z**4),
        sympy.asinh(sympy.sinh(Z)) - Z + sympy.exp(-Z**2) / 10**6,
        sympy.asinh(sympy.sinh(Z)) - Z + 1,   # rewritten to exactly 1: not 0
        sympy.log(sympy.exp(Z)) - Z + S(1) / 10**20,
        sympy.erfc(Z) + sympy.erf(Z) - 1 + S(1) / 10**20,
        sympy.tanh(sympy.asinh(Z)) - Z / sympy.sqrt(1 + Z**2) + Z**2 / 10**9,
        sympy.log(2 * (Z**2 + 1)) - sympy.log(2) - sympy.log(Z**2 + 1) + S(1) / 10**20,
        S.One, -S(2),                  # a constant: no rewrite makes it 0
        sympy.exp(2 * Z) - 2,          # exp(log u) = u applies to a log only, not to 2·z
        sympy.cos(sympy.sinh(Z)) - Z,  # asinh(sinh u) = u applies to asinh only, not to cos
    ]


@pytest.mark.parametrize("expr", NOT_ZERO, ids=str)
def test_a_rewrite_that_leaves_something_non_zero_proves_nothing(expr) -> None:
    """Identities (or log rules) applied without reducing the residual to 0 are no proof."""
    for region in (Region(-S.Infinity, S.Infinity), Region(S.Zero, S.Infinity)):
        assert prove_identically_zero(expr, Z, region, Budget(60)) is None


def test_a_residual_that_is_a_non_zero_constant_is_broken() -> None:
    decision = decide_zero(S.One, Z, Budget(30))
    assert decision.verdict is Verdict.BROKEN


def test_a_condition_undecided_at_a_cut_point_leaves_that_point_unproved() -> None:
    """At z = 0 the branch depends on the sign of cos(e^-5000) − 1 (about −e^-10000/2), which
    no enclosure of up to 8192 bits decides: the point is not proved, so neither is r ≡ 0
    (r(0) is in fact 1)."""
    hidden = sympy.cos(sympy.exp(-5000)) - 1
    r = sympy.Piecewise((0, Z + hidden > 0), (1, True)) * sympy.Piecewise((1, sympy.Eq(Z, 0)), (0, True))
    decision = decide_zero(r, Z, Budget(60))
    assert decision.verdict is not Verdict.HOLDS
    assert [p.status for p in decision.pieces if p.region.is_point] == ["unknown"]


@pytest.mark.parametrize(("expr", "identity"), [
    (sympy.asinh(sympy.sinh(Z)) - Z, "asinh(sinh u) = u"),
    (2 * sympy.atan(sympy.tanh(Z)) - sympy.atan(sympy.sinh(2 * Z)), "2·atan(tanh u) = atan(sinh 2u)"),
    (sympy.erfc(Z) + sympy.erf(Z) - 1, "erfc u = 1 − erf u"),
], ids=str)
def test_a_residual_that_needs_an_identity_of_real_functions_is_proved_by_it(expr, identity) -> None:
    """None of the plain rewrites reduces these to 0; the identity does, and is named."""
    method = prove_identically_zero(expr, Z, Region(-S.Infinity, S.Infinity), Budget(60))
    assert method == f"identities of real functions, then simplify ({identity})"
    assert decide_zero(expr, Z, Budget(60)).verdict is Verdict.HOLDS


def test_every_proved_piece_names_the_rewrite_that_proved_it() -> None:
    decision = decide_zero(sympy.Max(Z, 0) - (Z + sympy.Abs(Z)) / 2, Z, Budget(30))
    assert decision.verdict is Verdict.HOLDS
    assert all(p.method for p in decision.pieces), decision.pieces


@pytest.mark.parametrize("table", ["_METHODS", "_NAMED_METHODS"])
def test_a_rewrite_that_runs_out_of_time_ends_the_proof_attempt(monkeypatch, table) -> None:
    """Once the budget has run out no later rewrite is tried, not even one that would give 0:
    the piece is a timeout, never a proof found after the deadline."""
    def out_of_time(expr):
        raise BudgetExceeded()

    later = (lambda e: S.Zero) if table == "_METHODS" else (lambda e: (S.Zero, " (later)"))
    monkeypatch.setattr(zero, table, (("out of time", out_of_time), ("would prove it", later)))
    if table == "_NAMED_METHODS":
        monkeypatch.setattr(zero, "_METHODS", ())
    with pytest.raises(BudgetExceeded):
        prove_identically_zero(sympy.sin(Z)**2 + sympy.cos(Z)**2 - 1, Z, Region(-oo, oo), Budget(30))


def test_a_cut_point_whose_every_alternative_is_one_is_not_proved_zero() -> None:
    """At z = 0 the condition cannot be decided (cos(e^-5000) − 1 is not separated from 0) and
    both branches are exactly 1 (one as √2·(1 + √2) − √2 − 1): r(0) = 1, never 'exact value 0'."""
    hidden = sympy.cos(sympy.exp(-5000)) - 1
    one = sympy.sqrt(2) * (1 + sympy.sqrt(2)) - sympy.sqrt(2) - 1
    r = sympy.Piecewise((1, Z + hidden > 0), (one + Z, True)) * sympy.Piecewise((1, sympy.Eq(Z, 0)), (0, True))
    decision = decide_zero(r, Z, Budget(60))
    assert decision.verdict is not Verdict.HOLDS
    assert [p.status for p in decision.pieces if p.region.is_point] in (["unknown"], ["nonzero"])


def test_a_residual_zero_at_every_cut_point_is_refuted_at_a_sample() -> None:
    """r = z vanishes at the cut point 0: the witness comes from the sample points, simplest
    first (0 is not visibly non-zero, 2 is)."""
    decision = decide_zero(Z, Z, Budget(60))
    assert decision.verdict is Verdict.BROKEN and decision.point == 2 and decision.pieces == ()


def test_a_cut_point_off_the_samples_whose_value_is_exactly_one_is_a_witness() -> None:
    decision = decide_zero(sympy.Piecewise((1, sympy.Eq(Z, S(1) / 1000)), (0, True)), Z, Budget(60))
    assert decision.verdict is Verdict.BROKEN and decision.point == S(1) / 1000


def test_a_cut_point_value_that_expands_to_zero_is_proved_by_its_exact_value() -> None:
    """√2·(1 + √2) − √2 − 2 is 0 once expanded: no simplification is needed."""
    value = sympy.sqrt(2) * (1 + sympy.sqrt(2)) - sympy.sqrt(2) - 2
    decision = decide_zero(sympy.Piecewise((value, sympy.Eq(Z, S(1) / 1000)), (0, True)), Z, Budget(60))
    assert decision.verdict is Verdict.HOLDS
    at_cut = [p for p in decision.pieces if p.region == Region(S(1) / 1000, S(1) / 1000)]
    assert [(p.status, p.method) for p in at_cut] == [("proved", "exact value 0")]


def test_a_residual_no_sample_can_evaluate_is_inconclusive_not_a_crash() -> None:
    """An opaque f(z) has no value at any sample: nothing is certified, nothing raises."""
    decision = decide_zero(sympy.Function("f")(Z), Z, Budget(60))
    assert decision.verdict is Verdict.INCONCLUSIVE and decision.point is None


@pytest.mark.parametrize("identity", [S.Zero, sympy.asinh(sympy.sinh(Z)) - Z], ids=["log rules", "identities"])
def test_a_log_of_two_negative_factors_is_not_split(identity) -> None:
    """For z < 1, (z − 1)(z − 2) > 0 with both factors negative: cosh(log((z−1)(z−2))/2) and
    cosh((log(1−z) + log(2−z))/2) are the same positive number, so r = their sum is not 0.
    Splitting the first log as log(z − 1) + log(z − 2) adds 2πi, which cosh(·/2) turns into a
    sign: the forced rule would 'prove' r = 0. Log rules apply only to factors proved positive."""
    r = (sympy.cosh(sympy.log((Z - 1) * (Z - 2)) / 2) + sympy.cosh((sympy.log(1 - Z) + sympy.log(2 - Z)) / 2)
         + identity)
    assert prove_identically_zero(r, Z, Region(-oo, S.One), Budget(60)) is None
