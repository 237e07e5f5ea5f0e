"""The two-variable engine: case splits that cover the space, certified witnesses, soundness."""
from __future__ import annotations

import itertools
import json

import pytest
import sympy
from sympy import S

import symcheck as sc
from symcheck.core.budget import Budget
from symcheck.engine import plane, zero
from symcheck.engine.plane import Case, decide_plane, scale_regions, whole_line
from symcheck.engine.symmetries import check
from symcheck.exact.regions import Region
from symcheck.language.symbols import ALPHA, A, B, Z
from symcheck.language.transformations import Transformation, domain

KV_POS = Transformation("key-value-rescaling", domain("positive"))
KV_ANY = Transformation("key-value-rescaling", domain("any"))
KV_NEG = Transformation("key-value-rescaling", domain("negative"))
QV1 = Transformation("query-value-rescaling", domain("positive"))
QV2 = Transformation("query-value-rescaling", domain("positive"), degree=sympy.Integer(2))
PLANE = {A: whole_line(), B: whole_line()}


def by_hand(result: sc.CheckResult, degree: int = 1) -> sympy.Float:
    """left − right at the witness, for the built-in forms, rebuilt by hand at 50 digits."""
    expr = result.activation.expr

    def s(u):
        return expr.subs(Z, u)

    unit = {"gated": lambda a, b: s(a) * b, "rank1": lambda a, b: s(a * b),
            "sigma(a)*sigma(b)": lambda a, b: s(a) * s(b)}[result.form.name]
    w = {k: sympy.Rational(v) for k, v in result.witness.items()}
    a, b = w["a"], w["b"]
    if result.symmetry == "key-value-rescaling":
        lhs = unit(a, w["beta"] * b) / w["beta"]
    elif result.symmetry == "query-value-rescaling":
        lhs = unit(w["alpha"] * a, b) / w["alpha"] ** degree
    elif result.symmetry == "inverse-scaling":
        lhs = unit(w["alpha"] * a, b / w["alpha"])
    else:
        lhs = unit(b, a)
    return (lhs - unit(a, b)).evalf(50)


def assert_broken(result: sc.CheckResult, degree: int = 1) -> None:
    assert result.verdict.value == "broken", str(result)
    value = by_hand(result, degree)
    assert value.is_number and value != 0 and abs(value) > sympy.Float("1e-45"), value


# ------------------------------------------------------------------------------- the rescalings


@pytest.mark.parametrize("act", ["relu", "silu", "relu2", "gelu", "z + 1", "sin", "selu"])
@pytest.mark.parametrize("t", [KV_POS, KV_ANY, KV_NEG], ids=["positive", "any", "negative"])
def test_gated_key_value_rescaling_holds_for_every_sigma(act: str, t: Transformation) -> None:
    result = check(act, t, "gated")
    assert result.verdict.value == "holds" and result.steps[-1].title == "Proof", str(result)


@pytest.mark.parametrize("act, positive, any_", [
    ("relu", "holds", "broken"),
    ("leaky_relu", "holds", "broken"),
    ("abs(z)", "holds", "broken"),
    ("identity", "holds", "holds"),
    ("silu", "broken", "broken"),
    ("relu2", "broken", "broken"),
    ("relu6", "broken", "broken"),
    ("tanh", "broken", "broken"),
])
@pytest.mark.slow
def test_rank1_key_value_rescaling_needs_positive_homogeneity(act: str, positive: str, any_: str) -> None:
    for t, expected in ((KV_POS, positive), (KV_ANY, any_)):
        result = check(act, t, "rank1")
        assert result.verdict.value == expected, str(result)
        if expected == "broken":
            assert_broken(result)
            assert t.domain.contains(result.witness["beta"])


def test_rank1_key_value_proof_splits_on_signs() -> None:
    result = check("relu", KV_POS, "rank1")
    cases = [s for s in result.steps if s.title.startswith("Case")]
    assert {"Case a < 0, b < 0, β > 0", "Case a = 0, b ∈ R, β > 0", "Case a > 0, b > 0, β > 0"} \
        <= {c.title for c in cases}
    assert all(c.status == "verified" for c in cases) and result.steps[-1].title == "Cover"
    assert [s.title for s in result.steps[:2]] == ["Statement", "Difference"]


