"""The second engine: z3 decides the same statements, and disagreements are never hidden."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
import sympy

import symcheck as sc
from symcheck.core.verdict import Verdict
from symcheck.engine import smt, symmetries
from symcheck.language.activations import CATALOGUE
from symcheck.language.symbols import Z
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form

from support import invoke_cli, quick_few

requires_z3 = pytest.mark.skipif(not smt.z3_available(),
                                 reason="z3-solver is not installed (the test extra installs it)")

# piecewise polynomials over Q: the catalogue entries z3 covers, found from the SymPy tree
COVERED = {"relu", "leaky_relu", "relu6", "relu2", "hardtanh", "hardsigmoid", "hardswish",
           "softshrink", "hardshrink", "identity"}
# the statements of the issue: gated exchange, inverse scaling α>0 / α=−1 / α≠0,
# rank1 exchange, key-value rescaling β>0 on rank1 (plus α<0, and key-value on gated)
STATEMENTS = [("exchange", None, "gated"), ("inverse-scaling", "positive", "gated"),
              ("inverse-scaling", "-1", "gated"), ("inverse-scaling", "any", "gated"),
              ("inverse-scaling", "negative", "gated"), ("exchange", None, "rank1"),
              ("key-value-rescaling", "positive", "rank1"), ("key-value-rescaling", "any", "gated")]


def _t(kind: str, d: str | None, degree=1) -> Transformation:
    return Transformation(kind, None if d is None else domain(d), degree=sympy.sympify(degree))


# --- coverage is structural ------------------------------------------------------------------

def test_catalogue_coverage_is_read_off_the_expression_tree() -> None:
    found = {name for name in CATALOGUE if smt.covers(sc.activation(name).expr)}
    assert found == COVERED


@pytest.mark.parametrize("text, covered", [
    ("Max(z, 0)", True), ("Max(z, z/5)", True), ("Abs(z)*sign(z)", True), ("z*Heaviside(z)", True),
    ("Piecewise((2*z, z > 0), (z/2, True))", True), ("z**3 - z", True), ("z + z**3/10**15", True),
    ("Min(Max(z, -2), 3)**2", True), ("Piecewise((1, (z > 1) & ~(z > 2)), (0, True))", True),
    ("exp(z)", False), ("tanh(z)", False), ("pi*z", False), ("sqrt(2)*z", False),
    ("1/(1 + z**2)", False), ("Max(z, 0) + erf(z)", False), ("Abs(z)**(1/2)", False),
])
def test_coverage_of_user_expressions(text: str, covered: bool) -> None:
    assert smt.covers(sc.activation(text).expr) is covered


def test_not_covered_gives_no_cross_check() -> None:
    result = sc.check_exchange("silu")
    assert result.cross_check is None and result.to_dict()["cross_check"] is None
    assert "cross-check" not in str(result)


def test_a_non_integer_degree_is_not_covered() -> None:
    t = _t("query-value-rescaling", "positive", sympy.Rational(1, 2))
    assert smt.cross_check(sc.activation("relu"), t, form("gated"), "broken", None) is None


def test_without_z3_a_covered_check_says_so(without_z3) -> None:
    result = sc.check_inverse_scaling("relu")
    assert result.verdict is Verdict.HOLDS
    assert result.cross_check.verdict == "unavailable" and result.cross_check.agrees is None
    assert "pip install" in result.cross_check.reason


# --- agreement -----------------------------------------------------------------------------------

def _assert_agree(result: sc.CheckResult) -> None:
    cross = result.cross_check
    assert cross is not None, str(result)
    assert cross.engine == "z3" and cross.symbolic_verdict == result.verdict.value
    assert cross.verdict == result.verdict.value, str(result)
    assert cross.agrees is True, str(result)
    if result.verdict is Verdict.BROKEN:
        assert cross.witness_confirmed is True
        assert cross.model is not None


@requires_z3
@pytest.mark.parametrize("name", quick_few(sorted(COVERED), {"relu", "hardtanh"}))
@pytest.mark.parametrize("kind, d, unit", STATEMENTS)
def test_engines_agree_on_the_catalogue(name: str, kind: str, d: str | None, unit: str) -> None:
    _assert_agree(symmetries.check(name, _t(kind, d), unit))


# (σ, exchange, α > 0, α = −1, α ≠ 0) on the gated form
OWN = [
    ("Max(z, z/5)", "broken", "holds", "broken", "broken"),
    ("Piecewise((2*z, z > 0), (z/2, True))", "broken", "holds", "broken", "broken"),
    ("(z + Abs(z))/2", "broken", "holds", "broken", "broken"),
    ("z*Heaviside(z)", "broken", "holds", "broken", "broken"),
    ("Abs(z)*sign(z)", "holds", "holds", "holds", "holds"),
    ("Max(z, 0) - Max(-z, 0)", "holds", "holds", "holds", "holds"),
    ("Min(Max(z, -2), 2)", "broken", "broken", "holds", "broken"),
    ("Piecewise((z - 1, z > 1), (z + 1, z < -1), (0, True))", "broken", "broken", "holds", "broken"),
    ("sign(z)", "broken", "broken", "holds", "broken"),
    ("Heaviside(z)", "broken", "broken", "broken", "broken"),
    ("3*z/2", "holds", "holds", "holds", "holds"),
    ("0", "holds", "holds", "holds", "holds"),
    ("1", "broken", "broken", "broken", "broken"),
    ("z + 1", "broken", "broken", "broken", "broken"),
    ("z**3", "broken", "broken", "holds", "broken"),
    ("z**3 - z", "broken", "broken", "holds", "broken"),
    ("z**2", "broken", "broken", "broken", "broken"),
    ("z*Abs(z)", "broken", "broken", "holds", "broken"),
    ("z + z**3/10**15", "broken", "broken", "holds", "broken"),
    ("z + z**2/10**20", "broken", "broken", "broken", "broken"),
    ("Max(z, 0)**3 - 2*Max(-z, 0)**3", "broken", "broken", "broken", "broken"),
]
COLUMNS = (("exchange", None), ("inverse-scaling", "positive"), ("inverse-scaling", "-1"),
           ("inverse-scaling", "any"))


@requires_z3
@pytest.mark.parametrize("expr, column, expected",
                         [(row[0], col, v) for row in OWN for col, v in zip(COLUMNS, row[1:], strict=True)])
def test_engines_agree_on_piecewise_linear_and_polynomial_cases(expr, column, expected) -> None:
    result = symmetries.check(expr, _t(*column), "gated")
    assert result.verdict.value == expected, str(result)
    _assert_agree(result)


@requires_z3
@pytest.mark.parametrize("expr, degree, expected", [
    ("Max(z, 0)", 1, "holds"), ("Max(z, 0)**2", 2, "holds"), ("z*Abs(z)", 2, "holds"),
    ("Max(z, 0)**3 - 2*Max(-z, 0)**3", 3, "holds"), ("z**2 + z", 2, "broken"),
])
def test_engines_agree_on_query_value_rescaling_with_degree(expr, degree, expected) -> None:
    result = symmetries.check(expr, _t("query-value-rescaling", "positive", degree), "gated")
    assert result.verdict.value == expected, str(result)
    _assert_agree(result)


@requires_z3
@pytest.mark.parametrize("act, unit, column, expected", [
    ("relu", "sigma(a)*sigma(b)", ("inverse-scaling", "positive"), "holds"),
    ("relu", "sigma(a)*b + sigma(b)*a", ("exchange", None), "holds"),
    ("relu2", "a*sigma(b)", ("inverse-scaling", "positive"), "broken"),
    ("Abs(z)", "sigma(a - b)", ("exchange", None), "holds"),
    ("z**3", "sigma(a)*sigma(b)", ("inverse-scaling", "-1"), "holds"),
])
def test_engines_agree_on_custom_forms(act, unit, column, expected) -> None:
    result = symmetries.check(act, _t(*column), unit)
    assert result.verdict.value == expected, str(result)
    _assert_agree(result)


@requires_z3
def test_a_model_is_rechecked_exactly_and_an_irrational_one_is_not_a_verdict() -> None:
    # σ differs from 0 only at ±√2: z3's model is algebraic, its rational rounding is no
    # counterexample, so z3 gives no verdict (and the engine, finding no rational witness,
    # is inconclusive too).
    result = sc.check_exchange("Piecewise((1, Eq(z**2, 2)), (0, True))")
    assert result.verdict is Verdict.INCONCLUSIVE
    cross = result.cross_check
    assert cross.verdict == "unknown" and cross.agrees is None
    assert "re-evaluated exactly" in cross.reason


@requires_z3
def test_an_out_of_time_cross_check_gives_no_verdict() -> None:
    cross = smt.cross_check(sc.activation("relu"), _t("exchange", None), form("gated"), "broken",
                            {"a": 1, "b": -1}, seconds=0.001)
    assert cross.verdict == "unknown" and cross.agrees is None
    assert "time" in cross.reason


@requires_z3
def test_a_solver_failure_is_no_verdict_and_no_crash(monkeypatch) -> None:
    import z3

    def fail(*args):
        raise z3.Z3Exception("simulated solver failure")

    monkeypatch.setattr(smt, "_decide", fail)
    result = sc.check_inverse_scaling("relu")
    assert result.verdict is Verdict.HOLDS
    assert result.cross_check.verdict == "unknown" and result.cross_check.agrees is None
    assert "simulated solver failure" in result.cross_check.reason


@requires_z3
def test_an_uncovered_piecewise_region_never_yields_a_proof() -> None:
    # Built by hand, bypassing the parser (which would refuse it): no branch for z <= 0.
    sigma = sc.Activation("partial", sympy.Piecewise((Z, Z > 0)), "Piecewise((z, z > 0))")
    cross = smt.cross_check(sigma, _t("exchange", None), form("gated"), "inconclusive", None)
    assert cross.verdict != "holds"


# --- disagreement -----------------------------------------------------------------------------

@requires_z3
def test_engine_holds_but_z3_finds_a_model_is_inconclusive(monkeypatch) -> None:
    original = symmetries._decide

    def wrong(statement, budget):
        return replace(original(statement, budget), verdict=Verdict.HOLDS, witness=None)  # a forged proof

    monkeypatch.setattr(symmetries, "_decide", wrong)
    # the guard would withdraw the forged proof first, and the kernel refuse it; here z3 alone must catch it
    monkeypatch.setattr(symmetries, "counterexample", lambda *args, **kw: None)
    monkeypatch.setattr(symmetries, "_kernel", lambda statement, decision, budget: (decision, None))
    result = sc.check_inverse_scaling("relu2", alpha="positive")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert result.cross_check.agrees is False and result.cross_check.verdict == "broken"
    assert "engines disagree" in result.note
    assert "symbolic engine says holds" in result.note and "z3 says broken" in result.note
    data = result.to_dict()
    assert data["verdict"] == "inconclusive" and data["cross_check"]["agrees"] is False
    assert "DISAGREES" in str(result)


@requires_z3
def test_engine_broken_but_z3_proves_it_is_inconclusive(monkeypatch) -> None:
    monkeypatch.setattr(smt, "_decide", lambda *args: smt._Decision("holds", reason="forged unsat"))
    result = sc.check_exchange("relu")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert result.cross_check.agrees is False
    assert "symbolic engine says broken" in result.note and "z3 says holds" in result.note


@requires_z3
def test_a_witness_z3_does_not_confirm_is_a_disagreement(monkeypatch) -> None:
    original = symmetries._decide

    def wrong_witness(statement, budget):
        return replace(original(statement, budget),
                       witness={"a": sympy.Integer(1), "b": sympy.Integer(1)})  # σ(1)·1 = σ(1)·1

    monkeypatch.setattr(symmetries, "_decide", wrong_witness)
    monkeypatch.setattr(symmetries, "_kernel", lambda statement, decision, budget: (decision, None))  # z3 alone
    result = sc.check_exchange("relu")
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.cross_check.witness_confirmed is False and result.cross_check.agrees is False
    assert "witness" in result.note


@requires_z3
def test_a_disagreement_is_shown_in_the_rich_output(monkeypatch) -> None:
    monkeypatch.setattr(smt, "_decide", lambda *args: smt._Decision("holds", reason="forged unsat"))
    code, out, err = invoke_cli("exchange", "--act", "relu")
    assert code == 0, err
    assert "inconclusive" in out and "DISAGREES" in out and "engines disagree" in out


# --- output ----------------------------------------------------------------------------------

@requires_z3
def test_json_carries_the_cross_check() -> None:
    code, out, err = invoke_cli("exchange", "--act", "relu", "--json")
    assert code == 0, err
    cross = json.loads(out)["cross_check"]
    assert {"engine", "verdict", "agrees", "model", "witness_confirmed"} <= set(cross)
    assert cross["engine"] == "z3" and cross["verdict"] == "broken" and cross["agrees"] is True
    code, out, _ = invoke_cli("exchange", "--act", "silu", "--json")
    assert json.loads(out)["cross_check"] is None


@requires_z3
def test_rich_output_shows_the_cross_check() -> None:
    code, out, _ = invoke_cli("scaling", "--act", "relu")
    assert code == 0
    assert "cross-check" in out and "z3" in out and "agrees with the symbolic engine" in out
    _, out, _ = invoke_cli("scaling", "--act", "gelu")
    assert "cross-check" not in out


@requires_z3
def test_result_text_shows_the_cross_check() -> None:
    text = str(sc.check_exchange("relu2"))
    assert "cross-check: z3" in text and "confirms its witness" in text


# --- the proof kernel catches the same forgeries on its own ------------------------------------

def test_a_forged_proof_is_refused_by_the_kernel_alone(monkeypatch) -> None:
    """A false holds that passes the guard (disabled here) is not reported: the kernel finds no proof."""
    original = symmetries._decide
    monkeypatch.setattr(symmetries, "_decide", lambda statement, budget: replace(
        original(statement, budget), verdict=Verdict.HOLDS, witness=None))
    monkeypatch.setattr(symmetries, "counterexample", lambda *args, **kw: None)
    monkeypatch.setattr(symmetries, "_cross_check", lambda statement, decision, budget: (None, decision))
    result = sc.check_inverse_scaling("relu2", alpha="positive")
    assert result.verdict is Verdict.INCONCLUSIVE and result.witness is None
    assert "proof kernel did not accept" in result.note and result.certificate is None


@pytest.mark.kernel_rejection
def test_a_forged_witness_is_refused_by_the_kernel_alone(monkeypatch) -> None:
    """A broken whose witness does not break the statement (a = b = 1 for exchange) is not reported."""
    original = symmetries._decide
    monkeypatch.setattr(symmetries, "_decide", lambda statement, budget: replace(
        original(statement, budget), witness={"a": sympy.Integer(1), "b": sympy.Integer(1)}))
    monkeypatch.setattr(symmetries, "_cross_check", lambda statement, decision, budget: (None, decision))
    result = sc.check_exchange("relu")
    assert result.verdict is Verdict.INCONCLUSIVE
    assert "proof kernel did not accept" in result.note and result.certificate is None
