"""A check's α is the scaling check's own: every other check, absorb included, reports none
(``_sides`` returns α's text last; a slip returning a side there would put an array in the report).
"""
from __future__ import annotations

import pytest

from symcheck.numeric import checks


@pytest.mark.parametrize("name", ["exchange", "rank1", "absorb"])
def test_a_check_without_alpha_reports_none(name: str) -> None:
    assert checks.prepare(name, act="silu", d=4, m=3, tokens=2).alpha is None


@pytest.mark.parametrize("alpha", ["3", "1/3", "-2"])
def test_the_scaling_check_reports_the_alpha_it_used(alpha: str) -> None:
    check = checks.prepare("scaling", act="relu", d=4, m=3, tokens=2, alpha=alpha)
    assert isinstance(check.alpha, str) and check.alpha == alpha
