"""Three bounds of the certificate emitter (symcheck/engine/certificate/emit.py, rewrite.py), each
tested where its slip would lose a certificate the kernel accepts:

* ``_Prover._domain_split`` cuts EVERY variable whose domain is a union of regions, one after the
  other (``unions[1:]`` is the rest after the first): a variable not cut at its regions' ends is
  proved on its whole line instead, where |y| − y = −2y ≠ 0 for y < 0 — no certificate;
* ``_Prover._change`` names the new variable of a change u = P·b with the first name of u, u1,
  u2, …, u99 in use neither in the piece nor in the claim: when every name but u1 is declared,
  u1 must still be found (a list without u1 runs out);
* ``Leaf._clear_denominators`` takes the lowest exponent of each inverted base over EVERY term
  of the Laurent argument of a log, the first term included: in canonical order the terms of
  e^z·z^(−k) + z^(−j) (j < k) are sorted by the exponent of e^z first, so the first term holds
  z's lowest exponent −k; missing it leaves z^(−k+j) uncleared and the log unsplit.

Truth by hand: |x| = x and |y| = y for x, y > 0, so |x| − x + |y| − y = 0 on any union of
positive intervals; max(w·v − 1, 0) = (w·v − 1 + |w·v − 1|)/2 for all reals; for z > 0,
e^z·z^(−k) + z^(−j) = z^(−k)·(e^z + z^(k−j)) with both factors positive, so
log(e^z·z^(−k) + z^(−j)) = log(e^z + z^(k−j)) − k·log z."""
from __future__ import annotations

import json
from fractions import Fraction

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Abs, Max, Rational, exp, log, oo

from symcheck.engine.certificate.emit import Certificate, Rejection, RejectionStage, certify_zero
from symcheck.kernel.check import check

x, y, t, z = sympy.symbols("x y t z", real=True)


def accepted(outcome) -> dict:
    assert isinstance(outcome, Certificate), str(outcome)
    again = check(json.loads(json.dumps(outcome.data)))  # what a file holds, re-read
    assert again.accepted, str(again)
    return outcome.data


def split_vars(proof: dict) -> set:
    """Every variable some split of the proof cuts."""
    found = set()
    stack = [proof]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "var" in node and "pieces" in node:
                found.add(node["var"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def changes(proof) -> list[dict]:
    if isinstance(proof, dict):
        return ([proof["change"]] if "change" in proof else []) + [c for v in proof.values() for c in changes(v)]
    if isinstance(proof, list):
        return [c for v in proof for c in changes(v)]
    return []


# ------------------------------------------------ every union-domain variable is cut at its ends

def _positive_union(ends: list[Fraction]) -> list[tuple]:
    """Disjoint open intervals (e₀, e₁), (e₂, e₃), … of distinct positive ends, increasing."""
    ordered = sorted(set(ends))
    return [(Rational(ordered[i].numerator, ordered[i].denominator),
             Rational(ordered[i + 1].numerator, ordered[i + 1].denominator))
            for i in range(0, len(ordered) - 1, 2)]


def test_two_union_domains_both_cut() -> None:
    union = [(0, 1), (2, 3)]
    data = accepted(certify_zero(Abs(x) - x + Abs(y) - y, {x: union, y: union}))
    assert {"x", "y"} <= split_vars(data["proof"])


ENDS = st.lists(st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=8),
                min_size=4, max_size=6, unique=True)


@settings(max_examples=8, deadline=None)
@given(ex=ENDS, ey=ENDS, et=ENDS, three=st.booleans())
def test_every_union_domain_variable_is_cut(ex, ey, et, three) -> None:
    # a union per variable, all in (0, ∞): |v| − v = 0 there, −2v ≠ 0 off it for v < 0
    space = {x: _positive_union(ex), y: _positive_union(ey)}
    expr = Abs(x) - x + Abs(y) - y
    if three:
        space[t] = _positive_union(et)
        expr += Abs(t) - t
    data = accepted(certify_zero(expr, space))
    assert {str(v) for v in space} <= split_vars(data["proof"])


# ------------------------------------------------ the new variable of a change is the first free name

W, V = sympy.symbols("w v", real=True)
U = sympy.Symbol("u", real=True)
HALF_LINE = [(0, oo)]


def test_a_change_of_variables_takes_u1_when_u_is_used() -> None:
    # the condition u·w − 1 > 0 of max is one in the product: v = u·w, u's name taken
    data = accepted(certify_zero(Max(U * W - 1, 0) - (U * W - 1 + Abs(U * W - 1)) / 2,
                                 {U: HALF_LINE, W: HALF_LINE}))
    assert [c["to"] for c in changes(data["proof"])] == ["u1"]


def test_a_change_of_variables_finds_u1_when_every_other_name_is_declared() -> None:
    # u, u2, …, u99 are all variables of the claim (u2…u99 unused by the expression): only u1 is free
    space = {U: HALF_LINE, W: HALF_LINE, **{sympy.Symbol(f"u{i}", real=True): () for i in range(2, 100)}}
    data = accepted(certify_zero(Max(U * W - 1, 0) - (U * W - 1 + Abs(U * W - 1)) / 2, space))
    found = changes(data["proof"])
    assert found and all(c["to"] == "u1" for c in found)


def test_no_fresh_name_for_a_change_is_a_refusal_not_a_crash() -> None:
    # u, u1, …, u99 all taken: the emitter refuses (no certificate), it does not raise
    space = {U: HALF_LINE, W: HALF_LINE, **{sympy.Symbol(f"u{i}", real=True): () for i in range(1, 100)}}
    outcome = certify_zero(Max(U * W - 1, 0) - (U * W - 1 + Abs(U * W - 1)) / 2, space)
    assert isinstance(outcome, Rejection) and outcome.stage is RejectionStage.EMIT
    assert "no fresh name" in outcome.reason


# ------------------------------------------------ a log's Laurent argument: the first term's exponent counts

@settings(max_examples=8, deadline=None)
@given(k=st.integers(1, 4), j=st.integers(0, 3))
def test_log_of_a_laurent_argument_whose_first_term_holds_the_lowest_power(k, j) -> None:
    j = min(j, k - 1)  # j < k: the first term e^z·z^(−k) has z's lowest exponent
    expr = log(exp(z) * z**-k + z**-j) - log(exp(z) + z**(k - j)) + k * log(z)
    accepted(certify_zero(expr, {z: HALF_LINE}))


def test_log_one_plus_exp_over_a_square() -> None:
    accepted(certify_zero(log(exp(z) / z**2 + 1) - log(exp(z) + z**2) + 2 * log(z), {z: HALF_LINE}))
