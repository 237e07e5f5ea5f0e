"""Definedness reads a branch's region exactly: `2·z > 1` is z > 1/2, not z > 1."""
from __future__ import annotations

import pytest

from symcheck.core.errors import DomainError
from symcheck.language.parsing import parse_activation


@pytest.mark.parametrize(("text", "point"), [
    ("Piecewise((log(z - 1), 2*z > 1), (0, True))", "z = 1"),
    ("Piecewise((log(z - 1), z + 1 > 3/2), (0, True))", "z = 1"),
    ("Piecewise((sqrt(z - 2), -z < -1), (0, True))", None),
    ("Piecewise((1/(z - 1), z**2 > 0), (0, True))", "z = 1"),
])
def test_a_branch_defined_only_on_part_of_its_region_is_refused(text: str, point: str | None) -> None:
    with pytest.raises(DomainError) as info:
        parse_activation(text)
    if point is not None:
        assert point in str(info.value)


@pytest.mark.parametrize("text", [
    "Piecewise((log(z - 1), 2*z > 3), (0, True))",
    "Piecewise((log(z), z > 0), (0, True))",
    "Piecewise((sqrt(z - 2), z >= 2), (0, True))",
    "Piecewise((1/(z - 1), z < 1/2), (0, True))",
])
def test_a_branch_defined_on_its_whole_region_is_accepted(text: str) -> None:
    parse_activation(text)
