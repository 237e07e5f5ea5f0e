"""The decision on every homogeneity degree p: pins, the arguments that exclude every p, and
generated activations whose set of working p the test computes itself."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import symcheck.engine.homogeneity as homogeneity
from symcheck.core.errors import EvaluationError
from symcheck.engine.homogeneity import (
    Conflict,
    Excludes,
    OppositeSigns,
    Pinned,
    Unsettled,
    Vanishing,
    ZeroAndNonzero,
    homogeneity_degree,
)
from symcheck.language.activations import activation

R = sympy.Rational


@pytest.mark.parametrize("act, kind, p, trusted", [
    ("relu", Pinned, 1, True),
    ("relu2", Pinned, 2, True),
    ("identity", Pinned, 1, True),
    ("z**3", Pinned, 3, True),
    ("leaky_relu", Pinned, 1, True),
    # degree 0: σ(αz) = σ(z); a point value at 0 pins it through σ(0) = α^p·σ(0)
    ("Piecewise((1, Eq(z, 0)), (0, True))", Pinned, 0, True),
    ("sign(z)", Pinned, 0, True),
    ("Heaviside(z)", Pinned, 0, True),
    # 2^(3/2) is irrational and Abs is a branch SymPy decides: named, but not trusted
    ("Abs(z)**1.5", Pinned, R(3, 2), False),
    ("Min(z, 0)*(Min(z, 0) + 3/2)", OppositeSigns, None, None),
    ("sin", OppositeSigns, None, None),
    ("hardshrink", ZeroAndNonzero, None, None),
    ("Piecewise((1, Eq(z, 1)), (0, True))", ZeroAndNonzero, None, None),
    ("silu", Conflict, None, False),   # the conflict needs no name for the pinned p
    ("exp(z)", Conflict, None, True),       # σ(0) ≠ 0 pins p = 0, σ(2) ≠ σ(1) refutes it
    ("hardtanh", Conflict, None, True),
    ("0*z", Vanishing, None, None),
])
def test_decisions(act: str, kind: type, p, trusted) -> None:
    decision = homogeneity_degree(activation(act))
    assert type(decision.argument) is kind, str(decision)
    assert decision.p == p
    if trusted is not None:
        assert decision.pin.trusted is trusted
    assert decision.excludes_every_p is (kind in (OppositeSigns, ZeroAndNonzero, Conflict))


def test_the_pinned_degree_of_a_point_value_at_zero_is_zero() -> None:
    decision = homogeneity_degree(activation("Piecewise((1, Eq(z, 0)), (0, True))"))
    assert decision.pin.z == 0 and decision.p == 0
    assert [(r.z, r.excludes) for r in decision.refutations] == [(0, Excludes.ALL_BUT_PINNED)]
    assert str(decision) == "σ(0) ≠ 0 pins p = 0 (σ(0) = α^p·σ(0)); every other sample agrees"


def test_the_issue_example_is_refuted_on_the_negative_side() -> None:
    # σ(1) = σ(2) = 0 pin nothing; σ(−1) = −1/2 and σ(−2) = 1 have opposite signs
    decision = homogeneity_degree(activation("Min(z,0)*(Min(z,0)+3/2)"))
    assert decision.argument == OppositeSigns(R(-1))
    assert str(decision) == "σ(-1) and σ(-2) have opposite signs, 2^p > 0"
    signs = {s.z: s.sign for s in decision.samples}
    assert (signs[1], signs[2], signs[-1], signs[-2]) == (0, 0, -1, 1)


def test_extra_points_find_a_value_the_grid_misses() -> None:
    sigma = activation("Piecewise((1, Eq(z, 5/3)), (0, True))")
    assert isinstance(homogeneity_degree(sigma).argument, Vanishing)
    again = homogeneity_degree(sigma, [R(5, 3)])
    assert again.argument == ZeroAndNonzero(R(5, 3), R(10, 3))   # σ(5/3) = 1, σ(10/3) = 0


def test_nothing_certified_means_undecided(monkeypatch) -> None:
    # an uncertifiable value must be neither a zero nor a pin
    monkeypatch.setattr(homogeneity, "certify_nonzero", lambda expr, values, **kw: None)

    def refuse(expr, values, prec):
        raise EvaluationError("undecided")
    monkeypatch.setattr(homogeneity, "enclose", refuse)
    decision = homogeneity_degree(activation("relu"))
    assert isinstance(decision.argument, Unsettled)
    assert decision.p is None and not decision.excludes_every_p and decision.refutations == ()


def test_an_enclosure_that_only_contains_zero_is_not_a_zero(monkeypatch) -> None:
    # [−ε, ε] contains 0 without proving it: only the point interval [0, 0] counts
    monkeypatch.setattr(homogeneity, "enclose", lambda expr, values, prec: mpmath.iv.mpf([-1e-30, 1e-30]))
    sigma = activation("Min(z,0)*(Min(z,0)+3/2)")
    signs = {s.z: s.sign for s in homogeneity_degree(sigma).samples}
    assert signs[1] is None and signs[2] is None


# --- generated activations: the test knows which p work ---------------------------------------

def _power(cp: Fraction, cm: Fraction, p: Fraction, s0: Fraction) -> str:
    """σ = cp·z^p on z > 0, cm·(−z)^p on z < 0, s0 at 0."""
    return (f"Piecewise(({cp}*z**({p}), z > 0), ({cm}*(-z)**({p}), z < 0), ({s0}, True))")


def _working_degrees(cp, cm, p, s0) -> set | None:
    """The p with σ(αz) = α^p σ(z) for all α > 0, z: None stands for every real p."""
    at_zero = None if s0 == 0 else {Fraction(0)}       # σ(0) = α^q σ(0)
    elsewhere = None if cp == cm == 0 else {p}          # c·α^p|z|^p = α^q·c|z|^p
    if at_zero is None:
        return elsewhere
    return at_zero if elsewhere is None else at_zero & elsewhere


def _consistent(decision, truth: set | None) -> None:
    """What each argument claims: "no p" only when none works, "only p₀" never excluding a good p."""
    if decision.excludes_every_p:
        assert truth == set(), str(decision)
    if isinstance(decision.argument, Pinned):  # a pin needs σ ≠ 0 somewhere: not every p works
        assert truth is not None and truth <= {Fraction(str(decision.p))}, str(decision)


PS = [Fraction(0), Fraction(1), Fraction(2), Fraction(1, 2), Fraction(3, 2), Fraction(-1)]
COEFFICIENTS = [(Fraction(1), Fraction(1)), (Fraction(3, 2), Fraction(-2)), (Fraction(0), Fraction(5)),
                (Fraction(0), Fraction(0))]


@pytest.mark.parametrize("p", PS, ids=str)
@pytest.mark.parametrize("cp, cm", COEFFICIENTS, ids=str)
@pytest.mark.parametrize("s0", [Fraction(0), Fraction(1)], ids=str)
def test_truth_table_of_powers(p, cp, cm, s0) -> None:
    decision = homogeneity_degree(activation(_power(cp, cm, p, s0)))
    truth = _working_degrees(cp, cm, p, s0)
    _consistent(decision, truth)
    # every value here is rational or a power of a rational: the decision is never left open
    assert not isinstance(decision.argument, Unsettled), str(decision)
    if truth == set():
        assert decision.excludes_every_p
    elif truth is None:
        assert isinstance(decision.argument, Vanishing)
    else:
        assert decision.p == sympy.Rational(*next(iter(truth)).as_integer_ratio())


def test_samples_agree_with_an_independent_evaluation() -> None:
    # each certified sign is re-checked with SymPy's evalf at 30 digits (plain arithmetic here)
    for act in ("silu", "tanh", "Min(z,0)*(Min(z,0)+3/2)", "exp(z) - 2"):
        sigma = activation(act)
        for s in homogeneity_degree(sigma).samples:
            if s.sign in (1, -1):
                value = sigma(s.z).evalf(30)
                assert (value > 0) == (s.sign > 0), (act, s)


rationals = st.fractions(min_value=-3, max_value=3, max_denominator=4)


@settings(max_examples=30, deadline=None)
@given(cp=rationals, cm=rationals, s0=st.sampled_from([Fraction(0), Fraction(1), Fraction(-2)]),
       p=st.sampled_from(PS), bump=st.one_of(st.none(), st.fractions(min_value=-4, max_value=4,
                                                                     max_denominator=6)))
def test_the_decision_never_contradicts_the_truth(cp, cm, s0, p, bump) -> None:
    text = _power(cp, cm, p, s0)
    truth = _working_degrees(cp, cm, p, s0)
    if bump is not None and bump != 0:
        # one extra point value: σ(bump) moves by 1, so the family no longer scales there
        text = f"{text} + Piecewise((1, Eq(z, {bump})), (0, True))"
        truth = set()
    _consistent(homogeneity_degree(activation(text)), truth)
