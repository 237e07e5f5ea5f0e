"""The numeric fallback only proposes: a candidate is a witness only with a certificate."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from sympy import S

from symcheck.core.errors import EvaluationError
from symcheck.engine import fallback
from symcheck.engine.fallback import numeric_witness
from symcheck.exact.evaluate import certify_nonzero
from symcheck.exact.regions import Region
from symcheck.language.symbols import ALPHA, A, B, Z


def test_an_uncertified_candidate_is_not_a_witness(monkeypatch) -> None:
    """Floats see z − 1/3 ≠ 0 almost everywhere; without a certificate that is no witness."""
    monkeypatch.setattr(fallback, "certify_nonzero", lambda *args, **kwargs: None)
    found = numeric_witness(Z - S(1) / 3, [Z], samples=64, high_precision_points=8, certify=4)
    assert found.candidates  # the floats did propose points
    assert found.witness is None and found.certificate is None
    assert "no candidate was certified" in found.note


def test_a_certified_candidate_is_a_witness_with_its_certificate() -> None:
    expr = sympy.Max(A, B) - A
    found = numeric_witness(expr, [A, B], samples=64, high_precision_points=8, certify=4)
    assert found.witness is not None and found.certificate is not None
    again = certify_nonzero(expr, found.witness)
    assert again is not None and again.sign == found.certificate.sign == 1


def test_a_residual_that_is_exactly_zero_has_no_witness() -> None:
    found = numeric_witness(sympy.sin(Z)**2 + sympy.cos(Z)**2 - 1, [Z], samples=64,
                            high_precision_points=8, certify=4)
    assert found.witness is None and found.certificate is None


# a point is proposed only inside its variable's domain: open intervals exclude their ends
_REGIONS = {
    "positive": (Region(S.Zero, S.Infinity),),
    "negative": (Region(-S.Infinity, S.Zero),),
    "any": (Region(-S.Infinity, S.Zero), Region(S.Zero, S.Infinity)),
    "(1, 3)": (Region(S.One, S(3)),),
    "{2}": (Region(S(2), S(2)),),
}


@pytest.mark.parametrize(("name", "q", "inside"), [
    ("positive", Fraction(1, 2), True), ("positive", Fraction(0), False), ("positive", Fraction(-1), False),
    ("negative", Fraction(-3), True), ("negative", Fraction(0), False), ("negative", Fraction(1), False),
    ("any", Fraction(0), False), ("any", Fraction(-1), True), ("any", Fraction(7), True),
    ("(1, 3)", Fraction(2), True), ("(1, 3)", Fraction(1), False), ("(1, 3)", Fraction(3), False),
    ("(1, 3)", Fraction(4), False), ("(1, 3)", Fraction(0), False),
    ("{2}", Fraction(2), True), ("{2}", Fraction(3), False), ("{2}", Fraction(1), False),
])
def test_a_point_is_inside_a_domain_exactly_when_it_lies_in_one_of_its_regions(name, q, inside) -> None:
    assert fallback._inside(q, _REGIONS[name]) is inside


def test_a_found_witness_lies_in_the_domain() -> None:
    """α·a is non-zero almost everywhere; for α > 0 the witness must have α > 0."""
    for name in ("positive", "negative", "(1, 3)", "{2}"):
        found = numeric_witness(ALPHA * A, [A, ALPHA], {ALPHA: _REGIONS[name]}, samples=64,
                                high_precision_points=8, certify=4)
        assert found.witness is not None
        q = found.witness[ALPHA]
        assert fallback._inside(Fraction(int(q.p), int(q.q)), _REGIONS[name]), (name, q)


@pytest.mark.parametrize("spec", [[1, 2], ["positive"], (Region(S.Zero, S.One), "any")])
def test_a_domain_that_is_not_regions_is_a_type_error(spec) -> None:
    with pytest.raises(TypeError, match="a domain is a Region, regions, a name or a number"):
        fallback.domain_regions(spec)


def test_a_symbol_without_a_domain_is_refused() -> None:
    """A residual in a variable the search was not given is a caller's mistake: refused, not
    searched as if that variable had some value (every point would be unevaluable)."""
    with pytest.raises(EvaluationError, match="^no domain for a, b$"):
        numeric_witness(Z + A + B, [Z], samples=16, high_precision_points=4, certify=2)


def test_a_small_value_resolved_in_float64_is_a_candidate_whatever_its_size() -> None:
    """|sin(z)/2| <= 1/2 everywhere: float64 resolves it (well above rounding) and that alone
    makes a point a candidate; no mpmath point is needed to find the certified witness."""
    found = numeric_witness(sympy.sin(Z) / 2, [Z], samples=64, high_precision_points=0, certify=4)
    assert found.witness is not None and found.certificate is not None
    assert found.candidates and all(c.precision == "float64" for c in found.candidates)
    assert certify_nonzero(sympy.sin(Z) / 2, found.witness) is not None


def test_a_non_finite_float64_value_is_never_evidence(monkeypatch) -> None:
    """float64 overflowing to inf (while the size of the terms stays finite) says nothing about
    the value: the point is re-evaluated with mpmath, and the evidence stays finite."""
    expr = Z - S(1) / 3

    def overflowing(expr, variables, points):
        import numpy as np
        return np.full(len(points), np.inf), np.ones(len(points))

    monkeypatch.setattr(fallback, "_float64", overflowing)
    found = numeric_witness(expr, [Z], samples=32, high_precision_points=32, certify=2)
    assert found.candidates
    assert all(c.precision.startswith("mpmath") for c in found.candidates)
    assert all(math.isfinite(c.value) for c in found.candidates)
    assert math.isfinite(float(found.evidence.largest))
    assert found.witness is not None


def test_a_residual_float64_cannot_resolve_is_found_with_mpmath() -> None:
    """(z + 1)² − z² − 2z − 1 + sin(z)/10^20: the terms cancel, and what is left lies below
    float64's rounding at every point; only the high-precision candidates see it."""
    expr = sympy.Add((Z + 1)**2, -Z**2, -2 * Z, -1, sympy.sin(Z) / 10**20)
    found = numeric_witness(expr, [Z], samples=64, high_precision_points=64, certify=4)
    assert found.candidates and all(c.precision.startswith("mpmath") for c in found.candidates)
    assert found.witness is not None and found.certificate is not None
    assert any(c.precision.startswith("mpmath") for c in found.candidates)
    assert certify_nonzero(expr, found.witness).sign == found.certificate.sign


