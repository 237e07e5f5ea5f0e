"""No derivation step is verified beyond what was checked: every step needs a check valid for every size.

The explicit check expands both sides at d, m, r ≤ 3; a builder that goes wrong only at larger sizes
(drops the rank terms s ≥ 4, or unit 4, or swaps two rank columns from the fourth on) passes it. Such
a mutant must leave the derivation *not* verified, because the check for every size reads the same
builder with symbolic sizes.
"""
from __future__ import annotations

import dataclasses

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.matrices.expressions.matexpr import MatrixElement

from symcheck.language.layer_formulations import (
    FORMULATIONS,
    KU,
    QU,
    SYMBOLIC,
    Formulation,
    Sizes,
    V,
    X,
    input_row,
    unroll,
)
from symcheck.language.symbols import SIGMA
from symcheck.paper.derivations import (
    DERIVATIONS,
    EXPLICIT_ONLY,
    CheckRecord,
    Claim,
    Derivation,
    catalogue,
    checks,
    derive,
    steps,
    sums,
)

i, t, j, s = sympy.symbols("i t j s", integer=True)


# ---- builders written out here, and their mutants ------------------------------------------------

def _rank_r_entry(rank_hi=lambda n: n.r - 1, key_column=lambda s_: s_):
    """Σ_j σ(Σ_s (x·q_{js})(x·k_{js})) v_j, with the rank range and the key's column as parameters."""
    def entry(sigma, n, l):
        a = sympy.Sum(X[0, i] * QU[j, i, s], (i, 0, n.d - 1))
        b = sympy.Sum(X[0, t] * KU[j, t, key_column(s)], (t, 0, n.d - 1))
        return sympy.Sum(sigma(sympy.Sum(a * b, (s, 0, rank_hi(n)))) * V[j, l], (j, 0, n.m - 1))
    return entry


def _bilinear_entry(units_hi=lambda n: n.m - 1):
    """Σ_j σ(Σ_{i,t} x_i (Σ_s Q_{j,i,s} K_{j,t,s}) x_t) v_j, with the unit range as a parameter."""
    def entry(sigma, n, l):
        form = sympy.Sum(X[0, i] * X[0, t] * QU[j, i, s] * KU[j, t, s], (s, 0, n.r - 1), (t, 0, n.d - 1),
                         (i, 0, n.d - 1))
        return sympy.Sum(sigma(form) * V[j, l], (j, 0, units_hi(n)))
    return entry


#: name -> (formulation replaced, its mutant builder)
MUTANTS = {
    "rank terms s ≥ 4 dropped": ("rank-r", _rank_r_entry(rank_hi=lambda n: sympy.Min(n.r, 3) - 1)),
    "unit 4 dropped": ("bilinear", _bilinear_entry(units_hi=lambda n: sympy.Min(n.m, 3) - 1)),
    # columns s = 3, 4 (0-based) trade places: s + δ(s, 3) − δ(s, 4)
    "key columns 4 and 5 swapped": ("rank-r", _rank_r_entry(
        key_column=lambda s_: s_ + sympy.KroneckerDelta(s_, 3) - sympy.KroneckerDelta(s_, 4))),
}
#: the derivations whose steps read each formulation's builder
READERS = {"rank-r": ("rank-r",), "bilinear": ("rank1", "mlp", "rank-r")}


def _replaced(name: str, entry) -> Formulation:
    f = FORMULATIONS[name]
    return dataclasses.replace(f, encoding=dataclasses.replace(f.encoding, entry=entry))


def _derive_with(monkeypatch: pytest.MonkeyPatch, derivation: str, formulation: str, entry) -> Derivation:
    """Check a derivation from scratch (no cache) with one formulation's builder replaced."""
    monkeypatch.setitem(FORMULATIONS, formulation, _replaced(formulation, entry))
    title, statement, statement_latex, claims = catalogue._CATALOGUE[derivation]
    return Derivation.from_claims(derivation, title, statement, claims(), statement_latex)


@pytest.mark.parametrize("formulation, entry", [("rank-r", _rank_r_entry()), ("bilinear", _bilinear_entry())],
                         ids=["rank-r", "bilinear"])
@pytest.mark.slow
def test_the_builders_written_out_here_are_the_library_s(monkeypatch, formulation: str, entry) -> None:
    """The control: unmutated, these copies derive verified, so a mutant differs by its mutation only."""
    for sz in (Sizes(2, 2, 1, 2), Sizes(1, 3, 2, 1)):
        ours = sympy.Matrix(1, sz.e, lambda _, l, sz=sz: unroll(entry(SIGMA, sz, l)))
        library = sympy.Matrix(1, sz.e, lambda _, l, sz=sz: unroll(FORMULATIONS[formulation].entry(SIGMA, sz, l)))
        assert (ours - library).applyfunc(sympy.expand).is_zero_matrix
    for derivation in READERS[formulation]:
        assert _derive_with(monkeypatch, derivation, formulation, entry).verified


