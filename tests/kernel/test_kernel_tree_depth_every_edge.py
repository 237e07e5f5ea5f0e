"""Every edge of the tree counts toward MAX_DEPTH: each argument of add, mul, pow (base and exponent)
and of a function, a piecewise's values and conditions (two levels), a relation's two sides, and
the parts of and/or/not. For a chain through any one edge the kernel reads exactly the trees whose
depth, by that rule, is at most MAX_DEPTH, and refuses the next one up."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from symcheck.kernel.tree import MAX_DEPTH, parse_expr
from symcheck.kernel.verdict import Reject

ONE, ZERO = ["int", 1], ["int", 0]


def rule_depth(obj: list, d: int = 0) -> int:
    """The deepest level by the documented rule, computed on the JSON itself."""
    head = obj[0]
    if head == "piecewise":
        return max(max(rule_depth(v, d + 2), rule_depth(c, d + 2)) for v, c in obj[1:])
    kids = [a for a in obj[1:] if isinstance(a, list)]
    return max((rule_depth(a, d + 1) for a in kids), default=d)


def in_condition(cond: Callable[[list], list]) -> Callable[[list], list]:
    return lambda x: ["piecewise", [ZERO, cond(x)], [ONE, ["true"]]]


EDGES: dict[str, Callable[[list], list]] = {
    "add first": lambda x: ["add", x, ONE],
    "add second": lambda x: ["add", ONE, x],
    "mul first": lambda x: ["mul", x, ONE],
    "mul last": lambda x: ["mul", ONE, ONE, x],
    "pow base": lambda x: ["pow", x, ["int", 2]],
    "pow exponent": lambda x: ["pow", ["int", 2], x],
    "function": lambda x: ["exp", x],
    "piecewise value": lambda x: ["piecewise", [x, ["true"]]],
    "piecewise later value": lambda x: ["piecewise", [ZERO, ["false"]], [x, ["true"]]],
    "relation left": in_condition(lambda x: ["gt", x, ZERO]),
    "relation right": in_condition(lambda x: ["lt", ZERO, x]),
    "and first": in_condition(lambda x: ["and", ["gt", x, ZERO], ["true"]]),
    "or second": in_condition(lambda x: ["or", ["false"], ["ge", x, ZERO]]),
    "not": in_condition(lambda x: ["not", ["eq", x, ZERO]]),
}


def chain(edge: Callable[[list], list], levels: int) -> list:
    node: list = ["var", "z"]
    for _ in range(levels):
        node = edge(node)
    return node


def deepest_within(edge: Callable[[list], list]) -> int:
    levels = 0
    while rule_depth(chain(edge, levels + 1)) <= MAX_DEPTH:
        levels += 1
    return levels


@pytest.mark.parametrize("name", list(EDGES))
def test_the_limit_is_exact_for_a_chain_through_each_edge(name: str) -> None:
    edge = EDGES[name]
    levels = deepest_within(edge)
    assert 0 < levels <= MAX_DEPTH
    parse_expr(chain(edge, levels))  # at the limit: read
    with pytest.raises(Reject, match="deeper"):
        parse_expr(chain(edge, levels + 1))  # one level more: refused


def test_the_rule_counts_two_levels_for_a_piecewise() -> None:
    assert rule_depth(["piecewise", [["var", "z"], ["gt", ["var", "z"], ZERO]]]) == 3
    assert rule_depth(["add", ["exp", ["var", "z"]], ONE]) == 2


@pytest.mark.parametrize("limit", [2, 10, 40, 120])
def test_a_shown_tree_is_cut_to_its_limit(limit: int) -> None:
    """Reasons quote trees cut to `limit` characters, the last one an ellipsis."""
    from symcheck.kernel.tree import show

    long = chain(EDGES["add first"], 60)
    text = show(long, limit)
    assert len(text) == limit and text.endswith("…")
    assert text[:-1] == show(long, 10_000)[:limit - 1]
    assert show(["var", "z"], limit=20) == '["var","z"]'