@pytest.mark.parametrize("act, t, expected", [
    ("relu", QV1, "holds"),
    ("leaky_relu", QV1, "holds"),
    ("relu2", QV2, "holds"),
    ("relu2", QV1, "broken"),
    ("relu", QV2, "broken"),
    ("silu", QV1, "broken"),
    ("gelu", QV1, "broken"),
    ("z + z**3/10**15", QV1, "broken"),
])
def test_gated_query_value_rescaling_detects_the_degree(act: str, t: Transformation, expected: str) -> None:
    result = check(act, t, "gated")
    assert result.verdict.value == expected, str(result)
    if expected == "broken":
        assert_broken(result, int(t.degree))
        assert result.witness["alpha"] > 0


def test_rank1_query_value_rescaling() -> None:
    assert check("relu", QV1, "rank1").verdict.value == "holds"
    assert_broken(check("silu", QV1, "rank1"))


# ------------------------------------------------------------------------------- decide_plane


def test_decide_plane_proves_an_abs_identity_by_cases() -> None:
    decision = decide_plane(sympy.Abs(A) * sympy.Abs(B), sympy.Abs(A * B), PLANE, Budget(20))
    assert decision.verdict.value == "holds"
    assert len(decision.cases) > 1 and all(c.status == "proved" for c in decision.cases)


def test_decide_plane_witness_is_exact_and_certified() -> None:
    decision = decide_plane(sympy.Max(A, B), A, PLANE, Budget(20))
    assert decision.verdict.value == "broken"
    point = decision.witness
    assert all(v.is_Rational for v in point.values())
    assert sympy.Max(point[A], point[B]) != point[A]
    assert decision.certificate is not None


def _inside(region: Region, x: sympy.Rational) -> bool:
    if region.is_point:
        return x == region.lower
    return (region.lower == -S.Infinity or x > region.lower) and (region.upper == S.Infinity or x < region.upper)


@pytest.mark.parametrize("act, t", [
    ("hardtanh", Transformation("inverse-scaling", domain(-1))),
    ("relu", Transformation("inverse-scaling", domain("positive"))),
    ("softshrink", Transformation("inverse-scaling", domain(-1))),
    ("abs(z)", Transformation("inverse-scaling", domain("any"))),
])
def test_the_cases_partition_the_space(act: str, t: Transformation) -> None:
    """Every point, including the cut points themselves, lies in exactly one case."""
    sigma = sc.activation(act)
    lhs, rhs = t.statement(lambda s, a, b: s(a) * s(b), sigma)
    space = {A: whole_line(), B: whole_line(), ALPHA: scale_regions(t.domain.name, t.domain.value)}
    decision = decide_plane(lhs, rhs, space, Budget(30))
    assert decision.verdict.value == "holds"
    values = [sympy.Rational(v) for v in ("-3", "-1", "-1/2", "-1/4", "0", "1/4", "1/2", "1", "3")]
    alphas = [v for v in values + [sympy.Integer(-1)] if t.domain.contains(v)]
    for a, b, alpha in itertools.product(values, values, alphas):
        point = {A: a, B: b, ALPHA: alpha}
        holders = [c for c in decision.cases
                   if all(_inside(r, point[v]) for v, r in c.case.regions)]
        assert len(holders) == 1, (point, [c.case.describe() for c in holders])


def test_case_substitution_is_a_bijection_onto_each_piece() -> None:
    case = Case(((A, Region(S.One, S(3))), (B, Region(-S.Infinity, S(-2))), (ALPHA, Region(S.Zero, S.Infinity))))
    subs = case.substitution()
    p, q, r = (sympy.Symbol(n, positive=True) for n in "pqr")
    assert subs == {A: (1 + 3 * p) / (1 + p), B: -2 - q, ALPHA: r}
    assert sympy.limit(subs[A], p, 0) == 1 and sympy.limit(subs[A], p, sympy.oo) == 3
    assert sympy.factor(sympy.diff(subs[A], p)).is_positive


