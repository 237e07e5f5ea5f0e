"""Derivations: every step verified; wrong steps caught; the shapes of JSON, text, rich and LaTeX."""
from __future__ import annotations

import json
import time

import pytest
import sympy
from rich.console import Console

from symcheck.core.errors import UnknownNameError
from symcheck.language.layer_formulations import FORMULATIONS, Q_G, D, K, Q, X, elementwise, input_row
from symcheck.language.symbols import SIGMA, A, B
from symcheck.paper import derivations as dv
from symcheck.paper.derivations import DERIVATIONS, Claim, Derivation, checks, derive, gated, sums

from support import quick_few

F = FORMULATIONS
REPRS = ("MatMul(", "HadamardProduct(", "Symbol(", "ElementwiseApplyFunction", "Lambda(", "MatrixSymbol(",
         "KroneckerProduct(", "Transpose(")


def test_the_five_derivations() -> None:
    assert DERIVATIONS == ("absorb", "rank1", "mlp", "gated", "rank-r")


@pytest.mark.parametrize("name", quick_few(DERIVATIONS, {"absorb", "rank1", "mlp", "gated"}))
def test_every_derivation_and_every_step_is_verified(name: str) -> None:
    derivation = derive(name)
    assert derivation.verified, str(derivation)
    for step in derivation.steps:
        assert step.status == "verified" and step.verified, str(derivation)
        statuses = {r.kind[0]: r.status for r in step.checks}  # an every-size check's first method, or explicit
        assert statuses.pop("explicit") == "verified"          # exact expansion at explicit sizes, always
        assert statuses and set(statuses.values()) == {"verified"}  # and a check valid for every size
        assert all(r.detail for r in step.checks)


@pytest.mark.parametrize("name", quick_few(DERIVATIONS, {"absorb", "rank1", "mlp", "gated"}))
def test_every_step_has_a_symbolic_dimension_check(name: str) -> None:
    for step in derive(name).steps:
        assert any(r.status == "verified" and r.kind != ("explicit",) for r in step.checks), str(step)
        assert not any(r.status == "not-applicable" for r in step.checks)


def test_derivations_are_cached_per_process() -> None:
    # speed is measured by benchmarks, never asserted in a test: only the caching is pinned
    derive.cache_clear()
    assert derive("gated") is derive("gated")


def test_gated_moves_sigma_by_definition_and_never_claims_equality_with_rank1() -> None:
    steps = derive("gated").steps
    assert [s.kind for s in steps] == ["identity", "identity", "definition", "identity"]
    assert "σ(a·b)" in steps[0].text and "σ(a)·b" in steps[1].text
    assert "differ unless σ is linear" in steps[3].text
    moved = dv.move_sigma_onto_query(F["rank1"].expression(SIGMA))
    assert moved != F["rank1"].expression(SIGMA)


def test_mlp_spells_out_the_static_factor() -> None:
    steps = derive("mlp").steps
    assert any(s.kind == "definition" and "static" in s.text for s in steps)
    assert "e_{d+1}" in steps[-1].text


# ---- the machinery can fail -------------------------------------------------------------------

WRONG_GATED = Claim(
    "σ((xQᵀ)⊙(xKᵀ))V = (σ(xQᵀ)⊙(xKᵀ))V", r"\sigma(a b) = \sigma(a)\, b", "wrong: σ(a·b) = σ(a)·b",
    symbolic=lambda: (F["rank1"].expression(SIGMA), F["gated"].expression(SIGMA)),
    explicit=lambda sz: (F["rank1"].explicit(SIGMA, sz), F["gated"].explicit(SIGMA, sz)))


def _absorbed_with(keys) -> Claim:
    def explicit(sz):
        p = F["query-mlp"].parameters(sz)
        return F["query-mlp"].explicit(SIGMA, sz), F["mlp"].explicit(SIGMA, sz, K=keys(p["Q_g"], p["K"]))
    return Claim("K' wrong", "K'", "wrong", explicit=explicit,
                 symbolic=lambda: (F["query-mlp"].expression(SIGMA),
                                   F["mlp"].expression(SIGMA).xreplace({K: keys(Q_G, K)})))


