"""Every `broken` audit row carries a certificate on its own statement, and "no p works" is proved.

The test re-certifies each broken row itself (certify_nonzero on the row's own statement, σ
substituted, built here from the transformation and the unit form, not by the audit's code),
and computes the truth of query-value rescaling for generated activations itself.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

import symcheck.paper.auditing as auditing
from symcheck.engine.homogeneity import Excludes
from symcheck.engine.symmetries import check
from symcheck.exact.evaluate import certify_nonzero
from symcheck.language.activations import activation
from symcheck.language.symbols import ALPHA, BETA, SIGMA, A, B, substitute_sigma
from symcheck.language.transformations import Transformation, domain
from symcheck.language.unit_forms import form as unit_form
from symcheck.paper.auditing import Ground, audit, query_value

from support import invoke_cli

R = sympy.Rational
QV = "query-value-rescaling"
#: degrees at which a "for every p" refutation is re-checked
DEGREES = (R(-1), R(0), R(1, 2), R(1), R(2), R(3))
SYMBOL = {"a": A, "b": B, "alpha": ALPHA, "beta": BETA}
MIN_EXAMPLE = "Min(z,0)*(Min(z,0)+3/2)"
POINT_AT_ZERO = "Piecewise((1, Eq(z, 0)), (0, True))"


def _nonzero(sigma, row, point: dict, degree=None) -> bool:
    """left − right of the row's own statement is certified non-zero at ``point``."""
    dom = row.domain
    t = (Transformation(row.transformation, dom, degree=degree) if degree is not None
         else Transformation(row.transformation, dom))
    lhs, rhs = t.statement(unit_form(row.unit), SIGMA)
    values = {SYMBOL[k]: R(v) for k, v in point.items()}
    if t.scale is not None:
        assert t.domain.contains(values[t.scale]), (row, point)
    return certify_nonzero(substitute_sigma(lhs - rhs, sigma), values) is not None


def assert_broken_rows_certified(result) -> None:
    sigma = activation(result.activation)
    for row in result.rows:
        if row.verdict.value != "broken":
            assert row.witness is None, row
            continue
        if row.transformation != QV:
            assert row.witness and _nonzero(sigma, row, row.witness), row
            continue
        assert row.ground is Ground.NO_DEGREE, row
        if row.degree is not None:  # the one candidate p, refuted at the witness
            assert row.witness and _nonzero(sigma, row, row.witness, row.degree), row
        elif row.witness:           # one point refutes every p
            assert all(_nonzero(sigma, row, row.witness, p) for p in DEGREES), row
        # every p: the argument's points between them refute each sampled p
        points = [{"a": r.z, "b": 1, "alpha": 2} for r in row.homogeneity.refutations]
        assert points
        for p in DEGREES:
            if p == row.degree:
                continue
            assert any(_nonzero(sigma, row, q, p) for q in points), (row, p)


# --- the two examples of the issue ------------------------------------------------------------