def test_two_variable_conditions_are_inconclusive_not_guessed() -> None:
    # hardtanh is odd, so σ(−ab)·a/(−1) = σ(ab)·a is true, but deciding ab < 1 needs a cut along
    # a curve, and D depends on a beyond a·b: the split must say so rather than guess.
    result = check("hardtanh", Transformation("key-value-rescaling", domain(-1)), "sigma(a*b)*a")
    assert result.verdict.value == "inconclusive", str(result)
    assert "cannot decide the sign of" in result.note
    assert result.witness is None


def test_a_statement_in_the_product_ab_alone_is_decided_through_u() -> None:
    """rank-1 key-value rescaling with β = −1 needs the sign of a·b − 1 (a curve in the plane):
    it was inconclusive before D was rewritten in u = a·b, where that is a cut at u = 1."""
    result = check("hardtanh", Transformation("key-value-rescaling", domain(-1)), "rank1")
    # the certificate states the change of variables u = a·b too, and the kernel accepts it
    assert result.verdict.value == "holds", str(result)
    assert result.kernel is not None and result.kernel.accepted
    assert "change" in json.dumps(result.certificate)
    titles = [step.title for step in result.steps]
    assert "Change of variables" in titles and titles[-1] == "Cover"
    cases = [t for t in titles if t.startswith("Case")]
    assert "Case -1 < u < 1, β = -1" in cases and "Case a = 0, b ∈ R, β = -1" in cases
    assert result.cross_check is None or result.cross_check.agrees is not False


def test_the_product_route_certifies_its_witness_on_d_itself() -> None:
    lhs, rhs = sympy.Min(1, sympy.Max(-1, A * B)), sympy.Min(2, sympy.Max(-2, A * B))
    space = {A: whole_line(), B: whole_line()}
    budget = Budget(30)
    decision = plane._through_product(lhs, rhs, space, budget, plane._Searcher(lhs - rhs, space, budget))
    assert decision.verdict.value == "broken" and decision.witness[A] == 1
    assert abs(decision.witness[B]) > 1 and decision.certificate is not None
    assert (lhs - rhs).subs(decision.witness) != 0


@pytest.mark.parametrize("lhs", [
    sympy.Min(1, sympy.Max(-1, A * B)) * A,          # a occurs beyond a·b
    sympy.Min(1, sympy.Max(-1, A * B + B)),          # so does b
    sympy.Min(1, sympy.Max(-1, A * B)) * sympy.sign(A) ** 2,   # = σ(ab) for a ≠ 0, but not as written
])
def test_no_change_of_variables_unless_d_is_a_function_of_ab_as_written(lhs) -> None:
    space = {A: whole_line(), B: whole_line()}
    budget = Budget(30)
    rhs = sympy.Min(1, sympy.Max(-1, A * B))
    assert plane._through_product(lhs, rhs, space, budget, plane._Searcher(lhs - rhs, space, budget)) is None


# ------------------------------------------------------------------------------- soundness


IDENTITIES = [
    ("z*(sin(z)**2 + cos(z)**2)", Transformation("exchange"), "a*sigma(b)"),
    ("z*cosh(z)**2 - z*sinh(z)**2", Transformation("inverse-scaling", domain("any")), "sigma(a)*b"),
    ("Abs(z)*(sin(z)**2 + cos(z)**2)", Transformation("inverse-scaling", domain("positive")),
     "sigma(a)*sigma(b)"),
    ("z*(sin(z)**2 + cos(z)**2)", KV_ANY, "rank1"),
]


@pytest.mark.parametrize("act, t, unit", IDENTITIES)
@pytest.mark.slow
def test_without_the_rewrites_true_identities_are_inconclusive(monkeypatch, act, t, unit) -> None:
    assert check(act, t, unit).verdict.value == "holds"
    monkeypatch.setattr(zero, "_METHODS", ())
    result = check(act, t, unit)
    assert result.verdict.value == "inconclusive", str(result)
    assert result.witness is None


@pytest.mark.parametrize("act, t, unit", [
    ("silu", Transformation("exchange"), "a*sigma(b)"),
    ("relu2", KV_POS, "rank1"),
    ("z + z**3/10**15", QV1, "gated"),
])
@pytest.mark.slow
def test_without_a_certificate_nothing_is_broken(monkeypatch, act, t, unit) -> None:
    from symcheck.engine import fallback
    # every certifier the plane path can reach: its own search and the numeric fallback
    monkeypatch.setattr(plane, "certify_nonzero", lambda *args, **kwargs: None)
    monkeypatch.setattr(fallback, "certify_nonzero", lambda *args, **kwargs: None)
    result = check(act, t, unit)
    assert result.verdict.value == "inconclusive", str(result)