def test_a_residual_far_below_its_terms_is_resolved_at_fifty_digits() -> None:
    """sin(z)/10^35 under terms that cancel: 50 digits leave it ten digits above their
    rounding, so mpmath resolves it and the certifier confirms it (float64 cannot)."""
    expr = sympy.Add((Z + 1)**2, -Z**2, -2 * Z, -1, sympy.sin(Z) / 10**35)
    found = numeric_witness(expr, [Z], samples=64, high_precision_points=64, certify=4)
    assert found.witness is not None
    assert found.candidates and all(c.precision == "mpmath, 50 digits" for c in found.candidates)


def test_a_budget_that_runs_out_while_certifying_ends_the_search(monkeypatch) -> None:
    """Running out keeps the result inconclusive: no later candidate is certified after it."""
    calls = []

    def certify(expr, point, **kwargs):
        calls.append(point)
        if len(calls) == 1:
            raise fallback.BudgetExceeded
        return certify_nonzero(expr, point, **kwargs)

    monkeypatch.setattr(fallback, "certify_nonzero", certify)
    found = numeric_witness(Z - S(1) / 3, [Z], samples=64, high_precision_points=8, certify=4)
    assert found.witness is None and found.certificate is None
    assert found.note == "the time budget ran out while certifying candidates"
    assert len(calls) == 1 and found.evidence.certify_attempts == 1