@pytest.mark.slow
def test_min_example_rows_carry_a_real_witness() -> None:
    code, out, err = invoke_cli("audit", "--act", MIN_EXAMPLE, "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    qv = [r for r in rows if r["transformation"] == QV]
    assert sorted(r["form"] for r in qv) == ["bilinear", "gated", "rank-r", "rank1"]
    for r in qv:
        assert r["verdict"] == "broken" and r["degree"] is None
        assert r["witness"] == {"a": "-1", "b": "1", "alpha": "2"}   # σ(−1) = −1/2, σ(−2) = 1
        assert r["homogeneity"]["kind"] == "opposite-signs"
    # the old witness a = 1, b = 1, α = 2 sits where σ(1) = σ(2) = 0: no row may carry it
    assert all(r["witness"] != {"a": "1", "b": "1", "alpha": "2"} for r in rows)
    assert_broken_rows_certified(audit(MIN_EXAMPLE))


@pytest.mark.slow
def test_min_example_latex_shows_the_certified_witness() -> None:
    code, out, err = invoke_cli("latex", "audit", "--act", MIN_EXAMPLE)
    assert code == 0, err
    assert r"a = 1,\ b = 1,\ \alpha = 2" not in out
    assert (r"no degree $p$ works: $\sigma(-1)$ and $\sigma(-2)$ have opposite signs, $2^p > 0$ "
            r"(witness $a = -1,\ b = 1,\ \alpha = 2$)") in out


@pytest.mark.slow
def test_a_point_value_at_zero_is_homogeneous_of_degree_zero() -> None:
    result = audit(POINT_AT_ZERO)
    for form in ("gated", "rank1", "bilinear", "rank-r"):
        row = result.row(form, QV, "positive")
        assert row.verdict.value == "holds" and row.degree == 0, row.basis
        assert row.homogeneity.pin.z == 0 and row.witness is None
    assert "other p" not in json.dumps(result.to_dict())
    assert_broken_rows_certified(result)


@pytest.mark.parametrize("form", ["gated", "rank1"])
def test_degree_zero_holds_and_z3_agrees(form: str) -> None:
    t = Transformation(QV, domain("positive"), degree=sympy.Integer(0))
    result = check(POINT_AT_ZERO, t, form)
    assert result.verdict.value == "holds"
    assert result.cross_check is not None and result.cross_check.agrees is True


# --- generated activations: the test computes which p work -------------------------------------

def _power(cp: Fraction, cm: Fraction, p: Fraction, s0: Fraction) -> str:
    return f"Piecewise(({cp}*z**({p}), z > 0), ({cm}*(-z)**({p}), z < 0), ({s0}, True))"


def _truth(cp, cm, p, s0) -> set | None:
    """The p that work (None: every p): σ(0) = α^q σ(0) needs q = 0 unless σ(0) = 0."""
    at_zero = None if s0 == 0 else {Fraction(0)}
    elsewhere = None if cp == cm == 0 else {p}
    if at_zero is None:
        return elsewhere
    return at_zero if elsewhere is None else at_zero & elsewhere


F = Fraction
GENERATED = [(_power(cp, cm, p, s0), _truth(cp, cm, p, s0))
             for p in (F(0), F(1), F(1, 2), F(2))
             for cp, cm in ((F(1), F(1)), (F(3, 2), F(-2)), (F(0), F(0)))
             for s0 in (F(0), F(1))]
SPECIAL = [
    ("z*(z**2 - 1)", set()),                         # σ(±1) = 0 at the grid, σ(±2) ≠ 0
    ("sin(pi*z)", set()),                            # zero at every integer
    ("Piecewise((2, Eq(z, 0)), (z, True))", set()),  # σ(0) ≠ 0 pins 0, σ(2) ≠ σ(1)
    ("Piecewise((-1, Eq(z, 0)), (3, True))", {F(0)}),
    (POINT_AT_ZERO, {F(0)}),
    (MIN_EXAMPLE, set()),
    ("z + Piecewise((1, Eq(z, 5/4)), (0, True))", set()),   # the grid agrees with p = 1; a check refutes it
    ("Piecewise((1, Eq(z, 5/3)), (0, True))", set()),       # σ = 0 at every grid point
]


@pytest.mark.parametrize("act, truth", GENERATED + SPECIAL, ids=[a for a, _ in GENERATED + SPECIAL])
@pytest.mark.parametrize("form", ["gated", "rank1"])
@pytest.mark.slow
def test_query_value_truth_table(act: str, truth: set | None, form: str) -> None:
    row = query_value(act, form)
    if truth == set():
        assert row.verdict.value == "broken", row.basis
    elif truth is None:  # σ ≡ 0: every p works, the one checked included
        assert row.verdict.value == "holds", row.basis
    else:
        assert row.verdict.value == "holds" and row.degree == R(*next(iter(truth)).as_integer_ratio()), row.basis
    sigma = activation(act)
    assert_broken_rows_certified(auditing.Audit(sigma, (row,)))


def test_an_uncertified_pinned_value_is_never_used_to_refute_every_p() -> None:
    # 2^(3/2) = σ(2)/σ(1) comes from SymPy's Abs: p = 3/2 fails at the bump, but that p is
    # not known to be the pinned one, so the other p stay open
    row = query_value("Abs(z)**1.5 + Piecewise((1, Eq(z, 5/4)), (0, True))")
    assert row.verdict.value == "inconclusive" and row.witness is None
    assert row.reason == "p = 3/2 fails at a certified witness; other p are not decided"


# --- the audit certifies by itself: a certifier that refuses must leave no broken row ------------

def test_a_witness_the_audit_cannot_certify_is_inconclusive(monkeypatch) -> None:
    monkeypatch.setattr(auditing, "certify_nonzero", lambda expr, values, **kw: None)
    row = audit("silu").row("gated", "exchange")
    assert row.verdict.value == "inconclusive" and row.witness is None
    assert row.reason == "the witness could not be certified on the row's own statement"
    assert row.steps[-1].status == "failed"


def test_refutations_the_audit_cannot_certify_are_inconclusive(monkeypatch) -> None:
    monkeypatch.setattr(auditing, "certified_sign", lambda expr, point: None)
    row = query_value(MIN_EXAMPLE)
    assert row.verdict.value == "inconclusive" and row.witness is None
    assert row.reason == "the argument could not be re-certified on the unit statement"


def test_a_conflict_the_audit_cannot_certify_is_inconclusive(monkeypatch) -> None:
    monkeypatch.setattr(auditing, "certify_nonzero", lambda expr, values, **kw: None)
    row = query_value("silu")
    assert row.verdict.value == "inconclusive"


def test_refutations_name_what_they_exclude() -> None:
    row = query_value("silu")
    assert [r.excludes for r in row.homogeneity.refutations] == [Excludes.ALL_BUT_PINNED, Excludes.PINNED]
    assert [s.title for s in row.steps].count("Refutation") == 2
    assert row.basis.startswith("no degree p works: σ(2)/σ(1) > 0 pins p (2^p = the ratio), but ")


@pytest.mark.parametrize("act", ["relu", "silu", "tanh", "identity", "hardshrink", "sign(z)"])
@pytest.mark.slow
def test_every_broken_row_of_an_audit_is_certified(act: str) -> None:
    assert_broken_rows_certified(audit(act))