def test_a_certificate_the_recheck_disagrees_with_is_not_a_witness(monkeypatch) -> None:
    from symcheck.engine import symmetries
    real = symmetries.certify_nonzero

    def flipped(expr, values, **kwargs):
        c = real(expr, values, **kwargs)
        return None if c is None else type(c)(c.value, c.exact, c.lower, c.upper, c.prec, -c.sign)

    monkeypatch.setattr(symmetries, "certify_nonzero", flipped)
    result = check("silu", Transformation("exchange"), "a*sigma(b)")
    assert result.verdict.value == "inconclusive"


@pytest.mark.parametrize("unit, t", [
    ("a*sigma(b)", Transformation("exchange")),
    ("sigma(a)*sigma(b)", Transformation("inverse-scaling", domain("positive"))),
    ("sigma(a)*sigma(b)", Transformation("inverse-scaling", domain("any"))),
    ("rank1", KV_ANY),
    ("gated", QV1),
])
def test_a_perturbation_float64_cannot_see_is_caught(unit: str, t: Transformation) -> None:
    assert check("z", t, unit).verdict.value == "holds"
    result = check("z + z**3/10**15", t, unit)
    assert result.verdict.value == "broken", str(result)
    w = {k: sympy.Rational(v) for k, v in result.witness.items()}

    def s(u):
        return u + u**3 / sympy.Integer(10) ** 15

    a, b = w["a"], w["b"]
    lhs = {"a*sigma(b)": lambda: b * s(a),
           "sigma(a)*sigma(b)": lambda: s(w.get("alpha", 1) * a) * s(b / w.get("alpha", 1)),
           "rank1": lambda: s(a * w.get("beta", 1) * b) / w.get("beta", 1),
           "gated": lambda: s(w.get("alpha", 1) * a) * b / w.get("alpha", 1)}[unit]()
    rhs = {"a*sigma(b)": a * s(b), "sigma(a)*sigma(b)": s(a) * s(b), "rank1": s(a * b), "gated": s(a) * b}[unit]
    assert lhs - rhs != 0 and (lhs - rhs).is_Rational   # exact arithmetic, no tolerance


def test_the_budget_makes_a_check_inconclusive_never_a_verdict() -> None:
    result = check("Piecewise((2*z, z > 0), (z/2, True))", Transformation("inverse-scaling", domain(-1)),
                   "sigma(a)*sigma(b)", timeout=0.001)
    assert result.verdict.value == "inconclusive"


def test_a_slow_split_is_stopped_by_the_budget() -> None:
    """The split (seconds of work) returns when its 0.3 s budget ends, saying so; no wall-clock
    threshold here: a budget that did not stop it would leave the test running (CI's limit)."""
    result = check("z*(sin(z)**2 + cos(z)**2)", Transformation("inverse-scaling", domain("any")),
                   "sigma(a)*sigma(b) + sigma(a + b)", timeout=0.3)
    assert result.verdict.value == "holds" or (
        result.verdict.value == "inconclusive" and "time budget" in result.note), (result.verdict, result.note)


def test_a_difference_the_grid_misses_is_found_inside_a_case() -> None:
    # σ differs from the identity only on (1/3, 1/2), where no grid value lies: the split cuts
    # there, the proof fails on that case, and a point inside it is certified.
    bump = "Piecewise((z, z <= 1/3), (z, z >= 1/2), (z + (z - 1/3)*(1/2 - z), True))"
    result = check(bump, Transformation("exchange"), "a*sigma(b)")
    assert result.verdict.value == "broken", str(result)
    witness = result.steps[[s.title for s in result.steps].index("Witness")]
    assert "found on points of the case" in witness.justification
    w = {k: sympy.Rational(v) for k, v in result.witness.items()}
    s = sc.activation(bump)
    assert (w["b"] * s(w["a"]) - w["a"] * s(w["b"])).evalf(50) != 0
    assert any(sympy.Rational(1, 3) < v < sympy.Rational(1, 2) for v in w.values())