def test_sigma_of_a_product_is_not_sigma_times_factor() -> None:
    step = WRONG_GATED.verify()
    assert step.status == "failed" and not step.verified
    kinds = {r.name: r.status for r in step.checks}
    assert kinds["explicit"] == "failed" and kinds["matrix-expression"] == "unknown"
    assert "residual expands to" in step.checks_run


def test_a_wrong_step_makes_the_derivation_not_verified() -> None:
    claims = gated.claims()[:2] + [WRONG_GATED]
    derivation = Derivation.from_claims("broken", "a wrong derivation", "σ(ab) = σ(a)b", claims)
    assert [s.status for s in derivation.steps] == ["verified", "verified", "failed"]
    assert not derivation.verified and derivation.to_dict()["verified"] is False
    assert "not verified" in str(derivation)


def test_absorbing_the_query_on_the_wrong_side_is_caught() -> None:
    swapped = _absorbed_with(lambda G, Kmat: G * Kmat).verify()       # K' = Q_g K: does not even conform
    assert swapped.status == "failed"
    assert any(r.kind == ("matrix-expression",) and r.status == "failed" for r in swapped.checks)
    untransposed = _absorbed_with(lambda G, Kmat: Kmat * G).verify()  # K' = K Q_g: conforms, wrong
    assert untransposed.status == "failed"
    right = _absorbed_with(lambda G, Kmat: Kmat * G.T).verify()
    assert right.status == "verified"


def test_a_symbolic_check_that_does_not_reduce_is_unknown_not_verified() -> None:
    step = Claim("σ(2a) = 2σ(a)", "", "wrong", symbolic=lambda: (SIGMA(2 * A), 2 * SIGMA(A))).verify()
    assert step.status == "unknown" and not step.verified
    step = Claim("σ(a)b = σ(b)a", "", "wrong", symbolic=lambda: (SIGMA(A) * B, SIGMA(B) * A),
                 explicit=lambda sz: (sympy.Matrix([[SIGMA(A) * B]]), sympy.Matrix([[SIGMA(B) * A]])), dims="").verify()
    assert step.status == "failed"


def test_a_step_needs_the_explicit_check_to_be_verified() -> None:
    assert Claim("1 = 1", "1 = 1", "nothing ran").verify().status == "unknown"
    symbolic_only = Claim("Q_gKᵀ = (KQ_gᵀ)ᵀ", "", "", symbolic=lambda: (Q_G * K.T, sympy.Transpose(K * Q_G.T))).verify()
    assert symbolic_only.checks[0].status == "verified" and symbolic_only.status == "unknown"
    assert not Derivation.from_claims("empty", "", "", []).verified


def test_shape_mismatch_at_an_explicit_size_fails() -> None:
    step = Claim("x = xᵀ", "", "wrong", explicit=lambda sz: (input_row(sz.d), input_row(sz.d).T), dims="d").verify()
    assert step.status == "failed" and "shapes differ" in step.checks_run


def test_a_step_that_runs_out_of_time_is_timeout() -> None:
    def slow(sz):
        time.sleep(2)
        return sympy.Matrix([[1]]), sympy.Matrix([[1]])
    step = Claim("slow", "", "", explicit=slow, dims="").verify(timeout=0.2)
    assert step.status == "timeout" and not step.verified


def test_renaming_summation_indices_never_identifies_different_sums() -> None:
    i, j = sympy.symbols("i j", integer=True)
    n = sympy.Symbol("n", integer=True, positive=True)
    x, y = sympy.IndexedBase("x"), sympy.IndexedBase("y")
    u = sympy.MatrixSymbol("u", 1, n)
    same = (sympy.Sum(u[0, i] * u[0, j], (i, 0, n - 1), (j, 0, n - 1)),
            sympy.Sum(sympy.Sum(u[0, j] * u[0, i], (j, 0, n - 1)), (i, 0, n - 1)))
    assert sums.scalars_equal(*same)
    different = (sympy.Sum(u[0, i] * u[0, j], (i, 0, n - 1), (j, 0, n - 1)),   # (Σ u)²
                 sympy.Sum(u[0, j] * u[0, j], (i, 0, n - 1), (j, 0, n - 1)))   # n Σ u²
    assert not sums.scalars_equal(*different)
    assert not sums.scalars_equal(sympy.Sum(u[0, i], (i, 0, n - 1)), sympy.Sum(u[0, i], (i, 0, n - 2)))
    assert not sums.scalars_equal(sympy.Sum(x[i] * y[i], (i, 0, n)), sympy.Sum(x[i] * x[i], (i, 0, n)))


