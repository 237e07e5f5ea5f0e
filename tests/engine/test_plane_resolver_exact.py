"""On a case the two-variable decider replaces every Piecewise, Abs, Max, Min, sign and
Heaviside by the branch that holds there. The branch-free expression must be exact — the same
number as the original at every point of the case, with no Float in it: a float in an exact
expression (sign read as 1.0) is either a rounding of a value proved with or a term SymPy
folds away (1.0·x − x is 0), and a proof of zero built on it proves nothing."""
from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from sympy import S

from symcheck.engine.plane import Case, _Resolver
from symcheck.exact.regions import Region

x, y = sympy.symbols("x y", real=True)
third = S(1) / 3

#: one branching function of each kind, with exact coefficients a float could not hold
BRANCHING = [
    sympy.sign(x - 1) * x * third + sympy.sign(y) * y,
    sympy.Heaviside(x - 1) * third + sympy.Heaviside(-y, third) * y,
    sympy.Abs(x - 1) * third - sympy.Abs(y) / 7,
    sympy.Max(x * third, x / 7, y) - sympy.Min(x * third, 2 * y),
    sympy.Piecewise((x * third, x > 1), (x / 7, True)) + sympy.Piecewise((y / 3, y >= 0), (-y, True)),
    sympy.sign(sympy.sign(x - 1) * third + y) * y,
]
CASES = [Case(((x, Region(S.One, S.Infinity)), (y, Region(-S.Infinity, S.Zero)))),
         Case(((x, Region(-S.Infinity, S.One)), (y, Region(S.Zero, S.Infinity)))),
         Case(((x, Region(S.One, S.One)), (y, Region(S.Zero, S.Zero)))),
         Case(((x, Region(S(-2), S.One)), (y, Region(S(1) / 2, S(1) / 2))))]


def _inside(case: Case, t: sympy.Rational) -> dict:
    """A rational point of the case: each open region's parametrisation at the positive t."""
    subs = case.substitution()
    return {v: subs[v].subs({s: t for s in subs[v].free_symbols}) if v in subs else t for v, _ in case.regions}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.describe())
@pytest.mark.parametrize("expr", BRANCHING, ids=str)
@given(t=st.fractions(min_value=0, max_value=50).filter(lambda q: q > 0))
def test_the_branch_free_expression_is_exact_and_equal_on_the_case(case, expr, t) -> None:
    try:
        resolved = _Resolver(case).resolve(expr)
    except Exception as err:  # a cut needed first: the decider cuts the case; nothing to compare
        assert type(err).__name__ in ("_Split", "Undecided"), err
        return
    assert not resolved.atoms(sympy.Float), resolved
    assert not resolved.has(sympy.Piecewise, sympy.Abs, sympy.Max, sympy.Min, sympy.sign, sympy.Heaviside)
    point = _inside(case, sympy.Rational(t.numerator, t.denominator))
    assert resolved.subs(point) == expr.subs(point)
