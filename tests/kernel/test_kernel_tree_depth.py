"""The kernel refuses a tree nested deeper than MAX_DEPTH, counting every level: the values and the
conditions of a piecewise one level further in, and a relation's sides one more. A chain of
piecewise nested through their conditions is as deep as it is long."""
from __future__ import annotations

import pytest

from symcheck.kernel.tree import MAX_DEPTH, parse_expr
from symcheck.kernel.verdict import Reject


def through_conditions(levels: int) -> list:
    node: list = ["var", "z"]
    for _ in range(levels):
        node = ["piecewise", [["int", 0], ["gt", node, ["int", 0]]], [["int", 1], ["true"]]]
    return node


def through_values(levels: int) -> list:
    node: list = ["var", "z"]
    for _ in range(levels):
        node = ["piecewise", [node, ["true"]]]
    return node


@pytest.mark.parametrize("build", [through_conditions, through_values])
def test_a_chain_deeper_than_the_limit_is_refused(build) -> None:
    with pytest.raises(Reject, match="deeper"):
        parse_expr(build(MAX_DEPTH))


@pytest.mark.parametrize("build, per_level", [(through_conditions, 3), (through_values, 2)])
def test_a_chain_within_the_limit_is_read(build, per_level: int) -> None:
    parse_expr(build(MAX_DEPTH // per_level - 1))
