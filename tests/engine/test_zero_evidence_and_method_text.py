"""What a zero decision reports besides its verdict: the evidence it gathered and the name of
each piece's proof.

Evidence (points sampled, the largest |r| seen) is merged over the first search and every
piece's search: each side's points count. The name of a rewrite that proved a piece zero is
what a user reads as the justification of that case (``piece_steps``): on a half-line it must
say which substitution (z = lower + t or upper − t, t > 0) the rewrite was applied to, since
the identity holds only with that sign of t.
"""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import S

from symcheck.core.budget import Budget
from symcheck.engine.proof_steps import piece_steps
from symcheck.engine.zero import Evidence, decide_zero, prove_identically_zero
from symcheck.exact.regions import Region
from symcheck.language.symbols import Z

oo = S.Infinity

_decimals = st.fractions(min_value=-10**6, max_value=10**6).map(
    lambda q: sympy.sstr(sympy.Float(sympy.Rational(q.numerator, q.denominator), 6)))


@given(st.integers(0, 10**6), _decimals, st.integers(0, 10**6), _decimals)
@settings(max_examples=60, deadline=None)
def test_merged_evidence_counts_the_points_of_both_sides(p: int, a: str, q: int, b: str) -> None:
    merged = Evidence(p, a).merge(Evidence(q, b))
    assert merged.points == p + q
    assert merged.largest in (a, b) and abs(float(merged.largest)) == max(abs(float(a)), abs(float(b)))


def test_a_decision_counts_the_points_of_its_first_search_and_of_every_piece() -> None:
    # sin² + cos² − 1 is cut at 0: the first search over the whole line, then (−∞, 0), {0}, (0, ∞)
    decision = decide_zero(sympy.sin(Z) ** 2 + sympy.cos(Z) ** 2 - 1, Z, Budget(60))
    assert [p.region for p in decision.pieces] == [Region(-oo, S.Zero), Region(S.Zero, S.Zero),
                                                   Region(S.Zero, oo)]
    first = len(dict.fromkeys(Region(-oo, oo).samples(30) + [S.Zero]))
    per_piece = [len(p.region.samples(12)) for p in decision.pieces]
    assert (first, per_piece) == (25, [12, 1, 12])
    assert decision.evidence.points == first + sum(per_piece) == 50


def test_a_rewrite_on_a_half_line_is_named_with_its_substitution() -> None:
    # Abs(z)(z + 1) = z² + z for z > 0: "expand" proves it after z = t, t > 0 (Abs(t) = t)
    assert prove_identically_zero(sympy.Abs(Z) * (Z + 1) - Z**2 - Z, Z, Region(S.Zero, oo),
                                  Budget(60)) == "expand (with z = t, t > 0)"
    assert prove_identically_zero(sympy.Abs(Z) * (Z + 1) + Z**2 + Z, Z, Region(-oo, S.Zero),
                                  Budget(60)) == "expand (with z = -t, t > 0)"


def test_a_named_identity_on_a_half_line_is_named_with_the_identity_and_its_substitution() -> None:
    # acosh(cosh z) = |z| = z only for z > 0: the name says both the identity and z = t
    assert prove_identically_zero(sympy.acosh(sympy.cosh(Z)) - Z, Z, Region(S.Zero, oo), Budget(60)) == (
        "identities of real functions, then simplify (acosh(cosh u) = |u|) (with z = t, t > 0)")
    assert prove_identically_zero(sympy.acosh(sympy.cosh(Z)) + Z, Z, Region(-oo, S.Zero), Budget(60)) == (
        "identities of real functions, then simplify (acosh(cosh u) = |u|) (with z = -t, t > 0)")


def test_the_case_steps_a_user_reads_name_each_half_line_proof() -> None:
    decision = decide_zero(sympy.sin(Z) ** 2 + sympy.cos(Z) ** 2 - 1, Z, Budget(60))
    assert [p.method for p in decision.pieces] == [
        "simplify (with z = -t, t > 0)", "exact value 0", "simplify (with z = t, t > 0)"]
    assert [s.justification for s in piece_steps(decision)][:3] == [p.method for p in decision.pieces]
