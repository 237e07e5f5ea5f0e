"""asin is not analytic wherever its argument reaches ±1, so the group's maximality arguments must
not treat a piece with asin as analytic.

σ = asin(sin²z) + |z − 1| has a kink at z = 1 (the |·|) and, since asin(1 − u²) ≈ π/2 − √2·|u|,
one at every z = π/2 + kπ where sin²z = 1. The break-point argument rests on "the non-analytic
points of σ away from 0 are exactly the cuts": here that would be N ∖ {0} = {1}, false. It is
certified in the report only if every piece is analytic on its interval, which asin(sin²z) is not.
"""
from __future__ import annotations

import sympy

from symcheck.engine.group.assemble import symmetry_group
from symcheck.engine.group.facts import analytic
from symcheck.language.symbols import Z


def test_asin_is_not_taken_as_analytic() -> None:
    """asin(sin²z) is analytic on no interval around π/2 + kπ: not on every interval (point None),
    not at π/2 itself."""
    assert not analytic(sympy.asin(sympy.sin(Z) ** 2))
    assert not analytic(sympy.asin(sympy.sin(Z) ** 2), sympy.pi / 2)
    assert analytic(sympy.asinh(sympy.sin(Z) ** 2))  # the allowed functions still are


def test_no_break_point_argument_is_stated_for_a_piece_with_asin() -> None:
    g = symmetry_group("asin(sin(z)**2) + Abs(z - 1)", timeout=60)
    assert not any(s.title in ("Break points", "Invariance of N") for s in g.maximality), \
        [(s.title, s.statement) for s in g.maximality]
    assert not g.complete
    assert g.contains(1, 1) is True and g.contains(-1, 1) is not True
