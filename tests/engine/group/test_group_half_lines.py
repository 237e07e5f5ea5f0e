"""The α-sets of a group component are named by kind: positive (0, ∞), negative (−∞, 0), all
(both, R without 0). A slip in the table (one half written twice) reports a set half its size."""
from __future__ import annotations

import pytest
import sympy
from sympy import S

from symcheck.engine.group.results import ASetKind, _half_lines

POS, NEG = sympy.Interval.open(0, S.Infinity), sympy.Interval.open(-S.Infinity, 0)


@pytest.mark.parametrize("kind, expected", [(ASetKind.POSITIVE, POS), (ASetKind.NEGATIVE, NEG),
                                            (ASetKind.ALL, sympy.Union(NEG, POS))], ids=str)
def test_each_kind_is_its_half_lines(kind, expected) -> None:
    got = _half_lines(kind)
    assert got == expected
    for a in (-3, -S.Half, S.Half, 3):
        assert (a in got) is (a in expected)
    assert 0 not in got