@pytest.mark.parametrize("mutation", list(MUTANTS))
@pytest.mark.slow
def test_a_builder_wrong_only_beyond_the_explicit_sizes_is_not_verified(monkeypatch, mutation: str) -> None:
    formulation, mutant = MUTANTS[mutation]
    for name in READERS[formulation]:
        derivation = _derive_with(monkeypatch, name, formulation, mutant)
        assert not derivation.verified, (mutation, str(derivation))
        caught = [step for step in derivation.steps if not step.verified]
        for step in caught:
            records = {r.kind[0]: r for r in step.checks}
            assert records["explicit"].status == "verified"   # invisible at d, m, r ≤ 3 ...
            every_size = [r for r in step.checks if r.kind != ("explicit",)]
            assert every_size and all(r.status == "unknown" for r in every_size)  # ... but not proved
            assert step.status == "unknown"
        monkeypatch.undo()


def test_the_mutants_really_differ_at_larger_sizes() -> None:
    """Each mutant is a wrong builder: at sizes beyond the explicit grid it gives another layer."""
    sz = Sizes(1, 4, 1, 5)
    for mutation, (formulation, mutant) in MUTANTS.items():
        right = unroll(FORMULATIONS[formulation].entry(SIGMA, sz, 0))
        wrong = unroll(mutant(SIGMA, sz, 0))
        assert sympy.expand(right - wrong) != 0, mutation
        small = Sizes(3, 3, 1, 3)
        assert sympy.expand(unroll(FORMULATIONS[formulation].entry(SIGMA, small, 0))
                            - unroll(mutant(SIGMA, small, 0))) == 0, mutation


# ---- every step of every derivation: a check for every size passed -------------------------------

@pytest.mark.parametrize("name", DERIVATIONS)
@pytest.mark.slow
def test_every_verified_step_passed_a_check_valid_for_every_size(name: str) -> None:
    for step in derive(name).steps:
        assert step.verified
        every_size = [r for r in step.checks if r.kind != ("explicit",)]
        assert every_size and all(r.status == "verified" for r in every_size), str(step)
        assert not any(r.status == "not-applicable" for r in step.checks)


@pytest.mark.parametrize("name, number", [("rank1", 4), ("rank-r", 4)])
@pytest.mark.slow
def test_the_per_unit_steps_are_proved_for_symbolic_sizes(name: str, number: int) -> None:
    step = derive(name).steps[number - 1]
    kinds = {kind: r for r in step.checks for kind in r.kind}  # a record may name several methods
    assert kinds["generic-entry"].status == "verified"
    assert "for every size" in kinds["generic-entry"].detail


# ---- the status of a step: a truth table ---------------------------------------------------------

V_, F_, U_, T_, N_ = "verified", "failed", "unknown", "timeout", "not-applicable"


@pytest.mark.parametrize("every_size, explicit, expected", [
    (V_, V_, "verified"),
    (N_, V_, EXPLICIT_ONLY),
    (None, V_, EXPLICIT_ONLY),
    (U_, V_, "unknown"),
    (V_, F_, "failed"),
    (F_, V_, "failed"),
    (V_, None, "unknown"),
    (N_, None, "unknown"),
    (T_, V_, "timeout"),
    (U_, F_, "failed"),
])
def test_status_truth_table(every_size: str | None, explicit: str | None, expected: str) -> None:
    records = []
    if every_size is not None:
        records.append(CheckRecord("generic-entry", every_size, "…"))
    if explicit is not None:
        records.append(CheckRecord("explicit", explicit, "…"))
    assert steps._status(records) == expected


def test_a_budget_record_is_not_a_check_for_every_size() -> None:
    records = [CheckRecord("budget", "verified", "…"), CheckRecord("explicit", "verified", "…")]
    assert steps._status(records) == EXPLICIT_ONLY


def test_a_step_checked_only_at_explicit_sizes_is_explicit_only_and_blocks_the_derivation() -> None:
    only_small = Claim("x·x = Σ x_i²", "", "checked at small sizes only",
                       explicit=lambda sz: (input_row(sz.d) * input_row(sz.d).T,
                                            sympy.Matrix([[sum(v**2 for v in input_row(sz.d))]])),
                       dims="d", no_symbolic="a test of the status")
    step = only_small.verify()
    assert step.status == EXPLICIT_ONLY and not step.verified
    assert step.checks[0].status == "not-applicable"
    assert step.checks[0].detail == "no check for every size: a test of the status"
    derivation = Derivation.from_claims("small", "only small sizes", "x·x = Σ x_i²", [only_small])
    assert not derivation.verified and derivation.status == "not verified"
    assert derivation.to_dict()["steps"][0]["status"] == EXPLICIT_ONLY
    assert "[explicit-only]" in str(derivation)
    latex = derivation.to_latex()
    assert "explicit-only" in latex and r"\blacksquare" not in latex
    assert "explicit sizes only" in latex


