"""The kernel's connectives over a box: `not` negates its one condition (undecided stays
undecided), `and` is false once a part is false, `or` true once a part is true, and each is
undecided otherwise — Kleene's three-valued logic. A slip that reads `not`'s argument from the
wrong place, or decides `and`/`or` from the wrong value, decides conditions the box does not.
Checked on relations of z to 2 over small balls about 1 and 3 (decided) and about 2 (undecided)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb

from symcheck.kernel.evaluate import precision, truth_over

Z = ("var", "z")
GT2 = ("gt", Z, ("int", 2))
LT2 = ("lt", Z, ("int", 2))


def _box(centre: int) -> dict:
    return {"z": arb(centre, float(Fraction(1, 1000)))}


@pytest.mark.parametrize("centre, gt2", [(1, False), (3, True), (2, None)])
def test_not_negates_its_one_condition(centre, gt2) -> None:
    with precision(64):
        assert truth_over(GT2, _box(centre), None) is gt2
        assert truth_over(("not", GT2), _box(centre), None) is (None if gt2 is None else not gt2)
        assert truth_over(("not", ("not", GT2)), _box(centre), None) is gt2


@pytest.mark.parametrize("centre, conj, disj", [
    (1, False, True),     # z > 2 fails, z < 2 holds
    (3, False, True),     # z > 2 holds, z < 2 fails
    (2, None, None),      # neither decided
])
def test_and_and_or_are_three_valued(centre, conj, disj) -> None:
    with precision(64):
        assert truth_over(("and", GT2, LT2), _box(centre), None) is conj
        assert truth_over(("or", GT2, LT2), _box(centre), None) is disj
        assert truth_over(("and", ("true",), GT2), _box(centre), None) is truth_over(GT2, _box(centre), None)
        assert truth_over(("or", ("false",), GT2), _box(centre), None) is truth_over(GT2, _box(centre), None)
        assert truth_over(("and", ("false",), GT2), _box(centre), None) is False
        assert truth_over(("or", ("true",), GT2), _box(centre), None) is True
