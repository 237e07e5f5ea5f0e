"""A relation whose own terms have undecided branches is undecided, never declared true.

``_decide_relational`` specialises ``lhs - rhs`` on the region; when a Piecewise inside it keeps
several forms (its condition, here ``sin z > 0`` on a half-line, cannot be cut finitely) the
relation's truth varies with the branch, so the answer must be None (keep every branch). The
slip ``return None`` → ``return True`` (regions:367) would select one branch for the whole
region: ``Eq(P, 0)`` with ``P ∈ {1, -1}`` is false everywhere, yet would be "true".

SymPy's ExprCondPair folds a Piecewise out of any condition it is built with, so through
``split`` this line is reached only by a Piecewise assembled from raw parts; the decision is
tested on ``_decide`` directly (its contract: the truth on the whole region, or None) and on
``split`` with such a raw Piecewise. The oracle is exact: the sign of sin at a rational point
by :func:`exact_sign`.
"""
from __future__ import annotations

import pytest
import sympy
from sympy import S
from sympy.functions.elementary.piecewise import ExprCondPair

from symcheck.core.budget import Budget
from symcheck.exact.regions import Region, _decide, _Log, split
from symcheck.exact.signs import exact_sign
from symcheck.language.symbols import Z

RELATIONS = [sympy.StrictGreaterThan, sympy.GreaterThan, sympy.StrictLessThan, sympy.LessThan,
             sympy.Eq, sympy.Ne]
#: 1 where sin z > 0, else -1: its condition cannot be cut on a half-line
SIGN_OF_SIN = sympy.Piecewise((S.One, sympy.sin(Z) > 0), (-S.One, True))
#: points of z > 0 where sin z > 0 (1, 2) and where sin z < 0 (4, 5)
POSITIVE = [S(1), S(2), S(4), S(5)]


def truth_at(rel: type, q: sympy.Rational) -> bool:
    value = S.One if exact_sign(sympy.sin(q)) > 0 else -S.One
    return bool(rel(value, 0))


@pytest.mark.parametrize("rel", RELATIONS, ids=lambda r: r.__name__)
def test_a_relation_on_an_uncut_piecewise_is_never_given_a_wrong_truth(rel: type) -> None:
    cond = rel(SIGN_OF_SIN, 0, evaluate=False)
    log = _Log()
    truth = _decide(cond, Z, Region(S.Zero, S.Infinity), Budget(60), log)
    if truth is not None:
        assert all(truth_at(rel, q) is truth for q in POSITIVE), (rel, truth)
    assert log.undecided  # the uncut condition is recorded


def test_equal_to_zero_of_a_sign_that_is_never_zero_is_not_true() -> None:
    """Eq(P, 0) with P ∈ {1, -1}: its forms differ, so undecided (None), not True."""
    truth = _decide(sympy.Eq(SIGN_OF_SIN, 0, evaluate=False), Z, Region(S.Zero, S.Infinity),
                    Budget(60), _Log())
    assert truth is None


def test_split_keeps_both_branches_of_a_condition_on_an_uncut_piecewise() -> None:
    """End to end, with the Piecewise kept inside the relation (built from raw parts)."""
    cond = sympy.StrictGreaterThan(SIGN_OF_SIN, 0, evaluate=False)
    expr = sympy.Basic.__new__(sympy.Piecewise, sympy.Tuple.__new__(ExprCondPair, S.One, cond),
                               ExprCondPair(S.Zero, True))
    assert expr.args[0].cond.has(sympy.Piecewise)  # not folded away
    pieces = split(expr, Z, Budget(60))
    right = [p for p in pieces if p.region == Region(S.Zero, S.Infinity)]
    assert len(right) == 1
    # the value is 1 at z = 1 and 0 at z = 4: both must be kept
    assert set(right[0].alternatives) == {S.Zero, S.One}