# ---- the normal form of finite sums: sound rewrites only -----------------------------------------

n = sympy.Symbol("n", integer=True, positive=True)
k = sympy.Symbol("k", integer=True, positive=True)
u, w = sympy.IndexedBase("u"), sympy.IndexedBase("w")
a, b, c = sympy.symbols("a b c", integer=True)


@pytest.mark.parametrize("lhs, rhs", [
    (sympy.Sum(u[a], (a, 0, n - 1)) * sympy.Sum(w[b], (b, 0, n - 1)),
     sympy.Sum(u[a] * w[b], (b, 0, n - 1), (a, 0, n - 1))),
    (sympy.Sum(u[a] + w[a], (a, 0, n - 1)), sympy.Sum(u[b], (b, 0, n - 1)) + sympy.Sum(w[a], (a, 0, n - 1))),
    (sympy.Sum(u[sympy.floor(c / k)] * w[sympy.Mod(c, k)] * sympy.KroneckerDelta(sympy.floor(c / k), a, (0, n - 1)),
               (c, 0, n * k - 1), (a, 0, n - 1)),
     sympy.Sum(u[a], (a, 0, n - 1)) * sympy.Sum(w[b], (b, 0, k - 1))),
    (sympy.Sum(u[sympy.floor(c / k), sympy.Mod(c, k)], (c, 0, n * k - 1)),
     sympy.Sum(u[a, b], (b, 0, k - 1), (a, 0, n - 1))),
    (sympy.Sum(u[a] * sympy.KroneckerDelta(a, b), (a, 0, n - 1), (b, 0, n - 1)), sympy.Sum(u[b], (b, 0, n - 1))),
    (sympy.Sum(u[a], (a, 0, 0)), u[0]),
], ids=["product of sums", "linearity", "block index, delta", "block index", "delta", "one term"])
def test_sums_that_are_equal_are_shown_equal(lhs, rhs) -> None:
    assert sums.scalars_equal(lhs, rhs)


@pytest.mark.parametrize("lhs, rhs", [
    (sympy.Sum(u[a], (a, 0, n - 1)), sympy.Sum(u[a], (a, 0, sympy.Min(n, 3) - 1))),
    (sympy.Sum(u[a] * w[a], (a, 0, n - 1)), sympy.Sum(u[a] * w[b], (a, 0, n - 1), (b, 0, n - 1))),
    (sympy.Sum(u[sympy.floor(c / k), sympy.Mod(c, k)], (c, 0, n * k - 1)),
     sympy.Sum(u[b, a], (b, 0, k - 1), (a, 0, n - 1))),
    # δ(a, b) with b ranging wider than a: the delta cannot be applied, and the sums differ
    (sympy.Sum(u[a] * sympy.KroneckerDelta(a, b), (a, 0, n - 1), (b, 0, n)), sympy.Sum(u[b], (b, 0, n))),
    # floor(c/k) with c beyond [0, k): not 0
    (sympy.Sum(u[sympy.floor(c / k)], (c, 0, 2 * k - 1)), sympy.Sum(u[0], (c, 0, 2 * k - 1))),
    (sympy.Sum(u[a], (a, 0, 1)), u[0]),
], ids=["fewer terms", "diagonal vs all pairs", "block index swapped", "delta out of range", "floor beyond",
        "two terms vs one"])
def test_sums_that_differ_are_never_shown_equal(lhs, rhs) -> None:
    assert not sums.scalars_equal(lhs, rhs)


ENTRIES = {name: FORMULATIONS[name] for name in ("mlp", "query-mlp", "bilinear", "rank-r", "rank1", "gated")}


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(ENTRIES)), which=st.sampled_from(["builder", "expression"]),
       d=st.integers(1, 3), m=st.integers(1, 3), r=st.integers(1, 3))
@pytest.mark.slow
def test_the_normal_form_keeps_the_value_at_every_concrete_size(name: str, which: str, d: int, m: int, r: int) -> None:
    """Rewriting to the normal form, then fixing the sizes, gives the same explicit entry."""
    f = ENTRIES[name]
    entry = f.entry(SIGMA) if which == "builder" else checks._expression_entry(f)
    sizes = {SYMBOLIC.d: d, SYMBOLIC.m: m, SYMBOLIC.r: r}
    original = _shapeless(unroll(entry.subs(sizes)))
    normal = _shapeless(unroll(sums._sum_normal(entry).subs(sizes)))
    assert sympy.expand(original - normal) == 0


def _shapeless(expr: sympy.Expr) -> sympy.Expr:
    """Matrix entries as plain indexed names, so x[0, 0] of a 1×d and of a 1×1 x are the same."""
    return expr.replace(lambda e: isinstance(e, MatrixElement),
                        lambda e: sympy.IndexedBase(e.args[0].name)[e.args[1], e.args[2]])

