"""The solver's root proposals are cached per (expression, variable, domain): a cache keyed
without the variable would hand the roots of g in z to a question about g in a (a split asks
the same expression of several variables), proposing points of the wrong variable and losing
the real ones. Proposals are proved before use, so the slip costs proofs, not soundness; this
pins the key."""
from __future__ import annotations

import sympy

from symcheck.exact.roots import _solveset_on
from symcheck.language.symbols import A, Z


def test_the_same_expression_in_another_variable_is_asked_afresh() -> None:
    _solveset_on.cache_clear()
    assert _solveset_on(Z**2 - 1, Z, sympy.S.Reals) == (-1, 1)
    assert _solveset_on(Z**2 - 1, A, sympy.S.Reals) == ()     # z is a constant here: no root in a
    assert _solveset_on(A**2 - 4, A, sympy.Interval(0, 5)) == (2,)
    assert _solveset_on(A**2 - 4, Z, sympy.Interval(0, 5)) == ()


def test_the_same_expression_on_another_domain_is_asked_afresh() -> None:
    _solveset_on.cache_clear()
    assert _solveset_on(Z**2 - 1, Z, sympy.Interval(0, 5)) == (1,)
    assert _solveset_on(Z**2 - 1, Z, sympy.Interval(-5, 0)) == (-1,)
