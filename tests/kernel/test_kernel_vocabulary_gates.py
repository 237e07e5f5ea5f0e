"""The gates in front of the kernel's tables of trusted names.

The evaluator's tables are reached only through gates: a condition's head is one of the six
relations or a connective (``tree.parse_cond``; ``evaluate._TESTS`` and ``bounds._SIGN_TESTS``
read only conditions), a sign argument is named only from ``signs.ARGUMENTS`` (``prove_sign``
refuses any other ``by`` before ``signs._ARGUMENTS`` is looked up), and asin of a ball that
reaches outside [-1, 1] has no value: ``evaluate._PARTIAL`` refuses it, and Arb's own asin of
such a ball is NaN, which ``evaluate._finite`` refuses as well. Each gate is pinned here, by
name and through a forged certificate, since the tables behind them rely on it.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.check import SCHEMA, check
from symcheck.kernel.evaluate import PRECISIONS, Unknown, enclose, precision
from symcheck.kernel.points import q
from symcheck.kernel.signs import CLAIMS, prove_sign
from symcheck.kernel.tree import FUNCTIONS, parse_cond
from symcheck.kernel.verdict import Reject

X = ["var", "x"]
ZERO = ["int", 0]
SQRT2 = ["root", [-2, 0, 1], [["int", 1], ["int", 2]]]


# ------------------------------------------------------------------ condition heads


@pytest.mark.parametrize("head", sorted(FUNCTIONS))
def test_a_function_head_is_no_condition(head: str) -> None:
    with pytest.raises(Reject, match="unknown condition head"):
        parse_cond([head, X])
    with pytest.raises(Reject, match="unknown condition head"):
        parse_cond([head, X, ZERO])  # the two-argument shape of a relation


def _zero_claim(expr: list, proof: dict) -> dict:
    return {"schema": SCHEMA, "claim": {"kind": "zero", "expr": expr, "vars": {"x": []}}, "proof": proof}


def _piecewise(cond: list) -> list:
    return ["piecewise", [ZERO, cond], [ZERO, ["true"]]]


@pytest.mark.parametrize("head", ["exp", "log", "abs", "sin"])
def test_a_piecewise_with_a_function_as_its_condition_is_refused(head: str) -> None:
    verdict = check(_zero_claim(_piecewise([head, X]), {"steps": [], "end": "normal-form"}))
    assert not verdict.accepted and "unknown condition head" in verdict.reason
    # the well-formed certificate beside it is accepted
    assert check(_zero_claim(_piecewise(["gt", ["exp", X], ZERO]),
                             {"steps": [{"rule": "branch", "at": [], "take": 0, "after": ZERO}],
                              "end": "normal-form"})).accepted


def test_a_rewrite_cannot_put_a_function_where_a_condition_is() -> None:
    """log_exp right to left matches a whole condition (its right side is the bare "x"); the
    result log(exp(cond)) in the condition's place is refused, whatever 'after' says."""
    expr = _piecewise(["gt", X, ZERO])
    rewritten = ["piecewise", [ZERO, ["log", ["exp", ["gt", X, ZERO]]]], [ZERO, ["true"]]]
    for after in (expr, rewritten):
        step = {"rule": "log_exp", "dir": "rl", "at": [1, 1], "after": after}
        verdict = check(_zero_claim(expr, {"steps": [step], "end": "normal-form"}))
        assert not verdict.accepted
        assert "is not the result" in verdict.reason or "unknown condition head" in verdict.reason


# ------------------------------------------------------------------ sign arguments


@pytest.mark.parametrize("by", [*CLAIMS, "", 0, "Point", ["point"]], ids=str)
def test_a_sign_argument_is_named_from_arguments_only(by) -> None:
    for claim in CLAIMS:
        with pytest.raises(Reject, match="unknown sign argument"):
            prove_sign(("int", 1), claim, {}, by)


@pytest.mark.parametrize("by", sorted(CLAIMS))
def test_a_claim_name_as_the_argument_of_a_certificate_fact_is_refused(by: str) -> None:
    fact = {"of": ["add", ["pow", X, ["int", 2]], ["int", 1]], "sign": "pos"}
    assert check(_zero_claim(ZERO, {"facts": [{**fact, "by": "structure"}], "end": "normal-form"})).accepted
    verdict = check(_zero_claim(ZERO, {"facts": [{**fact, "by": by}], "end": "normal-form"}))
    assert not verdict.accepted and "unknown sign argument" in verdict.reason


# ------------------------------------------------------------------ asin outside [-1, 1]

ENDS = st.fractions(min_value=-4, max_value=4, max_denominator=64)


@settings(max_examples=150, deadline=None)
@given(ENDS, ENDS, st.sampled_from(PRECISIONS[:2]))
def test_asin_of_a_ball_reaching_outside_its_domain_has_no_value(a: Fraction, b: Fraction, bits: int) -> None:
    lo, hi = min(a, b), max(a, b)
    with precision(bits):
        ball = arb(q(lo)).union(arb(q(hi)))
        if -1 <= lo and hi <= 1:
            return
        assert not ball.asin().is_finite()  # Arb's own asin has no value there either
        with pytest.raises(Unknown):
            enclose(("asin", ("var", "x")), {"x": ball}, None)
        if lo == hi:
            with pytest.raises(Unknown):
                enclose(("asin", ("var", "x")), {"x": ball}, {"x": lo})


def _witness(expr: list, point, sign: str) -> dict:
    return {"schema": SCHEMA, "claim": {"kind": "nonzero", "expr": expr, "vars": {"x": []}},
            "witness": {"point": {"x": point}, "sign": sign}}


@pytest.mark.parametrize("point", [["int", 2], ["rat", -3, 2], SQRT2], ids=str)
def test_a_witness_outside_the_domain_of_asin_is_refused(point) -> None:
    shifted = ["add", ["asin", X], ["int", -10]]
    for sign in ("pos", "neg"):
        for expr in (["asin", X], shifted):
            verdict = check(_witness(expr, point, sign))
            assert not verdict.accepted and "not proved" in verdict.reason
    assert check(_witness(shifted, ["rat", 1, 2], "neg")).accepted
    assert check(_witness(["asin", X], ["rat", 1, 2], "pos")).accepted
