"""The proved isolated pairs (a, c) of a group are shown under one formula for c when one fits
(c = a for every pair, or one constant c for every pair), else those with c = a together and the
rest one by one. Every pair is kept, each under a formula that gives its own c — a formula read
off the wrong pair would show a c the proof never established."""
from __future__ import annotations

import sympy
from hypothesis import given
from hypothesis import strategies as st

from symcheck.engine.group.assemble import _finite_groups
from symcheck.language.symbols import A

nonzero = st.fractions(min_value=-5, max_value=5, max_denominator=4).filter(lambda q: q != 0)


def _pairs(draw_list):
    return [(sympy.Rational(a.numerator, a.denominator), sympy.Rational(c.numerator, c.denominator), f"proof {i}")
            for i, (a, c) in enumerate(draw_list)]


@given(st.lists(st.tuples(nonzero, nonzero), min_size=1, max_size=5, unique_by=lambda p: p[0]))
def test_each_pair_is_kept_under_a_formula_that_gives_its_c(raw) -> None:
    finite = _pairs(raw)
    groups = _finite_groups(finite)
    kept = [pair for _, group in groups for pair in group]
    assert sorted(kept, key=str) == sorted(finite, key=str)
    for formula, group in groups:
        for a0, c0, _ in group:
            assert formula is None or formula.subs(A, a0) == c0, (formula, a0, c0)
    one_formula = all(c == a for a, c, _ in finite) or len({c for _, c, _ in finite}) == 1
    assert (len(groups) == 1 and groups[0][0] is not None) is one_formula


@given(nonzero, nonzero)
def test_one_pair_is_one_formula(a, c) -> None:
    finite = _pairs([(a, c)])
    assert _finite_groups(finite) == [(A if a == c else sympy.Rational(c.numerator, c.denominator), finite)]


def test_no_pair_is_no_formula() -> None:
    assert _finite_groups([]) == []
