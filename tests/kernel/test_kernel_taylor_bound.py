"""``taylor_bound``: the candidates a (of one sign) that the Taylor rows of a ``complete`` claim leave.

Checked against the equations themselves rather than the module's reading of them. Each row
(j, status of d₊ⱼ, status of d₋ⱼ, ε) is instantiated by actual rational coefficients consistent
with what the row says (an unknown status or ε can be anything), and with b = |a| > 0 the
equations σ(a·z) = c·σ(z) give, at every order j:

* a > 0: bʲ·d₊ⱼ = c·d₊ⱼ and bʲ·d₋ⱼ = c·d₋ⱼ;
* a < 0: bʲ·d₋ⱼ = c·d₊ⱼ and bʲ·d₊ⱼ = c·d₋ⱼ;

with c ≠ 0. Soundness: whenever some instantiation solves them at b, the bound either refuses
or keeps a = sign·b (only b = 1 can be kept: the bound lists ±1 or nothing). Precision: a row
that rules out every a < 0 (one side zero, or d₋ⱼ² ≠ d₊ⱼ²) gives no candidate wherever it stands
among the rows, and with every row known the bound is exact."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcheck.kernel.complete import taylor_bound
from symcheck.kernel.verdict import Reject

NONZERO = st.sampled_from([Fraction(1), Fraction(-1), Fraction(2), Fraction(-3, 2), Fraction(5, 7)])
SAMPLE_B = (Fraction(1), Fraction(2), Fraction(1, 3))


def _row_and_values(j: int):
    """One row and one instantiation (d₊, d₋) it describes; unknowns drawn freely."""
    status = st.sampled_from(["zero", "nonzero", None])
    return st.tuples(status, status, st.sampled_from([1, -1, "differ", None]),
                     NONZERO, st.sampled_from([Fraction(0), Fraction(1), Fraction(-1), Fraction(2)]),
                     NONZERO).map(lambda t: _instantiate(j, *t))


def _instantiate(j, sp, sm, eps, dp_value, free, ratio):
    dp = Fraction(0) if sp == "zero" else dp_value if sp == "nonzero" else free
    if sp == sm == "nonzero":
        if eps in (1, -1):
            dm = eps * dp
        elif eps == "differ":
            dm = dp * (ratio if ratio * ratio != 1 else 2)
        else:
            dm = dp * ratio  # ε unknown: ±d₊ or anything else
    else:
        eps = None  # ε is only ever given for two non-zero coefficients
        dm = Fraction(0) if sm == "zero" else ratio if sm == "nonzero" else free
    return (j, sp, sm, eps), (dp, dm)


@st.composite
def rows(draw):
    orders = sorted(draw(st.sets(st.integers(0, 6), min_size=1, max_size=5)))
    pairs = [draw(_row_and_values(j)) for j in orders]
    return [r for r, _ in pairs], [(r[0], *v) for r, v in pairs]


def _solvable(s: int, values, b: Fraction) -> bool:
    """Is there c ≠ 0 with the row equations holding at b (s the sign of a)?"""
    equations = []  # c·coefficient = right-hand side
    for j, dp, dm in values:
        bj = b ** j
        equations += [(dp, bj * dp), (dm, bj * dm)] if s == 1 else [(dp, bj * dm), (dm, bj * dp)]
    c = next((rhs / k for k, rhs in equations if k != 0), Fraction(1))
    return c != 0 and all(k * c == rhs for k, rhs in equations)


def _bound(s, rs):
    try:
        return taylor_bound(s, rs)
    except Reject:
        return None


@settings(max_examples=400, deadline=None)
@given(data=rows(), s=st.sampled_from([1, -1]))
def test_the_bound_keeps_every_solution_it_does_not_refuse(data, s):
    rs, values = data
    kept = _bound(s, rs)
    for b in SAMPLE_B:
        if _solvable(s, values, b) and kept is not None:  # a refusal is always sound
            assert b == 1 and s in kept, (rs, values, b, kept)


def _rules_out_negative(row) -> bool:
    _j, dp, dm, eps = row
    return {dp, dm} == {"zero", "nonzero"} or (dp == dm == "nonzero" and eps == "differ")


@settings(max_examples=400, deadline=None)
@given(data=rows())
def test_a_row_that_rules_out_a_negative_a_gives_no_candidate_wherever_it_stands(data):
    rs, _ = data
    if any(_rules_out_negative(r) for r in rs):
        assert taylor_bound(-1, rs) == []


@settings(max_examples=400, deadline=None)
@given(data=rows(), s=st.sampled_from([1, -1]))
def test_with_every_row_known_the_bound_is_exact(data, s):
    """No unknown status or ε: two laws or two non-zero orders decide; fewer are refused."""
    rs, values = data
    if any(None in r[1:3] or (r[1] == r[2] == "nonzero" and r[3] is None) for r in rs):
        return
    laws = [r[3] for r in rs if r[1] == r[2] == "nonzero" and r[3] in (1, -1)]
    kept = _bound(s, rs)
    if s == 1:
        nonzero_orders = {r[0] for r in rs if "nonzero" in r[1:3]}
        assert kept == ([1] if len(nonzero_orders) >= 2 else None)
    elif any(_rules_out_negative(r) for r in rs):
        assert kept == []
    elif len(laws) < 2:
        assert kept is None
    elif len(laws) == 2:
        assert kept == ([-1] if _solvable(-1, values, Fraction(1)) else [])


@pytest.mark.parametrize("rs, expected", [
    # ε = "differ" at the last of three rows, the first two agreeing laws: no a < 0
    ([(1, "nonzero", "nonzero", 1), (2, "nonzero", "nonzero", 1), (3, "nonzero", "nonzero", "differ")], []),
    ([(1, "nonzero", "nonzero", -1), (3, "nonzero", "nonzero", 1)], []),   # b² = −1
    ([(1, "nonzero", "nonzero", -1), (3, "nonzero", "nonzero", -1)], [-1]),
    ([(0, "zero", "zero", None), (2, "nonzero", "zero", None)], []),       # c·d₊ = 0
])
def test_examples(rs, expected):
    assert taylor_bound(-1, rs) == expected
