"""The kernel's expression grammar (``kernel/tree.parse_expr``): a one-argument node is accepted
exactly when its head is a function of ``FUNCTIONS``. A relation or connective head in a value
position ("gt" of one argument) is no value the kernel can evaluate, and the evaluator relies on
the parser for that (it has no case for such heads): each is refused here by name."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symcheck.kernel.tree import FUNCTIONS, RELATIONS, parse_expr
from symcheck.kernel.verdict import Reject

Z = ["var", "z"]
#: heads of the grammar that take other than one value argument
OTHER_HEADS = {"int", "rat", "var", "const", "add", "mul", "pow", "piecewise"}


@pytest.mark.parametrize("head", sorted(FUNCTIONS))
def test_every_function_takes_one_argument(head: str) -> None:
    assert parse_expr([head, Z]) == (head, ("var", "z"))
    with pytest.raises(Reject):
        parse_expr([head, Z, Z])


@pytest.mark.parametrize("head", sorted(RELATIONS | {"and", "or", "not", "true", "false"}))
def test_a_condition_head_is_no_value(head: str) -> None:
    with pytest.raises(Reject):
        parse_expr([head, Z])


@given(st.text(min_size=1, max_size=8).filter(lambda h: h not in FUNCTIONS | OTHER_HEADS))
def test_any_other_head_of_one_argument_is_refused(head: str) -> None:
    with pytest.raises(Reject):
        parse_expr([head, Z])