def test_a_witness_carries_no_note_of_failure() -> None:
    found = numeric_witness(Z - S(1) / 3, [Z], samples=64, high_precision_points=8, certify=4)
    assert found.witness is not None and found.note == ""
    assert found.to_dict()["verdict"] == "broken"


def test_each_candidate_is_certified_at_most_once(monkeypatch) -> None:
    """The simplest and the largest candidates overlap; a point tried twice would only spend
    the budget again and count as two attempts in the evidence."""
    calls = []

    def refuse(expr, point, **kwargs):
        calls.append(tuple(point.items()))
        return None

    monkeypatch.setattr(fallback, "certify_nonzero", refuse)
    found = numeric_witness(Z - S(1) / 3, [Z], samples=64, high_precision_points=8, certify=4)
    assert len(found.candidates) > 4
    assert len(calls) == len(set(calls)) == found.evidence.certify_attempts
    assert 4 <= len(calls) <= 8
    calls.clear()  # one point: the simplest candidate is also the largest
    found = numeric_witness(Z - S(1) / 3, [Z], {Z: "2"}, samples=64, high_precision_points=8, certify=4)
    assert len(found.candidates) == 1
    assert calls == [((Z, S(2)),)] and found.evidence.certify_attempts == 1


#: the names domain_regions documents ("a name (real, positive, negative, nonzero/any)"), each
#: with the range it stands for, written here as open intervals (lower, upper)
_DOCUMENTED_NAMES = {"real": [(-S.Infinity, S.Infinity)], "positive": [(S.Zero, S.Infinity)],
                     "negative": [(-S.Infinity, S.Zero)],
                     "nonzero": [(-S.Infinity, S.Zero), (S.Zero, S.Infinity)],
                     "any": [(-S.Infinity, S.Zero), (S.Zero, S.Infinity)]}


def test_a_domain_name_is_one_of_the_documented_ones_and_means_what_it_says() -> None:
    """Issue 23 (an allow-list entry added): a name outside the documented five — any word in
    the module's own source, where a slip would take it from — is refused, never read as a
    range; each documented name is the range the docstring gives it."""
    import ast
    import inspect
    words = {node.value for node in ast.walk(ast.parse(inspect.getsource(fallback)))
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier()}
    words |= {n for n in dir(fallback) if not n.startswith("__")} | {"Real", "pos", "all", "R", "nonnegative"}
    for word in sorted(words - _DOCUMENTED_NAMES.keys()):
        with pytest.raises((ValueError, TypeError)):
            fallback.domain_regions(word)
    for word, ranges in _DOCUMENTED_NAMES.items():
        regions = fallback.domain_regions(word)
        assert [(r.lower, r.upper) for r in regions] == ranges and not any(r.is_point for r in regions), word


@pytest.mark.parametrize(("q", "regions", "inside"), [
    # ends no float holds: 1/10 as a float is a little above 1/10, 1/3 a little below 1/3
    (Fraction(1, 10), (Region(S(1) / 10, S.One),), False), (Fraction(1, 3), (Region(S.Zero, S(1) / 3),), False),
    (Fraction(1, 3), (Region(S(1) / 3, S(1) / 3),), True), (Fraction(1, 10), (Region(S(1) / 10, S(1) / 10),), True),
    (Fraction(10**20 + 1, 10**20), (Region(S.Zero, S.One),), False),
    (Fraction(10**20 - 1, 10**20), (Region(S.One, S(2)),), False),
])
def test_membership_is_decided_exactly_at_ends_no_float_holds(q, regions, inside) -> None:
    """Issue 23 (an exact value folded to a float): a point on an open end, or just outside it,
    is outside — a witness there lies outside its variable's domain."""
    assert fallback._inside(q, regions) is inside