def test_matrix_algebra_sees_through_transposes_and_identities() -> None:
    assert checks._matrix_equal(sympy.Transpose(K * Q_G.T), Q_G * K.T)
    assert checks._matrix_equal(elementwise(SIGMA, X * sympy.Transpose(K * Q_G.T)), elementwise(SIGMA, X * Q_G * K.T))
    assert not checks._matrix_equal(sympy.Transpose(K * Q_G), Q_G * K.T)
    assert not checks._matrix_equal(elementwise(SIGMA, X * Q.T), X * Q.T)
    assert checks._matrix_equal(X * sympy.Identity(D), X)


# ---- results ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", DERIVATIONS)
@pytest.mark.slow
def test_to_dict_has_the_documented_shape(name: str) -> None:
    data = json.loads(json.dumps(derive(name).to_dict()))
    assert {"name", "verified", "steps"} <= set(data) and data["name"] == name and data["verified"] is True
    for step in data["steps"]:
        assert {"latex", "justification", "status"} <= set(step)
        assert step["status"] == "verified" and step["latex"] and step["justification"]
        assert {"kind", "status", "detail"} <= set(step["checks"][0])


@pytest.mark.parametrize("name", DERIVATIONS)
@pytest.mark.slow
def test_latex_has_no_sympy_reprs_and_is_ascii(name: str) -> None:
    derivation = derive(name)
    for text in (derivation.to_latex(), derivation._repr_latex_(), *(s.latex for s in derivation.steps)):
        assert not any(r in text for r in REPRS), text
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
        assert text.count("{") == text.count("}")
    assert derivation._repr_latex_().startswith("$$") and r"\begin{enumerate}" in derivation.to_latex()


@pytest.mark.parametrize("name", quick_few(["rank1", "gated", "rank-r"], {"rank1", "gated"}))
def test_hadamard_products_are_odot(name: str) -> None:
    assert r"\odot" in derive(name).to_latex()
    assert r"\circ" not in derive(name).to_latex()


def test_text_and_rich_renderings() -> None:
    derivation = derive("absorb")
    text = str(derivation)
    assert text.splitlines()[0] == "absorb: A global query is absorbed into the keys — verified"
    assert text.count("[verified]") >= 2 * len(derivation.steps)
    console = Console(record=True, width=140)
    console.print(derivation)
    rendered = console.export_text()
    assert "verified" in rendered and "K' = KQ_gᵀ" in rendered


@pytest.mark.slow
def test_unknown_derivation_suggests_close_names() -> None:
    with pytest.raises(UnknownNameError) as err:
        derive("rank2")
    assert {"rank1", "rank-r"} <= set(err.value.suggestions)
    with pytest.raises(UnknownNameError, match="did you mean 'absorb'"):
        derive("absorbe")
    assert derive("RANK_R").name == "rank-r"


def test_shadowed_indices_are_not_merged_or_reordered() -> None:
    i = sympy.Symbol("i", integer=True)
    u = sympy.MatrixSymbol("u", 1, 5)
    # Σ_{i<2} Σ_{i<3} u_i = 2·(u_0+u_1+u_2) and Σ_{i<3} Σ_{i<2} u_i = 3·(u_0+u_1): different
    left = sympy.Sum(sympy.Sum(u[0, i], (i, 0, 2)), (i, 0, 1))
    right = sympy.Sum(sympy.Sum(u[0, i], (i, 0, 1)), (i, 0, 2))
    assert not sums.scalars_equal(left, right)
    assert left.doit() != right.doit()


def test_a_check_kind_still_equals_its_text() -> None:
    """``CheckRecord.kind`` became a tuple of methods; the text it was before ("explicit",
    "matrix-expression+scalar") is what notebooks compare with, so it must stay equal."""
    from symcheck.paper.derivations.checks import CheckRecord
    both = CheckRecord("matrix-expression+scalar", "verified", "")
    assert both.kind == "matrix-expression+scalar" and both.kind != "matrix-expression"
    assert both.kind == ("matrix-expression", "scalar") and {both.kind: 1}["matrix-expression+scalar"] == 1
    assert CheckRecord("explicit", "verified", "").kind == "explicit"
